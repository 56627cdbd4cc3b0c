//! The detail pane of a mount.

use isolint_core::report::MountRow;
use isolint_core::Report;
use ratatui::style::Style;
use ratatui::text::Line;

use super::super::text::wrap;
use super::super::theme;
use super::{field, safe};

/// What the table cannot show: the label comparison first, then the full
/// values.
pub(crate) fn mount_lines(report: &Report, m: &MountRow, w: usize) -> Vec<Line<'static>> {
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
