use super::*;
use crate::state::{Action, Start};
use std::rc::Rc;
use yew::Reducible;

fn fixtures() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures")
}

/// Every native profile of the corpus the page can be handed: the rule
/// fixtures that fail, the fix fixtures and the workshop lesson.
fn corpus() -> Vec<(String, String)> {
    let mut files = Vec::new();
    let rules = fixtures().join("rules");
    let mut dirs: Vec<_> = std::fs::read_dir(&rules)
        .expect("fixtures/rules")
        .flatten()
        .map(|e| e.path())
        .collect();
    dirs.sort();
    for dir in dirs {
        let mut names: Vec<_> = std::fs::read_dir(&dir)
            .expect("rule dir")
            .flatten()
            .map(|e| e.path())
            .filter(|p| {
                p.extension().is_some_and(|e| e == "json")
                    && p.file_name()
                        .is_some_and(|n| n.to_string_lossy().starts_with("fail"))
            })
            .collect();
        names.sort();
        files.extend(names);
    }
    files.push(fixtures().join("fix/native-compact.json"));
    files.push(fixtures().join("fix/native-workshop.json"));
    files
        .into_iter()
        .map(|p| {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            (name, std::fs::read_to_string(&p).expect("fixture"))
        })
        .collect()
}

fn today() -> Option<isolint_core::Date> {
    isolint_core::Date::parse("2026-11-29")
}

/// The page opened on `text`, the finding `index` open.
fn opened(name: &str, text: &str) -> Rc<State> {
    let mut start = Start::workshop(today());
    start.name = name.into();
    start.text = text.into();
    start.lesson = None;
    start.origin = crate::state::Origin::File;
    Rc::new(State::new(start))
}

/// `similar`'s unified diff with no context lines, as "header\n-line\n+line".
fn oracle(old: &str, new: &str) -> Vec<String> {
    similar::TextDiff::from_lines(old, new)
        .unified_diff()
        .context_radius(0)
        .to_string()
        .split("@@ ")
        .skip(1)
        .map(|h| {
            let h = format!("@@ {h}");
            h.lines()
                .map(|l| l.trim_end_matches('\r'))
                .collect::<Vec<_>>()
                .join("\n")
        })
        .collect()
}

fn shown(h: &Hunk) -> String {
    let mut out = vec![h.header()];
    out.extend(h.removed.iter().map(|l| format!("-{l}")));
    out.extend(h.added.iter().map(|l| format!("+{l}")));
    out.join("\n")
}

/// For every finding of every native profile in the corpus whose rule
/// declares a fix: the page offers it, its "Apply" replacement makes
/// exactly core's fixed text, and its lines are the diff `similar` finds
/// between the masked texts (the CLI's `fix --diff`, without context).
#[test]
fn every_fixable_finding_shows_core_fix_as_the_cli_diff_and_applies_it() {
    let (mut fixable, mut wrong, mut none) = (0, Vec::new(), 0);
    for (name, text) in corpus() {
        let s = opened(&name, &text);
        let Some(report) = s.current_report().cloned() else {
            continue;
        };
        for (index, f) in report.issues.iter().enumerate() {
            let s = Rc::clone(&s).reduce(Action::Select(index));
            let preview = s.fix_preview().expect("an open finding has a fix section");
            let declared = matches!(
                fix::for_rule(f.rule).map(|r| &r.remedy),
                Some(Remedy::Fix { .. })
            );
            let FixPreview::Ready(ready) = preview else {
                none += 1;
                continue;
            };
            assert!(
                declared,
                "{name}: {} offered a fix it does not declare",
                f.rule
            );
            fixable += 1;
            // Core's own fix of this one finding.
            let audit = |t: &str| {
                isolint_core::audit(
                    t.as_bytes(),
                    &name,
                    &isolint_core::Labels::workshop(),
                    &AuditOptions { today: today() },
                )
                .map(|r| vec![(String::new(), r.issues)])
                .map_err(|e| e.to_string())
            };
            let selection = fix::Selection {
                unsafe_fixes: true,
                rules: Vec::new(),
                findings: vec![fix::Target {
                    profile: String::new(),
                    rule: f.rule.into(),
                    pointer: f.pointer.clone(),
                }],
            };
            let out = fix::fix_text(&text, None, &selection, &audit).expect("core fixes it");
            let applied = ready.splice.apply(&text);
            let fixed_shown = isolint_core::audit(
                out.fixed.as_bytes(),
                &name,
                &isolint_core::Labels::workshop(),
                &AuditOptions { today: today() },
            )
            .expect("fixed text audits")
            .source_text;
            let old_shown = view_model::shown_source(&report).1;
            let ours: Vec<String> = ready.hunks.iter().map(shown).collect();
            let theirs = oracle(old_shown, &fixed_shown);
            if applied != out.fixed || ours != theirs {
                wrong.push(format!(
                    "{name} {} {}:\n ours {ours:#?}\n similar {theirs:#?}\n applies right: {}",
                    f.rule,
                    f.pointer,
                    applied == out.fixed
                ));
            }
        }
    }
    assert!(
        fixable > 100,
        "only {fixable} fixable findings in the corpus"
    );
    assert!(
        wrong.is_empty(),
        "{} of {fixable} fixes shown or applied wrong ({none} findings without a fix):\n{}",
        wrong.len(),
        wrong.join("\n")
    );
    eprintln!("{fixable} fixable findings checked, {none} without a fix");
}

#[test]
fn a_finding_without_a_fix_says_why() {
    let s = opened("workshop.json", isolint_core::WORKSHOP_PROFILE);
    let report = s.current_report().cloned().unwrap();
    let mut said = 0;
    for (index, f) in report.issues.iter().enumerate() {
        if let Some(Remedy::None(why)) = fix::for_rule(f.rule).map(|r| &r.remedy) {
            let s = Rc::clone(&s).reduce(Action::Select(index));
            assert_eq!(
                s.fix_preview(),
                Some(FixPreview::None(format!("{} has no fix: {why}", f.rule)))
            );
            said += 1;
        }
    }
    assert!(said > 0, "the workshop profile has a finding without a fix");
}

#[test]
fn an_imported_file_shows_core_refusal_until_its_editor_lands() {
    let yaml = include_str!("../../../fixtures/import/kubernetes/deployment-host.yaml");
    let s = opened("deployment-host.yaml", yaml);
    let s = Rc::clone(&s).reduce(Action::Select(0));
    match s.fix_preview() {
        Some(FixPreview::None(why)) => assert!(!why.is_empty()),
        // Once core fixes Kubernetes manifests, the fix is offered.
        Some(FixPreview::Ready(r)) => assert_ne!(r.splice.apply(yaml), yaml),
        None => panic!("no fix section for an open finding"),
    }
}

#[test]
fn nothing_is_offered_while_the_report_describes_an_older_text() {
    let s = opened("workshop.json", isolint_core::WORKSHOP_PROFILE);
    let s = Rc::clone(&s).reduce(Action::Select(0));
    assert!(s.fix_preview().is_some());
    let edited = s.reduce(Action::Edit(format!("{} ", isolint_core::WORKSHOP_PROFILE)));
    assert_eq!(
        edited.fix_preview(),
        None,
        "stale until the debounced audit"
    );
}

#[test]
fn a_splice_is_the_smallest_replacement_on_character_boundaries() {
    let cases: &[(&str, &str, (usize, usize, &str))] = &[
        ("abc", "abc", (3, 3, "")),
        ("", "x", (0, 0, "x")),
        ("x", "", (0, 1, "")),
        ("true", "false", (0, 3, "fals")),
        ("a: true\n", "a: false\n", (3, 6, "fals")),
        ("aXa", "aa", (1, 2, "")),
        ("aa", "aXa", (1, 1, "X")),
        // A common byte inside different characters (é = C3 A9, ê = C3 AA).
        ("é", "ê", (0, 2, "ê")),
        ("xé", "xè", (1, 3, "è")),
        ("😀a", "😁a", (0, 4, "😁")),
        ("ab", "ab ab", (2, 2, " ab")),
    ];
    let mut wrong = Vec::new();
    for (old, new, (start, end, text)) in cases {
        let s = Splice::between(old, new);
        let want = Splice {
            start: *start,
            end: *end,
            text: (*text).into(),
        };
        if s != want || s.apply(old) != *new {
            wrong.push(format!("{old:?} → {new:?}: {s:?}"));
        }
    }
    assert!(
        wrong.is_empty(),
        "{} of {}:\n{}",
        wrong.len(),
        cases.len(),
        wrong.join("\n")
    );
    let s = Splice::between("é\n😀 x", "é\n😀 y");
    assert_eq!(
        s.utf16_range("é\n😀 x"),
        (5, 6),
        "UTF-16 units, as a textarea counts"
    );
}

#[test]
fn hunk_headers_read_as_diff_writes_them() {
    let h = |old_line, new_line, r: usize, a: usize| Hunk {
        old_line,
        new_line,
        removed: vec![String::new(); r],
        added: vec![String::new(); a],
    };
    assert_eq!(h(3, 3, 1, 1).header(), "@@ -3 +3 @@");
    assert_eq!(h(3, 3, 2, 0).header(), "@@ -3,2 +2,0 @@");
    assert_eq!(h(5, 5, 0, 3).header(), "@@ -4,0 +5,3 @@");
}

/// Several edits in one text, the shapes core's JSON editor makes (a value
/// replaced, a member removed with its line, a member inserted on new
/// lines, an array emptied in place), checked against `similar`.
#[test]
fn hunks_of_several_edits_are_the_diff_similar_finds() {
    let text = "{\n  \"a\": true,\n  \"b\": [\"x\", \"y\"],\n  \"c\": 1,\n  \"d\": {\n    \"e\": 2\n  }\n}\n";
    let at = |s: &str| text.find(s).expect(s);
    let edit = |start: usize, end: usize, t: &str| TextEdit {
        start,
        end,
        text: t.into(),
    };
    let a = at("true");
    let b = at("[\"x\"");
    let c = at("  \"c\"");
    let e = at("2\n");
    let d_end = at("  }\n}");
    let cases: Vec<Vec<TextEdit>> = vec![
        vec![edit(a, a + 4, "false")],
        vec![edit(a, a + 4, "false"), edit(e, e + 1, "3")],
        // A removed line shifts every later line of the fixed text.
        vec![edit(c, c + "  \"c\": 1,\n".len(), ""), edit(e, e + 1, "3")],
        // Inserted lines, then a later edit.
        vec![
            edit(a + 6, a + 6, "\n  \"z\": 0,"),
            edit(b, b + "[\"x\", \"y\"]".len(), "[]"),
            edit(d_end, d_end, "    \"f\": 4\n"),
        ],
        // Edits on touching lines form one hunk.
        vec![edit(a, a + 4, "false"), edit(b, b + 4, "[")],
        // A member removed at the very start and one at the end.
        vec![
            edit(at("  \"a\""), at("  \"b\""), ""),
            edit(at("}\n}") + 2, text.len(), ""),
        ],
    ];
    let mut wrong = Vec::new();
    for (i, edits) in cases.iter().enumerate() {
        let new = fix::apply(text, edits);
        let ours: Vec<String> = hunks(text, &new, edits, text, &new)
            .iter()
            .map(shown)
            .collect();
        let theirs = oracle(text, &new);
        if ours != theirs {
            wrong.push(format!("case {i}:\n ours {ours:#?}\n similar {theirs:#?}"));
        }
    }
    assert!(
        wrong.is_empty(),
        "{} of {}:\n{}",
        wrong.len(),
        cases.len(),
        wrong.join("\n")
    );
}
