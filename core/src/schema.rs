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
    use crate::model::StringEnum;

    /// Every `enum` of `schema` that lists `anchor`, without `null`.
    fn enums_listing(schema: &serde_json::Value, anchor: &str, out: &mut Vec<Vec<String>>) {
        match schema {
            serde_json::Value::Object(m) => {
                if let Some(serde_json::Value::Array(e)) = m.get("enum") {
                    if e.iter().any(|v| v == anchor) {
                        out.push(
                            e.iter()
                                .filter_map(|v| v.as_str().map(String::from))
                                .collect(),
                        );
                    }
                }
                for v in m.values() {
                    enums_listing(v, anchor, out);
                }
            }
            serde_json::Value::Array(a) => a.iter().for_each(|v| enums_listing(v, anchor, out)),
            _ => {}
        }
    }

    /// The schemas list exactly the values the core writes and accepts: a
    /// value added to an enum in code and not to the schema would make valid
    /// output fail validation (a boundary-kernel observation did).
    #[test]
    fn schema_enums_are_the_core_enums() {
        use crate::finding::CheckKind;
        use crate::observe::{Observed, Status};
        use crate::plan::Expect;
        let table: [(&str, &str, &[&str]); 6] = [
            ("findings", "read-denied", CheckKind::VALUES),
            ("findings", "resolves-to-declared-source", Expect::VALUES),
            ("observations", "needs-launcher", Observed::VALUES),
            ("reconciliation", "needs-launcher", Observed::VALUES),
            ("reconciliation", "not-observable", Status::VALUES),
            ("reconciliation", "read-denied", CheckKind::VALUES),
        ];
        for (name, anchor, want) in table {
            let s: serde_json::Value = serde_json::from_str(super::by_name(name).unwrap()).unwrap();
            let mut found = Vec::new();
            enums_listing(&s, anchor, &mut found);
            if name == "reconciliation" && anchor == "read-denied" && found.is_empty() {
                // The reconciliation leaves the kind a plain string.
                continue;
            }
            assert!(!found.is_empty(), "{name}: no enum lists {anchor}");
            for got in found {
                assert_eq!(got, want, "{name}: the enum listing {anchor}");
            }
        }
    }
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
            if k == "boundary" {
                // Of the boundary, the fields the overlay parser accepts,
                // each as the profile defines it.
                let b = props[k]["properties"].as_object().unwrap();
                let mut got: Vec<&str> = b.keys().map(String::as_str).collect();
                got.sort_unstable();
                let mut want = crate::runner::BOUNDARY_KEYS.to_vec();
                want.sort_unstable();
                assert_eq!(got, want);
                for (f, def) in b {
                    assert_eq!(
                        def, &p["properties"]["boundary"]["properties"][f],
                        "boundary.{f}"
                    );
                }
                continue;
            }
            assert_eq!(props[k], p["properties"][k], "section {k}");
        }
        assert_eq!(r["$defs"], p["$defs"]);
        assert!(r.get("required").is_none());
    }
}
