//! Helpers shared by the integration tests that walk every rule fixture.

use std::path::{Path, PathBuf};

/// Every `fail*.json` and `pass*.json` under `fixtures/rules/`, sorted.
pub fn rule_fixture_files() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/rules");
    let mut out = Vec::new();
    for dir in std::fs::read_dir(&root).unwrap() {
        let dir = dir.unwrap().path();
        for f in std::fs::read_dir(&dir).unwrap() {
            let f = f.unwrap().path();
            let name = f.file_name().unwrap().to_string_lossy().into_owned();
            if (name.starts_with("fail") || name.starts_with("pass")) && name.ends_with(".json") {
                out.push(f);
            }
        }
    }
    out.sort();
    out
}
