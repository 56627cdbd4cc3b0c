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
        if name.ends_with(".findings") || name.ends_with(".source") || name.ends_with(".json") && name.contains("expect") {
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
        let shown = path.strip_prefix(root()).unwrap_or(&path).display().to_string();
        let before = audit_as(&text, format).unwrap();
        let out = match fix_as(&text, format, &all_unsafe()) {
            Ok(o) => o,
            Err(e) => {
                wrong.push(format!("{shown}: {e}"));
                continue;
            }
        };
        for w in &out.withdrawn {
            wrong.push(format!("{shown}: withdrawn {} {:?}: {}", w.rule, w.pointers, w.reason));
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
            wrong.push(format!("{shown}: more findings of {rule} in `{p}` after fixing"));
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
        let shown = path.strip_prefix(root()).unwrap_or(&path).display().to_string();
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
                    row.wrong.push(format!("{shown}: {rule} still fires in `{p}`"));
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
            row.reasons.iter().next().map(|r| format!("  ({r})")).unwrap_or_default()
        );
        wrong.extend(row.wrong.iter().map(|w| format!("{format} {rule}: {w}")));
    }
    let pairs = table.len();
    let fixed_pairs = table.values().filter(|r| r.fixed > 0).count();
    eprintln!("{pairs} rule-format pairs fire in the corpus; {fixed_pairs} fixed at least once; {} wrong", wrong.len());
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
#[ignore]
fn debug_one() {
    let path = std::env::var("F").unwrap();
    let format = import::Format::parse(&std::env::var("FMT").unwrap()).unwrap();
    let text = std::fs::read_to_string(&path).unwrap();
    let text2 = std::env::var("R").map(|r| { let (a, b) = r.split_once("=>").unwrap(); text.replace(a, b) }).unwrap_or(text.clone());
    for t in [&text, &text2] {
        for (p, fs) in audit_as(t, format).unwrap() {
            let mut v: Vec<String> = fs.iter().map(|f| format!("{} {}", f.rule, f.pointer)).collect();
            v.sort();
            eprintln!("{p:?}: {v:?}");
        }
    }
    let mut sel = all_unsafe();
    if let Ok(r) = std::env::var("RULES") {
        sel.rules = r.split(',').map(str::to_string).collect();
    }
    let out = fix_as(&text, format, &sel).unwrap();
    eprintln!("{:?}", out.edits);
    eprintln!("{}", fix::unified_diff(&text, &out.fixed, "x"));
    for w in &out.withdrawn { eprintln!("withdrawn {} {:?}: {}", w.rule, w.pointers, w.reason); }
    for r in &out.refused { eprintln!("refused {} {}: {}", r.candidate.rule, r.candidate.pointer, r.reason); }
}
