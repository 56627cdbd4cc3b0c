#![no_main]
//! Importer bytes → detect → import → audit → every renderer. The first
//! byte picks the format (or detection); the rest is the file.
use isolint_core::import::{self, Format};
use libfuzzer_sys::fuzz_target;
#[path = "common.rs"]
mod common;

fuzz_target!(|data: &[u8]| {
    let Some((&pick, bytes)) = data.split_first() else {
        return;
    };
    let format = match Format::ALL.get(usize::from(pick) % (Format::ALL.len() + 1)) {
        Some(f) => *f,
        None => match import::detect(bytes, Some("fuzz")) {
            Some(f) => f,
            None => return,
        },
    };
    let Ok(units) = import::import(bytes, format) else {
        return;
    };
    let labels = isolint_core::Labels::workshop();
    let opts = isolint_core::AuditOptions {
        today: isolint_core::Date::parse("2026-11-29"),
    };
    // Lines are counted at LF only: a lone CR is not a line break.
    let lines = bytes.iter().filter(|&&b| b == b'\n').count() + 1;
    for unit in &units {
        // An importer must write a profile isolint itself can read.
        let report = isolint_core::audit::audit_imported(unit, "fuzz", &labels, &opts, None, &isolint_core::InOrder)
            .unwrap_or_else(|e| panic!("imported profile does not parse: {e}"));
        for f in &report.issues {
            if let Some(o) = &f.origin {
                assert!(
                    o.line >= 1 && (o.line as usize) <= lines && o.column >= 1,
                    "origin {}:{} outside the {lines}-line source",
                    o.line,
                    o.column
                );
            }
        }
        // One line convention everywhere: LF only, a lone CR is no break.
        for n in &unit.notes {
            assert!(
                n.line >= 1 && (n.line as usize) <= lines && n.column >= 1,
                "note at {}:{} outside the {lines}-line source",
                n.line,
                n.column
            );
        }
        common::check_report(&report);
    }
});
