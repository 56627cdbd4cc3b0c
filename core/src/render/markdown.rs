//! A Markdown report for pull-request comments.

use std::fmt::Write;

use crate::model::StringEnum;
use crate::report::{NotAudited, Report, Verdict};
use crate::view_model::{self, Filter};

/// Escape text for a Markdown table cell or line.
///
/// Besides Markdown's own syntax this defuses what GitHub links on its own
/// in a comment: `@user` and `@org/team` mentions (which notify people),
/// `#123` and `GH-123` references, and HTML entities that would decode to
/// either. A zero-width space entity after `@`, `#` or `GH` breaks the link
/// while the text reads the same.
pub(crate) fn md(s: &str) -> String {
    const BREAK: &str = "&#8203;";
    let text = crate::sanitize::neutralize(s);
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '|' | '\\' | '`' | '*' | '_' | '<' | '>' | '[' | ']' | '~' => {
                out.push('\\');
                out.push(c);
            }
            '&' => out.push_str("&amp;"),
            '@' => {
                out.push('@');
                out.push_str(BREAK);
            }
            '#' => {
                out.push_str("\\#");
                out.push_str(BREAK);
            }
            'G' | 'g' if chars.peek().is_some_and(|n| n.eq_ignore_ascii_case(&'h')) => {
                out.push(c);
                out.extend(chars.next());
                out.push_str(BREAK);
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

/// The section that ends a directory run's comment when it passed over
/// entries: each one with its reason (empty when there are none).
pub fn not_audited(entries: &[NotAudited]) -> String {
    let mut out = String::new();
    if entries.is_empty() {
        return out;
    }
    let _ = writeln!(
        out,
        "### Not audited ({})
",
        entries.len()
    );
    for e in entries {
        let _ = writeln!(out, "- {}: {}", md(&e.source), md(&e.reason));
    }
    out.push('\n');
    out
}

fn render_into(r: &Report, out: &mut String) {
    let b = view_model::banner(r);
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
        "**{}** · profile {} · labels {}\n",
        b.counts,
        md(&r.profile.source),
        md(&r.labels_name)
    );
    let grouped = view_model::group(r, &Filter::default());
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
            md(&c.target.to_string()),
            c.expect
        );
    }
    let _ = writeln!(out, "\n</details>\n");
}

#[cfg(test)]
mod tests {
    use super::md;

    /// No mention, reference or entity survives: after escaping, `@`, `#` and
    /// `GH` are always followed by the break, and `&` only starts our own
    /// entities.
    #[test]
    fn mentions_and_references_are_defused() {
        let attacks = [
            "@octocat",
            "@octocat @github/security",
            "ping @Org/Team-1, please",
            "fixes #123",
            "owner/repo#123",
            "GH-123 and gh-7",
            "&#64;octocat &#x40;octocat &commat;octocat",
            "&#35;123 &num;12",
            "x@y.z",
            "@@double",
            "#",
            "@",
        ];
        for a in attacks {
            // Our own entities, as one placeholder character each.
            let out = md(a).replace("&#8203;", "\u{1}").replace("&amp;", "\u{2}");
            assert!(!out.contains('&'), "{a:?} -> {out:?}");
            for (i, c) in out.char_indices() {
                let after = &out[i + c.len_utf8()..];
                if c == '@' || c == '#' {
                    assert!(after.starts_with('\u{1}'), "{a:?} -> {out:?}");
                }
                if out[i..].to_ascii_lowercase().starts_with("gh") {
                    assert!(out[i + 2..].starts_with('\u{1}'), "{a:?} -> {out:?}");
                }
            }
        }
        assert_eq!(md("plain text"), "plain text");
    }
}
