#![no_main]
//! (profile, catalog) pairs: the input is split at the first NUL byte.
use libfuzzer_sys::fuzz_target;
#[path = "common.rs"]
mod common;

fuzz_target!(|data: &[u8]| {
    let split = data.iter().position(|&b| b == 0).unwrap_or(data.len());
    let (profile, rest) = data.split_at(split);
    let catalog = rest.get(1..).unwrap_or(&[]);
    let Ok(labels) = isolint_core::Labels::load(catalog) else {
        return;
    };
    let opts = isolint_core::AuditOptions {
        today: isolint_core::Date::parse("2026-11-29"),
    };
    if let Ok(r) = isolint_core::audit(profile, "fuzz.json", &labels, &opts) {
        common::check_report(&r);
    }
});
