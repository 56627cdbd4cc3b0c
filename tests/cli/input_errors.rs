//! Bad input of every kind, label catalogs, and the adversarial corpus.

use crate::common::*;

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
