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
/// profile (same [`identity`]: path and name). A finding is `existing` when
/// an entry has its rule, its pointer and what was accepted there: the
/// digest of the value at the pointer ([`Finding::accepted_digest`]), so an
/// accepted mount whose source changes is a new finding. An entry without
/// that digest (an export written before it was recorded) cannot say what
/// was accepted and matches nothing: its findings come back `new`, and
/// [`undigested`] counts them so the caller can say the baseline needs to
/// be exported again. A profile the baseline does not hold has only new
/// findings.
///
/// [`Finding::accepted_digest`]: crate::finding::Finding::accepted_digest
pub fn apply(report: &mut Report, baseline: &[Export]) {
    let me = identity(&report.profile.source, &report.profile.name);
    let known: BTreeSet<(&str, &str, &str)> = baseline
        .iter()
        .filter(|e| identity(&e.profile.source, &e.profile.name) == me)
        .flat_map(|e| {
            e.issues.iter().filter_map(|i| {
                let digest = i.value_digest.as_deref()?;
                Some((i.rule.as_str(), i.pointer.as_str(), digest))
            })
        })
        .collect();
    for f in &mut report.issues {
        let accepted = f.accepted_digest();
        let key = (f.rule, f.pointer.as_str(), accepted.as_ref());
        f.baseline = Some(if known.contains(&key) {
            "existing"
        } else {
            "new"
        });
    }
}

/// How many entries of `baseline` record no digest of what they accepted
/// (written by an earlier version): [`apply`] matches none of them.
pub fn undigested(baseline: &[Export]) -> usize {
    baseline
        .iter()
        .flat_map(|e| &e.issues)
        .filter(|i| i.value_digest.is_none())
        .count()
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

    fn audited(profile: &str) -> Report {
        let opts = AuditOptions {
            today: Date::parse("2026-11-29"),
        };
        audit(profile.as_bytes(), "job.json", &Labels::workshop(), &opts).unwrap()
    }

    /// The fixed workshop profile with one more mount of `source`.
    fn with_mount(source: &str, access: &str) -> String {
        let mut p: serde_json::Value = serde_json::from_str(crate::WORKSHOP_PROFILE_FIXED).unwrap();
        p["mounts"]
            .as_array_mut()
            .unwrap()
            .push(serde_json::json!({"source": source, "target": "/ci", "access": access}));
        p.to_string()
    }

    /// issue 42 item 4: an accepted mount changed to another source at the
    /// same pointer kept its `existing` mark, so `--baseline --fail-on
    /// high` passed `/var/lib/kubelet` as the `/opt/ci-tools` once
    /// accepted. What was accepted is part of the identity: every change
    /// of the value at the pointer (the source, the access, the whole
    /// mount) is new, and the same profile, however laid out, is existing.
    #[test]
    fn a_changed_value_at_an_accepted_pointer_is_new() {
        let accepted = with_mount("/opt/ci-tools", "read-write");
        let old = parse(render::json::render(&audited(&accepted)).as_bytes()).unwrap();
        assert!(old[0]
            .issues
            .iter()
            .any(|i| i.pointer.starts_with("/mounts/2")));
        let relaid = serde_json::to_string_pretty(
            &serde_json::from_str::<serde_json::Value>(&accepted).unwrap(),
        )
        .unwrap();
        let mut wrong = Vec::new();
        for (case, profile, existing) in [
            ("the same profile", accepted.clone(), true),
            ("the same profile laid out again", relaid, true),
            (
                "another source",
                with_mount("/var/lib/kubelet", "read-write"),
                false,
            ),
            (
                "the source with a trailing slash",
                with_mount("/opt/ci-tools/", "read-write"),
                false,
            ),
            (
                "another source, read-only",
                with_mount("/var/lib/kubelet", "read-only"),
                false,
            ),
        ] {
            let mut r = audited(&profile);
            apply(&mut r, &old);
            for f in r
                .issues
                .iter()
                .filter(|f| f.pointer.starts_with("/mounts/2"))
            {
                let want = if existing { "existing" } else { "new" };
                if f.baseline != Some(want) {
                    wrong.push(format!(
                        "{case}: {} {} is {:?}",
                        f.rule, f.pointer, f.baseline
                    ));
                }
            }
            // Findings elsewhere keep their marks.
            assert!(r
                .issues
                .iter()
                .filter(|f| !f.pointer.starts_with("/mounts"))
                .all(|f| f.baseline == Some("existing")));
        }
        assert!(wrong.is_empty(), "{}", wrong.join("\n"));
        // The example of the issue: a blocking finding at the mount comes
        // back new.
        let mut r = audited(&with_mount("/var/lib/kubelet", "read-write"));
        apply(&mut r, &old);
        assert!(r.issues.iter().any(|f| f.pointer.starts_with("/mounts/2")
            && f.severity <= crate::Severity::High
            && f.baseline == Some("new")));
    }

    /// An export written before entries recorded what they accepted reads
    /// as before, but matches nothing (fail closed): its findings are new,
    /// and [`undigested`] says how many entries it holds.
    #[test]
    fn an_entry_without_a_digest_matches_nothing() {
        let accepted = with_mount("/opt/ci-tools", "read-write");
        let mut old: serde_json::Value =
            serde_json::from_str(&render::json::render(&audited(&accepted))).unwrap();
        for i in old["issues"].as_array_mut().unwrap() {
            i.as_object_mut().unwrap().remove("value_digest");
        }
        let old = parse(old.to_string().as_bytes()).unwrap();
        assert_eq!(undigested(&old), old[0].issues.len());
        let mut r = audited(&accepted);
        apply(&mut r, &old);
        assert!(r.issues.iter().all(|f| f.baseline == Some("new")));
        let fresh = parse(render::json::render(&r).as_bytes()).unwrap();
        assert_eq!(undigested(&fresh), 0);
    }

    /// The digest never lets a short secret be guessed: a secret value's
    /// digest is that of the mask, whatever the secret, while a value
    /// beside it still counts.
    #[test]
    fn a_digest_is_of_the_masked_value() {
        let env = |v: &str, lang: &str| {
            let mut p: serde_json::Value =
                serde_json::from_str(crate::WORKSHOP_PROFILE_FIXED).unwrap();
            p["environment"]["variables"] = serde_json::json!({"DB_PASSWORD": v, "LANG": lang});
            audited(&p.to_string())
        };
        let digest = |r: &Report, ptr: &str| {
            r.issues
                .iter()
                .find(|f| f.pointer == ptr)
                .map(|f| f.accepted_digest().into_owned())
        };
        let ptr = "/environment/variables/DB_PASSWORD";
        let a = digest(&env("hunter2x", "C"), ptr);
        assert!(a.is_some());
        assert_eq!(a, digest(&env("Zq9otherPw", "C"), ptr));
        // Nothing derived from the secret itself is exported.
        let export = render::json::render(&env("hunter2x", "C"));
        assert!(!export.contains(&crate::digest::sha256_hex(b"hunter2x")));
        assert!(!export.contains("hunter2x"));
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
