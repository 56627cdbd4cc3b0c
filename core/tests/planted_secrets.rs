// Tests build inputs in memory; the I/O ban of core/clippy.toml is for the library itself.
#![allow(clippy::disallowed_methods, clippy::disallowed_types)]

//! An outside attacker's variations on issue 21 items 6 and 7: secrets
//! planted in every place a profile or an imported file can hold them
//! (URL user info, query and fragment, HTTP headers, the secret-taking
//! options of many tools, vendor token shapes, PEM blocks, keys named like
//! secret values, objects that only hold secrets, files that do not
//! parse) must reach no text the library hands a front end: the masked
//! source (the dashboard's and the page's source pane, every snippet), the
//! converted profile `isolint import` writes, its notes, its errors, and
//! every export. Each case names the secrets planted in it; a case whose
//! secret shows up anywhere fails with the place it leaked.

use isolint_core::import::{self, Format};
use isolint_core::render::{github, json, markdown, sarif, text};
use isolint_core::secrets::mask_unparsed;
use isolint_core::{audit, AuditOptions, Date, Labels, Report};

/// A profile built on the fixed workshop profile with one field replaced.
fn profile(pointer: &str, value: serde_json::Value) -> String {
    let mut p: serde_json::Value =
        serde_json::from_str(isolint_core::WORKSHOP_PROFILE_FIXED).unwrap();
    *p.pointer_mut(pointer)
        .unwrap_or_else(|| panic!("no {pointer} in the workshop profile")) = value;
    serde_json::to_string_pretty(&p).unwrap()
}

fn shell(line: &str) -> String {
    profile("/command", serde_json::json!({ "shell": line }))
}

fn argv(words: &[&str]) -> String {
    profile(
        "/command",
        serde_json::json!({ "executable": words[0], "arguments": &words[1..] }),
    )
}

fn env(name: &str, value: &str) -> String {
    profile(
        "/environment/variables",
        serde_json::json!({ "LANG": "C.UTF-8", name: value }),
    )
}

fn allow_host(host: &str) -> String {
    let mut p: serde_json::Value =
        serde_json::from_str(isolint_core::WORKSHOP_PROFILE_FIXED).unwrap();
    p["network"] = serde_json::json!({
        "egress": "allow-list", "enforced_by": "network-policy", "dns": "pinned",
        "follow_redirects": false, "allow": [{ "host": host, "ports": [443] }]
    });
    serde_json::to_string_pretty(&p).unwrap()
}

const GHP: &str = "ghp_Zk7abcdefghijklmnopqrstuvwxyz012345";
const GH_PAT: &str = "github_pat_11AAZk8bcdefghij_klmnopqrstuvwxyzABCDEFG";
const SLACK: &str = "xoxb-123456789012-Zk9slackTokenValue";
const JWT: &str = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJaazFqd3QifQ.Zk1jwtSigXyZabc123";
const AKIA: &str = "AKIAQZ7PLANT0EXAMPL1";

/// (case, file name, format (`None`: an isolint profile), text, secrets)
type Case = (
    &'static str,
    &'static str,
    Option<Format>,
    String,
    Vec<&'static str>,
);

fn profile_cases() -> Vec<Case> {
    let p = |case, text: String, secrets: Vec<&'static str>| (case, "p.json", None, text, secrets);
    vec![
        // URLs: user info, query, fragment, with and without a scheme.
        p("url query token", shell("curl https://mirror.example/pkg?token=Pq1tokQuery77 -o x"), vec!["Pq1tokQuery77"]),
        p("url query access_token", shell("curl 'https://mirror.example/p?a=1&access_token=Pq2accTok88' -o x"), vec!["Pq2accTok88"]),
        p("url fragment", shell("curl https://mirror.example/cb#access_token=Pq3fragTok99"), vec!["Pq3fragTok99"]),
        p("url query in an argument", argv(&["curl", "https://mirror.example/p?api_key=Pq4argKey11", "-o", "x"]), vec!["Pq4argKey11"]),
        p("allow entry user info without a scheme", allow_host("bot:Pq5noScheme22@mirror.example"), vec!["Pq5noScheme22"]),
        p("allow entry query token", allow_host("mirror.example/simple?token=Pu6hostTok11"), vec!["Pu6hostTok11"]),
        p("pip index url in env", env("PIP_INDEX_URL", "https://user:Pq6pipIdx33@pypi.example/simple"), vec!["Pq6pipIdx33"]),
        p("pip --index-url", argv(&["pip", "install", "--index-url", "https://u:Pq7pipArg44@pypi.example/simple", "x"]), vec!["Pq7pipArg44"]),
        p("git clone with a token", shell("git clone https://oauth2:Pq8gitTok55@git.example/r.git"), vec!["Pq8gitTok55"]),
        // HTTP headers.
        p("bearer header in shell text", shell("curl -H \"Authorization: Bearer Pq9bearer66\" https://api.example"), vec!["Pq9bearer66"]),
        p("bearer header as an argument", argv(&["curl", "-H", "Authorization: Bearer Pr1bearerArg77", "https://api.example"]), vec!["Pr1bearerArg77"]),
        p("lower-case bearer, token scheme", shell("curl -H 'authorization: token Pr0tokScheme12' https://api.example"), vec!["Pr0tokScheme12"]),
        p("api key header as an argument", argv(&["curl", "-H", "X-Api-Key: Pr2apiHdr88", "https://api.example"]), vec!["Pr2apiHdr88"]),
        p("api key header in shell text", shell("curl -H 'X-Api-Key: Pr3apiHdrSh99' https://api.example"), vec!["Pr3apiHdrSh99"]),
        p("basic header", argv(&["curl", "--header", "Authorization: Basic UHIzYmFzaWM6cGFzcw==", "https://api.example"]), vec!["UHIzYmFzaWM6cGFzcw=="]),
        // The secret-taking options of many tools, joined and split.
        p("curl -u", argv(&["curl", "-u", "deploy:Pr4curlU11", "https://api.example"]), vec!["Pr4curlU11"]),
        p("curl --user=", shell("curl --user=deploy:Pr5curlUser22 https://api.example"), vec!["Pr5curlUser22"]),
        p("curl -u in shell text", shell("curl -s -u deploy:Pr5curlUsh23 https://api.example"), vec!["Pr5curlUsh23"]),
        p("PGPASSWORD before psql", shell("PGPASSWORD=Pr6pgpw33 psql -h db -U app"), vec!["Pr6pgpw33"]),
        p("redis-cli -a", argv(&["redis-cli", "-a", "Pr7redis44", "ping"]), vec!["Pr7redis44"]),
        p("redis-cli -a in shell text", shell("redis-cli -h cache -a Pr8redisSh55 ping"), vec!["Pr8redisSh55"]),
        p("sshpass -p", argv(&["sshpass", "-p", "Pr9sshpass66", "ssh", "host"]), vec!["Pr9sshpass66"]),
        p("docker login -p in shell text", shell("docker login -u ci -p Ps1dockerP77 registry.example"), vec!["Ps1dockerP77"]),
        p("docker login -p", argv(&["docker", "login", "-u", "ci", "-p", "Ps2dockerA88", "registry.example"]), vec!["Ps2dockerA88"]),
        p("docker login --password", argv(&["docker", "login", "--password", "Ps3dockPw99", "registry.example"]), vec!["Ps3dockPw99"]),
        p("npm _authToken, spaced", shell("npm config set //registry.npmjs.org/:_authToken Ps4npmTok11"), vec!["Ps4npmTok11"]),
        p("npm _authToken=", shell("npm config set //registry.npmjs.org/:_authToken=Ps5npmEq22"), vec!["Ps5npmEq22"]),
        p("echo piped into --password-stdin", shell("echo Pw1stdin11 | docker login -u ci --password-stdin registry.example"), vec!["Pw1stdin11"]),
        p("a .netrc written by printf", shell("printf 'machine h login u password Pw2netrc22' > ~/.netrc"), vec!["Pw2netrc22"]),
        p("htpasswd -b's last argument", shell("htpasswd -bc /etc/nginx/htpasswd admin Pw3htpw33"), vec!["Pw3htpw33"]),
        p("echo piped into chpasswd", shell("echo 'ci:Pw4chpw44' | chpasswd"), vec!["Pw4chpw44"]),
        p("mysql --password=", shell("mysql --password=Ps6myEq33 -h db"), vec!["Ps6myEq33"]),
        p("mysql -pX after -uroot", shell("mysql -uroot -pPs7myJoin44"), vec!["Ps7myJoin44"]),
        p("openssl -pass pass:", shell("openssl enc -aes256 -pass pass:Ps9openssl66 -in x"), vec!["Ps9openssl66"]),
        p("az login -p", shell("az login --service-principal -u app -p Pt1azure77 --tenant t"), vec!["Pt1azure77"]),
        p("GH_TOKEN before gh", shell("GH_TOKEN=Pt2ghtok88 gh release list"), vec!["Pt2ghtok88"]),
        p("export API_KEY=", shell("export API_KEY=Pt3export99; make test"), vec!["Pt3export99"]),
        p("export API_KEY='quoted'", shell("export API_KEY='Pt4exportq11'; make test"), vec!["Pt4exportq11"]),
        p("setup step --password", profile("/setup", serde_json::json!([{"executable": "mysql", "arguments": ["--password", "Pt5setup22"]}])), vec!["Pt5setup22"]),
        p("setup step shell -pX", profile("/setup", serde_json::json!([{"shell": "mysql -pPt6setupSh33 < schema.sql"}])), vec!["Pt6setupSh33"]),
        // Vendor shapes, anywhere in the profile.
        p("AWS key id under a plain name", env("AWS_REGION_X", AKIA), vec![AKIA]),
        p("GitHub token in the purpose", profile("/purpose", serde_json::json!(format!("run with {GHP}"))), vec![GHP]),
        p("GitHub token inside the name", profile("/name", serde_json::json!(format!("job-{GHP}"))), vec![GHP]),
        p("fine-grained token in a mount path", profile("/mounts/0/source", serde_json::json!(format!("/srv/x/{GH_PAT}"))), vec![GH_PAT]),
        p("Slack token as a label", profile("/boundary/label", serde_json::json!(SLACK)), vec![SLACK]),
        p("JWT under a plain name", env("SOME_VALUE", JWT), vec![JWT]),
        p("PEM block under a plain name", env("SSH_MATERIAL", "-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEAPu2pemLine1xyz\nPu2pemLine2abcdEFGH\n-----END RSA PRIVATE KEY-----\n"), vec!["MIIEpAIBAAKCAQEAPu2pemLine1xyz", "Pu2pemLine2abcdEFGH"]),
        p("base64 of a GitHub token", env("BLOB", "Z2hwX1prN2FiY2RlZmdoaWprbG1ub3BxcnN0dXZ3eHl6MDEyMzQ1"), vec!["Z2hwX1prN2FiY2RlZmdoaWprbG1ub3BxcnN0dXZ3eHl6MDEyMzQ1"]),
        p("a number under a secret name", profile("/environment/variables", serde_json::json!({"DB_PASSWORD": 987654321})), vec!["987654321"]),
        p("a token as a key", profile("/environment/variables", serde_json::json!({GHP: "x"})), vec![GHP]),
        p("an executable named like a token", argv(&["/opt/bin/ghp_Pv3abcdefghijklmnopqrstuv"]), vec!["ghp_Pv3abcdefghijklmnopqrstuv"]),
        p("image reference with user info", profile("/dependencies/image", serde_json::json!("https://ci:Pv1img55@registry.example/runner:1")), vec!["Pv1img55"]),
        p("a credential with an unknown value field", profile("/credentials", serde_json::json!([{"name": "db", "value": "Pu7credVal22"}])), vec!["Pu7credVal22"]),
        p("an unknown top-level password field", profile("/name", serde_json::json!("x")).replacen('{', "{\"password\": \"Pu8unknownTop33\",", 1), vec!["Pu8unknownTop33"]),
        // Files that do not decode: error messages and snippets.
        p("an unknown key shaped like a token", format!(r#"{{"schema":"isolint.profile/v1","name":"x","{GHP}":1}}"#), vec![GHP]),
        p("a token as an enum value", format!(r#"{{"schema":"isolint.profile/v1","name":"x","tenancy":"{GHP}"}}"#), vec![GHP]),
        p("a secret as a wrong type", r#"{"schema":"isolint.profile/v1","name":"x","limits":{"wall_seconds":"token=Pv9bad33"}}"#.into(), vec!["Pv9bad33"]),
        p("a syntax error after a key and value on two lines", "{\"schema\": \"isolint.profile/v1\",\n \"environment\": {\"variables\": {\"DB_PASSWORD\":\n   \"Pz1split11\" oops}}}\n".into(), vec!["Pz1split11"]),
        p("a syntax error after an option and its value on two lines", "{\"command\": {\"executable\": \"mysql\", \"arguments\": [\"--password\",\n   \"Pz2split22\", \"-p\",\n \"Pz3split33\"] oops\n".into(), vec!["Pz2split22", "Pz3split33"]),
        p("a syntax error beside a name and value entry", "{\"env\": [{\"name\": \"DB_PASSWORD\",\n  \"value\": \"Pz4split44\"}] oops\n".into(), vec!["Pz4split44"]),
        p("a secret written with JSON escapes", profile("/environment/variables", serde_json::json!({"LANG": "C"})).replacen("\"LANG\"", "\"DB_PASSWORD\": \"Pe1\\u0073cape11\\u00e9\", \"LANG\"", 1), vec!["Pe1\\u0073cape11", "Pe1scape11"]),
        p("a token written with JSON escapes", profile("/environment/variables", serde_json::json!({"LANG": "C"})).replacen("\"LANG\"", "\"X\": \"\\u0067hp_Pe2abcdefghijklmnopqrstuvwxyz012345\", \"LANG\"", 1), vec!["hp_Pe2abcdefghijklmnopqrstuvwxyz012345"]),
        p("an object under a secret name", profile("/environment/variables", serde_json::json!({"DB_PASSWORD": {"x": "Pt8obj88"}})), vec!["Pt8obj88"]),
        p("duplicate secret keys", r#"{"schema":"isolint.profile/v1","environment":{"variables":{"API_TOKEN":"Pv8dup11","API_TOKEN":"Pv8dup22"}}}"#.into(), vec!["Pv8dup11", "Pv8dup22"]),
    ]
}

fn import_cases() -> Vec<Case> {
    vec![
        ("kubernetes pod", "pod.yaml", Some(Format::Kubernetes), "apiVersion: v1
kind: Pod
metadata:
  name: planted
  annotations:
    deploy.example/token: \"Qa1annot11\"
    note: \"Authorization: Bearer Qa2annotBearer22\"
spec:
  containers:
    - name: tests
      image: python:3.12
      command: [\"sh\", \"-c\", \"curl -H 'X-Api-Key: Qa3cmdKey33' https://api.example && mysql --password=Qa4cmdPw44\"]
      args: [\"--api-key=Qa5argKey55\", \"--password\", \"Qa6argPw66\"]
      env:
        - name: DB_PASSWORD
          value: Qa7envPw77
        - name: CONN
          value: >-
            postgres://app:Qa8folded88@db.example/app
        - name: PRIV
          value: |
            -----BEGIN PRIVATE KEY-----
            MIIQa9pemBodyLineOne99xyz
            -----END PRIVATE KEY-----
".into(), vec!["Qa1annot11", "Qa2annotBearer22", "Qa3cmdKey33", "Qa4cmdPw44", "Qa5argKey55", "Qa6argPw66", "Qa7envPw77", "Qa8folded88", "MIIQa9pemBodyLineOne99xyz"]),
        ("kubernetes Secret beside a pod", "secret.yaml", Some(Format::Kubernetes), "apiVersion: v1
kind: Secret
metadata:
  name: db
stringData:
  password: Qb1stringData11
  config.json: '{\"auth\": \"Qb2nested22\"}'
data:
  tls.key: UWIzYmFzZTY0a2V5MzM=
---
apiVersion: v1
kind: Pod
metadata:
  name: p
spec:
  containers:
    - name: t
      image: python:3.12
      command: [\"pytest\"]
".into(), vec!["Qb1stringData11", "Qb2nested22", "UWIzYmFzZTY0a2V5MzM="]),
        ("compose service", "compose.yaml", Some(Format::Compose), "services:
  tests:
    image: python:3.12
    labels:
      ci.token: Qc1label11
    environment:
      API_TOKEN: Qc2envMap22
      GH: ghp_Qc3abcdefghijklmnopqrstuvwxyz0123
    command: >
      sh -c \"redis-cli -a Qc4redis44 ping
      && docker login -p Qc5docker55 reg\"
    entrypoint: [\"curl\", \"-u\", \"ci:Qc6curlU66\"]
    extra_hosts:
      - \"user:Qc7host77@mirror.example:10.0.0.1\"
    secrets:
      - db
secrets:
  db:
    content: Qc8inline88
configs:
  app:
    content: |
      password = Qc9config99
".into(), vec!["Qc1label11", "Qc2envMap22", "ghp_Qc3abcdefghijklmnopqrstuvwxyz0123", "Qc4redis44", "Qc5docker55", "Qc6curlU66", "Qc7host77", "Qc8inline88", "Qc9config99"]),
        ("a service named like a token", "svc.yaml", Some(Format::Compose), "services:\n  ghp_Sv1abcdefghijklmnopqrstuvwxyz0123:\n    image: python:3.12\n    command: [\"pytest\"]\n".into(), vec!["ghp_Sv1abcdefghijklmnopqrstuvwxyz0123"]),
        ("compose list environment and build args", "compose2.yaml", Some(Format::Compose), "services:
  tests:
    image: python:3.12
    environment:
      - \"DB_PASSWORD=Qd1list11\"
      - \"API_TOKEN: Qd3colon33\"
      - API_KEY
    command: [\"pytest\"]
    build:
      args:
        NPM_TOKEN: Qd2buildarg22
".into(), vec!["Qd1list11", "Qd2buildarg22", "Qd3colon33"]),
        ("codex config", "config.toml", Some(Format::Codex), "sandbox_mode = \"workspace-write\"
[shell_environment_policy]
inherit = \"none\"
set = { GITHUB_TOKEN = \"Qe1codexSet11\", OTHER = \"ghp_Qe2abcdefghijklmnopqrstuvwxyz01\" }
[mcp_servers.x]
command = \"npx\"
args = [\"-y\", \"srv\", \"--token\", \"Qe3mcpTok33\"]
env = { API_KEY = \"Qe4mcpEnv44\" }
".into(), vec!["Qe1codexSet11", "ghp_Qe2abcdefghijklmnopqrstuvwxyz01", "Qe3mcpTok33", "Qe4mcpEnv44"]),
        ("bwrap script", "run.sh", Some(Format::Bwrap), "#!/bin/sh
exec bwrap --ro-bind /usr /usr \\
  --setenv DB_PASSWORD Qf1setenv11 \\
  --setenv URL https://u:Qf2url22@h.example \\
  --unshare-all \\
  curl -H \"Authorization: Bearer Qf3bearer33\" https://api.example
".into(), vec!["Qf1setenv11", "Qf2url22", "Qf3bearer33"]),
        ("oci config with hooks", "config.json", Some(Format::Oci), r#"{"ociVersion":"1.2.0","process":{"user":{"uid":1000,"gid":1000},"args":["sh","-c","redis-cli -a Qg1redis11"],"env":["TOKEN=Qg2env22","X=https://a:Qg3url33@h"]},"root":{"path":"rootfs","readonly":true},"hooks":{"prestart":[{"path":"/usr/bin/hook","args":["hook","--password=Qg4hook44"],"env":["API_KEY=Qg5hookEnv55"]}]},"annotations":{"org.example.token":"Qg6annot66"}}"#.into(), vec!["Qg1redis11", "Qg2env22", "Qg3url33", "Qg4hook44", "Qg5hookEnv55", "Qg6annot66"]),
        ("sandbox settings", "settings.json", Some(Format::SandboxSettings), r#"{"env":{"ANTHROPIC_API_KEY":"Qh1sbx11"},"apiKeyHelper":"echo sk-ant-api03-abcdefghijklmnopqrst","sandbox":{"enabled":true},"permissions":{"allow":["Bash(curl -H 'Authorization: Bearer Qh3perm33' *)"]}}"#.into(), vec!["Qh1sbx11", "sk-ant-api03-abcdefghijklmnopqrst", "Qh3perm33"]),
        // Files that do not import: the error must not quote the secret.
        ("compose cut short", "bad.yaml", Some(Format::Compose), "services:\n  tests:\n    image: x\n    environment:\n      DB_PASSWORD: Qi1bad11\n    command: [\"a\", \n".into(), vec!["Qi1bad11"]),
        ("compose open quote", "bad2.yaml", Some(Format::Compose), "services:\n  tests:\n    environment:\n      DB_PASSWORD: \"Qi2bad22\n".into(), vec!["Qi2bad22"]),
        ("codex cut short", "bad.toml", Some(Format::Codex), "sandbox_mode = \"workspace-write\"\n[shell_environment_policy]\nset = { GITHUB_TOKEN = \"Qi3bad33\" \n".into(), vec!["Qi3bad33"]),
        ("bwrap unknown option", "bad.sh", Some(Format::Bwrap), "bwrap --setenv DB_PASSWORD Qi4bad44 --bogus-opt x -- true\n".into(), vec!["Qi4bad44"]),
        ("bwrap open quote", "bad2.sh", Some(Format::Bwrap), "bwrap --setenv DB_PASSWORD 'Qi5bad55 -- true\n".into(), vec!["Qi5bad55"]),
        ("kubernetes env with a syntax error", "badk8s2.yaml", Some(Format::Kubernetes), "apiVersion: v1\nkind: Pod\nspec:\n  containers:\n    - name: t\n      env:\n        - name: DB_PASSWORD\n          value: Pz5yaml55\n      args: [\"--token\",\n             \"Pz6yaml66\"\n   bad: [\n".into(), vec!["Pz5yaml55", "Pz6yaml66"]),
        ("escapes in YAML and TOML", "esc.yaml", Some(Format::Compose), "services:\n  t:\n    image: python:3.12\n    environment:\n      DB_PASSWORD: \"Pe3\\x73cape33\"\n      API_TOKEN: \"Pe4\\u0073cape44\"\n".into(), vec!["Pe3\\x73cape33", "Pe4\\u0073cape44", "Pe3scape33", "Pe4scape44"]),
        ("escapes in TOML", "esc.toml", Some(Format::Codex), "sandbox_mode = \"workspace-write\"\n[shell_environment_policy]\nset = { GITHUB_TOKEN = \"Pe5\\u0073cape55\" }\n".into(), vec!["Pe5\\u0073cape55", "Pe5scape55"]),
        ("compose duplicate key shaped like a token", "dk.yaml", Some(Format::Compose), "services:\n  t:\n    image: x\n    environment:\n      ghp_Dk1abcdefghijklmnopqrstuvwxyz012: 1\n      ghp_Dk1abcdefghijklmnopqrstuvwxyz012: 2\n".into(), vec!["ghp_Dk1abcdefghijklmnopqrstuvwxyz012"]),
        ("codex duplicate key shaped like a token", "dk.toml", Some(Format::Codex), "sandbox_mode = \"workspace-write\"\n[shell_environment_policy]\nset = { ghp_Dk3abcdefghijklmnopqrstuvwxyz012 = \"a\", ghp_Dk3abcdefghijklmnopqrstuvwxyz012 = \"b\" }\n".into(), vec!["ghp_Dk3abcdefghijklmnopqrstuvwxyz012"]),
        ("oci duplicate key shaped like a token", "dk.json", Some(Format::Oci), r#"{"ociVersion":"1.2.0","process":{"args":["a"],"env":["A=1"]},"root":{"path":"r"},"annotations":{"ghp_Dk4abcdefghijklmnopqrstuvwxyz012":"a","ghp_Dk4abcdefghijklmnopqrstuvwxyz012":"b"}}"#.into(), vec!["ghp_Dk4abcdefghijklmnopqrstuvwxyz012"]),
        ("kubernetes duplicate key", "badk8s.yaml", Some(Format::Kubernetes), "apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  containers:\n    - name: t\n      image: x\n      env:\n        - name: DB_PASSWORD\n          value: Qi6bad66\n          value: dup\n".into(), vec!["Qi6bad66"]),
        ("compose unknown key shaped like a token", "badcompose3.yaml", Some(Format::Compose), "services:\n  tests:\n    image: x\n    ghp_Qi8abcdefghijklmnopqrstu: 1\n".into(), vec!["ghp_Qi8abcdefghijklmnopqrstu"]),
        ("oci syntax error", "badoci.json", Some(Format::Oci), r#"{"ociVersion":"1.2.0","process":{"args":["mysql","--password=Qi9bad99"],"env":["A=1"] "x":1}}"#.into(), vec!["Qi9bad99"]),
    ]
}

fn exports(r: &Report) -> Vec<(&'static str, String)> {
    vec![
        ("text", text::render(r, text::TextOptions { color: false })),
        ("json", json::render(r)),
        ("sarif", sarif::render(r)),
        ("markdown", markdown::render(r)),
        ("github", github::render(r)),
        ("source pane", r.source_text.clone()),
        (
            "original pane",
            r.original
                .as_ref()
                .map(|o| o.text.to_string())
                .unwrap_or_default(),
        ),
        ("debug", format!("{r:?}")),
    ]
}

/// Every text one case hands a front end, by where it goes.
fn shown(name: &str, format: Option<Format>, text: &str) -> Vec<(String, String)> {
    let opts = AuditOptions {
        today: Date::parse("2026-11-29"),
    };
    let labels = Labels::workshop();
    let mut out = Vec::new();
    let Some(format) = format else {
        match audit(text.as_bytes(), name, &labels, &opts) {
            Ok(r) => out.extend(exports(&r).into_iter().map(|(k, v)| (k.to_string(), v))),
            Err(e) => {
                out.push(("audit error".into(), e.to_string()));
                out.push(("error context".into(), mask_unparsed(text)));
            }
        }
        return out;
    };
    match import::import(text.as_bytes(), format) {
        Err(e) => {
            out.push(("import error".into(), e.to_string()));
            out.push(("error context".into(), mask_unparsed(text)));
        }
        Ok(units) => {
            for u in &units {
                let unit = &u.name;
                out.push(("unit name".into(), u.shown_name()));
                out.push((
                    format!("{unit}: import stdout"),
                    u.masked_profile_json().into_owned(),
                ));
                out.push((
                    format!("{unit}: masked source"),
                    u.masked_source.to_string(),
                ));
                for n in &u.notes {
                    out.push((format!("{unit}: note"), n.to_string()));
                }
                for d in u.undeclared.iter() {
                    out.push((format!("{unit}: not declared"), d.reason.to_string()));
                }
                let r = isolint_core::audit::audit_imported(
                    u,
                    name,
                    &labels,
                    &opts,
                    None,
                    &isolint_core::InOrder,
                )
                .unwrap();
                out.extend(
                    exports(&r)
                        .into_iter()
                        .map(|(k, v)| (format!("{unit}: {k}"), v)),
                );
            }
        }
    }
    out
}

#[test]
fn no_planted_secret_reaches_any_text_a_front_end_shows() {
    let cases: Vec<Case> = profile_cases().into_iter().chain(import_cases()).collect();
    let mut leaks = Vec::new();
    let mut planted = 0;
    for (case, name, format, text, secrets) in &cases {
        // (A secret written with escapes is listed in both forms; the
        // plain one is not in the text.)
        assert!(
            secrets.iter().any(|s| text.contains(s)),
            "{case}: no secret is planted in its own text"
        );
        planted += secrets.len();
        for (place, out) in shown(name, *format, text) {
            for s in secrets {
                if out.contains(s) {
                    leaks.push(format!("{case}: {s} in {place}"));
                }
            }
        }
    }
    leaks.sort();
    leaks.dedup();
    assert!(
        cases.len() >= 60 && planted >= 100,
        "{} cases, {planted} secrets",
        cases.len()
    );
    assert!(
        leaks.is_empty(),
        "{} leaks:\n{}",
        leaks.len(),
        leaks.join("\n")
    );
}

/// A rule that shows a value with its case changed (a capability in capitals,
/// a host name or a file extension in small letters) must not show a secret
/// that way either: masking matches secrets whatever their ASCII case. Every
/// token shape, planted in every field a rule may quote changed, is looked
/// for in every text, ignoring case.
#[test]
fn no_planted_secret_reaches_any_text_with_its_case_changed() {
    let tokens = [
        GHP,
        GH_PAT,
        SLACK,
        JWT,
        "sk-proj-Zk2abcdefghijklmnopqrstuvwxyz0123",
    ];
    type Place = (&'static str, fn(&str) -> String);
    let places: &[Place] = &[
        ("added capability", |t| {
            profile("/boundary/capabilities/add", serde_json::json!([t]))
        }),
        ("dropped capability", |t| {
            profile("/boundary/capabilities/drop", serde_json::json!([t]))
        }),
        ("host namespace", |t| {
            profile("/boundary/host_namespaces", serde_json::json!([t]))
        }),
        ("seccomp", |t| {
            profile("/boundary/seccomp", serde_json::json!(t))
        }),
        ("boundary kind", |t| {
            profile("/boundary/kind", serde_json::json!(t))
        }),
        ("runtime name", |t| {
            profile("/boundary/runtime/name", serde_json::json!(t))
        }),
        ("user", |t| profile("/boundary/user", serde_json::json!(t))),
        ("allow host", |t| allow_host(&format!("{t}.example"))),
        ("allow host alone", |t| allow_host(t)),
        ("artifact", |t| {
            profile(
                "/artifacts/collect",
                serde_json::json!([format!("reports/{t}.HTML")]),
            )
        }),
        ("executable", |t| argv(&[t, "x"])),
        ("windows executable", |t| argv(&[&format!("{t}.EXE"), "x"])),
        ("argument", |t| argv(&["python", "-m", "pytest", t])),
        ("setup argument", |t| {
            profile(
                "/setup",
                serde_json::json!([{"executable": "pip", "arguments": ["install", t]}]),
            )
        }),
        ("shell text", |t| shell(&format!("{t} --version"))),
        ("image", |t| {
            profile(
                "/dependencies/image",
                serde_json::json!(format!("registry.example/{t}:latest")),
            )
        }),
        ("mount source", |t| {
            profile(
                "/mounts/1/source",
                serde_json::json!(format!("/srv/workshop/scratch/{t}")),
            )
        }),
        ("mount target", |t| {
            profile("/mounts/1/target", serde_json::json!(format!("/{t}")))
        }),
        ("variable name", |t| env(t, "1")),
        ("credential source", |t| {
            profile(
                "/credentials",
                serde_json::json!([{"name": "x", "source": t, "scope": "task",
                    "ttl_seconds": 900, "exposed_to": "job"}]),
            )
        }),
        ("retained", |t| {
            profile("/cleanup/retain", serde_json::json!([t]))
        }),
    ];
    let mut leaks = Vec::new();
    for (place, make) in places {
        for t in tokens {
            let text = make(t);
            for (stream, out) in shown("p.json", None, &text) {
                if out.to_ascii_lowercase().contains(&t.to_ascii_lowercase()) {
                    leaks.push(format!("{place}: {t} in {stream}"));
                }
            }
        }
    }
    assert!(
        leaks.is_empty(),
        "{} leaks:\n{}",
        leaks.len(),
        leaks.join("\n")
    );
}
