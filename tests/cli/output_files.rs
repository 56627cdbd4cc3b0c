//! `--output`: atomic, never over an input, names that look alike.

use crate::common::*;

#[test]
fn output_writes_a_complete_file_and_keeps_stdout_quiet() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("findings.json");
    fs::write(&out, "x".repeat(100_000)).unwrap();
    let run = isolint([
        "audit".as_ref(),
        "--today".as_ref(),
        TODAY.as_ref(),
        "--format".as_ref(),
        "json".as_ref(),
        "--output".as_ref(),
        out.as_os_str(),
        WORKSHOP.as_ref(),
    ]);
    run.expect_code(1);
    assert!(run.stdout.is_empty(), "stdout stays quiet with --output");
    assert_eq!(
        run.stderr.lines().count(),
        1,
        "one confirmation line: {}",
        run.stderr
    );
    assert!(run.stderr.contains("findings.json"), "{}", run.stderr);

    let written = fs::read(&out).unwrap();
    let direct = audit(&["--format", "json", WORKSHOP]);
    assert_eq!(
        written, direct.stdout,
        "the file holds exactly what stdout would have"
    );
    let names: Vec<_> = fs::read_dir(tmp.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names, ["findings.json"], "no temporary file is left behind");

    // Text to a file is never coloured unless asked.
    let txt = tmp.path().join("report.txt");
    audit(&["--output", txt.to_str().unwrap(), WORKSHOP]).expect_code(1);
    assert!(!fs::read(&txt).unwrap().contains(&0x1b));
}

#[test]
fn output_into_a_missing_directory_fails_without_leaving_anything() {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("no/such/dir/findings.json");
    let run = audit(&[
        "--format",
        "json",
        "--output",
        out.to_str().unwrap(),
        WORKSHOP,
    ]);
    run.expect_code(2);
    assert!(run.stderr.contains("cannot write"), "{}", run.stderr);
    assert!(!out.exists());
    let run = audit(&[
        "--format",
        "json",
        "--output",
        tmp.path().to_str().unwrap(),
        WORKSHOP,
    ]);
    run.expect_code(2);
    assert_eq!(
        fs::read_dir(tmp.path()).unwrap().count(),
        0,
        "nothing was created"
    );
}

#[test]
fn output_through_a_link_replaces_the_file_it_names_and_keeps_the_link() {
    use std::os::unix::fs::symlink;
    let tmp = tempfile::tempdir().unwrap();
    fs::create_dir(tmp.path().join("reports")).unwrap();
    fs::write(tmp.path().join("reports/2026.json"), "old").unwrap();
    let link = tmp.path().join("latest.json");
    symlink("reports/2026.json", &link).unwrap();
    audit(&[
        "--format",
        "json",
        "--output",
        link.to_str().unwrap(),
        WORKSHOP,
    ])
    .expect_code(1);
    assert!(fs::symlink_metadata(&link)
        .unwrap()
        .file_type()
        .is_symlink());
    assert_eq!(
        fs::read(tmp.path().join("reports/2026.json")).unwrap(),
        audit(&["--format", "json", WORKSHOP]).stdout
    );
    let names: Vec<_> = fs::read_dir(tmp.path().join("reports"))
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names, ["2026.json"], "no temporary file is left behind");
}

#[test]
fn an_input_named_as_the_output_is_refused_and_left_as_it_was() {
    let tmp = tempfile::tempdir().unwrap();
    let profile = tmp.path().join("job.json");
    fs::copy(root().join(WORKSHOP), &profile).unwrap();
    let before = fs::read(&profile).unwrap();
    let p = profile.to_str().unwrap();
    let run = audit(&["--format", "json", "--output", p, FIXED, p]);
    run.expect_code(2);
    assert!(
        run.stderr.contains("is also the --output file"),
        "{}",
        run.stderr
    );
    assert_eq!(fs::read(&profile).unwrap(), before);
    // The same for import, whose profile would replace the file imported.
    let compose = tmp.path().join("compose.yaml");
    fs::copy(
        root().join("fixtures/import/compose/hardened.yaml"),
        &compose,
    )
    .unwrap();
    let before = fs::read(&compose).unwrap();
    let c = compose.to_str().unwrap();
    let run = isolint(["import", c, "--output", c]);
    run.expect_code(2);
    assert!(run.stderr.contains("would replace it"), "{}", run.stderr);
    assert_eq!(fs::read(&compose).unwrap(), before);
    assert_eq!(
        fs::read_dir(tmp.path()).unwrap().count(),
        2,
        "nothing was written"
    );
}

#[test]
fn a_directory_run_does_not_audit_the_report_it_wrote_there_before() {
    let tmp = tempfile::tempdir().unwrap();
    write(
        tmp.path(),
        "a.json",
        &fs::read(root().join(WORKSHOP)).unwrap(),
    );
    let out = tmp.path().join("out.json");
    let (dir, o) = (tmp.path().to_str().unwrap(), out.to_str().unwrap());
    audit(&["--format", "json", "--output", o, dir]).expect_code(1);
    let first = fs::read(&out).unwrap();
    let run = audit(&["--format", "json", "--output", o, dir]);
    run.expect_code(1);
    assert!(
        run.stderr.contains("not audited: it is the --output file"),
        "{}",
        run.stderr
    );
    assert_eq!(
        fs::read(&out).unwrap(),
        first,
        "the second run saw the same one profile"
    );
    let reports: Value = serde_json::from_slice(&first).unwrap();
    assert_eq!(reports.as_array().map(Vec::len), Some(1));
}

/// issue 21 item 2: `-o DIR/x.json DIR` named a real profile as the output;
/// the run skipped it, exited 0 and replaced it. Only a file that is an
/// isolint report may be skipped, however the output path is spelled.
#[test]
fn a_directory_run_refuses_an_output_that_is_a_profile_however_it_is_named() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    write(d, "dir/ok.json", &fs::read(root().join(FIXED)).unwrap());
    write(d, "dir/x.json", &fs::read(root().join(WORKSHOP)).unwrap());
    std::os::unix::fs::symlink("dir/x.json", d.join("link.json")).unwrap();
    std::os::unix::fs::symlink("dir", d.join("dirlink")).unwrap();
    let before = fs::read(d.join("dir/x.json")).unwrap();
    let abs = d.join("dir/x.json");
    let spellings = [
        "dir/x.json",
        "./dir/x.json",
        "dir//x.json",
        "dir/../dir/x.json",
        "dirlink/x.json",
        "link.json",
        abs.to_str().unwrap(),
    ];
    for format in ["json", "text", "sarif", "markdown", "github"] {
        for out in spellings {
            for dir in ["dir", "./dir/", "dirlink"] {
                let run = isolint_in(
                    d,
                    [
                        "audit",
                        "--today",
                        TODAY,
                        "--format",
                        format,
                        "--fail-on",
                        "high",
                        "-o",
                        out,
                        dir,
                    ],
                    None,
                );
                run.expect_code(2);
                assert!(
                    run.stderr.contains("not an isolint report"),
                    "{format} -o {out} {dir}: {}",
                    run.stderr
                );
                assert_eq!(
                    fs::read(d.join("dir/x.json")).unwrap(),
                    before,
                    "{format} -o {out} {dir}"
                );
            }
        }
    }
    // A report written there by an earlier run, in each format, is skipped.
    for format in ["json", "sarif", "text", "markdown", "github"] {
        let out = d.join("dir/report.json");
        let o = out.to_str().unwrap();
        let _ = fs::remove_file(&out);
        isolint_in(
            d,
            [
                "audit",
                "--today",
                TODAY,
                "--format",
                format,
                "-o",
                o,
                "dir/ok.json",
            ],
            None,
        );
        assert!(out.exists(), "{format}");
        let run = isolint_in(
            d,
            [
                "audit", "--today", TODAY, "--format", format, "-o", o, "dir",
            ],
            None,
        );
        run.expect_code(1);
        assert!(
            run.stderr.contains("not audited: it is the --output file"),
            "{format}: {}",
            run.stderr
        );
    }
}

/// issue 21 item 2: `-o` onto the operator's own input files replaced them.
#[test]
fn output_onto_the_labels_waivers_or_baseline_file_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    let labels = fs::read(root().join("fixtures/labels/workshop.json")).unwrap_or_default();
    write(d, "labels.json", &labels);
    write(
        d,
        "waivers.json",
        br#"{"schema":"isolint.waivers/v1","waivers":[]}"#,
    );
    let base = audit(&["--format", "json", WORKSHOP]);
    write(d, "base.json", &base.stdout);
    std::os::unix::fs::symlink("base.json", d.join("base-link.json")).unwrap();
    write(d, "runner.json", br#"{"schema":"isolint.profile/v1"}"#);
    let profile = root().join(WORKSHOP);
    let p = profile.to_str().unwrap();
    for (flag, file, out) in [
        ("--labels", "labels.json", "labels.json"),
        ("--waivers", "waivers.json", "./waivers.json"),
        ("--baseline", "base.json", "base.json"),
        ("--baseline", "base.json", "base-link.json"),
        ("--baseline", "base-link.json", "base.json"),
        ("--runner", "runner.json", "runner.json"),
    ] {
        if flag == "--labels" && labels.is_empty() {
            continue;
        }
        let before = fs::read(d.join(file)).unwrap();
        let run = isolint_in(
            d,
            [
                "audit", "--today", TODAY, "--format", "json", flag, file, "-o", out, p,
            ],
            None,
        );
        run.expect_code(2);
        assert!(
            run.stderr.contains(&format!("is the {flag} file")),
            "{flag} {file} -o {out}: {}",
            run.stderr
        );
        assert_eq!(
            fs::read(d.join(file)).unwrap(),
            before,
            "{flag} {file} -o {out}"
        );
    }
}

/// issue 21 item 2 for the other commands that write a file: `verify
/// --observations` onto its profile, `--labels` or `--runner` file, and
/// `probe -o` onto its `--plan`, however the path reaches the file, are
/// refused (exit 2) and leave it as it was.
#[test]
fn no_command_writes_over_its_own_input() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    write(d, "job.json", &fs::read(root().join(FIXED)).unwrap());
    write(
        d,
        "labels.json",
        &fs::read(root().join("fixtures/labels/workshop.json")).unwrap(),
    );
    write(
        d,
        "runner.json",
        br#"{"schema":"isolint.runner/v1","name":"r"}"#,
    );
    let plan = isolint_in(
        d,
        ["audit", "--today", TODAY, "--format", "json", "job.json"],
        None,
    );
    write(d, "plan.json", &plan.stdout);
    let cases: [(&str, &[&str]); 4] = [
        ("job.json", &["verify", "--observations", "@", "job.json"]),
        (
            "labels.json",
            &[
                "verify",
                "--labels",
                "labels.json",
                "--observations",
                "@",
                "job.json",
            ],
        ),
        (
            "runner.json",
            &[
                "verify",
                "--runner",
                "runner.json",
                "--observations",
                "@",
                "job.json",
            ],
        ),
        ("plan.json", &["probe", "--plan", "plan.json", "-o", "@"]),
    ];
    for (input, args) in cases {
        std::os::unix::fs::symlink(input, d.join("link")).unwrap();
        fs::hard_link(d.join(input), d.join("second")).unwrap();
        let before = fs::read(d.join(input)).unwrap();
        for out in [
            input.to_string(),
            format!("./{input}"),
            "link".into(),
            "second".into(),
        ] {
            let args: Vec<&str> = args
                .iter()
                .map(|a| if *a == "@" { out.as_str() } else { a })
                .collect();
            let run = isolint_in(d, &args, None);
            run.expect_code(2);
            assert!(
                run.stderr.contains("would replace"),
                "{args:?}: {}",
                run.stderr
            );
            assert_eq!(fs::read(d.join(input)).unwrap(), before, "{args:?}");
        }
        fs::remove_file(d.join("link")).unwrap();
        fs::remove_file(d.join("second")).unwrap();
    }
}

/// issue 21 item 1: a new file that names itself like a baselined profile
/// inherited its accepted findings and passed `--fail-on high`.
#[test]
fn a_new_file_cannot_borrow_a_baselined_profiles_name() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    let mut profile: Value =
        serde_json::from_slice(&fs::read(root().join(WORKSHOP)).unwrap()).unwrap();
    profile["name"] = "legacy-builder".into();
    let legacy = serde_json::to_vec_pretty(&profile).unwrap();
    write(d, "jobs/legacy-builder.json", &legacy);
    let run = |args: &[&str]| {
        let mut all = vec!["audit", "--today", TODAY];
        all.extend_from_slice(args);
        isolint_in(d, all, None)
    };
    run(&["--format", "json", "-o", "base.json", "jobs"]).expect_code(1);
    // The accepted profile itself, however the directory is spelled, passes.
    for dir in ["jobs", "./jobs", "jobs/", "./jobs//"] {
        run(&["--baseline", "base.json", "--fail-on", "high", dir]).expect_code(0);
    }
    // A new file with the same name and a new docker-socket mount does not.
    profile["mounts"].as_array_mut().unwrap().push(serde_json::json!({
        "source": "/var/run/docker.sock", "target": "/var/run/docker.sock", "access": "read-write"
    }));
    let new = serde_json::to_vec_pretty(&profile).unwrap();
    for name in [
        "jobs/zz-new-job.json",
        "jobs/sub/legacy-builder.json",
        "jobs/Legacy-builder.json",
    ] {
        write(d, name, &new);
        let out = run(&["--baseline", "base.json", "--fail-on", "high", "jobs"]);
        out.expect_code(1);
        fs::remove_file(d.join(name)).unwrap();
    }
    // Moved away, the accepted file is no longer matched, and the run says so.
    fs::rename(
        d.join("jobs/legacy-builder.json"),
        d.join("jobs/moved.json"),
    )
    .unwrap();
    let out = run(&["--baseline", "base.json", "--fail-on", "high", "jobs"]);
    out.expect_code(1);
    assert!(
        out.stderr.contains("matches no audited profile"),
        "{}",
        out.stderr
    );
}

/// issue 21 item 1: two profiles with one name in a run are said; when a
/// baseline or waivers could not tell them apart (one file, one name), the
/// run exits 2.
#[test]
fn two_profiles_with_one_name_are_reported() {
    let tmp = tempfile::tempdir().unwrap();
    let d = tmp.path();
    write(d, "jobs/a.json", &fs::read(root().join(FIXED)).unwrap());
    write(d, "jobs/b.json", &fs::read(root().join(FIXED)).unwrap());
    let run = isolint_in(d, ["audit", "--today", TODAY, "jobs"], None);
    run.expect_code(0);
    assert!(
        run.stderr.contains("are both named `parser-tests`"),
        "{}",
        run.stderr
    );
    // One Compose file whose two services share a name after import cannot
    // be told apart: with a baseline, exit 2.
    let two = "services:\n  t:\n    image: a\n    user: \"1000\"\n";
    write(d, "c/compose.yaml", two.as_bytes());
    let base = isolint_in(
        d,
        [
            "audit",
            "--today",
            TODAY,
            "--format",
            "json",
            "c/compose.yaml",
        ],
        None,
    );
    write(d, "base.json", &base.stdout);
    let p = d.join("c/compose.yaml");
    let run = isolint_in(
        d,
        [
            "audit",
            "--today",
            TODAY,
            "--baseline",
            "base.json",
            "--fail-on",
            "critical",
            "c/compose.yaml",
            p.to_str().unwrap(),
            "c/compose.yaml",
        ],
        None,
    );
    run.expect_code(2);
    assert!(
        run.stderr.contains("cannot tell them apart"),
        "{}",
        run.stderr
    );
}

/// issue 21 item 1, by look-alike names: a second profile whose name
/// differs from another's only in case, invisible characters or combining
/// marks reads as the same name to a reviewer, and is said as one.
#[test]
fn profiles_whose_names_look_alike_are_reported() {
    let fixed: Value = serde_json::from_slice(&fs::read(root().join(FIXED)).unwrap()).unwrap();
    for twin in [
        "Legacy-Builder",
        "LEGACY-BUILDER",
        "legacy\u{200b}-builder",
        "\u{feff}legacy-builder",
        "legacy-builder\u{200f}",
        "legacy-builde\u{0301}r",
        "legacy-builder\u{00a0}",
    ] {
        let tmp = tempfile::tempdir().unwrap();
        let d = tmp.path();
        let mut a = fixed.clone();
        a["name"] = "legacy-builder".into();
        write(d, "jobs/a.json", &serde_json::to_vec(&a).unwrap());
        let mut b = fixed.clone();
        b["name"] = twin.into();
        write(d, "jobs/b.json", &serde_json::to_vec(&b).unwrap());
        let run = isolint_in(d, ["audit", "--today", TODAY, "jobs"], None);
        assert_ne!(run.code, Some(2), "{twin:?}: {}", run.stderr);
        assert!(
            run.stderr.contains("jobs/a.json") && run.stderr.contains("look alike"),
            "{twin:?}: {}",
            run.stderr
        );
    }
}

/// Interrupted while its export is being written (here: waiting to read a
/// named pipe in its second batch of inputs, after the first went to the
/// temporary file), the run removes its temporary file, leaves no export
/// behind, and still ends by the signal, so a shell loop stops too.
#[test]
fn an_interrupted_export_leaves_no_temporary_file() {
    use std::os::unix::process::ExitStatusExt;
    use std::process::{Command, Stdio};
    use std::time::{Duration, Instant};
    let tmp = tempfile::tempdir().unwrap();
    let workshop = fs::read(root().join(WORKSHOP)).unwrap();
    let mut args = vec!["audit".to_string(), "--output".into(), "out.json".into()];
    for i in 0..130 {
        let name = format!("p{i:03}.json");
        write(tmp.path(), &name, &workshop);
        args.push(name);
    }
    let pipe = std::ffi::CString::new(
        tmp.path()
            .join("pipe.json")
            .into_os_string()
            .into_encoded_bytes(),
    )
    .unwrap();
    // SAFETY: `pipe` is a NUL-terminated path that lives for the call.
    assert_eq!(unsafe { libc::mkfifo(pipe.as_ptr(), 0o600) }, 0);
    args.push("pipe.json".into());
    let mut child = Command::new(bin())
        .args(&args)
        .current_dir(tmp.path())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let temporaries = || {
        fs::read_dir(tmp.path())
            .unwrap()
            .filter(|e| {
                e.as_ref()
                    .unwrap()
                    .file_name()
                    .to_string_lossy()
                    .ends_with(".tmp")
            })
            .count()
    };
    let waited = Instant::now();
    while temporaries() == 0 && waited.elapsed() < Duration::from_secs(30) {
        std::thread::sleep(Duration::from_millis(20));
    }
    let started = temporaries() == 1;
    let pid = libc::pid_t::try_from(child.id()).unwrap();
    // SAFETY: kill(2) on our own child, which has not been waited for.
    assert_eq!(unsafe { libc::kill(pid, libc::SIGINT) }, 0);
    let waited = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break Some(status);
        }
        if waited.elapsed() > Duration::from_secs(10) {
            let _ = child.kill();
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    assert!(started, "the export's temporary file never appeared");
    assert_eq!(status.and_then(|s| s.signal()), Some(libc::SIGINT));
    assert_eq!(temporaries(), 0, "the temporary file was removed");
    assert!(!tmp.path().join("out.json").exists());
}

// ---- rules, explain, schema ---------------------------------------------
