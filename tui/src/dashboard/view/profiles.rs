//! The profiles tab (k9s style): every audited profile of every file.

use super::super::content::safe;
use super::super::model::App;
use super::super::text::{truncate, truncate_left};
use super::super::theme;
use super::{column_widths, fitted_row, pane, plural};
use isolint_core::Severity;
use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Rect};
use ratatui::text::Span;
use ratatui::widgets::{HighlightSpacing, Row, StatefulWidget, Table, TableState};

/// Every audited profile (k9s style): verdict, counts by severity, file
/// and the part of the file; not eligible first; the current one selected.
pub(crate) fn render_profiles_tab(app: &App, area: Rect, buf: &mut Buffer) {
    let shown = app.shown_profiles();
    let widths = [
        Constraint::Length(12),
        Constraint::Length(4),
        Constraint::Length(4),
        Constraint::Length(4),
        Constraint::Length(4),
        Constraint::Length(4),
        Constraint::Fill(1),
    ];
    let cols = column_widths(&widths, area);
    let name_w = cols.last().copied().unwrap_or(20);
    let rows: Vec<Row> = shown
        .iter()
        .filter_map(|&i| app.slots.get(i))
        .map(|slot| {
            let (verdict, style) = match &slot.outcome {
                Ok(r) if r.verdict == isolint_core::Verdict::NotEligible => {
                    ("not eligible", theme::verdict(r.verdict))
                }
                Ok(r) => ("eligible", theme::verdict(r.verdict)),
                Err(_) => ("no verdict", theme::input_error()),
            };
            let mut cells = vec![Span::styled(verdict, style)];
            for sev in Severity::ALL {
                let n = slot.outcome.as_ref().map_or(0, |r| r.summary.count(sev));
                cells.push(if n > 0 {
                    Span::styled(n.to_string(), theme::severity(sev))
                } else {
                    Span::styled("·", theme::dim())
                });
            }
            // Cut from the left: the end of `file#container` tells
            // profiles apart.
            cells.push(Span::raw(truncate_left(&safe(&slot.title()), name_w)));
            fitted_row(cells, &cols)
        })
        .collect();
    let mut header = vec!["verdict".to_string()];
    header.extend(
        Severity::ALL
            .iter()
            .map(|s| theme::severity_tag(*s).to_string()),
    );
    header.push("file#profile".to_string());
    let blocking = app.slots.iter().filter(|s| s.rank() == 0).count();
    let failed = app.slots.iter().filter(|s| s.outcome.is_err()).count();
    let mut title = format!("Profiles · {}", plural(app.slots.len(), "profile"));
    if blocking > 0 {
        title.push_str(&format!(" · {blocking} not eligible"));
    }
    if failed > 0 {
        title.push_str(&format!(" · {failed} without a verdict"));
    }
    if !app.profile_query.is_empty() {
        title.push_str(&format!(
            " · filter \"{}\": {} shown",
            truncate(&safe(&app.profile_query), 20),
            shown.len()
        ));
    }
    let table = Table::new(rows, widths)
        .header(Row::new(header).style(theme::label()))
        .block(pane(title))
        .highlight_symbol("› ")
        .highlight_spacing(HighlightSpacing::Always)
        .row_highlight_style(theme::selected());
    let mut state =
        TableState::default().with_selected(shown.iter().position(|&i| i == app.current));
    StatefulWidget::render(table, area, buf, &mut state);
}
