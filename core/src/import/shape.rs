//! What each importer knows of its input: every key it reads, notes or
//! holds neutral, and the type the format's own consumer requires of its
//! value (the Kubernetes API server, `docker compose`'s JSON schema, runc,
//! Codex, the sandbox runtime).
//!
//! One walk holds an input to its table before the importer reads a value:
//! - a value of the wrong type is an [`ImportError`] at its line and
//!   column naming the expected type, because the consumer refuses the file
//!   and an importer that skipped the value would audit a configuration
//!   that never runs;
//! - a key the table does not hold is a note naming its path, at every
//!   level the table describes, so a key added upstream cannot vanish;
//! - a key with [`Role::Note`] gets its note here, so a known key with no
//!   profile field cannot vanish either;
//! - a key with [`Role::Neutral`] says in the table why it has no bearing
//!   on what the job can reach.
//!
//! The tables are also what the structural tests iterate (every key, every
//! value shape), so they grow with the importers.

use super::builder::Draft;
use super::invalid;
use super::tree::{Loc, SNode, SValue};
use super::ImportError;
use crate::decode::suggest;

/// The type a value must have.
#[derive(Debug, Clone, Copy)]
pub enum Shape {
    /// Anything: content the import does not look into.
    Any,
    /// One value (a string, a number or a boolean).
    Scalar,
    /// A string: quoted, or a plain scalar that is no boolean or number
    /// (in JSON and TOML, a quoted one).
    Text,
    /// A boolean (the importer's boolean reading, see [`SNode::as_bool`]).
    Bool,
    /// A whole number ([`SNode::as_int`]).
    Int,
    /// One of these words (an API enum: any other value is refused).
    Enum(&'static [&'static str]),
    /// A list whose items have one shape.
    Seq(&'static Shape),
    /// A mapping of known keys.
    Map(&'static Table),
    /// A mapping with keys of any name, each value of one shape.
    Dict(&'static Shape),
    /// One value or a list of values.
    ScalarOrSeq,
    /// A list or a mapping, of anything.
    Collection,
    /// A list of `KEY=VALUE` strings or a mapping of scalars (Compose's
    /// `list_or_dict`).
    ListOrDict,
    /// A mapping of known keys, or one value (Compose's short forms).
    MapOrScalar(&'static Table),
    /// A list whose items are a value or a mapping of known keys.
    SeqOfMapOrScalar(&'static Table),
}

/// What the importer does with a key.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// Read by the importer: mapped onto the profile or noted there.
    Read,
    /// No bearing on what the job can reach or do. The table says why, in
    /// text for its readers that the value does not keep: nothing reads it,
    /// and the page would carry every reason otherwise.
    Neutral,
    /// No profile equivalent: the walk notes the key with this text.
    Note(&'static str),
}

#[derive(Debug, Clone, Copy)]
pub struct Field {
    pub key: &'static str,
    pub shape: Shape,
    pub role: Role,
}

/// The keys of one mapping.
#[derive(Debug)]
pub struct Table {
    pub fields: &'static [Field],
    /// Keys starting `x-` are the author's own (Compose extensions).
    pub extensions: bool,
}

impl Table {
    pub fn field(&self, key: &str) -> Option<&'static Field> {
        self.fields.iter().find(|f| f.key == key)
    }
    pub fn keys(&self) -> Vec<&'static str> {
        self.fields.iter().map(|f| f.key).collect()
    }
}

/// Shorthands for the tables.
pub const fn read(key: &'static str, shape: Shape) -> Field {
    Field {
        key,
        shape,
        role: Role::Read,
    }
}
pub const fn neutral(key: &'static str, shape: Shape, _why: &'static str) -> Field {
    Field {
        key,
        shape,
        role: Role::Neutral,
    }
}
pub const fn noted(key: &'static str, shape: Shape, note: &'static str) -> Field {
    Field {
        key,
        shape,
        role: Role::Note(note),
    }
}

pub const SCALARS: Shape = Shape::Seq(&Shape::Scalar);
pub const TEXTS: Shape = Shape::Seq(&Shape::Text);
pub const INTS: Shape = Shape::Seq(&Shape::Int);
pub const ANY_MAP: Shape = Shape::Dict(&Shape::Any);
pub const ANY_SEQ: Shape = Shape::Seq(&Shape::Any);
pub const MAPS: Shape = Shape::Seq(&ANY_MAP);

fn expected(shape: &Shape) -> &'static str {
    match shape {
        Shape::Any => "anything",
        Shape::Scalar => "a single value",
        Shape::Text => "a string",
        Shape::Bool => "true or false",
        Shape::Int => "a whole number",
        Shape::Enum(_) => "one of the values the format defines",
        Shape::Seq(_) => "a list",
        Shape::Map(_) | Shape::Dict(_) => "a mapping",
        Shape::ScalarOrSeq => "a value or a list",
        Shape::Collection => "a list or a mapping",
        Shape::ListOrDict => "a list or a mapping",
        Shape::MapOrScalar(_) => "a value or a mapping",
        Shape::SeqOfMapOrScalar(_) => "a list",
    }
}

/// Copy the notes of a draft that walked a shared part of the input
/// (a Compose file's top level, a pod spec) into a profile's draft, in
/// their order: the part is walked once, however many profiles share it.
pub fn adopt_notes(d: &mut Draft, from: &Draft) {
    for n in &from.notes {
        d.note(
            Loc {
                line: n.line,
                column: n.column,
            },
            n.message.clone(),
        );
    }
}

/// Walk `node` against `shape`; `path` names it in messages
/// (`spec.securityContext`), `unknown` words the note for a key the table
/// does not hold (it gets the path and a "did you mean" hint).
pub fn walk(
    d: &mut Draft,
    node: &SNode,
    shape: &Shape,
    path: &str,
    unknown: &dyn Fn(&str) -> String,
) -> Result<(), ImportError> {
    walk_at(d, node, shape, &At::Root(path), unknown)
}

/// Where a node stands, as messages name it (`spec.containers[0].env`).
/// Written out only when a message needs it: most nodes of a large file
/// are walked without one.
#[derive(Clone, Copy)]
enum At<'a> {
    Root(&'a str),
    /// A table's key: `path.key`, or `key` alone at the top.
    Field(&'a At<'a>, &'a str),
    /// A dictionary's key: always `path.key`.
    Entry(&'a At<'a>, &'a str),
    Index(&'a At<'a>, usize),
}

impl At<'_> {
    fn is_empty(&self) -> bool {
        match self {
            At::Root(p) => p.is_empty(),
            At::Field(parent, k) => parent.is_empty() && k.is_empty(),
            At::Entry(..) | At::Index(..) => false,
        }
    }
}

impl std::fmt::Display for At<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            At::Root(p) => f.write_str(p),
            At::Field(parent, k) if parent.is_empty() => f.write_str(k),
            At::Field(parent, k) | At::Entry(parent, k) => write!(f, "{parent}.{k}"),
            At::Index(parent, i) => write!(f, "{parent}[{i}]"),
        }
    }
}

fn walk_at(
    d: &mut Draft,
    node: &SNode,
    shape: &Shape,
    path: &At<'_>,
    unknown: &dyn Fn(&str) -> String,
) -> Result<(), ImportError> {
    // An explicit null is the key left out, as every consumer reads it.
    if node.is_null() {
        return Ok(());
    }
    let wrong = || {
        invalid(
            node.loc,
            format!(
                "`{path}` must be {}, found {}",
                expected(shape),
                node.kind()
            ),
        )
    };
    let scalar = matches!(node.value, SValue::Scalar(_));
    match shape {
        Shape::Any => {}
        Shape::Scalar => {
            if !scalar {
                return Err(wrong());
            }
        }
        Shape::Text => {
            let text = match &node.value {
                SValue::Scalar(s) => s.quoted || !matches!(node.kind(), "a boolean" | "a number"),
                _ => false,
            };
            if !text {
                return Err(wrong());
            }
        }
        Shape::Bool => {
            if node.as_bool().is_none() {
                return Err(wrong());
            }
        }
        Shape::Int => {
            if node.as_int().is_none() {
                return Err(wrong());
            }
        }
        Shape::Enum(words) => {
            if !node.as_str().is_some_and(|t| words.contains(&t)) {
                return Err(invalid(
                    node.loc,
                    format!("`{path}` must be one of {}", words.join(", ")),
                ));
            }
        }
        Shape::ScalarOrSeq => match &node.value {
            SValue::Scalar(_) => {}
            SValue::Seq(items) => {
                for (i, item) in items.iter().enumerate() {
                    walk_at(d, item, &Shape::Scalar, &At::Index(path, i), unknown)?;
                }
            }
            _ => return Err(wrong()),
        },
        Shape::Collection => {
            if scalar {
                return Err(wrong());
            }
        }
        Shape::ListOrDict => match &node.value {
            SValue::Seq(items) => {
                for (i, item) in items.iter().enumerate() {
                    walk_at(d, item, &Shape::Scalar, &At::Index(path, i), unknown)?;
                }
            }
            SValue::Map(entries) => {
                for e in entries {
                    walk_at(
                        d,
                        &e.value,
                        &Shape::Scalar,
                        &At::Entry(path, &e.key),
                        unknown,
                    )?;
                }
            }
            _ => return Err(wrong()),
        },
        Shape::Seq(item) => {
            let SValue::Seq(items) = &node.value else {
                return Err(wrong());
            };
            for (i, it) in items.iter().enumerate() {
                walk_at(d, it, item, &At::Index(path, i), unknown)?;
            }
        }
        Shape::Dict(value) => {
            let SValue::Map(entries) = &node.value else {
                return Err(wrong());
            };
            for e in entries {
                walk_at(d, &e.value, value, &At::Entry(path, &e.key), unknown)?;
            }
        }
        Shape::Map(table) => {
            if !node.is_map() {
                return Err(wrong());
            }
            walk_table(d, node, table, path, unknown)?;
        }
        Shape::MapOrScalar(table) => match &node.value {
            SValue::Scalar(_) => {}
            SValue::Map(_) => walk_table(d, node, table, path, unknown)?,
            _ => return Err(wrong()),
        },
        Shape::SeqOfMapOrScalar(table) => {
            let SValue::Seq(items) = &node.value else {
                return Err(wrong());
            };
            for (i, it) in items.iter().enumerate() {
                walk_at(
                    d,
                    it,
                    &Shape::MapOrScalar(table),
                    &At::Index(path, i),
                    unknown,
                )?;
            }
        }
    }
    Ok(())
}

fn walk_table(
    d: &mut Draft,
    node: &SNode,
    table: &Table,
    path: &At<'_>,
    unknown: &dyn Fn(&str) -> String,
) -> Result<(), ImportError> {
    for e in node.entries() {
        let here = At::Field(path, &e.key);
        match table.field(&e.key) {
            Some(f) => {
                walk_at(d, &e.value, &f.shape, &here, unknown)?;
                if let (Role::Note(text), false) = (f.role, e.value.is_null()) {
                    d.note(e.key_loc, format!("`{here}`: {text}"));
                }
            }
            None if table.extensions && e.key.starts_with("x-") => {}
            None => {
                let hint = suggest(&e.key, &table.keys())
                    .map(|s| format!("; did you mean `{s}`?"))
                    .unwrap_or_default();
                d.note(e.key_loc, format!("{}{hint}", unknown(&here.to_string())));
            }
        }
    }
    Ok(())
}
