//! Text fitting for panes: display-width aware wrapping and truncation.
//! Wrapping here (not in ratatui) lets panes know how many lines they hold,
//! so scrolling can be clamped and "more below" shown.

use unicode_width::{UnicodeWidthChar, UnicodeWidthStr};

pub fn width(s: &str) -> usize {
    UnicodeWidthStr::width(s)
}

/// Wrap `text` to lines of at most `max` columns, breaking at spaces and,
/// for words longer than a line, inside the word. Existing newlines are kept.
pub fn wrap(text: &str, max: usize) -> Vec<String> {
    let max = max.max(1);
    let mut out = Vec::new();
    for para in text.split('\n') {
        let mut line = String::new();
        let mut line_w = 0;
        for word in para.split(' ') {
            let w = width(word);
            let sep = usize::from(!line.is_empty());
            if line_w + sep + w <= max {
                if sep == 1 {
                    line.push(' ');
                }
                line.push_str(word);
                line_w += sep + w;
                continue;
            }
            if !line.is_empty() {
                out.push(std::mem::take(&mut line));
                line_w = 0;
            }
            for c in word.chars() {
                let cw = c.width().unwrap_or(0);
                if line_w + cw > max && !line.is_empty() {
                    out.push(std::mem::take(&mut line));
                    line_w = 0;
                }
                line.push(c);
                line_w += cw;
            }
        }
        out.push(line);
    }
    out
}

/// Cut `s` to at most `max` columns, ending with `…` when cut.
pub fn truncate(s: &str, max: usize) -> String {
    if width(s) <= max {
        return s.to_string();
    }
    if max == 0 {
        return String::new();
    }
    let mut out = String::new();
    let mut w = 0;
    for c in s.chars() {
        let cw = c.width().unwrap_or(0);
        if w + cw + 1 > max {
            break;
        }
        out.push(c);
        w += cw;
    }
    out.push('…');
    out
}

/// Keep the end of `s` within `max` columns, starting with `…` when cut
/// (for paths, whose file name matters most).
pub fn truncate_left(s: &str, max: usize) -> String {
    if width(s) <= max {
        return s.to_string();
    }
    if max == 0 {
        return String::new();
    }
    let mut kept: Vec<char> = Vec::new();
    let mut w = 0;
    for c in s.chars().rev() {
        let cw = c.width().unwrap_or(0);
        if w + cw + 1 > max {
            break;
        }
        kept.push(c);
        w += cw;
    }
    std::iter::once('…').chain(kept.into_iter().rev()).collect()
}

/// Wrap one line of source code to rows of at most `max` columns, keeping
/// its indentation and preferring to break after a space or comma in the
/// second half of a row. Each row comes with the char offset it starts at.
pub fn wrap_code(line: &str, max: usize) -> Vec<(usize, String)> {
    let max = max.max(1);
    let chars: Vec<char> = line.chars().collect();
    let mut rows = Vec::new();
    let mut start = 0;
    while start < chars.len() {
        let mut w = 0;
        let mut end = start;
        let mut last_break = None;
        while end < chars.len() {
            let cw = chars.get(end).and_then(|c| c.width()).unwrap_or(0);
            if w + cw > max && end > start {
                break;
            }
            w += cw;
            if matches!(chars.get(end), Some(' ' | ',')) && w * 2 >= max {
                last_break = Some(end + 1);
            }
            end += 1;
        }
        if end < chars.len() {
            if let Some(b) = last_break {
                end = b;
            }
        }
        rows.push((
            start,
            chars
                .get(start..end)
                .map(|c| c.iter().collect())
                .unwrap_or_default(),
        ));
        start = end;
    }
    if rows.is_empty() {
        rows.push((0, String::new()));
    }
    rows
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wraps_at_spaces_and_inside_long_words() {
        assert_eq!(wrap("one two three", 7), ["one two", "three"]);
        assert_eq!(wrap("abcdefghij", 4), ["abcd", "efgh", "ij"]);
        assert_eq!(wrap("a\nb", 10), ["a", "b"]);
        assert_eq!(wrap("", 10), [""]);
        assert!(wrap("x y z", 0).iter().all(|l| width(l) <= 1));
        for l in wrap("数据 数据数据数据", 5) {
            assert!(width(&l) <= 5, "{l}");
        }
    }

    #[test]
    fn wraps_code_keeping_indentation() {
        let rows = wrap_code("    { \"a\": 1, \"b\": 2 }", 12);
        let texts: Vec<&str> = rows.iter().map(|(_, t)| t.as_str()).collect();
        assert_eq!(texts.concat(), "    { \"a\": 1, \"b\": 2 }");
        assert!(texts[0].starts_with("    {"));
        assert!(texts.iter().all(|t| width(t) <= 12));
        assert_eq!(rows[1].0, texts[0].chars().count());
        assert_eq!(wrap_code("", 5), [(0, String::new())]);
        assert_eq!(wrap_code("abcdefgh", 3).len(), 3);
    }

    #[test]
    fn truncates_by_width() {
        assert_eq!(truncate("abcdef", 4), "abc…");
        assert_eq!(truncate("abc", 4), "abc");
        assert_eq!(truncate("abc", 0), "");
        assert_eq!(truncate_left("/a/b/c.json", 7), "…c.json");
    }
}
