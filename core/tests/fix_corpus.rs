// Tests read fixture files; the I/O ban of core/clippy.toml is for the library itself.
#![allow(clippy::disallowed_methods, clippy::disallowed_types)]

//! Every isolint.profile/v1 file under fixtures/ (profiles, rule fixtures,
//! adversarial inputs), fixed with every fix, unsafe ones included: the
//! result still parses, no rule reports more than before, every byte
//! outside the edited spans is the original's, and a second run edits
//! nothing.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use isolint_core::fix::{self, Selection, TextEdit};
use isolint_core::{audit, import, AuditOptions, Date, Labels};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures")
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    for e in rd.filter_map(Result::ok) {
        let p = e.path();
        if p.is_dir() {
            walk(&p, out);
        } else if p.extension().is_some_and(|x| x == "json") {
            out.push(p);
        }
    }
}

/// Profiles only: catalogs, overlays, waivers and other formats are not.
fn is_profile(path: &Path, bytes: &[u8]) -> bool {
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
    !matches!(name, "labels.json" | "runner.json" | "waivers.json")
        && import::detect(bytes, Some(name)).is_none()
}

fn outside_kept(old: &str, new: &str, edits: &[TextEdit]) -> bool {
    let mut at_old = 0;
    let mut at_new = 0;
    for e in edits {
        let Some(keep) = old.get(at_old..e.start) else {
            return false;
        };
        if new.get(at_new..at_new + keep.len()) != Some(keep) {
            return false;
        }
        at_new += keep.len() + e.text.len();
        at_old = e.end;
    }
    new.get(at_new..) == old.get(at_old..)
}

#[test]
fn fixing_every_profile_keeps_it_valid_and_adds_no_finding() {
    let mut files = Vec::new();
    for sub in ["profiles", "rules", "adversarial"] {
        walk(&root().join(sub), &mut files);
    }
    files.sort();
    let labels = Labels::workshop();
    let options = AuditOptions {
        today: Date::parse("2026-11-29"),
    };
    let audit = |t: &str| {
        audit(t.as_bytes(), "corpus.json", &labels, &options)
            .map(|r| r.issues)
            .map_err(|e| e.to_string())
    };
    let selection = Selection {
        unsafe_fixes: true,
        rules: Vec::new(),
        ..Selection::default()
    };
    let (mut fixed_files, mut wrong) = (0, Vec::new());
    for path in files {
        let bytes = std::fs::read(&path).unwrap();
        if !is_profile(&path, &bytes) {
            continue;
        }
        let Ok(text) = String::from_utf8(bytes) else {
            continue;
        };
        let shown = path
            .strip_prefix(root())
            .unwrap_or(&path)
            .display()
            .to_string();
        // A file the audit refuses has nothing to fix.
        let Ok(before) = audit(&text) else { continue };
        let out = match fix::fix_profile(&text, &selection, &audit) {
            Ok(o) => o,
            Err(e) => {
                wrong.push(format!("{shown}: {e}"));
                continue;
            }
        };
        if out.edits.is_empty() {
            continue;
        }
        fixed_files += 1;
        if !outside_kept(&text, &out.fixed, &out.edits) {
            wrong.push(format!("{shown}: bytes outside the edits changed"));
        }
        let Ok(after) = audit(&out.fixed) else {
            wrong.push(format!("{shown}: the fixed file no longer parses"));
            continue;
        };
        let mut count: HashMap<&str, i64> = HashMap::new();
        for f in &before {
            *count.entry(f.rule).or_default() += 1;
        }
        for f in &after {
            *count.entry(f.rule).or_default() -= 1;
        }
        if let Some((rule, _)) = count.iter().find(|(_, n)| **n < 0) {
            wrong.push(format!("{shown}: more findings of {rule} after fixing"));
        }
        let again = fix::fix_profile(&out.fixed, &selection, &audit).unwrap();
        if !again.edits.is_empty() {
            let rules: Vec<&str> = again.applied.iter().map(|c| c.rule).collect();
            wrong.push(format!("{shown}: a second run still fixes {rules:?}"));
        }
    }
    eprintln!("{fixed_files} profiles fixed");
    assert!(fixed_files > 100, "only {fixed_files} files fixed");
    assert!(
        wrong.is_empty(),
        "{} of {fixed_files} wrong:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}

/// The share of blocking findings across the public corpus
/// (fixtures/import/real) that a declared fix reaches, by count and by
/// rule. A measurement for the README, not a check.
#[test]
#[ignore = "a measurement: cargo test --test fix_corpus -- --ignored --nocapture"]
fn measure_fix_coverage_of_the_real_corpus() {
    let mut files = Vec::new();
    let real = root().join("import/real");
    for dir in std::fs::read_dir(&real).unwrap().filter_map(Result::ok) {
        for f in std::fs::read_dir(dir.path())
            .unwrap()
            .filter_map(Result::ok)
        {
            files.push(f.path());
        }
    }
    files.sort();
    let labels = Labels::workshop();
    let options = AuditOptions {
        today: Date::parse("2026-11-29"),
    };
    let (mut blocking, mut reached) = (0usize, 0usize);
    let mut by_rule: std::collections::BTreeMap<&str, (usize, usize)> = Default::default();
    for path in files {
        let bytes = std::fs::read(&path).unwrap();
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        let Some(format) = import::detect(&bytes, Some(name)) else {
            continue;
        };
        let Ok(units) = import::import(&bytes, format) else {
            continue;
        };
        for unit in &units {
            let Ok(report) = isolint_core::audit::audit_imported(
                unit,
                name,
                &labels,
                &options,
                None,
                &isolint_core::InOrder,
            ) else {
                continue;
            };
            let fixable = fix::candidates(&report.issues);
            for f in report.issues.iter().filter(|f| f.blocks()) {
                let has = fixable
                    .iter()
                    .any(|c| c.rule == f.rule && c.pointer == f.pointer);
                blocking += 1;
                reached += usize::from(has);
                let e = by_rule.entry(f.rule).or_default();
                e.0 += 1;
                e.1 += usize::from(has);
            }
        }
    }
    let rules_with = by_rule.values().filter(|(_, r)| *r > 0).count();
    eprintln!(
        "blocking findings: {blocking}, with a fix: {reached} ({:.1} %); rules: {}, with a fix: {rules_with}",
        100.0 * reached as f64 / blocking.max(1) as f64,
        by_rule.len()
    );
    for (rule, (n, r)) in &by_rule {
        eprintln!("  {rule} {r}/{n}");
    }
}
