#![no_main]
//! Profile bytes → parse → audit → every renderer.
use libfuzzer_sys::fuzz_target;
#[path = "common.rs"]
mod common;

fuzz_target!(|data: &[u8]| {
    let labels = isolint_core::Labels::workshop();
    let opts = isolint_core::AuditOptions {
        today: isolint_core::Date::parse("2026-11-29"),
    };
    if let Ok(r) = isolint_core::audit(data, "fuzz.json", &labels, &opts) {
        common::check_report(&r);
    }
});
