//! Secret detection and redaction. A value that looks like a credential is
//! never echoed in any output: findings name the variable or field, and the
//! value is replaced by [`MASK`].
//!
//! Two signals say a value is a secret: the *name* that holds it (read as
//! words, see [`is_secret_name`]) and the value's own *shape* (a vendor
//! prefix, a PEM block, a password in a URL, a long random token, see
//! [`looks_like_secret`]). Identifiers (content digests, UUIDs) are not
//! secrets by shape.
//!
//! What a report prints is built from two kinds of text: a rule's own
//! wording, which is trusted and never scanned, and values taken from the
//! profile or the catalog, which rules quote in backticks (clippy style)
//! and which are masked and neutralized ([`Secrets::scrub_message`]).
//!
//! Each part decides one thing, and they depend on each other in this
//! order: `shapes` (what a value looks like), `names` (what a name says
//! of its value), `command_line` (which words of a command hold a secret,
//! read through the shell analysis), `scrub` (credential-looking tokens
//! of free text), `collect` (the secrets of a document), and `mask`
//! (documents and pointers with their secrets masked). This module holds
//! the collected set, [`Secrets`], and what it masks in a text.

mod collect;
mod command_line;
mod mask;
mod names;
mod scrub;
mod shapes;
#[cfg(test)]
mod tests;

use std::borrow::Cow;
use std::collections::HashSet;

use crate::json::{Node, Value};
use collect::{unescape, walk, Within};
use scrub::scrub_tokens_quick;

pub use collect::{Memo, Tree, View};
pub use command_line::{line_secrets, option_takes_secret, secret_part, secret_words, LineSecret};
pub use mask::{mask_json_document, mask_json_document_with, mask_unparsed};
pub use names::{is_secret_name, is_strong_secret_name, name_words, secret_by_name};
pub use scrub::{safe_text, scrub_tokens, scrub_tokens_cow, secret_tokens};
pub use shapes::{is_reference, is_written, literal_pieces, looks_like_secret};

/// What replaces a secret value in messages and evidence.
pub const MASK: &str = "[redacted]";

/// Words a collected value may equal without being masked everywhere:
/// settings, and words every report uses.
const COMMON_WORDS: &[&str] = &[
    "true", "false", "yes", "no", "none", "null", "nil", "on", "off", "default", "disabled",
    "enabled", "required", "optional", "empty", "unset", "password", "secret", "token", "example",
    "changeme", "test", "dummy",
];

/// The shortest collected value that is masked wherever it appears.
const GLOBAL_MIN: usize = 6;

/// Whether a collected value could be a credential, and so is masked
/// wherever it appears, even inside the wording of a sentence: long enough,
/// not a number, not a setting or common word. Shorter values (`0`, `abc`)
/// are masked only where they stand ([`Secrets::scrub_value`]).
fn masked_everywhere(v: &str) -> bool {
    let t = v.trim();
    t.chars().count() >= GLOBAL_MIN
        && !t
            .bytes()
            .all(|b| b.is_ascii_digit() || matches!(b, b'.' | b'-' | b'+' | b'_' | b','))
        && !COMMON_WORDS.iter().any(|w| t.eq_ignore_ascii_case(w))
}

/// The secret values of one document, collected once and scrubbed from
/// every output string.
///
/// Values that could be credentials (`masked_everywhere`) are matched
/// anywhere in a text in one pass whatever their number and however they
/// nest or overlap (one automaton over all of them). Every occurrence of every such value is
/// masked, overlapping ones included, so no part of a secret survives next
/// to another. Shorter values are masked where they stand: a whole value,
/// a backticked segment, or the value of a `NAME=value` pair.
///
/// A value shaped like a credential ([`looks_like_secret`]) is matched
/// whatever its ASCII case, since a rule may show a value with its case
/// changed (a capability in capitals, a host in small letters). A value
/// that is secret only by the name it sits under (a password such as
/// `wordpress`) is matched as written: in other cases it is most often
/// ordinary text (`WORDPRESS_DB_HOST`), and it has no shape to tell the two
/// apart.
#[derive(Clone, Default)]
pub struct Secrets {
    /// Values matched as written.
    exact: HashSet<Vec<u8>>,
    /// Values matched whatever their case, in small letters.
    folded: HashSet<Vec<u8>>,
    /// Values masked only where they stand, trimmed.
    local: HashSet<String>,
    /// `exact` and `folded` as automata, built once all values are in
    /// (`None` when both are empty).
    everywhere: Option<std::sync::Arc<Everywhere>>,
    /// `local` as an automaton, for [`Secrets::mask_source`].
    standing: Option<std::sync::Arc<Matcher>>,
}

/// The values, never the automata built from them.
impl PartialEq for Secrets {
    fn eq(&self, other: &Secrets) -> bool {
        self.exact == other.exact && self.folded == other.folded && self.local == other.local
    }
}

impl Eq for Secrets {}

/// How many values are held, never the values: a report printed with
/// `{:?}` must not echo what the audit masks everywhere else.
impl std::fmt::Debug for Secrets {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Secrets")
            .field("values", &(self.exact.len() + self.folded.len()))
            .field("local", &self.local.len())
            .finish_non_exhaustive()
    }
}

/// The values masked everywhere: those matched as written and those
/// matched whatever their ASCII case.
struct Everywhere {
    exact: Option<Matcher>,
    folded: Option<Matcher>,
}

/// An Aho-Corasick automaton over a set of values, with the longest value
/// that ends in each of its match states. One pass over a text then finds,
/// at each byte, the longest value ending there, which is all a union of
/// masked ranges needs: a text is read once whatever the number of values,
/// their lengths, and how they nest inside or overlap one another (a
/// search for each value, or a look at each length at each byte, costs
/// their number or their lengths again for every byte).
struct Matcher {
    nfa: aho_corasick::nfa::noncontiguous::NFA,
    /// Match state → the longest value it ends, filled in for every match
    /// state when the automaton is built.
    longest: std::collections::HashMap<aho_corasick::automaton::StateID, usize>,
}

impl Matcher {
    /// `None` when the automaton cannot be built, which only a set of
    /// values far larger than any input the audit accepts could cause.
    fn new<'v>(values: impl Iterator<Item = &'v [u8]> + Clone) -> Option<Matcher> {
        use aho_corasick::automaton::Automaton;
        use aho_corasick::Anchored;
        let nfa = aho_corasick::nfa::noncontiguous::NFA::builder()
            .match_kind(aho_corasick::MatchKind::Standard)
            .build(values.clone())
            .ok()?;
        let start = nfa.start_state(Anchored::No).ok()?;
        let mut longest = std::collections::HashMap::new();
        // Every state is a prefix of some value, so walking every value
        // from the start visits every match state.
        for v in values {
            let mut sid = start;
            for &b in v {
                sid = nfa.next_state(Anchored::No, sid, b);
                if nfa.is_match(sid) && !longest.contains_key(&sid) {
                    longest.insert(sid, Self::longest_at(&nfa, sid));
                }
            }
        }
        Some(Matcher { nfa, longest })
    }

    fn longest_at(
        nfa: &aho_corasick::nfa::noncontiguous::NFA,
        sid: aho_corasick::automaton::StateID,
    ) -> usize {
        use aho_corasick::automaton::Automaton;
        (0..nfa.match_len(sid))
            .map(|i| nfa.pattern_len(nfa.match_pattern(sid, i)))
            .max()
            .unwrap_or(0)
    }

    /// For each byte of `hay` that ends some value, the start of the
    /// longest one: `found(start, end)`, in order of `end`.
    fn ends(&self, hay: &[u8], mut found: impl FnMut(usize, usize)) {
        use aho_corasick::automaton::Automaton;
        use aho_corasick::Anchored;
        let Ok(mut sid) = self.nfa.start_state(Anchored::No) else {
            // Unreachable for an unanchored automaton; masking all of the
            // text is the closed way to fail.
            found(0, hay.len());
            return;
        };
        for (i, &b) in hay.iter().enumerate() {
            sid = self.nfa.next_state(Anchored::No, sid, b);
            if self.nfa.is_match(sid) {
                let len = self
                    .longest
                    .get(&sid)
                    .copied()
                    .unwrap_or_else(|| Self::longest_at(&self.nfa, sid));
                found(i + 1 - len.min(i + 1), i + 1);
            }
        }
    }

    /// Every occurrence of every value in `hay`, overlapping ones too.
    fn all(&self, hay: &[u8], mut found: impl FnMut(usize, usize)) {
        use aho_corasick::automaton::Automaton;
        use aho_corasick::Anchored;
        let Ok(mut sid) = self.nfa.start_state(Anchored::No) else {
            found(0, hay.len());
            return;
        };
        for (i, &b) in hay.iter().enumerate() {
            sid = self.nfa.next_state(Anchored::No, sid, b);
            if self.nfa.is_match(sid) {
                for k in 0..self.nfa.match_len(sid) {
                    let len = self.nfa.pattern_len(self.nfa.match_pattern(sid, k));
                    found(i + 1 - len.min(i + 1), i + 1);
                }
            }
        }
    }
}

impl Secrets {
    /// Collect secrets from a parsed profile: every string value that looks
    /// like a credential, every string under a secret-sounding key, every
    /// credential inside a longer string, and every command argument that
    /// [`secret_words`] calls a secret.
    pub fn collect(root: &Node) -> Secrets {
        let mut values = Vec::new();
        walk(root, None, Within::Anywhere, false, &mut values, &mut None);
        Secrets::of_values(values)
    }

    /// Add the secrets under `root` to `values` (the secrets of several
    /// profiles go together, e.g. every profile imported from one file,
    /// so the file's text is masked once for all of them); whether it held
    /// any of its own: whether [`Secrets::collect`] of it alone would not
    /// be empty, so [`mask_json_document`] of its text would change it.
    /// `memo`, when the trees come from one file, remembers what its
    /// strings hold across them.
    pub fn collect_into<T: Tree>(
        root: &T,
        values: &mut Vec<String>,
        mut memo: Option<&mut Memo>,
    ) -> bool {
        let from = values.len();
        walk(root, None, Within::Anywhere, false, values, &mut memo);
        values
            .get(from..)
            .is_some_and(|v| v.iter().any(|v| !v.trim().is_empty()))
    }

    /// Secrets from values found elsewhere.
    pub fn of_values(values: Vec<String>) -> Secrets {
        let mut out = Secrets::default();
        for v in values {
            let fold = looks_like_secret(&v);
            out.add(v, fold);
        }
        out.build();
        out
    }

    /// Hold `v`: where it stands when it is short, else everywhere, and
    /// whatever its case when `fold`.
    fn add(&mut self, v: String, fold: bool) {
        if !masked_everywhere(&v) {
            let t = v.trim();
            if !t.is_empty() {
                self.local.insert(t.to_string());
            }
            return;
        }
        if fold {
            self.folded.insert(v.into_bytes().to_ascii_lowercase());
        } else {
            self.exact.insert(v.into_bytes());
        }
    }

    /// The automata of the values held.
    fn build(&mut self) {
        let set = |s: &HashSet<Vec<u8>>| {
            (!s.is_empty())
                .then(|| Matcher::new(s.iter().map(Vec::as_slice)))
                .flatten()
        };
        let (exact, folded) = (set(&self.exact), set(&self.folded));
        self.everywhere = (exact.is_some() || folded.is_some())
            .then(|| std::sync::Arc::new(Everywhere { exact, folded }));
        self.standing = (!self.local.is_empty())
            .then(|| Matcher::new(self.local.iter().map(String::as_bytes)))
            .flatten()
            .map(std::sync::Arc::new);
    }

    /// The secrets of `self` and `other` together.
    pub fn union(&self, other: &Secrets) -> Secrets {
        let mut out = self.clone();
        out.exact.extend(other.exact.iter().cloned());
        out.folded.extend(other.folded.iter().cloned());
        out.local.extend(other.local.iter().cloned());
        out.build();
        out
    }

    pub fn is_empty(&self) -> bool {
        self.exact.is_empty() && self.folded.is_empty() && self.local.is_empty()
    }

    /// Whether `s` is one of the collected secret values.
    pub fn contains(&self, s: &str) -> bool {
        self.local.contains(s.trim())
            || self.exact.contains(s.as_bytes())
            || self.folded.contains(&s.as_bytes().to_ascii_lowercase())
    }

    /// The byte ranges of `text` covered by some value masked everywhere,
    /// merged and in order. Ranges start and end on character boundaries:
    /// a value is valid UTF-8, so it can only match where a character
    /// starts, and a change of ASCII case keeps every byte where it was.
    fn covered(&self, text: &str) -> Vec<(usize, usize)> {
        let mut out: Vec<(usize, usize)> = Vec::new();
        let Some(every) = &self.everywhere else {
            return out;
        };
        if text.len() < GLOBAL_MIN {
            return out;
        }
        let bytes = text.as_bytes();
        // The longest value ending at each byte, of either set, in order of
        // their ends; each merged with the ranges before it that it reaches.
        let mut ranges: Vec<(usize, usize)> = Vec::new();
        if let Some(m) = &every.exact {
            m.ends(bytes, |a, b| ranges.push((a, b)));
        }
        if let Some(m) = &every.folded {
            // The folded values are in small letters: so is the text they
            // are looked for in (the automaton's own case folding costs
            // more to build than a copy of the text costs to make).
            let lower: Cow<'_, [u8]> = if bytes.iter().any(u8::is_ascii_uppercase) {
                Cow::Owned(bytes.to_ascii_lowercase())
            } else {
                Cow::Borrowed(bytes)
            };
            m.ends(&lower, |a, b| ranges.push((a, b)));
        }
        if every.exact.is_some() && every.folded.is_some() {
            crate::sort::sort_by_key(&mut ranges, |r| r.1);
        }
        for (mut a, b) in ranges {
            while let Some(&(la, lb)) = out.last() {
                if a > lb {
                    break;
                }
                a = a.min(la);
                out.pop();
            }
            out.push((a, b));
        }
        out
    }

    /// The SHA-256 of a value of the document (`None`: nothing there), as
    /// a baseline records what a finding accepted. Every string, key and
    /// number is masked first ([`Secrets::scrub_value`]), so the digest
    /// of a short password cannot be matched against guesses; a change
    /// to anything else changes it. Objects are read whatever the order
    /// of their members, and nothing of the text's layout counts.
    pub fn value_digest(&self, value: Option<&Node>) -> String {
        use sha2::Digest;
        let mut h = sha2::Sha256::new();
        h.update(b"isolint.value/v1\0");
        match value {
            None => h.update(b"-"),
            Some(n) => self.digest_into(n, &mut h),
        }
        let mut hex = String::with_capacity(64);
        crate::digest::push_hex(&mut hex, &h.finalize(), 64);
        hex
    }

    /// One value, each piece tagged and its length given, so no two
    /// values write the same bytes.
    fn digest_into(&self, n: &Node, h: &mut sha2::Sha256) {
        use sha2::Digest;
        let text = |h: &mut sha2::Sha256, tag: &[u8], s: &str| {
            let shown = self.scrub_value(s);
            h.update(tag);
            h.update((shown.len() as u64).to_le_bytes());
            h.update(shown.as_bytes());
        };
        match &n.value {
            Value::Null => h.update(b"n"),
            Value::Bool(b) => h.update(if *b { b"t" } else { b"f" }),
            Value::Number(num) => text(h, b"#", num.as_str()),
            Value::String(s) => text(h, b"s", s),
            Value::Array(items) => {
                h.update(b"[");
                h.update((items.len() as u64).to_le_bytes());
                for i in items {
                    self.digest_into(i, h);
                }
            }
            Value::Object(members) => {
                h.update(b"{");
                h.update((members.len() as u64).to_le_bytes());
                let mut sorted: Vec<&crate::json::Member> = members.iter().collect();
                crate::sort::sort_by(&mut sorted, |a, b| a.key.cmp(&b.key));
                for m in sorted {
                    text(h, b"k", &m.key);
                    self.digest_into(&m.value, h);
                }
            }
        }
    }

    /// `s` with every value masked everywhere replaced by [`MASK`].
    fn mask_everywhere<'a>(&self, s: &'a str) -> Cow<'a, str> {
        let covered = self.covered(s);
        if covered.is_empty() {
            return Cow::Borrowed(s);
        }
        let mut out = String::with_capacity(s.len());
        let mut at = 0;
        for (a, b) in covered {
            out.push_str(s.get(at..a).unwrap_or_default());
            out.push_str(MASK);
            at = b;
        }
        out.push_str(s.get(at..).unwrap_or_default());
        Cow::Owned(out)
    }

    /// Whether `s` stands for a short collected value: the value itself,
    /// or a `NAME=value` / `NAME: value` pair ending in it.
    fn stands_local(&self, s: &str) -> Option<usize> {
        if self.local.is_empty() {
            return None;
        }
        let t = s.trim();
        if self.local.contains(t) {
            return Some(0);
        }
        let at = s.rfind(['=', ':'])? + 1;
        let v = s.get(at..)?.trim().trim_matches(|c| c == '"' || c == '\'');
        self.local.contains(v).then_some(at)
    }

    /// Mask an untrusted value (an evidence value, a mount path, a runtime
    /// check's target, a backticked segment of a message): collected
    /// secrets, short ones where the value is one, and anything else shaped
    /// like a credential.
    pub fn scrub_value<'a>(&self, s: &'a str) -> Cow<'a, str> {
        if let Some(at) = self.stands_local(s) {
            return Cow::Owned(format!("{}{MASK}", s.get(..at).unwrap_or_default()));
        }
        match self.mask_everywhere(s) {
            Cow::Borrowed(b) => scrub_tokens_quick(b),
            Cow::Owned(o) => Cow::Owned(scrub_tokens_quick(&o).into_owned()),
        }
    }

    /// Mask a message made of a rule's wording and backticked values. The
    /// wording is trusted: only the values masked everywhere are looked for
    /// in it (a fail-safe for a value quoted without backticks). Every
    /// backticked segment is an untrusted value ([`Secrets::scrub_value`]).
    /// An odd number of backticks leaves no way to tell wording from
    /// values: the whole text is then scrubbed as a value (fail closed).
    pub fn scrub_message<'a>(&self, s: &'a str) -> Cow<'a, str> {
        if !s.contains('`') {
            return self.mask_everywhere(s);
        }
        if s.bytes().filter(|&b| b == b'`').count() % 2 == 1 {
            return self.scrub_value(s);
        }
        let mut out = String::with_capacity(s.len());
        let mut changed = false;
        for (i, part) in s.split('`').enumerate() {
            if i > 0 {
                out.push('`');
            }
            let shown = if i % 2 == 0 {
                self.mask_everywhere(part)
            } else {
                self.scrub_value(part)
            };
            changed |= matches!(shown, Cow::Owned(_));
            out.push_str(&shown);
        }
        if changed {
            Cow::Owned(out)
        } else {
            Cow::Borrowed(s)
        }
    }

    /// [`Secrets::scrub_value`], owned.
    pub fn scrub(&self, s: &str) -> String {
        self.scrub_value(s).into_owned()
    }

    /// Mask secrets in source text character by character, so lines and
    /// columns stay where they were: every value masked everywhere, and
    /// every short value where it stands as a whole word (between bytes
    /// that are not letters, digits or `_`). A quoted literal written with
    /// escapes (`"hunt\u0065r2"`, YAML's `\x41`) is read as its value:
    /// when that holds a secret the whole literal is masked, since the
    /// escaped text spells the secret as well as the plain one.
    pub fn mask_source(&self, text: &str) -> String {
        let mut ranges = self.covered(text);
        if !self.local.is_empty() {
            ranges.extend(self.local_words(text));
        }
        if !self.is_empty() {
            ranges.extend(self.escaped_literals(text));
        }
        crate::sort::sort(&mut ranges);
        let mut out = String::with_capacity(text.len());
        let mut at = 0;
        for (a, b) in ranges {
            if b <= at {
                continue;
            }
            let a = a.max(at);
            out.push_str(text.get(at..a).unwrap_or_default());
            let run = text.get(a..b).unwrap_or_default();
            out.extend(run.chars().map(|c| if c == '\n' { c } else { '*' }));
            at = b;
        }
        out.push_str(text.get(at..).unwrap_or_default());
        out
    }

    /// The insides of the quoted literals of `text` that hold an escape
    /// and whose value holds a secret ([`Secrets::scrub_value`]).
    fn escaped_literals(&self, text: &str) -> Vec<(usize, usize)> {
        let bytes = text.as_bytes();
        let mut out = Vec::new();
        let mut i = 0;
        while let Some(&q) = bytes.get(i) {
            i += 1;
            if q != b'"' && q != b'\'' {
                continue;
            }
            // A literal ends at its closing quote, on the same line.
            let start = i;
            let mut escaped = false;
            let mut end = None;
            while let Some(&c) = bytes.get(i) {
                if c == b'\n' {
                    break;
                }
                i += 1;
                if c == b'\\' && q == b'"' {
                    escaped = true;
                    i += 1;
                } else if c == q {
                    end = Some(i - 1);
                    break;
                }
            }
            let Some(end) = end else { continue };
            if !escaped {
                continue;
            }
            let raw = text.get(start..end).unwrap_or_default();
            let value = unescape(raw);
            if value != raw && matches!(self.scrub_value(&value), Cow::Owned(_)) {
                out.push((start, end));
            }
        }
        out
    }

    /// Where short values stand as whole words in `text`: every
    /// occurrence of each, in one pass ([`Matcher`]).
    fn local_words(&self, text: &str) -> Vec<(usize, usize)> {
        let word = |c: char| c.is_alphanumeric() || c == '_';
        let mut out = Vec::new();
        let Some(m) = &self.standing else {
            return out;
        };
        m.all(text.as_bytes(), |a, b| {
            let Some(v) = text.get(a..b) else {
                return;
            };
            let before = text.get(..a).and_then(|t| t.chars().next_back());
            let after = text.get(b..).and_then(|t| t.chars().next());
            let starts_word = v.chars().next().is_some_and(word);
            let ends_word = v.chars().next_back().is_some_and(word);
            let inside_a_word =
                (starts_word && before.is_some_and(word)) || (ends_word && after.is_some_and(word));
            if !inside_a_word {
                out.push((a, b));
            }
        });
        out
    }
}
