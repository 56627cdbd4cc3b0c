//! The model (the Elm architecture's `Model`), the messages that change it
//! and the effects `update` asks for, with the pure queries the view,
//! the layout and `update` share. Grouping, ordering and filtering come
//! from `isolint_core::view_model`; this module only keeps track of what
//! is selected.

use std::path::{Path, PathBuf};

use isolint_core::model::StringEnum;
use isolint_core::rules::Rule;
use isolint_core::view_model::{self as vm, Filter, Grouped};
use isolint_core::{Area, Date, Labels, Report};

use super::load::{self, CatalogSource, LoadError, Source, Stamp};

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
    /// Every audited profile of every file (shown when there are several).
    Profiles,
    Findings,
    Mounts,
    Checks,
    Rules,
}

impl Tab {
    pub const ALL: [Tab; 5] = [
        Tab::Profiles,
        Tab::Findings,
        Tab::Mounts,
        Tab::Checks,
        Tab::Rules,
    ];

    pub fn title(self) -> &'static str {
        match self {
            Tab::Profiles => "Profiles",
            Tab::Findings => "Findings",
            Tab::Mounts => "Mounts vs labels",
            Tab::Checks => "Runtime-check plan",
            Tab::Rules => "Rules",
        }
    }

    /// A shorter title, for a tab bar that does not fit.
    pub fn short_title(self) -> &'static str {
        match self {
            Tab::Mounts => "Mounts",
            Tab::Checks => "Plan",
            other => other.title(),
        }
    }

    /// The digit that shows the tab.
    pub fn digit(self) -> usize {
        Tab::ALL.iter().position(|t| *t == self).unwrap_or(0)
    }

    /// The tabs shown: the profiles list only when there is more than one
    /// profile to choose from.
    pub fn shown(profiles: usize) -> &'static [Tab] {
        if profiles > 1 {
            &Tab::ALL
        } else {
            &Tab::ALL[1..]
        }
    }

    /// The next (or previous) tab shown, wrapping around.
    pub fn step(self, forward: bool, profiles: usize) -> Tab {
        let tabs = Tab::shown(profiles);
        let n = tabs.len();
        let at = tabs.iter().position(|t| *t == self).unwrap_or(0);
        let i = if forward { at + 1 } else { at + n - 1 };
        tabs[i % n]
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
    /// Typing the path an export is written to.
    Prompt,
    /// The fix pane is open ([`App::fix`]): `y` applies, Esc leaves.
    Fix,
}

/// Everything that can happen to the model: what the reader asked for,
/// what changed outside, and what an [`Effect`] did.
#[derive(Debug, Clone, PartialEq, Eq)]
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
    /// `n`/`N`: the next (previous) finding the search matches, on to the
    /// next profile that has one, as `n` does in less and vim.
    NextMatch,
    PrevMatch,
    /// `b`: show only the findings that block eligibility; again for all.
    BlockingOnly,
    /// The mouse wheel over the screen (`true`: down).
    Wheel {
        down: bool,
        column: u16,
        row: u16,
    },
    /// A left click at a screen cell.
    Click {
        column: u16,
        row: u16,
    },
    /// Enter: open the selected profile (in the profiles list), or drill
    /// into the selected finding or mount (its detail and source fill the
    /// body; Esc goes back).
    Activate,
    /// Open `$VISUAL`/`$EDITOR` at the selected finding.
    OpenEditor,
    /// `f`: preview the fix of the selected finding.
    Fix,
    /// `F`: preview every safe fix of the current profile's file.
    FixAll,
    /// Write the previewed fix (in [`Mode::Fix`]).
    FixApply,
    /// Close the fix pane, nothing written.
    FixCancel,
    /// A fix was previewed (`Err`: why it could not be, display-safe).
    FixPreviewed(Box<Result<FixPreview, String>>),
    /// A previewed fix was written and its file re-audited (these slots
    /// hold its profiles now), or it was not (`Err`: why, display-safe).
    FixApplied {
        range: std::ops::Range<usize>,
        result: Result<(), String>,
    },
    /// Ask where to write the export.
    Export,
    PromptChar(char),
    PromptBackspace,
    /// Write the export to the typed path.
    PromptAccept,
    PromptCancel,
    Reload,
    ToggleHelp,
    /// A watched profile changed on disk.
    FileChanged(usize),
    /// The watched catalog changed on disk.
    CatalogChanged,
    Resize(u16, u16),
    /// An export was written to `path`, or failed (`Err`: why).
    Exported {
        path: PathBuf,
        result: Result<(), String>,
    },
    /// A file was read again; these slots now hold its profiles.
    FileReloaded(std::ops::Range<usize>),
    /// The catalog and every file were read again (`r`).
    ReloadedAll,
    /// The catalog changed on disk; it and every file were read again.
    CatalogReloaded,
    /// The editor `program` ran (`Err`: why it could not start, or failed).
    EditorReturned {
        program: String,
        result: Result<(), String>,
    },
}

/// Work `update` hands to the event loop: everything that reads or writes
/// a file or runs another program. `update` itself only changes the model.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Effect {
    /// Write the current profile's findings to this path.
    Export(PathBuf),
    /// Re-read and re-audit the file of this slot.
    Reload(usize),
    /// Re-read the catalog and every file (`r`).
    ReloadAll,
    /// Suspend the dashboard and run the editor on `file` at `line` and
    /// `column` (1-based); files are watched, so an edit re-audits.
    OpenEditor {
        editor: Vec<String>,
        file: PathBuf,
        line: u32,
        column: u32,
    },
    /// The catalog changed on disk: re-read it and every file.
    ReloadCatalog,
    /// Preview the fix of slot `slot`'s `target` finding, or (`None`)
    /// every safe fix of its file.
    PreviewFix {
        slot: usize,
        target: Option<isolint_core::fix::Target>,
    },
    /// Write the previewed fix to its file, if the file still holds what
    /// was previewed, and re-audit it.
    ApplyFix(Box<FixPreview>),
}

/// A fix as the pane shows it: what core made and proved, the masked
/// diff, and the texts to write.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FixPreview {
    /// The file it edits; `None` for the built-in workshop profile,
    /// which can be previewed but not written.
    pub file: Option<PathBuf>,
    /// The file's display name (display-safe).
    pub name: String,
    /// The one finding of `f` (rule, pointer); `None` for `F`.
    pub target: Option<(String, String)>,
    /// Fixes made and proven by the re-audit.
    pub applied: Vec<isolint_core::fix::Candidate>,
    /// Unsafe fixes left out (`F` makes only safe ones).
    pub unsafe_skipped: Vec<isolint_core::fix::Candidate>,
    /// Fixes taken back because the fixed text failed its proof.
    pub withdrawn: Vec<isolint_core::fix::Withdrawn>,
    /// Why there is nothing to apply, when there is not (display-safe).
    pub none: Option<String>,
    /// The unified diff of the masked texts (never a secret).
    pub diff: String,
    /// Findings of the file before and after the fix.
    pub findings: (usize, usize),
    /// The file's text when previewed: the fix is written only if the
    /// file still holds it.
    pub original: String,
    /// The text to write.
    pub fixed: String,
    /// How far the pane is scrolled.
    pub scroll: u16,
}

impl FixPreview {
    /// Whether confirming would change the file.
    pub fn changes(&self) -> bool {
        self.fixed != self.original
    }
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

/// One audited profile: a profile file, or one container or service of
/// an imported configuration. The profiles of one file are adjacent.
#[derive(Debug)]
pub struct Slot {
    pub source: Source,
    /// Display-safe name (the path as given).
    pub name: String,
    /// Which part of the file this profile is (display-safe); empty when
    /// the file holds one profile.
    pub unit: String,
    /// The profile's name as the importer gave it (see
    /// [`load::Loaded::profile`]): how `f` names it to core.
    pub profile: String,
    pub outcome: Result<Report, LoadError>,
    /// The importer's notes for this profile (see [`load::Loaded::notes`]).
    pub notes: Vec<String>,
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
            Source::Embedded | Source::Unreadable(..) => None,
        }
    }

    /// `file` or `file#unit`.
    pub fn title(&self) -> String {
        if self.unit.is_empty() {
            self.name.clone()
        } else {
            format!("{}#{}", self.name, self.unit)
        }
    }

    /// Sort rank in the profiles list: not eligible, then no verdict (the
    /// file could not be audited), then eligible.
    pub fn rank(&self) -> u8 {
        match &self.outcome {
            Ok(r) if r.verdict == isolint_core::Verdict::NotEligible => 0,
            Err(_) => 1,
            Ok(_) => 2,
        }
    }
}

/// The slots of one file from its audit (`stamp`: the file's identity
/// when it was read).
pub fn file_slots(source: &Source, stamp: Stamp, loaded: Vec<load::Loaded>) -> Vec<Slot> {
    let name = match source {
        Source::Embedded => "workshop.json (built in)".to_string(),
        Source::File(p) => load::display_path(p),
        Source::Unreadable(name, _) => name.clone(),
    };
    loaded
        .into_iter()
        .map(|l| {
            let mut slot = Slot {
                source: source.clone(),
                name: name.clone(),
                unit: l.unit,
                profile: l.profile,
                outcome: l.outcome,
                notes: l.notes,
                stamp,
                nav: Nav::default(),
                remembered: None,
            };
            if let Ok(r) = &slot.outcome {
                slot.nav.area = first_nonempty(&group(r, &Filter::default())).unwrap_or(0);
            }
            slot
        })
        .collect()
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
    /// The profiles list's filter (typed with `/` in that tab).
    pub profile_query: String,
    /// The search of the mounts, plan or rules tab: it moves the cursor to
    /// the rows it matches (as `/` does in less), it hides nothing.
    pub list_query: String,
    /// The cursor row when that search started, for cancelling.
    pub list_search_from: usize,
    /// The export path being typed (in [`Mode::Prompt`]).
    pub prompt: String,
    /// The export directory made absolute and the git work tree it lies
    /// in, if any, so the prompt can say that the export adds an untracked
    /// file there.
    pub export_repo: Option<(PathBuf, PathBuf)>,
    /// Observations of a runtime verifier (`--observed`), joined with each
    /// profile's plan in the plan tab.
    pub observed: Option<isolint_core::observe::Observations>,
    /// `$VISUAL` or `$EDITOR`, split into words (read once at start).
    pub editor: Option<Vec<String>>,
    /// The query and selected finding as they were when search mode
    /// started, for cancelling.
    pub search_before: String,
    pub search_before_selection: Option<usize>,
    pub rules: Vec<&'static Rule>,
    /// Cursor in the rules tab.
    pub rule: usize,
    pub detail_scroll: u16,
    /// Enter drilled into the selected row: its detail and source take
    /// the whole body until Esc.
    pub zoom: bool,
    pub help_scroll: u16,
    /// The fix pane's content, while [`Mode::Fix`] is on.
    pub fix: Option<FixPreview>,
    /// The run's `--runner` overlay and context, which every audit of an
    /// imported file uses (re-audits and fix proofs too).
    pub context: std::sync::Arc<crate::files::runner::RunContext>,
    pub status: Option<Status>,
    pub size: (u16, u16),
    pub quit: bool,
}

impl App {
    /// The model on what was read at start (see `super::effects::open`):
    /// the catalog and every file's profiles, input errors as error panels.
    pub fn new(
        catalog: CatalogSource,
        labels: Result<Labels, LoadError>,
        labels_stamp: Stamp,
        slots: Vec<Slot>,
        today: Option<Date>,
        export_dir: PathBuf,
    ) -> App {
        // Several profiles open on their list, the worst selected.
        let tab = if slots.len() > 1 {
            Tab::Profiles
        } else {
            Tab::Findings
        };
        let mut app = App {
            slots,
            current: 0,
            catalog,
            labels,
            labels_stamp,
            today,
            export_dir,
            tab,
            mode: Mode::Normal,
            filter: Filter::default(),
            profile_query: String::new(),
            prompt: String::new(),
            export_repo: None,
            editor: None,
            observed: None,
            search_before: String::new(),
            search_before_selection: None,
            rules: isolint_core::rules::all().collect(),
            rule: 0,
            detail_scroll: 0,
            zoom: false,
            list_query: String::new(),
            list_search_from: 0,
            help_scroll: 0,
            fix: None,
            context: Default::default(),
            status: None,
            size: (80, 24),
            quit: false,
        };
        app.current = app.order().first().copied().unwrap_or(0);
        app
    }

    /// Every slot in the profiles list's order: not eligible first, then
    /// those that could not be audited, then eligible; worst first within
    /// each (most critical findings, then high, …), else as given.
    /// `n`/`p` and "profile i of n" follow this order.
    pub fn order(&self) -> Vec<usize> {
        let mut order: Vec<usize> = (0..self.slots.len()).collect();
        order.sort_by_key(|&i| {
            let slot = &self.slots[i];
            let counts = slot.outcome.as_ref().map_or([0; 5], |r| {
                isolint_core::Severity::ALL.map(|s| r.summary.count(s))
            });
            (slot.rank(), std::cmp::Reverse(counts), i)
        });
        order
    }

    /// The slots the profiles list shows under its filter, in list order.
    pub fn shown_profiles(&self) -> Vec<usize> {
        let q = self.profile_query.to_lowercase();
        self.order()
            .into_iter()
            .filter(|&i| q.is_empty() || profile_text(&self.slots[i]).contains(&q))
            .collect()
    }

    /// 1-based position of the current profile in the list, and the count.
    pub fn position(&self) -> (usize, usize) {
        let order = self.order();
        let at = order.iter().position(|&i| i == self.current).unwrap_or(0);
        (at + 1, order.len())
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

    pub fn nav_mut(&mut self) -> Option<&mut Nav> {
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
    /// The searchable text of each row of the current tab's list, when
    /// that tab is the mounts, plan or rules tab, in display order.
    pub fn list_rows(&self) -> Option<Vec<String>> {
        let lower = |parts: &[&str]| parts.join(" ").to_lowercase();
        match self.tab {
            Tab::Mounts => {
                let r = self.report()?;
                Some(
                    mount_order(r)
                        .into_iter()
                        .filter_map(|i| r.mounts.get(i))
                        .map(|m| lower(&[&m.source, &m.target, &m.label, &m.access, &m.pointer]))
                        .collect(),
                )
            }
            Tab::Checks => Some(
                self.report()?
                    .runtime_checks
                    .iter()
                    .map(|c| {
                        lower(&[
                            &c.id,
                            c.kind.as_str(),
                            &c.target.to_string(),
                            c.expect.as_str(),
                            &c.because,
                        ])
                    })
                    .collect(),
            ),
            Tab::Rules => Some(
                self.rules
                    .iter()
                    .map(|r| lower(&[r.id, r.name, r.title]))
                    .collect(),
            ),
            Tab::Profiles | Tab::Findings => None,
        }
    }

    /// The cursor row of the mounts, plan or rules tab.
    pub fn list_cursor(&self) -> usize {
        match self.tab {
            Tab::Mounts => self.nav().mount,
            Tab::Checks => self.nav().check,
            _ => self.rule,
        }
    }

    pub fn set_list_cursor(&mut self, row: usize) {
        match self.tab {
            Tab::Mounts => {
                if let Some(n) = self.nav_mut() {
                    n.mount = row;
                }
            }
            Tab::Checks => {
                if let Some(n) = self.nav_mut() {
                    n.check = row;
                }
            }
            _ => self.rule = row,
        }
    }

    pub fn selected_mount(&self) -> Option<usize> {
        mount_order(self.report()?).get(self.nav().mount).copied()
    }

    /// Where exports of the current profile go.
    pub fn export_path(&self) -> Option<PathBuf> {
        let slot = self.slot()?;
        Some(
            self.export_dir
                .join(load::export_name(&slot.source, &slot.unit)),
        )
    }
}

/// What the profiles filter matches: file, profile name and verdict.
fn profile_text(slot: &Slot) -> String {
    let verdict = match &slot.outcome {
        Ok(r) => r.verdict.as_str(),
        Err(_) => "no verdict",
    };
    format!("{} {} {verdict}", slot.name, slot.unit).to_lowercase()
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

/// What the export prompt warns about the typed path: that it lies in a
/// git work tree, where it adds an untracked file.
pub fn export_note(app: &App) -> Option<String> {
    let (dir, repo) = app.export_repo.as_ref()?;
    let mut at = PathBuf::new();
    for part in dir.join(app.prompt.trim()).components() {
        match part {
            std::path::Component::ParentDir => {
                at.pop();
            }
            std::path::Component::CurDir => {}
            other => at.push(other),
        }
    }
    at.starts_with(repo).then(|| {
        format!(
            "inside the git work tree {}: writes an untracked file",
            load::display_path(repo)
        )
    })
}

/// The slots that hold the profiles of slot `i`'s file.
fn file_range(app: &App, i: usize) -> std::ops::Range<usize> {
    let Some(source) = app.slots.get(i).map(|s| &s.source) else {
        return i..i;
    };
    let start = (0..=i)
        .rev()
        .take_while(|&j| app.slots[j].source == *source)
        .last()
        .unwrap_or(i);
    let end = (i..app.slots.len())
        .take_while(|&j| app.slots[j].source == *source)
        .last()
        .map_or(i, |j| j + 1);
    start..end
}

/// Replace the profiles of slot `i`'s file with `fresh` (a file can gain
/// or lose containers). Each keeps its selection when its profile (same
/// name) and finding (same rule, pointer and message) still exist.
/// Returns the file's new slots.
pub fn replace_file(app: &mut App, i: usize, mut fresh: Vec<Slot>) -> std::ops::Range<usize> {
    let std::ops::Range { start, end } = file_range(app, i);
    if start == end {
        return start..end;
    }
    // The current profile's selection, taken before its report goes.
    let selected = app
        .selected_issue()
        .and_then(|k| app.report()?.issues.get(k))
        .map(|f| (f.rule, f.pointer.clone(), f.message.clone()));
    if (start..end).contains(&app.current) {
        if let Some(sel) = selected {
            app.slots[app.current].remembered = Some(sel);
        }
    }
    let current_unit = (start..end)
        .contains(&app.current)
        .then(|| app.slots[app.current].unit.clone());
    let old: Vec<Slot> = app.slots.drain(start..end).collect();
    for slot in &mut fresh {
        if let Some(prev) = old.iter().find(|o| o.unit == slot.unit) {
            slot.nav = prev.nav;
            slot.remembered = prev.remembered.clone();
        }
    }
    let new_end = start + fresh.len();
    app.slots.splice(start..start, fresh);
    // Keep the current profile where it went; shift the index of a later one.
    if let Some(unit) = current_unit {
        app.current = (start..new_end)
            .find(|&j| app.slots[j].unit == unit)
            .unwrap_or(start);
    } else if app.current >= end {
        app.current = app.current + new_end - end;
    }
    let current = app.current;
    for j in start..new_end {
        app.current = j;
        let keep = app.slots[j]
            .remembered
            .clone()
            .and_then(|(rule, pointer, message)| {
                app.report()?
                    .issues
                    .iter()
                    .position(|f| f.rule == rule && f.pointer == pointer && f.message == message)
            });
        clamp(app, keep);
    }
    app.current = current;
    start..new_end
}

/// Make the selection valid again after the findings or the filter changed:
/// keep `keep` (an issue index) if it is shown; otherwise clamp the cursor
/// in its area; if the area shows nothing, go to the first area that does.
pub fn clamp(app: &mut App, keep: Option<usize>) {
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

fn first_nonempty(g: &Grouped) -> Option<usize> {
    g.groups.iter().position(|a| !a.shown.is_empty())
}
