//! Rules of the `isolation` area: whether the kind of boundary suits who
//! wrote the code, and whether the runtime that provides it is known,
//! patched and free of known escapes. A label is never evidence: only the
//! settings are.

use super::privileges::{capability_name, drops_all, engine_access, user_kind, UserKind};
use super::{Ctx, Emitter, Rule};
use crate::date::Date;
use crate::finding::{Area, CheckKind, Severity};
use crate::model::{Boundary, BoundaryKind, Runtime, Seccomp, StringEnum, Tenancy};

/// Days after which a runtime patch date is stale (medium).
const STALE_DAYS: i64 = 180;
/// Days after which a stale runtime blocks eligibility on a shared kernel.
const VERY_STALE_DAYS: i64 = 365;

fn kind(ctx: &Ctx<'_>) -> Option<BoundaryKind> {
    ctx.profile.boundary.as_ref().and_then(|b| b.kind)
}

/// Whether the job shares the host kernel; an undeclared kind is assumed to.
fn shared_kernel(ctx: &Ctx<'_>) -> bool {
    kind(ctx).is_none_or(BoundaryKind::shares_kernel)
}

fn runtime<'a>(ctx: &'a Ctx<'_>) -> Option<&'a Runtime> {
    ctx.profile
        .boundary
        .as_ref()
        .and_then(|b| b.runtime.as_ref())
}

/// A declared, non-blank string.
fn declared(s: Option<&String>) -> Option<&str> {
    s.map(|s| s.trim()).filter(|s| !s.is_empty())
}

fn kind_text(ctx: &Ctx<'_>) -> String {
    kind(ctx).map_or_else(|| "undeclared".to_string(), |k| k.as_str().to_string())
}

// ------------------------------------------------------------ versions

/// A pre-release sorts before its release: `1.0.0-rc92` < `1.0.0`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Pre {
    Rc(u64),
    Release,
}

/// A runtime version, compared numerically.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct Version {
    nums: [u64; 3],
    pre: Pre,
}

const fn v(a: u64, b: u64, c: u64) -> Version {
    Version {
        nums: [a, b, c],
        pre: Pre::Release,
    }
}

const fn rc(a: u64, b: u64, c: u64, n: u64) -> Version {
    Version {
        nums: [a, b, c],
        pre: Pre::Rc(n),
    }
}

/// Parse `1.2.3`, `v1.1.12`, `1.0-rc6`, `1.0.0-rc.92`, `1.4.0~rc3`. A
/// distribution suffix (`+ds1`, `-0ubuntu1`) is not a pre-release and is
/// ignored, which can only make a backported fix look missing (see
/// [`ISO006`]'s backport allowance).
fn parse_version(raw: &str) -> Option<Version> {
    let s = raw.trim();
    let s = s.strip_prefix(['v', 'V']).unwrap_or(s);
    let end = s
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(s.len());
    let (numeric, rest) = s.split_at(end);
    let numeric = numeric.trim_end_matches('.');
    if numeric.is_empty() {
        return None;
    }
    let mut nums = [0u64; 3];
    for (slot, part) in nums.iter_mut().zip(numeric.split('.')) {
        *slot = part.parse().ok()?;
    }
    let tag = rest
        .trim_start_matches(['-', '~', '.', '_'])
        .to_ascii_lowercase();
    let pre = ["rc", "beta", "alpha", "pre"]
        .iter()
        .find_map(|p| tag.strip_prefix(p).map(|n| (*p, n)));
    let pre = match pre {
        Some((kind, n)) => {
            let digits: String = n
                .trim_start_matches('.')
                .chars()
                .take_while(char::is_ascii_digit)
                .collect();
            // alpha and beta come before any release candidate.
            if kind == "rc" {
                Pre::Rc(digits.parse().unwrap_or(0))
            } else {
                Pre::Rc(0)
            }
        }
        None => Pre::Release,
    };
    Some(Version { nums, pre })
}

/// A published runtime vulnerability that lets code inside the boundary
/// reach the host.
struct Advisory {
    runtime: &'static str,
    ids: &'static [&'static str],
    /// The day the fix was published: a patch date before it cannot carry it.
    published: &'static str,
    /// Affected half-open ranges `[from, to)`.
    affected: &'static [(Version, Version)],
    what: &'static str,
    /// Reachable only from the host's network namespace (an abstract unix
    /// socket is namespaced by network, not by mount).
    host_network_only: bool,
}

const ADVISORIES: &[Advisory] = &[
    Advisory {
        runtime: "runc",
        ids: &["CVE-2019-5736"],
        published: "2019-02-11",
        affected: &[(v(0, 0, 0), rc(1, 0, 0, 7))],
        what: "a container can overwrite the host's runc binary",
        host_network_only: false,
    },
    Advisory {
        runtime: "runc",
        ids: &["CVE-2024-21626"],
        published: "2024-01-31",
        affected: &[(v(0, 0, 0), v(1, 1, 12))],
        what: "a leaked host directory descriptor gives a container the host's filesystem",
        host_network_only: false,
    },
    Advisory {
        runtime: "runc",
        ids: &["CVE-2025-31133", "CVE-2025-52565", "CVE-2025-52881"],
        published: "2025-11-05",
        affected: &[
            (v(0, 0, 0), v(1, 2, 8)),
            (rc(1, 3, 0, 0), v(1, 3, 3)),
            (rc(1, 4, 0, 0), rc(1, 4, 0, 3)),
        ],
        what: "mount races let a container write host procfs files and escape",
        host_network_only: false,
    },
    Advisory {
        runtime: "containerd",
        ids: &["CVE-2020-15257"],
        published: "2020-11-30",
        affected: &[(v(0, 0, 0), v(1, 3, 9)), (rc(1, 4, 0, 0), v(1, 4, 3))],
        what: "the shim's API listens on an abstract unix socket, which a root process in the host's network namespace reaches and asks to start processes on the host",
        host_network_only: true,
    },
    Advisory {
        runtime: "cri-o",
        ids: &["CVE-2022-0811"],
        published: "2022-03-15",
        affected: &[
            (v(1, 19, 0), v(1, 19, 6)),
            (v(1, 20, 0), v(1, 20, 7)),
            (v(1, 21, 0), v(1, 21, 6)),
            (v(1, 22, 0), v(1, 22, 3)),
            (v(1, 23, 0), v(1, 23, 2)),
        ],
        what: "a kernel parameter's value with `+` sets any other parameter, `kernel.core_pattern` included, so a pod runs code as root on the node",
        host_network_only: false,
    },
    Advisory {
        // GHSA-2cgq-h8xw-2v5j; the CVE record lists 1.27.5, 1.28.5 and
        // 1.29.3 affected and 1.27.6, 1.28.6, 1.29.4 not; the fix is in
        // those tags and 1.30.0. The 1.25 and 1.26 branches took it with
        // no release after, and GO-2024-2791 marks every older release.
        runtime: "cri-o",
        ids: &["CVE-2024-3154"],
        published: "2024-04-26",
        affected: &[
            (v(0, 0, 0), v(1, 27, 6)),
            (v(1, 28, 0), v(1, 28, 6)),
            (v(1, 29, 0), v(1, 29, 4)),
        ],
        what: "a pod annotation (`org.systemd.property.*`) reaches the runtime as a systemd property of the container's unit, so whoever can create a pod acts on the host",
        host_network_only: false,
    },
    Advisory {
        // GHSA-992m-xc3g-r7rj: "crun before 0.10.5"; 0.10.5 was tagged on
        // 2019-11-10.
        runtime: "crun",
        ids: &["CVE-2019-18837"],
        published: "2019-11-10",
        affected: &[(v(0, 0, 0), v(0, 10, 5))],
        what: "a crafted image's link makes crun resolve a mount target outside the container, giving access to host files",
        host_network_only: false,
    },
    Advisory {
        // crun NEWS, crun-1.28 (tagged 2026-05-27): device setup followed
        // a `/dev` link of the image out of the root file system.
        runtime: "crun",
        ids: &["CVE-2026-47766"],
        published: "2026-05-27",
        affected: &[(v(0, 0, 0), v(1, 28, 0))],
        what: "an image whose `/dev` is a link makes crun create and replace device nodes in a host directory",
        host_network_only: false,
    },
    Advisory {
        // The CVE records: "crun 1.29.1 and earlier"; crun 1.30 fixes both
        // (its release notes, 2026-09-24).
        runtime: "crun",
        ids: &["CVE-2026-88264", "CVE-2026-88265"],
        published: "2026-09-24",
        affected: &[(v(0, 0, 0), v(1, 30, 0))],
        what: "with no fresh mount over `/dev`, an image's `/dev/console` or `/dev/null` link makes crun create a root-owned host file or hand the job a host file and chown it",
        host_network_only: false,
    },
    Advisory {
        // GHSA-f42g-r5jj-qh4j: crun's krun handler, fixed in crun 1.20
        // (2025-02-04).
        runtime: "krun",
        ids: &["CVE-2025-24965"],
        published: "2025-02-04",
        affected: &[(v(0, 0, 0), v(1, 20, 0))],
        what: "an image's link makes the krun handler write `.krun_config.json` outside the root file system, creating or changing host files",
        host_network_only: false,
    },
    Advisory {
        // The CVE record: "a regression in crun 1.29", fixed in crun 1.30.
        runtime: "krun",
        ids: &["CVE-2026-84042"],
        published: "2026-09-24",
        affected: &[(v(1, 29, 0), v(1, 30, 0))],
        what: "rootful krun with passt networking runs a payload from the image with host root privileges",
        host_network_only: false,
    },
    Advisory {
        // GHSA-vf95-55w6-qmrf, youki's share of runc's 2025 procfs
        // advisories; the fix was merged into v0.5.7 (2025-11-05).
        runtime: "youki",
        ids: &["CVE-2025-62596"],
        published: "2025-11-05",
        affected: &[(v(0, 0, 0), v(0, 5, 7))],
        what: "mount races and redirected procfs writes let a container write host procfs files and escape",
        host_network_only: false,
    },
    Advisory {
        runtime: "kata",
        ids: &["CVE-2020-2025"],
        published: "2020-05-26",
        affected: &[(v(0, 0, 0), v(1, 11, 0))],
        what: "a guest's writes persist in the guest image shared by every later VM, so one job plants code for all that follow",
        host_network_only: false,
    },
    Advisory {
        runtime: "kata",
        ids: &["CVE-2020-2023"],
        published: "2020-06-13",
        affected: &[(v(0, 0, 0), v(1, 10, 5)), (v(1, 11, 0), v(1, 11, 1))],
        what: "a container reaches the guest's root file system device and can rewrite the guest agent",
        host_network_only: false,
    },
    Advisory {
        runtime: "kata",
        ids: &["CVE-2020-2026"],
        published: "2020-06-13",
        affected: &[(v(0, 0, 0), v(1, 10, 6)), (v(1, 11, 0), v(1, 11, 1))],
        what: "a link planted in the container's root file system makes the runtime mount over a host path, an escape to the host",
        host_network_only: false,
    },
    Advisory {
        runtime: "firecracker",
        ids: &["CVE-2026-5747"],
        published: "2026-04-07",
        affected: &[(v(1, 13, 0), v(1, 14, 4)), (v(1, 15, 0), v(1, 15, 1))],
        what: "a root guest rewrites virtio queue registers after activation and writes out of bounds in the VMM process on the host",
        host_network_only: false,
    },
];

/// The name an advisory is filed under, for the names runners report
/// (`crio`, `kata-runtime`, `kata-qemu`, a path to the binary).
fn advisory_name(raw: &str) -> String {
    let lower = raw.trim().to_ascii_lowercase();
    let n = lower.rsplit(['/', '\\']).next().unwrap_or("");
    let n = n.strip_suffix(".exe").unwrap_or(n);
    match n {
        "crio" | "cri-o" => "cri-o".into(),
        "kata" | "kata-runtime" | "kata-containers" | "containerd-shim-kata-v2" => "kata".into(),
        _ if n.starts_with("kata-") => "kata".into(),
        "crun-krun" | "krun-sev" => "krun".into(),
        _ => n.to_string(),
    }
}

/// Whether an advisory filed under `filed` applies to the runtime named
/// `name` (as [`advisory_name`] gives it): crun's krun handler is crun
/// itself, run under another name, so crun's advisories reach it too.
fn applies_to(filed: &str, name: &str) -> bool {
    filed == name || (name == "krun" && filed == "crun")
}

fn advisories_for(
    name: &str,
    version: Version,
    host_network: bool,
) -> impl Iterator<Item = &'static Advisory> {
    let name = advisory_name(name);
    ADVISORIES
        .iter()
        .filter(move |a| applies_to(a.runtime, &name) && (host_network || !a.host_network_only))
        .filter(move |a| {
            a.affected
                .iter()
                .any(|(from, to)| *from <= version && version < *to)
        })
}

// --------------------------------------------------------------- labels

/// Words with which a label claims protection.
const REASSURING: &[&str] = &[
    "hardened",
    "harden",
    "hardening",
    "secure",
    "secured",
    "sandbox",
    "sandboxed",
    "isolated",
    "isolation",
    "lockdown",
    "safe",
    "trusted",
    "restricted",
    "confined",
    "jailed",
    "rootless",
    "unprivileged",
    "nonroot",
    "shielded",
    "protected",
    "locked",
];

/// The reassuring words of a label (`locked-down`, `non-root` included).
fn reassuring_words(label: &str) -> Vec<String> {
    let words: Vec<String> = label
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(crate::sanitize::lowercase_for_ascii_words)
        .collect();
    let mut out: Vec<String> = words
        .iter()
        .filter(|w| REASSURING.contains(&w.as_str()))
        .cloned()
        .collect();
    if words
        .windows(2)
        .any(|p| matches!(p, [a, b] if a == "non" && b == "root"))
    {
        out.push("non-root".into());
    }
    out.dedup();
    out
}

/// Explicit settings that contradict a claim of protection: (pointer, what).
fn contradictions(ctx: &Ctx<'_>, b: &Boundary) -> Vec<(String, String)> {
    let mut out = Vec::new();
    if b.kind == Some(BoundaryKind::Process) {
        out.push((
            "/boundary/kind".into(),
            "no boundary beyond a plain process".into(),
        ));
    }
    if b.privileged == Some(true) {
        out.push(("/boundary/privileged".into(), "privileged mode".into()));
    }
    let added: Vec<String> = b
        .capabilities
        .as_ref()
        .and_then(|c| c.add.as_deref())
        .unwrap_or(&[])
        .iter()
        .map(|c| capability_name(c))
        .collect();
    if !added.is_empty() {
        out.push((
            "/boundary/capabilities/add".into(),
            format!(
                "added capabilities ({})",
                added
                    .iter()
                    .map(|c| format!("`{c}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        ));
    }
    if b.capabilities.as_ref().is_some_and(|c| c.drop.is_some())
        && !drops_all(b.capabilities.as_ref())
    {
        out.push((
            "/boundary/capabilities/drop".into(),
            "default capabilities kept".into(),
        ));
    }
    if b.user.as_deref().and_then(user_kind) == Some(UserKind::Root) {
        out.push(("/boundary/user".into(), "root user".into()));
    }
    if b.no_new_privileges == Some(false) {
        out.push((
            "/boundary/no_new_privileges".into(),
            "privilege gain allowed".into(),
        ));
    }
    let shared: Vec<&str> = b
        .host_namespaces
        .as_deref()
        .unwrap_or(&[])
        .iter()
        .flatten()
        .map(|n| n.as_str())
        .collect();
    if !shared.is_empty() {
        out.push((
            "/boundary/host_namespaces".into(),
            format!("host namespaces ({})", shared.join(", ")),
        ));
    }
    if b.seccomp == Some(Seccomp::Unconfined) {
        out.push(("/boundary/seccomp".into(), "no syscall filter".into()));
    }
    if b.read_only_root == Some(false) {
        out.push((
            "/boundary/read_only_root".into(),
            "writable root filesystem".into(),
        ));
    }
    for a in engine_access(ctx) {
        out.push((a.pointer, "container-engine access".into()));
    }
    out
}

// ------------------------------------------------------ runtime families

/// What a runtime's boundary is, whatever the profile calls it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Family {
    /// Namespaces and cgroups on the host's kernel (runc, crun, youki).
    SharedKernel,
    /// A kernel in user space between the job and the host (gVisor).
    UserSpaceKernel,
    /// A hypervisor and a guest kernel (Firecracker, Cloud Hypervisor, Kata).
    Vm,
}

impl Family {
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Family::SharedKernel => "shared-kernel container runtime",
            Family::UserSpaceKernel => "user-space kernel",
            Family::Vm => "virtual machine",
        }
    }
    /// Whether the job's system calls reach a kernel other than the host's.
    pub(crate) fn separate_kernel(self) -> bool {
        self != Family::SharedKernel
    }
}

/// The strongest boundary a declared kind claims; `None` for an
/// execution service, which may be built either way on a kernel of its own.
fn kind_family(k: BoundaryKind) -> Option<Family> {
    match k {
        BoundaryKind::Process | BoundaryKind::Container => Some(Family::SharedKernel),
        BoundaryKind::UserSpaceKernel => Some(Family::UserSpaceKernel),
        BoundaryKind::MicroVm | BoundaryKind::Vm => Some(Family::Vm),
        BoundaryKind::ExecutionService => None,
    }
}

/// Runtimes by the boundary they provide, under the names runners report:
/// the binary, its containerd shim (`containerd-shim-runc-v2`) or the
/// containerd runtime type (`io.containerd.runsc.v1`) reduce to these.
const RUNTIMES: &[(&str, Family)] = &[
    ("runc", Family::SharedKernel),
    ("crun", Family::SharedKernel),
    ("youki", Family::SharedKernel),
    ("runj", Family::SharedKernel),
    ("sysbox-runc", Family::SharedKernel),
    ("sysbox", Family::SharedKernel),
    ("nvidia-container-runtime", Family::SharedKernel),
    ("nvidia", Family::SharedKernel),
    ("lxc", Family::SharedKernel),
    ("bubblewrap", Family::SharedKernel),
    ("bwrap", Family::SharedKernel),
    ("nsjail", Family::SharedKernel),
    ("firejail", Family::SharedKernel),
    ("minijail", Family::SharedKernel),
    ("minijail0", Family::SharedKernel),
    ("runsc", Family::UserSpaceKernel),
    ("gvisor", Family::UserSpaceKernel),
    ("firecracker", Family::Vm),
    ("firecracker-containerd", Family::Vm),
    ("cloud-hypervisor", Family::Vm),
    ("cloud_hypervisor", Family::Vm),
    ("kata", Family::Vm),
    ("kata-runtime", Family::Vm),
    ("kata-containers", Family::Vm),
    ("qemu", Family::Vm),
    ("qemu-kvm", Family::Vm),
    ("kvm", Family::Vm),
    ("crosvm", Family::Vm),
    ("libkrun", Family::Vm),
    ("krun", Family::Vm),
    ("krunvm", Family::Vm),
    ("stratovirt", Family::Vm),
    ("dragonball", Family::Vm),
    ("runv", Family::Vm),
    ("hyper-v", Family::Vm),
    ("hyperv", Family::Vm),
];

/// The family of a runtime name, `None` for a name not known (an engine
/// such as `docker` names no boundary: it runs whichever runtime it is
/// configured with).
pub(crate) fn runtime_family(raw: &str) -> Option<Family> {
    let lower = raw.trim().to_ascii_lowercase();
    let mut n = lower.rsplit(['/', '\\']).next().unwrap_or("");
    n = n.strip_suffix(".exe").unwrap_or(n);
    n = n.strip_prefix("io.containerd.").unwrap_or(n);
    n = n.strip_prefix("containerd-shim-").unwrap_or(n);
    for suffix in [".v1", ".v2", "-v1", "-v2"] {
        n = n.strip_suffix(suffix).unwrap_or(n);
    }
    if let Some(&(_, f)) = RUNTIMES.iter().find(|(name, _)| *name == n) {
        return Some(f);
    }
    // Kata's per-hypervisor runtimes (`kata-qemu`, `kata-fc`, `kata-clh`,
    // `kata-dragonball`), QEMU's system emulators (`qemu-system-x86_64`).
    if n.starts_with("kata-") || n.starts_with("qemu-system-") {
        return Some(Family::Vm);
    }
    None
}

/// The boundary a label claims by naming one (`microvm`, `gvisor`,
/// `firecracker`, `virtual machine`); `None` when it names none. A
/// container label claims nothing: containers are packaging, and Kata
/// runs them in virtual machines.
fn label_family(label: &str) -> Option<Family> {
    let words: Vec<String> = label
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(crate::sanitize::lowercase_for_ascii_words)
        .collect();
    let vm = words.iter().any(|w| {
        matches!(
            w.as_str(),
            "microvm" | "vm" | "firecracker" | "kata" | "qemu" | "hypervisor" | "kvm" | "crosvm"
        )
    }) || words.windows(2).any(|p| {
        matches!(p, [a, b] if (a == "virtual" && b == "machine") || (a == "micro" && b == "vm"))
    });
    if vm {
        return Some(Family::Vm);
    }
    words
        .iter()
        .any(|w| w == "gvisor" || w == "runsc")
        .then_some(Family::UserSpaceKernel)
}

/// The runtime's family, when its name is declared and known.
fn declared_family<'a>(ctx: &'a Ctx<'_>) -> Option<(&'a str, Family)> {
    let name = declared(runtime(ctx).and_then(|r| r.name.as_ref()))?;
    runtime_family(name).map(|f| (name, f))
}

/// Whether the boundary's kind or its runtime claims a kernel other than
/// the host's: what the plan's kernel check must confirm.
pub(crate) fn claims_separate_kernel(ctx: &Ctx<'_>) -> bool {
    kind(ctx).is_some_and(|k| !k.shares_kernel())
        || declared_family(ctx).is_some_and(|(_, f)| f.separate_kernel())
}

pub(crate) const ISO008: Rule = Rule {
    id: "ISO008",
    name: "boundary-kind-disagrees",
    area: Area::Isolation,
    severity: Severity::High,
    title: "the boundary's kind, runtime and label disagree",
    rationale: "The declared kind decides how strictly the other rules judge the job, but the runtime decides the boundary it gets: runc, crun and youki are containers on the host's kernel, gVisor (runsc) is a kernel in user space, and Firecracker, Cloud Hypervisor and Kata are virtual machines. A `microvm` run by runc shares the host's kernel. Overstating the boundary blocks (critical for untrusted code); understating it is medium, since the audit applies the weaker kind. A label that names a boundary the runtime does not provide is reported the same way.",
    remediation: "Declare the kind the runtime really provides, or run the job on a runtime of the declared kind; keep the label to a description that the runtime bears out. The runtime check plan asks the verifier to observe the kernel from inside the job.",
    runtime_check: Some(CheckKind::BoundaryKernel),
    check: check_kind_agreement,
};

fn check_kind_agreement(ctx: &Ctx<'_>, e: &mut Emitter) {
    let untrusted = ctx.profile.tenancy == Some(Tenancy::Untrusted);
    let runtime = declared_family(ctx);
    if let (Some(k), Some((name, actual))) = (kind(ctx), runtime) {
        let claimed = kind_family(k);
        // An execution service runs on a kernel of its own, whichever way.
        let agrees = match claimed {
            Some(c) => c == actual,
            None => actual.separate_kernel(),
        };
        if !agrees {
            let over = claimed.is_none_or(|c| c > actual);
            let (sev, tail) = if !over {
                (Severity::Medium, "the audit judges the weaker declared kind, but one of the two is wrong: declare what the runner really uses")
            } else if untrusted {
                (Severity::Critical, "untrusted code would get the runtime's boundary, not the one declared, and the kind is what the other rules trusted")
            } else {
                (Severity::High, "the job gets the runtime's boundary, not the one declared, and the kind is what the other rules trusted")
            };
            e.emit(
                "/boundary/kind",
                format!(
                    "the boundary is declared as `{k}` but its runtime `{name}` is a {}; {tail}",
                    actual.as_str()
                ),
            )
            .severity(sev)
            .evidence("kind", k.as_str())
            .evidence("runtime", name)
            .evidence("runtime_family", actual.as_str())
            .evidence("overstated", over);
        }
    }
    let Some(label) = declared(ctx.profile.boundary.as_ref().and_then(|b| b.label.as_ref())) else {
        return;
    };
    let Some(claimed) = label_family(label) else {
        return;
    };
    // What the settings say: the runtime when it is known, else the kind.
    let (actual, by) = match (runtime, kind(ctx).and_then(kind_family)) {
        (Some((name, f)), _) => (f, format!("runtime `{name}`")),
        (None, Some(f)) => (f, format!("kind `{}`", kind_text(ctx))),
        (None, None) => return,
    };
    if claimed == actual {
        return;
    }
    let over = claimed > actual;
    e.emit(
        "/boundary/label",
        format!(
            "the label `{label}` names a {} but the {by} is a {}; a label describes packaging, not the boundary",
            claimed.as_str(),
            actual.as_str()
        ),
    )
    .severity(if over { Severity::High } else { Severity::Medium })
    .evidence("label", label)
    .evidence("label_claims", claimed.as_str())
    .evidence("actual", actual.as_str())
    .evidence("overstated", over);
}

// ---------------------------------------------------------------- checks

pub(crate) const ISO004: Rule = Rule {
    id: "ISO004",
    name: "runtime-not-declared",
    area: Area::Isolation,
    severity: Severity::Medium,
    title: "the runtime's name or version is not declared",
    rationale: "Escapes are usually bugs of a particular runtime release. Without the runtime's name and version a reviewer cannot check them against published vulnerabilities, and the runtime verifier cannot tell when a re-run is due.",
    remediation: "Declare `boundary.runtime.name` and `boundary.runtime.version` as the runner reports them (for example `runc` and `1.3.3`).",
    runtime_check: None,
    check: check_runtime_declared,
};

fn check_runtime_declared(ctx: &Ctx<'_>, e: &mut Emitter) {
    let Some(rt) = runtime(ctx) else {
        e.emit("/boundary/runtime", "the runtime that provides the boundary is not declared: its known vulnerabilities cannot be checked")
            .evidence("missing", vec!["name", "version"]);
        return;
    };
    if declared(rt.name.as_ref()).is_none() {
        e.emit(
            "/boundary/runtime/name",
            "the runtime's name is not declared",
        )
        .evidence("missing", vec!["name"]);
    }
    if declared(rt.version.as_ref()).is_none() {
        e.emit(
            "/boundary/runtime/version",
            "the runtime's version is not declared: known vulnerable releases cannot be ruled out",
        )
        .evidence("missing", vec!["version"]);
    } else if let Some(ver) = declared(rt.version.as_ref()).filter(|s| parse_version(s).is_none()) {
        e.emit(
            "/boundary/runtime/version",
            format!("runtime version `{ver}` is not a version number that can be compared"),
        )
        .severity(Severity::Low)
        .evidence("version", ver);
    }
}

pub(crate) const ISO005: Rule = Rule {
    id: "ISO005",
    name: "runtime-patch-date",
    area: Area::Isolation,
    severity: Severity::High,
    title: "the runtime's patch date is missing, invalid, in the future or stale",
    rationale: "A boundary is only as strong as its last patch. On a shared kernel (`process`, `container`, or an undeclared kind) an unknown patch level blocks eligibility, as does a patch older than a year; on VM-backed kinds these are medium. Patches older than 180 days are reported as stale everywhere; a date in the future cannot describe the installed runtime.",
    remediation: "Declare `boundary.runtime.patched_on` as the `YYYY-MM-DD` date the runtime and host kernel were last updated, and keep it within 180 days.",
    runtime_check: None,
    check: check_patch_date,
};

fn check_patch_date(ctx: &Ctx<'_>, e: &mut Emitter) {
    // A kernel-sharing runtime shares the kernel whatever the kind says.
    let shared =
        shared_kernel(ctx) || declared_family(ctx).is_some_and(|(_, f)| !f.separate_kernel());
    let missing_sev = if shared {
        Severity::High
    } else {
        Severity::Medium
    };
    let ptr = "/boundary/runtime/patched_on";
    let Some(raw) = declared(runtime(ctx).and_then(|r| r.patched_on.as_ref())) else {
        e.emit(ptr, "the runtime's patch date is not declared: nothing shows that fixes for known escapes are installed")
            .severity(missing_sev)
            .evidence("kind", kind_text(ctx));
        return;
    };
    let Some(date) = Date::parse(raw) else {
        e.emit(ptr, format!("`{raw}` is not a `YYYY-MM-DD` date"))
            .severity(missing_sev)
            .evidence("patched_on", raw);
        return;
    };
    let Some(today) = ctx.today else { return };
    let age = today.days() - date.days();
    if age < 0 {
        e.emit(ptr, format!("the patch date `{date}` is in the future (today is {today}): it cannot describe the installed runtime"))
            .evidence("patched_on", date.to_string())
            .evidence("today", today.to_string());
        return;
    }
    if age > STALE_DAYS {
        let sev = if age > VERY_STALE_DAYS && shared {
            Severity::High
        } else {
            Severity::Medium
        };
        e.emit(ptr, format!("the runtime was last patched {age} days ago (`{date}`): fixes published since are missing"))
            .severity(sev)
            .evidence("patched_on", date.to_string())
            .evidence("age_days", age)
            .evidence("kind", kind_text(ctx));
    }
}

pub(crate) const ISO006: Rule = Rule {
    id: "ISO006",
    name: "known-vulnerable-runtime",
    area: Area::Isolation,
    severity: Severity::High,
    title: "the runtime's version has a published escape",
    rationale: "Some runtime releases have published container escapes: runc before 1.1.12 (CVE-2024-21626) and before 1.2.8 / 1.3.3 (CVE-2025-31133, CVE-2025-52565, CVE-2025-52881); containerd before 1.3.9 / 1.4.3 with the host network (CVE-2020-15257); CRI-O 1.19 to 1.23 before 1.19.6 / 1.20.7 / 1.21.6 / 1.22.3 / 1.23.2 (CVE-2022-0811) and before 1.27.6 / 1.28.6 / 1.29.4 (CVE-2024-3154); crun before 0.10.5, 1.28 or 1.30 (CVE-2019-18837, CVE-2026-47766, CVE-2026-88264, CVE-2026-88265) and its krun handler before 1.20 or at 1.29 (CVE-2025-24965, CVE-2026-84042); youki before 0.5.7 (CVE-2025-62596); Kata Containers before 1.10.6 / 1.11.1 (CVE-2020-2023, CVE-2020-2025, CVE-2020-2026); Firecracker 1.13 to 1.14.3 and 1.15.0 (CVE-2026-5747). Hostile test code can use them to reach the host. Distributions sometimes backport fixes under the old version number, so a patch date after the advisory lowers the finding to medium, and the finding says that it takes the distribution's backport on trust: confirm the build carries the fix.",
    remediation: "Upgrade the runtime to a fixed release (runc 1.2.8 or 1.3.3, containerd 1.4.3, CRI-O 1.27.6, 1.28.6, 1.29.4 or 1.30, crun 1.30, youki 0.5.7, Kata 1.11.1, Firecracker 1.14.4 or 1.15.1, or later) and update `boundary.runtime.version` and `patched_on`.",
    runtime_check: None,
    check: check_known_vulnerable,
};

fn check_known_vulnerable(ctx: &Ctx<'_>, e: &mut Emitter) {
    let Some(rt) = runtime(ctx) else { return };
    let (Some(name), Some(raw)) = (declared(rt.name.as_ref()), declared(rt.version.as_ref()))
    else {
        return;
    };
    let Some(version) = parse_version(raw) else {
        return;
    };
    let patched = declared(rt.patched_on.as_ref()).and_then(Date::parse);
    let host_network = ctx
        .profile
        .boundary
        .as_ref()
        .and_then(|b| b.host_namespaces.as_deref())
        .unwrap_or(&[])
        .contains(&Some(crate::model::Namespace::Network));
    let found: Vec<&Advisory> = advisories_for(name, version, host_network).collect();
    if found.is_empty() {
        return;
    }
    // A patch date after an advisory allows for a distribution backport of
    // its fix under the old version number: that needs confirming, not
    // blocking. Without such a date the release is simply vulnerable.
    let unpatched: Vec<&&Advisory> = found
        .iter()
        .filter(|a| {
            patched.is_none_or(|p| Date::parse(a.published).is_none_or(|published| p < published))
        })
        .collect();
    let ids: Vec<&str> = found.iter().flat_map(|a| a.ids.iter().copied()).collect();
    let described: Vec<String> = unpatched
        .iter()
        .map(|a| format!("{} ({})", a.ids.join(", "), a.what))
        .collect();
    let d = if unpatched.is_empty() {
        e.emit(
            "/boundary/runtime/version",
            format!(
                "{name} `{raw}` predates the fixes for {}; it was patched after they were published, so this finding trusts the distribution to have backported them under the old version number: confirm the build carries them",
                ids.join(", ")
            ),
        )
        .severity(Severity::Medium)
    } else {
        e.emit(
            "/boundary/runtime/version",
            format!(
                "{name} `{raw}` has published escapes: {}",
                described.join("; ")
            ),
        )
    };
    d.evidence("runtime", name)
        .evidence("version", raw)
        .evidence("advisories", ids);
}

pub(crate) const ISO007: Rule = Rule {
    id: "ISO007",
    name: "label-contradicted",
    area: Area::Isolation,
    severity: Severity::High,
    title: "a reassuring label is contradicted by the settings",
    rationale: "A label such as `hardened` or `sandboxed` describes how an image was packaged, not how the boundary is configured. When the settings grant what the label suggests is withheld (root, capabilities, privilege gain, host namespaces, a writable root, engine access), a reader who trusts the label is misled. Only explicitly declared settings count as contradictions.",
    remediation: "Fix the contradicting settings listed in the evidence, or change the label so it no longer promises protection the settings do not give.",
    runtime_check: None,
    check: check_label,
};

fn check_label(ctx: &Ctx<'_>, e: &mut Emitter) {
    let Some(b) = ctx.profile.boundary.as_ref() else {
        return;
    };
    let Some(label) = declared(b.label.as_ref()) else {
        return;
    };
    let words = reassuring_words(label);
    if words.is_empty() {
        return;
    }
    let found = contradictions(ctx, b);
    if found.is_empty() {
        return;
    }
    let what: Vec<&str> = found.iter().map(|(_, w)| w.as_str()).collect();
    e.emit(
        "/boundary/label",
        format!(
            "the label `{label}` promises protection that the settings do not give: {}",
            what.join("; ")
        ),
    )
    .evidence("label", label)
    .evidence("claims", words)
    .evidence(
        "contradicted_by",
        found.iter().map(|(p, _)| p.clone()).collect::<Vec<_>>(),
    );
}

pub(crate) const ISO001: Rule = Rule {
    id: "ISO001",
    name: "untrusted-code-shared-kernel",
    area: Area::Isolation,
    severity: Severity::Critical,
    title: "untrusted code runs on a kernel shared with the host",
    rationale: "Containers and plain processes share the host kernel, so one kernel or runtime bug is enough for hostile code to reach the host and every other tenant on it. Code from untrusted authors needs a boundary with its own kernel: a virtual machine, a microVM or a dedicated execution service.",
    remediation: "Run untrusted jobs in a `microvm`, `vm` or `execution-service` boundary (a `user-space-kernel` such as gVisor narrows the exposure), or keep this profile for internal code only.",
    runtime_check: None,
    check: |ctx, e| {
        if ctx.profile.tenancy != Some(Tenancy::Untrusted) || !shared_kernel(ctx) {
            return;
        }
        let message = match kind(ctx) {
            Some(BoundaryKind::Process) => "untrusted code runs as a plain `process`: only the host kernel's user separation stands between it and the host".to_string(),
            Some(k) => format!("untrusted code runs in a `{k}`, which shares the host kernel with the host and other tenants"),
            None => "untrusted code runs in an undeclared boundary, which has to be assumed to share the host kernel".to_string(),
        };
        e.emit("/boundary/kind", message).evidence("tenancy", "untrusted").evidence("kind", kind_text(ctx));
    },
};

pub(crate) const ISO002: Rule = Rule {
    id: "ISO002",
    name: "no-isolation-boundary",
    area: Area::Isolation,
    severity: Severity::High,
    title: "the job has no isolation boundary, or none is declared",
    rationale: "A plain process sees the host's files, processes and network with its user's rights; only a declared boundary gives the other settings (capabilities, namespaces, mounts) something to apply to. An undeclared kind is whatever the runner does by default.",
    remediation: "Declare `boundary.kind`: at least `container` for internal code, a VM-backed kind for untrusted code.",
    runtime_check: None,
    check: |ctx, e| {
        // Untrusted code on a shared kernel is the worse fact, reported by ISO001.
        if ctx.profile.tenancy == Some(Tenancy::Untrusted) {
            return;
        }
        match (ctx.profile.boundary.as_ref(), kind(ctx)) {
            (_, Some(BoundaryKind::Process)) => {
                e.emit("/boundary/kind", "the job runs as a plain `process`, with no isolation boundary around it").evidence("kind", "process");
            }
            (_, Some(_)) => {}
            (None, None) => {
                e.emit("/boundary/kind", "no boundary is declared: nothing says what isolates the job").evidence("declared", false);
            }
            (Some(_), None) => {
                e.emit("/boundary/kind", "the boundary's kind is not declared: the runner's default decides what isolates the job")
                    .evidence("declared", false);
            }
        }
    },
};

pub(crate) const ISO003: Rule = Rule {
    id: "ISO003",
    name: "tenancy-not-declared",
    area: Area::Isolation,
    severity: Severity::Medium,
    title: "the profile does not say who wrote the code it runs",
    rationale: "Which boundary is adequate depends on who wrote the code: a hardened container may do for internal code, untrusted multi-tenant code needs its own kernel. Without `tenancy` the audit cannot tell which standard applies.",
    remediation: "Set `tenancy` to `internal` or `untrusted`; code written by an agent from an untrusted prompt or repository is `untrusted`.",
    runtime_check: None,
    check: |ctx, e| {
        if ctx.profile.tenancy.is_none() && !ctx.present("/tenancy") {
            e.emit("/tenancy", "tenancy is not declared: the audit cannot tell whether this boundary suits the code's authors").evidence("declared", false);
        }
    },
};

pub const RULES: &[&Rule] = &[
    &ISO001, &ISO002, &ISO003, &ISO004, &ISO005, &ISO006, &ISO007, &ISO008,
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_compare_numerically_with_prereleases_first() {
        let p = |s| parse_version(s).unwrap();
        assert!(p("1.1.0") < p("1.1.12"));
        assert!(p("1.1.9") < p("1.1.12"));
        assert!(p("v1.2.4") < v(1, 2, 8));
        assert!(p("1.0.0-rc92") < p("1.0.0"));
        assert!(p("1.0.0-rc6") < p("1.0.0-rc7"));
        assert!(p("1.0-rc6") < rc(1, 0, 0, 7));
        assert!(p("1.4.0-rc.2") < rc(1, 4, 0, 3));
        assert_eq!(p("1.1.12-0ubuntu3"), v(1, 1, 12));
        assert_eq!(p("1.1.5+ds1"), v(1, 1, 5));
        assert_eq!(p("2"), v(2, 0, 0));
        assert!(parse_version("latest").is_none());
        assert!(parse_version("").is_none());
    }

    #[test]
    fn runc_advisories_by_version() {
        let ids = |ver: &str| -> Vec<&str> {
            advisories_for("runc", parse_version(ver).unwrap(), false)
                .flat_map(|a| a.ids.iter().copied())
                .collect()
        };
        assert_eq!(
            ids("1.1.0"),
            [
                "CVE-2024-21626",
                "CVE-2025-31133",
                "CVE-2025-52565",
                "CVE-2025-52881"
            ]
        );
        assert_eq!(
            ids("1.1.12"),
            ["CVE-2025-31133", "CVE-2025-52565", "CVE-2025-52881"]
        );
        assert_eq!(ids("1.0.0-rc6").first(), Some(&"CVE-2019-5736"));
        assert!(ids("1.2.8").is_empty());
        assert_eq!(ids("1.3.2").len(), 3);
        assert!(ids("1.3.3").is_empty());
        assert_eq!(ids("1.4.0-rc.2").len(), 3);
        assert!(ids("1.4.0").is_empty());
        assert!(advisories_for("runsc", v(1, 0, 0), false).next().is_none());
        assert_eq!(advisories_for(" RUNC ", v(1, 1, 0), false).count(), 2);
    }

    /// Each runtime's rows below, at and above every fixed release, from
    /// the advisories themselves (the fixed tags checked in each
    /// project's repository).
    #[test]
    fn advisories_by_runtime_and_version() {
        let ids = |name: &str, ver: &str| -> Vec<&str> {
            let mut out: Vec<&str> = advisories_for(name, parse_version(ver).unwrap(), false)
                .flat_map(|a| a.ids.iter().copied())
                .collect();
            out.sort_unstable();
            out
        };
        const CRUN_DEV: [&str; 2] = ["CVE-2026-88264", "CVE-2026-88265"];
        let table: &[(&str, &str, &[&str])] = &[
            // crun: NEWS and the GHSA / CVE records.
            (
                "crun",
                "0.10.4",
                &[
                    "CVE-2019-18837",
                    "CVE-2026-47766",
                    "CVE-2026-88264",
                    "CVE-2026-88265",
                ],
            ),
            (
                "crun",
                "0.10.5",
                &["CVE-2026-47766", "CVE-2026-88264", "CVE-2026-88265"],
            ),
            (
                "crun",
                "1.27.1",
                &["CVE-2026-47766", "CVE-2026-88264", "CVE-2026-88265"],
            ),
            ("crun", "1.28", &CRUN_DEV),
            ("crun", "1.29.1", &CRUN_DEV),
            ("/usr/bin/crun", "1.29.1", &CRUN_DEV),
            ("crun", "1.30", &[]),
            ("crun", "1.31", &[]),
            // crun's krun handler: crun's own rows and its handler's.
            (
                "krun",
                "1.19.1",
                &[
                    "CVE-2025-24965",
                    "CVE-2026-47766",
                    "CVE-2026-88264",
                    "CVE-2026-88265",
                ],
            ),
            (
                "krun",
                "1.20",
                &["CVE-2026-47766", "CVE-2026-88264", "CVE-2026-88265"],
            ),
            ("krun", "1.28", &CRUN_DEV),
            (
                "krun",
                "1.29",
                &["CVE-2026-84042", "CVE-2026-88264", "CVE-2026-88265"],
            ),
            (
                "krun",
                "1.29.1",
                &["CVE-2026-84042", "CVE-2026-88264", "CVE-2026-88265"],
            ),
            ("krun", "1.30", &[]),
            (
                "crun",
                "1.19.1",
                &["CVE-2026-47766", "CVE-2026-88264", "CVE-2026-88265"],
            ),
            ("crun", "1.29", &CRUN_DEV),
            // youki: GHSA-vf95-55w6-qmrf, fixed in 0.5.7.
            ("youki", "0.3.1", &["CVE-2025-62596"]),
            ("youki", "0.5.6", &["CVE-2025-62596"]),
            ("youki", "v0.5.7", &[]),
            ("youki", "0.6.0", &[]),
            // CRI-O: GHSA-6x2m-w449-qwx7 per branch (1.19 introduced pinns
            // sysctls), GHSA-2cgq-h8xw-2v5j per branch.
            ("cri-o", "1.18.6", &["CVE-2024-3154"]),
            ("cri-o", "1.19.0", &["CVE-2022-0811", "CVE-2024-3154"]),
            ("cri-o", "1.19.5", &["CVE-2022-0811", "CVE-2024-3154"]),
            ("cri-o", "1.19.6", &["CVE-2024-3154"]),
            ("cri-o", "1.20.6", &["CVE-2022-0811", "CVE-2024-3154"]),
            ("crio", "1.20.7", &["CVE-2024-3154"]),
            ("cri-o", "1.21.5", &["CVE-2022-0811", "CVE-2024-3154"]),
            ("cri-o", "1.21.6", &["CVE-2024-3154"]),
            ("cri-o", "1.22.2", &["CVE-2022-0811", "CVE-2024-3154"]),
            ("cri-o", "1.22.3", &["CVE-2024-3154"]),
            ("cri-o", "1.23.1", &["CVE-2022-0811", "CVE-2024-3154"]),
            ("cri-o", "1.23.2", &["CVE-2024-3154"]),
            ("cri-o", "1.24.0", &["CVE-2024-3154"]),
            ("cri-o", "1.27.5", &["CVE-2024-3154"]),
            ("cri-o", "1.27.6", &[]),
            ("cri-o", "1.28.0", &["CVE-2024-3154"]),
            ("cri-o", "1.28.5", &["CVE-2024-3154"]),
            ("cri-o", "1.28.6", &[]),
            ("cri-o", "1.29.3", &["CVE-2024-3154"]),
            ("cri-o", "1.29.4", &[]),
            ("cri-o", "1.30.0", &[]),
            // gVisor: no published advisory of an escape to the host with
            // affected and fixed releases; nothing is claimed.
            ("runsc", "20180101.0", &[]),
        ];
        let mut wrong = 0;
        for (name, ver, want) in table {
            let got = ids(name, ver);
            if got != *want {
                wrong += 1;
                eprintln!("{name} {ver}: got {got:?}, want {want:?}");
            }
        }
        assert_eq!(wrong, 0, "{wrong} of {} rows wrong", table.len());
    }

    /// (rule, severity, pointer) of this area's findings.
    fn findings(profile: &str, today: Option<&str>) -> Vec<(&'static str, Severity, String)> {
        super::super::area_findings(profile, Area::Isolation, today)
    }

    const TODAY: Option<&str> = Some("2026-11-29");

    fn fixed_with(from: &str, to: &str) -> String {
        assert!(crate::WORKSHOP_PROFILE_FIXED.contains(from), "{from}");
        crate::WORKSHOP_PROFILE_FIXED.replace(from, to)
    }

    #[test]
    fn workshop_profiles() {
        let s = |r: &'static str, sev, p: &str| (r, sev, p.to_string());
        assert_eq!(
            findings(crate::WORKSHOP_PROFILE, TODAY),
            [
                s("ISO007", Severity::High, "/boundary/label"),
                s("ISO005", Severity::High, "/boundary/runtime/patched_on"),
                s("ISO006", Severity::High, "/boundary/runtime/version"),
            ]
        );
        // runc 1.2.4 patched after the 2025 advisories: a backport to confirm.
        assert_eq!(
            findings(crate::WORKSHOP_PROFILE_FIXED, TODAY),
            [s("ISO006", Severity::Medium, "/boundary/runtime/version")]
        );
    }

    #[test]
    fn patch_dates_by_age_and_kind() {
        let at = |date: &str, kind: &str| {
            let p = fixed_with(
                r#""patched_on": "2026-10-01""#,
                &format!(r#""patched_on": "{date}""#),
            )
            .replace(r#""version": "1.2.4""#, r#""version": "1.3.3""#)
            .replace(r#""kind": "container""#, &format!(r#""kind": "{kind}""#));
            // A microvm needs a VM runtime; `microvm+runc` keeps runc.
            let p = match kind.split_once('+') {
                Some((k, rt)) => p
                    .replace(
                        &format!(r#""kind": "{kind}""#),
                        &format!(r#""kind": "{k}""#),
                    )
                    .replace(r#""name": "runc""#, &format!(r#""name": "{rt}""#)),
                None if kind == "microvm" => {
                    p.replace(r#""name": "runc""#, r#""name": "firecracker""#)
                }
                None => p,
            };
            findings(&p, TODAY)
                .into_iter()
                .filter(|f| f.0 == "ISO005")
                .map(|f| f.1)
                .collect::<Vec<_>>()
        };
        assert_eq!(at("2026-06-02", "container"), []); // 180 days
        assert_eq!(at("2026-06-01", "container"), [Severity::Medium]);
        assert_eq!(at("2025-11-28", "container"), [Severity::High]); // 366 days
        assert_eq!(at("2025-11-28", "microvm"), [Severity::Medium]);
        // runc shares the host's kernel whatever the kind says.
        assert_eq!(at("2025-11-28", "microvm+runc"), [Severity::High]);
        assert_eq!(at("2026-11-30", "microvm"), [Severity::High]); // in the future
        assert_eq!(at("2026-02-30", "container"), [Severity::High]); // no such day
                                                                     // Without a date to compare with, only presence and form are checked.
        let p = fixed_with(
            r#""patched_on": "2026-10-01""#,
            r#""patched_on": "2020-01-01""#,
        );
        assert!(findings(&p, None).iter().all(|f| f.0 != "ISO005"));
    }

    #[test]
    fn untrusted_code_needs_its_own_kernel() {
        let untrusted = fixed_with(r#""tenancy": "internal""#, r#""tenancy": "untrusted""#);
        let f = findings(&untrusted, TODAY);
        assert!(f.contains(&("ISO001", Severity::Critical, "/boundary/kind".to_string())));
        let process = untrusted.replace(r#""kind": "container""#, r#""kind": "process""#);
        let rules: Vec<&str> = findings(&process, TODAY).iter().map(|f| f.0).collect();
        assert!(
            rules.contains(&"ISO001") && !rules.contains(&"ISO002"),
            "one fact, one rule: {rules:?}"
        );
        let internal_process = fixed_with(r#""kind": "container""#, r#""kind": "process""#);
        let f = findings(&internal_process, TODAY);
        assert!(f.contains(&("ISO002", Severity::High, "/boundary/kind".to_string())));
        assert!(
            f.contains(&("ISO007", Severity::High, "/boundary/label".to_string())),
            "a hardened plain process"
        );
        let vm = untrusted.replace(r#""kind": "container""#, r#""kind": "vm""#);
        assert!(findings(&vm, TODAY).iter().all(|f| f.0 != "ISO001"));
    }

    #[test]
    fn runtime_identity() {
        let f = findings(
            &fixed_with(r#""name": "runc", "version": "1.2.4", "#, ""),
            TODAY,
        );
        let got: Vec<(&str, &str)> = f.iter().map(|(r, _, p)| (*r, p.as_str())).collect();
        assert_eq!(
            got,
            [
                ("ISO004", "/boundary/runtime/name"),
                ("ISO004", "/boundary/runtime/version")
            ]
        );
        let f = findings(
            &fixed_with(r#""version": "1.2.4""#, r#""version": "latest""#),
            TODAY,
        );
        assert_eq!(
            f,
            [(
                "ISO004",
                Severity::Low,
                "/boundary/runtime/version".to_string()
            )]
        );
    }

    #[test]
    fn runtime_names_and_aliases_by_family() {
        use Family::{SharedKernel as C, UserSpaceKernel as U, Vm as V};
        let table: &[(&str, Option<Family>)] = &[
            ("runc", Some(C)),
            ("RunC", Some(C)),
            (" crun ", Some(C)),
            ("youki", Some(C)),
            ("/usr/bin/runc", Some(C)),
            ("/usr/local/sbin/crun", Some(C)),
            ("containerd-shim-runc-v2", Some(C)),
            ("containerd-shim-runc-v1", Some(C)),
            ("io.containerd.runc.v2", Some(C)),
            ("io.containerd.runc.v1", Some(C)),
            ("sysbox-runc", Some(C)),
            ("nvidia-container-runtime", Some(C)),
            ("bwrap", Some(C)),
            ("nsjail", Some(C)),
            ("runsc", Some(U)),
            ("gVisor", Some(U)),
            ("io.containerd.runsc.v1", Some(U)),
            ("containerd-shim-runsc-v1", Some(U)),
            ("/usr/local/bin/runsc", Some(U)),
            ("firecracker", Some(V)),
            ("Firecracker", Some(V)),
            ("firecracker-containerd", Some(V)),
            ("cloud-hypervisor", Some(V)),
            ("kata", Some(V)),
            ("kata-runtime", Some(V)),
            ("kata-qemu", Some(V)),
            ("kata-fc", Some(V)),
            ("kata-clh", Some(V)),
            ("kata-dragonball", Some(V)),
            ("io.containerd.kata.v2", Some(V)),
            ("containerd-shim-kata-v2", Some(V)),
            ("io.containerd.kata-qemu.v2", Some(V)),
            ("qemu", Some(V)),
            ("qemu-system-x86_64", Some(V)),
            ("qemu-kvm", Some(V)),
            ("crosvm", Some(V)),
            ("libkrun", Some(V)),
            // engines and unknown names claim nothing
            ("docker", None),
            ("podman", None),
            ("containerd", None),
            ("cri-o", None),
            ("", None),
            ("runcx", None),
            ("katana", None),
        ];
        assert!(table.len() >= 40);
        for (name, want) in table {
            assert_eq!(runtime_family(name), *want, "{name:?}");
        }
    }

    #[test]
    fn labels_that_name_a_boundary() {
        use Family::{UserSpaceKernel as U, Vm as V};
        for (label, want) in [
            ("microvm", Some(V)),
            ("Firecracker microVM", Some(V)),
            ("kata isolated", Some(V)),
            ("micro-vm sandbox", Some(V)),
            ("a separate virtual machine", Some(V)),
            ("gVisor sandbox", Some(U)),
            ("runsc", Some(U)),
            ("hardened", None),
            ("hardened container", None),
            ("jvm tests", None),
            ("python 3.12 slim", None),
        ] {
            assert_eq!(label_family(label), want, "{label}");
        }
    }

    /// (kind, runtime, label, tenancy) → ISO008's (severity, pointer)s.
    #[test]
    fn kind_runtime_and_label_must_agree() {
        let s = |sev, p: &str| (sev, p.to_string());
        let k = "/boundary/kind";
        let l = "/boundary/label";
        type Expected = Vec<(Severity, String)>;
        let table: &[(&str, &str, &str, &str, Expected)] = &[
            ("container", "runc", "hardened", "internal", vec![]),
            ("container", "crun", "hardened", "untrusted", vec![]),
            ("process", "bwrap", "hardened", "internal", vec![]),
            (
                "microvm",
                "firecracker",
                "firecracker microvm",
                "untrusted",
                vec![],
            ),
            ("vm", "qemu", "hardened", "untrusted", vec![]),
            ("microvm", "kata-fc", "kata", "untrusted", vec![]),
            ("user-space-kernel", "runsc", "gvisor", "untrusted", vec![]),
            (
                "execution-service",
                "firecracker",
                "hardened",
                "untrusted",
                vec![],
            ),
            (
                "execution-service",
                "runsc",
                "hardened",
                "untrusted",
                vec![],
            ),
            ("microvm", "docker", "hardened", "untrusted", vec![]),
            // the issue's profile: a microvm run by runc
            (
                "microvm",
                "runc",
                "hardened",
                "untrusted",
                vec![s(Severity::Critical, k)],
            ),
            (
                "microvm",
                "runc",
                "hardened",
                "internal",
                vec![s(Severity::High, k)],
            ),
            (
                "vm",
                "youki",
                "hardened",
                "internal",
                vec![s(Severity::High, k)],
            ),
            (
                "microvm",
                "runsc",
                "hardened",
                "untrusted",
                vec![s(Severity::Critical, k)],
            ),
            (
                "user-space-kernel",
                "io.containerd.runc.v2",
                "hardened",
                "internal",
                vec![s(Severity::High, k)],
            ),
            (
                "execution-service",
                "runc",
                "hardened",
                "untrusted",
                vec![s(Severity::Critical, k)],
            ),
            // understated: the audit judged the weaker kind
            (
                "container",
                "kata-runtime",
                "hardened",
                "internal",
                vec![s(Severity::Medium, k)],
            ),
            (
                "container",
                "runsc",
                "hardened",
                "internal",
                vec![s(Severity::Medium, k)],
            ),
            (
                "user-space-kernel",
                "firecracker",
                "hardened",
                "internal",
                vec![s(Severity::Medium, k)],
            ),
            // labels against the runtime, or the kind when no runtime is known
            (
                "container",
                "runc",
                "firecracker microvm",
                "internal",
                vec![s(Severity::High, l)],
            ),
            (
                "container",
                "docker",
                "gvisor sandbox",
                "internal",
                vec![s(Severity::High, l)],
            ),
            (
                "microvm",
                "firecracker",
                "gvisor",
                "internal",
                vec![s(Severity::Medium, l)],
            ),
            (
                "microvm",
                "runc",
                "microvm",
                "internal",
                vec![s(Severity::High, k), s(Severity::High, l)],
            ),
        ];
        for (kind, rt, label, tenancy, want) in table {
            let p = fixed_with(r#""kind": "container""#, &format!(r#""kind": "{kind}""#))
                .replace(r#""name": "runc""#, &format!(r#""name": "{rt}""#))
                .replace(r#""label": "hardened""#, &format!(r#""label": "{label}""#))
                .replace(
                    r#""tenancy": "internal""#,
                    &format!(r#""tenancy": "{tenancy}""#),
                );
            let got: Vec<(Severity, String)> = findings(&p, TODAY)
                .into_iter()
                .filter(|f| f.0 == "ISO008")
                .map(|f| (f.1, f.2))
                .collect();
            assert_eq!(&got, want, "{kind} / {rt} / {label} / {tenancy}");
        }
    }

    #[test]
    fn reassuring_words_are_whole_words() {
        assert_eq!(reassuring_words("hardened"), ["hardened"]);
        assert_eq!(reassuring_words("Locked-Down python"), ["locked"]);
        assert_eq!(reassuring_words("non-root image"), ["non-root"]);
        assert_eq!(reassuring_words("secure_sandbox v2"), ["secure", "sandbox"]);
        assert!(reassuring_words("unsafe debug image").is_empty());
        assert!(reassuring_words("untrusted").is_empty());
        assert!(reassuring_words("python 3.12 slim").is_empty());
    }
}
