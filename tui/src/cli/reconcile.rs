//! `isolint reconcile FINDINGS OBSERVATIONS`: compare a plan with what a
//! probe observed in the launched environment. Exit 0 only when nothing
//! disagrees and nothing is stale.

use std::path::PathBuf;

use clap::{Args, ValueEnum};
use isolint_core::model::StringEnum;
use isolint_core::observe::{self, Observations, Reconciliation, Status};

use super::{output, EXIT_ERROR, EXIT_NOT_ELIGIBLE, EXIT_OK};

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
    Text,
    Json,
}

fn read(path: &PathBuf) -> Result<Vec<u8>, String> {
    std::fs::read(path).map_err(|e| format!("{}: cannot read: {e}", path.display()))
}

pub fn run(args: &ReconcileArgs) -> u8 {
    let loaded = read(&args.findings).and_then(|f| {
        let plan = observe::plan_from_export(&f)
            .map_err(|e| format!("{}: {e}", args.findings.display()))?;
        let o = read(&args.observations)?;
        let obs =
            observe::parse(&o).map_err(|e| format!("{}: {e}", args.observations.display()))?;
        Ok((plan, obs))
    });
    let ((fingerprint, plan), obs) = match loaded {
        Ok(l) => l,
        Err(e) => {
            output::error(&e);
            return EXIT_ERROR;
        }
    };
    let rec = observe::reconcile(&plan, &fingerprint, &obs);
    finish(&rec, &fingerprint, &obs, args.format)
}

/// Print the reconciliation in `format`; the exit status says whether it
/// passes (shared with `isolint verify`).
pub fn finish(
    rec: &Reconciliation,
    fingerprint: &str,
    obs: &Observations,
    format: ReconcileFormat,
) -> u8 {
    let text = render(rec, fingerprint, obs, format);
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
    fingerprint: &str,
    obs: &Observations,
    format: ReconcileFormat,
) -> String {
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
                "\n{} agree, {} disagree, {} not observable, {} stale (runner: {})\n",
                rec.count(Status::Agrees),
                rec.count(Status::Disagrees),
                rec.count(Status::NotObservable),
                rec.count(Status::Stale) + rec.unknown.len(),
                isolint_core::sanitize::neutralize(&obs.runner),
            ));
            out
        }
        ReconcileFormat::Json => {
            let checks: Vec<serde_json::Value> = rec
                .checks
                .iter()
                .map(|c| {
                    serde_json::json!({
                        "id": c.id, "kind": c.kind, "status": c.status.as_str(),
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
