// Tests read fixture files; the I/O ban of core/clippy.toml is for the library itself.
#![allow(clippy::disallowed_methods, clippy::disallowed_types)]

//! Redaction by design, over every rule fixture: a finding's message is a
//! rule's wording (trusted, never masked) with the profile's values in
//! backticks (untrusted, masked and neutralized). So:
//! - no output of a fixture that holds no secret shows `[redacted]`;
//! - no output of any fixture shows a secret it holds;
//! - no rule quotes a profile value outside backticks.

mod common;

use std::path::{Path, PathBuf};

use isolint_core::render::{github, json, markdown, sarif, text};
use isolint_core::secrets::Secrets;
use isolint_core::{audit, json as ijson, AuditOptions, Date, Labels, Report};

fn fixture_files() -> Vec<PathBuf> {
    common::rule_fixture_files()
}

fn labels_for(file: &Path) -> Labels {
    match std::fs::read(file.with_file_name("labels.json")) {
        Ok(bytes) => Labels::load(&bytes).unwrap(),
        Err(_) => Labels::workshop(),
    }
}

fn report_of(file: &Path) -> Option<(Report, Vec<u8>)> {
    let bytes = std::fs::read(file).unwrap();
    let options = AuditOptions {
        today: Date::parse("2026-11-29"),
    };
    // Fixtures are named by their rule directory and file only, so the
    // path itself holds nothing that could be mistaken for a value.
    let name = file
        .strip_prefix(Path::new(env!("CARGO_MANIFEST_DIR")).join(".."))
        .unwrap_or(file)
        .display()
        .to_string();
    let r = audit(&bytes, &name, &labels_for(file), &options).ok()?;
    Some((r, bytes))
}

fn outputs(r: &Report) -> Vec<(&'static str, String)> {
    vec![
        ("text", text::render(r, text::TextOptions { color: false })),
        ("json", json::render(r)),
        ("sarif", sarif::render(r)),
        ("markdown", markdown::render(r)),
        ("github", github::render(r)),
    ]
}

/// Every string of a JSON document.
fn strings(v: &serde_json::Value, out: &mut Vec<String>) {
    match v {
        serde_json::Value::String(s) => out.push(s.clone()),
        serde_json::Value::Array(a) => a.iter().for_each(|i| strings(i, out)),
        serde_json::Value::Object(m) => m.values().for_each(|i| strings(i, out)),
        _ => {}
    }
}

/// The text of `s` outside backticked segments.
fn wording(s: &str) -> String {
    s.split('`').step_by(2).collect::<Vec<_>>().join(" ")
}

#[test]
fn rule_fixtures_mask_only_their_secrets_in_every_format() {
    let mut wrong = Vec::new();
    let mut masks = 0;
    let mut holding = 0;
    for file in fixture_files() {
        let Some((report, bytes)) = report_of(&file) else {
            continue;
        };
        let doc = ijson::parse(&bytes, ijson::Limits::default()).unwrap();
        let secrets = Secrets::collect(&doc.root);
        holding += usize::from(!secrets.is_empty());
        let mut values: Vec<String> = Vec::new();
        if let Ok(v) = serde_json::from_slice::<serde_json::Value>(&bytes) {
            strings(&v, &mut values);
        }
        for (format, out) in outputs(&report) {
            let n = out.matches("[redacted]").count();
            masks += n;
            if n > 0 && secrets.is_empty() {
                wrong.push(format!(
                    "{}: {format}: [redacted] without a secret",
                    file.display()
                ));
            }
            for v in values
                .iter()
                .filter(|v| v.len() >= 4 && secrets.contains(v))
            {
                if out.contains(v.as_str()) {
                    wrong.push(format!("{}: {format}: a secret is echoed", file.display()));
                }
            }
        }
        for f in &report.issues {
            if wording(&f.message).contains("[redacted]") {
                wrong.push(format!(
                    "{}: {}: masked wording: {}",
                    file.display(),
                    f.rule,
                    f.message
                ));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "{} problems:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
    // The leak check above means something only if fixtures hold secrets.
    assert!(holding >= 3, "only {holding} fixtures hold a secret");
    eprintln!("[redacted] over every rule fixture and format: {masks}; fixtures holding a secret: {holding}");
}

/// Profile values a message may carry: paths, names and other strings
/// specific enough that the rule's wording cannot hold them by chance.
fn specific(v: &str) -> bool {
    // Lower-case words joined by `-` are the schema's own values
    // (`read-only`, `allow-list`), which the wording may use as words.
    let enum_word = v.chars().all(|c| c.is_ascii_lowercase() || c == '-');
    !enum_word
        && v.len() >= 6
        && !v.contains('`')
        && v.chars()
            .any(|c| matches!(c, '/' | '.' | '_' | '-' | ':' | '@') || c.is_ascii_digit())
        && v.chars().all(|c| !c.is_whitespace())
}

#[test]
fn rules_quote_profile_values_in_backticks() {
    let mut wrong = Vec::new();
    for file in fixture_files() {
        let Some((report, bytes)) = report_of(&file) else {
            continue;
        };
        let mut values = Vec::new();
        if let Ok(v) = serde_json::from_slice::<serde_json::Value>(&bytes) {
            strings(&v, &mut values);
        }
        values.retain(|v| specific(v));
        for f in &report.issues {
            let outside = wording(&f.message);
            for v in &values {
                if outside.contains(v.as_str()) {
                    wrong.push(format!(
                        "{}: {}: `{v}` unquoted in: {}",
                        file.display(),
                        f.rule,
                        f.message
                    ));
                }
            }
        }
    }
    wrong.sort();
    wrong.dedup();
    assert!(
        wrong.is_empty(),
        "{} messages:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}
