//! The SHA-256 digests that identify profiles, catalogs, findings and
//! runtime checks, as lowercase hex.

use sha2::{Digest, Sha256};

/// SHA-256 of `bytes`, as 64 lowercase hex digits.
pub fn sha256_hex(bytes: &[u8]) -> String {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let d = Sha256::digest(bytes);
    let mut s = String::with_capacity(64);
    for b in d {
        for nibble in [b >> 4, b & 0xf] {
            s.push(char::from(
                HEX.get(usize::from(nibble)).copied().unwrap_or(b'0'),
            ));
        }
    }
    s
}
