//! The page in a real browser: what a learner does, checked end to end.
//! Build the page first (`scripts/build-web.sh`); these tests fail, never
//! skip, when `dist/` or `chromedriver` is missing.

use std::time::Duration;

use fantoccini::key::Key;
use fantoccini::Locator;
use isolint_browser_tests::{repo_root, Page, TODAY};
use isolint_core::{audit, AuditOptions, Date, Labels};
use isolint_web::lessons;
use serde_json::Value;

fn start_url() -> String {
    format!("/?today={TODAY}")
}

fn today() -> AuditOptions {
    AuditOptions {
        today: Date::parse(TODAY),
    }
}

/// The findings export the command line writes for the same profile and
/// catalog (core's renderer), parsed.
fn cli_export(text: &str, source: &str) -> Value {
    let report =
        audit(text.as_bytes(), source, &Labels::workshop(), &today()).expect("readable profile");
    serde_json::from_str(&isolint_core::render::json::render(&report)).expect("export is JSON")
}

fn without_source(mut v: Value) -> Value {
    if let Some(profile) = v.get_mut("profile").and_then(Value::as_object_mut) {
        profile.remove("source");
    }
    v
}

/// Rules of the finding buttons shown on the page, in order.
async fn shown_rules(page: &Page) -> Vec<String> {
    let v = page
        .js(
            "return [...document.querySelectorAll('.finding-head')].map(b => b.dataset.rule);",
            vec![],
        )
        .await;
    serde_json::from_value(v).expect("list of rules")
}

#[tokio::test]
async fn workshop_profile_is_not_eligible_and_fixing_it_by_typing_flips_the_verdict() {
    let page = Page::open(&start_url()).await;
    assert_eq!(
        page.editor_text().await,
        isolint_core::WORKSHOP_PROFILE,
        "opens on the workshop profile"
    );
    assert_eq!(page.verdict().await, "not-eligible");

    let banner = page
        .client
        .find(Locator::Id("verdict"))
        .await
        .expect("banner")
        .text()
        .await
        .expect("text");
    assert!(banner.contains("not eligible"), "{banner}");
    assert!(
        !banner.to_lowercase().contains("safe"),
        "the page never calls a profile safe: {banner}"
    );

    // The page lists exactly core's findings, grouped by area in display order.
    let expected = audit(
        isolint_core::WORKSHOP_PROFILE.as_bytes(),
        "workshop.json",
        &Labels::workshop(),
        &today(),
    )
    .expect("readable");
    let grouped =
        isolint_core::view_model::group(&expected, &isolint_core::view_model::Filter::default());
    let expected_rules: Vec<String> = grouped
        .flat()
        .iter()
        .map(|&i| expected.issues[i].rule.to_string())
        .collect();
    assert!(!expected_rules.is_empty());
    assert_eq!(shown_rules(&page).await, expected_rules);
    let text = page
        .js(
            "return document.getElementById('results').innerText;",
            vec![],
        )
        .await;
    let text = text.as_str().unwrap_or_default().to_string();
    assert!(
        text.contains("critical ·") && text.contains("high ·"),
        "severity counts shown"
    );
    let sections = page
        .js(
            "return [...document.querySelectorAll('section.area')].map(s => s.dataset.area);",
            vec![],
        )
        .await;
    let expected_sections: Vec<&str> = grouped
        .groups
        .iter()
        .filter(|g| !g.shown.is_empty())
        .map(|g| isolint_core::model::StringEnum::as_str(g.area))
        .collect();
    assert_eq!(
        sections,
        serde_json::json!(expected_sections),
        "areas in core's order, writable mounts apart"
    );
    page.screenshot("workshop").await;

    // Paste the fixed profile without its last brace: unreadable, located.
    let fixed = isolint_core::WORKSHOP_PROFILE_FIXED;
    let cut = fixed
        .trim_end()
        .strip_suffix('}')
        .expect("ends with a brace");
    page.paste(cut).await;
    assert_eq!(page.verdict().await, "unreadable");
    let problem = page
        .client
        .find(Locator::Id("input-error"))
        .await
        .expect("input error")
        .text()
        .await
        .expect("text");
    assert!(
        problem.contains("line ") && problem.contains("column "),
        "{problem}"
    );
    assert!(
        page.client
            .find(Locator::Css("#download-json:disabled"))
            .await
            .is_ok(),
        "no export of an unreadable profile"
    );
    page.screenshot("unreadable").await;

    // Type the closing brace with real key presses.
    let before = page.audit_count().await;
    let editor = page
        .client
        .find(Locator::Id("profile-editor"))
        .await
        .expect("editor");
    page.js(
        "const ta = document.getElementById('profile-editor'); ta.setSelectionRange(ta.value.length, ta.value.length); return null;",
        vec![],
    )
    .await;
    editor.send_keys("}").await.expect("typing");
    page.wait_audit(before).await;
    assert_eq!(page.verdict().await, "eligible-for-runtime-testing");
    let banner = page
        .client
        .find(Locator::Id("verdict"))
        .await
        .expect("banner")
        .text()
        .await
        .expect("text");
    assert!(
        banner.contains("eligible for runtime testing — not proof of enforcement"),
        "{banner}"
    );
    assert!(!banner.to_lowercase().contains("safe"), "{banner}");
    // The count line says core's number, in the singular for one.
    let issues = cli_export(fixed, "workshop-fixed.json")["issues"]
        .as_array()
        .map_or(0, Vec::len);
    let counted = page
        .client
        .find(Locator::Id("filter-count"))
        .await
        .expect("count line")
        .text()
        .await
        .expect("text");
    let want = match issues {
        1 => "1 finding".to_string(),
        n => format!("{n} findings"),
    };
    assert_eq!(counted, want);
    assert_eq!(issues, 1, "the fixed profile keeps one medium finding");
    page.screenshot("fixed").await;

    // The page's own timing of that audit.
    let ms: f64 = page
        .app_attr("auditMs")
        .await
        .parse()
        .expect("audit time recorded");
    assert!((0.0..1000.0).contains(&ms), "audit took {ms} ms");
    page.close().await;
}

#[tokio::test]
async fn clicking_a_finding_moves_the_editor_to_its_line_and_highlights_it() {
    let page = Page::open(&start_url()).await;
    // The deepest finding, so the editor has to scroll.
    let v = page
        .js(
            "const b = [...document.querySelectorAll('.finding-head')]
                .filter(b => b.dataset.line)
                .sort((x, y) => +y.dataset.line - +x.dataset.line)[0];
             b.id = 'target-finding';
             return +b.dataset.line;",
            vec![],
        )
        .await;
    let line = v.as_u64().expect("a finding with a line");
    assert!(line > 30, "workshop has findings far down (line {line})");
    page.click("#target-finding").await;
    tokio::time::sleep(Duration::from_millis(100)).await;

    let state = page
        .js(
            "const ta = document.getElementById('profile-editor');
             const band = document.getElementById('line-band');
             const cur = document.querySelector('.ln-current');
             const b = document.getElementById('target-finding');
             const detail = document.getElementById(b.getAttribute('aria-controls'));
             return {
               expanded: b.getAttribute('aria-expanded'),
               detail: detail ? detail.innerText : null,
               selected: ta.value.substring(ta.selectionStart, ta.selectionEnd),
               scrollTop: ta.scrollTop, clientHeight: ta.clientHeight,
               bandTop: band.getBoundingClientRect().top - ta.getBoundingClientRect().top,
               bandHidden: band.classList.contains('hidden'),
               gutter: cur ? cur.textContent : null,
               gutterTop: cur ? cur.getBoundingClientRect().top - ta.getBoundingClientRect().top : null,
               editorLine: document.querySelector('.editor').dataset.line,
             };",
            vec![],
        )
        .await;
    let expected_line = isolint_core::WORKSHOP_PROFILE
        .lines()
        .nth(line as usize - 1)
        .expect("line exists");
    assert_eq!(state["expanded"], "true");
    let detail = state["detail"].as_str().expect("detail shown");
    for heading in ["Why it matters", "Where"] {
        assert!(detail.contains(heading), "detail has `{heading}`: {detail}");
    }
    // A fix in the file's own text (with Apply) replaces the advice in
    // profile terms where one applies (tests/fixes.rs).
    assert!(
        detail.contains("How to fix") || detail.contains("Apply"),
        "detail says how to fix: {detail}"
    );
    assert_eq!(
        state["selected"].as_str(),
        Some(expected_line),
        "the line is selected in the editor"
    );
    assert_eq!(
        state["editorLine"].as_str(),
        Some(line.to_string().as_str())
    );
    assert_eq!(
        state["gutter"].as_str(),
        Some(line.to_string().as_str()),
        "gutter marks the line"
    );
    assert_eq!(state["bandHidden"], false);
    let (top, height) = (
        state["scrollTop"].as_f64().unwrap_or(0.0),
        state["clientHeight"].as_f64().unwrap_or(0.0),
    );
    let y = (line as f64 - 1.0) * 20.0;
    assert!(
        top <= y && y + 20.0 <= top + height,
        "line {line} scrolled into view (scrollTop {top})"
    );
    let band = state["bandTop"].as_f64().expect("band position");
    assert!(
        (band - (8.0 + y - top)).abs() <= 2.0,
        "band drawn on the line: {band} vs {}",
        8.0 + y - top
    );
    let gutter = state["gutterTop"].as_f64().expect("gutter position");
    assert!(
        (gutter - band).abs() <= 2.0,
        "gutter line aligned with the band: {gutter} vs {band}"
    );
    page.screenshot("finding-selected").await;

    // Keyboard: Enter on the focused finding closes it again.
    page.js(
        "document.getElementById('target-finding').focus(); return null;",
        vec![],
    )
    .await;
    let focused = page.client.active_element().await.expect("focus");
    focused
        .send_keys(&format!("{}", Key::Enter))
        .await
        .expect("enter");
    tokio::time::sleep(Duration::from_millis(100)).await;
    let expanded = page
        .js(
            "return document.getElementById('target-finding').getAttribute('aria-expanded');",
            vec![],
        )
        .await;
    assert_eq!(expanded, "false");
    page.close().await;
}

#[tokio::test]
async fn gallery_lessons_load_and_explain_one_idea() {
    let page = Page::open(&start_url()).await;
    let count = page
        .js(
            "return document.querySelectorAll('button.lesson').length;",
            vec![],
        )
        .await;
    assert_eq!(count.as_u64(), Some(lessons::LESSONS.len() as u64));
    assert!(lessons::LESSONS.len() >= 8);

    let lesson = lessons::lesson("engine-socket").expect("lesson");
    let before = page.audit_count().await;
    page.click("button.lesson[data-lesson='engine-socket']")
        .await;
    page.wait_audit(before).await;
    assert_eq!(page.editor_text().await, lesson.text);
    assert_eq!(page.verdict().await, "not-eligible");
    let card = page
        .client
        .find(Locator::Id("lesson-card"))
        .await
        .expect("lesson card")
        .text()
        .await
        .expect("text");
    assert!(
        card.contains(lesson.title) && card.contains("Try:"),
        "{card}"
    );
    let pressed = page
        .js("return document.querySelector(\"button.lesson[data-lesson='engine-socket']\").getAttribute('aria-pressed');", vec![])
        .await;
    assert_eq!(pressed, "true");
    // The socket's line carries a finding.
    let socket_line = lesson
        .text
        .lines()
        .position(|l| l.contains("docker.sock"))
        .expect("socket mount")
        + 1;
    let lines = page
        .js(
            "return [...document.querySelectorAll('.finding-head')].map(b => +b.dataset.line);",
            vec![],
        )
        .await;
    let lines: Vec<u64> = serde_json::from_value(lines).expect("lines");
    assert!(
        lines.contains(&(socket_line as u64)),
        "a finding on line {socket_line}: {lines:?}"
    );

    // The fixed lesson is eligible and says so.
    let before = page.audit_count().await;
    page.click("button.lesson[data-lesson='fixed']").await;
    page.wait_audit(before).await;
    assert_eq!(page.verdict().await, "eligible-for-runtime-testing");
    page.close().await;
}

#[tokio::test]
async fn downloaded_json_equals_the_cli_export_and_sarif_is_valid() {
    let page = Page::open(&start_url()).await;
    page.click("#download-json").await;
    let path = page.downloaded(".findings.json").await;
    let got: Value = serde_json::from_str(&std::fs::read_to_string(&path).expect("read download"))
        .expect("JSON");
    assert_eq!(got["profile"]["source"], "workshop.json");
    assert_eq!(
        without_source(got),
        without_source(cli_export(
            isolint_core::WORKSHOP_PROFILE,
            "fixtures/profiles/workshop.json"
        ))
    );
    let secret = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY";
    assert!(
        !std::fs::read_to_string(&path)
            .expect("read")
            .contains(secret),
        "secrets stay redacted"
    );

    page.click("#download-sarif").await;
    let sarif = page.downloaded(".sarif").await;
    let sarif: Value = serde_json::from_str(&std::fs::read_to_string(sarif).expect("read"))
        .expect("SARIF is JSON");
    assert_eq!(sarif["version"], "2.1.0");
    let results = sarif["runs"][0]["results"].as_array().expect("results");
    assert_eq!(results.len(), shown_rules(&page).await.len());
    page.close().await;
}

#[tokio::test]
async fn shared_links_carry_the_masked_profile_in_the_fragment_only() {
    let page = Page::open(&start_url()).await;
    page.click("#copy-link").await;
    page.client
        .wait()
        .at_most(Duration::from_secs(5))
        .for_element(Locator::Id("share-link"))
        .await
        .expect("link shown");
    let link = page
        .js(
            "return document.getElementById('share-link').value;",
            vec![],
        )
        .await;
    let link = link.as_str().expect("link").to_string();
    let (before_hash, fragment) = link.split_once('#').expect("fragment");
    assert!(before_hash.starts_with(&page.origin), "{link}");
    assert!(
        !before_hash.contains("profile"),
        "the profile is never in the part sent to the server"
    );
    assert!(
        !before_hash.contains("today"),
        "a shared link never pins the viewer's audit date: {link}"
    );
    let shared = isolint_web::share::profile_from_fragment(&format!("#{fragment}"))
        .expect("a file in the fragment")
        .expect("readable");
    let report = audit(
        isolint_core::WORKSHOP_PROFILE.as_bytes(),
        "x",
        &Labels::workshop(),
        &today(),
    )
    .expect("ok");
    assert_eq!(shared, report.source_text, "the masked source is shared");
    assert!(
        !shared.contains("wJalrXUtnFEMI"),
        "the secret value is not in the link"
    );

    // Opening the link restores that profile.
    // A different query makes it a real navigation, not a fragment change.
    page.goto(&format!("/?today={TODAY}&from=link#{fragment}"))
        .await;
    assert_eq!(page.editor_text().await, shared);
    let status = page
        .client
        .find(Locator::Id("status"))
        .await
        .expect("status")
        .text()
        .await
        .expect("text");
    assert!(status.contains("link"), "{status}");

    // A damaged link says so and falls back to the workshop profile.
    page.goto(&format!("/?today={TODAY}&from=damaged#profile=%%%"))
        .await;
    assert_eq!(page.editor_text().await, isolint_core::WORKSHOP_PROFILE);
    let status = page
        .client
        .find(Locator::Id("status"))
        .await
        .expect("status")
        .text()
        .await
        .expect("text");
    assert!(status.contains("could not be read"), "{status}");
    page.close().await;
}

#[tokio::test]
async fn files_and_catalogs_open_from_disk_and_bad_catalogs_are_explained() {
    let page = Page::open(&start_url()).await;
    let fixed = repo_root().join("fixtures/profiles/workshop-fixed.json");
    let before = page.audit_count().await;
    let input = page
        .client
        .find(Locator::Id("open-profile"))
        .await
        .expect("file input");
    input
        .send_keys(&fixed.to_string_lossy())
        .await
        .expect("choose file");
    page.wait_audit(before).await;
    assert_eq!(
        page.editor_text().await,
        isolint_core::WORKSHOP_PROFILE_FIXED
    );
    assert_eq!(page.verdict().await, "eligible-for-runtime-testing");
    let source = page
        .js(
            "return document.querySelector('.source-name').textContent;",
            vec![],
        )
        .await;
    assert_eq!(source, "workshop-fixed.json");

    // A broken catalog is refused with its position; the workshop one stays.
    let dir = page.downloads.clone();
    let bad = dir.join("broken-labels.json");
    std::fs::write(
        &bad,
        "{\n  \"schema\": \"isolint.labels/v1\",\n  \"labels\": [\n",
    )
    .expect("write");
    let input = page
        .client
        .find(Locator::Id("open-catalog"))
        .await
        .expect("catalog input");
    input
        .send_keys(&bad.to_string_lossy())
        .await
        .expect("choose catalog");
    let error = page
        .client
        .wait()
        .at_most(Duration::from_secs(5))
        .for_element(Locator::Id("catalog-error"))
        .await
        .expect("catalog error shown")
        .text()
        .await
        .expect("text");
    assert!(
        error.contains("broken-labels.json") && error.contains("line 4, column "),
        "{error}"
    );
    page.screenshot("catalog-error").await;

    // A catalog that labels nothing leaves every mount unlabelled.
    let empty = dir.join("empty-labels.json");
    std::fs::write(
        &empty,
        r#"{ "schema": "isolint.labels/v1", "name": "empty-room", "labels": [] }"#,
    )
    .expect("write");
    let before = page.audit_count().await;
    let input = page
        .client
        .find(Locator::Id("open-catalog"))
        .await
        .expect("catalog input");
    input
        .send_keys(&empty.to_string_lossy())
        .await
        .expect("choose catalog");
    page.wait_audit(before).await;
    let meta = page
        .client
        .find(Locator::Css(".banner-meta"))
        .await
        .expect("meta")
        .text()
        .await
        .expect("text");
    assert!(meta.contains("empty-room"), "{meta}");
    let table = page
        .client
        .find(Locator::Id("mounts"))
        .await
        .expect("mounts")
        .text()
        .await
        .expect("text");
    assert!(table.contains("unlabelled"), "{table}");
    page.close().await;
}

#[tokio::test]
async fn hostile_strings_render_as_inert_text() {
    let page = Page::open(&start_url()).await;
    let hostile = r#"{
  "schema": "isolint.profile/v1",
  "name": "<script>window.__xss = 1</script>",
  "purpose": "<img src=x onerror=\"window.__xss = 2\">",
  "tenancy": "internal",
  "mounts": [
    { "source": "/srv/<b>x</b>\" onerror=\"window.__xss=3", "target": "javascript:window.__xss=4", "access": "read-write" },
    { "source": "/home/botie/<svg onload=window.__xss=5>", "target": "/x", "access": "read-only" }
  ],
  "command": { "shell": "echo '<iframe src=javascript:window.__xss=6>' && python -c 'print(1)'" },
  "artifacts": { "collect": ["javascript:alert(1)", "../<img src=x onerror=alert(7)>.html"] }
}
"#;
    let scripts_before = page.js("return document.scripts.length;", vec![]).await;
    page.paste(hostile).await;
    assert_eq!(page.verdict().await, "not-eligible");
    // Open every finding in turn, so each detail and its evidence is drawn.
    let opened = page
        .client
        .execute_async(
            "const done = arguments[arguments.length - 1];
             const heads = [...document.querySelectorAll('.finding-head')];
             const injected = () => document.querySelectorAll(
               '#results img, #results svg, #results iframe, #results b, [onerror], [onload], a[href^=\"javascript:\"]').length;
             (async () => {
               let opened = 0, worst = 0;
               for (const b of heads) {
                 b.click();
                 // The detail computes the finding's fix (core audits the
                 // fixed text): wait for it, up to 2 s, on a loaded host.
                 const id = b.getAttribute('aria-controls');
                 for (let t = 0; t < 100 && !document.getElementById(id); t++) {
                   await new Promise(r => setTimeout(r, 20));
                 }
                 if (document.getElementById(id)) opened++;
                 worst = Math.max(worst, injected());
               }
               done({ opened, total: heads.length, worst });
             })();",
            vec![],
        )
        .await
        .expect("open each finding");
    assert!(opened["total"].as_u64().unwrap_or(0) > 5, "{opened}");
    assert_eq!(opened["opened"], opened["total"], "every detail was drawn");
    assert_eq!(
        opened["worst"], 0,
        "no markup from the profile became elements in any detail"
    );
    let probe = page
        .js(
            "return {
               xss: window.__xss ?? null,
               scripts: document.scripts.length,
               injected: document.querySelectorAll('#results img, #results svg, #results iframe, #results b, [onerror], [onload], a[href^=\"javascript:\"]').length,
               text: document.body.innerText,
             };",
            vec![],
        )
        .await;
    assert_eq!(probe["xss"], Value::Null, "no payload ran");
    assert_eq!(
        probe["scripts"], scripts_before,
        "no script element was added"
    );
    assert_eq!(
        probe["injected"], 0,
        "no markup from the profile became elements"
    );
    let text = probe["text"].as_str().unwrap_or_default();
    assert!(
        text.contains("<script>window.__xss = 1</script>"),
        "the name is shown as text"
    );
    assert!(
        page.client.get_alert_text().await.is_err(),
        "no alert dialog"
    );
    page.screenshot("hostile").await;
    page.close().await;
}

#[tokio::test]
async fn no_request_leaves_the_origin_and_the_page_sets_a_strict_csp() {
    let page = Page::open(&start_url()).await;
    // Exercise the page: a lesson, a filter, a download, a link.
    page.click("button.lesson[data-lesson='open-egress']").await;
    page.click("#download-json").await;
    page.downloaded(".findings.json").await;
    page.click("#copy-link").await;
    let search = page
        .client
        .find(Locator::Id("search"))
        .await
        .expect("search box");
    search.send_keys("egress").await.expect("type");
    tokio::time::sleep(Duration::from_millis(200)).await;

    let urls = page.requested_urls().await;
    assert!(
        urls.iter().any(|u| u.ends_with(".wasm")),
        "the wasm module was loaded: {urls:#?}"
    );
    for url in &urls {
        assert!(
            url.starts_with(&format!("{}/", page.origin))
                || url.starts_with(&format!("blob:{}/", page.origin)),
            "request outside the page's origin: {url}"
        );
    }
    let csp = page
        .js(
            "const m = document.querySelector('meta[http-equiv=\"Content-Security-Policy\"]'); return m && m.content;",
            vec![],
        )
        .await;
    let csp = csp.as_str().expect("CSP meta tag");
    for directive in [
        "default-src 'self'",
        "script-src 'self' 'wasm-unsafe-eval'",
        "style-src 'self'",
        "connect-src 'self'",
    ] {
        assert!(csp.contains(directive), "CSP lacks `{directive}`: {csp}");
    }
    let inline = page
        .js(
            "return [...document.scripts].filter(s => !s.src).length;",
            vec![],
        )
        .await;
    assert_eq!(inline, 0, "no inline script (the CSP would block it)");
    page.close().await;
}

#[tokio::test]
async fn filters_narrow_the_list_but_not_the_counts_and_the_page_fits_a_phone() {
    let page = Page::open(&start_url()).await;
    let all = shown_rules(&page).await.len();
    let severity = page
        .client
        .find(Locator::Id("min-severity"))
        .await
        .expect("select");
    severity.select_by_value("high").await.expect("choose high");
    tokio::time::sleep(Duration::from_millis(150)).await;
    let sev = page
        .js(
            "return [...document.querySelectorAll('.finding-head .sev')].map(s => s.textContent);",
            vec![],
        )
        .await;
    let sev: Vec<String> = serde_json::from_value(sev).expect("severities");
    assert!(!sev.is_empty() && sev.len() < all, "{} of {all}", sev.len());
    assert!(
        sev.iter().all(|s| s == "critical" || s == "high"),
        "{sev:?}"
    );
    let count = page
        .client
        .find(Locator::Id("filter-count"))
        .await
        .expect("count")
        .text()
        .await
        .expect("text");
    assert!(count.contains(&format!("of {all}")), "{count}");

    // The search ignores case beyond ASCII as well (the page lowercases
    // with the browser's own Unicode tables): the same findings as core's
    // filter with the standard library's lowercase.
    severity.select_by_value("info").await.expect("choose info");
    let text = isolint_core::WORKSHOP_PROFILE.replace("/home/botie", "/home/Zoë");
    page.paste(&text).await;
    let search = page
        .client
        .find(Locator::Id("search"))
        .await
        .expect("search box");
    search.send_keys("ZOË").await.expect("type");
    tokio::time::sleep(Duration::from_millis(200)).await;
    let report = audit(
        text.as_bytes(),
        "workshop.json",
        &Labels::workshop(),
        &today(),
    )
    .expect("readable");
    let filter = isolint_core::view_model::Filter {
        query: "ZOË".into(),
        ..Default::default()
    };
    let expected: Vec<String> = isolint_core::view_model::group(&report, &filter)
        .flat()
        .iter()
        .map(|&i| report.issues[i].rule.to_string())
        .collect();
    assert!(!expected.is_empty());
    assert_eq!(shown_rules(&page).await, expected);

    // Phone width: no horizontal scrolling of the page itself.
    page.client.set_window_size(390, 844).await.expect("resize");
    tokio::time::sleep(Duration::from_millis(200)).await;
    let overflow = page
        .js(
            "return document.documentElement.scrollWidth - document.documentElement.clientWidth;",
            vec![],
        )
        .await;
    assert!(
        overflow.as_i64().unwrap_or(99) <= 0,
        "page wider than the phone by {overflow}px"
    );
    page.js("window.scrollTo(0, 0); return null;", vec![]).await;
    page.screenshot("phone-top").await;
    page.js(
        "document.getElementById('results').scrollIntoView(); return null;",
        vec![],
    )
    .await;
    page.screenshot("phone-results").await;
    page.close().await;
}
