//! JSON Schemas of the three formats, for editors and for `isolint schema`.

/// `isolint.profile/v1`.
pub const PROFILE: &str = include_str!("../schemas/profile.schema.json");
/// `isolint.labels/v1`.
pub const LABELS: &str = include_str!("../schemas/labels.schema.json");
/// `isolint.findings/v1`.
pub const FINDINGS: &str = include_str!("../schemas/findings.schema.json");

/// The schema named `profile`, `labels` or `findings`.
pub fn by_name(name: &str) -> Option<&'static str> {
    match name {
        "profile" => Some(PROFILE),
        "labels" => Some(LABELS),
        "findings" => Some(FINDINGS),
        _ => None,
    }
}
