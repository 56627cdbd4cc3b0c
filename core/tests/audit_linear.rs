//! The audit of a file of many profiles, and every rendering of it, grows
//! linearly with the file (issue 42 item 7): twice the services make about
//! twice the allocations and bytes allocated in each stage. Counted, not
//! timed, so the figures hold on any machine and under any load. The
//! steps this catches were each once per profile over the whole file: a
//! copy of the file's secrets for every profile's report, a walk of the
//! whole file's lines for every profile's text report.
//!
//! And one file may describe at most [`import::MAX_AUDITED_PROFILES`] for an
//! audit: past it, every front end is refused at the first profile over.
#![allow(clippy::disallowed_methods, clippy::disallowed_types)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use isolint_core::import::{self, Format};
use isolint_core::render::text::TextOptions;
use isolint_core::render::{github, json, markdown, sarif, text};
use isolint_core::{AuditOptions, Date, Labels, Report};

#[derive(Clone, Copy, Default, Debug)]
struct Counts {
    allocations: u64,
    bytes: u64,
}

thread_local! {
    static COUNTS: Cell<Counts> = const { Cell::new(Counts { allocations: 0, bytes: 0 }) };
}

fn count(grew: usize) {
    // `try_with`: the allocator also runs while a thread's locals are torn
    // down.
    let _ = COUNTS.try_with(|c| {
        let mut n = c.get();
        n.allocations += 1;
        n.bytes += grew as u64;
        c.set(n);
    });
}

struct Counting;

// SAFETY: every call is passed to the system allocator unchanged; the
// counting touches only a thread-local `Cell` that never allocates.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        count(l.size());
        // SAFETY: same contract as the caller's.
        unsafe { System.alloc(l) }
    }
    unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
        // SAFETY: same contract as the caller's.
        unsafe { System.dealloc(p, l) }
    }
    unsafe fn realloc(&self, p: *mut u8, l: Layout, n: usize) -> *mut u8 {
        count(n.saturating_sub(l.size()));
        // SAFETY: same contract as the caller's.
        unsafe { System.realloc(p, l, n) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

fn counted<T>(f: impl FnOnce() -> T) -> (Counts, T) {
    COUNTS.with(|c| c.set(Counts::default()));
    let out = f();
    (COUNTS.with(Cell::get), out)
}

/// `n` Compose services, each with a secret of its own, a finding or two
/// and lines of the file that its report quotes.
fn compose(n: usize) -> String {
    let mut s = String::from("services:\n");
    for i in 0..n {
        s.push_str(&format!(
            "  s{i}:\n    image: python:3.12\n    privileged: true\n    volumes:\n      \
             - /home/u{i}/.ssh:/w\n    environment:\n      API_TOKEN: tok-{i}-Zq8vW3kP9rT2xY\n"
        ));
    }
    s
}

/// The same for Kubernetes: one Pod document per profile.
fn pods(n: usize) -> String {
    (0..n)
        .map(|i| {
            format!(
                "---\napiVersion: v1\nkind: Pod\nmetadata: {{name: p{i}}}\nspec:\n  containers:\n  \
                 - name: c\n    image: python:3.12\n    securityContext: {{privileged: true}}\n    \
                 env:\n    - {{name: API_TOKEN, value: tok-{i}-Zq8vW3kP9rT2xY}}\n"
            )
        })
        .collect()
}

fn audit_all(text: &str, format: Format) -> Vec<Report> {
    let opts = AuditOptions {
        today: Date::parse("2026-11-29"),
    };
    let units = import::import(text.as_bytes(), format).unwrap();
    import::check_audit_count(&units).unwrap();
    units
        .iter()
        .map(|u| {
            isolint_core::audit::audit_imported(
                u,
                "f.yaml",
                &Labels::workshop(),
                &opts,
                None,
                &isolint_core::InOrder,
            )
            .unwrap()
        })
        .collect()
}

type Render = fn(&Report) -> String;

const RENDERS: [(&str, Render); 5] = [
    ("text", |r| text::render(r, TextOptions { color: false })),
    ("json", json::element),
    ("sarif", sarif::element),
    ("markdown", markdown::render),
    ("github", github::render),
];

#[test]
fn twice_the_profiles_cost_twice_as_much_to_audit_and_render() {
    // Linear gives 2.00 to 2.01 here; the steps above gave 2.17 to 3.34.
    const MAX: f64 = 2.15;
    let mut failures = Vec::new();
    for (what, make, format, n) in [
        (
            "compose services",
            compose as fn(usize) -> String,
            Format::Compose,
            80,
        ),
        ("pod documents", pods, Format::Kubernetes, 80),
    ] {
        let (small, big) = (make(n), make(2 * n));
        let (a, reports_a) = counted(|| audit_all(&small, format));
        let (b, reports_b) = counted(|| audit_all(&big, format));
        let mut stages = vec![("audit".to_string(), a, b)];
        for (name, render) in RENDERS {
            let (ra, _) = counted(|| reports_a.iter().map(render).map(|s| s.len()).sum::<usize>());
            let (rb, _) = counted(|| reports_b.iter().map(render).map(|s| s.len()).sum::<usize>());
            stages.push((format!("render {name}"), ra, rb));
        }
        // The importer's masked profile, as `isolint import` prints it.
        let units = |t: &str| import::import(t.as_bytes(), format).unwrap();
        let (ua, ub) = (units(&small), units(&big));
        let (ia, _) = counted(|| {
            ua.iter()
                .map(|u| u.masked_profile_json().len())
                .sum::<usize>()
        });
        let (ib, _) = counted(|| {
            ub.iter()
                .map(|u| u.masked_profile_json().len())
                .sum::<usize>()
        });
        stages.push(("import: masked profiles".into(), ia, ib));
        for (stage, a, b) in stages {
            for (figure, r) in [
                (
                    "allocations",
                    b.allocations as f64 / a.allocations.max(1) as f64,
                ),
                ("bytes allocated", b.bytes as f64 / a.bytes.max(1) as f64),
            ] {
                println!("{what}: {stage}: {figure} x{r:.2}");
                if r > MAX {
                    failures.push(format!(
                        "{what}: {stage}: {figure} grew {r:.2}x for 2x the profiles"
                    ));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

#[test]
fn a_file_of_more_profiles_than_an_audit_takes_is_refused_at_the_first_over() {
    let max = import::MAX_AUDITED_PROFILES;
    for (format, text, line) in [
        (Format::Compose, compose(max + 1), 2 + 7 * max),
        (Format::Kubernetes, pods(max + 1), 11 * max + 7),
        (
            Format::Codex,
            format!(
                "sandbox_mode = \"read-only\"\n{}",
                (0..max)
                    .map(|i| format!("[profiles.p{i}]\n"))
                    .collect::<String>()
            ),
            // The file's own profile is the first; the last table is over.
            1 + max,
        ),
    ] {
        let units = import::import(text.as_bytes(), format).unwrap();
        assert_eq!(units.len(), max + 1, "{format:?}");
        let e = import::check_audit_count(&units).expect_err("over the cap");
        assert_eq!(e.loc.map(|l| l.line), Some(line as u32), "{format:?}: {e}");
        let shown = e.to_string();
        assert!(
            shown.contains(&format!("describes {} profiles", max + 1))
                && shown.contains(&max.to_string()),
            "{shown}"
        );
        // One fewer is audited.
        let mut fewer = units;
        fewer.pop();
        assert!(import::check_audit_count(&fewer).is_ok());
    }
}
