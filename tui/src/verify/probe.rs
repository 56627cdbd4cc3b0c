//! `isolint probe --plan FINDINGS.json`: runs inside a launched environment,
//! performs each runtime check's harmless action and records what the kernel
//! answered as an `isolint.observations/v1` document. It never sends a packet
//! outside 127.0.0.0/8, writes only uniquely named files it removes at once,
//! and overruns limits by small, bounded amounts. What cannot be seen from
//! inside is reported `needs-launcher` with a reason, never skipped; a
//! launcher (`isolint verify`) fills those in from outside.

use std::io::ErrorKind;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use clap::Args;
use isolint_core::model::StringEnum;
use isolint_core::observe::{Observation, Observations, Observed, OBSERVATIONS_SCHEMA};
use serde_json::Value;

use crate::files::output::{self as output, EXIT_ERROR, EXIT_OK};

#[derive(Debug, Args)]
pub struct ProbeArgs {
    /// The isolint.findings/v2 document whose runtime checks to perform
    #[arg(long, value_name = "FINDINGS", required_unless_present_any = ["hold", "helper"])]
    plan: Option<PathBuf>,
    /// Write the observations here instead of standard output
    #[arg(short, long, value_name = "OBSERVATIONS", conflicts_with = "output_fd")]
    output: Option<PathBuf>,
    /// Write the observations to this inherited file descriptor (a pipe the launcher
    /// owns, out of the job's reach once the probe exits)
    #[arg(long, value_name = "FD")]
    output_fd: Option<i32>,
    /// What launched this environment, recorded in the document
    #[arg(long, default_value = "unknown")]
    runner: String,
    /// The host's boot id (`cat /proc/sys/kernel/random/boot_id` outside the sandbox),
    /// for the boundary-kernel check: the same id inside means the host's kernel
    #[arg(long, value_name = "ID", value_parser = parse_boot_id)]
    host_boot_id: Option<String>,
    /// Launcher helper (`isolint verify`): write --emit bytes to stdout, leave a child
    /// that ignores SIGTERM and wait; TOKEN marks the processes for the launcher's
    /// survivor scan. Both exit by themselves after HOLD_LIMIT at the latest.
    #[arg(long, hide = true, value_name = "TOKEN", conflicts_with = "plan")]
    hold: Option<String>,
    /// Bytes the helper writes to stdout before it waits
    #[arg(long, hide = true, default_value_t = 0, requires = "hold")]
    emit: u64,
    /// A child the probe starts of itself (this program again, not a
    /// fork, so that no `unsafe` runs between fork and exec)
    #[arg(long, hide = true, value_enum, conflicts_with_all = ["plan", "emit"])]
    helper: Option<Helper>,
}

/// What a child started with `--helper` does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum Helper {
    /// Ignore SIGTERM and wait (the `--hold` helper's child; at most
    /// HOLD_LIMIT).
    IgnoreTerm,
    /// Wait until standard input closes (one of the processes that
    /// overrun the process limit).
    WaitEof,
    /// Lower the soft CPU limit to one second and spin (at most
    /// HOLD_LIMIT of wall time).
    SpinCpu,
}

/// Exit status of a helper that could not do what it was started for.
const HELPER_FAILED: u8 = 3;

/// Start this program again as `helper` with `stdin`. The `ignore-term`
/// child keeps this process's stdout and stderr, as a job's grandchild
/// would (the launcher must cope with a survivor holding its pipes); the
/// others write nothing.
fn spawn_helper(
    helper: Helper,
    extra: &[&str],
    stdin: std::process::Stdio,
) -> std::io::Result<std::process::Child> {
    use clap::ValueEnum;
    use std::process::Stdio;
    let name = helper
        .to_possible_value()
        .map(|v| v.get_name().to_string())
        .unwrap_or_default();
    let mut cmd = std::process::Command::new(std::env::current_exe()?);
    cmd.args(["probe", "--helper", &name])
        .args(extra)
        .stdin(stdin);
    if helper != Helper::IgnoreTerm {
        cmd.stdout(Stdio::null()).stderr(Stdio::null());
    }
    cmd.spawn()
}

/// Run as a helper child; the exit status is all the parent reads.
fn helper(h: Helper) -> u8 {
    match h {
        Helper::IgnoreTerm => {
            // A handler that only sets a flag: SIGTERM no longer ends
            // the process, as if ignored.
            let caught = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
            if signal_hook::flag::register(signal_hook::consts::SIGTERM, caught).is_err() {
                return HELPER_FAILED;
            }
            std::thread::sleep(HOLD_LIMIT);
            EXIT_OK
        }
        Helper::WaitEof => {
            let _ = std::io::copy(&mut std::io::stdin().lock(), &mut std::io::sink());
            EXIT_OK
        }
        Helper::SpinCpu => {
            use rustix::process::{getrlimit, setrlimit, Resource, Rlimit};
            let hard = getrlimit(Resource::Cpu).maximum;
            let soft = hard.map_or(1, |h| h.min(1));
            if setrlimit(
                Resource::Cpu,
                Rlimit {
                    current: Some(soft),
                    maximum: hard,
                },
            )
            .is_err()
            {
                return HELPER_FAILED;
            }
            // Bounded even if nobody stops it: the parent reads an end
            // by exit status as "ended otherwise".
            let start = Instant::now();
            let mut x = 0u64;
            while start.elapsed() < HOLD_LIMIT {
                for _ in 0..1_000_000 {
                    x = std::hint::black_box(x.wrapping_add(1));
                }
            }
            EXIT_OK
        }
    }
}

/// The longest the `--hold` helper and its child stay alive, whatever the
/// launcher does: a survivor of a broken launch still goes away.
const HOLD_LIMIT: Duration = Duration::from_secs(20);

/// The errno name of an I/O error, for the record.
fn errno_name(e: &std::io::Error) -> Option<String> {
    let n = e.raw_os_error()?;
    Some(
        match n {
            libc::EACCES => "EACCES",
            libc::EPERM => "EPERM",
            libc::ENOENT => "ENOENT",
            libc::EROFS => "EROFS",
            libc::EEXIST => "EEXIST",
            libc::ENOTDIR => "ENOTDIR",
            libc::ECONNREFUSED => "ECONNREFUSED",
            libc::ENETUNREACH => "ENETUNREACH",
            libc::ETIMEDOUT => "ETIMEDOUT",
            libc::ENOMEM => "ENOMEM",
            libc::EAGAIN => "EAGAIN",
            _ => return Some(format!("errno {n}")),
        }
        .to_string(),
    )
}

/// What an errno means for a check of access: denial, absence, or an
/// answer the probe cannot interpret (error, so not observable).
fn denial(e: &std::io::Error) -> Observed {
    match e.raw_os_error() {
        Some(libc::EACCES | libc::EPERM | libc::EROFS) => Observed::Denied,
        Some(libc::ENOENT | libc::ENOTDIR) => Observed::Absent,
        _ => Observed::Error,
    }
}

type Answer = (&'static str, Observed, Option<String>, Option<String>);

/// What kind of file a target is, for a detail: only regular files and
/// directories are opened.
fn special_kind(t: std::fs::FileType) -> &'static str {
    use std::os::unix::fs::FileTypeExt;
    if t.is_fifo() {
        "a FIFO"
    } else if t.is_socket() {
        "a socket"
    } else if t.is_block_device() || t.is_char_device() {
        "a device"
    } else {
        "neither a file nor a directory"
    }
}

/// Whether the kernel grants `mode` on a target the probe does not open
/// (a FIFO could block, a device act on being opened): access(2) with the
/// effective ids, as the job's open would be checked.
fn access_only(path: &Path, mode: rustix::fs::Access, kind: &str) -> Answer {
    let action = "faccessat (not opened)";
    match rustix::fs::accessat(rustix::fs::CWD, path, mode, rustix::fs::AtFlags::EACCESS) {
        Ok(()) => (
            action,
            Observed::Allowed,
            None,
            Some(format!(
                "{kind}: the kernel grants the job access; not opened"
            )),
        ),
        Err(e) => {
            let e = std::io::Error::from(e);
            (
                action,
                denial(&e),
                errno_name(&e),
                Some(format!("{kind}: not opened")),
            )
        }
    }
}

/// Open a target without blocking or becoming its controlling terminal.
fn open_nonblocking(path: &Path, write: bool) -> std::io::Result<std::fs::File> {
    use std::os::unix::fs::OpenOptionsExt;
    std::fs::OpenOptions::new()
        .read(!write)
        .write(write)
        .custom_flags(libc::O_NONBLOCK | libc::O_NOCTTY)
        .open(path)
}

/// Open for reading (a file) or list (a directory). Only a regular file
/// or a directory is opened, and without blocking (a FIFO swapped in
/// between the stat and the open cannot hold the probe); anything else
/// is answered by access(2).
fn read(path: &Path) -> Answer {
    const ACTION: &str = "open O_RDONLY|O_NONBLOCK / readdir";
    let t = match std::fs::metadata(path) {
        Ok(m) => m.file_type(),
        Err(e) => return (ACTION, denial(&e), errno_name(&e), None),
    };
    if !t.is_file() && !t.is_dir() {
        return access_only(path, rustix::fs::Access::READ_OK, special_kind(t));
    }
    let r = open_nonblocking(path, false).and_then(|f| {
        let t = f.metadata()?.file_type();
        if t.is_dir() {
            std::fs::read_dir(path).map(|_| None)
        } else if t.is_file() {
            Ok(None)
        } else {
            Ok(Some(format!(
                "{}: opened (it changed kind since the stat), not read",
                special_kind(t)
            )))
        }
    });
    match r {
        Ok(detail) => (ACTION, Observed::Allowed, None, detail),
        Err(e) => (ACTION, denial(&e), errno_name(&e), None),
    }
}

/// A write check on whatever is at `path`: a directory by creating a
/// file in it ([`write()`]), a regular file by opening it for writing
/// (nothing is written, no O_TRUNC), anything else by access(2). A path
/// under a file (ENOTDIR) is an error, never "absent": only ENOENT lets
/// an ancestor answer ([`write_denied`]).
fn write_check(path: &Path) -> Answer {
    const ACTION: &str = "open O_WRONLY|O_NONBLOCK (nothing written)";
    let t = match std::fs::metadata(path) {
        Ok(m) => m.file_type(),
        Err(e) if e.raw_os_error() == Some(libc::ENOTDIR) => {
            return (
                "stat",
                Observed::Error,
                errno_name(&e),
                Some("a component of the path is not a directory".into()),
            )
        }
        Err(e) => return ("stat", denial(&e), errno_name(&e), None),
    };
    if t.is_dir() {
        return write(path);
    }
    if !t.is_file() {
        return access_only(path, rustix::fs::Access::WRITE_OK, special_kind(t));
    }
    match open_nonblocking(path, true) {
        Ok(_) => (ACTION, Observed::Allowed, None, None),
        Err(e) => (ACTION, denial(&e), errno_name(&e), None),
    }
}

/// Create a uniquely named file with O_CREAT|O_EXCL in `dir`, then remove it.
fn write(dir: &Path) -> Answer {
    use std::sync::atomic::{AtomicU64, Ordering};
    static N: AtomicU64 = AtomicU64::new(0);
    let name = format!(
        ".isolint-probe-{}-{}",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    );
    let file = dir.join(name);
    let action = "open O_CREAT|O_EXCL, unlink";
    match std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&file)
    {
        Ok(_) => {
            let _ = std::fs::remove_file(&file);
            (action, Observed::Allowed, None, None)
        }
        Err(e) => (action, denial(&e), errno_name(&e), None),
    }
}

/// Connect only to loopback; anything else is left to the launcher, which
/// maps it to a loopback endpoint or runs us with no route.
fn egress(target: &Value) -> Answer {
    let host = target["host"].as_str().unwrap_or_default();
    let port = target["port"].as_u64().and_then(|p| u16::try_from(p).ok());
    let ip = host
        .parse::<std::net::Ipv4Addr>()
        .ok()
        .filter(|ip| ip.is_loopback());
    let (Some(ip), Some(port)) = (ip, port) else {
        return (
            "none",
            Observed::NeedsLauncher,
            None,
            Some("not a loopback endpoint: the probe sends no packet outside 127.0.0.0/8; the launcher maps or isolates it".into()),
        );
    };
    if target["protocol"].as_str().unwrap_or("tcp") != "tcp" {
        return (
            "none",
            Observed::NeedsLauncher,
            None,
            Some("only tcp is probed".into()),
        );
    }
    let addr = std::net::SocketAddr::from((ip, port));
    match std::net::TcpStream::connect_timeout(&addr, Duration::from_millis(500)) {
        Ok(_) => ("tcp connect", Observed::Allowed, None, None),
        Err(e) => {
            // Refused or unreachable: nothing answered, so the path is closed.
            let observed = match e.kind() {
                ErrorKind::ConnectionRefused | ErrorKind::TimedOut => Observed::Denied,
                _ => match e.raw_os_error() {
                    Some(libc::ENETUNREACH | libc::EHOSTUNREACH | libc::EACCES | libc::EPERM) => {
                        Observed::Denied
                    }
                    _ => Observed::Error,
                },
            };
            ("tcp connect", observed, errno_name(&e), None)
        }
    }
}

/// Names only, never values.
fn env_exact(target: &Value) -> Answer {
    let declared: std::collections::BTreeSet<String> = target["variables"]
        .as_array()
        .map(|v| {
            v.iter()
                .filter_map(|n| n.as_str().map(String::from))
                .collect()
        })
        .unwrap_or_default();
    let present: std::collections::BTreeSet<String> = std::env::vars_os()
        .map(|(k, _)| k.to_string_lossy().into_owned())
        .collect();
    let extra: Vec<&str> = present.difference(&declared).map(String::as_str).collect();
    let missing: Vec<&str> = declared.difference(&present).map(String::as_str).collect();
    if extra.is_empty() && missing.is_empty() {
        ("environ names", Observed::Exact, None, None)
    } else {
        let detail = format!("extra: {}; missing: {}", extra.join(","), missing.join(","));
        ("environ names", Observed::Differs, None, Some(detail))
    }
}

/// A write-denied target that is absent (ENOENT): the job could write
/// there only by creating it, so the nearest existing ancestor answers
/// for it. A present target answers for itself, a file as a file.
fn write_denied(path: &Path) -> Answer {
    let answer = write_check(path);
    if answer.1 != Observed::Absent || answer.2.as_deref() != Some("ENOENT") {
        return answer;
    }
    let Some(ancestor) = path.ancestors().skip(1).find(|a| a.exists()) else {
        return answer;
    };
    let (action, observed, errno, _) = write_check(ancestor);
    let detail = match observed {
        Observed::Denied => format!(
            "absent; its nearest existing ancestor {} refuses writes, so it cannot be created",
            ancestor.display()
        ),
        Observed::Allowed => format!(
            "absent, but its nearest existing ancestor {} accepts writes: the job can create it",
            ancestor.display()
        ),
        _ => format!("absent; writing in {} failed", ancestor.display()),
    };
    (action, observed, errno, Some(detail))
}

/// Compare what the mount target resolves to (following links, as the job
/// would) with the identity of the declared source, which only the
/// launcher can see: it passes it as `target.source` `{dev, ino}`.
fn link_resolution(target: &Value) -> Answer {
    use std::os::unix::fs::MetadataExt;
    let action = "stat (st_dev, st_ino)";
    let path = target["path"].as_str().unwrap_or_default();
    let (Some(dev), Some(ino)) = (
        target["source"]["dev"].as_u64(),
        target["source"]["ino"].as_u64(),
    ) else {
        return (
            "none",
            Observed::NeedsLauncher,
            None,
            Some("the declared source is visible only outside: a launcher passes its identity as target.source {dev, ino}".into()),
        );
    };
    match std::fs::metadata(path) {
        Ok(m) if m.dev() == dev && m.ino() == ino => (action, Observed::Resolves, None, None),
        Ok(_) => (
            action,
            Observed::Redirected,
            None,
            Some("the mount target is another file than the declared source".into()),
        ),
        Err(e) => (
            action,
            Observed::Redirected,
            errno_name(&e),
            Some("nothing is mounted at the target".into()),
        ),
    }
}

/// The resource a limit names, for the limits the kernel enforces per
/// process; the others are observed by the launcher from outside.
fn resource(limit: &str) -> Option<rustix::process::Resource> {
    use rustix::process::Resource;
    match limit {
        "memory_bytes" => Some(Resource::As),
        "processes" => Some(Resource::Nproc),
        "cpu_seconds" => Some(Resource::Cpu),
        _ => None,
    }
}

/// Set a limit (`None`: unlimited); whether the kernel took it.
fn setrlimit(r: rustix::process::Resource, soft: Option<u64>, hard: Option<u64>) -> bool {
    let l = rustix::process::Rlimit {
        current: soft,
        maximum: hard,
    };
    rustix::process::setrlimit(r, l).is_ok()
}

/// `limit-enforced` for memory, processes and CPU time: the kernel's hard
/// limit must be at most the declared threshold (finite for `any`), the
/// job must not be able to raise it, and a small overrun must be stopped.
/// Every overrun is bounded: an address-space reservation that is never
/// touched, a few processes past the limit, one CPU second.
fn limit(target: &Value) -> Answer {
    let name = target["limit"].as_str().unwrap_or_default();
    let Some(r) = resource(name) else {
        return (
            "none",
            Observed::NeedsLauncher,
            None,
            Some(format!("{name} is observed by the launcher from outside")),
        );
    };
    let threshold = target["threshold"].as_u64();
    let l = rustix::process::getrlimit(r);
    let Some(hard) = l.maximum else {
        if let Some(answer) = cgroup_limit(name, threshold) {
            return answer;
        }
        return (
            "getrlimit",
            Observed::NotEnforced,
            None,
            Some("no hard limit: the job may use any amount".into()),
        );
    };
    if let Some(t) = threshold.filter(|t| hard > *t) {
        return (
            "getrlimit",
            Observed::NotEnforced,
            None,
            Some(format!("the hard limit {hard} is above the declared {t}")),
        );
    }
    // What a hostile job tries first: lift the limit.
    let above = Some(hard.saturating_add(1));
    if setrlimit(r, above, above) {
        setrlimit(r, l.current, Some(hard));
        return (
            "setrlimit above the hard limit",
            Observed::NotEnforced,
            None,
            Some("the job could raise its own hard limit".into()),
        );
    }
    // Then use the soft limit up to the hard one, as the job may.
    setrlimit(r, Some(hard), Some(hard));
    let answer = match name {
        "memory_bytes" => exceed_memory(hard),
        "processes" => exceed_processes(hard),
        _ => exceed_cpu(),
    };
    setrlimit(r, l.current, Some(hard));
    answer
}

/// A cgroup v2 limit of this process (`memory.max`, `pids.max`), as
/// container runtimes set them instead of rlimits.
fn cgroup_max(file: &str) -> Option<u64> {
    let own = std::fs::read_to_string("/proc/self/cgroup").ok()?;
    let path = own.lines().find_map(|l| l.strip_prefix("0::"))?;
    let value = std::fs::read_to_string(format!("/sys/fs/cgroup{path}/{file}"))
        .or_else(|_| std::fs::read_to_string(format!("/sys/fs/cgroup/{file}")))
        .ok()?;
    value.trim().parse().ok()
}

/// Memory and processes bounded by a cgroup rather than an rlimit: the
/// process count is overrun as with an rlimit; memory is only read, since
/// overrunning a cgroup's memory means filling all of it.
fn cgroup_limit(name: &str, threshold: Option<u64>) -> Option<Answer> {
    let file = match name {
        "memory_bytes" => "memory.max",
        "processes" => "pids.max",
        _ => return None,
    };
    let v = cgroup_max(file)?;
    if let Some(t) = threshold.filter(|t| v > *t) {
        return Some((
            "read cgroup",
            Observed::NotEnforced,
            None,
            Some(format!("cgroup {file} is {v}, above the declared {t}")),
        ));
    }
    Some(match name {
        "processes" => exceed_processes(v),
        _ => (
            "read cgroup",
            Observed::Enforced,
            None,
            Some(format!(
                "cgroup {file} is {v}; read, not overrun (that would fill it)"
            )),
        ),
    })
}

/// Reserve 4 MiB more address space than the limit allows; the pages are
/// never touched, so an unenforced limit costs nothing.
fn exceed_memory(hard: u64) -> Answer {
    let action = "mmap (limit + 4 MiB, untouched)";
    let Some(len) = usize::try_from(hard)
        .ok()
        .and_then(|h| h.checked_add(4 << 20))
    else {
        return (
            action,
            Observed::Error,
            None,
            Some("limit too large to reserve".into()),
        );
    };
    match crate::sys::reserve_address_space(len) {
        Err(e) => (
            action,
            Observed::Enforced,
            errno_name(&e),
            Some(format!("a reservation of {len} bytes was refused")),
        ),
        Ok(()) => (
            action,
            Observed::NotEnforced,
            None,
            Some(format!("{len} bytes were reserved past the limit")),
        ),
    }
}

/// Start children until the kernel refuses one, at most four past the
/// limit. Each child only waits for the pipe to close, then exits.
fn exceed_processes(hard: u64) -> Answer {
    const ACTION: &str = "fork until refused (at most limit + 4)";
    if hard > 256 {
        return (
            ACTION,
            Observed::Error,
            None,
            Some(format!(
                "a limit of {hard} processes is too high to exceed harmlessly"
            )),
        );
    }
    // Every child reads its own copy of the read end; closing the write
    // end releases them all.
    let (reader, writer) = match std::io::pipe() {
        Ok(p) => p,
        Err(e) => return (ACTION, Observed::Error, errno_name(&e), None),
    };
    let mut children = Vec::new();
    let mut refused = None;
    for _ in 0..hard + 4 {
        let started = reader
            .try_clone()
            .and_then(|r| spawn_helper(Helper::WaitEof, &[], r.into()));
        match started {
            Ok(child) => children.push(child),
            Err(e) => {
                refused = Some(e);
                break;
            }
        }
    }
    drop(writer);
    drop(reader);
    for child in &mut children {
        let _ = child.wait();
    }
    let n = children.len();
    match refused {
        Some(e) if e.raw_os_error() == Some(libc::EAGAIN) => (
            ACTION,
            Observed::Enforced,
            errno_name(&e).or(Some("EAGAIN".into())),
            Some(format!("the kernel refused a process after {n} children")),
        ),
        Some(e) => (ACTION, Observed::Error, errno_name(&e), None),
        None => (
            ACTION,
            Observed::NotEnforced,
            None,
            Some(format!("{n} children started, past the limit")),
        ),
    }
}

/// A child lowers its soft CPU limit to one second (within the hard
/// limit) and spins: the kernel must stop it.
fn exceed_cpu() -> Answer {
    const ACTION: &str = "spin past a 1 s soft CPU limit in a child";
    let mut child = match spawn_helper(Helper::SpinCpu, &[], std::process::Stdio::null()) {
        Ok(c) => c,
        Err(e) => return (ACTION, Observed::Error, errno_name(&e), None),
    };
    let start = Instant::now();
    // On a loaded machine one CPU second can take several seconds of wall
    // time: wait long enough, and judge by the CPU the child really got.
    while start.elapsed() < Duration::from_secs(12) {
        if let Ok(Some(status)) = child.try_wait() {
            use std::os::unix::process::ExitStatusExt;
            return match status.signal() {
                Some(sig) if sig == libc::SIGXCPU || sig == libc::SIGKILL => (
                    ACTION,
                    Observed::Enforced,
                    None,
                    Some(format!(
                        "stopped by signal {sig} after {} ms",
                        start.elapsed().as_millis()
                    )),
                ),
                _ => (
                    ACTION,
                    Observed::Error,
                    None,
                    Some(format!("the child ended otherwise ({status})")),
                ),
            };
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    let used = i32::try_from(child.id()).ok().and_then(cpu_ms);
    // Our own child, still spinning.
    let _ = child.kill();
    let _ = child.wait();
    match used {
        Some(ms) if ms >= 1500 => (
            ACTION,
            Observed::NotEnforced,
            None,
            Some(format!("still running after {ms} ms of CPU")),
        ),
        _ => (
            ACTION,
            Observed::Error,
            None,
            Some(
                "the machine is too loaded: the child got less than 1.5 CPU seconds in 12 s".into(),
            ),
        ),
    }
}

/// CPU time (user + system) of a process, from /proc/PID/stat.
fn cpu_ms(pid: i32) -> Option<u64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // Fields after the parenthesized command name; utime and stime are
    // the 14th and 15th fields of the line.
    let rest = stat.rsplit_once(')')?.1;
    let f: Vec<&str> = rest.split_whitespace().collect();
    let ticks: u64 = f.get(11)?.parse::<u64>().ok()? + f.get(12)?.parse::<u64>().ok()?;
    let hz = rustix::param::clock_ticks_per_second();
    Some(ticks * 1000 / hz.max(1))
}

/// Where the kernel publishes the id it drew at boot. It is not
/// namespaced: every container on a kernel reads the same id, and a VM or
/// a user-space kernel (gVisor) has one of its own.
pub(super) const BOOT_ID: &str = "/proc/sys/kernel/random/boot_id";

/// A boot id as the kernel writes it: a UUID, compared in lower case.
pub(super) fn parse_boot_id(s: &str) -> Result<String, String> {
    let id = s.trim().to_ascii_lowercase();
    let shape = id.len() == 36
        && id.char_indices().all(|(i, c)| match i {
            8 | 13 | 18 | 23 => c == '-',
            _ => c.is_ascii_hexdigit(),
        });
    if shape {
        Ok(id)
    } else {
        Err(format!(
            "{s:?} is not a boot id (a UUID such as 0f5c2d3e-8a41-4b6e-9d7f-1c2b3a4d5e6f, from {BOOT_ID} on the host)"
        ))
    }
}

/// The kernel release (`uname -r`) of the kernel this process runs on.
pub(super) fn kernel_release() -> Option<String> {
    let u = rustix::system::uname();
    // A kernel of the team's own sandbox writes this: keep it printable.
    Some(
        u.release()
            .to_string_lossy()
            .chars()
            .filter(char::is_ascii_graphic)
            .take(64)
            .collect(),
    )
}

/// Compare the boot id read inside with the host's. Only the boot id
/// decides: two kernels of the same build share a release string, and a
/// kernel that shares the host's boot id is the host's.
fn judge_kernel(
    host: Option<&str>,
    inside: std::io::Result<String>,
    release: Option<&str>,
) -> Answer {
    let action = "read /proc/sys/kernel/random/boot_id, uname";
    let release = release.map_or(String::new(), |r| format!("; kernel release inside: {r}"));
    let inside = match inside.map(|s| parse_boot_id(&s)) {
        Ok(Ok(id)) => id,
        // What the file held is not repeated: inside, it is the job's to write.
        Ok(Err(_)) => {
            return (
                action,
                Observed::Error,
                None,
                Some(format!(
                    "{BOOT_ID} inside does not hold a boot id (a UUID){release}"
                )),
            )
        }
        Err(e) => {
            return (
                action,
                Observed::Error,
                errno_name(&e),
                Some(format!("{BOOT_ID} cannot be read inside: {e}{release}")),
            )
        }
    };
    match host {
        None => (
            action,
            Observed::NeedsLauncher,
            None,
            Some(format!(
                "the host's boot id is known only outside: pass it with `isolint probe --host-boot-id ID`{release}"
            )),
        ),
        Some(h) if h == inside => (
            action,
            Observed::HostKernel,
            None,
            Some(format!(
                "the boot id inside is the host's: the job runs on the host's kernel{release}"
            )),
        ),
        Some(_) => (
            action,
            Observed::SeparateKernel,
            None,
            Some(format!("the boot id inside differs from the host's{release}")),
        ),
    }
}

fn boundary_kernel(host: Option<&str>) -> Answer {
    judge_kernel(
        host,
        std::fs::read_to_string(BOOT_ID),
        kernel_release().as_deref(),
    )
}

/// One field of a `/proc/<pid>/status` text (`Seccomp`, `CapEff`).
fn status_field<'a>(status: &'a str, name: &str) -> Option<&'a str> {
    status.lines().find_map(|l| {
        let (k, v) = l.split_once(':')?;
        (k == name).then_some(v.trim())
    })
}

const STATUS: &str = "/proc/self/status";

/// `seccomp-filtered`: the kernel's own record of this process's seccomp
/// mode (0 none, 1 strict, 2 filter), as amicontained reads it.
fn seccomp() -> Answer {
    judge_seccomp(std::fs::read_to_string(STATUS))
}

fn judge_seccomp(status: std::io::Result<String>) -> Answer {
    let action = "read /proc/self/status (Seccomp)";
    let status = match status {
        Ok(s) => s,
        Err(e) => return (action, Observed::Error, errno_name(&e), None),
    };
    let filters = status_field(&status, "Seccomp_filters")
        .map_or(String::new(), |n| format!(", {n} filter(s)"));
    match status_field(&status, "Seccomp") {
        Some("2") => (
            action,
            Observed::Filtered,
            None,
            Some(format!("Seccomp: 2 (filter){filters}")),
        ),
        Some("1") => (
            action,
            Observed::Filtered,
            None,
            Some("Seccomp: 1 (strict)".into()),
        ),
        Some("0") => (
            action,
            Observed::Unfiltered,
            None,
            Some("Seccomp: 0: no filter, every system call reaches the kernel".into()),
        ),
        // Not repeated: inside, the file is the job's kernel's to write.
        Some(_) => (
            action,
            Observed::Error,
            None,
            Some("the Seccomp field holds an unknown mode".into()),
        ),
        None => (
            action,
            Observed::Error,
            None,
            Some(
                "the kernel reports no Seccomp field (built without seccomp, or not Linux)".into(),
            ),
        ),
    }
}

/// Capability names by bit, as `capability.h` numbers them.
const CAPABILITIES: [&str; 41] = [
    "CHOWN",
    "DAC_OVERRIDE",
    "DAC_READ_SEARCH",
    "FOWNER",
    "FSETID",
    "KILL",
    "SETGID",
    "SETUID",
    "SETPCAP",
    "LINUX_IMMUTABLE",
    "NET_BIND_SERVICE",
    "NET_BROADCAST",
    "NET_ADMIN",
    "NET_RAW",
    "IPC_LOCK",
    "IPC_OWNER",
    "SYS_MODULE",
    "SYS_RAWIO",
    "SYS_CHROOT",
    "SYS_PTRACE",
    "SYS_PACCT",
    "SYS_ADMIN",
    "SYS_BOOT",
    "SYS_NICE",
    "SYS_RESOURCE",
    "SYS_TIME",
    "SYS_TTY_CONFIG",
    "MKNOD",
    "LEASE",
    "AUDIT_WRITE",
    "AUDIT_CONTROL",
    "SETFCAP",
    "MAC_OVERRIDE",
    "MAC_ADMIN",
    "SYSLOG",
    "WAKE_ALARM",
    "BLOCK_SUSPEND",
    "AUDIT_READ",
    "PERFMON",
    "BPF",
    "CHECKPOINT_RESTORE",
];

fn capability_name(bit: u32) -> String {
    CAPABILITIES
        .get(bit as usize)
        .map_or_else(|| format!("CAP_{bit}"), |n| (*n).to_string())
}

/// `capabilities-dropped`: every capability set the kernel keeps for this
/// process (effective, permitted, bounding, ambient) holds only what the
/// profile adds. The bounding set counts: a capability left there can
/// come back through a file capability or a set-uid program.
fn capabilities(target: &Value) -> Answer {
    judge_capabilities(target, std::fs::read_to_string(STATUS))
}

fn judge_capabilities(target: &Value, status: std::io::Result<String>) -> Answer {
    let action = "read /proc/self/status (CapEff, CapPrm, CapBnd, CapAmb)";
    let declared: Vec<String> = target["capabilities"]
        .as_array()
        .map(|v| {
            v.iter()
                .filter_map(|n| n.as_str().map(str::to_ascii_uppercase))
                .collect()
        })
        .unwrap_or_default();
    let status = match status {
        Ok(s) => s,
        Err(e) => return (action, Observed::Error, errno_name(&e), None),
    };
    let mut beyond: Vec<String> = Vec::new();
    for set in ["CapEff", "CapPrm", "CapBnd", "CapAmb"] {
        let Some(bits) = status_field(&status, set).and_then(|v| u64::from_str_radix(v, 16).ok())
        else {
            return (
                action,
                Observed::Error,
                None,
                Some(format!("the kernel reports no readable {set} field")),
            );
        };
        if declared.iter().any(|d| d == "ALL") {
            continue;
        }
        let extra: Vec<String> = (0..64)
            .filter(|b| bits & (1u64 << b) != 0)
            .map(capability_name)
            .filter(|n| !declared.contains(n))
            .collect();
        if !extra.is_empty() {
            beyond.push(format!("{set} holds {}", extra.join(",")));
        }
    }
    if beyond.is_empty() {
        (
            action,
            Observed::WithinDeclared,
            None,
            Some("no capability beyond those declared".into()),
        )
    } else {
        (
            action,
            Observed::BeyondDeclared,
            None,
            Some(beyond.join("; ")),
        )
    }
}

/// `namespace-private`: the namespace this process is in (the inode of its
/// `/proc/self/ns` entry) against the launcher's, which only the launcher
/// sees: it passes it as `target.host {dev, ino}`.
fn namespace(target: &Value) -> Answer {
    use std::os::unix::fs::MetadataExt;
    let action = "stat /proc/self/ns entry (st_dev, st_ino)";
    let path = target["path"].as_str().unwrap_or_default();
    let inside = match std::fs::metadata(path) {
        Ok(m) => (m.dev(), m.ino()),
        Err(e) => {
            return (
                action,
                Observed::Error,
                errno_name(&e),
                Some("the namespace entry cannot be read inside".into()),
            )
        }
    };
    judge_namespace(
        inside,
        target["host"]["dev"]
            .as_u64()
            .zip(target["host"]["ino"].as_u64()),
    )
}

fn judge_namespace(inside: (u64, u64), host: Option<(u64, u64)>) -> Answer {
    let action = "stat /proc/self/ns entry (st_dev, st_ino)";
    match host {
        None => (
            action,
            Observed::NeedsLauncher,
            None,
            Some("the host's namespace is visible only outside: a launcher passes its identity as target.host {dev, ino}".into()),
        ),
        Some(h) if h == inside => (
            action,
            Observed::SharedWithHost,
            None,
            Some("the job is in the launcher's namespace".into()),
        ),
        Some(_) => (
            action,
            Observed::Private,
            None,
            Some("the job's namespace is another than the launcher's".into()),
        ),
    }
}

/// Whether the kernel would let this process write `path`: faccessat(2)
/// with W_OK and AT_EACCESS (the effective ids, as an open is checked).
/// A kernel knob is never opened for writing, let alone written: access
/// consults the same read-only mount flag, mode bits, capabilities and
/// procfs permission hook an open would, and reaches none of the
/// handlers that act on a write.
fn writable(path: &Path) -> Result<(), std::io::Error> {
    rustix::fs::accessat(
        rustix::fs::CWD,
        path,
        rustix::fs::Access::WRITE_OK,
        rustix::fs::AtFlags::EACCESS,
    )
    .map_err(std::io::Error::from)
}

const KNOB_ACTION: &str = "faccessat W_OK, AT_EACCESS (never opened)";

/// `kernel-write-denied`: a knob the host acts on must not be writable. A
/// directory target stands for every cgroup v1 `release_agent` this
/// process can see: at the top of each cgroup mount (from mountinfo) and
/// of each directory under the target.
fn kernel_write(path: &Path) -> Answer {
    let mountinfo = std::fs::read_to_string("/proc/self/mountinfo").ok();
    kernel_write_in(path, mountinfo.as_deref())
}

/// [`kernel_write`] with the mount table (`/proc/self/mountinfo`) given.
fn kernel_write_in(path: &Path, mountinfo: Option<&str>) -> Answer {
    use std::os::unix::fs::FileTypeExt;
    let m = match std::fs::metadata(path) {
        Ok(m) => m,
        // Unlike a file a mount hides, a knob cannot be created: absent
        // from the job's view (a kernel without it, or hidden by the
        // runtime), it cannot be written through this path.
        Err(e) if e.raw_os_error() == Some(libc::ENOENT) => {
            return (
                KNOB_ACTION,
                Observed::Denied,
                errno_name(&e),
                Some("absent from the job's view: nothing there to write".into()),
            )
        }
        Err(e) => return (KNOB_ACTION, denial(&e), errno_name(&e), None),
    };
    // Runtimes mask a knob by binding /dev/null over it: writes go
    // nowhere, though access(2) grants them.
    if m.file_type().is_char_device() {
        return (
            KNOB_ACTION,
            Observed::Denied,
            None,
            Some("masked by a device node bound over it".into()),
        );
    }
    if !m.is_dir() {
        return match writable(path) {
            Ok(()) => (
                KNOB_ACTION,
                Observed::Allowed,
                None,
                Some("the kernel grants the job write access; nothing was written".into()),
            ),
            Err(e) => (KNOB_ACTION, denial(&e), errno_name(&e), None),
        };
    }
    let agents = release_agents(path, mountinfo);
    if agents.is_empty() {
        return (
            KNOB_ACTION,
            Observed::Denied,
            Some("ENOENT".into()),
            Some("no cgroup v1 release_agent is visible: nothing there to write".into()),
        );
    }
    let mut open = Vec::new();
    let mut errno = None;
    for a in &agents {
        match writable(a) {
            Ok(()) => {
                open.push(isolint_core::sanitize::neutralize(&a.to_string_lossy()).into_owned())
            }
            Err(e) if denial(&e) == Observed::Denied => errno = errno_name(&e),
            Err(e) => return (KNOB_ACTION, Observed::Error, errno_name(&e), None),
        }
    }
    if open.is_empty() {
        (
            KNOB_ACTION,
            Observed::Denied,
            errno,
            Some(format!(
                "{} release_agent file(s), none writable",
                agents.len()
            )),
        )
    } else {
        (
            KNOB_ACTION,
            Observed::Allowed,
            None,
            Some(format!("writable, not written: {}", open.join(", "))),
        )
    }
}

/// The `release_agent` files at the top of each cgroup v1 hierarchy this
/// process sees: the mount points in /proc/self/mountinfo, and `dir` and
/// the directories right under it (where runtimes mount the hierarchies).
fn release_agents(dir: &Path, mountinfo: Option<&str>) -> Vec<PathBuf> {
    let mut tops: Vec<PathBuf> = vec![dir.to_path_buf()];
    if let Ok(entries) = std::fs::read_dir(dir) {
        tops.extend(entries.flatten().map(|e| e.path()));
    }
    if let Some(info) = mountinfo {
        for line in info.lines() {
            // Field 5 is the mount point; after " - ", the file system type.
            let Some((before, after)) = line.split_once(" - ") else {
                continue;
            };
            if after.split_whitespace().next() == Some("cgroup") {
                if let Some(mp) = before.split_whitespace().nth(4) {
                    tops.push(PathBuf::from(mp.replace("\\040", " ")));
                }
            }
        }
    }
    let mut agents: Vec<PathBuf> = tops
        .into_iter()
        .map(|t| t.join("release_agent"))
        .filter(|a| std::fs::symlink_metadata(a).is_ok())
        .collect();
    agents.sort();
    agents.dedup();
    agents
}

/// Device nodes every container runtime gives a job; anything else
/// under /dev (a disk, `kmsg`, `kvm`, `fuse`, a GPU) is a host device.
const STANDARD_DEVICES: [&str; 8] = [
    "null", "zero", "full", "random", "urandom", "tty", "console", "ptmx",
];

/// `devices-standard`: list /dev and the directories right under it (not
/// `pts`, `shm`, `mqueue`), lstat each entry; no device is opened.
fn devices() -> Answer {
    const ACTION: &str = "readdir /dev, lstat (nothing opened)";
    use std::os::unix::fs::FileTypeExt;
    let root = match std::fs::read_dir("/dev") {
        Ok(r) => r,
        Err(e) if e.raw_os_error() == Some(libc::ENOENT) => {
            return (
                ACTION,
                Observed::Standard,
                None,
                Some("no /dev at all".into()),
            )
        }
        Err(e) => return (ACTION, Observed::Error, errno_name(&e), None),
    };
    let mut extra = Vec::new();
    let is_device = |t: std::fs::FileType| t.is_char_device() || t.is_block_device();
    for e in root.flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        // lstat, not the directory entry's type: a node bound over an
        // entry keeps the entry's type in readdir.
        let Ok(t) = std::fs::symlink_metadata(e.path()).map(|m| m.file_type()) else {
            continue;
        };
        if is_device(t) && !STANDARD_DEVICES.contains(&name.as_str()) {
            extra.push(name);
        } else if t.is_dir() && !["pts", "shm", "mqueue"].contains(&name.as_str()) {
            for sub in std::fs::read_dir(e.path()).into_iter().flatten().flatten() {
                if std::fs::symlink_metadata(sub.path()).is_ok_and(|m| is_device(m.file_type())) {
                    extra.push(format!("{name}/{}", sub.file_name().to_string_lossy()));
                }
            }
        }
    }
    extra.sort();
    if extra.is_empty() {
        return (ACTION, Observed::Standard, None, None);
    }
    let n = extra.len();
    // Names come from the job's /dev: printable, and only the first few.
    let shown: Vec<String> = extra
        .iter()
        .take(8)
        .map(|n| n.chars().filter(char::is_ascii_graphic).take(64).collect())
        .collect();
    (
        ACTION,
        Observed::ExtraDevices,
        None,
        Some(format!(
            "{n} device node(s) beyond the standard set: {}{}",
            shown.join(", "),
            if n > 8 { ", ..." } else { "" }
        )),
    )
}

/// Where the kernel keeps this process's AppArmor label: the module's
/// own entry (kernels with security module stacking), then the shared one.
const APPARMOR_OWN: &str = "/proc/self/attr/apparmor/current";
const ATTR_CURRENT: &str = "/proc/self/attr/current";

/// `apparmor-confined`: the AppArmor label the kernel gives this process,
/// as amicontained reads it. Only read; no profile is loaded or changed.
fn apparmor() -> Answer {
    judge_apparmor(std::fs::read_to_string(APPARMOR_OWN), || {
        std::fs::read_to_string(ATTR_CURRENT)
    })
}

/// Whether a label is AppArmor's (`unconfined`, or `PROFILE (MODE)`)
/// rather than another module's (SELinux `user:role:type:level`).
fn apparmor_label(label: &str) -> bool {
    label == "unconfined" || label.ends_with(')')
}

fn judge_apparmor(
    own: std::io::Result<String>,
    shared: impl FnOnce() -> std::io::Result<String>,
) -> Answer {
    const ACTION: &str = "read /proc/self/attr/apparmor/current (or attr/current)";
    let off = |e: &std::io::Error| {
        (
            ACTION,
            Observed::Unconfined,
            errno_name(e),
            Some("AppArmor is not enabled in this kernel: no profile confines the job".into()),
        )
    };
    let raw = match own {
        Ok(s) => s,
        // No AppArmor entry of its own: an older kernel, or no AppArmor.
        Err(e) if e.raw_os_error() == Some(libc::ENOENT) => match shared() {
            Ok(s) => s,
            Err(e) if matches!(e.raw_os_error(), Some(libc::EINVAL | libc::ENOENT)) => {
                return off(&e)
            }
            Err(e) => return (ACTION, Observed::Error, errno_name(&e), None),
        },
        // Built in but not enabled.
        Err(e) if e.raw_os_error() == Some(libc::EINVAL) => return off(&e),
        Err(e) => return (ACTION, Observed::Error, errno_name(&e), None),
    };
    let label = raw.trim_end_matches(['\n', '\0']).trim();
    // The label is the job's kernel's to write: printable, and short.
    let shown: String = label
        .chars()
        .filter(|c| c.is_ascii_graphic() || *c == ' ')
        .take(64)
        .collect();
    if !apparmor_label(label) {
        return (
            ACTION,
            Observed::Unconfined,
            None,
            Some(format!(
                "the process's label `{shown}` is another security module's, not AppArmor's"
            )),
        );
    }
    let (profile, mode) = match label.rsplit_once(" (") {
        Some((p, m)) => (p, m.trim_end_matches(')')),
        None => (label, ""),
    };
    match (profile, mode) {
        ("unconfined", _) | (_, "unconfined") => (
            ACTION,
            Observed::Unconfined,
            None,
            Some(format!(
                "label `{shown}`: no AppArmor profile confines the job"
            )),
        ),
        (_, "enforce" | "kill") => (
            ACTION,
            Observed::Confined,
            None,
            Some(format!("label `{shown}`")),
        ),
        // Complain mode logs what it would refuse, and allows it.
        (_, "complain" | "prompt") => (
            ACTION,
            Observed::Unconfined,
            None,
            Some(format!(
                "label `{shown}`: the profile only logs, nothing is refused"
            )),
        ),
        _ => (
            ACTION,
            Observed::Error,
            None,
            Some(format!(
                "label `{shown}`: an AppArmor mode this probe does not know"
            )),
        ),
    }
}

/// The most sockets of one directory a `sockets-denied` check tries.
const MAX_SOCKETS: usize = 32;

/// `sockets-denied`: connect(2) to the Unix socket at the path, or to each
/// socket directly in it when it is a directory (a service's socket
/// directory), and close at once; nothing is sent. Nothing that is not a
/// socket is opened.
fn sockets(path: &Path) -> Answer {
    use std::os::unix::fs::FileTypeExt;
    const ACTION: &str = "connect(2) AF_UNIX, closed at once (nothing sent)";
    let t = match std::fs::metadata(path) {
        Ok(m) => m.file_type(),
        Err(e) => return (ACTION, denial(&e), errno_name(&e), None),
    };
    let targets: Vec<PathBuf> = if t.is_socket() {
        vec![path.to_path_buf()]
    } else if t.is_dir() {
        match std::fs::read_dir(path) {
            Ok(entries) => entries
                .flatten()
                .filter(|e| {
                    std::fs::symlink_metadata(e.path()).is_ok_and(|m| m.file_type().is_socket())
                })
                .map(|e| e.path())
                .take(MAX_SOCKETS)
                .collect(),
            Err(e) => return ("readdir", denial(&e), errno_name(&e), None),
        }
    } else {
        return (
            ACTION,
            Observed::Absent,
            None,
            Some(format!("{}: no socket to connect to", special_kind(t))),
        );
    };
    if targets.is_empty() {
        return (
            ACTION,
            Observed::Absent,
            None,
            Some("the directory holds no socket".into()),
        );
    }
    let mut worst: Option<Answer> = None;
    for s in &targets {
        let a = connect_unix(s);
        let name = s
            .file_name()
            .map(|n| {
                n.to_string_lossy()
                    .chars()
                    .filter(char::is_ascii_graphic)
                    .take(64)
                    .collect::<String>()
            })
            .unwrap_or_default();
        let a = (
            a.0,
            a.1,
            a.2,
            Some(format!("{name}: {}", a.3.unwrap_or_default())),
        );
        // Any connection is the answer; a denial outranks absence.
        let rank = |o: Observed| match o {
            Observed::Allowed => 3,
            Observed::Error => 2,
            Observed::Denied => 1,
            _ => 0,
        };
        if worst.as_ref().is_none_or(|w| rank(a.1) > rank(w.1)) {
            worst = Some(a);
        }
    }
    worst.unwrap_or((ACTION, Observed::Error, None, None))
}

/// One connect(2) to a socket path, closed at once.
fn connect_unix(path: &Path) -> Answer {
    const ACTION: &str = "connect(2) AF_UNIX, closed at once (nothing sent)";
    match std::os::unix::net::UnixStream::connect(path) {
        Ok(s) => {
            drop(s);
            (
                ACTION,
                Observed::Allowed,
                None,
                Some("connected: the job reaches whatever listens there".into()),
            )
        }
        // Nothing listens now; whether the job could connect once
        // something does is the socket file's write permission.
        Err(e) if e.raw_os_error() == Some(libc::ECONNREFUSED) => {
            match rustix::fs::accessat(
                rustix::fs::CWD,
                path,
                rustix::fs::Access::WRITE_OK,
                rustix::fs::AtFlags::EACCESS,
            ) {
                Ok(()) => (
                    ACTION,
                    Observed::Allowed,
                    errno_name(&e),
                    Some("nothing listens now, but the job may connect once something does".into()),
                ),
                Err(a) => {
                    let a = std::io::Error::from(a);
                    (
                        ACTION,
                        denial(&a),
                        errno_name(&a),
                        Some("nothing listens, and the job may not connect".into()),
                    )
                }
            }
        }
        Err(e) if e.kind() == ErrorKind::InvalidInput => (
            ACTION,
            Observed::Error,
            None,
            Some("the path is too long for a socket address".into()),
        ),
        Err(e) => (ACTION, denial(&e), errno_name(&e), None),
    }
}

fn perform(kind: &str, target: &Value, host_boot_id: Option<&str>) -> Answer {
    let path = target["path"].as_str().map(Path::new);
    match (kind, path) {
        ("boundary-kernel", _) => boundary_kernel(host_boot_id),
        ("read-denied", Some(p)) => read(p),
        ("write-denied", Some(p)) => write_denied(p),
        ("write-allowed", Some(p)) => write_check(p),
        ("link-resolution", Some(_)) => link_resolution(target),
        ("limit-enforced", _) => limit(target),
        ("egress-denied" | "egress-allowed", _) => egress(target),
        ("env-exact", _) => env_exact(target),
        ("seccomp-filtered", _) => seccomp(),
        ("capabilities-dropped", _) => capabilities(target),
        ("namespace-private", Some(_)) => namespace(target),
        ("kernel-write-denied", Some(p)) => kernel_write(p),
        ("devices-standard", _) => devices(),
        ("apparmor-confined", _) => apparmor(),
        ("sockets-denied", Some(p)) => sockets(p),
        _ => (
            "none",
            Observed::NeedsLauncher,
            None,
            Some(format!("{kind} is not observed by this probe from inside")),
        ),
    }
}

/// The observations for one findings document's plan.
/// `host_boot_id` is the host's, when the caller knows it (parsed).
pub fn observe(
    doc: &Value,
    runner: &str,
    host_boot_id: Option<&str>,
) -> Result<Observations, String> {
    let plan = isolint_core::launch::probe_plan(doc)?;
    let mut observations = Vec::with_capacity(plan.checks.len());
    for c in &plan.checks {
        let start = Instant::now();
        let (action, observed, errno, detail) = perform(c.kind, c.target, host_boot_id);
        observations.push(Observation {
            id: c.id.into(),
            kind: c.kind.into(),
            action: action.into(),
            observed: observed.as_str().into(),
            errno,
            detail,
            elapsed_us: u64::try_from(start.elapsed().as_micros()).unwrap_or(u64::MAX),
        });
    }
    Ok(Observations {
        schema: OBSERVATIONS_SCHEMA.into(),
        plan_fingerprint: plan.fingerprint.into(),
        runner: runner.into(),
        observations,
    })
}

/// The launcher's helper: fill the output channel, then leave a child that
/// ignores SIGTERM, and wait to be killed (both give up after HOLD_LIMIT).
fn hold(token: &str, emit: u64) -> u8 {
    use std::io::Write;
    let chunk = [b'.'; 64 * 1024];
    let mut out = std::io::stdout().lock();
    let mut left = emit;
    while left > 0 {
        let n = usize::try_from(left)
            .unwrap_or(chunk.len())
            .min(chunk.len());
        // The launcher closing the pipe is the cut it was asked to make.
        if out.write_all(&chunk[..n]).is_err() {
            break;
        }
        left -= n as u64;
    }
    let _ = out.flush();
    drop(out);
    // The child carries the token on its command line, for the scan.
    if let Err(e) = spawn_helper(
        Helper::IgnoreTerm,
        &["--hold", token],
        std::process::Stdio::null(),
    ) {
        output::error(&format!("probe --hold: cannot start the child: {e}"));
        return EXIT_ERROR;
    }
    std::thread::sleep(HOLD_LIMIT);
    EXIT_OK
}

/// Take over an inherited descriptor to write the observations to.
fn output_fd(fd: i32) -> Result<std::fs::File, String> {
    crate::sys::inherited_fd(fd).map_err(|e| {
        format!("--output-fd {fd}: not an open descriptor above 2 inherited by this process ({e})")
    })
}

pub fn run(args: &ProbeArgs) -> u8 {
    if let Some(h) = args.helper {
        return helper(h);
    }
    if let Some(token) = &args.hold {
        return hold(token, args.emit);
    }
    // Taken before anything else is opened or done: a bad descriptor
    // stops the probe before it acts.
    let fd_out = match args.output_fd.map(output_fd).transpose() {
        Ok(f) => f,
        Err(e) => {
            output::error(&e);
            return EXIT_ERROR;
        }
    };
    let Some(plan) = &args.plan else {
        output::error("probe: --plan FINDINGS is required");
        return EXIT_ERROR;
    };
    if let Some(out) = &args.output {
        if let Err(e) = output::refuse_inputs(out, "--output", &[("--plan file", Some(plan))]) {
            output::error(&e);
            return EXIT_ERROR;
        }
    }
    let shown = plan.display();
    let doc = std::fs::read(plan)
        .map_err(|e| format!("{shown}: cannot read: {e}"))
        .and_then(|b| {
            serde_json::from_slice::<Value>(&b)
                .map_err(|e| format!("{shown}: line {}, column {}: {e}", e.line(), e.column()))
        })
        .and_then(|d| {
            observe(&d, &args.runner, args.host_boot_id.as_deref())
                .map_err(|e| format!("{shown}: {e}"))
        });
    let obs = match doc {
        Ok(o) => o,
        Err(e) => {
            output::error(&e);
            return EXIT_ERROR;
        }
    };
    let mut text = serde_json::to_string_pretty(&obs).unwrap_or_default();
    text.push('\n');
    let written = match (&args.output, fd_out) {
        (_, Some(mut f)) => {
            use std::io::Write;
            f.write_all(text.as_bytes())
                .map_err(|e| format!("--output-fd: {e}"))
        }
        (Some(p), None) => {
            std::fs::write(p, text).map_err(|e| format!("{}: cannot write: {e}", p.display()))
        }
        (None, None) => {
            use std::io::Write;
            std::io::stdout()
                .write_all(text.as_bytes())
                .map_err(|e| format!("stdout: {e}"))
        }
    };
    match written {
        Ok(()) => EXIT_OK,
        Err(e) => {
            output::error(&e);
            EXIT_ERROR
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use isolint_core::observe::{reconcile, Observation, PlannedCheck, Status};
    use isolint_core::plan::Expect;

    const HOST: &str = "3d2c1b0a-4f5e-4d6c-8b7a-0e1f2a3b4c5d";
    const OTHER: &str = "9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d";

    /// (own entry, shared entry) → observed: AppArmor's label as each
    /// kernel writes it.
    #[test]
    fn the_apparmor_label_decides_confinement() {
        type Read = Result<&'static str, i32>;
        let table: &[(Read, Read, Observed)] = &[
            (Ok("docker-default (enforce)\n"), Err(0), Observed::Confined),
            (
                Ok("cri-containerd.apparmor.d (enforce)\n"),
                Err(0),
                Observed::Confined,
            ),
            (
                Ok("lxc-container-default-cgns (kill)\n"),
                Err(0),
                Observed::Confined,
            ),
            (Ok("unconfined\n"), Err(0), Observed::Unconfined),
            (Ok("unconfined"), Err(0), Observed::Unconfined),
            (
                Ok("docker-default (complain)\n"),
                Err(0),
                Observed::Unconfined,
            ),
            (
                Ok("/usr/bin/job (unconfined)\n"),
                Err(0),
                Observed::Unconfined,
            ),
            (Ok("docker-default (sideways)\n"), Err(0), Observed::Error),
            // An older kernel: only the shared entry.
            (
                Err(libc::ENOENT),
                Ok("docker-default (enforce)\n"),
                Observed::Confined,
            ),
            (Err(libc::ENOENT), Ok("unconfined\n"), Observed::Unconfined),
            // SELinux's label is not AppArmor's.
            (
                Err(libc::ENOENT),
                Ok("system_u:system_r:container_t:s0:c1,c2\0"),
                Observed::Unconfined,
            ),
            // No security module at all, or AppArmor built in but off.
            (Err(libc::ENOENT), Err(libc::EINVAL), Observed::Unconfined),
            (Err(libc::ENOENT), Err(libc::ENOENT), Observed::Unconfined),
            (Err(libc::EINVAL), Err(0), Observed::Unconfined),
            // Unreadable: not an answer.
            (Err(libc::EACCES), Err(0), Observed::Error),
            (Err(libc::ENOENT), Err(libc::EACCES), Observed::Error),
        ];
        let read = |r: &Read| match r {
            Ok(s) => Ok(s.to_string()),
            Err(n) => Err(std::io::Error::from_raw_os_error(*n)),
        };
        let mut wrong = 0;
        for (own, shared, want) in table {
            let got = judge_apparmor(read(own), || read(shared)).1;
            if got != *want {
                wrong += 1;
                eprintln!("{own:?} / {shared:?}: got {got:?}, want {want:?}");
            }
        }
        assert_eq!(wrong, 0, "{wrong} of {} rows wrong", table.len());
    }

    /// Sockets this test makes in its own temporary directory; never a
    /// host socket.
    #[test]
    fn a_socket_the_job_can_connect_to_is_allowed() {
        use std::os::unix::net::UnixListener;
        let dir = tempfile::tempdir().unwrap();
        let live = dir.path().join("live.sock");
        let _listener = UnixListener::bind(&live).unwrap();
        let stale = dir.path().join("stale.sock");
        drop(UnixListener::bind(&stale).unwrap());
        let plain = dir.path().join("plain");
        std::fs::write(&plain, "").unwrap();
        let with_socket = dir.path().join("run");
        std::fs::create_dir(&with_socket).unwrap();
        let _inner = UnixListener::bind(with_socket.join("svc.sock")).unwrap();
        let empty = dir.path().join("empty");
        std::fs::create_dir(&empty).unwrap();
        let table: &[(&Path, Observed)] = &[
            (&live, Observed::Allowed),
            // Nothing listens, but the file would let the job connect.
            (&stale, Observed::Allowed),
            (&with_socket, Observed::Allowed),
            (&plain, Observed::Absent),
            (&empty, Observed::Absent),
            (&dir.path().join("missing.sock"), Observed::Absent),
        ];
        let mut wrong = 0;
        for (p, want) in table {
            let got = sockets(p);
            if got.1 != *want {
                wrong += 1;
                eprintln!("{}: got {got:?}, want {want:?}", p.display());
            }
        }
        assert_eq!(wrong, 0, "{wrong} of {} rows wrong", table.len());
    }

    #[test]
    fn boot_ids_are_uuids_in_any_case() {
        assert_eq!(parse_boot_id(&format!("{HOST}\n")).unwrap(), HOST);
        assert_eq!(parse_boot_id(&HOST.to_uppercase()).unwrap(), HOST);
        for bad in [
            "",
            "host",
            "0f5c2d3e8a414b6e9d7f1c2b3a4d5e6f",
            "0f5c2d3e-8a41-4b6e-9d7f-1c2b3a4d5e6",
            "0f5c2d3e-8a41-4b6e-9d7f-1c2b3a4d5e6fa",
            "0f5c2d3e-8a41-4b6e-9d7f_1c2b3a4d5e6f",
            "0f5c2d3e-8a41-4b6e-9d7f-1c2b3a4d5e6g",
        ] {
            let e = parse_boot_id(bad).unwrap_err();
            assert!(e.contains("not a boot id"), "{bad}: {e}");
        }
    }

    /// The comparison, each way it can go, and what reconcile makes of it
    /// against a plan that expects a kernel of the job's own.
    #[test]
    fn the_boot_id_decides_whose_kernel_it_is() {
        let unreadable = || Err(std::io::Error::from_raw_os_error(libc::ENOENT));
        let cases: Vec<(Answer, Observed, Status)> = vec![
            (
                judge_kernel(Some(HOST), Ok(format!("{HOST}\n")), Some("6.1.0")),
                Observed::HostKernel,
                Status::Disagrees,
            ),
            (
                judge_kernel(Some(HOST), Ok(HOST.to_uppercase()), None),
                Observed::HostKernel,
                Status::Disagrees,
            ),
            (
                judge_kernel(Some(HOST), Ok(OTHER.into()), Some("6.1.0")),
                Observed::SeparateKernel,
                Status::Agrees,
            ),
            (
                judge_kernel(None, Ok(HOST.into()), Some("6.1.0")),
                Observed::NeedsLauncher,
                Status::NotObservable,
            ),
            (
                judge_kernel(Some(HOST), unreadable(), None),
                Observed::Error,
                Status::NotObservable,
            ),
            (
                judge_kernel(Some(HOST), Ok("\u{1b}[2Jnot an id".into()), None),
                Observed::Error,
                Status::NotObservable,
            ),
        ];
        let plan = [PlannedCheck {
            id: "rc-kernel".into(),
            kind: "boundary-kernel".into(),
            target: "kernel of microvm".into(),
            expect: Expect::SeparateKernel,
        }];
        for (i, ((action, observed, errno, detail), want, status)) in cases.into_iter().enumerate()
        {
            assert_eq!(observed, want, "case {i}");
            let detail = detail.unwrap_or_default();
            assert!(!detail.is_empty(), "case {i}: a reason is given");
            // The detail never repeats the id itself.
            assert!(
                !detail.contains(HOST) && !detail.contains(OTHER),
                "{detail}"
            );
            let obs = Observations {
                schema: OBSERVATIONS_SCHEMA.into(),
                plan_fingerprint: "fp".into(),
                runner: "test".into(),
                observations: vec![Observation {
                    id: "rc-kernel".into(),
                    kind: "boundary-kernel".into(),
                    action: action.into(),
                    observed: observed.as_str().into(),
                    errno,
                    detail: Some(detail),
                    elapsed_us: 0,
                }],
            };
            let rec = reconcile(&plan, "fp", &obs);
            assert_eq!(
                rec.checks[0].status, status,
                "case {i}: {:?}",
                rec.checks[0]
            );
        }
        let (_, _, errno, _) = judge_kernel(Some(HOST), unreadable(), None);
        assert_eq!(errno.as_deref(), Some("ENOENT"));
    }

    fn status(fields: &[(&str, &str)]) -> std::io::Result<String> {
        Ok(fields.iter().map(|(k, v)| format!("{k}:\t{v}\n")).collect())
    }

    /// Each way /proc/self/status can report the seccomp mode, and the
    /// answer the check must give; a field the probe cannot read is never
    /// taken for a filter.
    #[test]
    fn the_seccomp_mode_is_read_from_the_kernels_record() {
        let zero = [
            ("Name", "probe"),
            ("Seccomp", "0"),
            ("Seccomp_filters", "0"),
        ];
        let cases: Vec<(std::io::Result<String>, Observed)> = vec![
            (status(&zero), Observed::Unfiltered),
            (
                status(&[("Seccomp", "2"), ("Seccomp_filters", "1")]),
                Observed::Filtered,
            ),
            (status(&[("Seccomp", "2")]), Observed::Filtered),
            (status(&[("Seccomp", "1")]), Observed::Filtered),
            (status(&[("Seccomp", "  0 ")]), Observed::Unfiltered),
            (status(&[("Seccomp", "3")]), Observed::Error),
            (status(&[("Seccomp", "")]), Observed::Error),
            (status(&[("Seccomp_filters", "2")]), Observed::Error),
            (status(&[("NoNewPrivs", "1")]), Observed::Error),
            (status(&[("XSeccomp", "2")]), Observed::Error),
            (Ok(String::new()), Observed::Error),
            (
                Err(std::io::Error::from_raw_os_error(libc::EACCES)),
                Observed::Error,
            ),
        ];
        let mut wrong = Vec::new();
        for (i, (input, want)) in cases.into_iter().enumerate() {
            let got = judge_seccomp(input).1;
            if got != want {
                wrong.push(format!("case {i}: {got} not {want}"));
            }
        }
        assert!(wrong.is_empty(), "{wrong:?}");
    }

    /// Every capability set counts, names compare without `CAP_` and in
    /// any case, `ALL` allows everything, and an unnamed bit is still held.
    #[test]
    fn capabilities_beyond_the_declared_ones_are_reported() {
        let none = "0000000000000000";
        let sys_admin = "0000000000200000";
        let both = "0000000000200400"; // SYS_ADMIN and NET_BIND_SERVICE
        let high = "8000000000000000";
        let sets = |eff: &str, prm: &str, bnd: &str, amb: &str| {
            status(&[
                ("CapEff", eff),
                ("CapPrm", prm),
                ("CapBnd", bnd),
                ("CapAmb", amb),
            ])
        };
        let declared = |v: &[&str]| serde_json::json!({ "capabilities": v });
        let cases: Vec<(Value, std::io::Result<String>, Observed)> = vec![
            (
                declared(&[]),
                sets(none, none, none, none),
                Observed::WithinDeclared,
            ),
            (
                declared(&[]),
                sets(sys_admin, none, none, none),
                Observed::BeyondDeclared,
            ),
            (
                declared(&[]),
                sets(none, sys_admin, none, none),
                Observed::BeyondDeclared,
            ),
            (
                declared(&[]),
                sets(none, none, sys_admin, none),
                Observed::BeyondDeclared,
            ),
            (
                declared(&[]),
                sets(none, none, none, sys_admin),
                Observed::BeyondDeclared,
            ),
            (
                declared(&["SYS_ADMIN"]),
                sets(sys_admin, sys_admin, sys_admin, none),
                Observed::WithinDeclared,
            ),
            (
                declared(&["sys_admin"]),
                sets(sys_admin, none, none, none),
                Observed::WithinDeclared,
            ),
            (
                declared(&["SYS_ADMIN"]),
                sets(both, none, none, none),
                Observed::BeyondDeclared,
            ),
            (
                declared(&["NET_BIND_SERVICE", "SYS_ADMIN"]),
                sets(both, both, both, none),
                Observed::WithinDeclared,
            ),
            (
                declared(&["ALL"]),
                sets(high, both, both, both),
                Observed::WithinDeclared,
            ),
            (
                declared(&[]),
                sets(none, none, high, none),
                Observed::BeyondDeclared,
            ),
            (
                declared(&[]),
                sets("not hex", none, none, none),
                Observed::Error,
            ),
            (declared(&[]), status(&[("CapEff", none)]), Observed::Error),
            (
                declared(&[]),
                Err(std::io::Error::from_raw_os_error(libc::ENOENT)),
                Observed::Error,
            ),
            (
                serde_json::json!({}),
                sets(sys_admin, none, none, none),
                Observed::BeyondDeclared,
            ),
        ];
        let mut wrong = Vec::new();
        for (i, (target, input, want)) in cases.into_iter().enumerate() {
            let (_, got, _, detail) = judge_capabilities(&target, input);
            if got != want {
                wrong.push(format!("case {i}: {got} not {want} ({detail:?})"));
            }
        }
        assert!(wrong.is_empty(), "{wrong:?}");
        let (_, _, _, detail) = judge_capabilities(&declared(&[]), sets(both, none, none, none));
        assert_eq!(
            detail.as_deref(),
            Some("CapEff holds NET_BIND_SERVICE,SYS_ADMIN")
        );
    }

    #[test]
    fn a_namespace_is_private_only_when_its_identity_differs_from_the_hosts() {
        let cases = [
            ((4, 100), Some((4, 100)), Observed::SharedWithHost),
            ((4, 100), Some((4, 101)), Observed::Private),
            ((4, 100), Some((5, 100)), Observed::Private),
            ((4, 100), None, Observed::NeedsLauncher),
        ];
        for (inside, host, want) in cases {
            assert_eq!(judge_namespace(inside, host).1, want, "{inside:?} {host:?}");
        }
        // This process against itself: the launcher's own view.
        use std::os::unix::fs::MetadataExt;
        let m = std::fs::metadata("/proc/self/ns/net").unwrap();
        let t = serde_json::json!({"path": "/proc/self/ns/net", "host": {"dev": m.dev(), "ino": m.ino()}});
        assert_eq!(namespace(&t).1, Observed::SharedWithHost);
    }

    /// The knobs of the machine running the tests are judged without being
    /// written: a file of our own that we may write is `allowed`, one we
    /// may not is `denied`, and a release_agent under a directory counts.
    #[test]
    fn kernel_knobs_are_judged_by_access_alone() {
        let dir = tempfile::tempdir().unwrap();
        let knob = dir.path().join("knob");
        std::fs::write(&knob, "before").unwrap();
        assert_eq!(kernel_write(&knob).1, Observed::Allowed);
        assert_eq!(std::fs::read_to_string(&knob).unwrap(), "before");
        assert_eq!(kernel_write(&dir.path().join("absent")).1, Observed::Denied);
        // A directory with no release_agent under it, then with one.
        // (The test machine's own mount table is left out: as root on a
        // cgroup v1 host its release agents are writable.)
        let cg = dir.path().join("cgroup");
        std::fs::create_dir_all(cg.join("memory")).unwrap();
        let (_, o, _, d) = kernel_write_in(&cg, None);
        assert_eq!(o, Observed::Denied, "{d:?}");
        std::fs::write(cg.join("memory/release_agent"), "").unwrap();
        let (_, o, _, d) = kernel_write_in(&cg, None);
        assert_eq!(o, Observed::Allowed, "{d:?}");
        assert!(d.unwrap().contains("memory/release_agent"));
        // A cgroup v1 hierarchy mounted elsewhere is found through the
        // mount table; a cgroup2 mount has no release agent.
        let other = dir.path().join("elsewhere");
        std::fs::create_dir_all(&other).unwrap();
        std::fs::write(other.join("release_agent"), "").unwrap();
        let line = |fs: &str| {
            format!(
                "35 24 0:30 / {} rw,relatime shared:9 - {fs} cgroup rw,memory\n",
                other.display()
            )
        };
        let empty = dir.path().join("empty");
        std::fs::create_dir_all(&empty).unwrap();
        assert_eq!(
            kernel_write_in(&empty, Some(&line("cgroup"))).1,
            Observed::Allowed
        );
        assert_eq!(
            kernel_write_in(&empty, Some(&line("cgroup2"))).1,
            Observed::Denied
        );
        // /dev/null bound over a knob is a mask.
        assert_eq!(kernel_write(Path::new("/dev/null")).1, Observed::Denied);
    }

    /// On the machine running the tests, the probe is on the host: its own
    /// boot id as the host's is the host's kernel.
    #[test]
    fn this_process_runs_on_the_host_kernel() {
        let Ok(id) = std::fs::read_to_string(BOOT_ID) else {
            eprintln!("*** SKIPPED: {BOOT_ID} is not readable here ***");
            return;
        };
        let id = parse_boot_id(&id).unwrap();
        assert_eq!(boundary_kernel(Some(&id)).1, Observed::HostKernel);
        assert_eq!(boundary_kernel(Some(OTHER)).1, Observed::SeparateKernel);
        assert_eq!(boundary_kernel(None).1, Observed::NeedsLauncher);
        assert!(kernel_release().is_some_and(|r| !r.is_empty()));
    }
}
