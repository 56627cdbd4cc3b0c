//! Waivers and baselines: what they waive, what they refuse.

use crate::common::*;
use crate::exit_codes::{has_finding_at_or_above, LEVELS};

/// `isolint waive` entries for every blocking finding of `profile`.
pub(crate) fn waive_all_blocking(profile: &str, expires: &str) -> Value {
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
