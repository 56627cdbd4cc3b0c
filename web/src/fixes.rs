//! The open finding's fix, as the page shows it: core's `fix_text` run on
//! the editor's text for that one finding, its edits as lines of the file
//! (secret values masked), and the one replacement "Apply" makes in the
//! editor so the browser's undo can take it back.
//!
//! Plain Rust like `state`: no DOM. The page shows the edits core made,
//! line by line, rather than a diff computed afresh: the edits are exact
//! already, and a diff algorithm (`similar`, the CLI's) would only find
//! them again at a cost in the page's bytes.

use std::cell::RefCell;

use isolint_core::fix::{self, Applicability, Remedy, TextEdit};
use isolint_core::{import, view_model, AuditOptions};

use crate::state::{audit_text, State};

/// What the detail of the open finding says about fixing it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FixPreview {
    /// A fix, proven by auditing the fixed text again.
    Ready(ReadyFix),
    /// No fix for this finding, and why (core's words).
    None(String),
}

/// A proven fix, ready to apply.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReadyFix {
    pub rule: &'static str,
    pub applicability: Applicability,
    /// What the fix does (core's catalog), lowercase, no final period.
    pub summary: &'static str,
    /// The edited lines, secret values masked.
    pub hunks: Vec<Hunk>,
    /// The one replacement of the editor's text that makes the fix.
    pub splice: Splice,
    /// `splice`'s range in UTF-16 units, as the editor selects it.
    pub select: (u32, u32),
    /// Findings left in the fixed text (this profile and any other of the file).
    pub remaining: usize,
}

/// Replace bytes `start..end` of the editor's text with `text`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Splice {
    pub start: usize,
    pub end: usize,
    pub text: String,
}

impl Splice {
    /// The smallest replacement turning `old` into `new`: what differs
    /// between their common start and common end, on character boundaries.
    pub fn between(old: &str, new: &str) -> Splice {
        let mut start = old
            .bytes()
            .zip(new.bytes())
            .take_while(|(a, b)| a == b)
            .count();
        while !old.is_char_boundary(start) || !new.is_char_boundary(start) {
            start -= 1;
        }
        let room = old.len().min(new.len()) - start;
        let mut common_end = old
            .bytes()
            .rev()
            .zip(new.bytes().rev())
            .take(room)
            .take_while(|(a, b)| a == b)
            .count();
        while !old.is_char_boundary(old.len() - common_end)
            || !new.is_char_boundary(new.len() - common_end)
        {
            common_end -= 1;
        }
        Splice {
            start,
            end: old.len() - common_end,
            text: new[start..new.len() - common_end].to_string(),
        }
    }

    /// `text` with the replacement made.
    pub fn apply(&self, text: &str) -> String {
        format!("{}{}{}", &text[..self.start], self.text, &text[self.end..])
    }

    /// `start` and `end` in UTF-16 code units, as a textarea selects.
    pub fn utf16_range(&self, text: &str) -> (u32, u32) {
        let units = |s: &str| u32::try_from(s.encode_utf16().count()).unwrap_or(u32::MAX);
        let start = units(&text[..self.start]);
        (
            start,
            start.saturating_add(units(&text[self.start..self.end])),
        )
    }
}

/// Consecutive lines an edit changed: `removed` lines of the original from
/// line `old_line`, `added` lines of the fixed text from line `new_line`
/// (both 1-based; with no lines, the line before which they would stand).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hunk {
    pub old_line: usize,
    pub new_line: usize,
    pub removed: Vec<String>,
    pub added: Vec<String>,
}

impl Hunk {
    /// The unified diff's hunk header, `@@ -3,2 +3 @@`.
    pub fn header(&self) -> String {
        let range = |line: usize, n: usize| match n {
            1 => format!("{line}"),
            // An empty range names the line before it, as diff does.
            0 => format!("{},0", line - 1),
            _ => format!("{line},{n}"),
        };
        format!(
            "@@ -{} +{} @@",
            range(self.old_line, self.removed.len()),
            range(self.new_line, self.added.len())
        )
    }
}

/// The lines `edits` (sorted, not overlapping, as core returns them)
/// change from `old` to `new`, read from `old_shown` and `new_shown`: the
/// same texts as shown (secrets masked character by character, so their
/// lines are the same lines; bytes may differ). Each edit is widened to
/// whole lines; edits on the same or touching lines form one hunk; lines
/// a hunk would remove and add unchanged at its ends are left out, so a
/// hunk holds exactly the lines that differ.
pub fn hunks(
    old: &str,
    new: &str,
    edits: &[TextEdit],
    old_shown: &str,
    new_shown: &str,
) -> Vec<Hunk> {
    // Byte regions of `old`, whole lines, each with how much longer the
    // fixed text is within it.
    let mut regions: Vec<(usize, usize, isize)> = Vec::new();
    for e in edits {
        let lo = old[..e.start].rfind('\n').map_or(0, |i| i + 1);
        // An edit ending right after a line break (a removed line) ends
        // its region there; otherwise the region runs to the line's end.
        let hi = if e.end > e.start && old.as_bytes()[e.end - 1] == b'\n' {
            e.end
        } else {
            old[e.end..].find('\n').map_or(old.len(), |i| e.end + i + 1)
        };
        let grow = e.text.len() as isize - (e.end - e.start) as isize;
        match regions.last_mut() {
            Some(last) if lo <= last.1 => {
                last.1 = last.1.max(hi);
                last.2 += grow;
            }
            _ => regions.push((lo, hi, grow)),
        }
    }
    let old_lines: Vec<&str> = old_shown.split_inclusive('\n').collect();
    let new_lines: Vec<&str> = new_shown.split_inclusive('\n').collect();
    let count = |s: &str| s.split_inclusive('\n').count();
    let mut out = Vec::new();
    let mut shift: isize = 0;
    for (lo, hi, grow) in regions {
        let new_lo = (lo as isize + shift) as usize;
        let new_hi = (hi as isize + shift + grow) as usize;
        shift += grow;
        let old_first = old[..lo].matches('\n').count();
        let new_first = new[..new_lo].matches('\n').count();
        let old_n = count(&old[lo..hi]);
        let new_n = count(&new[new_lo..new_hi]);
        let mut removed: Vec<&str> = old_lines
            .get(old_first..old_first + old_n)
            .unwrap_or_default()
            .to_vec();
        let mut added: Vec<&str> = new_lines
            .get(new_first..new_first + new_n)
            .unwrap_or_default()
            .to_vec();
        let mut skip = 0;
        while skip < removed.len() && skip < added.len() && removed[skip] == added[skip] {
            skip += 1;
        }
        removed.drain(..skip);
        added.drain(..skip);
        while let (Some(a), Some(b)) = (removed.last(), added.last()) {
            if a != b {
                break;
            }
            removed.pop();
            added.pop();
        }
        if removed.is_empty() && added.is_empty() {
            continue;
        }
        let line = |s: &&str| s.trim_end_matches('\n').trim_end_matches('\r').to_string();
        out.push(Hunk {
            old_line: old_first + skip + 1,
            new_line: new_first + skip + 1,
            removed: removed.iter().map(line).collect(),
            added: added.iter().map(line).collect(),
        });
    }
    out
}

impl State {
    /// The fix of the open finding, when the shown report describes the
    /// editor's text: core's `fix_text` with only this finding selected
    /// and unsafe fixes allowed (the applicability is shown beside it),
    /// proven with the page's own audit (labels, date, runner overlay).
    pub fn fix_preview(&self) -> Option<FixPreview> {
        let report = self.current_report().filter(|_| self.is_current())?;
        let finding = report.issues.get(self.selected_index()?)?;
        let rule = finding.rule;
        let (applicability, summary) = match fix::for_rule(rule).map(|f| &f.remedy) {
            Some(Remedy::Fix {
                applicability,
                summary,
                ..
            }) => (*applicability, *summary),
            Some(Remedy::None(why)) => {
                return Some(FixPreview::None(format!("{rule} has no fix: {why}")))
            }
            None => return Some(FixPreview::None(format!("{rule} declares no fix"))),
        };
        if finding.waived.is_some() {
            return Some(FixPreview::None("a waived finding is not fixed".into()));
        }
        let unit = self
            .profiles
            .get(self.profile)
            .map(|r| r.unit.clone())
            .unwrap_or_default();
        let format = import::detect(self.text.as_bytes(), Some(&self.source_name));
        let options = AuditOptions { today: self.today };
        // The shown (masked) text of the last text audited: the fixed
        // text's is then at hand for the diff without an audit of its own.
        let last: RefCell<Option<(String, String)>> = RefCell::new(None);
        let audit = |t: &str| {
            let (rows, _) = audit_text(
                t.as_bytes(),
                &self.source_name,
                &self.labels,
                &options,
                self.runner.as_deref(),
            )
            .map_err(|p| p.located())?;
            if let Some(row) = rows.first() {
                let shown = view_model::shown_source(&row.report).1.to_owned();
                *last.borrow_mut() = Some((t.to_owned(), shown));
            }
            Ok(rows
                .into_iter()
                .map(|r| (r.unit, r.report.issues.clone()))
                .collect())
        };
        let selection = fix::Selection {
            unsafe_fixes: true,
            rules: Vec::new(),
            findings: vec![fix::Target {
                profile: unit,
                rule: rule.to_string(),
                pointer: finding.pointer.clone(),
            }],
        };
        let outcome = match fix::fix_text(&self.text, format, &selection, &audit) {
            Ok(o) => o,
            Err(refused) => return Some(FixPreview::None(refused)),
        };
        if outcome.applied.is_empty() {
            let why = match outcome.withdrawn.first() {
                Some(w) => format!(
                    "the fix of {} was withdrawn, a bug of the fix: {}",
                    w.rule, w.reason
                ),
                None => format!("the fix of {rule} does not apply to this finding"),
            };
            return Some(FixPreview::None(why));
        }
        let new_shown = match last.into_inner() {
            Some((t, shown)) if t == outcome.fixed => shown,
            // Not the last text audited: mask what is not known as a secret
            // by the audit's heuristics for unread text.
            _ => isolint_core::secrets::mask_unparsed(&outcome.fixed),
        };
        let old_shown = view_model::shown_source(report).1;
        let splice = Splice::between(&self.text, &outcome.fixed);
        Some(FixPreview::Ready(ReadyFix {
            rule,
            applicability,
            summary,
            hunks: hunks(
                &self.text,
                &outcome.fixed,
                &outcome.edits,
                old_shown,
                &new_shown,
            ),
            select: splice.utf16_range(&self.text),
            splice,
            remaining: outcome.remaining.len(),
        }))
    }
}

#[cfg(test)]
mod tests;
