//! `isolint verify` on real bubblewrap workers: the fixed workshop profile,
//! adapted to fixture paths under a temporary directory, reconciles with
//! every check agreeing or not observable with a reason; and for every
//! check kind a deliberately misconfigured launch (the test-only switch
//! `ISOLINT_VERIFY_FAULT`) is reported as `disagrees`. A verifier that
//! agrees with a misconfigured launch is the failure these tests exist for.
//!
//! The tests skip, loudly, only when bwrap is absent (scripts/setup.sh
//! installs it). They run one launch at a time: as root the workers run as
//! uid 65534, and the kernel counts the process limit per host uid.

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Mutex;

use isolint_acceptance::{bin, root};
use serde_json::Value;

static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

fn bwrap_present() -> bool {
    let ok = Command::new("bwrap")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        eprintln!(
            "\n\n*** SKIPPED: bwrap (bubblewrap) is not installed; run scripts/setup.sh ***\n\n"
        );
    }
    ok
}

/// Fixtures the worker's uid can use: the forbidden files exist (so that
/// only the sandbox can hide them) and the mounts are writable by anyone
/// (so that only the sandbox can make them read-only).
struct Fixture {
    _dir: tempfile::TempDir,
    base: PathBuf,
    tmp: PathBuf,
    labels: PathBuf,
    profile: PathBuf,
}

fn open_to_all(p: &Path, mode: u32) {
    fs::set_permissions(p, fs::Permissions::from_mode(mode)).unwrap();
}

fn fixture() -> Fixture {
    let dir = tempfile::tempdir().unwrap();
    let base = dir.path().to_path_buf();
    open_to_all(&base, 0o755);
    for d in [
        "snapshots/parser",
        "scratch/job-17",
        "home/botie/.aws",
        "run/postgresql",
        "etc/runner",
        "var/run",
        "tmp",
    ] {
        fs::create_dir_all(base.join(d)).unwrap();
    }
    fs::write(
        base.join("home/botie/.aws/credentials"),
        "fixture, not a secret\n",
    )
    .unwrap();
    fs::write(base.join("var/run/docker.sock"), "").unwrap();
    fs::write(
        base.join("snapshots/parser/test_date.py"),
        "def test(): pass\n",
    )
    .unwrap();
    for d in [
        "snapshots",
        "snapshots/parser",
        "scratch",
        "scratch/job-17",
        "home",
        "home/botie",
        "home/botie/.aws",
        "run",
        "run/postgresql",
        "etc",
        "etc/runner",
        "var",
        "var/run",
    ] {
        open_to_all(&base.join(d), 0o777);
    }
    open_to_all(&base.join("tmp"), 0o755);
    let b = base.to_str().unwrap();
    let labels = base.join("labels.json");
    fs::write(
        &labels,
        serde_json::json!({
            "schema": "isolint.labels/v1", "name": "fixture",
            "labels": [
                {"path": format!("{b}/snapshots"), "label": "source-snapshot"},
                {"path": format!("{b}/scratch"), "label": "scratch"},
                {"path": format!("{b}/home/botie"), "label": "developer-home"},
                {"path": format!("{b}/home/botie/.aws"), "label": "credential-store"},
                {"path": format!("{b}/var/run/docker.sock"), "label": "container-engine-socket"},
                {"path": format!("{b}/run/postgresql"), "label": "production-socket"},
                {"path": format!("{b}/etc/runner"), "label": "trusted-config"}
            ]
        })
        .to_string(),
    )
    .unwrap();
    let fixed = fs::read_to_string(root().join("fixtures/profiles/workshop-fixed.json")).unwrap();
    let profile = base.join("profile.json");
    fs::write(&profile, fixed.replace("/srv/workshop/", &format!("{b}/"))).unwrap();
    Fixture {
        tmp: base.join("tmp"),
        base,
        _dir: dir,
        labels,
        profile,
    }
}

/// `isolint verify --format json` with `fault`; the exit code and the
/// reconciliation. TMPDIR points at a directory of the fixture, so the
/// test sees whether the launcher left anything behind.
fn verify(f: &Fixture, fault: Option<&str>) -> (i32, Value) {
    verify_keeping(f, fault, None)
}

/// As [`verify`], also keeping the observations in `observations`.
fn verify_keeping(f: &Fixture, fault: Option<&str>, observations: Option<&Path>) -> (i32, Value) {
    let mut cmd = Command::new(bin());
    if let Some(o) = observations {
        cmd.arg("verify").arg("--observations").arg(o);
    } else {
        cmd.arg("verify");
    }
    cmd.args(["--format", "json", "--labels"])
        .arg(&f.labels)
        .arg(&f.profile)
        .env("TMPDIR", &f.tmp)
        .env_remove("ISOLINT_VERIFY_FAULT");
    if let Some(fault) = fault {
        cmd.env("ISOLINT_VERIFY_FAULT", fault);
    }
    let out = cmd.output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    let rec: Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{fault:?}: not JSON ({e}); stderr: {stderr}"));
    let left: Vec<_> = fs::read_dir(&f.tmp).unwrap().collect();
    assert!(left.is_empty(), "{fault:?}: the launcher left {left:?}");
    (out.status.code().unwrap_or(-1), rec)
}

fn checks(rec: &Value) -> &Vec<Value> {
    rec["checks"].as_array().unwrap()
}

fn schema(name: &str) -> Value {
    let out = Command::new(bin()).args(["schema", name]).output().unwrap();
    assert!(out.status.success(), "schema {name}");
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn the_fixed_profile_reconciles_on_an_honest_launch() {
    if !bwrap_present() {
        return;
    }
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let f = fixture();
    let (code, rec) = verify(&f, None);
    // Both documents the run can write validate against their schemas.
    let s = schema("reconciliation");
    let errors = isolint_acceptance::Validator::new(&s).validate(&rec);
    assert!(errors.is_empty(), "{errors:?}");
    let kept = f.base.join("observations.json");
    let out = Command::new(bin())
        .args(["verify", "--observations"])
        .arg(&kept)
        .arg("--labels")
        .arg(&f.labels)
        .arg(&f.profile)
        .env("TMPDIR", &f.tmp)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let obs: Value = serde_json::from_slice(&fs::read(&kept).unwrap()).unwrap();
    let s = schema("observations");
    let errors = isolint_acceptance::Validator::new(&s).validate(&obs);
    assert!(errors.is_empty(), "{errors:?}");
    assert_eq!(
        obs["observations"].as_array().unwrap().len(),
        checks(&rec).len()
    );
    let all = checks(&rec);
    for c in all {
        let status = c["status"].as_str().unwrap();
        assert!(
            status == "agrees"
                || (status == "not-observable" && !c["reason"].as_str().unwrap().is_empty()),
            "{c}"
        );
    }
    assert_eq!(code, 0, "{rec:#}");
    assert_eq!(rec["passes"], true);
    let observed = all.iter().filter(|c| c["status"] == "agrees").count();
    assert!(
        observed * 10 >= all.len() * 9,
        "observed {observed} of {} checks",
        all.len()
    );
    // Every kind of the plan was observed, not only planned.
    for kind in [
        "read-denied",
        "write-denied",
        "write-allowed",
        "link-resolution",
        "egress-denied",
        "limit-enforced",
        "timeout-kills-tree",
        "env-exact",
        "worker-destroyed",
        "seccomp-filtered",
        "capabilities-dropped",
        "namespace-private",
        "kernel-write-denied",
        "devices-standard",
    ] {
        assert!(
            all.iter()
                .any(|c| c["kind"] == kind && c["status"] == "agrees"),
            "{kind} was not observed: {rec:#}"
        );
    }
    // The forbidden fixture is still there: hidden, not removed.
    assert!(f.base.join("home/botie/.aws/credentials").exists());
}

/// Each deviation, and the check kind that must catch it (and, for
/// limits, which one).
const FAULTS: &[(&str, &str, &str)] = &[
    (
        "bind-forbidden",
        "read-denied",
        "bind a forbidden fixture in",
    ),
    (
        "mounts-writable",
        "write-denied",
        "bind the snapshot read-write",
    ),
    (
        "scratch-read-only",
        "write-allowed",
        "bind the scratch read-only",
    ),
    (
        "bind-elsewhere",
        "link-resolution",
        "bind a decoy at /workspace",
    ),
    ("share-network", "egress-denied", "share the network"),
    ("drop-limits", "limit-enforced", "set no rlimit"),
    ("no-output-cut", "limit-enforced", "keep all the output"),
    (
        "no-wall-limit",
        "limit-enforced",
        "never stop at the wall limit",
    ),
    ("kill-parent", "timeout-kills-tree", "kill only the parent"),
    ("inherit-env", "env-exact", "clear no environment"),
    ("add-variable", "env-exact", "add a variable"),
    (
        "keep-worker",
        "worker-destroyed",
        "keep the worker's directory",
    ),
    ("no-seccomp", "seccomp-filtered", "load no seccomp filter"),
    (
        "add-capability",
        "capabilities-dropped",
        "give the job CAP_SYS_ADMIN",
    ),
    (
        "share-namespaces",
        "namespace-private",
        "share the IPC, UTS and cgroup namespaces",
    ),
    (
        "writable-knob",
        "kernel-write-denied",
        "bind a writable file over core_pattern",
    ),
    (
        "writable-release-agent",
        "kernel-write-denied",
        "bind a writable cgroup release_agent",
    ),
    (
        "bind-device",
        "devices-standard",
        "bind a host device into /dev",
    ),
    (
        "bind-socket",
        "sockets-denied",
        "bind a listening socket of the launcher's at the forbidden engine socket",
    ),
];

#[test]
fn every_misconfigured_launch_is_reported_as_disagreeing() {
    if !bwrap_present() {
        return;
    }
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let f = fixture();
    let mut table = String::new();
    for (fault, kind, what) in FAULTS {
        let (code, rec) = verify(&f, Some(fault));
        let caught: Vec<&Value> = checks(&rec)
            .iter()
            .filter(|c| c["kind"] == *kind && c["status"] == "disagrees")
            .collect();
        assert!(
            !caught.is_empty(),
            "{fault} ({what}) was not caught by a {kind} check: {rec:#}"
        );
        assert_eq!(code, 1, "{fault}");
        assert_eq!(rec["passes"], false, "{fault}");
        for c in caught {
            table.push_str(&format!(
                "| {kind} | {what} (`{fault}`) | {} {} |\n",
                c["observed"].as_str().unwrap_or("nothing"),
                c["target"].as_str().unwrap_or_default()
            ));
        }
    }
    eprintln!("{table}");
    // Every check kind the launcher can observe was deviated from.
    let kinds: std::collections::BTreeSet<&str> = FAULTS.iter().map(|(_, k, _)| *k).collect();
    assert_eq!(kinds.len(), 15);
}

#[test]
fn what_bubblewrap_cannot_build_is_refused_before_launch() {
    if !bwrap_present() {
        return;
    }
    let f = fixture();
    let text = fs::read_to_string(&f.profile).unwrap();
    let mut p: Value = serde_json::from_str(&text).unwrap();
    // A missing mount source: the launcher creates nothing outside its own
    // directory, so it says which mount and stops.
    p["mounts"][0]["source"] = format!("{}/snapshots/absent", f.base.display()).into();
    let missing = f.base.join("missing.json");
    fs::write(&missing, p.to_string()).unwrap();
    let out = Command::new(bin())
        .args(["verify", "--labels"])
        .arg(&f.labels)
        .arg(&missing)
        .env("TMPDIR", &f.tmp)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("/mounts/0") && err.contains("absent"), "{err}");
    assert!(!f.base.join("snapshots/absent").exists());

    // A profile that is not eligible is not launched.
    let out = Command::new(bin())
        .args(["verify"])
        .arg(root().join("fixtures/profiles/workshop.json"))
        .env("TMPDIR", &f.tmp)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("not eligible"));
    assert_eq!(fs::read_dir(&f.tmp).unwrap().count(), 0);
}

/// A bubblewrap worker always runs on the host's kernel, so a profile that
/// declares a microvm, launched here, must be caught by the boundary-kernel
/// check: the boot id the probe reads inside is the one the launcher read
/// outside. Everything else of the launch is honest and still agrees.
#[test]
fn a_microvm_launched_on_bubblewrap_is_reported_on_the_host_kernel() {
    if !bwrap_present() {
        return;
    }
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let f = fixture();
    let text = fs::read_to_string(&f.profile).unwrap();
    let mut p: Value = serde_json::from_str(&text).unwrap();
    p["boundary"]["kind"] = "microvm".into();
    p["boundary"]["runtime"] = serde_json::json!({"name": "firecracker", "version": "1.7.0"});
    p["boundary"].as_object_mut().unwrap().remove("label");
    let microvm = Fixture {
        profile: f.base.join("microvm.json"),
        ..f
    };
    fs::write(&microvm.profile, p.to_string()).unwrap();
    let kept = microvm.base.join("observations.json");
    let (code, rec) = verify_keeping(&microvm, None, Some(&kept));
    // Both documents validate, the kernel's answers included.
    let obs: Value = serde_json::from_slice(&fs::read(&kept).unwrap()).unwrap();
    for (name, doc) in [("reconciliation", &rec), ("observations", &obs)] {
        let s = schema(name);
        let errors = isolint_acceptance::Validator::new(&s).validate(doc);
        assert!(errors.is_empty(), "{name}: {errors:?}");
    }
    let kernel: Vec<&Value> = checks(&rec)
        .iter()
        .filter(|c| c["kind"] == "boundary-kernel")
        .collect();
    assert_eq!(kernel.len(), 1, "{rec:#}");
    let k = kernel[0];
    assert_eq!(k["status"], "disagrees", "{k}");
    assert_eq!(k["observed"], "host-kernel", "{k}");
    let reason = k["reason"].as_str().unwrap();
    assert!(reason.contains("host kernel release"), "{reason}");
    assert_eq!(code, 1, "{rec:#}");
    assert_eq!(rec["passes"], false);
    // Only the kernel disagrees: the rest of the launch follows the profile.
    let others: Vec<&Value> = checks(&rec)
        .iter()
        .filter(|c| c["kind"] != "boundary-kernel" && c["status"] == "disagrees")
        .collect();
    assert!(others.is_empty(), "{others:#?}");
}

/// bubblewrap applies no AppArmor profile, so a profile that declares the
/// runtime's default profile, launched here, must be caught by the
/// apparmor-confined check (on a kernel without AppArmor too: nothing
/// confines the job either way). The rest of the launch still agrees.
#[test]
fn a_declared_apparmor_profile_launched_on_bubblewrap_is_reported_unconfined() {
    if !bwrap_present() {
        return;
    }
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let f = fixture();
    let mut p: Value = serde_json::from_str(&fs::read_to_string(&f.profile).unwrap()).unwrap();
    p["boundary"]["apparmor"] = "default".into();
    fs::write(&f.profile, p.to_string()).unwrap();
    let (code, rec) = verify(&f, None);
    let aa: Vec<&Value> = checks(&rec)
        .iter()
        .filter(|c| c["kind"] == "apparmor-confined")
        .collect();
    assert_eq!(aa.len(), 1, "{rec:#}");
    assert_eq!(aa[0]["status"], "disagrees", "{}", aa[0]);
    assert_eq!(aa[0]["observed"], "unconfined", "{}", aa[0]);
    assert_eq!(code, 1);
    let others: Vec<&Value> = checks(&rec)
        .iter()
        .filter(|c| c["kind"] != "apparmor-confined" && c["status"] == "disagrees")
        .collect();
    assert!(others.is_empty(), "{others:#?}");
}

/// Issue 42, the probe judges files as files. Two deviations the
/// directory-only fixture could not show, each launched honestly (every
/// check of the row's target agrees) and with its fault (it disagrees):
/// a read-only FILE mount bound read-write (before, the write check got
/// ENOTDIR, called the file absent and answered from the read-only parent:
/// agreement), and a FIFO at a read-denied target bound in (before, the
/// probe's blocking open hung until the worker's time ran out).
#[test]
fn a_file_mount_and_a_fifo_are_judged_as_what_they_are() {
    if !bwrap_present() {
        return;
    }
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    type Setup = fn(&Fixture);
    let rows: [(&str, Setup, &str, &str, &str); 2] = [
        (
            "read-only file mount bound read-write",
            |f| {
                let mut p: Value =
                    serde_json::from_str(&fs::read_to_string(&f.profile).unwrap()).unwrap();
                let source = f.base.join("snapshots/parser/test_date.py");
                // Writable by anyone: only the sandbox may make it read-only.
                open_to_all(&source, 0o666);
                p["mounts"].as_array_mut().unwrap().push(serde_json::json!({
                    "source": source.to_str().unwrap(),
                    "target": "/config/test_date.py",
                    "access": "read-only"
                }));
                fs::write(&f.profile, p.to_string()).unwrap();
            },
            "mounts-writable",
            "write-denied",
            "/config/test_date.py",
        ),
        (
            "FIFO at a read-denied target bound in",
            |f| {
                let fifo = f.base.join("secret.fifo");
                let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
                // SAFETY: a NUL-terminated path; mkfifo only reads it.
                assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o666) }, 0);
                // First in the catalog, so `bind-forbidden` binds it.
                let mut l: Value =
                    serde_json::from_str(&fs::read_to_string(&f.labels).unwrap()).unwrap();
                l["labels"].as_array_mut().unwrap().insert(
                    0,
                    serde_json::json!({"path": fifo.to_str().unwrap(), "label": "credential-store"}),
                );
                fs::write(&f.labels, l.to_string()).unwrap();
            },
            "bind-forbidden",
            "read-denied",
            "secret.fifo",
        ),
    ];
    let mut wrong = Vec::new();
    for (what, setup, fault, kind, target) in rows {
        let f = fixture();
        setup(&f);
        for fault in [None, Some(fault)] {
            let started = std::time::Instant::now();
            let (code, rec) = verify(&f, fault);
            let took = started.elapsed();
            let of_target: Vec<&Value> = checks(&rec)
                .iter()
                .filter(|c| {
                    c["kind"] == kind && c["target"].as_str().is_some_and(|t| t.ends_with(target))
                })
                .collect();
            let want = if fault.is_some() {
                "disagrees"
            } else {
                "agrees"
            };
            let ok = !of_target.is_empty() && of_target.iter().all(|c| c["status"] == want);
            let want_code = if fault.is_some() { 1 } else { 0 };
            eprintln!(
                "| {what} | {fault:?} | {} ms | {want}: {ok} |",
                took.as_millis()
            );
            if !ok || code != want_code {
                wrong.push(format!("{what} ({fault:?}): want {kind} on {target} {want}, exit {want_code}; got exit {code}: {of_target:#?}"));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "{} of 4 wrong:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}

/// A mount's `excludes` is launched as declared: the launcher mounts an
/// empty tmpfs at each excluded path after the bind, so the home and
/// credential store under an excluded directory are denied inside the
/// worker, as the audit that let the profile through assumed. Without
/// the tmpfs the worker shows them and the checks disagree.
#[test]
fn an_excluded_path_is_hidden_in_the_worker() {
    if !bwrap_present() {
        return;
    }
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let mut wrong = Vec::new();
    let spellings = ["home/botie", "home/botie/", "home//botie"];
    for spelling in spellings {
        let f = fixture();
        let b = f.base.to_str().unwrap().to_string();
        // The home directory as a labelled snapshot, so that only what
        // lies beneath it (the developer's home) can block.
        let mut l: Value = serde_json::from_str(&fs::read_to_string(&f.labels).unwrap()).unwrap();
        l["labels"].as_array_mut().unwrap().insert(
            0,
            serde_json::json!({"path": format!("{b}/home"), "label": "source-snapshot"}),
        );
        fs::write(&f.labels, l.to_string()).unwrap();
        let mut p: Value = serde_json::from_str(&fs::read_to_string(&f.profile).unwrap()).unwrap();
        p["mounts"].as_array_mut().unwrap().push(serde_json::json!({
            "source": format!("{b}/home"),
            "target": format!("{b}/home"),
            "access": "read-only",
            "excludes": [format!("{b}/{spelling}")]
        }));
        fs::write(&f.profile, p.to_string()).unwrap();
        let (code, rec) = verify(&f, None);
        let hidden: Vec<&Value> = checks(&rec)
            .iter()
            .filter(|c| {
                c["kind"] == "read-denied"
                    && c["target"]
                        .as_str()
                        .is_some_and(|t| t.starts_with(&format!("{b}/home/botie")))
            })
            .collect();
        let ok = hidden.len() >= 2 && hidden.iter().all(|c| c["status"] == "agrees");
        if !ok || code != 0 {
            wrong.push(format!("{spelling}: got exit {code}: {hidden:#?}"));
        }
    }
    assert!(
        wrong.is_empty(),
        "{} of {} wrong:\n{}",
        wrong.len(),
        spellings.len(),
        wrong.join("\n")
    );
}
