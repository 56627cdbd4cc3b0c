//! The secrets of a document: a walk over its tree that judges each value
//! by its name, its shape and where it stands.

use std::borrow::Cow;

use super::command_line::{collect_words, line_secrets};
use super::names::{
    is_secret_name, is_strong_secret_name, secret_by_name, word_slices, ABOUT_A_SECRET,
};
use super::scrub::{secret_spans, MIN_SECRET};
use super::shapes::{is_reference, looks_like_secret, url_passwords};
use crate::json::{Node, Value};

/// Where a value stands, for [`walk`]: anywhere, inside an object that
/// holds secrets (`credentials`, `secrets`: its `value` or `content` is
/// one), or inside such a value (every string of a Kubernetes Secret's
/// `data`).
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Within {
    Anywhere,
    Holder,
    Secret,
}

/// Keys whose objects hold secrets in their [`HELD`] members: a profile's
/// `credentials`, a Compose file's `secrets` (`content: …`).
pub(super) const HOLDERS: &[&str] = &["credentials", "credential", "secrets", "secret"];

/// The members of a [`HOLDERS`] object that hold the secret itself.
pub(super) const HELD: &[&str] = &[
    "value",
    "content",
    "data",
    "stringdata",
    "string_data",
    "text",
    "plaintext",
];

/// The value of a double-quoted literal's inside written with the escapes
/// JSON, YAML and TOML share (`\n`, `\t`, `\"`, `\\`, `\/`, `\xXX`,
/// `\uXXXX` with surrogate pairs, `\UXXXXXXXX`); an escape it cannot read is
/// kept as written.
pub(super) fn unescape(raw: &str) -> String {
    let mut out = String::with_capacity(raw.len());
    let mut chars = raw.chars().peekable();
    let mut high: Option<u32> = None;
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        let Some(e) = chars.next() else {
            out.push(c);
            break;
        };
        let digits = match e {
            'x' => 2,
            'u' => 4,
            'U' => 8,
            _ => 0,
        };
        if digits == 0 {
            out.push(match e {
                'n' => '\n',
                't' => '\t',
                'r' => '\r',
                '0' => '\0',
                'b' => '\u{8}',
                'f' => '\u{c}',
                'e' => '\u{1b}',
                other => other,
            });
            continue;
        }
        let hex: String = (0..digits)
            .filter_map(|_| chars.next_if(char::is_ascii_hexdigit))
            .collect();
        let Some(n) = u32::from_str_radix(&hex, 16)
            .ok()
            .filter(|_| hex.len() == digits)
        else {
            out.push(c);
            out.push(e);
            out.push_str(&hex);
            continue;
        };
        match (high.take(), n) {
            (None, 0xD800..=0xDBFF) => high = Some(n),
            (Some(h), 0xDC00..=0xDFFF) => {
                let joined = 0x10000 + ((h - 0xD800) << 10) + (n - 0xDC00);
                out.extend(char::from_u32(joined));
            }
            (_, n) => out.extend(char::from_u32(n)),
        }
    }
    out
}

/// What the secret walk reads of a tree: a parsed JSON document, or a
/// profile an importer has built and not yet written (so an import does not
/// parse what it has just written to find its secrets).
pub trait Tree: Sized {
    /// An object's members, in order; cheap to clone (a slice iterator).
    type Members<'a>: Iterator<Item = (&'a str, &'a Self)> + Clone
    where
        Self: 'a;
    fn view(&self) -> View<'_, Self>;
    fn as_str(&self) -> Option<&str> {
        match self.view() {
            View::Str(s) => Some(s),
            _ => None,
        }
    }
    fn is_container(&self) -> bool {
        matches!(self.view(), View::Array(_) | View::Object(_))
    }
}

/// One value of a [`Tree`], as the walk reads it.
pub enum View<'a, T: Tree + 'a> {
    Str(&'a str),
    /// A number as written.
    Number(Cow<'a, str>),
    Array(&'a [T]),
    Object(T::Members<'a>),
    /// `true`, `false`, `null`: never a secret.
    Other,
}

pub(super) type NodeMembers<'a> = std::iter::Map<
    std::slice::Iter<'a, crate::json::Member>,
    fn(&crate::json::Member) -> (&str, &Node),
>;

impl Tree for Node {
    type Members<'a> = NodeMembers<'a>;
    fn view(&self) -> View<'_, Node> {
        match &self.value {
            Value::String(s) => View::Str(s),
            Value::Number(n) => View::Number(Cow::Borrowed(n.as_str())),
            Value::Array(items) => View::Array(items),
            Value::Object(members) => {
                let pair: fn(&crate::json::Member) -> (&str, &Node) =
                    |m| (m.key.as_str(), &m.value);
                View::Object(members.iter().map(pair))
            }
            Value::Null | Value::Bool(_) => View::Other,
        }
    }
}

/// Collect the secrets under `n`, whose key (or the key of the array that
/// holds it) is `key`: a value is a secret by its name as the credential
/// rules judge it ([`secret_by_name`]), by its shape, or by where it stands
/// (`Within`). A key shaped like a credential is one too.
/// `strong_key` says whether `key` is a strong secret name (the caller
/// knows it once for every item of an array).
pub(super) fn walk<T: Tree>(
    n: &T,
    key: Option<&str>,
    within: Within,
    strong_key: bool,
    out: &mut Vec<String>,
    memo: &mut Option<&mut Memo>,
) {
    let by_name = |v: &str| {
        key.is_some_and(|k| secret_by_name(k, v))
            || (within == Within::Secret && secret_by_name("secret", v))
    };
    match n.view() {
        View::Str(s) => {
            let shaped = match memo.as_deref_mut() {
                Some(m) => m.findings(s, out),
                None => string_findings(s, out),
            };
            if shaped || by_name(s) {
                push_secret(s, out);
            }
        }
        View::Number(num) => {
            if by_name(&num) {
                out.push(num.into_owned());
            }
        }
        View::Array(items) => {
            items
                .iter()
                .for_each(|i| walk(i, key, within, strong_key, out, memo));
            let words: Vec<&str> = items.iter().filter_map(T::as_str).collect();
            if words.len() >= 2 {
                collect_words(&words, out);
            }
        }
        View::Object(members) => {
            // `{name: DB_PASSWORD, value: X}` (a Kubernetes or ECS env
            // entry): the value is judged by the name it is given.
            // One look at the members that change how the others read.
            let (mut named, mut value, mut kind_secret) = (None, None, false);
            for (k, v) in members.clone() {
                match (k, v.as_str()) {
                    ("name", Some(n)) => named = Some(n),
                    ("value", Some(v)) => value = Some(v),
                    // A Kubernetes Secret: everything under `data` and
                    // `stringData`.
                    ("kind", Some(k)) => kind_secret = k == "Secret",
                    _ => {}
                }
            }
            if let (Some(n), Some(v)) = (named, value) {
                if secret_by_name(n, v) {
                    push_secret(v, out);
                }
            }
            let is = |k: &str, set: &[&str]| set.iter().any(|w| k.eq_ignore_ascii_case(w));
            for (mk, mv) in members.clone() {
                // A key shaped like a credential (a token written as a
                // variable's name).
                if mk.len() >= MIN_SECRET && looks_like_secret(mk) {
                    push_secret(mk, out);
                }
                let inner = match within {
                    Within::Secret => Within::Secret,
                    _ if kind_secret && is(mk, &["data", "stringData"]) => Within::Secret,
                    Within::Holder if is(mk, HELD) => Within::Secret,
                    _ if is(mk, HOLDERS) => Within::Holder,
                    w => w,
                };
                // Under a secret name, a member that names nothing of its
                // own holds the secret (`DB_PASSWORD: {x: …}`), but not
                // one that is about it (`token: {path: …, audience: …}`).
                let own = match key {
                    Some(k) if strong_key && !is_secret_name(mk) => {
                        let about = word_slices(mk).last().is_some_and(|w| {
                            ABOUT_A_SECRET.iter().any(|a| w.eq_ignore_ascii_case(a))
                        });
                        if about {
                            mk
                        } else {
                            k
                        }
                    }
                    _ => mk,
                };
                // Whether the name a container is held by is a secret's,
                // found once for all it holds.
                let container = mv.is_container();
                let strong = container && is_strong_secret_name(own);
                walk(mv, Some(own), inner, strong, out, memo);
            }
            // A command: its executable and its arguments are one line.
            let member = |k: &str| {
                members
                    .clone()
                    .find(|(mk, _)| *mk == k)
                    .map(|(_, v)| v.view())
            };
            if let (Some(View::Str(x)), Some(View::Array(args))) =
                (member("executable"), member("arguments"))
            {
                let mut words = vec![x];
                words.extend(args.iter().filter_map(T::as_str));
                collect_words(&words, out);
            }
        }
        View::Other => {}
    }
}

/// What a string holds whatever key it stands under: the values in it
/// that are secrets, added to `out`; and whether the whole string is
/// shaped like one.
pub(super) fn string_findings(s: &str, out: &mut Vec<String>) -> bool {
    let schemeless = schemeless_user_password(s);
    let shaped = looks_like_secret(s) || schemeless.is_some();
    // A URL's password on its own, for outputs that quote the host part
    // of the URL without its scheme.
    out.extend(url_passwords(s).map(str::to_string));
    out.extend(schemeless.map(str::to_string));
    // A secret embedded in a longer string (a shell line, a path).
    for (a, b) in secret_spans(s) {
        if let Some(tok) = s.get(a..b) {
            if tok != s {
                push_secret(tok, out);
            }
        }
    }
    if s.bytes().any(|b| b.is_ascii_whitespace()) || !s.is_ascii() {
        // A shell line: its secrets, as the command rules read them.
        out.extend(line_secrets(s, true).into_iter().map(|f| f.part));
    }
    shaped
}

/// `string_findings` remembered for the strings of many trees walked one
/// after another: the profiles imported from one file repeat the same
/// image, paths and words. It keeps the first `Memo::KEPT` distinct
/// strings, which is where a file's repeated values first appear, so its
/// memory stays small whatever the file holds.
#[derive(Default)]
pub struct Memo {
    pub(super) found: std::collections::HashMap<String, (bool, Box<[String]>)>,
}

impl Memo {
    pub(super) const KEPT: usize = 4096;

    fn findings(&mut self, s: &str, out: &mut Vec<String>) -> bool {
        if let Some((shaped, found)) = self.found.get(s) {
            out.extend(found.iter().cloned());
            return *shaped;
        }
        let from = out.len();
        let shaped = string_findings(s, out);
        if self.found.len() < Memo::KEPT {
            let found = out.get(from..).unwrap_or_default().into();
            self.found.insert(s.to_string(), (shaped, found));
        }
        shaped
    }
}

/// A collected secret, and the forms in which a source may show it: each
/// of its words when it has several (a PEM block's lines, a YAML folded
/// scalar's lines, `Basic X`), and its JSON-escaped text (a PEM block's
/// `\n`, a quote's `\"`), so the masked source hides it as written.
pub(super) fn push_secret(s: &str, out: &mut Vec<String>) {
    let mut needs_escape = false;
    let mut spaced = false;
    for b in s.bytes() {
        needs_escape |= b < 0x20 || b == b'"' || b == b'\\';
        spaced |= b.is_ascii_whitespace();
    }
    if spaced || s.contains(char::is_whitespace) {
        out.extend(
            s.split_whitespace()
                .filter(|w| w.len() >= MIN_SECRET && !w.bytes().all(|b| b.is_ascii_lowercase()))
                .map(str::to_string),
        );
    }
    if needs_escape {
        let escaped = serde_json::Value::String(s.to_string()).to_string();
        if let Some(inner) = escaped.get(1..escaped.len() - 1) {
            out.push(inner.to_string());
        }
    }
    out.push(s.to_string());
}

/// The password of `user:password@host` written without a scheme (an
/// allow entry, a Compose `extra_hosts` entry), which the network rules
/// read as a URL. An image reference pinned by digest
/// (`python:3.12@sha256:…`) is not one.
pub(super) fn schemeless_user_password(s: &str) -> Option<&str> {
    let at = s.bytes().position(|b| b == b'@')?;
    if s.contains("://") || s.contains(char::is_whitespace) {
        return None;
    }
    let (user, host) = (s.get(..at)?, s.get(at + 1..)?);
    let (name, pw) = user.split_once(':')?;
    let digest = host.split_once(':').is_some_and(|(alg, hex)| {
        alg.starts_with("sha") && hex.bytes().all(|b| b.is_ascii_hexdigit())
    });
    let plain = |p: &str| !p.is_empty() && !p.contains(['/', '?', '#']);
    (plain(name)
        && plain(pw)
        && plain(host.split(['/', ':']).next().unwrap_or(""))
        && !digest
        && !is_reference(pw))
    .then_some(pw)
}
