//! SARIF 2.1.0, for code-scanning interfaces. Rule metadata comes from the
//! same registry as `isolint explain`.

use serde_json::{json, Map, Value};

use crate::finding::{Finding, Severity};
use crate::model::StringEnum;
use crate::report::{sha256_hex, Report, NOTICE, TOOL_NAME, TOOL_VERSION};
use crate::rules;

pub const SARIF_SCHEMA: &str = "https://json.schemastore.org/sarif-2.1.0.json";

/// SARIF `level` for a severity.
pub fn level(s: Severity) -> &'static str {
    match s {
        Severity::Critical | Severity::High => "error",
        Severity::Medium => "warning",
        Severity::Low | Severity::Info => "note",
    }
}

/// The `security-severity` score code-scanning UIs sort by (0.0–10.0).
pub fn security_severity(s: Severity) -> &'static str {
    match s {
        Severity::Critical => "9.5",
        Severity::High => "8.0",
        Severity::Medium => "5.5",
        Severity::Low => "3.0",
        Severity::Info => "0.5",
    }
}

/// A relative URI for the profile: absolute paths lose their leading `/`
/// and are marked relative to the `SRCROOT` base; characters outside the
/// URI-safe set are percent-encoded.
fn relative_uri(source: &str) -> String {
    let s = source.trim_start_matches("./").trim_start_matches('/');
    let s = s.replace('\\', "/");
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~/".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    if out.is_empty() {
        "profile.json".into()
    } else {
        out
    }
}

fn rule_descriptor(r: &rules::Rule) -> Value {
    json!({
        "id": r.id,
        "name": r.name,
        "shortDescription": { "text": r.title },
        "fullDescription": { "text": r.rationale },
        "help": {
            "text": format!("{}\n\nRemediation: {}", r.rationale, r.remediation),
            "markdown": format!("**{}**\n\n{}\n\n**Remediation:** {}", r.title, r.rationale, r.remediation),
        },
        "defaultConfiguration": { "level": level(r.severity) },
        "properties": {
            "security-severity": security_severity(r.severity),
            "tags": ["security", r.area.as_str()],
            "area": r.area.as_str(),
        }
    })
}

fn result(report: &Report, f: &Finding, uri: &str) -> Value {
    let rule_index = rules::all().position(|r| r.id == f.rule);
    let mut region = Map::new();
    // An imported profile's finding is located in the original file; the
    // generated profile's position is kept in the properties.
    let (line, column) = match &f.origin {
        Some(o) => (Some(o.line), Some(o.column)),
        None => (f.line, f.column),
    };
    if let Some(l) = line {
        region.insert("startLine".into(), json!(l));
    }
    if let Some(c) = column {
        region.insert("startColumn".into(), json!(c));
    }
    let fp = sha256_hex(format!("{}\0{}\0{}", f.rule, f.pointer, report.profile.name).as_bytes());
    let mut r = json!({
        "ruleId": f.rule,
        "level": level(f.severity),
        "message": { "text": format!("{} (at {})", f.message, f.pointer) },
        "locations": [{
            "physicalLocation": {
                "artifactLocation": { "uri": uri, "uriBaseId": "SRCROOT" },
                "region": Value::Object(region),
            },
            "logicalLocations": [{ "name": f.pointer, "kind": "member" }]
        }],
        "partialFingerprints": { "isolintFinding/v1": fp },
        "properties": {
            "security-severity": security_severity(f.severity),
            "severity": f.severity.as_str(),
            "area": f.area.as_str(),
            "pointer": f.pointer,
        }
    });
    if let (Some(o), Some(props)) = (
        &f.origin,
        r.get_mut("properties").and_then(Value::as_object_mut),
    ) {
        props.insert("profile".into(), json!(report.profile.source));
        if let (Some(l), Some(c)) = (f.line, f.column) {
            props.insert("profileLine".into(), json!(l));
            props.insert("profileColumn".into(), json!(c));
        }
        props.insert("originFile".into(), json!(o.file));
    }
    if let (Some(i), Some(obj)) = (rule_index, r.as_object_mut()) {
        obj.insert("ruleIndex".into(), json!(i));
    }
    if let (Some(w), Some(obj)) = (&f.waived, r.as_object_mut()) {
        obj.insert(
            "suppressions".into(),
            json!([{ "kind": "external", "status": "accepted",
                     "justification": format!("{} (owner {}, expires {})", w.reason, w.owner, w.expires) }]),
        );
    }
    r
}

fn run(report: &Report) -> Value {
    let uri = relative_uri(
        report
            .original
            .as_ref()
            .map_or(report.profile.source.as_str(), |o| o.file.as_str()),
    );
    let sha = report
        .original
        .as_ref()
        .map_or(report.profile.sha256.as_str(), |o| o.sha256.as_str());
    json!({
        "tool": { "driver": {
            "name": TOOL_NAME,
            "version": TOOL_VERSION,
            "semanticVersion": TOOL_VERSION,
            "informationUri": "https://example.invalid/isolint",
            "rules": rules::all().map(rule_descriptor).collect::<Vec<_>>(),
        }},
        "originalUriBaseIds": { "SRCROOT": { "description": { "text": "the directory isolint was run from" } } },
        "artifacts": [{ "location": { "uri": uri, "uriBaseId": "SRCROOT" },
                        "hashes": { "sha-256": sha } }],
        "results": report.issues.iter().map(|f| result(report, f, &uri)).collect::<Vec<_>>(),
        "properties": {
            "verdict": report.verdict.as_str(),
            "notice": NOTICE,
            "profile": report.profile.name,
            "fingerprint": report.profile.fingerprint,
        }
    })
}

/// One SARIF log with one run per report.
pub fn render_many(reports: &[Report]) -> String {
    super::frame::SARIF_LOG.assemble(reports.iter().map(element))
}

/// One report as a run of [`super::frame::SARIF_LOG`].
pub fn element(r: &Report) -> String {
    super::frame::pretty_at(&run(r), 2, 4096).unwrap_or_default()
}

/// A SARIF log for one report.
pub fn render(report: &Report) -> String {
    render_many(std::slice::from_ref(report))
}
