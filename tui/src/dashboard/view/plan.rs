//! The runtime-check plan tab.

use super::super::app::App;
use super::super::layout::*;
use super::super::text::wrap;
use super::super::theme;
use super::{column_widths, field, fitted_row, lines_of, pane, plural, render_scrolled, safe};
use isolint_core::model::StringEnum;
use isolint_core::report::RuntimeCheck;
use isolint_core::Report;
use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{HighlightSpacing, Row, StatefulWidget, Table, TableState};

pub(crate) fn render_checks_tab(app: &App, report: &Report, area: Rect, buf: &mut Buffer) {
    let checks = &report.runtime_checks;
    let (table_r, bottom) = checks_layout(area);
    let widths = [
        Constraint::Length(6),
        Constraint::Length(18),
        Constraint::Length(8),
        Constraint::Fill(1),
    ];
    let cols = column_widths(&widths, table_r);
    let rows: Vec<Row> = checks
        .iter()
        .map(|c| {
            fitted_row(
                vec![
                    Span::raw(safe(&c.id).into_owned()),
                    Span::raw(c.kind.as_str()),
                    Span::raw(c.expect.as_str()),
                    Span::raw(safe(&c.target.to_string()).into_owned()),
                ],
                &cols,
            )
        })
        .collect();
    let table = Table::new(rows, widths)
        .header(Row::new(["id", "kind", "expect", "target"]).style(theme::label()))
        .block(pane(format!(
            "Runtime-check plan · {} for the runtime verifier",
            plural(checks.len(), "check")
        )))
        .highlight_symbol("› ")
        .highlight_spacing(HighlightSpacing::Always)
        .row_highlight_style(theme::selected());
    let mut state =
        TableState::default().with_selected((!checks.is_empty()).then_some(app.nav().check));
    StatefulWidget::render(table, table_r, buf, &mut state);
    let w = bottom.width.saturating_sub(2) as usize;
    let lines = match checks.get(app.nav().check) {
        Some(c) => check_lines(c, w),
        None => lines_of("This plan is empty.", w as u16),
    };
    render_scrolled(
        "Why this check".into(),
        lines,
        app.detail_scroll,
        bottom,
        buf,
    );
}

pub(crate) fn check_lines(c: &RuntimeCheck, w: usize) -> Vec<Line<'static>> {
    let mut out = Vec::new();
    field(
        &mut out,
        "check",
        &format!("{} {}", safe(&c.id), c.kind.as_str()),
        w,
        theme::title(),
    );
    field(
        &mut out,
        "target",
        &safe(&c.target.to_string()),
        w,
        Style::new(),
    );
    field(&mut out, "expect", c.expect.as_str(), w, Style::new());
    field(&mut out, "because", &safe(&c.because), w, Style::new());
    out.push(Line::default());
    for l in wrap(
        "isolint only compares declared settings; this check is what a runtime verifier must observe in the \
         launched environment. The plan is exported with the findings (runtime_checks).",
        w,
    ) {
        out.push(Line::styled(l, theme::dim()));
    }
    out
}
