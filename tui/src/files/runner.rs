//! The `--runner FILE` overlay of one run (`isolint audit`, `isolint tui`):
//! read once at start-up, then merged under every imported profile the run
//! audits. Held here, not threaded through every audit call, because it is
//! fixed for the whole process like the label catalog's path.

use std::path::Path;
use std::sync::OnceLock;

use isolint_core::import::{self, Imported};
use isolint_core::runner::Runner;
use isolint_core::{AuditOptions, Labels, Report};

use crate::pool::Pool;

static RUNNER: OnceLock<Runner> = OnceLock::new();

/// Read and keep the overlay; the error names the file, line and column.
pub fn load(path: &Path) -> Result<(), String> {
    let name = path.display().to_string();
    let bytes =
        std::fs::read(path).map_err(|e| format!("{name}: cannot read the runner overlay: {e}"))?;
    let runner = Runner::parse(&bytes, &name).map_err(|e| {
        let safe = isolint_core::sanitize::neutralize(&name).into_owned();
        format!("{safe}:{e}")
    })?;
    // Set once per process; a second call keeps the first overlay.
    let _ = RUNNER.set(runner);
    Ok(())
}

/// Whether an overlay is in force (native profiles are audited as written).
pub fn active() -> bool {
    RUNNER.get().is_some()
}

/// Audit an imported profile, with the overlay merged under it when one
/// was given.
pub fn audit_imported(
    unit: &Imported,
    name: &str,
    labels: &Labels,
    options: &AuditOptions,
) -> Result<Report, String> {
    isolint_core::audit::audit_imported(unit, name, labels, options, RUNNER.get(), &Pool)
        .map_err(|e| e.to_string())
}

/// Files of the run that hold only Kubernetes cluster objects
/// (NetworkPolicy, RuntimeClass, ConfigMap, Secret, RBAC and the other kinds
/// read beside workloads): their path
/// as inputs name it, and their bytes.
static COMPANIONS: OnceLock<Vec<(String, Vec<u8>)>> = OnceLock::new();

/// Read, once per run, the inputs that hold only cluster objects, so each
/// workload file of the run is imported with them. Only YAML files are
/// looked at (and only their text for the kinds first), so a directory of
/// JSON profiles is not read twice.
pub fn collect_companions<'a>(files: impl Iterator<Item = (&'a str, &'a Path)>) {
    let kinds = [
        "kind: NetworkPolicy",
        "kind: LimitRange",
        "kind: ResourceQuota",
        "kind: RuntimeClass",
        "kind: ServiceAccount",
        "kind: PersistentVolume",
        "kind: ConfigMap",
        "kind: Secret",
        "kind: Role",
        "kind: ClusterRole",
        "kind: RoleBinding",
        "kind: ClusterRoleBinding",
    ];
    let mut found = Vec::new();
    for (name, path) in files {
        let yaml = path
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("yaml") || e.eq_ignore_ascii_case("yml"));
        if !yaml {
            continue;
        }
        let Ok(bytes) = std::fs::read(path) else {
            continue;
        };
        let text = String::from_utf8_lossy(&bytes);
        if kinds.iter().any(|k| text.contains(k))
            && import::kubernetes_cluster_objects_only(&bytes).is_some()
        {
            found.push((name.to_string(), bytes));
        }
    }
    let _ = COMPANIONS.set(found);
}

/// Import a file, with the run's companion files (all but itself).
pub fn import(
    bytes: &[u8],
    format: import::Format,
    name: &str,
) -> Result<Vec<Imported>, import::ImportError> {
    let companions: Vec<&[u8]> = COMPANIONS
        .get()
        .map(|c| {
            c.iter()
                .filter(|(n, _)| n != name)
                .map(|(_, b)| b.as_slice())
                .collect()
        })
        .unwrap_or_default();
    import::import_with_companions(bytes, format, &companions)
}

/// Whether `name` is one of the run's companion files, read into the
/// workloads beside it rather than audited as a profile of its own.
pub fn is_companion(name: &str) -> bool {
    COMPANIONS
        .get()
        .is_some_and(|c| c.iter().any(|(n, _)| n == name))
}
