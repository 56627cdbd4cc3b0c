//! How Compose splits a `command` or `entrypoint` written as a string:
//! compose-go calls `shellwords.Parse` of mattn/go-shellwords v1.0.12 (the
//! version its go.mod pins) with the package defaults, `ParseEnv` and
//! `ParseBacktick` off. Ported step for step: no shell is involved, a line
//! break is a space, `\` escapes any character outside single quotes (in
//! double quotes too), nothing is expanded, and the parse stops at the
//! first `;`, `&`, `|`, `<` or `>` outside quotes, dropping the rest.
//!
//! go-shellwords' own test vectors for these options
//! (`fixtures/compose-go/shellwords.json`) run through this port.

/// The words Compose runs, each with the byte offset where it starts.
#[derive(Debug, Default, PartialEq, Eq)]
pub(in crate::import) struct Split {
    pub(in crate::import) words: Vec<(String, usize)>,
    /// Where the parse stopped at an operator, and Compose dropped the
    /// rest of the line.
    pub(in crate::import) stopped_at: Option<usize>,
}

#[derive(PartialEq, Eq, Clone, Copy)]
enum Got {
    No,
    Single,
    Quoted,
}

/// go-shellwords' `Parser.Parse`; `Err` is its "invalid command line
/// string".
pub(in crate::import) fn parse(line: &str) -> Result<Split, ()> {
    let mut out = Split::default();
    let mut buf = String::new();
    let (mut escaped, mut double, mut single, mut back, mut dollar) =
        (false, false, false, false, false);
    let mut got = Got::No;
    let mut start: Option<usize> = None;
    let push = |buf: &mut String, start: &mut Option<usize>, out: &mut Split| {
        out.words
            .push((std::mem::take(buf), start.take().unwrap_or(0)));
    };
    for (i, r) in line.char_indices() {
        let space = matches!(r, ' ' | '\t' | '\r' | '\n');
        if start.is_none() && (!space || escaped) {
            start = Some(i);
        }
        if escaped {
            buf.push(r);
            escaped = false;
            got = Got::Single;
            continue;
        }
        if r == '\\' {
            if single {
                buf.push(r);
            } else {
                escaped = true;
            }
            continue;
        }
        if space {
            if single || double || back || dollar {
                buf.push(r);
            } else if got != Got::No {
                push(&mut buf, &mut start, &mut out);
                got = Got::No;
            } else if buf.is_empty() {
                start = None;
            }
            continue;
        }
        match r {
            '`' if !single && !double && !dollar => back = !back,
            ')' if !single && !double && !back => dollar = !dollar,
            '(' if !single && !double && !back => {
                if !dollar && buf.ends_with('$') {
                    dollar = true;
                    buf.push('(');
                    continue;
                }
                return Err(());
            }
            '"' if !single && !dollar => {
                if double {
                    got = Got::Quoted;
                }
                double = !double;
                continue;
            }
            '\'' if !double && !dollar => {
                if single {
                    got = Got::Quoted;
                }
                single = !single;
                continue;
            }
            ';' | '&' | '|' | '<' | '>' if !(single || double || back || dollar) => {
                // `2>`: the digits are the redirection's, not a word.
                if r == '>' && buf.as_bytes().first().is_some_and(u8::is_ascii_digit) {
                    got = Got::No;
                }
                out.stopped_at = Some(i);
                break;
            }
            _ => {}
        }
        got = Got::Single;
        buf.push(r);
    }
    if got != Got::No {
        push(&mut buf, &mut start, &mut out);
    }
    if escaped || single || double || back || dollar {
        return Err(());
    }
    Ok(out)
}
