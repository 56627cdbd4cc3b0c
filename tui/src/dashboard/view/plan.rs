//! The runtime-check plan tab.

use super::super::content::{check_lines, lines_of, observed, safe, status_style};
use super::super::layout::*;
use super::super::model::App;
use super::super::theme;
use super::{column_widths, fitted_row, pane, plural, render_scrolled};
use isolint_core::model::StringEnum;
use isolint_core::observe::Status;
use isolint_core::report::RuntimeCheck;
use isolint_core::Report;
use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Rect};
use ratatui::text::Span;
use ratatui::widgets::{HighlightSpacing, Row, StatefulWidget, Table, TableState};

/// `rc-` and twelve hex digits.
const ID_WIDTH: u16 = 15;

/// The width of a column that holds the longest `cell` of this plan
/// whole (`capabilities-dropped` is 20 columns, `within-declared` 15):
/// kinds and expectations are few and short, and a cut one reads as
/// another. The targets take what is left.
fn content_width(report: &Report, header: &str, cell: impl Fn(&RuntimeCheck) -> &str) -> u16 {
    let longest = report
        .runtime_checks
        .iter()
        .map(|c| cell(c).len())
        .max()
        .unwrap_or(0);
    u16::try_from(longest.max(header.len())).unwrap_or(u16::MAX)
}

pub(crate) fn render_checks_tab(app: &App, report: &Report, area: Rect, buf: &mut Buffer) {
    let checks = &report.runtime_checks;
    let (table_r, bottom) = checks_layout(area);
    let joined = observed(app, report);
    // Whole ids where the targets keep room (an id is how a reviewer
    // finds the check in the export and in the observations); a prefix
    // on a narrow screen long enough (six hex digits) that rows never
    // look alike; the detail below always names the whole id.
    let id_width = if table_r.width >= 100 { ID_WIDTH } else { 10 };
    // Below 80 columns the expectation is cut (the detail says it whole)
    // so that the targets keep some room.
    let expect_width = match content_width(report, "expect", |c| c.expect.as_str()) {
        w if table_r.width < 80 => w.min(8),
        w => w,
    };
    let mut widths = vec![
        Constraint::Length(id_width),
        Constraint::Length(content_width(report, "kind", |c| c.kind.as_str())),
        Constraint::Length(expect_width),
    ];
    if joined.is_some() {
        widths.push(Constraint::Length(14));
    }
    widths.push(Constraint::Fill(1));
    let cols = column_widths(&widths, table_r);
    let rows: Vec<Row> = checks
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let mut cells = vec![
                Span::raw(safe(&c.id).into_owned()),
                Span::raw(c.kind.as_str()),
                Span::raw(c.expect.as_str()),
            ];
            if let Some(j) = &joined {
                cells.push(match j.checks.get(i) {
                    Some(r) => Span::styled(r.status.as_str(), status_style(r.status)),
                    None => Span::styled("not-observable", theme::dim()),
                });
            }
            cells.push(Span::raw(safe(&c.target.to_string()).into_owned()));
            fitted_row(cells, &cols)
        })
        .collect();
    let mut header = vec!["id", "kind", "expect"];
    if joined.is_some() {
        header.push("observed");
    }
    header.push("target");
    let mut title = format!(
        "Runtime-check plan · {} for the runtime verifier",
        plural(checks.len(), "check")
    );
    if let Some(j) = &joined {
        title = format!(
            "Runtime-check plan · observed: {} agree, {} disagree, {} not observable, {} stale",
            j.count(Status::Agrees),
            j.count(Status::Disagrees),
            j.count(Status::NotObservable),
            j.count(Status::Stale)
        );
    }
    let table = Table::new(rows, widths)
        .header(Row::new(header).style(theme::label()))
        .block(pane(title))
        .highlight_symbol("› ")
        .highlight_spacing(HighlightSpacing::Always)
        .row_highlight_style(theme::selected());
    let mut state =
        TableState::default().with_selected((!checks.is_empty()).then_some(app.nav().check));
    StatefulWidget::render(table, table_r, buf, &mut state);
    let w = bottom.width.saturating_sub(2) as usize;
    let lines = match checks.get(app.nav().check) {
        Some(c) => check_lines(
            c,
            joined.as_ref().and_then(|j| j.checks.get(app.nav().check)),
            w,
        ),
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
