//! One line convention for every importer: lines end at LF only, so a lone
//! CR (which YAML itself takes as a line break) never moves an origin or a
//! note past the last LF line. Made from the fuzz crash of issue 21 item 15:
//! a 52-line Compose file with lone CRs had origins on lines 53-88.
#![allow(clippy::disallowed_methods, clippy::disallowed_types)]

use std::path::Path;

use isolint_core::import::{self, Format};
use isolint_core::{AuditOptions, Date, Labels};

#[test]
fn lone_carriage_returns_never_move_positions_past_the_file() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/import");
    let opts = AuditOptions {
        today: Date::parse("2026-11-29"),
    };
    let mut checked = 0;
    for (dir, format) in [
        ("compose", Format::Compose),
        ("kubernetes", Format::Kubernetes),
    ] {
        let mut files: Vec<_> = std::fs::read_dir(root.join(dir))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "yaml"))
            .collect();
        files.sort();
        for f in files {
            let text = std::fs::read_to_string(&f).unwrap();
            // Every third line break becomes a lone CR, where YAML still
            // breaks the line (inside comments and blank lines it is safe).
            let mut n = 0;
            let mangled: String = text
                .chars()
                .map(|c| {
                    if c == '\n' {
                        n += 1;
                        if n % 3 == 0 {
                            return '\r';
                        }
                    }
                    c
                })
                .collect();
            let lines = mangled.matches('\n').count() + 1;
            let Ok(units) = import::import(mangled.as_bytes(), format) else {
                continue;
            };
            for u in &units {
                for note in &u.notes {
                    assert!(
                        (note.line as usize) <= lines,
                        "{}: note at line {} of {lines}",
                        f.display(),
                        note.line
                    );
                }
                let r = isolint_core::audit::audit_imported(
                    u,
                    "x",
                    &Labels::workshop(),
                    &opts,
                    None,
                    &isolint_core::InOrder,
                )
                .unwrap();
                for i in &r.issues {
                    if let Some(o) = &i.origin {
                        assert!(
                            (o.line as usize) <= lines,
                            "{}: origin at line {} of {lines}",
                            f.display(),
                            o.line
                        );
                    }
                }
                checked += 1;
            }
        }
    }
    assert!(checked >= 3, "only {checked} profiles imported");
}

/// The line breaks and near-breaks other conventions use: a lone CR (old
/// Mac, and YAML), CRLF, the Unicode line and paragraph separators, NEL
/// (a YAML 1.1 break) and form feed.
const BREAKS: &[&str] = &["\r", "\r\n", "\u{2028}", "\u{2029}", "\u{85}", "\u{c}"];

/// One source of every format (and a profile), and how it is read.
fn inputs() -> Vec<(String, Option<Format>, String)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures");
    let mut out = Vec::new();
    for (file, format) in [
        ("import/compose/risky.yaml", Some(Format::Compose)),
        ("import/kubernetes/pod-home.yaml", Some(Format::Kubernetes)),
        ("import/codex/workspace-write.toml", Some(Format::Codex)),
        ("import/bwrap/loose.sh", Some(Format::Bwrap)),
        ("import/oci/risky.json", Some(Format::Oci)),
        ("profiles/workshop.json", None),
    ] {
        let text = std::fs::read_to_string(root.join(file)).unwrap();
        out.push((file.to_string(), format, text));
    }
    out
}

/// Every line and column the audit of `text` reports: finding positions,
/// origins in the original file and import notes; with `exports`, each
/// report's exports are checked by [`lf_only`] too.
fn positions(format: Option<Format>, text: &str, exports: bool) -> Vec<(&'static str, u32, u32)> {
    let opts = AuditOptions {
        today: Date::parse("2026-11-29"),
    };
    let labels = Labels::workshop();
    let mut out = Vec::new();
    let Some(format) = format else {
        if let Ok(r) = isolint_core::audit(text.as_bytes(), "p.json", &labels, &opts) {
            if exports {
                lf_only(&r);
            }
            for i in &r.issues {
                out.push(("finding", i.line.unwrap_or(1), i.column.unwrap_or(1)));
            }
        }
        return out;
    };
    let Ok(units) = import::import(text.as_bytes(), format) else {
        return out;
    };
    for u in &units {
        for n in &u.notes {
            out.push(("note", n.line, n.column));
        }
        let r = isolint_core::audit::audit_imported(
            u,
            "x",
            &labels,
            &opts,
            None,
            &isolint_core::InOrder,
        )
        .unwrap();
        if exports {
            lf_only(&r);
        }
        for i in &r.issues {
            if let Some(o) = &i.origin {
                out.push(("origin", o.line, o.column));
            }
        }
        // The masked copy keeps the file's lines: snippets index it.
        assert_eq!(
            u.masked_source.split('\n').count(),
            text.split('\n').count(),
            "the masked source changed the line count"
        );
    }
    out
}

/// Every export ends its lines with LF alone: no other break of
/// [`BREAKS`] reaches one raw, whatever the source held.
fn lf_only(r: &isolint_core::Report) {
    use isolint_core::render::{github, json, markdown, sarif, text};
    for (format, out) in [
        ("text", text::render(r, text::TextOptions { color: false })),
        ("json", json::render(r)),
        ("sarif", sarif::render(r)),
        ("markdown", markdown::render(r)),
        ("github", github::render(r)),
    ] {
        let raw = out
            .chars()
            .find(|c| BREAKS.iter().any(|b| b.starts_with(*c)));
        assert!(raw.is_none(), "{format} holds a raw {raw:?}");
    }
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(128))]
    /// Lines count LF only, in every format: whatever other break a file
    /// holds, no position is past the file's last LF line, and no column
    /// is past the end of its line (in characters, plus one for the end).
    #[test]
    fn every_position_is_on_an_lf_line_of_the_file(
        input in 0usize..6,
        edits in proptest::collection::vec((proptest::prelude::any::<proptest::sample::Index>(), 0usize..BREAKS.len(), proptest::prelude::any::<bool>()), 1..3),
    ) {
        let (file, format, original) = inputs().swap_remove(input);
        // Each edit turns one LF into another break, or puts another
        // break after a space (where it is whitespace to most readers).
        let mut text = original.clone();
        for (at, kind, replace) in edits {
            let brk = BREAKS[kind];
            let spots: Vec<usize> = text
                .char_indices()
                .filter(|(_, c)| if replace { *c == '\n' } else { *c == ' ' })
                .map(|(i, _)| i)
                .collect();
            if spots.is_empty() {
                continue;
            }
            let i = spots[at.index(spots.len())];
            if replace {
                text.replace_range(i..i + 1, brk);
            } else {
                text.insert_str(i + 1, brk);
            }
        }
        // The unchanged file has positions to check, so the test can fail.
        proptest::prop_assert!(positions(format, &original, false).len() >= 3, "{file}: too few positions");
        let lines: Vec<&str> = text.split('\n').collect();
        for (what, line, column) in positions(format, &text, true) {
            proptest::prop_assert!(line >= 1 && (line as usize) <= lines.len(),
                "{file}: {what} at line {line} of {} LF lines", lines.len());
            let width = lines[line as usize - 1].trim_end_matches('\r').chars().count() as u32;
            proptest::prop_assert!(column >= 1 && column <= width + 1,
                "{file}: {what} at {line}:{column}, past the line's {width} characters");
        }
    }
}
