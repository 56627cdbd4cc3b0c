//! A number too small for an f64 reads as 0, and telling so compares it
//! with the digits of 2^-1075. A file may hold thousands of such numbers
//! where whole numbers are read (group ids): each must cost no more than a
//! scan of its text, not the working out of those digits again.
#![allow(clippy::disallowed_methods, clippy::disallowed_types)]

use std::time::{Duration, Instant};

use isolint_core::import::{self, Format};

/// A guard against a per-number cost far above a scan, not a benchmark:
/// an unoptimized build on a loaded 2-core machine stays far below it,
/// and working the digits out for every number goes far past it.
const HANG_GUARD: Duration = Duration::from_secs(3);

#[test]
fn thousands_of_tiny_group_ids_import_quickly() {
    let groups: Vec<String> = (0..1000)
        .map(|i| format!("0.{}{}", "0".repeat(330 + i % 90), 1 + i % 9))
        .collect();
    let pod = format!(
        "apiVersion: v1\nkind: Pod\nmetadata:\n  name: tiny\nspec:\n  securityContext:\n    supplementalGroups: [{}]\n  containers:\n    - name: c\n      image: busybox\n",
        groups.join(", ")
    );
    let start = Instant::now();
    let imported = import::import(pod.as_bytes(), Format::Kubernetes);
    let took = start.elapsed();
    assert!(
        imported.is_ok(),
        "{:?}",
        imported.err().map(|e| e.to_string())
    );
    assert!(took < HANG_GUARD, "{took:?}");
}
