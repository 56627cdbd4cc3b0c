// Tests read fixture files; the I/O ban of core/clippy.toml is for the library itself.
#![allow(clippy::disallowed_methods, clippy::disallowed_types)]

//! A run's memo of what strings hold (`Parsed::remembering`) changes no
//! report: every rule fixture and both workshop profiles, audited in one
//! run that shares a memo (each twice, so the second reading of every
//! string comes from the memo, after other files have filled it), give
//! the same text and JSON exports, masked source and secrets as each
//! audited alone. The fixtures hold secrets in values, commands, URLs and
//! keys, so a memo that dropped or reordered a string's findings, or
//! answered for the wrong string, shows up as a different mask.

mod common;

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use isolint_core::json::Limits;
use isolint_core::par::InOrder;
use isolint_core::render::{json, text};
use isolint_core::report::{audit_parsed, Detail, Parsed};
use isolint_core::secrets::Memo;
use isolint_core::{AuditOptions, Date, Labels, Report};

fn labels_for(file: &Path) -> Labels {
    match std::fs::read(file.with_file_name("labels.json")) {
        Ok(bytes) => Labels::load(&bytes).unwrap(),
        Err(_) => Labels::workshop(),
    }
}

fn audited(file: &Path, bytes: &[u8], memo: Option<&Arc<Mutex<Memo>>>) -> Option<Report> {
    let parsed = Parsed::new(bytes, Limits::default()).ok()?;
    let parsed = match memo {
        Some(m) => parsed.remembering(m),
        None => parsed,
    };
    let options = AuditOptions {
        today: Date::parse("2026-11-29"),
    };
    Some(audit_parsed(
        parsed,
        &file.to_string_lossy(),
        &labels_for(file),
        &options,
        Detail::Full,
        &InOrder,
    ))
}

/// What a report shows, as the text and JSON exports and the masked source.
fn shown(r: &Report) -> String {
    let plain = text::TextOptions { color: false };
    format!(
        "{}\n{}\n{}",
        text::render(r, plain),
        json::render(r),
        r.source_text
    )
}

#[test]
fn a_run_memo_changes_no_report() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures");
    let mut files: Vec<PathBuf> = common::rule_fixture_files();
    files.push(root.join("profiles/workshop.json"));
    files.push(root.join("profiles/workshop-fixed.json"));
    let inputs: Vec<(PathBuf, Vec<u8>)> = files
        .into_iter()
        .map(|f| {
            let bytes = std::fs::read(&f).unwrap();
            (f, bytes)
        })
        .collect();
    let memo = Arc::new(Mutex::new(Memo::default()));
    let mut compared = 0;
    let mut differ = Vec::new();
    // Twice over the whole set: on the second pass every string is read
    // from the memo.
    for pass in 0..2 {
        for (file, bytes) in &inputs {
            let Some(alone) = audited(file, bytes, None) else {
                continue;
            };
            let with = audited(file, bytes, Some(&memo)).unwrap();
            compared += 1;
            if shown(&alone) != shown(&with) {
                differ.push(format!("pass {pass}: {}", file.display()));
            }
        }
    }
    assert!(compared > 500, "only {compared} reports compared");
    assert!(
        differ.is_empty(),
        "{} of {compared} reports differ with the run's memo: {differ:?}",
        differ.len()
    );
}
