//! YAML to a spanned tree, on top of `saphyr-parser`'s event stream.
//!
//! Why an event parser: `saphyr-parser` (the maintained successor of
//! yaml-rust/yaml-rust2, pure Rust, builds for wasm32) hands out every
//! event with its line and column and lets us build the tree ourselves, so
//! we can refuse what a loader would silently accept: a duplicate key
//! (YAML loaders disagree on which value wins), nesting deeper than 64,
//! and alias bombs (every alias expansion counts toward the value budget).
//! `serde_yaml` is unmaintained and drops positions; `marked-yaml` keeps
//! spans but decides duplicates and merges for us.
//!
//! Merge keys (`<<: *defaults`, common in Compose files) are applied the
//! way YAML 1.1 loaders apply them: explicit keys win, then earlier merged
//! mappings win over later ones. A merge below an explicit key it would
//! change is refused, since kubectl's go-yaml v2 lets that merge win.

use std::collections::HashMap;

use saphyr_parser::{Event, Parser, ScalarStyle, Span};

use super::tree::{checked_text, Loc, SEntry, SNode, SValue, Scalar, TreeLimits};
use crate::import::{ImportError, ImportErrorKind};

/// Parse every document of a YAML stream. Empty documents are skipped.
pub fn parse(bytes: &[u8]) -> Result<Vec<SNode>, ImportError> {
    parse_with(bytes, TreeLimits::default())
}

/// [`parse`] with explicit limits.
pub fn parse_with(bytes: &[u8], limits: TreeLimits) -> Result<Vec<SNode>, ImportError> {
    let text = checked_text(bytes, &limits)?;
    // YAML breaks lines at a lone CR too; isolint counts LF only (so do
    // editors, SARIF viewers and GitHub annotations), so positions are
    // moved onto LF lines.
    let lines = LfLines::of(text);
    match parse_flow_tolerant(text, limits) {
        Ok(mut docs) => {
            if let Some(l) = &lines {
                docs.iter_mut()
                    .for_each(|d| walk_locs(d, &mut |loc| l.fix(loc)));
            }
            Ok(docs)
        }
        Err(mut e) => {
            if let (Some(l), Some(loc)) = (&lines, e.loc.as_mut()) {
                l.fix(loc);
            }
            Err(e)
        }
    }
}

/// Where each line YAML sees (ended by LF, CRLF or a lone CR) starts, as
/// an LF line and a 0-based column in it; only built when a lone CR exists.
struct LfLines(Vec<(u32, u32)>);

impl LfLines {
    fn of(text: &str) -> Option<LfLines> {
        let b = text.as_bytes();
        let lone = b
            .iter()
            .enumerate()
            .any(|(i, &c)| c == b'\r' && b.get(i + 1) != Some(&b'\n'));
        if !lone {
            return None;
        }
        let mut starts = vec![(1u32, 0u32)];
        let (mut line, mut col) = (1u32, 0u32);
        let mut chars = text.chars().peekable();
        while let Some(c) = chars.next() {
            match c {
                '\n' => {
                    line = line.saturating_add(1);
                    col = 0;
                    starts.push((line, 0));
                }
                '\r' if chars.peek() == Some(&'\n') => col = col.saturating_add(1),
                '\r' => {
                    col = col.saturating_add(1);
                    starts.push((line, col));
                }
                _ => col = col.saturating_add(1),
            }
        }
        Some(LfLines(starts))
    }

    fn fix(&self, loc: &mut Loc) {
        let i = usize::try_from(loc.line.saturating_sub(1)).unwrap_or(usize::MAX);
        if let Some(&(line, col)) = self.0.get(i) {
            loc.line = line;
            loc.column = loc.column.saturating_add(col);
        }
    }
}

fn walk_locs(node: &mut SNode, f: &mut impl FnMut(&mut Loc)) {
    f(&mut node.loc);
    match &mut node.value {
        SValue::Seq(items) => items.iter_mut().for_each(|i| walk_locs(i, f)),
        SValue::Map(entries) => {
            for e in entries {
                f(&mut e.key_loc);
                walk_locs(&mut e.value, f);
            }
        }
        SValue::Null | SValue::Scalar(_) => {}
    }
}

fn parse_flow_tolerant(text: &str, limits: TreeLimits) -> Result<Vec<SNode>, ImportError> {
    match parse_text(text, limits) {
        Ok(docs) => Ok(docs),
        Err(e) => {
            // The YAML spec wants a multi-line flow collection's lines
            // indented deeper than the block node holding it, and
            // saphyr-parser enforces that; go-yaml (Compose, kubectl),
            // libyaml and PyYAML accept a `]` at the key's own indent, and
            // real files rely on it. Such lines are padded and the file read
            // again; positions are mapped back to the original columns.
            let Some((padded, shifts)) = reindent_flow(text) else {
                return Err(e);
            };
            let Ok(mut docs) = parse_text(&padded, limits) else {
                return Err(e);
            };
            for d in &mut docs {
                walk_locs(d, &mut |l| {
                    if let Ok(i) = shifts.binary_search_by_key(&l.line, |&(line, _)| line) {
                        if let Some(&(_, k)) = shifts.get(i) {
                            l.column = l.column.saturating_sub(k).max(1);
                        }
                    }
                });
            }
            Ok(docs)
        }
    }
}

fn parse_text(text: &str, limits: TreeLimits) -> Result<Vec<SNode>, ImportError> {
    let mut b = Builder {
        limits,
        stack: Vec::new(),
        anchors: Vec::new(),
        docs: Vec::new(),
        values: 0,
    };
    let mut parser = Parser::new_from_str(text);
    while let Some(ev) = parser.next_event() {
        let (ev, span) = ev.map_err(|e| {
            ImportError::new(ImportErrorKind::Syntax(format!(
                "invalid YAML: {}",
                e.info()
            )))
            .at(Loc {
                line: u32::try_from(e.marker().line()).unwrap_or(u32::MAX),
                column: u32::try_from(e.marker().col() + 1).unwrap_or(u32::MAX),
            })
        })?;
        if b.event(ev, span)? {
            break;
        }
    }
    Ok(b.docs)
}

/// The text with every line that continues a multi-line flow collection
/// (`[`, `{`) at or left of the indent of the line that opened it padded to
/// one column deeper, and the spaces added per 1-based line; `None` when no
/// line needs it. Inside a flow collection leading spaces carry no meaning
/// (scalars fold them away), so the padding changes no value.
fn reindent_flow(text: &str) -> Option<(String, Vec<(u32, u32)>)> {
    let mut out = String::with_capacity(text.len() + 64);
    // (line, spaces added), by line: lines are met in order.
    let mut shifts = Vec::new();
    let mut depth = 0usize;
    let mut open_indent = 0usize;
    let mut quote: Option<char> = None;
    let mut block_scalar: Option<usize> = None;
    for (n, line) in text.split_inclusive('\n').enumerate() {
        let indent = line.len() - line.trim_start_matches(' ').len();
        let blank = line.trim().is_empty();
        if let Some(owner) = block_scalar {
            if blank || indent > owner {
                out.push_str(line);
                continue;
            }
            block_scalar = None;
        }
        if depth > 0 && !blank && indent <= open_indent {
            let pad = open_indent + 1 - indent;
            out.extend(std::iter::repeat_n(' ', pad));
            shifts.push((
                u32::try_from(n + 1).unwrap_or(u32::MAX),
                u32::try_from(pad).unwrap_or(0),
            ));
        }
        out.push_str(line);
        let mut node_start = true;
        let mut prev = ' ';
        let mut chars = line.chars().peekable();
        while let Some(c) = chars.next() {
            let next = chars.peek().copied().unwrap_or('\n');
            match quote {
                Some('"') => match c {
                    '\\' => {
                        chars.next();
                    }
                    '"' => quote = None,
                    _ => {}
                },
                Some(_) => {
                    if c == '\'' {
                        if next == '\'' {
                            chars.next();
                        } else {
                            quote = None;
                        }
                    }
                }
                None => match c {
                    '#' if prev.is_whitespace() => break,
                    '"' | '\'' if node_start => quote = Some(c),
                    '[' | '{' if node_start || depth > 0 => {
                        if depth == 0 {
                            open_indent = indent;
                        }
                        depth += 1;
                        node_start = true;
                    }
                    ']' | '}' if depth > 0 => {
                        depth -= 1;
                        node_start = false;
                    }
                    ',' if depth > 0 => node_start = true,
                    ':' | '-' | '?' if next.is_whitespace() || (depth > 0 && c == ':') => {
                        node_start = true;
                    }
                    '|' | '>' if node_start && depth == 0 => {
                        block_scalar = Some(indent);
                        break;
                    }
                    c if c.is_whitespace() => {}
                    _ => node_start = false,
                },
            }
            prev = c;
        }
    }
    (!shifts.is_empty()).then_some((out, shifts))
}

fn loc(span: &Span) -> Loc {
    Loc {
        line: u32::try_from(span.start.line()).unwrap_or(u32::MAX),
        column: u32::try_from(span.start.col() + 1).unwrap_or(u32::MAX),
    }
}

enum Frame {
    Seq {
        loc: Loc,
        anchor: usize,
        items: Vec<SNode>,
    },
    Map {
        loc: Loc,
        anchor: usize,
        entries: Vec<SEntry>,
        /// Where each key of `entries` was written, to refuse a duplicate.
        keys: Keys,
        /// Where a `<<` was written in this mapping.
        merge_at: Option<Loc>,
        /// Mappings merged in with `<<`, in priority order.
        merges: Vec<SNode>,
        key: Option<(String, Loc)>,
    },
}

/// The keys of a mapping being read: found by a scan of its entries while
/// it is small (most mappings), by lookup once it holds many (a Compose
/// file's tens of thousands of services), so a duplicate costs no scan
/// per key.
#[derive(Default)]
struct Keys {
    index: Option<HashMap<String, usize>>,
}

impl Keys {
    const INDEXED_FROM: usize = 16;

    /// The entry of `entries` written with `key`.
    fn get<'e>(&self, entries: &'e [SEntry], key: &str) -> Option<&'e SEntry> {
        match &self.index {
            Some(index) => index.get(key).and_then(|&i| entries.get(i)),
            None => entries.iter().find(|e| e.key == key),
        }
    }

    /// Take in the entry just pushed onto `entries`.
    fn pushed(&mut self, entries: &[SEntry]) {
        match &mut self.index {
            Some(index) => {
                if let Some(e) = entries.last() {
                    index.insert(e.key.clone(), entries.len() - 1);
                }
            }
            None if entries.len() > Self::INDEXED_FROM => {
                self.index = Some(
                    entries
                        .iter()
                        .enumerate()
                        .map(|(i, e)| (e.key.clone(), i))
                        .collect(),
                );
            }
            None => {}
        }
    }
}

struct Builder {
    limits: TreeLimits,
    stack: Vec<Frame>,
    /// Anchored nodes by anchor id (the parser numbers anchors 1, 2, ...).
    anchors: Vec<Option<SNode>>,
    docs: Vec<SNode>,
    values: usize,
}

/// A local tag (`!reset`, `!override`, `!Ref`) means what its reader
/// says: Compose's `!reset` removes the value and `!override` replaces
/// the base's instead of merging. Read as plain values they could show a
/// setting the tool does not apply (`cap_drop: !reset [ALL]` drops
/// nothing), so a file with one is refused rather than misread. The core
/// schema's tags (`!!str`, `!!int`, ...) are read as the values they tag.
fn refuse_local_tag(tag: Option<&saphyr_parser::Tag>, at: Loc) -> Result<(), ImportError> {
    match tag {
        Some(t) if !t.is_yaml_core_schema() => Err(ImportError::new(ImportErrorKind::Invalid(
            format!(
                "the tag `{}{}` gives this value a meaning of its reader's (Compose's `!reset` removes it, `!override` replaces rather than merges), which this import does not apply; remove the tag, or audit the output of `docker compose config`",
                t.handle, t.suffix
            ),
        ))
        .at(at)),
        _ => Ok(()),
    }
}

impl Builder {
    /// Keep `node` under its anchor's id (0: it has none).
    fn anchor(&mut self, id: usize, node: &SNode) {
        if id > 0 {
            if self.anchors.len() <= id {
                self.anchors.resize(id + 1, None);
            }
            if let Some(slot) = self.anchors.get_mut(id) {
                *slot = Some(node.clone());
            }
        }
    }

    fn count(&mut self, n: usize, at: Loc) -> Result<(), ImportError> {
        self.values = self.values.saturating_add(n);
        if self.values > self.limits.max_values {
            return Err(ImportError::new(ImportErrorKind::TooManyValues {
                limit: self.limits.max_values,
            })
            .at(at));
        }
        Ok(())
    }

    /// Handle one event; `true` when the stream has ended.
    fn event(&mut self, ev: Event<'_>, span: Span) -> Result<bool, ImportError> {
        let at = loc(&span);
        match ev {
            Event::StreamEnd => return Ok(true),
            Event::Nothing | Event::StreamStart | Event::DocumentStart(_) | Event::DocumentEnd => {}
            Event::Alias(id) => {
                let node = self
                    .anchors
                    .get(id)
                    .and_then(Option::as_ref)
                    .cloned()
                    .ok_or_else(|| {
                        ImportError::new(ImportErrorKind::Syntax(
                            "alias refers to an unknown anchor".into(),
                        ))
                        .at(at)
                    })?;
                self.count(node.size(), at)?;
                self.complete(node)?;
            }
            Event::Scalar(text, style, anchor, tag) => {
                self.count(1, at)?;
                refuse_local_tag(tag.as_deref(), at)?;
                let plain = style == ScalarStyle::Plain;
                let is_key = matches!(self.stack.last(), Some(Frame::Map { key: None, .. }));
                if is_key && text == "<<" && (!plain || tag.is_some()) {
                    // The spec and go-yaml v2 (kubectl) merge only a plain
                    // `<<` (or one tagged `!!merge`); go-yaml v3 (Compose)
                    // decides by the tag alone, so a quoted `<<` may merge
                    // there and be a plain key here.
                    return Err(ImportError::new(ImportErrorKind::Invalid(
                        "a `<<` key written quoted or with a tag: YAML readers disagree on whether it merges; write a plain `<<:` to merge, or another key".into(),
                    ))
                    .at(at));
                }
                let value = if plain && matches!(text.as_ref(), "" | "~" | "null" | "Null" | "NULL")
                {
                    SValue::Null
                } else {
                    SValue::Scalar(Scalar {
                        text: text.into_owned(),
                        quoted: !plain,
                    })
                };
                let node = SNode::new(at, value);
                self.anchor(anchor, &node);
                self.complete(node)?;
            }
            Event::SequenceStart(anchor, ref tag) | Event::MappingStart(anchor, ref tag) => {
                self.count(1, at)?;
                refuse_local_tag(tag.as_deref(), at)?;
                if self.stack.len() >= self.limits.max_depth {
                    return Err(ImportError::new(ImportErrorKind::TooDeep {
                        limit: self.limits.max_depth,
                    })
                    .at(at));
                }
                let frame = if matches!(ev, Event::SequenceStart(..)) {
                    Frame::Seq {
                        loc: at,
                        anchor,
                        items: Vec::new(),
                    }
                } else {
                    Frame::Map {
                        loc: at,
                        anchor,
                        entries: Vec::new(),
                        keys: Keys::default(),
                        merge_at: None,
                        merges: Vec::new(),
                        key: None,
                    }
                };
                self.stack.push(frame);
            }
            Event::SequenceEnd | Event::MappingEnd => {
                let Some(frame) = self.stack.pop() else {
                    return Err(ImportError::new(ImportErrorKind::Syntax(
                        "unbalanced YAML collection".into(),
                    ))
                    .at(at));
                };
                let (node, anchor) = match frame {
                    Frame::Seq { loc, anchor, items } => {
                        (SNode::new(loc, SValue::Seq(items)), anchor)
                    }
                    Frame::Map {
                        loc,
                        anchor,
                        mut entries,
                        mut keys,
                        merges,
                        ..
                    } => {
                        for m in merges {
                            for e in m.entries() {
                                if keys.get(&entries, &e.key).is_none() {
                                    entries.push(e.clone());
                                    keys.pushed(&entries);
                                }
                            }
                        }
                        (SNode::new(loc, SValue::Map(entries)), anchor)
                    }
                };
                self.anchor(anchor, &node);
                self.complete(node)?;
            }
        }
        Ok(false)
    }

    /// A node is finished: it is a document, an item, a key or a value.
    fn complete(&mut self, node: SNode) -> Result<(), ImportError> {
        match self.stack.last_mut() {
            None => {
                if !node.is_null() {
                    self.docs.push(node);
                }
            }
            Some(Frame::Seq { items, .. }) => items.push(node),
            Some(Frame::Map {
                entries,
                keys,
                merge_at,
                merges,
                key,
                ..
            }) => match key.take() {
                None => {
                    let text = match &node.value {
                        SValue::Scalar(s) => s.text.clone(),
                        SValue::Null => String::new(),
                        _ => {
                            return Err(ImportError::new(ImportErrorKind::Syntax(
                                "a mapping or list used as a key is not supported".into(),
                            ))
                            .at(node.loc))
                        }
                    };
                    let is_merge =
                        matches!(&node.value, SValue::Scalar(s) if !s.quoted && s.text == "<<");
                    // A second `<<` in one mapping: go-yaml v2 applies both
                    // where they stand (the later wins), go-yaml v3 refuses
                    // the duplicate key; a list `<<: [*a, *b]` says it once.
                    let earlier = match text.as_str() {
                        "<<" => *merge_at,
                        _ => None,
                    };
                    if let Some(first) =
                        earlier.or_else(|| keys.get(entries, &text).map(|e| e.key_loc))
                    {
                        return Err(ImportError::new(ImportErrorKind::DuplicateKey {
                            key: text,
                            first,
                        })
                        .at(node.loc));
                    }
                    if is_merge {
                        *merge_at = Some(node.loc);
                    }
                    *key = Some((if is_merge { "<<".into() } else { text }, node.loc));
                }
                Some((k, key_loc)) if k == "<<" => match &node.value {
                    SValue::Map(_) => {
                        merge_conflict(entries, keys, &node, key_loc)?;
                        merges.push(node)
                    }
                    SValue::Seq(items) if items.iter().all(SNode::is_map) => {
                        for m in items {
                            merge_conflict(entries, keys, m, key_loc)?;
                        }
                        merges.extend(items.iter().cloned())
                    }
                    _ => {
                        return Err(ImportError::new(ImportErrorKind::Syntax(
                            "a merge key `<<` must name a mapping or a list of mappings".into(),
                        ))
                        .at(key_loc))
                    }
                },
                Some((k, key_loc)) => {
                    entries.push(SEntry {
                        key: k,
                        key_loc,
                        value: node,
                    });
                    keys.pushed(entries);
                }
            },
        }
        Ok(())
    }
}

/// Refuse a merge that sets a key already written above it with another
/// value: the YAML spec (and go-yaml v3, which Compose uses) keeps the
/// explicit value, but kubectl's decoder (sigs.k8s.io/yaml on go-yaml v2)
/// applies the merge where it stands, so `privileged: false` followed by
/// `<<: {privileged: true}` is privileged there. The file means two things.
fn merge_conflict(
    explicit: &[SEntry],
    keys: &Keys,
    merged: &SNode,
    at: Loc,
) -> Result<(), ImportError> {
    for m in merged.entries() {
        if let Some(e) = keys.get(explicit, &m.key) {
            if !same_value(&e.value, &m.value) {
                return Err(ImportError::new(ImportErrorKind::Invalid(format!(
                    "the merge key `<<` sets `{}`, already set above it at {}:{}; YAML readers disagree on which wins (the spec and go-yaml v3 keep the explicit value, kubectl's go-yaml v2 takes the merged one), so write the key once",
                    m.key, e.key_loc.line, e.key_loc.column
                )))
                .at(at));
            }
        }
    }
    Ok(())
}

/// Equal values, wherever they are written.
fn same_value(a: &SNode, b: &SNode) -> bool {
    match (&a.value, &b.value) {
        (SValue::Null, SValue::Null) => true,
        (SValue::Scalar(x), SValue::Scalar(y)) => x == y,
        (SValue::Seq(x), SValue::Seq(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| same_value(p, q))
        }
        (SValue::Map(x), SValue::Map(y)) => {
            x.len() == y.len()
                && x.iter()
                    .zip(y)
                    .all(|(p, q)| p.key == q.key && same_value(&p.value, &q.value))
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A local tag is refused wherever it stands (scalar, list, mapping,
    /// key, flow or block), at its line; the core schema's tags are read.
    #[test]
    fn local_tags_are_refused_at_their_line() {
        let refused = [
            "a:\n  cap_drop: !reset [ALL]\n",
            "a:\n  cap_drop: !reset\n    - ALL\n",
            "a:\n  privileged: !reset true\n",
            "a:\n  ports: !override [\"80:80\"]\n",
            "a:\n  security_opt: !override\n    - no-new-privileges:true\n",
            "a:\n  environment: !reset {A: 1}\n",
            "a:\n  x: [1, !custom 2]\n",
            "a:\n  !reset k: v\n",
            "a:\n  x: !<tag:example.com,2000:x> v\n",
        ];
        for src in refused {
            match parse(src.as_bytes()) {
                Ok(_) => panic!("read: {src}"),
                Err(e) => {
                    assert!(e.to_string().contains("the tag `"), "{src}: {e}");
                    assert_eq!(e.loc.map(|l| l.line), Some(2), "{src}: {e}");
                }
            }
        }
        for src in [
            "a: !!str true\n",
            "a: !!int 3\n",
            "a: !!seq [1]\n",
            "a: !!map {b: 1}\n",
        ] {
            assert!(parse(src.as_bytes()).is_ok(), "{src}");
        }
    }

    /// Item 9's variations: where go-yaml v2 (kubectl), go-yaml v3
    /// (Compose) and the spec could read `privileged` differently, the
    /// file is refused; where they agree, the shared reading is taken.
    #[test]
    fn merge_variations_are_refused_or_read_as_every_reader_does() {
        let refused = [
            // Explicit key, then a merge that changes it (v2 takes the merge).
            "b: &b {privileged: true}\nc:\n  privileged: false\n  <<: *b\n",
            // The same through a list of maps.
            "b: &b {privileged: true}\nc:\n  privileged: false\n  <<: [*b]\n",
            // Two merges in one mapping: v2 lets the later win, v3 refuses.
            "a: &a {privileged: false}\nb: &b {privileged: true}\nc:\n  <<: *a\n  <<: *b\n",
            "a: &a {x: 1}\nb: &b {privileged: true}\nc:\n  <<: *a\n  <<: *b\n",
            // A quoted or tagged `<<`: a plain key to some readers, a merge to others.
            "b: &b {privileged: true}\nc:\n  \"<<\": *b\n",
            "b: &b {privileged: true}\nc:\n  '<<': *b\n",
            "b: &b {privileged: true}\nc:\n  !!merge \"<<\": *b\n",
            "b: &b {privileged: true}\nc:\n  !!str <<: *b\n",
            "b: &b {privileged: true}\nc: {\"<<\": *b}\n",
            // Inside a sequence item, and in flow style.
            "b: &b {privileged: true}\nc:\n- privileged: false\n  <<: *b\n",
            "b: &b {privileged: true}\nc: {privileged: false, <<: *b}\n",
            // A merge of something that is not a mapping.
            "c:\n  <<: true\n",
            "b: &b [1]\nc:\n  <<: *b\n",
            "b: &b {x: 1}\nc:\n  <<: [*b, 1]\n",
        ];
        for y in refused {
            assert!(parse(y.as_bytes()).is_err(), "accepted: {y}");
        }
        // (input, what every reader takes for c.privileged)
        let agreed = [
            // Merge first, then the explicit key: explicit wins everywhere.
            (
                "b: &b {privileged: true}\nc:\n  <<: *b\n  privileged: false\n",
                Some("false"),
            ),
            // A list: earlier maps win in the spec, v2 (walks it backwards) and v3.
            (
                "a: &a {privileged: true}\nb: &b {privileged: false}\nc:\n  <<: [*a, *b]\n",
                Some("true"),
            ),
            (
                "a: &a {privileged: false}\nb: &b {privileged: true}\nc:\n  <<: [*a, *b]\n",
                Some("false"),
            ),
            // Nested: the anchored map has its own merge.
            (
                "a: &a {privileged: true}\nb: &b\n  <<: *a\n  x: 1\nc:\n  <<: *b\n",
                Some("true"),
            ),
            // A redefined anchor: an alias names the latest definition.
            (
                "a: &a {privileged: false}\nb: &a {privileged: true}\nc:\n  <<: *a\n",
                Some("true"),
            ),
            // A `<<` value (not a key) is text.
            ("c:\n  privileged: \"<<\"\n", Some("<<")),
            // The same value above and in the merge.
            (
                "b: &b {privileged: true}\nc:\n  privileged: true\n  <<: *b\n",
                Some("true"),
            ),
        ];
        for (y, want) in agreed {
            let n = one(y);
            let got = n
                .get("c")
                .and_then(|c| c.get("privileged"))
                .and_then(SNode::as_str);
            assert_eq!(got, want, "{y}");
        }
    }

    /// Every alias reads the node its anchor named last, however many
    /// anchors a file has; an alias inside the node it names, or to no
    /// anchor, is refused.
    #[test]
    fn aliases_read_their_anchors_and_unknown_ones_are_refused() {
        for n in [1usize, 2, 17, 300] {
            let mut y = String::new();
            for i in 0..n {
                y.push_str(&format!("a{i}: &x{i} v{i}\n"));
            }
            // Re-anchoring a name: the alias after it reads the new node.
            y.push_str("again: &x0 w0\n");
            for i in (0..n).rev() {
                y.push_str(&format!("b{i}: *x{i}\n"));
            }
            let doc = one(&y);
            for i in 0..n {
                let want = if i == 0 {
                    "w0".to_string()
                } else {
                    format!("v{i}")
                };
                let got = doc.get(&format!("b{i}")).and_then(SNode::as_str);
                assert_eq!(got, Some(want.as_str()), "n = {n}, b{i}");
            }
        }
        for refused in ["a: &a [*a]\n", "a: &a {k: *a}\n", "a: *nowhere\n"] {
            assert!(parse(refused.as_bytes()).is_err(), "{refused}");
        }
    }

    /// Duplicate and merged keys are found wherever they stand, in small
    /// mappings (scanned) and large ones (indexed), at the first key's place.
    #[test]
    fn duplicate_and_merged_keys_are_found_in_mappings_of_any_size() {
        for keys in [1usize, 15, 16, 17, 40] {
            let mut body = String::new();
            for i in 0..keys {
                body.push_str(&format!("  k{i}: {i}\n"));
            }
            let first = keys / 2;
            let dup = format!("c:\n{body}  k{first}: again\n");
            let e = parse(dup.as_bytes()).unwrap_err();
            assert!(e.to_string().contains(&format!("k{first}")), "{keys}: {e}");
            assert!(
                e.to_string().contains(&format!("{}:3", first + 2)),
                "{keys}: {e}"
            );
            let merged = format!("b: &b {{k{first}: other}}\nc:\n{body}  <<: *b\n");
            let e = parse(merged.as_bytes()).unwrap_err();
            assert!(
                e.to_string().contains(&format!(
                    "sets `k{first}`, already set above it at {}:3",
                    first + 3
                )),
                "{keys}: {e}"
            );
            let same = format!("b: &b {{k{first}: {first}}}\nc:\n{body}  <<: *b\n");
            assert!(parse(same.as_bytes()).is_ok(), "{keys}");
        }
    }

    /// Where kubectl (go-yaml v2: a merge applies where it stands) and the
    /// YAML spec (explicit keys win) read a mapping differently, the file is
    /// refused; where they agree, it is read.
    #[test]
    fn merges_the_readers_disagree_on_are_refused() {
        let e =
            parse(b"b: &b {privileged: true}\nc:\n  privileged: false\n  <<: *b\n").unwrap_err();
        assert_eq!(e.loc, Some(Loc { line: 4, column: 3 }));
        assert!(
            e.to_string()
                .contains("sets `privileged`, already set above it at 3:3"),
            "{e}"
        );
        let e = parse(b"b: &b {x: 1}\nc:\n  x: 2\n  <<: [*b]\n").unwrap_err();
        assert!(e.to_string().contains("go-yaml v2"));
        // Agreed readings: merge first then override, or the same value.
        let n = one("b: &b {privileged: true, x: 1}\nc:\n  <<: *b\n  privileged: false\n");
        assert_eq!(
            n.get("c").unwrap().get("privileged").unwrap().as_str(),
            Some("false")
        );
        let n = one("b: &b {x: 1}\nc:\n  x: 1\n  <<: *b\n");
        assert_eq!(n.get("c").unwrap().get("x").unwrap().as_str(), Some("1"));
    }

    fn one(s: &str) -> SNode {
        let mut d = parse(s.as_bytes()).unwrap();
        assert_eq!(d.len(), 1);
        d.remove(0)
    }

    #[test]
    fn positions_are_one_based() {
        let n = one("a:\n  b: [x, \"y\"]\n");
        let b = n.get("a").unwrap().get("b").unwrap();
        assert_eq!(
            b.items()[1].loc,
            Loc {
                line: 2,
                column: 10
            }
        );
        assert_eq!(
            n.get("a").unwrap().entry("b").unwrap().key_loc,
            Loc { line: 2, column: 3 }
        );
    }

    /// A multi-line flow sequence whose `]` (or items) sit at the key's own
    /// indent, as in Sentry's self-hosted Compose file: go-yaml and PyYAML
    /// read it, so the import must too, with the original positions.
    #[test]
    fn flow_collections_closed_at_the_key_indent() {
        let n = one(
            "x:\n  entrypoint: [\n    \"/bin/sh\", \"-c\"\n  ]\n  b: {k: v,\n  l: w}\nc: [1,\n2]\n",
        );
        let x = n.get("x").unwrap();
        let e = x.get("entrypoint").unwrap();
        assert_eq!(e.items().len(), 2);
        assert_eq!(e.items()[1].as_str(), Some("-c"));
        assert_eq!(e.items()[0].loc, Loc { line: 3, column: 5 });
        assert_eq!(x.get("b").unwrap().get("l").unwrap().as_str(), Some("w"));
        assert_eq!(x.entry("b").unwrap().key_loc, Loc { line: 5, column: 3 });
        let l = x.get("b").unwrap().entry("l").unwrap().key_loc;
        assert_eq!(l, Loc { line: 6, column: 3 });
        let c = n.get("c").unwrap();
        assert_eq!(c.items()[1].as_str(), Some("2"));
        assert_eq!(c.items()[1].loc, Loc { line: 8, column: 1 });
        // The text of block scalars, quotes and comments is not a flow start.
        let n = one("a: |\n  [x\nb: 'it''s [' # [\nc: [p,\n q]\nd: x\n");
        assert_eq!(n.get("a").unwrap().as_str(), Some("[x\n"));
        assert_eq!(n.get("c").unwrap().items().len(), 2);
        // Still refused: what no consumer reads.
        assert!(parse(b"a: [1,\n2\n").is_err());
        assert!(parse(b"a:\n  b: 1\n c: 2\n").is_err());
    }

    /// A lone CR is not a line break in any position isolint reports.
    #[test]
    fn lone_carriage_returns_do_not_count_as_lines() {
        let n = one("a: 1\rb:\r  c: x\nd: y\r\ne: z\n");
        assert_eq!(n.entry("b").unwrap().key_loc, Loc { line: 1, column: 6 });
        assert_eq!(
            n.get("b").unwrap().get("c").unwrap().loc,
            Loc {
                line: 1,
                column: 14
            }
        );
        assert_eq!(n.entry("d").unwrap().key_loc, Loc { line: 2, column: 1 });
        assert_eq!(n.entry("e").unwrap().key_loc, Loc { line: 3, column: 1 });
        let e = parse(b"a: 1\r\r\ra: 2\n").unwrap_err();
        assert_eq!(e.loc.map(|l| l.line), Some(1));
    }

    /// A duplicate is refused, naming the first place, whether the mapping
    /// is scanned (few keys) or indexed (many), and whichever key repeats;
    /// a merge fills in only what the mapping lacks at every size.
    #[test]
    fn duplicates_and_merges_read_the_same_at_every_mapping_size() {
        for n in [1usize, 2, 15, 16, 17, 18, 40, 200] {
            for repeat in [0, n / 2, n - 1] {
                let mut text: String = (0..n).map(|i| format!("k{i}: {i}\n")).collect();
                text.push_str(&format!("k{repeat}: x\n"));
                let e = parse(text.as_bytes()).unwrap_err();
                assert!(
                    matches!(e.kind, ImportErrorKind::DuplicateKey { .. }),
                    "{n} {repeat}"
                );
                let line = u32::try_from(n + 1).unwrap();
                assert_eq!(e.loc, Some(Loc { line, column: 1 }), "{n} {repeat}");
                let first = format!("first at {}:1", repeat + 1);
                assert!(e.to_string().contains(&first), "{n} {repeat}: {e}");
            }
            let explicit: String = (0..n).map(|i| format!("  k{i}: {i}\n")).collect();
            let text = format!("base: &b\n  k0: 0\n  extra: 1\nm:\n{explicit}  <<: *b\n");
            let docs = parse(text.as_bytes()).unwrap();
            let m = docs[0].entries().iter().find(|e| e.key == "m").unwrap();
            let keys: Vec<&str> = m.value.entries().iter().map(|e| e.key.as_str()).collect();
            assert_eq!(keys.len(), n + 1, "{n}");
            assert_eq!(keys.last(), Some(&"extra"));
        }
    }

    #[test]
    fn duplicate_keys_are_refused() {
        let e = parse(b"a: 1\nb: 2\na: 3\n").unwrap_err();
        assert!(matches!(e.kind, ImportErrorKind::DuplicateKey { .. }));
        assert_eq!(e.loc, Some(Loc { line: 3, column: 1 }));
        assert!(e.to_string().contains("first at 1:1"));
    }

    #[test]
    fn merge_keys_apply_with_explicit_keys_winning() {
        let n = one("base: &b {x: 1, y: 2}\nuse:\n  <<: *b\n  y: 3\n");
        let u = n.get("use").unwrap();
        assert_eq!(u.get("x").unwrap().as_str(), Some("1"));
        assert_eq!(u.get("y").unwrap().as_str(), Some("3"));
        assert_eq!(u.entries().len(), 2);
    }

    #[test]
    fn alias_bombs_hit_the_value_budget() {
        let mut s = String::from("a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n");
        for i in 1..12 {
            let p = i - 1;
            s.push_str(&format!(
                "a{i}: &a{i} [*a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}]\n"
            ));
        }
        let e = parse(s.as_bytes()).unwrap_err();
        assert!(
            matches!(e.kind, ImportErrorKind::TooManyValues { .. }),
            "{e}"
        );
    }

    #[test]
    fn depth_and_size_limits() {
        let deep = "- ".repeat(100) + "x\n";
        let e = parse(deep.as_bytes()).unwrap_err();
        assert!(matches!(e.kind, ImportErrorKind::TooDeep { limit: 64 }));
        let deep_flow = "[".repeat(10_000);
        assert!(parse(deep_flow.as_bytes()).is_err());
        let big = vec![b'#'; 8 * 1024 * 1024 + 1];
        assert!(matches!(
            parse(&big).unwrap_err().kind,
            ImportErrorKind::TooLarge { .. }
        ));
    }

    #[test]
    fn syntax_errors_name_line_and_column() {
        let e = parse(b"a: 1\nb: [1, 2\n").unwrap_err();
        assert!(e.loc.is_some());
        assert!(
            e.to_string().starts_with("3:") || e.to_string().starts_with("2:"),
            "{e}"
        );
        for bad in [
            "a: b: c",
            "- a\nb: c",
            "a: \"unterminated",
            "key: *nope",
            "? [a]\n: b",
        ] {
            assert!(parse(bad.as_bytes()).is_err(), "{bad:?} should fail");
        }
    }

    #[test]
    fn multiple_documents_and_nulls() {
        let d = parse(b"---\na: ~\n---\n---\nb: 1\n").unwrap();
        assert_eq!(d.len(), 2);
        assert!(d[0].get("a").is_none());
        assert!(d[0].entry("a").is_some());
    }
}
