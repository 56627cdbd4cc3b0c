//! The view model both front ends render: grouping by area, order, counts,
//! filtering and the detail of one finding. The dashboard and the page never
//! re-derive these; they draw what this module returns.

use crate::finding::{Area, CheckKind, Finding, Severity};
use crate::model::StringEnum;
use crate::report::{Report, RuntimeCheck, Verdict, NOTICE};
use crate::rules;
use crate::sanitize::neutralize;

/// What the reader asked to see. Filters change what is shown, never what
/// is exported.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Filter {
    /// Hide findings less severe than this.
    pub min_severity: Severity,
    /// Case-insensitive text searched in message, rule id, rule name and pointer.
    pub query: String,
}

impl Default for Filter {
    fn default() -> Self {
        Filter {
            min_severity: Severity::Info,
            query: String::new(),
        }
    }
}

/// Lowercasing for the case-insensitive search. The browser page passes
/// the browser's own, so that its wasm carries no Unicode case tables. Everything else uses [`str::to_lowercase`].
pub type Lowercase = fn(&str) -> String;

impl Filter {
    /// Whether a finding passes the filter.
    pub fn matches(&self, f: &Finding) -> bool {
        self.matches_with(f, str::to_lowercase)
    }

    /// [`Filter::matches`], lowercasing with `lower`.
    pub fn matches_with(&self, f: &Finding, lower: Lowercase) -> bool {
        if !f.severity.at_least(self.min_severity) {
            return false;
        }
        let q = lower(self.query.trim());
        if q.is_empty() {
            return true;
        }
        let name = rules::find(f.rule).map(|r| r.name).unwrap_or("");
        [
            f.message.as_str(),
            f.rule,
            name,
            f.pointer.as_str(),
            f.area.as_str(),
        ]
        .iter()
        .any(|s| lower(s).contains(&q))
    }

    /// The next stricter minimum severity, cycling back to `info`.
    pub fn cycle_severity(&mut self) {
        self.min_severity = match self.min_severity {
            Severity::Info => Severity::Low,
            Severity::Low => Severity::Medium,
            Severity::Medium => Severity::High,
            Severity::High => Severity::Critical,
            Severity::Critical => Severity::Info,
        };
    }
}

/// One area with its findings.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AreaGroup {
    pub area: Area,
    pub title: &'static str,
    /// All findings of the area, whatever the filter.
    pub total: usize,
    /// Indexes into `report.issues` of the findings the filter shows, in order.
    pub shown: Vec<usize>,
    /// The worst severity in the area (unfiltered).
    pub worst: Option<Severity>,
}

/// Findings grouped for display.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Grouped {
    /// Every area, in display order, including empty ones.
    pub groups: Vec<AreaGroup>,
    pub total: usize,
    pub shown: usize,
}

impl Grouped {
    /// Indexes of every shown finding, in display order.
    pub fn flat(&self) -> Vec<usize> {
        self.groups
            .iter()
            .flat_map(|g| g.shown.iter().copied())
            .collect()
    }
}

/// Group a report's findings by area under a filter.
pub fn group(report: &Report, filter: &Filter) -> Grouped {
    group_with(report, filter, str::to_lowercase)
}

/// [`group`], lowercasing the search with `lower` (see [`Lowercase`]).
pub fn group_with(report: &Report, filter: &Filter, lower: Lowercase) -> Grouped {
    let mut groups: Vec<AreaGroup> = Area::ALL
        .iter()
        .map(|&area| AreaGroup {
            area,
            title: area.title(),
            total: 0,
            shown: Vec::new(),
            worst: None,
        })
        .collect();
    let mut shown = 0;
    for (i, f) in report.issues.iter().enumerate() {
        let Some(g) = groups.iter_mut().find(|g| g.area == f.area) else {
            continue;
        };
        g.total += 1;
        g.worst = Some(g.worst.map_or(f.severity, |w| w.min(f.severity)));
        if filter.matches_with(f, lower) {
            g.shown.push(i);
            shown += 1;
        }
    }
    Grouped {
        groups,
        total: report.issues.len(),
        shown,
    }
}

/// The verdict as every surface states it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Banner {
    pub verdict: Verdict,
    /// `eligible-for-runtime-testing` or `not-eligible`.
    pub code: &'static str,
    /// "eligible for runtime testing — not proof of enforcement" / "not eligible — …".
    pub headline: &'static str,
    pub notice: &'static str,
    /// e.g. "2 critical · 3 high · 1 medium · 0 low · 0 info".
    pub counts: String,
}

pub fn banner(report: &Report) -> Banner {
    let s = &report.summary;
    Banner {
        verdict: report.verdict,
        code: report.verdict.as_str(),
        headline: report.verdict.headline(),
        notice: NOTICE,
        counts: format!(
            "{} critical · {} high · {} medium · {} low · {} info",
            s.critical, s.high, s.medium, s.low, s.info
        ),
    }
}

/// The runtime-check plan in one line's worth: how many checks of each
/// kind, in the order the plan first names each kind.
pub fn plan_counts(report: &Report) -> Vec<(CheckKind, usize)> {
    let mut counts: Vec<(CheckKind, usize)> = Vec::new();
    for check in &report.runtime_checks {
        match counts.iter_mut().find(|(k, _)| *k == check.kind) {
            Some((_, n)) => *n += 1,
            None => counts.push((check.kind, 1)),
        }
    }
    counts
}

/// Everything the detail pane shows for one finding, display-safe.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Detail {
    pub rule: &'static str,
    pub rule_name: &'static str,
    pub title: &'static str,
    pub rationale: &'static str,
    pub area: Area,
    pub severity: Severity,
    pub pointer: String,
    pub line: Option<u32>,
    pub column: Option<u32>,
    pub message: String,
    pub remediation: String,
    /// `key: value` lines.
    pub evidence: Vec<(String, String)>,
    pub runtime_check: Option<CheckKind>,
    /// Plan entries this finding asks for.
    pub checks: Vec<RuntimeCheck>,
    pub waived: Option<String>,
    /// For an imported profile: the place in the original file.
    pub origin: Option<crate::finding::Origin>,
    /// Line and column in [`shown_source`] (see [`shown_position`]).
    pub shown_line: Option<u32>,
    pub shown_column: Option<u32>,
}

/// The detail of `report.issues[index]`.
pub fn detail(report: &Report, index: usize) -> Option<Detail> {
    let f = report.issues.get(index)?;
    let rule = rules::find(f.rule);
    let kind = rule.and_then(|r| r.runtime_check);
    let checks = match kind {
        Some(k) => {
            let anchor = anchor(&f.pointer);
            let of_kind: Vec<&RuntimeCheck> = report
                .runtime_checks
                .iter()
                .filter(|c| c.kind == k)
                .collect();
            let specific: Vec<RuntimeCheck> = of_kind
                .iter()
                .filter(|c| !anchor.is_empty() && c.because.contains(&format!("{anchor} ")))
                .map(|c| (*c).clone())
                .collect();
            if specific.is_empty() {
                of_kind.into_iter().take(3).cloned().collect()
            } else {
                specific
            }
        }
        None => Vec::new(),
    };
    Some(Detail {
        rule: f.rule,
        rule_name: rule.map(|r| r.name).unwrap_or(""),
        title: rule.map(|r| r.title).unwrap_or(""),
        rationale: rule.map(|r| r.rationale).unwrap_or(""),
        area: f.area,
        severity: f.severity,
        pointer: f.pointer.clone(),
        line: f.line,
        column: f.column,
        message: f.message.clone(),
        remediation: f.remediation.to_string(),
        evidence: f
            .evidence
            .iter()
            .map(|(k, v)| {
                let v = match v {
                    serde_json::Value::String(s) => s.clone(),
                    other => crate::json_writer::compact(other),
                };
                (k.clone(), neutralize(&v).into_owned())
            })
            .collect(),
        runtime_check: kind,
        checks,
        waived: f
            .waived
            .as_ref()
            .map(|w| format!("waived by {} until {}: {}", w.owner, w.expires, w.reason)),
        origin: f.origin.clone(),
        shown_line: shown_position(report, f).0,
        shown_column: shown_position(report, f).1,
    })
}

/// The text the front ends show beside findings, and its file name: the
/// original file (secrets masked) for an imported profile, else the
/// profile itself.
pub fn shown_source(report: &Report) -> (&str, &str) {
    match &report.original {
        Some(o) => (o.file.as_str(), &*o.text),
        None => (report.profile.source.as_str(), report.source_text.as_str()),
    }
}

/// Where a finding sits in [`shown_source`]: its origin in the original file
/// for an imported profile, else its line and column in the profile. A
/// finding whose origin is another file (a value only the `--runner`
/// overlay declared) has no position in the shown text.
pub fn shown_position(report: &Report, f: &Finding) -> (Option<u32>, Option<u32>) {
    match (&report.original, &f.origin) {
        (Some(src), Some(o)) if o.file == src.file => (Some(o.line), Some(o.column)),
        (Some(_), _) => (None, None),
        (None, _) => (f.line, f.column),
    }
}

/// `/mounts/2/source` → `/mounts/2`; `/network/egress` → `/network`.
fn anchor(pointer: &str) -> String {
    let parts: Vec<&str> = pointer.split('/').skip(1).collect();
    match parts.as_slice() {
        [a, b, ..] if b.chars().all(|c| c.is_ascii_digit()) => format!("/{a}/{b}"),
        [a, ..] => format!("/{a}"),
        [] => String::new(),
    }
}

/// A window of [`shown_source`] lines around `focus` (1-based), display-safe:
/// `(line number, text)` pairs, at most `height` of them, with `focus`
/// placed about a third of the way down when the source is long enough.
pub fn source_window(report: &Report, focus: u32, height: usize) -> Vec<(u32, String)> {
    let (_, text) = shown_source(report);
    let total = text.lines().count();
    if height == 0 || total == 0 {
        return Vec::new();
    }
    let focus = (focus.max(1) as usize).min(total);
    let before = height / 3;
    let mut start = focus.saturating_sub(before).max(1);
    if start + height > total + 1 {
        start = (total + 1).saturating_sub(height).max(1);
    }
    text.lines()
        .enumerate()
        .skip(start - 1)
        .take(height)
        .map(|(i, l)| {
            (
                i as u32 + 1,
                crate::sanitize::neutralize_multiline(l).into_owned(),
            )
        })
        .collect()
}
