//! The help overlay, generated from the keymap table.

use super::super::content::help_content;
use super::super::model::App;
use super::super::theme;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Paragraph, Widget};

/// The help overlay, generated from the keymap table: one block per
/// section, laid out in as many columns as fit.
pub(crate) fn render_help(app: &App, area: Rect, buf: &mut Buffer) {
    let (rect, lines) = help_content(area);
    Clear.render(rect, buf);
    let inner_h = rect.height.saturating_sub(2) as usize;
    let max_scroll = lines.len().saturating_sub(inner_h);
    let top = (app.help_scroll as usize).min(max_scroll);
    let mut block = Block::bordered()
        .border_style(theme::title())
        .title(Span::styled(" Keys — ? or Esc closes ", theme::title()));
    if top > 0 {
        block = block.title_bottom(Line::styled(" ↑ k ", theme::dim()).left_aligned());
    }
    if top < max_scroll {
        block = block.title_bottom(Line::styled(" more ↓ j ", theme::dim()).right_aligned());
    }
    let shown: Vec<Line> = lines.into_iter().skip(top).collect();
    Paragraph::new(shown).block(block).render(rect, buf);
}
