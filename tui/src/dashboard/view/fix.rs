//! The fix pane (`f`, `F`), drawn over the tabs until `y` or Esc.

use super::super::content::fix_lines;
use super::super::layout::fix_rect;
use super::super::model::App;
use super::super::theme;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Paragraph, Widget};

pub(crate) fn render_fix(app: &App, area: Rect, buf: &mut Buffer) {
    let Some(p) = &app.fix else { return };
    let rect = fix_rect(area);
    Clear.render(rect, buf);
    let lines = fix_lines(p, rect.width.saturating_sub(2) as usize);
    let inner_h = rect.height.saturating_sub(2) as usize;
    let max_scroll = lines.len().saturating_sub(inner_h);
    let top = (p.scroll as usize).min(max_scroll);
    let title = match &p.target {
        Some((rule, _)) => format!(" Fix of {rule} — y applies, Esc closes "),
        None => " Every safe fix of this file — y applies, Esc closes ".to_string(),
    };
    let mut block = Block::bordered()
        .border_style(theme::title())
        .title(Span::styled(title, theme::title()));
    if top > 0 {
        block = block.title_bottom(Line::styled(" ↑ k ", theme::dim()).left_aligned());
    }
    if top < max_scroll {
        block = block.title_bottom(Line::styled(" more ↓ j ", theme::dim()).right_aligned());
    }
    let shown: Vec<Line> = lines.into_iter().skip(top).collect();
    Paragraph::new(shown).block(block).render(rect, buf);
}
