// Tests build inputs in memory and time them; the I/O and clock bans of
// core/clippy.toml are for the library itself.
#![allow(clippy::disallowed_methods, clippy::disallowed_types)]

//! Issue 42 item 7, the secret part: secret values nested inside each
//! other, overlapping and repeated made the text report (which carries the
//! masked source and the mount table) and the dashboard's first frame
//! roughly cubic in the profile's size, while the JSON export stayed fast.
//!
//! A property over generated profiles of every such shape: each planted
//! value is masked in every output, and the outputs that mask the source
//! cost about what the JSON export costs (the same findings, the same
//! secrets), not a power of the input more.

use std::time::{Duration, Instant};

use isolint_core::render::{github, json, markdown, sarif, text};
use isolint_core::report::{audit_parsed, Detail, Parsed};
use isolint_core::{json::Limits, AuditOptions, Date, Labels, Report};

/// A small deterministic generator (no dependency, same bytes each run).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn token(&mut self, n: usize) -> String {
        const ALPHA: &[u8] = b"abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789";
        (0..n)
            .map(|_| char::from(ALPHA[(self.next() % ALPHA.len() as u64) as usize]))
            .collect()
    }
}

/// How each value is made from the one before.
#[derive(Clone, Copy, Debug)]
enum Shape {
    /// The previous value and more after it.
    Nested,
    /// The previous value in the middle of a new one.
    Middle,
    /// One value repeated inside the others, more times each.
    Repeated,
    /// The second half of the previous value, and more.
    Overlapping,
    /// Numbers under secret names (masked only where they stand), each
    /// holding the one before.
    Digits,
}

const SHAPES: [Shape; 5] = [
    Shape::Nested,
    Shape::Middle,
    Shape::Repeated,
    Shape::Overlapping,
    Shape::Digits,
];

/// The fixed workshop profile with secret-named variables of `shape` until
/// the document is about `size` bytes; some values are mount sources and
/// shell words too. Returns the profile and the values planted.
fn generate(shape: Shape, size: usize) -> (String, Vec<String>) {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut p: serde_json::Value =
        serde_json::from_str(isolint_core::WORKSHOP_PROFILE_FIXED).unwrap();
    let mut vars = serde_json::Map::new();
    let mut mounts = p["mounts"].as_array().cloned().unwrap();
    let mut planted = Vec::new();
    let mut v = format!("Sx{}", rng.token(8));
    let mut digits = String::new();
    let mut total = 0;
    let mut i = 0;
    while total < size {
        v = match shape {
            Shape::Nested => format!("{v}{}", rng.token(3)),
            Shape::Middle => format!("{}{v}{}", rng.token(2), rng.token(2)),
            Shape::Repeated => format!("Sx{}", rng.token(8)).repeat(i % 40 + 1),
            Shape::Overlapping => format!("{}{}", &v[v.len() / 2..], rng.token(10)),
            Shape::Digits => {
                // Seven to fifteen digits of one number, then another.
                if i % 9 == 0 {
                    digits = format!("{}", 100_000_000_000_000 + rng.next() % 900_000_000_000_000);
                }
                digits[..7 + i % 9].to_string()
            }
        };
        let name = format!("SECRET_TOKEN_{i}");
        total += v.len() + name.len() + 8;
        if i % 4 == 0 && !matches!(shape, Shape::Digits) {
            let source = format!("/srv/x/{}", &v[..v.len().min(60)]);
            total += source.len() + 60;
            mounts.push(serde_json::json!({"source": source, "target": format!("/m{i}"), "access": "read-only"}));
        }
        if matches!(shape, Shape::Digits) {
            vars.insert(name, serde_json::json!(v.parse::<u64>().unwrap()));
            planted.push(v.clone());
        } else {
            vars.insert(name, v.clone().into());
            planted.push(v.clone());
        }
        i += 1;
    }
    p["environment"]["variables"] = vars.into();
    p["mounts"] = mounts.into();
    p["command"] = serde_json::json!({"shell": format!("deploy --token {} && run", planted[planted.len() / 2])});
    (serde_json::to_string_pretty(&p).unwrap(), planted)
}

/// Audit `profile` for `detail`: the text report and the dashboard need
/// [`Detail::Full`] (the masked source and the mount table), the exports
/// [`Detail::Findings`].
fn report(profile: &str, detail: Detail) -> Report {
    let opts = AuditOptions {
        today: Date::parse("2026-11-29"),
    };
    let parsed = Parsed::new(profile.as_bytes(), Limits::default()).unwrap();
    audit_parsed(
        parsed,
        "p.json",
        &Labels::workshop(),
        &opts,
        detail,
        &isolint_core::InOrder,
    )
}

/// What each output shows of `r`.
fn outputs(r: &Report) -> Vec<(&'static str, String)> {
    // What the dashboard's first frame draws from: the findings, the mount
    // table and the masked source.
    let mut frame = r.source_text.clone();
    for m in &r.mounts {
        frame.push_str(&m.source);
        frame.push_str(&m.normalized);
    }
    for f in &r.issues {
        frame.push_str(&f.message);
    }
    vec![
        ("text", text::render(r, text::TextOptions { color: false })),
        ("frame", frame),
        ("json", json::render(r)),
        ("markdown", markdown::render(r)),
        ("sarif", sarif::render(r)),
        ("github", github::render(r)),
    ]
}

/// The time `f` takes.
fn timed<T>(f: impl FnOnce() -> T) -> (T, Duration) {
    let start = Instant::now();
    let out = f();
    (out, start.elapsed())
}

/// Every planted value is masked in every output, whatever its shape.
#[test]
fn nested_overlapping_and_repeated_secrets_are_all_masked() {
    let mut leaks = Vec::new();
    for shape in SHAPES {
        let (profile, planted) = generate(shape, 24 * 1024);
        for (format, out) in outputs(&report(&profile, Detail::Full)) {
            let shown = planted.iter().filter(|v| out.contains(v.as_str())).count();
            if shown > 0 {
                // Counts only: the values are secrets.
                leaks.push(format!(
                    "{shape:?} {format}: {shown} of {} values shown",
                    planted.len()
                ));
            }
        }
    }
    assert!(leaks.is_empty(), "{}", leaks.join("\n"));
}

/// The text report and the dashboard's audit ([`Detail::Full`]) cost about
/// what the JSON export of the same profile costs, on a profile of the size
/// the review measured (343 KB): before, the text report of the `Middle`
/// shape took minutes where its JSON export took half a second. The bound
/// is a ratio of two runs on the same machine, so a loaded machine slows
/// both.
#[test]
fn masking_costs_about_what_the_json_export_costs() {
    let mut slow = Vec::new();
    for shape in SHAPES {
        let (profile, _) = generate(shape, 343 * 1024);
        let (_, export) = timed(|| json::render(&report(&profile, Detail::Findings)));
        let (_, full) = timed(|| {
            let r = report(&profile, Detail::Full);
            (
                text::render(&r, text::TextOptions { color: false }),
                markdown::render(&r),
            )
        });
        // The text report does more than the export (the mount table, the
        // masked source): five times it, and a second.
        if full > export * 5 + Duration::from_secs(1) {
            slow.push(format!(
                "{shape:?}: text and markdown {:.2} s, json {:.2} s",
                full.as_secs_f64(),
                export.as_secs_f64()
            ));
        }
    }
    assert!(slow.is_empty(), "{}", slow.join("\n"));
}
