//! The effects `update` asks for, run by the event loop: reading and
//! auditing files, writing the export. Each does its I/O here, stores what
//! it read in the model, and answers with the message that reports it, so
//! `update` itself never touches a file. The first read, before the loop
//! runs, is here too ([`open_in`]).

use std::path::PathBuf;

use isolint_core::render::json;
use isolint_core::{Date, Labels};

use super::load::{self, CatalogSource, LoadError, Loaded, Source, Stamp};
use super::model::{catalog_path, file_slots, replace_file, App, Effect, Msg, Slot};
use crate::files::runner::RunContext;

/// [`open_in`] with no `--runner` overlay (the tests' way in).
#[cfg(test)]
pub fn open(
    sources: Vec<Source>,
    catalog: CatalogSource,
    today: Option<Date>,
    export_dir: PathBuf,
) -> App {
    open_in(Default::default(), sources, catalog, today, export_dir)
}

/// Read the catalog and every profile, audited in the run's context (its
/// `--runner` overlay), and build the model on them. Input errors become
/// error panels, never failures.
pub fn open_in(
    cx: RunContext,
    sources: Vec<Source>,
    catalog: CatalogSource,
    today: Option<Date>,
    export_dir: PathBuf,
) -> App {
    let (labels, labels_stamp) = read_catalog(&catalog);
    let slots: Vec<Slot> = sources
        .iter()
        .flat_map(|source| {
            let (stamp, loaded) = read_file(&cx, &labels, source, today);
            file_slots(source, stamp, loaded)
        })
        .collect();
    let export_repo = work_tree(&export_dir);
    let mut app = App::new(catalog, labels, labels_stamp, slots, today, export_dir);
    app.context = std::sync::Arc::new(cx);
    app.export_repo = export_repo;
    app.editor = super::editor::from_env();
    app
}

/// Run one effect; the message, if any, reports what it did. Opening the
/// editor is not here: it needs the terminal, which only the event loop
/// holds.
pub fn perform(app: &mut App, effect: Effect) -> Option<Msg> {
    match effect {
        Effect::Export(path) => {
            let report = app.report()?;
            let result = match input_at(app, &path) {
                Some(what) => Err(format!(
                    "it is {what}, which the export would replace; nothing written"
                )),
                None => load::write_atomic(&path, json::render(report).as_bytes())
                    .map_err(|e| e.to_string()),
            };
            Some(Msg::Exported { path, result })
        }
        Effect::Reload(i) => Some(Msg::FileReloaded(reload_file(app, i))),
        Effect::ReloadAll => {
            reload_catalog(app);
            reload_every_file(app);
            Some(Msg::ReloadedAll)
        }
        Effect::ReloadCatalog => {
            reload_catalog(app);
            reload_every_file(app);
            Some(Msg::CatalogReloaded)
        }
        // Needs the terminal: the event loop runs it (`super::run_editor`).
        Effect::OpenEditor { .. } => None,
        Effect::PreviewFix { slot, target } => Some(Msg::FixPreviewed(Box::new(
            super::fixes::preview(app, slot, target),
        ))),
        Effect::ApplyFix(preview) => {
            let (range, result) = match super::fixes::write(&preview) {
                Ok(path) => {
                    // The file's profiles, found by path: a file watched
                    // meanwhile may have moved the slots.
                    let at = app
                        .slots
                        .iter()
                        .position(|s| matches!(&s.source, Source::File(p) if *p == path));
                    match at {
                        Some(i) => (reload_file(app, i), Ok(())),
                        None => (0..0, Ok(())),
                    }
                }
                Err(e) => (0..0, Err(e)),
            };
            Some(Msg::FixApplied { range, result })
        }
    }
}

/// What the dashboard reads at `path`, if anything: one of its profile
/// files or its label catalog, however the path reaches it (a link, a
/// second name, `./`). As `audit -o` refuses its inputs, so does the export.
fn input_at(app: &App, path: &std::path::Path) -> Option<&'static str> {
    let same = |p: &std::path::Path| crate::files::atomic::same_file(p, path);
    if catalog_path(&app.catalog).is_some_and(same) {
        return Some("the label catalog");
    }
    app.slots
        .iter()
        .any(|s| matches!(&s.source, Source::File(p) if same(p)))
        .then_some("a profile this dashboard shows")
}

/// `dir` made absolute, and the git work tree it lies in (the nearest
/// ancestor with `.git`), so the export prompt can say that it adds an
/// untracked file there.
pub fn work_tree(dir: &std::path::Path) -> Option<(std::path::PathBuf, std::path::PathBuf)> {
    let dir = std::fs::canonicalize(dir).ok()?;
    let repo = dir
        .ancestors()
        .find(|d| d.join(".git").exists())?
        .to_path_buf();
    Some((dir, repo))
}

/// Read the catalog, with its file's identity for change detection.
pub fn read_catalog(catalog: &CatalogSource) -> (Result<Labels, LoadError>, Stamp) {
    let stamp = catalog_path(catalog).and_then(load::stamp);
    (load::load_labels(catalog), stamp)
}

/// Read and audit every profile of one file, with the file's identity.
/// Without a usable catalog nothing is audited; each file says why.
pub fn read_file(
    cx: &RunContext,
    labels: &Result<Labels, LoadError>,
    source: &Source,
    today: Option<Date>,
) -> (Stamp, Vec<Loaded>) {
    let stamp = match source {
        Source::File(p) => load::stamp(p),
        Source::Embedded | Source::Unreadable(..) => None,
    };
    let loaded = match labels {
        Ok(l) => load::load_profiles(cx, source, l, today),
        Err(e) => vec![Loaded {
            unit: String::new(),
            profile: String::new(),
            notes: Vec::new(),
            outcome: Err(LoadError {
                message: format!(
                    "the label catalog could not be loaded, so nothing was audited: {}",
                    e.message
                ),
                ..e.clone()
            }),
        }],
    };
    (stamp, loaded)
}

fn reload_catalog(app: &mut App) {
    let (labels, stamp) = read_catalog(&app.catalog);
    app.labels = labels;
    app.labels_stamp = stamp;
}

fn reload_file(app: &mut App, i: usize) -> std::ops::Range<usize> {
    let Some(source) = app.slots.get(i).map(|s| s.source.clone()) else {
        return i..i;
    };
    let (stamp, loaded) = read_file(&app.context, &app.labels, &source, app.today);
    let fresh = file_slots(&source, stamp, loaded);
    replace_file(app, i, fresh)
}

fn reload_every_file(app: &mut App) {
    let mut i = 0;
    while i < app.slots.len() {
        i = reload_file(app, i).end.max(i + 1);
    }
}

/// `update`, then every effect it asks for: what the event loop does for
/// a message, for tests that follow a message to its end.
#[cfg(test)]
pub fn step(app: &mut App, msg: Msg) {
    for e in super::update::update(app, msg) {
        if let Some(reply) = perform(app, e) {
            step(app, reply);
        }
    }
}
