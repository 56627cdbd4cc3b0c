//! The SHA-256 digests that identify profiles, catalogs, findings and
//! runtime checks, as lowercase hex.

use sha2::{Digest, Sha256};

/// SHA-256 of `bytes`, as 64 lowercase hex digits.
pub fn sha256_hex(bytes: &[u8]) -> String {
    let mut s = String::with_capacity(64);
    push_hex(&mut s, &sha256(&[bytes]), 64);
    s
}

/// SHA-256 of `parts` one after the other: the digest of their
/// concatenation, without building it.
pub fn sha256(parts: &[&[u8]]) -> [u8; 32] {
    let mut h = Sha256::new();
    for p in parts {
        h.update(p);
    }
    h.finalize().into()
}

/// The first `digits` lowercase hex digits of `bytes`, after `out`'s text.
pub fn push_hex(out: &mut String, bytes: &[u8], digits: usize) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    for nibble in bytes.iter().flat_map(|b| [b >> 4, b & 0xf]).take(digits) {
        out.push(char::from(
            HEX.get(usize::from(nibble)).copied().unwrap_or(b'0'),
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parts_hash_as_their_concatenation() {
        let whole = sha256_hex(b"path\0/home/user");
        assert_eq!(whole.len(), 64);
        let parts = sha256(&[b"path", b"\0", b"", b"/home/user"]);
        for digits in [0, 1, 12, 63, 64] {
            let mut s = String::from("rc-");
            push_hex(&mut s, &parts, digits);
            assert_eq!(s, format!("rc-{}", &whole[..digits]));
        }
        assert_eq!(
            sha256_hex(b""),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        );
    }
}
