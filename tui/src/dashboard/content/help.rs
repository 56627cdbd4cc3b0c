//! The help overlay's lines, generated from the keymap table.

use ratatui::layout::Rect;
use ratatui::text::{Line, Span};

use super::super::keymap::KEYMAP;
use super::super::text::{width, wrap};
use super::super::theme;

/// Where the help overlay goes on a screen of `area`, and its lines.
pub(crate) fn help_content(area: Rect) -> (Rect, Vec<Line<'static>>) {
    let key_w = KEYMAP
        .iter()
        .map(|b| width(&b.keys_label()))
        .max()
        .unwrap_or(4);
    let help_w = KEYMAP.iter().map(|b| width(b.help)).max().unwrap_or(10);
    let col_w = key_w + 2 + help_w;
    let mut blocks: Vec<Vec<Line>> = Vec::new();
    for b in KEYMAP {
        let new_section = blocks
            .last()
            .and_then(|blk| blk.first())
            .map(|l| l.to_string())
            != Some(b.section.to_string());
        if new_section {
            blocks.push(vec![Line::styled(b.section.to_string(), theme::label())]);
        }
        if let Some(blk) = blocks.last_mut() {
            blk.push(Line::from(vec![
                Span::styled(format!("{:<key_w$}", b.keys_label()), theme::key()),
                Span::raw(format!("  {}", b.help)),
            ]));
        }
    }
    let w = area.width.saturating_sub(4).min((col_w * 2 + 4) as u16 + 2);
    let inner_w = w.saturating_sub(2) as usize;
    let cols = if inner_w >= col_w * 2 + 3 { 2 } else { 1 };
    let total: usize = blocks.iter().map(|b| b.len() + 1).sum();
    let target = total.div_ceil(cols);
    let mut columns: Vec<Vec<Line>> = vec![Vec::new()];
    for blk in blocks {
        let cur_len = columns.last().map_or(0, |c| c.len());
        if cur_len > 0 && cur_len + blk.len() > target && columns.len() < cols {
            columns.push(Vec::new());
        }
        if let Some(c) = columns.last_mut() {
            if !c.is_empty() {
                c.push(Line::default());
            }
            c.extend(blk);
        }
    }
    let intro = wrap(
        "isolint compares a profile's declared settings with trusted fixture labels. Its verdict is at most \
         \"eligible for runtime testing\" — not proof of enforcement.",
        inner_w,
    );
    let rows = columns.iter().map(|c| c.len()).max().unwrap_or(0);
    let h = (intro.len() + 1 + rows + 2) as u16;
    let h = h.min(area.height.saturating_sub(2));
    let rect = Rect {
        x: area.x + (area.width.saturating_sub(w)) / 2,
        y: area.y + (area.height.saturating_sub(h)) / 2,
        width: w,
        height: h,
    };
    let mut lines: Vec<Line> = intro
        .into_iter()
        .map(|l| Line::styled(l, theme::dim()))
        .collect();
    lines.push(Line::default());
    for r in 0..rows {
        let mut spans = Vec::new();
        for (ci, c) in columns.iter().enumerate() {
            let cell = c.get(r).cloned().unwrap_or_default();
            let cw = cell.width();
            spans.extend(cell.spans);
            if ci + 1 < columns.len() {
                spans.push(Span::raw(" ".repeat(col_w.saturating_sub(cw) + 3)));
            }
        }
        lines.push(Line::from(spans));
    }
    (rect, lines)
}
