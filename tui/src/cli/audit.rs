//! `isolint audit`: read, audit in parallel, render in argument order.

use std::io::IsTerminal;

use isolint_core::render::text::TextOptions;
use isolint_core::render::{json, sarif, text};
use isolint_core::{AuditOptions, Labels, Report, Verdict};
use rayon::prelude::*;

use super::input::{self, Failure};
use super::{
    output, today, AuditArgs, ColorChoice, ReportFormat, EXIT_ERROR, EXIT_NOT_ELIGIBLE, EXIT_OK,
};

/// The exit status for a set of results: 2 when anything could not be
/// read, else 1 when any profile is not eligible, else 0.
pub fn exit_code(reports: &[Report], failed: bool) -> u8 {
    if failed {
        EXIT_ERROR
    } else if reports.iter().any(|r| r.verdict == Verdict::NotEligible) {
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
    let labels = match &args.labels {
        Some(path) => match input::load_labels(path) {
            Ok(l) => l,
            Err(failures) => {
                for f in &failures {
                    output::error(&f.to_string());
                }
                return EXIT_ERROR;
            }
        },
        None => Labels::workshop(),
    };

    let expanded = input::expand(&args.profiles);
    let array = expanded.directory || args.profiles.len() > 1;
    let results: Vec<Result<Report, Failure>> = expanded
        .jobs
        .into_par_iter()
        .map(|job| job.and_then(|inp| input::audit(&inp, &labels, &options)))
        .collect();

    let mut reports = Vec::with_capacity(results.len());
    let mut failures = 0;
    for r in results {
        match r {
            Ok(report) => reports.push(report),
            Err(f) => {
                failures += 1;
                output::error(&f.to_string());
            }
        }
    }
    let code = exit_code(&reports, failures > 0);
    if reports.is_empty() {
        // Nothing could be read: no output rather than an empty report that
        // could be mistaken for a clean one.
        return EXIT_ERROR;
    }

    let color = use_color(args.color, args.output.is_none());
    let rendered = render(&reports, args.format, array, color, failures);
    match &args.output {
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
