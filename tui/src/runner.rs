//! The `--runner FILE` overlay of one run (`isolint audit`, `isolint tui`):
//! read once at start-up, then merged under every imported profile the run
//! audits. Held here, not threaded through every audit call, because it is
//! fixed for the whole process like the label catalog's path.

use std::path::Path;
use std::sync::OnceLock;

use isolint_core::import::{self, Imported};
use isolint_core::runner::Runner;
use isolint_core::{AuditOptions, Labels, Report};

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
    match RUNNER.get() {
        Some(r) => isolint_core::runner::audit_imported(unit, name, labels, options, r)
            .map_err(|e| e.to_string()),
        None => import::audit_imported(unit, name, labels, options).map_err(|e| e.to_string()),
    }
}
