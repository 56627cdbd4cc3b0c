//! Exit codes: the verdict, `--fail-on`, usage errors.

use crate::common::*;
use crate::waivers_baseline::waive_all_blocking;

// ---- exit codes ---------------------------------------------------------

#[test]
fn a_profile_with_blocking_findings_exits_1() {
    let run = audit(&[WORKSHOP]);
    run.expect_code(1);
    let out = run.stdout_str();
    assert!(out.contains("not eligible"), "{out}");
    assert!(out.contains("not proof of enforcement"), "{out}");
    assert!(run.stderr.is_empty(), "{}", run.stderr);
}

#[test]
fn the_fixed_workshop_profile_is_eligible_and_exits_0() {
    let run = audit(&["--format", "json", FIXED]);
    run.expect_code(0);
    let doc = run.json();
    assert_eq!(doc["verdict"], "eligible-for-runtime-testing");
    assert_eq!(doc["summary"]["critical"], 0);
    assert_eq!(doc["summary"]["high"], 0);
}

#[test]
fn one_ineligible_profile_among_several_makes_the_exit_code_1() {
    audit(&[FIXED, WORKSHOP]).expect_code(1);
    audit(&[FIXED, FIXED]).expect_code(0);
}

#[test]
fn usage_errors_exit_2() {
    for args in [
        vec!["audit"],
        vec!["audit", "--format", "xml", WORKSHOP],
        vec!["audit", "--today", "2026-02-30", WORKSHOP],
        vec!["audit", "--color", "sometimes", WORKSHOP],
        vec!["frobnicate"],
        vec!["schema", "policy"],
        vec!["explain"],
    ] {
        let run = isolint(&args);
        run.expect_code(2);
        assert!(
            run.stdout.is_empty(),
            "{args:?}: usage errors print nothing on stdout"
        );
        assert!(run.stderr.contains("error"), "{args:?}: {}", run.stderr);
    }
}

#[test]
fn no_arguments_without_a_terminal_prints_the_embedded_workshop_report() {
    let run = isolint(Vec::<&str>::new());
    run.expect_code(1);
    let out = run.stdout_str();
    assert!(out.contains("(workshop.json)"), "{out}");
    assert!(out.contains("labels `workshop`"), "{out}");
    assert!(
        !out.contains('\x1b'),
        "no colour when stdout is not a terminal"
    );
}

#[test]
fn the_dashboard_refuses_to_start_without_a_terminal() {
    let run = isolint(["tui", WORKSHOP]);
    run.expect_code(2);
    assert!(run.stderr.contains("terminal"), "{}", run.stderr);
}

// ---- output shapes ------------------------------------------------------

pub(crate) const LEVELS: [&str; 5] = ["critical", "high", "medium", "low", "info"];

/// Whether `doc` (one findings document) holds a non-waived finding at or
/// above `level`, counting only `new` ones when `new_only`.
pub(crate) fn has_finding_at_or_above(doc: &Value, level: &str, new_only: bool) -> bool {
    let rank = |s: &str| LEVELS.iter().position(|l| *l == s).unwrap();
    doc["issues"].as_array().unwrap().iter().any(|i| {
        i["waived"].is_null()
            && rank(i["severity"].as_str().unwrap()) <= rank(level)
            && (!new_only || i["baseline"] == "new")
    })
}

#[test]
fn fail_on_sets_the_exit_code_at_each_level_whatever_the_verdict() {
    for profile in [WORKSHOP, FIXED] {
        let doc = audit(&["--format", "json", profile]).json();
        let mut seen = Vec::new();
        for level in LEVELS {
            let want = i32::from(has_finding_at_or_above(&doc, level, false));
            seen.push(want);
            let run = audit(&["--fail-on", level, "--format", "json", profile]);
            run.expect_code(want);
            // The gate changes the exit code only, never the report.
            assert_eq!(run.json(), doc, "{profile} --fail-on {level}");
        }
        // Lower thresholds can only fail more.
        assert!(seen.windows(2).all(|w| w[0] <= w[1]), "{profile}: {seen:?}");
    }
    // The workshop profile has critical findings: every level fails.
    for level in LEVELS {
        audit(&["--fail-on", level, WORKSHOP]).expect_code(1);
    }
    // The fixed profile is eligible (exit 0 by default) but holds a medium
    // finding: --fail-on medium fails it, --fail-on high does not.
    audit(&[FIXED]).expect_code(0);
    audit(&["--fail-on", "high", FIXED]).expect_code(0);
    audit(&["--fail-on", "critical", FIXED]).expect_code(0);
    audit(&["--fail-on", "medium", FIXED]).expect_code(1);
    audit(&["--fail-on", "info", FIXED]).expect_code(1);
    // Input errors still win.
    audit(&["--fail-on", "critical", FIXED, "no/such/file.json"]).expect_code(2);
    let bad = audit(&["--fail-on", "severe", FIXED]);
    bad.expect_code(2);
    assert!(bad.stderr.contains("critical"), "{}", bad.stderr);
}

#[test]
fn fail_on_ignores_waived_findings() {
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("waivers.json");
    fs::write(
        &file,
        waive_all_blocking(WORKSHOP, "2026-12-31").to_string(),
    )
    .unwrap();
    let w = file.to_str().unwrap();
    let doc = audit(&["--format", "json", "--waivers", w, WORKSHOP]).json();
    assert_eq!(doc["verdict"], "eligible-for-runtime-testing");
    for level in LEVELS {
        let want = i32::from(has_finding_at_or_above(&doc, level, false));
        audit(&["--fail-on", level, "--waivers", w, WORKSHOP]).expect_code(want);
    }
    audit(&["--fail-on", "high", "--waivers", w, WORKSHOP]).expect_code(0);
    audit(&["--fail-on", "medium", "--waivers", w, WORKSHOP]).expect_code(1);
}

// ---- --baseline ---------------------------------------------------------
