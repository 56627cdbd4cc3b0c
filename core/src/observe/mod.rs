//! Observations of a launched environment (`isolint.observations/v1`) and
//! their reconciliation with the plan. No I/O: the probe (inside the
//! sandbox) and the launcher (outside) produce the document; this module
//! only reads it and compares, so every front end can show the result.

pub mod render;

use serde::{Deserialize, Serialize};

use crate::model::{string_enum, StringEnum};
use crate::plan::{Expect, RuntimeCheck};

/// The schema identifier of an observations document.
pub const OBSERVATIONS_SCHEMA: &str = "isolint.observations/v1";

string_enum!(
    /// What the kernel (or the launcher, from outside) answered. `absent`
    /// is ENOENT (not observable as denial), `needs-launcher` is for what
    /// only the launcher sees from outside, `error` an action the probe
    /// could not perform.
    Observed {
        Denied = "denied",
        Allowed = "allowed",
        Absent = "absent",
        Enforced = "enforced",
        NotEnforced = "not-enforced",
        NoSurvivors = "no-survivors",
        Survivors = "survivors",
        Exact = "exact",
        Differs = "differs",
        Resolves = "resolves",
        Redirected = "redirected",
        Rejected = "rejected",
        Accepted = "accepted",
        Destroyed = "destroyed",
        Kept = "kept",
        SeparateKernel = "separate-kernel",
        HostKernel = "host-kernel",
        Filtered = "filtered",
        Unfiltered = "unfiltered",
        WithinDeclared = "within-declared",
        BeyondDeclared = "beyond-declared",
        Private = "private",
        SharedWithHost = "shared-with-host",
        Standard = "standard",
        ExtraDevices = "extra-devices",
        Confined = "confined",
        Unconfined = "unconfined",
        NeedsLauncher = "needs-launcher",
        Error = "error",
    }
);

/// One observation, as the probe or launcher wrote it.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Observation {
    pub id: String,
    pub kind: String,
    /// The harmless action performed (`open O_RDONLY`, `connect`, ...).
    pub action: String,
    pub observed: String,
    /// The errno name (`EACCES`, `ENOENT`, ...), when there was one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub errno: Option<String>,
    /// Names only (env-exact), or a reason; never a value from the job.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub detail: Option<String>,
    pub elapsed_us: u64,
}

/// An observations document.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Observations {
    pub schema: String,
    /// The profile fingerprint of the plan that was probed.
    pub plan_fingerprint: String,
    /// What launched the environment (`bwrap 0.8.0`, `docker`, ...).
    pub runner: String,
    pub observations: Vec<Observation>,
}

/// Why observations could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ObservationsError(pub String);

impl std::fmt::Display for ObservationsError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ObservationsError {}

/// Parse an observations document; the message names line and column.
///
/// Read from core's own spanned JSON tree (the profile parser), not with
/// serde: the page reads observations too, and one JSON parser there is
/// cheaper than two. `tests::reads_like_serde` holds it to the serde
/// derive's answers (required fields, `null` optionals, no unknown or
/// repeated field).
pub fn parse(bytes: &[u8]) -> Result<Observations, ObservationsError> {
    let doc = crate::json::parse(bytes, crate::json::Limits::default())
        .map_err(|e| ObservationsError(e.to_string()))?;
    let o = read_observations(&doc, bytes).map_err(|bad| {
        let (pos, what) = *bad;
        ObservationsError(format!(
            "line {}, column {}: not an {OBSERVATIONS_SCHEMA} document: {what}",
            pos.line, pos.column
        ))
    })?;
    if o.schema != OBSERVATIONS_SCHEMA {
        return Err(ObservationsError(format!(
            "schema is {:?}, expected {OBSERVATIONS_SCHEMA:?}",
            o.schema
        )));
    }
    for ob in &o.observations {
        if Observed::parse(&ob.observed).is_none() {
            return Err(ObservationsError(format!(
                "{}: unknown observed value {:?} (accepted: {})",
                ob.id,
                ob.observed,
                Observed::VALUES.join(", ")
            )));
        }
    }
    Ok(o)
}

/// A refusal and where it is; boxed, so each `?` moves a pointer.
type Bad = Box<(crate::json::Pos, String)>;
type JNode = crate::json::Node;

/// Members are read in document order, so the first problem reported is
/// the first in the file, as serde reports it; missing fields after that,
/// at the object's end.
fn read_observations(doc: &crate::json::Document, bytes: &[u8]) -> Result<Observations, Bad> {
    const KNOWN: &[&str] = &["schema", "plan_fingerprint", "runner", "observations"];
    let root = &doc.root;
    let (mut schema, mut plan_fingerprint, mut runner, mut observations) = (None, None, None, None);
    for m in members(root)? {
        match m.key.as_str() {
            "schema" => set(&mut schema, m, string(&m.value)?)?,
            "plan_fingerprint" => set(&mut plan_fingerprint, m, string(&m.value)?)?,
            "runner" => set(&mut runner, m, string(&m.value)?)?,
            "observations" => {
                let crate::json::Value::Array(items) = &m.value.value else {
                    return Err(invalid(&m.value, "a sequence"));
                };
                let list = items
                    .iter()
                    .map(|i| read_observation(i, bytes))
                    .collect::<Result<Vec<_>, _>>()?;
                set(&mut observations, m, list)?;
            }
            _ => return Err(unknown(m, KNOWN)),
        }
    }
    Ok(Observations {
        schema: required(schema, root, bytes, "schema")?,
        plan_fingerprint: required(plan_fingerprint, root, bytes, "plan_fingerprint")?,
        runner: required(runner, root, bytes, "runner")?,
        observations: required(observations, root, bytes, "observations")?,
    })
}

fn read_observation(n: &JNode, bytes: &[u8]) -> Result<Observation, Bad> {
    const KNOWN: &[&str] = &[
        "id",
        "kind",
        "action",
        "observed",
        "errno",
        "detail",
        "elapsed_us",
    ];
    let (mut id, mut kind, mut action, mut observed) = (None, None, None, None);
    let (mut errno, mut detail, mut elapsed_us) = (None, None, None);
    for m in members(n)? {
        match m.key.as_str() {
            "id" => set(&mut id, m, string(&m.value)?)?,
            "kind" => set(&mut kind, m, string(&m.value)?)?,
            "action" => set(&mut action, m, string(&m.value)?)?,
            "observed" => set(&mut observed, m, string(&m.value)?)?,
            // `#[serde(default)]` options: `null` is none, as absence is.
            "errno" => set(&mut errno, m, optional_string(&m.value)?)?,
            "detail" => set(&mut detail, m, optional_string(&m.value)?)?,
            "elapsed_us" => {
                let v = match &m.value.value {
                    crate::json::Value::Number(num) => num.as_u64(),
                    _ => None,
                }
                .ok_or_else(|| invalid(&m.value, "u64"))?;
                set(&mut elapsed_us, m, v)?;
            }
            _ => return Err(unknown(m, KNOWN)),
        }
    }
    Ok(Observation {
        id: required(id, n, bytes, "id")?,
        kind: required(kind, n, bytes, "kind")?,
        action: required(action, n, bytes, "action")?,
        observed: required(observed, n, bytes, "observed")?,
        errno: errno.flatten(),
        detail: detail.flatten(),
        elapsed_us: required(elapsed_us, n, bytes, "elapsed_us")?,
    })
}

fn members(n: &JNode) -> Result<&[crate::json::Member], Bad> {
    n.members().ok_or_else(|| invalid(n, "a map"))
}

/// Store a field's value; a field written twice is refused.
fn set<T>(slot: &mut Option<T>, m: &crate::json::Member, v: T) -> Result<(), Bad> {
    if slot.replace(v).is_some() {
        return Err(Box::new((
            m.key_pos,
            format!("duplicate field `{}`", m.key),
        )));
    }
    Ok(())
}

fn required<T>(v: Option<T>, object: &JNode, bytes: &[u8], name: &str) -> Result<T, Bad> {
    v.ok_or_else(|| missing(object, bytes, name))
}

/// A required field `name` missing from `object`: one copy of this for
/// every type [`required`] reads.
fn missing(object: &JNode, bytes: &[u8], name: &str) -> Bad {
    // Where the object closes, as serde reports a missing field.
    let end = (object.end as usize).saturating_sub(1);
    let before = bytes.get(..end).unwrap_or_default();
    let line = before.iter().filter(|b| **b == b'\n').count() + 1;
    let column = end
        - before
            .iter()
            .rposition(|b| *b == b'\n')
            .map_or(0, |i| i + 1)
        + 1;
    let pos = crate::json::Pos {
        line: u32::try_from(line).unwrap_or(u32::MAX),
        column: u32::try_from(column).unwrap_or(u32::MAX),
        offset: u32::try_from(end).unwrap_or(u32::MAX),
    };
    Box::new((pos, format!("missing field `{name}`")))
}

fn string(n: &JNode) -> Result<String, Bad> {
    n.as_str()
        .map(str::to_string)
        .ok_or_else(|| invalid(n, "a string"))
}

fn optional_string(n: &JNode) -> Result<Option<String>, Bad> {
    match n.value {
        crate::json::Value::Null => Ok(None),
        _ => string(n).map(Some),
    }
}

fn unknown(m: &crate::json::Member, known: &[&str]) -> Bad {
    let expected: Vec<String> = known.iter().map(|k| format!("`{k}`")).collect();
    Box::new((
        m.key_pos,
        format!(
            "unknown field `{}`, expected one of {}",
            m.key,
            expected.join(", ")
        ),
    ))
}

fn invalid(n: &JNode, expected: &str) -> Bad {
    Box::new((
        n.pos,
        format!("invalid type: {}, expected {expected}", n.type_name()),
    ))
}

string_enum!(
    /// A check's status after reconciliation.
    Status {
        Agrees = "agrees",
        Disagrees = "disagrees",
        NotObservable = "not-observable",
        Stale = "stale",
    }
);

impl Status {
    /// Whether this status fails the reconciliation.
    pub fn blocks(self) -> bool {
        matches!(self, Status::Disagrees | Status::Stale)
    }
}

/// One plan check compared with what was observed.
#[derive(Debug, Clone, PartialEq)]
pub struct Reconciled {
    pub id: String,
    pub kind: String,
    pub target: String,
    pub expect: Expect,
    pub observed: Option<Observed>,
    pub errno: Option<String>,
    pub status: Status,
    pub reason: String,
}

/// The comparison of a plan with observations.
#[derive(Debug, Clone, PartialEq)]
pub struct Reconciliation {
    pub checks: Vec<Reconciled>,
    /// Observations naming no check of the plan (each is stale).
    pub unknown: Vec<String>,
}

impl Reconciliation {
    pub fn count(&self, s: Status) -> usize {
        self.checks.iter().filter(|c| c.status == s).count()
    }
    /// Exit 0 only when nothing disagrees and nothing is stale.
    pub fn passes(&self) -> bool {
        self.unknown.is_empty() && !self.checks.iter().any(|c| c.status.blocks())
    }
}

/// What an observation means for a check that expects `expect`.
fn judge(expect: Expect, observed: Observed) -> (Status, &'static str) {
    use Expect as E;
    use Observed as O;
    match (expect, observed) {
        (_, O::NeedsLauncher) => (
            Status::NotObservable,
            "only the launcher can observe this from outside",
        ),
        (_, O::Error) => (
            Status::NotObservable,
            "the probe could not perform the action",
        ),
        (E::Denied, O::Absent) => (
            Status::NotObservable,
            "the path is absent (ENOENT): absence is not denial",
        ),
        (E::Denied, O::Denied)
        | (E::Allowed, O::Allowed)
        | (E::Enforced, O::Enforced)
        | (E::NoSurvivors, O::NoSurvivors)
        | (E::Exact, O::Exact)
        | (E::ResolvesToDeclaredSource, O::Resolves)
        | (E::RejectedAfterJob, O::Rejected)
        | (E::Destroyed, O::Destroyed)
        | (E::SeparateKernel, O::SeparateKernel)
        | (E::Filtered, O::Filtered)
        | (E::WithinDeclared, O::WithinDeclared)
        | (E::Private, O::Private)
        | (E::Standard, O::Standard)
        | (E::Confined, O::Confined) => (Status::Agrees, "observed as declared"),
        // Anything else, an answer of another kind included, contradicts
        // the plan: fail closed.
        _ => (Status::Disagrees, "observed otherwise than declared"),
    }
}

/// A check as the reconciliation needs it: from a report, or read back
/// from a findings export.
#[derive(Debug, Clone, PartialEq)]
pub struct PlannedCheck {
    pub id: String,
    pub kind: String,
    pub target: String,
    pub expect: Expect,
}

impl From<&RuntimeCheck> for PlannedCheck {
    fn from(c: &RuntimeCheck) -> PlannedCheck {
        PlannedCheck {
            id: c.id.clone(),
            kind: c.kind.as_str().into(),
            target: c.target.to_string(),
            expect: c.expect,
        }
    }
}

/// The one-line target of an exported check, as [`crate::plan::Target`]'s
/// `Display` writes it for a report, so that a plan read back from JSON
/// and one taken from a report show the same rows.
fn target_text(t: &crate::render::json::TargetOut) -> String {
    use crate::plan::{LimitName, Target, Threshold};
    use crate::render::json::{TargetOut as T, ThresholdOut};
    let typed = match t {
        T::Path { path } => Target::Path(path.clone()),
        T::Endpoint {
            host,
            port,
            protocol,
        } => Target::Endpoint {
            host: host.clone(),
            port: *port,
            protocol: protocol.clone(),
        },
        T::Limit {
            limit,
            value,
            threshold,
        } => match LimitName::parse(limit) {
            Some(limit) => Target::Limit {
                limit,
                value: *value,
                threshold: match threshold {
                    ThresholdOut::Value(v) => Threshold::Value(*v),
                    ThresholdOut::Word(_) => Threshold::Any,
                },
            },
            None => {
                return format!(
                    "{limit}={}",
                    value.map_or("undeclared".into(), |v| v.to_string())
                )
            }
        },
        T::Variables { variables } => Target::Variables(variables.clone()),
        T::Credential { credential } => Target::Credential(credential.clone()),
        T::Subject { subject } => return subject.clone(),
        T::Capabilities { capabilities } => Target::Capabilities(capabilities.clone()),
        T::Kernel { kernel_of, runtime } => Target::Kernel {
            kind: kernel_of.clone(),
            runtime: runtime.clone(),
        },
        T::Text(s) => return s.clone(),
    };
    typed.to_string()
}

/// The plan and profile fingerprint of one `isolint.findings/v2` document.
pub fn plan_from_export(bytes: &[u8]) -> Result<(String, Vec<PlannedCheck>), ObservationsError> {
    crate::json::parse(bytes, crate::json::Limits::default())
        .map_err(|e| ObservationsError(e.to_string()))?;
    let doc: crate::render::json::Export = serde_json::from_slice(bytes).map_err(|e| {
        ObservationsError(format!(
            "line {}, column {}: not one isolint.findings/v2 document: {e}",
            e.line(),
            e.column()
        ))
    })?;
    if doc.schema != crate::render::json::FINDINGS_SCHEMA {
        return Err(ObservationsError(format!(
            "schema is {:?}: reconcile reads {} plans (typed targets, stable ids)",
            doc.schema,
            crate::render::json::FINDINGS_SCHEMA
        )));
    }
    let mut plan = Vec::with_capacity(doc.runtime_checks.len());
    for c in &doc.runtime_checks {
        let expect = Expect::parse(&c.expect)
            .ok_or_else(|| ObservationsError(format!("{}: unknown expect {:?}", c.id, c.expect)))?;
        plan.push(PlannedCheck {
            id: c.id.clone(),
            kind: c.kind.clone(),
            target: target_text(&c.target),
            expect,
        });
    }
    Ok((doc.profile.fingerprint, plan))
}

/// The rows a front end shows next to a report's plan: every check of
/// `report` (id, kind, target, expected, observed, status, reason), in
/// plan order, joined with `obs`; observations naming no check are in
/// [`Reconciliation::unknown`]. The dashboard's observed column and the
/// page's observations view both read this, so they cannot drift from
/// `isolint reconcile`.
pub fn join_report(report: &crate::Report, obs: &Observations) -> Reconciliation {
    let plan: Vec<PlannedCheck> = report
        .runtime_checks
        .iter()
        .map(PlannedCheck::from)
        .collect();
    reconcile(&plan, &report.profile.fingerprint, obs)
}

/// Compare `plan` (of the profile with `fingerprint`) with observations.
/// A fingerprint mismatch makes every check stale: the image, mounts,
/// runner or policy changed since the plan, so the checks must be repeated.
pub fn reconcile(plan: &[PlannedCheck], fingerprint: &str, obs: &Observations) -> Reconciliation {
    // Sorted lists, not maps: each map type adds its own copy of the
    // tree's code to the page. The sort is stable, so of one id's
    // observations the last is found, as a map built in order keeps it.
    let mut by_id: Vec<(&str, &Observation)> = obs
        .observations
        .iter()
        .map(|o| (o.id.as_str(), o))
        .collect();
    crate::sort::sort_by(&mut by_id, |a, b| a.0.cmp(b.0));
    let observation = |id: &str| {
        let end = by_id.partition_point(|e| e.0 <= id);
        by_id
            .get(end.wrapping_sub(1))
            .filter(|e| e.0 == id)
            .map(|e| e.1)
    };
    let stale = obs.plan_fingerprint != fingerprint;
    let checks = plan
        .iter()
        .map(|c| {
            let o = observation(c.id.as_str());
            let observed = o.and_then(|o| Observed::parse(&o.observed));
            let (status, reason) = match (stale, observed) {
                (true, _) => (
                    Status::Stale,
                    "the plan's fingerprint differs from the one probed: repeat the checks"
                        .to_string(),
                ),
                (false, None) => (
                    Status::NotObservable,
                    "no observation for this check".to_string(),
                ),
                (false, Some(v)) => {
                    let (s, why) = judge(c.expect, v);
                    let detail = o.and_then(|o| o.detail.clone()).unwrap_or_default();
                    if detail.is_empty() {
                        (s, why.to_string())
                    } else {
                        (s, format!("{why} ({detail})"))
                    }
                }
            };
            Reconciled {
                id: c.id.clone(),
                kind: c.kind.clone(),
                target: c.target.clone(),
                expect: c.expect,
                observed,
                errno: o.and_then(|o| o.errno.clone()),
                status,
                reason,
            }
        })
        .collect();
    let mut known: Vec<&str> = plan.iter().map(|c| c.id.as_str()).collect();
    crate::sort::sort(&mut known);
    let unknown = obs
        .observations
        .iter()
        .filter(|o| known.binary_search(&o.id.as_str()).is_err())
        .map(|o| o.id.clone())
        .collect();
    Reconciliation { checks, unknown }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{audit, AuditOptions, Labels};

    fn report() -> crate::Report {
        audit(
            crate::WORKSHOP_PROFILE_FIXED.as_bytes(),
            "fixed.json",
            &Labels::workshop(),
            &AuditOptions::default(),
        )
        .unwrap()
    }

    fn planned(r: &crate::Report) -> Vec<PlannedCheck> {
        r.runtime_checks.iter().map(PlannedCheck::from).collect()
    }

    /// The plan read back from the export is the report's.
    #[test]
    fn the_plan_reads_back_from_the_export() {
        let r = report();
        let (fp, plan) = plan_from_export(crate::render::json::render(&r).as_bytes()).unwrap();
        assert_eq!(fp, r.profile.fingerprint);
        let ids: Vec<_> = plan.iter().map(|c| (&c.id, c.expect)).collect();
        let want: Vec<_> = r.runtime_checks.iter().map(|c| (&c.id, c.expect)).collect();
        assert_eq!(ids, want);
    }

    #[test]
    fn a_host_kernel_disagrees_with_a_claimed_kernel_of_its_own() {
        use super::judge;
        assert_eq!(
            judge(Expect::SeparateKernel, Observed::SeparateKernel).0,
            Status::Agrees
        );
        assert_eq!(
            judge(Expect::SeparateKernel, Observed::HostKernel).0,
            Status::Disagrees
        );
        assert_eq!(
            judge(Expect::SeparateKernel, Observed::NeedsLauncher).0,
            Status::NotObservable
        );
    }

    fn honest(expect: Expect) -> Observed {
        match expect {
            Expect::Denied => Observed::Denied,
            Expect::Allowed => Observed::Allowed,
            Expect::Enforced => Observed::Enforced,
            Expect::NoSurvivors => Observed::NoSurvivors,
            Expect::Exact => Observed::Exact,
            Expect::ResolvesToDeclaredSource => Observed::Resolves,
            Expect::RejectedAfterJob => Observed::Rejected,
            Expect::Destroyed => Observed::Destroyed,
            Expect::SeparateKernel => Observed::SeparateKernel,
            Expect::Filtered => Observed::Filtered,
            Expect::WithinDeclared => Observed::WithinDeclared,
            Expect::Private => Observed::Private,
            Expect::Standard => Observed::Standard,
            Expect::Confined => Observed::Confined,
        }
    }

    fn observations(r: &crate::Report, f: impl Fn(&RuntimeCheck) -> Observed) -> Observations {
        Observations {
            schema: OBSERVATIONS_SCHEMA.into(),
            plan_fingerprint: r.profile.fingerprint.clone(),
            runner: "test".into(),
            observations: r
                .runtime_checks
                .iter()
                .map(|c| Observation {
                    id: c.id.clone(),
                    kind: c.kind.as_str().into(),
                    action: "test".into(),
                    observed: f(c).as_str().into(),
                    errno: None,
                    detail: None,
                    elapsed_us: 1,
                })
                .collect(),
        }
    }

    /// A plan read back from the export and the report's own give the
    /// same rows, targets included.
    #[test]
    fn the_report_and_its_export_join_to_the_same_rows() {
        let r = report();
        let o = observations(&r, |c| honest(c.expect));
        let (fp, plan) = plan_from_export(crate::render::json::render(&r).as_bytes()).unwrap();
        let from_export = reconcile(&plan, &fp, &o);
        let joined = join_report(&r, &o);
        assert_eq!(joined, from_export);
        assert!(joined.checks.iter().any(|c| c.target == "/scratch"));
        assert!(joined
            .checks
            .iter()
            .any(|c| c.target == "memory_bytes=536870912"));
    }

    #[test]
    fn honest_observations_agree_and_round_trip() {
        let r = report();
        let o = observations(&r, |c| honest(c.expect));
        let text = serde_json::to_string(&o).unwrap();
        assert_eq!(parse(text.as_bytes()).unwrap(), o);
        let rec = reconcile(&planned(&r), &r.profile.fingerprint, &o);
        assert!(rec.passes());
        assert_eq!(rec.count(Status::Agrees), r.runtime_checks.len());
    }

    /// Every check, observed otherwise than expected (each other answer),
    /// disagrees or is explicitly not observable; never agrees.
    #[test]
    fn every_deviation_is_reported() {
        let r = report();
        for c in &r.runtime_checks {
            for wrong in Observed::VALUES.iter().filter_map(|v| Observed::parse(v)) {
                if wrong == honest(c.expect) {
                    continue;
                }
                let o = observations(&r, |x| {
                    if x.id == c.id {
                        wrong
                    } else {
                        honest(x.expect)
                    }
                });
                let rec = reconcile(&planned(&r), &r.profile.fingerprint, &o);
                let got = rec.checks.iter().find(|x| x.id == c.id).unwrap();
                assert_ne!(got.status, Status::Agrees, "{c:?} {wrong}");
                let explained = matches!(wrong, Observed::NeedsLauncher | Observed::Error)
                    || (wrong == Observed::Absent && c.expect == Expect::Denied);
                if explained {
                    assert_eq!(got.status, Status::NotObservable);
                    assert!(!got.reason.is_empty());
                } else {
                    assert_eq!(got.status, Status::Disagrees, "{c:?} {wrong}");
                    assert!(!rec.passes());
                }
            }
        }
    }

    #[test]
    fn a_changed_profile_makes_every_check_stale() {
        let r = report();
        let mut o = observations(&r, |c| honest(c.expect));
        o.plan_fingerprint = "0".repeat(64);
        let rec = reconcile(&planned(&r), &r.profile.fingerprint, &o);
        assert_eq!(rec.count(Status::Stale), r.runtime_checks.len());
        assert!(!rec.passes());
    }

    /// The reader before core's JSON tree took over: serde's derive.
    fn serde_reference(bytes: &[u8]) -> Option<Observations> {
        let o: Observations = serde_json::from_slice(bytes).ok()?;
        let known = o
            .observations
            .iter()
            .all(|ob| Observed::parse(&ob.observed).is_some());
        (o.schema == OBSERVATIONS_SCHEMA && known).then_some(o)
    }

    /// Every field of both objects, absent, repeated, unknown or replaced
    /// by each JSON type (and the numbers `u64` refuses), reads as serde's
    /// derive reads it: the same value, or an error with a position.
    #[test]
    fn reads_like_serde() {
        use serde_json::{json, Value};
        let base = json!({
            "schema": OBSERVATIONS_SCHEMA,
            "plan_fingerprint": "ab12",
            "runner": "bwrap 0.8.0",
            "observations": [
                {"id": "rc-1", "kind": "path-read", "action": "open O_RDONLY", "observed": "denied",
                 "errno": "EACCES", "detail": "x", "elapsed_us": 12},
                {"id": "rc-2", "kind": "env-exact", "action": "environ", "observed": "exact", "elapsed_us": 0}
            ]
        });
        let replacements = [
            json!(null),
            json!("s"),
            json!(""),
            json!("denied"),
            json!(OBSERVATIONS_SCHEMA),
            json!(0),
            json!(7),
            json!(-1),
            json!(1.5),
            json!(true),
            json!([]),
            json!([{}]),
            json!({}),
        ];
        let mut docs: Vec<String> = vec![base.to_string()];
        let mut variants = |doc: &Value, path: &[&str], obj: &serde_json::Map<String, Value>| {
            let at = |mut v: Value, f: &dyn Fn(&mut serde_json::Map<String, Value>)| {
                let mut o = &mut v;
                for p in path {
                    o = match p.parse::<usize>() {
                        Ok(i) => &mut o[i],
                        Err(_) => &mut o[*p],
                    };
                }
                f(o.as_object_mut().unwrap());
                v.to_string()
            };
            let mut keys: Vec<String> = obj.keys().cloned().collect();
            keys.push("errno".into());
            for key in keys {
                docs.push(at(doc.clone(), &|o| {
                    o.remove(&key);
                }));
                for r in &replacements {
                    docs.push(at(doc.clone(), &|o| {
                        o.insert(key.clone(), r.clone());
                    }));
                }
            }
            docs.push(at(doc.clone(), &|o| {
                o.insert("extra".into(), json!(1));
            }));
        };
        let obs = base["observations"][0].as_object().unwrap().clone();
        variants(&base, &[], base.as_object().unwrap());
        variants(&base, &["observations", "0"], &obs);
        // Repeated fields, elapsed_us at and past u64, exponents, other roots.
        let text = base.to_string();
        docs.push(text.replacen("\"runner\"", "\"runner\":\"a\",\"runner\"", 1));
        docs.push(text.replacen("\"id\"", "\"id\":\"a\",\"id\"", 1));
        docs.push(text.replacen("\"detail\"", "\"detail\":null,\"detail\"", 1));
        for n in [
            "18446744073709551615",
            "18446744073709551616",
            "1e3",
            "1.0",
            "-0",
            "0",
        ] {
            docs.push(text.replacen("\"elapsed_us\":12", &format!("\"elapsed_us\":{n}"), 1));
        }
        for other in ["[]", "null", "1", "\"x\"", "{}", "[{}]"] {
            docs.push(other.to_string());
        }
        // Pretty-printed too, so that the line of each refusal is checked.
        let pretty: Vec<String> = docs
            .iter()
            .filter_map(|d| serde_json::from_str::<Value>(d).ok())
            .map(|v| serde_json::to_string_pretty(&v).unwrap())
            .collect();
        docs.extend(pretty);
        let mut ok = 0;
        for d in &docs {
            let ours = parse(d.as_bytes());
            assert_eq!(ours.clone().ok(), serde_reference(d.as_bytes()), "{d}");
            // serde also reads a struct from an array of its fields; the
            // reader refuses that form, so lines compare for objects only.
            let objects = serde_json::from_str::<Value>(d).is_ok_and(|v| {
                v.is_object()
                    && v["observations"]
                        .as_array()
                        .is_none_or(|a| a.iter().all(Value::is_object))
            });
            if let (Err(e), Err(theirs)) = (&ours, serde_json::from_str::<Observations>(d)) {
                if objects && e.0.starts_with("line ") {
                    let line = format!("line {}, ", theirs.line());
                    assert!(e.0.starts_with(&line), "{d}\nours: {e}\nserde: {theirs}");
                }
            }
            match ours {
                Ok(_) => ok += 1,
                Err(e) => assert!(
                    e.0.starts_with("line ")
                        || e.0.starts_with("schema is")
                        || e.0.contains("unknown observed"),
                    "{d}: {e}"
                ),
            }
        }
        assert!(ok >= 5 && docs.len() - ok >= 100, "{ok} of {}", docs.len());
    }

    #[test]
    fn bad_documents_are_refused_with_a_position() {
        let e = parse(b"{\"schema\": \"isolint.observations/v1\", \"x\": 1}").unwrap_err();
        assert!(e.0.contains("line 1"), "{e}");
        let e = parse(br#"{"schema": "isolint.observations/v1", "plan_fingerprint": "", "runner": "", "observations": [{"id": "rc-1", "kind": "k", "action": "a", "observed": "fine", "elapsed_us": 0}]}"#).unwrap_err();
        assert!(e.0.contains("unknown observed value"), "{e}");
    }
}
