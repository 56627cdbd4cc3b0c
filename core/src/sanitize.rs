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

/// Whether `c` draws nothing: whitespace, the dangerous characters above, and
/// the other fillers and joiners (soft hyphen, variation selectors, tag
/// characters, Hangul fillers, the Braille blank). A name made only of these
/// reads as empty to a reviewer, whatever its bytes.
pub fn is_invisible(c: char) -> bool {
    c.is_whitespace()
        || is_dangerous(c)
        || matches!(c,
            '\u{00AD}' | '\u{034F}' | '\u{061C}' | '\u{115F}' | '\u{1160}'
            | '\u{17B4}' | '\u{17B5}' | '\u{180B}'..='\u{180F}'
            | '\u{2060}'..='\u{206F}' | '\u{2800}' | '\u{3164}' | '\u{FFA0}'
            | '\u{FE00}'..='\u{FE0F}' | '\u{1D173}'..='\u{1D17A}'
            | '\u{E0000}'..='\u{E0FFF}')
}

/// Whether `c` hides inside a word: an [`is_invisible`] character other
/// than whitespace, which a reader sees as a gap (bidi controls and
/// isolates, zero-width characters, the soft hyphen, tag characters).
/// The command rules report these in every word a command runs.
pub fn is_hidden_in_word(c: char) -> bool {
    !c.is_whitespace() && is_invisible(c)
}

/// Whether `c` is a combining mark of the general blocks: it draws on the
/// character before it, so a string of marks alone shows nothing a reader can
/// tell apart. Kept out of [`is_invisible`], which command rules use, because
/// accented text written with marks is ordinary there.
pub fn is_combining_mark(c: char) -> bool {
    matches!(c,
        '\u{0300}'..='\u{036F}' | '\u{0483}'..='\u{0489}' | '\u{0591}'..='\u{05BD}'
        | '\u{0610}'..='\u{061A}' | '\u{064B}'..='\u{065F}' | '\u{0E31}' | '\u{0E34}'..='\u{0E3A}'
        | '\u{0E47}'..='\u{0E4E}' | '\u{1AB0}'..='\u{1AFF}' | '\u{1DC0}'..='\u{1DFF}'
        | '\u{20D0}'..='\u{20FF}' | '\u{302A}'..='\u{302F}' | '\u{3099}' | '\u{309A}'
        | '\u{FE20}'..='\u{FE2F}')
}

/// Whether a reader sees anything of `s`: at least one character that is
/// neither invisible nor a combining mark. Names must pass this to identify
/// a profile to a human.
pub fn has_visible_base(s: &str) -> bool {
    s.chars().any(|c| !is_invisible(c) && !is_combining_mark(c))
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

/// `s` as a JSON string literal whose text holds no dangerous character
/// raw: JSON's own escapes for C0 controls, and `\uXXXX` for the others
/// (C1 controls, U+2028 and U+2029, bidi and zero-width characters). The
/// string's value is unchanged, so a document written with it (the profile
/// `isolint import` prints) says the same thing and cannot redraw, break or
/// reorder the terminal or page that shows it.
pub fn json_string(s: &str) -> String {
    let quoted = serde_json::Value::String(s.to_string()).to_string();
    if quoted.is_ascii() || !quoted.chars().any(is_dangerous) {
        return quoted;
    }
    let mut out = String::with_capacity(quoted.len() + 8);
    for c in quoted.chars() {
        if is_dangerous(c) {
            let mut units = [0u16; 2];
            for u in c.encode_utf16(&mut units) {
                out.push_str(&format!("\\u{u:04x}"));
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// Lowercase `s` for comparison with ASCII words: the result equals an
/// ASCII word exactly when `s.to_lowercase()` does (and is then the same
/// string), without the standard library's Unicode case tables, which the
/// browser page would otherwise carry. ASCII letters are lowercased and the Kelvin
/// sign, the one non-ASCII character whose lowercase is ASCII, becomes `k`;
/// every other character is kept, so a word holding one matches no ASCII
/// word either way.
pub fn lowercase_for_ascii_words(s: &str) -> String {
    s.chars()
        .map(|c| match c {
            '\u{212A}' => 'k',
            c => c.to_ascii_lowercase(),
        })
        .collect()
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

    #[test]
    fn json_strings_escape_every_dangerous_character_and_keep_the_value() {
        for s in [
            "plain",
            "a\u{2028}b\u{2029}c\u{85}d\u{c}e\r\n\u{1b}]0;x\u{7}",
            "\u{202e}gnp.exe\u{200b}\u{feff}",
            "é ü 日本 😀",
        ] {
            let j = json_string(s);
            assert!(!j.chars().any(is_dangerous), "{j}");
            let back: String = serde_json::from_str(&j).unwrap();
            assert_eq!(back, s);
        }
    }

    #[test]
    fn ascii_word_lowercase_agrees_with_unicode_lowercase() {
        // Every character whose Unicode lowercase holds ASCII, checked
        // exhaustively: only ASCII itself, the Kelvin sign, and `İ`
        // (whose lowercase also holds a combining dot, so it never equals
        // an ASCII word).
        for c in (0..=0x10FFFF).filter_map(char::from_u32) {
            let unicode: String = c.to_lowercase().collect();
            let ours = lowercase_for_ascii_words(c.encode_utf8(&mut [0; 4]));
            if unicode.is_ascii() || ours.is_ascii() {
                assert_eq!(ours, unicode, "{c:?}");
            }
        }
        for w in [
            "Hardened",
            "LOCKED",
            "non",
            "\u{212A}ernel",
            "Σecure",
            "İsolated",
            "straße",
        ] {
            let unicode = w.to_lowercase();
            let ours = lowercase_for_ascii_words(w);
            assert_eq!(ours.is_ascii(), unicode.is_ascii(), "{w}");
            if unicode.is_ascii() {
                assert_eq!(ours, unicode, "{w}");
            }
        }
    }
}
