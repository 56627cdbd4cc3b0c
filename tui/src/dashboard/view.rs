//! The view: draws borrowed state, changes nothing, touches no file.
//! Everything that came from a profile passes through `safe` (control
//! characters neutralized) before it reaches the buffer; secrets were
//! already masked by core.

use std::borrow::Cow;

use isolint_core::model::StringEnum;
use isolint_core::report::{MountRow, RuntimeCheck};
use isolint_core::sanitize::neutralize;
use isolint_core::view_model::{self as vm, Grouped};
use isolint_core::{Area, Report, Severity};
use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{
    Block, Clear, HighlightSpacing, List, ListItem, ListState, Paragraph, Row, StatefulWidget,
    Table, TableState, Widget,
};
use ratatui::Frame;

use super::app::{self, mount_order, App, Mode, Tab};
use super::keymap::{self, KEYMAP};
use super::load::LoadError;
use super::text::{self, truncate, truncate_left, width, wrap};
use super::theme;

/// The smallest screen the dashboard draws on.
pub const MIN_SIZE: (u16, u16) = (40, 12);

/// Draw the whole screen.
pub fn view(app: &App, frame: &mut Frame) {
    frame.render_widget(app, frame.area());
}

fn safe(s: &str) -> Cow<'_, str> {
    neutralize(s)
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
                let grouped = app::group(report, &self.filter);
                render_banner(report, banner, buf);
                render_counts(self, report, &grouped, counts, buf);
                render_tabs(self, tabs, buf);
                match self.tab {
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
                if self.tab == Tab::Rules {
                    render_rules_tab(self, None, body, buf);
                } else {
                    render_error(e, body, buf);
                }
            }
            None => {}
        }
        render_status(self, status, buf);
        if self.mode == Mode::Help {
            render_help(self, area, buf);
        }
    }
}

/// Identity, banner, counts, tabs, body, status.
fn screen_layout(area: Rect) -> [Rect; 6] {
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
fn detail_extent(app: &App) -> Option<(u16, usize)> {
    let area = Rect::new(0, 0, app.size.0, app.size.1);
    if area.width < MIN_SIZE.0 || area.height < MIN_SIZE.1 {
        return None;
    }
    let [_, _, _, _, body, _] = screen_layout(area);
    let report = app.report()?;
    let (pane, lines) = match app.tab {
        Tab::Findings => {
            let g = app::group(report, &app.filter);
            let (_, _, d, _) = findings_layout(&g, body);
            let lines = app.selected_issue().map_or(0, |i| {
                detail_lines(report, i, d.width.saturating_sub(2) as usize).len()
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
                check_lines(c, d.width.saturating_sub(2) as usize).len()
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

fn line(spans: Vec<Span<'_>>) -> Paragraph<'_> {
    Paragraph::new(Line::from(spans))
}

fn pad(s: &str, w: u16) -> String {
    let s = truncate(s, w as usize);
    let fill = (w as usize).saturating_sub(width(&s));
    format!("{s}{}", " ".repeat(fill))
}

fn pane(title: String) -> Block<'static> {
    Block::bordered()
        .border_style(theme::border())
        .title(Span::styled(format!(" {title} "), theme::title()))
}

fn render_too_small(area: Rect, buf: &mut Buffer) {
    let msg = format!(
        "isolint needs at least {}×{}; this terminal is {}×{}. Enlarge it or press q.",
        MIN_SIZE.0, MIN_SIZE.1, area.width, area.height
    );
    let lines: Vec<Line> = wrap(&msg, area.width as usize)
        .into_iter()
        .map(Line::from)
        .collect();
    Paragraph::new(lines).render(area, buf);
}

/// `isolint · NAME · FILE ... labels: L · profile i/n`
fn render_ident(app: &App, area: Rect, buf: &mut Buffer) {
    let Some(slot) = app.slot() else { return };
    let total = area.width as usize;
    let file = safe(&slot.name).into_owned();
    let name = app.report().map(|r| truncate(&safe(&r.profile.name), 24));
    let labels = app
        .report()
        .map(|r| format!("labels: {}", safe(&r.labels_name)));
    let (i, n) = (app.current + 1, app.slots.len());
    let counter = |long: bool| match (n > 1, long) {
        (false, _) => None,
        (true, true) => Some(format!("profile {i}/{n} (n/p)")),
        (true, false) => Some(format!("{i}/{n}")),
    };
    // From the most to the least complete; the file name matters most, so
    // the first variant where it fits whole wins.
    let variants = [
        (true, name.clone(), labels.clone(), counter(true)),
        (true, name.clone(), None, counter(true)),
        (false, name.clone(), None, counter(false)),
        (false, None, None, counter(false)),
    ];
    let compose = |(brand, name, labels, counter): &(
        bool,
        Option<String>,
        Option<String>,
        Option<String>,
    )| {
        let mut left = String::from(" ");
        if *brand {
            left.push_str("isolint · ");
        }
        if let Some(nm) = name {
            left.push_str(nm);
            left.push_str(" · ");
        }
        let right: Vec<&str> = [labels.as_deref(), counter.as_deref()]
            .into_iter()
            .flatten()
            .collect();
        let right = if right.is_empty() {
            String::new()
        } else {
            format!("{} ", right.join(" · "))
        };
        (left, right)
    };
    let (left, right) = variants
        .iter()
        .map(compose)
        .find(|(l, r)| width(l) + width(&file) + 1 + width(r) <= total)
        .unwrap_or_else(|| compose(&variants[3]));
    let file_budget = total.saturating_sub(width(&left) + width(&right) + 1);
    let left = format!("{left}{}", truncate_left(&file, file_budget));
    let gap = total.saturating_sub(width(&left) + width(&right));
    line(vec![
        Span::styled(left, theme::title()),
        Span::raw(" ".repeat(gap)),
        Span::styled(right, theme::dim()),
    ])
    .render(area, buf);
}

fn render_banner(report: &Report, area: Rect, buf: &mut Buffer) {
    let b = vm::banner(report);
    line(vec![Span::styled(
        pad(&format!(" {}", b.headline), area.width),
        theme::verdict(b.verdict),
    )])
    .render(area, buf);
}

/// Severity counts on the left, what the filter shows on the right.
fn render_counts(app: &App, report: &Report, g: &Grouped, area: Rect, buf: &mut Buffer) {
    let b = vm::banner(report);
    let mut spans = vec![Span::raw(" ")];
    for (i, (part, sev)) in b.counts.split(" · ").zip(Severity::ALL).enumerate() {
        if i > 0 {
            spans.push(Span::styled(" · ", theme::dim()));
        }
        let style = if report.summary.count(sev) > 0 {
            theme::severity(sev)
        } else {
            theme::dim()
        };
        spans.push(Span::styled(part.to_string(), style));
    }
    let used: usize = spans.iter().map(|s| s.width()).sum();
    let avail = (area.width as usize).saturating_sub(used + 3);
    let right = if app.filter == vm::Filter::default() {
        let findings = plural(g.total, "finding");
        let checks = report.runtime_checks.len();
        let long = format!("{findings} · {} ", plural(checks, "runtime check"));
        if width(&long) <= avail {
            long
        } else {
            format!("{findings} · {} ", plural(checks, "check"))
        }
    } else {
        let mut parts = Vec::new();
        if app.filter.min_severity != Severity::Info {
            parts.push(format!("≥ {}", app.filter.min_severity.as_str()));
        }
        if !app.filter.query.is_empty() {
            parts.push(format!("\"{}\"", truncate(&safe(&app.filter.query), 20)));
        }
        let long = format!(
            "filter {} · {} of {} shown ",
            parts.join(" "),
            g.shown,
            g.total
        );
        if width(&long) <= avail {
            long
        } else {
            format!("{} · {}/{} ", parts.join(" "), g.shown, g.total)
        }
    };
    let right = truncate(&right, avail);
    spans.push(Span::raw(" ".repeat(
        (area.width as usize).saturating_sub(used + width(&right)),
    )));
    spans.push(Span::styled(right, theme::label()));
    line(spans).render(area, buf);
}

/// `[1 Findings]  2 Mounts vs labels  …` — brackets mark the active tab
/// for monochrome terminals.
fn render_tabs(app: &App, area: Rect, buf: &mut Buffer) {
    let mut spans = vec![Span::raw(" ")];
    for (i, t) in Tab::ALL.iter().enumerate() {
        let label = format!("{} {}", i + 1, t.title());
        if *t == app.tab {
            spans.push(Span::styled(format!("[{label}]"), theme::tab_active()));
        } else {
            spans.push(Span::styled(format!(" {label} "), theme::dim()));
        }
        spans.push(Span::raw(" "));
    }
    line(spans).render(area, buf);
}

fn render_status(app: &App, area: Rect, buf: &mut Buffer) {
    if app.mode == Mode::Search {
        let hints = hint_spans(Mode::Search);
        let hints_w: usize = hints.iter().map(|s| s.width()).sum();
        let budget = (area.width as usize).saturating_sub(hints_w + 4);
        let q = truncate_left(&safe(&app.filter.query), budget);
        let mut spans = vec![
            Span::styled(" /", theme::key()),
            Span::raw(q),
            Span::styled("▏", theme::key()),
        ];
        let used: usize = spans.iter().map(|s| s.width()).sum();
        spans.push(Span::raw(
            " ".repeat((area.width as usize).saturating_sub(used + hints_w)),
        ));
        spans.extend(hints);
        line(spans).render(area, buf);
        return;
    }
    if let Some(s) = &app.status {
        let style = if s.error {
            theme::status_error()
        } else {
            theme::status_info()
        };
        line(vec![Span::styled(
            truncate(&format!(" {}", safe(&s.text)), area.width as usize),
            style,
        )])
        .render(area, buf);
        return;
    }
    let mut spans = vec![Span::raw(" ")];
    spans.extend(hint_spans(app.mode));
    if app.slots.len() > 1 && app.mode == Mode::Normal {
        spans.push(Span::styled("n/p", theme::key()));
        spans.push(Span::raw(" profile  "));
    }
    line(spans).render(area, buf);
}

fn hint_spans(mode: Mode) -> Vec<Span<'static>> {
    keymap::hints(mode)
        .into_iter()
        .flat_map(|(k, label)| {
            [
                Span::styled(k, theme::key()),
                Span::raw(format!(" {label}  ")),
            ]
        })
        .collect()
}

// ───────────────────────────── findings tab ─────────────────────────────

fn render_findings_tab(app: &App, report: &Report, g: &Grouped, area: Rect, buf: &mut Buffer) {
    let (areas_r, list_r, detail_r, source_r) = findings_layout(g, area);
    let nav = app.nav();
    render_areas(g, nav.area, areas_r, buf);
    let group = g.groups.get(nav.area);
    render_finding_list(report, group, nav.cursor, list_r, buf);
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

/// Areas, findings list, detail, source: side by side on wide screens,
/// stacked to the right of the areas otherwise.
fn findings_layout(g: &Grouped, area: Rect) -> (Rect, Rect, Rect, Rect) {
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

/// The base name of the shown source: the original file of an imported
/// profile, else the profile.
fn file_name(report: &Report) -> String {
    let (s, _) = vm::shown_source(report);
    s.rsplit('/').next().unwrap_or(s).to_string()
}

fn count_label(a: &vm::AreaGroup) -> String {
    if a.shown.len() == a.total {
        a.total.to_string()
    } else {
        format!("{}/{}", a.shown.len(), a.total)
    }
}

fn areas_width(g: &Grouped) -> u16 {
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

fn render_areas(g: &Grouped, selected: usize, area: Rect, buf: &mut Buffer) {
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

fn render_finding_list(
    report: &Report,
    group: Option<&vm::AreaGroup>,
    cursor: usize,
    area: Rect,
    buf: &mut Buffer,
) {
    let Some(group) = group else { return };
    // The position leads, as in a pager: "2 of 5" says where the cursor
    // is and that more lie beyond the pane's edge.
    let title = if group.shown.is_empty() {
        format!("{} · {}", group.title, plural(group.total, "finding"))
    } else if group.shown.len() == group.total {
        format!(
            "{} · {} of {}",
            group.title,
            cursor.min(group.shown.len() - 1) + 1,
            group.total
        )
    } else {
        format!(
            "{} · {} of {} shown ({} in all)",
            group.title,
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

fn plural(n: usize, what: &str) -> String {
    if n == 1 {
        format!("1 {what}")
    } else {
        format!("{n} {what}s")
    }
}

fn lines_of(text: &str, w: u16) -> Vec<Line<'static>> {
    wrap(text, w as usize).into_iter().map(Line::from).collect()
}

/// A labelled paragraph: `label: text` wrapped under a hanging indent.
fn field(out: &mut Vec<Line<'static>>, label: &str, value: &str, w: usize, style: Style) {
    let indent = width(label) + 2;
    let wrapped = wrap(value, w.saturating_sub(indent).max(8));
    for (i, l) in wrapped.into_iter().enumerate() {
        if i == 0 {
            out.push(Line::from(vec![
                Span::styled(format!("{label}: "), theme::label()),
                Span::styled(l, style),
            ]));
        } else {
            out.push(Line::from(vec![
                Span::raw(" ".repeat(indent)),
                Span::styled(l, style),
            ]));
        }
    }
}

fn detail_lines(report: &Report, index: usize, w: usize) -> Vec<Line<'static>> {
    let Some(d) = vm::detail(report, index) else {
        return Vec::new();
    };
    let exact = report.issues.get(index).is_some_and(|f| f.exact);
    let mut out = Vec::new();
    out.push(Line::from(vec![
        Span::styled(
            format!("{} ", d.severity.as_str().to_uppercase()),
            theme::severity(d.severity),
        ),
        Span::styled(format!("{} ", d.rule), theme::title()),
        Span::raw(d.rule_name.to_string()),
    ]));
    if !d.title.is_empty() {
        for l in wrap(d.title, w) {
            out.push(Line::styled(l, theme::dim()));
        }
    }
    // An imported profile's own lines are not shown; its place in the
    // original file follows on the `from` line.
    let place = match (d.origin.is_some(), d.line, d.column, exact) {
        (true, _, _, true) => safe(&d.pointer).into_owned(),
        (true, _, _, false) => format!("{} — not declared", safe(&d.pointer)),
        (false, Some(l), Some(c), true) => {
            format!("{} (line {l}, column {c})", safe(&d.pointer))
        }
        (false, Some(l), _, false) => format!(
            "{} — not declared; nearest field at line {l}",
            safe(&d.pointer)
        ),
        _ => safe(&d.pointer).into_owned(),
    };
    field(&mut out, "at", &place, w, Style::new());
    if let Some(o) = &d.origin {
        let from = format!("{}:{}:{}", safe(&o.file), o.line, o.column);
        field(&mut out, "from", &from, w, Style::new());
    }
    out.push(Line::default());
    for l in wrap(&safe(&d.message), w) {
        out.push(Line::styled(l, theme::title()));
    }
    out.push(Line::default());
    field(&mut out, "fix", &safe(&d.remediation), w, Style::new());
    if !d.evidence.is_empty() {
        out.push(Line::default());
        out.push(Line::styled("evidence", theme::label()));
        for (k, v) in &d.evidence {
            field(
                &mut out,
                &format!("  {}", safe(k)),
                &safe(v),
                w,
                Style::new(),
            );
        }
    }
    out.push(Line::default());
    match d.runtime_check {
        Some(kind) => {
            field(&mut out, "runtime check", kind.as_str(), w, Style::new());
            for c in &d.checks {
                let s = format!(
                    "{} expect {} for {}",
                    safe(&c.id),
                    c.expect,
                    safe(&c.target.to_string())
                );
                for (i, l) in wrap(&s, w.saturating_sub(2)).into_iter().enumerate() {
                    out.push(Line::raw(format!(
                        "{}{l}",
                        if i == 0 { "- " } else { "  " }
                    )));
                }
            }
        }
        None => field(
            &mut out,
            "runtime check",
            "none for this rule",
            w,
            theme::dim(),
        ),
    }
    if let Some(wv) = &d.waived {
        field(&mut out, "waived", &safe(wv), w, theme::dim());
    }
    if !d.rationale.is_empty() {
        out.push(Line::default());
        field(&mut out, "why", d.rationale, w, theme::dim());
    }
    out
}

/// A scrollable pane of pre-wrapped lines, with "more" markers.
fn render_scrolled(
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

fn render_detail(app: &App, report: &Report, index: usize, area: Rect, buf: &mut Buffer) {
    let w = area.width.saturating_sub(2) as usize;
    render_scrolled(
        "Detail".into(),
        detail_lines(report, index, w),
        app.detail_scroll,
        area,
        buf,
    );
}

/// The masked profile source around `focus`, the focus line marked and
/// highlighted, its column emphasized; long lines wrap (indentation kept)
/// so nothing is hidden off to the side.
fn render_source(
    report: &Report,
    focus: Option<u32>,
    column: Option<u32>,
    title: String,
    area: Rect,
    buf: &mut Buffer,
) {
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
fn emphasize_column(
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

// ─────────────────────────────── error panel ───────────────────────────────

fn render_error(e: &LoadError, area: Rect, buf: &mut Buffer) {
    let w = area.width.saturating_sub(2) as usize;
    let mut out: Vec<Line> = Vec::new();
    for l in wrap(&e.headline(), w) {
        out.push(Line::styled(l, theme::status_error()));
    }
    if !e.context.is_empty() {
        out.push(Line::default());
        let num_w = e.context.last().map_or(1, |(n, _)| n.to_string().len());
        for (n, text) in &e.context {
            let is_focus = Some(*n) == e.line;
            let gutter = format!("{} {n:>num_w$} │ ", if is_focus { "▶" } else { " " });
            let content_w = w.saturating_sub(width(&gutter));
            let style = if is_focus {
                theme::focus_line()
            } else {
                Style::new()
            };
            out.push(Line::from(vec![
                Span::styled(gutter.clone(), style),
                Span::styled(truncate(text, content_w), style),
            ]));
            if is_focus {
                if let Some(c) = e.column {
                    let caret = " ".repeat(width(&gutter) + (c as usize).saturating_sub(1));
                    out.push(Line::styled(
                        truncate(&format!("{caret}^"), w),
                        theme::status_error(),
                    ));
                }
            }
        }
    }
    out.push(Line::default());
    for l in wrap(
        "Nothing was audited. Fix the file and save it: it is watched and re-audited automatically (r reloads by hand). \
         Other profiles stay available with n/p.",
        w,
    ) {
        out.push(Line::styled(l, theme::dim()));
    }
    Paragraph::new(out)
        .block(pane(format!(
            "Cannot audit {}",
            truncate_left(&e.file, w.saturating_sub(16))
        )))
        .render(area, buf);
}

// ─────────────────────────────── mounts tab ───────────────────────────────

fn render_mounts_tab(app: &App, report: &Report, area: Rect, buf: &mut Buffer) {
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
    let Some((table_r, detail_r, source_r)) = mounts_layout(report, area) else {
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

/// The mounts table (sized to its rows, at most half the body), then the
/// selected mount's detail and its source line. `None` without mounts.
fn mounts_layout(report: &Report, area: Rect) -> Option<(Rect, Rect, Rect)> {
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
fn split_bottom(area: Rect) -> (Rect, Rect) {
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

/// The widths a `Table` with the "› " selection column will give its
/// columns, so cells can be cut with a visible `…` rather than silently
/// (a silently cut path reads as a different path).
fn column_widths(constraints: &[Constraint], table_area: Rect) -> Vec<usize> {
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
fn fitted_row(cells: Vec<Span<'static>>, widths: &[usize]) -> Row<'static> {
    Row::new(
        cells
            .into_iter()
            .zip(widths.iter().copied().chain(std::iter::repeat(usize::MAX)))
            .map(|(c, w)| Span::styled(truncate(&c.content, w), c.style))
            .collect::<Vec<_>>(),
    )
}

fn heading_row(kind: &str, what: &str) -> Row<'static> {
    Row::new(vec![String::new(), format!("{kind}:"), what.to_string()]).style(theme::label())
}

fn mount_row(m: &MountRow, index: usize, widths: &[usize]) -> Row<'static> {
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

/// What the table cannot show: the label comparison first, then the full
/// values.
fn mount_lines(report: &Report, m: &MountRow, w: usize) -> Vec<Line<'static>> {
    let mut out = Vec::new();
    let matched = match (&m.label_path, m.label_origin) {
        (Some(p), Some(o)) => format!("{} — {} ({o})", safe(&m.label), safe(p)),
        _ => safe(&m.label).into_owned(),
    };
    field(&mut out, "label", &matched, w, theme::title());
    match m.exposes.split_first() {
        None => field(
            &mut out,
            "exposes",
            "no labelled location inside it",
            w,
            theme::dim(),
        ),
        Some((first, rest)) => {
            field(&mut out, "exposes", &safe(first), w, Style::new());
            for e in rest {
                for l in wrap(&safe(e), w.saturating_sub(9)) {
                    out.push(Line::raw(format!("{:9}{l}", "")));
                }
            }
        }
    }
    let prefix = format!("{}/", m.pointer);
    let hits: Vec<&str> = report
        .issues
        .iter()
        .filter(|f| f.pointer == m.pointer || f.pointer.starts_with(&prefix))
        .map(|f| f.rule)
        .collect();
    let hits = if hits.is_empty() {
        "none".to_string()
    } else {
        format!("{} ({})", hits.len(), hits.join(", "))
    };
    field(&mut out, "findings", &hits, w, Style::new());
    field(&mut out, "source", &safe(&m.source), w, Style::new());
    field(
        &mut out,
        "normalized",
        &safe(&m.normalized),
        w,
        Style::new(),
    );
    field(&mut out, "target", &safe(&m.target), w, Style::new());
    let access_style = if m.access == "read-only" {
        Style::new()
    } else {
        theme::writable()
    };
    field(&mut out, "access", &safe(&m.access), w, access_style);
    out
}

// ─────────────────────────────── checks tab ───────────────────────────────

fn render_checks_tab(app: &App, report: &Report, area: Rect, buf: &mut Buffer) {
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

fn checks_layout(area: Rect) -> (Rect, Rect) {
    let [a, b] = Layout::vertical([Constraint::Percentage(60), Constraint::Min(0)]).areas(area);
    (a, b)
}

fn check_lines(c: &RuntimeCheck, w: usize) -> Vec<Line<'static>> {
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

// ─────────────────────────────── rules tab ───────────────────────────────

fn render_rules_tab(app: &App, report: Option<&Report>, area: Rect, buf: &mut Buffer) {
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

fn rules_layout(area: Rect) -> (Rect, Rect) {
    let [a, b] = Layout::vertical([Constraint::Percentage(55), Constraint::Min(0)]).areas(area);
    (a, b)
}

fn rule_lines(app: &App, report: Option<&Report>, w: usize) -> Vec<Line<'static>> {
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
fn area_title(a: Area) -> &'static str {
    match a {
        Area::WritableMounts | Area::ReadOnlyMounts => "Mounts",
        other => other.title(),
    }
}

// ─────────────────────────────── help overlay ───────────────────────────────

/// The help overlay, generated from the keymap table: one block per
/// section, laid out in as many columns as fit.
fn render_help(app: &App, area: Rect, buf: &mut Buffer) {
    let (rect, lines) = help_content(area);
    Clear.render(rect, buf);
    let inner_h = rect.height.saturating_sub(2) as usize;
    let max_scroll = lines.len().saturating_sub(inner_h);
    let top = (app.help_scroll as usize).min(max_scroll);
    let mut block = Block::bordered()
        .border_style(theme::title())
        .title(Span::styled(" Keys — ? or Esc closes ", theme::title()));
    if top > 0 {
        block = block.title_bottom(Line::styled(" ↑ k ", theme::dim()).left_aligned());
    }
    if top < max_scroll {
        block = block.title_bottom(Line::styled(" more ↓ j ", theme::dim()).right_aligned());
    }
    let shown: Vec<Line> = lines.into_iter().skip(top).collect();
    Paragraph::new(shown).block(block).render(rect, buf);
}

/// Where the help overlay goes on a screen of `area`, and its lines.
fn help_content(area: Rect) -> (Rect, Vec<Line<'static>>) {
    let key_w = KEYMAP
        .iter()
        .map(|b| width(&b.keys_label()))
        .max()
        .unwrap_or(4);
    let help_w = KEYMAP.iter().map(|b| width(b.help)).max().unwrap_or(10);
    let col_w = key_w + 2 + help_w;
    let mut blocks: Vec<Vec<Line>> = Vec::new();
    for b in KEYMAP {
        let new_section = blocks
            .last()
            .and_then(|blk| blk.first())
            .map(|l| l.to_string())
            != Some(b.section.to_string());
        if new_section {
            blocks.push(vec![Line::styled(b.section.to_string(), theme::label())]);
        }
        if let Some(blk) = blocks.last_mut() {
            blk.push(Line::from(vec![
                Span::styled(format!("{:<key_w$}", b.keys_label()), theme::key()),
                Span::raw(format!("  {}", b.help)),
            ]));
        }
    }
    let w = area.width.saturating_sub(4).min((col_w * 2 + 4) as u16 + 2);
    let inner_w = w.saturating_sub(2) as usize;
    let cols = if inner_w >= col_w * 2 + 3 { 2 } else { 1 };
    let total: usize = blocks.iter().map(|b| b.len() + 1).sum();
    let target = total.div_ceil(cols);
    let mut columns: Vec<Vec<Line>> = vec![Vec::new()];
    for blk in blocks {
        let cur_len = columns.last().map_or(0, |c| c.len());
        if cur_len > 0 && cur_len + blk.len() > target && columns.len() < cols {
            columns.push(Vec::new());
        }
        if let Some(c) = columns.last_mut() {
            if !c.is_empty() {
                c.push(Line::default());
            }
            c.extend(blk);
        }
    }
    let intro = wrap(
        "isolint compares a profile's declared settings with trusted fixture labels. Its verdict is at most \
         \"eligible for runtime testing\" — not proof of enforcement.",
        inner_w,
    );
    let rows = columns.iter().map(|c| c.len()).max().unwrap_or(0);
    let h = (intro.len() + 1 + rows + 2) as u16;
    let h = h.min(area.height.saturating_sub(2));
    let rect = Rect {
        x: area.x + (area.width.saturating_sub(w)) / 2,
        y: area.y + (area.height.saturating_sub(h)) / 2,
        width: w,
        height: h,
    };
    let mut lines: Vec<Line> = intro
        .into_iter()
        .map(|l| Line::styled(l, theme::dim()))
        .collect();
    lines.push(Line::default());
    for r in 0..rows {
        let mut spans = Vec::new();
        for (ci, c) in columns.iter().enumerate() {
            let cell = c.get(r).cloned().unwrap_or_default();
            let cw = cell.width();
            spans.extend(cell.spans);
            if ci + 1 < columns.len() {
                spans.push(Span::raw(" ".repeat(col_w.saturating_sub(cw) + 3)));
            }
        }
        lines.push(Line::from(spans));
    }
    (rect, lines)
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
