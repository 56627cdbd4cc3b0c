//! YAML text edits at byte spans: a tree of the file that keeps where every
//! node starts and ends (in bytes), whether it is written in flow or block
//! style, its quoting, anchors and aliases; and the few edits a fix needs
//! (replace a scalar, remove an item or an entry, add an item, add keys),
//! each a [`TextEdit`] that leaves every byte outside its span alone.
//!
//! Why a tree of its own rather than the importers' reader
//! (`import::syntax::yaml`): that reader resolves aliases and merge keys
//! into plain values, which is what an audit needs and exactly what an
//! editor must not do: an edit through an alias changes every place that
//! uses the anchor. This tree is built from the same `saphyr-parser`
//! events, with the same line/column numbering, so a source-map position
//! of an import finds its node here.

use std::collections::HashMap;

use saphyr_parser::{Event, Parser, ScalarStyle, Span};

use crate::fix::json_edit::Refusal;
use crate::fix::TextEdit;
use crate::import::Loc;

/// A node of the file.
#[derive(Debug)]
pub(crate) struct Node {
    /// Byte span, anchor and tag included; a block collection ends where
    /// its last child ends.
    pub start: usize,
    pub end: usize,
    /// Line and column as the importers number them (1-based, columns in
    /// characters).
    pub loc: Loc,
    /// Anchor id (0: none).
    pub anchor: usize,
    /// `Some(id)`: the node is an alias `*name` of anchor `id`.
    pub alias: Option<usize>,
    /// A `[...]` or `{...}` collection.
    pub flow: bool,
    pub kind: Kind,
}

#[derive(Debug)]
pub(crate) enum Kind {
    Scalar { text: String, style: ScalarStyle },
    Seq(Vec<Node>),
    Map(Vec<Entry>),
}

#[derive(Debug)]
pub(crate) struct Entry {
    pub key: Node,
    pub value: Node,
}

impl Node {
    pub fn entries(&self) -> &[Entry] {
        match &self.kind {
            Kind::Map(e) => e,
            _ => &[],
        }
    }

    pub fn items(&self) -> &[Node] {
        match &self.kind {
            Kind::Seq(i) => i,
            _ => &[],
        }
    }

    pub fn is_map(&self) -> bool {
        matches!(self.kind, Kind::Map(_))
    }

    pub fn is_seq(&self) -> bool {
        matches!(self.kind, Kind::Seq(_))
    }

    /// The text of a scalar (`None` for a collection).
    pub fn text(&self) -> Option<&str> {
        match &self.kind {
            Kind::Scalar { text, .. } => Some(text),
            _ => None,
        }
    }

    /// A plain empty scalar or `~`/`null`: a key written with no value.
    pub fn is_null(&self) -> bool {
        matches!(&self.kind, Kind::Scalar { text, style: ScalarStyle::Plain }
            if matches!(text.as_str(), "" | "~" | "null" | "Null" | "NULL"))
    }

    pub fn entry(&self, key: &str) -> Option<&Entry> {
        self.entries().iter().find(|e| e.key.text() == Some(key))
    }

    pub fn get(&self, key: &str) -> Option<&Node> {
        self.entry(key).map(|e| &e.value)
    }
}

/// A parsed YAML stream.
#[derive(Debug)]
pub(crate) struct Doc<'t> {
    pub text: &'t str,
    pub docs: Vec<Node>,
    /// How many aliases refer to each anchor id.
    aliases: HashMap<usize, usize>,
}

enum Frame {
    Seq {
        start: usize,
        loc: Loc,
        anchor: usize,
        flow: bool,
        items: Vec<Node>,
    },
    Map {
        start: usize,
        loc: Loc,
        anchor: usize,
        flow: bool,
        entries: Vec<Entry>,
        key: Option<Node>,
    },
}

/// Character index to byte offset (saphyr counts characters).
struct Offsets(Option<Vec<usize>>);

impl Offsets {
    fn of(text: &str) -> Offsets {
        if text.is_ascii() {
            return Offsets(None);
        }
        let mut v: Vec<usize> = text.char_indices().map(|(i, _)| i).collect();
        v.push(text.len());
        Offsets(Some(v))
    }
    fn byte(&self, char_index: usize) -> usize {
        match &self.0 {
            None => char_index,
            Some(v) => v.get(char_index).copied().unwrap_or(usize::MAX),
        }
    }
}

fn loc(span: &Span) -> Loc {
    Loc {
        line: u32::try_from(span.start.line()).unwrap_or(u32::MAX),
        column: u32::try_from(span.start.col() + 1).unwrap_or(u32::MAX),
    }
}

impl<'t> Doc<'t> {
    /// Parse `text`; a refusal when the editor cannot read it exactly
    /// (the importers' reader accepts a few layouts this one does not).
    pub fn parse(text: &'t str) -> Result<Doc<'t>, Refusal> {
        if text
            .bytes()
            .enumerate()
            .any(|(i, c)| c == b'\r' && text.as_bytes().get(i + 1) != Some(&b'\n'))
        {
            return Err(
                "the file breaks lines with a lone CR; its spans cannot be edited safely".into(),
            );
        }
        let off = Offsets::of(text);
        let mut stack: Vec<Frame> = Vec::new();
        let mut docs = Vec::new();
        let mut aliases: HashMap<usize, usize> = HashMap::new();
        let mut parser = Parser::new_from_str(text);
        while let Some(ev) = parser.next_event() {
            let (ev, span) = ev.map_err(|e| {
                format!(
                    "the editor cannot read the YAML at {}:{} ({}); nothing was edited",
                    e.marker().line(),
                    e.marker().col() + 1,
                    e.info()
                )
            })?;
            let start = off.byte(span.start.index());
            let node = match ev {
                Event::StreamEnd => break,
                Event::Nothing
                | Event::StreamStart
                | Event::DocumentStart(_)
                | Event::DocumentEnd => continue,
                Event::Alias(id) => {
                    *aliases.entry(id).or_insert(0) += 1;
                    Node {
                        start,
                        end: off.byte(span.end.index()),
                        loc: loc(&span),
                        anchor: 0,
                        alias: Some(id),
                        flow: false,
                        kind: Kind::Scalar {
                            text: String::new(),
                            style: ScalarStyle::Plain,
                        },
                    }
                }
                Event::Scalar(t, style, anchor, _) => Node {
                    start,
                    end: off.byte(span.end.index()),
                    loc: loc(&span),
                    anchor,
                    alias: None,
                    flow: false,
                    kind: Kind::Scalar {
                        text: t.into_owned(),
                        style,
                    },
                },
                Event::SequenceStart(anchor, _) => {
                    stack.push(Frame::Seq {
                        start,
                        loc: loc(&span),
                        anchor,
                        flow: text.as_bytes().get(start) == Some(&b'['),
                        items: Vec::new(),
                    });
                    continue;
                }
                Event::MappingStart(anchor, _) => {
                    stack.push(Frame::Map {
                        start,
                        loc: loc(&span),
                        anchor,
                        flow: text.as_bytes().get(start) == Some(&b'{'),
                        entries: Vec::new(),
                        key: None,
                    });
                    continue;
                }
                Event::SequenceEnd | Event::MappingEnd => {
                    let Some(frame) = stack.pop() else {
                        return Err("unbalanced YAML collection".into());
                    };
                    // A flow collection ends after its bracket (the span
                    // of the end event may run on over a comment); a
                    // block one where its last child ends.
                    let (start, loc, anchor, flow, kind) = match frame {
                        Frame::Seq {
                            start,
                            loc,
                            anchor,
                            flow,
                            items,
                        } => (start, loc, anchor, flow, Kind::Seq(items)),
                        Frame::Map {
                            start,
                            loc,
                            anchor,
                            flow,
                            entries,
                            ..
                        } => (start, loc, anchor, flow, Kind::Map(entries)),
                    };
                    let end = if flow {
                        let closer = if matches!(kind, Kind::Seq(_)) {
                            b']'
                        } else {
                            b'}'
                        };
                        closing(text, off.byte(span.start.index()), closer)
                    } else {
                        let last = match &kind {
                            Kind::Seq(items) => items.last().map(|n| n.end),
                            Kind::Map(entries) => entries.last().map(|e| e.value.end),
                            Kind::Scalar { .. } => None,
                        };
                        last.unwrap_or(start)
                    };
                    Node {
                        start,
                        end,
                        loc,
                        anchor,
                        alias: None,
                        flow,
                        kind,
                    }
                }
            };
            match stack.last_mut() {
                None => docs.push(node),
                Some(Frame::Seq { items, .. }) => items.push(node),
                Some(Frame::Map { entries, key, .. }) => match key.take() {
                    None => *key = Some(node),
                    Some(k) => entries.push(Entry {
                        key: k,
                        value: node,
                    }),
                },
            }
        }
        Ok(Doc {
            text,
            docs,
            aliases,
        })
    }

    /// Whether an alias elsewhere refers to `node`'s anchor.
    pub fn anchor_used(&self, node: &Node) -> bool {
        node.anchor > 0 && self.aliases.get(&node.anchor).copied().unwrap_or(0) > 0
    }

    /// Refuse to edit inside `node` when the text there is not the one
    /// place its value comes from: an alias, an anchor used elsewhere, a
    /// merge key.
    pub fn editable(&self, node: &Node, what: &str) -> Result<(), Refusal> {
        if node.alias.is_some() {
            return Err(format!(
                "{what} at {} is an alias (`*name`): editing it would change its anchor and every other use",
                node.loc
            ));
        }
        if self.anchor_used(node) {
            return Err(format!(
                "{what} at {} is an anchor other places use: the edit would change them too",
                node.loc
            ));
        }
        Ok(())
    }

    /// The node anchored as `id`.
    fn anchored(&self, id: usize) -> Option<&Node> {
        fn find(n: &Node, id: usize) -> Option<&Node> {
            if n.anchor == id && n.alias.is_none() {
                return Some(n);
            }
            match &n.kind {
                Kind::Seq(items) => items.iter().find_map(|i| find(i, id)),
                Kind::Map(entries) => entries
                    .iter()
                    .find_map(|e| find(&e.key, id).or_else(|| find(&e.value, id))),
                Kind::Scalar { .. } => None,
            }
        }
        self.docs.iter().find_map(|d| find(d, id))
    }

    /// Refuse to write or remove `key` in `map` when a merge key (`<<`)
    /// of `map` also sets it: readers disagree on which wins (go-yaml v2,
    /// kubectl's, lets the merge win where it stands). A key no merged
    /// mapping sets is the mapping's own, whatever the reader.
    pub fn merge_free(&self, map: &Node, key: &str) -> Result<(), Refusal> {
        if key == "<<" {
            return Err(format!("the merge key at {} is not edited", map.loc));
        }
        for e in map.entries() {
            if !matches!(&e.key.kind, Kind::Scalar { text, style: ScalarStyle::Plain } if text == "<<")
            {
                continue;
            }
            let sources: Vec<&Node> = match &e.value.kind {
                Kind::Seq(items) => items.iter().collect(),
                _ => vec![&e.value],
            };
            for src in sources {
                let src = match src.alias {
                    Some(id) => self.anchored(id).ok_or_else(|| {
                        format!("the merge key at {} names an unknown anchor", e.key.loc)
                    })?,
                    None => src,
                };
                if src.get(key).is_some() {
                    return Err(format!(
                        "`{key}` is also set by the merge key (`<<`) at {}: which value wins depends on the YAML reader, so it is not edited",
                        e.key.loc
                    ));
                }
            }
        }
        Ok(())
    }

    /// The chain of nodes from a document root down to the node that
    /// starts at `at` (the deepest one when several do), or to the entry
    /// whose key starts at `at` (its value last). `None` when none does.
    pub fn path_to(&self, at: Loc) -> Option<Vec<&Node>> {
        fn walk<'n>(n: &'n Node, at: Loc, path: &mut Vec<&'n Node>) -> bool {
            path.push(n);
            let children: Vec<(&'n Node, Option<&'n Node>)> = match &n.kind {
                Kind::Seq(items) => items.iter().map(|i| (i, None)).collect(),
                Kind::Map(entries) => entries.iter().map(|e| (&e.value, Some(&e.key))).collect(),
                Kind::Scalar { .. } => Vec::new(),
            };
            for (child, key) in children {
                if key.is_some_and(|k| k.loc == at) {
                    path.push(child);
                    return true;
                }
                if child.loc <= at && walk(child, at, path) {
                    return true;
                }
            }
            if n.loc == at {
                return true;
            }
            path.pop();
            false
        }
        for d in &self.docs {
            let mut path = Vec::new();
            if walk(d, at, &mut path) {
                return Some(path);
            }
        }
        None
    }

    /// The entry of a mapping in `path` whose value is `node`.
    pub fn entry_of<'n>(parent: &'n Node, node: &Node) -> Option<&'n Entry> {
        parent
            .entries()
            .iter()
            .find(|e| std::ptr::eq(&e.value, node))
    }

    fn line_start(&self, at: usize) -> usize {
        self.text
            .get(..at)
            .and_then(|t| t.rfind('\n'))
            .map_or(0, |i| i + 1)
    }

    /// Just after the end of the line holding `at - 1` (the file's end when
    /// it has no final newline).
    fn next_line(&self, at: usize) -> usize {
        if at > 0 && self.text.as_bytes().get(at - 1) == Some(&b'\n') {
            return at;
        }
        self.text
            .get(at..)
            .and_then(|t| t.find('\n'))
            .map_or(self.text.len(), |i| at + i + 1)
    }

    /// Only spaces (and a `- ` of the sequence item holding it when
    /// `dash`) precede `at` on its line.
    fn alone_on_line(&self, at: usize) -> bool {
        let lead = self.text.get(self.line_start(at)..at).unwrap_or("");
        lead.bytes().all(|c| c == b' ')
    }

    /// The column (0-based, bytes) of `at` in its line.
    fn column(&self, at: usize) -> usize {
        at - self.line_start(at)
    }

    fn newline(&self) -> &'static str {
        if self.text.contains("\r\n") {
            "\r\n"
        } else {
            "\n"
        }
    }
}

/// A value to write.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum New {
    /// A boolean, number or word written bare (`false`, `1000`, `ALL`).
    Plain(String),
    /// A string, quoted when it would not read back as itself bare.
    Str(String),
    Seq(Vec<New>),
    Map(Vec<(String, New)>),
}

impl New {
    pub fn bool(b: bool) -> New {
        New::Plain(b.to_string())
    }

    pub fn map(pairs: &[(&str, New)]) -> New {
        New::Map(
            pairs
                .iter()
                .map(|(k, v)| (k.to_string(), v.clone()))
                .collect(),
        )
    }

    /// The value as a scalar's text, in `style` where it is a string.
    fn scalar(&self, style: ScalarStyle, flow: bool) -> Option<String> {
        match self {
            New::Plain(s) => Some(s.clone()),
            New::Str(s) => Some(match style {
                ScalarStyle::SingleQuoted => format!("'{}'", s.replace('\'', "''")),
                ScalarStyle::DoubleQuoted => double(s),
                _ if plain_safe(s, flow) => s.clone(),
                _ => double(s),
            }),
            _ => None,
        }
    }

    /// Flow text (`[ALL]`, `{type: RuntimeDefault}`).
    fn flow(&self) -> String {
        match self {
            New::Seq(items) => {
                let v: Vec<String> = items.iter().map(New::flow).collect();
                format!("[{}]", v.join(", "))
            }
            New::Map(pairs) => {
                let v: Vec<String> = pairs
                    .iter()
                    .map(|(k, v)| format!("{}: {}", key_text(k), v.flow()))
                    .collect();
                format!("{{{}}}", v.join(", "))
            }
            s => s.scalar(ScalarStyle::Plain, true).unwrap_or_default(),
        }
    }

    /// Block text of the value of a key at `indent`: ` value` on the key's
    /// line, or a newline and the nested lines.
    fn block_value(&self, out: &mut String, indent: usize, style: &Layout) {
        match self {
            New::Map(pairs) if !pairs.is_empty() => {
                for (k, v) in pairs {
                    out.push_str(style.newline);
                    push_spaces(out, indent + style.unit);
                    out.push_str(&key_text(k));
                    out.push(':');
                    v.block_value(out, indent + style.unit, style);
                }
            }
            New::Seq(items) if !items.is_empty() => {
                let at = if style.seq_indented {
                    indent + style.unit
                } else {
                    indent
                };
                for i in items {
                    out.push_str(style.newline);
                    push_spaces(out, at);
                    out.push_str("- ");
                    out.push_str(&i.flow());
                }
            }
            other => {
                out.push(' ');
                out.push_str(&other.flow());
            }
        }
    }
}

fn push_spaces(out: &mut String, n: usize) {
    out.extend(std::iter::repeat_n(' ', n));
}

fn key_text(k: &str) -> String {
    if plain_safe(k, true) {
        k.to_string()
    } else {
        double(k)
    }
}

fn double(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\x{:02x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// Whether `s` written bare reads back as the same string in YAML 1.1 and
/// 1.2 (no indicator, not a boolean, null or number in either).
fn plain_safe(s: &str, flow: bool) -> bool {
    let Some(first) = s.chars().next() else {
        return false;
    };
    let lower = s.to_ascii_lowercase();
    let special = matches!(
        lower.as_str(),
        "true" | "false" | "yes" | "no" | "on" | "off" | "y" | "n" | "null" | "~"
    ) || s.parse::<f64>().is_ok()
        || s.starts_with("0x")
        || s.starts_with("0o")
        // YAML 1.1 reads `1000:1000` as a base-60 number.
        || s.bytes().all(|c| c.is_ascii_digit() || c == b':' || c == b'_');
    let bad_first = "-?:,[]{}#&*!|>'\"%@`".contains(first) || first.is_whitespace();
    let bad_inner = s.contains(": ")
        || s.contains(" #")
        || s.ends_with(':')
        || s.ends_with(' ')
        || s.chars().any(|c| c.is_control())
        || (flow && s.chars().any(|c| ",[]{}:".contains(c)));
    !special && !bad_first && !bad_inner
}

/// How new block text is laid out: one level of indentation, whether a
/// block sequence is indented under its key, the line break.
struct Layout {
    unit: usize,
    seq_indented: bool,
    newline: &'static str,
}

/// Pending additions to one existing mapping, merged so two fixes that
/// create the same parent write it once.
#[derive(Default)]
struct Additions {
    pairs: Vec<(String, New)>,
}

impl Additions {
    fn add(&mut self, path: &[&str], value: New) -> Result<(), Refusal> {
        let Some((first, rest)) = path.split_first() else {
            return Err("an edit names no key to add".into());
        };
        let built = rest
            .iter()
            .rev()
            .fold(value, |v, k| New::Map(vec![(k.to_string(), v)]));
        match self.pairs.iter_mut().find(|(k, _)| k == first) {
            None => {
                self.pairs.push((first.to_string(), built));
                Ok(())
            }
            Some((_, old)) => merge(old, built, first),
        }
    }
}

fn merge(old: &mut New, new: New, key: &str) -> Result<(), Refusal> {
    match (old, new) {
        (New::Map(a), New::Map(b)) => {
            for (k, v) in b {
                match a.iter_mut().find(|(x, _)| *x == k) {
                    Some((_, o)) => merge(o, v, &k)?,
                    None => a.push((k, v)),
                }
            }
            Ok(())
        }
        (a, b) if *a == b => Ok(()),
        _ => Err(format!("two edits disagree on `{key}`")),
    }
}

/// The edits of one plan, collected then checked together.
pub(crate) struct Ops<'d, 't> {
    doc: &'d Doc<'t>,
    edits: Vec<TextEdit>,
    /// Additions per existing mapping, by the mapping's address.
    additions: Vec<(&'d Node, Additions)>,
    /// Items to append per existing sequence.
    appends: Vec<(&'d Node, Vec<New>)>,
    /// Removals per container: (container, its entry in its parent when
    /// it is a value, removed indices).
    removals: Vec<(&'d Node, Option<&'d Node>, Vec<usize>)>,
}

impl<'d, 't> Ops<'d, 't> {
    pub fn new(doc: &'d Doc<'t>) -> Ops<'d, 't> {
        Ops {
            doc,
            edits: Vec::new(),
            additions: Vec::new(),
            appends: Vec::new(),
            removals: Vec::new(),
        }
    }

    pub fn doc(&self) -> &'d Doc<'t> {
        self.doc
    }

    /// Replace the scalar `node` with `value`, in its quoting style.
    pub fn replace(&mut self, node: &'d Node, value: &New) -> Result<(), Refusal> {
        self.doc.editable(node, "the value")?;
        let Kind::Scalar { style, text } = &node.kind else {
            return Err(format!(
                "the value at {} is a collection, not a scalar",
                node.loc
            ));
        };
        if text.contains('$') {
            return Err(format!(
                "the value at {} is interpolated (`$`): what it is depends on the environment, so the fix is not written",
                node.loc
            ));
        }
        if matches!(style, ScalarStyle::Literal | ScalarStyle::Folded) {
            return Err(format!("the value at {} is a block scalar", node.loc));
        }
        let in_flow = self.in_flow(node);
        // Skip an unused anchor or a tag written before the scalar.
        let mut start = node.start;
        let src = self.doc.text;
        while matches!(src.as_bytes().get(start), Some(b'&' | b'!')) {
            let rest = src.get(start..node.end).unwrap_or("");
            let word = rest.find([' ', '\t']).unwrap_or(rest.len());
            let spaces = rest
                .get(word..)
                .map_or(0, |r| r.len() - r.trim_start_matches([' ', '\t']).len());
            start += word + spaces;
        }
        let text = match value {
            New::Plain(_) | New::Str(_) => value.scalar(*style, in_flow).unwrap_or_default(),
            other => other.flow(),
        };
        self.edits.push(TextEdit {
            start,
            end: node.end,
            text,
        });
        Ok(())
    }

    /// Whether `node` sits inside a flow collection.
    fn in_flow(&self, node: &Node) -> bool {
        self.doc
            .path_to(node.loc)
            .is_some_and(|p| p.iter().any(|n| n.flow && !std::ptr::eq(*n, node)))
    }

    /// Write `value` at `path` under the mapping `map`: replace the scalar
    /// there, or add the missing keys (parents included).
    pub fn set(&mut self, map: &'d Node, path: &[&str], value: New) -> Result<(), Refusal> {
        self.doc.editable(map, "the mapping")?;
        let mut cur = map;
        for (i, k) in path.iter().enumerate() {
            self.doc.merge_free(cur, k)?;
            let Some(entry) = cur.entry(k) else {
                return self.add(cur, path.get(i..).unwrap_or(&[]), value);
            };
            let v = &entry.value;
            if i + 1 == path.len() {
                return match (&v.kind, &value) {
                    (Kind::Scalar { .. }, New::Plain(_) | New::Str(_)) if !v.is_null() => {
                        self.replace(v, &value)
                    }
                    (Kind::Scalar { .. }, _) if v.is_null() => Err(format!(
                        "`{k}` at {} has no value; write it by hand",
                        entry.key.loc
                    )),
                    _ => Err(format!(
                        "`{k}` at {} is {}, not the value the fix writes",
                        entry.key.loc,
                        kind_name(v)
                    )),
                };
            }
            if !v.is_map() {
                return Err(format!(
                    "`{k}` at {} is {}, not a mapping",
                    entry.key.loc,
                    kind_name(v)
                ));
            }
            self.doc.editable(v, &format!("`{k}`"))?;
            cur = v;
        }
        Err("an edit names no key to set".into())
    }

    fn add(&mut self, map: &'d Node, path: &[&str], value: New) -> Result<(), Refusal> {
        match self
            .additions
            .iter_mut()
            .find(|(m, _)| std::ptr::eq(*m, map))
        {
            Some((_, a)) => a.add(path, value),
            None => {
                let mut a = Additions::default();
                a.add(path, value)?;
                self.additions.push((map, a));
                Ok(())
            }
        }
    }

    /// Append `value` to the sequence `seq`.
    pub fn append(&mut self, seq: &'d Node, value: New) -> Result<(), Refusal> {
        self.doc.editable(seq, "the list")?;
        match self.appends.iter_mut().find(|(s, _)| std::ptr::eq(*s, seq)) {
            Some((_, v)) => {
                if !v.contains(&value) {
                    v.push(value);
                }
            }
            None => self.appends.push((seq, vec![value])),
        }
        Ok(())
    }

    /// Remove item or entry `index` of `container`; `owner` is the mapping
    /// entry's key whose value `container` is (for an emptied block
    /// collection, which becomes `[]` or `{}`).
    pub fn remove(
        &mut self,
        container: &'d Node,
        owner: Option<&'d Node>,
        index: usize,
    ) -> Result<(), Refusal> {
        self.doc.editable(container, "the collection")?;
        if let Some(e) = container.entries().get(index) {
            self.doc.merge_free(container, e.key.text().unwrap_or(""))?;
        }
        match self
            .removals
            .iter_mut()
            .find(|(c, _, _)| std::ptr::eq(*c, container))
        {
            Some((_, _, v)) => {
                if !v.contains(&index) {
                    v.push(index);
                }
            }
            None => self.removals.push((container, owner, vec![index])),
        }
        Ok(())
    }

    /// The text edits, sorted; a refusal when two overlap.
    pub fn finish(mut self) -> Result<Vec<TextEdit>, Refusal> {
        for (map, adds) in std::mem::take(&mut self.additions) {
            let e = self.insert_pairs(map, &adds.pairs)?;
            self.edits.push(e);
        }
        let mut appended: Vec<&Node> = Vec::new();
        for (seq, items) in std::mem::take(&mut self.appends) {
            let emptied = self.removals.iter().position(|(c, _, idx)| {
                std::ptr::eq(*c, seq) && seq.flow && idx.len() == seq.items().len()
            });
            if let Some(i) = emptied {
                // A flow list emptied and refilled: its inside rewritten.
                self.removals.remove(i);
                let body: Vec<String> = items.iter().map(New::flow).collect();
                self.edits.push(TextEdit {
                    start: seq.start + 1,
                    end: seq.end - 1,
                    text: body.join(", "),
                });
                continue;
            }
            let e = self.append_items(seq, &items)?;
            self.edits.push(e);
            appended.push(seq);
        }
        for (c, owner, mut idx) in std::mem::take(&mut self.removals) {
            idx.sort_unstable();
            // A list emptied and given new items is not written `[]`.
            let refilled = appended.iter().any(|s| std::ptr::eq(*s, c));
            let es = self.removal(c, owner.filter(|_| !refilled), &idx, refilled)?;
            self.edits.extend(es);
        }
        let mut out = self.edits;
        // Insertions at one place (a list and the mapping holding it both
        // end there): the deeper text first, so each lands in its owner.
        let depth = |e: &TextEdit| {
            let t = e.text.trim_start_matches(['\r', '\n']);
            t.len() - t.trim_start_matches(' ').len()
        };
        out.sort_by_key(|e| (e.start, e.end, std::cmp::Reverse(depth(e))));
        out.dedup();
        for pair in out.windows(2) {
            if let [a, b] = pair {
                if b.start < a.end {
                    return Err(format!(
                        "two edits meet at byte {} of the file; nothing was edited",
                        b.start
                    ));
                }
            }
        }
        Ok(out)
    }

    fn layout(&self, map: &Node) -> Layout {
        let doc = self.doc;
        // One level: a nested block mapping's keys against its owner's.
        let mut unit = None;
        let mut seq_indented = None;
        fn scan(doc: &Doc<'_>, n: &Node, unit: &mut Option<usize>, seq: &mut Option<bool>) {
            for e in n.entries() {
                let kc = doc.column(e.key.start);
                if !e.value.flow {
                    if let Some(first) = e.value.entries().first() {
                        if unit.is_none() && doc.alone_on_line(first.key.start) {
                            *unit = doc
                                .column(first.key.start)
                                .checked_sub(kc)
                                .filter(|u| *u > 0);
                        }
                    }
                    if let (true, None, Some(first)) =
                        (e.value.is_seq(), &seq, e.value.items().first())
                    {
                        // A block list starts at its first item, after the dash.
                        if let Some(dash) = doc.text.get(..first.start).and_then(|t| t.rfind('-')) {
                            *seq = Some(doc.column(dash) > kc);
                        }
                    }
                }
                scan(doc, &e.value, unit, seq);
                if unit.is_some() && seq.is_some() {
                    return;
                }
            }
            for i in n.items() {
                scan(doc, i, unit, seq);
                if unit.is_some() && seq.is_some() {
                    return;
                }
            }
        }
        scan(doc, map, &mut unit, &mut seq_indented);
        for d in &doc.docs {
            if unit.is_some() && seq_indented.is_some() {
                break;
            }
            scan(doc, d, &mut unit, &mut seq_indented);
        }
        Layout {
            unit: unit.unwrap_or(2),
            seq_indented: seq_indented.unwrap_or(true),
            newline: doc.newline(),
        }
    }

    fn insert_pairs(&self, map: &Node, pairs: &[(String, New)]) -> Result<TextEdit, Refusal> {
        let doc = self.doc;
        if map.flow {
            let body: Vec<String> = pairs
                .iter()
                .map(|(k, v)| format!("{}: {}", key_text(k), v.flow()))
                .collect();
            let body = body.join(", ");
            return Ok(match map.entries().last() {
                Some(last) => self.after_last(last.value.end, &body),
                None => TextEdit {
                    start: map.end - 1,
                    end: map.end - 1,
                    text: body,
                },
            });
        }
        let Some(first) = map.entries().first() else {
            return Err(format!("the mapping at {} is empty", map.loc));
        };
        let layout = self.layout(map);
        let indent = doc.column(first.key.start);
        let end = deep_end(map);
        let at = doc.next_line(end);
        let mut text = String::new();
        if at == doc.text.len() && !doc.text.ends_with('\n') {
            text.push_str(layout.newline);
        }
        for (k, v) in pairs {
            push_spaces(&mut text, indent);
            text.push_str(&key_text(k));
            text.push(':');
            v.block_value(&mut text, indent, &layout);
            text.push_str(layout.newline);
        }
        if at == doc.text.len() && !doc.text.ends_with('\n') {
            text.truncate(text.len() - layout.newline.len());
        }
        Ok(TextEdit {
            start: at,
            end: at,
            text,
        })
    }

    /// `body` added after the last member of a flow collection, which
    /// ends at `end`: after its trailing comma when it has one.
    fn after_last(&self, end: usize, body: &str) -> TextEdit {
        let rest = self.doc.text.get(end..).unwrap_or("");
        let gap = rest.len() - rest.trim_start().len();
        if rest.get(gap..).is_some_and(|r| r.starts_with(',')) {
            let at = end + gap + 1;
            return TextEdit {
                start: at,
                end: at,
                text: format!(" {body},"),
            };
        }
        TextEdit {
            start: end,
            end,
            text: format!(", {body}"),
        }
    }

    fn append_items(&self, seq: &Node, items: &[New]) -> Result<TextEdit, Refusal> {
        let doc = self.doc;
        let in_flow = seq.flow;
        if in_flow {
            let body: Vec<String> = items.iter().map(New::flow).collect();
            let body = body.join(", ");
            return Ok(match seq.items().last() {
                Some(last) => self.after_last(last.end, &body),
                None => TextEdit {
                    start: seq.end - 1,
                    end: seq.end - 1,
                    text: body,
                },
            });
        }
        let Some(first) = seq.items().first() else {
            return Err(format!("the list at {} is empty", seq.loc));
        };
        let layout = self.layout(seq);
        // The dash of the first item.
        let dash = doc
            .text
            .get(..first.start)
            .and_then(|t| t.rfind('-'))
            .ok_or_else(|| format!("the list at {} has no `-`", seq.loc))?;
        let indent = doc.column(dash);
        let gap = first.start - dash;
        let at = doc.next_line(deep_end(seq));
        let mut text = String::new();
        let no_final = at == doc.text.len() && !doc.text.ends_with('\n');
        if no_final {
            text.push_str(layout.newline);
        }
        for i in items {
            push_spaces(&mut text, indent);
            text.push('-');
            push_spaces(&mut text, gap.saturating_sub(1).max(1));
            text.push_str(&i.flow());
            text.push_str(layout.newline);
        }
        if no_final {
            text.truncate(text.len() - layout.newline.len());
        }
        Ok(TextEdit {
            start: at,
            end: at,
            text,
        })
    }

    /// The spans of a container's children: item, or key to value end.
    fn spans(c: &Node) -> Vec<(usize, usize)> {
        match &c.kind {
            Kind::Seq(items) => items.iter().map(|n| (n.start, deep_end(n))).collect(),
            Kind::Map(entries) => entries
                .iter()
                .map(|e| (e.key.start, deep_end(&e.value)))
                .collect(),
            Kind::Scalar { .. } => Vec::new(),
        }
    }

    fn removal(
        &self,
        c: &Node,
        owner: Option<&Node>,
        removed: &[usize],
        refilled: bool,
    ) -> Result<Vec<TextEdit>, Refusal> {
        let doc = self.doc;
        let spans = Self::spans(c);
        let n = spans.len();
        if removed.iter().any(|&i| i >= n) {
            return Err(format!("an item to remove is not in the list at {}", c.loc));
        }
        let empty = if c.is_seq() { "[]" } else { "{}" };
        if c.flow {
            if removed.len() == n {
                return Ok(vec![TextEdit {
                    start: c.start + 1,
                    end: c.end - 1,
                    text: String::new(),
                }]);
            }
            let mut out = Vec::new();
            let mut runs: Vec<(usize, usize)> = Vec::new();
            for &i in removed {
                match runs.last_mut() {
                    Some((_, b)) if *b + 1 == i => *b = i,
                    _ => runs.push((i, i)),
                }
            }
            for (a, b) in runs {
                let span = |i: Option<usize>| i.and_then(|i| spans.get(i).copied());
                let found = if b + 1 < n {
                    // Up to the next kept item: the comma goes too.
                    span(Some(a))
                        .zip(span(Some(b + 1)))
                        .map(|(x, y)| (x.0, y.0))
                } else {
                    // The run ends the list: from the end of the item before.
                    span(a.checked_sub(1))
                        .zip(span(Some(b)))
                        .map(|(x, y)| (x.1, y.1))
                };
                let (start, end) =
                    found.ok_or_else(|| format!("no item to remove in the list at {}", c.loc))?;
                out.push(TextEdit {
                    start,
                    end,
                    text: String::new(),
                });
            }
            return Ok(out);
        }
        // Block: whole lines, from the line of the item's dash (or the
        // entry's key) to the end of the line its value ends on.
        let mut out = Vec::new();
        for &i in removed {
            let (s, e) = spans
                .get(i)
                .copied()
                .ok_or_else(|| format!("no item to remove at {}", c.loc))?;
            let head = if c.is_seq() {
                doc.text
                    .get(..s)
                    .and_then(|t| t.rfind('-'))
                    .ok_or_else(|| format!("the list at {} has no `-`", c.loc))?
            } else {
                s
            };
            if !doc.alone_on_line(head) {
                // `- key: v` as the first entry of an item's mapping: the
                // next entry moves up onto the dash's line.
                match spans.get(i + 1) {
                    Some(&(next, _)) if !c.is_seq() && !removed.contains(&(i + 1)) => {
                        out.push(TextEdit {
                            start: s,
                            end: next,
                            text: String::new(),
                        });
                        continue;
                    }
                    _ => {
                        return Err(format!(
                            "the item at {} shares its line with other text; remove it by hand",
                            c.loc
                        ))
                    }
                }
            }
            let start = doc.line_start(head);
            let end = doc.next_line(e);
            if let Some(rest) = doc.text.get(e..end) {
                let rest = rest.trim();
                if !rest.is_empty() && !rest.starts_with('#') {
                    return Err(format!(
                        "other text follows the item at {} on its line",
                        c.loc
                    ));
                }
            }
            out.push(TextEdit {
                start,
                end,
                text: String::new(),
            });
        }
        if removed.len() == n && !refilled {
            // Nothing left: the owner's value becomes an empty flow
            // collection, written after its colon.
            let Some(key) = owner else {
                return Err(format!(
                    "removing every entry at {} leaves nothing to hold the collection",
                    c.loc
                ));
            };
            let after = doc.text.get(key.end..).unwrap_or("");
            let colon = after
                .find(':')
                .map(|i| key.end + i + 1)
                .ok_or_else(|| format!("no `:` after the key at {}", key.loc))?;
            out.push(TextEdit {
                start: colon,
                end: colon,
                text: format!(" {empty}"),
            });
        }
        // Adjacent whole-line removals merge into one span.
        out.sort_by_key(|e| (e.start, e.end));
        let mut merged: Vec<TextEdit> = Vec::new();
        for e in out {
            match merged.last_mut() {
                Some(m) if m.end == e.start && m.text.is_empty() && e.text.is_empty() => {
                    m.end = e.end
                }
                _ => merged.push(e),
            }
        }
        Ok(merged)
    }
}

/// Just after the bracket `closer` that ends a flow collection, from
/// `from` on: saphyr's end event may start at a trailing comma before it.
fn closing(text: &str, from: usize, closer: u8) -> usize {
    let b = text.as_bytes();
    let mut i = from;
    while let Some(&c) = b.get(i) {
        match c {
            c if c == closer => return i + 1,
            b',' | b' ' | b'\t' | b'\r' | b'\n' => i += 1,
            b'#' => {
                while b.get(i).is_some_and(|&c| c != b'\n') {
                    i += 1;
                }
            }
            _ => break,
        }
    }
    from + 1
}

/// Where a node's text really ends: a block collection at its deepest last
/// child.
pub(crate) fn deep_end(n: &Node) -> usize {
    if n.flow {
        return n.end;
    }
    match &n.kind {
        Kind::Seq(items) => items.last().map_or(n.end, deep_end),
        Kind::Map(entries) => entries.last().map_or(n.end, |e| deep_end(&e.value)),
        Kind::Scalar { .. } => n.end,
    }
}

pub(crate) fn kind_name(n: &Node) -> &'static str {
    if n.alias.is_some() {
        return "an alias";
    }
    match &n.kind {
        Kind::Seq(_) => "a list",
        Kind::Map(_) => "a mapping",
        Kind::Scalar { .. } if n.is_null() => "empty",
        Kind::Scalar { .. } => "a scalar",
    }
}
