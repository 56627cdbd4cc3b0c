//! `isolint import` and auditing the other formats.

use crate::common::*;

pub(crate) const POD: &str = "apiVersion: v1
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

pub(crate) const TWO_SERVICES: &str = "fixtures/cli/compose-two-services.yaml";

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
        // Two profiles of one name are refused as the file is read (they
        // could not be told apart in any report); names that differ only
        // in case are refused where they would land on one file.
        assert!(
            run.stderr.contains("would both be written there")
                || run.stderr.contains("a second profile is named"),
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
