//! Fail closed: what Docker Compose does with a file that the import cannot
//! follow is refused at its line and column, and what it can follow is read
//! the way Compose reads it, so that the audit's verdict is Compose's
//! container's. One table per class of setting.

use super::import;
use crate::import::table_tests::{assert_none_wrong, profile};
use crate::import::{Format, ImportError};

/// A hardened service `a` (no network, a pinned image), then `service`
/// (indented for the service's keys), then `top` (top-level keys).
fn file(service: &str, top: &str) -> String {
    format!("services:\n  a:\n    image: x\n    network_mode: none\n{service}{top}")
}

/// The first profile of a file and its notes.
fn read(yaml: &str) -> Result<(serde_json::Value, Vec<String>), ImportError> {
    let mut out = import(yaml.as_bytes())?;
    let (_, d) = out.remove(0);
    let notes: Vec<String> = d.notes.iter().map(|n| n.message.to_string()).collect();
    Ok((profile(d), notes))
}

/// The rules that fire on the first profile, and whether the verdict
/// blocks.
fn audit(yaml: &str) -> (Vec<&'static str>, bool) {
    let units = crate::import::import(yaml.as_bytes(), Format::Compose).expect("imported");
    let labels = crate::Labels::workshop();
    let r = crate::audit::audit_imported(
        &units[0],
        "x",
        &labels,
        &Default::default(),
        None,
        &crate::InOrder,
    )
    .expect("audited");
    let rules = r.issues.iter().map(|f| f.rule).collect();
    (rules, r.issues.iter().any(|f| f.blocks()))
}

/// Where an error points and what it says.
fn refused(yaml: &str) -> Option<(u32, u32, String)> {
    let e = import(yaml.as_bytes()).err()?;
    let l = e.loc?;
    Some((l.line, l.column, e.to_string()))
}

/// compose-go reads each YAML document of a file as one more layer and
/// merges them in order (`loader/multidoc_test.go`,
/// `TestLoadMultiDocumentYaml`); an empty document, as after a trailing
/// `---`, is skipped (`TestLoadMultiDocumentYaml_TrailingSeparator`). This
/// import reads one document: a second one with content is refused where
/// it starts, never read as if it were not there.
#[test]
fn a_second_yaml_document_is_refused_where_it_starts() {
    let one = "services:\n  a:\n    image: x\n    network_mode: none\n";
    let more = "services:\n  a:\n    privileged: true\n";
    let b = "services:\n  b:\n    image: y\n";
    // (file, where the refusal points, or None when the file is read)
    let table: Vec<(String, Option<(u32, u32)>)> = vec![
        (format!("{one}---\n{more}"), Some((6, 1))),
        (format!("{one}---\n{more}---\n{b}"), Some((6, 1))),
        (format!("{one}---\n{b}"), Some((6, 1))),
        (format!("{one}---\nx-extra: 1\n"), Some((6, 1))),
        (format!("{one}---\n---\n{more}"), Some((7, 1))),
        // An empty document is nothing to merge.
        (format!("{one}---\n"), None),
        (format!("---\n{one}"), None),
        (format!("---\n{one}...\n"), None),
    ];
    let mut wrong = Vec::new();
    for (yaml, want) in &table {
        let got = import(yaml.as_bytes());
        match (want, &got) {
            (Some((line, column)), Err(e)) => {
                let at = e.loc.map(|l| (l.line, l.column));
                let m = e.to_string();
                if at != Some((*line, *column))
                    || !m.contains("Docker Compose merges")
                    || !m.contains("second YAML document")
                {
                    wrong.push(format!("{yaml:?}: refused at {at:?}: {m}"));
                }
            }
            (Some(_), Ok(_)) => wrong.push(format!("{yaml:?}: read, not refused")),
            (None, Err(e)) => wrong.push(format!("{yaml:?}: refused: {e}")),
            (None, Ok(_)) => {}
        }
    }
    assert_none_wrong(&wrong, table.len());
}

/// Docker Compose bind-mounts a `file:` config into the container,
/// read-only, at its `target` or `/<name>` (a relative target is under
/// `/`), and a `file:` secret the same way under `/run/secrets/`
/// (docker/compose `pkg/compose/create.go`, `buildContainerConfigMounts`
/// and `buildContainerSecretMounts`). `environment:` and `content:` are
/// copied in, not bound: no host path, but a note.
#[test]
fn file_configs_and_secrets_are_read_only_mounts_at_their_target() {
    type Mount = (&'static str, &'static str);
    // (service keys, top-level keys, mounts as (source, target), a note)
    let table: &[(&str, &str, &[Mount], &str)] = &[
        (
            "    configs: [engine]\n",
            "configs:\n  engine:\n    file: /var/run/docker.sock\n",
            &[("/var/run/docker.sock", "/engine")],
            "config `engine` is mounted from host file `/var/run/docker.sock` at `/engine`",
        ),
        (
            "    configs:\n      - source: kube\n        target: /home/app/.kube/config\n",
            "configs:\n  kube:\n    file: /root/.kube/config\n",
            &[("/root/.kube/config", "/home/app/.kube/config")],
            "at `/home/app/.kube/config`",
        ),
        (
            "    configs:\n      - source: kube\n",
            "configs:\n  kube:\n    file: /root/.kube/config\n",
            &[("/root/.kube/config", "/kube")],
            "at `/kube`",
        ),
        (
            "    configs:\n      - source: app\n        target: etc/app.conf\n",
            "configs:\n  app:\n    file: /etc/shadow\n",
            &[("/etc/shadow", "/etc/app.conf")],
            "at `/etc/app.conf`",
        ),
        (
            "    configs: [nginx]\n",
            "configs:\n  nginx:\n    file: ./nginx.conf\n",
            &[("./nginx.conf", "/nginx")],
            "relative to the Compose file's directory",
        ),
        (
            "    configs: [aws]\n",
            "configs:\n  aws:\n    file: ~/.aws/credentials\n",
            &[("/home/user/.aws/credentials", "/aws")],
            "home directory",
        ),
        (
            "    configs: [e]\n",
            "configs:\n  e:\n    environment: APP_CONFIG\n",
            &[],
            "config `e` is written into the container at `/e` from the variable `APP_CONFIG`",
        ),
        (
            "    configs: [c]\n",
            "configs:\n  c:\n    content: |\n      debug = false\n",
            &[],
            "config `c` is written into the container at `/c` from the Compose file",
        ),
        (
            "    secrets: [engine]\n",
            "secrets:\n  engine:\n    file: /var/run/docker.sock\n",
            &[("/var/run/docker.sock", "/run/secrets/engine")],
            "secret `engine` is mounted from host file `/var/run/docker.sock` at `/run/secrets/engine`",
        ),
        (
            "    secrets:\n      - source: engine\n        target: /var/run/docker.sock\n",
            "secrets:\n  engine:\n    file: /var/run/docker.sock\n",
            &[("/var/run/docker.sock", "/var/run/docker.sock")],
            "secret `engine` is mounted from host file `/var/run/docker.sock` at `/var/run/docker.sock`",
        ),
        (
            "    secrets:\n      - source: t\n        target: token\n",
            "secrets:\n  t:\n    file: ./token.txt\n",
            &[("./token.txt", "/run/secrets/token")],
            "at `/run/secrets/token`",
        ),
        (
            "    secrets: [e]\n",
            "secrets:\n  e:\n    environment: TOKEN\n",
            &[],
            "secret `e` is written into the container at `/run/secrets/e` from the variable `TOKEN`",
        ),
    ];
    let mut wrong = Vec::new();
    for (service, top, mounts, note) in table {
        let yaml = file(service, top);
        let (v, notes) = match read(&yaml) {
            Ok(x) => x,
            Err(e) => {
                wrong.push(format!("{yaml:?}: refused: {e}"));
                continue;
            }
        };
        let got: Vec<(String, String, String)> = v["mounts"]
            .as_array()
            .map(|a| {
                a.iter()
                    .map(|m| {
                        let s = |k: &str| m[k].as_str().unwrap_or("").to_string();
                        (s("source"), s("target"), s("access"))
                    })
                    .collect()
            })
            .unwrap_or_default();
        let want: Vec<(String, String, String)> = mounts
            .iter()
            .map(|(s, t)| (s.to_string(), t.to_string(), "read-only".to_string()))
            .collect();
        let got_home = got
            .iter()
            .map(|(s, t, a)| {
                let s = s.replace(crate::import::HOME_PLACEHOLDER, "/home/user");
                (s, t.clone(), a.clone())
            })
            .collect::<Vec<_>>();
        if got_home != want {
            wrong.push(format!("{yaml:?}: mounts {got:?}"));
        }
        if !notes.iter().any(|n| n.contains(note)) {
            wrong.push(format!("{yaml:?}: no note with {note:?} in {notes:?}"));
        }
    }
    assert_none_wrong(&wrong, table.len());
}

/// A config or secret the file does not define: Compose refuses the
/// project (compose-go: "refers to undefined config"); so does the import.
#[test]
fn an_undefined_config_is_refused() {
    let yaml = file("    configs:\n      - source: nope\n", "");
    let (line, column, m) = refused(&yaml).expect("refused");
    assert_eq!((line, column), (6, 17), "{m}");
    assert!(m.contains("config `nope`"), "{m}");
}

/// The probe's file: an engine socket and a cluster's credentials given to
/// the job as configs block the verdict with the socket's own rule.
#[test]
fn a_config_of_the_engine_socket_blocks() {
    let yaml = file(
        "    configs:\n      - source: engine\n        target: /var/run/docker.sock\n      - source: kube\n        target: /home/app/.kube/config\n",
        "configs:\n  engine:\n    file: /var/run/docker.sock\n  kube:\n    file: /root/.kube/config\n",
    );
    let (rules, blocks) = audit(&yaml);
    assert!(rules.contains(&"MNT004"), "{rules:?}");
    assert!(blocks, "{rules:?}");
}

/// `volumes_from` a container outside the file (or a service named by a
/// variable with no value) mounts volumes the import cannot see: neither a
/// blocking finding fits (the profile would have to invent the mounts) nor
/// may the file pass, so it is refused at the entry.
#[test]
fn volumes_from_what_the_file_cannot_show_is_refused() {
    let b = "  b:\n    image: y\n    volumes_from: [\"container:dind\"]\n";
    // (service keys, further services, where the refusal points, a word of it)
    let table: &[(&str, &str, (u32, u32), &str)] = &[
        (
            "    volumes_from:\n      - container:dind\n",
            "",
            (6, 9),
            "container `dind`",
        ),
        (
            "    volumes_from:\n      - container:dind:ro\n",
            "",
            (6, 9),
            "container `dind`",
        ),
        (
            "    volumes_from: [\"container:${PEER:-dind}\"]\n",
            "",
            (5, 20),
            "container `dind`",
        ),
        ("    volumes_from:\n      - ${PEER}\n", "", (6, 9), "`PEER`"),
        ("    volumes_from: [b]\n", b, (8, 20), "container `dind`"),
    ];
    let mut wrong = Vec::new();
    for (service, others, at, word) in table {
        let yaml =
            format!("services:\n  a:\n    image: x\n    network_mode: none\n{service}{others}");
        match refused(&yaml) {
            Some((line, column, m)) => {
                if (line, column) != *at || !m.contains(word) {
                    wrong.push(format!("{yaml:?}: refused at {line}:{column}: {m}"));
                }
            }
            None => wrong.push(format!("{yaml:?}: not refused")),
        }
    }
    assert_none_wrong(&wrong, table.len());
    // A service of the file is still followed.
    let ok = "services:\n  a:\n    image: x\n    volumes_from: [b]\n  b:\n    image: y\n    volumes: [\"/srv:/srv\"]\n";
    let (v, _) = read(ok).expect("read");
    assert_eq!(v["mounts"][0]["source"], "/srv");
}

/// A network whose engine name is `host` is Docker's host network: the
/// container shares the host's network stack exactly as with
/// `network_mode: host` (docker/compose makes the first network the
/// container's network mode by its name). An external network's name is
/// its `name`, else the legacy `external.name`, else its key. `none`
/// likewise means no network.
#[test]
fn the_engine_host_network_joined_by_name_is_the_host_network() {
    // (service keys, top-level keys, host network namespace?, egress)
    let table: &[(&str, &str, bool, &str)] = &[
        (
            "",
            "networks:\n  default:\n    name: host\n    external: true\n",
            true,
            "allow-all",
        ),
        (
            "    networks: [hostnet]\n",
            "networks:\n  hostnet:\n    name: host\n    external: true\n",
            true,
            "allow-all",
        ),
        (
            "    networks:\n      hostnet: {}\n",
            "networks:\n  hostnet:\n    name: host\n    external: true\n",
            true,
            "allow-all",
        ),
        (
            "    networks: [host]\n",
            "networks:\n  host:\n    external: true\n",
            true,
            "allow-all",
        ),
        (
            "    networks: [h]\n",
            "networks:\n  h:\n    external:\n      name: host\n",
            true,
            "allow-all",
        ),
        (
            "",
            "networks:\n  default:\n    name: none\n    external: true\n",
            false,
            "deny",
        ),
        (
            "",
            "networks:\n  default:\n    name: hostile\n    external: true\n",
            false,
            "allow-all",
        ),
        (
            "    networks: [host]\n",
            "networks:\n  host:\n    driver: bridge\n",
            false,
            "allow-all",
        ),
    ];
    let mut wrong = Vec::new();
    for (service, top, host, egress) in table {
        let yaml = format!("services:\n  a:\n    image: x\n{service}{top}");
        let (v, _) = match read(&yaml) {
            Ok(x) => x,
            Err(e) => {
                wrong.push(format!("{yaml:?}: refused: {e}"));
                continue;
            }
        };
        let shares = v["boundary"]["host_namespaces"]
            .as_array()
            .is_some_and(|a| a.iter().any(|n| n == "network"));
        if shares != *host || v["network"]["egress"] != *egress {
            wrong.push(format!(
                "{yaml:?}: host network {shares}, egress {}",
                v["network"]["egress"]
            ));
        }
    }
    assert_none_wrong(&wrong, table.len());
    let (rules, _) = audit(
        "services:\n  a:\n    image: x\nnetworks:\n  default:\n    name: host\n    external: true\n",
    );
    assert!(rules.contains(&"PRV006"), "{rules:?}");
}

/// `develop.watch` entries run `exec` hooks in the container (as root,
/// privileged, when they say so), like `post_start`: setup steps, and a
/// privileged one makes the boundary privileged. Every key under
/// `develop` the import does not know is a note naming its path.
#[test]
fn develop_watch_exec_hooks_are_setup_steps() {
    let watch = "    develop:\n      watch:\n        - path: ./src\n          action: sync+exec\n          target: /app\n          exec:\n            command: [\"sh\", \"-c\", \"make\"]\n            user: root\n            privileged: true\n";
    let (v, notes) = read(&file(watch, "")).expect("read");
    assert_eq!(v["boundary"]["privileged"], true);
    assert_eq!(v["setup"][0]["executable"], "sh");
    assert!(
        notes
            .iter()
            .any(|n| n.contains("develop.watch[0].exec") && n.contains("privileged")),
        "{notes:?}"
    );
    assert!(
        notes.iter().any(|n| n.contains("runs as root")),
        "{notes:?}"
    );
    // Unknown keys at each level are notes with their path.
    let unknown: &[(&str, &str)] = &[
        ("    develop:\n      zz: 1\n", "services.a.develop.zz"),
        (
            "    develop:\n      watch:\n        - path: ./src\n          action: sync\n          zz: 1\n",
            "services.a.develop.watch[0].zz",
        ),
        (
            "    develop:\n      watch:\n        - path: ./src\n          action: sync+exec\n          exec:\n            command: make\n            zz: 1\n",
            "services.a.develop.watch[0].exec.zz",
        ),
    ];
    let mut wrong = Vec::new();
    for (service, path) in unknown {
        match read(&file(service, "")) {
            Ok((_, notes)) if notes.iter().any(|n| n.contains(path)) => {}
            other => wrong.push(format!("{service:?}: no note naming {path}: {other:?}")),
        }
    }
    assert_none_wrong(&wrong, unknown.len());
    let (rules, blocks) = audit(&file(watch, ""));
    assert!(rules.contains(&"PRV001") && blocks, "{rules:?}");
}

/// compose-go casts a string to a boolean for these service fields,
/// case-insensitively: `true`, `y`, `yes`, `on` are true and `false`,
/// `n`, `no`, `off` false (`loader/interpolate.go`, `toBoolean`, applied
/// to every string at a cast path, quoted or not); anything else is an
/// error, in Compose and here.
#[test]
fn boolean_strings_are_read_as_compose_casts_them() {
    // (service keys, JSON pointer, value; or None: refused)
    let table: &[(&str, &str, Option<serde_json::Value>)] = &[
        (
            "    privileged: \"true\"\n",
            "/boundary/privileged",
            Some(true.into()),
        ),
        (
            "    privileged: oN\n",
            "/boundary/privileged",
            Some(true.into()),
        ),
        (
            "    privileged: \"oN\"\n",
            "/boundary/privileged",
            Some(true.into()),
        ),
        (
            "    privileged: 'YES'\n",
            "/boundary/privileged",
            Some(true.into()),
        ),
        (
            "    privileged: \"Y\"\n",
            "/boundary/privileged",
            Some(true.into()),
        ),
        (
            "    privileged: \"Off\"\n",
            "/boundary/privileged",
            Some(false.into()),
        ),
        (
            "    privileged: \"nO\"\n",
            "/boundary/privileged",
            Some(false.into()),
        ),
        (
            "    read_only: \"FALSE\"\n",
            "/boundary/read_only_root",
            Some(false.into()),
        ),
        (
            "    read_only: \"on\"\n",
            "/boundary/read_only_root",
            Some(true.into()),
        ),
        (
            "    oom_kill_disable: \"yes\"\n",
            "/boundary/oom_kill_disable",
            Some(true.into()),
        ),
        (
            "    tty: \"true\"\n    stdin_open: \"On\"\n",
            "/boundary/terminal",
            Some("pty".into()),
        ),
        ("    privileged: \"maybe\"\n", "/boundary/privileged", None),
        ("    privileged: \"1\"\n", "/boundary/privileged", None),
    ];
    let mut wrong = Vec::new();
    for (service, ptr, want) in table {
        let yaml = file(service, "");
        match (read(&yaml), want) {
            (Ok((v, _)), Some(w)) => {
                if v.pointer(ptr) != Some(w) {
                    wrong.push(format!("{service:?}: {ptr} is {:?}", v.pointer(ptr)));
                }
            }
            (Err(e), None) if e.loc.is_some() => {}
            (got, _) => wrong.push(format!("{service:?}: {:?}", got.map(|(v, _)| v))),
        }
    }
    assert_none_wrong(&wrong, table.len());
}

/// A Windows named pipe is a host path the job talks through: audited as a
/// mount, so the engine's pipe is its socket (PRV009) and any other pipe is
/// a source the audit cannot vouch for; neither passes.
#[test]
fn host_named_pipes_are_mounts() {
    for (pipe, engine) in [
        (r"\\.\pipe\docker_engine", true),
        (r"\\.\pipe\dockerDesktopLinuxEngine", true),
        (r"\\.\pipe\some_app", false),
    ] {
        let yaml = file(
            &format!(
                "    volumes:\n      - type: npipe\n        source: '{pipe}'\n        target: '\\\\.\\pipe\\docker_engine'\n"
            ),
            "",
        );
        let (rules, blocks) = audit(&yaml);
        assert_eq!(rules.contains(&"PRV009"), engine, "{pipe}: {rules:?}");
        assert!(blocks, "{pipe}: {rules:?}");
    }
}
