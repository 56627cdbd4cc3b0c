//! Credential-looking tokens of free text (an error, a note, a line of a
//! file that did not parse), found in one pass over its bytes.

use std::borrow::Cow;

use super::command_line::line_secrets;
use super::names::{is_strong_secret_name, secret_by_name, word_slices, AUTH_SCHEMES};
use super::shapes::{
    is_reference, kind, secret_shaped, vendor_prefixed, K_OTHER, K_SYMBOL, PREFIX_FIRST,
};
use super::MASK;

pub(super) const SEPARATORS: &str = "\"'`=;,&|()<>[]{}";

/// Byte classes for the token scan: bit 0 ends a token (ASCII whitespace or
/// a separator), bit 1 splits a token into pieces (`/`, `:`, `@`).
pub(super) const BREAK: u8 = 1;
pub(super) const PIECE: u8 = 2;
// Evaluated at compile time: an index out of range fails the build.
#[allow(clippy::indexing_slicing)]
pub(super) const CLASS: [u8; 128] = {
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
pub(super) fn class(b: u8) -> u8 {
    CLASS.get(usize::from(b)).copied().unwrap_or(0)
}

/// The shortest text [`looks_like_secret`] can accept.
pub(super) const MIN_SECRET: usize = 8;

/// Byte ranges of credential-looking tokens in `s`: whole tokens between
/// separators, or, inside a token that is not a secret as a whole (a path,
/// a URL), its `/`, `:` and `@`-separated pieces; and the value that
/// follows a secret-named flag or key (`--password=hunter2`, `TOKEN: abc`,
/// `export TOKEN abc`), but never the next word of a sentence: a key joined
/// by spaces alone must be a flag or an upper-case variable name.
///
/// One pass over the bytes, which also gathers each token's byte kinds, so
/// most tokens are ruled out without looking at them again.
pub(super) fn secret_spans(s: &str) -> Vec<(usize, usize)> {
    secret_spans_with(s, true)
}

/// [`secret_spans`]; `glued` also looks inside tokens for a vendor token
/// glued to other text ([`check_token`]), a scan of every byte that
/// [`Secrets::scrub_value`] leaves out: the values it masks come from a
/// document whose glued tokens the collector already found.
pub(super) fn secret_spans_with(s: &str, glued: bool) -> Vec<(usize, usize)> {
    let mut spans = Vec::new();
    if s.len() < MIN_SECRET {
        // No token that short is a secret, and a key (three bytes at
        // least), a joint and a value (four at least) do not fit either.
        return spans;
    }
    let bytes = s.as_bytes();
    // The previous token, when it could be a key (three bytes at least).
    let mut key: Option<(usize, usize)> = None;
    // The current token starts at `a`; `kinds` and `pieces` describe it.
    let mut a = 0;
    let mut kinds = 0u16;
    let mut pieces = false;
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes.get(i).copied().unwrap_or(0);
        let (brk, len) = if c < 0x80 {
            (class(c) & BREAK != 0, 1)
        } else {
            let ch = s.get(i..).and_then(|r| r.chars().next());
            (
                ch.is_some_and(char::is_whitespace),
                ch.map_or(1, char::len_utf8),
            )
        };
        if brk {
            if i > a {
                end_token(
                    s,
                    Token {
                        a,
                        b: i,
                        kinds,
                        pieces,
                        glued,
                    },
                    &mut key,
                    &mut spans,
                );
            }
            a = i + len;
            kinds = 0;
            pieces = false;
        } else {
            kinds |= kind(c);
            pieces |= c < 0x80 && class(c) & PIECE != 0;
        }
        i += len;
    }
    if bytes.len() > a {
        end_token(
            s,
            Token {
                a,
                b: bytes.len(),
                kinds,
                pieces,
                glued,
            },
            &mut key,
            &mut spans,
        );
    }
    crate::sort::sort(&mut spans);
    spans.dedup();
    spans
}

/// A token of the scan: its byte range and the kinds of its bytes.
#[derive(Clone, Copy)]
pub(super) struct Token {
    a: usize,
    b: usize,
    kinds: u16,
    /// It holds a `/`, `:` or `@`, so it splits into pieces.
    pieces: bool,
    /// Look for a vendor token glued inside it too.
    glued: bool,
}

/// What [`secret_spans`] does at the end of each token: the token itself,
/// and the pair it ends with `key`, the token before it.
pub(super) fn end_token(
    s: &str,
    t: Token,
    key: &mut Option<(usize, usize)>,
    spans: &mut Vec<(usize, usize)>,
) {
    let len = t.b - t.a;
    // A `:` between quotes (`"password":"x"`, JSON inside a value) joins
    // the key before it to the value after it, as `=` does.
    if s.as_bytes()
        .get(t.a..t.b)
        .is_some_and(|b| b.iter().all(|&c| c == b':'))
    {
        return;
    }
    if len >= MIN_SECRET {
        check_token(s, t, spans);
    }
    if let Some(k) = *key {
        if len >= 4 {
            check_pair(s, k, (t.a, t.b), spans);
        }
    }
    *key = (len >= 3).then_some((t.a, t.b));
}

/// A whole token (of [`MIN_SECRET`] bytes at least) that looks like a
/// secret, or else its pieces that do.
pub(super) fn check_token(s: &str, t: Token, spans: &mut Vec<(usize, usize)>) {
    let Token {
        a,
        b,
        kinds,
        pieces,
        glued,
    } = t;
    let tok = s.get(a..b).unwrap_or("");
    if secret_shaped(tok, kinds) {
        spans.push((a, b));
        return;
    }
    let bytes = tok.as_bytes();
    // A vendor token glued to other text by a dash, dot or underscore
    // (`job-ghp_…`, `x.sk_live_…`): from its prefix to the token's end. The
    // shortest prefix and its eight bytes need a separator and ten more.
    if glued && bytes.len() > MIN_SECRET + 2 && kinds & (K_SYMBOL | K_OTHER) != 0 {
        let found = bytes
            .iter()
            .enumerate()
            .skip(1)
            .filter(|&(j, &f)| {
                j + MIN_SECRET < bytes.len()
                    && PREFIX_FIRST
                        .get(usize::from(f))
                        .is_some_and(|&set| set != 0)
                    && bytes.get(j - 1).is_some_and(|p| !p.is_ascii_alphanumeric())
            })
            .find(|&(j, &f)| vendor_prefixed(bytes.get(j..).unwrap_or_default(), f));
        if let Some((j, _)) = found {
            spans.push((a + j, b));
            return;
        }
    }
    if !pieces {
        return;
    }
    let mut piece_start = 0;
    let mut piece_kinds = 0u16;
    for (i, &c) in bytes.iter().enumerate() {
        if class(c) & PIECE != 0 {
            if i - piece_start >= MIN_SECRET
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
        && secret_shaped(tok.get(piece_start..).unwrap_or(""), piece_kinds)
    {
        spans.push((a + piece_start, b));
    }
}

/// Whether a key token joined to its value by spaces alone can be a key:
/// a flag (`--password hunter2`) or an upper-case variable name
/// (`export TOKEN abc`). Lower-case words are prose ("credentials
/// declared"), never a key and its value.
pub(super) fn spaced_key(key: &[u8]) -> bool {
    key.first() == Some(&b'-')
        || (key.iter().any(u8::is_ascii_uppercase)
            && key
                .iter()
                .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || *c == b'_'))
}

/// Words that take their value after a space in configuration text
/// (`.netrc`'s `password X`, `token X`), which prose never follows with
/// anything but a lower-case word.
pub(super) const SPACED_SECRET_WORDS: &[&str] = &[
    "password",
    "passwd",
    "passphrase",
    "secret",
    "token",
    "apikey",
];

fn auth_scheme(word: &[u8]) -> bool {
    let w = word.strip_suffix(b":").unwrap_or(word);
    AUTH_SCHEMES
        .iter()
        .any(|s| w.eq_ignore_ascii_case(s.as_bytes()))
}

/// Whether a key joined to its value by spaces alone is an identifier
/// (`//registry.npmjs.org/:_authToken X`, `credential.apiToken X`): its
/// last piece is a name of several words, which prose never uses as one.
pub(super) fn identifier_key(key: &str) -> bool {
    let last = key.rsplit(['/', '?', '&', '.', ':']).next().unwrap_or(key);
    word_slices(last).len() >= 2 && is_strong_secret_name(last)
}

/// The value token after a secret-named key token, when only `=`, `:`,
/// spaces or quotes join them.
pub(super) fn check_pair(
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
    let value = s.as_bytes().get(a1..b1).unwrap_or_default();
    let keyed = key.last() == Some(&b':') || between.iter().any(|c| matches!(c, b'=' | b':'));
    // A word of prose ("without", "declared") is never the value of a key
    // joined by spaces alone.
    let prose = value.iter().all(u8::is_ascii_lowercase);
    if auth_scheme(key) && !keyed {
        // `Authorization: Bearer X`, `token X`, `Basic X`: the credential
        // follows the scheme.
        let v = s.get(a1..b1).unwrap_or("");
        if !prose && secret_by_name("token", v) {
            spans.push((a1, b1));
        }
        return;
    }
    if auth_scheme(value) {
        // The scheme itself is a word, not the secret.
        return;
    }
    let joined_as_key = keyed
        || spaced_key(key)
        || (!prose && identifier_key(s.get(a0..b0).unwrap_or("")))
        || (!prose
            && SPACED_SECRET_WORDS
                .iter()
                .any(|w| key.eq_ignore_ascii_case(w.as_bytes())));
    if !joined_as_key {
        // A path or a word and the next word of a sentence ("open
        // /run/secrets without following links", "credentials declared").
        return;
    }
    if matches!(value.first(), Some(b'-' | b'$' | b'/')) {
        return;
    }
    let dashes = key.iter().take_while(|&&c| c == b'-').count();
    let colons = key.iter().rev().take_while(|&&c| c == b':').count();
    // Both trims stop at ASCII bytes, so the rest is still a `str`.
    let key_like = s
        .get(a0 + dashes..b0.saturating_sub(colons).max(a0 + dashes))
        .unwrap_or("");
    // The last piece of a path-like key names the value (`?token=`,
    // `/run/secrets/db_password: x`).
    let key_like = key_like
        .rsplit(['/', '?', '&', '.'])
        .next()
        .unwrap_or(key_like);
    let value = s.get(a1..b1).unwrap_or("");
    let before = a0.checked_sub(1).and_then(|i| s.as_bytes().get(i)).copied();
    let by_context = keyed
        && CONTEXT_KEYS.iter().any(|(k, after)| {
            key_like.eq_ignore_ascii_case(k) && before.is_some_and(|c| after.contains(&c))
        })
        && !is_reference(value);
    // Only the spans of this token can hold it (the scan pushes in order).
    let held = spans
        .iter()
        .rev()
        .take_while(|&&(x, _)| x >= a1)
        .any(|&(x, y)| x <= a1 && b1 <= y);
    if (by_context || secret_by_name(key_like, value)) && !held {
        spans.push((a1, b1));
    }
}

/// Keys that name a secret only where they stand: after the byte that
/// starts a URL query parameter or a connection string's setting (`?sig=`,
/// `;PWD=`), never as words of their own (`PWD` is also the shell's
/// working directory).
pub(super) const CONTEXT_KEYS: &[(&str, &[u8])] = &[
    // An Azure shared access signature.
    ("sig", b"?&;"),
    // ODBC and ADO.NET connection strings.
    ("pwd", b";{"),
    // An Azure storage connection string.
    ("accountkey", b";"),
    ("sharedaccesskey", b";"),
];

/// The credential-looking tokens of free text (see [`scrub_tokens`]).
pub fn secret_tokens(s: &str) -> Vec<String> {
    secret_spans(s)
        .into_iter()
        .filter_map(|(a, b)| s.get(a..b).map(str::to_string))
        .collect()
}

/// Free text made safe for any stream (an error, a note, a line on
/// stderr): credential-looking tokens masked ([`scrub_tokens`]), then
/// dangerous characters neutralized ([`crate::sanitize::neutralize`]).
/// Messages quote the input they are about (a duplicate key, an unknown
/// option), and the input may be a secret.
pub fn safe_text(s: &str) -> Cow<'_, str> {
    match scrub_tokens_cow(s) {
        Cow::Borrowed(b) => crate::sanitize::neutralize(b),
        Cow::Owned(o) => Cow::Owned(crate::sanitize::neutralize(&o).into_owned()),
    }
}

/// Mask credential-looking tokens in free text, for text that did not come
/// from a collected document.
pub fn scrub_tokens(s: &str) -> String {
    scrub_tokens_cow(s).into_owned()
}

/// [`scrub_tokens`] without a copy when nothing needs masking.
pub fn scrub_tokens_cow(s: &str) -> Cow<'_, str> {
    let mut spans = secret_spans(s);
    if s.len() >= 4 && s.contains(char::is_whitespace) {
        let more = word_spans(s);
        if !more.is_empty() {
            spans.extend(more);
            spans = merged(spans);
        }
    }
    scrub_spans(s, spans)
}

/// The spans of free text that hold a secret when it is read as a shell
/// text is ([`line_secrets`], with the words masked that no rule reports),
/// and the body of a PEM private key block, whose lines are words of no
/// shape of their own.
pub(super) fn word_spans(s: &str) -> Vec<(usize, usize)> {
    let mut out: Vec<(usize, usize)> = line_secrets(s, true)
        .into_iter()
        .filter_map(|f| {
            // Free text glues JSON's and YAML's punctuation to its words
            // (`"x",`): that is not part of the secret.
            let part = f
                .part
                .trim_matches(|c| matches!(c, '"' | '\'' | ',' | ';' | '{' | '}'));
            if part.is_empty() {
                return None;
            }
            // The secret where the word shows it, else the whole word (a
            // word written with quotes or escapes inside).
            let word = s.get(f.at..f.end)?;
            Some(match word.find(part) {
                Some(k) => (f.at + k, f.at + k + part.len()),
                None => (f.at, f.end),
            })
        })
        .collect();
    if let Some(begin) = s.find("-----BEGIN") {
        let body = s.get(begin + 10..).unwrap_or_default();
        let open = body.find("-----").map(|i| begin + 10 + i + 5);
        let end = s
            .get(begin..)
            .and_then(|t| t.find("-----END"))
            .map(|i| begin + i);
        if let (Some(a), Some(b)) = (open, end) {
            if a < b && s.get(begin..a).is_some_and(|h| h.contains("PRIVATE KEY")) {
                out.push((a, b));
            }
        }
    }
    out
}

/// `spans` in order, overlapping ones joined.
pub(super) fn merged(mut spans: Vec<(usize, usize)>) -> Vec<(usize, usize)> {
    crate::sort::sort(&mut spans);
    let mut out: Vec<(usize, usize)> = Vec::with_capacity(spans.len());
    for (a, b) in spans {
        match out.last_mut() {
            Some(last) if a <= last.1 => last.1 = last.1.max(b),
            _ => out.push((a, b)),
        }
    }
    out
}

/// [`scrub_tokens_cow`] without the glued-token scan (see
/// [`secret_spans_with`]), for [`Secrets::scrub_value`].
pub(super) fn scrub_tokens_quick(s: &str) -> Cow<'_, str> {
    scrub_spans(s, secret_spans_with(s, false))
}

/// `s` with each of `spans` written as [`MASK`].
pub(super) fn scrub_spans(s: &str, spans: Vec<(usize, usize)>) -> Cow<'_, str> {
    if spans.is_empty() {
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
