//! The proof loop every format shares: candidates from each profile's
//! findings, their edits planned in the file's own syntax, made together,
//! and the fixed text audited again, profile by profile. Fixes that fail
//! the proof together are retried rule by rule (halves first) and each
//! failing rule's fixes withdrawn.

use std::collections::HashMap;

use super::{
    apply, candidates, Applicability, Candidate, Edit, Outcome, Refused, Selection, TextEdit,
    Withdrawn,
};
use crate::finding::Finding;

/// Plans the text edits of one profile's edits: `(profile name, edits)`.
pub(super) type PlanFn<'a> = dyn Fn(&str, &[Edit]) -> Result<Vec<TextEdit>, String> + 'a;

/// Audits a text: `(profile name, findings)` per profile.
pub(super) type ProfilesAudit<'a> =
    dyn Fn(&str) -> Result<Vec<(String, Vec<Finding>)>, String> + 'a;

/// Findings counted by profile and rule: a multi-profile file is proven
/// profile by profile, so a fix in one service cannot hide a new finding
/// in another behind an equal count.
type Counts = HashMap<(String, &'static str), usize>;

fn counts(by_profile: &[(String, Vec<Finding>)]) -> Counts {
    let mut out = HashMap::new();
    for (p, findings) in by_profile {
        for f in findings {
            *out.entry((p.clone(), f.rule)).or_insert(0) += 1;
        }
    }
    out
}

/// Text edits of several profiles in one list: sorted, the same edit made
/// for two profiles kept once, overlapping ones refused.
fn merge(mut edits: Vec<TextEdit>) -> Result<Vec<TextEdit>, String> {
    edits.sort_by(|a, b| (a.start, a.end, &a.text).cmp(&(b.start, b.end, &b.text)));
    edits.dedup();
    for pair in edits.windows(2) {
        if let [a, b] = pair {
            // Two insertions at one place are made in order; edits that
            // share bytes disagree.
            if b.start < a.end {
                return Err("two edits overlap in the file".into());
            }
        }
    }
    Ok(edits)
}

struct Proof<'a> {
    text: &'a str,
    before: &'a Counts,
    plan: &'a PlanFn<'a>,
    audit: &'a ProfilesAudit<'a>,
}

type Attempt = (Vec<TextEdit>, String, Vec<(String, Vec<Finding>)>);

impl Proof<'_> {
    /// Try `chosen` on the text: its edits, the fixed text and its
    /// findings, or why the fix fails its proof.
    fn attempt(&self, chosen: &[&Candidate]) -> Result<Attempt, String> {
        let mut by_profile: Vec<(&str, Vec<Edit>)> = Vec::new();
        for c in chosen {
            let at = match by_profile.iter().position(|(p, _)| *p == c.profile) {
                Some(i) => i,
                None => {
                    by_profile.push((&c.profile, Vec::new()));
                    by_profile.len() - 1
                }
            };
            if let Some((_, edits)) = by_profile.get_mut(at) {
                for e in &c.edits {
                    if !edits.contains(e) {
                        edits.push(e.clone());
                    }
                }
            }
        }
        let mut text_edits = Vec::new();
        for (profile, edits) in &by_profile {
            text_edits.extend((self.plan)(profile, edits)?);
        }
        let text_edits = merge(text_edits)?;
        let fixed = apply(self.text, &text_edits);
        let after =
            (self.audit)(&fixed).map_err(|e| format!("the fixed text no longer parses: {e}"))?;
        let after_counts = counts(&after);
        for ((profile, rule), n) in &after_counts {
            let was = self
                .before
                .get(&(profile.clone(), rule))
                .copied()
                .unwrap_or(0);
            if *n > was {
                return Err(match profile.as_str() {
                    "" => format!("the fix adds a finding of {rule}"),
                    p => format!("the fix adds a finding of {rule} in `{p}`"),
                });
            }
        }
        let mut fixed_counts: Counts = HashMap::new();
        for c in chosen {
            *fixed_counts.entry((c.profile.clone(), c.rule)).or_insert(0) += 1;
        }
        for (key, n) in &fixed_counts {
            let was = self.before.get(key).copied().unwrap_or(0);
            let now = after_counts.get(key).copied().unwrap_or(0);
            if now + n > was {
                let (profile, rule) = key;
                return Err(match profile.as_str() {
                    "" => format!("a finding of {rule} the fix should remove remains"),
                    p => format!("a finding of {rule} in `{p}` the fix should remove remains"),
                });
            }
        }
        Ok((text_edits, fixed, after))
    }

    /// Add `groups` (each one rule's candidates) to `kept` where the proof
    /// holds; `failed`: why the whole of `groups` already failed, if known.
    fn add<'c>(
        &self,
        outcome: &mut Outcome,
        kept: &mut Vec<&'c Candidate>,
        groups: &[Vec<&'c Candidate>],
        failed: Option<String>,
    ) {
        let reason = match failed {
            Some(reason) => reason,
            None => {
                let mut trial = kept.clone();
                trial.extend(groups.iter().flatten().copied());
                match self.attempt(&trial) {
                    Ok((edits, fixed, after)) => {
                        *kept = trial;
                        outcome.edits = edits;
                        outcome.fixed = fixed;
                        outcome.remaining = after.into_iter().flat_map(|(_, f)| f).collect();
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
                    outcome.withdrawn.push(Withdrawn {
                        rule: first.rule,
                        pointers: group.iter().map(|c| c.pointer.clone()).collect(),
                        reason,
                    });
                }
            }
            _ => {
                let (left, right) = groups.split_at(groups.len() / 2);
                self.add(outcome, kept, left, None);
                self.add(outcome, kept, right, None);
            }
        }
    }
}

/// Fix `text`, whose findings by profile are `before`: plan the selected
/// candidates with `plan` (each alone first when `precheck`, so one that
/// the format cannot express is refused with its reason rather than
/// sinking the others), make them, and prove them with `audit`.
pub(super) fn run(
    text: &str,
    before: Vec<(String, Vec<Finding>)>,
    selection: &Selection,
    plan: &PlanFn,
    audit: &ProfilesAudit,
    precheck: bool,
) -> Outcome {
    let mut all = Vec::new();
    for (profile, findings) in &before {
        for mut c in candidates(findings) {
            c.profile.clone_from(profile);
            all.push(c);
        }
    }
    let mut refused = Vec::new();
    if precheck {
        let (ok, no): (Vec<Candidate>, Vec<(Candidate, String)>) = {
            let mut ok = Vec::new();
            let mut no = Vec::new();
            for c in all {
                match plan(&c.profile, &c.edits) {
                    Ok(_) => ok.push(c),
                    Err(reason) => no.push((c, reason)),
                }
            }
            (ok, no)
        };
        all = ok;
        refused = no
            .into_iter()
            .filter(|(c, _)| selection.wants(c))
            .map(|(candidate, reason)| Refused { candidate, reason })
            .collect();
    }
    let fixable = all.len();
    let wanted: Vec<Candidate> = all.into_iter().filter(|c| selection.wants(c)).collect();
    let (chosen, unsafe_skipped): (Vec<Candidate>, Vec<Candidate>) = wanted
        .into_iter()
        .partition(|c| selection.unsafe_fixes || c.applicability == Applicability::Safe);
    let before_counts = counts(&before);
    let mut outcome = Outcome {
        findings: before.iter().map(|(_, f)| f.len()).sum(),
        fixable,
        applied: Vec::new(),
        unsafe_skipped,
        withdrawn: Vec::new(),
        refused,
        edits: Vec::new(),
        fixed: text.to_string(),
        remaining: before.into_iter().flat_map(|(_, f)| f).collect(),
    };
    if chosen.is_empty() {
        return outcome;
    }
    let proof = Proof {
        text,
        before: &before_counts,
        plan,
        audit,
    };
    let refs: Vec<&Candidate> = chosen.iter().collect();
    let failed = match proof.attempt(&refs) {
        Ok((edits, fixed, after)) => {
            outcome.applied = chosen;
            outcome.edits = edits;
            outcome.fixed = fixed;
            outcome.remaining = after.into_iter().flat_map(|(_, f)| f).collect();
            return outcome;
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
    proof.add(&mut outcome, &mut kept, &groups, Some(failed));
    outcome.applied = kept.into_iter().cloned().collect();
    outcome
}
