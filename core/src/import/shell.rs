//! Splitting shell text into words the way a POSIX shell would before it
//! runs a command, keeping where each word starts. Used for `bwrap`
//! command lines and for Compose's string form of `command`.
//!
//! Nothing is expanded: `$HOME` stays `$HOME` (the importer says so in a
//! note), and command substitution is kept as text.

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

    fn advance(loc: &mut Loc, c: char) {
        if c == '\n' {
            loc.line += 1;
            loc.column = 1;
        } else {
            loc.column += 1;
        }
    }
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
                        Some(n) => {
                            advance(&mut loc, n);
                            if n == '$' || n == '`' {
                                w.expands = true;
                            }
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
                w.text.push(c);
            }
            _ => start(&mut cur, here).text.push(c),
        }
    }
    if let Some(w) = cur.take() {
        out.push(w);
    }
    Ok(out)
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
