//! JSON Schemas of the three formats, for editors and for `isolint schema`.

/// `isolint.profile/v1`.
pub const PROFILE: &str = include_str!("../schemas/profile.schema.json");
/// `isolint.labels/v1`.
pub const LABELS: &str = include_str!("../schemas/labels.schema.json");
/// `isolint.findings/v1`.
pub const FINDINGS: &str = include_str!("../schemas/findings.schema.json");
/// The runner overlay (`--runner FILE`): the runner's sections of a profile.
pub const RUNNER: &str = include_str!("../schemas/runner.schema.json");
/// `isolint.observations/v1`: what `isolint probe` and a launcher observed.
pub const OBSERVATIONS: &str = include_str!("../schemas/observations.schema.json");
/// `isolint.reconciliation/v1`: `isolint reconcile --format json`.
pub const RECONCILIATION: &str = include_str!("../schemas/reconciliation.schema.json");

/// The schema named `profile`, `labels` or `findings`.
pub fn by_name(name: &str) -> Option<&'static str> {
    match name {
        "profile" => Some(PROFILE),
        "labels" => Some(LABELS),
        "findings" => Some(FINDINGS),
        "runner" => Some(RUNNER),
        "observations" => Some(OBSERVATIONS),
        "reconciliation" => Some(RECONCILIATION),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    /// The overlay's sections are the profile's, word for word, and list
    /// exactly what the overlay parser accepts.
    #[test]
    fn the_runner_schema_is_the_profile_schema_narrowed() {
        let p: serde_json::Value = serde_json::from_str(super::PROFILE).unwrap();
        let r: serde_json::Value = serde_json::from_str(super::RUNNER).unwrap();
        let props = r["properties"].as_object().unwrap();
        let keys: Vec<&str> = props.keys().map(String::as_str).collect();
        let mut want = crate::runner::RUNNER_KEYS.to_vec();
        want.sort_unstable();
        let mut got = keys.clone();
        got.sort_unstable();
        assert_eq!(got, want);
        for k in keys {
            assert_eq!(props[k], p["properties"][k], "section {k}");
        }
        assert_eq!(r["$defs"], p["$defs"]);
        assert!(r.get("required").is_none());
    }
}
