//! Importers: the sandbox configurations people already have, turned into
//! equivalent `isolint.profile/v1` documents so the same rules audit them,
//! with a source map so every finding points back to the original file.
//!
//! ```text
//! bytes ──detect──▶ Format ──import──▶ [Imported { profile_json, source_map, notes, undeclared }]
//!                                          └──crate::audit::audit_imported──▶ Report (findings carry `origin`)
//! ```
//!
//! Each source format has its own module. An importer never guesses in the
//! safe direction:
//! - a setting with no profile equivalent becomes a [`Note`] at its line;
//! - a profile field the format cannot express stays absent (so the rules
//!   audit it as "not declared") and is listed in [`Imported::undeclared`];
//! - where the format documents a default (a missing OCI namespace is the
//!   host's, Kubernetes mounts the service-account token unless told not
//!   to), the default is written out and mapped to the place where the
//!   setting would go.
//!
//! Bad input of every format is an [`ImportError`] naming the line and
//! column, with the same limits as JSON profiles (8 MiB, 64 levels, no
//! duplicate keys).
//!
//! ```
//! use isolint_core::import::{self, Format};
//! let pod = b"apiVersion: v1\nkind: Pod\nmetadata: {name: t}\nspec:\n  containers:\n  - name: c\n    image: python:3.12\n";
//! assert_eq!(import::detect(pod, Some("pod.yaml")), Some(Format::Kubernetes));
//! let imported = import::import(pod, Format::Kubernetes).unwrap();
//! assert_eq!(imported[0].name, "Pod/t/c");
//! assert_eq!(imported[0].origin_of("/dependencies/image").map(|l| l.line), Some(7));
//! ```

use std::borrow::Cow;
use std::collections::HashMap;
use std::fmt;
use std::sync::Arc;

use crate::digest::sha256_hex;
use crate::json::InputError;
use crate::sanitize::neutralize;

pub(crate) mod builder;
mod bwrap;
mod codex;
mod compose;
pub mod hints;
pub use compose::{Companion, ComposeContext};
#[cfg(test)]
mod keys_tests;
mod kubernetes;
mod oci;
mod read;
mod sandbox;
pub(crate) mod shape;
mod source_secrets;
pub mod syntax;
#[cfg(test)]
mod table_tests;

// The readers keep their old paths (`import::yaml`, …) for callers outside.
use syntax::shell;
pub use syntax::{toml, tree, yaml};

pub(crate) use bwrap::invocation_words as bwrap_invocation_words;
pub use bwrap::{argv as bwrap_argv, Arg as ShellArg, OPTIONS as BWRAP_OPTIONS};
pub(crate) use oci::{RUNC_MASKED, RUNC_READONLY};
pub use tree::Loc;

/// The rule a context the import could not read raises (see
/// [`Imported::unread`]; the audit turns each into a finding).
pub const UNREAD_RULE: &str = "PRF021";

/// A source format isolint can import.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Format {
    /// OCI runtime `config.json` (runc, crun).
    Oci,
    /// Kubernetes Pod, Job, CronJob, Deployment (and other pod templates).
    Kubernetes,
    /// Docker Compose services.
    Compose,
    /// Codex CLI `config.toml`.
    Codex,
    /// sandbox-runtime (`srt`) or Claude Code sandbox settings JSON.
    SandboxSettings,
    /// A `bwrap` (bubblewrap) command line or script.
    Bwrap,
}

impl Format {
    pub const ALL: [Format; 6] = [
        Format::Oci,
        Format::Kubernetes,
        Format::Compose,
        Format::Codex,
        Format::SandboxSettings,
        Format::Bwrap,
    ];

    /// The name `--from` accepts.
    pub fn name(self) -> &'static str {
        match self {
            Format::Oci => "oci",
            Format::Kubernetes => "kubernetes",
            Format::Compose => "compose",
            Format::Codex => "codex",
            Format::SandboxSettings => "sandbox-settings",
            Format::Bwrap => "bwrap",
        }
    }

    /// A human name.
    pub fn title(self) -> &'static str {
        match self {
            Format::Oci => "OCI runtime config.json",
            Format::Kubernetes => "Kubernetes manifest",
            Format::Compose => "Docker Compose file",
            Format::Codex => "Codex config.toml",
            Format::SandboxSettings => "sandbox-runtime / Claude Code sandbox settings",
            Format::Bwrap => "bwrap command line",
        }
    }

    /// Parse a `--from` value (names and common aliases, any case).
    pub fn parse(s: &str) -> Option<Format> {
        Some(match s.to_ascii_lowercase().as_str() {
            "oci" | "runc" | "crun" | "oci-config" => Format::Oci,
            "kubernetes" | "k8s" | "kube" => Format::Kubernetes,
            "compose" | "docker-compose" => Format::Compose,
            "codex" | "codex-config" => Format::Codex,
            "sandbox-settings" | "sandbox" | "srt" | "sandbox-runtime" | "claude"
            | "claude-code" => Format::SandboxSettings,
            "bwrap" | "bubblewrap" => Format::Bwrap,
            _ => return None,
        })
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A source setting with no profile equivalent, at its place in the source.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Note {
    pub line: u32,
    pub column: u32,
    /// Most notes are fixed texts, shared rather than copied per profile.
    pub message: Cow<'static, str>,
}

impl fmt::Display for Note {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: {}", self.line, self.column, self.message)
    }
}

/// A profile field the source format cannot express. It stays absent from
/// the generated profile, so it is audited as "not declared".
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Undeclared {
    /// RFC 6901 pointer of the profile field.
    pub pointer: &'static str,
    pub reason: Cow<'static, str>,
}

/// One entry of the source map: a profile pointer and where it came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mapped {
    pub pointer: String,
    pub line: u32,
    pub column: u32,
}

/// One profile generated from a source file.
#[derive(Debug, Clone, PartialEq)]
pub struct Imported {
    pub format: Format,
    /// Which part of the file this profile describes (`Job/tests/runner`,
    /// a Compose service name); empty when the file holds one profile.
    pub name: String,
    /// The generated `isolint.profile/v1` document.
    pub profile_json: String,
    /// Whether `profile_json` holds a secret value of its own: when not,
    /// [`crate::secrets::mask_json_document`] leaves it as it is, and a
    /// front end need not parse it again to find out.
    pub holds_secrets: bool,
    /// Source settings with no profile equivalent, in source order. Each
    /// message is already masked with the file's secrets and neutralized:
    /// safe to print on any stream as it is.
    pub notes: Vec<Note>,
    /// Profile fields the format cannot express (one list shared by
    /// profiles that lack the same fields). Pointers are fixed texts;
    /// reasons are masked and neutralized as notes are.
    pub undeclared: Arc<[Undeclared]>,
    /// Profile pointers and the source positions they came from, sorted by
    /// pointer. The root pointer `""` is always present, unless the file
    /// was imported without source maps ([`detect_and_import`]).
    pub source_map: Vec<Mapped>,
    /// The original text (shared by every profile of one file).
    pub source_text: Arc<str>,
    /// The original text with the secrets of every profile of the file
    /// masked, and its digest: computed once per file and shared, since a
    /// copy per profile made imports quadratic.
    pub masked_source: Arc<str>,
    /// Where each line of `masked_source` starts, found once per file.
    pub masked_line_starts: Arc<[u32]>,
    pub source_sha256: Arc<str>,
    /// The secrets of the whole file (every profile's, and those of
    /// settings no profile kept): whatever is shown of one of its profiles
    /// masks them all ([`crate::audit::audit_imported`], [`Imported::masked_profile_json`]).
    pub file_secrets: Arc<crate::secrets::Secrets>,
    /// Context the file depends on that could not be read, each a
    /// blocking finding (PRF021) of this profile, with where the file
    /// refers to it. Empty unless the import was asked for a partial
    /// reading ([`ComposeContext::partial`]); otherwise such a file is
    /// refused.
    pub unread: Vec<Note>,
}

impl Imported {
    /// The source position of a profile pointer: the pointer itself when
    /// mapped, else its longest mapped ancestor (the root at worst).
    pub fn origin_of(&self, pointer: &str) -> Option<Loc> {
        let find = |p: &str| {
            self.source_map
                .binary_search_by(|m| m.pointer.as_str().cmp(p))
                .ok()
                .and_then(|i| self.source_map.get(i))
                .map(|m| Loc {
                    line: m.line,
                    column: m.column,
                })
        };
        let mut p = pointer;
        loop {
            if let Some(l) = find(p) {
                return Some(l);
            }
            match p.rfind('/') {
                Some(i) => p = p.get(..i).unwrap_or(""),
                None => return find(""),
            }
        }
    }

    /// The profile JSON with every secret of the file written as
    /// [`crate::secrets::MASK`] (see [`crate::secrets::mask_json_document_with`]):
    /// what `isolint import` prints unless told to reveal secrets.
    pub fn masked_profile_json(&self) -> std::borrow::Cow<'_, str> {
        crate::secrets::mask_json_document_with(&self.profile_json, &self.file_secrets)
    }

    /// [`Imported::name`] as a front end may show it: the file's secrets
    /// masked (a service or container named like a token) and neutralized.
    pub fn shown_name(&self) -> String {
        neutralize(&self.file_secrets.scrub_value(&self.name)).into_owned()
    }

    /// `file#name`, or `file` when the file holds one unnamed profile.
    pub fn display_name(&self, file: &str) -> String {
        if self.name.is_empty() {
            file.to_string()
        } else {
            format!("{file}#{}", self.name)
        }
    }
}

/// Why a file could not be imported.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ImportErrorKind {
    TooLarge {
        size: usize,
        limit: usize,
    },
    TooDeep {
        limit: usize,
    },
    TooManyValues {
        limit: usize,
    },
    InvalidUtf8,
    /// The file is not valid in its syntax (YAML, TOML, JSON, shell words).
    Syntax(String),
    /// A key written twice in one mapping.
    DuplicateKey {
        key: String,
        first: Loc,
    },
    /// Valid syntax, but a setting the importer maps has an unusable value.
    Invalid(String),
    /// Nothing in the file is a configuration of the format.
    Unrecognized(String),
}

/// An import failure, with the place it happened when there is one.
///
/// Boxed: every `?` in the importers moves an error, and moving a pointer
/// takes less code than moving the kind and the place. Its fields are
/// read through [`ImportFailure`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImportError(Box<ImportFailure>);

/// What an [`ImportError`] holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImportFailure {
    pub kind: ImportErrorKind,
    pub loc: Option<Loc>,
}

impl std::ops::Deref for ImportError {
    type Target = ImportFailure;
    fn deref(&self) -> &ImportFailure {
        &self.0
    }
}

impl std::ops::DerefMut for ImportError {
    fn deref_mut(&mut self) -> &mut ImportFailure {
        &mut self.0
    }
}

/// The input is well-formed but the format's consumer would refuse it:
/// the message says why, at `at`.
pub(crate) fn invalid(at: Loc, msg: impl Into<String>) -> ImportError {
    ImportError::new(ImportErrorKind::Invalid(msg.into())).at(at)
}

impl ImportError {
    pub fn new(kind: ImportErrorKind) -> ImportError {
        ImportError(Box::new(ImportFailure { kind, loc: None }))
    }
    pub fn at(mut self, loc: Loc) -> ImportError {
        self.loc = Some(loc);
        self
    }
    pub fn from_json(e: InputError) -> ImportError {
        use crate::json::InputErrorKind as J;
        let e = e.into_failure();
        let kind = match e.kind {
            J::TooLarge { size, limit } => ImportErrorKind::TooLarge { size, limit },
            J::TooDeep { limit } => ImportErrorKind::TooDeep { limit },
            J::TooManyValues { limit } => ImportErrorKind::TooManyValues { limit },
            J::InvalidUtf8 => ImportErrorKind::InvalidUtf8,
            J::ByteOrderMark => {
                ImportErrorKind::Syntax("a JSON file must not start with a byte-order mark".into())
            }
            J::Syntax(m) => ImportErrorKind::Syntax(format!("invalid JSON: {m}")),
        };
        ImportError(Box::new(ImportFailure {
            kind,
            loc: e.pos.map(|p| Loc {
                line: p.line,
                column: p.column,
            }),
        }))
    }
}

impl fmt::Display for ImportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(l) = self.loc {
            write!(f, "{}:{}: ", l.line, l.column)?;
        }
        let text = match &self.kind {
            ImportErrorKind::TooLarge { size, limit } => {
                format!("input is {size} bytes, over the {limit}-byte limit; refusing to parse it")
            }
            ImportErrorKind::TooDeep { limit } => {
                format!("nesting is deeper than {limit} levels; refusing to parse it")
            }
            ImportErrorKind::TooManyValues { limit } => {
                format!(
                    "input holds more than {limit} values (aliases included); refusing to parse it"
                )
            }
            ImportErrorKind::InvalidUtf8 => "input is not valid UTF-8".into(),
            ImportErrorKind::Syntax(m)
            | ImportErrorKind::Invalid(m)
            | ImportErrorKind::Unrecognized(m) => m.clone(),
            ImportErrorKind::DuplicateKey { key, first } => format!(
                "duplicate key `{key}` (first at {}:{}); parsers disagree on which value wins",
                first.line, first.column
            ),
        };
        // A message may quote the input (a duplicate key shaped like a
        // token): masked as well as neutralized.
        f.write_str(&crate::secrets::safe_text(&text))
    }
}

impl std::error::Error for ImportError {}

/// Whether the JSON text has `"schema": "isolint.profile/v1"` (any spacing).
fn declares_profile_schema(bytes: &[u8]) -> bool {
    let key = b"\"schema\"";
    let want = format!("\"{}\"", crate::model::PROFILE_SCHEMA);
    let mut at = 0;
    while let Some(i) = bytes
        .get(at..)
        .and_then(|rest| rest.windows(key.len()).position(|w| w == key))
    {
        let after = bytes.get(at + i + key.len()..).unwrap_or_default();
        let after = after.trim_ascii_start();
        if let Some(value) = after.strip_prefix(b":") {
            if value.trim_ascii_start().starts_with(want.as_bytes()) {
                return true;
            }
        }
        at += i + key.len();
    }
    false
}

/// Guess the format of `bytes` from its content; `file_name` only breaks
/// ties. `None` means "not an importable format" (an `isolint.profile/v1`
/// document, or something unknown): audit it as a profile.
pub fn detect(bytes: &[u8], file_name: Option<&str>) -> Option<Format> {
    detect_parsed(bytes, file_name).0
}

/// [`detect`], then [`import`] as the format detected: `None` when
/// [`detect`] finds none. A YAML file is parsed once for both, not twice
/// (a seventh of the time of a large Compose import).
///
/// Without `source_map`, every profile's source map is left empty (and
/// [`Imported::origin_of`] finds nothing): for writing profiles out, not
/// auditing them, at a third less memory for a file of many profiles.
pub fn detect_and_import(
    bytes: &[u8],
    file_name: Option<&str>,
    source_map: bool,
) -> Option<(Format, Result<Vec<Imported>, ImportError>)> {
    let (format, docs) = detect_parsed(bytes, file_name);
    let format = format?;
    // Detection reads at most the input limit; past it, [`import`] refuses.
    let limits = tree::TreeLimits::default();
    let docs = docs.filter(|_| bytes.len() <= limits.max_bytes);
    let imported = match docs {
        Some(docs) => (|| {
            let text: Arc<str> = Arc::from(tree::checked_text(bytes, &limits)?);
            let mut kept = Kept::new(source_map);
            match format {
                Format::Compose => compose::import_docs(&docs, &mut |n, d| kept.take(n, d))?,
                _ => kubernetes::import_docs(&docs, &[], &mut |n, d| kept.take(n, d))?,
            }
            // The file's own secrets are read from the same documents,
            // not from a second parse of the text.
            finish_with(
                kept,
                format,
                &text,
                Some(source_secrets::Documents::Trees(docs)),
            )
        })(),
        None => import_as(bytes, format, source_map),
    };
    Some((format, imported))
}

/// [`detect`], with the YAML documents it parsed when it found Kubernetes
/// or Compose in them.
fn detect_parsed(
    bytes: &[u8],
    file_name: Option<&str>,
) -> (Option<Format>, Option<Vec<tree::SNode>>) {
    let found = |f: Option<Format>| (f, None);
    let bytes = bytes.strip_prefix(&[0xEF, 0xBB, 0xBF]).unwrap_or(bytes);
    let Some(text) = bytes
        .get(..bytes.len().min(8 << 20))
        .and_then(|b| std::str::from_utf8(b).ok())
    else {
        return (None, None);
    };
    let base = file_name
        .map(|f| {
            f.rsplit(['/', '\\'])
                .next()
                .unwrap_or(f)
                .to_ascii_lowercase()
        })
        .unwrap_or_default();
    let trimmed = text.trim_start();
    if trimmed.starts_with('{') {
        return found(detect_json(bytes, &base));
    }
    if bwrap::find_invocation(text).is_some() {
        return found(Some(Format::Bwrap));
    }
    // A `.toml` file is read as Codex whatever its content: no need to
    // parse it here (a tenth of the time of a large import).
    if base.ends_with(".toml") {
        return found(Some(Format::Codex));
    }
    if looks_like_codex(text) {
        match self::toml::parse(bytes) {
            Ok(t) if codex::looks_like(&t) => return found(Some(Format::Codex)),
            // Broken TOML with Codex keys: the importer names the problem.
            Err(_) => return found(Some(Format::Codex)),
            Ok(_) => {}
        }
    }
    match yaml::parse(bytes) {
        Ok(docs) => {
            if docs.iter().any(kubernetes::looks_like) {
                return (Some(Format::Kubernetes), Some(docs));
            }
            if docs.iter().any(compose::looks_like) {
                return (Some(Format::Compose), Some(docs));
            }
        }
        // Broken YAML still says what it meant to be; the importer then
        // reports the exact problem instead of a JSON error.
        Err(_) => {
            let top = |key: &str| text.lines().any(|l| l.starts_with(key));
            if top("apiVersion:") && top("kind:") {
                return found(Some(Format::Kubernetes));
            }
            if top("services:") {
                return found(Some(Format::Compose));
            }
        }
    }
    found(by_name(&base))
}

fn detect_json(bytes: &[u8], base: &str) -> Option<Format> {
    // A profile names its schema: say so without building a tree of the
    // whole document (it was a tenth of the time of a large audit).
    if declares_profile_schema(bytes) {
        return None;
    }
    let Some(root) = tree::json_sniff(bytes) else {
        // Broken JSON: recognize it by its keys so the importer can say
        // exactly what is wrong.
        let text = String::from_utf8_lossy(bytes);
        let has = |k: &str| text.contains(&format!("\"{k}\""));
        if has("ociVersion") {
            return Some(Format::Oci);
        }
        if has("apiVersion") && has("kind") {
            return Some(Format::Kubernetes);
        }
        if [
            "sandbox",
            "allowedDomains",
            "denyRead",
            "allowWrite",
            "allowUnixSockets",
        ]
        .iter()
        .any(|k| has(k))
        {
            return Some(Format::SandboxSettings);
        }
        return by_name(base).filter(|f| matches!(f, Format::Oci | Format::SandboxSettings));
    };
    if root.get("schema").and_then(|s| s.as_str()) == Some(crate::model::PROFILE_SCHEMA) {
        return None;
    }
    if oci::looks_like(&root) {
        return Some(Format::Oci);
    }
    if kubernetes::looks_like(&root) {
        return Some(Format::Kubernetes);
    }
    if compose::looks_like(&root) {
        return Some(Format::Compose);
    }
    if sandbox::looks_like(&root) {
        return Some(Format::SandboxSettings);
    }
    None
}

fn looks_like_codex(text: &str) -> bool {
    text.lines().any(|l| {
        let l = l.trim_start();
        l.starts_with("sandbox_mode")
            || l.starts_with("[sandbox_workspace_write]")
            || l.starts_with("[shell_environment_policy]")
            || l.starts_with("approval_policy")
            || l.starts_with("default_permissions")
            || l.starts_with("model =")
            || l.starts_with("model_provider")
            || l.starts_with("[profiles.")
            || l.starts_with("[mcp_servers.")
            || l.starts_with("[permissions.")
    })
}

fn by_name(base: &str) -> Option<Format> {
    if base.ends_with(".toml") {
        Some(Format::Codex)
    } else if base.starts_with("docker-compose") || base.starts_with("compose.") {
        Some(Format::Compose)
    } else if base == "config.json" {
        Some(Format::Oci)
    } else if base.ends_with("settings.json") || base.ends_with("settings.local.json") {
        Some(Format::SandboxSettings)
    } else if base.ends_with(".sh") || base.starts_with("bwrap") {
        Some(Format::Bwrap)
    } else {
        None
    }
}

/// How many times the input's size limit all profiles of one import may
/// take together: 40 MiB, which an 8 MiB file of 45,000 Compose services
/// stays under (about 37 MiB), and which holds an import of many small
/// profiles (180,000 Codex `[profiles.*]`) under 200 MB of memory.
const PRODUCED_FACTOR: usize = 5;
/// [`import`], with other files of the same run whose Kubernetes cluster
/// objects (NetworkPolicy, LimitRange, ResourceQuota, RuntimeClass) apply
/// to this file's workloads as if they were in its stream. Positions in
/// the source map stay this file's; a policy from a companion is named in
/// a note. Other formats ignore `companions`.
pub fn import_with_companions(
    bytes: &[u8],
    format: Format,
    companions: &[&[u8]],
) -> Result<Vec<Imported>, ImportError> {
    if format != Format::Kubernetes || companions.is_empty() {
        return import(bytes, format);
    }
    let docs: Vec<tree::SNode> = companions
        .iter()
        .filter_map(|c| yaml::parse(c).ok())
        .flatten()
        .collect();
    let text: Arc<str> = Arc::from(tree::checked_text(bytes, &tree::TreeLimits::default())?);
    let mut kept = Kept::new(true);
    kubernetes::import_into(bytes, &docs, &mut |name, d| kept.take(name, d))?;
    finish(kept, format, &text)
}

/// [`import`] of a Compose file with the files it depends on (the
/// project's `.env`, `env_file`, `include`, `extends.file`, the override
/// file) read through `cx`: core reads none itself. What `cx` cannot read
/// refuses the file, or with [`ComposeContext::partial`] is a blocking
/// finding of each profile it concerns ([`Imported::unread`]).
pub fn import_compose(bytes: &[u8], cx: &ComposeContext<'_>) -> Result<Vec<Imported>, ImportError> {
    let text: Arc<str> = Arc::from(tree::checked_text(bytes, &tree::TreeLimits::default())?);
    let mut kept = Kept::new(true);
    compose::import_docs_with(&yaml::parse(bytes)?, cx, &mut |name, d| kept.take(name, d))?;
    finish(kept, Format::Compose, &text)
}

/// The cluster objects a Kubernetes file holds when it holds no workload
/// (see [`import_with_companions`]); `None` otherwise.
pub fn kubernetes_cluster_objects_only(bytes: &[u8]) -> Option<Vec<String>> {
    kubernetes::cluster_objects_only(bytes)
}

/// Import `bytes` as `format`: one profile per unit the format describes
/// (one per Kubernetes container, one per Compose service, one for the
/// other formats, plus one for commands a sandbox lets run outside it).
pub fn import(bytes: &[u8], format: Format) -> Result<Vec<Imported>, ImportError> {
    import_as(bytes, format, true)
}

/// [`import`], with the source maps only when `source_map` (see
/// [`detect_and_import`]).
pub fn import_as(
    bytes: &[u8],
    format: Format,
    source_map: bool,
) -> Result<Vec<Imported>, ImportError> {
    let text: Arc<str> = Arc::from(tree::checked_text(bytes, &tree::TreeLimits::default())?);
    let mut kept = Kept::new(source_map);
    // A file of many profiles hands each draft over as it is built, so
    // drafts never pile up; the others make one or two.
    let drafts = match format {
        Format::Kubernetes => {
            kubernetes::import_into(bytes, &[], &mut |name, d| kept.take(name, d))?;
            Vec::new()
        }
        Format::Compose => {
            compose::import_into(bytes, &mut |name, d| kept.take(name, d))?;
            Vec::new()
        }
        Format::Oci => oci::import(bytes)?,
        Format::Codex => {
            codex::import_into(bytes, &mut |name, d| kept.take(name, d))?;
            Vec::new()
        }
        Format::SandboxSettings => sandbox::import(bytes)?,
        Format::Bwrap => bwrap::import(&text)?,
    };
    for (name, d) in drafts {
        kept.take(name, d);
    }
    finish(kept, format, &text)
}

/// A finished draft as kept: [`builder::Finished`] with its undeclared
/// fields shared.
type Unit = (String, Vec<Mapped>, Vec<Note>, Arc<[Undeclared]>);

/// The finished drafts of one import, held to the size limits as they
/// come. A refusal waits until the importer is done, so an error in the
/// input is still reported first, as it would be for a small file.
struct Kept {
    finished: Vec<(String, Unit)>,
    /// What looks like a secret in the kept profiles, found in each
    /// draft's tree before it is written; and which profiles hold one.
    secrets: Vec<String>,
    holds: Vec<bool>,
    /// Each kept profile's unread context ([`Imported::unread`]).
    unread: Vec<Vec<Note>>,
    memo: crate::secrets::Memo,
    total: usize,
    refused: Option<ImportError>,
    source_map: bool,
    /// Each kept name and where its profile starts: a second profile of
    /// one name could not be told apart from the first in any report.
    names: std::collections::HashMap<String, Option<tree::Loc>>,
}

impl Kept {
    fn new(source_map: bool) -> Kept {
        Kept {
            finished: Vec::new(),
            secrets: Vec::new(),
            holds: Vec::new(),
            unread: Vec::new(),
            memo: crate::secrets::Memo::default(),
            total: 0,
            refused: None,
            source_map,
            names: std::collections::HashMap::new(),
        }
    }

    /// Write `draft` and drop it; keep what it made unless a limit refuses
    /// the import (then nothing more is kept).
    fn take(&mut self, name: String, mut draft: builder::Draft) {
        if self.refused.is_some() {
            return;
        }
        let unread = std::mem::take(&mut draft.unread);
        let holds = crate::secrets::Secrets::collect_into(
            draft.root(),
            &mut self.secrets,
            Some(&mut self.memo),
        );
        let finished = if self.source_map {
            draft.finish()
        } else {
            draft.finish_without_map()
        };
        match finished {
            Ok((json, map, notes, undeclared)) => match self.check(json.len()) {
                Ok(()) if self.names.contains_key(&name) => {
                    let at = |m: &[Mapped]| {
                        m.first().map(|m| tree::Loc {
                            line: m.line,
                            column: m.column,
                        })
                    };
                    let first = self.names.get(&name).copied().flatten();
                    let e = ImportError::new(ImportErrorKind::Invalid(format!(
                        "a second profile is named `{name}`{}: reports could not tell the two apart; give them distinct names",
                        first.map_or(String::new(), |l| format!(" (the first starts at {l})"))
                    )));
                    self.refuse(match at(&map) {
                        Some(l) => e.at(l),
                        None => e,
                    });
                }
                Ok(()) => {
                    self.names.insert(
                        name.clone(),
                        map.first().map(|m| tree::Loc {
                            line: m.line,
                            column: m.column,
                        }),
                    );
                    // Profiles of one file mostly lack the same fields, for
                    // the same reasons: one list serves a run of them.
                    let undeclared = match self.finished.last() {
                        Some((_, (.., prev))) if **prev == *undeclared => Arc::clone(prev),
                        _ => Arc::from(undeclared),
                    };
                    self.finished.push((name, (json, map, notes, undeclared)));
                    self.holds.push(holds);
                    self.unread.push(unread);
                }
                Err(e) => self.refuse(e),
            },
            Err(e) => self.refuse(
                ImportError::new(ImportErrorKind::Invalid(format!(
                    "the import would produce a profile of over {} bytes (the limit for a \
                     profile) by this setting; refusing it",
                    e.limit
                )))
                .at(e.at),
            ),
        }
    }

    fn refuse(&mut self, e: ImportError) {
        self.refused = Some(e);
        self.finished = Vec::new();
        self.secrets = Vec::new();
        self.holds = Vec::new();
        self.unread = Vec::new();
    }

    /// What an import produces is held to the input's limits: each profile
    /// must be one isolint could read as written, and together they may not
    /// outgrow the input by more than [`PRODUCED_FACTOR`].
    fn check(&mut self, len: usize) -> Result<(), ImportError> {
        let limit = tree::TreeLimits::default().max_bytes;
        // A draft refuses itself once a lower bound of its size passes the
        // limit; the text it wrote is held to the limit exactly.
        if len > limit {
            return Err(ImportError::new(ImportErrorKind::Invalid(format!(
                "the import would produce a {len}-byte profile, over the {limit}-byte limit for a profile; refusing it"
            ))));
        }
        self.total = self.total.saturating_add(len);
        if self.total > PRODUCED_FACTOR.saturating_mul(limit) {
            return Err(ImportError::new(ImportErrorKind::Invalid(format!(
                "the import would produce over {} bytes of profiles ({} times the input limit); refusing it",
                PRODUCED_FACTOR.saturating_mul(limit),
                PRODUCED_FACTOR
            ))));
        }
        Ok(())
    }
}

/// The drafts of one file as imported profiles, with one masked copy of
/// the source shared by all of them.
fn finish(kept: Kept, format: Format, text: &Arc<str>) -> Result<Vec<Imported>, ImportError> {
    finish_with(kept, format, text, None)
}

/// [`finish`], with the file's documents as JSON nodes when the caller has
/// them (else the text is parsed again to find the file's own secrets).
fn finish_with(
    kept: Kept,
    format: Format,
    text: &Arc<str>,
    file_docs: Option<source_secrets::Documents>,
) -> Result<Vec<Imported>, ImportError> {
    if let Some(e) = kept.refused {
        return Err(e);
    }
    let Kept {
        finished,
        secrets: mut values,
        mut holds,
        mut unread,
        mut memo,
        ..
    } = kept;
    // Each profile's secrets were found in its tree as it was taken.
    // A note quotes a source setting the profile has no place for (a
    // Compose `environment: ["API_TOKEN: …"]` entry): what looks like a
    // secret in it is a secret of the file too, masked in the notes, in the
    // masked source and in every message.
    // The same fixed text is in every profile of a large file: each
    // distinct text is looked at once.
    let mut seen: std::collections::HashSet<&str> = std::collections::HashSet::new();
    let mut noted_any = false;
    let mut last: Option<&Arc<[Undeclared]>> = None;
    for (_, f) in &finished {
        // A run of profiles shares one undeclared list: read it once.
        let new_list = !last.is_some_and(|l| Arc::ptr_eq(l, &f.3));
        last = Some(&f.3);
        let reasons = f.3.iter().filter(|_| new_list).map(|u| &u.reason);
        for t in f.2.iter().map(|n| &n.message).chain(reasons) {
            if seen.insert(t) {
                let tokens = crate::secrets::secret_tokens(t);
                noted_any |= tokens.iter().any(|v| !v.trim().is_empty());
                values.extend(tokens);
            }
        }
    }
    drop(seen);
    let lines = source_secrets::line_values(text);
    noted_any |= lines.iter().any(|v| !v.trim().is_empty());
    values.extend(lines);
    let file_docs = file_docs.unwrap_or_else(|| source_secrets::Documents::of(format, text));
    let file_holds = file_docs.collect_into(&mut values, &mut memo);
    drop(file_docs);
    let secrets = crate::secrets::Secrets::of_values(values);
    // A secret of the file that no profile's own walk finds (a value that
    // is one only by where the file wrote it) may still be copied into a
    // profile: then every profile of the file is masked again.
    let file_level = noted_any || file_holds;
    holds.iter_mut().for_each(|h| *h |= file_level);
    let masked_source: Arc<str> = Arc::from(secrets.mask_source(text));
    let masked_line_starts: Arc<[u32]> = Arc::from(crate::text::line_starts(&masked_source));
    // Notes are printed on stderr: they go through the same masking and
    // neutralizing as every message.
    // A text shown as it is stays shared; each distinct text is cleaned
    // once.
    let mut cleaned: HashMap<Cow<'static, str>, Cow<'static, str>> = HashMap::new();
    let mut clean = |s: &mut Cow<'static, str>| {
        let fixed = matches!(s, Cow::Borrowed(_));
        if let Some(shown) = cleaned.get(s.as_ref()).filter(|_| fixed) {
            *s = shown.clone();
            return;
        }
        let shown: Cow<'static, str> = match neutralize(&secrets.scrub_value(s)) {
            Cow::Borrowed(b) if b == s.as_ref() => s.clone(),
            other => Cow::Owned(other.into_owned()),
        };
        if fixed {
            cleaned.insert(s.clone(), shown.clone());
        }
        *s = shown;
    };
    let mut finished = finished;
    // The list last cleaned, as kept and as shown.
    let mut last: Option<[Arc<[Undeclared]>; 2]> = None;
    for (_, f) in &mut finished {
        f.2.iter_mut().for_each(|n| clean(&mut n.message));
        match &last {
            Some([was, shown]) if Arc::ptr_eq(was, &f.3) => f.3 = Arc::clone(shown),
            _ => {
                let mut list = f.3.to_vec();
                list.iter_mut().for_each(|u| clean(&mut u.reason));
                let shown: Arc<[Undeclared]> = Arc::from(list);
                last = Some([std::mem::replace(&mut f.3, Arc::clone(&shown)), shown]);
            }
        }
    }
    drop(last);
    unread
        .iter_mut()
        .flatten()
        .for_each(|n| clean(&mut n.message));
    drop(cleaned);
    let source_sha256: Arc<str> = Arc::from(sha256_hex(text.as_bytes()));
    let file_secrets = Arc::new(secrets);
    Ok(finished
        .into_iter()
        .zip(holds)
        .zip(unread)
        .map(
            |(((name, (profile_json, source_map, notes, undeclared)), holds_secrets), unread)| {
                Imported {
                    format,
                    name,
                    holds_secrets,
                    profile_json,
                    notes,
                    undeclared,
                    source_map,
                    source_text: Arc::clone(text),
                    masked_source: Arc::clone(&masked_source),
                    masked_line_starts: Arc::clone(&masked_line_starts),
                    source_sha256: Arc::clone(&source_sha256),
                    file_secrets: Arc::clone(&file_secrets),
                    unread,
                }
            },
        )
        .collect())
}

/// The most profiles one file may describe for an audit. Each profile is
/// audited and reported on its own, so the report of a file grows with
/// their number, not with the file's size: a Codex `config.toml` of 60,000
/// empty `[profiles.*]` tables is under 1 MiB, yet 60,000 reports. A real
/// file (a Compose project, a rendered chart, a cluster's pods) describes
/// far fewer; one that describes more is refused, never cut short.
pub const MAX_AUDITED_PROFILES: usize = 1000;

/// Whether the profiles of one file may be audited: `Err` at the first
/// profile past [`MAX_AUDITED_PROFILES`], before any of them is. Every
/// front end that audits an import asks this first.
pub fn check_audit_count(imported: &[Imported]) -> Result<(), ImportError> {
    let Some(first_over) = imported.get(MAX_AUDITED_PROFILES) else {
        return Ok(());
    };
    let e = ImportError::new(ImportErrorKind::Invalid(format!(
        "this file describes {} profiles (containers, services or profile tables), more than \
         the {MAX_AUDITED_PROFILES} one file may hold for an audit: each is audited and \
         reported on its own, so the report would grow with their number; refusing it \
         (split the file, or write its profiles out with `isolint import` and audit them \
         as a directory)",
        imported.len()
    )));
    Err(match first_over.origin_of("") {
        Some(at) => e.at(at),
        None => e,
    })
}

/// Where `~` points in imported paths: a home directory of an unknown user,
/// so the home-directory and credential-store checks still apply.
pub const HOME_PLACEHOLDER: &str = "/home/<user>";

/// Expand a leading `~`, `$HOME` or `${HOME}` to [`HOME_PLACEHOLDER`].
pub(crate) fn expand_home(path: &str) -> Option<String> {
    for home in ["~", "$HOME", "${HOME}"] {
        if path == home {
            return Some(HOME_PLACEHOLDER.to_string());
        }
        if let Some(rest) = path.strip_prefix(home).and_then(|r| r.strip_prefix('/')) {
            return Some(format!("{HOME_PLACEHOLDER}/{rest}"));
        }
    }
    None
}

/// Every namespace a profile names, in the order the importers list
/// them: what a process with no sandbox shares with the host.
pub(crate) const ALL_NAMESPACES: [&str; 7] =
    ["pid", "network", "ipc", "uts", "user", "mount", "cgroup"];

/// Strip `CAP_` and upper-case a capability name.
pub(crate) fn cap_name(raw: &str) -> String {
    let up = raw.trim().to_ascii_uppercase();
    up.strip_prefix("CAP_").map(str::to_string).unwrap_or(up)
}

/// A device cgroup rule (`c 10:232 rwm`, OCI `{type, major, minor}`) as a
/// `boundary.devices` entry: `*` when it covers every device, the node's
/// path when the number is a well-known one, else the rule by number
/// (`c 1:*` for a whole major), which the device rule weighs.
pub(crate) fn cgroup_device(kind: &str, major: Option<i64>, minor: Option<i64>) -> String {
    let Some(major) = major.filter(|_| kind != "a") else {
        return "*".to_string();
    };
    let known = match (kind, major, minor) {
        ("c", 1, Some(1)) => "/dev/mem",
        ("c", 1, Some(2)) => "/dev/kmem",
        ("c", 1, Some(3)) => "/dev/null",
        ("c", 1, Some(4)) => "/dev/port",
        ("c", 1, Some(5)) => "/dev/zero",
        ("c", 1, Some(7)) => "/dev/full",
        ("c", 1, Some(8)) => "/dev/random",
        ("c", 1, Some(9)) => "/dev/urandom",
        ("c", 5, Some(0)) => "/dev/tty",
        ("c", 5, Some(1)) => "/dev/console",
        ("c", 5, Some(2)) => "/dev/ptmx",
        ("c", 136, _) => "/dev/pts",
        ("c", 10, Some(200)) => "/dev/net/tun",
        ("c", 10, Some(229)) => "/dev/fuse",
        ("c", 10, Some(232)) => "/dev/kvm",
        ("c", 4, _) => "/dev/tty*",
        ("c", 13, _) => "/dev/input/*",
        ("c", 195, _) => "/dev/nvidia*",
        ("c", 226, _) => "/dev/dri/*",
        ("b", 7, _) => "/dev/loop*",
        ("b", 8, _) => "/dev/sd*",
        ("b", 259, _) => "/dev/nvme*",
        _ => "",
    };
    if !known.is_empty() {
        return known.to_string();
    }
    match minor {
        Some(m) => format!("{kind} {major}:{m}"),
        None => format!("{kind} {major}:*"),
    }
}

/// A Compose or Docker `device_cgroup_rules` entry (`c 10:232 rwm`).
pub(crate) fn cgroup_rule_device(rule: &str) -> String {
    let mut parts = rule.split_whitespace();
    let kind = parts.next().unwrap_or("a");
    let (major, minor) = parts
        .next()
        .and_then(|n| n.split_once(':'))
        .map_or((None, None), |(a, b)| (a.parse().ok(), b.parse().ok()));
    cgroup_device(kind, major, minor)
}

/// Map a working directory: onto the command when there is one (or when
/// the path is one the runtime resolves through `/proc`, so it is never
/// dropped); otherwise a note, since it only qualifies the image's command.
pub(crate) fn working_dir(d: &mut builder::Draft, cwd: &str, at: tree::Loc, key: &str) {
    if d.has("/command") || crate::procfs::through_proc(cwd) {
        d.set("/command/cwd", cwd, at);
    } else {
        d.note(
            at,
            format!(
                "`{key}: {cwd}` applies to the image's own command, which the input does not show"
            ),
        );
    }
}
