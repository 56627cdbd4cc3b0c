//! What a name says of its value: a variable or key name read as words
//! ([`name_words`]), and whether the value under a secret-sounding name is
//! itself a secret ([`secret_by_name`]).

use super::shapes::{is_reference, literal_pieces, looks_like_secret};

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
pub(super) fn word_slices(name: &str) -> Vec<&str> {
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
pub(super) const STRONG_ANYWHERE: &[&str] = &[
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
pub(super) const WEAK_ANYWHERE: &[&str] = &["credential", "credentials", "creds", "dsn", "cookie"];

/// Words that mark a secret only as the last word of a longer name:
/// `MYSQL_PWD`, `GITHUB_PAT` (but `PWD` is the current directory).
pub(super) const STRONG_LAST_OF_MANY: &[&str] = &["pwd", "pat"];

/// Words that mark a secret as the last word: `DB_PASS`, `--pass` (but
/// `PASS_THROUGH` is a setting).
pub(super) const STRONG_LAST: &[&str] = &["pass"];

/// Words that mark a (weak) secret only as the last word: `BASIC_AUTH`,
/// `auth` (a registry login), but not `AUTH_BACKENDS` or `SSH_AUTH_SOCK`.
pub(super) const WEAK_LAST: &[&str] = &["auth", "authorization"];

/// Words before a last `key` that make it a secret key (`API_KEY`,
/// `SIGNING_KEY`); others name lookups (`SORT_KEY`, `PRIMARY_KEY`).
pub(super) const KEY_KINDS: &[&str] = &[
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
pub(super) const ABOUT_A_SECRET: &[&str] = &[
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
    "module",
    "modules",
    "plugin",
    "plugins",
    "handler",
    "class",
    "library",
];

/// How strongly a name says its value is a secret.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
pub(super) enum NameSignal {
    None,
    Weak,
    Strong,
}

/// Whether `name` holds, in any case, a piece of every name
/// [`name_signal`] can call a secret's: each word of the tables above that
/// makes a name one holds one of these (a test checks it). Most names
/// (`source`, `read_only`, `image`) hold none and are no secret's without
/// being read as words.
pub(super) fn may_signal(name: &str) -> bool {
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

pub(super) fn name_signal(name: &str) -> NameSignal {
    if may_signal(name) {
        signal_of_words(name)
    } else {
        NameSignal::None
    }
}

/// [`name_signal`], from the name's words alone.
pub(super) fn signal_of_words(name: &str) -> NameSignal {
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

/// Settings that a secret-named key often holds instead of a secret.
pub(super) const SETTINGS: &[&str] = &[
    "true", "false", "yes", "no", "on", "off", "none", "null", "enabled", "disabled", "required",
    "optional",
];

/// Whether the value under a secret-sounding name is itself a secret:
/// not empty, not a reference, not a setting such as `none` or `true`,
/// not a path to a file that holds the secret; and, when the name is only
/// weakly secret-sounding, shaped like a credential rather than a word.
pub fn secret_by_name(name: &str, value: &str) -> bool {
    // Compose's list form keeps the quotes (`- SENTRY_DSN="0"`): the value
    // is what they enclose.
    let v = value.trim();
    let v = match v.as_bytes() {
        [q @ (b'"' | b'\''), .., last] if last == q && v.len() >= 2 => &v[1..v.len() - 1],
        _ => v,
    };
    // The value's own tests first: they are cheap, and the name's words
    // are not (every key of every imported profile comes through here).
    if v.is_empty() || is_reference(v) {
        return false;
    }
    if v.contains(['$', '`', '%']) {
        // Filled in when it is used: only the pieces written beside the
        // expansions (`hunter2${SUFFIX}`, `${X:-default}`) can be secrets.
        if let Some(pieces) = literal_pieces(v) {
            return pieces.iter().any(|p| {
                let p = p.trim_matches(|c: char| !c.is_ascii_alphanumeric());
                p.len() >= 3
                    && !AUTH_SCHEMES.iter().any(|s| p.eq_ignore_ascii_case(s))
                    && secret_by_name(name, p)
            });
        }
    }
    if is_path(v)
        || SETTINGS.iter().any(|s| v.eq_ignore_ascii_case(s))
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

/// A path to the file that holds the secret, absolute, relative to the
/// working or home directory (`/run/secrets/db`, `./db.txt`, `~/.token`),
/// with no space in it.
fn is_path(v: &str) -> bool {
    ["/", "./", "../", "~/"].iter().any(|p| v.starts_with(p)) && !v.contains(char::is_whitespace)
}

/// The schemes of an HTTP `Authorization` header, after which the
/// credential comes (`Bearer X`): words, not secrets.
pub(super) const AUTH_SCHEMES: &[&str] = &[
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

/// One or more e-mail addresses, separated by commas, semicolons or
/// spaces (`SECRET_RECIPIENTS: ops@example.com`): an address book, not a
/// secret. Every item must be an address whose domain ends in a name of
/// letters; anything else (`ops@example`, `a@b.com:pw`) is not this shape.
pub(super) fn email_list(v: &str) -> bool {
    let mut items = v
        .split([',', ';', ' '])
        .filter(|i| !i.is_empty())
        .peekable();
    items.peek().is_some() && items.all(is_email)
}

pub(super) fn is_email(s: &str) -> bool {
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
pub(super) fn plain_url(v: &str) -> bool {
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
