//! Acceptance: kubernetes.io's seccomp example Pod, hardened to the
//! restricted level, with a default-deny NetworkPolicy in its stream and
//! the fixture runner overlay, is eligible for runtime testing; undoing any
//! one hardening setting makes it not eligible, with the blocking finding
//! at the line of the file that holds (or lacks) the setting.
#![allow(clippy::disallowed_methods, clippy::disallowed_types)]

use std::path::{Path, PathBuf};

use isolint_core::import::{self, Format};
use isolint_core::runner::Runner;
use isolint_core::{AuditOptions, Date, Labels, Report, Severity, Verdict};

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/runner/kubernetes")
}

const MANIFEST: &str = "restricted.yaml";
const RUNNER: &str = "runner.json";

fn audit(manifest: &str, runner: &str) -> Vec<Report> {
    let runner = Runner::parse(runner.as_bytes(), RUNNER).unwrap();
    let options = AuditOptions {
        today: Date::parse("2026-11-29"),
    };
    import::import(manifest.as_bytes(), Format::Kubernetes)
        .unwrap()
        .iter()
        .map(|u| {
            isolint_core::runner::audit_imported(
                u,
                MANIFEST,
                &Labels::workshop(),
                &options,
                &runner,
            )
            .unwrap()
        })
        .collect()
}

fn read(name: &str) -> String {
    std::fs::read_to_string(dir().join(name)).unwrap()
}

/// Replace exactly one occurrence of `from`.
fn change(text: &str, from: &str, to: &str) -> String {
    assert_eq!(text.matches(from).count(), 1, "`{from}` must occur once");
    text.replacen(from, to, 1)
}

fn blocking(r: &Report) -> Vec<(String, String, u32)> {
    r.issues
        .iter()
        .filter(|f| f.blocks())
        .map(|f| {
            let o = f
                .origin
                .as_ref()
                .expect("every imported finding has an origin");
            (f.rule.to_string(), o.file.clone(), o.line)
        })
        .collect()
}

#[test]
fn the_hardened_pod_with_its_policy_and_runner_is_eligible() {
    let reports = audit(&read(MANIFEST), &read(RUNNER));
    assert_eq!(reports.len(), 1);
    let r = &reports[0];
    assert_eq!(blocking(r), [], "{:#?}", r.issues);
    assert_eq!(r.verdict, Verdict::EligibleForRuntimeTesting);
    // Without the overlay the same manifest is not eligible: the runner
    // settings really are what closes the gap.
    let options = AuditOptions {
        today: Date::parse("2026-11-29"),
    };
    let plain = import::import(read(MANIFEST).as_bytes(), Format::Kubernetes).unwrap();
    let r = import::audit_imported(&plain[0], MANIFEST, &Labels::workshop(), &options).unwrap();
    assert_eq!(r.verdict, Verdict::NotEligible);
    assert!(r.issues.iter().all(|f| f.severity != Severity::Critical));
}

/// One change per row: (what, file changed, from, to, rule, file, line).
#[test]
fn undoing_any_one_hardening_setting_blocks_at_its_line() {
    let m = MANIFEST;
    let rn = RUNNER;
    let cases: &[(&str, &str, &str, &str, &str, &str, u32)] = &[
        // Manifest: the line holding the setting, or, for a setting
        // removed, the key it belongs under (`spec:` 14, the container's
        // `securityContext:` 32, `resources:` 38 and `limits:` 39).
        (
            "service-account token mounted",
            m,
            "  automountServiceAccountToken: false\n",
            "",
            "MNT002",
            m,
            14,
        ),
        (
            "root user allowed",
            m,
            "    runAsNonRoot: true\n    runAsUser: 1000\n",
            "",
            "PRV004",
            m,
            30,
        ),
        (
            "root uid",
            m,
            "runAsUser: 1000",
            "runAsUser: 0",
            "PRV004",
            m,
            22,
        ),
        (
            "privilege escalation",
            m,
            "allowPrivilegeEscalation: false",
            "allowPrivilegeEscalation: true",
            "PRV005",
            m,
            33,
        ),
        (
            "privileged",
            m,
            "privileged: false",
            "privileged: true",
            "PRV001",
            m,
            35,
        ),
        (
            "capabilities kept",
            m,
            "      capabilities:\n        drop: [ALL]\n",
            "",
            "PRV003",
            m,
            32,
        ),
        (
            "seccomp unconfined",
            m,
            "type: RuntimeDefault",
            "type: Unconfined",
            "PRV007",
            m,
            25,
        ),
        (
            "host user namespace",
            m,
            "  hostUsers: false\n",
            "",
            "PRV006",
            m,
            14,
        ),
        (
            "host network",
            m,
            "  hostUsers: false\n",
            "  hostUsers: false\n  hostNetwork: true\n",
            "PRV006",
            m,
            18,
        ),
        (
            "host network egress",
            m,
            "  hostUsers: false\n",
            "  hostUsers: false\n  hostNetwork: true\n",
            "NET002",
            m,
            18,
        ),
        (
            "no deadline",
            m,
            "  activeDeadlineSeconds: 300\n",
            "",
            "LIM001",
            m,
            37,
        ),
        (
            "no memory limit",
            m,
            "        memory: 256Mi\n",
            "",
            "LIM003",
            m,
            38,
        ),
        (
            "image by tag",
            m,
            "@sha256:fcb75f691c8b0414d670ae570240cbf95502cc18a9ba57e982ecac589760a186",
            ":1.0",
            "DEP006",
            m,
            28,
        ),
        // The NetworkPolicy: egress comes from it, so when it stops
        // applying the finding points at the overlay's `network` (line 3),
        // the only place left that says anything about the network.
        (
            "policy isolates ingress only",
            m,
            "  policyTypes:\n  - Egress\n",
            "  policyTypes:\n  - Ingress\n",
            "NET001",
            rn,
            3,
        ),
        (
            "policy in another namespace",
            m,
            "  name: default-deny-egress\n  namespace: ci\n",
            "  name: default-deny-egress\n  namespace: other\n",
            "NET001",
            rn,
            3,
        ),
        (
            "policy selects other pods",
            m,
            "  podSelector: {}\n",
            "  podSelector: {matchLabels: {app: db}}\n",
            "NET001",
            rn,
            3,
        ),
        (
            "policy allows all",
            m,
            "  - Egress\n",
            "  - Egress\n  egress:\n  - {}\n",
            "NET002",
            m,
            53,
        ),
        // The overlay: the line of the section that lacks the setting.
        (
            "worker kept",
            rn,
            "\"destroy_worker\": true, ",
            "",
            "CLN001",
            rn,
            14,
        ),
        (
            "no process limit",
            rn,
            "\"processes\": 64, ",
            "",
            "LIM004",
            m,
            38,
        ),
        // Overlay and manifest disagree: blocking, at the manifest's value.
        (
            "runner says limits are only requested",
            rn,
            "\"enforced_by\": \"cgroup\"",
            "\"enforced_by\": \"request\"",
            "PRF020",
            m,
            40,
        ),
        (
            "runner says allow-all",
            rn,
            "\"follow_redirects\": false",
            "\"egress\": \"allow-all\", \"follow_redirects\": false",
            "PRF020",
            m,
            43,
        ),
    ];
    let mut wrong = Vec::new();
    for (what, file, from, to, rule, at_file, line) in cases {
        let (man, run) = if *file == MANIFEST {
            (change(&read(MANIFEST), from, to), read(RUNNER))
        } else {
            (read(MANIFEST), change(&read(RUNNER), from, to))
        };
        let reports = audit(&man, &run);
        let r = &reports[0];
        let got = blocking(r);
        let want = (rule.to_string(), at_file.to_string(), *line);
        if r.verdict != Verdict::NotEligible || !got.contains(&want) {
            wrong.push(format!("{what}: want {want:?}, got {got:?}"));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// Every importer has a runner fixture (`fixtures/runner/<format>.json`,
/// Kubernetes' beside its manifest) that parses and fills fields each of
/// that format's import fixtures leaves undeclared, without a conflict
/// where the import already declares the same value.
#[test]
fn every_importer_has_a_runner_fixture_that_fills_gaps() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures");
    for format in Format::ALL {
        let file = match format {
            Format::Kubernetes => root.join("runner/kubernetes/runner.json"),
            f => root.join(format!("runner/{}.json", f.name())),
        };
        let bytes = std::fs::read(&file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        let runner = Runner::parse(&bytes, "runner.json").unwrap();
        let dir = root.join("import").join(format.name());
        let mut filled = 0;
        for entry in std::fs::read_dir(&dir).unwrap() {
            let p = entry.unwrap().path();
            let n = p.file_name().unwrap().to_string_lossy().to_string();
            if n.ends_with(".expected.json") || n.ends_with(".expect.json") {
                continue;
            }
            let Ok(units) = import::import(&std::fs::read(&p).unwrap(), format) else {
                continue;
            };
            for u in &units {
                let o = runner.overlay(&u.profile_json).unwrap();
                filled += o.from_runner.len();
            }
        }
        assert!(filled > 0, "{}: the runner fills nothing", format.name());
    }
}

/// The NetworkPolicy, RuntimeClass and a LimitRange in another file of the
/// run apply as if they were in the manifest's stream, and nothing of the
/// result points at a line of that other file.
#[test]
fn cluster_objects_in_another_file_of_the_run_apply() {
    let text = read(MANIFEST);
    let split = text.find("---\n").unwrap();
    let (pod, objects) = text.split_at(split);
    let pod = pod.replace("        memory: 256Mi\n", "");
    let objects = format!(
        "{objects}---\napiVersion: v1\nkind: LimitRange\nmetadata: {{name: mem, namespace: ci}}\nspec:\n  limits:\n  - type: Container\n    default: {{memory: 128Mi}}\n"
    );
    assert_eq!(
        import::kubernetes_cluster_objects_only(objects.as_bytes()),
        Some(vec![
            "NetworkPolicy/default-deny-egress".to_string(),
            "RuntimeClass/gvisor".to_string(),
            "LimitRange/mem".to_string()
        ])
    );
    assert_eq!(
        import::kubernetes_cluster_objects_only(pod.as_bytes()),
        None
    );
    let alone = import::import(pod.as_bytes(), Format::Kubernetes).unwrap();
    let v: serde_json::Value = serde_json::from_str(&alone[0].profile_json).unwrap();
    assert!(v.get("network").is_none());
    let with =
        import::import_with_companions(pod.as_bytes(), Format::Kubernetes, &[objects.as_bytes()])
            .unwrap();
    let u = &with[0];
    let v: serde_json::Value = serde_json::from_str(&u.profile_json).unwrap();
    assert_eq!(v["network"]["egress"], "deny");
    assert_eq!(v["boundary"]["runtime"]["name"], "gvisor");
    assert_eq!(v["limits"]["memory_bytes"], 128u64 << 20);
    let lines = pod.lines().count() as u32;
    for m in &u.source_map {
        assert!(
            (1..=lines).contains(&m.line),
            "{} at line {}",
            m.pointer,
            m.line
        );
    }
    for n in &u.notes {
        assert!(
            (1..=lines).contains(&n.line),
            "note at line {}: {}",
            n.line,
            n.message
        );
    }
    assert!(u
        .notes
        .iter()
        .any(|n| n.message.contains("another file of this run")));
}

/// A finding about a value only the overlay declared points into the
/// overlay: front ends showing the manifest must not place it on the
/// manifest's line of the same number.
#[test]
fn findings_from_the_overlay_have_no_position_in_the_manifest() {
    // An overlay that declares a blocking value the manifest cannot say.
    let runner = r#"{
  "cleanup": { "destroy_worker": false }
}"#;
    let reports = audit(&read(MANIFEST), runner);
    let r = &reports[0];
    let f = r
        .issues
        .iter()
        .find(|f| f.pointer.starts_with("/cleanup"))
        .expect("a cleanup finding");
    let o = f.origin.as_ref().expect("origin");
    assert_eq!((o.file.as_str(), o.line), (RUNNER, 2));
    assert_eq!(isolint_core::view_model::shown_position(r, f), (None, None));
    let detail =
        isolint_core::view_model::detail(r, r.issues.iter().position(|g| g == f).unwrap()).unwrap();
    assert_eq!(detail.shown_line, None);
    // A finding from the manifest keeps its manifest position.
    let g = r
        .issues
        .iter()
        .find(|g| g.origin.as_ref().is_some_and(|o| o.file == MANIFEST))
        .expect("a manifest finding");
    assert!(isolint_core::view_model::shown_position(r, g).0.is_some());
}
