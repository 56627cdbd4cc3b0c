//! Small text helpers shared by the front ends and the writers: counts
//! with their noun, and a number's digits without an allocation.

/// A count and its noun: `1 finding`, `0 findings`, `3 runtime checks`.
/// The plural adds `s`, which every noun the front ends count takes; the
/// dashboard, the CLI and the page all use this one helper.
pub fn plural(n: usize, noun: &str) -> String {
    format!("{n} {noun}{}", if n == 1 { "" } else { "s" })
}

/// The byte offset where each line of `text` starts, as [`str::lines`]
/// splits it (no entry for the empty rest after a final newline).
pub fn line_starts(text: &str) -> Vec<u32> {
    let mut starts = Vec::new();
    if !text.is_empty() {
        starts.push(0);
    }
    for (i, b) in text.bytes().enumerate() {
        if b == b'\n' && i + 1 < text.len() {
            starts.push(u32::try_from(i + 1).unwrap_or(u32::MAX));
        }
    }
    starts
}

/// Line `index` (0-based) of `text`, given its [`line_starts`].
pub fn nth_line<'t>(text: &'t str, starts: &[u32], index: usize) -> Option<&'t str> {
    let from = *starts.get(index)? as usize;
    let to = starts.get(index + 1).map_or(text.len(), |&s| s as usize);
    let line = text.get(from..to)?;
    Some(match line.strip_suffix('\n') {
        Some(l) => l.strip_suffix('\r').unwrap_or(l),
        None => line,
    })
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
    }

    #[test]
    fn counts_take_their_plural() {
        assert_eq!(plural(0, "finding"), "0 findings");
        assert_eq!(plural(1, "finding"), "1 finding");
        assert_eq!(plural(2, "runtime check"), "2 runtime checks");
    }

    #[test]
    fn edges() {
        assert_eq!(Num::new(0u64).as_ref(), "0");
        assert_eq!(Num::new(u64::MAX).as_ref(), "18446744073709551615");
    }
}
