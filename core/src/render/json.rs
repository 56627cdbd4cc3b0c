//! The `isolint.findings/v1` export.

use serde::{Deserialize, Serialize};

use crate::finding::Finding;
use crate::report::{Report, NOTICE, RECHECK_WHEN, TOOL_NAME, TOOL_VERSION};

/// The schema identifier of the export.
pub const FINDINGS_SCHEMA: &str = "isolint.findings/v1";

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct Export {
    pub schema: String,
    pub route: String,
    pub tool: Tool,
    pub profile: ProfileOut,
    pub labels: LabelsOut,
    pub verdict: String,
    pub notice: String,
    pub summary: SummaryOut,
    pub issues: Vec<IssueOut>,
    pub runtime_checks: Vec<CheckOut>,
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct Tool {
    pub name: String,
    pub version: String,
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct ProfileOut {
    pub name: String,
    pub source: String,
    pub sha256: String,
    pub fingerprint: String,
    pub recheck_when: Vec<String>,
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct LabelsOut {
    pub name: String,
    pub sha256: String,
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq, Default)]
pub struct SummaryOut {
    pub critical: usize,
    pub high: usize,
    pub medium: usize,
    pub low: usize,
    pub info: usize,
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct IssueOut {
    pub rule: String,
    pub area: String,
    pub severity: String,
    pub pointer: String,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub line: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub column: Option<u32>,
    pub message: String,
    pub remediation: String,
    pub evidence: serde_json::Map<String, serde_json::Value>,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub waived: Option<WaivedOut>,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub baseline: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub origin: Option<OriginOut>,
}

/// The original file location of a finding on an imported configuration.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct OriginOut {
    pub file: String,
    pub line: u32,
    pub column: u32,
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct WaivedOut {
    pub reason: String,
    pub owner: String,
    pub expires: String,
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct CheckOut {
    pub id: String,
    pub kind: String,
    pub target: String,
    pub expect: String,
    pub because: String,
}

fn issue(f: &Finding) -> IssueOut {
    IssueOut {
        rule: f.rule.to_string(),
        area: f.area.as_str().to_string(),
        severity: f.severity.as_str().to_string(),
        pointer: f.pointer.clone(),
        line: f.line,
        column: f.column,
        message: f.message.clone(),
        remediation: f.remediation.clone(),
        evidence: f
            .evidence
            .iter()
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect(),
        waived: f.waived.as_ref().map(|w| WaivedOut {
            reason: w.reason.clone(),
            owner: w.owner.clone(),
            expires: w.expires.clone(),
        }),
        baseline: f.baseline.map(str::to_string),
        origin: f.origin.as_ref().map(|o| OriginOut {
            file: o.file.clone(),
            line: o.line,
            column: o.column,
        }),
    }
}

use crate::model::StringEnum;

/// The export as typed values.
pub fn export(r: &Report) -> Export {
    Export {
        schema: FINDINGS_SCHEMA.into(),
        route: r.route.clone(),
        tool: Tool {
            name: TOOL_NAME.into(),
            version: TOOL_VERSION.into(),
        },
        profile: ProfileOut {
            name: r.profile.name.clone(),
            source: r.profile.source.clone(),
            sha256: r.profile.sha256.clone(),
            fingerprint: r.profile.fingerprint.clone(),
            recheck_when: RECHECK_WHEN.iter().map(|s| s.to_string()).collect(),
        },
        labels: LabelsOut {
            name: r.labels_name.clone(),
            sha256: r.labels_sha256.clone(),
        },
        verdict: r.verdict.as_str().into(),
        notice: NOTICE.into(),
        summary: SummaryOut {
            critical: r.summary.critical,
            high: r.summary.high,
            medium: r.summary.medium,
            low: r.summary.low,
            info: r.summary.info,
        },
        issues: r.issues.iter().map(issue).collect(),
        runtime_checks: r
            .runtime_checks
            .iter()
            .map(|c| CheckOut {
                id: c.id.clone(),
                kind: c.kind.as_str().into(),
                target: c.target.clone(),
                expect: c.expect.into(),
                because: c.because.clone(),
            })
            .collect(),
    }
}

/// Pretty JSON with a final newline. Deterministic: field order is fixed by
/// the types, evidence keys are sorted, findings are sorted.
pub fn render(r: &Report) -> String {
    let mut s = super::frame::pretty_at(&export(r), 0, size_hint(r))
        .unwrap_or_else(|e| format!("{{\"error\":\"{e}\"}}"));
    s.push('\n');
    s
}

/// Several reports as one JSON array (directory mode, several files).
pub fn render_many(reports: &[Report]) -> String {
    super::frame::JSON_ARRAY.assemble(reports.iter().map(element))
}

/// One report as an element of [`super::frame::JSON_ARRAY`].
pub fn element(r: &Report) -> String {
    super::frame::pretty_at(&export(r), 1, size_hint(r))
        .unwrap_or_else(|e| format!("  {{\"error\":\"{e}\"}}"))
}

/// About the size of a report's export, so a large one is not copied
/// again and again while its buffer grows.
fn size_hint(r: &Report) -> usize {
    let issues: usize = r
        .issues
        .iter()
        .map(|f| 300 + f.message.len() + f.remediation.len() + f.pointer.len())
        .sum();
    let checks: usize = r
        .runtime_checks
        .iter()
        .map(|c| 130 + c.target.len() + c.because.len())
        .sum();
    2048 + issues + checks
}
