//! Secret detection and redaction. A value that looks like a credential is
//! never echoed in any output: findings name the variable or field, and the
//! value is replaced by [`MASK`].
//!
//! Two signals say a value is a secret: the *name* that holds it (read as
//! words, see [`is_secret_name`]) and the value's own *shape* (a vendor
//! prefix, a PEM block, a password in a URL, a long random token, see
//! [`looks_like_secret`]). Identifiers (content digests, UUIDs) are not
//! secrets by shape.
//!
//! What a report prints is built from two kinds of text: a rule's own
//! wording, which is trusted and never scanned, and values taken from the
//! profile or the catalog, which rules quote in backticks (clippy style)
//! and which are masked and neutralized ([`Secrets::scrub_message`]).

use std::borrow::Cow;
use std::collections::HashSet;

use crate::json::{Node, Value};

/// What replaces a secret value in messages and evidence.
pub const MASK: &str = "[redacted]";

/// The words of a variable or key name, lower-cased: split on every byte
/// that is not an ASCII letter or digit (`_ - . /` and the like), and where
/// case changes (`githubToken`, `APIKey`: `api` `key`).
pub fn name_words(name: &str) -> Vec<String> {
    word_slices(name)
        .into_iter()
        .map(str::to_ascii_lowercase)
        .collect()
}

/// [`name_words`] as pieces of `name`, in their own case: every key of
/// every profile is read as words, and a copy of each word would cost
/// more than the reading.
fn word_slices(name: &str) -> Vec<&str> {
    let mut words = Vec::new();
    for part in name.split(|c: char| !c.is_ascii_alphanumeric()) {
        let b = part.as_bytes();
        let mut start = 0;
        for i in 1..b.len() {
            let (prev, cur) = (b.get(i - 1).copied(), b.get(i).copied());
            let next = b.get(i + 1).copied();
            let lower_to_upper = prev.is_some_and(|p| p.is_ascii_lowercase() || p.is_ascii_digit())
                && cur.is_some_and(|c| c.is_ascii_uppercase());
            // The last capital of a run starts the next word: `APIKey`.
            let run_ends = prev.is_some_and(|p| p.is_ascii_uppercase())
                && cur.is_some_and(|c| c.is_ascii_uppercase())
                && next.is_some_and(|n| n.is_ascii_lowercase());
            if lower_to_upper || run_ends {
                if let Some(w) = part.get(start..i) {
                    words.push(w);
                }
                start = i;
            }
        }
        if let Some(w) = part.get(start..).filter(|w| !w.is_empty()) {
            words.push(w);
        }
    }
    words
}

/// Words that mark a secret wherever they stand in a name (`DB_PASSWORD`,
/// `PASSWORD`, `TOKEN_VALUE`), and as the end of a run-together word
/// (`PGPASSWORD`, `clientsecret`). Plurals such as `tokens` count things.
const STRONG_ANYWHERE: &[&str] = &[
    "password",
    "passwd",
    "passphrase",
    "token",
    "secret",
    "apikey",
    "privatekey",
    "secretkey",
    "accesskey",
];

/// Words that usually mark a secret but also name settings.
const WEAK_ANYWHERE: &[&str] = &["credential", "credentials", "creds", "dsn", "cookie"];

/// Words that mark a secret only as the last word of a longer name:
/// `MYSQL_PWD`, `GITHUB_PAT` (but `PWD` is the current directory).
const STRONG_LAST_OF_MANY: &[&str] = &["pwd", "pat"];

/// Words that mark a secret as the last word: `DB_PASS`, `--pass` (but
/// `PASS_THROUGH` is a setting).
const STRONG_LAST: &[&str] = &["pass"];

/// Words that mark a (weak) secret only as the last word: `BASIC_AUTH`,
/// `auth` (a registry login), but not `AUTH_BACKENDS` or `SSH_AUTH_SOCK`.
const WEAK_LAST: &[&str] = &["auth", "authorization"];

/// Words before a last `key` that make it a secret key (`API_KEY`,
/// `SIGNING_KEY`); others name lookups (`SORT_KEY`, `PRIMARY_KEY`).
const KEY_KINDS: &[&str] = &[
    "api",
    "private",
    "access",
    "secret",
    "signing",
    "sign",
    "client",
    "session",
    "encryption",
    "encrypt",
    "master",
    "hmac",
    "jwt",
    "license",
    "licence",
    "deploy",
    "service",
    "account",
    "auth",
    "app",
    "shared",
    "ssh",
    "gpg",
    "pgp",
    "crypto",
    "cipher",
    "aes",
    "storage",
    "webhook",
    "admin",
    "root",
    "user",
    "write",
    "subscription",
];

/// Last words that say the value is about a secret, not the secret:
/// `SECRET_NAME`, `PASSWORD_MIN_LENGTH`, `TOKEN_URL`, `DB_PASSWORD_FILE`.
const ABOUT_A_SECRET: &[&str] = &[
    "name",
    "names",
    "ref",
    "refs",
    "reference",
    "id",
    "ids",
    "path",
    "paths",
    "file",
    "files",
    "dir",
    "directory",
    "location",
    "url",
    "uri",
    "endpoint",
    "host",
    "length",
    "len",
    "min",
    "max",
    "count",
    "size",
    "type",
    "types",
    "kind",
    "mode",
    "backend",
    "backends",
    "provider",
    "providers",
    "hasher",
    "hashers",
    "policy",
    "enabled",
    "enable",
    "disabled",
    "disable",
    "required",
    "expiry",
    "expires",
    "expiration",
    "ttl",
    "lifetime",
    "timeout",
    "rotation",
    "version",
    "prefix",
    "format",
    "env",
    "var",
    "source",
    "stdin",
    "mount",
    "sock",
    "socket",
    "limit",
    "limits",
    "domain",
    "secure",
    "httponly",
    "samesite",
    "age",
    "pattern",
    "regex",
    "command",
    "cmd",
    "helper",
    "store",
    "field",
    "scope",
    "scopes",
    "audience",
    "issuer",
    "algorithm",
    "alg",
    "method",
    "strategy",
    "reset",
    "validity",
    "validation",
    "strength",
];

/// How strongly a name says its value is a secret.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
enum NameSignal {
    None,
    Weak,
    Strong,
}

/// Whether `name` holds, in any case, a piece of every name
/// [`name_signal`] can call a secret's: each word of the tables above that
/// makes a name one holds one of these (a test checks it). Most names
/// (`source`, `read_only`, `image`) hold none and are no secret's without
/// being read as words.
fn may_signal(name: &str) -> bool {
    let b = name.as_bytes();
    (0..b.len()).any(|i| {
        let pieces: &[&[u8]] = match b.get(i).map(u8::to_ascii_lowercase) {
            Some(b'a') => &[b"auth"],
            Some(b'c') => &[b"cred", b"cookie", b"connection"],
            Some(b'd') => &[b"dsn"],
            Some(b'k') => &[b"key"],
            Some(b'p') => &[b"pass", b"pwd", b"pat"],
            Some(b's') => &[b"secret"],
            Some(b't') => &[b"token"],
            _ => return false,
        };
        pieces.iter().any(|p| {
            b.get(i..i + p.len())
                .is_some_and(|w| w.eq_ignore_ascii_case(p))
        })
    })
}

fn name_signal(name: &str) -> NameSignal {
    if may_signal(name) {
        signal_of_words(name)
    } else {
        NameSignal::None
    }
}

/// [`name_signal`], from the name's words alone.
fn signal_of_words(name: &str) -> NameSignal {
    // Words are ASCII letters and digits in any case; every comparison
    // below ignores case.
    let words = word_slices(name);
    let n = words.len();
    let Some(&last) = words.last() else {
        return NameSignal::None;
    };
    let eq = |w: &str, s: &str| w.eq_ignore_ascii_case(s);
    let is = |w: &str, set: &[&str]| set.iter().any(|s| eq(w, s));
    let before = |k: usize| words.get(n.wrapping_sub(k)).copied().unwrap_or_default();
    // `AWS_ACCESS_KEY_ID`: a key id counts as part of the key pair.
    let key_id = n >= 3 && eq(last, "id") && eq(before(2), "key") && is(before(3), KEY_KINDS);
    if is(last, ABOUT_A_SECRET) && !key_id {
        return NameSignal::None;
    }
    let strong_word = |w: &str| {
        STRONG_ANYWHERE.iter().any(|s| {
            eq(w, s)
                || (w.len() > s.len() + 1
                    && w.get(w.len() - s.len()..).is_some_and(|end| eq(end, s)))
        })
    };
    if key_id
        || words.iter().any(|w| strong_word(w))
        || (n >= 2 && is(last, STRONG_LAST_OF_MANY))
        || is(last, STRONG_LAST)
        || (n >= 2 && eq(last, "key") && is(before(2), KEY_KINDS))
    {
        return NameSignal::Strong;
    }
    if words.iter().any(|w| is(w, WEAK_ANYWHERE))
        || is(last, WEAK_LAST)
        || (n >= 2 && eq(last, "header") && is(before(2), WEAK_LAST))
        || (n >= 2 && eq(last, "string") && eq(before(2), "connection"))
    {
        return NameSignal::Weak;
    }
    NameSignal::None
}

/// Whether a variable or key name says its value is a secret. Names are
/// compared by whole words ([`name_words`]), never by substring:
/// `TOKENIZER_MODE`, `MAX_TOKENS` and `AUTH_BACKENDS` are settings.
pub fn is_secret_name(name: &str) -> bool {
    name_signal(name) != NameSignal::None
}

/// Whether a name leaves no doubt that its value is a secret (unlike
/// `AUTH` or `COOKIE`, which also name modes and settings).
pub fn is_strong_secret_name(name: &str) -> bool {
    name_signal(name) == NameSignal::Strong
}

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
enum Takes {
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
const PROGRAM_OPTIONS: &[(&str, &str, Takes, bool)] = &[
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
fn option_secret(program: Option<&str>, login: bool, option: &str) -> Option<Takes> {
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
    (name.len() > 1 && is_secret_name(name)).then_some(Takes::Any)
}

/// Whether `value` is a secret as the value of an option that [`Takes`].
fn takes_value(takes: Takes, option: &str, value: &str) -> bool {
    let name = option.trim_start_matches('-');
    match takes {
        Takes::UserPassword => value
            .split_once(':')
            .is_some_and(|(_, pw)| !pw.is_empty() && !is_reference(pw)),
        Takes::Any if name.len() > 1 && is_secret_name(name) => secret_by_name(name, value),
        // A program's one-letter option has no name to judge a value by.
        Takes::Any => !value.is_empty() && !is_reference(value),
    }
}

/// The program a word names, as the shell analysis reads it: base name,
/// lowercase, without `.exe` (`/usr/bin/MySQL.exe` is `mysql`).
use crate::shell::program_name;

/// What a wrapper takes before the program it runs (`sudo -u ci mysql`,
/// `timeout 10 mysql`): the shell analysis's wrappers and `env`, with the
/// options that take a value and the operands that come first.
fn wrapped(name: &str) -> Option<(&'static [&'static str], usize)> {
    match crate::shell::programs::wrapper(name) {
        Some(w) => Some((w.valued, w.positional + w.sub.len())),
        None if name == "env" => Some((crate::shell::programs::ENV_VALUED, 0)),
        None => None,
    }
}

/// The program each word of a command line belongs to, and whether that
/// command is a `login`: a shell line holds several commands (`a && b`,
/// `sh -c "mysql -pX"`), and a program's options are its own.
fn programs<'w>(words: &[&'w str]) -> Vec<(Option<&'w str>, bool)> {
    let mut out = Vec::with_capacity(words.len());
    let mut program: Option<&str> = None;
    let mut starts = true;
    let mut login = false;
    // Before the program: a wrapper's options that take a value, whether
    // this word is one's value, and the wrapper's operands still to come.
    let (mut valued, mut is_value, mut operands): (&[&str], bool, usize) = (&[], false, 0);
    for w in words {
        let bare = w.trim_start_matches(['"', '\'', '(', '`', '{']);
        let bare = bare.trim_end_matches(['"', '\'', ')', '`', ';', '}', '&', '|']);
        if starts && !bare.is_empty() {
            let assignment = bare.split_once('=').is_some_and(|(n, _)| {
                !n.is_empty() && n.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
            });
            if is_value {
                is_value = false;
            } else if bare.starts_with('-') {
                is_value = valued.contains(&bare);
            } else if assignment {
            } else if operands > 0 {
                operands -= 1;
            } else {
                program = Some(bare);
                login = false;
                match wrapped(&program_name(bare)) {
                    Some((v, n)) => (valued, operands) = (v, n),
                    None => starts = false,
                }
            }
        } else if bare == "login" {
            login = true;
        }
        out.push((program, login));
        let ends = w.ends_with(';')
            || w.ends_with("&&")
            || w.ends_with("||")
            || w.ends_with('|')
            || w.ends_with('&')
            || matches!(*w, "-c" | "then" | "do" | "else" | "!");
        if ends {
            starts = true;
            (valued, is_value, operands) = (&[], false, 0);
        }
    }
    out
}

/// Options that read a secret on standard input (`docker login
/// --password-stdin`, `gh auth login --with-token`).
const STDIN_SECRET_OPTIONS: &[&str] = &["--password-stdin", "--with-token", "--token-stdin"];

/// Programs that read passwords on standard input (`user:password` lines).
const STDIN_SECRET_PROGRAMS: &[&str] = &["chpasswd", "chgpasswd"];

/// The password `htpasswd -b` takes as its last argument (`htpasswd -bc
/// FILE USER PASSWORD`, `htpasswd -nb USER PASSWORD`).
fn positional_secrets(
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
                    .is_some_and(|w| !w.is_empty() && !w.starts_with('-') && !is_reference(w))
            });
            out.extend(at.filter(|&j| j > i).map(|j| (j, "value")));
        }
        i = end.max(i + 1);
    }
    out
}

/// The arguments of an `echo` or `printf` whose output is piped into a
/// command that reads a secret on standard input
/// (`echo X | docker login --password-stdin`).
fn piped_secrets(words: &[&str]) -> Vec<(usize, &'static str)> {
    let mut out = Vec::new();
    let reads_stdin = |w: &&str| {
        let w = w.trim_matches(['"', '\'', ';']);
        STDIN_SECRET_OPTIONS.contains(&w)
            || STDIN_SECRET_PROGRAMS.contains(&program_name(w).as_str())
    };
    if !words.iter().any(reads_stdin) {
        return out;
    }
    let programs = programs(words);
    for (i, w) in words.iter().enumerate() {
        if !reads_stdin(w) {
            continue;
        }
        // The pipe before this command, and the command before the pipe.
        let Some(pipe) = words.get(..i).and_then(|b| {
            b.iter()
                .rposition(|w| w.ends_with('|') && !w.ends_with("||"))
        }) else {
            continue;
        };
        let feeder = programs.get(pipe).and_then(|p| p.0);
        if !matches!(feeder.map(program_name).as_deref(), Some("echo" | "printf")) {
            continue;
        }
        let start = (0..=pipe)
            .rev()
            .find(|&j| programs.get(j).and_then(|p| p.0) != feeder)
            .map_or(0, |j| j + 1);
        for (j, a) in words.iter().enumerate().take(pipe + 1).skip(start + 1) {
            let a = a.trim_end_matches('|').trim_matches(['"', '\'']);
            if !a.is_empty() && !a.starts_with('-') && !a.contains('%') && !is_reference(a) {
                out.push((j, "value"));
            }
        }
    }
    out
}

/// Which words of one command line (the program first) hold a secret, and
/// by which signal: the value after a secret-taking option
/// (`option-value`), a `NAME=value` or `--name=value` whose name marks a
/// secret (`assignment`), `-pX` for a password `-p` tool (`option-value`),
/// or a word shaped like a credential (`value`); [`secret_by_name`]
/// decides whether a value under a secret name is a secret. The command
/// rules and the collector both call this, so they cannot drift.
pub fn secret_words(words: &[&str]) -> Vec<(usize, &'static str)> {
    let mut out = piped_secrets(words);
    let programs = programs(words);
    out.extend(positional_secrets(words, &programs));
    let mut expect_value_of: Option<(&str, Takes)> = None;
    for (i, w) in words.iter().enumerate() {
        let (program, login) = programs.get(i).copied().unwrap_or((None, false));
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
            if option_secret(program, login, "-p").is_some() && !is_reference(rest) {
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

/// Vendor prefixes of credential formats; the value must go on for at
/// least eight more bytes.
const PREFIXES: &[&str] = &[
    "ghp_",
    "gho_",
    "ghu_",
    "ghs_",
    "ghr_",
    "github_pat_",
    "glpat-",
    "xoxb-",
    "xoxp-",
    "xoxa-",
    "xoxs-",
    "xapp-",
    "sk_live_",
    "rk_live_",
    "sk-ant-",
    "sk-proj-",
    "AIza",
    "ya29.",
    "npm_",
    "pypi-",
    "hf_",
    "dop_v1_",
    "SG.",
];

/// Whether `hay` contains `needle`, for the short strings this module
/// looks at (a substring searcher costs more to set up than to run here).
fn has(hay: &[u8], needle: &[u8]) -> bool {
    needle.len() <= hay.len() && hay.windows(needle.len()).any(|w| w == needle)
}

/// Byte kinds for [`looks_like_secret`]'s one pass: a token's kinds are
/// OR-ed together, and most tokens are ruled out by their kinds alone.
const K_HEX_LOWER: u16 = 1; // a-f
const K_LOWER: u16 = 1 << 1; // g-z
const K_HEX_UPPER: u16 = 1 << 2; // A-F
const K_UPPER: u16 = 1 << 3; // G-Z
const K_DIGIT: u16 = 1 << 4;
const K_SYMBOL: u16 = 1 << 5; // + / = _ -
const K_SPACE: u16 = 1 << 6; // ' ' only
const K_COLON: u16 = 1 << 7;
const K_AT: u16 = 1 << 8;
const K_OTHER: u16 = 1 << 9;
const K_ANY_LOWER: u16 = K_HEX_LOWER | K_LOWER;
const K_ANY_UPPER: u16 = K_HEX_UPPER | K_UPPER;
const K_HEX: u16 = K_HEX_LOWER | K_HEX_UPPER | K_DIGIT;
const K_TOKEN: u16 = K_ANY_LOWER | K_ANY_UPPER | K_DIGIT | K_SYMBOL;
// Evaluated at compile time: an index out of range fails the build.
#[allow(clippy::indexing_slicing)]
const KIND: [u16; 256] = {
    let mut t = [K_OTHER; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        t[b] = match c {
            b'a'..=b'f' => K_HEX_LOWER,
            b'g'..=b'z' => K_LOWER,
            b'A'..=b'F' => K_HEX_UPPER,
            b'G'..=b'Z' => K_UPPER,
            b'0'..=b'9' => K_DIGIT,
            b'+' | b'/' | b'=' | b'_' | b'-' => K_SYMBOL,
            b' ' => K_SPACE,
            b':' => K_COLON,
            b'@' => K_AT,
            _ => K_OTHER,
        };
        b += 1;
    }
    t
};
/// Entry `b`: bit `i` set when vendor prefix `i` starts with byte `b`
/// (every prefix starts with an ASCII byte), so a token is compared with
/// the few prefixes that share its first byte and no other.
// Evaluated at compile time: an index out of range fails the build, and so
// would a 33rd prefix (the shift below overflows).
#[allow(clippy::indexing_slicing)]
const PREFIX_FIRST: [u32; 128] = {
    let mut t = [0u32; 128];
    let mut i = 0;
    while i < PREFIXES.len() {
        t[PREFIXES[i].as_bytes()[0] as usize] |= 1 << i;
        i += 1;
    }
    t
};

/// Every vendor prefix holds a byte other than a lower-case letter, which
/// [`secret_shaped`]'s first test relies on; a prefix of lower-case letters
/// alone fails the build here.
// Evaluated at compile time: an index out of range fails the build.
#[allow(clippy::indexing_slicing)]
const PREFIXES_LEAVE_LOWER_CASE: () = {
    let mut i = 0;
    while i < PREFIXES.len() {
        let p = PREFIXES[i].as_bytes();
        let mut j = 0;
        let mut other = false;
        while j < p.len() {
            other |= !p[j].is_ascii_lowercase();
            j += 1;
        }
        assert!(other, "a vendor prefix of lower-case letters alone");
        i += 1;
    }
};

/// Whether `b` starts with a vendor prefix and goes on for at least eight
/// more bytes.
fn vendor_prefixed(b: &[u8], first: u8) -> bool {
    #[allow(clippy::let_unit_value)]
    let () = PREFIXES_LEAVE_LOWER_CASE;
    let mut set = PREFIX_FIRST.get(usize::from(first)).copied().unwrap_or(0);
    while set != 0 {
        let i = set.trailing_zeros() as usize;
        set &= set - 1;
        if let Some(p) = PREFIXES.get(i) {
            // Eight token bytes after the prefix: a sentence that starts
            // with one (`ghp_ starts a token`) is not a token.
            let body = b.get(p.len()..p.len() + 8).unwrap_or_default();
            if body.len() == 8
                && b.starts_with(p.as_bytes())
                && body.iter().all(|&c| kind(c) & !K_TOKEN == 0 || c == b'.')
            {
                return true;
            }
        }
    }
    false
}

fn kind(b: u8) -> u16 {
    KIND.get(usize::from(b)).copied().unwrap_or(K_OTHER)
}

/// Whether a value itself looks like a credential, whatever its name.
///
/// One pass collects the kinds of bytes the value holds; the costlier
/// checks (vendor prefixes, URL passwords, PEM markers, per-class counts)
/// run only when those kinds allow them to succeed.
pub fn looks_like_secret(v: &str) -> bool {
    let v = v.trim();
    if v == MASK {
        // What `isolint import` writes in place of a secret it withheld.
        return true;
    }
    let kinds = v.as_bytes().iter().fold(0u16, |acc, &c| acc | kind(c));
    secret_shaped(v, kinds)
}

/// [`looks_like_secret`] of a value without surrounding whitespace whose
/// byte kinds (the OR of [`kind`] over its bytes) are already known.
fn secret_shaped(v: &str, kinds: u16) -> bool {
    let b = v.as_bytes();
    let Some(&first) = b.first() else {
        return false;
    };
    if b.len() < 8 {
        return false;
    }
    if kinds & !K_ANY_LOWER == 0 && kinds & K_LOWER != 0 {
        // Lower-case letters alone, not all of them hex: every shape below
        // needs some other byte (each vendor prefix has one, checked at
        // compile time by `PREFIXES_LEAVE_LOWER_CASE`), or only hex.
        return false;
    }
    if vendor_prefixed(b, first) {
        return true;
    }
    if b.starts_with(b"sk-") && b.len() >= 20 {
        return true;
    }
    if (b.starts_with(b"AKIA") || b.starts_with(b"ASIA"))
        && b.len() >= 16
        && kinds & !(K_ANY_UPPER | K_DIGIT) == 0
    {
        return true;
    }
    // A PEM block has spaces, so a token between separators never is one.
    if kinds & K_SPACE != 0 && has(b, b"-----BEGIN") && has(b, b"PRIVATE KEY") {
        return true;
    }
    // A JSON Web Token: header, payload and signature; whatever a rule
    // glues after it (`.html`, `.example`) is masked with it.
    if b.starts_with(b"eyJ") && b.iter().filter(|&&c| c == b'.').count() >= 2 {
        return true;
    }
    if kinds & K_COLON != 0 && kinds & K_AT != 0 && has_url_password(v) {
        return true;
    }
    if kinds & K_OTHER != 0 && webhook_url(b) {
        return true;
    }
    high_entropy_token(b, kinds)
}

/// Webhook URLs whose path is the credential: whoever holds one posts as
/// its owner. The whole URL is the secret.
const WEBHOOKS: &[&str] = &[
    "hooks.slack.com/services/",
    "hooks.slack.com/workflows/",
    "hooks.slack.com/triggers/",
    "discord.com/api/webhooks/",
    "discordapp.com/api/webhooks/",
];

/// Whether `b` holds a [`WEBHOOKS`] address with a path after it.
fn webhook_url(b: &[u8]) -> bool {
    WEBHOOKS.iter().any(|w| {
        let w = w.as_bytes();
        b.windows(w.len())
            .position(|x| x.eq_ignore_ascii_case(w))
            .is_some_and(|i| b.len() >= i + w.len() + 8)
    })
}

/// The passwords of every `scheme://user:password@host` in `s`.
fn url_passwords(s: &str) -> impl Iterator<Item = &str> {
    s.match_indices("://").filter_map(move |(i, _)| {
        let rest = s.get(i + 3..)?;
        let auth = rest.split(['/', '?', '#', ' ', '"', '\'']).next()?;
        let (user, _) = auth.rsplit_once('@')?;
        let (_, pw) = user.split_once(':')?;
        (!pw.is_empty() && !is_reference(pw)).then_some(pw)
    })
}

/// `scheme://user:password@host`.
fn has_url_password(v: &str) -> bool {
    let b = v.as_bytes();
    let Some(i) = b.windows(3).position(|w| w == b"://") else {
        return false;
    };
    let rest = b.get(i + 3..).unwrap_or_default();
    let auth_end = rest
        .iter()
        .position(|c| matches!(c, b'/' | b'?' | b'#'))
        .unwrap_or(rest.len());
    let auth = rest.get(..auth_end).unwrap_or_default();
    match auth.iter().rposition(|&c| c == b'@') {
        Some(at) => {
            let user = auth.get(..at).unwrap_or_default();
            user.contains(&b':') && at > user.iter().position(|&c| c == b':').unwrap_or(0) + 1
        }
        None => false,
    }
}

/// `8-4-4-4-12` hex digits: an identifier, whatever its case.
fn is_uuid(b: &[u8]) -> bool {
    b.len() == 36
        && b.iter().enumerate().all(|(i, c)| {
            if matches!(i, 8 | 13 | 18 | 23) {
                *c == b'-'
            } else {
                c.is_ascii_hexdigit()
            }
        })
}

/// A long run of mixed letters and digits with no spaces: 40-character
/// AWS secret keys, hex API keys and the like. Paths and words are spared.
/// `kinds` are the value's byte kinds: only letters, digits and `+/=_-`
/// qualify, so a `://`, a space or an `@sha256:` digest never does.
fn high_entropy_token(b: &[u8], kinds: u16) -> bool {
    if b.len() < 24 || b.first() == Some(&b'/') || kinds & !K_TOKEN != 0 {
        return false;
    }
    if b.len() >= 32 && kinds & !K_HEX == 0 {
        // A content digest (SHA-1, SHA-256, SHA-512) or a container id is
        // an identifier; other lengths of hex are API keys.
        return !matches!(b.len(), 40 | 64 | 128);
    }
    if is_uuid(b) {
        return false;
    }
    if kinds & K_ANY_UPPER == 0 || kinds & K_ANY_LOWER == 0 || kinds & K_DIGIT == 0 {
        return false;
    }
    let upper = b.iter().filter(|c| c.is_ascii_uppercase()).count();
    let lower = b.iter().filter(|c| c.is_ascii_lowercase()).count();
    upper >= 2 && lower >= 2
}

/// Settings that a secret-named key often holds instead of a secret.
const SETTINGS: &[&str] = &[
    "true", "false", "yes", "no", "on", "off", "none", "null", "enabled", "disabled", "required",
    "optional",
];

/// Whether the value under a secret-sounding name is itself a secret:
/// not empty, not a reference, not a setting such as `none` or `true`,
/// not a path to a file that holds the secret; and, when the name is only
/// weakly secret-sounding, shaped like a credential rather than a word.
pub fn secret_by_name(name: &str, value: &str) -> bool {
    let v = value.trim();
    // The value's own tests first: they are cheap, and the name's words
    // are not (every key of every imported profile comes through here).
    if v.is_empty() || is_reference(v) || v.starts_with('/') {
        return false;
    }
    if SETTINGS.iter().any(|s| v.eq_ignore_ascii_case(s))
        || (v.len() <= 5 && v.bytes().all(|b| b.is_ascii_digit()))
        || email_list(v)
        || plain_url(v)
    {
        return false;
    }
    let signal = name_signal(name);
    if signal == NameSignal::None {
        return false;
    }
    signal == NameSignal::Strong
        || !v
            .chars()
            .all(|c| c.is_ascii_lowercase() || c == '-' || c == '_' || c == '.')
}

/// One or more e-mail addresses, separated by commas, semicolons or
/// spaces (`SECRET_RECIPIENTS: ops@example.com`): an address book, not a
/// secret. Every item must be an address whose domain ends in a name of
/// letters; anything else (`ops@example`, `a@b.com:pw`) is not this shape.
fn email_list(v: &str) -> bool {
    let mut items = v
        .split([',', ';', ' '])
        .filter(|i| !i.is_empty())
        .peekable();
    items.peek().is_some() && items.all(is_email)
}

fn is_email(s: &str) -> bool {
    let Some((local, domain)) = s.split_once('@') else {
        return false;
    };
    let labels: Vec<&str> = domain.split('.').collect();
    !local.is_empty()
        && local
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"._%+-".contains(&b))
        && labels.len() >= 2
        && labels
            .iter()
            .all(|l| !l.is_empty() && l.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-'))
        && labels
            .last()
            .is_some_and(|t| t.len() >= 2 && t.bytes().all(|b| b.is_ascii_alphabetic()))
}

/// An `http(s)` address with no user info, query or fragment, whose path
/// is made of words (`AUTH_TOKEN: https://auth.example.com/oauth/token`):
/// where a secret is fetched, not the secret. A path segment that could be
/// a token (mixed letters and digits past twelve bytes, or any credential
/// shape) is not this shape, since some services put the credential in
/// the path.
fn plain_url(v: &str) -> bool {
    let Some(rest) = v
        .strip_prefix("https://")
        .or_else(|| v.strip_prefix("http://"))
    else {
        return false;
    };
    if rest.contains(['@', '?', '#', ' ', '%', '\\']) {
        return false;
    }
    let (host, path) = rest.split_once('/').unwrap_or((rest, ""));
    let (name, port) = host.split_once(':').unwrap_or((host, "0"));
    let word = |seg: &str| {
        seg.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"._~-".contains(&b))
            && (seg.len() <= 12
                || seg
                    .bytes()
                    .all(|b| b.is_ascii_lowercase() || b"._-".contains(&b)))
            && !looks_like_secret(seg)
    };
    name.contains('.')
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'.' || b == b'-')
        && !port.is_empty()
        && port.bytes().all(|b| b.is_ascii_digit())
        && path.split('/').all(word)
}

/// Words a collected value may equal without being masked everywhere:
/// settings, and words every report uses.
const COMMON_WORDS: &[&str] = &[
    "true", "false", "yes", "no", "none", "null", "nil", "on", "off", "default", "disabled",
    "enabled", "required", "optional", "empty", "unset", "password", "secret", "token", "example",
    "changeme", "test", "dummy",
];

/// The shortest collected value that is masked wherever it appears.
const GLOBAL_MIN: usize = 6;

/// Whether a collected value could be a credential, and so is masked
/// wherever it appears, even inside the wording of a sentence: long enough,
/// not a number, not a setting or common word. Shorter values (`0`, `abc`)
/// are masked only where they stand ([`Secrets::scrub_value`]).
fn masked_everywhere(v: &str) -> bool {
    let t = v.trim();
    t.chars().count() >= GLOBAL_MIN
        && !t
            .bytes()
            .all(|b| b.is_ascii_digit() || matches!(b, b'.' | b'-' | b'+' | b'_' | b','))
        && !COMMON_WORDS.iter().any(|w| t.eq_ignore_ascii_case(w))
}

/// The secret values of one document, collected once and scrubbed from
/// every output string.
///
/// Values that could be credentials (`masked_everywhere`) are matched
/// anywhere in a text in one pass whatever their number and however they
/// nest or overlap (one automaton over all of them). Every occurrence of every such value is
/// masked, overlapping ones included, so no part of a secret survives next
/// to another. Shorter values are masked where they stand: a whole value,
/// a backticked segment, or the value of a `NAME=value` pair.
///
/// A value shaped like a credential ([`looks_like_secret`]) is matched
/// whatever its ASCII case, since a rule may show a value with its case
/// changed (a capability in capitals, a host in small letters). A value
/// that is secret only by the name it sits under (a password such as
/// `wordpress`) is matched as written: in other cases it is most often
/// ordinary text (`WORDPRESS_DB_HOST`), and it has no shape to tell the two
/// apart.
#[derive(Clone, Default)]
pub struct Secrets {
    /// Values matched as written.
    exact: HashSet<Vec<u8>>,
    /// Values matched whatever their case, in small letters.
    folded: HashSet<Vec<u8>>,
    /// Values masked only where they stand, trimmed.
    local: HashSet<String>,
    /// `exact` and `folded` as automata, built once all values are in
    /// (`None` when both are empty).
    everywhere: Option<std::sync::Arc<Everywhere>>,
    /// `local` as an automaton, for [`Secrets::mask_source`].
    standing: Option<std::sync::Arc<Matcher>>,
}

/// The values, never the automata built from them.
impl PartialEq for Secrets {
    fn eq(&self, other: &Secrets) -> bool {
        self.exact == other.exact && self.folded == other.folded && self.local == other.local
    }
}

impl Eq for Secrets {}

/// How many values are held, never the values: a report printed with
/// `{:?}` must not echo what the audit masks everywhere else.
impl std::fmt::Debug for Secrets {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Secrets")
            .field("values", &(self.exact.len() + self.folded.len()))
            .field("local", &self.local.len())
            .finish_non_exhaustive()
    }
}

/// The values masked everywhere: those matched as written and those
/// matched whatever their ASCII case.
struct Everywhere {
    exact: Option<Matcher>,
    folded: Option<Matcher>,
}

/// An Aho-Corasick automaton over a set of values, with the longest value
/// that ends in each of its match states. One pass over a text then finds,
/// at each byte, the longest value ending there, which is all a union of
/// masked ranges needs: a text is read once whatever the number of values,
/// their lengths, and how they nest inside or overlap one another (a
/// search for each value, or a look at each length at each byte, costs
/// their number or their lengths again for every byte).
struct Matcher {
    nfa: aho_corasick::nfa::noncontiguous::NFA,
    /// Match state → the longest value it ends, filled in for every match
    /// state when the automaton is built.
    longest: std::collections::HashMap<aho_corasick::automaton::StateID, usize>,
}

impl Matcher {
    /// `None` when the automaton cannot be built, which only a set of
    /// values far larger than any input the audit accepts could cause.
    fn new<'v>(values: impl Iterator<Item = &'v [u8]> + Clone) -> Option<Matcher> {
        use aho_corasick::automaton::Automaton;
        use aho_corasick::Anchored;
        let nfa = aho_corasick::nfa::noncontiguous::NFA::builder()
            .match_kind(aho_corasick::MatchKind::Standard)
            .build(values.clone())
            .ok()?;
        let start = nfa.start_state(Anchored::No).ok()?;
        let mut longest = std::collections::HashMap::new();
        // Every state is a prefix of some value, so walking every value
        // from the start visits every match state.
        for v in values {
            let mut sid = start;
            for &b in v {
                sid = nfa.next_state(Anchored::No, sid, b);
                if nfa.is_match(sid) && !longest.contains_key(&sid) {
                    longest.insert(sid, Self::longest_at(&nfa, sid));
                }
            }
        }
        Some(Matcher { nfa, longest })
    }

    fn longest_at(
        nfa: &aho_corasick::nfa::noncontiguous::NFA,
        sid: aho_corasick::automaton::StateID,
    ) -> usize {
        use aho_corasick::automaton::Automaton;
        (0..nfa.match_len(sid))
            .map(|i| nfa.pattern_len(nfa.match_pattern(sid, i)))
            .max()
            .unwrap_or(0)
    }

    /// For each byte of `hay` that ends some value, the start of the
    /// longest one: `found(start, end)`, in order of `end`.
    fn ends(&self, hay: &[u8], mut found: impl FnMut(usize, usize)) {
        use aho_corasick::automaton::Automaton;
        use aho_corasick::Anchored;
        let Ok(mut sid) = self.nfa.start_state(Anchored::No) else {
            // Unreachable for an unanchored automaton; masking all of the
            // text is the closed way to fail.
            found(0, hay.len());
            return;
        };
        for (i, &b) in hay.iter().enumerate() {
            sid = self.nfa.next_state(Anchored::No, sid, b);
            if self.nfa.is_match(sid) {
                let len = self
                    .longest
                    .get(&sid)
                    .copied()
                    .unwrap_or_else(|| Self::longest_at(&self.nfa, sid));
                found(i + 1 - len.min(i + 1), i + 1);
            }
        }
    }

    /// Every occurrence of every value in `hay`, overlapping ones too.
    fn all(&self, hay: &[u8], mut found: impl FnMut(usize, usize)) {
        use aho_corasick::automaton::Automaton;
        use aho_corasick::Anchored;
        let Ok(mut sid) = self.nfa.start_state(Anchored::No) else {
            found(0, hay.len());
            return;
        };
        for (i, &b) in hay.iter().enumerate() {
            sid = self.nfa.next_state(Anchored::No, sid, b);
            if self.nfa.is_match(sid) {
                for k in 0..self.nfa.match_len(sid) {
                    let len = self.nfa.pattern_len(self.nfa.match_pattern(sid, k));
                    found(i + 1 - len.min(i + 1), i + 1);
                }
            }
        }
    }
}

impl Secrets {
    /// Collect secrets from a parsed profile: every string value that looks
    /// like a credential, every string under a secret-sounding key, every
    /// credential inside a longer string, and every command argument that
    /// [`secret_words`] calls a secret.
    pub fn collect(root: &Node) -> Secrets {
        let mut values = Vec::new();
        walk(root, None, Within::Anywhere, false, &mut values, &mut None);
        Secrets::of_values(values)
    }

    /// Add the secrets under `root` to `values` (the secrets of several
    /// profiles go together, e.g. every profile imported from one file,
    /// so the file's text is masked once for all of them); whether it held
    /// any of its own: whether [`Secrets::collect`] of it alone would not
    /// be empty, so [`mask_json_document`] of its text would change it.
    /// `memo`, when the trees come from one file, remembers what its
    /// strings hold across them.
    pub fn collect_into<T: Tree>(
        root: &T,
        values: &mut Vec<String>,
        mut memo: Option<&mut Memo>,
    ) -> bool {
        let from = values.len();
        walk(root, None, Within::Anywhere, false, values, &mut memo);
        values
            .get(from..)
            .is_some_and(|v| v.iter().any(|v| !v.trim().is_empty()))
    }

    /// Secrets from values found elsewhere.
    pub fn of_values(values: Vec<String>) -> Secrets {
        let mut out = Secrets::default();
        for v in values {
            let fold = looks_like_secret(&v);
            out.add(v, fold);
        }
        out.build();
        out
    }

    /// Hold `v`: where it stands when it is short, else everywhere, and
    /// whatever its case when `fold`.
    fn add(&mut self, v: String, fold: bool) {
        if !masked_everywhere(&v) {
            let t = v.trim();
            if !t.is_empty() {
                self.local.insert(t.to_string());
            }
            return;
        }
        if fold {
            self.folded.insert(v.into_bytes().to_ascii_lowercase());
        } else {
            self.exact.insert(v.into_bytes());
        }
    }

    /// The automata of the values held.
    fn build(&mut self) {
        let set = |s: &HashSet<Vec<u8>>| {
            (!s.is_empty())
                .then(|| Matcher::new(s.iter().map(Vec::as_slice)))
                .flatten()
        };
        let (exact, folded) = (set(&self.exact), set(&self.folded));
        self.everywhere = (exact.is_some() || folded.is_some())
            .then(|| std::sync::Arc::new(Everywhere { exact, folded }));
        self.standing = (!self.local.is_empty())
            .then(|| Matcher::new(self.local.iter().map(String::as_bytes)))
            .flatten()
            .map(std::sync::Arc::new);
    }

    /// The secrets of `self` and `other` together.
    pub fn union(&self, other: &Secrets) -> Secrets {
        let mut out = self.clone();
        out.exact.extend(other.exact.iter().cloned());
        out.folded.extend(other.folded.iter().cloned());
        out.local.extend(other.local.iter().cloned());
        out.build();
        out
    }

    pub fn is_empty(&self) -> bool {
        self.exact.is_empty() && self.folded.is_empty() && self.local.is_empty()
    }

    /// Whether `s` is one of the collected secret values.
    pub fn contains(&self, s: &str) -> bool {
        self.local.contains(s.trim())
            || self.exact.contains(s.as_bytes())
            || self.folded.contains(&s.as_bytes().to_ascii_lowercase())
    }

    /// The byte ranges of `text` covered by some value masked everywhere,
    /// merged and in order. Ranges start and end on character boundaries:
    /// a value is valid UTF-8, so it can only match where a character
    /// starts, and a change of ASCII case keeps every byte where it was.
    fn covered(&self, text: &str) -> Vec<(usize, usize)> {
        let mut out: Vec<(usize, usize)> = Vec::new();
        let Some(every) = &self.everywhere else {
            return out;
        };
        if text.len() < GLOBAL_MIN {
            return out;
        }
        let bytes = text.as_bytes();
        // The longest value ending at each byte, of either set, in order of
        // their ends; each merged with the ranges before it that it reaches.
        let mut ranges: Vec<(usize, usize)> = Vec::new();
        if let Some(m) = &every.exact {
            m.ends(bytes, |a, b| ranges.push((a, b)));
        }
        if let Some(m) = &every.folded {
            // The folded values are in small letters: so is the text they
            // are looked for in (the automaton's own case folding costs
            // more to build than a copy of the text costs to make).
            let lower: Cow<'_, [u8]> = if bytes.iter().any(u8::is_ascii_uppercase) {
                Cow::Owned(bytes.to_ascii_lowercase())
            } else {
                Cow::Borrowed(bytes)
            };
            m.ends(&lower, |a, b| ranges.push((a, b)));
        }
        if every.exact.is_some() && every.folded.is_some() {
            crate::sort::sort_by_key(&mut ranges, |r| r.1);
        }
        for (mut a, b) in ranges {
            while let Some(&(la, lb)) = out.last() {
                if a > lb {
                    break;
                }
                a = a.min(la);
                out.pop();
            }
            out.push((a, b));
        }
        out
    }

    /// The SHA-256 of a value of the document (`None`: nothing there), as
    /// a baseline records what a finding accepted. Every string, key and
    /// number is masked first ([`Secrets::scrub_value`]), so the digest
    /// of a short password cannot be matched against guesses; a change
    /// to anything else changes it. Objects are read whatever the order
    /// of their members, and nothing of the text's layout counts.
    pub fn value_digest(&self, value: Option<&Node>) -> String {
        use sha2::Digest;
        let mut h = sha2::Sha256::new();
        h.update(b"isolint.value/v1\0");
        match value {
            None => h.update(b"-"),
            Some(n) => self.digest_into(n, &mut h),
        }
        let mut hex = String::with_capacity(64);
        crate::digest::push_hex(&mut hex, &h.finalize(), 64);
        hex
    }

    /// One value, each piece tagged and its length given, so no two
    /// values write the same bytes.
    fn digest_into(&self, n: &Node, h: &mut sha2::Sha256) {
        use sha2::Digest;
        let text = |h: &mut sha2::Sha256, tag: &[u8], s: &str| {
            let shown = self.scrub_value(s);
            h.update(tag);
            h.update((shown.len() as u64).to_le_bytes());
            h.update(shown.as_bytes());
        };
        match &n.value {
            Value::Null => h.update(b"n"),
            Value::Bool(b) => h.update(if *b { b"t" } else { b"f" }),
            Value::Number(num) => text(h, b"#", num.as_str()),
            Value::String(s) => text(h, b"s", s),
            Value::Array(items) => {
                h.update(b"[");
                h.update((items.len() as u64).to_le_bytes());
                for i in items {
                    self.digest_into(i, h);
                }
            }
            Value::Object(members) => {
                h.update(b"{");
                h.update((members.len() as u64).to_le_bytes());
                let mut sorted: Vec<&crate::json::Member> = members.iter().collect();
                crate::sort::sort_by(&mut sorted, |a, b| a.key.cmp(&b.key));
                for m in sorted {
                    text(h, b"k", &m.key);
                    self.digest_into(&m.value, h);
                }
            }
        }
    }

    /// `s` with every value masked everywhere replaced by [`MASK`].
    fn mask_everywhere<'a>(&self, s: &'a str) -> Cow<'a, str> {
        let covered = self.covered(s);
        if covered.is_empty() {
            return Cow::Borrowed(s);
        }
        let mut out = String::with_capacity(s.len());
        let mut at = 0;
        for (a, b) in covered {
            out.push_str(s.get(at..a).unwrap_or_default());
            out.push_str(MASK);
            at = b;
        }
        out.push_str(s.get(at..).unwrap_or_default());
        Cow::Owned(out)
    }

    /// Whether `s` stands for a short collected value: the value itself,
    /// or a `NAME=value` / `NAME: value` pair ending in it.
    fn stands_local(&self, s: &str) -> Option<usize> {
        if self.local.is_empty() {
            return None;
        }
        let t = s.trim();
        if self.local.contains(t) {
            return Some(0);
        }
        let at = s.rfind(['=', ':'])? + 1;
        let v = s.get(at..)?.trim().trim_matches(|c| c == '"' || c == '\'');
        self.local.contains(v).then_some(at)
    }

    /// Mask an untrusted value (an evidence value, a mount path, a runtime
    /// check's target, a backticked segment of a message): collected
    /// secrets, short ones where the value is one, and anything else shaped
    /// like a credential.
    pub fn scrub_value<'a>(&self, s: &'a str) -> Cow<'a, str> {
        if let Some(at) = self.stands_local(s) {
            return Cow::Owned(format!("{}{MASK}", s.get(..at).unwrap_or_default()));
        }
        match self.mask_everywhere(s) {
            Cow::Borrowed(b) => scrub_tokens_quick(b),
            Cow::Owned(o) => Cow::Owned(scrub_tokens_quick(&o).into_owned()),
        }
    }

    /// Mask a message made of a rule's wording and backticked values. The
    /// wording is trusted: only the values masked everywhere are looked for
    /// in it (a fail-safe for a value quoted without backticks). Every
    /// backticked segment is an untrusted value ([`Secrets::scrub_value`]).
    /// An odd number of backticks leaves no way to tell wording from
    /// values: the whole text is then scrubbed as a value (fail closed).
    pub fn scrub_message<'a>(&self, s: &'a str) -> Cow<'a, str> {
        if !s.contains('`') {
            return self.mask_everywhere(s);
        }
        if s.bytes().filter(|&b| b == b'`').count() % 2 == 1 {
            return self.scrub_value(s);
        }
        let mut out = String::with_capacity(s.len());
        let mut changed = false;
        for (i, part) in s.split('`').enumerate() {
            if i > 0 {
                out.push('`');
            }
            let shown = if i % 2 == 0 {
                self.mask_everywhere(part)
            } else {
                self.scrub_value(part)
            };
            changed |= matches!(shown, Cow::Owned(_));
            out.push_str(&shown);
        }
        if changed {
            Cow::Owned(out)
        } else {
            Cow::Borrowed(s)
        }
    }

    /// [`Secrets::scrub_value`], owned.
    pub fn scrub(&self, s: &str) -> String {
        self.scrub_value(s).into_owned()
    }

    /// Mask secrets in source text character by character, so lines and
    /// columns stay where they were: every value masked everywhere, and
    /// every short value where it stands as a whole word (between bytes
    /// that are not letters, digits or `_`). A quoted literal written with
    /// escapes (`"hunt\u0065r2"`, YAML's `\x41`) is read as its value:
    /// when that holds a secret the whole literal is masked, since the
    /// escaped text spells the secret as well as the plain one.
    pub fn mask_source(&self, text: &str) -> String {
        let mut ranges = self.covered(text);
        if !self.local.is_empty() {
            ranges.extend(self.local_words(text));
        }
        if !self.is_empty() {
            ranges.extend(self.escaped_literals(text));
        }
        crate::sort::sort(&mut ranges);
        let mut out = String::with_capacity(text.len());
        let mut at = 0;
        for (a, b) in ranges {
            if b <= at {
                continue;
            }
            let a = a.max(at);
            out.push_str(text.get(at..a).unwrap_or_default());
            let run = text.get(a..b).unwrap_or_default();
            out.extend(run.chars().map(|c| if c == '\n' { c } else { '*' }));
            at = b;
        }
        out.push_str(text.get(at..).unwrap_or_default());
        out
    }

    /// The insides of the quoted literals of `text` that hold an escape
    /// and whose value holds a secret ([`Secrets::scrub_value`]).
    fn escaped_literals(&self, text: &str) -> Vec<(usize, usize)> {
        let bytes = text.as_bytes();
        let mut out = Vec::new();
        let mut i = 0;
        while let Some(&q) = bytes.get(i) {
            i += 1;
            if q != b'"' && q != b'\'' {
                continue;
            }
            // A literal ends at its closing quote, on the same line.
            let start = i;
            let mut escaped = false;
            let mut end = None;
            while let Some(&c) = bytes.get(i) {
                if c == b'\n' {
                    break;
                }
                i += 1;
                if c == b'\\' && q == b'"' {
                    escaped = true;
                    i += 1;
                } else if c == q {
                    end = Some(i - 1);
                    break;
                }
            }
            let Some(end) = end else { continue };
            if !escaped {
                continue;
            }
            let raw = text.get(start..end).unwrap_or_default();
            let value = unescape(raw);
            if value != raw && matches!(self.scrub_value(&value), Cow::Owned(_)) {
                out.push((start, end));
            }
        }
        out
    }

    /// Where short values stand as whole words in `text`: every
    /// occurrence of each, in one pass ([`Matcher`]).
    fn local_words(&self, text: &str) -> Vec<(usize, usize)> {
        let word = |c: char| c.is_alphanumeric() || c == '_';
        let mut out = Vec::new();
        let Some(m) = &self.standing else {
            return out;
        };
        m.all(text.as_bytes(), |a, b| {
            let Some(v) = text.get(a..b) else {
                return;
            };
            let before = text.get(..a).and_then(|t| t.chars().next_back());
            let after = text.get(b..).and_then(|t| t.chars().next());
            let starts_word = v.chars().next().is_some_and(word);
            let ends_word = v.chars().next_back().is_some_and(word);
            let inside_a_word =
                (starts_word && before.is_some_and(word)) || (ends_word && after.is_some_and(word));
            if !inside_a_word {
                out.push((a, b));
            }
        });
        out
    }
}

/// Where a value stands, for [`walk`]: anywhere, inside an object that
/// holds secrets (`credentials`, `secrets`: its `value` or `content` is
/// one), or inside such a value (every string of a Kubernetes Secret's
/// `data`).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Within {
    Anywhere,
    Holder,
    Secret,
}

/// Keys whose objects hold secrets in their [`HELD`] members: a profile's
/// `credentials`, a Compose file's `secrets` (`content: …`).
const HOLDERS: &[&str] = &["credentials", "credential", "secrets", "secret"];

/// The members of a [`HOLDERS`] object that hold the secret itself.
const HELD: &[&str] = &[
    "value",
    "content",
    "data",
    "stringdata",
    "string_data",
    "text",
    "plaintext",
];

/// The value of a double-quoted literal's inside written with the escapes
/// JSON, YAML and TOML share (`\n`, `\t`, `\"`, `\\`, `\/`, `\xXX`,
/// `\uXXXX` with surrogate pairs, `\UXXXXXXXX`); an escape it cannot read is
/// kept as written.
fn unescape(raw: &str) -> String {
    let mut out = String::with_capacity(raw.len());
    let mut chars = raw.chars().peekable();
    let mut high: Option<u32> = None;
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        let Some(e) = chars.next() else {
            out.push(c);
            break;
        };
        let digits = match e {
            'x' => 2,
            'u' => 4,
            'U' => 8,
            _ => 0,
        };
        if digits == 0 {
            out.push(match e {
                'n' => '\n',
                't' => '\t',
                'r' => '\r',
                '0' => '\0',
                'b' => '\u{8}',
                'f' => '\u{c}',
                'e' => '\u{1b}',
                other => other,
            });
            continue;
        }
        let hex: String = (0..digits)
            .filter_map(|_| chars.next_if(char::is_ascii_hexdigit))
            .collect();
        let Some(n) = u32::from_str_radix(&hex, 16)
            .ok()
            .filter(|_| hex.len() == digits)
        else {
            out.push(c);
            out.push(e);
            out.push_str(&hex);
            continue;
        };
        match (high.take(), n) {
            (None, 0xD800..=0xDBFF) => high = Some(n),
            (Some(h), 0xDC00..=0xDFFF) => {
                let joined = 0x10000 + ((h - 0xD800) << 10) + (n - 0xDC00);
                out.extend(char::from_u32(joined));
            }
            (_, n) => out.extend(char::from_u32(n)),
        }
    }
    out
}

/// Collect the secrets under `n`, whose key (or the key of the array that
/// holds it) is `key`: a value is a secret by its name as the credential
/// rules judge it ([`secret_by_name`]), by its shape, or by where it stands
/// (`Within`). A key shaped like a credential is one too.
/// `strong_key` says whether `key` is a strong secret name (the caller
/// knows it once for every item of an array).
/// What the secret walk reads of a tree: a parsed JSON document, or a
/// profile an importer has built and not yet written (so an import does not
/// parse what it has just written to find its secrets).
pub trait Tree: Sized {
    /// An object's members, in order; cheap to clone (a slice iterator).
    type Members<'a>: Iterator<Item = (&'a str, &'a Self)> + Clone
    where
        Self: 'a;
    fn view(&self) -> View<'_, Self>;
    fn as_str(&self) -> Option<&str> {
        match self.view() {
            View::Str(s) => Some(s),
            _ => None,
        }
    }
    fn is_container(&self) -> bool {
        matches!(self.view(), View::Array(_) | View::Object(_))
    }
}

/// One value of a [`Tree`], as the walk reads it.
pub enum View<'a, T: Tree + 'a> {
    Str(&'a str),
    /// A number as written.
    Number(Cow<'a, str>),
    Array(&'a [T]),
    Object(T::Members<'a>),
    /// `true`, `false`, `null`: never a secret.
    Other,
}

type NodeMembers<'a> = std::iter::Map<
    std::slice::Iter<'a, crate::json::Member>,
    fn(&crate::json::Member) -> (&str, &Node),
>;

impl Tree for Node {
    type Members<'a> = NodeMembers<'a>;
    fn view(&self) -> View<'_, Node> {
        match &self.value {
            Value::String(s) => View::Str(s),
            Value::Number(n) => View::Number(Cow::Borrowed(n.as_str())),
            Value::Array(items) => View::Array(items),
            Value::Object(members) => {
                let pair: fn(&crate::json::Member) -> (&str, &Node) =
                    |m| (m.key.as_str(), &m.value);
                View::Object(members.iter().map(pair))
            }
            Value::Null | Value::Bool(_) => View::Other,
        }
    }
}

fn walk<T: Tree>(
    n: &T,
    key: Option<&str>,
    within: Within,
    strong_key: bool,
    out: &mut Vec<String>,
    memo: &mut Option<&mut Memo>,
) {
    let by_name = |v: &str| {
        key.is_some_and(|k| secret_by_name(k, v))
            || (within == Within::Secret && secret_by_name("secret", v))
    };
    match n.view() {
        View::Str(s) => {
            let shaped = match memo.as_deref_mut() {
                Some(m) => m.findings(s, out),
                None => string_findings(s, out),
            };
            if shaped || by_name(s) {
                push_secret(s, out);
            }
        }
        View::Number(num) => {
            if by_name(&num) {
                out.push(num.into_owned());
            }
        }
        View::Array(items) => {
            items
                .iter()
                .for_each(|i| walk(i, key, within, strong_key, out, memo));
            let words: Vec<&str> = items.iter().filter_map(T::as_str).collect();
            if words.len() >= 2 {
                collect_words(&words, out);
            }
        }
        View::Object(members) => {
            // `{name: DB_PASSWORD, value: X}` (a Kubernetes or ECS env
            // entry): the value is judged by the name it is given.
            // One look at the members that change how the others read.
            let (mut named, mut value, mut kind_secret) = (None, None, false);
            for (k, v) in members.clone() {
                match (k, v.as_str()) {
                    ("name", Some(n)) => named = Some(n),
                    ("value", Some(v)) => value = Some(v),
                    // A Kubernetes Secret: everything under `data` and
                    // `stringData`.
                    ("kind", Some(k)) => kind_secret = k == "Secret",
                    _ => {}
                }
            }
            if let (Some(n), Some(v)) = (named, value) {
                if secret_by_name(n, v) {
                    push_secret(v, out);
                }
            }
            let is = |k: &str, set: &[&str]| set.iter().any(|w| k.eq_ignore_ascii_case(w));
            for (mk, mv) in members.clone() {
                // A key shaped like a credential (a token written as a
                // variable's name).
                if mk.len() >= MIN_SECRET && looks_like_secret(mk) {
                    push_secret(mk, out);
                }
                let inner = match within {
                    Within::Secret => Within::Secret,
                    _ if kind_secret && is(mk, &["data", "stringData"]) => Within::Secret,
                    Within::Holder if is(mk, HELD) => Within::Secret,
                    _ if is(mk, HOLDERS) => Within::Holder,
                    w => w,
                };
                // Under a secret name, a member that names nothing of its
                // own holds the secret (`DB_PASSWORD: {x: …}`), but not
                // one that is about it (`token: {path: …, audience: …}`).
                let own = match key {
                    Some(k) if strong_key && !is_secret_name(mk) => {
                        let about = word_slices(mk).last().is_some_and(|w| {
                            ABOUT_A_SECRET.iter().any(|a| w.eq_ignore_ascii_case(a))
                        });
                        if about {
                            mk
                        } else {
                            k
                        }
                    }
                    _ => mk,
                };
                // Whether the name a container is held by is a secret's,
                // found once for all it holds.
                let container = mv.is_container();
                let strong = container && is_strong_secret_name(own);
                walk(mv, Some(own), inner, strong, out, memo);
            }
            // A command: its executable and its arguments are one line.
            let member = |k: &str| {
                members
                    .clone()
                    .find(|(mk, _)| *mk == k)
                    .map(|(_, v)| v.view())
            };
            if let (Some(View::Str(x)), Some(View::Array(args))) =
                (member("executable"), member("arguments"))
            {
                let mut words = vec![x];
                words.extend(args.iter().filter_map(T::as_str));
                collect_words(&words, out);
            }
        }
        View::Other => {}
    }
}

/// What a string holds whatever key it stands under: the values in it
/// that are secrets, added to `out`; and whether the whole string is
/// shaped like one.
fn string_findings(s: &str, out: &mut Vec<String>) -> bool {
    let schemeless = schemeless_user_password(s);
    let shaped = looks_like_secret(s) || schemeless.is_some();
    // A URL's password on its own, for outputs that quote the host part
    // of the URL without its scheme.
    out.extend(url_passwords(s).map(str::to_string));
    out.extend(schemeless.map(str::to_string));
    // A secret embedded in a longer string (a shell line, a path).
    for (a, b) in secret_spans(s) {
        if let Some(tok) = s.get(a..b) {
            if tok != s {
                push_secret(tok, out);
            }
        }
    }
    if s.bytes().any(|b| b.is_ascii_whitespace()) || !s.is_ascii() {
        // A shell line: its words, as the command rules read them.
        let words: Vec<&str> = s.split_whitespace().collect();
        collect_words(&words, out);
    }
    shaped
}

/// `string_findings` remembered for the strings of many trees walked one
/// after another: the profiles imported from one file repeat the same
/// image, paths and words. It keeps the first `Memo::KEPT` distinct
/// strings, which is where a file's repeated values first appear, so its
/// memory stays small whatever the file holds.
#[derive(Default)]
pub struct Memo {
    found: std::collections::HashMap<String, (bool, Box<[String]>)>,
}

impl Memo {
    const KEPT: usize = 4096;

    fn findings(&mut self, s: &str, out: &mut Vec<String>) -> bool {
        if let Some((shaped, found)) = self.found.get(s) {
            out.extend(found.iter().cloned());
            return *shaped;
        }
        let from = out.len();
        let shaped = string_findings(s, out);
        if self.found.len() < Memo::KEPT {
            let found = out.get(from..).unwrap_or_default().into();
            self.found.insert(s.to_string(), (shaped, found));
        }
        shaped
    }
}

/// A collected secret, and the forms in which a source may show it: each
/// of its words when it has several (a PEM block's lines, a YAML folded
/// scalar's lines, `Basic X`), and its JSON-escaped text (a PEM block's
/// `\n`, a quote's `\"`), so the masked source hides it as written.
fn push_secret(s: &str, out: &mut Vec<String>) {
    let mut needs_escape = false;
    let mut spaced = false;
    for b in s.bytes() {
        needs_escape |= b < 0x20 || b == b'"' || b == b'\\';
        spaced |= b.is_ascii_whitespace();
    }
    if spaced || s.contains(char::is_whitespace) {
        out.extend(
            s.split_whitespace()
                .filter(|w| w.len() >= MIN_SECRET && !w.bytes().all(|b| b.is_ascii_lowercase()))
                .map(str::to_string),
        );
    }
    if needs_escape {
        let escaped = serde_json::Value::String(s.to_string()).to_string();
        if let Some(inner) = escaped.get(1..escaped.len() - 1) {
            out.push(inner.to_string());
        }
    }
    out.push(s.to_string());
}

/// The password of `user:password@host` written without a scheme (an
/// allow entry, a Compose `extra_hosts` entry), which the network rules
/// read as a URL. An image reference pinned by digest
/// (`python:3.12@sha256:…`) is not one.
fn schemeless_user_password(s: &str) -> Option<&str> {
    let at = s.bytes().position(|b| b == b'@')?;
    if s.contains("://") || s.contains(char::is_whitespace) {
        return None;
    }
    let (user, host) = (s.get(..at)?, s.get(at + 1..)?);
    let (name, pw) = user.split_once(':')?;
    let digest = host.split_once(':').is_some_and(|(alg, hex)| {
        alg.starts_with("sha") && hex.bytes().all(|b| b.is_ascii_hexdigit())
    });
    let plain = |p: &str| !p.is_empty() && !p.contains(['/', '?', '#']);
    (plain(name)
        && plain(pw)
        && plain(host.split(['/', ':']).next().unwrap_or(""))
        && !digest
        && !is_reference(pw))
    .then_some(pw)
}

/// The secret parts of the words of one command line.
fn collect_words(words: &[&str], out: &mut Vec<String>) {
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
const P_IS_NOT_A_SECRET: &[&str] = &[
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
fn masked_words(words: &[&str]) -> Vec<(usize, &'static str)> {
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
                    !pw.is_empty() && !is_reference(pw) && !pw.bytes().all(|b| b.is_ascii_digit())
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
            if next.is_some_and(|n| !n.is_empty() && !n.starts_with('-') && !is_reference(n)) {
                out.push((i + 1, "value"));
            }
        } else if let Some(rest) = bare.strip_prefix("-p").or_else(|| bare.strip_prefix("-P")) {
            // Not a bundle of one-letter flags (`-pv`).
            let flags = rest.len() <= 3 && rest.bytes().all(|b| b.is_ascii_lowercase());
            if !rest.is_empty() && !rest.starts_with('-') && !flags && !is_reference(rest) {
                out.push((i, "option-value"));
            }
        }
    }
    out
}

/// `${VAR}` or `$VAR` references name a secret without holding it.
pub fn is_reference(s: &str) -> bool {
    let s = s.trim();
    let inner = s
        .strip_prefix("${")
        .and_then(|r| r.strip_suffix('}'))
        .or_else(|| s.strip_prefix('$'));
    inner.is_some_and(|i| !i.is_empty() && i.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'))
}

const SEPARATORS: &str = "\"'`=;,&|()<>[]{}";

/// Byte classes for the token scan: bit 0 ends a token (ASCII whitespace or
/// a separator), bit 1 splits a token into pieces (`/`, `:`, `@`).
const BREAK: u8 = 1;
const PIECE: u8 = 2;
// Evaluated at compile time: an index out of range fails the build.
#[allow(clippy::indexing_slicing)]
const CLASS: [u8; 128] = {
    let mut t = [0u8; 128];
    let ws = b"\t\n\x0b\x0c\r ";
    let mut i = 0;
    while i < ws.len() {
        t[ws[i] as usize] = BREAK;
        i += 1;
    }
    let sep = SEPARATORS.as_bytes();
    let mut i = 0;
    while i < sep.len() {
        t[sep[i] as usize] = BREAK;
        i += 1;
    }
    t[b'/' as usize] = PIECE;
    t[b':' as usize] = PIECE;
    t[b'@' as usize] = PIECE;
    t
};

/// The [`CLASS`] of an ASCII byte; other bytes have none.
fn class(b: u8) -> u8 {
    CLASS.get(usize::from(b)).copied().unwrap_or(0)
}

/// The shortest text [`looks_like_secret`] can accept.
const MIN_SECRET: usize = 8;

/// Byte ranges of credential-looking tokens in `s`: whole tokens between
/// separators, or, inside a token that is not a secret as a whole (a path,
/// a URL), its `/`, `:` and `@`-separated pieces; and the value that
/// follows a secret-named flag or key (`--password=hunter2`, `TOKEN: abc`,
/// `export TOKEN abc`), but never the next word of a sentence: a key joined
/// by spaces alone must be a flag or an upper-case variable name.
///
/// One pass over the bytes, which also gathers each token's byte kinds, so
/// most tokens are ruled out without looking at them again.
fn secret_spans(s: &str) -> Vec<(usize, usize)> {
    secret_spans_with(s, true)
}

/// [`secret_spans`]; `glued` also looks inside tokens for a vendor token
/// glued to other text ([`check_token`]), a scan of every byte that
/// [`Secrets::scrub_value`] leaves out: the values it masks come from a
/// document whose glued tokens the collector already found.
fn secret_spans_with(s: &str, glued: bool) -> Vec<(usize, usize)> {
    let mut spans = Vec::new();
    if s.len() < MIN_SECRET {
        // No token that short is a secret, and a key (three bytes at
        // least), a joint and a value (four at least) do not fit either.
        return spans;
    }
    let bytes = s.as_bytes();
    // The previous token, when it could be a key (three bytes at least).
    let mut key: Option<(usize, usize)> = None;
    // The current token starts at `a`; `kinds` and `pieces` describe it.
    let mut a = 0;
    let mut kinds = 0u16;
    let mut pieces = false;
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes.get(i).copied().unwrap_or(0);
        let (brk, len) = if c < 0x80 {
            (class(c) & BREAK != 0, 1)
        } else {
            let ch = s.get(i..).and_then(|r| r.chars().next());
            (
                ch.is_some_and(char::is_whitespace),
                ch.map_or(1, char::len_utf8),
            )
        };
        if brk {
            if i > a {
                end_token(
                    s,
                    Token {
                        a,
                        b: i,
                        kinds,
                        pieces,
                        glued,
                    },
                    &mut key,
                    &mut spans,
                );
            }
            a = i + len;
            kinds = 0;
            pieces = false;
        } else {
            kinds |= kind(c);
            pieces |= c < 0x80 && class(c) & PIECE != 0;
        }
        i += len;
    }
    if bytes.len() > a {
        end_token(
            s,
            Token {
                a,
                b: bytes.len(),
                kinds,
                pieces,
                glued,
            },
            &mut key,
            &mut spans,
        );
    }
    crate::sort::sort(&mut spans);
    spans.dedup();
    spans
}

/// A token of the scan: its byte range and the kinds of its bytes.
#[derive(Clone, Copy)]
struct Token {
    a: usize,
    b: usize,
    kinds: u16,
    /// It holds a `/`, `:` or `@`, so it splits into pieces.
    pieces: bool,
    /// Look for a vendor token glued inside it too.
    glued: bool,
}

/// What [`secret_spans`] does at the end of each token: the token itself,
/// and the pair it ends with `key`, the token before it.
fn end_token(s: &str, t: Token, key: &mut Option<(usize, usize)>, spans: &mut Vec<(usize, usize)>) {
    let len = t.b - t.a;
    // A `:` between quotes (`"password":"x"`, JSON inside a value) joins
    // the key before it to the value after it, as `=` does.
    if s.as_bytes()
        .get(t.a..t.b)
        .is_some_and(|b| b.iter().all(|&c| c == b':'))
    {
        return;
    }
    if len >= MIN_SECRET {
        check_token(s, t, spans);
    }
    if let Some(k) = *key {
        if len >= 4 {
            check_pair(s, k, (t.a, t.b), spans);
        }
    }
    *key = (len >= 3).then_some((t.a, t.b));
}

/// A whole token (of [`MIN_SECRET`] bytes at least) that looks like a
/// secret, or else its pieces that do.
fn check_token(s: &str, t: Token, spans: &mut Vec<(usize, usize)>) {
    let Token {
        a,
        b,
        kinds,
        pieces,
        glued,
    } = t;
    let tok = s.get(a..b).unwrap_or("");
    if secret_shaped(tok, kinds) {
        spans.push((a, b));
        return;
    }
    let bytes = tok.as_bytes();
    // A vendor token glued to other text by a dash, dot or underscore
    // (`job-ghp_…`, `x.sk_live_…`): from its prefix to the token's end. The
    // shortest prefix and its eight bytes need a separator and ten more.
    if glued && bytes.len() > MIN_SECRET + 2 && kinds & (K_SYMBOL | K_OTHER) != 0 {
        let found = bytes
            .iter()
            .enumerate()
            .skip(1)
            .filter(|&(j, &f)| {
                j + MIN_SECRET < bytes.len()
                    && PREFIX_FIRST
                        .get(usize::from(f))
                        .is_some_and(|&set| set != 0)
                    && bytes.get(j - 1).is_some_and(|p| !p.is_ascii_alphanumeric())
            })
            .find(|&(j, &f)| vendor_prefixed(bytes.get(j..).unwrap_or_default(), f));
        if let Some((j, _)) = found {
            spans.push((a + j, b));
            return;
        }
    }
    if !pieces {
        return;
    }
    let mut piece_start = 0;
    let mut piece_kinds = 0u16;
    for (i, &c) in bytes.iter().enumerate() {
        if class(c) & PIECE != 0 {
            if i - piece_start >= MIN_SECRET
                && secret_shaped(tok.get(piece_start..i).unwrap_or(""), piece_kinds)
            {
                spans.push((a + piece_start, a + i));
            }
            piece_start = i + 1;
            piece_kinds = 0;
        } else {
            piece_kinds |= kind(c);
        }
    }
    if piece_start > 0
        && bytes.len() - piece_start >= MIN_SECRET
        && secret_shaped(tok.get(piece_start..).unwrap_or(""), piece_kinds)
    {
        spans.push((a + piece_start, b));
    }
}

/// Whether a key token joined to its value by spaces alone can be a key:
/// a flag (`--password hunter2`) or an upper-case variable name
/// (`export TOKEN abc`). Lower-case words are prose ("credentials
/// declared"), never a key and its value.
fn spaced_key(key: &[u8]) -> bool {
    key.first() == Some(&b'-')
        || (key.iter().any(u8::is_ascii_uppercase)
            && key
                .iter()
                .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || *c == b'_'))
}

/// Words that take their value after a space in configuration text
/// (`.netrc`'s `password X`, `token X`), which prose never follows with
/// anything but a lower-case word.
const SPACED_SECRET_WORDS: &[&str] = &[
    "password",
    "passwd",
    "passphrase",
    "secret",
    "token",
    "apikey",
];

/// The schemes of an HTTP `Authorization` header, after which the
/// credential comes (`Bearer X`).
const AUTH_SCHEMES: &[&str] = &[
    "bearer",
    "basic",
    "token",
    "digest",
    "negotiate",
    "bot",
    "apikey",
    "api-key",
    "sso-key",
];

fn auth_scheme(word: &[u8]) -> bool {
    let w = word.strip_suffix(b":").unwrap_or(word);
    AUTH_SCHEMES
        .iter()
        .any(|s| w.eq_ignore_ascii_case(s.as_bytes()))
}

/// Whether a key joined to its value by spaces alone is an identifier
/// (`//registry.npmjs.org/:_authToken X`, `credential.apiToken X`): its
/// last piece is a name of several words, which prose never uses as one.
fn identifier_key(key: &str) -> bool {
    let last = key.rsplit(['/', '?', '&', '.', ':']).next().unwrap_or(key);
    word_slices(last).len() >= 2 && is_strong_secret_name(last)
}

/// The value token after a secret-named key token, when only `=`, `:`,
/// spaces or quotes join them.
fn check_pair(
    s: &str,
    key: (usize, usize),
    value: (usize, usize),
    spans: &mut Vec<(usize, usize)>,
) {
    let ((a0, b0), (a1, b1)) = (key, value);
    let between = s.as_bytes().get(b0..a1).unwrap_or_default();
    let joined = !between.is_empty()
        && between
            .iter()
            .all(|c| matches!(c, b'=' | b':' | b' ' | b'"' | b'\''));
    if !joined {
        return;
    }
    let key = s.as_bytes().get(a0..b0).unwrap_or_default();
    let value = s.as_bytes().get(a1..b1).unwrap_or_default();
    let keyed = key.last() == Some(&b':') || between.iter().any(|c| matches!(c, b'=' | b':'));
    // A word of prose ("without", "declared") is never the value of a key
    // joined by spaces alone.
    let prose = value.iter().all(u8::is_ascii_lowercase);
    if auth_scheme(key) && !keyed {
        // `Authorization: Bearer X`, `token X`, `Basic X`: the credential
        // follows the scheme.
        let v = s.get(a1..b1).unwrap_or("");
        if !prose && secret_by_name("token", v) {
            spans.push((a1, b1));
        }
        return;
    }
    if auth_scheme(value) {
        // The scheme itself is a word, not the secret.
        return;
    }
    let joined_as_key = keyed
        || spaced_key(key)
        || (!prose && identifier_key(s.get(a0..b0).unwrap_or("")))
        || (!prose
            && SPACED_SECRET_WORDS
                .iter()
                .any(|w| key.eq_ignore_ascii_case(w.as_bytes())));
    if !joined_as_key {
        // A path or a word and the next word of a sentence ("open
        // /run/secrets without following links", "credentials declared").
        return;
    }
    if matches!(value.first(), Some(b'-' | b'$' | b'/')) {
        return;
    }
    let dashes = key.iter().take_while(|&&c| c == b'-').count();
    let colons = key.iter().rev().take_while(|&&c| c == b':').count();
    // Both trims stop at ASCII bytes, so the rest is still a `str`.
    let key_like = s
        .get(a0 + dashes..b0.saturating_sub(colons).max(a0 + dashes))
        .unwrap_or("");
    // The last piece of a path-like key names the value (`?token=`,
    // `/run/secrets/db_password: x`).
    let key_like = key_like
        .rsplit(['/', '?', '&', '.'])
        .next()
        .unwrap_or(key_like);
    let value = s.get(a1..b1).unwrap_or("");
    let before = a0.checked_sub(1).and_then(|i| s.as_bytes().get(i)).copied();
    let by_context = keyed
        && CONTEXT_KEYS.iter().any(|(k, after)| {
            key_like.eq_ignore_ascii_case(k) && before.is_some_and(|c| after.contains(&c))
        })
        && !is_reference(value);
    // Only the spans of this token can hold it (the scan pushes in order).
    let held = spans
        .iter()
        .rev()
        .take_while(|&&(x, _)| x >= a1)
        .any(|&(x, y)| x <= a1 && b1 <= y);
    if (by_context || secret_by_name(key_like, value)) && !held {
        spans.push((a1, b1));
    }
}

/// Keys that name a secret only where they stand: after the byte that
/// starts a URL query parameter or a connection string's setting (`?sig=`,
/// `;PWD=`), never as words of their own (`PWD` is also the shell's
/// working directory).
const CONTEXT_KEYS: &[(&str, &[u8])] = &[
    // An Azure shared access signature.
    ("sig", b"?&;"),
    // ODBC and ADO.NET connection strings.
    ("pwd", b";{"),
    // An Azure storage connection string.
    ("accountkey", b";"),
    ("sharedaccesskey", b";"),
];

/// A text that did not parse (a profile or an imported file with a syntax
/// error) with its secrets masked as [`Secrets::mask_source`] masks them,
/// so the lines shown around the error keep their lines and columns. With
/// no tree to read, the text is read as a stream of words that runs over
/// line ends, since a key and its value often stand on two lines
/// (`- name: DB_PASSWORD` / `  value: X`, `"--password",` / `"X"`):
/// credential shapes and `key: value` pairs on one line, each program's
/// secret options ([`secret_words`]), a value after a secret-named key,
/// and the `value` of an entry whose `name` is secret-named.
pub fn mask_unparsed(text: &str) -> String {
    let mut values: Vec<String> = text.lines().flat_map(secret_tokens).collect();
    // Words, each marked when a `:` or `=` follows it (a key).
    let mut words: Vec<(&str, bool)> = Vec::new();
    let pieces = text.split(|c: char| {
        c.is_whitespace() || matches!(c, '"' | '\'' | ',' | '[' | ']' | '{' | '}')
    });
    for piece in pieces.filter(|p| !p.is_empty() && *p != "-") {
        if matches!(piece, ":" | "=") {
            if let Some(last) = words.last_mut() {
                last.1 = true;
            }
            continue;
        }
        match piece.strip_suffix([':', '=']).filter(|k| !k.is_empty()) {
            Some(k) => words.push((k, true)),
            None => words.push((piece, false)),
        }
    }
    let plain: Vec<&str> = words.iter().map(|w| w.0).collect();
    collect_words(&plain, &mut values);
    let mut named_secret = false;
    for (i, &(w, is_key)) in words.iter().enumerate() {
        let next = plain.get(i + 1).copied().unwrap_or("");
        // Which program an option belongs to cannot be told here: every
        // program's secret option counts (masking a port is harmless).
        let option = PROGRAM_OPTIONS
            .iter()
            .find(|(_, o, _, _)| *o == w)
            .is_some_and(|(_, o, t, _)| !next.starts_with('-') && takes_value(*t, o, next));
        if option || (is_key && secret_by_name(w, next)) {
            values.push(next.to_string());
        }
        if !is_key {
            continue;
        }
        if w.eq_ignore_ascii_case("name") {
            named_secret = is_secret_name(next);
        } else if w.eq_ignore_ascii_case("value") {
            if named_secret && secret_by_name("secret", next) {
                values.push(next.to_string());
            }
            named_secret = false;
        }
    }
    Secrets::of_values(values).mask_source(text)
}

/// The credential-looking tokens of free text (see [`scrub_tokens`]).
pub fn secret_tokens(s: &str) -> Vec<String> {
    secret_spans(s)
        .into_iter()
        .filter_map(|(a, b)| s.get(a..b).map(str::to_string))
        .collect()
}

/// Free text made safe for any stream (an error, a note, a line on
/// stderr): credential-looking tokens masked ([`scrub_tokens`]), then
/// dangerous characters neutralized ([`crate::sanitize::neutralize`]).
/// Messages quote the input they are about (a duplicate key, an unknown
/// option), and the input may be a secret.
pub fn safe_text(s: &str) -> Cow<'_, str> {
    match scrub_tokens_cow(s) {
        Cow::Borrowed(b) => crate::sanitize::neutralize(b),
        Cow::Owned(o) => Cow::Owned(crate::sanitize::neutralize(&o).into_owned()),
    }
}

/// Mask credential-looking tokens in free text, for text that did not come
/// from a collected document.
pub fn scrub_tokens(s: &str) -> String {
    scrub_tokens_cow(s).into_owned()
}

/// [`scrub_tokens`] without a copy when nothing needs masking.
pub fn scrub_tokens_cow(s: &str) -> Cow<'_, str> {
    let mut spans = secret_spans(s);
    if s.len() >= 4 && s.contains(char::is_whitespace) {
        let more = word_spans(s);
        if !more.is_empty() {
            spans.extend(more);
            spans = merged(spans);
        }
    }
    scrub_spans(s, spans)
}

/// The spans of free text that its words hold as a command line would
/// ([`secret_words`], [`masked_words`]), and the body of a PEM private
/// key block, whose lines are words of no shape of their own.
fn word_spans(s: &str) -> Vec<(usize, usize)> {
    let words: Vec<&str> = s.split_whitespace().collect();
    let at = |w: &str| w.as_ptr() as usize - s.as_ptr() as usize;
    let mut out: Vec<(usize, usize)> = secret_words(&words)
        .into_iter()
        .chain(masked_words(&words))
        .filter_map(|(i, how)| {
            // Free text glues JSON's and YAML's punctuation to its words
            // (`"x",`): that is not part of the secret.
            let part = secret_part(words.get(i)?, how)
                .trim_matches(|c| matches!(c, '"' | '\'' | ',' | ';' | '{' | '}'));
            (!part.is_empty()).then(|| (at(part), at(part) + part.len()))
        })
        .collect();
    if let Some(begin) = s.find("-----BEGIN") {
        let body = s.get(begin + 10..).unwrap_or_default();
        let open = body.find("-----").map(|i| begin + 10 + i + 5);
        let end = s
            .get(begin..)
            .and_then(|t| t.find("-----END"))
            .map(|i| begin + i);
        if let (Some(a), Some(b)) = (open, end) {
            if a < b && s.get(begin..a).is_some_and(|h| h.contains("PRIVATE KEY")) {
                out.push((a, b));
            }
        }
    }
    out
}

/// `spans` in order, overlapping ones joined.
fn merged(mut spans: Vec<(usize, usize)>) -> Vec<(usize, usize)> {
    crate::sort::sort(&mut spans);
    let mut out: Vec<(usize, usize)> = Vec::with_capacity(spans.len());
    for (a, b) in spans {
        match out.last_mut() {
            Some(last) if a <= last.1 => last.1 = last.1.max(b),
            _ => out.push((a, b)),
        }
    }
    out
}

/// [`scrub_tokens_cow`] without the glued-token scan (see
/// [`secret_spans_with`]), for [`Secrets::scrub_value`].
fn scrub_tokens_quick(s: &str) -> Cow<'_, str> {
    scrub_spans(s, secret_spans_with(s, false))
}

/// `s` with each of `spans` written as [`MASK`].
fn scrub_spans(s: &str, spans: Vec<(usize, usize)>) -> Cow<'_, str> {
    if spans.is_empty() {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len());
    let mut last = 0;
    for (a, b) in spans {
        out.push_str(s.get(last..a).unwrap_or(""));
        out.push_str(MASK);
        last = b;
    }
    out.push_str(s.get(last..).unwrap_or(""));
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::Secrets;

    /// A value shaped like a credential is masked whatever case a rule
    /// shows it in; a value secret only by its name is masked as written,
    /// so the names built from it stay readable.
    #[test]
    fn shaped_values_are_masked_in_any_case_named_ones_as_written() {
        let shaped = [
            "ghp_Zk7abcdefghijklmnopqrstuvwxyz012345",
            "xoxb-123456789012-Zk9slackTokenValue",
            "sk-proj-Zk2abcdefghijklmnopqrstuvwxyz0123",
            "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJaazFqd3QifQ.Zk1jwtSigXyZabc123",
            "AKIAQZ7PLANT0EXAMPL1",
            "wJalrXUtnFEMI7K7MDENGbPxRfiCYzEXAMPLEKEY",
        ];
        for v in shaped {
            let s = Secrets::of_values(vec![v.to_string()]);
            for shown in [
                v.to_string(),
                v.to_ascii_uppercase(),
                v.to_ascii_lowercase(),
                format!("CAP_{}", v.to_ascii_uppercase()),
                format!("reports/{}.html", v.to_ascii_lowercase()),
            ] {
                let out = s.scrub(&shown);
                assert!(
                    !out.to_ascii_lowercase().contains(&v.to_ascii_lowercase()),
                    "{shown} -> {out}"
                );
                assert!(s.contains(v) && s.contains(&v.to_ascii_uppercase()), "{v}");
            }
        }
        let named = Secrets::of_values(vec!["wordpress".to_string()]);
        assert_eq!(named.scrub("WORDPRESS_DB_HOST"), "WORDPRESS_DB_HOST");
        assert_ne!(named.scrub("wordpress:latest"), "wordpress:latest");
        // The union keeps how each value is matched.
        let both = named.union(&Secrets::of_values(vec![shaped[0].to_string()]));
        assert_eq!(both.scrub("WORDPRESS_DB_HOST"), "WORDPRESS_DB_HOST");
        assert!(!both.scrub(&shaped[0].to_ascii_uppercase()).contains("ZK7"));
    }

    /// A program's secret options are found however the command names it,
    /// as the shell analysis reads program names (a path, a case, `.exe`,
    /// the dots Windows drops), behind any wrapper it knows.
    #[test]
    fn secret_options_follow_the_shell_analysis_program_names() {
        let spellings = [
            "mysql",
            "/usr/bin/mysql",
            "MYSQL",
            "MySQL.exe",
            "mysql.",
            "mysql. .",
            r"C:\Tools\MySQL\bin\mysql.exe",
            r"bin\MYSQL.EXE",
        ];
        for program in spellings {
            assert_eq!(crate::shell::program_name(program), "mysql", "{program}");
            for line in [
                format!("{program} -p Hunter2Secret"),
                format!("sudo {program} -p Hunter2Secret"),
                format!("nohup {program} -p Hunter2Secret"),
                format!("setsid {program} -p Hunter2Secret"),
                format!("stdbuf {program} -p Hunter2Secret"),
                format!("env {program} -p Hunter2Secret"),
                format!("sudo -u ci {program} -p Hunter2Secret"),
                format!("timeout 5 {program} -p Hunter2Secret"),
                format!("timeout -s KILL 5 {program} -p Hunter2Secret"),
                format!("nice -n 5 {program} -p Hunter2Secret"),
                format!("env -u HOME X=1 {program} -p Hunter2Secret"),
                format!("sudo -u ci env -i timeout 5 {program} -p Hunter2Secret"),
            ] {
                let words: Vec<&str> = line.split(' ').collect();
                let at = words.iter().position(|w| *w == "Hunter2Secret").unwrap();
                assert!(
                    secret_words(&words).iter().any(|&(i, _)| i == at),
                    "{line}: the password is not found"
                );
            }
        }
        for (program, option) in [("REDIS-CLI.EXE", "-a"), ("Docker", "-p")] {
            let line = format!("{program} login {option} Hunter2Secret");
            let words: Vec<&str> = line.split(' ').collect();
            assert!(secret_words(&words).iter().any(|&(i, _)| i == 3), "{line}");
        }
        for name in ["htpasswd", "HTPASSWD.EXE", "/usr/sbin/htpasswd"] {
            let line = format!("{name} -b users alice Hunter2Secret");
            let words: Vec<&str> = line.split(' ').collect();
            assert!(secret_words(&words).iter().any(|&(i, _)| i == 4), "{line}");
        }
        let words = ["echo", "alice:Hunter2Secret", "|", "/usr/sbin/CHPASSWD"];
        assert!(secret_words(&words).iter().any(|&(i, _)| i == 1));
    }

    /// A memo shared by many trees finds what each tree's own walk finds,
    /// before and after it is full, for strings seen again after it is.
    #[test]
    fn a_memo_finds_what_each_walk_finds() {
        let strings = |i: usize| {
            [
                format!("ghp_{i:036}"),
                format!("mysql -u root --password pw{i}x"),
                "postgres://u:S3cr3t-pw@db/x".to_string(),
                format!("plain-{i}"),
                "sk-live-0123456789abcdefghij".to_string(),
                format!("curl -u user:pa{i}ss https://x"),
            ]
        };
        let mut memo = Memo::default();
        for i in 0..Memo::KEPT + 300 {
            let text = serde_json::json!({
                "env": {"DB_PASSWORD": format!("v{i}"), "PLAIN": strings(i % 50)[3]},
                "args": strings(i),
                "again": strings(i % 7),
            })
            .to_string();
            let doc = parse(text.as_bytes(), Limits::default()).unwrap();
            let (mut alone, mut shared) = (Vec::new(), Vec::new());
            let a = Secrets::collect_into(&doc.root, &mut alone, None);
            let b = Secrets::collect_into(&doc.root, &mut shared, Some(&mut memo));
            alone.sort();
            shared.sort();
            assert_eq!((a, alone), (b, shared), "tree {i}");
        }
        assert_eq!(memo.found.len(), Memo::KEPT);
    }

    #[test]
    fn every_signal_word_holds_a_signal_piece() {
        let sets = [
            STRONG_ANYWHERE,
            WEAK_ANYWHERE,
            STRONG_LAST_OF_MANY,
            STRONG_LAST,
            WEAK_LAST,
            &["key", "connection"],
        ];
        for w in sets.iter().flat_map(|s| s.iter()) {
            assert!(may_signal(w), "{w} holds no piece may_signal looks for");
        }
        // Whatever the words read as a secret's name holds a piece: names
        // built from every word of every table, alone, first, last and
        // run together, in three cases.
        let all = [
            STRONG_ANYWHERE,
            WEAK_ANYWHERE,
            STRONG_LAST_OF_MANY,
            STRONG_LAST,
            WEAK_LAST,
        ];
        let words: Vec<&str> = all
            .iter()
            .flat_map(|s| s.iter().copied())
            .chain(KEY_KINDS.iter().copied())
            .chain(ABOUT_A_SECRET.iter().copied())
            .chain(["key", "id", "header", "string", "connection", "db", "my"])
            .collect();
        let mut names = 0;
        for a in &words {
            for b in &words {
                for name in [
                    a.to_string(),
                    format!("{a}_{b}"),
                    format!("{a}{b}"),
                    format!("{}_{}", a.to_uppercase(), b.to_uppercase()),
                    format!("{a}{}", b.to_uppercase()),
                    format!("x_{a}_key_{b}"),
                ] {
                    names += 1;
                    if signal_of_words(&name) != NameSignal::None {
                        assert!(may_signal(&name), "{name}");
                    }
                }
            }
        }
        assert!(names > 10_000);
    }

    use super::*;
    use crate::json::{parse, Limits};
    use proptest::prelude::*;

    /// The detector before its byte-level rewrite; the oracle of
    /// `fast_detector_equals_the_reference`.
    /// Whether a value itself looks like a credential, whatever its name.
    fn looks_like_secret_reference(v: &str) -> bool {
        let v = v.trim();
        if v.len() < 8 {
            return false;
        }
        // The vendor list is data, not the algorithm under test: the
        // module's own.
        if PREFIXES.iter().any(|p| {
            v.starts_with(p)
                && v.as_bytes().get(p.len()..p.len() + 8).is_some_and(|body| {
                    body.iter()
                        .all(|c| c.is_ascii_alphanumeric() || b"+/=_-.".contains(c))
                })
        }) {
            return true;
        }
        if v.starts_with("sk-") && v.len() >= 20 {
            return true;
        }
        if (v.starts_with("AKIA") || v.starts_with("ASIA"))
            && v.len() >= 16
            && v.chars()
                .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit())
        {
            return true;
        }
        if v.contains("-----BEGIN") && v.contains("PRIVATE KEY") {
            return true;
        }
        if v.starts_with("eyJ") && v.matches('.').count() >= 2 {
            return true;
        }
        if has_url_password_reference(v) {
            return true;
        }
        let lower = v.to_ascii_lowercase();
        if WEBHOOKS
            .iter()
            .any(|w| lower.find(w).is_some_and(|i| v.len() >= i + w.len() + 8))
        {
            return true;
        }
        high_entropy_token_reference(v)
    }

    /// `scheme://user:password@host`.
    fn has_url_password_reference(v: &str) -> bool {
        let Some(i) = v.find("://") else { return false };
        let rest = &v[i + 3..];
        let auth_end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
        let auth = &rest[..auth_end];
        match auth.rfind('@') {
            Some(at) => auth[..at].contains(':') && at > auth[..at].find(':').unwrap_or(0) + 1,
            None => false,
        }
    }

    /// A long run of mixed letters and digits with no spaces: 40-character
    /// AWS secret keys, hex API keys and the like. Paths and words are spared.
    fn high_entropy_token_reference(v: &str) -> bool {
        if v.len() < 24 || v.contains(' ') || v.starts_with('/') || v.contains("://") {
            return false;
        }
        if v.starts_with("sha256:") || v.contains("@sha256:") {
            return false;
        }
        let ok = v
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "+/=_-".contains(c));
        if !ok {
            return false;
        }
        let upper = v.chars().filter(char::is_ascii_uppercase).count();
        let lower = v.chars().filter(char::is_ascii_lowercase).count();
        let digit = v.chars().filter(char::is_ascii_digit).count();
        let classes = usize::from(upper > 0) + usize::from(lower > 0) + usize::from(digit > 0);
        let hex = v.len() >= 32 && v.chars().all(|c| c.is_ascii_hexdigit());
        if hex {
            // Digests and container ids are identifiers.
            return ![40, 64, 128].contains(&v.len());
        }
        let uuid = v.len() == 36
            && v.split('-').map(str::len).eq([8, 4, 4, 4, 12])
            && v.chars().all(|c| c == '-' || c.is_ascii_hexdigit());
        !uuid && classes == 3 && digit >= 1 && upper >= 2 && lower >= 2
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(5000))]
        #[test]
        fn fast_detector_equals_the_reference(
            parts in proptest::collection::vec(prop_oneof![
                proptest::sample::select(PREFIXES.to_vec()).prop_map(str::to_string),
                Just("sk-".to_string()), Just("AKIA".to_string()), Just("eyJ".to_string()),
                Just("://".to_string()), Just("@".to_string()), Just(":".to_string()), Just("/".to_string()),
                Just("-----BEGIN".to_string()), Just("PRIVATE KEY".to_string()), Just("sha256:".to_string()),
                Just(".".to_string()), Just(" ".to_string()), Just("\u{a0}".to_string()), Just("é".to_string()),
                "[A-Z0-9]{0,12}", "[a-f0-9]{0,34}", "[a-z]{6,40}", "[a-f]{28,40}", "[A-Za-z0-9+/=_-]{0,30}", "[ -~]{0,10}", "\\PC{0,4}",
            ], 0..8)
        ) {
            let s: String = parts.concat();
            prop_assert_eq!(looks_like_secret(&s), looks_like_secret_reference(&s), "{:?}", s);
        }
    }

    #[test]
    fn detectors() {
        assert!(looks_like_secret("AKIAIOSFODNN7EXAMPLE"));
        assert!(looks_like_secret(
            "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"
        ));
        assert!(looks_like_secret(
            "ghp_abcdefghijklmnopqrstuvwxyz0123456789"
        ));
        assert!(looks_like_secret("postgres://app:hunter2@db.internal/app"));
        assert!(!looks_like_secret("/srv/workshop/scratch/job-17"));
        assert!(!looks_like_secret("C.UTF-8"));
        assert!(!looks_like_secret(
            "registry.example/runner@sha256:0123456789abcdef0123456789abcdef"
        ));
        assert!(is_secret_name("AWS_SECRET_ACCESS_KEY"));
        assert!(is_secret_name("github-token"));
        assert!(!is_secret_name("LANG"));
        assert!(!is_secret_name("SSH_AUTH_SOCK"));
    }

    #[test]
    fn a_path_ending_in_a_secret_word_does_not_mask_the_next_word_of_a_sentence() {
        // A mount source such as /run/secrets is quoted in runtime-check
        // reasons; the word after it is prose, not the path's value.
        let reason = "the runtime must open /run/secrets without following links";
        assert_eq!(scrub_tokens(reason), reason);
        let reason = "open /srv/workshop/scratch/token without racing a rename";
        assert_eq!(scrub_tokens(reason), reason);
        // A key and its value are still masked, however they are joined.
        for (text, value) in [
            (
                "fetch https://mirror.example/pkg?token=abcdef12 first",
                "abcdef12",
            ),
            ("fetch /pkg/index:token=abcdef12", "abcdef12"),
            ("export TOKEN abcdef12 now", "abcdef12"),
            ("run --password hunter22", "hunter22"),
            ("/run/secrets/db_password: hunter22", "hunter22"),
        ] {
            let shown = scrub_tokens(text);
            assert!(!shown.contains(value), "{text} -> {shown}");
            assert!(shown.contains(MASK), "{text} -> {shown}");
        }
    }

    #[test]
    fn identifiers_are_not_secrets_by_shape() {
        let digest = "4f9c2a1b0d3e5f6a7b8c9d0e1f2a3b4c5d6e7f8a9b0c1d2e3f4a5b6c7d8e9f0a";
        let image = format!("registry.example/runner@sha256:{digest}");
        let doc = parse(
            format!(r#"{{"dependencies":{{"image":"{image}"}}}}"#).as_bytes(),
            Limits::default(),
        )
        .unwrap();
        let s = Secrets::collect(&doc.root);
        assert!(s.is_empty(), "{s:?}");
        assert_eq!(s.scrub(&format!("image {image}")), format!("image {image}"));
        // A container id, a commit, a UUID: identifiers wherever they are.
        for id in [
            digest,
            "0123456789abcdef0123456789abcdef01234567",
            "550e8400-e29b-41d4-a716-446655440000",
            "550E8400-E29B-41D4-A716-446655440000",
        ] {
            assert!(!looks_like_secret(id), "{id}");
            let hook = format!("/usr/bin/hook --id {id} /run/containers/{id}");
            assert_eq!(scrub_tokens(&hook), hook);
        }
        // Hex of another length is an API key; a secret name or a
        // secret-bearing option makes an identifier a secret.
        let key = "0123456789abcdef0123456789abcdef";
        assert_eq!(scrub_tokens(&format!("key/{key}")), "key/[redacted]");
        assert_eq!(
            scrub_tokens(&format!("--token {digest}")),
            "--token [redacted]"
        );
        let doc = parse(
            format!(r#"{{"environment":{{"variables":{{"SESSION_TOKEN":"{digest}"}}}}}}"#)
                .as_bytes(),
            Limits::default(),
        )
        .unwrap();
        assert!(Secrets::collect(&doc.root).contains(digest));
    }

    /// Real variable and key names that hold no secret: settings, counts,
    /// modes, references to where a secret lives.
    const NOT_SECRET_NAMES: &[&str] = &[
        "TOKENIZERS_PARALLELISM",
        "TOKENIZER_MODE",
        "MAX_TOKENS",
        "MAX_NEW_TOKENS",
        "PASSWORD_MIN_LENGTH",
        "KEYBOARD_LAYOUT",
        "AUTH_BACKENDS",
        "AIRFLOW__API__AUTH_BACKENDS",
        "SECRETARY_NAME",
        "PASSWORD_HASHERS",
        "SSH_AUTH_SOCK",
        "NODE_TLS_REJECT_UNAUTHORIZED",
        "LANG",
        "PATH",
        "HOME",
        "PWD",
        "OLDPWD",
        "GIT_ASKPASS",
        "SSH_ASKPASS",
        "AUTH_TYPE",
        "AUTH_MODE",
        "AUTH_METHOD",
        "AUTH_PROVIDER",
        "OAUTH_TOKEN_URL",
        "TOKEN_ENDPOINT",
        "TOKEN_TYPE",
        "TOKEN_TTL",
        "SECRET_NAME",
        "secretName",
        "secretKeyRef",
        "SECRETS_DIR",
        "imagePullSecrets",
        "DB_PASSWORD_FILE",
        "GITHUB_TOKEN_PATH",
        "PGPASSFILE",
        "SESSION_COOKIE_SECURE",
        "SESSION_COOKIE_NAME",
        "COOKIE_DOMAIN",
        "PRIMARY_KEY",
        "SORT_KEY",
        "CACHE_KEY",
        "PARTITION_KEY",
        "KEY",
        "KEYMAP",
        "KEY_ID",
        "CLIENT_ID",
        "PASS_COUNT",
        "COMPASS_ROOT",
        "BYPASS_PROXY",
        "PASSENGER_APP_ENV",
        "TOKENS_PER_MINUTE",
        "AUTHOR_NAME",
        "AUTHORS",
        "GIT_AUTHOR_EMAIL",
        "AUTHENTICATION_BACKENDS",
        "PATTERN",
        "CREDENTIAL_HELPER",
        "credential.helper",
        "SECRET_KEY_FILE",
        "JWT_ALGORITHM",
        "PASSWORD_RESET_TIMEOUT",
        "TOKEN_LIMIT",
        "MONKEY_PATCH",
        "TURKEY_TIME",
        "DONKEY_MODE",
        "SECRET_ROTATION",
        "PASSWORD_POLICY",
        "TOKEN_EXPIRY",
        "API_KEY_HEADER_NAME",
        "RUST_LOG",
        "CARGO_HOME",
        "CI",
        "TZ",
        "PATH_INFO",
        "DSN_TIMEOUT",
    ];

    /// Real names that hold a secret.
    const SECRET_NAMES: &[&str] = &[
        "GH_TOKEN",
        "GITHUB_TOKEN",
        "githubToken",
        "AWS_SECRET_ACCESS_KEY",
        "AWS_ACCESS_KEY_ID",
        "AWS_SESSION_TOKEN",
        "DB_PASS",
        "DB_PASSWORD",
        "PGPASSWORD",
        "MYSQL_PWD",
        "MYSQL_ROOT_PASSWORD",
        "POSTGRES_PASSWORD",
        "REDIS_PASSWORD",
        "NPM_TOKEN",
        "NODE_AUTH_TOKEN",
        "PYPI_TOKEN",
        "TWINE_PASSWORD",
        "CARGO_REGISTRY_TOKEN",
        "HF_TOKEN",
        "HUGGING_FACE_HUB_TOKEN",
        "OPENAI_API_KEY",
        "ANTHROPIC_API_KEY",
        "API_KEY",
        "apiKey",
        "api-key",
        "x-api-key",
        "APIKey",
        "SECRET_KEY",
        "SECRET_KEY_BASE",
        "DJANGO_SECRET_KEY",
        "JWT_SECRET",
        "SESSION_SECRET",
        "CLIENT_SECRET",
        "clientSecret",
        "OAUTH_CLIENT_SECRET",
        "PRIVATE_KEY",
        "privateKey",
        "SSH_PRIVATE_KEY",
        "SIGNING_KEY",
        "ENCRYPTION_KEY",
        "MASTER_KEY",
        "STRIPE_SECRET_KEY",
        "SLACK_BOT_TOKEN",
        "SLACK_WEBHOOK_SECRET",
        "VAULT_TOKEN",
        "CONSUL_HTTP_TOKEN",
        "DOCKER_PASSWORD",
        "REGISTRY_PASSWORD",
        "SMTP_PASS",
        "MAIL_PASSWORD",
        "LDAP_BIND_PASSWORD",
        "KEYSTORE_PASSPHRASE",
        "GPG_PASSPHRASE",
        "SENTRY_DSN",
        "DATABASE_CONNECTION_STRING",
        "BASIC_AUTH",
        "HTTP_AUTHORIZATION",
        "AUTH_HEADER",
        "auth",
        "GITHUB_PAT",
        "ACCESS_TOKEN",
        "REFRESH_TOKEN",
        "ID_TOKEN",
        "CSRF_TOKEN",
        "bearerToken",
        "password",
        "passwd",
        "token",
        "secret",
        "AZURE_CLIENT_SECRET",
        "GOOGLE_API_KEY",
        "ARM_ACCESS_KEY",
        "GITLAB_TOKEN",
        "CI_JOB_TOKEN",
        "CREDENTIALS",
        "DOCKER_AUTH_CONFIG_CREDS",
        "LICENSE_KEY",
        "HMAC_KEY",
        "db-password",
        "db.password",
        "spring.datasource.password",
    ];

    #[test]
    fn names_are_read_by_words() {
        assert!(NOT_SECRET_NAMES.len() >= 60 && SECRET_NAMES.len() >= 60);
        let wrong: Vec<_> = NOT_SECRET_NAMES
            .iter()
            .filter(|n| is_secret_name(n))
            .chain(SECRET_NAMES.iter().filter(|n| !is_secret_name(n)))
            .collect();
        assert!(wrong.is_empty(), "misread names: {wrong:?}");
        assert_eq!(name_words("githubToken"), ["github", "token"]);
        assert_eq!(name_words("APIKey"), ["api", "key"]);
        assert_eq!(
            name_words("AIRFLOW__API__AUTH_BACKENDS"),
            ["airflow", "api", "auth", "backends"]
        );
        assert!(is_strong_secret_name("GH_TOKEN") && !is_strong_secret_name("SENTRY_DSN"));
    }

    #[test]
    fn secret_arguments_are_one_test_for_rules_and_the_collector() {
        let cases: &[(&[&str], &str)] = &[
            (&["mysql", "--password", "hunter2x"], "hunter2x"),
            (&["mysql", "-p", "hunter2x"], "hunter2x"),
            (&["mysql", "-phunter2x"], "hunter2x"),
            (&["tool", "--pass=hunter2x"], "hunter2x"),
            (&["tool", "--token", "abc123"], "abc123"),
            (&["env", "DB_PASSWORD=hunter2x", "run"], "hunter2x"),
        ];
        for (words, secret) in cases {
            let hits = secret_words(words);
            assert!(!hits.is_empty(), "{words:?}");
            let doc = parse(
                serde_json::json!({"command": {"executable": words[0], "arguments": &words[1..]}})
                    .to_string()
                    .as_bytes(),
                Limits::default(),
            )
            .unwrap();
            let s = Secrets::collect(&doc.root);
            assert!(s.contains(secret), "{words:?}: {s:?}");
            let shell = parse(
                serde_json::json!({"command": {"shell": words.join(" ")}})
                    .to_string()
                    .as_bytes(),
                Limits::default(),
            )
            .unwrap();
            assert!(
                Secrets::collect(&shell.root).contains(secret),
                "{words:?} as shell"
            );
        }
        // `-p` is a port for ssh, and a flag is not a value.
        assert!(secret_words(&["ssh", "-p", "2222", "host"]).is_empty());
        assert!(secret_words(&["mysql", "--password", "--verbose"]).is_empty());
    }

    #[test]
    fn each_program_s_secret_options_and_only_those() {
        // (command line, the word that holds a secret, or "" for none)
        let cases: &[(&str, &str)] = &[
            ("redis-cli -h cache -a Pr8redisSh55 ping", "Pr8redisSh55"),
            ("docker login -u ci -p Ps1dockerP77 reg", "Ps1dockerP77"),
            ("podman login -pPs1podman77 reg", "-pPs1podman77"),
            (
                "az login --service-principal -u app -p Pt1azure77",
                "Pt1azure77",
            ),
            ("curl -u deploy:Pr4curlU11 https://x", "deploy:Pr4curlU11"),
            (
                "curl --user=deploy:Pr5curlUser22 https://x",
                "--user=deploy:Pr5curlUser22",
            ),
            ("mongosh -u app -p Pm1mongo11 db", "Pm1mongo11"),
            // A program's options are its own, in every command of a line.
            ("sh -c \"redis-cli -a Pc4redis44 ping", "Pc4redis44"),
            ("cd /w && sudo mysql -p Pc5mysql55", "Pc5mysql55"),
            ("true; docker login -p Pc6docker66 reg", "Pc6docker66"),
            (
                "echo Pc7stdin77 | docker login -u ci --password-stdin reg",
                "Pc7stdin77",
            ),
            (
                "printf '%s' Pc8stdin88 | gh auth login --with-token",
                "Pc8stdin88",
            ),
            ("echo u:Pc9chpw99 | chpasswd", "u:Pc9chpw99"),
            ("htpasswd -bc /etc/htpasswd admin Pd1htpw11", "Pd1htpw11"),
            ("htpasswd -nb admin Pd2htpw22 > f", "Pd2htpw22"),
            // Not secrets: ports, appends, a user without a password.
            ("docker run -p 8080:80 image", ""),
            ("ssh -p 2222 host", ""),
            ("tee -a log.txt", ""),
            ("curl -u deploy https://x", ""),
            ("redis-cli -a $REDIS_PASSWORD ping", ""),
            ("mysql -h db -p", ""),
            ("echo $TOKEN | docker login --password-stdin reg", ""),
            ("echo done | tee log", ""),
            ("htpasswd -c /etc/htpasswd admin", ""),
        ];
        for (line, secret) in cases {
            let words: Vec<&str> = line.split_whitespace().collect();
            let hits: Vec<&str> = secret_words(&words)
                .into_iter()
                .filter_map(|(i, _)| words.get(i).copied())
                .collect();
            if secret.is_empty() {
                assert!(hits.is_empty(), "{line}: {hits:?}");
            } else {
                assert_eq!(hits, [*secret], "{line}");
            }
        }
    }

    #[test]
    fn credentials_after_auth_schemes_identifiers_and_glued_text_are_found() {
        for (text, secret) in [
            (
                "curl -H \"Authorization: Bearer Pq9bearer66\" x",
                "Pq9bearer66",
            ),
            ("authorization: token Pr0tokScheme12", "Pr0tokScheme12"),
            (
                "Authorization: Basic UHIzYmFzaWM6cGFzcw==",
                "UHIzYmFzaWM6cGFzcw==",
            ),
            (
                "npm config set //registry.npmjs.org/:_authToken Ps4npmTok11",
                "Ps4npmTok11",
            ),
            (
                "job-ghp_Zk7abcdefghijklmnopqrstuvwxyz012345",
                "ghp_Zk7abcdefghijklmnopqrstuvwxyz012345",
            ),
            ("x.sk_live_abcdefghijklmnop", "sk_live_abcdefghijklmnop"),
            ("machine h login u password Pn1netrc11", "Pn1netrc11"),
        ] {
            let shown = scrub_tokens(text);
            assert!(!shown.contains(secret), "{text} -> {shown}");
            assert!(shown.contains(MASK), "{text} -> {shown}");
        }
        // The scheme is a word, a reference is no secret, and prose stays.
        for text in [
            "Authorization: Bearer $TOKEN",
            "Basic usage of the tool",
            "open /srv/workshop/scratch/db_password without racing",
            "the bearer token is issued by the broker",
            "set the password once and rotate the token monthly",
            "ghp_ is the prefix of a GitHub token",
        ] {
            assert_eq!(scrub_tokens(text), text);
        }
        assert_eq!(
            scrub_tokens("Authorization: Bearer Pq9bearer66"),
            "Authorization: Bearer [redacted]"
        );
    }

    #[test]
    fn secrets_are_found_by_where_they_stand_and_as_a_source_writes_them() {
        let doc = parse(
            serde_json::json!({
                "credentials": [{"name": "db", "value": "Pu7credVal22"}],
                "secrets": {"db": {"content": "Qc8inline88", "file": "./db.txt"}},
                "objects": [{"kind": "Secret", "data": {"tls.key": "UWIzYmFzZTY0a2V5MzM="}}],
                "hosts": ["bot:Pq5noScheme22@mirror.example"],
                "DB_PASSWORD": {"x": "Pt8obj88", "file": "/run/db"},
                "serviceAccountToken": {"audience": "vault", "path": "token"},
                "image": "python:3.12@sha256:4f9c2a1b0d3e5f6a7b8c9d0e1f2a3b4c5d6e7f8a9b0c1d2e3f4a5b6c7d8e9f0a",
                "ghp_Zk7abcdefghijklmnopqrstuvwxyz012345": 1,
                "SSH_KEY": "-----BEGIN PRIVATE KEY-----\nMIIEpAIBAAKCAQEAline1xyz\nPu2pemLine2abcdEFGH\n-----END PRIVATE KEY-----"
            })
            .to_string()
            .as_bytes(),
            Limits::default(),
        )
        .unwrap();
        let s = Secrets::collect(&doc.root);
        for secret in [
            "Pu7credVal22",
            "Qc8inline88",
            "UWIzYmFzZTY0a2V5MzM=",
            "Pq5noScheme22",
            "Pt8obj88",
            "ghp_Zk7abcdefghijklmnopqrstuvwxyz012345",
            "Pu2pemLine2abcdEFGH",
            "-----BEGIN PRIVATE KEY-----\\nMIIEpAIBAAKCAQEAline1xyz\\nPu2pemLine2abcdEFGH\\n-----END PRIVATE KEY-----",
        ] {
            assert!(
                s.mask_source(secret).chars().all(|c| c == '*'),
                "{secret} not masked"
            );
        }
        // Names, a file path and an image digest are not secrets.
        for kept in [
            "db",
            "./db.txt",
            "python:3.12",
            "3.12",
            "mirror.example",
            "vault",
            "token",
            "/run/db",
        ] {
            assert!(!s.contains(kept), "{kept}");
        }
    }

    #[test]
    fn a_literal_written_with_escapes_is_masked_whole() {
        assert_eq!(
            unescape(r"a\u0062\x63\n\ud83d\ude00\U0001F600\q\u12"),
            "abc\n😀😀q\\u12"
        );
        let text = r#"{"DB_PASSWORD": "hunt\u0065r2x", "LANG": "C\u002eUTF-8", "X": "\u0067hp_abcdefghijklmnopqrstuvwxyz0123"}"#;
        let doc = parse(text.as_bytes(), Limits::default()).unwrap();
        let masked = Secrets::collect(&doc.root).mask_source(text);
        assert!(
            !masked.contains("r2x") && !masked.contains("hp_abc"),
            "{masked}"
        );
        assert!(masked.contains(r"C\u002eUTF-8"), "{masked}");
        assert_eq!(masked.chars().count(), text.chars().count());
    }

    #[test]
    fn unparsed_text_is_masked_across_line_ends_in_place() {
        let text = "{\"variables\": {\"DB_PASSWORD\":\n  \"Pz1split11\", \"LANG\": \"C.UTF-8\"},\n \"arguments\": [\"--token\",\n \"Pz2split22\"]\n env:\n - name: API_KEY\n   value: Pz3yaml33\n - name: MODE\n   value: fast oops\n";
        let masked = mask_unparsed(text);
        for secret in ["Pz1split11", "Pz2split22", "Pz3yaml33"] {
            assert!(!masked.contains(secret), "{secret} in {masked}");
        }
        for kept in ["C.UTF-8", "fast", "DB_PASSWORD", "API_KEY", "--token"] {
            assert!(masked.contains(kept), "{kept} masked in {masked}");
        }
        assert_eq!(masked.lines().count(), text.lines().count());
        assert_eq!(masked.chars().count(), text.chars().count());
    }

    #[test]
    fn messages_scrub_their_backticked_values_and_never_their_wording() {
        let doc = parse(
            br#"{"environment":{"variables":{"DB_PASSWORD":"hunter2!","PIN_TOKEN":"x9z","LANG":"C"}}}"#,
            Limits::default(),
        )
        .unwrap();
        let s = Secrets::collect(&doc.root);
        for wording in [
            "is a credential socket or store; the job can read the secrets it holds",
            "a secret written into the profile is visible to every process",
            "the job's credentials stay valid after it ends",
            "CVE-2025-31133 and 10.0.0.1:22, version 0.1.0",
        ] {
            assert_eq!(s.scrub_message(wording), wording);
        }
        // A value in backticks is scrubbed by shape and by collection; a
        // short value only where it stands.
        assert_eq!(
            s.scrub_message("`PIN_TOKEN` is `x9z` and `token=ghp_abcdefghijklmnop0123`"),
            "`PIN_TOKEN` is `[redacted]` and `token=[redacted]`"
        );
        assert_eq!(s.scrub_value("PIN_TOKEN=x9z"), "PIN_TOKEN=[redacted]");
        // `x9z` is short: masked where it stands, not inside the wording.
        assert_eq!(s.scrub_message("the x9z rule"), "the x9z rule");
        // A long value is masked even outside backticks (a fail-safe), and
        // an odd backtick makes the whole text a value.
        assert_eq!(
            s.scrub_message("leaked hunter2! here"),
            "leaked [redacted] here"
        );
        assert_eq!(
            s.scrub_message("odd ` TOKEN ghp_abcdefghijklmnop0123"),
            "odd ` TOKEN [redacted]"
        );
    }

    #[test]
    fn collected_and_scrubbed() {
        let doc = parse(br#"{"environment":{"variables":{"DB_PASSWORD":"hunter2!","LANG":"C"}},"command":{"shell":"curl -H token=ghp_abcdefghijklmnopqrstuvwxyz0123 x"}}"#, Limits::default()).unwrap();
        let s = Secrets::collect(&doc.root);
        assert_eq!(s.scrub("value hunter2! here"), "value [redacted] here");
        let masked = s.mask_source("\"hunter2!\" ghp_abcdefghijklmnopqrstuvwxyz0123");
        assert!(!masked.contains("hunter2") && !masked.contains("ghp_"));
        assert_eq!(
            masked.len(),
            "\"hunter2!\" ghp_abcdefghijklmnopqrstuvwxyz0123".len()
        );
        assert_eq!(
            scrub_tokens("key AKIAIOSFODNN7EXAMPLE end"),
            "key [redacted] end"
        );
        let shown = format!("{s:?}");
        // Neither as text nor as the numbers `{:?}` prints for bytes.
        let numbers = format!("{:?}", b"hunter2!");
        let numbers = numbers.trim_start_matches('[').trim_end_matches(']');
        assert!(
            !shown.contains("hunter2") && !shown.contains(numbers),
            "{shown}"
        );
        assert!(shown.contains("values"), "{shown}");
    }

    #[test]
    fn overlapping_short_and_many_secrets_are_all_masked() {
        let doc = parse(
            r#"{"environment":{"variables":{"A_TOKEN":"abcdefg","B_TOKEN":"cdefghij","C_TOKEN":"xy","D_TOKEN":"été-secret"}}}"#.as_bytes(),
            Limits::default(),
        )
        .unwrap();
        let s = Secrets::collect(&doc.root);
        // "abcdefg" and "cdefghij" overlap: neither leaves a piece behind.
        assert_eq!(s.scrub("<abcdefghij>"), "<[redacted]>");
        // A short value is masked where it stands, not inside words.
        assert_eq!(s.scrub("xy"), "[redacted]");
        assert_eq!(s.scrub("a xy b"), "a xy b");
        assert_eq!(s.scrub("été-secret!"), "[redacted]!");
        assert_eq!(
            s.mask_source("«abcdefghij» été-secret"),
            "«**********» **********"
        );
        assert_eq!(
            s.mask_source(r#""C_TOKEN": "xy", "oxyd""#),
            r#""C_TOKEN": "**", "oxyd""#
        );
        assert!(s.contains("cdefghij") && !s.contains("cdefghi"));

        // Thousands of distinct secrets sharing a prefix: one pass each.
        let vars: Vec<String> = (0..5000)
            .map(|i| format!("\"T{i}_TOKEN\":\"ghp_{i:036}\""))
            .collect();
        let text = format!(
            r#"{{"environment":{{"variables":{{{}}}}}}}"#,
            vars.join(",")
        );
        let doc = parse(text.as_bytes(), Limits::default()).unwrap();
        let s = Secrets::collect(&doc.root);
        let masked = s.mask_source(&text);
        assert!(!masked.contains("ghp_"), "every value masked");
        assert_eq!(masked.chars().count(), text.chars().count());
    }
}

/// A JSON document with every secret value [`Secrets::collect`] finds in it
/// written as [`MASK`], for outputs that print a document the user's secrets
/// went into (`isolint import` writes the profile it converted). The rest of
/// the text is kept byte for byte; a number held by a secret name becomes
/// the string [`MASK`]. Text that does not parse as JSON is scrubbed token by
/// token instead, so nothing is ever passed through unexamined.
pub fn mask_json_document(text: &str) -> Cow<'_, str> {
    mask_json_document_with(text, &Secrets::default())
}

/// [`mask_json_document`], masking `also` besides the document's own
/// secrets (those of the file it was imported from).
pub fn mask_json_document_with<'t>(text: &'t str, also: &Secrets) -> Cow<'t, str> {
    let Ok(doc) = crate::json::parse(text.as_bytes(), crate::json::Limits::default()) else {
        return match also.mask_everywhere(text) {
            Cow::Borrowed(b) => scrub_tokens_cow(b),
            Cow::Owned(o) => Cow::Owned(scrub_tokens_cow(&o).into_owned()),
        };
    };
    // The secrets of the file a profile was imported from hold the
    // profile's own: then they serve as they are, since a union copies
    // them, once per profile of a file of many.
    let own = Secrets::collect(&doc.root);
    let held = || {
        let mut values = Vec::new();
        Secrets::collect_into(&doc.root, &mut values, None);
        values
            .iter()
            .all(|v| v.trim().is_empty() || also.contains(v))
    };
    let joined;
    let secrets = if own.is_empty() || held() {
        also
    } else {
        joined = own.union(also);
        &joined
    };
    if secrets.is_empty() {
        return Cow::Borrowed(text);
    }
    let mut edits = Vec::new();
    json_edits(text, &doc.root, secrets, &mut edits);
    if edits.is_empty() {
        return Cow::Borrowed(text);
    }
    edits.sort_by_key(|e| e.0);
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    for (a, b, with) in edits {
        if a < at {
            continue;
        }
        out.push_str(text.get(at..a).unwrap_or_default());
        out.push_str(&with);
        at = b;
    }
    out.push_str(text.get(at..).unwrap_or_default());
    Cow::Owned(out)
}

/// The literals of `n` that hold a secret: (start, end, replacement).
fn json_edits(text: &str, n: &Node, secrets: &Secrets, out: &mut Vec<(usize, usize, String)>) {
    let span = (n.pos.offset as usize, n.end as usize);
    match &n.value {
        Value::String(s) => {
            if let Cow::Owned(masked) = secrets.scrub_value(s) {
                let quoted = crate::sanitize::json_string(&masked);
                out.push((span.0, span.1, quoted));
            }
        }
        Value::Number(num) if matches!(secrets.scrub_value(num.as_str()), Cow::Owned(_)) => {
            out.push((span.0, span.1, format!("\"{MASK}\"")));
        }
        Value::Array(items) => items.iter().for_each(|i| json_edits(text, i, secrets, out)),
        Value::Object(members) => {
            for m in members {
                // A key can hold a secret too (a Compose `environment` entry
                // written as `NAME: value` becomes a variable of that name).
                if let Cow::Owned(masked) = secrets.scrub_value(&m.key) {
                    let start = m.key_pos.offset as usize;
                    let end = string_literal_end(text, start);
                    out.push((start, end, crate::sanitize::json_string(&masked)));
                }
                json_edits(text, &m.value, secrets, out);
            }
        }
        _ => {}
    }
}

/// The byte offset just past the JSON string literal whose opening quote is
/// at `start` (the end of the text if it is not closed).
fn string_literal_end(text: &str, start: usize) -> usize {
    let bytes = text.as_bytes();
    let mut i = start + 1;
    while let Some(&b) = bytes.get(i) {
        match b {
            b'\\' => i += 2,
            b'"' => return i + 1,
            _ => i += 1,
        }
    }
    bytes.len()
}

#[cfg(test)]
mod mask_json_tests {
    use super::*;

    #[test]
    fn secret_values_are_masked_and_the_document_still_parses() {
        let text = "{\n  \"environment\": {\"variables\": {\"API_KEY: Pl4ntK-key55\": \"\", \"API_TOKEN\": \"hun\\\"ter2x\", \"PIN_PASSWORD\": 73519046, \"LANG\": \"C.UTF-8\"}},\n  \"command\": {\"executable\": \"mysql\", \"arguments\": [\"--password\", \"Pl4ntB-pw77\", \"-pPl4ntC-pw88\"]},\n  \"shell\": \"curl -H 'Authorization: Bearer ghp_abcdefghijklmnopqrstuvwxyz0123456789' x\"\n}\n";
        let masked = mask_json_document(text);
        for s in [
            "hun\\\"ter2x",
            "73519046",
            "Pl4ntB-pw77",
            "Pl4ntC-pw88",
            "ghp_abcdefghij",
        ] {
            assert!(!masked.contains(s), "{s} in {masked}");
        }
        assert!(masked.contains("C.UTF-8"));
        assert!(masked.contains("\"mysql\""));
        let parsed: serde_json::Value = serde_json::from_str(&masked).expect("still JSON");
        assert_eq!(parsed["environment"]["variables"]["API_TOKEN"], MASK);
        assert_eq!(masked.lines().count(), text.lines().count());
    }

    #[test]
    fn a_document_without_secrets_is_kept_as_it_is() {
        let text = "{\"name\": \"parser-tests\", \"environment\": {\"variables\": {\"TOKENIZERS_PARALLELISM\": \"false\"}}}";
        assert!(matches!(mask_json_document(text), Cow::Borrowed(_)));
    }

    #[test]
    fn the_mask_itself_still_reads_as_a_secret() {
        // A profile written by `isolint import` and audited later keeps its
        // credential finding even where only the value's shape gave it away.
        assert!(looks_like_secret(MASK));
    }
}

/// Issue 42 item 5: every shape of secret the scrubber knows, one row each,
/// with a text that holds one (and the part of it that must never be shown)
/// and a text of the same kind that holds none (and must be shown as it
/// is). Each row is checked as a profile value (the collector, then the
/// report's scrubber and the masked source) and as free text (an error, a
/// note: [`scrub_tokens`]). A failure names the row, never the value.
#[cfg(test)]
mod shape_table {
    use super::*;
    use crate::json::{parse, Limits};

    /// (shape, text with a secret, the secret in it, text without one)
    const SHAPES: &[(&str, &str, &str, &str)] = &[
        // Vendor prefixes and other whole-token shapes.
        ("GitHub token", "ghp_Zk7abcdefghijklmnopqrstuvwxyz012345", "ghp_Zk7abcdefghijklmnopqrstuvwxyz012345", "ghp_ starts a GitHub token"),
        ("Slack bot token", "xoxb-123456789012-Zk9slackTokenValue", "Zk9slackTokenValue", "xoxb is a Slack token prefix"),
        ("AWS access key id", "AKIAQZ7PLANT0EXAMPL1", "AKIAQZ7PLANT0EXAMPL1", "AKIA starts an AWS key id"),
        ("JSON Web Token", "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJaazFqd3QifQ.Zk1jwtSigXyZabc123", "Zk1jwtSigXyZabc123", "eyJ is base64 for a brace"),
        ("PEM private key", "-----BEGIN RSA PRIVATE KEY----- MIIEpAIBAAKCAQEAPu2pem -----END RSA PRIVATE KEY-----", "MIIEpAIBAAKCAQEAPu2pem", "-----BEGIN CERTIFICATE----- MIIBcertificate -----END CERTIFICATE-----"),
        ("high-entropy token", "token Zq9xK2mL7pQ4rT8vW3yB6nC1", "Zq9xK2mL7pQ4rT8vW3yB6nC1", "sha256 0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"),
        // Credentials inside URLs.
        ("URL user info", "https://deploy:hunter2pw@mirror.example/simple", "hunter2pw", "https://deploy@mirror.example/simple"),
        ("URL query token", "https://mirror.example/p?token=hunter2pw", "hunter2pw", "https://mirror.example/p?page=2"),
        ("Slack webhook URL", "https://hooks.slack.com/services/T0ABCDEFG/B0ABCDEFG/abcdefghijklmnopqrstuvwx", "abcdefghijklmnopqrstuvwx", "https://api.slack.com/messaging/webhooks"),
        ("Discord webhook URL", "https://discord.com/api/webhooks/123456789012345678/abcdefghijklmnopqrstuvwxyz", "abcdefghijklmnopqrstuvwxyz", "https://discord.com/developers/docs"),
        ("Azure SAS signature", "https://acct.blob.core.windows.net/c/b?sv=2022-11-02&sr=b&sig=abcdefghijklmnop%2Bqrst%3D", "abcdefghijklmnop%2Bqrst%3D", "https://acct.blob.core.windows.net/c/b?sv=2022-11-02&sr=b"),
        ("Azure storage account key", "DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=abcdefghijklmnop==;EndpointSuffix=core.windows.net", "abcdefghijklmnop==", "DefaultEndpointsProtocol=https;AccountName=acct;EndpointSuffix=core.windows.net"),
        // Connection strings.
        ("JDBC password=", "jdbc:postgresql://db:5432/app?user=app&password=hunter2pw", "hunter2pw", "jdbc:postgresql://db:5432/app?user=app&ssl=true"),
        ("JDBC ;password=", "jdbc:sqlserver://db:1433;databaseName=app;user=sa;password=hunter2pw", "hunter2pw", "jdbc:sqlserver://db:1433;databaseName=app;integratedSecurity=true"),
        ("ADO.NET Password=", "Server=db;Database=app;User Id=sa;Password=hunter2pw;", "hunter2pw", "Server=db;Database=app;Integrated Security=true;"),
        ("ODBC PWD=", "Driver={ODBC Driver 18};Server=db;UID=sa;PWD=hunter2pw;", "hunter2pw", "Driver={ODBC Driver 18};Server=db;Trusted_Connection=yes;"),
        // Key and value pairs.
        ("JSON password field in a value", r#"{"user":"app","password":"hunter2pw"}"#, "hunter2pw", r#"{"user":"app","passwordless":true}"#),
        ("JSON password field, spaced", r#"{ "user": "app", "password": "hunter2pw" }"#, "hunter2pw", r#"{ "user": "app", "password": "${DB_PASSWORD}" }"#),
        ("NAME=value", "DB_PASSWORD=hunter2pw make test", "hunter2pw", "DB_HOST=db.internal make test"),
        ("YAML key: value", "api_token: hunter2pw", "hunter2pw", "api_version: v2"),
        ("Authorization header", "Authorization: Bearer hunter2pwToken", "hunter2pwToken", "Authorization: Bearer ${TOKEN}"),
        // Command-line options.
        ("--password value", "mysql --password hunter2pw -h db", "hunter2pw", "mysql --password-file /run/secrets/db -h db"),
        ("curl --user=name:secret", "curl --user=deploy:hunter2pw https://x.example", "hunter2pw", "curl --user=deploy https://x.example"),
        ("--user=name:secret, any program", "fetch-tool --user=deploy:hunter2pw https://x.example", "hunter2pw", "podman run --user=1000:1000 img"),
        ("-u name:secret", "curl -u deploy:hunter2pw https://x.example", "hunter2pw", "curl -u deploy https://x.example"),
        ("mysql -pVALUE", "mysql -uroot -phunter2pw", "hunter2pw", "mysql -uroot -p"),
        ("unknown program -p VALUE", "dbtool -p hunter2pw --host db", "hunter2pw", "ssh -p 2222 host"),
        ("unknown program -pVALUE", "dbtool -phunter2pw --host db", "hunter2pw", "mkdir -p /tmp/x"),
        ("unknown program -P VALUE", "sqltool -P hunter2pw -S db", "hunter2pw", "sqltool -S db -d app"),
    ];

    /// What a report shows of `text` held in a profile as a plain value
    /// and as a shell line: its scrubbed value, and its masked source.
    fn shown_in_a_profile(text: &str) -> Vec<(&'static str, String)> {
        let doc = serde_json::json!({"note": text, "command": {"shell": text}}).to_string();
        let parsed = parse(doc.as_bytes(), Limits::default()).unwrap();
        let s = Secrets::collect(&parsed.root);
        vec![
            ("value", s.scrub(text)),
            (
                "message",
                s.scrub_message(&format!("holds `{text}`")).into_owned(),
            ),
            ("source", s.mask_source(&doc)),
        ]
    }

    #[test]
    fn every_shape_is_masked_and_its_negative_is_not() {
        let mut wrong = Vec::new();
        for &(shape, with, secret, without) in SHAPES {
            assert!(
                with.contains(secret),
                "{shape}: the row's secret is not in its text"
            );
            let mut outputs = shown_in_a_profile(with);
            outputs.push(("free text", scrub_tokens(with)));
            for (place, out) in outputs {
                if out.contains(secret) {
                    wrong.push(format!("{shape}: the secret is shown ({place})"));
                }
            }
            let mut outputs = shown_in_a_profile(without);
            outputs.push(("free text", scrub_tokens(without)));
            for (place, out) in outputs {
                if out.contains(MASK) || out.contains("****") {
                    wrong.push(format!(
                        "{shape}: the text without a secret is masked ({place})"
                    ));
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
}
