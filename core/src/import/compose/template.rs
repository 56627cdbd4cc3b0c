//! Compose's variable interpolation, ported step for step from compose-go's
//! `template` package (`Substitute` with its default pattern and
//! replacement function), so a template reads here as `docker compose`
//! reads it: which `$` starts a variable, where `${…}` ends, which operator
//! applies, when a default or an error message is itself expanded.
//!
//! compose-go's own test vectors (`fixtures/compose-go/interpolation.json`)
//! run through this port in `tests::compose_go_vectors`.

/// What the environment holds for one variable. The audit knows no
/// environment (`Unknown`); the oracle tests read with a known one.
#[cfg_attr(not(test), allow(dead_code))]
#[derive(Debug, Clone, PartialEq, Eq)]
pub(in crate::import) enum Var {
    Set(String),
    Unset,
    /// The environment `docker compose` runs in, which the file does not
    /// show: a default is read as the value (and said), a required variable
    /// is refused as Compose refuses it unset, any other use stays a visible
    /// `${NAME}` that the import cannot resolve.
    Unknown,
    /// Set and non-empty wherever Compose runs (`HOME`), value unknown.
    UnknownNonEmpty,
}

/// Why a template is refused, as compose-go refuses it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(in crate::import) enum TemplateError {
    /// compose-go's `InvalidTemplateError`.
    Invalid,
    /// compose-go's `MissingRequiredError` (`${NAME:?reason}`).
    Required { name: String, reason: String },
}

/// A value after interpolation, with what it assumed.
#[derive(Debug, Default, PartialEq, Eq)]
pub(in crate::import) struct Interpolated {
    pub(in crate::import) text: String,
    /// Variables read with the default the file gives: (name, default).
    pub(in crate::import) defaulted: Vec<(String, String)>,
    /// Variables whose value the file does not give, kept as `${NAME}`.
    pub(in crate::import) unresolved: Vec<String>,
}

impl Interpolated {
    pub(in crate::import) fn is_exact(&self) -> bool {
        self.defaulted.is_empty() && self.unresolved.is_empty()
    }
}

fn is_name_start(b: u8) -> bool {
    b == b'_' || b.is_ascii_alphabetic()
}

fn is_name_char(b: u8) -> bool {
    b == b'_' || b.is_ascii_alphanumeric()
}

/// What compose-go's pattern matches at a `$`.
enum Hit {
    /// `$$`.
    Escaped,
    /// `$NAME`.
    Named,
    /// `${…}` (its text is the match without `${` and `}`).
    Braced,
    /// `${` followed by anything else: an invalid template.
    Invalid,
}

/// compose-go's `DefaultPattern` at byte `p` (a `$`):
/// `\$(?i:(\$)|([_a-z][_a-z0-9]*)|{(?:([_a-z][_a-z0-9]*(?::?[-+?](.*))?)}|()))`,
/// leftmost-first. Its end, or `None` where it does not match (the `$`
/// then stays a literal, as in `a $ string` or `$1`).
fn hit_at(b: &[u8], p: usize) -> Option<(Hit, usize)> {
    let at = |i: usize| b.get(i).copied();
    match at(p + 1)? {
        b'$' => Some((Hit::Escaped, p + 2)),
        c if is_name_start(c) => {
            let mut j = p + 2;
            while at(j).is_some_and(is_name_char) {
                j += 1;
            }
            Some((Hit::Named, j))
        }
        b'{' => {
            let q = p + 2;
            if !at(q).is_some_and(is_name_start) {
                return Some((Hit::Invalid, q));
            }
            let mut n = q + 1;
            while at(n).is_some_and(is_name_char) {
                n += 1;
            }
            let is_op = |c: Option<u8>| matches!(c, Some(b'-' | b'+' | b'?'));
            let op_end = if is_op(at(n)) {
                Some(n + 1)
            } else if at(n) == Some(b':') && is_op(at(n + 1)) {
                Some(n + 2)
            } else {
                None
            };
            if let Some(op_end) = op_end {
                // `(.*)}`: greedy, so the last `}` before a line break.
                let mut last = None;
                let mut k = op_end;
                while let Some(c) = at(k) {
                    if c == b'\n' {
                        break;
                    }
                    if c == b'}' {
                        last = Some(k);
                    }
                    k += 1;
                }
                if let Some(k) = last {
                    return Some((Hit::Braced, k + 1));
                }
            }
            if at(n) == Some(b'}') {
                Some((Hit::Braced, n + 1))
            } else {
                Some((Hit::Invalid, q))
            }
        }
        _ => None,
    }
}

/// compose-go's `getFirstBraceClosingIndex`: nesting counted on every `{`
/// (the character after one is skipped), the `}` that closes the first.
fn first_brace_closing(s: &str) -> Option<usize> {
    let b = s.as_bytes();
    let mut open = 0i64;
    let mut i = 0;
    while let Some(&c) = b.get(i) {
        if c == b'}' {
            open -= 1;
            if open == 0 {
                return Some(i);
            }
        }
        if c == b'{' {
            open += 1;
            i += 1;
        }
        i += 1;
    }
    None
}

/// The six operators, in compose-go's table order.
const OPS: [&str; 6] = [":?", "?", ":-", "-", ":+", "+"];

/// compose-go's `getSubstitutionFunctionForTemplate`: the operator written
/// first in `s`.
fn operator(s: &str) -> Option<&'static str> {
    OPS.iter()
        .filter_map(|op| s.find(op).map(|i| (i, *op)))
        .min_by_key(|(i, _)| *i)
        .map(|(_, op)| op)
}

/// `template` with each variable replaced as `lookup` says, as compose-go's
/// `template.Substitute` does.
pub(in crate::import) fn substitute(
    template: &str,
    lookup: &dyn Fn(&str) -> Var,
) -> Result<Interpolated, TemplateError> {
    let mut out = Interpolated::default();
    substitute_into(template, lookup, &mut out)?;
    Ok(out)
}

fn substitute_into(
    template: &str,
    lookup: &dyn Fn(&str) -> Var,
    out: &mut Interpolated,
) -> Result<(), TemplateError> {
    let b = template.as_bytes();
    let mut done = 0;
    let mut p = 0;
    while p < b.len() {
        if b.get(p) != Some(&b'$') {
            p += 1;
            continue;
        }
        let Some((hit, end)) = hit_at(b, p) else {
            p += 1;
            continue;
        };
        out.text.push_str(template.get(done..p).unwrap_or(""));
        let matched = template.get(p..end).unwrap_or("");
        replace(matched, hit, lookup, out)?;
        done = end;
        p = end;
    }
    out.text.push_str(template.get(done..).unwrap_or(""));
    Ok(())
}

/// compose-go's `DefaultReplacementAppliedFunc` for one match.
fn replace(
    matched: &str,
    hit: Hit,
    lookup: &dyn Fn(&str) -> Var,
    out: &mut Interpolated,
) -> Result<(), TemplateError> {
    match hit {
        Hit::Escaped => {
            out.text.push('$');
            Ok(())
        }
        Hit::Invalid => Err(TemplateError::Invalid),
        Hit::Named => {
            let name = matched.get(1..).unwrap_or("");
            plain(name, lookup, out, false);
            Ok(())
        }
        Hit::Braced => {
            // The operator is chosen on the whole match, which may run on
            // past the brace that closes this variable (`(.*)` is greedy);
            // what follows that brace is substituted on its own.
            let op = operator(matched);
            let (head, rest) = match first_brace_closing(matched) {
                Some(i) => (
                    matched.get(..=i).unwrap_or(""),
                    matched.get(i + 1..).unwrap_or(""),
                ),
                None => (matched, ""),
            };
            let body = match hit_at(head.as_bytes(), 0) {
                Some((Hit::Braced, end)) => head.get(2..end - 1).unwrap_or(""),
                _ => return Err(TemplateError::Invalid),
            };
            match op.filter(|op| body.contains(op)) {
                Some(op) => {
                    apply(body, op, lookup, out)?;
                    substitute_into(rest, lookup, out)
                }
                None => {
                    plain(body, lookup, out, true);
                    Ok(())
                }
            }
        }
    }
}

/// A variable read with no operator.
fn plain(name: &str, lookup: &dyn Fn(&str) -> Var, out: &mut Interpolated, braced: bool) {
    match lookup(name) {
        Var::Set(v) => out.text.push_str(&v),
        // Compose warns and substitutes an empty string.
        Var::Unset => {}
        Var::Unknown | Var::UnknownNonEmpty => unresolved(name, out, braced),
    }
}

fn unresolved(name: &str, out: &mut Interpolated, braced: bool) {
    if braced {
        out.text.push_str("${");
        out.text.push_str(name);
        out.text.push('}');
    } else {
        out.text.push('$');
        out.text.push_str(name);
    }
    out.unresolved.push(name.to_string());
}

/// compose-go's `partition`: split at the first `sep`.
fn partition<'a>(s: &'a str, sep: &str) -> (&'a str, &'a str) {
    s.split_once(sep).unwrap_or((s, ""))
}

/// One `${NAME<op>word}` (compose-go's `withDefaultWhenAbsence`,
/// `withDefaultWhenPresence` and `withRequired`). The word is expanded only
/// where it is used.
fn apply(
    body: &str,
    op: &str,
    lookup: &dyn Fn(&str) -> Var,
    out: &mut Interpolated,
) -> Result<(), TemplateError> {
    let (name, word) = partition(body, op);
    let value = lookup(name);
    let colon = op.starts_with(':');
    let empty = matches!(&value, Var::Set(v) if v.is_empty());
    match op.trim_start_matches(':') {
        "-" => match value {
            Var::Set(v) if !(colon && v.is_empty()) => out.text.push_str(&v),
            Var::UnknownNonEmpty => unresolved(name, out, true),
            Var::Unknown => {
                let mut inner = Interpolated::default();
                substitute_into(word, lookup, &mut inner)?;
                out.text.push_str(&inner.text);
                out.defaulted.push((name.to_string(), inner.text));
                out.defaulted.extend(inner.defaulted);
                out.unresolved.extend(inner.unresolved);
            }
            Var::Set(_) | Var::Unset => substitute_into(word, lookup, out)?,
        },
        "+" => match value {
            Var::Set(_) if !(colon && empty) => substitute_into(word, lookup, out)?,
            Var::UnknownNonEmpty => substitute_into(word, lookup, out)?,
            // Either empty or the word: not known here.
            Var::Unknown => unresolved(name, out, true),
            Var::Set(v) => out.text.push_str(&v),
            Var::Unset => {}
        },
        _ => match value {
            Var::Set(v) if !(colon && v.is_empty()) => out.text.push_str(&v),
            Var::UnknownNonEmpty => unresolved(name, out, true),
            Var::Set(_) | Var::Unset | Var::Unknown => {
                let mut reason = Interpolated::default();
                substitute_into(word, lookup, &mut reason)?;
                return Err(TemplateError::Required {
                    name: name.to_string(),
                    reason: reason.text,
                });
            }
        },
    }
    Ok(())
}

#[cfg(test)]
mod tests;
