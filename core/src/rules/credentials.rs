//! Rules of the `credentials` area: a minimal environment built for the
//! job instead of the launcher's, credentials as short-lived task-scoped
//! identities from a broker, kept out of model context, and no path to a
//! general credential store.
//!
//! No message or evidence ever carries a secret value: findings name the
//! variable, credential or argument that holds it.

use super::{Ctx, Emitter, Rule};
use crate::finding::{Area, CheckKind, Severity};
use crate::json::escape_token;
use crate::model::{CredentialScope, CredentialSource, Exposure, StringEnum};
use crate::secrets::{
    is_reference, is_secret_name, line_secrets, looks_like_secret, secret_by_name, secret_words,
};

/// The longest lifetime a task credential should have, in seconds.
const MAX_TTL_SECONDS: u64 = 3600;

/// Variables that lead to a general credential store, an agent that signs
/// for its owner, or an endpoint with host authority.
const STORE_VARIABLES: &[(&str, &str)] = &[
    (
        "SSH_AUTH_SOCK",
        "the SSH agent, which signs with every key loaded in it",
    ),
    (
        "GPG_AGENT_INFO",
        "the GnuPG agent and the private keys it unlocks",
    ),
    ("GNUPGHOME", "a GnuPG home holding private keys"),
    (
        "DBUS_SESSION_BUS_ADDRESS",
        "the session bus, through which the desktop keyring answers",
    ),
    (
        "DOCKER_HOST",
        "a container engine endpoint, which controls its host",
    ),
    (
        "CONTAINER_HOST",
        "a container engine endpoint, which controls its host",
    ),
    (
        "CONTAINERD_ADDRESS",
        "a container engine endpoint, which controls its host",
    ),
    (
        "BUILDKIT_HOST",
        "an image builder endpoint, which runs with its host's authority",
    ),
    (
        "DOCKER_CERT_PATH",
        "the client keys that authenticate to a Docker engine",
    ),
    (
        "DOCKER_CONFIG",
        "the Docker client's stored registry credentials",
    ),
    (
        "KUBECONFIG",
        "a Kubernetes client configuration with cluster credentials",
    ),
    (
        "AWS_PROFILE",
        "a named profile of the shared AWS credentials",
    ),
    (
        "AWS_SHARED_CREDENTIALS_FILE",
        "the shared AWS credentials file",
    ),
    (
        "AWS_CONFIG_FILE",
        "the AWS configuration, which can source credentials",
    ),
    (
        "GOOGLE_APPLICATION_CREDENTIALS",
        "a Google service-account key file",
    ),
    (
        "CLOUDSDK_CONFIG",
        "the gcloud configuration and its cached tokens",
    ),
    ("AZURE_CONFIG_DIR", "the Azure CLI's token cache"),
    ("NETRC", "a `.netrc` file of host passwords"),
    (
        "AWS_CONTAINER_CREDENTIALS_FULL_URI",
        "an endpoint that hands out a task role's AWS credentials",
    ),
    (
        "AWS_CONTAINER_CREDENTIALS_RELATIVE_URI",
        "the ECS endpoint that hands out a task role's AWS credentials",
    ),
    (
        "AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE",
        "the token that unlocks the container credentials endpoint",
    ),
    (
        "AWS_WEB_IDENTITY_TOKEN_FILE",
        "a web-identity token that is exchanged for AWS credentials",
    ),
    (
        "AZURE_FEDERATED_TOKEN_FILE",
        "a federated token that is exchanged for Azure credentials",
    ),
    (
        "ACTIONS_ID_TOKEN_REQUEST_URL",
        "GitHub Actions' endpoint that issues identity tokens for cloud logins",
    ),
    ("KRB5CCNAME", "a Kerberos ticket cache"),
    (
        "GH_CONFIG_DIR",
        "the GitHub CLI's configuration and its tokens",
    ),
    (
        "NPM_CONFIG_USERCONFIG",
        "an npm configuration, where registry tokens are kept",
    ),
];

fn store_variable(name: &str) -> Option<&'static str> {
    STORE_VARIABLES
        .iter()
        .find(|(n, _)| n.eq_ignore_ascii_case(name))
        .map(|(_, w)| *w)
}

/// Why a variable holds a secret: by its value's shape, or by its name.
fn secret_reason(name: &str, value: &str) -> Option<&'static str> {
    // The whole value, or a piece of it shaped like a credential
    // (`Bearer <JWT>`, `token=<key>`, `--auth <key>`).
    let piece_is_secret = || {
        value
            .split(|c: char| c.is_whitespace() || matches!(c, '=' | ',' | ';' | '"' | '\''))
            .any(looks_like_secret)
    };
    if looks_like_secret(value) || piece_is_secret() {
        Some("value")
    } else if secret_by_name(name, value) {
        Some("name")
    } else {
        None
    }
}

pub(crate) const CRD001: Rule = Rule {
    id: "CRD001",
    name: "inherited-environment",
    area: Area::Credentials,
    severity: Severity::High,
    title: "the job inherits the launcher's environment",
    rationale: "A developer's or runner's shell environment carries cloud credentials, tokens and agent sockets. A test hook runs with the job's environment, so inheriting it hands all of them to the code under test.",
    remediation: "Set `environment.inherit` to `false` and list the few variables the job needs under `environment.variables`.",
    runtime_check: Some(CheckKind::EnvExact),
    check: check_inherited,
};

fn check_inherited(ctx: &Ctx<'_>, e: &mut Emitter) {
    let env = ctx.profile.environment.as_ref();
    let msg = match (env, env.and_then(|e| e.inherit)) {
        (None, _) if ctx.present("/environment") => return,
        (None, _) => "no `environment` section is declared, so the job gets the runner's default, usually the launcher's whole environment",
        (Some(_), None) if ctx.present("/environment/inherit") => return,
        (Some(_), None) => "`inherit` is not declared, so the launcher's environment may be passed on whole",
        (Some(_), Some(true)) => "the job inherits the launcher's whole environment: cloud credentials, tokens and agent sockets such as `SSH_AUTH_SOCK` in it reach the code under test",
        (Some(_), Some(false)) => return,
    };
    let inherit = match env.and_then(|e| e.inherit) {
        Some(true) => "true",
        _ if env.is_none() => "environment not declared",
        _ => "not declared",
    };
    e.emit("/environment/inherit", msg)
        .evidence("inherit", inherit);
}

fn variables<'a>(ctx: &'a Ctx<'_>) -> impl Iterator<Item = (String, &'a str, &'a str)> + 'a {
    ctx.profile
        .environment
        .as_ref()
        .and_then(|e| e.variables.as_deref())
        .unwrap_or(&[])
        .iter()
        .map(|(n, v)| {
            (
                format!("/environment/variables/{}", escape_token(n)),
                n.as_str(),
                v.as_str(),
            )
        })
}

pub(crate) const CRD002: Rule = Rule {
    id: "CRD002",
    name: "secret-in-environment",
    area: Area::Credentials,
    severity: Severity::Critical,
    title: "an environment variable holds a secret",
    rationale: "A secret written into the profile is stored, reviewed, exported and shared with it, and every process in the job can read it. isolint never repeats the value; it names the variable. Passing a launcher secret through by reference (`$GITHUB_TOKEN`, `${..}`, `$(..)`, `%..%`, under any variable name), or filling a variable with a command's output at launch, is reported too, at high.",
    remediation: "Remove the value from the profile and rotate it. If the job needs a credential, declare it under `credentials` with a broker source and task scope.",
    runtime_check: Some(CheckKind::EnvExact),
    check: check_secret_variables,
};

fn check_secret_variables(ctx: &Ctx<'_>, e: &mut Emitter) {
    for (ptr, name, value) in variables(ctx) {
        if store_variable(name).is_some() && !looks_like_secret(value) {
            continue; // a pointer to a store: CRD007
        }
        if let Some(by) = secret_reason(name, value) {
            let how = if by == "value" {
                "a value shaped like a credential"
            } else {
                "a value its name marks as secret"
            };
            e.emit(ptr, format!("the variable `{name}` holds {how}; a secret written into the profile is visible to every process in the job and to everyone who reads the profile"))
                .evidence("variable", name)
                .evidence("detected_by", by);
        } else if is_secret_name(name)
            && is_reference(value.trim())
            && crate::secrets::is_strong_secret_name(name)
        {
            e.emit(ptr, format!("the variable `{name}` passes the launcher's secret `{}` into the job instead of a task credential from a broker", value.trim()))
                .severity(Severity::High)
                .evidence("variable", name)
                .evidence("detected_by", "reference");
        } else if let Some(filled) = filled_at_launch(ctx, value) {
            let text = match filled {
                Filled::Secret(from) => format!("the variable `{name}` takes the launcher's secret `{from}` when the launcher fills it in, instead of a task credential from a broker"),
                Filled::Command => format!("the variable `{name}` is filled in at launch with a command's output, which can read any file the launcher can, credentials included; the profile cannot show what it holds"),
            };
            let by = match filled {
                Filled::Secret(_) => "reference",
                Filled::Command => "command",
            };
            e.emit(ptr, text)
                .severity(Severity::High)
                .evidence("variable", name)
                .evidence("detected_by", by);
        }
    }
}

/// What a launcher that expands variables puts into a value.
enum Filled<'v> {
    /// The launcher's own variable of this secret's name.
    Secret(&'v str),
    /// A command's output (`$(…)`, backticks).
    Command,
}

/// How a value that a launcher expands can reach a secret: a reference
/// (`$NAME`, `${NAME…}`, `$(NAME)` as Kubernetes writes it, `%NAME%`) to a
/// secret's name that this list does not define itself, or a command.
fn filled_at_launch<'v>(ctx: &Ctx<'_>, value: &'v str) -> Option<Filled<'v>> {
    let own = |n: &str| {
        ctx.profile
            .environment
            .as_ref()
            .and_then(|e| e.variables.as_deref())
            .is_some_and(|vars| vars.iter().any(|(k, _)| k == n))
    };
    let is_name = |c: char| c.is_ascii_alphanumeric() || c == '_';
    let secret = |n: &'v str| {
        (!n.is_empty() && !own(n) && crate::secrets::is_strong_secret_name(n))
            .then_some(Filled::Secret(n))
    };
    // Programs that print facts about the process or the host and read no
    // file a secret lives in: `$(id -u)` in a runtime directory's path.
    const HARMLESS: [&str; 8] = [
        "id", "whoami", "date", "hostname", "uname", "pwd", "nproc", "getconf",
    ];
    let command = |text: &str| {
        let script = crate::shell::parse(text);
        let harmless = script.commands.len() == 1
            && script.substitutions.is_empty()
            && script.commands.iter().all(|c| {
                c.words
                    .first()
                    .is_some_and(|w| HARMLESS.contains(&crate::shell::program_name(w).as_str()))
            });
        (!harmless).then_some(Filled::Command)
    };
    // Between backticks (the odd pieces), each a command.
    if let Some(c) = value.split('`').skip(1).step_by(2).find_map(command) {
        return Some(c);
    }
    let mut rest = value;
    while let Some(i) = rest.find(['$', '%']) {
        let (sigil, after) = (
            rest.as_bytes().get(i).copied(),
            rest.get(i + 1..).unwrap_or(""),
        );
        rest = after;
        let found = match sigil {
            Some(b'%') => match after.split_once('%') {
                Some((n, tail)) if n.chars().all(is_name) => {
                    rest = tail;
                    secret(n)
                }
                _ => None,
            },
            _ => match after.chars().next() {
                Some('(') => {
                    let inner = after.get(1..).unwrap_or("");
                    let (n, tail) = inner.split_once(')').unwrap_or((inner, ""));
                    if !n.chars().all(is_name) {
                        match command(n) {
                            Some(c) => return Some(c),
                            None => {
                                rest = tail;
                                continue;
                            }
                        }
                    }
                    rest = tail;
                    secret(n)
                }
                Some('{') => {
                    let inner = after.get(1..).unwrap_or("");
                    secret(inner.split(|c: char| !is_name(c)).next().unwrap_or(""))
                }
                _ => secret(after.split(|c: char| !is_name(c)).next().unwrap_or("")),
            },
        };
        if found.is_some() {
            return found;
        }
    }
    None
}

/// The credential entries that are objects (others are profile findings).
fn credentials<'a>(ctx: &Ctx<'a>) -> Vec<(String, &'a crate::model::Credential)> {
    ctx.profile
        .credentials()
        .iter()
        .enumerate()
        .map(|(i, c)| (format!("/credentials/{i}"), c))
        .filter(|(p, _)| ctx.locator.pointer(p).and_then(|n| n.members()).is_some())
        .collect()
}

fn label(c: &crate::model::Credential) -> String {
    c.name.as_deref().map_or_else(
        || "unnamed credential".to_string(),
        |n| format!("credential `{n}`"),
    )
}

pub(crate) const CRD003: Rule = Rule {
    id: "CRD003",
    name: "long-lived-credential-source",
    area: Area::Credentials,
    severity: Severity::High,
    title: "a credential is static, read from a file or taken from the environment",
    rationale: "Static, file and environment credentials are long-lived: whatever the code under test copies stays usable after the task. A broker can issue a short-lived identity for this task alone.",
    remediation: "Set the credential's `source` to `broker`, with `scope` `task` and a short `ttl_seconds`.",
    runtime_check: Some(CheckKind::CredentialExpired),
    check: check_source,
};

fn check_source(ctx: &Ctx<'_>, e: &mut Emitter) {
    for (ptr, c) in credentials(ctx) {
        let f = format!("{ptr}/source");
        let why = match c.source {
            Some(CredentialSource::Broker) => continue,
            Some(CredentialSource::Static) => "is a static secret: it lives until someone rotates it, and every job that used it could have copied it",
            Some(CredentialSource::File) => "is read from a file, a long-lived secret that outlasts the task",
            Some(CredentialSource::Env) => "is taken from the launcher's environment, a long-lived secret passed along rather than issued for this task",
            None if ctx.present(&f) => continue,
            None => "declares no `source`, so nothing shows it is issued for this task by a broker",
        };
        e.emit(f, format!("{} {why}", label(c)))
            .evidence("source", c.source.map_or("not declared", |s| s.as_str()));
    }
}

pub(crate) const CRD004: Rule = Rule {
    id: "CRD004",
    name: "credential-scope-too-broad",
    area: Area::Credentials,
    severity: Severity::High,
    title: "a credential is not scoped to the task",
    rationale: "A user or organisation credential lets the job act with everything that user or organisation may do. A task scope limits the damage of a leak to what this job was meant to do.",
    remediation: "Set `scope` to `task` and have the broker grant only the permissions this job needs.",
    runtime_check: Some(CheckKind::CredentialExpired),
    check: check_scope,
};

fn check_scope(ctx: &Ctx<'_>, e: &mut Emitter) {
    for (ptr, c) in credentials(ctx) {
        let f = format!("{ptr}/scope");
        let why = match c.scope {
            Some(CredentialScope::Task) => continue,
            Some(CredentialScope::User) => {
                "is scoped to a user: the job can do whatever that person can"
            }
            Some(CredentialScope::Org) => {
                "is scoped to the organisation: the job can act across every project it covers"
            }
            None if ctx.present(&f) => continue,
            None => "declares no `scope`, so nothing limits it to this task",
        };
        e.emit(f, format!("{} {why}", label(c)))
            .evidence("scope", c.scope.map_or("not declared", |s| s.as_str()));
    }
}

pub(crate) const CRD005: Rule = Rule {
    id: "CRD005",
    name: "credential-ttl",
    area: Area::Credentials,
    severity: Severity::Medium,
    title: "a credential's lifetime is missing or longer than an hour",
    rationale: "A credential that outlives its task can be replayed by whoever copied it. Declaring a short lifetime lets the runtime verifier confirm it expires.",
    remediation: "Set `ttl_seconds` to the job's wall time or less, at most 3600.",
    runtime_check: Some(CheckKind::CredentialExpired),
    check: check_ttl,
};

fn check_ttl(ctx: &Ctx<'_>, e: &mut Emitter) {
    for (ptr, c) in credentials(ctx) {
        let f = format!("{ptr}/ttl_seconds");
        let why = match c.ttl_seconds {
            Some(0) => "has a TTL of 0, which many issuers read as never expiring".to_string(),
            Some(t) if t > MAX_TTL_SECONDS => {
                format!("lives {t} s, longer than the {MAX_TTL_SECONDS} s a single task needs")
            }
            Some(_) => continue,
            None if ctx.present(&f) => continue,
            None => "declares no `ttl_seconds`, so nothing shows it expires when the task ends"
                .to_string(),
        };
        let d = e.emit(f, format!("{} {why}", label(c)));
        d.evidence("max_seconds", MAX_TTL_SECONDS);
        if let Some(t) = c.ttl_seconds {
            d.evidence("ttl_seconds", t);
        }
    }
}

pub(crate) const CRD006: Rule = Rule {
    id: "CRD006",
    name: "credential-in-model-context",
    area: Area::Credentials,
    severity: Severity::Critical,
    title: "a credential is exposed to model context",
    rationale: "Text in a model's context can be echoed into answers, logs, commits and tool calls, and is shaped by whatever the repository under test contains. A credential placed there must be considered disclosed. A credential that does not say where it is exposed may be there, and blocks too (high).",
    remediation: "Set `exposed_to` to `job`, and let the runner inject the credential into the job without the model seeing it.",
    runtime_check: None,
    check: check_model_context,
};

fn check_model_context(ctx: &Ctx<'_>, e: &mut Emitter) {
    for (ptr, c) in credentials(ctx) {
        let f = format!("{ptr}/exposed_to");
        match c.exposed_to {
            Some(Exposure::ModelContext) => {
                e.emit(
                    f,
                    format!("{} is placed in the model's context, where prompts, logs and tool output can repeat it", label(c)),
                )
                .evidence("exposed_to", Exposure::ModelContext.as_str());
            }
            // Unreadable: a profile finding already blocks on it.
            None if ctx.present(&f) => {}
            // Not said: it may be in the model's context, so it blocks,
            // as a credential's missing `source` or `scope` does (high).
            None => {
                e.emit(
                    f,
                    format!("{} declares no `exposed_to`, so nothing shows it is kept out of the model's context", label(c)),
                )
                .severity(Severity::High)
                .evidence("exposed_to", "not declared");
            }
            Some(_) => {}
        }
    }
}

pub(crate) const CRD007: Rule = Rule {
    id: "CRD007",
    name: "credential-store-reachable",
    area: Area::Credentials,
    severity: Severity::Critical,
    title: "a variable points the job at a general credential store or agent",
    rationale: "Variables such as `SSH_AUTH_SOCK`, `KUBECONFIG`, `AWS_PROFILE`, `GOOGLE_APPLICATION_CREDENTIALS` or `DOCKER_HOST` lead to stores and agents that hold a person's or machine's long-lived authority, far beyond one task.",
    remediation: "Remove the variable. Give the job a task-scoped credential from a broker instead of a way into a general store.",
    runtime_check: Some(CheckKind::EnvExact),
    check: check_store_variables,
};

fn check_store_variables(ctx: &Ctx<'_>, e: &mut Emitter) {
    for (ptr, name, value) in variables(ctx) {
        // An empty value (Compose's `${AWS_PROFILE:-}` unset) names no
        // store: the tools read their defaults, as with the variable unset.
        if value.trim().is_empty() {
            continue;
        }
        if let Some(what) = store_variable(name) {
            e.emit(
                ptr,
                format!("the variable `{name}` points the job at {what}"),
            )
            .evidence("variable", name.to_ascii_uppercase());
        }
    }
}

pub(crate) const CRD008: Rule = Rule {
    id: "CRD008",
    name: "secret-in-command",
    area: Area::Credentials,
    severity: Severity::Critical,
    title: "a command or setup step carries a secret",
    rationale: "Arguments and shell text are visible in process listings, logs, shell history and the profile itself. A secret there is disclosed to every process on the machine and every reader. isolint never repeats it.",
    remediation: "Remove the secret and rotate it. Pass credentials through a broker-issued task credential, never on the command line.",
    runtime_check: None,
    check: check_secret_in_command,
};

fn check_secret_in_command(ctx: &Ctx<'_>, e: &mut Emitter) {
    for (base, cmd) in ctx.profile.commands() {
        let mut words: Vec<&str> = Vec::new();
        let executable = cmd.executable.as_deref();
        if let Some(x) = executable {
            words.push(x);
        }
        words.extend(cmd.arguments().iter().map(String::as_str));
        // A word's pointer and how a message names it.
        let word = |i: usize| match (executable, i) {
            (Some(_), 0) => (format!("{base}/executable"), "the executable".to_string()),
            (Some(_), i) => (
                format!("{base}/arguments/{}", i - 1),
                format!("argument {}", i - 1),
            ),
            (None, i) => (format!("{base}/arguments/{i}"), format!("argument {i}")),
        };
        let mut hits = secret_words(&words);
        hits.dedup_by_key(|(i, _)| *i);
        for &(i, how) in &hits {
            // Pointers are written for the words that hold a secret only.
            let (p, what) = word(i);
            e.emit(p, format!("{what} of `{base}` carries a secret; command lines show up in process lists, logs and shell history"))
                .evidence("detected_by", how);
        }
        // A word that is a line of shell text of its own (`sh -c "…"`,
        // `ssh host "…"`, `su -c "…"`), read as the `shell` field is.
        for (i, w) in words.iter().enumerate() {
            if hits.iter().any(|&(h, _)| h == i) || !w.contains(char::is_whitespace) {
                continue;
            }
            let (p, what) = word(i);
            shell_text(e, p, &format!("{what} of `{base}`"), w);
        }
        if let Some(sh) = cmd.shell.as_deref() {
            shell_text(
                e,
                format!("{base}/shell"),
                &format!("the shell text of `{base}`"),
                sh,
            );
        }
    }
}

/// A finding at `pointer` when shell `text` carries secret-looking values,
/// found in its words as the secret collector reads them, so that what is
/// masked on the command line is also reported.
fn shell_text(e: &mut Emitter, pointer: String, what: &str, text: &str) {
    let found = line_secrets(text, false);
    if found.is_empty() {
        return;
    }
    let mut kinds: Vec<&str> = found.iter().map(|f| f.how).collect();
    crate::sort::sort(&mut kinds);
    kinds.dedup();
    e.emit(
        pointer,
        format!(
            "{what} carries {}; command lines show up in process lists, logs and shell history",
            crate::text::plural(found.len(), "secret-looking value")
        ),
    )
    .evidence("count", found.len())
    .evidence("detected_by", kinds);
}

pub const RULES: &[&Rule] = &[
    &CRD001, &CRD002, &CRD003, &CRD004, &CRD005, &CRD006, &CRD007, &CRD008,
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::date::Date;
    use crate::report::{audit, AuditOptions, Labels};

    fn fired(profile: &str) -> Vec<(String, String, Severity, String)> {
        let opts = AuditOptions {
            today: Date::parse("2026-11-29"),
        };
        let r = audit(profile.as_bytes(), "t.json", &Labels::workshop(), &opts).unwrap();
        r.issues
            .iter()
            .filter(|f| f.rule.starts_with("CRD"))
            .map(|f| {
                (
                    f.rule.to_string(),
                    f.pointer.clone(),
                    f.severity,
                    format!("{} {:?}", f.message, f.evidence),
                )
            })
            .collect()
    }

    fn has(f: &[(String, String, Severity, String)], rule: &str, ptr: &str) -> bool {
        f.iter().any(|(r, p, _, _)| r == rule && p == ptr)
    }

    /// issue 44 §3: a value under a secret-looking name that is clearly
    /// not a secret (e-mail addresses, a setting, a URL without credentials,
    /// a small number) is no critical written secret; anything else under
    /// such a name still is (fail closed), including values that only look
    /// like those shapes. Each row: (name, value, whether CRD002 reports it
    /// as critical). A failure names the row's number, never the value.
    #[test]
    fn values_clearly_not_secrets_under_secret_names() {
        const ROWS: &[(&str, &str, bool)] = &[
            // Clearly not secrets.
            ("SECRET_RECIPIENTS", "ops@example.com", false),
            (
                "PASSWORD_RESET_NOTIFY",
                "ops@example.com, security@example.org",
                false,
            ),
            (
                "TOKEN_OWNERS",
                "a.b@example.com;c-d+ci@sub.example.co.uk",
                false,
            ),
            ("API_TOKEN", "true", false),
            ("DB_PASSWORD", "disabled", false),
            ("AUTH_TOKEN", "https://auth.example.com/oauth/token", false),
            ("OAUTH_SECRET", "https://login.example.org/", false),
            ("SECRET_KEY_ROTATION", "30", false),
            // Still secrets.
            ("DB_PASSWORD", "hunter2pw", true),
            ("DB_PASSWORD", "p@ssw0rd", true),
            ("DB_PASSWORD", "ops@example", true),
            ("DB_PASSWORD", "ops@example.com:hunter2", true),
            ("SMTP_PASSWORD", "ops@example.com hunter2pw", true),
            ("API_TOKEN", "https://u:hunter2pw@api.example.com/", true),
            (
                "API_TOKEN",
                "https://api.example.com/v1?key=Zq9xK2mL7p",
                true,
            ),
            (
                "API_TOKEN",
                "https://api.example.com/hooks/Zq9xK2mL7pQ4rT8v",
                true,
            ),
            (
                "API_TOKEN",
                "https://hooks.slack.com/services/T0ABCDEFG/B0ABCDEFG/abcdefghijklmnopqrstuvwx",
                true,
            ),
            ("DB_PASSWORD", "987654321", true),
        ];
        let mut wrong = Vec::new();
        for (row, &(name, value, critical)) in ROWS.iter().enumerate() {
            let mut p: serde_json::Value =
                serde_json::from_str(crate::WORKSHOP_PROFILE_FIXED).unwrap();
            p["environment"]["variables"] = serde_json::json!({ name: value });
            let f = fired(&p.to_string());
            let ptr = format!("/environment/variables/{name}");
            let got = f
                .iter()
                .any(|(r, q, sev, _)| r == "CRD002" && *q == ptr && *sev == Severity::Critical);
            if got != critical {
                wrong.push(format!(
                    "row {row} ({name}): critical {got}, want {critical}"
                ));
            }
        }
        assert!(
            wrong.is_empty(),
            "{} wrong:\n{}",
            wrong.len(),
            wrong.join("\n")
        );
    }

    /// A value the launcher fills in at start (a reference to its own
    /// variable, or a command's output) is judged by what it reaches: a
    /// secret's name, or any file a command can read, blocks; a reference
    /// to another variable of the same list stays inside the job.
    #[test]
    fn values_filled_in_by_the_launcher_are_judged_by_what_they_reach() {
        let blocks = |vars: &str| -> Vec<(String, Severity)> {
            let p = crate::WORKSHOP_PROFILE_FIXED.replace(
                r#""variables": { "LANG": "C.UTF-8" }"#,
                &format!(r#""variables": {{ "LANG": "C.UTF-8", {vars} }}"#),
            );
            assert_ne!(p, crate::WORKSHOP_PROFILE_FIXED);
            fired(&p)
                .into_iter()
                .filter(|(r, _, s, _)| r == "CRD002" && s.blocks())
                .map(|(_, p, s, _)| (p, s))
                .collect()
        };
        let high = |var: &str| vec![(format!("/environment/variables/{var}"), Severity::High)];
        for (vars, want) in [
            (r#""GH": "${GITHUB_TOKEN}""#, high("GH")),
            (r#""GH": "$GITHUB_TOKEN""#, high("GH")),
            (r#""GH": "token ${GITHUB_TOKEN:-none}""#, high("GH")),
            (r#""GH": "Bearer $(GITHUB_TOKEN)""#, high("GH")),
            (r#""GH": "%GITHUB_TOKEN%""#, high("GH")),
            (r#""A": "x:${AWS_SECRET_ACCESS_KEY}""#, high("A")),
            (
                r#""AWS": "$(cat /home/botie/.aws/credentials)""#,
                high("AWS"),
            ),
            (r#""AWS": "`cat ~/.aws/credentials`""#, high("AWS")),
            (r#""V": "$(vault read -field=token secret/x)""#, high("V")),
            (r#""GITHUB_TOKEN": "${GITHUB_TOKEN}""#, high("GITHUB_TOKEN")),
            (r#""P": "${PATH}:/opt/bin""#, vec![]),
            (r#""H": "$HOME/cache""#, vec![]),
            (r#""U": "$(USER_NAME)""#, vec![]),
            (r#""PRICE": "5$""#, vec![]),
            (r#""XDG_RUNTIME_DIR": "/run/user/`id -u`""#, vec![]),
            (r#""X": "`id -u`:`cat ~/.netrc`""#, high("X")),
            (r#""STAMP": "$(date +%s)-${GITHUB_TOKEN}""#, high("STAMP")),
            (r#""STAMP": "$(date +%s)""#, vec![]),
            (r#""T": "${TOKEN_FILE_PATH}""#, vec![]),
        ] {
            assert_eq!(blocks(vars), want, "{vars}");
        }
    }

    #[test]
    fn workshop_profiles() {
        let f = fired(include_str!("../../../fixtures/profiles/workshop.json"));
        assert!(has(&f, "CRD001", "/environment/inherit"));
        assert!(has(
            &f,
            "CRD002",
            "/environment/variables/AWS_SECRET_ACCESS_KEY"
        ));
        assert!(has(&f, "CRD003", "/credentials/0/source"));
        assert!(has(&f, "CRD004", "/credentials/0/scope"));
        assert!(has(&f, "CRD005", "/credentials/0/ttl_seconds"));
        assert!(
            !f.iter().any(|x| x.3.contains("wJalr")),
            "secret echoed: {f:?}"
        );
        let f = fired(include_str!(
            "../../../fixtures/profiles/workshop-fixed.json"
        ));
        assert!(f.is_empty(), "{f:?}");
    }

    #[test]
    fn secret_names_and_values() {
        assert!(secret_by_name("DB_PASSWORD", "hunter2"));
        assert!(secret_by_name("DB_PASSWORD", "secret"));
        assert!(!secret_by_name("DB_PASSWORD", "${DB_PASSWORD}"));
        assert!(!secret_by_name("API_TOKEN", "/run/secrets/token"));
        assert!(!secret_by_name("AUTH_MODE", "none"));
        assert!(!secret_by_name("AUTH_METHOD", "oauth"));
        assert!(secret_by_name("AUTH_HEADER", "Basic dXNlcjpwYXNz"));
        assert!(!secret_by_name("LANG", "C.UTF-8"));
        assert!(
            is_reference("$X")
                && is_reference("${X_1}")
                && !is_reference("$")
                && !is_reference("a$b")
        );
    }

    /// Every variable of the store table, set to a plain path or URL, is
    /// reported by CRD007 at its pointer and blocks.
    /// A credential inside a longer value is found, whatever the variable
    /// is called; words that merely sit near one (`-field=token`) are not.
    #[test]
    fn a_secret_inside_a_value_is_found() {
        let jwt = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhYmMxMjMifQ.c2lnbmF0dXJlMTIzNDU2Nzg";
        let ghp = "ghp_Zk1abcdefghijklmnopqrstuvwxyz0123456";
        for (value, secret) in [
            (format!("Bearer {jwt}"), true),
            (format!("token={ghp}"), true),
            (format!("--auth {ghp} --verbose"), true),
            ("C.UTF-8".to_string(), false),
            ("/usr/local/bin:/usr/bin:/bin".to_string(), false),
            ("https://pypi.org/simple".to_string(), false),
            ("--maxfail=1 -q tests/test_date.py".to_string(), false),
            ("vault read -field=token secret/x".to_string(), false),
        ] {
            let p = format!(
                r#"{{"name":"t","environment":{{"inherit":false,"variables":{{"AUTHZ":"{value}"}}}}}}"#
            );
            let f = fired(&p);
            let hit = f.iter().any(|(r, q, s, _)| {
                r == "CRD002" && q == "/environment/variables/AUTHZ" && *s == Severity::Critical
            });
            assert_eq!(hit, secret, "{value}: {f:?}");
        }
    }

    #[test]
    fn every_store_variable_is_reported() {
        for (name, _) in STORE_VARIABLES {
            let p = format!(
                r#"{{"name":"t","environment":{{"inherit":false,"variables":{{"{name}":"/run/x/y"}}}}}}"#
            );
            let f = fired(&p);
            let ptr = format!("/environment/variables/{name}");
            assert!(
                f.iter()
                    .any(|(r, q, s, _)| r == "CRD007" && *q == ptr && s.blocks()),
                "{name}: {f:?}"
            );
        }
    }

    #[test]
    fn an_empty_store_variable_names_no_store() {
        for (name, _) in STORE_VARIABLES {
            for value in ["", " "] {
                let p = format!(
                    r#"{{"name":"t","environment":{{"inherit":false,"variables":{{"{name}":"{value}"}}}}}}"#
                );
                assert!(
                    !has(
                        &fired(&p),
                        "CRD007",
                        &format!("/environment/variables/{name}")
                    ),
                    "{name}"
                );
            }
        }
    }

    #[test]
    fn store_variables_are_not_double_reported() {
        let p = r#"{"name":"t","environment":{"inherit":false,"variables":{"GOOGLE_APPLICATION_CREDENTIALS":"/keys/sa.json","SSH_AUTH_SOCK":"/tmp/ssh-x/agent.1","LANG":"C"}}}"#;
        let f = fired(p);
        assert!(has(
            &f,
            "CRD007",
            "/environment/variables/GOOGLE_APPLICATION_CREDENTIALS"
        ));
        assert!(has(&f, "CRD007", "/environment/variables/SSH_AUTH_SOCK"));
        assert!(!f.iter().any(|x| x.0 == "CRD002"), "{f:?}");
    }

    /// Shell text handed over in one argument (`sh -c "…"`, `ssh host "…"`,
    /// `su -c "…"`) is read as the collector reads it: its words, so a
    /// password option inside is reported where it stands, never echoed.
    #[test]
    fn secrets_in_shell_text_held_by_one_argument() {
        let inner = [
            ("mysql -p S3cretPw1x", "S3cretPw1x"),
            ("mysql --password=S3cretPw1x db", "S3cretPw1x"),
            ("redis-cli -a S3cretPw1x ping", "S3cretPw1x"),
            ("curl -u ci:Pa55word99x https://x.example", "Pa55word99x"),
            (
                "export GITHUB_TOKEN=ghp_abcdefghijklmnopqrstuvwxyz0123 && make",
                "ghp_abcdefghij",
            ),
            ("sudo -u ci mysql -p S3cretPw1x", "S3cretPw1x"),
        ];
        let outer: &[&[&str]] = &[
            &["sh", "-c"],
            &["bash", "-lc"],
            &["/bin/sh", "-e", "-c"],
            &["su", "ci", "-c"],
            &["ssh", "build-host"],
            &["docker", "exec", "runner", "sh", "-c"],
            &["env", "X=1", "sh", "-c"],
        ];
        for (text, secret) in inner {
            for o in outer {
                let (exe, args) = o.split_first().unwrap();
                let mut arguments: Vec<&str> = args.to_vec();
                arguments.push(text);
                let at = arguments.len() - 1;
                let p = serde_json::json!({
                    "name": "t",
                    "command": {"executable": exe, "arguments": arguments}
                })
                .to_string();
                let f = fired(&p);
                let ptr = format!("/command/arguments/{at}");
                assert!(has(&f, "CRD008", &ptr), "{exe} {args:?} {text:?}: {f:?}");
                assert!(
                    !f.iter().any(|x| x.3.contains(secret)),
                    "{secret} echoed: {f:?}"
                );
            }
        }
        // Words with no secret in them are not a finding.
        let p = r#"{"name":"t","command":{"executable":"sh","arguments":["-c","make test && echo done"]}}"#;
        assert!(!fired(p).iter().any(|x| x.0 == "CRD008"));
    }

    #[test]
    fn secrets_in_commands_without_echo() {
        let p = r#"{"name":"t","command":{"executable":"curl","arguments":["--token","Zq8xWm3pLk9v","-H","x","https://u:hunter22@example.com/"]},"setup":[{"shell":"export GITHUB_TOKEN=ghp_abcdefghijklmnopqrstuvwxyz0123 && make"},{"executable":"mysql","arguments":["--password=S3cretPass!","--auth-type","basic"]}]}"#;
        let f = fired(p);
        assert!(has(&f, "CRD008", "/command/arguments/1"), "{f:?}");
        assert!(has(&f, "CRD008", "/command/arguments/4"));
        assert!(!has(&f, "CRD008", "/command/arguments/0"));
        assert!(has(&f, "CRD008", "/setup/0/shell"));
        assert!(has(&f, "CRD008", "/setup/1/arguments/0"));
        assert!(!has(&f, "CRD008", "/setup/1/arguments/2"));
        for secret in ["Zq8xWm3pLk9v", "hunter22", "ghp_", "S3cretPass"] {
            assert!(
                !f.iter().any(|x| x.3.contains(secret)),
                "{secret} echoed: {f:?}"
            );
        }
    }

    /// Every field that says what a credential can reach blocks when it is
    /// left out of the fixed workshop job's credential: an unstated
    /// source, scope or exposure is never assumed to be the safe one. The
    /// lifetime says how long a leak lasts, not what it reaches: CRD005
    /// reports it missing at its own severity (medium), and the cleanup
    /// rules hold the expiry itself.
    #[test]
    fn an_unstated_credential_field_blocks() {
        let mut fixed: serde_json::Value =
            serde_json::from_str(crate::WORKSHOP_PROFILE_FIXED).unwrap();
        fixed["credentials"] = serde_json::json!([{"name": "artifact-upload", "source": "broker",
            "scope": "task", "ttl_seconds": 900, "exposed_to": "job"}]);
        let audit = |p: &serde_json::Value| {
            crate::audit(
                p.to_string().as_bytes(),
                "t.json",
                &crate::Labels::workshop(),
                &crate::AuditOptions::default(),
            )
            .unwrap()
        };
        assert_eq!(
            audit(&fixed).verdict,
            crate::Verdict::EligibleForRuntimeTesting,
            "the whole credential is fine"
        );
        let fields: Vec<String> = fixed["credentials"][0]
            .as_object()
            .unwrap()
            .keys()
            .filter(|k| *k != "name" && *k != "ttl_seconds")
            .cloned()
            .collect();
        assert_eq!(fields, ["exposed_to", "scope", "source"]);
        for field in fields {
            let mut p = fixed.clone();
            p["credentials"][0].as_object_mut().unwrap().remove(&field);
            let r = audit(&p);
            let pointer = format!("/credentials/0/{field}");
            assert!(
                r.issues
                    .iter()
                    .any(|f| f.pointer == pointer && f.severity.blocks()),
                "{pointer}: {:?}",
                r.issues
                    .iter()
                    .map(|f| (f.rule, &f.pointer, f.severity))
                    .collect::<Vec<_>>()
            );
        }
    }

    #[test]
    fn credential_fields() {
        let p = r#"{"name":"t","environment":{"inherit":false},"credentials":[{"name":"a","source":"broker","scope":"task","ttl_seconds":7200,"exposed_to":"model-context"},{"name":"b","source":"broker","scope":"task","ttl_seconds":0,"exposed_to":"job"},{"name":"c","source":"broker","scope":"task","ttl_seconds":900,"exposed_to":"job"}]}"#;
        let f = fired(p);
        assert!(
            has(&f, "CRD005", "/credentials/0/ttl_seconds")
                && has(&f, "CRD005", "/credentials/1/ttl_seconds")
        );
        assert!(has(&f, "CRD006", "/credentials/0/exposed_to"));
        assert!(
            !f.iter().any(|x| x.1.starts_with("/credentials/2")),
            "{f:?}"
        );
    }
}
