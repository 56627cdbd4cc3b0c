//! The transitions (the Elm architecture's `update`): a message changes
//! the model and asks for effects; the effects' results come back as
//! messages. Nothing here reads or writes a file.

use std::path::{Path, PathBuf};

use isolint_core::text::plural;
use isolint_core::view_model::{self as vm, Filter};
use isolint_core::Area;

use super::layout;
use super::load;
use super::model::{clamp, App, Effect, Mode, Msg, Status, Tab};

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

/// Apply a message to the model; returns the effects the loop must run
/// (see [`super::effects::perform`]).
pub fn update(app: &mut App, msg: Msg) -> Vec<Effect> {
    let mut effects = Vec::new();
    if !from_outside(&msg) {
        app.status = None;
    }
    if app.mode == Mode::Help {
        match msg {
            Msg::Down => app.help_scroll = (app.help_scroll + 1).min(layout::max_help_scroll(app)),
            Msg::Up => app.help_scroll = app.help_scroll.saturating_sub(1),
            Msg::DetailDown | Msg::Wheel { down: true, .. } => {
                let page = if matches!(msg, Msg::Wheel { .. }) {
                    3
                } else {
                    layout::help_page(app)
                };
                app.help_scroll = app
                    .help_scroll
                    .saturating_add(page)
                    .min(layout::max_help_scroll(app))
            }
            Msg::DetailUp | Msg::Wheel { down: false, .. } => {
                let page = if matches!(msg, Msg::Wheel { .. }) {
                    3
                } else {
                    layout::help_page(app)
                };
                app.help_scroll = app.help_scroll.saturating_sub(page)
            }
            Msg::Top => app.help_scroll = 0,
            Msg::Bottom => app.help_scroll = layout::max_help_scroll(app),
            Msg::ToggleHelp => {
                app.mode = Mode::Normal;
                app.help_scroll = 0;
            }
            _ => {}
        }
        // Quitting and outside events still apply under the overlay.
        if msg != Msg::Quit && !from_outside(&msg) {
            return effects;
        }
    }
    if app.mode == Mode::Fix {
        in_fix_pane(app, &msg, &mut effects);
        if msg != Msg::Quit && !from_outside(&msg) {
            return effects;
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
        Msg::DetailDown if app.tab == Tab::Profiles => {
            for _ in 0..layout::profiles_page(app) {
                step_row(app, true);
            }
        }
        Msg::DetailUp if app.tab == Tab::Profiles => {
            for _ in 0..layout::profiles_page(app) {
                step_row(app, false);
            }
        }
        Msg::DetailDown => {
            app.detail_scroll = app
                .detail_scroll
                .saturating_add(layout::detail_page(app))
                .min(layout::max_detail_scroll(app))
        }
        Msg::DetailUp => {
            app.detail_scroll = app.detail_scroll.saturating_sub(layout::detail_page(app))
        }
        Msg::NextTab => set_tab(app, app.tab.step(true, app.slots.len())),
        Msg::PrevTab => set_tab(app, app.tab.step(false, app.slots.len())),
        Msg::ShowTab(t) => {
            if Tab::shown(app.slots.len()).contains(&t) {
                set_tab(app, t)
            }
        }
        Msg::CycleSeverity => refilter(app, |f| f.cycle_severity()),
        Msg::BlockingOnly => {
            let blocking = isolint_core::Severity::High;
            let to = if app.filter.min_severity == blocking {
                isolint_core::Severity::Info
            } else {
                blocking
            };
            refilter(app, |f| f.min_severity = to);
            app.status = Some(Status {
                text: if to == blocking {
                    "only blocking findings (critical and high): b again shows all".into()
                } else {
                    "every severity shown".into()
                },
                error: false,
            });
        }
        Msg::Wheel { down, column, row } => wheel(app, down, column, row),
        Msg::Click { column, row } => click(app, column, row),
        // In the profiles list, `/` filters the list; anywhere else it
        // searches the findings.
        Msg::StartSearch if app.tab == Tab::Profiles => {
            app.search_before = app.profile_query.clone();
            app.mode = Mode::Search;
        }
        Msg::SearchChar(c) if app.tab == Tab::Profiles => {
            if !c.is_control() {
                app.profile_query.push(c);
                select_shown_profile(app);
            }
        }
        Msg::SearchBackspace if app.tab == Tab::Profiles => {
            app.profile_query.pop();
            select_shown_profile(app);
        }
        Msg::SearchCancel if app.tab == Tab::Profiles => {
            app.profile_query = std::mem::take(&mut app.search_before);
            app.mode = Mode::Normal;
        }
        // In the mounts, plan and rules tabs `/` finds rows of that list.
        Msg::StartSearch if app.list_rows().is_some() => {
            app.search_before = app.list_query.clone();
            app.list_search_from = app.list_cursor();
            app.mode = Mode::Search;
        }
        Msg::SearchChar(c) if app.list_rows().is_some() => {
            if !c.is_control() {
                app.list_query.push(c);
                find_row(app, app.list_search_from, true);
            }
        }
        Msg::SearchBackspace if app.list_rows().is_some() => {
            app.list_query.pop();
            find_row(app, app.list_search_from, true);
        }
        Msg::SearchCancel if app.list_rows().is_some() => {
            app.list_query = std::mem::take(&mut app.search_before);
            let from = app.list_search_from;
            app.set_list_cursor(from);
            app.mode = Mode::Normal;
        }
        Msg::NextMatch | Msg::PrevMatch if app.list_rows().is_some() => {
            let forward = msg == Msg::NextMatch;
            if app.list_query.trim().is_empty() {
                app.status = Some(Status {
                    text: "no search in this tab yet: / starts one".into(),
                    error: false,
                });
            } else {
                let n = app.list_rows().map_or(0, |r| r.len()).max(1);
                let cur = app.list_cursor();
                let from = if forward {
                    (cur + 1) % n
                } else {
                    (cur + n - 1) % n
                };
                find_row(app, from, forward);
            }
        }
        Msg::NextMatch | Msg::PrevMatch => next_match(app, msg == Msg::NextMatch),
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
        Msg::ClearFilter if app.zoom => {
            app.zoom = false;
            app.detail_scroll = 0;
        }
        Msg::ClearFilter if app.tab == Tab::Profiles => {
            if !app.profile_query.is_empty() {
                app.profile_query.clear();
                app.status = Some(Status {
                    text: "filter cleared: every profile is listed".into(),
                    error: false,
                });
            }
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
            let order = app.order();
            let n = order.len();
            if n > 1 {
                let at = order.iter().position(|&i| i == app.current).unwrap_or(0);
                let to = if msg == Msg::NextProfile {
                    (at + 1) % n
                } else {
                    (at + n - 1) % n
                };
                select_profile(app, order[to]);
            }
        }
        Msg::Activate => match app.tab {
            Tab::Profiles => {
                if app.shown_profiles().contains(&app.current) {
                    set_tab(app, Tab::Findings);
                }
            }
            Tab::Findings | Tab::Mounts => {
                app.zoom = true;
                app.detail_scroll = 0;
            }
            Tab::Checks | Tab::Rules => {}
        },
        Msg::Export => match (app.slot().map(|s| &s.outcome), app.export_path()) {
            (Some(Err(e)), _) => {
                app.status = Some(Status {
                    text: format!("nothing exported: {}", e.headline()),
                    error: true,
                })
            }
            (Some(Ok(_)), Some(path)) => {
                app.prompt = display_export_path(&app.export_dir, &path);
                app.mode = Mode::Prompt;
            }
            _ => {}
        },
        Msg::PromptChar(c) => {
            if app.mode == Mode::Prompt && !c.is_control() {
                app.prompt.push(c);
            }
        }
        Msg::PromptBackspace => {
            app.prompt.pop();
        }
        Msg::PromptCancel => {
            app.mode = Mode::Normal;
            app.status = Some(Status {
                text: "export cancelled: nothing written".into(),
                error: false,
            });
        }
        Msg::PromptAccept => {
            app.mode = Mode::Normal;
            let typed = std::mem::take(&mut app.prompt);
            if typed.trim().is_empty() {
                app.status = Some(Status {
                    text: "export cancelled: no file named".into(),
                    error: true,
                });
            } else {
                effects.push(Effect::Export(app.export_dir.join(typed.trim())));
            }
        }
        Msg::OpenEditor => open_editor(app, &mut effects),
        Msg::Fix => fix_finding(app, &mut effects),
        Msg::FixAll => fix_file(app, &mut effects),
        // Only in the fix pane (above).
        Msg::FixApply | Msg::FixCancel => {}
        Msg::FixPreviewed(result) => match *result {
            Ok(preview) => {
                app.fix = Some(preview);
                app.mode = Mode::Fix;
            }
            Err(e) => {
                app.status = Some(Status {
                    text: format!("no fix preview: {e}"),
                    error: true,
                })
            }
        },
        Msg::FixApplied { range, result } => fix_applied(app, range, result),
        Msg::Reload => effects.push(Effect::ReloadAll),
        Msg::FileChanged(i) => {
            if i < app.slots.len() {
                effects.push(Effect::Reload(i));
            }
        }
        Msg::CatalogChanged => effects.push(Effect::ReloadCatalog),
        Msg::ToggleHelp => {
            app.mode = Mode::Help;
            app.help_scroll = 0;
        }
        Msg::Resize(w, h) => {
            app.size = (w, h);
            app.detail_scroll = app.detail_scroll.min(layout::max_detail_scroll(app));
            app.help_scroll = app.help_scroll.min(layout::max_help_scroll(app));
        }
        Msg::Exported { path, result } => exported(app, &path, result),
        Msg::FileReloaded(range) => file_reloaded(app, range),
        Msg::ReloadedAll => reloaded_all(app),
        Msg::CatalogReloaded => catalog_reloaded(app),
        Msg::EditorReturned { program, result } => editor_returned(app, &program, result),
    }
    effects
}

/// Messages that come from outside the reader's keys: a file changed, the
/// terminal was resized, an effect finished. They leave the status line
/// to what they report, and apply under the help overlay.
fn from_outside(msg: &Msg) -> bool {
    matches!(
        msg,
        Msg::FileChanged(_)
            | Msg::CatalogChanged
            | Msg::Resize(..)
            | Msg::Exported { .. }
            | Msg::FileReloaded(_)
            | Msg::ReloadedAll
            | Msg::CatalogReloaded
            | Msg::EditorReturned { .. }
            | Msg::FixPreviewed(_)
            | Msg::FixApplied { .. }
    )
}

/// A key in the fix pane: scroll it, apply the fix, or close it.
fn in_fix_pane(app: &mut App, msg: &Msg, effects: &mut Vec<Effect>) {
    let max = layout::max_fix_scroll(app);
    let page = layout::fix_page(app);
    let Some(p) = app.fix.as_mut() else {
        app.mode = Mode::Normal;
        return;
    };
    match msg {
        Msg::Down => p.scroll = (p.scroll + 1).min(max),
        Msg::Up => p.scroll = p.scroll.saturating_sub(1),
        Msg::DetailDown => p.scroll = p.scroll.saturating_add(page).min(max),
        Msg::DetailUp => p.scroll = p.scroll.saturating_sub(page),
        Msg::Wheel { down: true, .. } => p.scroll = p.scroll.saturating_add(3).min(max),
        Msg::Wheel { down: false, .. } => p.scroll = p.scroll.saturating_sub(3),
        Msg::FixCancel => {
            app.mode = Mode::Normal;
            app.fix = None;
            app.status = Some(Status {
                text: "fix not applied: nothing written".into(),
                error: false,
            });
        }
        Msg::FixApply => {
            app.mode = Mode::Normal;
            if !p.changes() {
                let why = match (&p.none, p.withdrawn.first()) {
                    (Some(why), _) => why.clone(),
                    (None, Some(w)) => format!(
                        "the fix of {} was withdrawn: {}",
                        w.rule,
                        isolint_core::sanitize::neutralize(&w.reason)
                    ),
                    (None, None) => "the fix changes nothing".into(),
                };
                app.fix = None;
                app.status = Some(Status {
                    text: format!("nothing written: {why}"),
                    error: false,
                });
            } else if p.file.is_none() {
                app.fix = None;
                app.status = Some(Status {
                    text: "the built-in workshop profile has no file: nothing written \
                           (run `isolint fix` on a copy)"
                        .into(),
                    error: true,
                });
            } else {
                // Kept (the pane closed) until the write reports back, to
                // say what was fixed.
                effects.push(Effect::ApplyFix(Box::new(p.clone())));
            }
        }
        _ => {}
    }
}

/// `f`: the fix of the selected finding, previewed.
fn fix_finding(app: &mut App, effects: &mut Vec<Effect>) {
    let Some(slot) = app.slot() else { return };
    let target = match (&slot.outcome, app.tab) {
        (_, tab) if tab != Tab::Findings => Err(
            "f fixes the selected finding: open the Findings tab (1); F fixes the whole file"
                .to_string(),
        ),
        (Err(e), _) => Err(format!("no verdict, nothing to fix: {}", e.headline())),
        (Ok(report), _) => app
            .selected_issue()
            .and_then(|i| report.issues.get(i))
            .map(|f| isolint_core::fix::Target {
                profile: slot.profile.clone(),
                rule: f.rule.to_string(),
                pointer: f.pointer.clone(),
            })
            .ok_or_else(|| "no finding selected: nothing to fix".to_string()),
    };
    match target {
        Ok(t) => effects.push(Effect::PreviewFix {
            slot: app.current,
            target: Some(t),
        }),
        Err(text) => app.status = Some(Status { text, error: true }),
    }
}

/// `F`: every safe fix of the current profile's file, previewed.
fn fix_file(app: &mut App, effects: &mut Vec<Effect>) {
    let refused = match app.slot().map(|s| &s.outcome) {
        Some(Ok(_)) => None,
        Some(Err(e)) => Some(format!("no verdict, nothing to fix: {}", e.headline())),
        None => return,
    };
    match refused {
        None => effects.push(Effect::PreviewFix {
            slot: app.current,
            target: None,
        }),
        Some(text) => app.status = Some(Status { text, error: true }),
    }
}

/// After a fix was written and its file re-audited (`range`: its slots).
fn fix_applied(app: &mut App, range: std::ops::Range<usize>, result: Result<(), String>) {
    let preview = app.fix.take();
    app.mode = Mode::Normal;
    if let Err(e) = result {
        app.status = Some(Status {
            text: format!("fix not applied: {e}"),
            error: true,
        });
        return;
    }
    let what = match &preview {
        Some(p) => match (&p.target, p.applied.as_slice()) {
            // The pointer was in the pane; the line must fit 80 columns.
            (Some((rule, _)), [c, ..]) => format!("fixed {rule} ({})", c.applicability.as_str()),
            (_, applied) => format!(
                "made {} safe fix{}",
                applied.len(),
                if applied.len() == 1 { "" } else { "es" }
            ),
        },
        None => "fixed".into(),
    };
    let name = preview.map(|p| p.name).unwrap_or_default();
    let slots = app.slots.get(range).unwrap_or_default();
    app.status = Some(match slots.iter().find_map(|s| s.outcome.as_ref().err()) {
        Some(e) => Status {
            text: format!(
                "{what} in {name}, which now cannot be audited: {}",
                e.headline()
            ),
            error: true,
        },
        None => {
            let left: usize = slots
                .iter()
                .filter_map(|s| s.outcome.as_ref().ok())
                .map(|r| r.issues.len())
                .sum();
            Status {
                text: format!(
                    "{what} in {name}; re-audited: {} left",
                    plural(left, "finding")
                ),
                error: false,
            }
        }
    });
}

/// Where the editor opens for the current selection: the selected
/// finding's place (in the original file for an imported profile), the
/// selected mount's line, the input error's place, else the top.
fn editor_target(app: &App) -> Option<(PathBuf, u32, u32)> {
    let slot = app.slot()?;
    let file = slot.path()?.to_path_buf();
    let (line, column) = match &slot.outcome {
        Err(e) => (e.line, e.column),
        Ok(report) => match app.tab {
            Tab::Mounts => (
                app.selected_mount()
                    .and_then(|i| report.mounts.get(i))
                    .and_then(|m| m.line),
                None,
            ),
            _ => app
                .selected_issue()
                .and_then(|i| report.issues.get(i))
                .map_or((None, None), |f| vm::shown_position(report, f)),
        },
    };
    Some((file, line.unwrap_or(1), column.unwrap_or(1)))
}

fn open_editor(app: &mut App, effects: &mut Vec<Effect>) {
    let Some((file, line, column)) = editor_target(app) else {
        app.status = Some(Status {
            text: "this profile has no file to open (the built-in workshop profile)".into(),
            error: true,
        });
        return;
    };
    match &app.editor {
        Some(editor) => effects.push(Effect::OpenEditor {
            editor: editor.clone(),
            file,
            line,
            column,
        }),
        None => {
            app.status = Some(Status {
                text: "no editor: set $VISUAL or $EDITOR (for example EDITOR=vim)".into(),
                error: true,
            })
        }
    }
}

/// After the editor ran: `Err` says why it could not start or failed.
fn editor_returned(app: &mut App, program: &str, result: Result<(), String>) {
    app.status = Some(match result {
        Ok(()) => Status {
            text: format!("back from {program}; a saved file is re-audited"),
            error: false,
        },
        Err(e) => Status {
            text: format!("{program}: {}", isolint_core::sanitize::neutralize(&e)),
            error: true,
        },
    });
}

/// After every file was re-read (`r`): how many could be audited.
fn reloaded_all(app: &mut App) {
    let failed = app.slots.iter().filter(|s| s.outcome.is_err()).count();
    app.status = Some(match failed {
        0 => Status {
            text: format!(
                "reloaded and re-audited {} from disk",
                plural(app.slots.len(), "profile")
            ),
            error: false,
        },
        _ => Status {
            text: format!(
                "reloaded; {} could not be audited",
                plural(failed, "profile")
            ),
            error: true,
        },
    });
}

/// After the catalog changed on disk and every file was re-read.
fn catalog_reloaded(app: &mut App) {
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

/// After one file changed on disk and its profiles (`range`) were replaced.
fn file_reloaded(app: &mut App, range: std::ops::Range<usize>) {
    let Some(first) = app.slots.get(range.start) else {
        return;
    };
    let failed = app.slots[range].iter().find(|s| s.outcome.is_err());
    let slot = failed.unwrap_or(first);
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

fn set_tab(app: &mut App, tab: Tab) {
    if app.tab != tab {
        app.tab = tab;
        app.detail_scroll = 0;
        app.zoom = false;
        // A row search belongs to the list it was typed in.
        app.list_query.clear();
    }
}

/// Change the filter, keeping the selected finding when it is still shown.
/// The detail starts at its top: it may now show another finding.
fn refilter(app: &mut App, change: impl FnOnce(&mut Filter)) {
    let before = app.selected_issue();
    change(&mut app.filter);
    clamp(app, before);
    if app.selected_issue() != before {
        app.detail_scroll = 0;
    }
}

/// Move the cursor of the mounts, plan or rules tab to the first row at or
/// after `from` (before, going back) that the tab's search matches,
/// wrapping; say so when none does.
fn find_row(app: &mut App, from: usize, forward: bool) {
    let Some(rows) = app.list_rows() else { return };
    let q = app.list_query.trim().to_lowercase();
    if q.is_empty() || rows.is_empty() {
        return;
    }
    let n = rows.len();
    let from = from.min(n - 1);
    let hit = (0..n)
        .map(|k| {
            if forward {
                (from + k) % n
            } else {
                (from + n - k) % n
            }
        })
        .find(|&i| rows[i].contains(&q));
    match hit {
        Some(i) => {
            app.set_list_cursor(i);
            app.detail_scroll = 0;
            let count = rows.iter().filter(|r| r.contains(&q)).count();
            app.status = Some(Status {
                text: format!(
                    "{} matching \"{}\": n and N move",
                    plural(count, "row"),
                    app.list_query.trim()
                ),
                error: false,
            });
        }
        None => {
            app.status = Some(Status {
                text: format!("no row here matches \"{}\"", app.list_query.trim()),
                error: true,
            })
        }
    }
}

/// `n`/`N`: the next (previous) finding the search matches. In the
/// findings tab that is the next row of the filtered list, then the first
/// match of the next profile that has one, wrapping as less and vim do.
/// Elsewhere it moves a row. Without a search it says how to start one.
fn next_match(app: &mut App, forward: bool) {
    if app.filter.query.trim().is_empty() {
        app.status = Some(Status {
            text: "no search yet: / starts one, then n and N move through its matches".into(),
            error: false,
        });
        return;
    }
    if app.tab != Tab::Findings {
        set_tab(app, Tab::Findings);
    }
    let before = (app.current, app.selected_issue());
    step_row(app, forward);
    if (app.current, app.selected_issue()) != before && app.selected_issue().is_some() {
        return;
    }
    // At the last (first) match of this profile: on to the next profile
    // with a match, in the profiles list's order.
    let order = app.order();
    let n = order.len();
    let at = order.iter().position(|&i| i == app.current).unwrap_or(0);
    for k in 1..=n {
        let to = if forward {
            (at + k) % n
        } else {
            (at + n - k) % n
        };
        let slot = order[to];
        let has = app
            .slots
            .get(slot)
            .and_then(|s| s.outcome.as_ref().ok())
            .is_some_and(|r| r.issues.iter().any(|f| app.filter.matches(f)));
        if has {
            if slot != app.current {
                select_profile(app, slot);
                app.status = Some(Status {
                    text: format!("search continued in {}", app.slots[slot].title()),
                    error: false,
                });
            } else {
                app.status = Some(Status {
                    text: "search wrapped around".into(),
                    error: false,
                });
            }
            jump_row(app, !forward);
            return;
        }
    }
    app.status = Some(Status {
        text: "no finding matches the search".into(),
        error: true,
    });
}

/// The wheel scrolls the detail when the pointer is over it, else moves
/// through the rows of the current tab.
fn wheel(app: &mut App, down: bool, column: u16, row: u16) {
    if layout::over_detail(app, column, row) {
        let max = layout::max_detail_scroll(app);
        app.detail_scroll = if down {
            app.detail_scroll.saturating_add(3).min(max)
        } else {
            app.detail_scroll.saturating_sub(3)
        };
    } else {
        step_row(app, down);
    }
}

/// A click on a tab's name shows it; a click on a row of the profiles or
/// findings list selects it.
fn click(app: &mut App, column: u16, row: u16) {
    if let Some(tab) = layout::tab_at(app, column, row) {
        set_tab(app, tab);
        return;
    }
    match layout::row_at(app, column, row) {
        Some(layout::Hit::Profile(i)) => {
            select_profile(app, i);
        }
        Some(layout::Hit::Finding(k)) => {
            if let Some(nav) = app.nav_mut() {
                nav.cursor = k;
            }
            app.detail_scroll = 0;
        }
        Some(layout::Hit::Area(a)) => {
            if let Some(nav) = app.nav_mut() {
                nav.area = a;
                nav.cursor = 0;
            }
            app.detail_scroll = 0;
        }
        None => {}
    }
}

/// Move one row in the current tab. In the findings tab the walk continues
/// into the next (or previous) area that shows findings.
fn step_row(app: &mut App, forward: bool) {
    app.detail_scroll = 0;
    match app.tab {
        Tab::Profiles => {
            let shown = app.shown_profiles();
            let to = match shown.iter().position(|&i| i == app.current) {
                Some(at) => shown.get(step(at, shown.len(), forward)),
                None => shown.first(),
            };
            if let Some(&to) = to {
                select_profile(app, to);
            }
        }
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
        Tab::Profiles => {
            let shown = app.shown_profiles();
            let to = if last { shown.last() } else { shown.first() };
            if let Some(&to) = to {
                select_profile(app, to);
            }
        }
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

/// Make slot `i` the current profile.
fn select_profile(app: &mut App, i: usize) {
    if i < app.slots.len() && i != app.current {
        app.current = i;
        app.detail_scroll = 0;
        app.zoom = false;
        clamp(app, None);
    }
}

/// After the profiles filter changed: keep the current profile if listed,
/// else select the first one listed.
fn select_shown_profile(app: &mut App) {
    let shown = app.shown_profiles();
    if !shown.contains(&app.current) {
        if let Some(&first) = shown.first() {
            select_profile(app, first);
        }
    }
}

/// After an export was written (or failed) at `path`.
fn exported(app: &mut App, path: &Path, result: Result<(), String>) {
    let shown = display_export_path(&app.export_dir, path);
    let Some(report) = app.report() else {
        return;
    };
    app.status = Some(match result {
        Ok(()) => Status {
            text: format!(
                "exported all {} and {} to {shown}",
                plural(report.issues.len(), "finding"),
                plural(report.runtime_checks.len(), "runtime check")
            ),
            error: false,
        },
        Err(e) => Status {
            text: format!(
                "export to {shown} failed: {}",
                isolint_core::sanitize::neutralize(&e)
            ),
            error: true,
        },
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dashboard::effects::{self, step};
    use crate::dashboard::load::{CatalogSource, Source};
    use crate::dashboard::model::{export_note, mount_order};
    use isolint_core::render::json;
    use isolint_core::Date;
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
        let app = effects::open(
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

    /// Two profiles, opened on the findings of the first.
    fn workshop() -> App {
        let mut app = effects::open(
            vec![
                Source::File(fixture("workshop.json")),
                Source::File(fixture("workshop-fixed.json")),
            ],
            CatalogSource::Embedded,
            today(),
            PathBuf::from("."),
        );
        assert_eq!(app.tab, Tab::Profiles, "several profiles open on the list");
        step(&mut app, Msg::Activate);
        app
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
            let app = effects::open(
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
            step(&mut app, Msg::Down);
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
            step(&mut app, Msg::Up);
        }
        assert_eq!(app.selected_issue(), flat.first().copied());
        step(&mut app, Msg::Bottom);
        assert_eq!(app.selected_issue(), flat.last().copied());
        step(&mut app, Msg::Top);
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
        step(&mut app, Msg::Down);
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
            step(&mut app, Msg::NextArea);
        }
        assert_eq!(app.nav().area, Area::ALL.len() - 1);
        for _ in 0..20 {
            step(&mut app, Msg::PrevArea);
        }
        assert_eq!(app.nav().area, 0);
    }

    #[test]
    fn selection_is_clamped_when_a_filter_hides_it() {
        let (_d, mut app) = app_on(&multi_area_profile());
        step(&mut app, Msg::Bottom);
        let last = app.selected_issue().unwrap();
        let report = app.report().unwrap();
        let last_rule = report.issues[last].rule;
        // A query matching nothing leaves nothing selected, without panicking.
        step(&mut app, Msg::StartSearch);
        for c in "zzz-no-such-thing".chars() {
            step(&mut app, Msg::SearchChar(c));
        }
        assert_eq!(app.grouped().unwrap().shown, 0);
        assert_eq!(app.selected_issue(), None);
        step(&mut app, Msg::SearchCancel);
        assert_eq!(app.filter.query, "");
        assert_eq!(app.mode, Mode::Normal);
        assert_eq!(
            app.selected_issue(),
            Some(last),
            "cancelling restores the selection"
        );
        // Searching for a finding that is shown keeps it selected.
        step(&mut app, Msg::StartSearch);
        for c in last_rule.chars() {
            step(&mut app, Msg::SearchChar(c));
        }
        step(&mut app, Msg::SearchAccept);
        assert_eq!(app.filter.query, last_rule);
        assert_eq!(
            app.selected_issue(),
            Some(last),
            "still shown, so still selected"
        );
        // Raising the severity floor to critical hides non-critical findings; the cursor stays valid.
        while app.filter.min_severity != isolint_core::Severity::Critical {
            step(&mut app, Msg::CycleSeverity);
        }
        let g = app.grouped().unwrap();
        let nav = app.nav();
        match g.groups[nav.area].shown.len() {
            0 => assert_eq!(app.selected_issue(), None),
            n => assert!(nav.cursor < n),
        }
        step(&mut app, Msg::ClearFilter);
        assert_eq!(app.filter, Filter::default());
    }

    #[test]
    fn cursor_clamps_to_the_new_last_item_when_an_area_shrinks() {
        // Two unknown fields in the profile area; select the second, then hide it by search.
        let (_d, mut app) = app_on(&multi_area_profile());
        let profile_area = Area::ALL.iter().position(|a| *a == Area::Profile).unwrap();
        while app.nav().area != profile_area {
            step(&mut app, Msg::NextArea);
        }
        let shown = app.grouped().unwrap().groups[profile_area].shown.clone();
        assert!(shown.len() >= 2, "{shown:?}");
        step(&mut app, Msg::Bottom);
        assert_eq!(app.nav().area, profile_area);
        step(&mut app, Msg::StartSearch);
        for c in "bogus_a".chars() {
            step(&mut app, Msg::SearchChar(c));
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
        for expect in [
            Tab::Mounts,
            Tab::Checks,
            Tab::Rules,
            Tab::Profiles,
            Tab::Findings,
        ] {
            step(&mut app, Msg::NextTab);
            assert_eq!(app.tab, expect);
        }
        step(&mut app, Msg::PrevTab);
        assert_eq!(app.tab, Tab::Profiles);
        step(&mut app, Msg::PrevTab);
        assert_eq!(app.tab, Tab::Rules);
        for _ in 0..1000 {
            step(&mut app, Msg::Down);
        }
        assert_eq!(app.rule, app.rules.len() - 1);
        step(&mut app, Msg::ShowTab(Tab::Mounts));
        let mounts = app.report().unwrap().mounts.len();
        for _ in 0..10 {
            step(&mut app, Msg::Down);
        }
        assert_eq!(app.nav().mount, mounts - 1);
        step(&mut app, Msg::Top);
        assert_eq!(app.nav().mount, 0);
        step(&mut app, Msg::ShowTab(Tab::Checks));
        step(&mut app, Msg::Bottom);
        assert_eq!(
            app.nav().check,
            app.report().unwrap().runtime_checks.len().saturating_sub(1)
        );
        // Search stays in the tab and searches its list.
        step(&mut app, Msg::StartSearch);
        assert_eq!(app.tab, Tab::Checks);
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

    /// `n` walks the matches of the search in this profile, then goes on
    /// to the next profile that has one and wraps, as in less and vim; it
    /// never lands on a finding the search does not match.
    #[test]
    fn n_and_shift_n_move_through_search_matches() {
        let mut app = workshop();
        step(&mut app, Msg::NextMatch);
        assert!(app
            .status
            .as_ref()
            .is_some_and(|s| s.text.contains("no search")));
        step(&mut app, Msg::StartSearch);
        // ISO rules fire in both profiles (the fixed one keeps ISO006).
        for c in "iso0".chars() {
            step(&mut app, Msg::SearchChar(c));
        }
        step(&mut app, Msg::SearchAccept);
        step(&mut app, Msg::Top);
        let matches = |a: &App| {
            a.slot()
                .and_then(|s| s.outcome.as_ref().ok())
                .map_or(0, |r| {
                    r.issues.iter().filter(|f| a.filter.matches(f)).count()
                })
        };
        let in_first = matches(&app);
        assert!(in_first >= 2, "the search matches several findings");
        let mut seen = Vec::new();
        for _ in 0..in_first + 2 {
            let (slot, i) = (app.current, app.selected_issue().unwrap());
            let f = &app.report().unwrap().issues[i];
            assert!(
                app.filter.matches(f),
                "n stopped on a finding the search does not match"
            );
            seen.push((slot, i));
            step(&mut app, Msg::NextMatch);
        }
        assert!(
            seen[..in_first].iter().all(|(s, _)| *s == seen[0].0),
            "{seen:?}"
        );
        assert_ne!(
            seen[in_first].0, seen[0].0,
            "after the last match: the next profile"
        );
        let here = (app.current, app.selected_issue());
        step(&mut app, Msg::NextMatch);
        step(&mut app, Msg::PrevMatch);
        assert_eq!((app.current, app.selected_issue()), here, "N undoes n");
    }

    /// `/` in the mounts, plan and rules tabs finds rows of that list, as
    /// less does: the cursor moves to the first match, n and N go on
    /// (wrapping), Esc puts the cursor back. It hides no row.
    #[test]
    fn slash_searches_what_each_tab_lists() {
        let mut app = workshop();
        for (tab, query) in [
            (Tab::Mounts, "docker"),
            (Tab::Rules, "socket"),
            (Tab::Checks, "aws"),
        ] {
            step(&mut app, Msg::ShowTab(tab));
            let rows = app.list_rows().unwrap();
            let hits: Vec<usize> = (0..rows.len())
                .filter(|&i| rows[i].contains(query))
                .collect();
            assert!(!hits.is_empty(), "{tab:?}: {query} matches a row");
            let start = app.list_cursor();
            step(&mut app, Msg::StartSearch);
            assert_eq!(app.tab, tab, "/ stays in the tab");
            for c in query.chars() {
                step(&mut app, Msg::SearchChar(c));
            }
            assert!(hits.contains(&app.list_cursor()), "{tab:?}: on a match");
            step(&mut app, Msg::SearchCancel);
            assert_eq!(
                app.list_cursor(),
                start,
                "{tab:?}: Esc puts the cursor back"
            );
            step(&mut app, Msg::StartSearch);
            for c in query.chars() {
                step(&mut app, Msg::SearchChar(c));
            }
            step(&mut app, Msg::SearchAccept);
            let mut seen = Vec::new();
            for _ in 0..hits.len() {
                seen.push(app.list_cursor());
                step(&mut app, Msg::NextMatch);
            }
            seen.sort_unstable();
            assert_eq!(seen, hits, "{tab:?}: n visits every match once");
            assert_eq!(app.list_rows().unwrap().len(), rows.len(), "nothing hidden");
        }
    }

    /// `b` keeps only blocking findings, and again shows all.
    #[test]
    fn b_toggles_the_blocking_only_filter() {
        let mut app = workshop();
        step(&mut app, Msg::BlockingOnly);
        let g = app.grouped().unwrap();
        let r = app.report().unwrap();
        let shown: Vec<_> = g.groups.iter().flat_map(|a| a.shown.iter()).collect();
        assert!(!shown.is_empty());
        assert!(shown.iter().all(|&&i| r.issues[i].severity.blocks()));
        step(&mut app, Msg::BlockingOnly);
        assert_eq!(app.filter, Filter::default());
    }

    /// The wheel moves through rows, or scrolls the detail under the
    /// pointer; a click on a tab shows it and a click on a row selects it.
    #[test]
    fn the_mouse_scrolls_and_selects() {
        let mut app = workshop();
        step(&mut app, Msg::Resize(80, 24));
        let first = app.selected_issue();
        step(
            &mut app,
            Msg::Wheel {
                down: true,
                column: 10,
                row: 6,
            },
        );
        assert_ne!(
            app.selected_issue(),
            first,
            "the wheel over the list moves a row"
        );
        // Over the detail (rows 12..20 at 80x24): it scrolls, the selection stays.
        let sel = app.selected_issue();
        step(
            &mut app,
            Msg::Wheel {
                down: true,
                column: 10,
                row: 14,
            },
        );
        assert_eq!(app.selected_issue(), sel);
        assert!(app.detail_scroll > 0 || layout::max_detail_scroll(&app) == 0);
        // The first list row is at y 5 (identity, banner, counts, tabs, border).
        step(&mut app, Msg::Click { column: 10, row: 5 });
        assert_eq!(app.nav().cursor, 0, "a click on the first row selects it");
        step(&mut app, Msg::Click { column: 3, row: 3 });
        assert_eq!(
            app.tab,
            Tab::Profiles,
            "a click on the tab bar's first name"
        );
        step(&mut app, Msg::Click { column: 10, row: 7 });
        assert_eq!(app.current, 1, "a click on the second profile row");
    }

    #[test]
    fn profiles_switch_and_keep_their_own_selection() {
        let mut app = workshop();
        step(&mut app, Msg::Bottom);
        let nav0 = app.nav();
        step(&mut app, Msg::NextProfile);
        assert_eq!(app.current, 1);
        assert_eq!(
            app.slot().unwrap().name,
            load::display_path(&fixture("workshop-fixed.json"))
        );
        step(&mut app, Msg::NextProfile);
        assert_eq!(app.current, 0);
        assert_eq!(app.nav(), nav0);
        step(&mut app, Msg::PrevProfile);
        assert_eq!(app.current, 1);
    }

    #[test]
    fn help_mode_swallows_navigation_and_closes() {
        let mut app = workshop();
        let nav = app.nav();
        step(&mut app, Msg::ToggleHelp);
        assert_eq!(app.mode, Mode::Help);
        step(&mut app, Msg::Down);
        step(&mut app, Msg::NextTab);
        assert_eq!(app.nav(), nav);
        assert_eq!(app.tab, Tab::Findings);
        assert_eq!(app.help_scroll, 1);
        step(&mut app, Msg::ToggleHelp);
        assert_eq!(app.mode, Mode::Normal);
        assert!(!app.quit);
        step(&mut app, Msg::Quit);
        assert!(app.quit);
    }

    #[test]
    fn detail_and_help_scrolling_stop_at_the_end() {
        let mut app = workshop();
        step(&mut app, Msg::Resize(80, 24));
        for _ in 0..100 {
            step(&mut app, Msg::DetailDown);
        }
        let max = layout::max_detail_scroll(&app);
        assert!(
            max > 0,
            "the first workshop finding's detail overflows at 80x24"
        );
        assert_eq!(app.detail_scroll, max);
        step(&mut app, Msg::DetailUp);
        assert_eq!(
            app.detail_scroll,
            max.saturating_sub(layout::detail_page(&app)),
            "one PgUp moves back a page"
        );
        step(&mut app, Msg::Resize(200, 80));
        assert!(app.detail_scroll <= layout::max_detail_scroll(&app));
        step(&mut app, Msg::Resize(80, 24));
        step(&mut app, Msg::ToggleHelp);
        for _ in 0..100 {
            step(&mut app, Msg::Down);
        }
        assert_eq!(app.help_scroll, layout::max_help_scroll(&app));
        assert!(app.help_scroll > 0, "the help overflows at 80x24");
    }

    #[test]
    fn resize_is_recorded_and_keeps_the_selection() {
        let mut app = workshop();
        step(&mut app, Msg::Down);
        let sel = app.selected_issue();
        step(&mut app, Msg::Resize(20, 5));
        assert_eq!(app.size, (20, 5));
        assert_eq!(app.selected_issue(), sel);
    }

    #[test]
    fn export_writes_every_finding_whatever_the_filter() {
        let (dir, mut app) = app_on(&multi_area_profile());
        let total = app.report().unwrap().issues.len();
        step(&mut app, Msg::StartSearch);
        for c in "bogus_b".chars() {
            step(&mut app, Msg::SearchChar(c));
        }
        step(&mut app, Msg::SearchAccept);
        while app.filter.min_severity != isolint_core::Severity::Critical {
            step(&mut app, Msg::CycleSeverity);
        }
        step(&mut app, Msg::Export);
        assert_eq!(app.mode, Mode::Prompt, "the export asks where first");
        assert!(app.status.is_none());
        step(&mut app, Msg::PromptAccept);
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

    /// The prompt offers the default path, writes where the reader typed,
    /// writes nothing when cancelled, and warns inside a git work tree.
    #[test]
    fn export_asks_where_and_says_when_it_adds_to_a_repository() {
        let (dir, mut app) = app_on(&multi_area_profile());
        step(&mut app, Msg::Export);
        assert!(app.prompt.ends_with("p.findings.json"), "{}", app.prompt);
        step(&mut app, Msg::PromptCancel);
        assert_eq!(app.mode, Mode::Normal);
        assert!(!dir.path().join("p.findings.json").exists());
        assert!(app
            .status
            .as_ref()
            .unwrap()
            .text
            .contains("nothing written"));

        fs::create_dir(dir.path().join(".git")).unwrap();
        fs::create_dir(dir.path().join("out")).unwrap();
        app.export_repo = effects::work_tree(dir.path());
        step(&mut app, Msg::Export);
        app.prompt.clear();
        for c in "out/mine.json".chars() {
            step(&mut app, Msg::PromptChar(c));
        }
        let note = export_note(&app).expect("inside the work tree");
        assert!(note.contains("untracked"), "{note}");
        step(&mut app, Msg::PromptAccept);
        assert!(dir.path().join("out/mine.json").exists());
        assert!(!app.status.as_ref().unwrap().error);
        // A path out of the work tree carries no warning.
        step(&mut app, Msg::Export);
        app.prompt = "../../elsewhere.json".into();
        assert_eq!(export_note(&app), None);
        step(&mut app, Msg::PromptCancel);
    }

    /// issue 21 item 2 in the dashboard: an export typed onto a profile it
    /// shows or onto its label catalog, however the path reaches the file,
    /// is refused and leaves the file as it was.
    #[test]
    fn export_onto_an_input_is_refused_however_it_is_named() {
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        let profile = d.join("p.json");
        fs::write(&profile, multi_area_profile()).unwrap();
        let catalog = d.join("labels.json");
        fs::copy(crate::fixtures::path("labels/workshop.json"), &catalog).unwrap();
        std::os::unix::fs::symlink("p.json", d.join("link.json")).unwrap();
        fs::hard_link(&profile, d.join("second.json")).unwrap();
        std::os::unix::fs::symlink("labels.json", d.join("cat-link.json")).unwrap();
        fs::create_dir(d.join("sub")).unwrap();
        let mut app = effects::open(
            vec![Source::File(profile.clone())],
            CatalogSource::File(catalog.clone()),
            today(),
            d.to_path_buf(),
        );
        let before = (fs::read(&profile).unwrap(), fs::read(&catalog).unwrap());
        for typed in [
            "p.json",
            "./p.json",
            "sub/../p.json",
            "link.json",
            "second.json",
            "labels.json",
            "cat-link.json",
        ] {
            step(&mut app, Msg::Export);
            app.prompt = typed.into();
            step(&mut app, Msg::PromptAccept);
            let status = app.status.clone().unwrap();
            assert!(status.error, "{typed}: {}", status.text);
            assert!(
                status.text.contains("nothing written"),
                "{typed}: {}",
                status.text
            );
            assert_eq!(
                (fs::read(&profile).unwrap(), fs::read(&catalog).unwrap()),
                before,
                "{typed}"
            );
        }
        // Any other name is written.
        step(&mut app, Msg::Export);
        app.prompt = "out.json".into();
        step(&mut app, Msg::PromptAccept);
        assert!(!app.status.clone().unwrap().error);
        assert!(d.join("out.json").exists());
    }

    /// `o` asks the loop to run the editor at the finding's place: the
    /// original file's line and column for an imported profile.
    #[test]
    fn the_editor_opens_at_the_finding_in_the_original_file() {
        let pod = crate::fixtures::path("import/kubernetes/pod-home.yaml");
        let mut app = effects::open(
            vec![Source::File(pod.clone())],
            CatalogSource::Embedded,
            today(),
            PathBuf::from("."),
        );
        app.editor = None;
        assert!(update(&mut app, Msg::OpenEditor).is_empty());
        assert!(app.status.as_ref().unwrap().text.contains("$EDITOR"));
        app.editor = Some(vec!["vim".into()]);
        let r = app.report().unwrap();
        let f = &r.issues[app.selected_issue().unwrap()];
        let o = f.origin.clone().unwrap();
        let want = Effect::OpenEditor {
            editor: vec!["vim".into()],
            file: pod.clone(),
            line: o.line,
            column: o.column,
        };
        assert_eq!(
            update(&mut app, Msg::OpenEditor),
            std::slice::from_ref(&want)
        );
        // Enter drills in (the detail fills the body) and opens nothing;
        // Esc backs out.
        assert!(
            update(&mut app, Msg::Activate).is_empty(),
            "Enter drills in"
        );
        assert!(app.zoom);
        update(&mut app, Msg::ClearFilter);
        assert!(!app.zoom, "Esc backs out of the drilled-in view");
        // The built-in profile has no file: say so, run nothing.
        let mut built_in = effects::open(
            vec![Source::Embedded],
            CatalogSource::Embedded,
            today(),
            PathBuf::from("."),
        );
        built_in.editor = Some(vec!["vim".into()]);
        assert!(update(&mut built_in, Msg::OpenEditor).is_empty());
        assert!(built_in.status.as_ref().unwrap().error);
    }

    /// A file that does not parse opens at the error's place.
    #[test]
    fn the_editor_opens_a_broken_file_at_the_error() {
        let (dir, mut app) = app_on("{\n  \"name\": \"x\",\n  oops\n}\n");
        app.editor = Some(vec!["hx".into()]);
        let fx = update(&mut app, Msg::OpenEditor);
        assert_eq!(
            fx,
            [Effect::OpenEditor {
                editor: vec!["hx".into()],
                file: dir.path().join("p.json"),
                line: 3,
                column: 3,
            }]
        );
    }

    #[test]
    fn export_of_an_unreadable_profile_says_so() {
        let (dir, mut app) = app_on("{ not json");
        step(&mut app, Msg::Export);
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
        step(&mut app, Msg::FileChanged(0));
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
            step(&mut app, m);
        }
        fs::write(&path, multi_area_profile()).unwrap();
        step(&mut app, Msg::FileChanged(0));
        assert_eq!(app.report().unwrap().issues.len(), before);
        step(&mut app, Msg::Reload);
        assert!(!app.status.as_ref().unwrap().error);
    }

    #[test]
    fn reload_keeps_the_selected_finding_when_it_still_exists() {
        let (dir, mut app) = app_on(&multi_area_profile());
        step(&mut app, Msg::Bottom);
        let f = app.report().unwrap().issues[app.selected_issue().unwrap()].clone();
        // Add a finding that sorts before it: the index changes, the selection follows.
        let mut v: serde_json::Value = serde_json::from_str(&multi_area_profile()).unwrap();
        v["aaa_bogus"] = serde_json::json!(0);
        fs::write(
            dir.path().join("p.json"),
            serde_json::to_string_pretty(&v).unwrap(),
        )
        .unwrap();
        step(&mut app, Msg::Reload);
        let now = &app.report().unwrap().issues[app.selected_issue().unwrap()];
        assert_eq!((now.rule, &now.pointer), (f.rule, &f.pointer));
    }

    #[test]
    fn selection_survives_a_save_that_briefly_breaks_the_file() {
        let (dir, mut app) = app_on(&multi_area_profile());
        step(&mut app, Msg::Bottom);
        let f = app.report().unwrap().issues[app.selected_issue().unwrap()].clone();
        let path = dir.path().join("p.json");
        fs::write(&path, "{").unwrap();
        step(&mut app, Msg::FileChanged(0));
        assert!(app.report().is_none());
        fs::write(&path, multi_area_profile()).unwrap();
        step(&mut app, Msg::FileChanged(0));
        let now = &app.report().unwrap().issues[app.selected_issue().unwrap()];
        assert_eq!((now.rule, &now.pointer), (f.rule, &f.pointer));
    }

    /// A file that gains a service on disk gains a profile; the open one
    /// stays open (by name), and a file after it keeps its own slot.
    #[test]
    fn reloading_a_file_of_several_profiles_keeps_the_open_one() {
        let dir = tempfile::tempdir().unwrap();
        let compose = dir.path().join("compose.yaml");
        let two =
            "services:\n  a:\n    image: busybox\n  b:\n    image: busybox\n    privileged: true\n";
        fs::write(&compose, two).unwrap();
        let mut app = effects::open(
            vec![
                Source::File(compose.clone()),
                Source::File(fixture("workshop-fixed.json")),
            ],
            CatalogSource::Embedded,
            today(),
            dir.path().to_path_buf(),
        );
        assert_eq!(app.slots.len(), 3);
        step(&mut app, Msg::Down);
        let open = app.slot().unwrap().unit.clone();
        let at = app.position().0;
        fs::write(
            &compose,
            format!("{two}  c:\n    image: busybox\n    privileged: true\n"),
        )
        .unwrap();
        step(&mut app, Msg::FileChanged(0));
        assert_eq!(app.slots.len(), 4);
        assert_eq!(app.slot().unwrap().unit, open);
        assert_eq!(app.position().1, 4);
        assert!(app.position().0 >= at.min(2));
        assert!(app.slots[3].name.ends_with("workshop-fixed.json"));
        fs::write(&compose, "services: [").unwrap();
        step(&mut app, Msg::FileChanged(1));
        assert_eq!(app.slots.len(), 2, "a broken file is one error slot");
        assert!(app.slots[0].outcome.is_err());
        assert!(app.status.as_ref().unwrap().error);
    }

    #[test]
    fn a_broken_catalog_is_an_error_panel_for_every_profile() {
        let dir = tempfile::tempdir().unwrap();
        let labels = dir.path().join("labels.json");
        fs::write(&labels, "[1,").unwrap();
        let app = effects::open(
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
