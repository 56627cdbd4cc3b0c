//! Environment variables that load or run code.

use crate::finding::Severity;

/// Environment variables that make a program load or run code named in
/// their value: the severity and why.
pub(crate) fn code_loading_variable(name: &str) -> Option<(Severity, &'static str)> {
    crate::shell::codevars::lookup(name).map(|c| (c.severity, c.why))
}
