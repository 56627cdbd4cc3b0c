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

/// Issue 42: the probe judges a file as a file and never blocks on a FIFO.
/// Unsandboxed and as root every target here is accessible, so what is
/// checked is how each is answered: a FIFO at a read or write target is
/// not opened (access(2)) and cannot hold the probe; a regular file's
/// write check opens the file itself (nothing written) instead of calling
/// it absent (ENOTDIR) and asking its parent; a path under a file is an
/// error, not "absent".
#[test]
fn probe_judges_files_as_files_and_never_blocks_on_a_fifo() {
    use std::os::unix::fs::MetadataExt;
    let tmp = tempfile::tempdir().unwrap();
    let fifo = tmp.path().join("fifo");
    let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
    // SAFETY: a NUL-terminated path; mkfifo only reads it.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o666) }, 0);
    let file = tmp.path().join("file");
    fs::write(&file, "kept as it is\n").unwrap();
    let before = fs::metadata(&file).unwrap();
    let p = |path: &std::path::Path| path.to_str().unwrap().to_string();
    let doc = serde_json::json!({
        "schema": "isolint.findings/v2",
        "profile": {"fingerprint": "f"},
        "runtime_checks": [
            {"id": "read-fifo", "kind": "read-denied", "target": {"path": p(&fifo)}},
            {"id": "write-fifo", "kind": "write-denied", "target": {"path": p(&fifo)}},
            {"id": "write-file", "kind": "write-denied", "target": {"path": p(&file)}},
            {"id": "allowed-file", "kind": "write-allowed", "target": {"path": p(&file)}},
            {"id": "under-file", "kind": "write-denied", "target": {"path": p(&file.join("below"))}},
            {"id": "read-file", "kind": "read-denied", "target": {"path": p(&file)}}
        ]
    });
    let plan = tmp.path().join("plan.json");
    fs::write(&plan, doc.to_string()).unwrap();
    let mut child = Command::new(bin())
        .args(["probe", "--plan"])
        .arg(&plan)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    while child.try_wait().unwrap().is_none() {
        if std::time::Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("the probe blocked (a FIFO at a target held it)");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let out = child.wait_with_output().unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let obs: Value = serde_json::from_slice(&out.stdout).unwrap();
    let by_id = |id: &str| -> Value {
        obs["observations"]
            .as_array()
            .unwrap()
            .iter()
            .find(|o| o["id"] == id)
            .unwrap()
            .clone()
    };
    let mut wrong = Vec::new();
    for (id, observed, action) in [
        ("read-fifo", "allowed", "not opened"),
        ("write-fifo", "allowed", "not opened"),
        ("write-file", "allowed", "O_WRONLY"),
        ("allowed-file", "allowed", "O_WRONLY"),
        ("under-file", "error", "stat"),
        ("read-file", "allowed", "O_NONBLOCK"),
    ] {
        let o = by_id(id);
        if o["observed"] != observed || !o["action"].as_str().unwrap().contains(action) {
            wrong.push(format!("{id}: want {observed} by {action:?}, got {o}"));
        }
        if o["detail"].as_str().is_some_and(|d| d.contains("ancestor")) {
            wrong.push(format!("{id}: answered by an ancestor: {o}"));
        }
    }
    assert!(
        wrong.is_empty(),
        "{} of 6 wrong:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
    let after = fs::metadata(&file).unwrap();
    assert_eq!(
        (after.size(), after.mtime(), after.mtime_nsec()),
        (before.size(), before.mtime(), before.mtime_nsec()),
        "nothing was written to the file"
    );
    assert_eq!(fs::read_to_string(&file).unwrap(), "kept as it is\n");
}

/// The new confinement checks, run unsandboxed, against what the test
/// process reads of itself from the kernel: the probe's seccomp and
/// capability answers must match this process's /proc/self/status, a
/// namespace without the launcher's identity needs the launcher, and with
/// this process's own identity is shared. Nothing is written: the knob
/// file's content is unchanged after a writable answer.
#[test]
fn confinement_checks_match_what_the_kernel_says_of_this_process() {
    use std::os::unix::fs::MetadataExt;
    let tmp = tempfile::tempdir().unwrap();
    let status = fs::read_to_string("/proc/self/status").unwrap();
    let field = |name: &str| {
        status
            .lines()
            .find_map(|l| l.strip_prefix(&format!("{name}:")))
            .map(|v| v.trim().to_string())
    };
    let knob = tmp.path().join("knob");
    fs::write(&knob, "before").unwrap();
    let ns = fs::metadata("/proc/self/ns/net").unwrap();
    let doc = serde_json::json!({
        "schema": "isolint.findings/v2",
        "profile": {"fingerprint": "f"},
        "runtime_checks": [
            {"id": "s", "kind": "seccomp-filtered", "target": {"subject": "seccomp"}},
            {"id": "c", "kind": "capabilities-dropped", "target": {"capabilities": []}},
            {"id": "a", "kind": "capabilities-dropped", "target": {"capabilities": ["ALL"]}},
            {"id": "n", "kind": "namespace-private", "target": {"path": "/proc/self/ns/net"}},
            {"id": "h", "kind": "namespace-private", "target": {"path": "/proc/self/ns/net",
                "host": {"dev": ns.dev(), "ino": ns.ino()}}},
            {"id": "k", "kind": "kernel-write-denied", "target": {"path": knob.to_str().unwrap()}},
            {"id": "d", "kind": "devices-standard", "target": {"path": "/dev"}}
        ]
    });
    let plan = tmp.path().join("plan.json");
    fs::write(&plan, doc.to_string()).unwrap();
    let out = Command::new(bin())
        .args(["probe", "--runner", "none", "--plan"])
        .arg(&plan)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let obs: Value = serde_json::from_slice(&out.stdout).unwrap();
    let seen = |id: &str| {
        obs["observations"]
            .as_array()
            .unwrap()
            .iter()
            .find(|o| o["id"] == id)
            .unwrap()["observed"]
            .as_str()
            .unwrap()
            .to_string()
    };
    let filtered = matches!(field("Seccomp").as_deref(), Some("1" | "2"));
    assert_eq!(seen("s"), if filtered { "filtered" } else { "unfiltered" });
    let holds_any = ["CapEff", "CapPrm", "CapBnd", "CapAmb"]
        .iter()
        .any(|f| field(f).is_some_and(|v| u64::from_str_radix(&v, 16).unwrap() != 0));
    assert_eq!(
        seen("c"),
        if holds_any {
            "beyond-declared"
        } else {
            "within-declared"
        }
    );
    assert_eq!(seen("a"), "within-declared");
    assert_eq!(seen("n"), "needs-launcher");
    assert_eq!(seen("h"), "shared-with-host");
    // Whoever runs the tests may write their own temporary file.
    assert_eq!(seen("k"), "allowed");
    assert_eq!(fs::read_to_string(&knob).unwrap(), "before");
    let d = seen("d");
    assert!(d == "standard" || d == "extra-devices", "{d}");
}
