//! JSON parse throughput of isolint's spanned parser next to serde_json's on
//! the same bytes (the physical-limit reference), and the scale ratio of the
//! audit at 10k and 100k mounts × labels. Prints `key value` lines for
//! bench/run.sh. Usage: `throughput [--smoke]`.
#![allow(
    clippy::disallowed_methods,
    clippy::disallowed_types,
    clippy::unwrap_used
)]

use isolint_core::json::{parse, Limits};
use isolint_core::report::audit_with_limits;
use isolint_core::{synth, AuditOptions, Date, Labels};
use std::time::Instant;

/// The CLI's allocator: the scale figure is the product's.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Median seconds of `runs` timings of `f`.
fn median(runs: usize, mut f: impl FnMut()) -> f64 {
    let mut t: Vec<f64> = (0..runs)
        .map(|_| {
            let s = Instant::now();
            f();
            s.elapsed().as_secs_f64()
        })
        .collect();
    t.sort_by(|a, b| a.partial_cmp(b).unwrap());
    t[t.len() / 2]
}

fn main() {
    let smoke = std::env::args().any(|a| a == "--smoke");
    let (n_small, n_big, runs) = if smoke {
        (1_000, 10_000, 3)
    } else {
        (10_000, 100_000, 7)
    };
    let text = synth::profile(n_small, 0);
    let bytes = text.as_bytes();
    let mb = bytes.len() as f64 / 1e6;
    let ours = median(runs * 3, || {
        std::hint::black_box(parse(bytes, Limits::default()).unwrap());
    });
    let serde = median(runs * 3, || {
        std::hint::black_box(serde_json::from_slice::<serde_json::Value>(bytes).unwrap());
    });
    println!("parse_mb_per_s {:.1}", mb / ours);
    println!("serde_json_mb_per_s {:.1}", mb / serde);

    let opts = AuditOptions {
        today: Date::parse("2026-11-29"),
    };
    let mut times = Vec::new();
    for n in [n_small, n_big] {
        let labels = Labels::load(synth::catalog(n).as_bytes()).unwrap();
        let p = synth::profile(n, 0);
        let t = median(runs, || {
            // 100k mounts are about 10 MB, over the CLI's 8 MiB input limit.
            let limits = Limits {
                max_bytes: 64 << 20,
                ..Limits::default()
            };
            std::hint::black_box(
                audit_with_limits(p.as_bytes(), "s.json", &labels, &opts, limits).unwrap(),
            );
        });
        println!("audit_{n}_ms {:.2}", t * 1e3);
        times.push(t);
    }
    println!("scale_ratio {:.2}", times[1] / times[0]);
}
