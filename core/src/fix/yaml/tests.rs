// The fixture walks and the golden files read and write the disk, as the
// integration tests do; the engine under test does no I/O.
#![allow(clippy::disallowed_methods, clippy::disallowed_types)]

use super::edit::{Doc, New, Node, Ops};
use super::*;
use crate::fix::{apply, candidates};

/// The node at `path` (keys, or item indices) of the first document.
fn at<'d>(doc: &'d Doc<'_>, path: &[&str]) -> &'d Node {
    let mut n = doc.docs.first().expect("a document");
    for k in path {
        n = match k.parse::<usize>() {
            Ok(i) if n.is_seq() => n.items().get(i).expect("item"),
            _ => n.get(k).unwrap_or_else(|| panic!("no key {k}")),
        };
    }
    n
}

/// The key node of the entry at `path`.
fn key_of<'d>(doc: &'d Doc<'_>, path: &[&str]) -> Option<&'d Node> {
    let (last, parent) = path.split_last()?;
    at(doc, parent).entry(last).map(|e| &e.key)
}

/// The bytes outside the edited spans are the original's, in order.
pub(super) fn outside_kept(old: &str, new: &str, edits: &[TextEdit]) -> bool {
    let mut at_old = 0;
    let mut at_new = 0;
    for e in edits {
        let Some(keep) = old.get(at_old..e.start) else {
            return false;
        };
        if new.get(at_new..at_new + keep.len()) != Some(keep) {
            return false;
        }
        at_new += keep.len() + e.text.len();
        at_old = e.end;
    }
    new.get(at_new..) == old.get(at_old..)
}

/// Both readers take `text`: the importers' and libyaml's (every
/// document of a stream; the first is returned).
fn reads_back(text: &str) -> Result<serde_yaml::Value, String> {
    use serde::Deserialize;
    crate::import::yaml::parse(text.as_bytes()).map_err(|e| format!("isolint reader: {e}"))?;
    let mut first = None;
    for d in serde_yaml::Deserializer::from_str(text) {
        let v = serde_yaml::Value::deserialize(d).map_err(|e| format!("serde_yaml: {e}"))?;
        first.get_or_insert(v);
    }
    first.ok_or_else(|| "serde_yaml: no document".to_string())
}

type Op = for<'d, 't> fn(&'d Doc<'t>, &mut Ops<'d, 't>) -> Result<(), Refusal>;

fn s(v: &str) -> New {
    New::Str(v.into())
}
fn p(v: &str) -> New {
    New::Plain(v.into())
}

/// Block, flow, comment, anchor and quoting cases of each edit: the text
/// expected, or `None` for a refusal.
#[test]
fn yaml_edits_keep_style_and_refuse_what_they_cannot_know() {
    #[rustfmt::skip]
    let cases: Vec<(&str, &str, Op, Option<&str>)> = vec![
        // Replace a scalar, keeping its quoting and what follows it.
        ("plain bool", "sc:\n  privileged: true\n", |d, o| o.set(at(d, &["sc"]), &["privileged"], New::bool(false)), Some("sc:\n  privileged: false\n")),
        ("single quotes kept", "user: 'root'\n", |d, o| o.set(d.docs.first().unwrap(), &["user"], s("1000:1000")), Some("user: '1000:1000'\n")),
        ("double quotes kept", "user: \"root\"\n", |d, o| o.set(d.docs.first().unwrap(), &["user"], s("1000:1000")), Some("user: \"1000:1000\"\n")),
        ("plain string that YAML 1.1 reads as a number is quoted", "user: root\n", |d, o| o.set(d.docs.first().unwrap(), &["user"], s("1000:1000")), Some("user: \"1000:1000\"\n")),
        ("comment after the value kept", "privileged: true   # why\nx: 1\n", |d, o| o.set(d.docs.first().unwrap(), &["privileged"], New::bool(false)), Some("privileged: false   # why\nx: 1\n")),
        ("unused anchor kept", "privileged: &p true\n", |d, o| o.set(d.docs.first().unwrap(), &["privileged"], New::bool(false)), Some("privileged: &p false\n")),
        ("anchor used elsewhere refused", "a: &p true\nb: *p\n", |d, o| o.set(d.docs.first().unwrap(), &["a"], New::bool(false)), None),
        ("alias refused", "a: &p true\nb: *p\n", |d, o| o.set(d.docs.first().unwrap(), &["b"], New::bool(false)), None),
        ("flow mapping value", "sc: {privileged: true, a: 1}\n", |d, o| o.set(at(d, &["sc"]), &["privileged"], New::bool(false)), Some("sc: {privileged: false, a: 1}\n")),
        ("interpolated value refused", "privileged: ${PRIV:-true}\n", |d, o| o.set(d.docs.first().unwrap(), &["privileged"], New::bool(false)), None),
        ("block scalar refused", "user: |\n  root\n", |d, o| o.set(d.docs.first().unwrap(), &["user"], s("x")), None),
        ("empty value refused", "sc:\n  privileged:\nx: 1\n", |d, o| o.set(at(d, &["sc"]), &["privileged"], New::bool(false)), None),
        ("string written into a flow list is quoted", "o: [a]\n", |d, o| o.replace(at(d, &["o", "0"]), &s("no-new-privileges:true")), Some("o: [\"no-new-privileges:true\"]\n")),
        // Insert a missing key at its siblings' indentation.
        ("key added after the last sibling", "sc:\n  a: 1\nb: 2\n", |d, o| o.set(at(d, &["sc"]), &["privileged"], New::bool(false)), Some("sc:\n  a: 1\n  privileged: false\nb: 2\n")),
        ("parents created", "c:\n  name: x\n", |d, o| o.set(at(d, &["c"]), &["securityContext", "allowPrivilegeEscalation"], New::bool(false)), Some("c:\n  name: x\n  securityContext:\n    allowPrivilegeEscalation: false\n")),
        ("in a list item's mapping", "containers:\n- name: c\n  image: x\nother: 1\n", |d, o| o.set(at(d, &["containers", "0"]), &["securityContext", "privileged"], New::bool(false)), Some("containers:\n- name: c\n  image: x\n  securityContext:\n    privileged: false\nother: 1\n")),
        ("four-space indentation followed", "spec:\n    c:\n        name: x\n", |d, o| o.set(at(d, &["spec", "c"]), &["securityContext", "privileged"], New::bool(false)), Some("spec:\n    c:\n        name: x\n        securityContext:\n            privileged: false\n")),
        ("after a nested block and a comment line", "c:\n  env:\n  - name: A\n    value: b # v\nz: 1\n", |d, o| o.set(at(d, &["c"]), &["readOnly"], New::bool(true)), Some("c:\n  env:\n  - name: A\n    value: b # v\n  readOnly: true\nz: 1\n")),
        ("flow mapping extended", "sc: {a: 1}\n", |d, o| o.set(at(d, &["sc"]), &["privileged"], New::bool(false)), Some("sc: {a: 1, privileged: false}\n")),
        ("flow mapping with a trailing comma", "sc: {\n  a: 1,\n}\n", |d, o| o.set(at(d, &["sc"]), &["b"], p("2")), Some("sc: {\n  a: 1, b: 2,\n}\n")),
        ("flow list with a trailing comma", "l: [\n  a,\n]\n", |d, o| o.append(at(d, &["l"]), p("b")), Some("l: [\n  a, b,\n]\n")),
        ("flow end after a trailing comma", "a: {\n  b: [\n    x,\n  ],\n}\n", |d, o| o.set(at(d, &["a"]), &["c"], p("1")), Some("a: {\n  b: [\n    x,\n  ], c: 1,\n}\n")),
        ("block list emptied and refilled", "o:\n  - a\nz: 1\n", |d, o| { o.remove(at(d, &["o"]), key_of(d, &["o"]), 0)?; o.append(at(d, &["o"]), p("b")) }, Some("o:\n  - b\nz: 1\n")),
        ("flow list emptied and refilled", "o: [a]\n", |d, o| { o.remove(at(d, &["o"]), key_of(d, &["o"]), 0)?; o.append(at(d, &["o"]), p("b")) }, Some("o: [b]\n")),
        ("empty flow mapping filled", "sc: {}\n", |d, o| o.set(at(d, &["sc"]), &["privileged"], New::bool(false)), Some("sc: {privileged: false}\n")),
        ("flow value for a new nested key in a flow map", "c: {name: x}\n", |d, o| o.set(at(d, &["c"]), &["seccompProfile"], New::map(&[("type", p("RuntimeDefault"))])), Some("c: {name: x, seccompProfile: {type: RuntimeDefault}}\n")),
        ("no final newline", "a:\n  b: 1", |d, o| o.set(at(d, &["a"]), &["c"], p("2")), Some("a:\n  b: 1\n  c: 2")),
        ("two keys under one new parent written once", "c:\n  name: x\n", |d, o| { o.set(at(d, &["c"]), &["securityContext", "runAsUser"], p("1000"))?; o.set(at(d, &["c"]), &["securityContext", "runAsGroup"], p("1000")) }, Some("c:\n  name: x\n  securityContext:\n    runAsUser: 1000\n    runAsGroup: 1000\n")),
        ("two edits disagreeing refused", "c:\n  name: x\n", |d, o| { o.set(at(d, &["c"]), &["k"], p("1"))?; o.set(at(d, &["c"]), &["k"], p("2")) }, None),
        ("a key a merge key also sets refused", "base: &b {a: 1}\nsvc:\n  <<: *b\n  x: 1\n", |d, o| o.set(at(d, &["svc"]), &["a"], p("2")), None),
        ("a key no merged mapping sets added", "base: &b {a: 1}\nsvc:\n  <<: *b\n  x: 1\n", |d, o| o.set(at(d, &["svc"]), &["z"], p("1")), Some("base: &b {a: 1}\nsvc:\n  <<: *b\n  x: 1\n  z: 1\n")),
        ("the merge key itself not removed", "base: &b {a: 1}\nsvc:\n  <<: *b\n  x: 1\n", |d, o| o.remove(at(d, &["svc"]), key_of(d, &["svc"]), 0), None),
        ("new list in the file's list style", "sc:\n  a: 1\nl:\n- x\n", |d, o| o.set(at(d, &["sc"]), &["capabilities", "drop"], New::Seq(vec![p("ALL")])), Some("sc:\n  a: 1\n  capabilities:\n    drop:\n    - ALL\nl:\n- x\n")),
        ("new list indented when the file indents lists", "sc:\n  a: 1\nl:\n  - x\n", |d, o| o.set(at(d, &["sc"]), &["capabilities", "drop"], New::Seq(vec![p("ALL")])), Some("sc:\n  a: 1\n  capabilities:\n    drop:\n      - ALL\nl:\n  - x\n")),
        ("CRLF line ends kept", "sc:\r\n  a: 1\r\n", |d, o| o.set(at(d, &["sc"]), &["b"], p("2")), Some("sc:\r\n  a: 1\r\n  b: 2\r\n")),
        ("after a literal block scalar", "a:\n  s: |\n    x\n\nb: 1\n", |d, o| o.set(at(d, &["a"]), &["k"], p("1")), Some("a:\n  s: |\n    x\n\n  k: 1\nb: 1\n")),
        ("a collection where a scalar goes refused", "sc:\n  privileged: [true]\n", |d, o| o.set(at(d, &["sc"]), &["privileged"], New::bool(false)), None),
        ("through a scalar refused", "sc: none\n", |d, o| o.set(d.docs.first().unwrap(), &["sc", "privileged"], New::bool(false)), None),
        // Append an item.
        ("block list appended", "drop:\n  - NET_RAW\nx: 1\n", |d, o| o.append(at(d, &["drop"]), p("ALL")), Some("drop:\n  - NET_RAW\n  - ALL\nx: 1\n")),
        ("block list at the key's column appended", "drop:\n- NET_RAW\n", |d, o| o.append(at(d, &["drop"]), p("ALL")), Some("drop:\n- NET_RAW\n- ALL\n")),
        ("flow list appended", "drop: [NET_RAW]\n", |d, o| o.append(at(d, &["drop"]), p("ALL")), Some("drop: [NET_RAW, ALL]\n")),
        ("empty flow list filled", "drop: []\n", |d, o| o.append(at(d, &["drop"]), p("ALL")), Some("drop: [ALL]\n")),
        ("anchored list used elsewhere refused", "a: &l [x]\nb: *l\n", |d, o| o.append(at(d, &["a"]), p("y")), None),
        // Remove an item or an entry.
        ("block item", "l:\n- a\n- b\n- c\n", |d, o| o.remove(at(d, &["l"]), key_of(d, &["l"]), 1), Some("l:\n- a\n- c\n")),
        ("comment line above the next item kept", "l:\n  - a\n  # about b\n  - b\n", |d, o| o.remove(at(d, &["l"]), key_of(d, &["l"]), 0), Some("l:\n  # about b\n  - b\n")),
        ("its own trailing comment goes with it", "l:\n  - a  # a\n  - b\n", |d, o| o.remove(at(d, &["l"]), key_of(d, &["l"]), 0), Some("l:\n  - b\n")),
        ("last block item leaves []", "l:\n  - a\nx: 1\n", |d, o| o.remove(at(d, &["l"]), key_of(d, &["l"]), 0), Some("l: []\nx: 1\n")),
        ("multi-line item", "v:\n- name: a\n  path: /x\n- name: b\n", |d, o| o.remove(at(d, &["v"]), key_of(d, &["v"]), 0), Some("v:\n- name: b\n")),
        ("two adjacent items", "l:\n- a\n- b\n- c\n", |d, o| { o.remove(at(d, &["l"]), key_of(d, &["l"]), 0)?; o.remove(at(d, &["l"]), key_of(d, &["l"]), 1) }, Some("l:\n- c\n")),
        ("flow item in the middle", "l: [a, b, c]\n", |d, o| o.remove(at(d, &["l"]), key_of(d, &["l"]), 1), Some("l: [a, c]\n")),
        ("flow item at the end", "l: [a, b, c]\n", |d, o| o.remove(at(d, &["l"]), key_of(d, &["l"]), 2), Some("l: [a, b]\n")),
        ("every flow item", "l: [a]\n", |d, o| o.remove(at(d, &["l"]), key_of(d, &["l"]), 0), Some("l: []\n")),
        ("block entry", "m:\n  a: 1\n  b: 2\n", |d, o| o.remove(at(d, &["m"]), key_of(d, &["m"]), 0), Some("m:\n  b: 2\n")),
        ("block entry with a nested value", "m:\n  a:\n    x: 1\n  b: 2\n", |d, o| o.remove(at(d, &["m"]), key_of(d, &["m"]), 0), Some("m:\n  b: 2\n")),
        ("first entry on the dash's line", "l:\n- name: c\n  image: x\n", |d, o| o.remove(at(d, &["l", "0"]), None, 0), Some("l:\n- image: x\n")),
        ("last entry leaves {}", "m:\n  a: 1\nz: 2\n", |d, o| o.remove(at(d, &["m"]), key_of(d, &["m"]), 0), Some("m: {}\nz: 2\n")),
        ("flow entry", "m: {a: 1, b: 2}\n", |d, o| o.remove(at(d, &["m"]), key_of(d, &["m"]), 0), Some("m: {b: 2}\n")),
        ("anchored list used elsewhere: no removal", "a: &l [x, y]\nb: *l\n", |d, o| o.remove(at(d, &["a"]), key_of(d, &["a"]), 0), None),
        ("an item sharing its line refused", "l:\n- - a\n  - b\n", |d, o| o.remove(at(d, &["l", "0"]), None, 0), None),
        ("multi-byte text before the edit", "n: \"é ü\"\nsc:\n  a: 1\n", |d, o| o.set(at(d, &["sc"]), &["a"], p("2")), Some("n: \"é ü\"\nsc:\n  a: 2\n")),
    ];
    let mut wrong = Vec::new();
    for (name, input, op, want) in &cases {
        let doc = Doc::parse(input).unwrap_or_else(|e| panic!("{name}: {e}"));
        let mut ops = Ops::new(&doc);
        let got = op(&doc, &mut ops).and_then(|()| ops.finish());
        let got_text = got.as_ref().map(|e| apply(input, e));
        match (want, &got, &got_text) {
            (None, Err(_), _) => {}
            (Some(w), Ok(edits), Ok(t)) if t == w => {
                if !outside_kept(input, t, edits) {
                    wrong.push(format!("{name}: bytes outside the spans changed"));
                }
                match (reads_back(t), serde_yaml::from_str::<serde_yaml::Value>(w)) {
                    (Ok(a), Ok(b)) if a == b => {}
                    (a, _) => wrong.push(format!("{name}: does not read back as meant: {a:?}")),
                }
            }
            _ => wrong.push(format!("{name}: want {want:?}, got {got_text:?}")),
        }
    }
    assert!(
        wrong.is_empty(),
        "{} of {} cases wrong:\n{}",
        wrong.len(),
        cases.len(),
        wrong.join("\n")
    );
}

fn set(p: &str, v: &'static str) -> Edit {
    Edit::Set {
        pointer: p.into(),
        value: v,
    }
}

fn rm(p: &str) -> Edit {
    Edit::Remove { pointer: p.into() }
}

/// `edits` on profile `name` of `text` → the fixed text.
fn fix_one(format: Format, text: &str, name: &str, edits: &[Edit]) -> Result<String, String> {
    let profiles = crate::import::import(text.as_bytes(), format).map_err(|e| e.to_string())?;
    let profile = profiles
        .iter()
        .find(|p| p.name == name)
        .ok_or_else(|| format!("no profile {name}"))?;
    let out = plan(format, text, profile, edits)?;
    Ok(apply(text, &out))
}

const POD: &str = "apiVersion: v1
kind: Pod
metadata:
  name: p
spec:
  hostPID: true
  containers:
  - name: c
    image: busybox@sha256:0000000000000000000000000000000000000000000000000000000000000000
    securityContext:
      privileged: true
      capabilities:
        add: [NET_ADMIN, SYS_TIME]
    env:
    - name: TOKEN
      value: secret
    - name: KEEP
      value: keep
    volumeMounts:
    - name: host
      mountPath: /host
    - name: data
      mountPath: /data
  volumes:
  - name: host
    hostPath: {path: /}
  - name: data
    emptyDir: {}
";

const COMPOSE: &str = "services:
  web:
    image: nginx
    privileged: true
    network_mode: host
    cap_add:
      - NET_ADMIN
    security_opt: [seccomp=unconfined]
    environment:
      TOKEN: x
      KEEP: y
    volumes:
      - /var/run/docker.sock:/var/run/docker.sock
      - ./data:/data
      - type: bind
        source: ./conf
        target: /conf
  db:
    image: postgres
    environment:
      - PASSWORD=x
      - KEEP=1
";

/// Per format: profile edits → the manifest's own settings.
#[test]
fn profile_edits_land_on_the_format_settings() {
    type Case = (Format, &'static str, Vec<Edit>, Result<&'static str, ()>);
    let k = Format::Kubernetes;
    let c = Format::Compose;
    let cases: Vec<(&str, &str, Case)> = vec![
        ("privileged", "Pod/p/c", (k, POD, vec![set("/boundary/privileged", "false")],
            Ok("      privileged: false\n"))),
        ("no new privileges", "Pod/p/c", (k, POD, vec![set("/boundary/no_new_privileges", "true")],
            Ok("        add: [NET_ADMIN, SYS_TIME]\n      allowPrivilegeEscalation: false\n"))),
        ("read-only root", "Pod/p/c", (k, POD, vec![set("/boundary/read_only_root", "true")],
            Ok("      readOnlyRootFilesystem: true\n"))),
        ("drop ALL", "Pod/p/c", (k, POD, vec![set("/boundary/capabilities/drop", "[\"ALL\"]")],
            Ok("        add: [NET_ADMIN, SYS_TIME]\n        drop:\n        - ALL\n"))),
        ("remove an added capability", "Pod/p/c", (k, POD, vec![rm("/boundary/capabilities/add/1")],
            Ok("        add: [NET_ADMIN]\n"))),
        ("seccomp", "Pod/p/c", (k, POD, vec![set("/boundary/seccomp", "\"default\"")],
            Ok("      seccompProfile:\n        type: RuntimeDefault\n"))),
        ("user", "Pod/p/c", (k, POD, vec![set("/boundary/user", "\"1000:1000\"")],
            Ok("      runAsUser: 1000\n      runAsGroup: 1000\n"))),
        ("host PID", "Pod/p/c", (k, POD, vec![rm("/boundary/host_namespaces/0")],
            Ok("  hostPID: false\n"))),
        ("host user namespace", "Pod/p/c", (k, POD, vec![rm("/boundary/host_namespaces/1")],
            Ok("  hostUsers: false\n"))),
        ("env item", "Pod/p/c", (k, POD, vec![rm("/environment/variables/TOKEN")],
            Ok("    env:\n    - name: KEEP\n"))),
        ("mount and its volume", "Pod/p/c", (k, POD, vec![rm("/mounts/0")],
            Ok("    volumeMounts:\n    - name: data\n      mountPath: /data\n  volumes:\n  - name: data\n"))),
        ("mount read-only", "Pod/p/c", (k, POD, vec![set("/mounts/0/access", "\"read-only\"")],
            Ok("      mountPath: /host\n      readOnly: true\n"))),
        ("token mount", "Pod/p/c", (k, POD, vec![rm("/mounts/1")],
            Ok("  automountServiceAccountToken: false\n"))),
        ("process limits are not mapped", "Pod/p/c", (k, POD, vec![set("/limits/processes", "256")], Err(()))),
        ("compose privileged", "web", (c, COMPOSE, vec![set("/boundary/privileged", "false")],
            Ok("    privileged: false\n"))),
        ("compose no-new-privileges", "web", (c, COMPOSE, vec![set("/boundary/no_new_privileges", "true")],
            Ok("    security_opt: [seccomp=unconfined, \"no-new-privileges:true\"]\n"))),
        ("compose read_only", "web", (c, COMPOSE, vec![set("/boundary/read_only_root", "true")],
            Ok("        target: /conf\n    read_only: true\n"))),
        ("compose cap_drop created", "web", (c, COMPOSE, vec![set("/boundary/capabilities/drop", "[\"ALL\"]")],
            Ok("    cap_drop:\n      - ALL\n"))),
        ("compose cap_add item", "web", (c, COMPOSE, vec![rm("/boundary/capabilities/add/0")],
            Ok("    cap_add: []\n"))),
        ("compose seccomp option removed", "web", (c, COMPOSE, vec![set("/boundary/seccomp", "\"default\"")],
            Ok("    security_opt: []\n"))),
        ("compose host network", "web", (c, COMPOSE, vec![rm("/boundary/host_namespaces/0")],
            Ok("    privileged: true\n    cap_add:\n"))),
        ("compose env map entry", "web", (c, COMPOSE, vec![rm("/environment/variables/TOKEN")],
            Ok("    environment:\n      KEEP: y\n"))),
        ("compose env list item", "db", (c, COMPOSE, vec![rm("/environment/variables/PASSWORD")],
            Ok("    environment:\n      - KEEP=1\n"))),
        ("compose short volume removed", "web", (c, COMPOSE, vec![rm("/mounts/0")],
            Ok("    volumes:\n      - ./data:/data\n"))),
        ("compose short volume read-only", "web", (c, COMPOSE, vec![set("/mounts/1/access", "\"read-only\"")],
            Ok("      - ./data:/data:ro\n"))),
        ("compose long volume read-only", "web", (c, COMPOSE, vec![set("/mounts/2/access", "\"read-only\"")],
            Ok("        target: /conf\n        read_only: true\n"))),
        ("compose user", "db", (c, COMPOSE, vec![set("/boundary/user", "\"1000:1000\"")],
            Ok("      - KEEP=1\n    user: \"1000:1000\"\n"))),
    ];
    let mut wrong = Vec::new();
    for (what, name, (format, text, edits, want)) in &cases {
        let got = fix_one(*format, text, name, edits);
        match (want, &got) {
            (Err(()), Err(_)) => {}
            (Ok(fragment), Ok(fixed)) if fixed.contains(fragment) => {
                if let Err(e) = reads_back(fixed) {
                    wrong.push(format!("{what}: {e}"));
                }
                if let Err(e) = crate::import::import(fixed.as_bytes(), *format) {
                    wrong.push(format!("{what}: the fixed file does not import: {e}"));
                }
            }
            _ => wrong.push(format!("{what}: want {want:?}, got {got:?}")),
        }
    }
    assert!(
        wrong.is_empty(),
        "{} of {} cases wrong:\n{}",
        wrong.len(),
        cases.len(),
        wrong.join("\n")
    );
}

/// A value that is not the file's own to change is refused, never half
/// edited.
#[test]
fn values_from_elsewhere_are_refused() {
    let cases: &[(&str, &str, Vec<Edit>)] = &[
        (
            "interpolated",
            "services:\n  a:\n    image: x\n    privileged: ${PRIV:-true}\n",
            vec![set("/boundary/privileged", "false")],
        ),
        (
            "anchor shared by two services",
            "x-base: &base\n  image: x\n  privileged: true\nservices:\n  a: *base\n  b: *base\n",
            vec![set("/boundary/privileged", "false")],
        ),
        (
            "merge key",
            "x-base: &base\n  privileged: true\nservices:\n  a:\n    <<: *base\n    image: x\n",
            vec![set("/boundary/privileged", "false")],
        ),
        (
            "extends",
            "services:\n  base:\n    image: x\n    privileged: true\n  a:\n    extends: base\n",
            vec![set("/boundary/privileged", "false")],
        ),
    ];
    for (what, text, edits) in cases {
        let got = fix_one(Format::Compose, text, "a", edits);
        assert!(got.is_err(), "{what}: {got:?}");
    }
}

/// Every Kubernetes and Compose file of `fixtures/`: all fixes planned
/// (unsafe ones included), applied, then the file must read back in both
/// readers, import again, keep every byte outside the edited spans, and
/// no profile of the file may gain a finding; the fixed findings are gone.
/// Prints the share of blocking findings whose fix lands as a YAML edit.
#[test]
fn every_yaml_fixture_fixes_cleanly() {
    use crate::import::detect;
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures");
    let mut files = Vec::new();
    let mut stack = vec![root];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).into_iter().flatten().flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "yaml" || x == "yml") {
                files.push(p);
            }
        }
    }
    files.sort();
    let labels = crate::Labels::workshop();
    let audit_all = |text: &str,
                     format: Format|
     -> Result<Vec<(String, Vec<crate::finding::Finding>)>, String> {
        let profiles = crate::import::import(text.as_bytes(), format).map_err(|e| e.to_string())?;
        profiles
            .iter()
            .map(|p| {
                crate::audit::audit_imported(
                    p,
                    "f.yaml",
                    &labels,
                    &crate::AuditOptions::default(),
                    None,
                    &crate::par::InOrder,
                )
                .map(|r| (p.name.clone(), r.issues))
                .map_err(|_| "audit failed".to_string())
            })
            .collect()
    };
    let mut wrong = Vec::new();
    let (mut blocking, mut fixable, mut landed, mut whole) = (0usize, 0usize, 0usize, 0usize);
    let mut by_rule: std::collections::BTreeMap<&str, (usize, usize)> = Default::default();
    let mut withdrawn: Vec<String> = Vec::new();
    let mut refusals: std::collections::BTreeMap<String, usize> = Default::default();
    let mut checked = 0;
    for path in &files {
        let Ok(text) = std::fs::read_to_string(path) else {
            continue;
        };
        let Some(format) = detect(text.as_bytes(), path.to_str()) else {
            continue;
        };
        if !matches!(format, Format::Kubernetes | Format::Compose) {
            continue;
        }
        let Ok(profiles) = crate::import::import(text.as_bytes(), format) else {
            continue;
        };
        let Ok(before) = audit_all(&text, format) else {
            continue;
        };
        checked += 1;
        let show = path.display();
        for (profile, (_, findings)) in profiles.iter().zip(&before) {
            let cands = candidates(findings);
            for f in findings
                .iter()
                .filter(|f| f.severity.blocks() && f.waived.is_none())
            {
                blocking += 1;
                by_rule.entry(f.rule).or_default().0 += 1;
                fixable += usize::from(
                    cands
                        .iter()
                        .any(|c| c.rule == f.rule && c.pointer == f.pointer),
                );
                let Some(c) = cands
                    .iter()
                    .find(|c| c.rule == f.rule && c.pointer == f.pointer)
                else {
                    continue;
                };
                match plan(format, &text, profile, &c.edits) {
                    Ok(edits) => {
                        let fixed = apply(&text, &edits);
                        let gone = audit_all(&fixed, format).ok().is_some_and(|after| {
                            after
                                .iter()
                                .find(|(n, _)| *n == profile.name)
                                .is_some_and(|(_, a)| {
                                    a.iter().filter(|x| x.rule == f.rule).count()
                                        < findings.iter().filter(|x| x.rule == f.rule).count()
                                })
                        });
                        if gone {
                            landed += 1;
                            by_rule.entry(f.rule).or_default().1 += 1;
                        }
                    }
                    Err(why) => {
                        let short: String = why.chars().take(150).collect();
                        *refusals.entry(format!("{} {short}", f.rule)).or_default() += 1;
                    }
                }
            }
            // All of the profile's fixes that plan alone, at once.
            let cands: Vec<_> = cands
                .into_iter()
                .filter(|c| plan(format, &text, profile, &c.edits).is_ok())
                .collect();
            if cands.is_empty() {
                continue;
            }
            // Hard failures (`Err`): the edit layer is wrong. Semantic ones
            // (a finding gained or kept): the proof withdraws the rule.
            let attempt = |cands: &[crate::fix::Candidate]| -> Result<Vec<String>, String> {
                let edits: Vec<Edit> = cands.iter().flat_map(|c| c.edits.clone()).collect();
                let text_edits = plan(format, &text, profile, &edits)
                    .map_err(|e| format!("fixes that plan alone conflict: {e}"))?;
                let fixed = apply(&text, &text_edits);
                if !outside_kept(&text, &fixed, &text_edits) {
                    return Err("bytes outside the spans changed".into());
                }
                reads_back(&fixed)?;
                let after = audit_all(&fixed, format)
                    .map_err(|e| format!("fixed file does not import: {e}"))?;
                let mut problems = Vec::new();
                for (name, was) in &before {
                    let now = after
                        .iter()
                        .find(|(n, _)| n == name)
                        .map(|(_, f)| f.as_slice())
                        .unwrap_or(&[]);
                    for rule in now.iter().map(|f| f.rule) {
                        let n = now.iter().filter(|f| f.rule == rule).count();
                        let w = was.iter().filter(|f| f.rule == rule).count();
                        if n > w {
                            problems.push(format!("{name} gains {rule} ({w} → {n})"));
                            break;
                        }
                    }
                }
                let mine = after
                    .iter()
                    .find(|(n, _)| *n == profile.name)
                    .map(|(_, f)| f.as_slice())
                    .unwrap_or(&[]);
                for c in cands {
                    let w = findings.iter().filter(|f| f.rule == c.rule).count();
                    let fixed_here = cands.iter().filter(|x| x.rule == c.rule).count();
                    let n = mine.iter().filter(|f| f.rule == c.rule).count();
                    if n + fixed_here > w {
                        problems.push(format!("{} keeps {n} of {w} findings", c.rule));
                    }
                }
                // A second run over the fixed text does nothing more for
                // the rules it fixed.
                let again: Vec<Edit> = candidates(mine)
                    .into_iter()
                    .filter(|c| cands.iter().any(|x| x.rule == c.rule))
                    .flat_map(|c| c.edits)
                    .collect();
                if !again.is_empty() {
                    if let Some(p2) = crate::import::import(fixed.as_bytes(), format)
                        .ok()
                        .and_then(|ps| ps.into_iter().find(|p| p.name == profile.name))
                    {
                        if let Ok(e2) = plan(format, &fixed, &p2, &again) {
                            if apply(&fixed, &e2) != fixed {
                                return Err("a second fix is not a no-op".into());
                            }
                        }
                    }
                }
                Ok(problems)
            };
            match attempt(&cands) {
                Err(e) => wrong.push(format!("{show} {}: {e}", profile.name)),
                Ok(p) if p.is_empty() => whole += 1,
                Ok(p) => {
                    // As the proof does: rule by rule, keeping what holds.
                    let mut kept: Vec<crate::fix::Candidate> = Vec::new();
                    let mut rules: Vec<&str> = Vec::new();
                    for c in &cands {
                        if !rules.contains(&c.rule) {
                            rules.push(c.rule);
                        }
                    }
                    for r in rules {
                        let mut trial = kept.clone();
                        trial.extend(cands.iter().filter(|c| c.rule == r).cloned());
                        match attempt(&trial) {
                            Err(e) => wrong.push(format!("{show} {} with {r}: {e}", profile.name)),
                            Ok(p) if p.is_empty() => kept = trial,
                            Ok(p) => withdrawn.push(format!(
                                "{show} {} {r}: {}",
                                profile.name,
                                p.join("; ")
                            )),
                        }
                    }
                    let _ = p;
                }
            }
        }
    }
    eprintln!("{checked} Kubernetes/Compose fixture files; blocking findings with a fix that lands as a YAML edit: {landed} of {blocking} ({fixable} with a fix in the catalog)");
    eprintln!("{whole} profiles fixed with all their fixes at once");
    for w in &withdrawn {
        eprintln!("  withdrawn by the proof: {w}");
    }
    for (rule, (n, l)) in &by_rule {
        eprintln!("  {rule}: {l} of {n}");
    }
    for (why, n) in &refusals {
        eprintln!("  refused {n}×: {why}");
    }
    assert!(checked > 20, "only {checked} files checked");
    wrong.sort();
    wrong.dedup();
    assert!(
        wrong.is_empty(),
        "{} wrong:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}

/// The worked examples of docs/fix-yaml.md: the safe fixes (what `isolint
/// fix` makes by default) of one Kubernetes and one Compose file, as
/// golden diffs in fixtures/fix/ (`ISOLINT_BLESS=1` rewrites them).
#[test]
fn worked_examples_match_their_golden_diffs() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/fix");
    let labels = crate::Labels::workshop();
    for (file, format) in [
        ("kubernetes-job.yaml", Format::Kubernetes),
        ("compose-ci.yaml", Format::Compose),
    ] {
        let text = std::fs::read_to_string(dir.join(file)).expect("example");
        let mut all = Vec::new();
        for p in crate::import::import(text.as_bytes(), format).expect("imports") {
            let r = crate::audit::audit_imported(
                &p,
                file,
                &labels,
                &crate::AuditOptions::default(),
                None,
                &crate::par::InOrder,
            )
            .expect("audits");
            let edits: Vec<Edit> = candidates(&r.issues)
                .into_iter()
                .filter(|c| c.applicability == crate::fix::Applicability::Safe)
                .filter(|c| plan(format, &text, &p, &c.edits).is_ok())
                .flat_map(|c| c.edits)
                .collect();
            all.extend(plan(format, &text, &p, &edits).expect("the safe fixes plan together"));
        }
        let fixed = apply(&text, &all);
        assert!(outside_kept(&text, &fixed, &all));
        reads_back(&fixed).expect("reads back");
        let diff = crate::fix::unified_diff(&text, &fixed, file);
        let golden = dir.join(file.replace(".yaml", ".diff"));
        if std::env::var_os("ISOLINT_BLESS").is_some() {
            std::fs::write(&golden, &diff).expect("writable");
        }
        let want = std::fs::read_to_string(&golden).unwrap_or_default();
        assert_eq!(
            diff,
            want,
            "{file}: the diff differs from {}",
            golden.display()
        );
    }
}
