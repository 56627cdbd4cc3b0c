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
    let hex = |n: u8| if n < 10 { b'0' + n } else { b'a' + n - 10 };
    let mut buf = [0u8; 64];
    for (pair, b) in buf.chunks_exact_mut(2).zip(bytes) {
        pair.copy_from_slice(&[hex(b >> 4), hex(b & 0xf)]);
    }
    let shown = buf.get(..digits.min(2 * bytes.len())).unwrap_or(&buf);
    out.push_str(std::str::from_utf8(shown).unwrap_or_default());
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
