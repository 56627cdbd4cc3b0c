//! A Markdown report for pull-request comments.

use std::fmt::Write;

use crate::model::StringEnum;
use crate::report::{Report, Verdict};
use crate::view::{self, Filter};

/// Escape text for a Markdown table cell or line.
fn md(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in crate::sanitize::neutralize(s).chars() {
        match c {
            '|' | '\\' | '`' | '*' | '_' | '<' | '>' | '[' | ']' | '#' => {
                out.push('\\');
                out.push(c);
            }
            c => out.push(c),
        }
    }
    out
}

/// Render one or several reports.
pub fn render_many(reports: &[Report]) -> String {
    let mut out = String::new();
    for r in reports {
        render_into(r, &mut out);
    }
    out
}

pub fn render(r: &Report) -> String {
    render_many(std::slice::from_ref(r))
}

fn render_into(r: &Report, out: &mut String) {
    let b = view::banner(r);
    let icon = if r.verdict == Verdict::EligibleForRuntimeTesting {
        "🔵"
    } else {
        "🔴"
    };
    let _ = writeln!(
        out,
        "## isolint: {} — {icon} {}\n",
        md(&r.profile.name),
        md(b.headline)
    );
    let _ = writeln!(out, "> {}\n", md(b.notice));
    let _ = writeln!(
        out,
        "**{}** · profile `{}` · labels `{}`\n",
        b.counts,
        md(&r.profile.source),
        md(&r.labels_name)
    );
    let grouped = view::group(r, &Filter::default());
    if r.issues.is_empty() {
        let _ = writeln!(out, "No findings.\n");
    }
    for g in grouped.groups.iter().filter(|g| g.total > 0) {
        let _ = writeln!(out, "### {} ({})\n", g.title, g.total);
        let _ = writeln!(out, "| severity | rule | where | finding | fix |");
        let _ = writeln!(out, "|---|---|---|---|---|");
        for &i in &g.shown {
            let Some(f) = r.issues.get(i) else { continue };
            let mut sev = f.severity.as_str().to_string();
            if f.waived.is_some() {
                sev.push_str(" (waived)");
            }
            if let Some(bl) = f.baseline {
                sev.push_str(&format!(" ({bl})"));
            }
            let _ = writeln!(
                out,
                "| {} | {} | {}:{} {} | {} | {} |",
                sev,
                f.rule,
                md(&r.profile.source),
                f.line.unwrap_or(1),
                md(&f.pointer),
                md(&f.message),
                md(f.remediation)
            );
        }
        let _ = writeln!(out);
    }
    let _ = writeln!(
        out,
        "<details><summary>Runtime checks for the verifier ({})</summary>\n",
        r.runtime_checks.len()
    );
    for c in &r.runtime_checks {
        let _ = writeln!(
            out,
            "- {} {}: {} → {}",
            c.id,
            c.kind.as_str(),
            md(&c.target),
            c.expect
        );
    }
    let _ = writeln!(out, "\n</details>\n");
}
