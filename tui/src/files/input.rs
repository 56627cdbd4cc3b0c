//! Reading profiles and catalogs: bounded reads, directory walks, and every
//! failure turned into a message that names the file (and the line and
//! column when there is one). Nothing here panics on what it reads.

use std::fmt;
use std::fs::{self, File};
use std::io::{self, Read};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use isolint_core::baseline;
use isolint_core::decode::Problem;
use isolint_core::import::{self, Format, ImportError};
use isolint_core::json::{InputError, Limits};
use isolint_core::render::json::{Export, FINDINGS_SCHEMA};
use isolint_core::sanitize::neutralize;
use isolint_core::secrets::Memo;
use isolint_core::waivers::{self, Waiver, WaiversError, WaiversSource};
use isolint_core::{CatalogError, Labels, Parsed};

use super::runner::RunContext;

/// Largest accepted profile or catalog, the same limit core's parser applies.
pub fn max_bytes() -> usize {
    Limits::default().max_bytes
}

/// A file that could not be used, with where in it the problem is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failure {
    /// The file as the user named it (display-safe).
    pub path: String,
    /// 1-based line and column, when the problem has a place.
    pub pos: Option<(u32, u32)>,
    pub message: String,
}

impl Failure {
    pub(crate) fn new(path: &str, message: impl Into<String>) -> Failure {
        Failure {
            path: neutralize(path).into_owned(),
            pos: None,
            message: neutralize(&message.into()).into_owned(),
        }
    }

    fn io(path: &str, e: &io::Error) -> Failure {
        Failure::new(path, format!("cannot read: {}", describe_io(e)))
    }

    /// A parse refusal from core, with its position split out so the line
    /// reads `file:line:column: message` like a compiler's.
    fn input(path: &str, mut e: InputError) -> Failure {
        let pos = e.pos.take().map(|p| (p.line, p.column));
        let message = e.to_string();
        Failure {
            pos,
            ..Failure::new(path, message)
        }
    }
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.pos {
            Some((line, column)) => write!(f, "{}:{line}:{column}: {}", self.path, self.message),
            None => write!(f, "{}: {}", self.path, self.message),
        }
    }
}

fn describe_io(e: &io::Error) -> String {
    match e.kind() {
        io::ErrorKind::NotFound => "no such file or directory".into(),
        io::ErrorKind::PermissionDenied => "permission denied".into(),
        io::ErrorKind::IsADirectory => "is a directory".into(),
        _ => {
            // Drop the "(os error N)" suffix and lowercase the start, so the
            // message reads like the others.
            let s = e.to_string();
            let s = s.split(" (os error").next().unwrap_or(&s).to_string();
            let mut chars = s.chars();
            match chars.next() {
                Some(c) => c.to_lowercase().chain(chars).collect(),
                None => s,
            }
        }
    }
}

/// Where a profile's bytes come from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Origin {
    Stdin,
    File(PathBuf),
}

/// One profile to audit.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Input {
    pub origin: Origin,
    /// The name reports carry (`source`): the path as given, or `<stdin>`.
    pub name: String,
}

/// The profiles named on the command line, in order.
#[derive(Debug)]
pub struct Expanded {
    /// One entry per profile, or per argument that could not be expanded.
    pub jobs: Vec<Result<Input, Failure>>,
    /// Whether any argument was a directory (the JSON output is then an
    /// array even when the directory holds a single profile).
    pub directory: bool,
    /// Files a directory walk found but left out: the `--output` file,
    /// which a run before this one wrote there.
    pub skipped: Vec<PathBuf>,
    /// Every other entry a directory walk did not audit, with the reason
    /// (hidden, not a configuration file name, format not recognized, a
    /// link to a directory): a run says what it passed over.
    pub not_audited: Vec<(PathBuf, String)>,
}

/// Turn arguments into profiles: `-` is standard input, a directory is
/// every `*.json` file under it (sorted by path), anything else a file.
///
/// A directory's file that is `output` (a report an earlier run wrote
/// into the directory) is left out, and listed in `skipped`.
// Kept for the dashboard's loader, which is moving onto this module.
#[allow(dead_code)]
pub fn expand(args: &[PathBuf], extensions: &[&str], output: Option<&Path>) -> Expanded {
    expand_detecting(args, extensions, output, false)
}

/// [`expand`]; with `detect`, a directory's files other than `*.json` are
/// audited only when their content is a format isolint imports (the rest
/// are listed in `not_audited`), as `--from auto` reads them.
pub fn expand_detecting(
    args: &[PathBuf],
    extensions: &[&str],
    output: Option<&Path>,
    detect: bool,
) -> Expanded {
    let mut not_audited = Vec::new();
    let mut jobs = Vec::new();
    let mut directory = false;
    let mut skipped = Vec::new();
    let output_names: Vec<std::ffi::OsString> = output
        .into_iter()
        .flat_map(|o| [o.to_path_buf(), super::atomic::followed(o)])
        .filter_map(|o| o.file_name().map(ToOwned::to_owned))
        .collect();
    for arg in args {
        if arg.as_os_str() == "-" {
            jobs.push(Ok(Input {
                origin: Origin::Stdin,
                name: "<stdin>".into(),
            }));
            continue;
        }
        let shown = display(arg);
        match fs::metadata(arg) {
            Ok(m) if m.is_dir() => {
                directory = true;
                let mut found = walk_noting(arg, extensions, &mut not_audited);
                if detect {
                    found.retain(|p| match p {
                        Ok(p) if !has_extension(p, &["json"]) => {
                            let recognized = recognized_format(p);
                            if !recognized {
                                not_audited.push((
                                    p.clone(),
                                    "not a format isolint reads (Kubernetes, Compose, Codex, bwrap)".into(),
                                ));
                            }
                            recognized
                        }
                        _ => true,
                    });
                }
                if let Some(out) = output {
                    // Names first: a file's identity is asked of the few
                    // that could be the output.
                    found.retain(|p| {
                        let Ok(p) = p else {
                            return true;
                        };
                        let is_output = p
                            .file_name()
                            .is_some_and(|n| output_names.iter().any(|o| o == n))
                            && super::atomic::same_file(p, out);
                        if is_output {
                            skipped.push(p.clone());
                        }
                        !is_output
                    });
                }
                if found.is_empty() {
                    jobs.push(Err(Failure::new(
                        &shown,
                        format!("directory holds no {} profile", patterns(extensions)),
                    )));
                }
                for item in found {
                    jobs.push(item.map(|p| Input {
                        name: source_name(&p),
                        origin: Origin::File(p),
                    }));
                }
            }
            Ok(_) => jobs.push(Ok(Input {
                origin: Origin::File(arg.clone()),
                name: source_name(arg),
            })),
            Err(e) => jobs.push(Err(Failure::io(&shown, &e))),
        }
    }
    Expanded {
        jobs,
        directory,
        skipped,
        not_audited,
    }
}

/// Whether a directory's non-JSON file holds a format the importers read.
/// A file that cannot be read, or is too large to check, is kept: its
/// audit then fails with the reason, and the run exits 2.
fn recognized_format(p: &Path) -> bool {
    let Ok(file) = fs::File::open(p) else {
        return true;
    };
    match read_bounded(file, max_bytes(), 0) {
        // By content alone: by name, every `*.sh` would be a bwrap script
        // and every `*.toml` (Cargo.toml too) a Codex configuration.
        Ok(Ok(bytes)) => isolint_core::import::detect(&bytes, None).is_some(),
        _ => true,
    }
}

/// A path for messages: lossy UTF-8, control characters neutralized.
pub fn display(p: &Path) -> String {
    neutralize(&p.to_string_lossy()).into_owned()
}

/// The name a report carries: the path as given, `/`-separated, without a
/// leading `./` (core neutralizes it for display).
pub fn source_name(p: &Path) -> String {
    let s = p.to_string_lossy().replace(std::path::MAIN_SEPARATOR, "/");
    match s.strip_prefix("./") {
        Some(rest) if !rest.is_empty() => rest.to_string(),
        _ => s,
    }
}

fn is_hidden(name: &std::ffi::OsStr) -> bool {
    name.as_encoded_bytes().first() == Some(&b'.')
}

/// In any case: `job.JSON` is named like a configuration as much as
/// `job.json`, and a walk that passed it over would skip a profile.
fn has_extension(p: &Path, extensions: &[&str]) -> bool {
    p.extension()
        .is_some_and(|e| extensions.iter().any(|x| e.eq_ignore_ascii_case(x)))
}

/// `*.json`, `*.yaml or *.yml`, … for messages.
fn patterns(extensions: &[&str]) -> String {
    let globs: Vec<String> = extensions.iter().map(|e| format!("*.{e}")).collect();
    match globs.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
        Some((last, _)) => last.clone(),
        None => "*".into(),
    }
}

/// [`walk_noting`] without the notes.
#[cfg(test)]
fn walk(root: &Path, extensions: &[&str]) -> Vec<Result<PathBuf, Failure>> {
    walk_noting(root, extensions, &mut Vec::new())
}

/// Every file with one of `extensions` under `root`, sorted by path (component-wise, so a
/// directory's files stay together). Hidden entries are skipped; links to
/// files are followed, links to directories are not (no cycles). A
/// directory that cannot be listed becomes a failure in its place.
///
/// Each directory's entries are sorted by name as they are listed, and
/// directories are entered in that order: component order without sorting
/// whole paths, which would all have to be listed and compared before the
/// first file could be read.
///
/// Each entry passed over is listed with the reason in `noted`.
fn walk_noting(
    root: &Path,
    extensions: &[&str],
    noted: &mut Vec<(PathBuf, String)>,
) -> Vec<Result<PathBuf, Failure>> {
    let mut found = Vec::new();
    // The entries still to visit of each directory being walked, outermost
    // first; each in reverse order of name, so `pop` yields the next.
    let mut levels = vec![list(root, extensions, &mut found, noted)];
    while let Some(level) = levels.last_mut() {
        match level.pop() {
            None => {
                levels.pop();
            }
            Some(entry) if entry.dir => {
                let inner = list(&entry.path, extensions, &mut found, noted);
                levels.push(inner);
            }
            Some(entry) => found.push(Ok(entry.path)),
        }
    }
    found
}

/// One entry of a directory listed by [`list`].
struct Entry {
    path: PathBuf,
    /// Where the entry's name starts in `path`'s bytes.
    name: usize,
    dir: bool,
}

impl Entry {
    fn name(&self) -> &[u8] {
        let bytes = self.path.as_os_str().as_encoded_bytes();
        bytes.get(self.name..).unwrap_or(bytes)
    }
}

/// The subdirectories and the matching files of `dir`, in reverse order of
/// name; a failure to list it (or one of its entries) goes to `found`.
fn list(
    dir: &Path,
    extensions: &[&str],
    found: &mut Vec<Result<PathBuf, Failure>>,
    noted: &mut Vec<(PathBuf, String)>,
) -> Vec<Entry> {
    let entries = match fs::read_dir(dir) {
        Ok(rd) => rd,
        Err(e) => {
            found.push(Err(Failure::io(&display(dir), &e)));
            return Vec::new();
        }
    };
    let mut out = Vec::new();
    for entry in entries {
        let entry = match entry {
            Ok(e) => e,
            Err(e) => {
                found.push(Err(Failure::io(&display(dir), &e)));
                continue;
            }
        };
        let name = entry.file_name();
        let path = entry.path();
        if is_hidden(&name) {
            noted.push((path, "hidden".into()));
            continue;
        }
        let kind = match entry.file_type() {
            Ok(k) => k,
            Err(e) => {
                found.push(Err(Failure::io(&display(&path), &e)));
                continue;
            }
        };
        let dir = kind.is_dir();
        if !dir {
            let target = kind.is_symlink().then(|| fs::metadata(&path));
            if let Some(Ok(m)) = &target {
                if m.is_dir() {
                    noted.push((path, "a link to a directory, not followed".into()));
                    continue;
                }
            }
            let file_type = match &target {
                Some(Ok(m)) => m.file_type(),
                _ => kind,
            };
            // Why the entry cannot be read, if it cannot.
            let unreadable = match &target {
                Some(Err(e)) => Some(format!(
                    "a link that cannot be followed ({})",
                    describe_io(e)
                )),
                _ if file_type.is_file() => None,
                _ => Some(format!("{}, not a regular file", special_kind(file_type))),
            };
            match unreadable {
                // Named like a configuration: it should have been audited
                // and cannot be, which fails the run (as when it is named
                // directly; a pipe could also block the run forever).
                Some(why) if has_extension(&path, extensions) => {
                    found.push(Err(Failure::new(
                        &display(&path),
                        format!("cannot read: {why}"),
                    )));
                    continue;
                }
                Some(why) => {
                    noted.push((path, why));
                    continue;
                }
                None if !has_extension(&path, extensions) => {
                    noted.push((path, format!("not named {}", patterns(extensions))));
                    continue;
                }
                None => {}
            }
        }
        let name = path.as_os_str().len() - name.len();
        out.push(Entry { path, name, dir });
    }
    out.sort_unstable_by(|a, b| b.name().cmp(a.name()));
    out
}

/// What a directory entry that is neither a file nor a directory is.
#[cfg(unix)]
fn special_kind(t: fs::FileType) -> &'static str {
    use std::os::unix::fs::FileTypeExt;
    match () {
        _ if t.is_fifo() => "a named pipe",
        _ if t.is_socket() => "a socket",
        _ if t.is_block_device() || t.is_char_device() => "a device",
        _ => "a special file",
    }
}

#[cfg(not(unix))]
fn special_kind(_: fs::FileType) -> &'static str {
    "a special file"
}

/// Read at most `limit` bytes; `Err(())` when there is more.
fn read_bounded(r: impl Read, limit: usize, hint: usize) -> io::Result<Result<Vec<u8>, ()>> {
    let mut buf = Vec::with_capacity(hint.min(limit).saturating_add(1));
    r.take(limit as u64 + 1).read_to_end(&mut buf)?;
    if buf.len() > limit {
        Ok(Err(()))
    } else {
        Ok(Ok(buf))
    }
}

/// Read a regular file that had `size` bytes when it was opened, at most
/// `limit`: in one call in the usual case. A read that asks for a byte
/// more than `size` and ends exactly at `size` has found the file's end,
/// so the read that would return nothing is skipped (a tenth of a batch's
/// system calls). A file that has grown since is read on to its end,
/// bounded as by [`read_bounded`].
fn read_sized(mut r: impl Read, limit: usize, size: usize) -> io::Result<Result<Vec<u8>, ()>> {
    let size = size.min(limit);
    let mut buf = vec![0u8; size + 1];
    let mut n = 0;
    while let Some(room) = buf.get_mut(n..).filter(|room| !room.is_empty()) {
        match r.read(room) {
            Ok(0) => break,
            Ok(got) => {
                n += got;
                if n == size {
                    break;
                }
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    buf.truncate(n);
    if n > size {
        r.take((limit + 1 - n) as u64).read_to_end(&mut buf)?;
    }
    if buf.len() > limit {
        Ok(Err(()))
    } else {
        Ok(Ok(buf))
    }
}

fn too_large(name: &str, size: Option<u64>) -> Failure {
    let limit = max_bytes();
    match size {
        Some(size) => Failure::new(
            name,
            format!("input is {size} bytes, over the {limit}-byte limit; refusing to read it"),
        ),
        None => Failure::new(
            name,
            format!("input is over the {limit}-byte limit; refusing to read it"),
        ),
    }
}

/// The bytes of one profile or catalog, refusing anything over the size
/// limit before reading it (the file's size is checked first, and the read
/// itself is bounded in case the file grows or is not a regular file).
pub fn read(origin: &Origin, name: &str) -> Result<Vec<u8>, Failure> {
    let limit = max_bytes();
    let result = match origin {
        Origin::Stdin => read_bounded(io::stdin().lock(), limit, 64 * 1024),
        Origin::File(path) => {
            let file = File::open(path).map_err(|e| Failure::io(name, &e))?;
            let meta = file.metadata().map_err(|e| Failure::io(name, &e))?;
            if meta.is_dir() {
                return Err(Failure::new(name, "is a directory"));
            }
            if meta.is_file() && meta.len() > limit as u64 {
                return Err(too_large(name, Some(meta.len())));
            }
            let size = usize::try_from(meta.len()).unwrap_or(limit);
            if meta.is_file() {
                read_sized(file, limit, size)
            } else {
                read_bounded(file, limit, size)
            }
        }
    };
    match result {
        Ok(Ok(bytes)) => Ok(bytes),
        Ok(Err(())) => Err(too_large(name, None)),
        Err(e) => Err(Failure::io(name, &e)),
    }
}

/// Import `bytes` as `format`. A Compose file reads the files Compose reads
/// beside it (its `.env`, `env_file`, `include`, `extends.file`, the
/// override file) from its own directory; standard input has none, so a
/// file it names is unreadable there. Other formats go through the run's
/// companions ([`RunContext::import`]).
pub fn import_in_context(
    cx: &RunContext,
    origin: &Origin,
    name: &str,
    bytes: &[u8],
    format: Format,
) -> Result<Vec<import::Imported>, ImportError> {
    if format != Format::Compose {
        return cx.import(bytes, format, name);
    }
    let options = &cx.compose;
    let dir = match origin {
        Origin::File(p) => Some(
            p.parent()
                .filter(|d| !d.as_os_str().is_empty())
                .unwrap_or(Path::new("."))
                .to_path_buf(),
        ),
        Origin::Stdin => None,
    };
    let file_name = match origin {
        Origin::File(p) => p.file_name().map(|n| n.to_string_lossy().into_owned()),
        Origin::Stdin => None,
    };
    // `--env-file` is relative to the working directory, as for Compose.
    let cwd = std::env::current_dir().unwrap_or_default();
    let env_files: Vec<String> = options
        .env_files
        .iter()
        .map(|p| cwd.join(p).to_string_lossy().into_owned())
        .collect();
    let resolve = |p: &str| companion(dir.as_deref(), p);
    let cx = import::ComposeContext {
        resolve: &resolve,
        file_name: file_name.as_deref(),
        env_files: &env_files,
        overrides: !options.no_override,
        partial: options.partial,
    };
    import::import_compose(bytes, &cx)
}

/// The bytes of a file a Compose file names, read as Compose reads it:
/// relative to the file's directory, `~` the home of whoever runs it.
fn companion(dir: Option<&Path>, p: &str) -> import::Companion {
    use import::Companion;
    let implicit = matches!(
        p,
        ".env"
            | "compose.override.yml"
            | "compose.override.yaml"
            | "docker-compose.override.yml"
            | "docker-compose.override.yaml"
    );
    let path = if let Some(rest) = p.strip_prefix("~/") {
        match std::env::var_os("HOME") {
            Some(h) => PathBuf::from(h).join(rest),
            None => return Companion::Unreadable("`HOME` is not set".into()),
        }
    } else if Path::new(p).is_absolute() {
        PathBuf::from(p)
    } else {
        match dir {
            Some(d) => d.join(p),
            // Standard input has no directory: nothing beside it to miss,
            // nothing it names to read.
            None if implicit => return Companion::Absent,
            None => {
                return Companion::Unreadable(
                    "the file came on standard input, which has no directory to read it from"
                        .into(),
                )
            }
        }
    };
    let meta = match fs::metadata(&path) {
        Ok(m) => m,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Companion::Absent,
        Err(e) => return Companion::Unreadable(describe_io(&e)),
    };
    if meta.is_dir() {
        return Companion::Unreadable("it is a directory".into());
    }
    let shown = display(&path);
    match read(&Origin::File(path), &shown) {
        Ok(bytes) => Companion::Read(bytes),
        Err(f) => Companion::Unreadable(f.message),
    }
}

/// How to read an input: as a profile, as one sandbox format, or whatever
/// its content says (`auto`, the default).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reading {
    Auto,
    Profile,
    Import(Format),
}

impl Reading {
    /// Parse a `--from` value: `auto`, `profile`, or a format name or alias.
    pub fn parse(s: &str) -> Result<Reading, String> {
        match s.to_ascii_lowercase().as_str() {
            "auto" => Ok(Reading::Auto),
            "profile" | "isolint" => Ok(Reading::Profile),
            other => Format::parse(other).map(Reading::Import).ok_or_else(|| {
                let names: Vec<&str> = Format::ALL.iter().map(|f| f.name()).collect();
                format!(
                    "`{s}` is not a format; use auto, profile, {}",
                    names.join(", ")
                )
            }),
        }
    }

    /// File extensions a directory walk collects.
    pub fn extensions(self) -> &'static [&'static str] {
        match self {
            Reading::Auto => &["json", "yaml", "yml", "toml", "sh"],
            Reading::Profile => &["json"],
            Reading::Import(Format::Kubernetes | Format::Compose) => &["yaml", "yml", "json"],
            Reading::Import(Format::Oci | Format::SandboxSettings) => &["json"],
            Reading::Import(Format::Codex) => &["toml"],
            Reading::Import(Format::Bwrap) => &["sh"],
        }
    }
}

/// The reports of one input (an imported file can describe several
/// profiles) and the importer's notes on settings with no equivalent.
#[derive(Debug)]
pub struct Audited {
    pub reports: Vec<isolint_core::Report>,
    pub notes: Vec<String>,
}

/// An input read and its format decided; a profile also parsed. All of
/// it can happen before the catalog is loaded.
#[derive(Debug)]
pub enum ReadInput {
    /// A profile, parsed and decoded ahead of its audit (or why it could
    /// not be parsed).
    Parsed(Box<Result<Parsed<'static>, InputError>>),
    /// A profile to parse when it is audited (`None`), or a file for the
    /// importer of that format.
    Bytes(Vec<u8>, Option<Format>),
}

/// Read one input and decide how to read it (`parse`: also parse it when
/// it is a profile).
pub fn read_input(input: &Input, reading: Reading, parse: bool) -> Result<ReadInput, Failure> {
    let bytes = read(&input.origin, &display_name(input))?;
    let format = match reading {
        Reading::Profile => None,
        Reading::Import(f) => Some(f),
        Reading::Auto => import::detect(&bytes, Some(&input.name)),
    };
    Ok(match format {
        None if parse => ReadInput::Parsed(Box::new(Parsed::new(bytes, Limits::default()))),
        _ => ReadInput::Bytes(bytes, format),
    })
}

/// Read and audit one input: a profile directly, any other sandbox
/// configuration through its importer (findings then point at the
/// original file too).
pub fn audit(
    cx: &RunContext,
    input: &Input,
    labels: &Labels,
    options: &isolint_core::AuditOptions,
    reading: Reading,
) -> Result<Audited, Failure> {
    let read = read_input(input, reading, false)?;
    audit_read(
        cx,
        input,
        read,
        labels,
        options,
        isolint_core::Detail::Full,
        None,
    )
}

/// [`audit`] of an input already read; `detail` says what a profile's
/// report carries besides its findings (imported files always get it all).
/// `memo`, for a run of many inputs, holds what the strings of the
/// profiles audited before were found to hold ([`Parsed::remembering`]).
pub fn audit_read(
    cx: &RunContext,
    input: &Input,
    read: ReadInput,
    labels: &Labels,
    options: &isolint_core::AuditOptions,
    detail: isolint_core::Detail,
    memo: Option<&Arc<Mutex<Memo>>>,
) -> Result<Audited, Failure> {
    let shown = display_name(input);
    let parsed = match read {
        ReadInput::Parsed(parsed) => *parsed,
        ReadInput::Bytes(bytes, None) => Parsed::new(bytes, Limits::default()),
        ReadInput::Bytes(bytes, Some(format)) => {
            return audit_imported(cx, input, &shown, &bytes, format, labels, options)
        }
    }
    .map_err(|e| Failure::input(&shown, e))?;
    let parsed = match memo {
        Some(m) => parsed.remembering(m),
        None => parsed,
    };
    let report = isolint_core::audit_parsed(
        parsed,
        &input.name,
        labels,
        options,
        detail,
        &crate::pool::Pool,
    );
    let mut notes = Vec::new();
    if cx.active() {
        notes.push(neutralize(&format!("{shown}: the --runner overlay applies to imported formats; this isolint.profile/v1 is audited as written")).into_owned());
    }
    Ok(Audited {
        reports: vec![report],
        notes,
    })
}

/// [`audit_read`] of a file in another sandbox format, through its importer.
fn audit_imported(
    cx: &RunContext,
    input: &Input,
    shown: &str,
    bytes: &[u8],
    format: Format,
    labels: &Labels,
    options: &isolint_core::AuditOptions,
) -> Result<Audited, Failure> {
    if format == Format::Kubernetes && cx.is_companion(&input.name) {
        return Ok(Audited {
            reports: Vec::new(),
            notes: vec![neutralize(&format!("{shown}: holds only cluster objects (NetworkPolicy, LimitRange, ResourceQuota, RuntimeClass); they are read into the run's Kubernetes workloads, not audited as a profile")).into_owned()],
        });
    }
    let failure = |e: ImportError| {
        let pos = e.loc.map(|l| (l.line, l.column));
        let message = ImportError::new(e.kind.clone()).to_string();
        Failure {
            pos,
            ..Failure::new(shown, format!("{message} (read as {})", format.title()))
        }
    };
    let imported =
        import_in_context(cx, &input.origin, &input.name, bytes, format).map_err(failure)?;
    if imported.is_empty() {
        return Err(Failure::new(
            shown,
            format!("no profile found in this {}", format.title()),
        ));
    }
    import::check_audit_count(&imported).map_err(failure)?;
    let mut audited = Audited {
        reports: Vec::with_capacity(imported.len()),
        notes: Vec::new(),
    };
    // Notes shared by several profiles of one file are printed once; a set,
    // since a file can hold tens of thousands of profiles.
    let mut seen = std::collections::HashSet::new();
    for unit in &imported {
        let of_unit = if unit.name.is_empty() {
            String::new()
        } else {
            format!(" [{}]", unit.name)
        };
        for n in &unit.notes {
            let note = format!("{shown}:{}:{}: {}{of_unit}", n.line, n.column, n.message);
            let note = neutralize(&note).into_owned();
            if seen.insert(note.clone()) {
                audited.notes.push(note);
            }
        }
        let report = cx
            .audit_imported(unit, &input.name, labels, options)
            .map_err(|e| Failure::new(&unit.display_name(shown), e))?;
        audited.reports.push(report);
    }
    Ok(audited)
}

fn display_name(input: &Input) -> String {
    match &input.origin {
        Origin::Stdin => input.name.clone(),
        Origin::File(p) => display(p),
    }
}

/// Load a `--labels` catalog. Every problem in it is returned: a catalog is
/// trusted configuration, so one bad entry makes the whole file unusable.
pub fn load_labels(path: &Path) -> Result<Labels, Vec<Failure>> {
    let name = display(path);
    let bytes = read(&Origin::File(path.to_path_buf()), &name).map_err(|f| vec![f])?;
    Labels::load(&bytes).map_err(|e| match e {
        CatalogError::Input(e) => vec![Failure::input(&name, e)],
        CatalogError::Invalid(problems) => invalid(&name, "label catalog", &problems),
    })
}

/// One failure per problem of an unusable `what` file, each at its place.
fn invalid(name: &str, what: &str, problems: &[Problem]) -> Vec<Failure> {
    problems
        .iter()
        .map(|p| Failure {
            pos: Some((p.pos.line, p.pos.column)),
            ..Failure::new(
                name,
                format!("invalid {what}: {} (at `{}`)", p.describe(), p.pointer),
            )
        })
        .collect()
}

/// Load a `--waivers` file, with where it lives (absolute, links resolved
/// when possible) so core can refuse a file that a mount puts within the
/// job's reach. Any problem makes the whole file unusable.
pub fn load_waivers(path: &Path) -> Result<(Vec<Waiver>, WaiversSource), Vec<Failure>> {
    let name = display(path);
    let bytes = read(&Origin::File(path.to_path_buf()), &name).map_err(|f| vec![f])?;
    let list = waivers::parse(&bytes).map_err(|e| match e {
        WaiversError::Input(e) => vec![Failure::input(&name, e)],
        WaiversError::Invalid(problems) => invalid(&name, "waivers file", &problems),
    })?;
    let absolute = fs::canonicalize(path)
        .or_else(|_| std::path::absolute(path))
        .unwrap_or_else(|_| path.to_path_buf());
    let named = std::path::absolute(path)
        .map(|p| p.to_string_lossy().into_owned())
        .unwrap_or_default();
    let source = WaiversSource {
        path: absolute.to_string_lossy().into_owned(),
        named,
    };
    Ok((list, source))
}

/// Where a mount's source is on this host, resolved the way the waivers
/// file's own path is (absolute, links followed), so the two compare like
/// for like. A relative source is taken from the profile's directory, `~`
/// from `$HOME`; a source that still cannot be placed (a variable, a
/// profile read from stdin, `..` below a missing directory) is unknown,
/// which the waivers check treats as covering the file.
pub fn mount_host_path(
    profile: Option<&Path>,
    m: &isolint_core::report::MountRow,
) -> waivers::HostPath {
    use waivers::HostPath;
    let raw = m.source.trim();
    if raw.is_empty() {
        return HostPath::None;
    }
    if raw.contains('$') || raw.contains('`') {
        return HostPath::Unknown;
    }
    // `~user`: a shell would put that user's home here, which is not
    // looked up.
    if raw.starts_with('~') && raw != "~" && !raw.starts_with("~/") {
        return HostPath::Unknown;
    }
    let path = if raw == "~" || raw.starts_with("~/") {
        match std::env::var_os("HOME") {
            Some(home) => {
                Path::new(&home).join(raw.trim_start_matches('~').trim_start_matches('/'))
            }
            None => return HostPath::Unknown,
        }
    } else if Path::new(raw).is_absolute() {
        PathBuf::from(raw)
    } else {
        match profile
            .and_then(|p| std::path::absolute(p).ok())
            .and_then(|p| p.parent().map(Path::to_path_buf))
        {
            Some(dir) => dir.join(raw),
            None => return HostPath::Unknown,
        }
    };
    // The longest existing ancestor is resolved (links followed); the rest,
    // which does not exist yet, is appended as written.
    let mut rest = Vec::new();
    let mut at = path.as_path();
    loop {
        if let Ok(real) = fs::canonicalize(at) {
            let mut full = real;
            for part in rest.iter().rev() {
                full.push(part);
            }
            return HostPath::Path(full.to_string_lossy().into_owned());
        }
        match (at.parent(), at.file_name()) {
            (Some(parent), Some(name)) => {
                rest.push(name.to_os_string());
                at = parent;
            }
            // `..` or `.` below a missing directory: its target is unknown.
            _ => return HostPath::Unknown,
        }
    }
}

/// The file system (device) `p` is on.
#[cfg(unix)]
fn device(m: &fs::Metadata) -> u64 {
    std::os::unix::fs::MetadataExt::dev(m)
}

/// The file system of a waivers file that has other names (hard links):
/// those may lie anywhere on it, inside a mount the job can write.
#[cfg(unix)]
pub fn linked_waivers_device(source: &WaiversSource) -> Option<u64> {
    let m = fs::metadata(&source.path).ok()?;
    (std::os::unix::fs::MetadataExt::nlink(&m) > 1).then(|| device(&m))
}

#[cfg(not(unix))]
pub fn linked_waivers_device(_: &WaiversSource) -> Option<u64> {
    None
}

/// [`mount_host_path`] for the waivers check: with a waivers file that has
/// other names on device `linked`, a mount whose source is on that device
/// may hold one of them, so its place is unknown (and covers the file).
pub fn waivers_host_path(
    profile: Option<&Path>,
    m: &isolint_core::report::MountRow,
    linked: Option<u64>,
) -> waivers::HostPath {
    let host = mount_host_path(profile, m);
    #[cfg(unix)]
    if let (waivers::HostPath::Path(p), Some(dev)) = (&host, linked) {
        // The nearest part of the source that exists says which file system.
        let on = Path::new(p)
            .ancestors()
            .find_map(|a| fs::metadata(a).ok())
            .map(|md| device(&md));
        if on.is_none_or(|d| d == dev) {
            return waivers::HostPath::Unknown;
        }
    }
    #[cfg(not(unix))]
    let _ = linked;
    host
}

/// Load a `--baseline` export: an earlier `isolint.findings/v1` document
/// or array of them. A file that is not one is refused with the place of
/// the problem, so a typo cannot silently turn every finding `new`.
pub fn load_baseline(path: &Path) -> Result<Vec<Export>, Failure> {
    let name = display(path);
    let bytes = read(&Origin::File(path.to_path_buf()), &name)?;
    let doc = isolint_core::json::parse(&bytes, Limits::default())
        .map_err(|e| Failure::input(&name, e))?;
    let invalid = |node: &isolint_core::json::Node, what: String| Failure {
        pos: Some((node.pos.line, node.pos.column)),
        ..Failure::new(&name, format!("not an isolint.findings/v1 export: {what}"))
    };
    let documents: Vec<(String, &isolint_core::json::Node)> = match &doc.root.value {
        isolint_core::json::Value::Array(items) => items
            .iter()
            .enumerate()
            .map(|(i, n)| (format!("/{i}"), n))
            .collect(),
        _ => vec![(String::new(), &doc.root)],
    };
    for (at, node) in &documents {
        if node.members().is_none() {
            return Err(invalid(
                node,
                format!("`{at}` is {}, not a findings document", node.type_name()),
            ));
        }
        match node.get("schema") {
            Some(s) if s.as_str() == Some(FINDINGS_SCHEMA) => {}
            Some(s) => {
                return Err(invalid(
                    s,
                    format!("`{at}/schema` is not \"{FINDINGS_SCHEMA}\""),
                ))
            }
            None => {
                return Err(invalid(
                    node,
                    format!("`{at}` has no `schema` (\"{FINDINGS_SCHEMA}\")"),
                ))
            }
        }
    }
    baseline::parse(&bytes).map_err(|e| {
        // Point at the place serde stopped, in the shape the file has.
        let pos = match &doc.root.value {
            isolint_core::json::Value::Array(_) => {
                serde_json::from_slice::<Vec<Export>>(&bytes).err()
            }
            _ => serde_json::from_slice::<Export>(&bytes).err(),
        }
        .map(|se| {
            let text = se.to_string();
            let message = match text.rfind(" at line ") {
                Some(i) => text[..i].to_string(),
                None => text,
            };
            ((se.line() as u32, se.column() as u32), message)
        });
        match pos {
            Some((pos, message)) => Failure {
                pos: Some(pos),
                ..Failure::new(
                    &name,
                    format!("not an isolint.findings/v1 export: {message}"),
                )
            },
            None => Failure::new(&name, e.to_string()),
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn failure_lines_read_like_a_compiler() {
        let f = Failure {
            path: "a.json".into(),
            pos: Some((3, 7)),
            message: "invalid JSON: x".into(),
        };
        assert_eq!(f.to_string(), "a.json:3:7: invalid JSON: x");
        let f = Failure::new("b\u{1b}[31m.json", "cannot read: no such file or directory");
        assert_eq!(
            f.to_string(),
            "b\\u{1b}[31m.json: cannot read: no such file or directory"
        );
    }

    /// A catalog or waivers file with several problems: each is its own
    /// failure, at its line and column, naming the file's kind and the
    /// pointer; none is dropped.
    #[test]
    fn every_problem_of_a_catalog_or_waivers_file_is_reported_in_place() {
        let dir = tempfile::tempdir().unwrap();
        let catalog = dir.path().join("labels.json");
        std::fs::write(
            &catalog,
            r#"{"schema":"isolint.labels/v1","name":"x","labels":[{"path":"/a","label":"nope"},{"label":"scratch"}]}"#,
        )
        .unwrap();
        let failures = load_labels(&catalog).expect_err("invalid");
        let lines: Vec<String> = failures.iter().map(ToString::to_string).collect();
        assert_eq!(lines.len(), 2, "{lines:#?}");
        assert!(
            lines[0].contains(":1:73: invalid label catalog: unknown value `nope`"),
            "{lines:#?}"
        );
        assert!(lines[0].ends_with("(at `/labels/0/label`)"), "{lines:#?}");
        assert!(
            lines[1]
                .contains(":1:81: invalid label catalog: `path` is required (at `/labels/1/path`)"),
            "{lines:#?}"
        );

        let waivers = dir.path().join("waivers.json");
        std::fs::write(
            &waivers,
            r#"{"schema":"isolint.waivers/v1","waivers":[{"rule":"MNT999"}]}"#,
        )
        .unwrap();
        let failures = load_waivers(&waivers).map(|_| ()).expect_err("invalid");
        for field in ["reason", "owner", "expires", "profile_sha256", "rule"] {
            let at = format!("(at `/waivers/0/{field}`)");
            assert!(
                failures.iter().any(|f| f.to_string().ends_with(&at)),
                "{field}: {failures:#?}"
            );
        }
        for f in &failures {
            let line = f.to_string();
            assert!(line.contains(": invalid waivers file: "), "{line}");
            assert!(line.contains("(at `/waivers/0/"), "{line}");
            assert!(f.pos.is_some(), "{line}");
        }
    }

    #[test]
    fn source_names_drop_a_leading_dot_slash() {
        assert_eq!(source_name(Path::new("./a/b.json")), "a/b.json");
        assert_eq!(source_name(Path::new("a/b.json")), "a/b.json");
        assert_eq!(source_name(Path::new("/abs/b.json")), "/abs/b.json");
    }

    #[test]
    fn glob_lists_read_naturally() {
        assert_eq!(patterns(&["json"]), "*.json");
        assert_eq!(
            patterns(&["yaml", "yml", "json"]),
            "*.yaml, *.yml or *.json"
        );
    }

    #[test]
    fn from_accepts_names_aliases_and_auto() {
        assert_eq!(Reading::parse("auto"), Ok(Reading::Auto));
        assert_eq!(Reading::parse("profile"), Ok(Reading::Profile));
        assert_eq!(
            Reading::parse("K8s"),
            Ok(Reading::Import(Format::Kubernetes))
        );
        assert!(Reading::parse("helm").unwrap_err().contains("kubernetes"));
    }

    #[test]
    fn bounded_reads_stop_one_byte_past_the_limit() {
        assert_eq!(
            read_bounded(&b"abcd"[..], 4, 0).unwrap(),
            Ok(b"abcd".to_vec())
        );
        assert_eq!(read_bounded(&b"abcde"[..], 4, 0).unwrap(), Err(()));
        // An endless reader is cut off, not read to exhaustion.
        assert_eq!(read_bounded(io::repeat(b'x'), 1024, 0).unwrap(), Err(()));
    }

    /// A reader of `data` handing out at most `step` bytes a call, and
    /// counting its calls.
    struct Trickle<'a> {
        data: &'a [u8],
        step: usize,
        calls: usize,
    }

    impl Read for Trickle<'_> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            self.calls += 1;
            let k = buf.len().min(self.step).min(self.data.len());
            let (head, rest) = self.data.split_at(k);
            buf[..k].copy_from_slice(head);
            self.data = rest;
            Ok(k)
        }
    }

    #[test]
    fn sized_reads_take_one_call_and_still_see_growth_and_limits() {
        let read = |data: &[u8], step: usize, limit: usize, size: usize| {
            let mut r = Trickle {
                data,
                step,
                calls: 0,
            };
            let got = read_sized(&mut r, limit, size).unwrap();
            (got, r.calls)
        };
        // The file as it was opened: one read, no probe for its end.
        assert_eq!(read(b"abcd", 64, 10, 4), (Ok(b"abcd".to_vec()), 1));
        assert_eq!(read(b"", 64, 10, 0), (Ok(Vec::new()), 1));
        // Short reads are read on until the size is reached.
        assert_eq!(read(b"abcdef", 1, 10, 6), (Ok(b"abcdef".to_vec()), 6));
        // Grown since it was opened: read to its end, within the limit.
        assert_eq!(read(b"abcdefgh", 3, 10, 4).0, Ok(b"abcdefgh".to_vec()));
        assert_eq!(read(b"abcdefgh", 64, 6, 4).0, Err(()));
        assert_eq!(read(b"abcdef", 64, 6, 4).0, Ok(b"abcdef".to_vec()));
        // Shrunk since: what is there.
        assert_eq!(read(b"ab", 64, 10, 4).0, Ok(b"ab".to_vec()));
        // An endless file is cut off one byte past the limit.
        let mut endless = io::repeat(b'x');
        assert_eq!(read_sized(&mut endless, 1024, 8).unwrap(), Err(()));
    }

    #[test]
    fn io_errors_are_lowercase_without_os_codes() {
        let e = io::Error::from(io::ErrorKind::NotFound);
        assert_eq!(describe_io(&e), "no such file or directory");
        let e = io::Error::other("Broken thing (os error 99)");
        assert_eq!(describe_io(&e), "broken thing");
    }

    #[test]
    fn walks_sorted_skipping_hidden_and_non_json() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        for p in [
            "b.json",
            "a/z.json",
            "a/y.txt",
            ".hidden/x.json",
            "a/.h.json",
            "c.json",
        ] {
            let p = root.join(p);
            fs::create_dir_all(p.parent().unwrap()).unwrap();
            fs::write(p, "{}").unwrap();
        }
        let got: Vec<String> = walk(root, &["json"])
            .into_iter()
            .map(|r| {
                r.unwrap()
                    .strip_prefix(root)
                    .unwrap()
                    .to_string_lossy()
                    .into_owned()
            })
            .collect();
        assert_eq!(got, ["a/z.json", "b.json", "c.json"]);
    }

    #[test]
    fn walk_order_is_the_component_order_of_paths() {
        // Names around the separator's byte and prefixes of one another:
        // `a-b` sorts before `a.b`, but `a/…` (a directory) before both.
        let names = ["a", "a-b", "a.b", "a0", "ab", "b", "a b", "é", "~"];
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        for x in names {
            // Each name is a file, and a directory of the same names.
            fs::write(root.join(format!("{x}.json")), "{}").unwrap();
            fs::create_dir(root.join(x)).unwrap();
            for y in names {
                fs::write(root.join(x).join(format!("{y}.json")), "{}").unwrap();
                fs::create_dir(root.join(x).join(y)).unwrap();
                fs::write(root.join(x).join(y).join("z.json"), "{}").unwrap();
            }
        }
        let got: Vec<PathBuf> = walk(root, &["json"])
            .into_iter()
            .map(Result::unwrap)
            .collect();
        let mut want = got.clone();
        want.sort();
        assert_eq!(got.len(), names.len() * (1 + 2 * names.len()));
        assert_eq!(got, want);
    }
}
