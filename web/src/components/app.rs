use std::rc::Rc;

use gloo_timers::callback::Timeout;
use isolint_core::view_model;
use yew::prelude::*;

use super::editor::Editor;
use super::exports::export_tools;
use super::findings::{filter_bar, FindingList};
use super::gallery::{gallery, lesson_card};
use super::profiles::profile_picker;
use super::tables::Tables;
use super::tools::{profile_tools, runner_tools, status_line};
use super::verdict::{verdict_banner, verdict_strip};
use super::{Dispatch, Shared};
use crate::browser;
use crate::state::{Action, Draft, PendingLink, State, Status, DEBOUNCE_MS, PASTED_DRAFT_KEY};

/// The root: owns the one state, provides the dispatcher, lays out the page.
#[function_component(App)]
pub fn app() -> Html {
    let state = use_reducer(|| State::new(browser::start()));
    let dispatch: Dispatch = state.dispatcher();

    // Live audit: each edit bumps the revision; the audit runs once the
    // learner pauses. A newer edit drops the older timer.
    {
        let dispatch = dispatch.clone();
        use_effect_with(state.revision, move |&revision| {
            let timer = Timeout::new(DEBOUNCE_MS, move || {
                dispatch.dispatch(Action::Audit { revision })
            });
            move || drop(timer)
        });
    }

    // Drafts: after each load, offer back an edit kept from earlier (on the
    // first load also pasted work, which has no lesson to reopen); after
    // each audit, keep the edit, masked, in this browser only, under the
    // key of where the content came from.
    {
        let dispatch = dispatch.clone();
        let key = state.draft_key();
        let first = state.loads == 1;
        use_effect_with(state.loads, move |_| {
            if let Some(text) = browser::load_draft(&key) {
                dispatch.dispatch(Action::OfferDraft {
                    key: key.clone(),
                    text,
                });
            }
            if first && key != PASTED_DRAFT_KEY {
                if let Some(text) = browser::load_draft(PASTED_DRAFT_KEY) {
                    dispatch.dispatch(Action::OfferDraft {
                        key: PASTED_DRAFT_KEY.into(),
                        text,
                    });
                }
            }
        });
    }
    {
        let key = state.draft_key();
        let keep = state.masked_draft();
        use_effect_with((state.audited, state.loads), move |_| {
            if let Some(text) = keep {
                browser::save_draft(&key, text.as_deref());
            }
        });
    }
    // A share link pasted into this tab's address bar (or reached with
    // Back/Forward) opens as its own context; past the caps it waits for a yes.
    {
        let dispatch = dispatch.clone();
        use_effect_with((), move |_| {
            let listener = web_sys::window().map(|window| {
                gloo_events::EventListener::new(&window, "hashchange", move |_| {
                    match browser::fragment_link() {
                        Some(Ok(link)) => match link.confirm {
                            None => {
                                dispatch.dispatch(Action::OpenLink(link.text));
                                dispatch.dispatch(Action::Notify(Status::info(
                                    "opened the profile carried by this link",
                                )));
                            }
                            Some(reason) => dispatch.dispatch(Action::HoldLink(PendingLink {
                                text: link.text.into(),
                                reason,
                            })),
                        },
                        Some(Err(message)) => {
                            dispatch.dispatch(Action::Notify(Status::error(format!(
                        "this link's profile could not be read ({message}); the editor is unchanged"
                    ))))
                        }
                        None => {}
                    }
                })
            });
            move || drop(listener)
        });
    }

    let report = state.report.as_ref().map(|r| Shared(Rc::clone(r)));
    let current = state.current_report().map(|r| Shared(Rc::clone(r)));
    let grouped = {
        let report = report.clone();
        use_memo((report, state.filter.clone()), |(report, filter)| {
            report
                .as_ref()
                .map(|r| view_model::group_with(r, filter, browser::lowercase))
        })
    };
    let marks = {
        let current = current.clone();
        let st = state.clone();
        use_memo(current, move |_| st.line_marks())
    };
    let observed = {
        let st = state.clone();
        use_memo(
            (
                current.clone(),
                state
                    .observations
                    .as_ref()
                    .map(|(_, o)| Shared(Rc::clone(o))),
            ),
            move |_| st.reconciliation(),
        )
    };
    // The open finding's fix: core fixes the text and audits the result,
    // so only when the finding or the audited text changes.
    let fix = {
        let st = state.clone();
        use_memo(
            (current.clone(), state.selected_index(), state.revision),
            move |_| st.fix_preview(),
        )
    };
    let error_line = state.input_error.as_ref().and_then(|e| e.line);
    let verdict = match (&current, &state.input_error) {
        (_, Some(_)) => "unreadable",
        (Some(r), None) => r.verdict.as_str(),
        (None, None) => "pending",
    };
    let catalog_label = state.catalog_label();
    let eligible_now = current
        .as_ref()
        .is_some_and(|r| r.verdict == isolint_core::Verdict::EligibleForRuntimeTesting);

    html! {
        <div class="app"
            data-verdict={verdict}
            data-revision={state.revision.to_string()}
            data-audited={state.audited.to_string()}
            data-audit-count={state.timing.count.to_string()}
            data-audit-ms={state.timing.last_ms_text()}>
            <a class="skip-link" href="#results">{ "Skip to the findings" }</a>
            <header class="masthead">
                <h1>{ "isolint" }<span class="masthead-sub">{ " · execution profile audit" }</span></h1>
                <p class="tagline">
                    { "Compare a job's sandbox settings with the workshop's trusted fixture labels. \
                       Everything runs in this page: nothing you type or open is uploaded." }
                </p>
            </header>
            { verdict_strip(report.as_deref(), state.input_error.is_none()) }
            { gallery(&dispatch, state.lesson) }
            <main class="workspace">
                <section class="pane editor-pane" aria-labelledby="editor-title">
                    <div class="pane-head">
                        <h2 id="editor-title">{ "Profile" }</h2>
                        <span class="source-name" id="source-name" title="exported as profile.source">{ isolint_core::sanitize::neutralize(&state.source_name).into_owned() }</span>
                    </div>
                    { profile_tools(&dispatch, &state.catalog, &catalog_label, state.catalog_error.as_deref()) }
                    { runner_tools(&dispatch, state.runner.as_ref().map(|r| r.file.as_str()), state.runner_applied, state.runner_error.as_deref()) }
                    { link_confirm(&dispatch, state.pending_link.as_ref()) }
                    { for state.drafts.iter().map(|d| draft_offer(&dispatch, d, &state.draft_key())) }
                    <Editor
                        dispatch={dispatch.clone()}
                        text={Rc::clone(&state.text)}
                        cursor_line={state.cursor_line}
                        jump={state.jump}
                        marks={marks}
                        error_line={error_line} />
                    { status_line(&dispatch, state.status.as_ref()) }
                </section>
                <section class="pane results-pane" id="results" aria-labelledby="results-title" tabindex="-1">
                    <h2 id="results-title" class="visually-hidden">{ "Audit results" }</h2>
                    { lesson_card(state.lesson, eligible_now) }
                    { profile_picker(&dispatch, &state.profiles, state.profile) }
                    { verdict_banner(
                        &dispatch,
                        report.as_deref(),
                        state.input_error.as_ref(),
                        state.today.map(|d| d.to_string()),
                        state.today_pinned,
                        &catalog_label,
                    ) }
                    { export_tools(&dispatch, current.as_ref(), state.share_link.as_deref()) }
                    { filter_bar(&dispatch, &state.filter, grouped.as_ref().as_ref()) }
                    <FindingList
                        dispatch={dispatch.clone()}
                        report={report.clone()}
                        grouped={grouped}
                        selected={state.selected_index()}
                        stale={!state.is_current()}
                        fix={fix} />
                </section>
            </main>
            <Tables dispatch={dispatch.clone()} report={report}
                observed={observed}
                observations={state.observations.as_ref().map(|(file, o)| (file.to_string(), isolint_core::sanitize::neutralize(&o.runner).into_owned()))}
                observations_error={state.observations_error.clone()} />
            <footer class="footer">
                <p>{ isolint_core::NOTICE }</p>
                { forget_drafts(&dispatch) }
                <p>{ format!("isolint {} · rules and wording come from the same core library as the command line.", isolint_core::report::TOOL_VERSION) }</p>
            </footer>
        </div>
    }
}

/// The offer to bring back an edit kept from an earlier visit: this
/// content's own draft, or pasted work (which has no lesson to reopen).
fn draft_offer(dispatch: &Dispatch, draft: &Draft, own_key: &str) -> Html {
    let own = draft.key == own_key;
    let (id, restore_id, discard_id, text) = if own {
        (
            "draft-offer",
            "restore-draft",
            "discard-draft",
            "You edited this profile earlier; the edit was kept in this browser only, secret values masked.",
        )
    } else {
        (
            "pasted-offer",
            "restore-pasted",
            "discard-pasted",
            "Your pasted work from an earlier visit was kept in this browser only, secret values masked.",
        )
    };
    let restore = super::send_on_click(dispatch, Action::RestoreDraft(draft.key.clone()));
    let discard = {
        let dispatch = dispatch.clone();
        let key = draft.key.clone();
        Callback::from(move |_: MouseEvent| {
            // "Keep this version" means the kept edit is not wanted: delete
            // it, so it is not offered to the next learner at this machine.
            browser::save_draft(&key, None);
            dispatch.dispatch(Action::DiscardDraft(key.clone()));
        })
    };
    html! {
        <div class="alert draft-offer" {id} role="group" aria-label="Saved edit">
            <span>{ text }</span>
            <button type="button" class="button button-small" id={restore_id} onclick={restore}>{ "Restore your edit" }</button>
            <button type="button" class="button button-small" id={discard_id} onclick={discard}>{ if own { "Keep this version" } else { "Delete it" } }</button>
        </div>
    }
}

/// A link past the caps: nothing of it is rendered until the learner says yes.
fn link_confirm(dispatch: &Dispatch, pending: Option<&PendingLink>) -> Html {
    let Some(link) = pending else {
        return html! {};
    };
    let open = super::send_on_click(dispatch, Action::ConfirmLink);
    let refuse = super::send_on_click(dispatch, Action::RefuseLink);
    html! {
        <div class="alert link-confirm" id="link-confirm" role="alertdialog" aria-label="Large shared link">
            <span>{ format!("This link carries a large file ({}). Opening it may make the page slow.", link.reason) }</span>
            <button type="button" class="button button-small" id="open-link" onclick={open}>{ "Open it" }</button>
            <button type="button" class="button button-small" id="refuse-link" onclick={refuse}>{ "Don't open" }</button>
        </div>
    }
}

/// The visible way to delete every kept draft from this browser.
fn forget_drafts(dispatch: &Dispatch) -> Html {
    let dispatch = dispatch.clone();
    let onclick = Callback::from(move |_: MouseEvent| {
        browser::forget_drafts();
        dispatch.dispatch(Action::ForgetDrafts);
        dispatch.dispatch(Action::Notify(Status::info(
            "every draft kept in this browser was deleted",
        )));
    });
    html! {
        <p class="drafts-note">
            { "Your edits are kept as drafts in this browser only (secret values masked), so a reload does not lose them. " }
            <button type="button" class="button button-small" id="forget-drafts" {onclick}>{ "Forget my drafts" }</button>
        </p>
    }
}
