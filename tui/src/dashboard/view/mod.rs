//! The view: draws borrowed state, changes nothing, touches no file.
//! Everything that came from a profile passes through `safe` (control
//! characters neutralized) before it reaches the buffer; secrets were
//! already masked by core.

use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Paragraph, Row, Widget};
use ratatui::Frame;

use super::model::{self, App, Mode, Tab};
use super::text::{truncate, width};
use super::theme;

mod chrome;
pub(crate) mod findings;
mod fix;
pub(crate) mod help;
pub(crate) mod mounts;
pub(crate) mod plan;
mod profiles;
pub(crate) mod rules;

use super::layout::*;
use chrome::*;
use findings::*;
use fix::*;
use help::*;
pub(crate) use isolint_core::text::plural;
use mounts::*;
use plan::*;
use profiles::*;
use rules::*;

/// Draw the whole screen.
pub fn view(app: &App, frame: &mut Frame) {
    frame.render_widget(app, frame.area());
}

impl Widget for &App {
    fn render(self, area: Rect, buf: &mut Buffer) {
        if area.width < MIN_SIZE.0 || area.height < MIN_SIZE.1 {
            render_too_small(area, buf);
            return;
        }
        let [ident, banner, counts, tabs, body, status] = screen_layout(area);
        render_ident(self, ident, buf);
        match self.slot().map(|s| &s.outcome) {
            Some(Ok(report)) => {
                let grouped = model::group(report, &self.filter);
                render_banner(report, banner, buf);
                render_counts(self, report, &grouped, counts, buf);
                render_tabs(self, tabs, buf);
                match self.tab {
                    Tab::Profiles => render_profiles_tab(self, body, buf),
                    Tab::Findings => render_findings_tab(self, report, &grouped, body, buf),
                    Tab::Mounts => render_mounts_tab(self, report, body, buf),
                    Tab::Checks => render_checks_tab(self, report, body, buf),
                    Tab::Rules => render_rules_tab(self, Some(report), body, buf),
                }
            }
            Some(Err(e)) => {
                line(vec![Span::styled(
                    pad(
                        " no verdict — this profile could not be audited",
                        banner.width,
                    ),
                    theme::input_error(),
                )])
                .render(banner, buf);
                let place = match (e.line, e.column) {
                    (Some(l), Some(c)) => {
                        format!(" input error at line {l}, column {c}: no findings until it parses")
                    }
                    _ => " input error: no findings until the file can be read".to_string(),
                };
                line(vec![Span::styled(
                    truncate(&place, counts.width as usize),
                    theme::status_error(),
                )])
                .render(counts, buf);
                render_tabs(self, tabs, buf);
                match self.tab {
                    Tab::Rules => render_rules_tab(self, None, body, buf),
                    Tab::Profiles => render_profiles_tab(self, body, buf),
                    _ => render_error(e, body, buf),
                }
            }
            None => {}
        }
        render_status(self, status, buf);
        if self.mode == Mode::Fix {
            render_fix(self, area, buf);
        }
        if self.mode == Mode::Help {
            render_help(self, area, buf);
        }
    }
}

pub(crate) fn line(spans: Vec<Span<'_>>) -> Paragraph<'_> {
    Paragraph::new(Line::from(spans))
}

pub(crate) fn pad(s: &str, w: u16) -> String {
    let s = truncate(s, w as usize);
    let fill = (w as usize).saturating_sub(width(&s));
    format!("{s}{}", " ".repeat(fill))
}

pub(crate) fn pane(title: String) -> Block<'static> {
    Block::bordered()
        .border_style(theme::border())
        .title(Span::styled(format!(" {title} "), theme::title()))
}

/// A scrollable pane of pre-wrapped lines, with "more" markers.
pub(crate) fn render_scrolled(
    title: String,
    lines: Vec<Line<'static>>,
    scroll: u16,
    area: Rect,
    buf: &mut Buffer,
) {
    let h = area.height.saturating_sub(2) as usize;
    let max_scroll = lines.len().saturating_sub(h);
    let top = (scroll as usize).min(max_scroll);
    let mut block = pane(title);
    if top > 0 {
        block = block.title_bottom(Line::styled(" ↑ PgUp ", theme::dim()).left_aligned());
    }
    if top < max_scroll {
        block = block.title_bottom(Line::styled(" more ↓ PgDn ", theme::dim()).right_aligned());
    }
    let shown: Vec<Line> = lines.into_iter().skip(top).take(h).collect();
    Paragraph::new(shown).block(block).render(area, buf);
}

/// The widths a `Table` with the "› " selection column will give its
/// columns, so cells can be cut with a visible `…` rather than silently
/// (a silently cut path reads as a different path).
pub(crate) fn column_widths(constraints: &[Constraint], table_area: Rect) -> Vec<usize> {
    let inner = table_area.width.saturating_sub(2 + 2);
    Layout::horizontal(constraints.to_vec())
        .flex(ratatui::layout::Flex::Start)
        .spacing(1)
        .split(Rect::new(0, 0, inner, 1))
        .iter()
        .map(|r| r.width as usize)
        .collect()
}

/// A row whose cells are cut to `widths` with `…`.
pub(crate) fn fitted_row(cells: Vec<Span<'static>>, widths: &[usize]) -> Row<'static> {
    Row::new(
        cells
            .into_iter()
            .zip(widths.iter().copied().chain(std::iter::repeat(usize::MAX)))
            .map(|(c, w)| Span::styled(truncate(&c.content, w), c.style))
            .collect::<Vec<_>>(),
    )
}
