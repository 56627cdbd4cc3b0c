//! The house rule that the module graph has no cycles (ARCHITECTURE.md).
//!
//! For every module of the three crates, the modules directly inside it
//! must depend on each other one way only: when something in `a` (or
//! below it) names something in `b` (or below it), nothing in `b` may name
//! anything in `a`. A parent and its own children are not compared (a
//! child naming `super::Thing` is how Rust nests code), and a name reached
//! through a `pub use` counts against the module that defines it.
//!
//! This reads the source as the compiler's name resolution would for the
//! forms this workspace uses: `use` trees (braces, `self`, `as`, globs) and
//! paths written inline (`crate::…`, `super::…`, `self::…`), with `#[cfg(test)]`
//! modules and comments left out. A cycle fails with every edge in it and
//! the file and line that makes each one.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use isolint_acceptance::root;

type ModPath = Vec<String>;

/// One `crate::…`/`super::…`/`self::…` reference: the absolute path it
/// names and where it was written.
struct Reference {
    path: ModPath,
    line: usize,
}

struct Module {
    file: PathBuf,
    refs: Vec<Reference>,
    /// `pub use` items of this module: the name they define here and the
    /// absolute path they stand for.
    reexports: Vec<(String, ModPath)>,
}

/// Every module of the crate rooted at `src` (its `lib.rs` or `main.rs` is
/// the empty path), test modules left out. A file is the module its path
/// names, unless a `#[path = "…"] mod name;` mounts it (and the files
/// below it) elsewhere: then it is that module, as the compiler sees it.
fn modules(src: &Path) -> BTreeMap<ModPath, Module> {
    let mut files: Vec<(ModPath, PathBuf, String)> = Vec::new();
    let mut stack = vec![src.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).expect("read source dir") {
            let path = entry.expect("dir entry").path();
            if path.is_dir() {
                stack.push(path);
                continue;
            }
            if path.extension().is_none_or(|e| e != "rs") {
                continue;
            }
            let segs = file_module(src, &path);
            // A `main.rs` beside a `lib.rs` is another crate, which names
            // the library by its crate name, never by `crate::`.
            if segs == ["main"] && src.join("lib.rs").exists() {
                continue;
            }
            let text = std::fs::read_to_string(&path).expect("read source");
            files.push((segs, path, text));
        }
    }
    let mounted = mounts(src, &files);
    let mut out = BTreeMap::new();
    for (segs, path, text) in files {
        let segs = remount(&mounted, segs);
        if segs
            .last()
            .is_some_and(|s| s == "tests" || s.ends_with("_tests"))
        {
            continue;
        }
        let (refs, reexports) = references(&without_tests(&text), &segs);
        out.insert(
            segs,
            Module {
                file: path,
                refs,
                reexports,
            },
        );
    }
    out
}

/// The module a file is by its path under `src`.
fn file_module(src: &Path, path: &Path) -> ModPath {
    let rel = path.strip_prefix(src).expect("under src");
    let mut segs: ModPath = rel
        .with_extension("")
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    if segs.last().is_some_and(|s| s == "mod") {
        segs.pop();
    }
    if segs == ["lib"] || (segs == ["main"] && !src.join("lib.rs").exists()) {
        segs.clear();
    }
    segs
}

/// Every `#[path = "…"] mod name;` of the crate: the module its file would
/// be by its path, and the module it is.
fn mounts(src: &Path, files: &[(ModPath, PathBuf, String)]) -> Vec<(ModPath, ModPath)> {
    let attr = regex::Regex::new(
        r#"(?m)^\s*#\[path\s*=\s*"([^"]+)"\]\s*(?:#\[[^\]]*\]\s*)*(?:pub(?:\([^)]*\))?\s+)?mod\s+(\w+)\s*;"#,
    )
    .unwrap();
    let mut out = Vec::new();
    for (segs, path, text) in files {
        for m in attr.captures_iter(text) {
            // Relative to the directory of the file that declares it.
            let mut target = path.parent().unwrap_or(src).to_path_buf();
            for c in Path::new(&m[1]).components() {
                match c {
                    std::path::Component::ParentDir => {
                        target.pop();
                    }
                    std::path::Component::CurDir => {}
                    c => target.push(c),
                }
            }
            if target.strip_prefix(src).is_err() {
                continue;
            }
            let mut real = segs.clone();
            real.push(m[2].to_string());
            out.push((file_module(src, &target), real));
        }
    }
    // The longest prefix first, so a mount inside a mounted module wins.
    out.sort_by_key(|(from, _)| std::cmp::Reverse(from.len()));
    out
}

/// `segs` with the longest mounted prefix replaced by where it is mounted.
fn remount(mounted: &[(ModPath, ModPath)], segs: ModPath) -> ModPath {
    for (from, to) in mounted {
        if segs.starts_with(from) {
            let mut out = to.clone();
            out.extend_from_slice(&segs[from.len()..]);
            return out;
        }
    }
    segs
}

/// The code of a file without comments (doc links name paths too),
/// literals, and `#[cfg(test)]` items: a test may name anything.
fn without_tests(text: &str) -> String {
    let code = blank_literals(text);
    let mut kept = String::new();
    let mut skipping = false;
    let mut depth = 0i32;
    let mut opened = false;
    for line in code.lines() {
        if !skipping && line.trim() == "#[cfg(test)]" {
            (skipping, depth, opened) = (true, 0, false);
        } else if skipping {
            depth += line.matches('{').count() as i32 - line.matches('}').count() as i32;
            opened |= line.contains('{');
            skipping = if opened {
                depth > 0
            } else {
                !line.trim_end().ends_with(';')
            };
        } else {
            kept.push_str(line);
        }
        kept.push('\n');
    }
    kept
}

/// `text` with comments and the insides of string and character literals
/// replaced by spaces (newlines kept, so line numbers hold).
fn blank_literals(text: &str) -> String {
    let b = text.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    let blank = |out: &mut Vec<u8>, s: &[u8]| {
        out.extend(s.iter().map(|&c| if c == b'\n' { c } else { b' ' }))
    };
    while i < b.len() {
        let rest = &b[i..];
        let end = if rest.starts_with(b"//") {
            i + rest.iter().position(|&c| c == b'\n').unwrap_or(rest.len())
        } else if rest.starts_with(b"/*") {
            i + 2
                + rest[2..]
                    .windows(2)
                    .position(|w| w == b"*/")
                    .map_or(rest.len() - 2, |p| p + 2)
        } else if rest[0] == b'r'
            && (rest.get(1) == Some(&b'"') || rest.get(1) == Some(&b'#'))
            && (i == 0 || !(b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_'))
        {
            let hashes = rest[1..].iter().take_while(|&&c| c == b'#').count();
            if rest.get(1 + hashes) != Some(&b'"') {
                out.push(rest[0]);
                i += 1;
                continue;
            }
            let mut close = vec![b'"'];
            close.extend(std::iter::repeat_n(b'#', hashes));
            let body = 2 + hashes;
            i + body
                + rest[body..]
                    .windows(close.len())
                    .position(|w| w == close)
                    .map_or(rest.len() - body, |p| p + close.len())
        } else if rest[0] == b'"' {
            let mut j = 1;
            while j < rest.len() && rest[j] != b'"' {
                j += if rest[j] == b'\\' { 2 } else { 1 };
            }
            i + (j + 1).min(rest.len())
        } else if rest[0] == b'\'' && (rest.get(2) == Some(&b'\'') || rest.get(1) == Some(&b'\\')) {
            let mut j = 1;
            while j < rest.len() && rest[j] != b'\'' {
                j += if rest[j] == b'\\' { 2 } else { 1 };
            }
            i + (j + 1).min(rest.len())
        } else {
            out.push(rest[0]);
            i += 1;
            continue;
        };
        blank(&mut out, &b[i..end]);
        i = end;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// The absolute path a relative one names, written in module `at`.
fn absolute(at: &[String], path: &[&str]) -> Option<ModPath> {
    let mut base: ModPath;
    let mut rest = path;
    match *rest.first()? {
        "crate" => {
            base = Vec::new();
            rest = &rest[1..];
        }
        "self" => {
            base = at.to_vec();
            rest = &rest[1..];
        }
        "super" => {
            base = at.to_vec();
            while rest.first() == Some(&"super") {
                base.pop()?;
                rest = &rest[1..];
            }
        }
        _ => return None,
    }
    base.extend(rest.iter().filter(|s| **s != "self").map(|s| s.to_string()));
    Some(base)
}

/// The references and `pub use` re-exports in one module's code.
fn references(code: &str, at: &[String]) -> (Vec<Reference>, Vec<(String, ModPath)>) {
    let mut refs = Vec::new();
    let mut reexports = Vec::new();
    let use_item = regex::Regex::new(r"(?s)\b(pub(?:\([a-z]+\))?\s+)?use\s+([^;]*);").unwrap();
    let inline = regex::Regex::new(r"\b(?:crate|super|self)(?:::(?:super|\w+))+").unwrap();
    let line_of = |offset: usize| code[..offset].matches('\n').count() + 1;
    let mut in_use = Vec::new();
    for m in use_item.captures_iter(code) {
        let whole = m.get(0).unwrap();
        in_use.push(whole.range());
        let public = m.get(1).is_some();
        let line = line_of(whole.start());
        for (path, alias) in expand_use(m.get(2).unwrap().as_str()) {
            let segs: Vec<&str> = path.iter().map(String::as_str).collect();
            // A path starting with a child module's name is relative to
            // this module (2018 paths); one starting with a crate name is
            // outside the crate and not followed.
            let resolved = absolute(at, &segs).or_else(|| {
                let mut rel = vec!["self"];
                rel.extend(&segs);
                absolute(at, &rel)
            });
            let Some(abs) = resolved else { continue };
            if public && alias != "*" {
                reexports.push((alias, abs.clone()));
            }
            refs.push(Reference { path: abs, line });
        }
    }
    for m in inline.find_iter(code) {
        if in_use.iter().any(|r| r.contains(&m.start())) {
            continue;
        }
        let segs: Vec<&str> = m.as_str().split("::").collect();
        if let Some(abs) = absolute(at, &segs) {
            refs.push(Reference {
                path: abs,
                line: line_of(m.start()),
            });
        }
    }
    (refs, reexports)
}

/// The paths of a `use` tree (`a::{b, c::{d as e, *}}`), each with the
/// name it binds (`*` for a glob).
fn expand_use(tree: &str) -> Vec<(Vec<String>, String)> {
    let tokens: Vec<String> = {
        let spaced = tree
            .replace("::", " :: ")
            .replace('{', " { ")
            .replace('}', " } ")
            .replace(',', " , ");
        spaced.split_whitespace().map(str::to_string).collect()
    };
    let mut out = Vec::new();
    let mut pos = 0;
    parse_tree(&tokens, &mut pos, &[], &mut out);
    out
}

fn parse_tree(
    tokens: &[String],
    pos: &mut usize,
    prefix: &[String],
    out: &mut Vec<(Vec<String>, String)>,
) {
    let mut path = prefix.to_vec();
    while let Some(tok) = tokens.get(*pos).map(String::as_str) {
        match tok {
            "::" => *pos += 1,
            "{" => {
                *pos += 1;
                while let Some(next) = tokens.get(*pos).map(String::as_str) {
                    match next {
                        "}" => {
                            *pos += 1;
                            break;
                        }
                        "," => *pos += 1,
                        _ => parse_tree(tokens, pos, &path, out),
                    }
                }
                return;
            }
            "*" => {
                *pos += 1;
                out.push((path, "*".into()));
                return;
            }
            "as" => {
                let alias = tokens.get(*pos + 1).cloned().unwrap_or_default();
                *pos += 2;
                out.push((path, alias));
                return;
            }
            "," | "}" => break,
            seg => {
                path.push(seg.to_string());
                *pos += 1;
            }
        }
    }
    // `a::b::self` binds `b`.
    let mut names = path.iter().rev().filter(|s| *s != "self");
    let name = names.next().cloned().unwrap_or_default();
    out.push((path, name));
}

/// The module an absolute path lands in: its longest prefix that is a
/// module, following `pub use` re-exports to where the item is defined.
fn target(mods: &BTreeMap<ModPath, Module>, path: &[String]) -> ModPath {
    let mut path = path.to_vec();
    for _ in 0..8 {
        let mut k = path.len();
        while k > 0 && !mods.contains_key(&path[..k]) {
            k -= 1;
        }
        let module = &path[..k];
        let next = path.get(k);
        let hop = next.and_then(|name| {
            mods[module]
                .reexports
                .iter()
                .find(|(alias, to)| alias == name && to.as_slice() != path.as_slice())
        });
        match hop {
            Some((_, to)) => {
                let mut new = to.clone();
                new.extend_from_slice(&path[k + 1..]);
                path = new;
            }
            None => return module.to_vec(),
        }
    }
    path
}

/// Dependencies between modules side by side in one parent: `a -> b`
/// when anything in `a`'s subtree names anything in `b`'s, with the first
/// place that does.
type Edges = BTreeMap<(ModPath, ModPath), String>;

fn edges(src: &Path) -> Edges {
    let mods = modules(src);
    let mut edges = Edges::new();
    for (from, module) in &mods {
        for r in &module.refs {
            let to = target(&mods, &r.path);
            let common = from.iter().zip(&to).take_while(|(a, b)| a == b).count();
            if common == from.len() || common == to.len() {
                continue; // the same module, or an ancestor and its descendant
            }
            let a = from[..=common].to_vec();
            let b = to[..=common].to_vec();
            let site = format!(
                "{}:{} names {}",
                module
                    .file
                    .strip_prefix(root())
                    .unwrap_or(&module.file)
                    .display(),
                r.line,
                r.path.join("::")
            );
            edges.entry((a, b)).or_insert(site);
        }
    }
    edges
}

/// Every module `from` depends on, directly or through its siblings.
fn reach(edges: &Edges, from: &ModPath) -> BTreeSet<ModPath> {
    let mut seen = BTreeSet::new();
    let mut todo = vec![from.clone()];
    while let Some(n) = todo.pop() {
        for ((a, b), _) in edges.range((n.clone(), Vec::new())..) {
            if *a != n {
                break;
            }
            if seen.insert(b.clone()) {
                todo.push(b.clone());
            }
        }
    }
    seen
}

/// The shortest run of edges from `from` to `to`, each with its site.
fn chain(edges: &Edges, from: &ModPath, to: &ModPath) -> Option<Vec<String>> {
    let mut came: BTreeMap<ModPath, ModPath> = BTreeMap::new();
    let mut todo = std::collections::VecDeque::from([from.clone()]);
    while let Some(n) = todo.pop_front() {
        if n == *to {
            let mut out = Vec::new();
            let mut at = n;
            while let Some(prev) = came.get(&at) {
                out.push(edges[&(prev.clone(), at.clone())].clone());
                at = prev.clone();
            }
            out.reverse();
            return Some(out);
        }
        for ((a, b), _) in edges.range((n.clone(), Vec::new())..) {
            if *a != n {
                break;
            }
            if *b != *from && !came.contains_key(b) {
                came.insert(b.clone(), n.clone());
                todo.push_back(b.clone());
            }
        }
    }
    None
}

/// The edges that lie on a cycle, as readable lines.
fn cycles(src: &Path) -> Vec<String> {
    let edges = edges(src);
    edges
        .iter()
        .filter(|((a, b), _)| reach(&edges, b).contains(a))
        .map(|((a, b), site)| format!("{} -> {}: {site}", a.join("::"), b.join("::")))
        .collect()
}

fn path(dotted: &str) -> ModPath {
    dotted.split("::").map(str::to_string).collect()
}

#[test]
fn no_module_depends_on_a_module_that_depends_back_on_it() {
    let mut all = Vec::new();
    for krate in ["core/src", "tui/src", "web/src"] {
        let found = cycles(&root().join(krate));
        all.extend(found.into_iter().map(|e| format!("{krate}: {e}")));
    }
    assert!(
        all.is_empty(),
        "module cycles (each edge is part of a cycle; break one direction):\n{}",
        all.join("\n")
    );
}

/// Beyond having no cycle, data goes down the pipeline: a stage never
/// depends on a later one (the parser on the rules, the rules on the
/// report, the report on the exports). In the dashboard, the model is at
/// the bottom and `update` reaches neither the drawing nor the I/O.
#[test]
fn data_flows_down_the_pipeline_and_the_dashboards_layers() {
    let orders: &[(&str, &[&str])] = &[
        (
            "core/src",
            &[
                "json", "decode", "import", "rules", "plan", "report", "render",
            ],
        ),
        // Auditing an import is composed above both the importers and
        // the audit, with the `--runner` overlay.
        ("core/src", &["import", "runner", "audit"]),
        ("core/src", &["report", "runner"]),
        ("core/src", &["labels", "rules"]),
        ("core/src", &["report", "view_model"]),
        (
            "tui/src",
            &["dashboard::model", "dashboard::layout", "dashboard::update"],
        ),
        (
            "tui/src",
            &["dashboard::model", "dashboard::content", "dashboard::view"],
        ),
        ("tui/src", &["files", "cli"]),
        ("tui/src", &["files", "dashboard"]),
    ];
    let never: &[(&str, &str, &str)] = &[
        ("tui/src", "dashboard::update", "dashboard::view"),
        ("tui/src", "dashboard::update", "dashboard::effects"),
        ("tui/src", "dashboard", "cli"),
    ];
    let mut wrong = Vec::new();
    let mut graphs = BTreeMap::new();
    let mut check = |krate: &str, from: &str, to: &str| {
        let edges = graphs
            .entry(krate.to_string())
            .or_insert_with(|| edges(&root().join(krate)));
        // Both must exist, or the table has gone stale.
        let known = |m: &str| edges.keys().any(|(a, b)| *a == path(m) || *b == path(m));
        assert!(
            known(from) && known(to),
            "{krate}: no module {from} or {to}"
        );
        if let Some(chain) = chain(edges, &path(from), &path(to)) {
            wrong.push(format!(
                "{krate}: {from} depends on {to}:\n  {}",
                chain.join("\n  ")
            ));
        }
    };
    for (krate, order) in orders {
        for (i, early) in order.iter().enumerate() {
            for late in &order[i + 1..] {
                check(krate, early, late);
            }
        }
    }
    for (krate, from, to) in never {
        check(krate, from, to);
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn the_cycle_check_sees_a_cycle_and_resolves_use_trees() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path();
    std::fs::create_dir_all(src.join("b")).unwrap();
    std::fs::write(
        src.join("lib.rs"),
        "mod a;\nmod b;\npub use b::inner::Thing;\n",
    )
    .unwrap();
    // a -> b through a re-export at the root; b/inner -> a through a
    // braced `use super::super::{…}`.
    std::fs::write(src.join("a.rs"), "use crate::Thing;\n").unwrap();
    std::fs::write(src.join("b/mod.rs"), "pub mod inner;\n").unwrap();
    std::fs::write(
        src.join("b/inner.rs"),
        "use super::super::{a::{self, x as y}, b};\npub struct Thing;\n",
    )
    .unwrap();
    let found = cycles(src);
    assert_eq!(found.len(), 2, "{found:#?}");
    assert!(found[0].starts_with("a -> b"), "{found:#?}");
    assert!(found[1].starts_with("b -> a"), "{found:#?}");

    // The same without the way back: no cycle. A test module may name
    // anything.
    std::fs::write(
        src.join("b/inner.rs"),
        "pub struct Thing;\n#[cfg(test)]\nmod tests {\n    use crate::a;\n}\n",
    )
    .unwrap();
    assert!(cycles(src).is_empty());
}

#[test]
fn use_trees_expand_to_every_path() {
    let got = expand_use("super::{a, b::{self, c as d}, e::*}");
    let got: Vec<String> = got
        .into_iter()
        .map(|(p, name)| format!("{}={name}", p.join("::")))
        .collect();
    assert_eq!(
        got,
        [
            "super::a=a",
            "super::b::self=b",
            "super::b::c=d",
            "super::e=*"
        ]
    );
}

/// The order check sees an edge that breaks the order when it is written
/// plainly, through a `pub use` re-export, and from a file mounted with
/// `#[path]` (which a walk of the directory alone files elsewhere); and a
/// crate without it passes.
#[test]
fn the_order_check_sees_an_injected_edge_however_it_is_written() {
    let crate_with = |import_rs: &str, extra: &[(&str, &str)]| {
        let dir = tempfile::tempdir().unwrap();
        let src = dir.path().to_path_buf();
        std::fs::create_dir_all(src.join("import")).unwrap();
        std::fs::create_dir_all(src.join("elsewhere")).unwrap();
        std::fs::write(
            src.join("lib.rs"),
            "pub mod import;\npub mod report;\npub use report::Report;\n",
        )
        .unwrap();
        std::fs::write(
            src.join("report.rs"),
            "use crate::import::Imported;\npub struct Report;\n",
        )
        .unwrap();
        std::fs::write(src.join("import/mod.rs"), import_rs).unwrap();
        for (file, text) in extra {
            std::fs::write(src.join(file), text).unwrap();
        }
        let e = edges(&src);
        let found = chain(&e, &path("import"), &path("report"));
        (found, dir)
    };
    let clean = "pub struct Imported;\n";
    let (found, _dir) = crate_with(clean, &[]);
    assert_eq!(found, None, "no edge in the clean crate");
    for (import_rs, extra) in [
        // Plainly.
        (
            "pub struct Imported;\nfn f() -> crate::report::Report { todo!() }\n",
            vec![],
        ),
        // Through the crate root's `pub use`.
        ("use crate::Report;\npub struct Imported;\n", vec![]),
        // From a file mounted with `#[path]` outside the module's folder.
        (
            "#[path = \"../elsewhere/audit.rs\"]\nmod audit;\npub struct Imported;\n",
            vec![("elsewhere/audit.rs", "use super::super::report::Report;\n")],
        ),
    ] {
        let (found, _dir) = crate_with(import_rs, &extra);
        let found = found.unwrap_or_else(|| panic!("edge not seen in:\n{import_rs}"));
        assert!(found[0].contains("names"), "{found:?}");
    }
}
