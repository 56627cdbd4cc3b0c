//! The non-interactive command line: argument parsing (clap derive) and the
//! dispatch to each subcommand. Exit codes are part of the contract:
//! 0 every profile eligible, 1 any profile not eligible, 2 usage or input
//! error. Nothing here may panic on bad input; every failure becomes a
//! message on stderr and exit code 2.

mod audit;
mod docs;
mod fix;
mod import;
use crate::files::output;

use crate::verify::reconcile;
#[cfg(target_os = "linux")]
use crate::verify::{launch as verify, probe};
use std::io::IsTerminal;
use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};
use isolint_core::Date;

use crate::files::input;

// The exit codes live beside the output writing, which the verifier's
// commands share; the CLI's modules keep reaching them as `super::EXIT_*`.
pub use crate::files::output::{EXIT_ERROR, EXIT_NOT_ELIGIBLE, EXIT_OK};

const EXIT_CODES: &str = "\
Exit status:
  0  every audited profile is eligible for runtime testing; with --fail-on, no
     non-waived finding at or above the threshold (only new ones with --baseline)
  1  at least one profile is not eligible (a non-waived critical or high finding);
     with --fail-on, a non-waived finding at or above the threshold (new with --baseline)
  2  usage error, or input that could not be read (too large, too deep, not UTF-8,
     not JSON, missing file, invalid label catalog, waivers or baseline)";

const IMPORT_EXIT_CODES: &str = "\
Exit status:
  0  the file was imported (notes on stderr do not change this)
  2  usage error, or a file that could not be read or imported; the message names
     the file, line and column";

const FIX_EXIT_CODES: &str = "\
Exit status:
  0  nothing to fix (default, --diff); every profile eligible after fixing (--apply)
  1  a fix would be made (default, --diff); a profile still not eligible after fixing (--apply)
  2  usage error, or a file that could not be read, fixed or written";

const SIMPLE_EXIT_CODES: &str = "\
Exit status:
  0  success
  2  usage error, or input that could not be read";

const ROOT_AFTER_HELP: &str = "\
Without a subcommand, isolint opens the dashboard on the embedded workshop profile
when stdout is a terminal, and prints that profile's text report otherwise.

Examples:
  isolint audit job.json                       report on one profile
  isolint audit --format json profiles/        one JSON document per profile, as an array
  isolint audit --format sarif -o isolint.sarif profiles/
  isolint audit k8s/test-job.yaml              a Kubernetes manifest (also OCI, Compose, Codex, bwrap)
  isolint audit --baseline old.json --fail-on high job.json   fail CI on new findings only
  isolint import docker-compose.yml -o profiles/   convert to isolint.profile/v1, one file per service
  isolint completions bash > /etc/bash_completion.d/isolint
  isolint tui job.json                         review a profile interactively
  isolint explain MNT001                       why a rule exists and how to fix it
  isolint schema profile > profile.schema.json

A verdict is at most \"eligible for runtime testing\": isolint compares declared
settings with trusted fixture labels and proves nothing about enforcement.

Exit status:
  0  every audited profile is eligible for runtime testing (or the command succeeded)
  1  at least one profile is not eligible (a critical or high finding), or with
     `audit --fail-on LEVEL` a finding at or above LEVEL
  2  usage error, or input that could not be read";

/// Audit execution profiles of coding-agent sandboxes against trusted
/// fixture labels.
#[derive(Debug, Parser)]
#[command(
    name = "isolint",
    version,
    about = "Audit execution profiles of coding-agent sandboxes against trusted fixture labels",
    long_about = "Audit execution profiles: the declared sandbox settings under which a coding agent \
runs tests, installs and builds. isolint compares mounts with a catalog of trusted fixture labels, \
checks network, credentials, privileges, isolation, command, limits, dependencies, artifacts and \
cleanup, and plans the runtime checks a verifier must still perform.",
    after_help = ROOT_AFTER_HELP
)]
pub struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Audit profiles non-interactively, for scripts and CI
    #[command(
        long_about = "Audit profiles non-interactively, for scripts and CI.\n\n\
Each PROFILE is a file, a directory (every *.json file under it is audited, recursively, in \
path order; hidden entries and symbolic links to directories are skipped) or `-` for standard \
input. Besides isolint.profile/v1 documents, isolint reads the sandbox configurations people \
already have (OCI config.json, Kubernetes manifests, Docker Compose files, Codex config.toml, \
sandbox-runtime or Claude Code settings, bwrap scripts): it recognizes them by content, imports \
each container or service as a profile, and points every finding at the original file as well. \
A directory walk collects *.json files, or the files of the format named by --from.\n\n\
Profiles are audited in parallel; output order is always the argument order, directories \
expanded in sorted path order. A file that cannot be read is reported on stderr (with its line \
and column when there is one); the other profiles are still audited and the exit status is 2.",
        after_help = EXIT_CODES,
        after_long_help = AUDIT_AFTER_LONG_HELP
    )]
    Audit(AuditArgs),
    /// Convert a sandbox configuration (OCI, Kubernetes, Compose, Codex, sandbox settings,
    /// bwrap) into an isolint.profile/v1 document
    #[command(
        long_about = "Convert a sandbox configuration into isolint.profile/v1.\n\n\
FILE (or `-` for standard input) is an OCI runtime config.json, a Kubernetes manifest, a Docker \
Compose file, a Codex config.toml, sandbox-runtime or Claude Code settings, or a script running \
bwrap; the format is detected from the content unless --from names it. The profile goes to \
stdout (or --output): one document, or a JSON array when the file describes several profiles \
(one per Kubernetes container, one per Compose service). With --output DIR/ (a path ending in \
`/`, or an existing directory) each profile gets its own file, DIR/<stem>.<name>.json, every \
character of the name outside A-Za-z0-9._- written as `_` (a Kubernetes name starts with its \
namespace, when the manifest gives one); two profiles that would share a file name are an \
error, and nothing is written.\n\n\
On stderr, one `note:` line (file:line:column) per source setting with no profile equivalent, \
and one `not declared:` line per profile field the format cannot express: those stay absent \
and `isolint audit` reports them as not declared.",
        after_help = IMPORT_EXIT_CODES
    )]
    Import(ImportArgs),
    /// Fix findings in place: a unified diff by default, --apply to write
    #[command(
        long_about = "Fix findings in the profile's own text. Each rule declares its fix (`isolint \
explain RULE` shows it): edits that are safe (they only tighten and remove nothing the job's \
needs list) or unsafe (they may break the job: a mount removed, egress denied). isolint writes \
the edits at their places in the file, keeping every other byte, then audits the fixed text \
again: a fix whose result no longer parses, still has the finding or has a new one is withdrawn \
and named as a bug of that rule's fix.\n\n\
By default the fixes are printed as a unified diff and nothing is written. --apply writes each \
fixed file atomically; only the files named as arguments are ever written (no directories, no \
standard input, no symbolic links). Unsafe fixes are listed and left out unless \
--unsafe-fixes is given. Files in other formats (Kubernetes, Compose, OCI, Codex, sandbox \
settings, bwrap) are refused for now: isolint names them and edits nothing.",
        after_help = FIX_EXIT_CODES
    )]
    Fix(FixArgs),
    /// Open the terminal dashboard on profiles (the embedded workshop profile when none is given)
    #[command(
        long_about = "Open the terminal dashboard on profiles: isolint.profile/v1 documents or \
any configuration `isolint import` reads (a file describing several profiles shows the first \
one that is not eligible, else the first). Directories open every *.json file under them. With \
no PROFILE, the embedded workshop profile.",
        after_help = "Exit status:\n  0  the dashboard was closed normally\n  2  no terminal, or \
a catalog that could not be read (unreadable profiles are shown as error panels)"
    )]
    Tui(TuiArgs),
    /// List every rule in the registry
    #[command(after_help = SIMPLE_EXIT_CODES)]
    Rules(RulesArgs),
    /// Explain one rule: what it checks, why it matters, what to change
    #[command(
        after_help = "RULE is a rule id (MNT001) or name (developer-home-mounted), in any case.\n\
`isolint rules` lists them all.\n\n\
Exit status:\n  0  the rule was found\n  2  no such rule (the closest names are suggested)"
    )]
    Explain(ExplainArgs),
    /// Print the JSON Schema (2020-12) of a format
    #[command(after_help = SIMPLE_EXIT_CODES)]
    Schema(SchemaArgs),
    /// Print a waiver entry accepting one finding, for an operator's waivers file
    #[command(
        long_about = "Print a waiver entry (isolint.waivers/v1) accepting one finding of PROFILE, \
to append to the `waivers` list of an operator-owned file passed to `isolint audit --waivers`. \
The entry is bound to the profile's current sha256: any change to the profile voids it. \
Waivers never live in the profile itself, so the code under review cannot waive its own findings.",
        after_help = "Example:\n  isolint waive --rule NET001 --pointer /network/egress \\\n    \
--reason \"offline mirror only\" --owner alice --expires 2026-12-31 job.json\n\n\
Exit status:\n  0  the entry was printed\n  2  usage error, an unreadable profile, or a finding \
the profile does not have"
    )]
    Waive(WaiveArgs),
    /// Print a shell completion script (bash, zsh, fish, elvish, powershell)
    #[command(
        long_about = "Print a completion script for SHELL on stdout.\n\n\
Examples:\n  isolint completions bash > ~/.local/share/bash-completion/completions/isolint\n  \
isolint completions zsh > \"${fpath[1]}/_isolint\"\n  \
isolint completions fish > ~/.config/fish/completions/isolint.fish",
        after_help = SIMPLE_EXIT_CODES
    )]
    Completions(CompletionsArgs),
    /// Compare a findings plan with a probe's observations (isolint.observations/v1)
    #[command(
        long_about = "Compare the runtime-check plan of an isolint.findings/v2 document with the \
isolint.observations/v1 document a probe wrote inside the launched environment. Each check \
agrees, disagrees, is not observable (with the reason) or is stale (the profile fingerprint \
changed since the plan: repeat the checks).",
        after_help = "Exit status:\n  0  nothing disagrees and nothing is stale\n  1  a check \
disagrees or is stale\n  2  usage error, or a document that could not be read"
    )]
    Reconcile(reconcile::ReconcileArgs),
    /// Perform the plan's runtime checks inside a launched environment
    #[cfg(target_os = "linux")]
    Probe(probe::ProbeArgs),
    /// Launch a profile in disposable bubblewrap workers, probe them and reconcile
    #[cfg(target_os = "linux")]
    #[command(
        long_about = "The reference launcher. Audit PROFILE (it must be eligible for runtime \
testing), build disposable bubblewrap workers from what it declares (mounts as --bind or \
--ro-bind, egress deny as --unshare-net, the declared environment only, limits as rlimits, \
--unshare-pid --die-with-parent --new-session), run `isolint probe` in one and observe from \
outside that the wall-clock limit kills the whole tree, that output past output_bytes is cut and \
that the worker is destroyed. Then reconcile as `isolint reconcile` does.\n\n\
Mount sources must exist: the launcher creates nothing outside its own temporary directory. \
Egress checks go to a listener on 127.0.0.1 outside the worker, never to the declared hosts. \
Run as root, the worker runs as uid 65534 on the host.",
        after_help = "Exit status:\n  0  every check agrees or is not observable (with its reason)\n  \
1  a check disagrees or is stale, or the profile is not eligible for runtime testing\n  \
2  usage error, an unreadable profile, a missing mount source, no bwrap, or a launch that failed"
    )]
    Verify(verify::VerifyArgs),
}

const AUDIT_AFTER_LONG_HELP: &str = "\
Formats:
  text      a report grouped by area (writable mounts first) with source snippets
  json      isolint.findings/v2: one document for a single file argument (or `-`), a JSON
            array of documents for several arguments or a directory; the shape depends on the
            command line only. A single file that describes several profiles (containers,
            services) is an error with json: use jsonl, or name its directory
            (`isolint schema findings`)
  jsonl     isolint.findings/v2, one compact document per line, in argument order
  sarif     one SARIF 2.1.0 log with one run per profile, for code-scanning interfaces
  markdown  a Markdown report per profile, for pull-request comments
  github    GitHub Actions workflow commands: one annotation per finding at its file, line
            and column, and a notice with each verdict

Failing CI on new findings only:
  isolint audit --format json -o baseline.json job.json        once, on the main branch
  isolint audit --baseline baseline.json --fail-on high job.json
With --baseline every finding is marked `new` or `existing` (matched by profile name, rule
and pointer); the export still lists them all. --fail-on then counts only new, non-waived
findings; without --fail-on the exit status follows the verdicts as usual.

Examples:
  isolint audit job.json
  isolint audit --labels site-labels.json --format json --output findings.json job.json
  isolint audit --format sarif profiles/ > isolint.sarif
  cat job.json | isolint audit --format json -
  isolint audit --from compose docker-compose.yml
  isolint audit --format github --fail-on medium profiles/
  isolint audit --format markdown --waivers ops/waivers.json job.json > comment.md

Exit status:
  0  every audited profile is eligible for runtime testing; with --fail-on LEVEL, no
     non-waived finding at or above LEVEL (counting only `new` ones with --baseline)
  1  at least one profile is not eligible (a non-waived critical or high finding); with
     --fail-on LEVEL, a non-waived finding at or above LEVEL (a new one with --baseline),
     whatever the verdict
  2  usage error, or input that could not be read (too large, too deep, not UTF-8,
     not JSON, missing file, invalid label catalog, waivers or baseline file); the other
     profiles are still audited";

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ReportFormat {
    /// Human report grouped by area
    Text,
    /// isolint.findings/v2 export: one document for one file argument, an array otherwise
    Json,
    /// isolint.findings/v2, one compact document per line, for streaming consumers
    Jsonl,
    /// SARIF 2.1.0 log
    Sarif,
    /// Markdown report, for pull-request comments
    Markdown,
    /// GitHub Actions workflow commands (annotations)
    Github,
}

impl ReportFormat {
    fn name(self) -> &'static str {
        match self {
            ReportFormat::Text => "text report",
            ReportFormat::Json => "JSON findings",
            ReportFormat::Jsonl => "JSON Lines findings",
            ReportFormat::Sarif => "SARIF log",
            ReportFormat::Markdown => "Markdown report",
            ReportFormat::Github => "GitHub annotations",
        }
    }
}

/// The `--fail-on` threshold.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum FailOn {
    /// Fail on a critical finding
    Critical,
    /// Fail on a high or critical finding
    High,
    /// Fail on a medium finding or worse
    Medium,
    /// Fail on a low finding or worse
    Low,
    /// Fail on any finding
    Info,
}

impl FailOn {
    pub fn severity(self) -> isolint_core::finding::Severity {
        use isolint_core::finding::Severity;
        match self {
            FailOn::Critical => Severity::Critical,
            FailOn::High => Severity::High,
            FailOn::Medium => Severity::Medium,
            FailOn::Low => Severity::Low,
            FailOn::Info => Severity::Info,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ColorChoice {
    /// Colour when writing to a terminal and NO_COLOR is unset
    Auto,
    /// Always colour the text report
    Always,
    /// Never colour
    Never,
}

/// How a file's context is read: the files a Compose file depends on.
#[derive(Debug, Clone, Args)]
pub struct ContextArgs {
    /// A file a configuration depends on that cannot be read (a Compose `env_file`,
    /// `include`, `extends.file`, `.env` or override file) becomes a blocking finding
    /// (PRF021) instead of a refusal with exit 2; such a file is never eligible
    #[arg(long)]
    partial: bool,
    /// Do not merge `compose.override.yml` (or `docker-compose.override.yml`) beside a
    /// Compose file with a default name, which `docker compose` merges by default
    #[arg(long)]
    no_override: bool,
    /// Read FILE as the Compose project's environment instead of the `.env` beside the
    /// file, as `docker compose --env-file` does (repeatable; relative to the working
    /// directory)
    #[arg(long, value_name = "FILE")]
    env_file: Vec<PathBuf>,
}

impl ContextArgs {
    /// The run's context with these options (no overlay yet).
    pub(crate) fn context(&self) -> crate::files::runner::RunContext {
        crate::files::runner::RunContext::new(crate::files::runner::ContextOptions {
            partial: self.partial,
            no_override: self.no_override,
            env_files: self.env_file.clone(),
        })
    }
}

#[derive(Debug, Args)]
pub struct AuditArgs {
    /// Label catalog (isolint.labels/v1) replacing the embedded workshop catalog
    #[arg(long, value_name = "FILE")]
    labels: Option<PathBuf>,
    /// Output format
    #[arg(long, short = 'f', value_enum, default_value_t = ReportFormat::Text)]
    format: ReportFormat,
    /// Write the report to FILE (atomically: a complete file or none) instead of stdout;
    /// `-` is stdout
    #[arg(long, short = 'o', value_name = "FILE")]
    output: Option<PathBuf>,
    /// The date staleness checks compare against, YYYY-MM-DD [default: today, UTC]
    #[arg(long, value_name = "YYYY-MM-DD", value_parser = parse_date)]
    today: Option<Date>,
    /// Colour the text report
    #[arg(long, value_enum, default_value_t = ColorChoice::Auto, value_name = "WHEN")]
    color: ColorChoice,
    /// How to read each PROFILE: `auto` detects OCI config.json, Kubernetes, Compose, Codex
    /// config.toml, sandbox settings and bwrap scripts and imports them; `profile` reads
    /// isolint.profile/v1 only; or name one format (oci, kubernetes, compose, codex,
    /// sandbox-settings, bwrap)
    #[arg(long, value_name = "FORMAT", default_value = "auto", value_parser = input::Reading::parse)]
    from: input::Reading,
    /// Operator-owned waivers (isolint.waivers/v1): a waived finding stays in every output,
    /// marked waived, and no longer blocks; expired or mismatched waivers become findings
    #[arg(long, value_name = "FILE")]
    waivers: Option<PathBuf>,
    /// Runner overlay (a partial isolint.profile/v1: tenancy, needs, the boundary's runtime
    /// facts, command, network, limits, concurrency, dependencies, artifacts, cleanup) merged
    /// under every imported profile; a value both declare differently is a blocking finding
    #[arg(long, value_name = "FILE")]
    runner: Option<PathBuf>,
    /// Exit 1 if any non-waived finding is at LEVEL or worse, else 0, whatever the verdict
    /// (with --baseline, only findings marked `new` count) [default: follow the verdict]
    #[arg(long, value_enum, value_name = "LEVEL")]
    fail_on: Option<FailOn>,
    /// An earlier isolint.findings/v1 export (one document or an array, as `--format json`
    /// writes): each finding is marked `new` or `existing` against it, all are still listed,
    /// and --fail-on counts only the new ones
    #[arg(long, value_name = "OLD.json")]
    baseline: Option<PathBuf>,
    #[command(flatten)]
    context: ContextArgs,
    /// Profiles to audit: files, directories (every *.json under them, and every *.yaml,
    /// *.yml, *.toml and *.sh whose content is an imported format), or `-` for stdin
    #[arg(value_name = "PROFILE", required = true)]
    profiles: Vec<PathBuf>,
}

#[derive(Debug, Args)]
pub struct ImportArgs {
    /// The configuration to convert, or `-` for standard input
    #[arg(value_name = "FILE")]
    file: PathBuf,
    /// Its format: `auto` (detect from the content), oci, kubernetes, compose, codex,
    /// sandbox-settings or bwrap
    #[arg(long, value_name = "FORMAT", default_value = "auto", value_parser = input::Reading::parse)]
    from: input::Reading,
    // The help as an attribute: rustdoc would read `<stem>` as HTML.
    #[arg(
        long,
        short = 'o',
        value_name = "FILE|DIR/",
        help = "Write the profile to FILE (atomically) instead of stdout; a path ending in `/` (or an \
                existing directory) gets one file per profile, <stem>.<name>.json"
    )]
    output: Option<PathBuf>,
    /// Copy secret values into the profile as they are; by default each is written as
    /// `[redacted]`, which the audit still reports as a credential
    #[arg(long)]
    reveal_secrets: bool,
    #[command(flatten)]
    context: ContextArgs,
}

#[derive(Debug, Args)]
pub struct FixArgs {
    /// isolint.profile/v1 files to fix
    #[arg(value_name = "FILE", required = true)]
    files: Vec<PathBuf>,
    /// Print the fixes as a unified diff and write nothing (the default)
    #[arg(long, conflicts_with = "apply")]
    diff: bool,
    /// Write the fixed files (atomically, only the files named)
    #[arg(long)]
    apply: bool,
    /// Make unsafe fixes too (they may break the job)
    #[arg(long)]
    unsafe_fixes: bool,
    /// Only fix findings of this rule (repeatable; id or name)
    #[arg(long = "rule", value_name = "ID")]
    rules: Vec<String>,
    /// Runner overlay (a partial isolint.profile/v1), as for `isolint audit --runner`
    #[arg(long, value_name = "FILE")]
    runner: Option<PathBuf>,
    /// Label catalog (isolint.labels/v1) replacing the embedded workshop catalog
    #[arg(long, value_name = "FILE")]
    labels: Option<PathBuf>,
    /// `text` (diff and summary) or `json` (the edits as data, isolint.fix/v1)
    #[arg(long, short = 'f', value_enum, default_value_t = DocFormat::Text)]
    format: DocFormat,
}

#[derive(Debug, Args)]
pub struct CompletionsArgs {
    /// The shell to complete for
    #[arg(value_enum, value_name = "SHELL")]
    shell: clap_complete::Shell,
}

#[derive(Debug, Args)]
pub struct TuiArgs {
    /// Label catalog (isolint.labels/v1) replacing the embedded workshop catalog
    #[arg(long, value_name = "FILE")]
    labels: Option<PathBuf>,
    /// Runner overlay merged under every imported profile (see `isolint audit --runner`)
    #[arg(long, value_name = "FILE")]
    runner: Option<PathBuf>,
    /// Observations (isolint.observations/v1, from `isolint probe` or `verify`): the
    /// runtime-check plan tab shows each check as agrees, disagrees, not-observable or stale
    #[arg(long, value_name = "OBSERVATIONS.json")]
    observed: Option<PathBuf>,
    #[command(flatten)]
    context: ContextArgs,
    /// Profiles or directories to review; none opens the embedded workshop profile
    #[arg(value_name = "PROFILE")]
    profiles: Vec<PathBuf>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum DocFormat {
    /// Aligned table (rules) or prose (explain)
    Text,
    /// JSON with every rule field
    Json,
}

#[derive(Debug, Args)]
pub struct RulesArgs {
    /// Output format
    #[arg(long, short = 'f', value_enum, default_value_t = DocFormat::Text)]
    format: DocFormat,
}

#[derive(Debug, Args)]
pub struct ExplainArgs {
    /// Rule id or name, case-insensitive (e.g. PRF001 or unknown-field)
    #[arg(value_name = "RULE")]
    rule: String,
    /// Output format
    #[arg(long, short = 'f', value_enum, default_value_t = DocFormat::Text)]
    format: DocFormat,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum SchemaName {
    /// isolint.profile/v1, the audited input
    Profile,
    /// isolint.labels/v1, the trusted fixture label catalog
    Labels,
    /// isolint.findings/v1, the JSON export
    Findings,
    /// the runner overlay of `--runner FILE` (a partial isolint.profile/v1)
    Runner,
    /// isolint.observations/v1, what `isolint probe` and `isolint verify` observed
    Observations,
    /// isolint.reconciliation/v1, `isolint reconcile --format json`
    Reconciliation,
}

#[derive(Debug, Args)]
pub struct SchemaArgs {
    /// Which format
    #[arg(value_enum, value_name = "FORMAT")]
    name: SchemaName,
}

#[derive(Debug, Args)]
pub struct WaiveArgs {
    /// Rule id or name of the finding
    #[arg(long, value_name = "RULE")]
    rule: String,
    /// JSON pointer of the finding, as `isolint audit` reports it (e.g. /network/egress)
    #[arg(long, value_name = "POINTER")]
    pointer: String,
    /// Why the risk is accepted
    #[arg(long, value_name = "TEXT")]
    reason: String,
    /// Who accepts it
    #[arg(long, value_name = "NAME")]
    owner: String,
    /// Last day the waiver applies, YYYY-MM-DD
    #[arg(long, value_name = "YYYY-MM-DD", value_parser = parse_date)]
    expires: Date,
    /// Label catalog the profile is audited against
    #[arg(long, value_name = "FILE")]
    labels: Option<PathBuf>,
    /// The date the expiry is compared with, YYYY-MM-DD [default: today, UTC]
    #[arg(long, value_name = "YYYY-MM-DD", value_parser = parse_date)]
    today: Option<Date>,
    /// The profile holding the finding
    #[arg(value_name = "PROFILE")]
    profile: PathBuf,
}

fn parse_date(s: &str) -> Result<Date, String> {
    Date::parse(s).ok_or_else(|| format!("`{s}` is not a calendar date written YYYY-MM-DD"))
}

/// Parse the arguments and run. Returns the process exit code.
pub fn main() -> u8 {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            // clap prints help and version to stdout with status 0, and
            // usage errors to stderr with status 2.
            let _ = e.print();
            return u8::try_from(e.exit_code()).unwrap_or(EXIT_ERROR);
        }
    };
    run(cli)
}

fn run(cli: Cli) -> u8 {
    match cli.command {
        None => no_arguments(),
        Some(Command::Audit(args)) => audit::run(&args),
        Some(Command::Import(args)) => import::run(&args),
        Some(Command::Fix(args)) => fix::run(&args),
        Some(Command::Tui(args)) => {
            let mut cx = args.context.context();
            match load_runner(&mut cx, args.runner.as_deref()) {
                Ok(()) => dashboard(cx, args.profiles, args.labels, args.observed),
                Err(code) => code,
            }
        }
        Some(Command::Rules(args)) => docs::rules(args.format),
        Some(Command::Explain(args)) => docs::explain(&args.rule, args.format),
        Some(Command::Schema(args)) => docs::schema(args.name),
        Some(Command::Waive(args)) => audit::waive(&args),
        Some(Command::Completions(args)) => completions(args.shell),
        Some(Command::Reconcile(args)) => reconcile::run(&args),
        #[cfg(target_os = "linux")]
        Some(Command::Probe(args)) => probe::run(&args),
        #[cfg(target_os = "linux")]
        Some(Command::Verify(args)) => verify::run(&args),
    }
}

/// Read `--runner FILE` into the run's context; a bad overlay is a usage
/// error.
pub(crate) fn load_runner(
    cx: &mut crate::files::runner::RunContext,
    path: Option<&std::path::Path>,
) -> Result<(), u8> {
    match path.map(|p| cx.load_runner(p)) {
        Some(Err(e)) => {
            output::error(&e);
            Err(EXIT_ERROR)
        }
        _ => Ok(()),
    }
}

/// `isolint completions SHELL`: the completion script on stdout.
fn completions(shell: clap_complete::Shell) -> u8 {
    use clap::CommandFactory;
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut Cli::command(), "isolint", &mut script);
    match output::stdout(&String::from_utf8_lossy(&script)) {
        Ok(()) => EXIT_OK,
        Err(e) => {
            output::error(&format!("cannot write to stdout: {e}"));
            EXIT_ERROR
        }
    }
}

/// `isolint` alone: the dashboard for a person at a terminal, the text
/// report of the embedded workshop profile for a pipe.
fn no_arguments() -> u8 {
    if std::io::stdout().is_terminal() {
        dashboard(Default::default(), Vec::new(), None, None)
    } else {
        audit::embedded_workshop()
    }
}

fn dashboard(
    cx: crate::files::runner::RunContext,
    profiles: Vec<PathBuf>,
    labels: Option<PathBuf>,
    observed: Option<PathBuf>,
) -> u8 {
    if !std::io::stdout().is_terminal() {
        output::error("the dashboard needs a terminal; use `isolint audit` in scripts and pipes");
        return EXIT_ERROR;
    }
    match crate::dashboard::run(cx, profiles, labels, observed) {
        Ok(()) => EXIT_OK,
        Err(e) => {
            output::error(&format!("{e:#}"));
            EXIT_ERROR
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn clap_definition_is_consistent() {
        Cli::command().debug_assert();
    }

    #[test]
    fn audit_requires_a_profile_and_parses_options() {
        assert!(Cli::try_parse_from(["isolint", "audit"]).is_err());
        let cli = Cli::try_parse_from([
            "isolint",
            "audit",
            "--format",
            "sarif",
            "--today",
            "2026-11-29",
            "--color",
            "never",
            "a.json",
            "dir",
        ])
        .unwrap();
        let Some(Command::Audit(a)) = cli.command else {
            panic!("not audit")
        };
        assert_eq!(a.format, ReportFormat::Sarif);
        assert_eq!(a.today, Date::parse("2026-11-29"));
        assert_eq!(a.color, ColorChoice::Never);
        assert_eq!(a.profiles.len(), 2);
    }

    #[test]
    fn bad_dates_and_formats_are_usage_errors() {
        let e = Cli::try_parse_from(["isolint", "audit", "--today", "2026-02-30", "a.json"])
            .unwrap_err();
        assert_eq!(e.exit_code(), 2);
        assert!(e.to_string().contains("YYYY-MM-DD"));
        let e = Cli::try_parse_from(["isolint", "audit", "--format", "xml", "a.json"]).unwrap_err();
        assert_eq!(e.exit_code(), 2);
    }

    #[test]
    fn no_subcommand_is_accepted() {
        assert!(Cli::try_parse_from(["isolint"]).unwrap().command.is_none());
    }
}
