//! Profile edits turned into text edits of a JSON document at byte spans,
//! from the spanned tree the audit already parses: every byte outside an
//! edited span stays as written (comments cannot occur, key order and
//! spacing survive), and a new key takes the indentation of its siblings.

use std::collections::BTreeMap;

use super::{Edit, TextEdit};
use crate::json::{Node, Value};

/// Why a set of edits cannot be written into the document.
pub type Refusal = String;

/// One step of a path through the tree: the container and where the child
/// sits in it.
struct Step<'a> {
    node: &'a Node,
}

fn tokens(pointer: &str) -> Vec<String> {
    pointer
        .split('/')
        .skip(1)
        .map(|t| t.replace("~1", "/").replace("~0", "~"))
        .collect()
}

/// A child of `node` by token: the first member of that key (the audit
/// reports duplicate keys itself), or the array item at that index.
fn child<'a>(node: &'a Node, token: &str) -> Option<(usize, &'a Node)> {
    match &node.value {
        Value::Object(members) => members
            .iter()
            .enumerate()
            .find(|(_, m)| m.key == token)
            .map(|(i, m)| (i, &m.value)),
        Value::Array(items) => {
            if token.len() > 1 && token.starts_with('0') {
                return None;
            }
            let i: usize = token.parse().ok()?;
            items.get(i).map(|n| (i, n))
        }
        _ => None,
    }
}

/// Walk `pointer`: the nodes along it that exist, root first.
fn walk<'a>(root: &'a Node, toks: &[String]) -> Vec<Step<'a>> {
    let mut steps = vec![Step { node: root }];
    let mut cur = root;
    for t in toks {
        match child(cur, t) {
            Some((_, n)) => {
                steps.push(Step { node: n });
                cur = n;
            }
            None => break,
        }
    }
    steps
}

fn is_under(pointer: &str, ancestor: &str) -> bool {
    pointer == ancestor
        || (pointer.starts_with(ancestor) && pointer.as_bytes().get(ancestor.len()) == Some(&b'/'))
}

fn escape_token(t: &str) -> String {
    t.replace('~', "~0").replace('/', "~1")
}

/// The JSON text of a string.
fn quote(s: &str) -> String {
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

/// Members to add to one existing object, as a small tree.
#[derive(Default)]
struct NewMembers {
    /// Key order as first asked for.
    order: Vec<String>,
    members: BTreeMap<String, NewValue>,
}

enum NewValue {
    Literal(String),
    Object(NewMembers),
}

impl NewMembers {
    fn add(&mut self, path: &[String], value: &str) -> Result<(), Refusal> {
        let Some((first, rest)) = path.split_first() else {
            return Err("an edit names no key to add".into());
        };
        if !self.members.contains_key(first) {
            self.order.push(first.clone());
            let v = if rest.is_empty() {
                NewValue::Literal(value.to_string())
            } else {
                NewValue::Object(NewMembers::default())
            };
            self.members.insert(first.clone(), v);
        }
        match (self.members.get_mut(first), rest.is_empty()) {
            (Some(NewValue::Literal(old)), true) if *old == value => Ok(()),
            (Some(NewValue::Object(o)), false) => o.add(rest, value),
            _ => Err(format!("two edits disagree on `{first}`")),
        }
    }

    /// The members as text, each preceded by `sep` (newline and indent,
    /// or `, `); nested objects one level deeper by `unit`.
    fn render(&self, out: &mut String, style: &Style, indent: &str, first_sep: &str) {
        for (i, key) in self.order.iter().enumerate() {
            if i == 0 {
                out.push_str(first_sep);
            } else if style.multiline {
                out.push(',');
                out.push_str(&style.newline);
                out.push_str(indent);
            } else {
                out.push_str(&style.separator);
            }
            out.push_str(&quote(key));
            out.push_str(&style.colon);
            match self.members.get(key) {
                Some(NewValue::Literal(v)) => out.push_str(v),
                Some(NewValue::Object(o)) => {
                    out.push('{');
                    if style.multiline {
                        let inner = format!("{indent}{}", style.unit);
                        o.render(out, style, &inner, &format!("{}{inner}", style.newline));
                        out.push_str(&style.newline);
                        out.push_str(indent);
                    } else {
                        o.render(out, style, indent, "");
                    }
                    out.push('}');
                }
                None => {}
            }
        }
    }
}

/// How an object is written: one member per line or all on one, the text
/// between a key and its value, and one level of indentation.
struct Style {
    multiline: bool,
    /// `\n`, or `\r\n` in a file that ends its lines so.
    newline: String,
    /// Between the members of a one-line object: `, ` or `,` as written.
    separator: String,
    colon: String,
    unit: String,
}

/// The whitespace that starts the line holding `offset`, when only
/// whitespace precedes `offset` on it.
fn line_indent(text: &str, offset: usize) -> Option<&str> {
    let before = text.get(..offset)?;
    let start = before.rfind('\n').map_or(0, |i| i + 1);
    let lead = before.get(start..)?;
    lead.chars().all(|c| c == ' ' || c == '\t').then_some(lead)
}

fn style_of(text: &str, object: &Node) -> Style {
    let members = match &object.value {
        Value::Object(m) => m.as_slice(),
        _ => &[],
    };
    let colon = members
        .last()
        .and_then(|m| {
            let between = text.get(m.key_pos.offset as usize..m.value.pos.offset as usize)?;
            // The key is a JSON string: what follows its closing quote.
            Some(between.get(between.rfind('"')? + 1..)?.to_string())
        })
        .unwrap_or_else(|| ": ".to_string());
    let member_indent = members
        .last()
        .and_then(|m| line_indent(text, m.key_pos.offset as usize));
    let close_indent = line_indent(text, (object.end as usize).saturating_sub(1)).unwrap_or("");
    let unit = member_indent
        .and_then(|m| m.strip_prefix(close_indent))
        .filter(|u| !u.is_empty())
        .unwrap_or("  ")
        .to_string();
    let crlf = members.last().is_some_and(|m| {
        let before = text.get(..m.key_pos.offset as usize).unwrap_or("");
        before
            .rfind('\n')
            .is_some_and(|i| before.get(..i).is_some_and(|b| b.ends_with('\r')))
    });
    let separator = match members {
        [.., a, b] => text
            .get(a.value.end as usize..b.key_pos.offset as usize)
            .filter(|t| t.trim() == "," && !t.contains('\n'))
            .map(str::to_string),
        _ => None,
    }
    .unwrap_or_else(|| if colon == ":" { "," } else { ", " }.to_string());
    Style {
        separator,
        multiline: member_indent.is_some(),
        newline: if crlf { "\r\n" } else { "\n" }.to_string(),
        colon,
        unit,
    }
}

/// Text edits that add `new` to the existing `object`.
fn insert(text: &str, object: &Node, new: &NewMembers) -> Option<TextEdit> {
    let Value::Object(members) = &object.value else {
        return None;
    };
    let style = style_of(text, object);
    let mut out = String::new();
    match members.last() {
        Some(last) => {
            let indent = line_indent(text, last.key_pos.offset as usize).unwrap_or("");
            let sep = if style.multiline {
                format!(",{}{indent}", style.newline)
            } else {
                style.separator.clone()
            };
            new.render(&mut out, &style, indent, &sep);
            let at = last.value.end as usize;
            Some(TextEdit {
                start: at,
                end: at,
                text: out,
            })
        }
        None => {
            let compact = Style {
                multiline: false,
                ..style
            };
            new.render(&mut out, &compact, "", "");
            let at = object.pos.offset as usize + 1;
            Some(TextEdit {
                start: at,
                end: (object.end as usize).saturating_sub(1).max(at),
                text: out,
            })
        }
    }
}

/// The spans of a container's children: (start, end) of each item, or of
/// each member from its key to the end of its value.
fn child_spans(node: &Node) -> Vec<(usize, usize)> {
    match &node.value {
        Value::Array(items) => items
            .iter()
            .map(|n| (n.pos.offset as usize, n.end as usize))
            .collect(),
        Value::Object(members) => members
            .iter()
            .map(|m| (m.key_pos.offset as usize, m.value.end as usize))
            .collect(),
        _ => Vec::new(),
    }
}

/// Text edits removing the children `removed` (sorted indices) of
/// `container`, with the commas between them.
fn removals(container: &Node, removed: &[usize]) -> Vec<TextEdit> {
    let spans = child_spans(container);
    let n = spans.len();
    if removed.len() == n {
        let start = container.pos.offset as usize + 1;
        let end = (container.end as usize).saturating_sub(1).max(start);
        return vec![TextEdit {
            start,
            end,
            text: String::new(),
        }];
    }
    // Runs of consecutive indices, each removed as one span.
    let mut runs: Vec<(usize, usize)> = Vec::new();
    for &i in removed {
        match runs.last_mut() {
            Some((_, b)) if *b + 1 == i => *b = i,
            _ => runs.push((i, i)),
        }
    }
    let span = |i: usize| spans.get(i).copied();
    runs.into_iter()
        .filter_map(|(a, b)| {
            let (start, end) = if b + 1 < n {
                // Up to the next kept child: the comma and the spacing go too.
                (span(a)?.0, span(b + 1)?.0)
            } else {
                // The run ends the container: from the end of the child before.
                (span(a.checked_sub(1)?)?.1, span(b)?.1)
            };
            Some(TextEdit {
                start,
                end,
                text: String::new(),
            })
        })
        .collect()
}

/// An edit of a JSON document whose value is built at run time: what a
/// format's planner writes into an OCI or sandbox-runtime file, whose
/// pointers and values are the format's, not the profile's.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum DocEdit {
    Set { pointer: String, value: String },
    Remove { pointer: String },
}

/// Plan the text edits that make `edits` in the JSON document `text`
/// whose tree is `root`. Edits under a removed node are dropped (the
/// removal covers them); a set through a missing parent creates it.
pub fn plan(text: &str, root: &Node, edits: &[Edit]) -> Result<Vec<TextEdit>, Refusal> {
    let owned: Vec<DocEdit> = edits
        .iter()
        .map(|e| match e {
            Edit::Set { pointer, value } => DocEdit::Set {
                pointer: pointer.clone(),
                value: (*value).to_string(),
            },
            Edit::Remove { pointer } => DocEdit::Remove {
                pointer: pointer.clone(),
            },
        })
        .collect();
    plan_doc(text, root, &owned)
}

/// [`plan`] for edits with values built at run time.
pub(crate) fn plan_doc(
    text: &str,
    root: &Node,
    edits: &[DocEdit],
) -> Result<Vec<TextEdit>, Refusal> {
    let removed_pointers: Vec<&str> = edits
        .iter()
        .filter_map(|e| match e {
            DocEdit::Remove { pointer } => Some(pointer.as_str()),
            DocEdit::Set { .. } => None,
        })
        .collect();
    // Whether `p` lies under a removed pointer (`own`: not counting `p`
    // itself): its ancestors looked up, not every removal scanned.
    let removed_set: std::collections::HashSet<&str> = removed_pointers.iter().copied().collect();
    let covered = |p: &str, own: bool| {
        if !own && removed_set.contains(p) {
            return true;
        }
        let mut at = p;
        while let Some(i) = at.rfind('/') {
            at = at.get(..i).unwrap_or("");
            if !at.is_empty() && removed_set.contains(at) {
                return true;
            }
        }
        false
    };
    // Removals grouped by container pointer: the container and the indices.
    let mut removes: BTreeMap<String, (Option<&Node>, Vec<usize>)> = BTreeMap::new();
    let mut replaces: BTreeMap<String, (&Node, &str)> = BTreeMap::new();
    let mut inserts: BTreeMap<String, (Option<&Node>, NewMembers)> = BTreeMap::new();
    for edit in edits {
        match edit {
            DocEdit::Remove { pointer } => {
                if pointer.is_empty() {
                    return Err("an edit would remove the whole profile".into());
                }
                if covered(pointer, true) {
                    continue;
                }
                let toks = tokens(pointer);
                let steps = walk(root, &toks);
                if steps.len() != toks.len() + 1 {
                    continue; // already absent
                }
                let parent_toks = toks.get(..toks.len() - 1).unwrap_or(&[]);
                let Some(parent) = steps.get(toks.len() - 1).map(|s| s.node) else {
                    continue;
                };
                let Some(last) = toks.last() else { continue };
                let Some((index, _)) = child(parent, last) else {
                    continue;
                };
                let key: String = parent_toks
                    .iter()
                    .map(|t| format!("/{}", escape_token(t)))
                    .collect();
                let entry = removes.entry(key).or_insert((Some(parent), Vec::new()));
                entry.1.push(index);
            }
            DocEdit::Set { pointer, value } => {
                if covered(pointer, false) {
                    continue;
                }
                let toks = tokens(pointer);
                let steps = walk(root, &toks);
                let found = steps.len() - 1;
                let Some(deepest) = steps.last().map(|s| s.node) else {
                    continue;
                };
                if found == toks.len() {
                    match replaces.get(pointer) {
                        Some((_, v)) if *v != value.as_str() => {
                            return Err(format!("two edits disagree on `{pointer}`"))
                        }
                        _ => {
                            replaces.insert(pointer.clone(), (deepest, value.as_str()));
                        }
                    }
                    continue;
                }
                if !matches!(deepest.value, Value::Object(_)) {
                    return Err(format!(
                        "`{pointer}` cannot be added: its parent is {}, not an object",
                        deepest.type_name()
                    ));
                }
                let key: String = toks
                    .get(..found)
                    .unwrap_or(&[])
                    .iter()
                    .map(|t| format!("/{}", escape_token(t)))
                    .collect();
                let entry = inserts
                    .entry(key)
                    .or_insert((Some(deepest), NewMembers::default()));
                entry.1.add(toks.get(found..).unwrap_or(&[]), value)?;
            }
        }
    }
    let mut out = Vec::new();
    for (_, (container, mut indices)) in removes {
        let Some(container) = container else { continue };
        indices.sort_unstable();
        indices.dedup();
        out.extend(removals(container, &indices));
    }
    for (pointer, (node, value)) in &replaces {
        if inserts.keys().any(|k| is_under(k, pointer)) {
            return Err(format!("edits both replace and extend `{pointer}`"));
        }
        out.push(TextEdit {
            start: node.pos.offset as usize,
            end: node.end as usize,
            text: (*value).to_string(),
        });
    }
    for (object, new) in inserts.values() {
        if let Some(e) = object.and_then(|o| insert(text, o, new)) {
            out.push(e);
        }
    }
    out.sort_by_key(|e| (e.start, e.end));
    for pair in out.windows(2) {
        if let [a, b] = pair {
            if b.start < a.end {
                return Err("two edits overlap in the file".into());
            }
        }
    }
    Ok(out)
}
