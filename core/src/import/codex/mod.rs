//! Codex CLI `config.toml`: `sandbox_mode`, `[sandbox_workspace_write]`
//! (`writable_roots`, `network_access`, `exclude_tmpdir_env_var`,
//! `exclude_slash_tmp`), `[shell_environment_policy]`, `approval_policy`,
//! `[profiles.NAME]` overrides, and the newer (beta) permission profiles
//! (`default_permissions` with `[permissions.NAME]`).
//!
//! Codex sandboxes an ordinary process (Seatbelt on macOS, Landlock and
//! seccomp or bubblewrap on Linux): the boundary kind is `process`, reads
//! are allowed everywhere unless a permission profile narrows them (so the
//! whole file system is a read-only mount), and the workspace is the
//! directory Codex starts in (`.`).

use super::builder::{Draft, OVal};
use super::invalid;
use super::read;

pub(super) mod schema;
use super::shape::{self, Shape};
use super::tree::{Loc, SNode};
use super::{expand_home, ImportError, ImportErrorKind};

pub fn looks_like(root: &SNode) -> bool {
    [
        "sandbox_mode",
        "sandbox_workspace_write",
        "shell_environment_policy",
        "approval_policy",
        "default_permissions",
        "permissions",
        "model",
        "model_provider",
        "profiles",
        "mcp_servers",
    ]
    .iter()
    .any(|k| root.entry(k).is_some())
}

/// Settings looked up in the selected profile first, then the top level.
struct Layers<'a> {
    layers: Vec<&'a SNode>,
}

impl<'a> Layers<'a> {
    fn get(&self, key: &str) -> Option<&'a SNode> {
        self.layers.iter().find_map(|l| l.get(key))
    }
    fn table(&self, key: &str) -> Result<Option<&'a SNode>, ImportError> {
        match self.get(key) {
            Some(t) => read::map(t, key).map(Some),
            None => Ok(None),
        }
    }
}

#[cfg(test)]
pub fn import(bytes: &[u8]) -> Result<Vec<(String, Draft)>, ImportError> {
    let mut out = Vec::new();
    import_into(bytes, &mut |name, d| out.push((name, d)))?;
    Ok(out)
}

/// [`import`], each profile's draft handed to `sink` as it is built: a
/// file of 60,000 `[profiles.*]` tables need not hold 60,000 drafts.
pub fn import_into(bytes: &[u8], sink: &mut dyn FnMut(String, Draft)) -> Result<(), ImportError> {
    let root = super::toml::parse(bytes)?;
    if !looks_like(&root) && !root.entries().is_empty() {
        return Err(ImportError::new(ImportErrorKind::Unrecognized(
            "not a Codex config.toml: none of `sandbox_mode`, `sandbox_workspace_write`, `shell_environment_policy`, `approval_policy`, `default_permissions`, `profiles`".into(),
        ))
        .at(root.loc));
    }
    // Types first, and the file's own keys walked once: every profile
    // gets their notes.
    let mut top = Draft::new("", "", root.loc);
    shape::walk(&mut top, &root, &Shape::Map(&schema::TOP), "", &unknown)?;
    let profiles = read::opt_map(&root, "profiles")?;
    let selected = read::opt_str(&root, "profile")?;
    let mut default_layers = Layers { layers: Vec::new() };
    let mut selected_layer = None;
    let selected_path = format!("profiles.{}", selected.map_or("", |(n, _)| n));
    if let Some((name, at)) = selected {
        match profiles.and_then(|p| p.get(name)) {
            Some(p) => {
                let layer = read::map(p, name)?;
                selected_layer = Some(layer);
                default_layers.layers.push(layer);
            }
            None => {
                return Err(invalid(
                    at,
                    format!("`profile = \"{name}\"` names no `[profiles.{name}]` table"),
                ))
            }
        }
    }
    default_layers.layers.push(&root);
    sink(
        String::new(),
        build(
            &root,
            &default_layers,
            "config.toml",
            root.loc,
            &top,
            selected_layer.map(|l| (l, selected_path.as_str())),
        )?,
    );
    if let Some(ps) = profiles {
        for e in ps.entries() {
            if selected.is_some_and(|(s, _)| s == e.key) {
                continue;
            }
            let layer = read::map(&e.value, &e.key)?;
            let layers = Layers {
                layers: vec![layer, &root],
            };
            let name = format!("profiles.{}", e.key);
            let d = build(&root, &layers, &name, e.key_loc, &top, Some((layer, &name)))?;
            sink(name, d);
        }
    }
    Ok(())
}

fn unknown(p: &str) -> String {
    format!("`{p}` is not a setting this import knows; it is not audited")
}

fn build(
    root: &SNode,
    l: &Layers<'_>,
    what: &str,
    anchor: Loc,
    top: &Draft,
    profile: Option<(&SNode, &str)>,
) -> Result<Draft, ImportError> {
    let mut d = Draft::new(
        if what == "config.toml" { "codex" } else { what },
        &format!("imported from Codex {what}"),
        anchor,
    );
    // Every key is held to Codex's types before it is read; keys the
    // import does not know, at every level, are notes.
    shape::adopt_notes(&mut d, top);
    if let Some((layer, path)) = profile {
        shape::walk(&mut d, layer, &Shape::Map(&schema::TOP), path, &unknown)?;
    }
    d.undeclared(
        "/boundary/runtime",
        "the sandbox is the operating system's (Seatbelt, Landlock and seccomp, or bubblewrap), at a version the config does not show",
    );
    for (ptr, why) in [
        (
            "/boundary/privileged",
            "commands run as the user who starts Codex",
        ),
        (
            "/boundary/user",
            "commands run as the user who starts Codex",
        ),
        (
            "/boundary/capabilities",
            "commands keep the capabilities of the user who starts Codex",
        ),
        (
            "/boundary/no_new_privileges",
            "whether setuid programs are neutralized depends on the platform's sandbox",
        ),
        (
            "/boundary/seccomp",
            "seccomp is used on Linux only, to block network calls",
        ),
    ] {
        d.undeclared(ptr, why);
    }

    // Which settings decide, as Codex's `resolve_permission_config_syntax`
    // chooses for one config file: the selected profile's `sandbox_mode`,
    // else `default_permissions` (the permission profile), else
    // `sandbox_mode`; the settings of the other kind are ignored.
    let profile_mode = profile.and_then(|(layer, _)| layer.get("sandbox_mode"));
    let permissions = l.get("default_permissions");
    let legacy = profile_mode.is_some() || permissions.is_none();
    let mode = if legacy { l.get("sandbox_mode") } else { None };
    if let (true, Some(p)) = (legacy, permissions) {
        d.note(
            p.loc,
            "`default_permissions` is ignored: the selected profile's `sandbox_mode` decides",
        );
    }
    if !legacy {
        if let Some(m) = l.get("sandbox_mode") {
            d.note(m.loc, "`sandbox_mode` is ignored: `default_permissions` selects a permission profile, which Codex reads instead");
        }
        if let Some(ww) = l.table("sandbox_workspace_write")? {
            if let Some(e) = ww.entry("network_access") {
                d.note(e.key_loc, "`network_access` is ignored: `default_permissions` selects a permission profile, whose `network` table decides");
            }
        }
    }
    if legacy {
        legacy_sandbox(&mut d, l, mode, anchor)?;
    } else if let Some(p) = permissions {
        permission_profile(&mut d, root, p)?;
    }

    environment(&mut d, l, anchor)?;

    if let Some(a) = l.get("approval_policy") {
        let v = if a.is_map() {
            "granular"
        } else {
            read::text(a, "approval_policy")?
        };
        let msg = match v {
            "never" => "`approval_policy = \"never\"`: commands run without asking; the sandbox is the only boundary",
            "on-failure" => "`approval_policy = \"on-failure\"`: a command that fails in the sandbox can be re-run outside it once approved",
            "on-request" => "`approval_policy = \"on-request\"`: the model can ask to run a command outside the sandbox",
            "untrusted" => "`approval_policy = \"untrusted\"`: commands outside a trusted set need approval",
            "granular" => "`approval_policy = { granular = ... }`: each kind of request to leave the sandbox is allowed or refused as configured",
            _ => "`approval_policy` has no profile equivalent",
        };
        d.note(a.loc, msg);
    }
    d.undeclared(
        "/command",
        "Codex runs whatever commands the model chooses; the config names none",
    );
    for (ptr, why) in [
        (
            "/tenancy",
            "the config does not say who wrote the code the commands run",
        ),
        (
            "/needs",
            "the config does not list the task's required inputs and outputs",
        ),
        (
            "/credentials",
            "credentials reach commands through the inherited environment, if at all",
        ),
        (
            "/limits",
            "Codex's config sets no time, memory, CPU, process or output limits for commands",
        ),
        (
            "/concurrency",
            "the config does not bound concurrent commands",
        ),
        (
            "/dependencies",
            "the config does not say how dependencies are prepared",
        ),
        ("/artifacts", "Codex does not collect artifacts"),
        (
            "/cleanup",
            "commands run on the user's machine; nothing is destroyed afterwards",
        ),
    ] {
        d.undeclared(ptr, why);
    }
    outside_sandbox(&mut d, root, l)?;
    Ok(d)
}

/// What Codex itself starts, outside the sandbox its commands get: MCP
/// servers and the `notify` program run with the user's full access, so
/// they are setup steps; a trusted `/` project trusts every directory.
fn outside_sandbox(d: &mut Draft, root: &SNode, l: &Layers<'_>) -> Result<(), ImportError> {
    if let Some(servers) = l.table("mcp_servers")? {
        for e in servers.entries() {
            let server = read::map(&e.value, &e.key)?;
            match read::opt_str(server, "command")? {
                Some((cmd, at)) => {
                    let p = d.push("/setup", OVal::obj(), e.key_loc);
                    d.set_field(&p, "executable", cmd, at);
                    let args = read::opt_strs(server, "args", false)?.unwrap_or_default();
                    d.set_list(&format!("{p}/arguments"), at, args);
                    d.note(e.key_loc, format!("MCP server `{}` is started by Codex outside the sandbox, with the user's full access; it is audited as a setup step", e.key));
                    if let Some(u) = server.get("url") {
                        d.note(u.loc, format!("MCP server `{}` names both `command` and `url`; the command is audited", e.key));
                    }
                }
                None => {
                    if server.get("url").is_some() {
                        d.note(e.key_loc, format!("MCP server `{}` is reached over the network; what it can do is not in this file", e.key));
                    } else {
                        d.note(
                            e.key_loc,
                            format!("MCP server `{}` names no `command` or `url`", e.key),
                        );
                    }
                }
            }
            if let Some(env) = server.entry("env") {
                d.note(
                    env.key_loc,
                    format!(
                        "MCP server `{}` gets extra environment variables (values not shown)",
                        e.key
                    ),
                );
            }
        }
    }
    if let Some(n) = l.get("notify") {
        let words = match &n.value {
            super::tree::SValue::Seq(items) => read::texts(items, "notify")?,
            _ => Vec::new(),
        };
        if !words.is_empty() {
            let p = d.push("/setup", OVal::obj(), n.loc);
            d.set_command(&p, words, n.loc);
            d.note(n.loc, "`notify` runs a program outside the sandbox after each turn; it is audited as a setup step");
        }
    }
    if let Some(projects) = read::opt_map(root, "projects")? {
        for e in projects.entries() {
            let level = e.value.get("trust_level").and_then(SNode::as_str);
            if level == Some("trusted") {
                if holds_homes(&e.key) {
                    // Codex reads a trusted project's own
                    // `.codex/config.toml`: every repository under a home
                    // can then start programs outside the sandbox and turn
                    // it off, from files this one does not show.
                    let p = d.push("/setup", OVal::obj(), e.key_loc);
                    d.set_field(
                        &p,
                        "shell",
                        format!("the mcp_servers, notify and hooks commands of the .codex/config.toml of any repository under {}", e.key),
                        e.key_loc,
                    );
                    d.note(e.key_loc, format!("`[projects.\"{}\"]` is trusted, which trusts every repository below it: Codex loads each one's `.codex/config.toml`, which can start programs outside the sandbox and set `sandbox_mode`; audited as a setup step that runs them", e.key));
                } else {
                    d.note(
                        e.key_loc,
                        format!(
                            "project `{}` is trusted: Codex relaxes approvals there",
                            e.key
                        ),
                    );
                }
            }
        }
    }
    Ok(())
}

/// Whether a project path is a home directory or a directory above homes
/// (`~`, `$HOME`, `/home/u`, `/Users/u`, `/root`, `/home`, `/`).
fn holds_homes(path: &str) -> bool {
    let p = path.trim();
    let p = p.strip_suffix('/').filter(|r| !r.is_empty()).unwrap_or(p);
    if expand_home(p).as_deref() == Some(super::HOME_PLACEHOLDER) {
        return true;
    }
    let parts: Vec<&str> = p.split('/').filter(|c| !c.is_empty()).collect();
    p.starts_with('/')
        && matches!(
            parts.as_slice(),
            [] | ["root"] | ["home"] | ["Users"] | ["home" | "Users", _]
        )
}

fn mount(d: &mut Draft, source: &str, access: &str, at: Loc) {
    let p = d.push("/mounts", OVal::obj(), at);
    d.set_field(&p, "source", source, at);
    d.set_field(&p, "target", source, at);
    d.set_field(&p, "access", access, at);
}

/// Namespaces: with the sandbox off, the commands share all of the host's;
/// with it on, it depends on the platform (Seatbelt shares them, bubblewrap
/// may not), so the field stays undeclared.
fn process_namespaces(d: &mut Draft, sandbox_off: bool, at: Loc) {
    if sandbox_off {
        d.set("/boundary/kind", "process", at);
        d.set_words_at("/boundary/host_namespaces", at, &super::ALL_NAMESPACES);
    } else {
        // Seatbelt on macOS confines a plain process; on Linux the
        // commands run in bubblewrap's namespaces (or under Landlock).
        d.undeclared(
            "/boundary/kind",
            "the sandbox is a plain process on macOS (Seatbelt) and namespaces on Linux (bubblewrap); the config does not say which platform runs it",
        );
        d.undeclared(
            "/boundary/host_namespaces",
            "which namespaces the sandbox separates depends on the platform (Seatbelt shares all of them; bubblewrap may not)",
        );
    }
}

fn network(d: &mut Draft, allowed: bool, at: Loc) {
    // The same filter that blocks network calls refuses connections to
    // unix sockets (seccomp denies `connect`; Seatbelt denies outbound
    // network, unix sockets included), so sockets the process can read
    // cannot be used unless the network is allowed.
    if allowed {
        d.set("/network/egress", "allow-all", at);
        d.set("/network/enforced_by", "none", at);
        d.set("/boundary/unix_sockets", "allowed", at);
    } else {
        d.set("/boundary/unix_sockets", "blocked", at);
        d.set("/network/egress", "deny", at);
        d.set("/network/enforced_by", "firewall", at);
        d.set("/network/allow", OVal::arr(), at);
        d.note(at, "network calls are blocked by the OS sandbox (seccomp on Linux, Seatbelt on macOS); mapped as a firewall");
    }
}

fn legacy_sandbox(
    d: &mut Draft,
    l: &Layers<'_>,
    mode: Option<&SNode>,
    anchor: Loc,
) -> Result<(), ImportError> {
    let (mode, at) = match mode {
        Some(m) => (read::text(m, "sandbox_mode")?, m.loc),
        None => {
            d.note(anchor, "no `sandbox_mode`: Codex's default is `read-only`");
            ("read-only", anchor)
        }
    };
    d.map("/mounts", at);
    match mode {
        "read-only" => {
            mount(d, "/", "read-only", at);
            d.set("/boundary/read_only_root", true, at);
            process_namespaces(d, false, at);
            network(d, false, at);
        }
        "workspace-write" => {
            mount(d, "/", "read-only", at);
            d.set("/boundary/read_only_root", true, at);
            let ww = l.table("sandbox_workspace_write")?;
            let ww_at = ww.map_or(at, |t| t.loc);
            mount(d, ".", "read-write", at);
            d.note(at, "the workspace (`.`) is the directory Codex starts in; `.git` and `.codex` inside writable roots stay read-only");
            let slash_tmp = match ww {
                Some(t) => read::opt_bool(t, "exclude_slash_tmp")?,
                None => None,
            };
            if !slash_tmp.is_some_and(|(b, _)| b) {
                mount(d, "/tmp", "read-write", slash_tmp.map_or(ww_at, |(_, l)| l));
            }
            let tmpdir = match ww {
                Some(t) => read::opt_bool(t, "exclude_tmpdir_env_var")?,
                None => None,
            };
            if !tmpdir.is_some_and(|(b, _)| b) {
                d.note(tmpdir.map_or(ww_at, |(_, l)| l), "`$TMPDIR` is writable too; its path is not in the config");
            }
            if let Some(t) = ww {
                for (root, rat) in read::opt_strs(t, "writable_roots", false)?.unwrap_or_default() {
                    let src = match expand_home(&root) {
                        Some(e) => {
                            d.note(rat, format!("`{root}` is in the home directory of whoever runs Codex; shown as `{e}`"));
                            e
                        }
                        None => root,
                    };
                    mount(d, &src, "read-write", rat);
                }
            }
            let net = match ww {
                Some(t) => read::opt_bool(t, "network_access")?,
                None => None,
            };
            let allowed = net.is_some_and(|(b, _)| b);
            process_namespaces(d, false, at);
            network(d, allowed, net.map_or(ww_at, |(_, l)| l));
        }
        "danger-full-access" => {
            mount(d, "/", "read-write", at);
            d.set("/boundary/read_only_root", false, at);
            process_namespaces(d, true, at);
            network(d, true, at);
            d.note(at, "`danger-full-access` turns the sandbox off: commands have the user's full access");
        }
        other => {
            return Err(invalid(
                at,
                format!("unknown `sandbox_mode` `{other}`; expected read-only, workspace-write or danger-full-access"),
            ))
        }
    }
    Ok(())
}

fn permission_profile(d: &mut Draft, root: &SNode, p: &SNode) -> Result<(), ImportError> {
    let name = read::text(p, "default_permissions")?;
    d.note(p.loc, "permission profiles are a beta Codex feature; their mapping follows the documentation at the time of writing");
    let builtin = |d: &mut Draft, b: &str, at: Loc| -> Result<bool, ImportError> {
        match b {
            ":read-only" => {
                mount(d, "/", "read-only", at);
                d.set("/boundary/read_only_root", true, at);
                process_namespaces(d, false, at);
                network(d, false, at);
            }
            ":workspace" => {
                mount(d, "/", "read-only", at);
                mount(d, ".", "read-write", at);
                mount(d, "/tmp", "read-write", at);
                d.set("/boundary/read_only_root", true, at);
                process_namespaces(d, false, at);
                network(d, false, at);
            }
            ":danger-full-access" | ":danger-no-sandbox" => {
                mount(d, "/", "read-write", at);
                d.set("/boundary/read_only_root", false, at);
                process_namespaces(d, true, at);
                network(d, true, at);
            }
            _ => return Ok(false),
        }
        Ok(true)
    };
    if builtin(d, name, p.loc)? {
        return Ok(());
    }
    let prof = root
        .get("permissions")
        .and_then(|ps| ps.get(name))
        .ok_or_else(|| invalid(p.loc, format!("`default_permissions` names `{name}`, which has no `[permissions.{name}]` table")))?;
    let prof = read::map(prof, name)?;
    let mut network_set = false;
    if let Some((ext, at)) = read::opt_str(prof, "extends")? {
        if !builtin(d, ext, at)? {
            d.note(at, format!("`extends = \"{ext}\"` is not a built-in profile; its rules are not merged here"));
        } else {
            network_set = true;
        }
    }
    d.ensure_array("/mounts", prof.loc);
    if let Some(fs) = read::opt_map(prof, "filesystem")? {
        for e in fs.entries() {
            match (&e.value.value, e.key.as_str()) {
                (super::tree::SValue::Map(_), k) => {
                    // Rules scoped under a root (`":workspace_roots"`): keys are relative paths.
                    let base = if k.starts_with(':') {
                        ".".to_string()
                    } else {
                        k.to_string()
                    };
                    for sub in e.value.entries() {
                        let v = read::text(&sub.value, &sub.key)?;
                        let path = if sub.key == "." {
                            base.clone()
                        } else {
                            format!("{base}/{}", sub.key)
                        };
                        fs_rule(d, &path, v, sub.value.loc);
                    }
                }
                (_, k) => {
                    let v = read::text(&e.value, k)?;
                    match k {
                        ":minimal" => d.note(
                            e.value.loc,
                            "`:minimal` grants the system paths programs need to start",
                        ),
                        ":workspace_roots" | ":project_roots" => fs_rule(d, ".", v, e.value.loc),
                        ":slash_tmp" => fs_rule(d, "/tmp", v, e.value.loc),
                        ":tmpdir" => d.note(
                            e.value.loc,
                            format!("`$TMPDIR` is `{v}`; its path is not in the config"),
                        ),
                        ":root" => fs_rule(d, "/", v, e.value.loc),
                        "glob_scan_max_depth" => {}
                        other if other.starts_with(':') => {
                            d.note(e.key_loc, format!("special path `{other}` is not mapped"))
                        }
                        path => fs_rule(d, path, v, e.value.loc),
                    }
                }
            }
        }
    }
    if let Some(net) = read::opt_map(prof, "network")? {
        let enabled = read::opt_bool(net, "enabled")?;
        let allowed = enabled.is_some_and(|(b, _)| b);
        if network_set {
            d.set_quiet("/network", OVal::obj());
        }
        process_namespaces(d, false, net.loc);
        network(d, allowed, enabled.map_or(net.loc, |(_, l)| l));
        if allowed {
            d.note(net.loc, "domain rules only apply when the network proxy is enabled (`features.network_proxy`); otherwise access is open");
        }
    } else if !network_set {
        process_namespaces(d, false, prof.loc);
        network(d, false, prof.loc);
    }
    if !d.has("/boundary/read_only_root") {
        d.set("/boundary/read_only_root", true, prof.loc);
    }
    Ok(())
}

fn fs_rule(d: &mut Draft, path: &str, access: &str, at: Loc) {
    let src = expand_home(path).unwrap_or_else(|| path.to_string());
    match access {
        "read" => mount(d, &src, "read-only", at),
        "write" => mount(d, &src, "read-write", at),
        "none" | "deny" => d.note(
            at,
            format!("reads of `{path}` are denied; the profile has no exclusions, so mounts above it still count as exposing it"),
        ),
        other => d.note(at, format!("access `{other}` for `{path}` is not mapped")),
    }
}

fn environment(d: &mut Draft, l: &Layers<'_>, anchor: Loc) -> Result<(), ImportError> {
    let Some(pol) = l.table("shell_environment_policy")? else {
        d.set("/environment/inherit", true, anchor);
        d.note(anchor, "no `[shell_environment_policy]`: commands inherit the full environment of whoever starts Codex");
        return Ok(());
    };
    match read::opt_str(pol, "inherit")? {
        Some(("all", at)) => d.set("/environment/inherit", true, at),
        Some(("core", at)) => {
            d.set("/environment/inherit", false, at);
            d.note(
                at,
                "`inherit = \"core\"` still passes HOME, PATH, USER and a few other core variables",
            );
        }
        Some(("none", at)) => d.set("/environment/inherit", false, at),
        Some((other, at)) => {
            return Err(invalid(
                at,
                format!("unknown `inherit` value `{other}`; expected all, core or none"),
            ))
        }
        None => d.set("/environment/inherit", true, pol.loc),
    }
    d.set("/environment/variables", OVal::obj(), pol.loc);
    if let Some(set) = read::opt_map(pol, "set")? {
        for e in set.entries() {
            let v = read::text(&e.value, &e.key)?;
            d.set(&Draft::variable_ptr(&e.key), v, e.value.loc);
        }
    }
    for key in ["exclude", "include_only", "ignore_default_excludes"] {
        if let Some(e) = pol.entry(key) {
            d.note(e.key_loc, format!("`{key}` filters inherited variables by name; the profile cannot express a filter"));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_codex_starts_outside_the_sandbox_is_audited() {
        let mut out = import(
            b"sandbox_mode = \"read-only\"\nnotify = [\"python3\", \"/n.py\"]\nunknown_thing = 1\n[mcp_servers.fs]\ncommand = \"npx\"\nargs = [\"-y\", \"server-fs\", \"/\"]\nenv = { API_KEY = \"k-very-secret-9f8e\" }\n[projects.\"/\"]\ntrust_level = \"trusted\"\n",
        )
        .unwrap();
        let (_, d) = out.remove(0);
        let (json, _, notes, _) = d.finish().unwrap();
        let v: serde_json::Value = serde_json::from_str(&json).unwrap();
        assert_eq!(v["setup"][0]["executable"], "npx");
        assert_eq!(v["setup"][0]["arguments"][2], "/");
        assert_eq!(v["setup"][1]["executable"], "python3");
        let notes: Vec<String> = notes.into_iter().map(|n| n.message.into_owned()).collect();
        assert!(
            notes.iter().any(|n| n.contains("trusts every repository")),
            "{notes:?}"
        );
        assert!(
            notes
                .iter()
                .any(|n| n.contains("`unknown_thing` is not a setting")),
            "{notes:?}"
        );
        assert!(
            !json.contains("k-very-secret") && !notes.iter().any(|n| n.contains("k-very-secret"))
        );
    }
}
