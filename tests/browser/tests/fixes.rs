//! Issues 47 §3 and 48 (page): a finding's detail shows its fix in the
//! editor's own text with "Apply", which edits the editor so the browser's
//! undo takes it back, and re-audits; a file core cannot fix yet says why.
//! Also the `?today=` warning, whose code is shown as code, not backticks.
//! Screenshots at 1280×900 and 390×844, each opened and checked.

use std::time::Duration;

use fantoccini::{key::Key, Locator};
use isolint_browser_tests::{Page, TODAY};
use serde_json::Value;

const DEPLOYMENTS: &str = include_str!("../../../fixtures/import/kubernetes/deployment-host.yaml");

fn start_url() -> String {
    format!("/?today={TODAY}")
}

async fn wait_for(page: &Page, css: &str) {
    page.client
        .wait()
        .at_most(Duration::from_secs(5))
        .for_element(Locator::Css(css))
        .await
        .unwrap_or_else(|e| panic!("`{css}` did not appear within 5 s: {e}"));
}

async fn text_of(page: &Page, css: &str) -> String {
    page.js(
        "const e = document.querySelector(arguments[0]); return e ? e.textContent : '';",
        vec![Value::String(css.into())],
    )
    .await
    .as_str()
    .unwrap_or_default()
    .to_string()
}

async fn rules_shown(page: &Page) -> Vec<String> {
    let v = page
        .js(
            "return [...document.querySelectorAll('.finding-head')].map(b => b.dataset.rule);",
            vec![],
        )
        .await;
    serde_json::from_value(v).expect("rules")
}

/// Resize so that the viewport (not the window) is `w`×`h`.
async fn viewport(page: &Page, w: u32, h: u32) {
    page.client.set_window_size(w, h).await.expect("resize");
    let inner = page
        .js("return [window.innerWidth, window.innerHeight];", vec![])
        .await;
    let (iw, ih) = (
        inner[0].as_u64().unwrap_or(0) as u32,
        inner[1].as_u64().unwrap_or(0) as u32,
    );
    page.client
        .set_window_size(w + w.saturating_sub(iw), h + h.saturating_sub(ih))
        .await
        .expect("resize");
}

/// Take a screenshot with the fix in view and check it: a PNG of the
/// viewport's size, no sideways scroll, and the fix's Apply button inside
/// the viewport (so the picture shows it).
async fn checked_screenshot(page: &Page, name: &str, w: u32, h: u32) {
    page.js(
        "document.getElementById('fix').scrollIntoView({block: 'center'}); return null;",
        vec![],
    )
    .await;
    tokio::time::sleep(Duration::from_millis(100)).await;
    let path = page.screenshot(name).await;
    let png = std::fs::read(&path).expect("read the screenshot back");
    assert_eq!(&png[1..4], b"PNG", "{} is a PNG", path.display());
    let dim = |at: usize| u32::from_be_bytes([png[at], png[at + 1], png[at + 2], png[at + 3]]);
    assert_eq!((dim(16), dim(20)), (w, h), "{} size", path.display());
    let fit = page
        .js(
            "const r = document.getElementById('apply-fix').getBoundingClientRect();
             return [document.documentElement.scrollWidth <= window.innerWidth,
                     r.left >= 0 && r.right <= window.innerWidth && r.top >= 0 && r.bottom <= window.innerHeight];",
            vec![],
        )
        .await;
    assert_eq!(fit[0], true, "{name}: the page scrolls sideways");
    assert_eq!(fit[1], true, "{name}: Apply is not in the viewport");
}

#[tokio::test]
async fn the_today_warning_shows_its_query_as_code_not_backticks() {
    let page = Page::open(&start_url()).await;
    wait_for(&page, "#today-warning").await;
    let warning = text_of(&page, "#today-warning").await;
    assert!(!warning.contains('`'), "literal backticks: {warning}");
    assert_eq!(
        text_of(&page, "#today-warning code").await,
        format!("?today={TODAY}")
    );
    page.close().await;
}

#[tokio::test]
async fn apply_makes_the_fix_in_the_editor_undo_takes_it_back_and_both_reaudit() {
    let page = Page::open(&start_url()).await;
    page.js("localStorage.clear(); return null;", vec![]).await;
    viewport(&page, 1280, 900).await;
    let original = page.editor_text().await;
    assert!(original.contains("\"no_new_privileges\": false"));
    assert!(rules_shown(&page).await.contains(&"PRV005".to_string()));

    page.click(".finding-head[data-rule='PRV005']").await;
    wait_for(&page, "#fix").await;
    assert_eq!(
        page.js(
            "return document.getElementById('fix').dataset.applicability;",
            vec![]
        )
        .await,
        "safe"
    );
    let diff = text_of(&page, "#fix-diff").await;
    assert!(diff.starts_with("@@ -"), "{diff}");
    assert!(
        diff.contains("-    \"no_new_privileges\": false,\n")
            && diff.contains("+    \"no_new_privileges\": true,\n"),
        "the edit in the file's own text: {diff}"
    );
    assert!(
        !text_of(&page, ".finding.open .detail")
            .await
            .contains("How to fix"),
        "the fix replaces the advice in profile terms"
    );
    checked_screenshot(&page, "fix-1280x900", 1280, 900).await;
    viewport(&page, 390, 844).await;
    checked_screenshot(&page, "fix-390x844", 390, 844).await;
    viewport(&page, 1280, 900).await;

    let before = page.audit_count().await;
    page.click("#apply-fix").await;
    page.wait_audit(before).await;
    let fixed = page.editor_text().await;
    assert_eq!(
        fixed,
        original.replace(
            "\"no_new_privileges\": false",
            "\"no_new_privileges\": true"
        ),
        "exactly the fix, nothing else"
    );
    assert!(!rules_shown(&page).await.contains(&"PRV005".to_string()));
    assert!(text_of(&page, "#status").await.contains("PRV005"));

    // The browser's own undo (Ctrl+Z in the editor) brings the text back.
    let before = page.audit_count().await;
    let editor = page
        .client
        .find(Locator::Id("profile-editor"))
        .await
        .expect("editor");
    let undo = format!("{}z{}", char::from(Key::Control), char::from(Key::Control));
    editor.send_keys(&undo).await.expect("ctrl+z");
    page.wait_audit(before).await;
    assert_eq!(page.editor_text().await, original, "undo restores the text");
    assert!(rules_shown(&page).await.contains(&"PRV005".to_string()));
    page.close().await;
}

#[tokio::test]
async fn a_finding_without_an_offered_fix_says_why_beside_the_advice() {
    let page = Page::open(&start_url()).await;
    page.js("localStorage.clear(); return null;", vec![]).await;
    // A pasted Kubernetes file: core refuses to fix imported formats until
    // their editors land; the page shows its words, and the advice stays.
    page.paste(DEPLOYMENTS).await;
    page.click(".finding-head").await;
    tokio::time::sleep(Duration::from_millis(150)).await;
    let none = text_of(&page, "#fix-none").await;
    let fix = text_of(&page, "#fix").await;
    assert!(
        !none.is_empty() || fix.contains("Apply"),
        "either core's refusal or a fix is shown"
    );
    if !none.is_empty() {
        assert!(text_of(&page, ".finding.open .detail")
            .await
            .contains("How to fix"));
    }
    page.close().await;
}
