//! The `isolint` binary's command-line contract (SPEC §6): exit codes,
//! output shapes, directory mode, input errors, atomic `--output`, rule
//! documentation, schemas, determinism, and that no secret or raw control
//! character ever reaches any output.

use std::fs;
use std::path::Path;

use isolint_acceptance::{bin, is_raw_control, isolint, isolint_in, root, strings, Run};
use isolint_core::model::StringEnum;
use isolint_core::rules;
use serde_json::Value;

const TODAY: &str = "2026-11-29";
const WORKSHOP: &str = "fixtures/profiles/workshop.json";
const FIXED: &str = "fixtures/profiles/workshop-fixed.json";

fn audit(args: &[&str]) -> Run {
    let mut all = vec!["audit", "--today", TODAY];
    all.extend_from_slice(args);
    isolint(all)
}

/// `error: FILE:LINE:COLUMN: ...` for `file` on stderr.
fn assert_positioned_error(run: &Run, file: &str) {
    let re =
        regex::Regex::new(&format!(r"(?m)^error: {}:\d+:\d+: \S", regex::escape(file))).unwrap();
    assert!(
        re.is_match(&run.stderr),
        "expected `error: {file}:LINE:COLUMN: …` on stderr, got:\n{}",
        run.stderr
    );
}

fn write(dir: &Path, rel: &str, bytes: &[u8]) {
    let p = dir.join(rel);
    fs::create_dir_all(p.parent().unwrap()).unwrap();
    fs::write(p, bytes).unwrap();
}

// ---- exit codes ---------------------------------------------------------

#[test]
fn a_profile_with_blocking_findings_exits_1() {
    let run = audit(&[WORKSHOP]);
    run.expect_code(1);
    let out = run.stdout_str();
    assert!(out.contains("not eligible"), "{out}");
    assert!(out.contains("not proof of enforcement"), "{out}");
    assert!(run.stderr.is_empty(), "{}", run.stderr);
}

#[test]
fn the_fixed_workshop_profile_is_eligible_and_exits_0() {
    let run = audit(&["--format", "json", FIXED]);
    run.expect_code(0);
    let doc = run.json();
    assert_eq!(doc["verdict"], "eligible-for-runtime-testing");
    assert_eq!(doc["summary"]["critical"], 0);
    assert_eq!(doc["summary"]["high"], 0);
}

#[test]
fn one_ineligible_profile_among_several_makes_the_exit_code_1() {
    audit(&[FIXED, WORKSHOP]).expect_code(1);
    audit(&[FIXED, FIXED]).expect_code(0);
}

#[test]
fn usage_errors_exit_2() {
    for args in [
        vec!["audit"],
        vec!["audit", "--format", "xml", WORKSHOP],
        vec!["audit", "--today", "2026-02-30", WORKSHOP],
        vec!["audit", "--color", "sometimes", WORKSHOP],
        vec!["frobnicate"],
        vec!["schema", "policy"],
        vec!["explain"],
    ] {
        let run = isolint(&args);
        run.expect_code(2);
        assert!(
            run.stdout.is_empty(),
            "{args:?}: usage errors print nothing on stdout"
        );
        assert!(run.stderr.contains("error"), "{args:?}: {}", run.stderr);
    }
}

#[test]
fn no_arguments_without_a_terminal_prints_the_embedded_workshop_report() {
    let run = isolint(Vec::<&str>::new());
    run.expect_code(1);
    let out = run.stdout_str();
    assert!(out.contains("(workshop.json)"), "{out}");
    assert!(out.contains("labels `workshop`"), "{out}");
    assert!(
        !out.contains('\x1b'),
        "no colour when stdout is not a terminal"
    );
}

#[test]
fn the_dashboard_refuses_to_start_without_a_terminal() {
    let run = isolint(["tui", WORKSHOP]);
    run.expect_code(2);
    assert!(run.stderr.contains("terminal"), "{}", run.stderr);
}

// ---- output shapes ------------------------------------------------------

#[test]
fn json_is_one_document_for_one_file_and_an_array_for_several() {
    let one = audit(&["--format", "json", WORKSHOP]);
    one.expect_code(1);
    let doc = one.json();
    assert_eq!(doc["schema"], "isolint.findings/v2");
    assert_eq!(doc["profile"]["source"], WORKSHOP);

    let two = audit(&["--format", "json", WORKSHOP, FIXED]);
    two.expect_code(1);
    let arr = two.json();
    let arr = arr.as_array().expect("an array for two files");
    let sources: Vec<&str> = arr
        .iter()
        .map(|d| d["profile"]["source"].as_str().unwrap())
        .collect();
    assert_eq!(sources, [WORKSHOP, FIXED], "argument order is kept");
}

#[test]
fn sarif_has_one_run_per_profile() {
    let run = audit(&["--format", "sarif", WORKSHOP, FIXED]);
    run.expect_code(1);
    let log = run.json();
    assert_eq!(log["version"], "2.1.0");
    let runs = log["runs"].as_array().unwrap();
    assert_eq!(runs.len(), 2);
    assert_eq!(runs[0]["artifacts"][0]["location"]["uri"], WORKSHOP);
    assert_eq!(runs[1]["artifacts"][0]["location"]["uri"], FIXED);
}

#[test]
fn text_for_several_profiles_ends_with_a_tally() {
    let run = audit(&["--color", "never", WORKSHOP, FIXED]);
    run.expect_code(1);
    let out = run.stdout_str();
    assert!(
        out.contains("(fixtures/profiles/workshop.json)")
            && out.contains("(fixtures/profiles/workshop-fixed.json)")
    );
    assert!(
        out.trim_end()
            .ends_with("audited 2 profiles: 1 eligible for runtime testing, 1 not eligible"),
        "{out}"
    );
}

#[test]
fn colour_follows_the_color_option() {
    let always = audit(&["--color", "always", WORKSHOP]);
    assert!(always.stdout.contains(&0x1b), "--color always paints");
    let never = audit(&["--color", "never", WORKSHOP]);
    assert!(!never.stdout.contains(&0x1b));
    let auto = audit(&[WORKSHOP]);
    assert!(!auto.stdout.contains(&0x1b), "auto: a pipe gets no colour");
    let json = audit(&["--color", "always", "--format", "json", WORKSHOP]);
    assert!(
        !json.stdout.contains(&0x1b),
        "colour never reaches machine formats"
    );
}

#[test]
fn standard_input_is_read_with_a_dash() {
    let bytes = fs::read(root().join(WORKSHOP)).unwrap();
    let run = isolint_in(&root(), ["audit", "--format", "json", "-"], Some(&bytes));
    run.expect_code(1);
    assert_eq!(run.json()["profile"]["source"], "<stdin>");
}

// ---- directory mode -----------------------------------------------------

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

fn mkfifo(path: &Path) {
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

/// Each kind of unreadable input, alone and among readable ones.
#[test]
fn every_kind_of_bad_input_exits_2_with_the_file_and_position() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let limit = 8 * 1024 * 1024;
    let mut big = b"{\"name\": \"x\", \"purpose\": \"".to_vec();
    big.resize(limit - 2, b'a');
    big.extend_from_slice(b"\"}");
    big.push(b' ');
    assert_eq!(big.len(), limit + 1);
    write(dir, "big.json", &big);
    write(dir, "deep.json", &"[".repeat(100_000).into_bytes());
    write(dir, "utf8.json", b"{\n  \"name\": \"caf\xe9\"\n}\n");
    write(dir, "bom.json", b"\xef\xbb\xbf{\"name\": \"x\"}\n");
    write(
        dir,
        "comma.json",
        b"{\n  \"name\": \"x\",\n  \"mounts\": [],\n}\n",
    );

    let positioned = [
        ("deep.json", "nesting is deeper than 64"),
        ("utf8.json", "not valid UTF-8"),
        ("bom.json", "byte-order mark"),
        ("comma.json", "invalid JSON"),
    ];
    for (file, says) in positioned {
        let run = isolint_in(dir, ["audit", file], None);
        run.expect_code(2);
        assert_positioned_error(&run, file);
        assert!(run.stderr.contains(says), "{file}: {}", run.stderr);
        assert!(run.stdout.is_empty(), "{file}: nothing on stdout");
    }
    // The exact position of the trailing comma: line 4, column 1 (the `}`)
    // or line 3 (the comma); either way a real place in the file.
    let run = isolint_in(dir, ["audit", "comma.json"], None);
    assert!(
        run.stderr.contains("comma.json:3:") || run.stderr.contains("comma.json:4:"),
        "{}",
        run.stderr
    );
    let run = isolint_in(dir, ["audit", "bom.json"], None);
    assert!(run.stderr.contains("bom.json:1:1:"), "{}", run.stderr);
    let run = isolint_in(dir, ["audit", "utf8.json"], None);
    assert!(run.stderr.contains("utf8.json:2:"), "{}", run.stderr);

    let run = isolint_in(dir, ["audit", "big.json"], None);
    run.expect_code(2);
    assert!(
        run.stderr
            .contains("error: big.json: input is 8388609 bytes, over the 8388608-byte limit"),
        "{}",
        run.stderr
    );

    let run = isolint_in(dir, ["audit", "missing.json"], None);
    run.expect_code(2);
    assert!(
        run.stderr
            .contains("error: missing.json: cannot read: no such file or directory"),
        "{}",
        run.stderr
    );

    // Standard input is bounded too.
    let run = isolint_in(dir, ["audit", "-"], Some(&big));
    run.expect_code(2);
    assert!(
        run.stderr
            .contains("<stdin>: input is over the 8388608-byte limit"),
        "{}",
        run.stderr
    );
}

#[test]
fn one_bad_file_among_several_is_reported_and_the_others_still_audited() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    write(dir, "p/1-good.json", &fs::read(root().join(FIXED)).unwrap());
    write(dir, "p/2-bad.json", b"{\"name\": \"x\",}");
    write(
        dir,
        "p/3-good.json",
        &fs::read(root().join(WORKSHOP)).unwrap(),
    );

    let run = isolint_in(dir, ["audit", "--format", "json", "p"], None);
    run.expect_code(2);
    assert_positioned_error(&run, "p/2-bad.json");
    let docs = run.json();
    let sources: Vec<&str> = docs
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["profile"]["source"].as_str().unwrap())
        .collect();
    assert_eq!(sources, ["p/1-good.json", "p/3-good.json"]);

    let run = isolint_in(
        dir,
        ["audit", "--format", "json", "p/1-good.json", "nowhere.json"],
        None,
    );
    run.expect_code(2);
    assert!(
        run.stderr.contains("nowhere.json: cannot read"),
        "{}",
        run.stderr
    );
    assert_eq!(run.json().as_array().map(Vec::len), Some(1));
}

#[test]
fn a_bad_label_catalog_exits_2_naming_its_file_and_position() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    write(
        dir,
        "labels.json",
        b"{\n  \"schema\": \"isolint.labels/v1\",\n  \"name\": \"site\",\n  \"labels\": [\n    { \"path\": \"/srv\", \"label\": \"scratch\", \"lable\": \"x\" }\n  ]\n}\n",
    );
    write(dir, "trailing.json", b"{\"labels\": [],}");
    let profile = root().join(WORKSHOP);
    for (file, says) in [
        ("labels.json", "unknown field `lable`"),
        ("trailing.json", "invalid JSON"),
    ] {
        let run = isolint_in(
            dir,
            [
                "audit".as_ref(),
                "--labels".as_ref(),
                file.as_ref(),
                profile.as_os_str(),
            ],
            None,
        );
        run.expect_code(2);
        assert_positioned_error(&run, file);
        assert!(run.stderr.contains(says), "{}", run.stderr);
        assert!(run.stdout.is_empty());
    }
    let run = isolint_in(
        dir,
        [
            "audit".as_ref(),
            "--labels".as_ref(),
            "none.json".as_ref(),
            profile.as_os_str(),
        ],
        None,
    );
    run.expect_code(2);
    assert!(
        run.stderr.contains("none.json: cannot read"),
        "{}",
        run.stderr
    );
}

#[test]
fn a_good_label_catalog_replaces_the_embedded_one() {
    let tmp = tempfile::tempdir().unwrap();
    write(
        tmp.path(),
        "site.json",
        br#"{ "schema": "isolint.labels/v1", "name": "site-catalog", "labels": [ { "path": "/srv", "label": "scratch" } ] }"#,
    );
    let labels = tmp.path().join("site.json");
    let run = isolint([
        "audit".as_ref(),
        "--format".as_ref(),
        "json".as_ref(),
        "--labels".as_ref(),
        labels.as_os_str(),
        WORKSHOP.as_ref(),
    ]);
    assert!(matches!(run.code, Some(0 | 1)), "{}", run.stderr);
    assert_eq!(run.json()["labels"]["name"], "site-catalog");
}

/// With `--labels` and one profile file, the profile is read and parsed
/// while the catalog loads: the report is the one a profile read after the
/// catalog (from stdin) gets, and a broken catalog still stops the run
/// before anything is said about the profile.
#[test]
fn a_profile_parsed_while_the_catalog_loads_gets_the_same_report() {
    let labels = root().join("fixtures/labels/workshop.json");
    let args = |profile: &str| {
        vec![
            "audit".to_string(),
            "--today".into(),
            TODAY.into(),
            "--format".into(),
            "json".into(),
            "--labels".into(),
            labels.display().to_string(),
            profile.into(),
        ]
    };
    let early = isolint_in(&root(), args(WORKSHOP), None);
    let late = isolint_in(
        &root(),
        args("-"),
        Some(&fs::read(root().join(WORKSHOP)).unwrap()),
    );
    early.expect_code(1);
    late.expect_code(1);
    let (early, late) = (early.json(), late.json());
    for key in ["issues", "runtime_checks", "verdict", "summary", "labels"] {
        assert_eq!(early[key], late[key], "{key}");
    }
    assert!(!early["issues"].as_array().unwrap().is_empty());
    assert_eq!(early["profile"]["sha256"], late["profile"]["sha256"]);

    let tmp = tempfile::tempdir().unwrap();
    write(tmp.path(), "labels.json", b"{\"labels\": [");
    write(tmp.path(), "profile.json", b"{\"schema\": ");
    let run = isolint_in(
        tmp.path(),
        ["audit", "--labels", "labels.json", "profile.json"],
        None,
    );
    run.expect_code(2);
    assert_positioned_error(&run, "labels.json");
    assert!(!run.stderr.contains("profile.json"), "{}", run.stderr);
    assert!(run.stdout.is_empty());
}

#[test]
fn the_adversarial_corpus_never_crashes_the_binary() {
    let dir = root().join("fixtures/adversarial");
    let Ok(manifest) = fs::read(dir.join("manifest.json")) else {
        return;
    };
    let manifest: Value = serde_json::from_slice(&manifest).unwrap();
    for case in manifest["cases"].as_array().unwrap() {
        let file = case["file"].as_str().unwrap();
        let rel = format!("fixtures/adversarial/{file}");
        let expect = case["expect"].as_str().unwrap();
        for format in ["text", "json", "sarif"] {
            let run = audit(&["--format", format, &rel]);
            assert!(
                matches!(run.code, Some(0..=2)),
                "{file}: exit {:?}\n{}",
                run.code,
                run.stderr
            );
            assert!(!run.stderr.contains("panicked"), "{file}: {}", run.stderr);
            let text = String::from_utf8_lossy(&run.stdout);
            assert!(
                !text.chars().any(is_raw_control),
                "{file} ({format}): raw control character in output"
            );
            assert!(
                !run.stderr.chars().any(is_raw_control),
                "{file}: raw control character on stderr"
            );
            if expect == "error" {
                assert_eq!(run.code, Some(2), "{file}");
                assert!(run.stderr.contains(&rel), "{file}: {}", run.stderr);
                if let Some(says) = case["contains"].as_str() {
                    assert!(run.stderr.contains(says), "{file}: {}", run.stderr);
                }
                continue;
            }
            // Whether each case blocks is core's test (core/tests/adversarial.rs);
            // here: the exit code agrees with the exported verdict.
            if format == "json" {
                let doc = run.json();
                let code = if doc["verdict"] == "not-eligible" {
                    1
                } else {
                    0
                };
                assert_eq!(
                    run.code,
                    Some(code),
                    "{file}: exit code and verdict disagree"
                );
                if let (Some(rule), "blocking") = (case["rule"].as_str(), expect) {
                    let issues = doc["issues"].as_array().unwrap();
                    assert!(
                        issues.iter().any(|i| i["rule"] == rule),
                        "{file}: {rule} expected"
                    );
                }
            }
        }
    }
}

// ---- --output -----------------------------------------------------------

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

#[test]
fn explain_documents_every_rule_by_id_and_name() {
    for (n, rule) in rules::all().enumerate() {
        // Every id; names and other spellings for every rule would only
        // repeat the same lookup, so they are sampled.
        let mut keys = vec![rule.id.to_string()];
        if n % 5 == 0 {
            keys.extend([rule.id.to_lowercase(), rule.name.to_uppercase()]);
        }
        for key in keys {
            let run = isolint(["explain", &key]);
            run.expect_code(0);
            let out = run.stdout_str();
            assert!(
                out.starts_with(&format!("{} {}: {}", rule.id, rule.name, rule.title)),
                "{out}"
            );
            assert!(
                out.contains(rule.area.as_str()) && out.contains(rule.severity.as_str()),
                "{out}"
            );
            let flat = out.split_whitespace().collect::<Vec<_>>().join(" ");
            let remediation = rule
                .remediation
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ");
            assert!(
                flat.contains(&remediation),
                "{}: remediation missing",
                rule.id
            );
        }
    }
}

#[test]
fn explain_json_carries_every_field() {
    let rule = rules::all().next().expect("a registry with rules");
    let run = isolint(["explain", "--format", "json", rule.id]);
    run.expect_code(0);
    let v = run.json();
    assert_eq!(v["id"], rule.id);
    assert_eq!(v["rationale"], rule.rationale);
    assert_eq!(
        v["runtime_check"],
        rule.runtime_check
            .map_or(Value::Null, |k| k.as_str().into())
    );
}

#[test]
fn explain_of_an_unknown_rule_suggests_the_closest() {
    let rule = rules::all().next().expect("a registry with rules");
    let typo = format!("{}9", rule.name);
    let run = isolint(["explain", &typo]);
    run.expect_code(2);
    assert!(run.stderr.contains("did you mean"), "{}", run.stderr);
    assert!(run.stderr.contains(rule.name), "{}", run.stderr);
    assert!(run.stdout.is_empty());
}

#[test]
fn rules_lists_the_whole_registry() {
    let run = isolint(["rules", "--format", "json"]);
    run.expect_code(0);
    let v = run.json();
    let ids: Vec<&str> = v
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["id"].as_str().unwrap())
        .collect();
    let expected: Vec<&str> = rules::all().map(|r| r.id).collect();
    assert_eq!(ids, expected);
    for (item, rule) in v.as_array().unwrap().iter().zip(rules::all()) {
        for field in [
            "name",
            "area",
            "severity",
            "title",
            "rationale",
            "remediation",
            "runtime_check",
        ] {
            assert!(item.get(field).is_some(), "{}: {field}", rule.id);
        }
    }
    let text = isolint(["rules"]);
    text.expect_code(0);
    let out = text.stdout_str();
    for rule in rules::all() {
        assert!(
            out.lines()
                .any(|l| l.starts_with(rule.id) && l.contains(rule.name)),
            "{}",
            rule.id
        );
    }
}

#[test]
fn schema_prints_each_format_as_json_schema() {
    for (name, id) in [
        ("profile", "isolint.profile/v1"),
        ("labels", "isolint.labels/v1"),
        ("findings", "isolint.findings/v2"),
    ] {
        let run = isolint(["schema", name]);
        run.expect_code(0);
        let v = run.json();
        assert_eq!(v["$schema"], "https://json-schema.org/draft/2020-12/schema");
        assert!(v["title"].as_str().unwrap().contains(id), "{name}");
        let closed = if name == "findings" {
            &v["$defs"]["document"]["additionalProperties"]
        } else {
            &v["additionalProperties"]
        };
        assert_eq!(closed, false);
    }
}

#[test]
fn help_is_available_for_every_subcommand() {
    let top = isolint(["--help"]);
    top.expect_code(0);
    let out = top.stdout_str();
    for sub in [
        "audit",
        "tui",
        "rules",
        "explain",
        "schema",
        "waive",
        "import",
        "completions",
        "Exit status",
    ] {
        assert!(out.contains(sub), "--help mentions {sub}");
    }
    for (sub, needles) in [
        (
            "audit",
            &[
                "--labels",
                "--format",
                "--output",
                "--today",
                "--color",
                "--waivers",
                "--from",
                "--fail-on",
                "--baseline",
                "markdown",
                "github",
                "new",
                "directory",
                "Exit status",
            ][..],
        ),
        ("tui", &["--labels", "PROFILE", "Exit status"][..]),
        (
            "import",
            &[
                "--from",
                "--output",
                "DIR/",
                "note:",
                "not declared:",
                "Exit status",
            ][..],
        ),
        ("completions", &["bash", "zsh", "fish", "Exit status"][..]),
        ("rules", &["--format", "Exit status"][..]),
        ("explain", &["RULE", "Exit status"][..]),
        (
            "waive",
            &[
                "--rule",
                "--pointer",
                "--reason",
                "--owner",
                "--expires",
                "sha256",
                "Exit status",
            ][..],
        ),
        (
            "schema",
            &["profile", "labels", "findings", "Exit status"][..],
        ),
    ] {
        let run = isolint([sub, "--help"]);
        run.expect_code(0);
        let out = run.stdout_str();
        for n in needles {
            assert!(out.contains(n), "`{sub} --help` mentions {n}:\n{out}");
        }
    }
    let v = isolint(["--version"]);
    v.expect_code(0);
    assert!(v.stdout_str().starts_with("isolint "));
}

#[test]
fn a_closed_stdout_pipe_is_not_a_crash() {
    use std::process::{Command, Stdio};
    let mut child = Command::new(bin())
        .args(["audit", "--format", "sarif", "fixtures/profiles"])
        .current_dir(root())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(matches!(out.status.code(), Some(0..=2)), "{:?}", out.status);
}

// ---- secrets and control characters, end to end -------------------------

const SECRET: &str = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY";
const KEY_ID: &str = "AKIAIOSFODNN7EXAMPLE";

fn hostile_profile() -> String {
    format!(
        r#"{{
  "schema": "isolint.profile/v1",
  "name": "evil\u001b[2J\u001b]0;owned\u0007name",
  "purpose": "\u009b31mC1 escape\u0085 and \u001b[31mred",
  "boundary": {{ "kind": "container", "label": "\u001b]8;;http://x.example\u0007hardened\u001b]8;;\u0007" }},
  "mounts": [
    {{ "source": "/home/botie/\u001b[8m.aws", "target": "/creds\u0007", "access": "read-only" }}
  ],
  "environment": {{
    "inherit": true,
    "variables": {{ "AWS_ACCESS_KEY_ID": "{KEY_ID}", "AWS_SECRET_ACCESS_KEY": "{SECRET}", "X\u001b[0m": "y" }}
  }},
  "command": {{ "executable": "python", "arguments": ["-c", "print('{SECRET}')", "\u001b[1m"] }}
}}
"#
    )
}

#[test]
fn no_secret_and_no_raw_control_character_reaches_any_output() {
    let tmp = tempfile::tempdir().unwrap();
    write(tmp.path(), "hostile.json", hostile_profile().as_bytes());
    let sgr = regex::Regex::new(r"\x1b\[[0-9;]*m").unwrap();
    for format in ["text", "json", "sarif"] {
        for color in ["never", "always"] {
            let run = isolint_in(
                tmp.path(),
                [
                    "audit",
                    "--today",
                    TODAY,
                    "--color",
                    color,
                    "--format",
                    format,
                    "hostile.json",
                ],
                None,
            );
            run.expect_code(1);
            let out = run.stdout_str();
            for secret in [SECRET, KEY_ID, "wJalrXUtnFEMI"] {
                assert!(!out.contains(secret), "{format}: secret leaked");
                assert!(
                    !run.stderr.contains(secret),
                    "{format}: secret leaked on stderr"
                );
            }
            // Colour codes are the only ESC allowed, and only in coloured text.
            let stripped = sgr.replace_all(&out, "");
            let check = if format == "text" && color == "always" {
                stripped.to_string()
            } else {
                out.clone()
            };
            let bad: Vec<char> = check.chars().filter(|&c| is_raw_control(c)).collect();
            assert!(
                bad.is_empty(),
                "{format}/{color}: raw control characters {bad:?}"
            );
            if format != "text" {
                // Escaped in JSON (`\u001b`) would still decode to ESC: check
                // every decoded string too.
                let mut all = Vec::new();
                strings(&run.json(), &mut all);
                for s in &all {
                    assert!(
                        !s.contains(SECRET) && !s.contains(KEY_ID),
                        "{format}: secret in a string"
                    );
                    assert!(
                        !s.chars().any(is_raw_control),
                        "{format}: control character in {s:?}"
                    );
                }
            }
        }
    }
}

// ---- waivers ------------------------------------------------------------

/// `isolint waive` entries for every blocking finding of `profile`.
fn waive_all_blocking(profile: &str, expires: &str) -> Value {
    let doc = audit(&["--format", "json", profile]).json();
    let mut entries = Vec::new();
    let mut seen = std::collections::BTreeSet::new();
    for issue in doc["issues"].as_array().unwrap() {
        if !["critical", "high"].contains(&issue["severity"].as_str().unwrap()) {
            continue;
        }
        let (rule, pointer) = (
            issue["rule"].as_str().unwrap(),
            issue["pointer"].as_str().unwrap(),
        );
        if !seen.insert((rule.to_string(), pointer.to_string())) {
            continue;
        }
        let run = isolint([
            "waive",
            "--rule",
            rule,
            "--pointer",
            pointer,
            "--reason",
            "accepted for the workshop demo",
            "--owner",
            "reviewer@example",
            "--expires",
            expires,
            "--today",
            TODAY,
            profile,
        ]);
        run.expect_code(0);
        entries.push(run.json());
    }
    serde_json::json!({ "schema": "isolint.waivers/v1", "waivers": entries })
}

#[test]
fn waived_findings_stay_in_the_export_and_leave_the_verdict() {
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("waivers.json");
    fs::write(
        &file,
        waive_all_blocking(WORKSHOP, "2026-12-31").to_string(),
    )
    .unwrap();
    let before = audit(&["--format", "json", WORKSHOP]).json();

    let run = audit(&[
        "--format",
        "json",
        "--waivers",
        file.to_str().unwrap(),
        WORKSHOP,
    ]);
    run.expect_code(0);
    let after = run.json();
    assert_eq!(after["verdict"], "eligible-for-runtime-testing");
    let issues = after["issues"].as_array().unwrap();
    assert_eq!(
        issues.len(),
        before["issues"].as_array().unwrap().len(),
        "nothing is dropped"
    );
    for i in issues
        .iter()
        .filter(|i| ["critical", "high"].contains(&i["severity"].as_str().unwrap()))
    {
        assert_eq!(i["waived"]["owner"], "reviewer@example", "{i}");
    }
    let text = audit(&[
        "--color",
        "never",
        "--waivers",
        file.to_str().unwrap(),
        WORKSHOP,
    ]);
    assert!(text.stdout_str().contains("(waived)"));

    // The same waivers after their expiry count again, as findings of their own.
    let late = isolint([
        "audit",
        "--today",
        "2027-01-15",
        "--format",
        "json",
        "--waivers",
        file.to_str().unwrap(),
        WORKSHOP,
    ]);
    late.expect_code(1);
    assert!(late.json()["issues"]
        .as_array()
        .unwrap()
        .iter()
        .any(|i| i["rule"] == "PRF006"));
}

#[test]
fn waive_refuses_a_finding_the_profile_does_not_have() {
    let rule = rules::all().next().expect("a registry with rules");
    let run = isolint([
        "waive",
        "--rule",
        rule.id,
        "--pointer",
        "/nowhere",
        "--reason",
        "r",
        "--owner",
        "o",
        "--expires",
        "2026-12-31",
        "--today",
        TODAY,
        FIXED,
    ]);
    run.expect_code(2);
    assert!(run.stderr.contains("has no"), "{}", run.stderr);
    assert!(run.stdout.is_empty());
    let run = isolint([
        "waive",
        "--rule",
        "XYZ999",
        "--pointer",
        "/x",
        "--reason",
        "r",
        "--owner",
        "o",
        "--expires",
        "2026-12-31",
        FIXED,
    ]);
    run.expect_code(2);
}

#[test]
fn a_bad_waivers_file_exits_2_naming_its_file_and_position() {
    let tmp = tempfile::tempdir().unwrap();
    write(
        tmp.path(),
        "waivers.json",
        b"{\n  \"schema\": \"isolint.waivers/v1\",\n  \"waivers\": [ { \"rule\": \"PRF001\", \"pointr\": \"/x\" } ]\n}\n",
    );
    let profile = root().join(WORKSHOP);
    let run = isolint_in(
        tmp.path(),
        [
            "audit".as_ref(),
            "--waivers".as_ref(),
            "waivers.json".as_ref(),
            profile.as_os_str(),
        ],
        None,
    );
    run.expect_code(2);
    assert_positioned_error(&run, "waivers.json");
    assert!(run.stdout.is_empty());
}

#[test]
fn output_dash_is_stdout() {
    let run = audit(&["--format", "json", "--output", "-", WORKSHOP]);
    run.expect_code(1);
    assert_eq!(run.stdout, audit(&["--format", "json", WORKSHOP]).stdout);
    assert!(run.stderr.is_empty(), "{}", run.stderr);
    assert!(!root().join("-").exists());
}

// ---- other sandbox formats ----------------------------------------------

const POD: &str = "apiVersion: v1
kind: Pod
metadata:
  name: tests
spec:
  containers:
  - name: runner
    image: python:3.12
    securityContext:
      privileged: true
  - name: helper
    image: busybox
";

#[test]
fn other_sandbox_formats_are_imported_and_point_at_the_original_file() {
    let tmp = tempfile::tempdir().unwrap();
    write(tmp.path(), "k8s/pod.yaml", POD.as_bytes());
    let run = isolint_in(
        tmp.path(),
        [
            "audit",
            "--today",
            TODAY,
            "--format",
            "json",
            "k8s/pod.yaml",
        ],
        None,
    );
    // One file argument is one document: two containers cannot be one.
    run.expect_code(2);
    assert!(
        run.stderr.contains("describes 2 profiles"),
        "{}",
        run.stderr
    );
    let run = isolint_in(
        tmp.path(),
        [
            "audit",
            "--today",
            TODAY,
            "--format",
            "jsonl",
            "k8s/pod.yaml",
        ],
        None,
    );
    run.expect_code(1);
    let docs: Vec<Value> = String::from_utf8_lossy(&run.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(docs.len(), 2, "two containers, two profiles: two lines");
    for d in docs {
        assert!(
            d["profile"]["source"]
                .as_str()
                .unwrap()
                .starts_with("k8s/pod.yaml#"),
            "{}",
            d["profile"]
        );
        for i in d["issues"].as_array().unwrap() {
            assert_eq!(i["origin"]["file"], "k8s/pod.yaml", "{i}");
            assert!(i["origin"]["line"].as_u64().unwrap() >= 1);
        }
    }
    let sarif = isolint_in(
        tmp.path(),
        [
            "audit",
            "--today",
            TODAY,
            "--format",
            "sarif",
            "k8s/pod.yaml",
        ],
        None,
    );
    let log = sarif.json();
    for run in log["runs"].as_array().unwrap() {
        assert_eq!(run["artifacts"][0]["location"]["uri"], "k8s/pod.yaml");
    }
    // A directory walk for a named format collects its extensions.
    let dir = isolint_in(
        tmp.path(),
        [
            "audit", "--today", TODAY, "--from", "k8s", "--format", "json", "k8s",
        ],
        None,
    );
    dir.expect_code(1);
    assert_eq!(dir.json().as_array().map(Vec::len), Some(2));
    // Read as a profile, YAML is not JSON.
    let strict = isolint_in(
        tmp.path(),
        ["audit", "--from", "profile", "k8s/pod.yaml"],
        None,
    );
    strict.expect_code(2);
    assert_positioned_error(&strict, "k8s/pod.yaml");
}

#[test]
fn a_broken_import_exits_2_with_its_position() {
    let tmp = tempfile::tempdir().unwrap();
    write(
        tmp.path(),
        "pod.yaml",
        b"apiVersion: v1\nkind: Pod\nspec:\n  containers: [\n",
    );
    let run = isolint_in(
        tmp.path(),
        ["audit", "--from", "kubernetes", "pod.yaml"],
        None,
    );
    run.expect_code(2);
    assert_positioned_error(&run, "pod.yaml");
    assert!(run.stdout.is_empty());
    let run = isolint_in(tmp.path(), ["audit", "--from", "helm", "pod.yaml"], None);
    run.expect_code(2);
    assert!(run.stderr.contains("kubernetes"), "{}", run.stderr);
}

/// A known setting with a value of the wrong type is refused by the
/// format's own consumer, so `audit` refuses the file too: exit 2 with the
/// file, line and column, the setting's path and the expected type, and
/// never the value itself (it may be a secret).
#[test]
fn a_wrong_typed_setting_exits_2_naming_its_path() {
    let tmp = tempfile::tempdir().unwrap();
    let cases: [(&str, &str, &[u8], &str); 6] = [
        (
            "kubernetes",
            "policy.yaml",
            b"apiVersion: v1\nkind: Pod\nmetadata: {name: t}\nspec:\n  containers:\n  - name: c\n    image: x\n---\napiVersion: networking.k8s.io/v1\nkind: NetworkPolicy\nmetadata: {name: p}\nspec:\n  podSelector: {}\n  policyTypes: [Egress]\n  egress:\n  - ports: [{port: 80, endPort: tok-sekrit-5678}]\n",
            "`endPort` must be a non-negative whole number, found a string",
        ),
        (
            "kubernetes",
            "pod.yaml",
            b"apiVersion: v1\nkind: Pod\nmetadata: {name: t}\nspec:\n  securityContext:\n    runAsNonRoot: \"0\"\n  containers:\n  - name: c\n    image: x\n",
            "pod.yaml:6:19: `spec.securityContext.runAsNonRoot` must be true or false",
        ),
        (
            "compose",
            "compose.yaml",
            b"services:\n  a:\n    image: x\n    deploy:\n      resources: tok-sekrit-1234\n",
            "compose.yaml:5:18: `services.a.deploy.resources` must be a mapping",
        ),
        (
            "oci",
            "config.json",
            b"{\"ociVersion\": \"1.0.2\", \"process\": {\"args\": [\"sh\"], \"user\": {\"uid\": \"0\"}}}",
            "config.json:1:69: `process.user.uid` must be a whole number",
        ),
        (
            "codex",
            "config.toml",
            b"sandbox_mode = \"workspace-write\"\n[sandbox_workspace_write]\nnetwork_access = \"yes\"\n",
            "config.toml:3:18: `sandbox_workspace_write.network_access` must be true or false",
        ),
        (
            "sandbox-settings",
            "settings.json",
            b"{\"sandbox\": {\"enabled\": true, \"network\": {\"allowLocalBinding\": 1}}}",
            "settings.json:1:64: `sandbox.network.allowLocalBinding` must be true or false",
        ),
    ];
    for (format, file, bytes, want) in cases {
        write(tmp.path(), file, bytes);
        let run = isolint_in(tmp.path(), ["audit", "--from", format, file], None);
        run.expect_code(2);
        assert_positioned_error(&run, file);
        assert!(run.stderr.contains(want), "{format}: {}", run.stderr);
        assert!(!run.stderr.contains("sekrit"), "{}", run.stderr);
        assert!(run.stdout.is_empty());
    }
}

// ---- --fail-on ----------------------------------------------------------

const LEVELS: [&str; 5] = ["critical", "high", "medium", "low", "info"];

/// Whether `doc` (one findings document) holds a non-waived finding at or
/// above `level`, counting only `new` ones when `new_only`.
fn has_finding_at_or_above(doc: &Value, level: &str, new_only: bool) -> bool {
    let rank = |s: &str| LEVELS.iter().position(|l| *l == s).unwrap();
    doc["issues"].as_array().unwrap().iter().any(|i| {
        i["waived"].is_null()
            && rank(i["severity"].as_str().unwrap()) <= rank(level)
            && (!new_only || i["baseline"] == "new")
    })
}

#[test]
fn fail_on_sets_the_exit_code_at_each_level_whatever_the_verdict() {
    for profile in [WORKSHOP, FIXED] {
        let doc = audit(&["--format", "json", profile]).json();
        let mut seen = Vec::new();
        for level in LEVELS {
            let want = i32::from(has_finding_at_or_above(&doc, level, false));
            seen.push(want);
            let run = audit(&["--fail-on", level, "--format", "json", profile]);
            run.expect_code(want);
            // The gate changes the exit code only, never the report.
            assert_eq!(run.json(), doc, "{profile} --fail-on {level}");
        }
        // Lower thresholds can only fail more.
        assert!(seen.windows(2).all(|w| w[0] <= w[1]), "{profile}: {seen:?}");
    }
    // The workshop profile has critical findings: every level fails.
    for level in LEVELS {
        audit(&["--fail-on", level, WORKSHOP]).expect_code(1);
    }
    // The fixed profile is eligible (exit 0 by default) but holds a medium
    // finding: --fail-on medium fails it, --fail-on high does not.
    audit(&[FIXED]).expect_code(0);
    audit(&["--fail-on", "high", FIXED]).expect_code(0);
    audit(&["--fail-on", "critical", FIXED]).expect_code(0);
    audit(&["--fail-on", "medium", FIXED]).expect_code(1);
    audit(&["--fail-on", "info", FIXED]).expect_code(1);
    // Input errors still win.
    audit(&["--fail-on", "critical", FIXED, "no/such/file.json"]).expect_code(2);
    let bad = audit(&["--fail-on", "severe", FIXED]);
    bad.expect_code(2);
    assert!(bad.stderr.contains("critical"), "{}", bad.stderr);
}

#[test]
fn fail_on_ignores_waived_findings() {
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("waivers.json");
    fs::write(
        &file,
        waive_all_blocking(WORKSHOP, "2026-12-31").to_string(),
    )
    .unwrap();
    let w = file.to_str().unwrap();
    let doc = audit(&["--format", "json", "--waivers", w, WORKSHOP]).json();
    assert_eq!(doc["verdict"], "eligible-for-runtime-testing");
    for level in LEVELS {
        let want = i32::from(has_finding_at_or_above(&doc, level, false));
        audit(&["--fail-on", level, "--waivers", w, WORKSHOP]).expect_code(want);
    }
    audit(&["--fail-on", "high", "--waivers", w, WORKSHOP]).expect_code(0);
    audit(&["--fail-on", "medium", "--waivers", w, WORKSHOP]).expect_code(1);
}

// ---- --baseline ---------------------------------------------------------

#[test]
fn a_baseline_marks_findings_new_or_existing_and_keeps_them_all() {
    let tmp = tempfile::tempdir().unwrap();
    let old = tmp.path().join("baseline.json");
    let run = audit(&[
        "--format",
        "json",
        "--output",
        old.to_str().unwrap(),
        WORKSHOP,
    ]);
    run.expect_code(1);
    let mut base = serde_json::from_slice::<Value>(&fs::read(&old).unwrap()).unwrap();
    // The baseline accepted every other finding of the same profile (an
    // accepted finding whose value changes is new: see baseline.rs).
    let mut k = 0;
    base["issues"].as_array_mut().unwrap().retain(|_| {
        k += 1;
        k % 2 == 0
    });
    fs::write(&old, serde_json::to_vec(&base).unwrap()).unwrap();
    // A finding is the same when its rule, its pointer and the value
    // accepted there are (issue 42 item 4: runc `1.2.4` accepted is not
    // runc `1.1.0`).
    let known: std::collections::BTreeSet<(String, String, String)> = base["issues"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| {
            (
                i["rule"].as_str().unwrap().to_string(),
                i["pointer"].as_str().unwrap().to_string(),
                i["value_digest"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    assert!(
        !known.is_empty(),
        "the fixed profile has a finding to carry over"
    );

    let plain = audit(&["--format", "json", WORKSHOP]).json();
    let run = audit(&[
        "--format",
        "json",
        "--baseline",
        old.to_str().unwrap(),
        WORKSHOP,
    ]);
    run.expect_code(1);
    let marked = run.json();
    let issues = marked["issues"].as_array().unwrap();
    assert_eq!(issues.len(), plain["issues"].as_array().unwrap().len());
    assert_eq!(marked["verdict"], plain["verdict"]);
    let (mut new, mut existing) = (0, 0);
    for i in issues {
        let key = (
            i["rule"].as_str().unwrap().to_string(),
            i["pointer"].as_str().unwrap().to_string(),
            i["value_digest"].as_str().unwrap().to_string(),
        );
        let want = if known.contains(&key) {
            existing += 1;
            "existing"
        } else {
            new += 1;
            "new"
        };
        assert_eq!(i["baseline"], want, "{i}");
    }
    assert!(new > 0 && existing > 0, "new {new}, existing {existing}");
    // Without --baseline nothing is marked.
    assert!(plain["issues"]
        .as_array()
        .unwrap()
        .iter()
        .all(|i| i.get("baseline").is_none_or(Value::is_null)));
    // The text report takes a baseline too.
    let text = audit(&[
        "--color",
        "never",
        "--baseline",
        old.to_str().unwrap(),
        WORKSHOP,
    ]);
    text.expect_code(1);
}

#[test]
fn with_a_baseline_fail_on_counts_only_new_findings() {
    let tmp = tempfile::tempdir().unwrap();
    let same = tmp.path().join("same.json");
    fs::write(&same, audit(&["--format", "json", WORKSHOP]).stdout).unwrap();
    let same = same.to_str().unwrap();
    // Nothing is new: every level passes, although the profile is not eligible.
    for level in LEVELS {
        audit(&["--baseline", same, "--fail-on", level, WORKSHOP]).expect_code(0);
    }
    // Without --fail-on the verdict still decides.
    audit(&["--baseline", same, WORKSHOP]).expect_code(1);

    // Against the fixed profile, the workshop profile's new findings count.
    let fixed = tmp.path().join("fixed.json");
    fs::write(&fixed, audit(&["--format", "json", FIXED]).stdout).unwrap();
    let fixed = fixed.to_str().unwrap();
    let doc = audit(&["--format", "json", "--baseline", fixed, WORKSHOP]).json();
    for level in LEVELS {
        let want = i32::from(has_finding_at_or_above(&doc, level, true));
        audit(&["--baseline", fixed, "--fail-on", level, WORKSHOP]).expect_code(want);
    }
    audit(&["--baseline", fixed, "--fail-on", "critical", WORKSHOP]).expect_code(1);

    // The fixed profile against itself: its medium finding is existing.
    audit(&["--baseline", fixed, "--fail-on", "info", FIXED]).expect_code(0);
    audit(&["--fail-on", "info", FIXED]).expect_code(1);
}

#[test]
fn a_baseline_array_from_a_directory_run_is_accepted() {
    let tmp = tempfile::tempdir().unwrap();
    let all = tmp.path().join("all.json");
    let run = audit(&["--format", "json", "fixtures/profiles"]);
    run.expect_code(1);
    assert!(run.json().is_array());
    fs::write(&all, &run.stdout).unwrap();
    let run = audit(&[
        "--format",
        "json",
        "--baseline",
        all.to_str().unwrap(),
        "--fail-on",
        "info",
        "fixtures/profiles",
    ]);
    // Both profiles are named parser-tests, so every finding of either is known.
    run.expect_code(0);
    for doc in run.json().as_array().unwrap() {
        for i in doc["issues"].as_array().unwrap() {
            assert_eq!(i["baseline"], "existing", "{i}");
        }
    }
}

#[test]
fn a_bad_baseline_exits_2_naming_its_file_and_position() {
    for file in [
        "fixtures/cli/baseline-trailing-comma.json",
        "fixtures/cli/baseline-wrong-schema.json",
        "fixtures/cli/baseline-incomplete.json",
    ] {
        let run = audit(&["--baseline", file, WORKSHOP]);
        run.expect_code(2);
        assert_positioned_error(&run, file);
        assert!(
            run.stdout.is_empty(),
            "{file}: no report with a bad baseline"
        );
    }
    let run = audit(&[
        "--baseline",
        "fixtures/cli/baseline-wrong-schema.json",
        WORKSHOP,
    ]);
    assert!(run.stderr.contains("isolint.findings/v1"), "{}", run.stderr);
    let run = audit(&["--baseline", "no/such/baseline.json", WORKSHOP]);
    run.expect_code(2);
    assert!(
        run.stderr
            .contains("no/such/baseline.json: cannot read: no such file or directory"),
        "{}",
        run.stderr
    );
    // A profile is not a baseline.
    let run = audit(&["--baseline", FIXED, WORKSHOP]);
    run.expect_code(2);
    assert_positioned_error(&run, FIXED);
}

// ---- more waivers: hash mismatch, planted in a writable mount ------------

#[test]
fn a_waiver_for_another_version_of_the_profile_waives_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("waivers.json");
    fs::write(
        &file,
        waive_all_blocking(WORKSHOP, "2026-12-31").to_string(),
    )
    .unwrap();
    // The same profile with one byte more: another sha256.
    let mut edited = fs::read(root().join(WORKSHOP)).unwrap();
    edited.push(b'\n');
    let profile = tmp.path().join("workshop.json");
    fs::write(&profile, &edited).unwrap();

    let run = audit(&[
        "--format",
        "json",
        "--waivers",
        file.to_str().unwrap(),
        profile.to_str().unwrap(),
    ]);
    run.expect_code(1);
    let doc = run.json();
    assert_eq!(doc["verdict"], "not-eligible");
    let issues = doc["issues"].as_array().unwrap();
    assert!(
        issues.iter().all(|i| i["waived"].is_null()),
        "nothing is waived"
    );
    assert!(
        issues.iter().any(|i| i["rule"] == "PRF007"),
        "the mismatched waivers are findings of their own"
    );
    audit(&[
        "--fail-on",
        "critical",
        "--waivers",
        file.to_str().unwrap(),
        profile.to_str().unwrap(),
    ])
    .expect_code(1);
}

#[test]
fn an_expired_waiver_waives_nothing_and_is_a_finding() {
    let tmp = tempfile::tempdir().unwrap();
    let file = tmp.path().join("waivers.json");
    fs::write(
        &file,
        waive_all_blocking(WORKSHOP, "2026-12-31").to_string(),
    )
    .unwrap();
    let late = |extra: &[&str]| {
        let mut args = vec![
            "audit",
            "--today",
            "2027-01-01",
            "--waivers",
            file.to_str().unwrap(),
        ];
        args.extend_from_slice(extra);
        args.push(WORKSHOP);
        isolint(args)
    };
    let run = late(&["--format", "json"]);
    run.expect_code(1);
    let doc = run.json();
    assert_eq!(doc["verdict"], "not-eligible");
    let issues = doc["issues"].as_array().unwrap();
    assert!(issues.iter().all(|i| i["waived"].is_null()));
    assert!(issues.iter().any(|i| i["rule"] == "PRF006"));
    late(&["--fail-on", "high"]).expect_code(1);
    // The last valid day still waives.
    let run = isolint([
        "audit",
        "--today",
        "2026-12-31",
        "--fail-on",
        "high",
        "--waivers",
        file.to_str().unwrap(),
        WORKSHOP,
    ]);
    run.expect_code(0);
}

/// issue 21 item 3: a writable mount given as a relative source or through
/// a link still let the job's own waivers apply. Both sides are resolved
/// alike; a source that cannot be resolved counts as covering the file.
#[test]
fn waivers_under_a_writable_mount_are_refused_however_the_source_is_spelled() {
    let tmp = tempfile::tempdir().unwrap();
    let d = fs::canonicalize(tmp.path()).unwrap();
    fs::create_dir_all(d.join("ops")).unwrap();
    fs::create_dir_all(d.join("elsewhere")).unwrap();
    std::os::unix::fs::symlink("ops", d.join("opslink")).unwrap();
    std::os::unix::fs::symlink(d.join("ops"), d.join("elsewhere/abslink")).unwrap();
    let scratch = "/srv/workshop/scratch/job-17";
    let fixed = fs::read_to_string(root().join(FIXED)).unwrap();
    let abs = d.to_str().unwrap();
    // (mount source, waivers path as given, whether the waiver may apply)
    let cases: Vec<(String, String, bool)> = [
        ("elsewhere", "ops/waivers.json", true),
        ("ops", "ops/waivers.json", false),
        ("./ops", "ops/waivers.json", false),
        ("ops/", "ops/waivers.json", false),
        ("ops//.", "ops/waivers.json", false),
        (".", "ops/waivers.json", false),
        ("..", "ops/waivers.json", false),
        ("opslink", "ops/waivers.json", false),
        ("ops", "opslink/waivers.json", false),
        ("elsewhere/abslink", "ops/waivers.json", false),
        ("@/opslink", "ops/waivers.json", false),
        ("@/elsewhere/../opslink", "ops/waivers.json", false),
        ("missing/../ops", "ops/waivers.json", false),
        ("${OPS_DIR}", "ops/waivers.json", false),
        // `~user`: a shell expands it to that user's home, which isolint
        // does not look up; it may hold the file.
        ("~nosuchuser/ops", "ops/waivers.json", false),
        ("~root", "ops/waivers.json", false),
        ("elsewhere", "elsewhere/abslink/waivers.json", false),
    ]
    .iter()
    .map(|(m, w, ok)| (m.replace('@', abs), w.to_string(), *ok))
    .collect();
    for (mount, wpath, applies) in cases {
        let text = fixed.replace(scratch, &mount);
        fs::write(d.join("job.json"), &text).unwrap();
        let waivers = waivers_for_a_medium_finding(&d);
        fs::write(d.join("ops/waivers.json"), waivers.to_string()).unwrap();
        for profile in ["job.json", "./job.json", &format!("{abs}/job.json")] {
            let run = isolint_in(
                &d,
                [
                    "audit",
                    "--today",
                    TODAY,
                    "--format",
                    "json",
                    "--waivers",
                    &wpath,
                    profile,
                ],
                None,
            );
            let doc = run.json();
            let issues = doc["issues"].as_array().unwrap();
            let waived = issues.iter().any(|i| !i["waived"].is_null());
            let prf008 = issues.iter().any(|i| i["rule"] == "PRF008");
            assert_eq!(
                waived, applies,
                "mount {mount:?}, waivers {wpath}, profile {profile}: {doc}"
            );
            assert_eq!(
                prf008, !applies,
                "mount {mount:?}, waivers {wpath}, profile {profile}"
            );
            if !applies {
                run.expect_code(1);
            }
        }
    }
}

/// Audit `job.json` in `d`, waive its first medium finding with `isolint
/// waive`, and return the waivers document holding that entry.
fn waivers_for_a_medium_finding(d: &Path) -> serde_json::Value {
    let doc = isolint_in(
        d,
        ["audit", "--today", TODAY, "--format", "json", "job.json"],
        None,
    )
    .json();
    let target = doc["issues"]
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i["severity"] == "medium")
        .expect("a medium finding")
        .clone();
    let entry = isolint_in(
        d,
        [
            "waive",
            "--rule",
            target["rule"].as_str().unwrap(),
            "--pointer",
            target["pointer"].as_str().unwrap(),
            "--reason",
            "accepted",
            "--owner",
            "ops",
            "--expires",
            "2026-12-31",
            "--today",
            TODAY,
            "job.json",
        ],
        None,
    );
    entry.expect_code(0);
    serde_json::json!({ "schema": "isolint.waivers/v1", "waivers": [entry.json()] })
}

/// issue 21 item 3, by hard link: the waivers file has a second name
/// inside a writable mount, through which the job can rewrite it. Paths
/// cannot show that; a file with several names counts as reachable from
/// every mount on its file system.
#[test]
fn a_waivers_file_with_another_name_in_a_writable_mount_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let d = fs::canonicalize(tmp.path()).unwrap();
    fs::create_dir_all(d.join("ops")).unwrap();
    fs::create_dir_all(d.join("scratch")).unwrap();
    let fixed = fs::read_to_string(root().join(FIXED)).unwrap();
    let text = fixed.replace(
        "/srv/workshop/scratch/job-17",
        d.join("scratch").to_str().unwrap(),
    );
    fs::write(d.join("job.json"), &text).unwrap();
    let waivers = waivers_for_a_medium_finding(&d);
    fs::write(d.join("ops/waivers.json"), waivers.to_string()).unwrap();
    let waived = || {
        let run = isolint_in(
            &d,
            [
                "audit",
                "--today",
                TODAY,
                "--format",
                "json",
                "--waivers",
                "ops/waivers.json",
                "job.json",
            ],
            None,
        );
        let doc = run.json();
        let issues = doc["issues"].as_array().unwrap().clone();
        (
            issues.iter().any(|i| !i["waived"].is_null()),
            issues.iter().any(|i| i["rule"] == "PRF008"),
        )
    };
    // One name, outside every mount: it applies.
    assert_eq!(waived(), (true, false));
    // A second name in the writable scratch mount: refused.
    fs::hard_link(d.join("ops/waivers.json"), d.join("scratch/w.json")).unwrap();
    assert_eq!(waived(), (false, true));
}

#[test]
fn a_waivers_file_inside_a_writable_mount_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let shared = fs::canonicalize(tmp.path()).unwrap().join("shared");
    fs::create_dir_all(shared.join("ops")).unwrap();
    // The workshop profile, its scratch mount pointed at a real directory.
    let text = fs::read_to_string(root().join(FIXED)).unwrap();
    let scratch = "/srv/workshop/scratch/job-17";
    assert!(text.contains(scratch));
    let text = text.replace(scratch, shared.to_str().unwrap());
    let profile = tmp.path().join("job.json");
    fs::write(&profile, &text).unwrap();
    let profile = profile.to_str().unwrap();

    let blocking = |doc: &Value| {
        doc["issues"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|i| ["critical", "high"].contains(&i["severity"].as_str().unwrap()))
            .count()
    };
    // A medium finding to waive, so there is something at stake.
    let doc = audit(&["--format", "json", profile]).json();
    let target = doc["issues"]
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i["severity"] == "medium")
        .expect("a medium finding")
        .clone();
    let entry = isolint([
        "waive",
        "--rule",
        target["rule"].as_str().unwrap(),
        "--pointer",
        target["pointer"].as_str().unwrap(),
        "--reason",
        "accepted",
        "--owner",
        "ops",
        "--expires",
        "2026-12-31",
        "--today",
        TODAY,
        profile,
    ]);
    entry.expect_code(0);
    let waivers = serde_json::json!({ "schema": "isolint.waivers/v1", "waivers": [entry.json()] });

    // Outside every mount: applied.
    let outside = tmp.path().join("ops-waivers.json");
    fs::write(&outside, waivers.to_string()).unwrap();
    let run = audit(&[
        "--format",
        "json",
        "--waivers",
        outside.to_str().unwrap(),
        profile,
    ]);
    let ok = run.json();
    assert!(ok["issues"]
        .as_array()
        .unwrap()
        .iter()
        .any(|i| i["rule"] == target["rule"] && !i["waived"].is_null()));
    assert_eq!(blocking(&ok), blocking(&doc));

    // Planted inside the job's writable scratch mount: refused, a finding.
    let planted = shared.join("ops/waivers.json");
    fs::write(&planted, waivers.to_string()).unwrap();
    let run = audit(&[
        "--format",
        "json",
        "--waivers",
        planted.to_str().unwrap(),
        profile,
    ]);
    run.expect_code(1);
    let doc = run.json();
    assert_eq!(doc["verdict"], "not-eligible");
    let issues = doc["issues"].as_array().unwrap();
    assert!(
        issues.iter().all(|i| i["waived"].is_null()),
        "no waiver applies"
    );
    let prf008 = issues
        .iter()
        .find(|i| i["rule"] == "PRF008")
        .expect("a finding for the planted waivers file");
    assert!(prf008["pointer"].as_str().unwrap().starts_with("/mounts/"));
    audit(&[
        "--fail-on",
        "high",
        "--waivers",
        planted.to_str().unwrap(),
        profile,
    ])
    .expect_code(1);
}

// ---- Markdown and GitHub formats, completions ----------------------------

#[test]
fn markdown_and_github_formats_cover_every_profile_argument() {
    let md = audit(&["--format", "markdown", WORKSHOP, FIXED]);
    md.expect_code(1);
    assert_eq!(md.stdout_str().matches("## isolint: ").count(), 2);
    let gh = audit(&["--format", "github", "--fail-on", "critical", FIXED]);
    gh.expect_code(0);
    assert!(gh.stdout_str().lines().all(|l| l.starts_with("::")));
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("comment.md");
    audit(&["--format", "markdown", "-o", out.to_str().unwrap(), FIXED]).expect_code(0);
    assert!(fs::read_to_string(&out)
        .unwrap()
        .starts_with("## isolint: "));
}

#[test]
fn completions_are_printed_for_every_shell() {
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let run = isolint(["completions", shell]);
        run.expect_code(0);
        let out = run.stdout_str();
        assert!(out.contains("isolint"), "{shell}");
        for sub in ["audit", "import", "--fail-on", "--baseline"] {
            assert!(out.contains(sub), "{shell} completes {sub}");
        }
    }
    isolint(["completions", "tcsh"]).expect_code(2);
    isolint(["completions"]).expect_code(2);
}

// ---- isolint import -----------------------------------------------------

const TWO_SERVICES: &str = "fixtures/cli/compose-two-services.yaml";

#[test]
fn import_prints_the_profile_and_explains_what_did_not_carry_over() {
    let run = isolint(["import", "fixtures/import/kubernetes/pod-home.yaml"]);
    run.expect_code(0);
    let profile = run.json();
    assert_eq!(profile["schema"], "isolint.profile/v1");
    let note =
        regex::Regex::new(r"(?m)^note: fixtures/import/kubernetes/pod-home\.yaml:\d+:\d+: \S")
            .unwrap();
    assert!(note.is_match(&run.stderr), "{}", run.stderr);
    let undeclared = regex::Regex::new(r"(?m)^not declared: /\S+( \[[^]]+\])?: \S").unwrap();
    assert!(undeclared.is_match(&run.stderr), "{}", run.stderr);
    assert!(!run.stderr.contains("error"), "{}", run.stderr);

    // The generated profile audits to the same findings as the original.
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("pod.json");
    let written = isolint([
        "import",
        "fixtures/import/kubernetes/pod-home.yaml",
        "--output",
        out.to_str().unwrap(),
    ]);
    written.expect_code(0);
    assert!(written.stdout.is_empty());
    assert_eq!(
        serde_json::from_slice::<Value>(&fs::read(&out).unwrap()).unwrap(),
        profile
    );
    let rules_of = |doc: &Value| -> Vec<(String, String)> {
        doc["issues"]
            .as_array()
            .unwrap()
            .iter()
            .map(|i| {
                (
                    i["rule"].as_str().unwrap().into(),
                    i["pointer"].as_str().unwrap().into(),
                )
            })
            .collect()
    };
    let direct = audit(&[
        "--format",
        "json",
        "fixtures/import/kubernetes/pod-home.yaml",
    ])
    .json();
    let via = audit(&["--format", "json", out.to_str().unwrap()]).json();
    assert_eq!(rules_of(&direct), rules_of(&via));
}

/// issue 21 item 11: `import -o DIR/` wrote one profile over another when
/// two resources shared a name (`Pod ci/x`, `Pod staging/x`). A collision is
/// an error, and nothing is written.
#[test]
fn import_into_a_directory_never_writes_one_profile_over_another() {
    let pod = |ns: &str, name: &str| {
        format!(
            "apiVersion: v1\nkind: Pod\nmetadata:\n  name: {name}\n  namespace: {ns}\nspec:\n  containers:\n    - name: c\n      image: busybox@sha256:{}\n",
            "0".repeat(64)
        )
    };
    // One resource name in two namespaces: two files, each named with its
    // namespace, each the profile of its own pod.
    let tmp = tempfile::tempdir().unwrap();
    let text = format!("{}---\n{}", pod("ci", "x"), pod("staging", "x"));
    write(tmp.path(), "pods.yaml", text.as_bytes());
    let out = format!("{}/out/", tmp.path().display());
    let run = isolint([
        "import",
        tmp.path().join("pods.yaml").to_str().unwrap(),
        "-o",
        &out,
    ]);
    run.expect_code(0);
    let mut written: Vec<String> = fs::read_dir(tmp.path().join("out"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    written.sort();
    assert_eq!(
        written,
        ["pods.ci_Pod_x_c.json", "pods.staging_Pod_x_c.json"]
    );
    for ns in ["ci", "staging"] {
        let p: serde_json::Value = serde_json::from_slice(
            &fs::read(tmp.path().join(format!("out/pods.{ns}_Pod_x_c.json"))).unwrap(),
        )
        .unwrap();
        assert_eq!(p["name"], format!("{ns}/Pod/x/c"));
    }
    // Names that would share a file: the same one twice, one differing
    // only in case, or only in characters written as `_`.
    let pod_c = |ns: &str, name: &str, c: &str| {
        pod(ns, name).replace("- name: c\n", &format!("- name: {c}\n"))
    };
    let cases = [
        (
            "safe.yaml",
            format!(
                "{}---\n{}",
                pod_c("ci", "x_y", "c"),
                pod_c("ci", "x", "y_c")
            ),
        ),
        (
            "pods.yaml",
            format!("{}---\n{}", pod("ci", "x"), pod("ci", "x")),
        ),
        (
            "case.yaml",
            format!("{}---\n{}", pod("ci", "Web"), pod("ci", "web")),
        ),
        (
            "compose.yaml",
            "services:\n  Web:\n    image: a\n  web:\n    image: b\n".to_string(),
        ),
    ];
    for (file, text) in cases {
        let tmp = tempfile::tempdir().unwrap();
        write(tmp.path(), file, text.as_bytes());
        let out = format!("{}/out/", tmp.path().display());
        let run = isolint([
            "import",
            tmp.path().join(file).to_str().unwrap(),
            "-o",
            &out,
        ]);
        run.expect_code(2);
        assert!(
            run.stderr.contains("would both be written there"),
            "{file}: {}",
            run.stderr
        );
        let written = fs::read_dir(tmp.path().join("out"))
            .map(|d| d.count())
            .unwrap_or(0);
        assert_eq!(written, 0, "{file}: nothing is written");
    }
}

#[test]
fn import_of_several_profiles_gives_an_array_or_one_file_each() {
    let run = isolint(["import", TWO_SERVICES]);
    run.expect_code(0);
    let all = run.json();
    let names: Vec<&str> = all
        .as_array()
        .expect("two services, an array")
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["tests", "lint"]);
    assert!(
        run.stderr.contains("[tests]") && run.stderr.contains("[lint]"),
        "{}",
        run.stderr
    );

    let tmp = tempfile::tempdir().unwrap();
    let dir = format!("{}/profiles/", tmp.path().display());
    let run = isolint(["import", TWO_SERVICES, "-o", &dir]);
    run.expect_code(0);
    assert!(run.stdout.is_empty());
    let mut files: Vec<String> = fs::read_dir(tmp.path().join("profiles"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    files.sort();
    assert_eq!(
        files,
        [
            "compose-two-services.lint.json",
            "compose-two-services.tests.json"
        ]
    );
    // Each written profile is audited on its own.
    let run = audit(&[
        "--format",
        "json",
        tmp.path().join("profiles").to_str().unwrap(),
    ]);
    run.expect_code(1);
    assert_eq!(run.json().as_array().map(Vec::len), Some(2));
}

#[test]
fn import_reads_stdin_with_a_named_format() {
    let pod = fs::read(root().join("fixtures/import/kubernetes/pod-home.yaml")).unwrap();
    let run = isolint_in(&root(), ["import", "--from", "k8s", "-"], Some(&pod));
    run.expect_code(0);
    assert_eq!(run.json()["schema"], "isolint.profile/v1");
    assert!(run.stderr.contains("note: <stdin>:"), "{}", run.stderr);
}

#[test]
fn import_errors_exit_2_with_the_position() {
    let bad = "fixtures/import/malformed/compose-unterminated.yaml";
    let run = isolint(["import", bad]);
    run.expect_code(2);
    assert_positioned_error(&run, bad);
    assert!(run.stdout.is_empty());
    // A format that does not fit the content.
    let run = isolint(["import", "--from", "codex", TWO_SERVICES]);
    run.expect_code(2);
    assert_positioned_error(&run, TWO_SERVICES);
    // A profile needs no import; an unknown format is a usage error.
    let run = isolint(["import", WORKSHOP]);
    run.expect_code(2);
    assert!(run.stderr.contains("audit it directly"), "{}", run.stderr);
    isolint(["import", "--from", "helm", TWO_SERVICES]).expect_code(2);
    let run = isolint(["import", "no/such.yaml"]);
    run.expect_code(2);
    assert!(
        run.stderr.contains("no/such.yaml: cannot read"),
        "{}",
        run.stderr
    );
    // An output that cannot be written leaves nothing behind.
    let tmp = tempfile::tempdir().unwrap();
    let missing = tmp.path().join("no/dir/p.json");
    isolint(["import", TWO_SERVICES, "-o", missing.to_str().unwrap()]).expect_code(2);
    assert!(!missing.exists());
}

// ---- GitHub Action (action.yml, scripts/action-run.sh) -------------------

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
