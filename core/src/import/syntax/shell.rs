//! Splitting shell text into words the way a POSIX shell would before it
//! runs a command, keeping where each word starts. Used for `bwrap`
//! command lines and for Compose's string form of `command`. The words are
//! those the command rules read ([`crate::shell::lex::tokens`]).
//!
//! Nothing is expanded: `$HOME` stays `$HOME` (the importer says so in a
//! note), and command substitution is kept as text.

use super::tree::Loc;
use crate::import::{ImportError, ImportErrorKind};
use crate::shell::lex::tokens;

/// One word, or a control or redirection operator (`;`, `&&`, `|`, `>`, a
/// newline, ...).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Word {
    pub text: String,
    pub loc: Loc,
    /// An operator rather than a word; `text` holds it.
    pub operator: bool,
    /// Whether a `$`, backquote or process substitution appeared outside
    /// single quotes (an expansion the importer cannot resolve).
    pub expands: bool,
    /// It may stand for any number of words, none included (`"$@"`, an
    /// array the script builds where its words cannot be read).
    pub any: bool,
}

/// Split `text` (starting at `origin`) into words and operators.
pub fn split(text: &str, origin: Loc) -> Result<Vec<Word>, ImportError> {
    let scan = tokens(text);
    if let Some((opener, at)) = scan.unterminated {
        let what = match opener {
            "'" => "single-quoted string".to_string(),
            "\"" => "double-quoted string".to_string(),
            _ => format!("`{opener}`"),
        };
        let loc = advance(origin, text.get(..at).unwrap_or(""));
        return Err(ImportError::new(ImportErrorKind::Syntax(format!(
            "unterminated {what} in the command line"
        )))
        .at(loc));
    }
    // Tokens come in order: each location moves on from the last.
    let (mut loc, mut done) = (origin, 0);
    Ok(scan
        .tokens
        .into_iter()
        .map(|t| {
            loc = advance(loc, text.get(done..t.at).unwrap_or(""));
            done = t.at;
            Word {
                text: t.text,
                loc,
                operator: t.operator,
                expands: t.expands,
                any: false,
            }
        })
        .collect())
}

/// `loc` moved past `text`: a column per character, lines at line breaks
/// (line continuations included).
fn advance(mut loc: Loc, text: &str) -> Loc {
    for c in text.chars() {
        if c == '\n' {
            loc.line += 1;
            loc.column = 1;
        } else {
            loc.column += 1;
        }
    }
    loc
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
        assert_eq!(words("run x 10<f 2>&1"), ["run", "x", "<", "f", ">&", "1"]);
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
        // Columns count characters, not bytes.
        let w = split("héllo 'ü' \\\n x", Loc { line: 2, column: 5 }).unwrap();
        assert_eq!(
            w[1].loc,
            Loc {
                line: 2,
                column: 11
            }
        );
        assert_eq!(w[2].loc, Loc { line: 3, column: 2 });
        let e = split("é x 'ü", Loc { line: 1, column: 1 }).unwrap_err();
        assert_eq!(e.loc, Some(Loc { line: 1, column: 5 }));
    }

    #[test]
    fn unterminated_quotes_are_errors() {
        let e = split("a 'b", Loc { line: 1, column: 1 }).unwrap_err();
        assert_eq!(e.loc, Some(Loc { line: 1, column: 3 }));
        assert!(split("a \"b", Loc { line: 1, column: 1 }).is_err());
    }

    /// The importers' words and the rules' commands come from one
    /// tokenizer: both readings of each text, side by side. Where the two
    /// tokenizers they replaced disagreed, the comment says what changed.
    #[test]
    fn one_tokenizer_for_importers_and_rules() {
        type Row = (
            &'static str,
            Result<&'static [&'static str], &'static str>,
            &'static [&'static [&'static str]],
        );
        let table: &[Row] = &[
            ("a b  c", Ok(&["a", "b", "c"]), &[&["a", "b", "c"]]),
            ("'a b'c d", Ok(&["a bc", "d"]), &[&["a bc", "d"]]),
            (
                r#""a \"b\" \\ \$ \x" e"#,
                Ok(&[r#"a "b" \ $ \x"#, "e"]),
                &[&[r#"a "b" \ $ \x"#, "e"]],
            ),
            (r"a\ b c\\d", Ok(&["a b", r"c\d"]), &[&["a b", r"c\d"]]),
            ("a \\\n  b", Ok(&["a", "b"]), &[&["a", "b"]]),
            ("\"a\\\nb\" c", Ok(&["ab", "c"]), &[&["ab", "c"]]),
            ("a # comment\nb", Ok(&["a", "\n", "b"]), &[&["a"], &["b"]]),
            ("a#b #c", Ok(&["a#b"]), &[&["a#b"]]),
            (
                "a;b;;c",
                Ok(&["a", ";", "b", ";;", "c"]),
                &[&["a"], &["b"], &["c"]],
            ),
            (
                "a&&b||c",
                Ok(&["a", "&&", "b", "||", "c"]),
                &[&["a"], &["b"], &["c"]],
            ),
            ("a|b", Ok(&["a", "|", "b"]), &[&["a"], &["b"]]),
            // bash pipes stderr too; was `|`, `&` (a background job).
            ("a |& b", Ok(&["a", "|&", "b"]), &[&["a"], &["b"]]),
            ("a & b", Ok(&["a", "&", "b"]), &[&["a"], &["b"]]),
            (
                "(a) ; { b; }",
                Ok(&["(", "a", ")", ";", "{", "b", ";", "}"]),
                &[&["a"], &["b"]],
            ),
            ("a >f <g", Ok(&["a", ">", "f", "<", "g"]), &[&["a"]]),
            ("a >>f <<EOF", Ok(&["a", ">>", "f", "<<", "EOF"]), &[&["a"]]),
            // was `<<`, `-EOF`.
            ("a <<-EOF", Ok(&["a", "<<-", "EOF"]), &[&["a"]]),
            // was `<<`, `<`.
            ("a <<<word", Ok(&["a", "<<<", "word"]), &[&["a"]]),
            // was `>`, `&`, `1`, `<`, `&`, `0`.
            ("a 2>&1 3<&0", Ok(&["a", ">&", "1", "<&", "0"]), &[&["a"]]),
            // was `<`, `>` and `>`, `|` (a pipe).
            ("a <>f >|g", Ok(&["a", "<>", "f", ">|", "g"]), &[&["a"]]),
            // was `&` (a background job), `>`.
            ("a &>f &>>g", Ok(&["a", "&>", "f", "&>>", "g"]), &[&["a"]]),
            (
                "a 10<f 2>/dev/null",
                Ok(&["a", "<", "f", ">", "/dev/null"]),
                &[&["a"]],
            ),
            // quoted digits are arguments; the rules dropped them.
            (
                r#"a "2">f '3'<g"#,
                Ok(&["a", "2", ">", "f", "3", "<", "g"]),
                &[&["a", "2", "3"]],
            ),
            // the continuation goes first, so `12` names a descriptor; the importers kept it.
            ("a 1\\\n2>f", Ok(&["a", ">", "f"]), &[&["a"]]),
            // bash names a descriptor `{name}` only; the importers kept `{fd}`, the rules dropped `{}`.
            (
                "a {fd}>f {}>g",
                Ok(&["a", ">", "f", "{}", ">", "g"]),
                &[&["a", "{}"]],
            ),
            // `&>` takes no descriptor; the rules dropped `2`.
            ("a 2&>f", Ok(&["a", "2", "&>", "f"]), &[&["a", "2"]]),
            (
                "a $(b c) d",
                Ok(&["a", "$(b c)", "d"]),
                &[&["a", "$(b c)", "d"]],
            ),
            (
                "a $(b $(c d) ')') e",
                Ok(&["a", "$(b $(c d) ')')", "e"]),
                &[&["a", "$(b $(c d) ')')", "e"]],
            ),
            (
                r#"a "$(b "c d")" e"#,
                Ok(&["a", r#"$(b "c d")"#, "e"]),
                &[&["a", r#"$(b "c d")"#, "e"]],
            ),
            (
                "a $((1 + 2)) b",
                Ok(&["a", "$((1 + 2))", "b"]),
                &[&["a", "$((1 + 2))", "b"]],
            ),
            (
                "a ${X:-p q} b",
                Ok(&["a", "${X:-p q}", "b"]),
                &[&["a", "${X:-p q}", "b"]],
            ),
            // the rules ended `${` at the quoted `}`.
            (
                r#"a ${X:-"}"} b"#,
                Ok(&["a", r#"${X:-"}"}"#, "b"]),
                &[&["a", r#"${X:-"}"}"#, "b"]],
            ),
            (
                "a `b c` d",
                Ok(&["a", "`b c`", "d"]),
                &[&["a", "`b c`", "d"]],
            ),
            // the rules dropped the backslashes of the word.
            (
                r"a `echo \` x` b",
                Ok(&["a", r"`echo \` x`", "b"]),
                &[&["a", r"`echo \` x`", "b"]],
            ),
            // the rules dropped the backslashes of the word.
            (
                r"a `echo '\a' \\$x` b",
                Ok(&["a", r"`echo '\a' \\$x`", "b"]),
                &[&["a", r"`echo '\a' \\$x`", "b"]],
            ),
            // the importers split process substitution into operators.
            (
                "a <(b c) >(d)",
                Ok(&["a", "<(b c)", ">(d)"]),
                &[&["a", "<(b c)", ">(d)"]],
            ),
            // the importers split process substitution into operators.
            (
                "diff <(a) x<(b)",
                Ok(&["diff", "<(a)", "x<(b)"]),
                &[&["diff", "<(a)", "x<(b)"]],
            ),
            // a backslash is literal in single quotes; the rules read it as escaping the quote.
            (
                r"a $(echo '\') b",
                Ok(&["a", r"$(echo '\')", "b"]),
                &[&["a", r"$(echo '\')", "b"]],
            ),
            (
                r#"a $HOME "$@" '$x' $ b$"#,
                Ok(&["a", "$HOME", "$@", "$x", "$", "b$"]),
                &[&["a", "$HOME", "$@", "$x", "$", "b$"]],
            ),
            (
                "FOO=1 BAR='x y' cmd arg",
                Ok(&["FOO=1", "BAR=x y", "cmd", "arg"]),
                &[&["FOO=1", "BAR=x y", "cmd", "arg"]],
            ),
            (
                "if a; then b; fi",
                Ok(&["if", "a", ";", "then", "b", ";", "fi"]),
                &[&["a"], &["b"]],
            ),
            (
                "for f in a b; do c $f; done",
                Ok(&[
                    "for", "f", "in", "a", "b", ";", "do", "c", "$f", ";", "done",
                ]),
                &[&["c", "$f"]],
            ),
            (
                r#"héllo wörld 'ünï' "ç""#,
                Ok(&["héllo", "wörld", "ünï", "ç"]),
                &[&["héllo", "wörld", "ünï", "ç"]],
            ),
            ("a \\\n#b", Ok(&["a"]), &[&["a"]]),
            (
                "a\r\nb\tc",
                Ok(&["a", "\n", "b", "c"]),
                &[&["a"], &["b", "c"]],
            ),
            (r#"a "" ''"#, Ok(&["a", "", ""]), &[&["a", "", ""]]),
            (
                "a 'b",
                Err("1:3: unterminated single-quoted string in the command line"),
                &[&["a", "b"]],
            ),
            (
                r#"a "b"#,
                Err("1:3: unterminated double-quoted string in the command line"),
                &[&["a", "b"]],
            ),
            // the rules added the missing `)` to the word.
            (
                "a $(b",
                Err("1:3: unterminated `$(` in the command line"),
                &[&["a", "$(b"]],
            ),
            // the rules did not report it unterminated.
            (
                "a ${b",
                Err("1:3: unterminated `${` in the command line"),
                &[&["a", "${b"]],
            ),
            // the rules added the missing backquote to the word.
            (
                "a `b",
                Err("1:3: unterminated ``` in the command line"),
                &[&["a", "`b"]],
            ),
            // the rules added the missing `)` to the word.
            (
                r#"a "$(b""#,
                Err("1:4: unterminated `$(` in the command line"),
                &[&["a", r#"$(b""#]],
            ),
            // the importers split it into operators.
            (
                "a <(b",
                Err("1:3: unterminated `<(` in the command line"),
                &[&["a", "<(b"]],
            ),
            (
                "x $(a\nb) y",
                Ok(&["x", "$(a\nb)", "y"]),
                &[&["x", "$(a\nb)", "y"]],
            ),
            (
                r#"a "b\"#,
                Err("1:3: unterminated double-quoted string in the command line"),
                &[&["a", r"b\"]],
            ),
            (r"a \", Ok(&["a", r"\"]), &[&["a", r"\"]]),
        ];
        assert!(table.len() >= 40);
        for (text, words, commands) in table {
            let split = split(text, Loc { line: 1, column: 1 });
            let split = split
                .as_ref()
                .map(|w| w.iter().map(|w| w.text.as_str()).collect::<Vec<_>>())
                .map_err(ToString::to_string);
            let want = words.map(<[&str]>::to_vec).map_err(str::to_string);
            assert_eq!(split, want, "split {text:?}");
            let script = crate::shell::parse(text);
            let got: Vec<Vec<&str>> = script
                .commands
                .iter()
                .map(|c| {
                    c.assignments
                        .iter()
                        .chain(&c.words)
                        .map(String::as_str)
                        .collect()
                })
                .collect();
            assert_eq!(got, *commands, "parse {text:?}");
            assert_eq!(script.unterminated, words.is_err(), "{text:?}");
        }
    }
}
