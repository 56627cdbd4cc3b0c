//! Renderers: the same [`crate::Report`] as JSON, SARIF, text, Markdown or
//! GitHub workflow annotations.

pub mod frame;
pub mod github;
pub mod json;
pub mod markdown;
pub mod sarif;
pub mod text;

/// Reports for the renderers' byte-for-byte tests: the workshop profile
/// and its fixed version, and a copy of the first with every optional part
/// of a finding set somewhere (a waiver, a baseline mark, an origin, no
/// position).
#[cfg(test)]
pub(crate) fn sample_reports(source: &str) -> Vec<crate::report::Report> {
    use crate::{audit, AuditOptions, Labels};
    let labels = Labels::workshop();
    let options = AuditOptions::default();
    let mut out: Vec<crate::report::Report> =
        [crate::WORKSHOP_PROFILE, crate::WORKSHOP_PROFILE_FIXED]
            .iter()
            .filter_map(|p| audit(p.as_bytes(), source, &labels, &options).ok())
            .collect();
    let Some(mut r) = out.first().cloned() else {
        return out;
    };
    for (i, f) in r.issues.iter_mut().enumerate() {
        if i % 2 == 0 {
            f.waived = Some(crate::finding::Waived {
                reason: "accepted \"risk\"\n".into(),
                owner: "ops".into(),
                expires: "2027-01-01".into(),
            });
            f.baseline = Some("new");
        }
        if i % 3 == 0 {
            f.origin = Some(crate::finding::Origin {
                file: "k8s/pod.yaml".into(),
                line: 7,
                column: 3,
            });
        }
        if i % 5 == 1 {
            f.line = None;
            f.column = None;
        }
    }
    out.push(r);
    out
}
