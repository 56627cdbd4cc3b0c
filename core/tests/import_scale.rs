//! Import cost stays linear in the input (issue 21 item 13). A Compose file
//! with 4,000 services took 65 s and 1.5 GB to audit, because every
//! profile got its own masked copy and digest of the whole source.
//!
//! The figures: `cargo test --release -p isolint-core --test import_scale
//! -- --ignored --nocapture` generates an input of about 8 MiB per format
//! (never committed) and prints time and output size.
#![allow(clippy::disallowed_methods, clippy::disallowed_types)]

use std::sync::Arc;
use std::time::Instant;

use isolint_core::import::{self, Format};
use isolint_core::{AuditOptions, Date, Labels};

fn compose(services: usize) -> String {
    let mut s = String::from("services:\n");
    for i in 0..services {
        s.push_str(&format!(
            "  s{i}:\n    image: x\n    volumes:\n      - /srv/a{i}:/b:ro\n    environment:\n      API_TOKEN: tok-{i}-Zq8vW3kP9rT2\n"
        ));
    }
    s
}

/// The structural fix: one masked copy per file, shared by every profile
/// and every report, with every profile's secrets masked in it.
#[test]
fn the_masked_source_is_one_copy_per_file() {
    let text = compose(3);
    let units = import::import(text.as_bytes(), Format::Compose).unwrap();
    assert_eq!(units.len(), 3);
    let opts = AuditOptions {
        today: Date::parse("2026-11-29"),
    };
    let reports: Vec<_> = units
        .iter()
        .map(|u| {
            isolint_core::audit::audit_imported(
                u,
                "c.yaml",
                &Labels::workshop(),
                &opts,
                None,
                &isolint_core::InOrder,
            )
            .unwrap()
        })
        .collect();
    let first = &reports[0].original.as_ref().unwrap().text;
    for r in &reports {
        assert!(Arc::ptr_eq(first, &r.original.as_ref().unwrap().text));
    }
    for i in 0..3 {
        assert!(
            !first.contains(&format!("tok-{i}-Zq8vW3kP9rT2")),
            "secret of s{i} left in the shared copy"
        );
    }
}

fn bwrap(bytes: usize) -> String {
    let mut s = String::from("bwrap --unshare-all");
    let mut i = 0;
    while s.len() < bytes {
        s.push_str(&format!(" --ro-bind /a{i} /b{i}"));
        i += 1;
    }
    s.push_str(" sh\n");
    s
}

#[test]
#[ignore = "a scale measurement: run in release with --ignored --nocapture"]
fn eight_mib_inputs_import_in_linear_time() {
    let limit = 8 << 20;
    let opts = AuditOptions {
        today: Date::parse("2026-11-29"),
    };
    let mut c = compose(1);
    let per = c.len();
    c = compose(limit / per * 9 / 10);
    let inputs = [
        ("compose", Format::Compose, c),
        ("bwrap", Format::Bwrap, bwrap(limit * 9 / 10)),
    ];
    for (name, format, text) in inputs {
        let t = Instant::now();
        match import::import(text.as_bytes(), format) {
            Ok(units) => {
                let produced: usize = units.iter().map(|u| u.profile_json.len()).sum();
                for u in &units {
                    isolint_core::audit::audit_imported(
                        u,
                        "x",
                        &Labels::workshop(),
                        &opts,
                        None,
                        &isolint_core::InOrder,
                    )
                    .unwrap();
                }
                let took = t.elapsed();
                println!(
                    "{name}: {} bytes in, {} profiles, {produced} bytes out, import+audit {took:?}",
                    text.len(),
                    units.len()
                );
            }
            Err(e) => println!(
                "{name}: {} bytes in, refused in {:?}: {e}",
                text.len(),
                t.elapsed()
            ),
        }
    }
}
