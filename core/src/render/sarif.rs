//! SARIF 2.1.0, for code-scanning interfaces. Rule metadata comes from the
//! same registry as `isolint explain`.

use crate::finding::{Finding, Severity};
use crate::json_writer::Pretty;
use crate::model::StringEnum;
use crate::report::{NotAudited, Report, NOTICE, TOOL_NAME, TOOL_VERSION};
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
pub(crate) fn relative_uri(source: &str) -> String {
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

// serde_json's maps are sorted, and the SARIF log used to be built from
// them: keys are written here in byte order to keep its bytes (the tests
// compare with that `serde_json::Value` construction).

fn rule_descriptor(w: &mut Pretty, r: &rules::Rule) {
    w.object()
        .key("defaultConfiguration")
        .object()
        .field("level", level(r.severity))
        .end_object()
        .field_in("fullDescription", "text", r.rationale);
    w.key("help")
        .object()
        .field(
            "markdown",
            &format!(
                "**{}**\n\n{}\n\n**Remediation:** {}",
                r.title, r.rationale, r.remediation
            ),
        )
        .field(
            "text",
            &format!("{}\n\nRemediation: {}", r.rationale, r.remediation),
        )
        .end_object();
    w.field("id", r.id).field("name", r.name);
    w.key("properties")
        .object()
        .field("area", r.area.as_str())
        .field("security-severity", security_severity(r.severity))
        .field_strs("tags", ["security", r.area.as_str()])
        .end_object();
    w.field_in("shortDescription", "text", r.title).end_object();
}

fn artifact_location(w: &mut Pretty, uri: &str) {
    w.key("artifactLocation")
        .object()
        .field("uri", uri)
        .field("uriBaseId", "SRCROOT")
        .end_object();
}

/// A finding's `message.text`: its message and pointer, escaped as SARIF
/// §3.11.6 asks of a plain-text message. A literal `[` or `]` would read as
/// embedded-link syntax (`[text](1)`), so each is preceded by `\`, and a
/// literal `\` just before one is doubled. A value framed in backticks
/// that holds backticks itself (`` `a`b` `` ends the span early) is framed
/// with a longer run, as CommonMark code spans are, padded with a space
/// where it starts or ends with one.
pub(crate) fn message_text(f: &Finding) -> String {
    let mut text = format!("{} (at {})", f.message, f.pointer);
    let values = f
        .evidence
        .iter()
        .filter_map(|(_, v)| v.as_str())
        .chain(std::iter::once(f.pointer.as_str()));
    for v in values.filter(|v| v.contains('`')) {
        let framed = format!("`{v}`");
        if text.contains(&framed) {
            text = text.replace(&framed, &code_span(v));
        }
    }
    escape_brackets(&text)
}

/// `v` as a code span whose fence is longer than any backtick run in it.
fn code_span(v: &str) -> String {
    let longest = v.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    let fence = "`".repeat(longest + 1);
    let pad = if v.starts_with('`') || v.ends_with('`') {
        " "
    } else {
        ""
    };
    format!("{fence}{pad}{v}{pad}{fence}")
}

/// `[` → `\[`, `]` → `\]`, and `\` before either → `\\`.
fn escape_brackets(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '[' | ']' => {
                out.push('\\');
                out.push(c);
            }
            '\\' if matches!(chars.peek(), Some('[' | ']')) => out.push_str("\\\\"),
            _ => out.push(c),
        }
    }
    out
}

fn result(w: &mut Pretty, report: &Report, f: &Finding, uri: &str) {
    let rule_index = rules::all().position(|r| r.id == f.rule);
    // An imported profile's finding is located in the original file; the
    // generated profile's position is kept in the properties.
    let (line, column) = match &f.origin {
        Some(o) => (Some(o.line), Some(o.column)),
        None => (f.line, f.column),
    };
    let fp = crate::report::finding_fingerprint(f.rule, &f.pointer, &report.profile.name);
    w.object().field("level", level(f.severity));
    w.key("locations").array().item().object();
    w.key("logicalLocations")
        .array()
        .item()
        .object()
        .field("kind", "member")
        .field("name", &f.pointer)
        .end_object()
        .end_array();
    w.key("physicalLocation").object();
    artifact_location(w, uri);
    w.key("region").object();
    if let Some(c) = column {
        w.field_num("startColumn", c.into());
    }
    if let Some(l) = line {
        w.field_num("startLine", l.into());
    }
    w.end_object().end_object().end_object().end_array();
    w.field_in("message", "text", &message_text(f));
    w.field_in("partialFingerprints", "isolintFinding/v1", &fp);
    w.key("properties").object().field("area", f.area.as_str());
    if let Some(o) = &f.origin {
        w.field("originFile", &o.file);
    }
    w.field("pointer", &f.pointer);
    if f.origin.is_some() {
        w.field("profile", &report.profile.source);
        if let (Some(l), Some(c)) = (f.line, f.column) {
            w.field_num("profileColumn", c.into())
                .field_num("profileLine", l.into());
        }
    }
    w.field("security-severity", security_severity(f.severity))
        .field("severity", f.severity.as_str())
        .end_object();
    w.field("ruleId", f.rule);
    if let Some(i) = rule_index {
        w.field_num("ruleIndex", i as u64);
    }
    if let Some(wv) = &f.waived {
        w.key("suppressions")
            .array()
            .item()
            .object()
            .field(
                "justification",
                &format!("{} (owner {}, expires {})", wv.reason, wv.owner, wv.expires),
            )
            .field("kind", "external")
            .field("status", "accepted")
            .end_object()
            .end_array();
    }
    w.end_object();
}

/// The file a report's results point at (the imported original, if any)
/// as a relative URI, and its SHA-256.
fn artifact(report: &Report) -> (String, &str) {
    match &report.original {
        Some(o) => (relative_uri(&o.file), o.sha256.as_str()),
        None => (
            relative_uri(&report.profile.source),
            report.profile.sha256.as_str(),
        ),
    }
}

fn run(w: &mut Pretty, report: &Report) {
    let (uri, sha) = artifact(report);
    w.object().key("artifacts").array().item().object();
    w.field_in("hashes", "sha-256", sha);
    w.key("location")
        .object()
        .field("uri", &uri)
        .field("uriBaseId", "SRCROOT")
        .end_object()
        .end_object()
        .end_array();
    w.key("originalUriBaseIds")
        .object()
        .key("SRCROOT")
        .object()
        .field_in("description", "text", "the directory isolint was run from")
        .end_object()
        .end_object();
    w.key("properties")
        .object()
        .field("fingerprint", &report.profile.fingerprint)
        .field("notice", NOTICE)
        .field("profile", &report.profile.name)
        .field("verdict", report.verdict.as_str())
        .end_object();
    // A profile of many findings writes its results in pieces, kept apart
    // rather than grown into (and copied along) one buffer.
    w.key("results").array();
    w.items(&report.issues, RESULT_BYTES, |w, f| {
        result(w, report, f, &uri)
    });
    w.end_array();
    w.key("tool")
        .object()
        .key("driver")
        .object()
        .field("informationUri", "https://example.invalid/isolint")
        .field("name", TOOL_NAME);
    w.key("rules").array();
    for r in rules::all() {
        w.item();
        rule_descriptor(w, r);
    }
    w.end_array()
        .field("semanticVersion", TOOL_VERSION)
        .field("version", TOOL_VERSION)
        .end_object()
        .end_object()
        .end_object();
}

/// The run that ends a directory run's log when it passed over entries
/// (`None` when there are none): no results, and one tool-execution
/// notification per entry, on that file, the place SARIF keeps what a
/// tool did not analyse.
pub fn not_audited_run(entries: &[NotAudited]) -> Option<String> {
    if entries.is_empty() {
        return None;
    }
    let mut w = Pretty::at(2, 256 * (entries.len() + 1));
    w.object().key("invocations").array().item().object();
    w.key("executionSuccessful")
        .value(&serde_json::Value::Bool(true));
    w.key("toolExecutionNotifications").array();
    for e in entries {
        w.item().object();
        w.key("descriptor")
            .object()
            .field("id", "not-audited")
            .end_object();
        w.field("level", "warning");
        w.key("locations").array().item().object();
        w.key("physicalLocation").object();
        artifact_location(&mut w, &relative_uri(&e.source));
        w.end_object().end_object().end_array();
        w.field_in("message", "text", &format!("not audited: {}", e.reason));
        w.end_object();
    }
    w.end_array().end_object().end_array();
    w.key("originalUriBaseIds")
        .object()
        .key("SRCROOT")
        .object()
        .field_in("description", "text", "the directory isolint was run from")
        .end_object()
        .end_object();
    w.key("properties")
        .object()
        .field("notice", NOTICE)
        .field_num("not_audited", entries.len() as u64)
        .end_object();
    w.key("results").array().end_array();
    w.key("tool")
        .object()
        .key("driver")
        .object()
        .field("informationUri", "https://example.invalid/isolint")
        .field("name", TOOL_NAME)
        .field("semanticVersion", TOOL_VERSION)
        .field("version", TOOL_VERSION)
        .end_object()
        .end_object()
        .end_object();
    Some(w.finish())
}

/// One SARIF log with one run per report.
pub fn render_many(reports: &[Report]) -> String {
    super::frame::SARIF_LOG.assemble(reports.iter().map(element))
}

/// About the bytes of one result.
const RESULT_BYTES: usize = 1024;

/// One report as a run of [`super::frame::SARIF_LOG`].
pub fn element(r: &Report) -> String {
    let mut w = Pretty::at(2, 4096);
    run(&mut w, r);
    w.finish()
}

/// [`element`] in parts to be written one after the other: a long list of
/// results, written on `schedule`, is not copied into one buffer first.
pub fn element_parts(r: &Report, schedule: &dyn crate::par::Schedule) -> Vec<String> {
    let mut w = Pretty::at(2, 4096).on(schedule);
    run(&mut w, r);
    w.finish_parts()
}

/// A SARIF log for one report.
pub fn render(report: &Report) -> String {
    render_many(std::slice::from_ref(report))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The SARIF run as it was built before: `serde_json` values, whose
    /// maps sort their keys.
    mod oracle {
        use super::super::{artifact, level, security_severity};
        use crate::finding::Finding;
        use crate::model::StringEnum;
        use crate::report::{Report, NOTICE, TOOL_NAME, TOOL_VERSION};
        use crate::rules;
        use serde_json::{json, Map, Value};

        pub(super) fn rule_descriptor(r: &rules::Rule) -> Value {
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

        pub(super) fn result(report: &Report, f: &Finding, uri: &str) -> Value {
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
            let fp = crate::report::finding_fingerprint(f.rule, &f.pointer, &report.profile.name);
            let mut r = json!({
                "ruleId": f.rule,
                "level": level(f.severity),
                "message": { "text": super::super::message_text(f) },
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

        pub(super) fn run(report: &Report) -> Value {
            let (uri, sha) = artifact(report);
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
    }

    fn reports() -> Vec<Report> {
        super::super::sample_reports("dir/p q.json")
    }

    #[test]
    fn message_text_escapes_brackets_and_reframes_backticked_values() {
        let base = reports()
            .into_iter()
            .find_map(|r| r.issues.first().cloned())
            .expect("a finding");
        // (message, pointer, evidence value, expected text)
        let cases: &[(&str, &str, &str, &str)] = &[
            ("plain `x` here", "/a", "x", "plain `x` here (at /a)"),
            (
                "pattern `[abc]` found",
                "/a",
                "[abc]",
                "pattern `\\[abc\\]` found (at /a)",
            ),
            ("see [docs](1)", "/a", "", "see \\[docs\\](1) (at /a)"),
            (
                "value `a\\[b` ok",
                "/a",
                "a\\[b",
                "value `a\\\\\\[b` ok (at /a)",
            ),
            ("cmd `a`b` runs", "/a", "a`b", "cmd ``a`b`` runs (at /a)"),
            (
                "cmd `x``y` runs",
                "/a",
                "x``y",
                "cmd ```x``y``` runs (at /a)",
            ),
            ("cmd ``b` runs", "/a", "`b", "cmd `` `b `` runs (at /a)"),
            (
                "at the end",
                "/mounts/0/x]y",
                "",
                "at the end (at /mounts/0/x\\]y)",
            ),
            (
                "both `[`a`]` here",
                "/a",
                "[`a`]",
                "both ``\\[`a`\\]`` here (at /a)",
            ),
            ("a lone \\ stays", "/a", "", "a lone \\ stays (at /a)"),
        ];
        let mut wrong = Vec::new();
        for (message, pointer, value, want) in cases {
            let mut f = base.clone();
            f.message = (*message).into();
            f.pointer = (*pointer).into();
            f.evidence = crate::finding::Evidence::new();
            if !value.is_empty() {
                f.evidence
                    .insert("value".into(), serde_json::Value::String((*value).into()));
            }
            let got = message_text(&f);
            if got != *want {
                wrong.push(format!("{message:?}: {got:?} (want {want:?})"));
            }
        }
        assert!(
            wrong.is_empty(),
            "{} of {} wrong: {wrong:#?}",
            wrong.len(),
            cases.len()
        );
    }

    #[test]
    fn same_bytes_as_the_serde_json_values() {
        for r in reports() {
            let pretty = serde_json::to_string_pretty(&oracle::run(&r)).unwrap();
            let want = format!("    {}", pretty.replace('\n', "\n    "));
            assert_eq!(element(&r), want);
        }
    }
}
