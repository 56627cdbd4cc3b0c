//! The context decides (issue 45): a Compose file read with the files
//! Compose reads beside it, one table per class. Each case is a file, its
//! companions by path, and what one setting of one service must read as;
//! a companion that cannot be read refuses the file, or with a partial
//! reading is a blocking finding (`Imported::unread`), never a note.

use std::collections::HashMap;

use crate::import::{import_compose, Companion, ComposeContext, Imported};

#[derive(Clone, Copy)]
struct Case {
    name: &'static str,
    file_name: &'static str,
    yaml: &'static str,
    /// (path, content); content `None`: unreadable.
    files: &'static [(&'static str, Option<&'static str>)],
    env_files: &'static [&'static str],
    overrides: bool,
    partial: bool,
    service: &'static str,
    ptr: &'static str,
    /// The value at `ptr` as JSON text, `refused`, or `unread` (a
    /// partial reading with a blocking finding on the service).
    want: &'static str,
}

const BASE: Case = Case {
    name: "",
    file_name: "compose.yaml",
    yaml: "",
    files: &[],
    env_files: &[],
    overrides: true,
    partial: false,
    service: "a",
    ptr: "",
    want: "",
};

fn run(c: &Case) -> String {
    let files: HashMap<&str, Option<&str>> = c.files.iter().copied().collect();
    let resolve = |p: &str| match files.get(p) {
        Some(Some(t)) => Companion::Read(t.as_bytes().to_vec()),
        Some(None) => Companion::Unreadable("permission denied".into()),
        None => Companion::Absent,
    };
    let env_files: Vec<String> = c.env_files.iter().map(|s| s.to_string()).collect();
    let cx = ComposeContext {
        resolve: &resolve,
        file_name: Some(c.file_name),
        env_files: &env_files,
        overrides: c.overrides,
        partial: c.partial,
    };
    match import_compose(c.yaml.as_bytes(), &cx) {
        Err(_) => "refused".into(),
        Ok(units) => {
            let Some(u): Option<&Imported> = units.iter().find(|u| u.name == c.service) else {
                return format!("no service {}", c.service);
            };
            if c.want == "unread" || c.want == "read" {
                return if u.unread.is_empty() {
                    "read".into()
                } else {
                    "unread".into()
                };
            }
            let doc: serde_json::Value = serde_json::from_str(&u.profile_json).unwrap();
            doc.pointer(c.ptr).map_or("null".into(), |v| v.to_string())
        }
    }
}

fn check(cases: &[Case]) {
    let wrong: Vec<String> = cases
        .iter()
        .filter_map(|c| {
            let got = run(c);
            (got != c.want).then(|| format!("{}: got {got}, want {}", c.name, c.want))
        })
        .collect();
    assert!(
        wrong.is_empty(),
        "{} of {} wrong:\n{}",
        wrong.len(),
        cases.len(),
        wrong.join("\n")
    );
}

const NET: &str = "services:\n  a:\n    image: x\n    network_mode: ${NETWORK:-none}\n    privileged: ${PRIVILEGED:-false}\n";

#[test]
fn the_project_env_file_is_read_as_compose_reads_it() {
    let c = |name, files, want| Case {
        name,
        yaml: NET,
        files,
        ptr: "/network/egress",
        want,
        ..BASE
    };
    let p = |name, files, want| Case {
        name,
        yaml: NET,
        files,
        ptr: "/boundary/privileged",
        want,
        ..BASE
    };
    check(&[
        c("no .env: the default", &[], "\"deny\""),
        c(
            "plain",
            &[(".env", Some("NETWORK=host\n"))],
            "\"allow-all\"",
        ),
        c(
            "export and quotes",
            &[(".env", Some("export NETWORK=\"host\"\n"))],
            "\"allow-all\"",
        ),
        c(
            "single quotes",
            &[(".env", Some("NETWORK='host'"))],
            "\"allow-all\"",
        ),
        c(
            "yaml style",
            &[(".env", Some("NETWORK: host\n"))],
            "\"allow-all\"",
        ),
        c(
            "comment after",
            &[(".env", Some("# net\nNETWORK=host # open\n"))],
            "\"allow-all\"",
        ),
        c(
            "interpolated inside",
            &[(".env", Some("A=ho\nNETWORK=${A}st\n"))],
            "\"allow-all\"",
        ),
        c(
            "CRLF",
            &[(".env", Some("NETWORK=host\r\n"))],
            "\"allow-all\"",
        ),
        c(
            "BOM",
            &[(".env", Some("\u{feff}NETWORK=host\n"))],
            "\"allow-all\"",
        ),
        c(
            "commented out",
            &[(".env", Some("#NETWORK=host\n"))],
            "\"deny\"",
        ),
        c("unreadable .env", &[(".env", None)], "refused"),
        c(
            "broken .env",
            &[(".env", Some("NETWORK=\"host\n"))],
            "refused",
        ),
        p(
            "privileged from .env",
            &[(".env", Some("PRIVILEGED=true\n"))],
            "true",
        ),
        p(
            "privileged yes",
            &[(".env", Some("PRIVILEGED=yes\n"))],
            "true",
        ),
        Case {
            name: "--env-file replaces .env",
            yaml: NET,
            files: &[
                (".env", Some("NETWORK=none\n")),
                ("ci.env", Some("NETWORK=host\n")),
            ],
            env_files: &["ci.env"],
            ptr: "/network/egress",
            want: "\"allow-all\"",
            ..BASE
        },
        Case {
            name: "--env-file missing",
            yaml: NET,
            env_files: &["ci.env"],
            ptr: "/network/egress",
            want: "refused",
            ..BASE
        },
        Case {
            name: "unreadable .env, partial",
            yaml: NET,
            files: &[(".env", None)],
            partial: true,
            want: "unread",
            ..BASE
        },
    ]);
}

const KEYS: Option<&str> = Some("AWS_ACCESS_KEY_ID=AKIAIOSFODNN7EXAMPLE\nAWS_SECRET_ACCESS_KEY=wJalrXUtnFEMIK7MDENGbPxRfiCYEXAMPLEKEY\nLD_PRELOAD=/tmp/x.so\n");
const ENV_FILE: &str =
    "services:\n  a:\n    image: x\n    network_mode: none\n    env_file: ./cloud.env\n";
const ENV_FILE_LONG: &str = "services:\n  a:\n    image: x\n    network_mode: none\n    env_file:\n      - path: ./cloud.env\n        required: false\n";
const ENV_FILE_BOTH: &str = "services:\n  a:\n    image: x\n    network_mode: none\n    env_file: [./a.env, ./b.env]\n    environment:\n      MODE: prod\n";

#[test]
fn env_files_become_the_environment() {
    let c = |name, yaml, files, ptr, want| Case {
        name,
        yaml,
        files,
        ptr,
        want,
        ..BASE
    };
    check(&[
        c(
            "a variable",
            ENV_FILE,
            &[("./cloud.env", KEYS)],
            "/environment/variables/LD_PRELOAD",
            "\"/tmp/x.so\"",
        ),
        c(
            "a key is a credential",
            ENV_FILE,
            &[("./cloud.env", KEYS)],
            "/credentials/1/name",
            "\"AWS_SECRET_ACCESS_KEY\"",
        ),
        c(
            "required and missing",
            ENV_FILE,
            &[],
            "/environment",
            "refused",
        ),
        c(
            "unreadable",
            ENV_FILE,
            &[("./cloud.env", None)],
            "/environment",
            "refused",
        ),
        c(
            "long syntax, optional and missing",
            ENV_FILE_LONG,
            &[],
            "/environment/variables",
            "{}",
        ),
        c(
            "long syntax, present",
            ENV_FILE_LONG,
            &[("./cloud.env", KEYS)],
            "/environment/variables/LD_PRELOAD",
            "\"/tmp/x.so\"",
        ),
        c(
            "later file wins",
            ENV_FILE_BOTH,
            &[("./a.env", Some("X=1\n")), ("./b.env", Some("X=2\n"))],
            "/environment/variables/X",
            "\"2\"",
        ),
        c(
            "environment wins",
            ENV_FILE_BOTH,
            &[("./a.env", Some("MODE=dev\n")), ("./b.env", Some(""))],
            "/environment/variables/MODE",
            "\"prod\"",
        ),
        c(
            "reads the project env",
            ENV_FILE,
            &[
                (".env", Some("P=/x.so\n")),
                ("./cloud.env", Some("LD_PRELOAD=${P}\n")),
            ],
            "/environment/variables/LD_PRELOAD",
            "\"/x.so\"",
        ),
        Case {
            name: "unreadable, partial",
            yaml: ENV_FILE,
            files: &[("./cloud.env", None)],
            partial: true,
            want: "unread",
            ..BASE
        },
        Case {
            name: "read, partial: nothing unread",
            yaml: ENV_FILE,
            files: &[("./cloud.env", KEYS)],
            partial: true,
            want: "read",
            ..BASE
        },
    ]);
}

const INCLUDE: &str =
    "include:\n  - sidecar.yml\nservices:\n  a:\n    image: x\n    network_mode: none\n";
const SIDECAR: &str = "services:\n  side:\n    image: y\n    privileged: true\n    volumes: [/var/run/docker.sock:/var/run/docker.sock]\n";
const EXTENDS: &str = "services:\n  a:\n    extends:\n      file: base.yml\n      service: b\n    image: x\n    network_mode: none\n";
const BASE_FILE: &str =
    "services:\n  b:\n    image: y\n    privileged: true\n    command: [sleep, '1']\n";

#[test]
fn included_and_extended_files_are_audited() {
    let c = |name, yaml, files, service, ptr, want| Case {
        name,
        yaml,
        files,
        service,
        ptr,
        want,
        ..BASE
    };
    check(&[
        c(
            "included service",
            INCLUDE,
            &[("sidecar.yml", Some(SIDECAR))],
            "side",
            "/boundary/privileged",
            "true",
        ),
        c(
            "included socket",
            INCLUDE,
            &[("sidecar.yml", Some(SIDECAR))],
            "side",
            "/mounts/0/source",
            "\"/var/run/docker.sock\"",
        ),
        c(
            "include missing",
            INCLUDE,
            &[],
            "a",
            "/boundary/privileged",
            "refused",
        ),
        c(
            "include unreadable",
            INCLUDE,
            &[("sidecar.yml", None)],
            "a",
            "/boundary/privileged",
            "refused",
        ),
        c(
            "include conflicting",
            INCLUDE,
            &[("sidecar.yml", Some("services:\n  a:\n    image: z\n"))],
            "a",
            "/boundary/privileged",
            "refused",
        ),
        c(
            "extends file",
            EXTENDS,
            &[("base.yml", Some(BASE_FILE))],
            "a",
            "/boundary/privileged",
            "true",
        ),
        c(
            "extends file command",
            EXTENDS,
            &[("base.yml", Some(BASE_FILE))],
            "a",
            "/command/executable",
            "\"sleep\"",
        ),
        c(
            "extends file missing",
            EXTENDS,
            &[],
            "a",
            "/boundary/privileged",
            "refused",
        ),
        c(
            "extends file unreadable",
            EXTENDS,
            &[("base.yml", None)],
            "a",
            "/boundary/privileged",
            "refused",
        ),
        Case {
            name: "include unreadable, partial",
            yaml: INCLUDE,
            files: &[("sidecar.yml", None)],
            partial: true,
            want: "unread",
            ..BASE
        },
        Case {
            name: "extends unreadable, partial",
            yaml: EXTENDS,
            files: &[("base.yml", None)],
            partial: true,
            want: "unread",
            ..BASE
        },
    ]);
}

const MAIN: &str = "services:\n  a:\n    image: x\n    network_mode: none\n    command: [run, tests]\n    volumes: [/srv/src:/src:ro]\n    environment: {A: '1'}\n";
const OVERRIDE: &str = "services:\n  a:\n    privileged: true\n    command: [sh]\n    volumes: [/srv/src:/src]\n    environment: {B: '2'}\n";

#[test]
fn the_override_file_is_merged_as_docker_compose_merges_it() {
    let c = |name, file_name, files, ptr, want| Case {
        name,
        file_name,
        yaml: MAIN,
        files,
        ptr,
        want,
        ..BASE
    };
    let o: &[(&str, Option<&str>)] = &[("compose.override.yml", Some(OVERRIDE))];
    let d: &[(&str, Option<&str>)] = &[("docker-compose.override.yml", Some(OVERRIDE))];
    check(&[
        c(
            "a mapping key added",
            "compose.yaml",
            o,
            "/boundary/privileged",
            "true",
        ),
        c(
            "command replaced",
            "compose.yaml",
            o,
            "/command/arguments",
            "[]",
        ),
        c(
            "volume by target",
            "compose.yaml",
            o,
            "/mounts/0/access",
            "\"read-write\"",
        ),
        c("one volume", "compose.yaml", o, "/mounts/1", "null"),
        c(
            "environment merged, old kept",
            "compose.yaml",
            o,
            "/environment/variables/A",
            "\"1\"",
        ),
        c(
            "environment merged, new added",
            "compose.yaml",
            o,
            "/environment/variables/B",
            "\"2\"",
        ),
        c(
            "docker-compose names",
            "docker-compose.yml",
            d,
            "/boundary/privileged",
            "true",
        ),
        c(
            "not beside another name",
            "ci.yml",
            o,
            "/boundary/privileged",
            "false",
        ),
        c(
            "unreadable override",
            "compose.yaml",
            &[("compose.override.yml", None)],
            "/boundary/privileged",
            "refused",
        ),
        Case {
            name: "--no-override",
            yaml: MAIN,
            files: o,
            overrides: false,
            ptr: "/boundary/privileged",
            want: "false",
            ..BASE
        },
    ]);
}

/// The page's reading: no file system, partial. A reference blocks; a
/// file with none reads as before.
#[test]
fn with_no_file_system_a_reference_blocks() {
    let cx = ComposeContext::no_files(true);
    for yaml in [ENV_FILE, INCLUDE, EXTENDS] {
        let units = import_compose(yaml.as_bytes(), &cx).unwrap();
        assert!(units.iter().all(|u| !u.unread.is_empty()), "{yaml}");
    }
    let units = import_compose(NET.as_bytes(), &cx).unwrap();
    assert!(units.iter().all(|u| u.unread.is_empty()));
    let refused = ComposeContext::no_files(false);
    for yaml in [ENV_FILE, INCLUDE, EXTENDS] {
        assert!(import_compose(yaml.as_bytes(), &refused).is_err(), "{yaml}");
    }
}
