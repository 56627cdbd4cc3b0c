//! The fix part of a finding's detail: the edit in the file's own format,
//! its applicability and "Apply"; or, where no fix applies, why, beside
//! the rule's advice in profile terms.

use wasm_bindgen::JsCast;
use web_sys::{HtmlDocument, HtmlTextAreaElement};
use yew::prelude::*;

use isolint_core::fix::Applicability;

use super::{rich, Dispatch};
use crate::fixes::{FixPreview, ReadyFix};
use crate::state::{Action, Status};

/// The detail's rows about fixing: `preview` is `None` while the report
/// describes an older text (the fix waits for the audit).
pub fn fix_rows(dispatch: &Dispatch, preview: Option<&FixPreview>, remediation: &str) -> Html {
    let advice = html! {
        <>
            <dt>{ "How to fix" }</dt><dd>{ rich(remediation) }</dd>
        </>
    };
    match preview {
        Some(FixPreview::Ready(fix)) => ready(dispatch, fix),
        Some(FixPreview::None(why)) => html! {
            <>
                { advice }
                <dt>{ "Automatic fix" }</dt>
                <dd class="muted" id="fix-none">{ rich(why) }</dd>
            </>
        },
        None => advice,
    }
}

fn ready(dispatch: &Dispatch, fix: &ReadyFix) -> Html {
    let (class, says) = match fix.applicability {
        Applicability::Safe => (
            "fix-safe",
            "safe: it only tightens, and removes nothing the job's needs list",
        ),
        Applicability::Unsafe => (
            "fix-unsafe",
            "unsafe: it may break the job; check the job does without what it removes",
        ),
    };
    let onclick = {
        let dispatch = dispatch.clone();
        let (start, end) = fix.select;
        let text = fix.splice.text.clone();
        let rule = fix.rule;
        Callback::from(move |_: MouseEvent| {
            if let Some(all) = replace_in_editor(start, end, &text) {
                // No input event came (execCommand unsupported): say so by hand.
                dispatch.dispatch(Action::Edit(all));
            }
            dispatch.dispatch(Action::Notify(Status::info(format!(
                "applied the fix of {rule}; undo with Ctrl+Z"
            ))));
        })
    };
    let lines = fix.hunks.iter().map(|h| {
        html! {
            <>
                <span class="diff-hunk">{ h.header() }</span>{ "\n" }
                { for h.removed.iter().map(|l| html! { <><span class="diff-del">{ format!("-{l}") }</span>{ "\n" }</> }) }
                { for h.added.iter().map(|l| html! { <><span class="diff-add">{ format!("+{l}") }</span>{ "\n" }</> }) }
            </>
        }
    });
    html! {
        <>
            <dt>{ "Fix" }</dt>
            <dd class="fix" id="fix" data-applicability={fix.applicability.as_str()}>
                <p class="fix-summary">
                    <span class={classes!("fix-applicability", class)}>{ fix.applicability.as_str() }</span>
                    { " " }{ rich(fix.summary) }{ ", in this file" }
                </p>
                <pre class="fix-diff" id="fix-diff" aria-label="The edit, as a diff (secret values masked)">{ for lines }</pre>
                <p class="fix-apply">
                    <button type="button" class="button button-small" id="apply-fix" {onclick}>{ "Apply" }</button>
                    <span class="muted">{ format!(" {says}. Re-audited after the edit.") }</span>
                </p>
            </dd>
        </>
    }
}

/// Replace UTF-16 units `start..end` of the editor's text with `text` as
/// typing would: `execCommand("insertText")` puts the change on the
/// browser's undo stack and fires the `input` event the editor already
/// audits on. Where the browser refuses the command, the text is replaced
/// directly (no undo) and returned, for the caller to send as an edit.
fn replace_in_editor(start: u32, end: u32, text: &str) -> Option<String> {
    let document = web_sys::window()?.document()?;
    let area: HtmlTextAreaElement = document
        .get_element_by_id("profile-editor")?
        .dyn_into()
        .ok()?;
    let _ = area.focus();
    let _ = area.set_selection_range(start, end);
    let html: &HtmlDocument = document.unchecked_ref();
    let done = if text.is_empty() {
        html.exec_command("delete")
    } else {
        html.exec_command_with_show_ui_and_value("insertText", false, text)
    };
    if done.unwrap_or(false) {
        return None;
    }
    let _ = area.set_range_text_with_start_and_end(text, start, end);
    Some(area.value())
}
