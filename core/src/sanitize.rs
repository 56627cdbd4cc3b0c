//! Neutralizing control characters before text reaches a terminal or page.
//!
//! Profile strings are written by whoever wrote the profile, possibly the
//! agent under review. An ESC or OSC sequence in a path could repaint or
//! retitle the reviewer's terminal; a bidi override could make a path read
//! differently from what it is. Every such character is shown as a visible
//! `\u{..}` escape instead.

use std::borrow::Cow;

/// Whether `c` must not reach a display raw: C0 and C1 controls, DEL,
/// bidirectional overrides and isolates, and zero-width format characters.
pub fn is_dangerous(c: char) -> bool {
    c.is_control()
        || matches!(c,
            '\u{200B}'..='\u{200F}'
            | '\u{202A}'..='\u{202E}'
            | '\u{2066}'..='\u{2069}'
            | '\u{2028}' | '\u{2029}'
            | '\u{FEFF}'
            | '\u{FFF9}'..='\u{FFFB}')
}

/// Replace every dangerous character (including newlines and tabs) with a
/// visible escape, for single-line display.
pub fn neutralize(s: &str) -> Cow<'_, str> {
    // Printable ASCII, the common case, is checked without an early exit,
    // which lets the compiler test many bytes per instruction.
    let printable = s.bytes().fold(true, |ok, b| ok & (0x20..0x7f).contains(&b));
    if printable || !s.chars().any(is_dangerous) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        if is_dangerous(c) {
            out.push_str(&format!("\\u{{{:x}}}", c as u32));
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// Like [`neutralize`] but keeps `\n` (for multi-line source text); tabs
/// become spaces so columns stay aligned.
pub fn neutralize_multiline(s: &str) -> Cow<'_, str> {
    if !s.chars().any(|c| c != '\n' && is_dangerous(c)) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        match c {
            '\n' => out.push('\n'),
            '\t' => out.push(' '),
            '\r' => {}
            c if is_dangerous(c) => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn escapes_controls_and_bidi() {
        assert_eq!(neutralize("a\u{1b}[31mb"), "a\\u{1b}[31mb");
        assert_eq!(neutralize("x\u{9b}y\u{7}"), "x\\u{9b}y\\u{7}");
        assert_eq!(neutralize("\u{202e}gnp.exe"), "\\u{202e}gnp.exe");
        assert_eq!(neutralize("plain/path"), "plain/path");
        assert_eq!(neutralize_multiline("a\n\u{1b}b\r\n"), "a\n\\u{1b}b\n");
    }
}
