//! What a Compose file depends on beyond its own text, and where Compose
//! reads it from: the project's `.env` (or `--env-file`), a service's
//! `env_file:` entries, `include:`, `extends: {file:}` and the override
//! file beside a default-named file.
//!
//! Core reads no files: the front end hands in a resolver that reads a
//! path as the Compose file names it (relative to the file's directory).
//! Where the resolver cannot read what Compose would read, the import
//! refuses the file, naming what is missing; a partial reading
//! ([`ComposeContext::partial`]) makes each such place a blocking finding
//! (PRF021) instead, never an eligible profile.

use std::cell::RefCell;
use std::rc::Rc;

use super::dotenv::{self, EnvFile};
use super::template::Var;
use crate::import::invalid;
use crate::import::tree::Loc;
use crate::import::ImportError;

/// What the front end found at a path a Compose file depends on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Companion {
    /// The file's bytes.
    Read(Vec<u8>),
    /// No such file: Compose would find none either.
    Absent,
    /// It may exist but cannot be read here (why, for the message): no
    /// file system (the page, standard input), a permission, a directory.
    Unreadable(String),
}

/// How a Compose file's companions are read.
pub struct ComposeContext<'a> {
    /// Reads a path as the file writes it (relative paths are relative to
    /// the Compose file's directory; `~` is the home of whoever runs
    /// Compose).
    pub resolve: &'a dyn Fn(&str) -> Companion,
    /// The Compose file's own name: override files are merged only beside
    /// a file Compose finds by its default name.
    pub file_name: Option<&'a str>,
    /// `--env-file` paths, read instead of `.env` (each must exist).
    pub env_files: &'a [String],
    /// Merge `compose.override.yml` and its siblings as `docker compose`
    /// does by default (`--no-override` turns it off).
    pub overrides: bool,
    /// A companion that cannot be read is a blocking finding, not a
    /// refusal of the file.
    pub partial: bool,
}

/// The implicit companions: a missing one is no reference of the file's.
pub(super) const DOT_ENV: &str = ".env";

/// compose-go's `DefaultFileNames` and `DefaultOverrideFileNames`
/// (cli/options.go): the override is looked for only beside a file found
/// by one of the default names, the first one present is used.
const DEFAULT_NAMES: &[&str] = &[
    "compose.yaml",
    "compose.yml",
    "docker-compose.yml",
    "docker-compose.yaml",
];
pub(super) const OVERRIDE_NAMES: &[&str] = &[
    "compose.override.yml",
    "compose.override.yaml",
    "docker-compose.override.yml",
    "docker-compose.override.yaml",
];

fn no_file_system(path: &str) -> Companion {
    if path == DOT_ENV || OVERRIDE_NAMES.contains(&path) {
        // A text with no directory has no implicit companions.
        Companion::Absent
    } else {
        Companion::Unreadable("there is no file system to read it from".into())
    }
}

impl ComposeContext<'static> {
    /// A file with no directory (the page, a text in a test): every file it
    /// refers to is unreadable; `partial` as the caller wants.
    pub fn no_files(partial: bool) -> ComposeContext<'static> {
        ComposeContext {
            resolve: &no_file_system,
            file_name: None,
            env_files: &[],
            overrides: false,
            partial,
        }
    }
}

impl ComposeContext<'_> {
    /// Whether `docker compose` would merge an override file beside this
    /// one.
    pub(super) fn reads_overrides(&self) -> bool {
        self.overrides
            && self.file_name.is_some_and(|n| {
                let base = n.rsplit(['/', '\\']).next().unwrap_or(n);
                DEFAULT_NAMES.contains(&base)
            })
    }

    /// Refuse the file, or with a partial reading, keep `message` for the
    /// profiles it concerns.
    pub(super) fn unread(
        &self,
        at: Loc,
        message: String,
        out: &mut Vec<(Loc, String)>,
    ) -> Result<(), ImportError> {
        if self.partial {
            out.push((at, message));
            Ok(())
        } else {
            Err(invalid(at, format!("{message}; refusing the file (a partial reading reports this as a blocking finding instead)")))
        }
    }

    /// The project environment Compose interpolates with: `--env-file`,
    /// else `.env` when there is one. Unreadable ones go to `unread`.
    pub(super) fn project_env(
        &self,
        at: Loc,
        unread: &mut Vec<(Loc, String)>,
    ) -> Result<Option<EnvFile>, ImportError> {
        let implicit = [DOT_ENV.to_string()];
        let (files, explicit) = if self.env_files.is_empty() {
            (&implicit[..], false)
        } else {
            (self.env_files, true)
        };
        let mut env = EnvFile {
            implicit: !explicit,
            ..EnvFile::default()
        };
        let mut any = false;
        for f in files {
            match (self.resolve)(f) {
                Companion::Read(bytes) => {
                    let text = std::str::from_utf8(&bytes).map_err(|_| {
                        invalid(at, format!("env file `{f}` is not UTF-8 text"))
                    })?;
                    dotenv::parse_into(text, &|_| Var::Unknown, &mut env)
                        .map_err(|e| invalid(at, format!("env file `{f}`: {e}, as Compose refuses it")))?;
                    any = true;
                }
                Companion::Absent if !explicit => {}
                Companion::Absent => {
                    return Err(invalid(
                        at,
                        format!("env file `{f}` does not exist: Compose refuses to run without it"),
                    ))
                }
                Companion::Unreadable(why) => self.unread(
                    at,
                    format!("the project env file `{f}`, which Compose reads to interpolate this file, cannot be read: {why}"),
                    unread,
                )?,
            }
        }
        Ok(any.then_some(env))
    }
}

thread_local! {
    /// The project environment of the Compose file being imported on this
    /// thread: every interpolation of the file reads it, from many places
    /// that have no other way to share it. Set for one import at a time.
    static PROJECT_ENV: RefCell<Option<Rc<EnvFile>>> = const { RefCell::new(None) };
    /// The variables interpolation took from an implicit `.env`, in the
    /// order first read (see [`shell_overridable`]).
    static FROM_DOT_ENV: RefCell<Vec<String>> = const { RefCell::new(Vec::new()) };
}

/// Sets the project environment for the life of the guard.
pub(super) struct ProjectEnv(Option<Rc<EnvFile>>, Vec<String>);

impl ProjectEnv {
    pub(super) fn set(env: Option<EnvFile>) -> ProjectEnv {
        let prev = PROJECT_ENV.with(|p| p.replace(env.map(Rc::new)));
        let used = FROM_DOT_ENV.with(|u| std::mem::take(&mut *u.borrow_mut()));
        ProjectEnv(prev, used)
    }
}

impl Drop for ProjectEnv {
    fn drop(&mut self) {
        let prev = self.0.take();
        PROJECT_ENV.with(|p| *p.borrow_mut() = prev);
        let used = std::mem::take(&mut self.1);
        FROM_DOT_ENV.with(|u| *u.borrow_mut() = used);
    }
}

/// The project environment's value of `name`, if it sets one.
pub(super) fn project_var(name: &str) -> Option<String> {
    PROJECT_ENV.with(|p| {
        let env = p.borrow();
        let env = env.as_ref()?;
        let v = env.get(name)?.to_string();
        if env.implicit {
            FROM_DOT_ENV.with(|u| {
                let mut u = u.borrow_mut();
                if !u.iter().any(|n| n == name) {
                    u.push(name.to_string());
                }
            });
        }
        Some(v)
    })
}

/// What interpolation has so far taken from the implicit `.env`, each a
/// blocking finding of every profile of the file.
///
/// Compose gives the environment of the shell that runs it precedence
/// over `.env` (compose-go's `WithDotEnv` reads `.env` only for names the
/// OS environment leaves unset), and isolint never reads the host's
/// environment into an audit: a value from `.env` is what the job gets
/// only on a host whose shell does not set that name. The audit reads the
/// `.env` value (so a risky one is judged as written) and, because a
/// shell could change it, never calls the file eligible on it: passing
/// the environment explicitly (`--env-file .env`) states that the job
/// runs with exactly that file, and lifts the finding.
pub(super) fn shell_overridable(at: Loc) -> Vec<(Loc, String)> {
    FROM_DOT_ENV.with(|u| {
        u.borrow()
            .iter()
            .map(|name| {
                (
                    at,
                    format!(
                        "`{name}` is interpolated from the project's `.env`, which the environment of the shell running `docker compose` overrides, and isolint reads no environment: pass the environment explicitly (`--env-file .env`) to audit the file with exactly that value"
                    ),
                )
            })
            .collect()
    })
}
