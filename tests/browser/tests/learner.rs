//! What a learner must never lose or misread, in a real browser: edits kept
//! across a reload, a refused clipboard, another file's verdict, a link
//! pasted into the same tab, and the verdict on a phone's first screen.

use std::time::Duration;

use fantoccini::Locator;
use isolint_browser_tests::{repo_root, Page, TODAY};
use isolint_web::share::fragment_for;
use serde_json::Value;

fn start_url() -> String {
    format!("/?today={TODAY}")
}

/// Whether an element matching `css` exists right now.
async fn exists(page: &Page, css: &str) -> bool {
    page.js(
        "return document.querySelector(arguments[0]) !== null;",
        vec![Value::String(css.into())],
    )
    .await
    .as_bool()
    .unwrap_or(false)
}

/// Wait until `css` matches an element, or fail naming it.
async fn wait_for(page: &Page, css: &str) {
    page.client
        .wait()
        .at_most(Duration::from_secs(5))
        .for_element(Locator::Css(css))
        .await
        .unwrap_or_else(|e| panic!("`{css}` did not appear within 5 s: {e}"));
}

/// Choose `path` in the profile file picker and wait for its audit.
async fn open_file(page: &Page, path: &std::path::Path) {
    let before = page.audit_count().await;
    page.client
        .find(Locator::Id("open-profile"))
        .await
        .expect("file input")
        .send_keys(&path.to_string_lossy())
        .await
        .expect("choose file");
    page.wait_audit(before).await;
}

#[tokio::test]
async fn an_edit_survives_a_reload_and_comes_back_only_when_asked() {
    let page = Page::open(&start_url()).await;
    page.js("localStorage.clear(); return null;", vec![]).await;
    let edited = isolint_core::WORKSHOP_PROFILE.replace("parser-tests", "my-edit-7c1");
    page.paste(&edited).await;
    // The draft is kept after the debounced audit; reload the page.
    tokio::time::sleep(Duration::from_millis(200)).await;
    page.goto(&start_url()).await;
    assert_eq!(
        page.editor_text().await,
        isolint_core::WORKSHOP_PROFILE,
        "the lesson opens as shipped, the edit is not applied unasked"
    );
    wait_for(&page, "#draft-offer").await;
    page.screenshot("draft-offer").await;
    let before = page.audit_count().await;
    page.click("#restore-draft").await;
    page.wait_audit(before).await;
    // Drafts are stored masked: the edit comes back, its secret as `*`.
    let secret = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY";
    assert!(edited.contains(secret));
    assert_eq!(
        page.editor_text().await,
        edited.replace(secret, &"*".repeat(secret.len()))
    );
    assert!(!exists(&page, "#draft-offer").await);

    // Another lesson has its own draft; coming back offers this one again.
    page.click("button.lesson[data-lesson='engine-socket']")
        .await;
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert!(
        !exists(&page, "#draft-offer").await,
        "no draft for that lesson"
    );
    page.click("button.lesson[data-lesson='workshop']").await;
    wait_for(&page, "#draft-offer").await;
    page.click("#discard-draft").await;
    assert_eq!(page.editor_text().await, isolint_core::WORKSHOP_PROFILE);
    page.close().await;
}

#[tokio::test]
async fn a_refused_clipboard_leaves_the_editor_untouched() {
    let page = Page::open(&start_url()).await;
    page.js(
        "navigator.clipboard.readText = () => Promise.reject(new DOMException('denied', 'NotAllowedError'));
         return null;",
        vec![],
    )
    .await;
    let before = page.editor_text().await;
    page.click("#paste-profile").await;
    let status = page
        .client
        .wait()
        .at_most(Duration::from_secs(5))
        .for_element(Locator::Css("#status:not(.status-empty)"))
        .await
        .expect("a message")
        .text()
        .await
        .expect("text");
    assert!(
        status.contains("unchanged") && status.contains("Ctrl+V"),
        "{status}"
    );
    assert_eq!(page.editor_text().await, before, "the editor was emptied");
    assert_eq!(page.verdict().await, "not-eligible");
    page.close().await;
}

#[tokio::test]
async fn yaml_is_audited_by_default_and_a_new_file_never_shows_the_old_verdict() {
    let page = Page::open(&format!("/?today={TODAY}")).await;
    // The fixed job first: an eligible verdict on screen.
    page.click("button.lesson[data-lesson='fixed']").await;
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert_eq!(page.verdict().await, "eligible-for-runtime-testing");

    // A broken Kubernetes file: its error, and no verdict of the fixed job.
    let dir = page.downloads.clone();
    let broken = dir.join("broken-pod.yaml");
    std::fs::write(
        &broken,
        "apiVersion: v1\nkind: Pod\nmetadata:\n  name: x\nspec: [unclosed\n",
    )
    .expect("write");
    open_file(&page, &broken).await;
    assert!(exists(&page, "#input-error").await, "the error is shown");
    assert!(
        !exists(&page, "#verdict").await,
        "the fixed job's verdict stayed under another file's error"
    );
    assert!(!exists(&page, ".finding-head").await, "old findings shown");
    page.screenshot("new-file-error").await;

    // A real manifest is imported without any build option.
    let pod = repo_root().join("fixtures/import/kubernetes/deployment-host.yaml");
    open_file(&page, &pod).await;
    assert_eq!(page.verdict().await, "not-eligible");
    assert!(
        exists(&page, ".finding-head").await,
        "findings for the manifest"
    );
    page.close().await;
}

#[tokio::test]
async fn a_share_link_pasted_into_the_same_tab_loads_it() {
    let page = Page::open(&start_url()).await;
    let before = page.audit_count().await;
    page.js(
        "location.hash = arguments[0]; return null;",
        vec![Value::String(fragment_for(
            isolint_core::WORKSHOP_PROFILE_FIXED,
        ))],
    )
    .await;
    page.wait_audit(before).await;
    assert_eq!(
        page.editor_text().await,
        isolint_core::WORKSHOP_PROFILE_FIXED
    );
    assert_eq!(page.verdict().await, "eligible-for-runtime-testing");
    page.close().await;
}

#[tokio::test]
async fn on_a_phone_the_verdict_is_on_the_first_screen_and_the_plan_is_cards() {
    let page = Page::open(&start_url()).await;
    page.client.set_window_size(390, 844).await.expect("resize");
    page.goto(&start_url()).await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    let rect = page
        .js(
            "const s = document.getElementById('verdict-strip');
             if (!s) return null;
             const r = s.getBoundingClientRect();
             return [r.top, r.bottom, r.width, window.innerHeight, s.dataset.verdict];",
            vec![],
        )
        .await;
    let rect = rect.as_array().expect("a verdict strip on a phone");
    let (top, bottom, width, height) = (
        rect[0].as_f64().unwrap_or(-1.0),
        rect[1].as_f64().unwrap_or(f64::MAX),
        rect[2].as_f64().unwrap_or(0.0),
        rect[3].as_f64().unwrap_or(0.0),
    );
    assert!(
        top >= 0.0 && bottom <= height && width > 0.0,
        "verdict at {top}..{bottom} of a {height}px screen"
    );
    assert_eq!(rect[4], "not-eligible");
    page.screenshot("phone-first-screen").await;

    // The plan's ids stay on one line, and rows are cards, not columns.
    let ids = page
        .js(
            "return [...document.querySelectorAll('#checks td.check-id')].map(td => {
                 const r = td.getBoundingClientRect();
                 const line = parseFloat(getComputedStyle(td).lineHeight) || 20;
                 return r.height <= line * 1.5 && getComputedStyle(td).display === 'block';
             });",
            vec![],
        )
        .await;
    let ids: Vec<bool> = serde_json::from_value(ids).expect("list");
    assert!(!ids.is_empty(), "no plan rows");
    assert!(
        ids.iter().all(|ok| *ok),
        "a check id wrapped or rows are not cards"
    );
    page.js(
        "document.getElementById('checks').scrollIntoView(); return null;",
        vec![],
    )
    .await;
    page.screenshot("phone-plan").await;
    page.close().await;
}

#[tokio::test]
async fn a_jump_to_a_long_line_shows_its_start_not_blank_space() {
    let page = Page::open(&start_url()).await;
    // Every line ends in blanks wider than the editor, so any line a
    // finding selects is a long one.
    let long = isolint_core::WORKSHOP_PROFILE.replace('\n', &format!("{}\n", " ".repeat(400)));
    page.paste(&long).await;
    page.click(".finding-head").await;
    tokio::time::sleep(Duration::from_millis(200)).await;
    let left = page
        .js(
            "return document.getElementById('profile-editor').scrollLeft;",
            vec![],
        )
        .await;
    assert_eq!(left.as_f64(), Some(0.0), "the editor scrolled sideways");
    page.close().await;
}
