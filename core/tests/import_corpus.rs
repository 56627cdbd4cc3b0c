//! The corpus: real public configuration files under
//! `fixtures/import/real/<format>/`, each with a `.source` sidecar naming
//! its repository, path, commit and licence, and a reviewed snapshot of
//! what the audit finds (`.findings`: profile, rule, severity and the
//! origin line in the original file). A change to any importer or rule
//! that changes a finding on a real file shows up in review.
//!
//! `ISOLINT_BLESS=1 cargo test -p isolint-core --test import_corpus`
//! rewrites the snapshots.
#![allow(clippy::disallowed_methods, clippy::disallowed_types)]

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use isolint_core::import::{self, Format};
use isolint_core::model::StringEnum;
use isolint_core::{AuditOptions, Date, Labels};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/import/real")
}

fn is_input(p: &Path) -> bool {
    let n = p.file_name().unwrap().to_string_lossy();
    p.is_file() && !n.ends_with(".source") && !n.ends_with(".findings")
}

/// Every corpus file, with the format its folder names.
fn corpus() -> Vec<(PathBuf, Format)> {
    let mut out = Vec::new();
    for dir in std::fs::read_dir(root()).unwrap() {
        let dir = dir.unwrap().path();
        let name = dir.file_name().unwrap().to_string_lossy().to_string();
        let format = Format::parse(&name).unwrap_or_else(|| panic!("real/{name} names no format"));
        for f in std::fs::read_dir(&dir).unwrap() {
            let f = f.unwrap().path();
            if is_input(&f) {
                out.push((f, format));
            }
        }
    }
    out.sort();
    out
}

/// What the snapshot holds for one file.
fn render(path: &Path, format: Format) -> String {
    let bytes = std::fs::read(path).unwrap();
    let name = path.file_name().unwrap().to_string_lossy().to_string();
    let mut out = String::new();
    let detected = import::detect(&bytes, Some(&name)).map_or("profile", Format::name);
    writeln!(out, "detected: {detected}").unwrap();
    let units = match import::import(&bytes, format) {
        Ok(u) => u,
        Err(e) => {
            writeln!(out, "error: {e}").unwrap();
            return out;
        }
    };
    let options = AuditOptions {
        today: Date::parse("2026-11-29"),
    };
    for u in &units {
        let r = isolint_core::audit::audit_imported(
            u,
            &name,
            &Labels::workshop(),
            &options,
            None,
            &isolint_core::InOrder,
        )
        .unwrap();
        let label = if u.name.is_empty() {
            "-"
        } else {
            u.name.as_str()
        };
        writeln!(out, "profile {label}: {}", r.verdict.as_str()).unwrap();
        let mut rows: Vec<(u32, &str, &str)> = r
            .issues
            .iter()
            .map(|f| {
                (
                    f.origin.as_ref().map_or(0, |o| o.line),
                    f.rule,
                    f.severity.as_str(),
                )
            })
            .collect();
        rows.sort();
        for (line, rule, sev) in rows {
            writeln!(out, "  {line:>4} {rule} {sev}").unwrap();
        }
    }
    out
}

#[test]
fn the_corpus_spans_every_format_with_small_attributed_files() {
    let files = corpus();
    assert!(files.len() >= 30, "only {} corpus files", files.len());
    for f in Format::ALL {
        assert!(
            files.iter().any(|(_, g)| *g == f),
            "no corpus file for {}",
            f.name()
        );
    }
    for (p, _) in &files {
        let size = std::fs::metadata(p).unwrap().len();
        assert!(
            size < 50 * 1024,
            "{}: {size} bytes, over 50 KB",
            p.display()
        );
        let sidecar = PathBuf::from(format!("{}.source", p.display()));
        let text = std::fs::read_to_string(&sidecar)
            .unwrap_or_else(|_| panic!("{}: no .source sidecar", p.display()));
        for key in [
            "repository: https://github.com/",
            "path: ",
            "commit: ",
            "licence: ",
        ] {
            assert!(text.contains(key), "{}: no `{key}`", sidecar.display());
        }
    }
}

#[test]
fn every_corpus_file_matches_its_reviewed_findings() {
    let bless = std::env::var_os("ISOLINT_BLESS").is_some();
    let mut wrong = Vec::new();
    for (p, format) in corpus() {
        let got = render(&p, format);
        let snap = PathBuf::from(format!("{}.findings", p.display()));
        if bless {
            std::fs::write(&snap, &got).unwrap();
            continue;
        }
        match std::fs::read_to_string(&snap) {
            Ok(want) if want == got => {}
            Ok(want) => wrong.push(format!("{}:\n--- want\n{want}--- got\n{got}", p.display())),
            Err(_) => wrong.push(format!(
                "{}: no snapshot (bless with ISOLINT_BLESS=1)",
                p.display()
            )),
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
