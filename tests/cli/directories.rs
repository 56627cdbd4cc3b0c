//! Directory runs: the walk, what is skipped and said, order, streaming.

use crate::common::*;

#[test]
fn a_directory_is_walked_recursively_in_path_order() {
    let tmp = tempfile::tempdir().unwrap();
    let workshop = fs::read(root().join(WORKSHOP)).unwrap();
    let fixed = fs::read(root().join(FIXED)).unwrap();
    for rel in [
        "profiles/b.json",
        "profiles/sub/deeper/c.json",
        "profiles/sub/a.json",
    ] {
        write(tmp.path(), rel, &fixed);
    }
    write(tmp.path(), "profiles/a.json", &workshop);
    write(tmp.path(), "profiles/.hidden/x.json", b"not json at all");
    write(tmp.path(), "profiles/.x.json", b"not json at all");
    write(tmp.path(), "profiles/notes.txt", b"not json at all");

    let run = isolint_in(
        tmp.path(),
        ["audit", "--today", TODAY, "--format", "json", "profiles"],
        None,
    );
    run.expect_code(1);
    let docs = run.json();
    let sources: Vec<&str> = docs
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["profile"]["source"].as_str().unwrap())
        .collect();
    assert_eq!(
        sources,
        [
            "profiles/a.json",
            "profiles/b.json",
            "profiles/sub/a.json",
            "profiles/sub/deeper/c.json"
        ]
    );

    // Only eligible profiles left: exit 0; a one-profile directory is still an array.
    fs::remove_file(tmp.path().join("profiles/a.json")).unwrap();
    let run = isolint_in(
        tmp.path(),
        [
            "audit",
            "--today",
            TODAY,
            "--format",
            "json",
            "profiles/sub/deeper",
        ],
        None,
    );
    run.expect_code(0);
    assert_eq!(run.json().as_array().map(Vec::len), Some(1));
}

#[test]
fn a_directory_without_profiles_is_an_input_error() {
    let tmp = tempfile::tempdir().unwrap();
    write(tmp.path(), "empty/readme.txt", b"nothing here");
    let run = isolint_in(tmp.path(), ["audit", "empty"], None);
    run.expect_code(2);
    assert!(
        run.stderr
            .contains("empty: directory holds no *.json, *.yaml, *.yml, *.toml or *.sh profile"),
        "{}",
        run.stderr
    );
}

/// issue 22 item 4 and issue 21 item 10: a directory run read only
/// `*.json`, so a risky manifest beside a clean profile passed; links it
/// could not follow were skipped with exit 0. Every format it detects is
/// audited, every entry it passes over is named, and an entry that should
/// have been audited and cannot be read exits 2.
#[test]
fn a_directory_run_audits_every_detected_format_and_names_what_it_skips() {
    let copy = |d: &Path, from: &str, to: &str| write(d, to, &fs::read(root().join(from)).unwrap());
    // A risky file of each format beside the clean profile: never exit 0.
    for (from, to) in [
        ("fixtures/import/compose/risky.yaml", "docker-compose.yml"),
        ("fixtures/import/compose/risky.yaml", "sub/compose.yaml"),
        (
            "fixtures/import/kubernetes/deployment-host.yaml",
            "k8s/deploy.yaml",
        ),
        (
            "fixtures/import/kubernetes/deployment-host.yaml",
            "k8s/deploy.yml",
        ),
        ("fixtures/import/codex/danger.toml", "codex/config.toml"),
        ("fixtures/import/bwrap/loose.sh", "run.sh"),
        ("fixtures/import/oci/risky.json", "oci/config.json"),
    ] {
        let tmp = tempfile::tempdir().unwrap();
        let d = tmp.path();
        copy(d, FIXED, "jobs/ok.json");
        copy(d, from, &format!("jobs/{to}"));
        let run = isolint_in(
            d,
            [
                "audit",
                "--today",
                TODAY,
                "--fail-on",
                "high",
                "--format",
                "json",
                "jobs",
            ],
            None,
        );
        run.expect_code(1);
        assert!(
            run.json().as_array().map(Vec::len).unwrap_or(0) >= 2,
            "{to}: {}",
            run.stderr
        );
    }
    // What is passed over is named, with the reason; nothing fails.
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    copy(d, FIXED, "jobs/ok.json");
    write(d, "jobs/README.md", b"# notes");
    write(d, "jobs/.github/workflows/ci.yaml", b"on: push\njobs: {}\n");
    write(
        d,
        "jobs/workflow.yaml",
        b"on: push\njobs:\n  build:\n    runs-on: ubuntu-latest\n",
    );
    write(d, "jobs/build.sh", b"#!/bin/sh\nmake\n");
    fs::create_dir_all(d.join("elsewhere")).unwrap();
    std::os::unix::fs::symlink("../elsewhere", d.join("jobs/dirlink")).unwrap();
    let run = isolint_in(d, ["audit", "--today", TODAY, "jobs"], None);
    run.expect_code(0);
    for (entry, why) in [
        ("jobs/README.md", "not named"),
        ("jobs/.github", "hidden"),
        ("jobs/workflow.yaml", "not a format isolint reads"),
        ("jobs/build.sh", "not a format isolint reads"),
        ("jobs/dirlink", "a link to a directory"),
    ] {
        assert!(
            run.stderr
                .contains(&format!("note: {entry}: not audited: {why}")),
            "{entry}: {}",
            run.stderr
        );
    }
    assert!(
        run.stderr.contains("5 directory entries were not audited"),
        "{}",
        run.stderr
    );
    // A link named like a configuration that leads nowhere, or in a loop:
    // exit 2 naming it, as when it is named directly.
    for (name, target) in [
        ("gone.json", "missing.json"),
        ("gone.yaml", "/nonexistent/x.yaml"),
        ("loop.json", "loop.json"),
        ("loop.yml", "other.yml"),
    ] {
        let tmp = tempfile::tempdir().unwrap();
        let d = tmp.path();
        copy(d, FIXED, "jobs/ok.json");
        std::os::unix::fs::symlink(target, d.join("jobs").join(name)).unwrap();
        if name == "loop.yml" {
            std::os::unix::fs::symlink(name, d.join("jobs/other.yml")).unwrap();
        }
        let run = isolint_in(
            d,
            ["audit", "--today", TODAY, "--fail-on", "high", "jobs"],
            None,
        );
        run.expect_code(2);
        assert!(
            run.stderr.contains(&format!("jobs/{name}: cannot read")),
            "{name}: {}",
            run.stderr
        );
    }
}

pub(crate) fn mkfifo(path: &Path) {
    let c = std::ffi::CString::new(path.as_os_str().as_encoded_bytes()).unwrap();
    // SAFETY: `c` is a NUL-terminated path that lives for the call.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
}

/// issue 21 item 10: every kind of entry a directory run cannot audit is
/// named on stderr and in every format's summary; named like a profile,
/// it fails the run (exit 2) instead of being passed over.
#[test]
fn a_directory_run_reports_every_entry_it_does_not_audit_in_every_summary() {
    use std::os::unix::fs::symlink;
    let copy = |d: &Path, from: &str, to: &str| write(d, to, &fs::read(root().join(from)).unwrap());
    // Entries that are not profiles by name or content: named, counted,
    // the run passes on the profile it did audit.
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    copy(d, FIXED, "jobs/ok.json");
    write(d, "jobs/README.md", b"# notes");
    write(d, "jobs/workflow.yaml", b"on: push\n");
    symlink("nowhere", d.join("jobs/dangling")).unwrap();
    symlink("looping", d.join("jobs/looping")).unwrap();
    mkfifo(&d.join("jobs/pipe"));
    symlink("/dev/null", d.join("jobs/null")).unwrap();
    // In path order, as every summary lists them.
    let expected = [
        ("jobs/README.md", "not named"),
        ("jobs/dangling", "a link that cannot be followed"),
        ("jobs/looping", "a link that cannot be followed"),
        ("jobs/null", "a device, not a regular file"),
        ("jobs/pipe", "a named pipe, not a regular file"),
        ("jobs/workflow.yaml", "not a format isolint reads"),
    ];
    let n = expected.len();
    for format in ["text", "json", "jsonl", "sarif", "markdown", "github"] {
        let run = isolint_in(
            d,
            [
                "audit",
                "--today",
                TODAY,
                "--fail-on",
                "high",
                "--format",
                format,
                "jobs",
            ],
            None,
        );
        run.expect_code(0);
        let stdout = run.stdout_str();
        for (entry, why) in expected {
            assert!(
                run.stderr
                    .contains(&format!("note: {entry}: not audited: {why}")),
                "{format} {entry}: {}",
                run.stderr
            );
        }
        assert!(
            run.stderr
                .contains(&format!("{n} directory entries were not audited")),
            "{}",
            run.stderr
        );
        match format {
            "text" => assert!(
                stdout.ends_with(&format!(
                    "audited 1 profile: 1 eligible for runtime testing, 0 not eligible; \
                     skipped {n} (not audited, listed on stderr)\n"
                )),
                "{stdout}"
            ),
            "sarif" => {
                let log = run.json();
                let runs = log["runs"].as_array().unwrap();
                assert_eq!(runs.len(), 2, "{}", stdout);
                let notes = runs[1]["invocations"][0]["toolExecutionNotifications"]
                    .as_array()
                    .unwrap();
                assert_eq!(notes.len(), n);
                for ((entry, why), note) in expected.iter().zip(notes) {
                    let at = &note["locations"][0]["physicalLocation"]["artifactLocation"]["uri"];
                    assert_eq!(at, entry);
                    let text = note["message"]["text"].as_str().unwrap();
                    assert!(text.contains(why), "{text}");
                }
                assert_eq!(runs[1]["results"].as_array().map(Vec::len), Some(0));
            }
            "markdown" => {
                assert!(
                    stdout.contains(&format!("### Not audited ({n})")),
                    "{}",
                    stdout
                );
                for (entry, _) in expected {
                    let entry = entry.replace('_', "\\_");
                    assert!(stdout.contains(&format!("- {entry}: ")), "{entry}");
                }
            }
            "github" => {
                for (entry, why) in expected {
                    assert!(
                        stdout.contains(&format!(
                            "::warning file={entry},title=isolint not audited::not audited: {why}"
                        )),
                        "{entry}: {}",
                        stdout
                    );
                }
            }
            // The exports stay a list of exports; stderr names the rest.
            "json" => assert_eq!(run.json().as_array().map(Vec::len), Some(1)),
            _ => assert_eq!(stdout.lines().count(), 1),
        }
    }
    // The same kinds named like a profile, and files too large or
    // unreadable: the run cannot pass over them, exit 2 naming each.
    let cases: [(&str, &str); 7] = [
        ("pipe.json", "cannot read: a named pipe, not a regular file"),
        ("pipe.yaml", "cannot read: a named pipe, not a regular file"),
        ("null.json", "cannot read: a device, not a regular file"),
        ("gone.toml", "cannot read: a link that cannot be followed"),
        ("big.json", "over the 8388608-byte limit"),
        ("big.sh", "over the 8388608-byte limit"),
        ("secret.json", "cannot read"),
    ];
    for (name, why) in cases {
        let tmp = tempfile::tempdir().unwrap();
        let d = tmp.path();
        copy(d, FIXED, "jobs/ok.json");
        let at = d.join("jobs").join(name);
        match name {
            "pipe.json" | "pipe.yaml" => mkfifo(&at),
            "null.json" => symlink("/dev/null", &at).unwrap(),
            "gone.toml" => symlink("missing.toml", &at).unwrap(),
            "big.json" | "big.sh" => fs::write(&at, vec![b' '; 8 * 1024 * 1024 + 1]).unwrap(),
            _ => {
                use std::os::unix::fs::PermissionsExt;
                fs::write(&at, b"{}").unwrap();
                fs::set_permissions(&at, fs::Permissions::from_mode(0o000)).unwrap();
                // As root the file stays readable: nothing to test.
                if fs::read(&at).is_ok() {
                    continue;
                }
            }
        }
        let run = isolint_in(
            d,
            ["audit", "--today", TODAY, "--fail-on", "high", "jobs"],
            None,
        );
        run.expect_code(2);
        let stdout = run.stdout_str();
        assert!(
            run.stderr.contains(&format!("jobs/{name}: ")) && run.stderr.contains(why),
            "{name}: {}",
            run.stderr
        );
        assert!(stdout.contains("1 could not be read"), "{name}: {}", stdout);
    }
}

/// issue 21 item 10, by the extension's case: `job.JSON` or `compose.Yml`
/// is named like a configuration as much as `job.json` is. Such a file is
/// audited; such an entry that cannot be read fails the run (exit 2,
/// named), in every case of the extension.
#[test]
fn a_directory_run_matches_extensions_in_any_case() {
    use std::os::unix::fs::symlink;
    for ext in ["JSON", "Json", "YAML", "Yml", "TOML", "SH"] {
        for kind in ["dangling", "looping", "pipe"] {
            let tmp = tempfile::tempdir().unwrap();
            let d = tmp.path();
            write(d, "jobs/ok.json", &fs::read(root().join(FIXED)).unwrap());
            let name = format!("x.{ext}");
            let at = d.join("jobs").join(&name);
            match kind {
                "dangling" => symlink("nowhere", &at).unwrap(),
                "looping" => symlink(&name, &at).unwrap(),
                _ => mkfifo(&at),
            }
            let run = isolint_in(
                d,
                ["audit", "--today", TODAY, "--fail-on", "high", "jobs"],
                None,
            );
            run.expect_code(2);
            assert!(
                run.stderr.contains(&format!("jobs/{name}: cannot read")),
                "{kind} {name}: {}",
                run.stderr
            );
        }
    }
    // A profile whose extension is in capitals is audited, not passed over.
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    write(d, "jobs/ok.json", &fs::read(root().join(FIXED)).unwrap());
    write(
        d,
        "jobs/bad.JSON",
        &fs::read(root().join(WORKSHOP)).unwrap(),
    );
    let run = isolint_in(
        d,
        ["audit", "--today", TODAY, "--format", "json", "jobs"],
        None,
    );
    run.expect_code(1);
    let sources: Vec<String> = run
        .json()
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["profile"]["source"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(sources, ["jobs/bad.JSON", "jobs/ok.json"]);
}

#[test]
fn directory_output_is_deterministic() {
    let a = audit(&["--format", "json", "fixtures/profiles"]);
    let b = audit(&["--format", "json", "fixtures/profiles"]);
    assert_eq!(a.stdout, b.stdout);
    let a = audit(&["--format", "sarif", "fixtures/profiles"]);
    let b = audit(&["--format", "sarif", "fixtures/profiles"]);
    assert_eq!(a.stdout, b.stdout);
}

/// A directory larger than one batch of parallel work (128 inputs) is
/// written in order, in every format, with the same bytes as its profiles
/// audited one by one and assembled, and with a bad file in the middle
/// reported in order without losing the others.
#[test]
fn a_large_directory_streams_in_path_order_in_every_format() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let fixed = fs::read_to_string(root().join(FIXED)).unwrap();
    let workshop = fs::read_to_string(root().join(WORKSHOP)).unwrap();
    let n = 530;
    for i in 0..n {
        let body = if i % 3 == 0 { &workshop } else { &fixed };
        let body = body.replacen("\"name\": \"", &format!("\"name\": \"p{i:04}-"), 1);
        write(dir, &format!("d/p{i:04}.json"), body.as_bytes());
    }
    write(dir, "d/p0300-bad.json", b"{\"name\": 1,,}");

    let run = isolint_in(
        dir,
        ["audit", "--today", TODAY, "--format", "json", "d"],
        None,
    );
    run.expect_code(2);
    assert_positioned_error(&run, "d/p0300-bad.json");
    let docs = run.json();
    let names: Vec<String> = docs
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["profile"]["name"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(names.len(), n);
    assert!(names.windows(2).all(|w| w[0] < w[1]), "path order");

    // Every format equals the same files given as arguments one by one,
    // each rendered alone and joined the way the format joins reports.
    let some = ["d/p0001.json", "d/p0512.json", "d/p0529.json"];
    for format in ["json", "sarif", "markdown", "github", "text"] {
        let all = isolint_in(
            dir,
            ["audit", "--today", TODAY, "--format", format, "d"],
            None,
        );
        let mut listed = vec!["audit", "--today", TODAY, "--format", format];
        listed.extend(some);
        let three = isolint_in(dir, listed, None);
        match format {
            "markdown" | "github" => {
                for f in some {
                    let alone = isolint_in(
                        dir,
                        ["audit", "--today", TODAY, "--format", format, f],
                        None,
                    );
                    assert!(
                        all.stdout_str().contains(&alone.stdout_str()),
                        "{format}: {f}"
                    );
                    assert!(
                        three.stdout_str().contains(&alone.stdout_str()),
                        "{format}: {f}"
                    );
                }
            }
            "text" => {
                assert!(all.stdout_str().ends_with(&format!("audited {n} profiles: {} eligible for runtime testing, {} not eligible; 1 could not be read\n", n - n.div_ceil(3), n.div_ceil(3))), "{}", all.stdout_str().len());
            }
            _ => {
                let doc = all.json();
                let items = |d: &Value| -> Vec<Value> {
                    let list = if format == "json" {
                        d.clone()
                    } else {
                        d["runs"].clone()
                    };
                    list.as_array().unwrap().clone()
                };
                let picked: Vec<Value> = [1usize, 512, 529]
                    .iter()
                    .map(|&i| items(&doc)[i].clone())
                    .collect();
                assert_eq!(picked, items(&three.json()), "{format}");
            }
        }
    }
}

/// One large profile with a large catalog: its JSON export is written to
/// the file (and to stdout) piece by piece while it renders, and the bytes
/// are exactly core's rendering of the same audit, long lists and all.
#[test]
fn a_large_single_export_is_streamed_with_the_bytes_core_renders() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let profile = isolint_core::synth::profile(2200, 3);
    let catalog = isolint_core::synth::catalog(2200);
    write(dir, "p.json", profile.as_bytes());
    write(dir, "labels.json", catalog.as_bytes());
    let labels = isolint_core::Labels::load(catalog.as_bytes()).unwrap();
    let options = isolint_core::AuditOptions {
        today: isolint_core::Date::parse(TODAY),
    };
    let report = isolint_core::audit(profile.as_bytes(), "p.json", &labels, &options).unwrap();
    assert!(
        report.issues.len() > 100 && report.runtime_checks.len() > 4096,
        "long enough to be written in pieces: {} checks",
        report.runtime_checks.len()
    );
    let want = isolint_core::render::json::render(&report);

    let args = [
        "audit",
        "--today",
        TODAY,
        "--format",
        "json",
        "--labels",
        "labels.json",
    ];
    let to_file = isolint_in(
        dir,
        args.iter().chain(&["--output", "out.json", "p.json"]),
        None,
    );
    to_file.expect_code(1);
    assert!(to_file.stdout.is_empty());
    assert!(
        fs::read_to_string(dir.join("out.json")).unwrap() == want,
        "file export differs"
    );
    let to_stdout = isolint_in(dir, args.iter().chain(&["p.json"]), None);
    to_stdout.expect_code(1);
    assert!(to_stdout.stdout_str() == want, "stdout export differs");
}

// ---- input errors -------------------------------------------------------
