//! The findings tab: areas, the list of an area, the selected finding's
//! detail and its place in the source.

use super::super::content::{detail_lines, lines_of, safe};
use super::super::layout::*;
use super::super::model::App;
use super::super::text::{self, truncate, truncate_left, width};
use super::super::theme;
use super::{pad, pane, plural, render_scrolled};
use isolint_core::view_model::{self as vm, Grouped};
use isolint_core::Report;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{
    HighlightSpacing, List, ListItem, ListState, Paragraph, StatefulWidget, Widget,
};

pub(crate) fn render_findings_tab(
    app: &App,
    report: &Report,
    g: &Grouped,
    area: Rect,
    buf: &mut Buffer,
) {
    let nav = app.nav();
    let group = g.groups.get(nav.area);
    let rows = group.map_or(0, |a| a.shown.len());
    let (areas_r, list_r, detail_r, source_r) = findings_layout(g, rows, app.zoom, area);
    if areas_r.width > 0 {
        render_areas(g, nav.area, areas_r, buf);
    }
    if list_r.height > 0 {
        // Without the areas pane the list's title says which area it
        // shows and where that area stands among the others.
        let position = (areas_r.width == 0).then(|| (nav.area + 1, g.groups.len()));
        render_finding_list(report, group, nav.cursor, position, list_r, buf);
    }
    let selected = group.and_then(|a| a.shown.get(nav.cursor)).copied();
    match selected.and_then(|i| report.issues.get(i).map(|f| (i, f))) {
        Some((i, f)) => {
            render_detail(app, report, i, detail_r, buf);
            let (line, column) = vm::shown_position(report, f);
            let title = format!(
                "Source · {}:{}",
                truncate_left(&safe(&file_name(report)), 30),
                line.map_or(String::new(), |l| l.to_string())
            );
            render_source(report, line, column, title, source_r, buf);
        }
        None => {
            let msg = if g.total == 0 {
                "No findings: nothing in this profile contradicts the labels or the rules. That makes it \
                 eligible for runtime testing only — a runtime verifier must still run the checks in tab 3."
            } else {
                "Select a finding to see its detail."
            };
            Paragraph::new(lines_of(msg, detail_r.width.saturating_sub(2)))
                .block(pane("Detail".into()))
                .render(detail_r, buf);
            render_source(
                report,
                None,
                None,
                format!("Source · {}", safe(&file_name(report))),
                source_r,
                buf,
            );
        }
    }
}

/// The base name of the shown source: the original file of an imported
/// profile, else the profile.
pub(crate) fn file_name(report: &Report) -> String {
    let (s, _) = vm::shown_source(report);
    s.rsplit('/').next().unwrap_or(s).to_string()
}

pub(crate) fn render_areas(g: &Grouped, selected: usize, area: Rect, buf: &mut Buffer) {
    let inner_w = area.width.saturating_sub(4) as usize;
    let items: Vec<ListItem> = g
        .groups
        .iter()
        .map(|a| {
            let count = count_label(a);
            let title_w = inner_w.saturating_sub(width(&count) + 1);
            let title = pad(a.title, title_w as u16);
            let count_style = match a.worst {
                Some(s) if !a.shown.is_empty() => theme::severity(s),
                _ => theme::dim(),
            };
            let title_style = if a.total == 0 {
                theme::dim()
            } else {
                Style::new()
            };
            ListItem::new(Line::from(vec![
                Span::styled(title, title_style),
                Span::raw(" "),
                Span::styled(count, count_style),
            ]))
        })
        .collect();
    let list = List::new(items)
        .block(pane("Areas".into()))
        .highlight_symbol("› ")
        .highlight_spacing(HighlightSpacing::Always)
        .highlight_style(theme::selected());
    let mut state = ListState::default().with_selected(Some(selected));
    StatefulWidget::render(list, area, buf, &mut state);
}

pub(crate) fn render_finding_list(
    report: &Report,
    group: Option<&vm::AreaGroup>,
    cursor: usize,
    position: Option<(usize, usize)>,
    area: Rect,
    buf: &mut Buffer,
) {
    let Some(group) = group else { return };
    let area_title = match position {
        Some((at, of)) => format!("‹ {} {at}/{of} ›", group.title),
        None => group.title.to_string(),
    };
    // The position leads, as in a pager: "2 of 5" says where the cursor
    // is and that more lie beyond the pane's edge.
    let title = if group.shown.is_empty() {
        format!("{area_title} · {}", plural(group.total, "finding"))
    } else if group.shown.len() == group.total {
        format!(
            "{area_title} · {} of {}",
            cursor.min(group.shown.len() - 1) + 1,
            group.total
        )
    } else {
        format!(
            "{area_title} · {} of {} shown ({} in all)",
            cursor.min(group.shown.len() - 1) + 1,
            group.shown.len(),
            group.total
        )
    };
    let block = pane(title);
    if group.shown.is_empty() {
        let msg = if group.total == 0 {
            "No findings in this area.".to_string()
        } else {
            format!(
                "The filter hides all {} here (Esc clears it).",
                plural(group.total, "finding")
            )
        };
        Paragraph::new(lines_of(&msg, area.width.saturating_sub(2)))
            .block(block)
            .render(area, buf);
        return;
    }
    let inner_w = area.width.saturating_sub(4) as usize;
    let items: Vec<ListItem> = group
        .shown
        .iter()
        .filter_map(|&i| report.issues.get(i))
        .map(|f| {
            let lead = format!("{} {:<6} ", theme::severity_tag(f.severity), f.rule);
            let msg = truncate(&safe(&f.message), inner_w.saturating_sub(width(&lead)));
            ListItem::new(Line::from(vec![
                Span::styled(theme::severity_tag(f.severity), theme::severity(f.severity)),
                Span::raw(format!(" {:<6} ", f.rule)),
                Span::raw(msg),
            ]))
        })
        .collect();
    let list = List::new(items)
        .block(block)
        .highlight_symbol("› ")
        .highlight_spacing(HighlightSpacing::Always)
        .highlight_style(theme::selected());
    let mut state = ListState::default().with_selected(Some(cursor));
    StatefulWidget::render(list, area, buf, &mut state);
}

pub(crate) fn render_detail(
    app: &App,
    report: &Report,
    index: usize,
    area: Rect,
    buf: &mut Buffer,
) {
    let w = area.width.saturating_sub(2) as usize;
    render_scrolled(
        "Detail".into(),
        detail_lines(report, index, w, app.slot().map_or(&[], |s| &s.notes)),
        app.detail_scroll,
        area,
        buf,
    );
}

/// The masked profile source around `focus`, the focus line marked and
/// highlighted, its column emphasized; long lines wrap (indentation kept)
/// so nothing is hidden off to the side.
pub(crate) fn render_source(
    report: &Report,
    focus: Option<u32>,
    column: Option<u32>,
    title: String,
    area: Rect,
    buf: &mut Buffer,
) {
    if area.height == 0 || area.width == 0 {
        return;
    }
    let h = area.height.saturating_sub(2) as usize;
    let window = vm::source_window(report, focus.unwrap_or(1), h);
    let last = window.last().map_or(1, |(n, _)| *n);
    let num_w = last.to_string().len();
    let gutter_w = 2 + num_w + 3; // marker, space, number, " │ "
    let content_w = (area.width.saturating_sub(2) as usize)
        .saturating_sub(gutter_w)
        .max(1);
    let mut rows: Vec<Line> = Vec::new();
    let mut heads = Vec::new(); // rows that start a source line
    let mut focus_rows = None;
    let mut column_row = None;
    for (n, text) in window {
        let is_focus = Some(n) == focus;
        let first_row = rows.len();
        heads.push(first_row);
        for (i, (offset, part)) in text::wrap_code(&text, content_w).into_iter().enumerate() {
            let gutter = match (i, is_focus) {
                (0, true) => format!("▶ {n:>num_w$} │ "),
                (0, false) => format!("  {n:>num_w$} │ "),
                _ => format!("  {:>num_w$} ┆ ", ""),
            };
            if is_focus {
                let len = part.chars().count();
                if column.is_some_and(|c| {
                    (offset..offset + len.max(1)).contains(&(c as usize).saturating_sub(1))
                }) {
                    column_row = Some(rows.len());
                }
                let mut spans = vec![Span::styled(gutter, theme::focus_line())];
                spans.extend(emphasize_column(&part, offset, column, content_w));
                rows.push(Line::from(spans));
            } else {
                rows.push(Line::from(vec![
                    Span::styled(gutter, theme::dim()),
                    Span::raw(part),
                ]));
            }
        }
        if is_focus {
            focus_rows = Some((first_row, rows.len()));
        }
    }
    // Wrapping can push the focus line down: drop rows above it until it
    // shows, keeping about a third of the pane as context.
    // Start on a whole line rather than half of a wrapped one.
    let start = match focus_rows {
        // A focus line taller than the pane (minified JSON): show the part
        // holding the column.
        Some((fs, fe)) if fe - fs > h => column_row.map_or(fs, |r| r.saturating_sub(h / 3).max(fs)),
        Some((fs, fe)) if fe > h => {
            let at_least = fe.saturating_sub(h).max(fs.saturating_sub(h / 3)).min(fs);
            heads
                .into_iter()
                .find(|&r| r >= at_least)
                .unwrap_or(fs)
                .min(fs)
        }
        _ => 0,
    };
    let shown: Vec<Line> = rows.into_iter().skip(start).take(h).collect();
    Paragraph::new(shown).block(pane(title)).render(area, buf);
}

/// One row of the focus line, padded to the pane, with the character at
/// `column` (1-based, counted in characters) underlined.
pub(crate) fn emphasize_column(
    part: &str,
    offset: usize,
    column: Option<u32>,
    w: usize,
) -> Vec<Span<'static>> {
    let fill = " ".repeat(w.saturating_sub(width(part)));
    let at = column
        .map(|c| (c as usize).saturating_sub(1))
        .filter(|c| *c >= offset && *c < offset + part.chars().count());
    let Some(at) = at else {
        return vec![Span::styled(format!("{part}{fill}"), theme::focus_line())];
    };
    let chars: Vec<char> = part.chars().collect();
    let split = at - offset;
    let before: String = chars.iter().take(split).collect();
    let here: String = chars.iter().skip(split).take(1).collect();
    let after: String = chars.iter().skip(split + 1).collect();
    vec![
        Span::styled(before, theme::focus_line()),
        Span::styled(here, theme::focus_column()),
        Span::styled(format!("{after}{fill}"), theme::focus_line()),
    ]
}
