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
        if name != "profile.json" {
            commands.push(vec!["import".into(), name.into()]);
        }
        for args in commands {
            let run = isolint_in(dir.path(), &args, None);
            runs += 1;
            let stdout = String::from_utf8_lossy(&run.stdout);
            assert!(
                run.code.is_some_and(|c| c <= 2),
                "{args:?}: exit {:?}\n{}",
                run.code,
                run.stderr
            );
            for s in &secrets {
                for (stream, out) in [("stdout", stdout.as_ref()), ("stderr", run.stderr.as_str())]
                {
                    if out.contains(s) {
                        leaks.push(format!("{args:?}: {s} on {stream}"));
                    }
                }
            }
        }
    }
    assert!(runs >= 40);
    assert!(
        leaks.is_empty(),
        "{} leaks:\n{}",
        leaks.len(),
        leaks.join("\n")
    );
}
