//! What the learner adds beside the profile, in a real browser: a runner
//! overlay (`isolint audit --runner`) merged under an imported manifest,
//! and the observations of a launched environment marked against the plan.

use std::time::Duration;

use fantoccini::Locator;
use isolint_browser_tests::{repo_root, Page, TODAY};
use isolint_core::model::StringEnum;
use isolint_core::{audit, AuditOptions, Date, Labels};
use serde_json::{json, Value};

fn start_url() -> String {
    format!("/?today={TODAY}")
}

/// Choose `path` in the file input `id`.
async fn choose(page: &Page, id: &str, path: &std::path::Path) {
    page.client
        .find(Locator::Id(id))
        .await
        .unwrap_or_else(|e| panic!("no #{id}: {e}"))
        .send_keys(&path.to_string_lossy())
        .await
        .unwrap_or_else(|e| panic!("cannot choose a file in #{id}: {e}"));
}

/// Choose a file that the page audits, and wait for that audit.
async fn choose_and_audit(page: &Page, id: &str, path: &std::path::Path) {
    let before = page.audit_count().await;
    choose(page, id, path).await;
    page.wait_audit(before).await;
}

async fn text_of(page: &Page, css: &str) -> String {
    page.client
        .wait()
        .at_most(Duration::from_secs(5))
        .for_element(Locator::Css(css))
        .await
        .unwrap_or_else(|e| panic!("`{css}` did not appear within 5 s: {e}"))
        .text()
        .await
        .unwrap_or_default()
}

#[tokio::test]
async fn a_runner_overlay_makes_the_hardened_pod_eligible_and_its_findings_point_at_it() {
    let page = Page::open(&start_url()).await;
    let fixtures = repo_root().join("fixtures/runner/kubernetes");
    choose_and_audit(&page, "open-profile", &fixtures.join("restricted.yaml")).await;
    assert_eq!(
        page.verdict().await,
        "not-eligible",
        "a Pod cannot say it all"
    );

    choose_and_audit(&page, "open-runner", &fixtures.join("runner.json")).await;
    assert_eq!(page.verdict().await, "eligible-for-runtime-testing");
    let name = text_of(&page, "#runner-name").await;
    assert!(
        name.contains("runner.json") && name.contains("merged"),
        "{name}"
    );
    page.screenshot("runner-eligible").await;

    // An overlay that declares a blocking value: the finding points at the
    // overlay, not at the manifest's line of the same number.
    let dir = page.downloads.clone();
    let blocking = dir.join("blocking-runner.json");
    std::fs::write(
        &blocking,
        "{\n  \"cleanup\": {\"destroy_worker\": false}\n}\n",
    )
    .expect("write");
    choose_and_audit(&page, "open-runner", &blocking).await;
    assert_eq!(page.verdict().await, "not-eligible");
    let heads = page
        .js(
            "return [...document.querySelectorAll('.finding-head')]
                 .filter(b => b.textContent.includes('blocking-runner.json line 2'))
                 .map(b => [b.dataset.index, b.dataset.line ?? null]);",
            vec![],
        )
        .await;
    let heads = heads.as_array().cloned().unwrap_or_default();
    assert!(!heads.is_empty(), "no finding points at the overlay");
    assert!(
        heads.iter().all(|h| h[1].is_null()),
        "an overlay finding has a line in the editor: {heads:?}"
    );
    let index = heads[0][0].as_str().unwrap_or("0").to_string();
    page.click(&format!(".finding-head[data-index='{index}']"))
        .await;
    let detail = text_of(&page, &format!("#finding-detail-{index}")).await;
    assert!(
        detail.contains("declared by the runner overlay blocking-runner.json, line 2"),
        "{detail}"
    );

    // A refused overlay names its position; the loaded one stays.
    let bad = dir.join("bad-runner.json");
    std::fs::write(&bad, "{\n  \"mounts\": []\n}\n").expect("write");
    choose(&page, "open-runner", &bad).await;
    let error = text_of(&page, "#runner-error").await;
    assert!(
        error.contains("bad-runner.json") && error.contains("line 2, column 3"),
        "{error}"
    );
    assert!(text_of(&page, "#runner-name")
        .await
        .contains("blocking-runner.json"));

    // Removing it audits the manifest alone.
    let before = page.audit_count().await;
    page.click("#drop-runner").await;
    page.wait_audit(before).await;
    assert_eq!(text_of(&page, "#runner-name").await, "none");
    page.close().await;
}

#[tokio::test]
async fn observations_mark_each_check_and_go_stale_after_an_edit() {
    let page = Page::open(&start_url()).await;
    page.click("button.lesson[data-lesson='fixed']").await;
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert_eq!(page.verdict().await, "eligible-for-runtime-testing");

    // The plan the page shows, computed by core natively, observed as
    // planned except the first check.
    let lesson = isolint_web::lessons::lesson("fixed").expect("lesson");
    let report = audit(
        lesson.text.as_bytes(),
        lesson.file,
        &Labels::workshop(),
        &AuditOptions {
            today: Date::parse(TODAY),
        },
    )
    .expect("audit");
    let rows: Vec<Value> = report
        .runtime_checks
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let observed = match (i, c.expect.as_str()) {
                (0, _) => "allowed",
                (_, "resolves-to-declared-source") => "resolves",
                (_, "rejected-after-job") => "rejected",
                (_, e) => e,
            };
            json!({"id": c.id, "kind": c.kind.as_str(),
                   "action": "test", "observed": observed, "elapsed_us": 5})
        })
        .collect();
    let doc = json!({
        "schema": "isolint.observations/v1",
        "plan_fingerprint": report.profile.fingerprint,
        "runner": "bwrap (browser test)",
        "observations": rows,
    });
    let path = page.downloads.join("observations.json");
    std::fs::write(&path, doc.to_string()).expect("write");
    choose(&page, "open-observations", &path).await;
    let summary = text_of(&page, "#observations-summary").await;
    let n = report.runtime_checks.len();
    assert!(
        summary.contains(&format!(
            "{} agree, 1 disagree, 0 not observable, 0 stale",
            n - 1
        )),
        "{summary}"
    );
    let statuses = page
        .js(
            "return [...document.querySelectorAll('#checks tr[data-check]')].map(r => r.dataset.status ?? null);",
            vec![],
        )
        .await;
    let statuses: Vec<Option<String>> = serde_json::from_value(statuses).expect("list");
    assert_eq!(statuses.len(), n);
    assert_eq!(statuses[0].as_deref(), Some("disagrees"));
    assert!(
        statuses[1..].iter().all(|s| s.as_deref() == Some("agrees")),
        "{statuses:?}"
    );
    page.js(
        "document.getElementById('checks').scrollIntoView(); return null;",
        vec![],
    )
    .await;
    page.screenshot("observations").await;

    // A changed limit is another profile: every check is stale.
    page.paste(&lesson.text.replacen("536870912", "268435456", 1))
        .await;
    let statuses = page
        .js(
            "return [...document.querySelectorAll('#checks tr[data-check]')].map(r => r.dataset.status ?? null);",
            vec![],
        )
        .await;
    let statuses: Vec<Option<String>> = serde_json::from_value(statuses).expect("list");
    assert!(!statuses.is_empty());
    assert!(
        statuses.iter().all(|s| s.as_deref() == Some("stale")),
        "{statuses:?}"
    );
    page.close().await;
}
