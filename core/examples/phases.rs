//! Where one batch profile's time goes, in process: parse alone, parse +
//! decode + rules + plan + redaction (the whole `audit`), and the JSON
//! export on top. Prints microseconds per profile over the batch
//! generator's profiles, and allocations per profile (the system
//! allocator, counted). Usage: `phases [COUNT]`.
#![allow(
    clippy::disallowed_methods,
    clippy::disallowed_types,
    clippy::unwrap_used
)]

use isolint_core::json::{parse, Limits};
use isolint_core::par::InOrder;
use isolint_core::render::json;
use isolint_core::report::{audit_parsed, Detail, Parsed};
use isolint_core::secrets::Memo;
use isolint_core::{audit, synth, AuditOptions, Date, Labels};
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// The system allocator, counting allocations.
struct Counting;
static ALLOCS: AtomicUsize = AtomicUsize::new(0);
// SAFETY: forwards to the system allocator unchanged.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        ALLOCS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: same contract as the caller's.
        unsafe { System.alloc(l) }
    }
    unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
        // SAFETY: same contract as the caller's.
        unsafe { System.dealloc(p, l) }
    }
    unsafe fn realloc(&self, p: *mut u8, l: Layout, n: usize) -> *mut u8 {
        ALLOCS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: same contract as the caller's.
        unsafe { System.realloc(p, l, n) }
    }
}
#[global_allocator]
static GLOBAL: Counting = Counting;

fn main() {
    if std::env::args().nth(1).as_deref() == Some("big") {
        return big();
    }
    if std::env::args().nth(1).as_deref() == Some("writer") {
        return writer();
    }
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
        let before = ALLOCS.load(Ordering::Relaxed);
        let start = Instant::now();
        for _ in 0..3 {
            for p in &profiles {
                f(p);
            }
        }
        let us = start.elapsed().as_secs_f64() * 1e6 / (3 * count) as f64;
        let allocs = (ALLOCS.load(Ordering::Relaxed) - before) / (3 * count);
        (us, allocs)
    };
    let parse_us = per(&|p| {
        std::hint::black_box(parse(p.as_bytes(), Limits::default()).unwrap());
    });
    let audit_us = per(&|p| {
        std::hint::black_box(audit(p.as_bytes(), "p.json", &labels, &opts).unwrap());
    });
    // As the CLI's batch audits a directory for an export: findings
    // only, and, for the second figure, one memo of what the run's
    // strings hold (`Parsed::remembering`).
    let findings = |p: &str, memo: Option<&Arc<Mutex<Memo>>>| {
        let parsed = Parsed::new(p.as_bytes(), Limits::default()).unwrap();
        let parsed = match memo {
            Some(m) => parsed.remembering(m),
            None => parsed,
        };
        audit_parsed(parsed, "p.json", &labels, &opts, Detail::Findings, &InOrder)
    };
    let findings_us = per(&|p| {
        std::hint::black_box(findings(p, None));
    });
    let memo = Arc::new(Mutex::new(Memo::default()));
    let memo_us = per(&|p| {
        std::hint::black_box(findings(p, Some(&memo)));
    });
    let render_us = per(&|p| {
        let r = audit(p.as_bytes(), "p.json", &labels, &opts).unwrap();
        std::hint::black_box(json::element(&r));
    });
    for (name, (us, allocs)) in [
        ("parse", parse_us),
        ("audit (parse included)", audit_us),
        ("audit + JSON export", render_us),
        ("audit, findings only", findings_us),
        ("the same, run's memo", memo_us),
    ] {
        println!("{name:24} {us:7.1} us/profile {allocs:6} allocations/profile");
    }
}

/// The 10k mounts x 10k labels case, stage by stage (milliseconds).
fn big() {
    let catalog = synth::catalog(10_000);
    let profile = synth::profile(10_000, 0);
    let opts = AuditOptions {
        today: Date::parse("2026-11-29"),
    };
    let time = |f: &mut dyn FnMut()| {
        let mut t: Vec<f64> = (0..9)
            .map(|_| {
                let s = Instant::now();
                f();
                s.elapsed().as_secs_f64() * 1e3
            })
            .collect();
        t.sort_by(|a, b| a.partial_cmp(b).unwrap());
        t[t.len() / 2]
    };
    let labels = Labels::load(catalog.as_bytes()).unwrap();
    let load = time(&mut || {
        std::hint::black_box(Labels::load(catalog.as_bytes()).unwrap());
    });
    let parse_ms = time(&mut || {
        std::hint::black_box(parse(profile.as_bytes(), Limits::default()).unwrap());
    });
    let audit_ms = time(&mut || {
        std::hint::black_box(audit(profile.as_bytes(), "p.json", &labels, &opts).unwrap());
    });
    let report = audit(profile.as_bytes(), "p.json", &labels, &opts).unwrap();
    let export_ms = time(&mut || {
        std::hint::black_box(json::render(&report));
    });
    println!("catalog load       {load:7.1} ms");
    println!("profile parse      {parse_ms:7.1} ms");
    println!("audit (parse incl) {audit_ms:7.1} ms");
    println!("JSON export        {export_ms:7.1} ms");
}

/// The JSON export of the batch's reports written by core's own writer
/// (`render::json::element`) and by serde_json's pretty serializer from the
/// same export structure (`render::json::export`): microseconds per report
/// and whether the bytes agree. The figure that keeps (or retires) the
/// hand-written writer (BENCHMARKS.md, "Hand-written replacements").
fn writer() {
    let labels = Labels::workshop();
    let opts = AuditOptions {
        today: Date::parse("2026-11-29"),
    };
    let reports: Vec<_> = (0..2000)
        .map(|i| {
            let p = synth::profile(4 + i % 9, i);
            audit(p.as_bytes(), "p.json", &labels, &opts).unwrap()
        })
        .collect();
    let same = reports.iter().all(|r| {
        let ours = json::element(r);
        let theirs = serde_json::to_string_pretty(&json::export(r)).unwrap();
        // `element` indents the report as an element of the batch's array.
        let theirs: String = theirs
            .lines()
            .map(|l| format!("  {l}\n"))
            .collect::<String>();
        ours.trim_end() == theirs.trim_end()
    });
    let time = |f: &dyn Fn(&isolint_core::Report) -> usize| {
        let mut t: Vec<f64> = (0..7)
            .map(|_| {
                let s = Instant::now();
                let n: usize = reports.iter().map(f).sum();
                std::hint::black_box(n);
                s.elapsed().as_secs_f64() * 1e6 / reports.len() as f64
            })
            .collect();
        t.sort_by(|a, b| a.partial_cmp(b).unwrap());
        t[t.len() / 2]
    };
    let ours = time(&|r| json::element(r).len());
    let theirs = time(&|r| {
        serde_json::to_string_pretty(&json::export(r))
            .unwrap()
            .len()
    });
    println!("core's JSON writer         {ours:7.1} us/report");
    println!("serde_json pretty (export) {theirs:7.1} us/report");
    println!("bytes equal after indent: {same}");
}
