//! Secrets found where they are written, and nothing else (issue 44 §3,
//! issue 46 "names masked as secrets").
//!
//! Two tables over the whole audit:
//! - values under secret-looking names, in the environment and in shell
//!   text, that are clearly not written secrets (numbers, settings, empty,
//!   references, values read at run time, paths, e-mail lists, module
//!   names), beside true secrets that must stay found;
//! - variable names that are no credential, which every output must show
//!   as they are (messages, evidence, JSON pointers), beside names that are
//!   themselves credentials, which are masked and pointed at by index.
//!
//! A failure names the row, never the secret.

use isolint_core::{audit, AuditOptions, Date, Finding, Labels, Severity, WORKSHOP_PROFILE_FIXED};

fn findings(profile: &serde_json::Value) -> Vec<Finding> {
    let opts = AuditOptions {
        today: Date::parse("2026-11-29"),
    };
    let text = profile.to_string();
    audit(text.as_bytes(), "t.json", &Labels::workshop(), &opts)
        .expect("the profile parses")
        .issues
}

/// The fixed workshop job with `vars` as its environment.
fn with_variables(vars: serde_json::Value) -> serde_json::Value {
    let mut p: serde_json::Value = serde_json::from_str(WORKSHOP_PROFILE_FIXED).unwrap();
    p["environment"]["variables"] = vars;
    p
}

/// The fixed workshop job with `text` as its one setup step's shell text.
fn with_setup_shell(text: &str) -> serde_json::Value {
    let mut p: serde_json::Value = serde_json::from_str(WORKSHOP_PROFILE_FIXED).unwrap();
    p["setup"] = serde_json::json!([{ "shell": text }]);
    p
}

/// (name, value, whether CRD002 reports it as a critical written secret)
const VARIABLES: &[(&str, &str, bool)] = &[
    // A module, a plugin, a flag: settings under a name holding `token`.
    ("JWT_TOKEN_AUTH_MODULE", "0", false),
    ("JWT_TOKEN_AUTH_MODULE", "token_verification", false),
    ("TOKEN_AUTH_PLUGIN", "mod_auth_token", false),
    // Numbers, booleans, empty.
    ("API_TOKEN", "1", false),
    ("API_TOKEN", "false", false),
    ("API_KEY", "none", false),
    ("DB_PASSWORD", "", false),
    ("PASSWORD_MIN_LENGTH", "12", false),
    ("AUTH_TOKEN_TTL", "3600", false),
    // References, and values the launcher reads at run time.
    ("SECRET_KEY", "${SECRET_KEY}", false),
    ("DB_PASS", "$DB_PASS_FROM_VAULT", false),
    ("SESSION_SECRET", "${SESSION_SECRET:-}", false),
    ("JWT_SECRET", "${JWT_SECRET:?required}", false),
    ("SESSION_SECRET", "${SESSION_SECRET-}", false),
    ("DB_PASSWORD", "$(cat /run/secrets/db)", false),
    ("PASS", "$(cat $FILE)", false),
    ("DB_PASSWORD", "`cat /run/secrets/db`", false),
    ("API_TOKEN", "${TOKEN_PREFIX}${TOKEN_BODY}", false),
    // Files that hold the secret.
    ("DB_PASSWORD", "/run/secrets/db_password", false),
    ("DB_PASSWORD", "./secrets/db.txt", false),
    ("API_TOKEN", "~/.config/tool/token", false),
    // Address books.
    (
        "SECRET_RECIPIENTS",
        "ops@example.com,dev@example.com",
        false,
    ),
    // Written secrets, which stay found.
    ("DB_PASSWORD", "hunter2pw", true),
    ("JWT_SECRET", "s3cr3t-value-42", true),
    ("API_KEY", "Zq9xK2mL7pQ4rT8vW3yB6nC1", true),
    (
        "GITHUB_TOKEN",
        "ghp_Zk7abcdefghijklmnopqrstuvwxyz012345",
        true,
    ),
    ("DB_PASSWORD", "987654321", true),
    ("DB_PASSWORD", "hunter2pw${SUFFIX}", true),
    (
        "SESSION_SECRET",
        "${SESSION_SECRET:-Zk9defaultSecret}",
        true,
    ),
    ("SMTP_PASSWORD", "ops@example.com hunter2pw", true),
    ("REDIS_PASSWORD", "changeme", true),
    (
        "NPM_TOKEN",
        "npm_Zk7abcdefghijklmnopqrstuvwxyz0123456",
        true,
    ),
];

/// (setup shell text, whether CRD008 reports it)
const SHELL: &[(&str, bool)] = &[
    // Read at run time, from a file, a command or the environment.
    ("PASS=\"$(cat $FILE)\"; mysql -u root -p\"$PASS\" db", false),
    (
        "export DB_PASSWORD=\"$(cat /run/secrets/db)\" && ./start",
        false,
    ),
    (
        "TOKEN=$(vault read -field=token secret/x) make deploy",
        false,
    ),
    ("export SECRET_KEY=$(openssl rand -hex 32)", false),
    ("API_KEY=${API_KEY:-} ./run.sh", false),
    (
        "echo \"$PASSWORD\" | docker login -u ci --password-stdin reg",
        false,
    ),
    ("mysql --password=\"$DB_PASSWORD\" db", false),
    ("mysql -p\"$(cat /run/secrets/db)\" db", false),
    ("curl -u \"$USER:$PASS\" https://x.example", false),
    ("PASSWORD_FILE=/run/secrets/db ./start", false),
    ("redis-cli -a \"${REDIS_PASSWORD}\" ping", false),
    // Written on the line.
    ("PASS=hunter2pw ./run", true),
    ("mysql -phunter2pw db", true),
    ("export DB_PASSWORD=\"hunter2 pw\"", true),
    ("sh -c \"mysql -u root -p'S3cretPw1x' db\"", true),
    (
        "echo Pc7stdin77 | docker login -u ci --password-stdin reg",
        true,
    ),
    ("cd /w && sudo mysql -p Pc5mysql55", true),
    ("x=$(redis-cli -a Pc4redis44 ping)", true),
];

#[test]
fn values_that_are_no_written_secret_are_not_reported_as_one() {
    let mut wrong = Vec::new();
    for (row, &(name, value, critical)) in VARIABLES.iter().enumerate() {
        let f = findings(&with_variables(serde_json::json!({ name: value })));
        let ptr = format!("/environment/variables/{name}");
        let got = f
            .iter()
            .any(|x| x.rule == "CRD002" && x.pointer == ptr && x.severity == Severity::Critical);
        if got != critical {
            wrong.push(format!(
                "variable row {row} ({name}): critical {got}, want {critical}"
            ));
        }
    }
    for (row, &(text, reported)) in SHELL.iter().enumerate() {
        let f = findings(&with_setup_shell(text));
        let got = f
            .iter()
            .any(|x| x.rule == "CRD008" && x.pointer == "/setup/0/shell");
        if got != reported {
            wrong.push(format!("shell row {row}: reported {got}, want {reported}"));
        }
    }
    let rows = VARIABLES.len() + SHELL.len();
    assert!(rows >= 30);
    assert!(
        wrong.is_empty(),
        "{} of {rows} wrong:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}

/// Names of variables that are no credential, however they look: vendor
/// prefixes followed by words, long mixed-case names with digits, dotted
/// and dashed names, names next to a value that is a secret.
const NAMES: &[&str] = &[
    "npm_config_https_proxy",
    "npm_config_registry",
    "npm_config_cache_folder",
    "hf_home_directory",
    "hf_hub_offline_mode",
    "pypi-mirror-url",
    "sk-learn-cache-directory",
    "dop_v1_settings_path",
    "xapp-level-token-path",
    "ghp_token_file_location",
    "glpat-rotation-schedule",
    "myS3BucketNameForBackups",
    "GoogleCloudProject2Region",
    "spring.datasource.password",
    "DB_PASSWORD",
    "AWS_SECRET_ACCESS_KEY",
    "github-token",
    "TOKEN",
    "sk_live_mode_enabled",
    "npm_lifecycle_event",
    "SG.delivery.region",
    "AIzaRegionEndpointName",
];

#[test]
fn names_are_shown_as_written_and_only_credentials_are_masked() {
    let secret = "Zq9xK2mL7pQ4rT8vW3yB6nC1";
    let mut wrong = Vec::new();
    for (row, &name) in NAMES.iter().enumerate() {
        let f = findings(&with_variables(serde_json::json!({
            "LANG": "C.UTF-8",
            name: secret,
        })));
        let ptr = format!(
            "/environment/variables/{}",
            name.replace('~', "~0").replace('/', "~1")
        );
        let Some(hit) = f.iter().find(|x| x.rule == "CRD002") else {
            wrong.push(format!("name row {row} ({name}): no CRD002"));
            continue;
        };
        if hit.pointer != ptr {
            wrong.push(format!("name row {row} ({name}): pointer {}", hit.pointer));
        }
        if !hit.message.contains(&format!("`{name}`")) {
            wrong.push(format!("name row {row} ({name}): message {}", hit.message));
        }
        let shown = format!("{:?}", hit.evidence);
        if !shown.contains(name) {
            wrong.push(format!("name row {row} ({name}): evidence {shown}"));
        }
        let all = format!("{f:?}");
        if all.contains(secret) {
            wrong.push(format!("name row {row} ({name}): the value is shown"));
        }
    }
    // A name that is itself a credential (a token written where a name
    // goes): masked everywhere, and the pointer names the member by its
    // index, so it still leads to the entry.
    for (row, name) in [
        "ghp_Zk7abcdefghijklmnopqrstuvwxyz012345",
        "API_KEY: Pl4ntK-key55",
        "AKIAQZ7PLANT0EXAMPL1",
    ]
    .into_iter()
    .enumerate()
    {
        let vars = serde_json::json!({
            "LANG": "C.UTF-8",
            name: secret,
        });
        // The member's index as the document written holds it.
        let index = vars.as_object().unwrap().keys().position(|k| k == name);
        let want = format!("/environment/variables/{}", index.unwrap());
        let f = findings(&with_variables(vars));
        let all = format!("{f:?}");
        let key = name.rsplit(' ').next().unwrap();
        if all.contains(key) {
            wrong.push(format!("credential name row {row}: shown"));
        }
        let pointers: Vec<&str> = f
            .iter()
            .map(|x| x.pointer.as_str())
            .filter(|p| p.starts_with("/environment/variables/"))
            .collect();
        let crd002 = f.iter().any(|x| x.rule == "CRD002" && x.pointer == want);
        if !crd002 || pointers.iter().any(|p| *p != want) {
            wrong.push(format!("credential name row {row}: pointers {pointers:?}"));
        }
    }
    let rows = NAMES.len() + 3;
    assert!(NAMES.len() >= 20);
    assert!(
        wrong.is_empty(),
        "{} wrong of {rows} rows:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}
