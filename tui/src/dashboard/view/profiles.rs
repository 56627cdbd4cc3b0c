//! The profiles tab (k9s style): every audited profile of every file.

use super::super::content::safe;
use super::super::model::App;
use super::super::text::{self, truncate, truncate_left};
use super::super::theme;
use super::{column_widths, fitted_row, pane, plural};
use isolint_core::Severity;
use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Rect};
use ratatui::text::Span;
use ratatui::widgets::{HighlightSpacing, Row, StatefulWidget, Table, TableState};

/// Every audited profile (k9s style): verdict, counts by severity, file
/// and the part of the file; not eligible first; the current one selected.
pub(crate) fn render_profiles_tab(app: &App, area: Rect, buf: &mut Buffer) {
    let shown = app.shown_profiles();
    // The directory every file shares is said once, in the title, so the
    // rows keep what tells them apart: the file and the profile in it.
    let dir = common_dir(app.slots.iter().map(|s| s.name.as_str()));
    let widths = [
        Constraint::Length(2),
        Constraint::Length(4),
        Constraint::Length(4),
        Constraint::Length(4),
        Constraint::Length(4),
        Constraint::Length(4),
        Constraint::Fill(1),
    ];
    let cols = column_widths(&widths, area);
    let name_w = cols.last().copied().unwrap_or(20);
    let rows: Vec<Row> = shown
        .iter()
        .filter_map(|&i| app.slots.get(i))
        .map(|slot| {
            // A mark, not a word: the title counts the verdicts, and the
            // name column needs the width.
            let (verdict, style) = match &slot.outcome {
                Ok(r) if r.verdict == isolint_core::Verdict::NotEligible => {
                    ("✗", theme::verdict(r.verdict))
                }
                Ok(r) => ("✓", theme::verdict(r.verdict)),
                Err(_) => ("?", theme::input_error()),
            };
            let mut cells = vec![Span::styled(verdict, style)];
            for sev in Severity::ALL {
                let n = slot.outcome.as_ref().map_or(0, |r| r.summary.count(sev));
                cells.push(if n > 0 {
                    Span::styled(n.to_string(), theme::severity(sev))
                } else {
                    Span::styled("·", theme::dim())
                });
            }
            // Cut from the left: the end of `file#container` tells
            // profiles apart.
            cells.push(Span::raw(fit_name(&slot.name, &slot.unit, dir, name_w)));
            fitted_row(cells, &cols)
        })
        .collect();
    let mut header = vec![String::new()];
    header.extend(
        Severity::ALL
            .iter()
            .map(|s| theme::severity_tag(*s).to_string()),
    );
    header.push("file#profile".to_string());
    let blocking = app.slots.iter().filter(|s| s.rank() == 0).count();
    let failed = app.slots.iter().filter(|s| s.outcome.is_err()).count();
    let mut title = format!("Profiles · {}", plural(app.slots.len(), "profile"));
    if blocking > 0 {
        title.push_str(&format!(" · ✗ {blocking} not eligible"));
    }
    if failed > 0 {
        title.push_str(&format!(" · ? {failed} without a verdict"));
    }
    let eligible = app.slots.len() - blocking - failed;
    if eligible > 0 {
        title.push_str(&format!(" · ✓ {eligible} eligible"));
    }
    if !dir.is_empty() {
        title.push_str(&format!(" · in {}", truncate_left(&safe(dir), 30)));
    }
    if !app.profile_query.is_empty() {
        title.push_str(&format!(
            " · filter \"{}\": {} shown",
            truncate(&safe(&app.profile_query), 20),
            shown.len()
        ));
    }
    let table = Table::new(rows, widths)
        .header(Row::new(header).style(theme::label()))
        .block(pane(title))
        .highlight_symbol("› ")
        .highlight_spacing(HighlightSpacing::Always)
        .row_highlight_style(theme::selected());
    let mut state =
        TableState::default().with_selected(shown.iter().position(|&i| i == app.current));
    StatefulWidget::render(table, area, buf, &mut state);
}

/// `file#profile` in `width` columns: the shared directory left out, then
/// the rest of the directory, then the start of the profile's name, so the
/// file's own name and the end of the profile's stay in view.
fn fit_name(file: &str, unit: &str, dir: &str, width: usize) -> String {
    let file = safe(file.strip_prefix(dir).unwrap_or(file));
    let unit = safe(unit);
    let join = |f: &str, u: &str| {
        if u.is_empty() {
            f.to_string()
        } else {
            format!("{f}#{u}")
        }
    };
    let whole = join(&file, &unit);
    if text::width(&whole) <= width {
        return whole;
    }
    let base = file.rsplit('/').next().unwrap_or(&file);
    let short = join(&format!("…/{base}"), &unit);
    if text::width(&short) <= width || unit.is_empty() {
        return truncate_left(&short, width);
    }
    let lead = format!("{base}#");
    let room = width.saturating_sub(text::width(&lead));
    if room >= 6 {
        format!("{lead}{}", truncate_left(&unit, room))
    } else {
        truncate_left(&whole, width)
    }
}

/// The directory part (ending in `/`) that every name starts with; empty
/// when they share none, or when there is a single name (its directory is
/// in the header already).
fn common_dir<'a>(mut names: impl Iterator<Item = &'a str>) -> &'a str {
    let Some(first) = names.next() else {
        return "";
    };
    // Never the whole of a name: a row must keep something to show.
    let mut len = first[..first.len().saturating_sub(1)]
        .rfind('/')
        .map_or(0, |i| i + 1);
    let mut more = false;
    for n in names {
        more = true;
        while len > 0 && !(n.len() > len && n.as_bytes()[..len] == first.as_bytes()[..len]) {
            len = first[..len - 1].rfind('/').map_or(0, |i| i + 1);
        }
    }
    if more {
        &first[..len]
    } else {
        ""
    }
}

#[cfg(test)]
mod tests {
    use super::{common_dir, fit_name};

    /// The file's own name stays in view at every width it fits in, and
    /// the end of the profile's name (which tells containers apart).
    #[test]
    fn names_keep_the_file_and_the_end_of_the_profile() {
        let file = "../fixtures/import/kubernetes/deployment-host.yaml";
        let unit = "Deployment/builder/build";
        assert_eq!(fit_name(file, unit, "", 80), format!("{file}#{unit}"));
        assert_eq!(
            fit_name(file, unit, "../fixtures/", 64),
            "import/kubernetes/deployment-host.yaml#Deployment/builder/build"
        );
        for w in 28..60 {
            let got = fit_name(file, unit, "../fixtures/", w);
            assert!(super::text::width(&got) <= w, "{w}: {got}");
            assert!(got.contains("deployment-host.yaml#"), "{w}: {got}");
            assert!(got.ends_with("/build"), "{w}: {got}");
        }
        assert_eq!(fit_name("a/b/w.json", "", "a/", 40), "b/w.json");
        assert!(super::text::width(&fit_name(file, unit, "", 8)) <= 8);
    }

    #[test]
    fn the_common_directory_ends_at_a_slash() {
        let cases: &[(&[&str], &str)] = &[
            (&["a/b/x.yaml", "a/b/y.yaml"], "a/b/"),
            (&["a/b/x.yaml", "a/bc/y.yaml"], "a/"),
            (&["a/b/x.yaml", "a/b/x.yaml"], "a/b/"),
            (&["x.yaml", "y.yaml"], ""),
            (&["a/x.yaml", "b/x.yaml"], ""),
            (
                &["../f/p/w.json", "../f/i/k.yaml", "../f/i/c.yaml"],
                "../f/",
            ),
            (&["a/b/x.yaml"], ""),
            (&[], ""),
            (&["a/b/", "a/b/c"], "a/"),
        ];
        for (names, want) in cases {
            assert_eq!(common_dir(names.iter().copied()), *want, "{names:?}");
        }
    }
}
