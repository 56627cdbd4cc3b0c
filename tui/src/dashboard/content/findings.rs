//! The detail pane of a finding.

use isolint_core::model::StringEnum;
use isolint_core::view_model as vm;
use isolint_core::Report;
use ratatui::style::Style;
use ratatui::text::{Line, Span};

use super::super::text::wrap;
use super::super::theme;
use super::{field, safe};

/// The detail of finding `index`; `notes`: the importer's notes on the
/// profile, listed at the end (what the import could not carry over).
pub(crate) fn detail_lines(
    report: &Report,
    index: usize,
    w: usize,
    notes: &[String],
) -> Vec<Line<'static>> {
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
    // An imported profile leads with the place in the original file; the
    // generated profile's field follows.
    match &d.origin {
        Some(o) => {
            let at = format!("{}:{}:{}", safe(&o.file), o.line, o.column);
            field(&mut out, "at", &at, w, Style::new());
            field(&mut out, "field", &place, w, theme::dim());
        }
        None => field(&mut out, "at", &place, w, Style::new()),
    }
    out.push(Line::default());
    for l in wrap(&safe(&d.message), w) {
        out.push(Line::styled(l, theme::title()));
    }
    out.push(Line::default());
    field(&mut out, "fix", &safe(&d.remediation), w, Style::new());
    let original = report.original.as_ref();
    let hint = original
        .zip(report.issues.get(index))
        .and_then(|(o, f)| isolint_core::import::hints::hint(o.format, f).map(|h| (o.format, h)));
    if let Some((format, h)) = hint {
        field(&mut out, &format!("in {format}"), h, w, Style::new());
    }
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
    if !notes.is_empty() {
        out.push(Line::default());
        out.push(Line::styled(
            format!("Import notes ({})", notes.len()),
            theme::label(),
        ));
        for n in notes {
            for (i, l) in wrap(n, w.saturating_sub(2)).into_iter().enumerate() {
                out.push(Line::raw(format!(
                    "{}{l}",
                    if i == 0 { "- " } else { "  " }
                )));
            }
        }
    }
    out
}
