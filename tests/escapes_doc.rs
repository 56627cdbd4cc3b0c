//! docs/escapes.md against the registry and the plan: every rule it names
//! exists under that id and name, every runtime check it names is a check
//! kind, every check kind is described, and every technique row names a
//! rule, a pending class, or the reason a static audit cannot see it. A
//! renamed or removed rule, or a new check kind, fails here until the page
//! follows.

use isolint_acceptance::root;
use isolint_core::model::StringEnum;
use isolint_core::CheckKind;

/// Classes another change is adding rules for; a row may name one as
/// `pending: <class>` until its rule exists.
// Every class issue 46 named now has its rule; a new pending class must
// be added here by the change that announces it.
const PENDING: &[&str] = &[];

const SOURCES: &[&str] = &["SEB", "CDK", "deepce", "SandboxBench"];

fn doc() -> String {
    std::fs::read_to_string(root().join("docs/escapes.md")).unwrap()
}

/// The cells of each row of the table between `<!-- NAME:begin -->` and
/// `<!-- NAME:end -->`, header and rule line left out.
fn table(text: &str, name: &str) -> Vec<Vec<String>> {
    let begin = format!("<!-- {name}:begin -->");
    let end = format!("<!-- {name}:end -->");
    let start = text.find(&begin).unwrap_or_else(|| panic!("no {begin}"));
    let stop = text.find(&end).unwrap_or_else(|| panic!("no {end}"));
    text[start + begin.len()..stop]
        .lines()
        .filter(|l| l.starts_with('|'))
        .skip(2)
        .map(|l| {
            l.trim()
                .trim_matches('|')
                .split(" | ")
                .map(|c| c.trim().to_string())
                .collect()
        })
        .collect()
}

/// The backticked words of a cell.
fn ticked(cell: &str) -> Vec<&str> {
    cell.split('`').skip(1).step_by(2).collect()
}

/// What is wrong with one technique row, if anything.
fn row_problems(row: &[String]) -> Vec<String> {
    let mut wrong = Vec::new();
    let [source, technique, precondition, rules, checks] = row else {
        return vec![format!("{} cells, want 5", row.len())];
    };
    if !SOURCES.contains(&source.as_str()) {
        wrong.push(format!("unknown source {source:?}"));
    }
    if technique.is_empty() || precondition.is_empty() {
        wrong.push("technique and precondition must be written".into());
    }
    // Rules: `ID` name pairs, `pending: <class>`, or `none: <reason>`.
    let mut named = 0;
    for id in ticked(rules) {
        named += 1;
        match isolint_core::rules::all().find(|r| r.id == id) {
            None => wrong.push(format!("rule {id} is not in the registry")),
            Some(r) => {
                let after = rules.split(&format!("`{id}`")).nth(1).unwrap_or_default();
                let name = after
                    .trim_start()
                    .split([',', ';'])
                    .next()
                    .unwrap_or_default();
                if name.trim() != r.name {
                    wrong.push(format!("{id} is named {:?}, not {:?}", r.name, name.trim()));
                }
            }
        }
    }
    let pending: Vec<&str> = rules
        .split("pending: ")
        .skip(1)
        .map(|p| p.split([',', ';']).next().unwrap_or_default().trim())
        .collect();
    for p in &pending {
        if !PENDING.contains(p) {
            wrong.push(format!("pending class {p:?} is not one the test allows"));
        }
    }
    let reason = rules
        .strip_prefix("none: ")
        .is_some_and(|r| !r.trim().is_empty());
    if named == 0 && pending.is_empty() && !reason {
        wrong.push("names no rule, no pending class and no reason".into());
    }
    // Checks: backticked kinds, or `none: <reason>`.
    let kinds = ticked(checks);
    for k in &kinds {
        if CheckKind::parse(k).is_none() {
            wrong.push(format!("`{k}` is not a runtime check kind"));
        }
    }
    let no_check = checks
        .strip_prefix("none: ")
        .is_some_and(|r| !r.trim().is_empty());
    if kinds.is_empty() && !no_check {
        wrong.push("names no runtime check and no reason".into());
    }
    wrong
}

#[test]
fn every_technique_row_names_real_rules_and_checks_or_a_reason() {
    let text = doc();
    let rows = table(&text, "escapes");
    let mut wrong = Vec::new();
    for row in &rows {
        for p in row_problems(row) {
            wrong.push(format!("{}: {p}", row.get(1).map_or("?", String::as_str)));
        }
    }
    assert!(
        wrong.is_empty(),
        "{} of {} rows wrong:\n{}",
        wrong.len(),
        rows.len(),
        wrong.join("\n")
    );
    // The benchmark's 18 scenarios, and the tools' techniques.
    let from = |s: &str| rows.iter().filter(|r| r[0] == s).count();
    assert_eq!(from("SEB"), 18, "SandboxEscapeBench has 18 scenarios");
    assert!(from("CDK") >= 15 && from("deepce") >= 5);
}

#[test]
fn every_check_kind_is_described_and_no_other() {
    let text = doc();
    let described: Vec<String> = table(&text, "kinds")
        .iter()
        .flat_map(|r| ticked(&r[0]).into_iter().map(str::to_string))
        .collect();
    let mut missing: Vec<&str> = CheckKind::VALUES
        .iter()
        .copied()
        .filter(|k| !described.iter().any(|d| d == k))
        .collect();
    missing.extend(
        described
            .iter()
            .filter(|d| CheckKind::parse(d).is_none())
            .map(String::as_str),
    );
    assert!(
        missing.is_empty(),
        "kinds table differs from the plan: {missing:?}"
    );
}

/// The checker itself: rows it must refuse, and one it must accept.
#[test]
fn the_row_checker_refuses_what_it_should() {
    let row = |cells: [&str; 5]| cells.map(str::to_string).to_vec();
    let good = row([
        "SEB",
        "t",
        "p",
        "`PRV001` privileged-mode",
        "`seccomp-filtered`",
    ]);
    assert!(row_problems(&good).is_empty(), "{:?}", row_problems(&good));
    let bad = [
        row(["SEB", "t", "p", "`PRV999` nothing", "`read-denied`"]),
        row(["SEB", "t", "p", "`PRV001` renamed", "`read-denied`"]),
        row(["SEB", "t", "p", "pending: something new", "`read-denied`"]),
        row(["SEB", "t", "p", "", "`read-denied`"]),
        row(["SEB", "t", "p", "none: ", "`read-denied`"]),
        row(["SEB", "t", "p", "`PRV001` privileged-mode", "`read-maybe`"]),
        row(["SEB", "t", "p", "`PRV001` privileged-mode", ""]),
        row([
            "blog",
            "t",
            "p",
            "`PRV001` privileged-mode",
            "`read-denied`",
        ]),
        row(["SEB", "", "p", "`PRV001` privileged-mode", "`read-denied`"]),
    ];
    for b in &bad {
        assert!(!row_problems(b).is_empty(), "accepted {b:?}");
    }
    assert_eq!(row_problems(&good[..4]).len(), 1);
}
