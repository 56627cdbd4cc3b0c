//! What `isolint verify` builds from a profile, and what `isolint probe`
//! reads from a plan, decided on the text alone (no I/O): the binary checks
//! the file system afterwards. Everything here comes from a document the
//! tool treats as hostile, so every string that reaches bubblewrap is
//! refused rather than repaired when it could mean two things: a NUL would
//! split one argument into several, `.` and `..` resolve on disk through
//! links the audit never saw, and a variable name with `=` is not a name.

// Indexing a `serde_json::Value` by a key never panics: a missing key or
// a value of another type reads as `null`.
#![allow(clippy::indexing_slicing)]

use serde_json::Value;

/// Where the launcher's own directory (the probe binary, the plan)
/// appears inside a worker. No mount may cover it, sit inside it, or hold
/// it (bwrap would create it in that mount's host source).
pub const INSIDE: &str = "/run/isolint";

/// One declared mount, as the worker gets it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mount {
    /// Absolute, in normal form: no `.`, `..`, empty component or
    /// trailing `/`.
    pub source: String,
    /// Absolute, in normal form, not `/`.
    pub target: String,
    pub writable: bool,
    /// Paths strictly inside `target`, in normal form, where the profile
    /// says something else is mounted (`excludes`): the launcher puts an
    /// empty tmpfs there, after the bind, unless a later mount covers it.
    pub excludes: Vec<String>,
}

/// The kernel limits the launcher sets (rlimits) or observes from outside.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    pub memory: Option<u64>,
    pub processes: Option<u64>,
    pub cpu: Option<u64>,
    pub wall: Option<u64>,
    pub output: Option<u64>,
}

/// What the launcher builds: the profile's mounts, network, environment,
/// user and limits.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LaunchSpec {
    pub mounts: Vec<Mount>,
    pub share_network: bool,
    /// The job also gets the launcher's environment (set inside the
    /// worker, never on the host-side bwrap process).
    pub inherit_env: bool,
    /// Declared variables: names without `=` or NUL, values without NUL.
    pub variables: Vec<(String, String)>,
    pub ids: Option<(u32, u32)>,
    pub limits: Limits,
}

/// `path` as absolute components, or why it cannot be launched. `what`
/// names the field for the message; the path itself is not repeated
/// (the caller knows the pointer).
fn components<'a>(path: &'a str, what: &str) -> Result<Vec<&'a str>, String> {
    if path.contains('\0') {
        return Err(format!("{what} contains a NUL character"));
    }
    let Some(rest) = path.strip_prefix('/') else {
        return Err(format!("{what} must be absolute"));
    };
    let mut out = Vec::new();
    for c in rest.split('/') {
        match c {
            // `//` and a trailing `/` mean nothing on Linux.
            "" => {}
            "." | ".." => {
                return Err(format!(
                    "{what} contains `{c}`: it would resolve on disk, through links the audit never saw; write the path it means"
                ))
            }
            c => out.push(c),
        }
    }
    Ok(out)
}

fn join(components: &[&str]) -> String {
    let mut s = String::with_capacity(components.iter().map(|c| c.len() + 1).sum());
    for c in components {
        s.push('/');
        s.push_str(c);
    }
    if s.is_empty() {
        s.push('/');
    }
    s
}

/// Whether `inner` is `outer` or lies under it, component by component.
pub fn covers(outer: &str, inner: &str) -> bool {
    outer == "/"
        || inner == outer
        || inner
            .strip_prefix(outer)
            .is_some_and(|rest| rest.starts_with('/'))
}

/// Read the launch spec from the profile document the plan was derived
/// from; what the launcher cannot build exactly is an error naming the
/// field, never ignored. Variable values are never repeated in a message.
pub fn spec(profile: &Value) -> Result<LaunchSpec, String> {
    let mut mounts = Vec::new();
    let declared = match &profile["mounts"] {
        Value::Null => &[][..],
        Value::Array(a) => a.as_slice(),
        _ => return Err("/mounts: not a list".into()),
    };
    for (i, m) in declared.iter().enumerate() {
        let (Some(source), Some(target)) = (m["source"].as_str(), m["target"].as_str()) else {
            return Err(format!("/mounts/{i}: a mount needs a source and a target"));
        };
        let at = |e: String| format!("/mounts/{i}: {e}");
        let source = join(&components(source, "source").map_err(at)?);
        let target = join(&components(target, "target").map_err(at)?);
        if target == "/" {
            return Err(format!(
                "/mounts/{i}: target / would replace the worker's whole root"
            ));
        }
        if covers(INSIDE, &target) || covers(&target, INSIDE) {
            return Err(format!(
                "/mounts/{i}: target {target} is where the launcher puts the probe ({INSIDE})"
            ));
        }
        // Undeclared access gets what most runtimes give: read-write.
        let writable = m["access"].as_str() != Some("read-only");
        let excludes = match &m["excludes"] {
            Value::Null => Vec::new(),
            Value::Array(a) => a
                .iter()
                .enumerate()
                .map(|(k, e)| {
                    let at = |e: String| format!("/mounts/{i}/excludes/{k}: {e}");
                    let e = e.as_str().ok_or_else(|| at("not a string".into()))?;
                    let e = join(&components(e, "the path").map_err(at)?);
                    if e == target || !covers(&target, &e) {
                        return Err(at(format!("{e} is not inside the target {target}")));
                    }
                    Ok(e)
                })
                .collect::<Result<_, _>>()?,
            _ => return Err(format!("/mounts/{i}/excludes: not a list")),
        };
        mounts.push(Mount {
            source,
            target,
            writable,
            excludes,
        });
    }
    let share_network = match profile["network"]["egress"].as_str() {
        Some("deny") => false,
        Some("allow-list") => {
            return Err(
                "/network/egress: bubblewrap cannot enforce an allow list; launch the job \
with your own sandbox and run `isolint probe` inside it (README: your own launcher)"
                    .into(),
            )
        }
        // allow-all, or undeclared: what a runner defaults to, shared.
        _ => true,
    };
    let env = &profile["environment"];
    let inherit_env = env["inherit"].as_bool() != Some(false);
    let mut variables = Vec::new();
    match &env["variables"] {
        Value::Null => {}
        Value::Object(o) => {
            for (k, v) in o {
                let at = format!("/environment/variables/{}", crate::json::escape_token(k));
                let Some(v) = v.as_str() else {
                    return Err(format!("{at}: the value is not a string"));
                };
                check_variable(k.as_bytes(), v.as_bytes()).map_err(|e| format!("{at}: {e}"))?;
                variables.push((k.clone(), v.to_string()));
            }
        }
        _ => return Err("/environment/variables: not an object".into()),
    }
    let ids = profile["boundary"]["user"].as_str().and_then(|u| {
        let (uid, gid) = u.split_once(':').unwrap_or((u, u));
        Some((uid.parse().ok()?, gid.parse().ok()?))
    });
    let l = &profile["limits"];
    let limits = Limits {
        memory: l["memory_bytes"].as_u64(),
        processes: l["processes"].as_u64(),
        cpu: l["cpu_seconds"].as_u64(),
        wall: l["wall_seconds"].as_u64(),
        output: l["output_bytes"].as_u64(),
    };
    Ok(LaunchSpec {
        mounts,
        share_network,
        inherit_env,
        variables,
        ids,
        limits,
    })
}

/// Whether a variable can be set exactly, as bytes: a name without `=`
/// or NUL, a value without NUL. The value is never quoted in the answer.
pub fn check_variable(name: &[u8], value: &[u8]) -> Result<(), String> {
    if name.is_empty() {
        return Err("an empty variable name".into());
    }
    if name.contains(&b'=') {
        return Err("a variable name containing `=`".into());
    }
    if name.contains(&0) || value.contains(&0) {
        return Err("a NUL character, which would end the variable early".into());
    }
    Ok(())
}

/// bubblewrap's `--args` payload that gives the job exactly `variables`
/// (in order, a later one replacing an earlier one of the same name):
/// `--clearenv`, then `--setenv NAME VALUE` for each, NUL-separated. It
/// is read by bwrap from a descriptor, so values never appear on a
/// command line, and bwrap applies it to the job's environment only.
/// Refuses (naming the variable) what cannot be set exactly.
pub fn env_args<'a, I>(variables: I) -> Result<Vec<u8>, String>
where
    I: IntoIterator<Item = (&'a [u8], &'a [u8])>,
{
    let mut out = b"--clearenv\0".to_vec();
    for (name, value) in variables {
        check_variable(name, value).map_err(|e| {
            format!(
                "variable {}: {e}",
                crate::sanitize::neutralize(&String::from_utf8_lossy(name))
            )
        })?;
        out.extend_from_slice(b"--setenv\0");
        out.extend_from_slice(name);
        out.push(0);
        out.extend_from_slice(value);
        out.push(0);
    }
    Ok(out)
}

/// One runtime check of a plan, as the probe performs it.
#[derive(Debug, Clone, PartialEq)]
pub struct ProbeCheck<'a> {
    pub id: &'a str,
    pub kind: &'a str,
    /// The check's target, read by the action for its kind.
    pub target: &'a Value,
}

/// What the probe reads from an `isolint.findings/v2` document.
#[derive(Debug, Clone, PartialEq)]
pub struct ProbePlan<'a> {
    pub fingerprint: &'a str,
    pub checks: Vec<ProbeCheck<'a>>,
}

/// Read the plan the probe performs; a document it cannot read whole is
/// an error, never a partial run.
pub fn probe_plan(doc: &Value) -> Result<ProbePlan<'_>, String> {
    if doc["schema"].as_str() != Some("isolint.findings/v2") {
        return Err("not one isolint.findings/v2 document".into());
    }
    let fingerprint = doc["profile"]["fingerprint"]
        .as_str()
        .ok_or("profile.fingerprint is missing")?;
    let checks = doc["runtime_checks"]
        .as_array()
        .ok_or("runtime_checks is missing")?;
    let mut out = Vec::with_capacity(checks.len());
    for (i, c) in checks.iter().enumerate() {
        let id = c["id"]
            .as_str()
            .ok_or_else(|| format!("runtime_checks/{i}: a runtime check has no id"))?;
        let kind = c["kind"].as_str().ok_or_else(|| {
            format!(
                "runtime_checks/{i} ({}): no kind",
                crate::sanitize::neutralize(id)
            )
        })?;
        out.push(ProbeCheck {
            id,
            kind,
            target: &c["target"],
        });
    }
    Ok(ProbePlan {
        fingerprint,
        checks: out,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn profile(extra: Value) -> Value {
        let mut p = json!({
            "name": "p",
            "mounts": [{"source": "/usr", "target": "/workspace", "access": "read-only"},
                       {"source": "/tmp//x/", "target": "/scratch/"}],
            "network": {"egress": "deny"},
            "environment": {"inherit": false, "variables": {"LANG": "C.UTF-8"}},
            "boundary": {"user": "1000:1001"},
            "limits": {"memory_bytes": 1024, "processes": 8}
        });
        if let (Some(p), Some(e)) = (p.as_object_mut(), extra.as_object()) {
            p.extend(e.clone());
        }
        p
    }

    #[test]
    fn the_spec_follows_the_profile() {
        let s = spec(&profile(json!({}))).unwrap();
        assert_eq!(s.mounts.len(), 2);
        assert!(!s.mounts[0].writable, "read-only stays read-only");
        assert!(s.mounts[1].writable, "undeclared access: writable");
        assert_eq!(s.mounts[1].source, "/tmp/x");
        assert_eq!(s.mounts[1].target, "/scratch");
        assert!(!s.share_network && !s.inherit_env);
        assert_eq!(s.variables, [("LANG".to_string(), "C.UTF-8".to_string())]);
        assert_eq!(s.ids, Some((1000, 1001)));
        assert_eq!(
            (s.limits.memory, s.limits.processes, s.limits.cpu),
            (Some(1024), Some(8), None)
        );
        let s = spec(&profile(json!({"network": {}}))).unwrap();
        assert!(s.share_network, "undeclared egress is shared");
    }

    /// Each row: a profile fragment the launcher cannot build exactly, and
    /// what the message names. A secret value is never repeated.
    #[test]
    fn what_cannot_be_launched_exactly_is_refused_naming_the_field() {
        let rows = [
            (
                json!({"network": {"egress": "allow-list"}}),
                "/network/egress",
            ),
            (
                json!({"mounts": [{"source": "usr", "target": "/w"}]}),
                "absolute",
            ),
            (
                json!({"mounts": [{"source": "/usr", "target": "w"}]}),
                "absolute",
            ),
            (
                json!({"mounts": [{"source": "/a/../etc", "target": "/w"}]}),
                "`..`",
            ),
            (
                json!({"mounts": [{"source": "/a/./b", "target": "/w"}]}),
                "`.`",
            ),
            (
                json!({"mounts": [{"source": "/usr", "target": "/../oldroot/x"}]}),
                "`..`",
            ),
            (
                json!({"mounts": [{"source": "/u\u{0}sr", "target": "/w"}]}),
                "NUL",
            ),
            (
                json!({"mounts": [{"source": "/usr", "target": "/run/isolint/x"}]}),
                "probe",
            ),
            (
                json!({"mounts": [{"source": "/usr", "target": "/run"}]}),
                "probe",
            ),
            (
                json!({"mounts": [{"source": "/usr", "target": "/run/isolint"}]}),
                "probe",
            ),
            (
                json!({"mounts": [{"source": "/usr", "target": "//"}]}),
                "whole root",
            ),
            (
                json!({"mounts": [{"source": "/usr", "target": "/w", "excludes": ["/x"]}]}),
                "/mounts/0/excludes/0",
            ),
            (
                json!({"mounts": [{"source": "/usr", "target": "/w", "excludes": ["/w"]}]}),
                "/mounts/0/excludes/0",
            ),
            (
                json!({"mounts": [{"source": "/usr", "target": "/w", "excludes": ["/w/a", "w/b"]}]}),
                "/mounts/0/excludes/1",
            ),
            (
                json!({"mounts": [{"source": "/usr", "target": "/w", "excludes": ["/w/a/../b"]}]}),
                "/mounts/0/excludes/0",
            ),
            (
                json!({"mounts": [{"source": "/usr", "target": "/w", "excludes": [3]}]}),
                "/mounts/0/excludes/0",
            ),
            (
                json!({"mounts": [{"source": "/usr", "target": "/w", "excludes": "/w/a"}]}),
                "/mounts/0/excludes",
            ),
            (
                json!({"mounts": [{"source": "/usr", "target": "/w", "excludes": ["/wa"]}]}),
                "/mounts/0/excludes/0",
            ),
            (json!({"mounts": [{"target": "/w"}]}), "/mounts/0"),
            (json!({"mounts": {"source": "/usr"}}), "/mounts"),
            (json!({"environment": {"variables": {"A=B": "x"}}}), "`=`"),
            (json!({"environment": {"variables": {"": "x"}}}), "empty"),
            (
                json!({"environment": {"variables": {"K": "s3cr3t\u{0}--bind"}}}),
                "NUL",
            ),
            (
                json!({"environment": {"variables": {"K": 5}}}),
                "not a string",
            ),
            (
                json!({"environment": {"variables": ["K"]}}),
                "not an object",
            ),
        ];
        for (extra, want) in rows {
            let e = spec(&profile(extra.clone())).unwrap_err();
            assert!(e.contains(want), "{extra}: {e}");
            assert!(!e.contains("s3cr3t"), "{e}");
        }
        // Beside the launcher's directory, /run's other children are fine.
        let ok = json!({"mounts": [{"source": "/usr", "target": "/run/postgresql"}]});
        assert!(spec(&profile(ok)).is_ok());
    }

    #[test]
    fn the_env_payload_splits_back_into_exactly_what_was_declared() {
        let vars: [(&[u8], &[u8]); 3] = [(b"A", b"1"), (b"PATH", b"--bind / /"), (b"E", b"")];
        let p = env_args(vars).unwrap();
        let fields: Vec<&[u8]> = p.split(|b| *b == 0).collect();
        assert_eq!(
            fields,
            [
                &b"--clearenv"[..],
                b"--setenv",
                b"A",
                b"1",
                b"--setenv",
                b"PATH",
                b"--bind / /",
                b"--setenv",
                b"E",
                b"",
                b""
            ]
        );
        let bad: [(&[u8], &[u8]); 1] = [(b"K", b"x\0--bind")];
        assert!(env_args(bad).is_err());
    }

    #[test]
    fn covers_is_by_component() {
        assert!(covers("/run", "/run/isolint"));
        assert!(covers("/run", "/run"));
        assert!(!covers("/run", "/running"));
        assert!(covers("/", "/x"));
    }

    #[test]
    fn a_plan_is_read_whole_or_refused() {
        let doc = json!({"schema": "isolint.findings/v2", "profile": {"fingerprint": "f"},
            "runtime_checks": [{"id": "a", "kind": "read-denied", "target": {"path": "/x"}}]});
        let p = probe_plan(&doc).unwrap();
        assert_eq!(p.fingerprint, "f");
        assert_eq!(p.checks.len(), 1);
        assert_eq!(p.checks[0].target["path"], "/x");
        for bad in [
            json!({}),
            json!({"schema": "isolint.findings/v2"}),
            json!({"schema": "isolint.findings/v2", "profile": {"fingerprint": "f"}}),
            json!({"schema": "isolint.findings/v2", "profile": {"fingerprint": "f"},
                "runtime_checks": [{"kind": "read-denied"}]}),
            json!({"schema": "isolint.findings/v2", "profile": {"fingerprint": "f"},
                "runtime_checks": [{"id": "a"}]}),
        ] {
            assert!(probe_plan(&bad).is_err(), "{bad}");
        }
    }
}
