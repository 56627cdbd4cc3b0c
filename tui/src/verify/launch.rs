//! `isolint verify PROFILE`: the reference launcher. It audits the profile,
//! builds disposable bubblewrap workers from what the profile declares,
//! runs `isolint probe` inside one of them and observes from outside what
//! the probe cannot: that the wall-clock limit kills the whole process
//! tree, that output past `output_bytes` is cut, and that the worker and
//! its temporary directory are gone afterwards. Then it reconciles.
//!
//! Trust boundary: the profile is hostile. Nothing it declares reaches a
//! process on the host: `bwrap` is found at a fixed absolute path before
//! the profile is read and runs with an empty environment in the
//! launcher's own directory; the declared environment reaches the job
//! only through bwrap's `--clearenv`/`--setenv`, read from a memory file
//! (`--args`), so no value is on a command line either; every mount
//! source is checked component by component (no symbolic link, nothing
//! but a directory or a regular file) before each worker starts, and no
//! mount point is created inside a host directory.
//!
//! Safety: no packet leaves loopback. Egress checks are mapped to a
//! listener the launcher opens on 127.0.0.1 outside the worker; with
//! `--unshare-net` the worker cannot reach it, and reaching it means the
//! network was shared. Limits are overrun by small, bounded amounts (see
//! the probe). Nothing is created outside the launcher's own temporary
//! directory, which is removed before the result is printed.

use std::io::Read;
use std::os::fd::{AsFd, BorrowedFd, RawFd};
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::{DirBuilderExt, MetadataExt, PermissionsExt};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use clap::Args;
use isolint_core::launch::{covers, LaunchSpec, Limits, INSIDE};
use isolint_core::model::StringEnum;
use isolint_core::observe::{self, Observation, Observations, Observed, OBSERVATIONS_SCHEMA};
use isolint_core::{AuditOptions, Labels};
use serde_json::Value;

use super::reconcile::{self, ReconcileFormat};
use crate::files::{atomic, input, today};

use crate::files::output::{self as output, EXIT_ERROR, EXIT_NOT_ELIGIBLE};

#[derive(Debug, Args)]
pub struct VerifyArgs {
    /// Label catalog (isolint.labels/v1) replacing the embedded workshop catalog
    #[arg(long, value_name = "FILE")]
    labels: Option<PathBuf>,
    /// Runner overlay merged under an imported profile (see `isolint audit --runner`)
    #[arg(long, value_name = "FILE")]
    runner: Option<PathBuf>,
    /// Output format of the reconciliation
    #[arg(short, long, value_enum, default_value_t = ReconcileFormat::Text)]
    format: ReconcileFormat,
    /// Also write the combined isolint.observations/v1 document (probe and launcher) here
    #[arg(long, value_name = "FILE")]
    observations: Option<PathBuf>,
    /// The profile to launch: isolint.profile/v1 or any format `isolint import` reads
    #[arg(value_name = "PROFILE")]
    profile: PathBuf,
}

/// The uid and gid the worker runs as on the host when the launcher is
/// root: `nobody`, so that the job holds no host authority and the
/// kernel's per-user process limit applies (it never does to uid 0).
const WORKER_ID: u32 = 65534;
/// Where `bwrap` may be, in this order: system directories only, never
/// the user's PATH nor anything the profile names. The file must belong
/// to root and be writable by nobody else.
const BWRAP_PATHS: &[&str] = &["/usr/bin/bwrap", "/usr/local/bin/bwrap", "/bin/bwrap"];
/// The descriptor bwrap reads its environment options from (`--args`).
const ARGS_FD: RawFd = 4;
/// The descriptor bwrap reads the worker's seccomp filter from.
const SECCOMP_FD: RawFd = 5;
/// A file of the launcher's own directory, writable by the worker, that
/// the writable-knob faults bind over a kernel knob's path.
const KNOB_FILE: &str = "knob";
/// The socket of the launcher's own directory that `bind-socket` binds in.
const SOCKET_FILE: &str = "fault.sock";
/// Host device nodes the `bind-device` fault binds in (the first present).
const FAULT_DEVICES: [&str; 4] = [
    "/dev/kmsg",
    "/dev/fuse",
    "/dev/loop-control",
    "/dev/net/tun",
];
/// The wall-clock limit of the helper worker that the timeout is observed
/// on: the declared limit, scaled down so a verification takes seconds.
const PROBED_WALL: Duration = Duration::from_millis(500);
/// How long after a kill survivors are looked for.
const GRACE: Duration = Duration::from_secs(1);
/// The longest the probe worker may take, below the declared wall limit.
const PROBE_WALL: Duration = Duration::from_secs(60);
/// Output limits above this are not filled (it would take too long).
const MAX_EMIT: u64 = 64 << 20;
/// Bounds on what is read back from a worker.
const MAX_OBSERVATIONS: u64 = 16 << 20;
const MAX_STDERR: u64 = 64 << 10;

/// Deliberate deviations from the profile, for the fault-injection tests
/// only: each must make the verifier report `disagrees`, never agreement.
/// They are chosen with `ISOLINT_VERIFY_FAULT=name,name`, which only a
/// build with the `fault-injection` feature reads (the acceptance tests
/// build one); a release build has no such switch.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(not(any(test, feature = "fault-injection")), allow(dead_code))]
enum Fault {
    /// Bind the first forbidden catalog path that exists into the worker.
    BindForbidden,
    /// Bind every read-only mount read-write.
    MountsWritable,
    /// Bind every writable mount read-only.
    ScratchReadOnly,
    /// Bind a decoy directory instead of the first mount's source.
    BindElsewhere,
    /// Share the launcher's network namespace.
    ShareNetwork,
    /// Set no resource limit.
    DropLimits,
    /// Keep all the output.
    NoOutputCut,
    /// Never stop the worker at its wall-clock limit.
    NoWallLimit,
    /// No pid namespace, no die-with-parent: killing bwrap kills only it.
    KillParent,
    /// Give the job the launcher's whole environment.
    InheritEnv,
    /// Add a variable the profile does not declare.
    AddVariable,
    /// Observe the worker before removing its directory.
    KeepWorker,
    /// Load no seccomp filter.
    NoSeccomp,
    /// Give the job CAP_SYS_ADMIN (in its user namespace; the probe does
    /// nothing with it).
    AddCapability,
    /// Share the launcher's IPC, UTS and cgroup namespaces.
    ShareNamespaces,
    /// Bind a writable file of the launcher's directory over the core
    /// dump handler's knob (the real one is never touched).
    WritableKnob,
    /// Bind a writable file of the launcher's directory where a cgroup v1
    /// hierarchy's release_agent would be.
    WritableReleaseAgent,
    /// Bind a host device node into the worker's /dev (never opened).
    BindDevice,
    /// Bind a socket the launcher listens on, in its own directory, where
    /// the plan's first forbidden socket is (never a host socket).
    BindSocket,
}

#[cfg(any(test, feature = "fault-injection"))]
const FAULTS: &[(&str, Fault)] = &[
    ("bind-forbidden", Fault::BindForbidden),
    ("mounts-writable", Fault::MountsWritable),
    ("scratch-read-only", Fault::ScratchReadOnly),
    ("bind-elsewhere", Fault::BindElsewhere),
    ("share-network", Fault::ShareNetwork),
    ("drop-limits", Fault::DropLimits),
    ("no-output-cut", Fault::NoOutputCut),
    ("no-wall-limit", Fault::NoWallLimit),
    ("kill-parent", Fault::KillParent),
    ("inherit-env", Fault::InheritEnv),
    ("add-variable", Fault::AddVariable),
    ("keep-worker", Fault::KeepWorker),
    ("no-seccomp", Fault::NoSeccomp),
    ("add-capability", Fault::AddCapability),
    ("share-namespaces", Fault::ShareNamespaces),
    ("writable-knob", Fault::WritableKnob),
    ("writable-release-agent", Fault::WritableReleaseAgent),
    ("bind-device", Fault::BindDevice),
    ("bind-socket", Fault::BindSocket),
];

/// The variable `add-variable` gives the job (a test build only).
#[cfg(feature = "fault-injection")]
const FAULT_EXTRA: &[u8] = b"ISOLINT_FAULT_EXTRA";
#[cfg(not(feature = "fault-injection"))]
const FAULT_EXTRA: &[u8] = b"";

#[cfg(feature = "fault-injection")]
fn faults() -> Result<Vec<Fault>, String> {
    let Some(v) = std::env::var_os("ISOLINT_VERIFY_FAULT") else {
        return Ok(Vec::new());
    };
    let v = v.to_string_lossy();
    v.split(',')
        .filter(|s| !s.is_empty())
        .map(|name| {
            FAULTS
                .iter()
                .find(|(n, _)| *n == name)
                .map(|(_, f)| *f)
                .ok_or_else(|| {
                    let names: Vec<&str> = FAULTS.iter().map(|(n, _)| *n).collect();
                    format!(
                        "ISOLINT_VERIFY_FAULT: unknown fault `{name}` (known: {})",
                        names.join(", ")
                    )
                })
        })
        .collect()
}

/// Without the test-only feature there is no switch: the launch follows
/// the profile, whatever the environment says.
#[cfg(not(feature = "fault-injection"))]
fn faults() -> Result<Vec<Fault>, String> {
    Ok(Vec::new())
}

/// `bwrap` at the first of [`BWRAP_PATHS`] that is an executable file
/// owned by root and writable by nobody else. Resolved before the profile
/// is read, so nothing the profile declares can choose it.
fn resolve_bwrap() -> Option<PathBuf> {
    BWRAP_PATHS.iter().map(Path::new).find_map(|p| {
        let m = std::fs::metadata(p).ok()?;
        let trusted = m.is_file() && m.mode() & 0o111 != 0 && m.uid() == 0 && m.mode() & 0o022 == 0;
        trusted.then(|| p.to_path_buf())
    })
}

/// What a file's type is called in a refusal.
fn kind_of(t: std::fs::FileType) -> &'static str {
    use std::os::unix::fs::FileTypeExt;
    if t.is_symlink() {
        "a symbolic link"
    } else if t.is_fifo() {
        "a FIFO (named pipe)"
    } else if t.is_socket() {
        "a socket"
    } else if t.is_block_device() || t.is_char_device() {
        "a device"
    } else if t.is_dir() {
        "a directory"
    } else {
        "a regular file"
    }
}

/// The identity of a checked mount source, compared again before each
/// worker starts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct SourceId {
    dev: u64,
    ino: u64,
    dir: bool,
}

/// Check a host path bwrap will be handed, component by component without
/// following links: every component exists, none is a symbolic link (bwrap
/// would follow it somewhere the audit never judged), every one but the
/// last is a directory, and the last is a directory or a regular file
/// (never a FIFO, socket or device, nor a file with a second hard link).
/// `path` is absolute and in normal form
/// (`isolint_core::launch::spec`).
fn check_host_path(path: &str) -> Result<SourceId, String> {
    let parts: Vec<&str> = path.split('/').filter(|c| !c.is_empty()).collect();
    let mut at = PathBuf::from("/");
    let mut meta = std::fs::symlink_metadata(&at).map_err(|e| format!("/: {e}"))?;
    for (k, c) in parts.iter().enumerate() {
        at.push(c);
        meta = std::fs::symlink_metadata(&at).map_err(|e| format!("{}: {e}", at.display()))?;
        let t = meta.file_type();
        let last = k + 1 == parts.len();
        if t.is_symlink() || (!last && !t.is_dir()) {
            return Err(format!(
                "{} is {}: bubblewrap would follow it to another place than the audit judged; name the place itself",
                at.display(),
                kind_of(t)
            ));
        }
    }
    let t = meta.file_type();
    if !t.is_dir() && !t.is_file() {
        return Err(format!(
            "{path} is {}: only a directory or a regular file is bound",
            kind_of(t)
        ));
    }
    if t.is_file() && meta.nlink() > 1 {
        return Err(format!(
            "{path} is a regular file with {} hard links: the same file has another name the audit never judged",
            meta.nlink()
        ));
    }
    Ok(SourceId {
        dev: meta.dev(),
        ino: meta.ino(),
        dir: t.is_dir(),
    })
}

/// Check every mount before a worker starts: each source (see
/// [`check_host_path`]), and each target that lies inside an earlier
/// mount: bwrap creates a missing mount point, and inside a bound host
/// directory that would create it on the host, so it must already exist
/// there (checked the same way, of the same kind as the source).
fn check_mounts(spec: &LaunchSpec) -> Result<Vec<SourceId>, String> {
    let mut ids = Vec::with_capacity(spec.mounts.len());
    for (j, m) in spec.mounts.iter().enumerate() {
        let id = check_host_path(&m.source).map_err(|e| {
            format!(
                "/mounts/{j}: source {}: {e} (the launcher creates nothing outside its own temporary directory)",
                m.source
            )
        })?;
        let holder = spec.mounts[..j]
            .iter()
            .enumerate()
            .rev()
            .find(|(_, o)| o.target != m.target && covers(&o.target, &m.target));
        if let Some((i, outer)) = holder {
            let rest = m
                .target
                .strip_prefix(outer.target.as_str())
                .unwrap_or_default();
            let host = format!("{}{rest}", outer.source.trim_end_matches('/'));
            let point = check_host_path(&host).and_then(|p| {
                if p.dir == id.dir {
                    Ok(())
                } else {
                    Err(format!("{host} is not of the same kind as the source"))
                }
            });
            if let Err(e) = point {
                return Err(format!(
                    "/mounts/{j}: target {} lies inside mount {i} ({}), so bubblewrap would create its mount point {host} on the host: {e} (the launcher creates nothing outside its own temporary directory)",
                    m.target, outer.target
                ));
            }
        }
        // A tmpfs needs a directory to mount on; in the bound source it is
        // the host's, which the launcher does not create.
        for e in hidden_by_tmpfs(&spec.mounts, j) {
            let rest = e.strip_prefix(m.target.as_str()).unwrap_or_default();
            let host = format!("{}{rest}", m.source.trim_end_matches('/'));
            let dir = check_host_path(&host).and_then(|p| {
                if p.dir {
                    Ok(())
                } else {
                    Err(format!("{host} is not a directory"))
                }
            });
            if let Err(why) = dir {
                return Err(format!(
                    "/mounts/{j}: excluded path {e}: an empty tmpfs hides it, mounted on {host}: {why} (the launcher creates nothing outside its own temporary directory)"
                ));
            }
        }
        ids.push(id);
    }
    Ok(ids)
}

/// The excluded paths of mount `i` the launcher covers with an empty,
/// unreadable tmpfs right after its bind: each one no later mount covers whole (a
/// later mount there hides it anyway, and may be a file a tmpfs cannot
/// cover).
fn hidden_by_tmpfs(mounts: &[isolint_core::launch::Mount], i: usize) -> Vec<&str> {
    let Some(m) = mounts.get(i) else {
        return Vec::new();
    };
    let later = mounts.get(i + 1..).unwrap_or_default();
    m.excludes
        .iter()
        .filter(|e| !later.iter().any(|l| covers(&l.target, e)))
        .map(String::as_str)
        .collect()
}

/// The launcher's own temporary directory: readable by the worker's uid,
/// writable by nobody else, removed when dropped.
struct LaunchDir {
    path: PathBuf,
    removed: bool,
}

impl LaunchDir {
    fn create() -> std::io::Result<LaunchDir> {
        let base = std::env::temp_dir();
        let mut n = 0u32;
        loop {
            let path = base.join(format!("isolint-verify-{}-{n}", std::process::id()));
            match std::fs::DirBuilder::new().mode(0o755).create(&path) {
                Ok(()) => {
                    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755))?;
                    return Ok(LaunchDir {
                        path,
                        removed: false,
                    });
                }
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists && n < 1000 => n += 1,
                Err(e) => return Err(e),
            }
        }
    }

    fn remove(&mut self) -> std::io::Result<()> {
        self.removed = true;
        std::fs::remove_dir_all(&self.path)
    }
}

impl Drop for LaunchDir {
    fn drop(&mut self) {
        if !self.removed {
            let _ = std::fs::remove_dir_all(&self.path);
        }
    }
}

/// Have an interrupt (`SIGINT`, `SIGTERM`, `SIGHUP`) remove the launcher's
/// directory before the process ends by that signal; the workers end with
/// it (`--die-with-parent`).
fn remove_on_interrupt(path: &Path) {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    let Ok(mut signals) = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP]) else {
        return;
    };
    let path = path.to_path_buf();
    let _ = std::thread::Builder::new()
        .name("interrupts".into())
        .spawn(move || {
            if let Some(signal) = signals.forever().next() {
                let _ = std::fs::remove_dir_all(&path);
                let _ = signal_hook::low_level::emulate_default_handler(signal);
                std::process::exit(128 + signal);
            }
        });
}

/// The probe binary inside the launcher's directory: a hard link to the
/// running executable when the file system allows, else a copy.
fn install_probe(dir: &Path) -> std::io::Result<()> {
    let exe = std::env::current_exe()?;
    let to = dir.join("isolint");
    if std::fs::hard_link(&exe, &to).is_err() {
        std::fs::copy(&exe, &to)?;
        std::fs::set_permissions(&to, std::fs::Permissions::from_mode(0o755))?;
    }
    Ok(())
}

/// The plan as the probe gets it: egress targets mapped to the launcher's
/// loopback listener, link checks given the declared source's identity
/// (`sources`: the checked identities, in mount order).
fn mapped_plan(export: &mut Value, spec: &LaunchSpec, sources: &[SourceId], port: u16) {
    let Some(checks) = export["runtime_checks"].as_array_mut() else {
        return;
    };
    for c in checks {
        let kind = c["kind"].as_str().unwrap_or_default().to_string();
        let t = &mut c["target"];
        if kind.starts_with("egress-") {
            let from = format!(
                "{}:{}",
                t["host"].as_str().unwrap_or_default(),
                t["port"].as_u64().unwrap_or(0)
            );
            *t = serde_json::json!({
                "host": "127.0.0.1", "port": port, "protocol": "tcp", "mapped_from": from,
            });
        } else if kind == "namespace-private" {
            // The launcher's own namespace, the one a worker must leave.
            use std::os::unix::fs::MetadataExt;
            let path = t["path"].as_str().unwrap_or_default();
            if let Some(m) = path
                .strip_prefix("/proc/self/ns/")
                .and_then(|n| std::fs::metadata(format!("/proc/self/ns/{n}")).ok())
            {
                t["host"] = serde_json::json!({"dev": m.dev(), "ino": m.ino()});
            }
        } else if kind == "link-resolution" {
            let path = t["path"].as_str().unwrap_or_default().trim_end_matches('/');
            let declared = spec
                .mounts
                .iter()
                .zip(sources)
                .rev()
                .find(|(m, _)| m.target == path);
            if let Some((_, id)) = declared {
                t["source"] = serde_json::json!({"dev": id.dev, "ino": id.ino});
            }
        }
    }
}

/// Everything one worker needs besides its command.
struct Worker<'a> {
    /// The absolute path of bwrap ([`resolve_bwrap`]).
    bwrap: &'a Path,
    spec: &'a LaunchSpec,
    /// The mount sources as checked first; each launch checks them again.
    sources: &'a [SourceId],
    faults: &'a [Fault],
    /// The launcher's own directory: bwrap's working directory on the host.
    dir: &'a Path,
    /// A path the catalog forbids, bound in by `bind-forbidden`.
    forbidden: Option<&'a Path>,
    /// The first socket the plan forbids, where `bind-socket` binds one.
    forbidden_socket: Option<&'a Path>,
}

impl Worker<'_> {
    fn has(&self, f: Fault) -> bool {
        self.faults.contains(&f)
    }

    /// bwrap's arguments up to `--`.
    fn bwrap_args(&self) -> Vec<String> {
        let mut a: Vec<String> = Vec::new();
        let mut push = |v: &[&str]| a.extend(v.iter().map(|s| s.to_string()));
        // The job's environment, read from a descriptor (`env_payload`).
        push(&["--args", &ARGS_FD.to_string()]);
        push(&["--new-session", "--unshare-user"]);
        if !self.has(Fault::ShareNamespaces) {
            push(&["--unshare-ipc", "--unshare-uts", "--unshare-cgroup"]);
        }
        if !self.has(Fault::NoSeccomp) {
            push(&["--seccomp", &SECCOMP_FD.to_string()]);
        }
        if self.has(Fault::AddCapability) {
            push(&["--cap-add", "CAP_SYS_ADMIN"]);
        }
        if !self.has(Fault::KillParent) {
            push(&["--unshare-pid", "--die-with-parent"]);
        }
        if !self.spec.share_network && !self.has(Fault::ShareNetwork) {
            push(&["--unshare-net"]);
        }
        if let Some((uid, gid)) = self.spec.ids {
            push(&["--uid", &uid.to_string(), "--gid", &gid.to_string()]);
        }
        // What the probe binary needs to run, read-only.
        push(&["--ro-bind", "/usr", "/usr"]);
        for d in ["/bin", "/sbin", "/lib", "/lib32", "/lib64"] {
            match std::fs::read_link(d) {
                Ok(to) => push(&["--symlink", &to.to_string_lossy(), d]),
                Err(_) if Path::new(d).is_dir() => push(&["--ro-bind", d, d]),
                Err(_) => {}
            }
        }
        push(&["--proc", "/proc", "--dev", "/dev"]);
        for (i, m) in self.spec.mounts.iter().enumerate() {
            let source = if i == 0 && self.has(Fault::BindElsewhere) {
                self.dir.join("decoy").to_string_lossy().into_owned()
            } else {
                m.source.clone()
            };
            let writable = match m.writable {
                true => !self.has(Fault::ScratchReadOnly),
                false => self.has(Fault::MountsWritable),
            };
            let how = if writable { "--bind" } else { "--ro-bind" };
            push(&[how, &source, &m.target]);
            for e in hidden_by_tmpfs(&self.spec.mounts, i) {
                // Mode 0: the worker's probe reads nothing there, not
                // even an empty directory standing for the host's.
                push(&["--perms", "0000", "--tmpfs", e]);
            }
        }
        if let Some(f) = self.forbidden.filter(|_| self.has(Fault::BindForbidden)) {
            let f = f.to_string_lossy();
            push(&["--ro-bind", &f, &f]);
        }
        let knob = self.dir.join(KNOB_FILE).to_string_lossy().into_owned();
        if self.has(Fault::WritableKnob) {
            push(&["--bind", &knob, "/proc/sys/kernel/core_pattern"]);
        }
        if self.has(Fault::WritableReleaseAgent) {
            push(&["--bind", &knob, "/sys/fs/cgroup/memory/release_agent"]);
        }
        if let Some(s) = self
            .forbidden_socket
            .filter(|_| self.has(Fault::BindSocket))
        {
            let own = self.dir.join(SOCKET_FILE).to_string_lossy().into_owned();
            push(&["--bind", &own, &s.to_string_lossy()]);
        }
        if self.has(Fault::BindDevice) {
            // Without any of them, /dev/null under a name outside the
            // standard set stands for one.
            match FAULT_DEVICES.iter().find(|d| Path::new(d).exists()) {
                Some(d) => push(&["--dev-bind", d, d]),
                None => push(&["--dev-bind", "/dev/null", "/dev/isolint-fault"]),
            }
        }
        push(&["--ro-bind", &self.dir.to_string_lossy(), INSIDE]);
        push(&["--remount-ro", "/", "--chdir", "/"]);
        a
    }

    /// The job's environment as bwrap options (`--clearenv`, then
    /// `--setenv` for each variable): the launcher's own environment first
    /// when the profile inherits it, then the declared variables.
    fn env_payload(&self) -> Result<Vec<u8>, String> {
        let inherited: Vec<(std::ffi::OsString, std::ffi::OsString)> =
            if self.spec.inherit_env || self.has(Fault::InheritEnv) {
                std::env::vars_os().collect()
            } else {
                Vec::new()
            };
        let mut vars: Vec<(&[u8], &[u8])> = inherited
            .iter()
            .map(|(k, v)| (k.as_bytes(), v.as_bytes()))
            .collect();
        vars.extend(
            self.spec
                .variables
                .iter()
                .map(|(k, v)| (k.as_bytes(), v.as_bytes())),
        );
        if self.has(Fault::AddVariable) {
            vars.push((FAULT_EXTRA, b"1"));
        }
        isolint_core::launch::env_args(vars)
    }

    /// The host-side command: bwrap by its absolute path, an empty
    /// environment, the launcher's directory as working directory, and
    /// nothing the profile declares but mount paths already checked. The
    /// returned payload is what bwrap must read on [`ARGS_FD`].
    fn command(&self, command: &[String]) -> Result<(Command, Vec<u8>), String> {
        let payload = self.env_payload()?;
        let mut prefix: Vec<String> = Vec::new();
        // bwrap always sets PWD (after --clearenv too); a job that gets
        // only what is declared has `env` remove it before exec.
        let only_declared = !self.spec.inherit_env && !self.has(Fault::InheritEnv);
        if only_declared && !self.spec.variables.iter().any(|(k, _)| k == "PWD") {
            prefix.extend(["/usr/bin/env".into(), "-u".into(), "PWD".into()]);
        }
        let mut cmd = Command::new(self.bwrap);
        cmd.env_clear()
            .current_dir(self.dir)
            .args(self.bwrap_args())
            .arg("--")
            .args(prefix)
            .args(command);
        Ok((cmd, payload))
    }

    /// Start bwrap running `command` (inside paths). `fd3`: the write end
    /// of a pipe the worker inherits as descriptor 3. The mounts are
    /// checked again first: nothing of an earlier worker may have swapped
    /// a source for a link in between (no worker runs during the check).
    fn spawn(
        &self,
        command: &[String],
        stdout: Stdio,
        fd3: Option<BorrowedFd<'_>>,
    ) -> std::io::Result<Child> {
        let now = check_mounts(self.spec).map_err(std::io::Error::other)?;
        if now != self.sources {
            return Err(std::io::Error::other(
                "a mount source changed since it was checked",
            ));
        }
        let (mut cmd, payload) = self.command(command).map_err(std::io::Error::other)?;
        let args = memory_file(&payload)?;
        cmd.stdin(Stdio::null())
            .stdout(stdout)
            .stderr(Stdio::piped());
        let l = if self.has(Fault::DropLimits) {
            Limits::default()
        } else {
            self.spec.limits
        };
        let limits: Vec<_> = [
            (libc::RLIMIT_AS, l.memory),
            (libc::RLIMIT_NPROC, l.processes),
            (libc::RLIMIT_CPU, l.cpu),
        ]
        .into_iter()
        .filter_map(|(r, v)| Some((r, v?)))
        .collect();
        // As root, std drops the supplementary groups, then sets the gid
        // and the uid in the child before it executes bwrap.
        if rustix::process::geteuid().is_root() {
            cmd.uid(WORKER_ID).gid(WORKER_ID);
        }
        let filter = memory_file(&super::seccomp::default_filter())?;
        let mut fds = vec![(ARGS_FD, args.as_fd())];
        if !self.has(Fault::NoSeccomp) {
            fds.push((SECCOMP_FD, filter.as_fd()));
        }
        if let Some(f) = fd3 {
            fds.push((3, f));
        }
        crate::sys::spawn_limited(cmd, &limits, &fds)
    }
}

/// An anonymous memory file holding `bytes`, positioned at its start:
/// bwrap reads it to the end and closes it, so the job never inherits it.
fn memory_file(bytes: &[u8]) -> std::io::Result<std::fs::File> {
    use std::io::{Seek, Write};
    let fd = rustix::fs::memfd_create("isolint-bwrap-args", rustix::fs::MemfdFlags::CLOEXEC)?;
    let mut f = std::fs::File::from(fd);
    f.write_all(bytes)?;
    f.rewind()?;
    Ok(f)
}

/// Read at most `max` bytes from `r` on a thread of `scope`.
fn drain<'s, R: Read + Send + 's>(
    scope: &'s std::thread::Scope<'s, '_>,
    r: R,
    max: u64,
) -> std::thread::ScopedJoinHandle<'s, Vec<u8>> {
    scope.spawn(move || {
        let mut buf = Vec::new();
        let _ = r.take(max).read_to_end(&mut buf);
        buf
    })
}

/// Wait for `child` until `deadline`; `None` if it is still running.
fn wait_until(child: &mut Child, deadline: Instant) -> Option<std::process::ExitStatus> {
    loop {
        if let Ok(Some(st)) = child.try_wait() {
            return Some(st);
        }
        if Instant::now() >= deadline {
            return None;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// Processes whose command line holds `token` (the helper, its child, and
/// the bwrap processes that started them).
fn marked(token: &str) -> Vec<i32> {
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    dir.filter_map(|e| {
        let pid: i32 = e.ok()?.file_name().to_str()?.parse().ok()?;
        let cmdline = std::fs::read(format!("/proc/{pid}/cmdline")).ok()?;
        cmdline
            .split(|b| *b == 0)
            .any(|arg| arg == token.as_bytes())
            .then_some(pid)
    })
    .collect()
}

/// What the helper worker showed from outside.
struct Held {
    output: Observation,
    wall: Observation,
    tree: Observation,
}

fn launcher_obs(observed: Observed, action: &str, detail: String, started: Instant) -> Observation {
    Observation {
        id: String::new(),
        kind: String::new(),
        action: action.into(),
        observed: observed.as_str().into(),
        errno: None,
        detail: Some(detail),
        elapsed_us: u64::try_from(started.elapsed().as_micros()).unwrap_or(u64::MAX),
    }
}

/// Launch the helper: it fills its output past the limit, leaves a child
/// that ignores SIGTERM and waits. The launcher cuts the output, stops the
/// worker at the (scaled) wall limit and looks for survivors.
fn hold(w: &Worker<'_>, token: &str) -> Result<Held, String> {
    let started = Instant::now();
    let limit = w.spec.limits.output;
    let emit = limit
        .filter(|l| *l <= MAX_EMIT)
        .map_or(1 << 20, |l| l + (64 << 10));
    let cmd = [
        format!("{INSIDE}/isolint"),
        "probe".into(),
        "--hold".into(),
        token.into(),
        "--emit".into(),
        emit.to_string(),
    ];
    let mut child = w
        .spawn(&cmd, Stdio::piped(), None)
        .map_err(|e| format!("cannot start bwrap: {e}"))?;
    let stdout = child.stdout.take();
    let stderr = child.stderr.take();
    let cut = match limit {
        Some(l) if !w.has(Fault::NoOutputCut) => l,
        _ => u64::MAX,
    };
    std::thread::scope(|s| {
        // The launcher keeps at most `cut` bytes and then closes the
        // pipe; reading one byte more shows the job wrote past it.
        let reader = stdout.map(|o| drain(s, o, cut.saturating_add(1)));
        let errors = stderr.map(|e| drain(s, e, MAX_STDERR));
        let wall = w
            .spec
            .limits
            .wall
            .map(|secs| PROBED_WALL.min(Duration::from_secs(secs)));
        let enforce = wall.filter(|_| !w.has(Fault::NoWallLimit));
        let deadline = started + enforce.unwrap_or(PROBED_WALL + GRACE);
        let early = wait_until(&mut child, deadline);
        let kill_at = started.elapsed();
        let _ = child.kill();
        let _ = child.wait();
        // Survivors (anything carrying the token once the kill settles)
        // first: one holds the output pipes open, so the readers finish
        // only once it is gone.
        let settle = Instant::now() + GRACE;
        let mut left = marked(token);
        while !left.is_empty() && Instant::now() < settle {
            std::thread::sleep(Duration::from_millis(10));
            left = marked(token);
        }
        let tree = if left.is_empty() {
            launcher_obs(
                Observed::NoSurvivors,
                "kill the worker, scan /proc for its processes",
                "no process of the job remained after the kill (the child ignored SIGTERM)".into(),
                started,
            )
        } else {
            let n = left.len();
            for pid in left.into_iter().filter_map(rustix::process::Pid::from_raw) {
                // A process this launcher started, marked by its token;
                // one gone since the scan is what was wanted.
                let _ = rustix::process::kill_process(pid, rustix::process::Signal::KILL);
            }
            launcher_obs(
                Observed::Survivors,
                "kill the worker, scan /proc for its processes",
                format!("{n} processes of the job outlived the kill of its parent"),
                started,
            )
        };
        let got = reader
            .and_then(|r| r.join().ok())
            .map_or(0, |b| b.len() as u64);
        let stderr = errors.and_then(|e| e.join().ok()).unwrap_or_default();
        if let Some(st) = early {
            return Err(format!(
                "the helper worker ended by itself ({st}) before its wall limit: {}",
                isolint_core::sanitize::neutralize(String::from_utf8_lossy(&stderr).trim())
            ));
        }
        let output = match limit {
            // One byte past the cut shows the job wrote more than allowed.
            Some(l) if got > l && cut == l => launcher_obs(
                Observed::Enforced,
                "count the worker's stdout",
                format!(
                    "the worker wrote past {l} bytes; the launcher kept {l} and closed the pipe"
                ),
                started,
            ),
            Some(l) if got > l => launcher_obs(
                Observed::NotEnforced,
                "count the worker's stdout",
                format!("collected {got} bytes, over the {l}-byte limit"),
                started,
            ),
            Some(l) if emit <= l => launcher_obs(
                Observed::Error,
                "count the worker's stdout",
                format!("a limit of {l} bytes is too large to fill in the time budget"),
                started,
            ),
            Some(l) => launcher_obs(
                Observed::Error,
                "count the worker's stdout",
                format!("the worker wrote only {got} of {emit} bytes (limit {l})"),
                started,
            ),
            None => launcher_obs(
                Observed::NotEnforced,
                "count the worker's stdout",
                format!("no output limit: collected all {got} bytes"),
                started,
            ),
        };
        let ms = kill_at.as_millis();
        let wall_obs = match (w.spec.limits.wall, enforce) {
            (Some(secs), Some(p)) => launcher_obs(
                Observed::Enforced,
                "stop the worker at its wall limit",
                format!(
                    "stopped at {ms} ms: the declared {secs} s, probed at {} ms",
                    p.as_millis()
                ),
                started,
            ),
            (Some(secs), None) => launcher_obs(
                Observed::NotEnforced,
                "stop the worker at its wall limit",
                format!(
                    "still running at {ms} ms, past the declared {secs} s (probed at {} ms)",
                    PROBED_WALL.as_millis()
                ),
                started,
            ),
            (None, _) => launcher_obs(
                Observed::NotEnforced,
                "stop the worker at its wall limit",
                format!("no wall limit declared: still running at {ms} ms"),
                started,
            ),
        };
        Ok(Held {
            output,
            wall: wall_obs,
            tree,
        })
    })
}

/// Run the probe in a worker; its observations come back on descriptor 3.
/// `host_boot_id` is the host's, read outside, for the boundary-kernel check.
fn probe(w: &Worker<'_>, host_boot_id: Option<&str>) -> Result<Observations, String> {
    // Both ends close on exec: the worker gets the write end only as its
    // descriptor 3 (`spawn_limited`).
    let (read_end, write_end) = std::io::pipe().map_err(|e| format!("pipe: {e}"))?;
    let runner = format!("isolint verify ({})", bwrap_version(w.bwrap, w.dir));
    let mut cmd = vec![
        format!("{INSIDE}/isolint"),
        "probe".into(),
        "--plan".into(),
        format!("{INSIDE}/plan.json"),
        "--output-fd".into(),
        "3".into(),
        "--runner".into(),
        runner,
    ];
    if let Some(id) = host_boot_id {
        cmd.extend(["--host-boot-id".into(), id.into()]);
    }
    let spawned = w.spawn(&cmd, Stdio::null(), Some(write_end.as_fd()));
    // The worker holds the write end now; ours must close for EOF.
    drop(write_end);
    let mut child = spawned.map_err(|e| format!("cannot start bwrap: {e}"))?;
    let stderr = child.stderr.take();
    let wall = w.spec.limits.wall.map_or(PROBE_WALL, |s| {
        PROBE_WALL.min(Duration::from_secs(s.max(1)))
    });
    let (status, doc, errors) = std::thread::scope(|s| {
        let doc = drain(s, read_end, MAX_OBSERVATIONS);
        let errors = stderr.map(|e| drain(s, e, MAX_STDERR));
        let status = wait_until(&mut child, Instant::now() + wall);
        if status.is_none() {
            let _ = child.kill();
            let _ = child.wait();
        }
        (
            status,
            doc.join().unwrap_or_default(),
            errors.and_then(|e| e.join().ok()).unwrap_or_default(),
        )
    });
    let errors = String::from_utf8_lossy(&errors);
    let errors = isolint_core::sanitize::neutralize(errors.trim()).into_owned();
    match status {
        None => Err(format!(
            "the probe did not finish within {} s",
            wall.as_secs()
        )),
        Some(st) if !st.success() => Err(format!("the probe worker failed ({st}): {errors}")),
        Some(_) => {
            observe::parse(&doc).map_err(|e| format!("the probe's observations: {e}; {errors}"))
        }
    }
}

fn bwrap_version(bwrap: &Path, dir: &Path) -> String {
    Command::new(bwrap)
        .arg("--version")
        .env_clear()
        .current_dir(dir)
        .stdin(Stdio::null())
        .output()
        .ok()
        .map(|o| {
            let v = String::from_utf8_lossy(&o.stdout);
            isolint_core::sanitize::neutralize(v.trim()).into_owned()
        })
        .filter(|v| !v.is_empty())
        .unwrap_or_else(|| "bwrap".into())
}

/// The plan's first sensitive catalog path that exists on the host.
fn forbidden_fixture(plan: &Value) -> Option<PathBuf> {
    plan["runtime_checks"].as_array()?.iter().find_map(|c| {
        let p = c["target"]["path"].as_str()?;
        (c["kind"] == "read-denied" && Path::new(p).exists()).then(|| PathBuf::from(p))
    })
}

/// The first socket path the plan says the job must not connect to.
fn forbidden_socket(plan: &Value) -> Option<PathBuf> {
    plan["runtime_checks"].as_array()?.iter().find_map(|c| {
        let p = c["target"]["path"].as_str()?;
        (c["kind"] == "sockets-denied").then(|| PathBuf::from(p))
    })
}

/// The profile document and its report: audited as `isolint audit` would
/// (an imported format through its importer and the runner overlay).
fn audited(args: &VerifyArgs) -> Result<(String, isolint_core::Report), String> {
    let name = input::display(&args.profile);
    let labels = match &args.labels {
        Some(p) => input::load_labels(p).map_err(|f| {
            f.iter()
                .map(|f| f.to_string())
                .collect::<Vec<_>>()
                .join("\n")
        })?,
        None => Labels::workshop(),
    };
    let bytes = input::read(&input::Origin::File(args.profile.clone()), &name)
        .map_err(|f| f.to_string())?;
    let options = AuditOptions {
        today: today::utc_today(),
    };
    let runner = match &args.runner {
        Some(p) => {
            let b = std::fs::read(p).map_err(|e| format!("{}: cannot read: {e}", p.display()))?;
            Some(
                isolint_core::runner::Runner::parse(&b, &p.display().to_string())
                    .map_err(|e| format!("{}:{e}", p.display()))?,
            )
        }
        None => None,
    };
    match isolint_core::import::detect(&bytes, Some(&name)) {
        None => {
            let report = isolint_core::audit(&bytes, &name, &labels, &options)
                .map_err(|e| format!("{name}: {e}"))?;
            let text = String::from_utf8(bytes).map_err(|_| format!("{name}: not UTF-8"))?;
            Ok((text, report))
        }
        Some(format) => {
            let mut units =
                isolint_core::import::import(&bytes, format).map_err(|e| format!("{name}: {e}"))?;
            if units.len() != 1 {
                return Err(format!(
                    "{name}: describes {} profiles; verify launches one (split it with `isolint import -o DIR/`)",
                    units.len()
                ));
            }
            let unit = units.remove(0);
            let merged = match &runner {
                Some(r) => {
                    r.overlay(&unit.profile_json)
                        .map_err(|e| format!("{name}: {e}"))?
                        .profile_json
                }
                None => unit.profile_json.clone(),
            };
            let report = isolint_core::audit::audit_imported(
                &unit,
                &name,
                &labels,
                &options,
                runner.as_ref(),
                &crate::pool::Pool,
            )
            .map_err(|e| format!("{name}: {e}"))?;
            Ok((merged, report))
        }
    }
}

pub fn run(args: &VerifyArgs) -> u8 {
    match verify(args) {
        Ok(code) => code,
        Err(e) => {
            output::error(&e);
            EXIT_ERROR
        }
    }
}

fn verify(args: &VerifyArgs) -> Result<u8, String> {
    // Before anything of the profile is read: nothing it declares can
    // choose the program that builds its sandbox.
    let bwrap = resolve_bwrap();
    if let Some(out) = &args.observations {
        output::refuse_inputs(
            out,
            "--observations",
            &[
                ("profile", Some(args.profile.as_path())),
                ("--labels file", args.labels.as_deref()),
                ("--runner file", args.runner.as_deref()),
            ],
        )?;
    }
    let faults = faults()?;
    let (profile_text, report) = audited(args)?;
    if report.verdict != isolint_core::report::Verdict::EligibleForRuntimeTesting {
        output::error(&format!(
            "{}: not eligible for runtime testing; `isolint audit` lists what to fix first",
            input::display(&args.profile)
        ));
        return Ok(EXIT_NOT_ELIGIBLE);
    }
    let profile: Value = serde_json::from_str(&profile_text)
        .map_err(|e| format!("{}: {e}", input::display(&args.profile)))?;
    let shown = input::display(&args.profile);
    let spec = isolint_core::launch::spec(&profile).map_err(|e| format!("{shown}: {e}"))?;
    let sources = check_mounts(&spec).map_err(|e| format!("{shown}: {e}"))?;
    let Some(bwrap) = bwrap else {
        return Err(format!(
            "bwrap (bubblewrap) is not installed as {} (owned by root, writable by nobody else); scripts/setup.sh installs it",
            BWRAP_PATHS.join(" or ")
        ));
    };

    let mut dir = LaunchDir::create().map_err(|e| format!("temporary directory: {e}"))?;
    remove_on_interrupt(&dir.path);
    install_probe(&dir.path).map_err(|e| format!("installing the probe: {e}"))?;
    std::fs::DirBuilder::new()
        .mode(0o755)
        .create(dir.path.join("decoy"))
        .map_err(|e| format!("temporary directory: {e}"))?;
    if faults
        .iter()
        .any(|f| matches!(f, Fault::WritableKnob | Fault::WritableReleaseAgent))
    {
        let knob = dir.path.join(KNOB_FILE);
        std::fs::write(&knob, "")
            .and_then(|()| std::fs::set_permissions(&knob, std::fs::Permissions::from_mode(0o666)))
            .map_err(|e| format!("temporary directory: {e}"))?;
    }
    // Egress checks connect here; reaching it from inside means the
    // worker shares the launcher's network.
    let listener = std::net::TcpListener::bind("127.0.0.1:0")
        .map_err(|e| format!("loopback listener: {e}"))?;
    let port = listener.local_addr().map_err(|e| e.to_string())?.port();
    let export_text = isolint_core::render::json::render(&report);
    let mut export: Value = serde_json::from_str(&export_text).map_err(|e| e.to_string())?;
    let forbidden = forbidden_fixture(&export);
    let forbidden_socket = forbidden_socket(&export);
    // `bind-socket`: a listener of the launcher's own, in its directory,
    // open to the worker's uid; dropped with the directory.
    let _fault_socket = if faults.contains(&Fault::BindSocket) {
        let at = dir.path.join(SOCKET_FILE);
        let l = std::os::unix::net::UnixListener::bind(&at)
            .map_err(|e| format!("fault socket: {e}"))?;
        std::fs::set_permissions(&at, std::fs::Permissions::from_mode(0o777))
            .map_err(|e| format!("fault socket: {e}"))?;
        Some(l)
    } else {
        None
    };
    mapped_plan(&mut export, &spec, &sources, port);
    let plan_path = dir.path.join("plan.json");
    std::fs::write(&plan_path, export.to_string()).map_err(|e| format!("plan: {e}"))?;
    std::fs::set_permissions(&plan_path, std::fs::Permissions::from_mode(0o644))
        .map_err(|e| format!("plan: {e}"))?;

    let token = format!(
        "isolint-hold-{}-{}",
        std::process::id(),
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos())
    );
    let worker = Worker {
        bwrap: &bwrap,
        spec: &spec,
        sources: &sources,
        faults: &faults,
        dir: &dir.path,
        forbidden: forbidden.as_deref(),
        forbidden_socket: forbidden_socket.as_deref(),
    };
    // One after the other: the kernel counts the process limit per host
    // uid across user namespaces, so two workers at once would share it.
    // Unreadable here, the probe reports the kernel check as needing it.
    let host_boot_id = std::fs::read_to_string(super::probe::BOOT_ID)
        .ok()
        .and_then(|s| super::probe::parse_boot_id(&s).ok());
    let probed = probe(&worker, host_boot_id.as_deref())?;
    let held = hold(&worker, &token)?;
    drop(listener);

    // The worker is gone once its directory is and nothing of it runs.
    let started = Instant::now();
    if !faults.contains(&Fault::KeepWorker) {
        dir.remove()
            .map_err(|e| format!("removing {}: {e}", dir.path.display()))?;
    }
    let kept_dir = dir.path.exists();
    let running = marked(&token).len();
    let destroyed = match (kept_dir, running) {
        (false, 0) => launcher_obs(
            Observed::Destroyed,
            "remove the worker's directory, scan /proc",
            "the worker's temporary directory is gone and none of its processes runs".into(),
            started,
        ),
        _ => launcher_obs(
            Observed::Kept,
            "remove the worker's directory, scan /proc",
            format!(
                "{}{running} processes of the worker still run",
                if kept_dir {
                    "its temporary directory remains; "
                } else {
                    ""
                }
            ),
            started,
        ),
    };
    // Whatever was observed, nothing stays behind.
    drop(dir);

    let obs = combine(&report, probed, held, destroyed);
    if let Some(p) = &args.observations {
        let mut text = serde_json::to_string_pretty(&obs).unwrap_or_default();
        text.push('\n');
        atomic::write_atomically(p, text.as_bytes())
            .map_err(|e| format!("{}: cannot write: {e}", p.display()))?;
    }
    let rec = observe::join_report(&report, &obs);
    let of = reconcile::PlanOf {
        fingerprint: &report.profile.fingerprint,
        source: &report.profile.source,
        name: &report.profile.name,
    };
    Ok(reconcile::finish(&rec, &of, &obs, args.format))
}

/// The probe's observations, completed with what the launcher saw from
/// outside, in plan order.
fn combine(
    report: &isolint_core::Report,
    probed: Observations,
    held: Held,
    destroyed: Observation,
) -> Observations {
    use isolint_core::finding::CheckKind;
    use isolint_core::plan::{LimitName, Target};
    let mut by_id: std::collections::BTreeMap<String, Observation> = probed
        .observations
        .into_iter()
        .map(|o| (o.id.clone(), o))
        .collect();
    let mut observations = Vec::with_capacity(report.runtime_checks.len());
    for c in &report.runtime_checks {
        let from_probe = by_id.remove(&c.id);
        let outside = match (&c.kind, &c.target) {
            (CheckKind::LimitEnforced, Target::Limit { limit, .. }) => match limit {
                LimitName::OutputBytes => Some(held.output.clone()),
                LimitName::WallSeconds => Some(held.wall.clone()),
                LimitName::MaxJobs => Some(launcher_obs(
                    Observed::NeedsLauncher,
                    "none",
                    "the reference launcher starts one job; the concurrency cap belongs to the orchestrator that schedules many".into(),
                    Instant::now(),
                )),
                _ => None,
            },
            (CheckKind::TimeoutKillsTree, _) => Some(held.tree.clone()),
            (CheckKind::WorkerDestroyed, _) => Some(destroyed.clone()),
            (CheckKind::CredentialExpired, _) => Some(launcher_obs(
                Observed::NeedsLauncher,
                "none",
                "the reference launcher issues no credentials; the broker must show the token is rejected after the job".into(),
                Instant::now(),
            )),
            _ => None,
        };
        let mut o = match (outside, from_probe) {
            (Some(o), _) => o,
            (None, Some(o)) => o,
            (None, None) => continue,
        };
        o.id = c.id.clone();
        o.kind = c.kind.as_str().into();
        if let (CheckKind::ReadDenied, Target::Path(p)) = (&c.kind, &c.target) {
            // Absent inside, present on the host: the mount namespace hides it.
            if o.observed == Observed::Absent.as_str() && std::fs::symlink_metadata(p).is_ok() {
                o.observed = Observed::Denied.as_str().into();
                o.detail = Some(
                    "absent inside the worker while present on the host: the worker's mount namespace hides it"
                        .into(),
                );
            }
        }
        if c.kind == CheckKind::BoundaryKernel {
            if let Some(r) = super::probe::kernel_release() {
                let host = format!("host kernel release: {r}");
                o.detail = Some(match o.detail.take() {
                    Some(d) => format!("{d}; {host}"),
                    None => host,
                });
            }
        }
        if matches!(c.kind, CheckKind::EgressDenied | CheckKind::EgressAllowed) {
            let mapped = format!(
                "mapped from {} to the launcher's loopback listener, reachable only through a shared network",
                c.target
            );
            o.detail = Some(match o.detail.take() {
                Some(d) => format!("{d}; {mapped}"),
                None => mapped,
            });
        }
        observations.push(o);
    }
    Observations {
        schema: OBSERVATIONS_SCHEMA.into(),
        plan_fingerprint: probed.plan_fingerprint,
        runner: probed.runner,
        observations,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn profile(extra: Value) -> Value {
        let mut p = serde_json::json!({
            "name": "p",
            "mounts": [{"source": "/usr", "target": "/workspace", "access": "read-only"},
                       {"source": "/tmp", "target": "/scratch/"}],
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
    fn every_fault_has_a_name_and_changes_the_arguments() {
        let names: std::collections::BTreeSet<&str> = FAULTS.iter().map(|(n, _)| *n).collect();
        assert_eq!(names.len(), FAULTS.len());
        let spec = isolint_core::launch::spec(&profile(serde_json::json!({}))).unwrap();
        let w = Worker {
            bwrap: Path::new("/usr/bin/bwrap"),
            spec: &spec,
            sources: &[],
            faults: &[],
            dir: Path::new("/tmp/isolint-verify-test"),
            forbidden: None,
            forbidden_socket: None,
        };
        let args = w.bwrap_args().join(" ");
        for want in [
            "--args 4",
            "--unshare-pid",
            "--die-with-parent",
            "--new-session",
            "--unshare-net",
            "--ro-bind /usr /workspace",
            "--bind /tmp /scratch",
            "--remount-ro /",
            "--seccomp 5",
            "--unshare-cgroup",
        ] {
            assert!(args.contains(want), "{want}: {args}");
        }
        let faulty = Worker {
            faults: &[
                Fault::ShareNetwork,
                Fault::KillParent,
                Fault::ScratchReadOnly,
            ],
            ..w
        };
        let args = faulty.bwrap_args().join(" ");
        for gone in [
            "--unshare-pid",
            "--die-with-parent",
            "--unshare-net",
            "--bind /tmp",
        ] {
            assert!(!args.contains(gone), "{gone}: {args}");
        }
    }

    /// Every variable a profile can declare to reach a host process, with
    /// a hostile value. The launcher's host-side processes are run with a
    /// stub in bwrap's place that records what it got (environment,
    /// working directory, command line, the `--args` payload): only the
    /// payload may carry the declared variables, and there only after
    /// `--clearenv`, as `--setenv` pairs that split back exactly.
    #[test]
    fn nothing_declared_reaches_a_host_process_but_through_bwraps_own_options() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        std::fs::set_permissions(d, std::fs::Permissions::from_mode(0o777)).unwrap();
        let marker = d.join("marker");
        // Distinct from the launcher's own paths, so a value is told apart.
        let h = d.join("hostile").display().to_string();
        let hostile: Vec<(&str, String)> = vec![
            ("PATH", format!("{h}:/usr/bin:/bin")),
            ("LD_PRELOAD", format!("{h}/evil.so")),
            ("LD_LIBRARY_PATH", h.clone()),
            ("LD_AUDIT", format!("{h}/evil.so")),
            ("LD_DEBUG", "all".into()),
            ("LD_DEBUG_OUTPUT", marker.display().to_string()),
            ("GCONV_PATH", h.clone()),
            ("GLIBC_TUNABLES", "glibc.malloc.check=3".into()),
            ("MALLOC_CHECK_", "3".into()),
            ("LOCPATH", h.clone()),
            ("NLSPATH", format!("{h}/%N")),
            ("HOSTALIASES", marker.display().to_string()),
            ("TZDIR", h.clone()),
            ("HOME", h.clone()),
            ("TMPDIR", h.clone()),
            ("PWD", h.clone()),
            ("BASH_ENV", marker.display().to_string()),
            ("ENV", marker.display().to_string()),
            ("SHELL", marker.display().to_string()),
            (
                "SECRET_TOKEN",
                "s3cr3t-value-never-on-a-command-line".into(),
            ),
        ];
        let vars: serde_json::Map<String, Value> = hostile
            .iter()
            .map(|(k, v)| (k.to_string(), Value::from(v.clone())))
            .collect();
        // A stub in bwrap's place: it records and leaves no other trace.
        let stub = d.join("stub-bwrap");
        std::fs::write(
            &stub,
            format!(
                "#!/bin/sh\n/usr/bin/env > {r}/env.$$\npwd > {r}/cwd.$$\ncat <&4 > {r}/args.$$\nprintf '%s\\n' \"$@\" > {r}/argv.$$\n",
                r = d.display()
            ),
        )
        .unwrap();
        std::fs::set_permissions(&stub, std::fs::Permissions::from_mode(0o755)).unwrap();
        for inherit in [false, true] {
            for f in std::fs::read_dir(d).unwrap().flatten() {
                if f.file_name() != "stub-bwrap" {
                    std::fs::remove_file(f.path()).unwrap();
                }
            }
            let p = profile(serde_json::json!({
                "environment": {"inherit": inherit, "variables": vars},
                "limits": {},
                "mounts": [],
            }));
            let spec = isolint_core::launch::spec(&p).unwrap();
            let w = Worker {
                bwrap: &stub,
                spec: &spec,
                sources: &[],
                faults: &[],
                dir: d,
                forbidden: None,
                forbidden_socket: None,
            };
            // Each host-side process verify starts through a worker: the
            // probe worker (with descriptor 3) and the helper worker.
            let (r, wr) = std::io::pipe().unwrap();
            let commands: [(&[String], Option<BorrowedFd<'_>>); 2] = [
                (
                    &["/run/isolint/isolint".into(), "probe".into()],
                    Some(wr.as_fd()),
                ),
                (
                    &[
                        "/run/isolint/isolint".into(),
                        "probe".into(),
                        "--hold".into(),
                    ],
                    None,
                ),
            ];
            for (command, fd3) in commands {
                let mut child = w.spawn(command, Stdio::null(), fd3).unwrap();
                assert!(child.wait().unwrap().success());
            }
            drop((r, wr));
            let mut seen = 0;
            for f in std::fs::read_dir(d).unwrap().flatten() {
                let name = f.file_name().to_string_lossy().into_owned();
                let text = std::fs::read(f.path()).unwrap();
                let text = String::from_utf8_lossy(&text);
                if name.starts_with("env.") {
                    seen += 1;
                    // sh itself adds PWD, SHLVL and `_`; nothing else.
                    let names: Vec<&str> = text
                        .lines()
                        .filter_map(|l| l.split_once('=').map(|(k, _)| k))
                        .filter(|k| !["PWD", "SHLVL", "_", "OLDPWD"].contains(k))
                        .collect();
                    assert!(names.is_empty(), "inherit {inherit}: host env {names:?}");
                } else if name.starts_with("cwd.") {
                    assert_eq!(text.trim(), d.display().to_string(), "working directory");
                } else if name.starts_with("argv.") {
                    // A name is never on the command line; nor a value,
                    // where it is long enough to tell apart from bwrap's
                    // own words (`3` is also a descriptor number there).
                    for (k, v) in &hostile {
                        assert!(!text.contains(k), "{k} on the command line: {text}");
                        assert!(
                            v.len() < 4 || !text.contains(v.as_str()),
                            "{k}'s value on the command line: {text}"
                        );
                    }
                } else if name.starts_with("args.") {
                    let fields: Vec<&str> = text.split('\0').collect();
                    assert_eq!(fields[0], "--clearenv", "{text}");
                    // The declared ones come last, in pairs, exactly.
                    let tail = &fields[fields.len() - 1 - 3 * hostile.len()..fields.len() - 1];
                    // In the profile's order (serde_json's: by name).
                    let mut declared = hostile.clone();
                    declared.sort();
                    for (chunk, (k, v)) in tail.chunks(3).zip(&declared) {
                        assert_eq!(chunk, ["--setenv", *k, v.as_str()]);
                    }
                    if !inherit {
                        assert_eq!(fields.len(), 2 + 3 * hostile.len(), "only what is declared");
                    }
                }
            }
            assert_eq!(seen, 2, "both workers ran the stub");
            assert!(!marker.exists(), "a loader or shell wrote the marker");
        }
        // The third host process: `bwrap --version`, for the runner name.
        for f in std::fs::read_dir(d).unwrap().flatten() {
            if f.file_name() != "stub-bwrap" {
                std::fs::remove_file(f.path()).unwrap();
            }
        }
        let _ = bwrap_version(&stub, d);
        let mut seen = 0;
        for f in std::fs::read_dir(d).unwrap().flatten() {
            let name = f.file_name().to_string_lossy().into_owned();
            let text = std::fs::read_to_string(f.path()).unwrap();
            if name.starts_with("env.") {
                seen += 1;
                let names: Vec<&str> = text
                    .lines()
                    .filter_map(|l| l.split_once('=').map(|(k, _)| k))
                    .filter(|k| !["PWD", "SHLVL", "_", "OLDPWD"].contains(k))
                    .collect();
                assert!(names.is_empty(), "bwrap --version: host env {names:?}");
            } else if name.starts_with("cwd.") {
                assert_eq!(text.trim(), d.display().to_string());
            } else if name.starts_with("argv.") {
                assert_eq!(text, "--version\n");
            }
        }
        assert_eq!(seen, 1, "bwrap --version ran the stub");
    }

    fn mkfifo(p: &Path) {
        rustix::fs::mknodat(
            rustix::fs::CWD,
            p,
            rustix::fs::FileType::Fifo,
            rustix::fs::Mode::from_raw_mode(0o600),
            0,
        )
        .unwrap();
    }

    /// Each source bwrap could be handed, and whether it is refused: links
    /// anywhere in the path, FIFOs, sockets and devices are; a directory
    /// and a regular file are not. Mount points inside a bound host
    /// directory must already be there.
    #[test]
    fn mount_sources_are_checked_on_disk_without_following_links() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        let p = |rel: &str| d.join(rel).to_string_lossy().into_owned();
        std::fs::create_dir_all(d.join("real/sub")).unwrap();
        std::fs::write(d.join("real/file"), "x").unwrap();
        std::os::unix::fs::symlink(d.join("real"), d.join("link")).unwrap();
        std::os::unix::fs::symlink(d.join("real/file"), d.join("filelink")).unwrap();
        mkfifo(&d.join("fifo"));
        let _sock = std::os::unix::net::UnixListener::bind(d.join("sock")).unwrap();
        std::fs::write(d.join("twice"), "x").unwrap();
        std::fs::hard_link(d.join("twice"), d.join("twice-again")).unwrap();
        let rows: Vec<(String, Option<&str>)> = vec![
            (p("real"), None),
            (p("real/file"), None),
            (p("link"), Some("symbolic link")),
            (p("link/sub"), Some("symbolic link")),
            (p("filelink"), Some("symbolic link")),
            (p("fifo"), Some("FIFO")),
            (p("twice"), Some("hard links")),
            (p("sock"), Some("socket")),
            ("/dev/null".into(), Some("device")),
            (p("real/file/below"), Some("regular file")),
            (p("absent"), Some("No such file")),
        ];
        let mut wrong = Vec::new();
        for (source, want) in &rows {
            let got = check_host_path(source);
            match (want, &got) {
                (None, Ok(_)) => {}
                (Some(w), Err(e)) if e.contains(w) => {}
                _ => wrong.push(format!("{source}: {got:?}")),
            }
        }
        assert!(wrong.is_empty(), "{wrong:#?}");

        let spec = |mounts: Value| {
            isolint_core::launch::spec(&serde_json::json!({"mounts": mounts})).unwrap()
        };
        // Nested in a bound host directory: the mount point must exist.
        let nested = spec(serde_json::json!([
            {"source": p("real"), "target": "/w"},
            {"source": p("real/file"), "target": "/w/new"},
        ]));
        let e = check_mounts(&nested).unwrap_err();
        assert!(e.contains("would create") && e.contains("/mounts/1"), "{e}");
        assert!(!d.join("real/new").exists());
        let present = spec(serde_json::json!([
            {"source": p("real"), "target": "/w"},
            {"source": p("real"), "target": "/w/sub"},
        ]));
        assert_eq!(check_mounts(&present).unwrap().len(), 2);
        // Not nested (a sibling, the same target): nothing to check.
        let apart = spec(serde_json::json!([
            {"source": p("real"), "target": "/w"},
            {"source": p("real/file"), "target": "/wx"},
            {"source": p("real/sub"), "target": "/w"},
        ]));
        assert_eq!(check_mounts(&apart).unwrap().len(), 3);
    }
}
