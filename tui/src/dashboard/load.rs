//! How the dashboard reads and audits files and shows what went wrong.
//! The reading itself (bounded reads, directory expansion, today's date,
//! atomic writes) is [`crate::files`], the layer the CLI reads through
//! too, so the dashboard refuses exactly what `audit` refuses;
//! this module keeps only the error panels' shape (file, line, column,
//! masked context). Called from [`super::effects`]; the view never
//! touches a file.

use std::fs;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use isolint_core::import::{self, Format, ImportError};
use isolint_core::json::InputError;
use isolint_core::sanitize::neutralize;
use isolint_core::secrets;
use isolint_core::{audit, AuditOptions, Date, Labels, Report};

use crate::files::runner::RunContext;

/// Where a profile comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    /// The workshop profile compiled into the binary.
    Embedded,
    File(PathBuf),
    /// An argument that could not be expanded (display name, why).
    Unreadable(String, String),
}

/// Where the catalog comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CatalogSource {
    Embedded,
    File(PathBuf),
}

/// Why a file could not be audited, with the place when there is one.
/// Every string is display-safe (neutralized, secrets masked).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LoadError {
    pub file: String,
    pub line: Option<u32>,
    pub column: Option<u32>,
    pub message: String,
    /// Source lines around the error, masked and neutralized.
    pub context: Vec<(u32, String)>,
}

impl LoadError {
    /// `file:line:column: message`.
    pub fn headline(&self) -> String {
        match (self.line, self.column) {
            (Some(l), Some(c)) => format!("{}:{l}:{c}: {}", self.file, self.message),
            (Some(l), None) => format!("{}:{l}: {}", self.file, self.message),
            _ => format!("{}: {}", self.file, self.message),
        }
    }
}

/// A file's identity for change detection: modification time and size, or
/// `None` when it cannot be read (deleted mid-save, say).
pub type Stamp = Option<(SystemTime, u64)>;

pub fn stamp(path: &Path) -> Stamp {
    let m = fs::metadata(path).ok()?;
    Some((m.modified().ok()?, m.len()))
}

/// Display form of a path as the user gave it, safe for the terminal.
pub fn display_path(path: &Path) -> String {
    neutralize(&path.to_string_lossy()).into_owned()
}

/// The files behind the command-line arguments: files as given,
/// directories replaced by every profile or importable configuration under
/// them, walked as `isolint audit` walks them (sorted, hidden entries and
/// links to directories skipped, non-JSON files kept only when their
/// content is a format isolint reads). An argument that cannot be expanded
/// becomes an error slot, so it is shown rather than dropped.
pub fn expand(args: &[PathBuf]) -> anyhow::Result<Vec<Source>> {
    use crate::files::input::{self, Reading};
    let expanded = input::expand_detecting(args, Reading::Auto.extensions(), None, true);
    let mut out = Vec::new();
    for job in expanded.jobs {
        match job {
            Ok(input) => match input.origin {
                input::Origin::File(p) => out.push(Source::File(p)),
                input::Origin::Stdin => {
                    anyhow::bail!("the dashboard cannot read standard input; name a file")
                }
            },
            Err(f) if args.len() == 1 && f.message.starts_with("directory holds no") => {
                anyhow::bail!("{f}")
            }
            Err(f) => out.push(Source::Unreadable(f.path.clone(), f.message.clone())),
        }
    }
    Ok(out)
}

/// Load the catalog.
pub fn load_labels(source: &CatalogSource) -> Result<Labels, LoadError> {
    match source {
        CatalogSource::Embedded => Ok(Labels::workshop()),
        CatalogSource::File(path) => {
            let file = display_path(path);
            let bytes = read(path, &file)?;
            Labels::load(&bytes).map_err(|e| match e {
                isolint_core::CatalogError::Input(ie) => input_error(&file, &bytes, &ie),
                other => LoadError {
                    file: file.clone(),
                    line: None,
                    column: None,
                    message: format!(
                        "not a usable label catalog:\n{}",
                        neutralize_lines(&other.to_string())
                    ),
                    context: Vec::new(),
                },
            })
        }
    }
}

/// One profile of a file: which part of the file it is (`Deployment/web
/// container app`, a Compose service; empty when the file holds one
/// profile) and its report, or why it could not be audited.
#[derive(Debug)]
pub struct Loaded {
    pub unit: String,
    /// The profile's name within its file as the importer gave it (empty
    /// for a native profile): how a fix names the profile it edits. Not
    /// display-safe; `unit` is what is shown.
    pub profile: String,
    pub outcome: Result<Report, LoadError>,
    /// The importer's notes, as `isolint import` prints them: `note:`
    /// for a source setting with no profile equivalent (with its place),
    /// `not declared:` for a profile field the format cannot express.
    /// Display-safe.
    pub notes: Vec<String>,
}

impl Loaded {
    fn whole(outcome: Result<Report, LoadError>) -> Loaded {
        Loaded {
            unit: String::new(),
            profile: String::new(),
            outcome,
            notes: Vec::new(),
        }
    }
}

/// Read and audit every profile of one file: one for an
/// `isolint.profile/v1` document, one per container or service of an
/// imported configuration. A file that cannot be read or imported is one
/// entry holding the error, never nothing.
pub fn load_profiles(
    cx: &RunContext,
    source: &Source,
    labels: &Labels,
    today: Option<Date>,
) -> Vec<Loaded> {
    let options = AuditOptions { today };
    match source {
        Source::Embedded => vec![Loaded::whole(
            audit(
                isolint_core::WORKSHOP_PROFILE.as_bytes(),
                "workshop.json",
                labels,
                &options,
            )
            .map_err(|e| {
                input_error(
                    "workshop.json",
                    isolint_core::WORKSHOP_PROFILE.as_bytes(),
                    &e,
                )
            }),
        )],
        Source::Unreadable(file, message) => vec![Loaded::whole(Err(LoadError {
            file: file.clone(),
            line: None,
            column: None,
            message: message.clone(),
            context: Vec::new(),
        }))],
        Source::File(path) => {
            let file = display_path(path);
            let bytes = match read(path, &file) {
                Ok(b) => b,
                Err(e) => return vec![Loaded::whole(Err(e))],
            };
            let name = path.to_string_lossy();
            match import::detect(&bytes, Some(&name)) {
                None => vec![Loaded::whole(
                    audit(&bytes, &name, labels, &options)
                        .map_err(|e| input_error(&file, &bytes, &e)),
                )],
                Some(format) => audit_import(cx, &bytes, &name, &file, format, labels, &options),
            }
        }
    }
}

/// Audit a configuration of another format (Kubernetes, Compose, OCI, …)
/// through its importer: one entry per profile it describes, each with
/// findings that point at the original file too.
fn audit_import(
    cx: &RunContext,
    bytes: &[u8],
    name: &str,
    file: &str,
    format: Format,
    labels: &Labels,
    options: &AuditOptions,
) -> Vec<Loaded> {
    let imported = match import_units(cx, name, bytes, format) {
        Ok(i) => i,
        Err(e) => {
            let message = ImportError::new(e.kind.clone()).to_string();
            let pos = e.loc.map(|l| (l.line, l.column));
            return vec![Loaded::whole(Err(LoadError {
                message: format!("{} (read as {})", neutralize(&message), format.title()),
                ..positioned(file, bytes, pos, String::new())
            }))];
        }
    };
    if imported.is_empty() {
        return vec![Loaded::whole(Err(LoadError {
            file: file.to_string(),
            line: None,
            column: None,
            message: format!("no profile found in this {}", format.title()),
            context: Vec::new(),
        }))];
    }
    imported
        .iter()
        .map(|unit| Loaded {
            unit: unit.shown_name(),
            notes: import_notes(file, unit),
            profile: unit.name.clone(),
            outcome: cx.audit_imported(unit, name, labels, options).map_err(|e| {
                positioned(
                    &if unit.name.is_empty() {
                        file.to_string()
                    } else {
                        format!("{file}#{}", unit.shown_name())
                    },
                    unit.profile_json.as_bytes(),
                    None,
                    neutralize(&e).into_owned(),
                )
            }),
        })
        .collect()
}

/// The profiles of a file of another format (`name`: its path), as
/// `isolint audit` reads them: a Compose file with the `.env`,
/// `env_file`, `include` and override files beside it, other formats with
/// the run's companions. The dashboard's verdict is the CLI's, and so is
/// the re-audit that proves a fix.
fn import_units(
    cx: &RunContext,
    name: &str,
    bytes: &[u8],
    format: Format,
) -> Result<Vec<import::Imported>, ImportError> {
    let origin = crate::files::input::Origin::File(PathBuf::from(name));
    crate::files::input::import_in_context(cx, &origin, name, bytes, format)
        .and_then(|i| import::check_audit_count(&i).map(|()| i))
}

/// Every profile of `text` audited as [`load_profiles`] audits the file
/// it was read from (`name`: its path), as `(profile name, report)`; the
/// name is empty for a native profile. What the dashboard's fixes prove
/// themselves with. `Err`: why the text cannot be audited (not shown as
/// is: it may quote the text).
pub fn audit_text(
    cx: &RunContext,
    text: &str,
    name: &str,
    labels: &Labels,
    options: &AuditOptions,
) -> Result<Vec<(String, Report)>, String> {
    match import::detect(text.as_bytes(), Some(name)) {
        None => audit(text.as_bytes(), name, labels, options)
            .map(|r| vec![(String::new(), r)])
            .map_err(|e| e.to_string()),
        Some(format) => {
            let units =
                import_units(cx, name, text.as_bytes(), format).map_err(|e| e.to_string())?;
            units
                .iter()
                .map(|u| Ok((u.name.clone(), cx.audit_imported(u, name, labels, options)?)))
                .collect()
        }
    }
}

/// `note: file:line:column: message` and `not declared: /pointer: reason`.
fn import_notes(file: &str, unit: &import::Imported) -> Vec<String> {
    let notes = unit
        .notes
        .iter()
        .map(|n| format!("note: {file}:{}:{}: {}", n.line, n.column, n.message));
    let undeclared = unit
        .undeclared
        .iter()
        .map(|u| format!("not declared: {}: {}", u.pointer, u.reason));
    notes
        .chain(undeclared)
        .map(|s| neutralize(&s).into_owned())
        .collect()
}

/// The file's bytes, read as `audit` reads them: a size limit checked
/// before reading and enforced while reading, so `/dev/zero`, a FIFO fed
/// without end or an over-size file is refused, never read into memory.
fn read(path: &Path, file: &str) -> Result<Vec<u8>, LoadError> {
    use crate::files::input::{self, Origin};
    input::read(&Origin::File(path.to_path_buf()), file).map_err(|f| LoadError {
        file: file.to_string(),
        line: None,
        column: None,
        message: f.message,
        context: Vec::new(),
    })
}

fn neutralize_lines(s: &str) -> String {
    s.lines()
        .map(|l| neutralize(l).into_owned())
        .collect::<Vec<_>>()
        .join("\n")
}

/// An input error with up to two lines of context on each side. The text
/// did not parse, so secrets are masked by token shape and by key name.
fn input_error(file: &str, bytes: &[u8], e: &InputError) -> LoadError {
    let message = InputError::new(e.kind.clone(), None).to_string();
    positioned(
        file,
        bytes,
        e.pos.map(|p| (p.line, p.column)),
        neutralize(&message).into_owned(),
    )
}

/// A load error at `pos` of `bytes`, with up to two lines of context on
/// each side (masked: the text did not parse).
fn positioned(file: &str, bytes: &[u8], pos: Option<(u32, u32)>, message: String) -> LoadError {
    let context = match (pos, std::str::from_utf8(bytes)) {
        (Some((line, _)), Ok(text)) => {
            let first = line.saturating_sub(2).max(1);
            // Masked whole first: a key and its value may stand on two
            // lines, of which only one is shown.
            secrets::mask_unparsed(text)
                .lines()
                .enumerate()
                .map(|(i, l)| (i as u32 + 1, l))
                .skip_while(|(n, _)| *n < first)
                .take_while(|(n, _)| *n <= line + 2)
                .map(|(n, l)| (n, mask_unparsed_line(l)))
                .collect()
        }
        _ => Vec::new(),
    };
    LoadError {
        file: file.to_string(),
        line: pos.map(|p| p.0),
        column: pos.map(|p| p.1),
        message,
        context,
    }
}

/// Mask what looks like a secret in one line of text that did not parse:
/// credential-shaped tokens, and the string value after a secret-named key
/// (`"API_TOKEN": "..."`). Then neutralize control characters.
pub fn mask_unparsed_line(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut rest = line;
    // Walk `"key" : "value"` pairs; mask the value when the key is secret-named.
    while let Some(start) = rest.find('"') {
        let (before, after) = rest.split_at(start);
        out.push_str(before);
        let Some((key, tail)) = quoted(after) else {
            out.push_str(after);
            rest = "";
            break;
        };
        out.push_str(&after[..after.len() - tail.len()]);
        let trimmed = tail.trim_start();
        if let Some(colon_rest) = trimmed.strip_prefix(':') {
            let value_part = colon_rest.trim_start();
            if value_part.starts_with('"') && secrets::is_secret_name(key) {
                if let Some((_, value_tail)) = quoted(value_part) {
                    out.push_str(&tail[..tail.len() - value_part.len()]);
                    out.push('"');
                    out.push_str(secrets::MASK);
                    out.push('"');
                    rest = value_tail;
                    continue;
                }
            }
        }
        rest = tail;
    }
    out.push_str(rest);
    neutralize(&secrets::scrub_tokens(&out)).into_owned()
}

/// `"abc" tail` → `("abc", " tail")`; `None` when the quote is not closed.
fn quoted(s: &str) -> Option<(&str, &str)> {
    let body = s.strip_prefix('"')?;
    let mut escaped = false;
    for (i, c) in body.char_indices() {
        match c {
            '\\' if !escaped => escaped = true,
            '"' if !escaped => return Some((&body[..i], &body[i + 1..])),
            _ => escaped = false,
        }
    }
    None
}

/// Read an observations document (bounded, as every input).
pub fn load_observations(path: &Path) -> anyhow::Result<isolint_core::observe::Observations> {
    use crate::files::input::{self, Origin};
    let name = display_path(path);
    let bytes = input::read(&Origin::File(path.to_path_buf()), &name)
        .map_err(|f| anyhow::anyhow!("{f}"))?;
    isolint_core::observe::parse(&bytes)
        .map_err(|e| anyhow::anyhow!("{name}: not usable observations: {e}"))
}

/// Today's date (UTC), as `audit` reads it, for staleness rules.
pub fn today() -> Option<Date> {
    crate::files::today::utc_today()
}

/// The export's file name for a profile: `<stem>.findings.json`, or
/// `<stem>.<unit>.findings.json` for one profile of several in a file.
pub fn export_name(source: &Source, unit: &str) -> String {
    let stem = match source {
        Source::Embedded => "workshop".to_string(),
        Source::File(p) => p
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .filter(|s| !s.is_empty())
            .unwrap_or_else(|| "profile".into()),
        Source::Unreadable(..) => "profile".into(),
    };
    let stem = if unit.is_empty() {
        stem
    } else {
        format!("{stem}.{unit}")
    };
    // Keep the name a plain file name whatever the profile was called.
    let stem: String = stem
        .chars()
        .map(|c| {
            if c.is_control() || c == '/' || c == '\\' {
                '_'
            } else {
                c
            }
        })
        .collect();
    format!("{stem}.findings.json")
}

/// Write `contents` to `path` atomically, as the CLI writes its exports
/// ([`crate::files::atomic`]): a temporary file in the same directory, flushed to
/// disk, then renamed over the destination, so a reader (or a crash) sees
/// the old file or the new one, never half of either. A link is kept and
/// the file it names replaced; a device or a pipe is written into.
pub fn write_atomic(path: &Path, contents: &[u8]) -> std::io::Result<()> {
    crate::files::atomic::write_atomically(path, contents)
}

#[cfg(test)]
mod tests {
    use super::*;
    use isolint_core::Verdict;

    /// The one profile of a single-profile file.
    fn load_profile(
        source: &Source,
        labels: &Labels,
        today: Option<Date>,
    ) -> Result<Report, LoadError> {
        let mut all = load_profiles(&RunContext::default(), source, labels, today);
        assert_eq!(all.len(), 1, "{source:?} holds one profile");
        all.remove(0).outcome
    }

    #[test]
    fn masks_secret_named_values_and_tokens_in_unparsed_text() {
        let line = r#"  "variables": { "API_TOKEN": "hunter2hunter2", "LANG": "C" , "X": "ghp_abcdefghijklmnopqrstuvwxyz0123456789" "#;
        let masked = mask_unparsed_line(line);
        assert!(!masked.contains("hunter2"), "{masked}");
        assert!(!masked.contains("ghp_abc"), "{masked}");
        assert!(masked.contains("\"LANG\": \"C\""), "{masked}");
        assert!(masked.contains("\"API_TOKEN\": \"[redacted]\""), "{masked}");
        assert_eq!(mask_unparsed_line("a\u{1b}]0;x\u{7}"), "a\\u{1b}]0;x\\u{7}");
        assert_eq!(mask_unparsed_line(r#""open"#), r#""open"#);
    }

    #[test]
    fn bad_json_reports_file_line_and_column_with_context() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("broken.json");
        fs::write(
            &path,
            "{\n  \"name\": \"x\",\n  \"PASSWORD\": \"s3cretvalue\",\n  oops\n}\n",
        )
        .unwrap();
        let err = load_profile(&Source::File(path.clone()), &Labels::workshop(), None).unwrap_err();
        assert_eq!(err.line, Some(4));
        assert!(err.column.is_some());
        assert!(
            err.headline()
                .starts_with(&format!("{}:4:", display_path(&path))),
            "{}",
            err.headline()
        );
        assert!(err.context.iter().any(|(n, _)| *n == 4));
        assert!(
            err.context.iter().all(|(_, l)| !l.contains("s3cretvalue")),
            "{:?}",
            err.context
        );
    }

    fn import_fixture(rel: &str) -> PathBuf {
        crate::fixtures::path(&format!("import/{rel}"))
    }

    #[test]
    fn imported_configurations_are_audited_with_original_positions() {
        let pod = import_fixture("kubernetes/pod-home.yaml");
        let r = load_profile(&Source::File(pod), &Labels::workshop(), None).unwrap();
        let f = r
            .issues
            .iter()
            .find(|f| f.pointer == "/mounts/0/source")
            .unwrap();
        let o = f.origin.as_ref().unwrap();
        assert_eq!((o.line, o.column), (20, 15));
        assert!(r.original.is_some());
    }

    /// The dashboard reads a Compose file in its directory, as `isolint
    /// audit` does: what the `.env`, an `env_file`, an `include` or the
    /// override file beside it says decides the findings. Before, the
    /// dashboard imported the text alone and showed every row's context-
    /// made finding missing (4 of 4 rows wrong).
    #[test]
    fn a_compose_file_is_read_with_the_files_beside_it() {
        let base = "services:\n  job:\n    image: python:3.12\n    network_mode: ${NET:-none}\n";
        // (what, files beside it, the Compose file, a rule the context makes fire)
        type Row<'a> = (&'a str, &'a [(&'a str, &'a str)], &'a str, &'a str);
        let rows: &[Row] = &[
            (".env sets the network", &[(".env", "NET=host\n")], base, "NET002"),
            (
                "an env_file brings a cloud key",
                &[("job.env", "AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMIK7MDENGbPxRfiCYEXAMPLEKEY1\n")],
                "services:\n  job:\n    image: python:3.12\n    network_mode: none\n    env_file: job.env\n",
                "CRD",
            ),
            (
                "an include adds a privileged service",
                &[("side.yml", "services:\n  side:\n    image: busybox\n    privileged: true\n")],
                "include:\n  - side.yml\nservices:\n  job:\n    image: python:3.12\n    network_mode: none\n",
                "PRV001",
            ),
            (
                "the override file makes the job privileged",
                &[("compose.override.yml", "services:\n  job:\n    privileged: true\n")],
                "services:\n  job:\n    image: python:3.12\n    network_mode: none\n",
                "PRV001",
            ),
        ];
        let mut wrong = Vec::new();
        for (what, beside, text, rule) in rows {
            let dir = tempfile::tempdir().unwrap();
            let path = dir.path().join("compose.yml");
            fs::write(&path, text).unwrap();
            for (name, body) in *beside {
                fs::write(dir.path().join(name), body).unwrap();
            }
            let all = load_profiles(
                &RunContext::default(),
                &Source::File(path),
                &Labels::workshop(),
                None,
            );
            let found = all.iter().any(|l| {
                l.outcome
                    .as_ref()
                    .is_ok_and(|r| r.issues.iter().any(|f| f.rule.starts_with(rule)))
            });
            if !found {
                wrong.push(*what);
            }
        }
        assert!(wrong.is_empty(), "context not read: {wrong:?}");
    }

    /// Every profile of a file is loaded, each under its own name, so a
    /// risky container beside a calm one is never hidden (before, one slot
    /// per file showed only one of them).
    #[test]
    fn every_profile_of_a_file_is_loaded() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("docker-compose.yml");
        fs::write(
            &path,
            "services:\n  calm:\n    image: busybox\n  risky:\n    image: python:3.12\n    privileged: true\n",
        )
        .unwrap();
        let all = load_profiles(
            &RunContext::default(),
            &Source::File(path),
            &Labels::workshop(),
            None,
        );
        let got: Vec<(&str, Verdict)> = all
            .iter()
            .map(|l| (l.unit.as_str(), l.outcome.as_ref().unwrap().verdict))
            .collect();
        assert_eq!(got.len(), 2, "{got:?}");
        assert!(
            got[0].0.contains("calm") && got[1].0.contains("risky"),
            "{got:?}"
        );
        assert_eq!(got[1].1, Verdict::NotEligible);

        let deployment = import_fixture("kubernetes/deployment-host.yaml");
        let all = load_profiles(
            &RunContext::default(),
            &Source::File(deployment),
            &Labels::workshop(),
            None,
        );
        let units: Vec<&str> = all.iter().map(|l| l.unit.as_str()).collect();
        assert_eq!(units.len(), 2, "{units:?}");
        assert!(units.iter().any(|u| u.contains("build")), "{units:?}");
        assert!(units.iter().any(|u| u.contains("fetch")), "{units:?}");
        assert!(all.iter().all(|l| l.outcome.is_ok()));
    }

    #[test]
    fn a_broken_import_has_its_position() {
        let bad = import_fixture("malformed/compose-unterminated.yaml");
        let err = load_profile(&Source::File(bad), &Labels::workshop(), None).unwrap_err();
        assert!(err.line.is_some() && err.column.is_some(), "{err:?}");
        assert!(err.message.contains("read as"), "{}", err.message);
        assert!(!err.context.is_empty());
    }

    #[test]
    fn missing_file_is_an_error_not_a_panic() {
        let err = load_profile(
            &Source::File("/nonexistent/x.json".into()),
            &Labels::workshop(),
            None,
        )
        .unwrap_err();
        assert!(err.message.starts_with("cannot read"), "{}", err.message);
        assert_eq!(err.line, None);
    }

    #[test]
    fn expands_directories_as_audit_does() {
        let dir = tempfile::tempdir().unwrap();
        fs::create_dir(dir.path().join("sub")).unwrap();
        fs::create_dir(dir.path().join(".hidden")).unwrap();
        for f in [
            "b.json",
            "a.json",
            "notes.txt",
            "sub/c.json",
            ".hidden/d.json",
            "Cargo.toml",
        ] {
            fs::write(dir.path().join(f), "{}").unwrap();
        }
        fs::write(
            dir.path().join("compose.yaml"),
            "services:\n  app:\n    image: busybox\n",
        )
        .unwrap();
        #[cfg(unix)]
        std::os::unix::fs::symlink(dir.path().join("sub"), dir.path().join("link")).unwrap();
        let got = expand(&[dir.path().to_path_buf()]).unwrap();
        let names: Vec<_> = got
            .iter()
            .map(|s| match s {
                Source::File(p) => p
                    .strip_prefix(dir.path())
                    .unwrap()
                    .to_string_lossy()
                    .into_owned(),
                other => panic!("{other:?}"),
            })
            .collect();
        assert_eq!(names, ["a.json", "b.json", "compose.yaml", "sub/c.json"]);
        let empty = tempfile::tempdir().unwrap();
        assert!(expand(&[empty.path().to_path_buf()]).is_err());
        let missing = expand(&[dir.path().join("nope.json")]).unwrap();
        assert!(
            matches!(&missing[..], [Source::Unreadable(_, why)] if why.contains("no such file")),
            "{missing:?}"
        );
    }

    /// What `audit` refuses to read, the dashboard refuses with the same
    /// message: `/dev/zero` (endless), a FIFO fed more than the limit, and
    /// a file over the size limit. None of them is read into memory.
    #[cfg(unix)]
    #[test]
    fn refuses_endless_and_oversize_input_as_audit_does() {
        use crate::files::input::{self, Origin};
        use std::io::Write;
        let limit = input::max_bytes();
        let dir = tempfile::tempdir().unwrap();
        let big = dir.path().join("big.json");
        fs::File::create(&big)
            .unwrap()
            .set_len(limit as u64 + 1)
            .unwrap();
        let fifo = dir.path().join("fifo.json");
        let made = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap();
        assert!(made.success());
        // Feeds the FIFO until the reader stops; each read opens it anew.
        let feed = |path: PathBuf| {
            std::thread::spawn(move || {
                let mut w = fs::OpenOptions::new().write(true).open(path).unwrap();
                let chunk = vec![b' '; 1 << 16];
                while w.write_all(&chunk).is_ok() {}
            })
        };
        let zero = PathBuf::from("/dev/zero");
        for path in [zero, fifo, big] {
            let is_fifo = path.ends_with("fifo.json");
            let writer = is_fifo.then(|| feed(path.clone()));
            let mut got = load_profiles(
                &RunContext::default(),
                &Source::File(path.clone()),
                &Labels::workshop(),
                None,
            );
            if let Some(w) = writer {
                w.join().unwrap();
            }
            let writer = is_fifo.then(|| feed(path.clone()));
            let name = display_path(&path);
            let want = input::read(&Origin::File(path.clone()), &name).unwrap_err();
            if let Some(w) = writer {
                w.join().unwrap();
            }
            assert_eq!(got.len(), 1);
            let err = got.remove(0).outcome.unwrap_err();
            assert_eq!(err.message, want.message, "{}", path.display());
            assert!(
                err.message.contains("limit; refusing to read it"),
                "{}",
                err.message
            );
        }
    }

    #[test]
    fn atomic_write_replaces_and_leaves_no_temp_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("p.findings.json");
        write_atomic(&path, b"old").unwrap();
        write_atomic(&path, b"new").unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"new");
        let files: Vec<_> = fs::read_dir(dir.path()).unwrap().collect();
        assert_eq!(files.len(), 1);
    }

    #[test]
    fn export_names() {
        assert_eq!(export_name(&Source::Embedded, ""), "workshop.findings.json");
        assert_eq!(
            export_name(&Source::File("a/b/parser.json".into()), ""),
            "parser.findings.json"
        );
        assert_eq!(
            export_name(&Source::File("k8s/app.yaml".into()), "Deployment/web/app"),
            "app.Deployment_web_app.findings.json"
        );
    }
}
