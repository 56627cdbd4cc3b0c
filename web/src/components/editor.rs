//! The profile editor: a plain textarea (so paste, undo, selection and
//! screen readers work as everywhere), a line-number gutter that scrolls
//! with it, and a highlight band behind the selected line.
//!
//! Positions are passed to CSS as custom properties through the CSSOM
//! (`style.setProperty`), which the page's Content-Security-Policy allows,
//! unlike inline `style` attributes.

use std::rc::Rc;

use isolint_core::model::StringEnum;
use isolint_core::Severity;
use wasm_bindgen::JsCast;
use web_sys::{HtmlElement, HtmlTextAreaElement};
use yew::prelude::*;

use super::tools::read_file;
use super::Dispatch;
use crate::lines::{line_count, utf16_span};
use crate::state::Action;

/// What the editor reads, for screen readers: every format core imports.
const EDITOR_LABEL: &str = "Sandbox configuration: an isolint profile (JSON), a Kubernetes manifest or Docker Compose file (YAML), an OCI config.json, a Codex config.toml, sandbox-runtime or Claude Code settings (JSON), or a bwrap command line";

/// The help under the editor, naming every format it reads.
const EDITOR_HELP: &str =
    "Type or paste, or drop a file on the editor: an isolint profile (JSON), \
    a Kubernetes manifest or Docker Compose file (YAML), an OCI config.json, a Codex config.toml, \
    sandbox-runtime or Claude Code settings (JSON), or a bwrap command line. \
    The audit reruns a moment after you stop typing.";

/// Must equal `--lh` in style.css: the editor's fixed line height.
const LINE_PX: i32 = 20;

/// Above this many lines the gutter shows bare numbers, without marks.
const MARKED_GUTTER_MAX: u32 = 5_000;

#[derive(Properties, PartialEq)]
pub struct EditorProps {
    pub dispatch: Dispatch,
    pub text: Rc<str>,
    pub cursor_line: Option<u32>,
    /// Bumped when the editor must scroll to `cursor_line`.
    pub jump: u64,
    /// Worst severity per line, sorted by line.
    pub marks: Rc<Vec<(u32, Severity)>>,
    pub error_line: Option<u32>,
}

fn set_var(node: &NodeRef, name: &str, value: &str) {
    if let Some(el) = node.cast::<HtmlElement>() {
        let _ = el.style().set_property(name, value);
    }
}

/// Move the gutter and the highlight band with the textarea's scroll.
fn show_scroll(root: &NodeRef, ta: &HtmlTextAreaElement) {
    set_var(root, "--scroll-y", &ta.scroll_top().to_string());
    set_var(root, "--scroll-x", &ta.scroll_left().to_string());
}

#[function_component(Editor)]
pub fn editor(props: &EditorProps) -> Html {
    let dispatch = props.dispatch.clone();
    let root = use_node_ref();
    let area = use_node_ref();
    let dragging = use_state(|| false);
    let lines = line_count(&props.text);

    // The highlight band follows the cursor line.
    {
        let root = root.clone();
        use_effect_with(props.cursor_line, move |line| {
            if let Some(l) = line {
                set_var(&root, "--hl-line", &l.to_string());
            }
        });
    }

    // Jump: select the line and scroll it into view, a third of the way down.
    {
        let (root, area) = (root.clone(), area.clone());
        let text = Rc::clone(&props.text);
        let line = props.cursor_line;
        use_effect_with(props.jump, move |_| {
            if let Some(ta) = area.cast::<HtmlTextAreaElement>() {
                match line {
                    Some(l) => {
                        if let Some((start, end)) = utf16_span(&text, l) {
                            let _ = ta.set_selection_range(start, end);
                        }
                        let offset = (i32::try_from(l).unwrap_or(i32::MAX / LINE_PX) - 1) * LINE_PX;
                        ta.set_scroll_top((offset - ta.client_height() / 3).max(0));
                        // Selecting a long line scrolls to its end; show its start.
                        ta.set_scroll_left(0);
                    }
                    None => {
                        ta.set_scroll_top(0);
                        ta.set_scroll_left(0);
                    }
                }
                show_scroll(&root, &ta);
            }
        });
    }

    let onscroll = {
        let root = root.clone();
        Callback::from(move |e: Event| {
            show_scroll(&root, &e.target_unchecked_into());
        })
    };
    let oninput = {
        let dispatch = dispatch.clone();
        Callback::from(move |e: InputEvent| {
            let ta: HtmlTextAreaElement = e.target_unchecked_into();
            // Pasted or dropped text may be a whole other file: the state
            // decides whether it is new content or an edit.
            let action = match e.input_type().as_str() {
                "insertFromPaste" | "insertFromDrop" => Action::PasteInto(ta.value()),
                _ => Action::Edit(ta.value()),
            };
            dispatch.dispatch(action);
        })
    };
    let ondragover = {
        let dragging = dragging.clone();
        Callback::from(move |e: DragEvent| {
            e.prevent_default();
            if !*dragging {
                dragging.set(true);
            }
        })
    };
    let ondragleave = {
        let (dragging, root) = (dragging.clone(), root.clone());
        Callback::from(move |e: DragEvent| {
            // Moving between the editor's own children also fires dragleave.
            let inside = e
                .related_target()
                .and_then(|t| t.dyn_into::<web_sys::Node>().ok())
                .zip(root.cast::<web_sys::Node>())
                .is_some_and(|(t, r)| r.contains(Some(&t)));
            if !inside {
                dragging.set(false);
            }
        })
    };
    let ondrop = {
        let dragging = dragging.clone();
        Callback::from(move |e: DragEvent| {
            e.prevent_default();
            dragging.set(false);
            let file = e
                .data_transfer()
                .and_then(|d| d.files())
                .and_then(|f| f.get(0));
            if let Some(file) = file {
                read_file(dispatch.clone(), file, |name, bytes| Action::LoadFile {
                    name,
                    bytes,
                });
            }
        })
    };

    let gutter = gutter(lines, &props.marks, props.cursor_line, props.error_line);
    let band_class = classes!(
        "line-band",
        props.cursor_line.is_none().then_some("hidden"),
        (props.error_line.is_some() && props.error_line == props.cursor_line)
            .then_some("line-band-error")
    );

    html! {
        <div class="editor-wrap">
            <div ref={root} class={classes!("editor", dragging.then_some("dragging"))}
                {ondragover} {ondragleave} {ondrop}
                data-line={props.cursor_line.map(|l| l.to_string())}>
                <div class="gutter"><div class="gutter-inner">{ gutter }</div></div>
                <div class="code">
                    <div class={band_class} id="line-band" aria-hidden="true"></div>
                    <textarea ref={area} id="profile-editor" class="code-input"
                        value={AttrValue::from(Rc::clone(&props.text))}
                        {oninput} {onscroll}
                        wrap="off" spellcheck="false" autocomplete="off" autocapitalize="off"
                        aria-label={EDITOR_LABEL}
                        aria-describedby="editor-help" />
                </div>
                if *dragging {
                    <div class="drop-hint" aria-hidden="true">{ "Drop the profile file to open it" }</div>
                }
            </div>
            <p id="editor-help" class="editor-help">
                { EDITOR_HELP }
            </p>
        </div>
    }
}

fn gutter(lines: u32, marks: &[(u32, Severity)], cursor: Option<u32>, error: Option<u32>) -> Html {
    if lines > MARKED_GUTTER_MAX {
        let numbers: String = (1..=lines).map(|n| format!("{n}\n")).collect();
        return html! { <pre class="gutter-plain">{ numbers }</pre> };
    }
    let mut marks = marks.iter().peekable();
    (1..=lines)
        .map(|n| {
            while marks.peek().is_some_and(|(l, _)| *l < n) {
                marks.next();
            }
            let mark = marks
                .peek()
                .filter(|(l, _)| *l == n)
                .map(|(_, s)| format!("mark-{}", s.as_str()));
            // A marked line says what its mark means, as a tooltip and to
            // screen readers; plain numbers stay silent.
            let label = match (error == Some(n), marks.peek().filter(|(l, _)| *l == n)) {
                (true, _) => Some(format!("line {n}: the file cannot be read here")),
                (false, Some((_, s))) => Some(format!("line {n}: {} finding", s.as_str())),
                (false, None) => None,
            };
            let class = classes!(
                "ln",
                mark,
                (cursor == Some(n)).then_some("ln-current"),
                (error == Some(n)).then_some("ln-error")
            );
            match label {
                Some(label) => html! {
                    <div {class} role="img" title={label.clone()} aria-label={label}>{ n }</div>
                },
                None => html! { <div {class} aria-hidden="true">{ n }</div> },
            }
        })
        .collect()
}
