//! Profile fields → Compose service settings.
//!
//! | profile edit | Compose |
//! |---|---|
//! | `boundary.privileged: false` | `privileged: false` |
//! | `boundary.no_new_privileges: true` | `security_opt` gets `no-new-privileges:true` |
//! | `boundary.read_only_root: true` | `read_only: true` |
//! | `boundary.capabilities.drop: [ALL]` | `cap_drop` gets `ALL` |
//! | remove `boundary.capabilities.add[i]` | the `cap_add` item |
//! | `boundary.seccomp: default` | remove the `seccomp=…` option (or `privileged: false`) |
//! | `boundary.user: 1000:1000` | `user: "1000:1000"` |
//! | remove a `boundary.host_namespaces` item | remove `network_mode`/`pid`/`ipc`/`uts`/`userns_mode: host` |
//! | remove `boundary.shares_pid_with[i]` | remove `pid: service:…` |
//! | remove `boundary.devices[i]`, `sysctls.NAME`, `groups[i]` | the `devices`, `sysctls`, `group_add` item |
//! | remove `mounts[i]` | the `volumes` item (short or long syntax) |
//! | `mounts[i].access: read-only` | short `SRC:DST` → `SRC:DST:ro`; long `read_only: true` |
//! | remove `environment.variables.NAME` | the `environment` item (list or mapping form) |
//! | `network.egress: deny` | `network_mode: none` (not beside `networks`, `ports`, `links`) |
//! | `limits.memory_bytes`, `processes`, `cpu_seconds` | `mem_limit: 4g`, `pids_limit: 256`, `ulimits.cpu: 3600` (or the value read) |
//!
//! A value read from elsewhere (an `extends` base, an `env_file`, another
//! file of the project) is refused: the edit would have to go there.

use super::edit::{New, Node, Ops};
use super::{remove_read_from, under, unmapped, Cx};
use crate::fix::json_edit::Refusal;
use crate::fix::Edit;

struct Service<'d> {
    node: &'d Node,
    /// The service's key in `services` (its owner when it empties).
    key: &'d Node,
}

fn service<'d>(cx: &Cx<'_>, ops: &Ops<'d, '_>) -> Result<Service<'d>, Refusal> {
    if cx.profile.source_text.as_ref() != ops.doc().text {
        return Err("the profile was imported from another text than the one to edit".into());
    }
    // The importer maps the profile's root to the service's key.
    let at = cx
        .loc("")
        .ok_or_else(|| "the profile has no source map; import it again".to_string())?;
    let doc = ops.doc();
    let root = doc.docs.first().ok_or("the file holds no document")?;
    if root.get("include").is_some() {
        return Err("the file includes other Compose files (`include`); settings may come from them, so nothing is edited".into());
    }
    let services = root.get("services").ok_or("the file has no `services`")?;
    let entry = services
        .entries()
        .iter()
        .find(|e| e.key.loc == at)
        .ok_or_else(|| format!("no service whose key is at {at}"))?;
    if entry.value.alias.is_some() {
        return Err(format!(
            "service `{}` is an alias of another (`*name`); edit the anchor by hand",
            cx.profile.name
        ));
    }
    if !entry.value.is_map() {
        return Err(format!("service `{}` is not a mapping", cx.profile.name));
    }
    Ok(Service {
        node: &entry.value,
        key: &entry.key,
    })
}

pub(super) fn plan(cx: &Cx<'_>, ops: &mut Ops<'_, '_>, edits: &[Edit]) -> Result<(), Refusal> {
    let s = service(cx, ops)?;
    // `network_mode: none` also ends a host network: denying egress and
    // leaving the host's network are one edit of that key.
    let deny = edits.iter().any(|e| {
        matches!(e, Edit::Set { pointer, value } if pointer == "/network/egress" && *value == "\"deny\"")
    });
    for e in edits {
        match e {
            Edit::Set { pointer, value } => set(cx, ops, &s, pointer, value)?,
            Edit::Remove { pointer } => {
                let host_network = pointer.starts_with("/boundary/host_namespaces/")
                    && cx.str_at(pointer) == Some("network");
                if deny && host_network {
                    continue;
                }
                if cx.value(pointer).is_some() {
                    remove(cx, ops, &s, pointer)?;
                }
            }
        }
    }
    Ok(())
}

/// Refuse when the profile's current value of `pointer` was read outside
/// the service (an `extends` base, another file): writing the key here
/// would be read differently by `docker compose`.
fn own_value(
    cx: &Cx<'_>,
    ops: &Ops<'_, '_>,
    s: &Service<'_>,
    pointer: &str,
) -> Result<(), Refusal> {
    let Some(at) = cx.loc(pointer) else {
        return Ok(());
    };
    if at == s.key.loc {
        return Ok(()); // a default, mapped to the service itself
    }
    let inside = ops
        .doc()
        .path_to(at)
        .is_some_and(|p| p.iter().any(|n| std::ptr::eq(*n, s.node)));
    if inside {
        Ok(())
    } else {
        Err(format!(
            "`{pointer}` of service `{}` comes from {at}, outside the service (`extends`, an `env_file` or an anchor): edit it there",
            cx.profile.name
        ))
    }
}

/// Replace the scalar the profile read `pointer` from, when it is in the
/// service; else write `path` in the service.
fn write_read_or<'d>(
    cx: &Cx<'_>,
    ops: &mut Ops<'d, '_>,
    s: &Service<'d>,
    pointer: &str,
    path: &[&str],
    value: New,
) -> Result<(), Refusal> {
    own_value(cx, ops, s, pointer)?;
    if let Some(at) = cx.loc(pointer).filter(|at| *at != s.key.loc) {
        let node = ops
            .doc()
            .path_to(at)
            .and_then(|p| p.last().copied())
            .filter(|n| n.text().is_some())
            .ok_or_else(|| {
                format!("`{pointer}` is read at {at}, which is not a value to replace")
            })?;
        return ops.replace(node, &value);
    }
    ops.set(s.node, path, value)
}

/// Append `item` to the list `key` of the service (creating it), unless an
/// item equal by `same` is there.
fn list_add<'d>(
    ops: &mut Ops<'d, '_>,
    s: &Service<'d>,
    key: &str,
    item: New,
    same: impl Fn(&str) -> bool,
) -> Result<(), Refusal> {
    match s.node.get(key) {
        Some(list) if list.is_seq() => {
            if list.items().iter().any(|i| i.text().is_some_and(&same)) {
                Ok(())
            } else {
                ops.append(list, item)
            }
        }
        Some(other) => Err(format!(
            "`{key}` at {} is {}, not a list",
            other.loc,
            super::edit::kind_name(other)
        )),
        None => ops.set(s.node, &[key], New::Seq(vec![item])),
    }
}

fn set<'d>(
    cx: &Cx<'_>,
    ops: &mut Ops<'d, '_>,
    s: &Service<'d>,
    pointer: &str,
    value: &str,
) -> Result<(), Refusal> {
    let svc = s.node;
    match (pointer, value) {
        ("/boundary/privileged", "false") => {
            own_value(cx, ops, s, pointer)?;
            ops.set(svc, &["privileged"], New::bool(false))
        }
        ("/boundary/read_only_root", "true") => {
            own_value(cx, ops, s, pointer)?;
            ops.set(svc, &["read_only"], New::bool(true))
        }
        ("/boundary/no_new_privileges", "true") => {
            own_value(cx, ops, s, pointer)?;
            let existing = svc.get("security_opt").and_then(|l| {
                l.items().iter().find(|i| {
                    i.text()
                        .is_some_and(|t| t.split([':', '=']).next() == Some("no-new-privileges"))
                })
            });
            match existing {
                Some(item) => {
                    let sep = if item.text().is_some_and(|t| t.contains('=')) {
                        '='
                    } else {
                        ':'
                    };
                    ops.replace(item, &New::Str(format!("no-new-privileges{sep}true")))
                }
                None => list_add(
                    ops,
                    s,
                    "security_opt",
                    New::Str("no-new-privileges:true".into()),
                    |_| false,
                ),
            }
        }
        ("/boundary/capabilities/drop", "[\"ALL\"]") => {
            own_value(cx, ops, s, "/boundary/capabilities")?;
            list_add(ops, s, "cap_drop", New::Plain("ALL".into()), |t| {
                crate::import::cap_name(t) == "ALL"
            })
        }
        ("/boundary/seccomp", "\"default\"") => {
            let at = cx
                .loc(pointer)
                .ok_or("`/boundary/seccomp` has no place in the file")?;
            if svc.get("privileged").is_some_and(|p| p.loc == at) {
                // Privileged containers run without seccomp.
                return ops.set(svc, &["privileged"], New::bool(false));
            }
            remove_read_from(cx, ops, svc, &["security_opt"], pointer)
        }
        ("/boundary/user", "\"1000:1000\"") => {
            own_value(cx, ops, s, pointer)?;
            ops.set(svc, &["user"], New::Str("1000:1000".into()))
        }
        ("/network/egress", "\"deny\"") => {
            // `network_mode: none` leaves loopback only; Compose refuses
            // it beside networks, published ports or links.
            for k in ["networks", "ports", "links"] {
                if svc.get(k).is_some() {
                    return Err(format!(
                        "service `{}` has `{k}`, which `network_mode: none` cannot keep; deny egress by hand",
                        cx.profile.name
                    ));
                }
            }
            own_value(cx, ops, s, pointer)?;
            ops.set(svc, &["network_mode"], New::Str("none".into()))
        }
        ("/limits/memory_bytes", "4294967296") => {
            write_read_or(cx, ops, s, pointer, &["mem_limit"], New::Str("4g".into()))
        }
        ("/limits/processes", "256") => write_read_or(
            cx,
            ops,
            s,
            pointer,
            &["pids_limit"],
            New::Plain("256".into()),
        ),
        ("/limits/cpu_seconds", "3600") => write_read_or(
            cx,
            ops,
            s,
            pointer,
            &["ulimits", "cpu"],
            New::Plain("3600".into()),
        ),
        _ => {
            if let Some(rest) = under(pointer, "/mounts") {
                if let [i, "access"] = rest.as_slice() {
                    if value == "\"read-only\"" {
                        return mount_read_only(cx, ops, svc, &format!("/mounts/{i}"));
                    }
                }
            }
            Err(unmapped("Compose", pointer))
        }
    }
}

fn remove<'d>(
    cx: &Cx<'_>,
    ops: &mut Ops<'d, '_>,
    s: &Service<'d>,
    pointer: &str,
) -> Result<(), Refusal> {
    let svc = s.node;
    if let Some([_]) = under(pointer, "/boundary/host_namespaces").as_deref() {
        let key = match cx.str_at(pointer) {
            Some("network") => "network_mode",
            Some("pid") => "pid",
            Some("ipc") => "ipc",
            Some("uts") => "uts",
            Some("user") => "userns_mode",
            _ => return Err(unmapped("Compose", pointer)),
        };
        return remove_key(cx, ops, s, key, pointer, Some("host"));
    }
    if let Some([_]) = under(pointer, "/boundary/shares_pid_with").as_deref() {
        return remove_key(cx, ops, s, "pid", pointer, None);
    }
    for (prefix, keys) in [
        ("/boundary/capabilities/add", &["cap_add"][..]),
        ("/boundary/devices", &["devices"][..]),
        ("/boundary/sysctls", &["sysctls"][..]),
        ("/boundary/groups", &["group_add"][..]),
        ("/environment/variables", &["environment"][..]),
        ("/mounts", &["volumes"][..]),
    ] {
        if let Some([_]) = under(pointer, prefix).as_deref() {
            return remove_read_from(cx, ops, svc, keys, pointer).map_err(|e| {
                if prefix == "/environment/variables" && svc.get("env_file").is_some() {
                    format!(
                        "{e} (the variable may come from an `env_file`, which is edited by hand)"
                    )
                } else {
                    e
                }
            });
        }
    }
    Err(unmapped("Compose", pointer))
}

/// Remove the service's entry `key`, when the profile read `pointer` from
/// its value (and the value is `want`, when given).
fn remove_key<'d>(
    cx: &Cx<'_>,
    ops: &mut Ops<'d, '_>,
    s: &Service<'d>,
    key: &str,
    pointer: &str,
    want: Option<&str>,
) -> Result<(), Refusal> {
    let svc = s.node;
    let at = cx.loc(pointer);
    let i = svc
        .entries()
        .iter()
        .position(|e| e.key.text() == Some(key) && Some(e.value.loc) == at)
        .ok_or_else(|| {
            format!(
                "`{pointer}` is not read from the service's `{key}` (it is joined through another service or comes from elsewhere); change it by hand"
            )
        })?;
    if let (Some(w), Some(e)) = (want, svc.entries().get(i)) {
        if e.value.text() != Some(w) {
            return Err(format!(
                "`{key}` at {} is not `{w}` as written (interpolated or joined); change it by hand",
                e.value.loc
            ));
        }
    }
    ops.remove(svc, Some(s.key), i)
}

fn mount_read_only<'d>(
    cx: &Cx<'_>,
    ops: &mut Ops<'d, '_>,
    svc: &'d Node,
    mount: &str,
) -> Result<(), Refusal> {
    let at = cx
        .loc(mount)
        .ok_or_else(|| format!("`{mount}` has no place in the file"))?;
    let path = ops.doc().path_to(at).ok_or("no YAML node for the mount")?;
    let (_, _, item) = super::through(&path, svc, &["volumes"]).ok_or_else(|| {
        format!("`{mount}` is not read from the service's `volumes`; make it read-only by hand")
    })?;
    if item.is_map() {
        return ops.set(item, &["read_only"], New::bool(true));
    }
    let text = item
        .text()
        .ok_or("the volume is neither a string nor a mapping")?;
    let parts: Vec<&str> = text.split(':').collect();
    let new = match parts.as_slice() {
        [src, dst] => format!("{src}:{dst}:ro"),
        [src, dst, mode] => {
            let mut opts: Vec<&str> = mode.split(',').filter(|o| *o != "rw").collect();
            if !opts.contains(&"ro") {
                opts.insert(0, "ro");
            }
            format!("{src}:{dst}:{}", opts.join(","))
        }
        _ => {
            return Err(format!(
            "the volume at {} is not `SOURCE:TARGET[:MODE]` as written; make it read-only by hand",
            item.loc
        ))
        }
    };
    ops.replace(item, &New::Str(new))
}
