//! `isolint reconcile FINDINGS OBSERVATIONS`: compare a plan with what a
//! probe observed in the launched environment. Exit 0 only when nothing
//! disagrees and nothing is stale.

use std::path::PathBuf;

use clap::{Args, ValueEnum};
use isolint_core::model::StringEnum;
use isolint_core::observe::{self, Observations, Reconciliation};

use crate::files::output::{self as output, EXIT_ERROR, EXIT_NOT_ELIGIBLE, EXIT_OK};

#[derive(Debug, Args)]
pub struct ReconcileArgs {
    /// An isolint.findings/v2 document (one profile's `audit --format json`)
    #[arg(value_name = "FINDINGS")]
    findings: PathBuf,
    /// The isolint.observations/v1 document the probe and launcher wrote
    #[arg(value_name = "OBSERVATIONS")]
    observations: PathBuf,
    /// Output format
    #[arg(short, long, value_enum, default_value_t = ReconcileFormat::Text)]
    format: ReconcileFormat,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ReconcileFormat {
    /// One line per check and a tally
    Text,
    /// isolint.reconciliation/v1
    Json,
    /// SARIF 2.1.0: a result per check that disagrees, is stale or is not observable
    Sarif,
    /// A Markdown table, blocking checks first, for pull-request comments
    Markdown,
}

/// What the output names besides the checks: the plan's profile.
pub struct PlanOf<'a> {
    pub fingerprint: &'a str,
    /// The profile file, as the findings document names it.
    pub source: &'a str,
    pub name: &'a str,
}

fn read(path: &PathBuf) -> Result<Vec<u8>, String> {
    std::fs::read(path).map_err(|e| format!("{}: cannot read: {e}", path.display()))
}

pub fn run(args: &ReconcileArgs) -> u8 {
    let loaded = read(&args.findings).and_then(|f| {
        let (fingerprint, plan) = observe::plan_from_export(&f)
            .map_err(|e| format!("{}: {e}", args.findings.display()))?;
        // Already validated as a findings document: only names for the output.
        let doc: serde_json::Value = serde_json::from_slice(&f).unwrap_or_default();
        let text = |k: &str| doc["profile"][k].as_str().unwrap_or_default().to_string();
        let plan = (fingerprint, plan, text("source"), text("name"));
        let o = read(&args.observations)?;
        let obs =
            observe::parse(&o).map_err(|e| format!("{}: {e}", args.observations.display()))?;
        Ok((plan, obs))
    });
    let ((fingerprint, plan, source, name), obs) = match loaded {
        Ok(l) => l,
        Err(e) => {
            output::error(&e);
            return EXIT_ERROR;
        }
    };
    let rec = observe::reconcile(&plan, &fingerprint, &obs);
    let of = PlanOf {
        fingerprint: &fingerprint,
        source: &source,
        name: &name,
    };
    finish(&rec, &of, &obs, args.format)
}

/// Print the reconciliation in `format`; the exit status says whether it
/// passes (shared with `isolint verify`).
pub fn finish(
    rec: &Reconciliation,
    of: &PlanOf<'_>,
    obs: &Observations,
    format: ReconcileFormat,
) -> u8 {
    let text = render(rec, of, obs, format);
    if let Err(e) = output::stdout(&text) {
        output::error(&format!("cannot write to stdout: {e}"));
        return EXIT_ERROR;
    }
    if rec.passes() {
        EXIT_OK
    } else {
        EXIT_NOT_ELIGIBLE
    }
}

/// The reconciliation as text or JSON (`isolint.reconciliation/v1`).
pub fn render(
    rec: &Reconciliation,
    of: &PlanOf<'_>,
    obs: &Observations,
    format: ReconcileFormat,
) -> String {
    use isolint_core::observe::render as reconciliation;
    let fingerprint = of.fingerprint;
    match format {
        ReconcileFormat::Text => {
            let mut out = String::new();
            for c in &rec.checks {
                out.push_str(&format!(
                    "{:<15} {:<15} {:<19} {} expect {}, observed {}{}: {}\n",
                    c.status.as_str(),
                    c.id,
                    c.kind,
                    isolint_core::sanitize::neutralize(&c.target),
                    c.expect.as_str(),
                    c.observed.map_or("nothing", |o| o.as_str()),
                    c.errno
                        .as_deref()
                        .map(|e| format!(" ({e})"))
                        .unwrap_or_default(),
                    isolint_core::sanitize::neutralize(&c.reason),
                ));
            }
            for id in &rec.unknown {
                out.push_str(&format!(
                    "stale           {id}: an observation for no check of this plan\n"
                ));
            }
            out.push_str(&format!(
                "\n{} (runner: {})\n",
                reconciliation::tally(rec),
                isolint_core::sanitize::neutralize(&obs.runner),
            ));
            out
        }
        ReconcileFormat::Markdown => reconciliation::markdown(rec, of.name, &obs.runner),
        ReconcileFormat::Sarif => reconciliation::sarif(rec, of.source, fingerprint, &obs.runner),
        ReconcileFormat::Json => {
            let checks: Vec<serde_json::Value> = rec
                .checks
                .iter()
                .map(|c| {
                    serde_json::json!({
                        "id": c.id, "kind": c.kind, "target": c.target, "status": c.status.as_str(),
                        "expect": c.expect.as_str(),
                        "observed": c.observed.map(|o| o.as_str()),
                        "errno": c.errno, "reason": c.reason,
                    })
                })
                .collect();
            let v = serde_json::json!({
                "schema": "isolint.reconciliation/v1",
                "plan_fingerprint": fingerprint,
                "observed_fingerprint": obs.plan_fingerprint,
                "runner": obs.runner,
                "passes": rec.passes(),
                "checks": checks,
                "unknown_observations": rec.unknown,
            });
            serde_json::to_string_pretty(&v).unwrap_or_default() + "\n"
        }
    }
}
