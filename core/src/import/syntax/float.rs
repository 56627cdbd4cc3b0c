//! The two questions the importers ask of a float: whether a text is one,
//! and which whole number it stands for. Both are the standard library's
//! own reading (`f64::from_str`, correctly rounded, ties to even), so a
//! YAML or TOML number means here what it means to the programs that read
//! those files.
//!
//! This once re-implemented the parser to keep its tables out of the
//! page; with the page's ceiling at 512 KB gzipped, clarity wins.

/// Whether `f64::from_str` accepts `text`.
pub fn is_float(text: &str) -> bool {
    text.parse::<f64>().is_ok()
}

/// The value of `text` read as an `f64`, if it parses and is finite, whole
/// and at most `1e30` in magnitude; what `f as i128` then gives.
pub fn whole(text: &str) -> Option<i128> {
    let f: f64 = text.parse().ok()?;
    if !f.is_finite() || f.fract() != 0.0 || f.abs() > 1e30 {
        return None;
    }
    // Whole and at most 1e30 in magnitude: exact in an i128.
    #[allow(clippy::cast_possible_truncation)]
    Some(f as i128)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The readings the importers rely on: signs, exponents, the limits,
    /// and what is not a number.
    #[test]
    fn whole_numbers_and_their_limits() {
        let cases: &[(&str, bool, Option<i128>)] = &[
            ("0", true, Some(0)),
            ("-0.0", true, Some(0)),
            ("1e3", true, Some(1000)),
            ("12300e-2", true, Some(123)),
            ("12345e-2", true, None),
            (".5", true, None),
            ("2.5", true, None),
            (
                "1e30",
                true,
                Some(1_000_000_000_000_000_019_884_624_838_656),
            ),
            ("1e31", true, None),
            ("inf", true, None),
            ("NaN", true, None),
            ("1e400", true, None),
            ("", false, None),
            ("1_0", false, None),
            ("0x10", false, None),
            (" 1", false, None),
            ("1.2.3", false, None),
        ];
        for &(text, is, w) in cases {
            assert_eq!(is_float(text), is, "{text:?}");
            assert_eq!(whole(text), w, "{text:?}");
        }
    }
}
