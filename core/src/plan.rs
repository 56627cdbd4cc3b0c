//! The runtime verifier's plan: harmless checks against the launched
//! environment that confirm (or refute) what the profile declares. Derived
//! for every profile, clean or not, because a static comparison proves
//! nothing about enforcement.

use crate::finding::CheckKind;
use crate::labels::{contains, Origin};
use crate::model::{Egress, LimitEnforcement, StringEnum};
use crate::report::RuntimeCheck;
use crate::rules::Ctx;
use crate::text::{cat, Num};

/// The cloud metadata address every job is tested against.
pub const METADATA_ENDPOINT: &str = "169.254.169.254:80";

fn check(
    kind: CheckKind,
    target: impl Into<String>,
    expect: &'static str,
    because: impl Into<String>,
) -> RuntimeCheck {
    RuntimeCheck {
        id: String::new(),
        kind,
        target: target.into(),
        expect,
        because: because.into(),
    }
}

/// Map a host path inside a mount to where the job sees it.
fn in_job(source: &str, target: &str, host_path: &str) -> String {
    let rest = host_path.strip_prefix(source).unwrap_or("");
    let t = target.trim_end_matches('/');
    if rest.is_empty() {
        if t.is_empty() {
            "/".into()
        } else {
            t.into()
        }
    } else {
        cat!(t, rest)
    }
}

/// Derive the plan. Order: reads, writes, links, egress, limits, timeout,
/// environment, credentials, cleanup; within a group, profile order.
pub fn derive(ctx: &Ctx<'_>) -> Vec<RuntimeCheck> {
    // Room for what a mount (a write, a link, sometimes a read) and a
    // catalog label usually add, so that a large plan is not copied as it
    // grows (23,000 checks for 10,000 mounts).
    let mut out = Vec::with_capacity(3 * ctx.mounts.len() + ctx.index.catalog().labels.len() + 16);
    let mut seen_read = std::collections::BTreeSet::new();

    // 1. Reads of sensitive paths a mount reaches, at the path the job sees.
    for v in ctx.mounts {
        let (Some(c), Some(target)) = (&v.class, v.mount.target.as_deref()) else {
            continue;
        };
        let src = c.normalized.path.as_str();
        if let Some(m) = &c.matched {
            if m.class.sensitive_to_read() {
                let t = in_job(src, target, src);
                if seen_read.insert(t.clone()) {
                    out.push(check(
                        CheckKind::ReadDenied,
                        t,
                        "denied",
                        cat!(
                            v.pointer(),
                            " is mounted from ",
                            src,
                            " (",
                            m.class.as_str(),
                            "); reading it, not only writing it, must fail"
                        ),
                    ));
                }
            }
        }
        for e in &c.exposes {
            if e.class.sensitive_to_read() {
                let t = in_job(src, target, &e.path);
                if seen_read.insert(t.clone()) {
                    out.push(check(
                        CheckKind::ReadDenied,
                        t,
                        "denied",
                        cat!(
                            v.pointer(),
                            " exposes ",
                            e.path,
                            " (",
                            e.class.as_str(),
                            ") from above; a read attempt must be refused"
                        ),
                    ));
                }
            }
        }
    }
    // 2. Every sensitive catalog label, at its host path: it must not be
    //    reachable from the job by any mount the profile did not declare.
    for l in &ctx.index.catalog().labels {
        if l.class.sensitive_to_read() && seen_read.insert(l.path.clone()) {
            out.push(check(
                CheckKind::ReadDenied,
                l.path.clone(),
                "denied",
                cat!(
                    "catalog label ",
                    l.path,
                    " (",
                    l.class.as_str(),
                    ") must not be readable from inside the job"
                ),
            ));
        }
    }

    // 3. Writes: allowed only in scratch/output, denied elsewhere.
    let mut write_targets = Vec::new();
    for v in ctx.mounts {
        let Some(target) = v.mount.target.as_deref() else {
            continue;
        };
        let class = v
            .class
            .as_ref()
            .and_then(|c| c.matched.as_ref())
            .map(|m| m.class);
        if v.writable() && class.is_some_and(|c| c.writable_by_design()) {
            out.push(check(
                CheckKind::WriteAllowed,
                target,
                "allowed",
                cat!(
                    v.pointer(),
                    " is declared as writable ",
                    class.map(|c| c.as_str()).unwrap_or("scratch"),
                    "; the job's output must land there"
                ),
            ));
            write_targets.push(target.to_string());
        } else {
            out.push(check(
                CheckKind::WriteDenied,
                target,
                "denied",
                cat!(
                    v.pointer(),
                    " is not scratch or output; writing under it must fail"
                ),
            ));
        }
    }
    let outside = ["/", "/etc", "/usr"];
    for t in outside {
        if !write_targets.iter().any(|w| contains(w, t)) {
            out.push(check(
                CheckKind::WriteDenied,
                t,
                "denied",
                "writing outside the declared scratch and output mounts must fail",
            ));
        }
    }
    for l in &ctx.index.catalog().labels {
        if l.class == crate::labels::LabelClass::TrustedConfig {
            out.push(check(
                CheckKind::WriteDenied,
                l.path.clone(),
                "denied",
                cat!(
                    "trusted configuration ",
                    l.path,
                    " must never be writable by the job"
                ),
            ));
        }
    }

    // 4. Links and races: every mount target must resolve where declared.
    for v in ctx.mounts {
        let (Some(src), Some(target)) = (v.mount.source.as_deref(), v.mount.target.as_deref())
        else {
            continue;
        };
        let origin = v
            .class
            .as_ref()
            .and_then(|c| c.matched.as_ref())
            .map(|m| matches!(m.origin, Origin::Catalog(_)));
        out.push(check(
            CheckKind::LinkResolution,
            target,
            "resolves-to-declared-source",
            cat!(
                v.pointer(),
                " was matched lexically",
                if origin == Some(true) {
                    " against a catalog label"
                } else {
                    ""
                },
                "; the runtime must open ",
                src,
                " without following links or racing a rename"
            ),
        ));
    }

    // 5. Egress.
    out.push(check(
        CheckKind::EgressDenied,
        METADATA_ENDPOINT,
        "denied",
        "the cloud metadata endpoint hands out instance credentials",
    ));
    let net = ctx.profile.network.as_ref();
    let egress = net.and_then(|n| n.egress);
    match egress {
        Some(Egress::AllowAll) => {}
        _ => {
            out.push(check(
                CheckKind::EgressDenied,
                "example.com:443",
                "denied",
                "a destination outside the allow list must be unreachable at the network layer",
            ));
            out.push(check(
                CheckKind::EgressDenied,
                "10.0.0.1:22",
                "denied",
                "private addresses must be unreachable unless listed",
            ));
        }
    }
    if egress == Some(Egress::AllowList) {
        for (i, a) in net
            .and_then(|n| n.allow.as_deref())
            .unwrap_or(&[])
            .iter()
            .enumerate()
        {
            if let Some(h) = &a.host {
                let port = a.port.map(|p| format!(":{p}")).unwrap_or_default();
                out.push(check(CheckKind::EgressAllowed, format!("{h}{port}"), "allowed", format!(
                    "/network/allow/{i} is declared; it must be reachable, and only by its declared protocol")));
            }
        }
    }

    // 6. Limits.
    let limits = ctx.profile.limits.as_ref();
    let enforced = limits.and_then(|l| l.enforced_by);
    let how = match enforced {
        Some(LimitEnforcement::Request) | Some(LimitEnforcement::None) | None => {
            "nothing is declared to enforce it"
        }
        Some(_) => "the declared enforcer must stop a program that ignores it",
    };
    let limit_fields: [(&str, Option<u64>); 5] = [
        ("memory_bytes", limits.and_then(|l| l.memory_bytes)),
        ("processes", limits.and_then(|l| l.processes)),
        ("output_bytes", limits.and_then(|l| l.output_bytes)),
        ("cpu_seconds", limits.and_then(|l| l.cpu_seconds)),
        ("wall_seconds", limits.and_then(|l| l.wall_seconds)),
    ];
    for (name, value) in limit_fields {
        let target = match value {
            Some(v) => cat!(name, "=", Num::new(v)),
            None => cat!(name, "=undeclared"),
        };
        out.push(check(
            CheckKind::LimitEnforced,
            target,
            "enforced",
            cat!("exceed ", name, " with a small probe; ", how),
        ));
    }
    if let Some(c) = &ctx.profile.concurrency {
        if let Some(m) = c.max_jobs {
            out.push(check(
                CheckKind::LimitEnforced,
                format!("max_jobs={m}"),
                "enforced",
                "start one job over the cap; it must wait or be refused",
            ));
        }
    }

    // 7. Timeout kills the whole tree.
    out.push(check(CheckKind::TimeoutKillsTree, "wall_seconds", "no-survivors", "start a grandchild that ignores SIGTERM; after the timeout no process of the job may remain"));

    // 8. Environment exactly as declared.
    let names: Vec<&str> = ctx
        .profile
        .environment
        .as_ref()
        .and_then(|e| e.variables.as_deref())
        .unwrap_or(&[])
        .iter()
        .map(|(k, _)| k.as_str())
        .collect();
    out.push(check(CheckKind::EnvExact, if names.is_empty() { "(empty)".to_string() } else { names.join(",") }, "exact",
        "the job's environment must hold only the declared variables, nothing inherited from the launcher"));

    // 9. Credentials expire; 10. the worker is destroyed.
    for (i, c) in ctx.profile.credentials().iter().enumerate() {
        let name = c.name.clone().unwrap_or_else(|| format!("credentials/{i}"));
        out.push(check(
            CheckKind::CredentialExpired,
            name,
            "rejected-after-job",
            format!("/credentials/{i} must be unusable once the job ends"),
        ));
    }
    out.push(check(CheckKind::WorkerDestroyed, "worker", "destroyed", "after results are collected the worker must be gone, with nothing kept but the declared metadata"));
    out
}
