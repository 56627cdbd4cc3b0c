//! The class test of "no silent drop": for every key an importer's table
//! knows, set in turn to every value shape on a minimal valid input, the
//! import either changes the profile, adds a note, or refuses the file
//! with an error at the value's line and column. A key on a neutral list
//! may do nothing with a value of its type, but a value of another type is
//! always an error. An unknown key at every level the tables describe is a
//! note naming its path.
//!
//! The keys come from the importers' own tables, so a key added there is
//! tested here without a word.

use super::builder::Draft;
use super::shape::{Role, Shape, Table};
use super::ImportError;

/// What an import produced: each profile's JSON, notes and undeclared
/// fields, or the error.
/// The source map counts: a value equal to the default, once read, maps
/// its field to its own line.
type Outcome = Result<Vec<(String, Vec<String>, Vec<String>, Vec<String>)>, ImportError>;

/// What the secret walk finds in a tree, sorted, and whether it held any.
/// An import walks each draft's tree instead of its written text: every
/// outcome here checks that both give the same.
pub(super) fn secrets_of<T: crate::secrets::Tree>(root: &T) -> (Vec<String>, bool) {
    let mut values = Vec::new();
    let holds = crate::secrets::Secrets::collect_into(root, &mut values, None);
    values.sort();
    (values, holds)
}

fn outcome(r: Result<Vec<(String, Draft)>, ImportError>) -> Outcome {
    // One memo for the drafts of one file, as an import keeps it.
    let mut memo = crate::secrets::Memo::default();
    r.map(|drafts| {
        drafts
            .into_iter()
            .map(|(_, d)| {
                let tree = secrets_of(d.root());
                let mut values = Vec::new();
                let holds =
                    crate::secrets::Secrets::collect_into(d.root(), &mut values, Some(&mut memo));
                values.sort();
                assert_eq!(tree, (values, holds), "the memo changes what is found");
                let (json, map, notes, undeclared) = d.finish().expect("a small test input");
                let doc = crate::json::parse(json.as_bytes(), Default::default()).expect("JSON");
                assert_eq!(
                    tree,
                    secrets_of(&doc.root),
                    "the draft's tree and its text differ"
                );
                (
                    json,
                    map.into_iter()
                        .map(|m| format!("{} {}:{}", m.pointer, m.line, m.column))
                        .collect(),
                    notes.into_iter().map(|n| n.message.into_owned()).collect(),
                    undeclared
                        .into_iter()
                        .map(|u| format!("{} {}", u.pointer, u.reason))
                        .collect(),
                )
            })
            .collect()
    })
}

/// An importer's entry point, before the drafts are finished.
type Importer = fn(&[u8]) -> Result<Vec<(String, Draft)>, ImportError>;

/// A value shape to try, written in the input's syntax.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum V {
    QuotedText,
    QuotedZero,
    PlainText,
    Zero,
    Seven,
    True,
    Null,
    List,
    Map,
    ListOfMaps,
}

const VALUES: [V; 10] = [
    V::QuotedText,
    V::QuotedZero,
    V::PlainText,
    V::Zero,
    V::Seven,
    V::True,
    V::Null,
    V::List,
    V::Map,
    V::ListOfMaps,
];

#[derive(Clone, Copy, PartialEq, Eq)]
enum Syntax {
    Yaml,
    Json,
    Toml,
}

fn text(v: V, s: Syntax) -> Option<&'static str> {
    Some(match (v, s) {
        (V::QuotedText, _) => "\"text\"",
        (V::QuotedZero, _) => "\"0\"",
        (V::PlainText, Syntax::Yaml) => "text",
        (V::PlainText, _) => return None,
        (V::Zero, _) => "0",
        (V::Seven, _) => "7",
        (V::True, _) => "true",
        (V::Null, Syntax::Toml) => return None,
        (V::Null, _) => "null",
        (V::List, _) => "[\"a\"]",
        (V::Map, Syntax::Toml) => "{ a = \"b\" }",
        (V::Map, _) => "{\"a\": \"b\"}",
        (V::ListOfMaps, Syntax::Toml) => "[{ a = \"b\" }]",
        (V::ListOfMaps, _) => "[{\"a\": \"b\"}]",
    })
}

/// Whether a value of this kind has the shape: the test's own reading of
/// each shape, independent of the walk's.
fn fits(shape: &Shape, v: V) -> bool {
    let scalar = matches!(
        v,
        V::QuotedText | V::QuotedZero | V::PlainText | V::Zero | V::Seven | V::True
    );
    match shape {
        Shape::Any => true,
        Shape::Scalar => scalar,
        Shape::Text => matches!(v, V::QuotedText | V::QuotedZero | V::PlainText),
        Shape::Bool => v == V::True,
        Shape::Int => matches!(v, V::Zero | V::Seven),
        // No value tried is one of an enum's words.
        Shape::Enum(_) => false,
        Shape::Seq(item) => match v {
            V::List => fits(item, V::QuotedText),
            V::ListOfMaps => fits(item, V::Map),
            _ => false,
        },
        Shape::Map(_) | Shape::Dict(_) => v == V::Map,
        Shape::ScalarOrSeq => scalar || v == V::List,
        Shape::Collection => matches!(v, V::List | V::Map | V::ListOfMaps),
        Shape::ListOrDict => matches!(v, V::List | V::Map),
        Shape::MapOrScalar(_) => scalar || v == V::Map,
        Shape::SeqOfMapOrScalar(_) => matches!(v, V::List | V::ListOfMaps),
    }
}

/// One place in an input where a table's keys are written. The key is
/// written last, so no line or column of the rest moves: the source map
/// then changes only when the key is read.
struct Place {
    name: &'static str,
    table: &'static Table,
    syntax: Syntax,
    /// The input with `key: value` inserted at the place.
    input: fn(&str, &str) -> String,
    import: Importer,
    /// Keys the minimal input already holds.
    present: &'static [&'static str],
    /// Where the walk names this place in its messages.
    path: &'static str,
}

fn check(place: &Place) -> Vec<String> {
    let mut failures = Vec::new();
    let base = outcome((place.import)((place.input)("", "").as_bytes()));
    let Ok(base) = base else {
        return vec![format!("{}: the minimal input fails: {base:?}", place.name)];
    };
    for f in place.table.fields {
        if place.present.contains(&f.key) {
            continue;
        }
        for v in VALUES {
            let Some(value) = text(v, place.syntax) else {
                continue;
            };
            let input = (place.input)(f.key, value);
            let got = outcome((place.import)(input.as_bytes()));
            let what = format!("{}: `{}: {value}`", place.name, f.key);
            if v == V::Null {
                // Null is the key left out, as every consumer reads it.
                // Compared without the source map: a key written with no
                // value may still anchor where its field would go.
                let strip = |o: &Outcome| {
                    o.as_ref().ok().map(|v| {
                        v.iter()
                            .map(|(j, _, n, u)| (j.clone(), n.clone(), u.clone()))
                            .collect::<Vec<_>>()
                    })
                };
                if strip(&got) != strip(&Ok(base.clone())) {
                    failures.push(format!("{what}: null is not the key left out"));
                }
                continue;
            }
            match (&got, fits(&f.shape, v)) {
                (Err(e), _) => {
                    if e.loc.is_none() {
                        failures.push(format!("{what}: error without a position: {e}"));
                    }
                }
                (Ok(_), false) => failures.push(format!("{what}: a wrong type is accepted")),
                (Ok(o), true) => {
                    if *o == base && !matches!(f.role, Role::Neutral) {
                        failures.push(format!("{what}: no effect, no note, no error"));
                    }
                }
            }
            // A wrong type is refused with the key's path and the type.
            if let (Err(e), false) = (&got, fits(&f.shape, v)) {
                let m = e.to_string();
                let key_path = if place.path.is_empty() {
                    f.key.to_string()
                } else {
                    format!("{}.{}", place.path, f.key)
                };
                if !m.contains(&format!("`{key_path}")) || !m.contains("must be") {
                    failures.push(format!("{what}: the error does not name the path: {m}"));
                }
            }
        }
    }
    // An unknown key is a note naming its path.
    let bogus = "zzUnknownKey";
    let value = text(V::QuotedText, place.syntax).unwrap_or("\"text\"");
    let input = (place.input)(bogus, value);
    match outcome((place.import)(input.as_bytes())) {
        Ok(o) => {
            let want = if place.path.is_empty() {
                bogus.to_string()
            } else {
                format!("{}.{bogus}", place.path)
            };
            if !o
                .iter()
                .any(|(_, _, notes, _)| notes.iter().any(|n| n.contains(&want)))
            {
                failures.push(format!("{}: unknown key not noted as `{want}`", place.name));
            }
        }
        Err(e) => failures.push(format!("{}: unknown key refused: {e}", place.name)),
    }
    failures
}

fn run(places: &[Place]) {
    let failures: Vec<String> = places.iter().flat_map(check).collect();
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// A pod: `before` goes above the containers, `container` into the one
/// container, `after` below it (where the tested key goes last).
fn k8s(before: &str, container: &str, after: &str) -> String {
    format!(
        "apiVersion: v1\nkind: Pod\nmetadata: {{name: t}}\nspec:\n{before}  containers:\n  - name: c\n    image: x\n{container}{after}"
    )
}

fn kv(indent: &str, key: &str, value: &str) -> String {
    if key.is_empty() {
        String::new()
    } else {
        format!("{indent}{key}: {value}\n")
    }
}

fn k8s_import(b: &[u8]) -> Result<Vec<(String, Draft)>, ImportError> {
    super::kubernetes::import(b)
}

#[test]
fn kubernetes_keys_are_never_silent() {
    use super::kubernetes::schema as s;
    run(&[
        Place {
            name: "pod spec",
            table: &s::POD_SPEC,
            syntax: Syntax::Yaml,
            input: |k, v| k8s("", "", &kv("  ", k, v)),
            import: k8s_import,
            present: &["containers"],
            path: "spec",
        },
        Place {
            name: "container",
            table: &s::CONTAINER,
            syntax: Syntax::Yaml,
            input: |k, v| k8s("", &kv("    ", k, v), ""),
            import: k8s_import,
            present: &["name", "image"],
            path: "spec.containers[0]",
        },
        Place {
            name: "pod securityContext",
            table: &s::POD_SC,
            syntax: Syntax::Yaml,
            input: |k, v| k8s("", "", &format!("  securityContext:\n{}", kv("    ", k, v))),
            import: k8s_import,
            present: &[],
            path: "spec.securityContext",
        },
        Place {
            name: "container securityContext",
            table: &s::CONTAINER_SC,
            syntax: Syntax::Yaml,
            input: |k, v| {
                k8s(
                    "",
                    &format!("    securityContext:\n{}", kv("      ", k, v)),
                    "",
                )
            },
            import: k8s_import,
            present: &[],
            path: "spec.containers[0].securityContext",
        },
        Place {
            name: "volume",
            table: &s::VOLUME,
            syntax: Syntax::Yaml,
            input: |k, v| {
                k8s(
                    "",
                    "    volumeMounts:\n    - {name: v, mountPath: /v}\n",
                    &format!("  volumes:\n  - name: v\n{}", kv("    ", k, v)),
                )
            },
            import: k8s_import,
            present: &["name"],
            path: "spec.volumes[0]",
        },
        Place {
            name: "volume mount",
            table: &s::MOUNT,
            syntax: Syntax::Yaml,
            input: |k, v| {
                k8s(
                    "  volumes:\n  - {name: v, hostPath: {path: /srv}}\n",
                    &format!(
                        "    volumeMounts:\n    - name: v\n      mountPath: /v\n{}",
                        kv("      ", k, v)
                    ),
                    "",
                )
            },
            import: k8s_import,
            present: &["name", "mountPath"],
            path: "spec.containers[0].volumeMounts[0]",
        },
        Place {
            name: "Job spec",
            table: &s::JOB_SPEC,
            syntax: Syntax::Yaml,
            input: |k, v| {
                format!(
                    "apiVersion: batch/v1\nkind: Job\nmetadata: {{name: t}}\nspec:\n  template:\n    spec:\n      containers:\n      - name: c\n        image: x\n{}",
                    kv("  ", k, v)
                )
            },
            import: k8s_import,
            present: &["template"],
            path: "spec",
        },
        Place {
            name: "CronJob spec",
            table: &s::CRONJOB_SPEC,
            syntax: Syntax::Yaml,
            input: |k, v| {
                format!(
                    "apiVersion: batch/v1\nkind: CronJob\nmetadata: {{name: t}}\nspec:\n  jobTemplate:\n    spec:\n      template:\n        spec:\n          containers:\n          - name: c\n            image: x\n{}",
                    kv("  ", k, v)
                )
            },
            import: k8s_import,
            present: &["jobTemplate"],
            path: "spec",
        },
        Place {
            name: "Deployment spec",
            table: &s::CONTROLLER_SPEC,
            syntax: Syntax::Yaml,
            input: |k, v| {
                format!(
                    "apiVersion: apps/v1\nkind: Deployment\nmetadata: {{name: t}}\nspec:\n  template:\n    spec:\n      containers:\n      - name: c\n        image: x\n{}",
                    kv("  ", k, v)
                )
            },
            import: k8s_import,
            present: &["template"],
            path: "spec",
        },
        Place {
            name: "metadata",
            table: &s::METADATA,
            syntax: Syntax::Yaml,
            input: |k, v| {
                format!(
                    "apiVersion: v1\nkind: Pod\nspec:\n  containers:\n  - name: c\n    image: x\nmetadata:\n  name: t\n{}",
                    kv("  ", k, v)
                )
            },
            import: k8s_import,
            present: &["name"],
            path: "metadata",
        },
    ]);
}

/// A Compose file: `service` goes into the one service, `top` below it
/// (where the tested key goes last).
fn compose(top: &str, service: &str) -> String {
    format!("services:\n  a:\n    image: x\n{service}{top}")
}

fn compose_import(b: &[u8]) -> Result<Vec<(String, Draft)>, ImportError> {
    super::compose::import(b)
}

#[test]
fn compose_keys_are_never_silent() {
    use super::compose::schema as s;
    run(&[
        Place {
            name: "compose top level",
            table: &s::TOP,
            syntax: Syntax::Yaml,
            input: |k, v| compose(&kv("", k, v), ""),
            import: compose_import,
            present: &["services"],
            path: "",
        },
        Place {
            name: "service",
            table: &s::SERVICE,
            syntax: Syntax::Yaml,
            input: |k, v| compose("", &kv("    ", k, v)),
            import: compose_import,
            present: &["image"],
            path: "services.a",
        },
        Place {
            name: "deploy",
            table: &s::DEPLOY,
            syntax: Syntax::Yaml,
            input: |k, v| compose("", &format!("    deploy:\n{}", kv("      ", k, v))),
            import: compose_import,
            present: &[],
            path: "services.a.deploy",
        },
        Place {
            name: "deploy.resources",
            table: &s::DEPLOY_RESOURCES,
            syntax: Syntax::Yaml,
            input: |k, v| {
                compose(
                    "",
                    &format!("    deploy:\n      resources:\n{}", kv("        ", k, v)),
                )
            },
            import: compose_import,
            present: &[],
            path: "services.a.deploy.resources",
        },
        Place {
            name: "deploy.resources.limits",
            table: &s::DEPLOY_LIMITS,
            syntax: Syntax::Yaml,
            input: |k, v| {
                compose(
                    "",
                    &format!(
                        "    deploy:\n      resources:\n        limits:\n{}",
                        kv("          ", k, v)
                    ),
                )
            },
            import: compose_import,
            present: &[],
            path: "services.a.deploy.resources.limits",
        },
        Place {
            name: "deploy.resources.reservations",
            table: &s::DEPLOY_RESERVATIONS,
            syntax: Syntax::Yaml,
            input: |k, v| {
                compose(
                    "",
                    &format!(
                        "    deploy:\n      resources:\n        reservations:\n{}",
                        kv("          ", k, v)
                    ),
                )
            },
            import: compose_import,
            present: &[],
            path: "services.a.deploy.resources.reservations",
        },
        Place {
            name: "network definition",
            table: &s::NETWORK_DEF,
            syntax: Syntax::Yaml,
            input: |k, v| {
                compose(
                    &format!("networks:\n  n:\n    driver: bridge\n{}", kv("    ", k, v)),
                    "    networks: [n]\n",
                )
            },
            import: compose_import,
            present: &["driver"],
            path: "networks.n",
        },
        Place {
            name: "volume definition",
            table: &s::VOLUME_DEF,
            syntax: Syntax::Yaml,
            input: |k, v| {
                compose(
                    &format!("volumes:\n  data:\n    driver: local\n{}", kv("    ", k, v)),
                    "    volumes: [\"data:/v\"]\n",
                )
            },
            import: compose_import,
            present: &["driver"],
            path: "volumes.data",
        },
        Place {
            name: "secret definition",
            table: &s::SECRET_DEF,
            syntax: Syntax::Yaml,
            input: |k, v| {
                compose(
                    &format!("secrets:\n  s:\n    name: s\n{}", kv("    ", k, v)),
                    "    secrets: [s]\n",
                )
            },
            import: compose_import,
            present: &["name"],
            path: "secrets.s",
        },
        Place {
            name: "develop",
            table: &s::DEVELOP,
            syntax: Syntax::Yaml,
            // `develop` is noted once it holds anything: the minimal input
            // holds an extension key, so only the tested key differs.
            input: |k, v| {
                compose(
                    "",
                    &format!("    develop:\n      x-base: 1\n{}", kv("      ", k, v)),
                )
            },
            import: compose_import,
            present: &[],
            path: "services.a.develop",
        },
        Place {
            name: "develop.watch",
            table: &s::WATCH,
            syntax: Syntax::Yaml,
            input: |k, v| {
                compose(
                    "",
                    &format!(
                        "    develop:\n      watch:\n        - path: ./src\n          action: sync\n{}",
                        kv("          ", k, v)
                    ),
                )
            },
            import: compose_import,
            present: &["path", "action"],
            path: "services.a.develop.watch[0]",
        },
        Place {
            name: "develop.watch exec",
            table: &s::HOOK,
            syntax: Syntax::Yaml,
            input: |k, v| {
                compose(
                    "",
                    &format!(
                        "    develop:\n      watch:\n        - path: ./src\n          action: sync+exec\n          exec:\n            command: make\n{}",
                        kv("            ", k, v)
                    ),
                )
            },
            import: compose_import,
            present: &["command"],
            path: "services.a.develop.watch[0].exec",
        },
        Place {
            name: "config definition",
            table: &s::CONFIG_DEF,
            syntax: Syntax::Yaml,
            input: |k, v| {
                compose(
                    &format!("configs:\n  c:\n    name: c\n{}", kv("    ", k, v)),
                    "    configs: [c]\n",
                )
            },
            import: compose_import,
            present: &["name"],
            path: "configs.c",
        },
        Place {
            name: "long volume",
            table: &s::LONG_VOLUME,
            syntax: Syntax::Yaml,
            input: |k, v| {
                let base = "    volumes:\n    - target: /t\n      source: /srv\n";
                let extra = "      type: bind\n";
                compose("", &format!("{base}{extra}{}", kv("      ", k, v)))
            },
            import: compose_import,
            present: &["target", "source", "type"],
            path: "services.a.volumes[0]",
        },
    ]);
}

/// A key the walk holds neutral must not hide a subtree: a value of any
/// shape under it (`Any`, a mapping or list of anything) is neither
/// walked for unknown keys nor read, so anything Compose adds there
/// (`develop.watch[].exec` was one: a privileged hook) would pass
/// silently. Such a key is read, noted, or given a table; the few that
/// stay opaque are listed here with why nothing under them can grant the
/// job anything.
#[test]
fn no_neutral_compose_key_hides_a_subtree() {
    use super::compose::schema as s;
    use super::shape::Field;
    const OPAQUE: &[(&str, &str)] = &[
        ("logging", "where the engine sends the container's output"),
        ("depends_on", "start order and conditions"),
        ("placement", "which Swarm node runs the service"),
        ("restart_policy", "when the container restarts"),
        ("rollback_config", "how Swarm rolls back an update"),
        ("update_config", "how Swarm rolls out an update"),
        ("volume", "options of a Docker-managed volume"),
        ("tmpfs", "size and mode of scratch memory"),
        ("image", "a path inside an image"),
        ("ipam", "address ranges of a network"),
        ("external", "that a definition is made outside the file"),
        (
            "models",
            "top-level model definitions; a service's use is noted",
        ),
    ];
    fn opaque(shape: &Shape) -> bool {
        match shape {
            Shape::Any | Shape::Collection => true,
            Shape::Dict(inner) | Shape::Seq(inner) => opaque(inner),
            _ => false,
        }
    }
    fn tables(shape: &Shape) -> Vec<&'static Table> {
        match shape {
            Shape::Map(t) | Shape::MapOrScalar(t) | Shape::SeqOfMapOrScalar(t) => vec![*t],
            Shape::Dict(inner) | Shape::Seq(inner) => tables(inner),
            _ => Vec::new(),
        }
    }
    fn visit(t: &'static Table, path: &str, seen: &mut Vec<*const Table>, wrong: &mut Vec<String>) {
        if seen.contains(&(t as *const Table)) {
            return;
        }
        seen.push(t);
        for f in t.fields {
            let Field { key, shape, role } = f;
            let here = format!("{path}.{key}");
            // `build` is noted as a whole, so what it holds is noted too.
            let in_build = path.ends_with(".build");
            if *role == Role::Neutral
                && opaque(shape)
                && !in_build
                && !OPAQUE.iter().any(|(k, _)| k == key)
            {
                wrong.push(format!("{here}: neutral, and nothing under it is walked"));
            }
            for inner in tables(shape) {
                visit(inner, &here, seen, wrong);
            }
        }
    }
    let mut wrong = Vec::new();
    let mut seen = Vec::new();
    visit(&s::TOP, "", &mut seen, &mut wrong);
    visit(&s::SERVICE, "services.a", &mut seen, &mut wrong);
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// `, "key": value` to append to a JSON object, or nothing.
fn jkv(key: &str, value: &str) -> String {
    if key.is_empty() {
        String::new()
    } else {
        format!(", \"{key}\": {value}")
    }
}

/// `"key": value` as the only member of a JSON object, or nothing.
fn jonly(key: &str, value: &str) -> String {
    jkv(key, value).trim_start_matches(", ").to_string()
}

/// An OCI config, one member a line; each part is appended at the end of
/// its line, so nothing else moves.
fn oci(root: &str, process: &str, linux: &str) -> String {
    format!(
        "{{\"ociVersion\": \"1.0.2\",\n\"root\": {{\"path\": \"rootfs\"}},\n\"linux\": {{\"namespaces\": []{linux}}},\n\"process\": {{\"args\": [\"sh\"]{process}}}{root}\n}}"
    )
}

fn oci_import(b: &[u8]) -> Result<Vec<(String, Draft)>, ImportError> {
    super::oci::import(b)
}

#[test]
fn oci_keys_are_never_silent() {
    use super::oci::schema as s;
    run(&[
        Place {
            name: "oci root",
            table: &s::ROOT,
            syntax: Syntax::Json,
            input: |k, v| oci(&jkv(k, v), "", ""),
            import: oci_import,
            present: &["ociVersion", "process", "root", "linux"],
            path: "",
        },
        Place {
            name: "oci process",
            table: &s::PROCESS,
            syntax: Syntax::Json,
            input: |k, v| oci("", &jkv(k, v), ""),
            import: oci_import,
            present: &["args"],
            path: "process",
        },
        Place {
            name: "oci process.user",
            table: &s::USER,
            syntax: Syntax::Json,
            input: |k, v| {
                oci(
                    "",
                    &format!(", \"user\": {{\"uid\": 1000{}}}", jkv(k, v)),
                    "",
                )
            },
            import: oci_import,
            present: &["uid"],
            path: "process.user",
        },
        Place {
            name: "oci linux",
            table: &s::LINUX,
            syntax: Syntax::Json,
            input: |k, v| oci("", "", &jkv(k, v)),
            import: oci_import,
            present: &["namespaces"],
            path: "linux",
        },
        Place {
            name: "oci linux.resources",
            table: &s::RESOURCES,
            syntax: Syntax::Json,
            input: |k, v| oci("", "", &format!(", \"resources\": {{{}}}", jonly(k, v))),
            import: oci_import,
            present: &[],
            path: "linux.resources",
        },
        Place {
            name: "oci mount",
            table: &s::MOUNT,
            syntax: Syntax::Json,
            input: |k, v| {
                let m = "\"destination\": \"/d\", \"source\": \"/s\", \"type\": \"bind\"";
                oci(&format!(", \"mounts\": [{{{m}{}}}]", jkv(k, v)), "", "")
            },
            import: oci_import,
            present: &["destination", "source", "type"],
            path: "mounts[0]",
        },
    ]);
}

fn codex(top: &str, table: &str) -> String {
    format!("sandbox_mode = \"workspace-write\"\n{top}{table}")
}

fn tkv(key: &str, value: &str) -> String {
    if key.is_empty() {
        String::new()
    } else {
        format!("{key} = {value}\n")
    }
}

fn codex_import(b: &[u8]) -> Result<Vec<(String, Draft)>, ImportError> {
    super::codex::import(b)
}

#[test]
fn codex_keys_are_never_silent() {
    use super::codex::schema as s;
    run(&[
        Place {
            name: "codex top level",
            table: &s::TOP,
            syntax: Syntax::Toml,
            input: |k, v| codex(&tkv(k, v), ""),
            import: codex_import,
            present: &["sandbox_mode"],
            path: "",
        },
        Place {
            name: "codex [sandbox_workspace_write]",
            table: &s::WORKSPACE_WRITE,
            syntax: Syntax::Toml,
            input: |k, v| codex("", &format!("[sandbox_workspace_write]\n{}", tkv(k, v))),
            import: codex_import,
            present: &[],
            path: "sandbox_workspace_write",
        },
        Place {
            name: "codex [shell_environment_policy]",
            table: &s::ENV_POLICY,
            syntax: Syntax::Toml,
            input: |k, v| codex("", &format!("[shell_environment_policy]\n{}", tkv(k, v))),
            import: codex_import,
            present: &[],
            path: "shell_environment_policy",
        },
        Place {
            name: "codex [mcp_servers.x]",
            table: &s::MCP_SERVER,
            syntax: Syntax::Toml,
            input: |k, v| {
                let cmd = if k == "command" {
                    ""
                } else {
                    "command = \"srv\"\n"
                };
                codex("", &format!("[mcp_servers.x]\n{cmd}{}", tkv(k, v)))
            },
            import: codex_import,
            present: &["command"],
            path: "mcp_servers.x",
        },
        Place {
            name: "codex [profiles.p]",
            table: &s::TOP,
            syntax: Syntax::Toml,
            input: |k, v| codex("", &format!("[profiles.p]\n{}", tkv(k, v))),
            import: codex_import,
            present: &["profiles", "profile", "permissions", "default_permissions"],
            path: "profiles.p",
        },
    ]);
}

/// Claude Code settings; each part is appended last, so nothing moves.
fn claude(top: &str, sandbox: &str) -> String {
    format!("{{\"sandbox\": {{\"enabled\": true{sandbox}}}{top}}}")
}

fn sandbox_import(b: &[u8]) -> Result<Vec<(String, Draft)>, ImportError> {
    super::sandbox::import(b)
}

#[test]
fn sandbox_settings_keys_are_never_silent() {
    use super::sandbox::schema as s;
    run(&[
        Place {
            name: "claude top level",
            table: &s::CLAUDE_TOP,
            syntax: Syntax::Json,
            input: |k, v| claude(&jkv(k, v), ""),
            import: sandbox_import,
            present: &["sandbox"],
            path: "",
        },
        Place {
            name: "claude permissions",
            table: &s::PERMISSIONS,
            syntax: Syntax::Json,
            input: |k, v| claude(&format!(", \"permissions\": {{{}}}", jonly(k, v)), ""),
            import: sandbox_import,
            present: &[],
            path: "permissions",
        },
        Place {
            name: "claude sandbox",
            table: &s::CLAUDE_SANDBOX,
            syntax: Syntax::Json,
            input: |k, v| claude("", &jkv(k, v)),
            import: sandbox_import,
            present: &["enabled"],
            path: "sandbox",
        },
        Place {
            name: "sandbox filesystem",
            table: &s::FILESYSTEM,
            syntax: Syntax::Json,
            input: |k, v| claude("", &format!(", \"filesystem\": {{{}}}", jonly(k, v))),
            import: sandbox_import,
            present: &[],
            path: "sandbox.filesystem",
        },
        Place {
            name: "sandbox network",
            table: &s::NETWORK,
            syntax: Syntax::Json,
            input: |k, v| claude("", &format!(", \"network\": {{{}}}", jonly(k, v))),
            import: sandbox_import,
            present: &[],
            path: "sandbox.network",
        },
        Place {
            name: "srt top level",
            table: &s::SRT_TOP,
            syntax: Syntax::Json,
            input: |k, v| format!("{{\"filesystem\": {{\"denyRead\": []}}{}}}", jkv(k, v)),
            import: sandbox_import,
            present: &["filesystem"],
            path: "",
        },
    ]);
}

/// Files whose profiles hold secrets in every place the walk reads one:
/// by name, by shape, in a URL, inside a shell line, as `{name, value}`
/// pairs, under a Kubernetes Secret, as a number under a secret name. The
/// draft's tree and its written text must give the same secrets (checked
/// in [`outcome`]), and the walk must find them.
#[test]
fn draft_trees_hold_what_their_text_holds() {
    let compose = "services:\n  app:\n    image: postgres:16\n    environment:\n      DB_PASSWORD: hunter2-Very-Secret\n      PIN_PASSWORD: 493817\n      URL: postgres://u:S3cr3t-pw@db/x\n    command: [\"sh\", \"-c\", \"mysql -u root --password Zq8xWv3rTt\"]\n    volumes: [\"/run/ghp_abcdefghijklmnopqrstuvwxyz0123456789:/x\"]\n";
    let pod = "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers:\n  - name: c\n    image: busybox\n    env:\n    - {name: API_TOKEN, value: tok-123456789abcdef}\n    - {name: PLAIN, value: hello}\n    args: [\"--token\", \"xoxb-1234567890-abcdefghij\"]\n";
    let codex = "[mcp_servers.x]\ncommand = \"npx\"\nenv = { GITHUB_TOKEN = \"ghp_abcdefghijklmnopqrstuvwxyz0123456789\" }\n";
    // Codex keeps an MCP server's environment out of the profile (a note
    // quotes it, and notes are scanned on their own): only the trees are
    // compared.
    for (what, got, holds_one) in [
        ("compose", compose_import(compose.as_bytes()), true),
        ("pod", k8s_import(pod.as_bytes()), true),
        ("codex", codex_import(codex.as_bytes()), false),
    ] {
        let drafts = got.unwrap_or_else(|e| panic!("{what}: {e}"));
        let found: Vec<(Vec<String>, bool)> =
            drafts.iter().map(|(_, d)| secrets_of(d.root())).collect();
        let any = found.iter().any(|(v, holds)| *holds && !v.is_empty());
        assert_eq!(any, holds_one, "{what}: {found:?}");
        outcome(Ok(drafts)).unwrap_or_else(|e| panic!("{what}: {e}"));
    }
}
