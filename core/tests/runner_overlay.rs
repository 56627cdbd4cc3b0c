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
