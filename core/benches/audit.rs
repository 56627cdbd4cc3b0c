//! Criterion benchmarks: parse alone, audit alone, parse + audit + JSON
//! render of the workshop profile, and synthetic scale at N mounts × N labels.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use isolint_core::json::{parse, Limits};
use isolint_core::render::json;
use isolint_core::{audit, synth, AuditOptions, Date, Labels};
use std::hint::black_box;

fn opts() -> AuditOptions {
    AuditOptions {
        today: Date::parse("2026-11-29"),
    }
}

fn workshop(c: &mut Criterion) {
    let labels = Labels::workshop();
    let bytes = isolint_core::WORKSHOP_PROFILE.as_bytes();
    let mut g = c.benchmark_group("workshop");
    g.throughput(Throughput::Bytes(bytes.len() as u64));
    g.bench_function("parse", |b| {
        b.iter(|| parse(black_box(bytes), Limits::default()).unwrap())
    });
    g.bench_function("serde_json_parse", |b| {
        b.iter(|| serde_json::from_slice::<serde_json::Value>(black_box(bytes)).unwrap())
    });
    g.bench_function("audit", |b| {
        b.iter(|| audit(black_box(bytes), "w.json", &labels, &opts()).unwrap())
    });
    g.bench_function("audit_and_render_json", |b| {
        b.iter(|| json::render(&audit(black_box(bytes), "w.json", &labels, &opts()).unwrap()))
    });
    g.finish();
}

fn scale(c: &mut Criterion) {
    let mut g = c.benchmark_group("scale");
    g.sample_size(10);
    for n in [100usize, 1_000, 10_000, 100_000] {
        let labels = Labels::load(synth::catalog(n).as_bytes()).unwrap();
        let profile = synth::profile(n, 0);
        g.throughput(Throughput::Bytes(profile.len() as u64));
        g.bench_with_input(BenchmarkId::new("parse", n), &profile, |b, p| {
            b.iter(|| parse(black_box(p.as_bytes()), Limits::default()).unwrap())
        });
        g.bench_with_input(BenchmarkId::new("audit", n), &profile, |b, p| {
            b.iter(|| audit(black_box(p.as_bytes()), "s.json", &labels, &opts()).unwrap())
        });
    }
    g.finish();
}

criterion_group!(benches, workshop, scale);
criterion_main!(benches);
