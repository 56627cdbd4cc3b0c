//! Environment variables that make a program load or run code named in
//! their value, by ecosystem, each with the reason it is listed.
//!
//! The job's environment reaches every process of its execution tree, setup
//! steps and hooks included, so a variable here is an option given to every
//! matching program at once, where no argument-list review sees it. The
//! purpose of the job ("run the tests") does not narrow which programs read
//! it: a test that shells out to git, a build script that calls the C
//! compiler, or an import hook all do.

use crate::finding::Severity;

/// Where a variable is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Ecosystem {
    Loader,
    Shell,
    Python,
    Node,
    Perl,
    Ruby,
    Jvm,
    Dotnet,
    Git,
    Packages,
    Build,
    Interactive,
}

/// One listed variable.
pub(crate) struct CodeVar {
    pub name: &'static str,
    /// Groups the table for its readers and its test; findings do not show it.
    #[allow(dead_code)]
    pub ecosystem: Ecosystem,
    pub severity: Severity,
    /// What it does, as the end of a sentence starting with the name.
    pub why: &'static str,
    /// npm reads its `npm_config_*` variables in any case.
    pub any_case: bool,
    /// When set, only values it accepts load code (`GOFLAGS` with
    /// `-toolexec`, not `-mod=mod`); an unknown value is reported.
    pub when: Option<fn(&str) -> bool>,
    /// Its value names a package index or proxy: one the allow list does
    /// not reach is where the job's code would then come from.
    pub names_index: bool,
}

const H: Severity = Severity::High;
const M: Severity = Severity::Medium;

const fn v(
    name: &'static str,
    ecosystem: Ecosystem,
    severity: Severity,
    why: &'static str,
) -> CodeVar {
    CodeVar {
        name,
        ecosystem,
        severity,
        why,
        any_case: false,
        when: None,
        names_index: false,
    }
}
const fn npm(name: &'static str, severity: Severity, why: &'static str) -> CodeVar {
    CodeVar {
        name,
        ecosystem: Ecosystem::Packages,
        severity,
        why,
        any_case: true,
        when: None,
        names_index: false,
    }
}
/// A variable whose value names a package index or proxy.
const fn index(c: CodeVar) -> CodeVar {
    CodeVar {
        names_index: true,
        ..c
    }
}
/// A variable that loads code only with some values.
const fn when(c: CodeVar, f: fn(&str) -> bool) -> CodeVar {
    CodeVar { when: Some(f), ..c }
}

/// Whether `GOFLAGS` holds a flag that runs a program around the build or
/// the tests, swaps source files, or fetches without TLS.
fn go_flags_load_code(value: &str) -> bool {
    value.split_whitespace().any(|f| {
        let f = f.trim_start_matches('-');
        let name = f.split('=').next().unwrap_or("");
        matches!(name, "toolexec" | "exec" | "overlay" | "insecure")
    })
}
/// `off` turns the proxy (or the checksum database) off rather than
/// replacing it.
fn not_off(value: &str) -> bool {
    value.trim() != "off"
}
fn is_off(value: &str) -> bool {
    value.trim() == "off"
}
/// An npm boolean option set to false.
fn is_false(value: &str) -> bool {
    matches!(value.trim(), "false" | "0" | "")
}

use Ecosystem::*;

/// The table, grouped by ecosystem.
pub(crate) const CODE_VARS: &[CodeVar] = &[
    // The dynamic loader: every dynamically linked program.
    v("LD_PRELOAD", Loader, H, "makes the dynamic loader inject the named libraries into every program"),
    v("LD_AUDIT", Loader, H, "makes the dynamic loader inject the named libraries into every program"),
    v("DYLD_INSERT_LIBRARIES", Loader, H, "makes the dynamic loader inject the named libraries into every program"),
    v("GCONV_PATH", Loader, H, "makes glibc's character conversion (`iconv`) load modules from the named directories into any program that converts text"),
    v("LD_DEBUG_OUTPUT", Loader, M, "makes the dynamic loader of every program run with `LD_DEBUG` create files at the named path, wherever it points"),
    v("LD_LIBRARY_PATH", Loader, M, "makes the dynamic loader search the named directories for shared libraries first"),
    v("DYLD_LIBRARY_PATH", Loader, M, "makes the dynamic loader search the named directories for shared libraries first"),
    // Shells.
    v("BASH_ENV", Shell, H, "makes every non-interactive bash run the named file first"),
    v("ENV", Shell, M, "makes an interactive POSIX shell (`sh -i`, dash, ksh) run the named file first"),
    v("PROMPT_COMMAND", Shell, M, "makes an interactive bash run its value as a command before every prompt"),
    // Python.
    v("PYTHONPATH", Python, M, "puts the named directories first on python's import path, so a planted `sitecustomize` or a module of a common name runs on import"),
    v("PYTHONHOME", Python, H, "replaces python's standard library with the named tree, so every python program runs code from there"),
    v("PYTHONSTARTUP", Python, M, "makes an interactive python run the named file first"),
    v("PYTHONWARNINGS", Python, H, "names warning categories that python imports at start-up, so a filter can import a module of the writer's choice"),
    v("PYTEST_ADDOPTS", Python, H, "adds pytest options, `-p` plugin loading included"),
    v("PYTEST_PLUGINS", Python, H, "makes pytest import the named plugin modules"),
    // Node.
    v("NODE_OPTIONS", Node, H, "applies node options, `--require` included, to every node process"),
    v("NODE_PATH", Node, M, "adds the named directories to node's module search, so a `require` that misses locally loads code from there"),
    // Perl and Ruby.
    v("PERL5OPT", Perl, H, "applies perl switches, module loading included, to every perl program"),
    v("PERL5LIB", Perl, H, "puts the named directories first on perl's module path, ahead of the installed modules"),
    v("RUBYOPT", Ruby, H, "applies ruby switches, `-r` included, to every ruby program"),
    v("RUBYLIB", Ruby, H, "puts the named directories first on ruby's load path, ahead of the installed libraries"),
    // JVM and .NET.
    v("JAVA_TOOL_OPTIONS", Jvm, H, "applies JVM options, `-javaagent` included, to every JVM"),
    v("_JAVA_OPTIONS", Jvm, H, "applies JVM options, `-javaagent` included, to every JVM"),
    v("JDK_JAVA_OPTIONS", Jvm, H, "applies JVM options, `-javaagent` included, to every JVM"),
    v("CLASSPATH", Jvm, M, "makes java and javac load classes from the named locations"),
    v("DOTNET_STARTUP_HOOKS", Dotnet, H, "makes every .NET program load and run the named assemblies before `Main`"),
    // Git: its configuration names programs (`core.fsmonitor`, `core.pager`,
    // `core.sshCommand`, hooks), so choosing the configuration is choosing code.
    v("GIT_SSH_COMMAND", Git, H, "makes git run the named command for every ssh connection"),
    v("GIT_SSH", Git, H, "makes git run the named command for every ssh connection"),
    v("GIT_PROXY_COMMAND", Git, H, "makes git run the named command to connect"),
    v("GIT_EXTERNAL_DIFF", Git, H, "makes git run the named program to show differences"),
    v("GIT_CONFIG_PARAMETERS", Git, H, "injects git configuration, which can name programs git runs"),
    v("GIT_CONFIG_COUNT", Git, H, "injects git configuration, which can name programs git runs"),
    v("GIT_CONFIG_GLOBAL", Git, H, "replaces git's global configuration with the named file, which can name programs git runs (`core.fsmonitor`, `core.hooksPath`)"),
    v("GIT_CONFIG_SYSTEM", Git, H, "replaces git's system configuration with the named file, which can name programs git runs (`core.fsmonitor`, `core.hooksPath`)"),
    v("GIT_TEMPLATE_DIR", Git, H, "makes `git init` and `git clone` copy hooks from the named directory into every new repository"),
    v("GIT_EXEC_PATH", Git, H, "makes git run its subcommands from the named directory"),
    v("GIT_DIR", Git, H, "points git at a repository of the writer's choice, whose configuration and hooks then run"),
    v("GIT_ASKPASS", Git, H, "names a program that is run to ask for credentials"),
    v("SSH_ASKPASS", Git, H, "names a program that is run to ask for credentials"),
    v("GIT_PAGER", Git, M, "names a program git runs to page its output"),
    v("GIT_EDITOR", Git, M, "names a program git runs to edit messages"),
    // Package managers: their configuration chooses the code installed or run.
    npm("npm_config_script_shell", H, "makes npm run package scripts with the named shell"),
    npm("npm_config_node_options", H, "makes npm pass node options to every script"),
    npm("npm_config_userconfig", H, "makes npm read the named `.npmrc`, which can set the script shell, node options and registry"),
    npm("npm_config_globalconfig", H, "makes npm read the named global `.npmrc`, which can set the script shell, node options and registry"),
    npm("npm_config_onload_script", H, "makes npm require the named script every time it starts"),
    npm("npm_config_shell", H, "makes `npm exec` and `npm explore` run the named shell"),
    npm("npm_config_git", H, "makes npm run the named program for every git dependency"),
    index(npm("npm_config_registry", M, "makes npm install packages, and run their install scripts, from another registry")),
    when(npm("npm_config_strict_ssl", H, "set to false, makes npm accept any certificate, so whoever is on the path serves the packages"), is_false),
    npm("npm_config_cafile", M, "makes npm trust the named certificate authorities for its registry"),
    npm("npm_config_ca", M, "makes npm trust the given certificate authority for its registry"),
    npm("npm_config_unsafe_perm", M, "makes npm run package scripts without dropping to an unprivileged user"),
    v("PIP_CONFIG_FILE", Packages, H, "makes pip read the named configuration, which can change the index and the build options"),
    index(v("PIP_INDEX_URL", Packages, M, "makes pip install packages, and run their build code, from another index")),
    index(v("PIP_EXTRA_INDEX_URL", Packages, M, "makes pip also consider another index, where a higher version of a name wins")),
    v("PIP_TRUSTED_HOST", Packages, M, "makes pip accept the named hosts without a valid certificate, so whoever is on the path serves the packages"),
    index(v("UV_INDEX_URL", Packages, M, "makes uv install packages, and run their build code, from another index")),
    index(v("UV_EXTRA_INDEX_URL", Packages, M, "makes uv also consider another index, where a higher version of a name wins")),
    index(when(v("GOPROXY", Packages, H, "makes go download modules, whose code builds and tests then run, from another proxy"), not_off)),
    v("GONOSUMDB", Packages, H, "makes go accept the named modules without checking them against the checksum database, so a changed module is taken"),
    v("GONOSUMCHECK", Packages, H, "makes go skip checksum verification of downloaded modules, so a changed module is taken"),
    v("GOINSECURE", Packages, H, "makes go fetch the named modules over plain HTTP or without certificate checks"),
    v("GOPRIVATE", Packages, M, "makes go fetch the named modules directly and without the checksum database"),
    when(v("GOSUMDB", Packages, H, "set to `off`, makes go accept any module content without the checksum database"), is_off),
    index(v("CARGO_REGISTRIES_*_INDEX", Packages, H, "points a cargo registry at another index, from which crates and their build scripts then come")),
    index(v("CARGO_REGISTRY_INDEX", Packages, H, "points cargo's default registry at another index, from which crates and their build scripts then come")),
    v("CARGO_HTTP_CAINFO", Packages, M, "makes cargo trust the named certificate authorities for its registries"),
    v("CARGO_HOME", Packages, M, "makes cargo read its configuration (registries, wrappers, runners) and cached crates from the named directory"),
    // Build tools: compilers and wrappers run for every build step.
    v("RUSTC_WRAPPER", Build, H, "makes cargo run the named program in place of every rustc call"),
    v("RUSTC_WORKSPACE_WRAPPER", Build, H, "makes cargo run the named program in place of rustc for workspace crates"),
    v("CARGO_BUILD_RUSTC_WRAPPER", Build, H, "makes cargo run the named program in place of every rustc call"),
    v("RUSTC", Build, H, "makes cargo run the named program as the compiler"),
    v("CARGO_BUILD_RUSTC", Build, H, "makes cargo run the named program as the compiler"),
    v("CARGO_TARGET_*_RUNNER", Build, H, "makes `cargo run` and `cargo test` start every binary through the named program"),
    v("CARGO_TARGET_*_LINKER", Build, H, "makes cargo run the named program as the linker"),
    v("RUSTDOC", Build, H, "makes cargo run the named program for documentation and doc tests"),
    when(v("GOFLAGS", Build, H, "gives every go command flags that run a program of the writer's choice around each compiler call (`-toolexec`) or test binary (`-exec`), swap source files (`-overlay`) or fetch without TLS (`-insecure`)"), go_flags_load_code),
    v("CC", Build, H, "names the C compiler that make, cargo build scripts and python extension builds run"),
    v("CXX", Build, H, "names the C++ compiler that make, cargo build scripts and python extension builds run"),
    v("MAKEFLAGS", Build, H, "adds options and variable overrides (`SHELL=`, `CC=`) to every make, sub-makes included"),
    // Programs other tools start for a person.
    v("PAGER", Interactive, M, "names a program that git, man and other tools run to page output"),
    v("EDITOR", Interactive, M, "names a program that git and other tools run to edit text"),
    v("VISUAL", Interactive, M, "names a program that git and other tools run to edit text"),
];

/// Whether `name` matches a listed name, where `*` in the list stands for
/// one or more characters (`CARGO_TARGET_*_RUNNER`).
fn name_matches(c: &CodeVar, name: &str) -> bool {
    match c.name.split_once('*') {
        Some((pre, post)) => {
            name.len() > pre.len() + post.len() && name.starts_with(pre) && name.ends_with(post)
        }
        None => c.name == name || (c.any_case && c.name.eq_ignore_ascii_case(name)),
    }
}

/// The entry for `name` with `value`, if it loads code. A value that is
/// not known (`None`) counts as one that does.
pub(crate) fn lookup(name: &str, value: Option<&str>) -> Option<&'static CodeVar> {
    CODE_VARS
        .iter()
        .find(|c| name_matches(c, name))
        .filter(|c| match (c.when, value) {
            (Some(loads), Some(v)) => loads(v),
            _ => true,
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_is_well_formed() {
        let mut seen = std::collections::BTreeSet::new();
        for c in CODE_VARS {
            assert!(
                seen.insert(c.name.to_ascii_lowercase()),
                "duplicate {}",
                c.name
            );
            assert!(
                c.why.len() > 20 && !c.why.ends_with('.'),
                "{}: reason",
                c.name
            );
            assert!(
                c.why.starts_with(|ch: char| ch.is_lowercase()),
                "{}",
                c.name
            );
        }
    }

    #[test]
    fn each_ecosystem_is_one_block() {
        let mut done: Vec<Ecosystem> = Vec::new();
        for w in CODE_VARS.windows(2) {
            if let [a, b] = w {
                if a.ecosystem != b.ecosystem {
                    done.push(a.ecosystem);
                    assert!(!done.contains(&b.ecosystem), "{} out of its block", b.name);
                }
            }
        }
    }

    #[test]
    fn listed_and_benign_names() {
        // (name, expected severity or None for a benign twin)
        let table: &[(&str, Option<Severity>)] = &[
            ("PYTHONPATH", Some(M)),
            ("PYTHONHOME", Some(H)),
            ("PYTHONSTARTUP", Some(M)),
            ("PYTHONWARNINGS", Some(H)),
            ("NODE_PATH", Some(M)),
            ("PERL5LIB", Some(H)),
            ("RUBYLIB", Some(H)),
            ("CLASSPATH", Some(M)),
            ("DOTNET_STARTUP_HOOKS", Some(H)),
            ("GIT_CONFIG_GLOBAL", Some(H)),
            ("GIT_CONFIG_SYSTEM", Some(H)),
            ("GIT_TEMPLATE_DIR", Some(H)),
            ("GIT_EXEC_PATH", Some(H)),
            ("GIT_DIR", Some(H)),
            ("npm_config_userconfig", Some(H)),
            ("NPM_CONFIG_USERCONFIG", Some(H)),
            ("PIP_CONFIG_FILE", Some(H)),
            ("PIP_INDEX_URL", Some(M)),
            ("UV_INDEX_URL", Some(M)),
            ("RUSTC_WRAPPER", Some(H)),
            ("CC", Some(H)),
            ("MAKEFLAGS", Some(H)),
            ("ENV", Some(M)),
            ("PROMPT_COMMAND", Some(M)),
            ("PAGER", Some(M)),
            ("EDITOR", Some(M)),
            ("LD_PRELOAD", Some(H)),
            ("NODE_OPTIONS", Some(H)),
            // Benign twins: names that look alike but load nothing.
            ("LANG", None),
            ("LC_ALL", None),
            ("PYTHONUNBUFFERED", None),
            ("PYTHONDONTWRITEBYTECODE", None),
            ("PYTHONHASHSEED", None),
            ("NODE_ENV", None),
            ("GIT_AUTHOR_NAME", None),
            ("GIT_TERMINAL_PROMPT", None),
            ("CI", None),
            ("TZ", None),
            ("HOME", None),
            ("TERM", None),
            ("CARGO_TERM_COLOR", None),
            ("RUST_BACKTRACE", None),
            ("PIP_NO_CACHE_DIR", None),
            ("cc", None),
            ("Pythonpath", None),
            ("npm_config_loglevel", None),
            ("ENVIRONMENT", None),
            ("MAKE", None),
        ];
        for (name, want) in table {
            assert_eq!(lookup(name, None).map(|c| c.severity), *want, "{name}");
        }
    }
}
