//! The verdict banner: core's wording, never anything stronger.

use isolint_core::view;
use isolint_core::{Report, Verdict};
use yew::prelude::*;

use super::Shared;
use crate::state::InputProblem;

#[derive(Properties, PartialEq)]
pub struct VerdictBannerProps {
    pub report: Option<Shared<Report>>,
    pub input_error: Option<InputProblem>,
    pub today: Option<String>,
    pub catalog_label: String,
}

#[function_component(VerdictBanner)]
pub fn verdict_banner(props: &VerdictBannerProps) -> Html {
    let problem = props.input_error.as_ref().map(|p| {
        html! {
            <div class="alert alert-error input-error" role="alert" id="input-error">
                <strong>{ "The profile cannot be read. " }</strong>
                <span class="pre">{ p.located() }</span>
                if props.report.is_some() {
                    <p class="muted">{ "The results below are from the last readable version and are not exported." }</p>
                }
            </div>
        }
    });
    let Some(report) = &props.report else {
        return html! { <div class="verdict-wrap">{ problem }</div> };
    };
    let b = view::banner(report);
    let class = classes!(
        "banner",
        match b.verdict {
            Verdict::EligibleForRuntimeTesting => "banner-eligible",
            Verdict::NotEligible => "banner-blocked",
        },
        props.input_error.is_some().then_some("banner-stale")
    );
    html! {
        <div class="verdict-wrap">
            { problem }
            <div {class} id="verdict" data-verdict={b.code} role="status" aria-live="polite" aria-atomic="true">
                <p class="banner-code">{ b.code }</p>
                <p class="banner-headline">{ b.headline }</p>
                <p class="banner-counts">{ b.counts.clone() }</p>
                <p class="banner-notice">{ b.notice }</p>
                <p class="banner-meta">
                    { format!("profile {} · labels {} · audited as of {}",
                        report.profile.name,
                        props.catalog_label,
                        props.today.clone().unwrap_or_else(|| "an unknown date (staleness not checked)".into())) }
                </p>
            </div>
        </div>
    }
}
