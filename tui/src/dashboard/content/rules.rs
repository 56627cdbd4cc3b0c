//! The detail pane of a rule.

use isolint_core::model::StringEnum;
use isolint_core::text::plural;
use isolint_core::{Area, Report};
use ratatui::style::Style;
use ratatui::text::{Line, Span};

use super::super::model::App;
use super::super::text::wrap;
use super::super::theme;
use super::field;

/// The detail of the selected rule, with how often it fired in `report`.
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
