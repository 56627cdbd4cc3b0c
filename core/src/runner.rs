//! The runner overlay (`--runner FILE`): what a manifest cannot say about
//! the job, declared by whoever operates the runner.
//!
//! A Pod manifest cannot express cleanup, artifact collection, how limits
//! are enforced, how many jobs run at once or how dependencies are fetched.
//! The lesson asks to review the runtime and host configuration together,
//! so the operator writes those settings once, as a partial
//! `isolint.profile/v1`, and isolint merges it **under** each imported
//! profile:
//! - a value only the overlay declares fills the gap, and a finding about
//!   it points into the overlay file;
//! - a value both declare alike stays the manifest's;
//! - a value they declare differently is a conflict: the manifest's value is
//!   kept and the conflict is a blocking finding (PRF020), never a silent
//!   override in either direction. Two numeric upper bounds on the same
//!   quantity are not a conflict: each layer enforces its own.

use std::fmt;

use crate::finding::{Finding, Origin};
use crate::import::builder::{to_json, OVal};
use crate::import::tree::{from_json, Loc, SNode, SValue};
use crate::import::{ImportError, ImportErrorKind, Imported};
use crate::json::escape_token;
use crate::report::{AuditOptions, Labels, Report};

/// The profile sections an overlay may declare: the ones a runner, not a
/// workload manifest, decides, and the facts some formats cannot state:
/// who wrote the code, what the job needs, which runtime at which version
/// and patch date starts it (an OCI bundle, a bwrap script or a Codex
/// config name none of them), and, for an agent's sandbox whose boundary
/// depends on the platform it runs on (Codex, sandbox-runtime), that
/// boundary, the command the runner starts the agent with and the
/// environment it starts it in (sandbox-runtime passes on whatever
/// environment its launcher has). Like every overlay value these only fill
/// what the import left undeclared; what the file states wins, and a
/// disagreement is PRF020. Identity, mounts and credentials stay the
/// manifest's alone.
pub const RUNNER_KEYS: &[&str] = &[
    "schema",
    "tenancy",
    "needs",
    "boundary",
    "command",
    "environment",
    "network",
    "limits",
    "concurrency",
    "dependencies",
    "artifacts",
    "cleanup",
];

/// What an overlay's `boundary` may hold (facts of the runtime and of how
/// the runner starts it), and that `runtime`'s fields.
pub const BOUNDARY_KEYS: &[&str] = &[
    "kind",
    "runtime",
    "privileged",
    "capabilities",
    "user",
    "no_new_privileges",
    "seccomp",
];
const RUNTIME_KEYS: &[&str] = &["name", "version", "patched_on"];

/// A parsed overlay.
#[derive(Debug, Clone)]
pub struct Runner {
    /// The file name findings name as their origin.
    pub file: String,
    root: SNode,
}

/// Why an overlay file is unusable: it is trusted configuration, so any
/// problem refuses the run (exit 2) rather than auditing without it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RunnerError(pub ImportError);

impl fmt::Display for RunnerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl std::error::Error for RunnerError {}

fn bad(at: Loc, msg: String) -> RunnerError {
    RunnerError(ImportError::new(ImportErrorKind::Invalid(msg)).at(at))
}

/// A value both the imported profile and the overlay declare, differently.
#[derive(Debug, Clone, PartialEq)]
pub struct Conflict {
    pub pointer: String,
    pub imported: String,
    pub runner: String,
    pub runner_at: Loc,
}

impl Runner {
    /// Parse an overlay (JSON). Unknown sections, `null`s and numbers that
    /// are not whole and non-negative are refused with their position.
    pub fn parse(bytes: &[u8], file: &str) -> Result<Runner, RunnerError> {
        let root = from_json(bytes).map_err(RunnerError)?;
        if !root.is_map() {
            return Err(bad(
                root.loc,
                format!(
                    "a runner overlay must be a JSON object, found {}",
                    root.kind()
                ),
            ));
        }
        for e in root.entries() {
            if !RUNNER_KEYS.contains(&e.key.as_str()) {
                let hint = crate::decode::suggest(&e.key, RUNNER_KEYS)
                    .map(|s| format!("; did you mean `{s}`?"))
                    .unwrap_or_default();
                return Err(bad(
                    e.key_loc,
                    format!(
                        "`{}` cannot be set by a runner overlay (it may set {}){hint}",
                        e.key,
                        RUNNER_KEYS.get(1..).unwrap_or_default().join(", ")
                    ),
                ));
            }
        }
        check_keys(&root, "boundary", BOUNDARY_KEYS)?;
        if let Some(b) = root.get("boundary") {
            check_keys(b, "runtime", RUNTIME_KEYS)?;
            if let Some(rt) = b.get("runtime") {
                for e in rt.entries() {
                    if !matches!(&e.value.value, SValue::Scalar(s) if s.quoted) {
                        return Err(bad(
                            e.value.loc,
                            format!("`boundary.runtime.{}` must be a string", e.key),
                        ));
                    }
                }
            }
        }
        if let Some(t) = root.get("tenancy") {
            if !matches!(t.as_str(), Some("internal" | "untrusted")) {
                return Err(bad(
                    t.loc,
                    "a runner overlay's `tenancy` must be `internal` or `untrusted`".into(),
                ));
            }
        }
        if let Some(s) = root.get("schema") {
            if s.as_str() != Some(crate::model::PROFILE_SCHEMA) {
                return Err(bad(
                    s.loc,
                    format!(
                        "a runner overlay's `schema` must be `{}`",
                        crate::model::PROFILE_SCHEMA
                    ),
                ));
            }
        }
        to_oval(&root, Numbers::Unsigned)?;
        Ok(Runner {
            file: crate::sanitize::neutralize(file).into_owned(),
            root,
        })
    }

    /// Merge the overlay under `imported`: returns the merged profile, the
    /// pointers the overlay supplied (with their overlay positions) and
    /// the conflicts.
    pub fn overlay(&self, profile_json: &str) -> Result<Overlaid, RunnerError> {
        let base = from_json(profile_json.as_bytes()).map_err(RunnerError)?;
        let mut merged = to_oval(&base, Numbers::Signed)?;
        let mut out = Overlaid {
            profile_json: String::new(),
            from_runner: Vec::new(),
            conflicts: Vec::new(),
        };
        for e in self.root.entries().iter().filter(|e| e.key != "schema") {
            merge(
                &mut merged,
                &e.key,
                &e.value,
                &format!("/{}", escape_token(&e.key)),
                &mut out,
            )?;
        }
        out.profile_json = to_json(&merged);
        crate::sort::sort(&mut out.from_runner);
        Ok(out)
    }
}

/// The members of `parent.key`, when present, must be a mapping of
/// `allowed` keys only.
fn check_keys(parent: &SNode, key: &str, allowed: &[&str]) -> Result<(), RunnerError> {
    let Some(n) = parent.get(key) else {
        return Ok(());
    };
    if !n.is_map() {
        return Err(bad(n.loc, format!("`{key}` must be an object")));
    }
    for e in n.entries() {
        if !allowed.contains(&e.key.as_str()) {
            return Err(bad(
                e.key_loc,
                format!(
                    "`{key}.{}` cannot be set by a runner overlay (it may set {})",
                    e.key,
                    allowed.join(", ")
                ),
            ));
        }
    }
    Ok(())
}

/// An imported profile with an overlay merged under it.
#[derive(Debug, Clone, PartialEq)]
pub struct Overlaid {
    pub profile_json: String,
    /// Pointers the overlay supplied, sorted, each with its overlay position.
    pub from_runner: Vec<(String, Loc)>,
    pub conflicts: Vec<Conflict>,
}

impl Overlaid {
    /// The longest overlay-supplied ancestor of `pointer` (itself included),
    /// as (length of that pointer, its position).
    pub fn runner_origin(&self, pointer: &str) -> Option<(usize, Loc)> {
        let mut p = pointer;
        loop {
            if let Ok(i) = self
                .from_runner
                .binary_search_by(|(q, _)| q.as_str().cmp(p))
            {
                return self.from_runner.get(i).map(|(q, l)| (q.len(), *l));
            }
            match p.rfind('/') {
                Some(i) if !p.is_empty() => p = p.get(..i).unwrap_or(""),
                _ => return None,
            }
        }
    }
}

/// What an overlay may say of a number: the fields it may set are counts
/// and sizes, so a negative one is refused at its position. The imported
/// profile under it is the importer's own output, which holds negative
/// numbers too (`oom_score_adj: -1000`).
#[derive(Clone, Copy, PartialEq)]
enum Numbers {
    Unsigned,
    Signed,
}

fn to_oval(n: &SNode, numbers: Numbers) -> Result<OVal, RunnerError> {
    Ok(match &n.value {
        SValue::Null => {
            return Err(bad(
                n.loc,
                "`null` has no meaning in a profile; leave the field out".into(),
            ))
        }
        SValue::Scalar(s) if s.quoted => OVal::Str(s.text.clone()),
        SValue::Scalar(s) => match s.text.as_str() {
            "true" => OVal::Bool(true),
            "false" => OVal::Bool(false),
            t => match (t.parse::<u64>(), t.parse::<i64>()) {
                (Ok(u), _) => OVal::Int(u),
                (_, Ok(i)) if numbers == Numbers::Signed => OVal::Negative(i),
                _ => {
                    return Err(bad(
                        n.loc,
                        format!("`{t}` is not a whole non-negative number, the only numbers a runner overlay sets"),
                    ))
                }
            },
        },
        SValue::Seq(items) => OVal::Arr(
            items
                .iter()
                .map(|it| to_oval(it, numbers))
                .collect::<Result<_, _>>()?,
        ),
        SValue::Map(entries) => OVal::Obj(
            entries
                .iter()
                .map(|e| Ok((e.key.clone(), to_oval(&e.value, numbers)?)))
                .collect::<Result<_, RunnerError>>()?,
        ),
    })
}

fn record(n: &SNode, ptr: &str, out: &mut Overlaid) {
    out.from_runner.push((ptr.to_string(), n.loc));
    match &n.value {
        SValue::Map(entries) => {
            for e in entries {
                record(&e.value, &format!("{ptr}/{}", escape_token(&e.key)), out);
            }
        }
        SValue::Seq(items) => {
            for (i, it) in items.iter().enumerate() {
                record(it, &format!("{ptr}/{i}"), out);
            }
        }
        _ => {}
    }
}

fn show(v: &OVal) -> String {
    match v {
        OVal::Bool(b) => b.to_string(),
        OVal::Int(n) => n.to_string(),
        OVal::Str(s) => format!("\"{s}\""),
        other => to_json(other)
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" "),
    }
}

fn merge(
    parent: &mut OVal,
    key: &str,
    over: &SNode,
    ptr: &str,
    out: &mut Overlaid,
) -> Result<(), RunnerError> {
    let OVal::Obj(members) = parent else {
        return Ok(());
    };
    let Some(slot) = members.get_mut(key) else {
        members.push(key.to_string(), to_oval(over, Numbers::Unsigned)?);
        record(over, ptr, out);
        return Ok(());
    };
    if let (OVal::Obj(_), SValue::Map(entries)) = (&*slot, &over.value) {
        for e in entries {
            merge(
                slot,
                &e.key,
                &e.value,
                &format!("{ptr}/{}", escape_token(&e.key)),
                out,
            )?;
        }
        return Ok(());
    }
    let theirs = to_oval(over, Numbers::Unsigned)?;
    // Two upper bounds on the same quantity do not contradict each other:
    // each layer enforces its own, and the imported one is audited.
    let both_bounds =
        matches!((&*slot, &theirs), (OVal::Int(_), OVal::Int(_))) && UPPER_BOUNDS.contains(&ptr);
    if *slot != theirs && !both_bounds {
        out.conflicts.push(Conflict {
            pointer: ptr.to_string(),
            imported: show(slot),
            runner: show(&theirs),
            runner_at: over.loc,
        });
    }
    Ok(())
}

/// The blocking finding for a conflict, with the imported file's position
/// (`origin`) and the overlay's in the message and evidence.
pub fn conflict_finding(c: &Conflict, runner_file: &str, origin: Option<Origin>) -> Finding {
    let rule = crate::rules::find(CONFLICT_RULE);
    let mut evidence = crate::finding::Evidence::new();
    evidence.insert("imported".into(), c.imported.as_str().into());
    evidence.insert("runner".into(), c.runner.as_str().into());
    evidence.insert("runner_file".into(), runner_file.into());
    evidence.insert("runner_line".into(), u64::from(c.runner_at.line).into());
    Finding {
        rule: rule.map_or(CONFLICT_RULE, |r| r.id),
        area: rule.map_or(crate::finding::Area::Profile, |r| r.area),
        severity: rule.map_or(crate::finding::Severity::High, |r| r.severity),
        pointer: c.pointer.clone(),
        line: None,
        column: None,
        exact: false,
        message: crate::sanitize::neutralize(&format!(
            "the runner overlay `{runner_file}` (line {}) says {} here, the imported file says {}; the imported value is audited, and the disagreement must be resolved",
            c.runner_at.line, c.runner, c.imported
        ))
        .into_owned(),
        remediation: rule.map_or("", |r| r.remediation),
        evidence,
        waived: None,
        baseline: None,
        value_digest: None,
        origin,
    }
}

/// Numeric limits: the manifest and the runner may each set one (a Job's
/// `parallelism` and the runner's job cap, a container's memory limit and
/// the worker's), and both hold.
const UPPER_BOUNDS: &[&str] = &[
    "/limits/wall_seconds",
    "/limits/cpu_seconds",
    "/limits/memory_bytes",
    "/limits/processes",
    "/limits/output_bytes",
    "/concurrency/max_jobs",
    "/artifacts/max_bytes",
    "/artifacts/log_max_bytes",
];

/// The rule a conflict raises.
pub const CONFLICT_RULE: &str = "PRF020";

/// The length of the longest pointer of `imported`'s source map that is
/// `pointer` or an ancestor of it.
fn mapped_len(imported: &Imported, pointer: &str) -> usize {
    let mut p = pointer;
    loop {
        if imported
            .source_map
            .binary_search_by(|m| m.pointer.as_str().cmp(p))
            .is_ok()
        {
            return p.len();
        }
        match p.rfind('/') {
            Some(i) if !p.is_empty() => p = p.get(..i).unwrap_or(""),
            _ => return 0,
        }
    }
}

/// Audit a profile text with the overlay merged under it; conflicts are
/// added as findings at the profile's own positions. For callers without
/// an original file (rule fixtures, native profiles in tests).
pub fn audit_profile(
    profile_json: &str,
    source_name: &str,
    labels: &Labels,
    options: &AuditOptions,
    runner: &Runner,
) -> Result<Report, RunnerError> {
    let o = runner.overlay(profile_json)?;
    let mut report = crate::report::audit(o.profile_json.as_bytes(), source_name, labels, options)
        .map_err(|e| RunnerError(ImportError::from_json(e)))?;
    add_conflicts(&mut report, &o, runner, |_| None);
    Ok(report)
}

/// An imported profile's report, audited with the overlay `o` merged
/// under it ([`crate::audit::audit_imported`]): a finding about a value
/// only the overlay declared gets its origin in the overlay file, every
/// other finding keeps the imported file's, and the overlay's conflicts
/// are added as findings.
pub fn point_into_overlay(
    report: &mut Report,
    imported: &Imported,
    original_name: &str,
    o: &Overlaid,
    runner: &Runner,
) {
    for f in &mut report.issues {
        if let Some((len, at)) = o.runner_origin(&f.pointer) {
            if len > mapped_len(imported, &f.pointer) {
                f.origin = Some(Origin {
                    file: runner.file.clone(),
                    line: at.line,
                    column: at.column,
                });
            }
        }
    }
    let file = crate::sanitize::neutralize(original_name).into_owned();
    add_conflicts(report, o, runner, |p| {
        imported.origin_of(p).map(|l| Origin {
            file: file.clone(),
            line: l.line,
            column: l.column,
        })
    });
}

fn add_conflicts(
    report: &mut Report,
    o: &Overlaid,
    runner: &Runner,
    origin: impl Fn(&str) -> Option<Origin>,
) {
    if o.conflicts.is_empty() {
        return;
    }
    let doc = crate::json::parse(o.profile_json.as_bytes(), crate::json::Limits::default()).ok();
    for c in &o.conflicts {
        let mut f = conflict_finding(c, &runner.file, origin(&c.pointer));
        if let Some(d) = &doc {
            let (pos, exact) = d.root.locate(&c.pointer);
            f.line = Some(pos.line);
            f.column = Some(pos.column);
            f.exact = exact;
        }
        // The message quotes both values without backticks: scrubbed
        // whole, as a value.
        f.message = report.redact(&f.message);
        let f = report.clean_finding(f);
        report.issues.push(f);
    }
    report.refresh();
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::import::{self, Format};

    const POD: &str = "apiVersion: v1\nkind: Pod\nmetadata: {name: t}\nspec:\n  containers:\n  - name: c\n    image: python:3.12\n    resources:\n      limits: {memory: 1Gi}\n";

    fn imported() -> Imported {
        import::import(POD.as_bytes(), Format::Kubernetes)
            .unwrap()
            .remove(0)
    }

    #[test]
    fn fills_gaps_keeps_agreement_and_reports_conflicts() {
        let r = Runner::parse(
            br#"{"limits": {"memory_bytes": 2, "enforced_by": "request", "processes": 64,
                 "timeout_kills": "parent"}, "cleanup": {"destroy_worker": true}}"#,
            "runner.json",
        )
        .unwrap();
        let o = r.overlay(&imported().profile_json).unwrap();
        let v: serde_json::Value = serde_json::from_str(&o.profile_json).unwrap();
        assert_eq!(v["limits"]["memory_bytes"], 1u64 << 30, "the manifest wins");
        assert_eq!(v["limits"]["enforced_by"], "cgroup", "the manifest wins");
        assert_eq!(v["limits"]["processes"], 64);
        assert_eq!(v["cleanup"]["destroy_worker"], true);
        // Two memory limits are two bounds, not a disagreement; a limit
        // enforced by cgroup and one only requested are.
        assert_eq!(o.conflicts.len(), 1, "{:?}", o.conflicts);
        assert_eq!(o.conflicts[0].pointer, "/limits/enforced_by");
        assert_eq!(o.conflicts[0].runner_at.line, 1);
        assert!(o.runner_origin("/limits/processes").is_some());
        assert!(o.runner_origin("/limits/timeout_kills").is_some());
        assert!(o.runner_origin("/cleanup/on_failure").is_some());
        assert!(o.runner_origin("/limits/memory_bytes").is_none());
        assert!(o.runner_origin("/limits/enforced_by").is_none());
    }

    #[test]
    fn bad_overlays_are_refused_with_a_position() {
        for (text, want) in [
            (r#"{"mounts": []}"#, "cannot be set by a runner overlay"),
            (
                r#"{"boundary": {"devices": []}}"#,
                "`boundary.devices` cannot be set",
            ),
            (
                r#"{"boundary": {"runtime": {"label": "x"}}}"#,
                "`runtime.label` cannot be set",
            ),
            (
                r#"{"boundary": {"runtime": {"version": 1}}}"#,
                "must be a string",
            ),
            (r#"{"boundary": []}"#, "must be an object"),
            (r#"{"tenancy": "everyone"}"#, "`tenancy` must be"),
            (r#"{"limts": {}}"#, "did you mean `limits`"),
            (r#"{"limits": {"processes": -1}}"#, "whole non-negative"),
            (
                r#"{"limits": {"processes": -9999999999999999999}}"#,
                "whole non-negative",
            ),
            (r#"{"limits": {"processes": 1.5}}"#, "whole non-negative"),
            (r#"{"limits": {"processes": null}}"#, "`null`"),
            (r#"{"schema": "isolint.labels/v1"}"#, "`schema`"),
            (r#"{"cleanup": {}, "cleanup": {}}"#, "duplicate key"),
            ("[]", "must be a JSON object"),
        ] {
            let e = Runner::parse(text.as_bytes(), "r.json").unwrap_err();
            assert!(e.to_string().contains(want), "{text}: {e}");
            assert!(e.0.loc.is_some(), "{text}: no position");
        }
    }
}
