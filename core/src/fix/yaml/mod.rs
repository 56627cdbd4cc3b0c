//! Fixes written into Kubernetes manifests and Compose files: each profile
//! edit becomes a YAML edit at the place the importer read the setting
//! from (its source map), through a per-format table of profile field →
//! setting.
//!
//! ```text
//! Edit (profile pointer) ──source map──▶ YAML node ──table──▶ edit::Ops ──▶ TextEdit
//! ```
//!
//! Where the text is not the one place a value comes from (an alias, an
//! anchor used elsewhere, a merge key, `${…}` interpolation, an `env_file`,
//! `extends`, a setting the format has no key for) the whole plan is
//! refused with the reason: never a partial edit.

mod compose;
mod edit;
mod kubernetes;
#[cfg(test)]
mod tests;

use super::json_edit::Refusal;
use super::{Edit, TextEdit};
use crate::import::{Format, Imported, Loc};

use edit::{Doc, Node, Ops};

/// The text edits that make `edits` (on `profile`'s model) in `text`, the
/// Kubernetes manifest or Compose file `profile` was imported from.
pub(crate) fn plan(
    format: Format,
    text: &str,
    profile: &Imported,
    edits: &[Edit],
) -> Result<Vec<TextEdit>, Refusal> {
    let doc = Doc::parse(text)?;
    let json: serde_json::Value = serde_json::from_str(&profile.profile_json)
        .map_err(|e| format!("the imported profile does not read back: {e}"))?;
    let cx = Cx {
        profile,
        json: &json,
    };
    // As in JSON: an edit under a removed node is covered by the removal.
    let removed: Vec<&str> = edits
        .iter()
        .filter_map(|e| match e {
            Edit::Remove { pointer } => Some(pointer.as_str()),
            Edit::Set { .. } => None,
        })
        .collect();
    let covered = |p: &str, own: bool| {
        removed.iter().any(|r| {
            (!own && p == *r) || (p.starts_with(r) && p.as_bytes().get(r.len()) == Some(&b'/'))
        })
    };
    let edits: Vec<Edit> = edits
        .iter()
        .filter(|e| match e {
            Edit::Remove { pointer } => !covered(pointer, true),
            Edit::Set { pointer, .. } => !covered(pointer, false),
        })
        .cloned()
        .collect();
    let mut ops = Ops::new(&doc);
    match format {
        Format::Kubernetes => kubernetes::plan(&cx, &mut ops, &edits)?,
        Format::Compose => compose::plan(&cx, &mut ops, &edits)?,
        other => return Err(format!("a {} is not a YAML format", other.title())),
    }
    ops.finish()
}

/// What a table reads besides the file: the profile, its JSON and map.
pub(super) struct Cx<'a> {
    profile: &'a Imported,
    json: &'a serde_json::Value,
}

impl Cx<'_> {
    /// Where the importer read `pointer` from (the pointer itself only).
    fn loc(&self, pointer: &str) -> Option<Loc> {
        let map = &self.profile.source_map;
        map.binary_search_by(|m| m.pointer.as_str().cmp(pointer))
            .ok()
            .and_then(|i| map.get(i))
            .map(|m| Loc {
                line: m.line,
                column: m.column,
            })
    }

    /// The profile's value at `pointer`.
    fn value(&self, pointer: &str) -> Option<&serde_json::Value> {
        self.json.pointer(pointer)
    }

    fn str_at(&self, pointer: &str) -> Option<&str> {
        self.value(pointer).and_then(serde_json::Value::as_str)
    }
}

/// The pointer's tokens after `prefix` (`/boundary/host_namespaces/2` →
/// `["2"]` under `/boundary/host_namespaces`).
fn under<'p>(pointer: &'p str, prefix: &str) -> Option<Vec<&'p str>> {
    let rest = pointer.strip_prefix(prefix)?;
    if rest.is_empty() {
        return Some(Vec::new());
    }
    Some(rest.strip_prefix('/')?.split('/').collect())
}

fn unescape(token: &str) -> String {
    token.replace("~1", "/").replace("~0", "~")
}

/// In `path` (root first), the child of `holder`'s entry `key`: its
/// container (the entry's value), the entry's key node and the child of
/// the container the path goes through.
fn through<'d>(
    path: &[&'d Node],
    holder: &'d Node,
    keys: &[&str],
) -> Option<(&'d Node, &'d Node, &'d Node)> {
    let i = path.iter().position(|n| std::ptr::eq(*n, holder))?;
    let container = *path.get(i + 1)?;
    let entry = Doc::entry_of(holder, container)?;
    if !keys.iter().any(|k| entry.key.text() == Some(k)) {
        return None;
    }
    let child = *path.get(i + 2)?;
    Some((container, &entry.key, child))
}

/// The index of `child` in `container` (an item, or an entry's value).
fn index_of(container: &Node, child: &Node) -> Option<usize> {
    match container.is_seq() {
        true => container
            .items()
            .iter()
            .position(|n| std::ptr::eq(n, child)),
        false => container
            .entries()
            .iter()
            .position(|e| std::ptr::eq(&e.value, child)),
    }
}

/// Remove the item or entry of `holder.<one of keys>` that the importer
/// read `pointer` from.
fn remove_read_from<'d>(
    cx: &Cx<'_>,
    ops: &mut Ops<'d, '_>,
    holder: &'d Node,
    keys: &[&str],
    pointer: &str,
) -> Result<(), Refusal> {
    let at = cx
        .loc(pointer)
        .ok_or_else(|| format!("`{pointer}` has no place in the file"))?;
    let doc = ops.doc();
    let path = doc
        .path_to(at)
        .ok_or_else(|| format!("no YAML node at {at}, where `{pointer}` was read"))?;
    let (container, key, child) = through(&path, holder, keys).ok_or_else(|| {
        format!(
            "`{pointer}` comes from {at}, not from `{}`: that setting is not edited here",
            keys.join("`/`")
        )
    })?;
    let i = index_of(container, child)
        .ok_or_else(|| format!("no item at {at} in the list holding it"))?;
    ops.remove(container, Some(key), i)
}

fn unmapped(format: &str, pointer: &str) -> Refusal {
    format!("no {format} setting is mapped for `{pointer}`; make this change by hand")
}
