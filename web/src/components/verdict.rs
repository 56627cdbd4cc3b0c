//! The verdict banner: core's wording, never anything stronger.

use isolint_core::view_model;
use isolint_core::{Report, Verdict};
use yew::prelude::*;

use crate::state::InputProblem;

/// The banner: a plain function rather than a component, since it keeps no
/// state (each component costs the page's wasm its own lifecycle code).
pub fn verdict_banner(
    dispatch: &super::Dispatch,
    report: Option<&Report>,
    input_error: Option<&InputProblem>,
    today: Option<String>,
    today_pinned: bool,
    catalog_label: &str,
) -> Html {
    let problem = input_error.map(|p| {
        html! {
            <div class="alert alert-error input-error" role="alert" id="input-error">
                <strong>{ "The profile cannot be read. " }</strong>
                <span class="pre">{ p.located() }</span>
                if let Some(line) = p.line {
                    { " " }{ goto_line(dispatch, line) }
                }
                if report.is_some() {
                    <p class="muted">{ "The results below are from the last readable version and are not exported." }</p>
                }
            </div>
        }
    });
    let Some(report) = report else {
        return html! { <div class="verdict-wrap">{ problem }</div> };
    };
    let b = view_model::banner(report);
    let class = classes!(
        "banner",
        match b.verdict {
            Verdict::EligibleForRuntimeTesting => "banner-eligible",
            Verdict::NotEligible => "banner-blocked",
        },
        input_error.is_some().then_some("banner-stale")
    );
    html! {
        <div class="verdict-wrap">
            { problem }
            // Only the verdict is announced, and only when it changes: the
            // counts and the date below change on every keystroke.
            <p class="visually-hidden" role="status" aria-live="polite" aria-atomic="true" id="verdict-announce">{ b.headline }</p>
            if today_pinned {
                <div class="alert alert-warning" id="today-warning" role="note">
                    <strong>{ "Audited as of a date taken from the address, not today. " }</strong>
                    // Backticks mark code, as in core's wording (`rich`), never shown as such.
                    { super::rich(&format!("The `?today={}` in this page's address sets the audit date, so an outdated runtime can look current. Open the page without it to audit as of today.",
                        today.clone().unwrap_or_default())) }
                </div>
            }
            <div {class} id="verdict" data-verdict={b.code}>
                <p class="banner-code">{ b.code }</p>
                <p class="banner-headline">{ b.headline }</p>
                <p class="banner-counts">{ b.counts.clone() }</p>
                <p class="banner-notice">{ b.notice }</p>
                { plan_summary(report) }
                <p class="banner-meta">
                    { format!("profile {} · labels {} · audited as of {}",
                        report.profile.name,
                        catalog_label,
                        today.unwrap_or_else(|| "an unknown date (staleness not checked)".into())) }
                </p>
            </div>
        </div>
    }
}

/// A button that puts the editor's cursor on `line`.
fn goto_line(dispatch: &super::Dispatch, line: u32) -> Html {
    let dispatch = dispatch.clone();
    let onclick = Callback::from(move |_: MouseEvent| {
        dispatch.dispatch(crate::state::Action::RevealLine(line));
        crate::browser::focus("profile-editor");
    });
    html! { <button type="button" class="button button-small" id="goto-error" {onclick}>{ format!("Go to line {line}") }</button> }
}

/// What the next step is, right under the verdict. Not eligible: fix the
/// blocking findings (the runtime checks wait until then). Eligible: the
/// plan's kinds with their counts, and a link to the whole plan below.
fn plan_summary(report: &Report) -> Html {
    if report.verdict == Verdict::NotEligible {
        let blocking = report.issues.iter().filter(|f| f.blocks()).count();
        return html! {
            <p class="banner-plan" id="plan-summary" data-step="fix">
                <strong>{ format!("Next step: fix the {} first. ", super::findings::plural(blocking, "blocking finding")) }</strong>
                { "The runtime checks run only once the profile is eligible." }
            </p>
        };
    }
    let counts = view_model::plan_counts(report);
    if counts.is_empty() {
        return html! {};
    }
    let total: usize = counts.iter().map(|(_, n)| n).sum();
    let kinds = counts
        .iter()
        .map(|(kind, n)| format!("{} {n}", isolint_core::model::StringEnum::as_str(*kind)))
        .collect::<Vec<_>>()
        .join(" · ");
    html! {
        <p class="banner-plan" id="plan-summary" data-step="runtime">
            <strong>{ format!("Next step: {}. ", super::findings::plural(total, "runtime check")) }</strong>
            { kinds }{ " " }
            <a href="#checks">{ "See the plan" }</a>
        </p>
    }
}

/// The verdict in one line at the top of a narrow screen, where the banner
/// itself is below the editor.
pub fn verdict_strip(report: Option<&Report>, readable: bool) -> Html {
    let Some(report) = report.filter(|_| readable) else {
        return html! {};
    };
    let b = view_model::banner(report);
    let class = classes!(
        "verdict-strip",
        match b.verdict {
            Verdict::EligibleForRuntimeTesting => "strip-eligible",
            Verdict::NotEligible => "strip-blocked",
        }
    );
    html! {
        <a {class} id="verdict-strip" href="#verdict" data-verdict={b.code}>
            <strong>{ b.headline }</strong>{ " · " }{ b.counts.clone() }
            <span class="strip-notice" id="strip-notice">{ b.notice.split(". ").next().unwrap_or(b.notice) }</span>
        </a>
    }
}
