//! The context decides (issue 45), from the binary's side: a Compose file
//! that is eligible on its own (with an honest runner overlay) is audited
//! with the files Compose reads beside it. Where they make it risky the
//! verdict follows (exit 1); where they cannot be read the file is refused
//! (exit 2), or with `--partial` blocked (exit 1, PRF021). No input whose
//! outcome depends on context it did not read exits 0.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

use isolint_acceptance::{bin, root};

const BASE: &str = "fixtures/runner/compose/compose.yaml";
const RUNNER: &str = "fixtures/runner/compose/runner.json";

struct Case {
    name: &'static str,
    /// The base file with this text substituted for `network_mode: none`
    /// (and `extra` appended at the top level).
    service: &'static str,
    extra: &'static str,
    /// Files beside it; a content of `None` is a directory (unreadable).
    files: &'static [(&'static str, Option<&'static str>)],
    file_name: &'static str,
    args: &'static [&'static str],
    stdin: bool,
    want: i32,
}

const C: Case = Case {
    name: "",
    service: "network_mode: none",
    extra: "",
    files: &[],
    file_name: "compose.yaml",
    args: &[],
    stdin: false,
    want: 0,
};

fn run(c: &Case, base: &str, runner: &Path) -> (i32, String) {
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path().join("home");
    std::fs::create_dir_all(home.join(".aws")).unwrap();
    std::fs::write(
        home.join(".aws/credentials"),
        "aws_access_key_id=AKIAIOSFODNN7EXAMPLE\naws_secret_access_key=wJalrXUtnFEMIK7MDENGbPxRfiCYEXAMPLEKEY\n",
    )
    .unwrap();
    let proj = dir.path().join("proj");
    std::fs::create_dir_all(&proj).unwrap();
    // VOLUME takes the key of the service's own `volumes`.
    let text = match c.service.strip_suffix("x-was") {
        Some(head) => base.replace("network_mode: none\n    volumes:", &format!("{head}x-was:")),
        None => base.replace("network_mode: none", c.service),
    };
    let text = format!("{text}{}", c.extra);
    std::fs::write(proj.join(c.file_name), &text).unwrap();
    for (p, content) in c.files {
        let path = proj.join(p);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        match content {
            Some(t) => std::fs::write(&path, t).unwrap(),
            None => std::fs::create_dir_all(&path).unwrap(),
        }
    }
    let mut args: Vec<String> = ["audit", "--today", "2026-12-07", "--runner"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    args.push(runner.display().to_string());
    args.extend(c.args.iter().map(|s| s.to_string()));
    args.push(if c.stdin {
        "-".into()
    } else {
        c.file_name.into()
    });
    let mut cmd = Command::new(bin());
    cmd.args(&args)
        .current_dir(&proj)
        .env("HOME", &home)
        .stdin(if c.stdin {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = cmd.spawn().unwrap();
    if c.stdin {
        let _ = child.stdin.take().unwrap().write_all(text.as_bytes());
    }
    let out = child.wait_with_output().unwrap();
    let all = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (out.status.code().unwrap_or(-1), all)
}

/// The service's own `volumes` list moved under an extension key, a
/// volume `cache` written in its place.
const VOLUME: &str = "network_mode: none\n    volumes: [cache:/cache]\n    x-was";
const SIDECAR: &str = "services:\n  side:\n    image: y\n    privileged: true\n    volumes: [/var/run/docker.sock:/var/run/docker.sock]\n";
/// A sidecar as hardened as the base service, in `sub/`, reading an env
/// file beside it.
const SUB_SIDE: &str = "services:\n  side:\n    image: registry.example/lint@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef\n    read_only: true\n    user: \"1000:1000\"\n    cap_drop: [ALL]\n    security_opt: [no-new-privileges:true]\n    mem_limit: 512m\n    pids_limit: 64\n    runtime: runsc\n    entrypoint: [\"ruff\"]\n    command: [\"check\", \"/workspace\"]\n    network_mode: none\n    env_file: ./side.env\n    volumes:\n      - /srv/workshop/snapshots/parser:/workspace:ro\n";
const SUB_SIDE_VOL: &str =
    "services:\n  side:\n    image: y\n    volumes: [\"${DATA:-./data}:/data\"]\n";
const BASE_SVC: &str = "services:\n  b:\n    image: y\n    privileged: true\n";

fn cases() -> Vec<Case> {
    vec![
        Case { name: "control: eligible alone", ..C },
        Case { name: "control: .env with other keys", files: &[(".env", Some("TZ=UTC\n"))], ..C },
        Case { name: "control: default kept with no .env", service: "network_mode: ${NETWORK:-none}", ..C },
        Case { name: ".env sets the safe value the shell could change", service: "network_mode: ${NETWORK:-host}", files: &[(".env", Some("NETWORK=none\n"))], want: 1, ..C },
        Case { name: ".env sets the image tag the shell could change", service: "network_mode: none\n    labels: [\"tag=${TAG}\"]", files: &[(".env", Some("TAG=1.2\n"))], want: 1, ..C },
        Case { name: ".env read by an env_file the shell could change", service: "network_mode: none\n    env_file: ./job.env", files: &[(".env", Some("MODE=ci\n")), ("job.env", Some("JOB_MODE=${MODE}\n"))], want: 1, ..C },
        Case { name: "control: .env passed explicitly", service: "network_mode: ${NETWORK:-host}", files: &[(".env", Some("NETWORK=none\n"))], args: &["--env-file", ".env"], want: 0, ..C },
        Case { name: "control: .env unused by the file", service: "network_mode: ${NETWORK:-none}", files: &[(".env", Some("OTHER=1\n"))], want: 0, ..C },
        Case { name: ".env opens the network", service: "network_mode: ${NETWORK:-none}", files: &[(".env", Some("NETWORK=host\n"))], want: 1, ..C },
        Case { name: ".env (export, quoted) opens the network", service: "network_mode: ${NETWORK:-none}", files: &[(".env", Some("export NETWORK=\"host\"\n"))], want: 1, ..C },
        Case { name: ".env makes it privileged", service: "network_mode: none\n    privileged: ${PRIVILEGED:-false}", files: &[(".env", Some("PRIVILEGED=true\n"))], want: 1, ..C },
        Case { name: "--env-file opens the network", service: "network_mode: ${NETWORK:-none}", files: &[("ci.env", Some("NETWORK=host\n"))], args: &["--env-file", "ci.env"], want: 1, ..C },
        Case { name: "--env-file missing", args: &["--env-file", "nope.env"], want: 2, ..C },
        Case { name: ".env unreadable", service: "network_mode: ${NETWORK:-none}", files: &[(".env", None)], want: 2, ..C },
        Case { name: "env_file gives cloud keys", service: "network_mode: none\n    env_file: ~/.aws/credentials", want: 1, ..C },
        Case { name: "env_file sets LD_PRELOAD", service: "network_mode: none\n    env_file: [./job.env]", files: &[("job.env", Some("LD_PRELOAD=/tmp/x.so\n"))], want: 1, ..C },
        Case { name: "env_file missing", service: "network_mode: none\n    env_file: ./job.env", want: 2, ..C },
        Case { name: "env_file unreadable", service: "network_mode: none\n    env_file: ./job.env", files: &[("job.env", None)], want: 2, ..C },
        Case { name: "env_file unreadable, --partial", service: "network_mode: none\n    env_file: ./job.env", files: &[("job.env", None)], args: &["--partial"], want: 1, ..C },
        Case { name: "env_file optional and missing", service: "network_mode: none\n    env_file:\n      - path: ./job.env\n        required: false", want: 0, ..C },
        Case { name: "include pulls a privileged sidecar", extra: "include:\n  - sidecar.yml\n", files: &[("sidecar.yml", Some(SIDECAR))], want: 1, ..C },
        Case { name: "control: include from another directory, env_file read there", extra: "include:\n  - sub/side.yml\n", files: &[("sub/side.yml", Some(SUB_SIDE)), ("sub/side.env", Some("TZ=UTC\n"))], want: 0, ..C },
        Case { name: "include from another directory: its env_file sets LD_PRELOAD", extra: "include:\n  - sub/side.yml\n", files: &[("sub/side.yml", Some(SUB_SIDE)), ("sub/side.env", Some("LD_PRELOAD=/tmp/x.so\n")), ("side.env", Some("TZ=UTC\n"))], want: 1, ..C },
        Case { name: "include from another directory: its env_file is not there", extra: "include:\n  - sub/side.yml\n", files: &[("sub/side.yml", Some(SUB_SIDE)), ("side.env", Some("TZ=UTC\n"))], want: 2, ..C },
        Case { name: "include from another directory with an .env of its own", extra: "include:\n  - sub/side.yml\n", files: &[("sub/side.yml", Some(SUB_SIDE)), ("sub/side.env", Some("TZ=UTC\n")), ("sub/.env", Some("X=1\n"))], want: 2, ..C },
        Case { name: "include from another directory, a volume from a variable", extra: "include:\n  - sub/side.yml\n", files: &[("sub/side.yml", Some(SUB_SIDE_VOL))], want: 2, ..C },
        Case { name: "include from another directory, --partial", extra: "include:\n  - sub/side.yml\n", files: &[("sub/side.yml", Some(SUB_SIDE_VOL))], args: &["--partial"], want: 1, ..C },
        Case { name: "include missing", extra: "include:\n  - sidecar.yml\n", want: 2, ..C },
        Case { name: "include unreadable", extra: "include:\n  - sidecar.yml\n", files: &[("sidecar.yml", None)], want: 2, ..C },
        Case { name: "include unreadable, --partial", extra: "include:\n  - sidecar.yml\n", files: &[("sidecar.yml", None)], args: &["--partial"], want: 1, ..C },
        Case { name: "extends.file privileged base", service: "network_mode: none\n    extends: {file: base.yml, service: b}", files: &[("base.yml", Some(BASE_SVC))], want: 1, ..C },
        Case { name: "extends.file missing", service: "network_mode: none\n    extends: {file: base.yml, service: b}", want: 2, ..C },
        Case { name: "extends.file unreadable, --partial", service: "network_mode: none\n    extends: {file: base.yml, service: b}", files: &[("base.yml", None)], args: &["--partial"], want: 1, ..C },
        Case { name: "override makes it privileged", files: &[("compose.override.yml", Some("services:\n  lint:\n    privileged: true\n"))], want: 1, ..C },
        Case { name: "docker-compose.override.yml opens the network", file_name: "docker-compose.yml", files: &[("docker-compose.override.yml", Some("services:\n  lint:\n    network_mode: host\n"))], want: 1, ..C },
        Case { name: "override unreadable", files: &[("compose.override.yml", None)], want: 2, ..C },
        Case { name: "control: --no-override", files: &[("compose.override.yml", Some("services:\n  lint:\n    privileged: true\n"))], args: &["--no-override"], want: 0, ..C },
        Case { name: "control: no override beside another name", file_name: "ci.yaml", files: &[("compose.override.yml", Some("services:\n  lint:\n    privileged: true\n"))], want: 0, ..C },
        Case { name: "writable external volume", service: VOLUME, extra: "volumes:\n  cache:\n    external: true\n", want: 1, ..C },
        Case { name: "writable named volume", service: VOLUME, extra: "volumes:\n  cache: {}\n", want: 1, ..C },
        Case { name: "volumes_from another project's container", service: "network_mode: none\n    volumes_from: ['container:db']", want: 2, ..C },
        Case { name: "stdin with env_file", service: "network_mode: none\n    env_file: ./job.env", files: &[("job.env", Some("A=1\n"))], stdin: true, want: 2, ..C },
        Case { name: "stdin with env_file, --partial", service: "network_mode: none\n    env_file: ./job.env", stdin: true, args: &["--partial"], want: 1, ..C },
        Case { name: "stdin with include", extra: "include:\n  - sidecar.yml\n", files: &[("sidecar.yml", Some(SIDECAR))], stdin: true, want: 2, ..C },
        Case { name: "control: stdin, nothing named", stdin: true, want: 0, ..C },
    ]
}

#[test]
fn no_input_that_depends_on_unread_context_exits_0() {
    let base = std::fs::read_to_string(root().join(BASE)).unwrap();
    let runner = root().join(RUNNER);
    let cases = cases();
    let mut wrong = Vec::new();
    for c in &cases {
        let (code, out) = run(c, &base, &runner);
        if code != c.want {
            let tail: String = out
                .lines()
                .filter(|l| l.contains("error") || l.contains("high") || l.contains("critical"))
                .take(3)
                .collect::<Vec<_>>()
                .join(" | ");
            wrong.push(format!("{}: exit {code}, want {} ({tail})", c.name, c.want));
        }
        // A credential read from a companion is never echoed.
        assert!(
            !out.contains("wJalrXUtnFEMIK7MDENGbPxRfiCYEXAMPLEKEY"),
            "{}: secret echoed",
            c.name
        );
    }
    assert!(
        wrong.is_empty(),
        "{} of {} wrong:\n{}",
        wrong.len(),
        cases.len(),
        wrong.join("\n")
    );
}

#[test]
fn partial_findings_name_the_rule_and_the_file() {
    let base = std::fs::read_to_string(root().join(BASE)).unwrap();
    let runner = root().join(RUNNER);
    let c = Case {
        service: "network_mode: none\n    env_file: ./job.env",
        files: &[("job.env", None)],
        args: &["--partial"],
        ..C
    };
    let (code, out) = run(&c, &base, &runner);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("PRF021") && out.contains("./job.env"), "{out}");
    let refused = Case { args: &[], ..c };
    let (code, out) = run(&refused, &base, &runner);
    assert_eq!(code, 2, "{out}");
    assert!(
        out.contains("compose.yaml:") && out.contains("./job.env"),
        "{out}"
    );
}
