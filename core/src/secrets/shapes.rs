//! What a value looks like: vendor prefixes, private keys, passwords in
//! URLs, webhook addresses and long random tokens; and references
//! (`$NAME`), which name a secret without holding it.

use super::MASK;

/// Vendor prefixes of credential formats; the value must go on for at
/// least eight more bytes.
pub(super) const PREFIXES: &[&str] = &[
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
pub(super) fn has(hay: &[u8], needle: &[u8]) -> bool {
    needle.len() <= hay.len() && hay.windows(needle.len()).any(|w| w == needle)
}

/// Byte kinds for [`looks_like_secret`]'s one pass: a token's kinds are
/// OR-ed together, and most tokens are ruled out by their kinds alone.
pub(super) const K_HEX_LOWER: u16 = 1; // a-f
pub(super) const K_LOWER: u16 = 1 << 1; // g-z
pub(super) const K_HEX_UPPER: u16 = 1 << 2; // A-F
pub(super) const K_UPPER: u16 = 1 << 3; // G-Z
pub(super) const K_DIGIT: u16 = 1 << 4;
pub(super) const K_SYMBOL: u16 = 1 << 5; // + / = _ -
pub(super) const K_SPACE: u16 = 1 << 6; // ' ' only
pub(super) const K_COLON: u16 = 1 << 7;
pub(super) const K_AT: u16 = 1 << 8;
pub(super) const K_OTHER: u16 = 1 << 9;
pub(super) const K_ANY_LOWER: u16 = K_HEX_LOWER | K_LOWER;
pub(super) const K_ANY_UPPER: u16 = K_HEX_UPPER | K_UPPER;
pub(super) const K_HEX: u16 = K_HEX_LOWER | K_HEX_UPPER | K_DIGIT;
pub(super) const K_TOKEN: u16 = K_ANY_LOWER | K_ANY_UPPER | K_DIGIT | K_SYMBOL;
// Evaluated at compile time: an index out of range fails the build.
#[allow(clippy::indexing_slicing)]
pub(super) const KIND: [u16; 256] = {
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
pub(super) const PREFIX_FIRST: [u32; 128] = {
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
pub(super) const PREFIXES_LEAVE_LOWER_CASE: () = {
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
pub(super) fn vendor_prefixed(b: &[u8], first: u8) -> bool {
    #[allow(clippy::let_unit_value)]
    let () = PREFIXES_LEAVE_LOWER_CASE;
    let mut set = PREFIX_FIRST.get(usize::from(first)).copied().unwrap_or(0);
    while set != 0 {
        let i = set.trailing_zeros() as usize;
        set &= set - 1;
        if let Some(p) = PREFIXES.get(i) {
            // Eight token bytes after the prefix: a sentence that starts
            // with one (`ghp_ starts a token`) is not a token.
            let body = b.get(p.len()..p.len() + 8).unwrap_or_default();
            if body.len() == 8
                && b.starts_with(p.as_bytes())
                && body.iter().all(|&c| kind(c) & !K_TOKEN == 0 || c == b'.')
                && !reads_as_words(b.get(p.len()..).unwrap_or_default())
            {
                return true;
            }
        }
    }
    false
}

pub(super) fn kind(b: u8) -> u16 {
    KIND.get(usize::from(b)).copied().unwrap_or(K_OTHER)
}

/// Whether a value itself looks like a credential, whatever its name.
///
/// One pass collects the kinds of bytes the value holds; the costlier
/// checks (vendor prefixes, URL passwords, PEM markers, per-class counts)
/// run only when those kinds allow them to succeed.
pub fn looks_like_secret(v: &str) -> bool {
    let v = v.trim();
    if v == MASK {
        // What `isolint import` writes in place of a secret it withheld.
        return true;
    }
    let kinds = v.as_bytes().iter().fold(0u16, |acc, &c| acc | kind(c));
    secret_shaped(v, kinds)
}

/// [`looks_like_secret`] of a value without surrounding whitespace whose
/// byte kinds (the OR of [`kind`] over its bytes) are already known.
pub(super) fn secret_shaped(v: &str, kinds: u16) -> bool {
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
    if b.starts_with(b"sk-") && b.len() >= 20 && !reads_as_words(b.get(3..).unwrap_or_default()) {
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
    // A JSON Web Token: header, payload and signature; whatever a rule
    // glues after it (`.html`, `.example`) is masked with it.
    if b.starts_with(b"eyJ") && b.iter().filter(|&&c| c == b'.').count() >= 2 {
        return true;
    }
    if kinds & K_COLON != 0 && kinds & K_AT != 0 && has_url_password(v) {
        return true;
    }
    if kinds & K_OTHER != 0 && webhook_url(b) {
        return true;
    }
    high_entropy_token(b, kinds)
}

/// Webhook URLs whose path is the credential: whoever holds one posts as
/// its owner. The whole URL is the secret.
pub(super) const WEBHOOKS: &[&str] = &[
    "hooks.slack.com/services/",
    "hooks.slack.com/workflows/",
    "hooks.slack.com/triggers/",
    "discord.com/api/webhooks/",
    "discordapp.com/api/webhooks/",
];

/// Whether `b` holds a [`WEBHOOKS`] address with a path after it.
pub(super) fn webhook_url(b: &[u8]) -> bool {
    WEBHOOKS.iter().any(|w| {
        let w = w.as_bytes();
        b.windows(w.len())
            .position(|x| x.eq_ignore_ascii_case(w))
            .is_some_and(|i| b.len() >= i + w.len() + 8)
    })
}

/// The passwords of every `scheme://user:password@host` in `s`.
pub(super) fn url_passwords(s: &str) -> impl Iterator<Item = &str> {
    s.match_indices("://").filter_map(move |(i, _)| {
        let rest = s.get(i + 3..)?;
        let auth = rest.split(['/', '?', '#', ' ', '"', '\'']).next()?;
        let (user, _) = auth.rsplit_once('@')?;
        let (_, pw) = user.split_once(':')?;
        (!pw.is_empty() && !is_reference(pw)).then_some(pw)
    })
}

/// `scheme://user:password@host`.
pub(super) fn has_url_password(v: &str) -> bool {
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

/// `8-4-4-4-12` hex digits: an identifier, whatever its case.
pub(super) fn is_uuid(b: &[u8]) -> bool {
    b.len() == 36
        && b.iter().enumerate().all(|(i, c)| {
            if matches!(i, 8 | 13 | 18 | 23) {
                *c == b'-'
            } else {
                c.is_ascii_hexdigit()
            }
        })
}

/// A long run of mixed letters and digits with no spaces: 40-character
/// AWS secret keys, hex API keys and the like. Paths and words are spared.
/// `kinds` are the value's byte kinds: only letters, digits and `+/=_-`
/// qualify, so a `://`, a space or an `@sha256:` digest never does.
pub(super) fn high_entropy_token(b: &[u8], kinds: u16) -> bool {
    if b.len() < 24 || b.first() == Some(&b'/') || kinds & !K_TOKEN != 0 {
        return false;
    }
    if b.len() >= 32 && kinds & !K_HEX == 0 {
        // A content digest (SHA-1, SHA-256, SHA-512) or a container id is
        // an identifier; other lengths of hex are API keys.
        return !matches!(b.len(), 40 | 64 | 128);
    }
    if is_uuid(b) {
        return false;
    }
    if kinds & K_ANY_UPPER == 0 || kinds & K_ANY_LOWER == 0 || kinds & K_DIGIT == 0 {
        return false;
    }
    let upper = b.iter().filter(|c| c.is_ascii_uppercase()).count();
    let lower = b.iter().filter(|c| c.is_ascii_lowercase()).count();
    upper >= 2 && lower >= 2 && !reads_as_words(b)
}

/// Whether text that could be a token reads as the words of a name
/// (`config_https_proxy` after `npm_`, `myS3BucketNameForBackups`): a
/// name is no credential, whatever prefix it starts with. Words are split
/// at `_`, `-`, `.` and where case changes, as names are read; a name has
/// two words at least, none of one character or longer than sixteen,
/// three on average, and at most two digits. Random text has more digits,
/// lone capitals or long runs.
pub(super) fn reads_as_words(b: &[u8]) -> bool {
    let digits = b.iter().filter(|c| c.is_ascii_digit()).count();
    if digits > 2
        || !b
            .iter()
            .all(|&c| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'-' | b'.'))
    {
        return false;
    }
    let (mut words, mut chars, mut len) = (0usize, 0usize, 0usize);
    let mut end_word = |len: &mut usize| {
        if *len > 0 {
            words += 1;
            chars += *len;
        }
        let was = std::mem::replace(len, 0);
        was != 1 && was <= 16
    };
    for (i, &c) in b.iter().enumerate() {
        let prev = i.checked_sub(1).and_then(|k| b.get(k)).copied();
        let next = b.get(i + 1).copied();
        let split = !c.is_ascii_alphanumeric()
            || (c.is_ascii_uppercase()
                && prev.is_some_and(|p| p.is_ascii_lowercase() || p.is_ascii_digit()))
            || (c.is_ascii_uppercase()
                && prev.is_some_and(|p| p.is_ascii_uppercase())
                && next.is_some_and(|n| n.is_ascii_lowercase()));
        if split && !end_word(&mut len) {
            return false;
        }
        if c.is_ascii_alphanumeric() {
            len += 1;
        }
    }
    if !end_word(&mut len) {
        return false;
    }
    words >= 2 && chars >= 3 * words
}

/// `${VAR}` or `$VAR` references name a secret without holding it.
pub fn is_reference(s: &str) -> bool {
    let s = s.trim();
    // `${NAME}`, `$NAME`, and `$(NAME)`: Kubernetes' dependent variables
    // and several config files' own expansion (RabbitMQ's `$(NAME)`) name
    // a variable the same way; none writes a value.
    let inner = s
        .strip_prefix("${")
        .and_then(|r| r.strip_suffix('}'))
        .or_else(|| s.strip_prefix("$(").and_then(|r| r.strip_suffix(')')))
        .or_else(|| s.strip_prefix('$'));
    inner.is_some_and(|i| !i.is_empty() && i.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'))
}

/// The literal pieces of a value that a shell or a launcher expands: the
/// text outside `$(…)`, backquotes, `${…}`, `$NAME` and `%NAME%`, and the
/// word a `${X:-word}`, `${X-word}`, `${X:=word}` or `${X:+word}` may give,
/// as a piece of its own. `None` when the value expands nothing.
pub fn literal_pieces(v: &str) -> Option<Vec<String>> {
    let b = v.as_bytes();
    let mut pieces = vec![String::new()];
    let mut expands = false;
    let mut i = 0;
    let name = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    while let Some(&c) = b.get(i) {
        let next = b.get(i + 1).copied();
        let skip = match (c, next) {
            (b'$', Some(b'(')) => closing(b, i + 1, b'(', b')'),
            (b'`', _) => b
                .get(i + 1..)
                .and_then(|r| r.iter().position(|&x| x == b'`'))
                .map_or(b.len(), |k| i + 1 + k + 1),
            (b'$', Some(b'{')) => {
                let end = closing(b, i + 1, b'{', b'}');
                let inner = v.get(i + 2..end.saturating_sub(1)).unwrap_or("");
                let from = inner.bytes().take_while(|&x| name(x)).count();
                let op = inner.get(from..).unwrap_or("");
                let word = ["-", ":-", "=", ":=", "+", ":+"]
                    .iter()
                    .rev()
                    .find_map(|o| op.strip_prefix(o));
                if let Some(word) = word {
                    match literal_pieces(word) {
                        Some(inner) => pieces.extend(inner),
                        None => pieces.push(word.to_string()),
                    }
                }
                pieces.push(String::new());
                end
            }
            (b'$', Some(n)) if name(n) || b"@*#?$!".contains(&n) => {
                let run = b
                    .get(i + 2..)
                    .map_or(0, |r| r.iter().take_while(|&&x| name(x)).count());
                i + 2
                    + if n.is_ascii_digit() || !name(n) {
                        0
                    } else {
                        run
                    }
            }
            (b'%', Some(n)) if name(n) => {
                let run = b
                    .get(i + 1..)
                    .map_or(0, |r| r.iter().take_while(|&&x| name(x)).count());
                if b.get(i + 1 + run) == Some(&b'%') {
                    i + run + 2
                } else {
                    i
                }
            }
            _ => i,
        };
        if skip > i {
            expands = true;
            if pieces.last().is_some_and(|p| !p.is_empty()) {
                pieces.push(String::new());
            }
            i = skip;
            continue;
        }
        let len = v
            .get(i..)
            .and_then(|r| r.chars().next())
            .map_or(1, char::len_utf8);
        if let (Some(p), Some(ch)) = (pieces.last_mut(), v.get(i..i + len)) {
            p.push_str(ch);
        }
        i += len;
    }
    pieces.retain(|p| !p.is_empty());
    expands.then_some(pieces)
}

/// Where the bracket opened at `open` closes, just past it (the end of
/// `b` when it does not).
fn closing(b: &[u8], open: usize, up: u8, down: u8) -> usize {
    let mut depth = 0usize;
    for (k, &c) in b.iter().enumerate().skip(open) {
        if c == up {
            depth += 1;
        } else if c == down {
            depth = depth.saturating_sub(1);
            if depth == 0 {
                return k + 1;
            }
        }
    }
    b.len()
}

/// Whether a value is written out, at least in part: not empty, and not
/// filled in when it is used (a reference, a command's output), unless a
/// literal piece of three letters or digits stands beside the expansion
/// (`hunter2${SUFFIX}`). A value read at run time from a file or the
/// environment is not a written secret.
pub fn is_written(v: &str) -> bool {
    let v = v.trim();
    match literal_pieces(v) {
        None => !v.is_empty(),
        Some(pieces) => pieces
            .iter()
            .any(|p| p.bytes().filter(u8::is_ascii_alphanumeric).count() >= 3),
    }
}
