//! compose-go's `dotenv` parser (`dotenv/parser.go`), ported step for step:
//! the reader of a project's `.env`, of `--env-file` and of a service's
//! `env_file:` entries. A value reads here as `docker compose` reads it:
//! `export` and YAML-style `KEY: value` lines, comments (a `#` at the start
//! of a statement, or after a space in an unquoted value), single quotes
//! taken literally, double quotes with shell escapes and interpolation,
//! and interpolation in unquoted values, each variable looked up first in
//! the environment Compose runs in, then among the keys already read.
//!
//! compose-go's own test vectors (`fixtures/compose-go/dotenv.json`) run
//! through this port in `tests`.

use super::template::{self, Var};

/// The variables of one env file in the order first written; a key written
/// again keeps its first place and takes the later value, as a Go map does.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub(in crate::import) struct EnvFile {
    pub(in crate::import) vars: Vec<(String, String)>,
    /// Read implicitly (the project's `.env`), not named by `--env-file`:
    /// the shell's environment takes precedence over it.
    pub(in crate::import) implicit: bool,
}

impl EnvFile {
    pub(in crate::import) fn get(&self, key: &str) -> Option<&str> {
        self.vars
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    fn set(&mut self, key: String, value: String) {
        match self.vars.iter_mut().find(|(k, _)| *k == key) {
            Some(slot) => slot.1 = value,
            None => self.vars.push((key, value)),
        }
    }
}

/// Go's `isSpace` of the parser: a space, but not a line break.
fn is_space(c: char) -> bool {
    matches!(
        c,
        '\t' | '\u{b}' | '\u{c}' | '\r' | ' ' | '\u{85}' | '\u{a0}'
    )
}

/// Parse `src` as compose-go's `ParseWithLookup` does; `lookup` is the
/// environment Compose runs in (asked first, as compose-go asks it).
/// `into` holds variables read before (compose-go's `GetEnvFromFile`
/// reads several files into one map, each seeing the last ones' keys).
pub(in crate::import) fn parse_into(
    src: &str,
    lookup: &dyn Fn(&str) -> Var,
    into: &mut EnvFile,
) -> Result<(), String> {
    let src = src.strip_prefix('\u{feff}').unwrap_or(src);
    let mut line = 1usize;
    let mut cutset = src;
    loop {
        cutset = statement_start(cutset, &mut line);
        if cutset.is_empty() {
            break;
        }
        let (key, left, inherited) = key_name(cutset, &mut line)?;
        if key.contains(' ') {
            return Err(format!("line {line}: key cannot contain a space"));
        }
        if inherited {
            // `KEY` alone on its line: the environment's value, if any.
            let v = match lookup(&key) {
                Var::Set(v) => Some(v),
                Var::Unknown | Var::UnknownNonEmpty => Some(format!("${{{key}}}")),
                Var::Unset => None,
            };
            if let Some(v) = v {
                into.set(key, v);
            }
            cutset = left;
            continue;
        }
        let (value, left) = value(left, into, lookup, &mut line)?;
        into.set(key, value);
        cutset = left;
    }
    Ok(())
}

/// [`parse_into`] of one file on its own.
#[cfg(test)]
pub(in crate::import) fn parse(src: &str, lookup: &dyn Fn(&str) -> Var) -> Result<EnvFile, String> {
    let mut out = EnvFile::default();
    parse_into(src, lookup, &mut out)?;
    Ok(out)
}

/// `getStatementStart`: the text from the next statement, comments and
/// blank lines skipped.
fn statement_start<'a>(mut src: &'a str, line: &mut usize) -> &'a str {
    loop {
        let Some(pos) = src.find(|c: char| {
            if c == '\n' {
                *line += 1;
            }
            !c.is_whitespace()
        }) else {
            return "";
        };
        src = src.get(pos..).unwrap_or("");
        if !src.starts_with('#') {
            return src;
        }
        match src.find('\n') {
            Some(p) => src = src.get(p..).unwrap_or(""),
            None => return "",
        }
    }
}

/// Go's `^export\s+` (RE2's `\s` is `[\t\n\f\r ]`).
fn starts_with_export(src: &str) -> bool {
    src.strip_prefix("export")
        .and_then(|r| r.chars().next())
        .is_some_and(|c| matches!(c, '\t' | '\n' | '\u{c}' | '\r' | ' '))
}

/// `locateKeyName`: the key, the text after its `=`, `:` or line break,
/// and whether the key stands alone on its line (inherited).
fn key_name<'a>(src: &'a str, line: &mut usize) -> Result<(String, &'a str, bool), String> {
    let src = if starts_with_export(src) {
        src.get("export".len()..)
            .unwrap_or("")
            .trim_start_matches(is_space)
    } else {
        src
    };
    let mut key = "";
    let mut offset = 0;
    let mut inherited = false;
    for (i, c) in src.char_indices() {
        if is_space(c) {
            continue;
        }
        match c {
            '=' | ':' | '\n' => {
                key = src.get(..i).unwrap_or("");
                offset = i + 1;
                inherited = c == '\n';
                break;
            }
            '_' | '.' | '-' | '[' | ']' => {}
            c if c.is_alphabetic() || c.is_numeric() => {}
            c => {
                return Err(format!(
                    "line {line}: unexpected character {c:?} in variable name {:?}",
                    src.split('\n').next().unwrap_or("")
                ))
            }
        }
    }
    if src.is_empty() {
        return Err("zero length string".into());
    }
    if inherited && !key.contains(' ') {
        *line += 1;
    }
    let key = key.trim_end_matches(char::is_whitespace).to_string();
    let rest = src.get(offset..).unwrap_or("").trim_start_matches(is_space);
    Ok((key, rest, inherited))
}

/// `extractVarValue`: one value and the text after it.
fn value<'a>(
    src: &'a str,
    read: &EnvFile,
    lookup: &dyn Fn(&str) -> Var,
    line: &mut usize,
) -> Result<(String, &'a str), String> {
    let quote = match src.as_bytes().first() {
        Some(q @ (b'"' | b'\'')) => *q,
        _ => {
            let (value, rest) = src.split_once('\n').unwrap_or((src, ""));
            *line += 1;
            let value = value.split_once(" #").map_or(value, |(v, _)| v);
            let value = value.trim_end_matches(char::is_whitespace);
            return Ok((expand_variables(value, read, lookup)?, rest));
        }
    };
    let b = src.as_bytes();
    let mut escaped = false;
    let mut chars: Vec<u8> = Vec::new();
    for (i, &c) in b.iter().enumerate().skip(1) {
        if c == b'\n' {
            *line += 1;
        }
        if c != quote {
            if !escaped && c == b'\\' {
                escaped = true;
                continue;
            }
            if escaped {
                escaped = false;
                chars.push(b'\\');
            }
            chars.push(c);
            continue;
        }
        if escaped {
            escaped = false;
            chars.push(c);
            continue;
        }
        let value = String::from_utf8_lossy(&chars).into_owned();
        let value = if quote == b'"' {
            expand_variables(&expand_escapes(&value), read, lookup)?
        } else {
            value
        };
        return Ok((value, src.get(i + 1..).unwrap_or("")));
    }
    let first = src.split('\n').next().unwrap_or("");
    Err(format!("line {line}: unterminated quoted value {first}"))
}

/// `expandEscapes`: the shell escapes of a double-quoted value (`\a`,
/// `\n`, `\"`, `\\`, `\0` octal ...), `\$` kept as Compose's `$$`.
fn expand_escapes(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = String::with_capacity(s.len());
    let mut i = 0;
    let mut done = 0;
    while i < b.len() {
        if b.get(i) != Some(&b'\\') {
            i += 1;
            continue;
        }
        let Some(&n) = b.get(i + 1) else { break };
        let replaced: Option<(String, usize)> = match n {
            b'a' => Some(("\u{7}".into(), 2)),
            b'b' => Some(("\u{8}".into(), 2)),
            b'c' => Some(("\\c".into(), 2)),
            b'f' => Some(("\u{c}".into(), 2)),
            b'n' => Some(("\n".into(), 2)),
            b'r' => Some(("\r".into(), 2)),
            b't' => Some(("\t".into(), 2)),
            b'v' => Some(("\u{b}".into(), 2)),
            b'$' => Some(("$$".into(), 2)),
            b'"' => Some(("\"".into(), 2)),
            b'\\' => Some(("\\".into(), 2)),
            b'0' => {
                let digits = b
                    .get(i + 2..)
                    .unwrap_or(&[])
                    .iter()
                    .take(3)
                    .take_while(|d| d.is_ascii_digit())
                    .count();
                let ds = s.get(i + 2..i + 2 + digits).unwrap_or("");
                // Go rewrites `\0ddd` to `\ddd` and unquotes that: exactly
                // three octal digits up to 255, else the rewritten text.
                let v = (digits == 3 && ds.bytes().all(|d| d < b'8'))
                    .then(|| u32::from_str_radix(ds, 8).ok())
                    .flatten()
                    .filter(|v| *v <= 255)
                    .and_then(char::from_u32);
                Some((
                    v.map_or_else(|| format!("\\{ds}"), String::from),
                    2 + digits,
                ))
            }
            _ => None,
        };
        match replaced {
            Some((text, len)) => {
                out.push_str(s.get(done..i).unwrap_or(""));
                out.push_str(&text);
                i += len;
                done = i;
            }
            None => i += 1,
        }
    }
    out.push_str(s.get(done..).unwrap_or(""));
    out
}

/// `expandVariables`: compose-go's interpolation, each variable from the
/// environment Compose runs in, else from the keys read so far.
fn expand_variables(
    value: &str,
    read: &EnvFile,
    lookup: &dyn Fn(&str) -> Var,
) -> Result<String, String> {
    let inner = |k: &str| match lookup(k) {
        Var::Set(v) => Var::Set(v),
        other => match read.get(k) {
            Some(v) => Var::Set(v.to_string()),
            None => other,
        },
    };
    template::substitute(value, &inner)
        .map(|i| i.text)
        .map_err(|e| match e {
            template::TemplateError::Invalid => {
                format!("invalid interpolation format in `{value}`")
            }
            template::TemplateError::Required { name, .. } => {
                format!("required variable `{name}` is missing a value")
            }
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn doc() -> serde_json::Value {
        serde_json::from_str(include_str!("../../../../fixtures/compose-go/dotenv.json")).unwrap()
    }

    fn s(v: &serde_json::Value, k: &str) -> String {
        v.get(k)
            .and_then(|x| x.as_str())
            .unwrap_or_default()
            .to_string()
    }

    /// compose-go's `Parse` (no environment) on each vector: the value it
    /// gives, or an error where it errs.
    #[test]
    fn compose_go_vectors() {
        let d = doc();
        let unset = |_: &str| Var::Unset;
        let mut wrong = Vec::new();
        let mut count = 0;
        for v in d["parse"].as_array().unwrap() {
            count += 1;
            let got = parse(&s(v, "input"), &unset);
            let want = s(v, "value");
            if got.as_ref().ok().and_then(|e| e.get(&s(v, "key"))) != Some(want.as_str()) {
                wrong.push(format!("{:?}: got {got:?}, want {want:?}", s(v, "input")));
            }
        }
        for section in ["expanding", "fixtures"] {
            for v in d[section].as_array().unwrap() {
                count += 1;
                let got = parse(&s(v, "input"), &unset);
                let ok = got.as_ref().is_ok_and(|e| {
                    v["expected"]
                        .as_object()
                        .unwrap()
                        .iter()
                        .all(|(k, x)| e.get(k) == x.as_str())
                });
                if !ok {
                    wrong.push(format!("{section} {:?}: got {got:?}", s(v, "input")));
                }
            }
        }
        for v in d["errors"].as_array().unwrap() {
            count += 1;
            match parse(&s(v, "input"), &unset) {
                Err(e) if e.contains(&s(v, "error")) => {}
                got => wrong.push(format!("error {:?}: got {got:?}", s(v, "input"))),
            }
        }
        assert!(count >= 70, "{count} vectors");
        assert!(
            wrong.is_empty(),
            "{} of {count} vectors disagree:\n{}",
            wrong.len(),
            wrong.join("\n")
        );
    }

    /// A variable the environment Compose runs in may set stays visible
    /// as written, never read as empty.
    #[test]
    fn unknown_environment_stays_unresolved() {
        let unknown = |_: &str| Var::Unknown;
        let e = parse(
            "A=1\nB=${A}\nC=${HOST_ONLY}\nD=${HOST_ONLY:-none}\n",
            &unknown,
        )
        .unwrap();
        assert_eq!(e.get("B"), Some("1"));
        assert_eq!(e.get("C"), Some("${HOST_ONLY}"));
        assert_eq!(e.get("D"), Some("none"));
    }
}
