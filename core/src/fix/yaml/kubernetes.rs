//! Profile fields → Kubernetes pod and container settings.
//!
//! | profile edit | manifest |
//! |---|---|
//! | `boundary.privileged: false` | container `securityContext.privileged: false` |
//! | `boundary.no_new_privileges: true` | container `securityContext.allowPrivilegeEscalation: false` |
//! | `boundary.read_only_root: true` | container `securityContext.readOnlyRootFilesystem: true` |
//! | `boundary.capabilities.drop: [ALL]` | container `securityContext.capabilities.drop` gets `ALL` |
//! | remove `boundary.capabilities.add[i]` | the item of `capabilities.add` |
//! | `boundary.seccomp: default` | container `securityContext.seccompProfile.type: RuntimeDefault` |
//! | `boundary.user: 1000:1000` | container `runAsUser: 1000`, `runAsGroup: 1000` |
//! | remove a `boundary.host_namespaces` item | pod `hostNetwork`/`hostPID`/`hostIPC: false`, `hostUsers: false` |
//! | remove `boundary.shares_pid_with[i]` | pod `shareProcessNamespace: false` |
//! | remove `boundary.sysctls.NAME`, `boundary.groups[i]` | the pod `securityContext` item |
//! | `boundary.apparmor: default` | the `appArmorProfile.type` read: `RuntimeDefault` |
//! | `boundary.masked_paths: true` | container `securityContext.procMount: Default` |
//! | remove `mounts[i]` | the `volumeMounts` item, and its volume when no other mount uses it; the token mount: pod `automountServiceAccountToken: false` |
//! | `mounts[i].access: read-only` | the `volumeMounts` item's `readOnly: true` |
//! | remove `environment.variables.NAME` | the container's `env` item |
//! | `limits.memory_bytes: 4 GiB` | container `resources.limits.memory: 4Gi` (or the value read) |
//! | `limits.wall_seconds: 3600` | pod (or Job) `activeDeadlineSeconds: 3600`, Pods and Jobs only |
//!
//! Settings the container's `securityContext` holds are written there even
//! when the pod's is the one read: the container's wins, and the other
//! containers of the pod keep theirs.

use super::edit::{Kind, New, Node, Ops};
use super::{remove_read_from, through, under, unescape, unmapped, Cx};
use crate::fix::json_edit::Refusal;
use crate::fix::Edit;

const TOKEN_PATH: &str = "/var/run/secrets/kubernetes.io/serviceaccount";
const CONTAINER_LISTS: [&str; 3] = ["containers", "initContainers", "ephemeralContainers"];

/// The container and the pod spec the profile was imported from.
struct Place<'d> {
    container: &'d Node,
    pod: &'d Node,
    /// The object (`kind: Pod`, `Job`, ...) the pod is in.
    object: &'d Node,
}

fn place<'d>(cx: &Cx<'_>, ops: &Ops<'d, '_>) -> Result<Place<'d>, Refusal> {
    // The importer maps the profile's root to the container's mapping.
    let at = cx
        .loc("")
        .ok_or_else(|| "the profile has no source map; import it again".to_string())?;
    let path = ops
        .doc()
        .path_to(at)
        .ok_or_else(|| format!("no container found at {at}"))?;
    let i = path
        .iter()
        .enumerate()
        .position(|(i, n)| {
            n.loc == at && n.is_map() && i >= 2 && path.get(i - 1).is_some_and(|s| s.is_seq())
        })
        .ok_or_else(|| format!("no container mapping at {at}"))?;
    let container = *path.get(i).ok_or("no container")?;
    let pod = *path.get(i - 2).ok_or("no pod spec")?;
    let list = *path.get(i - 1).ok_or("no container list")?;
    let owner = super::Doc::entry_of(pod, list).and_then(|e| e.key.text());
    if !owner.is_some_and(|k| CONTAINER_LISTS.contains(&k)) {
        return Err(format!(
            "the mapping at {at} is not in a pod's container list"
        ));
    }
    for n in path.iter().take(i + 1) {
        if n.alias.is_some() {
            return Err(format!(
                "the container at {at} is reached through an alias; edit the anchor by hand"
            ));
        }
    }
    let object = *path.first().ok_or("no object")?;
    Ok(Place {
        container,
        pod,
        object,
    })
}

fn sc_set<'d>(ops: &mut Ops<'d, '_>, p: &Place<'d>, path: &[&str], v: New) -> Result<(), Refusal> {
    let mut full = vec!["securityContext"];
    full.extend_from_slice(path);
    ops.set(p.container, &full, v)
}

pub(super) fn plan(cx: &Cx<'_>, ops: &mut Ops<'_, '_>, edits: &[Edit]) -> Result<(), Refusal> {
    let p = place(cx, ops)?;
    for e in edits {
        one(cx, ops, &p, e)?;
    }
    Ok(())
}

fn one<'d>(cx: &Cx<'_>, ops: &mut Ops<'d, '_>, p: &Place<'d>, e: &Edit) -> Result<(), Refusal> {
    match e {
        Edit::Set { pointer, value } => set(cx, ops, p, pointer, value),
        Edit::Remove { pointer } => {
            if cx.value(pointer).is_none() {
                return Ok(()); // already absent
            }
            remove(cx, ops, p, pointer)
        }
    }
}

fn set<'d>(
    cx: &Cx<'_>,
    ops: &mut Ops<'d, '_>,
    p: &Place<'d>,
    pointer: &str,
    value: &str,
) -> Result<(), Refusal> {
    let c = p.container;
    match (pointer, value) {
        ("/boundary/privileged", "false") => {
            let host_process = [Some(c), p.pod.get("securityContext").map(|_| p.pod)]
                .into_iter()
                .flatten()
                .filter_map(|n| n.get("securityContext"))
                .filter_map(|s| s.get("windowsOptions"))
                .filter_map(|w| w.get("hostProcess"))
                .any(|h| h.text() == Some("true"));
            if host_process {
                return Err("the container is a Windows HostProcess (`windowsOptions.hostProcess: true`); turning that off is a change of what runs, not an edit".into());
            }
            sc_set(ops, p, &["privileged"], New::bool(false))
        }
        ("/boundary/no_new_privileges", "true") => {
            sc_set(ops, p, &["allowPrivilegeEscalation"], New::bool(false))
        }
        ("/boundary/read_only_root", "true") => {
            sc_set(ops, p, &["readOnlyRootFilesystem"], New::bool(true))
        }
        ("/boundary/capabilities/drop", "[\"ALL\"]") => {
            let drop = c
                .get("securityContext")
                .and_then(|s| s.get("capabilities"))
                .and_then(|caps| caps.get("drop"));
            match drop {
                Some(list) if list.is_seq() => {
                    let has_all = list.items().iter().any(|i| {
                        i.text()
                            .is_some_and(|t| crate::import::cap_name(t) == "ALL")
                    });
                    if has_all {
                        Ok(())
                    } else {
                        ops.append(list, New::Plain("ALL".into()))
                    }
                }
                _ => sc_set(
                    ops,
                    p,
                    &["capabilities", "drop"],
                    New::Seq(vec![New::Plain("ALL".into())]),
                ),
            }
        }
        ("/boundary/seccomp", "\"default\"") => {
            let own = c
                .get("securityContext")
                .and_then(|s| s.get("seccompProfile"));
            if own.is_some_and(|s| s.get("localhostProfile").is_some()) {
                return Err("the container's `seccompProfile` names a `localhostProfile`, which only `type: Localhost` allows; change it by hand".into());
            }
            match own {
                Some(s) if s.is_map() => sc_set(
                    ops,
                    p,
                    &["seccompProfile", "type"],
                    New::Plain("RuntimeDefault".into()),
                ),
                _ => sc_set(
                    ops,
                    p,
                    &["seccompProfile"],
                    New::map(&[("type", New::Plain("RuntimeDefault".into()))]),
                ),
            }
        }
        ("/boundary/user", "\"1000:1000\"") => {
            sc_set(ops, p, &["runAsUser"], New::Plain("1000".into()))?;
            sc_set(ops, p, &["runAsGroup"], New::Plain("1000".into()))
        }
        ("/boundary/masked_paths", "true") => {
            if cx.value(pointer) == Some(&serde_json::Value::Bool(true)) {
                return Ok(());
            }
            sc_set(ops, p, &["procMount"], New::Plain("Default".into()))
        }
        ("/boundary/apparmor", "\"default\"") => {
            let own = c
                .get("securityContext")
                .and_then(|s| s.get("appArmorProfile"));
            if own.is_some_and(|a| a.get("localhostProfile").is_some()) {
                return Err("the container's `appArmorProfile` names a `localhostProfile`; change it by hand".into());
            }
            match own {
                Some(a) if a.is_map() => sc_set(
                    ops,
                    p,
                    &["appArmorProfile", "type"],
                    New::Plain("RuntimeDefault".into()),
                ),
                _ => sc_set(
                    ops,
                    p,
                    &["appArmorProfile"],
                    New::map(&[("type", New::Plain("RuntimeDefault".into()))]),
                ),
            }
        }
        ("/limits/memory_bytes", "4294967296") => match read_scalar(cx, ops, c, pointer) {
            Some(node) => ops.replace(node, &New::Str("4Gi".into())),
            None => ops.set(
                c,
                &["resources", "limits", "memory"],
                New::Str("4Gi".into()),
            ),
        },
        ("/limits/wall_seconds", "3600") => {
            // Only a Pod's or a Job's pods may carry a deadline: the API
            // refuses one in a template that restarts its pods.
            let kind = p.object.get("kind").and_then(Node::text);
            if !matches!(kind, Some("Pod" | "Job" | "CronJob")) {
                return Err(format!(
                    "a {} restarts its pods; `activeDeadlineSeconds` is refused there",
                    kind.unwrap_or("workload")
                ));
            }
            let holder = cx
                .loc(pointer)
                .and_then(|at| ops.doc().path_to(at))
                .and_then(|path| path.last().copied())
                .filter(|n| n.text().is_some());
            match holder {
                Some(node) => ops.replace(node, &New::Plain("3600".into())),
                None => ops.set(p.pod, &["activeDeadlineSeconds"], New::Plain("3600".into())),
            }
        }
        _ => {
            if let Some(rest) = under(pointer, "/mounts") {
                if let [i, "access"] = rest.as_slice() {
                    if value == "\"read-only\"" {
                        return mount_read_only(cx, ops, p, &format!("/mounts/{i}"));
                    }
                }
            }
            Err(unmapped("Kubernetes", pointer))
        }
    }
}

fn remove<'d>(
    cx: &Cx<'_>,
    ops: &mut Ops<'d, '_>,
    p: &Place<'d>,
    pointer: &str,
) -> Result<(), Refusal> {
    let c = p.container;
    if let Some(rest) = under(pointer, "/boundary/host_namespaces") {
        let [_] = rest.as_slice() else {
            return Err(unmapped("Kubernetes", pointer));
        };
        let key = match cx.str_at(pointer) {
            Some("network" | "uts") => "hostNetwork",
            Some("pid") => "hostPID",
            Some("ipc") => "hostIPC",
            Some("user") => "hostUsers",
            _ => return Err(unmapped("Kubernetes", pointer)),
        };
        return ops.set(p.pod, &[key], New::bool(false));
    }
    if let Some([_]) = under(pointer, "/boundary/shares_pid_with").as_deref() {
        return ops.set(p.pod, &["shareProcessNamespace"], New::bool(false));
    }
    if let Some([_]) = under(pointer, "/boundary/capabilities/add").as_deref() {
        let caps = c
            .get("securityContext")
            .and_then(|s| s.get("capabilities"))
            .ok_or("no container `securityContext.capabilities`")?;
        return remove_read_from(cx, ops, caps, &["add"], pointer);
    }
    if let Some([_]) = under(pointer, "/boundary/sysctls").as_deref() {
        let sc = p
            .pod
            .get("securityContext")
            .ok_or("no pod `securityContext`")?;
        return remove_read_from(cx, ops, sc, &["sysctls"], pointer);
    }
    if let Some([_]) = under(pointer, "/boundary/groups").as_deref() {
        let sc = p
            .pod
            .get("securityContext")
            .ok_or("no pod `securityContext`")?;
        // `fsGroup` is an entry, `supplementalGroups` a list.
        if let Some(fs) = sc.entry("fsGroup") {
            if cx.loc(pointer) == Some(fs.value.loc) {
                let i = sc
                    .entries()
                    .iter()
                    .position(|e| std::ptr::eq(e, fs))
                    .ok_or("no `fsGroup`")?;
                let owner = super::Doc::entry_of(p.pod, sc).map(|e| &e.key);
                return ops.remove(sc, owner, i);
            }
        }
        return remove_read_from(cx, ops, sc, &["supplementalGroups"], pointer);
    }
    if let Some(rest) = under(pointer, "/environment/variables") {
        let [name] = rest.as_slice() else {
            return Err(unmapped("Kubernetes", pointer));
        };
        return remove_variable(cx, ops, c, pointer, &unescape(name));
    }
    if let Some(rest) = under(pointer, "/mounts") {
        let [_] = rest.as_slice() else {
            return Err(unmapped("Kubernetes", pointer));
        };
        return remove_mount(cx, ops, p, pointer);
    }
    if pointer == "/boundary/unmasked_paths" {
        return Ok(());
    }
    Err(unmapped("Kubernetes", pointer))
}

/// The scalar under `holder` the profile read `pointer` from.
fn read_scalar<'d>(
    cx: &Cx<'_>,
    ops: &Ops<'d, '_>,
    holder: &Node,
    pointer: &str,
) -> Option<&'d Node> {
    let at = cx.loc(pointer)?;
    let path = ops.doc().path_to(at)?;
    if !path.iter().any(|n| std::ptr::eq(*n, holder)) {
        return None;
    }
    path.last()
        .copied()
        .filter(|n| n.text().is_some() && n.loc == at)
}

fn remove_variable<'d>(
    cx: &Cx<'_>,
    ops: &mut Ops<'d, '_>,
    c: &'d Node,
    pointer: &str,
    name: &str,
) -> Result<(), Refusal> {
    if remove_read_from(cx, ops, c, &["env"], pointer).is_ok() {
        return Ok(());
    }
    // The value may have been read from a ConfigMap elsewhere: the item
    // that names the variable (Kubernetes keeps the last of a name).
    let env = c.get("env").filter(|e| e.is_seq());
    let item = env.and_then(|env| {
        env.items()
            .iter()
            .rposition(|i| i.get("name").and_then(Node::text) == Some(name))
    });
    match (env, item) {
        (Some(env), Some(i)) => {
            let key = c.entry("env").map(|e| &e.key);
            ops.remove(env, key, i)
        }
        _ => Err(format!(
            "`{name}` comes from `envFrom` (or another source), not an `env` item: removing the reference would remove other variables too; change it by hand"
        )),
    }
}

/// The `volumeMounts` item the mount was read from.
fn mount_item<'d>(
    cx: &Cx<'_>,
    ops: &Ops<'d, '_>,
    c: &'d Node,
    mount: &str,
) -> Option<(&'d Node, &'d Node, &'d Node)> {
    let at = cx.loc(mount)?;
    let path = ops.doc().path_to(at)?;
    through(&path, c, &["volumeMounts"])
}

fn mount_read_only<'d>(
    cx: &Cx<'_>,
    ops: &mut Ops<'d, '_>,
    p: &Place<'d>,
    mount: &str,
) -> Result<(), Refusal> {
    let (_, _, item) = mount_item(cx, ops, p.container, mount).ok_or_else(|| {
        format!("`{mount}` is not read from a `volumeMounts` item; make it read-only by hand")
    })?;
    ops.set(item, &["readOnly"], New::bool(true))
}

fn remove_mount<'d>(
    cx: &Cx<'_>,
    ops: &mut Ops<'d, '_>,
    p: &Place<'d>,
    mount: &str,
) -> Result<(), Refusal> {
    let Some((list, key, item)) = mount_item(cx, ops, p.container, mount) else {
        let source = cx.str_at(&format!("{mount}/source")).unwrap_or("");
        if source == TOKEN_PATH || source.starts_with(&format!("{TOKEN_PATH}/")) {
            return ops.set(p.pod, &["automountServiceAccountToken"], New::bool(false));
        }
        return Err(format!(
            "`{mount}` is not read from a `volumeMounts` item; remove it by hand"
        ));
    };
    let i = list
        .items()
        .iter()
        .position(|n| std::ptr::eq(n, item))
        .ok_or("no mount item")?;
    ops.remove(list, Some(key), i)?;
    // The volume goes too when no other mount of the pod names it.
    let Some(name) = item.get("name").and_then(Node::text) else {
        return Ok(());
    };
    let uses = CONTAINER_LISTS
        .iter()
        .filter_map(|k| p.pod.get(k))
        .flat_map(Node::items)
        .filter_map(|c| c.get("volumeMounts"))
        .flat_map(Node::items)
        .filter(|m| !std::ptr::eq(*m, item))
        .filter(|m| m.get("name").and_then(Node::text) == Some(name))
        .count();
    if uses > 0 {
        return Ok(());
    }
    let Some(volumes) = p.pod.get("volumes").filter(|v| v.is_seq()) else {
        return Ok(());
    };
    let Some(vi) = volumes
        .items()
        .iter()
        .position(|v| v.get("name").and_then(Node::text) == Some(name))
    else {
        return Ok(());
    };
    if matches!(volumes.items().get(vi).map(|v| &v.kind), Some(Kind::Map(_))) {
        let vkey = p.pod.entry("volumes").map(|e| &e.key);
        ops.remove(volumes, vkey, vi)?;
    }
    Ok(())
}
