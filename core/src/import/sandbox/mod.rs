//! sandbox-runtime (`srt`, `~/.srt-settings.json`) settings and Claude
//! Code settings (`settings.json` with a `sandbox` section and permission
//! rules).
//!
//! Both sandbox an ordinary process: reads are allowed everywhere except
//! the paths denied (so the whole file system is a read-only mount, and a
//! plain denied path is in its `excludes`; a denied glob cannot narrow
//! it and is a note), writes only
//! where allowed, network only to allowed domains through a proxy.
//! Commands that run outside the sandbox (Claude Code's
//! `excludedCommands`, and the `dangerouslyDisableSandbox` escape hatch
//! unless `allowUnsandboxedCommands` is false) get a second profile,
//! `outside-sandbox`, with no boundary at all.

use super::builder::{Draft, OVal};
use super::read;

pub(super) mod schema;
use super::shape::{self, Shape};
use super::tree::{self, Loc, SNode};
use super::{expand_home, shell, ImportError, ImportErrorKind};

const SRT_FS: &[&str] = &["denyRead", "allowRead", "allowWrite", "denyWrite"];
const SRT_NET: &[&str] = &[
    "allowedDomains",
    "deniedDomains",
    "allowUnixSockets",
    "allowAllUnixSockets",
    "allowLocalBinding",
];

pub fn looks_like(root: &SNode) -> bool {
    let has_any = |n: Option<&SNode>, keys: &[&str]| {
        n.is_some_and(|n| keys.iter().any(|k| n.entry(k).is_some()))
    };
    root.get("sandbox").is_some_and(SNode::is_map)
        || has_any(
            root.get("permissions"),
            &[
                "allow",
                "deny",
                "ask",
                "additionalDirectories",
                "defaultMode",
            ],
        )
        || has_any(root.get("filesystem"), SRT_FS)
        || has_any(root.get("network"), SRT_NET)
}

/// Which tool the file configures.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Tool {
    Srt,
    Claude,
}

pub fn import(bytes: &[u8]) -> Result<Vec<(String, Draft)>, ImportError> {
    let root = tree::from_json(bytes)?;
    read::map(&root, "settings")?;
    if !looks_like(&root) {
        return Err(ImportError::new(ImportErrorKind::Unrecognized(
            "not sandbox settings: no `sandbox`, `permissions`, `filesystem` or `network` section with sandbox keys".into(),
        ))
        .at(root.loc));
    }
    let claude = root.get("sandbox").is_some() || root.get("permissions").is_some();
    let tool = if claude { Tool::Claude } else { Tool::Srt };
    // Every key is held to the tool's types before it is read; keys the
    // import does not know, at every level, are notes of every profile.
    let table = match tool {
        Tool::Claude => &schema::CLAUDE_TOP,
        Tool::Srt => &schema::SRT_TOP,
    };
    let mut walked = Draft::new("", "", root.loc);
    shape::walk(&mut walked, &root, &Shape::Map(table), "", &|p| {
        format!("unknown field `{p}` is not audited by this import")
    })?;
    let out = import_as(&root, tool)?;
    Ok(out
        .into_iter()
        .map(|(name, mut d)| {
            shape::adopt_notes(&mut d, &walked);
            (name, d)
        })
        .collect())
}

fn import_as(root: &SNode, tool: Tool) -> Result<Vec<(String, Draft)>, ImportError> {
    let cfg = match tool {
        Tool::Claude => read::opt_map(root, "sandbox")?,
        Tool::Srt => Some(root),
    };
    let enabled = match (tool, cfg) {
        (Tool::Srt, _) => Some((true, root.loc)),
        (Tool::Claude, Some(c)) => read::opt_bool(c, "enabled")?,
        (Tool::Claude, None) => None,
    };
    let mut out = Vec::new();
    if enabled.is_some_and(|(e, _)| e) {
        out.push((String::new(), sandboxed(root, cfg, tool)?));
    } else {
        let at = enabled.map_or(cfg.map_or(root.loc, |c| c.loc), |(_, l)| l);
        let mut d = unsandboxed(
            "claude-code",
            "imported from Claude Code settings (sandbox off)",
            at,
        );
        d.note(at, "`sandbox.enabled` is not true: bash commands run without the sandbox (Claude Code's default)");
        environment(&mut d, root, at)?;
        out.push((String::new(), d));
        return Ok(out);
    }
    if tool == Tool::Claude {
        if let Some(d) = outside(root, cfg)? {
            out.push(("outside-sandbox".to_string(), d));
        }
    }
    Ok(out)
}

fn common_undeclared(d: &mut Draft) {
    for (ptr, why) in [
        ("/tenancy", "the settings do not say who wrote the code the commands run"),
        ("/needs", "the settings do not list the task's required inputs and outputs"),
        ("/credentials", "credentials reach commands through the inherited environment or readable files, if at all"),
        ("/limits", "the settings set no time, memory, CPU, process or output limits"),
        ("/concurrency", "the settings do not bound concurrent commands"),
        ("/dependencies", "the settings do not say how dependencies are prepared"),
        ("/artifacts", "the sandbox does not collect artifacts"),
        ("/cleanup", "commands run on the user's machine; nothing is destroyed afterwards"),
        ("/boundary/user", "commands run as the user who starts the tool"),
        ("/boundary/capabilities", "commands keep the capabilities of the user who starts the tool"),
        ("/boundary/privileged", "commands run as the user who starts the tool"),
        ("/boundary/seccomp", "seccomp is used on Linux only, for unix sockets"),
        ("/boundary/no_new_privileges", "whether setuid programs are neutralized depends on the platform"),
    ] {
        d.undeclared(ptr, why);
    }
}

fn mount(d: &mut Draft, source: &str, access: &str, at: Loc) -> String {
    let p = d.push("/mounts", OVal::obj(), at);
    d.set_field(&p, "source", source, at);
    d.set_field(&p, "target", source, at);
    d.set_field(&p, "access", access, at);
    p
}

/// `p` in normal form (`//`, `.` and a trailing `/` gone), or `None` for a
/// path that is not absolute or holds `..` (the sandbox resolves those on
/// the host after following links, which the text does not show).
fn plain_absolute(p: &str) -> Option<String> {
    if !p.starts_with('/') {
        return None;
    }
    let mut parts = Vec::new();
    for c in p.split('/') {
        match c {
            "" | "." => {}
            ".." => return None,
            c => parts.push(c),
        }
    }
    Some(format!("/{}", parts.join("/")))
}

/// The strict ancestors of a path in normal form, nearest first, `/` last.
fn ancestors(p: &str) -> impl Iterator<Item = &str> {
    let mut cur = Some(p);
    std::iter::from_fn(move || {
        let c = cur?;
        let up = match c.rfind('/') {
            Some(0) if c.len() > 1 => Some("/"),
            Some(i) if i > 0 => c.get(..i),
            _ => None,
        };
        cur = up;
        up
    })
}

/// Whether a path is a pattern (`*`, `?` or a bracket class), which
/// sandbox-runtime matches as a glob.
fn is_glob(raw: &str) -> bool {
    raw.contains(['*', '?', '[', ']'])
}

/// `filesystem.denyRead` as the sandbox applies it: a denied path is
/// hidden from every mount that shows it (the profile's `excludes`),
/// unless an `allowRead` path covers it again (sandbox-runtime's
/// `allowRead` "takes precedence over denyRead"), and an `allowRead` path
/// strictly inside a denied one is readable again (a read-only mount of
/// its own). Only plain absolute paths take part: a glob, a relative
/// path or one with `..` keeps the exposure, with a note saying why.
fn deny_reads(
    d: &mut Draft,
    denied: &[(String, Loc)],
    allowed: &[(String, Loc)],
    placed: &[(String, String, Loc)],
) {
    // The re-allowed paths: a glob re-allows anything beneath its static
    // directory, so that directory stands for it (wider is safer here).
    let mut again: Vec<(String, String, Loc)> = Vec::new();
    for (raw, at) in allowed {
        d.note(*at, format!("`{raw}` is readable again inside any denied path (allowRead takes precedence over denyRead)"));
        let base = if is_glob(raw) {
            glob_base(raw)
        } else {
            raw.clone()
        };
        let expanded = expand_home(&strip_double_slash(&base)).unwrap_or(base);
        match plain_absolute(&expanded) {
            Some(p) => again.push((p, raw.clone(), *at)),
            None => {
                // Where it points is unknown: every denial may be undone.
                again.push(("/".to_string(), raw.clone(), *at));
            }
        }
    }
    let mut per_mount: Vec<Vec<(String, Loc)>> = vec![Vec::new(); placed.len()];
    let mut listed: std::collections::BTreeSet<(usize, String)> = std::collections::BTreeSet::new();
    let mut add = |per_mount: &mut Vec<Vec<(String, Loc)>>, i: usize, p: &str, at: Loc| {
        if listed.insert((i, p.to_string())) {
            if let Some(list) = per_mount.get_mut(i) {
                list.push((p.to_string(), at));
            }
        }
    };
    // Mounts by target, to find those enclosing a path by walking its
    // ancestors (a settings file of many paths stays near-linear).
    let mut by_target: std::collections::BTreeMap<String, Vec<usize>> = Default::default();
    for (i, (_, t, _)) in placed.iter().enumerate() {
        if let Some(t) = plain_absolute(t) {
            by_target.entry(t).or_default().push(i);
        }
    }
    // The sandbox mounts the writable paths over the read-only root (and
    // each later path over an earlier one): the enclosing mount does not
    // show what is mounted on top of it, so mount order is stated, not
    // left to the reader.
    for (j, (_, t, at)) in placed.iter().enumerate() {
        let Some(inner) = plain_absolute(t) else {
            continue;
        };
        for outer in ancestors(&inner) {
            for &i in by_target.get(outer).map_or(&[][..], |v| v.as_slice()) {
                if i < j {
                    add(&mut per_mount, i, &inner, *at);
                }
            }
        }
    }
    let again_set: std::collections::BTreeMap<String, String> = again
        .iter()
        .map(|(p, raw, _)| (p.clone(), raw.clone()))
        .collect();
    let again_at: std::collections::BTreeMap<&str, Loc> =
        again.iter().map(|(p, _, l)| (p.as_str(), *l)).collect();
    let mut reopened: Vec<(String, Loc)> = Vec::new();
    let mut reopened_set: std::collections::BTreeSet<String> = Default::default();
    for (raw, at) in denied {
        if is_glob(raw) {
            d.note(*at, format!("`{raw}` is a pattern: a denied pattern cannot narrow what a mount exposes here, so everything it could match still counts as readable"));
            continue;
        }
        let expanded =
            expand_home(&strip_double_slash(raw)).unwrap_or_else(|| strip_double_slash(raw));
        let Some(deny) = plain_absolute(&expanded).filter(|p| p != "/") else {
            d.note(*at, format!("reads of `{raw}` are denied, but it is not a plain absolute path below `/` (relative, `..`, or `/` itself): the mounts still count as exposing it"));
            continue;
        };
        let covered = std::iter::once(deny.as_str())
            .chain(ancestors(&deny))
            .find_map(|a| again_set.get(a));
        if let Some(by) = covered {
            d.note(*at, format!("reads of `{raw}` are denied, but `allowRead` `{by}` covers it again (allowRead takes precedence): it stays readable"));
            continue;
        }
        let mut hidden = false;
        for outer in ancestors(&deny) {
            for &i in by_target.get(outer).map_or(&[][..], |v| v.as_slice()) {
                add(&mut per_mount, i, &deny, *at);
                hidden = true;
            }
        }
        if hidden {
            d.note(*at, format!("reads of `{raw}` are denied: the mounts that show it list it in their `excludes`"));
        }
        let below = format!("{deny}/");
        for (a, by) in again_set.range(below.clone()..) {
            if !a.starts_with(&below) {
                break;
            }
            if reopened_set.insert(a.clone()) {
                let a_at = again_at.get(a.as_str()).copied().unwrap_or(*at);
                reopened.push((a.clone(), a_at));
                d.note(
                    a_at,
                    format!(
                        "`allowRead` `{by}` makes `{a}` readable again inside the denied `{raw}`"
                    ),
                );
            }
        }
    }
    for ((ptr, _, _), list) in placed.iter().zip(per_mount) {
        if !list.is_empty() {
            let at = list.first().map_or(Loc::default(), |(_, l)| *l);
            d.set_list(&format!("{ptr}/excludes"), at, list);
        }
    }
    for (p, at) in reopened {
        mount(d, &p, "read-only", at);
    }
}

fn strip_double_slash(raw: &str) -> String {
    raw.strip_prefix("//")
        .map(|p| format!("/{p}"))
        .unwrap_or_else(|| raw.to_string())
}

/// The directory beneath which a glob can match (sandbox-runtime's
/// `normalizePathForSandbox` reading).
fn glob_base(raw: &str) -> String {
    match raw.find(['*', '?', '[', ']']) {
        Some(i) => {
            let prefix = raw.get(..i).unwrap_or("");
            match prefix.rfind('/') {
                Some(0) => "/".to_string(),
                Some(j) => prefix.get(..j).unwrap_or("/").to_string(),
                None => ".".to_string(),
            }
        }
        None => raw.to_string(),
    }
}

/// A path as written in the settings, with `~` shown as a home directory.
fn path(d: &mut Draft, raw: &str, at: Loc) -> String {
    let raw = strip_double_slash(raw);
    // A glob is a pattern (Seatbelt matches it on macOS): what it can
    // match lies beneath its static directory, as sandbox-runtime's
    // `normalizePathForSandbox` takes it, so that directory is audited.
    let trimmed = match is_glob(&raw) {
        true => {
            let base = glob_base(&raw);
            d.note(
                at,
                format!("`{raw}` is a pattern: it can match anything beneath `{base}`, which is audited in its place"),
            );
            base
        }
        false => raw.clone(),
    };
    match expand_home(&trimmed) {
        Some(e) => e,
        None => trimmed,
    }
}

/// A profile for commands that run with no sandbox at all.
fn unsandboxed(name: &str, purpose: &str, at: Loc) -> Draft {
    let mut d = Draft::new(name, purpose, at);
    d.set("/boundary/kind", "process", at);
    d.set_words_at("/boundary/host_namespaces", at, &super::ALL_NAMESPACES);
    d.set("/boundary/read_only_root", false, at);
    d.undeclared("/boundary/runtime", "no sandbox runtime is involved");
    mount(&mut d, "/", "read-write", at);
    d.set("/network/egress", "allow-all", at);
    d.set("/network/enforced_by", "none", at);
    d.set("/environment/inherit", true, at);
    common_undeclared(&mut d);
    d
}

fn environment(d: &mut Draft, root: &SNode, at: Loc) -> Result<(), ImportError> {
    d.set("/environment/inherit", true, at);
    if let Some(env) = read::opt_map(root, "env")? {
        d.set("/environment/variables", OVal::obj(), env.loc);
        for e in env.entries() {
            let v = read::text(&e.value, &e.key)?;
            d.set(&Draft::variable_ptr(&e.key), v, e.value.loc);
        }
    }
    Ok(())
}

/// `Tool(argument)` permission rules of one kind from `permissions.<list>`.
fn rules(root: &SNode, list: &str, tool: &str) -> Result<Vec<(String, Loc)>, ImportError> {
    let Some(perms) = read::opt_map(root, "permissions")? else {
        return Ok(Vec::new());
    };
    Ok(read::opt_strs(perms, list, false)?
        .unwrap_or_default()
        .into_iter()
        .filter_map(|(r, at)| {
            let inner = r.strip_prefix(tool)?.strip_prefix('(')?.strip_suffix(')')?;
            Some((inner.to_string(), at))
        })
        .collect())
}

fn sandboxed(root: &SNode, cfg: Option<&SNode>, tool: Tool) -> Result<Draft, ImportError> {
    let anchor = cfg.map_or(root.loc, |c| c.loc);
    let (name, purpose) = match tool {
        Tool::Srt => (
            "sandbox-runtime",
            "imported from sandbox-runtime (srt) settings",
        ),
        Tool::Claude => (
            "claude-code-sandbox",
            "imported from Claude Code sandbox settings",
        ),
    };
    let mut d = Draft::new(name, purpose, anchor);
    d.undeclared(
        "/boundary/kind",
        "the sandbox is bubblewrap's namespaces on Linux and a plain process under Seatbelt on macOS; the settings do not say which platform runs it",
    );
    d.set("/boundary/runtime/name", "sandbox-runtime", anchor);
    d.undeclared(
        "/boundary/runtime/version",
        "the settings do not pin the sandbox-runtime version",
    );
    d.undeclared(
        "/boundary/runtime/patched_on",
        "the settings do not say when the sandbox was last updated",
    );
    d.undeclared(
        "/boundary/host_namespaces",
        "which namespaces the sandbox separates depends on the platform (bubblewrap on Linux, Seatbelt on macOS)",
    );
    common_undeclared(&mut d);

    let fs = match cfg {
        Some(c) => read::opt_map(c, "filesystem")?,
        None => None,
    };
    let fs_at = fs.map_or(anchor, |f| f.loc);
    // Every mount placed, as (pointer, target): `denyRead` hides paths
    // from each of them once all are known.
    let mut placed: Vec<(String, String, Loc)> = Vec::new();
    placed.push((
        mount(&mut d, "/", "read-only", fs_at),
        "/".to_string(),
        fs_at,
    ));
    d.set("/boundary/read_only_root", true, fs_at);
    d.note(fs_at, "reads are allowed everywhere except denied paths: the whole file system is a read-only mount, with the denied paths as its `excludes`");
    if tool == Tool::Claude {
        mount(&mut d, ".", "read-write", anchor);
        d.note(anchor, "the working directory (`.`) is writable by default");
    }
    let mut denied: Vec<(String, Loc)> = Vec::new();
    let mut allowed: Vec<(String, Loc)> = Vec::new();
    if let Some(fs) = fs {
        for (p, at) in read::opt_strs(fs, "allowWrite", false)?.unwrap_or_default() {
            let src = path(&mut d, &p, at);
            placed.push((mount(&mut d, &src, "read-write", at), src, at));
        }
        denied = read::opt_strs(fs, "denyRead", false)?.unwrap_or_default();
        allowed = read::opt_strs(fs, "allowRead", false)?.unwrap_or_default();
        for (p, at) in read::opt_strs(fs, "denyWrite", false)?.unwrap_or_default() {
            d.note(
                at,
                format!(
                    "writes to `{p}` are denied inside the writable paths (no profile equivalent)"
                ),
            );
        }
    }
    if tool == Tool::Claude {
        for (p, at) in rules(root, "allow", "Edit")? {
            let src = path(&mut d, &p, at);
            placed.push((mount(&mut d, &src, "read-write", at), src, at));
        }
        for (p, at) in rules(root, "deny", "Read")? {
            d.note(at, format!("`Read({p})` is denied; the profile has no exclusions, so the `/` mount still counts as exposing it"));
        }
        if let Some(perms) = read::opt_map(root, "permissions")? {
            for (p, at) in
                read::opt_strs(perms, "additionalDirectories", false)?.unwrap_or_default()
            {
                let src = path(&mut d, &p, at);
                placed.push((mount(&mut d, &src, "read-write", at), src, at));
            }
            match read::opt_str(perms, "defaultMode")? {
                Some(("bypassPermissions", at)) => d.note(at, "`bypassPermissions`: nothing asks for approval, including commands outside the sandbox"),
                Some(("default", _)) | None => {}
                Some((mode, at)) => d.note(at, format!("`defaultMode: {mode}` changes what Claude Code asks before acting; it is not mapped")),
            }
            // Rules the profile has no place for still say what runs
            // without asking, or what is refused.
            for list in ["allow", "deny"] {
                for (r, at) in read::opt_strs(perms, list, false)?.unwrap_or_default() {
                    let mapped = r.starts_with("Edit(")
                        || r.starts_with("WebFetch(domain:")
                        || (list == "deny" && r.starts_with("Read("));
                    if !mapped {
                        d.note(at, format!("`{list}` rule `{r}` is not mapped"));
                    }
                }
            }
        }
    }

    let net = match cfg {
        Some(c) => read::opt_map(c, "network")?,
        None => None,
    };
    let net_at = net.map_or(anchor, |n| n.loc);
    let mut domains: Vec<(String, Loc)> = match net {
        Some(n) => read::opt_strs(n, "allowedDomains", false)?.unwrap_or_default(),
        None => Vec::new(),
    };
    if tool == Tool::Claude {
        for (r, at) in rules(root, "allow", "WebFetch")? {
            if let Some(dom) = r.strip_prefix("domain:") {
                domains.push((dom.to_string(), at));
            }
        }
    }
    // With domains, the allow-list is the runtime's filtering proxy, and
    // the OS sandbox refuses direct connections (a network namespace with
    // only the proxy bridged in on Linux, Seatbelt on macOS): two layers.
    // `enableWeakerNetworkIsolation` opens a system service around the
    // proxy, so only the proxy is left.
    let weaker_net = match cfg {
        Some(c) => read::opt_bool(c, "enableWeakerNetworkIsolation")?,
        None => None,
    };
    match weaker_net {
        Some((true, at)) => {
            d.set("/network/enforced_by", "proxy", at);
            d.note(at, "`enableWeakerNetworkIsolation` lets sandboxed commands reach the system TLS trust service (macOS), a path out that the proxy does not see: only the proxy is left");
        }
        _ if domains.is_empty() => d.set("/network/enforced_by", "firewall", net_at),
        _ => d.set(
            "/network/enforced_by",
            vec!["proxy".to_string(), "firewall".to_string()],
            net_at,
        ),
    }
    d.set("/network/allow", OVal::arr(), net_at);
    if domains.is_empty() {
        d.set("/network/egress", "deny", net_at);
        if tool == Tool::Claude {
            d.note(net_at, "no allowed domains: a new domain prompts for approval, and an approved one becomes reachable");
        }
    } else {
        d.set("/network/egress", "allow-list", net_at);
        for (dom, at) in domains {
            let p = d.push("/network/allow", OVal::obj(), at);
            d.set_field(&p, "host", dom, at);
        }
        d.set("/network/dns", "system", net_at);
        d.note(
            net_at,
            "allowed domains are checked by name at the sandbox's proxy, and direct connections are blocked by the OS sandbox (recorded as a second layer, `firewall`); names resolve through the host's DNS",
        );
    }
    if let Some(n) = net {
        for (dom, at) in read::opt_strs(n, "deniedDomains", false)?.unwrap_or_default() {
            d.note(
                at,
                format!("`{dom}` is denied even if an allowed pattern covers it"),
            );
        }
        // An allowed socket is a connection the sandbox lets through, not
        // a place the job may write: it is shown as a read-only mount of
        // the socket (which does not stop `connect`), so the rules about
        // what listens there still see it.
        for (sock, at) in read::opt_strs(n, "allowUnixSockets", false)?.unwrap_or_default() {
            let src = path(&mut d, &sock, at);
            mount(&mut d, &src, "read-only", at);
            d.note(at, format!("unix socket `{sock}` can be connected to from the sandbox (macOS; on Linux the path list is not enforced)"));
        }
        if let Some((true, at)) = read::opt_bool(n, "allowAllUnixSockets")? {
            d.set("/boundary/unix_sockets", "allowed", at);
            d.note(
                at,
                "`allowAllUnixSockets`: every unix socket the sandbox can see can be connected to",
            );
            // Which sockets the host has at run time (an ssh-agent under
            // `/tmp`, a session bus, an engine socket at a custom path) is
            // not in the settings: the verdict cannot rest on it.
            d.unread(
                at,
                "`allowAllUnixSockets`: the sandbox can connect to every unix socket it can see on the host, and which sockets exist there (an ssh-agent under `/tmp`, a session bus, an engine socket at a custom path) is not in the settings",
            );
        }
        if let Some((true, at)) = read::opt_bool(n, "allowLocalBinding")? {
            d.note(
                at,
                "`allowLocalBinding`: commands can listen on local ports",
            );
        }
        for key in ["httpProxyPort", "socksProxyPort"] {
            if let Some(e) = n.entry(key).filter(|e| !e.value.is_null()) {
                d.note(e.key_loc, format!("`{key}`: a proxy you run decides which domains are reachable; it is not audited here"));
                // The egress policy is that proxy's, which the settings do
                // not hold.
                d.unread(
                    e.key_loc,
                    format!("`{key}`: which destinations are reachable is decided by a proxy outside the sandbox whose policy is not in the settings"),
                );
            }
        }
    }
    if let Some(c) = cfg {
        if let Some((true, at)) = read::opt_bool(c, "enableWeakerNestedSandbox")? {
            // bwrap then mounts no /proc of its own: the host's, seen
            // through the read-only `/`, shows every host process.
            d.set("/boundary/masked_paths", false, at);
            d.set("/boundary/unmasked_paths", vec!["/proc".to_string()], at);
            d.note(
                at,
                "`enableWeakerNestedSandbox`: the sandbox mounts no /proc of its own, so the host's `/proc` (its processes and kernel files) is readable",
            );
        }
        if let Some((true, at)) = read::opt_bool(c, "allowPty")? {
            d.note(
                at,
                "`allowPty`: pseudo-terminal operations are allowed in the sandbox (macOS)",
            );
        }
    }
    if let Some(fs) = fs {
        if let Some((true, at)) = read::opt_bool(fs, "allowGitConfig")? {
            d.note(at, "`allowGitConfig`: writes to `.git/config` are allowed; a command can set `core.fsmonitor` or `core.hooksPath`, which git later runs outside the sandbox");
        }
    }
    // Without `allowAllUnixSockets` the sandbox refuses unix socket
    // connections (seccomp on Linux, Seatbelt on macOS) except to the
    // sockets allowed by name, which are mounted above.
    if !d.has("/boundary/unix_sockets") {
        d.set("/boundary/unix_sockets", "blocked", net_at);
    }
    deny_reads(&mut d, &denied, &allowed, &placed);
    if let Some(fs) = fs {
        // `filesystem.disabled` (sandbox-runtime): no read or write rule is
        // applied at all, the built-in write protections included.
        if let Some((true, at)) = read::opt_bool(fs, "disabled")? {
            mount(&mut d, "/", "read-write", at);
            d.set("/boundary/read_only_root", false, at);
            d.note(at, "`filesystem.disabled`: no read or write rule is applied, so the whole file system is writable from the sandbox");
        }
    }
    if let Some(c) = cfg {
        if let Some((true, at)) = read::opt_bool(c, "allowAppleEvents")? {
            // A launched application runs outside the sandbox: no
            // boundary is left for what a command chooses to open.
            d.set("/boundary/kind", "process", at);
            d.set("/boundary/read_only_root", false, at);
            mount(&mut d, "/", "read-write", at);
            d.set("/network/egress", "allow-all", at);
            d.set("/network/enforced_by", "none", at);
            d.note(at, "`allowAppleEvents`: sandboxed commands can launch other applications, which run unsandboxed (macOS): the profile is that of no sandbox");
        }
    }
    match tool {
        Tool::Srt => {
            // srt has no environment setting: commands get whatever
            // environment the process that starts `srt` has, which the
            // runner decides (`env -i ... srt`), and an overlay may state.
            d.undeclared(
                "/environment/inherit",
                "sandbox-runtime passes on the environment of the process that starts it; the settings do not say what that holds",
            );
        }
        Tool::Claude => {
            environment(&mut d, root, anchor)?;
            if d.get("/environment/variables").is_none() {
                d.set("/environment/variables", OVal::obj(), anchor);
            }
        }
    }
    d.note(
        anchor,
        "sandboxed commands inherit the environment of the process that starts them",
    );
    d.undeclared(
        "/command",
        "the model chooses the commands; the settings name none",
    );
    Ok(d)
}

/// A command run outside the sandbox: its words, or shell text, and where.
type Step = (Vec<(String, Loc)>, Option<String>, Loc);

/// The profile of commands Claude Code runs outside the sandbox, if any can.
fn outside(root: &SNode, cfg: Option<&SNode>) -> Result<Option<Draft>, ImportError> {
    let Some(cfg) = cfg else { return Ok(None) };
    let excluded = read::opt_strs(cfg, "excludedCommands", false)?.unwrap_or_default();
    let hatch = read::opt_bool(cfg, "allowUnsandboxedCommands")?;
    let hatch_open = hatch.is_none_or(|(b, _)| b);
    if excluded.is_empty() && !hatch_open {
        return Ok(None);
    }
    let at = cfg.get("excludedCommands").map_or(cfg.loc, |n| n.loc);
    let mut d = unsandboxed(
        "claude-code-outside-sandbox",
        "commands Claude Code runs outside its sandbox",
        at,
    );
    environment(&mut d, root, at)?;
    let mut steps: Vec<Step> = Vec::new();
    for (cmd, cat) in &excluded {
        let words: Vec<(String, Loc)> = shell::split(cmd, *cat)?
            .into_iter()
            .filter(|w| !w.operator && w.text != "*" && w.text != ":*")
            .map(|w| (w.text, *cat))
            .collect();
        if !words.is_empty() {
            steps.push((words, None, *cat));
        }
        d.note(*cat, format!("`{cmd}` always runs outside the sandbox"));
    }
    if hatch_open {
        let hat = hatch.map_or(cfg.loc, |(_, l)| l);
        steps.push((
            Vec::new(),
            Some("any command the model asks to run with dangerouslyDisableSandbox".to_string()),
            hat,
        ));
        d.note(
            hat,
            "`allowUnsandboxedCommands` is not false: the model can ask to run any command outside the sandbox (Claude Code's default)",
        );
    }
    d.ensure_array("/setup", at);
    for (i, (words, shell_text, sat)) in steps.into_iter().enumerate() {
        let base = if i == 0 {
            "/command".to_string()
        } else {
            d.push("/setup", OVal::obj(), sat)
        };
        d.map(&base, sat);
        match shell_text {
            Some(t) => d.set_field(&base, "shell", t, sat),
            None => d.set_command(&base, words, sat),
        }
    }
    Ok(Some(d))
}
