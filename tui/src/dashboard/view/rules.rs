//! The rules tab: the registry, with this profile's hits.

use super::super::app::App;
use super::super::layout::*;
use super::super::text::wrap;
use super::super::theme;
use super::{column_widths, field, fitted_row, pane, plural, render_scrolled};
use isolint_core::model::StringEnum;
use isolint_core::{Area, Report};
use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
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

pub(crate) fn rule_lines(app: &App, report: Option<&Report>, w: usize) -> Vec<Line<'static>> {
    let hits = |id: &str| report.map_or(0, |r| r.issues.iter().filter(|f| f.rule == id).count());
    let mut out = Vec::new();
    if let Some(r) = app.rules.get(app.rule) {
        out.push(Line::from(vec![
            Span::styled(format!("{} ", r.id), theme::title()),
            Span::raw(format!("{} · ", r.name)),
            Span::styled(r.severity.as_str(), theme::severity(r.severity)),
            Span::raw(format!(" · {}", area_title(r.area))),
        ]));
        for l in wrap(r.title, w) {
            out.push(Line::styled(l, theme::dim()));
        }
        out.push(Line::default());
        field(&mut out, "why", r.rationale, w, Style::new());
        out.push(Line::default());
        field(&mut out, "fix", r.remediation, w, Style::new());
        out.push(Line::default());
        field(
            &mut out,
            "runtime check",
            r.runtime_check.map_or("none", |k| k.as_str()),
            w,
            Style::new(),
        );
        field(
            &mut out,
            "in this profile",
            &plural(hits(r.id), "finding"),
            w,
            Style::new(),
        );
    }
    out
}

/// Mount rules file a finding under either mount area by the mount's
/// access, so the registry's area says only "mounts" for them.
pub(crate) fn area_title(a: Area) -> &'static str {
    match a {
        Area::WritableMounts | Area::ReadOnlyMounts => "Mounts",
        other => other.title(),
    }
}
