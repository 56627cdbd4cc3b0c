//! Documents with their secrets masked: a JSON document as `isolint
//! import` prints it, and a text that did not parse.

use std::borrow::Cow;

use super::command_line::{collect_words, takes_value, PROGRAM_OPTIONS};
use super::names::{is_secret_name, secret_by_name};
use super::scrub::{scrub_tokens_cow, secret_tokens};
use super::{Secrets, MASK};
use crate::json::{Node, Value};

/// A JSON document with every secret value [`Secrets::collect`] finds in it
/// written as [`MASK`], for outputs that print a document the user's secrets
/// went into (`isolint import` writes the profile it converted). The rest of
/// the text is kept byte for byte; a number held by a secret name becomes
/// the string [`MASK`]. Text that does not parse as JSON is scrubbed token by
/// token instead, so nothing is ever passed through unexamined.
pub fn mask_json_document(text: &str) -> Cow<'_, str> {
    mask_json_document_with(text, &Secrets::default())
}

/// [`mask_json_document`], masking `also` besides the document's own
/// secrets (those of the file it was imported from).
pub fn mask_json_document_with<'t>(text: &'t str, also: &Secrets) -> Cow<'t, str> {
    let Ok(doc) = crate::json::parse(text.as_bytes(), crate::json::Limits::default()) else {
        return match also.mask_everywhere(text) {
            Cow::Borrowed(b) => scrub_tokens_cow(b),
            Cow::Owned(o) => Cow::Owned(scrub_tokens_cow(&o).into_owned()),
        };
    };
    // The secrets of the file a profile was imported from hold the
    // profile's own: then they serve as they are, since a union copies
    // them, once per profile of a file of many.
    let own = Secrets::collect(&doc.root);
    let held = || {
        let mut values = Vec::new();
        Secrets::collect_into(&doc.root, &mut values, None);
        values
            .iter()
            .all(|v| v.trim().is_empty() || also.contains(v))
    };
    let joined;
    let secrets = if own.is_empty() || held() {
        also
    } else {
        joined = own.union(also);
        &joined
    };
    if secrets.is_empty() {
        return Cow::Borrowed(text);
    }
    let mut edits = Vec::new();
    json_edits(text, &doc.root, secrets, &mut edits);
    if edits.is_empty() {
        return Cow::Borrowed(text);
    }
    edits.sort_by_key(|e| e.0);
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    for (a, b, with) in edits {
        if a < at {
            continue;
        }
        out.push_str(text.get(at..a).unwrap_or_default());
        out.push_str(&with);
        at = b;
    }
    out.push_str(text.get(at..).unwrap_or_default());
    Cow::Owned(out)
}

/// The literals of `n` that hold a secret: (start, end, replacement).
pub(super) fn json_edits(
    text: &str,
    n: &Node,
    secrets: &Secrets,
    out: &mut Vec<(usize, usize, String)>,
) {
    let span = (n.pos.offset as usize, n.end as usize);
    match &n.value {
        Value::String(s) => {
            if let Cow::Owned(masked) = secrets.scrub_value(s) {
                let quoted = crate::sanitize::json_string(&masked);
                out.push((span.0, span.1, quoted));
            }
        }
        Value::Number(num) if matches!(secrets.scrub_value(num.as_str()), Cow::Owned(_)) => {
            out.push((span.0, span.1, format!("\"{MASK}\"")));
        }
        Value::Array(items) => items.iter().for_each(|i| json_edits(text, i, secrets, out)),
        Value::Object(members) => {
            for m in members {
                // A key can hold a secret too (a Compose `environment` entry
                // written as `NAME: value` becomes a variable of that name).
                if let Cow::Owned(masked) = secrets.scrub_value(&m.key) {
                    let start = m.key_pos.offset as usize;
                    let end = string_literal_end(text, start);
                    out.push((start, end, crate::sanitize::json_string(&masked)));
                }
                json_edits(text, &m.value, secrets, out);
            }
        }
        _ => {}
    }
}

/// The byte offset just past the JSON string literal whose opening quote is
/// at `start` (the end of the text if it is not closed).
pub(super) fn string_literal_end(text: &str, start: usize) -> usize {
    let bytes = text.as_bytes();
    let mut i = start + 1;
    while let Some(&b) = bytes.get(i) {
        match b {
            b'\\' => i += 2,
            b'"' => return i + 1,
            _ => i += 1,
        }
    }
    bytes.len()
}

/// A text that did not parse (a profile or an imported file with a syntax
/// error) with its secrets masked as [`Secrets::mask_source`] masks them,
/// so the lines shown around the error keep their lines and columns. With
/// no tree to read, the text is read as a stream of words that runs over
/// line ends, since a key and its value often stand on two lines
/// (`- name: DB_PASSWORD` / `  value: X`, `"--password",` / `"X"`):
/// credential shapes and `key: value` pairs on one line, each program's
/// secret options (`secret_words`), a value after a secret-named key,
/// and the `value` of an entry whose `name` is secret-named.
pub fn mask_unparsed(text: &str) -> String {
    let mut values: Vec<String> = text.lines().flat_map(secret_tokens).collect();
    // Words, each marked when a `:` or `=` follows it (a key).
    let mut words: Vec<(&str, bool)> = Vec::new();
    let pieces = text.split(|c: char| {
        c.is_whitespace() || matches!(c, '"' | '\'' | ',' | '[' | ']' | '{' | '}')
    });
    for piece in pieces.filter(|p| !p.is_empty() && *p != "-") {
        if matches!(piece, ":" | "=") {
            if let Some(last) = words.last_mut() {
                last.1 = true;
            }
            continue;
        }
        match piece.strip_suffix([':', '=']).filter(|k| !k.is_empty()) {
            Some(k) => words.push((k, true)),
            None => words.push((piece, false)),
        }
    }
    let plain: Vec<&str> = words.iter().map(|w| w.0).collect();
    collect_words(&plain, &mut values);
    let mut named_secret = false;
    for (i, &(w, is_key)) in words.iter().enumerate() {
        let next = plain.get(i + 1).copied().unwrap_or("");
        // Which program an option belongs to cannot be told here: every
        // program's secret option counts (masking a port is harmless).
        let option = PROGRAM_OPTIONS
            .iter()
            .find(|(_, o, _, _)| *o == w)
            .is_some_and(|(_, o, t, _)| !next.starts_with('-') && takes_value(*t, o, next));
        if option || (is_key && secret_by_name(w, next)) {
            values.push(next.to_string());
        }
        if !is_key {
            continue;
        }
        if w.eq_ignore_ascii_case("name") {
            named_secret = is_secret_name(next);
        } else if w.eq_ignore_ascii_case("value") {
            if named_secret && secret_by_name("secret", next) {
                values.push(next.to_string());
            }
            named_secret = false;
        }
    }
    Secrets::of_values(values).mask_source(text)
}

impl Secrets {
    /// A JSON pointer with no secret in it. Only a value can be a secret,
    /// and a pointer is made of names and indices: a name is shown as it
    /// is unless it is itself a credential (a token written where a
    /// variable's name goes, a `NAME: secret` entry read as one key), and
    /// then the pointer names that member by its index in its object
    /// (`/environment/variables/3`), so it still leads to the entry.
    /// `lookup` resolves a pointer in the document the pointer is into; a
    /// token it cannot place is masked where it stands.
    pub fn scrub_pointer<'p, 'n>(
        &self,
        pointer: &'p str,
        lookup: impl Fn(&str) -> Option<&'n Node>,
    ) -> Cow<'p, str> {
        let Some(rest) = pointer.strip_prefix('/') else {
            return self.scrub_value(pointer);
        };
        let mut out = String::with_capacity(pointer.len());
        let mut changed = false;
        for raw in rest.split('/') {
            let token = raw.replace("~1", "/").replace("~0", "~");
            let shown = match self.scrub_value(&token) {
                Cow::Borrowed(_) => None,
                Cow::Owned(masked) => Some(masked),
            };
            let parent = lookup(&out);
            out.push('/');
            let Some(masked) = shown else {
                out.push_str(raw);
                continue;
            };
            changed = true;
            let index = parent
                .and_then(Node::members)
                .and_then(|m| m.iter().rposition(|m| m.key == token));
            match index {
                Some(i) => out.push_str(&i.to_string()),
                None => crate::json::push_escaped_token(&mut out, &masked),
            }
        }
        if changed {
            Cow::Owned(out)
        } else {
            Cow::Borrowed(pointer)
        }
    }
}
