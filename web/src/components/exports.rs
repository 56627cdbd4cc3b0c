//! Downloads (findings JSON, SARIF) and the shareable link.

use isolint_core::render::{json, sarif};
use isolint_core::Report;
use yew::prelude::*;

use super::{Dispatch, Shared};
use crate::browser;
use crate::share;
use crate::state::{Action, Status};

/// The export buttons, and the last shareable link (`link`). Only a report
/// of the current text may be exported. A plain function, not a component:
/// the link lives in the page's state.
pub fn export_tools(
    dispatch: &Dispatch,
    report: Option<&Shared<Report>>,
    link: Option<&str>,
) -> Html {
    let save = |kind: &'static str| {
        let dispatch = dispatch.clone();
        let report = report.cloned();
        Callback::from(move |_: MouseEvent| {
            let Some(report) = &report else { return };
            let stem = browser::file_stem(&report.profile.name);
            let (name, mime, text) = match kind {
                "sarif" => (
                    format!("{stem}.sarif"),
                    "application/sarif+json",
                    sarif::render(report),
                ),
                _ => (
                    format!("{stem}.findings.json"),
                    "application/json",
                    json::render(report),
                ),
            };
            let status = match browser::download(&name, mime, &text) {
                Ok(()) => Status::info(format!("saved {name}")),
                Err(e) => Status::error(format!("could not save {name}: {e}")),
            };
            dispatch.dispatch(Action::Notify(status));
        })
    };
    let copy_link = {
        let dispatch = dispatch.clone();
        let report = report.cloned();
        Callback::from(move |_: MouseEvent| {
            let Some(report) = &report else { return };
            // The learner's file as written, in its own format (not the
            // converted profile of the one profile shown), masked: secret
            // values become `*` before they reach a URL.
            let fragment = share::fragment_for(isolint_core::view_model::shown_source(report).1);
            if fragment.len() > share::MAX_LINK_CHARS {
                dispatch.dispatch(Action::Notify(Status::error(
                    "this profile is too large for a link; download it or share the file instead",
                )));
                return;
            }
            let url = match browser::link_with_fragment(&fragment) {
                Ok(url) => url,
                Err(e) => {
                    dispatch.dispatch(Action::Notify(Status::error(e)));
                    return;
                }
            };
            dispatch.dispatch(Action::ShowLink(url.clone()));
            let dispatch = dispatch.clone();
            wasm_bindgen_futures::spawn_local(async move {
                let status = match browser::copy_text(&url).await {
                    Ok(()) => Status::info(
                        "link copied: it holds the profile (secret values masked) after the #, which browsers never send to a server",
                    ),
                    Err(_) => Status::info("the browser did not allow copying: select the link below and copy it"),
                };
                dispatch.dispatch(Action::Notify(status));
            });
        })
    };
    let disabled = report.is_none();
    let why = disabled.then_some("Fix the profile so it can be read first");
    let select_all = Callback::from(|e: FocusEvent| {
        let input: web_sys::HtmlInputElement = e.target_unchecked_into();
        input.select();
    });

    html! {
        <div class="tools export-tools" role="group" aria-label="Export">
            <div class="tool-row">
                <button type="button" class="button" id="download-json" onclick={save("json")} {disabled} title={why}>
                    { "Download findings JSON" }
                </button>
                <button type="button" class="button" id="download-sarif" onclick={save("sarif")} {disabled} title={why}>
                    { "Download SARIF" }
                </button>
                <button type="button" class="button" id="copy-link" onclick={copy_link} {disabled} title={why}>
                    { "Copy shareable link" }
                </button>
            </div>
            if let Some(url) = link {
                <label class="share-link">
                    <span class="tool-label">{ "Link" }</span>
                    <input type="text" id="share-link" readonly=true value={url.to_string()} onfocus={select_all} />
                </label>
            }
        </div>
    }
}
