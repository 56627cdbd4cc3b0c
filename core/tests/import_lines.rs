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
                let r = import::audit_imported(u, "x", &Labels::workshop(), &opts).unwrap();
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
