//! The effects [`super::app::update`] asks for, run by the event loop:
//! reading and auditing files, writing the export. Each does its I/O here,
//! then hands the result to a plain function of `app` that changes the
//! model, so `update` itself never touches a file.

use isolint_core::render::json;
use isolint_core::{Date, Labels};

use super::app::{self, App, Effect};
use super::load::{self, CatalogSource, LoadError, Loaded, Source, Stamp};

/// Run one effect. Opening the editor is not here: it needs the terminal,
/// which only the event loop holds.
pub fn perform(app: &mut App, effect: Effect) {
    match effect {
        Effect::Export(path) => {
            let Some(report) = app.report() else { return };
            let result = match input_at(app, &path) {
                Some(what) => Err(std::io::Error::other(format!(
                    "it is {what}, which the export would replace; nothing written"
                ))),
                None => load::write_atomic(&path, json::render(report).as_bytes()),
            };
            app::exported(app, &path, result);
        }
        Effect::Reload(i) => {
            let range = reload_file(app, i);
            app::file_reloaded(app, range);
        }
        Effect::ReloadAll => {
            reload_catalog(app);
            reload_every_file(app);
            app::reloaded_all(app);
        }
        Effect::ReloadCatalog => {
            reload_catalog(app);
            reload_every_file(app);
            app::catalog_reloaded(app);
        }
        // Needs the terminal: the event loop runs it (`super::run_editor`).
        Effect::OpenEditor { .. } => {}
    }
}

/// What the dashboard reads at `path`, if anything: one of its profile
/// files or its label catalog, however the path reaches it (a link, a
/// second name, `./`). As `audit -o` refuses its inputs, so does the export.
fn input_at(app: &App, path: &std::path::Path) -> Option<&'static str> {
    let same = |p: &std::path::Path| crate::files::atomic::same_file(p, path);
    if app::catalog_path(&app.catalog).is_some_and(same) {
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
    let stamp = app::catalog_path(catalog).and_then(load::stamp);
    (load::load_labels(catalog), stamp)
}

/// Read and audit every profile of one file, with the file's identity.
/// Without a usable catalog nothing is audited; each file says why.
pub fn read_file(
    labels: &Result<Labels, LoadError>,
    source: &Source,
    today: Option<Date>,
) -> (Stamp, Vec<Loaded>) {
    let stamp = match source {
        Source::File(p) => load::stamp(p),
        Source::Embedded | Source::Unreadable(..) => None,
    };
    let loaded = match labels {
        Ok(l) => load::load_profiles(source, l, today),
        Err(e) => vec![Loaded {
            unit: String::new(),
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
    let (stamp, loaded) = read_file(&app.labels, &source, app.today);
    let fresh = app::file_slots(&source, stamp, loaded);
    app::replace_file(app, i, fresh)
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
pub fn step(app: &mut App, msg: app::Msg) {
    for e in app::update(app, msg) {
        perform(app, e);
    }
}
