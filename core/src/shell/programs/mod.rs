//! Which program names belong to which family (shells, interpreters,
//! evaluators, downloaders, wrappers, fetchers), so every question about
//! "what runs here" is answered from one place. How each family reads its
//! options is the walk's part ([`super::walk`]).

mod env;
mod wrappers;

pub(crate) use env::code_loading_variable;
pub(crate) use wrappers::{unwrap, Inner, Wrapper};

use super::words::stem;

/// Shells that run text given on their command line (POSIX-style options).
pub(crate) const POSIX_SHELLS: &[&str] = &[
    "sh", "bash", "dash", "zsh", "ksh", "mksh", "ash", "fish", "csh", "tcsh", "yash", "rbash",
    "hush",
];

/// Other interpreters that, given no program operand, read their program
/// from standard input.
const STDIN_INTERPRETERS: &[&str] = &[
    "cmd",
    "powershell",
    "pwsh",
    "python",
    "pypy",
    "node",
    "nodejs",
    "perl",
    "ruby",
    "php",
    "lua",
    "luajit",
];

/// Whether a program name (as [`super::program_name`] gives it) is a
/// POSIX-style shell, whatever its version suffix.
pub(crate) fn is_posix_shell(name: &str) -> bool {
    POSIX_SHELLS.contains(&stem(name))
}

/// Programs whose only argument-less behaviour is reading a program from
/// standard input.
pub(crate) fn is_interpreter(name: &str) -> bool {
    is_posix_shell(name) || STDIN_INTERPRETERS.contains(&stem(name))
}

/// Interpreters that take their program from an operand or option but
/// do not read standard input by default.
const OPERAND_INTERPRETERS: &[&str] = &["deno", "bun"];

/// Builtins and cmdlets that run their argument as code.
const EVALUATORS: &[&str] = &["eval", "source", ".", "iex", "invoke-expression"];

/// Whether a program runs code it is handed (a script, text, or standard
/// input): every interpreter and evaluator above.
pub(crate) fn runs_code(name: &str) -> bool {
    is_interpreter(name) || OPERAND_INTERPRETERS.contains(&stem(name)) || EVALUATORS.contains(&name)
}

/// Whether a program is one of the evaluators, which run their first
/// argument (or standard input) as code.
pub(crate) fn is_evaluator(name: &str) -> bool {
    EVALUATORS.contains(&name)
}

/// Programs that download a URL.
const DOWNLOADERS: &[&str] = &[
    "curl",
    "wget",
    "fetch",
    "iwr",
    "irm",
    "invoke-webrequest",
    "invoke-restmethod",
];

pub(crate) fn is_downloader(name: &str) -> bool {
    DOWNLOADERS.contains(&name)
}

/// The first wrapper row of a program name, if any (for readers that only
/// skip a wrapper's options, such as the secret scrubber).
pub(crate) fn wrapper(name: &str) -> Option<&'static Wrapper> {
    wrappers::wrappers(name).next()
}

/// `env`'s options that take the next word as their value.
pub(crate) const ENV_VALUED: &[&str] = &["-u", "--unset", "-C", "--chdir"];

/// Where the program of a simple command is among its words: past
/// variable assignments and the wrappers above (`sudo -u ci`, `timeout
/// 10`, `env -i X=1`), with their options and operands. `None` when the
/// words end first.
pub(crate) fn program_index(words: &[&str]) -> Option<usize> {
    let mut i = 0;
    loop {
        let w = *words.get(i)?;
        if super::lex::is_assignment(w) {
            i += 1;
            continue;
        }
        let name = super::program_name(w);
        let rest = words.get(i + 1..).unwrap_or(&[]);
        if name == "env" {
            i += 1;
            while let Some(&o) = words.get(i).filter(|o| o.starts_with('-') && o.len() > 1) {
                i += if ENV_VALUED.contains(&o) { 2 } else { 1 };
                if o == "--" {
                    break;
                }
            }
            continue;
        }
        match unwrap(&name, rest) {
            None => return Some(i),
            Some(Inner::Command(k)) => i += 1 + k,
            // Shell text, a bare shell, an unreadable option: no one
            // program runs here that a caller could judge by its name.
            Some(_) => return None,
        }
    }
}

/// A program that fetches from the network when run with one of
/// `subcommands` (any invocation when the list is empty), unless one of
/// `offline` is given.
pub(crate) struct Fetcher {
    pub programs: &'static [&'static str],
    pub subcommands: &'static [&'static str],
    pub offline: &'static [&'static str],
}

/// Package managers, system installers and transfer tools, by the
/// subcommands that reach the network. `""` stands for no subcommand
/// (`yarn` alone installs).
pub(crate) const FETCHERS: &[Fetcher] = &[
    Fetcher {
        programs: &["pip"],
        subcommands: &["install", "download", "wheel"],
        offline: &["--no-index"],
    },
    Fetcher {
        programs: &["uv"],
        subcommands: &["add", "sync", "pip", "tool", "run"],
        offline: &["--offline"],
    },
    Fetcher {
        programs: &["npm"],
        subcommands: &[
            "install",
            "i",
            "ci",
            "add",
            "update",
            "up",
            "exec",
            "x",
            "install-test",
            "it",
        ],
        offline: &["--offline"],
    },
    Fetcher {
        programs: &["pnpm"],
        subcommands: &["install", "i", "add", "update", "up", "dlx", "fetch"],
        offline: &["--offline"],
    },
    Fetcher {
        programs: &["yarn"],
        subcommands: &["", "install", "add", "up", "upgrade", "dlx"],
        offline: &["--offline"],
    },
    Fetcher {
        programs: &["npx", "bunx", "pnpx", "uvx", "pipx"],
        subcommands: &[],
        offline: &["--no-install", "--offline"],
    },
    // Building, testing or running resolves whatever the lock names and
    // is not yet on disk, from the registry.
    Fetcher {
        programs: &["cargo"],
        subcommands: &[
            "fetch", "install", "update", "add", "build", "b", "test", "t", "run", "r", "check",
            "c", "bench", "doc",
        ],
        offline: &["--offline", "--frozen"],
    },
    // In module mode every build downloads the modules it is missing;
    // `go mod` only at its subcommands that resolve (see `fetch_of`).
    Fetcher {
        programs: &["go"],
        subcommands: &[
            "get", "build", "test", "run", "install", "generate", "vet", "list", "mod",
        ],
        offline: &["-mod=vendor"],
    },
    // Every invocation resolves the build's dependencies first.
    Fetcher {
        programs: &["gradle", "gradlew"],
        subcommands: &[],
        offline: &["--offline"],
    },
    Fetcher {
        programs: &["mvn", "mvnw"],
        subcommands: &[],
        offline: &["-o", "--offline"],
    },
    Fetcher {
        programs: &["gem"],
        subcommands: &["install"],
        offline: &["--local"],
    },
    Fetcher {
        programs: &["bundle", "bundler"],
        subcommands: &["install", "update"],
        offline: &["--local"],
    },
    Fetcher {
        programs: &["poetry", "composer"],
        subcommands: &["install", "add", "update", "require"],
        offline: &[],
    },
    Fetcher {
        programs: &["conda", "mamba", "micromamba"],
        subcommands: &["install", "create", "update"],
        offline: &["--offline"],
    },
    Fetcher {
        programs: &["apt-get", "apt", "yum", "dnf", "microdnf", "zypper", "brew"],
        subcommands: &["install", "update", "upgrade"],
        offline: &[],
    },
    Fetcher {
        programs: &["apk"],
        subcommands: &["add", "update"],
        offline: &["--no-network"],
    },
    Fetcher {
        programs: &["git"],
        subcommands: &["clone", "fetch", "pull", "submodule", "lfs"],
        offline: &[],
    },
];

/// The fetcher a program name is, if any ([`stem`] for versioned names
/// such as `pip3`).
pub(crate) fn fetcher(name: &str) -> Option<&'static Fetcher> {
    let s = stem(name);
    FETCHERS
        .iter()
        .find(|f| f.programs.contains(&name) || f.programs.contains(&s))
}
