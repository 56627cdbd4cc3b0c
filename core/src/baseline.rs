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

/// Mark findings of `report` against the baseline export of the profile
/// with the same name (a finding is identified by rule and pointer).
pub fn apply(report: &mut Report, baseline: &[Export]) {
    let known: BTreeSet<(&str, &str)> = baseline
        .iter()
        .filter(|e| e.profile.name == report.profile.name)
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
}
