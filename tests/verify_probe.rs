//! `isolint probe` run without a sandbox on a plan whose mounts point into a
//! temporary directory, then `isolint reconcile` on what it wrote. Tests run
//! as root here, so chmod cannot make a denial; what is checked is the part
//! the host can answer: a writable directory is write-allowed, an absent
//! path under a writable one can be created (never agreement), the names-only environment
//! check, and that nothing outside loopback was probed.

use std::fs;
use std::process::Command;

use isolint_acceptance::{bin, root};
use serde_json::Value;

#[test]
fn probe_observes_a_temp_dir_plan_and_reconcile_reads_it() {
    let tmp = tempfile::tempdir().unwrap();
    let scratch = tmp.path().join("scratch");
    fs::create_dir(&scratch).unwrap();
    let absent = tmp.path().join("absent");
    let mut profile: Value = serde_json::from_str(
        &fs::read_to_string(root().join("fixtures/profiles/workshop-fixed.json")).unwrap(),
    )
    .unwrap();
    profile["mounts"][0]["target"] = absent.to_str().unwrap().into();
    profile["mounts"][1]["target"] = scratch.to_str().unwrap().into();
    let profile_path = tmp.path().join("profile.json");
    fs::write(&profile_path, profile.to_string()).unwrap();

    let out = Command::new(bin())
        .args(["audit", "--format", "json"])
        .arg(&profile_path)
        .output()
        .unwrap();
    assert!(out.status.code().unwrap() <= 1);
    let findings = tmp.path().join("findings.json");
    fs::write(&findings, &out.stdout).unwrap();
    let plan: Value = serde_json::from_slice(&out.stdout).unwrap();
    let id_of = |kind: &str, path: &std::path::Path| {
        plan["runtime_checks"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["kind"] == kind && c["target"]["path"] == path.to_str().unwrap())
            .unwrap_or_else(|| panic!("no {kind} check on {}", path.display()))["id"]
            .as_str()
            .unwrap()
            .to_string()
    };
    let scratch_id = id_of("write-allowed", &scratch);
    let absent_id = id_of("write-denied", &absent);

    // The declared environment only, as a launcher with --clearenv gives it.
    let observations = tmp.path().join("observations.json");
    let st = Command::new(bin())
        .env_clear()
        .env("LANG", "C.UTF-8")
        .args(["probe", "--runner", "none", "--plan"])
        .arg(&findings)
        .arg("-o")
        .arg(&observations)
        .status()
        .unwrap();
    assert_eq!(st.code(), Some(0));
    let obs: Value = serde_json::from_slice(&fs::read(&observations).unwrap()).unwrap();
    assert_eq!(obs["schema"], "isolint.observations/v1");
    assert_eq!(obs["plan_fingerprint"], plan["profile"]["fingerprint"]);
    assert_eq!(
        obs["observations"].as_array().unwrap().len(),
        plan["runtime_checks"].as_array().unwrap().len(),
        "every check is observed or reported, none skipped"
    );
    // The probe left nothing behind in the writable directory.
    assert_eq!(fs::read_dir(&scratch).unwrap().count(), 0);
    for o in obs["observations"].as_array().unwrap() {
        if o["kind"].as_str().unwrap().starts_with("egress") {
            // The workshop plan names no loopback endpoint: nothing was sent.
            assert_eq!(o["observed"], "needs-launcher", "{o}");
            assert_eq!(o["action"], "none", "{o}");
        }
        if o["kind"] == "env-exact" {
            assert_eq!(o["observed"], "exact", "{o}");
        }
    }

    let out = Command::new(bin())
        .args(["reconcile", "--format", "json"])
        .arg(&findings)
        .arg(&observations)
        .output()
        .unwrap();
    let rec: Value = serde_json::from_slice(&out.stdout).unwrap();
    let status = |id: &str| {
        rec["checks"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["id"] == id)
            .unwrap()["status"]
            .as_str()
            .unwrap()
            .to_string()
    };
    assert_eq!(status(&scratch_id), "agrees");
    // An absent write-denied target is answered by its nearest existing
    // ancestor: the temporary directory accepts writes, so the job could
    // create it, and that disagrees.
    assert_eq!(status(&absent_id), "disagrees");
    let env_id = plan["runtime_checks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["kind"] == "env-exact")
        .unwrap()["id"]
        .as_str()
        .unwrap()
        .to_string();
    assert_eq!(status(&env_id), "agrees");
    // Unsandboxed, / is writable: the run must not pass (fail closed).
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn probe_connects_to_loopback_only_and_tells_open_from_closed() {
    let tmp = tempfile::tempdir().unwrap();
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let open = listener.local_addr().unwrap().port();
    let closed = {
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        l.local_addr().unwrap().port()
    };
    let doc = serde_json::json!({
        "schema": "isolint.findings/v2",
        "profile": {"fingerprint": "f"},
        "runtime_checks": [
            {"id": "a", "kind": "egress-allowed", "target": {"host": "127.0.0.1", "port": open, "protocol": "tcp"}},
            {"id": "b", "kind": "egress-denied", "target": {"host": "127.0.0.1", "port": closed, "protocol": "tcp"}},
            {"id": "c", "kind": "egress-denied", "target": {"host": "192.0.2.1", "port": 80, "protocol": "tcp"}},
            {"id": "d", "kind": "read-denied", "target": {"path": tmp.path().join("nope").to_str().unwrap()}},
            {"id": "e", "kind": "read-denied", "target": {"path": tmp.path().to_str().unwrap()}}
        ]
    });
    let plan = tmp.path().join("plan.json");
    fs::write(&plan, doc.to_string()).unwrap();
    let out = Command::new(bin())
        .args(["probe", "--plan"])
        .arg(&plan)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let obs: Value = serde_json::from_slice(&out.stdout).unwrap();
    let got: Vec<(&str, &str)> = obs["observations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| (o["id"].as_str().unwrap(), o["observed"].as_str().unwrap()))
        .collect();
    assert_eq!(
        got,
        [
            ("a", "allowed"),
            ("b", "denied"),
            ("c", "needs-launcher"),
            ("d", "absent"),
            ("e", "allowed")
        ]
    );
    drop(listener);
}

#[test]
fn probe_rejects_a_bad_plan_with_exit_2() {
    let tmp = tempfile::tempdir().unwrap();
    let plan = tmp.path().join("plan.json");
    fs::write(&plan, "{\n  \"schema\": ").unwrap();
    let out = Command::new(bin())
        .args(["probe", "--plan"])
        .arg(&plan)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("plan.json") && err.contains("line 2"), "{err}");
}
