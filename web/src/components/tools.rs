//! Opening profiles, catalogs and runner overlays, and the status line.

use web_sys::{File, HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

use super::Dispatch;
use crate::browser;
use crate::state::{Action, CatalogChoice, Status, WORKSHOP_SOURCE};

/// Files the profile picker offers: profiles and every format core imports.
const PROFILE_TYPES: &str = ".json,.yaml,.yml,.toml,.sh,application/json";

/// Files the catalog, runner and observations pickers offer.
pub(super) const JSON_TYPES: &str = ".json,application/json";

/// Read the first file of a file input, then hand it to `make`.
fn on_file_chosen(dispatch: Dispatch, make: fn(String, Vec<u8>) -> Action) -> Callback<Event> {
    Callback::from(move |e: Event| {
        let input: HtmlInputElement = e.target_unchecked_into();
        let Some(file) = input.files().and_then(|f| f.get(0)) else {
            return;
        };
        // Clear it so choosing the same file again still fires `change`.
        input.set_value("");
        read_file(dispatch.clone(), file, make);
    })
}

/// Read `file`, then hand its name and bytes to `make`.
pub(super) fn read_file(dispatch: Dispatch, file: File, make: fn(String, Vec<u8>) -> Action) {
    wasm_bindgen_futures::spawn_local(async move {
        match browser::read_file(&file).await {
            Ok(bytes) => dispatch.dispatch(make(file.name(), bytes)),
            Err(message) => dispatch.dispatch(Action::Notify(Status::error(message))),
        }
    });
}

/// A file input shown as a button: `label` opens the picker, and the
/// chosen file is read and handed to `make`.
pub(super) fn file_button(
    dispatch: &Dispatch,
    id: &'static str,
    accept: &'static str,
    label: &'static str,
    title: Option<&'static str>,
    make: fn(String, Vec<u8>) -> Action,
) -> Html {
    let onchange = on_file_chosen(dispatch.clone(), make);
    html! {
        <span class="file-button">
            <input type="file" {id} class="visually-hidden" {accept} {onchange} />
            <label for={id} class="button" {title}>{ label }</label>
        </span>
    }
}

/// Open, paste or reset the profile; choose the catalog. A plain function,
/// not a component: it keeps no state.
pub fn profile_tools(
    dispatch: &Dispatch,
    catalog: &CatalogChoice,
    catalog_label: &str,
    catalog_error: Option<&str>,
) -> Html {
    let reset = {
        let dispatch = dispatch.clone();
        Callback::from(move |_: MouseEvent| {
            dispatch.dispatch(Action::Load {
                name: WORKSHOP_SOURCE.into(),
                text: isolint_core::WORKSHOP_PROFILE.into(),
                lesson: Some("workshop"),
            })
        })
    };
    let paste = {
        let dispatch = dispatch.clone();
        Callback::from(move |_: MouseEvent| {
            let dispatch = dispatch.clone();
            wasm_bindgen_futures::spawn_local(async move {
                match browser::paste_text().await {
                    Ok(text) => dispatch.dispatch(Action::Paste(text)),
                    // No clipboard access: the editor keeps its text (a paste
                    // that wiped it could not be undone) and the learner is
                    // told how to paste with the keyboard instead.
                    Err(_) => {
                        dispatch.dispatch(Action::Notify(Status::info(
                            "the browser did not allow reading the clipboard; the editor is unchanged. Click in the editor, select all (Ctrl+A, ⌘A on a Mac) and paste with Ctrl+V (⌘V)",
                        )));
                        browser::focus("profile-editor");
                    }
                }
            });
        })
    };
    let choose_catalog = {
        let dispatch = dispatch.clone();
        Callback::from(move |e: Event| {
            let select: HtmlSelectElement = e.target_unchecked_into();
            if select.value() == "workshop" {
                dispatch.dispatch(Action::UseWorkshopCatalog);
            }
        })
    };
    let dismiss_catalog_error = super::send_on_click(dispatch, Action::DismissCatalogError);
    let loaded = matches!(catalog, CatalogChoice::Loaded { .. });

    html! {
        <div class="tools" role="group" aria-label="Profile and catalog">
            <div class="tool-row">
                { file_button(dispatch, "open-profile", PROFILE_TYPES, "Open file…", None, |name, bytes| {
                    Action::LoadFile { name, bytes }
                }) }
                <button type="button" class="button" id="paste-profile" onclick={paste}
                    title="Replace the editor's text with the clipboard's">{ "Paste" }</button>
                <button type="button" class="button" id="reset-workshop" onclick={reset}>{ "Workshop profile" }</button>
            </div>
            <div class="tool-row">
                <label for="catalog-select" class="tool-label">{ "Labels" }</label>
                <select id="catalog-select" onchange={choose_catalog}>
                    <option value="workshop" selected={!loaded}>{ "workshop (embedded)" }</option>
                    if loaded {
                        <option value="loaded" selected=true>{ catalog_label.to_string() }</option>
                    }
                </select>
                { file_button(dispatch, "open-catalog", JSON_TYPES, "Load catalog…", None, |name, bytes| {
                    Action::LoadCatalog { name, bytes }
                }) }
            </div>
            if let Some(error) = catalog_error {
                <div class="alert alert-error" role="alert" id="catalog-error">
                    <strong>{ "Catalog refused. " }</strong>
                    <span class="pre">{ error.to_string() }</span>
                    <button type="button" class="button button-small" onclick={dismiss_catalog_error}>{ "Dismiss" }</button>
                </div>
            }
        </div>
    }
}

/// One polite live region for transient messages (file opened, link copied…).
pub fn status_line(dispatch: &Dispatch, status: Option<&Status>) -> Html {
    let dismiss = super::send_on_click(dispatch, Action::DismissStatus);
    let (class, text) = match status {
        Some(s) if s.error => ("status status-error", s.text.clone()),
        Some(s) => ("status", s.text.clone()),
        None => ("status status-empty", String::new()),
    };
    html! {
        <div class={class} id="status" role="status" aria-live="polite">
            <span>{ text }</span>
            if status.is_some() {
                <button type="button" class="button button-small" aria-label="Dismiss message" onclick={dismiss}>{ "×" }</button>
            }
        </div>
    }
}

/// Open, paste or drop the runner overlay (`isolint audit --runner`): what
/// a manifest cannot say (cleanup, artifacts, limits enforcement,
/// concurrency, fetch stage), merged under imported profiles.
pub fn runner_tools(
    dispatch: &Dispatch,
    runner: Option<&str>,
    applied: bool,
    error: Option<&str>,
) -> Html {
    let paste = {
        let dispatch = dispatch.clone();
        Callback::from(move |_: MouseEvent| {
            let dispatch = dispatch.clone();
            wasm_bindgen_futures::spawn_local(async move {
                match browser::paste_text().await {
                    Ok(text) => dispatch.dispatch(Action::LoadRunner {
                        name: "pasted-runner.json".into(),
                        bytes: text.into_bytes(),
                    }),
                    Err(_) => dispatch.dispatch(Action::Notify(Status::info(
                        "the browser did not allow reading the clipboard; no runner overlay was loaded. Save the overlay as a file and use Runner overlay… instead",
                    ))),
                }
            });
        })
    };
    let drop_runner = super::send_on_click(dispatch, Action::DropRunner);
    let dismiss = super::send_on_click(dispatch, Action::DismissRunnerError);
    let summary = match (runner, applied) {
        (None, _) => "none".to_string(),
        (Some(file), true) => format!("{file}, merged under the imported profile"),
        (Some(file), false) => format!(
            "{file}, not applied: it applies to imported formats; an isolint.profile/v1 is audited as written"
        ),
    };
    html! {
        <>
        <div class="tool-row runner-row" role="group" aria-label="Runner overlay">
            <span class="tool-label">{ "Runner" }</span>
            <span class="runner-name" id="runner-name" data-applied={applied.to_string()}>{ summary }</span>
            { file_button(
                dispatch,
                "open-runner",
                JSON_TYPES,
                "Runner overlay…",
                Some("A partial isolint.profile/v1, as for isolint audit --runner"),
                |name, bytes| Action::LoadRunner { name, bytes },
            ) }
            <button type="button" class="button" id="paste-runner" onclick={paste}
                title="Use the clipboard's text as the runner overlay">{ "Paste runner" }</button>
            if runner.is_some() {
                <button type="button" class="button button-small" id="drop-runner" onclick={drop_runner}>{ "Remove" }</button>
            }
        </div>
        if let Some(error) = error {
            <div class="alert alert-error" role="alert" id="runner-error">
                <strong>{ "Runner overlay refused. " }</strong>
                <span class="pre">{ error.to_string() }</span>
                <button type="button" class="button button-small" onclick={dismiss}>{ "Dismiss" }</button>
            </div>
        }
        </>
    }
}
