//! JSON parse throughput of isolint's spanned parser next to serde_json's on
//! the same bytes (the physical-limit reference), and the scale ratio of the
//! audit at 10k and 100k mounts × labels. Prints `key value` lines for
//! bench/run.sh. Usage: `throughput [--smoke]`; with `THROUGHPUT_SAMPLES`
//! set, every timing of the two audits goes to stderr too.
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
    // Both sizes are timed in turns (small, big, big, small, ...), so a
    // change of the host's speed during the runs cannot bias their ratio;
    // each timed run follows an untimed one of the same size, so it finds
    // the memory of its own size warm, as in a run of that size alone.
    let cases: Vec<_> = [n_small, n_big]
        .into_iter()
        .map(|n| {
            let labels = Labels::load(synth::catalog(n).as_bytes()).unwrap();
            (n, labels, synth::profile(n, 0))
        })
        .collect();
    let mut samples = vec![Vec::new(); cases.len()];
    // More rounds than the parse: a 10k audit is short, and the host's
    // noise moves it most.
    for round in 0..runs + 4 {
        for k in 0..cases.len() {
            let k = if round % 2 == 0 {
                k
            } else {
                cases.len() - 1 - k
            };
            let (_, labels, p) = &cases[k];
            // 100k mounts are about 10 MB, over the CLI's 8 MiB input limit.
            let limits = Limits {
                max_bytes: 64 << 20,
                ..Limits::default()
            };
            let audit = || {
                std::hint::black_box(
                    audit_with_limits(p.as_bytes(), "s.json", labels, &opts, limits).unwrap(),
                );
            };
            audit();
            let s = Instant::now();
            audit();
            samples[k].push(s.elapsed().as_secs_f64());
        }
    }
    let mut times = Vec::new();
    for ((n, _, _), mut t) in cases.iter().zip(samples) {
        t.sort_by(|a, b| a.partial_cmp(b).unwrap());
        if std::env::var_os("THROUGHPUT_SAMPLES").is_some() {
            eprintln!(
                "{n}: {:?}",
                t.iter()
                    .map(|x| (x * 1e4).round() / 10.0)
                    .collect::<Vec<_>>()
            );
        }
        let t = t[t.len() / 2];
        println!("audit_{n}_ms {:.2}", t * 1e3);
        times.push(t);
    }
    println!("scale_ratio {:.2}", times[1] / times[0]);
}
