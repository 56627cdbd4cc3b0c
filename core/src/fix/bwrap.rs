//! Profile edits written into a bwrap script: an option and its
//! arguments dropped as one group, `--bind` turned into `--ro-bind`, and
//! `--unshare-*`, `--new-session`, `--clearenv` or `--unsetenv` added
//! right after the `bwrap` word. Options inside a literal bash array
//! (`args=(--bind / /)`) are edited where they are written.
//!
//! Only words written literally in the script are edited: an option the
//! shell supplies (`$OPTS`, `"${args[@]}"` built in a loop) is refused.

use super::source::{no_setting, pointer_of, Lines, Profile, Refusal};
use super::{Edit, TextEdit};
use crate::import::{Format, Loc, BWRAP_OPTIONS};

/// One argument of an invocation and where its text lies.
struct Word {
    text: String,
    /// Where the source map places the word (for an array's first
    /// element, the expansion), and where its text is.
    reported: usize,
    start: usize,
    end: usize,
    expands: bool,
}

struct Invocation {
    at: Loc,
    /// The end of the `bwrap` word: where added options go.
    after_bwrap: Option<usize>,
    words: Vec<Word>,
}

pub(super) struct Script<'a> {
    text: &'a str,
    invocations: Vec<Invocation>,
}

/// The end of the shell word starting at `start`: quotes, escapes and
/// `$(…)`/`${…}` kept inside it.
fn word_end(text: &str, start: usize) -> usize {
    let b = text.as_bytes();
    let mut i = start;
    let mut depth = 0usize;
    while let Some(&c) = b.get(i) {
        match c {
            b'\\' => i += 2,
            b'\'' if depth == 0 => {
                i += 1;
                while b.get(i).is_some_and(|&c| c != b'\'') {
                    i += 1;
                }
                i += 1;
            }
            b'"' => {
                i += 1;
                let mut inner = 0usize;
                while let Some(&c) = b.get(i) {
                    match c {
                        b'\\' => i += 1,
                        b'(' => inner += 1,
                        b')' => inner = inner.saturating_sub(1),
                        b'"' if inner == 0 => break,
                        _ => {}
                    }
                    i += 1;
                }
                i += 1;
            }
            b'$' if matches!(b.get(i + 1), Some(b'(' | b'{')) => {
                depth += 1;
                i += 2;
            }
            b')' | b'}' if depth > 0 => {
                depth -= 1;
                i += 1;
            }
            b' ' | b'\t' | b'\n' | b'\r' | b';' | b'|' | b'&' | b'<' | b'>' | b'(' | b')'
                if depth == 0 =>
            {
                break
            }
            _ => i += 1,
        }
    }
    i.min(text.len())
}

/// The first element of `"${name[@]}"` is reported at the expansion (it
/// joins the word being built there); the others where the array literal
/// writes them. Put it back where `name=(` writes it, when that literal
/// is in the file and starts with the same word.
fn relocate_array_head(text: &str, w: &mut Word) {
    let Some(here) = text.get(w.start..w.end) else {
        return;
    };
    if unquoted(here) == w.text {
        return;
    }
    let inner = unquoted(here);
    let Some(name) = inner
        .strip_prefix("${")
        .and_then(|t| t.strip_suffix("[@]}"))
        .filter(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_'))
    else {
        return;
    };
    let Some(at) = text
        .get(..w.start)
        .and_then(|t| t.rfind(&format!("{name}=(")))
    else {
        return;
    };
    let mut start = at + name.len() + 2;
    let bytes = text.as_bytes();
    while matches!(bytes.get(start), Some(b' ' | b'\t' | b'\n' | b'\r')) {
        start += 1;
    }
    let end = word_end(text, start);
    if text.get(start..end).is_some_and(|t| unquoted(t) == w.text) {
        w.start = start;
        w.end = end;
    }
}

/// `text` without the shell's quotes around it (`"--bind"` → `--bind`).
fn unquoted(text: &str) -> &str {
    for q in ['"', '\''] {
        if let Some(t) = text.strip_prefix(q).and_then(|t| t.strip_suffix(q)) {
            return t;
        }
    }
    text
}

fn arity(option: &str) -> Option<usize> {
    BWRAP_OPTIONS
        .iter()
        .find(|(o, _)| *o == option)
        .map(|(_, n)| *n)
}

impl<'a> Script<'a> {
    pub fn new(text: &'a str) -> Result<Script<'a>, String> {
        let lines = Lines::new(text);
        let found = crate::import::bwrap_invocation_words(text).map_err(|e| e.to_string())?;
        let invocations = found
            .into_iter()
            .map(|(at, words)| {
                let after_bwrap = lines.offset(at).and_then(|s| {
                    let end = word_end(text, s);
                    let w = unquoted(text.get(s..end)?);
                    (w.ends_with("bwrap") || w.starts_with('$')).then_some(end)
                });
                let words = words
                    .into_iter()
                    .map(|(text_, loc, expands)| {
                        let start = lines.offset(loc).unwrap_or(usize::MAX);
                        let end = if start == usize::MAX {
                            start
                        } else {
                            word_end(text, start)
                        };
                        Word {
                            text: text_,
                            reported: start,
                            start,
                            end,
                            expands,
                        }
                    })
                    .collect();
                Invocation {
                    at,
                    after_bwrap,
                    words,
                }
            })
            .collect();
        let mut invocations: Vec<Invocation> = invocations;
        for inv in &mut invocations {
            for w in &mut inv.words {
                relocate_array_head(text, w);
            }
        }
        Ok(Script { text, invocations })
    }

    /// Whether only blanks and line continuations lie between `a` and `b`.
    fn blank_between(&self, a: usize, b: usize) -> bool {
        a <= b
            && self.text.get(a..b).is_some_and(|t| {
                t.replace("\\\r\n", " ")
                    .replace("\\\n", " ")
                    .trim()
                    .is_empty()
            })
    }

    /// The text edit dropping words `from..=to` of `inv`, with the blanks
    /// that separated them from their neighbours (the whole line when the
    /// group fills a continued line).
    fn drop_group(&self, inv: &Invocation, from: usize, to: usize) -> Result<TextEdit, Refusal> {
        let group = inv
            .words
            .get(from..=to)
            .ok_or("the option lacks its arguments")?;
        for pair in group.windows(2) {
            if let [a, b] = pair {
                if !self.blank_between(a.end, b.start) {
                    return Err(
                        "the option and its arguments are not written together; edit them by hand"
                            .into(),
                    );
                }
            }
        }
        let (Some(first), Some(last)) = (group.first(), group.last()) else {
            return Err("no words to drop".into());
        };
        let bytes = self.text.as_bytes();
        let (start, end) = (first.start, last.end);
        let line_start = self
            .text
            .get(..start)
            .map_or(0, |t| t.rfind('\n').map_or(0, |i| i + 1));
        let lead_blank = self
            .text
            .get(line_start..start)
            .is_some_and(|t| t.trim().is_empty());
        let mut after = end;
        while matches!(bytes.get(after), Some(b' ' | b'\t')) {
            after += 1;
        }
        let rest = self.text.get(after..).unwrap_or("");
        let continued = rest.starts_with("\\\n") || rest.starts_with("\\\r\n");
        if lead_blank && continued {
            let nl = after + if rest.starts_with("\\\n") { 2 } else { 3 };
            return Ok(TextEdit {
                start: line_start,
                end: nl,
                text: String::new(),
            });
        }
        // Blanks after the group (before more words or a continuation)
        // go with it; the blanks before it stay as the separator.
        if after > end && !rest.starts_with('\n') && !rest.starts_with("\r\n") && !rest.is_empty() {
            return Ok(TextEdit {
                start,
                end: after,
                text: String::new(),
            });
        }
        // At the end of a line or command: the blanks before go.
        let mut before = start;
        while before > line_start && matches!(bytes.get(before - 1), Some(b' ' | b'\t')) {
            before -= 1;
        }
        Ok(TextEdit {
            start: before,
            end,
            text: String::new(),
        })
    }

    /// The option group holding the word at `loc`: the option's index
    /// and its last argument's.
    fn group_at(&self, inv: &Invocation, loc: Loc) -> Result<(usize, usize), Refusal> {
        let offset = Lines::new(self.text)
            .offset(loc)
            .ok_or("a position outside the file")?;
        let k = inv
            .words
            .iter()
            .position(|w| w.reported == offset)
            .ok_or("the setting comes from no word of the command line")?;
        // The option is the nearest literal word before (or at) `k` whose
        // arguments reach `k`; bwrap options take at most three.
        for j in (k.saturating_sub(3)..=k).rev() {
            let Some(w) = inv.words.get(j) else { continue };
            if w.expands {
                continue;
            }
            let Some(n) = arity(&w.text) else { continue };
            if j + n < k {
                continue;
            }
            let literal = self
                .text
                .get(w.start..w.end)
                .is_some_and(|t| unquoted(t) == w.text);
            if !literal {
                return Err(format!(
                    "`{}` is not written out where it is used; edit it by hand",
                    w.text
                ));
            }
            return Ok((j, j + n));
        }
        match inv.words.get(k) {
            Some(w) if w.expands => Err(format!("`{}` is filled in by the shell when the script runs; the options it supplies are not in the file", w.text)),
            _ => Err("the setting comes from no bwrap option".into()),
        }
    }
}

/// The option that unshares a profile namespace.
fn unshare_option(ns: &str) -> Option<&'static str> {
    Some(match ns {
        "network" => "--unshare-net",
        "pid" => "--unshare-pid",
        "ipc" => "--unshare-ipc",
        "uts" => "--unshare-uts",
        "user" => "--unshare-user",
        "cgroup" => "--unshare-cgroup",
        _ => return None,
    })
}

pub(super) fn plan(s: &Script, p: &Profile, edits: &[Edit]) -> Result<Vec<TextEdit>, Refusal> {
    let at = p
        .origin("")
        .ok_or("the profile has no place in the script")?;
    let inv = s
        .invocations
        .iter()
        .find(|i| i.at == at)
        .ok_or("the profile's bwrap command is not found in the script")?;
    let mut out: Vec<TextEdit> = Vec::new();
    let mut added: Vec<String> = Vec::new();
    let mut dropped: Vec<(usize, usize)> = Vec::new();
    let mut read_only: Vec<(usize, &str)> = Vec::new();
    let literal_word = |text: &str| inv.words.iter().position(|w| !w.expands && w.text == text);
    for e in edits {
        let pointer = pointer_of(e);
        p.expressible(pointer)?;
        let tokens: Vec<&str> = pointer.split('/').skip(1).collect();
        let origin = |ptr: &str| {
            p.origin(ptr)
                .ok_or_else(|| format!("`{ptr}` has no place in the script"))
        };
        let mut unshare = |ns: &str| -> Result<(), Refusal> {
            let opt = unshare_option(ns)
                .ok_or_else(|| format!("bwrap has no option to unshare the `{ns}` namespace"))?;
            if ns == "network" {
                if let Some(k) = literal_word("--share-net") {
                    dropped.push((k, k));
                    return Ok(());
                }
            }
            added.push(opt.to_string());
            Ok(())
        };
        match (e, tokens.as_slice()) {
            (Edit::Set { value: "\"deny\"", .. }, ["network", "egress"]) => unshare("network")?,
            (Edit::Remove { .. }, ["boundary", "host_namespaces", _]) => {
                let ns = p.str(pointer).ok_or_else(|| format!("no namespace at `{pointer}`"))?;
                unshare(ns)?
            }
            (Edit::Set { value: "\"none\"", .. }, ["boundary", "terminal"]) => added.push("--new-session".into()),
            (Edit::Set { value: "false", .. }, ["environment", "inherit"]) => added.push("--clearenv".into()),
            (Edit::Remove { .. }, ["mounts", _])
            | (Edit::Remove { .. }, ["boundary", "devices", _])
            | (Edit::Remove { .. }, ["boundary", "capabilities", "add", _]) => {
                let g = s.group_at(inv, origin(pointer)?)?;
                let opt = inv.words.get(g.0).map_or("", |w| w.text.as_str());
                let target = inv.words.get(g.1).map_or("", |w| w.text.as_str());
                if tokens.first() == Some(&"mounts") && opt.contains("bind") && target.trim_end_matches('/').is_empty() {
                    return Err("the mount is the sandbox's root: without it bwrap starts from an empty root; make it read-only (`--ro-bind`) or bind only what the job needs, by hand".into());
                }
                if !matches!(opt, "--bind" | "--bind-try" | "--ro-bind" | "--ro-bind-try" | "--dev-bind" | "--dev-bind-try" | "--cap-add" | "--dev" | "--proc" | "--tmpfs") {
                    return Err(format!("the setting comes from `{opt}`, which does more than this mount; edit it by hand"));
                }
                dropped.push(g);
            }
            (Edit::Remove { .. }, ["environment", "variables", name]) => {
                let name = name.replace("~1", "/").replace("~0", "~");
                match s.group_at(inv, origin(pointer)?) {
                    Ok(g) if inv.words.get(g.0).is_some_and(|w| w.text == "--setenv") => dropped.push(g),
                    _ if !name.is_empty() && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') => {
                        added.push(format!("--unsetenv {name}"))
                    }
                    _ => return Err(format!("`{name}` cannot be written as a shell word safely")),
                }
            }
            (Edit::Set { value: "\"read-only\"", .. }, ["mounts", i, "access"]) => {
                let (k, _) = s.group_at(inv, origin(&format!("/mounts/{i}"))?)?;
                let w = inv.words.get(k).ok_or("no option word")?;
                let ro = match w.text.as_str() {
                    "--bind" | "--dev-bind" => "--ro-bind",
                    "--bind-try" | "--dev-bind-try" => "--ro-bind-try",
                    other => return Err(format!("`{other}` has no read-only form")),
                };
                if !read_only.iter().any(|(j, _)| *j == k) {
                    read_only.push((k, ro));
                }
            }
            (Edit::Set { value: "\"default\"", .. }, ["boundary", "seccomp"]) => {
                return Err("bwrap has no default seccomp filter: one must be compiled and passed with `--seccomp FD`".into())
            }
            _ => return Err(no_setting(Format::Bwrap, e)),
        }
    }
    dropped.sort_unstable();
    dropped.dedup();
    // A mount both removed and made read-only is removed.
    for (k, ro) in read_only {
        if dropped.iter().any(|(a, b)| (*a..=*b).contains(&k)) {
            continue;
        }
        let w = inv.words.get(k).ok_or("no option word")?;
        out.push(TextEdit {
            start: w.start,
            end: w.end,
            text: ro.to_string(),
        });
    }
    // Neighbouring groups share the blanks between them: their spans are
    // joined, so a blank is never removed twice.
    let mut groups = dropped
        .iter()
        .map(|(a, b)| s.drop_group(inv, *a, *b))
        .collect::<Result<Vec<_>, _>>()?;
    // By place in the file: an array's words are written before the
    // command that expands it.
    groups.sort_by_key(|e| (e.start, e.end));
    let mut spans: Vec<TextEdit> = Vec::new();
    for d in groups {
        match spans.last_mut() {
            Some(last) if d.start <= last.end => last.end = last.end.max(d.end),
            _ => spans.push(d),
        }
    }
    out.extend(spans);
    if !added.is_empty() {
        added.dedup();
        let mut seen = Vec::new();
        for a in added {
            if !seen.contains(&a) {
                seen.push(a);
            }
        }
        let at = inv
            .after_bwrap
            .ok_or("the `bwrap` word is not written out in the script; add the options by hand")?;
        out.push(TextEdit {
            start: at,
            end: at,
            text: seen.iter().map(|a| format!(" {a}")).collect(),
        });
    }
    out.sort_by_key(|e| (e.start, e.end));
    for pair in out.windows(2) {
        if let [a, b] = pair {
            if b.start < a.end {
                return Err("two edits overlap in the script".into());
            }
        }
    }
    Ok(out)
}
