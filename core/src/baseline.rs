//! Baselines: mark each finding `new` or `existing` against an earlier
//! export, so CI can fail on new findings only. Nothing is removed.

use std::collections::BTreeSet;

use crate::render::json::Export;
use crate::report::Report;

/// Why a baseline could not be used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BaselineError(pub String);

impl std::fmt::Display for BaselineError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for BaselineError {}

/// Parse an earlier `isolint.findings/v1` export (one document or an array).
pub fn parse(bytes: &[u8]) -> Result<Vec<Export>, BaselineError> {
    crate::json::parse(bytes, crate::json::Limits::default())
        .map_err(|e| BaselineError(e.to_string()))?;
    if let Ok(one) = serde_json::from_slice::<Export>(bytes) {
        return Ok(vec![one]);
    }
    serde_json::from_slice::<Vec<Export>>(bytes)
        .map_err(|e| BaselineError(format!("not an isolint.findings/v1 export: {e}")))
}

/// A profile's identity for baselines and waivers: its path as the run
/// names it, with `.` segments and repeated `/` removed, and its name. The
/// name alone is the author's to choose, so a new file could borrow the
/// accepted findings of another; the path is the operator's.
pub fn identity(source: &str, name: &str) -> (String, String) {
    let absolute = source.starts_with('/');
    let parts: Vec<&str> = source
        .split('/')
        .filter(|s| !s.is_empty() && *s != ".")
        .collect();
    let path = format!("{}{}", if absolute { "/" } else { "" }, parts.join("/"));
    (path, name.to_string())
}

/// Mark findings of `report` against the baseline export of the same
/// profile (same [`identity`]: path and name); a finding is identified by
/// rule and pointer. A profile the baseline does not hold has only new
/// findings.
pub fn apply(report: &mut Report, baseline: &[Export]) {
    let me = identity(&report.profile.source, &report.profile.name);
    let known: BTreeSet<(&str, &str)> = baseline
        .iter()
        .filter(|e| identity(&e.profile.source, &e.profile.name) == me)
        .flat_map(|e| {
            e.issues
                .iter()
                .map(|i| (i.rule.as_str(), i.pointer.as_str()))
        })
        .collect();
    for f in &mut report.issues {
        f.baseline = Some(if known.contains(&(f.rule, f.pointer.as_str())) {
            "existing"
        } else {
            "new"
        });
    }
}

/// Baseline entries that match no audited profile: their file is gone,
/// was renamed, or was left out of this run.
pub fn unmatched<'a>(
    baseline: &'a [Export],
    audited: &BTreeSet<(String, String)>,
) -> Vec<&'a Export> {
    baseline
        .iter()
        .filter(|e| !audited.contains(&identity(&e.profile.source, &e.profile.name)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{audit, render, AuditOptions, Date, Labels};

    #[test]
    fn marks_new_and_existing() {
        let opts = AuditOptions {
            today: Date::parse("2026-11-29"),
        };
        let labels = Labels::workshop();
        let fixed = audit(
            crate::WORKSHOP_PROFILE_FIXED.as_bytes(),
            "w.json",
            &labels,
            &opts,
        )
        .unwrap();
        let old = render::json::render(&fixed);
        let mut bad = audit(crate::WORKSHOP_PROFILE.as_bytes(), "w.json", &labels, &opts).unwrap();
        let before = bad.issues.len();
        apply(&mut bad, &parse(old.as_bytes()).unwrap());
        assert_eq!(bad.issues.len(), before);
        assert!(bad.issues.iter().all(|f| f.baseline.is_some()));
        let mut again = bad.clone();
        let same = render::json::render(&bad);
        apply(&mut again, &parse(same.as_bytes()).unwrap());
        assert!(again.issues.iter().all(|f| f.baseline == Some("existing")));
        assert!(parse(b"{\"x\":1}").is_err());
    }

    /// issue 21 item 1: a new file naming itself like an accepted profile
    /// inherited its findings. Only the same path (however spelled) and
    /// name match.
    #[test]
    fn a_profile_cannot_borrow_another_files_baseline() {
        let opts = AuditOptions {
            today: Date::parse("2026-11-29"),
        };
        let labels = Labels::workshop();
        let run = |source: &str| {
            audit(crate::WORKSHOP_PROFILE.as_bytes(), source, &labels, &opts).unwrap()
        };
        let old = parse(render::json::render(&run("jobs/legacy.json")).as_bytes()).unwrap();
        for (source, existing) in [
            ("jobs/legacy.json", true),
            ("./jobs/legacy.json", true),
            ("jobs//legacy.json", true),
            ("jobs/./legacy.json", true),
            ("jobs/zz-new-job.json", false),
            ("legacy.json", false),
            ("other/jobs/legacy.json", false),
            ("/jobs/legacy.json", false),
            ("jobs/legacy.json/", true),
            ("jobs/Legacy.json", false),
        ] {
            let mut r = run(source);
            apply(&mut r, &old);
            let want = if existing { "existing" } else { "new" };
            assert!(
                r.issues.iter().all(|f| f.baseline == Some(want)),
                "{source}"
            );
            let seen: BTreeSet<_> = [identity(&r.profile.source, &r.profile.name)].into();
            assert_eq!(unmatched(&old, &seen).is_empty(), existing, "{source}");
        }
    }
}
