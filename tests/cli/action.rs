//! The GitHub Action.

use crate::common::*;

/// The action's steps run as the runner would run them: the script with
/// INPUT_* variables, a job summary file and an output file. The gate
/// fails closed on blocking findings, bad inputs and unreadable paths.
#[test]
fn the_github_action_writes_sarif_and_a_summary_and_gates() {
    use std::process::Command;
    let action = fs::read_to_string(root().join("action.yml")).unwrap();
    for step in [
        "action-run.sh\" install",
        "action-run.sh\" audit",
        "action-run.sh\" gate",
        "upload-sarif@",
    ] {
        assert!(action.contains(step), "action.yml runs {step}");
    }
    let script = root().join("scripts/action-run.sh");
    let run = |inputs: &[(&str, &str)], step: &str, tmp: &Path| {
        let mut cmd = Command::new("bash");
        cmd.arg(&script)
            .arg(step)
            .current_dir(root())
            .env("ISOLINT", bin())
            .env("RUNNER_TEMP", tmp)
            .env("GITHUB_STEP_SUMMARY", tmp.join("summary.md"))
            .env("GITHUB_OUTPUT", tmp.join("output"))
            .env("INPUT_SARIF_FILE", tmp.join("isolint.sarif"));
        for (k, v) in inputs {
            cmd.env(k, v);
        }
        let out = cmd.output().unwrap();
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    // (inputs, audit step's exit, gate's exit)
    type Case<'a> = (&'a [(&'a str, &'a str)], i32, i32);
    let cases: &[Case] = &[
        (
            &[("INPUT_PATHS", WORKSHOP), ("INPUT_FAIL_ON", "high")],
            0,
            1,
        ),
        (&[("INPUT_PATHS", FIXED), ("INPUT_FAIL_ON", "high")], 0, 0),
        (&[("INPUT_PATHS", FIXED), ("INPUT_FAIL_ON", "info")], 0, 1),
        (&[("INPUT_PATHS", FIXED)], 0, 0),
        (&[("INPUT_PATHS", WORKSHOP)], 0, 1),
        (
            &[
                ("INPUT_PATHS", &format!("{FIXED}\n{WORKSHOP}")),
                ("INPUT_FAIL_ON", "high"),
            ],
            0,
            1,
        ),
        (
            &[
                ("INPUT_PATHS", "fixtures/import/compose/risky.yaml"),
                ("INPUT_FAIL_ON", "critical"),
            ],
            0,
            1,
        ),
        (
            &[
                ("INPUT_PATHS", "fixtures/profiles"),
                ("INPUT_FAIL_ON", "high"),
            ],
            0,
            1,
        ),
        (
            &[
                ("INPUT_PATHS", "no/such/file.json"),
                ("INPUT_FAIL_ON", "high"),
            ],
            2,
            2,
        ),
        (
            &[("INPUT_PATHS", WORKSHOP), ("INPUT_FAIL_ON", "none")],
            2,
            2,
        ),
        (
            &[("INPUT_PATHS", WORKSHOP), ("INPUT_FAIL_ON", "high; true")],
            2,
            2,
        ),
        (
            &[
                ("INPUT_PATHS", WORKSHOP),
                ("INPUT_BASELINE", "no/such/base.json"),
            ],
            2,
            2,
        ),
        (&[("INPUT_PATHS", " ")], 2, 2),
    ];
    for (inputs, audit_code, gate_code) in cases {
        let tmp = tempfile::tempdir().unwrap();
        let (code, stderr) = run(inputs, "audit", tmp.path());
        assert_eq!(code, Some(*audit_code), "{inputs:?}: {stderr}");
        let (code, stderr) = run(inputs, "gate", tmp.path());
        assert_eq!(code, Some(*gate_code), "{inputs:?}: {stderr}");
        if *audit_code == 0 {
            let sarif: Value =
                serde_json::from_slice(&fs::read(tmp.path().join("isolint.sarif")).unwrap())
                    .unwrap();
            assert!(!sarif["runs"].as_array().unwrap().is_empty(), "{inputs:?}");
            let summary = fs::read_to_string(tmp.path().join("summary.md")).unwrap();
            assert!(summary.starts_with("## isolint: "), "{inputs:?}: {summary}");
            let output = fs::read_to_string(tmp.path().join("output")).unwrap();
            assert!(
                output.contains(&format!("exit-code={gate_code}")),
                "{output}"
            );
        }
    }
    // The gate without an audit before it fails rather than passes.
    let tmp = tempfile::tempdir().unwrap();
    assert_eq!(run(&[], "gate", tmp.path()).0, Some(2));
    // install with a given binary only checks it.
    assert_eq!(run(&[], "install", tmp.path()).0, Some(0));
}
