//! `explain`, `rules`, `schema`, help, completions, a closed pipe.

use crate::common::*;

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
