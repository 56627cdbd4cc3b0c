//! The runner overlay (`isolint audit --runner`) merges under every
//! profile an importer writes: it must read every value an importer can
//! produce, and change nothing it does not set.
#![allow(clippy::disallowed_methods)]

use isolint_core::import;
use isolint_core::runner::Runner;

/// Every profile an importer writes can have an overlay merged under
/// it, and an overlay that sets nothing the profile declares leaves it
/// as it was: the merge reads every value the importer writes (a
/// negative `oom_score_adj` once made it refuse the file).
#[test]
fn every_imported_profile_survives_an_overlay_unchanged() {
    fn walk(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                walk(&p, out);
            } else {
                out.push(p);
            }
        }
    }
    let mut files = Vec::new();
    walk(
        &std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/import"),
        &mut files,
    );
    let extra: [(&str, &str); 3] = [
        (
            "oom.yaml",
            "services:\n  t:\n    image: python:3.12\n    oom_score_adj: -1000\n",
        ),
        (
            "oom-k8s.yaml",
            "apiVersion: v1\nkind: Pod\nmetadata: {name: t}\nspec:\n  containers:\n  - name: c\n    image: python:3.12\n    securityContext: {runAsUser: 0}\n",
        ),
        (
            "big.yaml",
            "services:\n  t:\n    image: python:3.12\n    pids_limit: 9223372036854775807\n    oom_score_adj: -999\n",
        ),
    ];
    let overlay = Runner::parse(br#"{"schema": "isolint.profile/v1"}"#, "r.json").unwrap();
    let mut profiles = 0;
    let mut check = |name: &str, bytes: &[u8]| {
        let Some((_, Ok(imported))) = import::detect_and_import(bytes, Some(name), false) else {
            return;
        };
        for i in imported {
            let merged = overlay
                .overlay(&i.profile_json)
                .unwrap_or_else(|e| panic!("{name} {}: {e}", i.name));
            let want: serde_json::Value = serde_json::from_str(&i.profile_json).unwrap();
            let got: serde_json::Value = serde_json::from_str(&merged.profile_json).unwrap();
            assert_eq!(got, want, "{name} {}", i.name);
            profiles += 1;
        }
    };
    for (name, text) in extra {
        check(name, text.as_bytes());
    }
    for f in &files {
        let name = f.file_name().unwrap().to_string_lossy().into_owned();
        check(&name, &std::fs::read(f).unwrap());
    }
    assert!(
        profiles > 40,
        "only {profiles} imported profiles were checked"
    );
}

/// The worked examples of `fixtures/runner/` (an OCI bundle, a bwrap
/// script, a Codex config and sandbox-runtime settings, which cannot state
/// their runtime's version and patch date, the tenancy or the job's needs,
/// and the restricted Pod): each input is
/// eligible with its honest overlay, and not eligible when any one fact
/// of that overlay is made risky.
#[test]
fn worked_examples_are_eligible_with_an_honest_overlay_and_only_then() {
    use isolint_core::{AuditOptions, Date, Labels, Verdict};
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/runner");
    let options = AuditOptions {
        today: Date::parse("2026-11-29"),
    };
    // (directory, input, its format)
    let examples = [
        ("oci", "config.json", import::Format::Oci),
        ("bwrap", "run-tests.sh", import::Format::Bwrap),
        ("codex", "config.toml", import::Format::Codex),
        ("kubernetes", "restricted.yaml", import::Format::Kubernetes),
        (
            "sandbox",
            "srt-settings.json",
            import::Format::SandboxSettings,
        ),
    ];
    // One fact made risky at a time: (pointer in the overlay, risky value).
    let risky: &[(&str, serde_json::Value)] = &[
        ("/tenancy", serde_json::json!("untrusted")),
        (
            "/boundary/runtime/patched_on",
            serde_json::json!("2024-01-02"),
        ),
        ("/cleanup/destroy_worker", serde_json::json!(false)),
        ("/artifacts/treat_as_untrusted", serde_json::json!(false)),
        ("/needs/inputs", serde_json::json!([])),
        ("/environment/inherit", serde_json::json!(true)),
    ];
    let audit = |input: &[u8], format, runner: &[u8]| {
        let runner = Runner::parse(runner, "runner.json").unwrap();
        let units = import::import(input, format).unwrap();
        units
            .iter()
            .map(|u| {
                isolint_core::audit::audit_imported(
                    u,
                    "input",
                    &Labels::workshop(),
                    &options,
                    Some(&runner),
                    &isolint_core::InOrder,
                )
                .unwrap()
            })
            .collect::<Vec<_>>()
    };
    let mut wrong = Vec::new();
    let mut cases = 0;
    for (sub, input, format) in examples {
        let input = std::fs::read(dir.join(sub).join(input)).unwrap();
        let runner_text = std::fs::read(dir.join(sub).join("runner.json")).unwrap();
        cases += 1;
        for r in audit(&input, format, &runner_text) {
            if r.verdict != Verdict::EligibleForRuntimeTesting {
                let blocking: Vec<String> = r
                    .issues
                    .iter()
                    .filter(|f| f.waived.is_none())
                    .map(|f| format!("{} {} {}", f.rule, f.pointer, f.message))
                    .collect();
                wrong.push(format!(
                    "{sub}: not eligible with its overlay:\n  {}",
                    blocking.join("\n  ")
                ));
            }
        }
        let honest: serde_json::Value = serde_json::from_slice(&runner_text).unwrap();
        for (ptr, value) in risky {
            let mut v = honest.clone();
            match v.pointer_mut(ptr) {
                Some(slot) => *slot = value.clone(),
                None => continue,
            }
            cases += 1;
            let text = serde_json::to_vec(&v).unwrap();
            if audit(&input, format, &text)
                .iter()
                .all(|r| r.verdict == Verdict::EligibleForRuntimeTesting)
            {
                wrong.push(format!("{sub}: still eligible with {ptr} = {value}"));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "{} of {cases} cases wrong:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}

/// What the overlay may now state about the runtime, the tenancy and the
/// needs fills only what the file leaves out: where the file says
/// otherwise, the file's value is audited and PRF020 reports the
/// disagreement.
#[test]
fn overlay_facts_the_file_contradicts_are_prf020() {
    use isolint_core::{AuditOptions, Date, Labels};
    let options = AuditOptions {
        today: Date::parse("2026-11-29"),
    };
    let oci = r#"{"ociVersion": "1.2.0", "process": {"args": ["true"], "user": {"uid": 1000, "gid": 1000}}, "root": {"path": "rootfs"}}"#;
    let bwrap = "bwrap --unshare-all --ro-bind /usr /usr python -m pytest\n";
    let danger = "sandbox_mode = \"danger-full-access\"\n";
    let pod = "apiVersion: v1\nkind: Pod\nmetadata: {name: t}\nspec:\n  runtimeClassName: gvisor\n  containers:\n  - name: c\n    image: python:3.12\n    command: [pytest]\n    securityContext: {runAsUser: 1000}\n";
    // (input, format, overlay, pointer of the PRF020 wanted, or "" for none)
    let cases: &[(&str, import::Format, &str, &str)] = &[
        (
            bwrap,
            import::Format::Bwrap,
            r#"{"boundary": {"runtime": {"name": "runc"}}}"#,
            "/boundary/runtime/name",
        ),
        (
            bwrap,
            import::Format::Bwrap,
            r#"{"boundary": {"runtime": {"name": "bubblewrap", "version": "0.11.0"}}}"#,
            "",
        ),
        (
            bwrap,
            import::Format::Bwrap,
            r#"{"boundary": {"kind": "vm"}}"#,
            "/boundary/kind",
        ),
        (
            oci,
            import::Format::Oci,
            r#"{"boundary": {"privileged": true}}"#,
            "/boundary/privileged",
        ),
        (
            oci,
            import::Format::Oci,
            r#"{"boundary": {"user": "0"}}"#,
            "/boundary/user",
        ),
        (
            oci,
            import::Format::Oci,
            r#"{"boundary": {"runtime": {"name": "runc", "version": "1.3.3"}}, "tenancy": "internal"}"#,
            "",
        ),
        (
            danger,
            import::Format::Codex,
            r#"{"boundary": {"kind": "container"}}"#,
            "/boundary/kind",
        ),
        (
            danger,
            import::Format::Codex,
            r#"{"command": {"executable": "codex"}}"#,
            "",
        ),
        (
            oci,
            import::Format::Oci,
            r#"{"command": {"executable": "sh"}}"#,
            "/command/executable",
        ),
        (
            pod,
            import::Format::Kubernetes,
            r#"{"boundary": {"user": "0"}}"#,
            "/boundary/user",
        ),
    ];
    let mut wrong = Vec::new();
    for (input, format, overlay, want) in cases {
        let runner = Runner::parse(overlay.as_bytes(), "runner.json").unwrap();
        let units = import::import(input.as_bytes(), *format).unwrap();
        let r = isolint_core::audit::audit_imported(
            &units[0],
            "f",
            &Labels::workshop(),
            &options,
            Some(&runner),
            &isolint_core::InOrder,
        )
        .unwrap();
        let got: Vec<&str> = r
            .issues
            .iter()
            .filter(|f| f.rule == "PRF020")
            .map(|f| f.pointer.as_str())
            .collect();
        let ok = if want.is_empty() {
            got.is_empty()
        } else {
            got == [*want]
        };
        if !ok {
            wrong.push(format!(
                "{overlay} over {format:?}: PRF020 at {got:?} (want {want:?})"
            ));
        }
    }
    assert!(
        wrong.is_empty(),
        "{} of {} cases wrong:\n{}",
        wrong.len(),
        cases.len(),
        wrong.join("\n")
    );
}
