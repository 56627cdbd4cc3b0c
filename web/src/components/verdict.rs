//! The verdict banner: core's wording, never anything stronger.

use isolint_core::view;
use isolint_core::{Report, Verdict};
use yew::prelude::*;

use crate::state::InputProblem;

/// The banner: a plain function rather than a component, since it keeps no
/// state (each component costs the page's wasm its own lifecycle code).
pub fn verdict_banner(
    report: Option<&Report>,
    input_error: Option<&InputProblem>,
    today: Option<String>,
    catalog_label: &str,
) -> Html {
    let problem = input_error.map(|p| {
        html! {
            <div class="alert alert-error input-error" role="alert" id="input-error">
                <strong>{ "The profile cannot be read. " }</strong>
                <span class="pre">{ p.located() }</span>
                if report.is_some() {
                    <p class="muted">{ "The results below are from the last readable version and are not exported." }</p>
                }
            </div>
        }
    });
    let Some(report) = report else {
        return html! { <div class="verdict-wrap">{ problem }</div> };
    };
    let b = view::banner(report);
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
            <div {class} id="verdict" data-verdict={b.code}>
                <p class="banner-code">{ b.code }</p>
                <p class="banner-headline">{ b.headline }</p>
                <p class="banner-counts">{ b.counts.clone() }</p>
                <p class="banner-notice">{ b.notice }</p>
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
