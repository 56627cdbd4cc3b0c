//! Auditing a profile imported from another format: the importer's
//! output, the `--runner` overlay when there is one, and the audit,
//! composed here, one level above them, so that `import` stays a reader
//! that knows nothing of rules or reports, and every front end (the CLI,
//! the dashboard, the verifier, the page) audits an import the same way.

use std::collections::HashMap;
use std::fmt;

use crate::finding::Origin;
use crate::import::{ImportError, Imported, Loc, Note};
use crate::json::{InputError, Limits};
use crate::par::Schedule;
use crate::report::{audit_parsed, AuditOptions, Detail, Labels, OriginalSource, Parsed, Report};
use crate::runner::{Runner, RunnerError};
use crate::sanitize::neutralize;

/// Why an imported profile could not be audited: its profile text could
/// not be read (over the input limits), or the overlay cannot be merged
/// under it.
#[derive(Debug, Clone, PartialEq)]
pub enum AuditImportedError {
    Input(InputError),
    Runner(RunnerError),
}

impl fmt::Display for AuditImportedError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AuditImportedError::Input(e) => e.fmt(f),
            AuditImportedError::Runner(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for AuditImportedError {}

impl From<AuditImportedError> for ImportError {
    fn from(e: AuditImportedError) -> ImportError {
        match e {
            AuditImportedError::Input(e) => ImportError::from_json(e),
            AuditImportedError::Runner(e) => e.0,
        }
    }
}

/// Audit one imported profile, with `runner`'s overlay merged under it
/// when there is one, its stages run on `schedule`.
///
/// Every finding keeps its profile pointer and gains an `origin` in
/// `original_name` (the pointer's own source position, else its longest
/// mapped ancestor's); a finding about a value only the overlay declared
/// gets its origin in the overlay file instead. The report's source is
/// `original_name#name`, and it carries the original text (secrets masked)
/// for snippets.
pub fn audit_imported(
    imported: &Imported,
    original_name: &str,
    labels: &Labels,
    options: &AuditOptions,
    runner: Option<&Runner>,
    schedule: &dyn Schedule,
) -> Result<Report, AuditImportedError> {
    let overlaid = match runner {
        Some(r) => Some(
            r.overlay(&imported.profile_json)
                .map_err(AuditImportedError::Runner)?,
        ),
        None => None,
    };
    let profile_json = overlaid
        .as_ref()
        .map_or(imported.profile_json.as_str(), |o| o.profile_json.as_str());
    // The file's secrets are masked in this profile's report too: a value
    // that is a secret only by where the file wrote it (a Compose
    // `extra_hosts` entry with user info) is still one.
    let parsed = Parsed::new(profile_json.as_bytes(), Limits::default())
        .map_err(AuditImportedError::Input)?
        .also_masking(&imported.file_secrets);
    let source = imported.display_name(original_name);
    let mut report = audit_parsed(parsed, &source, labels, options, Detail::Full, schedule);
    point_into_original(&mut report, imported, original_name);
    if let (Some(o), Some(r)) = (&overlaid, runner) {
        crate::runner::point_into_overlay(&mut report, imported, original_name, o, r);
    }
    Ok(report)
}

/// Findings and mount rows point into the imported file; the report
/// carries that file's masked text.
fn point_into_original(report: &mut Report, imported: &Imported, original_name: &str) {
    let file = neutralize(original_name).into_owned();
    let mut cache: HashMap<String, Option<Loc>> = HashMap::new();
    for f in &mut report.issues {
        let loc = *cache
            .entry(f.pointer.clone())
            .or_insert_with(|| imported.origin_of(&f.pointer));
        f.origin = loc.map(|l| Origin {
            file: file.clone(),
            line: l.line,
            column: l.column,
        });
    }
    // Context the file depends on that a partial reading could not read:
    // each a blocking finding at the place the file names it.
    for u in &imported.unread {
        let f = unread_finding(u, &file);
        let f = report.clean_finding(f);
        report.issues.push(f);
    }
    if !imported.unread.is_empty() {
        report.refresh();
    }
    // Front ends show the original file: mount rows point into it too.
    for m in &mut report.mounts {
        m.line = imported
            .origin_of(&format!("{}/source", m.pointer))
            .map(|l| l.line);
    }
    report.original = Some(OriginalSource {
        file,
        format: imported.format.name(),
        sha256: imported.source_sha256.to_string(),
        text: std::sync::Arc::clone(&imported.masked_source),
        line_starts: std::sync::Arc::clone(&imported.masked_line_starts),
    });
}

/// The blocking finding of one piece of context the file depends on and
/// the import could not read (a partial reading, see [`Imported::unread`]).
fn unread_finding(u: &Note, file: &str) -> crate::finding::Finding {
    let rule = crate::rules::find(crate::import::UNREAD_RULE);
    let mut evidence = crate::finding::Evidence::new();
    evidence.insert("unread".into(), u.message.as_ref().into());
    crate::finding::Finding {
        rule: rule.map_or(crate::import::UNREAD_RULE, |r| r.id),
        area: rule.map_or(crate::finding::Area::Profile, |r| r.area),
        severity: rule.map_or(crate::finding::Severity::High, |r| r.severity),
        pointer: String::new(),
        line: None,
        column: None,
        exact: false,
        message: u.message.to_string(),
        remediation: rule.map_or("", |r| r.remediation),
        evidence,
        waived: None,
        baseline: None,
        value_digest: None,
        origin: Some(Origin {
            file: file.to_string(),
            line: u.line,
            column: u.column,
        }),
    }
}

/// The report a single-profile view (the dashboard's slot, the page's
/// editor) shows for a file describing several profiles: the first that is
/// not eligible, else the first, so a file holding a blocking profile never
/// looks eligible. `None` for no reports.
pub fn representative(mut reports: Vec<Report>) -> Option<Report> {
    let i = reports
        .iter()
        .position(|r| r.verdict == crate::Verdict::NotEligible)
        .unwrap_or(0);
    (i < reports.len()).then(|| reports.swap_remove(i))
}
