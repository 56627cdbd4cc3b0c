//! The `isolint.findings/v2` export.
//!
//! v2 (breaking for plan consumers): each runtime check's `target` is an
//! object typed by kind, `expect` comes from a closed set, ids are derived
//! from what is checked, and `motivated_by` names the findings (rule and
//! fingerprint) that ask for it; each issue carries its `fingerprint`.

use serde::{Deserialize, Serialize};

use crate::finding::{Evidence, Finding};
use crate::json_writer::Pretty;
use crate::par::{InOrder, Schedule};
use crate::plan::{Target, Threshold};
use crate::report::{finding_fingerprint, Report, NOTICE, RECHECK_WHEN, TOOL_NAME, TOOL_VERSION};

/// The schema identifier of the export.
pub const FINDINGS_SCHEMA: &str = "isolint.findings/v2";

/// The export. `S` is the string type: `String` when read back (a
/// baseline), `&str` borrowed from the report when written, so rendering
/// copies nothing. `E` is the evidence map, likewise.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(bound(deserialize = "S: Deserialize<'de>, E: Deserialize<'de>"))]
pub struct Export<S = String, E = Evidence> {
    pub schema: S,
    pub route: S,
    pub tool: Tool<S>,
    pub profile: ProfileOut<S>,
    pub labels: LabelsOut<S>,
    pub verdict: S,
    pub notice: S,
    pub summary: SummaryOut,
    pub issues: Vec<IssueOut<S, E>>,
    pub runtime_checks: Vec<CheckOut<S>>,
}

/// The export as written: borrowed from a [`Report`].
pub type ExportRef<'a> = Export<&'a str, &'a Evidence>;

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct Tool<S = String> {
    pub name: S,
    pub version: S,
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct ProfileOut<S = String> {
    pub name: S,
    pub source: S,
    pub sha256: S,
    pub fingerprint: S,
    pub recheck_when: Vec<S>,
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct LabelsOut<S = String> {
    pub name: S,
    pub sha256: S,
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
#[serde(bound(deserialize = "S: Deserialize<'de>, E: Deserialize<'de>"))]
pub struct IssueOut<S = String, E = Evidence> {
    pub rule: S,
    pub area: S,
    pub severity: S,
    pub pointer: S,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub line: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub column: Option<u32>,
    pub message: S,
    pub remediation: S,
    /// [`finding_fingerprint`]; absent from v1 baselines.
    #[serde(default)]
    pub fingerprint: String,
    /// What was accepted: the digest of the (masked) value at the pointer
    /// ([`Finding::accepted_digest`]); absent from exports written before
    /// it was recorded, whose entries a baseline cannot match
    /// ([`crate::baseline::apply`]).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub value_digest: Option<String>,
    pub evidence: E,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub waived: Option<WaivedOut<S>>,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub baseline: Option<S>,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub origin: Option<OriginOut<S>>,
}

/// The original file location of a finding on an imported configuration.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct OriginOut<S = String> {
    pub file: S,
    pub line: u32,
    pub column: u32,
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct WaivedOut<S = String> {
    pub reason: S,
    pub owner: S,
    pub expires: S,
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(bound(deserialize = "S: Deserialize<'de>"))]
pub struct CheckOut<S = String> {
    pub id: S,
    pub kind: S,
    pub target: TargetOut<S>,
    pub expect: S,
    pub because: S,
    #[serde(default)]
    pub motivated_by: Vec<MotiveOut<S>>,
}

/// A check's target, typed by kind (see [`crate::plan::Target`]).
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(untagged, bound(deserialize = "S: Deserialize<'de>"))]
pub enum TargetOut<S = String> {
    Path {
        path: S,
    },
    Endpoint {
        host: S,
        port: Option<u64>,
        protocol: S,
    },
    Limit {
        limit: S,
        value: Option<u64>,
        threshold: ThresholdOut<S>,
    },
    Variables {
        variables: Vec<S>,
    },
    Credential {
        credential: S,
    },
    Subject {
        subject: S,
    },
    Kernel {
        kernel_of: S,
        runtime: Option<S>,
    },
    Capabilities {
        capabilities: Vec<S>,
    },
    /// Read only: a v1 export's plain-text target (a baseline written by
    /// an earlier version stays readable). Never written.
    Text(S),
}

/// A limit's threshold: a number, or `"any"` when nothing is declared.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(untagged)]
pub enum ThresholdOut<S = String> {
    Value(u64),
    Word(S),
}

/// A finding that motivates a check.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct MotiveOut<S = String> {
    pub rule: S,
    pub fingerprint: String,
}

/// `target` as the export writes it, borrowed.
pub fn target_out(t: &Target) -> TargetOut<&str> {
    match t {
        Target::Path(p) => TargetOut::Path { path: p },
        Target::Endpoint {
            host,
            port,
            protocol,
        } => TargetOut::Endpoint {
            host,
            port: *port,
            protocol,
        },
        Target::Limit {
            limit,
            value,
            threshold,
        } => TargetOut::Limit {
            limit: limit.as_str(),
            value: *value,
            threshold: match threshold {
                Threshold::Value(v) => ThresholdOut::Value(*v),
                Threshold::Any => ThresholdOut::Word("any"),
            },
        },
        Target::Variables(v) => TargetOut::Variables {
            variables: v.iter().map(String::as_str).collect(),
        },
        Target::Credential(c) => TargetOut::Credential { credential: c },
        Target::Worker => TargetOut::Subject { subject: "worker" },
        Target::Kernel { kind, runtime } => TargetOut::Kernel {
            kernel_of: kind,
            runtime: runtime.as_deref(),
        },
        Target::Subject(s) => TargetOut::Subject { subject: s },
        Target::Capabilities(v) => TargetOut::Capabilities {
            capabilities: v.iter().map(String::as_str).collect(),
        },
    }
}

fn write_target(w: &mut Pretty, t: &Target) {
    w.key("target").object();
    match t {
        Target::Path(p) => {
            w.field("path", p);
        }
        Target::Endpoint {
            host,
            port,
            protocol,
        } => {
            w.field("host", host);
            match port {
                Some(p) => w.field_num("port", *p),
                None => w.key("port").null(),
            };
            w.field("protocol", protocol);
        }
        Target::Limit {
            limit,
            value,
            threshold,
        } => {
            w.field("limit", limit.as_str());
            match value {
                Some(v) => w.field_num("value", *v),
                None => w.key("value").null(),
            };
            match threshold {
                Threshold::Value(v) => w.field_num("threshold", *v),
                Threshold::Any => w.field("threshold", "any"),
            };
        }
        Target::Variables(v) => {
            w.field_strs("variables", v.iter().map(String::as_str));
        }
        Target::Credential(c) => {
            w.field("credential", c);
        }
        Target::Worker => {
            w.field("subject", "worker");
        }
        Target::Kernel { kind, runtime } => {
            w.field("kernel_of", kind);
            match runtime {
                Some(r) => w.field("runtime", r),
                None => w.key("runtime").null(),
            };
        }
        Target::Subject(s) => {
            w.field("subject", s);
        }
        Target::Capabilities(v) => {
            w.field_strs("capabilities", v.iter().map(String::as_str));
        }
    }
    w.end_object();
}

fn issue<'a>(f: &'a Finding, profile: &str) -> IssueOut<&'a str, &'a Evidence> {
    IssueOut {
        rule: f.rule,
        area: f.area.as_str(),
        severity: f.severity.as_str(),
        pointer: &f.pointer,
        line: f.line,
        column: f.column,
        message: &f.message,
        remediation: f.remediation,
        fingerprint: finding_fingerprint(f.rule, &f.pointer, profile),
        value_digest: Some(f.accepted_digest().into_owned()),
        evidence: &f.evidence,
        waived: f.waived.as_ref().map(|w| WaivedOut {
            reason: w.reason.as_str(),
            owner: w.owner.as_str(),
            expires: w.expires.as_str(),
        }),
        baseline: f.baseline,
        origin: f.origin.as_ref().map(|o| OriginOut {
            file: o.file.as_str(),
            line: o.line,
            column: o.column,
        }),
    }
}

use crate::model::StringEnum;

/// The export as typed values, borrowed from the report.
pub fn export(r: &Report) -> ExportRef<'_> {
    Export {
        schema: FINDINGS_SCHEMA,
        route: &r.route,
        tool: Tool {
            name: TOOL_NAME,
            version: TOOL_VERSION,
        },
        profile: ProfileOut {
            name: &r.profile.name,
            source: &r.profile.source,
            sha256: &r.profile.sha256,
            fingerprint: &r.profile.fingerprint,
            recheck_when: RECHECK_WHEN.to_vec(),
        },
        labels: LabelsOut {
            name: &r.labels_name,
            sha256: &r.labels_sha256,
        },
        verdict: r.verdict.as_str(),
        notice: NOTICE,
        summary: SummaryOut {
            critical: r.summary.critical,
            high: r.summary.high,
            medium: r.summary.medium,
            low: r.summary.low,
            info: r.summary.info,
        },
        issues: r.issues.iter().map(|f| issue(f, &r.profile.name)).collect(),
        runtime_checks: r
            .runtime_checks
            .iter()
            .map(|c| CheckOut {
                id: c.id.as_str(),
                kind: c.kind.as_str(),
                target: target_out(&c.target),
                expect: c.expect.as_str(),
                because: c.because.as_str(),
                motivated_by: c
                    .motivated_by
                    .iter()
                    .map(|m| MotiveOut {
                        rule: m.rule,
                        fingerprint: finding_fingerprint(m.rule, &m.pointer, &r.profile.name),
                    })
                    .collect(),
            })
            .collect(),
    }
}

/// Pretty JSON with a final newline. Deterministic: field order is fixed by
/// the types, evidence keys are sorted, findings are sorted.
pub fn render(r: &Report) -> String {
    let mut s = written(r, 0, &InOrder).finish();
    s.push('\n');
    s
}

/// [`render`] in parts to be written one after the other: a long list's
/// pieces, written on `schedule`, are not copied into one buffer first.
pub fn render_parts(r: &Report, schedule: &dyn Schedule) -> Vec<String> {
    let mut parts = written(r, 0, schedule).finish_parts();
    match parts.last_mut() {
        Some(last) => last.push('\n'),
        None => parts.push("\n".into()),
    }
    parts
}

/// [`element`] in parts, as [`render_parts`].
pub fn element_parts(r: &Report, schedule: &dyn Schedule) -> Vec<String> {
    written(r, 1, schedule).finish_parts()
}

/// [`render`] (or [`element`] when `element`) handed to `emit` part by
/// part, in order, a long list's pieces as soon as they are written: the
/// caller writes the first parts out while the rest is still being
/// written (on `schedule`). The parts joined are the same bytes.
pub fn render_to(r: &Report, element: bool, schedule: &dyn Schedule, emit: &mut dyn FnMut(String)) {
    let mut parts = written_to(r, usize::from(element), schedule, Some(&mut *emit)).finish_parts();
    if !element {
        match parts.last_mut() {
            Some(last) => last.push('\n'),
            None => parts.push("\n".into()),
        }
    }
    parts.into_iter().for_each(emit);
}

/// Several reports as one JSON array (directory mode, several files).
pub fn render_many(reports: &[Report]) -> String {
    super::frame::JSON_ARRAY.assemble(reports.iter().map(element))
}

/// One report as an element of [`super::frame::JSON_ARRAY`].
pub fn element(r: &Report) -> String {
    written(r, 1, &InOrder).finish()
}

/// [`export`] as serde_json would write it, written directly: the same
/// fields in the same order (the unit tests hold the two together).
fn written<'s>(r: &Report, depth: usize, schedule: &'s dyn Schedule) -> Pretty<'s> {
    written_to(r, depth, schedule, None)
}

/// Where [`written_to`] hands a long list's pieces as they are ready
/// (kept in the writer when `None`).
type Emit<'e> = Option<&'e mut dyn FnMut(String)>;

/// The elements of an open array, written by `one`: with `emit`, a long
/// list's pieces go there as they are ready.
fn list<T: Sync>(
    w: &mut Pretty<'_>,
    items: &[T],
    each: usize,
    one: impl Fn(&mut Pretty<'_>, &T) + Sync + Send,
    emit: &mut Emit<'_>,
) {
    match emit {
        Some(emit) => w.items_to(items, each, one, &mut **emit),
        None => w.items(items, each, one),
    };
}

/// About the bytes of one finding and of one runtime check in the export
/// (measured on the 10k x 10k export: 826 and 261).
const ISSUE_BYTES: usize = 800;
const CHECK_BYTES: usize = 256;

fn written_to<'s>(
    r: &Report,
    depth: usize,
    schedule: &'s dyn Schedule,
    mut emit: Emit<'_>,
) -> Pretty<'s> {
    let mut w = Pretty::at(depth, size_hint(r)).on(schedule);
    w.object()
        .field("schema", FINDINGS_SCHEMA)
        .field("route", &r.route);
    w.key("tool")
        .object()
        .field("name", TOOL_NAME)
        .field("version", TOOL_VERSION)
        .end_object();
    w.key("profile")
        .object()
        .field("name", &r.profile.name)
        .field("source", &r.profile.source)
        .field("sha256", &r.profile.sha256)
        .field("fingerprint", &r.profile.fingerprint)
        .field_strs("recheck_when", RECHECK_WHEN.iter().copied())
        .end_object();
    w.key("labels")
        .object()
        .field("name", &r.labels_name)
        .field("sha256", &r.labels_sha256)
        .end_object();
    w.field("verdict", r.verdict.as_str())
        .field("notice", NOTICE);
    let s = &r.summary;
    w.key("summary")
        .object()
        .field_num("critical", s.critical as u64)
        .field_num("high", s.high as u64)
        .field_num("medium", s.medium as u64)
        .field_num("low", s.low as u64)
        .field_num("info", s.info as u64)
        .end_object();
    w.key("issues").array();
    list(
        &mut w,
        &r.issues,
        ISSUE_BYTES,
        |w, f| {
            w.object()
                .field("rule", f.rule)
                .field("area", f.area.as_str())
                .field("severity", f.severity.as_str())
                .field("pointer", &f.pointer);
            if let Some(l) = f.line {
                w.field_num("line", l.into());
            }
            if let Some(c) = f.column {
                w.field_num("column", c.into());
            }
            w.field("message", &f.message)
                .field("remediation", f.remediation)
                .field(
                    "fingerprint",
                    &finding_fingerprint(f.rule, &f.pointer, &r.profile.name),
                )
                .field("value_digest", &f.accepted_digest());
            w.key("evidence").map(&f.evidence);
            if let Some(wv) = &f.waived {
                w.key("waived")
                    .object()
                    .field("reason", &wv.reason)
                    .field("owner", &wv.owner)
                    .field("expires", &wv.expires)
                    .end_object();
            }
            if let Some(b) = f.baseline {
                w.field("baseline", b);
            }
            if let Some(o) = &f.origin {
                w.key("origin")
                    .object()
                    .field("file", &o.file)
                    .field_num("line", o.line.into())
                    .field_num("column", o.column.into())
                    .end_object();
            }
            w.end_object();
        },
        &mut emit,
    );
    w.end_array();
    w.key("runtime_checks").array();
    list(
        &mut w,
        &r.runtime_checks,
        CHECK_BYTES,
        |w, c| {
            w.object().field("id", &c.id).field("kind", c.kind.as_str());
            write_target(w, &c.target);
            w.field("expect", c.expect.as_str())
                .field("because", &c.because);
            w.key("motivated_by").array();
            for m in &c.motivated_by {
                w.item()
                    .object()
                    .field("rule", m.rule)
                    .field(
                        "fingerprint",
                        &finding_fingerprint(m.rule, &m.pointer, &r.profile.name),
                    )
                    .end_object();
            }
            w.end_array().end_object();
        },
        &mut emit,
    );
    w.end_array().end_object();
    w
}

/// About the size of a report's export, so a large one is not copied
/// again and again while its buffer grows.
fn size_hint(r: &Report) -> usize {
    // About 96 bytes for an evidence entry: a little over, so the buffer
    // is not outgrown.
    let issues: usize = r
        .issues
        .iter()
        .map(|f| {
            360 + f.message.len() + f.remediation.len() + f.pointer.len() + 96 * f.evidence.len()
        })
        .sum();
    let checks: usize = r
        .runtime_checks
        .iter()
        .map(|c| 260 + 96 * c.motivated_by.len() + c.because.len())
        .sum();
    2048 + issues + checks
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_bytes_as_serde_json_of_the_typed_export() {
        let reports = super::super::sample_reports("p.json");
        for r in &reports {
            let want = serde_json::to_string_pretty(&export(r)).unwrap() + "\n";
            assert_eq!(render(r), want);
        }
    }

    /// Long lists are written in pieces (side by side on a schedule of
    /// several threads): still serde_json's bytes, in order, commas and all.
    #[test]
    fn long_lists_keep_their_bytes() {
        let mut reports = super::super::sample_reports("p.json");
        let r = reports
            .iter_mut()
            .find(|r| !r.issues.is_empty() && !r.runtime_checks.is_empty())
            .unwrap();
        let (issues, checks) = (r.issues.clone(), r.runtime_checks.clone());
        while r.runtime_checks.len() < 9000 {
            r.issues.extend(issues.iter().cloned());
            r.runtime_checks.extend(checks.iter().cloned());
        }
        let want = serde_json::to_string_pretty(&export(r)).unwrap() + "\n";
        assert_eq!(render(r), want);
        assert_eq!(
            written(r, 1, &InOrder).finish(),
            serde_json::to_string_pretty(&[export(r)])
                .unwrap()
                .trim_start_matches("[\n")
                .trim_end_matches("\n]")
        );
        {
            // Streamed: the same bytes, and the text before the first long
            // list plus every piece of both lists come as parts of their own.
            for element in [false, true] {
                let mut parts = Vec::new();
                render_to(r, element, &crate::par::Backwards, &mut |p| parts.push(p));
                let joined = parts.concat();
                if element {
                    assert_eq!(joined, written(r, 1, &InOrder).finish());
                } else {
                    assert_eq!(joined, want);
                }
                // The head, the issues' pieces, the text between the
                // lists, the checks' pieces, the tail.
                let pieces = |n: usize, each: usize| {
                    assert!(n * each >= crate::json_writer::PIECES_BYTES);
                    n.div_ceil(crate::json_writer::PIECE_BYTES / each)
                };
                assert_eq!(
                    parts.len(),
                    3 + pieces(r.issues.len(), ISSUE_BYTES)
                        + pieces(r.runtime_checks.len(), CHECK_BYTES)
                );
                assert!(parts[0].ends_with("\"issues\": ["), "{:?}", &parts[0]);
            }
            // Lists too short to be split come as one part.
            let small = &super::super::sample_reports("p.json")[0];
            let mut parts = Vec::new();
            render_to(small, false, &InOrder, &mut |p| parts.push(p));
            assert_eq!(parts, vec![render(small)]);
        }
    }
}
