// Tests read fixture files; the I/O ban of core/clippy.toml is for the library itself.
#![allow(clippy::disallowed_methods, clippy::disallowed_types)]

//! `fix_text` on OCI, sandbox-runtime, Codex and bwrap files: per rule, a
//! failing file of each format is fixed and the rule is gone (a second
//! run edits nothing), or the fix is refused with a reason; over every
//! corpus file of these formats in fixtures/, `--unsafe-fixes` leaves a
//! file that imports, adds no finding to any profile, and keeps every
//! byte outside the edited spans.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use isolint_core::fix::{self, Outcome, Selection, TextEdit};
use isolint_core::import::{self, Format};
use isolint_core::{AuditOptions, Date, Finding, Labels};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures")
}

const FORMATS: [Format; 4] = [
    Format::Oci,
    Format::SandboxSettings,
    Format::Codex,
    Format::Bwrap,
];

type ByProfile = Vec<(String, Vec<Finding>)>;

fn audit_as(text: &str, format: Format) -> Result<ByProfile, String> {
    let labels = Labels::workshop();
    let options = AuditOptions {
        today: Date::parse("2026-11-29"),
    };
    let units = import::import(text.as_bytes(), format).map_err(|e| e.to_string())?;
    units
        .iter()
        .map(|u| {
            isolint_core::audit::audit_imported(
                u,
                "t",
                &labels,
                &options,
                None,
                &isolint_core::InOrder,
            )
            .map(|r| (u.name.clone(), r.issues))
            .map_err(|e| e.to_string())
        })
        .collect()
}

fn fix_as(text: &str, format: Format, selection: &Selection) -> Result<Outcome, String> {
    let audit = |t: &str| audit_as(t, format);
    fix::fix_text(text, Some(format), selection, &audit)
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

fn all_unsafe() -> Selection {
    Selection {
        unsafe_fixes: true,
        ..Selection::default()
    }
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    for e in rd.filter_map(Result::ok) {
        let p = e.path();
        if p.is_dir() {
            walk(&p, out);
        } else {
            out.push(p);
        }
    }
}

/// Every file under fixtures/ that is detected as one of the four formats
/// and imports.
fn corpus() -> Vec<(PathBuf, Format, String)> {
    let mut files = Vec::new();
    walk(&root(), &mut files);
    files.sort();
    let mut out = Vec::new();
    for path in files {
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if name.ends_with(".findings")
            || name.ends_with(".source")
            || name.ends_with(".json") && name.contains("expect")
        {
            continue;
        }
        let Ok(bytes) = std::fs::read(&path) else {
            continue;
        };
        let Some(format) = import::detect(&bytes, Some(name)) else {
            continue;
        };
        if !FORMATS.contains(&format) {
            continue;
        }
        let Ok(text) = String::from_utf8(bytes) else {
            continue;
        };
        if audit_as(&text, format).is_err() {
            continue;
        }
        out.push((path, format, text));
    }
    out
}

#[test]
fn fixing_every_corpus_file_keeps_it_valid_and_adds_no_finding() {
    let (mut fixed_files, mut files, mut wrong) = (0, 0, Vec::new());
    let mut per_format: HashMap<Format, (usize, usize)> = HashMap::new();
    for (path, format, text) in corpus() {
        files += 1;
        let shown = path
            .strip_prefix(root())
            .unwrap_or(&path)
            .display()
            .to_string();
        let before = audit_as(&text, format).unwrap();
        let out = match fix_as(&text, format, &all_unsafe()) {
            Ok(o) => o,
            Err(e) => {
                wrong.push(format!("{shown}: {e}"));
                continue;
            }
        };
        for w in &out.withdrawn {
            wrong.push(format!(
                "{shown}: withdrawn {} {:?}: {}",
                w.rule, w.pointers, w.reason
            ));
        }
        let e = per_format.entry(format).or_default();
        e.0 += 1;
        if out.edits.is_empty() {
            continue;
        }
        e.1 += 1;
        fixed_files += 1;
        if !outside_kept(&text, &out.fixed, &out.edits) {
            wrong.push(format!("{shown}: bytes outside the edits changed"));
        }
        let Ok(after) = audit_as(&out.fixed, format) else {
            wrong.push(format!("{shown}: the fixed file no longer imports"));
            continue;
        };
        let mut count: HashMap<(String, &str), i64> = HashMap::new();
        for (p, fs) in &before {
            for f in fs {
                *count.entry((p.clone(), f.rule)).or_default() += 1;
            }
        }
        for (p, fs) in &after {
            for f in fs {
                *count.entry((p.clone(), f.rule)).or_default() -= 1;
            }
        }
        if let Some(((p, rule), _)) = count.iter().find(|(_, n)| **n < 0) {
            wrong.push(format!(
                "{shown}: more findings of {rule} in `{p}` after fixing"
            ));
        }
        let again = fix_as(&out.fixed, format, &all_unsafe()).unwrap();
        if !again.edits.is_empty() {
            let rules: Vec<&str> = again.applied.iter().map(|c| c.rule).collect();
            wrong.push(format!("{shown}: a second run still fixes {rules:?}"));
        }
    }
    eprintln!("{fixed_files} of {files} files fixed; per format (files, fixed): {per_format:?}");
    for f in FORMATS {
        assert!(
            per_format.get(&f).is_some_and(|(_, fixed)| *fixed > 0),
            "no {f} file was fixed: {per_format:?}"
        );
    }
    assert!(
        wrong.is_empty(),
        "{} wrong:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}

/// Fixes the proof withdraws, as it should: PRV009 names one way to the
/// engine socket (a mount, a variable); the catalog's fix removes that
/// one and the rule then names the next (the OCI fixture's
/// `DOCKER_HOST` beside its socket mount; `/run` bound beside
/// `/run/tmux`).
const WITHDRAWN: &[(&str, &str)] = &[
    ("PRV009", "fix/oci-config.json"),
    ("PRV009", "import/real/bwrap/tesuji-nix-binds.sh"),
];

/// What one rule's fix did on one format's failing files.
#[derive(Default, Debug)]
struct RuleRow {
    files: usize,
    fixed: usize,
    refused: usize,
    withdrawn: usize,
    wrong: Vec<String>,
    reasons: std::collections::BTreeSet<String>,
}

/// Every rule with a fix, on every corpus file of each format where it
/// fires, fixed alone (`--rule R --unsafe-fixes`): each finding is fixed
/// (the rule no longer fires there, a second run edits nothing) or
/// refused with a reason; none is withdrawn.
#[test]
fn every_rule_with_a_fix_is_fixed_or_refused_in_each_format() {
    let with_fix: Vec<&str> = fix::catalog()
        .iter()
        .filter(|f| matches!(f.remedy, fix::Remedy::Fix { .. }))
        .map(|f| f.rule)
        .collect();
    let mut table: std::collections::BTreeMap<(String, &str), RuleRow> = Default::default();
    for (path, format, text) in corpus() {
        let shown = path
            .strip_prefix(root())
            .unwrap_or(&path)
            .display()
            .to_string();
        let before = audit_as(&text, format).unwrap();
        let fires: std::collections::BTreeSet<&'static str> = before
            .iter()
            .flat_map(|(_, f)| f.iter().map(|f| f.rule))
            .filter(|r| with_fix.contains(r))
            .collect();
        for rule in fires {
            let row = table.entry((format.name().to_string(), rule)).or_default();
            row.files += 1;
            let selection = Selection {
                unsafe_fixes: true,
                rules: vec![rule.to_string()],
                ..Selection::default()
            };
            let out = fix_as(&text, format, &selection).unwrap();
            for w in &out.withdrawn {
                if WITHDRAWN.iter().any(|(r, f)| *r == rule && *f == shown) {
                    row.withdrawn += 1;
                    continue;
                }
                row.wrong.push(format!("{shown}: withdrawn: {}", w.reason));
            }
            for r in &out.refused {
                row.reasons.insert(r.reason.clone());
            }
            row.refused += out.refused.len();
            if out.applied.is_empty() {
                continue;
            }
            row.fixed += out.applied.len();
            // By count per profile: removing an array item renumbers the
            // items after it, so pointers are not compared.
            let after = audit_as(&out.fixed, format).unwrap();
            let count = |by: &ByProfile, profile: &str| {
                by.iter()
                    .filter(|(p, _)| p == profile)
                    .flat_map(|(_, f)| f.iter())
                    .filter(|f| f.rule == rule)
                    .count()
            };
            let mut profiles: Vec<&str> = out.applied.iter().map(|c| c.profile.as_str()).collect();
            profiles.dedup();
            for p in profiles {
                let fixed = out.applied.iter().filter(|c| c.profile == p).count();
                if count(&after, p) + fixed > count(&before, p) {
                    row.wrong
                        .push(format!("{shown}: {rule} still fires in `{p}`"));
                }
            }
            let again = fix_as(&out.fixed, format, &selection).unwrap();
            if !again.edits.is_empty() {
                row.wrong.push(format!("{shown}: a second run edits again"));
            }
        }
    }
    let mut wrong = Vec::new();
    for ((format, rule), row) in &table {
        eprintln!(
            "{format:<16} {rule}  files {:>2}  fixed {:>4}  refused {:>4}{}",
            row.files,
            row.fixed,
            row.refused,
            row.reasons
                .iter()
                .next()
                .map(|r| format!("  ({r})"))
                .unwrap_or_default()
        );
        wrong.extend(row.wrong.iter().map(|w| format!("{format} {rule}: {w}")));
    }
    let pairs = table.len();
    let fixed_pairs = table.values().filter(|r| r.fixed > 0).count();
    eprintln!(
        "{pairs} rule-format pairs fire in the corpus; {fixed_pairs} fixed at least once; {} wrong",
        wrong.len()
    );
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// The share of blocking findings in the public corpora of the four
/// formats (fixtures/import/real) that a fix reaches in the file's own
/// format (made and proven by `--unsafe-fixes`), by count and by rule.
/// A measurement for the README, not a check.
#[test]
#[ignore = "a measurement: cargo test --test fix_formats -- --ignored --nocapture"]
fn measure_fix_coverage_of_the_real_corpora() {
    let mut by_rule: std::collections::BTreeMap<&str, (usize, usize)> = Default::default();
    let (mut blocking, mut reached, mut declared) = (0usize, 0usize, 0usize);
    for (path, format, text) in corpus() {
        if !path.starts_with(root().join("import/real")) {
            continue;
        }
        let before = audit_as(&text, format).unwrap();
        let out = fix_as(&text, format, &all_unsafe()).unwrap();
        for (profile, findings) in &before {
            let offered = fix::candidates(findings);
            for f in findings.iter().filter(|f| f.blocks()) {
                let made = out
                    .applied
                    .iter()
                    .any(|c| c.profile == *profile && c.rule == f.rule && c.pointer == f.pointer);
                blocking += 1;
                reached += usize::from(made);
                declared += usize::from(
                    offered
                        .iter()
                        .any(|c| c.rule == f.rule && c.pointer == f.pointer),
                );
                let e = by_rule.entry(f.rule).or_default();
                e.0 += 1;
                e.1 += usize::from(made);
            }
        }
    }
    let rules_with = by_rule.values().filter(|(_, r)| *r > 0).count();
    eprintln!(
        "blocking findings: {blocking}; a fix declared in profile terms: {declared} ({:.1} %); made in the file's format: {reached} ({:.1} %); rules: {}, with a fix made: {rules_with}",
        100.0 * declared as f64 / blocking.max(1) as f64,
        100.0 * reached as f64 / blocking.max(1) as f64,
        by_rule.len()
    );
    for (rule, (n, r)) in &by_rule {
        eprintln!("  {rule}: {r}/{n}");
    }
}

/// `fix --unsafe-fixes` against `audit` on a 1 MiB OCI config of bind
/// mounts (each a finding with a fix). A measurement, not a check.
#[test]
#[ignore = "a measurement: cargo test --release --test fix_formats -- --ignored --nocapture"]
fn measure_fix_time_on_one_mebibyte() {
    let mut mounts = Vec::new();
    let mut i = 0;
    let mut size = 0;
    while size < 1 << 20 {
        let m = format!(
            "        {{\"destination\": \"/srv/data{i}\", \"type\": \"bind\", \"source\": \"/srv/data{i}\", \"options\": [\"rbind\", \"rw\"]}}"
        );
        size += m.len() + 2;
        mounts.push(m);
        i += 1;
    }
    let text = format!(
        "{{\n    \"ociVersion\": \"1.0.2\",\n    \"process\": {{\"args\": [\"make\"], \"user\": {{\"uid\": 0, \"gid\": 0}}, \"noNewPrivileges\": false}},\n    \"root\": {{\"path\": \"rootfs\"}},\n    \"mounts\": [\n{}\n    ],\n    \"linux\": {{\"namespaces\": [{{\"type\": \"pid\"}}, {{\"type\": \"mount\"}}]}}\n}}\n",
        mounts.join(",\n")
    );
    let t = std::time::Instant::now();
    let before = audit_as(&text, Format::Oci).unwrap();
    let audit = t.elapsed();
    let t = std::time::Instant::now();
    let out = fix_as(&text, Format::Oci, &all_unsafe()).unwrap();
    let fix = t.elapsed();
    let findings: usize = before.iter().map(|(_, f)| f.len()).sum();
    eprintln!(
        "{} bytes, {} mounts, {findings} findings: audit {audit:.2?}, fix {fix:.2?} ({:.2}x), {} fixes made, {} edits",
        text.len(),
        i,
        fix.as_secs_f64() / audit.as_secs_f64(),
        out.applied.len(),
        out.edits.len()
    );
    assert!(out.withdrawn.is_empty(), "{:?}", out.withdrawn.first());
}
