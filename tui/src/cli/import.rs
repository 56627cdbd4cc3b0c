//! `isolint import FILE [--from FORMAT] [--output FILE|DIR/]`: convert a
//! sandbox configuration (OCI `config.json`, Kubernetes manifest, Compose
//! file, Codex `config.toml`, sandbox-runtime or Claude Code settings,
//! `bwrap` command line) into `isolint.profile/v1`, and say what did not
//! carry over.
//!
//! - stdout (or `--output`): the generated profile; a JSON array of them
//!   when the file describes several (one per Kubernetes container, one per
//!   Compose service); with `--output DIR/` one file per profile instead;
//! - stderr: one `note:` line per source setting with no profile
//!   equivalent and one `not declared:` line per profile field the format
//!   cannot express (those stay absent and are audited as not declared).
//!
//! Exit status: 0 when the file was imported, 2 on usage or input errors
//! (the message names the file, line and column).

use std::path::{Path, PathBuf};

use isolint_core::import::{self, Format, ImportError, Imported};
use isolint_core::sanitize::neutralize;
use isolint_core::secrets::safe_text;

use crate::files::atomic;
use crate::files::input::{self, Failure, Origin, Reading};

use super::{output, ImportArgs, EXIT_ERROR, EXIT_OK};

/// Run `isolint import`; returns the exit status.
pub fn run(args: &ImportArgs) -> u8 {
    let stdin = args.file.as_os_str() == "-";
    let (origin, name) = if stdin {
        (Origin::Stdin, "<stdin>".to_string())
    } else {
        (
            Origin::File(args.file.clone()),
            input::source_name(&args.file),
        )
    };
    let shown = if stdin {
        name.clone()
    } else {
        input::display(&args.file)
    };
    let bytes = match input::read(&origin, &shown) {
        Ok(b) => b,
        Err(f) => {
            output::error(&f.to_string());
            return EXIT_ERROR;
        }
    };
    let cx = args.context.context();
    let (format, imported) = match args.from {
        // A Compose file reads the files beside it.
        Reading::Import(Format::Compose) => (
            Format::Compose,
            input::import_in_context(&cx, &origin, &name, &bytes, Format::Compose),
        ),
        // The profiles are written, not audited: no source maps.
        Reading::Import(f) => (f, import::import_as(&bytes, f, false)),
        Reading::Profile => {
            output::error(&format!(
                "{shown}: --from profile reads isolint.profile/v1, which needs no import; \
                 audit it directly"
            ));
            return EXIT_ERROR;
        }
        Reading::Auto if import::detect(&bytes, Some(&name)) == Some(Format::Compose) => (
            Format::Compose,
            input::import_in_context(&cx, &origin, &name, &bytes, Format::Compose),
        ),
        Reading::Auto => match import::detect_and_import(&bytes, Some(&name), false) {
            Some(found) => found,
            None => {
                output::error(&format!("{shown}: {}", undetected(&bytes)));
                return EXIT_ERROR;
            }
        },
    };
    let mut imported = match imported {
        Ok(i) if i.is_empty() => {
            output::error(&format!(
                "{shown}: no profile found in this {}",
                format.title()
            ));
            return EXIT_ERROR;
        }
        Ok(i) => i,
        Err(e) => {
            output::error(&describe(&shown, format, &e).to_string());
            return EXIT_ERROR;
        }
    };
    drop(bytes);
    report_notes(&shown, format, &imported);
    // A written profile has no place for what could not be read: with
    // --partial the profiles are written, and each gap is an error that
    // makes the run fail, so a converted profile never passes for whole.
    let mut unread = std::collections::HashSet::new();
    for i in &imported {
        for u in &i.unread {
            let line = neutralize(&format!(
                "{shown}:{}:{}: not read: {} (the written profile lacks it; audit the file, where it is a blocking finding, PRF021)",
                u.line, u.column, u.message
            ))
            .into_owned();
            if unread.insert(line.clone()) {
                output::error(&line);
            }
        }
    }
    if !args.reveal_secrets {
        withhold_secrets(&shown, &mut imported);
    }
    if args.output.is_some() {
        atomic::remove_temporaries_on_interrupt();
    }
    let source = (!stdin).then_some(args.file.as_path());
    match write_profiles(args.output.as_deref(), source, &name, &imported) {
        Ok(()) if !unread.is_empty() => EXIT_ERROR,
        Ok(()) => EXIT_OK,
        Err(msg) => {
            output::error(&msg);
            EXIT_ERROR
        }
    }
}

/// Write every secret value of the converted profiles as `[redacted]`: the
/// profile goes to a terminal, a log or a file someone else reads, and no
/// output of the tool may echo a secret. The masked value still reads as a
/// secret when the profile is audited, so its finding stays.
fn withhold_secrets(shown: &str, imported: &mut [Imported]) {
    let mut withheld = 0;
    // A profile that holds no secret is left as it is without parsing it
    // again; the others are masked with every secret of their file.
    for i in imported.iter_mut().filter(|i| i.holds_secrets) {
        if let std::borrow::Cow::Owned(masked) = i.masked_profile_json() {
            i.profile_json = masked;
            withheld += 1;
        }
    }
    if withheld > 0 {
        output::note(&format!(
            "{shown}: secret values are written as `{}` in {}; \
             pass --reveal-secrets to copy them as they are",
            isolint_core::secrets::MASK,
            isolint_core::text::plural(withheld, "profile")
        ));
    }
}

/// Why auto-detection found nothing to import.
fn undetected(bytes: &[u8]) -> String {
    if is_profile(bytes) {
        "is already an isolint.profile/v1 document; audit it directly".to_string()
    } else {
        let names: Vec<&str> = Format::ALL.iter().map(|f| f.name()).collect();
        format!(
            "cannot tell which format this is; name it with --from ({})",
            names.join(", ")
        )
    }
}

fn is_profile(bytes: &[u8]) -> bool {
    isolint_core::json::parse(bytes, Default::default()).is_ok_and(|d| {
        d.root.get("schema").and_then(|s| s.as_str()) == Some(isolint_core::model::PROFILE_SCHEMA)
            || d.root.get("boundary").is_some()
            || d.root.get("mounts").is_some()
    })
}

/// `file:line:column: message (read as FORMAT)`.
fn describe(shown: &str, format: Format, e: &ImportError) -> Failure {
    let message = ImportError::new(e.kind.clone()).to_string();
    Failure {
        path: shown.to_string(),
        pos: e.loc.map(|l| (l.line, l.column)),
        message: format!("{message} (read as {})", format.title()),
    }
}

/// `[name]` after a message when the file holds several profiles.
fn of_unit(i: &Imported) -> String {
    if i.name.is_empty() {
        String::new()
    } else {
        format!(" [{}]", i.name)
    }
}

fn report_notes(shown: &str, format: Format, imported: &[Imported]) {
    output::note(&format!(
        "{shown}: imported as {}: {}",
        format.title(),
        isolint_core::text::plural(imported.len(), "profile")
    ));
    // Core returns notes masked and neutralized; what this adds (the
    // file's name, a profile's name, numbers, fixed pointers) is made safe
    // here, once per piece.
    let shown = safe_text(shown);
    let mut lines = output::Remarks::default();
    for i in imported {
        let of = safe_text(&of_unit(i)).into_owned();
        for n in &i.notes {
            let at = format!(":{}:{}: ", n.line, n.column);
            lines.remark(&[&shown, &at, &n.message, &of]);
        }
        for u in i.undeclared.iter() {
            lines.not_declared(&[u.pointer, &of, ": ", &u.reason]);
        }
    }
}

/// A file name for one profile: `<stem>.<name>.json`, name made safe.
fn profile_file_name(stem: &str, name: &str) -> String {
    let safe: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || "-_.".contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect();
    let safe = safe.trim_start_matches('.');
    if safe.is_empty() {
        format!("{stem}.json")
    } else {
        format!("{stem}.{safe}.json")
    }
}

/// One document: the profile itself, or an array of them.
fn one_document(imported: &[Imported]) -> String {
    let mut out = Vec::new();
    // Writing to memory cannot fail, and every piece written is UTF-8.
    let _ = write_document(&mut out, imported);
    String::from_utf8(out).unwrap_or_default()
}

/// [`one_document`], written piece by piece: a file of many profiles makes
/// a document several times its size, which need not be held whole too.
fn write_document(w: &mut dyn std::io::Write, imported: &[Imported]) -> std::io::Result<()> {
    if let [only] = imported {
        return w.write_all(only.profile_json.as_bytes());
    }
    // Each profile moved two spaces right. A profile is JSON written by
    // the importer: a line ends in `\n` alone (a CR in a string is
    // escaped), so splitting at `\n` is splitting into lines.
    w.write_all(b"[\n")?;
    for (k, i) in imported.iter().enumerate() {
        w.write_all(b"  ")?;
        w.write_all(i.profile_json.trim_end().replace('\n', "\n  ").as_bytes())?;
        w.write_all(if k + 1 < imported.len() {
            b",\n"
        } else {
            b"\n"
        })?;
    }
    w.write_all(b"]\n")
}

/// The file imported would be replaced by its own profile: refused.
fn refuse_own_input(source: Option<&Path>, target: &Path) -> Result<(), String> {
    match source {
        Some(src) if atomic::same_file(src, target) => Err(format!(
            "{}: is also where the profile would be written, which would replace it; \
             write the profile elsewhere",
            input::display(target)
        )),
        _ => Ok(()),
    }
}

fn write_profiles(
    output: Option<&Path>,
    source: Option<&Path>,
    name: &str,
    imported: &[Imported],
) -> Result<(), String> {
    let Some(out) = output.filter(|p| p.as_os_str() != "-") else {
        return output::stdout(&one_document(imported))
            .map_err(|e| format!("cannot write to stdout: {e}"));
    };
    let as_dir = out.as_os_str().to_string_lossy().ends_with(['/', '\\']) || out.is_dir();
    if !as_dir {
        refuse_own_input(source, out)?;
        atomic::AtomicFile::create(out)
            .and_then(|mut file| {
                write_document(&mut file, imported)?;
                file.commit()
            })
            .map_err(|e| format!("{}: cannot write: {e}", input::display(out)))?;
        output::note(&format!("wrote {}", input::display(out)));
        return Ok(());
    }
    std::fs::create_dir_all(out)
        .map_err(|e| format!("{}: cannot create: {e}", input::display(out)))?;
    let stem = Path::new(name)
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .filter(|s| s != "<stdin>" && !s.is_empty())
        .unwrap_or_else(|| "profile".into());
    let stem = profile_file_name(&stem, "")
        .trim_end_matches(".json")
        .to_string();
    let paths: Vec<PathBuf> = imported
        .iter()
        // A name shaped like a token is not written into a file name.
        .map(|i| {
            out.join(profile_file_name(
                &stem,
                &i.file_secrets.scrub_value(&i.name),
            ))
        })
        .collect();
    for path in &paths {
        refuse_own_input(source, path)?;
    }
    // Two profiles on one file name (the same resource name in two
    // namespaces, or names that differ only in characters made safe or in
    // case, which some file systems ignore): one would replace the other.
    let mut seen: std::collections::BTreeMap<String, &str> = std::collections::BTreeMap::new();
    for (i, path) in imported.iter().zip(&paths) {
        let key = path.to_string_lossy().to_lowercase();
        if let Some(first) = seen.insert(key, &i.name) {
            return Err(format!(
                "{}: profiles `{}` and `{}` would both be written there, one over the other; \
                 give them distinct names, or write one document to a file instead of a directory",
                input::display(path),
                neutralize(first),
                neutralize(&i.name)
            ));
        }
    }
    for (i, path) in imported.iter().zip(&paths) {
        atomic::write_atomically(path, i.profile_json.as_bytes())
            .map_err(|e| format!("{}: cannot write: {e}", input::display(path)))?;
        output::note(&format!("wrote {}", input::display(path)));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use isolint_core::{AuditOptions, Labels};
    use std::path::PathBuf;

    fn fixture(rel: &str) -> PathBuf {
        crate::fixtures::path(&format!("import/{rel}"))
    }

    #[test]
    fn from_accepts_auto_names_and_aliases() {
        assert_eq!(Reading::parse("auto").unwrap(), Reading::Auto);
        assert_eq!(
            Reading::parse("k8s").unwrap(),
            Reading::Import(Format::Kubernetes)
        );
        assert_eq!(
            Reading::parse("bubblewrap").unwrap(),
            Reading::Import(Format::Bwrap)
        );
        let e = Reading::parse("helm").unwrap_err();
        assert!(
            e.contains("kubernetes") && e.contains("sandbox-settings"),
            "{e}"
        );
    }

    #[test]
    fn detection_tells_profiles_from_configurations() {
        let pod = fixture("kubernetes/pod-home.yaml");
        let bytes = std::fs::read(&pod).unwrap();
        assert_eq!(
            import::detect(&bytes, Some("pod-home.yaml")),
            Some(Format::Kubernetes)
        );
        let profile = isolint_core::WORKSHOP_PROFILE.as_bytes();
        assert_eq!(import::detect(profile, Some("workshop.json")), None);
        assert!(undetected(profile).contains("already an isolint.profile/v1"));
        assert!(undetected(b"hello").contains("--from"));
        // A forced format that does not fit is an error naming the place.
        let e = import::import(&bytes, Format::Codex).unwrap_err();
        let f = describe("pod-home.yaml", Format::Codex, &e).to_string();
        assert!(
            f.starts_with("pod-home.yaml:") && f.contains("read as Codex"),
            "{f}"
        );
    }

    #[test]
    fn imported_findings_keep_original_positions() {
        let pod = fixture("kubernetes/pod-home.yaml");
        let inp = input::Input {
            origin: Origin::File(pod.clone()),
            name: input::source_name(&pod),
        };
        let audited = input::audit(
            &Default::default(),
            &inp,
            &Labels::workshop(),
            &AuditOptions::default(),
            Reading::Auto,
        )
        .unwrap();
        let f = audited.reports[0]
            .issues
            .iter()
            .find(|f| f.pointer == "/mounts/0/source")
            .unwrap();
        let o = f.origin.as_ref().unwrap();
        assert_eq!((o.line, o.column), (20, 15));
    }

    #[test]
    fn several_profiles_are_written_one_per_file_into_a_directory() {
        let dir = tempfile::tempdir().unwrap();
        let compose = fixture("compose/hardened.yaml");
        let bytes = std::fs::read(&compose).unwrap();
        let imported = import::import(&bytes, Format::Compose).unwrap();
        let out = dir.path().join("profiles/");
        write_profiles(Some(&out), None, "compose/hardened.yaml", &imported).unwrap();
        for name in ["hardened.tests.json", "hardened.lint.json"] {
            let text = std::fs::read_to_string(out.join(name)).unwrap();
            assert!(isolint_core::json::parse(text.as_bytes(), Default::default()).is_ok());
        }
        let array = dir.path().join("all.json");
        write_profiles(Some(&array), None, "compose/hardened.yaml", &imported).unwrap();
        let v: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&array).unwrap()).unwrap();
        assert_eq!(v.as_array().map(Vec::len), Some(2));
        assert_eq!(v[1]["name"], "lint");
    }

    #[test]
    fn profile_file_names_stay_plain_file_names() {
        assert_eq!(profile_file_name("pod", ""), "pod.json");
        assert_eq!(
            profile_file_name("pod", "Job/tests/runner"),
            "pod.Job_tests_runner.json"
        );
        assert_eq!(profile_file_name("pod", "../x"), "pod._x.json");
    }
}
