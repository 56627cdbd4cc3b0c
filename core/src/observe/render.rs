//! A reconciliation of the plan with observations (`isolint reconcile`,
//! `isolint verify`) as Markdown and SARIF, with the escaping and URI
//! helpers of the findings renderers. Text and JSON are the CLI's.

use std::fmt::Write;

use crate::model::StringEnum;
use crate::observe::{Reconciliation, Status};
use crate::render::markdown::md;
use crate::render::sarif::{relative_uri, SARIF_SCHEMA};
use crate::report::{TOOL_NAME, TOOL_VERSION};

/// The one-line tally every format ends with.
pub fn tally(rec: &Reconciliation) -> String {
    format!(
        "{} agree, {} disagree, {} not observable, {} stale",
        rec.count(Status::Agrees),
        rec.count(Status::Disagrees),
        rec.count(Status::NotObservable),
        rec.count(Status::Stale) + rec.unknown.len(),
    )
}

/// A Markdown table of every check, blocking ones first in plan order.
pub fn markdown(rec: &Reconciliation, profile: &str, runner: &str) -> String {
    let mut out = String::new();
    let verdict = if rec.passes() {
        "configuration and observed enforcement agree"
    } else {
        "configuration and observed enforcement do **not** agree"
    };
    let _ = writeln!(
        out,
        "## isolint reconciliation: {}\n\n{verdict} (runner: {}).\n\n{}.\n",
        md(profile),
        md(runner),
        tally(rec)
    );
    out.push_str("| Status | Check | Kind | Target | Expected | Observed | Reason |\n");
    out.push_str("|---|---|---|---|---|---|---|\n");
    let (blocking, rest): (Vec<_>, Vec<_>) = rec.checks.iter().partition(|c| c.status.blocks());
    for c in blocking.into_iter().chain(rest) {
        let observed = c.observed.map_or("nothing", |o| o.as_str());
        let errno = c.errno.as_deref().map(|e| format!(" ({})", md(e)));
        let _ = writeln!(
            out,
            "| {} | `{}` | {} | {} | {} | {observed}{} | {} |",
            c.status.as_str(),
            md(&c.id),
            md(&c.kind),
            md(&c.target),
            c.expect.as_str(),
            errno.unwrap_or_default(),
            md(&c.reason)
        );
    }
    for id in &rec.unknown {
        let _ = writeln!(
            out,
            "| stale | `{}` | | | | | an observation for no check of this plan |",
            md(id)
        );
    }
    out
}

/// A SARIF 2.1.0 log: one result per check that disagrees or is stale
/// (`error`) or is not observable (`note`), at the profile file; its
/// rules are the check kinds. Agreement is no result, as in code scanning.
pub fn sarif(rec: &Reconciliation, source: &str, fingerprint: &str, runner: &str) -> String {
    use serde_json::{json, Value};
    let uri = relative_uri(source);
    let mut kinds: Vec<&str> = rec.checks.iter().map(|c| c.kind.as_str()).collect();
    crate::sort::sort(&mut kinds);
    kinds.dedup();
    let rules: Vec<Value> = kinds
        .iter()
        .map(|k| {
            json!({
                "id": k,
                "shortDescription": {"text": format!("runtime check {k}")},
                "fullDescription": {"text": format!("The launched environment must show {k} as the plan declares it.")},
            })
        })
        .collect();
    let level = |s: Status| match s {
        Status::Disagrees | Status::Stale => Some("error"),
        Status::NotObservable => Some("note"),
        Status::Agrees => None,
    };
    let mut results: Vec<Value> = rec
        .checks
        .iter()
        .filter_map(|c| {
            let level = level(c.status)?;
            let observed = c.observed.map_or("nothing", |o| o.as_str());
            Some(json!({
                "ruleId": c.kind,
                "level": level,
                "message": {"text": crate::sanitize::neutralize(&format!(
                    "{} {}: {} expects {}, observed {observed}: {}",
                    c.status.as_str(), c.id, c.target, c.expect.as_str(), c.reason
                ))},
                "locations": [{"physicalLocation": {"artifactLocation": {"uri": uri, "uriBaseId": "SRCROOT"}}}],
                "partialFingerprints": {"isolintCheck/v1": c.id},
                "properties": {"status": c.status.as_str(), "target": c.target},
            }))
        })
        .collect();
    results.extend(rec.unknown.iter().map(|id| {
        json!({
            "ruleId": "stale",
            "level": "error",
            "message": {"text": crate::sanitize::neutralize(&format!("stale {id}: an observation for no check of this plan"))},
            "locations": [{"physicalLocation": {"artifactLocation": {"uri": uri, "uriBaseId": "SRCROOT"}}}],
            "partialFingerprints": {"isolintCheck/v1": id},
        })
    }));
    let log = json!({
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {"name": TOOL_NAME, "version": TOOL_VERSION, "semanticVersion": TOOL_VERSION, "rules": rules}},
            "originalUriBaseIds": {"SRCROOT": {"description": {"text": "the directory isolint was run from"}}},
            "properties": {"fingerprint": fingerprint, "runner": runner, "passes": rec.passes(), "tally": tally(rec)},
            "results": results,
        }],
    });
    serde_json::to_string_pretty(&log).unwrap_or_default() + "\n"
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::observe::{join_report, Observation, Observations, OBSERVATIONS_SCHEMA};
    use crate::{audit, AuditOptions, Labels};

    fn rec(wrong: usize) -> Reconciliation {
        let r = audit(
            crate::WORKSHOP_PROFILE_FIXED.as_bytes(),
            "fixtures/profiles/workshop-fixed.json",
            &Labels::workshop(),
            &AuditOptions::default(),
        )
        .unwrap();
        let obs = Observations {
            schema: OBSERVATIONS_SCHEMA.into(),
            plan_fingerprint: r.profile.fingerprint.clone(),
            runner: "test @team".into(),
            observations: r
                .runtime_checks
                .iter()
                .take(wrong + 1)
                .enumerate()
                .map(|(i, c)| Observation {
                    id: c.id.clone(),
                    kind: c.kind.as_str().into(),
                    action: "test".into(),
                    observed: if i < wrong { "allowed" } else { "denied" }.into(),
                    errno: None,
                    detail: None,
                    elapsed_us: 1,
                })
                .collect(),
        };
        join_report(&r, &obs)
    }

    #[test]
    fn markdown_lists_every_check_blocking_first_and_defuses_mentions() {
        let r = rec(2);
        let text = markdown(&r, "parser-tests", "test @team");
        assert_eq!(text.matches("\n| ").count(), r.checks.len() + 1);
        let first_row = text.lines().find(|l| l.starts_with("| disagrees")).unwrap();
        let first_other = text
            .lines()
            .position(|l| l.starts_with("| agrees") || l.starts_with("| not-observable"))
            .unwrap();
        assert!(text.lines().position(|l| l == first_row).unwrap() < first_other);
        assert!(text.contains("do **not** agree"));
        assert!(!text.contains("@team"), "{text}");
    }

    #[test]
    fn sarif_has_a_result_for_each_check_that_does_not_agree() {
        let r = rec(2);
        let log: serde_json::Value = serde_json::from_str(&sarif(
            &r,
            "fixtures/profiles/workshop-fixed.json",
            "f",
            "t",
        ))
        .unwrap();
        let results = log["runs"][0]["results"].as_array().unwrap();
        let not_agreeing = r
            .checks
            .iter()
            .filter(|c| c.status != Status::Agrees)
            .count();
        assert_eq!(results.len(), not_agreeing);
        assert_eq!(results.iter().filter(|x| x["level"] == "error").count(), 2);
        assert_eq!(
            results[0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
            "fixtures/profiles/workshop-fixed.json"
        );
        let rules: Vec<&str> = log["runs"][0]["tool"]["driver"]["rules"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["id"].as_str().unwrap())
            .collect();
        assert!(results
            .iter()
            .all(|x| rules.contains(&x["ruleId"].as_str().unwrap())));
    }
}
