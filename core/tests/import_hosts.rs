// Tests read fixture files; the I/O ban of core/clippy.toml is for the library itself.
#![allow(clippy::disallowed_methods, clippy::disallowed_types)]

//! The importers that fill `network.allow` (sandbox-runtime settings,
//! Kubernetes NetworkPolicy; Codex writes only empty lists) write hosts the
//! allow-list host check (NET010) accepts, so an imported file is never
//! blamed for the importer's notation. A URL in the source file itself
//! is still reported.

use std::path::{Path, PathBuf};

use isolint_core::import::{self, Format};
use isolint_core::{AuditOptions, Date, Labels};

/// NET010 findings, and how many allow entries the imports held.
fn host_findings(bytes: &[u8], format: Format) -> (Vec<String>, usize) {
    let options = AuditOptions {
        today: Date::parse("2026-11-29"),
    };
    let mut found = Vec::new();
    let mut entries = 0;
    for u in import::import(bytes, format).unwrap() {
        let r = isolint_core::audit::audit_imported(
            &u,
            "input",
            &Labels::workshop(),
            &options,
            None,
            &isolint_core::InOrder,
        )
        .unwrap();
        entries += u.profile_json.matches("\"host\"").count();
        found.extend(
            r.issues
                .iter()
                .filter(|f| f.rule == "NET010")
                .map(|f| format!("{} {}", f.pointer, f.message)),
        );
    }
    (found, entries)
}

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            files(&p, out);
        } else {
            out.push(p);
        }
    }
}

#[test]
fn imported_allow_entries_are_plain_hosts() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/import");
    let mut all = Vec::new();
    files(&root, &mut all);
    all.sort();
    let mut entries = 0;
    let mut imported = 0;
    for p in all {
        let name = p.file_name().unwrap().to_string_lossy().to_string();
        if p.to_string_lossy().contains("malformed")
            || name.ends_with(".source")
            || name.ends_with(".findings")
            || name.contains(".expect")
        {
            continue;
        }
        let bytes = std::fs::read(&p).unwrap();
        let Some(format) = import::detect(&bytes, Some(&name)) else {
            continue;
        };
        let Ok(units) = import::import(&bytes, format) else {
            continue;
        };
        if units.is_empty() {
            continue;
        }
        let (found, n) = host_findings(&bytes, format);
        assert!(found.is_empty(), "{}: {found:?}", p.display());
        entries += n;
        imported += 1;
    }
    assert!(imported >= 30, "{imported}");
    assert!(entries >= 2, "{entries}");
}

#[test]
fn network_policy_peers_and_sandbox_domains() {
    let policy = "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: api}\nspec:\n  template:\n    metadata: {labels: {app: api}}\n    spec:\n      containers:\n      - name: api\n        image: registry.example/api@sha256:4f9c2a1b0d3e5f6a7b8c9d0e1f2a3b4c5d6e7f8a9b0c1d2e3f4a5b6c7d8e9f0a\n---\napiVersion: networking.k8s.io/v1\nkind: NetworkPolicy\nmetadata: {name: egress}\nspec:\n  podSelector: {}\n  policyTypes: [Egress]\n  egress:\n  - to: [{ipBlock: {cidr: 10.20.0.0/16}}, {ipBlock: {cidr: '2001:db8::/64'}}]\n    ports: [{port: 5432}]\n  - to: [{podSelector: {matchLabels: {app: db}}}]\n    ports: [{port: 5432}]\n  - to: [{namespaceSelector: {}, podSelector: {matchLabels: {k8s-app: kube-dns}}}]\n    ports: [{port: 53, protocol: UDP}]\n";
    let (found, n) = host_findings(policy.as_bytes(), Format::parse("kubernetes").unwrap());
    assert!(found.is_empty(), "{found:?}");
    assert!(n >= 3, "{n}");

    let srt = br#"{"network": {"allowedDomains": ["github.com", "*.npmjs.org", "registry.yarnpkg.com."]}}"#;
    let format = import::detect(srt, Some("srt-settings.json")).unwrap();
    let (found, n) = host_findings(srt, format);
    assert!(found.is_empty(), "{found:?}");
    assert_eq!(n, 3);

    // A URL in the settings file is the file's, and is reported.
    let url = br#"{"network": {"allowedDomains": ["https://github.com/org"]}}"#;
    let (found, _) = host_findings(url, format);
    assert_eq!(found.len(), 1, "{found:?}");
}
