// Tests read fixture files; the I/O ban of core/clippy.toml is for the library itself.
#![allow(clippy::disallowed_methods, clippy::disallowed_types)]

//! A finding's message quotes values from the profile in backticks. A
//! value that is empty must never leave an empty quote (``) behind: the
//! reader learns nothing from "it was compared as ``". Every rule fixture
//! is audited as written and once more with each of its string values
//! blanked in turn (each value at each place once), which is how an empty
//! value reaches a message.

mod common;

use std::path::{Path, PathBuf};

use isolint_core::{audit, AuditOptions, Date, Labels};
use serde_json::Value;

fn fixture_files() -> Vec<PathBuf> {
    common::rule_fixture_files()
}

/// Pointers of every string leaf (object members and array items).
fn string_pointers(v: &Value, at: &str, out: &mut Vec<String>) {
    match v {
        Value::String(_) => out.push(at.to_string()),
        Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                string_pointers(item, &format!("{at}/{i}"), out);
            }
        }
        Value::Object(map) => {
            for (k, item) in map {
                let key = k.replace('~', "~0").replace('/', "~1");
                string_pointers(item, &format!("{at}/{key}"), out);
            }
        }
        _ => {}
    }
}

fn empty_quotes(bytes: &[u8], labels: &Labels, what: &str, bad: &mut Vec<String>) {
    let options = AuditOptions {
        today: Date::parse("2026-11-29"),
    };
    let Ok(report) = audit(bytes, "fixture.json", labels, &options) else {
        return;
    };
    for f in &report.issues {
        if f.message.contains("``") {
            bad.push(format!("{what}: {} {}: {}", f.rule, f.pointer, f.message));
        }
    }
}

#[test]
fn no_message_quotes_an_empty_value() {
    let labels = Labels::workshop();
    let mut bad = Vec::new();
    let mut audited = 0;
    let mut blanked_once = std::collections::BTreeSet::new();
    for path in fixture_files() {
        let bytes = std::fs::read(&path).unwrap();
        let name = path
            .strip_prefix(Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/rules"))
            .unwrap()
            .display()
            .to_string();
        empty_quotes(&bytes, &labels, &name, &mut bad);
        audited += 1;
        let Ok(doc) = serde_json::from_slice::<Value>(&bytes) else {
            continue;
        };
        let mut pointers = Vec::new();
        string_pointers(&doc, "", &mut pointers);
        for p in pointers {
            // Most fixtures are near copies of one profile: a value already
            // blanked at the same place in another fixture adds nothing.
            let original = doc.pointer(&p).and_then(Value::as_str).unwrap_or("");
            if !blanked_once.insert((p.clone(), original.to_string())) {
                continue;
            }
            let mut blanked = doc.clone();
            if let Some(s) = blanked.pointer_mut(&p) {
                *s = Value::String(String::new());
            }
            let text = serde_json::to_vec(&blanked).unwrap();
            empty_quotes(&text, &labels, &format!("{name} with {p} empty"), &mut bad);
            audited += 1;
        }
    }
    bad.sort();
    bad.dedup();
    assert!(audited > 500, "{audited}");
    assert!(
        bad.is_empty(),
        "{} message(s) quote an empty value:\n{}",
        bad.len(),
        bad.join("\n")
    );
}
