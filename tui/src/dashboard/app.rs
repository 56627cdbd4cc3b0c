//! The model and its transitions (the Elm architecture's `Model` and
//! `update`). Grouping, ordering and filtering come from
//! `isolint_core::view_model`; this module only keeps track of what is selected.

use std::path::{Path, PathBuf};

use isolint_core::render::json;
use isolint_core::rules::Rule;
use isolint_core::view_model::{self as vm, Filter, Grouped};
use isolint_core::{Area, Date, Labels, Report};

use super::load::{self, CatalogSource, LoadError, Source, Stamp};
use super::view;

/// Findings grouped by area, worst first within an area (then by pointer),
/// so a critical finding is never listed below the highs of its area.
/// Every surface of the dashboard that lists or navigates findings uses
/// this one order, so the cursor and the drawn list always agree.
pub fn group(report: &Report, filter: &Filter) -> Grouped {
    let mut g = vm::group(report, filter);
    for area in &mut g.groups {
        area.shown.sort_by(|&a, &b| {
            let (fa, fb) = (&report.issues[a], &report.issues[b]);
            (fa.severity, &fa.pointer, a).cmp(&(fb.severity, &fb.pointer, b))
        });
    }
    g
}

/// The dashboard's tabs, in display order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tab {
    Findings,
    Mounts,
    Checks,
    Rules,
}

impl Tab {
    pub const ALL: [Tab; 4] = [Tab::Findings, Tab::Mounts, Tab::Checks, Tab::Rules];

    pub fn title(self) -> &'static str {
        match self {
            Tab::Findings => "Findings",
            Tab::Mounts => "Mounts vs labels",
            Tab::Checks => "Runtime-check plan",
            Tab::Rules => "Rules",
        }
    }

    fn index(self) -> usize {
        Tab::ALL.iter().position(|t| *t == self).unwrap_or(0)
    }

    fn step(self, forward: bool) -> Tab {
        let n = Tab::ALL.len();
        let i = if forward {
            self.index() + 1
        } else {
            self.index() + n - 1
        };
        Tab::ALL[i % n]
    }
}

/// Where keys go.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    Normal,
    /// Typing a search query.
    Search,
    /// The help overlay is open.
    Help,
}

/// Everything that can happen to the model.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Msg {
    Quit,
    /// Next finding (or row, outside the findings tab).
    Down,
    Up,
    Top,
    Bottom,
    NextArea,
    PrevArea,
    /// Scroll the detail pane.
    DetailDown,
    DetailUp,
    NextTab,
    PrevTab,
    ShowTab(Tab),
    CycleSeverity,
    StartSearch,
    SearchChar(char),
    SearchBackspace,
    /// Keep the typed query and leave search mode.
    SearchAccept,
    /// Restore the query from before the search and leave search mode.
    SearchCancel,
    /// Reset severity and search filters.
    ClearFilter,
    NextProfile,
    PrevProfile,
    Export,
    Reload,
    ToggleHelp,
    /// A watched profile changed on disk.
    FileChanged(usize),
    /// The watched catalog changed on disk.
    CatalogChanged,
    Resize(u16, u16),
}

/// What the reader has selected in one profile.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Nav {
    /// Index into [`Area::ALL`].
    pub area: usize,
    /// Position within the area's shown findings.
    pub cursor: usize,
    /// Position in [`mount_order`].
    pub mount: usize,
    pub check: usize,
}

/// One profile on the command line.
#[derive(Debug)]
pub struct Slot {
    pub source: Source,
    /// Display-safe name (the path as given).
    pub name: String,
    pub outcome: Result<Report, LoadError>,
    pub stamp: Stamp,
    pub nav: Nav,
    /// The selected finding (rule, pointer, message) when the profile last
    /// audited, so a selection survives an edit that briefly breaks the file.
    remembered: Option<(&'static str, String, String)>,
}

impl Slot {
    pub fn path(&self) -> Option<&Path> {
        match &self.source {
            Source::File(p) => Some(p),
            Source::Embedded => None,
        }
    }
}

/// A one-line message about the last action.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Status {
    pub text: String,
    pub error: bool,
}

/// The model.
#[derive(Debug)]
pub struct App {
    pub slots: Vec<Slot>,
    pub current: usize,
    pub catalog: CatalogSource,
    pub labels: Result<Labels, LoadError>,
    pub labels_stamp: Stamp,
    pub today: Option<Date>,
    /// Where exports are written (the working directory).
    pub export_dir: PathBuf,
    pub tab: Tab,
    pub mode: Mode,
    pub filter: Filter,
    /// The query and selected finding as they were when search mode
    /// started, for cancelling.
    pub search_before: String,
    pub search_before_selection: Option<usize>,
    pub rules: Vec<&'static Rule>,
    /// Cursor in the rules tab.
    pub rule: usize,
    pub detail_scroll: u16,
    pub help_scroll: u16,
    pub status: Option<Status>,
    pub size: (u16, u16),
    pub quit: bool,
}

impl App {
    /// Load the catalog and every profile. Input errors become error panels,
    /// never failures.
    pub fn new(
        sources: Vec<Source>,
        catalog: CatalogSource,
        today: Option<Date>,
        export_dir: PathBuf,
    ) -> App {
        let labels_stamp = catalog_path(&catalog).and_then(load::stamp);
        let labels = load::load_labels(&catalog);
        let slots = sources
            .into_iter()
            .map(|source| {
                let (name, stamp) = match &source {
                    Source::Embedded => ("workshop.json (built in)".to_string(), None),
                    Source::File(p) => (load::display_path(p), load::stamp(p)),
                };
                let outcome = audit_with(&labels, &source, today);
                let mut slot = Slot {
                    source,
                    name,
                    outcome,
                    stamp,
                    nav: Nav::default(),
                    remembered: None,
                };
                if let Ok(r) = &slot.outcome {
                    slot.nav.area = first_nonempty(&group(r, &Filter::default())).unwrap_or(0);
                }
                slot
            })
            .collect();
        App {
            slots,
            current: 0,
            catalog,
            labels,
            labels_stamp,
            today,
            export_dir,
            tab: Tab::Findings,
            mode: Mode::Normal,
            filter: Filter::default(),
            search_before: String::new(),
            search_before_selection: None,
            rules: isolint_core::rules::all().collect(),
            rule: 0,
            detail_scroll: 0,
            help_scroll: 0,
            status: None,
            size: (80, 24),
            quit: false,
        }
    }

    pub fn slot(&self) -> Option<&Slot> {
        self.slots.get(self.current)
    }

    pub fn report(&self) -> Option<&Report> {
        self.slot().and_then(|s| s.outcome.as_ref().ok())
    }

    pub fn nav(&self) -> Nav {
        self.slot().map(|s| s.nav).unwrap_or_default()
    }

    fn nav_mut(&mut self) -> Option<&mut Nav> {
        self.slots.get_mut(self.current).map(|s| &mut s.nav)
    }

    /// The current report's findings grouped under the filter.
    pub fn grouped(&self) -> Option<Grouped> {
        self.report().map(|r| group(r, &self.filter))
    }

    /// The selected finding, as an index into `report.issues`.
    pub fn selected_issue(&self) -> Option<usize> {
        let g = self.grouped()?;
        let nav = self.nav();
        g.groups.get(nav.area)?.shown.get(nav.cursor).copied()
    }

    /// The selected area.
    pub fn selected_area(&self) -> Area {
        Area::ALL
            .get(self.nav().area)
            .copied()
            .unwrap_or(Area::WritableMounts)
    }

    /// The selected mount, as an index into `report.mounts`.
    pub fn selected_mount(&self) -> Option<usize> {
        mount_order(self.report()?).get(self.nav().mount).copied()
    }

    /// Where exports of the current profile go.
    pub fn export_path(&self) -> Option<PathBuf> {
        let slot = self.slot()?;
        Some(self.export_dir.join(load::export_name(&slot.source)))
    }
}

/// Mount rows in display order: writable mounts first, then read-only
/// ones (the spec keeps them apart), each in profile order.
pub fn mount_order(report: &Report) -> Vec<usize> {
    let (ro, rw): (Vec<usize>, Vec<usize>) = (0..report.mounts.len()).partition(|&i| {
        report
            .mounts
            .get(i)
            .is_some_and(|m| m.access == "read-only")
    });
    rw.into_iter().chain(ro).collect()
}

pub fn catalog_path(c: &CatalogSource) -> Option<&Path> {
    match c {
        CatalogSource::File(p) => Some(p),
        CatalogSource::Embedded => None,
    }
}

fn audit_with(
    labels: &Result<Labels, LoadError>,
    source: &Source,
    today: Option<Date>,
) -> Result<Report, LoadError> {
    match labels {
        Ok(l) => load::load_profile(source, l, today),
        Err(e) => Err(LoadError {
            message: format!(
                "the label catalog could not be loaded, so nothing was audited: {}",
                e.message
            ),
            ..e.clone()
        }),
    }
}

fn first_nonempty(g: &Grouped) -> Option<usize> {
    g.groups.iter().position(|a| !a.shown.is_empty())
}

fn display_export_path(dir: &Path, path: &Path) -> String {
    if dir == Path::new(".") {
        format!(
            "./{}",
            load::display_path(path.strip_prefix(".").unwrap_or(path))
        )
    } else {
        load::display_path(path)
    }
}

/// Apply a message.
pub fn update(app: &mut App, msg: Msg) {
    if !matches!(
        msg,
        Msg::FileChanged(_) | Msg::CatalogChanged | Msg::Resize(..)
    ) {
        app.status = None;
    }
    if app.mode == Mode::Help {
        match msg {
            Msg::Down => app.help_scroll = (app.help_scroll + 1).min(view::max_help_scroll(app)),
            Msg::Up => app.help_scroll = app.help_scroll.saturating_sub(1),
            Msg::ToggleHelp => {
                app.mode = Mode::Normal;
                app.help_scroll = 0;
            }
            // Quitting and outside events still apply under the overlay.
            Msg::Quit | Msg::FileChanged(_) | Msg::CatalogChanged | Msg::Resize(..) => {}
            _ => {}
        }
        if !matches!(
            msg,
            Msg::Quit | Msg::FileChanged(_) | Msg::CatalogChanged | Msg::Resize(..)
        ) {
            return;
        }
    }
    match msg {
        Msg::Quit => app.quit = true,
        Msg::Down => step_row(app, true),
        Msg::Up => step_row(app, false),
        Msg::Top => jump_row(app, false),
        Msg::Bottom => jump_row(app, true),
        Msg::NextArea | Msg::PrevArea => {
            if app.tab == Tab::Findings {
                let forward = msg == Msg::NextArea;
                if let Some(nav) = app.nav_mut() {
                    nav.area = if forward {
                        (nav.area + 1).min(Area::ALL.len() - 1)
                    } else {
                        nav.area.saturating_sub(1)
                    };
                    nav.cursor = 0;
                }
                app.detail_scroll = 0;
            }
        }
        Msg::DetailDown => {
            app.detail_scroll = app
                .detail_scroll
                .saturating_add(view::detail_page(app))
                .min(view::max_detail_scroll(app))
        }
        Msg::DetailUp => {
            app.detail_scroll = app.detail_scroll.saturating_sub(view::detail_page(app))
        }
        Msg::NextTab => set_tab(app, app.tab.step(true)),
        Msg::PrevTab => set_tab(app, app.tab.step(false)),
        Msg::ShowTab(t) => set_tab(app, t),
        Msg::CycleSeverity => refilter(app, |f| f.cycle_severity()),
        Msg::StartSearch => {
            set_tab(app, Tab::Findings);
            app.search_before = app.filter.query.clone();
            app.search_before_selection = app.selected_issue();
            app.mode = Mode::Search;
        }
        Msg::SearchChar(c) => {
            if !c.is_control() {
                refilter(app, |f| f.query.push(c));
            }
        }
        Msg::SearchBackspace => refilter(app, |f| {
            f.query.pop();
        }),
        Msg::SearchAccept => app.mode = Mode::Normal,
        Msg::SearchCancel => {
            let before = std::mem::take(&mut app.search_before);
            app.filter.query = before;
            let keep = app.search_before_selection.take();
            clamp(app, keep);
            app.mode = Mode::Normal;
        }
        Msg::ClearFilter => {
            if app.filter != Filter::default() {
                refilter(app, |f| *f = Filter::default());
                app.status = Some(Status {
                    text: "filters cleared: every finding is shown".into(),
                    error: false,
                });
            }
        }
        Msg::NextProfile | Msg::PrevProfile => {
            let n = app.slots.len();
            if n > 1 {
                app.current = if msg == Msg::NextProfile {
                    (app.current + 1) % n
                } else {
                    (app.current + n - 1) % n
                };
                app.detail_scroll = 0;
                clamp(app, None);
            }
        }
        Msg::Export => export(app),
        Msg::Reload => {
            reload_catalog(app);
            for i in 0..app.slots.len() {
                reload_slot(app, i);
            }
            let failed = app.slots.iter().filter(|s| s.outcome.is_err()).count();
            app.status = Some(match failed {
                0 => Status {
                    text: format!(
                        "reloaded and re-audited {} from disk",
                        profiles(app.slots.len())
                    ),
                    error: false,
                },
                _ => Status {
                    text: format!("reloaded; {} could not be audited", profiles(failed)),
                    error: true,
                },
            });
        }
        Msg::FileChanged(i) => {
            if i < app.slots.len() {
                reload_slot(app, i);
                let slot = &app.slots[i];
                app.status = Some(match &slot.outcome {
                    Ok(_) => Status {
                        text: format!("{} changed on disk: re-audited", slot.name),
                        error: false,
                    },
                    Err(e) => Status {
                        text: format!(
                            "{} changed on disk and cannot be audited: {}",
                            slot.name,
                            e.headline()
                        ),
                        error: true,
                    },
                });
            }
        }
        Msg::CatalogChanged => {
            reload_catalog(app);
            for i in 0..app.slots.len() {
                reload_slot(app, i);
            }
            app.status = Some(match &app.labels {
                Ok(_) => Status {
                    text: "label catalog changed on disk: every profile re-audited".into(),
                    error: false,
                },
                Err(e) => Status {
                    text: format!(
                        "label catalog changed on disk and cannot be used: {}",
                        e.headline()
                    ),
                    error: true,
                },
            });
        }
        Msg::ToggleHelp => {
            app.mode = Mode::Help;
            app.help_scroll = 0;
        }
        Msg::Resize(w, h) => {
            app.size = (w, h);
            app.detail_scroll = app.detail_scroll.min(view::max_detail_scroll(app));
            app.help_scroll = app.help_scroll.min(view::max_help_scroll(app));
        }
    }
}

fn profiles(n: usize) -> String {
    if n == 1 {
        "1 profile".into()
    } else {
        format!("{n} profiles")
    }
}

fn set_tab(app: &mut App, tab: Tab) {
    if app.tab != tab {
        app.tab = tab;
        app.detail_scroll = 0;
    }
}

/// Change the filter, keeping the selected finding when it is still shown.
fn refilter(app: &mut App, change: impl FnOnce(&mut Filter)) {
    let before = app.selected_issue();
    change(&mut app.filter);
    clamp(app, before);
}

/// Make the selection valid again after the findings or the filter changed:
/// keep `keep` (an issue index) if it is shown; otherwise clamp the cursor
/// in its area; if the area shows nothing, go to the first area that does.
fn clamp(app: &mut App, keep: Option<usize>) {
    let Some(g) = app.grouped() else { return };
    let n_mounts = app.report().map_or(0, |r| r.mounts.len());
    let n_checks = app.report().map_or(0, |r| r.runtime_checks.len());
    let Some(nav) = app.nav_mut() else { return };
    let before = *nav;
    nav.mount = nav.mount.min(n_mounts.saturating_sub(1));
    nav.check = nav.check.min(n_checks.saturating_sub(1));
    if let Some((area, cursor)) = keep.and_then(|k| {
        g.groups
            .iter()
            .enumerate()
            .find_map(|(a, grp)| grp.shown.iter().position(|&i| i == k).map(|c| (a, c)))
    }) {
        nav.area = area;
        nav.cursor = cursor;
    } else {
        nav.area = nav.area.min(Area::ALL.len() - 1);
        let shown = g.groups.get(nav.area).map_or(0, |a| a.shown.len());
        if shown > 0 {
            nav.cursor = nav.cursor.min(shown - 1);
        } else {
            nav.area = first_nonempty(&g).unwrap_or(nav.area);
            nav.cursor = 0;
        }
    }
    if *nav != before {
        app.detail_scroll = 0;
    }
}

/// Move one row in the current tab. In the findings tab the walk continues
/// into the next (or previous) area that shows findings.
fn step_row(app: &mut App, forward: bool) {
    app.detail_scroll = 0;
    match app.tab {
        Tab::Findings => {
            let Some(g) = app.grouped() else { return };
            let Some(nav) = app.nav_mut() else { return };
            let len = g.groups.get(nav.area).map_or(0, |a| a.shown.len());
            if forward {
                if nav.cursor + 1 < len {
                    nav.cursor += 1;
                } else if let Some(next) = g
                    .groups
                    .iter()
                    .enumerate()
                    .skip(nav.area + 1)
                    .find(|(_, a)| !a.shown.is_empty())
                    .map(|(i, _)| i)
                {
                    nav.area = next;
                    nav.cursor = 0;
                }
            } else if nav.cursor > 0 {
                nav.cursor = (nav.cursor - 1).min(len.saturating_sub(1));
            } else if let Some((prev, a)) = g
                .groups
                .iter()
                .enumerate()
                .take(nav.area)
                .rev()
                .find(|(_, a)| !a.shown.is_empty())
            {
                nav.area = prev;
                nav.cursor = a.shown.len() - 1;
            }
        }
        Tab::Mounts => {
            let n = app.report().map_or(0, |r| r.mounts.len());
            if let Some(nav) = app.nav_mut() {
                nav.mount = step(nav.mount, n, forward);
            }
        }
        Tab::Checks => {
            let n = app.report().map_or(0, |r| r.runtime_checks.len());
            if let Some(nav) = app.nav_mut() {
                nav.check = step(nav.check, n, forward);
            }
        }
        Tab::Rules => app.rule = step(app.rule, app.rules.len(), forward),
    }
}

fn step(i: usize, len: usize, forward: bool) -> usize {
    if forward {
        (i + 1).min(len.saturating_sub(1))
    } else {
        i.saturating_sub(1)
    }
}

fn jump_row(app: &mut App, last: bool) {
    app.detail_scroll = 0;
    match app.tab {
        Tab::Findings => {
            let Some(g) = app.grouped() else { return };
            let Some(nav) = app.nav_mut() else { return };
            let pick = if last {
                g.groups
                    .iter()
                    .enumerate()
                    .rev()
                    .find(|(_, a)| !a.shown.is_empty())
            } else {
                g.groups
                    .iter()
                    .enumerate()
                    .find(|(_, a)| !a.shown.is_empty())
            };
            if let Some((i, a)) = pick {
                nav.area = i;
                nav.cursor = if last { a.shown.len() - 1 } else { 0 };
            }
        }
        Tab::Mounts => {
            let n = app.report().map_or(0, |r| r.mounts.len());
            if let Some(nav) = app.nav_mut() {
                nav.mount = if last { n.saturating_sub(1) } else { 0 };
            }
        }
        Tab::Checks => {
            let n = app.report().map_or(0, |r| r.runtime_checks.len());
            if let Some(nav) = app.nav_mut() {
                nav.check = if last { n.saturating_sub(1) } else { 0 };
            }
        }
        Tab::Rules => {
            app.rule = if last {
                app.rules.len().saturating_sub(1)
            } else {
                0
            }
        }
    }
}

fn reload_catalog(app: &mut App) {
    app.labels_stamp = catalog_path(&app.catalog).and_then(load::stamp);
    app.labels = load::load_labels(&app.catalog);
}

/// Re-read and re-audit one profile, keeping the selected finding when it
/// still exists (same rule, pointer and message).
fn reload_slot(app: &mut App, i: usize) {
    let selected = if i == app.current {
        app.selected_issue()
            .and_then(|k| app.report()?.issues.get(k))
            .map(|f| (f.rule, f.pointer.clone(), f.message.clone()))
    } else {
        None
    };
    let today = app.today;
    let Some(slot) = app.slots.get_mut(i) else {
        return;
    };
    if selected.is_some() {
        slot.remembered = selected;
    }
    slot.stamp = slot.path().and_then(load::stamp);
    slot.outcome = audit_with(&app.labels, &slot.source, today);
    let key = slot.remembered.clone();
    let current = app.current;
    app.current = i;
    let keep = key.and_then(|(rule, pointer, message)| {
        app.report()?
            .issues
            .iter()
            .position(|f| f.rule == rule && f.pointer == pointer && f.message == message)
    });
    clamp(app, keep);
    app.current = current;
}

fn export(app: &mut App) {
    let (Some(slot), Some(path)) = (app.slot(), app.export_path()) else {
        return;
    };
    let shown = display_export_path(&app.export_dir, &path);
    app.status = Some(match &slot.outcome {
        Err(e) => Status {
            text: format!("nothing exported: {}", e.headline()),
            error: true,
        },
        Ok(report) => match load::write_atomic(&path, json::render(report).as_bytes()) {
            Ok(()) => Status {
                text: format!(
                    "exported all {} findings and {} runtime checks to {shown}",
                    report.issues.len(),
                    report.runtime_checks.len()
                ),
                error: false,
            },
            Err(e) => Status {
                text: format!(
                    "export to {shown} failed: {}",
                    isolint_core::sanitize::neutralize(&e.to_string())
                ),
                error: true,
            },
        },
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    pub(crate) fn fixture(name: &str) -> PathBuf {
        crate::fixtures::path(&format!("profiles/{name}"))
    }

    fn today() -> Option<Date> {
        Date::parse("2026-11-29")
    }

    /// A profile built to exercise selection: findings in several areas.
    fn app_on(text: &str) -> (tempfile::TempDir, App) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("p.json");
        fs::write(&path, text).unwrap();
        let app = App::new(
            vec![Source::File(path)],
            CatalogSource::Embedded,
            today(),
            dir.path().to_path_buf(),
        );
        (dir, app)
    }

    /// Unknown fields in three places give PRF findings at known pointers
    /// whatever other rules exist; the rest of the profile is the clean one.
    fn multi_area_profile() -> String {
        let mut v: serde_json::Value =
            serde_json::from_str(isolint_core::WORKSHOP_PROFILE_FIXED).unwrap();
        v["bogus_a"] = serde_json::json!(1);
        v["bogus_b"] = serde_json::json!(2);
        v["network"]["bogus_net"] = serde_json::json!(true);
        serde_json::to_string_pretty(&v).unwrap()
    }

    fn workshop() -> App {
        App::new(
            vec![
                Source::File(fixture("workshop.json")),
                Source::File(fixture("workshop-fixed.json")),
            ],
            CatalogSource::Embedded,
            today(),
            PathBuf::from("."),
        )
    }

    /// Within every area of every fixture profile, the list runs worst
    /// first, then by pointer. At least one fixture must have an area where
    /// this differs from pointer order, or the test could not fail.
    #[test]
    fn findings_run_worst_first_within_an_area() {
        let dir = crate::fixtures::path("profiles");
        let mut reordered = 0;
        let mut checked = 0;
        for entry in fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().and_then(|e| e.to_str()) != Some("json") {
                continue;
            }
            let app = App::new(
                vec![Source::File(path.clone())],
                CatalogSource::Embedded,
                today(),
                dir.clone(),
            );
            let Some(r) = app.report() else { continue };
            let g = app.grouped().unwrap();
            for area in &g.groups {
                let keys: Vec<_> = area
                    .shown
                    .iter()
                    .map(|&i| (r.issues[i].severity, r.issues[i].pointer.clone()))
                    .collect();
                let mut sorted = keys.clone();
                sorted.sort();
                assert_eq!(keys, sorted, "{}: {:?}", path.display(), area.area);
                let mut by_pointer = keys.clone();
                by_pointer.sort_by(|a, b| a.1.cmp(&b.1));
                reordered += usize::from(by_pointer != keys);
                checked += area.shown.len();
            }
        }
        assert!(checked > 0, "no fixture findings under {}", dir.display());
        assert!(
            reordered > 0,
            "no fixture area mixes severities against pointer order"
        );
    }

    #[test]
    fn starts_on_the_first_area_with_findings() {
        let (_d, app) = app_on(&multi_area_profile());
        let g = app.grouped().unwrap();
        let first = g.groups.iter().position(|a| !a.shown.is_empty()).unwrap();
        assert_eq!(app.nav().area, first);
        assert_eq!(app.selected_issue(), Some(g.groups[first].shown[0]));
    }

    #[test]
    fn down_walks_every_shown_finding_in_display_order_and_stops_at_the_last() {
        let (_d, mut app) = app_on(&multi_area_profile());
        let flat = app.grouped().unwrap().flat();
        assert!(flat.len() >= 3);
        let mut seen = vec![app.selected_issue().unwrap()];
        for _ in 0..flat.len() + 3 {
            update(&mut app, Msg::Down);
            let s = app.selected_issue().unwrap();
            if seen.last() != Some(&s) {
                seen.push(s);
            }
        }
        assert_eq!(
            seen, flat,
            "down visits each finding once, in order, then stays on the last"
        );
        for _ in 0..flat.len() + 3 {
            update(&mut app, Msg::Up);
        }
        assert_eq!(app.selected_issue(), flat.first().copied());
        update(&mut app, Msg::Bottom);
        assert_eq!(app.selected_issue(), flat.last().copied());
        update(&mut app, Msg::Top);
        assert_eq!(app.selected_issue(), flat.first().copied());
    }

    #[test]
    fn empty_areas_can_be_selected_and_show_nothing() {
        let (_d, mut app) = app_on(&multi_area_profile());
        let g = app.grouped().unwrap();
        let empty = g.groups.iter().position(|a| a.shown.is_empty()).unwrap();
        while app.nav().area != empty {
            let before = app.nav().area;
            update(
                &mut app,
                if before < empty {
                    Msg::NextArea
                } else {
                    Msg::PrevArea
                },
            );
        }
        assert_eq!(app.selected_issue(), None);
        // Down from an empty area lands on the next area that has findings, if any.
        update(&mut app, Msg::Down);
        if let Some(next) = g
            .groups
            .iter()
            .enumerate()
            .skip(empty + 1)
            .find(|(_, a)| !a.shown.is_empty())
        {
            assert_eq!(app.nav().area, next.0);
            assert_eq!(app.selected_issue(), Some(next.1.shown[0]));
        }
        // Areas stop at both ends.
        for _ in 0..20 {
            update(&mut app, Msg::NextArea);
        }
        assert_eq!(app.nav().area, Area::ALL.len() - 1);
        for _ in 0..20 {
            update(&mut app, Msg::PrevArea);
        }
        assert_eq!(app.nav().area, 0);
    }

    #[test]
    fn selection_is_clamped_when_a_filter_hides_it() {
        let (_d, mut app) = app_on(&multi_area_profile());
        update(&mut app, Msg::Bottom);
        let last = app.selected_issue().unwrap();
        let report = app.report().unwrap();
        let last_rule = report.issues[last].rule;
        // A query matching nothing leaves nothing selected, without panicking.
        update(&mut app, Msg::StartSearch);
        for c in "zzz-no-such-thing".chars() {
            update(&mut app, Msg::SearchChar(c));
        }
        assert_eq!(app.grouped().unwrap().shown, 0);
        assert_eq!(app.selected_issue(), None);
        update(&mut app, Msg::SearchCancel);
        assert_eq!(app.filter.query, "");
        assert_eq!(app.mode, Mode::Normal);
        assert_eq!(
            app.selected_issue(),
            Some(last),
            "cancelling restores the selection"
        );
        // Searching for a finding that is shown keeps it selected.
        update(&mut app, Msg::StartSearch);
        for c in last_rule.chars() {
            update(&mut app, Msg::SearchChar(c));
        }
        update(&mut app, Msg::SearchAccept);
        assert_eq!(app.filter.query, last_rule);
        assert_eq!(
            app.selected_issue(),
            Some(last),
            "still shown, so still selected"
        );
        // Raising the severity floor to critical hides non-critical findings; the cursor stays valid.
        while app.filter.min_severity != isolint_core::Severity::Critical {
            update(&mut app, Msg::CycleSeverity);
        }
        let g = app.grouped().unwrap();
        let nav = app.nav();
        match g.groups[nav.area].shown.len() {
            0 => assert_eq!(app.selected_issue(), None),
            n => assert!(nav.cursor < n),
        }
        update(&mut app, Msg::ClearFilter);
        assert_eq!(app.filter, Filter::default());
    }

    #[test]
    fn cursor_clamps_to_the_new_last_item_when_an_area_shrinks() {
        // Two unknown fields in the profile area; select the second, then hide it by search.
        let (_d, mut app) = app_on(&multi_area_profile());
        let profile_area = Area::ALL.iter().position(|a| *a == Area::Profile).unwrap();
        while app.nav().area != profile_area {
            update(&mut app, Msg::NextArea);
        }
        let shown = app.grouped().unwrap().groups[profile_area].shown.clone();
        assert!(shown.len() >= 2, "{shown:?}");
        update(&mut app, Msg::Bottom);
        assert_eq!(app.nav().area, profile_area);
        update(&mut app, Msg::StartSearch);
        for c in "bogus_a".chars() {
            update(&mut app, Msg::SearchChar(c));
        }
        let g = app.grouped().unwrap();
        assert_eq!(g.groups[profile_area].shown.len(), 1);
        assert_eq!(app.nav().cursor, 0);
        assert!(app.report().unwrap().issues[app.selected_issue().unwrap()]
            .pointer
            .contains("bogus_a"));
    }

    #[test]
    fn tabs_cycle_and_rows_clamp_in_every_tab() {
        let mut app = workshop();
        assert_eq!(app.tab, Tab::Findings);
        for expect in [Tab::Mounts, Tab::Checks, Tab::Rules, Tab::Findings] {
            update(&mut app, Msg::NextTab);
            assert_eq!(app.tab, expect);
        }
        update(&mut app, Msg::PrevTab);
        assert_eq!(app.tab, Tab::Rules);
        for _ in 0..1000 {
            update(&mut app, Msg::Down);
        }
        assert_eq!(app.rule, app.rules.len() - 1);
        update(&mut app, Msg::ShowTab(Tab::Mounts));
        let mounts = app.report().unwrap().mounts.len();
        for _ in 0..10 {
            update(&mut app, Msg::Down);
        }
        assert_eq!(app.nav().mount, mounts - 1);
        update(&mut app, Msg::Top);
        assert_eq!(app.nav().mount, 0);
        update(&mut app, Msg::ShowTab(Tab::Checks));
        update(&mut app, Msg::Bottom);
        assert_eq!(
            app.nav().check,
            app.report().unwrap().runtime_checks.len().saturating_sub(1)
        );
        // Search always returns to the findings tab.
        update(&mut app, Msg::StartSearch);
        assert_eq!(app.tab, Tab::Findings);
        assert_eq!(app.mode, Mode::Search);
    }

    #[test]
    fn mount_table_lists_writable_before_read_only() {
        let app = workshop();
        let r = app.report().unwrap();
        let order = mount_order(r);
        assert_eq!(order.len(), r.mounts.len());
        let first_ro = order
            .iter()
            .position(|&i| r.mounts[i].access == "read-only")
            .unwrap();
        assert!(order[first_ro..]
            .iter()
            .all(|&i| r.mounts[i].access == "read-only"));
        assert!(order[..first_ro]
            .iter()
            .all(|&i| r.mounts[i].access != "read-only"));
    }

    #[test]
    fn profiles_switch_and_keep_their_own_selection() {
        let mut app = workshop();
        update(&mut app, Msg::Bottom);
        let nav0 = app.nav();
        update(&mut app, Msg::NextProfile);
        assert_eq!(app.current, 1);
        assert_eq!(
            app.slot().unwrap().name,
            load::display_path(&fixture("workshop-fixed.json"))
        );
        update(&mut app, Msg::NextProfile);
        assert_eq!(app.current, 0);
        assert_eq!(app.nav(), nav0);
        update(&mut app, Msg::PrevProfile);
        assert_eq!(app.current, 1);
    }

    #[test]
    fn help_mode_swallows_navigation_and_closes() {
        let mut app = workshop();
        let nav = app.nav();
        update(&mut app, Msg::ToggleHelp);
        assert_eq!(app.mode, Mode::Help);
        update(&mut app, Msg::Down);
        update(&mut app, Msg::NextTab);
        assert_eq!(app.nav(), nav);
        assert_eq!(app.tab, Tab::Findings);
        assert_eq!(app.help_scroll, 1);
        update(&mut app, Msg::ToggleHelp);
        assert_eq!(app.mode, Mode::Normal);
        assert!(!app.quit);
        update(&mut app, Msg::Quit);
        assert!(app.quit);
    }

    #[test]
    fn detail_and_help_scrolling_stop_at_the_end() {
        let mut app = workshop();
        update(&mut app, Msg::Resize(80, 24));
        for _ in 0..100 {
            update(&mut app, Msg::DetailDown);
        }
        let max = view::max_detail_scroll(&app);
        assert!(
            max > 0,
            "the first workshop finding's detail overflows at 80x24"
        );
        assert_eq!(app.detail_scroll, max);
        update(&mut app, Msg::DetailUp);
        assert_eq!(
            app.detail_scroll,
            max.saturating_sub(view::detail_page(&app)),
            "one PgUp moves back a page"
        );
        update(&mut app, Msg::Resize(200, 80));
        assert!(app.detail_scroll <= view::max_detail_scroll(&app));
        update(&mut app, Msg::Resize(80, 24));
        update(&mut app, Msg::ToggleHelp);
        for _ in 0..100 {
            update(&mut app, Msg::Down);
        }
        assert_eq!(app.help_scroll, view::max_help_scroll(&app));
        assert!(app.help_scroll > 0, "the help overflows at 80x24");
    }

    #[test]
    fn resize_is_recorded_and_keeps_the_selection() {
        let mut app = workshop();
        update(&mut app, Msg::Down);
        let sel = app.selected_issue();
        update(&mut app, Msg::Resize(20, 5));
        assert_eq!(app.size, (20, 5));
        assert_eq!(app.selected_issue(), sel);
    }

    #[test]
    fn export_writes_every_finding_whatever_the_filter() {
        let (dir, mut app) = app_on(&multi_area_profile());
        let total = app.report().unwrap().issues.len();
        update(&mut app, Msg::StartSearch);
        for c in "bogus_b".chars() {
            update(&mut app, Msg::SearchChar(c));
        }
        update(&mut app, Msg::SearchAccept);
        while app.filter.min_severity != isolint_core::Severity::Critical {
            update(&mut app, Msg::CycleSeverity);
        }
        update(&mut app, Msg::Export);
        let status = app.status.clone().unwrap();
        assert!(!status.error, "{}", status.text);
        let path = dir.path().join("p.findings.json");
        assert!(
            status.text.contains(&load::display_path(&path)),
            "{}",
            status.text
        );
        let v: serde_json::Value = serde_json::from_slice(&fs::read(&path).unwrap()).unwrap();
        assert_eq!(v["schema"], "isolint.findings/v2");
        assert_eq!(v["issues"].as_array().unwrap().len(), total);
        assert_eq!(
            fs::read_to_string(&path).unwrap(),
            json::render(app.report().unwrap())
        );
    }

    #[test]
    fn export_of_an_unreadable_profile_says_so() {
        let (dir, mut app) = app_on("{ not json");
        update(&mut app, Msg::Export);
        let status = app.status.clone().unwrap();
        assert!(status.error);
        assert!(
            status.text.starts_with("nothing exported:"),
            "{}",
            status.text
        );
        assert!(!dir.path().join("p.findings.json").exists());
    }

    #[test]
    fn on_disk_edits_reaudit_and_bad_json_becomes_an_error_then_recovers() {
        let (dir, mut app) = app_on(&multi_area_profile());
        let path = dir.path().join("p.json");
        let before = app.report().unwrap().issues.len();
        fs::write(&path, "{\n  \"name\": \"x\",\n  oops\n}\n").unwrap();
        update(&mut app, Msg::FileChanged(0));
        let err = app.slot().unwrap().outcome.as_ref().unwrap_err();
        assert_eq!((err.line, err.column.is_some()), (Some(3), true));
        assert!(app.status.as_ref().unwrap().error);
        // Navigation on an error panel does nothing and does not panic.
        for m in [
            Msg::Down,
            Msg::Up,
            Msg::NextArea,
            Msg::Bottom,
            Msg::CycleSeverity,
            Msg::Export,
        ] {
            update(&mut app, m);
        }
        fs::write(&path, multi_area_profile()).unwrap();
        update(&mut app, Msg::FileChanged(0));
        assert_eq!(app.report().unwrap().issues.len(), before);
        update(&mut app, Msg::Reload);
        assert!(!app.status.as_ref().unwrap().error);
    }

    #[test]
    fn reload_keeps_the_selected_finding_when_it_still_exists() {
        let (dir, mut app) = app_on(&multi_area_profile());
        update(&mut app, Msg::Bottom);
        let f = app.report().unwrap().issues[app.selected_issue().unwrap()].clone();
        // Add a finding that sorts before it: the index changes, the selection follows.
        let mut v: serde_json::Value = serde_json::from_str(&multi_area_profile()).unwrap();
        v["aaa_bogus"] = serde_json::json!(0);
        fs::write(
            dir.path().join("p.json"),
            serde_json::to_string_pretty(&v).unwrap(),
        )
        .unwrap();
        update(&mut app, Msg::Reload);
        let now = &app.report().unwrap().issues[app.selected_issue().unwrap()];
        assert_eq!((now.rule, &now.pointer), (f.rule, &f.pointer));
    }

    #[test]
    fn selection_survives_a_save_that_briefly_breaks_the_file() {
        let (dir, mut app) = app_on(&multi_area_profile());
        update(&mut app, Msg::Bottom);
        let f = app.report().unwrap().issues[app.selected_issue().unwrap()].clone();
        let path = dir.path().join("p.json");
        fs::write(&path, "{").unwrap();
        update(&mut app, Msg::FileChanged(0));
        assert!(app.report().is_none());
        fs::write(&path, multi_area_profile()).unwrap();
        update(&mut app, Msg::FileChanged(0));
        let now = &app.report().unwrap().issues[app.selected_issue().unwrap()];
        assert_eq!((now.rule, &now.pointer), (f.rule, &f.pointer));
    }

    #[test]
    fn a_broken_catalog_is_an_error_panel_for_every_profile() {
        let dir = tempfile::tempdir().unwrap();
        let labels = dir.path().join("labels.json");
        fs::write(&labels, "[1,").unwrap();
        let app = App::new(
            vec![Source::File(fixture("workshop.json"))],
            CatalogSource::File(labels),
            today(),
            dir.path().to_path_buf(),
        );
        let err = app.slot().unwrap().outcome.as_ref().unwrap_err();
        assert!(err.message.contains("label catalog"), "{}", err.message);
        assert!(err.file.ends_with("labels.json"));
    }
}
