//! The filter bar and the findings grouped by area, with their detail.

pub(crate) use isolint_core::text::plural;
use std::rc::Rc;

use isolint_core::model::StringEnum;
use isolint_core::view_model::{self, Detail, Filter, Grouped};
use isolint_core::{Report, Severity};
use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

use super::{rich, severity_badge, Dispatch, Shared};
use crate::fixes::FixPreview;
use crate::state::Action;

/// Minimum severity and search. A plain function, not a component: it keeps
/// no state (each component costs the page's wasm its own lifecycle code).
pub fn filter_bar(dispatch: &Dispatch, filter: &Filter, grouped: Option<&Grouped>) -> Html {
    let on_severity = {
        let dispatch = dispatch.clone();
        Callback::from(move |e: Event| {
            let select: HtmlSelectElement = e.target_unchecked_into();
            if let Some(s) = Severity::parse(&select.value()) {
                dispatch.dispatch(Action::SetMinSeverity(s));
            }
        })
    };
    let dispatch = dispatch.clone();
    let on_query = Callback::from(move |e: InputEvent| {
        let input: HtmlInputElement = e.target_unchecked_into();
        dispatch.dispatch(Action::SetQuery(input.value()));
    });
    let counts = match grouped {
        Some(g) if g.shown == g.total => plural(g.total, "finding"),
        Some(g) => format!(
            "showing {} of {} findings (the exports always hold all of them)",
            g.shown, g.total
        ),
        None => String::new(),
    };
    html! {
        <div class="filter-bar" role="search" aria-label="Filter findings">
            <label class="field">
                <span class="tool-label">{ "At least" }</span>
                <select id="min-severity" onchange={on_severity}>
                    { for Severity::ALL.iter().rev().map(|s| html! {
                        <option value={s.as_str()} selected={*s == filter.min_severity}>{ s.as_str() }</option>
                    }) }
                </select>
            </label>
            <label class="field field-grow">
                <span class="tool-label">{ "Search" }</span>
                <input type="search" id="search" placeholder="rule, message, pointer…"
                    value={filter.query.clone()} oninput={on_query} />
            </label>
            <p class="filter-count" id="filter-count" aria-live="polite">{ counts }</p>
        </div>
    }
}

#[derive(Properties, PartialEq)]
pub struct FindingListProps {
    pub dispatch: Dispatch,
    pub report: Option<Shared<Report>>,
    pub grouped: Rc<Option<Grouped>>,
    pub selected: Option<usize>,
    /// The report describes an earlier text.
    pub stale: bool,
    /// The open finding's fix (`None` while the report is stale).
    pub fix: Rc<Option<FixPreview>>,
}

#[function_component(FindingList)]
pub fn finding_list(props: &FindingListProps) -> Html {
    let (Some(report), Some(grouped)) = (&props.report, props.grouped.as_ref()) else {
        return html! {};
    };
    if grouped.total == 0 {
        return html! {
            <p class="empty" id="no-findings">
                { "No findings: every declared setting matched what the rules look for. \
                   The runtime checks below still have to be observed in the launched environment." }
            </p>
        };
    }
    let nav = grouped.groups.iter().map(|g| {
        let worst = g.worst.map(|s| format!("worst-{}", s.as_str()));
        let class = classes!("area-chip", worst, (g.total == 0).then_some("area-chip-empty"));
        let label = format!("{}: {}", g.title, plural(g.total, "finding"));
        if g.total == 0 {
            html! { <li><span {class} aria-label={label}>{ g.title }<span class="count">{ 0 }</span></span></li> }
        } else {
            html! {
                <li><a {class} href={format!("#area-{}", g.area.as_str())} aria-label={label}>
                    { g.title }<span class="count">{ g.total }</span>
                </a></li>
            }
        }
    });
    let sections = grouped.groups.iter().filter(|g| !g.shown.is_empty()).map(|g| {
        let id = format!("area-{}", g.area.as_str());
        let heading = format!("{id}-title");
        let shown = if g.shown.len() == g.total {
            format!("{}", g.total)
        } else {
            format!("{} of {}", g.shown.len(), g.total)
        };
        html! {
            <section class="area" id={id} aria-labelledby={heading.clone()} data-area={g.area.as_str()}>
                <h3 id={heading}>{ g.title }<span class="count">{ shown }</span></h3>
                <ul class="findings">
                    { for g.shown.iter().map(|&i| finding_item(&props.dispatch, report, i, props.selected == Some(i), props.fix.as_ref().as_ref())) }
                </ul>
            </section>
        }
    });
    html! {
        <div class={classes!("finding-list", props.stale.then_some("stale"))}>
            <nav aria-label="Areas"><ul class="area-nav">{ for nav }</ul></nav>
            if grouped.shown == 0 {
                <p class="empty">{ "No finding matches the filter." }</p>
            }
            { for sections }
        </div>
    }
}

/// One finding, keyed by its index; `open` shows its detail, with `fix`.
fn finding_item(
    dispatch: &Dispatch,
    report: &Report,
    index: usize,
    open: bool,
    fix: Option<&FixPreview>,
) -> Html {
    let Some(f) = report.issues.get(index) else {
        return html! {};
    };
    let onclick = super::send_on_click(dispatch, Action::Select(index));
    let detail_id = format!("finding-detail-{index}");
    let (line, column) = view_model::shown_position(report, f);
    let position = match (line, column, &f.origin) {
        (Some(l), Some(c), _) => format!("line {l}:{c}"),
        (Some(l), None, _) => format!("line {l}"),
        // Declared by the runner overlay, not by the editor's file.
        (None, _, Some(o)) => format!("{} line {}", o.file, o.line),
        _ => String::new(),
    };
    html! {
        <li key={index} class={classes!("finding", format!("finding-{}", f.severity.as_str()), open.then_some("open"))}>
            <button type="button" class="finding-head" {onclick}
                aria-expanded={open.to_string()} aria-controls={detail_id.clone()}
                data-index={index.to_string()} data-rule={f.rule}
                data-line={line.map(|l| l.to_string())}>
                { severity_badge(f.severity) }
                <span class="finding-message">{ rich(&f.message) }</span>
                <span class="finding-meta">
                    <span class="rule-id">{ f.rule }</span>
                    <span>{ position }</span>
                    <code class="pointer">{ f.pointer.clone() }</code>
                </span>
            </button>
            if open {
                if let Some(d) = view_model::detail(report, index) {
                    { finding_detail(dispatch, detail_id, &d, fix) }
                }
            }
        </li>
    }
}

/// The open finding's detail, rendered by its item.
fn finding_detail(dispatch: &Dispatch, id: String, d: &Detail, fix: Option<&FixPreview>) -> Html {
    let goto = d.shown_line.map(|line| {
        let dispatch = dispatch.clone();
        let onclick = Callback::from(move |_: MouseEvent| {
            dispatch.dispatch(Action::RevealLine(line));
            crate::browser::focus("profile-editor");
        });
        html! { <button type="button" class="button button-small" {onclick}>{ format!("Edit line {line}") }</button> }
    });
    html! {
        <div class="detail" id={id}>
            <p class="detail-title"><strong>{ rich(d.title) }</strong>{ format!(" · {} · {}", d.rule_name, d.area.title()) }</p>
            <dl class="detail-fields">
                <dt>{ "Finding" }</dt><dd>{ rich(&d.message) }</dd>
                <dt>{ "Why it matters" }</dt><dd>{ rich(d.rationale) }</dd>
                { super::fix::fix_rows(dispatch, fix, &d.remediation) }
                <dt>{ "Where" }</dt>
                <dd>
                    <code>{ d.pointer.clone() }</code>{ " " }{ goto }
                    if let (None, Some(o)) = (d.shown_line, &d.origin) {
                        <span class="muted runner-origin">{ format!("declared by the runner overlay {}, line {}, column {}", o.file, o.line, o.column) }</span>
                    }
                </dd>
                if !d.evidence.is_empty() {
                    <dt>{ "Evidence" }</dt>
                    <dd>
                        <ul class="evidence">
                            { for d.evidence.iter().map(|(k, v)| html! {
                                <li><span class="ev-key">{ k.clone() }</span>{ ": " }<code>{ v.clone() }</code></li>
                            }) }
                        </ul>
                    </dd>
                }
                if let Some(kind) = d.runtime_check {
                    <dt>{ "Runtime check" }</dt>
                    <dd>
                        <code>{ kind.as_str() }</code>
                        if !d.checks.is_empty() {
                            <ul class="evidence">
                                { for d.checks.iter().map(|c| html! {
                                    <li><span class="ev-key">{ c.id.clone() }</span>{ " " }<code>{ c.target.to_string() }</code>{ format!(" → {}", c.expect) }</li>
                                }) }
                            </ul>
                        }
                    </dd>
                }
                if let Some(w) = &d.waived {
                    <dt>{ "Waived" }</dt><dd>{ w.clone() }</dd>
                }
            </dl>
        </div>
    }
}
