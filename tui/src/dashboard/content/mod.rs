//! What each pane says, as lines: built from the model alone, so the view
//! draws them and [`super::layout`] counts them (how far a pane scrolls)
//! from the same text. Nothing here draws or knows where a pane goes.

use std::borrow::Cow;

use isolint_core::sanitize::neutralize;
use ratatui::style::Style;
use ratatui::text::{Line, Span};

use super::text::{width, wrap};
use super::theme;

mod findings;
mod fix;
mod help;
mod mounts;
mod plan;
mod rules;

pub(crate) use findings::detail_lines;
pub(crate) use fix::fix_lines;
pub(crate) use help::help_content;
pub(crate) use mounts::mount_lines;
pub(crate) use plan::{check_lines, observed, status_style};
pub(crate) use rules::rule_lines;

pub(crate) fn safe(s: &str) -> Cow<'_, str> {
    neutralize(s)
}

pub(crate) fn lines_of(text: &str, w: u16) -> Vec<Line<'static>> {
    wrap(text, w as usize).into_iter().map(Line::from).collect()
}

/// A labelled paragraph: `label: text` wrapped under a hanging indent.
pub(crate) fn field(
    out: &mut Vec<Line<'static>>,
    label: &str,
    value: &str,
    w: usize,
    style: Style,
) {
    let indent = width(label) + 2;
    let wrapped = wrap(value, w.saturating_sub(indent).max(8));
    for (i, l) in wrapped.into_iter().enumerate() {
        if i == 0 {
            out.push(Line::from(vec![
                Span::styled(format!("{label}: "), theme::label()),
                Span::styled(l, style),
            ]));
        } else {
            out.push(Line::from(vec![
                Span::raw(" ".repeat(indent)),
                Span::styled(l, style),
            ]));
        }
    }
}
