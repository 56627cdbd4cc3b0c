//! Shareable links and page parameters, as plain string functions.
//!
//! A shared link carries the learner's file in the URL *fragment*: `#z=…`,
//! the text deflated (RFC 1951) then base64url without padding. Browsers
//! never send the fragment to a server, so the file stays between the two
//! people sharing it. The page shares the file as written, in its own
//! format, with secret values masked (replaced by `*`), never the raw text.
//! Links made before compression (`#profile=…`, plain base64url) still open.
//!
//! An opened link is checked before anything renders: its length, the size
//! it inflates to (a small link can inflate to gigabytes) and its lines.

use isolint_core::Date;

/// The fragment key of links made before compression (plain base64url).
pub const PROFILE_KEY: &str = "profile";

/// The fragment key holding the deflated file.
pub const DEFLATED_KEY: &str = "z";

/// A link's text past this many bytes, or lines, is held for the
/// learner's confirmation before it is put in the editor.
pub const CONFIRM_BYTES: usize = 256 * 1024;
pub const CONFIRM_LINES: usize = 5_000;

/// Links longer than this are refused: browsers and chat tools truncate them.
pub const MAX_LINK_CHARS: usize = 1 << 20;

const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/// base64url (RFC 4648 §5) without padding.
pub fn base64url_encode(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [
            chunk.first().copied().unwrap_or(0),
            chunk.get(1).copied().unwrap_or(0),
            chunk.get(2).copied().unwrap_or(0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        let chars = chunk.len() + 1;
        for i in 0..chars {
            let idx = ((n >> (18 - 6 * i)) & 63) as usize;
            out.push(char::from(ALPHABET[idx]));
        }
    }
    out
}

/// Decode base64url; padding is tolerated, anything else outside the
/// alphabet is an error.
pub fn base64url_decode(text: &str) -> Result<Vec<u8>, String> {
    let text = text.trim_end_matches('=');
    let mut out = Vec::with_capacity(text.len() / 4 * 3 + 2);
    let mut acc: u32 = 0;
    let mut bits = 0;
    for (i, c) in text.bytes().enumerate() {
        let v = match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'-' | b'+' => 62,
            b'_' | b'/' => 63,
            _ => return Err(format!("character {} of the link is not base64url", i + 1)),
        };
        acc = (acc << 6) | u32::from(v);
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
            acc &= (1 << bits) - 1;
        }
    }
    if bits >= 6 {
        return Err("the link's profile is cut short".into());
    }
    Ok(out)
}

/// The fragment (without `#`) for a file's text: deflated, then base64url.
pub fn fragment_for(text: &str) -> String {
    let packed = miniz_oxide::deflate::compress_to_vec(text.as_bytes(), 9);
    format!("{DEFLATED_KEY}={}", base64url_encode(&packed))
}

/// The text a link carries, once read and checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LinkText {
    pub text: String,
    /// Why it must be confirmed before it is shown ("300 KB, 9000 lines"),
    /// when it is past [`CONFIRM_BYTES`] or [`CONFIRM_LINES`].
    pub confirm: Option<String>,
}

/// Check a read text against the confirmation caps.
fn checked(text: String) -> LinkText {
    let lines = text.bytes().filter(|&b| b == b'\n').count() + 1;
    let confirm = (text.len() > CONFIRM_BYTES || lines > CONFIRM_LINES).then(|| {
        format!(
            "{} KB in {lines} lines, more than the {} KB or {CONFIRM_LINES} lines a link opens without asking",
            text.len().div_ceil(1024),
            CONFIRM_BYTES / 1024
        )
    });
    LinkText { text, confirm }
}

/// The file a shared link carries: `None` when the fragment has none,
/// `Err` with a learner-facing reason when it is damaged or too large.
/// Sizes are checked before decoding and while inflating, so no link can
/// make the page hold more than core's input limit.
pub fn read_fragment(fragment: &str) -> Option<Result<LinkText, String>> {
    let max = isolint_core::json::Limits::default().max_bytes;
    let (encoded, deflated) = match param(fragment, DEFLATED_KEY) {
        Some(e) => (e, true),
        None => (param(fragment, PROFILE_KEY)?, false),
    };
    if encoded.len() > MAX_LINK_CHARS {
        return Some(Err(format!(
            "the link holds {} characters, over the {MAX_LINK_CHARS} a link may hold",
            encoded.len()
        )));
    }
    Some(base64url_decode(encoded).and_then(|bytes| {
        let bytes = if deflated {
            miniz_oxide::inflate::decompress_to_vec_with_limit(&bytes, max).map_err(|e| {
                if e.status == miniz_oxide::inflate::TINFLStatus::HasMoreOutput {
                    format!("the link's file inflates past the {max}-byte limit")
                } else {
                    "the link's file is damaged (it does not inflate)".to_string()
                }
            })?
        } else {
            bytes
        };
        if bytes.len() > max {
            return Err(format!("the link's file is over the {max}-byte limit"));
        }
        String::from_utf8(bytes)
            .map(checked)
            .map_err(|_| "the link's profile is not UTF-8 text".into())
    }))
}

/// The profile a shared link carries, unchecked against the confirmation
/// caps (tests and callers that only need the text).
pub fn profile_from_fragment(fragment: &str) -> Option<Result<String, String>> {
    read_fragment(fragment).map(|r| r.map(|l| l.text))
}

/// The value of `key` in a `a=1&b=2` list (a fragment or a query string,
/// with or without its leading `#`/`?`).
fn param<'a>(list: &'a str, key: &str) -> Option<&'a str> {
    list.trim_start_matches(['#', '?'])
        .split('&')
        .find_map(|pair| {
            pair.strip_prefix(key)
                .and_then(|rest| rest.strip_prefix('='))
        })
}

/// The audit date from `?today=YYYY-MM-DD`: `None` when absent, `Err` when
/// it is not a real date.
pub fn today_from_query(query: &str) -> Option<Result<Date, String>> {
    let raw = param(query, "today")?;
    Some(Date::parse(raw).ok_or_else(|| {
        format!("`today={raw}` is not a date like 2026-11-29; using the browser's date")
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64url_matches_rfc4648_vectors() {
        let cases: [(&str, &str); 7] = [
            ("", ""),
            ("f", "Zg"),
            ("fo", "Zm8"),
            ("foo", "Zm9v"),
            ("foob", "Zm9vYg"),
            ("fooba", "Zm9vYmE"),
            ("foobar", "Zm9vYmFy"),
        ];
        for (plain, encoded) in cases {
            assert_eq!(base64url_encode(plain.as_bytes()), encoded);
            assert_eq!(base64url_decode(encoded).unwrap(), plain.as_bytes());
        }
        // The URL-safe characters, not `+` and `/`.
        assert_eq!(base64url_encode(&[0xfb, 0xff]), "-_8");
        assert_eq!(base64url_decode("Zg==").unwrap(), b"f");
    }

    #[test]
    fn every_byte_survives_a_round_trip() {
        let bytes: Vec<u8> = (0..=255u8).chain((0..=255u8).rev()).collect();
        for len in 0..bytes.len() {
            let enc = base64url_encode(&bytes[..len]);
            assert!(enc.bytes().all(|b| ALPHABET.contains(&b)));
            assert_eq!(base64url_decode(&enc).unwrap(), &bytes[..len]);
        }
    }

    #[test]
    fn damaged_links_are_errors_not_garbage() {
        assert!(base64url_decode("Zm9v!")
            .unwrap_err()
            .contains("character 5"));
        assert!(base64url_decode("Z").is_err());
        assert_eq!(
            profile_from_fragment("#profile=__8").unwrap().unwrap_err(),
            "the link's profile is not UTF-8 text"
        );
    }

    #[test]
    fn the_profile_comes_back_from_the_fragment() {
        let text = "{ \"name\": \"é <script>\" }\n";
        let frag = format!("#{}", fragment_for(text));
        assert_eq!(profile_from_fragment(&frag), Some(Ok(text.to_string())));
        assert_eq!(
            profile_from_fragment(&format!("#x=1&{}", fragment_for(text))),
            Some(Ok(text.into()))
        );
        assert_eq!(profile_from_fragment(""), None);
        assert_eq!(profile_from_fragment("#results"), None);
        assert_eq!(profile_from_fragment("#profiles=Zg"), None);
    }

    #[test]
    fn links_are_deflated_and_smaller_than_plain_base64() {
        let yaml = include_str!("../../fixtures/import/kubernetes/deployment-host.yaml");
        for text in [yaml, isolint_core::WORKSHOP_PROFILE, "", "é😀\n"] {
            let frag = fragment_for(text);
            assert!(frag.starts_with("z="));
            assert_eq!(profile_from_fragment(&frag), Some(Ok(text.to_string())));
        }
        let plain = format!("{PROFILE_KEY}={}", base64url_encode(yaml.as_bytes()));
        assert!(
            fragment_for(yaml).len() * 2 < plain.len(),
            "deflate halves it at least"
        );
        // Old links still open.
        assert_eq!(profile_from_fragment(&plain), Some(Ok(yaml.to_string())));
    }

    #[test]
    fn opened_links_are_checked_before_anything_renders() {
        let max = isolint_core::json::Limits::default().max_bytes;
        // (fragment, outcome: "ok", "confirm" or an error's words)
        let big_lines = "a\n".repeat(CONFIRM_LINES + 1);
        let big_bytes = "x".repeat(CONFIRM_BYTES + 1);
        let bomb = "\n".repeat(max + 1);
        let cases: Vec<(String, &str)> = vec![
            (format!("#{}", fragment_for("{}")), "ok"),
            (
                format!("#{}", fragment_for(&"a\n".repeat(CONFIRM_LINES - 1))),
                "ok",
            ),
            (format!("#{}", fragment_for(&big_lines)), "confirm"),
            (format!("#{}", fragment_for(&big_bytes)), "confirm"),
            // A few KB of link that inflates past core's limit.
            (format!("#{}", fragment_for(&bomb)), "inflates past"),
            (
                format!("#z={}", "A".repeat(MAX_LINK_CHARS + 1)),
                "characters",
            ),
            (
                format!("#profile={}", "A".repeat(MAX_LINK_CHARS + 1)),
                "characters",
            ),
            ("#z=AAAA".to_string(), "does not inflate"),
            ("#z=Zm9v!".to_string(), "not base64url"),
        ];
        let total = cases.len();
        let mut wrong = Vec::new();
        for (frag, want) in &cases {
            let got = match read_fragment(frag) {
                Some(Ok(LinkText { confirm: None, .. })) => "ok".to_string(),
                Some(Ok(LinkText {
                    confirm: Some(_), ..
                })) => "confirm".to_string(),
                Some(Err(e)) => e,
                None => "none".into(),
            };
            if !got.contains(want) {
                wrong.push(format!(
                    "{}…: {got} (want {want})",
                    &frag[..frag.len().min(20)]
                ));
            }
        }
        assert!(
            wrong.is_empty(),
            "{} of {total} wrong: {wrong:?}",
            wrong.len()
        );
    }

    #[test]
    fn today_is_read_from_the_query() {
        assert_eq!(
            today_from_query("?today=2026-11-29"),
            Some(Ok(Date::parse("2026-11-29").unwrap()))
        );
        assert_eq!(
            today_from_query("?a=b&today=2024-02-29").map(|r| r.is_ok()),
            Some(true)
        );
        assert!(today_from_query("?today=2026-02-30").unwrap().is_err());
        assert_eq!(today_from_query("?other=1"), None);
        assert_eq!(today_from_query(""), None);
    }
}
