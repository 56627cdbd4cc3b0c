//! Deterministic synthetic inputs for benchmarks and scale tests: profiles
//! with N mounts and catalogs with N labels. Pure functions; the bench
//! script's generator writes them to disk.

fn pick(classes: &[&'static str], k: usize) -> &'static str {
    classes
        .get(k % classes.len().max(1))
        .copied()
        .unwrap_or("scratch")
}

/// A catalog of `n` labels spread over a realistic tree: projects with
/// snapshots, scratch, caches and a few sensitive homes and sockets.
pub fn catalog(n: usize) -> String {
    let classes = [
        "source-snapshot",
        "scratch",
        "output",
        "dependency-cache",
        "test-service",
    ];
    let mut s = String::with_capacity(n * 80 + 200);
    s.push_str(
        "{\n  \"schema\": \"isolint.labels/v1\",\n  \"name\": \"synthetic\",\n  \"labels\": [\n",
    );
    for i in 0..n {
        let (path, class) = match i % 50 {
            0 => (format!("/home/user{i}"), "developer-home"),
            1 => (format!("/home/user{}/.aws", i - 1), "credential-store"),
            2 => (format!("/run/svc{i}/db.sock"), "production-socket"),
            3 => (format!("/etc/runner{i}"), "trusted-config"),
            k => {
                let c = pick(&classes, k);
                (format!("/srv/p{}/{c}/d{i}", i / 50), c)
            }
        };
        s.push_str(&format!(
            "    {{ \"path\": \"{path}\", \"label\": \"{class}\" }}{}\n",
            if i + 1 < n { "," } else { "" }
        ));
    }
    s.push_str("  ]\n}\n");
    s
}

/// A profile with `n` mounts over the tree [`catalog`] labels, plus the
/// fixed workshop settings for every other section. Variant `seed` shifts
/// names so batch profiles differ.
pub fn profile(n: usize, seed: usize) -> String {
    let mut mounts = String::with_capacity(n * 110);
    let classes = [
        "source-snapshot",
        "scratch",
        "output",
        "dependency-cache",
        "test-service",
    ];
    for i in 0..n {
        let k = (i + seed) % 50;
        let (source, access) = match k {
            7 => (format!("/home/user{}", i - i % 50), "read-only"),
            13 => (format!("/srv/unlabelled/x{i}"), "read-only"),
            _ => {
                let c = pick(&classes, k);
                (
                    format!("/srv/p{}/{c}/d{}/job", i / 50, i - i % 50 + k),
                    if c == "scratch" || c == "output" {
                        "read-write"
                    } else {
                        "read-only"
                    },
                )
            }
        };
        mounts.push_str(&format!(
            "    {{ \"source\": \"{source}\", \"target\": \"/m/{i}\", \"access\": \"{access}\" }}{}\n",
            if i + 1 < n { "," } else { "" }
        ));
    }
    format!(
        r#"{{
  "schema": "isolint.profile/v1",
  "name": "synthetic-{seed}-{n}",
  "tenancy": "internal",
  "needs": {{ "inputs": ["source-snapshot", "dependency-cache", "test-service"], "outputs": ["scratch", "output"], "services": [] }},
  "boundary": {{
    "kind": "container", "label": "ci-runner",
    "runtime": {{ "name": "runc", "version": "1.2.4", "patched_on": "2026-10-01" }},
    "privileged": false, "capabilities": {{ "add": [], "drop": ["ALL"] }}, "user": "1000:1000",
    "no_new_privileges": true, "host_namespaces": [], "seccomp": "default", "read_only_root": true
  }},
  "mounts": [
{mounts}  ],
  "network": {{ "egress": "deny", "enforced_by": "network-policy", "allow": [], "follow_redirects": false, "dns": "pinned" }},
  "environment": {{ "inherit": false, "variables": {{ "LANG": "C.UTF-8", "JOB": "{seed}" }} }},
  "credentials": [],
  "command": {{ "executable": "python", "arguments": ["-m", "pytest", "tests/test_{seed}.py"] }},
  "setup": [],
  "limits": {{ "wall_seconds": 300, "cpu_seconds": 120, "memory_bytes": 536870912, "processes": 64, "output_bytes": 10485760, "enforced_by": "cgroup", "timeout_kills": "process-group" }},
  "concurrency": {{ "max_jobs": 8, "release_after": "cleanup" }},
  "dependencies": {{ "prepared_in": "image", "image": "registry.example/runner@sha256:4f9c2a1b0d3e5f6a7b8c9d0e1f2a3b4c5d6e7f8a9b0c1d2e3f4a5b6c7d8e9f0a", "lockfile": "requirements.lock", "install_hooks_reviewed": true, "preserve_inputs": true }},
  "artifacts": {{ "collect": ["reports/junit.xml"], "max_bytes": 1048576, "log_max_bytes": 262144, "treat_as_untrusted": true }},
  "cleanup": {{ "destroy_worker": true, "expire_credentials": true, "on_failure": "retry-then-alert", "retain": ["exit-code", "duration"] }}
}}
"#
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{audit, AuditOptions, Labels};

    #[test]
    fn synthetic_inputs_parse_and_audit() {
        let labels = Labels::load(catalog(200).as_bytes()).unwrap();
        assert_eq!(labels.index.catalog().labels.len(), 200);
        let r = audit(
            profile(200, 3).as_bytes(),
            "s.json",
            &labels,
            &AuditOptions::default(),
        )
        .unwrap();
        assert_eq!(r.mounts.len(), 200);
        assert!(r.mounts.iter().any(|m| m.label == "developer-home"));
        assert!(r.mounts.iter().any(|m| m.label == "unlabelled"));
        assert!(r.mounts.iter().any(|m| m.label == "scratch"));
    }
}
