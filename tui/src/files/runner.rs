//! What one run reads besides its inputs and holds for all of them: the
//! `--runner FILE` overlay merged under every imported profile, the
//! Kubernetes cluster objects read into the workloads beside them, and how
//! Compose files read the files beside them. A value made at start-up and
//! passed to whatever audits ([`RunContext`]), not process-wide state, so
//! two runs in one process (tests, the dashboard re-auditing) never see
//! each other's overlay.

use std::path::{Path, PathBuf};

use isolint_core::import::{self, Imported};
use isolint_core::runner::Runner;
use isolint_core::{AuditOptions, Labels, Report};

use crate::pool::Pool;

/// How the Compose files of this run read the files beside them
/// (`--partial`, `--no-override`, `--env-file`); part of the run's
/// [`RunContext`].
#[derive(Debug, Clone, Default)]
pub struct ContextOptions {
    /// What a file depends on and cannot be read is a blocking finding
    /// (PRF021), not a refusal.
    pub partial: bool,
    /// Do not merge `compose.override.yml` beside a default-named file.
    pub no_override: bool,
    /// Read these as the project environment instead of `.env`.
    pub env_files: Vec<PathBuf>,
}

/// The context of one run (`isolint audit`, `import`, `fix`, `tui`).
#[derive(Debug, Clone, Default)]
pub struct RunContext {
    /// The `--runner` overlay, when one was given.
    runner: Option<Runner>,
    /// Files of the run that hold only Kubernetes cluster objects
    /// (NetworkPolicy, RuntimeClass, ConfigMap, Secret, RBAC and the other
    /// kinds read beside workloads): their path as inputs name it, and
    /// their bytes.
    companions: Vec<(String, Vec<u8>)>,
    /// `--partial`, `--no-override`, `--env-file`.
    pub compose: ContextOptions,
}

impl RunContext {
    /// A context with the Compose options of the command line.
    pub fn new(compose: ContextOptions) -> RunContext {
        RunContext {
            compose,
            ..RunContext::default()
        }
    }

    /// Read the overlay at `path`; the error names the file, line and
    /// column. A second call replaces the first overlay.
    pub fn load_runner(&mut self, path: &Path) -> Result<(), String> {
        let name = path.display().to_string();
        let bytes = std::fs::read(path)
            .map_err(|e| format!("{name}: cannot read the runner overlay: {e}"))?;
        let runner = Runner::parse(&bytes, &name).map_err(|e| {
            let safe = isolint_core::sanitize::neutralize(&name).into_owned();
            format!("{safe}:{e}")
        })?;
        self.runner = Some(runner);
        Ok(())
    }

    /// Whether an overlay is in force (native profiles are audited as written).
    pub fn active(&self) -> bool {
        self.runner.is_some()
    }

    /// Audit an imported profile, with the overlay merged under it when
    /// one was given.
    pub fn audit_imported(
        &self,
        unit: &Imported,
        name: &str,
        labels: &Labels,
        options: &AuditOptions,
    ) -> Result<Report, String> {
        isolint_core::audit::audit_imported(
            unit,
            name,
            labels,
            options,
            self.runner.as_ref(),
            &Pool,
        )
        .map_err(|e| e.to_string())
    }

    /// Keep the inputs that hold only cluster objects, so each workload
    /// file of the run is imported with them. Only YAML files are looked
    /// at (and only their text for the kinds first), so a directory of
    /// JSON profiles is not read twice.
    pub fn collect_companions<'a>(&mut self, files: impl Iterator<Item = (&'a str, &'a Path)>) {
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
        self.companions = found;
    }

    /// Import a file, with the run's companion files (all but itself).
    pub fn import(
        &self,
        bytes: &[u8],
        format: import::Format,
        name: &str,
    ) -> Result<Vec<Imported>, import::ImportError> {
        let companions: Vec<&[u8]> = self
            .companions
            .iter()
            .filter(|(n, _)| n != name)
            .map(|(_, b)| b.as_slice())
            .collect();
        import::import_with_companions(bytes, format, &companions)
    }

    /// Whether `name` is one of the run's companion files, read into the
    /// workloads beside it rather than audited as a profile of its own.
    pub fn is_companion(&self, name: &str) -> bool {
        self.companions.iter().any(|(n, _)| n == name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two overlays in one process: each audit sees its own (with the
    /// process-wide overlay of before, the second kept the first). The OCI
    /// fixture's overlay, once as written and once with a different
    /// runtime version, must give different reports.
    #[test]
    fn two_overlays_in_one_process_do_not_share_state() {
        let dir = tempfile::tempdir().unwrap();
        let base = crate::fixtures::path("runner/oci/runner.json");
        let text = std::fs::read_to_string(&base).unwrap();
        let other = text.replace("\"version\": \"1.3.3\"", "\"version\": \"1.0.0\"");
        assert_ne!(text, other);
        let (a, b) = (dir.path().join("a.json"), dir.path().join("b.json"));
        std::fs::write(&a, &text).unwrap();
        std::fs::write(&b, &other).unwrap();
        let config = std::fs::read(crate::fixtures::path("runner/oci/config.json")).unwrap();
        let unit = import::import(&config, import::Format::Oci)
            .unwrap()
            .remove(0);
        let labels = Labels::workshop();
        let options = AuditOptions {
            today: isolint_core::Date::parse("2026-11-29"),
        };
        let audit = |overlay: &Path| {
            let mut cx = RunContext::default();
            cx.load_runner(overlay).unwrap();
            cx.audit_imported(&unit, "config.json", &labels, &options)
                .unwrap()
        };
        let first = audit(&a);
        let second = audit(&b);
        let rules = |r: &Report| r.issues.iter().map(|f| f.rule).collect::<Vec<_>>();
        assert_ne!(
            rules(&first),
            rules(&second),
            "the second overlay (runc 1.0.0) was not used"
        );
    }
}
