//! The engine's top-level modules depend on each other one way: no module
//! reaches, through `crate::` paths in its non-test code, a module that
//! reaches back. A cycle is how two analyses or two owners of one fact
//! start (plan ↔ report, rules ↔ shell); this test names it.

#![allow(clippy::disallowed_methods)]

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// `crate::NAME` references of one file, outside comments and the test
/// module at its end.
fn references(text: &str) -> BTreeSet<String> {
    let code = text.split("#[cfg(test)]\nmod tests").next().unwrap_or("");
    let mut out = BTreeSet::new();
    for line in code.lines() {
        let line = line.trim_start();
        if line.starts_with("//") {
            continue;
        }
        for (at, _) in line.match_indices("crate::") {
            let name: String = line[at + "crate::".len()..]
                .chars()
                .take_while(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || *c == '_')
                .collect();
            if !name.is_empty() {
                out.insert(name);
            }
        }
    }
    out
}

fn walk(dir: &Path, files: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            walk(&path, files);
        } else if path.extension().is_some_and(|e| e == "rs") {
            files.push(path);
        }
    }
}

/// Top-level module → the top-level modules its code names.
fn graph(src: &Path) -> BTreeMap<String, BTreeSet<String>> {
    let mut files = Vec::new();
    walk(src, &mut files);
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for file in files {
        let rel = file.strip_prefix(src).unwrap();
        let first = rel
            .components()
            .next()
            .unwrap()
            .as_os_str()
            .to_string_lossy();
        let module = first.trim_end_matches(".rs").to_string();
        if module == "lib" {
            continue;
        }
        let text = std::fs::read_to_string(&file).unwrap();
        let refs = references(&text);
        let entry = graph.entry(module.clone()).or_default();
        entry.extend(refs.into_iter().filter(|r| *r != module));
    }
    let modules: BTreeSet<String> = graph.keys().cloned().collect();
    for refs in graph.values_mut() {
        refs.retain(|r| modules.contains(r));
    }
    graph
}

/// Every module that `from` reaches.
fn reach(graph: &BTreeMap<String, BTreeSet<String>>, from: &str) -> BTreeSet<String> {
    let mut seen = BTreeSet::new();
    let mut todo = vec![from.to_string()];
    while let Some(m) = todo.pop() {
        for next in graph.get(&m).into_iter().flatten() {
            if seen.insert(next.clone()) {
                todo.push(next.clone());
            }
        }
    }
    seen
}

#[test]
fn the_engines_modules_form_no_cycle() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let graph = graph(&src);
    assert!(graph.contains_key("report") && graph.contains_key("rules"));
    let mut cycles = Vec::new();
    for (module, refs) in &graph {
        for next in refs {
            if reach(&graph, next).contains(module) {
                cycles.push(format!("{module} -> {next} -> ... -> {module}"));
            }
        }
    }
    assert!(cycles.is_empty(), "module cycles:\n{}", cycles.join("\n"));
}

#[test]
fn a_cycle_is_found_when_there_is_one() {
    let mut g: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    g.entry("plan".into()).or_default().insert("report".into());
    g.entry("report".into()).or_default().insert("plan".into());
    assert!(reach(&g, "report").contains("plan") && reach(&g, "plan").contains("report"));
    let refs = references("use crate::plan;\n// crate::view in a comment\nfn f() { crate::text::cat!(\"a\"); }\n#[cfg(test)]\nmod tests {\n use crate::rules;\n}\n");
    assert_eq!(
        refs.into_iter().collect::<Vec<_>>(),
        ["plan".to_string(), "text".to_string()]
    );
}
