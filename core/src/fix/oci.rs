//! Profile edits written into an OCI runtime `config.json`: the setting
//! each profile field comes from (`process.noNewPrivileges`,
//! `linux.namespaces[]`, a mount's `options`), edited at its byte span.

use std::collections::BTreeMap;

use super::json_edit::{plan_doc, DocEdit};
use super::source::{no_setting, pointer_of, quote, JsonFile, Profile, Refusal};
use super::{Edit, TextEdit};
use crate::import::Format;
use crate::json::Value;

const CAP_SETS: [&str; 5] = [
    "bounding",
    "effective",
    "permitted",
    "inheritable",
    "ambient",
];

fn cap(s: &str) -> String {
    let s = s.trim().to_ascii_uppercase();
    s.strip_prefix("CAP_").map_or(s.clone(), str::to_string)
}

fn set(pointer: impl Into<String>, value: impl Into<String>) -> DocEdit {
    DocEdit::Set {
        pointer: pointer.into(),
        value: value.into(),
    }
}

fn remove(pointer: impl Into<String>) -> DocEdit {
    DocEdit::Remove {
        pointer: pointer.into(),
    }
}

/// The first `n` tokens of a pointer, when it has them and it starts with
/// `head`: `/mounts/3` of `/mounts/3/options/1`.
fn item_of(pointer: &str, head: &str, n: usize) -> Option<String> {
    let p = super::catalog::prefix(pointer, n)?;
    p.starts_with(head).then_some(p)
}

/// What a plan collects before writing: edits of the document, strings to
/// append to arrays, namespaces to unshare, mounts to make read-only.
#[derive(Default)]
struct Plan {
    doc: Vec<DocEdit>,
    append: BTreeMap<String, Vec<String>>,
    namespaces: Vec<String>,
    read_only: Vec<String>,
    drop_all: bool,
    caps: Vec<String>,
}

impl Plan {
    fn push(&mut self, e: DocEdit) {
        if !self.doc.contains(&e) {
            self.doc.push(e);
        }
    }

    fn append(&mut self, array: &str, item: String) {
        let items = self.append.entry(array.to_string()).or_default();
        if !items.contains(&item) {
            items.push(item);
        }
    }
}

/// The OCI mount a profile mount came from: `/mounts/N`.
fn mount_of(f: &JsonFile, p: &Profile, profile_mount: &str) -> Result<String, Refusal> {
    p.origin(profile_mount)
        .and_then(|l| f.pointer_at(l))
        .and_then(|q| item_of(q, "/mounts/", 2))
        .ok_or_else(|| format!("`{profile_mount}` comes from no entry of `mounts`"))
}

/// Why egress cannot be denied in the config itself.
const NETWORK: &str = "a network namespace of its own has whatever interfaces the caller (CNI, slirp) adds, which the config cannot say: egress would be undeclared, not denied; deny it where the runtime is started";

pub(super) fn plan(f: &JsonFile, p: &Profile, edits: &[Edit]) -> Result<Vec<TextEdit>, Refusal> {
    let mut plan = Plan::default();
    let has_process = f.node("/process").is_some();
    for e in edits {
        let pointer = pointer_of(e);
        p.expressible(pointer)?;
        let in_process = matches!(
            pointer,
            "/boundary/no_new_privileges"
                | "/boundary/terminal"
                | "/boundary/user"
                | "/boundary/oom_score_adj"
                | "/boundary/capabilities/drop"
        );
        if in_process && !has_process {
            return Err("the config has no `process` section to write the setting in (the bundle's process is given elsewhere)".into());
        }
        let tokens: Vec<&str> = pointer.split('/').skip(1).collect();
        match (e, tokens.as_slice()) {
            (Edit::Set { value: "true", .. }, ["boundary", "no_new_privileges"]) => {
                plan.push(set("/process/noNewPrivileges", "true"))
            }
            (Edit::Set { value: "true", .. }, ["boundary", "read_only_root"]) => {
                if f.node("/root").is_none() {
                    return Err("the config has no `root` to make read-only".into());
                }
                plan.push(set("/root/readonly", "true"))
            }
            (Edit::Set { value: "\"none\"", .. }, ["boundary", "terminal"]) => {
                plan.push(set("/process/terminal", "false"))
            }
            (Edit::Set { value: "\"1000:1000\"", .. }, ["boundary", "user"]) => {
                plan.push(set("/process/user/uid", "1000"));
                plan.push(set("/process/user/gid", "1000"));
            }
            (Edit::Set { value: "0", .. }, ["boundary", "oom_score_adj"]) => {
                plan.push(set("/process/oomScoreAdj", "0"))
            }
            (Edit::Set { value: "\"deny\"", .. }, ["network", "egress"]) => {
                return Err(NETWORK.into())
            }
            (Edit::Remove { .. }, ["boundary", "host_namespaces", _]) => {
                let ns = p
                    .str(pointer)
                    .ok_or_else(|| format!("no namespace at `{pointer}`"))?;
                if ns == "network" {
                    return Err(NETWORK.into());
                }
                plan.namespaces.push(ns.to_string());
            }
            (Edit::Remove { .. }, ["boundary", "capabilities", "add", _]) => {
                let c = p
                    .str(pointer)
                    .ok_or_else(|| format!("no capability at `{pointer}`"))?;
                plan.caps.push(cap(c));
            }
            (Edit::Set { .. }, ["boundary", "capabilities", "drop"]) => plan.drop_all = true,
            (Edit::Remove { .. }, ["boundary", "devices", _]) => {
                let q = p
                    .origin(pointer)
                    .and_then(|l| f.pointer_at(l))
                    .and_then(|q| {
                        item_of(q, "/linux/devices/", 3)
                            .or_else(|| item_of(q, "/linux/resources/devices/", 4))
                    })
                    .ok_or_else(|| format!("`{pointer}` comes from no entry of `linux.devices` or `linux.resources.devices`"))?;
                plan.push(remove(q));
            }
            (Edit::Remove { .. }, ["boundary", "sysctls", key]) => {
                plan.push(remove(format!("/linux/sysctl/{key}")))
            }
            (Edit::Remove { .. }, ["boundary", "groups", _]) => {
                let q = p
                    .origin(pointer)
                    .and_then(|l| f.pointer_at(l))
                    .and_then(|q| item_of(q, "/process/user/additionalGids/", 4))
                    .ok_or_else(|| format!("`{pointer}` comes from no entry of `process.user.additionalGids`"))?;
                plan.push(remove(q));
            }
            (Edit::Remove { .. }, ["environment", "variables", _]) => {
                let q = p
                    .origin(pointer)
                    .and_then(|l| f.pointer_at(l))
                    .and_then(|q| item_of(q, "/process/env/", 3))
                    .ok_or_else(|| format!("`{pointer}` comes from no entry of `process.env`"))?;
                plan.push(remove(q));
            }
            (Edit::Remove { .. }, ["mounts", _]) => plan.push(remove(mount_of(f, p, pointer)?)),
            (Edit::Set { value: "\"read-only\"", .. }, ["mounts", i, "access"]) => {
                let m = mount_of(f, p, &format!("/mounts/{i}"))?;
                plan.read_only.push(m);
            }
            (Edit::Set { value: "true", .. }, ["boundary", "masked_paths"]) => {}
            (Edit::Remove { .. }, ["boundary", "unmasked_paths"]) => {
                mask(f, p, &mut plan)?;
            }
            (Edit::Set { value, .. }, ["limits", "memory_bytes"]) if f.node("/linux").is_some() => {
                plan.push(set("/linux/resources/memory/limit", *value))
            }
            (Edit::Set { value, .. }, ["limits", "processes"]) if f.node("/linux").is_some() => {
                plan.push(set("/linux/resources/pids/limit", *value))
            }
            (Edit::Set { value: "\"default\"", .. }, ["boundary", "seccomp"]) => {
                return Err("an OCI config has no \"runtime default\" seccomp filter: the filter must be written out in `linux.seccomp` (runc's default is containerd's profile)".into())
            }
            _ => return Err(no_setting(Format::Oci, e)),
        }
    }
    namespaces(f, &mut plan)?;
    capabilities(f, &mut plan);
    for m in std::mem::take(&mut plan.read_only) {
        read_only(f, &m, &mut plan);
    }
    let mut out = plan_doc(f.text, &f.doc.root, &plan.doc)?;
    for (array, items) in &plan.append {
        out.push(
            f.append(array, items)
                .ok_or_else(|| format!("`{array}` is not an array"))?,
        );
    }
    out.sort_by_key(|e| (e.start, e.end));
    Ok(out)
}

/// Unshare each namespace of `plan.namespaces`: a joined one (`path`)
/// stops joining, a missing one is added to `linux.namespaces`.
fn namespaces(f: &JsonFile, plan: &mut Plan) -> Result<(), Refusal> {
    let mut names = std::mem::take(&mut plan.namespaces);
    names.sort();
    names.dedup();
    if names.is_empty() {
        return Ok(());
    }
    let existing: Vec<(usize, String, bool)> = match f.node("/linux/namespaces").map(|n| &n.value) {
        Some(Value::Array(items)) => items
            .iter()
            .enumerate()
            .filter_map(|(i, n)| {
                let Value::Object(m) = &n.value else {
                    return None;
                };
                let t = m.iter().find(|m| m.key == "type")?;
                let Value::String(t) = &t.value.value else {
                    return None;
                };
                Some((i, t.clone(), m.iter().any(|m| m.key == "path")))
            })
            .collect(),
        Some(_) => return Err("`linux.namespaces` is not an array".into()),
        None => Vec::new(),
    };
    let mut added = Vec::new();
    for ns in names {
        match existing.iter().find(|(_, t, _)| *t == ns) {
            Some((i, _, true)) => plan.push(remove(format!("/linux/namespaces/{i}/path"))),
            Some((_, _, false)) => {}
            None => added.push(format!("{{\"type\": {}}}", quote(&ns))),
        }
    }
    if added.is_empty() {
        return Ok(());
    }
    if f.node("/linux/namespaces").is_some() {
        for a in added {
            plan.append("/linux/namespaces", a);
        }
    } else {
        plan.push(set("/linux/namespaces", format!("[{}]", added.join(", "))));
    }
    Ok(())
}

/// Take capabilities out of every set that holds them (the profile's
/// `add` is their union), or empty every set for "drop ALL".
fn capabilities(f: &JsonFile, plan: &mut Plan) {
    if plan.drop_all && f.node("/process/capabilities").is_none() {
        plan.push(set(
            "/process/capabilities",
            "{\"bounding\": [], \"effective\": [], \"permitted\": []}",
        ));
        return;
    }
    for s in CAP_SETS {
        let pointer = format!("/process/capabilities/{s}");
        if f.node(&pointer).is_none() {
            continue;
        }
        if plan.drop_all {
            plan.push(set(pointer, "[]"));
            continue;
        }
        for (i, c) in f.strings(&pointer) {
            if plan.caps.contains(&cap(c)) {
                plan.push(remove(format!("{pointer}/{i}")));
            }
        }
    }
}

/// Make the mount at `m` read-only: `rw`/`rrw` options become `ro`/`rro`,
/// and `ro` is added when no option says read-only.
fn read_only(f: &JsonFile, m: &str, plan: &mut Plan) {
    let options = format!("{m}/options");
    if f.node(&options).is_none() {
        plan.push(set(options, "[\"ro\"]"));
        return;
    }
    let mut any_ro = false;
    for (i, o) in f.strings(&options) {
        match o {
            "rw" => {
                plan.push(set(format!("{options}/{i}"), "\"ro\""));
                any_ro = true;
            }
            "rrw" => {
                plan.push(set(format!("{options}/{i}"), "\"rro\""));
                any_ro = true;
            }
            "ro" | "rro" => any_ro = true,
            _ => {}
        }
    }
    if !any_ro {
        plan.append(&options, "\"ro\"".into());
    }
}

/// Mask again what the profile lists as unmasked: runc's default masked
/// and read-only paths go back into `linux.maskedPaths` and
/// `linux.readonlyPaths`; a writable `sysfs` or `cgroup` mount becomes
/// read-only.
fn mask(f: &JsonFile, p: &Profile, plan: &mut Plan) -> Result<(), Refusal> {
    let Some(Value::Array(items)) = p.value("/boundary/unmasked_paths").map(|n| &n.value) else {
        return Ok(());
    };
    let mut masked = Vec::new();
    let mut readonly = Vec::new();
    for item in items {
        let Value::String(path) = &item.value else {
            continue;
        };
        if crate::import::RUNC_MASKED.contains(&path.as_str()) {
            masked.push(quote(path));
        } else if crate::import::RUNC_READONLY.contains(&path.as_str()) {
            readonly.push(quote(path));
        } else {
            let mount = match f.node("/mounts").map(|n| &n.value) {
                Some(Value::Array(ms)) => ms.iter().position(|m| match &m.value {
                    Value::Object(members) => members.iter().any(|k| {
                        k.key == "destination"
                            && matches!(&k.value.value, Value::String(d) if d == path)
                    }),
                    _ => false,
                }),
                _ => None,
            };
            match mount {
                Some(i) => plan.read_only.push(format!("/mounts/{i}")),
                None => {
                    return Err(format!(
                        "`{path}` is unmasked by nothing the config names; mask it by hand"
                    ))
                }
            }
        }
    }
    for (key, list) in [("maskedPaths", masked), ("readonlyPaths", readonly)] {
        if list.is_empty() {
            continue;
        }
        let pointer = format!("/linux/{key}");
        if f.node(&pointer).is_some() {
            for i in list {
                plan.append(&pointer, i);
            }
        } else {
            plan.push(set(pointer, format!("[{}]", list.join(", "))));
        }
    }
    Ok(())
}
