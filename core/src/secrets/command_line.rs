//! Which words of a command line hold a secret: the value of a
//! secret-taking option, a `NAME=value` under a secret name, a password a
//! program takes by position or on standard input. A shell text is read
//! through the one shell analysis, [`crate::shell::lex`].

use super::names::{is_secret_name, secret_by_name};
use super::shapes::{is_written, looks_like_secret};

/// Whether the argument that follows `option` is a secret: the one test
/// the command rules and the collector share, so what a rule calls a
/// secret is always masked. `--password X`, `--token X`, `-p X` for tools
/// whose `-p` takes a password (`mysql -p X`), and the other options of
/// `PROGRAM_OPTIONS` (`redis-cli -a X`). A `-u user:password` of curl
/// is judged with its value ([`secret_words`]).
pub fn option_takes_secret(program: Option<&str>, option: &str) -> bool {
    option_secret(program, false, option) == Some(Takes::Any)
}

/// What the value of a secret-taking option must be to be a secret.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Takes {
    /// Any value that is not a reference.
    Any,
    /// `user:password`: a secret only with a password after the colon
    /// (curl's `-u user` alone asks for the password).
    UserPassword,
}

/// Options that take a secret for one program only (`-p` is a port for
/// ssh, `-a` appends for tee): (program, option, what the value must be).
/// `login` marks options that take a password only in a `login`
/// subcommand (`docker login -p X`, but `docker run -p 8080:80`).
pub(super) const PROGRAM_OPTIONS: &[(&str, &str, Takes, bool)] = &[
    ("mysql", "-p", Takes::Any, false),
    ("mysqldump", "-p", Takes::Any, false),
    ("mysqladmin", "-p", Takes::Any, false),
    ("mariadb", "-p", Takes::Any, false),
    ("mariadb-dump", "-p", Takes::Any, false),
    ("mysqlimport", "-p", Takes::Any, false),
    ("mysqlshow", "-p", Takes::Any, false),
    ("mysqlcheck", "-p", Takes::Any, false),
    ("sshpass", "-p", Takes::Any, false),
    ("mongo", "-p", Takes::Any, false),
    ("mongosh", "-p", Takes::Any, false),
    ("mongodump", "-p", Takes::Any, false),
    ("mongorestore", "-p", Takes::Any, false),
    ("redis-cli", "-a", Takes::Any, false),
    ("keydb-cli", "-a", Takes::Any, false),
    ("az", "-p", Takes::Any, false),
    ("docker", "-p", Takes::Any, true),
    ("podman", "-p", Takes::Any, true),
    ("buildah", "-p", Takes::Any, true),
    ("nerdctl", "-p", Takes::Any, true),
    ("helm", "-p", Takes::Any, true),
    ("oras", "-p", Takes::Any, true),
    ("skopeo", "-p", Takes::Any, true),
    ("crane", "-p", Takes::Any, true),
    ("curl", "-u", Takes::UserPassword, false),
    ("curl", "--user", Takes::UserPassword, false),
    ("curl", "-U", Takes::UserPassword, false),
    ("curl", "--proxy-user", Takes::UserPassword, false),
    ("wget", "--user", Takes::UserPassword, false),
    ("skopeo", "--creds", Takes::UserPassword, false),
    ("skopeo", "--src-creds", Takes::UserPassword, false),
    ("skopeo", "--dest-creds", Takes::UserPassword, false),
    ("podman", "--creds", Takes::UserPassword, false),
    ("buildah", "--creds", Takes::UserPassword, false),
];

/// What `option` of `program` takes: a secret by the option's own name
/// (`--password`, `--api-key`), or by [`PROGRAM_OPTIONS`].
pub(super) fn option_secret(program: Option<&str>, login: bool, option: &str) -> Option<Takes> {
    if !option.starts_with('-') || option.len() < 2 {
        return None;
    }
    let prog = program.map(program_name).unwrap_or_default();
    let by_program = PROGRAM_OPTIONS
        .iter()
        .find(|(p, o, _, needs_login)| *p == prog && *o == option && (login || !needs_login));
    if let Some((_, _, takes, _)) = by_program {
        return Some(*takes);
    }
    let name = option.trim_start_matches('-');
    // An option's name is a word (`--db-password`); a word holding an
    // expansion (`-p$PASS`) is an option with its value.
    let plain = name
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'));
    (plain && name.len() > 1 && is_secret_name(name)).then_some(Takes::Any)
}

/// Whether `value` is a secret as the value of an option that [`Takes`].
pub(super) fn takes_value(takes: Takes, option: &str, value: &str) -> bool {
    let name = option.trim_start_matches('-');
    match takes {
        Takes::UserPassword => value
            .split_once(':')
            .is_some_and(|(_, pw)| !pw.is_empty() && is_written(pw)),
        Takes::Any if name.len() > 1 && is_secret_name(name) => secret_by_name(name, value),
        // A program's one-letter option has no name to judge a value by.
        Takes::Any => !value.is_empty() && is_written(value),
    }
}

/// The program a word names, as the shell analysis reads it: base name,
/// lowercase, without `.exe` (`/usr/bin/MySQL.exe` is `mysql`).
use crate::shell::program_name;

/// What a wrapper takes before the program it runs (`sudo -u ci mysql`,
/// `timeout 10 mysql`): the shell analysis's wrappers and `env`, with the
/// options that take a value and the operands that come first.
pub(super) fn wrapped(name: &str) -> Option<(&'static [&'static str], usize)> {
    match crate::shell::programs::wrapper(name) {
        Some(w) => Some((w.valued, w.positional + w.sub.len())),
        None if name == "env" => Some((crate::shell::programs::ENV_VALUED, 0)),
        None => None,
    }
}

/// The program each word of one command's words belongs to (the program
/// first, behind any wrappers and assignments), and whether that command
/// is a `login`. The words of the wrappers belong to the outermost one
/// (`sudo -p PROMPT`), the rest to the program they run, as the shell
/// analysis finds it ([`crate::shell::programs::program_index`]); where it
/// finds none (a wrapper it cannot read), every word belongs to the first.
pub(super) fn programs<'w>(words: &[&'w str]) -> Vec<(Option<&'w str>, bool)> {
    let first = words
        .iter()
        .position(|w| !crate::shell::lex::is_assignment(w));
    let at = crate::shell::programs::program_index(words).or(first);
    let (wrapper, program) = (
        first.and_then(|i| words.get(i).copied()),
        at.and_then(|i| words.get(i).copied()),
    );
    let mut login = false;
    words
        .iter()
        .enumerate()
        .map(|(i, w)| {
            if at.is_some_and(|a| i < a) {
                return (first.filter(|&f| i >= f).and(wrapper), false);
            }
            login |= at.is_some_and(|a| i > a) && *w == "login";
            (program, login)
        })
        .collect()
}

/// Whether word `i` is the script a POSIX shell runs from its command line:
/// it follows an option cluster holding `c` (`-c`, `-ec`, `-euc`) given to
/// the shell itself.
fn shell_script_word(words: &[&str], i: usize, program: Option<&str>) -> bool {
    let is_shell = program.is_some_and(|p| {
        let base = p.rsplit('/').next().unwrap_or(p);
        crate::shell::programs::POSIX_SHELLS.contains(&base)
    });
    let after_c = i
        .checked_sub(1)
        .and_then(|k| words.get(k))
        .is_some_and(|o| {
            o.len() > 1
                && o.starts_with('-')
                && !o.starts_with("--")
                && o[1..].bytes().all(|b| b.is_ascii_alphabetic())
                && o.contains('c')
        });
    is_shell && after_c
}

/// A secret in a shell text ([`line_secrets`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LineSecret {
    /// The byte range of the word of the text that holds it, quotes
    /// included (for a secret inside a substitution or a `sh -c` text,
    /// the outer word).
    pub at: usize,
    pub end: usize,
    /// The secret itself ([`secret_part`] of the word as the shell reads it).
    pub part: String,
    /// How it was found, as [`secret_words`] says.
    pub how: &'static str,
}

/// How deep [`line_secrets`] reads shell text held inside shell text
/// (`sh -c "…"`, `$(…)`); each level is shorter than the one holding it.
const NESTED: usize = 4;

/// The secrets of a shell text, read through the one shell analysis
/// (`crate::shell::lex`): each simple command's words as the shell
/// splits them (quotes removed, redirections dropped), judged by
/// [`secret_words`]; a value piped into a command that reads a secret on
/// standard input (`echo X | docker login --password-stdin`); and, read
/// the same way, the shell text of command substitutions, here-documents
/// and words that hold a line of their own (`sh -c "…"`, `ssh host "…"`).
/// `masked` adds the words that are masked though no rule reports them
/// (`masked_words`).
pub fn line_secrets(text: &str, masked: bool) -> Vec<LineSecret> {
    let mut out = Vec::new();
    read_line(text, masked, NESTED, &mut out);
    out
}

fn read_line(text: &str, masked: bool, depth: usize, out: &mut Vec<LineSecret>) {
    use crate::shell::lex;
    let scan = lex::tokens(text);
    // Simple commands: their words, and whether their input is piped.
    let mut commands: Vec<(Vec<&lex::Token>, bool)> = vec![(Vec::new(), false)];
    let mut target_next = false;
    for t in &scan.tokens {
        if t.operator {
            let op = t.text.as_str();
            if op.starts_with(['<', '>']) || op.starts_with("&>") {
                target_next = true;
            } else {
                commands.push((Vec::new(), op == "|" || op == "|&"));
            }
            continue;
        }
        if std::mem::take(&mut target_next) {
            continue;
        }
        if let Some((words, _)) = commands.last_mut() {
            if !(words.is_empty() && lex::KEYWORDS.contains(&t.text.as_str())) {
                words.push(t);
            }
        }
    }
    let mut feeder: Option<Vec<&lex::Token>> = None;
    for (tokens, piped) in &commands {
        let words: Vec<&str> = tokens.iter().map(|t| t.text.as_str()).collect();
        let mut found = secret_words(&words);
        if masked {
            found.extend(masked_words(&words));
        }
        if *piped && reads_secret_on_stdin(&words) {
            if let Some(f) = feeder.as_deref() {
                let fed: Vec<&str> = f.iter().map(|t| t.text.as_str()).collect();
                for i in echoed(&fed) {
                    push_found(out, f.get(i).copied(), "value");
                }
            }
        }
        for (i, how) in found {
            push_found(out, tokens.get(i).copied(), how);
        }
        for t in tokens {
            let inner = t
                .substitutions
                .iter()
                .flat_map(|s| s.iter().map(|(_, body)| body.as_str()));
            let own = (t.text.contains(char::is_whitespace) && t.text.len() < text.len())
                .then_some(t.text.as_str());
            for body in inner.chain(own).filter(|_| depth > 0) {
                let mut nested = Vec::new();
                read_line(body, masked, depth - 1, &mut nested);
                out.extend(nested.into_iter().map(|n| LineSecret {
                    at: t.at,
                    end: t.end,
                    ..n
                }));
            }
        }
        feeder = Some(tokens.clone());
    }
    for h in scan.heredocs.iter().filter(|_| depth > 0) {
        let mut nested = Vec::new();
        read_line(&h.body, masked, depth - 1, &mut nested);
        out.extend(nested.into_iter().map(|n| LineSecret {
            at: h.at + n.at,
            end: h.at + n.end,
            ..n
        }));
    }
}

/// One secret word of a command, with its place in the text.
fn push_found(
    out: &mut Vec<LineSecret>,
    token: Option<&crate::shell::lex::Token>,
    how: &'static str,
) {
    let Some(t) = token else { return };
    let part = secret_part(&t.text, how);
    if part.is_empty() || out.iter().any(|o| o.at == t.at && o.part == part) {
        return;
    }
    out.push(LineSecret {
        at: t.at,
        end: t.end.max(t.at),
        part: part.to_string(),
        how,
    });
}

/// Options that read a secret on standard input (`docker login
/// --password-stdin`, `gh auth login --with-token`).
pub(super) const STDIN_SECRET_OPTIONS: &[&str] =
    &["--password-stdin", "--with-token", "--token-stdin"];

/// Programs that read passwords on standard input (`user:password` lines).
pub(super) const STDIN_SECRET_PROGRAMS: &[&str] = &["chpasswd", "chgpasswd"];

/// The password `htpasswd -b` takes as its last argument (`htpasswd -bc
/// FILE USER PASSWORD`, `htpasswd -nb USER PASSWORD`).
pub(super) fn positional_secrets(
    words: &[&str],
    programs: &[(Option<&str>, bool)],
) -> Vec<(usize, &'static str)> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < words.len() {
        let program = programs.get(i).and_then(|p| p.0);
        let end = (i..words.len())
            .find(|&j| programs.get(j).and_then(|p| p.0) != program)
            .unwrap_or(words.len());
        let segment = words.get(i..end).unwrap_or_default();
        let batch = segment
            .iter()
            .any(|w| w.starts_with('-') && !w.starts_with("--") && w.contains('b'));
        if program.map(program_name).as_deref() == Some("htpasswd") && batch {
            // The last argument before a redirection or the next command.
            let last = segment
                .iter()
                .position(|w| w.starts_with(['>', '<', '|', '&']))
                .map_or(end, |k| i + k);
            let at = (i..last).rev().find(|&j| {
                words
                    .get(j)
                    .map(|w| w.trim_matches(['"', '\'', ';', '&', '|']))
                    .is_some_and(|w| !w.is_empty() && !w.starts_with('-') && is_written(w))
            });
            out.extend(at.filter(|&j| j > i).map(|j| (j, "value")));
        }
        i = end.max(i + 1);
    }
    out
}

/// Whether a command reads a secret on standard input (`docker login
/// --password-stdin`, `chpasswd`).
fn reads_secret_on_stdin(words: &[&str]) -> bool {
    words.iter().any(|w| {
        STDIN_SECRET_OPTIONS.contains(w)
            || STDIN_SECRET_PROGRAMS.contains(&program_name(w).as_str())
    })
}

/// The arguments an `echo` or `printf` prints, when the command is one:
/// what it feeds a command that reads a secret on standard input.
fn echoed(words: &[&str]) -> Vec<usize> {
    let programs = programs(words);
    let Some(at) = programs
        .iter()
        .zip(words)
        .position(|((p, _), w)| p == &Some(*w))
    else {
        return Vec::new();
    };
    if !matches!(
        program_name(words.get(at).copied().unwrap_or("")).as_str(),
        "echo" | "printf"
    ) {
        return Vec::new();
    }
    (at + 1..words.len())
        .filter(|&j| {
            words.get(j).is_some_and(|a| {
                !a.is_empty() && !a.starts_with('-') && !a.contains('%') && is_written(a)
            })
        })
        .collect()
}

/// Which words of one command line (the program first) hold a secret, and
/// by which signal: the value after a secret-taking option
/// (`option-value`), a `NAME=value` or `--name=value` whose name marks a
/// secret (`assignment`), `-pX` for a password `-p` tool (`option-value`),
/// or a word shaped like a credential (`value`); [`secret_by_name`]
/// decides whether a value under a secret name is a secret. The command
/// rules and the collector both call this, so they cannot drift.
pub fn secret_words(words: &[&str]) -> Vec<(usize, &'static str)> {
    let programs = programs(words);
    let mut out = positional_secrets(words, &programs);
    let mut expect_value_of: Option<(&str, Takes)> = None;
    for (i, w) in words.iter().enumerate() {
        let (program, login) = programs.get(i).copied().unwrap_or((None, false));
        // The script of `sh -c` / `bash -euc` is shell text, read as the
        // `shell` field is (`line_secrets`): as one word, its
        // `export PASS="$(cat f)"; exec app` would look like a `NAME=value`
        // whose value is written out.
        if shell_script_word(words, i, program) {
            expect_value_of = None;
            continue;
        }
        if let Some((opt, takes)) = expect_value_of.take() {
            let value = w.trim_matches(|c| c == '"' || c == '\'');
            if !w.starts_with('-') && takes_value(takes, opt, value) {
                out.push((i, "option-value"));
                continue;
            }
        }
        if w.split(|c: char| "\"'`=;,&|()<>".contains(c))
            .any(looks_like_secret)
        {
            out.push((i, "value"));
            continue;
        }
        if let Some(rest) = w
            .strip_prefix("-p")
            .filter(|r| !r.is_empty() && !w.starts_with("--"))
        {
            if option_secret(program, login, "-p").is_some() && is_written(rest) {
                out.push((i, "option-value"));
                continue;
            }
        }
        let (name, value) = match w.split_once('=') {
            Some((n, v)) => (n, Some(v.trim_matches(|c| c == '"' || c == '\''))),
            None => (*w, None),
        };
        match value {
            Some(v) if secret_by_name(name.trim_start_matches('-'), v) => {
                out.push((i, "assignment"));
            }
            Some(v)
                if option_secret(program, login, name).is_some_and(|t| takes_value(t, name, v)) =>
            {
                out.push((i, "assignment"));
            }
            None => expect_value_of = option_secret(program, login, w).map(|t| (*w, t)),
            _ => {}
        }
    }
    // Each word once, in order: several signals may find the same one.
    crate::sort::sort_by_key(&mut out, |h| h.0);
    out.dedup_by_key(|h| h.0);
    out
}

/// The part of a secret word that holds the secret: the value of
/// `NAME=value` or `--name=value`, the `X` of `-pX`, or the word itself.
/// Quotes and a shell line's separators around a word are not part of the
/// secret, and a source that escapes quotes (JSON's `\"`) shows the secret
/// without them.
pub fn secret_part<'w>(word: &'w str, how: &str) -> &'w str {
    let part = match how {
        "assignment" => word.split_once('=').map_or(word, |(_, v)| v),
        "user-password" => word
            .split_once('=')
            .and_then(|(_, v)| v.split_once(':'))
            .map_or(word, |(_, pw)| pw),
        "option-value" if word.starts_with("-p") || word.starts_with("-P") => {
            word.get(2..).unwrap_or(word)
        }
        _ => word,
    };
    part.trim_matches(|c| matches!(c, '"' | '\'' | ';' | '`' | '(' | ')'))
}

/// The secret parts of the words of one command line.
pub(super) fn collect_words(words: &[&str], out: &mut Vec<String>) {
    for (i, how) in secret_words(words).into_iter().chain(masked_words(words)) {
        if let Some(w) = words.get(i) {
            let part = secret_part(w, how);
            if !part.is_empty() {
                out.push(part.to_string());
            }
        }
    }
}

/// Programs whose `-p` and `-P` take no secret (a port, a flag, a
/// directory, a prompt), besides those of [`PROGRAM_OPTIONS`], whose
/// options are known.
pub(super) const P_IS_NOT_A_SECRET: &[&str] = &[
    "ssh",
    "scp",
    "sftp",
    "autossh",
    "mkdir",
    "cp",
    "mv",
    "install",
    "rsync",
    "tar",
    "ps",
    "pgrep",
    "pkill",
    "git",
    "make",
    "pytest",
    "py.test",
    "python",
    "python3",
    "pip",
    "pip3",
    "uv",
    "nc",
    "ncat",
    "netcat",
    "socat",
    "read",
    "sudo",
    "su",
    "psql",
    "pg_dump",
    "pg_restore",
    "pg_isready",
    "createdb",
    "dropdb",
    "redis-cli",
    "keydb-cli",
    "kubectl",
    "npm",
    "npx",
    "cargo",
    "go",
    "node",
    "java",
    "mvn",
    "gradle",
    "patch",
    "ls",
    "df",
    "du",
    "touch",
    "ln",
    "date",
    "journalctl",
    "systemctl",
    "grep",
    "sed",
    "xargs",
    "unshare",
    "nsenter",
    "bwrap",
    "perl",
    "ruby",
    "bash",
    "sh",
    "zsh",
    "dash",
    "env",
    "lsof",
    "ss",
    "netstat",
    "nmap",
    "ping",
    "wget",
    "ssh-keygen",
    "ssh-keyscan",
    "mount",
    "chmod",
    "chown",
    "rm",
    "uvicorn",
    "gunicorn",
    "flask",
    "hugo",
];

/// Words masked that no rule reports: the value of `-p` or `-P` after a
/// program whose options isolint does not know (`-p VALUE`, `-pVALUE`:
/// for many tools a password; masking a port instead costs a reviewer
/// little), and the password of `--user=name:secret` (curl's style) after
/// any program, unless it is a `uid:gid` pair of numbers.
pub(super) fn masked_words(words: &[&str]) -> Vec<(usize, &'static str)> {
    let programs = programs(words);
    let known = |p: Option<&str>| {
        p.map(program_name).is_some_and(|name| {
            P_IS_NOT_A_SECRET.contains(&name.as_str())
                || PROGRAM_OPTIONS.iter().any(|(q, ..)| *q == name)
                || wrapped(&name).is_some()
        })
    };
    let mut out = Vec::new();
    for (i, w) in words.iter().enumerate() {
        let program = programs.get(i).and_then(|p| p.0);
        let bare = w.trim_matches(|c| c == '"' || c == '\'');
        if let Some((opt, value)) = bare.split_once('=') {
            if matches!(opt, "--user" | "--proxy-user" | "--creds" | "--credentials")
                && value.split_once(':').is_some_and(|(_, pw)| {
                    !pw.is_empty() && is_written(pw) && !pw.bytes().all(|b| b.is_ascii_digit())
                })
            {
                out.push((i, "user-password"));
            }
            continue;
        }
        if known(program) || program == Some(bare) {
            continue;
        }
        if matches!(bare, "-p" | "-P") {
            let next = words
                .get(i + 1)
                .map(|n| n.trim_matches(|c| c == '"' || c == '\''));
            if next.is_some_and(|n| !n.is_empty() && !n.starts_with('-') && is_written(n)) {
                out.push((i + 1, "value"));
            }
        } else if let Some(rest) = bare.strip_prefix("-p").or_else(|| bare.strip_prefix("-P")) {
            // Not a bundle of one-letter flags (`-pv`).
            let flags = rest.len() <= 3 && rest.bytes().all(|b| b.is_ascii_lowercase());
            if !rest.is_empty() && !rest.starts_with('-') && !flags && is_written(rest) {
                out.push((i, "option-value"));
            }
        }
    }
    out
}
