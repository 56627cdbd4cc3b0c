//! `isolint fix`: the catalog's fixes made in each profile's own text,
//! proven by auditing the result (core's `fix` module), shown as a
//! unified diff or written atomically to the files named.

use std::cell::RefCell;
use std::io::Write;
use std::path::Path;

use isolint_core::fix::{self, Outcome, Selection};
use isolint_core::{AuditOptions, Labels, Verdict};
use serde_json::json;

use super::{output, DocFormat, FixArgs, EXIT_ERROR, EXIT_NOT_ELIGIBLE, EXIT_OK};
use crate::files::input::{self, Origin};

/// One file's result: the outcome and the masked texts its diff shows.
struct Fixed {
    shown: String,
    outcome: Outcome,
    /// The original and the fixed text with every secret masked (same
    /// lines and columns): what the diff prints.
    masked_before: String,
    masked_after: String,
    eligible_after: bool,
}

pub fn run(args: &FixArgs) -> u8 {
    let labels = match args.labels.as_deref() {
        Some(p) => match input::load_labels(p) {
            Ok(l) => l,
            Err(failures) => {
                for f in &failures {
                    output::error(&f.to_string());
                }
                return EXIT_ERROR;
            }
        },
        None => Labels::workshop(),
    };
    // The overlay and the Compose context reach every audit of the run.
    let mut cx = crate::files::runner::RunContext::default();
    if let Err(code) = super::load_runner(&mut cx, args.runner.as_deref()) {
        return code;
    }
    let mut rules = Vec::new();
    for r in &args.rules {
        match isolint_core::rules::find(r.trim()) {
            Some(rule) => rules.push(rule.id.to_string()),
            None => {
                output::error(&format!("no rule `{r}` (`isolint rules` lists every rule)"));
                return EXIT_ERROR;
            }
        }
    }
    let selection = Selection {
        unsafe_fixes: args.unsafe_fixes,
        rules,
        ..Selection::default()
    };
    let options = AuditOptions {
        today: crate::files::today::utc_today(),
    };
    let mut failed = false;
    let mut done = Vec::new();
    for path in &args.files {
        match fix_file(&cx, path, args.apply, &labels, &options, &selection) {
            Ok(f) => done.push(f),
            Err(message) => {
                output::error(&message);
                failed = true;
            }
        }
    }
    let printed = match args.format {
        DocFormat::Text => print_text(&done, args.apply, args.unsafe_fixes),
        DocFormat::Json => print_json(&done),
    };
    if printed.is_err() || failed {
        return EXIT_ERROR;
    }
    let code = if args.apply {
        done.iter().all(|f| f.eligible_after)
    } else {
        done.iter().all(|f| f.outcome.edits.is_empty())
    };
    if code {
        EXIT_OK
    } else {
        EXIT_NOT_ELIGIBLE
    }
}

/// Read, fix and (with `apply`) write one file; the error names the file.
fn fix_file(
    cx: &crate::files::runner::RunContext,
    path: &Path,
    apply: bool,
    labels: &Labels,
    options: &AuditOptions,
    selection: &Selection,
) -> Result<Fixed, String> {
    let is_stdin = path.as_os_str() == "-";
    let shown = if is_stdin {
        "-".to_string()
    } else {
        input::display(path)
    };
    if apply {
        crate::files::atomic::refuse_to_write(path, is_stdin, &shown)?;
    }
    let origin = if is_stdin {
        Origin::Stdin
    } else {
        Origin::File(path.to_path_buf())
    };
    let bytes = input::read(&origin, &shown).map_err(|f| f.to_string())?;
    let name = input::source_name(path);
    let format = isolint_core::import::detect(&bytes, Some(&name));
    let text =
        String::from_utf8(bytes).map_err(|_| format!("{shown}: input is not valid UTF-8"))?;
    let (outcome, masked_before, masked_after, eligible_after) = match format {
        Some(format) => fix_imported(
            cx, &text, format, &origin, &name, &shown, labels, options, selection,
        )?,
        None => fix_native(&text, &name, &shown, labels, options, selection)?,
    };
    if apply && !outcome.edits.is_empty() {
        crate::files::atomic::write_atomically(path, outcome.fixed.as_bytes())
            .map_err(|e| format!("{shown}: cannot write the fixed file: {e}"))?;
    }
    Ok(Fixed {
        shown,
        outcome,
        masked_before,
        masked_after,
        eligible_after,
    })
}

/// The outcome of fixing a native profile, its masked texts before and
/// after, and whether the fixed profile is eligible.
type Done = (Outcome, String, String, bool);

fn fix_native(
    text: &str,
    name: &str,
    shown: &str,
    labels: &Labels,
    options: &AuditOptions,
    selection: &Selection,
) -> Result<Done, String> {
    // The masked text of the last text audited, so the diff needs no
    // audit of its own.
    let last: RefCell<Option<(String, String, bool)>> = RefCell::new(None);
    let audit = |t: &str| {
        let report =
            isolint_core::audit(t.as_bytes(), name, labels, options).map_err(|e| e.to_string())?;
        let eligible = report.verdict == Verdict::EligibleForRuntimeTesting;
        *last.borrow_mut() = Some((t.to_string(), report.source_text, eligible));
        Ok(vec![(String::new(), report.issues)])
    };
    let masked_before = {
        let report = isolint_core::audit(text.as_bytes(), name, labels, options)
            .map_err(|e| position(shown, &e))?;
        report.source_text
    };
    let outcome =
        fix::fix_text(text, None, selection, &audit).map_err(|e| format!("{shown}: {e}"))?;
    let cached = last.borrow_mut().take();
    let (masked_after, eligible_after) = match cached {
        Some((t, masked, eligible)) if t == outcome.fixed => (masked, eligible),
        _ => {
            let report = isolint_core::audit(outcome.fixed.as_bytes(), name, labels, options)
                .map_err(|e| position(shown, &e))?;
            let eligible = report.verdict == Verdict::EligibleForRuntimeTesting;
            (report.source_text, eligible)
        }
    };
    Ok((outcome, masked_before, masked_after, eligible_after))
}

/// A file of an import format, audited as `isolint audit` audits it (the
/// `--runner` overlay applied, a Compose file in its directory's
/// context), every profile of it; the diff shows the file with every
/// profile's secrets masked.
#[allow(clippy::too_many_arguments)]
fn fix_imported(
    cx: &crate::files::runner::RunContext,
    text: &str,
    format: isolint_core::import::Format,
    origin: &Origin,
    name: &str,
    shown: &str,
    labels: &Labels,
    options: &AuditOptions,
    selection: &Selection,
) -> Result<Done, String> {
    // Per text: its masked form and whether every profile is eligible.
    let last: RefCell<Option<(String, String, bool)>> = RefCell::new(None);
    let audit = |t: &str| -> Result<Vec<(String, Vec<isolint_core::Finding>)>, String> {
        let units = input::import_in_context(cx, origin, name, t.as_bytes(), format)
            .map_err(|e| e.to_string())?;
        let mut out = Vec::with_capacity(units.len());
        let mut eligible = true;
        for unit in &units {
            let report = cx.audit_imported(unit, name, labels, options)?;
            eligible &= report.verdict == Verdict::EligibleForRuntimeTesting;
            out.push((unit.name.clone(), report.issues));
        }
        let masked = units
            .first()
            .map_or_else(|| t.to_string(), |u| u.masked_source.to_string());
        *last.borrow_mut() = Some((t.to_string(), masked, eligible));
        Ok(out)
    };
    audit(text).map_err(|e| format!("{shown}: {e} (read as {})", format.title()))?;
    let masked_before = last
        .borrow()
        .as_ref()
        .map_or_else(String::new, |(_, m, _)| m.clone());
    let outcome = fix::fix_text(text, Some(format), selection, &audit)
        .map_err(|e| format!("{shown}: {e}"))?;
    let cached = last.borrow_mut().take();
    let (masked_after, eligible_after) = match cached {
        Some((t, masked, eligible)) if t == outcome.fixed => (masked, eligible),
        _ => {
            audit(&outcome.fixed).map_err(|e| format!("{shown}: {e}"))?;
            let (_, masked, eligible) = last.borrow_mut().take().unwrap_or_default();
            (masked, eligible)
        }
    };
    Ok((outcome, masked_before, masked_after, eligible_after))
}

fn position(shown: &str, e: &isolint_core::json::InputError) -> String {
    format!("{shown}:{e}")
}

fn print_text(done: &[Fixed], apply: bool, unsafe_fixes: bool) -> std::io::Result<()> {
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let (mut findings, mut fixable, mut applied, mut skipped) = (0, 0, 0, 0);
    let mut refused = 0;
    for f in done {
        let o = &f.outcome;
        refused += o.refused.len();
        findings += o.findings;
        fixable += o.fixable;
        applied += o.applied.len();
        skipped += o.unsafe_skipped.len();
        if !apply && !o.edits.is_empty() {
            let diff = fix::unified_diff(&f.masked_before, &f.masked_after, &f.shown);
            out.write_all(shown_diff(&diff).as_bytes())?;
        }
        let verb = if apply { "fixed" } else { "would fix" };
        for (c, more) in by_rule(&o.applied) {
            output::remark(&format!(
                "{}: {verb} {} at {}{more} ({}): {}",
                f.shown,
                c.rule,
                c.pointer,
                c.applicability.as_str(),
                c.summary
            ));
        }
        for (c, more) in by_rule(&o.unsafe_skipped) {
            output::remark(&format!(
                "{}: unsafe fix not made for {} at {}{more} (--unsafe-fixes): {}",
                f.shown, c.rule, c.pointer, c.summary
            ));
        }
        for (c, more, reason) in refused_by_rule(&o.refused) {
            output::remark(&format!(
                "{}: no fix for {} at {}{more} in this format: {reason}",
                f.shown, c.rule, c.pointer
            ));
        }
        for w in &o.withdrawn {
            output::error(&format!(
                "{}: the fix of {} was withdrawn, a bug of that fix: {}",
                f.shown, w.rule, w.reason
            ));
        }
    }
    let hidden = if skipped > 0 && !unsafe_fixes {
        format!(", {skipped} more with --unsafe-fixes")
    } else {
        String::new()
    };
    let no_fix = if refused > 0 {
        format!(", {refused} with no fix in the file's format")
    } else {
        String::new()
    };
    let line = if apply {
        format!("Found {findings} findings ({applied} fixed{hidden}{no_fix}).")
    } else {
        format!("Found {findings} findings ({fixable} fixable, {applied} would be fixed{hidden}{no_fix}).")
    };
    writeln!(std::io::stderr().lock(), "{line}")?;
    out.flush()
}

/// One line per rule: its first candidate and, when there are more,
/// ` and N more` (a large file can hold thousands of one rule's findings).
fn by_rule(candidates: &[fix::Candidate]) -> Vec<(&fix::Candidate, String)> {
    let mut out: Vec<(&fix::Candidate, usize)> = Vec::new();
    for c in candidates {
        match out.iter_mut().find(|(first, _)| first.rule == c.rule) {
            Some((_, n)) => *n += 1,
            None => out.push((c, 0)),
        }
    }
    out.into_iter()
        .map(|(c, n)| {
            let more = if n > 0 {
                format!(" and {n} more")
            } else {
                String::new()
            };
            (c, more)
        })
        .collect()
}

/// One line per rule and reason, as [`by_rule`].
fn refused_by_rule(refused: &[fix::Refused]) -> Vec<(&fix::Candidate, String, &str)> {
    let mut out: Vec<(&fix::Refused, usize)> = Vec::new();
    for r in refused {
        match out
            .iter_mut()
            .find(|(first, _)| first.candidate.rule == r.candidate.rule && first.reason == r.reason)
        {
            Some((_, n)) => *n += 1,
            None => out.push((r, 0)),
        }
    }
    out.into_iter()
        .map(|(r, n)| {
            let more = if n > 0 {
                format!(" and {n} more")
            } else {
                String::new()
            };
            (&r.candidate, more, r.reason.as_str())
        })
        .collect()
}

/// The diff as printed: its own line ends and the file's tabs stay, any
/// other control character is shown escaped.
fn shown_diff(diff: &str) -> String {
    let mut out = String::with_capacity(diff.len());
    for line in diff.split_inclusive('\n') {
        let body = line.strip_suffix('\n').unwrap_or(line);
        let pieces: Vec<_> = body
            .split('\t')
            .map(isolint_core::sanitize::neutralize)
            .collect();
        out.push_str(&pieces.join("\t"));
        if body.len() < line.len() {
            out.push('\n');
        }
    }
    out
}

fn print_json(done: &[Fixed]) -> std::io::Result<()> {
    let files: Vec<serde_json::Value> = done
        .iter()
        .map(|f| {
            let o = &f.outcome;
            let candidate = |c: &fix::Candidate| {
                json!({
                    "profile": c.profile,
                    "rule": c.rule,
                    "pointer": c.pointer,
                    "applicability": c.applicability.as_str(),
                    "summary": c.summary,
                })
            };
            json!({
                "file": isolint_core::sanitize::neutralize(&f.shown),
                "findings": o.findings,
                "fixable": o.fixable,
                "applied": o.applied.iter().map(candidate).collect::<Vec<_>>(),
                "unsafe_skipped": o.unsafe_skipped.iter().map(candidate).collect::<Vec<_>>(),
                "refused": o.refused.iter().map(|r| json!({
                    "rule": r.candidate.rule,
                    "pointer": r.candidate.pointer,
                    "profile": r.candidate.profile,
                    "reason": r.reason,
                })).collect::<Vec<_>>(),
                "withdrawn": o.withdrawn.iter().map(|w| json!({
                    "rule": w.rule, "pointers": w.pointers, "reason": w.reason,
                })).collect::<Vec<_>>(),
                "edits": o.edits.iter().map(|e| json!({
                    "start": e.start, "end": e.end, "content": e.text,
                })).collect::<Vec<_>>(),
                "remaining": o.remaining.len(),
                "eligible_after": f.eligible_after,
            })
        })
        .collect();
    let doc = json!({ "schema": "isolint.fix/v1", "files": files });
    let text = serde_json::to_string_pretty(&doc).unwrap_or_default();
    let mut out = std::io::stdout().lock();
    writeln!(out, "{text}")?;
    out.flush()
}
