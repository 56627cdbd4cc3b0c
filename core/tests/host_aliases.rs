// Tests read fixture files; the I/O ban of core/clippy.toml is for the library itself.
#![allow(clippy::disallowed_methods, clippy::disallowed_types)]

//! Aliases of host secrets (issue 42, item 2): a mount source is judged by
//! what it names on the host, whatever class its spelling suggests, and
//! the profile's own `needs` cannot vouch for it.
//!
//! Each row mounts one source, read-only, into the hardened workshop
//! profile whose `needs` list every class a profile may ask for (`system`
//! included). A positive row must then block through the named rule at
//! the added mount; a negative row (a harmless neighbour) must stay
//! eligible, so the table cannot pass by blocking everything.

use isolint_core::{audit, AuditOptions, Date, Labels, Severity, Verdict};

/// Every class `needs` may name that is not sensitive in itself.
const ALL_NEEDS: &str = r#"{"inputs":["source-snapshot","dependency-cache","trusted-config","system","test-service"],"outputs":["scratch","output"],"services":["test-service"]}"#;

fn profile(source: &str) -> String {
    let mut p: serde_json::Value =
        serde_json::from_str(include_str!("../../fixtures/profiles/workshop-fixed.json")).unwrap();
    p["needs"] = serde_json::from_str(ALL_NEEDS).unwrap();
    p["mounts"].as_array_mut().unwrap().push(serde_json::json!({
        "source": source, "target": "/mnt/host", "access": "read-only"
    }));
    p.to_string()
}

/// (rule, severity) of the findings about mount 2, and the verdict.
fn judge(source: &str) -> (Vec<(&'static str, Severity)>, Verdict) {
    let opts = AuditOptions {
        today: Date::parse("2026-11-29"),
    };
    let r = audit(
        profile(source).as_bytes(),
        "t.json",
        &Labels::workshop(),
        &opts,
    )
    .unwrap();
    let at: Vec<_> = r
        .issues
        .iter()
        .filter(|f| f.pointer.starts_with("/mounts/2/"))
        .map(|f| (f.rule, f.severity))
        .collect();
    (at, r.verdict)
}

const C: Severity = Severity::Critical;
const H: Severity = Severity::High;
const M: Severity = Severity::Medium;

/// (source, rule that must fire at the mount, its severity)
const POSITIVE: &[(&str, &str, Severity)] = &[
    // /proc/<pid>/root is the root of that process: for pid 1, the host's.
    ("/proc/1/root", "MNT005", C),
    ("/proc/1/root/", "MNT005", C),
    ("/proc//1/./root", "MNT005", C),
    ("/proc/1/task/1/root", "MNT005", C),
    ("/proc/self/root/home/u/.aws", "MNT002", C),
    ("/proc/thread-self/root/home/u/.aws", "MNT002", C),
    ("/proc/self/root/home/u/.aws/credentials", "MNT002", C),
    ("/proc/42/root/etc/shadow", "MNT002", C),
    ("/proc/1/root/proc/1/root/root/.ssh", "MNT002", C),
    ("/proc/self/root/var/run/docker.sock", "MNT004", C),
    ("/proc/1/root/home/u", "MNT001", C),
    ("/proc/1/root/var/lib/docker", "MNT020", H),
    // A process's own state is a secret or a way out in itself.
    ("/proc/1/environ", "MNT002", C),
    ("/proc/self/environ", "MNT002", C),
    ("/proc/1/cmdline", "MNT002", C),
    ("/proc/1/mem", "MNT002", C),
    ("/proc/1/fd", "MNT002", C),
    ("/proc/1/fd/3", "MNT002", C),
    ("/proc/self/fd/0", "MNT002", C),
    ("/proc/1/map_files", "MNT002", C),
    ("/proc/1/cwd", "MNT002", C),
    ("/proc/1/ns/mnt", "MNT002", C),
    ("/proc/1/task/7/environ", "MNT002", C),
    // `..` after an entry climbs from wherever the entry points.
    ("/proc/1/fd/3/../../../etc", "MNT002", C),
    ("/proc/self/root/../../etc/passwd", "MNT002", C),
    ("/proc/1", "MNT005", C),
    ("/proc", "MNT005", C),
    // Host credential files outside home directories.
    ("/etc/shadow", "MNT002", C),
    ("/etc/gshadow", "MNT002", C),
    ("/etc/shadow-", "MNT002", C),
    ("/etc//shadow/", "MNT002", C),
    ("/etc/kubernetes/admin.conf", "MNT002", C),
    ("/etc/kubernetes/super-admin.conf", "MNT002", C),
    ("/etc/kubernetes/kubelet.conf", "MNT002", C),
    ("/etc/kubernetes/pki", "MNT002", C),
    ("/etc/kubernetes/pki/ca.key", "MNT002", C),
    ("/etc/kubernetes", "MNT002", C),
    ("/etc/rancher/k3s/k3s.yaml", "MNT002", C),
    ("/etc/rancher/rke2/rke2.yaml", "MNT002", C),
    ("/var/lib/rancher/k3s/server/token", "MNT002", C),
    ("/var/lib/kubelet", "MNT002", C),
    ("/var/lib/kubelet/pods", "MNT002", C),
    ("/var/lib/etcd", "MNT002", C),
    ("/etc/ssh/ssh_host_ed25519_key", "MNT002", C),
    ("/etc/ssh/ssh_host_rsa_key", "MNT002", C),
    ("/etc/ssh", "MNT005", C),
    ("/etc", "MNT005", C),
    ("/etc/ssl/private", "MNT002", C),
    ("/etc/pki/tls/private", "MNT002", C),
    ("/etc/letsencrypt", "MNT002", C),
    ("/etc/krb5.keytab", "MNT002", C),
    ("/etc/wireguard", "MNT002", C),
    ("/etc/gitlab-runner", "MNT002", C),
    ("/etc/gitlab-runner/config.toml", "MNT002", C),
    ("/etc/buildkite-agent/buildkite-agent.cfg", "MNT002", C),
    ("/opt/actions-runner/.credentials", "MNT002", C),
    ("/opt/actions-runner/.runner", "MNT002", C),
    ("/srv/ci/actions-runner/.credentials_rsaparams", "MNT002", C),
    ("/opt/actions-runner", "MNT002", C),
    ("/var/lib/jenkins", "MNT002", C),
    ("/var/lib/cloud", "MNT002", C),
    ("/var/lib/cloud/instance/user-data.txt", "MNT002", C),
    ("/var/lib/waagent", "MNT002", C),
    ("/var/lib/docker", "MNT020", H),
    ("/var/lib/containerd", "MNT020", H),
    ("/run/containerd", "MNT004", C),
    ("/var/run/docker.sock", "MNT004", C),
    ("/run/secrets", "MNT002", C),
    ("/var/run/secrets/kubernetes.io/serviceaccount", "MNT002", C),
    // Device nodes, judged by the device.
    ("/dev/sda", "PRV022", C),
    ("/dev/sda1", "PRV022", C),
    ("/dev/nvme0n1", "PRV022", C),
    ("/dev/disk/by-id/x", "PRV022", C),
    ("/dev/mapper/root", "PRV022", C),
    ("/dev/mem", "PRV022", C),
    ("/dev/kmem", "PRV022", C),
    ("/dev/port", "PRV022", C),
    ("/dev", "PRV022", C),
    ("/dev/", "PRV022", C),
    ("/proc/1/root/dev/sda", "PRV022", C),
    ("/dev/kvm", "PRV022", H),
    ("/dev/fuse", "PRV022", M),
];

/// Harmless neighbours of the rows above: eligible with these needs.
const NEGATIVE: &[&str] = &[
    "/etc/ssl/certs",
    "/etc/ssh/ssh_config",
    "/etc/ssh/ssh_host_ed25519_key.pub",
    "/etc/shadowsocks",
    "/etc/kubernetes-release",
    "/etc/os-release",
    "/usr/share/zoneinfo",
    "/proc/cpuinfo",
    "/proc/1/status",
    "/proc/self/rootfs",
    "/dev/null",
    "/dev/urandom",
];

#[test]
fn aliases_of_host_secrets_are_judged_by_what_they_name() {
    let mut failed = Vec::new();
    for (source, rule, severity) in POSITIVE {
        let (at, verdict) = judge(source);
        let fired = at.iter().any(|(r, s)| r == rule && s == severity);
        let blocks = !severity.blocks() || verdict == Verdict::NotEligible;
        if !(fired && blocks) {
            failed.push(format!(
                "{source}: want {rule} {severity:?}, got {at:?} {verdict:?}"
            ));
        }
    }
    for source in NEGATIVE {
        let (at, verdict) = judge(source);
        if verdict != Verdict::EligibleForRuntimeTesting {
            failed.push(format!("{source}: want eligible, got {at:?}"));
        }
    }
    assert!(
        failed.is_empty(),
        "{} of {} rows failed:\n{}",
        failed.len(),
        POSITIVE.len() + NEGATIVE.len(),
        failed.join("\n")
    );
}

/// `needs: [system]` is written by the profile's author: it vouches for no
/// row. The same rows, with only `system` needed, still block.
#[test]
fn needs_system_vouches_for_no_alias() {
    let mut failed = Vec::new();
    for (source, _, severity) in POSITIVE.iter().filter(|r| r.2.blocks()) {
        let opts = AuditOptions { today: None };
        let p = profile(source).replace(
            &serde_json::from_str::<serde_json::Value>(ALL_NEEDS)
                .unwrap()
                .to_string(),
            r#"{"inputs":["system","source-snapshot"],"outputs":["scratch"],"services":[]}"#,
        );
        assert!(p.contains(r#""inputs":["system""#), "{p}");
        let r = audit(p.as_bytes(), "t.json", &Labels::workshop(), &opts).unwrap();
        let blocking_here = r
            .issues
            .iter()
            .any(|f| f.pointer.starts_with("/mounts/2/") && f.severity.blocks());
        if r.verdict != Verdict::NotEligible || !blocking_here {
            failed.push(format!("{source} ({severity:?})"));
        }
    }
    assert!(
        failed.is_empty(),
        "{} rows eligible: {failed:?}",
        failed.len()
    );
}

/// The finding names the host path an alias leads to, beside the path as
/// written, so a reviewer sees what `/proc/self/root/...` is.
#[test]
fn an_alias_finding_names_the_host_path() {
    let opts = AuditOptions { today: None };
    let r = audit(
        profile("/proc/self/root/home/u/.aws").as_bytes(),
        "t.json",
        &Labels::workshop(),
        &opts,
    )
    .unwrap();
    let f = r
        .issues
        .iter()
        .find(|f| f.rule == "MNT002" && f.pointer == "/mounts/2/source")
        .unwrap();
    assert_eq!(f.evidence["host_path"], "/home/u/.aws");
    assert_eq!(f.evidence["label_path"], "/proc/self/root/home/u/.aws");
    assert_eq!(f.evidence["job_path"], "/mnt/host");
}
