//! `isolint probe --plan FINDINGS.json`: runs inside a launched environment,
//! performs each runtime check's harmless action and records what the kernel
//! answered as an `isolint.observations/v1` document. It never sends a packet
//! outside 127.0.0.0/8 and writes only a uniquely named file it removes at
//! once. What cannot be seen from inside is reported `needs-launcher` with a
//! reason, never skipped.

use std::io::ErrorKind;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use clap::Args;
use isolint_core::model::StringEnum;
use isolint_core::observe::{Observation, Observations, Observed, OBSERVATIONS_SCHEMA};
use serde_json::Value;

use super::{output, EXIT_ERROR, EXIT_OK};

#[derive(Debug, Args)]
pub struct ProbeArgs {
    /// The isolint.findings/v2 document whose runtime checks to perform
    #[arg(long, value_name = "FINDINGS")]
    plan: PathBuf,
    /// Write the observations here instead of standard output
    #[arg(short, long, value_name = "OBSERVATIONS")]
    output: Option<PathBuf>,
    /// What launched this environment, recorded in the document
    #[arg(long, default_value = "unknown")]
    runner: String,
}

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

/// Open for reading (a file) or list (a directory).
fn read(path: &Path) -> Answer {
    let r = match std::fs::metadata(path) {
        Ok(m) if m.is_dir() => std::fs::read_dir(path).map(|_| ()),
        Ok(_) => std::fs::File::open(path).map(|_| ()),
        Err(e) => Err(e),
    };
    match r {
        Ok(()) => ("open O_RDONLY / readdir", Observed::Allowed, None, None),
        Err(e) => ("open O_RDONLY / readdir", denial(&e), errno_name(&e), None),
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

fn perform(kind: &str, target: &Value) -> Answer {
    let path = target["path"].as_str().map(Path::new);
    match (kind, path) {
        ("read-denied", Some(p)) => read(p),
        ("write-denied" | "write-allowed", Some(p)) => write(p),
        ("egress-denied" | "egress-allowed", _) => egress(target),
        ("env-exact", _) => env_exact(target),
        _ => (
            "none",
            Observed::NeedsLauncher,
            None,
            Some(format!("{kind} is not observed by this probe from inside")),
        ),
    }
}

/// The observations for one findings document's plan.
pub fn observe(doc: &Value, runner: &str) -> Result<Observations, String> {
    if doc["schema"].as_str() != Some("isolint.findings/v2") {
        return Err("not one isolint.findings/v2 document".into());
    }
    let fingerprint = doc["profile"]["fingerprint"]
        .as_str()
        .ok_or("profile.fingerprint is missing")?;
    let checks = doc["runtime_checks"]
        .as_array()
        .ok_or("runtime_checks is missing")?;
    let mut observations = Vec::with_capacity(checks.len());
    for c in checks {
        let id = c["id"].as_str().ok_or("a runtime check has no id")?;
        let kind = c["kind"].as_str().ok_or_else(|| format!("{id}: no kind"))?;
        let start = Instant::now();
        let (action, observed, errno, detail) = perform(kind, &c["target"]);
        observations.push(Observation {
            id: id.into(),
            kind: kind.into(),
            action: action.into(),
            observed: observed.as_str().into(),
            errno,
            detail,
            elapsed_us: u64::try_from(start.elapsed().as_micros()).unwrap_or(u64::MAX),
        });
    }
    Ok(Observations {
        schema: OBSERVATIONS_SCHEMA.into(),
        plan_fingerprint: fingerprint.into(),
        runner: runner.into(),
        observations,
    })
}

pub fn run(args: &ProbeArgs) -> u8 {
    let shown = args.plan.display();
    let doc = std::fs::read(&args.plan)
        .map_err(|e| format!("{shown}: cannot read: {e}"))
        .and_then(|b| {
            serde_json::from_slice::<Value>(&b)
                .map_err(|e| format!("{shown}: line {}, column {}: {e}", e.line(), e.column()))
        })
        .and_then(|d| observe(&d, &args.runner).map_err(|e| format!("{shown}: {e}")));
    let obs = match doc {
        Ok(o) => o,
        Err(e) => {
            output::error(&e);
            return EXIT_ERROR;
        }
    };
    let mut text = serde_json::to_string_pretty(&obs).unwrap_or_default();
    text.push('\n');
    let written = match &args.output {
        Some(p) => {
            std::fs::write(p, text).map_err(|e| format!("{}: cannot write: {e}", p.display()))
        }
        None => {
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
