//! The rules tab: the registry, with this profile's hits.

use super::super::content::rule_lines;
use super::super::layout::*;
use super::super::model::App;
use super::super::theme;
use super::{column_widths, fitted_row, pane, render_scrolled};
use isolint_core::Report;
use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Rect};
use ratatui::text::Span;
use ratatui::widgets::{HighlightSpacing, Row, StatefulWidget, Table, TableState};

pub(crate) fn render_rules_tab(app: &App, report: Option<&Report>, area: Rect, buf: &mut Buffer) {
    let hits = |id: &str| report.map_or(0, |r| r.issues.iter().filter(|f| f.rule == id).count());
    let (table_r, bottom) = rules_layout(area);
    let widths = [
        Constraint::Length(6),
        Constraint::Length(4),
        Constraint::Length(4),
        Constraint::Fill(1),
    ];
    let cols = column_widths(&widths, table_r);
    let rows: Vec<Row> = app
        .rules
        .iter()
        .map(|r| {
            let n = hits(r.id);
            fitted_row(
                vec![
                    Span::raw(r.id),
                    Span::styled(theme::severity_tag(r.severity), theme::severity(r.severity)),
                    Span::raw(if n > 0 { n.to_string() } else { String::new() }),
                    Span::raw(r.title),
                ],
                &cols,
            )
        })
        .collect();
    let table = Table::new(rows, widths)
        .header(Row::new(["rule", "sev", "hits", "title"]).style(theme::label()))
        .block(pane(format!("Rules · {} in the registry", app.rules.len())))
        .highlight_symbol("› ")
        .highlight_spacing(HighlightSpacing::Always)
        .row_highlight_style(theme::selected());
    let mut state =
        TableState::default().with_selected((!app.rules.is_empty()).then_some(app.rule));
    StatefulWidget::render(table, table_r, buf, &mut state);
    let w = bottom.width.saturating_sub(2) as usize;
    let out = rule_lines(app, report, w);
    let title = app
        .rules
        .get(app.rule)
        .map_or("Rule".to_string(), |r| format!("Rule {}", r.id));
    render_scrolled(title, out, app.detail_scroll, bottom, buf);
}
