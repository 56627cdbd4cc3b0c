//! Fault injection is a test-only build (issue 42): `ISOLINT_VERIFY_FAULT`
//! makes `isolint verify` bind forbidden paths, share the network or drop
//! limits on purpose, so a release binary must not read it at all. The
//! suites' own binary is built with the `fault-injection` feature (the
//! positive control); the release binary ./test.sh builds
//! (`cargo build --release -p isolint`) must hold neither variable name and
//! ignore the switch.

use std::path::PathBuf;
use std::process::Command;

use isolint_acceptance::{bin, root};

const NAMES: [&str; 2] = ["ISOLINT_VERIFY_FAULT", "ISOLINT_FAULT_EXTRA"];

/// `ISOLINT_VERIFY_FAULT=no-such-fault isolint verify` on a profile that
/// is not eligible: (exit code, stderr). A build that reads the switch
/// stops at the unknown name (exit 2) before it audits anything.
fn with_unknown_fault(exe: &std::path::Path) -> (Option<i32>, String) {
    let out = Command::new(exe)
        .arg("verify")
        .arg(root().join("fixtures/profiles/workshop.json"))
        .env("ISOLINT_VERIFY_FAULT", "no-such-fault")
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn holds(exe: &std::path::Path, name: &str) -> bool {
    let bytes = std::fs::read(exe).unwrap();
    bytes.windows(name.len()).any(|w| w == name.as_bytes())
}

#[test]
fn the_feature_is_off_by_default() {
    let manifest = std::fs::read_to_string(root().join("tui/Cargo.toml")).unwrap();
    assert!(
        manifest.contains("fault-injection = []"),
        "the feature exists"
    );
    for line in manifest.lines() {
        let l = line.trim_start();
        if l.starts_with("default") && l.contains('=') {
            assert!(!l.contains("fault-injection"), "{line}");
            assert!(!l.contains("bench-hooks"), "{line}");
        }
    }
}

#[test]
fn the_test_build_reads_the_switch() {
    let (code, err) = with_unknown_fault(bin());
    assert_eq!(code, Some(2), "{err}");
    assert!(err.contains("unknown fault"), "{err}");
    for name in NAMES {
        assert!(holds(bin(), name), "{name} is in the test build");
    }
}

#[test]
fn the_release_binary_ignores_the_switch() {
    // <target>/<profile>/deps/<test> → <target>/release/isolint
    let exe = std::env::current_exe().unwrap();
    let target = exe.ancestors().nth(3).map(PathBuf::from).unwrap();
    // ISOLINT_RELEASE_BIN: judge another build (e.g. an older release).
    let release = std::env::var_os("ISOLINT_RELEASE_BIN")
        .map_or_else(|| target.join("release/isolint"), PathBuf::from);
    if !release.is_file() {
        // ./test.sh builds it before the suites run (and sets CI).
        assert!(
            std::env::var_os("CI").is_none(),
            "no release binary at {}: ./test.sh builds it first",
            release.display()
        );
        eprintln!(
            "\n*** SKIPPED: no {} (run `cargo build --release -p isolint`) ***\n",
            release.display()
        );
        return;
    }
    for name in NAMES {
        assert!(!holds(&release, name), "{name} is in the release binary");
    }
    let (code, err) = with_unknown_fault(&release);
    assert_eq!(code, Some(1), "{err}");
    assert!(err.contains("not eligible"), "{err}");
    // The benchmark hook (the `bench-hooks` feature, which bench/run.sh
    // builds separately) is not in the release build either.
    assert!(
        !holds(&release, "ISOLINT_EXIT_AFTER_FIRST_FRAME"),
        "the first-frame hook is in the release binary"
    );
}
