//! The unit tests of the secret modules, which read across them.

use super::collect::*;
use super::command_line::*;
use super::mask::*;
use super::names::*;
use super::scrub::*;
use super::shapes::*;
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
    // A pipe joins two commands: the line is read by the shell analysis.
    let found = line_secrets("echo alice:Hunter2Secret | /usr/sbin/CHPASSWD", false);
    assert!(found.iter().any(|f| f.part == "alice:Hunter2Secret"));
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
    // A name after a prefix is no token: the same test as the module's,
    // which `reads_as_words_splits_names_as_names_are_read` holds.
    if PREFIXES.iter().any(|p| {
        v.starts_with(p)
            && v.as_bytes().get(p.len()..p.len() + 8).is_some_and(|body| {
                body.iter()
                    .all(|c| c.is_ascii_alphanumeric() || b"+/=_-.".contains(c))
            })
            && !reads_as_words(&v.as_bytes()[p.len()..])
    }) {
        return true;
    }
    if v.starts_with("sk-") && v.len() >= 20 && !reads_as_words(&v.as_bytes()[3..]) {
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
    !uuid && classes == 3 && digit >= 1 && upper >= 2 && lower >= 2 && !reads_as_words(v.as_bytes())
}

/// Names read as words, random text not: the split of `name_words`, on
/// bytes, with its limits.
#[test]
fn reads_as_words_splits_names_as_names_are_read() {
    for name in [
        "config_https_proxy",
        "RegionEndpointName",
        "myS3BucketNameForBackups",
        "GoogleCloudProject2Region",
        "delivery.region",
        "learn-cache-directory",
        "XMLHttpRequest",
    ] {
        assert!(reads_as_words(name.as_bytes()), "{name}");
        let words = name_words(name);
        assert!(
            words.len() >= 2 && words.iter().all(|w| w.len() >= 2),
            "{name}"
        );
    }
    for token in [
        "abcdefghijklmnop",
        "Zk7abcdefghijklmnopqrstuvwxyz012345",
        "Zq9xK2mL7pQ4rT8vW3yB6nC1",
        "aBcDeFgHiJkLmNoPqRsT",
        "registry",
        "ab_cd_e",
        "config+proxy",
        "api03-abcdefghijklmnopqrst",
    ] {
        assert!(!reads_as_words(token.as_bytes()), "{token}");
    }
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
        format!(r#"{{"environment":{{"variables":{{"SESSION_TOKEN":"{digest}"}}}}}}"#).as_bytes(),
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
    // Each line as the shell reads it: the one secret found is the word
    // expected, or the secret part of it (`-pX`: `X`).
    for (line, secret) in cases {
        let hits: Vec<String> = line_secrets(line, false)
            .into_iter()
            .map(|f| f.part)
            .collect();
        if secret.is_empty() {
            assert!(hits.is_empty(), "{line}: {hits:?}");
        } else {
            assert!(
                hits.len() == 1
                    && hits
                        .iter()
                        .all(|h| h.len() >= 8 && secret.contains(h.as_str())),
                "{line}: {hits:?}"
            );
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
