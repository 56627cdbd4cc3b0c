//! Building a generated profile field by field, recording for each field
//! where in the source file it came from, then writing it as JSON with the
//! profile's own key order (the order of `SPEC.md` §2).

use std::borrow::Cow;
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

type OValMembers<'a> =
    std::iter::Map<std::slice::Iter<'a, (String, OVal)>, fn(&(String, OVal)) -> (&str, &OVal)>;

/// A draft's tree reads as the JSON text it is written as: the secret
/// walk finds the same values in either.
impl crate::secrets::Tree for OVal {
    type Members<'a> = OValMembers<'a>;
    fn view(&self) -> crate::secrets::View<'_, OVal> {
        use crate::secrets::View;
        match self {
            OVal::Str(s) => View::Str(s),
            OVal::Int(n) => View::Number(Cow::Owned(n.to_string())),
            OVal::Negative(n) => View::Number(Cow::Owned(n.to_string())),
            OVal::Arr(items) => View::Array(items),
            OVal::Obj(members) => {
                let pair: fn(&(String, OVal)) -> (&str, &OVal) = |(k, v)| (k.as_str(), v);
                View::Object(members.iter().map(pair))
            }
            OVal::Bool(_) => View::Other,
        }
    }
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
    /// The child `token`, made (an empty object) when missing; and whether
    /// it was made.
    fn child_mut(&mut self, token: &str) -> Option<(&mut OVal, bool)> {
        match self {
            OVal::Obj(members) => {
                let made = match members.position(token) {
                    Some(i) => return members.list.get_mut(i).map(|(_, v)| (v, false)),
                    None => {
                        members.push(token.to_string(), OVal::obj());
                        true
                    }
                };
                members.list.last_mut().map(|(_, v)| (v, made))
            }
            OVal::Arr(items) => items
                .get_mut(token.parse::<usize>().ok()?)
                .map(|v| (v, false)),
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

/// The unescaped reference tokens of a pointer; a copy only for a token
/// that holds an escape (every field of a draft is set through a pointer).
fn tokens(ptr: &str) -> impl Iterator<Item = Cow<'_, str>> {
    // Split by a set of chars, not by the char: pointers are a few bytes
    // long, shorter than the setup of the char searcher's memchr.
    ptr.split(['/']).skip(1).map(|t| {
        if t.as_bytes().contains(&b'~') {
            Cow::Owned(t.replace("~1", "/").replace("~0", "~"))
        } else {
            Cow::Borrowed(t)
        }
    })
}

/// A lower bound of the bytes `v` takes in the JSON text [`Draft::finish`]
/// writes, `v` being `depth` tokens deep: every string at least its length
/// and two quotes; every member its key, quotes, colon, space, newline and
/// its indentation (members are never written on one line, elements may
/// be). Escapes and separators only add.
fn json_floor(v: &OVal, depth: usize) -> usize {
    match v {
        OVal::Bool(_) => 4,
        OVal::Int(_) => 1,
        OVal::Negative(_) => 2,
        OVal::Str(s) => s.len() + 2,
        // Brackets, elements and a separator between each two.
        OVal::Arr(items) => items
            .iter()
            .map(|i| json_floor(i, depth + 1))
            .fold(1 + items.len().max(1), usize::saturating_add),
        OVal::Obj(members) => members.iter().fold(2, |n, (k, v)| {
            n.saturating_add(member_floor(k.len(), depth + 1))
                .saturating_add(json_floor(v, depth + 1))
        }),
    }
}

/// The bytes a member `depth` tokens deep, its key `key` bytes long,
/// takes besides its value.
fn member_floor(key: usize, depth: usize) -> usize {
    key + 5 + 2 * depth
}

/// The size limit of one generated profile: the limit of any profile
/// isolint reads, so every profile an import writes can be read back.
pub(crate) fn profile_limit() -> usize {
    super::tree::TreeLimits::default().max_bytes
}

/// A profile being generated, with its source map and notes.
///
/// It keeps a lower bound of the size of its JSON text. Once that passes
/// the profile limit the draft is refused whatever follows, so it stops
/// growing (every later change is ignored) and [`Draft::finish`] reports
/// where the limit was passed: an 8 MiB input that would expand to a much
/// larger profile costs no more than one at the limit.
#[derive(Debug)]
pub struct Draft {
    root: OVal,
    /// Every pointer mapped, in the order mapped; the last place given
    /// for a pointer wins (sorted and thinned once, when finished).
    map: Vec<(String, Loc)>,
    pub notes: Vec<Note>,
    pub undeclared: Vec<Undeclared>,
    /// Context the file depends on that could not be read (a Compose
    /// `env_file` with no file system to read it from): each one is a
    /// blocking finding of the profile (PRF021), never only a note.
    pub unread: Vec<Note>,
    /// A lower bound of the JSON text's length (see [`json_floor`]).
    floor: usize,
    limit: usize,
    /// The first place the profile grew past `limit`.
    over: Option<Loc>,
    /// The last place a field was set from, for `over`.
    last: Loc,
}

/// A profile the import would make larger than the limit for a profile.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TooLarge {
    pub limit: usize,
    /// The source setting that took it over the limit.
    pub at: Loc,
}

/// A finished draft: the profile's JSON text, its source map sorted by
/// pointer, its notes in source order and its undeclared fields.
pub type Finished = (String, Vec<Mapped>, Vec<Note>, Vec<Undeclared>);

impl Draft {
    /// A new profile named `name`, the whole of it mapped to `root_loc`.
    pub fn new(name: &str, purpose: &str, root_loc: Loc) -> Draft {
        Draft::with_limit(name, purpose, root_loc, profile_limit())
    }

    /// [`Draft::new`] held to `limit` bytes of JSON text.
    pub(crate) fn with_limit(name: &str, purpose: &str, root_loc: Loc, limit: usize) -> Draft {
        let mut d = Draft {
            root: OVal::obj(),
            map: Vec::new(),
            notes: Vec::new(),
            undeclared: Vec::new(),
            unread: Vec::new(),
            floor: 2,
            limit,
            over: None,
            last: root_loc,
        };
        d.map("", root_loc);
        d.set_quiet("/schema", crate::model::PROFILE_SCHEMA);
        d.set_quiet("/name", name);
        d.set_quiet("/purpose", purpose);
        d
    }

    /// Account for `added` bytes in place of `removed`; past the limit,
    /// drop what was built: the draft is refused anyway.
    fn grow(&mut self, added: usize, removed: usize) {
        self.floor = self.floor.saturating_sub(removed).saturating_add(added);
        if self.floor > self.limit && self.over.is_none() {
            self.over = Some(self.last);
            self.root = OVal::obj();
            self.map = Vec::new();
        }
    }

    /// The value at `ptr`, parents made on the way; and whether the value
    /// itself was made (a new member, an empty object until set).
    fn slot(&mut self, ptr: &str) -> Option<(&mut OVal, bool)> {
        self.slot_at(ptr).map(|(node, made, ..)| (node, made))
    }

    /// [`Draft::slot`], with the value's depth and the bytes its member
    /// takes besides the value (see [`member_floor`]).
    fn slot_at(&mut self, ptr: &str) -> Option<(&mut OVal, bool, usize, usize)> {
        let mut node = &mut self.root;
        let mut made = false;
        let (mut depth, mut key) = (0, 0);
        for t in tokens(ptr) {
            (node, made) = node.child_mut(&t)?;
            depth += 1;
            key = t.len();
        }
        Some((node, made, depth, member_floor(key, depth)))
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
        self.set_value(ptr, v.into(), at);
    }

    /// [`Draft::set`] of a built value: one copy of the code for every
    /// type the importers set, not one per type.
    fn set_value(&mut self, ptr: &str, v: OVal, at: Loc) {
        self.last = at;
        self.put(ptr, v);
        self.map(ptr, at);
    }

    /// [`Draft::set`] of `base`'s member `field` (`{base}/{field}`): the
    /// pointer is built here, not at each of the importers' calls.
    pub fn set_field(&mut self, base: &str, field: &str, v: impl Into<OVal>, at: Loc) {
        self.set_field_value(base, field, v.into(), at);
    }

    fn set_field_value(&mut self, base: &str, field: &str, v: OVal, at: Loc) {
        self.set_value(&format!("{base}/{field}"), v, at);
    }

    /// Set a value that has no place of its own in the source.
    pub fn set_quiet(&mut self, ptr: &str, v: impl Into<OVal>) {
        self.put(ptr, v.into());
    }

    fn put(&mut self, ptr: &str, v: OVal) {
        if self.over.is_some() {
            return;
        }
        let (added, removed) = match self.slot_at(ptr) {
            Some((slot, made, depth, member)) => {
                let added = json_floor(&v, depth);
                let old = std::mem::replace(slot, v);
                if made {
                    (added.saturating_add(member), 0)
                } else {
                    (added, json_floor(&old, depth))
                }
            }
            None => return,
        };
        self.grow(added, removed);
    }

    /// Append to the array at `array_ptr` (created when missing); returns
    /// the new element's pointer, mapped to `at`.
    pub fn push(&mut self, array_ptr: &str, v: impl Into<OVal>, at: Loc) -> String {
        self.push_value(array_ptr, v.into(), at)
    }

    fn push_value(&mut self, array_ptr: &str, v: OVal, at: Loc) -> String {
        self.last = at;
        let depth = array_ptr.matches('/').count();
        let added = json_floor(&v, depth + 1);
        let mut removed = 0;
        let slot = if self.over.is_some() {
            None
        } else {
            self.slot(array_ptr)
        };
        let pushed = match slot {
            Some((slot, _)) => {
                if !matches!(slot, OVal::Arr(_)) {
                    removed = json_floor(slot, depth);
                    *slot = OVal::arr();
                }
                match slot {
                    OVal::Arr(items) => {
                        items.push(v);
                        Some(items.len() - 1)
                    }
                    _ => None,
                }
            }
            // Under a scalar, or past the limit: nothing is added.
            None => None,
        };
        let index = pushed.unwrap_or(0);
        let added = pushed.map_or(0, |i| added.saturating_add(usize::from(i > 0)));
        // Every element but the first also costs a comma.
        self.grow(added, removed);
        let ptr = format!("{array_ptr}/{index}");
        self.map(&ptr, at);
        ptr
    }

    /// Set `ptr` to the list of `items`: the list mapped to `at`, each item
    /// to its own place. One loop for every list the importers copy.
    pub fn set_list(&mut self, ptr: &str, at: Loc, items: Vec<(String, Loc)>) {
        self.set_value(ptr, OVal::arr(), at);
        for (item, at) in items {
            self.push_value(ptr, OVal::Str(item), at);
        }
    }

    /// Set `ptr` to a list of fixed words, all mapped to `at`.
    pub fn set_words_at(&mut self, ptr: &str, at: Loc, words: &[&str]) {
        self.set_value(ptr, OVal::arr(), at);
        for w in words {
            self.push_value(ptr, OVal::from(*w), at);
        }
    }

    /// A command's words at `base`: the first is its `executable` (when
    /// there is one), the rest its `arguments`, a list mapped to `args_at`.
    pub fn set_command(&mut self, base: &str, words: Vec<(String, Loc)>, args_at: Loc) {
        let mut words = words.into_iter();
        if let Some((exe, at)) = words.next() {
            self.set_field_value(base, "executable", OVal::Str(exe), at);
        }
        self.set_list(&format!("{base}/arguments"), args_at, words.collect());
    }

    /// Make sure `ptr` holds an (empty) array, mapped to `at`.
    pub fn ensure_array(&mut self, ptr: &str, at: Loc) {
        if !matches!(self.get(ptr), Some(OVal::Arr(_))) {
            self.set(ptr, OVal::arr(), at);
        }
    }

    /// Record that the profile field `ptr` comes from `at`.
    pub fn map(&mut self, ptr: &str, at: Loc) {
        if self.over.is_none() {
            self.map.push((ptr.to_string(), at));
        }
    }

    /// A source setting with no profile equivalent. Fixed texts are kept
    /// as they are, not copied: a file of 45,000 services has 45,000 of
    /// each.
    /// Context the profile depends on that could not be read: a blocking
    /// finding, PRF021, at `at`.
    pub fn unread(&mut self, at: Loc, message: impl Into<Cow<'static, str>>) {
        self.unread.push(Note {
            line: at.line,
            column: at.column,
            message: message.into(),
        });
    }

    pub fn note(&mut self, at: Loc, message: impl Into<Cow<'static, str>>) {
        self.note_text(at, message.into());
    }

    fn note_text(&mut self, at: Loc, message: Cow<'static, str>) {
        self.notes.push(Note {
            line: at.line,
            column: at.column,
            message,
        });
    }

    /// A profile field the source cannot express: it stays absent.
    pub fn undeclared(&mut self, ptr: &'static str, reason: impl Into<Cow<'static, str>>) {
        self.undeclared_because(ptr, reason.into());
    }

    fn undeclared_because(&mut self, ptr: &'static str, reason: Cow<'static, str>) {
        if !self.has(ptr) && !self.undeclared.iter().any(|u| u.pointer == ptr) {
            self.undeclared.push(Undeclared {
                pointer: ptr,
                reason,
            });
        }
    }

    /// The pointer of a variable under `/environment/variables`.
    pub fn variable_ptr(name: &str) -> String {
        format!("/environment/variables/{}", escape_token(name))
    }

    /// The profile as built so far.
    pub fn root(&self) -> &OVal {
        &self.root
    }

    /// [`Draft::finish`] with an empty source map.
    pub fn finish_without_map(mut self) -> Result<Finished, TooLarge> {
        self.map = Vec::new();
        self.finish()
    }

    /// Finish: the profile as JSON text, the source map sorted by pointer,
    /// or where it grew past the limit for a profile.
    pub fn finish(self) -> Result<Finished, TooLarge> {
        if let Some(at) = self.over {
            return Err(TooLarge {
                limit: self.limit,
                at,
            });
        }
        // The text runs about a quarter over its floor (separators, the
        // newlines of arrays): room for that writes it in one allocation,
        // not in a copy at twice the size.
        let mut out = String::with_capacity(self.floor + self.floor / 4);
        render(&self.root, &mut String::new(), 0, &mut out);
        out.push('\n');
        let mut map = self.map;
        // Stable: of one pointer's places, the last mapped stays last.
        crate::sort::sort_by(&mut map, |a, b| a.0.cmp(&b.0));
        map.dedup_by(|later, kept| {
            let same = later.0 == kept.0;
            if same {
                kept.1 = later.1;
            }
            same
        });
        let map: Vec<Mapped> = map
            .into_iter()
            .map(|(pointer, at)| Mapped {
                pointer,
                line: at.line,
                column: at.column,
            })
            .collect();
        let mut notes = self.notes;
        crate::sort::sort_by_key(&mut notes, |n| (n.line, n.column));
        notes.dedup();
        Ok((out, map, notes, self.undeclared))
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
    render(v, &mut String::new(), 0, &mut out);
    out.push('\n');
    out
}

/// A string as JSON text. A character that could hide or reorder text on
/// a terminal is written as an escape (the value is unchanged); the rest
/// as the JSON writer writes it.
fn json_str(out: &mut String, s: &str) {
    // ASCII text is written the same either way (`json_string` keeps
    // serde's ASCII output, which `string` equals): only other text needs
    // the look at each character.
    if !s.is_ascii() && s.chars().any(crate::sanitize::is_dangerous) {
        out.push_str(&crate::sanitize::json_string(s));
    } else {
        crate::json_writer::string(out, s);
    }
}

/// A scalar as JSON text; `false` for arrays and objects.
fn scalar(v: &OVal, out: &mut String) -> bool {
    use std::fmt::Write;
    match v {
        OVal::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        OVal::Int(n) => {
            let _ = write!(out, "{n}");
        }
        OVal::Negative(n) => {
            let _ = write!(out, "{n}");
        }
        OVal::Str(s) => json_str(out, s),
        OVal::Arr(_) | OVal::Obj(_) => return false,
    }
    true
}

fn pad(out: &mut String, indent: usize) {
    for _ in 0..indent {
        out.push_str("  ");
    }
}

/// Write `v` at `indent`; `pattern` is its pointer with array indexes
/// written as `N` (for [`key_order`]), extended and restored in place.
fn render(v: &OVal, pattern: &mut String, indent: usize, out: &mut String) {
    match v {
        OVal::Arr(items) => {
            if items.is_empty() {
                out.push_str("[]");
                return;
            }
            // Scalars on one line when it fits: written, then measured.
            if items
                .iter()
                .all(|i| !matches!(i, OVal::Arr(_) | OVal::Obj(_)))
            {
                let mark = out.len();
                out.push('[');
                for (i, it) in items.iter().enumerate() {
                    if i > 0 {
                        out.push_str(", ");
                    }
                    scalar(it, out);
                }
                let width = out.get(mark + 1..).map_or(0, |l| l.chars().count());
                if width + indent * 2 <= 76 {
                    out.push(']');
                    return;
                }
                out.truncate(mark);
            }
            let len = pattern.len();
            pattern.push_str("/N");
            out.push_str("[\n");
            for (i, it) in items.iter().enumerate() {
                pad(out, indent + 1);
                render(it, pattern, indent + 1, out);
                out.push_str(if i + 1 < items.len() { ",\n" } else { "\n" });
            }
            pattern.truncate(len);
            pad(out, indent);
            out.push(']');
        }
        OVal::Obj(members) => {
            if members.is_empty() {
                out.push_str("{}");
                return;
            }
            let len = pattern.len();
            out.push_str("{\n");
            let mut write = |i: usize, k: &str, val: &OVal, pattern: &mut String| {
                pad(out, indent + 1);
                json_str(out, k);
                out.push_str(": ");
                pattern.push('/');
                pattern.push_str(k);
                render(val, pattern, indent + 1, out);
                pattern.truncate(len);
                out.push_str(if i + 1 < members.len() { ",\n" } else { "\n" });
            };
            match key_order(pattern) {
                Some(order) => {
                    let mut sorted: Vec<&(String, OVal)> = members.iter().collect();
                    crate::sort::sort_by_key(&mut sorted, |(k, _)| {
                        order.iter().position(|o| o == k).unwrap_or(usize::MAX)
                    });
                    for (i, (k, val)) in sorted.into_iter().enumerate() {
                        write(i, k, val, pattern);
                    }
                }
                None => {
                    for (i, (k, val)) in members.iter().enumerate() {
                        write(i, k, val, pattern);
                    }
                }
            }
            pad(out, indent);
            out.push('}');
        }
        other => {
            scalar(other, out);
        }
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
        let (json, map, _, _) = d.finish().unwrap();
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

    /// A pointer mapped twice keeps the place given last, as an insert
    /// into a map would.
    #[test]
    fn the_last_place_mapped_wins() {
        let at = |line| Loc { line, column: 1 };
        let mut d = Draft::new("x", "test", at(1));
        for (ptr, line) in [
            ("/b", 2),
            ("/a", 3),
            ("/b", 4),
            ("/a", 5),
            ("/b", 6),
            ("/c", 7),
        ] {
            d.set(ptr, "v", at(line));
        }
        let (_, map, _, _) = d.finish().unwrap();
        let lines: Vec<(&str, u32)> = map.iter().map(|m| (m.pointer.as_str(), m.line)).collect();
        assert_eq!(lines, [("", 1), ("/a", 5), ("/b", 6), ("/c", 7)]);
    }

    fn rendered_len(d: &Draft) -> usize {
        let mut out = String::new();
        render(&d.root, &mut String::new(), 0, &mut out);
        out.len() + 1
    }

    proptest::proptest! {
        /// The size a draft keeps is never above the text it writes,
        /// whatever is set, replaced or appended in whatever order: a draft
        /// refused at the limit would have been over it.
        #[test]
        fn the_size_floor_never_passes_the_text(
            ops in proptest::collection::vec(
                (0usize..4, 0usize..9, 0usize..5, "[a-z\"\\\\/~é\n]{0,12}"),
                0..40,
            )
        ) {
            const PTRS: [&str; 9] = [
                "/limits/memory_bytes", "/mounts", "/boundary/host_namespaces",
                "/environment/variables/a~1b", "/environment/variables", "/environment",
                "/network/allow", "/boundary/capabilities/add", "/x~0y/z",
            ];
            let at = Loc { line: 1, column: 1 };
            let mut d = Draft::new("p", "test", at);
            for (op, p, kind, text) in ops {
                let ptr = PTRS[p];
                let v = match kind {
                    0 => OVal::Str(text),
                    1 => OVal::Int(text.len() as u64 * 1000),
                    2 => OVal::Negative(-1 - text.len() as i64),
                    3 => OVal::obj(),
                    _ => OVal::Arr(vec![OVal::Str(text), OVal::Bool(true)]),
                };
                match op {
                    0 => d.set(ptr, v, at),
                    1 => d.set_quiet(ptr, v),
                    2 => {
                        d.push(ptr, v, at);
                    }
                    _ => {
                        let m = d.push("/mounts", OVal::obj(), at);
                        d.set(&format!("{m}/source"), v, at);
                    }
                }
                proptest::prop_assert!(d.floor <= rendered_len(&d), "{} > {}", d.floor, rendered_len(&d));
            }
        }
    }

    /// A draft passing its limit stops growing and names the setting that
    /// took it over; one just under it is written whole.
    #[test]
    fn a_draft_over_its_limit_is_refused_where_it_passed_it() {
        let at = |line| Loc { line, column: 3 };
        let build = |limit: usize, n: u32| {
            let mut d = Draft::with_limit("x", "test", at(1), limit);
            for i in 0..n {
                d.set(&Draft::variable_ptr(&format!("V{i}")), "value", at(i + 2));
            }
            d
        };
        let whole = build(usize::MAX, 100).finish().unwrap().0.len();
        assert!(build(whole, 100).finish().is_ok(), "at the limit");
        let over = build(whole / 2, 100);
        assert!(over.floor <= whole / 2 + 64, "stopped growing");
        let e = over.finish().unwrap_err();
        assert_eq!(e.limit, whole / 2);
        assert!((40..=80).contains(&e.at.line), "{e:?}");
        // The floor is close to the text: a profile of variables is
        // refused within a sixth of the limit.
        let d = build(usize::MAX, 100);
        assert!(d.floor * 6 >= whole * 5, "{} vs {whole}", d.floor);
    }
}
