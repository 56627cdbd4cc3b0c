//! The frame around every tab: identity, verdict banner, counts, tab bar,
//! status and hint line; the error panel and the too-small message.

use super::super::content::safe;
use super::super::keymap::{self};
use super::super::layout::*;
use super::super::load::LoadError;
use super::super::model::{self, App, Mode, Tab};
use super::super::text::{truncate, truncate_left, width, wrap};
use super::super::theme;
use super::{line, pad, pane, plural};
use isolint_core::model::StringEnum;
use isolint_core::view_model::{self as vm, Grouped};
use isolint_core::{Report, Severity};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget};

pub(crate) fn render_too_small(area: Rect, buf: &mut Buffer) {
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
pub(crate) fn render_ident(app: &App, area: Rect, buf: &mut Buffer) {
    let Some(slot) = app.slot() else { return };
    let total = area.width as usize;
    let file = safe(&slot.title()).into_owned();
    let name = app.report().map(|r| truncate(&safe(&r.profile.name), 24));
    let labels = app
        .report()
        .map(|r| format!("labels: {}", safe(&r.labels_name)));
    // The position is always there, so a file of several profiles never
    // looks like one.
    let (i, n) = app.position();
    let counter = |long: bool| match (n > 1, long) {
        (true, true) => Some(format!("profile {i} of {n} (n/p)")),
        _ => Some(format!("profile {i} of {n}")),
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

pub(crate) fn render_banner(report: &Report, area: Rect, buf: &mut Buffer) {
    let b = vm::banner(report);
    line(vec![Span::styled(
        pad(&format!(" {}", b.headline), area.width),
        theme::verdict(b.verdict),
    )])
    .render(area, buf);
}

/// Severity counts on the left, what the filter shows on the right.
pub(crate) fn render_counts(app: &App, report: &Report, g: &Grouped, area: Rect, buf: &mut Buffer) {
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
pub(crate) fn render_tabs(app: &App, area: Rect, buf: &mut Buffer) {
    let tabs = Tab::shown(app.slots.len());
    let full: usize = 1 + tabs.iter().map(|t| width(t.title()) + 5).sum::<usize>();
    let short = full > area.width as usize;
    let mut spans = vec![Span::raw(" ")];
    for t in tabs {
        let title = if short { t.short_title() } else { t.title() };
        let label = format!("{} {title}", t.digit());
        if *t == app.tab {
            spans.push(Span::styled(format!("[{label}]"), theme::tab_active()));
        } else {
            spans.push(Span::styled(format!(" {label} "), theme::dim()));
        }
        spans.push(Span::raw(" "));
    }
    line(spans).render(area, buf);
}

pub(crate) fn render_status(app: &App, area: Rect, buf: &mut Buffer) {
    if app.mode == Mode::Prompt {
        let hints = hint_spans(Mode::Prompt);
        let hints_w: usize = hints.iter().map(|s| s.width()).sum();
        let note = model::export_note(app)
            .map(|n| format!(" ({n})"))
            .unwrap_or_default();
        let lead = " export to: ";
        let budget = (area.width as usize).saturating_sub(hints_w + width(lead) + 2);
        let typed = truncate_left(&safe(&app.prompt), budget);
        let note = truncate(&note, budget.saturating_sub(width(&typed)));
        let mut spans = vec![
            Span::styled(lead, theme::key()),
            Span::raw(typed),
            Span::styled("▏", theme::key()),
            Span::styled(note, theme::status_error()),
        ];
        let used: usize = spans.iter().map(|s| s.width()).sum();
        spans.push(Span::raw(
            " ".repeat((area.width as usize).saturating_sub(used + hints_w)),
        ));
        spans.extend(hints);
        line(spans).render(area, buf);
        return;
    }
    if app.mode == Mode::Search {
        let hints = hint_spans(Mode::Search);
        let hints_w: usize = hints.iter().map(|s| s.width()).sum();
        let budget = (area.width as usize).saturating_sub(hints_w + 4);
        let query = match app.tab {
            Tab::Profiles => &app.profile_query,
            Tab::Findings => &app.filter.query,
            _ => &app.list_query,
        };
        let q = truncate_left(&safe(query), budget);
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
    let mut pairs: Vec<(String, &'static str)> = Vec::new();
    if app.tab == Tab::Profiles && app.mode == Mode::Normal {
        pairs.push(("Enter".into(), "open"));
    }
    pairs.extend(keymap::hints(app.mode));
    if app.slots.len() > 1 && app.mode == Mode::Normal {
        pairs.push(("]/[".into(), "profile"));
    }
    line(fit_hints(pairs, area.width as usize)).render(area, buf);
}

/// The hint bar's pairs that fit in `width`: help and quit always (they
/// are how a newcomer finds the rest), the others in order while they fit.
pub(crate) fn fit_hints(pairs: Vec<(String, &'static str)>, width: usize) -> Vec<Span<'static>> {
    let cost = |(k, label): &(String, &'static str)| self::width(k) + 1 + self::width(label) + 2;
    let essential = |label: &str| matches!(label, "help" | "quit");
    let reserved: usize = 1 + pairs
        .iter()
        .filter(|p| essential(p.1))
        .map(cost)
        .sum::<usize>();
    let mut budget = width.saturating_sub(reserved);
    let mut kept = Vec::new();
    for p in &pairs {
        if essential(p.1) {
            continue;
        }
        if cost(p) > budget {
            break;
        }
        budget -= cost(p);
        kept.push(p.clone());
    }
    kept.extend(pairs.iter().filter(|p| essential(p.1)).cloned());
    let mut spans = vec![Span::raw(" ")];
    for (k, label) in kept {
        spans.push(Span::styled(k, theme::key()));
        spans.push(Span::raw(format!(" {label}  ")));
    }
    spans
}

pub(crate) fn hint_spans(mode: Mode) -> Vec<Span<'static>> {
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

pub(crate) fn render_error(e: &LoadError, area: Rect, buf: &mut Buffer) {
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
