//! Issue 48 (page): every profile of a multi-profile YAML file, context
//! that follows the editor's content, masked drafts, links that are their
//! own context and are checked before they render, and the layout at
//! 1280×900 and 390×844, each screenshot opened and checked.

use std::time::Duration;

use fantoccini::Locator;
use isolint_browser_tests::{Page, TODAY};
use isolint_web::share::{fragment_for, CONFIRM_LINES};
use serde_json::Value;

const DEPLOYMENTS: &str = include_str!("../../../fixtures/import/kubernetes/deployment-host.yaml");
const COMPOSE: &str = include_str!("../../../fixtures/import/compose/volumes-real.yaml");
const TOKEN: &str = "ghp_R8v2Lk9QmT4xW7nB3cZ5yH1dF6gJ0pSaE2uK";

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

async fn exists(page: &Page, css: &str) -> bool {
    page.js(
        "return document.querySelector(arguments[0]) !== null;",
        vec![Value::String(css.into())],
    )
    .await
    .as_bool()
    .unwrap_or(false)
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

/// Take a screenshot and check it: its PNG header says the viewport's size
/// and the page does not scroll sideways.
async fn checked_screenshot(page: &Page, name: &str, w: u32, h: u32) {
    let path = page.screenshot(name).await;
    let png = std::fs::read(&path).expect("read the screenshot back");
    assert_eq!(&png[1..4], b"PNG", "{} is a PNG", path.display());
    let dim = |at: usize| u32::from_be_bytes([png[at], png[at + 1], png[at + 2], png[at + 3]]);
    assert_eq!((dim(16), dim(20)), (w, h), "{} size", path.display());
    let overflow = page
        .js(
            "return [document.documentElement.scrollWidth, window.innerWidth];",
            vec![],
        )
        .await;
    let (sw, iw) = (overflow[0].as_u64(), overflow[1].as_u64());
    assert!(
        sw <= iw,
        "{name}: the page scrolls sideways ({sw:?} > {iw:?})"
    );
}

#[tokio::test]
async fn a_multi_profile_yaml_file_shows_every_profile_worst_first() {
    let page = Page::open(&start_url()).await;
    viewport(&page, 1280, 900).await;
    for (text, units) in [(DEPLOYMENTS, 2), (COMPOSE, 2)] {
        // Select all, paste: new content, its own context.
        page.paste(text).await;
        wait_for(&page, "#profiles").await;
        let rows = page
            .js(
                "return [...document.querySelectorAll('#profiles .profile-row')].map(b =>
                    [b.dataset.verdict, b.getAttribute('aria-pressed'), b.dataset.unit]);",
                vec![],
            )
            .await;
        let rows = rows.as_array().expect("rows").clone();
        assert_eq!(rows.len(), units, "{rows:?}");
        assert_eq!(rows[0][1], "true", "the worst profile is shown first");
        let blocked = rows.iter().any(|r| r[0] == "not-eligible");
        let file = page
            .js(
                "return document.getElementById('profiles').dataset.fileVerdict;",
                vec![],
            )
            .await;
        assert_eq!(file == "not-eligible", blocked, "whole-file verdict");
        assert_eq!(text_of(&page, "#source-name").await, "pasted.yaml");
        assert!(
            !exists(&page, "#lesson-card").await,
            "no lesson card over a pasted file"
        );
        // Each profile's findings sit at lines of the pasted file.
        let lines = text.lines().count() as u64;
        for i in 0..units {
            page.click(&format!("#profiles .profile-row[data-index='{i}']"))
                .await;
            tokio::time::sleep(Duration::from_millis(150)).await;
            let at = page
                .js(
                    "return [...document.querySelectorAll('.finding-head')].map(b => Number(b.dataset.line || 0));",
                    vec![],
                )
                .await;
            let at: Vec<u64> = serde_json::from_value(at).expect("lines");
            assert!(
                at.iter().all(|l| (1..=lines).contains(l)),
                "profile {i}: lines {at:?} of {lines}"
            );
            assert_eq!(
                page.js(
                    "return document.querySelector(\"#profiles .profile-row[aria-pressed='true']\").dataset.index;",
                    vec![]
                )
                .await,
                i.to_string()
            );
        }
    }
    checked_screenshot(&page, "profiles-1280", 1280, 900).await;
    page.close().await;
}

#[tokio::test]
async fn on_a_phone_nothing_scrolls_sideways_and_the_notice_is_above_the_fold() {
    let page = Page::open(&start_url()).await;
    viewport(&page, 390, 844).await;
    page.goto(&start_url()).await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    let notice = page
        .js(
            "const n = document.getElementById('strip-notice');
             if (!n) return null;
             const r = n.getBoundingClientRect();
             return [r.top, r.bottom, window.innerHeight, n.textContent];",
            vec![],
        )
        .await;
    let notice = notice.as_array().expect("a notice in the verdict strip");
    assert!(
        notice[0].as_f64().unwrap_or(-1.0) >= 0.0
            && notice[1].as_f64().unwrap_or(f64::MAX) <= notice[2].as_f64().unwrap_or(0.0),
        "notice below the fold: {notice:?}"
    );
    assert!(notice[3].as_str().unwrap_or("").contains("not proof"));
    // The lessons are one select on a phone, not a sideways-scrolling row.
    assert!(
        page.js(
            "return getComputedStyle(document.getElementById('lesson-select')).display !== 'none';",
            vec![]
        )
        .await
        .as_bool()
            == Some(true)
    );
    checked_screenshot(&page, "phone-390-workshop", 390, 844).await;
    page.paste(DEPLOYMENTS).await;
    wait_for(&page, "#profiles").await;
    checked_screenshot(&page, "phone-390-profiles", 390, 844).await;
    page.js(
        "document.getElementById('profiles').scrollIntoView(); return null;",
        vec![],
    )
    .await;
    checked_screenshot(&page, "phone-390-picker", 390, 844).await;
    page.close().await;
}

#[tokio::test]
async fn pasted_work_comes_back_after_a_reload_masked_and_can_be_forgotten() {
    let page = Page::open(&start_url()).await;
    page.js("localStorage.clear(); return null;", vec![]).await;
    let text = format!(
        "{DEPLOYMENTS}---\napiVersion: v1\nkind: Pod\nmetadata:\n  name: t\nspec:\n  containers:\n    - name: c\n      image: busybox\n      env:\n        - name: API_TOKEN\n          value: {TOKEN}\n"
    );
    page.paste(&text).await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    let stored = page
        .js(
            "return Object.keys(localStorage).filter(k => k.startsWith('isolint.draft.')).map(k => [k, localStorage.getItem(k)]);",
            vec![],
        )
        .await;
    let stored = stored.as_array().expect("drafts").clone();
    assert_eq!(stored.len(), 1, "{stored:?}");
    assert_eq!(stored[0][0], "isolint.draft.pasted");
    let kept = stored[0][1].as_str().unwrap_or_default();
    assert!(!kept.contains(TOKEN), "a raw secret in localStorage");
    assert!(kept.contains("API_TOKEN"), "the rest is kept");

    page.goto(&start_url()).await;
    wait_for(&page, "#pasted-offer").await;
    let before = page.audit_count().await;
    page.click("#restore-pasted").await;
    page.wait_audit(before).await;
    assert_eq!(text_of(&page, "#source-name").await, "pasted.yaml");
    assert!(!exists(&page, "#lesson-card").await);
    let restored = page.editor_text().await;
    assert!(restored.contains("API_TOKEN") && !restored.contains(TOKEN));

    page.click("#forget-drafts").await;
    let left = page
        .js(
            "return Object.keys(localStorage).filter(k => k.startsWith('isolint.draft.')).length;",
            vec![],
        )
        .await;
    assert_eq!(left, 0);
    page.close().await;
}

#[tokio::test]
async fn keep_this_version_deletes_the_lessons_draft() {
    let page = Page::open(&start_url()).await;
    page.js("localStorage.clear(); return null;", vec![]).await;
    page.paste(&isolint_core::WORKSHOP_PROFILE.replace("parser-tests", "mine-1"))
        .await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    page.goto(&start_url()).await;
    wait_for(&page, "#draft-offer").await;
    page.click("#discard-draft").await;
    let left = page
        .js(
            "return localStorage.getItem('isolint.draft.lesson.workshop');",
            vec![],
        )
        .await;
    assert_eq!(left, Value::Null, "the draft outlived Keep this version");
    page.close().await;
}

#[tokio::test]
async fn a_link_is_its_own_context_and_its_date_is_a_warning() {
    let page = Page::open(&start_url()).await;
    page.js(
        "localStorage.clear(); localStorage.setItem('isolint.draft.lesson.workshop', 'kept'); return null;",
        vec![],
    )
    .await;
    page.goto(&format!(
        "/?today={TODAY}&from=link#{}",
        fragment_for(COMPOSE)
    ))
    .await;
    assert_eq!(
        page.editor_text().await,
        COMPOSE,
        "the learner's YAML itself"
    );
    assert_eq!(text_of(&page, "#source-name").await, "shared-link.yaml");
    assert!(!exists(&page, "#lesson-card").await, "never the lesson");
    assert!(exists(&page, "#profiles").await);
    let warning = text_of(&page, "#today-warning").await;
    assert!(warning.contains(TODAY), "{warning}");
    // Typing in the link's file never touches the lesson's draft.
    let before = page.audit_count().await;
    page.js(
        "const ta = document.getElementById('profile-editor');
         ta.value = ta.value + '\\n# mine';
         ta.dispatchEvent(new InputEvent('input', { bubbles: true, inputType: 'insertText' }));
         return null;",
        vec![],
    )
    .await;
    page.wait_audit(before).await;
    tokio::time::sleep(Duration::from_millis(200)).await;
    let lesson = page
        .js(
            "return localStorage.getItem('isolint.draft.lesson.workshop');",
            vec![],
        )
        .await;
    assert_eq!(lesson, "kept");
    // Back, then Forward to the link: the edit is offered again.
    page.goto(&start_url()).await;
    page.client.back().await.expect("back");
    page.client
        .wait()
        .at_most(Duration::from_secs(30))
        .for_element(Locator::Css(".app[data-audit-count]"))
        .await
        .expect("page");
    // Restored from the back-forward cache as it was, or reloaded with
    // the edit offered back: never silently undone.
    tokio::time::sleep(Duration::from_millis(500)).await;
    let restored = page.editor_text().await.ends_with("# mine");
    assert!(
        restored || exists(&page, "#draft-offer").await,
        "the edit made after opening the link is gone"
    );
    page.close().await;
}

#[tokio::test]
async fn a_large_link_waits_for_a_yes_before_it_renders() {
    let page = Page::open(&start_url()).await;
    let big = "# a comment line\n".repeat(CONFIRM_LINES + 10);
    page.goto(&format!("/?today={TODAY}&from=big#{}", fragment_for(&big)))
        .await;
    wait_for(&page, "#link-confirm").await;
    assert_eq!(page.editor_text().await, isolint_core::WORKSHOP_PROFILE);
    let before = page.audit_count().await;
    page.click("#open-link").await;
    page.wait_audit(before).await;
    assert_eq!(page.editor_text().await.len(), big.len());
    page.close().await;
}

#[tokio::test]
async fn next_steps_match_the_verdict_and_parse_errors_are_marked() {
    let page = Page::open(&start_url()).await;
    let step = || async {
        page.js(
            "return document.getElementById('plan-summary').dataset.step;",
            vec![],
        )
        .await
    };
    assert_eq!(step().await, "fix", "not eligible: fix first");
    page.paste(isolint_core::WORKSHOP_PROFILE_FIXED).await;
    assert_eq!(step().await, "runtime");
    // A parse error: marked and labelled in the gutter, with a jump.
    page.paste("{\n  \"name\": \"x\",\n  oops\n}").await;
    wait_for(&page, ".ln-error").await;
    let label = page
        .js(
            "return document.querySelector('.ln-error').getAttribute('aria-label');",
            vec![],
        )
        .await;
    assert!(
        label.as_str().unwrap_or("").starts_with("line 3"),
        "{label}"
    );
    page.click("#goto-error").await;
    let line = page
        .js(
            "return document.querySelector('.editor').dataset.line;",
            vec![],
        )
        .await;
    assert_eq!(line, "3");
    // A finding's mark says what it is.
    page.paste(isolint_core::WORKSHOP_PROFILE).await;
    let marks = page
        .js(
            "return [...document.querySelectorAll('.ln[class*=\"mark-\"]')].map(e => e.getAttribute('title'));",
            vec![],
        )
        .await;
    let marks: Vec<String> = serde_json::from_value(marks).expect("titles");
    assert!(
        !marks.is_empty() && marks.iter().all(|t| t.contains("finding")),
        "{marks:?}"
    );
    page.close().await;
}
