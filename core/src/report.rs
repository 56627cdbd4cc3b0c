//! The audit: bytes in, a [`Report`] out.

use std::borrow::Cow;
use std::sync::Arc;

use crate::date::Date;
use crate::decode;
use crate::finding::{Area, CheckKind, Finding, Severity};
use crate::json::{self, InputError, Limits, Node, Value};
use crate::labels::{Catalog, LabelIndex, Origin};
use crate::par::{self, InOrder, Schedule};
use crate::plan;
use crate::rules::{self, Ctx, MountView};
use crate::sanitize::neutralize;
use crate::secrets::{Memo, Secrets};

/// The tool's name and version, as exported.
pub const TOOL_NAME: &str = "isolint";
pub const TOOL_VERSION: &str = env!("CARGO_PKG_VERSION");

/// The notice every surface shows next to the verdict.
pub const NOTICE: &str = "Static comparison of declared settings against trusted fixture labels; not proof of enforcement. \
Mounts, links, network policy and limits must still be observed in the launched environment by a runtime verifier.";

/// What the runtime checks must be repeated after.
pub const RECHECK_WHEN: [&str; 4] = ["image", "mounts", "runner version", "orchestration policy"];

/// The only two verdicts isolint gives.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Verdict {
    EligibleForRuntimeTesting,
    NotEligible,
}

impl Verdict {
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::EligibleForRuntimeTesting => "eligible-for-runtime-testing",
            Verdict::NotEligible => "not-eligible",
        }
    }
    /// The wording shown to people.
    pub fn headline(self) -> &'static str {
        match self {
            Verdict::EligibleForRuntimeTesting => {
                "eligible for runtime testing — not proof of enforcement"
            }
            Verdict::NotEligible => {
                "not eligible — fix the blocking findings before runtime testing"
            }
        }
    }
}

/// A loaded, indexed label catalog with the digest of its bytes.
#[derive(Debug, Clone)]
pub struct Labels {
    pub index: LabelIndex,
    pub sha256: String,
    /// The runtime checks the catalog asks of every job.
    checks: plan::Standing,
}

/// Why a catalog could not be used.
#[derive(Debug, Clone, PartialEq)]
pub enum CatalogError {
    Input(InputError),
    Invalid(Vec<decode::Problem>),
}

impl std::fmt::Display for CatalogError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CatalogError::Input(e) => write!(f, "{e}"),
            CatalogError::Invalid(problems) => crate::decode::write_problems(f, problems),
        }
    }
}

impl std::error::Error for CatalogError {}

impl Labels {
    /// Parse and index a catalog.
    pub fn load(bytes: &[u8]) -> Result<Labels, CatalogError> {
        let doc = json::parse(bytes, Limits::default()).map_err(CatalogError::Input)?;
        let catalog =
            Catalog::from_json(&doc.root, &doc.duplicates).map_err(CatalogError::Invalid)?;
        let index = LabelIndex::new(catalog);
        let sha256 = sha256_hex(bytes);
        Ok(Labels {
            checks: plan::Standing::new(index.catalog()),
            index,
            sha256,
        })
    }

    /// The embedded workshop catalog.
    pub fn workshop() -> Labels {
        match Labels::load(crate::labels::WORKSHOP_CATALOG.as_bytes()) {
            Ok(l) => l,
            // The embedded catalog is checked by a unit test; an empty
            // catalog is the only sane fallback and cannot be reached.
            Err(_) => {
                let index = LabelIndex::new(Catalog {
                    name: "workshop".into(),
                    labels: Vec::new(),
                });
                Labels {
                    checks: plan::Standing::new(index.catalog()),
                    index,
                    sha256: sha256_hex(crate::labels::WORKSHOP_CATALOG.as_bytes()),
                }
            }
        }
    }
}

/// Options the caller supplies (core has no clock and no environment).
#[derive(Debug, Clone, Default)]
pub struct AuditOptions {
    /// Today's date, for staleness checks. `None` skips them.
    pub today: Option<Date>,
}

/// Severity counts.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Summary {
    pub critical: usize,
    pub high: usize,
    pub medium: usize,
    pub low: usize,
    pub info: usize,
}

impl Summary {
    pub fn count(&self, s: Severity) -> usize {
        match s {
            Severity::Critical => self.critical,
            Severity::High => self.high,
            Severity::Medium => self.medium,
            Severity::Low => self.low,
            Severity::Info => self.info,
        }
    }
    fn add(&mut self, s: Severity) {
        match s {
            Severity::Critical => self.critical += 1,
            Severity::High => self.high += 1,
            Severity::Medium => self.medium += 1,
            Severity::Low => self.low += 1,
            Severity::Info => self.info += 1,
        }
    }
}

/// An entry a directory run found and did not audit (a file of another
/// kind, a hidden entry, a link to a directory, the run's own earlier
/// report), with the reason. The summaries name each one, so a run never
/// passes over a file without saying so.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NotAudited {
    /// The path as the run shows it (relative to where it was started).
    pub source: String,
    /// Why it was passed over, lowercase, no final period.
    pub reason: String,
}

pub use crate::plan::RuntimeCheck;

/// A finding's fingerprint: stable across runs and edits elsewhere in the
/// profile (its rule, its pointer and the profile's name). The JSON export,
/// SARIF's `partialFingerprints` and the plan's `motivated_by` all use it.
pub fn finding_fingerprint(rule: &str, pointer: &str, profile_name: &str) -> String {
    let key = [rule, "\0", pointer, "\0", profile_name].map(str::as_bytes);
    let mut hex = String::with_capacity(64);
    crate::digest::push_hex(&mut hex, &crate::digest::sha256(&key), 64);
    hex
}

/// A mount compared with the labels, for the mounts-vs-labels table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MountRow {
    pub pointer: String,
    pub source: String,
    pub normalized: String,
    pub target: String,
    pub access: String,
    /// `class` of the longest matching label, or `unlabelled`.
    pub label: String,
    /// Path of the matching label and where it came from (`catalog`/`built-in`).
    pub label_path: Option<String>,
    pub label_origin: Option<&'static str>,
    /// `class path` of each label the mount exposes.
    pub exposes: Vec<String>,
    /// Line of the mount in the shown source (`view_model::shown_source`): the
    /// profile, or the original file of an imported profile.
    pub line: Option<u32>,
}

/// Identity of the audited profile.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProfileMeta {
    pub name: String,
    pub source: String,
    pub sha256: String,
    pub fingerprint: String,
}

/// Everything the front ends and renderers need.
#[derive(Debug, Clone)]
pub struct Report {
    pub route: String,
    pub profile: ProfileMeta,
    pub labels_name: String,
    pub labels_sha256: String,
    pub verdict: Verdict,
    pub summary: Summary,
    /// Sorted by area, pointer, rule.
    pub issues: Vec<Finding>,
    pub runtime_checks: Vec<RuntimeCheck>,
    /// One row per declared mount (empty when audited for
    /// [`Detail::Findings`]).
    pub mounts: Vec<MountRow>,
    /// The profile text with secret values masked (same lines and columns;
    /// empty when audited for [`Detail::Findings`]).
    /// Not neutralized: displays call [`crate::sanitize`] on what they show.
    pub source_text: String,
    /// The file the profile was imported from, when it was (see
    /// [`crate::audit::audit_imported`]); findings then carry an `origin`.
    pub original: Option<OriginalSource>,
    /// Shared: every profile imported from one file masks the file's
    /// secrets, held once for all of them.
    secrets: Arc<Secrets>,
}

/// The original file of an imported profile: its name, format, digest and
/// text (secrets masked, same lines and columns), for snippets and SARIF.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OriginalSource {
    pub file: String,
    /// The importer's format name (`kubernetes`, `oci`, ...).
    pub format: &'static str,
    pub sha256: String,
    /// Shared by every profile imported from the file: one copy per file,
    /// not per profile.
    pub text: std::sync::Arc<str>,
    /// Where each line of `text` starts ([`line_starts`]), shared as the
    /// text is: a report that looks up a line of the file must not walk
    /// the whole file, once per profile of it.
    pub line_starts: std::sync::Arc<[u32]>,
}

impl OriginalSource {
    /// One line of the (masked) original text, 1-based, as [`str::lines`]
    /// gives it.
    pub fn line(&self, line: u32) -> Option<&str> {
        nth_line(
            &self.text,
            &self.line_starts,
            (line as usize).checked_sub(1)?,
        )
    }

    /// How many lines `text` has, as [`str::lines`] counts them.
    pub fn line_count(&self) -> usize {
        self.line_starts.len()
    }
}

pub use crate::text::{line_starts, nth_line};

impl Report {
    /// Scrub secrets from any text derived from the profile.
    pub fn redact(&self, s: &str) -> String {
        self.secrets.scrub(s)
    }

    /// A finding made after the audit (a runner overlay's conflict) cleaned
    /// as the audit cleans its own: the message's backticked values, the
    /// pointer and every evidence key and value masked and neutralized.
    pub fn clean_finding(&self, mut f: Finding) -> Finding {
        let clean = Clean(&self.secrets);
        f.pointer = clean.owned(f.pointer);
        f.message = clean.message(f.message);
        f.evidence = std::mem::take(&mut f.evidence)
            .into_iter()
            .map(|(k, v)| (clean.message(k), clean_value(v, &|s| clean.owned(s))))
            .collect();
        f
    }

    /// The lines of the (masked) source, 1-based access.
    pub fn source_line(&self, line: u32) -> Option<&str> {
        self.source_text
            .lines()
            .nth((line as usize).checked_sub(1)?)
    }

    /// Recompute the verdict and summary after findings changed (waivers).
    pub fn refresh(&mut self) {
        crate::sort::sort_by(&mut self.issues, |a, b| a.sort_key().cmp(&b.sort_key()));
        let mut summary = Summary::default();
        for f in &self.issues {
            summary.add(f.severity);
        }
        self.summary = summary;
        self.verdict = if self.issues.iter().any(Finding::blocks) {
            Verdict::NotEligible
        } else {
            Verdict::EligibleForRuntimeTesting
        };
    }
}

pub use crate::digest::sha256_hex;

/// Audit profile bytes against a catalog. `Err` only for input that cannot
/// be read at all (too large, too deep, not UTF-8, not JSON); every other
/// problem is a finding.
pub fn audit(
    bytes: &[u8],
    source_name: &str,
    labels: &Labels,
    options: &AuditOptions,
) -> Result<Report, InputError> {
    audit_with_limits(bytes, source_name, labels, options, Limits::default())
}

/// Documents at least this large audit their independent stages on the
/// caller's [`Schedule`]; smaller ones in order: below it, handing work to
/// other threads costs more than it saves, and a directory of small
/// profiles is already spread over the caller's threads one file each.
const SCHEDULED_BYTES: usize = 256 * 1024;

/// [`audit`] with other input limits than the defaults (8 MiB, depth 64,
/// 1,000,000 values): for callers that audit larger trusted inputs, such as
/// the scale benchmarks.
pub fn audit_with_limits(
    bytes: &[u8],
    source_name: &str,
    labels: &Labels,
    options: &AuditOptions,
    limits: Limits,
) -> Result<Report, InputError> {
    let parsed = Parsed::new(bytes, limits)?;
    Ok(audit_parsed(
        parsed,
        source_name,
        labels,
        options,
        Detail::Full,
        &InOrder,
    ))
}

/// A profile parsed and decoded: everything of its audit that needs no
/// catalog, so a caller can do it while the catalog is still loading. It
/// keeps the bytes it was read from (borrowed, or owned by a caller that
/// reads them itself), so the digests and the masked source are always of
/// the document audited.
pub struct Parsed<'a> {
    bytes: Cow<'a, [u8]>,
    doc: json::Document,
    profile: crate::model::Profile,
    problems: Vec<decode::Problem>,
    /// Secrets of the file the profile was imported from, masked besides
    /// the profile's own (see [`Parsed::also_masking`]).
    also: Option<Arc<Secrets>>,
    /// What the strings of the run's earlier documents hold (see
    /// [`Parsed::remembering`]).
    memo: Option<Arc<std::sync::Mutex<Memo>>>,
}

/// Sizes only: the bytes and the document hold the profile's secrets.
impl std::fmt::Debug for Parsed<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Parsed")
            .field("bytes", &self.bytes.len())
            .field("problems", &self.problems.len())
            .finish_non_exhaustive()
    }
}

impl<'a> Parsed<'a> {
    /// Parse and decode profile bytes under `limits`. `Err` only for input
    /// that cannot be read at all, as for [`audit`].
    pub fn new(bytes: impl Into<Cow<'a, [u8]>>, limits: Limits) -> Result<Parsed<'a>, InputError> {
        let bytes = bytes.into();
        let doc = json::parse(&bytes, limits)?;
        let (profile, problems) = decode::profile(&doc.root);
        Ok(Parsed {
            bytes,
            doc,
            profile,
            problems,
            also: None,
            memo: None,
        })
    }

    /// Read this document's strings for secrets with `memo`, which holds
    /// what the strings of the run's earlier documents were found to hold.
    /// A string's findings depend on the string alone, and the documents
    /// of a run repeat most of theirs (10,000 generated batch profiles:
    /// 590,000 strings, 30,000 distinct), so a caller auditing many
    /// documents reads each string once. One memo per thread: the lock is
    /// then never waited on. The report is the same with or without it.
    pub fn remembering(mut self, memo: &Arc<std::sync::Mutex<Memo>>) -> Self {
        self.memo = Some(Arc::clone(memo));
        self
    }

    /// Mask `more` secrets too in everything the report shows: those of
    /// the file an imported profile came from, which the profile alone
    /// may not reveal as secrets.
    pub fn also_masking(mut self, more: &Arc<Secrets>) -> Self {
        if !more.is_empty() {
            self.also = Some(Arc::clone(more));
        }
        self
    }
}

/// What a report carries besides its findings and runtime checks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Detail {
    /// Also the mount table and the masked source, which the dashboard,
    /// the page, the text report and waivers use.
    Full,
    /// Findings, runtime checks and digests only: all that the JSON,
    /// SARIF, Markdown and GitHub exports hold. The mount table and the
    /// masked source, a large part of a large profile's audit, are left
    /// empty.
    Findings,
}

/// [`audit`] of a profile the caller has already parsed, its independent
/// stages run on `schedule` (a small document's run in order whatever the
/// schedule). A caller can so parse a large profile while its catalog is
/// still loading; with [`Detail::Full`] the report is the one [`audit`]
/// gives, on any schedule. The five stages, as data flows:
///
/// 1. `identify`: the secrets, digest and fingerprint, beside
/// 2. `analyse`: mounts against labels, then the rules beside the plan;
/// 3. `clean`: what the report holds, secrets masked and control
///    characters neutralised;
/// 4. `assemble`: the report, its checks merged and linked;
/// 5. release: the working data let go on the schedule.
pub fn audit_parsed(
    parsed: Parsed<'_>,
    source_name: &str,
    labels: &Labels,
    options: &AuditOptions,
    detail: Detail,
    schedule: &dyn Schedule,
) -> Report {
    let s = if parsed.bytes.len() >= SCHEDULED_BYTES {
        schedule
    } else {
        &InOrder
    };
    let Parsed {
        bytes,
        doc,
        profile,
        problems,
        also,
        memo,
    } = parsed;
    let (digests, analysis) = par::join(
        s,
        || identify(&doc.root, &bytes, also, memo.as_deref(), s),
        || analyse(&doc, &profile, &problems, labels, options, s),
    );
    let (shown, views) = clean(analysis, &digests.secrets, &bytes, detail, s);
    let report = assemble(&profile, source_name, labels, digests, shown);
    s.release(Box::new((views, doc, profile, problems)));
    report
}

/// What identifies the document: the secrets it holds (so that nothing
/// shown echoes them), the digest of its bytes and the fingerprint of
/// what its runtime checks depend on.
struct Digests {
    secrets: Arc<Secrets>,
    sha256: String,
    fingerprint: String,
}

/// Stage 1: [`Digests`] of a document, its secrets joined by those of
/// the file it was imported from (`also`); its strings read with the
/// run's `memo` when there is one.
fn identify(
    root: &Node,
    bytes: &[u8],
    also: Option<Arc<Secrets>>,
    memo: Option<&std::sync::Mutex<Memo>>,
    s: &dyn Schedule,
) -> Digests {
    let (secrets, (sha256, fingerprint)) = par::join(
        s,
        || {
            // The document is walked once: its values serve both its own
            // set and the test against the file's.
            let mut values = Vec::new();
            match memo {
                // A poisoned memo is only an unfinished entry of a string
                // whose walk panicked: its other entries hold.
                Some(m) => {
                    let mut memo = m.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
                    Secrets::collect_into(root, &mut values, Some(&mut memo));
                }
                None => {
                    Secrets::collect_into(root, &mut values, None);
                }
            }
            match also {
                Some(file) => with_file_secrets(values, file),
                None => Arc::new(Secrets::of_values(values)),
            }
        },
        || (sha256_hex(bytes), fingerprint(root)),
    );
    Digests {
        secrets,
        sha256,
        fingerprint,
    }
}

/// A profile's own secrets (`values`) and those of the file it was
/// imported from. The file's hold every profile's own (the importer
/// collects them from the same trees), so its shared set serves as it is;
/// a union, which copies the file's set, is made only for a profile
/// holding a secret the file's set lacks. A copy per profile made a file
/// of many profiles, each with a secret, quadratic.
fn with_file_secrets(values: Vec<String>, file: Arc<Secrets>) -> Arc<Secrets> {
    if values
        .iter()
        .all(|v| v.trim().is_empty() || file.contains(v))
    {
        file
    } else {
        Arc::new(Secrets::of_values(values).union(&file))
    }
}

/// What the rules and the plan found, with what the report's tables are
/// drawn from.
struct Analysis<'p> {
    views: Vec<MountView<'p>>,
    locator: crate::json::Locator<'p>,
    drafts: Vec<rules::Draft>,
    checks: Vec<RuntimeCheck>,
}

/// Stage 2: every mount against the labels, then the rules beside the
/// plan.
fn analyse<'p>(
    doc: &'p json::Document,
    profile: &'p crate::model::Profile,
    problems: &[decode::Problem],
    labels: &Labels,
    options: &AuditOptions,
    s: &dyn Schedule,
) -> Analysis<'p> {
    let views: Vec<MountView<'_>> = par::map_indexed(s, profile.mounts(), |index, mount| {
        MountView::new(index, mount, &labels.index)
    });
    let locator = crate::json::Locator::new(&doc.root);
    let ctx = Ctx {
        profile,
        root: &doc.root,
        locator: &locator,
        mounts: &views,
        index: &labels.index,
        problems,
        duplicates: &doc.duplicates,
        today: options.today,
        pipelines: Default::default(),
        command_hits: Default::default(),
    };
    let (drafts, checks) = par::join(
        s,
        || rules::run_on(&ctx, s),
        || plan::derive(&ctx, &labels.checks),
    );
    drop(ctx);
    Analysis {
        views,
        locator,
        drafts,
        checks,
    }
}

/// A masked text, kept only when masking changed it.
fn changed(c: Cow<'_, str>) -> Option<String> {
    match c {
        Cow::Borrowed(_) => None,
        Cow::Owned(o) => Some(o),
    }
}

/// Text from the profile made safe to show: secrets masked, control
/// characters neutralized. Values taken from the profile or the catalog
/// are untrusted ([`Secrets::scrub_value`]); a message is a rule's wording
/// (trusted, never scanned) with values in backticks
/// ([`Secrets::scrub_message`]).
#[derive(Clone, Copy)]
struct Clean<'s>(&'s Secrets);

impl Clean<'_> {
    fn str(self, s: &str) -> String {
        neutralize(&self.0.scrub_value(s)).into_owned()
    }

    /// The same for a value the report can own: kept as it is, without a
    /// copy, when there is nothing to mask or escape (the common case).
    fn owned(self, s: String) -> String {
        self.revised(s).0
    }

    /// [`Clean::owned`], and whether cleaning changed the text.
    fn revised(self, s: String) -> (String, bool) {
        match changed(self.0.scrub_value(&s)) {
            None => match neutralize(&s) {
                Cow::Borrowed(_) => (s, false),
                Cow::Owned(n) => (n, true),
            },
            Some(scrubbed) => (neutralize(&scrubbed).into_owned(), true),
        }
    }

    /// [`Clean::owned`] for a JSON pointer into the audited document: a
    /// name in it is masked only if it is itself a credential, and then
    /// named by its index ([`Secrets::scrub_pointer`]).
    fn pointer(self, s: String, locator: &crate::json::Locator<'_>) -> String {
        let scrubbed = changed(self.0.scrub_pointer(&s, |p| locator.pointer(p)));
        Self::keep(s, scrubbed)
    }

    /// [`Clean::owned`] for a message (or an evidence key, a check's
    /// reason): only its backticked values are scanned.
    fn message(self, s: String) -> String {
        let scrubbed = changed(self.0.scrub_message(&s));
        Self::keep(s, scrubbed)
    }

    /// `s`, or `scrubbed` when masking changed it, neutralized.
    fn keep(s: String, scrubbed: Option<String>) -> String {
        match scrubbed {
            None => match neutralize(&s) {
                Cow::Borrowed(_) => s,
                Cow::Owned(n) => n,
            },
            Some(scrubbed) => neutralize(&scrubbed).into_owned(),
        }
    }
}

/// What the report shows, cleaned of secrets and control characters.
struct Shown {
    issues: Vec<Finding>,
    checks: Vec<RuntimeCheck>,
    mounts: Vec<MountRow>,
    source_text: String,
}

/// Stage 3: [`findings`], [`clean_checks`] and (for [`Detail::Full`])
/// [`tables`], side by side; with the owned parts of the mount views, so
/// that what the views borrow can be released with them.
fn clean(
    analysis: Analysis<'_>,
    secrets: &Secrets,
    bytes: &[u8],
    detail: Detail,
    s: &dyn Schedule,
) -> (Shown, Vec<ViewParts>) {
    let Analysis {
        views,
        locator,
        drafts,
        checks,
    } = analysis;
    let clean = Clean(secrets);
    let (issues, checks, (mounts, source_text)) = par::join3(
        s,
        || findings(drafts, &locator, clean, s),
        || clean_checks(checks, clean, s),
        || match detail {
            Detail::Full => tables(&views, &locator, bytes, clean, s),
            Detail::Findings => (Vec::new(), String::new()),
        },
    );
    let shown = Shown {
        issues,
        checks,
        mounts,
        source_text,
    };
    (shown, unborrow(views, locator))
}

/// Stage 3a: each draft as a finding, placed in the source and cleaned.
fn findings(
    drafts: Vec<rules::Draft>,
    locator: &crate::json::Locator<'_>,
    clean: Clean<'_>,
    s: &dyn Schedule,
) -> Vec<Finding> {
    // The value at each pointer, digested once however many findings
    // share it (a large object's digest costs its size).
    let mut pointers: Vec<String> = drafts.iter().map(|d| d.pointer.clone()).collect();
    crate::sort::sort(&mut pointers);
    pointers.dedup();
    let digested = par::map_ref(s, &pointers, |p| clean.0.value_digest(locator.pointer(p)));
    let digests: std::collections::HashMap<String, String> =
        pointers.into_iter().zip(digested).collect();
    let mut out = par::map(s, drafts, |d| {
        let (pos, exact) = locator.locate(&d.pointer);
        let value_digest = digests.get(d.pointer.as_str()).cloned();
        Finding {
            rule: d.rule.id,
            area: d.area,
            severity: d.severity,
            pointer: clean.pointer(d.pointer, locator),
            line: Some(pos.line),
            column: Some(pos.column),
            exact,
            message: clean.message(d.message),
            remediation: d.rule.remediation,
            evidence: d
                .evidence
                .into_iter()
                .map(|(k, v)| (clean.message(k), clean_value(v, &|s| clean.owned(s))))
                .collect(),
            waived: None,
            baseline: None,
            value_digest,
            origin: None,
        }
    });
    // In report order already, so that the report's final sort, which runs
    // alone, finds one sorted run (a large report's sort then costs a scan).
    crate::sort::sort_by(&mut out, |a, b| a.sort_key().cmp(&b.sort_key()));
    out
}

/// Stage 3b: the plan's checks cleaned, given their ids and merged, in
/// place (a large plan's copy would be as large again in fresh memory).
fn clean_checks(
    mut checks: Vec<RuntimeCheck>,
    clean: Clean<'_>,
    s: &dyn Schedule,
) -> Vec<RuntimeCheck> {
    par::for_each_mut(s, &mut checks, |c| {
        let mut changed = false;
        c.target.map_strings(&mut |s| {
            let (s, masked) = clean.revised(s);
            changed |= masked;
            s
        });
        c.because = clean.message(std::mem::take(&mut c.because));
        c.anchor = clean.owned(std::mem::take(&mut c.anchor));
        // The catalog's checks come with their ids; a target that cleaning
        // changed needs a new one.
        if c.id.is_empty() || changed {
            c.id = c.stable_id();
        }
    });
    merge_same_checks(&mut checks);
    checks
}

/// Stage 3c: the mounts-vs-labels table and the masked source, which
/// only [`Detail::Full`] reports carry.
fn tables(
    views: &[MountView<'_>],
    locator: &crate::json::Locator<'_>,
    bytes: &[u8],
    clean: Clean<'_>,
    s: &dyn Schedule,
) -> (Vec<MountRow>, String) {
    let mounts = par::map_ref(s, views, |v| {
        let m = v.mount;
        let class = v.class.as_ref();
        let matched = class.and_then(|c| c.matched.as_ref());
        MountRow {
            pointer: v.pointer(),
            source: clean.str(m.source.as_deref().unwrap_or("")),
            normalized: clean.str(class.map(|c| c.normalized.path.as_str()).unwrap_or("")),
            target: clean.str(m.target.as_deref().unwrap_or("")),
            access: m
                .access
                .map(|a| a.to_string())
                .unwrap_or_else(|| "not declared".into()),
            label: matched.map_or("unlabelled".into(), |m| m.class.to_string()),
            label_path: matched.map(|m| clean.str(&m.path)),
            label_origin: matched.map(|m| match m.origin {
                Origin::Catalog(_) => "catalog",
                Origin::BuiltIn(_) => "built-in",
            }),
            exposes: class
                .map(|c| {
                    c.exposes
                        .iter()
                        .map(|e| format!("{} {}", e.class, clean.str(&e.path)))
                        .collect()
                })
                .unwrap_or_default(),
            line: locator.pointer(&v.pointer()).map(|n| n.pos.line),
        }
    });
    let text = std::str::from_utf8(bytes).unwrap_or_default();
    (mounts, clean.0.mask_source(text))
}

/// Stage 4: the report, its checks merged and linked to their findings,
/// sorted and judged.
fn assemble(
    profile: &crate::model::Profile,
    source_name: &str,
    labels: &Labels,
    digests: Digests,
    shown: Shown,
) -> Report {
    let Digests {
        secrets,
        sha256,
        fingerprint,
    } = digests;
    let Shown {
        issues,
        checks: mut runtime_checks,
        mounts,
        source_text,
    } = shown;
    let clean = Clean(&secrets);
    let name = profile
        .name
        .as_deref()
        .filter(|n| !n.trim().is_empty())
        .unwrap_or("unnamed");
    link_motives(&mut runtime_checks, &issues);
    let mut report = Report {
        route: clean.str(profile.route()),
        profile: ProfileMeta {
            name: clean.str(name),
            source: clean.str(source_name),
            sha256,
            fingerprint,
        },
        labels_name: clean.str(&labels.index.catalog().name),
        labels_sha256: labels.sha256.clone(),
        verdict: Verdict::NotEligible,
        summary: Summary::default(),
        issues,
        runtime_checks,
        mounts,
        source_text,
        original: None,
        secrets,
    };
    report.refresh();
    report
}

/// The owned parts of the mount views, so that what the views and the
/// locator borrow (the document, the profile) can be released with them.
fn unborrow(views: Vec<MountView<'_>>, locator: crate::json::Locator<'_>) -> Vec<ViewParts> {
    drop(locator);
    views
        .into_iter()
        .map(|v| (v.class, v.guess, v.target))
        .collect()
}

type ViewParts = (
    Option<crate::labels::Classification>,
    Option<Box<crate::rules::paths::Guess>>,
    Option<crate::labels::NormalizedPath>,
);

/// One check per id: two steps that check the same thing (a mount at
/// `/etc` and the plan's own `/etc`) are one check, first place kept.
fn merge_same_checks(checks: &mut Vec<RuntimeCheck>) {
    let keep: Vec<bool> = {
        let mut seen = rustc_hash::FxHashSet::default();
        seen.reserve(checks.len());
        checks.iter().map(|c| seen.insert(c.id.as_str())).collect()
    };
    let mut keep = keep.into_iter();
    checks.retain(|_| keep.next().unwrap_or(true));
}

/// Link each finding to the checks it asks for: those of its rule's
/// `runtime_check` kind derived from the same place in the profile (one
/// pointer is a prefix of the other, component-wise), else that kind's
/// checks every job gets. Near-linear: checks are indexed by anchor.
/// How many checks of its kind a finding with no check of its own is
/// linked to.
const FALLBACK_LINKS: usize = 8;

fn link_motives(checks: &mut [RuntimeCheck], issues: &[Finding]) {
    let asking: Vec<(&Finding, CheckKind)> = issues
        .iter()
        .filter_map(|f| Some((f, check_asked_by(f.rule)?)))
        .collect();
    // Most findings ask for no check: then there is nothing to index.
    if asking.is_empty() {
        return;
    }
    // (kind, anchor, index), sorted: a pointer's checks are a range of it.
    let mut by_anchor: Vec<(CheckKind, &str, usize)> = checks
        .iter()
        .enumerate()
        .map(|(i, c)| (c.kind, c.anchor.as_str(), i))
        .collect();
    crate::sort::sort(&mut by_anchor);
    let from = |kind: CheckKind, anchor: &str| {
        by_anchor.partition_point(|&(k, a, _)| (k, a) < (kind, anchor))
    };
    let at = |kind: CheckKind, anchor: &str, hit: &mut Vec<usize>| {
        let rest = by_anchor.get(from(kind, anchor)..).unwrap_or_default();
        hit.extend(
            rest.iter()
                .take_while(|&&(k, a, _)| k == kind && a == anchor)
                .map(|&(_, _, i)| i),
        );
    };
    // The first checks of each kind, in plan order (there are few kinds).
    let mut first_of_kind: Vec<(CheckKind, Vec<usize>)> = Vec::new();
    for (i, c) in checks.iter().enumerate() {
        match first_of_kind.iter_mut().find(|(k, _)| *k == c.kind) {
            Some((_, first)) if first.len() < FALLBACK_LINKS => first.push(i),
            Some(_) => {}
            None => first_of_kind.push((c.kind, vec![i])),
        }
    }
    let mut links: Vec<(usize, crate::plan::Motive)> = Vec::new();
    for (f, kind) in asking {
        let mut hit: Vec<usize> = Vec::new();
        // Anchors that are the pointer or one of its ancestors.
        let p = f.pointer.as_str();
        let mut end = p.len();
        loop {
            let prefix = p.get(..end).unwrap_or("");
            if !prefix.is_empty() {
                at(kind, prefix, &mut hit);
            }
            match prefix.rfind('/') {
                Some(k) if k > 0 => end = k,
                _ => break,
            }
        }
        // Anchors below the pointer (a finding on a whole section).
        if !p.is_empty() {
            let below = format!("{}/", p);
            let rest = by_anchor.get(from(kind, &below)..).unwrap_or_default();
            hit.extend(
                rest.iter()
                    .take_while(|&&(k, a, _)| k == kind && a.starts_with(below.as_str()))
                    .map(|&(_, _, i)| i),
            );
        }
        if hit.is_empty() {
            at(kind, "", &mut hit);
        }
        // A finding elsewhere in the profile (a shell command asking for
        // the timeout check) asks for that kind's checks as a whole: the
        // first few, in plan order, so a large plan is not linked to
        // every finding.
        if hit.is_empty() {
            if let Some((_, ix)) = first_of_kind.iter().find(|(k, _)| *k == kind) {
                hit.extend(ix);
            }
        }
        for i in hit {
            links.push((
                i,
                crate::plan::Motive {
                    rule: f.rule,
                    pointer: f.pointer.clone(),
                },
            ));
        }
    }
    for (i, m) in links {
        if let Some(c) = checks.get_mut(i) {
            c.motivated_by.push(m);
        }
    }
    for c in checks.iter_mut() {
        crate::sort::sort(&mut c.motivated_by);
        c.motivated_by.dedup();
    }
}

/// The kind of check a rule's findings ask for, by rule id.
fn check_asked_by(rule: &str) -> Option<CheckKind> {
    // Sorted by id, built once (a list keeps the page's wasm free of
    // another map type).
    static ASKS: std::sync::OnceLock<Vec<(&'static str, CheckKind)>> = std::sync::OnceLock::new();
    let asks = ASKS.get_or_init(|| {
        let mut asks: Vec<_> = rules::all()
            .filter_map(|r| Some((r.id, r.runtime_check?)))
            .collect();
        crate::sort::sort_by(&mut asks, |a, b| a.0.cmp(b.0));
        asks
    });
    let i = asks.binary_search_by(|a| a.0.cmp(rule)).ok()?;
    asks.get(i).map(|&(_, kind)| kind)
}

fn clean_value(v: serde_json::Value, clean: &dyn Fn(String) -> String) -> serde_json::Value {
    use serde_json::Value as J;
    match v {
        J::String(s) => J::String(clean(s)),
        J::Array(items) => J::Array(items.into_iter().map(|i| clean_value(i, clean)).collect()),
        J::Object(map) => {
            // Inserted one by one: collecting sorts, which costs the page
            // one more sort instantiation.
            let mut out = serde_json::Map::new();
            for (k, v) in map {
                out.insert(clean(k), clean_value(v, clean));
            }
            J::Object(out)
        }
        other => other,
    }
}

/// A stable digest of what, when changed, requires the runtime checks to be
/// run again: the image, the mounts, the boundary (runtime and its version
/// included) and the limits. Independent of key order and whitespace.
pub fn fingerprint(root: &Node) -> String {
    let mut canon = String::with_capacity(1024);
    for ptr in [
        "/dependencies/image",
        "/mounts",
        "/boundary",
        "/limits",
        "/concurrency",
        "/network",
    ] {
        canon.push_str(ptr);
        canon.push('=');
        match root.pointer(ptr) {
            Some(n) => canonical(n, &mut canon),
            None => canon.push('-'),
        }
        canon.push('\n');
    }
    sha256_hex(canon.as_bytes())
}

/// Canonical JSON: object keys sorted (duplicates kept in source order),
/// no whitespace, numbers as written.
fn canonical(n: &Node, out: &mut String) {
    // Strings as serde_json writes them (compact, same escapes).
    let string = crate::json_writer::string;
    match &n.value {
        Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Number(num) => out.push_str(num.as_str()),
        Value::String(s) => string(out, s),
        Value::Array(items) => {
            out.push('[');
            for (i, it) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                canonical(it, out);
            }
            out.push(']');
        }
        Value::Object(members) => {
            let mut sorted: Vec<_> = members.iter().collect();
            if !sorted.is_sorted_by(|a, b| a.key <= b.key) {
                crate::sort::sort_by(&mut sorted, |a, b| a.key.cmp(&b.key));
            }
            out.push('{');
            for (i, m) in sorted.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                string(out, &m.key);
                out.push(':');
                canonical(&m.value, out);
            }
            out.push('}');
        }
    }
}

/// Areas that exist, for counting (re-exported for renderers).
pub fn areas() -> &'static [Area] {
    &Area::ALL
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The shared line index reads lines exactly as `str::lines` does.
    #[test]
    fn line_index_reads_lines_as_str_lines_does() {
        for text in [
            "",
            "a",
            "a\n",
            "a\nb",
            "a\r\nb\r\n",
            "\n\n",
            "a\r",
            "a\rb\n\r\n",
            "é\n\u{2028}x\n",
        ] {
            let starts = line_starts(text);
            let want: Vec<&str> = text.lines().collect();
            let got: Vec<&str> = (0..starts.len())
                .map(|i| nth_line(text, &starts, i).unwrap())
                .collect();
            assert_eq!(got, want, "{text:?}");
            assert_eq!(nth_line(text, &starts, starts.len()), None);
        }
    }

    /// A report or a parsed profile printed with `{:?}` (a library user's
    /// log line) does not echo the secret the exports mask.
    #[test]
    fn debug_output_holds_no_secret() {
        let profile = br#"{"schema": "isolint.profile/v1", "environment": {"variables": {"API_TOKEN": "ghp_abcdefghijklmnopqrstuvwxyz0123"}}}"#;
        let options = AuditOptions {
            today: Date::parse("2026-11-29"),
        };
        // As text, or as the numbers `{:?}` prints for bytes.
        let secret = "ghp_abcdefghijklmnopqrstuvwxyz0123";
        let numbers = format!("{:?}", secret.as_bytes());
        let numbers = numbers.trim_start_matches('[').trim_end_matches(']');
        let holds_secret = |shown: &str| shown.contains(secret) || shown.contains(numbers);
        let parsed = Parsed::new(profile.as_slice(), Limits::default()).unwrap();
        let shown = format!("{parsed:?}");
        assert!(!holds_secret(&shown), "{shown}");
        let report = audit_parsed(
            parsed,
            "p.json",
            &Labels::workshop(),
            &options,
            Detail::Full,
            &crate::InOrder,
        );
        assert!(!report.secrets.is_empty());
        let shown = format!("{report:?}");
        assert!(shown.contains("API_TOKEN"), "the report is printed");
        assert!(!holds_secret(&shown), "{shown}");
    }

    /// A check's id is the digest of what the exported check names, also
    /// for the catalog's checks, which come with ids made before cleaning:
    /// a secret that masks a catalog path gives its check a new id.
    #[test]
    fn check_ids_name_the_checks_as_exported() {
        const TOKEN: &str = "ghp_Zq8xW2vL5nR7tY1uK3mP9sD4fG6hJ0aB2cE5";
        let catalog = crate::labels::WORKSHOP_CATALOG.replace(
            r#"{ "path": "/etc/runner", "label": "trusted-config" }"#,
            &format!(
                r#"{{ "path": "/etc/runner", "label": "trusted-config" }},
    {{ "path": "/home/botie/{TOKEN}", "label": "credential-store" }},
    {{ "path": "/etc/{TOKEN}", "label": "trusted-config" }}"#
            ),
        );
        let with_token = crate::WORKSHOP_PROFILE_FIXED.replace(
            r#""LANG": "C.UTF-8""#,
            &format!(r#""LANG": "C.UTF-8", "API_TOKEN": "{TOKEN}""#),
        );
        assert_ne!(with_token, crate::WORKSHOP_PROFILE_FIXED);
        let (workshop, tokens) = (
            Labels::workshop(),
            Labels::load(catalog.as_bytes()).unwrap(),
        );
        let options = AuditOptions::default();
        let mut masked = 0;
        for profile in [
            crate::WORKSHOP_PROFILE,
            crate::WORKSHOP_PROFILE_FIXED,
            with_token.as_str(),
            crate::synth::profile(40, 3).as_str(),
        ] {
            for labels in [&workshop, &tokens] {
                let r = audit(profile.as_bytes(), "p.json", labels, &options).unwrap();
                assert!(r.runtime_checks.len() > 10);
                for c in &r.runtime_checks {
                    assert_eq!(c.id, c.stable_id(), "{c:?}");
                    assert!(!c.target.to_string().contains(TOKEN));
                    masked += usize::from(
                        c.target.to_string().contains("/home/botie/[")
                            || c.target.to_string().starts_with("/etc/["),
                    );
                }
            }
        }
        // A token-shaped path is masked whatever the profile holds: both
        // kinds of the catalog's checks, with each of the four profiles.
        assert_eq!(masked, 8, "the token paths were not masked");
    }

    /// A report audited for its findings alone exports the same bytes in
    /// every format that does not quote the source; only the mount table
    /// and the masked source are left out.
    #[test]
    fn findings_detail_exports_the_same_bytes() {
        let labels = Labels::workshop();
        let options = AuditOptions {
            today: Date::parse("2026-11-29"),
        };
        for profile in [
            crate::WORKSHOP_PROFILE,
            crate::synth::profile(40, 3).as_str(),
        ] {
            let run = |detail| {
                let parsed = Parsed::new(profile.as_bytes(), Limits::default()).unwrap();
                audit_parsed(parsed, "p.json", &labels, &options, detail, &crate::InOrder)
            };
            let (full, lean) = (run(Detail::Full), run(Detail::Findings));
            assert!(!full.mounts.is_empty() && !full.source_text.is_empty());
            assert!(lean.mounts.is_empty() && lean.source_text.is_empty());
            use crate::render::{github, json as export, markdown, sarif};
            assert_eq!(export::render(&full), export::render(&lean));
            assert_eq!(sarif::render(&full), sarif::render(&lean));
            assert_eq!(markdown::render(&full), markdown::render(&lean));
            assert_eq!(github::render(&full), github::render(&lean));
        }
    }

    /// The parallel schedule (with the `parallel` feature) gives the very
    /// bytes the sequential one gives, for a profile and a catalog large
    /// enough to take it, with a secret to mask along the way.
    #[test]
    fn the_schedule_does_not_change_the_report() {
        let labels = Labels::load(crate::synth::catalog(3000).as_bytes()).unwrap();
        let profile = crate::synth::profile(3000, 7).replacen(
            "\"mounts\"",
            "\"environment\": {\"variables\": {\"API_TOKEN\": \"ghp_abcdefghijklmnopqrstuvwxyz0123\"}}, \"mounts\"",
            1,
        );
        assert!(profile.len() >= SCHEDULED_BYTES, "{}", profile.len());
        let options = AuditOptions {
            today: Date::parse("2026-11-29"),
        };
        let run = |s: &dyn Schedule| {
            let parsed = Parsed::new(profile.as_bytes(), Limits::default()).unwrap();
            audit_parsed(parsed, "big.json", &labels, &options, Detail::Full, s)
        };
        let (wide, narrow) = (
            crate::render::json::render(&run(&par::Backwards)),
            crate::render::json::render(&run(&InOrder)),
        );
        // The export in parts (a long list's pieces kept apart) is the
        // serde_json rendering of the same fields, once the parts are put
        // together.
        let r = run(&par::Backwards);
        let parts = crate::render::json::render_parts(&r, &par::Backwards);
        assert!(parts.len() > 2, "the long lists were written in pieces");
        let reference =
            serde_json::to_string_pretty(&crate::render::json::export(&r)).unwrap() + "\n";
        assert_eq!(parts.concat(), reference);
        assert_eq!(wide, reference);
        assert!(!wide.contains("ghp_abcdef"), "the secret is masked");
        assert!(
            wide.matches("\"kind\": \"link-resolution\"").count() >= 3000,
            "one runtime check per mount at least"
        );
        assert_eq!(wide, narrow);
    }
}
