//! Rules for the kernel's own walls (issue 23, items 7 to 11): settings
//! that leave the job a route through the kernel or the runtime rather than
//! through a mount or a capability. The terminal it shares, the masking of
//! kernel files, the security modules, host devices, the process namespace
//! of its neighbours, working directories the runtime resolves, kernel
//! parameters and the OOM killer.
//!
//! Each of these is a property of the launched process, not of the task:
//! a test that "only runs pytest" holds exactly the same terminal, devices
//! and kernel interfaces as any other program started in that boundary,
//! and the code under test can use all of them.

use super::{Ctx, Emitter, Rule};
use crate::finding::{Area, CheckKind, Severity};
use crate::model::{Boundary, Confinement, Namespace, Terminal};
use crate::procfs::through_proc;

fn boundary<'a>(ctx: &'a Ctx<'_>) -> Option<&'a Boundary> {
    ctx.profile.boundary.as_ref()
}

// ---------------------------------------------------------------- terminal

pub(crate) const ISO020: Rule = Rule {
    id: "ISO020",
    name: "terminal-shared",
    area: Area::Isolation,
    severity: Severity::High,
    title: "the job shares the caller's terminal",
    rationale: "A process that keeps the caller's controlling terminal can queue input on it (the `TIOCSTI` ioctl, and `TIOCLINUX` on a virtual console): the characters are read by the caller's shell as if typed, and run with the caller's rights once the sandboxed command returns. Namespaces and mounts do not stop this; only a new session without that terminal does (bwrap `--new-session`, or a runtime that calls `setsid`). A terminal allocated for the job and relayed to an attached reviewer (Compose `tty` with `stdin_open`, Kubernetes `tty` with `stdin`, OCI `process.terminal`) cannot inject into the caller's shell, but it carries the reviewer's keystrokes in and the job's escape sequences out (medium).",
    remediation: "Start the job in a new session with no terminal of the caller's (`--new-session` for bwrap); drop `tty`/`stdin` from containers that do not need an interactive reviewer.",
    runtime_check: Some(CheckKind::ReadDenied),
    check: check_terminal,
};

fn check_terminal(ctx: &Ctx<'_>, e: &mut Emitter) {
    match boundary(ctx).and_then(|b| b.terminal) {
        Some(Terminal::Shared) => {
            e.emit(
                "/boundary/terminal",
                "the job stays in the caller's session with its controlling terminal: with `TIOCSTI` or `TIOCLINUX` it can type commands into the shell that started it, and they run outside the sandbox when the job exits",
            )
            .evidence("terminal", "shared");
        }
        Some(Terminal::Pty) => {
            e.emit(
                "/boundary/terminal",
                "a terminal is allocated for the job and relayed to whoever attaches: what the reviewer types reaches the job, and the job's escape sequences reach the reviewer's terminal emulator",
            )
            .severity(Severity::Medium)
            .evidence("terminal", "pty");
        }
        Some(Terminal::None) | None => {}
    }
}

// ---------------------------------------------------------------- masking

pub(crate) const PRV020: Rule = Rule {
    id: "PRV020",
    name: "kernel-files-unmasked",
    area: Area::Privileges,
    severity: Severity::High,
    title: "the kernel files a runtime masks are open to the job",
    rationale: "Container runtimes hide a fixed list of kernel files (`/proc/kcore`, `/proc/keys`, `/proc/timer_list`, `/sys/firmware`, ...) and mount `/proc/sys`, `/proc/sysrq-trigger` and `/sys` read-only, because namespaces do not cover them: they describe and control the host kernel. Kubernetes `procMount: Unmasked`, Docker `systempaths=unconfined`, an OCI config with empty `maskedPaths`/`readonlyPaths` or a writable sysfs mount remove that layer, which is what nested sandboxes ask for and what the 2025 runc escapes went through. The code under test can then read kernel memory layout, change host-wide kernel settings and trigger host actions, whatever the task says it does.",
    remediation: "Keep the runtime's default masking (`procMount: Default`, no `systempaths=unconfined`, the runtime's `maskedPaths` and `readonlyPaths`, sysfs read-only). If a nested sandbox needs its own /proc, give it a VM boundary instead.",
    runtime_check: Some(CheckKind::KernelWriteDenied),
    check: check_masking,
};

fn check_masking(ctx: &Ctx<'_>, e: &mut Emitter) {
    let Some(b) = boundary(ctx) else { return };
    let exposed = b.unmasked_paths.as_deref().unwrap_or(&[]);
    if !exposed.is_empty() {
        let list: Vec<String> = exposed.iter().map(|p| format!("`{p}`")).collect();
        e.emit(
            "/boundary/unmasked_paths",
            format!(
                "{} of the kernel files a runtime masks or keeps read-only {} open to the job: {}; namespaces do not cover them",
                crate::text::plural(exposed.len(), "path"),
                if exposed.len() == 1 { "is" } else { "are" },
                list.join(", ")
            ),
        )
        .evidence("unmasked_paths", exposed.to_vec());
    } else if b.masked_paths == Some(false) {
        e.emit(
            "/boundary/masked_paths",
            "the runtime's masking of kernel files is off: the job can read `/proc/kcore` and `/proc/keys`, write `/proc/sysrq-trigger` and `/proc/sys`, and reach `/sys`, none of which its namespaces cover",
        )
        .evidence("masked_paths", false);
    }
}

pub(crate) const PRV021: Rule = Rule {
    id: "PRV021",
    name: "security-module-unconfined",
    area: Area::Privileges,
    severity: Severity::High,
    title: "the job runs with AppArmor or SELinux switched off",
    rationale: "The runtime's AppArmor profile and SELinux type are the layer that still refuses a mount, a write under `/proc/sys` or a host file after a capability or namespace setting went wrong; several container escapes were stopped only by it. `unconfined`, `label=disable` and super-privileged types such as `spc_t` take that layer away for every process of the job, test code included.",
    remediation: "Leave AppArmor at the runtime's default (`RuntimeDefault`, or omit the option) and SELinux labelling on with the container type; if a custom policy is needed, declare it as `custom` and review it.",
    runtime_check: Some(CheckKind::ApparmorConfined),
    check: check_security_modules,
};

fn check_security_modules(ctx: &Ctx<'_>, e: &mut Emitter) {
    let Some(b) = boundary(ctx) else { return };
    if b.apparmor == Some(Confinement::Unconfined) {
        e.emit(
            "/boundary/apparmor",
            "AppArmor is `unconfined`: the runtime's profile, which refuses `mount`, writes under `/proc/sys` and access to `/sys/firmware`, no longer applies",
        )
        .evidence("apparmor", "unconfined");
    }
    if b.selinux == Some(Confinement::Unconfined) {
        e.emit(
            "/boundary/selinux",
            "SELinux does not confine the job (labelling disabled, or a super-privileged type such as `spc_t`): host files labelled for other domains are no longer kept from it",
        )
        .evidence("selinux", "unconfined");
    }
}

// ---------------------------------------------------------------- devices

/// What a host device gives the job, worst first; `None` for the devices
/// every container runtime creates and that reach nothing of the host's.
pub(crate) fn device_risk(entry: &str) -> Option<(Severity, &'static str)> {
    let (e, access) = split_device_access(entry.trim());
    // `m` alone creates device nodes but opens none.
    if access.is_some_and(|a| !a.contains(['r', 'w'])) {
        return None;
    }
    let (sev, why) = device_risk_of(e)?;
    if access.is_some_and(|a| !a.contains('w')) {
        return Some((sev, read_only_reason(why)));
    }
    Some((sev, why))
}

/// A device entry and its access letters (`/dev/sd* r`, `c 240:3 rm`), when
/// it states them: the last word, made of `r`, `w` and `m` only.
pub(crate) fn split_device_access(entry: &str) -> (&str, Option<&str>) {
    match entry.rsplit_once(' ') {
        Some((dev, a)) if !a.is_empty() && a.chars().all(|c| matches!(c, 'r' | 'w' | 'm')) => {
            (dev.trim_end(), Some(a))
        }
        _ => (entry, None),
    }
}

/// What a device the job may only read gives it: the reasons that speak of
/// writing, said for reading alone.
fn read_only_reason(why: &'static str) -> &'static str {
    if why.starts_with("a raw disk") {
        "a raw disk, readable: every file on it can be read below the file system, whatever its permissions"
    } else if why.starts_with("physical memory") {
        "physical memory or I/O ports, readable: the host kernel's memory, keys included, can be read"
    } else {
        why
    }
}

fn device_risk_of(e: &str) -> Option<(Severity, &'static str)> {
    if matches!(e, "*" | "a" | "all" | "/dev")
        || e.starts_with("a ")
        || e.contains("*:")
        || e.contains(":*")
    {
        return Some((
            Severity::Critical,
            "every host device: raw disks, physical memory and consoles included",
        ));
    }
    if let Some(v) = e.strip_prefix("volume:") {
        let _ = v;
        return Some((Severity::High, "a raw block volume: the job writes below any file system, and whatever mounts the volume next reads what it planted"));
    }
    let name = e.strip_prefix("/dev/").unwrap_or(e);
    let starts = |prefixes: &[&str]| prefixes.iter().any(|p| name.starts_with(p));
    if matches!(
        name,
        "null" | "zero" | "full" | "random" | "urandom" | "tty" | "ptmx" | "pts" | "shm"
    ) || name.starts_with("pts/")
        || name.starts_with("shm/")
    {
        return None;
    }
    Some(if matches!(name, "mem" | "kmem" | "port") {
        (
            Severity::Critical,
            "physical memory or I/O ports: the host kernel's memory can be read and written",
        )
    } else if !name.starts_with("sgx")
        && starts(&[
            "sd", "hd", "vd", "xvd", "nvme", "mmcblk", "dm-", "md", "loop", "nbd", "sg", "sr",
            "mapper/", "disk/", "zd", "rbd",
        ])
    {
        (Severity::Critical, "a raw disk: every file on it is readable and writable below the file system, whatever its permissions")
    } else if name == "kvm" {
        (Severity::High, "KVM: the job runs its own virtual machines through a large, often patched kernel interface")
    } else if name == "net/tun" || starts(&["tap", "vhost-"]) {
        (Severity::High, "network interfaces of its own: with `NET_ADMIN` its traffic can leave by a route the egress rules do not see")
    } else if starts(&["input/", "hidraw", "uinput", "uhid"]) {
        (Severity::High, "the host's keyboards and pointers: the job can read what the reviewer types, or type for them")
    } else if name == "console" || starts(&["tty", "vcs"]) {
        (Severity::High, "a host console: the job can read its screen and, with `TIOCSTI`/`TIOCLINUX`, type into it")
    } else if starts(&[
        "cpu/",
        "watchdog",
        "snapshot",
        "kmsg",
        "mcelog",
        "autofs",
        "btrfs-control",
        "mapper/control",
    ]) {
        (Severity::High, "a kernel control interface: registers, the watchdog, hibernation images or the kernel log")
    } else if name == "fuse" {
        (Severity::Medium, "FUSE: the job can serve a file system, and a mount that stalls hangs every host process that touches it")
    } else if starts(&[
        "dri/",
        "nvidia",
        "snd/",
        "video",
        "bus/usb/",
        "usb",
        "accel/",
        "infiniband/",
        "vfio/",
    ]) {
        (
            Severity::Medium,
            "a device driver's interface: the driver's bugs are kernel bugs the job can reach",
        )
    } else {
        (
            Severity::High,
            "a device this check does not know: what it reaches cannot be vouched for",
        )
    })
}

pub(crate) const PRV022: Rule = Rule {
    id: "PRV022",
    name: "host-device",
    area: Area::Privileges,
    severity: Severity::High,
    title: "the job can open a host device",
    rationale: "A device node is a door into a host driver that no namespace separates. Raw disks, `/dev/mem` and an allow-all device rule reach every file and the kernel's memory (critical); KVM, network taps, input devices, consoles and kernel control nodes reach a large kernel interface or the reviewer's keyboard and screen (high); FUSE and GPU or sound drivers widen the kernel surface (medium). Devices the runtime always creates (`/dev/null`, `/dev/zero`, `/dev/urandom`, the job's own pty) are not findings. The task needing only tests does not matter: any process of the job can open the node.",
    remediation: "Remove the device (Compose `devices`/`device_cgroup_rules`, Kubernetes `volumeDevices`, OCI `linux.devices` and device cgroup, bwrap `--dev-bind`, or a mount whose source is a device node); use `--dev /dev` or the runtime's default device set. A job that needs KVM or a GPU belongs in a boundary of its own.",
    runtime_check: Some(CheckKind::DevicesStandard),
    check: check_devices,
};

fn check_devices(ctx: &Ctx<'_>, e: &mut Emitter) {
    let list = boundary(ctx)
        .and_then(|b| b.devices.as_deref())
        .unwrap_or(&[]);
    for (i, dev) in list.iter().enumerate() {
        if let Some((sev, why)) = device_risk(dev) {
            let (name, access) = split_device_access(dev.trim());
            let access = access.map_or(String::new(), |a| format!(" (access `{a}`)"));
            e.emit(
                format!("/boundary/devices/{i}"),
                format!("the job can open host device `{name}`{access}: {why}"),
            )
            .severity(sev)
            .evidence("device", dev.trim());
        }
    }
    // A device node mounted as a source (a hostPath, a volume, a bind,
    // also through `/proc/<pid>/root`) is that device, whatever class its
    // path has; bwrap's `--dev-bind` already listed it above.
    for v in ctx.mounts {
        let Some(c) = v.class.as_ref().filter(|c| !c.normalized.relative) else {
            continue;
        };
        let dev = crate::labels::builtin::host_path(&c.normalized.path);
        if !crate::labels::contains("/dev", dev)
            || list
                .iter()
                .any(|d| d.trim() == dev || (d.trim() == "*" && dev == "/dev"))
        {
            continue;
        }
        if let Some((sev, why)) = device_risk(dev) {
            e.emit(
                v.field("source"),
                format!(
                    "the mount source `{}` hands the job host device `{dev}`: {why}",
                    c.normalized.path
                ),
            )
            .area(v.area())
            .severity(sev)
            .evidence("device", dev);
        }
    }
}

// ------------------------------------------------------ process namespace

pub(crate) const ISO021: Rule = Rule {
    id: "ISO021",
    name: "shared-process-namespace",
    area: Area::Isolation,
    severity: Severity::High,
    title: "the job shares a process namespace with another container",
    rationale: "In a shared process namespace every process of the pod or service group is visible to the job. Running as the same user, it can read a sidecar's environment and memory, trace it, and reach its files through `/proc/<pid>/root`, so whatever an egress proxy, a credential helper or a log shipper holds (tokens, keys, upstream credentials) is the job's too. Its own limited credentials say nothing about its neighbours'.",
    remediation: "Drop `shareProcessNamespace` (Kubernetes) or `pid: service:`/`container:` (Compose); if a debugger needs the namespace, attach it only for the debugging session, never to a job that runs untrusted code.",
    runtime_check: None,
    check: check_shared_pid,
};

fn check_shared_pid(ctx: &Ctx<'_>, e: &mut Emitter) {
    let list = boundary(ctx)
        .and_then(|b| b.shares_pid_with.as_deref())
        .unwrap_or(&[]);
    for (i, peer) in list.iter().enumerate() {
        e.emit(
            format!("/boundary/shares_pid_with/{i}"),
            format!("the job shares a process namespace with `{peer}`: it sees that container's processes, can signal them, and as the same user can read their environment and memory and open their files through `/proc/<pid>/root`"),
        )
        .evidence("peer", peer.as_str());
    }
}

pub(crate) const ISO022: Rule = Rule {
    id: "ISO022",
    name: "proc-working-directory",
    area: Area::Isolation,
    severity: Severity::Critical,
    title: "the working directory goes through /proc",
    rationale: "The runtime changes into the working directory while it still holds its own descriptors, before the job's root is in force. A path such as `/proc/self/fd/7` or `/proc/1/cwd` is resolved through those descriptors, and runc leaked one that pointed at the host's cgroup directory (CVE-2024-21626): the job started with a host directory as its working directory and walked from there to the host's root. The command that runs is irrelevant; the escape happens before it starts.",
    remediation: "Set the working directory to a plain path inside the job's own file system (`/workspace`), and patch the runtime to a release that closes leaked descriptors (runc 1.1.12 or later).",
    runtime_check: None,
    check: check_cwd,
};

fn check_cwd(ctx: &Ctx<'_>, e: &mut Emitter) {
    for (ptr, cmd) in ctx.profile.commands() {
        let Some(cwd) = cmd.cwd.as_deref() else {
            continue;
        };
        if through_proc(cwd) {
            e.emit(
                format!("{ptr}/cwd"),
                format!("the working directory `{cwd}` goes through `/proc`: the runtime enters it before the job's root applies, and a descriptor it leaked there (CVE-2024-21626) starts the job in a host directory"),
            )
            .evidence("cwd", cwd);
        }
    }
}

pub(crate) const MNT030: Rule = Rule {
    id: "MNT030",
    name: "mount-sub-path-escape",
    area: Area::WritableMounts,
    severity: Severity::High,
    title: "a mount's sub-path can resolve outside its volume",
    rationale: "The runtime resolves a sub-path (Kubernetes `subPath`, `subPathExpr`) on the host when the container starts. A `..` component, or a link that another container sharing the volume planted, has made it mount a host directory instead (CVE-2017-1002101, CVE-2021-25741); a `subPathExpr` built from environment variables lets whoever sets the variable choose the directory. The mount then reaches what no label vouches for.",
    remediation: "Use a sub-path without `..` and without variable references, or mount a volume of its own at the target; keep links out of volumes that other containers write.",
    runtime_check: Some(CheckKind::LinkResolution),
    check: check_sub_path,
};

fn check_sub_path(ctx: &Ctx<'_>, e: &mut Emitter) {
    for v in ctx.mounts {
        let Some(sub) = v.mount.sub_path.as_deref() else {
            continue;
        };
        let why = if sub.contains("$(") {
            "is built from environment variables: whoever sets them chooses the directory the runtime mounts"
        } else if sub.split('/').any(|c| c == "..") {
            "climbs out with `..`: the runtime resolves it on the host, where a link planted in the volume can point anywhere"
        } else {
            continue;
        };
        e.emit(v.field("sub_path"), format!("the sub-path `{sub}` {why}"))
            .area(v.area())
            .evidence("sub_path", sub);
    }
}

// ------------------------------------------------------------- sysctls

/// The parameters Kubernetes calls safe: namespaced, and unable to affect
/// other pods.
const SAFE_SYSCTLS: &[&str] = &[
    "kernel.shm_rmid_forced",
    "net.ipv4.ip_local_port_range",
    "net.ipv4.tcp_syncookies",
    "net.ipv4.ping_group_range",
    "net.ipv4.ip_local_reserved_ports",
    "net.ipv4.tcp_keepalive_time",
    "net.ipv4.tcp_fin_timeout",
    "net.ipv4.tcp_keepalive_intvl",
    "net.ipv4.tcp_keepalive_probes",
];

/// What setting kernel parameter `name` does for the job; `None` when it
/// stays inside the job's own namespaces and cannot widen its reach.
pub(crate) fn sysctl_risk(name: &str, host_network: bool) -> Option<(Severity, &'static str)> {
    let n = name.trim().replace('/', ".");
    let net = n.starts_with("net.");
    if net && host_network {
        return Some((
            Severity::High,
            "the job uses the host's network namespace, so this changes the host's network stack",
        ));
    }
    if SAFE_SYSCTLS.contains(&n.as_str()) {
        return None;
    }
    Some(if n == "net.ipv4.ip_unprivileged_port_start" {
        (Severity::Medium, "any process of the job can bind the ports below it, which clients trust as root-owned services; in a namespace shared with a sidecar it can stand in for one")
    } else if net && n.ends_with(".route_localnet") {
        (Severity::High, "traffic to loopback addresses becomes routable, exposing services bound to 127.0.0.1 (CVE-2020-8558)")
    } else if net {
        (Severity::Medium, "it changes the job's network stack, outside what the profile's network section describes")
    } else if ["kernel.shm", "kernel.msg", "kernel.sem", "user."]
        .iter()
        .any(|p| n.starts_with(p))
    {
        (
            Severity::Medium,
            "it raises limits of the job's own IPC or user namespace beyond the runtime's defaults",
        )
    } else {
        (Severity::High, "no namespace separates it: it changes the host kernel for every process (`kernel.core_pattern` alone runs a program as root on the host)")
    })
}

/// Whether a kernel parameter's value carries a second assignment: CRI-O
/// passed `name=value` pairs joined by `+` to its helper, which split on
/// both, so `1+kernel.core_pattern=|/x` set a parameter nobody reviewed.
/// No parameter a job may set needs either character in its value.
pub(crate) fn smuggles_assignment(value: &str) -> bool {
    value.contains(['+', '='])
}

pub(crate) const PRV023: Rule = Rule {
    id: "PRV023",
    name: "kernel-parameter",
    area: Area::Privileges,
    severity: Severity::High,
    title: "the job sets kernel parameters beyond the safe set",
    rationale: "Kernel parameters (sysctls) that no namespace separates (`kernel.*`, `vm.*`, `fs.*`) change the host kernel for every process; `net.*` parameters change the job's network stack, and the host's when it shares the host network (high); a lower `net.ipv4.ip_unprivileged_port_start` lets the job's processes take ports clients trust as privileged (medium). The Kubernetes safe set (`net.ipv4.ping_group_range`, `net.ipv4.ip_local_port_range`, ...) is not a finding, unless its value holds `+` or `=`: CRI-O read such a value as a second parameter (CVE-2022-0811), which is how a pod set `kernel.core_pattern` and ran code as root on the node (critical). Whatever the job is meant to do, the parameters apply to every process in it.",
    remediation: "Remove the parameter; if a test needs one, use the Kubernetes safe set, in a network namespace of the job's own.",
    runtime_check: None,
    check: check_sysctls,
};

fn check_sysctls(ctx: &Ctx<'_>, e: &mut Emitter) {
    let Some(b) = boundary(ctx) else { return };
    let host_network = b
        .host_namespaces
        .as_deref()
        .unwrap_or(&[])
        .contains(&Some(Namespace::Network));
    for (name, value) in b.sysctls.as_deref().unwrap_or(&[]) {
        if smuggles_assignment(value) {
            e.emit(
                format!("/boundary/sysctls/{}", crate::json::escape_token(name)),
                format!("the value of kernel parameter `{name}` holds `+` or `=`: CRI-O before 1.19.6/1.20.7/1.21.6/1.22.3/1.23.2 (CVE-2022-0811) and any runtime that splits the same way read it as a second assignment, so a pod can set `kernel.core_pattern` and run a program as root on the host, whatever the name's own safety"),
            )
            .severity(Severity::Critical)
            .evidence("sysctl", name.as_str())
            .evidence("smuggled_assignment", true);
            continue;
        }
        if let Some((sev, why)) = sysctl_risk(name, host_network) {
            e.emit(
                format!("/boundary/sysctls/{}", crate::json::escape_token(name)),
                format!("kernel parameter `{name}` is set to `{value}`: {why}"),
            )
            .severity(sev)
            .evidence("sysctl", name.as_str());
        }
    }
}

// ------------------------------------------------------------------ OOM

pub(crate) const LIM020: Rule = Rule {
    id: "LIM020",
    name: "oom-protected",
    area: Area::Limits,
    severity: Severity::High,
    title: "the job is shielded from the OOM killer",
    rationale: "A memory limit is enforced by the kernel killing the job when it runs over. `oom_score_adj: -1000` exempts the job, so at memory pressure the kernel kills the runner, other tenants' jobs and host services instead (high); a smaller negative value tilts the choice the same way, and `oom_kill_disable` stalls the job at its limit instead of ending it, holding memory and its concurrency slot (medium). Code under test that allocates without bound then takes the host down rather than itself.",
    remediation: "Leave `oom_score_adj` at 0 or above and `oom_kill_disable` off, so that the job is the process killed when it exceeds its memory.",
    runtime_check: Some(CheckKind::LimitEnforced),
    check: check_oom,
};

fn check_oom(ctx: &Ctx<'_>, e: &mut Emitter) {
    let Some(b) = boundary(ctx) else { return };
    match b.oom_score_adj {
        Some(v) if v <= -1000 => {
            e.emit(
                "/boundary/oom_score_adj",
                "`oom_score_adj` is `-1000`: the OOM killer never picks the job, so under memory pressure the kernel kills the runner, other jobs and host services first while the job keeps its memory",
            )
            .evidence("oom_score_adj", v);
        }
        Some(v) if v < 0 => {
            e.emit(
                "/boundary/oom_score_adj",
                format!("`oom_score_adj` is `{v}`: the OOM killer prefers the host's other processes to the job"),
            )
            .severity(Severity::Medium)
            .evidence("oom_score_adj", v);
        }
        _ => {}
    }
    if b.oom_kill_disable == Some(true) {
        e.emit(
            "/boundary/oom_kill_disable",
            "`oom_kill_disable` is `true`: at its memory limit the job is stalled instead of killed, holding its memory and its slot, so the limit no longer ends anything",
        )
        .severity(Severity::Medium)
        .evidence("oom_kill_disable", true);
    }
}

// ---------------------------------------------------------------- groups

/// What membership of group `g` gives the job, for the groups that widen
/// privilege; `None` for any other group.
pub(crate) fn group_risk(g: &str) -> Option<&'static str> {
    Some(match g.trim() {
        "0" | "root" => "the root group, which owns and can often write system files and whatever the mounts expose to gid 0",
        "docker" => "the container engine's socket, which is root on the host",
        "disk" => "the host's raw disk devices",
        "kvm" => "`/dev/kvm`",
        "sudo" | "wheel" | "admin" => "administrator rights through `sudo` wherever the image has it",
        "adm" | "systemd-journal" => "the host's logs",
        "shadow" => "password hashes",
        "lxd" | "incus" | "libvirt" | "podman" => "a container or VM manager, which is root on the host",
        "kmem" => "kernel memory",
        "tty" => "other users' terminals",
        _ => return None,
    })
}

pub(crate) const PRV024: Rule = Rule {
    id: "PRV024",
    name: "privileged-group",
    area: Area::Privileges,
    severity: Severity::High,
    title: "the job is in a group that widens its privileges",
    rationale: "Supplementary groups are checked on every open, like the user. A job in the root group, `docker`, `disk`, `kvm`, `sudo`/`wheel`, `adm`, `shadow` or a VM manager's group can use whatever that group owns on the host paths and devices it reaches: the engine socket, raw disks, logs, password hashes. A non-root uid does not help when the group grants the access, and the task's purpose does not narrow it.",
    remediation: "Drop the group (Kubernetes `supplementalGroups`/`fsGroup`, Compose `group_add`, OCI `additionalGids`); give the scratch directory to the job's own unprivileged group instead.",
    runtime_check: None,
    check: check_groups,
};

fn check_groups(ctx: &Ctx<'_>, e: &mut Emitter) {
    let list = boundary(ctx)
        .and_then(|b| b.groups.as_deref())
        .unwrap_or(&[]);
    for (i, g) in list.iter().enumerate() {
        if let Some(why) = group_risk(g) {
            e.emit(
                format!("/boundary/groups/{i}"),
                format!("the job's processes are in group `{}`: files, sockets and devices owned by it are theirs, which means {why}", g.trim()),
            )
            .evidence("group", g.trim());
        }
    }
}

pub const RULES: &[&Rule] = &[
    &ISO020, &PRV020, &PRV021, &PRV022, &ISO021, &ISO022, &MNT030, &PRV023, &LIM020, &PRV024,
];

#[cfg(test)]
mod tests {
    use crate::finding::{Area, Severity};

    fn with_boundary(fields: &str) -> String {
        let fixed = crate::WORKSHOP_PROFILE_FIXED;
        let at = fixed.find("\"read_only_root\"").unwrap();
        format!("{}{fields}, {}", &fixed[..at], &fixed[at..])
    }

    fn findings(profile: &str, area: Area) -> Vec<(&'static str, Severity, String)> {
        super::super::area_findings(profile, area, Some("2026-11-29"))
            .into_iter()
            .filter(|(r, _, _)| r.starts_with("ISO02") || r.starts_with("PRV02"))
            .collect()
    }

    #[test]
    fn terminals() {
        let cases = [
            (r#""terminal": "shared""#, Some(Severity::High)),
            (r#""terminal": "pty""#, Some(Severity::Medium)),
            (r#""terminal": "none""#, None),
        ];
        for (fields, want) in cases {
            let got = findings(&with_boundary(fields), Area::Isolation);
            assert_eq!(got.first().map(|f| f.1), want, "{fields}: {got:?}");
        }
        assert!(findings(crate::WORKSHOP_PROFILE_FIXED, Area::Isolation).is_empty());
    }

    #[test]
    fn devices_by_what_they_reach() {
        use Severity::*;
        let cases: &[(&str, Option<Severity>)] = &[
            ("*", Some(Critical)),
            ("a *:* rwm", Some(Critical)),
            ("c *:* rwm", Some(Critical)),
            ("/dev", Some(Critical)),
            ("/dev/mem", Some(Critical)),
            ("/dev/kmem", Some(Critical)),
            ("/dev/sda", Some(Critical)),
            ("/dev/sdb1", Some(Critical)),
            ("/dev/nvme0n1", Some(Critical)),
            ("/dev/xvda", Some(Critical)),
            ("/dev/mapper/root", Some(Critical)),
            ("/dev/loop0", Some(Critical)),
            ("/dev/kvm", Some(High)),
            ("/dev/net/tun", Some(High)),
            ("/dev/input/event0", Some(High)),
            ("/dev/tty1", Some(High)),
            ("/dev/console", Some(High)),
            ("/dev/cpu/0/msr", Some(High)),
            ("volume:data", Some(High)),
            ("/dev/weird0", Some(High)),
            ("c 10:232", Some(High)),
            ("/dev/fuse", Some(Medium)),
            ("/dev/dri/renderD128", Some(Medium)),
            ("/dev/nvidia0", Some(Medium)),
            ("/dev/snd/controlC0", Some(Medium)),
            ("/dev/null", None),
            ("/dev/zero", None),
            ("/dev/urandom", None),
            ("/dev/random", None),
            ("/dev/full", None),
            ("/dev/tty", None),
            ("/dev/ptmx", None),
            ("/dev/pts/0", None),
            ("/dev/shm", None),
        ];
        for (dev, want) in cases {
            assert_eq!(super::device_risk(dev).map(|r| r.0), *want, "{dev}");
        }
        let got = findings(
            &with_boundary(r#""devices": ["/dev/null", "/dev/kvm", "/dev/sda"]"#),
            Area::Privileges,
        );
        assert_eq!(
            got,
            vec![
                ("PRV022", High, "/boundary/devices/1".to_string()),
                ("PRV022", Critical, "/boundary/devices/2".to_string()),
            ]
        );
    }

    #[test]
    fn working_directories_through_proc() {
        for p in [
            "/proc/self/fd/7",
            "/proc/self/fd/7/../../..",
            "/proc/thread-self/fd/3",
            "/proc/1/cwd",
            "/proc/42/root/etc",
            "/proc/self/task/1/fd/4",
            "/tmp/../proc/self/fd/9",
            "//proc//self/./cwd",
        ] {
            assert!(super::through_proc(p), "{p}");
        }
        for p in [
            "/workspace",
            "/proc",
            "/proc/self",
            "/proc/self/status",
            "/procfs/self/fd/1",
            "/work/proc/self/fd/1",
            "proc",
        ] {
            assert!(!super::through_proc(p), "{p}");
        }
    }

    #[test]
    fn sysctls_by_reach() {
        use Severity::*;
        let cases: &[(&str, bool, Option<Severity>)] = &[
            ("net.ipv4.ping_group_range", false, None),
            ("net.ipv4.ip_local_port_range", false, None),
            ("kernel.shm_rmid_forced", false, None),
            ("net/ipv4/ping_group_range", false, None),
            ("net.ipv4.ping_group_range", true, Some(High)),
            ("net.ipv4.ip_unprivileged_port_start", false, Some(Medium)),
            ("net.ipv4.conf.all.route_localnet", false, Some(High)),
            ("net.core.somaxconn", false, Some(Medium)),
            ("kernel.shmmax", false, Some(Medium)),
            ("kernel.core_pattern", false, Some(High)),
            ("kernel.yama.ptrace_scope", false, Some(High)),
            ("vm.overcommit_memory", false, Some(High)),
            ("fs.protected_symlinks", false, Some(High)),
        ];
        for (name, host, want) in cases {
            assert_eq!(
                super::sysctl_risk(name, *host).map(|r| r.0),
                *want,
                "{name} host={host}"
            );
        }
    }

    #[test]
    fn oom_settings() {
        let cases: &[(&str, &[(&str, Severity)])] = &[
            (r#""oom_score_adj": -1000"#, &[("LIM020", Severity::High)]),
            (r#""oom_score_adj": -500"#, &[("LIM020", Severity::Medium)]),
            (r#""oom_score_adj": 0"#, &[]),
            (r#""oom_score_adj": 500"#, &[]),
            (
                r#""oom_kill_disable": true"#,
                &[("LIM020", Severity::Medium)],
            ),
            (r#""oom_kill_disable": false"#, &[]),
        ];
        for (fields, want) in cases {
            let got: Vec<(&str, Severity)> = super::super::area_findings(
                &with_boundary(fields),
                Area::Limits,
                Some("2026-11-29"),
            )
            .into_iter()
            .filter(|f| f.0 == "LIM020")
            .map(|f| (f.0, f.1))
            .collect();
            assert_eq!(&got, want, "{fields}");
        }
    }

    #[test]
    fn groups() {
        for g in [
            "0", "root", "docker", "disk", "kvm", "sudo", "wheel", "adm", "shadow", "lxd",
            "libvirt",
        ] {
            assert!(super::group_risk(g).is_some(), "{g}");
        }
        for g in ["1000", "users", "video", "render", "nogroup", "00"] {
            assert!(super::group_risk(g).is_none(), "{g}");
        }
        let got = findings(
            &with_boundary(r#""groups": ["1000", 0, "docker"]"#),
            Area::Privileges,
        );
        let ptrs: Vec<&str> = got.iter().map(|f| f.2.as_str()).collect();
        assert_eq!(ptrs, ["/boundary/groups/1", "/boundary/groups/2"]);
    }

    #[test]
    fn shared_process_namespace() {
        let got = findings(
            &with_boundary(r#""shares_pid_with": ["egress-proxy"]"#),
            Area::Isolation,
        );
        assert_eq!(got.len(), 1, "{got:?}");
        assert!(findings(&with_boundary(r#""shares_pid_with": []"#), Area::Isolation).is_empty());
    }

    #[test]
    fn masking_and_security_modules() {
        let cases: &[(&str, &[&str])] = &[
            (r#""masked_paths": false"#, &["PRV020"]),
            (r#""masked_paths": true"#, &[]),
            (r#""apparmor": "unconfined""#, &["PRV021"]),
            (r#""apparmor": "default", "selinux": "custom""#, &[]),
            (r#""selinux": "unconfined""#, &["PRV021"]),
            (
                r#""masked_paths": false, "apparmor": "unconfined", "selinux": "unconfined""#,
                &["PRV020", "PRV021", "PRV021"],
            ),
        ];
        for (fields, want) in cases {
            let mut got: Vec<&str> = findings(&with_boundary(fields), Area::Privileges)
                .into_iter()
                .map(|f| f.0)
                .collect();
            got.sort_unstable();
            assert_eq!(&got, want, "{fields}");
        }
    }
}
