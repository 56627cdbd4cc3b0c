//! What the importers' table tests share: a draft read back as JSON, and
//! one report of every row that came out wrong.

use super::builder::Draft;

/// The profile a draft finishes as, parsed.
pub fn profile(d: Draft) -> serde_json::Value {
    let (json, _, _, _) = d.finish().expect("the profile fits its limit");
    serde_json::from_str(&json).expect("a draft finishes as JSON")
}

/// Fails with every wrong row of a table of `rows`, not just the first.
pub fn assert_none_wrong(wrong: &[String], rows: usize) {
    assert!(
        wrong.is_empty(),
        "{} of {}:\n{}",
        wrong.len(),
        rows,
        wrong.join("\n")
    );
}
