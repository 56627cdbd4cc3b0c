//! GitHub Actions workflow commands: one annotation per finding at file,
//! line and column, plus a notice with the verdict.

use crate::finding::Severity;
use crate::model::StringEnum;
use crate::report::{NotAudited, Report};

/// Escape a workflow-command message (`%`, CR, LF) after neutralizing.
fn data(s: &str) -> String {
    crate::sanitize::neutralize(s)
        .replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// Escape a workflow-command property value.
fn prop(s: &str) -> String {
    data(s).replace(':', "%3A").replace(',', "%2C")
}

pub fn render_many(reports: &[Report]) -> String {
    let mut out = String::new();
    for r in reports {
        for f in &r.issues {
            let level = match (f.waived.is_some(), f.severity) {
                (true, _) => "notice",
                (false, Severity::Critical | Severity::High) => "error",
                (false, Severity::Medium) => "warning",
                (false, _) => "notice",
            };
            let (file, line, col) = match &f.origin {
                Some(o) => (o.file.as_str(), o.line, o.column),
                None => (
                    r.profile.source.as_str(),
                    f.line.unwrap_or(1),
                    f.column.unwrap_or(1),
                ),
            };
            out.push_str(&format!(
                "::{level} file={},line={line},col={col},title={}::{} ({} at {}){}\n",
                prop(file),
                prop(&format!("isolint {} {}", f.rule, f.severity.as_str())),
                data(&f.message),
                f.area.as_str(),
                data(&f.pointer),
                if f.waived.is_some() { " [waived]" } else { "" }
            ));
        }
        out.push_str(&format!(
            "::notice file={},title={}::{}\n",
            prop(&r.profile.source),
            prop(&format!("isolint verdict {}", r.verdict.as_str())),
            data(&format!(
                "{} — {}",
                r.verdict.headline(),
                crate::report::NOTICE
            ))
        ));
    }
    out
}

/// One warning per entry a directory run passed over, on that file.
pub fn not_audited(entries: &[NotAudited]) -> String {
    let mut out = String::new();
    for e in entries {
        out.push_str(&format!(
            "::warning file={},title={}::{}\n",
            prop(&e.source),
            prop("isolint not audited"),
            data(&format!("not audited: {}", e.reason))
        ));
    }
    out
}

pub fn render(r: &Report) -> String {
    render_many(std::slice::from_ref(r))
}
