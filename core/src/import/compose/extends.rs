//! Compose `extends`: a service built on another service of the same file.
//!
//! Compose (compose-go) takes the base service's settings and merges the
//! service's own over them with the rules of the Compose merge reference:
//! mappings merge key by key, sequences append, `command`, `entrypoint` and
//! `healthcheck.test` are replaced, `volumes`, `secrets` and `configs`
//! replace a base entry with the same target, and `environment`-like
//! settings replace a base entry with the same name. A service read
//! without its base would lose whatever the base grants: every service
//! extending a privileged base is privileged.
//!
//! What this import cannot know, it refuses (the file is an error, exit 2):
//! a base in another file (`extends.file`, which core cannot read), a base
//! named by a variable with no value, a base that does not exist, and a
//! cycle. A file with Compose's `!reset` or `!override` tags is refused
//! by the YAML reader (see `yaml::refuse_local_tag`).

use std::collections::{HashMap, HashSet};

use crate::import::compose;
use crate::import::invalid;
use crate::import::tree::{Loc, SEntry, SNode, SValue, Scalar, TreeLimits};
use crate::import::{ImportError, ImportErrorKind};

/// Resolves the `extends` of one file's services, each base merged once.
pub struct Extends<'a> {
    services: &'a SNode,
    /// Each service by its key in the file, found without a scan: a
    /// file may define tens of thousands of services, each looked up.
    by_name: HashMap<&'a str, &'a SNode>,
    /// Services with a base, already merged with it.
    merged: HashMap<&'a str, SNode>,
    /// Nodes the merges may still produce: a chain of services, each
    /// adding to the last, grows with the square of its length.
    budget: usize,
}

/// A service merged with its bases, and a note for its `extends` key.
pub struct Merged {
    pub node: SNode,
    pub at: Loc,
    pub note: String,
}

impl<'a> Extends<'a> {
    pub fn new(services: &'a SNode) -> Extends<'a> {
        let mut by_name = HashMap::new();
        for e in services.entries() {
            by_name.entry(e.key.as_str()).or_insert(&e.value);
        }
        Extends {
            services,
            by_name,
            merged: HashMap::new(),
            budget: TreeLimits::default().max_values,
        }
    }

    /// `name`'s settings with those of its bases merged under them, or
    /// `None` when it extends nothing.
    pub fn resolve(&mut self, name: &'a str) -> Result<Option<Merged>, ImportError> {
        let Some((first, at)) = base_of(self.service(name, None)?, name)? else {
            return Ok(None);
        };
        // Walk down to a service that extends nothing (or is merged
        // already), then merge back up: no recursion, so a long chain
        // cannot overflow the stack.
        let mut chain = vec![name];
        let mut seen: HashSet<&str> = HashSet::from([name]);
        let mut next = (first, at);
        let mut base = loop {
            let (b, at) = next;
            let b: &'a str = self.name_of(&b, at)?;
            if let Some(done) = self.merged.get(b) {
                break done.clone();
            }
            if !seen.insert(b) {
                return Err(invalid(
                    at,
                    format!("`extends` of service `{name}` comes back to service `{b}`: a cycle, which Compose refuses too"),
                ));
            }
            let node = self.service(b, Some(at))?;
            match base_of(node, b)? {
                Some(n) => {
                    chain.push(b);
                    next = n;
                }
                None => break without_extends(node),
            }
        };
        for n in chain.iter().rev() {
            let own = self.service(n, None)?;
            base = merge_service(&base, own);
            self.budget = self.budget.checked_sub(base.size()).ok_or_else(|| {
                ImportError::new(ImportErrorKind::TooManyValues {
                    limit: TreeLimits::default().max_values,
                })
                .at(at)
            })?;
            self.merged.insert(n, base.clone());
        }
        let bases: Vec<String> = chain
            .iter()
            .skip(1)
            .map(|b| format!("`{b}`"))
            .chain(std::iter::once(format!("`{}`", self.last_base(&chain)?)))
            .collect();
        Ok(Some(Merged {
            node: base,
            at,
            note: format!(
                "`extends`: the settings of service {} are read under this service's own, merged as Compose merges them",
                bases.join(", then ")
            ),
        }))
    }

    /// The value of `key` in service `name` with its bases merged in
    /// (not interpolated): `Ok(None)` when the file defines no such
    /// service, `Some(None)` when the service does not set `key`.
    pub fn setting(&mut self, name: &str, key: &str) -> Result<Option<Option<SNode>>, ImportError> {
        let Some((&name, _)) = self.by_name.get_key_value(name) else {
            return Ok(None);
        };
        let value = match self.resolve(name)? {
            Some(m) => m.node.get(key).cloned(),
            None => self.service(name, None)?.get(key).cloned(),
        };
        Ok(Some(value))
    }

    /// The base the last service of `chain` names.
    fn last_base(&self, chain: &[&'a str]) -> Result<String, ImportError> {
        let last = chain.last().copied().unwrap_or_default();
        Ok(base_of(self.service(last, None)?, last)?.map_or_else(String::new, |(b, _)| b))
    }

    /// The service's own key in the file, so the merged map can be keyed
    /// by it.
    fn name_of(&self, name: &str, at: Loc) -> Result<&'a str, ImportError> {
        self.by_name
            .get_key_value(name)
            .map(|(&key, _)| key)
            .ok_or_else(|| {
                invalid(
                    at,
                    format!("`extends` names service `{name}`, which this file does not define"),
                )
            })
    }

    fn service(&self, name: &str, at: Option<Loc>) -> Result<&'a SNode, ImportError> {
        let node = self
            .by_name
            .get(name)
            .copied()
            .filter(|v| !v.is_null())
            .ok_or_else(|| {
                invalid(
                    at.unwrap_or(self.services.loc),
                    format!("`extends` names service `{name}`, which this file does not define"),
                )
            })?;
        crate::import::read::map(node, name)
    }
}

/// The service `svc` extends and where it is named, if any.
fn base_of(svc: &SNode, name: &str) -> Result<Option<(String, Loc)>, ImportError> {
    let Some(e) = svc.entry("extends").filter(|e| !e.value.is_null()) else {
        return Ok(None);
    };
    let named = match &e.value.value {
        SValue::Scalar(_) => &e.value,
        SValue::Map(_) => {
            if let Some(f) = e.value.get("file") {
                return Err(invalid(
                    f.loc,
                    format!("`services.{name}.extends.file`: the base service is in another file, which this import does not read; audit the output of `docker compose config`, which has the services merged"),
                ));
            }
            e.value.get("service").ok_or_else(|| {
                invalid(
                    e.value.loc,
                    format!("`services.{name}.extends` needs a `service`"),
                )
            })?
        }
        _ => {
            return Err(invalid(
                e.value.loc,
                format!(
                    "`services.{name}.extends` must be a service name or a mapping, found {}",
                    e.value.kind()
                ),
            ))
        }
    };
    let Some(text) = named.as_str() else {
        return Err(invalid(
            named.loc,
            format!("`services.{name}.extends.service` must be a service name"),
        ));
    };
    if !text.contains('$') {
        return Ok(Some((text.to_string(), named.loc)));
    }
    let i = compose::interpolate(text).map_err(|m| invalid(named.loc, m))?;
    if !i.unresolved.is_empty() {
        return Err(invalid(
            named.loc,
            format!("`services.{name}.extends` names its base with a variable that has no value here, so which service it extends cannot be known"),
        ));
    }
    Ok(Some((i.text, named.loc)))
}

pub(super) fn without_extends(svc: &SNode) -> SNode {
    let entries = svc
        .entries()
        .iter()
        .filter(|e| e.key != "extends")
        .cloned()
        .collect();
    SNode::new(svc.loc, SValue::Map(entries))
}

/// A base of another file with the service's own settings merged over
/// it (the service's `extends` already removed).
pub(super) fn merge_extended(base: &SNode, own: &SNode) -> SNode {
    merge(&without_extends(base), own, "")
}

/// The base's settings with the service's own merged over them. The
/// service's `extends` key stays, so it is still checked and noted.
fn merge_service(base: &SNode, own: &SNode) -> SNode {
    merge(&without_extends(base), own, "")
}

/// A Compose file with an override file merged over it, as `docker
/// compose` merges the files of one project (compose-go `override.Merge`,
/// the same rules as `extends`): each service merged with the override's
/// service of the same name, every other top-level key merged key by key.
pub(super) fn merge_file(base: &SNode, own: &SNode) -> SNode {
    let (SValue::Map(b), SValue::Map(o)) = (&base.value, &own.value) else {
        return base.clone();
    };
    let mut out: Vec<SEntry> = Vec::new();
    for e in b {
        let over = o.iter().find(|x| x.key == e.key && !x.value.is_null());
        let value = match over {
            None => e.value.clone(),
            Some(x) if e.key == "services" => merge_services(&e.value, &x.value),
            Some(x) => merge(&e.value, &x.value, "top"),
        };
        out.push(SEntry {
            key: e.key.clone(),
            key_loc: e.key_loc,
            value,
        });
    }
    out.extend(
        o.iter()
            .filter(|x| !b.iter().any(|e| e.key == x.key))
            .cloned(),
    );
    SNode::new(base.loc, SValue::Map(out))
}

fn merge_services(base: &SNode, own: &SNode) -> SNode {
    let (SValue::Map(b), SValue::Map(o)) = (&base.value, &own.value) else {
        return own.clone();
    };
    let own_by: HashMap<&str, &SEntry> = o.iter().map(|x| (x.key.as_str(), x)).collect();
    let base_keys: HashSet<&str> = b.iter().map(|e| e.key.as_str()).collect();
    let mut out: Vec<SEntry> = b
        .iter()
        .map(|e| match own_by.get(e.key.as_str()) {
            Some(x) => SEntry {
                key: e.key.clone(),
                key_loc: e.key_loc,
                value: merge(&e.value, &x.value, ""),
            },
            None => e.clone(),
        })
        .collect();
    out.extend(
        o.iter()
            .filter(|x| !base_keys.contains(x.key.as_str()))
            .cloned(),
    );
    SNode::new(base.loc, SValue::Map(out))
}

/// Replaced, not merged.
const REPLACED: &[&str] = &["command", "entrypoint", "healthcheck.test"];
/// A list of `NAME=value` strings or a mapping: an entry replaces the
/// base's entry of the same name (extra_hosts also reads `host:ip`).
const BY_NAME: &[&str] = &[
    "environment",
    "labels",
    "annotations",
    "sysctls",
    "extra_hosts",
    "build.args",
    "build.labels",
    "build.extra_hosts",
    "deploy.labels",
];
/// Lists where an entry replaces the base's entry with the same target.
const BY_TARGET: &[&str] = &["volumes", "secrets", "configs"];
/// A string or a list: both are read as lists and appended.
const STRING_OR_LIST: &[&str] = &[
    "dns",
    "dns_opt",
    "dns_search",
    "env_file",
    "tmpfs",
    "label_file",
];

fn merge(base: &SNode, own: &SNode, path: &str) -> SNode {
    // A key written with no value leaves the base's value (compose-go
    // merges a nil override as no override).
    if own.is_null() {
        return base.clone();
    }
    if REPLACED.contains(&path) {
        return own.clone();
    }
    if BY_NAME.contains(&path) {
        return merge_by_name(
            base,
            own,
            path == "extra_hosts" || path.ends_with(".extra_hosts"),
        );
    }
    if BY_TARGET.contains(&path) {
        return merge_by_target(base, own, path == "volumes");
    }
    match (&base.value, &own.value) {
        (SValue::Map(b), SValue::Map(o)) => {
            SNode::new(own.loc, SValue::Map(merge_maps(b, o, path)))
        }
        (SValue::Seq(b), SValue::Seq(o)) => SNode::new(own.loc, SValue::Seq(appended(b, o))),
        (SValue::Scalar(_) | SValue::Seq(_), SValue::Scalar(_) | SValue::Seq(_))
            if STRING_OR_LIST.contains(&path) =>
        {
            SNode::new(
                own.loc,
                SValue::Seq(appended(&as_list(base), &as_list(own))),
            )
        }
        _ => own.clone(),
    }
}

fn merge_maps(base: &[SEntry], own: &[SEntry], path: &str) -> Vec<SEntry> {
    let own_by_key: HashMap<&str, &SEntry> = own.iter().map(|e| (e.key.as_str(), e)).collect();
    let mut out: Vec<SEntry> = base
        .iter()
        .map(|b| match own_by_key.get(b.key.as_str()) {
            Some(o) if !o.value.is_null() => SEntry {
                key: o.key.clone(),
                key_loc: o.key_loc,
                value: merge(&b.value, &o.value, &child(path, &b.key)),
            },
            _ => b.clone(),
        })
        .collect();
    let base_keys: HashSet<&str> = base.iter().map(|e| e.key.as_str()).collect();
    out.extend(
        own.iter()
            .filter(|o| !base_keys.contains(o.key.as_str()))
            .cloned(),
    );
    out
}

fn child(path: &str, key: &str) -> String {
    if path.is_empty() {
        key.to_string()
    } else {
        format!("{path}.{key}")
    }
}

/// The base's items, then the service's own that the base does not hold
/// already.
fn appended(base: &[SNode], own: &[SNode]) -> Vec<SNode> {
    let mut out = base.to_vec();
    out.extend(
        own.iter()
            .filter(|o| !base.iter().any(|b| same_scalar(b, o)))
            .cloned(),
    );
    out
}

fn same_scalar(a: &SNode, b: &SNode) -> bool {
    matches!((&a.value, &b.value), (SValue::Scalar(x), SValue::Scalar(y)) if x.text == y.text)
}

fn as_list(node: &SNode) -> Vec<SNode> {
    match &node.value {
        SValue::Seq(items) => items.clone(),
        _ => vec![node.clone()],
    }
}

/// Mappings merge key by key, the service's entry replacing the base's
/// whole (a null included: `KEY:` passes the host's value). A list and a
/// mapping are both read as `NAME=value` items, the later one of a name
/// kept.
fn merge_by_name(base: &SNode, own: &SNode, hosts: bool) -> SNode {
    if let (SValue::Map(b), SValue::Map(o)) = (&base.value, &own.value) {
        let own_keys: HashSet<&str> = o.iter().map(|e| e.key.as_str()).collect();
        let mut out: Vec<SEntry> = b
            .iter()
            .filter(|e| !own_keys.contains(e.key.as_str()))
            .cloned()
            .collect();
        out.extend(o.iter().cloned());
        return SNode::new(own.loc, SValue::Map(out));
    }
    let (b, o) = (name_items(base), name_items(own));
    if b.is_none() || o.is_none() {
        return own.clone();
    }
    let (b, o) = (b.unwrap_or_default(), o.unwrap_or_default());
    let name = |n: &SNode| -> String {
        let text = n.as_str().unwrap_or_default();
        let end = if hosts {
            text.find(['=', ':'])
        } else {
            text.find('=')
        };
        text[..end.unwrap_or(text.len())].to_string()
    };
    let own_names: HashSet<String> = o.iter().map(name).collect();
    let mut out: Vec<SNode> = b
        .into_iter()
        .filter(|n| !own_names.contains(&name(n)))
        .collect();
    out.extend(o);
    SNode::new(own.loc, SValue::Seq(out))
}

/// A `NAME=value` list as it is, or a mapping as one (always strings);
/// `None` for anything else.
fn name_items(node: &SNode) -> Option<Vec<SNode>> {
    match &node.value {
        SValue::Seq(items) => Some(items.clone()),
        SValue::Map(entries) => Some(
            entries
                .iter()
                .map(|e| {
                    let text = match e.value.as_str() {
                        Some(v) => format!("{}={v}", e.key),
                        None => e.key.clone(),
                    };
                    SNode::new(e.key_loc, SValue::Scalar(Scalar { text, quoted: true }))
                })
                .collect(),
        ),
        _ => None,
    }
}

/// The base's items whose target the service does not use again, then the
/// service's own.
fn merge_by_target(base: &SNode, own: &SNode, volumes: bool) -> SNode {
    let (SValue::Seq(b), SValue::Seq(o)) = (&base.value, &own.value) else {
        return own.clone();
    };
    let target = |n: &SNode| -> Option<String> {
        match &n.value {
            SValue::Scalar(s) if volumes => {
                compose::parse_short_volume(&s.text).ok().map(|v| v.target)
            }
            SValue::Scalar(s) => Some(s.text.clone()),
            SValue::Map(_) => n
                .get("target")
                .or_else(|| if volumes { None } else { n.get("source") })
                .and_then(SNode::as_str)
                .map(str::to_string),
            _ => None,
        }
    };
    let own_targets: HashSet<String> = o.iter().filter_map(target).collect();
    let mut out: Vec<SNode> = b
        .iter()
        .filter(|n| target(n).is_none_or(|t| !own_targets.contains(&t)))
        .cloned()
        .collect();
    out.extend(o.iter().cloned());
    SNode::new(own.loc, SValue::Seq(out))
}

#[cfg(test)]
mod tests {
    use crate::import::compose::import;
    use serde_json::{json, Value};

    /// The profile of service `svc` in `yaml`, or the import's error.
    fn profile(yaml: &str, svc: &str) -> Result<Value, String> {
        let out = import(yaml.as_bytes()).map_err(|e| format!("error: {e}"))?;
        let (_, d) = out
            .into_iter()
            .find(|(n, _)| n == svc)
            .ok_or_else(|| format!("no service {svc}"))?;
        let (json, _, _, _) = d.finish().map_err(|e| format!("error: {e:?}"))?;
        serde_json::from_str(&json).map_err(|e| e.to_string())
    }

    /// Whatever a base grants, a service extending it holds, and what the
    /// service writes itself wins where Compose lets it (the merge rules of
    /// the Compose Specification, as compose-go applies them).
    #[test]
    fn a_service_holds_what_its_base_grants() {
        // (base's settings, the service's settings, JSON pointer, want)
        let table: &[(&str, &str, &str, Value)] = &[
            ("privileged: true", "", "/boundary/privileged", json!(true)),
            (
                "privileged: true",
                "privileged:",
                "/boundary/privileged",
                json!(true),
            ),
            (
                "privileged: true",
                "privileged: false",
                "/boundary/privileged",
                json!(false),
            ),
            (
                "privileged: false",
                "privileged: true",
                "/boundary/privileged",
                json!(true),
            ),
            (
                "network_mode: host",
                "",
                "/boundary/host_namespaces",
                json!(["network"]),
            ),
            (
                "network_mode: host",
                "network_mode: none",
                "/network/egress",
                json!("deny"),
            ),
            (
                "pid: host",
                "ipc: host",
                "/boundary/host_namespaces",
                json!(["pid", "ipc"]),
            ),
            ("user: root", "", "/boundary/user", json!("root")),
            (
                "cap_add: [SYS_ADMIN]",
                "",
                "/boundary/capabilities/add",
                json!(["SYS_ADMIN"]),
            ),
            (
                "cap_add: [SYS_ADMIN]",
                "cap_add: [NET_ADMIN]",
                "/boundary/capabilities/add",
                json!(["SYS_ADMIN", "NET_ADMIN"]),
            ),
            (
                "security_opt: [seccomp:unconfined]",
                "security_opt: [no-new-privileges:true]",
                "/boundary/seccomp",
                json!("unconfined"),
            ),
            (
                "devices: [/dev/kvm]",
                "",
                "/boundary/devices",
                json!(["/dev/kvm"]),
            ),
            (
                "volumes: [\"/:/host\"]",
                "volumes: [\"./src:/work\"]",
                "/mounts",
                json!([
                    {"source": "/", "target": "/host", "access": "read-write"},
                    {"source": "./src", "target": "/work", "access": "read-write"}
                ]),
            ),
            (
                "volumes: [\"/:/work\"]",
                "volumes: [{type: bind, source: ./src, target: /work, read_only: true}]",
                "/mounts",
                json!([{"source": "./src", "target": "/work", "access": "read-only"}]),
            ),
            (
                "volumes: [\"/var/run/docker.sock:/var/run/docker.sock\"]",
                "working_dir: /w",
                "/mounts/0/source",
                json!("/var/run/docker.sock"),
            ),
            (
                "environment: {GITHUB_TOKEN: ghp_x, A: \"1\"}",
                "environment: [A=2]",
                "/environment/variables",
                json!({"GITHUB_TOKEN": "ghp_x", "A": "2"}),
            ),
            (
                "environment: [A=1, B=2]",
                "environment: {B: \"3\"}",
                "/environment/variables",
                json!({"A": "1", "B": "3"}),
            ),
            (
                "command: [sh, -c, \"curl x | sh\"]",
                "command: [make]",
                "/command",
                json!({"executable": "make", "arguments": []}),
            ),
            (
                "mem_limit: 1g",
                "",
                "/limits/memory_bytes",
                json!(1_073_741_824),
            ),
        ];
        let mut wrong = Vec::new();
        for (forms, extends) in [
            ("string", "extends: base"),
            ("mapping", "extends: {service: base}"),
            ("variable", "extends: {service: \"${BASE:-base}\"}"),
        ] {
            for (base, own, ptr, want) in table {
                let yaml = format!(
                    "services:\n  job:\n    image: x\n    {extends}\n    {own}\n  base:\n    image: x\n    {base}\n"
                );
                let got = profile(&yaml, "job")
                    .map(|v| v.pointer(ptr).cloned().unwrap_or(Value::Null))
                    .unwrap_or_else(Value::String);
                if &got != want {
                    wrong.push(format!(
                        "{forms}: base `{base}`, own `{own}`: {ptr} is {got}, want {want}"
                    ));
                }
            }
        }
        crate::import::table_tests::assert_none_wrong(&wrong, 3 * table.len());
    }

    #[test]
    fn a_chain_of_bases_is_merged_in_order_and_noted() {
        let yaml = "services:\n  c:\n    image: x\n    extends: b\n  b:\n    extends: a\n    cap_add: [NET_ADMIN]\n  a:\n    image: x\n    privileged: true\n    user: root\n";
        let v = profile(yaml, "c").unwrap();
        assert_eq!(v.pointer("/boundary/privileged"), Some(&json!(true)));
        assert_eq!(
            v.pointer("/boundary/capabilities/add"),
            Some(&json!(["NET_ADMIN"]))
        );
        assert_eq!(v.pointer("/boundary/user"), Some(&json!("root")));
        let out = import(yaml.as_bytes()).unwrap();
        let (_, d) = out.into_iter().next().unwrap();
        let (_, _, notes, _) = d.finish().unwrap();
        assert!(
            notes
                .iter()
                .any(|n| n.line == 4 && n.message.contains("`b`, then `a`")),
            "{notes:?}"
        );
        // The base's setting is located where the base writes it.
        let (_, map, _, _) = import(yaml.as_bytes())
            .unwrap()
            .remove(0)
            .1
            .finish()
            .unwrap();
        let at = map
            .iter()
            .find(|m| m.pointer == "/boundary/privileged")
            .map(|m| m.line);
        assert_eq!(at, Some(10));
    }

    /// What the import cannot read is an error at its line, never a
    /// service read without its base.
    #[test]
    fn an_unreadable_base_is_an_error_at_its_line() {
        let table: &[(&str, u32, &str)] = &[
            (
                "extends: {file: common.yml, service: base}",
                4,
                "cannot be read",
            ),
            (
                "extends: {service: base, file: \"${F}\"}",
                4,
                "no value here",
            ),
            ("extends: nowhere", 4, "does not define"),
            ("extends: {service: \"${BASE}\"}", 4, "no value"),
            ("extends: job", 4, "cycle"),
            ("extends: {}", 4, "needs a `service`"),
            ("extends: [base]", 4, "must be a service name"),
        ];
        for (own, line, says) in table {
            let yaml =
                format!("services:\n  job:\n    image: x\n    {own}\n  base:\n    image: x\n");
            match import(yaml.as_bytes()) {
                Ok(_) => panic!("{own}: imported"),
                Err(e) => {
                    let msg = e.to_string();
                    assert!(msg.contains(says), "{own}: {msg}");
                    assert_eq!(e.loc.map(|l| l.line), Some(*line), "{own}: {msg}");
                }
            }
        }
        let cycle =
            "services:\n  a:\n    image: x\n    extends: b\n  b:\n    image: x\n    extends: a\n";
        let e = import(cycle.as_bytes()).map(|_| ()).unwrap_err();
        assert!(e.to_string().contains("cycle"), "{e}");
        // A service written with no value is not a base to merge.
        let empty = "services:\n  job:\n    image: x\n    extends: empty\n  empty:\n";
        let e = import(empty.as_bytes()).map(|_| ()).unwrap_err();
        assert!(e.to_string().contains("does not define"), "{e}");
    }

    /// A long chain is merged without recursion and in linear passes.
    #[test]
    fn a_long_chain_is_merged_without_deep_recursion() {
        let mut yaml = String::from("services:\n");
        let n = 3000;
        for i in 0..n {
            yaml.push_str(&format!("  s{i}:\n    image: x\n"));
            if i > 0 {
                yaml.push_str(&format!("    extends: s{}\n", i - 1));
            } else {
                yaml.push_str("    privileged: true\n");
            }
        }
        let out = import(yaml.as_bytes()).unwrap();
        assert_eq!(out.len(), n);
        let (_, d) = out.into_iter().last().unwrap();
        let v = crate::import::table_tests::profile(d);
        assert_eq!(v.pointer("/boundary/privileged"), Some(&json!(true)));
    }
}
