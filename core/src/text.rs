//! Building message text without `format!`: the rules and the plan write
//! a few strings per mount, and for text made of plain pieces the
//! formatting machinery (a call through `Display` per piece, a guessed
//! capacity, then growth) costs several times the copying itself, and a
//! large profile builds a few such strings per mount.

/// A count and its noun: `1 finding`, `0 findings`, `3 runtime checks`.
/// The plural adds `s`, which every noun the front ends count takes; the
/// dashboard, the CLI and the page all use this one helper.
pub fn plural(n: usize, noun: &str) -> String {
    cat!(Num::new(n as u64), " ", noun, if n == 1 { "" } else { "s" })
}

/// The pieces, each anything that is `AsRef<str>` (`&str`, `String`,
/// [`Num`]), joined into a `String` of exactly their length: the bytes
/// `format!` writes for the same pieces as `{}` placeholders.
macro_rules! cat {
    ($($part:expr),+ $(,)?) => {
        // A match keeps the pieces' temporaries (a `Num`) alive throughout.
        match [$(::core::convert::AsRef::<str>::as_ref(&$part)),+] {
            parts => $crate::text::join(&parts),
        }
    };
}
pub(crate) use cat;

/// The pieces joined, with one allocation.
pub(crate) fn join(parts: &[&str]) -> String {
    let mut out = String::with_capacity(parts.iter().map(|p| p.len()).sum());
    for p in parts {
        out.push_str(p);
    }
    out
}

/// An unsigned number's decimal digits, as `Display` writes them, kept on
/// the stack.
pub(crate) struct Num {
    digits: [u8; 20],
    start: usize,
}

impl Num {
    // Not inlined: one copy of the loop serves every caller, and a call
    // costs little next to the divisions.
    #[inline(never)]
    pub(crate) fn new(n: impl Into<u64>) -> Num {
        let mut n: u64 = n.into();
        let mut digits = [b'0'; 20];
        let mut start = digits.len();
        loop {
            start -= 1;
            if let Some(d) = digits.get_mut(start) {
                *d = b'0' + (n % 10) as u8;
            }
            n /= 10;
            if n == 0 {
                break;
            }
        }
        Num { digits, start }
    }
}

impl AsRef<str> for Num {
    fn as_ref(&self) -> &str {
        // ASCII digits only: always valid.
        std::str::from_utf8(self.digits.get(self.start..).unwrap_or_default()).unwrap_or("0")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn numbers_read_as_display_writes_them(n in any::<u64>()) {
            let num = Num::new(n);
            prop_assert_eq!(num.as_ref(), n.to_string());
        }

        #[test]
        fn pieces_join_as_format_writes_them(a in ".{0,20}", b in ".{0,20}", n in any::<u32>()) {
            let s = String::from(b.as_str());
            prop_assert_eq!(cat!(a, "`", s, "` ", Num::new(n)), format!("{a}`{b}` {n}"));
        }
    }

    #[test]
    fn counts_take_their_plural() {
        assert_eq!(plural(0, "finding"), "0 findings");
        assert_eq!(plural(1, "finding"), "1 finding");
        assert_eq!(plural(2, "runtime check"), "2 runtime checks");
    }

    #[test]
    fn edges() {
        assert_eq!(cat!(Num::new(0u64)), "0");
        assert_eq!(cat!(Num::new(u64::MAX)), "18446744073709551615");
        assert_eq!(cat!(""), "");
    }
}
