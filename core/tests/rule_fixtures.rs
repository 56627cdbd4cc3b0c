// Tests read fixture files; the I/O ban of core/clippy.toml is for the library itself.
#![allow(clippy::disallowed_methods, clippy::disallowed_types)]

//! Every rule has a failing and a passing fixture profile under
//! `fixtures/rules/<ID>/`: `fail*.json` must raise the rule, `pass*.json`
//! must not. This is the registry's contract with its documentation.

use std::path::{Path, PathBuf};

use isolint_core::{audit, rules, runner, waivers, AuditOptions, Date, Labels};

fn fixtures_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/rules")
}

fn options() -> AuditOptions {
    AuditOptions {
        today: Date::parse("2026-11-29"),
    }
}

fn labels_for(dir: &Path) -> Labels {
    // A rule may bring its own catalog (labels.json); else the workshop one.
    match std::fs::read(dir.join("labels.json")) {
        Ok(bytes) => Labels::load(&bytes).unwrap_or_else(|e| panic!("{}: {e}", dir.display())),
        Err(_) => Labels::workshop(),
    }
}

fn profiles(dir: &Path, prefix: &str) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|rd| rd.filter_map(Result::ok).map(|e| e.path()).collect())
        .unwrap_or_default();
    v.retain(|p| {
        p.file_name().and_then(|n| n.to_str()).is_some_and(|n| {
            n.starts_with(prefix) && (n.ends_with(".json") || n.ends_with(".compose.yaml"))
        })
    });
    v.sort();
    v
}

/// Waiver rules need a waivers file: `waivers.json` beside the fixtures,
/// where `@profile-sha256` stands for the audited profile's digest and a
/// `waivers-path.txt` names where the file is pretended to live.
fn apply_fixture_waivers(dir: &Path, report: &mut isolint_core::Report) {
    let Ok(text) = std::fs::read_to_string(dir.join("waivers.json")) else {
        return;
    };
    let text = text.replace("@profile-sha256", &report.profile.sha256);
    let waivers =
        waivers::parse(text.as_bytes()).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    let path = std::fs::read_to_string(dir.join("waivers-path.txt")).unwrap_or_default();
    let source = waivers::WaiversSource {
        path: path.trim().to_string(),
        ..Default::default()
    };
    waivers::apply(report, &waivers, options().today, &source);
}

/// The report of a Compose fixture read with no files beside it (a
/// partial reading): every service's findings in one report.
fn compose_report(
    bytes: &[u8],
    name: &str,
    labels: &isolint_core::Labels,
) -> Result<isolint_core::Report, String> {
    let cx = isolint_core::import::ComposeContext::no_files(true);
    let units = isolint_core::import::import_compose(bytes, &cx).map_err(|e| e.to_string())?;
    let mut all: Option<isolint_core::Report> = None;
    for u in &units {
        let r = isolint_core::audit::audit_imported(
            u,
            name,
            labels,
            &options(),
            None,
            &isolint_core::InOrder,
        )
        .map_err(|e| e.to_string())?;
        match &mut all {
            Some(a) => a.issues.extend(r.issues),
            None => all = Some(r),
        }
    }
    all.ok_or_else(|| "no service".to_string())
}

#[test]
fn every_rule_has_a_failing_and_a_passing_fixture() {
    let mut missing = Vec::new();
    let mut wrong = Vec::new();
    for rule in rules::all() {
        let dir = fixtures_dir().join(rule.id);
        let fails = profiles(&dir, "fail");
        let passes = profiles(&dir, "pass");
        if fails.is_empty() || passes.is_empty() {
            missing.push(rule.id);
            continue;
        }
        let labels = labels_for(&dir);
        for (path, should_fire) in fails
            .iter()
            .map(|p| (p, true))
            .chain(passes.iter().map(|p| (p, false)))
        {
            let bytes = std::fs::read(path).unwrap();
            let audited = if path.to_string_lossy().ends_with(".compose.yaml") {
                // Rules about what a file depends on (PRF021): a Compose
                // file read as the page reads it, with no files beside it.
                compose_report(&bytes, &path.display().to_string(), &labels)
            } else {
                match std::fs::read(dir.join("runner.json")) {
                    // Runner-overlay rules: the overlay beside the fixtures is
                    // merged under each profile.
                    Ok(r) => {
                        let runner = runner::Runner::parse(&r, "runner.json")
                            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
                        let text = String::from_utf8(bytes).unwrap();
                        runner::audit_profile(
                            &text,
                            &path.display().to_string(),
                            &labels,
                            &options(),
                            &runner,
                        )
                        .map_err(|e| e.to_string())
                    }
                    Err(_) => audit(&bytes, &path.display().to_string(), &labels, &options())
                        .map_err(|e| e.to_string()),
                }
            };
            let report = match audited {
                Ok(mut r) => {
                    apply_fixture_waivers(&dir, &mut r);
                    r
                }
                Err(e) => {
                    wrong.push(format!("{}: refused: {e}", path.display()));
                    continue;
                }
            };
            let fired = report.issues.iter().any(|f| f.rule == rule.id);
            if fired != should_fire {
                wrong.push(format!(
                    "{}: rule {} {}",
                    path.display(),
                    rule.id,
                    if should_fire {
                        "did not fire"
                    } else {
                        "fired but should not"
                    }
                ));
            }
        }
    }
    assert!(
        missing.is_empty(),
        "rules without both fixtures: {missing:?}"
    );
    assert!(
        wrong.is_empty(),
        "fixture mismatches:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn fixture_directories_name_real_rules() {
    for entry in std::fs::read_dir(fixtures_dir()).unwrap() {
        let name = entry.unwrap().file_name().into_string().unwrap();
        assert!(
            rules::find(&name).is_some(),
            "fixtures/rules/{name} names no rule"
        );
    }
}
