//! Environment variables that load or run code.

use crate::finding::Severity;

/// Environment variables that make a program load or run code named in
/// their value (`None` when the value is not known): the severity and why.
pub(crate) fn code_loading_variable(
    name: &str,
    value: Option<&str>,
) -> Option<(Severity, &'static str)> {
    crate::shell::codevars::lookup(name, value).map(|c| (c.severity, c.why))
}
