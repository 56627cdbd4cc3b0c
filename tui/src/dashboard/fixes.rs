//! `f` and `F`: the fix of one finding, or every safe fix of a file,
//! previewed as a masked diff and, once confirmed, written atomically.
//! Core's [`fix::fix_text`] makes the edits and proves them by auditing
//! the fixed text; this module reads the file, hands core the dashboard's
//! own audit (every profile of an imported file, with the run's
//! `--runner` overlay, as [`load::audit_text`] audits it) and keeps only
//! masked text for the screen. Called from [`super::effects`].

use std::cell::RefCell;
use std::path::PathBuf;

use isolint_core::finding::Finding;
use isolint_core::fix::{self, Remedy, Selection, Target};
use isolint_core::sanitize::neutralize;
use isolint_core::{secrets, AuditOptions, Report};

use super::load::{self, Source};
use super::model::{App, FixPreview};

/// Preview the fix of `target` (a finding of slot `slot`), or with `None`
/// every safe fix of the slot's file. `Err`: why nothing can be previewed
/// (display-safe); a finding without a fix is a preview saying why.
pub fn preview(app: &App, slot: usize, target: Option<Target>) -> Result<FixPreview, String> {
    let slot = app.slots.get(slot).ok_or("that profile is gone")?;
    let labels = app
        .labels
        .as_ref()
        .map_err(|e| format!("no fix without a usable label catalog: {}", e.headline()))?;
    let (file, text, name) = match &slot.source {
        Source::Embedded => (
            None,
            isolint_core::WORKSHOP_PROFILE.to_string(),
            "workshop.json".to_string(),
        ),
        Source::File(p) => {
            use crate::files::input::{self, Origin};
            let bytes = input::read(&Origin::File(p.clone()), &slot.name)
                .map_err(|f| neutralize(&f.to_string()).into_owned())?;
            let text = String::from_utf8(bytes)
                .map_err(|_| format!("{}: input is not valid UTF-8", slot.name))?;
            (Some(p.clone()), text, p.to_string_lossy().into_owned())
        }
        Source::Unreadable(..) => return Err(format!("{}: could not be read", slot.name)),
    };
    let options = AuditOptions { today: app.today };
    let mut preview = FixPreview {
        file,
        name: slot.name.clone(),
        target: target.as_ref().map(|t| (t.rule.clone(), t.pointer.clone())),
        applied: Vec::new(),
        unsafe_skipped: Vec::new(),
        withdrawn: Vec::new(),
        none: None,
        diff: String::new(),
        findings: (0, 0),
        original: text.clone(),
        fixed: text.clone(),
        scroll: 0,
    };
    if let Some(t) = &target {
        if let Some(why) = no_fix(t) {
            preview.none = Some(why);
            return Ok(preview);
        }
    }
    // The masked text of the first and the last text audited: the diff
    // needs no audit of its own.
    let first: RefCell<Option<String>> = RefCell::new(None);
    let last: RefCell<Option<(String, String)>> = RefCell::new(None);
    let audit = |t: &str| -> Result<Vec<(String, Vec<Finding>)>, String> {
        let reports = load::audit_text(&app.context, t, &name, labels, &options)?;
        let masked = masked(&reports, t);
        first.borrow_mut().get_or_insert_with(|| masked.clone());
        *last.borrow_mut() = Some((t.to_string(), masked));
        Ok(reports.into_iter().map(|(n, r)| (n, r.issues)).collect())
    };
    let format = isolint_core::import::detect(text.as_bytes(), Some(&name));
    // `f` names one finding and shows its applicability before anything
    // is written, so an unsafe fix is made when asked for; `F` makes the
    // safe ones only and lists the rest.
    let selection = Selection {
        unsafe_fixes: target.is_some(),
        rules: Vec::new(),
        findings: target.into_iter().collect(),
    };
    let outcome = match fix::fix_text(&text, format, &selection, &audit) {
        Ok(o) => o,
        Err(e) => {
            preview.none = Some(shown(&e));
            return Ok(preview);
        }
    };
    let before = first.borrow_mut().take().unwrap_or_default();
    let after = match last.borrow_mut().take() {
        Some((t, masked)) if t == outcome.fixed => masked,
        _ if outcome.fixed == text => before.clone(),
        _ => {
            let reports = load::audit_text(&app.context, &outcome.fixed, &name, labels, &options)?;
            masked(&reports, &outcome.fixed)
        }
    };
    if !outcome.edits.is_empty() {
        preview.diff = fix::unified_diff(&before, &after, &slot.name);
    }
    preview.findings = (outcome.findings, outcome.remaining.len());
    preview.fixed = outcome.fixed;
    preview.applied = outcome.applied;
    preview.unsafe_skipped = outcome.unsafe_skipped;
    preview.withdrawn = outcome.withdrawn;
    if !preview.changes() && preview.withdrawn.is_empty() {
        preview.none = Some(
            if preview.target.is_some() {
                "core made no fix for this finding"
            } else if preview.unsafe_skipped.is_empty() {
                "no finding of this file has a safe fix"
            } else {
                "every fix of this file is unsafe: select a finding and press f to see one"
            }
            .to_string(),
        );
    }
    Ok(preview)
}

/// Why the finding `t` has no fix, when its rule declares none or its
/// fix does not apply to this finding.
fn no_fix(t: &Target) -> Option<String> {
    match fix::for_rule(&t.rule).map(|f| &f.remedy) {
        None => Some(format!("{} declares no fix", t.rule)),
        Some(Remedy::None(why)) => Some(format!("{} has no fix: {why}", t.rule)),
        Some(Remedy::Fix { plan, summary, .. }) => plan(&t.pointer).is_none().then(|| {
            format!(
                "the fix of {} ({summary}) does not apply to this finding",
                t.rule
            )
        }),
    }
}

/// The masked text of an audited file: the original file of an imported
/// profile, the profile's own text otherwise. A text no report came from
/// is masked as text that did not parse.
fn masked(reports: &[(String, Report)], text: &str) -> String {
    match reports.first() {
        Some((_, r)) => match &r.original {
            Some(o) => o.text.to_string(),
            None => r.source_text.clone(),
        },
        None => secrets::mask_unparsed(text),
    }
}

/// A message from core, safe for the screen: control characters
/// neutralized and credential-shaped tokens scrubbed.
fn shown(s: &str) -> String {
    neutralize(&isolint_core::secrets::scrub_tokens(s)).into_owned()
}

/// Write the previewed fix: only to a regular file named as a profile
/// (not through a link), only while it still holds the previewed text,
/// atomically. The path written, or why nothing was (display-safe).
pub fn write(p: &FixPreview) -> Result<PathBuf, String> {
    let Some(path) = &p.file else {
        return Err(
            "the built-in workshop profile has no file: nothing written \
             (save it and open the copy, or run `isolint fix` on it)"
                .into(),
        );
    };
    crate::files::atomic::refuse_to_write(path, false, &p.name)?;
    // Read as every profile is read: bounded, so a file swapped for a
    // device since the preview is refused, not read without end.
    let now = crate::files::input::read(&crate::files::input::Origin::File(path.clone()), &p.name)
        .map_err(|f| neutralize(&f.to_string()).into_owned())?;
    if now != p.original.as_bytes() {
        return Err(format!(
            "{} changed on disk since the preview: nothing written (press f again)",
            p.name
        ));
    }
    crate::files::atomic::write_atomically(path, p.fixed.as_bytes())
        .map_err(|e| format!("{}: cannot write the fixed file: {e}", p.name))?;
    Ok(path.clone())
}

#[cfg(test)]
mod tests {
    use std::fs;

    use super::super::effects::{self, step};
    use super::super::load::{CatalogSource, Source};
    use super::super::model::{clamp, App, Mode, Msg, Tab};
    use isolint_core::Date;

    const SECRET: &str = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY";

    /// The workshop fixture copied to a temporary file, opened.
    fn open_copy(text: &str, file: &str) -> (tempfile::TempDir, std::path::PathBuf, App) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(file);
        fs::write(&path, text).unwrap();
        let app = effects::open(
            vec![Source::File(path.clone())],
            CatalogSource::Embedded,
            Date::parse("2026-11-29"),
            dir.path().to_path_buf(),
        );
        (dir, path, app)
    }

    fn workshop() -> String {
        fs::read_to_string(crate::fixtures::path("profiles/workshop.json")).unwrap()
    }

    /// Select the first finding of `rule`; false when there is none.
    fn select(app: &mut App, rule: &str) -> bool {
        let Some(k) = app
            .report()
            .and_then(|r| r.issues.iter().position(|f| f.rule == rule))
        else {
            return false;
        };
        clamp(app, Some(k));
        app.selected_issue() == Some(k)
    }

    fn count(app: &App, rule: &str) -> usize {
        app.slots
            .iter()
            .filter_map(|s| s.outcome.as_ref().ok())
            .flat_map(|r| &r.issues)
            .filter(|f| f.rule == rule)
            .count()
    }

    /// `f` then `y` on one finding of each kind: a safe fix, an unsafe
    /// fix (made, labelled unsafe), a rule without a fix (nothing
    /// written, the reason shown), a fix that removes a secret (the diff
    /// masks it).
    #[test]
    fn f_previews_and_y_applies_the_fix_of_the_selected_finding() {
        // (rule, applicability shown, fixed after y)
        let cases = [
            ("PRV002", Some("safe"), true),
            ("PRV005", Some("safe"), true),
            ("MNT004", Some("unsafe"), true),
            ("CRD002", Some("unsafe"), true),
            ("ISO005", None, false),
        ];
        let mut wrong = Vec::new();
        for (rule, applicability, fixed) in cases {
            let (_dir, path, mut app) = open_copy(&workshop(), "p.json");
            app.tab = Tab::Findings;
            assert!(select(&mut app, rule), "{rule}: no finding to select");
            let before = count(&app, rule);
            step(&mut app, Msg::Fix);
            if app.mode != Mode::Fix {
                wrong.push(format!("{rule}: no pane ({:?})", app.status));
                continue;
            }
            let p = app.fix.clone().unwrap();
            let shown = p.applied.first().map(|c| c.applicability.as_str());
            if shown != applicability {
                wrong.push(format!("{rule}: applicability {shown:?}"));
            }
            if p.diff.contains(SECRET) || p.none.as_deref().unwrap_or("").contains(SECRET) {
                wrong.push(format!("{rule}: a secret in the pane"));
            }
            if fixed != p.diff.contains("\n+") {
                wrong.push(format!("{rule}: diff {:?}", p.diff));
            }
            if !fixed && p.none.is_none() {
                wrong.push(format!("{rule}: no reason for no fix"));
            }
            let disk = fs::read_to_string(&path).unwrap();
            step(&mut app, Msg::FixApply);
            let after = fs::read_to_string(&path).unwrap();
            if app.mode != Mode::Normal {
                wrong.push(format!("{rule}: pane still open"));
            }
            match fixed {
                true if after == disk => wrong.push(format!("{rule}: nothing written")),
                true if count(&app, rule) >= before => {
                    wrong.push(format!("{rule}: the finding is still there"))
                }
                false if after != disk => wrong.push(format!("{rule}: written")),
                _ => {}
            }
            let status = app.status.clone().map(|s| s.text).unwrap_or_default();
            if fixed && !status.contains(&format!("fixed {rule}")) {
                wrong.push(format!("{rule}: status {status}"));
            }
        }
        assert!(wrong.is_empty(), "{wrong:#?}");
    }

    /// `F`: every safe fix of the file at once, the unsafe ones listed
    /// and left alone; Esc writes nothing, `y` writes them.
    #[test]
    fn capital_f_makes_only_the_safe_fixes() {
        let (_dir, path, mut app) = open_copy(&workshop(), "p.json");
        let disk = fs::read_to_string(&path).unwrap();
        step(&mut app, Msg::FixAll);
        assert_eq!(app.mode, Mode::Fix, "{:?}", app.status);
        let p = app.fix.clone().unwrap();
        assert!(p.target.is_none());
        assert!(p.applied.len() >= 2, "{:?}", p.applied);
        assert!(p
            .applied
            .iter()
            .all(|c| c.applicability == isolint_core::fix::Applicability::Safe));
        assert!(!p.unsafe_skipped.is_empty());
        assert!(!p.diff.contains(SECRET));
        step(&mut app, Msg::FixCancel);
        assert_eq!(fs::read_to_string(&path).unwrap(), disk, "Esc wrote");
        assert!(app.fix.is_none());
        step(&mut app, Msg::FixAll);
        step(&mut app, Msg::FixApply);
        assert_ne!(fs::read_to_string(&path).unwrap(), disk);
        for c in &p.applied {
            assert_eq!(count(&app, c.rule), 0, "{} remains", c.rule);
        }
        // The unsafe fixes were not made (a safe fix may still clear an
        // unsafe one's finding: a mount made read-only by MNT007 no longer
        // fires MNT009): the engine socket and the secret stay.
        let after = fs::read_to_string(&path).unwrap();
        assert!(after.contains("/var/run/docker.sock") && after.contains(SECRET));
        assert!(count(&app, "MNT004") > 0 && count(&app, "CRD002") > 0);
        let status = app.status.clone().unwrap();
        assert!(!status.error, "{}", status.text);
        assert!(status.text.contains("safe fix"), "{}", status.text);
    }

    /// A file changed between the preview and `y` is not written over.
    #[test]
    fn a_file_changed_since_the_preview_is_not_written() {
        let (_dir, path, mut app) = open_copy(&workshop(), "p.json");
        app.tab = Tab::Findings;
        assert!(select(&mut app, "PRV002"));
        step(&mut app, Msg::Fix);
        assert_eq!(app.mode, Mode::Fix);
        let edited = workshop().replace("parser-tests", "parser-tests-2");
        fs::write(&path, &edited).unwrap();
        step(&mut app, Msg::FixApply);
        assert_eq!(fs::read_to_string(&path).unwrap(), edited);
        let status = app.status.clone().unwrap();
        assert!(
            status.error && status.text.contains("changed on disk"),
            "{status:?}"
        );
    }

    /// The built-in workshop profile previews its fix; `y` writes nothing
    /// and says why.
    #[test]
    fn the_built_in_profile_previews_but_never_writes() {
        let mut app = effects::open(
            vec![Source::Embedded],
            CatalogSource::Embedded,
            Date::parse("2026-11-29"),
            ".".into(),
        );
        app.tab = Tab::Findings;
        assert!(select(&mut app, "PRV002"));
        step(&mut app, Msg::Fix);
        assert_eq!(app.mode, Mode::Fix);
        assert!(app.fix.as_ref().unwrap().diff.contains("\n+"));
        step(&mut app, Msg::FixApply);
        let status = app.status.clone().unwrap();
        assert!(
            status.error && status.text.contains("no file"),
            "{status:?}"
        );
        assert_eq!(count(&app, "PRV002"), 1);
    }

    /// `f` outside the findings tab, or on a file with no verdict, says
    /// what to do instead of opening an empty pane.
    #[test]
    fn f_where_there_is_no_finding_says_so() {
        let (_dir, _path, mut app) = open_copy(&workshop(), "p.json");
        app.tab = Tab::Mounts;
        step(&mut app, Msg::Fix);
        assert_eq!(app.mode, Mode::Normal);
        assert!(app.status.as_ref().unwrap().text.contains("Findings tab"));
        let (_dir, _path, mut app) = open_copy("{ not json", "p.json");
        app.tab = Tab::Findings;
        for m in [Msg::Fix, Msg::FixAll] {
            step(&mut app, m);
            assert_eq!(app.mode, Mode::Normal);
            assert!(app.status.as_ref().unwrap().error);
        }
    }

    /// An imported file: the fix is asked of core with the profile's own
    /// name, and audited per profile. Until core edits the format, the
    /// pane says why there is no fix and nothing is written; once it does,
    /// the pane shows a diff.
    #[test]
    fn an_imported_file_is_previewed_per_profile() {
        // Two containers: two profiles of one file.
        let text = fs::read_to_string(crate::fixtures::path(
            "import/kubernetes/deployment-host.yaml",
        ))
        .unwrap();
        let (_dir, path, mut app) = open_copy(&text, "k.yaml");
        assert!(app.slots.len() > 1);
        assert!(app.slots.iter().all(|s| s.outcome.is_ok()));
        assert!(app.slots.iter().all(|s| !s.profile.is_empty()));
        app.current = app.slots.len() - 1;
        app.tab = Tab::Findings;
        let rule = app
            .report()
            .unwrap()
            .issues
            .first()
            .map(|f| f.rule)
            .unwrap();
        assert!(select(&mut app, rule));
        step(&mut app, Msg::Fix);
        assert_eq!(app.mode, Mode::Fix, "{:?}", app.status);
        let p = app.fix.clone().unwrap();
        assert!(p.none.is_some() || p.changes(), "{p:?}");
        step(&mut app, Msg::FixCancel);
        assert_eq!(fs::read_to_string(&path).unwrap(), text);
    }
}
