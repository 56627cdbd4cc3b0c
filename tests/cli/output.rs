//! Output shapes: JSON, SARIF, text, Markdown, GitHub, colour, standard input and `-o -`.

use crate::common::*;

#[test]
fn json_is_one_document_for_one_file_and_an_array_for_several() {
    let one = audit(&["--format", "json", WORKSHOP]);
    one.expect_code(1);
    let doc = one.json();
    assert_eq!(doc["schema"], "isolint.findings/v2");
    assert_eq!(doc["profile"]["source"], WORKSHOP);

    let two = audit(&["--format", "json", WORKSHOP, FIXED]);
    two.expect_code(1);
    let arr = two.json();
    let arr = arr.as_array().expect("an array for two files");
    let sources: Vec<&str> = arr
        .iter()
        .map(|d| d["profile"]["source"].as_str().unwrap())
        .collect();
    assert_eq!(sources, [WORKSHOP, FIXED], "argument order is kept");
}

#[test]
fn sarif_has_one_run_per_profile() {
    let run = audit(&["--format", "sarif", WORKSHOP, FIXED]);
    run.expect_code(1);
    let log = run.json();
    assert_eq!(log["version"], "2.1.0");
    let runs = log["runs"].as_array().unwrap();
    assert_eq!(runs.len(), 2);
    assert_eq!(runs[0]["artifacts"][0]["location"]["uri"], WORKSHOP);
    assert_eq!(runs[1]["artifacts"][0]["location"]["uri"], FIXED);
}

#[test]
fn text_for_several_profiles_ends_with_a_tally() {
    let run = audit(&["--color", "never", WORKSHOP, FIXED]);
    run.expect_code(1);
    let out = run.stdout_str();
    assert!(
        out.contains("(fixtures/profiles/workshop.json)")
            && out.contains("(fixtures/profiles/workshop-fixed.json)")
    );
    assert!(
        out.trim_end()
            .ends_with("audited 2 profiles: 1 eligible for runtime testing, 1 not eligible"),
        "{out}"
    );
}

#[test]
fn colour_follows_the_color_option() {
    let always = audit(&["--color", "always", WORKSHOP]);
    assert!(always.stdout.contains(&0x1b), "--color always paints");
    let never = audit(&["--color", "never", WORKSHOP]);
    assert!(!never.stdout.contains(&0x1b));
    let auto = audit(&[WORKSHOP]);
    assert!(!auto.stdout.contains(&0x1b), "auto: a pipe gets no colour");
    let json = audit(&["--color", "always", "--format", "json", WORKSHOP]);
    assert!(
        !json.stdout.contains(&0x1b),
        "colour never reaches machine formats"
    );
}

#[test]
fn standard_input_is_read_with_a_dash() {
    let bytes = fs::read(root().join(WORKSHOP)).unwrap();
    let run = isolint_in(&root(), ["audit", "--format", "json", "-"], Some(&bytes));
    run.expect_code(1);
    assert_eq!(run.json()["profile"]["source"], "<stdin>");
}

// ---- directory mode -----------------------------------------------------

#[test]
fn output_dash_is_stdout() {
    let run = audit(&["--format", "json", "--output", "-", WORKSHOP]);
    run.expect_code(1);
    assert_eq!(run.stdout, audit(&["--format", "json", WORKSHOP]).stdout);
    assert!(run.stderr.is_empty(), "{}", run.stderr);
    assert!(!root().join("-").exists());
}

// ---- other sandbox formats ----------------------------------------------

#[test]
fn markdown_and_github_formats_cover_every_profile_argument() {
    let md = audit(&["--format", "markdown", WORKSHOP, FIXED]);
    md.expect_code(1);
    assert_eq!(md.stdout_str().matches("## isolint: ").count(), 2);
    let gh = audit(&["--format", "github", "--fail-on", "critical", FIXED]);
    gh.expect_code(0);
    assert!(gh.stdout_str().lines().all(|l| l.starts_with("::")));
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("comment.md");
    audit(&["--format", "markdown", "-o", out.to_str().unwrap(), FIXED]).expect_code(0);
    assert!(fs::read_to_string(&out)
        .unwrap()
        .starts_with("## isolint: "));
}
