//! The other Compose files a file pulls in, read through the front end's
//! resolver and merged as `docker compose` merges them: `include:` entries
//! (their services and definitions added to the project), the override
//! file beside a default-named file (merged over it), and a service's
//! `extends: {file:}` base (merged under it).
//!
//! Positions in a merged setting are those of the file it came from, and
//! a note says which file that is. What cannot be read is unread context
//! ([`ComposeContext::unread`]); what this import does not follow (an
//! included file in another directory whose paths cannot be rebased
//! lexically or that has an `.env` of its own, an extended file in another
//! directory with relative paths, an `include` inside an included file)
//! is refused the same way, never dropped.

use super::context::{Companion, ComposeContext, OVERRIDE_NAMES};
use super::extends;
use super::{interpolate, join_lexically, yaml};
use crate::import::invalid;
use crate::import::tree::{Loc, SEntry, SNode, SValue};
use crate::import::ImportError;

/// Notes and unread context gathered while the files are read.
pub(super) struct Gathered {
    /// Notes for every profile of the file.
    pub(super) notes: Vec<(Loc, String)>,
    /// Unread context for every profile of the file.
    pub(super) unread: Vec<(Loc, String)>,
}

/// `root` with its includes, override file and cross-file bases merged
/// in, or `None` when it pulls in nothing.
pub(super) fn resolve(
    root: &SNode,
    cx: &ComposeContext<'_>,
    got: &mut Gathered,
) -> Result<Option<SNode>, ImportError> {
    let mut out: Option<SNode> = None;
    if let Some(inc) = root.entry("include").filter(|e| !e.value.is_null()) {
        let mut merged = without_key(root, "include");
        for (path, at) in include_paths(&inc.value)? {
            let Some(doc) = read_file(cx, &path, at, "`include`", got)? else {
                continue;
            };
            if let Some(why) = nested(&doc) {
                cx.unread(at, format!("`include: {path}` {why}"), &mut got.unread)?;
                continue;
            }
            let doc = match rebase_included(cx, &path, &doc) {
                Ok(Some(rebased)) => {
                    got.notes.push((
                        at,
                        format!("`{path}` is in another directory: its relative paths (volumes, `env_file`, `build`, secret and config files) are read from that directory, as Compose reads an included file's paths against its own project directory"),
                    ));
                    rebased
                }
                Ok(None) => doc,
                Err(why) => {
                    cx.unread(at, format!("`include: {path}` {why}"), &mut got.unread)?;
                    continue;
                }
            };
            merged = add_included(&merged, &doc, &path, at)?;
            got.notes.push((
                at,
                format!("the services and definitions of `{path}` are part of this project (`include`); positions in them are lines of `{path}`"),
            ));
        }
        out = Some(merged);
    }
    if cx.reads_overrides() {
        for name in OVERRIDE_NAMES {
            let at = root.loc;
            match (cx.resolve)(name) {
                Companion::Absent => continue,
                Companion::Unreadable(why) => {
                    cx.unread(
                        at,
                        format!("the override file `{name}`, which `docker compose` merges over this file, cannot be read: {why}"),
                        &mut got.unread,
                    )?;
                }
                Companion::Read(bytes) => {
                    let doc = parse(&bytes, name, at)?;
                    if let Some(why) = nested(&doc) {
                        cx.unread(
                            at,
                            format!("the override file `{name}` {why}"),
                            &mut got.unread,
                        )?;
                    } else {
                        let base = out.take().unwrap_or_else(|| root.clone());
                        out = Some(extends::merge_file(&base, &doc));
                        got.notes.push((
                            at,
                            format!("`{name}` beside this file is merged over it, as `docker compose` merges it by default; positions of its settings are lines of `{name}`"),
                        ));
                    }
                }
            }
            break;
        }
    }
    let current = out.as_ref().unwrap_or(root);
    if let Some(rewritten) = cross_file_bases(current, cx, got)? {
        out = Some(rewritten);
    }
    Ok(out)
}

fn without_key(node: &SNode, key: &str) -> SNode {
    let entries = node
        .entries()
        .iter()
        .filter(|e| e.key != key)
        .cloned()
        .collect();
    SNode::new(node.loc, SValue::Map(entries))
}

/// Each path of an `include:` list: a path, or `{path: a path or a list}`
/// (the first path is the file, the rest override it).
fn include_paths(list: &SNode) -> Result<Vec<(String, Loc)>, ImportError> {
    let items: Vec<&SNode> = match &list.value {
        SValue::Seq(items) => items.iter().collect(),
        _ => return Err(invalid(list.loc, "`include` must be a list")),
    };
    let mut out = Vec::new();
    for item in items {
        let paths: Vec<&SNode> = match &item.value {
            SValue::Scalar(_) => vec![item],
            SValue::Map(_) => match item.get("path") {
                Some(p) if p.is_seq() => p.items().iter().collect(),
                Some(p) => vec![p],
                None => return Err(invalid(item.loc, "an `include` entry needs a `path`")),
            },
            _ => {
                return Err(invalid(
                    item.loc,
                    "an `include` entry must be a path or a mapping",
                ))
            }
        };
        if let SValue::Map(_) = &item.value {
            for key in ["env_file", "project_directory"] {
                if let Some(e) = item.entry(key) {
                    return Err(invalid(
                        e.key_loc,
                        format!("`include.{key}` makes Compose read the included file in another project setting, which this import does not follow; audit the output of `docker compose config`"),
                    ));
                }
            }
        }
        for p in paths {
            let raw = p
                .as_str()
                .ok_or_else(|| invalid(p.loc, "an `include` path must be a string"))?;
            out.push((raw.to_string(), p.loc));
        }
    }
    Ok(out)
}

/// Read and parse one file a Compose file names, its path interpolated;
/// `None` when it could not be read and the reading is partial.
fn read_file(
    cx: &ComposeContext<'_>,
    raw: &str,
    at: Loc,
    what: &str,
    got: &mut Gathered,
) -> Result<Option<SNode>, ImportError> {
    let i = interpolate(raw).map_err(|m| invalid(at, m))?;
    if let Some(var) = i.unresolved.iter().find(|v| *v != "HOME") {
        cx.unread(
            at,
            format!("{what} `{raw}` names its file with `{var}`, which has no value here, so which file Compose reads cannot be known"),
            &mut got.unread,
        )?;
        return Ok(None);
    }
    match (cx.resolve)(&i.text) {
        Companion::Read(bytes) => parse(&bytes, &i.text, at).map(Some),
        Companion::Absent => Err(invalid(
            at,
            format!(
                "{what} `{}` does not exist: Compose refuses the project without it",
                i.text
            ),
        )),
        Companion::Unreadable(why) => {
            cx.unread(
                at,
                format!(
                    "{what} `{}` is part of this project and cannot be read: {why}",
                    i.text
                ),
                &mut got.unread,
            )?;
            Ok(None)
        }
    }
}

fn parse(bytes: &[u8], name: &str, at: Loc) -> Result<SNode, ImportError> {
    let docs = yaml::parse(bytes).map_err(|e| {
        invalid(
            at,
            format!("`{name}` is not a Compose file this import can read: {e}"),
        )
    })?;
    let mut written = docs.into_iter().filter(|d| !d.is_null());
    let doc = written
        .next()
        .ok_or_else(|| invalid(at, format!("`{name}` is empty")))?;
    if written.next().is_some() {
        return Err(invalid(
            at,
            format!("`{name}` holds more than one YAML document, which this import does not merge"),
        ));
    }
    if !doc.is_map() {
        return Err(invalid(at, format!("`{name}` is not a mapping")));
    }
    Ok(doc)
}

/// Why a file pulled in from another directory is not followed: its own
/// relative references are resolved there by Compose, not here.
fn unfollowed(path: &str, doc: &SNode) -> Option<String> {
    if let Some(why) = nested(doc) {
        return Some(why);
    }
    let (clean, climbs) = join_lexically(path);
    let elsewhere = path.starts_with(['/', '~', '\\']) || climbs > 0 || clean.contains('/');
    if !elsewhere {
        return None;
    }
    let services = doc.get("services")?;
    for svc in services.entries() {
        let v = &svc.value;
        let relative_volume = v.get("volumes").is_some_and(|vs| {
            vs.items().iter().any(|x| match &x.value {
                SValue::Scalar(s) => s.text.starts_with('.'),
                SValue::Map(_) => x
                    .get("source")
                    .and_then(SNode::as_str)
                    .is_some_and(|s| s.starts_with('.')),
                _ => false,
            })
        });
        if v.get("env_file").is_some() || v.get("build").is_some() || relative_volume {
            return Some(format!(
                "is in another directory, and service `{}` in it names paths relative to that directory, which this import does not rebase",
                svc.key
            ));
        }
    }
    None
}

/// Files a pulled-in file would pull in again: not followed.
fn nested(doc: &SNode) -> Option<String> {
    if doc.get("include").is_some_and(|i| !i.is_null()) {
        return Some("has an `include` of its own, which this import does not follow".into());
    }
    let services = doc.get("services")?;
    for svc in services.entries() {
        if svc
            .value
            .get("extends")
            .and_then(|e| e.get("file"))
            .is_some()
        {
            return Some(format!(
                "has a service `{}` that extends a service of yet another file, which this import does not follow",
                svc.key
            ));
        }
    }
    None
}

/// `merged` with an included file's services and definitions added. A
/// name defined by both is refused, as compose-go refuses a conflicting
/// import.
fn add_included(merged: &SNode, doc: &SNode, path: &str, at: Loc) -> Result<SNode, ImportError> {
    let mut entries: Vec<SEntry> = merged.entries().to_vec();
    for top in doc.entries() {
        if !matches!(
            top.key.as_str(),
            "services" | "volumes" | "networks" | "secrets" | "configs"
        ) {
            continue;
        }
        let Some(slot) = entries.iter_mut().find(|e| e.key == top.key) else {
            entries.push(top.clone());
            continue;
        };
        let mut own: Vec<SEntry> = slot.value.entries().to_vec();
        for def in top.value.entries() {
            if own.iter().any(|o| o.key == def.key) {
                return Err(invalid(
                    at,
                    format!("`{}.{}` of the included file `{path}` is defined in this file too: Compose refuses the conflict", top.key, def.key),
                ));
            }
            own.push(def.clone());
        }
        slot.value = SNode::new(slot.value.loc, SValue::Map(own));
    }
    Ok(SNode::new(merged.loc, SValue::Map(entries)))
}

/// Each service whose `extends` names a `file`, merged with its base from
/// that file (and its `extends` removed), or `None` when none does.
fn cross_file_bases(
    root: &SNode,
    cx: &ComposeContext<'_>,
    got: &mut Gathered,
) -> Result<Option<SNode>, ImportError> {
    let Some(services) = root.get("services") else {
        return Ok(None);
    };
    let crosses = |s: &SEntry| s.value.get("extends").and_then(|e| e.get("file")).is_some();
    if !services.entries().iter().any(crosses) {
        return Ok(None);
    }
    let mut out: Vec<SEntry> = Vec::new();
    for svc in services.entries() {
        if !crosses(svc) {
            out.push(svc.clone());
            continue;
        }
        let ext = svc.value.get("extends").unwrap_or(&svc.value);
        let file = ext.get("file").unwrap_or(ext);
        let raw = file
            .as_str()
            .ok_or_else(|| invalid(file.loc, "`extends.file` must be a path"))?;
        let base_name = ext.get("service").and_then(SNode::as_str).ok_or_else(|| {
            invalid(
                ext.loc,
                format!("`services.{}.extends` needs a `service`", svc.key),
            )
        })?;
        let own = extends::without_extends(&svc.value);
        let Some(doc) = read_file(cx, raw, file.loc, "`extends.file`", got)? else {
            out.push(SEntry {
                key: svc.key.clone(),
                key_loc: svc.key_loc,
                value: own,
            });
            continue;
        };
        let base = doc
            .get("services")
            .and_then(|s| s.get(base_name))
            .ok_or_else(|| invalid(ext.loc, format!("`{raw}` defines no service `{base_name}`")))?;
        let chained = base.get("extends").filter(|e| !e.is_null()).is_some();
        let why = if chained {
            Some(format!("extends again (`{base_name}` has an `extends` of its own), which this import does not follow across files"))
        } else {
            unfollowed(raw, &doc)
        };
        if let Some(why) = why {
            cx.unread(
                file.loc,
                format!("`extends.file: {raw}` {why}"),
                &mut got.unread,
            )?;
            out.push(SEntry {
                key: svc.key.clone(),
                key_loc: svc.key_loc,
                value: own,
            });
            continue;
        }
        got.notes.push((
            file.loc,
            format!("service `{}` extends service `{base_name}` of `{raw}`: its settings are merged under this service's; positions of them are lines of `{raw}`", svc.key),
        ));
        out.push(SEntry {
            key: svc.key.clone(),
            key_loc: svc.key_loc,
            value: extends::merge_extended(base, &own),
        });
    }
    let entries = root
        .entries()
        .iter()
        .map(|e| {
            if e.key == "services" {
                SEntry {
                    key: e.key.clone(),
                    key_loc: e.key_loc,
                    value: SNode::new(e.value.loc, SValue::Map(out.clone())),
                }
            } else {
                e.clone()
            }
        })
        .collect();
    Ok(Some(SNode::new(root.loc, SValue::Map(entries))))
}

/// An included file in another directory with its relative paths
/// rebased onto that directory, as Compose reads them: the include's
/// project directory is the included file's own directory (compose-spec
/// `include`: "`project_directory` defaults to the directory of the
/// included file", and relative paths in it are resolved from there).
/// `Ok(None)`: the file is beside this one, nothing moves. `Err`: why the
/// import cannot read it as Compose does (a path built from a variable,
/// which may turn relative after interpolation; an `.env` of its own,
/// which Compose reads for that file's interpolation only).
fn rebase_included(
    cx: &ComposeContext<'_>,
    path: &str,
    doc: &SNode,
) -> Result<Option<SNode>, String> {
    if path.starts_with(['~', '\\']) || path.contains('$') {
        return Err("is named by a path this import does not resolve to a directory (`~`, a variable or a backslash)".into());
    }
    let (clean, _) = join_lexically(path);
    let dir = match clean.rsplit_once('/') {
        Some((dir, _)) => dir.to_string(),
        None => return Ok(None),
    };
    let dir = if path.starts_with('/') {
        format!("/{dir}")
    } else {
        dir
    };
    let dot_env = format!("{dir}/.env");
    match (cx.resolve)(&dot_env) {
        Companion::Absent => {}
        Companion::Read(_) => return Err(format!("is in another directory that has an `.env` of its own (`{dot_env}`), which Compose reads to interpolate that file only; this import interpolates a project with one environment")),
        Companion::Unreadable(why) => return Err(format!("is in another directory, and whether `{dot_env}` (which Compose reads to interpolate that file) exists cannot be told: {why}")),
    }
    let mut problem: Option<String> = None;
    let out = rebase_doc(doc, &dir, &mut problem);
    match problem {
        Some(why) => Err(why),
        None => Ok(Some(out)),
    }
}

/// A relative path of a file in `dir`, seen from this file's directory.
/// `short` keeps the leading `.` that marks a short volume's source as a
/// host path.
fn rebase_path(dir: &str, rel: &str, short: bool) -> String {
    if dir.starts_with('/') {
        let (clean, _) = join_lexically(&format!("{dir}/{rel}"));
        return format!("/{clean}");
    }
    let (clean, _) = join_lexically(&format!("{dir}/{rel}"));
    if clean.is_empty() {
        ".".to_string()
    } else if short && !clean.starts_with("..") {
        format!("./{clean}")
    } else {
        clean
    }
}

/// Whether a path names somewhere relative to the project directory.
fn is_relative(p: &str) -> bool {
    !p.starts_with(['/', '~']) && !p.contains("://")
}

fn scalar(at: Loc, text: String) -> SNode {
    SNode::new(
        at,
        SValue::Scalar(crate::import::tree::Scalar { text, quoted: true }),
    )
}

fn with_entry(node: &SNode, key: &str, value: SNode) -> SNode {
    let entries = node
        .entries()
        .iter()
        .map(|e| {
            if e.key == key {
                SEntry {
                    key: e.key.clone(),
                    key_loc: e.key_loc,
                    value: value.clone(),
                }
            } else {
                e.clone()
            }
        })
        .collect();
    SNode::new(node.loc, SValue::Map(entries))
}

/// A path-bearing scalar rebased onto `dir`; a variable in it is recorded
/// in `problem` instead. `short`: a short volume, `SOURCE:TARGET[:MODE]`.
fn rebase_scalar(n: &SNode, dir: &str, short: bool, problem: &mut Option<String>) -> SNode {
    let Some(text) = n.as_str() else {
        return n.clone();
    };
    if text.contains('$') {
        problem.get_or_insert_with(|| format!("is in another directory, and its path `{text}` is built from a variable, which may name a place relative to that directory once interpolated"));
        return n.clone();
    }
    if short {
        // `SOURCE:TARGET[:MODE]`: only a source starting with `.` is a
        // relative host path (compose-go's `isFilePath`).
        let (src, rest) = match text.split_once(':') {
            Some((a, b)) => (a, Some(b)),
            None => (text, None),
        };
        if !src.starts_with('.') || rest.is_none() {
            return n.clone();
        }
        let moved = rebase_path(dir, src, true);
        return scalar(n.loc, format!("{moved}:{}", rest.unwrap_or("")));
    }
    if is_relative(text) {
        scalar(n.loc, rebase_path(dir, text, false))
    } else {
        n.clone()
    }
}

/// Every relative path of an included document moved to `dir`.
fn rebase_doc(doc: &SNode, dir: &str, problem: &mut Option<String>) -> SNode {
    let mut out = doc.clone();
    if let Some(services) = doc.get("services").filter(|s| s.is_map()) {
        let svcs: Vec<SEntry> = services
            .entries()
            .iter()
            .map(|svc| SEntry {
                key: svc.key.clone(),
                key_loc: svc.key_loc,
                value: rebase_service(&svc.value, dir, problem),
            })
            .collect();
        out = with_entry(
            &out,
            "services",
            SNode::new(services.loc, SValue::Map(svcs)),
        );
    }
    for top in ["secrets", "configs"] {
        let Some(defs) = doc.get(top).filter(|s| s.is_map()) else {
            continue;
        };
        let moved: Vec<SEntry> = defs
            .entries()
            .iter()
            .map(|def| {
                let value = match def.value.get("file") {
                    Some(f) => {
                        with_entry(&def.value, "file", rebase_scalar(f, dir, false, problem))
                    }
                    None => def.value.clone(),
                };
                SEntry {
                    key: def.key.clone(),
                    key_loc: def.key_loc,
                    value,
                }
            })
            .collect();
        out = with_entry(&out, top, SNode::new(defs.loc, SValue::Map(moved)));
    }
    out
}

fn rebase_service(svc: &SNode, dir: &str, problem: &mut Option<String>) -> SNode {
    if !svc.is_map() {
        return svc.clone();
    }
    let mut out = svc.clone();
    if let Some(vols) = svc.get("volumes").filter(|v| v.is_seq()) {
        let moved: Vec<SNode> = vols
            .items()
            .iter()
            .map(|v| match &v.value {
                SValue::Scalar(_) => rebase_scalar(v, dir, true, problem),
                SValue::Map(_) => match v.get("source") {
                    Some(src)
                        if src
                            .as_str()
                            .is_some_and(|s| s.starts_with('.') || s.contains('$')) =>
                    {
                        with_entry(v, "source", rebase_scalar(src, dir, false, problem))
                    }
                    _ => v.clone(),
                },
                _ => v.clone(),
            })
            .collect();
        out = with_entry(&out, "volumes", SNode::new(vols.loc, SValue::Seq(moved)));
    }
    for key in ["env_file", "label_file"] {
        let Some(f) = svc.get(key) else { continue };
        let moved = match &f.value {
            SValue::Scalar(_) => rebase_scalar(f, dir, false, problem),
            SValue::Seq(items) => SNode::new(
                f.loc,
                SValue::Seq(
                    items
                        .iter()
                        .map(|i| match &i.value {
                            SValue::Map(_) => match i.get("path") {
                                Some(p) => {
                                    with_entry(i, "path", rebase_scalar(p, dir, false, problem))
                                }
                                None => i.clone(),
                            },
                            _ => rebase_scalar(i, dir, false, problem),
                        })
                        .collect(),
                ),
            ),
            _ => f.clone(),
        };
        out = with_entry(&out, key, moved);
    }
    if let Some(b) = svc.get("build") {
        let moved = match &b.value {
            SValue::Scalar(_) => rebase_scalar(b, dir, false, problem),
            SValue::Map(_) => match b.get("context") {
                Some(c) => with_entry(b, "context", rebase_scalar(c, dir, false, problem)),
                None => {
                    // No context: the included file's directory, written in.
                    let mut entries = b.entries().to_vec();
                    entries.push(SEntry {
                        key: "context".into(),
                        key_loc: b.loc,
                        value: scalar(b.loc, dir.to_string()),
                    });
                    SNode::new(b.loc, SValue::Map(entries))
                }
            },
            _ => b.clone(),
        };
        out = with_entry(&out, "build", moved);
    }
    out
}
