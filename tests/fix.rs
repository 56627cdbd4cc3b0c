//! `isolint fix`: golden diffs of fixtures/fix/, exit codes, `--apply`
//! writing only the files named, unsafe fixes held back, the JSON form and
//! the refusal of formats it cannot fix yet.
//!
//! Re-bless the goldens with `ISOLINT_BLESS=1`.

use isolint_acceptance::{isolint, isolint_in, root};

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
    let cases = [
        ("native-workshop.json", &[][..], "native-workshop.diff"),
        (
            "native-workshop.json",
            &["--unsafe-fixes"][..],
            "native-workshop.unsafe.diff",
        ),
        ("native-compact.json", &[][..], "native-compact.diff"),
        (
            "native-compact.json",
            &["--unsafe-fixes"][..],
            "native-compact.unsafe.diff",
        ),
    ];
    let wrong: Vec<String> = cases
        .iter()
        .filter_map(|(i, a, e)| golden(i, a, e))
        .collect();
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn the_diff_exits_1_when_something_is_fixable_and_0_when_not() {
    let run = isolint(["fix", "fixtures/fix/native-workshop.json"]);
    run.expect_code(1);
    assert!(run.stdout_str().starts_with("--- a/"));
    assert!(run.stderr.contains("Found 47 findings"), "{}", run.stderr);
    assert!(
        run.stderr.contains("more with --unsafe-fixes"),
        "{}",
        run.stderr
    );
    // The fixed profile has nothing left to fix.
    let run = isolint(["fix", "fixtures/profiles/workshop-fixed.json"]);
    run.expect_code(0);
    assert!(run.stdout.is_empty());
}

#[test]
fn apply_writes_the_fixed_file_and_a_second_run_finds_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("job.json");
    let original =
        std::fs::read_to_string(root().join("fixtures/fix/native-compact.json")).unwrap();
    std::fs::write(&file, &original).unwrap();
    let diff = isolint_in(dir.path(), ["fix", "job.json"], None);
    diff.expect_code(1);
    assert_eq!(
        std::fs::read_to_string(&file).unwrap(),
        original,
        "--diff wrote"
    );
    isolint_in(dir.path(), ["fix", "--apply", "job.json"], None).expect_code(1);
    let fixed = std::fs::read_to_string(&file).unwrap();
    assert_ne!(fixed, original);
    assert!(fixed.contains("\"privileged\":false"), "{fixed}");
    // The unsafe fixes were held back: the socket mount is still there.
    assert!(fixed.contains("docker.sock"), "{fixed}");
    isolint_in(dir.path(), ["fix", "job.json"], None).expect_code(0);
    isolint_in(
        dir.path(),
        ["fix", "--apply", "--unsafe-fixes", "job.json"],
        None,
    );
    let fixed = std::fs::read_to_string(&file).unwrap();
    assert!(!fixed.contains("docker.sock"), "{fixed}");
}

#[test]
fn apply_refuses_what_was_not_named_as_a_file() {
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("real.json");
    std::fs::copy(root().join("fixtures/fix/native-compact.json"), &target).unwrap();
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink(&target, dir.path().join("link.json")).unwrap();
        let run = isolint_in(dir.path(), ["fix", "--apply", "link.json"], None);
        run.expect_code(2);
        assert!(run.stderr.contains("symbolic link"), "{}", run.stderr);
    }
    let run = isolint_in(dir.path(), ["fix", "--apply", "."], None);
    run.expect_code(2);
    let run = isolint_in(dir.path(), ["fix", "--apply", "-"], Some(b"{}"));
    run.expect_code(2);
    let original =
        std::fs::read_to_string(root().join("fixtures/fix/native-compact.json")).unwrap();
    assert_eq!(std::fs::read_to_string(&target).unwrap(), original);
}

#[test]
fn rule_selection_and_json_give_the_edits_as_data() {
    let run = isolint([
        "fix",
        "--format",
        "json",
        "--rule",
        "PRV001",
        "fixtures/fix/native-compact.json",
    ]);
    run.expect_code(1);
    let doc = run.json();
    assert_eq!(doc["schema"], "isolint.fix/v1");
    let file = &doc["files"][0];
    let applied = file["applied"].as_array().unwrap();
    assert_eq!(applied.len(), 1);
    assert_eq!(applied[0]["rule"], "PRV001");
    assert_eq!(applied[0]["applicability"], "safe");
    let edit = &file["edits"][0];
    assert_eq!(edit["content"], "false");
    let text = std::fs::read_to_string(root().join("fixtures/fix/native-compact.json")).unwrap();
    let (s, e) = (
        edit["start"].as_u64().unwrap() as usize,
        edit["end"].as_u64().unwrap() as usize,
    );
    assert_eq!(&text[s..e], "true");
    isolint([
        "fix",
        "--rule",
        "NOPE001",
        "fixtures/fix/native-compact.json",
    ])
    .expect_code(2);
}

#[test]
fn secrets_are_not_echoed_in_the_diff() {
    let run = isolint(["fix", "--unsafe-fixes", "fixtures/fix/native-workshop.json"]);
    let text = std::fs::read_to_string(root().join("fixtures/fix/native-workshop.json")).unwrap();
    let secret = text
        .split("\"AWS_SECRET_ACCESS_KEY\": \"")
        .nth(1)
        .and_then(|r| r.split('"').next())
        .unwrap();
    assert!(secret.len() > 10);
    assert!(!run.stdout_str().contains(secret));
    assert!(!run.stderr.contains(secret));
}

/// Kubernetes and Compose fixes land with the YAML editor; until then
/// every fix of theirs is refused, named, and nothing is edited.
#[test]
fn a_kubernetes_file_gets_its_fixes_as_yaml_edits() {
    // The placeholder refused every imported format; the YAML editor
    // writes the safe fixes in the manifest's own terms, and without
    // `--apply` the file is left as it was.
    let path = root().join("fixtures/import/kubernetes/cronjob-secrets.yaml");
    let before = std::fs::read(&path).unwrap();
    let run = isolint(["fix".as_ref(), path.as_os_str()]);
    run.expect_code(1);
    let diff = run.stdout_str();
    assert!(
        diff.contains("+") && diff.contains("allowPrivilegeEscalation: false"),
        "{diff}"
    );
    assert!(
        !diff.contains("\"privileged\""),
        "profile terms in a YAML diff: {diff}"
    );
    assert_eq!(
        std::fs::read(&path).unwrap(),
        before,
        "a dry run edited the file"
    );
}
