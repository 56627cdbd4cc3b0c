//! The mounts tab: every mount beside the label it exposes.

use super::super::content::{lines_of, mount_lines, safe};
use super::super::layout::*;
use super::super::model::{mount_order, App};
use super::super::text::width;
use super::super::theme;
use super::findings::*;
use super::{column_widths, fitted_row, pane, plural, render_scrolled};
use isolint_core::report::MountRow;
use isolint_core::Report;
use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Rect};
use ratatui::style::Style;
use ratatui::text::Span;
use ratatui::widgets::{
    HighlightSpacing, Paragraph, Row, StatefulWidget, Table, TableState, Widget,
};

pub(crate) fn render_mounts_tab(app: &App, report: &Report, area: Rect, buf: &mut Buffer) {
    let order = mount_order(report);
    if order.is_empty() {
        Paragraph::new(lines_of(
            "This profile declares no mounts. The runtime verifier still checks that the job cannot read the \
             sensitive locations in the plan (tab 3).",
            area.width.saturating_sub(2),
        ))
        .block(pane("Mounts vs labels".into()))
        .render(area, buf);
        return;
    }
    let n_rw = order
        .iter()
        .filter(|&&i| {
            report
                .mounts
                .get(i)
                .is_some_and(|m| m.access != "read-only")
        })
        .count();
    let n_ro = order.len() - n_rw;
    let label_w = report
        .mounts
        .iter()
        .map(|m| width(&safe(&m.label)))
        .max()
        .unwrap_or(8)
        .clamp(9, 26) as u16;
    let widths = [
        Constraint::Length(3),
        Constraint::Length(12),
        Constraint::Length(label_w),
        Constraint::Fill(3),
        Constraint::Fill(2),
    ];
    let Some((table_r, detail_r, source_r)) = mounts_layout(report, app.zoom, area) else {
        return;
    };
    let cols = column_widths(&widths, table_r);
    // Rows with a heading before each group; remember where each mount lands.
    let mut rows = Vec::new();
    let mut visual = Vec::new();
    for (pos, &i) in order.iter().enumerate() {
        if pos == 0 && n_rw > 0 {
            rows.push(heading_row("writable", &plural(n_rw, "mount")));
        }
        if pos == n_rw && n_ro > 0 {
            rows.push(heading_row("read-only", &plural(n_ro, "mount")));
        }
        visual.push(rows.len());
        if let Some(m) = report.mounts.get(i) {
            rows.push(mount_row(m, i, &cols));
        }
    }
    let selected = visual.get(app.nav().mount).copied();
    let table = Table::new(rows, widths)
        .header(Row::new(["#", "access", "label", "source", "target"]).style(theme::label()))
        .block(pane(format!(
            "Mounts vs labels · {}",
            plural(order.len(), "mount")
        )))
        .highlight_symbol("› ")
        .highlight_spacing(HighlightSpacing::Always)
        .row_highlight_style(theme::selected());
    let mut state = TableState::default().with_selected(selected);
    StatefulWidget::render(table, table_r, buf, &mut state);

    let Some(m) = app.selected_mount().and_then(|i| report.mounts.get(i)) else {
        return;
    };
    let w = detail_r.width.saturating_sub(2) as usize;
    render_scrolled(
        format!("Mount {}", safe(&m.pointer)),
        mount_lines(report, m, w),
        app.detail_scroll,
        detail_r,
        buf,
    );
    let title = format!(
        "Source · {}:{}",
        safe(&file_name(report)),
        m.line.map_or(String::new(), |l| l.to_string())
    );
    render_source(report, m.line, None, title, source_r, buf);
}

pub(crate) fn heading_row(kind: &str, what: &str) -> Row<'static> {
    Row::new(vec![String::new(), format!("{kind}:"), what.to_string()]).style(theme::label())
}

pub(crate) fn mount_row(m: &MountRow, index: usize, widths: &[usize]) -> Row<'static> {
    let style = if m.access == "read-only" {
        Style::new()
    } else {
        theme::writable()
    };
    fitted_row(
        vec![
            Span::raw(index.to_string()),
            Span::raw(safe(&m.access).into_owned()),
            Span::raw(safe(&m.label).into_owned()),
            Span::raw(safe(&m.source).into_owned()),
            Span::raw(safe(&m.target).into_owned()),
        ],
        widths,
    )
    .style(style)
}
