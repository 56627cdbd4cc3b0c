//! Fixes: what a rule's finding asks to change, as edits on the profile
//! model, written into the original file as text edits at byte spans and
//! proven by auditing the result again.
//!
//! ```text
//! findings ──catalog──▶ candidates (edits on the profile, safe | unsafe)
//!     ──json_edit::plan──▶ text edits ──apply──▶ fixed text ──audit──▶ proof
//! ```
//!
//! A fix is kept only when the fixed text still parses, the findings it
//! fixes are gone and no rule reports more than before; otherwise it is
//! withdrawn and named, with its rule, as a bug of the fix.
//!
//! ```
//! use isolint_core::{fix, Labels, AuditOptions};
//! let text = r#"{"schema": "isolint.profile/v1", "name": "t", "boundary": {"privileged": true}}"#;
//! let labels = Labels::workshop();
//! let audit = |t: &str| {
//!     isolint_core::audit(t.as_bytes(), "t.json", &labels, &AuditOptions::default())
//!         .map(|r| r.issues)
//!         .map_err(|e| e.to_string())
//! };
//! let out = fix::fix_profile(text, &fix::Selection::default(), &audit).unwrap();
//! assert!(out.fixed.contains(r#""privileged": false"#));
//! assert!(out.applied.iter().any(|c| c.rule == "PRV001"));
//! ```

mod bwrap;
mod catalog;
mod codex;
mod engine;
mod formats;
pub mod json_edit;
mod oci;
mod sandbox;
mod source;
mod yaml;

use crate::finding::Finding;

/// How far a fix can be trusted to keep the job working.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Applicability {
    /// It only tightens, and removes nothing the job's `needs` list.
    Safe,
    /// It may break the job (removes a mount, denies egress, ...).
    Unsafe,
}

impl Applicability {
    pub fn as_str(self) -> &'static str {
        match self {
            Applicability::Safe => "safe",
            Applicability::Unsafe => "unsafe",
        }
    }
}

/// One change to the profile model, by RFC 6901 pointer.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Edit {
    /// Write `value` (JSON text) at `pointer`, creating missing parents.
    Set {
        pointer: String,
        value: &'static str,
    },
    /// Remove the member or array item at `pointer` (nothing when absent).
    Remove { pointer: String },
}

/// What a rule offers for its findings.
pub enum Remedy {
    /// Edits made from the finding's pointer; `plan` returns `None` for a
    /// finding of the rule it cannot fix (a missing port, say).
    Fix {
        applicability: Applicability,
        /// What the fix does, lowercase, no final period.
        summary: &'static str,
        plan: fn(&str) -> Option<Vec<Edit>>,
    },
    /// No fix, and why.
    None(&'static str),
}

/// The fix declared for one rule.
pub struct FixRule {
    pub rule: &'static str,
    pub remedy: Remedy,
}

impl std::fmt::Debug for FixRule {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("FixRule").field("rule", &self.rule).finish()
    }
}

/// Every rule's fix (or the reason it has none).
pub fn catalog() -> &'static [FixRule] {
    catalog::CATALOG
}

/// The fix declared for rule `id`.
pub fn for_rule(id: &str) -> Option<&'static FixRule> {
    catalog::CATALOG.iter().find(|f| f.rule == id)
}

/// Replace bytes `start..end` of the original text with `text`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TextEdit {
    pub start: usize,
    pub end: usize,
    pub text: String,
}

/// `text` with `edits` (sorted, not overlapping) made.
pub fn apply(text: &str, edits: &[TextEdit]) -> String {
    let mut out = String::with_capacity(text.len() + 64);
    let mut at = 0;
    for e in edits {
        out.push_str(text.get(at..e.start).unwrap_or(""));
        out.push_str(&e.text);
        at = e.end.max(at);
    }
    out.push_str(text.get(at..).unwrap_or(""));
    out
}

/// A unified diff of `old` and `new` with `name` in both headers.
pub fn unified_diff(old: &str, new: &str, name: &str) -> String {
    similar::TextDiff::from_lines(old, new)
        .unified_diff()
        .context_radius(3)
        .header(&format!("a/{name}"), &format!("b/{name}"))
        .to_string()
}

/// A finding's fix as offered in this run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Candidate {
    /// The profile of the file the finding is in (empty for a native
    /// profile, `Job/tests/runner` or a service name for an import).
    pub profile: String,
    pub rule: &'static str,
    pub pointer: String,
    pub applicability: Applicability,
    pub summary: &'static str,
    pub edits: Vec<Edit>,
}

/// A fix taken back because the fixed text failed its proof.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Withdrawn {
    pub rule: &'static str,
    pub pointers: Vec<String>,
    pub reason: String,
}

/// A fix the file's format cannot express safely (a value from
/// interpolation, a setting the format lacks): nothing of it is edited.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refused {
    pub candidate: Candidate,
    /// Why, lowercase, no final period.
    pub reason: String,
}

/// Which fixes a run may make.
#[derive(Debug, Clone, Default)]
pub struct Selection {
    /// Make unsafe fixes too (otherwise they are listed, not made).
    pub unsafe_fixes: bool,
    /// Only these rule ids (all when empty).
    pub rules: Vec<String>,
    /// Only these findings (all when empty): the dashboard's `f` and the
    /// page's "Apply" fix the one finding shown.
    pub findings: Vec<Target>,
}

/// One finding, named as a front end shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Target {
    /// The profile's name within its file (empty for a native profile).
    pub profile: String,
    pub rule: String,
    pub pointer: String,
}

impl Selection {
    fn wants(&self, c: &Candidate) -> bool {
        (self.rules.is_empty() || self.rules.iter().any(|r| r.eq_ignore_ascii_case(c.rule)))
            && (self.findings.is_empty()
                || self.findings.iter().any(|t| {
                    t.profile == c.profile
                        && t.rule.eq_ignore_ascii_case(c.rule)
                        && t.pointer == c.pointer
                }))
    }
}

/// The audit a fix run proves itself with: the findings of every profile
/// of a text, as `(profile name, findings)`; `Err` when the text does not
/// parse in its format.
pub type AuditFn<'a> = dyn Fn(&str) -> Result<Vec<(String, Vec<Finding>)>, String> + 'a;

/// Fix `text`, a native profile (`format` `None`) or a file of an import
/// format: the one entry point of the CLI, the dashboard and the page.
/// Each profile edit of an imported file is written in the file's own
/// syntax (`formats`); a fix the format cannot express is refused, with
/// why, in [`Outcome::refused`]. `Err` when the original text cannot be
/// audited or imported.
pub fn fix_text(
    text: &str,
    format: Option<crate::import::Format>,
    selection: &Selection,
    audit: &AuditFn,
) -> Result<Outcome, String> {
    match format {
        Some(format) => formats::fix_imported(text, format, selection, audit),
        None => {
            let single = |t: &str| -> Result<Vec<Finding>, String> {
                Ok(audit(t)?.into_iter().flat_map(|(_, f)| f).collect())
            };
            fix_profile(text, selection, &single)
        }
    }
}

/// What one fix run did to one profile.
#[derive(Debug, Clone)]
pub struct Outcome {
    /// Findings of the original text.
    pub findings: usize,
    /// Of them, those a declared fix applies to (safe or unsafe).
    pub fixable: usize,
    /// Fixes made, proven by the re-audit.
    pub applied: Vec<Candidate>,
    /// Unsafe fixes not made (no `unsafe_fixes`).
    pub unsafe_skipped: Vec<Candidate>,
    /// Fixes that failed their proof: bugs of the fix, by rule.
    pub withdrawn: Vec<Withdrawn>,
    /// Fixes the file's format cannot express (imported files only).
    pub refused: Vec<Refused>,
    /// The text edits of the applied fixes, sorted.
    pub edits: Vec<TextEdit>,
    /// The fixed text (the original when nothing was applied).
    pub fixed: String,
    /// Findings of the fixed text.
    pub remaining: Vec<Finding>,
}

/// The candidates for `findings`: one per finding whose rule declares a
/// fix that applies to it.
pub fn candidates(findings: &[Finding]) -> Vec<Candidate> {
    findings
        .iter()
        .filter(|f| f.waived.is_none())
        .filter_map(|f| {
            let Remedy::Fix {
                applicability,
                summary,
                plan,
            } = &for_rule(f.rule)?.remedy
            else {
                return None;
            };
            Some(Candidate {
                profile: String::new(),
                rule: f.rule,
                pointer: f.pointer.clone(),
                applicability: *applicability,
                summary,
                edits: plan(&f.pointer)?,
            })
        })
        .collect()
}

/// Fix the profile `text` (an `isolint.profile/v1` document): audit it
/// with `audit`, make the selected fixes, and prove them by auditing the
/// fixed text. Fixes that fail the proof together are tried rule by rule
/// and each failing rule's fixes withdrawn. `Err` when the original text
/// cannot be audited.
pub fn fix_profile(
    text: &str,
    selection: &Selection,
    audit: &dyn Fn(&str) -> Result<Vec<Finding>, String>,
) -> Result<Outcome, String> {
    let findings = audit(text)?;
    let doc = crate::json::parse(text.as_bytes(), crate::json::Limits::default())
        .map_err(|e| e.to_string())?;
    let plan = |_: &str, edits: &[Edit]| json_edit::plan(text, &doc.root, edits);
    let by_profile = |t: &str| Ok(vec![(String::new(), audit(t)?)]);
    Ok(engine::run(
        text,
        vec![(String::new(), findings)],
        selection,
        &plan,
        &by_profile,
        false,
    ))
}

#[cfg(test)]
mod tests;
