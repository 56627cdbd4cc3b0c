//! The JSON Schemas in `core/schemas/` against the code that reads and
//! writes those formats, so neither can drift from the other:
//! - every `enum` in a schema equals the matching `StringEnum::VALUES`;
//! - every property the profile schema names is a field the decoder knows,
//!   and a schema-valid profile never raises a profile-format finding;
//! - fixture profiles, catalogs and real exports validate.

use std::fs;
use std::path::{Path, PathBuf};

use isolint_acceptance::{root, Validator};
use isolint_core::finding::{Area, CheckKind, Severity, Waived};
use isolint_core::labels::LabelClass;
use isolint_core::model::*;
use isolint_core::render::{json as export, sarif};
use isolint_core::{audit, import, schema, AuditOptions, Date, Labels};
use serde_json::{json, Value};

fn load(name: &str) -> Value {
    let text = schema::by_name(name).unwrap_or_else(|| panic!("schema {name}"));
    serde_json::from_str(text).unwrap_or_else(|e| panic!("{name} schema is not JSON: {e}"))
}

fn options() -> AuditOptions {
    AuditOptions {
        today: Date::parse("2026-11-29"),
    }
}

/// Every `*.json` file under `dir`, recursively, sorted.
fn json_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in fs::read_dir(&d).into_iter().flatten().flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "json") {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// Every `enum` in a schema, by the pointer of the schema object holding it.
fn enums(v: &Value, at: &str, out: &mut Vec<(String, Vec<String>)>) {
    match v {
        Value::Object(map) => {
            if let Some(Value::Array(values)) = map.get("enum") {
                out.push((
                    at.to_string(),
                    values
                        .iter()
                        .map(|v| v.as_str().unwrap().to_string())
                        .collect(),
                ));
            }
            for (k, sub) in map {
                if k != "enum" && k != "examples" {
                    enums(
                        sub,
                        &format!("{at}/{}", k.replace('~', "~0").replace('/', "~1")),
                        out,
                    );
                }
            }
        }
        Value::Array(items) => {
            for (i, sub) in items.iter().enumerate() {
                enums(sub, &format!("{at}/{i}"), out);
            }
        }
        _ => {}
    }
}

fn values<E: StringEnum>() -> Vec<String> {
    E::VALUES.iter().map(|s| s.to_string()).collect()
}

#[test]
fn every_schema_enum_equals_the_code_enum() {
    let expected: Vec<(&str, &str, Vec<String>)> = vec![
        ("profile", "/$defs/tenancy", values::<Tenancy>()),
        ("profile", "/$defs/boundary_kind", values::<BoundaryKind>()),
        ("profile", "/$defs/namespace", values::<Namespace>()),
        ("profile", "/$defs/seccomp", values::<Seccomp>()),
        ("profile", "/$defs/terminal", values::<Terminal>()),
        ("profile", "/$defs/unix_sockets", values::<UnixSockets>()),
        ("profile", "/$defs/confinement", values::<Confinement>()),
        ("profile", "/$defs/access", values::<Access>()),
        ("profile", "/$defs/egress", values::<Egress>()),
        (
            "profile",
            "/$defs/network_enforcement",
            values::<NetworkEnforcement>(),
        ),
        ("profile", "/$defs/dns", values::<Dns>()),
        (
            "profile",
            "/$defs/credential_source",
            values::<CredentialSource>(),
        ),
        (
            "profile",
            "/$defs/credential_scope",
            values::<CredentialScope>(),
        ),
        ("profile", "/$defs/exposure", values::<Exposure>()),
        (
            "profile",
            "/$defs/limit_enforcement",
            values::<LimitEnforcement>(),
        ),
        ("profile", "/$defs/timeout_kills", values::<TimeoutKills>()),
        ("profile", "/$defs/release_after", values::<ReleaseAfter>()),
        ("profile", "/$defs/prepared_in", values::<PreparedIn>()),
        ("profile", "/$defs/on_failure", values::<OnFailure>()),
        ("labels", "/$defs/label_class", values::<LabelClass>()),
        ("findings", "/$defs/area", values::<Area>()),
        ("findings", "/$defs/severity", values::<Severity>()),
        ("findings", "/$defs/check_kind", values::<CheckKind>()),
        (
            "findings",
            "/$defs/expect",
            values::<isolint_core::plan::Expect>(),
        ),
        (
            "findings",
            "/$defs/limit_name",
            values::<isolint_core::plan::LimitName>(),
        ),
        (
            "findings",
            "/$defs/document/properties/verdict",
            vec!["eligible-for-runtime-testing".into(), "not-eligible".into()],
        ),
        (
            "findings",
            "/$defs/issue/properties/baseline",
            vec!["new".into(), "existing".into()],
        ),
    ];
    for name in ["profile", "labels", "findings"] {
        let mut found = Vec::new();
        enums(&load(name), "", &mut found);
        for (ptr, vals) in &found {
            let Some((_, _, want)) = expected.iter().find(|(n, p, _)| *n == name && p == ptr)
            else {
                panic!("{name} schema: enum at {ptr} has no code counterpart in this test; add it");
            };
            assert_eq!(vals, want, "{name} schema {ptr} drifted from the code");
        }
        for (n, p, _) in expected.iter().filter(|(n, _, _)| *n == name) {
            assert!(
                found.iter().any(|(fp, _)| fp == p),
                "{n} schema has no enum at {p}"
            );
        }
    }
    // The verdict strings come from core too.
    assert_eq!(
        isolint_core::Verdict::EligibleForRuntimeTesting.as_str(),
        "eligible-for-runtime-testing"
    );
    assert_eq!(isolint_core::Verdict::NotEligible.as_str(), "not-eligible");
}

/// Every object schema closes its properties and every property says what it is.
fn check_closed_and_described(v: &Value, at: &str, problems: &mut Vec<String>) {
    let Some(map) = v.as_object() else { return };
    if map.get("type") == Some(&json!("object")) {
        // Maps of names chosen by the author: variables, sysctls, hosts.
        let open_by_design = ["/evidence", "/variables", "/sysctls", "/hosts"]
            .iter()
            .any(|s| at.ends_with(s));
        if !open_by_design && map.get("additionalProperties") != Some(&json!(false)) {
            problems.push(format!(
                "{at}: object without `additionalProperties: false`"
            ));
        }
    }
    if let Some(Value::Object(props)) = map.get("properties") {
        for (name, sub) in props {
            let p = format!("{at}/properties/{name}");
            if sub
                .get("description")
                .and_then(Value::as_str)
                .is_none_or(str::is_empty)
            {
                problems.push(format!("{p}: no description"));
            }
            check_closed_and_described(sub, &p, problems);
        }
    }
    for key in ["items", "additionalProperties"] {
        if let Some(sub) = map.get(key) {
            check_closed_and_described(sub, &format!("{at}/{key}"), problems);
        }
    }
    if let Some(Value::Object(defs)) = map.get("$defs") {
        for (name, sub) in defs {
            check_closed_and_described(sub, &format!("{at}/$defs/{name}"), problems);
        }
    }
}

#[test]
fn schemas_are_2020_12_closed_and_described() {
    for name in ["profile", "labels", "findings"] {
        let s = load(name);
        assert_eq!(
            s["$schema"], "https://json-schema.org/draft/2020-12/schema",
            "{name}"
        );
        assert!(
            s["description"].as_str().is_some_and(|d| d.len() > 40),
            "{name}"
        );
        let mut problems = Vec::new();
        check_closed_and_described(&s, "", &mut problems);
        assert!(
            problems.is_empty(),
            "{name} schema:\n{}",
            problems.join("\n")
        );
    }
}

/// A profile declaring every field of SPEC §2.
fn complete_profile() -> Value {
    json!({
      "schema": "isolint.profile/v1",
      "name": "parser-tests",
      "route": "test isolation",
      "purpose": "run the date parser tests on a candidate patch",
      "tenancy": "internal",
      "needs": { "inputs": ["source-snapshot"], "outputs": ["scratch"], "services": [] },
      "boundary": {
        "kind": "container", "label": "hardened",
        "runtime": { "name": "runc", "version": "1.2.4", "patched_on": "2026-10-01" },
        "privileged": false, "capabilities": { "add": [], "drop": ["ALL"] },
        "user": "1000:1000", "no_new_privileges": true, "host_namespaces": [],
        "seccomp": "default", "read_only_root": true,
        "terminal": "none", "masked_paths": true, "unmasked_paths": [], "unix_sockets": "blocked", "apparmor": "default", "selinux": "default",
        "devices": [], "shares_pid_with": [], "sysctls": {}, "oom_score_adj": 0,
        "oom_kill_disable": false, "groups": []
      },
      "mounts": [
        { "source": "/srv/workshop/snapshots/parser", "target": "/workspace", "access": "read-only", "sub_path": "parser", "excludes": ["/workspace/.git"] },
        { "source": "/srv/workshop/scratch/job-17", "target": "/scratch", "access": "read-write" }
      ],
      "network": {
        "egress": "allow-list", "enforced_by": "network-policy",
        "allow": [ { "host": "pypi.internal.example", "port": 443, "protocol": "https" } ],
        "follow_redirects": false, "dns": "pinned", "hosts": {}, "resolvers": []
      },
      "environment": { "inherit": false, "variables": { "LANG": "C.UTF-8" } },
      "credentials": [
        { "name": "artifact-upload", "source": "broker", "scope": "task", "ttl_seconds": 900, "exposed_to": "job" }
      ],
      "command": { "executable": "python", "arguments": ["-m", "pytest", "tests/test_date.py"], "shell": "pytest", "cwd": "/workspace" },
      "setup": [ { "executable": "pip", "arguments": ["install", "--no-deps", "-r", "requirements.lock"], "shell": "true", "cwd": "/workspace" } ],
      "limits": {
        "wall_seconds": 300, "cpu_seconds": 120, "memory_bytes": 536870912,
        "processes": 64, "output_bytes": 10485760,
        "enforced_by": "cgroup", "timeout_kills": "process-group"
      },
      "concurrency": { "max_jobs": 8, "release_after": "cleanup" },
      "dependencies": {
        "prepared_in": "image",
        "image": "registry.example/runner@sha256:4f9c2a1b0d3e5f6a7b8c9d0e1f2a3b4c5d6e7f8a9b0c1d2e3f4a5b6c7d8e9f0a",
        "fetch_stage": { "separate": true, "network": "allow-list", "credentials": "fetch-only", "cache": "read-only" },
        "lockfile": "requirements.lock", "install_hooks_reviewed": true, "preserve_inputs": true
      },
      "artifacts": {
        "collect": ["reports/junit.xml", "logs/pytest.log"],
        "max_bytes": 1048576, "log_max_bytes": 262144, "treat_as_untrusted": true
      },
      "cleanup": {
        "destroy_worker": true, "expire_credentials": true,
        "on_failure": "retry-then-alert", "retain": ["exit-code", "duration", "image-digest"]
      }
    })
}

/// Pointers of every property the schema names (through `$ref`s).
fn schema_paths(schema: &Value, node: &Value, at: &str, out: &mut Vec<String>) {
    let node = match node.get("$ref").and_then(Value::as_str) {
        Some(r) => schema.pointer(r.trim_start_matches('#')).unwrap(),
        None => node,
    };
    if let Some(props) = node.get("properties").and_then(Value::as_object) {
        for (name, sub) in props {
            let p = format!("{at}/{name}");
            out.push(p.clone());
            schema_paths(schema, sub, &p, out);
        }
    }
    if let Some(items) = node.get("items") {
        schema_paths(schema, items, &format!("{at}/0"), out);
    }
}

fn profile_findings(bytes: &[u8], name: &str) -> Option<Vec<String>> {
    let report = audit(bytes, name, &Labels::workshop(), &options()).ok()?;
    Some(
        report
            .issues
            .iter()
            .filter(|f| ["PRF001", "PRF002", "PRF003", "PRF004", "PRF005"].contains(&f.rule))
            .map(|f| format!("{} {} {}", f.rule, f.pointer, f.message))
            .collect(),
    )
}

#[test]
fn every_profile_schema_property_is_a_field_the_decoder_knows() {
    let schema = load("profile");
    let complete = complete_profile();
    let mut paths = Vec::new();
    schema_paths(&schema, &schema, "", &mut paths);
    for p in &paths {
        assert!(
            complete.pointer(p).is_some(),
            "the complete profile lacks schema property {p}"
        );
    }
    let errors = Validator::new(&schema).validate(&complete);
    assert!(
        errors.is_empty(),
        "complete profile vs schema:\n{}",
        errors.join("\n")
    );
    let bytes = serde_json::to_vec_pretty(&complete).unwrap();
    let problems = profile_findings(&bytes, "complete.json").unwrap();
    assert!(
        problems.is_empty(),
        "decoder rejects schema fields: {problems:?}"
    );
}

#[test]
fn the_schema_and_the_decoder_agree_on_every_fixture_profile() {
    let schema = load("profile");
    let validator = Validator::new(&schema);
    let mut files = json_files(&root().join("fixtures/profiles"));
    files.extend(
        json_files(&root().join("fixtures/rules"))
            .into_iter()
            .filter(|p| !p.ends_with("labels.json")),
    );
    files.extend(
        json_files(&root().join("fixtures/adversarial"))
            .into_iter()
            .filter(|p| !p.ends_with("manifest.json")),
    );
    let mut disagreements = Vec::new();
    let mut checked = 0;
    for path in &files {
        let bytes = fs::read(path).unwrap();
        let Ok(value) = serde_json::from_slice::<Value>(&bytes) else {
            continue;
        };
        let Some(problems) = profile_findings(&bytes, &path.to_string_lossy()) else {
            continue;
        };
        checked += 1;
        let errors = validator.validate(&value);
        let rel = path.strip_prefix(root()).unwrap().display();
        // Schema-valid means the decoder reads every field as written.
        // (Duplicate keys are invisible to JSON Schema: a JSON value has
        // one member per key, so PRF002 is the decoder's alone.)
        let problems: Vec<String> = problems
            .into_iter()
            .filter(|p| !p.starts_with("PRF002"))
            .collect();
        if errors.is_empty() && !problems.is_empty() {
            disagreements.push(format!(
                "{rel}: schema-valid but the decoder reports {problems:?}"
            ));
        }
        // The decoder reading everything means no unknown field, type or value for the schema.
        let structural: Vec<&String> = errors
            .iter()
            .filter(|e| {
                e.contains("unknown field")
                    || e.contains("expected [")
                    || e.contains("is not one of")
            })
            .collect();
        if problems.is_empty() && !structural.is_empty() {
            disagreements.push(format!(
                "{rel}: the decoder accepts it but the schema says {structural:?}"
            ));
        }
        if path.starts_with(root().join("fixtures/profiles")) {
            assert!(
                errors.is_empty(),
                "{rel} must validate against the profile schema:\n{}",
                errors.join("\n")
            );
            let top = value.as_object().unwrap();
            for key in top.keys() {
                assert!(
                    schema["properties"].get(key).is_some(),
                    "{rel}: `{key}` is not in the schema"
                );
            }
        }
    }
    assert!(checked >= 2);
    assert!(disagreements.is_empty(), "{}", disagreements.join("\n"));
}

#[test]
fn label_catalogs_and_the_label_schema_agree() {
    let schema = load("labels");
    let validator = Validator::new(&schema);
    let mut files = vec![root().join("fixtures/labels/workshop.json")];
    files.extend(
        json_files(&root().join("fixtures/rules"))
            .into_iter()
            .filter(|p| p.ends_with("labels.json")),
    );
    files.extend(json_files(&root().join("fixtures/labels")));
    for path in files {
        let bytes = fs::read(&path).unwrap();
        let value: Value = serde_json::from_slice(&bytes).unwrap();
        let errors = validator.validate(&value);
        assert!(errors.is_empty(), "{}: {errors:?}", path.display());
        assert!(Labels::load(&bytes).is_ok(), "{}", path.display());
    }
    for bad in [
        json!({"labels": [{"path": "/srv", "label": "scratch", "lable": "x"}]}),
        json!({"labels": [{"path": "srv", "label": "scratch"}]}),
        json!({"labels": [{"path": "/srv", "label": "home"}]}),
        json!({"name": "no labels"}),
        json!({"schema": "isolint.profile/v1", "labels": []}),
    ] {
        assert!(!validator.validate(&bad).is_empty(), "schema accepts {bad}");
        assert!(
            Labels::load(bad.to_string().as_bytes()).is_err(),
            "catalog loader accepts {bad}"
        );
    }
}

#[test]
fn real_exports_validate_against_the_findings_schema() {
    let schema = load("findings");
    let validator = Validator::new(&schema);
    let mut files = json_files(&root().join("fixtures/profiles"));
    files.extend(
        json_files(&root().join("fixtures/rules"))
            .into_iter()
            .filter(|p| !p.ends_with("labels.json")),
    );
    files.extend(json_files(&root().join("fixtures/adversarial")));
    let mut reports = Vec::new();
    for path in &files {
        let bytes = fs::read(path).unwrap();
        let rel = path
            .strip_prefix(root())
            .unwrap()
            .to_string_lossy()
            .into_owned();
        if let Ok(r) = audit(&bytes, &rel, &Labels::workshop(), &options()) {
            reports.push(r);
        }
    }
    assert!(reports.len() > 10);
    // An imported configuration: findings carry their `origin` in the original file.
    let pod = b"apiVersion: v1\nkind: Pod\nmetadata: {name: t}\nspec:\n  containers:\n  - name: c\n    image: python:3.12\n";
    for unit in import::import(pod, import::Format::Kubernetes).unwrap() {
        let r = isolint_core::audit::audit_imported(
            &unit,
            "pod.yaml",
            &Labels::workshop(),
            &options(),
            None,
            &isolint_core::InOrder,
        )
        .unwrap();
        assert!(r.issues.iter().all(|f| f.origin.is_some()));
        reports.push(r);
    }
    // Optional fields too: a waived finding compared with a baseline.
    if let Some(r) = reports.iter_mut().find(|r| !r.issues.is_empty()) {
        let f = &mut r.issues[0];
        f.waived = Some(Waived {
            reason: "accepted for the workshop".into(),
            owner: "reviewer@example".into(),
            expires: "2026-12-31".into(),
        });
        f.baseline = Some("existing");
        r.refresh();
    }
    let mut failures = Vec::new();
    for r in &reports {
        let doc: Value = serde_json::from_str(&export::render(r)).unwrap();
        for e in validator.validate(&doc) {
            failures.push(format!("{}: {e}", r.profile.source));
        }
        // SARIF of the same report parses and keeps one result per finding.
        let log: Value = serde_json::from_str(&sarif::render(r)).unwrap();
        assert_eq!(
            log["runs"][0]["results"].as_array().unwrap().len(),
            r.issues.len()
        );
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    // The array form validates against the schema's root as it is.
    let many: Value = serde_json::from_str(&export::render_many(&reports[..2])).unwrap();
    let errors = validator.validate(&many);
    assert!(errors.is_empty(), "{errors:?}");
    // And a document with a wrong target or expect does not.
    let mut bad: Value = serde_json::from_str(&export::render(&reports[0])).unwrap();
    bad["runtime_checks"][0]["target"] = json!("/home/botie");
    assert!(
        !validator.validate(&bad).is_empty(),
        "a v1 string target passes"
    );
    let mut bad: Value = serde_json::from_str(&export::render(&reports[0])).unwrap();
    bad["runtime_checks"][0]["expect"] = json!("mostly denied");
    assert!(
        !validator.validate(&bad).is_empty(),
        "free-text expect passes"
    );
}

/// Every output `isolint audit` can write in a JSON format, through the
/// binary, validates against `isolint schema findings` as printed: one
/// file, several files, a directory, stdin, and each jsonl line.
#[test]
fn every_json_output_of_the_binary_validates_against_its_schema() {
    let bin = isolint_acceptance::bin();
    let run = |args: &[&str]| {
        let out = std::process::Command::new(bin)
            .args(args)
            .current_dir(root())
            .output()
            .unwrap();
        assert!(
            out.status.code().unwrap_or(9) <= 1,
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap()
    };
    let schema: Value = serde_json::from_str(&run(&["schema", "findings"])).unwrap();
    let validator = Validator::new(&schema);
    let one = "fixtures/profiles/workshop.json";
    let two = "fixtures/profiles/workshop-fixed.json";
    let mut docs = 0;
    for args in [
        vec!["audit", "--format", "json", one],
        vec!["audit", "--format", "json", one, two],
        vec!["audit", "--format", "json", "fixtures/profiles"],
        vec!["audit", "--format", "json", "fixtures/import/kubernetes"],
    ] {
        let v: Value = serde_json::from_str(&run(&args)).unwrap();
        let errors = validator.validate(&v);
        assert!(errors.is_empty(), "{args:?}: {errors:?}");
        // The shape follows the command line only.
        assert_eq!(
            v.is_array(),
            args.len() > 4 || !args[3].ends_with(".json"),
            "{args:?}"
        );
        docs += 1;
    }
    for args in [
        vec!["audit", "--format", "jsonl", one],
        vec![
            "audit",
            "--format",
            "jsonl",
            "fixtures/profiles",
            "fixtures/import/kubernetes",
        ],
    ] {
        for line in run(&args).lines() {
            let v: Value = serde_json::from_str(line).unwrap();
            assert!(v.is_object());
            let errors = validator.validate(&v);
            assert!(errors.is_empty(), "{args:?}: {errors:?}");
            docs += 1;
        }
    }
    assert!(docs > 6, "{docs}");
}
