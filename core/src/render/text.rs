//! The human report: grouped by area (writable mounts first), each finding
//! with a source snippet and caret, like rustc or cargo-deny. Everything
//! drawn from the profile is neutralized; secrets are already masked.

use std::collections::HashMap;
use std::fmt::Write;

use crate::finding::Severity;
use crate::model::StringEnum;
use crate::report::{Report, Verdict, TOOL_NAME, TOOL_VERSION};
use crate::sanitize::neutralize_multiline;
use crate::view_model::{self, Filter};

/// Widest snippet line shown; longer lines are cut around the column.
const SNIPPET_WIDTH: usize = 100;

/// Render options.
#[derive(Debug, Clone, Copy, Default)]
pub struct TextOptions {
    /// Wrap severities and the verdict in ANSI colours.
    pub color: bool,
}

fn paint(on: bool, code: &str, s: &str) -> String {
    if on {
        format!("\x1b[{code}m{s}\x1b[0m")
    } else {
        s.to_string()
    }
}

fn sev_color(s: Severity) -> &'static str {
    match s {
        Severity::Critical => "1;31",
        Severity::High => "31",
        Severity::Medium => "33",
        Severity::Low => "36",
        Severity::Info => "2",
    }
}

/// The lines of one source text, and for long lines the byte offset of
/// every character, each computed once per report: a minified profile is a
/// single long line, and walking it again for every finding would make the
/// report quadratic in its size.
/// An imported file's lines are found once per file, not per report: a
/// file of a thousand profiles would otherwise be walked a thousand times.
struct Snippets<'a> {
    text: &'a str,
    starts: std::borrow::Cow<'a, [u32]>,
    offsets: HashMap<usize, Vec<usize>>,
}

impl<'a> Snippets<'a> {
    fn new(text: &'a str) -> Snippets<'a> {
        Snippets {
            text,
            starts: crate::report::line_starts(text).into(),
            offsets: HashMap::new(),
        }
    }

    fn of_original(o: &'a crate::report::OriginalSource) -> Snippets<'a> {
        Snippets {
            text: &o.text,
            starts: std::borrow::Cow::Borrowed(&o.line_starts),
            offsets: HashMap::new(),
        }
    }

    /// Line `line` (1-based) cut to a window around `col` (1-based chars),
    /// neutralized: the shown text and the caret's column within it.
    fn window(&mut self, line: u32, col: usize) -> Option<(String, usize)> {
        let index = (line as usize).checked_sub(1)?;
        let text = crate::report::nth_line(self.text, &self.starts, index)?;
        let offsets = self.offsets.entry(index).or_insert_with(|| {
            text.char_indices()
                .map(|(i, _)| i)
                .chain([text.len()])
                .collect()
        });
        let chars = offsets.len().saturating_sub(1);
        let (start, end) = if chars <= SNIPPET_WIDTH {
            (0, chars)
        } else {
            let start = col
                .saturating_sub(SNIPPET_WIDTH / 3)
                .min(chars.saturating_sub(SNIPPET_WIDTH));
            (start, (start + SNIPPET_WIDTH).min(chars))
        };
        let from = offsets.get(start).copied().unwrap_or(0);
        let to = offsets.get(end).copied().unwrap_or(text.len());
        let mut shown = neutralize_multiline(text.get(from..to).unwrap_or("")).into_owned();
        let mut caret = col.saturating_sub(start).max(1);
        if start > 0 {
            shown.insert(0, '…');
            caret += 1;
        }
        if end < chars {
            shown.push('…');
        }
        Some((shown, caret))
    }
}

/// Render one report.
pub fn render(report: &Report, opts: TextOptions) -> String {
    let c = opts.color;
    let mut out = String::new();
    let b = view_model::banner(report);
    let _ = writeln!(
        out,
        "{TOOL_NAME} {TOOL_VERSION} · profile `{}` ({}) · labels `{}` · route {}",
        report.profile.name, report.profile.source, report.labels_name, report.route
    );
    let verdict = match report.verdict {
        Verdict::EligibleForRuntimeTesting => paint(c, "1;32", &format!("verdict: {}", b.headline)),
        Verdict::NotEligible => paint(c, "1;31", &format!("verdict: {}", b.headline)),
    };
    let _ = writeln!(out, "{verdict}");
    let _ = writeln!(out, "note: {}", b.notice);
    let _ = writeln!(out, "{}", b.counts);
    let grouped = view_model::group(report, &Filter::default());
    let mut profile = Snippets::new(&report.source_text);
    let lines = report
        .original
        .as_ref()
        .map_or(0, |o| o.line_count())
        .max(profile.starts.len());
    let gutter = lines.to_string().len().max(2);
    let pad = " ".repeat(gutter);
    let mut original: Option<Snippets<'_>> = None;
    for g in grouped.groups.iter().filter(|g| g.total > 0) {
        let _ = writeln!(
            out,
            "\n{}",
            paint(c, "1", &format!("── {} ({}) ──", g.title, g.total))
        );
        for &i in &g.shown {
            let Some(f) = report.issues.get(i) else {
                continue;
            };
            let sev = paint(
                c,
                sev_color(f.severity),
                &format!("{}[{}]", f.severity.as_str(), f.rule),
            );
            let waived = if f.waived.is_some() { " (waived)" } else { "" };
            let _ = writeln!(out, "{sev}{waived}: {}", f.message);
            let line = f.line.unwrap_or(1);
            let col = f.column.unwrap_or(1) as usize;
            // An imported profile points at the original file; the generated
            // profile's position stays available in the JSON export.
            let (line, snippet) = match (&f.origin, &report.original) {
                (Some(o), Some(source)) => {
                    let _ = writeln!(
                        out,
                        "{pad}--> {}:{}:{}  {} (profile {}:{}:{})",
                        o.file, o.line, o.column, f.pointer, report.profile.source, line, col
                    );
                    let original = original.get_or_insert_with(|| Snippets::of_original(source));
                    (o.line, original.window(o.line, o.column as usize))
                }
                _ => {
                    let _ = writeln!(
                        out,
                        "{pad}--> {}:{}:{}  {}",
                        report.profile.source, line, col, f.pointer
                    );
                    (line, profile.window(line, col))
                }
            };
            if let Some((shown, caret)) = snippet {
                let _ = writeln!(out, "{pad} |");
                let _ = writeln!(out, "{:>gutter$} | {}", line, shown);
                let marker = if f.exact {
                    "^ here"
                } else {
                    "^ missing field belongs in here"
                };
                let _ = writeln!(
                    out,
                    "{pad} | {}{}",
                    " ".repeat(caret.saturating_sub(1)),
                    paint(c, sev_color(f.severity), marker)
                );
            }
            if let Some(w) = &f.waived {
                let _ = writeln!(
                    out,
                    "{pad} = waived: {} (owner {}, expires {})",
                    w.reason, w.owner, w.expires
                );
            }
            let _ = writeln!(out, "{pad} = help: {}", f.remediation);
            // In the original file's own vocabulary, where a mapping exists.
            if let Some(o) = &report.original {
                if let Some(h) = crate::import::hints::hint(o.format, f) {
                    let _ = writeln!(out, "{pad} = in {}: {h}", o.format);
                }
            }
            if !f.evidence.is_empty() {
                let ev: Vec<String> = f
                    .evidence
                    .iter()
                    .map(|(k, v)| match v {
                        serde_json::Value::String(s) => format!("{k}={s}"),
                        other => format!("{k}={}", crate::json_writer::compact(other)),
                    })
                    .collect();
                let _ = writeln!(out, "{pad} = evidence: {}", ev.join(", "));
            }
        }
    }
    if report.issues.is_empty() {
        let _ = writeln!(out, "\nno findings.");
    }
    let _ = writeln!(
        out,
        "\n{}",
        paint(
            c,
            "1",
            &format!(
                "── Runtime checks for the verifier ({}) ──",
                report.runtime_checks.len()
            )
        )
    );
    // The longest kind's width, so that targets line up.
    let width = <crate::finding::CheckKind as crate::model::StringEnum>::VALUES
        .iter()
        .map(|k| k.len())
        .max()
        .unwrap_or(0);
    for rc in &report.runtime_checks {
        let _ = writeln!(
            out,
            "{} {:<width$} {} → expect {}",
            rc.id,
            rc.kind.as_str(),
            rc.target,
            rc.expect
        );
    }
    let _ = writeln!(
        out,
        "\n{}: {} ({})",
        report.profile.name,
        report.verdict.as_str(),
        if report.verdict == Verdict::EligibleForRuntimeTesting {
            "only eligible for runtime testing; not proof of enforcement"
        } else {
            "blocking findings must be fixed; even then, a static audit is not proof of enforcement"
        }
    );
    out
}
