//! Shareable links and page parameters, as plain string functions.
//!
//! A shared link carries the profile in the URL *fragment* (`#profile=…`,
//! base64url without padding). Browsers never send the fragment to a server,
//! so the profile stays between the two people sharing it. The page shares
//! the masked source (secret values replaced by `*`), never the raw text.

use isolint_core::Date;

/// The fragment key holding the profile.
pub const PROFILE_KEY: &str = "profile";

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

/// The fragment (without `#`) for a profile text.
pub fn fragment_for(text: &str) -> String {
    format!("{PROFILE_KEY}={}", base64url_encode(text.as_bytes()))
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

/// The profile a shared link carries: `None` when the fragment has none,
/// `Err` with a learner-facing reason when it is damaged.
pub fn profile_from_fragment(fragment: &str) -> Option<Result<String, String>> {
    let encoded = param(fragment, PROFILE_KEY)?;
    Some(base64url_decode(encoded).and_then(|bytes| {
        String::from_utf8(bytes).map_err(|_| "the link's profile is not UTF-8 text".into())
    }))
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
