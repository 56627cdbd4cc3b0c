//! The page's one state type and the actions that change it.
//!
//! Everything here is plain Rust: no DOM, no `web-sys`. The audit itself is
//! pure (core does no I/O), so the reducer runs it and the native unit tests
//! below exercise the whole learner path — edit, audit, filter, select,
//! load a lesson, swap the catalog — without a browser.

use isolint_core::audit::AuditImportedError;
use std::rc::Rc;

use isolint_core::import::{self, ImportError};
use isolint_core::json::{InputError, Limits};
use isolint_core::observe::{self, Observations, Reconciliation};
use isolint_core::runner::{Runner, RunnerError};
use isolint_core::sanitize::neutralize;
use isolint_core::view_model::{self, Filter};
use isolint_core::{audit, AuditOptions, CatalogError, Date, Labels, Report, Severity, Verdict};
use yew::Reducible;

use crate::clock;

/// How long the page waits after the last keystroke before auditing.
pub const DEBOUNCE_MS: u32 = 150;

/// What the page can audit, for a file it recognises as none of them.
pub const READS: &str = "(the page reads isolint.profile/v1 JSON, Kubernetes manifests, Docker Compose files, OCI config.json, Codex config.toml, sandbox-runtime or Claude Code settings, and bwrap command lines)";

/// The name shown (and exported as `profile.source`) for the starting profile.
pub const WORKSHOP_SOURCE: &str = "workshop.json";

/// Which label catalog the audit compares against.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CatalogChoice {
    /// The workshop catalog embedded in core.
    Workshop,
    /// A catalog file the learner loaded.
    Loaded { file: String },
}

/// Why the editor's text could not be audited at all.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InputProblem {
    /// The refusal, without its position (display-safe).
    pub message: String,
    pub line: Option<u32>,
    pub column: Option<u32>,
}

impl InputProblem {
    fn from_error(e: &InputError) -> InputProblem {
        let bare = InputError::new(e.kind.clone(), None);
        InputProblem {
            message: neutralize(&bare.to_string()).into_owned(),
            line: e.pos.map(|p| p.line),
            column: e.pos.map(|p| p.column),
        }
    }

    /// "line 3, column 7: invalid JSON: …" (or just the message).
    pub fn located(&self) -> String {
        match (self.line, self.column) {
            (Some(l), Some(c)) => format!("line {l}, column {c}: {}", self.message),
            (Some(l), None) => format!("line {l}: {}", self.message),
            _ => self.message.clone(),
        }
    }
}

/// A problem with the runner overlay, located in the overlay file.
fn runner_problem(e: &RunnerError, runner: &str) -> InputProblem {
    let bare = ImportError::new(e.0.kind.clone());
    InputProblem {
        message: format!(
            "the runner overlay {}: {}",
            neutralize(runner),
            neutralize(&bare.to_string())
        ),
        line: None,
        column: None,
    }
}

/// Why an overlay file was refused, located as "line L, column C: …".
fn describe_runner_error(e: &RunnerError) -> String {
    let bare = ImportError::new(e.0.kind.clone());
    InputProblem {
        message: neutralize(&bare.to_string()).into_owned(),
        line: e.0.loc.map(|l| l.line),
        column: e.0.loc.map(|l| l.column),
    }
    .located()
}

/// One profile of the editor's file: which part of the file it describes
/// (`Deployment/api`, a Compose service; empty for a file holding one
/// profile) and its report.
#[derive(Debug, Clone)]
pub struct ProfileRow {
    pub unit: String,
    pub report: Rc<Report>,
}

impl ProfileRow {
    /// Not eligible first; worst first within (most critical findings,
    /// then high, ...): the dashboard's Profiles order.
    fn order_key(&self) -> (u8, std::cmp::Reverse<[usize; 5]>) {
        let rank = match self.report.verdict {
            Verdict::NotEligible => 0,
            Verdict::EligibleForRuntimeTesting => 1,
        };
        let counts = Severity::ALL.map(|s| self.report.summary.count(s));
        (rank, std::cmp::Reverse(counts))
    }

    /// The name the picker shows: the unit, or the profile's own name.
    pub fn title(&self) -> String {
        if self.unit.is_empty() {
            neutralize(&self.report.profile.name).into_owned()
        } else {
            neutralize(&self.unit).into_owned()
        }
    }
}

/// The verdict of a whole file: not eligible when any of its profiles is.
pub fn file_verdict(rows: &[ProfileRow]) -> Option<Verdict> {
    if rows.is_empty() {
        return None;
    }
    Some(
        if rows
            .iter()
            .any(|r| r.report.verdict == Verdict::NotEligible)
        {
            Verdict::NotEligible
        } else {
            Verdict::EligibleForRuntimeTesting
        },
    )
}

/// Audit the editor's text: an `isolint.profile/v1` document directly, any
/// other sandbox configuration core can import (Kubernetes, Compose, OCI,
/// Codex, sandbox settings, bwrap) through its importer. Every profile the
/// file describes is audited, worst first (as the dashboard lists them);
/// findings of an imported profile point into the editor's text.
///
/// A runner overlay is merged under imported profiles by the same core
/// function as `isolint audit --runner`; an `isolint.profile/v1` document
/// is audited as written, as the command line does. The flag says whether
/// the overlay was applied.
pub(crate) fn audit_text(
    bytes: &[u8],
    name: &str,
    labels: &Labels,
    options: &AuditOptions,
    runner: Option<&Runner>,
) -> Result<(Vec<ProfileRow>, bool), InputProblem> {
    let Some(format) = import::detect(bytes, Some(name)) else {
        let looks_like_json = bytes
            .iter()
            .find(|b| !b.is_ascii_whitespace())
            .is_some_and(|b| matches!(b, b'{' | b'[' | 0xEF));
        return audit(bytes, name, labels, options)
            .map(|r| {
                (
                    vec![ProfileRow {
                        unit: String::new(),
                        report: Rc::new(r),
                    }],
                    false,
                )
            })
            .map_err(|e| {
                let mut problem = InputProblem::from_error(&e);
                if !looks_like_json {
                    // Not JSON and no importer recognised it: say what the page reads.
                    problem.message = format!("{} {READS}", problem.message);
                }
                problem
            });
    };
    // The page has no file system: a file a Compose file refers to (an
    // `env_file`, an `include`) is unread context, a blocking finding.
    let units = match format {
        import::Format::Compose => {
            import::import_compose(bytes, &import::ComposeContext::no_files(true))
        }
        _ => import::import(bytes, format),
    }
    .map_err(|e| InputProblem {
        message: format!(
            "{} (read as {})",
            neutralize(&ImportError::new(e.kind.clone()).to_string()),
            format.title()
        ),
        line: e.loc.map(|l| l.line),
        column: e.loc.map(|l| l.column),
    })?;
    let mut rows = Vec::with_capacity(units.len());
    for unit in &units {
        let report = isolint_core::audit::audit_imported(
            unit,
            name,
            labels,
            options,
            runner,
            &isolint_core::InOrder,
        )
        .map_err(|e| match e {
            AuditImportedError::Runner(e) => {
                runner_problem(&e, runner.map_or("", |r| r.file.as_str()))
            }
            AuditImportedError::Input(e) => InputProblem::from_error(&e),
        })?;
        rows.push(ProfileRow {
            unit: unit.name.clone(),
            report: Rc::new(report),
        });
    }
    if rows.is_empty() {
        return Err(InputProblem {
            message: format!("no profile found in this {}", format.title()),
            line: None,
            column: None,
        });
    }
    // A stable sort: alike profiles keep the file's order.
    rows.sort_by_key(ProfileRow::order_key);
    Ok((rows, runner.is_some()))
}

/// The file name the page gives text that came without one (pasted,
/// typed, a link): named after the format it holds, so YAML is `.yaml`.
pub fn name_for(stem: &str, text: &str) -> String {
    use isolint_core::import::Format;
    let ext = match import::detect(text.as_bytes(), None) {
        Some(Format::Kubernetes | Format::Compose) => "yaml",
        Some(Format::Codex) => "toml",
        Some(Format::Bwrap) => "sh",
        Some(Format::Oci | Format::SandboxSettings) | None => "json",
    };
    format!("{stem}.{ext}")
}

/// Whether `new` is an edit of `original` rather than other content: at
/// least half of its non-blank lines are lines of `original`. A paste of
/// one line into a lesson keeps it the lesson; a Kubernetes file pasted
/// over it shares none of its lines.
fn related(original: &str, new: &str) -> bool {
    let known: std::collections::HashSet<&str> = original.lines().map(str::trim).collect();
    let (mut lines, mut common) = (0usize, 0usize);
    for l in new.lines().map(str::trim).filter(|l| !l.is_empty()) {
        lines += 1;
        common += usize::from(known.contains(l));
    }
    lines > 0 && common * 2 >= lines
}

/// A 64-bit FNV-1a digest, in hex: keys drafts by the content they started
/// from (not by a file name two unrelated files can share). Not a security
/// measure: the key only has to tell contents apart.
pub fn content_key(text: &str) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in text.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    format!("{h:016x}")
}

/// Why a file of `size` bytes, over core's input limit, was refused.
pub fn too_large(name: &str, size: u64) -> String {
    format!(
        "{}: the file is {size} bytes, over the {}-byte limit",
        neutralize(name),
        Limits::default().max_bytes
    )
}

/// The editor line of `report.issues[index]`.
fn report_line(state: &State, index: usize) -> Option<u32> {
    let report = state.report.as_ref()?;
    view_model::shown_position(report, report.issues.get(index)?).0
}

/// Why a catalog file was refused, one problem per line, each located as
/// "line L, column C: …".
pub fn describe_catalog_error(e: &CatalogError) -> String {
    match e {
        CatalogError::Input(input) => InputProblem::from_error(input).located(),
        CatalogError::Invalid(problems) => problems
            .iter()
            .map(|p| {
                format!(
                    "line {}, column {}: {} (at `{}`)",
                    p.pos.line,
                    p.pos.column,
                    neutralize(&p.describe()),
                    neutralize(&p.pointer)
                )
            })
            .collect::<Vec<_>>()
            .join("\n"),
    }
}

/// The finding the learner opened: its index in `report.issues`, as the
/// dashboard keys it, and its identity (rule, pointer, message), so it
/// survives a re-audit as long as the finding still exists. One pointer can
/// hold several findings (`python -c …; node -e …` in one command), even
/// alike ones; the index tells them apart.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Selection {
    pub index: usize,
    pub rule: &'static str,
    pub pointer: String,
    pub message: String,
}

impl Selection {
    fn is(&self, f: &isolint_core::Finding) -> bool {
        f.rule == self.rule && f.pointer == self.pointer && f.message == self.message
    }
}

/// A short message for the status line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Status {
    pub error: bool,
    pub text: String,
}

impl Status {
    pub fn info(text: impl Into<String>) -> Status {
        Status {
            error: false,
            text: text.into(),
        }
    }
    pub fn error(text: impl Into<String>) -> Status {
        Status {
            error: true,
            text: text.into(),
        }
    }
}

/// How long the audits took, for the page's own measurements.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct AuditTiming {
    /// Milliseconds spent in the last audit.
    pub last_ms: f64,
    /// Number of audits run since the page opened.
    pub count: u64,
}

impl AuditTiming {
    /// The last audit's duration as `"1.234"` (milliseconds), formatted
    /// through integers, so the page does not carry the standard library's
    /// float formatting for this one number.
    pub fn last_ms_text(&self) -> String {
        let micros = if self.last_ms.is_finite() && self.last_ms > 0.0 {
            (self.last_ms * 1000.0).round() as u64
        } else {
            0
        };
        format!("{}.{:03}", micros / 1000, micros % 1000)
    }
}

/// Where the editor's content came from: what its draft is kept under,
/// and whether a lesson card belongs beside it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Origin {
    /// A gallery lesson, by id.
    Lesson(&'static str),
    /// A file opened or dropped.
    File,
    /// Text pasted over the whole editor, or typed into an emptied one.
    Pasted,
    /// The profile a shared link carries.
    Link,
}

/// Where pasted work is kept: one slot, offered again after a reload.
pub const PASTED_DRAFT_KEY: &str = "isolint.draft.pasted";

/// The prefix of every draft key, for "forget my drafts".
pub const DRAFT_PREFIX: &str = "isolint.draft.";

/// An edit kept in this browser from earlier, offered back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Draft {
    /// The storage key it was found under.
    pub key: String,
    /// As stored: secret values already masked.
    pub text: Rc<str>,
}

/// A shared link whose content is past the size or line cap: held back,
/// unrendered, until the learner confirms.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PendingLink {
    pub text: Rc<str>,
    /// Why it was held ("2 MB, 40 000 lines").
    pub reason: String,
}

/// What the page starts with.
#[derive(Debug, Clone)]
pub struct Start {
    pub name: String,
    pub text: String,
    pub lesson: Option<&'static str>,
    /// Where the text came from (a lesson unless a link brought it).
    pub origin: Origin,
    /// The audit date (`?today=` or the browser's local date).
    pub today: Option<Date>,
    /// The date came from the address (`?today=`), not the browser's clock.
    pub today_pinned: bool,
    /// A link held back for confirmation (too large to open unasked).
    pub pending_link: Option<PendingLink>,
    /// Something to tell the learner at once (e.g. a broken shared link).
    pub status: Option<Status>,
}

impl Start {
    /// The workshop profile, as the page opens by default.
    pub fn workshop(today: Option<Date>) -> Start {
        Start {
            name: WORKSHOP_SOURCE.into(),
            text: isolint_core::WORKSHOP_PROFILE.into(),
            lesson: Some("workshop"),
            origin: Origin::Lesson("workshop"),
            today,
            today_pinned: false,
            pending_link: None,
            status: None,
        }
    }
}

/// The whole page state.
#[derive(Debug, Clone)]
pub struct State {
    /// The editor's text, exactly as typed (may hold secrets; never exported).
    pub text: Rc<str>,
    /// File name used as `profile.source` in the exports.
    pub source_name: Rc<str>,
    /// The gallery lesson the text came from, if any.
    pub lesson: Option<&'static str>,
    /// Where the text came from.
    pub origin: Origin,
    /// Bumped on every change of `text`.
    pub revision: u64,
    /// The revision the current `report`/`input_error` describe.
    pub audited: u64,
    pub labels: Rc<Labels>,
    pub catalog: CatalogChoice,
    /// Why the last catalog file was refused.
    pub catalog_error: Option<String>,
    pub today: Option<Date>,
    /// The date came from the address (`?today=`), not the browser's clock.
    pub today_pinned: bool,
    /// Every profile of the last readable audit, worst first.
    pub profiles: Rc<Vec<ProfileRow>>,
    /// Which of `profiles` is shown.
    pub profile: usize,
    /// The shown profile's report (`profiles[profile]`). Kept while the
    /// text is unreadable, marked stale.
    pub report: Option<Rc<Report>>,
    /// Set while the current text cannot be audited.
    pub input_error: Option<InputProblem>,
    pub filter: Filter,
    pub selected: Option<Selection>,
    /// The line the editor shows highlighted.
    pub cursor_line: Option<u32>,
    /// Bumped whenever the editor must scroll to `cursor_line`.
    pub jump: u64,
    pub status: Option<Status>,
    /// The last shareable link made, shown so it can be copied by hand.
    pub share_link: Option<String>,
    pub timing: AuditTiming,
    /// The text as loaded (lesson, file, link), to tell an edit from it.
    pub original: Rc<str>,
    /// Whether the learner changed the text since it was loaded.
    pub edited: bool,
    /// Bumped on every load, so the page looks for a saved draft once each.
    pub loads: u64,
    /// Edits kept from earlier, offered back: this content's own, and
    /// pasted work from an earlier visit.
    pub drafts: Vec<Draft>,
    /// A link past the size or line cap, waiting for the learner's yes.
    pub pending_link: Option<PendingLink>,
    /// The runner overlay (`--runner` on the command line), if one is loaded.
    pub runner: Option<Rc<Runner>>,
    /// Why the last overlay file was refused.
    pub runner_error: Option<String>,
    /// Whether the overlay was merged into the shown report (it applies to
    /// imported formats only).
    pub runner_applied: bool,
    /// An `isolint.observations/v1` document the learner opened, and its
    /// file name: shown against the plan of whatever profile is audited.
    pub observations: Option<(Rc<str>, Rc<Observations>)>,
    /// Why the last observations file was refused.
    pub observations_error: Option<String>,
}

/// Everything that changes the state.
#[derive(Debug, Clone, PartialEq)]
pub enum Action {
    /// The learner typed or pasted: new editor text (audited after a pause).
    Edit(String),
    /// The pause after `revision` ended: audit if nothing changed since.
    Audit {
        revision: u64,
    },
    /// Replace the editor's text (gallery, shared link, reset) and audit now.
    Load {
        name: String,
        text: String,
        lesson: Option<&'static str>,
    },
    /// The learner pasted or dropped text in the editor; the result is
    /// this. New content (little in common with what was loaded) becomes
    /// its own context, as [`Action::Paste`]; else it is an edit.
    PasteInto(String),
    /// Text pasted over the whole editor (or dropped on it): new content,
    /// its own context, named after its format.
    Paste(String),
    /// The profile a shared link carries: its own context, never a lesson.
    OpenLink(String),
    /// A link past the caps arrived: hold it for confirmation.
    HoldLink(PendingLink),
    /// Open the held link.
    ConfirmLink,
    /// Forget the held link.
    RefuseLink,
    /// Show another profile of the file (an index into `profiles`).
    SelectProfile(usize),
    /// A profile file was read.
    LoadFile {
        name: String,
        bytes: Vec<u8>,
    },
    /// A catalog file was read.
    LoadCatalog {
        name: String,
        bytes: Vec<u8>,
    },
    /// Go back to the embedded workshop catalog.
    UseWorkshopCatalog,
    /// Hide the message about a refused catalog.
    DismissCatalogError,
    SetMinSeverity(Severity),
    SetQuery(String),
    /// Open (or close, when already open) `report.issues[index]`.
    Select(usize),
    /// Highlight a line of the editor and scroll to it.
    RevealLine(u32),
    Notify(Status),
    DismissStatus,
    /// Show a shareable link that was just made.
    ShowLink(String),
    /// A saved edit was found under `key`.
    OfferDraft {
        key: String,
        text: String,
    },
    /// Put the draft kept under this key into the editor.
    RestoreDraft(String),
    /// Stop offering the draft kept under this key (the page also deletes it).
    DiscardDraft(String),
    /// Every draft was deleted: stop offering any.
    ForgetDrafts,
    /// A runner overlay file was read (or pasted).
    LoadRunner {
        name: String,
        bytes: Vec<u8>,
    },
    /// Audit without the runner overlay again.
    DropRunner,
    /// Hide the message about a refused overlay.
    DismissRunnerError,
    /// An observations file (`isolint probe` output) was read.
    LoadObservations {
        name: String,
        bytes: Vec<u8>,
    },
    /// Show the plan without observations again.
    DropObservations,
}

impl State {
    /// The starting state, already audited.
    pub fn new(start: Start) -> State {
        let mut s = State {
            text: Rc::from(start.text),
            source_name: Rc::from(start.name),
            lesson: start.lesson,
            origin: start.origin,
            revision: 1,
            audited: 0,
            labels: Rc::new(Labels::workshop()),
            catalog: CatalogChoice::Workshop,
            catalog_error: None,
            today: start.today,
            today_pinned: start.today_pinned,
            profiles: Rc::new(Vec::new()),
            profile: 0,
            report: None,
            input_error: None,
            filter: Filter::default(),
            selected: None,
            cursor_line: None,
            jump: 0,
            status: start.status,
            share_link: None,
            timing: AuditTiming::default(),
            original: Rc::from(""),
            edited: false,
            loads: 1,
            drafts: Vec::new(),
            pending_link: start.pending_link,
            runner: None,
            runner_error: None,
            runner_applied: false,
            observations: None,
            observations_error: None,
        };
        s.original = Rc::clone(&s.text);
        s.run_audit();
        s
    }

    /// Audit `text` against `labels` now.
    fn run_audit(&mut self) {
        let options = AuditOptions { today: self.today };
        let started = clock::now_ms();
        let result = audit_text(
            self.text.as_bytes(),
            &self.source_name,
            &self.labels,
            &options,
            self.runner.as_deref(),
        );
        self.timing.last_ms = clock::now_ms() - started;
        self.timing.count += 1;
        self.audited = self.revision;
        match result {
            Ok((rows, applied)) => {
                // Keep showing the same part of the file across edits.
                let unit = self.profiles.get(self.profile).map(|r| r.unit.clone());
                self.profile = unit
                    .and_then(|u| rows.iter().position(|r| r.unit == u))
                    .unwrap_or(0);
                self.report = rows.get(self.profile).map(|r| Rc::clone(&r.report));
                self.profiles = Rc::new(rows);
                if self.origin == Origin::Pasted || self.origin == Origin::Link {
                    let stem = if self.origin == Origin::Link {
                        "shared-link"
                    } else {
                        "pasted"
                    };
                    let name = name_for(stem, &self.text);
                    if *self.source_name != *name {
                        self.source_name = Rc::from(name);
                    }
                }
                self.runner_applied = applied;
                self.input_error = None;
                if self.selected_index().is_none() {
                    self.selected = None;
                }
            }
            Err(problem) => {
                if problem.line.is_some() {
                    self.cursor_line = problem.line;
                }
                self.input_error = Some(problem);
            }
        }
    }

    fn replace_text(&mut self, name: String, text: String, origin: Origin) {
        self.text = Rc::from(text);
        self.original = Rc::clone(&self.text);
        self.edited = false;
        self.loads += 1;
        self.drafts.clear();
        self.source_name = Rc::from(name);
        self.lesson = match origin {
            Origin::Lesson(id) => Some(id),
            _ => None,
        };
        self.origin = origin;
        self.profiles = Rc::new(Vec::new());
        self.profile = 0;
        self.revision += 1;
        self.selected = None;
        self.cursor_line = None;
        self.jump += 1;
        // New content: the last report describes another file, so it must not
        // stay on screen (greyed or not) under this one's parse error.
        self.report = None;
        self.run_audit();
    }

    /// Where the draft of this content is kept in the browser: by where
    /// the content came from (a lesson, the content a file or link opened
    /// with, pasted work), never by a file name alike files can share.
    pub fn draft_key(&self) -> String {
        match &self.origin {
            Origin::Lesson(id) => format!("{DRAFT_PREFIX}lesson.{id}"),
            Origin::File => format!("{DRAFT_PREFIX}file.{}", content_key(&self.original)),
            Origin::Link => format!("{DRAFT_PREFIX}link.{}", content_key(&self.original)),
            Origin::Pasted => PASTED_DRAFT_KEY.into(),
        }
    }

    /// What to keep for the draft key after an edit: the text when it
    /// differs from what was loaded, `None` (forget) when it is back to it.
    /// Nothing changes before the learner edits. Pasted work is kept as
    /// soon as it is pasted: it exists nowhere else.
    pub fn draft_to_keep(&self) -> Option<Option<&str>> {
        if self.origin == Origin::Pasted {
            return Some((!self.text.trim().is_empty()).then_some(&*self.text));
        }
        self.edited
            .then(|| (*self.text != *self.original).then_some(&*self.text))
    }

    /// [`State::draft_to_keep`] as stored: secret values masked. The
    /// audit's own masked source when it describes this text (it knows
    /// which values are secrets), else core's masking of unparsed text.
    pub fn masked_draft(&self) -> Option<Option<String>> {
        let keep = self.draft_to_keep()?;
        Some(keep.map(|text| match self.current_report() {
            Some(r) if self.audited == self.revision => view_model::shown_source(r).1.to_owned(),
            _ => isolint_core::secrets::mask_unparsed(text),
        }))
    }

    /// The verdict of the whole file (every profile in it).
    pub fn file_verdict(&self) -> Option<Verdict> {
        file_verdict(&self.profiles)
    }

    /// Whether the shown report describes the editor's current text.
    pub fn is_current(&self) -> bool {
        self.input_error.is_none() && self.audited == self.revision
    }

    /// The report, only when it describes the current text (for exports).
    pub fn current_report(&self) -> Option<&Rc<Report>> {
        self.report.as_ref().filter(|_| self.input_error.is_none())
    }

    /// Index in `report.issues` of the open finding: the index it was
    /// opened at while the finding there is still the same one, else (after
    /// a re-audit moved it) the first finding with its identity.
    pub fn selected_index(&self) -> Option<usize> {
        let sel = self.selected.as_ref()?;
        let report = self.report.as_ref()?;
        if report.issues.get(sel.index).is_some_and(|f| sel.is(f)) {
            return Some(sel.index);
        }
        report.issues.iter().position(|f| sel.is(f))
    }

    /// The current report's plan joined with the opened observations, by
    /// the same core function as `isolint reconcile`: each check agrees,
    /// disagrees, is not observable, or is stale (the profile changed
    /// since the plan that was probed).
    pub fn reconciliation(&self) -> Option<Reconciliation> {
        let (_, obs) = self.observations.as_ref()?;
        Some(observe::join_report(self.current_report()?, obs))
    }

    /// The worst severity of the findings on each line, for the gutter.
    pub fn line_marks(&self) -> Vec<(u32, Severity)> {
        let Some(report) = self.current_report() else {
            return Vec::new();
        };
        let mut marks: Vec<(u32, Severity)> = Vec::new();
        for f in &report.issues {
            let Some(line) = view_model::shown_position(report, f).0 else {
                continue;
            };
            match marks.iter_mut().find(|(l, _)| *l == line) {
                Some((_, worst)) => *worst = (*worst).min(f.severity),
                None => marks.push((line, f.severity)),
            }
        }
        isolint_core::sort::sort(&mut marks);
        marks
    }

    /// The catalog's display name.
    pub fn catalog_label(&self) -> String {
        match &self.catalog {
            CatalogChoice::Workshop => "workshop (embedded)".into(),
            CatalogChoice::Loaded { file } => {
                format!("{} (from {})", self.labels.index.catalog().name, file)
            }
        }
    }

    fn load_bytes_as_text(name: &str, bytes: Vec<u8>) -> Result<String, String> {
        if bytes.len() > Limits::default().max_bytes {
            return Err(too_large(name, bytes.len() as u64));
        }
        String::from_utf8(bytes).map_err(|e| {
            format!(
                "{}: not UTF-8 text (invalid byte at offset {}); save the profile as UTF-8",
                neutralize(name),
                e.utf8_error().valid_up_to()
            )
        })
    }
}

impl State {
    /// Whether `action` would leave the state as it is: a stale timer, an
    /// identical edit, a dismissal with nothing shown. Such actions make no
    /// new state, so nothing re-renders.
    fn unchanged_by(&self, action: &Action) -> bool {
        match action {
            Action::Audit { revision } => {
                *revision != self.revision || self.audited == self.revision
            }
            Action::Edit(text) | Action::PasteInto(text) => *self.text == **text,
            Action::OfferDraft { key, text } => {
                (*self.text == **text && *key == self.draft_key())
                    || self.drafts.iter().any(|d| d.key == *key)
            }
            Action::RestoreDraft(key) | Action::DiscardDraft(key) => {
                !self.drafts.iter().any(|d| d.key == *key)
            }
            Action::ForgetDrafts => self.drafts.is_empty(),
            Action::SelectProfile(i) => *i == self.profile || *i >= self.profiles.len(),
            Action::ConfirmLink | Action::RefuseLink => self.pending_link.is_none(),
            Action::DropRunner => self.runner.is_none() && self.runner_error.is_none(),
            Action::DismissRunnerError => self.runner_error.is_none(),
            Action::DropObservations => {
                self.observations.is_none() && self.observations_error.is_none()
            }
            Action::UseWorkshopCatalog => {
                self.catalog == CatalogChoice::Workshop && self.catalog_error.is_none()
            }
            Action::DismissCatalogError => self.catalog_error.is_none(),
            Action::Select(index) => self
                .report
                .as_ref()
                .and_then(|r| r.issues.get(*index))
                .is_none(),
            Action::DismissStatus => self.status.is_none(),
            _ => false,
        }
    }

    /// Change this (new) state by `action`.
    fn apply(&mut self, action: Action) {
        match action {
            Action::Audit { .. } => self.run_audit(),
            Action::Edit(text) => {
                if text.trim().is_empty() && self.origin != Origin::Pasted {
                    // The learner emptied the editor: what is typed next is
                    // new work, not an edit of the lesson, file or link.
                    self.replace_text(name_for("pasted", ""), text, Origin::Pasted);
                    return;
                }
                self.text = Rc::from(text);
                self.revision += 1;
                self.edited = true;
            }
            Action::PasteInto(text) => {
                if self.origin != Origin::Pasted && !related(&self.original, &text) {
                    self.apply(Action::Paste(text));
                } else {
                    self.apply(Action::Edit(text));
                }
            }
            Action::Paste(text) => {
                self.replace_text(name_for("pasted", &text), text, Origin::Pasted);
                self.edited = true;
                self.status = None;
            }
            Action::OpenLink(text) => {
                self.replace_text(name_for("shared-link", &text), text, Origin::Link);
                self.pending_link = None;
            }
            Action::HoldLink(link) => self.pending_link = Some(link),
            Action::ConfirmLink => {
                if let Some(link) = self.pending_link.take() {
                    let text = link.text.to_string();
                    self.replace_text(name_for("shared-link", &text), text, Origin::Link);
                    self.status = Some(Status::info("opened the profile carried by this link"));
                }
            }
            Action::RefuseLink => self.pending_link = None,
            Action::SelectProfile(i) => {
                if let Some(row) = self.profiles.get(i) {
                    self.profile = i;
                    self.report = Some(Rc::clone(&row.report));
                    self.selected = None;
                    self.cursor_line = None;
                }
            }
            Action::OfferDraft { key, text } => self.drafts.push(Draft {
                key,
                text: Rc::from(text),
            }),
            Action::RestoreDraft(key) => {
                let Some(at) = self.drafts.iter().position(|d| d.key == key) else {
                    return;
                };
                let draft = self.drafts.remove(at);
                if key == self.draft_key() {
                    self.text = draft.text;
                    self.revision += 1;
                    self.edited = true;
                    self.selected = None;
                    self.run_audit();
                } else if key == PASTED_DRAFT_KEY {
                    let text = draft.text.to_string();
                    self.replace_text(name_for("pasted", &text), text, Origin::Pasted);
                }
            }
            Action::DiscardDraft(key) => self.drafts.retain(|d| d.key != key),
            Action::ForgetDrafts => self.drafts.clear(),
            Action::Load { name, text, lesson } => {
                let origin = lesson.map_or(Origin::File, Origin::Lesson);
                self.replace_text(name, text, origin);
                self.status = None;
            }
            Action::LoadFile { name, bytes } => match State::load_bytes_as_text(&name, bytes) {
                Ok(text) => {
                    self.status = Some(Status::info(format!("opened {}", neutralize(&name))));
                    self.replace_text(name, text, Origin::File);
                }
                Err(message) => self.status = Some(Status::error(message)),
            },
            Action::LoadCatalog { name, bytes } => match Labels::load(&bytes) {
                Ok(labels) => {
                    self.labels = Rc::new(labels);
                    self.catalog = CatalogChoice::Loaded {
                        file: neutralize(&name).into_owned(),
                    };
                    self.catalog_error = None;
                    self.run_audit();
                }
                Err(e) => {
                    self.catalog_error = Some(format!(
                        "{} was not loaded; still using {}.\n{}",
                        neutralize(&name),
                        self.catalog_label(),
                        describe_catalog_error(&e)
                    ));
                }
            },
            Action::LoadRunner { name, bytes } => match Runner::parse(&bytes, &name) {
                Ok(runner) => {
                    self.runner = Some(Rc::new(runner));
                    self.runner_error = None;
                    self.run_audit();
                }
                Err(e) => {
                    let keep = match &self.runner {
                        Some(r) => format!("still using {}", r.file),
                        None => "auditing without one".into(),
                    };
                    self.runner_error = Some(format!(
                        "{} was not loaded as a runner overlay; {keep}.\n{}",
                        neutralize(&name),
                        describe_runner_error(&e)
                    ));
                }
            },
            Action::DropRunner => {
                self.runner_error = None;
                if self.runner.take().is_some() {
                    self.run_audit();
                }
            }
            Action::DismissRunnerError => self.runner_error = None,
            Action::LoadObservations { name, bytes } => match observe::parse(&bytes) {
                Ok(obs) => {
                    self.observations = Some((Rc::from(neutralize(&name)), Rc::new(obs)));
                    self.observations_error = None;
                }
                Err(e) => {
                    self.observations_error = Some(format!(
                        "{} was not loaded: {}",
                        neutralize(&name),
                        neutralize(&e.to_string())
                    ));
                }
            },
            Action::DropObservations => {
                self.observations = None;
                self.observations_error = None;
            }
            Action::UseWorkshopCatalog => {
                if self.catalog != CatalogChoice::Workshop {
                    self.labels = Rc::new(Labels::workshop());
                    self.catalog = CatalogChoice::Workshop;
                    self.run_audit();
                }
                self.catalog_error = None;
            }
            Action::DismissCatalogError => self.catalog_error = None,
            Action::SetMinSeverity(min) => self.filter.min_severity = min,
            Action::SetQuery(query) => self.filter.query = query,
            Action::Select(index) => {
                if self.selected_index() == Some(index) {
                    self.selected = None;
                } else if let Some(f) = self.report.as_ref().and_then(|r| r.issues.get(index)) {
                    self.selected = Some(Selection {
                        index,
                        rule: f.rule,
                        pointer: f.pointer.clone(),
                        message: f.message.clone(),
                    });
                    if let Some(line) = report_line(self, index) {
                        self.cursor_line = Some(line);
                        self.jump += 1;
                    }
                }
            }
            Action::RevealLine(line) => {
                self.cursor_line = Some(line);
                self.jump += 1;
            }
            Action::Notify(status) => self.status = Some(status),
            Action::DismissStatus => self.status = None,
            Action::ShowLink(url) => self.share_link = Some(url),
        }
    }
}

impl Reducible for State {
    type Action = Action;

    fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        if self.unchanged_by(&action) {
            return self;
        }
        let mut s = (*self).clone();
        s.apply(action);
        Rc::new(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use isolint_core::model::StringEnum;
    use isolint_core::view_model::Grouped;
    use isolint_core::{Area, Verdict};

    fn today() -> Option<Date> {
        Date::parse("2026-11-29")
    }

    fn start() -> Rc<State> {
        Rc::new(State::new(Start::workshop(today())))
    }

    fn step(s: Rc<State>, a: Action) -> Rc<State> {
        s.reduce(a)
    }

    /// Findings grouped by area under the filter, as the app's memo does.
    fn grouped(s: &State) -> Option<Grouped> {
        s.report
            .as_ref()
            .map(|r| view_model::group_with(r, &s.filter, str::to_lowercase))
    }

    /// The debounce timer of the latest edit fires.
    fn settle(s: Rc<State>) -> Rc<State> {
        let revision = s.revision;
        s.reduce(Action::Audit { revision })
    }

    #[test]
    fn opens_on_the_workshop_profile_already_audited() {
        let s = start();
        assert_eq!(&*s.text, isolint_core::WORKSHOP_PROFILE);
        assert_eq!(&*s.source_name, WORKSHOP_SOURCE);
        assert!(s.is_current());
        let report = s.report.as_ref().expect("workshop profile is readable");
        assert_eq!(report.verdict, Verdict::NotEligible);
        assert!(!report.issues.is_empty());
        assert_eq!(s.timing.count, 1);
        assert_eq!(s.catalog, CatalogChoice::Workshop);
    }

    #[test]
    fn edits_wait_for_the_debounced_audit_and_stale_timers_do_nothing() {
        let s = start();
        let s = step(s, Action::Edit(isolint_core::WORKSHOP_PROFILE_FIXED.into()));
        assert!(
            !s.is_current(),
            "an edit is not audited until the pause ends"
        );
        assert_eq!(
            s.report.as_ref().map(|r| r.verdict),
            Some(Verdict::NotEligible)
        );
        let typed = s.revision;
        let s = step(
            s,
            Action::Edit(format!("{} ", isolint_core::WORKSHOP_PROFILE_FIXED)),
        );
        // The timer of the earlier keystroke fires: ignored, same state.
        let before = Rc::clone(&s);
        let s = step(s, Action::Audit { revision: typed });
        assert!(Rc::ptr_eq(&before, &s));
        let s = settle(s);
        assert!(s.is_current());
        assert_eq!(
            s.report.as_ref().map(|r| r.verdict),
            Some(Verdict::EligibleForRuntimeTesting)
        );
        // A second timer for the same revision does not audit again.
        let count = s.timing.count;
        let s = settle(s);
        assert_eq!(s.timing.count, count);
    }

    #[test]
    fn unreadable_text_keeps_the_last_report_as_stale_and_locates_the_error() {
        let s = start();
        let broken = "{\n  \"name\": \"x\",\n  \"mounts\": [,]\n}\n";
        let s = step(s, Action::Edit(broken.into()));
        let s = settle(s);
        let problem = s.input_error.clone().expect("syntax error reported");
        assert_eq!(problem.line, Some(3));
        assert!(problem.column.is_some());
        assert!(
            problem.located().starts_with("line 3, column "),
            "{}",
            problem.located()
        );
        assert!(s.report.is_some(), "last readable report kept");
        assert!(s.current_report().is_none(), "but never exported");
        assert!(!s.is_current());
        assert_eq!(s.cursor_line, Some(3));
        assert!(s.line_marks().is_empty());
    }

    #[test]
    fn filters_use_core_grouping_and_never_drop_findings_from_the_report() {
        let s = start();
        let all = grouped(&s).expect("grouped").shown;
        let s = step(s, Action::SetMinSeverity(Severity::Critical));
        let g = grouped(&s).expect("grouped");
        assert_eq!(g.total, s.report.as_ref().map_or(0, |r| r.issues.len()));
        assert!(g.shown <= all);
        let report = s.report.as_ref().expect("report");
        for i in g.flat() {
            assert_eq!(report.issues[i].severity, Severity::Critical);
        }
        let s = step(s, Action::SetMinSeverity(Severity::Info));
        let s = step(s, Action::SetQuery("no finding says this 7f3a".into()));
        assert_eq!(grouped(&s).expect("grouped").shown, 0);
        assert_eq!(s.filter.query, "no finding says this 7f3a");
        // Writable and read-only mounts are separate groups, in that order.
        let areas: Vec<Area> = grouped(&s)
            .expect("grouped")
            .groups
            .iter()
            .map(|g| g.area)
            .collect();
        assert_eq!(&areas[..2], &[Area::WritableMounts, Area::ReadOnlyMounts]);
    }

    #[test]
    fn selecting_a_finding_moves_the_editor_to_its_line_and_toggles() {
        let s = start();
        let report = Rc::clone(s.report.as_ref().expect("report"));
        let (index, finding) = report
            .issues
            .iter()
            .enumerate()
            .find(|(_, f)| f.line.is_some_and(|l| l > 1))
            .expect("a finding below line 1");
        let jump = s.jump;
        let s = step(s, Action::Select(index));
        assert_eq!(s.selected_index(), Some(index));
        assert_eq!(s.cursor_line, finding.line);
        assert_eq!(s.jump, jump + 1);
        let s = step(s, Action::Select(index));
        assert_eq!(s.selected_index(), None, "clicking again closes it");
        let before = Rc::clone(&s);
        let s = step(s, Action::Select(10_000));
        assert!(Rc::ptr_eq(&before, &s), "out-of-range index is ignored");
    }

    #[test]
    fn a_pasted_kubernetes_manifest_is_imported_and_findings_point_into_it() {
        let yaml = include_str!("../../fixtures/import/kubernetes/pod-home.yaml");
        let s = settle(step(start(), Action::Edit(yaml.into())));
        assert_eq!(s.input_error, None);
        let report = Rc::clone(s.report.as_ref().expect("report"));
        assert!(report.original.is_some(), "audited through the importer");
        let (index, f) = report
            .issues
            .iter()
            .enumerate()
            .find(|(_, f)| f.pointer == "/mounts/0/source")
            .expect("the home mount is a finding");
        let origin = f.origin.clone().expect("origin in the manifest");
        assert_eq!((origin.line, origin.column), (20, 15));
        // Selecting it moves the editor to the manifest's line, not the
        // generated profile's, and the gutter marks that line.
        let s = step(s, Action::Select(index));
        assert_eq!(s.cursor_line, Some(20));
        assert!(s.line_marks().iter().any(|(l, _)| *l == 20));
        // Broken YAML is located in the editor's text.
        let broken = yaml.replacen("  containers:", "  containers: [", 1);
        let s = settle(step(s, Action::Edit(broken)));
        let problem = s.input_error.clone().expect("refused");
        assert!(problem.line.is_some(), "{problem:?}");
    }

    #[test]
    fn a_selection_survives_a_reaudit_only_while_its_finding_exists() {
        let s = start();
        let report = Rc::clone(s.report.as_ref().expect("report"));
        let s = step(s, Action::Select(0));
        let sel = s.selected.clone().expect("selected");
        assert_eq!(sel.rule, report.issues[0].rule);
        // Whitespace-only edit: same findings, selection kept.
        let s = step(
            s,
            Action::Edit(format!("{}\n", isolint_core::WORKSHOP_PROFILE)),
        );
        let s = settle(s);
        assert_eq!(s.selected.as_ref(), Some(&sel));
        assert!(s.selected_index().is_some());
        // The fixed profile has other findings: selection dropped if gone.
        let s = step(s, Action::Edit(isolint_core::WORKSHOP_PROFILE_FIXED.into()));
        let s = settle(s);
        if let Some(i) = s.selected_index() {
            let f = &s.report.as_ref().expect("report").issues[i];
            assert_eq!(
                (f.rule, f.pointer.as_str()),
                (sel.rule, sel.pointer.as_str())
            );
        } else {
            assert_eq!(s.selected, None);
        }
    }

    #[test]
    fn drafts_are_kept_per_lesson_offered_back_and_restored() {
        let s = start();
        assert_eq!(s.draft_to_keep(), None, "nothing to keep before an edit");
        let key = s.draft_key();
        let edited = settle(step(
            Rc::clone(&s),
            Action::Edit("{\"name\": \"mine\"".into()),
        ));
        assert_eq!(edited.draft_to_keep(), Some(Some("{\"name\": \"mine\"")));
        // Back to the lesson's own text: the draft is forgotten.
        let undone = step(
            Rc::clone(&edited),
            Action::Edit(isolint_core::WORKSHOP_PROFILE.into()),
        );
        assert_eq!(undone.draft_to_keep(), Some(None));
        // Another lesson has its own key; loading it offers nothing by itself.
        let other = step(
            Rc::clone(&edited),
            Action::Load {
                name: "home-read-only.json".into(),
                text: "{}".into(),
                lesson: Some("home-read-only"),
            },
        );
        assert_ne!(other.draft_key(), key);
        assert_eq!(other.draft_to_keep(), None);
        assert!(other.drafts.is_empty());
        // After a reload the page finds the saved edit and offers it back.
        let offer = |s: Rc<State>, text: &str| {
            let key = s.draft_key();
            step(
                s,
                Action::OfferDraft {
                    key,
                    text: text.into(),
                },
            )
        };
        let offered = offer(start(), "{\"name\": \"mine\"");
        assert_eq!(
            offered.drafts.first().map(|d| &*d.text),
            Some("{\"name\": \"mine\"")
        );
        assert_eq!(
            &*offered.text,
            isolint_core::WORKSHOP_PROFILE,
            "not applied unasked"
        );
        let restored = step(Rc::clone(&offered), Action::RestoreDraft(key.clone()));
        assert_eq!(&*restored.text, "{\"name\": \"mine\"");
        assert!(restored.drafts.is_empty() && restored.audited == restored.revision);
        let discarded = step(offered, Action::DiscardDraft(key));
        assert!(discarded.drafts.is_empty());
        assert_eq!(&*discarded.text, isolint_core::WORKSHOP_PROFILE);
        // A draft equal to the text is no offer.
        let same = offer(start(), isolint_core::WORKSHOP_PROFILE);
        assert!(same.drafts.is_empty());
    }

    /// Multi-profile files from core's import fixtures, with the findings
    /// core's own expectations list for them (`profile`, `pointer`, `line`).
    const MULTI: &[(&str, &str, &str, usize)] = &[
        (
            "hardened.yaml",
            include_str!("../../fixtures/import/compose/hardened.yaml"),
            include_str!("../../fixtures/import/compose/hardened.expect.json"),
            2,
        ),
        (
            "volumes-real.yaml",
            include_str!("../../fixtures/import/compose/volumes-real.yaml"),
            include_str!("../../fixtures/import/compose/volumes-real.expect.json"),
            2,
        ),
        (
            "deployment-host.yaml",
            include_str!("../../fixtures/import/kubernetes/deployment-host.yaml"),
            include_str!("../../fixtures/import/kubernetes/deployment-host.expect.json"),
            2,
        ),
        (
            "risky.yaml",
            include_str!("../../fixtures/import/compose/risky.yaml"),
            include_str!("../../fixtures/import/compose/risky.expect.json"),
            1,
        ),
        (
            "cronjob-secrets.yaml",
            include_str!("../../fixtures/import/kubernetes/cronjob-secrets.yaml"),
            include_str!("../../fixtures/import/kubernetes/cronjob-secrets.expect.json"),
            1,
        ),
    ];

    #[test]
    fn every_profile_of_a_file_is_shown_worst_first_with_its_findings_at_their_lines() {
        let mut wrong = Vec::new();
        for (name, text, expect, units) in MULTI {
            let s = step(
                start(),
                Action::LoadFile {
                    name: (*name).into(),
                    bytes: text.as_bytes().to_vec(),
                },
            );
            assert!(s.is_current(), "{name}: {:?}", s.input_error);
            if s.profiles.len() != *units {
                wrong.push(format!(
                    "{name}: {} profiles, want {units}",
                    s.profiles.len()
                ));
            }
            // Worst first, as the dashboard's Profiles tab.
            let keys: Vec<_> = s.profiles.iter().map(ProfileRow::order_key).collect();
            if keys.windows(2).any(|w| w[0] > w[1]) {
                wrong.push(format!("{name}: not worst first"));
            }
            // The file is not eligible as soon as one profile is not.
            let any_blocked = s
                .profiles
                .iter()
                .any(|r| r.report.verdict == Verdict::NotEligible);
            if (s.file_verdict() == Some(Verdict::NotEligible)) != any_blocked {
                wrong.push(format!("{name}: file verdict {:?}", s.file_verdict()));
            }
            // Every finding core expects is shown at its line of the file,
            // under the profile it belongs to, once that profile is picked.
            let expect: serde_json::Value = serde_json::from_str(expect).expect("expect.json");
            for want in expect["findings"].as_array().into_iter().flatten() {
                let (unit, pointer, line) = (
                    want["profile"].as_str().unwrap_or(""),
                    want["pointer"].as_str().unwrap_or(""),
                    want["line"].as_u64().unwrap_or(0),
                );
                let Some(i) = s.profiles.iter().position(|r| r.unit == unit) else {
                    wrong.push(format!("{name}: no profile {unit}"));
                    continue;
                };
                let picked = step(Rc::clone(&s), Action::SelectProfile(i));
                let report = picked.report.as_ref().expect("report");
                let shown = report.issues.iter().any(|f| {
                    f.pointer == pointer
                        && view_model::shown_position(report, f).0.map(u64::from) == Some(line)
                });
                if !shown {
                    wrong.push(format!("{name}: {unit} {pointer} not at line {line}"));
                }
            }
        }
        assert!(
            wrong.is_empty(),
            "{} wrong:\n{}",
            wrong.len(),
            wrong.join("\n")
        );
    }

    #[test]
    fn the_picked_profile_stays_picked_across_edits() {
        let (name, text, _, _) = MULTI[2];
        let s = step(
            start(),
            Action::LoadFile {
                name: name.into(),
                bytes: text.as_bytes().to_vec(),
            },
        );
        let unit = s.profiles[1].unit.clone();
        let s = step(s, Action::SelectProfile(1));
        assert_eq!(
            s.report
                .as_ref()
                .map(|r| Rc::ptr_eq(r, &s.profiles[1].report)),
            Some(true)
        );
        let s = settle(step(s, Action::Edit(format!("{text}\n# a comment\n"))));
        assert_eq!(s.profiles[s.profile].unit, unit);
        assert!(step(Rc::clone(&s), Action::SelectProfile(9)).profile == s.profile);
    }

    const K8S: &str = "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  containers:\n    - name: c\n      image: busybox\n";
    const COMPOSE: &str = "services:\n  tests:\n    image: python:3.12\n    privileged: true\n";
    const CODEX: &str = "sandbox_mode = \"danger-full-access\"\n";
    const BWRAP: &str = "bwrap --ro-bind / / --dev /dev --proc /proc -- sh\n";

    #[test]
    fn the_context_follows_the_content_whatever_the_way_in() {
        // (how the content arrives, expected name, lesson kept, draft key prefix)
        type Way = fn(Rc<State>) -> Rc<State>;
        let cases: &[(&str, Way, &str, Option<&str>, &str)] = &[
            (
                "paste k8s",
                |s| step(s, Action::Paste(K8S.into())),
                "pasted.yaml",
                None,
                PASTED_DRAFT_KEY,
            ),
            (
                "paste compose",
                |s| step(s, Action::Paste(COMPOSE.into())),
                "pasted.yaml",
                None,
                PASTED_DRAFT_KEY,
            ),
            (
                "paste json",
                |s| {
                    step(
                        s,
                        Action::Paste(isolint_core::WORKSHOP_PROFILE_FIXED.into()),
                    )
                },
                "pasted.json",
                None,
                PASTED_DRAFT_KEY,
            ),
            (
                "paste codex",
                |s| step(s, Action::Paste(CODEX.into())),
                "pasted.toml",
                None,
                PASTED_DRAFT_KEY,
            ),
            (
                "paste bwrap",
                |s| step(s, Action::Paste(BWRAP.into())),
                "pasted.sh",
                None,
                PASTED_DRAFT_KEY,
            ),
            (
                "empty, then type",
                |s| {
                    settle(step(
                        step(s, Action::Edit(String::new())),
                        Action::Edit(COMPOSE.into()),
                    ))
                },
                "pasted.yaml",
                None,
                PASTED_DRAFT_KEY,
            ),
            (
                "link yaml",
                |s| step(s, Action::OpenLink(K8S.into())),
                "shared-link.yaml",
                None,
                "isolint.draft.link.",
            ),
            (
                "link json",
                |s| step(s, Action::OpenLink(isolint_core::WORKSHOP_PROFILE.into())),
                "shared-link.json",
                None,
                "isolint.draft.link.",
            ),
            (
                "open file",
                |s| {
                    step(
                        s,
                        Action::LoadFile {
                            name: "mine.yml".into(),
                            bytes: K8S.into(),
                        },
                    )
                },
                "mine.yml",
                None,
                "isolint.draft.file.",
            ),
            (
                "type in lesson",
                |s| {
                    settle(step(
                        s,
                        Action::Edit(isolint_core::WORKSHOP_PROFILE.replace("parser", "p")),
                    ))
                },
                WORKSHOP_SOURCE,
                Some("workshop"),
                "isolint.draft.lesson.workshop",
            ),
            (
                "select all, paste k8s",
                |s| step(s, Action::PasteInto(K8S.into())),
                "pasted.yaml",
                None,
                PASTED_DRAFT_KEY,
            ),
            (
                "select all, paste compose",
                |s| step(s, Action::PasteInto(COMPOSE.into())),
                "pasted.yaml",
                None,
                PASTED_DRAFT_KEY,
            ),
            (
                "paste a line into the lesson",
                |s| {
                    settle(step(
                        s,
                        Action::PasteInto(isolint_core::WORKSHOP_PROFILE.replacen(
                            "{",
                            "{\n  \"x\": 1,",
                            1,
                        )),
                    ))
                },
                WORKSHOP_SOURCE,
                Some("workshop"),
                "isolint.draft.lesson.workshop",
            ),
            (
                "paste an edited lesson over it",
                |s| {
                    settle(step(
                        s,
                        Action::PasteInto(
                            isolint_core::WORKSHOP_PROFILE.replace("parser-tests", "mine"),
                        ),
                    ))
                },
                WORKSHOP_SOURCE,
                Some("workshop"),
                "isolint.draft.lesson.workshop",
            ),
            (
                "lesson",
                |s| {
                    step(
                        s,
                        Action::Load {
                            name: "engine-socket.json".into(),
                            text: "{}".into(),
                            lesson: Some("engine-socket"),
                        },
                    )
                },
                "engine-socket.json",
                Some("engine-socket"),
                "isolint.draft.lesson.engine-socket",
            ),
        ];
        let mut wrong = Vec::new();
        for (what, way, name, lesson, key) in cases {
            let s = way(start());
            if &*s.source_name != *name || s.lesson != *lesson || !s.draft_key().starts_with(key) {
                wrong.push(format!(
                    "{what}: {} {:?} {}",
                    s.source_name,
                    s.lesson,
                    s.draft_key()
                ));
            }
        }
        assert!(
            wrong.is_empty(),
            "{} of {} wrong:\n{}",
            wrong.len(),
            cases.len(),
            wrong.join("\n")
        );
    }

    #[test]
    fn drafts_are_keyed_by_content_origin_not_file_name() {
        let open = |name: &str, text: &str| {
            step(
                start(),
                Action::LoadFile {
                    name: name.into(),
                    bytes: text.as_bytes().to_vec(),
                },
            )
            .draft_key()
        };
        // Alike names, other content: other drafts.
        assert_ne!(open("compose.yaml", COMPOSE), open("compose.yaml", K8S));
        // The same content under another name: the same draft.
        assert_eq!(open("a.yaml", COMPOSE), open("b.yaml", COMPOSE));
        // A link and a file with the same content do not share one.
        let link = step(start(), Action::OpenLink(COMPOSE.into())).draft_key();
        assert_ne!(link, open("a.yaml", COMPOSE));
    }

    #[test]
    fn drafts_are_stored_with_secrets_masked() {
        const TOKEN: &str = "ghp_R8v2Lk9QmT4xW7nB3cZ5yH1dF6gJ0pSaE2uK";
        let inherited = include_str!("../gallery/inherited-secret.json");
        let k8s_env =
            format!("{K8S}      env:\n        - name: API_TOKEN\n          value: {TOKEN}\n");
        let compose_env = format!("{COMPOSE}    environment:\n      GITHUB_TOKEN: {TOKEN}\n");
        let broken =
            format!("{{ \"environment\": {{ \"variables\": {{ \"GITHUB_TOKEN\": \"{TOKEN}\" ");
        let edited_lesson = inherited.replace("\"LANG\"", "\"LC_ALL\"");
        let cases: Vec<(&str, Action)> = vec![
            ("pasted k8s", Action::Paste(k8s_env)),
            ("pasted compose", Action::Paste(compose_env)),
            ("pasted json", Action::Paste(inherited.into())),
            ("unreadable paste", Action::Paste(broken)),
            ("edited lesson", Action::Edit(edited_lesson)),
        ];
        let total = cases.len();
        let mut wrong = Vec::new();
        for (what, action) in cases {
            let s = settle(step(start(), action));
            let kept = s.masked_draft().flatten();
            match kept {
                Some(text) if !text.contains(TOKEN) && !text.is_empty() => {}
                other => wrong.push(format!("{what}: {other:?}")),
            }
        }
        assert!(
            wrong.is_empty(),
            "{} of {total} wrong:\n{}",
            wrong.len(),
            wrong.join("\n")
        );
    }

    #[test]
    fn pasted_work_is_offered_back_after_a_reload_as_pasted_work() {
        let s = step(
            start(),
            Action::OfferDraft {
                key: PASTED_DRAFT_KEY.into(),
                text: COMPOSE.into(),
            },
        );
        assert_eq!(s.lesson, Some("workshop"), "nothing applied unasked");
        let s = step(s, Action::RestoreDraft(PASTED_DRAFT_KEY.into()));
        assert_eq!(&*s.text, COMPOSE);
        assert_eq!(s.lesson, None);
        assert_eq!(&*s.source_name, "pasted.yaml");
        assert_eq!(s.draft_key(), PASTED_DRAFT_KEY);
        let s = step(s, Action::ForgetDrafts);
        assert!(s.drafts.is_empty());
    }

    #[test]
    fn a_held_link_renders_nothing_until_confirmed() {
        let s = start();
        let held = step(
            Rc::clone(&s),
            Action::HoldLink(PendingLink {
                text: Rc::from(K8S),
                reason: "big".into(),
            }),
        );
        assert_eq!(held.text, s.text, "the editor is unchanged");
        let refused = step(Rc::clone(&held), Action::RefuseLink);
        assert!(refused.pending_link.is_none() && refused.text == s.text);
        let opened = step(held, Action::ConfirmLink);
        assert_eq!(&*opened.text, K8S);
        assert_eq!(opened.lesson, None);
        assert_eq!(&*opened.source_name, "shared-link.yaml");
    }

    #[test]
    fn new_content_that_cannot_be_read_shows_no_earlier_verdict() {
        let s = start();
        assert!(s.report.is_some());
        for (name, text) in [
            (
                "deploy.yaml",
                "apiVersion: v1\nkind: Pod\nspec: [unclosed\n",
            ),
            ("broken.json", "{\"name\": "),
            ("notes.txt", "just some words, not a profile"),
        ] {
            let opened = step(
                Rc::clone(&s),
                Action::LoadFile {
                    name: name.into(),
                    bytes: text.as_bytes().to_vec(),
                },
            );
            let problem = opened.input_error.as_ref().expect("unreadable");
            if name == "notes.txt" {
                assert!(
                    problem.message.contains("Kubernetes manifests"),
                    "{}",
                    problem.message
                );
            }
            assert!(
                opened.report.is_none(),
                "{name}: the workshop verdict stays on screen"
            );
            let pasted = step(
                Rc::clone(&s),
                Action::Load {
                    name: "pasted.json".into(),
                    text: text.into(),
                    lesson: None,
                },
            );
            assert!(pasted.report.is_none(), "{name} pasted: stale verdict");
        }
        // Typing into the same file keeps the last readable report, marked stale.
        let typed = settle(step(Rc::clone(&s), Action::Edit("{".into())));
        assert!(typed.report.is_some() && !typed.is_current());
    }

    #[test]
    fn two_findings_of_one_rule_at_one_pointer_open_separately() {
        let text = isolint_core::WORKSHOP_PROFILE.replacen(
            "pip install -r requirements.txt && python -m pytest tests/test_date.py",
            "python -c 'import os'; node -e 'process.exit()'",
            1,
        );
        let s = step(
            start(),
            Action::Load {
                name: "two.json".into(),
                text,
                lesson: None,
            },
        );
        let report = Rc::clone(s.report.as_ref().expect("report"));
        let pair = (0..report.issues.len())
            .flat_map(|a| (a + 1..report.issues.len()).map(move |b| (a, b)))
            .find(|&(a, b)| {
                let (x, y) = (&report.issues[a], &report.issues[b]);
                x.rule == y.rule && x.pointer == y.pointer
            });
        let (a, b) = pair.expect("two findings of one rule at one pointer");
        let s = step(s, Action::Select(a));
        assert_eq!(s.selected_index(), Some(a));
        let s = step(s, Action::Select(b));
        assert_eq!(s.selected_index(), Some(b));
    }

    const RESTRICTED: &str = include_str!("../../fixtures/runner/kubernetes/restricted.yaml");
    const RUNNER: &str = include_str!("../../fixtures/runner/kubernetes/runner.json");

    fn with_runner(s: Rc<State>, name: &str, text: &str) -> Rc<State> {
        step(
            s,
            Action::LoadRunner {
                name: name.into(),
                bytes: text.as_bytes().to_vec(),
            },
        )
    }

    #[test]
    fn a_runner_overlay_is_merged_under_an_imported_profile_as_the_cli_does() {
        let s = step(
            start(),
            Action::Load {
                name: "restricted.yaml".into(),
                text: RESTRICTED.into(),
                lesson: None,
            },
        );
        let alone = Rc::clone(s.report.as_ref().expect("report"));
        assert_eq!(
            alone.verdict,
            Verdict::NotEligible,
            "a Pod cannot say it all"
        );
        assert!(!s.runner_applied);

        let s = with_runner(s, "runner.json", RUNNER);
        assert_eq!(s.runner_error, None);
        assert!(s.runner_applied && s.is_current());
        let report = Rc::clone(s.report.as_ref().expect("report"));
        assert_eq!(report.verdict, Verdict::EligibleForRuntimeTesting);
        // The very function `isolint audit --runner` calls, on the same input.
        let runner = Runner::parse(RUNNER.as_bytes(), "runner.json").expect("overlay");
        let cli = import::import(RESTRICTED.as_bytes(), import::Format::Kubernetes)
            .expect("import")
            .iter()
            .map(|u| {
                isolint_core::audit::audit_imported(
                    u,
                    "restricted.yaml",
                    &Labels::workshop(),
                    &AuditOptions { today: today() },
                    Some(&runner),
                    &isolint_core::InOrder,
                )
                .expect("audit")
            })
            .collect::<Vec<_>>();
        let cli = isolint_core::audit::representative(cli).expect("a profile");
        assert_eq!(
            isolint_core::render::json::render(&report),
            isolint_core::render::json::render(&cli)
        );

        // An overlay that declares a blocking value: its finding points at
        // the overlay, and has no line in the editor's manifest.
        let blocking = "{\n  \"cleanup\": {\"destroy_worker\": false}\n}\n";
        let s = with_runner(s, "mine.json", blocking);
        let report = Rc::clone(s.report.as_ref().expect("report"));
        let (index, f) = report
            .issues
            .iter()
            .enumerate()
            .find(|(_, f)| f.pointer.starts_with("/cleanup/destroy_worker"))
            .expect("the overlay's cleanup is a finding");
        let origin = f.origin.as_ref().expect("origin");
        assert_eq!((origin.file.as_str(), origin.line), ("mine.json", 2));
        assert_eq!(view_model::shown_position(&report, f), (None, None));
        let line = s.cursor_line;
        let s = step(s, Action::Select(index));
        assert_eq!(s.cursor_line, line, "no jump to the manifest's line 2");

        // Dropping the overlay audits the manifest alone again.
        let s = step(s, Action::DropRunner);
        assert!(s.runner.is_none() && !s.runner_applied);
        assert_eq!(
            s.report.as_ref().map(|r| r.verdict),
            Some(Verdict::NotEligible)
        );
    }

    #[test]
    fn a_bad_runner_overlay_is_refused_with_its_position_and_the_old_one_kept() {
        let s = with_runner(start(), "runner.json", RUNNER);
        for (text, want) in [
            ("{\n  \"mounts\": []\n}", "line 2, column 3"),
            ("{\n  \"limts\": {}\n}", "did you mean `limits`"),
            ("{\"limits\": [", "line 1"),
        ] {
            let refused = with_runner(Rc::clone(&s), "bad.json", text);
            let err = refused.runner_error.clone().expect("refused");
            assert!(
                err.contains("bad.json")
                    && err.contains(want)
                    && err.contains("still using runner.json"),
                "{text}: {err}"
            );
            assert_eq!(
                refused.runner.as_ref().map(|r| r.file.as_str()),
                Some("runner.json")
            );
            let dismissed = step(refused, Action::DismissRunnerError);
            assert_eq!(dismissed.runner_error, None);
        }
    }

    #[test]
    fn a_native_profile_is_audited_as_written_under_an_overlay() {
        let s = with_runner(start(), "runner.json", RUNNER);
        assert!(
            !s.runner_applied,
            "isolint.profile/v1 is audited as written"
        );
        let page = s.current_report().expect("report");
        let direct = audit(
            isolint_core::WORKSHOP_PROFILE.as_bytes(),
            WORKSHOP_SOURCE,
            &Labels::workshop(),
            &AuditOptions { today: today() },
        )
        .expect("readable");
        assert_eq!(
            isolint_core::render::json::render(page),
            isolint_core::render::json::render(&direct)
        );
    }

    /// Observations of the fixed profile's plan: each check observed as
    /// `observe` says, with the plan's own fingerprint.
    fn observations_of(report: &Report, observe: impl Fn(usize) -> &'static str) -> String {
        let rows: Vec<serde_json::Value> = report
            .runtime_checks
            .iter()
            .enumerate()
            .map(|(i, c)| {
                serde_json::json!({
                    "id": c.id, "kind": c.kind.as_str(), "action": "test",
                    "observed": observe(i), "elapsed_us": 1
                })
            })
            .collect();
        serde_json::json!({
            "schema": "isolint.observations/v1",
            "plan_fingerprint": report.profile.fingerprint,
            "runner": "bwrap test",
            "observations": rows,
        })
        .to_string()
    }

    /// What each check expects, observed as such.
    fn honest(report: &Report, i: usize) -> &'static str {
        use isolint_core::plan::Expect as E;
        match report.runtime_checks[i].expect {
            E::Denied => "denied",
            E::Allowed => "allowed",
            E::Enforced => "enforced",
            E::NoSurvivors => "no-survivors",
            E::Exact => "exact",
            E::ResolvesToDeclaredSource => "resolves",
            E::RejectedAfterJob => "rejected",
            E::Destroyed => "destroyed",
            E::SeparateKernel => "separate-kernel",
            E::Filtered => "filtered",
            E::WithinDeclared => "within-declared",
            E::Private => "private",
            E::Standard => "standard",
            E::Confined => "confined",
        }
    }

    #[test]
    fn observations_are_joined_with_the_plan_and_go_stale_when_it_changes() {
        use isolint_core::observe::Status;
        let s = step(
            start(),
            Action::Load {
                name: "fixed.json".into(),
                text: isolint_core::WORKSHOP_PROFILE_FIXED.into(),
                lesson: None,
            },
        );
        assert!(s.reconciliation().is_none(), "nothing opened yet");
        let report = Rc::clone(s.report.as_ref().expect("report"));
        let n = report.runtime_checks.len();
        assert!(n >= 3);
        // The first check observed otherwise, the second needs the launcher.
        let text = observations_of(&report, |i| match i {
            0 => "survivors",
            1 => "needs-launcher",
            _ => honest(&report, i),
        });
        let s = step(
            s,
            Action::LoadObservations {
                name: "obs.json".into(),
                bytes: text.clone().into_bytes(),
            },
        );
        assert_eq!(s.observations_error, None);
        let r = s.reconciliation().expect("joined");
        assert_eq!(r.checks.len(), n);
        assert_eq!(r.checks[0].status, Status::Disagrees);
        assert_eq!(r.checks[1].status, Status::NotObservable);
        assert_eq!(r.count(Status::Agrees), n - 2);
        // The same rows as `isolint reconcile` computes.
        let obs = observe::parse(text.as_bytes()).expect("parsed");
        assert_eq!(r, observe::join_report(&report, &obs));
        // An edit changes the profile: every check is stale until re-probed.
        let edited = isolint_core::WORKSHOP_PROFILE_FIXED.replacen("536870912", "268435456", 1);
        let s = settle(step(s, Action::Edit(edited)));
        assert!(s.is_current());
        let r = s.reconciliation().expect("joined");
        assert!(r.checks.iter().all(|c| c.status == Status::Stale), "{r:?}");
        let s = step(
            s,
            Action::Load {
                name: "fixed.json".into(),
                text: isolint_core::WORKSHOP_PROFILE_FIXED.into(),
                lesson: None,
            },
        );
        let mut probe = (*report).clone();
        probe.profile.fingerprint = "sha256:0000".into();
        let s = step(
            s,
            Action::LoadObservations {
                name: "old.json".into(),
                bytes: observations_of(&probe, |i| honest(&report, i)).into_bytes(),
            },
        );
        let r = s.reconciliation().expect("joined");
        assert!(r.checks.iter().all(|c| c.status == Status::Stale));
        // A bad file is refused with its position; the last one stays.
        let s = step(
            s,
            Action::LoadObservations {
                name: "bad.json".into(),
                bytes: b"{\n  \"schema\": 3\n}".to_vec(),
            },
        );
        let err = s.observations_error.clone().expect("refused");
        assert!(err.contains("bad.json") && err.contains("line 2"), "{err}");
        assert_eq!(s.observations.as_ref().map(|(n, _)| &**n), Some("old.json"));
        let s = step(s, Action::DropObservations);
        assert!(s.observations.is_none() && s.reconciliation().is_none());
    }

    #[test]
    fn alike_findings_at_one_pointer_are_told_apart_by_index() {
        // Two findings that share rule, pointer and message: only the index
        // tells them apart, as in the dashboard.
        let s = start();
        let mut report = (**s.report.as_ref().expect("report")).clone();
        let twin = report.issues[0].clone();
        report.issues.insert(1, twin);
        let mut s = (*s).clone();
        s.report = Some(Rc::new(report));
        let s = step(Rc::new(s), Action::Select(1));
        assert_eq!(s.selected_index(), Some(1));
        let s = step(s, Action::Select(0));
        assert_eq!(s.selected_index(), Some(0));
        let s = step(s, Action::Select(0));
        assert_eq!(s.selected_index(), None, "clicking again closes it");
    }

    #[test]
    fn loading_replaces_text_and_audits_at_once() {
        let s = start();
        let s = step(s, Action::Select(0));
        let s = step(
            s,
            Action::Load {
                name: "fixed.json".into(),
                text: isolint_core::WORKSHOP_PROFILE_FIXED.into(),
                lesson: Some("fixed"),
            },
        );
        assert!(s.is_current());
        assert_eq!(&*s.source_name, "fixed.json");
        assert_eq!(s.lesson, Some("fixed"));
        assert_eq!(s.selected, None);
        assert_eq!(
            s.report.as_ref().map(|r| r.profile.source.as_str()),
            Some("fixed.json")
        );
    }

    #[test]
    fn files_must_be_utf8_and_within_the_size_limit() {
        let s = start();
        let text_before = Rc::clone(&s.text);
        let s = step(
            s,
            Action::LoadFile {
                name: "bad.json".into(),
                bytes: vec![b'{', 0xff, b'}'],
            },
        );
        let status = s.status.clone().expect("status");
        assert!(status.error);
        assert!(
            status.text.contains("bad.json") && status.text.contains("UTF-8"),
            "{}",
            status.text
        );
        assert_eq!(s.text, text_before, "the editor keeps its text");
        let s = step(
            s,
            Action::LoadFile {
                name: "huge.json".into(),
                bytes: vec![b' '; Limits::default().max_bytes + 1],
            },
        );
        assert!(s
            .status
            .as_ref()
            .is_some_and(|st| st.error && st.text.contains("limit")));
        let s = step(
            s,
            Action::LoadFile {
                name: "mine.json".into(),
                bytes: isolint_core::WORKSHOP_PROFILE_FIXED.as_bytes().to_vec(),
            },
        );
        assert_eq!(&*s.text, isolint_core::WORKSHOP_PROFILE_FIXED);
        assert_eq!(&*s.source_name, "mine.json");
        assert!(s.status.as_ref().is_some_and(|st| !st.error));
    }

    #[test]
    fn a_bad_catalog_is_refused_with_its_position_and_the_old_one_kept() {
        let s = start();
        let sha = s.labels.sha256.clone();
        let s = step(
            s,
            Action::LoadCatalog {
                name: "labels.json".into(),
                bytes: b"{\n  \"schema\": \"isolint.labels/v1\",\n  \"labels\": [ }".to_vec(),
            },
        );
        let err = s.catalog_error.clone().expect("catalog error");
        assert!(err.contains("labels.json"), "{err}");
        assert!(err.contains("line 3, column "), "error names line 3: {err}");
        assert_eq!(s.catalog, CatalogChoice::Workshop);
        assert_eq!(s.labels.sha256, sha);
        let s = step(s, Action::DismissCatalogError);
        assert_eq!(s.catalog_error, None);
    }

    #[test]
    fn catalog_problems_are_each_located() {
        let s = start();
        let bytes = b"{\n  \"schema\": \"isolint.labels/v1\",\n  \"name\": \"x\",\n  \"labels\": [ { \"path\": \"/a\", \"lable\": \"scratch\" } ]\n}";
        let s = step(
            s,
            Action::LoadCatalog {
                name: "typo.json".into(),
                bytes: bytes.to_vec(),
            },
        );
        let err = s.catalog_error.clone().expect("refused");
        assert!(err.contains("line 4, column "), "{err}");
        assert!(err.contains("lable"), "names the bad field: {err}");
    }

    #[test]
    fn a_loaded_catalog_changes_the_audit_and_can_be_dropped_again() {
        let s = start();
        // A catalog that labels nothing: every mount becomes unlabelled.
        let catalog = br#"{ "schema": "isolint.labels/v1", "name": "empty-room", "labels": [] }"#;
        let s = step(
            s,
            Action::LoadCatalog {
                name: "empty.json".into(),
                bytes: catalog.to_vec(),
            },
        );
        assert_eq!(s.catalog_error, None);
        assert_eq!(
            s.catalog,
            CatalogChoice::Loaded {
                file: "empty.json".into()
            }
        );
        let report = s.report.as_ref().expect("report");
        assert_eq!(report.labels_name, "empty-room");
        assert!(report.mounts.iter().any(|m| m.label == "unlabelled"));
        assert!(s.catalog_label().contains("empty-room"));
        let s = step(s, Action::UseWorkshopCatalog);
        assert_eq!(s.catalog, CatalogChoice::Workshop);
        assert_eq!(s.report.as_ref().expect("report").labels_name, "workshop");
    }

    #[test]
    fn line_marks_keep_the_worst_severity_per_line() {
        let s = start();
        let marks = s.line_marks();
        assert!(!marks.is_empty());
        let report = s.report.as_ref().expect("report");
        for (line, worst) in &marks {
            let on_line: Vec<Severity> = report
                .issues
                .iter()
                .filter(|f| f.line == Some(*line))
                .map(|f| f.severity)
                .collect();
            assert_eq!(on_line.iter().min(), Some(worst));
        }
        assert!(
            marks.windows(2).all(|w| w[0].0 < w[1].0),
            "one mark per line, sorted"
        );
    }

    #[test]
    fn a_made_link_stays_shown_across_edits() {
        let s = start();
        assert_eq!(s.share_link, None);
        let s = step(s, Action::ShowLink("http://x/#profile=abc".into()));
        let s = step(s, Action::Edit("{}".into()));
        assert_eq!(s.share_link.as_deref(), Some("http://x/#profile=abc"));
    }

    #[test]
    fn identical_edits_and_idle_dismissals_do_not_rerender() {
        let s = start();
        let before = Rc::clone(&s);
        let s = step(s, Action::Edit(isolint_core::WORKSHOP_PROFILE.into()));
        assert!(Rc::ptr_eq(&before, &s));
        let s = step(s, Action::DismissStatus);
        assert!(Rc::ptr_eq(&before, &s));
        let s = step(s, Action::UseWorkshopCatalog);
        assert!(Rc::ptr_eq(&before, &s));
        let s = step(s, Action::Notify(Status::info("link copied")));
        assert_eq!(
            s.status.as_ref().map(|st| st.text.as_str()),
            Some("link copied")
        );
        let s = step(s, Action::DismissStatus);
        assert_eq!(s.status, None);
    }

    #[test]
    fn audit_time_is_shown_in_milliseconds_with_three_decimals() {
        let t = |ms| {
            AuditTiming {
                last_ms: ms,
                count: 1,
            }
            .last_ms_text()
        };
        assert_eq!(t(1.2345), "1.235");
        assert_eq!(t(0.0), "0.000");
        assert_eq!(t(12.0), "12.000");
        assert_eq!(t(0.0004), "0.000");
        assert_eq!(t(f64::NAN), "0.000");
        assert_eq!(t(-3.0), "0.000");
    }

    #[test]
    fn the_audit_date_reaches_core() {
        // Same text, same catalog, same date: same export as core computes.
        let s = start();
        let direct = audit(
            isolint_core::WORKSHOP_PROFILE.as_bytes(),
            WORKSHOP_SOURCE,
            &Labels::workshop(),
            &AuditOptions { today: today() },
        )
        .expect("readable");
        let page = s.current_report().expect("report");
        assert_eq!(
            isolint_core::render::json::render(page),
            isolint_core::render::json::render(&direct)
        );
    }
}
