//! The page's function components. They render what `state` and core's
//! view model hand them; none of them filters, groups or re-derives.

mod app;
mod editor;
mod exports;
mod findings;
mod fix;
mod gallery;
mod profiles;
mod tables;
mod tools;
mod verdict;

pub use app::App;

use std::ops::Deref;
use std::rc::Rc;

use isolint_core::model::StringEnum;
use isolint_core::Severity;
use yew::prelude::*;

use crate::state::{Action, State};

/// How components send actions: [`App`]'s dispatcher, handed down as a
/// prop or argument (a context would cost the page's wasm a provider
/// component and a hook).
pub type Dispatch = UseReducerDispatcher<State>;

/// An `Rc` compared by address, for props: a component holding the report
/// re-renders only when a new audit replaced it.
#[derive(Debug)]
pub struct Shared<T>(pub Rc<T>);

impl<T> Clone for Shared<T> {
    fn clone(&self) -> Self {
        Shared(Rc::clone(&self.0))
    }
}

impl<T> PartialEq for Shared<T> {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

impl<T> Deref for Shared<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.0
    }
}

/// A click that only sends `action`. One closure type for every such
/// button: each closure type is a callback's worth of code of its own.
fn send_on_click(dispatch: &Dispatch, action: Action) -> Callback<MouseEvent> {
    let dispatch = dispatch.clone();
    Callback::from(move |_: MouseEvent| dispatch.dispatch(action.clone()))
}

/// Text with `backtick` spans shown as code. Always text nodes: whatever the
/// profile holds is displayed, never interpreted as markup.
fn rich(text: &str) -> Html {
    text.split('`')
        .enumerate()
        .map(|(i, part)| {
            if part.is_empty() {
                html! {}
            } else if i % 2 == 1 {
                html! { <code>{ part.to_string() }</code> }
            } else {
                html! { { part.to_string() } }
            }
        })
        .collect()
}

/// A severity pill.
fn severity_badge(s: Severity) -> Html {
    html! { <span class={classes!("sev", format!("sev-{}", s.as_str()))}>{ s.as_str() }</span> }
}
