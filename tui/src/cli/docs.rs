//! `isolint rules`, `isolint explain` and `isolint schema`: documentation
//! drawn from the one registry (and the schemas core embeds).

use isolint_core::model::StringEnum;
use isolint_core::rules::{self, Rule};
use serde::Serialize;

use super::{output, DocFormat, SchemaName, EXIT_ERROR, EXIT_OK};

fn print(text: &str) -> u8 {
    match output::stdout(text) {
        Ok(()) => EXIT_OK,
        Err(e) => {
            output::error(&format!("cannot write to stdout: {e}"));
            EXIT_ERROR
        }
    }
}

fn check_name(row: &Rule) -> &'static str {
    row.runtime_check.map_or("-", StringEnum::as_str)
}

/// One rule as `rules --format json` lists it, fields in the registry's
/// order.
#[derive(Serialize)]
struct RuleJson {
    id: &'static str,
    name: &'static str,
    area: &'static str,
    severity: &'static str,
    blocks_eligibility: bool,
    title: &'static str,
    rationale: &'static str,
    remediation: &'static str,
    runtime_check: Option<&'static str>,
    /// `safe`, `unsafe` or `none` (see `isolint fix`).
    fix: &'static str,
    /// What the fix does, or why there is none.
    fix_note: &'static str,
}

/// A rule's fix as `explain` shows it: its applicability and what it
/// does, or `none` and why.
fn fix_of(id: &str) -> (&'static str, &'static str) {
    match isolint_core::fix::for_rule(id).map(|f| &f.remedy) {
        Some(isolint_core::fix::Remedy::Fix {
            applicability,
            summary,
            ..
        }) => (applicability.as_str(), summary),
        Some(isolint_core::fix::Remedy::None(reason)) => ("none", reason),
        None => ("none", "no fix is declared"),
    }
}

impl From<&'static Rule> for RuleJson {
    fn from(r: &'static Rule) -> Self {
        RuleJson {
            id: r.id,
            name: r.name,
            area: r.area.as_str(),
            severity: r.severity.as_str(),
            blocks_eligibility: r.severity.blocks(),
            title: r.title,
            rationale: r.rationale,
            remediation: r.remediation,
            runtime_check: r.runtime_check.map(|k| k.as_str()),
            fix: fix_of(r.id).0,
            fix_note: fix_of(r.id).1,
        }
    }
}

/// The rules table (text) or every rule with all its fields (JSON).
pub fn rules_output(format: DocFormat) -> String {
    let rows: Vec<&'static Rule> = rules::all().collect();
    match format {
        DocFormat::Json => {
            let items: Vec<RuleJson> = rows.iter().map(|&r| RuleJson::from(r)).collect();
            // Plain strings, booleans and nulls: serializing cannot fail.
            serde_json::to_string_pretty(&items).unwrap_or_default() + "\n"
        }
        DocFormat::Text => {
            let width = |f: fn(&&Rule) -> usize, head: &str| {
                rows.iter().map(f).max().unwrap_or(0).max(head.len())
            };
            let wn = width(|r| r.name.len(), "NAME");
            let wa = width(|r| r.area.as_str().len(), "AREA");
            let wc = width(|r| check_name(r).len(), "RUNTIME CHECK");
            let mut out = format!(
                "{:<6}  {:<wn$}  {:<wa$}  {:<8}  {:<wc$}  TITLE\n",
                "ID", "NAME", "AREA", "SEVERITY", "RUNTIME CHECK"
            );
            for r in &rows {
                out.push_str(&format!(
                    "{:<6}  {:<wn$}  {:<wa$}  {:<8}  {:<wc$}  {}\n",
                    r.id,
                    r.name,
                    r.area.as_str(),
                    r.severity.as_str(),
                    check_name(r),
                    r.title
                ));
            }
            let blocking = rows.iter().filter(|r| r.severity.blocks()).count();
            out.push_str(&format!(
                "\n{} rules; {blocking} of them critical or high (they block eligibility). `isolint explain ID` shows one in full.\n",
                rows.len()
            ));
            out
        }
    }
}

pub fn rules(format: DocFormat) -> u8 {
    print(&rules_output(format))
}

/// Wrap `text` to `width` columns after `indent`.
fn wrap(text: &str, indent: &str, width: usize) -> String {
    let mut out = String::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        if !line.is_empty()
            && indent.len() + line.chars().count() + 1 + word.chars().count() > width
        {
            out.push_str(indent);
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    if !line.is_empty() {
        out.push_str(indent);
        out.push_str(&line);
        out.push('\n');
    }
    out
}

/// The full documentation of one rule, as prose.
pub fn explain_text(row: &Rule) -> String {
    let blocks = if row.severity.blocks() {
        "blocks eligibility"
    } else {
        "does not block eligibility"
    };
    let mut out = format!("{} {}: {}\n\n", row.id, row.name, row.title);
    out.push_str(&format!(
        "  area:      {} ({})\n",
        row.area.as_str(),
        row.area.title()
    ));
    out.push_str(&format!(
        "  severity:  {} ({blocks})\n",
        row.severity.as_str()
    ));
    out.push_str(&format!("  runtime check: {}\n", check_name(row)));
    out.push_str("\nWhy it matters\n");
    out.push_str(&wrap(row.rationale, "  ", 80));
    out.push_str("\nWhat to change\n");
    out.push_str(&wrap(row.remediation, "  ", 80));
    out.push_str("\nRuntime check\n");
    let check = match row.runtime_check {
        Some(k) => format!(
            "The runtime verifier must confirm `{}` in the launched environment: a static audit \
only compares declared settings with trusted fixture labels.",
            k.as_str()
        ),
        None => "None: this rule is about the profile as written.".to_string(),
    };
    out.push_str(&wrap(&check, "  ", 80));
    out.push_str("\nFix (`isolint fix`)\n");
    let fix = match fix_of(row.id) {
        ("none", why) => format!("None: {why}."),
        ("unsafe", what) => {
            format!("Unsafe, made only with --unsafe-fixes (it may break the job): {what}.")
        }
        (_, what) => format!("Safe: {what}."),
    };
    out.push_str(&wrap(&fix, "  ", 80));
    out
}

/// Levenshtein distance over lowercase chars.
fn distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.to_lowercase().chars().take(128).collect();
    let b: Vec<char> = b.to_lowercase().chars().take(128).collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.iter().enumerate() {
        let mut cur = Vec::with_capacity(b.len() + 1);
        cur.push(i + 1);
        for (j, cb) in b.iter().enumerate() {
            let sub = prev.get(j).copied().unwrap_or(0) + usize::from(ca != cb);
            let del = prev.get(j + 1).copied().unwrap_or(0) + 1;
            let ins = cur.get(j).copied().unwrap_or(0) + 1;
            cur.push(sub.min(del).min(ins));
        }
        prev = cur;
    }
    prev.last().copied().unwrap_or(0)
}

/// The rule whose id or name is closest to `key`, shown as `ID (name)` or
/// `name (ID)` depending on which one matched.
pub fn closest(key: &str) -> Option<String> {
    rules::all()
        .flat_map(|r| {
            [
                (distance(key, r.id), format!("`{}` ({})", r.id, r.name)),
                (distance(key, r.name), format!("`{}` ({})", r.name, r.id)),
            ]
        })
        .min_by(|a, b| a.0.cmp(&b.0).then_with(|| a.1.cmp(&b.1)))
        .map(|(_, s)| s)
}

pub fn explain(key: &str, format: DocFormat) -> u8 {
    let Some(row) = rules::find(key.trim()) else {
        let hint = match closest(key.trim()) {
            Some(c) => format!("; did you mean {c}?"),
            None => String::new(),
        };
        output::error(&format!(
            "no rule `{key}`{hint} (`isolint rules` lists every rule)"
        ));
        return EXIT_ERROR;
    };
    match format {
        DocFormat::Text => print(&explain_text(row)),
        DocFormat::Json => {
            // Plain strings, booleans and nulls: serializing cannot fail.
            print(&(serde_json::to_string_pretty(&RuleJson::from(row)).unwrap_or_default() + "\n"))
        }
    }
}

pub fn schema(name: SchemaName) -> u8 {
    let key = match name {
        SchemaName::Profile => "profile",
        SchemaName::Labels => "labels",
        SchemaName::Findings => "findings",
        SchemaName::Runner => "runner",
        SchemaName::Observations => "observations",
        SchemaName::Reconciliation => "reconciliation",
    };
    match isolint_core::schema::by_name(key) {
        Some(text) if text.ends_with('\n') => print(text),
        Some(text) => print(&format!("{text}\n")),
        None => {
            output::error(&format!("no schema named `{key}`"));
            EXIT_ERROR
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;

    #[test]
    fn rules_json_lists_every_rule_with_every_field() {
        let v: Value = serde_json::from_str(&rules_output(DocFormat::Json)).unwrap();
        let arr = v.as_array().unwrap();
        assert_eq!(arr.len(), rules::all().count());
        for (item, rule) in arr.iter().zip(rules::all()) {
            assert_eq!(item["id"], rule.id);
            assert_eq!(item["name"], rule.name);
            assert_eq!(item["rationale"], rule.rationale);
            assert_eq!(item["remediation"], rule.remediation);
            assert_eq!(item["severity"], rule.severity.as_str());
        }
    }

    #[test]
    fn explain_names_everything_a_reader_needs() {
        for row in rules::all() {
            let t = explain_text(row);
            for needle in [row.id, row.name, row.area.as_str(), row.severity.as_str()] {
                assert!(t.contains(needle), "{}: {needle}", row.id);
            }
            let flat = t.split_whitespace().collect::<Vec<_>>().join(" ");
            assert!(flat.contains(
                &row.rationale
                    .split_whitespace()
                    .collect::<Vec<_>>()
                    .join(" ")
            ));
        }
    }

    #[test]
    fn closest_suggests_ids_and_names() {
        assert_eq!(
            closest("PRF01").as_deref(),
            Some("`PRF001` (unknown-field)")
        );
        assert_eq!(
            closest("unknwn-field").as_deref(),
            Some("`unknown-field` (PRF001)")
        );
    }

    #[test]
    fn wrapping_keeps_every_word_under_the_width() {
        let w = wrap("alpha beta gamma delta epsilon zeta eta theta", "  ", 20);
        assert!(w.lines().all(|l| l.chars().count() <= 20), "{w}");
        assert_eq!(w.split_whitespace().count(), 8);
    }
}
