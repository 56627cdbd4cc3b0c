//! Layout arithmetic shared by the view and `update`: where each pane goes
//! at a given size, and how far a pane can scroll. Pure functions of the
//! model and the terminal size; nothing here draws.

use super::content::{check_lines, detail_lines, help_content, mount_lines, observed, rule_lines};
use super::model::{self, App, Tab};
use super::text::width;
use isolint_core::view_model::{self as vm, Grouped};
use isolint_core::Report;
use ratatui::layout::{Constraint, Layout, Rect};

/// The smallest screen the dashboard draws on.
pub const MIN_SIZE: (u16, u16) = (40, 12);

/// Identity, banner, counts, tabs, body, status.
pub(crate) fn screen_layout(area: Rect) -> [Rect; 6] {
    Layout::vertical([
        Constraint::Length(1),
        Constraint::Length(1),
        Constraint::Length(1),
        Constraint::Length(1),
        Constraint::Min(0),
        Constraint::Length(1),
    ])
    .areas(area)
}

/// How far the detail pane of the current tab can scroll at the current
/// size (so scrolling stops at the end instead of running on unseen).
pub fn max_detail_scroll(app: &App) -> u16 {
    detail_extent(app).map_or(0, |(rows, lines)| {
        lines.saturating_sub(rows as usize).min(u16::MAX as usize) as u16
    })
}

/// How far one PgDn/PgUp moves the detail: a page less one row, so the
/// last row read stays in view as the first of the next page.
pub fn detail_page(app: &App) -> u16 {
    detail_extent(app).map_or(1, |(rows, _)| rows.saturating_sub(1).max(1))
}

/// The detail pane's inner height and its content's line count, for the
/// current tab at the current size.
pub(crate) fn detail_extent(app: &App) -> Option<(u16, usize)> {
    let area = Rect::new(0, 0, app.size.0, app.size.1);
    if area.width < MIN_SIZE.0 || area.height < MIN_SIZE.1 {
        return None;
    }
    let [_, _, _, _, body, _] = screen_layout(area);
    let report = app.report()?;
    let (pane, lines) = match app.tab {
        Tab::Profiles => return None,
        Tab::Findings => {
            let g = model::group(report, &app.filter);
            let (_, _, d, _) = findings_layout(&g, body);
            let lines = app.selected_issue().map_or(0, |i| {
                let notes = app.slot().map_or(&[][..], |s| &s.notes);
                detail_lines(report, i, d.width.saturating_sub(2) as usize, notes).len()
            });
            (d, lines)
        }
        Tab::Mounts => match (
            mounts_layout(report, body),
            app.selected_mount().and_then(|i| report.mounts.get(i)),
        ) {
            (Some((_, d, _)), Some(m)) => (
                d,
                mount_lines(report, m, d.width.saturating_sub(2) as usize).len(),
            ),
            _ => return None,
        },
        Tab::Checks => {
            let (_, d) = checks_layout(body);
            let lines = report.runtime_checks.get(app.nav().check).map_or(0, |c| {
                let joined = observed(app, report);
                let seen = joined.as_ref().and_then(|j| j.checks.get(app.nav().check));
                check_lines(c, seen, d.width.saturating_sub(2) as usize).len()
            });
            (d, lines)
        }
        Tab::Rules => {
            let (_, d) = rules_layout(body);
            (
                d,
                rule_lines(app, Some(report), d.width.saturating_sub(2) as usize).len(),
            )
        }
    };
    Some((pane.height.saturating_sub(2), lines))
}

/// How far the help overlay can scroll at the current size.
pub fn max_help_scroll(app: &App) -> u16 {
    let area = Rect::new(0, 0, app.size.0, app.size.1);
    let (rect, lines) = help_content(area);
    lines
        .len()
        .saturating_sub(rect.height.saturating_sub(2) as usize)
        .min(u16::MAX as usize) as u16
}

/// Areas, findings list, detail, source: side by side on wide screens,
/// stacked to the right of the areas otherwise.
pub(crate) fn findings_layout(g: &Grouped, area: Rect) -> (Rect, Rect, Rect, Rect) {
    let areas_w = areas_width(g);
    if area.width >= 110 && area.height >= 28 {
        let [top, bottom] =
            Layout::vertical([Constraint::Length(14), Constraint::Min(0)]).areas(area);
        let [a, l] =
            Layout::horizontal([Constraint::Length(areas_w), Constraint::Min(0)]).areas(top);
        let [d, s] = Layout::horizontal([Constraint::Percentage(50), Constraint::Percentage(50)])
            .areas(bottom);
        (a, l, d, s)
    } else {
        // Areas beside the list and detail; the source spans the full
        // width below, where long JSON lines wrap least.
        let top_h = (area.height * 3 / 5).max(14);
        let [top, s] =
            Layout::vertical([Constraint::Length(top_h), Constraint::Min(0)]).areas(area);
        let [a, right] =
            Layout::horizontal([Constraint::Length(areas_w), Constraint::Min(0)]).areas(top);
        let [l, d] =
            // The list gets half: at 80x24 that is 5 findings in view, not 3.
            Layout::vertical([Constraint::Percentage(50), Constraint::Percentage(50)]).areas(right);
        (a, l, d, s)
    }
}

pub(crate) fn count_label(a: &vm::AreaGroup) -> String {
    if a.shown.len() == a.total {
        a.total.to_string()
    } else {
        format!("{}/{}", a.shown.len(), a.total)
    }
}

pub(crate) fn areas_width(g: &Grouped) -> u16 {
    let title_w = g.groups.iter().map(|a| width(a.title)).max().unwrap_or(10);
    let count_w = g
        .groups
        .iter()
        .map(|a| width(&count_label(a)))
        .max()
        .unwrap_or(1);
    // borders + highlight symbol + title + space + count
    (2 + 2 + title_w + 1 + count_w).min(30) as u16
}

/// The mounts table (sized to its rows, at most half the body), then the
/// selected mount's detail and its source line. `None` without mounts.
pub(crate) fn mounts_layout(report: &Report, area: Rect) -> Option<(Rect, Rect, Rect)> {
    if report.mounts.is_empty() {
        return None;
    }
    let n_ro = report
        .mounts
        .iter()
        .filter(|m| m.access == "read-only")
        .count();
    let n_rw = report.mounts.len() - n_ro;
    let table_h = (report.mounts.len() as u16 + u16::from(n_rw > 0) + u16::from(n_ro > 0) + 3)
        .min(area.height / 2)
        .max(5);
    let [table_r, bottom] =
        Layout::vertical([Constraint::Length(table_h), Constraint::Min(0)]).areas(area);
    let (d, s) = split_bottom(bottom);
    Some((table_r, d, s))
}

/// Side by side when wide, stacked otherwise.
pub(crate) fn split_bottom(area: Rect) -> (Rect, Rect) {
    if area.width >= 110 {
        let [a, b] = Layout::horizontal([Constraint::Percentage(50), Constraint::Percentage(50)])
            .areas(area);
        (a, b)
    } else {
        let [a, b] =
            Layout::vertical([Constraint::Percentage(60), Constraint::Percentage(40)]).areas(area);
        (a, b)
    }
}

pub(crate) fn checks_layout(area: Rect) -> (Rect, Rect) {
    let [a, b] = Layout::vertical([Constraint::Percentage(60), Constraint::Min(0)]).areas(area);
    (a, b)
}

pub(crate) fn rules_layout(area: Rect) -> (Rect, Rect) {
    let [a, b] = Layout::vertical([Constraint::Percentage(55), Constraint::Min(0)]).areas(area);
    (a, b)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// At 80x24 (and every size up to the wide layout) the findings list
    /// gets at least half of the height beside the areas; before, it got
    /// 35%: three findings in view.
    #[test]
    fn the_findings_list_gets_half_the_column() {
        let g = Grouped {
            groups: Vec::new(),
            total: 0,
            shown: 0,
        };
        for (w, h) in [(80, 24), (100, 30), (60, 16), (120, 26)] {
            let [_, _, _, _, body, _] = screen_layout(Rect::new(0, 0, w, h));
            let (_, list, detail, _) = findings_layout(&g, body);
            if list.x != detail.x {
                continue; // the wide layout puts them side by side
            }
            let column = list.height + detail.height;
            assert!(list.height * 2 >= column, "{w}x{h}: {list:?} {detail:?}");
            if h >= 24 {
                assert!(list.height >= 7, "{w}x{h}: five findings in view");
            }
        }
    }
}
