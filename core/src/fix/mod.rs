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

mod catalog;
pub mod json_edit;
// Called by `fix_text`'s dispatch for imported formats (branch
// fix-formats); until that lands only the tests reach it.
#[allow(dead_code)]
pub(crate) mod yaml;

use std::collections::HashMap;

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
/// Imported formats are refused (`Err`) until their editors land.
pub fn fix_text(
    text: &str,
    format: Option<crate::import::Format>,
    selection: &Selection,
    audit: &AuditFn,
) -> Result<Outcome, String> {
    if let Some(format) = format {
        return Err(format!(
            "fixes for a {} are not available yet; nothing was edited",
            format.title()
        ));
    }
    let single = |t: &str| -> Result<Vec<Finding>, String> {
        Ok(audit(t)?.into_iter().flat_map(|(_, f)| f).collect())
    };
    fix_profile(text, selection, &single)
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

fn counts(findings: &[Finding]) -> HashMap<&'static str, usize> {
    let mut out = HashMap::new();
    for f in findings {
        *out.entry(f.rule).or_insert(0) += 1;
    }
    out
}

/// Try `chosen` on `text`: the text edits, the fixed text and its
/// findings, or why the fix fails its proof.
fn attempt(
    text: &str,
    root: &crate::json::Node,
    before: &HashMap<&'static str, usize>,
    chosen: &[&Candidate],
    audit: &dyn Fn(&str) -> Result<Vec<Finding>, String>,
) -> Result<(Vec<TextEdit>, String, Vec<Finding>), String> {
    let mut seen = std::collections::HashSet::new();
    let mut edits: Vec<Edit> = Vec::new();
    for c in chosen {
        for e in &c.edits {
            if seen.insert(e) {
                edits.push(e.clone());
            }
        }
    }
    let text_edits = json_edit::plan(text, root, &edits)?;
    let fixed = apply(text, &text_edits);
    let after = audit(&fixed).map_err(|e| format!("the fixed text no longer parses: {e}"))?;
    let after_counts = counts(&after);
    let mut fixed_counts: HashMap<&'static str, usize> = HashMap::new();
    for c in chosen {
        *fixed_counts.entry(c.rule).or_insert(0) += 1;
    }
    for (rule, n) in &after_counts {
        let was = before.get(rule).copied().unwrap_or(0);
        if *n > was {
            return Err(format!("the fix adds a finding of {rule}"));
        }
    }
    for (rule, n) in &fixed_counts {
        let was = before.get(rule).copied().unwrap_or(0);
        let now = after_counts.get(rule).copied().unwrap_or(0);
        if now + n > was {
            return Err(format!("a finding of {rule} the fix should remove remains"));
        }
    }
    Ok((text_edits, fixed, after))
}

/// The state of the rule-by-rule retry after a failed proof.
struct Trial<'a, 'o> {
    text: &'a str,
    root: &'a crate::json::Node,
    before: &'a HashMap<&'static str, usize>,
    audit: &'a dyn Fn(&str) -> Result<Vec<Finding>, String>,
    outcome: &'o mut Outcome,
}

impl<'a> Trial<'a, '_> {
    /// Add `groups` (each one rule's candidates) to `kept` where the proof
    /// holds; `failed`: why the whole of `groups` already failed, if known.
    fn add(
        &mut self,
        kept: &mut Vec<&'a Candidate>,
        groups: &[Vec<&'a Candidate>],
        failed: Option<String>,
    ) {
        let reason = match failed {
            Some(reason) => reason,
            None => {
                let mut trial = kept.clone();
                trial.extend(groups.iter().flatten().copied());
                match attempt(self.text, self.root, self.before, &trial, self.audit) {
                    Ok((edits, fixed, after)) => {
                        *kept = trial;
                        self.outcome.edits = edits;
                        self.outcome.fixed = fixed;
                        self.outcome.remaining = after;
                        return;
                    }
                    Err(reason) => reason,
                }
            }
        };
        match groups {
            [] => {}
            [group] => {
                if let Some(first) = group.first() {
                    self.outcome.withdrawn.push(Withdrawn {
                        rule: first.rule,
                        pointers: group.iter().map(|c| c.pointer.clone()).collect(),
                        reason,
                    });
                }
            }
            _ => {
                let (left, right) = groups.split_at(groups.len() / 2);
                self.add(kept, left, None);
                self.add(kept, right, None);
            }
        }
    }
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
    let all = candidates(&findings);
    let fixable = all.len();
    let (wanted, other): (Vec<Candidate>, Vec<Candidate>) =
        all.into_iter().partition(|c| selection.wants(c));
    drop(other);
    let (chosen, unsafe_skipped): (Vec<Candidate>, Vec<Candidate>) = wanted
        .into_iter()
        .partition(|c| selection.unsafe_fixes || c.applicability == Applicability::Safe);
    let before = counts(&findings);
    let mut outcome = Outcome {
        findings: findings.len(),
        fixable,
        applied: Vec::new(),
        unsafe_skipped,
        withdrawn: Vec::new(),
        edits: Vec::new(),
        fixed: text.to_string(),
        remaining: findings.clone(),
    };
    if chosen.is_empty() {
        return Ok(outcome);
    }
    let refs: Vec<&Candidate> = chosen.iter().collect();
    let failed = match attempt(text, &doc.root, &before, &refs, audit) {
        Ok((edits, fixed, after)) => {
            outcome.applied = chosen;
            outcome.edits = edits;
            outcome.fixed = fixed;
            outcome.remaining = after;
            return Ok(outcome);
        }
        Err(reason) => reason,
    };
    // Rule by rule, keeping what proved itself so far: halves of the
    // remaining rules are tried whole first, so a few bad fixes among many
    // cost a few audits each, not one audit per rule.
    let mut rules: Vec<&'static str> = Vec::new();
    for c in &chosen {
        if !rules.contains(&c.rule) {
            rules.push(c.rule);
        }
    }
    let groups: Vec<Vec<&Candidate>> = rules
        .iter()
        .map(|r| chosen.iter().filter(|c| c.rule == *r).collect())
        .collect();
    let mut kept: Vec<&Candidate> = Vec::new();
    let mut trial = Trial {
        text,
        root: &doc.root,
        before: &before,
        audit,
        outcome: &mut outcome,
    };
    trial.add(&mut kept, &groups, Some(failed));
    outcome.applied = kept.into_iter().cloned().collect();
    Ok(outcome)
}

#[cfg(test)]
mod tests;
