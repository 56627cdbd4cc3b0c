// Shared invariants for every fuzz target: rendering never panics, output
// never carries a raw control character from the input, and the verdict
// agrees with the findings.
use isolint_core::render::{github, json, markdown, sarif, text};
use isolint_core::{Report, Verdict};

pub fn check_report(r: &Report) {
    let blocking = r.issues.iter().any(|f| f.blocks());
    assert_eq!(
        r.verdict == Verdict::NotEligible,
        blocking,
        "verdict disagrees with findings"
    );
    let outputs = [
        json::render(r),
        sarif::render(r),
        text::render(r, text::TextOptions { color: false }),
        markdown::render(r),
        github::render(r),
    ];
    for out in &outputs {
        for c in out.chars() {
            assert!(
                c == '\n' || !isolint_core::sanitize::is_dangerous(c),
                "raw control character U+{:04X} in output",
                c as u32
            );
        }
    }
    // The export is well-formed JSON (checked with core's own parser).
    let limits = isolint_core::json::Limits {
        max_bytes: usize::MAX,
        max_depth: 256,
        max_values: usize::MAX,
    };
    assert!(
        isolint_core::json::parse(outputs[0].as_bytes(), limits).is_ok(),
        "export is not valid JSON"
    );
}
