//! Building a generated profile field by field, recording for each field
//! where in the source file it came from, then writing it as JSON with the
//! profile's own key order (the order of `SPEC.md` §2).

use std::collections::HashMap;

use super::tree::Loc;
use super::{Mapped, Note, Undeclared};
use crate::json::escape_token;

/// A JSON value under construction, objects in insertion order.
#[derive(Debug, Clone, PartialEq)]
pub enum OVal {
    Bool(bool),
    Int(u64),
    /// A negative whole number (`oom_score_adj: -1000`).
    Negative(i64),
    Str(String),
    Arr(Vec<OVal>),
    Obj(Members),
}

/// An object's members in insertion order. Once it has more than a few,
/// a map from key to position finds a member, so an object built key by
/// key (100,000 environment variables) costs linear time, not quadratic.
///
/// The map is boxed and absent below that size: most objects are small,
/// and every value of a draft is as large as its largest variant.
#[derive(Debug, Clone, Default)]
pub struct Members {
    list: Vec<(String, OVal)>,
    // Boxed on purpose: a `HashMap` inline would make every `OVal` 48
    // bytes larger.
    #[allow(clippy::box_collection)]
    index: Option<Box<HashMap<String, usize>>>,
}

/// Below this many members a scan is cheaper than the map.
const INDEXED_FROM: usize = 16;

impl Members {
    fn position(&self, key: &str) -> Option<usize> {
        match &self.index {
            Some(index) => index.get(key).copied(),
            None => self.list.iter().position(|(k, _)| k == key),
        }
    }

    pub fn get(&self, key: &str) -> Option<&OVal> {
        self.position(key)
            .and_then(|i| self.list.get(i))
            .map(|(_, v)| v)
    }

    pub fn get_mut(&mut self, key: &str) -> Option<&mut OVal> {
        let i = self.position(key)?;
        self.list.get_mut(i).map(|(_, v)| v)
    }

    /// Add a member (the caller knows `key` is not there yet).
    pub fn push(&mut self, key: String, v: OVal) {
        if self.index.is_none() && self.list.len() + 1 >= INDEXED_FROM {
            self.index = Some(Box::new(
                self.list
                    .iter()
                    .enumerate()
                    .map(|(i, (k, _))| (k.clone(), i))
                    .collect(),
            ));
        }
        if let Some(index) = &mut self.index {
            index.insert(key.clone(), self.list.len());
        }
        self.list.push((key, v));
    }
}

impl std::ops::Deref for Members {
    type Target = [(String, OVal)];
    fn deref(&self) -> &Self::Target {
        &self.list
    }
}

impl PartialEq for Members {
    fn eq(&self, other: &Self) -> bool {
        self.list == other.list
    }
}

impl FromIterator<(String, OVal)> for Members {
    fn from_iter<I: IntoIterator<Item = (String, OVal)>>(iter: I) -> Self {
        let mut m = Members::default();
        for (k, v) in iter {
            match m.get_mut(&k) {
                Some(slot) => *slot = v,
                None => m.push(k, v),
            }
        }
        m
    }
}

impl From<bool> for OVal {
    fn from(b: bool) -> Self {
        OVal::Bool(b)
    }
}
impl From<u64> for OVal {
    fn from(n: u64) -> Self {
        OVal::Int(n)
    }
}
impl From<i64> for OVal {
    fn from(n: i64) -> Self {
        match u64::try_from(n) {
            Ok(u) => OVal::Int(u),
            Err(_) => OVal::Negative(n),
        }
    }
}
impl From<&str> for OVal {
    fn from(s: &str) -> Self {
        OVal::Str(s.to_string())
    }
}
impl From<String> for OVal {
    fn from(s: String) -> Self {
        OVal::Str(s)
    }
}
impl From<Vec<String>> for OVal {
    fn from(v: Vec<String>) -> Self {
        OVal::Arr(v.into_iter().map(OVal::Str).collect())
    }
}

impl OVal {
    pub fn obj() -> OVal {
        OVal::Obj(Members::default())
    }
    pub fn arr() -> OVal {
        OVal::Arr(Vec::new())
    }
    fn child_mut(&mut self, token: &str) -> Option<&mut OVal> {
        match self {
            OVal::Obj(members) => {
                if members.position(token).is_none() {
                    members.push(token.to_string(), OVal::obj());
                }
                members.get_mut(token)
            }
            OVal::Arr(items) => items.get_mut(token.parse::<usize>().ok()?),
            _ => None,
        }
    }
    fn child(&self, token: &str) -> Option<&OVal> {
        match self {
            OVal::Obj(members) => members.get(token),
            OVal::Arr(items) => items.get(token.parse::<usize>().ok()?),
            _ => None,
        }
    }
}

fn tokens(ptr: &str) -> Vec<String> {
    ptr.split('/')
        .skip(1)
        .map(|t| t.replace("~1", "/").replace("~0", "~"))
        .collect()
}

/// A profile being generated, with its source map and notes.
#[derive(Debug)]
pub struct Draft {
    root: OVal,
    map: HashMap<String, Loc>,
    pub notes: Vec<Note>,
    pub undeclared: Vec<Undeclared>,
}

impl Draft {
    /// A new profile named `name`, the whole of it mapped to `root_loc`.
    pub fn new(name: &str, purpose: &str, root_loc: Loc) -> Draft {
        let mut d = Draft {
            root: OVal::obj(),
            map: HashMap::new(),
            notes: Vec::new(),
            undeclared: Vec::new(),
        };
        d.map("", root_loc);
        d.set_quiet("/schema", crate::model::PROFILE_SCHEMA);
        d.set_quiet("/name", name);
        d.set_quiet("/purpose", purpose);
        d
    }

    fn slot(&mut self, ptr: &str) -> Option<&mut OVal> {
        let mut node = &mut self.root;
        for t in tokens(ptr) {
            node = node.child_mut(&t)?;
        }
        Some(node)
    }

    /// The value at `ptr`, if set.
    pub fn get(&self, ptr: &str) -> Option<&OVal> {
        let mut node = &self.root;
        for t in tokens(ptr) {
            node = node.child(&t)?;
        }
        Some(node)
    }

    pub fn has(&self, ptr: &str) -> bool {
        self.get(ptr).is_some()
    }

    /// Set the value at `ptr` (creating parent objects) and map it to `at`.
    pub fn set(&mut self, ptr: &str, v: impl Into<OVal>, at: Loc) {
        self.set_quiet(ptr, v);
        self.map(ptr, at);
    }

    /// Set a value that has no place of its own in the source.
    pub fn set_quiet(&mut self, ptr: &str, v: impl Into<OVal>) {
        if let Some(slot) = self.slot(ptr) {
            *slot = v.into();
        }
    }

    /// Append to the array at `array_ptr` (created when missing); returns
    /// the new element's pointer, mapped to `at`.
    pub fn push(&mut self, array_ptr: &str, v: impl Into<OVal>, at: Loc) -> String {
        let index = match self.slot(array_ptr) {
            Some(slot) => {
                if !matches!(slot, OVal::Arr(_)) {
                    *slot = OVal::arr();
                }
                match slot {
                    OVal::Arr(items) => {
                        items.push(v.into());
                        items.len() - 1
                    }
                    _ => 0,
                }
            }
            None => 0,
        };
        let ptr = format!("{array_ptr}/{index}");
        self.map(&ptr, at);
        ptr
    }

    /// Make sure `ptr` holds an (empty) array, mapped to `at`.
    pub fn ensure_array(&mut self, ptr: &str, at: Loc) {
        if !matches!(self.get(ptr), Some(OVal::Arr(_))) {
            self.set(ptr, OVal::arr(), at);
        }
    }

    /// Record that the profile field `ptr` comes from `at`.
    pub fn map(&mut self, ptr: &str, at: Loc) {
        self.map.insert(ptr.to_string(), at);
    }

    /// A source setting with no profile equivalent.
    pub fn note(&mut self, at: Loc, message: impl Into<String>) {
        self.notes.push(Note {
            line: at.line,
            column: at.column,
            message: message.into(),
        });
    }

    /// A profile field the source cannot express: it stays absent.
    pub fn undeclared(&mut self, ptr: &str, reason: impl Into<String>) {
        if !self.has(ptr) && !self.undeclared.iter().any(|u| u.pointer == ptr) {
            self.undeclared.push(Undeclared {
                pointer: ptr.to_string(),
                reason: reason.into(),
            });
        }
    }

    /// The pointer of a variable under `/environment/variables`.
    pub fn variable_ptr(name: &str) -> String {
        format!("/environment/variables/{}", escape_token(name))
    }

    /// Finish: the profile as JSON text, the source map sorted by pointer.
    pub fn finish(self) -> (String, Vec<Mapped>, Vec<Note>, Vec<Undeclared>) {
        let mut out = String::new();
        render(&self.root, "", 0, &mut out);
        out.push('\n');
        let mut map: Vec<Mapped> = self
            .map
            .into_iter()
            .map(|(pointer, at)| Mapped {
                pointer,
                line: at.line,
                column: at.column,
            })
            .collect();
        map.sort_by(|a, b| a.pointer.cmp(&b.pointer));
        let mut notes = self.notes;
        notes.sort_by_key(|n| (n.line, n.column));
        notes.dedup();
        (out, map, notes, self.undeclared)
    }
}

/// Key order of each object of the profile, by its pointer pattern (array
/// indexes written as `N`). Objects not listed keep insertion order.
fn key_order(pattern: &str) -> Option<&'static [&'static str]> {
    use crate::decode::{
        ALLOW_KEYS, BOUNDARY_KEYS, CAPABILITIES_KEYS, CLEANUP_KEYS, COMMAND_KEYS, CONCURRENCY_KEYS,
        CREDENTIAL_KEYS, DEPENDENCIES_KEYS, ENVIRONMENT_KEYS, LIMITS_KEYS, MOUNT_KEYS, NEEDS_KEYS,
        NETWORK_KEYS, PROFILE_KEYS, RUNTIME_KEYS,
    };
    Some(match pattern {
        "" => PROFILE_KEYS,
        "/needs" => NEEDS_KEYS,
        "/boundary" => BOUNDARY_KEYS,
        "/boundary/runtime" => RUNTIME_KEYS,
        "/boundary/capabilities" => CAPABILITIES_KEYS,
        "/mounts/N" => MOUNT_KEYS,
        "/network" => NETWORK_KEYS,
        "/network/allow/N" => ALLOW_KEYS,
        "/environment" => ENVIRONMENT_KEYS,
        "/credentials/N" => CREDENTIAL_KEYS,
        "/command" | "/setup/N" => COMMAND_KEYS,
        "/limits" => LIMITS_KEYS,
        "/concurrency" => CONCURRENCY_KEYS,
        "/dependencies" => DEPENDENCIES_KEYS,
        "/cleanup" => CLEANUP_KEYS,
        _ => return None,
    })
}

/// A value as JSON text with the profile's key order, as [`Draft::finish`]
/// writes it.
pub(crate) fn to_json(v: &OVal) -> String {
    let mut out = String::new();
    render(v, "", 0, &mut out);
    out.push('\n');
    out
}

fn scalar(v: &OVal) -> Option<String> {
    Some(match v {
        OVal::Bool(b) => b.to_string(),
        OVal::Int(n) => n.to_string(),
        OVal::Negative(n) => n.to_string(),
        OVal::Str(s) => crate::sanitize::json_string(s),
        _ => return None,
    })
}

fn render(v: &OVal, pattern: &str, indent: usize, out: &mut String) {
    let pad = "  ".repeat(indent + 1);
    let close = "  ".repeat(indent);
    match v {
        OVal::Arr(items) => {
            if items.is_empty() {
                out.push_str("[]");
                return;
            }
            let flat: Option<Vec<String>> = items.iter().map(scalar).collect();
            if let Some(flat) = flat {
                let line = flat.join(", ");
                if line.chars().count() + indent * 2 <= 76 {
                    out.push('[');
                    out.push_str(&line);
                    out.push(']');
                    return;
                }
            }
            out.push_str("[\n");
            for (i, it) in items.iter().enumerate() {
                out.push_str(&pad);
                render(it, &format!("{pattern}/N"), indent + 1, out);
                out.push_str(if i + 1 < items.len() { ",\n" } else { "\n" });
            }
            out.push_str(&close);
            out.push(']');
        }
        OVal::Obj(members) => {
            if members.is_empty() {
                out.push_str("{}");
                return;
            }
            let mut sorted: Vec<&(String, OVal)> = members.iter().collect();
            if let Some(order) = key_order(pattern) {
                sorted
                    .sort_by_key(|(k, _)| order.iter().position(|o| o == k).unwrap_or(usize::MAX));
            }
            out.push_str("{\n");
            for (i, (k, val)) in sorted.iter().enumerate() {
                out.push_str(&pad);
                out.push_str(&crate::sanitize::json_string(k));
                out.push_str(": ");
                render(val, &format!("{pattern}/{k}"), indent + 1, out);
                out.push_str(if i + 1 < sorted.len() { ",\n" } else { "\n" });
            }
            out.push_str(&close);
            out.push('}');
        }
        other => out.push_str(&scalar(other).unwrap_or_default()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Small and large objects find the same members, in insertion order.
    #[test]
    fn members_are_found_by_key_at_every_size() {
        for n in [0, 1, INDEXED_FROM - 1, INDEXED_FROM, INDEXED_FROM + 1, 1000] {
            let mut m = Members::default();
            for i in 0..n {
                assert!(m.get(&format!("k{i}")).is_none());
                m.push(format!("k{i}"), OVal::Int(i as u64));
            }
            for i in 0..n {
                assert_eq!(
                    m.get(&format!("k{i}")),
                    Some(&OVal::Int(i as u64)),
                    "{n} {i}"
                );
            }
            assert!(m.get("absent").is_none());
            let keys: Vec<String> = (0..n).map(|i| format!("k{i}")).collect();
            assert_eq!(m.iter().map(|(k, _)| k.clone()).collect::<Vec<_>>(), keys);
        }
        // 100,000 variables set one by one: the draft is built in linear time.
        let at = Loc { line: 1, column: 1 };
        let mut d = Draft::new("x", "test", at);
        for i in 0..100_000 {
            d.set(&Draft::variable_ptr(&format!("V{i}")), "1", at);
        }
        assert!(d.has("/environment/variables/V99999"));
    }

    #[test]
    fn keys_follow_the_profile_order_and_variables_keep_theirs() {
        let at = Loc { line: 1, column: 1 };
        let mut d = Draft::new("x", "test", at);
        d.set("/limits/memory_bytes", 5u64, at);
        d.set("/boundary/user", "0", at);
        d.set("/boundary/kind", "container", at);
        d.set(&Draft::variable_ptr("Z"), "1", at);
        d.set(&Draft::variable_ptr("A/B"), "2", at);
        let m = d.push("/mounts", OVal::obj(), at);
        d.set(&format!("{m}/access"), "read-only", at);
        d.set(&format!("{m}/source"), "/x", at);
        let (json, map, _, _) = d.finish();
        let v: serde_json::Value = serde_json::from_str(&json).unwrap();
        assert_eq!(v["boundary"]["user"], "0");
        let b = json.find("\"boundary\"").unwrap();
        assert!(json.find("\"mounts\"").unwrap() > b);
        assert!(json.find("\"limits\"").unwrap() > json.find("\"environment\"").unwrap());
        assert!(json.find("\"kind\"").unwrap() < json.find("\"user\"").unwrap());
        assert!(json.find("\"Z\"").unwrap() < json.find("\"A/B\"").unwrap());
        assert!(json.find("\"source\"").unwrap() < json.find("\"access\"").unwrap());
        assert!(map
            .iter()
            .any(|m| m.pointer == "/environment/variables/A~1B"));
        assert!(map.iter().any(|m| m.pointer == "/mounts/0/source"));
    }
}
