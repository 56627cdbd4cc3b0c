//! `isolint fix` on OCI, sandbox-runtime, Codex and bwrap files: golden
//! diffs of fixtures/fix/ (one file per format), `--apply` then a second
//! run with nothing left, refusals named in the JSON form, and the fixed
//! bwrap script run by bash against a stub `bwrap` that prints its argv:
//! the argv is what the fix meant.
//!
//! Re-bless the goldens with `ISOLINT_BLESS=1`.

use std::path::Path;

use isolint_acceptance::{isolint, isolint_in, root};

const FILES: [&str; 4] = [
    "oci-config.json",
    "sandbox-settings.json",
    "codex-config.toml",
    "bwrap-run.sh",
];

fn golden(input: &str, args: &[&str], expected: &str) -> Option<String> {
    let path = format!("fixtures/fix/{input}");
    let mut all: Vec<&str> = vec!["fix"];
    all.extend_from_slice(args);
    all.push(&path);
    let run = isolint(&all);
    let got = run.stdout_str();
    let file = root().join("fixtures/fix").join(expected);
    if std::env::var_os("ISOLINT_BLESS").is_some() {
        std::fs::write(&file, &got).unwrap();
        return None;
    }
    let want = std::fs::read_to_string(&file).unwrap_or_default();
    (got != want).then(|| format!("{expected}: got\n{got}"))
}

#[test]
fn diffs_match_their_goldens() {
    let mut wrong = Vec::new();
    for input in FILES {
        let stem = input.split('.').next().unwrap_or(input);
        wrong.extend(golden(input, &[], &format!("{stem}.diff")));
        wrong.extend(golden(
            input,
            &["--unsafe-fixes"],
            &format!("{stem}.unsafe.diff"),
        ));
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn apply_then_nothing_is_left_to_fix() {
    let dir = tempfile::tempdir().unwrap();
    for input in FILES {
        let original = std::fs::read_to_string(root().join("fixtures/fix").join(input)).unwrap();
        let file = dir.path().join(input);
        std::fs::write(&file, &original).unwrap();
        let run = isolint_in(
            dir.path(),
            ["fix", "--apply", "--unsafe-fixes", input],
            None,
        );
        assert!(
            run.code == Some(0) || run.code == Some(1),
            "{input}: {}",
            run.stderr
        );
        let fixed = std::fs::read_to_string(&file).unwrap();
        assert_ne!(fixed, original, "{input}: --apply wrote nothing");
        // The fixed file still imports, and a second run has no edit.
        let again = isolint_in(dir.path(), ["fix", "--unsafe-fixes", input], None);
        again.expect_code(0);
        assert!(again.stdout.is_empty(), "{input}: {}", again.stdout_str());
        assert!(
            !again.stderr.contains("withdrawn"),
            "{input}: {}",
            again.stderr
        );
    }
}

#[test]
fn refusals_are_data_with_their_reason() {
    let run = isolint([
        "fix",
        "--format",
        "json",
        "--unsafe-fixes",
        "fixtures/fix/oci-config.json",
    ]);
    let doc = run.json();
    let file = &doc["files"][0];
    let refused = file["refused"].as_array().unwrap();
    let seccomp = refused
        .iter()
        .find(|r| r["rule"] == "PRV007")
        .expect("PRV007 refused");
    assert!(
        seccomp["reason"]
            .as_str()
            .unwrap()
            .contains("no \"runtime default\" seccomp filter"),
        "{seccomp}"
    );
    assert!(file["withdrawn"]
        .as_array()
        .unwrap()
        .iter()
        .all(|w| w["rule"] == "PRV009"));
    assert!(file["applied"]
        .as_array()
        .unwrap()
        .iter()
        .any(|a| a["rule"] == "PRV005"));
}

/// The argv bash hands to `bwrap` when it runs `script` (a stub on PATH
/// prints it, one word a line).
fn argv_of(dir: &Path, script: &str) -> Vec<String> {
    let bin = dir.join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    let stub = bin.join("bwrap");
    std::fs::write(
        &stub,
        "#!/bin/sh\nfor a in \"$@\"; do printf '%s\\n' \"$a\"; done\n",
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&stub, std::fs::Permissions::from_mode(0o755)).unwrap();
    let file = dir.join("run.sh");
    std::fs::write(&file, script).unwrap();
    let out = std::process::Command::new("bash")
        .arg(&file)
        .current_dir(dir)
        .env("PATH", format!("{}:/usr/bin:/bin", bin.display()))
        .env("HOME", "/home/u")
        .env("KEY", "k")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect()
}

fn fixed_by(dir: &Path, script: &str, args: &[&str]) -> String {
    let file = dir.join("job.sh");
    std::fs::write(&file, script).unwrap();
    let mut all = vec!["fix", "--apply"];
    all.extend_from_slice(args);
    all.push("job.sh");
    let run = isolint_in(dir, &all, None);
    assert!(run.code == Some(0) || run.code == Some(1), "{}", run.stderr);
    std::fs::read_to_string(&file).unwrap()
}

#[test]
fn the_fixed_bwrap_script_runs_the_argv_the_fix_meant() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let pwd = d.canonicalize().unwrap().display().to_string();
    let original = std::fs::read_to_string(root().join("fixtures/fix/bwrap-run.sh")).unwrap();
    let words = |s: &str| -> Vec<String> { s.split_whitespace().map(str::to_string).collect() };
    let before = argv_of(d, &original);
    let mut want = words("--dev /dev --proc /proc --bind");
    want.extend([pwd.clone()]);
    want.extend(words("/src --bind /etc /etc --setenv AWS_SECRET_ACCESS_KEY k --ro-bind /usr /usr --symlink usr/lib /lib --bind /home/u/.ssh /root/.ssh --chdir /src make test"));
    assert_eq!(before, want, "the stub reads the original as written");

    // One rule: the credential mount inside the literal array goes, and
    // nothing else.
    let fixed = fixed_by(d, &original, &["--unsafe-fixes", "--rule", "MNT002"]);
    let mut want = before.clone();
    let at = want.iter().position(|w| w == "/home/u/.ssh").unwrap() - 1;
    want.drain(at..at + 3);
    assert_eq!(argv_of(d, &fixed), want, "{fixed}");

    // Safe fixes only: `--bind` over configuration becomes `--ro-bind`.
    let fixed = fixed_by(d, &original, &[]);
    let mut want = before.clone();
    let at = want.iter().position(|w| w == "/etc").unwrap() - 1;
    want[at] = "--ro-bind".into();
    assert_eq!(argv_of(d, &fixed), want, "{fixed}");

    // Every fix: options added after `bwrap`, groups dropped, one bind
    // made read-only.
    let fixed = fixed_by(d, &original, &["--unsafe-fixes"]);
    let mut want = words("--unshare-net --clearenv --unshare-pid --unshare-ipc --unshare-uts --unshare-user --unshare-cgroup --new-session --dev /dev --proc /proc --ro-bind");
    want.push(pwd);
    want.extend(words("/src --symlink usr/lib /lib --chdir /src make test"));
    assert_eq!(argv_of(d, &fixed), want, "{fixed}");
}
