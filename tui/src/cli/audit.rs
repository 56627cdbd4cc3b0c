//! `isolint audit`: read, audit in parallel, render in argument order.

use std::io::IsTerminal;

use isolint_core::model::StringEnum;
use isolint_core::render::text::TextOptions;
use isolint_core::render::{github, json, markdown, sarif, text};
use isolint_core::{baseline, rules, waivers, AuditOptions, Labels, Report, Severity, Verdict};
use rayon::prelude::*;

use super::input::{self, Failure};
use super::{
    output, today, AuditArgs, ColorChoice, ReportFormat, WaiveArgs, EXIT_ERROR, EXIT_NOT_ELIGIBLE,
    EXIT_OK,
};

/// The exit status for a set of results: 2 when anything could not be
/// read, else 1 when any profile is not eligible, else 0.
pub fn exit_code(reports: &[Report], failed: bool) -> u8 {
    gate(reports, failed, None, false)
}

/// The exit status with an optional `--fail-on` threshold: 2 when anything
/// could not be read; else, with a threshold, 1 when any non-waived finding
/// is at or above it (only findings marked `new` when `new_only`, i.e. with
/// `--baseline`), whatever the verdict; without one, the verdicts decide.
pub fn gate(reports: &[Report], failed: bool, fail_on: Option<Severity>, new_only: bool) -> u8 {
    let failing = match fail_on {
        _ if failed => return EXIT_ERROR,
        Some(min) => reports.iter().flat_map(|r| &r.issues).any(|f| {
            f.waived.is_none()
                && f.severity.at_least(min)
                && (!new_only || f.baseline == Some("new"))
        }),
        None => reports.iter().any(|r| r.verdict == Verdict::NotEligible),
    };
    if failing {
        EXIT_NOT_ELIGIBLE
    } else {
        EXIT_OK
    }
}

fn use_color(choice: ColorChoice, to_stdout: bool) -> bool {
    match choice {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => {
            to_stdout && std::io::stdout().is_terminal() && !output::color_disabled_by_env()
        }
    }
}

/// Render the reports. `array` chooses the JSON shape: a single document
/// for one file argument, an array otherwise.
pub fn render(
    reports: &[Report],
    format: ReportFormat,
    array: bool,
    color: bool,
    failures: usize,
) -> String {
    match format {
        ReportFormat::Json if array => json::render_many(reports),
        ReportFormat::Json => reports.first().map(json::render).unwrap_or_default(),
        ReportFormat::Sarif => sarif::render_many(reports),
        ReportFormat::Markdown => markdown::render_many(reports),
        ReportFormat::Github => github::render_many(reports),
        ReportFormat::Text => {
            let opts = TextOptions { color };
            let mut out = String::new();
            for (i, r) in reports.iter().enumerate() {
                if i > 0 {
                    out.push('\n');
                }
                out.push_str(&text::render(r, opts));
            }
            if reports.len() + failures > 1 {
                let eligible = reports
                    .iter()
                    .filter(|r| r.verdict == Verdict::EligibleForRuntimeTesting)
                    .count();
                out.push_str(&format!(
                    "\naudited {} profiles: {} eligible for runtime testing, {} not eligible",
                    reports.len(),
                    eligible,
                    reports.len() - eligible
                ));
                if failures > 0 {
                    out.push_str(&format!("; {failures} could not be read"));
                }
                out.push('\n');
            }
            out
        }
    }
}

pub fn run(args: &AuditArgs) -> u8 {
    let options = AuditOptions {
        today: args.today.or_else(today::utc_today),
    };
    let labels = match load_labels(args.labels.as_deref()) {
        Ok(l) => l,
        Err(code) => return code,
    };

    let waivers = match &args.waivers {
        Some(path) => match input::load_waivers(path) {
            Ok(w) => Some(w),
            Err(failures) => {
                for f in &failures {
                    output::error(&f.to_string());
                }
                return EXIT_ERROR;
            }
        },
        None => None,
    };

    let baseline = match &args.baseline {
        Some(path) => match input::load_baseline(path) {
            Ok(b) => Some(b),
            Err(f) => {
                output::error(&f.to_string());
                return EXIT_ERROR;
            }
        },
        None => None,
    };

    let expanded = input::expand(&args.profiles, args.from.extensions());
    let results: Vec<Result<input::Audited, Failure>> = expanded
        .jobs
        .into_par_iter()
        .map(|job| {
            let mut audited =
                job.and_then(|inp| input::audit(&inp, &labels, &options, args.from))?;
            if let Some((list, source)) = &waivers {
                for report in &mut audited.reports {
                    waivers::apply(report, list, options.today, source);
                }
            }
            if let Some(old) = &baseline {
                for report in &mut audited.reports {
                    baseline::apply(report, old);
                }
            }
            Ok(audited)
        })
        .collect();

    let mut reports = Vec::with_capacity(results.len());
    let mut failures = 0;
    for r in results {
        match r {
            Ok(audited) => {
                for n in &audited.notes {
                    output::remark(n);
                }
                reports.extend(audited.reports);
            }
            Err(f) => {
                failures += 1;
                output::error(&f.to_string());
            }
        }
    }
    // One document for one profile; an array whenever the invocation can
    // yield several (several arguments, a directory, a file describing
    // several containers or services), so its shape is predictable.
    let array = expanded.directory || args.profiles.len() > 1 || reports.len() > 1;
    let code = gate(
        &reports,
        failures > 0,
        args.fail_on.map(|f| f.severity()),
        baseline.is_some(),
    );
    if reports.is_empty() {
        // Nothing could be read: no output rather than an empty report that
        // could be mistaken for a clean one.
        return EXIT_ERROR;
    }

    // `--output -` is stdout, as for the inputs.
    let output = args.output.as_ref().filter(|p| p.as_os_str() != "-");
    let color = use_color(args.color, output.is_none());
    let rendered = render(&reports, args.format, array, color, failures);
    match output {
        Some(path) => match output::write_atomically(path, rendered.as_bytes()) {
            Ok(()) => {
                let n = reports.len();
                output::note(&format!(
                    "wrote {} for {n} profile{} to {}",
                    args.format.name(),
                    if n == 1 { "" } else { "s" },
                    input::display(path)
                ));
                code
            }
            Err(e) => {
                output::error(&format!("{}: cannot write: {e}", input::display(path)));
                EXIT_ERROR
            }
        },
        None => match output::stdout(&rendered) {
            Ok(()) => code,
            Err(e) => {
                output::error(&format!("cannot write to stdout: {e}"));
                EXIT_ERROR
            }
        },
    }
}

/// `isolint` with no arguments and no terminal: the text report of the
/// embedded workshop profile against the embedded catalog.
pub fn embedded_workshop() -> u8 {
    let options = AuditOptions {
        today: today::utc_today(),
    };
    let report = match isolint_core::audit(
        isolint_core::WORKSHOP_PROFILE.as_bytes(),
        "workshop.json",
        &Labels::workshop(),
        &options,
    ) {
        Ok(r) => r,
        Err(e) => {
            output::error(&format!("workshop.json (embedded): {e}"));
            return EXIT_ERROR;
        }
    };
    let rendered = text::render(&report, TextOptions { color: false });
    match output::stdout(&rendered) {
        Ok(()) => exit_code(std::slice::from_ref(&report), false),
        Err(e) => {
            output::error(&format!("cannot write to stdout: {e}"));
            EXIT_ERROR
        }
    }
}

fn load_labels(path: Option<&std::path::Path>) -> Result<Labels, u8> {
    match path {
        Some(path) => input::load_labels(path).map_err(|failures| {
            for f in &failures {
                output::error(&f.to_string());
            }
            EXIT_ERROR
        }),
        None => Ok(Labels::workshop()),
    }
}

/// `isolint waive`: the waiver entry for one finding that the profile
/// really has, bound to the profile's current digest.
pub fn waive(args: &WaiveArgs) -> u8 {
    let Some(rule) = rules::find(args.rule.trim()) else {
        output::error(&format!(
            "no rule `{}` (`isolint rules` lists every rule)",
            args.rule
        ));
        return EXIT_ERROR;
    };
    for (what, value) in [("--reason", &args.reason), ("--owner", &args.owner)] {
        if value.trim().is_empty() {
            output::error(&format!("{what} must not be empty"));
            return EXIT_ERROR;
        }
    }
    let today = args.today.or_else(today::utc_today);
    if today.is_some_and(|t| args.expires < t) {
        output::error(&format!("--expires {} is already past", args.expires));
        return EXIT_ERROR;
    }
    let labels = match load_labels(args.labels.as_deref()) {
        Ok(l) => l,
        Err(code) => return code,
    };
    let inp = input::Input {
        origin: input::Origin::File(args.profile.clone()),
        name: input::display(&args.profile),
    };
    let report = match input::audit(
        &inp,
        &labels,
        &AuditOptions { today },
        input::Reading::Profile,
    ) {
        Ok(mut a) if a.reports.len() == 1 => a.reports.remove(0),
        Ok(_) => {
            output::error(
                "waive works on isolint profiles; audit the imported file to see its findings",
            );
            return EXIT_ERROR;
        }
        Err(f) => {
            output::error(&f.to_string());
            return EXIT_ERROR;
        }
    };
    if !report
        .issues
        .iter()
        .any(|f| f.rule == rule.id && f.pointer == args.pointer)
    {
        let at: Vec<&str> = report
            .issues
            .iter()
            .filter(|f| f.rule == rule.id)
            .map(|f| f.pointer.as_str())
            .collect();
        let hint = if at.is_empty() {
            format!("it raises no `{}` finding", rule.id)
        } else {
            format!(
                "`{}` is raised at {}",
                rule.id,
                at.iter()
                    .map(|p| format!("`{p}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        };
        output::error(&format!(
            "{} has no `{}` finding at `{}`; {hint}",
            inp.name, rule.id, args.pointer
        ));
        return EXIT_ERROR;
    }
    let entry = waivers::entry_json(
        rule.id,
        &args.pointer,
        &args.reason,
        &args.owner,
        args.expires,
        &report.profile.sha256,
    );
    output::note(&format!(
        "waiver for {} ({}, {}) at `{}`: append it to the `waivers` list of the operator's file",
        rule.id,
        rule.name,
        rule.severity.as_str(),
        args.pointer
    ));
    match output::stdout(&format!("{entry}\n")) {
        Ok(()) => EXIT_OK,
        Err(e) => {
            output::error(&format!("cannot write to stdout: {e}"));
            EXIT_ERROR
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn report(profile: &str) -> Report {
        isolint_core::audit(
            profile.as_bytes(),
            "p.json",
            &Labels::workshop(),
            &AuditOptions::default(),
        )
        .unwrap()
    }

    #[test]
    fn exit_codes_follow_the_verdicts() {
        let bad = report(isolint_core::WORKSHOP_PROFILE);
        assert_eq!(
            exit_code(std::slice::from_ref(&bad), false),
            EXIT_NOT_ELIGIBLE
        );
        assert_eq!(exit_code(&[], true), EXIT_ERROR);
        assert_eq!(exit_code(&[bad], true), EXIT_ERROR);
        assert_eq!(exit_code(&[], false), EXIT_OK);
    }

    #[test]
    fn fail_on_counts_non_waived_findings_at_or_above_the_threshold() {
        let bad = report(isolint_core::WORKSHOP_PROFILE);
        let one = std::slice::from_ref(&bad);
        assert_eq!(
            gate(one, false, Some(Severity::Info), false),
            EXIT_NOT_ELIGIBLE
        );
        assert_eq!(gate(one, true, Some(Severity::Info), false), EXIT_ERROR);
        let mut quiet = bad.clone();
        for f in &mut quiet.issues {
            f.baseline = Some("existing");
        }
        // With a baseline, only new findings count.
        assert_eq!(
            gate(
                std::slice::from_ref(&quiet),
                false,
                Some(Severity::Info),
                true
            ),
            EXIT_OK
        );
        // Without --fail-on the verdict decides, baseline or not.
        assert_eq!(
            gate(std::slice::from_ref(&quiet), false, None, true),
            EXIT_NOT_ELIGIBLE
        );
        let worst = bad.issues.iter().map(|f| f.severity).min().unwrap();
        // One info finding: below a `low` threshold, at an `info` one.
        let mut info = bad.clone();
        info.issues.truncate(1);
        info.issues[0].severity = Severity::Info;
        info.refresh();
        let info = std::slice::from_ref(&info);
        assert_eq!(gate(info, false, Some(Severity::Low), false), EXIT_OK);
        assert_eq!(
            gate(info, false, Some(Severity::Info), false),
            EXIT_NOT_ELIGIBLE
        );
        assert_eq!(gate(one, false, Some(worst), false), EXIT_NOT_ELIGIBLE);
    }

    #[test]
    fn json_shape_follows_the_arguments() {
        let r = report(isolint_core::WORKSHOP_PROFILE);
        let one = render(
            std::slice::from_ref(&r),
            ReportFormat::Json,
            false,
            false,
            0,
        );
        assert!(one.starts_with('{'));
        let many = render(&[r], ReportFormat::Json, true, false, 0);
        assert!(many.starts_with('['));
    }

    #[test]
    fn text_for_several_profiles_ends_with_a_tally() {
        let r = report(isolint_core::WORKSHOP_PROFILE);
        let out = render(&[r.clone(), r], ReportFormat::Text, true, false, 1);
        assert!(out.ends_with("audited 2 profiles: 0 eligible for runtime testing, 2 not eligible; 1 could not be read\n"), "{out}");
        assert!(!out.contains('\x1b'));
    }
}
