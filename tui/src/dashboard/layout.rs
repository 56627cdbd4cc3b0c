//! Layout arithmetic shared by the view and `update`: where each pane goes
//! at a given size, and how far a pane can scroll. Pure functions of the
//! model and the terminal size; nothing here draws.

use super::content::{
    check_lines, detail_lines, fix_lines, help_content, mount_lines, observed, rule_lines,
};
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
            let rows = g.groups.get(app.nav().area).map_or(0, |a| a.shown.len());
            let (_, _, d, _) = findings_layout(&g, rows, app.zoom, body);
            let lines = app.selected_issue().map_or(0, |i| {
                let notes = app.slot().map_or(&[][..], |s| &s.notes);
                detail_lines(report, i, d.width.saturating_sub(2) as usize, notes).len()
            });
            (d, lines)
        }
        Tab::Mounts => match (
            mounts_layout(report, app.zoom, body),
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

/// How far one PgDn/PgUp moves in the help overlay.
pub fn help_page(app: &App) -> u16 {
    let (rect, _) = help_content(Rect::new(0, 0, app.size.0, app.size.1));
    rect.height.saturating_sub(3).max(1)
}

/// How many rows one PgDn/PgUp moves in the profiles list: the rows in
/// view less one.
pub fn profiles_page(app: &App) -> usize {
    let [_, _, _, _, body, _] = screen_layout(Rect::new(0, 0, app.size.0, app.size.1));
    // Borders and the header row.
    (body.height.saturating_sub(4) as usize).max(1)
}

/// What a click landed on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Hit {
    /// A slot of the profiles list.
    Profile(usize),
    /// A row of the findings list (its position in the current area).
    Finding(usize),
    /// An area in the areas pane.
    Area(usize),
}

fn inside(r: Rect, column: u16, row: u16) -> bool {
    column >= r.x && column < r.x + r.width && row >= r.y && row < r.y + r.height
}

/// The first row in view of a list whose selection is `selected` and which
/// shows `rows` at once (ratatui scrolls just far enough to show it).
fn first_in_view(selected: usize, rows: usize) -> usize {
    (selected + 1).saturating_sub(rows.max(1))
}

/// The tab whose name is at this cell of the tab bar.
pub fn tab_at(app: &App, column: u16, row: u16) -> Option<Tab> {
    let area = Rect::new(0, 0, app.size.0, app.size.1);
    let [_, _, _, bar, _, _] = screen_layout(area);
    if row != bar.y {
        return None;
    }
    // The same arithmetic as the tab bar: a space, then "[d Title]" or
    // " d Title " and a space for each tab.
    let tabs = Tab::shown(app.slots.len());
    let full: usize = 1 + tabs.iter().map(|t| width(t.title()) + 5).sum::<usize>();
    let short = full > area.width as usize;
    let mut x = 1usize;
    for t in tabs {
        let title = if short { t.short_title() } else { t.title() };
        let w = width(title) + 4;
        if (x..x + w).contains(&(column as usize)) {
            return Some(*t);
        }
        x += w + 1;
    }
    None
}

/// The list row under a cell, in the profiles list and the findings tab.
pub fn row_at(app: &App, column: u16, row: u16) -> Option<Hit> {
    let area = Rect::new(0, 0, app.size.0, app.size.1);
    if area.width < MIN_SIZE.0 || area.height < MIN_SIZE.1 {
        return None;
    }
    let [_, _, _, _, body, _] = screen_layout(area);
    match app.tab {
        Tab::Profiles => {
            // Inside the borders, below the header row.
            let top = body.y + 2;
            if !inside(body, column, row) || row < top || row + 1 >= body.y + body.height {
                return None;
            }
            let shown = app.shown_profiles();
            let rows = body.height.saturating_sub(3) as usize;
            let selected = shown.iter().position(|&i| i == app.current).unwrap_or(0);
            let k = first_in_view(selected, rows) + (row - top) as usize;
            shown.get(k).map(|&i| Hit::Profile(i))
        }
        Tab::Findings if !app.zoom => {
            let report = app.report()?;
            let g = model::group(report, &app.filter);
            let nav = app.nav();
            let shown = g.groups.get(nav.area).map_or(0, |a| a.shown.len());
            let (a, l, _, _) = findings_layout(&g, shown, false, body);
            let hit = |r: Rect, selected: usize, len: usize| -> Option<usize> {
                if !inside(r, column, row) || row == r.y || row + 1 >= r.y + r.height {
                    return None;
                }
                let rows = r.height.saturating_sub(2) as usize;
                let k = first_in_view(selected, rows) + (row - r.y - 1) as usize;
                (k < len).then_some(k)
            };
            if let Some(k) = hit(l, nav.cursor, shown) {
                return Some(Hit::Finding(k));
            }
            hit(a, nav.area, g.groups.len()).map(Hit::Area)
        }
        _ => None,
    }
}

/// Whether a cell is over the detail pane of the current tab.
pub fn over_detail(app: &App, column: u16, row: u16) -> bool {
    let area = Rect::new(0, 0, app.size.0, app.size.1);
    if area.width < MIN_SIZE.0 || area.height < MIN_SIZE.1 {
        return false;
    }
    let [_, _, _, _, body, _] = screen_layout(area);
    let Some(report) = app.report() else {
        return false;
    };
    let pane = match app.tab {
        Tab::Profiles => return false,
        Tab::Findings => {
            let g = model::group(report, &app.filter);
            let rows = g.groups.get(app.nav().area).map_or(0, |a| a.shown.len());
            findings_layout(&g, rows, app.zoom, body).2
        }
        Tab::Mounts => match mounts_layout(report, app.zoom, body) {
            Some((_, d, _)) => d,
            None => return false,
        },
        Tab::Checks => checks_layout(body).1,
        Tab::Rules => rules_layout(body).1,
    };
    inside(pane, column, row)
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

/// Areas, findings list, detail, source, sized by what they hold: the list
/// takes the rows it has (up to a share of the height), the detail the
/// rest. The areas pane is left out below 100 columns (the list's title
/// names the area; ←/→ still move between areas), and the source below
/// 16 rows, so that the detail stays readable down to the smallest screen.
/// `rows`: findings the list shows; `zoom`: Enter drilled into the
/// finding, which gives the detail and the source the whole body. A pane
/// left out is an empty `Rect`.
pub(crate) fn findings_layout(
    g: &Grouped,
    rows: usize,
    zoom: bool,
    area: Rect,
) -> (Rect, Rect, Rect, Rect) {
    let none = Rect::new(area.x, area.y, 0, 0);
    if zoom {
        let (d, s) = split_bottom(area);
        return (none, none, d, s);
    }
    let wide = area.width >= 110 && area.height >= 28;
    let list_h = |column: u16| -> u16 {
        let want = u16::try_from(rows.max(1))
            .unwrap_or(u16::MAX)
            .saturating_add(2);
        want.min((column * 2 / 5).max(3)).max(3)
    };
    if wide {
        // Areas and list side by side on top, as tall as the list needs
        // (at least 8 rows, so several areas stay in view; the areas pane
        // scrolls to the selected one); detail and source share the rest.
        let top_h = list_h(area.height).clamp(8, 14);
        let [top, bottom] =
            Layout::vertical([Constraint::Length(top_h), Constraint::Min(0)]).areas(area);
        let [a, l] =
            Layout::horizontal([Constraint::Length(areas_width(g)), Constraint::Min(0)]).areas(top);
        let [d, s] = Layout::horizontal([Constraint::Percentage(50), Constraint::Percentage(50)])
            .areas(bottom);
        return (a, l, d, s);
    }
    let show_areas = area.width >= 100;
    // Stacked: the source spans the full width below, where long lines
    // wrap least, and only where a few of its lines still leave the
    // detail room.
    let source_h = match area.height {
        0..16 => 0,
        16..30 => 4,
        h => (h / 4).min(10),
    };
    let [top, s] = Layout::vertical([Constraint::Min(0), Constraint::Length(source_h)]).areas(area);
    let (areas_r, right) = if show_areas {
        let [a, r] =
            Layout::horizontal([Constraint::Length(areas_width(g)), Constraint::Min(0)]).areas(top);
        (a, r)
    } else {
        (none, top)
    };
    let [l, d] = Layout::vertical([Constraint::Length(list_h(right.height)), Constraint::Min(0)])
        .areas(right);
    (areas_r, l, d, s)
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
pub(crate) fn mounts_layout(report: &Report, zoom: bool, area: Rect) -> Option<(Rect, Rect, Rect)> {
    if report.mounts.is_empty() {
        return None;
    }
    if zoom {
        let (d, s) = split_bottom(area);
        return Some((Rect::new(area.x, area.y, 0, 0), d, s));
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

/// Where the fix pane goes on a screen of `area`: over everything but
/// the identity line (which file) and the hint bar (which keys), full
/// width, as a diff needs every column it can get.
pub(crate) fn fix_rect(area: Rect) -> Rect {
    Rect::new(
        area.x,
        area.y + 1,
        area.width,
        area.height.saturating_sub(2),
    )
}

/// The fix pane's rows in view, and its lines at the current size.
fn fix_view(app: &App) -> Option<(usize, usize)> {
    let p = app.fix.as_ref()?;
    let rect = fix_rect(Rect::new(0, 0, app.size.0, app.size.1));
    let lines = fix_lines(p, rect.width.saturating_sub(2) as usize).len();
    Some((rect.height.saturating_sub(2) as usize, lines))
}

/// How far the fix pane can scroll at the current size.
pub fn max_fix_scroll(app: &App) -> u16 {
    fix_view(app).map_or(0, |(h, n)| {
        n.saturating_sub(h).min(u16::MAX as usize) as u16
    })
}

/// How far one PgDn/PgUp moves in the fix pane.
pub fn fix_page(app: &App) -> u16 {
    fix_view(app).map_or(1, |(h, _)| h.saturating_sub(1).max(1) as u16)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn empty() -> Grouped {
        Grouped {
            groups: Vec::new(),
            total: 0,
            shown: 0,
        }
    }

    /// The list takes the rows it has and the detail the rest, at every
    /// size from the smallest screen up; a pane never shrinks to its title
    /// bar (a height of 1 or 2), it is either left out or usable.
    #[test]
    fn panes_are_sized_by_content_at_every_size() {
        let g = empty();
        // Every height, and widths around each threshold (100, 110).
        for w in (MIN_SIZE.0..=160).filter(|w| w % 7 == 0 || (98..=112).contains(w)) {
            for h in MIN_SIZE.1..=50 {
                let [_, _, _, _, body, _] = screen_layout(Rect::new(0, 0, w, h));
                for rows in [0, 1, 3, 8, 40] {
                    for zoom in [false, true] {
                        let (a, l, d, s) = findings_layout(&g, rows, zoom, body);
                        for (name, r) in [("areas", a), ("list", l), ("detail", d), ("source", s)] {
                            assert!(
                                r.height == 0 || r.width == 0 || r.height >= 3,
                                "{w}x{h} rows {rows} zoom {zoom}: {name} collapsed to {r:?}"
                            );
                        }
                        assert!(d.height >= 3, "{w}x{h} rows {rows}: no detail {d:?}");
                        let wide = body.width >= 110 && body.height >= 28;
                        if !zoom && !wide && rows + 2 <= l.height as usize {
                            assert_eq!(
                                l.height as usize,
                                rows.max(1) + 2,
                                "{w}x{h}: list larger than its rows"
                            );
                        }
                    }
                }
            }
        }
    }

    /// At 80x24 the detail gets more than five lines (it had five, so the
    /// fix needed two or three PgDn), and the list still shows five
    /// findings when it has them.
    #[test]
    fn the_detail_is_readable_at_80x24() {
        let [_, _, _, _, body, _] = screen_layout(Rect::new(0, 0, 80, 24));
        let (a, l, d, s) = findings_layout(&empty(), 5, false, body);
        assert_eq!(a.width, 0, "no areas pane at 80 columns");
        assert_eq!(l.height, 6, "four findings in view");
        assert!(d.height >= 9, "{d:?}");
        assert!(s.height >= 4, "{s:?}");
        assert_eq!(d.width, 80);
    }
}
