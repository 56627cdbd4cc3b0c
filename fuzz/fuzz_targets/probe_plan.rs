#![no_main]
//! The probe's plan reader (isolint_core::launch::probe_plan) on any JSON
//! document: it never panics, reads a plan whole or refuses it with a
//! reason (never a partial run), and each check it returns is the
//! document's, in order.
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(doc) = serde_json::from_slice::<serde_json::Value>(data) else {
        return;
    };
    match isolint_core::launch::probe_plan(&doc) {
        Ok(plan) => {
            let raw = doc["runtime_checks"]
                .as_array()
                .expect("read plans have checks");
            assert_eq!(plan.checks.len(), raw.len());
            assert_eq!(
                Some(plan.fingerprint),
                doc["profile"]["fingerprint"].as_str()
            );
            for (c, r) in plan.checks.iter().zip(raw) {
                assert_eq!(Some(c.id), r["id"].as_str());
                assert_eq!(Some(c.kind), r["kind"].as_str());
                assert_eq!(c.target, &r["target"]);
            }
        }
        Err(e) => assert!(!e.is_empty()),
    }
});
