//! Line arithmetic on the editor's text. Core counts lines from 1 and
//! columns in characters; the browser selects text in UTF-16 code units.

/// Number of lines as the editor shows them (a final newline opens one more).
pub fn line_count(text: &str) -> u32 {
    let newlines = text.bytes().filter(|&b| b == b'\n').count();
    u32::try_from(newlines).unwrap_or(u32::MAX - 1) + 1
}

/// The UTF-16 offsets `(start, end)` of line `line` (1-based), without its
/// line break, for `setSelectionRange`. `None` past the last line.
pub fn utf16_span(text: &str, line: u32) -> Option<(u32, u32)> {
    if line == 0 {
        return None;
    }
    let mut start: u32 = 0;
    for (i, l) in text.split('\n').enumerate() {
        let len: u32 = l
            .trim_end_matches('\r')
            .encode_utf16()
            .count()
            .try_into()
            .ok()?;
        let full: u32 = l.encode_utf16().count().try_into().ok()?;
        if i as u64 + 1 == u64::from(line) {
            return Some((start, start + len));
        }
        start = start.checked_add(full + 1)?;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_lines_like_the_editor() {
        assert_eq!(line_count(""), 1);
        assert_eq!(line_count("a"), 1);
        assert_eq!(line_count("a\n"), 2);
        assert_eq!(line_count("a\nb\nc"), 3);
    }

    #[test]
    fn spans_are_in_utf16_units_and_skip_line_breaks() {
        let text = "{\n  \"é\": \"😀\",\r\n  \"x\": 1\n}";
        assert_eq!(utf16_span(text, 1), Some((0, 1)));
        // Line 2: two spaces, "é" (1 unit), colon, space, quoted emoji (2 units), comma.
        let (s, e) = utf16_span(text, 2).unwrap();
        assert_eq!(s, 2);
        assert_eq!(e - s, "  \"é\": \"😀\",".encode_utf16().count() as u32);
        let (s3, _) = utf16_span(text, 3).unwrap();
        assert_eq!(s3, e + 2, "CR and LF both skipped");
        assert_eq!(utf16_span(text, 4).map(|(s, e)| e - s), Some(1));
        assert_eq!(utf16_span(text, 5), None);
        assert_eq!(utf16_span(text, 0), None);
    }
}
