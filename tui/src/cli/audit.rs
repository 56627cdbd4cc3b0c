//! `isolint audit`: read, audit in parallel, render in argument order.

use crate::pool::Pool;
use std::io::{self, IsTerminal, Write};
use std::path::Path;

use isolint_core::model::StringEnum;
use isolint_core::render::frame::{self, Frame};
use isolint_core::render::text::TextOptions;
use isolint_core::render::{github, json, markdown, sarif, text};
use isolint_core::report::NotAudited;
use isolint_core::sanitize::neutralize;
use isolint_core::{
    baseline, rules, waivers, AuditOptions, Detail, Labels, Report, Severity, Verdict,
};
use rayon::prelude::*;

use crate::files::input::{self, Failure};
use crate::files::{atomic, today};

use super::{
    output, AuditArgs, ColorChoice, ReportFormat, WaiveArgs, EXIT_ERROR, EXIT_NOT_ELIGIBLE, EXIT_OK,
};

/// The exit status for a set of results: 2 when anything could not be
/// read, else 1 when any profile is not eligible, else 0.
/// A profile name as a reviewer reads it: in lower case, without the
/// characters that draw nothing (`sanitize::is_invisible`) or only mark
/// the letter before them (the combining diacritical blocks). Two names
/// with one such form look alike on a screen.
fn lookalike(name: &str) -> String {
    // Report names come neutralized: `\u{200b}` stands for the character.
    let mut chars = Vec::new();
    let mut rest = name;
    while let Some(c) = rest.chars().next() {
        let escaped = rest
            .strip_prefix("\\u{")
            .and_then(|r| r.split_once('}'))
            .and_then(|(hex, after)| {
                let c = char::from_u32(u32::from_str_radix(hex, 16).ok()?)?;
                Some((c, after))
            });
        match escaped {
            Some((c, after)) => {
                chars.push(c);
                rest = after;
            }
            None => {
                chars.push(c);
                rest = &rest[c.len_utf8()..];
            }
        }
    }
    chars
        .into_iter()
        .filter(|c| !isolint_core::sanitize::is_invisible(*c) && !is_combining(*c))
        .flat_map(char::to_lowercase)
        .collect()
}

/// `name` neutralized, and with every character that draws nothing or
/// only marks another written as `\u{..}`: the difference between two
/// look-alike names is what must be seen.
fn show_unseen(name: &str) -> String {
    neutralize(name)
        .chars()
        .map(|c| {
            if isolint_core::sanitize::is_invisible(c) || is_combining(c) {
                format!("\\u{{{:x}}}", c as u32)
            } else {
                c.to_string()
            }
        })
        .collect()
}

/// A combining mark of the combining diacritical blocks: it draws only
/// over the letter before it.
fn is_combining(c: char) -> bool {
    matches!(c,
        '\u{0300}'..='\u{036F}'
        | '\u{1AB0}'..='\u{1AFF}'
        | '\u{1DC0}'..='\u{1DFF}'
        | '\u{20D0}'..='\u{20FF}'
        | '\u{FE20}'..='\u{FE2F}')
}

pub fn exit_code(reports: &[Report], failed: bool) -> u8 {
    gate(reports, failed, None, false)
}

/// The exit status with an optional `--fail-on` threshold: 2 when anything
/// could not be read; else, with a threshold, 1 when any non-waived finding
/// is at or above it (only findings marked `new` when `new_only`, i.e. with
/// `--baseline`), whatever the verdict; without one, the verdicts decide.
pub fn gate(reports: &[Report], failed: bool, fail_on: Option<Severity>, new_only: bool) -> u8 {
    let mut gate = Gate::new(fail_on, new_only);
    reports.iter().for_each(|r| gate.add(r));
    match () {
        _ if failed => EXIT_ERROR,
        _ if gate.failing => EXIT_NOT_ELIGIBLE,
        _ => EXIT_OK,
    }
}

/// [`gate`] one report at a time.
struct Gate {
    fail_on: Option<Severity>,
    new_only: bool,
    failing: bool,
}

impl Gate {
    fn new(fail_on: Option<Severity>, new_only: bool) -> Gate {
        Gate {
            fail_on,
            new_only,
            failing: false,
        }
    }

    fn add(&mut self, r: &Report) {
        self.failing |= match self.fail_on {
            Some(min) => r.issues.iter().any(|f| {
                f.waived.is_none()
                    && f.severity.at_least(min)
                    && (!self.new_only || f.baseline == Some("new"))
            }),
            None => r.verdict == Verdict::NotEligible,
        };
    }
}

fn use_color(choice: ColorChoice, to_stdout: bool) -> bool {
    match choice {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => {
            to_stdout && std::io::stdout().is_terminal() && !output::color_disabled_by_env()
        }
    }
}

/// How a format lays out several reports: the frame around the pieces and
/// how one report becomes a piece. `array` chooses the JSON shape: a single
/// document for one profile, an array otherwise.
#[derive(Debug, Clone, Copy)]
struct Layout {
    format: ReportFormat,
    array: bool,
    color: bool,
}

/// One report as a JSON Lines record, in parts of about a mebibyte: a
/// record of a hundred megabytes is never one growing buffer (whose
/// doubling would hold it twice over while it is copied).
fn jsonl_parts(r: &Report) -> Vec<String> {
    let mut out = Chunks::default();
    if serde_json::to_writer(&mut out, &json::export(r)).is_err() {
        // Writing into memory cannot fail, and the export has no map with
        // non-string keys; a record that could not be written is not
        // half-written.
        return vec![String::from("{}\n")];
    }
    out.cur.push(b'\n');
    out.cut(0);
    out.parts
}

/// Bytes gathered into strings of at least [`Chunks::SIZE`], each cut
/// where a character starts.
#[derive(Default)]
struct Chunks {
    parts: Vec<String>,
    cur: Vec<u8>,
}

impl Chunks {
    const SIZE: usize = 1 << 20;

    /// Moves what is gathered into parts of about `size` bytes each, cut
    /// where a character starts, keeping the rest; `0` moves it all.
    fn cut(&mut self, size: usize) {
        if size == 0 {
            if !self.cur.is_empty() {
                let all = std::mem::take(&mut self.cur);
                self.parts.push(Self::text(&all));
            }
            return;
        }
        if self.cur.len() <= size {
            return;
        }
        let all = std::mem::take(&mut self.cur);
        let mut start = 0;
        while all.len() - start > size {
            let mut end = start + size;
            // serde_json writes whole characters, but a write may hold
            // many: never cut inside one.
            while end > start && all[end] & 0xC0 == 0x80 {
                end -= 1;
            }
            self.parts.push(Self::text(&all[start..end]));
            start = end;
        }
        self.cur = all[start..].to_vec();
    }

    fn text(bytes: &[u8]) -> String {
        String::from_utf8_lossy(bytes).into_owned()
    }
}

impl Write for Chunks {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.cur.extend_from_slice(buf);
        self.cut(Self::SIZE);
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// Text reports are separated by a blank line; the tally comes after.
const TEXT: Frame = Frame {
    open: "",
    sep: "\n",
    close: "",
    empty: "",
};

impl Layout {
    fn frame(self) -> Frame {
        match self.format {
            ReportFormat::Json if self.array => frame::JSON_ARRAY,
            ReportFormat::Json
            | ReportFormat::Jsonl
            | ReportFormat::Markdown
            | ReportFormat::Github => frame::CONCAT,
            ReportFormat::Sarif => frame::SARIF_LOG,
            ReportFormat::Text => TEXT,
        }
    }

    /// A report's text, in parts written one after the other (a large
    /// JSON export's pieces are not joined first).
    fn piece(self, r: &Report) -> Vec<String> {
        let one = match self.format {
            ReportFormat::Json if self.array => return json::element_parts(r, &Pool),
            ReportFormat::Json => return json::render_parts(r, &Pool),
            ReportFormat::Jsonl => return jsonl_parts(r),
            ReportFormat::Sarif => return sarif::element_parts(r, &Pool),
            ReportFormat::Markdown => markdown::render(r),
            ReportFormat::Github => github::render(r),
            ReportFormat::Text => text::render(r, TextOptions { color: self.color }),
        };
        vec![one]
    }

    /// The last element of the frame, for the entries a directory run
    /// passed over: SARIF's own place for what a tool did not analyse.
    fn not_audited(self, entries: &[NotAudited]) -> Option<String> {
        match self.format {
            ReportFormat::Sarif => sarif::not_audited_run(entries),
            _ => None,
        }
    }

    /// What follows the frame: the text format's tally of several results
    /// (or of one, beside entries not audited), Markdown's and GitHub's
    /// list of what was not audited. JSON and JSON Lines hold exports only
    /// (the verifier reads each as one); for them stderr names the entries.
    fn tally(
        self,
        reports: usize,
        eligible: usize,
        failures: usize,
        not_audited: &[NotAudited],
    ) -> String {
        match self.format {
            ReportFormat::Markdown => return markdown::not_audited(not_audited),
            ReportFormat::Github => return github::not_audited(not_audited),
            ReportFormat::Text => {}
            _ => return String::new(),
        }
        if reports + failures <= 1 && not_audited.is_empty() {
            return String::new();
        }
        let mut out = format!(
            "\naudited {}: {eligible} eligible for runtime testing, {} not eligible",
            isolint_core::text::plural(reports, "profile"),
            reports - eligible
        );
        if failures > 0 {
            out.push_str(&format!("; {failures} could not be read"));
        }
        if !not_audited.is_empty() {
            out.push_str(&format!(
                "; skipped {} (not audited, listed on stderr)",
                not_audited.len()
            ));
        }
        out.push('\n');
        out
    }
}

/// Render the reports as one document, exactly as `isolint audit` writes
/// them piece by piece.
#[cfg(test)]
fn render(
    reports: &[Report],
    format: ReportFormat,
    array: bool,
    color: bool,
    failures: usize,
) -> String {
    let layout = Layout {
        format,
        array,
        color,
    };
    let eligible = reports
        .iter()
        .filter(|r| r.verdict == Verdict::EligibleForRuntimeTesting)
        .count();
    let mut out = layout
        .frame()
        .assemble(reports.iter().map(|r| layout.piece(r).concat()));
    out.push_str(&layout.tally(reports.len(), eligible, failures, &[]));
    out
}

/// How many inputs are audited at once before their output is written:
/// memory stays bounded on large directories, and output keeps argument
/// order.
const CHUNK: usize = 128;

/// One input, audited and rendered by a worker.
struct Done {
    /// How the pieces were rendered; the first one fixes the frame.
    layout: Layout,
    pieces: Vec<Piece>,
    notes: Vec<String>,
    eligible: usize,
    failing: bool,
}

/// One report's text in the document.
enum Piece {
    /// Rendered by the worker that audited it, in parts.
    Parts(Vec<String>),
    /// A report rendered as it is written: a JSON export's first pieces go
    /// to the file while the rest are still being rendered, and a file of
    /// many profiles never holds the text of all of them at once. Only for
    /// a single input, whose reports the process never frees (it ends
    /// next).
    Streamed(Box<Report>),
}

/// Where the document goes, opened when its first piece is ready so that
/// nothing is written when no input could be read.
enum Sink {
    Stdout(io::BufWriter<io::Stdout>),
    /// The reader of stdout went away (`isolint … | head`): not an error.
    Closed,
    File(Box<atomic::AtomicFile>),
}

impl Sink {
    fn open(path: Option<&Path>) -> io::Result<Sink> {
        Ok(match path {
            Some(p) => Sink::File(Box::new(atomic::AtomicFile::create(p)?)),
            None => Sink::Stdout(io::BufWriter::with_capacity(1 << 16, io::stdout())),
        })
    }

    fn write(&mut self, text: &str) -> io::Result<()> {
        let result = match self {
            Sink::Stdout(w) => w.write_all(text.as_bytes()),
            Sink::Closed => Ok(()),
            Sink::File(f) => f.write_all(text.as_bytes()),
        };
        self.pipe_closed(result)
    }

    fn finish(self) -> io::Result<()> {
        match self {
            Sink::Stdout(mut w) => {
                let flushed = w.flush();
                Sink::Closed.pipe_closed(flushed)
            }
            Sink::Closed => Ok(()),
            Sink::File(f) => f.commit(),
        }
    }

    fn pipe_closed(&mut self, result: io::Result<()>) -> io::Result<()> {
        match result {
            Err(e) if e.kind() == io::ErrorKind::BrokenPipe && !matches!(self, Sink::File(_)) => {
                *self = Sink::Closed;
                Ok(())
            }
            other => other,
        }
    }
}

/// The document being written, and the tallies of what went into it.
struct Document<'p> {
    output: Option<&'p Path>,
    sink: Option<Sink>,
    frame: Frame,
    reports: usize,
    eligible: usize,
    failures: usize,
    failing: bool,
}

impl Document<'_> {
    /// Write a chunk's results in order: messages on stderr, pieces into
    /// the document (opened with the first piece, which fixes its shape).
    fn write(&mut self, results: Vec<Result<Done, Failure>>) -> io::Result<()> {
        for result in results {
            let done = match result {
                Ok(done) => done,
                Err(f) => {
                    self.failures += 1;
                    output::error(&f.to_string());
                    continue;
                }
            };
            for n in &done.notes {
                output::remark(n);
            }
            self.failing |= done.failing;
            self.eligible += done.eligible;
            for piece in done.pieces {
                let out = match &mut self.sink {
                    Some(out) => {
                        out.write(self.frame.sep)?;
                        out
                    }
                    None => {
                        self.frame = done.layout.frame();
                        let out = self.sink.insert(Sink::open(self.output)?);
                        out.write(self.frame.open)?;
                        out
                    }
                };
                match piece {
                    Piece::Parts(parts) => {
                        for part in &parts {
                            out.write(part)?;
                        }
                    }
                    Piece::Streamed(report) if done.layout.format == ReportFormat::Json => {
                        let mut written = Ok(());
                        json::render_to(&report, done.layout.array, &Pool, &mut |part| {
                            if written.is_ok() {
                                written = out.write(&part);
                            }
                        });
                        written?;
                        // One input: the OS takes the memory back at exit.
                        std::mem::forget(report);
                    }
                    Piece::Streamed(report) => {
                        for part in &done.layout.piece(&report) {
                            out.write(part)?;
                        }
                        // One input: the OS takes the memory back at exit.
                        std::mem::forget(report);
                    }
                }
                self.reports += 1;
            }
        }
        Ok(())
    }

    /// End the document (when anything was written) with `last` as its
    /// final element, then `tail` after the frame.
    fn close(&mut self, last: Option<String>, tail: &str) -> io::Result<()> {
        match &mut self.sink {
            Some(out) => {
                if let Some(last) = last {
                    out.write(self.frame.sep)?;
                    out.write(&last)?;
                }
                out.write(self.frame.close)?;
                out.write(tail)
            }
            None => Ok(()),
        }
    }
}

/// `isolint audit`: what the arguments ask for ([`output_path`]), which
/// inputs that is ([`inputs`]), what every audit of the run shares
/// ([`Setup::load`]), each input audited ([`Setup::audit_one`]), the
/// document written in argument order ([`write_document`]), and the exit
/// code with the run's closing remarks ([`finish`]).
pub fn run(args: &AuditArgs) -> u8 {
    let mut cx = args.context.context();
    let options = AuditOptions {
        today: args.today.or_else(today::utc_today),
    };
    let output = match output_path(args) {
        Ok(o) => o,
        Err(code) => return code,
    };
    let (expanded, not_audited) = match inputs(args, output) {
        Ok(i) => i,
        Err(code) => return code,
    };
    let (setup, early) = match Setup::load(args, &mut cx, &expanded, options, output) {
        Ok(s) => s,
        Err(code) => return code,
    };
    let early = std::sync::Mutex::new(early);
    let audit_one = |job: Result<input::Input, Failure>| setup.audit_one(job, &early);
    let mut doc = Document {
        output,
        sink: None,
        frame: frame::CONCAT,
        reports: 0,
        eligible: 0,
        failures: 0,
        failing: false,
    };
    let written = write_document(&mut doc, expanded.jobs, setup.many_inputs, &audit_one);
    let written = written.and_then(|()| {
        let layout = Layout {
            format: args.format,
            array: true,
            color: setup.color,
        };
        let tally = layout.tally(doc.reports, doc.eligible, doc.failures, &not_audited);
        doc.close(layout.not_audited(&not_audited), &tally)
    });
    finish(args, setup, doc, written)
}

/// `--output` as the run writes it (`-`, like no `--output`, is stdout:
/// `None`); refused (exit 2) when it names one of the run's own inputs.
fn output_path(args: &AuditArgs) -> Result<Option<&Path>, u8> {
    let output = args.output.as_deref().filter(|p| p.as_os_str() != "-");
    // A profile named as its own output would be replaced by its report.
    if let Some(out) = output {
        let own = args
            .profiles
            .iter()
            .find(|p| p.as_os_str() != "-" && atomic::same_file(p, out));
        if let Some(p) = own {
            output::error(&format!(
                "{}: is also the --output file, which the report would replace; \
                 write the report elsewhere",
                input::display(p)
            ));
            return Err(EXIT_ERROR);
        }
        // The operator's own inputs are never the report's destination.
        let inputs = [
            ("--labels file", args.labels.as_deref()),
            ("--waivers file", args.waivers.as_deref()),
            ("--baseline file", args.baseline.as_deref()),
            ("--runner file", args.runner.as_deref()),
        ];
        if let Err(e) = output::refuse_inputs(out, "--output", &inputs) {
            output::error(&e);
            return Err(EXIT_ERROR);
        }
        atomic::remove_temporaries_on_interrupt();
    }
    Ok(output)
}

/// The arguments expanded into inputs, and every directory entry passed
/// over, each named on stderr here and later in the summary. A profile
/// that is the `--output` file is refused (exit 2): it would go unaudited
/// and then be replaced.
fn inputs(
    args: &AuditArgs,
    output: Option<&Path>,
) -> Result<(input::Expanded, Vec<NotAudited>), u8> {
    let expanded = input::expand_detecting(
        &args.profiles,
        args.from.extensions(),
        output,
        args.from == input::Reading::Auto,
    );
    let mut not_audited: Vec<NotAudited> = expanded
        .not_audited
        .iter()
        .map(|(p, why)| NotAudited {
            source: input::source_name(p),
            reason: why.clone(),
        })
        .collect();
    for p in &expanded.skipped {
        // Only a report may be passed over: a profile named as the output
        // would otherwise go unaudited and then be replaced.
        match std::fs::read(p) {
            Ok(bytes) if output::is_isolint_report(&bytes) => not_audited.push(NotAudited {
                source: input::source_name(p),
                reason: "it is the --output file (a report an earlier run wrote)".into(),
            }),
            Ok(_) => {
                output::error(&format!(
                    "{}: is the --output file but not an isolint report; it would go unaudited \
                     and then be replaced: write the report elsewhere",
                    input::display(p)
                ));
                return Err(EXIT_ERROR);
            }
            Err(e) => {
                output::error(&format!(
                    "{}: is the --output file and cannot be read: {e}",
                    input::display(p)
                ));
                return Err(EXIT_ERROR);
            }
        }
    }
    // Listing order is the file system's: sorted, the notes and summaries
    // are the same on every run.
    not_audited.sort_by(|a, b| a.source.cmp(&b.source));
    for e in &not_audited {
        output::remark(&format!(
            "{}: not audited: {}",
            neutralize(&e.source),
            neutralize(&e.reason)
        ));
    }
    if !not_audited.is_empty() {
        output::remark(&format!(
            "{} director{} not audited (listed above)",
            not_audited.len(),
            if not_audited.len() == 1 {
                "y entry was"
            } else {
                "y entries were"
            }
        ));
    }
    Ok((expanded, not_audited))
}

/// A read begun while the catalog loaded (see [`Setup::load`]).
type Early = Option<Result<input::ReadInput, Failure>>;

/// What every audit of the run shares: the catalog, the context (overlay
/// and companions), waivers, baseline, and how reports are laid out; and
/// what the audits learn together (the profiles seen, for the baseline
/// and for names that look alike).
struct Setup<'a> {
    args: &'a AuditArgs,
    cx: &'a crate::files::runner::RunContext,
    options: AuditOptions,
    labels: Labels,
    waivers: Option<(
        Vec<isolint_core::waivers::Waiver>,
        isolint_core::waivers::WaiversSource,
    )>,
    baseline: Option<Vec<isolint_core::render::json::Export>>,
    color: bool,
    fail_on: Option<Severity>,
    /// One document for one profile; an array whenever the invocation can
    /// yield several (several arguments, a directory, a file describing
    /// several containers or services), so its shape is predictable. With
    /// a single input there is a single job, so its own count decides.
    many_inputs: bool,
    /// The exports hold findings, checks and digests only; the text
    /// report quotes the (masked) source, and waivers look at the mount
    /// table.
    detail: Detail,
    /// Which profiles this run audited, to name the baseline's others.
    audited_ids: std::sync::Mutex<std::collections::BTreeSet<(String, String)>>,
    /// By the name as a reviewer reads it ([`lookalike`]): the paths and
    /// exact names seen.
    run_names: std::sync::Mutex<
        std::collections::BTreeMap<String, std::collections::BTreeSet<(String, String)>>,
    >,
    ambiguous: std::sync::atomic::AtomicBool,
    /// Many inputs: one memo of what the run's strings hold per pool
    /// thread (and one for a caller outside the pool), so each thread
    /// reads a string the run repeats once, and no lock is waited on.
    memos: Vec<std::sync::Arc<std::sync::Mutex<isolint_core::secrets::Memo>>>,
}

impl<'a> Setup<'a> {
    /// Load what the run shares, in the order its errors are said: the
    /// catalog, the runner overlay, the companions, waivers, baseline.
    /// Exit 2 on the first that cannot be used.
    fn load(
        args: &'a AuditArgs,
        cx: &'a mut crate::files::runner::RunContext,
        expanded: &input::Expanded,
        options: AuditOptions,
        output: Option<&Path>,
    ) -> Result<(Setup<'a>, Early), u8> {
        // One profile file with a catalog of its own: the profile is read,
        // parsed and decoded while the catalog loads (each is a third of a
        // large audit).
        // Only a file: a read of stdin could wait on a terminal while the
        // catalog's error is ready to be said.
        let mut early = None;
        let labels = match (&expanded.jobs[..], args.labels.as_deref()) {
            (
                [Ok(
                    job @ input::Input {
                        origin: input::Origin::File(_),
                        ..
                    },
                )],
                Some(path),
            ) => {
                let (labels, read) = rayon::join(
                    || load_labels(Some(path)),
                    || input::read_input(job, args.from, true),
                );
                early = Some(read);
                labels
            }
            _ => load_labels(args.labels.as_deref()),
        }?;
        super::load_runner(cx, args.runner.as_deref())?;
        // Several inputs: Kubernetes cluster objects in one file apply to the
        // workloads of the others (a lone policy file is still an error).
        if expanded.jobs.len() > 1 {
            cx.collect_companions(expanded.jobs.iter().filter_map(|j| match j {
                Ok(input::Input {
                    origin: input::Origin::File(p),
                    name,
                }) => Some((name.as_str(), p.as_path())),
                _ => None,
            }));
        }
        let waivers = match &args.waivers {
            Some(path) => match input::load_waivers(path) {
                Ok(w) => Some(w),
                Err(failures) => {
                    for f in &failures {
                        output::error(&f.to_string());
                    }
                    return Err(EXIT_ERROR);
                }
            },
            None => None,
        };
        let baseline = match &args.baseline {
            Some(path) => match input::load_baseline(path) {
                Ok(b) => Some(b),
                Err(f) => {
                    output::error(&f.to_string());
                    return Err(EXIT_ERROR);
                }
            },
            None => None,
        };
        let detail = match args.format {
            ReportFormat::Text => Detail::Full,
            _ if waivers.is_some() => Detail::Full,
            _ => Detail::Findings,
        };
        let many_inputs = expanded.directory || args.profiles.len() > 1;
        let memos = if many_inputs {
            (0..=rayon::current_num_threads())
                .map(|_| Default::default())
                .collect()
        } else {
            Vec::new()
        };
        let setup = Setup {
            args,
            cx,
            options,
            labels,
            waivers,
            baseline,
            color: use_color(args.color, output.is_none()),
            fail_on: args.fail_on.map(|f| f.severity()),
            many_inputs,
            detail,
            audited_ids: Default::default(),
            run_names: Default::default(),
            ambiguous: Default::default(),
            memos,
        };
        Ok((setup, early))
    }

    /// This thread's memo, when the run keeps them.
    fn memo(&self) -> Option<&std::sync::Arc<std::sync::Mutex<isolint_core::secrets::Memo>>> {
        let i = rayon::current_thread_index().unwrap_or(self.memos.len().saturating_sub(1));
        self.memos.get(i).or(self.memos.last())
    }

    /// Read and audit one input, apply waivers and baseline, and render
    /// its reports: what a worker does for each input.
    fn audit_one(
        &self,
        job: Result<input::Input, Failure>,
        early: &std::sync::Mutex<Early>,
    ) -> Result<Done, Failure> {
        let args = self.args;
        let read = early.lock().ok().and_then(|mut e| e.take());
        let job_origin = job.as_ref().ok().map(|i| i.origin.clone());
        let mut audited = job.and_then(|inp| {
            let name = inp.name.clone();
            let read = match read {
                Some(read) => read?,
                None => input::read_input(&inp, args.from, false)?,
            };
            let audited = input::audit_read(
                self.cx,
                &inp,
                read,
                &self.labels,
                &self.options,
                self.detail,
                self.memo(),
            )?;
            // The shape of `--format json` follows the command line: one
            // file argument is one document, so a file describing several
            // profiles cannot be written as one and is refused, not
            // silently turned into an array.
            if args.format == ReportFormat::Json && !self.many_inputs && audited.reports.len() != 1
            {
                return Err(Failure::new(
                    &name,
                    format!(
                        "describes {} profiles; --format json writes one document for one file \
argument: use --format jsonl, or name the file's directory (an array)",
                        audited.reports.len()
                    ),
                ));
            }
            Ok(audited)
        })?;
        for report in &mut audited.reports {
            if let Some((list, source)) = &self.waivers {
                let profile = match &job_origin {
                    Some(input::Origin::File(p)) => Some(p.as_path()),
                    _ => None,
                };
                let linked = input::linked_waivers_device(source);
                let host = |m: &isolint_core::report::MountRow| {
                    input::waivers_host_path(profile, m, linked)
                };
                waivers::apply_resolved(report, list, self.options.today, source, &host);
            }
            if let Some(old) = &self.baseline {
                baseline::apply(report, old);
            }
            self.note_name(report);
        }
        let layout = Layout {
            format: args.format,
            array: self.many_inputs,
            color: self.color,
        };
        let mut gate = Gate::new(self.fail_on, self.baseline.is_some());
        audited.reports.iter().for_each(|r| gate.add(r));
        // Counted before a streamed report is moved into its piece.
        let eligible = audited
            .reports
            .iter()
            .filter(|r| r.verdict == Verdict::EligibleForRuntimeTesting)
            .count();
        // One input's reports are rendered as they are written (see `Piece`).
        let stream = !self.many_inputs;
        let done = Done {
            layout,
            pieces: if stream {
                audited
                    .reports
                    .drain(..)
                    .map(|r| Piece::Streamed(Box::new(r)))
                    .collect()
            } else {
                audited
                    .reports
                    .iter()
                    .map(|r| Piece::Parts(layout.piece(r)))
                    .collect()
            },
            notes: std::mem::take(&mut audited.notes),
            eligible,
            failing: gate.failing,
        };
        if !self.many_inputs {
            // One input: the process ends once its text is written, and
            // the OS takes the report's memory back at once, where freeing
            // a large report piece by piece is work nobody waits for.
            // Directory mode frees each chunk, so its memory stays bounded.
            std::mem::forget(audited);
        }
        Ok(done)
    }

    /// Record the profile `report` audited: two profiles of one name are
    /// said, and where baselines or waivers could not tell them apart, the
    /// run cannot pass.
    fn note_name(&self, report: &Report) {
        let id = baseline::identity(&report.profile.source, &report.profile.name);
        if let Ok(mut names) = self.run_names.lock() {
            let name = &report.profile.name;
            let seen = names.entry(lookalike(name)).or_default();
            if seen.contains(&(id.0.clone(), name.clone())) {
                if self.baseline.is_some() || self.waivers.is_some() {
                    output::error(&format!(
                        "{}: two profiles named `{}`: the baseline and waivers cannot tell them apart; rename one",
                        neutralize(&id.0),
                        neutralize(name)
                    ));
                    self.ambiguous
                        .store(true, std::sync::atomic::Ordering::Relaxed);
                }
            } else if let Some((first, other)) = seen.iter().next() {
                output::remark(&if other == name {
                    format!(
                        "{} and {} are both named `{}`: baselines and waivers tell them apart by path",
                        neutralize(first),
                        neutralize(&id.0),
                        neutralize(name)
                    )
                } else {
                    format!(
                        "{} and {} have names that look alike (`{}` and `{}`): baselines and waivers tell them apart by path",
                        neutralize(first),
                        neutralize(&id.0),
                        show_unseen(other),
                        show_unseen(name)
                    )
                });
            }
            seen.insert((id.0.clone(), name.clone()));
        }
        if self.baseline.is_some() {
            if let Ok(mut seen) = self.audited_ids.lock() {
                seen.insert(id);
            }
        }
    }
}

/// Audit `jobs` in chunks and write each chunk's results in argument
/// order: chunk k is written while chunk k + 1 is audited.
fn write_document(
    doc: &mut Document<'_>,
    jobs: Vec<Result<input::Input, Failure>>,
    many_inputs: bool,
    audit_one: &(dyn Fn(Result<input::Input, Failure>) -> Result<Done, Failure> + Sync),
) -> io::Result<()> {
    let audit_chunk = |chunk: Vec<_>| -> Vec<Result<Done, Failure>> {
        // One input needs no thread pool (nor the memory of one).
        if chunk.len() == 1 {
            chunk.into_iter().map(audit_one).collect()
        } else {
            chunk
                .into_par_iter()
                .with_max_len(1)
                .map(audit_one)
                .collect()
        }
    };
    let mut jobs = jobs.into_iter();
    let mut write_all = || -> io::Result<()> {
        // The writing thread takes part in the audit once it is done.
        let mut pending = Vec::new();
        loop {
            let chunk: Vec<_> = jobs.by_ref().take(CHUNK).collect();
            if chunk.is_empty() {
                return doc.write(pending);
            }
            pending = if pending.is_empty() {
                audit_chunk(chunk)
            } else {
                let ready = std::mem::take(&mut pending);
                let (written, next) = rayon::join(|| doc.write(ready), || audit_chunk(chunk));
                written?;
                next
            };
        }
    };
    // Many inputs: the loop itself runs on one of the pool's threads, so
    // that between two chunks no thread outside the pool has to be woken
    // to start the next one: such hand-overs leave both pool threads
    // asleep until the outside thread is scheduled again.
    if many_inputs {
        rayon::scope(|_| write_all())
    } else {
        write_all()
    }
}

/// The run's closing remarks (the baseline's entries nothing matched),
/// the document committed, and the exit code: 2 when an input failed or
/// two profiles could not be told apart, or nothing could be written;
/// else 1 when a profile fails the gate; else 0.
fn finish(args: &AuditArgs, setup: Setup<'_>, doc: Document<'_>, written: io::Result<()>) -> u8 {
    let Document {
        sink,
        reports,
        failures,
        failing,
        output,
        ..
    } = doc;
    if let Some(old) = &setup.baseline {
        let undigested = baseline::undigested(old);
        if undigested > 0 {
            let (n, verb) = match undigested {
                1 => ("1 entry".to_string(), "records"),
                n => (format!("{n} entries"), "record"),
            };
            output::remark(&format!(
                "baseline: {n} {verb} no digest of the value accepted (an export of an \
                 earlier isolint), so they match no finding and come back new; export \
                 the baseline again"
            ));
        }
    }
    if let (Some(old), Ok(seen)) = (&setup.baseline, setup.audited_ids.lock()) {
        for e in baseline::unmatched(old, &seen) {
            output::remark(&format!(
                "baseline: `{}` ({}) matches no audited profile: its file is gone, was renamed \
                 or was not part of this run",
                neutralize(&e.profile.name),
                neutralize(&e.profile.source)
            ));
        }
    }
    let ambiguous = setup.ambiguous.load(std::sync::atomic::Ordering::Relaxed);
    let code = match () {
        _ if failures > 0 || ambiguous => EXIT_ERROR,
        _ if failing => EXIT_NOT_ELIGIBLE,
        _ => EXIT_OK,
    };
    let finished = match (written, sink) {
        // Nothing could be read: no output rather than an empty report that
        // could be mistaken for a clean one (an unfinished file is removed).
        (Ok(()), None) => return EXIT_ERROR,
        (Ok(()), Some(out)) => out.finish(),
        (Err(e), _) => Err(e),
    };
    // The process ends next: a 10,000-label catalog is left to the OS too.
    std::mem::forget(setup.labels);
    match (finished, output) {
        (Ok(()), Some(path)) => {
            output::note(&format!(
                "wrote {} for {} to {}",
                args.format.name(),
                isolint_core::text::plural(reports, "profile"),
                input::display(path)
            ));
            code
        }
        (Ok(()), None) => code,
        (Err(e), Some(path)) => {
            output::error(&format!("{}: cannot write: {e}", input::display(path)));
            EXIT_ERROR
        }
        (Err(e), None) => {
            output::error(&format!("cannot write to stdout: {e}"));
            EXIT_ERROR
        }
    }
}

/// `isolint` with no arguments and no terminal: the text report of the
/// embedded workshop profile against the embedded catalog.
pub fn embedded_workshop() -> u8 {
    let options = AuditOptions {
        today: today::utc_today(),
    };
    let report = match isolint_core::audit(
        isolint_core::WORKSHOP_PROFILE.as_bytes(),
        "workshop.json",
        &Labels::workshop(),
        &options,
    ) {
        Ok(r) => r,
        Err(e) => {
            output::error(&format!("workshop.json (embedded): {e}"));
            return EXIT_ERROR;
        }
    };
    let rendered = text::render(&report, TextOptions { color: false });
    match output::stdout(&rendered) {
        Ok(()) => exit_code(std::slice::from_ref(&report), false),
        Err(e) => {
            output::error(&format!("cannot write to stdout: {e}"));
            EXIT_ERROR
        }
    }
}

fn load_labels(path: Option<&std::path::Path>) -> Result<Labels, u8> {
    match path {
        Some(path) => input::load_labels(path).map_err(|failures| {
            for f in &failures {
                output::error(&f.to_string());
            }
            EXIT_ERROR
        }),
        None => Ok(Labels::workshop()),
    }
}

/// `isolint waive`: the waiver entry for one finding that the profile
/// really has, bound to the profile's current digest.
pub fn waive(args: &WaiveArgs) -> u8 {
    let Some(rule) = rules::find(args.rule.trim()) else {
        output::error(&format!(
            "no rule `{}` (`isolint rules` lists every rule)",
            args.rule
        ));
        return EXIT_ERROR;
    };
    for (what, value) in [("--reason", &args.reason), ("--owner", &args.owner)] {
        if value.trim().is_empty() {
            output::error(&format!("{what} must not be empty"));
            return EXIT_ERROR;
        }
    }
    let today = args.today.or_else(today::utc_today);
    if today.is_some_and(|t| args.expires < t) {
        output::error(&format!("--expires {} is already past", args.expires));
        return EXIT_ERROR;
    }
    let labels = match load_labels(args.labels.as_deref()) {
        Ok(l) => l,
        Err(code) => return code,
    };
    let inp = input::Input {
        origin: input::Origin::File(args.profile.clone()),
        name: input::display(&args.profile),
    };
    // A native profile: no overlay, no companions.
    let report = match input::audit(
        &Default::default(),
        &inp,
        &labels,
        &AuditOptions { today },
        input::Reading::Profile,
    ) {
        Ok(mut a) if a.reports.len() == 1 => a.reports.remove(0),
        Ok(_) => {
            output::error(
                "waive works on isolint profiles; audit the imported file to see its findings",
            );
            return EXIT_ERROR;
        }
        Err(f) => {
            output::error(&f.to_string());
            return EXIT_ERROR;
        }
    };
    if !report
        .issues
        .iter()
        .any(|f| f.rule == rule.id && f.pointer == args.pointer)
    {
        let at: Vec<&str> = report
            .issues
            .iter()
            .filter(|f| f.rule == rule.id)
            .map(|f| f.pointer.as_str())
            .collect();
        let hint = if at.is_empty() {
            format!("it raises no `{}` finding", rule.id)
        } else {
            format!(
                "`{}` is raised at {}",
                rule.id,
                at.iter()
                    .map(|p| format!("`{p}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        };
        output::error(&format!(
            "{} has no `{}` finding at `{}`; {hint}",
            inp.name, rule.id, args.pointer
        ));
        return EXIT_ERROR;
    }
    let entry = waivers::entry_json(
        rule.id,
        &args.pointer,
        &args.reason,
        &args.owner,
        args.expires,
        &report.profile.sha256,
        &report.profile.name,
    );
    output::note(&format!(
        "waiver for {} ({}, {}) at `{}`: append it to the `waivers` list of the operator's file",
        rule.id,
        rule.name,
        rule.severity.as_str(),
        args.pointer
    ));
    match output::stdout(&format!("{entry}\n")) {
        Ok(()) => EXIT_OK,
        Err(e) => {
            output::error(&format!("cannot write to stdout: {e}"));
            EXIT_ERROR
        }
    }
}

#[cfg(test)]
mod tests {

    #[test]
    fn a_jsonl_record_in_parts_is_the_same_bytes_cut_between_characters() {
        // Characters of one to four bytes, so some cut falls inside one.
        let value: String = "aé€😀".repeat(400_000);
        let whole = serde_json::to_string(&value).expect("a string");
        let mut out = super::Chunks::default();
        serde_json::to_writer(&mut out, &value).expect("in memory");
        out.cut(0);
        assert!(out.parts.len() > 2, "{} parts", out.parts.len());
        assert!(out.parts[..out.parts.len() - 1]
            .iter()
            .all(|p| p.len() >= super::Chunks::SIZE - 3));
        assert!(
            out.parts.concat() == whole,
            "the parts differ from the record"
        );
    }
    use super::*;

    fn report(profile: &str) -> Report {
        isolint_core::audit(
            profile.as_bytes(),
            "p.json",
            &Labels::workshop(),
            &AuditOptions::default(),
        )
        .unwrap()
    }

    #[test]
    fn names_that_read_alike_have_one_form() {
        for (a, b, alike) in [
            ("legacy-builder", "Legacy-Builder", true),
            ("legacy-builder", "legacy\u{200b}-builder", true),
            ("legacy-builder", "\u{feff}legacy-builder\u{200f}", true),
            ("legacy-builder", "legacy-builde\u{301}r", true),
            ("legacy-builder", "legacy-builder\u{a0}", true),
            ("legacy-builder", "legacy-builder-2", false),
            ("legacy-builder", "legacy_builder", false),
            ("caf\u{e9}", "cafe", false),
            // As reports carry them: neutralized.
            ("legacy-builder", "legacy\\u{200b}-builder", true),
            ("legacy-builder", "legacy\\u{zz}-builder", false),
        ] {
            assert_eq!(lookalike(a) == lookalike(b), alike, "{a:?} {b:?}");
        }
    }

    #[test]
    fn exit_codes_follow_the_verdicts() {
        let bad = report(isolint_core::WORKSHOP_PROFILE);
        assert_eq!(
            exit_code(std::slice::from_ref(&bad), false),
            EXIT_NOT_ELIGIBLE
        );
        assert_eq!(exit_code(&[], true), EXIT_ERROR);
        assert_eq!(exit_code(&[bad], true), EXIT_ERROR);
        assert_eq!(exit_code(&[], false), EXIT_OK);
    }

    #[test]
    fn fail_on_counts_non_waived_findings_at_or_above_the_threshold() {
        let bad = report(isolint_core::WORKSHOP_PROFILE);
        let one = std::slice::from_ref(&bad);
        assert_eq!(
            gate(one, false, Some(Severity::Info), false),
            EXIT_NOT_ELIGIBLE
        );
        assert_eq!(gate(one, true, Some(Severity::Info), false), EXIT_ERROR);
        let mut quiet = bad.clone();
        for f in &mut quiet.issues {
            f.baseline = Some("existing");
        }
        // With a baseline, only new findings count.
        assert_eq!(
            gate(
                std::slice::from_ref(&quiet),
                false,
                Some(Severity::Info),
                true
            ),
            EXIT_OK
        );
        // Without --fail-on the verdict decides, baseline or not.
        assert_eq!(
            gate(std::slice::from_ref(&quiet), false, None, true),
            EXIT_NOT_ELIGIBLE
        );
        let worst = bad.issues.iter().map(|f| f.severity).min().unwrap();
        // One info finding: below a `low` threshold, at an `info` one.
        let mut info = bad.clone();
        info.issues.truncate(1);
        info.issues[0].severity = Severity::Info;
        info.refresh();
        let info = std::slice::from_ref(&info);
        assert_eq!(gate(info, false, Some(Severity::Low), false), EXIT_OK);
        assert_eq!(
            gate(info, false, Some(Severity::Info), false),
            EXIT_NOT_ELIGIBLE
        );
        assert_eq!(gate(one, false, Some(worst), false), EXIT_NOT_ELIGIBLE);
    }

    #[test]
    fn json_shape_follows_the_arguments() {
        let r = report(isolint_core::WORKSHOP_PROFILE);
        let one = render(
            std::slice::from_ref(&r),
            ReportFormat::Json,
            false,
            false,
            0,
        );
        assert!(one.starts_with('{'));
        let many = render(&[r], ReportFormat::Json, true, false, 0);
        assert!(many.starts_with('['));
    }

    #[test]
    fn text_for_several_profiles_ends_with_a_tally() {
        let r = report(isolint_core::WORKSHOP_PROFILE);
        let out = render(&[r.clone(), r], ReportFormat::Text, true, false, 1);
        assert!(out.ends_with("audited 2 profiles: 0 eligible for runtime testing, 2 not eligible; 1 could not be read\n"), "{out}");
        assert!(!out.contains('\x1b'));
    }
}
