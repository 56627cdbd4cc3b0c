//! The adversarial corpus (`fixtures/adversarial/`): hostile profiles, each
//! with its expected outcome in `manifest.json`. Nothing may crash, hang,
//! leak a raw control character, or pass a malformed profile as eligible.
#![allow(clippy::disallowed_methods, clippy::disallowed_types)]

use std::path::Path;
use std::time::{Duration, Instant};

use isolint_core::json::InputErrorKind;
use isolint_core::render::{github, json, markdown, sarif, text};
use isolint_core::sanitize::is_dangerous;
use isolint_core::{audit, AuditOptions, Date, Labels, Report, Verdict};

/// A guard against hangs and quadratic blow-ups, not a benchmark: an
/// unoptimized build on a loaded 2-core machine stays far below it, and the
/// speed itself is measured by `cargo bench` and bench/run.sh.
const HANG_GUARD: Duration = Duration::from_secs(5);

fn opts() -> AuditOptions {
    AuditOptions {
        today: Date::parse("2026-11-29"),
    }
}

fn outputs(r: &Report) -> Vec<String> {
    vec![
        json::render(r),
        sarif::render(r),
        text::render(r, text::TextOptions { color: false }),
        markdown::render(r),
        github::render(r),
    ]
}

fn assert_no_raw_controls(name: &str, r: &Report) {
    for out in outputs(r) {
        if let Some(c) = out.chars().find(|&c| c != '\n' && is_dangerous(c)) {
            panic!("{name}: raw U+{:04X} in output", c as u32);
        }
    }
}

#[test]
fn manifest_cases_have_their_expected_outcome() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/adversarial");
    let manifest: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.join("manifest.json")).unwrap()).unwrap();
    let labels = Labels::workshop();
    let cases = manifest["cases"].as_array().unwrap();
    assert!(cases.len() >= 30);
    for case in cases {
        let file = case["file"].as_str().unwrap();
        let expect = case["expect"].as_str().unwrap();
        let bytes = std::fs::read(dir.join(file)).unwrap();
        let start = Instant::now();
        let result = audit(&bytes, file, &labels, &opts());
        assert!(
            start.elapsed() < HANG_GUARD,
            "{file}: took {:?}",
            start.elapsed()
        );
        match (expect, result) {
            ("error", Err(e)) => {
                let want = case["contains"].as_str().unwrap_or("");
                assert!(
                    e.to_string().contains(want),
                    "{file}: error `{e}` lacks `{want}`"
                );
                assert!(
                    e.pos.is_some() || matches!(e.kind, InputErrorKind::TooLarge { .. }),
                    "{file}: no position"
                );
            }
            ("error", Ok(_)) => panic!("{file}: expected a refusal, got a report"),
            (_, Err(e)) => panic!("{file}: expected a report, got error {e}"),
            (expect, Ok(r)) => {
                assert_no_raw_controls(file, &r);
                if expect == "blocking" {
                    assert_eq!(
                        r.verdict,
                        Verdict::NotEligible,
                        "{file}: malformed profile passed"
                    );
                    if let Some(rule) = case["rule"].as_str() {
                        assert!(
                            r.issues.iter().any(|f| f.rule == rule && f.blocks()),
                            "{file}: no blocking {rule}"
                        );
                    }
                    if let Some(want) = case["contains"].as_str() {
                        assert!(
                            r.issues.iter().any(|f| f.message.contains(want)),
                            "{file}: no message with `{want}`"
                        );
                    }
                }
            }
        }
    }
}

#[test]
fn generated_giants_are_refused_fast() {
    let labels = Labels::workshop();
    let cases: Vec<(&str, Vec<u8>)> = vec![
        ("100k-deep nesting", "[".repeat(100_000).into_bytes()),
        ("100k-deep objects", "{\"a\":".repeat(100_000).into_bytes()),
        ("20 MiB file", {
            let mut v = b"{\"name\":\"x\",\"purpose\":\"".to_vec();
            v.resize(20 * 1024 * 1024, b'a');
            v
        }),
    ];
    for (name, bytes) in cases {
        let start = Instant::now();
        let e = audit(&bytes, name, &labels, &opts())
            .err()
            .unwrap_or_else(|| panic!("{name}: accepted"));
        assert!(
            start.elapsed() < HANG_GUARD,
            "{name}: {:?}",
            start.elapsed()
        );
        assert!(
            matches!(
                e.kind,
                InputErrorKind::TooDeep { .. } | InputErrorKind::TooLarge { .. }
            ),
            "{name}: {e}"
        );
    }
}

#[test]
fn a_million_element_array_is_refused_fast() {
    let mut s = String::from("{\"name\":\"x\",\"setup\":[");
    s.push_str(&vec!["0"; 1_000_000].join(","));
    s.push_str("]}");
    let start = Instant::now();
    let e = audit(s.as_bytes(), "array.json", &Labels::workshop(), &opts()).expect_err("refused");
    assert!(
        matches!(e.kind, InputErrorKind::TooManyValues { .. }),
        "{e}"
    );
    assert!(start.elapsed() < HANG_GUARD, "{:?}", start.elapsed());
}

/// Thousands of distinct secrets in one object: every value is masked in
/// every output. (This input once took seconds: a pointer lookup and a
/// substring search per secret per finding. The time is tracked by
/// bench/run.sh and BENCHMARKS.md, not asserted here.)
#[test]
fn many_distinct_secrets_are_all_redacted() {
    let vars: Vec<String> = (0..5_000)
        .map(|i| format!("\"T{i}_TOKEN\": \"ghp_{i:036}\""))
        .collect();
    let fixed = isolint_core::WORKSHOP_PROFILE_FIXED;
    let lang = r#""variables": { "LANG": "C.UTF-8" }"#;
    assert!(fixed.contains(lang));
    let profile = fixed.replace(lang, &format!(r#""variables": {{ {} }}"#, vars.join(",")));
    let r = audit(
        profile.as_bytes(),
        "secrets.json",
        &Labels::workshop(),
        &opts(),
    )
    .expect("audited");
    for out in [
        json::render(&r),
        sarif::render(&r),
        text::render(&r, text::TextOptions { color: false }),
        markdown::render(&r),
        github::render(&r),
        r.source_text.clone(),
    ] {
        assert!(!out.contains("ghp_0000"), "a secret value leaked");
    }
}
