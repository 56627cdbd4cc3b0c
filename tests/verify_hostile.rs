//! The verifier's trust boundary (issue 42): `isolint verify` on a hostile
//! profile changes nothing outside its own temporary directory. Each row
//! declares, in an otherwise eligible profile, one thing that could reach a
//! host-side process (bwrap's environment, its executable, a mount source or
//! target, a FIFO) with a value meant to leave a trace on the host; the test
//! runs verify on real bubblewrap workers and shows the trace absent, the
//! run bounded in time, and every file of the fixture outside the declared
//! writable mount unchanged.
//!
//! Skips, loudly, only when bwrap is absent (scripts/setup.sh installs it).

use std::collections::BTreeMap;
use std::fs;
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use isolint_acceptance::{bin, root};
use serde_json::Value;

static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

fn bwrap_present() -> bool {
    let ok = ["/usr/bin/bwrap", "/usr/local/bin/bwrap", "/bin/bwrap"]
        .iter()
        .any(|p| Path::new(p).is_file());
    if !ok {
        eprintln!(
            "\n\n*** SKIPPED: bwrap (bubblewrap) is not installed; run scripts/setup.sh ***\n\n"
        );
    }
    ok
}

fn open_to_all(p: &Path, mode: u32) {
    fs::set_permissions(p, fs::Permissions::from_mode(mode)).unwrap();
}

/// An eligible profile over fixture directories: a read-only snapshot, a
/// writable scratch, and places a hostile value can aim at (all 0777, so
/// that a host process running as the worker's uid could write there).
struct Fixture {
    _dir: tempfile::TempDir,
    base: PathBuf,
    labels: PathBuf,
    profile: Value,
}

fn fixture() -> Fixture {
    let dir = tempfile::tempdir().unwrap();
    let base = dir.path().to_path_buf();
    open_to_all(&base, 0o755);
    for d in [
        "snapshots/parser",
        "scratch/job-17",
        "elsewhere",
        "elsewhere/job",
        "fakebin",
        "traces",
        "tmp",
    ] {
        fs::create_dir_all(base.join(d)).unwrap();
    }
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
        "elsewhere",
        "elsewhere/job",
        "fakebin",
        "traces",
    ] {
        open_to_all(&base.join(d), 0o777);
    }
    open_to_all(&base.join("tmp"), 0o755);
    // A `bwrap` that leaves a trace, then hands over to the real one.
    let fake = base.join("fakebin/bwrap");
    fs::write(
        &fake,
        format!(
            "#!/bin/sh\necho ran > {}/traces/fake-bwrap\nexec /usr/bin/bwrap \"$@\"\n",
            base.display()
        ),
    )
    .unwrap();
    open_to_all(&fake, 0o755);
    let b = base.to_str().unwrap();
    let labels = base.join("labels.json");
    fs::write(
        &labels,
        serde_json::json!({
            "schema": "isolint.labels/v1", "name": "fixture",
            "labels": [
                {"path": format!("{b}/snapshots"), "label": "source-snapshot"},
                {"path": format!("{b}/scratch"), "label": "scratch"},
                {"path": format!("{b}/elsewhere"), "label": "scratch"}
            ]
        })
        .to_string(),
    )
    .unwrap();
    let fixed = fs::read_to_string(root().join("fixtures/profiles/workshop-fixed.json")).unwrap();
    let profile = serde_json::from_str(&fixed.replace("/srv/workshop/", &format!("{b}/"))).unwrap();
    Fixture {
        base,
        _dir: dir,
        labels,
        profile,
    }
}

/// Every entry under the fixture (not following links) with its type, size
/// and modification time; the declared writable mount's directory is
/// listed but its time left out (the probe creates and removes a file
/// there, as the profile allows), and the launcher's TMPDIR is left out.
fn snapshot(f: &Fixture) -> BTreeMap<PathBuf, String> {
    fn walk(dir: &Path, skip_time: &Path, skip: &Path, out: &mut BTreeMap<PathBuf, String>) {
        let Ok(entries) = fs::read_dir(dir) else {
            return;
        };
        for e in entries.flatten() {
            let p = e.path();
            if p == skip {
                continue;
            }
            let Ok(m) = fs::symlink_metadata(&p) else {
                continue;
            };
            let time = if p == skip_time {
                0
            } else {
                m.mtime_nsec() + m.mtime() * 1_000_000_000
            };
            out.insert(
                p.clone(),
                format!(
                    "{:o} {} {time}",
                    m.mode(),
                    if m.is_dir() { 0 } else { m.size() }
                ),
            );
            if m.is_dir() {
                walk(&p, skip_time, skip, out);
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(
        &f.base,
        &f.base.join("scratch/job-17"),
        &f.base.join("tmp"),
        &mut out,
    );
    out
}

/// What a row expects of the run besides "no trace".
#[derive(Debug, Clone, Copy, PartialEq)]
enum Expect {
    /// Launched: a reconciliation on stdout (the value had no effect).
    /// The profile must stay eligible for the row to test the launcher.
    Launched,
    /// Not launched: refused by the launcher (exit 2 naming this text) or
    /// already blocked by the audit (exit 1, not eligible). Rows the audit
    /// blocks today stay: the launcher's own refusal is unit-tested
    /// (core/src/launch.rs, tui/src/verify/launch.rs), and this row holds
    /// the end-to-end result whichever layer stops it.
    Refused(&'static str),
}

struct Row {
    name: &'static str,
    /// Changes the profile (given the fixture's base directory).
    hostile: fn(&mut Value, &str),
    /// Paths (relative to the base) that must not exist afterwards.
    traces: &'static [&'static str],
    expect: Expect,
}

fn set_var(p: &mut Value, name: &str, value: String) {
    p["environment"]["variables"][name] = value.into();
}

const ROWS: &[Row] = &[
    Row {
        name: "declared PATH names a directory holding a fake bwrap",
        hostile: |p, b| set_var(p, "PATH", format!("{b}/fakebin:/usr/bin:/bin")),
        traces: &["traces/fake-bwrap"],
        expect: Expect::Launched,
    },
    Row {
        name: "declared LD_DEBUG + LD_DEBUG_OUTPUT make a loader write a file",
        hostile: |p, b| {
            set_var(p, "LD_DEBUG", "all".into());
            set_var(p, "LD_DEBUG_OUTPUT", format!("{b}/traces/ld"));
        },
        traces: &[],
        expect: Expect::Launched,
    },
    Row {
        name: "declared HOME, TMPDIR, PWD, LD_LIBRARY_PATH point at the fixture",
        hostile: |p, b| {
            // GCONV_PATH is left out: it loads code, so CMD009 blocks the profile
            // and verify never launches it.
            for v in ["HOME", "TMPDIR", "PWD", "LD_LIBRARY_PATH"] {
                set_var(p, v, format!("{b}/traces"));
            }
        },
        traces: &[],
        expect: Expect::Launched,
    },
    Row {
        name: "declared LD_PRELOAD and BASH_ENV (the audit blocks them: CMD009)",
        hostile: |p, b| {
            set_var(p, "LD_PRELOAD", format!("{b}/traces/evil.so"));
            set_var(p, "BASH_ENV", format!("{b}/traces/env.sh"));
        },
        traces: &[],
        expect: Expect::Refused("LD_PRELOAD"),
    },
    Row {
        name: "a writable mount source that is a symbolic link to elsewhere",
        hostile: |p, b| {
            std::os::unix::fs::symlink(format!("{b}/elsewhere/job"), format!("{b}/scratch/link"))
                .unwrap();
            p["mounts"][1]["source"] = format!("{b}/scratch/link").into();
        },
        traces: &[],
        expect: Expect::Refused("symbolic link"),
    },
    Row {
        name: "a mount source reached through a symbolic link in its path",
        hostile: |p, b| {
            std::os::unix::fs::symlink(format!("{b}/elsewhere"), format!("{b}/scratch/via"))
                .unwrap();
            p["mounts"][1]["source"] = format!("{b}/scratch/via/job").into();
        },
        traces: &[],
        expect: Expect::Refused("symbolic link"),
    },
    Row {
        name: "a file mount source that is a second hard link of a file elsewhere",
        hostile: |p, b| {
            fs::write(format!("{b}/elsewhere/secret"), "not for the job\n").unwrap();
            fs::hard_link(
                format!("{b}/elsewhere/secret"),
                format!("{b}/snapshots/parser/conf"),
            )
            .unwrap();
            let extra = serde_json::json!({
                "source": format!("{b}/snapshots/parser/conf"),
                "target": "/config/conf",
                "access": "read-only"
            });
            p["mounts"].as_array_mut().unwrap().push(extra);
        },
        traces: &[],
        expect: Expect::Refused("hard links"),
    },
    Row {
        name: "a FIFO as a mount source",
        hostile: |p, b| {
            mkfifo(&format!("{b}/snapshots/pipe"));
            p["mounts"][0]["source"] = format!("{b}/snapshots/pipe").into();
        },
        traces: &[],
        expect: Expect::Refused("FIFO"),
    },
    Row {
        name: "a mount source with `..` leaving the labelled directory",
        hostile: |p, b| {
            p["mounts"][1]["source"] = format!("{b}/scratch/job-17/../../elsewhere/job").into();
        },
        traces: &[],
        expect: Expect::Refused("`..`"),
    },
    Row {
        name: "a relative mount source",
        hostile: |p, _| {
            p["mounts"][0]["source"] = "snapshots/parser".into();
        },
        traces: &[],
        expect: Expect::Refused("absolute"),
    },
    Row {
        name: "a mount target with `..` climbing out of the new root",
        hostile: |p, b| {
            p["mounts"][0]["target"] = format!("/../oldroot{b}/traces/created").into();
        },
        traces: &["traces/created"],
        expect: Expect::Refused("`..`"),
    },
    Row {
        name: "a mount target nested in a writable host mount (bwrap would create it there)",
        hostile: |p, b| {
            let extra = serde_json::json!({
                "source": format!("{b}/snapshots/parser"),
                "target": "/scratch/newdir",
                "access": "read-only"
            });
            p["mounts"].as_array_mut().unwrap().push(extra);
        },
        traces: &["scratch/job-17/newdir"],
        expect: Expect::Refused("would create"),
    },
    Row {
        name: "a writable mount at /run, where the launcher binds its own directory",
        hostile: |p, _| {
            p["mounts"][1]["target"] = "/run".into();
        },
        traces: &["scratch/job-17/isolint"],
        expect: Expect::Refused("/run"),
    },
];

fn mkfifo(path: &str) {
    let c = std::ffi::CString::new(path).unwrap();
    // SAFETY: a NUL-terminated path; mkfifo only reads it.
    assert_eq!(
        unsafe { libc::mkfifo(c.as_ptr(), 0o666) },
        0,
        "mkfifo {path}"
    );
}

/// Run verify with a deadline; (exit code, stdout, stderr).
fn verify(f: &Fixture, profile: &Path) -> (Option<i32>, Vec<u8>, String) {
    let mut child = Command::new(bin())
        .args(["verify", "--format", "json", "--labels"])
        .arg(&f.labels)
        .arg(profile)
        .env("TMPDIR", f.base.join("tmp"))
        .env_remove("ISOLINT_VERIFY_FAULT")
        .current_dir(&f.base)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(120);
    loop {
        if child.try_wait().unwrap().is_some() {
            break;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!(
                "verify did not finish within 120 s on {}",
                profile.display()
            );
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let out = child.wait_with_output().unwrap();
    (
        out.status.code(),
        out.stdout,
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn a_hostile_profile_changes_nothing_outside_the_launchers_directory() {
    if !bwrap_present() {
        return;
    }
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let mut failures = Vec::new();
    for row in ROWS {
        let f = fixture();
        let b = f.base.to_str().unwrap().to_string();
        let mut p = f.profile.clone();
        (row.hostile)(&mut p, &b);
        let path = f.base.join("hostile.json");
        fs::write(&path, p.to_string()).unwrap();
        let before = snapshot(&f);
        let started = Instant::now();
        let (code, stdout, stderr) = verify(&f, &path);
        let took = started.elapsed();
        let after = snapshot(&f);
        let mut wrong = Vec::new();
        assert!(!stderr.contains("panicked"), "{}: {stderr}", row.name);
        for t in row.traces {
            if fs::symlink_metadata(f.base.join(t)).is_ok() {
                wrong.push(format!("{t} was created"));
            }
        }
        let traces: Vec<_> = fs::read_dir(f.base.join("traces"))
            .unwrap()
            .flatten()
            .collect();
        if !traces.is_empty() {
            wrong.push(format!(
                "traces/ holds {:?}",
                traces.iter().map(|e| e.file_name()).collect::<Vec<_>>()
            ));
        }
        for (k, v) in &after {
            if k.starts_with(f.base.join("traces")) {
                continue;
            }
            match before.get(k) {
                None => wrong.push(format!("{} appeared", k.display())),
                Some(old) if old != v => wrong.push(format!("{} changed", k.display())),
                _ => {}
            }
        }
        for k in before.keys() {
            if !after.contains_key(k) {
                wrong.push(format!("{} disappeared", k.display()));
            }
        }
        if fs::read_dir(f.base.join("tmp")).unwrap().next().is_some() {
            wrong.push("the launcher left its directory behind".into());
        }
        match row.expect {
            Expect::Launched => {
                let launched =
                    serde_json::from_slice::<Value>(&stdout).is_ok_and(|v| v["checks"].is_array());
                if !launched {
                    wrong.push(format!(
                        "not launched (exit {code:?}), so the row tests nothing of the launcher; \
if a rule now blocks the profile, give the row a value the audit accepts: {stderr}"
                    ));
                }
            }
            Expect::Refused(why) => {
                let refused = code == Some(2) && stderr.contains(why);
                let blocked = code == Some(1) && stderr.contains("not eligible");
                if !refused && !blocked {
                    wrong.push(format!(
                        "expected a refusal (exit 2) naming {why:?} or the audit's block; got exit {code:?}: {}",
                        stderr.trim()
                    ));
                }
            }
        }
        eprintln!(
            "| {} | exit {code:?} | {} ms | {} |",
            row.name,
            took.as_millis(),
            if wrong.is_empty() {
                "no effect"
            } else {
                "EFFECT"
            }
        );
        if !wrong.is_empty() {
            failures.push(format!("{}: {}", row.name, wrong.join("; ")));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} rows had an effect outside the launcher's directory:\n{}",
        failures.len(),
        ROWS.len(),
        failures.join("\n")
    );
}
