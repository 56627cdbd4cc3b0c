//! Importer fixtures: `fixtures/import/<format>/` holds source files, the
//! golden profiles generated from them (`<stem>.expected.json`, or
//! `<stem>.<profile name>.expected.json` when a file yields several), and
//! optional expectations (`<stem>.expect.json`): findings that must appear
//! at an original line and column, source-map positions, notes and fields
//! left undeclared. `fixtures/import/malformed/` holds bad files of every
//! format with the error each must produce (`<name>.error`).
//!
//! `ISOLINT_BLESS=1 cargo test -p isolint-core --test import_fixtures`
//! rewrites the golden profiles.
#![allow(clippy::disallowed_methods, clippy::disallowed_types)]

use std::path::{Path, PathBuf};

use isolint_core::import::{self, Format, Imported};
use isolint_core::model::StringEnum;
use isolint_core::{AuditOptions, Date, Labels, Severity};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/import")
}

fn format_of(dir: &str) -> Format {
    Format::parse(dir).unwrap_or_else(|| panic!("no format for fixtures folder {dir}"))
}

fn is_input(p: &Path) -> bool {
    let n = p.file_name().unwrap().to_string_lossy();
    !n.ends_with(".expected.json") && !n.ends_with(".expect.json") && !n.ends_with(".error")
}

fn inputs(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_file() && is_input(p))
        .collect();
    v.sort();
    v
}

fn stem(p: &Path) -> String {
    let n = p.file_name().unwrap().to_string_lossy().to_string();
    match n.rfind('.') {
        Some(i) => n[..i].to_string(),
        None => n,
    }
}

fn golden_path(input: &Path, imported: &[Imported], i: &Imported) -> PathBuf {
    let dir = input.parent().unwrap();
    if imported.len() == 1 || i.name.is_empty() {
        dir.join(format!("{}.expected.json", stem(input)))
    } else {
        let name = i.name.replace(['/', ' '], "_");
        dir.join(format!("{}.{name}.expected.json", stem(input)))
    }
}

fn options() -> AuditOptions {
    AuditOptions {
        today: Date::parse("2026-11-29"),
    }
}

fn format_dirs() -> Vec<(String, Format)> {
    let mut v: Vec<(String, Format)> = std::fs::read_dir(root())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .map(|p| p.file_name().unwrap().to_string_lossy().to_string())
        // `real/` is the corpus of public files (tests/import_corpus.rs).
        .filter(|n| n != "malformed" && n != "real")
        .map(|n| {
            let f = format_of(&n);
            (n, f)
        })
        .collect();
    v.sort();
    v
}

#[test]
fn every_format_has_fixtures() {
    let dirs = format_dirs();
    for f in Format::ALL {
        assert!(dirs.iter().any(|(_, g)| *g == f), "no fixtures for {f}");
    }
}

#[test]
fn fixtures_are_detected_and_match_their_golden_profiles() {
    let bless = std::env::var_os("ISOLINT_BLESS").is_some();
    let mut failures = Vec::new();
    for (dir, format) in format_dirs() {
        for input in inputs(&root().join(&dir)) {
            let bytes = std::fs::read(&input).unwrap();
            let name = input.file_name().unwrap().to_string_lossy().to_string();
            assert_eq!(
                import::detect(&bytes, Some(&name)),
                Some(format),
                "{}: detected format",
                input.display()
            );
            // Detection must come from the content, not the file name.
            assert_eq!(
                import::detect(&bytes, Some("unnamed")),
                Some(format),
                "{}: detected from content alone",
                input.display()
            );
            let imported = import::import(&bytes, format)
                .unwrap_or_else(|e| panic!("{}: {e}", input.display()));
            assert!(!imported.is_empty());
            for i in &imported {
                // The generated profile is a valid isolint.profile/v1 document.
                let doc = isolint_core::json::parse(i.profile_json.as_bytes(), Default::default())
                    .unwrap();
                assert!(doc.duplicates.is_empty(), "{}: duplicates", input.display());
                let (_, problems) = isolint_core::decode::profile(&doc.root);
                assert!(
                    problems.is_empty(),
                    "{} #{}: decode problems {problems:?}",
                    input.display(),
                    i.name
                );
                assert!(i.source_map.iter().any(|m| m.pointer.is_empty()));
                let golden = golden_path(&input, &imported, i);
                if bless {
                    std::fs::write(&golden, &i.profile_json).unwrap();
                    continue;
                }
                match std::fs::read_to_string(&golden) {
                    Ok(want) if want == i.profile_json => {}
                    Ok(_) => failures.push(format!("{} differs", golden.display())),
                    Err(_) => failures.push(format!("{} is missing", golden.display())),
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "golden profiles (re-bless with ISOLINT_BLESS=1):\n{}",
        failures.join("\n")
    );
}

fn find<'a>(imported: &'a [Imported], name: &str, input: &Path) -> &'a Imported {
    imported
        .iter()
        .find(|i| i.name == name)
        .unwrap_or_else(|| panic!("{}: no imported profile named {name:?}", input.display()))
}

#[test]
fn findings_point_at_the_original_line_and_column() {
    let labels = Labels::workshop();
    let mut checked = 0;
    for (dir, format) in format_dirs() {
        for input in inputs(&root().join(&dir)) {
            let bytes = std::fs::read(&input).unwrap();
            let imported = import::import(&bytes, format).unwrap();
            let file = format!(
                "fixtures/import/{dir}/{}",
                input.file_name().unwrap().to_string_lossy()
            );
            let reports: Vec<_> = imported
                .iter()
                .map(|i| {
                    isolint_core::audit::audit_imported(
                        i,
                        &file,
                        &labels,
                        &options(),
                        None,
                        &isolint_core::InOrder,
                    )
                    .unwrap()
                })
                .collect();
            for r in &reports {
                assert!(r.original.is_some());
                for f in &r.issues {
                    let o = f.origin.as_ref().unwrap_or_else(|| {
                        panic!(
                            "{}: finding {} at {} has no origin",
                            file, f.rule, f.pointer
                        )
                    });
                    assert_eq!(o.file, file);
                    assert!(o.line >= 1 && o.column >= 1);
                    let text = &r.original.as_ref().unwrap().text;
                    assert!(
                        text.lines().count() >= o.line as usize,
                        "{file}: origin line {} past the end",
                        o.line
                    );
                }
            }
            let expect_path = input
                .parent()
                .unwrap()
                .join(format!("{}.expect.json", stem(&input)));
            let Ok(text) = std::fs::read_to_string(&expect_path) else {
                continue;
            };
            let expect: serde_json::Value = serde_json::from_str(&text).unwrap();
            for e in expect["findings"].as_array().into_iter().flatten() {
                let name = e["profile"].as_str().unwrap_or("");
                let idx = imported
                    .iter()
                    .position(|i| i.name == name)
                    .unwrap_or_else(|| panic!("{}: no profile {name:?}", expect_path.display()));
                let r = &reports[idx];
                let pointer = e["pointer"].as_str().unwrap();
                let line = e["line"].as_u64().unwrap() as u32;
                let column = e["column"].as_u64().unwrap() as u32;
                let min = e["severity"]
                    .as_str()
                    .and_then(Severity::parse)
                    .unwrap_or(Severity::Info);
                let hit = r.issues.iter().find(|f| {
                    f.pointer == pointer
                        && f.severity.at_least(min)
                        && e["rule"].as_str().is_none_or(|rule| rule == f.rule)
                        && f.origin
                            .as_ref()
                            .is_some_and(|o| o.line == line && o.column == column)
                });
                assert!(
                    hit.is_some(),
                    "{}: expected a {} finding at {pointer} from {line}:{column}; got {:?}",
                    expect_path.display(),
                    min.as_str(),
                    r.issues
                        .iter()
                        .filter(|f| f.pointer == pointer)
                        .map(|f| (
                            f.rule,
                            f.severity.as_str(),
                            f.origin.as_ref().map(|o| (o.line, o.column))
                        ))
                        .collect::<Vec<_>>()
                );
                checked += 1;
            }
            // Rules that must not fire on a profile (regressions of false
            // positives).
            for e in expect["absent"].as_array().into_iter().flatten() {
                let name = e["profile"].as_str().unwrap_or("");
                let idx = imported
                    .iter()
                    .position(|i| i.name == name)
                    .unwrap_or_else(|| panic!("{}: no profile {name:?}", expect_path.display()));
                let rule = e["rule"].as_str().unwrap();
                assert!(
                    !reports[idx].issues.iter().any(|f| f.rule == rule),
                    "{}: {rule} fired on {name}",
                    expect_path.display()
                );
                checked += 1;
            }
            for e in expect["origins"].as_array().into_iter().flatten() {
                let i = find(&imported, e["profile"].as_str().unwrap_or(""), &input);
                let pointer = e["pointer"].as_str().unwrap();
                let got = i.origin_of(pointer).unwrap();
                assert_eq!(
                    (got.line, got.column),
                    (
                        e["line"].as_u64().unwrap() as u32,
                        e["column"].as_u64().unwrap() as u32
                    ),
                    "{}: origin of {pointer}",
                    expect_path.display()
                );
                checked += 1;
            }
            for e in expect["notes"].as_array().into_iter().flatten() {
                let i = find(&imported, e["profile"].as_str().unwrap_or(""), &input);
                let line = e["line"].as_u64().unwrap() as u32;
                let needle = e["contains"].as_str().unwrap();
                assert!(
                    i.notes
                        .iter()
                        .any(|n| n.line == line && n.message.contains(needle)),
                    "{}: no note containing {needle:?} at line {line}; notes: {:#?}",
                    expect_path.display(),
                    i.notes
                );
                checked += 1;
            }
            for e in expect["undeclared"].as_array().into_iter().flatten() {
                let i = find(&imported, e["profile"].as_str().unwrap_or(""), &input);
                let pointer = e["pointer"].as_str().unwrap();
                assert!(
                    i.undeclared.iter().any(|u| u.pointer == pointer),
                    "{}: {pointer} should be listed as undeclared",
                    expect_path.display()
                );
                assert!(
                    isolint_core::json::parse(i.profile_json.as_bytes(), Default::default())
                        .unwrap()
                        .root
                        .pointer(pointer)
                        .is_none(),
                    "{}: {pointer} is undeclared but present",
                    expect_path.display()
                );
                checked += 1;
            }
        }
    }
    assert!(checked > 40, "only {checked} expectations checked");
}

#[test]
fn malformed_files_fail_cleanly_with_a_position() {
    let dir = root().join("malformed");
    let mut n = 0;
    for input in inputs(&dir) {
        let name = input.file_name().unwrap().to_string_lossy().to_string();
        let format = Format::ALL
            .into_iter()
            .find(|f| name.starts_with(&format!("{}-", f.name())))
            .unwrap_or_else(|| panic!("{name}: no format prefix"));
        let want = std::fs::read_to_string(dir.join(format!("{}.error", stem(&input))))
            .unwrap_or_else(|_| panic!("{name}: missing .error file"));
        let bytes = std::fs::read(&input).unwrap();
        // Broken files are still recognized, so the user gets the
        // importer's precise error rather than a profile parse error.
        assert_eq!(
            import::detect(&bytes, Some("x")),
            Some(format),
            "{name}: detected"
        );
        let err = import::import(&bytes, format).expect_err(&name);
        let got = err.to_string();
        assert!(err.loc.is_some(), "{name}: error without a position: {got}");
        assert!(
            got.starts_with(want.trim()),
            "{name}: got {got:?}, want it to start with {:?}",
            want.trim()
        );
        n += 1;
    }
    assert!(n >= 12);
}

#[test]
fn limits_apply_to_every_syntax() {
    let big = vec![b' '; 8 * 1024 * 1024 + 1];
    for f in Format::ALL {
        let e = import::import(&big, f).unwrap_err();
        assert!(e.to_string().contains("limit"), "{f}: {e}");
    }
    let deep_yaml = format!("apiVersion: v1\nkind: Pod\nspec: {}\n", "[".repeat(200));
    assert!(import::import(deep_yaml.as_bytes(), Format::Kubernetes).is_err());
    let deep_block: String = (0..100)
        .map(|i| format!("{}a{i}:\n", "  ".repeat(i)))
        .collect();
    let e = import::import(deep_block.as_bytes(), Format::Compose).unwrap_err();
    assert!(e.to_string().contains("deeper than 64"), "{e}");
    let deep_toml = format!("sandbox_mode = {}", "[".repeat(100));
    assert!(import::import(deep_toml.as_bytes(), Format::Codex).is_err());
    let e = import::import(b"\xff\xfe", Format::Bwrap).unwrap_err();
    assert!(e.to_string().contains("UTF-8"), "{e}");
}

/// Cut every fixture at many places and flip bytes: an importer may refuse
/// the result, but must never panic.
#[test]
fn damaged_fixtures_never_panic() {
    for (dir, format) in format_dirs() {
        for input in inputs(&root().join(&dir)) {
            let bytes = std::fs::read(&input).unwrap();
            let step = (bytes.len() / 60).max(1);
            for cut in (0..bytes.len()).step_by(step) {
                let _ = import::import(&bytes[..cut], format);
                let mut flipped = bytes.clone();
                flipped[cut] = match flipped[cut] {
                    b'"' => b'\'',
                    b':' => b' ',
                    b'[' => b'{',
                    b'-' => b'\t',
                    b => b.wrapping_add(1),
                };
                if let Ok(imported) = import::import(&flipped, format) {
                    for i in &imported {
                        let _ = isolint_core::audit::audit_imported(
                            i,
                            "x",
                            &Labels::workshop(),
                            &options(),
                            None,
                            &isolint_core::InOrder,
                        );
                    }
                }
                let _ = import::detect(&flipped, Some("x"));
            }
        }
    }
}

#[test]
fn renderers_show_the_original_location() {
    let file = "fixtures/import/kubernetes/pod-home.yaml";
    let bytes = std::fs::read(root().join("kubernetes/pod-home.yaml")).unwrap();
    let imported = import::import(&bytes, Format::Kubernetes).unwrap();
    let report = isolint_core::audit::audit_imported(
        &imported[0],
        file,
        &Labels::workshop(),
        &options(),
        None,
        &isolint_core::InOrder,
    )
    .unwrap();
    assert_eq!(
        report.profile.source,
        format!("{file}#Pod/parser-tests/runner")
    );

    // Text: the `-->` line names the original file and position, and the
    // snippet is the original line.
    let text = isolint_core::render::text::render(&report, Default::default());
    let at = text
        .find(&format!("--> {file}:20:15  /mounts/0/source"))
        .unwrap_or_else(|| panic!("no original location in:\n{text}"));
    let after = &text[at..];
    assert!(
        after.lines().nth(2).unwrap().contains("path: /home/user"),
        "{after}"
    );

    // JSON: the profile position stays, `origin` is added.
    let export: serde_json::Value =
        serde_json::from_str(&isolint_core::render::json::render(&report)).unwrap();
    let issue = export["issues"]
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i["pointer"] == "/mounts/0/source")
        .unwrap();
    assert_eq!(issue["origin"]["file"], file);
    assert_eq!(issue["origin"]["line"], 20);
    assert_eq!(issue["origin"]["column"], 15);
    assert!(issue["line"].as_u64().is_some());

    // SARIF: the physical location is the original file.
    let sarif: serde_json::Value =
        serde_json::from_str(&isolint_core::render::sarif::render(&report)).unwrap();
    let run = &sarif["runs"][0];
    assert_eq!(run["artifacts"][0]["location"]["uri"], file);
    let result = run["results"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["properties"]["pointer"] == "/mounts/0/source")
        .unwrap();
    let loc = &result["locations"][0]["physicalLocation"];
    assert_eq!(loc["artifactLocation"]["uri"], file);
    assert_eq!(loc["region"]["startLine"], 20);
    assert_eq!(loc["region"]["startColumn"], 15);
    assert_eq!(result["properties"]["profile"], report.profile.source);

    // A secret in the original text is masked in the snippet source.
    let secrets = std::fs::read(root().join("compose/risky.yaml")).unwrap();
    let imported = import::import(&secrets, Format::Compose).unwrap();
    let report = isolint_core::audit::audit_imported(
        &imported[0],
        "c.yaml",
        &Labels::workshop(),
        &options(),
        None,
        &isolint_core::InOrder,
    )
    .unwrap();
    let original = report.original.as_ref().unwrap();
    assert!(!original
        .text
        .contains("ghp_abcdefghijklmnopqrstuvwxyz0123456789"));
    let text = isolint_core::render::text::render(&report, Default::default());
    assert!(!text.contains("ghp_abcdefghijklmnopqrstuvwxyz0123456789"));
}

/// The TOML reader's differential test compiles the TOML fixtures in
/// (`TOML_FIXTURES` in core/src/import/syntax/toml.rs, so that core's own tests do
/// no I/O): every TOML file under fixtures/import must be on that list.
#[test]
fn every_toml_fixture_is_in_the_toml_readers_differential_list() {
    let list = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("src/import/syntax/toml.rs"),
    )
    .unwrap();
    let mut stack = vec![root()];
    let mut seen = 0;
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "toml") {
                seen += 1;
                let rel = path.strip_prefix(root()).unwrap().to_str().unwrap();
                let quoted = format!("include_str!(\"../../../../fixtures/import/{rel}\")");
                assert!(list.contains(&quoted), "{rel} is not in TOML_FIXTURES");
            }
        }
    }
    assert!(seen >= 9, "{seen} TOML fixtures");
}
