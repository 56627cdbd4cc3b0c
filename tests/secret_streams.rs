//! No planted secret reaches any output stream (21.7): secrets planted in
//! a fixture of every import format (environment values, URL userinfo,
//! split command arguments, a Compose `environment` entry written as
//! `NAME: value`, Kubernetes env, bwrap `--setenv`) are looked for on
//! stdout and stderr of `audit` in every format and of `import` (which
//! writes each secret of the converted profile as `[redacted]` unless
//! told `--reveal-secrets`).

use std::fs;

use isolint_acceptance::isolint_in;

/// (file name, content, the secrets planted in it)
fn planted() -> Vec<(&'static str, String, Vec<&'static str>)> {
    vec![
        (
            "profile.json",
            r#"{"schema":"isolint.profile/v1","name":"planted","purpose":"planted secrets",
  "environment":{"inherit":false,"variables":{"DB_PASSWORD":"PlantA-hunter2x","GH_TOKEN":"PlantZ-gh01"}},
  "command":{"executable":"mysql","arguments":["--password","PlantB-pw77","-pPlantC-pw88"],
    "shell":"curl https://deploy:PlantD-url99@mirror.example/x && mysql -p PlantS-sp12"},
  "network":{"mode":"allow-list","allow":[{"host":"https://bot:PlantT-al13@mirror.example/simple","ports":[443]}]}}"#
                .to_string(),
            vec!["PlantA-hunter2x", "PlantZ-gh01", "PlantB-pw77", "PlantC-pw88", "PlantD-url99", "PlantS-sp12", "PlantT-al13"],
        ),
        (
            "compose.yaml",
            "services:\n  tests:\n    image: python:3.12\n    environment:\n      - \"API_TOKEN: PlantE-tok11\"\n      - DB_PASS=PlantF-db22\n    command: [\"mysql\", \"-p\", \"PlantG-pw33\"]\n"
                .to_string(),
            vec!["PlantE-tok11", "PlantF-db22", "PlantG-pw33"],
        ),
        (
            "pod.yaml",
            "apiVersion: v1\nkind: Pod\nmetadata:\n  name: planted\nspec:\n  containers:\n    - name: tests\n      image: python:3.12\n      args: [\"--token\", \"PlantI-tk55\"]\n      env:\n        - name: GITHUB_TOKEN\n          value: PlantH-gh44\n        - name: MIRROR\n          value: https://ci:PlantU-k8s14@mirror.example/simple\n"
                .to_string(),
            vec!["PlantI-tk55", "PlantH-gh44", "PlantU-k8s14"],
        ),
        (
            "config.json",
            r#"{"ociVersion":"1.2.0","process":{"user":{"uid":1000,"gid":1000},"args":["mysql","--pass=PlantK-ps77"],"env":["AWS_SECRET_ACCESS_KEY=PlantJ-aws66"]},"root":{"path":"rootfs","readonly":true}}"#
                .to_string(),
            vec!["PlantK-ps77", "PlantJ-aws66"],
        ),
        (
            "run.sh",
            "bwrap --ro-bind /usr /usr --setenv API_KEY PlantL-key88 --unshare-all \\\n  bash -c \"mysql -pPlantM-my99\"\n"
                .to_string(),
            vec!["PlantL-key88", "PlantM-my99"],
        ),
        (
            "config.toml",
            "sandbox_mode = \"workspace-write\"\n\n[shell_environment_policy]\ninherit = \"none\"\nset = { OPENAI_API_KEY = \"PlantN-oa10\" }\n"
                .to_string(),
            vec!["PlantN-oa10"],
        ),
        (
            "settings.json",
            r#"{"env":{"ANTHROPIC_API_KEY":"PlantO-an11"},"sandbox":{"enabled":true}}"#.to_string(),
            vec!["PlantO-an11"],
        ),
    ]
    .into_iter()
    .chain(variations())
    .chain(shapes())
    .collect()
}

/// Issue 42 item 5: the shapes the scrubber did not know (a Slack webhook,
/// a JSON `"password":` inside a value, JDBC `password=`, ADO.NET
/// `Password=`, ODBC `PWD=`, an Azure SAS `sig=`, `--user=name:secret`
/// after any program, and `-p VALUE`, `-pVALUE` after a program whose
/// options isolint does not know), planted in a profile, a Compose file
/// and a bwrap script.
fn shapes() -> Vec<(&'static str, String, Vec<&'static str>)> {
    let fixed = include_str!("../fixtures/profiles/workshop-fixed.json");
    let mut p: serde_json::Value = serde_json::from_str(fixed).unwrap();
    p["environment"]["variables"] = serde_json::json!({
        "LANG": "C",
        "NOTIFY": "https://hooks.slack.com/services/T0ABCDEFG/B0ABCDEFG/skslackhookvaluexyzabcd",
        "DB_CONFIG": "{\"user\":\"app\",\"password\":\"SkJson11x\"}",
        "JDBC": "jdbc:postgresql://db:5432/app?user=app&password=SkJdbc22x",
        "ADO": "Server=db;Database=app;User Id=sa;Password=SkAdo33x;",
        "ODBC": "Driver={ODBC};Server=db;UID=sa;PWD=SkOdbc44x;",
        "BLOB": "https://acct.blob.core.windows.net/c/b?sv=2022-11-02&sr=b&sig=SkSas55xyz%2Babc%3D",
    });
    p["setup"] = serde_json::json!([
        {"shell": "fetch-tool --user=deploy:SkUser66x https://x.example"},
        {"shell": "dbtool -p SkDbp77x --host db && dbtool -pSkDbj88x --host db"},
        {"executable": "sqltool", "arguments": ["-P", "SkSql99x", "-S", "db"]},
    ]);
    vec![
        (
            "shapes.json",
            serde_json::to_string_pretty(&p).unwrap(),
            vec![
                "skslackhookvaluexyzabcd", "SkJson11x", "SkJdbc22x", "SkAdo33x", "SkOdbc44x",
                "SkSas55xyz", "SkUser66x", "SkDbp77x", "SkDbj88x", "SkSql99x",
            ],
        ),
        (
            "shapes-compose.yaml",
            "services:\n  t:\n    image: python:3.12\n    environment:\n      HOOK: https://hooks.slack.com/services/T0ABCDEFG/B0ABCDEFG/scslackhookvaluexyzabcd\n      DSN: \"Server=db;User Id=sa;Password=ScAdo33x;\"\n      CFG: '{\"password\": \"ScJson11x\"}'\n    command: [\"dbtool\", \"-p\", \"ScDbp77x\"]\n    entrypoint: [\"sh\", \"-c\", \"fetch-tool --user=ci:ScUser66x https://x.example\"]\n"
                .to_string(),
            vec!["scslackhookvaluexyzabcd", "ScAdo33x", "ScJson11x", "ScDbp77x", "ScUser66x"],
        ),
        (
            "shapes-run.sh",
            "bwrap --ro-bind /usr /usr --unshare-all --setenv DSN 'jdbc:mysql://db/app?password=SbJdbc22x' \\\n  dbtool -pSbDbj88x --host db\n"
                .to_string(),
            vec!["SbJdbc22x", "SbDbj88x"],
        ),
    ]
}

/// An outside attacker's variations, each of which reached an output
/// stream before the secret set learned its class: the secret-taking
/// options of many programs in one shell line each, an Authorization
/// scheme, identifier keys, tokens glued to text or written as keys,
/// schemeless user info, values secret by where they stand, settings of
/// an imported file that no profile field keeps, and text that does not
/// parse.
fn variations() -> Vec<(&'static str, String, Vec<&'static str>)> {
    let fixed = include_str!("../fixtures/profiles/workshop-fixed.json");
    let mut p: serde_json::Value = serde_json::from_str(fixed).unwrap();
    let lines = [
        "curl -H \"Authorization: Bearer VaBear11\" https://api.example",
        "curl --user=deploy:VaCurl22 https://api.example",
        "redis-cli -h cache -a VaRedis33 ping",
        "docker login -u ci -p VaDocker44 registry.example",
        "npm config set //registry.npmjs.org/:_authToken VaNpm55",
        "az login --service-principal -u app -p VaAzure66 --tenant t",
        "sh -c \"mongosh -u app -p VaMongo77 db\"",
    ];
    p["setup"] = lines
        .iter()
        .map(|l| serde_json::json!({ "shell": l }))
        .collect();
    p["name"] = "job-ghp_Vb1abcdefghijklmnopqrstuvwxyz01234".into();
    p["credentials"] = serde_json::json!([{"name": "db", "value": "VbCred22"}]);
    p["network"]["egress"] = "allow-list".into();
    p["network"]["allow"] =
        serde_json::json!([{"host": "bot:VbHost33@mirror.example", "ports": [443]}]);
    p["environment"]["variables"]["ghp_Vb4abcdefghijklmnopqrstuvwxyz01234"] = "x".into();
    vec![
        (
            "attack.json",
            serde_json::to_string_pretty(&p).unwrap(),
            vec![
                "VaBear11", "VaCurl22", "VaRedis33", "VaDocker44", "VaNpm55", "VaAzure66", "VaMongo77",
                "ghp_Vb1abcdefghijklmnopqrstuvwxyz01234", "VbCred22", "VbHost33",
                "ghp_Vb4abcdefghijklmnopqrstuvwxyz01234",
            ],
        ),
        (
            "attack-compose.yaml",
            "services:\n  tests:\n    image: python:3.12\n    labels:\n      ci.token: VcLabel11\n    command: >\n      sh -c \"redis-cli -a VcRedis22 ping\n      && docker login -p VcDocker33 reg\"\n    entrypoint: [\"curl\", \"-u\", \"ci:VcCurl44\"]\n    extra_hosts:\n      - \"user:VcHost55@mirror.example:10.0.0.1\"\n    build:\n      args:\n        NPM_TOKEN: VcBuild66\nsecrets:\n  db:\n    content: VcInline77\n"
                .to_string(),
            vec!["VcLabel11", "VcRedis22", "VcDocker33", "VcCurl44", "VcHost55", "VcBuild66", "VcInline77"],
        ),
        (
            "attack-pod.yaml",
            "apiVersion: v1\nkind: Secret\nmetadata:\n  name: db\nstringData:\n  password: VdString11\ndata:\n  tls.key: VmRCYXNlNjQyMg==\n---\napiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n  annotations:\n    deploy.example/token: VdAnnot33\nspec:\n  containers:\n    - name: t\n      image: python:3.12\n      command: [\"pytest\"]\n"
                .to_string(),
            vec!["VdString11", "VmRCYXNlNjQyMg==", "VdAnnot33"],
        ),
        (
            "attack-config.json",
            r#"{"ociVersion":"1.2.0","process":{"user":{"uid":1000,"gid":1000},"args":["sh","-c","redis-cli -a VeRedis11"],"env":["A=1"]},"root":{"path":"rootfs","readonly":true},"hooks":{"prestart":[{"path":"/usr/bin/hook","args":["hook"],"env":["API_KEY=VeHook22"]}]},"annotations":{"org.example.token":"VeAnnot33"}}"#
                .to_string(),
            vec!["VeRedis11", "VeHook22", "VeAnnot33"],
        ),
        (
            "attack-run.sh",
            "bwrap --ro-bind /usr /usr --unshare-all \\\n  curl -H \"Authorization: Bearer VfBear11\" https://api.example\n"
                .to_string(),
            vec!["VfBear11"],
        ),
        (
            "attack-config.toml",
            "sandbox_mode = \"workspace-write\"\n[mcp_servers.x]\ncommand = \"npx\"\nenv = { API_KEY = \"VgMcp11\" }\n"
                .to_string(),
            vec!["VgMcp11"],
        ),
        (
            "attack-svc.yaml",
            "services:\n  ghp_Vj1abcdefghijklmnopqrstuvwxyz0123:\n    image: python:3.12\n    command: [\"pytest\"]\n  tests:\n    image: python:3.12\n    command: [\"pytest\"]\n"
                .to_string(),
            vec!["ghp_Vj1abcdefghijklmnopqrstuvwxyz0123"],
        ),
        (
            "attack-dup.yaml",
            "services:\n  t:\n    image: x\n    environment:\n      ghp_Vi1abcdefghijklmnopqrstuvwxyz012: 1\n      ghp_Vi1abcdefghijklmnopqrstuvwxyz012: 2\n"
                .to_string(),
            vec!["ghp_Vi1abcdefghijklmnopqrstuvwxyz012"],
        ),
        (
            "attack-broken.json",
            "{\"schema\": \"isolint.profile/v1\",\n \"environment\": {\"variables\": {\"DB_PASSWORD\":\n   \"VhSplit11\" oops}}}\n"
                .to_string(),
            vec!["VhSplit11"],
        ),
    ]
}

#[test]
fn planted_secrets_reach_no_output_stream() {
    let dir = tempfile::tempdir().unwrap();
    let mut leaks = Vec::new();
    let mut runs = 0;
    for (name, text, secrets) in planted() {
        fs::write(dir.path().join(name), text).unwrap();
        let mut commands: Vec<Vec<String>> =
            ["text", "json", "jsonl", "sarif", "markdown", "github"]
                .iter()
                .map(|f| {
                    [
                        "audit",
                        "--today",
                        "2026-11-29",
                        "--color",
                        "never",
                        "--format",
                        f,
                        name,
                    ]
                    .map(String::from)
                    .to_vec()
                })
                .collect();
        // The same exports written with --output.
        for f in ["text", "json", "jsonl", "sarif", "markdown", "github"] {
            commands.push(
                [
                    "audit",
                    "--today",
                    "2026-11-29",
                    "--color",
                    "never",
                    "--format",
                    f,
                    "-o",
                    "out/export",
                    name,
                ]
                .map(String::from)
                .to_vec(),
            );
        }
        if !name.ends_with("profile.json") && !name.starts_with("attack.") && name != "shapes.json"
        {
            commands.push(vec!["import".into(), name.into()]);
            commands.push(vec![
                "import".into(),
                name.into(),
                "-o".into(),
                "out/".into(),
            ]);
        }
        for args in commands {
            let out_dir = dir.path().join("out");
            let _ = fs::remove_dir_all(&out_dir);
            fs::create_dir_all(&out_dir).unwrap();
            let run = isolint_in(dir.path(), &args, None);
            runs += 1;
            // Every file the run wrote, read as one more stream.
            let mut written = String::new();
            for e in fs::read_dir(&out_dir).unwrap() {
                let e = e.unwrap();
                // Its name too: a profile's file is named after it.
                written.push_str(&e.file_name().to_string_lossy());
                written.push_str(&String::from_utf8_lossy(&fs::read(e.path()).unwrap()));
            }
            let stdout = String::from_utf8_lossy(&run.stdout).into_owned() + &written;
            assert!(
                run.code.is_some_and(|c| c <= 2),
                "{args:?}: exit {:?}\n{}",
                run.code,
                run.stderr
            );
            for (k, s) in secrets.iter().enumerate() {
                for (stream, out) in [("stdout", stdout.as_ref()), ("stderr", run.stderr.as_str())]
                {
                    if out.contains(s) {
                        // The value's place in the case, never the value.
                        leaks.push(format!("{args:?}: planted value {k} of {name} on {stream}"));
                    }
                }
            }
        }
    }
    assert!(runs >= 150, "{runs} runs");
    assert!(
        leaks.is_empty(),
        "{} leaks:\n{}",
        leaks.len(),
        leaks.join("\n")
    );
}

/// Control characters written into a profile or an imported file (an
/// OSC title sequence, BEL, CR, a GitHub workflow command after a line
/// break, U+2028, NEL, form feed) reach no output stream raw, and no line
/// of any stream but the `github` export's own annotations starts a
/// workflow command.
#[test]
fn hostile_control_characters_reach_no_stream_raw() {
    let dir = tempfile::tempdir().unwrap();
    let evil = "x\u{1b}]0;pwn\u{7}\r\n::error::inj%0A::warning::y\u{2028}z\u{85}w\u{c}|`";
    let fixed = include_str!("../fixtures/profiles/workshop.json");
    let mut p: serde_json::Value = serde_json::from_str(fixed).unwrap();
    p["name"] = format!("n{evil}").into();
    p["purpose"] = evil.into();
    p["mounts"][0]["source"] = format!("/srv/workshop/{evil}").into();
    p["environment"]["variables"][format!("K{evil}")] = format!("v{evil}").into();
    p["command"] = serde_json::json!({ "shell": format!("echo {evil}") });
    fs::write(dir.path().join("evil.json"), p.to_string()).unwrap();
    fs::write(
        dir.path().join("evil.yaml"),
        "services:\n  t:\n    image: \"py\\e]0;pwn\\a\\r\\n::error::inj%0A\"\n    command: [\"echo\", \"\\e[31m\\r::warning::q\"]\n    volumes: [\"/srv/a\\u2028b\\x85c:/w\"]\n",
    )
    .unwrap();
    let raw = [
        '\u{1b}', '\u{7}', '\r', '\u{2028}', '\u{2029}', '\u{85}', '\u{c}',
    ];
    let mut wrong = Vec::new();
    for name in ["evil.json", "evil.yaml"] {
        let mut commands: Vec<Vec<&str>> = ["text", "json", "jsonl", "sarif", "markdown", "github"]
            .iter()
            .map(|f| {
                vec![
                    "audit",
                    "--today",
                    "2026-11-29",
                    "--color",
                    "never",
                    "--format",
                    f,
                    name,
                ]
            })
            .collect();
        commands.push(vec!["import", name]);
        commands.push(vec!["import", "--reveal-secrets", name]);
        for args in commands {
            let run = isolint_in(dir.path(), &args, None);
            let github = args.contains(&"github");
            for (stream, out) in [
                ("stdout", String::from_utf8_lossy(&run.stdout).into_owned()),
                ("stderr", run.stderr.clone()),
            ] {
                if let Some(c) = out.chars().find(|c| raw.contains(c)) {
                    wrong.push(format!("{args:?}: raw {c:?} on {stream}"));
                }
                for line in out.split('\n') {
                    let ours = github
                        && stream == "stdout"
                        && ["::error file=", "::warning file=", "::notice file="]
                            .iter()
                            .any(|p| line.starts_with(p));
                    if line.trim_start().starts_with("::") && !ours {
                        wrong.push(format!("{args:?}: a workflow command on {stream}: {line}"));
                    }
                }
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// A runner overlay's value that conflicts with the imported file is
/// quoted in the conflict finding: masked there like any other.
#[test]
fn runner_overlay_conflicts_echo_no_secret() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(
        dir.path().join("runner.json"),
        r#"{"schema":"isolint.profile/v1","dependencies":{"image":"https://u:Rn4img44@reg.example/x"},"network":{"egress":"allow-list","allow":[{"host":"bot:Rn1host11@mirror.example","ports":[443]}]}}"#,
    )
    .unwrap();
    fs::write(
        dir.path().join("compose.yaml"),
        "services:\n  t:\n    image: python:3.12\n    command: [\"pytest\"]\n",
    )
    .unwrap();
    let mut leaks = Vec::new();
    for f in ["text", "json", "sarif", "markdown", "github"] {
        let args = [
            "audit",
            "--today",
            "2026-11-29",
            "--format",
            f,
            "--runner",
            "runner.json",
            "compose.yaml",
        ];
        let run = isolint_in(dir.path(), args, None);
        let stdout = String::from_utf8_lossy(&run.stdout);
        assert!(
            stdout.contains("runner"),
            "{f}: no conflict reported\n{stdout}"
        );
        for (k, s) in ["Rn4img44", "Rn1host11"].iter().enumerate() {
            if stdout.contains(s) || run.stderr.contains(s) {
                leaks.push(format!("{f}: planted value {k}"));
            }
        }
    }
    assert!(leaks.is_empty(), "{leaks:?}");
}
