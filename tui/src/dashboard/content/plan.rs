//! The detail pane of a runtime check, with what the verifier observed.

use isolint_core::model::StringEnum;
use isolint_core::observe::{Reconciled, Reconciliation, Status};
use isolint_core::report::RuntimeCheck;
use isolint_core::Report;
use ratatui::style::Style;
use ratatui::text::Line;

use super::super::model::App;
use super::super::text::wrap;
use super::super::theme;
use super::{field, safe};

/// The `--observed` observations joined with this report's plan (core's
/// join, the one `isolint reconcile` uses), in plan order.
pub(crate) fn observed(app: &App, report: &Report) -> Option<Reconciliation> {
    app.observed
        .as_ref()
        .map(|o| isolint_core::observe::join_report(report, o))
}

/// How a verifier's status is shown, in the plan table and a check's detail.
pub(crate) fn status_style(s: Status) -> Style {
    match s {
        Status::Agrees => Style::new(),
        Status::NotObservable => theme::dim(),
        Status::Disagrees | Status::Stale => theme::status_error(),
    }
}

/// The detail of one check; `observed`: what the verifier saw, if given.
pub(crate) fn check_lines(
    c: &RuntimeCheck,
    observed: Option<&Reconciled>,
    w: usize,
) -> Vec<Line<'static>> {
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
    if let Some(r) = observed {
        let seen = r.observed.map_or("nothing", |o| o.as_str());
        field(
            &mut out,
            "observed",
            &format!("{} ({seen}): {}", r.status.as_str(), safe(&r.reason)),
            w,
            status_style(r.status),
        );
    }
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
