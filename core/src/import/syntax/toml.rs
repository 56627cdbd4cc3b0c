//! TOML (1.1) to a spanned tree, with a reader of our own.
//!
//! Why not the `toml` crate: the page imports Codex configs too, and the
//! `toml` parser stack was the largest single importer cost in its bundle
//! (figures in `BENCHMARKS.md`). This reader keeps what the importers need
//! from it: the line and column of every key and value, scalars as text,
//! and every refusal the specification asks for (a duplicate key, a table
//! defined twice, a dotted key extending a table defined by a header or an
//! inline table, an invalid escape, number or date). `tests::
//! agrees_with_the_toml_crate` holds it to `toml` (a dev-dependency) on
//! generated documents and every Codex fixture: the same tree, or both
//! refuse. A light pre-scan refuses more than 64 levels of arrays, inline
//! tables or dotted key segments before anything is built.

use super::tree::{checked_text, LineIndex, Loc, SEntry, SNode, SValue, Scalar, TreeLimits};
use crate::import::{ImportError, ImportErrorKind};

/// Parse a TOML document.
pub fn parse(bytes: &[u8]) -> Result<SNode, ImportError> {
    let limits = TreeLimits::default();
    let text = checked_text(bytes, &limits)?;
    let index = LineIndex::new(text);
    shape_check(text, &index, limits.max_depth)?;
    let mut reader = Reader {
        b: text.as_bytes(),
        t: text,
        i: 0,
    };
    let root = reader.document().map_err(|f| {
        let kind = match f.what {
            What::Syntax(m) => ImportErrorKind::Syntax(format!("invalid TOML: {m}")),
            What::Duplicate { key, first } => ImportErrorKind::DuplicateKey {
                key,
                first: index.loc(first),
            },
        };
        ImportError::new(kind).at(index.loc(f.at))
    })?;
    let mut values = 0usize;
    table(&root, index.loc(0), &index, 0, &limits, &mut values)
}

/// A refusal and the byte offset it is about; boxed, so each `?` of
/// the reader moves a pointer.
type Fail = Box<Failure>;

struct Failure {
    at: usize,
    what: What,
}

enum What {
    Syntax(String),
    Duplicate { key: String, first: usize },
}

fn syntax<T>(at: usize, msg: impl Into<String>) -> Result<T, Fail> {
    Err(Box::new(Failure {
        at,
        what: What::Syntax(msg.into()),
    }))
}

fn duplicate<T>(key: &Key, first: usize) -> Result<T, Fail> {
    Err(Box::new(Failure {
        at: key.at,
        what: What::Duplicate {
            key: key.name.clone(),
            first,
        },
    }))
}

/// A value and the byte offset where it starts (a header's `[` for a
/// table or array of tables written with headers).
struct Node {
    at: usize,
    v: Val,
}

enum Val {
    Scalar(Scalar),
    /// `tables`: an array of tables (`[[name]]`), which headers may extend.
    Array {
        items: Vec<Node>,
        tables: bool,
    },
    Table(Table),
}

impl Val {
    fn kind(&self) -> &'static str {
        match self {
            Val::Scalar(s) if s.quoted => "a string",
            Val::Scalar(_) => "a scalar",
            Val::Array { .. } => "an array",
            Val::Table(_) => "a table",
        }
    }
}

/// A table under construction. `implicit`: created only as the parent of
/// a header or dotted key so far; `dotted`: created (or extended) by a
/// dotted key; `inline`: written `{ ... }`, closed to any extension.
#[derive(Default)]
struct Table {
    entries: Vec<Entry>,
    /// From [`INDEXED_FROM`] keys on. Keys come from the file: the
    /// standard hasher, with its random keys, so no file can choose keys
    /// that all collide. Boxed: absent, it takes a pointer's room.
    #[allow(clippy::box_collection)]
    index: Option<Box<std::collections::HashMap<String, usize>>>,
    implicit: bool,
    dotted: bool,
    inline: bool,
}

struct Entry {
    key: String,
    key_at: usize,
    node: Node,
}

/// Below this many entries a table is searched, not indexed: most tables
/// hold a few keys, and a map per table (60,000 `[profiles.*]` of one key
/// each) cost more memory than the file.
const INDEXED_FROM: usize = 16;

impl Table {
    fn find(&self, key: &str) -> Option<usize> {
        match &self.index {
            Some(index) => index.get(key).copied(),
            None => self.entries.iter().position(|e| e.key == key),
        }
    }

    /// The entry named `key`, with its index.
    fn find_mut(&mut self, key: &str) -> Option<(usize, &mut Entry)> {
        let i = self.find(key)?;
        Some((i, self.entries.get_mut(i)?))
    }

    /// Where `key` was first written, when the table has it.
    fn first_at(&self, key: &str) -> Option<usize> {
        self.entries.get(self.find(key)?).map(|e| e.key_at)
    }

    fn insert(&mut self, key: &Key, node: Node) -> usize {
        let at = self.entries.len();
        if at + 1 == INDEXED_FROM {
            // Indexed from now on: the entries so far first.
            self.index = Some(Box::new(
                self.entries
                    .iter()
                    .enumerate()
                    .map(|(i, e)| (e.key.clone(), i))
                    .collect(),
            ));
        }
        if let Some(index) = &mut self.index {
            index.insert(key.name.clone(), at);
        }
        if at == 0 {
            // Room for one: a vector's first push makes room for four, and
            // most tables (`[profiles.x]`) hold one or two keys.
            self.entries.reserve_exact(1);
        }
        self.entries.push(Entry {
            key: key.name.clone(),
            key_at: key.at,
            node,
        });
        at
    }

    fn new_child(&mut self, key: &Key, dotted: bool, inline: bool) -> usize {
        let t = Table {
            implicit: true,
            dotted,
            inline,
            ..Table::default()
        };
        self.insert(
            key,
            Node {
                at: key.at,
                v: Val::Table(t),
            },
        )
    }

    fn table_mut(&mut self, i: usize) -> Option<&mut Table> {
        match &mut self.entries.get_mut(i)?.node.v {
            Val::Table(t) => Some(t),
            Val::Array {
                items,
                tables: true,
            } => match &mut items.last_mut()?.v {
                Val::Table(t) => Some(t),
                _ => None,
            },
            _ => None,
        }
    }
}

/// One segment of a key, decoded, with where it was written.
struct Key {
    name: String,
    at: usize,
}

/// Where keys of the current header go: entry indices from the root (an
/// array of tables stands for its last table).
type Path = Vec<usize>;

fn resolve<'t>(root: &'t mut Table, path: &Path) -> Option<&'t mut Table> {
    let mut t = root;
    for &i in path {
        t = t.table_mut(i)?;
    }
    Some(t)
}

fn cannot_extend<T>(key: &Key, kind: &str) -> Result<T, Fail> {
    syntax(
        key.at,
        format!("`{}` is {kind}, which this key cannot extend", key.name),
    )
}

/// Walk (creating) the tables a header or a dotted key names, as the
/// specification's table rules read: arrays of tables stand for their
/// last table, and a dotted key may not reach into a table that a header
/// or an inline table defined.
fn descend<'t>(
    mut t: &'t mut Table,
    path: &[Key],
    dotted: bool,
    trail: &mut Path,
) -> Result<&'t mut Table, Fail> {
    for key in path {
        let i = match t.find_mut(&key.name) {
            None => t.new_child(key, dotted, false),
            Some((i, entry)) => {
                let key_at = entry.key_at;
                match &mut entry.node.v {
                    Val::Array { tables: true, .. } => {}
                    Val::Table(child) => {
                        if child.inline {
                            return cannot_extend(key, "an inline table");
                        }
                        if dotted && child.implicit {
                            child.dotted = true;
                        }
                        if dotted && !child.implicit {
                            return duplicate(key, key_at);
                        }
                    }
                    other => return cannot_extend(key, other.kind()),
                }
                i
            }
        };
        trail.push(i);
        t = match t.table_mut(i) {
            Some(child) => child,
            None => return syntax(key.at, "cannot extend this value"),
        };
    }
    Ok(t)
}

/// The same walk inside an inline table, where only dotted keys create
/// tables and nothing written `{ ... }` or as an array may be extended.
fn descend_inline<'t>(mut t: &'t mut Table, path: &[Key]) -> Result<&'t mut Table, Fail> {
    for key in path {
        let i = match t.find_mut(&key.name) {
            None => t.new_child(key, true, true),
            Some((i, entry)) => {
                let key_at = entry.key_at;
                match &entry.node.v {
                    Val::Table(child) if !child.implicit => return duplicate(key, key_at),
                    Val::Table(_) => i,
                    other => return cannot_extend(key, other.kind()),
                }
            }
        };
        t = match t.entries.get_mut(i).map(|e| &mut e.node.v) {
            Some(Val::Table(child)) => child,
            _ => return syntax(key.at, "cannot extend this value"),
        };
    }
    Ok(t)
}

struct Reader<'a> {
    b: &'a [u8],
    t: &'a str,
    i: usize,
}

impl Reader<'_> {
    fn peek(&self) -> Option<u8> {
        self.b.get(self.i).copied()
    }

    fn at(&self, s: &str) -> bool {
        self.b
            .get(self.i..)
            .is_some_and(|r| r.starts_with(s.as_bytes()))
    }

    fn ws(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t')) {
            self.i += 1;
        }
    }

    /// A comment's characters: tab, printable ASCII and any non-ASCII.
    fn comment(&mut self) -> Result<(), Fail> {
        while let Some(c) = self.peek() {
            match c {
                b'\n' => break,
                b'\r' if self.at("\r\n") => break,
                b'\t' | 0x20..=0x7e | 0x80.. => self.i += 1,
                _ => return syntax(self.i, "invalid character in a comment"),
            }
        }
        Ok(())
    }

    /// A newline (`\n` or `\r\n`), when one is next.
    fn newline(&mut self) -> Result<bool, Fail> {
        match self.peek() {
            Some(b'\n') => {
                self.i += 1;
                Ok(true)
            }
            Some(b'\r') if self.at("\r\n") => {
                self.i += 2;
                Ok(true)
            }
            Some(b'\r') => syntax(self.i, "a carriage return must be followed by a newline"),
            _ => Ok(false),
        }
    }

    /// The rest of a line after an expression: spaces, a comment, the end.
    fn end_of_line(&mut self) -> Result<(), Fail> {
        self.ws();
        if self.peek() == Some(b'#') {
            self.comment()?;
        }
        if self.peek().is_none() || self.newline()? {
            return Ok(());
        }
        syntax(self.i, "expected a newline after the value")
    }

    /// Spaces, comments and newlines, as allowed inside arrays and (TOML
    /// 1.1) inline tables.
    fn ws_comment_newline(&mut self) -> Result<(), Fail> {
        loop {
            self.ws();
            match self.peek() {
                Some(b'#') => self.comment()?,
                Some(b'\n' | b'\r') => {
                    self.newline()?;
                }
                _ => return Ok(()),
            }
        }
    }

    fn document(&mut self) -> Result<Table, Fail> {
        let mut root = Table::default();
        let mut current: Path = Vec::new();
        loop {
            self.ws();
            match self.peek() {
                None => return Ok(root),
                Some(b'#') => {
                    self.comment()?;
                    self.end_of_line()?;
                }
                Some(b'\n' | b'\r') => {
                    self.newline()?;
                }
                Some(b'[') => {
                    current = self.header(&mut root)?;
                    self.end_of_line()?;
                }
                Some(_) => {
                    let (path, key) = self.key()?;
                    self.ws();
                    if self.peek() != Some(b'=') {
                        return syntax(self.i, "expected `=` after the key");
                    }
                    self.i += 1;
                    self.ws();
                    let value = self.value()?;
                    let dotted = !path.is_empty();
                    let mut trail = Vec::new();
                    let Some(here) = resolve(&mut root, &current) else {
                        return syntax(key.at, "the table of this key is gone");
                    };
                    let parent = descend(here, &path, dotted, &mut trail)?;
                    if dotted && !parent.implicit {
                        return cannot_extend(path.last().unwrap_or(&key), "an array of tables");
                    }
                    if let Some(first) = parent.first_at(&key.name) {
                        return duplicate(&key, first);
                    }
                    parent.insert(&key, value);
                    self.end_of_line()?;
                }
            }
        }
    }

    /// `[a.b]` or `[[a.b]]`: define (or reopen) the table and return where
    /// the keys that follow go.
    fn header(&mut self, root: &mut Table) -> Result<Path, Fail> {
        let open = self.i;
        let array = self.at("[[");
        self.i += if array { 2 } else { 1 };
        self.ws();
        let (parents, key) = self.key()?;
        self.ws();
        let close = if array { "]]" } else { "]" };
        if !self.at(close) {
            return syntax(
                self.i,
                format!("expected `{close}` to close the table header"),
            );
        }
        self.i += close.len();
        let mut path = Vec::new();
        let parent = descend(root, &parents, false, &mut path)?;
        match parent.find(&key.name) {
            None if array => {
                let first = Node {
                    at: open,
                    v: Val::Table(Table::default()),
                };
                let i = parent.insert(
                    &key,
                    Node {
                        at: open,
                        v: Val::Array {
                            items: vec![first],
                            tables: true,
                        },
                    },
                );
                path.push(i);
            }
            None => {
                let i = parent.insert(
                    &key,
                    Node {
                        at: open,
                        v: Val::Table(Table::default()),
                    },
                );
                path.push(i);
            }
            Some(i) => {
                let Some(entry) = parent.entries.get_mut(i) else {
                    return syntax(key.at, "the table of this key is gone");
                };
                match &mut entry.node.v {
                    Val::Array {
                        items,
                        tables: true,
                    } if array => items.push(Node {
                        at: open,
                        v: Val::Table(Table::default()),
                    }),
                    // A table so far only named as a parent: this header
                    // defines it, and it now starts here.
                    Val::Table(t) if !array && t.implicit && !t.dotted && !t.inline => {
                        t.implicit = false;
                        entry.key_at = key.at;
                        entry.node.at = open;
                    }
                    _ => return duplicate(&key, entry.key_at),
                }
                path.push(i);
            }
        }
        Ok(path)
    }

    /// A key: its parent segments and the last segment.
    fn key(&mut self) -> Result<(Vec<Key>, Key), Fail> {
        let mut parts = vec![self.simple_key()?];
        loop {
            let save = self.i;
            self.ws();
            if self.peek() != Some(b'.') {
                self.i = save;
                break;
            }
            self.i += 1;
            self.ws();
            parts.push(self.simple_key()?);
        }
        let last = parts.pop().unwrap_or(Key {
            name: String::new(),
            at: self.i,
        });
        Ok((parts, last))
    }

    fn simple_key(&mut self) -> Result<Key, Fail> {
        let at = self.i;
        let name = match self.peek() {
            Some(b'"') if !self.at("\"\"\"") => self.basic_string()?,
            Some(b'\'') if !self.at("'''") => self.literal_string()?,
            _ => {
                while matches!(
                    self.peek(),
                    Some(b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_')
                ) {
                    self.i += 1;
                }
                if self.i == at {
                    return syntax(at, "expected a key");
                }
                self.t[at..self.i].to_string()
            }
        };
        Ok(Key { name, at })
    }

    fn value(&mut self) -> Result<Node, Fail> {
        let at = self.i;
        let quoted = |text: String| {
            Ok(Node {
                at,
                v: Val::Scalar(Scalar { text, quoted: true }),
            })
        };
        match self.peek() {
            Some(b'"') if self.at("\"\"\"") => quoted(self.ml_string(b'"')?),
            Some(b'"') => quoted(self.basic_string()?),
            Some(b'\'') if self.at("'''") => quoted(self.ml_string(b'\'')?),
            Some(b'\'') => quoted(self.literal_string()?),
            Some(b'[') => self.array(),
            Some(b'{') => self.inline_table(),
            Some(c) if !is_token_start(c) => {
                let text = self.bare_scalar()?;
                Ok(Node {
                    at,
                    v: Val::Scalar(Scalar {
                        text,
                        quoted: false,
                    }),
                })
            }
            _ => syntax(at, "expected a value"),
        }
    }

    fn array(&mut self) -> Result<Node, Fail> {
        let at = self.i;
        self.i += 1;
        let mut items = Vec::new();
        loop {
            self.ws_comment_newline()?;
            if self.peek() == Some(b']') {
                break;
            }
            items.push(self.value()?);
            self.ws_comment_newline()?;
            match self.peek() {
                Some(b',') => self.i += 1,
                Some(b']') => break,
                _ => return syntax(self.i, "expected `,` or `]` in the array"),
            }
        }
        self.i += 1;
        Ok(Node {
            at,
            v: Val::Array {
                items,
                tables: false,
            },
        })
    }

    fn inline_table(&mut self) -> Result<Node, Fail> {
        let at = self.i;
        self.i += 1;
        let mut t = Table {
            inline: true,
            ..Table::default()
        };
        loop {
            self.ws_comment_newline()?;
            if self.peek() == Some(b'}') {
                break;
            }
            let (path, key) = self.key()?;
            // Newlines and comments around `=` as well: the `toml` crate
            // read them there, and configs it read must still read.
            self.ws_comment_newline()?;
            if self.peek() != Some(b'=') {
                return syntax(self.i, "expected `=` after the key");
            }
            self.i += 1;
            self.ws_comment_newline()?;
            let value = self.value()?;
            let target = descend_inline(&mut t, &path)?;
            if target.dotted == path.is_empty() {
                return cannot_extend(&key, "a table defined elsewhere");
            }
            if let Some(first) = target.first_at(&key.name) {
                return duplicate(&key, first);
            }
            target.insert(&key, value);
            self.ws_comment_newline()?;
            match self.peek() {
                Some(b',') => self.i += 1,
                Some(b'}') => break,
                _ => return syntax(self.i, "expected `,` or `}` in the inline table"),
            }
        }
        self.i += 1;
        Ok(Node {
            at,
            v: Val::Table(t),
        })
    }

    /// `"..."`, with escapes; no newline inside.
    fn basic_string(&mut self) -> Result<String, Fail> {
        let open = self.i;
        self.i += 1;
        let mut out = String::new();
        loop {
            let start = self.i;
            while let Some(c) = self.peek() {
                if c == b'"' || c == b'\\' || !basic_char(c) {
                    break;
                }
                self.i += 1;
            }
            out.push_str(&self.t[start..self.i]);
            match self.peek() {
                Some(b'"') => {
                    self.i += 1;
                    return Ok(out);
                }
                Some(b'\\') => out.push(self.escape()?),
                Some(b'\n' | b'\r') | None => {
                    return syntax(open, "unterminated string");
                }
                Some(_) => return syntax(self.i, "invalid character in a string"),
            }
        }
    }

    /// `'...'`: no escapes; no newline inside.
    fn literal_string(&mut self) -> Result<String, Fail> {
        let open = self.i;
        self.i += 1;
        let start = self.i;
        loop {
            match self.peek() {
                Some(b'\'') => break,
                Some(b'\n' | b'\r') | None => return syntax(open, "unterminated string"),
                Some(c) if literal_char(c) => self.i += 1,
                Some(_) => return syntax(self.i, "invalid character in a string"),
            }
        }
        let s = self.t[start..self.i].to_string();
        self.i += 1;
        Ok(s)
    }

    /// `"""..."""` or `'''...'''`: a newline right after the opening
    /// delimiter is dropped; up to two quotes may end the content.
    fn ml_string(&mut self, q: u8) -> Result<String, Fail> {
        let open = self.i;
        self.i += 3;
        let delim = if q == b'"' { "\"\"\"" } else { "'''" };
        if self.at("\r\n") {
            self.i += 2;
        } else if self.peek() == Some(b'\n') {
            self.i += 1;
        }
        let mut out = String::new();
        loop {
            let start = self.i;
            while let Some(c) = self.peek() {
                let plain = if q == b'"' {
                    c != b'"' && c != b'\\' && basic_char(c)
                } else {
                    c != b'\'' && literal_char(c)
                };
                if !plain {
                    break;
                }
                self.i += 1;
            }
            out.push_str(&self.t[start..self.i]);
            match self.peek() {
                None => return syntax(open, "unterminated multi-line string"),
                Some(c) if c == q => {
                    if self.at(delim) {
                        let mut n = 3;
                        while n < 5 && self.b.get(self.i + n) == Some(&q) {
                            n += 1;
                        }
                        for _ in 3..n {
                            out.push(char::from(q));
                        }
                        self.i += n;
                        return Ok(out);
                    }
                    out.push(char::from(q));
                    self.i += 1;
                }
                Some(b'\n') => {
                    out.push('\n');
                    self.i += 1;
                }
                Some(b'\r') => {
                    if !self.at("\r\n") {
                        return syntax(self.i, "a carriage return must be followed by a newline");
                    }
                    out.push_str("\r\n");
                    self.i += 2;
                }
                Some(b'\\') if q == b'"' => {
                    // A backslash ending a line trims the line break and
                    // the whitespace after it.
                    let save = self.i;
                    self.i += 1;
                    self.ws();
                    if matches!(self.peek(), Some(b'\n' | b'\r')) {
                        loop {
                            self.ws();
                            if !self.newline()? {
                                break;
                            }
                        }
                    } else {
                        self.i = save;
                        out.push(self.escape()?);
                    }
                }
                Some(_) => return syntax(self.i, "invalid character in a string"),
            }
        }
    }

    /// One escape sequence of a basic string, the backslash next.
    fn escape(&mut self) -> Result<char, Fail> {
        let at = self.i;
        self.i += 1;
        let c = self.peek();
        self.i += 1;
        let digits = match c {
            Some(b'b') => return Ok('\u{8}'),
            Some(b'e') => return Ok('\u{1b}'),
            Some(b'f') => return Ok('\u{c}'),
            Some(b'n') => return Ok('\n'),
            Some(b'r') => return Ok('\r'),
            Some(b't') => return Ok('\t'),
            Some(b'\\') => return Ok('\\'),
            Some(b'"') => return Ok('"'),
            Some(b'x') => 2,
            Some(b'u') => 4,
            Some(b'U') => 8,
            _ => return syntax(at, "invalid escape sequence"),
        };
        let hex = self.b.get(self.i..self.i + digits).unwrap_or_default();
        if hex.len() != digits || !hex.iter().all(u8::is_ascii_hexdigit) {
            return syntax(at, "invalid escape sequence");
        }
        let value = u32::from_str_radix(&self.t[self.i..self.i + digits], 16).ok();
        self.i += digits;
        match value.and_then(char::from_u32) {
            Some(ch) => Ok(ch),
            None => syntax(at, "escape is not a Unicode scalar value"),
        }
    }

    /// A number, boolean or date: the run of characters up to a
    /// delimiter (a space only inside a date-time).
    fn bare_scalar(&mut self) -> Result<String, Fail> {
        let at = self.i;
        loop {
            // Quotes inside a word belong to it (a word never starts with one).
            while self
                .peek()
                .is_some_and(|c| c == b'.' || c == b'"' || c == b'\'' || !is_token_start(c))
            {
                self.i += 1;
            }
            let save = self.i;
            self.ws();
            if self.i > save && self.peek().is_some_and(|c| !is_token_start(c)) {
                continue;
            }
            self.i = save;
            break;
        }
        let raw = &self.t[at..self.i];
        // The message names the kind of value, never the text: a secret
        // written without quotes must not reach the error.
        let what = match raw.as_bytes().first() {
            Some(b't') => "invalid boolean, expected `true`",
            Some(b'f') => "invalid boolean, expected `false`",
            Some(b'0'..=b'9' | b'+' | b'-' | b'.' | b'_') => "invalid number or date",
            _ => "not a value (a string needs quotes)",
        };
        scalar_text(raw).ok_or_else(|| {
            Box::new(Failure {
                at,
                what: What::Syntax(what.to_string()),
            })
        })
    }
}

/// Bytes that start a token other than a bare word.
fn is_token_start(c: u8) -> bool {
    matches!(
        c,
        b'.' | b'='
            | b','
            | b'['
            | b']'
            | b'{'
            | b'}'
            | b' '
            | b'\t'
            | b'#'
            | b'\r'
            | b'\n'
            | b'"'
            | b'\''
    )
}

/// Characters a basic string holds as written: no control characters
/// but tab, no DEL.
fn basic_char(c: u8) -> bool {
    matches!(c, b'\t' | 0x20..=0x7e | 0x80..)
}

fn literal_char(c: u8) -> bool {
    c != b'\'' && basic_char(c)
}

/// The text an unquoted scalar stands for, as the tree keeps it: decimal
/// integers and floats without `_`, other radixes in decimal, dates in
/// RFC 3339 form; `None` when it is not a TOML value.
fn scalar_text(raw: &str) -> Option<String> {
    let b = raw.as_bytes();
    match raw {
        "true" | "false" | "inf" | "+inf" | "-inf" | "nan" | "+nan" | "-nan" => {
            return Some(raw.to_string())
        }
        _ => {}
    }
    if let Some(rest) = raw.get(2..).filter(|_| b.first() == Some(&b'0')) {
        let radix = match b.get(1) {
            Some(b'x') => 16,
            Some(b'o') => 8,
            Some(b'b') => 2,
            _ => 0,
        };
        if radix != 0 {
            let digits = underscored(rest, |c| char::from(c).is_digit(radix))?;
            return Some(
                u64::from_str_radix(&digits, radix)
                    .map(|n| n.to_string())
                    .unwrap_or_else(|_| format!("{}{digits}", &raw[..2])),
            );
        }
    }
    let lead = b
        .iter()
        .position(|c| !c.is_ascii_digit())
        .unwrap_or(b.len());
    if lead > 0 && matches!(b.get(lead), Some(b'-' | b':')) {
        return datetime(raw);
    }
    // An integer or a float: sign, integer part, fraction, exponent.
    let unsigned = raw.strip_prefix(['+', '-']).unwrap_or(raw);
    let sign = &raw[..raw.len() - unsigned.len()];
    let end_int = unsigned.find(['.', 'e', 'E']).unwrap_or(unsigned.len());
    let (int, rest) = unsigned.split_at(end_int);
    let int_digits = underscored(int, |c| c.is_ascii_digit())?;
    if int_digits.len() > 1 && int_digits.starts_with('0') {
        return None;
    }
    let mut out = format!("{sign}{int_digits}");
    let mut rest = rest;
    if let Some(frac) = rest.strip_prefix('.') {
        let end = frac.find(['e', 'E']).unwrap_or(frac.len());
        out.push('.');
        out.push_str(&underscored(&frac[..end], |c| c.is_ascii_digit())?);
        rest = &frac[end..];
    }
    if let Some(exp) = rest.strip_prefix(['e', 'E']) {
        out.push_str(&rest[..1]);
        let digits = exp.strip_prefix(['+', '-']).unwrap_or(exp);
        out.push_str(&exp[..exp.len() - digits.len()]);
        out.push_str(&underscored(digits, |c| c.is_ascii_digit())?);
    } else if !rest.is_empty() {
        return None;
    }
    Some(out)
}

/// Digits with single `_` between them, the `_` removed.
fn underscored(s: &str, digit: impl Fn(u8) -> bool) -> Option<String> {
    let mut out = String::with_capacity(s.len());
    let mut prev_digit = false;
    for &c in s.as_bytes() {
        if c == b'_' {
            if !prev_digit {
                return None;
            }
            prev_digit = false;
        } else if digit(c) {
            out.push(char::from(c));
            prev_digit = true;
        } else {
            return None;
        }
    }
    prev_digit.then_some(out)
}

/// An RFC 3339 date, time, local date-time or offset date-time, in the
/// form the tree keeps: `T` between date and time, seconds written when
/// there is a fraction, the fraction without trailing zeros, `Z` upper case.
fn datetime(raw: &str) -> Option<String> {
    let b = raw.as_bytes();
    let num = |from: usize, len: usize| -> Option<u32> {
        let d = b.get(from..from + len)?;
        d.iter()
            .all(u8::is_ascii_digit)
            .then(|| d.iter().fold(0, |n, c| n * 10 + u32::from(c - b'0')))
    };
    let mut out = String::new();
    let mut i = 0;
    let has_date = b.get(4) == Some(&b'-');
    if has_date {
        let (year, month, day) = (num(0, 4)?, num(5, 2)?, num(8, 2)?);
        if b.get(7) != Some(&b'-') || b.get(10).is_some_and(u8::is_ascii_digit) {
            return None;
        }
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
        let days = match month {
            2 if leap => 29,
            2 => 28,
            4 | 6 | 9 | 11 => 30,
            1..=12 => 31,
            _ => return None,
        };
        if day < 1 || day > days {
            return None;
        }
        out.push_str(&raw[..10]);
        i = 10;
        match b.get(i) {
            None => return Some(out),
            Some(b'T' | b't' | b' ') => {
                out.push('T');
                i += 1;
            }
            Some(_) => return None,
        }
    }
    let (hour, minute) = (num(i, 2)?, num(i + 3, 2)?);
    if b.get(i + 2) != Some(&b':') || hour > 23 || minute > 59 {
        return None;
    }
    out.push_str(&raw[i..i + 5]);
    i += 5;
    if b.get(i) == Some(&b':') {
        let second = num(i + 1, 2)?;
        if second > 60 {
            return None;
        }
        out.push_str(&raw[i..i + 3]);
        i += 3;
        if b.get(i) == Some(&b'.') {
            let n = b
                .get(i + 1..)
                .unwrap_or_default()
                .iter()
                .take_while(|c| c.is_ascii_digit())
                .count();
            if n == 0 {
                return None;
            }
            let frac = raw[i + 1..i + 1 + n.min(9)].trim_end_matches('0');
            out.push('.');
            out.push_str(if frac.is_empty() { "0" } else { frac });
            i += 1 + n;
        }
    }
    if b.get(i).is_some_and(u8::is_ascii_digit) {
        return None;
    }
    if has_date {
        match b.get(i) {
            Some(b'Z' | b'z') => {
                out.push('Z');
                i += 1;
            }
            Some(&s @ (b'+' | b'-')) => {
                let (h, m) = (num(i + 1, 2)?, num(i + 4, 2)?);
                if b.get(i + 3) != Some(&b':')
                    || h > 23
                    || m > 59
                    || b.get(i + 6).is_some_and(u8::is_ascii_digit)
                {
                    return None;
                }
                let sign = if s == b'-' && h + m > 0 { '-' } else { '+' };
                out.push(sign);
                out.push_str(&raw[i + 1..i + 6]);
                i += 6;
            }
            _ => {}
        }
    }
    (i == b.len()).then_some(out)
}

fn table(
    t: &Table,
    loc: Loc,
    index: &LineIndex<'_>,
    depth: usize,
    limits: &TreeLimits,
    values: &mut usize,
) -> Result<SNode, ImportError> {
    if depth > limits.max_depth {
        return Err(ImportError::new(ImportErrorKind::TooDeep {
            limit: limits.max_depth,
        })
        .at(loc));
    }
    let mut entries: Vec<(usize, SEntry)> = Vec::with_capacity(t.entries.len());
    for e in &t.entries {
        let value = value(&e.node, index, depth + 1, limits, values)?;
        entries.push((
            e.key_at,
            SEntry {
                key: e.key.clone(),
                key_loc: index.loc(e.key_at),
                value,
            },
        ));
    }
    // A header that reopens a table moves its key to the header: order by
    // where each key now stands, as the file reads.
    crate::sort::sort_by_key(&mut entries, |(start, _)| *start);
    Ok(SNode::new(
        loc,
        SValue::Map(entries.into_iter().map(|(_, e)| e).collect()),
    ))
}

fn value(
    v: &Node,
    index: &LineIndex<'_>,
    depth: usize,
    limits: &TreeLimits,
    values: &mut usize,
) -> Result<SNode, ImportError> {
    let loc = index.loc(v.at);
    *values += 1;
    if *values > limits.max_values {
        return Err(ImportError::new(ImportErrorKind::TooManyValues {
            limit: limits.max_values,
        })
        .at(loc));
    }
    Ok(match &v.v {
        Val::Scalar(s) => SNode::new(loc, SValue::Scalar(s.clone())),
        Val::Array { items, .. } => {
            if depth > limits.max_depth {
                return Err(ImportError::new(ImportErrorKind::TooDeep {
                    limit: limits.max_depth,
                })
                .at(loc));
            }
            let mut out = Vec::with_capacity(items.len());
            for it in items {
                out.push(value(it, index, depth + 1, limits, values)?);
            }
            SNode::new(loc, SValue::Seq(out))
        }
        Val::Table(t) => table(t, loc, index, depth, limits, values)?,
    })
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Lex {
    Normal,
    Comment,
    Basic,
    Literal,
    MlBasic,
    MlLiteral,
}

/// Refuse nesting the parser would turn into a tree deeper than `max`:
/// arrays and inline tables nested more than `max` levels, or a key with
/// more than `max` dotted segments. Strings and comments are skipped.
fn shape_check(text: &str, index: &LineIndex<'_>, max: usize) -> Result<(), ImportError> {
    let b = text.as_bytes();
    let mut lex = Lex::Normal;
    let mut stack: Vec<u8> = Vec::new();
    let mut key_mode = true;
    let mut header = false;
    let mut line_start = true;
    let mut segments = 1usize;
    let too_deep = |at: usize| {
        Err(ImportError::new(ImportErrorKind::TooDeep { limit: max }).at(index.loc(at)))
    };
    let mut i = 0;
    while let Some(&c) = b.get(i) {
        match lex {
            Lex::Comment => {
                if c == b'\n' {
                    lex = Lex::Normal;
                    continue;
                }
            }
            Lex::Basic => match c {
                b'\\' => i += 1,
                b'"' | b'\n' => lex = Lex::Normal,
                _ => {}
            },
            Lex::Literal => {
                if c == b'\'' || c == b'\n' {
                    lex = Lex::Normal;
                }
            }
            Lex::MlBasic => {
                if c == b'\\' {
                    i += 1;
                } else if b.get(i..i + 3) == Some(b"\"\"\"") {
                    lex = Lex::Normal;
                    i += 2;
                }
            }
            Lex::MlLiteral => {
                if b.get(i..i + 3) == Some(b"'''") {
                    lex = Lex::Normal;
                    i += 2;
                }
            }
            Lex::Normal => match c {
                b'#' => lex = Lex::Comment,
                b'"' | b'\'' => {
                    let triple = b.get(i..i + 3) == Some(&[c, c, c][..]);
                    lex = match (c, triple) {
                        (b'"', true) => Lex::MlBasic,
                        (b'"', false) => Lex::Basic,
                        (_, true) => Lex::MlLiteral,
                        _ => Lex::Literal,
                    };
                    if triple {
                        i += 2;
                    }
                }
                b'\n' => {
                    if stack.is_empty() {
                        key_mode = true;
                        header = false;
                        segments = 1;
                    }
                    line_start = true;
                    i += 1;
                    continue;
                }
                b'[' if stack.is_empty() && line_start => {
                    header = true;
                    key_mode = true;
                    segments = 1;
                    // `[[name]]`: the second bracket belongs to the header.
                    if b.get(i + 1) == Some(&b'[') {
                        i += 1;
                    }
                }
                b'[' | b'{' => {
                    stack.push(c);
                    if stack.len() > max {
                        return too_deep(i);
                    }
                    key_mode = c == b'{';
                    segments = 1;
                }
                b']' if header => {
                    header = false;
                    key_mode = false;
                }
                b']' | b'}' => {
                    stack.pop();
                    key_mode = false;
                }
                b',' if stack.last() == Some(&b'{') => {
                    key_mode = true;
                    segments = 1;
                }
                b'=' if !header => key_mode = false,
                b'.' if key_mode => {
                    segments += 1;
                    if segments > max {
                        return too_deep(i);
                    }
                }
                _ => {}
            },
        }
        if !c.is_ascii_whitespace() {
            line_start = false;
        }
        i += 1;
    }
    Ok(())
}

#[cfg(test)]
mod reference {
    use ::toml::de::{DeTable, DeValue};
    use ::toml::Spanned;

    use super::super::tree::{
        checked_text, LineIndex, Loc, SEntry, SNode, SValue, Scalar, TreeLimits,
    };
    use super::shape_check;
    use crate::import::{ImportError, ImportErrorKind};

    /// The reader before this one: the `toml` crate's span-keeping
    /// parser, kept as the oracle of the differential tests.
    pub fn parse(bytes: &[u8]) -> Result<SNode, ImportError> {
        let limits = TreeLimits::default();
        let text = checked_text(bytes, &limits)?;
        let index = LineIndex::new(text);
        shape_check(text, &index, limits.max_depth)?;
        let doc = DeTable::parse(text).map_err(|e| {
            let span = e.span();
            let mut msg = e.message().trim().to_string();
            if msg == "duplicate key" {
                if let Some(key) = span.clone().and_then(|s| text.get(s)) {
                    msg = format!("duplicate key `{key}`");
                }
            }
            let err = ImportError::new(ImportErrorKind::Syntax(format!("invalid TOML: {msg}")));
            match span {
                Some(s) => err.at(index.loc(s.start)),
                None => err,
            }
        })?;
        let mut values = 0usize;
        let root = table(doc.get_ref(), index.loc(0), &index, 0, &limits, &mut values)?;
        Ok(root)
    }

    fn table(
        t: &DeTable<'_>,
        loc: Loc,
        index: &LineIndex<'_>,
        depth: usize,
        limits: &TreeLimits,
        values: &mut usize,
    ) -> Result<SNode, ImportError> {
        if depth > limits.max_depth {
            return Err(ImportError::new(ImportErrorKind::TooDeep {
                limit: limits.max_depth,
            })
            .at(loc));
        }
        let mut entries: Vec<(usize, SEntry)> = Vec::new();
        for (k, v) in t.iter() {
            let key_loc = index.loc(k.span().start);
            let value = value(v, index, depth + 1, limits, values)?;
            entries.push((
                k.span().start,
                SEntry {
                    key: k.get_ref().to_string(),
                    key_loc,
                    value,
                },
            ));
        }
        // The parser's map is sorted by key; restore the order of the file.
        entries.sort_by_key(|(start, _)| *start);
        Ok(SNode::new(
            loc,
            SValue::Map(entries.into_iter().map(|(_, e)| e).collect()),
        ))
    }

    fn value(
        v: &Spanned<DeValue<'_>>,
        index: &LineIndex<'_>,
        depth: usize,
        limits: &TreeLimits,
        values: &mut usize,
    ) -> Result<SNode, ImportError> {
        let loc = index.loc(v.span().start);
        *values += 1;
        if *values > limits.max_values {
            return Err(ImportError::new(ImportErrorKind::TooManyValues {
                limit: limits.max_values,
            })
            .at(loc));
        }
        let plain = |t: String| {
            SValue::Scalar(Scalar {
                text: t,
                quoted: false,
            })
        };
        Ok(match v.get_ref() {
            DeValue::String(s) => SNode::new(
                loc,
                SValue::Scalar(Scalar {
                    text: s.to_string(),
                    quoted: true,
                }),
            ),
            DeValue::Integer(i) => {
                let text = if i.radix() == 10 {
                    i.as_str().to_string()
                } else {
                    u64::from_str_radix(&i.as_str().replace('_', ""), i.radix())
                        .map(|n| n.to_string())
                        .unwrap_or_else(|_| i.to_string())
                };
                SNode::new(loc, plain(text))
            }
            DeValue::Float(f) => SNode::new(loc, plain(f.as_str().to_string())),
            DeValue::Boolean(b) => SNode::new(loc, plain(b.to_string())),
            DeValue::Datetime(d) => SNode::new(loc, plain(d.to_string())),
            DeValue::Array(items) => {
                if depth > limits.max_depth {
                    return Err(ImportError::new(ImportErrorKind::TooDeep {
                        limit: limits.max_depth,
                    })
                    .at(loc));
                }
                let mut out = Vec::with_capacity(items.len());
                for it in items.iter() {
                    out.push(value(it, index, depth + 1, limits, values)?);
                }
                SNode::new(loc, SValue::Seq(out))
            }
            DeValue::Table(t) => table(t, loc, index, depth, limits, values)?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spans_and_source_order() {
        let n = parse(b"z = 1\na = \"x\"\n\n[t]\nk = [1, 2]\n").unwrap();
        let keys: Vec<&str> = n.entries().iter().map(|e| e.key.as_str()).collect();
        assert_eq!(keys, ["z", "a", "t"]);
        let k = n.get("t").unwrap().get("k").unwrap();
        assert_eq!(k.loc, Loc { line: 5, column: 5 });
        assert_eq!(k.items()[1].as_u64(), Some(2));
        assert_eq!(n.get("a").unwrap().as_bool(), None);
    }

    #[test]
    fn duplicates_are_errors_with_position() {
        let e = parse(b"a = 1\nb = 2\na = 3\n").unwrap_err();
        assert_eq!(e.loc.map(|l| l.line), Some(3));
        assert!(
            e.to_string().contains("duplicate key `a` (first at 1:1)"),
            "{e}"
        );
        let e = parse(b"[t]\nx = 1\n[t]\ny = 2\n").unwrap_err();
        assert_eq!(e.loc.map(|l| l.line), Some(3), "{e}");
    }

    /// Tables are searched below `INDEXED_FROM` keys and indexed from
    /// there: a duplicate is found on either side of the switch, whichever
    /// key it repeats, and so is every key by name.
    #[test]
    fn duplicates_are_found_in_small_and_large_tables() {
        for n in [
            1,
            2,
            INDEXED_FROM - 2,
            INDEXED_FROM - 1,
            INDEXED_FROM,
            INDEXED_FROM + 5,
            40,
        ] {
            let keys: String = (0..n).map(|i| format!("k{i} = {i}\n")).collect();
            let t = parse(keys.as_bytes()).unwrap();
            for i in 0..n {
                assert_eq!(
                    t.get(&format!("k{i}")).and_then(|v| v.as_u64()),
                    Some(i as u64)
                );
            }
            for dup in [0, n / 2, n - 1] {
                let text = format!("{keys}k{dup} = 0\n");
                let e = parse(text.as_bytes()).unwrap_err();
                assert_eq!(
                    e.loc.map(|l| l.line),
                    Some(n as u32 + 1),
                    "{n} keys, k{dup}: {e}"
                );
                let header = format!("[t]\n{keys}[t.k{dup}]\n");
                assert!(parse(header.as_bytes()).is_err(), "{n} keys, [t.k{dup}]");
            }
        }
    }

    #[test]
    fn deep_input_is_refused_before_parsing() {
        let dotted = format!("{} = 1\n", vec!["a"; 100_000].join("."));
        let e = parse(dotted.as_bytes()).unwrap_err();
        assert!(matches!(e.kind, ImportErrorKind::TooDeep { .. }), "{e}");
        let header = format!("[{}]\n", vec!["a"; 100_000].join("."));
        assert!(matches!(
            parse(header.as_bytes()).unwrap_err().kind,
            ImportErrorKind::TooDeep { .. }
        ));
        let arrays = format!("x = {}", "[".repeat(100_000));
        assert!(matches!(
            parse(arrays.as_bytes()).unwrap_err().kind,
            ImportErrorKind::TooDeep { .. }
        ));
        // Floats, dates and dotted strings in values are not key segments.
        let ok = format!(
            "x = [{}]\ny = \"{}\"\n",
            vec!["1.5"; 200].join(", "),
            "a.".repeat(200)
        );
        assert!(parse(ok.as_bytes()).is_ok());
    }

    /// A value written without quotes is refused by its kind; its text,
    /// which may be a secret, is not repeated.
    #[test]
    fn refusals_do_not_repeat_the_value() {
        for v in [
            "ghp_0123456789abcdef",
            "tok3n-x",
            "1_0secret",
            "2024-13-99secret",
        ] {
            let e = parse(format!("api_key = {v}\n").as_bytes()).unwrap_err();
            let text = e.to_string();
            assert!(!text.contains(v) && !text.contains("secret"), "{text}");
            assert_eq!(
                e.loc,
                Some(Loc {
                    line: 1,
                    column: 11
                }),
                "{text}"
            );
        }
    }

    #[test]
    fn syntax_errors() {
        for bad in ["a = ", "[t", "a = \"x", "a = [1,", "= 1", "a = 1 b = 2"] {
            let e = parse(bad.as_bytes()).unwrap_err();
            assert!(e.loc.is_some(), "{bad:?}: {e}");
        }
    }

    /// Ours and the `toml` crate's reader give the same tree, or both
    /// refuse; or ours refuses a number the `toml` crate let through
    /// although the specification has no such number (`0x`, `1_0"0`: its
    /// decoder checks the digits between underscores as hexadecimal).
    fn same_as_reference(doc: &str) -> Result<(), String> {
        let ours = parse(doc.as_bytes());
        let theirs = reference::parse(doc.as_bytes());
        match (&ours, &theirs) {
            (Ok(a), Ok(b)) if a == b => Ok(()),
            (Err(e), Err(_)) if e.loc.is_some() => Ok(()),
            (Err(e), Ok(tree))
                if matches!(e.kind, ImportErrorKind::Syntax(_))
                    && e.loc
                        .and_then(|at| scalar_at(tree, at))
                        .is_some_and(|t| !spec_number(t)) =>
            {
                Ok(())
            }
            _ => Err(format!("{doc:?}\nours:   {ours:?}\ntheirs: {theirs:?}")),
        }
    }

    fn scalar_at(n: &SNode, at: Loc) -> Option<&str> {
        match &n.value {
            SValue::Scalar(s) if !s.quoted && n.loc == at => Some(&s.text),
            SValue::Seq(items) => items.iter().find_map(|i| scalar_at(i, at)),
            SValue::Map(entries) => entries.iter().find_map(|e| scalar_at(&e.value, at)),
            _ => None,
        }
    }

    /// Whether decoded number text (underscores gone, other radixes in
    /// decimal) is one the specification's grammar allows: written
    /// independently of the reader under test, from the ABNF.
    fn spec_number(t: &str) -> bool {
        let digits = |s: &str| !s.is_empty() && s.bytes().all(|c| c.is_ascii_digit());
        let u = t.strip_prefix(['+', '-']).unwrap_or(t);
        let (mantissa, exp) = match u.split_once(['e', 'E']) {
            Some((m, e)) => (m, Some(e.strip_prefix(['+', '-']).unwrap_or(e))),
            None => (u, None),
        };
        let (int, frac) = match mantissa.split_once('.') {
            Some((i, f)) => (i, Some(f)),
            None => (mantissa, None),
        };
        digits(int)
            && (int == "0" || !int.starts_with('0'))
            && frac.is_none_or(digits)
            && exp.is_none_or(digits)
    }

    /// Unquoted values, valid and not: numbers in every radix, signs,
    /// underscores, leading zeros, floats, specials, booleans, and dates
    /// and times in every RFC 3339 form the specification allows or not.
    const SCALARS: &[&str] = &[
        "0",
        "+0",
        "-0",
        "1",
        "+1",
        "-1",
        "42",
        "1_000",
        "1__000",
        "_1",
        "1_",
        "01",
        "00",
        "-01",
        "+99",
        "9223372036854775807",
        "99999999999999999999999",
        "-9223372036854775808",
        "0x1f",
        "0xDEAD_beef",
        "0x",
        "0x_1",
        "0x1_",
        "+0x1",
        "0X1f",
        "0o17",
        "0o8",
        "0b101",
        "0b2",
        "0b1_0",
        "0xffffffffffffffffff",
        "0d10",
        "1.0",
        "+1.5",
        "-0.0",
        "3.14_15",
        "1e5",
        "1E5",
        "1e+5",
        "1e-5",
        "1.5e3",
        "1_0.5",
        "1.e5",
        ".5",
        "1.",
        "1.5.3",
        "1e5.3",
        "1e",
        "00.5",
        "0.5",
        "0e0",
        "1e0_5",
        "1e_5",
        "1.5_",
        "1._5",
        "-.5",
        "inf",
        "+inf",
        "-inf",
        "nan",
        "+nan",
        "-nan",
        "infinity",
        "Inf",
        "NaN",
        "true",
        "false",
        "True",
        "FALSE",
        "tru",
        "truex",
        "yes",
        "1979-05-27",
        "1979-05-27T07:32:00Z",
        "1979-05-27t07:32:00z",
        "1979-05-27 07:32:00",
        "1979-05-27T07:32:00-07:00",
        "1979-05-27T07:32:00+00:00",
        "1979-05-27T07:32:00-00:00",
        "1979-05-27T00:32:00.999999-07:00",
        "1979-05-27T07:32:00.5",
        "1979-05-27T07:32:00.000",
        "1979-05-27T07:32:00.1234567891",
        "1979-05-27T07:32",
        "1979-05-27T07:32Z",
        "1979-05-27 07:32",
        "07:32:00",
        "07:32",
        "00:32:00.999999",
        "07:32:00.",
        "24:00:00",
        "23:60:00",
        "23:59:60",
        "23:59:61",
        "1979-02-29",
        "2000-02-29",
        "1900-02-29",
        "1979-04-31",
        "1979-13-01",
        "1979-00-01",
        "1979-01-00",
        "1979-5-27",
        "19790-05-27",
        "1979-05-270",
        "1979-05-27T",
        "1979-05-27T7:32:00",
        "1979-05-27T07:32:0",
        "1979-05-27T07:32:00+7:00",
        "1979-05-27T07:32:00+07:0",
        "1979-05-27T07:32:00+24:00",
        "1979-05-27T07:32:00+07:60",
        "07:32:00Z",
        "07:32:00+01:00",
        "1979-05-27  07:32:00",
        "1979-05-27 x",
        "1:30",
        "1979-05-27T07:32:00.Z",
        "1979-05-27T07:32.5",
        "a",
        "-",
        "+",
        "_",
        "1 2",
        "-1-2",
    ];

    #[test]
    fn scalars_read_as_the_toml_crate_reads_them() {
        let mut failures = Vec::new();
        for s in SCALARS {
            for doc in [
                format!("x = {s}\n"),
                format!("x = [{s}, {s}]"),
                format!("x = {{ y = {s} }}\n"),
                format!("x = {s} # c\n"),
            ] {
                if let Err(e) = same_as_reference(&doc) {
                    failures.push(e);
                }
            }
        }
        assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    }

    /// Strings and keys: escapes (TOML 1.1 `\e` and `\xHH` too), control
    /// characters, multi-line forms with their trimmed first newline,
    /// line-ending backslashes and up to two closing quotes.
    const STRINGS: &[&str] = &[
        r#""""#,
        r#""a b""#,
        r#""tab\there""#,
        r#""\u00e9\U0001F600""#,
        r#""\x41\e""#,
        r#""\uD800""#,
        r#""\U00110000""#,
        r#""\u12""#,
        r#""\q""#,
        r#""\ ""#,
        "\"a\tb\"",
        "\"a\u{7f}b\"",
        "\"a\u{1}b\"",
        "\"é ü\"",
        "''",
        r"'a\b'",
        "'it''s'",
        "'a\u{7f}'",
        "'a\tb'",
        "\"\"\"\nline\"\"\"",
        "\"\"\"\r\nline\"\"\"",
        "\"\"\"a\n\nb\"\"\"",
        "\"\"\"a \\\n   b\"\"\"",
        "\"\"\"a \\   \n\n  b\"\"\"",
        "\"\"\"a \\ b\"\"\"",
        "\"\"\"a \\\r\n b\"\"\"",
        "\"\"\"a\"\"\"\"",
        "\"\"\"a\"\"\"\"\"",
        "\"\"\"a\"\"\"\"\"\"",
        "\"\"\"a\"b\"\"c\"\"\"",
        "\"\"\"\"\"\"",
        "\"\"\"a\rb\"\"\"",
        "'''\nx'''",
        "'''a''''",
        "'''a'''''",
        "'''a''''''",
        "'''a\\\nb'''",
        "'''a\u{7f}'''",
        "\"unterminated",
        "'unterminated",
        "\"a\nb\"",
        "\"\"\"never closed",
        "'''never closed",
    ];

    const KEYS: &[&str] = &[
        "a",
        "A-b_9",
        "1",
        "1.5",
        "\"a.b\"",
        "'a.b'",
        "\"\"",
        "''",
        "a . b",
        "a.\"b\".c",
        "\"a\\tb\"",
        "é",
        "a..b",
        ".a",
        "a.",
        "\"\"\"a\"\"\"",
        "a b",
        "true",
        "-",
    ];

    #[test]
    fn strings_and_keys_read_as_the_toml_crate_reads_them() {
        let mut failures = Vec::new();
        for s in STRINGS {
            for doc in [
                format!("x = {s}\n"),
                format!("x = [{s}]"),
                format!("{s} = 1"),
            ] {
                if let Err(e) = same_as_reference(&doc) {
                    failures.push(e);
                }
            }
        }
        for k in KEYS {
            for doc in [
                format!("{k} = 1\n"),
                format!("[{k}]\nx = 1\n"),
                format!("[[{k}]]\n"),
                format!("x = {{ {k} = 1 }}"),
            ] {
                if let Err(e) = same_as_reference(&doc) {
                    failures.push(e);
                }
            }
        }
        assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    }

    /// The table rules, each way round: headers, dotted keys, inline
    /// tables and arrays of tables defining, reopening and extending.
    const TABLES: &[&str] = &[
        "[a]\n[a]",
        "[a.b]\n[a]",
        "[a]\n[a.b]\n[a]",
        "[a.b.c]\n[a]\nb.c.d = 1\n[a.b]",
        "[a.b.c]\n[a]\nb.d = 1",
        "[a.b.c]\n[a]\nb.d = 1\n[a.b]",
        "a.b = 1\n[a]",
        "a.b = 1\n[a.c]",
        "a.b = 1\na.c = 2\na = 3",
        "a = 1\na.b = 2",
        "a = {x = 1}\na.y = 2",
        "a = {x = 1}\n[a]",
        "a = {x = 1}\n[a.b]",
        "a = [1]\n[[a]]",
        "a = []\na.b = 1",
        "[[a]]\nx = 1\n[[a]]\nx = 2\n[a.b]\ny = 3",
        "[[a]]\n[a]",
        "[a]\n[[a]]",
        "[[a.b]]\n[a]\nc = 1",
        "[[a]]\n[x]\n[a.b]\n[[a]]\n[a.b]",
        "[t]\n[[t.a]]\n[t]",
        "[[t.a]]\n[t]\na.x = 1",
        "[x]\ny.z = 1\n[x.y]",
        "[x]\ny.z = 1\n[x.y.w]",
        "x = { a.b = 1, a.c = 2 }",
        "x = { a = {}, a.b = 1 }",
        "x = { a.b = 1, a = 2 }",
        "x = { a = 1, a = 2 }",
        "x = { a = [1], a.b = 1 }",
        "x = { a = 1, }",
        "x = { , }",
        "x = { a = 1,, b = 2 }",
        "x = {\n a = 1, # c\n b = 2\n}",
        "x = [1,]",
        "x = [,]",
        "x = [1,,2]",
        "x = [\n1, # c\n2\n]",
        "x = [1 2]",
        "a.b.c = 1\n[a.b.d]",
        "z = 1\n[b]\nk = 1\n[a]\n[b.c]\n[a.x]\n[c]",
        "[a.b]\nz = 1\n[a]\ny = 1\n[a.c]",
        "[ a . \"b\" ]\n[[ c ]]\n[[ c ]]",
        "[ [a] ]",
        "[[a] ]",
        "[a]]",
        "[a] x = 1",
        "x = 1 y = 2",
        "x = 1\r\ny = 2\r\n",
        "x = 1\ry = 2",
        "# c\u{7f}\nx = 1",
        "# c\u{1}",
        "# c\té\n",
        "x =",
        "= 1",
        "x = 1 # c\r",
    ];

    #[test]
    fn tables_read_as_the_toml_crate_reads_them() {
        let failures: Vec<String> = TABLES
            .iter()
            .filter_map(|d| same_as_reference(d).err())
            .collect();
        assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    }

    /// Every TOML file of the fixtures (under `fixtures/import/`), compiled
    /// in so that core's tests do no I/O either; `core/tests/import_fixtures.rs`
    /// fails when a TOML fixture is missing from this list.
    const TOML_FIXTURES: &[(&str, &str)] = &[
        (
            "codex/danger.toml",
            include_str!("../../../../fixtures/import/codex/danger.toml"),
        ),
        (
            "codex/default.toml",
            include_str!("../../../../fixtures/import/codex/default.toml"),
        ),
        (
            "codex/permissions.toml",
            include_str!("../../../../fixtures/import/codex/permissions.toml"),
        ),
        (
            "codex/workspace-write.toml",
            include_str!("../../../../fixtures/import/codex/workspace-write.toml"),
        ),
        (
            "malformed/codex-duplicate.toml",
            include_str!("../../../../fixtures/import/malformed/codex-duplicate.toml"),
        ),
        (
            "malformed/codex-syntax.toml",
            include_str!("../../../../fixtures/import/malformed/codex-syntax.toml"),
        ),
        (
            "malformed/codex-unknown-mode.toml",
            include_str!("../../../../fixtures/import/malformed/codex-unknown-mode.toml"),
        ),
        (
            "real/codex/cordyscrm.toml",
            include_str!("../../../../fixtures/import/real/codex/cordyscrm.toml"),
        ),
        (
            "real/codex/platformplatform.toml",
            include_str!("../../../../fixtures/import/real/codex/platformplatform.toml"),
        ),
    ];

    /// Every TOML file of the fixtures, and each with one line dropped.
    #[test]
    fn fixtures_read_as_the_toml_crate_reads_them() {
        let mut failures = Vec::new();
        for (path, text) in TOML_FIXTURES {
            let lines: Vec<&str> = text.lines().collect();
            let mut docs = vec![text.to_string()];
            for skip in 0..lines.len() {
                let mut l = lines.clone();
                l.remove(skip);
                docs.push(l.join("\n"));
            }
            for d in docs {
                if let Err(e) = same_as_reference(&d) {
                    failures.push(format!("{path}: {e}"));
                }
            }
        }
        assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    }

    use proptest::prelude::*;

    /// Documents of a few keys, so that keys, tables and arrays of tables
    /// meet again (duplicates, reopened and extended tables), with values
    /// of every kind.
    fn document() -> impl Strategy<Value = String> {
        let key = prop::sample::select(vec![
            "a", "b", "c", "a.b", "a.c", "b.a", "a.b.c", "\"a\"", "'b'", "a . b", "\"a.b\"",
        ]);
        let scalar = prop::sample::select(vec![
            "1",
            "-2",
            "0x1f",
            "1_000",
            "1.5",
            "1e3",
            "inf",
            "true",
            "\"s\"",
            "'t'",
            "1979-05-27",
            "07:32:00",
            "1979-05-27 07:32:00.5Z",
            "\"\"\"\nm\"\"\"",
            "[]",
            "{}",
        ]);
        let value =
            (scalar.clone(), key.clone(), scalar, 0..6usize).prop_map(|(s, k, s2, shape)| {
                match shape {
                    0 => format!("[{s}, {s2}]"),
                    1 => format!("{{ {k} = {s} }}"),
                    2 => format!("{{ {k} = {s}, b.z = {s2}, }}"),
                    3 => format!("[{{ {k} = {s} }},\n # c\n {{}}]"),
                    _ => s.to_string(),
                }
            });
        let line = (0..10usize, key, value).prop_map(|(kind, k, v)| match kind {
            0 => format!("[{k}]"),
            1 => format!("[[{k}]]"),
            2 => "# comment".to_string(),
            3 => String::new(),
            4 => format!("[ {k} ] # c"),
            _ => format!("{k} = {v}"),
        });
        prop::collection::vec(line, 1..12).prop_map(|lines| lines.join("\n") + "\n")
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(3000))]

        #[test]
        fn agrees_with_the_toml_crate(doc in document()) {
            if let Err(e) = same_as_reference(&doc) {
                prop_assert!(false, "{}", e);
            }
        }

        /// One byte of a generated document changed, inserted or removed,
        /// from the characters that matter to TOML.
        #[test]
        fn agrees_with_the_toml_crate_on_mutations(
            doc in document(),
            at in any::<prop::sample::Index>(),
            op in 0..3usize,
            c in prop::sample::select(b"=.,[]{}\"'#\\ \t\n\r01_-+exTZ:a".to_vec()),
        ) {
            let mut bytes = doc.into_bytes();
            let i = at.index(bytes.len() + 1);
            match op {
                0 if i < bytes.len() => bytes[i] = c,
                1 if i < bytes.len() => { bytes.remove(i); }
                _ => bytes.insert(i, c),
            }
            if let Ok(text) = String::from_utf8(bytes) {
                if let Err(e) = same_as_reference(&text) {
                    prop_assert!(false, "{}", e);
                }
            }
        }
    }
}
