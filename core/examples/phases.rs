//! Where one batch profile's time goes, in process: parse alone, parse +
//! decode + rules + plan + redaction (the whole `audit`), and the JSON
//! export on top. Prints microseconds per profile over the batch
//! generator's profiles. Usage: `phases [COUNT]`.
#![allow(
    clippy::disallowed_methods,
    clippy::disallowed_types,
    clippy::unwrap_used
)]

use isolint_core::json::{parse, Limits};
use isolint_core::render::json;
use isolint_core::{audit, synth, AuditOptions, Date, Labels};
use std::time::Instant;

fn main() {
    let count: usize = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(2000);
    let profiles: Vec<String> = (0..count).map(|i| synth::profile(4 + i % 9, i)).collect();
    let labels = Labels::workshop();
    let opts = AuditOptions {
        today: Date::parse("2026-11-29"),
    };
    let per = |f: &dyn Fn(&str)| {
        let start = Instant::now();
        for _ in 0..3 {
            for p in &profiles {
                f(p);
            }
        }
        start.elapsed().as_secs_f64() * 1e6 / (3 * count) as f64
    };
    let parse_us = per(&|p| {
        std::hint::black_box(parse(p.as_bytes(), Limits::default()).unwrap());
    });
    let audit_us = per(&|p| {
        std::hint::black_box(audit(p.as_bytes(), "p.json", &labels, &opts).unwrap());
    });
    let render_us = per(&|p| {
        let r = audit(p.as_bytes(), "p.json", &labels, &opts).unwrap();
        std::hint::black_box(json::element(&r));
    });
    println!("parse         {parse_us:7.1} us/profile");
    println!("audit         {audit_us:7.1} us/profile (parse included)");
    println!("audit+export  {render_us:7.1} us/profile");
}
