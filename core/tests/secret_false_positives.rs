//! Values that are not secrets under secret-sounding names, found false in
//! the real corpus (issue 44): a setting that names an auth module or a
//! switch (`JWT_TOKEN_AUTH_MODULE=0`), and a shell assignment whose value
//! the shell reads at run time (`PASS="$(cat $FILE)"`). Each row is a
//! class, with rows that must keep firing beside it so a fix cannot pass
//! by muting the rule.

use isolint_core::{audit, AuditOptions, Date, Labels};

/// The workshop profile with one field replaced.
fn profile(pointer: &str, value: serde_json::Value) -> String {
    let mut p: serde_json::Value =
        serde_json::from_str(isolint_core::WORKSHOP_PROFILE_FIXED).unwrap();
    *p.pointer_mut(pointer).unwrap() = value;
    serde_json::to_string_pretty(&p).unwrap()
}

fn env(name: &str, value: &str) -> String {
    profile(
        "/environment/variables",
        serde_json::json!({ "LANG": "C.UTF-8", name: value }),
    )
}

fn shell(line: &str) -> String {
    profile("/command", serde_json::json!({ "shell": line }))
}

/// The same line as the script of `sh -euc`, the way Compose files write it.
fn sh_c(line: &str) -> String {
    profile(
        "/command",
        serde_json::json!({ "executable": "sh", "arguments": ["-euc", line] }),
    )
}

fn fires(text: &str, rule: &str) -> bool {
    let opts = AuditOptions {
        today: Date::parse("2026-11-29"),
    };
    let r = audit(text.as_bytes(), "p.json", &Labels::workshop(), &opts).unwrap();
    r.issues.iter().any(|i| i.rule == rule)
}

/// (what, profile, rule, whether it must fire)
fn table() -> Vec<(String, String, &'static str, bool)> {
    let mut rows = Vec::new();
    // CRD002: a variable named like a secret whose name says it holds a
    // setting (a module, a plugin, a switch) or whose value is a switch.
    for (name, value, secret) in [
        ("JWT_TOKEN_AUTH_MODULE", "0", false),
        ("JWT_TOKEN_AUTH_MODULE", "token_verification", false),
        ("JWT_TOKEN_AUTH_MODULE", "${JWT_TOKEN_AUTH_MODULE}", false),
        ("TOKEN_AUTH_MODULE", "mod_auth_token", false),
        ("PASSWORD_AUTH_PLUGIN", "caching_sha2_password", false),
        ("AUTH_TOKEN_PLUGINS", "jwt,oauth", false),
        ("SECRET_BACKEND_MODULE", "vault", false),
        ("ENABLE_TOKEN_AUTH", "0", false),
        // Compose's list form keeps the quotes: `- SENTRY_DSN="${X:-0}"`.
        ("SENTRY_DSN", "\"0\"", false),
        ("JWT_TOKEN_AUTH_MODULE", "\"0\"", false),
        ("AUTH_TOKEN_ENABLED", "'false'", false),
        ("TOKEN_AUTH", "1", false),
        ("JWT_SECRET", "Zk4notARealSecretButShaped9", true),
        ("DB_PASSWORD", "Zk5hunter2hunter2", true),
        ("API_TOKEN", "Zk6abcdef0123456789abcdef", true),
    ] {
        rows.push((
            format!("{name}={value}"),
            env(name, value),
            "CRD002",
            secret,
        ));
    }
    // CRD008: an assignment on a command line whose value is a command
    // substitution or another variable, read when the shell runs.
    for (line, secret) in [
        ("export PASS=\"$(cat $FILE)\"; exec app", false),
        (
            "export RABBITMQ_DEFAULT_PASS=\"$(cat $RABBITMQ_PASSWORD_FILE)\"; exec rabbitmq-server",
            false,
        ),
        ("PASSWORD=$(cat /run/secrets/db) exec app", false),
        ("DB_PASS=`cat /run/secrets/pw` exec app", false),
        ("export TOKEN=\"${TOKEN_FROM_VAULT}\"; exec app", false),
        (
            "export API_KEY=\"$(vault read -field=key secret/app)\"; exec app",
            false,
        ),
        // Text written for another program's own expansion: RabbitMQ's
        // `$(NAME)` in a config line, single-quoted so the shell keeps it.
        (
            "echo 'default_pass = $(RABBITMQ_DEFAULT_PASS)' >> /etc/rabbitmq/rabbitmq.conf",
            false,
        ),
        ("echo 'password = ${DB_PASSWORD}' > app.ini", false),
        ("echo 'password = Zk9hunter2hunter2' > app.ini", true),
        ("export PASS=Zk7hunter2hunter2; exec app", true),
        ("DB_PASSWORD='Zk8s3cr3tValue!' exec app", true),
    ] {
        rows.push((line.to_string(), shell(line), "CRD008", secret));
        rows.push((format!("sh -euc {line}"), sh_c(line), "CRD008", secret));
    }
    rows
}

#[test]
fn values_that_are_not_secrets_are_not_reported() {
    let rows = table();
    let wrong: Vec<String> = rows
        .iter()
        .filter(|(_, text, rule, secret)| fires(text, rule) != *secret)
        .map(|(what, _, rule, secret)| {
            let want = if *secret { "fire" } else { "stay silent" };
            format!("{rule} should {want} on `{what}`")
        })
        .collect();
    assert!(
        wrong.is_empty(),
        "{} of {}:\n{}",
        wrong.len(),
        rows.len(),
        wrong.join("\n")
    );
}
