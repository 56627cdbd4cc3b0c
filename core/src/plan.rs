//! The runtime verifier's plan: harmless checks against the launched
//! environment that confirm (or refute) what the profile declares. Derived
//! for every profile, clean or not, because a static comparison proves
//! nothing about enforcement.
//!
//! The plan is a contract a verifier consumes (`isolint probe`, or a
//! team's own): every check has a typed [`Target`], an [`Expect`] from a
//! closed set, an id derived from what it checks (not from its position, so
//! it survives unrelated edits of the profile) and the findings that ask
//! for it. To add a check for a new rule, push one more `check` in
//! `derive` with the pointer it derives from: the id and the findings
//! that motivate it follow by themselves.

use crate::finding::CheckKind;
use crate::labels::{contains, Origin};
use crate::model::{string_enum, Egress, LimitEnforcement, StringEnum};
use crate::rules::Ctx;

/// The cloud metadata address every job is tested against.
pub const METADATA_HOST: &str = "169.254.169.254";
pub const METADATA_PORT: u64 = 80;

string_enum!(
    /// What the verifier must observe for a check to agree.
    Expect {
        Denied = "denied",
        Allowed = "allowed",
        Enforced = "enforced",
        NoSurvivors = "no-survivors",
        Exact = "exact",
        ResolvesToDeclaredSource = "resolves-to-declared-source",
        RejectedAfterJob = "rejected-after-job",
        Destroyed = "destroyed",
        SeparateKernel = "separate-kernel",
        Filtered = "filtered",
        WithinDeclared = "within-declared",
        Private = "private",
        Standard = "standard",
        Confined = "confined",
    }
);

string_enum!(
    /// The limits a `limit-enforced` (or `timeout-kills-tree`) check names.
    LimitName {
        MemoryBytes = "memory_bytes",
        Processes = "processes",
        OutputBytes = "output_bytes",
        CpuSeconds = "cpu_seconds",
        WallSeconds = "wall_seconds",
        MaxJobs = "max_jobs",
    }
);

/// What a limit check must exceed: the declared value, or, when nothing is
/// declared, any finite limit at all (the verifier must observe that some
/// bound is enforced; an unbounded runtime disagrees).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Threshold {
    Value(u64),
    Any,
}

/// What a check is aimed at, typed by kind of target.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Target {
    /// A path as the job sees it.
    Path(String),
    /// A network destination. `port` is `None` when the allow entry names
    /// none.
    Endpoint {
        host: String,
        port: Option<u64>,
        protocol: String,
    },
    /// A limit: its declared value (`None` when undeclared) and what to
    /// probe.
    Limit {
        limit: LimitName,
        value: Option<u64>,
        threshold: Threshold,
    },
    /// The environment: the names of the declared variables, never values.
    Variables(Vec<String>),
    /// A credential by its declared name.
    Credential(String),
    /// The disposable worker itself.
    Worker,
    /// The kernel under the job: the declared boundary kind (`undeclared`
    /// when none) and runtime name, whose claim the verifier observes.
    Kernel {
        kind: String,
        runtime: Option<String>,
    },
    /// A property of the job's own process that the probe reads from the
    /// kernel (`seccomp`: its filter mode).
    Subject(&'static str),
    /// The job's capability sets: the capabilities the profile declares
    /// added (upper case, without `CAP_`), the only ones it may hold.
    Capabilities(Vec<String>),
}

impl Target {
    /// What identifies the thing checked, independent of declared values
    /// that a re-run compares anyway (the limit's value, the variables):
    /// the parts of one key, in order. `port` holds an endpoint's port as
    /// text.
    fn identity<'a>(&'a self, port: &'a mut String) -> [&'a str; 6] {
        match self {
            Target::Path(p) => ["path\0", p, "", "", "", ""],
            Target::Endpoint {
                host,
                port: number,
                protocol,
            } => {
                *port = number.unwrap_or(0).to_string();
                ["endpoint\0", host, "\0", port, "\0", protocol]
            }
            Target::Limit { limit, .. } => ["limit\0", limit.as_str(), "", "", "", ""],
            Target::Variables(_) => ["environment", "", "", "", "", ""],
            Target::Credential(c) => ["credential\0", c, "", "", "", ""],
            Target::Worker => ["worker", "", "", "", "", ""],
            Target::Kernel { .. } => ["kernel", "", "", "", "", ""],
            Target::Subject(s) => ["subject\0", s, "", "", "", ""],
            Target::Capabilities(_) => ["capabilities", "", "", "", "", ""],
        }
    }

    /// Apply `f` to every string taken from the profile or catalog.
    pub fn map_strings(&mut self, f: &mut dyn FnMut(String) -> String) {
        match self {
            Target::Path(p) | Target::Credential(p) => *p = f(std::mem::take(p)),
            Target::Endpoint { host, protocol, .. } => {
                *host = f(std::mem::take(host));
                *protocol = f(std::mem::take(protocol));
            }
            Target::Variables(v) => v.iter_mut().for_each(|n| *n = f(std::mem::take(n))),
            Target::Kernel { kind, runtime } => {
                *kind = f(std::mem::take(kind));
                if let Some(r) = runtime {
                    *r = f(std::mem::take(r));
                }
            }
            Target::Capabilities(v) => v.iter_mut().for_each(|n| *n = f(std::mem::take(n))),
            Target::Limit { .. } | Target::Worker | Target::Subject(_) => {}
        }
    }
}

impl std::fmt::Display for Target {
    /// One line for people (text, Markdown, the dashboard).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Target::Path(p) => f.write_str(p),
            Target::Endpoint { host, port, .. } => match port {
                Some(p) => write!(f, "{host}:{p}"),
                None => f.write_str(host),
            },
            Target::Limit {
                limit,
                value: Some(v),
                ..
            } => write!(f, "{limit}={v}"),
            Target::Limit { limit, .. } => write!(f, "{limit}=undeclared"),
            Target::Variables(v) if v.is_empty() => f.write_str("(empty)"),
            Target::Variables(v) => f.write_str(&v.join(",")),
            Target::Credential(c) => f.write_str(c),
            Target::Worker => f.write_str("worker"),
            Target::Kernel {
                kind,
                runtime: Some(r),
            } => write!(f, "kernel of {kind} ({r})"),
            Target::Kernel { kind, .. } => write!(f, "kernel of {kind}"),
            Target::Subject(s) => f.write_str(s),
            Target::Capabilities(v) if v.is_empty() => f.write_str("capabilities: none"),
            Target::Capabilities(v) => write!(f, "capabilities: {}", v.join(",")),
        }
    }
}

/// A finding that asks for a check: its rule and pointer (its fingerprint
/// is [`crate::report::finding_fingerprint`] of both and the profile name).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Motive {
    pub rule: &'static str,
    pub pointer: String,
}

/// One step of the runtime verifier's plan.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RuntimeCheck {
    /// `rc-` and 12 hex digits of a digest of kind, expectation and target.
    pub id: String,
    pub kind: CheckKind,
    pub target: Target,
    pub expect: Expect,
    pub because: String,
    /// The profile pointer the check derives from; empty for a check every
    /// job gets or one that comes from the catalog.
    pub anchor: String,
    /// The findings that ask for this check (by their rule's
    /// `runtime_check` kind and pointer), sorted.
    pub motivated_by: Vec<Motive>,
}

impl RuntimeCheck {
    /// The stable id: what is checked, not where it stands in the plan.
    pub fn stable_id(&self) -> String {
        let mut port = String::new();
        let [a, b, c, d, e, f] = self.target.identity(&mut port);
        let key = [
            self.kind.as_str(),
            "\0",
            self.expect.as_str(),
            "\0",
            a,
            b,
            c,
            d,
            e,
            f,
        ]
        .map(str::as_bytes);
        let mut id = String::with_capacity(15);
        id.push_str("rc-");
        crate::digest::push_hex(&mut id, &crate::digest::sha256(&key), 12);
        id
    }
}

fn check(
    kind: CheckKind,
    target: Target,
    expect: Expect,
    anchor: impl Into<String>,
    because: impl Into<String>,
) -> RuntimeCheck {
    RuntimeCheck {
        id: String::new(),
        kind,
        target,
        expect,
        because: because.into(),
        anchor: anchor.into(),
        motivated_by: Vec::new(),
    }
}

fn path(p: impl Into<String>) -> Target {
    Target::Path(p.into())
}

fn tcp(host: &str, port: u64) -> Target {
    Target::Endpoint {
        host: host.into(),
        port: Some(port),
        protocol: "tcp".into(),
    }
}

/// Map a host path inside a mount to where the job sees it, joining path
/// components: `/` mounted at `/host` puts `/home` at `/host/home`.
/// `host_path` is `source` or a path under it (both normalized).
pub fn in_job(source: &str, target: &str, host_path: &str) -> String {
    let rest = if contains(source, host_path) {
        host_path
            .get(source.len()..)
            .unwrap_or("")
            .trim_start_matches('/')
    } else {
        ""
    };
    let t = target.trim_end_matches('/');
    match (t.is_empty(), rest.is_empty()) {
        (true, true) => "/".into(),
        (true, false) => format!("/{}", rest),
        (false, true) => t.into(),
        (false, false) => format!("{}/{}", t, rest),
    }
}

/// The checks that do not depend on the profile, built once with the
/// catalog, ids included: what the catalog asks of every job audited
/// against it, and what every job gets whatever it declares. A check whose
/// target carries a declared value its identity leaves out (a limit's
/// value, the environment's names, the kernel's kind) keeps only its id
/// here.
#[derive(Debug, Clone)]
pub struct Standing {
    /// Each sensitive label must not be readable (step 2 of [`derive`]).
    reads: Vec<RuntimeCheck>,
    /// Each trusted configuration must not be writable (step 3).
    writes: Vec<RuntimeCheck>,
    /// Writes outside the job's mounts (step 3), by path.
    outside: [RuntimeCheck; 3],
    /// The metadata endpoint, then two destinations no allow list names
    /// (step 5).
    metadata: RuntimeCheck,
    unlisted: [RuntimeCheck; 2],
    /// The worker is destroyed (step 10).
    worker: RuntimeCheck,
    /// Each socket label: connecting to it must fail (step 13).
    sockets: Vec<RuntimeCheck>,
    /// The ids of the limit checks (by [`LimitName`]), the timeout's, the
    /// environment's and the kernel's.
    limit_ids: [String; 6],
    timeout_id: String,
    env_id: String,
    kernel_id: String,
}

/// `c` with its id.
fn identified(mut c: RuntimeCheck) -> RuntimeCheck {
    c.id = c.stable_id();
    c
}

/// The limits a profile declares, in plan order.
const LIMITS: [LimitName; 6] = [
    LimitName::MemoryBytes,
    LimitName::Processes,
    LimitName::OutputBytes,
    LimitName::CpuSeconds,
    LimitName::WallSeconds,
    LimitName::MaxJobs,
];

fn limit(name: LimitName, value: Option<u64>) -> Target {
    Target::Limit {
        limit: name,
        value,
        threshold: value.map_or(Threshold::Any, Threshold::Value),
    }
}

fn limit_check(name: LimitName, value: Option<u64>, how: &str) -> RuntimeCheck {
    match name {
        LimitName::MaxJobs => check(
            CheckKind::LimitEnforced,
            limit(name, value),
            Expect::Enforced,
            "/concurrency/max_jobs",
            "start one job over the cap; it must wait or be refused",
        ),
        _ => check(
            CheckKind::LimitEnforced,
            limit(name, value),
            Expect::Enforced,
            format!("/limits/{}", name.as_str()),
            format!("exceed {} with a small probe; {}", name.as_str(), how),
        ),
    }
}

fn timeout_check(wall_seconds: Option<u64>) -> RuntimeCheck {
    check(
        CheckKind::TimeoutKillsTree,
        limit(LimitName::WallSeconds, wall_seconds),
        Expect::NoSurvivors,
        "/limits/timeout_kills",
        "start a grandchild that ignores SIGTERM; after the timeout no process of the job may remain",
    )
}

fn env_check(names: Vec<String>) -> RuntimeCheck {
    check(
        CheckKind::EnvExact,
        Target::Variables(names),
        Expect::Exact,
        "/environment",
        "the job's environment must hold only the declared variables, nothing inherited from the launcher",
    )
}

fn kernel_check(kind: &str, runtime: Option<String>) -> RuntimeCheck {
    check(
        CheckKind::BoundaryKernel,
        Target::Kernel {
            kind: kind.to_string(),
            runtime,
        },
        Expect::SeparateKernel,
        "/boundary",
        format!("the boundary is declared as {}; the kernel seen from inside the job (boot id, release, version) must differ from the host's, or the job shares the host's kernel", kind),
    )
}

impl Standing {
    pub fn new(catalog: &crate::labels::Catalog) -> Standing {
        // Hash sets: the importers' own types, so the page holds no
        // B-tree set code for these two.
        let mut seen = std::collections::HashSet::new();
        let reads = catalog
            .labels
            .iter()
            .filter(|l| l.class.sensitive_to_read() && seen.insert(l.path.as_str()))
            .map(|l| {
                identified(check(
                    CheckKind::ReadDenied,
                    path(l.path.clone()),
                    Expect::Denied,
                    "",
                    format!(
                        "catalog label {} ({}) must not be readable from inside the job",
                        l.path,
                        l.class.as_str()
                    ),
                ))
            })
            .collect();
        let writes = catalog
            .labels
            .iter()
            .filter(|l| l.class == crate::labels::LabelClass::TrustedConfig)
            .map(|l| {
                identified(check(
                    CheckKind::WriteDenied,
                    path(l.path.clone()),
                    Expect::Denied,
                    "",
                    format!(
                        "trusted configuration {} must never be writable by the job",
                        l.path
                    ),
                ))
            })
            .collect();
        let mut seen_socket = std::collections::HashSet::new();
        let sockets = catalog
            .labels
            .iter()
            .filter(|l| is_socket_class(l.class) && seen_socket.insert(l.path.as_str()))
            .map(|l| {
                identified(socket_check(
                    l.path.clone(),
                    "",
                    format!(
                        "catalog label {} ({}) must not accept a connection from inside the job",
                        l.path,
                        l.class.as_str()
                    ),
                ))
            })
            .collect();
        let outside = ["/", "/etc", "/usr"].map(|t| {
            identified(check(
                CheckKind::WriteDenied,
                path(t),
                Expect::Denied,
                "",
                "writing outside the declared scratch and output mounts must fail",
            ))
        });
        let egress = |target, anchor, because| {
            identified(check(
                CheckKind::EgressDenied,
                target,
                Expect::Denied,
                anchor,
                because,
            ))
        };
        Standing {
            reads,
            writes,
            outside,
            metadata: egress(
                tcp(METADATA_HOST, METADATA_PORT),
                "",
                "the cloud metadata endpoint hands out instance credentials",
            ),
            unlisted: [
                egress(
                    tcp("example.com", 443),
                    "/network/egress",
                    "a destination outside the allow list must be unreachable at the network layer",
                ),
                egress(
                    tcp("10.0.0.1", 22),
                    "/network/egress",
                    "private addresses must be unreachable unless listed",
                ),
            ],
            worker: identified(check(
                CheckKind::WorkerDestroyed,
                Target::Worker,
                Expect::Destroyed,
                "/cleanup",
                "after results are collected the worker must be gone, with nothing kept but the declared metadata",
            )),
            sockets,
            limit_ids: LIMITS.map(|name| limit_check(name, None, "").stable_id()),
            timeout_id: timeout_check(None).stable_id(),
            env_id: env_check(Vec::new()).stable_id(),
            kernel_id: kernel_check("", None).stable_id(),
        }
    }

    /// `c`, whose id is `id`: a check built for the profile whose identity
    /// [`Standing::new`] has already hashed.
    fn with_id(c: RuntimeCheck, id: &str) -> RuntimeCheck {
        RuntimeCheck {
            id: id.to_string(),
            ..c
        }
    }
}

/// Derive the plan. Order: reads, writes, links, egress, limits, timeout,
/// environment, credentials, cleanup; within a group, profile order.
pub fn derive(ctx: &Ctx<'_>, standing: &Standing) -> Vec<RuntimeCheck> {
    // Room for what a mount (a write, a link, sometimes a read) and a
    // catalog label usually add, so that a large plan is not copied as it
    // grows.
    let mut out = Vec::with_capacity(3 * ctx.mounts.len() + ctx.index.catalog().labels.len() + 16);
    reads(ctx, standing, &mut out);
    // 2b. Kernel interfaces the profile leaves open (rules/kernel.rs).
    out.extend(kernel_reads(ctx));
    writes(ctx, standing, &mut out);
    links(ctx, &mut out);
    egress(ctx, standing, &mut out);
    limits(ctx, standing, &mut out);
    environment_and_credentials(ctx, standing, &mut out);
    own_kernel(ctx, standing, &mut out);
    // 12. What the kernel says of the job's own process: what a container
    //     escape probe (amicontained, CDK's evaluate) looks at first.
    confinement(ctx, &mut out);
    // 13. Sockets: connecting to an engine's or a production service's
    //     socket is the attack, whatever a read of the path answers.
    sockets(ctx, standing, &mut out);
    out
}

/// 1–2. Reads of sensitive paths a mount reaches, then every sensitive
/// catalog label not already checked at that path.
fn reads(ctx: &Ctx<'_>, standing: &Standing, out: &mut Vec<RuntimeCheck>) {
    let mut seen_read = std::collections::HashSet::new();

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
                        path(t),
                        Expect::Denied,
                        v.pointer(),
                        format!("{} is mounted from {} ({}); reading it, not only writing it, must fail", v.pointer(), src, m.class.as_str()),
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
                        path(t),
                        Expect::Denied,
                        v.pointer(),
                        format!(
                            "{} exposes {} ({}) from above; a read attempt must be refused",
                            v.pointer(),
                            e.path,
                            e.class.as_str()
                        ),
                    ));
                }
            }
        }
    }
    // 2. Every sensitive catalog label, at its host path: it must not be
    //    reachable from the job by any mount the profile did not declare.
    out.extend(
        standing
            .reads
            .iter()
            .filter(|c| !matches!(&c.target, Target::Path(p) if seen_read.contains(p)))
            .cloned(),
    );
}

/// 3. Writes: allowed in scratch and output, denied everywhere else.
fn writes(ctx: &Ctx<'_>, standing: &Standing, out: &mut Vec<RuntimeCheck>) {
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
                path(target),
                Expect::Allowed,
                v.pointer(),
                format!(
                    "{} is declared as writable {}; the job's output must land there",
                    v.pointer(),
                    class.map(|c| c.as_str()).unwrap_or("scratch")
                ),
            ));
            write_targets.push(target.to_string());
        } else {
            out.push(check(
                CheckKind::WriteDenied,
                path(target),
                Expect::Denied,
                v.pointer(),
                format!(
                    "{} is not scratch or output; writing under it must fail",
                    v.pointer()
                ),
            ));
        }
    }
    for c in &standing.outside {
        let Target::Path(t) = &c.target else {
            continue;
        };
        if !write_targets.iter().any(|w| contains(w, t)) {
            out.push(c.clone());
        }
    }
    out.extend(standing.writes.iter().cloned());
}

/// 4. Every mount target resolves to its declared source.
fn links(ctx: &Ctx<'_>, out: &mut Vec<RuntimeCheck>) {
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
            path(target),
            Expect::ResolvesToDeclaredSource,
            v.pointer(),
            format!("{} was matched lexically{}; the runtime must open {} without following links or racing a rename", v.pointer(), if origin == Some(true) {
                    " against a catalog label"
                } else {
                    ""
                }, src),
        ));
    }
}

/// 5. Egress: the metadata endpoint, unlisted hosts, and each allowed one.
fn egress(ctx: &Ctx<'_>, standing: &Standing, out: &mut Vec<RuntimeCheck>) {
    // 5. Egress.
    out.push(standing.metadata.clone());
    let net = ctx.profile.network.as_ref();
    let egress = net.and_then(|n| n.egress);
    if egress != Some(Egress::AllowAll) {
        out.extend(standing.unlisted.iter().cloned());
    }
    if egress == Some(Egress::AllowList) {
        for (i, a) in net
            .and_then(|n| n.allow.as_deref())
            .unwrap_or(&[])
            .iter()
            .enumerate()
        {
            if let Some(h) = &a.host {
                let at = format!("/network/allow/{i}");
                out.push(check(
                    CheckKind::EgressAllowed,
                    Target::Endpoint {
                        // What the entry denotes, not how it was written:
                        // a URL's scheme, user info or path is no part of
                        // the destination a verifier can connect to.
                        host: crate::rules::netaddr::parse(h).display(),
                        port: a.port,
                        protocol: a.protocol.clone().unwrap_or_else(|| "tcp".into()),
                    },
                    Expect::Allowed,
                    at.clone(),
                    format!(
                        "{} is declared; it must be reachable, and only by its declared protocol",
                        at
                    ),
                ));
            }
        }
    }
}

/// 6–7. Every declared limit, and the timeout that kills the whole tree.
fn limits(ctx: &Ctx<'_>, standing: &Standing, out: &mut Vec<RuntimeCheck>) {
    // 6. Limits.
    let limits = ctx.profile.limits.as_ref();
    let enforced = limits.and_then(|l| l.enforced_by);
    let how = match enforced {
        Some(LimitEnforcement::Request) | Some(LimitEnforcement::None) | None => {
            "nothing is declared to enforce it"
        }
        Some(_) => "the declared enforcer must stop a program that ignores it",
    };
    let max_jobs = ctx.profile.concurrency.as_ref().and_then(|c| c.max_jobs);
    let values = [
        limits.and_then(|l| l.memory_bytes),
        limits.and_then(|l| l.processes),
        limits.and_then(|l| l.output_bytes),
        limits.and_then(|l| l.cpu_seconds),
        limits.and_then(|l| l.wall_seconds),
        max_jobs,
    ];
    for ((name, value), id) in LIMITS.into_iter().zip(values).zip(&standing.limit_ids) {
        // Every declared limit is probed; the job cap only when declared.
        if name != LimitName::MaxJobs || value.is_some() {
            out.push(Standing::with_id(limit_check(name, value, how), id));
        }
    }

    // 7. Timeout kills the whole tree.
    out.push(Standing::with_id(
        timeout_check(limits.and_then(|l| l.wall_seconds)),
        &standing.timeout_id,
    ));
}

/// 8–10. The environment as declared, credentials that expire, and the
/// worker destroyed.
fn environment_and_credentials(ctx: &Ctx<'_>, standing: &Standing, out: &mut Vec<RuntimeCheck>) {
    // 8. Environment exactly as declared.
    let names: Vec<String> = ctx
        .profile
        .environment
        .as_ref()
        .and_then(|e| e.variables.as_deref())
        .unwrap_or(&[])
        .iter()
        .map(|(k, _)| k.clone())
        .collect();
    out.push(Standing::with_id(env_check(names), &standing.env_id));

    // 9. Credentials expire; 10. the worker is destroyed.
    for (i, c) in ctx.profile.credentials().iter().enumerate() {
        let name = c.name.clone().unwrap_or_else(|| format!("credentials/{i}"));
        let at = format!("/credentials/{i}");
        out.push(check(
            CheckKind::CredentialExpired,
            Target::Credential(name),
            Expect::RejectedAfterJob,
            at.clone(),
            format!("{} must be unusable once the job ends", at),
        ));
    }
    out.push(standing.worker.clone());
}

/// 11. A kernel of its own, when the kind or the runtime claims one.
fn own_kernel(ctx: &Ctx<'_>, standing: &Standing, out: &mut Vec<RuntimeCheck>) {
    // 11. A kernel of its own, when the kind or the runtime claims one: the
    //     declared kind is a claim, the kernel the job runs on is the fact.
    if crate::rules::isolation::claims_separate_kernel(ctx) {
        let b = ctx.profile.boundary.as_ref();
        let kind = b.and_then(|b| b.kind).map_or("undeclared", |k| k.as_str());
        let runtime = b
            .and_then(|b| b.runtime.as_ref())
            .and_then(|r| r.name.as_deref())
            .map(str::trim)
            .filter(|n| !n.is_empty())
            .map(str::to_string);
        out.push(Standing::with_id(
            kernel_check(kind, runtime),
            &standing.kernel_id,
        ));
    }
}

/// Whether a label class names sockets (a socket, or a directory of them)
/// that a job must not connect to.
fn is_socket_class(c: crate::labels::LabelClass) -> bool {
    matches!(
        c,
        crate::labels::LabelClass::ContainerEngineSocket
            | crate::labels::LabelClass::ProductionSocket
    )
}

fn socket_check(p: String, anchor: &str, because: String) -> RuntimeCheck {
    check(
        CheckKind::SocketsDenied,
        path(p),
        Expect::Denied,
        anchor,
        because,
    )
}

/// Step 13: a connect check per socket a mount brings into the job (at the
/// path the job sees), then every socket label of the catalog at its host
/// path, as for reads.
fn sockets(ctx: &Ctx<'_>, standing: &Standing, out: &mut Vec<RuntimeCheck>) {
    let mut seen = std::collections::HashSet::new();
    for v in ctx.mounts {
        let (Some(c), Some(target)) = (&v.class, v.mount.target.as_deref()) else {
            continue;
        };
        let src = c.normalized.path.as_str();
        let own = c
            .matched
            .as_ref()
            .filter(|m| is_socket_class(m.class))
            .map(|m| (src, m.class));
        let below = c
            .exposes
            .iter()
            .filter(|e| is_socket_class(e.class))
            .map(|e| (e.path.as_str(), e.class));
        for (host, class) in own.into_iter().chain(below) {
            let t = in_job(src, target, host);
            if seen.insert(t.clone()) {
                out.push(socket_check(
                    t,
                    &v.pointer(),
                    format!(
                        "{} brings {} ({}) into the job; a connection to it must be refused",
                        v.pointer(),
                        host,
                        class.as_str()
                    ),
                ));
            }
        }
    }
    out.extend(
        standing
            .sockets
            .iter()
            .filter(|c| !matches!(&c.target, Target::Path(p) if seen.contains(p)))
            .cloned(),
    );
}

/// Kernel knobs a job that can write one turns into code the host runs:
/// the core dump handler and the module loader helper (both run as root
/// on the host when triggered), and the magic SysRq trigger. The cgroup
/// mount stands for every cgroup v1 `release_agent` under it.
pub const KERNEL_KNOBS: [&str; 4] = [
    "/proc/sys/kernel/core_pattern",
    "/proc/sys/kernel/modprobe",
    "/proc/sysrq-trigger",
    "/sys/fs/cgroup",
];

/// The namespaces a job must not share with the host unless its profile
/// declares it: each profile name and the name of its `/proc/self/ns`
/// entry. The user namespace is left out: most container runtimes run
/// without one by default, and capabilities are checked on their own.
pub const NAMESPACES: [(crate::model::Namespace, &str); 6] = [
    (crate::model::Namespace::Pid, "pid"),
    (crate::model::Namespace::Network, "net"),
    (crate::model::Namespace::Ipc, "ipc"),
    (crate::model::Namespace::Uts, "uts"),
    (crate::model::Namespace::Mount, "mnt"),
    (crate::model::Namespace::Cgroup, "cgroup"),
];

/// A declared capability in the form the probe compares: upper case,
/// without the `CAP_` prefix.
fn capability_name(c: &str) -> String {
    let up = c.trim().to_ascii_uppercase();
    up.strip_prefix("CAP_").map(str::to_string).unwrap_or(up)
}

/// Step 12: seccomp, capabilities, namespaces, kernel knobs, devices.
fn confinement(ctx: &Ctx<'_>, out: &mut Vec<RuntimeCheck>) {
    let b = ctx.profile.boundary.as_ref();
    out.push(check(
        CheckKind::SeccompFiltered,
        Target::Subject("seccomp"),
        Expect::Filtered,
        "/boundary/seccomp",
        "the job's process must run under a seccomp filter (Seccomp: 2 in /proc/self/status); without one every system call reaches the shared kernel",
    ));
    let mut declared: Vec<String> = b
        .and_then(|b| b.capabilities.as_ref())
        .and_then(|c| c.add.as_deref())
        .unwrap_or(&[])
        .iter()
        .map(|c| capability_name(c))
        .filter(|c| !c.is_empty())
        .collect();
    if b.and_then(|b| b.privileged) == Some(true) {
        declared.push("ALL".into());
    }
    crate::sort::sort(&mut declared);
    declared.dedup();
    out.push(check(
        CheckKind::CapabilitiesDropped,
        Target::Capabilities(declared),
        Expect::WithinDeclared,
        "/boundary/capabilities",
        "the job's effective and bounding capability sets must hold nothing the profile does not add",
    ));
    let shared: Vec<crate::model::Namespace> = b
        .and_then(|b| b.host_namespaces.as_deref())
        .unwrap_or(&[])
        .iter()
        .flatten()
        .copied()
        .collect();
    for (ns, entry) in NAMESPACES {
        if shared.contains(&ns) {
            continue;
        }
        out.push(check(
            CheckKind::NamespacePrivate,
            path(format!("/proc/self/ns/{entry}")),
            Expect::Private,
            "/boundary/host_namespaces",
            format!(
                "the profile does not share the host's {} namespace; the job's must be another than the launcher's",
                ns.as_str()
            ),
        ));
    }
    for knob in KERNEL_KNOBS {
        out.push(check(
            CheckKind::KernelWriteDenied,
            path(knob),
            Expect::Denied,
            "/boundary",
            if knob == "/sys/fs/cgroup" {
                "no cgroup release_agent may be writable by the job: the kernel runs it as root on the host".to_string()
            } else {
                format!("{knob} must not be writable by the job: the host acts on what is written there")
            },
        ));
    }
    // AppArmor, when the profile says anything of it: the claim is
    // observed (an `unconfined` declaration is reported by PRV021, and the
    // check then stands for what eligibility needs).
    if b.and_then(|b| b.apparmor).is_some() {
        out.push(check(
            CheckKind::ApparmorConfined,
            Target::Subject("apparmor"),
            Expect::Confined,
            "/boundary/apparmor",
            "the job's process must run under an AppArmor profile in enforce mode (/proc/self/attr/apparmor/current); unconfined, nothing refuses a mount or a /proc/sys write that another setting let through",
        ));
    }
    out.push(check(
        CheckKind::DevicesStandard,
        path("/dev"),
        Expect::Standard,
        "/boundary",
        "/dev must hold only the standard pseudo-devices (null, zero, random, tty, pts ...); a host disk or kernel device there is a way out",
    ));
}

/// Reads that must fail when the kernel interface behind them is closed:
/// the caller's terminal (opening `/dev/tty` fails with no controlling
/// terminal).
fn kernel_reads(ctx: &Ctx<'_>) -> Vec<RuntimeCheck> {
    let mut out = Vec::new();
    let Some(b) = ctx.profile.boundary.as_ref() else {
        return out;
    };
    if b.terminal == Some(crate::model::Terminal::Shared) {
        out.push(check(
            CheckKind::ReadDenied,
            path("/dev/tty"),
            Expect::Denied,
            "/boundary/terminal",
            "the job must have no controlling terminal: opening /dev/tty must fail, or it can type into the caller's shell",
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{audit, AuditOptions, Labels};

    fn plan(profile: &str) -> Vec<RuntimeCheck> {
        audit(
            profile.as_bytes(),
            "p.json",
            &Labels::workshop(),
            &AuditOptions::default(),
        )
        .unwrap()
        .runtime_checks
    }

    #[test]
    fn paths_under_a_mount_are_joined_by_components() {
        for (source, target, host, want) in [
            ("/", "/host", "/home/botie", "/host/home/botie"),
            ("/", "/host/", "/run/postgresql", "/host/run/postgresql"),
            ("/", "/", "/home", "/home"),
            ("/home", "/h", "/home", "/h"),
            ("/home", "/h", "/home/botie/.aws", "/h/botie/.aws"),
            ("/home", "/", "/home/botie", "/botie"),
            ("/srv/a", "/w", "/srv/ab", "/w"),
        ] {
            assert_eq!(in_job(source, target, host), want, "{source} at {target}");
        }
    }

    /// Every check derived from a mount is aimed at that mount's target or
    /// a path under it (component-wise), whatever the source and target
    /// spell, and whatever the labels it exposes.
    #[test]
    fn every_mount_check_stays_under_its_mount_target() {
        let sources = [
            "/",
            "/home",
            "/home/",
            "/home/botie",
            "/srv/workshop",
            "/var/run",
            "/run",
            "/etc",
            "/srv/workshop/scratch/job",
        ];
        let targets = ["/host", "/host/", "/", "/h/x", "/workspace", "/hostroot"];
        let mut seen = 0;
        for (i, s) in sources.iter().enumerate() {
            for (j, t) in targets.iter().enumerate() {
                let access = if (i + j) % 2 == 0 {
                    "read-only"
                } else {
                    "read-write"
                };
                let profile = format!(
                    r#"{{"name": "p", "mounts": [{{"source": "{s}", "target": "{t}", "access": "{access}"}}]}}"#
                );
                let want = t.trim_end_matches('/');
                for c in plan(&profile).iter().filter(|c| c.anchor == "/mounts/0") {
                    let Target::Path(p) = &c.target else {
                        panic!("{profile}: {c:?}")
                    };
                    let under = want.is_empty() || p == want || p.starts_with(&format!("{want}/"));
                    assert!(
                        under || (want.is_empty() && p == "/"),
                        "{profile}: {p} not under {t}"
                    );
                    seen += 1;
                }
            }
        }
        assert!(seen > 100, "{seen}");
    }

    /// A boundary that claims a kernel of its own gets a check that
    /// observes it; a microvm run by runc is the finding that asks for it.
    #[test]
    fn a_claimed_kernel_of_its_own_is_observed() {
        let with = |kind: &str, runtime: &str| {
            let p = crate::WORKSHOP_PROFILE_FIXED
                .replace(r#""kind": "container""#, &format!(r#""kind": "{kind}""#))
                .replace(r#""name": "runc""#, &format!(r#""name": "{runtime}""#));
            audit(
                p.as_bytes(),
                "p.json",
                &Labels::workshop(),
                &AuditOptions::default(),
            )
            .unwrap()
        };
        let kernel = |r: &crate::Report| -> Vec<RuntimeCheck> {
            r.runtime_checks
                .iter()
                .filter(|c| c.kind == CheckKind::BoundaryKernel)
                .cloned()
                .collect()
        };
        assert!(kernel(&with("container", "runc")).is_empty());
        let r = with("microvm", "runc");
        let k = kernel(&r);
        assert_eq!(k.len(), 1);
        assert_eq!(k[0].expect, Expect::SeparateKernel);
        assert_eq!(
            k[0].target,
            Target::Kernel {
                kind: "microvm".into(),
                runtime: Some("runc".into())
            }
        );
        assert_eq!(k[0].target.to_string(), "kernel of microvm (runc)");
        assert!(k[0].motivated_by.iter().any(|m| m.rule == "ISO008"));
        // Claimed by the runtime alone, or by the kind alone.
        assert_eq!(kernel(&with("container", "kata-runtime")).len(), 1);
        assert_eq!(kernel(&with("microvm", "firecracker")).len(), 1);
        assert!(kernel(&with("microvm", "firecracker"))[0]
            .motivated_by
            .is_empty());
    }

    #[test]
    fn ids_are_stable_unique_and_independent_of_position() {
        let a = plan(crate::WORKSHOP_PROFILE);
        let ids: std::collections::BTreeSet<&str> = a.iter().map(|c| c.id.as_str()).collect();
        assert_eq!(ids.len(), a.len(), "unique");
        assert!(a
            .iter()
            .all(|c| c.id.len() == 15 && c.id.starts_with("rc-")));
        // Another mount in front: every earlier check keeps its id.
        let b = plan(&crate::WORKSHOP_PROFILE.replacen(
            "\"mounts\": [",
            "\"mounts\": [{\"source\": \"/srv/workshop/snapshots/other\", \"target\": \"/other\", \"access\": \"read-only\"},",
            1,
        ));
        let later: std::collections::BTreeSet<&str> = b.iter().map(|c| c.id.as_str()).collect();
        assert!(ids.is_subset(&later), "{ids:?} vs {later:?}");
        assert!(later.len() > ids.len());
    }

    #[test]
    fn undeclared_limits_probe_any_and_declared_ones_their_value() {
        let checks = plan(r#"{"name": "p", "limits": {"memory_bytes": 1048576}}"#);
        let limits: Vec<_> = checks
            .iter()
            .filter_map(|c| match &c.target {
                Target::Limit {
                    limit, threshold, ..
                } if c.kind == CheckKind::LimitEnforced => Some((*limit, *threshold)),
                _ => None,
            })
            .collect();
        assert!(limits.contains(&(LimitName::MemoryBytes, Threshold::Value(1048576))));
        assert!(limits.contains(&(LimitName::Processes, Threshold::Any)));
    }

    /// Which probe kind confirms each rule whose setting the probe can see
    /// from inside: the rule names it, so its findings ask the verifier.
    const CONFIRMED_BY: &[(&str, CheckKind)] = &[
        ("PRV002", CheckKind::CapabilitiesDropped),
        ("PRV003", CheckKind::CapabilitiesDropped),
        ("PRV006", CheckKind::NamespacePrivate),
        ("PRV007", CheckKind::SeccompFiltered),
        ("PRV020", CheckKind::KernelWriteDenied),
        ("PRV021", CheckKind::ApparmorConfined),
        ("PRV022", CheckKind::DevicesStandard),
        ("MNT004", CheckKind::SocketsDenied),
    ];

    #[test]
    fn rules_name_the_probe_kind_that_confirms_them() {
        let mut wrong = Vec::new();
        for (id, kind) in CONFIRMED_BY {
            let rule = crate::rules::find(id).unwrap();
            if rule.runtime_check != Some(*kind) {
                wrong.push(format!("{id}: {:?}, want {kind:?}", rule.runtime_check));
            }
        }
        assert!(
            wrong.is_empty(),
            "{} of {} wrong: {wrong:?}",
            wrong.len(),
            CONFIRMED_BY.len()
        );
        // Each confinement kind is asked for by some rule.
        for kind in [
            CheckKind::SeccompFiltered,
            CheckKind::CapabilitiesDropped,
            CheckKind::NamespacePrivate,
            CheckKind::KernelWriteDenied,
            CheckKind::DevicesStandard,
            CheckKind::ApparmorConfined,
            CheckKind::SocketsDenied,
        ] {
            assert!(
                crate::rules::all().any(|r| r.runtime_check == Some(kind)),
                "{kind:?}"
            );
        }
    }

    /// A profile with each rule's setting: its finding links to a check of
    /// the kind the rule names.
    #[test]
    fn confinement_findings_link_to_their_checks() {
        let p = crate::WORKSHOP_PROFILE
            .replace(r#""seccomp": "default""#, r#""seccomp": "unconfined""#)
            .replace(
                r#""host_namespaces": []"#,
                r#""host_namespaces": ["pid"], "apparmor": "unconfined", "devices": ["/dev/kmsg"], "unmasked_paths": ["/proc/sys"]"#,
            );
        let r = audit(
            p.as_bytes(),
            "p.json",
            &Labels::workshop(),
            &AuditOptions::default(),
        )
        .unwrap();
        let mut missing = Vec::new();
        for (id, kind) in CONFIRMED_BY {
            let linked = r
                .runtime_checks
                .iter()
                .any(|c| c.kind == *kind && c.motivated_by.iter().any(|m| m.rule == *id));
            let fired = r.issues.iter().any(|f| f.rule == *id);
            if fired && !linked {
                missing.push(*id);
            }
            if !fired && *id != "PRV003" {
                missing.push(*id);
            }
        }
        assert!(missing.is_empty(), "{missing:?}");
    }

    /// A finding whose rule asks for a kind of check is linked to a check
    /// of that kind, and every link names a rule that asks for that kind.
    #[test]
    fn checks_name_the_findings_that_motivate_them() {
        let r = audit(
            crate::WORKSHOP_PROFILE.as_bytes(),
            "p.json",
            &Labels::workshop(),
            &AuditOptions::default(),
        )
        .unwrap();
        let mut linked = 0;
        for c in &r.runtime_checks {
            for m in &c.motivated_by {
                let rule = crate::rules::find(m.rule).unwrap();
                assert_eq!(rule.runtime_check, Some(c.kind), "{c:?}");
                assert!(r
                    .issues
                    .iter()
                    .any(|f| f.rule == m.rule && f.pointer == m.pointer));
                linked += 1;
            }
        }
        assert!(linked >= 3, "{linked}");
        let asking = r.issues.iter().filter(|f| {
            crate::rules::find(f.rule)
                .and_then(|r| r.runtime_check)
                .is_some()
        });
        for f in asking {
            let kind = crate::rules::find(f.rule).unwrap().runtime_check.unwrap();
            let exists = r.runtime_checks.iter().any(|c| c.kind == kind);
            let linked = r.runtime_checks.iter().any(|c| {
                c.motivated_by
                    .iter()
                    .any(|m| m.rule == f.rule && m.pointer == f.pointer)
            });
            assert!(
                !exists || linked,
                "{} {} is linked to no check",
                f.rule,
                f.pointer
            );
        }
    }
}
