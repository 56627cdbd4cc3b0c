//! Styles in one place. Colour never carries meaning alone: severities are
//! also spelled out, the selection also has a marker, so the dashboard reads
//! the same on a monochrome terminal and in snapshots.

use isolint_core::{Severity, Verdict};
use ratatui::style::{Color, Modifier, Style};

pub fn severity(s: Severity) -> Style {
    match s {
        Severity::Critical => Style::new()
            .fg(Color::LightRed)
            .add_modifier(Modifier::BOLD),
        Severity::High => Style::new().fg(Color::Red),
        Severity::Medium => Style::new().fg(Color::Yellow),
        Severity::Low => Style::new().fg(Color::Cyan),
        Severity::Info => Style::new().fg(Color::Gray),
    }
}

/// A fixed-width tag: `CRIT`, `HIGH`, `MED `, `LOW `, `INFO`.
pub fn severity_tag(s: Severity) -> &'static str {
    match s {
        Severity::Critical => "CRIT",
        Severity::High => "HIGH",
        Severity::Medium => "MED ",
        Severity::Low => "LOW ",
        Severity::Info => "INFO",
    }
}

pub fn verdict(v: Verdict) -> Style {
    match v {
        Verdict::NotEligible => Style::new()
            .fg(Color::White)
            .bg(Color::Red)
            .add_modifier(Modifier::BOLD),
        // Cyan, not green: eligible means "ready for the runtime check",
        // and green reads as "passed", which this tool never claims.
        Verdict::EligibleForRuntimeTesting => Style::new()
            .fg(Color::Black)
            .bg(Color::Cyan)
            .add_modifier(Modifier::BOLD),
    }
}

pub fn input_error() -> Style {
    Style::new()
        .fg(Color::White)
        .bg(Color::Magenta)
        .add_modifier(Modifier::BOLD)
}

pub fn selected() -> Style {
    Style::new().add_modifier(Modifier::REVERSED)
}

pub fn focus_line() -> Style {
    Style::new().fg(Color::Black).bg(Color::Yellow)
}

/// The character a finding's column points at, within the focus line.
pub fn focus_column() -> Style {
    focus_line().add_modifier(Modifier::UNDERLINED | Modifier::BOLD)
}

pub fn border() -> Style {
    Style::new().fg(Color::DarkGray)
}

pub fn title() -> Style {
    Style::new().add_modifier(Modifier::BOLD)
}

pub fn dim() -> Style {
    Style::new().fg(Color::DarkGray)
}

pub fn label() -> Style {
    Style::new().fg(Color::Blue).add_modifier(Modifier::BOLD)
}

pub fn key() -> Style {
    Style::new().fg(Color::Cyan).add_modifier(Modifier::BOLD)
}

pub fn tab_active() -> Style {
    Style::new().add_modifier(Modifier::BOLD | Modifier::REVERSED)
}

pub fn status_info() -> Style {
    Style::new().fg(Color::Green)
}

pub fn status_error() -> Style {
    Style::new()
        .fg(Color::LightRed)
        .add_modifier(Modifier::BOLD)
}

pub fn writable() -> Style {
    Style::new().fg(Color::Yellow)
}

/// A line the fix adds, in the fix pane's diff.
pub fn diff_added() -> Style {
    Style::new().fg(Color::Green)
}

/// A line the fix removes.
pub fn diff_removed() -> Style {
    Style::new().fg(Color::Red)
}
