//! Rules of the `privileges` area: what authority over the host the job
//! holds. The lesson asks for a job without administrative host authority:
//! no privileged mode, no extra capabilities, no root, no way to gain
//! privileges later, no host namespaces, a syscall filter, a read-only root
//! and no container-engine socket.

use super::{Ctx, Rule};
use crate::finding::{Area, CheckKind, Severity};
use crate::json::escape_token;
use crate::labels::LabelClass;
use crate::model::{Boundary, BoundaryKind, Capabilities, Namespace, Seccomp, StringEnum};

/// The boundary section, or an empty one when it is not declared.
fn boundary<'a>(ctx: &'a Ctx<'_>) -> &'a Boundary {
    static EMPTY: Boundary = Boundary {
        kind: None,
        label: None,
        runtime: None,
        privileged: None,
        capabilities: None,
        user: None,
        no_new_privileges: None,
        host_namespaces: None,
        seccomp: None,
        read_only_root: None,
        terminal: None,
        masked_paths: None,
        unmasked_paths: None,
        unix_sockets: None,
        apparmor: None,
        selinux: None,
        devices: None,
        shares_pid_with: None,
        sysctls: None,
        oom_score_adj: None,
        oom_kill_disable: None,
        groups: None,
    };
    ctx.profile.boundary.as_ref().unwrap_or(&EMPTY)
}

/// Whether the job has no image to take a default user from: a process
/// sandbox, or a bubblewrap root, declared without one.
fn runs_without_image(ctx: &Ctx<'_>) -> bool {
    let b = boundary(ctx);
    let no_image = ctx
        .profile
        .dependencies
        .as_ref()
        .is_none_or(|d| d.image.is_none());
    let runtime = b
        .runtime
        .as_ref()
        .and_then(|r| r.name.as_deref())
        .map(str::to_ascii_lowercase);
    no_image
        && (b.kind == Some(BoundaryKind::Process)
            || matches!(runtime.as_deref(), Some("bwrap" | "bubblewrap")))
}

/// A capability name as the kernel spells it without its prefix:
/// `cap_sys_admin`, `CAP_SYS_ADMIN` and `sys_admin` are all `SYS_ADMIN`.
pub(super) fn capability_name(raw: &str) -> String {
    let up = raw.trim().to_ascii_uppercase();
    match up.strip_prefix("CAP_") {
        Some(rest) => rest.to_string(),
        None => up,
    }
}

/// Capabilities that by themselves hand the job the host (or its secrets):
/// kernel modules, raw devices, mount and namespace administration, reading
/// any file by handle, tracing other processes, loading kernel programs,
/// switching off the mandatory access control.
/// The set `runc spec` writes: signals to the job's own processes, audit
/// records, ports below 1024 in the job's network namespace.
const MINIMAL_CAPABILITIES: &[&str] = &["AUDIT_WRITE", "KILL", "NET_BIND_SERVICE"];

const HOST_CAPABILITIES: &[&str] = &[
    "ALL",
    "SYS_ADMIN",
    "SYS_MODULE",
    "SYS_RAWIO",
    "SYS_PTRACE",
    "DAC_READ_SEARCH",
    "BPF",
    "PERFMON",
    "MAC_ADMIN",
    "MAC_OVERRIDE",
];

/// Whether the drop list removes every capability.
pub(super) fn drops_all(caps: Option<&Capabilities>) -> bool {
    caps.and_then(|c| c.drop.as_ref())
        .is_some_and(|d| d.iter().any(|c| capability_name(c) == "ALL"))
}

/// How a `user` value relates to root.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum UserKind {
    /// uid 0 (`root`, `0`, `0:0`, `root:root`) or a Windows administrator.
    Root,
    /// A non-root user whose primary group is root (`1000:0`).
    RootGroup,
    Unprivileged,
}

/// Classify a declared `user` (`NAME|UID[:GROUP|GID]`). An empty value is
/// `None`: the image default applies, as when the field is absent.
///
/// runc, Docker and Compose read each side with Go's `strconv.Atoi`, which
/// accepts a sign and leading zeros (`+0`, `-0` and `000` are uid 0), and
/// otherwise look the text up in the image's passwd file. Only a plain decimal
/// or a well-formed name has one reading here; anything else (a sign,
/// whitespace, a second colon, a name no passwd file can hold) is ambiguous,
/// and an ambiguous user is treated as root.
pub(super) fn user_kind(user: &str) -> Option<UserKind> {
    if user.trim().is_empty() {
        return None;
    }
    let (name, group) = match user.split_once(':') {
        Some((n, g)) => (n, Some(g)),
        None => (user, None),
    };
    if name.is_empty() {
        // `:1000` names only a group: the image's default user applies.
        return match group.map(user_part) {
            Some(UserPart::Other) | None => None,
            Some(_) => Some(UserKind::Root),
        };
    }
    if user_part(name) != UserPart::Other
        || name.eq_ignore_ascii_case("ContainerAdministrator")
        || name.eq_ignore_ascii_case("NT AUTHORITY\\SYSTEM")
    {
        return Some(UserKind::Root);
    }
    Some(match group {
        Some("") | None => UserKind::Unprivileged,
        Some(g) if user_part(g) == UserPart::Other => UserKind::Unprivileged,
        Some(_) => UserKind::RootGroup,
    })
}

/// One side of a `user` value, as a runtime reads it.
#[derive(Debug, PartialEq, Eq)]
enum UserPart {
    /// Id 0, or the name `root`.
    Zero,
    /// More than one reading, or none: a sign, whitespace, a second colon.
    Ambiguous,
    /// A non-zero decimal id or a well-formed name other than `root`.
    Other,
}

fn user_part(s: &str) -> UserPart {
    if !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()) {
        // Past `u32` Atoi fails and the text becomes a name no passwd holds.
        return match s.parse::<u32>() {
            Ok(0) => UserPart::Zero,
            Ok(_) => UserPart::Other,
            Err(_) if s.bytes().all(|b| b == b'0') => UserPart::Zero,
            Err(_) => UserPart::Ambiguous,
        };
    }
    if s.eq_ignore_ascii_case("root") {
        // Case matters to passwd, so `ROOT` matches nothing there; read it as
        // root rather than guess which image tolerates it.
        return UserPart::Zero;
    }
    // A portable user name (POSIX, shadow's useradd): a letter or `_` first,
    // then letters, digits, `_`, `.`, `-`, and an optional final `$`.
    let body = s.strip_suffix('$').unwrap_or(s);
    let well_formed = body
        .bytes()
        .next()
        .is_some_and(|b| b.is_ascii_alphabetic() || b == b'_')
        && body
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'-'));
    if well_formed {
        UserPart::Other
    } else {
        UserPart::Ambiguous
    }
}

/// Where the container engine is reachable from the job.
pub(super) struct EngineAccess {
    /// The most specific field of the route.
    pub pointer: String,
    /// The mount (`/mounts/N`) or variable it comes from.
    pub via: String,
    /// The socket or endpoint, as far as it is safe to show.
    pub endpoint: String,
    pub severity: Severity,
    pub message: String,
}

/// Variables that point engine clients at an engine.
const ENGINE_VARIABLES: &[&str] = &[
    "DOCKER_HOST",
    "CONTAINER_HOST",
    "CONTAINERD_ADDRESS",
    "BUILDKIT_HOST",
];

/// Every way the profile gives the job a container engine: a mount of an
/// engine socket (or of a directory that holds one), or a variable that
/// names an engine endpoint.
pub(super) fn engine_access(ctx: &Ctx<'_>) -> Vec<EngineAccess> {
    let mut out = Vec::new();
    for v in ctx.mounts {
        let Some(c) = &v.class else { continue };
        let direct = c
            .matched
            .as_ref()
            .filter(|m| m.class == LabelClass::ContainerEngineSocket)
            .map(|m| m.path.clone());
        let exposed = c
            .exposes
            .iter()
            .find(|e| {
                e.class == LabelClass::ContainerEngineSocket
                    && !v.exposed_socket_blocked(ctx, e.class)
            })
            .map(|e| e.path.clone());
        let (endpoint, how) = match (direct, exposed) {
            (Some(p), _) => (p, "mounts"),
            (None, Some(p)) => (p, "exposes"),
            (None, None) => continue,
        };
        let ro = if v.writable() {
            ""
        } else {
            "; read-only mounting does not stop a client from connecting to a socket"
        };
        out.push(EngineAccess {
            pointer: v.field("source"),
            via: v.pointer(),
            message: format!(
                "`{}` {how} the container-engine socket `{endpoint}`: whoever can talk to the engine can start a privileged container with the host's root filesystem{ro}",
                v.pointer()
            ),
            endpoint,
            severity: Severity::Critical,
        });
    }
    let vars = ctx
        .profile
        .environment
        .as_ref()
        .and_then(|e| e.variables.as_deref())
        .unwrap_or(&[]);
    for (name, value) in vars {
        if !ENGINE_VARIABLES.contains(&name.as_str()) {
            continue;
        }
        let v = value.trim();
        let scheme = v.split_once("://").map(|(s, _)| s.to_ascii_lowercase());
        let local = matches!(scheme.as_deref(), Some("unix" | "npipe"))
            || v.starts_with('/')
            || v.ends_with(".sock");
        let (severity, endpoint, what) = if local {
            let path = v.split_once("://").map_or(v, |(_, p)| p);
            (
                Severity::Critical,
                path.to_string(),
                "a local container-engine socket",
            )
        } else {
            // A remote engine: do not echo the address, it may carry a user name.
            let shown =
                scheme.map_or_else(|| "endpoint".to_string(), |s| format!("{s}:// endpoint"));
            (Severity::High, shown, "a container engine over the network")
        };
        out.push(EngineAccess {
            pointer: format!("/environment/variables/{}", escape_token(name)),
            via: name.clone(),
            message: format!(
                "`{name}` points the job at {what}, which can start containers with host access"
            ),
            endpoint,
            severity,
        });
    }
    out
}

fn namespace_severity(ns: Namespace) -> (Severity, &'static str) {
    match ns {
        Namespace::Pid => (Severity::Critical, "the job sees and can signal host processes, and read their environments and command lines"),
        Namespace::Network => (Severity::Critical, "the job uses the host's network stack: services bound to the host's loopback become reachable and network policy is bypassed"),
        Namespace::Mount => (Severity::Critical, "the job sees the host's mount table and file systems"),
        Namespace::User => (Severity::High, "uid 0 in the job is uid 0 on the host"),
        Namespace::Ipc => (Severity::High, "the job can attach to the host's shared memory and message queues"),
        Namespace::Uts => (Severity::Medium, "the job shares the host's name and, with enough privilege, can change it"),
        Namespace::Cgroup => (Severity::Medium, "the job sees the host's cgroup tree: where cgroupfs is writable (or cgroup v1's `release_agent` is reachable) it can change limits outside its own group and run code on the host"),
    }
}

pub(crate) const PRV001: Rule = Rule {
    id: "PRV001",
    name: "privileged-mode",
    area: Area::Privileges,
    severity: Severity::Critical,
    title: "the job runs in privileged mode, or the profile does not say",
    rationale: "Privileged mode gives the job every capability, every host device and no syscall filter or security profile: code in it can mount the host's disks or load kernel modules. Test code, and anything it imports, gets that authority too.",
    remediation: "Set `boundary.privileged` to `false` and grant nothing beyond what the job needs; declare it explicitly so the runner's default cannot decide.",
    runtime_check: Some(CheckKind::ReadDenied),
    check: |ctx, e| match boundary(ctx).privileged {
        Some(true) => {
            e.emit("/boundary/privileged", "the job runs privileged: it holds every capability and every host device")
                .evidence("privileged", true);
        }
        Some(false) => {}
        None => {
            e.emit("/boundary/privileged", "privileged mode is not declared: the runner's default decides")
                .severity(Severity::Medium)
                .evidence("declared", false);
        }
    },
};

pub(crate) const PRV002: Rule = Rule {
    id: "PRV002",
    name: "added-capability",
    area: Area::Privileges,
    severity: Severity::High,
    title: "the job is granted an extra Linux capability",
    rationale: "Each added capability is a slice of root's power over the kernel. Some are the host outright: `SYS_ADMIN` (mounts and namespaces), `SYS_MODULE`, `SYS_RAWIO`, `SYS_PTRACE`, `DAC_READ_SEARCH` (read any file by handle), `BPF`, `PERFMON`, the MAC ones and `ALL`; these are critical. The rest widen the kernel surface the job can attack; `NET_ADMIN`, for one, can rewrite firewall rules inside the job's network namespace.",
    remediation: "Remove the entry from `boundary.capabilities.add`; a test job needs none. If a tool insists, run that step separately with the single capability it needs.",
    runtime_check: Some(CheckKind::CapabilitiesDropped),
    check: |ctx, e| {
        let caps = boundary(ctx).capabilities.as_ref();
        let add = caps.and_then(|c| c.add.as_deref()).unwrap_or(&[]);
        // After dropping `ALL`, `add` is the whole set the job holds (an
        // OCI config lists absolute sets), not an addition to a default.
        let absolute = caps
            .and_then(|c| c.drop.as_deref())
            .is_some_and(|d| d.iter().any(|x| capability_name(x) == "ALL"));
        for (i, raw) in add.iter().enumerate() {
            let name = capability_name(raw);
            let host = HOST_CAPABILITIES.contains(&name.as_str());
            let minimal = absolute && MINIMAL_CAPABILITIES.contains(&name.as_str());
            let shown = if name.is_empty() { "(empty)".to_string() } else { name.clone() };
            let d = e.emit(
                format!("/boundary/capabilities/add/{i}"),
                if host {
                    format!("capability `{shown}` is added: it gives the job control over the host")
                } else if minimal {
                    format!("capability `{shown}` is kept after dropping `ALL`; it is in runc's minimal set and reaches only the job's own processes and ports")
                } else if absolute {
                    format!("capability `{shown}` is granted on top of an otherwise empty set")
                } else {
                    format!("capability `{shown}` is added beyond the runtime's default set")
                },
            );
            d.evidence("capability", shown);
            if host {
                d.severity(Severity::Critical);
            } else if minimal {
                d.severity(Severity::Low);
            }
        }
    },
};

pub(crate) const PRV003: Rule = Rule {
    id: "PRV003",
    name: "capabilities-not-dropped",
    area: Area::Privileges,
    severity: Severity::High,
    title: "the job keeps the runtime's default capabilities",
    rationale: "Container runtimes grant a default set of capabilities (changing file owners, bypassing file permissions, raw sockets, binding low ports and more) that a test job does not need. Unless `ALL` is dropped, that set stays, and a kernel bug reachable through one of them becomes an escape.",
    remediation: "Set `boundary.capabilities.drop` to `[\"ALL\"]`, then add back, one by one, only what the job proves it needs.",
    runtime_check: Some(CheckKind::CapabilitiesDropped),
    check: |ctx, e| {
        let caps = boundary(ctx).capabilities.as_ref();
        if drops_all(caps) {
            return;
        }
        match caps.and_then(|c| c.drop.as_ref()) {
            Some(drop) => {
                let names: Vec<String> = drop.iter().map(|c| capability_name(c)).collect();
                e.emit("/boundary/capabilities/drop", "`ALL` is not dropped: the runtime's default capabilities stay with the job")
                    .evidence("dropped", names);
            }
            None => {
                e.emit("/boundary/capabilities/drop", "dropped capabilities are not declared: the runtime's default set applies")
                    .evidence("declared", false);
            }
        }
    },
};

pub(crate) const PRV004: Rule = Rule {
    id: "PRV004",
    name: "root-user",
    area: Area::Privileges,
    severity: Severity::High,
    title: "the job runs as root, or its user is not declared",
    rationale: "Root inside the boundary owns every file the boundary can write, keeps whatever capabilities are left, and is one kernel or runtime bug away from root on the host. When no user is declared, a container gets its image's default user, which for most images is root; a process sandbox without an image (bwrap, Codex, sandbox-runtime) runs as the user who starts it, with everything that user may touch.",
    remediation: "Set `boundary.user` to an unprivileged uid and gid (for example `\"1000:1000\"`) that owns only the scratch directory.",
    runtime_check: Some(CheckKind::WriteDenied),
    check: |ctx, e| match boundary(ctx).user.as_deref().map(|u| (u, user_kind(u))) {
        Some((u, Some(UserKind::Root))) => {
            let u = u.trim();
            let message = if u == "root" { "the job runs as `root`".to_string() } else { format!("the job runs as `{u}`, which is root") };
            e.emit("/boundary/user", message).evidence("user", u);
        }
        Some((u, Some(UserKind::RootGroup))) => {
            e.emit("/boundary/user", format!("`{}` has root (gid 0) as its primary group: it can write whatever the root group can", u.trim()))
                .severity(Severity::Low)
                .evidence("user", u.trim());
        }
        Some((_, Some(UserKind::Unprivileged))) => {}
        Some((_, None)) | None => {
            let message = if runs_without_image(ctx) {
                "the user is not declared: a sandbox without an image runs as the user who starts it, with all of that user's files and groups (root, when started as root)"
            } else {
                "the user is not declared: the image's default applies, which is root for most images"
            };
            e.emit("/boundary/user", message).evidence("declared", false);
        }
    },
};

pub(crate) const PRV005: Rule = Rule {
    id: "PRV005",
    name: "new-privileges-allowed",
    area: Area::Privileges,
    severity: Severity::High,
    title: "the job can gain privileges through set-uid programs",
    rationale: "Without the no-new-privileges flag a process can gain privileges by executing a set-uid or file-capability binary present in the image. The flag closes that path for the whole process tree, whatever the test code starts.",
    remediation: "Set `boundary.no_new_privileges` to `true`.",
    runtime_check: None,
    check: |ctx, e| match boundary(ctx).no_new_privileges {
        Some(true) => {}
        Some(false) => {
            e.emit("/boundary/no_new_privileges", "`no_new_privileges` is `false`: set-uid programs can raise the job's privileges")
                .evidence("no_new_privileges", false);
        }
        None => {
            e.emit("/boundary/no_new_privileges", "`no_new_privileges` is not declared: runtimes leave it off by default")
                .evidence("declared", false);
        }
    },
};

pub(crate) const PRV006: Rule = Rule {
    id: "PRV006",
    name: "host-namespace",
    area: Area::Privileges,
    severity: Severity::High,
    title: "the job shares a namespace with the host",
    rationale: "Namespaces are what separate the job's view of processes, network, mounts and users from the host's. Sharing `pid`, `network` or `mount` hands the job a direct view into the host (critical); sharing `user` or `ipc` removes a layer an escape would otherwise need (high); sharing `uts` only exposes the host name (medium).",
    remediation: "Remove the entry from `boundary.host_namespaces`; a test job needs private namespaces.",
    runtime_check: Some(CheckKind::NamespacePrivate),
    check: |ctx, e| {
        let list = boundary(ctx).host_namespaces.as_deref().unwrap_or(&[]);
        for (i, ns) in list.iter().enumerate() {
            // An unknown entry is reported by the profile rules.
            let Some(ns) = ns else { continue };
            let (sev, why) = namespace_severity(*ns);
            e.emit(format!("/boundary/host_namespaces/{i}"), format!("the host's `{}` namespace is shared: {why}", ns.as_str()))
                .severity(sev)
                .evidence("namespace", ns.as_str());
        }
    },
};

pub(crate) const PRV007: Rule = Rule {
    id: "PRV007",
    name: "seccomp-unconfined",
    area: Area::Privileges,
    severity: Severity::High,
    title: "the job runs without a syscall filter",
    rationale: "A seccomp profile blocks the rarely needed system calls through which most kernel escapes start. Running unconfined exposes the host kernel's whole system call surface to the test code; not declaring it leaves the choice to the runner.",
    remediation: "Set `boundary.seccomp` to `default` (or to `custom` with a reviewed profile).",
    runtime_check: Some(CheckKind::SeccompFiltered),
    check: |ctx, e| match boundary(ctx).seccomp {
        Some(Seccomp::Unconfined) => {
            // Severity follows tenancy: untrusted (or unstated) code is
            // what a kernel escape would come from.
            let internal = ctx.profile.tenancy == Some(crate::model::Tenancy::Internal);
            let f = e.emit("/boundary/seccomp", "seccomp is `unconfined`: every system call reaches the kernel").evidence("seccomp", "unconfined");
            if internal {
                f.severity(Severity::Medium).evidence("tenancy", "internal");
            }
        }
        Some(_) => {}
        None => {
            e.emit("/boundary/seccomp", "seccomp is not declared: the runner's default decides whether system calls are filtered")
                .severity(Severity::Medium)
                .evidence("declared", false);
        }
    },
};

pub(crate) const PRV008: Rule = Rule {
    id: "PRV008",
    name: "writable-root-filesystem",
    area: Area::Privileges,
    severity: Severity::Medium,
    title: "the job's root filesystem is writable",
    rationale: "With a writable root the job can replace programs and libraries that later steps of the same run execute, and can write outside the declared scratch mount. A read-only root keeps every write in the mounts the profile lists.",
    remediation: "Set `boundary.read_only_root` to `true` and give the job a scratch mount (or tmpfs) for the files it must write.",
    runtime_check: Some(CheckKind::WriteDenied),
    check: |ctx, e| match boundary(ctx).read_only_root {
        Some(true) => {}
        Some(false) => {
            e.emit("/boundary/read_only_root", "the root filesystem is writable: the job can change the programs it runs").evidence("read_only_root", false);
        }
        None => {
            e.emit("/boundary/read_only_root", "a read-only root filesystem is not declared: runtimes make it writable by default")
                .evidence("declared", false);
        }
    },
};

pub(crate) const PRV009: Rule = Rule {
    id: "PRV009",
    name: "container-engine-access",
    area: Area::Privileges,
    severity: Severity::Critical,
    title: "the job can reach a container engine",
    rationale: "A container engine's API is administrative authority over the host: a client can start a privileged container that mounts the host's root filesystem. Mounting the engine socket (even read-only, since connecting to a socket is not a write to the file) or pointing `DOCKER_HOST` at it gives that authority to the test code.",
    remediation: "Remove the socket mount (or the directory mount that contains it) and the engine variable. If the job must build images, use a rootless builder in its own boundary instead.",
    runtime_check: Some(CheckKind::ReadDenied),
    check: |ctx, e| {
        // One conclusion per profile (the job holds engine authority),
        // listing every route; the mount and credential rules report
        // each route in its own area.
        let routes = engine_access(ctx);
        let Some(first) = routes.first() else { return };
        let severity = routes.iter().map(|a| a.severity).min().unwrap_or(Severity::Critical);
        let message = if routes.len() == 1 {
            first.message.clone()
        } else {
            let list: Vec<String> = routes.iter().map(|a| format!("`{}`", a.via)).collect();
            format!(
                "the job can reach a container engine by {} routes ({}): any of them can start a container with host access",
                routes.len(),
                list.join(", ")
            )
        };
        e.emit(first.pointer.clone(), message)
            .severity(severity)
            .evidence("routes", routes.iter().map(|a| a.via.clone()).collect::<Vec<_>>())
            .evidence("endpoints", routes.iter().map(|a| a.endpoint.clone()).collect::<Vec<_>>());
    },
};

pub const RULES: &[&Rule] = &[
    &PRV001, &PRV002, &PRV003, &PRV004, &PRV005, &PRV006, &PRV007, &PRV008, &PRV009,
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn capability_names_are_normalized() {
        assert_eq!(capability_name("cap_sys_admin"), "SYS_ADMIN");
        assert_eq!(capability_name(" CAP_NET_ADMIN "), "NET_ADMIN");
        assert_eq!(capability_name("all"), "ALL");
        assert_eq!(capability_name("CAPABILITY"), "CAPABILITY");
    }

    #[test]
    fn user_values() {
        for root in [
            "root",
            "0",
            "0:0",
            "root:root",
            "000",
            " 0 ",
            "0:1000",
            "ContainerAdministrator",
        ] {
            assert_eq!(user_kind(root), Some(UserKind::Root), "{root}");
        }
        // Go's `strconv.Atoi` (runc, Docker, Compose) reads all of these as
        // uid 0, or cannot read them at all: either way they are root here.
        for ambiguous in [
            "+0",
            "-0",
            "+00",
            "-000",
            "+0:0",
            "-0:1000",
            " 0",
            "0 ",
            "\t0",
            "+1000",
            "-1",
            "1000 ",
            " 1000",
            "0x0",
            "1e3",
            "١٠٠٠",
            "0\u{200b}",
            "\u{200b}",
            "ROOT",
            "Root",
            "-app",
            "app user",
            "1000:",
            "nt authority\\system",
            "99999999999999999999999",
            ":0",
            ":root",
            ":+0",
        ] {
            let kind = user_kind(ambiguous);
            assert!(
                kind == Some(UserKind::Root)
                    || (ambiguous == "1000:" && kind == Some(UserKind::Unprivileged)),
                "{ambiguous:?}: {kind:?}"
            );
        }
        for root_group in [
            "1000:0",
            "app:root",
            "1000:+0",
            "1000:-0",
            "1000: 0",
            "app:00",
            "1000:ROOT",
            "1000:0:0",
        ] {
            assert_eq!(
                user_kind(root_group),
                Some(UserKind::RootGroup),
                "{root_group:?}"
            );
        }
        for user in [
            "1000",
            "1000:1000",
            "nobody",
            "rooter",
            "10",
            "app-user",
            "_svc",
            "build.bot$",
            "0100",
        ] {
            assert_eq!(user_kind(user), Some(UserKind::Unprivileged), "{user}");
        }
        assert_eq!(user_kind(""), None);
        assert_eq!(user_kind("  "), None);
        assert_eq!(user_kind(":1000"), None);
    }

    /// (rule, severity, pointer) of this area's findings.
    fn findings(profile: &str) -> Vec<(&'static str, Severity, String)> {
        super::super::area_findings(profile, Area::Privileges, Some("2026-11-29"))
    }

    fn boundary_of(fields: &str) -> String {
        let fixed = crate::WORKSHOP_PROFILE_FIXED;
        let start = fixed.find("\"boundary\"").unwrap();
        let end = start + fixed[start..].find("\n  },").unwrap() + 4;
        format!(
            "{}\"boundary\": {{ {fields} }}{}",
            &fixed[..start],
            &fixed[end..]
        )
    }

    #[test]
    fn workshop_profiles() {
        let s = |r: &'static str, sev, p: &str| (r, sev, p.to_string());
        assert_eq!(
            findings(crate::WORKSHOP_PROFILE),
            [
                s("PRV002", Severity::High, "/boundary/capabilities/add/0"),
                s("PRV003", Severity::High, "/boundary/capabilities/drop"),
                s("PRV005", Severity::High, "/boundary/no_new_privileges"),
                s("PRV008", Severity::Medium, "/boundary/read_only_root"),
                s("PRV004", Severity::High, "/boundary/user"),
                s("PRV009", Severity::Critical, "/mounts/3/source"),
            ]
        );
        assert_eq!(findings(crate::WORKSHOP_PROFILE_FIXED), []);
    }

    /// PRV004's wording for an undeclared user follows where the user
    /// would come from: an image, or the caller of an image-less sandbox.
    #[test]
    fn an_undeclared_user_is_described_by_where_it_comes_from() {
        let cases = [
            (
                r#""kind": "process""#,
                false,
                "runs as the user who starts it",
            ),
            (
                r#""kind": "container", "runtime": {"name": "bubblewrap"}"#,
                false,
                "runs as the user who starts it",
            ),
            (r#""kind": "container""#, false, "image's default"),
            (r#""kind": "process""#, true, "image's default"),
        ];
        for (b, image, want) in cases {
            let mut v: serde_json::Value = serde_json::from_str(&boundary_of(b)).unwrap();
            let deps = v["dependencies"].as_object_mut().unwrap();
            if image {
                deps.insert("image".into(), "registry.example/x@sha256:00".into());
            } else {
                deps.remove("image");
            }
            let p = v.to_string();
            let r = crate::audit(
                p.as_bytes(),
                "t.json",
                &crate::Labels::workshop(),
                &crate::AuditOptions::default(),
            )
            .unwrap();
            let f = r
                .issues
                .iter()
                .find(|f| f.rule == "PRV004")
                .unwrap_or_else(|| panic!("{b}: no PRV004"));
            assert!(f.message.contains(want), "{b} image={image}: {}", f.message);
        }
    }

    #[test]
    fn an_undeclared_boundary_is_reported_field_by_field() {
        let f = findings(&boundary_of(r#""kind": "container""#));
        let got: Vec<(&str, Severity)> = f.iter().map(|(r, s, _)| (*r, *s)).collect();
        assert_eq!(
            got,
            [
                ("PRV003", Severity::High),
                ("PRV005", Severity::High),
                ("PRV001", Severity::Medium),
                ("PRV008", Severity::Medium),
                ("PRV007", Severity::Medium),
                ("PRV004", Severity::High),
            ]
        );
    }

    #[test]
    fn worst_capabilities_and_namespaces_are_critical() {
        let f = findings(&boundary_of(
            r#""kind": "container", "privileged": false, "capabilities": {"add": ["SYS_ADMIN", "chown", "Cap_Sys_Ptrace"], "drop": ["ALL"]},
               "user": "1000", "no_new_privileges": true, "seccomp": "default", "read_only_root": true,
               "host_namespaces": ["network", "ipc", "uts"]"#,
        ));
        let got: Vec<(&str, Severity, &str)> =
            f.iter().map(|(r, s, p)| (*r, *s, p.as_str())).collect();
        assert_eq!(
            got,
            [
                ("PRV002", Severity::Critical, "/boundary/capabilities/add/0"),
                ("PRV002", Severity::High, "/boundary/capabilities/add/1"),
                ("PRV002", Severity::Critical, "/boundary/capabilities/add/2"),
                ("PRV006", Severity::Critical, "/boundary/host_namespaces/0"),
                ("PRV006", Severity::High, "/boundary/host_namespaces/1"),
                ("PRV006", Severity::Medium, "/boundary/host_namespaces/2"),
            ]
        );
    }

    /// After `drop: ["ALL"]` the added list is the whole set: runc's own
    /// minimal set is low, anything else is still reported; without the
    /// drop, the same names are additions to the runtime's default.
    #[test]
    fn an_absolute_set_is_not_an_addition() {
        let caps = |c: &str| {
            let f = findings(&boundary_of(&format!(
                r#""kind": "container", "privileged": false, "capabilities": {c},
                   "user": "1000", "no_new_privileges": true, "seccomp": "default", "read_only_root": true,
                   "host_namespaces": []"#
            )));
            f.into_iter()
                .filter(|(r, _, _)| *r == "PRV002")
                .map(|(_, s, _)| s)
                .collect::<Vec<_>>()
        };
        assert_eq!(
            caps(
                r#"{"add": ["AUDIT_WRITE", "KILL", "NET_BIND_SERVICE", "NET_RAW"], "drop": ["ALL"]}"#
            ),
            [Severity::Low, Severity::Low, Severity::Low, Severity::High]
        );
        assert_eq!(caps(r#"{"add": ["KILL"], "drop": []}"#), [Severity::High]);
    }

    #[test]
    fn engine_routes_are_one_finding() {
        let p = crate::WORKSHOP_PROFILE_FIXED
            .replace(r#""variables": { "LANG": "C.UTF-8" }"#, r#""variables": { "LANG": "C.UTF-8", "DOCKER_HOST": "tcp://user@build.example:2376" }"#)
            .replace(
                r#""access": "read-write" }"#,
                r#""access": "read-write" }, { "source": "/run", "target": "/host-run", "access": "read-only" }"#,
            );
        let f = findings(&p);
        assert_eq!(
            f,
            [("PRV009", Severity::Critical, "/mounts/2/source".to_string())]
        );
        let options = crate::AuditOptions::default();
        let r = crate::audit(p.as_bytes(), "t.json", &crate::Labels::workshop(), &options).unwrap();
        let issue = r.issues.iter().find(|i| i.rule == "PRV009").unwrap();
        assert_eq!(
            issue.evidence["routes"],
            serde_json::json!(["/mounts/2", "DOCKER_HOST"])
        );
        assert!(
            !issue.message.contains("user@"),
            "a remote engine address is not echoed: {}",
            issue.message
        );
        assert!(!issue
            .evidence
            .values()
            .any(|v| v.to_string().contains("user@")));
    }

    #[test]
    fn drop_all_is_found_in_any_spelling() {
        let caps = |d: &[&str]| Capabilities {
            add: None,
            drop: Some(d.iter().map(|s| s.to_string()).collect()),
        };
        assert!(drops_all(Some(&caps(&["cap_all"]))));
        assert!(drops_all(Some(&caps(&["NET_RAW", "all"]))));
        assert!(!drops_all(Some(&caps(&["NET_RAW"]))));
        assert!(!drops_all(None));
    }
}
