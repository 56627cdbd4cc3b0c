// Tests read fixture files; the I/O ban of core/clippy.toml is for the library itself.
#![allow(clippy::disallowed_methods, clippy::disallowed_types)]

//! Every rule that declares a fix: each of its failing fixtures, fixed
//! (unsafe fixes included, that rule only), no longer raises it, the fix
//! survives its proof, and fixing the result again changes nothing.

use std::path::{Path, PathBuf};

use isolint_core::fix::{self, Remedy, Selection};
use isolint_core::{audit, AuditOptions, Date, Labels};

fn fixtures_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/rules")
}

fn options() -> AuditOptions {
    AuditOptions {
        today: Date::parse("2026-11-29"),
    }
}

fn labels_for(dir: &Path) -> Labels {
    match std::fs::read(dir.join("labels.json")) {
        Ok(bytes) => Labels::load(&bytes).unwrap_or_else(|e| panic!("{}: {e}", dir.display())),
        Err(_) => Labels::workshop(),
    }
}

fn fails(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|rd| rd.filter_map(Result::ok).map(|e| e.path()).collect())
        .unwrap_or_default();
    v.retain(|p| {
        p.file_name()
            .and_then(|n| n.to_str())
            .is_some_and(|n| n.starts_with("fail") && n.ends_with(".json"))
    });
    v.sort();
    v
}

/// Failing fixtures whose finding a rule's fix does not reach, each with
/// the reason: the plan offers no edit for that finding's pointer.
const NOT_REACHED: &[(&str, &str)] = &[
    // No mounts, or a mount without a target: nothing says what to write.
    ("MNT016", "fail-no-mounts.json"),
    ("MNT016", "fail-no-target.json"),
    // A missing port: which port the service uses is not known.
    ("NET008", "fail.json"),
    // The kind disagrees with the runtime: a runner change, not an edit.
    ("ISO008", "fail.json"),
    // A missing or invisible name: only the owner can name the job.
    ("PRF005", "fail-invisible-name.json"),
    ("PRF005", "fail.json"),
];

/// Failing fixtures whose fix the proof withdraws, each for the finding
/// it would add: the fix is right elsewhere, and wrong here.
const WITHDRAWN: &[(&str, &str)] = &[
    // Declaring egress `deny` with nothing declared to enforce it raises
    // NET007: the proof keeps the profile as it was.
    ("NET001", "fail.json"),
    // Removing the only retained entry leaves `retain` empty (CLN005).
    ("CLN004", "fail-everything.json"),
];

#[test]
fn every_fix_removes_its_rule_from_its_failing_fixtures() {
    let mut wrong = Vec::new();
    let mut checked = 0;
    for entry in fix::catalog() {
        let Remedy::Fix { .. } = entry.remedy else {
            continue;
        };
        let dir = fixtures_dir().join(entry.rule);
        // Fixtures that need an overlay or waivers are audited elsewhere.
        if dir.join("runner.json").exists() || dir.join("waivers.json").exists() {
            continue;
        }
        let labels = labels_for(&dir);
        let audit = |t: &str| {
            audit(t.as_bytes(), "fixture.json", &labels, &options())
                .map(|r| r.issues)
                .map_err(|e| e.to_string())
        };
        let selection = Selection {
            unsafe_fixes: true,
            rules: vec![entry.rule.to_string()],
            ..Selection::default()
        };
        for path in fails(&dir) {
            let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
            if NOT_REACHED.contains(&(entry.rule, name)) {
                continue;
            }
            checked += 1;
            let text = std::fs::read_to_string(&path).unwrap();
            let shown = format!("{}/{name}", entry.rule);
            let out = match fix::fix_profile(&text, &selection, &audit) {
                Ok(o) => o,
                Err(e) => {
                    wrong.push(format!("{shown}: {e}"));
                    continue;
                }
            };
            let expect_withdrawn = WITHDRAWN.contains(&(entry.rule, name));
            if expect_withdrawn {
                if out.withdrawn.is_empty() || !out.edits.is_empty() {
                    wrong.push(format!("{shown}: expected the proof to withdraw the fix"));
                }
                continue;
            }
            if !out.withdrawn.is_empty() {
                wrong.push(format!("{shown}: withdrawn: {:?}", out.withdrawn));
                continue;
            }
            let left = out
                .remaining
                .iter()
                .filter(|f| f.rule == entry.rule)
                .count();
            if left > 0 {
                wrong.push(format!("{shown}: {left} finding(s) of the rule remain"));
                continue;
            }
            let again = fix::fix_profile(&out.fixed, &selection, &audit).unwrap();
            if !again.edits.is_empty() {
                wrong.push(format!("{shown}: a second fix still edits"));
            }
        }
    }
    assert!(checked > 50, "only {checked} fixtures checked");
    assert!(
        wrong.is_empty(),
        "{} of {checked} wrong:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}
