//! Golden reports: every profile in `fixtures/profiles/` rendered as text
//! (no colour), JSON, SARIF, Markdown and GitHub annotations by the real
//! binary, compared byte for byte with
//! `fixtures/expected/<name>.{txt,json,sarif,md,github}`.
//!
//! After an intended change, rewrite them with
//! `ISOLINT_BLESS=1 cargo test -p isolint-acceptance --test golden`
//! and review the diff before committing.

use std::fs;
use std::path::{Path, PathBuf};

use isolint_acceptance::{fixture_profiles, isolint, root};
use isolint_core::model::StringEnum;
use isolint_core::rules;
use serde_json::Value;

const TODAY: &str = "2026-11-29";
const FORMATS: [(&str, &str); 5] = [
    ("text", "txt"),
    ("json", "json"),
    ("sarif", "sarif"),
    ("markdown", "md"),
    ("github", "github"),
];

fn blessing() -> bool {
    std::env::var_os("ISOLINT_BLESS").is_some_and(|v| v == "1")
}

fn expected_dir() -> PathBuf {
    root().join("fixtures/expected")
}

fn relative(p: &Path) -> String {
    p.strip_prefix(root())
        .unwrap()
        .to_string_lossy()
        .replace('\\', "/")
}

/// The binary's output for one profile in one format, from the workspace
/// root with a relative path, a fixed date and no colour.
fn render(profile: &str, format: &str) -> Vec<u8> {
    let run = isolint([
        "audit", "--today", TODAY, "--color", "never", "--format", format, profile,
    ]);
    assert!(
        matches!(run.code, Some(0 | 1)),
        "{profile} ({format}): exit {:?}\n{}",
        run.code,
        run.stderr
    );
    run.stdout
}

/// Where two outputs first differ, for a readable failure.
fn first_difference(expected: &[u8], actual: &[u8]) -> String {
    let e = String::from_utf8_lossy(expected);
    let a = String::from_utf8_lossy(actual);
    for (i, (el, al)) in e.lines().zip(a.lines()).enumerate() {
        if el != al {
            return format!("line {}:\n  expected: {el}\n  actual:   {al}", i + 1);
        }
    }
    format!(
        "lengths differ: expected {} lines, got {}",
        e.lines().count(),
        a.lines().count()
    )
}

#[test]
fn reports_match_the_golden_files() {
    let dir = expected_dir();
    let profiles = fixture_profiles();
    assert!(
        profiles.len() >= 2,
        "fixtures/profiles holds the workshop profiles"
    );
    let mut wanted = Vec::new();
    let mut mismatches = Vec::new();
    for profile in &profiles {
        let rel = relative(profile);
        let stem = profile.file_stem().unwrap().to_string_lossy().into_owned();
        for (format, ext) in FORMATS {
            let golden = dir.join(format!("{stem}.{ext}"));
            wanted.push(golden.clone());
            let actual = render(&rel, format);
            if blessing() {
                fs::create_dir_all(&dir).unwrap();
                fs::write(&golden, &actual).unwrap();
                continue;
            }
            match fs::read(&golden) {
                Ok(expected) if expected == actual => {}
                Ok(expected) => mismatches.push(format!(
                    "{} differs from `isolint audit --format {format} {rel}`: {}",
                    relative(&golden),
                    first_difference(&expected, &actual)
                )),
                Err(_) => mismatches.push(format!("{} is missing", relative(&golden))),
            }
        }
    }
    // Golden files of profiles that no longer exist would rot unnoticed.
    for entry in fs::read_dir(&dir)
        .map(|rd| rd.filter_map(Result::ok).collect::<Vec<_>>())
        .unwrap_or_default()
    {
        let path = entry.path();
        if path.is_file() && !wanted.contains(&path) {
            if blessing() {
                fs::remove_file(&path).unwrap();
            } else {
                mismatches.push(format!("{} belongs to no fixture profile", relative(&path)));
            }
        }
    }
    assert!(
        mismatches.is_empty(),
        "{}\n\nIf the change is intended: ISOLINT_BLESS=1 cargo test -p isolint-acceptance --test golden",
        mismatches.join("\n")
    );
}

#[test]
fn golden_outputs_carry_no_time_absolute_path_or_colour() {
    for profile in fixture_profiles() {
        let rel = relative(&profile);
        for (format, _) in FORMATS {
            let out = String::from_utf8(render(&rel, format)).unwrap();
            assert!(!out.contains('\x1b'), "{rel} ({format}): colour");
            assert!(
                !out.contains(&*root().to_string_lossy()),
                "{rel} ({format}): absolute path"
            );
        }
    }
}

fn sarif(profile: &str) -> Value {
    serde_json::from_slice(&render(profile, "sarif")).unwrap()
}

fn export(profile: &str) -> Value {
    serde_json::from_slice(&render(profile, "json")).unwrap()
}

#[test]
fn sarif_logs_have_the_structure_code_scanning_needs() {
    for profile in fixture_profiles() {
        let rel = relative(&profile);
        let log = sarif(&rel);
        let doc = export(&rel);
        assert_eq!(
            log["$schema"],
            "https://json.schemastore.org/sarif-2.1.0.json"
        );
        assert_eq!(log["version"], "2.1.0");
        let runs = log["runs"].as_array().unwrap();
        assert_eq!(runs.len(), 1);
        let run = &runs[0];

        let driver = &run["tool"]["driver"];
        assert_eq!(driver["name"], "isolint");
        let descriptors = driver["rules"].as_array().unwrap();
        let registry: Vec<&rules::Rule> = rules::all().collect();
        assert_eq!(
            descriptors.len(),
            registry.len(),
            "driver.rules lists the whole registry"
        );
        for (d, r) in descriptors.iter().zip(&registry) {
            assert_eq!(d["id"], r.id);
            assert_eq!(d["shortDescription"]["text"], r.title);
            assert!(
                !d["fullDescription"]["text"].as_str().unwrap().is_empty(),
                "{}",
                r.id
            );
            assert!(
                d["help"]["text"].as_str().unwrap().contains(r.remediation),
                "{}",
                r.id
            );
            let score: f64 = d["properties"]["security-severity"]
                .as_str()
                .unwrap()
                .parse()
                .unwrap();
            assert!((0.0..=10.0).contains(&score));
        }

        let results = run["results"]
            .as_array()
            .expect("results is an array, `[]` when clean");
        let issues = doc["issues"].as_array().unwrap();
        assert_eq!(results.len(), issues.len(), "{rel}: one result per finding");
        for (res, issue) in results.iter().zip(issues) {
            let id = res["ruleId"].as_str().unwrap();
            assert_eq!(id, issue["rule"]);
            let index = res["ruleIndex"].as_u64().unwrap() as usize;
            assert_eq!(descriptors[index]["id"], id, "ruleIndex points at the rule");
            let level = res["level"].as_str().unwrap();
            assert!(["error", "warning", "note"].contains(&level), "{level}");
            let blocking = ["critical", "high"].contains(&issue["severity"].as_str().unwrap());
            assert_eq!(
                level == "error",
                blocking,
                "{id}: errors are exactly the blocking findings"
            );
            assert!(!res["message"]["text"].as_str().unwrap().is_empty());
            let loc = &res["locations"][0]["physicalLocation"];
            let uri = loc["artifactLocation"]["uri"].as_str().unwrap();
            assert_eq!(uri, rel, "relative artifact URI");
            assert!(!uri.starts_with('/') && !uri.contains("://"));
            assert_eq!(loc["region"]["startLine"], issue["line"]);
            assert_eq!(loc["region"]["startColumn"], issue["column"]);
            assert!(loc["region"]["startLine"].as_u64().unwrap() >= 1);
            assert!(loc["region"]["startColumn"].as_u64().unwrap() >= 1);
            let fps = res["partialFingerprints"].as_object().unwrap();
            assert!(
                !fps.is_empty()
                    && fps
                        .values()
                        .all(|v| v.as_str().is_some_and(|s| !s.is_empty()))
            );
            let score: f64 = res["properties"]["security-severity"]
                .as_str()
                .unwrap()
                .parse()
                .unwrap();
            assert!((0.0..=10.0).contains(&score));
        }
        if issues.is_empty() {
            let text = String::from_utf8(render(&rel, "sarif")).unwrap();
            assert!(
                text.contains("\"results\": []"),
                "{rel}: a clean profile exports `results: []`"
            );
        }
    }
}

#[test]
fn the_workshop_profiles_tell_the_lesson() {
    let before = export("fixtures/profiles/workshop.json");
    assert_eq!(before["verdict"], "not-eligible");
    let after = export("fixtures/profiles/workshop-fixed.json");
    assert_eq!(after["verdict"], "eligible-for-runtime-testing");
    // Nothing blocking is left in the fixed profile: no critical or high
    // finding, so no SARIF result at the `error` level.
    for i in after["issues"].as_array().unwrap() {
        let sev = i["severity"].as_str().unwrap();
        assert!(
            !["critical", "high"].contains(&sev),
            "workshop-fixed.json: {i}"
        );
    }
    let log = sarif("fixtures/profiles/workshop-fixed.json");
    let results = log["runs"][0]["results"].as_array().unwrap();
    assert!(results.iter().all(|r| r["level"] != "error"));
    // Findings are ordered by area (display order), then pointer, then rule.
    let areas: Vec<usize> = before["issues"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| {
            isolint_core::Area::ALL
                .iter()
                .position(|a| a.as_str() == i["area"].as_str().unwrap())
                .unwrap()
        })
        .collect();
    assert!(
        areas.windows(2).all(|w| w[0] <= w[1]),
        "issues grouped in area order"
    );
}

#[test]
fn a_clean_report_exports_empty_issues_and_results() {
    let mut report = isolint_core::audit(
        isolint_core::WORKSHOP_PROFILE_FIXED.as_bytes(),
        "fixtures/profiles/workshop-fixed.json",
        &isolint_core::Labels::workshop(),
        &isolint_core::AuditOptions::default(),
    )
    .unwrap();
    report.issues.clear();
    report.refresh();
    let json = isolint_core::render::json::render(&report);
    assert!(json.contains("\"issues\": []"), "{json}");
    let sarif = isolint_core::render::sarif::render(&report);
    assert!(sarif.contains("\"results\": []"), "{sarif}");
    assert!(
        !report.runtime_checks.is_empty(),
        "the plan exists even for a clean profile"
    );
}

#[test]
fn markdown_and_github_outputs_follow_the_export() {
    for profile in fixture_profiles() {
        let rel = relative(&profile);
        let doc = export(&rel);
        let issues = doc["issues"].as_array().unwrap();

        let md = String::from_utf8(render(&rel, "markdown")).unwrap();
        assert!(md.starts_with("## isolint: "), "{rel}: {md}");
        let verdict_word = if doc["verdict"] == "not-eligible" {
            "🔴"
        } else {
            "🔵"
        };
        assert!(md.lines().next().unwrap().contains(verdict_word), "{rel}");
        let rows = md
            .lines()
            .filter(|l| l.starts_with("| ") && !l.starts_with("| severity"))
            .count();
        assert_eq!(rows, issues.len(), "{rel}: one table row per finding");

        let gh = String::from_utf8(render(&rel, "github")).unwrap();
        let lines: Vec<&str> = gh.lines().collect();
        assert_eq!(
            lines.len(),
            issues.len() + 1,
            "{rel}: one annotation per finding and a verdict"
        );
        for (line, issue) in lines.iter().zip(issues) {
            let level = match issue["severity"].as_str().unwrap() {
                "critical" | "high" => "::error ",
                "medium" => "::warning ",
                _ => "::notice ",
            };
            assert!(line.starts_with(level), "{rel}: {line}");
            assert!(line.contains(&format!("file={rel},")), "{rel}: {line}");
            assert!(
                line.contains(&format!("line={},", issue["line"])),
                "{rel}: {line}"
            );
        }
        assert!(
            lines.last().unwrap().starts_with("::notice ")
                && lines
                    .last()
                    .unwrap()
                    .contains(doc["verdict"].as_str().unwrap()),
            "{rel}: {gh}"
        );
    }
}
