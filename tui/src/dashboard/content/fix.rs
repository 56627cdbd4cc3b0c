//! The fix pane's lines (`f`, `F`): what the fix does and how far it can
//! be trusted, why a finding has none, and the diff of the masked texts.

use ratatui::style::Style;
use ratatui::text::{Line, Span};

use isolint_core::fix::{Applicability, Candidate};

use super::super::model::FixPreview;
use super::super::text::wrap_code;
use super::super::theme;
use super::{field, safe};

/// Every line of the fix pane at inner width `w`.
pub(crate) fn fix_lines(p: &FixPreview, w: usize) -> Vec<Line<'static>> {
    let mut out = Vec::new();
    field(&mut out, "file", &p.name, w, Style::new());
    if let Some((rule, pointer)) = &p.target {
        field(
            &mut out,
            "finding",
            &format!("{rule} at {}", safe(pointer)),
            w,
            theme::title(),
        );
    }
    for (c, more) in by_rule(&p.applied) {
        let (label, style) = match c.applicability {
            Applicability::Safe => ("safe fix", theme::status_info()),
            Applicability::Unsafe => ("unsafe fix", theme::status_error()),
        };
        field(&mut out, label, &format!("{}{more}", summary(c)), w, style);
        if c.applicability == Applicability::Unsafe {
            field(
                &mut out,
                "unsafe",
                "it may break the job (it removes access or a setting the job may use): \
                 read the diff before applying",
                w,
                theme::status_error(),
            );
        }
    }
    for (c, more) in by_rule(&p.unsafe_skipped) {
        field(
            &mut out,
            "not made",
            &format!(
                "{}{more} (unsafe: select the finding and press f to see it alone)",
                summary(c)
            ),
            w,
            theme::dim(),
        );
    }
    for wd in &p.withdrawn {
        field(
            &mut out,
            "withdrawn",
            &format!(
                "{}: {} (a bug of this fix: none of it is written)",
                wd.rule,
                safe(&wd.reason)
            ),
            w,
            theme::status_error(),
        );
    }
    if let Some(why) = &p.none {
        field(&mut out, "no fix", &safe(why), w, theme::status_error());
    }
    if p.changes() {
        let (before, after) = p.findings;
        field(
            &mut out,
            "proof",
            &format!(
                "the fixed text was audited again: {before} finding{} before, {after} after",
                if before == 1 { "" } else { "s" }
            ),
            w,
            Style::new(),
        );
        let action = match &p.file {
            Some(_) => "y or Enter writes this to the file (atomically) and re-audits it; \
                        Esc leaves the file as it is"
                .to_string(),
            None => "the built-in workshop profile has no file: nothing can be written here \
                     (run `isolint fix` on a copy)"
                .to_string(),
        };
        field(&mut out, "apply", &action, w, theme::key());
    } else {
        field(
            &mut out,
            "apply",
            "nothing to write: Esc closes",
            w,
            theme::dim(),
        );
    }
    if !p.diff.is_empty() {
        out.push(Line::raw(""));
        for l in p.diff.lines() {
            let style = match l.as_bytes().first() {
                Some(b'+') if !l.starts_with("+++") => theme::diff_added(),
                Some(b'-') if !l.starts_with("---") => theme::diff_removed(),
                Some(b'@') => theme::label(),
                _ if l.starts_with("+++") || l.starts_with("---") => theme::title(),
                _ => Style::new(),
            };
            // The file's tabs as spaces; every other control character is
            // shown escaped.
            let text = safe(&l.replace('\t', "    ")).into_owned();
            for (_, row) in wrap_code(&text, w.max(1)) {
                out.push(Line::from(Span::styled(row, style)));
            }
        }
    }
    out
}

/// `RULE at /pointer: what it does`.
fn summary(c: &Candidate) -> String {
    format!("{} at {}: {}", c.rule, safe(&c.pointer), c.summary)
}

/// One entry per rule: its first candidate and, when there are more,
/// ` and N more` (a file can hold hundreds of one rule's findings).
fn by_rule(candidates: &[Candidate]) -> Vec<(&Candidate, String)> {
    let mut out: Vec<(&Candidate, usize)> = Vec::new();
    for c in candidates {
        match out.iter_mut().find(|(first, _)| first.rule == c.rule) {
            Some((_, n)) => *n += 1,
            None => out.push((c, 0)),
        }
    }
    out.into_iter()
        .map(|(c, n)| {
            let more = if n > 0 {
                format!(" (and {n} more)")
            } else {
                String::new()
            };
            (c, more)
        })
        .collect()
}
