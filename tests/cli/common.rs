//! What every theme of the CLI tests shares: the audit date, the
//! workshop profiles, and helpers to run the binary and write inputs.

pub(crate) use std::fs;
pub(crate) use std::path::Path;

pub(crate) use isolint_acceptance::{bin, is_raw_control, isolint, isolint_in, root, strings, Run};
pub(crate) use isolint_core::model::StringEnum;
pub(crate) use isolint_core::rules;
pub(crate) use serde_json::Value;

pub(crate) const TODAY: &str = "2026-11-29";
pub(crate) const WORKSHOP: &str = "fixtures/profiles/workshop.json";
pub(crate) const FIXED: &str = "fixtures/profiles/workshop-fixed.json";

pub(crate) fn audit(args: &[&str]) -> Run {
    let mut all = vec!["audit", "--today", TODAY];
    all.extend_from_slice(args);
    isolint(all)
}

/// `error: FILE:LINE:COLUMN: ...` for `file` on stderr.
pub(crate) fn assert_positioned_error(run: &Run, file: &str) {
    let re =
        regex::Regex::new(&format!(r"(?m)^error: {}:\d+:\d+: \S", regex::escape(file))).unwrap();
    assert!(
        re.is_match(&run.stderr),
        "expected `error: {file}:LINE:COLUMN: …` on stderr, got:\n{}",
        run.stderr
    );
}

pub(crate) fn write(dir: &Path, rel: &str, bytes: &[u8]) {
    let p = dir.join(rel);
    fs::create_dir_all(p.parent().unwrap()).unwrap();
    fs::write(p, bytes).unwrap();
}
