//! Fixes of imported files: each profile edit becomes a text edit in the
//! file's own syntax. The importer's source map says where each profile
//! value came from; a table per format says which setting writes it.
//!
//! ```text
//! Edit on /boundary/no_new_privileges ──source map──▶ process.noNewPrivileges (OCI)
//!                                     ──format table──▶ TextEdit at its byte span
//! ```
//!
//! A fix the format cannot express safely (a value the shell or an
//! interpolation fills in, a setting the format lacks) is refused whole,
//! with why: never a partial edit.

use super::source::{JsonFile, Profile, Refusal};
use super::{engine, AuditFn, Edit, Outcome, Selection, TextEdit};
use crate::import::Format;

/// Fix a file of an import format (see [`super::fix_text`]).
pub(super) fn fix_imported(
    text: &str,
    format: Format,
    selection: &Selection,
    audit: &AuditFn,
) -> Result<Outcome, String> {
    let before = audit(text)?;
    let imported = crate::import::import(text.as_bytes(), format).map_err(|e| e.to_string())?;
    let profiles: Vec<Profile> = imported
        .iter()
        .map(|i| Profile {
            imported: i,
            doc: crate::json::parse(i.profile_json.as_bytes(), crate::json::Limits::default()).ok(),
        })
        .collect();
    let planner = Planner::new(format, text)?;
    let plan = |name: &str, edits: &[Edit]| -> Result<Vec<TextEdit>, Refusal> {
        let p = profiles
            .iter()
            .find(|p| p.imported.name == name)
            .ok_or_else(|| format!("no profile `{name}` in the file"))?;
        planner.plan(p, edits)
    };
    Ok(engine::run(text, before, selection, &plan, audit, true))
}

/// The editor of one file, parsed once for every candidate.
enum Planner<'a> {
    Oci(JsonFile<'a>),
    Sandbox(JsonFile<'a>),
    Codex(super::codex::CodexFile<'a>),
    Bwrap(super::bwrap::Script<'a>),
    Yaml(Format, &'a str),
}

impl<'a> Planner<'a> {
    fn new(format: Format, text: &'a str) -> Result<Planner<'a>, String> {
        Ok(match format {
            Format::Oci => Planner::Oci(JsonFile::new(text)?),
            Format::SandboxSettings => Planner::Sandbox(JsonFile::new(text)?),
            Format::Codex => Planner::Codex(super::codex::CodexFile::new(text)?),
            Format::Bwrap => Planner::Bwrap(super::bwrap::Script::new(text)?),
            Format::Kubernetes | Format::Compose => Planner::Yaml(format, text),
        })
    }

    fn plan(&self, p: &Profile, edits: &[Edit]) -> Result<Vec<TextEdit>, Refusal> {
        match self {
            Planner::Oci(f) => super::oci::plan(f, p, edits),
            Planner::Sandbox(f) => super::sandbox::plan(f, p, edits),
            Planner::Codex(f) => super::codex::plan(f, p, edits),
            Planner::Bwrap(s) => super::bwrap::plan(s, p, edits),
            Planner::Yaml(format, text) => super::yaml::plan(*format, text, p.imported, edits),
        }
    }
}
