//! Whole screens drawn on ratatui's `TestBackend`, snapshot-tested with
//! insta (text only: no colours, no times, relative paths), plus checks
//! on what reaches the screen.

use std::path::PathBuf;

use isolint_core::model::StringEnum;
use isolint_core::{Area, Date};
use ratatui::backend::TestBackend;
use ratatui::Terminal;

use super::effects::{self, step};
use super::load::{CatalogSource, Source};
use super::model::{App, Msg, Tab};
use super::view::view;

/// Paths relative to the package root (cargo runs tests there), so no
/// absolute path reaches a snapshot.
fn fixture(name: &str) -> Source {
    Source::File(PathBuf::from("../fixtures/profiles").join(name))
}

fn testdata(name: &str) -> Source {
    Source::File(PathBuf::from("src/dashboard/testdata").join(name))
}

fn app(sources: Vec<Source>) -> App {
    effects::open(
        sources,
        CatalogSource::Embedded,
        Date::parse("2026-11-29"),
        PathBuf::from("."),
    )
}

fn draw(app: &App, w: u16, h: u16) -> Terminal<TestBackend> {
    let mut t = Terminal::new(TestBackend::new(w, h)).unwrap();
    t.draw(|f| view(app, f)).unwrap();
    t
}

fn screen(app: &App, w: u16, h: u16) -> String {
    draw(app, w, h).backend().to_string()
}

fn snapshot(name: &str, app: &App, w: u16, h: u16) {
    let text = screen(app, w, h);
    let mut settings = insta::Settings::clone_current();
    settings.set_prepend_module_to_snapshot(false);
    settings.set_snapshot_path("snapshots");
    settings.set_omit_expression(true);
    settings.bind(|| insta::assert_snapshot!(format!("{name}_{w}x{h}"), text));
}

/// Every cell of a drawn screen, joined.
fn cells(t: &Terminal<TestBackend>) -> String {
    t.backend()
        .buffer()
        .content()
        .iter()
        .map(|c| c.symbol())
        .collect()
}

#[test]
fn workshop_findings() {
    let a = app(vec![fixture("workshop.json")]);
    snapshot("workshop", &a, 80, 24);
    snapshot("workshop", &a, 120, 40);
}

#[test]
fn workshop_other_tabs() {
    let mut a = app(vec![fixture("workshop.json")]);
    step(&mut a, Msg::ShowTab(Tab::Mounts));
    snapshot("workshop_mounts", &a, 120, 40);
    snapshot("workshop_mounts", &a, 80, 24);
    step(&mut a, Msg::ShowTab(Tab::Checks));
    snapshot("workshop_checks", &a, 120, 40);
    step(&mut a, Msg::ShowTab(Tab::Rules));
    snapshot("workshop_rules", &a, 80, 24);
}

#[test]
fn clean_profile() {
    let a = app(vec![fixture("workshop-fixed.json")]);
    let text = screen(&a, 120, 40);
    assert!(
        text.contains("eligible for runtime testing — not proof of enforcement"),
        "{text}"
    );
    assert!(!text.to_lowercase().contains("not eligible"));
    snapshot("clean", &a, 80, 24);
    snapshot("clean", &a, 120, 40);
}

#[test]
fn hostile_strings_are_neutralized_and_secrets_redacted() {
    let mut a = app(vec![testdata("hostile.json")]);
    for (w, h) in [(80, 24), (120, 40)] {
        for tab in Tab::ALL {
            step(&mut a, Msg::ShowTab(tab));
            let t = draw(&a, w, h);
            let all = cells(&t);
            assert!(
                !all.chars().any(isolint_core::sanitize::is_dangerous),
                "a control or bidi character reached the screen in {tab:?} at {w}x{h}"
            );
            assert!(
                !all.contains("ghp_0123456789"),
                "a secret reached the screen in {tab:?}"
            );
        }
    }
    step(&mut a, Msg::ShowTab(Tab::Findings));
    let text = screen(&a, 120, 40);
    assert!(
        text.contains("\\u{1b}"),
        "escapes are shown visibly:\n{text}"
    );
    snapshot("hostile", &a, 80, 24);
    snapshot("hostile", &a, 120, 40);
    step(&mut a, Msg::ShowTab(Tab::Mounts));
    snapshot("hostile_mounts", &a, 120, 40);
}

#[test]
fn help_overlay_lists_every_binding_from_the_keymap() {
    let mut a = app(vec![fixture("workshop.json")]);
    step(&mut a, Msg::ToggleHelp);
    snapshot("help", &a, 80, 24);
    snapshot("help", &a, 120, 40);
    // Every binding is listed: on the first page at 120×40, or a few
    // lines further down.
    let mut text = String::new();
    let size = a.size;
    step(&mut a, Msg::Resize(120, 40));
    for _ in 0..40 {
        text.push_str(&screen(&a, 120, 40));
        step(&mut a, Msg::Down);
    }
    step(&mut a, Msg::Resize(size.0, size.1));
    step(&mut a, Msg::Top);
    for b in super::keymap::KEYMAP {
        assert!(text.contains(b.help), "help misses {:?}:\n{text}", b.help);
    }
    // At 80×24 the rest is reached by scrolling.
    let mut seen = String::new();
    step(&mut a, Msg::Resize(80, 24));
    for _ in 0..60 {
        seen.push_str(&screen(&a, 80, 24));
        step(&mut a, Msg::Down);
    }
    for b in super::keymap::KEYMAP {
        assert!(
            seen.contains(b.help),
            "help at 80x24 never shows {:?}",
            b.help
        );
    }
}

#[test]
fn input_error_panel() {
    let a = app(vec![testdata("broken.json")]);
    let text = screen(&a, 80, 24);
    assert!(text.contains("broken.json:4:"), "{text}");
    assert!(
        !text.contains("hunter2hunter2"),
        "secret-named value masked even unparsed"
    );
    snapshot("broken", &a, 80, 24);
}

#[test]
fn selected_finding_source_line_is_marked() {
    let mut a = app(vec![fixture("workshop.json")]);
    let report = a.report().unwrap();
    // Prefer a writable-mount finding, the first thing a reviewer checks.
    let target = report
        .issues
        .iter()
        .position(|f| f.area == Area::WritableMounts && f.exact)
        .or_else(|| report.issues.iter().position(|f| f.exact))
        .expect("the workshop profile has findings");
    let line = report.issues[target].line.unwrap();
    let column = report.issues[target].column.unwrap() as usize;
    // What is at the finding's column: the pane keeps it in view.
    let src: String = report
        .source_line(line)
        .unwrap()
        .chars()
        .skip(column - 1)
        .take(8)
        .collect();
    step(&mut a, Msg::Top);
    for _ in 0..report_len(&a) {
        if a.selected_issue() == Some(target) {
            break;
        }
        step(&mut a, Msg::Down);
    }
    assert_eq!(a.selected_issue(), Some(target));
    for (w, h) in [(80, 24), (120, 40)] {
        let text = screen(&a, w, h);
        let rows: Vec<&str> = text.lines().collect();
        let at = rows
            .iter()
            .position(|l| l.contains(&format!("▶ {line} │")) || l.contains(&format!("▶  {line} │")))
            .unwrap_or_else(|| panic!("no marked line {line} at {w}x{h}:\n{text}"));
        // The marked line and its wrapped continuation rows.
        let mut marked = rows[at].to_string();
        for r in &rows[at + 1..] {
            if !r.contains(" ┆ ") {
                break;
            }
            marked.push_str(r);
        }
        let compact: String = marked
            .split(['│', '┆'])
            .map(str::trim)
            .collect::<Vec<_>>()
            .join(" ");
        let needle = src.trim();
        assert!(
            compact.contains(needle),
            "line {line} should show {needle:?}: {compact}"
        );
    }
}

fn report_len(a: &App) -> usize {
    a.report().map_or(0, |r| r.issues.len())
}

#[test]
fn resizing_redraws_cleanly() {
    let a = app(vec![fixture("workshop.json")]);
    let mut t = draw(&a, 120, 40);
    for (w, h) in [(80, 24), (100, 30), (120, 40)] {
        t.backend_mut().resize(w, h);
        t.resize(ratatui::layout::Rect::new(0, 0, w, h)).unwrap();
        t.draw(|f| view(&a, f)).unwrap();
        assert_eq!(
            t.backend().to_string(),
            screen(&a, w, h),
            "stale cells after resizing to {w}x{h}"
        );
    }
}

#[test]
fn tiny_terminals_get_a_message_not_a_panic() {
    let a = app(vec![fixture("workshop.json")]);
    for (w, h) in [(1, 1), (10, 3), (39, 11), (40, 12), (41, 30), (300, 12)] {
        let text = screen(&a, w, h);
        if w < 40 || h < 12 {
            assert!(text.contains("isolint") || w < 10, "{w}x{h}: {text}");
        }
    }
}

#[test]
fn several_profiles_show_which_one_is_open() {
    let mut a = app(vec![
        fixture("workshop.json"),
        fixture("workshop-fixed.json"),
        testdata("broken.json"),
    ]);
    // The list order: not eligible, then no verdict, then eligible.
    assert_eq!(a.tab, Tab::Profiles);
    assert!(screen(&a, 80, 24).contains("profile 1 of 3"));
    step(&mut a, Msg::Activate);
    assert_eq!(a.tab, Tab::Findings);
    step(&mut a, Msg::NextProfile);
    let text = screen(&a, 80, 24);
    assert!(text.contains("profile 2 of 3"), "{text}");
    assert!(text.contains("no verdict"), "{text}");
    assert!(text.contains("Cannot audit"), "{text}");
}

#[test]
fn filter_state_is_visible() {
    let mut a = app(vec![fixture("workshop.json")]);
    step(&mut a, Msg::CycleSeverity);
    step(&mut a, Msg::CycleSeverity);
    step(&mut a, Msg::StartSearch);
    step(&mut a, Msg::SearchChar('x'));
    let text = screen(&a, 120, 40);
    assert!(text.contains("filter ≥ medium \"x\""), "{text}");
    assert!(
        text.contains(" /x"),
        "the query being typed is on the status line:\n{text}"
    );
}

#[test]
fn minified_profile_shows_the_part_of_the_line_holding_the_column() {
    let dir = tempfile::tempdir().unwrap();
    let v: serde_json::Value = serde_json::from_str(isolint_core::WORKSHOP_PROFILE).unwrap();
    let text = serde_json::to_string(&v).unwrap();
    let path = dir.path().join("min.json");
    std::fs::write(&path, &text).unwrap();
    let mut a = app(vec![Source::File(path)]);
    step(&mut a, Msg::Bottom);
    let f = a.report().unwrap().issues[a.selected_issue().unwrap()].clone();
    assert_eq!(f.line, Some(1));
    let col = f.column.unwrap() as usize;
    assert!(
        col > 300,
        "the last finding sits far into the single line (column {col})"
    );
    let at: String = text.chars().skip(col - 1).take(6).collect();
    let screen = screen(&a, 80, 24);
    let source: String = screen
        .lines()
        .filter(|l| l.contains(" │ ") || l.contains(" ┆ "))
        .map(|l| {
            l.split(['│', '┆'])
                .nth(2)
                .unwrap_or("")
                .trim_end()
                .to_string()
        })
        .collect();
    assert!(source.contains(&at), "{at:?} not shown:\n{screen}");
}

#[test]
fn a_profile_without_mounts_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let mut v: serde_json::Value =
        serde_json::from_str(isolint_core::WORKSHOP_PROFILE_FIXED).unwrap();
    v["mounts"] = serde_json::json!([]);
    let path = dir.path().join("nomounts.json");
    std::fs::write(&path, serde_json::to_string_pretty(&v).unwrap()).unwrap();
    let mut a = app(vec![Source::File(path)]);
    step(&mut a, Msg::ShowTab(Tab::Mounts));
    for m in [Msg::Down, Msg::Bottom, Msg::DetailDown] {
        step(&mut a, m);
    }
    assert!(screen(&a, 80, 24).contains("declares no mounts"));
}

fn import_fixture(rel: &str) -> Source {
    Source::File(PathBuf::from("../fixtures/import").join(rel))
}

/// Every row of the profiles list: verdict and name of each profile,
/// read off the screen.
fn listed(a: &App, w: u16, h: u16) -> Vec<String> {
    screen(a, w, h)
        .lines()
        .filter(|l| {
            l.contains("│  ✓ ")
                || l.contains("│  ✗ ")
                || l.contains("│  ? ")
                || l.contains("│› ✓ ")
                || l.contains("│› ✗ ")
                || l.contains("│› ? ")
        })
        .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
        .collect()
}

/// A Deployment with two containers, a Compose file with two services and
/// a Kubernetes stream: each profile is a row of the list and can be
/// opened, and the rows run not eligible first.
#[test]
fn every_profile_of_every_file_is_listed_and_reachable() {
    let dir = tempfile::tempdir().unwrap();
    let compose = dir.path().join("compose.yaml");
    std::fs::write(
        &compose,
        "services:\n  calm:\n    image: busybox\n    read_only: true\n    network_mode: none\n  risky:\n    image: python:3.12\n    privileged: true\n    volumes:\n      - /var/run/docker.sock:/var/run/docker.sock\n",
    )
    .unwrap();
    let mut a = app(vec![
        import_fixture("kubernetes/deployment-host.yaml"),
        Source::File(compose),
        fixture("workshop-fixed.json"),
    ]);
    assert_eq!(a.slots.len(), 5, "2 containers + 2 services + 1 profile");
    assert_eq!(a.tab, Tab::Profiles, "several profiles open on the list");
    for (w, h) in [(80, 24), (120, 36)] {
        let rows = listed(&a, w, h);
        assert_eq!(rows.len(), 5, "{w}x{h}:\n{}", screen(&a, w, h));
        let first_eligible = rows.iter().position(|r| r.contains(" ✓ ")).unwrap();
        assert!(
            rows[..first_eligible].iter().all(|r| r.contains(" ✗ ")),
            "not eligible first: {rows:?}"
        );
        for part in ["build", "fetch", "calm", "risky", "workshop-fixed.json"] {
            assert!(rows.iter().any(|r| r.contains(part)), "{part}: {rows:?}");
        }
    }
    // Walking the list reaches every profile once, and the header counts.
    let mut seen = Vec::new();
    step(&mut a, Msg::Top);
    for k in 1..=5 {
        assert!(screen(&a, 120, 36).contains(&format!("profile {k} of 5")));
        seen.push(a.current);
        step(&mut a, Msg::Down);
    }
    seen.sort();
    assert_eq!(seen, [0, 1, 2, 3, 4]);
    // The filter narrows the list and keeps the selection on a listed row.
    step(&mut a, Msg::StartSearch);
    for c in "risky".chars() {
        step(&mut a, Msg::SearchChar(c));
    }
    step(&mut a, Msg::SearchAccept);
    assert_eq!(listed(&a, 120, 36).len(), 1);
    assert!(a.slot().unwrap().unit.contains("risky"));
    step(&mut a, Msg::Activate);
    assert_eq!(a.tab, Tab::Findings);
    let text = screen(&a, 120, 36);
    assert!(text.contains("compose.yaml#"), "{text}");
    assert!(text.contains("not eligible"), "{text}");
    step(&mut a, Msg::ShowTab(Tab::Profiles));
    step(&mut a, Msg::ClearFilter);
    assert_eq!(listed(&a, 120, 36).len(), 5);
}

#[test]
fn profiles_list_screens() {
    let a = app(vec![
        import_fixture("kubernetes/deployment-host.yaml"),
        import_fixture("compose/hardened.yaml"),
        fixture("workshop.json"),
        testdata("broken.json"),
    ]);
    snapshot("profiles", &a, 80, 24);
    snapshot("profiles", &a, 120, 36);
}

/// A single profile has no list: the tab is not shown and `0` does nothing.
#[test]
fn one_profile_has_no_list() {
    let mut a = app(vec![fixture("workshop.json")]);
    assert_eq!(a.tab, Tab::Findings);
    step(&mut a, Msg::ShowTab(Tab::Profiles));
    assert_eq!(a.tab, Tab::Findings);
    let text = screen(&a, 80, 24);
    assert!(!text.contains("0 Profiles"), "{text}");
    assert!(text.contains("profile 1 of 1"), "{text}");
}

/// An imported profile's detail leads with the original file's place,
/// names the original setting to change, and lists the import notes the
/// CLI prints (`note:` / `not declared:`).
#[test]
fn imported_profiles_speak_their_own_vocabulary() {
    let mut a = app(vec![import_fixture("kubernetes/pod-home.yaml")]);
    let report = a.report().unwrap();
    let net = report
        .issues
        .iter()
        .position(|f| f.area == Area::Network)
        .expect("the pod has a network finding");
    let o = report.issues[net].origin.clone().unwrap();
    while a.selected_issue() != Some(net) {
        step(&mut a, Msg::Down);
    }
    assert!(
        !a.slot().unwrap().notes.is_empty(),
        "the pod import has notes"
    );
    let mut seen = String::new();
    for _ in 0..30 {
        seen.push_str(&screen(&a, 120, 36));
        step(&mut a, Msg::DetailDown);
    }
    let at = format!(
        "at: ../fixtures/import/kubernetes/pod-home.yaml:{}:{}",
        o.line, o.column
    );
    assert!(seen.contains(&at), "{at} missing:\n{seen}");
    assert!(seen.contains("NetworkPolicy"), "{seen}");
    assert!(seen.contains("Import notes"), "{seen}");
    assert!(
        seen.contains("note: ") || seen.contains("not declared: "),
        "{seen}"
    );
}

/// `--observed`: the plan tab gains an observed column from core's join
/// (the one `isolint reconcile` uses): agree, not observable, and stale
/// when the observations were made for another plan.
#[test]
fn the_plan_tab_shows_what_was_observed() {
    let mut a = app(vec![fixture("workshop.json")]);
    let report = a.report().unwrap().clone();
    let first = &report.runtime_checks[0];
    let doc = |fingerprint: &str| {
        serde_json::json!({
            "schema": isolint_core::observe::OBSERVATIONS_SCHEMA,
            "plan_fingerprint": fingerprint,
            "runner": "test",
            "observations": [{
                "id": first.id, "kind": first.kind.as_str(), "action": "open O_RDONLY",
                "observed": first.expect.as_str(), "elapsed_us": 1
            }]
        })
        .to_string()
    };
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("obs.json");
    std::fs::write(&path, doc(&report.profile.fingerprint)).unwrap();
    a.observed = Some(super::load::load_observations(&path).unwrap());
    step(&mut a, Msg::ShowTab(Tab::Checks));
    let text = screen(&a, 120, 40);
    assert!(text.contains("observed"), "{text}");
    assert!(text.contains("agrees"), "{text}");
    assert!(text.contains("not-observable"), "{text}");
    assert!(text.contains("observed: 1 agree, 0 disagree"), "{text}");
    std::fs::write(&path, doc("another-plan")).unwrap();
    a.observed = Some(super::load::load_observations(&path).unwrap());
    let text = screen(&a, 120, 40);
    assert!(text.contains("stale"), "{text}");
    assert!(!text.contains("agrees"), "{text}");
    // An unusable file is refused before the dashboard opens.
    std::fs::write(&path, "{}").unwrap();
    assert!(super::load::load_observations(&path).is_err());
}

/// A check's id is how a reviewer finds it in the export and in the
/// verifier's observations: where the screen has room, every id on the
/// plan tab is shown whole (a 6-column id column showed `rc-33…` for two
/// different checks), with or without the observed column; a narrow
/// screen falls back to a short prefix so that the targets keep room.
#[test]
fn plan_tab_shows_whole_check_ids_when_there_is_room() {
    let mut a = app(vec![fixture("workshop.json")]);
    step(&mut a, Msg::ShowTab(Tab::Checks));
    let report = a.slots[0].outcome.as_ref().unwrap().clone();
    let ids: Vec<&str> = report
        .runtime_checks
        .iter()
        .map(|c| c.id.as_str())
        .collect();
    assert!(ids.len() > 10, "{ids:?}");
    for (w, h) in [(120, 60), (100, 60), (200, 60)] {
        let text = screen(&a, w, h);
        // The table shows the rows that fit; each of them whole.
        let shown: Vec<&&str> = ids.iter().filter(|id| text.contains(**id)).collect();
        assert!(
            shown.len() >= 10,
            "{w}x{h}: {} whole ids\n{text}",
            shown.len()
        );
        assert!(!text.contains("rc-33…"), "{w}x{h}\n{text}");
    }
    let text = screen(&a, 80, 40);
    assert!(text.contains("/home/botie/.aws"), "{text}");
    // At 80 and 60 columns the rows show enough of the id to tell them
    // apart (it was `rc-33…` on every row), and the detail the whole id.
    for w in [80, 60] {
        let text = screen(&a, w, 40);
        let prefixes: Vec<String> = text
            .lines()
            .filter_map(|l| l.split("rc-").nth(1))
            .filter(|rest| rest.contains('…'))
            .map(|rest| rest.split('…').next().unwrap_or("").to_string())
            .collect();
        assert!(prefixes.len() >= 5, "{w}: {text}");
        let unique: std::collections::BTreeSet<_> = prefixes.iter().collect();
        assert_eq!(unique.len(), prefixes.len(), "{w}: rows alike {prefixes:?}");
        assert!(
            text.contains(ids[0]),
            "{w}: the detail names the whole id\n{text}"
        );
    }
}

/// The plan's kind and expect columns hold every value whole at 80 and
/// 120 columns (they cut `capabilities-dropped` to `capabilities-dro…`
/// and `within-declared` to `within-…` at 80).
#[test]
fn plan_tab_shows_whole_check_kinds() {
    let mut checked = 0;
    let mut long = 0;
    let mut wrong = std::collections::BTreeSet::new();
    for name in ["workshop.json", "workshop-fixed.json"] {
        let mut a = app(vec![fixture(name)]);
        step(&mut a, Msg::ShowTab(Tab::Checks));
        let kinds: std::collections::BTreeSet<&str> = a
            .report()
            .unwrap()
            .runtime_checks
            .iter()
            .flat_map(|c| [c.kind.as_str(), c.expect.as_str()])
            .collect();
        long += kinds.iter().filter(|k| k.len() > 18).count();
        for (w, h) in [(80, 24), (120, 36), (80, 60)] {
            // Walk the whole plan so every row is drawn once.
            step(&mut a, Msg::Top);
            let n = a.report().unwrap().runtime_checks.len();
            for _ in 0..n {
                let text = screen(&a, w, h);
                for l in text.lines() {
                    for k in &kinds {
                        for cut in 3..k.len() {
                            // At a cell's start: a target may hold a
                            // kind's word (`/proc/sys/kerne…`).
                            let cut = format!(" {}…", &k[..cut]);
                            if l.contains(&cut) {
                                wrong.insert(format!("{name} {w}x{h}: {cut}"));
                            }
                        }
                    }
                }
                checked += 1;
                step(&mut a, Msg::Down);
            }
        }
    }
    assert!(long > 0, "no plan holds a kind longer than the old column");
    assert!(wrong.is_empty(), "{} cut cells: {wrong:#?}", wrong.len());
    assert!(checked > 0);
}

/// The fix pane of `f` (one safe fix) and of `F` (every safe fix, the
/// unsafe ones listed), drawn over the tabs; nothing is written by a
/// preview. No secret of the profile reaches the pane.
#[test]
fn fix_pane_screens() {
    let mut a = app(vec![fixture("workshop.json")]);
    let k = a
        .report()
        .unwrap()
        .issues
        .iter()
        .position(|f| f.rule == "PRV002")
        .unwrap();
    super::model::clamp(&mut a, Some(k));
    step(&mut a, Msg::Fix);
    assert_eq!(a.mode, super::model::Mode::Fix, "{:?}", a.status);
    snapshot("fix_one", &a, 80, 24);
    snapshot("fix_one", &a, 120, 36);
    step(&mut a, Msg::FixCancel);
    step(&mut a, Msg::FixAll);
    assert_eq!(a.mode, super::model::Mode::Fix, "{:?}", a.status);
    snapshot("fix_all", &a, 80, 24);
    for (w, h) in [(80, 24), (120, 36), (60, 20), (40, 12)] {
        let all = cells(&draw(&a, w, h));
        assert!(
            !all.contains("wJalrXUtnFEMI"),
            "a secret in the pane at {w}x{h}"
        );
        assert!(
            !all.chars().any(isolint_core::sanitize::is_dangerous),
            "a control character at {w}x{h}"
        );
    }
}
