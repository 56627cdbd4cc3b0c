//! `isolint reconcile` end to end through the binary: a plan exported by
//! `audit`, observations written as a probe would, and the exit status.
//! (The bubblewrap launcher and probe are not built yet; these documents
//! stand in for what they would write.)

use std::fs;

use isolint_acceptance::{bin, root};
use serde_json::{json, Value};

fn run(args: &[&str]) -> (i32, String) {
    let out = std::process::Command::new(bin())
        .args(args)
        .current_dir(root())
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

fn honest(expect: &str) -> &'static str {
    match expect {
        "denied" => "denied",
        "allowed" => "allowed",
        "enforced" => "enforced",
        "no-survivors" => "no-survivors",
        "exact" => "exact",
        "resolves-to-declared-source" => "resolves",
        "rejected-after-job" => "rejected",
        "destroyed" => "destroyed",
        "separate-kernel" => "separate-kernel",
        "filtered" => "filtered",
        "within-declared" => "within-declared",
        "private" => "private",
        "standard" => "standard",
        other => panic!("expect {other} has no honest answer here"),
    }
}

#[test]
fn reconcile_agrees_only_when_observations_match_the_plan() {
    let tmp = tempfile::tempdir().unwrap();
    let (code, plan) = run(&[
        "audit",
        "--format",
        "json",
        "fixtures/profiles/workshop-fixed.json",
    ]);
    assert!(code <= 1);
    let findings = tmp.path().join("findings.json");
    fs::write(&findings, &plan).unwrap();
    let plan: Value = serde_json::from_str(&plan).unwrap();
    let checks = plan["runtime_checks"].as_array().unwrap();
    let observe = |wrong: Option<&str>, fingerprint: &str| {
        let obs: Vec<Value> = checks
            .iter()
            .map(|c| {
                let id = c["id"].as_str().unwrap();
                let mut observed = honest(c["expect"].as_str().unwrap());
                if wrong == Some(id) {
                    observed = if observed == "allowed" { "denied" } else { "allowed" };
                }
                json!({"id": id, "kind": c["kind"], "action": "test", "observed": observed, "elapsed_us": 1})
            })
            .collect();
        let doc = json!({"schema": "isolint.observations/v1", "plan_fingerprint": fingerprint,
            "runner": "test", "observations": obs});
        let path = tmp.path().join("observations.json");
        fs::write(&path, doc.to_string()).unwrap();
        path
    };
    let fp = plan["profile"]["fingerprint"].as_str().unwrap();
    let f = findings.to_str().unwrap();

    let o = observe(None, fp);
    let (code, out) = run(&["reconcile", f, o.to_str().unwrap()]);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains(&format!("{} agree, 0 disagree", checks.len())),
        "{out}"
    );

    // Each check observed otherwise, one at a time: exit 1, that check disagrees.
    for c in checks {
        let id = c["id"].as_str().unwrap();
        let o = observe(Some(id), fp);
        let (code, out) = run(&["reconcile", "--format", "json", f, o.to_str().unwrap()]);
        assert_eq!(code, 1, "{id}");
        let v: Value = serde_json::from_str(&out).unwrap();
        let got = v["checks"]
            .as_array()
            .unwrap()
            .iter()
            .find(|x| x["id"] == id)
            .unwrap();
        assert_eq!(got["status"], "disagrees", "{got}");
    }

    // SARIF and Markdown: the same verdict and exit code as text; one
    // SARIF result per check that does not agree, at the profile file.
    let wrong = checks[0]["id"].as_str().unwrap();
    let o = observe(Some(wrong), fp);
    let (code, out) = run(&["reconcile", "--format", "sarif", f, o.to_str().unwrap()]);
    assert_eq!(code, 1);
    let log: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(log["version"], "2.1.0");
    let results = log["runs"][0]["results"].as_array().unwrap();
    assert_eq!(results.len(), 1, "{out}");
    assert_eq!(results[0]["partialFingerprints"]["isolintCheck/v1"], wrong);
    assert_eq!(
        results[0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
        "fixtures/profiles/workshop-fixed.json"
    );
    let (code, out) = run(&["reconcile", "--format", "markdown", f, o.to_str().unwrap()]);
    assert_eq!(code, 1);
    let rows: Vec<&str> = out.lines().filter(|l| l.starts_with("| ")).collect();
    assert_eq!(rows.len(), checks.len() + 1, "{out}");
    assert!(
        rows[1].starts_with("| disagrees") && rows[1].contains(wrong),
        "{out}"
    );

    // Another fingerprint: stale, exit 1.
    let o = observe(None, &"0".repeat(64));
    let (code, out) = run(&["reconcile", f, o.to_str().unwrap()]);
    assert_eq!(code, 1);
    assert!(out.starts_with("stale"), "{out}");

    // A document that is not observations: exit 2.
    let (code, _) = run(&["reconcile", f, f]);
    assert_eq!(code, 2);
}
