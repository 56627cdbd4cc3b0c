//! Compose read as compose-go reads it, one table per class: command
//! strings split as go-shellwords splits them, interpolation wherever
//! compose-go applies it (commands, environment, labels, everywhere in the
//! file), and relative sources joined to the project directory lexically.

use super::import;
use crate::import::table_tests::{assert_none_wrong, profile};
use crate::import::Format;
use crate::model::StringEnum;

/// A service `a` with `service` (indented for the service's keys).
fn file(service: &str) -> String {
    format!("services:\n  a:\n    image: x\n    network_mode: none\n{service}")
}

/// `ptr` in the first profile, or the import's error as `error: L:C`.
fn read(yaml: &str, ptr: &str) -> serde_json::Value {
    match import(yaml.as_bytes()) {
        Ok(mut out) => {
            let (_, d) = out.remove(0);
            profile(d)
                .pointer(ptr)
                .cloned()
                .unwrap_or(serde_json::Value::Null)
        }
        Err(e) => {
            let at = e.loc.map(|l| format!("{}:{}", l.line, l.column));
            serde_json::json!(format!("error: {}", at.unwrap_or_default()))
        }
    }
}

/// The argv Docker runs: the executable then the arguments.
fn argv(yaml: &str) -> serde_json::Value {
    let exe = read(yaml, "/command/executable");
    if exe.as_str().is_some_and(|e| e.starts_with("error")) {
        return exe;
    }
    let mut all = vec![exe];
    if let Some(args) = read(yaml, "/command/arguments").as_array() {
        all.extend(args.iter().cloned());
    }
    serde_json::Value::Array(all)
}

/// compose-go splits a string `command` or `entrypoint` with
/// `shellwords.Parse` after interpolating it: no shell, a line break is a
/// space (a folded or literal block is one command line), `\` escapes in
/// double quotes too, and the line ends at the first `;`, `&`, `|`, `<` or
/// `>` outside quotes. What it cannot split, it refuses.
#[test]
fn command_strings_split_as_compose_splits_them() {
    let table: &[(&str, serde_json::Value)] = &[
        (
            "    command: >\n      sh -c \"echo a &&\n      echo b\"\n      --flag\n",
            serde_json::json!(["sh", "-c", "echo a && echo b", "--flag"]),
        ),
        (
            "    command: |\n      postgres\n      -c max_connections=50\n",
            serde_json::json!(["postgres", "-c", "max_connections=50"]),
        ),
        (
            "    command: \"sh -c 'echo $$HOME'\"\n",
            serde_json::json!(["sh", "-c", "echo $HOME"]),
        ),
        (
            "    command: run ${ARGS:-a b}\n",
            serde_json::json!(["run", "a", "b"]),
        ),
        ("    command: run ${ARGS:-}\n", serde_json::json!(["run"])),
        (
            "    command: run \"${ARGS:-}\"\n",
            serde_json::json!(["run", ""]),
        ),
        (
            "    command: 'echo \"a\\\"b\" c\\ d'\n",
            serde_json::json!(["echo", "a\"b", "c d"]),
        ),
        (
            "    command: npm start > /var/log/app.log 2>&1\n",
            serde_json::json!(["npm", "start"]),
        ),
        (
            "    command: serve 2>/dev/null\n",
            serde_json::json!(["serve"]),
        ),
        ("    command: a; rm -rf /\n", serde_json::json!(["a"])),
        (
            "    command: echo $(date) `id`\n",
            serde_json::json!(["echo", "$(date)", "`id`"]),
        ),
        (
            "    command: echo $1 $ x\n",
            serde_json::json!(["echo", "$1", "$", "x"]),
        ),
        (
            "    entrypoint: /bin/tini --\n    command: [\"run\", \"$$X\", \"${Y:-y}\"]\n",
            serde_json::json!(["/bin/tini", "--", "run", "$X", "y"]),
        ),
        (
            "    command: echo 'open\n",
            serde_json::json!("error: 5:14"),
        ),
        ("    command: echo (x)\n", serde_json::json!("error: 5:14")),
        ("    command: echo x)\n", serde_json::json!("error: 5:14")),
        ("    command: echo x\\\n", serde_json::json!("error: 5:14")),
        (
            "    command: run ${ARGS:?set ARGS}\n",
            serde_json::json!("error: 5:14"),
        ),
    ];
    let mut wrong = Vec::new();
    for (svc, want) in table {
        let got = argv(&file(svc));
        if &got != want {
            wrong.push(format!("{svc:?}: {got}, want {want}"));
        }
    }
    assert_none_wrong(&wrong, table.len());
}

/// compose-go interpolates every string of the file, then reads it: an
/// environment value is what interpolation gives (`${X:-}` is empty, never
/// a written secret; `${X:-literal}` is the literal, and a secret when the
/// literal is one; `$$` a literal `$`), a label is interpolated too, and a
/// template Compose refuses anywhere is refused at its line and column.
#[test]
fn interpolation_applies_wherever_compose_applies_it() {
    let env = |body: &str| file(&format!("    environment:\n{body}"));
    let table: &[(String, &str, serde_json::Value)] = &[
        (
            env("      DB_PASSWORD: ${DB_PASSWORD:-}\n"),
            "/environment/variables/DB_PASSWORD",
            serde_json::json!(""),
        ),
        (
            env("      DB_PASSWORD: ${DB_PASSWORD-}\n"),
            "/environment/variables/DB_PASSWORD",
            serde_json::json!(""),
        ),
        (
            env("      - DB_PASSWORD=${DB_PASSWORD:-}\n"),
            "/environment/variables/DB_PASSWORD",
            serde_json::json!(""),
        ),
        (
            env("      DB_PASSWORD: ${DB_PASSWORD:-hunter2hunter2}\n"),
            "/environment/variables/DB_PASSWORD",
            serde_json::json!("hunter2hunter2"),
        ),
        (
            env("      DB_PASSWORD: ${DB_PASSWORD}\n"),
            "/environment/variables/DB_PASSWORD",
            serde_json::json!("${DB_PASSWORD}"),
        ),
        (
            env("      PRICE: \"$$5\"\n"),
            "/environment/variables/PRICE",
            serde_json::json!("$5"),
        ),
        (
            env("      - URL=http://${HOST:-db}:${PORT:-5432}/x\n"),
            "/environment/variables/URL",
            serde_json::json!("http://db:5432/x"),
        ),
        (
            env("      DB_PASSWORD: ${DB_PASSWORD:?set it}\n"),
            "/environment",
            serde_json::json!("error: 6:20"),
        ),
        (
            env("      A: ${oops\n"),
            "/environment",
            serde_json::json!("error: 6:10"),
        ),
        (
            file("    labels:\n      a.b: ${X:?set X}\n"),
            "/boundary/privileged",
            serde_json::json!("error: 6:12"),
        ),
        (
            file("    labels:\n      - a.b=${oops\n"),
            "/boundary/privileged",
            serde_json::json!("error: 6:9"),
        ),
        (
            format!("{}x-extra:\n  a: ${{X:?}}\n", file("")),
            "/boundary/privileged",
            serde_json::json!("error: 6:6"),
        ),
        (
            file("    ports:\n      - \"${PORT:?}:80\"\n"),
            "/boundary/privileged",
            serde_json::json!("error: 6:9"),
        ),
        (
            file("    labels:\n      a.b: \"$$ and $ and ${X:-x}\"\n"),
            "/boundary/privileged",
            serde_json::json!(false),
        ),
    ];
    // Top-level definitions are interpolated too: a network's name and
    // its `internal` flag.
    let net = |def: &str| {
        format!("services:\n  a:\n    image: x\n    networks: [n]\nnetworks:\n  n:\n{def}")
    };
    let table: Vec<(String, &str, serde_json::Value)> = table
        .iter()
        .cloned()
        .chain([
            (
                net("    name: ${NET:-host}\n    external: true\n"),
                "/boundary/host_namespaces",
                serde_json::json!(["network"]),
            ),
            (
                net("    internal: \"${INTERNAL:-true}\"\n"),
                "/network/egress",
                serde_json::json!("deny"),
            ),
            (
                net("    internal: ${INTERNAL}\n"),
                "/network/egress",
                serde_json::json!("allow-all"),
            ),
            (
                "services:\n  a:\n    image: x\n    networks: [host]\nnetworks:\n  host:\n    external: ${EXT}\n".to_string(),
                "/boundary/host_namespaces",
                serde_json::json!(["network"]),
            ),
        ])
        .collect();
    let mut wrong = Vec::new();
    for (yaml, ptr, want) in &table {
        let got = read(yaml, ptr);
        if &got != want {
            wrong.push(format!("{yaml:?}: {ptr} is {got}, want {want}"));
        }
    }
    assert_none_wrong(&wrong, table.len());

    // What the audit makes of them: an empty default is no secret.
    let rules = |yaml: &str| {
        let units = crate::import::import(yaml.as_bytes(), Format::Compose).expect("imported");
        let r = crate::audit::audit_imported(
            &units[0],
            "x",
            &crate::Labels::workshop(),
            &Default::default(),
            None,
            &crate::InOrder,
        )
        .expect("audited");
        r.issues
            .iter()
            .filter(|f| f.rule == "CRD002")
            .map(|f| f.severity.as_str())
            .collect::<Vec<_>>()
    };
    assert!(rules(&env("      DB_PASSWORD: ${DB_PASSWORD:-}\n")).is_empty());
    assert!(rules(&env("      - POSTGRES_PASSWORD=${POSTGRES_PASSWORD-}\n")).is_empty());
    assert_eq!(
        rules(&env("      DB_PASSWORD: ${DB_PASSWORD:-hunter2hunter2}\n")),
        ["critical"]
    );
}

/// compose-go joins a relative source to the project directory with
/// `filepath.Join`, which resolves `..` lexically: that is what Docker
/// mounts. A `..` that climbs above the project directory stays in front
/// (where it leads depends on a directory the file does not fix), and so
/// does one above the home.
#[test]
fn relative_sources_are_joined_lexically() {
    let vol = |v: &str| file(&format!("    volumes:\n      - {v}\n"));
    let long = |s: &str| {
        file(&format!(
            "    volumes:\n      - type: bind\n        source: {s}\n        target: /x\n"
        ))
    };
    let table: Vec<(String, &str)> = vec![
        (vol("./data:/x"), "./data"),
        (vol("./a/../b:/x"), "./b"),
        (vol("./a/./b/..:/x"), "./a"),
        (vol("./a/..:/x"), "."),
        (vol(".:/x"), "."),
        (vol("../shared:/x"), "../shared"),
        (vol("./a/../../shared:/x"), "../shared"),
        (vol("../../home/u/.ssh:/x"), "../../home/u/.ssh"),
        (vol("~/src/../.ssh:/x"), "/home/<user>/.ssh"),
        (vol("~/../../etc:/x"), "/home/<user>/../../etc"),
        (vol("/srv/a/../b:/x"), "/srv/a/../b"),
        (long("data/../conf"), "./conf"),
        (long("conf"), "./conf"),
    ];
    let mut wrong = Vec::new();
    for (yaml, want) in &table {
        let got = read(yaml, "/mounts/0/source");
        if got != *want {
            wrong.push(format!("{yaml:?}: {got}, want {want}"));
        }
    }
    assert_none_wrong(&wrong, table.len());
}

/// A default that is a secret is reported, never repeated: the notes that
/// say which default was assumed are masked like every other message.
#[test]
fn a_secret_default_is_not_echoed_in_notes() {
    for (yaml, secret) in [
        (
            file("    environment:\n      DB_PASSWORD: ${DB_PASSWORD:-Xk3pQz9vLm2w}\n"),
            "Xk3pQz9vLm2w",
        ),
        (
            file("    environment:\n      - API_TOKEN=${API_TOKEN:-tok_9f8e7d6c5b4a}\n"),
            "tok_9f8e7d6c5b4a",
        ),
        (
            file("    command: run --password ${PW:-Zq8wRt5yUi3o}\n"),
            "Zq8wRt5yUi3o",
        ),
    ] {
        let units = crate::import::import(yaml.as_bytes(), Format::Compose).expect("imported");
        for n in &units[0].notes {
            assert!(!n.message.contains(secret), "{yaml:?}: {}", n.message);
        }
    }
}
