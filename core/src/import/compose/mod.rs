//! Docker Compose files (the Compose Specification: `services:` with
//! `volumes`, `privileged`, `cap_add`, `network_mode`, `environment`, ...).
//!
//! One profile per service, named after the service. Docker's documented
//! defaults are written out where they hold whatever the daemon's
//! configuration (privileged off, the default seccomp profile unless
//! privileged, outbound network on the default bridge); what depends on the
//! daemon (user-namespace remapping, the runtime's version) stays
//! undeclared.
//!
//! A service's `extends` is resolved in [`extends`] before it is read.

#[cfg(test)]
mod closed_tests;
mod context;
#[cfg(test)]
mod context_tests;
mod dotenv;
mod extends;
mod files;
#[cfg(test)]
mod reading_tests;
pub(super) mod schema;
mod shellwords;
mod template;

pub use context::{Companion, ComposeContext};
use template::{Interpolated, TemplateError, Var};

use super::builder::{Draft, OVal};
use super::invalid;
use super::read;
use super::shape::{self, Shape};
use super::tree::{Loc, SNode, SValue};
use super::{cap_name, expand_home, yaml, ImportError, ImportErrorKind};
use crate::secrets::is_secret_name;

pub fn looks_like(doc: &SNode) -> bool {
    doc.get("services").is_some_and(SNode::is_map) && doc.get("apiVersion").is_none()
}

#[cfg(test)]
pub fn import(bytes: &[u8]) -> Result<Vec<(String, Draft)>, ImportError> {
    let mut out = Vec::new();
    import_into(bytes, &mut |name, d| out.push((name, d)))?;
    Ok(out)
}

/// [`import`], each service's draft handed to `sink` as it is built.
pub fn import_into(bytes: &[u8], sink: &mut dyn FnMut(String, Draft)) -> Result<(), ImportError> {
    import_docs(&yaml::parse(bytes)?, sink)
}

/// [`import_into`] from the file's YAML documents, already parsed, read
/// with no file system: a file that refers to another is refused.
pub fn import_docs(docs: &[SNode], sink: &mut dyn FnMut(String, Draft)) -> Result<(), ImportError> {
    import_docs_with(docs, &ComposeContext::no_files(false), sink)
}

/// [`import_docs`] with the file's companions read through `cx`.
pub fn import_docs_with(
    docs: &[SNode],
    cx: &ComposeContext<'_>,
    sink: &mut dyn FnMut(String, Draft),
) -> Result<(), ImportError> {
    // compose-go reads each YAML document of a file as one more layer and
    // merges them in order, skipping an empty one (a trailing `---`). This
    // import reads one document: a second one is refused, not left out.
    let mut written = docs.iter().filter(|d| !d.is_null());
    let Some(root) = written.next() else {
        return Err(ImportError::new(ImportErrorKind::Unrecognized(
            "the file is empty".into(),
        )));
    };
    if let Some(next) = written.next() {
        return Err(invalid(
            next.loc,
            "a second YAML document starts here: Docker Compose merges the documents of a file in order, and this import reads only one; write them as one document",
        ));
    }
    read::map(root, "compose file")?;
    // Every interpolation of this file reads the project environment.
    let mut file_unread = Vec::new();
    let env = cx.project_env(root.loc, &mut file_unread)?;
    let _env = context::ProjectEnv::set(env);
    check_templates(root)?;
    // The files it pulls in, merged as Compose merges them.
    let mut got = files::Gathered {
        notes: Vec::new(),
        unread: file_unread,
    };
    let merged = files::resolve(root, cx, &mut got)?;
    let root = match &merged {
        Some(m) => {
            check_templates(m)?;
            m
        }
        None => root,
    };
    let file_unread = got.unread;
    let Some(services) = read::opt_map(root, "services")? else {
        return Err(ImportError::new(ImportErrorKind::Unrecognized(
            "not a Compose file: no `services` mapping".into(),
        ))
        .at(root.loc));
    };
    if services.entries().is_empty() {
        return Err(invalid(services.loc, "`services` is empty"));
    }
    // The file's own keys apply to every service: walked once, noted in
    // each profile.
    let mut top = Draft::new("", "", root.loc);
    let mut assumed = Vec::new();
    let view = top_view(root, &mut assumed)?;
    for (at, note) in assumed.into_iter().chain(got.notes) {
        top.note(at, note);
    }
    shape::walk(&mut top, &view, &Shape::Map(&schema::TOP), "", &unknown)?;
    let defs = Defs::of(root);
    let mut extends = extends::Extends::new(services);
    for svc in services.entries() {
        let own = read::map(&svc.value, &svc.key)?;
        let mut assumed = Vec::new();
        let merged = extends.resolve(&svc.key)?;
        let node = merged.as_ref().map_or(own, |m| &m.node);
        let node = cast_booleans(interpolated(node, "", &mut assumed)?, &mut assumed);
        if let Some(m) = merged {
            assumed.push((m.at, m.note));
        }
        let mut unread = file_unread.clone();
        let mut d = service(
            root,
            (&defs, cx, &mut unread),
            &mut extends,
            &svc.key,
            svc.key_loc,
            &node,
        )?;
        for (at, note) in assumed {
            d.note(at, note);
        }
        // Every template of the file, and the service's env files, have
        // been read by now: what came from `.env` a shell could change.
        for (at, what) in unread
            .into_iter()
            .chain(context::shell_overridable(root.loc))
        {
            d.unread(at, what);
        }
        shape::adopt_notes(&mut d, &top);
        sink(svc.key.clone(), d);
    }
    Ok(())
}

/// The entry `key` when it has a value: a key written with none is left
/// out, as Compose reads it.
fn written<'a>(node: &'a SNode, key: &str) -> Option<&'a super::tree::SEntry> {
    node.entry(key).filter(|e| !e.value.is_null())
}

fn unknown(path: &str) -> String {
    format!("unknown field `{path}` is ignored by this import (and by Compose, or refused by it)")
}

/// The location of the character `offset` characters into a one-line
/// scalar (quoted scalars start one character later).
fn inside(node: &SNode, offset: usize) -> Loc {
    let quoted = matches!(&node.value, SValue::Scalar(s) if s.quoted);
    Loc {
        line: node.loc.line,
        column: node.loc.column + u32::try_from(offset).unwrap_or(0) + u32::from(quoted),
    }
}

/// A command as a list of (word, location), interpolated here unless the
/// service pass already did (`interpolated`): a list is taken as is; a
/// string is split into words as Compose splits it ([`shellwords`]: no
/// shell involved, a line break is a space, and the line ends at the first
/// `;`, `&`, `|`, `<` or `>` outside quotes).
fn words(
    d: &mut Draft,
    node: &SNode,
    what: &str,
    interpolated: bool,
) -> Result<Vec<(String, Loc)>, ImportError> {
    let interpolate = |s: &str| {
        if interpolated {
            Ok(Interpolated {
                text: s.to_string(),
                ..Interpolated::default()
            })
        } else {
            interpolate(s)
        }
    };
    match &node.value {
        SValue::Seq(items) => {
            let mut out = Vec::new();
            for (raw, at) in read::texts(items, what)? {
                let i = interpolate(&raw).map_err(|m| invalid(at, m))?;
                note_interpolation(d, at, &format!("`{what}`"), &raw, &i);
                out.push((i.text, at));
            }
            Ok(out)
        }
        SValue::Scalar(s) => {
            let i = interpolate(&s.text).map_err(|m| invalid(node.loc, m))?;
            note_interpolation(d, node.loc, &format!("`{what}`"), &s.text, &i);
            let split = shellwords::parse(&i.text).map_err(|()| {
                invalid(
                    node.loc,
                    format!("`{what}` is not a command line Compose can split into words (an unclosed quote or `$(`, a `\\` at the end, or a `(` or `)` outside `$(…)`): Compose refuses it"),
                )
            })?;
            if let Some(at) = split.stopped_at {
                let op = i
                    .text
                    .get(at..)
                    .and_then(|r| r.chars().next())
                    .unwrap_or(';');
                let rest = i.text.get(at..).unwrap_or("").trim();
                d.note(
                    node.loc,
                    format!("Compose splits `{what}` without a shell and stops at `{op}`: `{rest}` is not part of the command Docker runs"),
                );
            }
            // Positions inside the scalar hold only for one line written
            // as it is read.
            let exact = i.text == s.text && !s.text.contains('\n');
            Ok(split
                .words
                .into_iter()
                .map(|(w, at)| {
                    let loc = if exact {
                        inside(node, i.text.get(..at).unwrap_or("").chars().count())
                    } else {
                        node.loc
                    };
                    (w, loc)
                })
                .collect())
        }
        SValue::Null => Ok(Vec::new()),
        SValue::Map(_) => Err(invalid(
            node.loc,
            format!("`{what}` must be a string or a list, found a mapping"),
        )),
    }
}

/// The file's top-level `volumes`, `secrets` and `configs` by name, built once per
/// file: each mount and secret of each service finds its definition
/// without a scan of them all (one service mounting 50,000 named volumes
/// took seconds).
struct Defs<'a> {
    volumes: std::collections::HashMap<&'a str, &'a SNode>,
    secrets: std::collections::HashMap<&'a str, &'a SNode>,
    configs: std::collections::HashMap<&'a str, &'a SNode>,
}

impl<'a> Defs<'a> {
    fn of(root: &'a SNode) -> Defs<'a> {
        // Keys are unique (the parser refuses duplicates).
        let by_name = |key: &str| {
            root.get(key)
                .map(|m| {
                    m.entries()
                        .iter()
                        .map(|e| (e.key.as_str(), &e.value))
                        .collect()
                })
                .unwrap_or_default()
        };
        Defs {
            volumes: by_name("volumes"),
            secrets: by_name("secrets"),
            configs: by_name("configs"),
        }
    }
}

/// What reading a service needs besides the service: the file's
/// definitions, its context, and where unread context is kept.
type ServiceCx<'a, 'b> = (
    &'a Defs<'a>,
    &'a ComposeContext<'b>,
    &'a mut Vec<(Loc, String)>,
);

fn service(
    root: &SNode,
    (defs, cx, unread): ServiceCx<'_, '_>,
    extends: &mut extends::Extends<'_>,
    name: &str,
    key_loc: Loc,
    svc: &SNode,
) -> Result<Draft, ImportError> {
    let mut d = Draft::new(
        name,
        &format!("imported from Docker Compose service `{name}`"),
        key_loc,
    );
    // Every key is held to the schema's types before it is read; keys the
    // import does not know, at every level, are notes.
    shape::walk(
        &mut d,
        svc,
        &Shape::Map(&schema::SERVICE),
        &format!("services.{name}"),
        &unknown,
    )?;

    runtime(&mut d, svc, key_loc)?;
    let privileged = identity(&mut d, svc, name, key_loc)?;
    security_options(&mut d, svc, key_loc, privileged)?;
    let network_mode = namespaces(&mut d, root, extends, svc, key_loc)?;
    let network_mode = network_mode.as_ref().map(|(v, at)| (v.as_str(), *at));
    network(&mut d, root, svc, key_loc, network_mode)?;

    mounts(&mut d, defs, extends, svc, key_loc)?;
    environment(&mut d, (defs, cx, unread), svc, key_loc)?;
    command(&mut d, svc, key_loc)?;
    kernel(&mut d, svc)?;
    hooks(&mut d, svc)?;
    limits(&mut d, svc, key_loc)?;

    match read::opt_str(svc, "image")? {
        Some((img, at)) => d.set("/dependencies/image", img, at),
        None => d.undeclared(
            "/dependencies/image",
            "no `image`: the service is built from a local context",
        ),
    }
    if let Some(b) = written(svc, "build") {
        d.note(b.key_loc, "`build` makes the image from a local context at start-up; what it installs is not audited here");
    }
    let scale = match read::opt_map(svc, "deploy")? {
        Some(dep) => read::opt_u64(dep, "replicas")?,
        None => None,
    }
    .or(read::opt_u64(svc, "scale")?);
    match scale {
        Some((n, at)) => d.set("/concurrency/max_jobs", n, at),
        None => d.set("/concurrency/max_jobs", 1u64, key_loc),
    }
    for (ptr, why) in [
        (
            "/tenancy",
            "a Compose file does not say who wrote the code it runs",
        ),
        (
            "/needs",
            "a Compose file does not list the job's required inputs and outputs",
        ),
        (
            "/dependencies/prepared_in",
            "how dependencies were prepared is not in the Compose file",
        ),
        (
            "/dependencies/lockfile",
            "the Compose file names no lockfile",
        ),
        (
            "/artifacts",
            "artifact collection is outside the Compose file",
        ),
        (
            "/cleanup",
            "whether containers are removed afterwards depends on how `docker compose` is run",
        ),
        (
            "/concurrency/release_after",
            "the Compose file does not say when a slot is released",
        ),
    ] {
        d.undeclared(ptr, why);
    }
    Ok(d)
}

/// The runtime a service names (`runtime:`), or the daemon's default.
fn runtime(d: &mut Draft, svc: &SNode, key_loc: Loc) -> Result<(), ImportError> {
    match read::opt_str(svc, "runtime")? {
        Some((rt, at)) => {
            let l = rt.to_ascii_lowercase();
            let kind = if l.contains("runsc") || l.contains("gvisor") {
                "user-space-kernel"
            } else if l.contains("kata") || l.contains("firecracker") {
                "microvm"
            } else {
                "container"
            };
            d.set("/boundary/kind", kind, at);
            d.set("/boundary/runtime/name", rt, at);
            d.undeclared(
                "/boundary/runtime/version",
                "the runtime's version is the Docker host's, not in the Compose file",
            );
        }
        None => {
            d.set("/boundary/kind", "container", key_loc);
            d.undeclared("/boundary/runtime", "no `runtime`: the Docker daemon's default runtime (usually runc) runs it, at a version the file does not show");
        }
    }
    Ok(())
}

/// `privileged`, capabilities and `user`; the `privileged` setting read,
/// which decides the seccomp default.
fn identity(
    d: &mut Draft,
    svc: &SNode,
    name: &str,
    key_loc: Loc,
) -> Result<Option<(bool, Loc)>, ImportError> {
    let privileged = read::opt_bool(svc, "privileged")?;
    match privileged {
        Some((p, at)) => d.set("/boundary/privileged", p, at),
        None => d.set("/boundary/privileged", false, key_loc),
    }

    let cap_add = read::opt_strs(svc, "cap_add", false)?;
    let cap_drop = read::opt_strs(svc, "cap_drop", false)?;
    if cap_add.is_none() && cap_drop.is_none() {
        d.undeclared(
            "/boundary/capabilities",
            "no `cap_add` or `cap_drop`: Docker's default capability set applies",
        );
    } else {
        for (set, list, key) in [
            ("add", &cap_add, "cap_add"),
            ("drop", &cap_drop, "cap_drop"),
        ] {
            let ptr = format!("/boundary/capabilities/{set}");
            let at = svc
                .get(key)
                .or_else(|| svc.get("cap_add"))
                .or_else(|| svc.get("cap_drop"))
                .map_or(key_loc, |n| n.loc);
            d.set(&ptr, OVal::arr(), at);
            for (c, at) in list.clone().unwrap_or_default() {
                d.push(&ptr, cap_name(&c), at);
            }
        }
    }

    // Compose's schema wants a string: a plain YAML boolean is refused
    // there (go-yaml v3 reads only `true`/`false` spellings as one), and
    // here rather than read as a user named `true`.
    if let Some(u) = svc.get("user") {
        let plain_bool = matches!(&u.value, SValue::Scalar(s) if !s.quoted
            && matches!(s.text.as_str(), "true" | "True" | "TRUE" | "false" | "False" | "FALSE"));
        if plain_bool {
            return Err(invalid(
                u.loc,
                format!("`services.{name}.user` must be a string, found a boolean"),
            ));
        }
    }
    match read::opt_str(svc, "user")? {
        Some((u, at)) => d.set("/boundary/user", u, at),
        None => d.undeclared(
            "/boundary/user",
            "no `user`: the image's USER applies (root unless the image says otherwise)",
        ),
    }

    Ok(privileged)
}

/// `security_opt` (no-new-privileges, seccomp, AppArmor, SELinux label,
/// systempaths) and `read_only`.
fn security_options(
    d: &mut Draft,
    svc: &SNode,
    key_loc: Loc,
    privileged: Option<(bool, Loc)>,
) -> Result<(), ImportError> {
    let is_privileged = privileged.is_some_and(|(p, _)| p);
    let mut nnp: Option<(bool, Loc)> = None;
    let mut seccomp: Option<(&str, Loc)> = None;
    for (opt, at) in read::opt_strs(svc, "security_opt", false)?.unwrap_or_default() {
        let (k, v) = match opt.split_once([':', '=']) {
            Some((k, v)) => (k.to_string(), v.to_string()),
            None => (opt.clone(), String::new()),
        };
        match k.as_str() {
            "no-new-privileges" => nnp = Some((v.is_empty() || v == "true", at)),
            "seccomp" => {
                seccomp = Some((
                    if v == "unconfined" {
                        "unconfined"
                    } else {
                        "custom"
                    },
                    at,
                ));
            }
            "apparmor" => d.set(
                "/boundary/apparmor",
                if v == "unconfined" {
                    "unconfined"
                } else {
                    "custom"
                },
                at,
            ),
            // `label=disable`, or a super-privileged type, leaves SELinux
            // nothing to enforce; other `label=` options pick a custom one.
            "label" => d.set(
                "/boundary/selinux",
                if v == "disable" || v.ends_with("spc_t") || v.ends_with("unconfined_t") {
                    "unconfined"
                } else {
                    "custom"
                },
                at,
            ),
            "systempaths" if v == "unconfined" => d.set("/boundary/masked_paths", false, at),
            _ => d.note(
                at,
                format!("security option `{opt}` has no profile equivalent"),
            ),
        }
    }
    match nnp {
        Some((b, at)) => d.set("/boundary/no_new_privileges", b, at),
        None => d.set("/boundary/no_new_privileges", false, key_loc),
    }
    match seccomp {
        Some((s, at)) => d.set("/boundary/seccomp", s, at),
        None if is_privileged => {
            let at = privileged.map_or(key_loc, |(_, l)| l);
            d.set("/boundary/seccomp", "unconfined", at);
            d.note(
                at,
                "privileged containers run without Docker's seccomp profile",
            );
        }
        None => d.set("/boundary/seccomp", "default", key_loc),
    }
    match read::opt_bool(svc, "read_only")? {
        Some((ro, at)) => d.set("/boundary/read_only_root", ro, at),
        None => d.set("/boundary/read_only_root", false, key_loc),
    }

    Ok(())
}

/// The host namespaces a service joins (`network_mode`, `pid`, `ipc`,
/// `uts`, `userns_mode`, followed through `service:NAME`), and the network
/// mode it ends at.
fn namespaces(
    d: &mut Draft,
    root: &SNode,
    extends: &mut extends::Extends<'_>,
    svc: &SNode,
    key_loc: Loc,
) -> Result<Option<(String, Loc)>, ImportError> {
    d.set("/boundary/host_namespaces", OVal::arr(), key_loc);
    // `service:NAME` joins that service's namespace: what counts is the
    // mode at the end of the chain (`host` there is the host's here).
    let network_mode = match read::opt_str(svc, "network_mode")? {
        Some((v, at)) => {
            // Only these two modes say what the joined stack reaches.
            let end = joined(d, extends, "network_mode", v, at)?;
            let v = if end == "host" || end == "none" {
                end
            } else {
                v.to_string()
            };
            Some((v, at))
        }
        None => None,
    };
    let network_mode = match network_mode {
        Some(m) => Some(m),
        None => engine_network(d, root, svc, key_loc)?,
    };
    if let Some(("host", at)) = network_mode.as_ref().map(|(v, at)| (v.as_str(), *at)) {
        d.push("/boundary/host_namespaces", "network", at);
    }
    for (key, ns) in [
        ("pid", "pid"),
        ("ipc", "ipc"),
        ("uts", "uts"),
        ("userns_mode", "user"),
    ] {
        if let Some((v, at)) = read::opt_str(svc, key)? {
            // The modes the engine accepts; it refuses any other value.
            let peer = v.starts_with("service:") || v.starts_with("container:");
            let known = match key {
                "pid" => v == "host" || peer,
                "ipc" => matches!(v, "host" | "none" | "private" | "shareable") || peer,
                "uts" => v == "host",
                _ => true,
            };
            if !known && !v.is_empty() {
                return Err(invalid(
                    at,
                    format!("`{key}` is not a mode the engine accepts (`host`, `service:NAME` or `container:NAME`)"),
                ));
            }
            if key == "userns_mode" && v != "host" {
                d.note(
                    at,
                    format!("`userns_mode: {v}` picks the user namespace; only `host` is mapped"),
                );
            }
            let end = if key == "pid" || key == "ipc" {
                joined(d, extends, key, v, at)?
            } else {
                v.to_string()
            };
            if end == "host" {
                d.push("/boundary/host_namespaces", ns, at);
            }
            if v == "host" {
                // Mapped above.
            } else if let Some(peer) = v
                .strip_prefix("service:")
                .or_else(|| v.strip_prefix("container:"))
                .filter(|_| key == "pid")
            {
                d.set("/boundary/shares_pid_with", OVal::arr(), at);
                d.push("/boundary/shares_pid_with", peer, at);
            } else if v.starts_with("service:") || v.starts_with("container:") {
                d.note(
                    at,
                    format!("`{key}: {v}` shares another container's namespace"),
                );
            }
        }
    }
    if svc.get("userns_mode").is_none() {
        d.note(key_loc, "the user namespace depends on the Docker daemon's `userns-remap` setting, which the Compose file does not show");
    }
    Ok(network_mode)
}

/// The mode a namespace setting ends at when it names another service
/// (`service:NAME`, followed through each service it names in turn), or
/// `v` itself. A chain that leaves the file (`container:NAME`) ends there;
/// a cycle is an error, as in Compose, and so is a `network_mode` naming a
/// service the file does not define.
fn joined(
    d: &mut Draft,
    extends: &mut extends::Extends<'_>,
    key: &str,
    v: &str,
    at: Loc,
) -> Result<String, ImportError> {
    let mut mode = v.to_string();
    let mut via: Vec<String> = Vec::new();
    while let Some(peer) = mode.strip_prefix("service:").map(str::to_string) {
        if via.contains(&peer) {
            return Err(invalid(
                at,
                format!("`{key}: {v}` comes back to service `{peer}`: a cycle, which Compose refuses too"),
            ));
        }
        let Some(set) = extends.setting(&peer, key)? else {
            // compose-go refuses an unknown service for `network_mode`;
            // for the others the namespace is simply not known here.
            let what =
                format!("`{key}: {v}` names service `{peer}`, which this file does not define");
            if key == "network_mode" {
                return Err(invalid(at, what));
            }
            d.note(at, what);
            return Ok(v.to_string());
        };
        via.push(peer);
        mode = match set {
            Some(n) => {
                let text = n.as_str().unwrap_or_default();
                let i = interpolate(text).map_err(|m| invalid(n.loc, m))?;
                if i.unresolved.is_empty() {
                    i.text
                } else {
                    widest(key, &i.text).unwrap_or(i.text)
                }
            }
            None => String::new(),
        };
    }
    if !via.is_empty() {
        let chain = via
            .iter()
            .map(|p| format!("`{p}`"))
            .collect::<Vec<_>>()
            .join(" then ");
        let end = match mode.as_str() {
            "" => "its own (not the host's)".to_string(),
            m => format!("`{m}`"),
        };
        d.note(
            at,
            format!("`{key}` joins the namespace of service {chain}, whose mode is {end}"),
        );
    }
    Ok(mode)
}

/// A top-level scalar (a network's `name`) as Compose reads it, after
/// interpolation (every template was checked by [`check_templates`]).
fn root_text(n: &SNode) -> Option<String> {
    let t = n.as_str()?;
    Some(interpolate(t).map_or_else(|_| t.to_string(), |i| i.text))
}

/// A top-level boolean (a network's `internal`, `external`) as compose-go
/// casts it after interpolation: `true`, `yes`, `on`, ... in any case.
fn root_bool(n: &SNode) -> Option<bool> {
    n.as_bool()
        .or_else(|| root_text(n).as_deref().and_then(compose_bool))
}

/// The networks a service joins (its `networks`, as a list or a map),
/// each with where it is named; `default` when it names none.
fn joined_networks(svc: &SNode, key_loc: Loc) -> Result<Vec<(String, Loc)>, ImportError> {
    Ok(match svc.get("networks") {
        Some(n) if n.is_seq() => read::texts(n.items(), "networks")?,
        Some(n) => n
            .entries()
            .iter()
            .map(|e| (e.key.clone(), e.key_loc))
            .collect(),
        None => vec![("default".to_string(), key_loc)],
    })
}

/// The engine's own `host` or `none` network joined by name, which is
/// what `network_mode: host` or `none` gives: docker/compose makes the
/// service's first network the container's network mode by its engine
/// name. A network's engine name is its `name`, else the legacy
/// `external.name`, else, for an external network, its key (a network
/// the file creates gets the project's prefix, so it is never `host`).
/// `host` wins over any other network joined beside it; `none` counts
/// only when every network joined is `none`.
fn engine_network(
    d: &mut Draft,
    root: &SNode,
    svc: &SNode,
    key_loc: Loc,
) -> Result<Option<(String, Loc)>, ImportError> {
    let joined = joined_networks(svc, key_loc)?;
    let defs = root.get("networks");
    let mut engine = Vec::new();
    for (key, at) in &joined {
        let Some(e) = defs.and_then(|n| n.entry(key)) else {
            engine.push((None, *at));
            continue;
        };
        let def = &e.value;
        let external = def.get("external");
        let legacy = external.and_then(|x| x.get("name"));
        let named = def
            .get("name")
            .filter(|n| !n.is_null())
            .or(legacy)
            .and_then(|n| root_text(n).map(|t| (t, n.loc)));
        let name = match named {
            Some(n) => Some(n),
            // A flag a variable decides counts as set: the wider reading.
            None if external.is_some_and(|x| x.is_map() || root_bool(x) != Some(false)) => {
                Some((key.clone(), e.key_loc))
            }
            None => None,
        };
        engine.push((name.map(|(n, l)| (key.clone(), n, l)), *at));
    }
    let found = |want: &str| {
        engine
            .iter()
            .filter_map(|(n, _)| n.as_ref())
            .find(|(_, name, _)| name == want)
            .cloned()
    };
    let every_none = !engine.is_empty()
        && engine
            .iter()
            .all(|(n, _)| n.as_ref().is_some_and(|(_, name, _)| name == "none"));
    let (mode, (key, _, at)) = if let Some(host) = found("host") {
        ("host", host)
    } else if every_none {
        match found("none") {
            Some(none) => ("none", none),
            None => return Ok(None),
        }
    } else {
        return Ok(None);
    };
    let what = if mode == "host" {
        "the container shares the host's network stack"
    } else {
        "the container has only loopback"
    };
    d.note(
        at,
        format!("network `{key}` is the engine's `{mode}` network: {what}, as with `network_mode: {mode}`"),
    );
    Ok(Some((mode.to_string(), at)))
}

fn network(
    d: &mut Draft,
    root: &SNode,
    svc: &SNode,
    key_loc: Loc,
    mode: Option<(&str, Loc)>,
) -> Result<(), ImportError> {
    match mode {
        Some(("host", at)) => {
            d.set("/network/egress", "allow-all", at);
            d.set("/network/enforced_by", "none", at);
        }
        Some(("none", at)) => {
            d.set("/network/egress", "deny", at);
            d.set("/network/enforced_by", "firewall", at);
            d.set("/network/allow", OVal::arr(), at);
            d.note(at, "`network_mode: none` leaves only loopback; mapped as egress denied at the kernel (firewall)");
        }
        // Docker's default network: outbound traffic to anywhere.
        Some(("bridge" | "default", at)) => {
            d.set("/network/egress", "allow-all", at);
            d.set("/network/enforced_by", "none", at);
            d.note(
                at,
                "`bridge` is Docker's default network, which allows outbound traffic to anywhere",
            );
        }
        Some((other, at)) => {
            d.note(at, format!("`network_mode: {other}` shares another network stack; its egress is not in this service"));
            d.undeclared(
                "/network",
                "the service uses another container's or a custom network stack",
            );
        }
        None => {
            // Networks the service joins; all `internal: true` means no way out.
            let names = joined_networks(svc, key_loc)?;
            let defs = root.get("networks");
            let internal = |n: &str| {
                defs.and_then(|d| d.get(n))
                    .and_then(|d| d.get("internal"))
                    .and_then(root_bool)
                    .unwrap_or(false)
            };
            let at = names.first().map_or(key_loc, |(_, l)| *l);
            if !names.is_empty() && names.iter().all(|(n, _)| internal(n)) {
                d.set("/network/egress", "deny", at);
                d.set("/network/enforced_by", "firewall", at);
                d.set("/network/allow", OVal::arr(), at);
                d.note(at, "only `internal` networks: no route out, but containers on the same network stay reachable");
            } else {
                d.set("/network/egress", "allow-all", at);
                d.set("/network/enforced_by", "none", at);
                d.note(
                    at,
                    "Docker networks allow outbound traffic to anywhere unless marked `internal`",
                );
            }
        }
    }
    Ok(())
}

fn host_source(d: &mut Draft, raw: &str, at: Loc) -> String {
    if let Some(expanded) = expand_home(raw) {
        // compose-go joins the rest to the home directory lexically.
        let rest = expanded.get(super::HOME_PLACEHOLDER.len()..).unwrap_or("");
        let expanded = match join_lexically(rest.trim_start_matches('/')) {
            (clean, 0) if clean.is_empty() => super::HOME_PLACEHOLDER.to_string(),
            (clean, 0) => format!("{}/{clean}", super::HOME_PLACEHOLDER),
            // Above the home: where that is depends on the home's depth.
            _ => expanded,
        };
        d.note(
            at,
            format!(
                "`{raw}` is in the home directory of whoever runs Compose; shown as `{expanded}`"
            ),
        );
        return expanded;
    }
    let absolute =
        raw.starts_with(['/', '$', '\\']) || raw.len() > 1 && raw.as_bytes().get(1) == Some(&b':');
    if absolute {
        return raw.to_string();
    }
    // compose-go joins a relative source to the project directory (the
    // Compose file's) with `filepath.Join`, which resolves `..` lexically
    // before Docker sees the path: that lexical result is what is mounted.
    let (clean, climbs) = join_lexically(raw);
    let shown = if climbs == 0 {
        if clean.is_empty() {
            ".".to_string()
        } else {
            format!("./{clean}")
        }
    } else {
        clean
    };
    if climbs > 0 {
        d.note(at, format!("`{raw}` is relative to the Compose file's directory and climbs {climbs} level(s) above it (Compose resolves `..` lexically, giving `{shown}` there): what it names depends on where that directory is, which the file does not fix"));
    } else if shown == raw {
        d.note(at, format!("`{raw}` is relative to the Compose file's directory, which the import cannot resolve"));
    } else {
        d.note(at, format!("`{raw}` is relative to the Compose file's directory, which the import cannot resolve; Compose resolves it lexically there, as `{shown}`"));
    }
    shown
}

/// A relative path as Go's `filepath.Join(base, path)` resolves it when
/// `base` is unknown: `.` and empty parts dropped, each `..` removing the
/// part before it; the `..` that climb above `base` are kept in front and
/// counted.
pub(super) fn join_lexically(rel: &str) -> (String, usize) {
    let mut parts: Vec<&str> = Vec::new();
    let mut climbs = 0;
    for part in rel.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                if parts.pop().is_none() {
                    climbs += 1;
                }
            }
            p => parts.push(p),
        }
    }
    let mut out: Vec<&str> = vec![".."; climbs];
    out.extend(parts);
    (out.join("/"), climbs)
}

fn add_mount(
    d: &mut Draft,
    anchor: Loc,
    source: (String, Loc),
    target: (&str, Loc),
    access: (&str, Loc),
) {
    let p = d.push("/mounts", OVal::obj(), anchor);
    d.set_field(&p, "source", source.0, source.1);
    d.set_field(&p, "target", target.0, target.1);
    d.set_field(&p, "access", access.0, access.1);
}

/// A named volume bound to a host directory through the local driver:
/// its interpolated device path and where the device is written.
fn named_volume_device(
    d: &mut Draft,
    defs: &Defs<'_>,
    name: &str,
) -> Result<Option<(String, Loc)>, ImportError> {
    let Some(&def) = defs.volumes.get(name) else {
        return Ok(None);
    };
    let Some(opts) = def.get("driver_opts") else {
        return Ok(None);
    };
    let o = opts.get("o").and_then(SNode::as_str).unwrap_or("");
    if !o.split(',').any(|x| x == "bind" || x == "rbind") {
        // Other options mount storage of their own (NFS, a block device):
        // not a host directory, but not Docker's plain volume either.
        d.note(
            opts.loc,
            format!("named volume `{name}` is mounted with driver options (`type`, `o`, `device`) that are not a bind; the storage they name is not audited"),
        );
        return Ok(None);
    }
    let Some(dev) = opts.get("device") else {
        return Ok(None);
    };
    let Some(raw) = dev.as_str() else {
        return Ok(None);
    };
    let i = interpolate(raw).map_err(|m| invalid(dev.loc, m))?;
    note_interpolation(d, dev.loc, "the volume device", raw, &i);
    Ok(Some((i.text, dev.loc)))
}

/// An interpolated string under `key` of a long-syntax volume.
fn long_str(d: &mut Draft, v: &SNode, key: &str) -> Result<Option<(String, Loc)>, ImportError> {
    match read::opt_str(v, key)? {
        Some((raw, at)) => {
            let i = interpolate(raw).map_err(|m| invalid(at, m))?;
            note_interpolation(d, at, &format!("`{key}`"), raw, &i);
            Ok(Some((i.text, at)))
        }
        None => Ok(None),
    }
}

fn short_volume(d: &mut Draft, defs: &Defs<'_>, v: &SNode, raw: &str) -> Result<(), ImportError> {
    let interp = interpolate(raw).map_err(|m| invalid(v.loc, m))?;
    note_interpolation(d, v.loc, "volume", raw, &interp);
    let spec = parse_short_volume(&interp.text)
        .map_err(|m| invalid(v.loc, format!("invalid volume: {m}")))?;
    let ShortVolume {
        source: src,
        target: dst,
        options,
    } = &spec;
    if src.is_empty() {
        d.note(
            v.loc,
            format!("anonymous volume at `{dst}` is managed by Docker, not a host path"),
        );
        return Ok(());
    }
    // Positions inside the scalar hold only when interpolation changed nothing.
    let (src_at, dst_at, mode_at) = if interp.is_exact() {
        let s = src.chars().count();
        let t = dst.chars().count();
        (inside(v, 0), inside(v, s + 1), inside(v, s + t + 2))
    } else {
        (v.loc, v.loc, v.loc)
    };
    let mut access = ("read-write", v.loc);
    for o in options {
        match o.as_str() {
            "ro" => access = ("read-only", mode_at),
            "rw" => access = ("read-write", mode_at),
            "nocopy" => {}
            "z" | "Z" => d.note(
                mode_at,
                format!("`:{o}` makes Docker relabel the host files under `{src}` for SELinux"),
            ),
            p => match propagation_note(p) {
                Some(why) => d.note(mode_at, format!("propagation `{p}` on `{dst}`: {why}")),
                None if matches!(p, "private" | "rprivate") => {}
                None => d.note(
                    mode_at,
                    format!("volume option `{p}` is unknown; Compose ignores it"),
                ),
            },
        }
    }
    if is_host_path(src) {
        let source = host_source(d, src, src_at);
        add_mount(d, v.loc, (source, src_at), (dst, dst_at), access);
    } else if let Some((dev, dev_at)) = named_volume_device(d, defs, src)? {
        d.note(
            src_at,
            format!("named volume `{src}` binds host directory `{dev}`"),
        );
        let source = host_source(d, &dev, dev_at);
        add_mount(d, v.loc, (source, dev_at), (dst, dst_at), access);
    } else {
        kept_volume(d, defs, (src, src_at), (dst, dst_at), access, v.loc);
    }
    Ok(())
}

/// A named volume that is not a bind of a host directory: Docker keeps it
/// after the job (`docker compose down` leaves it unless `-v`; an
/// `external` one is never Compose's to remove), and other runs mount what
/// the job left there. Writable, it is a mount at the local driver's
/// place for it, under the engine's data; read-only, a note.
fn kept_volume(
    d: &mut Draft,
    defs: &Defs<'_>,
    (src, src_at): (&str, Loc),
    (dst, dst_at): (&str, Loc),
    access: (&str, Loc),
    anchor: Loc,
) {
    if access.0 != "read-write" {
        d.note(
            src_at,
            format!("named volume `{src}` at `{dst}` is managed by Docker, mounted read-only"),
        );
        return;
    }
    let def = defs.volumes.get(src).copied();
    let external = def
        .and_then(|x| x.get("external"))
        .is_some_and(|e| e.is_map() || root_bool(e) == Some(true));
    let name = def
        .and_then(|x| x.get("name"))
        .and_then(root_text)
        .or_else(|| {
            def.and_then(|x| x.get("external"))
                .and_then(|e| e.get("name"))
                .and_then(root_text)
        });
    let engine_name = match (name, external) {
        (Some(n), _) => n,
        (None, true) => src.to_string(),
        (None, false) => format!("<project>_{src}"),
    };
    let why = if external {
        "made outside the project (`external`), so Compose never removes it"
    } else {
        "kept by Docker after the job (`docker compose down` leaves it unless `-v`)"
    };
    d.note(
        src_at,
        format!("named volume `{src}` is {why}, and the job can write it at `{dst}`: later runs and other services mount what it leaves there; audited at the local driver's place for it"),
    );
    add_mount(
        d,
        anchor,
        (
            format!("/var/lib/docker/volumes/{engine_name}/_data"),
            src_at,
        ),
        (dst, dst_at),
        access,
    );
}

fn long_volume(d: &mut Draft, defs: &Defs<'_>, v: &SNode) -> Result<(), ImportError> {
    let kind = read::opt_str(v, "type")?.map_or("volume", |(t, _)| t);
    let (dst, dst_at) =
        long_str(d, v, "target")?.ok_or_else(|| invalid(v.loc, "a volume needs a `target`"))?;
    let src = long_str(d, v, "source")?;
    let access = match read::opt_bool(v, "read_only")? {
        Some((true, at)) => ("read-only", at),
        Some((false, at)) => ("read-write", at),
        None => ("read-write", v.loc),
    };
    if let Some(b) = read::opt_map(v, "bind")? {
        if let Some((p, at)) = read::opt_str(b, "propagation")? {
            if let Some(why) = propagation_note(p) {
                d.note(at, format!("propagation `{p}` on `{dst}`: {why}"));
            }
        }
        if let Some((s, at)) = read::opt_str(b, "selinux")? {
            d.note(
                at,
                format!("`selinux: {s}` makes Docker relabel the host files it binds"),
            );
        }
        if let Some((r, at)) = read::opt_str(b, "recursive")? {
            if r == "writable" || r == "disabled" {
                d.note(
                    at,
                    format!(
                        "`recursive: {r}`: mounts below the source are not made read-only with it"
                    ),
                );
            }
        }
    }
    match (kind, src) {
        ("bind", Some((s, s_at))) => {
            let source = host_source(d, &s, s_at);
            add_mount(d, v.loc, (source, s_at), (&dst, dst_at), access);
        }
        ("bind", None) => return Err(invalid(v.loc, "a bind mount needs a `source`")),
        ("volume", Some((s, s_at))) => match named_volume_device(d, defs, &s)? {
            Some((dev, dev_at)) => {
                d.note(
                    s_at,
                    format!("named volume `{s}` binds host directory `{dev}`"),
                );
                let source = host_source(d, &dev, dev_at);
                add_mount(d, v.loc, (source, dev_at), (&dst, dst_at), access);
            }
            None => kept_volume(d, defs, (&s, s_at), (&dst, dst_at), access, v.loc),
        },
        ("volume", None) => d.note(
            v.loc,
            format!("anonymous volume at `{dst}` is managed by Docker, not a host path"),
        ),
        ("tmpfs", _) => d.note(
            v.loc,
            format!("tmpfs at `{dst}` is private scratch memory, not a host path"),
        ),
        // A host pipe is a host path the job can talk through: audited as a
        // mount (an engine's pipe is its socket), not only noted.
        ("npipe", Some((s, s_at))) => {
            d.note(
                v.loc,
                format!("named pipe `{s}` of the Windows host is bound at `{dst}`"),
            );
            add_mount(d, v.loc, (s, s_at), (&dst, dst_at), access);
        }
        ("npipe", None) => return Err(invalid(v.loc, "a named pipe needs a `source`")),
        (k, _) => d.note(v.loc, format!("`{k}` mount at `{dst}` is not a host path")),
    }
    Ok(())
}

fn mounts(
    d: &mut Draft,
    defs: &Defs<'_>,
    extends: &mut extends::Extends<'_>,
    svc: &SNode,
    key_loc: Loc,
) -> Result<(), ImportError> {
    d.ensure_array("/mounts", svc.get("volumes").map_or(key_loc, |v| v.loc));
    volumes(d, defs, svc.get("volumes"))?;
    let mut seen = Vec::new();
    volumes_from(d, defs, extends, svc.get("volumes_from"), &mut seen)?;
    bound_files(d, defs, svc, "secrets")?;
    bound_files(d, defs, svc, "configs")?;
    if let Some(e) = written(svc, "tmpfs") {
        d.note(
            e.key_loc,
            "tmpfs mounts are private scratch, not host paths",
        );
    }
    if let Some((true, at)) = read::opt_bool(svc, "use_api_socket")? {
        add_mount(
            d,
            at,
            ("/var/run/docker.sock".to_string(), at),
            ("/var/run/docker.sock", at),
            ("read-write", at),
        );
    }
    Ok(())
}

fn volumes(d: &mut Draft, defs: &Defs<'_>, list: Option<&SNode>) -> Result<(), ImportError> {
    let Some(list) = list else {
        return Ok(());
    };
    for v in read::seq(list, "volumes")? {
        match &v.value {
            SValue::Scalar(s) => short_volume(d, defs, v, &s.text)?,
            SValue::Map(_) => long_volume(d, defs, v)?,
            _ => return Err(invalid(v.loc, "a volume must be a string or a mapping")),
        }
    }
    Ok(())
}

/// `volumes_from`: every mount of another service, at the same targets
/// (read-only with `:ro`), its own `volumes_from` included. A container
/// outside the file (`container:NAME`), or a service named by a variable
/// with no value, mounts what the import cannot see: an error, since no
/// finding could say which paths the job reaches.
fn volumes_from(
    d: &mut Draft,
    defs: &Defs<'_>,
    extends: &mut extends::Extends<'_>,
    list: Option<&SNode>,
    seen: &mut Vec<String>,
) -> Result<(), ImportError> {
    let Some(list) = list else {
        return Ok(());
    };
    for (item, at) in read::texts(read::seq(list, "volumes_from")?, "volumes_from")? {
        let i = interpolate(&item).map_err(|m| invalid(at, m))?;
        let (name, mode) = match i.text.strip_prefix("container:") {
            Some(c) => {
                let c = match c.rsplit_once(':') {
                    Some((n, "ro" | "rw")) => n,
                    _ => c,
                };
                return Err(invalid(
                    at,
                    format!("`volumes_from: {item}` mounts every volume of container `{c}`, which is outside this file: what they hold cannot be audited; name a service of this file, or mount the paths with `volumes`"),
                ));
            }
            None => {
                let t = i.text.strip_prefix("service:").unwrap_or(&i.text);
                match t.rsplit_once(':') {
                    Some((n, m @ ("ro" | "rw"))) => (n.to_string(), m),
                    _ => (t.to_string(), "rw"),
                }
            }
        };
        if let Some(var) = i.unresolved.first() {
            return Err(invalid(
                at,
                format!("`volumes_from: {item}` names a service by `{var}`, a variable with no value in the file, so the volumes it mounts cannot be known"),
            ));
        }
        if seen.contains(&name) {
            continue;
        }
        seen.push(name.clone());
        let Some(peer_volumes) = extends.setting(&name, "volumes")? else {
            return Err(invalid(
                at,
                format!("`volumes_from` names service `{name}`, which this file does not define"),
            ));
        };
        let before = match d.get("/mounts") {
            Some(OVal::Arr(a)) => a.len(),
            _ => 0,
        };
        volumes(d, defs, peer_volumes.as_ref())?;
        let peer_from = extends.setting(&name, "volumes_from")?.flatten();
        volumes_from(d, defs, extends, peer_from.as_ref(), seen)?;
        let after = match d.get("/mounts") {
            Some(OVal::Arr(a)) => a.len(),
            _ => 0,
        };
        let what = if after > before {
            ""
        } else {
            " (none of them a host path)"
        };
        d.note(
            at,
            format!("`volumes_from: {item}` mounts the volumes of service `{name}` here{what}"),
        );
        if mode == "ro" {
            for k in before..after {
                d.set(&format!("/mounts/{k}/access"), "read-only", at);
            }
        }
    }
    Ok(())
}

/// A service's `secrets` or `configs` (`key`): Docker Compose bind-mounts
/// each one defined by a host `file` into the container, read-only, at its
/// `target` or under `/run/secrets/` (secrets) or `/` (configs) by its
/// name; one from `environment` or `content` is copied in, and a target
/// a volume already mounts is left to the volume (docker/compose
/// `pkg/compose/create.go`, `buildContainerSecretMounts` and
/// `buildContainerConfigMounts`). A config the file does not define is an
/// error, as in compose-go.
fn bound_files(d: &mut Draft, defs: &Defs<'_>, svc: &SNode, key: &str) -> Result<(), ImportError> {
    let (what, base, defined) = match key {
        "secrets" => ("secret", "/run/secrets/", &defs.secrets),
        _ => ("config", "/", &defs.configs),
    };
    let Some(list) = read::opt_seq(svc, key)? else {
        return Ok(());
    };
    // The targets mounted so far, gathered once (a scan per entry was
    // quadratic in a service with thousands of volumes and secrets).
    let mut taken: std::collections::HashSet<String> = match d.get("/mounts") {
        Some(OVal::Arr(a)) => a
            .iter()
            .filter_map(|m| match m {
                OVal::Obj(o) => match o.get("target") {
                    Some(OVal::Str(t)) => Some(t.clone()),
                    _ => None,
                },
                _ => None,
            })
            .collect(),
        _ => Default::default(),
    };
    for s in list {
        let (name, name_at) = match &s.value {
            SValue::Scalar(x) => (x.text.clone(), s.loc),
            SValue::Map(_) => match read::opt_str(s, "source")? {
                Some((n, at)) => (n.to_string(), at),
                None => return Err(invalid(s.loc, format!("a {what} needs a `source`"))),
            },
            _ => {
                return Err(invalid(
                    s.loc,
                    format!("a {what} must be a name or a mapping"),
                ))
            }
        };
        let (target, target_at) = match s.get("target").filter(|t| !t.is_null()) {
            Some(t) => {
                let raw = read::text(t, "target")?;
                let absolute = raw.starts_with('/')
                    || raw.starts_with("\\\\")
                    || (raw.len() > 2
                        && raw.as_bytes().get(1) == Some(&b':')
                        && raw.as_bytes().get(2) == Some(&b'\\'));
                let t_text = if absolute {
                    raw.to_string()
                } else {
                    format!("{base}{raw}")
                };
                (t_text, t.loc)
            }
            None => (format!("{base}{name}"), name_at),
        };
        let Some(&def) = defined.get(name.as_str()) else {
            if key == "configs" {
                return Err(invalid(
                    name_at,
                    format!("the service uses config `{name}`, which this file does not define (Compose refuses it too)"),
                ));
            }
            d.note(
                name_at,
                format!("secret `{name}` is mounted at `{target}`; the file does not define it"),
            );
            continue;
        };
        if let Some(f) = def.get("file").filter(|f| !f.is_null()) {
            let raw = read::text(f, "file")?;
            let i = interpolate(raw).map_err(|m| invalid(f.loc, m))?;
            note_interpolation(d, f.loc, &format!("the {what}'s `file`"), raw, &i);
            d.note(
                name_at,
                format!(
                    "{what} `{name}` is mounted from host file `{}` at `{target}`",
                    i.text
                ),
            );
            if taken.contains(&target) {
                d.note(
                    name_at,
                    format!("a volume is already mounted at `{target}`, so Compose does not mount {what} `{name}` there"),
                );
                continue;
            }
            let source = host_source(d, &i.text, f.loc);
            taken.insert(target.clone());
            add_mount(
                d,
                s.loc,
                (source, f.loc),
                (&target, target_at),
                ("read-only", s.loc),
            );
        } else if let Some((var, _)) = read::opt_str(def, "environment")? {
            d.note(
                name_at,
                format!("{what} `{name}` is written into the container at `{target}` from the variable `{var}`"),
            );
        } else if def.get("content").is_some_and(|c| !c.is_null()) {
            d.note(
                name_at,
                format!("{what} `{name}` is written into the container at `{target}` from the Compose file"),
            );
        } else if def.get("external").is_some_and(|e| !e.is_null()) {
            d.note(
                name_at,
                format!("{what} `{name}` is made outside the file (`external`); what it holds is not audited, and it appears at `{target}`"),
            );
        } else {
            d.note(
                name_at,
                format!("{what} `{name}` names no `file`, `environment` or `content`; what appears at `{target}` is not known"),
            );
        }
    }
    Ok(())
}

fn credential(d: &mut Draft, name: &str, source: &str, at: Loc) {
    let p = d.push("/credentials", OVal::obj(), at);
    d.set_field(&p, "name", name, at);
    d.set_field(&p, "source", source, at);
    d.set_field(&p, "exposed_to", "job", at);
}

fn environment(
    d: &mut Draft,
    (defs, cx, unread): ServiceCx<'_, '_>,
    svc: &SNode,
    key_loc: Loc,
) -> Result<(), ImportError> {
    let env_loc = svc.get("environment").map_or(key_loc, |e| e.loc);
    d.set("/environment/inherit", false, env_loc);
    d.set("/environment/variables", OVal::obj(), env_loc);
    // `env_file` first: `environment` wins over it, as in Compose.
    if let Some(e) = written(svc, "env_file") {
        env_files(d, cx, e, unread)?;
    }
    // compose-go interpolates each value (each whole `KEY=value` item of a
    // list) before the environment is read.
    let mut pairs: Vec<(String, Option<String>, Loc)> = Vec::new();
    match svc.get("environment") {
        None => {}
        Some(e) if e.is_seq() => {
            for item in e.items() {
                let raw = read::text(item, "environment")?;
                let i = interpolate(raw).map_err(|m| invalid(item.loc, m))?;
                note_interpolation(d, item.loc, "`environment`", raw, &i);
                match i.text.split_once('=') {
                    Some((k, v)) => pairs.push((k.to_string(), Some(v.to_string()), item.loc)),
                    None => pairs.push((i.text.clone(), None, item.loc)),
                }
            }
        }
        Some(e) if e.is_map() => {
            for entry in e.entries() {
                let v = match &entry.value.value {
                    SValue::Null => None,
                    _ => {
                        let raw = read::text(&entry.value, &entry.key)?;
                        let i = interpolate(raw).map_err(|m| invalid(entry.value.loc, m))?;
                        note_interpolation(
                            d,
                            entry.value.loc,
                            &format!("`{}`", entry.key),
                            raw,
                            &i,
                        );
                        Some(i.text)
                    }
                };
                let at = if v.is_some() {
                    entry.value.loc
                } else {
                    entry.key_loc
                };
                pairs.push((entry.key.clone(), v, at));
            }
        }
        Some(e) => return Err(invalid(e.loc, "`environment` must be a list or a mapping")),
    }
    for (k, v, at) in pairs {
        match v {
            Some(v) => d.set(&Draft::variable_ptr(&k), v, at),
            None => {
                d.set(&Draft::variable_ptr(&k), format!("${{{k}}}"), at);
                d.note(
                    at,
                    format!(
                        "`{k}` is passed through from the environment `docker compose` runs in"
                    ),
                );
                if is_secret_name(&k) {
                    credential(d, &k, "env", at);
                }
            }
        }
    }
    for s in read::opt_seq(svc, "secrets")?.unwrap_or_default() {
        let (name, at) = match &s.value {
            SValue::Scalar(x) => (x.text.clone(), s.loc),
            SValue::Map(_) => match read::opt_str(s, "source")? {
                Some((n, at)) => (n.to_string(), at),
                None => return Err(invalid(s.loc, "a secret needs a `source`")),
            },
            _ => return Err(invalid(s.loc, "a secret must be a name or a mapping")),
        };
        let def = defs.secrets.get(name.as_str()).copied();
        let kind = if def.is_some_and(|x| x.get("environment").is_some()) {
            "env"
        } else if def.is_some_and(|x| x.get("external").is_some()) {
            "static"
        } else {
            "file"
        };
        credential(d, &name, kind, at);
    }
    Ok(())
}

/// A service's `env_file` entries (a path, a list of paths, or of
/// `{path, required, format}`), read in order into one set of variables
/// as compose-go's `GetEnvFromFile` reads them: each file sees the
/// project environment and the keys of the files before it. A required
/// file that does not exist is refused, as Compose refuses it; one that
/// cannot be read here is unread context.
fn env_files(
    d: &mut Draft,
    cx: &ComposeContext<'_>,
    e: &super::tree::SEntry,
    unread: &mut Vec<(Loc, String)>,
) -> Result<(), ImportError> {
    let items: Vec<&SNode> = match &e.value.value {
        SValue::Seq(items) => items.iter().collect(),
        _ => vec![&e.value],
    };
    let mut vars = dotenv::EnvFile::default();
    let mut from: Vec<(String, String, Loc)> = Vec::new();
    for item in items {
        let (path_node, required, format) = match &item.value {
            SValue::Scalar(_) => (item, true, None),
            SValue::Map(_) => {
                let p = item
                    .get("path")
                    .ok_or_else(|| invalid(item.loc, "an `env_file` entry needs a `path`"))?;
                let required = match item.get("required") {
                    None => true,
                    Some(r) => match r.as_str().and_then(compose_bool) {
                        Some(b) => b,
                        None => return Err(invalid(r.loc, "`required` must be a boolean")),
                    },
                };
                (p, required, read::opt_str(item, "format")?)
            }
            _ => {
                return Err(invalid(
                    item.loc,
                    "an `env_file` entry must be a path or a mapping",
                ))
            }
        };
        let raw = read::text(path_node, "env_file")?;
        let at = path_node.loc;
        let i = interpolate(raw).map_err(|m| invalid(at, m))?;
        if let Some(var) = i.unresolved.iter().find(|v| *v != "HOME") {
            cx.unread(
                at,
                format!("`env_file: {raw}` names its file with `{var}`, which has no value here, so which file Compose reads cannot be known"),
                unread,
            )?;
            continue;
        }
        if let Some((f, f_at)) = format.filter(|(f, _)| !f.is_empty()) {
            cx.unread(
                f_at,
                format!(
                    "`env_file: {raw}` is read with format `{f}`, which this import does not read"
                ),
                unread,
            )?;
            continue;
        }
        let path = i.text;
        match (cx.resolve)(&path) {
            Companion::Read(bytes) => {
                let text = std::str::from_utf8(&bytes)
                    .map_err(|_| invalid(at, format!("env file `{path}` is not UTF-8 text")))?;
                let before: Vec<String> = vars.vars.iter().map(|(k, _)| k.clone()).collect();
                dotenv::parse_into(
                    text,
                    &|k| context::project_var(k).map_or(Var::Unknown, Var::Set),
                    &mut vars,
                )
                .map_err(|m| invalid(at, format!("env file `{path}`: {m}, as Compose refuses it")))?;
                let names: Vec<&str> = vars
                    .vars
                    .iter()
                    .map(|(k, _)| k.as_str())
                    .filter(|k| !before.iter().any(|b| b == k))
                    .collect();
                d.note(
                    at,
                    format!(
                        "`env_file: {path}` sets {} variable(s) in the container: {}",
                        names.len(),
                        names.join(", ")
                    ),
                );
                for (k, _) in &vars.vars {
                    if let Some(slot) = from.iter_mut().find(|(n, ..)| n == k) {
                        if !before.contains(k) {
                            slot.1.clone_from(&path);
                            slot.2 = at;
                        }
                    } else {
                        from.push((k.clone(), path.clone(), at));
                    }
                }
            }
            Companion::Absent if !required => d.note(
                at,
                format!("`env_file: {path}` is not there and not required: Compose skips it"),
            ),
            Companion::Absent => {
                return Err(invalid(
                    at,
                    format!("env file `{path}` does not exist: Compose refuses to start the service without it (mark it `required: false` if it is optional)"),
                ))
            }
            Companion::Unreadable(why) => cx.unread(
                at,
                format!("`env_file: {path}` sets the container's variables, and cannot be read: {why}"),
                unread,
            )?,
        }
    }
    for (k, v) in vars.vars {
        let at = from
            .iter()
            .find(|(n, ..)| *n == k)
            .map_or(e.key_loc, |(_, _, at)| *at);
        d.set(&Draft::variable_ptr(&k), v, at);
        if is_secret_name(&k) {
            credential(d, &k, "env", at);
        }
    }
    Ok(())
}

fn command(d: &mut Draft, svc: &SNode, key_loc: Loc) -> Result<(), ImportError> {
    let entry = svc
        .get("entrypoint")
        .map(|n| words(d, n, "entrypoint", false))
        .transpose()?;
    let cmd = svc
        .get("command")
        .map(|n| words(d, n, "command", false))
        .transpose()?;
    d.ensure_array("/setup", key_loc);
    match (&entry, &cmd) {
        (None, None) => d.undeclared(
            "/command",
            "no `command` or `entrypoint`: the image's ENTRYPOINT and CMD run, and the file does not show them",
        ),
        _ => {
            let anchor = svc.get("entrypoint").or_else(|| svc.get("command")).map_or(key_loc, |n| n.loc);
            d.map("/command", anchor);
            let mut all = entry.clone().unwrap_or_default();
            all.extend(cmd.clone().unwrap_or_default());
            d.set_command("/command", all, anchor);
            if entry.is_none() {
                d.note(anchor, "if the image defines an ENTRYPOINT, `command` becomes its arguments");
            }
        }
    }
    if let Some(hc) = read::opt_map(svc, "healthcheck")? {
        if let Some(test) = hc.get("test") {
            // compose-go: a string is `CMD-SHELL` with that text; a list
            // must start with `CMD`, `CMD-SHELL` or `NONE`.
            let w = match &test.value {
                SValue::Scalar(s) => {
                    let i = interpolate(&s.text).map_err(|m| invalid(test.loc, m))?;
                    note_interpolation(d, test.loc, "`healthcheck.test`", &s.text, &i);
                    vec![("CMD-SHELL".to_string(), test.loc), (i.text, test.loc)]
                }
                _ => words(d, test, "healthcheck.test", false)?,
            };
            let mut it = w.into_iter();
            match it.next() {
                Some((k, _)) if k == "NONE" => {}
                Some((k, at)) if k == "CMD-SHELL" => {
                    let text: Vec<String> = it.map(|(t, _)| t).collect();
                    let p = d.push("/setup", OVal::obj(), test.loc);
                    d.set_field(&p, "shell", text.join(" "), at);
                    d.note(test.loc, "the healthcheck runs shell text in the container; it is audited as a setup step");
                }
                Some((k, _)) if k == "CMD" => {
                    let words: Vec<(String, Loc)> = it.collect();
                    if words.is_empty() {
                        return Ok(());
                    }
                    let p = d.push("/setup", OVal::obj(), test.loc);
                    d.set_command(&p, words, test.loc);
                    d.note(test.loc, "the healthcheck runs a command in the container; it is audited as a setup step");
                }
                Some(_) => {
                    return Err(invalid(
                        test.loc,
                        "`healthcheck.test` must start with `CMD`, `CMD-SHELL` or `NONE`: Compose refuses any other first word",
                    ))
                }
                None => {}
            }
        }
    }
    Ok(())
}

/// The kernel's own walls (rules/kernel.rs): the terminal, devices, the
/// cgroup namespace, the working directory, kernel parameters, the OOM killer.
fn kernel(d: &mut Draft, svc: &SNode) -> Result<(), ImportError> {
    if let Some(("host", at)) = read::opt_str(svc, "cgroup")? {
        if !d.has("/boundary/host_namespaces") {
            d.set("/boundary/host_namespaces", OVal::arr(), at);
        }
        d.push("/boundary/host_namespaces", "cgroup", at);
    }
    if let Some((cwd, at)) = read::opt_str(svc, "working_dir")? {
        super::working_dir(d, cwd, at, "working_dir");
    }
    if let Some(s) = svc.get("sysctls") {
        d.set("/boundary/sysctls", OVal::obj(), s.loc);
        let mut pairs: Vec<(String, String, Loc)> = Vec::new();
        if s.is_seq() {
            for item in s.items() {
                let t = read::text(item, "sysctls")?;
                let (k, v) = t.split_once('=').unwrap_or((t, ""));
                pairs.push((k.trim().to_string(), v.trim().to_string(), item.loc));
            }
        } else {
            for e in s.entries() {
                let v = read::text(&e.value, &e.key)?;
                pairs.push((e.key.clone(), v.to_string(), e.value.loc));
            }
        }
        for (k, v, at) in pairs {
            d.set(
                &format!("/boundary/sysctls/{}", crate::json::escape_token(&k)),
                v,
                at,
            );
        }
    }
    // `extra_hosts`: `NAME:IP`, `NAME=IP` or a mapping; IPv6 addresses
    // keep their colons.
    if let Some(h) = svc.get("extra_hosts") {
        d.set("/network/hosts", OVal::obj(), h.loc);
        let mut pairs: Vec<(String, String, Loc)> = Vec::new();
        if h.is_seq() {
            for item in h.items() {
                let t = read::text(item, "extra_hosts")?;
                let (k, v) = t
                    .split_once('=')
                    .or_else(|| t.split_once(':'))
                    .unwrap_or((t, ""));
                pairs.push((
                    k.trim().to_string(),
                    v.trim().trim_matches(['[', ']']).to_string(),
                    item.loc,
                ));
            }
        } else {
            for e in h.entries() {
                let v = read::text(&e.value, &e.key)?;
                pairs.push((e.key.clone(), v.to_string(), e.value.loc));
            }
        }
        for (k, v, at) in pairs {
            d.set(
                &format!("/network/hosts/{}", crate::json::escape_token(&k)),
                v,
                at,
            );
        }
    }
    if let Some(servers) = read::opt_strs(svc, "dns", true)? {
        let at = svc.get("dns").map_or(svc.loc, |n| n.loc);
        d.set_list("/network/resolvers", at, servers);
    }
    if let Some(groups) = read::opt_strs(svc, "group_add", false)? {
        let at = svc.get("group_add").map_or(svc.loc, |n| n.loc);
        d.set_list("/boundary/groups", at, groups);
    }
    if let Some(n) = svc.get("oom_score_adj") {
        let v = n
            .as_i64()
            .ok_or_else(|| invalid(n.loc, "`oom_score_adj` must be a whole number"))?;
        d.set("/boundary/oom_score_adj", v, n.loc);
    }
    if let Some((b, at)) = read::opt_bool(svc, "oom_kill_disable")? {
        d.set("/boundary/oom_kill_disable", b, at);
    }
    let mut devices: Vec<(String, Loc)> = Vec::new();
    for dev in read::opt_seq(svc, "devices")?.unwrap_or_default() {
        // `HOST[:CONTAINER[:PERMISSIONS]]`, the long form's `source`, or a
        // CDI name (`vendor.com/class=name`), kept as written.
        let host = match dev.get("source") {
            Some(s) => read::text(s, "source")?.to_string(),
            None => {
                let t = read::text(dev, "devices")?;
                if t.starts_with('/') {
                    t.split(':').next().unwrap_or(t).to_string()
                } else {
                    t.to_string()
                }
            }
        };
        devices.push((host, dev.loc));
    }
    for (rule, at) in read::opt_strs(svc, "device_cgroup_rules", false)?.unwrap_or_default() {
        devices.push((super::cgroup_rule_device(&rule), at));
    }
    if let Some(g) = svc.get("gpus") {
        devices.push(("/dev/nvidia*".to_string(), g.loc));
    }
    // `deploy.resources.reservations.devices` is the other way to ask for
    // GPUs (and other device classes the engine's drivers provide).
    let reserved = svc
        .get("deploy")
        .and_then(|dep| dep.get("resources"))
        .and_then(|r| r.get("reservations"))
        .and_then(|r| r.get("devices"))
        .map(SNode::items)
        .unwrap_or_default();
    for dev in reserved {
        let caps: Vec<&str> = dev
            .get("capabilities")
            .map(SNode::items)
            .unwrap_or_default()
            .iter()
            .filter_map(SNode::as_str)
            .collect();
        let driver = dev.get("driver").and_then(SNode::as_str);
        let entry = if caps.contains(&"gpu") || driver == Some("nvidia") {
            "/dev/nvidia*".to_string()
        } else {
            format!("reservation:{}", caps.join(","))
        };
        d.note(
            dev.loc,
            format!("`deploy.resources.reservations.devices` gives the container `{entry}`"),
        );
        devices.push((entry, dev.loc));
    }
    if let Some(&(_, at)) = devices.first() {
        d.set_list("/boundary/devices", at, devices);
    }
    // A pty alone only relays output; with stdin open, an attached
    // reviewer's terminal is wired to the job both ways.
    match (
        read::opt_bool(svc, "tty")?,
        read::opt_bool(svc, "stdin_open")?,
    ) {
        (Some((true, at)), Some((true, _))) => d.set("/boundary/terminal", "pty", at),
        (Some((true, at)), _) => d.note(
            at,
            "`tty` without `stdin_open`: the output goes through a terminal, but nothing can type into it",
        ),
        (_, Some((true, at))) => d.note(
            at,
            "`stdin_open` without `tty`: whoever attaches to the container can write to its standard input",
        ),
        _ => {}
    }
    Ok(())
}

/// `post_start` and `pre_stop` hooks run commands in the container, as
/// root unless they say otherwise, privileged when they ask: setup steps,
/// like Kubernetes lifecycle hooks.
fn hooks(d: &mut Draft, svc: &SNode) -> Result<(), ImportError> {
    for key in ["post_start", "pre_stop"] {
        for h in read::opt_seq(svc, key)?.unwrap_or_default() {
            hook(d, key, h)?;
        }
    }
    // `docker compose watch` runs a `sync+exec` rule's `exec` the same way.
    if let Some(dev) = read::opt_map(svc, "develop")? {
        for (i, w) in read::opt_seq(dev, "watch")?
            .unwrap_or_default()
            .iter()
            .enumerate()
        {
            if let Some(h) = w.get("exec").filter(|h| !h.is_null()) {
                hook(d, &format!("develop.watch[{i}].exec"), h)?;
            }
        }
    }
    Ok(())
}

/// One hook (`key` names it): a setup step, privileged when it asks.
fn hook(d: &mut Draft, key: &str, h: &SNode) -> Result<(), ImportError> {
    read::map(h, key)?;
    let Some(cmd) = h.get("command") else {
        return Err(invalid(h.loc, format!("a `{key}` hook needs a `command`")));
    };
    let w = words(d, cmd, "command", true)?;
    if w.is_empty() {
        return Ok(());
    }
    let p = d.push("/setup", OVal::obj(), h.loc);
    d.set_command(&p, w, cmd.loc);
    let user = read::opt_str(h, "user")?;
    let who = match user {
        Some((u, _)) => format!("as `{u}`"),
        None => "as the service's user".to_string(),
    };
    d.note(
        h.loc,
        format!(
            "the `{key}` hook runs a command in the container {who}; it is audited as a setup step"
        ),
    );
    if let Some((true, at)) = read::opt_bool(h, "privileged")? {
        // The hook's process is privileged inside the job's boundary.
        d.set("/boundary/privileged", true, at);
        d.note(
            at,
            format!(
                "the `{key}` hook runs privileged, so the service's boundary is read as privileged"
            ),
        );
    }
    if let Some((u, at)) = user {
        // Go's `strconv.Atoi` reads a sign and leading zeros (`+0`,
        // `-00`); a name is looked up as written.
        let uid = u.split(':').next().unwrap_or("");
        let digits = uid.strip_prefix(['+', '-']).unwrap_or(uid);
        let zero = !digits.is_empty() && digits.bytes().all(|b| b == b'0');
        if zero || uid.trim().eq_ignore_ascii_case("root") {
            d.note(at, format!("the `{key}` hook runs as root"));
        }
    }
    Ok(())
}

fn limits(d: &mut Draft, svc: &SNode, _key_loc: Loc) -> Result<(), ImportError> {
    let deploy_limits = match read::opt_map(svc, "deploy")? {
        Some(dep) => match read::opt_map(dep, "resources")? {
            Some(r) => read::opt_map(r, "limits")?,
            None => None,
        },
        None => None,
    };
    let mem = deploy_limits
        .and_then(|l| l.get("memory"))
        .or_else(|| svc.get("mem_limit"));
    let mut cgroup = None;
    match mem {
        Some(m) => {
            let t = read::text(m, "mem_limit")?;
            let b = super::read::docker_bytes(t)
                .ok_or_else(|| invalid(m.loc, format!("`{t}` is not a byte size")))?;
            d.set("/limits/memory_bytes", b, m.loc);
            cgroup = Some(m.loc);
        }
        None => d.undeclared(
            "/limits/memory_bytes",
            "no `mem_limit` or `deploy.resources.limits.memory`",
        ),
    }
    let pids = deploy_limits
        .and_then(|l| l.get("pids"))
        .or_else(|| svc.get("pids_limit"));
    match pids {
        Some(p) => match p.as_i64() {
            Some(n) if n > 0 => {
                d.set("/limits/processes", n as u64, p.loc);
                cgroup = cgroup.or(Some(p.loc));
            }
            Some(_) => d.note(p.loc, "a pids limit of 0 or -1 means no limit"),
            None => return Err(invalid(p.loc, "`pids_limit` must be a whole number")),
        },
        None => d.undeclared("/limits/processes", "no `pids_limit`"),
    }
    if let Some(c) = deploy_limits
        .and_then(|l| written(l, "cpus"))
        .or_else(|| written(svc, "cpus"))
    {
        d.note(
            c.key_loc,
            "`cpus` limits a rate (cores), not a total of CPU seconds",
        );
    }
    let mut rlimit = None;
    if let Some(u) = read::opt_map(svc, "ulimits")? {
        for e in u.entries() {
            let hard = match &e.value.value {
                SValue::Map(_) => e.value.get("hard").and_then(SNode::as_u64),
                _ => e.value.as_u64(),
            };
            match (e.key.as_str(), hard) {
                ("cpu", Some(h)) => {
                    d.set("/limits/cpu_seconds", h, e.value.loc);
                    rlimit = Some(e.key_loc);
                }
                ("nproc", Some(_)) => d.note(e.key_loc, "`ulimits.nproc` counts every process of the uid on the host; `pids_limit` is the per-container bound"),
                (k, _) => d.note(e.key_loc, format!("`ulimits.{k}` has no profile equivalent")),
            }
        }
    }
    if !d.has("/limits/cpu_seconds") {
        d.undeclared(
            "/limits/cpu_seconds",
            "no `ulimits.cpu`: CPU time is not bounded",
        );
    }
    match (cgroup, rlimit) {
        (Some(at), _) => d.set("/limits/enforced_by", "cgroup", at),
        (None, Some(at)) => d.set("/limits/enforced_by", "rlimit", at),
        (None, None) => {}
    }
    if let Some(e) = written(svc, "stop_grace_period") {
        d.note(e.key_loc, "`stop_grace_period` is how long `docker stop` waits before killing, not a run-time limit");
    }
    d.undeclared(
        "/limits/wall_seconds",
        "Compose has no run-time limit for a service",
    );
    d.undeclared("/limits/output_bytes", "Compose has no output-size limit");
    d.undeclared("/limits/timeout_kills", "Compose has no timeout");
    Ok(())
}

/// The value Compose gives `s` after interpolation, as far as the file
/// alone allows ([`template::substitute`], compose-go's own algorithm).
///
/// The import does not know the environment `docker compose` runs in (core
/// does no I/O, and a CI host's is not the author's). It reads the file as
/// Compose does with no variable set, except where that would hide a
/// value: a default (`${NAME:-word}`, `${NAME-word}`) is used, and said; a
/// required variable (`${NAME:?why}`) is refused, as Compose refuses it
/// unset; a plain reference (`$NAME`, `${NAME}`), which Compose would make
/// empty, stays in the text as written so that a path or a value built
/// from it stays visibly unresolved (fail closed), and so does
/// `${NAME:+word}`. `HOME` is always set.
pub(super) fn interpolate(s: &str) -> Result<Interpolated, String> {
    let lookup = |name: &str| {
        if let Some(v) = context::project_var(name) {
            Var::Set(v)
        } else if name == "HOME" {
            Var::UnknownNonEmpty
        } else {
            Var::Unknown
        }
    };
    template::substitute(s, &lookup).map_err(|e| match e {
        TemplateError::Invalid => "invalid interpolation format, as Compose reports it: a `${` that does not start `${NAME}`, `${NAME:-default}` or another form Compose knows (write `$$` for a literal `$`)".to_string(),
        TemplateError::Required { name, .. } => format!(
            "required variable `{name}` has no value (`${{{name}:?…}}`): Docker Compose refuses the file unless `{name}` is set when it runs, and isolint reads no environment; audit a copy with the value written in"
        ),
    })
}

/// Say how a value was interpolated, next to the setting it came from.
fn note_interpolation(d: &mut Draft, at: Loc, what: &str, raw: &str, i: &Interpolated) {
    for note in interpolation_notes(what, raw, i, None) {
        d.note(at, note);
    }
}

/// What a reader must know about one interpolated value: each default
/// assumed, and each variable with no value (kept as written, or read as
/// `widest`, the most permissive value the setting could take).
fn interpolation_notes(
    what: &str,
    raw: &str,
    i: &Interpolated,
    widest: Option<&str>,
) -> Vec<String> {
    let mut out = Vec::new();
    for (name, default) in &i.defaulted {
        out.push(format!(
            "{what} `{raw}`: `{name}` is not known here, so its default `{default}` is used; if `{name}` is set when Compose runs, the value differs"
        ));
    }
    for name in &i.unresolved {
        if name == "HOME" {
            continue;
        }
        out.push(match widest {
            Some(w) => format!(
                "{what} `{raw}`: `{name}` has no value in the file; read as `{w}`, the widest value it could take"
            ),
            None => format!(
                "{what} `{raw}`: `{name}` has no value in the file; it is kept as written, and the import cannot say what it resolves to"
            ),
        });
    }
    out
}

/// Keys whose values the import interpolates where it reads them (positions
/// inside a short volume or a command line hold only for exact text, and a
/// note names the setting), or does not read (`build`, `extends`,
/// `env_file`: every template of the file is still checked once, by
/// [`check_templates`]).
const READ_AS_WRITTEN: &[&str] = &[
    "volumes",
    "environment",
    "env_file",
    "command",
    "entrypoint",
    "healthcheck",
    "build",
    "extends",
];

/// The most permissive value a setting could take when its variable has
/// no value in the file: a reading that never errs in the safe direction.
fn widest(key: &str, text: &str) -> Option<String> {
    let w = match key {
        "network_mode" | "pid" | "ipc" | "uts" | "userns_mode" | "cgroup" => "host",
        "privileged" | "oom_kill_disable" => "true",
        "read_only" => "false",
        "cap_add" => "ALL",
        "security_opt" => match text.split([':', '=']).next().unwrap_or("") {
            "no-new-privileges" => "no-new-privileges:false",
            "apparmor" => "apparmor:unconfined",
            "label" => "label:disable",
            "systempaths" => "systempaths:unconfined",
            _ => "seccomp:unconfined",
        },
        _ => return None,
    };
    Some(w.to_string())
}

/// Every template of the file, read once as Compose reads it: compose-go
/// interpolates every string value of the whole file (keys are not), so a
/// template it refuses, anywhere, is an error, even under a setting this
/// import does not read.
fn check_templates(node: &SNode) -> Result<(), ImportError> {
    match &node.value {
        SValue::Scalar(s) if s.text.contains('$') => {
            interpolate(&s.text).map_err(|m| invalid(node.loc, m))?;
        }
        SValue::Seq(items) => {
            for n in items {
                check_templates(n)?;
            }
        }
        SValue::Map(entries) => {
            for e in entries {
                check_templates(&e.value)?;
            }
        }
        _ => {}
    }
    Ok(())
}

/// A service as Compose reads it: every value interpolated before any
/// setting is read (compose-go interpolates the whole model, then casts
/// `privileged: "${P:-true}"` to its type), except the keys in
/// [`READ_AS_WRITTEN`]. `key` is the setting a value belongs to (the
/// nearest mapping key). What was assumed goes to `notes`.
fn interpolated(
    node: &SNode,
    key: &str,
    notes: &mut Vec<(Loc, String)>,
) -> Result<SNode, ImportError> {
    let value = match &node.value {
        SValue::Scalar(s) if s.text.contains('$') => {
            let i = interpolate(&s.text).map_err(|m| invalid(node.loc, m))?;
            if i.is_exact() && i.text == s.text {
                return Ok(node.clone());
            }
            let wide = if i.unresolved.iter().any(|n| n != "HOME") {
                widest(key, &i.text)
            } else {
                None
            };
            let what = format!("`{key}`");
            for n in interpolation_notes(&what, &s.text, &i, wide.as_deref()) {
                notes.push((node.loc, n));
            }
            // Compose casts the interpolated text to the field's type, so
            // quotes around a template do not keep it a string.
            SValue::Scalar(super::tree::Scalar {
                quoted: s.quoted && i.is_exact(),
                text: wide.unwrap_or(i.text),
            })
        }
        SValue::Seq(items) => SValue::Seq(
            items
                .iter()
                .map(|n| interpolated(n, key, notes))
                .collect::<Result<_, _>>()?,
        ),
        SValue::Map(entries) => SValue::Map(
            entries
                .iter()
                .map(|e| {
                    let value =
                        if READ_AS_WRITTEN.contains(&e.key.as_str()) || e.key.starts_with("x-") {
                            e.value.clone()
                        } else {
                            interpolated(&e.value, &e.key, notes)?
                        };
                    Ok(super::tree::SEntry {
                        key: e.key.clone(),
                        key_loc: e.key_loc,
                        value,
                    })
                })
                .collect::<Result<_, ImportError>>()?,
        ),
        _ => return Ok(node.clone()),
    };
    Ok(SNode::new(node.loc, value))
}

/// The service fields compose-go casts from a string to a boolean after
/// interpolation, whatever the quoting (`loader/interpolate.go`:
/// `privileged`, `read_only`, `init` and `oom_kill_disable` of a
/// container, `stdin_open` and `tty` of a workload).
const CAST_TO_BOOL: &[&str] = &[
    "privileged",
    "read_only",
    "init",
    "oom_kill_disable",
    "stdin_open",
    "tty",
];

/// compose-go's `toBoolean`: `true`, `y`, `yes`, `on` and `false`, `n`,
/// `no`, `off`, in any case; anything else is an error there.
fn compose_bool(text: &str) -> Option<bool> {
    match text.to_ascii_lowercase().as_str() {
        "true" | "y" | "yes" | "on" => Some(true),
        "false" | "n" | "no" | "off" => Some(false),
        _ => None,
    }
}

/// A service with each string in a [`CAST_TO_BOOL`] field that Compose
/// reads as a boolean made that boolean, with a note; any other string
/// stays, for the schema walk to refuse as Compose does.
fn cast_booleans(node: SNode, notes: &mut Vec<(Loc, String)>) -> SNode {
    cast_fields(node, CAST_TO_BOOL, notes)
}

/// The fields of a top-level definition compose-go casts to a boolean
/// (`networks.*.internal`, `volumes.*.external`, ...).
const TOP_CAST_TO_BOOL: &[&str] = &[
    "external",
    "internal",
    "attachable",
    "enable_ipv4",
    "enable_ipv6",
];

/// The file's top level as compose-go validates it: each value outside
/// `services` interpolated and the booleans it casts cast, before the
/// schema walk (`internal: "${INTERNAL:-true}"` is a valid network). Each
/// service stands as an empty mapping: it is walked in its own profile,
/// after its own interpolation.
fn top_view(root: &SNode, notes: &mut Vec<(Loc, String)>) -> Result<SNode, ImportError> {
    let SValue::Map(entries) = &root.value else {
        return Ok(root.clone());
    };
    let mut out = Vec::with_capacity(entries.len());
    for e in entries {
        let value = match (e.key.as_str(), &e.value.value) {
            ("services", SValue::Map(services)) => SNode::new(
                e.value.loc,
                SValue::Map(
                    services
                        .iter()
                        .map(|s| super::tree::SEntry {
                            key: s.key.clone(),
                            key_loc: s.key_loc,
                            value: if s.value.is_map() {
                                SNode::new(s.value.loc, SValue::Map(Vec::new()))
                            } else {
                                s.value.clone()
                            },
                        })
                        .collect(),
                ),
            ),
            (k, _) if k.starts_with("x-") => e.value.clone(),
            (k, _) => {
                let mut v = interpolated(&e.value, k, notes)?;
                if let SValue::Map(defs) = &mut v.value {
                    for d in defs.iter_mut() {
                        let loc = d.value.loc;
                        let def = std::mem::replace(&mut d.value, SNode::new(loc, SValue::Null));
                        d.value = cast_fields(def, TOP_CAST_TO_BOOL, notes);
                        unknown_flags_widest(&mut d.value, notes);
                    }
                }
                v
            }
        };
        out.push(super::tree::SEntry {
            key: e.key.clone(),
            key_loc: e.key_loc,
            value,
        });
    }
    Ok(SNode::new(root.loc, SValue::Map(out)))
}

/// A definition's boolean that a variable with no value in the file
/// decides read as its widest value: `internal` false (traffic gets out),
/// `external` true (a network named `host` is then the engine's own).
fn unknown_flags_widest(def: &mut SNode, notes: &mut Vec<(Loc, String)>) {
    if let SValue::Map(entries) = &mut def.value {
        for e in entries.iter_mut() {
            let SValue::Scalar(s) = &e.value.value else {
                continue;
            };
            if TOP_CAST_TO_BOOL.contains(&e.key.as_str())
                && e.value.as_bool().is_none()
                && s.text.contains('$')
            {
                let widest = if e.key == "internal" { "false" } else { "true" };
                notes.push((
                    e.value.loc,
                    format!(
                        "`{}: {}` has no value in the file; read as `{widest}`, the widest value it could take",
                        e.key, s.text
                    ),
                ));
                e.value.value = SValue::Scalar(super::tree::Scalar {
                    text: widest.into(),
                    quoted: false,
                });
            }
        }
    }
}

/// `node` with each string in one of `fields` that compose-go reads as a
/// boolean made that boolean, with a note.
fn cast_fields(mut node: SNode, fields: &[&str], notes: &mut Vec<(Loc, String)>) -> SNode {
    if let SValue::Map(entries) = &mut node.value {
        for e in entries.iter_mut() {
            if !fields.contains(&e.key.as_str()) || e.value.as_bool().is_some() {
                continue;
            }
            let SValue::Scalar(s) = &e.value.value else {
                continue;
            };
            let Some(b) = compose_bool(&s.text) else {
                continue;
            };
            notes.push((
                e.value.loc,
                format!(
                    "`{}: {}` is read as `{b}`, as Compose casts the string",
                    e.key, s.text
                ),
            ));
            e.value.value = SValue::Scalar(super::tree::Scalar {
                text: b.to_string(),
                quoted: false,
            });
        }
    }
    node
}

/// A short-syntax volume, `[SOURCE:]TARGET[:OPTIONS]`, as compose-go's
/// `format.ParseVolume` reads it.
#[derive(Debug, Default, PartialEq, Eq)]
pub(super) struct ShortVolume {
    /// Empty for an anonymous volume.
    source: String,
    pub(super) target: String,
    /// The comma-separated options, in order.
    options: Vec<String>,
}

/// A colon ends a field, except right after a single letter, which makes
/// a Windows drive (`C:\data`, `c:/data`) wherever it occurs.
pub(super) fn parse_short_volume(spec: &str) -> Result<ShortVolume, String> {
    let mut v = ShortVolume::default();
    if spec.is_empty() {
        return Err("an empty volume".into());
    }
    if spec.len() <= 2 {
        v.target = spec.to_string();
        return Ok(v);
    }
    let mut fields: Vec<String> = Vec::new();
    let mut buffer = String::new();
    for c in spec.chars() {
        let drive = c == ':'
            && buffer.chars().count() == 1
            && buffer.chars().next().is_some_and(char::is_alphabetic);
        if c == ':' && !drive {
            fields.push(std::mem::take(&mut buffer));
        } else {
            buffer.push(c);
        }
    }
    fields.push(buffer);
    if fields.iter().any(String::is_empty) {
        return Err(format!("`{spec}` has an empty part between colons"));
    }
    match fields.as_mut_slice() {
        [t] => v.target = std::mem::take(t),
        [s, t] => {
            v.source = std::mem::take(s);
            v.target = std::mem::take(t);
        }
        [s, t, o] => {
            v.source = std::mem::take(s);
            v.target = std::mem::take(t);
            v.options = o.split(',').map(str::to_string).collect();
        }
        _ => return Err(format!("`{spec}` has too many colons")),
    }
    Ok(v)
}

/// Whether Compose takes a volume source as a host path (a bind mount)
/// rather than a volume name: compose-go's `isFilePath`. A source the
/// import could not resolve (`${DATA}/x`) counts as a host path too, the
/// more dangerous reading.
fn is_host_path(src: &str) -> bool {
    let mut cs = src.chars();
    match (cs.next(), cs.next()) {
        (Some('.' | '/' | '~' | '$'), _) => true,
        (Some('\\'), Some('\\')) => true,
        (Some(l), Some(':')) => l.is_alphabetic(),
        _ => false,
    }
}

/// What a short-syntax option or a long-syntax `bind.propagation` means
/// for the host, when it means something.
fn propagation_note(p: &str) -> Option<&'static str> {
    match p {
        "shared" | "rshared" => {
            Some("mounts made inside the container under this path also appear on the host")
        }
        "slave" | "rslave" => {
            Some("mounts the host makes under this path later appear inside the container")
        }
        "private" | "rprivate" => None,
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Source, target and options, or the error.
    type Read = Result<(String, String, String), String>;

    fn vol(spec: &str) -> Read {
        let i = interpolate(spec)?;
        let v = parse_short_volume(&i.text)?;
        Ok((v.source, v.target, v.options.join(",")))
    }

    fn ok(src: &str, dst: &str, opts: &str) -> Read {
        Ok((src.into(), dst.into(), opts.into()))
    }

    /// The short syntax, as compose-go's `ParseVolume` reads each string
    /// after interpolation (every variable unknown).
    #[test]
    fn short_volume_grammar() {
        let table: &[(&str, Read)] = &[
            ("/:/rootfs:ro", ok("/", "/rootfs", "ro")),
            ("/:/host", ok("/", "/host", "")),
            (
                "/var/run/docker.sock:/var/run/docker.sock",
                ok("/var/run/docker.sock", "/var/run/docker.sock", ""),
            ),
            ("./data:/data:rw", ok("./data", "/data", "rw")),
            ("~/.ssh:/root/.ssh:ro,z", ok("~/.ssh", "/root/.ssh", "ro,z")),
            ("/data", ok("", "/data", "")),
            ("db:/var/lib/db", ok("db", "/var/lib/db", "")),
            ("db:/var/lib/db:nocopy", ok("db", "/var/lib/db", "nocopy")),
            ("/a:/b:rshared", ok("/a", "/b", "rshared")),
            ("C:\\data:/data", ok("C:\\data", "/data", "")),
            ("c:/data:/data:ro", ok("c:/data", "/data", "ro")),
            ("C:\\data:D:\\data", ok("C:\\data", "D:\\data", "")),
            (
                "\\\\.\\pipe\\docker_engine:\\\\.\\pipe\\docker_engine",
                ok(
                    "\\\\.\\pipe\\docker_engine",
                    "\\\\.\\pipe\\docker_engine",
                    "",
                ),
            ),
            (
                "${AIRFLOW_PROJ_DIR:-.}/dags:/opt/airflow/dags",
                ok("./dags", "/opt/airflow/dags", ""),
            ),
            ("${DATA-/srv/data}:/data", ok("/srv/data", "/data", "")),
            // A `$` that starts no variable is a literal, in compose-go.
            ("/a$/b:/c", ok("/a$/b", "/c", "")),
            ("/x$", ok("", "/x$", "")),
            ("${DATA:+/x}:/data", ok("${DATA}", "/data", "")),
            ("$DATA/x:/data", ok("$DATA/x", "/data", "")),
            (
                "${HOME}/.aws:/root/.aws",
                ok("${HOME}/.aws", "/root/.aws", ""),
            ),
            (
                "${HOME:-/root}/.aws:/root/.aws",
                ok("${HOME}/.aws", "/root/.aws", ""),
            ),
            ("${A:-${B:-/b}}:/t", ok("/b", "/t", "")),
            ("/a$$b:/t", ok("/a$b", "/t", "")),
            ("${X:-C:\\x}:/t", ok("C:\\x", "/t", "")),
            (
                "/a::/b",
                Err("`/a::/b` has an empty part between colons".into()),
            ),
            (
                "/a:/b:ro:extra",
                Err("`/a:/b:ro:extra` has too many colons".into()),
            ),
            (":/b", Err("`:/b` has an empty part between colons".into())),
        ];
        for (spec, want) in table {
            assert_eq!(&vol(spec), want, "{spec}");
        }
        for bad in [
            "${DATA:/x",
            "${}:/x",
            "${1X}:/x",
            "${X*y}:/x",
            // Required, and no environment here: Compose refuses it unset.
            "${DATA:?set DATA}:/data:ro",
            "${DATA?}:/data",
        ] {
            assert!(vol(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn interpolation_records_what_it_assumed() {
        let i = interpolate("${A:-/a}/${B}/$C/$$").unwrap();
        assert_eq!(i.text, "/a/${B}/$C/$");
        assert_eq!(i.defaulted, [("A".to_string(), "/a".to_string())]);
        assert_eq!(i.unresolved, ["B", "C"]);
        assert!(interpolate("/plain").unwrap().is_exact());
    }

    #[test]
    fn host_paths_as_compose_reads_them() {
        for p in [
            "/",
            ".",
            "./x",
            "~/x",
            "C:\\x",
            "c:/x",
            "\\\\.\\pipe\\x",
            "${X}/y",
            "$X",
        ] {
            assert!(is_host_path(p), "{p}");
        }
        for p in ["db", "my-vol", "1:/x"] {
            assert!(!is_host_path(p), "{p}");
        }
    }

    fn import_one(yaml: &str) -> (String, Vec<String>) {
        let mut out = import(yaml.as_bytes()).unwrap();
        let (_, d) = out.remove(0);
        let (json, _, notes, _) = d.finish().unwrap();
        (
            json,
            notes.into_iter().map(|n| n.message.into_owned()).collect(),
        )
    }

    #[test]
    fn the_host_root_is_a_read_only_mount_of_slash() {
        let (json, _) =
            import_one("services:\n  cad:\n    image: x\n    volumes:\n      - /:/rootfs:ro\n");
        let v: serde_json::Value = serde_json::from_str(&json).unwrap();
        assert_eq!(v["mounts"][0]["source"], "/");
        assert_eq!(v["mounts"][0]["target"], "/rootfs");
        assert_eq!(v["mounts"][0]["access"], "read-only");
    }

    #[test]
    fn defaults_and_unknowns_stay_visible() {
        let (json, notes) = import_one(
            "services:\n  a:\n    image: x\n    volumes:\n      - ${P:-.}/dags:/opt/dags\n      - ${DATA}:/data\n      - type: bind\n        source: ${SRC:+/x}\n        target: /src\n        read_only: true\n        bind:\n          propagation: rshared\n",
        );
        let v: serde_json::Value = serde_json::from_str(&json).unwrap();
        assert_eq!(v["mounts"][0]["source"], "./dags");
        assert_eq!(v["mounts"][1]["source"], "${DATA}");
        assert_eq!(v["mounts"][2]["source"], "${SRC}");
        assert_eq!(v["mounts"][2]["access"], "read-only");
        assert!(notes
            .iter()
            .any(|n| n.contains("`P` is not known here, so its default `.` is used")));
        assert!(notes
            .iter()
            .any(|n| n.contains("`DATA` has no value in the file")));
        assert!(notes.iter().any(|n| n.contains("propagation `rshared`")));
    }

    #[test]
    fn bridge_is_the_default_network_not_a_shared_stack() {
        let (json, notes) = import_one("services:\n  a:\n    image: x\n    network_mode: bridge\n");
        let v: serde_json::Value = serde_json::from_str(&json).unwrap();
        assert_eq!(v["network"]["egress"], "allow-all");
        assert!(!notes.iter().any(|n| n.contains("shares another")));
    }

    #[test]
    fn hooks_are_setup_steps_and_can_make_the_boundary_privileged() {
        let (json, _) = import_one("services:\n  a:\n    image: x\n    post_start:\n      - command: [\"chown\", \"-R\", \"app\", \"/data\"]\n        user: root\n        privileged: true\n    pre_stop:\n      - command: ./drain.sh\n");
        let v: serde_json::Value = serde_json::from_str(&json).unwrap();
        assert_eq!(v["setup"][0]["executable"], "chown");
        assert_eq!(v["setup"][1]["executable"], "./drain.sh");
        assert_eq!(v["boundary"]["privileged"], true);
    }

    /// Compose interpolates every value of a service before it reads any
    /// setting (compose-go's `interpolation.Interpolate`, then type casts):
    /// a variable in `network_mode`, `privileged` or `security_opt` is as
    /// much the setting as a literal. A default is read with a note; a
    /// variable with no value is read as the widest value it could take.
    #[test]
    fn every_setting_is_read_after_interpolation() {
        // (the service's settings, JSON pointer, the value it must hold)
        let table: &[(&str, &str, serde_json::Value)] = &[
            (
                "network_mode: ${NM:-host}",
                "/boundary/host_namespaces",
                serde_json::json!(["network"]),
            ),
            (
                "network_mode: \"${NM-host}\"",
                "/network/egress",
                serde_json::json!("allow-all"),
            ),
            (
                "network_mode: ${NM}",
                "/boundary/host_namespaces",
                serde_json::json!(["network"]),
            ),
            (
                "network_mode: ${NM:+host}",
                "/boundary/host_namespaces",
                serde_json::json!(["network"]),
            ),
            (
                "network_mode: ${NM:-none}",
                "/network/egress",
                serde_json::json!("deny"),
            ),
            (
                "network_mode: ${NM:-bridge}",
                "/boundary/host_namespaces",
                serde_json::json!([]),
            ),
            (
                "pid: ${P:-host}",
                "/boundary/host_namespaces",
                serde_json::json!(["pid"]),
            ),
            (
                "pid: ${P}",
                "/boundary/host_namespaces",
                serde_json::json!(["pid"]),
            ),
            (
                "ipc: ${XORG_IPC}",
                "/boundary/host_namespaces",
                serde_json::json!(["ipc"]),
            ),
            (
                "ipc: ${IPC:-private}",
                "/boundary/host_namespaces",
                serde_json::json!([]),
            ),
            (
                "uts: '${U-host}'",
                "/boundary/host_namespaces",
                serde_json::json!(["uts"]),
            ),
            (
                "userns_mode: ${UM:-host}",
                "/boundary/host_namespaces",
                serde_json::json!(["user"]),
            ),
            (
                "userns_mode: $UM",
                "/boundary/host_namespaces",
                serde_json::json!(["user"]),
            ),
            (
                "cgroup: ${CG:-host}",
                "/boundary/host_namespaces",
                serde_json::json!(["cgroup"]),
            ),
            (
                "privileged: ${PRIV:-true}",
                "/boundary/privileged",
                serde_json::json!(true),
            ),
            (
                "privileged: ${PRIV}",
                "/boundary/privileged",
                serde_json::json!(true),
            ),
            (
                "privileged: ${PRIV:-false}",
                "/boundary/privileged",
                serde_json::json!(false),
            ),
            (
                "read_only: ${RO:-true}",
                "/boundary/read_only_root",
                serde_json::json!(true),
            ),
            (
                "read_only: ${RO}",
                "/boundary/read_only_root",
                serde_json::json!(false),
            ),
            (
                "security_opt: [\"${S:-seccomp:unconfined}\"]",
                "/boundary/seccomp",
                serde_json::json!("unconfined"),
            ),
            (
                "security_opt: [\"${S}\"]",
                "/boundary/seccomp",
                serde_json::json!("unconfined"),
            ),
            (
                "security_opt: [\"no-new-privileges:${NNP:-true}\"]",
                "/boundary/no_new_privileges",
                serde_json::json!(true),
            ),
            (
                "security_opt: [\"apparmor=${AA:-unconfined}\"]",
                "/boundary/apparmor",
                serde_json::json!("unconfined"),
            ),
            (
                "cap_add: [\"${CAP:-SYS_ADMIN}\"]",
                "/boundary/capabilities/add",
                serde_json::json!(["SYS_ADMIN"]),
            ),
            (
                "cap_add: [$CAP]",
                "/boundary/capabilities/add",
                serde_json::json!(["ALL"]),
            ),
            (
                "cap_drop: [\"${DROP:-ALL}\"]",
                "/boundary/capabilities/drop",
                serde_json::json!(["ALL"]),
            ),
            (
                "user: ${APP_UID:-0}",
                "/boundary/user",
                serde_json::json!("0"),
            ),
            (
                "user: \"${PUID:-1000}:${PGID:-1000}\"",
                "/boundary/user",
                serde_json::json!("1000:1000"),
            ),
            ("user: \"$$x\"", "/boundary/user", serde_json::json!("$x")),
            (
                "runtime: ${RT:-runsc}",
                "/boundary/kind",
                serde_json::json!("user-space-kernel"),
            ),
            (
                "mem_limit: ${MEM:-2g}",
                "/limits/memory_bytes",
                serde_json::json!(2_147_483_648u64),
            ),
            (
                "pids_limit: ${PIDS:-256}",
                "/limits/processes",
                serde_json::json!(256),
            ),
            (
                "working_dir: ${WD:-/srv}",
                "/command/cwd",
                serde_json::json!("/srv"),
            ),
        ];
        let mut wrong = Vec::new();
        for (setting, ptr, want) in table {
            let yaml =
                format!("services:\n  a:\n    image: x\n    command: [\"run\"]\n    {setting}\n");
            let got = match import(yaml.as_bytes()) {
                Ok(mut out) => {
                    let (_, d) = out.remove(0);
                    let (json, _, notes, _) = d.finish().unwrap();
                    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
                    let said = notes.iter().any(|n| n.message.contains('`') && n.line == 5);
                    if setting.contains('$') && !setting.contains("$$") && !said {
                        wrong.push(format!("{setting}: no note at its line"));
                    }
                    v.pointer(ptr).cloned().unwrap_or(serde_json::Value::Null)
                }
                Err(e) => serde_json::Value::String(format!("error: {e}")),
            };
            if &got != want {
                wrong.push(format!("{setting}: {ptr} is {got}, want {want}"));
            }
        }
        crate::import::table_tests::assert_none_wrong(&wrong, table.len());
    }

    /// `ptr` in the profile of service `job` (image `x`, then `own`)
    /// written above `others`, or the import's error as a string.
    fn job_pointer(own: &str, others: &str, ptr: &str) -> serde_json::Value {
        let yaml = format!("services:\n  job:\n    image: x\n    {own}\n{others}");
        match import(yaml.as_bytes()) {
            Ok(mut out) => {
                let v = crate::import::table_tests::profile(out.remove(0).1);
                v.pointer(ptr).cloned().unwrap_or(serde_json::Value::Null)
            }
            Err(e) => serde_json::Value::String(format!("error: {e}")),
        }
    }

    /// `service:NAME` joins that service's namespace, so a job joined to
    /// a service on the host's network or process namespace is on it too,
    /// however many services (or `extends` bases) stand between them.
    #[test]
    fn a_namespace_joined_from_another_service_is_that_services() {
        // (the job's setting, the other services, pointer, want)
        let table: &[(&str, &str, &str, serde_json::Value)] = &[
            (
                "network_mode: service:peer",
                "  peer:\n    network_mode: host\n",
                "/boundary/host_namespaces",
                serde_json::json!(["network"]),
            ),
            (
                "network_mode: service:peer",
                "  peer:\n    network_mode: host\n",
                "/network/egress",
                serde_json::json!("allow-all"),
            ),
            (
                "network_mode: service:peer",
                "  peer:\n    network_mode: none\n",
                "/network/egress",
                serde_json::json!("deny"),
            ),
            (
                "network_mode: service:peer",
                "  peer:\n    network_mode: service:p2\n  p2:\n    network_mode: host\n",
                "/boundary/host_namespaces",
                serde_json::json!(["network"]),
            ),
            (
                "network_mode: service:peer",
                "  peer:\n    extends: base\n  base:\n    network_mode: host\n",
                "/boundary/host_namespaces",
                serde_json::json!(["network"]),
            ),
            (
                "network_mode: service:peer",
                "  peer:\n    network_mode: ${NM}\n",
                "/boundary/host_namespaces",
                serde_json::json!(["network"]),
            ),
            (
                "network_mode: service:peer",
                "  peer:\n    network_mode: ${NM:-bridge}\n",
                "/boundary/host_namespaces",
                serde_json::json!([]),
            ),
            (
                "network_mode: service:peer",
                "  peer:\n    image: y\n",
                "/network",
                serde_json::Value::Null,
            ),
            (
                "pid: service:peer",
                "  peer:\n    pid: host\n",
                "/boundary/host_namespaces",
                serde_json::json!(["pid"]),
            ),
            (
                "pid: service:peer",
                "  peer:\n    pid: service:p2\n  p2:\n    pid: host\n",
                "/boundary/host_namespaces",
                serde_json::json!(["pid"]),
            ),
            (
                "pid: service:peer",
                "  peer:\n    image: y\n",
                "/boundary/shares_pid_with",
                serde_json::json!(["peer"]),
            ),
            (
                "ipc: service:peer",
                "  peer:\n    ipc: host\n",
                "/boundary/host_namespaces",
                serde_json::json!(["ipc"]),
            ),
            (
                "ipc: service:peer",
                "  peer:\n    ipc: shareable\n",
                "/boundary/host_namespaces",
                serde_json::json!([]),
            ),
        ];
        let mut wrong = Vec::new();
        for (own, others, ptr, want) in table {
            let got = job_pointer(own, others, ptr);
            if &got != want {
                wrong.push(format!("{own} / {others:?}: {ptr} is {got}, want {want}"));
            }
        }
        crate::import::table_tests::assert_none_wrong(&wrong, table.len());
        for (yaml, says) in [
            (
                "services:\n  job:\n    network_mode: service:nowhere\n",
                "does not define",
            ),
            (
                "services:\n  job:\n    pid: service:b\n  b:\n    pid: service:job\n",
                "cycle",
            ),
        ] {
            let e = import(yaml.as_bytes()).map(|_| ()).unwrap_err();
            assert!(e.to_string().contains(says), "{e}");
            assert_eq!(e.loc.map(|l| l.line), Some(3), "{e}");
        }
    }

    /// `volumes_from` gives the job every mount of the service it names,
    /// read-only with `:ro`, through that service's own `volumes_from`
    /// and `extends` too (a container outside the file is refused:
    /// `closed_tests`).
    #[test]
    fn volumes_from_a_service_are_the_jobs_mounts() {
        let sock = serde_json::json!([{"source": "/var/run/docker.sock", "target": "/var/run/docker.sock", "access": "read-write"}]);
        let sock_ro = serde_json::json!([{"source": "/var/run/docker.sock", "target": "/var/run/docker.sock", "access": "read-only"}]);
        let peer = "  peer:\n    volumes: [\"/var/run/docker.sock:/var/run/docker.sock\"]\n";
        let table: &[(&str, String, serde_json::Value)] = &[
            ("volumes_from: [peer]", peer.to_string(), sock.clone()),
            (
                "volumes_from: [\"service:peer\"]",
                peer.to_string(),
                sock.clone(),
            ),
            (
                "volumes_from: [\"peer:rw\"]",
                peer.to_string(),
                sock.clone(),
            ),
            (
                "volumes_from: [\"peer:ro\"]",
                peer.to_string(),
                sock_ro.clone(),
            ),
            (
                "volumes_from: [\"${P:-peer}\"]",
                peer.to_string(),
                sock.clone(),
            ),
            (
                "volumes_from: [mid]",
                format!("  mid:\n    volumes_from: [peer]\n{peer}"),
                sock.clone(),
            ),
            (
                "volumes_from: [\"mid:ro\"]",
                format!("  mid:\n    volumes_from: [peer]\n{peer}"),
                sock_ro,
            ),
            (
                "volumes_from: [mid]",
                format!("  mid:\n    extends: peer\n{peer}"),
                sock,
            ),
            (
                "volumes_from: [a]",
                "  a:\n    volumes_from: [job]\n".to_string(),
                serde_json::json!([]),
            ),
        ];
        let mut wrong = Vec::new();
        for (own, others, want) in table {
            let got = job_pointer(own, others, "/mounts");
            if &got != want {
                wrong.push(format!("{own} / {others:?}: mounts are {got}, want {want}"));
            }
        }
        crate::import::table_tests::assert_none_wrong(&wrong, table.len());
        let e = import(b"services:\n  job:\n    volumes_from: [nowhere]\n")
            .map(|_| ())
            .unwrap_err();
        assert!(e.to_string().contains("does not define"), "{e}");
    }

    #[test]
    fn a_bad_template_is_an_error_at_its_line() {
        let e = import(b"services:\n  a:\n    image: x\n    volumes:\n      - ${DATA:/x\n")
            .unwrap_err();
        assert_eq!(e.loc.map(|l| l.line), Some(5));
    }
}
