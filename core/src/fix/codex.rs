//! Profile edits written into a Codex `config.toml`: `sandbox_mode`,
//! `[sandbox_workspace_write]` (`network_access`, `writable_roots`,
//! `exclude_slash_tmp`) and `[shell_environment_policy]`.
//!
//! The file is read with the importer's own TOML reader (positions of
//! every key and value); a value's extent is found by lexing the scalar at
//! its position, so every byte outside it stays as written, comments
//! included. No format-preserving TOML crate is needed for edits this
//! small, and none is carried by the page.

use std::collections::HashMap;

use super::source::{no_setting, pointer_of, Lines, Profile, Refusal};
use super::{Edit, TextEdit};
use crate::import::tree::{SNode, SValue};
use crate::import::{Format, Loc};

pub(super) struct CodexFile<'a> {
    text: &'a str,
    lines: Lines<'a>,
    root: SNode,
    /// The dotted key path of every key and value position.
    at: HashMap<(u32, u32), String>,
}

impl<'a> CodexFile<'a> {
    pub fn new(text: &'a str) -> Result<CodexFile<'a>, String> {
        let root = crate::import::toml::parse(text.as_bytes()).map_err(|e| e.to_string())?;
        let mut at = HashMap::new();
        fn walk(n: &SNode, p: &str, at: &mut HashMap<(u32, u32), String>) {
            at.entry((n.loc.line, n.loc.column))
                .or_insert_with(|| p.to_string());
            match &n.value {
                SValue::Map(entries) => {
                    for e in entries {
                        let q = if p.is_empty() {
                            e.key.clone()
                        } else {
                            format!("{p}.{}", e.key)
                        };
                        at.entry((e.key_loc.line, e.key_loc.column))
                            .or_insert_with(|| q.clone());
                        walk(&e.value, &q, at);
                    }
                }
                SValue::Seq(items) => {
                    for (i, item) in items.iter().enumerate() {
                        walk(item, &format!("{p}[{i}]"), at);
                    }
                }
                _ => {}
            }
        }
        walk(&root, "", &mut at);
        Ok(CodexFile {
            text,
            lines: Lines::new(text),
            root,
            at,
        })
    }

    fn path_at(&self, loc: Loc) -> Option<&str> {
        self.at.get(&(loc.line, loc.column)).map(String::as_str)
    }

    /// The byte span of the scalar that starts at `loc`.
    fn scalar(&self, loc: Loc) -> Result<(usize, usize), Refusal> {
        let start = self
            .lines
            .offset(loc)
            .ok_or("a position outside the file")?;
        let rest = self.text.get(start..).unwrap_or("");
        if rest.starts_with("\"\"\"") || rest.starts_with("'''") {
            return Err("a multi-line string is edited by hand".into());
        }
        let len = if let Some(body) = rest.strip_prefix('"') {
            let mut escaped = false;
            let mut end = None;
            for (i, c) in body.char_indices() {
                match c {
                    _ if escaped => escaped = false,
                    '\\' => escaped = true,
                    '"' => {
                        end = Some(i + 2);
                        break;
                    }
                    '\n' => break,
                    _ => {}
                }
            }
            end.ok_or("an unterminated string")?
        } else if let Some(body) = rest.strip_prefix('\'') {
            body.find(['\'', '\n'])
                .filter(|i| body.as_bytes().get(*i) == Some(&b'\''))
                .map(|i| i + 2)
                .ok_or("an unterminated string")?
        } else {
            rest.find(|c: char| c.is_whitespace() || matches!(c, ',' | ']' | '}' | '#'))
                .unwrap_or(rest.len())
        };
        Ok((start, start + len))
    }

    /// Replace the scalar at `loc` with `text`.
    fn replace(&self, loc: Loc, text: &str) -> Result<TextEdit, Refusal> {
        let (start, end) = self.scalar(loc)?;
        Ok(TextEdit {
            start,
            end,
            text: text.to_string(),
        })
    }

    /// The array holding the item at `loc`, and the item's index.
    fn item_at(&self, loc: Loc) -> Option<(String, usize)> {
        let path = self.path_at(loc)?;
        let open = path.rfind('[')?;
        let index = path.get(open + 1..path.len() - 1)?.parse().ok()?;
        Some((path.get(..open)?.to_string(), index))
    }

    fn node(&self, path: &str) -> Option<&SNode> {
        let mut n = &self.root;
        for part in path.split('.') {
            n = n.get(part)?;
        }
        Some(n)
    }

    /// Text edits removing items `removed` (sorted) of the array at
    /// `path`, with the commas between them; a run that ends the array
    /// takes the comma before it.
    fn remove_items(&self, path: &str, removed: &[usize]) -> Result<Vec<TextEdit>, Refusal> {
        let items = self
            .node(path)
            .map(SNode::items)
            .ok_or_else(|| format!("`{path}` is not an array"))?;
        let spans = items
            .iter()
            .map(|i| self.scalar(i.loc))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(runs(&spans, removed))
    }

    /// Text edits removing the pairs `keys` of the table at `path`: each
    /// whole line in a `[table]`; in an inline table, runs of pairs with
    /// the commas between them, as array items.
    fn remove_pairs(&self, path: &str, keys: &[String]) -> Result<Vec<TextEdit>, Refusal> {
        let table = self.node(path).ok_or("the table is not found")?;
        let entries = table.entries();
        let inline = self
            .lines
            .offset(table.loc)
            .and_then(|o| self.text.get(o..))
            .is_some_and(|t| t.starts_with('{'));
        let spans = entries
            .iter()
            .map(|e| {
                let start = self
                    .lines
                    .offset(e.key_loc)
                    .ok_or("a position outside the file")?;
                Ok((start, self.scalar(e.value.loc)?.1))
            })
            .collect::<Result<Vec<_>, Refusal>>()?;
        let mut removed: Vec<usize> = entries
            .iter()
            .enumerate()
            .filter(|(_, e)| keys.contains(&e.key))
            .map(|(i, _)| i)
            .collect();
        removed.sort_unstable();
        if !inline {
            let mut out = Vec::new();
            for i in removed {
                let (start, end) = spans.get(i).copied().ok_or("no such pair")?;
                let line_start = self
                    .text
                    .get(..start)
                    .map_or(0, |t| t.rfind('\n').map_or(0, |i| i + 1));
                let line_end = self.text.get(end..).map_or(self.text.len(), |t| {
                    t.find('\n').map_or(self.text.len(), |i| end + i + 1)
                });
                let lead = self.text.get(line_start..start).unwrap_or("");
                let rest = self.text.get(end..line_end).unwrap_or("").trim();
                if !lead.trim().is_empty() || !(rest.is_empty() || rest.starts_with('#')) {
                    return Err("the pair shares its line; edit it by hand".into());
                }
                out.push(TextEdit {
                    start: line_start,
                    end: line_end,
                    text: String::new(),
                });
            }
            return Ok(out);
        }
        Ok(runs(&spans, &removed))
    }

    /// The end of the `[table]` header line, when the file has one.
    fn header_end(&self, table: &str) -> Option<usize> {
        let mut at = 0;
        for line in self.text.split_inclusive('\n') {
            let t = line.trim();
            let t = t.split('#').next().unwrap_or("").trim();
            if let Some(name) = t.strip_prefix('[').and_then(|t| t.strip_suffix(']')) {
                if !name.starts_with('[') && name.trim() == table {
                    return Some(at + line.len());
                }
            }
            at += line.len();
        }
        None
    }

    /// Write `key = value` in the top-level `[table]`: after its header,
    /// or in a new table at the end of the file.
    fn insert(&self, table: &str, key: &str, value: &str) -> Result<TextEdit, Refusal> {
        let newline = if self.text.contains("\r\n") {
            "\r\n"
        } else {
            "\n"
        };
        if let Some(end) = self.header_end(table) {
            let lead = if self.text.get(..end).is_some_and(|t| t.ends_with('\n')) {
                ""
            } else {
                newline
            };
            return Ok(TextEdit {
                start: end,
                end,
                text: format!("{lead}{key} = {value}{newline}"),
            });
        }
        if self.root.get(table).is_some() {
            return Err(format!(
                "`{table}` is written without a `[{table}]` header; edit it by hand"
            ));
        }
        let end = self.text.len();
        let lead = if self.text.is_empty() || self.text.ends_with('\n') {
            newline.to_string()
        } else {
            format!("{newline}{newline}")
        };
        Ok(TextEdit {
            start: end,
            end,
            text: format!("{lead}[{table}]{newline}{key} = {value}{newline}"),
        })
    }
}

/// Text edits removing the children `removed` (sorted) of a list whose
/// children span `spans`: runs of neighbours at once, each taking the
/// separator after it, or before it when the run ends the list.
fn runs(spans: &[(usize, usize)], removed: &[usize]) -> Vec<TextEdit> {
    let n = spans.len();
    if removed.len() == n {
        return match (spans.first(), spans.last()) {
            (Some(first), Some(last)) => vec![TextEdit {
                start: first.0,
                end: last.1,
                text: String::new(),
            }],
            _ => Vec::new(),
        };
    }
    let mut out: Vec<(usize, usize)> = Vec::new();
    for &i in removed {
        match out.last_mut() {
            Some((_, b)) if *b + 1 == i => *b = i,
            _ => out.push((i, i)),
        }
    }
    let span = |i: usize| spans.get(i).copied();
    out.into_iter()
        .filter_map(|(a, b)| {
            let (start, end) = if b + 1 < n {
                (span(a)?.0, span(b + 1)?.0)
            } else {
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

pub(super) fn plan(f: &CodexFile, p: &Profile, edits: &[Edit]) -> Result<Vec<TextEdit>, Refusal> {
    let mut out: Vec<TextEdit> = Vec::new();
    let mut removed: std::collections::BTreeMap<String, Vec<usize>> = Default::default();
    let mut pairs: std::collections::BTreeMap<String, Vec<String>> = Default::default();
    let mut push = |e: TextEdit| {
        if !out.contains(&e) {
            out.push(e);
        }
    };
    let default_profile = p.imported.name.is_empty();
    for e in edits {
        let pointer = pointer_of(e);
        p.expressible(pointer)?;
        let tokens: Vec<&str> = pointer.split('/').skip(1).collect();
        let origin = |ptr: &str| p.origin(ptr).map(|l| (l, f.path_at(l).unwrap_or("")));
        // `danger-full-access` is not edited: turning the sandbox on
        // (`read-only`, `workspace-write`) changes what every command can
        // do and wakes findings of its own (an image digest, the writable
        // workspace), which the proof would refuse.
        let leave_danger = |ptr: &str| -> Result<TextEdit, Refusal> {
            match origin(ptr) {
                Some((_, path)) if path.ends_with("sandbox_mode") => Err(
                    "only `sandbox_mode` gives it, and changing the mode changes what every command can do; choose the mode by hand".into(),
                ),
                _ => Err(format!("no Codex setting gives `{ptr}`")),
            }
        };
        match (e, tokens.as_slice()) {
            (
                Edit::Set {
                    value: "\"deny\"", ..
                },
                ["network", "egress"],
            ) => match origin("/network/egress") {
                Some((l, path))
                    if path.ends_with("network_access") || path.ends_with("enabled") =>
                {
                    push(f.replace(l, "false")?)
                }
                _ => push(leave_danger("/network/egress")?),
            },
            (Edit::Remove { .. }, ["boundary", "host_namespaces", _]) => {
                push(leave_danger(pointer)?)
            }
            (
                Edit::Remove { .. }
                | Edit::Set {
                    value: "\"read-only\"",
                    ..
                },
                ["mounts", i, ..],
            ) if matches!(e, Edit::Remove { .. }) || tokens.get(2) == Some(&"access") => {
                let m = format!("/mounts/{i}");
                let source = p.str(&format!("{m}/source")).unwrap_or("");
                match origin(&m) {
                    Some((l, path)) if path.contains("writable_roots[") => {
                        let (array, i) = f.item_at(l).ok_or("no array item at the root's place")?;
                        removed.entry(array).or_default().push(i);
                    }
                    Some((_, path)) if path.ends_with("sandbox_mode") && source == "/" => {
                        push(leave_danger(&m)?)
                    }
                    Some((l, path)) if source == "/tmp" && path.ends_with("exclude_slash_tmp") => {
                        push(f.replace(l, "true")?)
                    }
                    _ if source == "/tmp" && default_profile => {
                        push(f.insert("sandbox_workspace_write", "exclude_slash_tmp", "true")?)
                    }
                    _ => {
                        return Err(format!(
                            "`{source}` is writable by Codex's mode itself, not by a setting that names it; choose the mode by hand"
                        ))
                    }
                }
            }
            (Edit::Remove { .. }, ["environment", "variables", _]) => match origin(pointer) {
                Some((_, path)) if path.contains("shell_environment_policy.set.") => {
                    if let Some((table, key)) = path.rsplit_once('.') {
                        pairs.entry(table.to_string()).or_default().push(key.to_string());
                    }
                }
                _ => return Err("the variable is inherited from whoever starts Codex, not set in the file; exclude it in `[shell_environment_policy]` by hand".into()),
            },
            (Edit::Set { value: "false", .. }, ["environment", "inherit"]) => {
                match origin(pointer) {
                    Some((l, path)) if path.ends_with("inherit") => push(f.replace(l, "\"core\"")?),
                    Some((_, path)) if path.ends_with("shell_environment_policy") && default_profile => {
                        push(f.insert("shell_environment_policy", "inherit", "\"core\"")?)
                    }
                    _ if default_profile && f.root.get("shell_environment_policy").is_none() => {
                        push(f.insert("shell_environment_policy", "inherit", "\"core\"")?)
                    }
                    _ => return Err("the environment policy of this profile is inherited from elsewhere; edit it by hand".into()),
                }
            }
            _ => return Err(no_setting(Format::Codex, e)),
        }
    }
    for (table, keys) in pairs {
        out.extend(f.remove_pairs(&table, &keys)?);
    }
    for (array, mut items) in removed {
        items.sort_unstable();
        items.dedup();
        out.extend(f.remove_items(&array, &items)?);
    }
    out.sort_by_key(|e| (e.start, e.end));
    Ok(out)
}
