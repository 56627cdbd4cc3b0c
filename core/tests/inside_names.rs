//! Names that resolve inside (issue 42, item 3): an allow entry is judged
//! by the address it can reach. Cluster-internal and private suffixes
//! resolve only inside a private network; wildcard-IP and rebinding
//! services answer with an address chosen in the name, so such a name is
//! judged by that address, or as private where the name does not tell.
//!
//! Each row is one allow entry of an otherwise hardened profile; it lists
//! the (rule, severity) pairs expected at `/network/allow/0/host` among
//! NET004 (private or metadata destination) and NET024 (a name whose
//! address its writer chooses).

use isolint_core::{audit, AuditOptions, Labels, Severity};

fn at_host(host: &str) -> Vec<(&'static str, Severity)> {
    let mut p: serde_json::Value =
        serde_json::from_str(include_str!("../../fixtures/profiles/workshop-fixed.json")).unwrap();
    p["network"] = serde_json::json!({
        "egress": "allow-list", "enforced_by": "firewall",
        "allow": [{"host": host, "port": 443, "protocol": "https"}],
        "follow_redirects": false, "dns": "pinned"
    });
    let r = audit(
        p.to_string().as_bytes(),
        "t.json",
        &Labels::workshop(),
        &AuditOptions { today: None },
    )
    .unwrap();
    let mut v: Vec<_> = r
        .issues
        .iter()
        .filter(|f| f.pointer == "/network/allow/0/host" && matches!(f.rule, "NET004" | "NET024"))
        .map(|f| (f.rule, f.severity))
        .collect();
    v.sort_by_key(|x| x.0);
    v
}

const C: Severity = Severity::Critical;
const H: Severity = Severity::High;

type Row = (&'static str, &'static [(&'static str, Severity)]);

const TABLE: &[Row] = &[
    // Cluster-internal and private suffixes: private, whatever the label.
    ("svc.cluster.local", &[("NET004", H)]),
    ("*.svc", &[("NET004", H)]),
    ("vault.vault.svc", &[("NET004", H)]),
    ("vault.vault.svc.", &[("NET004", H)]),
    ("Vault.Vault.SVC", &[("NET004", H)]),
    ("vault.vault.svc.cluster.local", &[("NET004", H)]),
    ("*.cluster.local", &[("NET004", H)]),
    ("*.consul", &[("NET004", H)]),
    ("vault.service.consul", &[("NET004", H)]),
    ("vault.service.dc1.consul", &[("NET004", H)]),
    ("db.internal", &[("NET004", H)]),
    ("*.internal", &[("NET004", H)]),
    ("printer.local", &[("NET004", H)]),
    ("nas.lan", &[("NET004", H)]),
    ("router.home.arpa", &[("NET004", H)]),
    ("*.home.arpa", &[("NET004", H)]),
    // Services that answer loopback for every name under them.
    ("localtest.me", &[("NET004", H), ("NET024", H)]),
    ("app.localtest.me", &[("NET004", H), ("NET024", H)]),
    ("lvh.me", &[("NET004", H), ("NET024", H)]),
    ("*.lvh.me", &[("NET004", H), ("NET024", H)]),
    ("app.vcap.me", &[("NET004", H), ("NET024", H)]),
    ("app.localhost.direct", &[("NET004", H), ("NET024", H)]),
    ("www.lacolhost.com", &[("NET004", H), ("NET024", H)]),
    // Wildcard-IP services: the address written in the name.
    ("169.254.169.254.nip.io", &[("NET004", C), ("NET024", H)]),
    (
        "app.169.254.169.254.nip.io",
        &[("NET004", C), ("NET024", H)],
    ),
    ("169-254-169-254.nip.io", &[("NET004", C), ("NET024", H)]),
    (
        "app-169-254-169-254.nip.io",
        &[("NET004", C), ("NET024", H)],
    ),
    ("a9fea9fe.nip.io", &[("NET004", C), ("NET024", H)]),
    ("magic.app-a9fea9fe.nip.io", &[("NET004", C), ("NET024", H)]),
    ("10.0.0.1.sslip.io", &[("NET004", H), ("NET024", H)]),
    ("app.10-0-0-1.sslip.io", &[("NET004", H), ("NET024", H)]),
    ("--1.sslip.io", &[("NET004", H), ("NET024", H)]),
    ("fd00-ec2--254.sslip.io", &[("NET004", C), ("NET024", H)]),
    ("169.254.169.254.xip.io", &[("NET004", C), ("NET024", H)]),
    ("10.0.0.1.traefik.me", &[("NET004", H), ("NET024", H)]),
    // Rebinding services: every address the name can answer.
    (
        "make-169.254.169.254-rr.1u.ms",
        &[("NET004", C), ("NET024", H)],
    ),
    (
        "make-1.2.3.4-rebind-169.254.169.254-rr.1u.ms",
        &[("NET004", C), ("NET024", H)],
    ),
    (
        "make-1-2-3-4-rebind-169-254-169-254-rr.1u.ms",
        &[("NET004", C), ("NET024", H)],
    ),
    ("make-10.0.0.1-rr.1u.ms", &[("NET004", H), ("NET024", H)]),
    (
        "7f000001.a9fea9fe.rbndr.us",
        &[("NET004", C), ("NET024", H)],
    ),
    (
        "08080808.c0a80001.rbndr.us",
        &[("NET004", H), ("NET024", H)],
    ),
    // Where the name does not tell the address: private.
    ("*.nip.io", &[("NET004", H), ("NET024", H)]),
    ("app.nip.io", &[("NET004", H), ("NET024", H)]),
    (
        "s-1.2.3.4-169.254.169.254-4242-fs-e.d.rebind.it",
        &[("NET004", C), ("NET024", H)],
    ),
    ("*.rbndr.us", &[("NET004", H), ("NET024", H)]),
    ("anything.rbndr.us", &[("NET004", H), ("NET024", H)]),
    ("*.1u.ms", &[("NET004", H), ("NET024", H)]),
    ("make-rr.1u.ms", &[("NET004", H), ("NET024", H)]),
    // A public address chosen in the name: still a name its writer steers.
    ("8.8.8.8.nip.io", &[("NET024", H)]),
    ("make-8.8.8.8-rr.1u.ms", &[("NET024", H)]),
    ("08080808.08080404.rbndr.us", &[("NET024", H)]),
    // Benign neighbours.
    ("pypi.org", &[]),
    ("svc.example.com", &[]),
    ("example.svc.io", &[]),
    ("consul.io", &[]),
    ("api.consul.io", &[]),
    ("internal.example.com", &[]),
    ("local.example.com", &[]),
    ("lan.example.org", &[]),
    ("nip.io.example.com", &[]),
    ("rbndr.us.example.com", &[]),
    ("1u.ms.example.com", &[]),
    ("lvh.me.example.com", &[]),
    ("203.0.113.7", &[]),
];

#[test]
fn names_are_judged_by_the_address_they_reach() {
    let mut failed = Vec::new();
    for (host, want) in TABLE {
        let got = at_host(host);
        if got != *want {
            failed.push(format!("{host}: want {want:?}, got {got:?}"));
        }
    }
    assert!(
        failed.is_empty(),
        "{} of {} rows failed:\n{}",
        failed.len(),
        TABLE.len(),
        failed.join("\n")
    );
}
