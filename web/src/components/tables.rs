//! The mounts-vs-labels table and the runtime-check plan, straight from
//! the report (values already redacted and neutralized by core).

use std::rc::Rc;

use isolint_core::model::StringEnum;
use isolint_core::observe::{Reconciled, Reconciliation, Status};
use isolint_core::Report;
use yew::prelude::*;

use super::tools::{file_button, JSON_TYPES};
use super::{Dispatch, Shared};
use crate::state::Action;

#[derive(Properties, PartialEq)]
pub struct TablesProps {
    pub dispatch: Dispatch,
    pub report: Option<Shared<Report>>,
    /// The plan joined with opened observations (core's `join_report`).
    pub observed: Rc<Option<Reconciliation>>,
    /// The observations' file and runner, when a file is open.
    pub observations: Option<(String, String)>,
    pub observations_error: Option<String>,
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
            { checks_table(&props.dispatch, report, props) }
        </div>
    }
}

fn mounts_table(dispatch: &Dispatch, report: &Report) -> Html {
    let rows = report.mounts.iter().map(|m| {
        let goto = m.line.map(|line| {
            let onclick = super::send_on_click(dispatch, Action::RevealLine(line));
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

/// The observed cell of one check: status, what was seen, and why.
fn observed_cell(r: Option<&Reconciled>) -> Html {
    let Some(r) = r else {
        return html! { <td data-label="Observed" class="observed"><span class="muted">{ "not in the file" }</span></td> };
    };
    let mark = match r.status {
        Status::Agrees => "✓ agrees",
        Status::Disagrees => "✗ disagrees",
        Status::NotObservable => "– not observable",
        Status::Stale => "↻ stale",
    };
    let seen = match (&r.observed, &r.errno) {
        (Some(o), Some(e)) => format!(
            "{} ({}); ",
            o.as_str(),
            isolint_core::sanitize::neutralize(e)
        ),
        (Some(o), None) => format!("{}; ", o.as_str()),
        _ => String::new(),
    };
    html! {
        <td data-label="Observed" class={classes!("observed", format!("obs-{}", r.status.as_str()))}>
            <strong>{ mark }</strong>
            <div class="muted">{ format!("{seen}{}", r.reason) }</div>
        </td>
    }
}

/// Open or drop an observations file, with the counts once one is open.
fn observations_bar(dispatch: &Dispatch, props: &TablesProps) -> Html {
    let drop_obs = super::send_on_click(dispatch, Action::DropObservations);
    let summary = match (&props.observations, props.observed.as_ref()) {
        (Some((file, runner)), Some(r)) => {
            let unknown = if r.unknown.is_empty() {
                String::new()
            } else {
                format!(
                    "; {} name no check of this plan ({})",
                    super::findings::plural(r.unknown.len(), "observation"),
                    isolint_core::sanitize::neutralize(&r.unknown.join(", "))
                )
            };
            format!(
                "{file} (runner: {runner}): {} agree, {} disagree, {} not observable, {} stale{unknown}",
                r.count(Status::Agrees),
                r.count(Status::Disagrees),
                r.count(Status::NotObservable),
                r.count(Status::Stale)
            )
        }
        (Some((file, _)), None) => format!("{file}: the profile cannot be audited, so there is no plan to compare"),
        (None, _) => "Open the isolint.observations/v1 file that isolint probe wrote in the launched environment to mark each check.".into(),
    };
    html! {
        <div class="tool-row observations-bar" role="group" aria-label="Observations">
            { file_button(dispatch, "open-observations", JSON_TYPES, "Open observations…", None, |name, bytes| {
                Action::LoadObservations { name, bytes }
            }) }
            if props.observations.is_some() {
                <button type="button" class="button button-small" id="drop-observations" onclick={drop_obs}>{ "Close" }</button>
            }
            <span class="muted" id="observations-summary">{ summary }</span>
            if let Some(e) = &props.observations_error {
                <div class="alert alert-error" role="alert" id="observations-error"><span class="pre">{ e.clone() }</span></div>
            }
        </div>
    }
}

fn checks_table(dispatch: &Dispatch, report: &Report, props: &TablesProps) -> Html {
    let observed = props.observed.as_ref().as_ref();
    let rows = report.runtime_checks.iter().map(|c| {
        let joined = observed.map(|o| o.checks.iter().find(|r| r.id == c.id));
        let status = joined.flatten().map(|r| r.status.as_str());
        html! {
            <tr data-check={c.id.clone()} data-status={status}>
                <td class="check-id">{ c.id.clone() }</td>
                <td data-label="Kind"><code>{ c.kind.as_str() }</code></td>
                <td data-label="Target"><code>{ c.target.to_string() }</code></td>
                <td data-label="Expect">{ c.expect.as_str() }</td>
                if let Some(j) = joined {
                    { observed_cell(j) }
                }
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
            { observations_bar(dispatch, props) }
            if report.runtime_checks.is_empty() {
                <p class="empty">{ "No checks planned." }</p>
            } else {
                <div class="table-scroll" tabindex="0" role="region" aria-label="Runtime-check plan, scrollable">
                    <table class="table plan-table">
                        <thead><tr>
                            <th scope="col">{ "Id" }</th><th scope="col">{ "Kind" }</th><th scope="col">{ "Target" }</th>
                            <th scope="col">{ "Expect" }</th>
                            if observed.is_some() {
                                <th scope="col">{ "Observed" }</th>
                            }
                            <th scope="col">{ "Because" }</th>
                        </tr></thead>
                        <tbody>{ for rows }</tbody>
                    </table>
                </div>
            }
        </section>
    }
}
