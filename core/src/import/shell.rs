//! Splitting shell text into words the way a POSIX shell would before it
//! runs a command, keeping where each word starts. Used for `bwrap`
//! command lines and for Compose's string form of `command`.
//!
//! Nothing is expanded: `$HOME` stays `$HOME` (the importer says so in a
//! note), and command substitution is kept as text.

use std::iter::Peekable;
use std::str::Chars;

use super::tree::Loc;
use super::{ImportError, ImportErrorKind};

/// One word, or a control operator (`;`, `&&`, `|`, a newline, ...).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Word {
    pub text: String,
    pub loc: Loc,
    /// A control operator rather than a word; `text` holds it.
    pub operator: bool,
    /// Whether an unquoted `$` or backquote appeared (an expansion the
    /// importer cannot resolve).
    pub expands: bool,
}

/// Split `text` (starting at `origin`) into words and operators.
pub fn split(text: &str, origin: Loc) -> Result<Vec<Word>, ImportError> {
    let mut out: Vec<Word> = Vec::new();
    let mut cur: Option<Word> = None;
    let mut loc = origin;
    let mut chars = text.chars().peekable();

    fn start(cur: &mut Option<Word>, loc: Loc) -> &mut Word {
        cur.get_or_insert_with(|| Word {
            text: String::new(),
            loc,
            operator: false,
            expands: false,
        })
    }

    while let Some(c) = chars.next() {
        let here = loc;
        advance(&mut loc, c);
        match c {
            '\\' => match chars.next() {
                // A line continuation disappears.
                Some('\n') => advance(&mut loc, '\n'),
                Some(n) => {
                    advance(&mut loc, n);
                    start(&mut cur, here).text.push(n);
                }
                None => start(&mut cur, here).text.push('\\'),
            },
            '\'' => {
                let w = start(&mut cur, here);
                loop {
                    match chars.next() {
                        Some('\'') => {
                            advance(&mut loc, '\'');
                            break;
                        }
                        Some(n) => {
                            advance(&mut loc, n);
                            w.text.push(n);
                        }
                        None => return Err(unterminated("single", here)),
                    }
                }
            }
            '"' => {
                let w = start(&mut cur, here);
                loop {
                    match chars.next() {
                        Some('"') => {
                            advance(&mut loc, '"');
                            break;
                        }
                        Some('\\') => {
                            advance(&mut loc, '\\');
                            match chars.next() {
                                Some('\n') => advance(&mut loc, '\n'),
                                Some(n @ ('$' | '`' | '"' | '\\')) => {
                                    advance(&mut loc, n);
                                    w.text.push(n);
                                }
                                Some(n) => {
                                    advance(&mut loc, n);
                                    w.text.push('\\');
                                    w.text.push(n);
                                }
                                None => return Err(unterminated("double", here)),
                            }
                        }
                        Some(n @ ('$' | '`')) => {
                            let at = loc;
                            advance(&mut loc, n);
                            w.expands = true;
                            substitution(n, &mut chars, &mut loc, &mut w.text, at)?;
                        }
                        Some(n) => {
                            advance(&mut loc, n);
                            w.text.push(n);
                        }
                        None => return Err(unterminated("double", here)),
                    }
                }
            }
            '#' if cur.is_none() => {
                // A comment runs to the end of the line.
                while let Some(&n) = chars.peek() {
                    if n == '\n' {
                        break;
                    }
                    chars.next();
                    advance(&mut loc, n);
                }
            }
            ' ' | '\t' | '\r' => {
                if let Some(w) = cur.take() {
                    out.push(w);
                }
            }
            '\n' | ';' | '|' | '&' | '<' | '>' | '(' | ')' => {
                if let Some(w) = cur.take() {
                    // `2>file`, `10<file`: the digits name a file descriptor
                    // of the redirection, not an argument.
                    let fd = matches!(c, '<' | '>')
                        && !w.text.is_empty()
                        && w.text.bytes().all(|b| b.is_ascii_digit())
                        && w.loc.column + u32::try_from(w.text.len()).unwrap_or(0) == here.column;
                    if !fd {
                        out.push(w);
                    }
                }
                let mut op = c.to_string();
                if matches!(c, '|' | '&' | ';' | '>' | '<') {
                    if let Some(&n) = chars.peek() {
                        if n == c {
                            chars.next();
                            advance(&mut loc, n);
                            op.push(n);
                        }
                    }
                }
                out.push(Word {
                    text: op,
                    loc: here,
                    operator: true,
                    expands: false,
                });
            }
            '$' | '`' => {
                let w = start(&mut cur, here);
                w.expands = true;
                substitution(c, &mut chars, &mut loc, &mut w.text, here)?;
            }
            _ => start(&mut cur, here).text.push(c),
        }
    }
    if let Some(w) = cur.take() {
        out.push(w);
    }
    Ok(out)
}

fn advance(loc: &mut Loc, c: char) {
    if c == '\n' {
        loc.line += 1;
        loc.column = 1;
    } else {
        loc.column += 1;
    }
}

/// After a `$` or a backquote (already read, `first`): copy an expansion
/// whole into `text`, so that `$(id -u)`, `` `id -u` ``, `${X:-a b}` and
/// `$((1 + 2))` stay one opaque part of the word, as the shell keeps them,
/// instead of their spaces and parentheses splitting the command line.
fn substitution(
    first: char,
    chars: &mut Peekable<Chars<'_>>,
    loc: &mut Loc,
    text: &mut String,
    at: Loc,
) -> Result<(), ImportError> {
    text.push(first);
    let close = match (first, chars.peek()) {
        ('`', _) => '`',
        ('$', Some('(')) => ')',
        ('$', Some('{')) => '}',
        _ => return Ok(()),
    };
    let open = if first == '`' {
        None
    } else {
        let o = chars.next().unwrap_or('(');
        advance(loc, o);
        text.push(o);
        Some(o)
    };
    let mut depth = 1usize;
    let mut quote: Option<char> = None;
    while let Some(c) = chars.next() {
        advance(loc, c);
        text.push(c);
        match (quote, c) {
            (_, '\\') if quote != Some('\'') => {
                if let Some(n) = chars.next() {
                    advance(loc, n);
                    text.push(n);
                }
            }
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '\'' | '"') if open.is_some() => quote = Some(c),
            (None, c) if Some(c) == open => depth += 1,
            (None, c) if c == close => {
                depth -= 1;
                if depth == 0 {
                    return Ok(());
                }
            }
            _ => {}
        }
    }
    Err(ImportError::new(ImportErrorKind::Syntax(format!(
        "unterminated `{}` in the command line",
        if first == '`' {
            "`".to_string()
        } else {
            format!("${}", open.unwrap_or('('))
        }
    )))
    .at(at))
}

fn unterminated(kind: &str, at: Loc) -> ImportError {
    ImportError::new(ImportErrorKind::Syntax(format!(
        "unterminated {kind}-quoted string in the command line"
    )))
    .at(at)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(s: &str) -> Vec<String> {
        split(s, Loc { line: 1, column: 1 })
            .unwrap()
            .into_iter()
            .map(|w| w.text)
            .collect()
    }

    #[test]
    fn quoting_and_continuations() {
        assert_eq!(
            words("bwrap --ro-bind '/a b' \"/c\\\"d\" \\\n  --setenv X $HOME"),
            [
                "bwrap",
                "--ro-bind",
                "/a b",
                "/c\"d",
                "--setenv",
                "X",
                "$HOME"
            ]
        );
        assert_eq!(words("a && b # c d\ne"), ["a", "&&", "b", "\n", "e"]);
        assert_eq!(
            words("run x 10<f 2>&1"),
            ["run", "x", "<", "f", ">", "&", "1"]
        );
        assert_eq!(words("'a b'c d"), ["a bc", "d"]);
    }

    /// Command substitution, arithmetic and braced expansions are one
    /// opaque part of their word, quoted or not; nothing after them is lost.
    #[test]
    fn substitutions_stay_whole() {
        let table: &[(&str, &[&str])] = &[
            (
                "--dir /run/user/`id -u` --unshare-pid",
                &["--dir", "/run/user/`id -u`", "--unshare-pid"],
            ),
            (
                "--dir /run/user/$(id -u) x",
                &["--dir", "/run/user/$(id -u)", "x"],
            ),
            (
                "--setenv X \"/run/user/`id -u`\" y",
                &["--setenv", "X", "/run/user/`id -u`", "y"],
            ),
            ("a \"$(echo \"b c\")\" d", &["a", "$(echo \"b c\")", "d"]),
            (
                "a $(echo $(id -g) ')') b",
                &["a", "$(echo $(id -g) ')')", "b"],
            ),
            ("a $((1 + 2)) b", &["a", "$((1 + 2))", "b"]),
            ("a ${X:-p q} b", &["a", "${X:-p q}", "b"]),
            ("a `echo \\` x` b", &["a", "`echo \\` x`", "b"]),
            ("a \"$@\" b", &["a", "$@", "b"]),
            ("a $HOME/x b", &["a", "$HOME/x", "b"]),
            ("a '$(x' b", &["a", "$(x", "b"]),
        ];
        for (text, want) in table {
            assert_eq!(words(text), *want, "{text}");
        }
        for bad in ["a $(b", "a `b", "a ${b", "a \"$(b\""] {
            assert!(split(bad, Loc { line: 1, column: 1 }).is_err(), "{bad}");
        }
        let w = split("x $(a\nb) y", Loc { line: 1, column: 1 }).unwrap();
        assert_eq!(w[2].loc, Loc { line: 2, column: 4 });
    }

    #[test]
    fn positions_follow_continuations() {
        let w = split("bwrap \\\n  --bind /x /y", Loc { line: 3, column: 1 }).unwrap();
        assert_eq!(w[1].loc, Loc { line: 4, column: 3 });
        assert_eq!(
            w[3].loc,
            Loc {
                line: 4,
                column: 13
            }
        );
        assert!(split("x \"$Y\"", Loc { line: 1, column: 1 }).unwrap()[1].expands);
    }

    #[test]
    fn unterminated_quotes_are_errors() {
        let e = split("a 'b", Loc { line: 1, column: 1 }).unwrap_err();
        assert_eq!(e.loc, Some(Loc { line: 1, column: 3 }));
        assert!(split("a \"b", Loc { line: 1, column: 1 }).is_err());
    }
}
