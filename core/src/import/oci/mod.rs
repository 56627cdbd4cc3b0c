//! OCI runtime `config.json` (runc, crun): the bundle configuration a
//! container runtime starts a process from.
//!
//! The OCI format lists what the process gets, not what changes from a
//! default, so the mapping is literal: the capabilities it lists are all
//! the capabilities it holds, a namespace it does not list is the host's,
//! a seccomp section it lacks means no filter, and hooks are programs the
//! runtime runs (most of them on the host).

use super::builder::{Draft, OVal};
use super::invalid;
use super::read;

pub(super) mod schema;
use super::shape::{self, Shape};
use super::tree::{self, Loc, SNode};
use super::{cap_name, ImportError, ImportErrorKind};

pub fn looks_like(root: &SNode) -> bool {
    root.get("ociVersion").is_some()
        || (root.get("process").is_some_and(SNode::is_map)
            && (root.get("root").is_some() || root.get("linux").is_some()))
}

const PROFILE_NAMESPACES: [(&str, &str); 7] = [
    ("pid", "pid"),
    ("network", "network"),
    ("ipc", "ipc"),
    ("uts", "uts"),
    ("user", "user"),
    ("mount", "mount"),
    ("cgroup", "cgroup"),
];

pub fn import(bytes: &[u8]) -> Result<Vec<(String, Draft)>, ImportError> {
    let root = tree::from_json(bytes)?;
    read::map(&root, "config.json")?;
    if !looks_like(&root) {
        return Err(ImportError::new(ImportErrorKind::Unrecognized(
            "not an OCI runtime config: no `ociVersion` and no `process` with `root` or `linux`"
                .into(),
        ))
        .at(root.loc));
    }
    // Every key is held to the spec's types before it is read; keys the
    // import does not know, at every level, are notes.
    let mut walked = Draft::new("", "", root.loc);
    shape::walk(&mut walked, &root, &Shape::Map(&schema::ROOT), "", &|p| {
        format!("unknown field `{p}` is not audited by this import")
    })?;
    let name = read::opt_str(&root, "hostname")?
        .map(|(h, _)| h.to_string())
        .filter(|h| !h.is_empty())
        .unwrap_or_else(|| "oci-config".into());
    let mut d = Draft::new(&name, "imported from an OCI runtime config.json", root.loc);
    shape::adopt_notes(&mut d, &walked);
    d.set("/boundary/kind", "container", root.loc);
    d.undeclared(
        "/boundary/runtime",
        "the config does not say which runtime (runc, crun, runsc, kata) starts it, nor its version",
    );
    // OCI has no privileged switch: what one grants elsewhere
    // (capabilities, no seccomp, every device, unmasked paths, a writable
    // sysfs) is listed part by part, and each part is mapped and audited
    // on its own. No further privilege hides behind the config.
    d.set("/boundary/privileged", false, root.loc);

    if let Some(process) = read::opt_map(&root, "process")? {
        process_section(&mut d, process)?;
    } else {
        d.undeclared("/command", "the config has no `process` section");
    }

    match read::opt_map(&root, "root")? {
        Some(r) => {
            match read::opt_bool(r, "readonly")? {
                Some((ro, at)) => d.set("/boundary/read_only_root", ro, at),
                // The specification's default: a writable root.
                None => d.set("/boundary/read_only_root", false, r.loc),
            }
            if let Some((p, at)) = read::opt_str(r, "path")? {
                d.note(
                    at,
                    format!("root filesystem `{p}` (the image contents are not audited)"),
                );
            }
        }
        None => d.set("/boundary/read_only_root", false, root.loc),
    }

    if let Some(mounts) = read::opt_seq(&root, "mounts")? {
        for m in mounts {
            mount(&mut d, m)?;
        }
    }
    d.ensure_array("/mounts", root.get("mounts").map_or(root.loc, |m| m.loc));

    if let Some(hooks) = read::opt_map(&root, "hooks")? {
        hooks_section(&mut d, hooks)?;
    }
    d.ensure_array("/setup", root.loc);

    let linux = read::opt_map(&root, "linux")?;
    linux_section(&mut d, linux, &root)?;

    for key in ["hostname", "domainname"] {
        if let Some((v, at)) = read::opt_str(&root, key)? {
            d.note(at, format!("`{key}` `{v}` has no profile equivalent"));
        }
    }
    if let Some(a) = root.entry("annotations").filter(|e| !e.value.is_null()) {
        d.note(
            a.key_loc,
            {
                let n = a.value.entries().len();
                format!(
                    "{} {} passed to the runtime; runtime-specific annotations can change isolation and are not audited",
                    crate::text::plural(n, "annotation"),
                    if n == 1 { "is" } else { "are" }
                )
            },
        );
    }

    for (ptr, why) in [
        (
            "/tenancy",
            "an OCI config does not say who wrote the code it runs",
        ),
        (
            "/needs",
            "an OCI config does not list the job's required inputs and outputs",
        ),
        (
            "/credentials",
            "credentials, if any, arrive through the environment or mounts",
        ),
        (
            "/limits/wall_seconds",
            "OCI has no run-time limit; the caller must enforce one",
        ),
        ("/limits/output_bytes", "OCI has no output-size limit"),
        (
            "/limits/timeout_kills",
            "the caller decides what a timeout kills",
        ),
        (
            "/concurrency",
            "an OCI config describes one container, not how many run at once",
        ),
        (
            "/dependencies",
            "the image and how dependencies were prepared are not in config.json",
        ),
        (
            "/artifacts",
            "artifact collection is outside the OCI config",
        ),
        ("/cleanup", "cleanup is done by whatever starts the runtime"),
    ] {
        d.undeclared(ptr, why);
    }
    Ok(vec![(String::new(), d)])
}

/// A uid or gid as runc decodes it: a JSON integer that fits a `uint32`
/// (Go refuses `0.0`, `1e3`, `-0` and anything past 4294967295).
fn oci_id(user: &SNode, key: &str) -> Result<Option<(u64, Loc)>, ImportError> {
    match read::opt_u64(user, key)? {
        Some((v, at)) if u32::try_from(v).is_err() => Err(invalid(
            at,
            format!("`process.user.{key}` must be a whole number from 0 to 4294967295"),
        )),
        other => Ok(other),
    }
}

fn process_section(d: &mut Draft, process: &SNode) -> Result<(), ImportError> {
    match read::opt_strs(process, "args", false)? {
        Some(args) if !args.is_empty() => {
            let at = process.get("args").map_or(process.loc, |a| a.loc);
            d.set_command("/command", args, at);
            d.map("/command", at);
        }
        _ => d.undeclared("/command", "`process.args` is empty or missing"),
    }
    if let Some(c) = process.entry("commandLine").filter(|e| !e.value.is_null()) {
        d.note(
            c.key_loc,
            "`commandLine` is for Windows containers; it is not mapped",
        );
    }

    // The runtime passes exactly `process.env`: nothing is inherited.
    let env_loc = process.get("env").map_or(process.loc, |e| e.loc);
    d.set("/environment/inherit", false, env_loc);
    d.set("/environment/variables", OVal::obj(), env_loc);
    if let Some(env) = read::opt_strs(process, "env", false)? {
        for (kv, at) in env {
            match kv.split_once('=') {
                Some((k, v)) if !k.is_empty() => d.set(&Draft::variable_ptr(k), v, at),
                _ => d.note(
                    at,
                    format!("environment entry `{kv}` has no `=`; runtimes reject or ignore it"),
                ),
            }
        }
    }

    if let Some(user) = read::opt_map(process, "user")? {
        let uid = oci_id(user, "uid")?;
        let gid = oci_id(user, "gid")?;
        match (uid, gid) {
            (Some((u, at)), Some((g, _))) => d.set("/boundary/user", format!("{u}:{g}"), at),
            (Some((u, at)), None) => d.set("/boundary/user", u.to_string(), at),
            _ => d.undeclared("/boundary/user", "`process.user.uid` is missing"),
        }
        if let Some((name, at)) = read::opt_str(user, "username")? {
            d.note(
                at,
                format!("`username` `{name}` is for Windows; it is not mapped to `boundary.user`"),
            );
        }
        if let Some(gids) = read::opt_seq(user, "additionalGids")? {
            d.set(
                "/boundary/groups",
                OVal::arr(),
                user.get("additionalGids").map_or(user.loc, |n| n.loc),
            );
            for g in gids {
                let id = g
                    .as_u64()
                    .filter(|v| u32::try_from(*v).is_ok())
                    .ok_or_else(|| {
                        invalid(
                            g.loc,
                            "an additional gid must be a whole number from 0 to 4294967295",
                        )
                    })?;
                d.push("/boundary/groups", id.to_string(), g.loc);
            }
        }
    } else {
        d.undeclared("/boundary/user", "`process.user` is missing");
    }

    match read::opt_map(process, "capabilities")? {
        Some(caps) => {
            let mut held: std::collections::HashSet<String> = std::collections::HashSet::new();
            let mut first_at: Vec<(String, Loc)> = Vec::new();
            for set in [
                "bounding",
                "effective",
                "permitted",
                "inheritable",
                "ambient",
            ] {
                for (c, at) in read::opt_strs(caps, set, false)?.unwrap_or_default() {
                    let c = cap_name(&c);
                    if held.insert(c.clone()) {
                        first_at.push((c, at));
                    }
                }
            }
            crate::sort::sort(&mut first_at);
            d.set_list("/boundary/capabilities/add", caps.loc, first_at);
            d.set(
                "/boundary/capabilities/drop",
                vec!["ALL".to_string()],
                caps.loc,
            );
            d.map("/boundary/capabilities", caps.loc);
        }
        None => d.undeclared(
            "/boundary/capabilities",
            "`process.capabilities` is missing; the process keeps whatever the runtime runs with",
        ),
    }

    match read::opt_bool(process, "noNewPrivileges")? {
        Some((b, at)) => d.set("/boundary/no_new_privileges", b, at),
        // The specification's default.
        None => d.set("/boundary/no_new_privileges", false, process.loc),
    }

    if let Some(rlimits) = read::opt_seq(process, "rlimits")? {
        for r in rlimits {
            let r = read::map(r, "rlimits")?;
            let (kind, kind_at) = read::opt_str(r, "type")?
                .ok_or_else(|| invalid(r.loc, "an rlimit needs a `type`"))?;
            let hard = read::opt_u64(r, "hard")?;
            let Some((hard, hard_at)) = hard else {
                d.note(kind_at, format!("`{kind}` has no hard limit"));
                continue;
            };
            let field = match kind {
                "RLIMIT_NPROC" => Some("/limits/processes"),
                "RLIMIT_CPU" => Some("/limits/cpu_seconds"),
                "RLIMIT_AS" => Some("/limits/memory_bytes"),
                _ => None,
            };
            match field {
                Some(f) => {
                    d.set(f, hard, hard_at);
                    if !d.has("/limits/enforced_by") {
                        d.set("/limits/enforced_by", "rlimit", kind_at);
                    }
                    if kind == "RLIMIT_NPROC" {
                        d.note(kind_at, "RLIMIT_NPROC counts every process of the uid on the host, not only this container's");
                    }
                }
                None => d.note(
                    kind_at,
                    format!("`{kind}` (hard {hard}) has no profile equivalent"),
                ),
            }
        }
    }

    // runc starts the process in a session of its own; with `terminal`
    // it also allocates a pty and relays it to whoever holds the console.
    if let Some((true, at)) = read::opt_bool(process, "terminal")? {
        d.set("/boundary/terminal", "pty", at);
    }
    if let Some((p, at)) = read::opt_str(process, "apparmorProfile")? {
        d.set(
            "/boundary/apparmor",
            if p == "unconfined" {
                "unconfined"
            } else {
                "custom"
            },
            at,
        );
    }
    if let Some((l, at)) = read::opt_str(process, "selinuxLabel")? {
        // `user:role:type:level`: the type decides.
        let t = l.split(':').nth(2).unwrap_or("");
        d.set(
            "/boundary/selinux",
            if matches!(t, "spc_t" | "unconfined_t") {
                "unconfined"
            } else {
                "custom"
            },
            at,
        );
    }
    if let Some(n) = process.get("oomScoreAdj") {
        let v = n
            .as_i64()
            .ok_or_else(|| invalid(n.loc, "`oomScoreAdj` must be a whole number"))?;
        d.set("/boundary/oom_score_adj", v, n.loc);
    }
    if let Some((cwd, at)) = read::opt_str(process, "cwd")? {
        super::working_dir(d, cwd, at, "process.cwd");
    }
    Ok(())
}

fn mount(d: &mut Draft, m: &SNode) -> Result<(), ImportError> {
    let m = read::map(m, "mounts")?;
    let (dest, dest_at) = read::opt_str(m, "destination")?
        .ok_or_else(|| invalid(m.loc, "a mount needs a `destination`"))?;
    let kind = read::opt_str(m, "type")?.map(|(t, _)| t).unwrap_or("");
    let options = read::opt_strs(m, "options", false)?.unwrap_or_default();
    let is_bind = kind == "bind" || options.iter().any(|(o, _)| o == "bind" || o == "rbind");
    for (o, at) in &options {
        // A bind mount ignores data options; a file system's are the
        // kernel's to check, and only a word without `=` that no file
        // system runc mounts by default takes is worth naming.
        let named = if is_bind {
            !RUNC_MOUNT_OPTIONS.contains(&o.as_str())
        } else {
            !o.contains('=')
                && !RUNC_MOUNT_OPTIONS.contains(&o.as_str())
                && !FS_WORDS.contains(&o.as_str())
        };
        if named {
            d.note(
                *at,
                if is_bind {
                    format!("mount option `{o}` is not one runc knows; a bind mount ignores it, so it changes nothing (not even read-only)")
                } else {
                    format!("mount option `{o}` is not one runc knows; it is passed to the `{kind}` file system as data and not audited")
                },
            );
        }
    }
    if !is_bind {
        let ro = options.iter().any(|(o, _)| o == "ro" || o == "rro");
        let what = if kind.is_empty() {
            "a mount without a type"
        } else {
            kind
        };
        if matches!(kind, "sysfs" | "cgroup" | "cgroup2") && !ro {
            d.set("/boundary/masked_paths", false, m.loc);
            if !d.has("/boundary/unmasked_paths") {
                d.set("/boundary/unmasked_paths", OVal::arr(), m.loc);
            }
            d.push("/boundary/unmasked_paths", dest, dest_at);
            d.note(m.loc, format!("`{dest}` is a writable `{what}` mount: the container can change host kernel settings through it"));
        } else {
            d.note(m.loc, format!("`{dest}` is a `{what}` filesystem, not a host path; it is not represented as a mount"));
        }
        return Ok(());
    }
    let (source, source_at) = read::opt_str(m, "source")?
        .ok_or_else(|| invalid(m.loc, "a bind mount needs a `source`"))?;
    // runc joins a relative bind source to the bundle directory with
    // `filepath.Join` (`createLibcontainerMount`), which resolves `..`
    // lexically: that result is what is mounted. The `..` that climb above
    // the bundle stay in front, since where they lead is not in the file.
    let source = if source.starts_with('/') {
        source.to_string()
    } else {
        let (clean, climbs) = super::compose::join_lexically(source);
        let shown = match (clean.is_empty(), climbs) {
            (true, _) => ".".to_string(),
            (false, 0) => format!("./{clean}"),
            _ => clean,
        };
        d.note(
            source_at,
            format!("`{source}` is relative to the bundle directory, which the file does not fix; runc joins it there lexically, as `{shown}`"),
        );
        shown
    };
    let p = d.push("/mounts", OVal::obj(), m.loc);
    d.set_field(&p, "source", source, source_at);
    d.set_field(&p, "target", dest, dest_at);
    // The last of `ro`/`rw` wins, as in mount(8); bind mounts default to
    // rw. runc applies the recursive `rro`/`rrw` after the mount, so the
    // last of those decides when one is given.
    let last = |a: &str, b: &str| options.iter().rev().find(|(o, _)| o == a || o == b);
    let access = last("rro", "rrw")
        .map(|(o, at)| (o == "rro", at))
        .or_else(|| last("ro", "rw").map(|(o, at)| (o == "ro", at)));
    match access {
        Some((ro, at)) => d.set_field(
            &p,
            "access",
            if ro { "read-only" } else { "read-write" },
            *at,
        ),
        None => d.set_field(
            &p,
            "access",
            "read-write",
            m.get("options").map_or(m.loc, |o| o.loc),
        ),
    }
    if let Some((o, at)) = options.iter().find(|(o, _)| o.ends_with("shared")) {
        d.note(
            *at,
            format!("mount propagation `{o}` lets mounts made inside reach the host"),
        );
    }
    Ok(())
}

fn hooks_section(d: &mut Draft, hooks: &SNode) -> Result<(), ImportError> {
    for entry in hooks.entries() {
        let stage = entry.key.as_str();
        let on_host = matches!(
            stage,
            "prestart" | "createRuntime" | "poststart" | "poststop"
        );
        let Some(list) = read::opt_seq(hooks, stage)? else {
            continue;
        };
        for h in list {
            let h = read::map(h, stage)?;
            let (path, path_at) =
                read::opt_str(h, "path")?.ok_or_else(|| invalid(h.loc, "a hook needs a `path`"))?;
            let p = d.push("/setup", OVal::obj(), h.loc);
            d.set_field(&p, "executable", path, path_at);
            // args[0] is the program's own name, as in execve(2).
            let mut args = read::opt_strs(h, "args", false)?.unwrap_or_default();
            if !args.is_empty() {
                args.remove(0);
            }
            d.set_list(
                &format!("{p}/arguments"),
                h.get("args").map_or(h.loc, |a| a.loc),
                args,
            );
            d.note(
                entry.key_loc,
                format!(
                    "`{stage}` hook `{path}` is executable code the runtime runs {}; it is audited as a setup step",
                    if on_host { "on the host, in the runtime's namespaces" } else { "inside the container" }
                ),
            );
            if on_host {
                // What a host hook does (as the runtime's user, outside
                // every namespace of the job, handed the container's
                // state) lives in a program the bundle does not hold.
                d.unread(
                    path_at,
                    format!("`{stage}` hook `{path}` runs on the host, outside the container, as the runtime's user: what it grants the job is decided by a program the bundle does not contain"),
                );
            }
        }
    }
    Ok(())
}

fn linux_section(d: &mut Draft, linux: Option<&SNode>, root: &SNode) -> Result<(), ImportError> {
    let anchor = linux.map_or(root.loc, |l| l.loc);
    let namespaces = match linux {
        Some(l) => read::opt_seq(l, "namespaces")?,
        None => None,
    };
    let ns_at = linux
        .and_then(|l| l.get("namespaces"))
        .map_or(anchor, |n| n.loc);
    let mut own: Vec<String> = Vec::new();
    let mut joined: Vec<(String, String, Loc)> = Vec::new();
    for n in namespaces.unwrap_or_default() {
        let n = read::map(n, "namespaces")?;
        let (t, at) = read::opt_str(n, "type")?
            .ok_or_else(|| invalid(n.loc, "a namespace needs a `type`"))?;
        match read::opt_str(n, "path")? {
            Some((path, _)) => joined.push((t.to_string(), path.to_string(), at)),
            None => own.push(t.to_string()),
        }
    }
    d.set("/boundary/host_namespaces", OVal::arr(), ns_at);
    for (oci, profile) in PROFILE_NAMESPACES {
        if own.iter().any(|t| t == oci) {
            continue;
        }
        if let Some((_, path, at)) = joined.iter().find(|(t, _, _)| t == oci) {
            d.push("/boundary/host_namespaces", profile, *at);
            d.note(*at, format!("the `{oci}` namespace joins `{path}`, which may be the host's; counted as shared"));
        } else {
            d.push("/boundary/host_namespaces", profile, ns_at);
        }
    }
    for extra in ["time"] {
        if !own.iter().any(|t| t == extra) {
            d.note(ns_at, format!("no `{extra}` namespace: the host's is shared (the profile has no field for it)"));
        }
    }
    let net_shared = !own.iter().any(|t| t == "network");
    if net_shared {
        d.set("/network/egress", "allow-all", ns_at);
        d.set("/network/enforced_by", "none", ns_at);
    } else {
        d.map("/network", ns_at);
        d.undeclared(
            "/network",
            "a network namespace of its own has whatever interfaces the caller (CNI, slirp) adds; the config does not say",
        );
    }

    let Some(linux) = linux else {
        masking(d, root)?;
        d.set("/boundary/seccomp", "unconfined", root.loc);
        d.undeclared(
            "/limits/memory_bytes",
            "there is no `linux.resources` section",
        );
        return Ok(());
    };

    match read::opt_map(linux, "seccomp")? {
        None => d.set("/boundary/seccomp", "unconfined", linux.loc),
        Some(s) => {
            let default = read::opt_str(s, "defaultAction")?;
            let rules = s.get("syscalls").map_or(0, |x| x.items().len());
            match default {
                Some(("SCMP_ACT_ALLOW", at)) if rules == 0 => {
                    d.set("/boundary/seccomp", "unconfined", at);
                    d.note(at, "the seccomp filter allows every system call");
                }
                // A filter that allows (or only logs) what it does not
                // list lets every unlisted and every new system call
                // through: a deny-list, not the confinement `custom` means.
                Some((a @ ("SCMP_ACT_ALLOW" | "SCMP_ACT_LOG"), at)) => {
                    d.set("/boundary/seccomp", "unconfined", at);
                    d.note(
                        at,
                        format!("the seccomp filter's default action is `{a}`: every system call it does not list reaches the kernel; audited as unconfined"),
                    );
                }
                Some((_, at)) => d.set("/boundary/seccomp", "custom", at),
                None => d.set("/boundary/seccomp", "custom", s.loc),
            }
        }
    }

    let mut cgroup_limit = false;
    if let Some(res) = read::opt_map(linux, "resources")? {
        if let Some(mem) = read::opt_map(res, "memory")? {
            match mem.get("limit") {
                Some(l) => match l.as_i64() {
                    Some(v) if v > 0 => {
                        d.set("/limits/memory_bytes", v as u64, l.loc);
                        cgroup_limit = true;
                    }
                    Some(_) => d.note(l.loc, "memory limit `-1` or `0` means no limit"),
                    None => return Err(invalid(l.loc, "`memory.limit` must be a whole number")),
                },
                None => d.undeclared(
                    "/limits/memory_bytes",
                    "`linux.resources.memory.limit` is missing",
                ),
            }
            if let Some(e) = mem.entry("swap").filter(|e| !e.value.is_null()) {
                d.note(e.key_loc, "the swap limit has no profile equivalent");
            }
        }
        if let Some(pids) = read::opt_map(res, "pids")? {
            if let Some(l) = pids.get("limit") {
                match l.as_i64() {
                    Some(v) if v > 0 => {
                        d.set("/limits/processes", v as u64, l.loc);
                        cgroup_limit = true;
                    }
                    Some(_) => d.note(l.loc, "pids limit `-1` or `0` means no limit"),
                    None => return Err(invalid(l.loc, "`pids.limit` must be a whole number")),
                }
            }
        }
        if let Some(cpu) = res.entry("cpu").filter(|e| !e.value.is_null()) {
            d.note(
                cpu.key_loc,
                "CPU quota, period and shares limit a rate, not a total; `limits.cpu_seconds` stays as declared elsewhere",
            );
        }
        if let Some(devs) = read::opt_seq(res, "devices")? {
            device_rules(d, devs)?;
        }
    }
    if !d.has("/limits/memory_bytes") {
        d.undeclared(
            "/limits/memory_bytes",
            "no positive `linux.resources.memory.limit`",
        );
    }
    if !d.has("/limits/processes") {
        d.undeclared(
            "/limits/processes",
            "no positive `linux.resources.pids.limit`",
        );
    }
    if !d.has("/limits/cpu_seconds") {
        d.undeclared(
            "/limits/cpu_seconds",
            "no `RLIMIT_CPU`: CPU time is not bounded",
        );
    }
    if cgroup_limit {
        let at = linux.get("resources").map_or(linux.loc, |r| r.loc);
        d.set("/limits/enforced_by", "cgroup", at);
    }

    if let Some(s) = read::opt_map(linux, "sysctl")? {
        d.set("/boundary/sysctls", OVal::obj(), s.loc);
        for e in s.entries() {
            let v = read::text(&e.value, &e.key)?;
            d.set(
                &format!("/boundary/sysctls/{}", crate::json::escape_token(&e.key)),
                v,
                e.value.loc,
            );
        }
    }
    // Device nodes the runtime creates inside the container.
    for dev in read::opt_seq(linux, "devices")?.unwrap_or_default() {
        let (path, at) = read::opt_str(dev, "path")?
            .ok_or_else(|| invalid(dev.loc, "a device needs a `path`"))?;
        if !d.has("/boundary/devices") {
            d.set("/boundary/devices", OVal::arr(), at);
        }
        d.push("/boundary/devices", path, at);
    }
    masking(d, linux)?;
    if let Some(e) = linux.entry("netDevices").filter(|e| !e.value.is_null()) {
        d.note(e.key_loc, "`linux.netDevices` moves host network interfaces into the container: traffic through them leaves on the host's network, whatever the profile's egress says");
    }
    Ok(())
}

/// The mount options runc knows (libcontainer/specconv/spec_linux.go at
/// runc commit 76d9cf5da5683ff449ae967db58fa8c5927ca54b: `mountFlags`,
/// `mountPropagationMapping`, `recAttrFlags`, `extensionFlags`,
/// `complexFlags`). Anything else is file system data.
const RUNC_MOUNT_OPTIONS: &[&str] = &[
    "async",
    "atime",
    "bind",
    "defaults",
    "dev",
    "diratime",
    "dirsync",
    "exec",
    "iversion",
    "lazytime",
    "loud",
    "mand",
    "noatime",
    "nodev",
    "nodiratime",
    "noexec",
    "noiversion",
    "nolazytime",
    "nomand",
    "norelatime",
    "nostrictatime",
    "nosuid",
    "nosymfollow",
    "rbind",
    "relatime",
    "remount",
    "ro",
    "rw",
    "silent",
    "strictatime",
    "suid",
    "sync",
    "symfollow",
    "rprivate",
    "private",
    "rslave",
    "slave",
    "rshared",
    "shared",
    "runbindable",
    "unbindable",
    "rro",
    "rrw",
    "rnosuid",
    "rsuid",
    "rnodev",
    "rdev",
    "rnoexec",
    "rexec",
    "rnodiratime",
    "rdiratime",
    "rrelatime",
    "rnorelatime",
    "rnoatime",
    "ratime",
    "rstrictatime",
    "rnostrictatime",
    "rnosymfollow",
    "rsymfollow",
    "tmpcopyup",
    "idmap",
    "ridmap",
];

/// Data words without `=` of the file systems in runc's default spec
/// (devpts `newinstance`).
const FS_WORDS: &[&str] = &["newinstance"];

/// One allow rule of the device cgroup, as runc keeps it: type (`a`, `c`,
/// `b`), numbers (`None` for any) and the access letters left.
struct DeviceRule {
    kind: String,
    major: Option<i64>,
    minor: Option<i64>,
    access: String,
    at: Loc,
}

/// `linux.resources.devices` applied in order, as runc's device cgroup
/// emulator does: an allow rule adds access, a deny rule of every device
/// (`a`, no numbers) with all of `rwm` clears what came before, and a deny
/// rule for the same device takes its letters away. Each device left is
/// listed with its access when that is less than read and write (`/dev/sd*
/// r`); `m` alone only creates nodes, which runc allows for every device.
fn device_rules(d: &mut Draft, devs: &[SNode]) -> Result<(), ImportError> {
    let mut allowed: Vec<DeviceRule> = Vec::new();
    for dev in devs {
        let dev = read::map(dev, "devices")?;
        let allow = read::opt_bool(dev, "allow")?.is_some_and(|(a, _)| a);
        let kind = read::opt_str(dev, "type")?
            .map_or("a", |(t, _)| t)
            .to_string();
        let num = |k: &str| dev.get(k).and_then(SNode::as_i64).filter(|n| *n >= 0);
        let (major, minor) = if kind == "a" {
            (None, None)
        } else {
            (num("major"), num("minor"))
        };
        // The specification's default access is all of `rwm`.
        let access: String = match read::opt_str(dev, "access")? {
            Some((a, at)) => {
                if let Some(bad) = a.chars().find(|c| !matches!(c, 'r' | 'w' | 'm')) {
                    return Err(invalid(
                        at,
                        format!("device access `{a}` has `{bad}`; runc accepts only the letters r, w and m"),
                    ));
                }
                a.to_string()
            }
            None => "rwm".to_string(),
        };
        if allow {
            allowed.push(DeviceRule {
                kind,
                major,
                minor,
                access,
                at: dev.loc,
            });
        } else if kind == "a"
            && major.is_none()
            && ["r", "w", "m"].iter().all(|l| access.contains(l))
        {
            allowed.clear();
        } else {
            for r in &mut allowed {
                if r.kind == kind && r.major == major && r.minor == minor {
                    r.access.retain(|c| !access.contains(c));
                }
            }
            allowed.retain(|r| !r.access.is_empty());
        }
    }
    for r in allowed {
        let base = if r.kind == "a" {
            "*".to_string()
        } else {
            super::cgroup_device(&r.kind, r.major, r.minor)
        };
        let rw = r.access.contains('r') && r.access.contains('w');
        let letters: String = ['r', 'w', 'm']
            .iter()
            .filter(|l| r.access.contains(**l))
            .collect();
        let entry = if rw {
            base.clone()
        } else {
            format!("{base} {letters}")
        };
        if !d.has("/boundary/devices") {
            d.set("/boundary/devices", OVal::arr(), r.at);
        }
        d.push("/boundary/devices", entry, r.at);
        if base == "*" && rw {
            d.note(r.at, "the device cgroup allows every device");
        }
    }
    Ok(())
}

/// runc's default `maskedPaths` and `readonlyPaths`
/// (libcontainer/specconv/example.go, runc commit
/// 76d9cf5da5683ff449ae967db58fa8c5927ca54b): what `runc spec` writes and
/// what Docker and containerd apply.
pub(crate) const RUNC_MASKED: &[&str] = &[
    "/proc/acpi",
    "/proc/asound",
    "/proc/kcore",
    "/proc/keys",
    "/proc/latency_stats",
    "/proc/timer_list",
    "/proc/timer_stats",
    "/proc/sched_debug",
    "/sys/firmware",
    "/proc/scsi",
];
pub(crate) const RUNC_READONLY: &[&str] = &[
    "/proc/bus",
    "/proc/fs",
    "/proc/irq",
    "/proc/sys",
    "/proc/sysrq-trigger",
];

/// Whether `listed` (a path of the config) covers `default`: the same
/// path, or a directory above it.
fn covers(listed: &str, default: &str) -> bool {
    let l = listed.trim_end_matches('/');
    let l = if l.is_empty() { "/" } else { l };
    l == default || l == "/" || default.strip_prefix(l).is_some_and(|r| r.starts_with('/'))
}

/// `maskedPaths` and `readonlyPaths` compared path by path with runc's
/// defaults: a default path neither list covers (a masked path also
/// covers read-only) is left open, and named.
fn masking(d: &mut Draft, linux: &SNode) -> Result<(), ImportError> {
    let read_list = |k: &str| -> Result<Vec<String>, ImportError> {
        Ok(read::opt_strs(linux, k, false)?
            .unwrap_or_default()
            .into_iter()
            .map(|(p, _)| p.to_string())
            .collect())
    };
    let masked = read_list("maskedPaths")?;
    let readonly = read_list("readonlyPaths")?;
    let mut open: Vec<(&str, &str)> = Vec::new();
    for p in RUNC_MASKED {
        if !masked.iter().any(|m| covers(m, p)) {
            open.push((p, "maskedPaths"));
        }
    }
    for p in RUNC_READONLY {
        if !masked.iter().chain(&readonly).any(|m| covers(m, p)) {
            open.push((p, "readonlyPaths"));
        }
    }
    let at_of = |k: &str| linux.get(k).map_or(linux.loc, |n| n.loc);
    if open.is_empty() {
        if !d.has("/boundary/masked_paths") {
            d.set("/boundary/masked_paths", true, at_of("maskedPaths"));
        }
        return Ok(());
    }
    let first = open.first().map_or("maskedPaths", |(_, k)| k);
    if !d.has("/boundary/masked_paths") {
        d.set("/boundary/masked_paths", false, at_of(first));
    }
    if !d.has("/boundary/unmasked_paths") {
        d.set("/boundary/unmasked_paths", OVal::arr(), at_of(first));
    }
    for (p, k) in &open {
        d.push("/boundary/unmasked_paths", *p, at_of(k));
    }
    for k in ["maskedPaths", "readonlyPaths"] {
        let names: Vec<String> = open
            .iter()
            .filter(|(_, l)| *l == k)
            .map(|(p, _)| format!("`{p}`"))
            .collect();
        if !names.is_empty() {
            d.note(
                at_of(k),
                format!(
                    "`{k}` leaves out {} of runc's defaults: {}",
                    names.len(),
                    names.join(", ")
                ),
            );
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    /// The note on annotations counts them in words that agree with the
    /// count.
    #[test]
    fn the_annotations_note_agrees_with_its_count() {
        for (annotations, want) in [
            (r#"{"a": "1"}"#, "1 annotation is passed"),
            (r#"{"a": "1", "b": "2"}"#, "2 annotations are passed"),
            ("{}", "0 annotations are passed"),
        ] {
            let config = format!(
                r#"{{"ociVersion": "1.0.2", "process": {{"args": ["true"]}}, "root": {{"path": "rootfs"}}, "annotations": {annotations}}}"#
            );
            let imported = crate::import::import(config.as_bytes(), crate::import::Format::Oci)
                .unwrap_or_else(|e| panic!("{config}: {e}"));
            let notes: Vec<&str> = imported
                .iter()
                .flat_map(|i| i.notes.iter().map(|n| n.message.as_ref()))
                .collect();
            assert!(
                notes.iter().any(|n| n.starts_with(want)),
                "{annotations}: {notes:?}"
            );
        }
    }

    /// runc joins a relative bind source to the bundle directory
    /// lexically (`filepath.Join`), so the lexical result is audited; a
    /// `..` above the bundle stays in front, and an absolute source with
    /// `..` is left for the kernel to resolve after following links.
    #[test]
    fn relative_sources_are_joined_to_the_bundle_lexically() {
        let table = [
            ("data", "./data"),
            ("./a/../b", "./b"),
            ("a/..", "."),
            ("../../home/u/.ssh", "../../home/u/.ssh"),
            ("a/../../x", "../x"),
            ("/srv/a/../b", "/srv/a/../b"),
        ];
        let mut wrong = Vec::new();
        for (source, want) in table {
            let config = format!(
                r#"{{"ociVersion": "1.0.2", "process": {{"args": ["true"]}}, "root": {{"path": "rootfs"}}, "mounts": [{{"destination": "/x", "type": "bind", "source": "{source}", "options": ["rbind", "ro"]}}]}}"#
            );
            let imported = crate::import::import(config.as_bytes(), crate::import::Format::Oci)
                .unwrap_or_else(|e| panic!("{config}: {e}"));
            let v: serde_json::Value = serde_json::from_str(&imported[0].profile_json).unwrap();
            if v["mounts"][0]["source"] != want {
                wrong.push(format!(
                    "{source}: {}, want {want}",
                    v["mounts"][0]["source"]
                ));
            }
        }
        crate::import::table_tests::assert_none_wrong(&wrong, table.len());
    }
}
