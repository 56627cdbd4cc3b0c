//! The mounts-vs-labels table and the runtime-check plan, straight from
//! the report (values already redacted and neutralized by core).

use isolint_core::model::StringEnum;
use isolint_core::Report;
use yew::prelude::*;

use super::{Dispatch, Shared};
use crate::state::Action;

#[derive(Properties, PartialEq)]
pub struct TablesProps {
    pub dispatch: Dispatch,
    pub report: Option<Shared<Report>>,
}

/// Both tables, as one component: they grow with the profile, so they are
/// redrawn only when a new report replaces the old one.
#[function_component(Tables)]
pub fn tables(props: &TablesProps) -> Html {
    let Some(report) = &props.report else {
        return html! { <div class="tables"></div> };
    };
    html! {
        <div class="tables">
            { mounts_table(&props.dispatch, report) }
            { checks_table(report) }
        </div>
    }
}

fn mounts_table(dispatch: &Dispatch, report: &Report) -> Html {
    let rows = report.mounts.iter().map(|m| {
        let goto = m.line.map(|line| {
            let dispatch = dispatch.clone();
            let onclick = Callback::from(move |_: MouseEvent| dispatch.dispatch(Action::RevealLine(line)));
            html! {
                <button type="button" class="link-button" {onclick}
                    aria-label={format!("Show {} (line {line}) in the editor", m.pointer)}>{ m.pointer.clone() }</button>
            }
        });
        let label_class = classes!("label-class", format!("label-{}", m.label));
        html! {
            <tr>
                <td>{ goto.unwrap_or_else(|| html! { { m.pointer.clone() } }) }</td>
                <td>
                    <code>{ m.source.clone() }</code>
                    if m.normalized != m.source && !m.normalized.is_empty() {
                        <div class="muted">{ "normalized: " }<code>{ m.normalized.clone() }</code></div>
                    }
                </td>
                <td><code>{ m.target.clone() }</code></td>
                <td class={classes!("access", format!("access-{}", m.access.replace(' ', "-")))}>{ m.access.clone() }</td>
                <td>
                    <span class={label_class}>{ m.label.clone() }</span>
                    if let (Some(path), Some(origin)) = (&m.label_path, m.label_origin) {
                        <div class="muted"><code>{ path.clone() }</code>{ format!(" ({origin})") }</div>
                    }
                </td>
                <td>
                    if m.exposes.is_empty() {
                        <span class="muted">{ "—" }</span>
                    } else {
                        <ul class="plain">{ for m.exposes.iter().map(|e| html! { <li><code>{ e.clone() }</code></li> }) }</ul>
                    }
                </td>
            </tr>
        }
    });
    html! {
        <section class="panel" aria-labelledby="mounts-title" id="mounts">
            <h2 id="mounts-title">{ "Mounts vs labels" }</h2>
            <p class="muted">
                { "Each declared source is compared with the catalog's label paths, component by component, on text alone: \
                   links and real bind mounts can only be checked in the launched environment." }
            </p>
            if report.mounts.is_empty() {
                <p class="empty">{ "No mounts declared." }</p>
            } else {
                <div class="table-scroll" tabindex="0" role="region" aria-label="Mounts vs labels, scrollable">
                    <table class="table">
                        <thead><tr>
                            <th scope="col">{ "Mount" }</th><th scope="col">{ "Source" }</th><th scope="col">{ "Target" }</th>
                            <th scope="col">{ "Access" }</th><th scope="col">{ "Label" }</th><th scope="col">{ "Exposes" }</th>
                        </tr></thead>
                        <tbody>{ for rows }</tbody>
                    </table>
                </div>
            }
        </section>
    }
}

fn checks_table(report: &Report) -> Html {
    let rows = report.runtime_checks.iter().map(|c| {
        html! {
            <tr>
                <td class="check-id">{ c.id.clone() }</td>
                <td data-label="Kind"><code>{ c.kind.as_str() }</code></td>
                <td data-label="Target"><code>{ c.target.to_string() }</code></td>
                <td data-label="Expect">{ c.expect.as_str() }</td>
                <td data-label="Because">{ c.because.clone() }</td>
            </tr>
        }
    });
    html! {
        <section class="panel" aria-labelledby="checks-title" id="checks">
            <h2 id="checks-title">{ "Runtime-check plan" }</h2>
            <p class="muted">
                { "What a runtime verifier should try against the launched job, from outside the candidate's control. \
                   Repeat after changing the image, mounts, runner version or orchestration policy." }
            </p>
            if report.runtime_checks.is_empty() {
                <p class="empty">{ "No checks planned." }</p>
            } else {
                <div class="table-scroll" tabindex="0" role="region" aria-label="Runtime-check plan, scrollable">
                    <table class="table plan-table">
                        <thead><tr>
                            <th scope="col">{ "Id" }</th><th scope="col">{ "Kind" }</th><th scope="col">{ "Target" }</th>
                            <th scope="col">{ "Expect" }</th><th scope="col">{ "Because" }</th>
                        </tr></thead>
                        <tbody>{ for rows }</tbody>
                    </table>
                </div>
            }
        </section>
    }
}
