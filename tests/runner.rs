//! `--runner FILE` and rendered templates through standard input, from the
//! binary's side: exit codes, origins in the right file, errors with
//! positions.

use isolint_acceptance::{isolint, isolint_in, root};

const RUNNER: &str = "fixtures/runner/kubernetes/runner.json";
const POD: &str = "fixtures/runner/kubernetes/restricted.yaml";

#[test]
fn the_restricted_pod_passes_with_the_runner_and_fails_without() {
    let base = ["audit", "--today", "2026-11-29", "--format", "json"];
    let with: Vec<&str> = base
        .iter()
        .copied()
        .chain(["--runner", RUNNER, POD])
        .collect();
    let run = isolint(with);
    run.expect_code(0);
    assert_eq!(run.json()["verdict"], "eligible-for-runtime-testing");
    let without: Vec<&str> = base.iter().copied().chain([POD]).collect();
    isolint(without).expect_code(1);
}

/// The worked examples of the README: an OCI bundle, a bwrap script and
/// a Codex config, each eligible (exit 0) with its honest overlay and
/// blocked (exit 1) without it.
#[test]
fn the_worked_examples_pass_with_their_overlays_and_fail_without() {
    for (dir, input) in [
        ("oci", "config.json"),
        ("bwrap", "run-tests.sh"),
        ("codex", "config.toml"),
    ] {
        let runner = format!("fixtures/runner/{dir}/runner.json");
        let input = format!("fixtures/runner/{dir}/{input}");
        let base = ["audit", "--today", "2026-11-29", "--format", "json"];
        let with: Vec<&str> = base
            .iter()
            .copied()
            .chain(["--runner", &runner, &input])
            .collect();
        let run = isolint(with);
        run.expect_code(0);
        assert_eq!(
            run.json()["verdict"],
            "eligible-for-runtime-testing",
            "{dir}"
        );
        let without: Vec<&str> = base.iter().copied().chain([input.as_str()]).collect();
        isolint(without).expect_code(1);
    }
}

#[test]
fn a_finding_the_overlay_owns_points_into_the_overlay() {
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(root().join(RUNNER)).unwrap();
    let runner = dir.path().join("runner.json");
    std::fs::write(&runner, text.replace("\"destroy_worker\": true, ", "")).unwrap();
    let run = isolint([
        "audit",
        "--today",
        "2026-11-29",
        "--format",
        "json",
        "--runner",
        runner.to_str().unwrap(),
        root().join(POD).to_str().unwrap(),
    ]);
    run.expect_code(1);
    let issues = run.json()["issues"].as_array().unwrap().clone();
    let f = issues
        .iter()
        .find(|f| f["rule"] == "CLN001")
        .expect("CLN001");
    assert!(
        f["origin"]["file"]
            .as_str()
            .unwrap()
            .ends_with("runner.json"),
        "{f}"
    );
    assert_eq!(f["origin"]["line"], 14);
}

#[test]
fn a_bad_overlay_is_a_usage_error_with_its_position() {
    let dir = tempfile::tempdir().unwrap();
    let runner = dir.path().join("r.json");
    std::fs::write(&runner, "{\n  \"mounts\": []\n}\n").unwrap();
    let run = isolint([
        "audit",
        "--runner",
        runner.to_str().unwrap(),
        root().join(POD).to_str().unwrap(),
    ]);
    run.expect_code(2);
    assert!(run.stderr.contains("r.json:2:3:"), "{}", run.stderr);
    assert!(
        run.stderr.contains("cannot be set by a runner overlay"),
        "{}",
        run.stderr
    );
    assert!(run.stdout.is_empty());
}

#[test]
fn rendered_helm_output_is_audited_from_stdin_at_its_own_lines() {
    let rendered = std::fs::read(root().join("fixtures/cli/helm-rendered.yaml")).unwrap();
    // The Job bounds itself (`parallelism` defaults to 1) and the overlay
    // caps the runner at 8 jobs: two bounds, no conflict.
    let overlay = RUNNER;
    let run = isolint_in(
        &root(),
        [
            "audit",
            "--today",
            "2026-11-29",
            "--format",
            "json",
            "--from",
            "kubernetes",
            "--runner",
            overlay,
            "-",
        ],
        Some(&rendered),
    );
    run.expect_code(0);
    let v = run.json();
    assert_eq!(v["verdict"], "eligible-for-runtime-testing", "{v}");
    // The NetworkPolicy of the stream gave the pod its egress.
    assert!(
        run.stderr
            .contains("`ci-runner-deny-egress` selects the pod"),
        "{}",
        run.stderr
    );
    // Undo one setting: the finding points at the rendered stream's line.
    let text = String::from_utf8(rendered).unwrap();
    let changed = text.replace(
        "allowPrivilegeEscalation: false",
        "allowPrivilegeEscalation: true",
    );
    let run = isolint_in(
        &root(),
        [
            "audit",
            "--today",
            "2026-11-29",
            "--format",
            "json",
            "--from",
            "kubernetes",
            "--runner",
            overlay,
            "-",
        ],
        Some(changed.as_bytes()),
    );
    run.expect_code(1);
    let issues = run.json()["issues"].as_array().unwrap().clone();
    let f = issues
        .iter()
        .find(|f| f["rule"] == "PRV005")
        .expect("PRV005");
    assert_eq!(f["origin"]["file"], "<stdin>");
    assert_eq!(f["origin"]["line"], 63);
}

#[test]
fn a_policy_file_beside_the_pod_applies_to_it() {
    let dir = tempfile::tempdir().unwrap();
    let text = std::fs::read_to_string(root().join(POD)).unwrap();
    let split = text.find("---\n").unwrap();
    let pod = dir.path().join("pod.yaml");
    let policies = dir.path().join("policies.yaml");
    std::fs::write(&pod, &text[..split]).unwrap();
    std::fs::write(&policies, &text[split..]).unwrap();
    let (pod, policies) = (pod.to_str().unwrap(), policies.to_str().unwrap());
    let base = ["audit", "--today", "2026-11-29", "--runner", RUNNER];
    let both: Vec<&str> = base.iter().copied().chain([pod, policies]).collect();
    let run = isolint_in(&root(), both, None);
    run.expect_code(0);
    assert!(
        run.stderr.contains("holds only cluster objects"),
        "{}",
        run.stderr
    );
    assert!(
        run.stderr.contains("another file of this run"),
        "{}",
        run.stderr
    );
    // Without the policy file the pod's egress is not declared.
    let alone: Vec<&str> = base.iter().copied().chain([pod]).collect();
    isolint_in(&root(), alone, None).expect_code(1);
    // A lone policy file holds no profile: an input error, as before.
    let lone: Vec<&str> = base.iter().copied().chain([policies]).collect();
    isolint_in(&root(), lone, None).expect_code(2);
}
