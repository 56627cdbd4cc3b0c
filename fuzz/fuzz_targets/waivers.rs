#![no_main]
//! Waiver files: parse, then apply to the workshop report.
use libfuzzer_sys::fuzz_target;
#[path = "common.rs"]
mod common;

fuzz_target!(|data: &[u8]| {
    let Ok(waivers) = isolint_core::waivers::parse(data) else {
        return;
    };
    let labels = isolint_core::Labels::workshop();
    let today = isolint_core::Date::parse("2026-11-29");
    let opts = isolint_core::AuditOptions { today };
    let Ok(mut r) = isolint_core::audit(
        isolint_core::WORKSHOP_PROFILE.as_bytes(),
        "w.json",
        &labels,
        &opts,
    ) else {
        return;
    };
    let before = r.issues.len();
    isolint_core::waivers::apply(&mut r, &waivers, today, &Default::default());
    assert!(r.issues.len() >= before, "a waiver removed a finding");
    common::check_report(&r);
});
