//! The lesson gallery and the explanation of the lesson in the editor.

use yew::prelude::*;

use super::{rich, Dispatch};
use crate::lessons::{lesson, LESSONS};
use crate::state::Action;

/// One button per lesson; `current` is the lesson the editor's text came
/// from. Plain functions here, not components: they keep no state.
pub fn gallery(dispatch: &Dispatch, current: Option<&'static str>) -> Html {
    let buttons = LESSONS.iter().map(|l| {
        let dispatch = dispatch.clone();
        let onclick = Callback::from(move |_: MouseEvent| {
            dispatch.dispatch(Action::Load {
                name: l.file.into(),
                text: l.text.into(),
                lesson: Some(l.id),
            })
        });
        let pressed = current == Some(l.id);
        html! {
            <li>
                <button type="button" class={classes!("lesson", l.eligible.then_some("lesson-goal"))}
                    aria-pressed={pressed.to_string()} data-lesson={l.id} {onclick}>
                    { l.title }
                </button>
            </li>
        }
    });
    // On a phone the buttons would need a screenful or a sideways scroll:
    // the same lessons as one select (CSS shows one or the other).
    let onchange = {
        let dispatch = dispatch.clone();
        Callback::from(move |e: Event| {
            let select: web_sys::HtmlSelectElement = e.target_unchecked_into();
            if let Some(l) = crate::lessons::lesson(&select.value()) {
                dispatch.dispatch(Action::Load {
                    name: l.file.into(),
                    text: l.text.into(),
                    lesson: Some(l.id),
                });
            }
        })
    };
    let options = LESSONS.iter().map(|l| {
        html! { <option value={l.id} selected={current == Some(l.id)}>{ l.title }</option> }
    });
    html! {
        <section class="gallery" aria-labelledby="gallery-title">
            <h2 id="gallery-title">{ "Lessons" }</h2>
            <p class="muted gallery-hint">{ "Each loads a profile with one mistake; edit it until the verdict flips." }</p>
            <select id="lesson-select" class="lesson-select" aria-label="Open a lesson" {onchange}>
                <option value="" selected={current.is_none()}>{ "Your own file (choose a lesson to open one)" }</option>
                { for options }
            </select>
            <ul class="lesson-list">{ for buttons }</ul>
        </section>
    }
}

/// What the loaded lesson is about, and what to try; `eligible_now` says
/// whether the current text is eligible.
pub fn lesson_card(current: Option<&'static str>, eligible_now: bool) -> Html {
    let Some(l) = current.and_then(lesson) else {
        return html! {};
    };
    let flipped = !l.eligible && eligible_now;
    html! {
        <div class={classes!("lesson-card", flipped.then_some("lesson-flipped"))} id="lesson-card" data-lesson={l.id}>
            <h3>{ "Lesson: " }{ l.title }</h3>
            <p>{ rich(l.explanation) }</p>
            <p class="lesson-try"><strong>{ "Try: " }</strong>{ rich(l.try_this) }</p>
            if flipped {
                <p class="lesson-done">
                    { "The verdict flipped. Eligible only lets the next step run: the runtime checks must now \
                       show that the launched job really is confined." }
                </p>
            }
        </div>
    }
}
