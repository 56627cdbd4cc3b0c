//! What every format's fix editor shares: the imported profile an edit is
//! made for, a text's lines, a JSON file with its pointers, and the
//! refusal for an edit no setting writes. Below the editors and the
//! dispatch in `formats.rs`, which both use it.

use std::collections::HashMap;

use super::{Edit, TextEdit};
use crate::import::{Format, Imported, Loc};
use crate::json::{Document, Node, Value};

/// Why a fix cannot be written into the file.
pub type Refusal = String;

/// One imported profile and its parsed document (to read the value an
/// edit removes: which namespace, which capability).
pub(super) struct Profile<'a> {
    pub imported: &'a Imported,
    pub doc: Option<Document>,
}

impl Profile<'_> {
    /// The profile value at `pointer`.
    pub fn value(&self, pointer: &str) -> Option<&Node> {
        let mut node = &self.doc.as_ref()?.root;
        for t in pointer.split('/').skip(1) {
            let t = t.replace("~1", "/").replace("~0", "~");
            node = match &node.value {
                Value::Object(m) => &m.iter().find(|m| m.key == t)?.value,
                Value::Array(items) => items.get(t.parse::<usize>().ok()?)?,
                _ => return None,
            };
        }
        Some(node)
    }

    /// The profile string at `pointer`.
    pub fn str(&self, pointer: &str) -> Option<&str> {
        match &self.value(pointer)?.value {
            Value::String(s) => Some(s),
            _ => None,
        }
    }

    /// Where `pointer` itself came from (not an ancestor's place).
    pub fn origin(&self, pointer: &str) -> Option<Loc> {
        let map = &self.imported.source_map;
        let i = map
            .binary_search_by(|m| m.pointer.as_str().cmp(pointer))
            .ok()?;
        map.get(i).map(|m| Loc {
            line: m.line,
            column: m.column,
        })
    }

    /// `Err` when the format cannot express `pointer` at all, with the
    /// importer's reason.
    pub fn expressible(&self, pointer: &str) -> Result<(), Refusal> {
        for u in self.imported.undeclared.iter() {
            if under(pointer, u.pointer) {
                return Err(format!(
                    "the {} format cannot say `{pointer}`: {}",
                    self.imported.format.name(),
                    u.reason
                ));
            }
        }
        Ok(())
    }
}

/// Whether `pointer` is `ancestor` or lies under it.
pub(super) fn under(pointer: &str, ancestor: &str) -> bool {
    pointer == ancestor
        || (pointer.starts_with(ancestor) && pointer.as_bytes().get(ancestor.len()) == Some(&b'/'))
}

/// The pointer an edit is about.
pub(super) fn pointer_of(e: &Edit) -> &str {
    match e {
        Edit::Set { pointer, .. } | Edit::Remove { pointer } => pointer,
    }
}

/// The refusal for an edit no table entry writes.
pub(super) fn no_setting(format: Format, e: &Edit) -> Refusal {
    match e {
        Edit::Set { pointer, value } => format!(
            "no setting of the {} format writes `{value}` at `{pointer}`",
            format.name()
        ),
        Edit::Remove { pointer } => format!(
            "no setting of the {} format removes `{pointer}`",
            format.name()
        ),
    }
}

/// Byte offsets of line starts, to turn a source map's line and column
/// (columns count characters) back into a byte offset.
pub(super) struct Lines<'a> {
    text: &'a str,
    starts: Vec<usize>,
}

impl<'a> Lines<'a> {
    pub fn new(text: &'a str) -> Lines<'a> {
        let starts = std::iter::once(0)
            .chain(text.match_indices('\n').map(|(i, _)| i + 1))
            .collect();
        Lines { text, starts }
    }

    pub fn offset(&self, loc: Loc) -> Option<usize> {
        let start = *self.starts.get((loc.line as usize).checked_sub(1)?)?;
        let line = self.text.get(start..)?;
        let col = (loc.column as usize).checked_sub(1)?;
        match line.char_indices().nth(col) {
            Some((i, _)) => Some(start + i),
            None if line.chars().count() == col => Some(self.text.len()),
            None => None,
        }
    }
}

/// A JSON file of an import format with the format pointer of every
/// value and key position, so a source-map position names its setting.
pub(super) struct JsonFile<'a> {
    pub text: &'a str,
    pub doc: Document,
    at: HashMap<(u32, u32), String>,
}

impl<'a> JsonFile<'a> {
    pub fn new(text: &'a str) -> Result<JsonFile<'a>, String> {
        let doc = crate::json::parse(text.as_bytes(), crate::json::Limits::default())
            .map_err(|e| e.to_string())?;
        let mut at = HashMap::new();
        fn walk(n: &Node, p: &str, at: &mut HashMap<(u32, u32), String>) {
            at.entry((n.pos.line, n.pos.column))
                .or_insert_with(|| p.to_string());
            match &n.value {
                Value::Object(members) => {
                    for m in members {
                        let q = format!("{p}/{}", crate::json::escape_token(&m.key));
                        at.entry((m.key_pos.line, m.key_pos.column))
                            .or_insert_with(|| q.clone());
                        walk(&m.value, &q, at);
                    }
                }
                Value::Array(items) => {
                    for (i, item) in items.iter().enumerate() {
                        walk(item, &format!("{p}/{i}"), at);
                    }
                }
                _ => {}
            }
        }
        walk(&doc.root, "", &mut at);
        Ok(JsonFile { text, doc, at })
    }

    /// The format pointer of the value or key at `loc`.
    pub fn pointer_at(&self, loc: Loc) -> Option<&str> {
        self.at.get(&(loc.line, loc.column)).map(String::as_str)
    }

    pub fn node(&self, pointer: &str) -> Option<&Node> {
        let mut node = &self.doc.root;
        for t in pointer.split('/').skip(1) {
            let t = t.replace("~1", "/").replace("~0", "~");
            node = match &node.value {
                Value::Object(m) => &m.iter().find(|m| m.key == t)?.value,
                Value::Array(items) => items.get(t.parse::<usize>().ok()?)?,
                _ => return None,
            };
        }
        Some(node)
    }

    /// The strings of the array at `pointer` (empty when absent).
    pub fn strings(&self, pointer: &str) -> Vec<(usize, &str)> {
        match self.node(pointer).map(|n| &n.value) {
            Some(Value::Array(items)) => items
                .iter()
                .enumerate()
                .filter_map(|(i, n)| match &n.value {
                    Value::String(s) => Some((i, s.as_str())),
                    _ => None,
                })
                .collect(),
            _ => Vec::new(),
        }
    }

    /// A text edit appending `items` (JSON texts) to the array at
    /// `pointer`, in the spacing of its items.
    pub fn append(&self, pointer: &str, items: &[String]) -> Option<TextEdit> {
        let node = self.node(pointer)?;
        let Value::Array(existing) = &node.value else {
            return None;
        };
        let close = (node.end as usize).checked_sub(1)?;
        match existing.last() {
            Some(last) => {
                let first = existing.first()?;
                // The text between the array's `[` and its first item is
                // the spacing each item gets after its comma.
                let lead = self
                    .text
                    .get(node.pos.offset as usize + 1..first.pos.offset as usize)?;
                let sep = if lead.contains('\n') {
                    format!(",{lead}")
                } else {
                    ", ".to_string()
                };
                let mut out = String::new();
                for i in items {
                    out.push_str(&sep);
                    out.push_str(i);
                }
                let at = last.end as usize;
                Some(TextEdit {
                    start: at,
                    end: at,
                    text: out,
                })
            }
            None => Some(TextEdit {
                start: node.pos.offset as usize + 1,
                end: close,
                text: items.join(", "),
            }),
        }
    }
}

/// The JSON text of a string.
pub(super) fn quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}
