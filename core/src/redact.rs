//! Secret detection and redaction. A value that looks like a credential is
//! never echoed in any output: findings name the variable or field, and the
//! value is replaced by [`MASK`].

use std::borrow::Cow;
use std::collections::{BTreeMap, HashSet};

use crate::json::{Node, Value};

/// What replaces a secret value in messages and evidence.
pub const MASK: &str = "[redacted]";

/// Name parts that leave no doubt that a value is a secret.
const STRONG_SECRET_WORDS: [&str; 9] = [
    "SECRET",
    "TOKEN",
    "PASSWORD",
    "PASSWD",
    "PASSPHRASE",
    "API_KEY",
    "APIKEY",
    "PRIVATE_KEY",
    "ACCESS_KEY",
];

/// Name parts that usually mark a secret but also name modes and settings.
const WEAK_SECRET_WORDS: [&str; 10] = [
    "CREDENTIAL",
    "AUTH",
    "SESSION_KEY",
    "CLIENT_KEY",
    "SIGNING_KEY",
    "PWD_",
    "_PWD",
    "DSN",
    "CONNECTION_STRING",
    "COOKIE",
];

/// The letters (and `_`) a name holds, one bit each: a word can only be
/// inside a name whose set includes the word's.
const fn letters(mut bytes: &[u8]) -> u32 {
    let mut set = 0u32;
    while let [b, rest @ ..] = bytes {
        set |= match *b {
            b @ b'a'..=b'z' => 1 << (b - b'a'),
            b @ b'A'..=b'Z' => 1 << (b - b'A'),
            b'_' | b'-' => 1 << 26,
            _ => 1 << 27,
        };
        bytes = rest;
    }
    set
}

// Evaluated at compile time: an index out of range fails the build.
#[allow(clippy::indexing_slicing)]
const fn letter_sets<const N: usize>(words: &[&str; N]) -> [u32; N] {
    let mut out = [0u32; N];
    let mut i = 0;
    while i < N {
        out[i] = letters(words[i].as_bytes());
        i += 1;
    }
    out
}

const STRONG_LETTERS: [u32; STRONG_SECRET_WORDS.len()] = letter_sets(&STRONG_SECRET_WORDS);
const WEAK_LETTERS: [u32; WEAK_SECRET_WORDS.len()] = letter_sets(&WEAK_SECRET_WORDS);
/// Whether `name`, compared without case and with `-` read as `_`,
/// contains one of `words` (written in upper case). No allocation, and
/// words whose letters the name lacks are never scanned for: this runs for
/// every key of every document and every token pair of every output string.
fn name_has(name: &str, have: u32, words: &[&str], sets: &[u32]) -> bool {
    let norm = |b: u8| {
        if b == b'-' {
            b'_'
        } else {
            b.to_ascii_uppercase()
        }
    };
    let hay = name.as_bytes();
    words.iter().zip(sets).any(|(w, &set)| {
        let w = w.as_bytes();
        set & have == set
            && w.len() <= hay.len()
            && hay
                .windows(w.len())
                .any(|win| win.iter().zip(w).all(|(&a, &b)| norm(a) == b))
    })
}

/// [`letters`] of each byte, for names at run time.
// Evaluated at compile time: an index out of range fails the build.
#[allow(clippy::indexing_slicing)]
const LETTER: [u32; 256] = {
    let mut t = [0u32; 256];
    let mut b = 0;
    while b < 256 {
        t[b] = letters(&[b as u8]);
        b += 1;
    }
    t
};

/// The letter sets of every secret word, strong and weak.
// Evaluated at compile time: an index out of range fails the build.
#[allow(clippy::indexing_slicing)]
const ALL_LETTERS: [u32; STRONG_LETTERS.len() + WEAK_LETTERS.len()] = {
    let mut out = [0u32; STRONG_LETTERS.len() + WEAK_LETTERS.len()];
    let mut i = 0;
    while i < STRONG_LETTERS.len() {
        out[i] = STRONG_LETTERS[i];
        i += 1;
    }
    while i < out.len() {
        out[i] = WEAK_LETTERS[i - STRONG_LETTERS.len()];
        i += 1;
    }
    out
};

/// Whether a name with letter set `have` holds every letter of some secret
/// word (a necessary condition for holding the word).
fn holds_a_word_set(have: u32) -> bool {
    ALL_LETTERS.iter().any(|&set| have | set == have)
}

/// A byte's class for [`WORD_STARTS`]: a letter (either case) 0-25, `_`
/// or `-` 26, anything else 27.
#[cfg(not(target_arch = "wasm32"))]
const fn trigram_class(b: u8) -> usize {
    match b {
        b'a'..=b'z' => (b - b'a') as usize,
        b'A'..=b'Z' => (b - b'A') as usize,
        b'_' | b'-' => 26,
        _ => 27,
    }
}

/// Bit `(x * 28 + y) * 28 + z` set: some secret word starts with the
/// three bytes of classes `x y z`. Every word has three bytes at least,
/// so a name without one of these trigrams holds no word.
// Evaluated at compile time: an index out of range fails the build.
#[cfg(not(target_arch = "wasm32"))]
#[allow(clippy::indexing_slicing)]
const WORD_STARTS: [u64; (28 * 28 * 28_usize).div_ceil(64)] = {
    let mut t = [0u64; (28 * 28 * 28_usize).div_ceil(64)];
    let mut i = 0;
    while i < STRONG_SECRET_WORDS.len() + WEAK_SECRET_WORDS.len() {
        let w = if i < STRONG_SECRET_WORDS.len() {
            STRONG_SECRET_WORDS[i].as_bytes()
        } else {
            WEAK_SECRET_WORDS[i - STRONG_SECRET_WORDS.len()].as_bytes()
        };
        let bit = (trigram_class(w[0]) * 28 + trigram_class(w[1])) * 28 + trigram_class(w[2]);
        t[bit / 64] |= 1 << (bit % 64);
        i += 1;
    }
    t
};

/// Whether `name` holds, at some position, the first three bytes of a
/// secret word (without case, `-` read as `_`): a necessary condition for
/// holding the word, tested in one pass. Paths in output text often have
/// the letters of a word without the word (`test-service` has those of
/// `SECRET`), and the word search they went on to cost about five times
/// this test.
#[cfg(not(target_arch = "wasm32"))]
fn has_a_word_start(name: &[u8]) -> bool {
    let mut x = 27;
    let mut y = 27;
    name.iter().any(|&b| {
        let z = trigram_class(b);
        let bit = (x * 28 + y) * 28 + z;
        (x, y) = (y, z);
        WORD_STARTS
            .get(bit / 64)
            .is_some_and(|w| w & (1 << (bit % 64)) != 0)
    })
}

/// Whether a variable or key name says its value is a secret.
pub fn is_secret_name(name: &str) -> bool {
    if name.len() < 3 {
        // The shortest word (`DSN`) has three letters.
        return false;
    }
    let have = name.as_bytes().iter().fold(0u32, |acc, &b| {
        acc | LETTER.get(usize::from(b)).copied().unwrap_or(0)
    });
    // Most names (and the words of output text) lack the letters of every
    // word; only the rest are scanned.
    if !holds_a_word_set(have) {
        return false;
    }
    #[cfg(not(target_arch = "wasm32"))]
    if !has_a_word_start(name.as_bytes()) {
        return false;
    }
    if !name_has(name, have, &STRONG_SECRET_WORDS, &STRONG_LETTERS)
        && !name_has(name, have, &WEAK_SECRET_WORDS, &WEAK_LETTERS)
    {
        return false;
    }
    let n = name.to_ascii_uppercase().replace('-', "_");
    n != "SSH_AUTH_SOCK" && !n.ends_with("_FILE") && !n.ends_with("_PATH")
}

/// Whether a name leaves no doubt that its value is a secret (unlike `AUTH`
/// or `COOKIE`, which also name modes and settings).
pub fn is_strong_secret_name(name: &str) -> bool {
    name_has(
        name,
        letters(name.as_bytes()),
        &STRONG_SECRET_WORDS,
        &STRONG_LETTERS,
    )
}

/// Vendor prefixes of credential formats; the value must go on for at
/// least eight more bytes.
const PREFIXES: &[&str] = &[
    "ghp_",
    "gho_",
    "ghu_",
    "ghs_",
    "ghr_",
    "github_pat_",
    "glpat-",
    "xoxb-",
    "xoxp-",
    "xoxa-",
    "xoxs-",
    "xapp-",
    "sk_live_",
    "rk_live_",
    "sk-ant-",
    "sk-proj-",
    "AIza",
    "ya29.",
    "npm_",
    "pypi-",
    "hf_",
    "dop_v1_",
    "SG.",
];

/// Whether `hay` contains `needle`, for the short strings this module
/// looks at (a substring searcher costs more to set up than to run here).
fn has(hay: &[u8], needle: &[u8]) -> bool {
    needle.len() <= hay.len() && hay.windows(needle.len()).any(|w| w == needle)
}

/// Byte kinds for [`looks_like_secret`]'s one pass: a token's kinds are
/// OR-ed together, and most tokens are ruled out by their kinds alone.
const K_HEX_LOWER: u16 = 1; // a-f
const K_LOWER: u16 = 1 << 1; // g-z
const K_HEX_UPPER: u16 = 1 << 2; // A-F
const K_UPPER: u16 = 1 << 3; // G-Z
const K_DIGIT: u16 = 1 << 4;
const K_SYMBOL: u16 = 1 << 5; // + / = _ -
const K_SPACE: u16 = 1 << 6; // ' ' only
const K_COLON: u16 = 1 << 7;
const K_AT: u16 = 1 << 8;
const K_OTHER: u16 = 1 << 9;
const K_ANY_LOWER: u16 = K_HEX_LOWER | K_LOWER;
const K_ANY_UPPER: u16 = K_HEX_UPPER | K_UPPER;
const K_HEX: u16 = K_HEX_LOWER | K_HEX_UPPER | K_DIGIT;
const K_TOKEN: u16 = K_ANY_LOWER | K_ANY_UPPER | K_DIGIT | K_SYMBOL;
// Evaluated at compile time: an index out of range fails the build.
#[allow(clippy::indexing_slicing)]
const KIND: [u16; 256] = {
    let mut t = [K_OTHER; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        t[b] = match c {
            b'a'..=b'f' => K_HEX_LOWER,
            b'g'..=b'z' => K_LOWER,
            b'A'..=b'F' => K_HEX_UPPER,
            b'G'..=b'Z' => K_UPPER,
            b'0'..=b'9' => K_DIGIT,
            b'+' | b'/' | b'=' | b'_' | b'-' => K_SYMBOL,
            b' ' => K_SPACE,
            b':' => K_COLON,
            b'@' => K_AT,
            _ => K_OTHER,
        };
        b += 1;
    }
    t
};
/// Entry `b`: bit `i` set when vendor prefix `i` starts with byte `b`
/// (every prefix starts with an ASCII byte), so a token is compared with
/// the few prefixes that share its first byte and no other.
// Evaluated at compile time: an index out of range fails the build, and so
// would a 33rd prefix (the shift below overflows).
#[allow(clippy::indexing_slicing)]
const PREFIX_FIRST: [u32; 128] = {
    let mut t = [0u32; 128];
    let mut i = 0;
    while i < PREFIXES.len() {
        t[PREFIXES[i].as_bytes()[0] as usize] |= 1 << i;
        i += 1;
    }
    t
};

/// Every vendor prefix holds a byte other than a lower-case letter, which
/// [`secret_shaped`]'s first test relies on; a prefix of lower-case letters
/// alone fails the build here.
// Evaluated at compile time: an index out of range fails the build.
#[allow(clippy::indexing_slicing)]
const PREFIXES_LEAVE_LOWER_CASE: () = {
    let mut i = 0;
    while i < PREFIXES.len() {
        let p = PREFIXES[i].as_bytes();
        let mut j = 0;
        let mut other = false;
        while j < p.len() {
            other |= !p[j].is_ascii_lowercase();
            j += 1;
        }
        assert!(other, "a vendor prefix of lower-case letters alone");
        i += 1;
    }
};

/// Whether `b` starts with a vendor prefix and goes on for at least eight
/// more bytes.
fn vendor_prefixed(b: &[u8], first: u8) -> bool {
    #[allow(clippy::let_unit_value)]
    let () = PREFIXES_LEAVE_LOWER_CASE;
    let mut set = PREFIX_FIRST.get(usize::from(first)).copied().unwrap_or(0);
    while set != 0 {
        let i = set.trailing_zeros() as usize;
        set &= set - 1;
        if let Some(p) = PREFIXES.get(i) {
            if b.len() >= p.len() + 8 && b.starts_with(p.as_bytes()) {
                return true;
            }
        }
    }
    false
}

fn kind(b: u8) -> u16 {
    KIND.get(usize::from(b)).copied().unwrap_or(K_OTHER)
}

/// Whether a value itself looks like a credential, whatever its name.
///
/// One pass collects the kinds of bytes the value holds; the costlier
/// checks (vendor prefixes, URL passwords, PEM markers, per-class counts)
/// run only when those kinds allow them to succeed.
pub fn looks_like_secret(v: &str) -> bool {
    let v = v.trim();
    let kinds = v.as_bytes().iter().fold(0u16, |acc, &c| acc | kind(c));
    secret_shaped(v, kinds)
}

/// [`looks_like_secret`] of a value without surrounding whitespace whose
/// byte kinds (the OR of [`kind`] over its bytes) are already known.
fn secret_shaped(v: &str, kinds: u16) -> bool {
    let b = v.as_bytes();
    let Some(&first) = b.first() else {
        return false;
    };
    if b.len() < 8 {
        return false;
    }
    if kinds & !K_ANY_LOWER == 0 && kinds & K_LOWER != 0 {
        // Lower-case letters alone, not all of them hex: every shape below
        // needs some other byte (each vendor prefix has one, checked at
        // compile time by `PREFIXES_LEAVE_LOWER_CASE`), or only hex.
        return false;
    }
    if vendor_prefixed(b, first) {
        return true;
    }
    if b.starts_with(b"sk-") && b.len() >= 20 {
        return true;
    }
    if (b.starts_with(b"AKIA") || b.starts_with(b"ASIA"))
        && b.len() >= 16
        && kinds & !(K_ANY_UPPER | K_DIGIT) == 0
    {
        return true;
    }
    // A PEM block has spaces, so a token between separators never is one.
    if kinds & K_SPACE != 0 && has(b, b"-----BEGIN") && has(b, b"PRIVATE KEY") {
        return true;
    }
    if b.starts_with(b"eyJ") && b.iter().filter(|&&c| c == b'.').count() == 2 {
        return true;
    }
    if kinds & K_COLON != 0 && kinds & K_AT != 0 && has_url_password(v) {
        return true;
    }
    high_entropy_token(b, kinds)
}

/// `scheme://user:password@host`.
fn has_url_password(v: &str) -> bool {
    let b = v.as_bytes();
    let Some(i) = b.windows(3).position(|w| w == b"://") else {
        return false;
    };
    let rest = b.get(i + 3..).unwrap_or_default();
    let auth_end = rest
        .iter()
        .position(|c| matches!(c, b'/' | b'?' | b'#'))
        .unwrap_or(rest.len());
    let auth = rest.get(..auth_end).unwrap_or_default();
    match auth.iter().rposition(|&c| c == b'@') {
        Some(at) => {
            let user = auth.get(..at).unwrap_or_default();
            user.contains(&b':') && at > user.iter().position(|&c| c == b':').unwrap_or(0) + 1
        }
        None => false,
    }
}

/// A long run of mixed letters and digits with no spaces: 40-character
/// AWS secret keys, hex API keys and the like. Paths and words are spared.
/// `kinds` are the value's byte kinds: only letters, digits and `+/=_-`
/// qualify, so a `://`, a space or an `@sha256:` digest never does.
fn high_entropy_token(b: &[u8], kinds: u16) -> bool {
    if b.len() < 24 || b.first() == Some(&b'/') || kinds & !K_TOKEN != 0 {
        return false;
    }
    if b.len() >= 32 && kinds & !K_HEX == 0 {
        return true;
    }
    if kinds & K_ANY_UPPER == 0 || kinds & K_ANY_LOWER == 0 || kinds & K_DIGIT == 0 {
        return false;
    }
    let upper = b.iter().filter(|c| c.is_ascii_uppercase()).count();
    let lower = b.iter().filter(|c| c.is_ascii_lowercase()).count();
    upper >= 2 && lower >= 2
}

/// The secret values of one document, collected once and scrubbed from
/// every output string.
///
/// Matching costs one pass over the text whatever the number of secrets:
/// values are kept in one hash set per length, and a position is only
/// looked at when its first four bytes begin some value (values shorter
/// than four bytes are looked up at every position). Every occurrence of
/// every value is masked, overlapping ones included, so no part of a secret
/// survives next to another.
#[derive(Clone, Default, PartialEq, Eq)]
pub struct Secrets {
    /// Values by length, longest first.
    by_len: Vec<(usize, HashSet<Vec<u8>>)>,
    /// The first four bytes of every value at least that long.
    prefixes: HashSet<[u8; 4]>,
    /// Whether some value is shorter than four bytes.
    has_short: bool,
    /// Bit `a * 256 + b` set: some value starts with the bytes `a b` (a
    /// one-byte value sets every `a *`). Most positions fail this test,
    /// which costs no hashing.
    starts: Vec<u64>,
}

/// How many values are held, never the values: a report printed with
/// `{:?}` must not echo what the audit masks everywhere else.
impl std::fmt::Debug for Secrets {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let values: usize = self.by_len.iter().map(|(_, set)| set.len()).sum();
        f.debug_struct("Secrets")
            .field("values", &values)
            .finish_non_exhaustive()
    }
}

impl Secrets {
    /// Collect secrets from a parsed profile: every string value that looks
    /// like a credential, and every string under a secret-sounding key.
    pub fn collect(root: &Node) -> Secrets {
        let mut values = Vec::new();
        walk(root, false, &mut values);
        Secrets::of_values(values)
    }

    /// The secrets of several profiles together (each root is walked and
    /// dropped in turn), e.g. every profile imported from one file, so the
    /// file's text is masked once for all of them.
    pub fn collect_many(roots: impl IntoIterator<Item = Node>) -> Secrets {
        let mut values = Vec::new();
        for root in roots {
            walk(&root, false, &mut values);
        }
        Secrets::of_values(values)
    }

    fn of_values(values: Vec<String>) -> Secrets {
        if values.iter().all(String::is_empty) {
            // Most profiles hold no secret: no tables to build.
            return Secrets::default();
        }
        let mut by_len: BTreeMap<usize, HashSet<Vec<u8>>> = BTreeMap::new();
        let mut prefixes = HashSet::new();
        let mut has_short = false;
        let mut starts = vec![0u64; 65536 / 64];
        let mut set_start = |pair: usize| {
            if let Some(word) = starts.get_mut(pair / 64) {
                *word |= 1 << (pair % 64);
            }
        };
        for v in values.into_iter().filter(|v| !v.is_empty()) {
            let bytes = v.into_bytes();
            match bytes.as_slice() {
                [a] => (0..256).for_each(|b| set_start(usize::from(*a) * 256 + b)),
                [a, b, ..] => set_start(usize::from(*a) * 256 + usize::from(*b)),
                [] => {}
            }
            match bytes.get(..4).and_then(|p| <[u8; 4]>::try_from(p).ok()) {
                Some(p) => {
                    prefixes.insert(p);
                }
                None => has_short = true,
            }
            by_len.entry(bytes.len()).or_default().insert(bytes);
        }
        Secrets {
            by_len: by_len.into_iter().rev().collect(),
            prefixes,
            has_short,
            starts,
        }
    }

    pub fn is_empty(&self) -> bool {
        self.by_len.is_empty()
    }

    /// Whether `s` is one of the collected secret values.
    pub fn contains(&self, s: &str) -> bool {
        self.by_len
            .iter()
            .find(|(len, _)| *len == s.len())
            .is_some_and(|(_, set)| set.contains(s.as_bytes()))
    }

    /// The byte ranges of `text` covered by some secret, merged and in
    /// order. Ranges start and end on character boundaries: a value is
    /// valid UTF-8, so it can only match where a character starts.
    fn covered(&self, text: &str) -> Vec<(usize, usize)> {
        let bytes = text.as_bytes();
        let mut out: Vec<(usize, usize)> = Vec::new();
        if self.by_len.is_empty() {
            return out;
        }
        for i in 0..bytes.len() {
            let a = usize::from(bytes.get(i).copied().unwrap_or(0));
            // The byte after the text counts as 0 here; a one-byte value
            // set every pair starting with its byte, so it still passes.
            let b = usize::from(bytes.get(i + 1).copied().unwrap_or(0));
            let pair = a * 256 + b;
            if self
                .starts
                .get(pair / 64)
                .is_none_or(|w| w & (1 << (pair % 64)) == 0)
            {
                continue;
            }
            let long_here = bytes
                .get(i..i + 4)
                .and_then(|w| <[u8; 4]>::try_from(w).ok())
                .is_some_and(|w| self.prefixes.contains(&w));
            if !long_here && !self.has_short {
                continue;
            }
            let hit = self.by_len.iter().find(|(len, set)| {
                (long_here || *len < 4) && bytes.get(i..i + len).is_some_and(|w| set.contains(w))
            });
            if let Some((len, _)) = hit {
                let end = i + len;
                match out.last_mut() {
                    Some(last) if i <= last.1 => last.1 = last.1.max(end),
                    _ => out.push((i, end)),
                }
            }
        }
        out
    }

    /// Replace every collected secret and anything else that looks like a
    /// credential; each run of secret text becomes one [`MASK`].
    pub fn scrub(&self, s: &str) -> String {
        self.scrub_cow(s).into_owned()
    }

    /// [`Secrets::scrub`] without a copy when nothing needs masking.
    pub fn scrub_cow<'a>(&self, s: &'a str) -> Cow<'a, str> {
        let covered = self.covered(s);
        if covered.is_empty() {
            return scrub_tokens_cow(s);
        }
        let mut out = String::with_capacity(s.len());
        let mut at = 0;
        for (a, b) in covered {
            out.push_str(s.get(at..a).unwrap_or_default());
            out.push_str(MASK);
            at = b;
        }
        out.push_str(s.get(at..).unwrap_or_default());
        Cow::Owned(scrub_tokens_cow(&out).into_owned())
    }

    /// Mask secrets in source text character by character, so lines and
    /// columns stay where they were. Secrets are matched as they appear in
    /// the source; escaped forms (`\u0041`) are rare and still masked in
    /// every message.
    pub fn mask_source(&self, text: &str) -> String {
        let mut out = String::with_capacity(text.len());
        let mut at = 0;
        for (a, b) in self.covered(text) {
            out.push_str(text.get(at..a).unwrap_or_default());
            let run = text.get(a..b).unwrap_or_default();
            out.extend(run.chars().map(|c| if c == '\n' { c } else { '*' }));
            at = b;
        }
        out.push_str(text.get(at..).unwrap_or_default());
        out
    }
}

fn walk(n: &Node, secret_key: bool, out: &mut Vec<String>) {
    match &n.value {
        Value::String(s) => {
            if (secret_key && !s.is_empty() && !is_reference(s)) || looks_like_secret(s) {
                out.push(s.clone());
            }
            // A secret embedded in a longer string (a shell line, a path);
            // a string this thread found clean before is not scanned again
            // (the values profiles share: an image, a lockfile, a path).
            #[cfg(not(target_arch = "wasm32"))]
            let Some(pending) = clean::lookup(s) else {
                return;
            };
            let spans = secret_spans(s);
            #[cfg(not(target_arch = "wasm32"))]
            if spans.is_empty() {
                clean::learn(s, pending);
            }
            for (a, b) in spans {
                if let Some(tok) = s.get(a..b) {
                    if tok != s {
                        out.push(tok.to_string());
                    }
                }
            }
        }
        Value::Number(num) if secret_key => out.push(num.as_str().to_string()),
        Value::Array(items) => items.iter().for_each(|i| walk(i, secret_key, out)),
        Value::Object(members) => {
            for m in members {
                walk(&m.value, is_secret_name(&m.key), out);
            }
        }
        _ => {}
    }
}

/// `${VAR}` or `$VAR` references name a secret without holding it.
fn is_reference(s: &str) -> bool {
    (s.starts_with("${") && s.ends_with('}'))
        || (s.starts_with('$')
            && s[1..]
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_'))
}

const SEPARATORS: &str = "\"'`=;,&|()<>[]{}";

/// Byte classes for the token scan: bit 0 ends a token (ASCII whitespace or
/// a separator), bit 1 splits a token into pieces (`/`, `:`, `@`).
const BREAK: u8 = 1;
const PIECE: u8 = 2;
// Evaluated at compile time: an index out of range fails the build.
#[allow(clippy::indexing_slicing)]
const CLASS: [u8; 128] = {
    let mut t = [0u8; 128];
    let ws = b"\t\n\x0b\x0c\r ";
    let mut i = 0;
    while i < ws.len() {
        t[ws[i] as usize] = BREAK;
        i += 1;
    }
    let sep = SEPARATORS.as_bytes();
    let mut i = 0;
    while i < sep.len() {
        t[sep[i] as usize] = BREAK;
        i += 1;
    }
    t[b'/' as usize] = PIECE;
    t[b':' as usize] = PIECE;
    t[b'@' as usize] = PIECE;
    t
};

/// The [`CLASS`] of an ASCII byte; other bytes have none.
fn class(b: u8) -> u8 {
    CLASS.get(usize::from(b)).copied().unwrap_or(0)
}

/// The shortest text [`looks_like_secret`] can accept.
const MIN_SECRET: usize = 8;

/// What the scan needs to know of a byte, in one table entry: its
/// [`CLASS`] (bits 0-7), its [`KIND`] (bits 8-23) and its [`LETTER`] bit
/// (bits 32-63), so a token's kinds and letters are one OR per byte. A
/// byte outside ASCII has only [`NON_ASCII`]: the character it starts
/// decides whether it ends a token.
// Evaluated at compile time: an index out of range fails the build.
#[allow(clippy::indexing_slicing)]
const SCAN: [u64; 256] = {
    let mut t = [NON_ASCII; 256];
    let mut b = 0;
    while b < 128 {
        t[b] = CLASS[b] as u64 | (KIND[b] as u64) << 8 | (LETTER[b] as u64) << 32;
        b += 1;
    }
    t
};
/// [`SCAN`]'s mark of a byte outside ASCII (a class bit no ASCII byte has).
const NON_ASCII: u64 = 0x80;

/// A token of the scan: its byte range and the kinds of its bytes.
#[derive(Clone, Copy)]
struct Token {
    a: usize,
    b: usize,
    kinds: u16,
    /// It holds a `/`, `:` or `@`, so it splits into pieces.
    pieces: bool,
}

/// Byte ranges of credential-looking tokens in `s`: whole tokens between
/// separators, or, inside a token that is not a secret as a whole (a path,
/// a URL), its `/`, `:` and `@`-separated pieces; and the value that
/// follows a secret-named flag or key (`--password=hunter2`, `TOKEN: abc`).
///
/// One pass over the bytes, which also gathers each token's byte kinds and
/// letters, so most tokens are ruled out without looking at them again;
/// tokens and pieces shorter than any secret are never examined. Runs for
/// every output string, so it allocates only when it finds something.
fn secret_spans(s: &str) -> Vec<(usize, usize)> {
    let mut spans = Vec::new();
    if s.len() < MIN_SECRET {
        // No token that short is a secret, and a key (three bytes at
        // least), a joint and a value (four at least) do not fit either.
        return spans;
    }
    let bytes = s.as_bytes();
    // The previous token and its letters, when it could be a
    // secret-named key: three bytes at least (the shortest word, `DSN`).
    let mut key: Option<(usize, usize, u32)> = None;
    // The current token starts at `a` (it is empty while `a` is the
    // position looked at); `acc` is the OR of its bytes' SCAN entries.
    let mut a = 0;
    let mut acc = 0u64;
    for (i, &c) in bytes.iter().enumerate() {
        let e = SCAN.get(usize::from(c)).copied().unwrap_or(NON_ASCII);
        if e & (u64::from(BREAK) | NON_ASCII) == 0 {
            acc |= e;
            continue;
        }
        if e & NON_ASCII != 0 {
            if i < a {
                // Inside a white-space character already passed.
                continue;
            }
            // A character's first byte decides: white space ends the
            // token; anything else is part of it (as its other bytes are).
            let space = (c >= 0xc0)
                .then(|| s.get(i..).and_then(|rest| rest.chars().next()))
                .flatten()
                .filter(|ch| ch.is_whitespace());
            match space {
                Some(ch) => {
                    if i > a {
                        end_token(s, (a, i), acc, &mut key, &mut spans);
                    }
                    a = i + ch.len_utf8();
                    acc = 0;
                }
                None => acc |= u64::from(K_OTHER) << 8 | 1 << (32 + 27),
            }
            continue;
        }
        if i > a {
            end_token(s, (a, i), acc, &mut key, &mut spans);
        }
        a = i + 1;
        acc = 0;
    }
    if bytes.len() > a {
        end_token(s, (a, bytes.len()), acc, &mut key, &mut spans);
    }
    crate::sort::sort(&mut spans);
    spans.dedup();
    spans
}

/// What [`secret_spans`] does at the end of each token `(a, b)` whose
/// SCAN entries OR to `acc`: the token itself, and the pair it ends when
/// `key`, the token before it, has the letters of some secret word.
// Inlined natively: a call per token was a fifth of the scan.
#[cfg_attr(not(target_arch = "wasm32"), inline(always))]
fn end_token(
    s: &str,
    (a, b): (usize, usize),
    acc: u64,
    key: &mut Option<(usize, usize, u32)>,
    spans: &mut Vec<(usize, usize)>,
) {
    let len = b - a;
    if len >= MIN_SECRET {
        let token = Token {
            a,
            b,
            kinds: (acc >> 8) as u16,
            pieces: acc & u64::from(PIECE) != 0,
        };
        check_token(s, token, spans);
    }
    if let Some((ka, kb, letters)) = *key {
        if len >= 4 && holds_a_word_set(letters) {
            check_pair(s, (ka, kb), (a, b), spans);
        }
    }
    *key = (len >= 3).then_some((a, b, (acc >> 32) as u32));
}

/// A whole token (of [`MIN_SECRET`] bytes at least) that looks like a
/// secret, or else its pieces that do.
fn check_token(s: &str, t: Token, spans: &mut Vec<(usize, usize)>) {
    let Token {
        a,
        b,
        kinds,
        pieces,
    } = t;
    let tok = s.get(a..b).unwrap_or("");
    if secret_shaped(tok, kinds) {
        spans.push((a, b));
        return;
    }
    if !pieces {
        // No `/`, `:` or `@`: no pieces.
        return;
    }
    let bytes = tok.as_bytes();
    let mut piece_start = 0;
    let mut piece_kinds = 0u16;
    for (i, &c) in bytes.iter().enumerate() {
        if class(c) & PIECE != 0 {
            if i - piece_start >= MIN_SECRET
                && !is_digest(s, a + piece_start, a + i)
                && secret_shaped(tok.get(piece_start..i).unwrap_or(""), piece_kinds)
            {
                spans.push((a + piece_start, a + i));
            }
            piece_start = i + 1;
            piece_kinds = 0;
        } else {
            piece_kinds |= kind(c);
        }
    }
    if piece_start > 0
        && bytes.len() - piece_start >= MIN_SECRET
        && !is_digest(s, a + piece_start, b)
        && secret_shaped(tok.get(piece_start..).unwrap_or(""), piece_kinds)
    {
        spans.push((a + piece_start, b));
    }
}

/// Whether `s[a..b]` is the hex of a `sha256:` content digest (an image
/// reference's `@sha256:…`): public, and not a credential however random
/// it looks. [`looks_like_secret`] spares whole digests the same way.
fn is_digest(s: &str, a: usize, b: usize) -> bool {
    let bytes = s.as_bytes();
    b - a == 64
        && a >= 7
        && bytes.get(a - 7..a) == Some(b"sha256:".as_slice())
        && bytes
            .get(a..b)
            .is_some_and(|d| d.iter().all(u8::is_ascii_hexdigit))
}

/// The value token after a secret-named key token, when only `=`, `:`,
/// spaces or quotes join them. The caller has ruled out values shorter than
/// four bytes and keys lacking the letters of every secret word (the key's
/// letters include those of its trimmed form below).
fn check_pair(
    s: &str,
    key: (usize, usize),
    value: (usize, usize),
    spans: &mut Vec<(usize, usize)>,
) {
    let ((a0, b0), (a1, b1)) = (key, value);
    let between = s.as_bytes().get(b0..a1).unwrap_or_default();
    let joined = !between.is_empty()
        && between
            .iter()
            .all(|c| matches!(c, b'=' | b':' | b' ' | b'"' | b'\''));
    if !joined {
        return;
    }
    let key = s.as_bytes().get(a0..b0).unwrap_or_default();
    let keyed = key.last() == Some(&b':') || between.iter().any(|c| matches!(c, b'=' | b':'));
    if !keyed && key.contains(&b'/') {
        // A path and the next word of a sentence ("open /run/secrets
        // without following links"), not a key and its value: only `=` or
        // `:` joins a path-like key to one (`?token=…`, `…/password: …`).
        return;
    }
    let value = s.as_bytes().get(a1..b1).unwrap_or_default();
    if matches!(value.first(), Some(b'-' | b'$' | b'/')) {
        return;
    }
    let dashes = key.iter().take_while(|&&c| c == b'-').count();
    let colons = key.iter().rev().take_while(|&&c| c == b':').count();
    // Both trims stop at ASCII bytes, so the rest is still a `str`.
    let key_like = s
        .get(a0 + dashes..b0.saturating_sub(colons).max(a0 + dashes))
        .unwrap_or("");
    if is_secret_name(key_like) && !spans.iter().any(|&(x, y)| x <= a1 && b1 <= y) {
        spans.push((a1, b1));
    }
}

/// Mask credential-looking tokens in free text, for text that did not come
/// from a collected document.
pub fn scrub_tokens(s: &str) -> String {
    scrub_tokens_cow(s).into_owned()
}

/// [`scrub_tokens`] without a copy when nothing needs masking.
pub fn scrub_tokens_cow(s: &str) -> Cow<'_, str> {
    #[cfg(not(target_arch = "wasm32"))]
    let Some(pending) = clean::lookup(s) else {
        return Cow::Borrowed(s);
    };
    let spans = secret_spans(s);
    if spans.is_empty() {
        #[cfg(not(target_arch = "wasm32"))]
        clean::learn(s, pending);
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len());
    let mut last = 0;
    for (a, b) in spans {
        out.push_str(s.get(last..a).unwrap_or(""));
        out.push_str(MASK);
        last = b;
    }
    out.push_str(s.get(last..).unwrap_or(""));
    Cow::Owned(out)
}

/// Strings already scanned and found clean, so that the texts every
/// report repeats (a check's reason, a catalog label's path, a rule's
/// fixed sentence: half the bytes scrubbed in a batch) are scanned once
/// per thread rather than once per report. [`secret_spans`] depends on the
/// string alone, so its answer can be remembered; the collected secrets of
/// a document are still looked for in every string, by
/// [`Secrets::scrub_cow`], before this.
///
/// A direct-mapped table: a slot holds the hash of the last string that
/// fell into it, and the string itself once it was seen twice (a string
/// seen once, like a mount's own path, costs no allocation). A hit
/// compares the whole string, so a collision only costs a scan. Not in
/// the page, where one person's profile repeats nothing and every byte of
/// code counts.
#[cfg(not(target_arch = "wasm32"))]
mod clean {
    use std::cell::RefCell;

    /// Slots per thread at first (a power of two): one profile's audit
    /// touches no more memory than this.
    const SLOTS: usize = 1024;
    /// Slots once a thread has looked up [`GROW_AFTER`] strings and found
    /// at least one in [`GROW_HIT_SHARE`] of them: a thread auditing many
    /// profiles meets their shared texts again and again (a catalog's
    /// checks, each mount index's sentences), and 1,024 slots forgot most
    /// of them between two profiles (batch of 500 profiles: 410 -> 397 M
    /// instructions with the larger table). A single large profile, whose
    /// texts are unique, finds too few again to grow it.
    const MANY_SLOTS: usize = 16 * 1024;
    const GROW_AFTER: u32 = 4096;
    const GROW_HIT_SHARE: u32 = 8;
    /// Shorter strings are scanned faster than they are looked up (the
    /// scan skips them outright below 8 bytes); longer ones are rarely
    /// repeated and would hold memory.
    const SHORTEST: usize = 16;
    const LONGEST: usize = 512;

    struct Slot {
        hash: u64,
        text: Option<Box<str>>,
    }

    /// One thread's slots, and how often it looked and found.
    struct Table {
        slots: Vec<Slot>,
        lookups: u32,
        hits: u32,
    }

    thread_local! {
        static TABLE: RefCell<Table> = const {
            RefCell::new(Table {
                slots: Vec::new(),
                lookups: 0,
                hits: 0,
            })
        };
    }

    /// FxHash over eight bytes at a time (the length is mixed in first).
    fn hash(s: &str) -> u64 {
        const K: u64 = 0x51_7c_c1_b7_27_22_0a_95;
        let step = |h: u64, w: u64| (h.rotate_left(5) ^ w).wrapping_mul(K);
        let bytes = s.as_bytes();
        let mut h = step(0, bytes.len() as u64);
        let mut words = bytes.chunks_exact(8);
        for w in words.by_ref() {
            let mut a = [0u8; 8];
            a.copy_from_slice(w);
            h = step(h, u64::from_le_bytes(a));
        }
        let mut a = [0u8; 8];
        let rest = words.remainder();
        if let Some(dst) = a.get_mut(..rest.len()) {
            dst.copy_from_slice(rest);
        }
        step(h, u64::from_le_bytes(a))
    }

    /// Where hash `h` lives in a table of `len` slots (a power of two).
    fn slot(h: u64, len: usize) -> usize {
        (h >> 32) as usize & len.wrapping_sub(1)
    }

    fn empty_slots(len: usize) -> Vec<Slot> {
        let mut slots = Vec::new();
        slots.resize_with(len, || Slot {
            hash: 0,
            text: None,
        });
        slots
    }

    fn worth(s: &str) -> bool {
        (SHORTEST..=LONGEST).contains(&s.len())
    }

    /// What [`learn`] needs to remember a string [`lookup`] did not know:
    /// its hash, when it is worth remembering (hashed once for both).
    pub(super) struct Pending(Option<u64>);

    /// `None` when `s` was scanned before on this thread and found clean.
    pub(super) fn lookup(s: &str) -> Option<Pending> {
        if !worth(s) {
            return Some(Pending(None));
        }
        let h = hash(s);
        let known = TABLE.with(|t| {
            let Ok(mut t) = t.try_borrow_mut() else {
                return false;
            };
            let known = t
                .slots
                .get(slot(h, t.slots.len()))
                .is_some_and(|e| e.hash == h && e.text.as_deref() == Some(s));
            t.lookups = t.lookups.saturating_add(1);
            t.hits += u32::from(known);
            known
        });
        (!known).then_some(Pending(Some(h)))
    }

    /// Whether `s` was scanned before on this thread and found clean.
    #[cfg(test)]
    pub(super) fn known(s: &str) -> bool {
        lookup(s).is_none()
    }

    /// This thread's table size.
    #[cfg(test)]
    pub(super) fn slots() -> usize {
        TABLE.with(|t| t.borrow().slots.len())
    }

    /// `s`, which [`lookup`] did not know, was just scanned and found
    /// clean.
    pub(super) fn learn(s: &str, pending: Pending) {
        let Pending(Some(h)) = pending else {
            return;
        };
        TABLE.with(|t| {
            let Ok(mut t) = t.try_borrow_mut() else {
                return;
            };
            if t.slots.is_empty() {
                t.slots = empty_slots(SLOTS);
            } else if t.slots.len() < MANY_SLOTS
                && t.lookups >= GROW_AFTER
                && t.hits.saturating_mul(GROW_HIT_SHARE) >= t.lookups
            {
                // What the small table holds moves over.
                let old = std::mem::replace(&mut t.slots, empty_slots(MANY_SLOTS));
                for e in old.into_iter().filter(|e| e.hash != 0 || e.text.is_some()) {
                    let at = slot(e.hash, MANY_SLOTS);
                    if let Some(new) = t.slots.get_mut(at) {
                        *new = e;
                    }
                }
            }
            let at = slot(h, t.slots.len());
            if let Some(e) = t.slots.get_mut(at) {
                if e.hash == h {
                    // Seen twice: worth keeping.
                    if e.text.is_none() {
                        e.text = Some(s.into());
                    }
                } else {
                    *e = Slot {
                        hash: h,
                        text: None,
                    };
                }
            }
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::{parse, Limits};
    use proptest::prelude::*;

    /// The detector before its byte-level rewrite; the oracle of
    /// `fast_detector_equals_the_reference`.
    /// Whether a value itself looks like a credential, whatever its name.
    fn looks_like_secret_reference(v: &str) -> bool {
        let v = v.trim();
        if v.len() < 8 {
            return false;
        }
        // The vendor list is data, not the algorithm under test: the
        // module's own.
        if PREFIXES
            .iter()
            .any(|p| v.starts_with(p) && v.len() >= p.len() + 8)
        {
            return true;
        }
        if v.starts_with("sk-") && v.len() >= 20 {
            return true;
        }
        if (v.starts_with("AKIA") || v.starts_with("ASIA"))
            && v.len() >= 16
            && v.chars()
                .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit())
        {
            return true;
        }
        if v.contains("-----BEGIN") && v.contains("PRIVATE KEY") {
            return true;
        }
        if v.starts_with("eyJ") && v.matches('.').count() == 2 {
            return true;
        }
        if has_url_password_reference(v) {
            return true;
        }
        high_entropy_token_reference(v)
    }

    /// `scheme://user:password@host`.
    fn has_url_password_reference(v: &str) -> bool {
        let Some(i) = v.find("://") else { return false };
        let rest = &v[i + 3..];
        let auth_end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
        let auth = &rest[..auth_end];
        match auth.rfind('@') {
            Some(at) => auth[..at].contains(':') && at > auth[..at].find(':').unwrap_or(0) + 1,
            None => false,
        }
    }

    /// A long run of mixed letters and digits with no spaces: 40-character
    /// AWS secret keys, hex API keys and the like. Paths and words are spared.
    fn high_entropy_token_reference(v: &str) -> bool {
        if v.len() < 24 || v.contains(' ') || v.starts_with('/') || v.contains("://") {
            return false;
        }
        if v.starts_with("sha256:") || v.contains("@sha256:") {
            return false;
        }
        let ok = v
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "+/=_-".contains(c));
        if !ok {
            return false;
        }
        let upper = v.chars().filter(char::is_ascii_uppercase).count();
        let lower = v.chars().filter(char::is_ascii_lowercase).count();
        let digit = v.chars().filter(char::is_ascii_digit).count();
        let classes = usize::from(upper > 0) + usize::from(lower > 0) + usize::from(digit > 0);
        let hex = v.len() >= 32 && v.chars().all(|c| c.is_ascii_hexdigit());
        (classes == 3 && digit >= 1 && upper >= 2 && lower >= 2) || hex
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(5000))]
        #[test]
        fn fast_detector_equals_the_reference(
            parts in proptest::collection::vec(prop_oneof![
                proptest::sample::select(PREFIXES.to_vec()).prop_map(str::to_string),
                Just("sk-".to_string()), Just("AKIA".to_string()), Just("eyJ".to_string()),
                Just("://".to_string()), Just("@".to_string()), Just(":".to_string()), Just("/".to_string()),
                Just("-----BEGIN".to_string()), Just("PRIVATE KEY".to_string()), Just("sha256:".to_string()),
                Just(".".to_string()), Just(" ".to_string()), Just("\u{a0}".to_string()), Just("é".to_string()),
                "[A-Z0-9]{0,12}", "[a-f0-9]{0,34}", "[a-z]{6,40}", "[a-f]{28,40}", "[A-Za-z0-9+/=_-]{0,30}", "[ -~]{0,10}", "\\PC{0,4}",
            ], 0..8)
        ) {
            let s: String = parts.concat();
            prop_assert_eq!(looks_like_secret(&s), looks_like_secret_reference(&s), "{:?}", s);
        }
    }

    /// The straightforward char-by-char scan the fast one replaced; kept as
    /// the oracle the property below compares against.
    ///
    /// Byte ranges of credential-looking tokens in `s`: whole tokens between
    /// separators, or, inside a token that is not a secret as a whole (a path,
    /// a URL), its `/`, `:` and `@`-separated pieces.
    fn secret_spans_reference(s: &str) -> Vec<(usize, usize)> {
        let mut spans = Vec::new();
        let mut start = None;
        let check = |a: usize, b: usize, spans: &mut Vec<(usize, usize)>| {
            let tok = s.get(a..b).unwrap_or("");
            if looks_like_secret(tok) {
                spans.push((a, b));
                return;
            }
            let mut piece_start = a;
            for (i, c) in tok.char_indices() {
                if matches!(c, '/' | ':' | '@') {
                    if !is_digest(s, piece_start, a + i)
                        && looks_like_secret(s.get(piece_start..a + i).unwrap_or(""))
                    {
                        spans.push((piece_start, a + i));
                    }
                    piece_start = a + i + c.len_utf8();
                }
            }
            if piece_start > a
                && !is_digest(s, piece_start, b)
                && looks_like_secret(s.get(piece_start..b).unwrap_or(""))
            {
                spans.push((piece_start, b));
            }
        };
        // Tokens with their spans, to also catch the value that follows a
        // secret-named flag or key: `--password=hunter2`, `TOKEN: abc`.
        let mut tokens: Vec<(usize, usize)> = Vec::new();
        for (i, c) in s.char_indices() {
            if c.is_whitespace() || SEPARATORS.contains(c) {
                if let Some(a) = start.take() {
                    tokens.push((a, i));
                }
            } else if start.is_none() {
                start = Some(i);
            }
        }
        if let Some(a) = start {
            tokens.push((a, s.len()));
        }
        for &(a, b) in &tokens {
            check(a, b, &mut spans);
        }
        for pair in tokens.windows(2) {
            let &[(a0, b0), (a1, b1)] = pair else {
                continue;
            };
            let key = s.get(a0..b0).unwrap_or("");
            let between = s.get(b0..a1).unwrap_or("");
            let value = s.get(a1..b1).unwrap_or("");
            let key_like = key.trim_start_matches('-').trim_end_matches(':');
            let joined = between
                .chars()
                .all(|c| c == '=' || c == ':' || c == ' ' || c == '"' || c == '\'');
            let path_in_prose =
                key.contains('/') && !key.ends_with(':') && !between.contains(['=', ':']);
            if joined
                && !path_in_prose
                && !between.is_empty()
                && value.len() >= 4
                && !value.starts_with('-')
                && !value.starts_with('$')
                && !value.starts_with('/')
                && is_secret_name(key_like)
                && !spans.iter().any(|&(x, y)| x <= a1 && b1 <= y)
            {
                spans.push((a1, b1));
            }
        }
        spans.sort_unstable();
        spans.dedup();
        spans
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(3000))]
        #[test]
        fn fast_spans_equal_the_reference(
            parts in proptest::collection::vec(prop_oneof![
                Just("TOKEN".to_string()), Just("--password".to_string()), Just("=".to_string()),
                Just(": ".to_string()), Just(" ".to_string()), Just("/".to_string()), Just("@".to_string()),
                Just("ghp_abcdefghijklmnop0123".to_string()), Just("AKIAIOSFODNN7EXAMPLE".to_string()),
                Just("wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY".to_string()), Just("https://u:pw@h/x".to_string()),
                Just("\u{a0}".to_string()), Just("\u{2003}".to_string()), Just("é".to_string()), Just("\"".to_string()),
                Just("\t".to_string()), Just("\u{b}".to_string()), Just("\u{85}".to_string()), Just("\u{1c}".to_string()),
                Just("$X".to_string()), Just("-".to_string()), Just("@sha256:".to_string()),
                Just("0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef".to_string()), Just("hunter22".to_string()), "[a-z]{6,40}", "[a-f]{30,34}", "[ -~]{0,12}", "\\PC{0,6}",
            ], 0..24)
        ) {
            let s: String = parts.concat();
            prop_assert_eq!(secret_spans(&s), secret_spans_reference(&s), "{:?}", s);
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(500))]
        /// Remembered answers are the scan's answers: strings scrubbed
        /// three times in a row on one thread (the first scan, the
        /// second that stores a clean string, the third that finds it)
        /// come out as a fresh scan says, secret or not, among others
        /// that share the table.
        #[test]
        fn remembered_strings_scrub_like_a_fresh_scan(
            texts in proptest::collection::vec(prop_oneof![
                "[a-z ]{10,40}", "[A-Za-z0-9/ ]{14,30}",
                Just("the job must not read /home/botie/.aws".to_string()),
                Just("key AKIAIOSFODNN7EXAMPLE end".to_string()),
                Just("token: ghp_abcdefghijklmnop0123 here".to_string()),
            ], 1..12)
        ) {
            for _ in 0..3 {
                for t in &texts {
                    let fresh = secret_spans(t).is_empty();
                    prop_assert_eq!(matches!(scrub_tokens_cow(t), Cow::Borrowed(_)), fresh, "{:?}", t);
                    #[cfg(not(target_arch = "wasm32"))]
                    prop_assert!(fresh || !clean::known(t), "a secret was remembered as clean: {:?}", t);
                }
            }
        }
    }

    /// The plain reading of the secret-name rule, for the property below.
    fn is_secret_name_reference(name: &str) -> bool {
        let n = name.to_ascii_uppercase().replace('-', "_");
        let any = STRONG_SECRET_WORDS
            .iter()
            .chain(WEAK_SECRET_WORDS.iter())
            .any(|w| n.contains(w));
        any && n != "SSH_AUTH_SOCK" && !n.ends_with("_FILE") && !n.ends_with("_PATH")
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(3000))]
        #[test]
        fn secret_names_match_the_reference(
            parts in proptest::collection::vec(prop_oneof![
                Just("token".to_string()), Just("Pass".to_string()), Just("word".to_string()),
                Just("-".to_string()), Just("_".to_string()), Just("dsn".to_string()), Just("_file".to_string()),
                Just("SSH_AUTH_SOCK".to_string()), Just("é".to_string()), Just("api".to_string()), Just("key".to_string()),
                "[A-Za-z_-]{0,6}", "\\PC{0,3}",
            ], 0..6)
        ) {
            let s: String = parts.concat();
            prop_assert_eq!(is_secret_name(&s), is_secret_name_reference(&s), "{:?}", s);
        }
    }

    #[test]
    fn detectors() {
        assert!(looks_like_secret("AKIAIOSFODNN7EXAMPLE"));
        assert!(looks_like_secret(
            "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"
        ));
        assert!(looks_like_secret(
            "ghp_abcdefghijklmnopqrstuvwxyz0123456789"
        ));
        assert!(looks_like_secret("postgres://app:hunter2@db.internal/app"));
        assert!(!looks_like_secret("/srv/workshop/scratch/job-17"));
        assert!(!looks_like_secret("C.UTF-8"));
        assert!(!looks_like_secret(
            "registry.example/runner@sha256:0123456789abcdef0123456789abcdef"
        ));
        assert!(is_secret_name("AWS_SECRET_ACCESS_KEY"));
        assert!(is_secret_name("github-token"));
        assert!(!is_secret_name("LANG"));
        assert!(!is_secret_name("SSH_AUTH_SOCK"));
    }

    #[test]
    fn a_path_ending_in_a_secret_word_does_not_mask_the_next_word_of_a_sentence() {
        // A mount source such as /run/secrets is quoted in runtime-check
        // reasons; the word after it is prose, not the path's value.
        let reason = "the runtime must open /run/secrets without following links";
        assert_eq!(scrub_tokens(reason), reason);
        let reason = "open /srv/workshop/scratch/token without racing a rename";
        assert_eq!(scrub_tokens(reason), reason);
        // A key and its value are still masked, however they are joined.
        for (text, value) in [
            (
                "fetch https://mirror.example/pkg?token=abcdef12 first",
                "abcdef12",
            ),
            ("fetch /pkg/index:token=abcdef12", "abcdef12"),
            ("export TOKEN abcdef12 now", "abcdef12"),
            ("run --password hunter22", "hunter22"),
            ("/run/secrets/db_password: hunter22", "hunter22"),
        ] {
            let shown = scrub_tokens(text);
            assert!(!shown.contains(value), "{text} -> {shown}");
            assert!(shown.contains(MASK), "{text} -> {shown}");
        }
    }

    #[test]
    fn image_digests_are_not_secrets_but_hex_keys_elsewhere_are() {
        let digest = "4f9c2a1b0d3e5f6a7b8c9d0e1f2a3b4c5d6e7f8a9b0c1d2e3f4a5b6c7d8e9f0a";
        let image = format!("registry.example/runner@sha256:{digest}");
        let doc = parse(
            format!(r#"{{"dependencies":{{"image":"{image}"}}}}"#).as_bytes(),
            Limits::default(),
        )
        .unwrap();
        let s = Secrets::collect(&doc.root);
        assert!(s.is_empty(), "{s:?}");
        assert_eq!(s.scrub(&format!("image {image}")), format!("image {image}"));
        // The same hex anywhere but after `sha256:` is still masked.
        assert_eq!(scrub_tokens(&format!("key/{digest}")), "key/[redacted]");
        assert_eq!(scrub_tokens(&format!("md5:{digest}")), "md5:[redacted]");
    }

    #[test]
    fn collected_and_scrubbed() {
        let doc = parse(br#"{"environment":{"variables":{"DB_PASSWORD":"hunter2!","LANG":"C"}},"command":{"shell":"curl -H token=ghp_abcdefghijklmnopqrstuvwxyz0123 x"}}"#, Limits::default()).unwrap();
        let s = Secrets::collect(&doc.root);
        assert_eq!(s.scrub("value hunter2! here"), "value [redacted] here");
        let masked = s.mask_source("\"hunter2!\" ghp_abcdefghijklmnopqrstuvwxyz0123");
        assert!(!masked.contains("hunter2") && !masked.contains("ghp_"));
        assert_eq!(
            masked.len(),
            "\"hunter2!\" ghp_abcdefghijklmnopqrstuvwxyz0123".len()
        );
        assert_eq!(
            scrub_tokens("key AKIAIOSFODNN7EXAMPLE end"),
            "key [redacted] end"
        );
        let shown = format!("{s:?}");
        // Neither as text nor as the numbers `{:?}` prints for bytes.
        let numbers = format!("{:?}", b"hunter2!");
        let numbers = numbers.trim_start_matches('[').trim_end_matches(']');
        assert!(
            !shown.contains("hunter2") && !shown.contains(numbers),
            "{shown}"
        );
        assert!(shown.contains("values"), "{shown}");
    }

    #[cfg(not(target_arch = "wasm32"))]
    #[test]
    fn the_clean_table_grows_for_repeated_texts_and_keeps_what_it_knew() {
        // A fresh thread, so the table starts empty.
        std::thread::spawn(|| {
            let texts: Vec<String> = (0..200)
                .map(|i| {
                    format!("/mounts/{i} is not scratch or output; writing under it must fail")
                })
                .collect();
            // One audit's worth of texts: the small table is enough.
            for t in &texts {
                assert_eq!(scrub_tokens_cow(t), t.as_str());
            }
            assert_eq!(clean::slots(), 1024);
            // A batch's worth, each text met again and again: it grows.
            for _ in 0..30 {
                for t in &texts {
                    assert_eq!(scrub_tokens_cow(t), t.as_str());
                }
            }
            assert_eq!(clean::slots(), 16 * 1024);
            // Direct-mapped: two texts may share a slot, rarely.
            assert!(texts.iter().filter(|t| clean::known(t)).count() >= 195);
            // A secret is still found after the growth.
            let leaked = "token ghp_abcdefghijklmnopqrstuvwxyz0123456789 leaked";
            assert!(scrub_tokens_cow(leaked).contains(MASK));
        })
        .join()
        .unwrap();
    }

    #[test]
    fn overlapping_short_and_many_secrets_are_all_masked() {
        let doc = parse(
            r#"{"environment":{"variables":{"A_TOKEN":"abc","B_TOKEN":"bcdef","C_TOKEN":"xy","D_TOKEN":"été-secret"}}}"#.as_bytes(),
            Limits::default(),
        )
        .unwrap();
        let s = Secrets::collect(&doc.root);
        // "abc" and "bcdef" overlap: neither leaves a piece behind.
        assert_eq!(s.scrub("<abcdef>"), "<[redacted]>");
        assert_eq!(s.scrub("a xy b"), "a [redacted] b");
        assert_eq!(s.scrub("été-secret!"), "[redacted]!");
        assert_eq!(s.mask_source("«abcdef» été-secret"), "«******» **********");
        assert!(s.contains("bcdef") && !s.contains("bcde"));

        // Thousands of distinct secrets sharing a prefix: one pass each.
        let vars: Vec<String> = (0..5000)
            .map(|i| format!("\"T{i}_TOKEN\":\"ghp_{i:036}\""))
            .collect();
        let text = format!(
            r#"{{"environment":{{"variables":{{{}}}}}}}"#,
            vars.join(",")
        );
        let doc = parse(text.as_bytes(), Limits::default()).unwrap();
        let s = Secrets::collect(&doc.root);
        let masked = s.mask_source(&text);
        assert!(!masked.contains("ghp_"), "every value masked");
        assert_eq!(masked.chars().count(), text.chars().count());
    }
}
