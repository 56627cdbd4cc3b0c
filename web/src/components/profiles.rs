//! The profiles of a multi-profile file (Kubernetes workloads, Compose
//! services): the whole file's verdict and a picker listing every profile
//! with its verdict and counts, worst first, as the dashboard's Profiles tab.

use isolint_core::Verdict;
use yew::prelude::*;

use super::Dispatch;
use crate::state::{file_verdict, Action, ProfileRow};

/// Nothing for a file of one profile; else the file verdict and the list.
pub fn profile_picker(dispatch: &Dispatch, rows: &[ProfileRow], shown: usize) -> Html {
    if rows.len() < 2 {
        return html! {};
    }
    let blocked = rows
        .iter()
        .filter(|r| r.report.verdict == Verdict::NotEligible)
        .count();
    let verdict = file_verdict(rows).unwrap_or(Verdict::NotEligible);
    let summary = if blocked == 0 {
        format!("all {} profiles in this file are eligible", rows.len())
    } else {
        format!(
            "{blocked} of {} profiles in this file are not eligible",
            rows.len()
        )
    };
    let items = rows.iter().enumerate().map(|(i, row)| {
        let r = &row.report;
        let s = &r.summary;
        let onclick = super::send_on_click(dispatch, Action::SelectProfile(i));
        let current = i == shown;
        let code = r.verdict.as_str();
        let verdict_word = match r.verdict {
            Verdict::NotEligible => "not eligible",
            Verdict::EligibleForRuntimeTesting => "eligible",
        };
        html! {
            <li>
                <button type="button"
                    class={classes!("profile-row", format!("profile-{code}"), current.then_some("profile-current"))}
                    aria-pressed={current.to_string()} data-index={i.to_string()}
                    data-unit={row.unit.clone()} data-verdict={code} {onclick}>
                    <span class="profile-name">{ row.title() }</span>
                    <span class="profile-verdict">{ verdict_word }</span>
                    <span class="profile-counts">
                        { format!("{} critical · {} high · {} medium · {} low", s.critical, s.high, s.medium, s.low) }
                    </span>
                </button>
            </li>
        }
    });
    html! {
        <section class="profiles" id="profiles" aria-labelledby="profiles-title" data-file-verdict={verdict.as_str()}>
            <h3 id="profiles-title">
                { format!("This file holds {} profiles", rows.len()) }
            </h3>
            <p class={classes!("file-verdict", match verdict {
                    Verdict::NotEligible => "file-blocked",
                    Verdict::EligibleForRuntimeTesting => "file-eligible",
                })} id="file-verdict">
                <strong>{ match verdict {
                    Verdict::NotEligible => "Whole file: not eligible",
                    Verdict::EligibleForRuntimeTesting => "Whole file: eligible for runtime testing",
                } }</strong>
                { format!(" — {summary}. Showing profile {} of {}; pick another below.", shown + 1, rows.len()) }
            </p>
            <ul class="profile-list" aria-label="Profiles in this file, worst first">{ for items }</ul>
        </section>
    }
}
