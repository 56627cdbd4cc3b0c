//! What to change in the original file, in its own vocabulary: for a
//! finding of an imported profile, the setting of the source format that
//! the profile field came from. Remediation text names profile fields
//! (`network.egress`); a reviewer fixing a Pod or a Compose service needs
//! the Kubernetes or Compose setting instead. Only mappings that hold for
//! every finding of an area (or a rule) are listed; elsewhere the profile
//! field's remediation stands alone.

use crate::finding::{Area, Finding};

/// One row: the format (its [`super::Format::name`]), a rule id prefix or
/// exact id (`""` for any rule), the area, and the hint.
struct Hint {
    format: &'static str,
    rule: &'static str,
    area: Area,
    text: &'static str,
}

const fn h(format: &'static str, rule: &'static str, area: Area, text: &'static str) -> Hint {
    Hint {
        format,
        rule,
        area,
        text,
    }
}

/// First match wins, so a rule's own row comes before its area's.
const HINTS: &[Hint] = &[
    // OCI, sandbox-runtime and Codex: rows by rule, each naming the one
    // setting of the file that raises it.
    h(
        "oci",
        "PRV020",
        Area::Privileges,
        "add the paths the finding names to `linux.maskedPaths` or `linux.readonlyPaths` (runc's defaults list them), and mount sysfs with `ro`",
    ),
    h(
        "oci",
        "PRV022",
        Area::Privileges,
        "remove the device from `linux.devices` and its `allow: true` rule from `linux.resources.devices`, or narrow that rule's `access`",
    ),
    h(
        "sandbox-settings",
        "PRV020",
        Area::Privileges,
        "set `enableWeakerNestedSandbox` to false: the sandbox then mounts a /proc of its own",
    ),
    h(
        "codex",
        "CMD002",
        Area::Command,
        "trust each repository by its own path in `[projects]`, never a home directory or a directory above one (`trust_level = \"untrusted\"` there)",
    ),
    h(
        "sandbox-settings",
        "NET020",
        Area::Network,
        "set `enableWeakerNetworkIsolation` to false, so direct connections are refused again",
    ),
];

/// The Kubernetes setting behind a finding, chosen by its rule and by
/// what the profile field came from (the finding's pointer, evidence and
/// words), never by its area alone: an automounted token is not a
/// `hostPath` volume, a Secret volume is not `env`, and a pod that does
/// not set `hostNetwork` is not told to remove it. `None` where no one
/// setting is behind every finding of the kind.
fn kubernetes(f: &Finding) -> Option<&'static str> {
    let ev = |k: &str| f.evidence.get(k).and_then(|v| v.as_str());
    let token = |p: &str| {
        p.starts_with("/var/run/secrets/kubernetes.io")
            || p.starts_with("/run/secrets/kubernetes.io")
    };
    let rule = f.rule;
    Some(match f.area {
        Area::WritableMounts | Area::ReadOnlyMounts => {
            if rule == "MNT030" {
                "remove the `subPath`/`subPathExpr` that can leave its volume (`..`, or a `$(VAR)` the job's environment decides)"
            } else if ev("label_path").is_some_and(token) || ev("job_path").is_some_and(token) || ev("normalized").is_some_and(token) {
                "set `automountServiceAccountToken: false` on the pod (or its ServiceAccount), and mount no projected `serviceAccountToken`, unless the job calls the API; then bind the account to only the verbs it needs"
            } else if ev("normalized").is_some_and(|p| p.starts_with("/var/lib/kubelet/pods/")) {
                "mount the shared volume with `readOnly: true`, or give the job an `emptyDir` for what it writes: other pods and later runs read what it leaves in shared storage"
            } else if f.area == Area::WritableMounts {
                "remove the `hostPath` volume, or mount it with `readOnly: true` at only the path the job needs; use an `emptyDir` for scratch"
            } else {
                "remove the `hostPath` volume: a read-only mount still lets the job read what it exposes"
            }
        }
        Area::Credentials => {
            if f.message.contains("service-account-token") {
                "remove the projected `serviceAccountToken` source unless the job calls the API, and keep `expirationSeconds` short"
            } else if f.pointer.starts_with("/environment/") || ev("source") == Some("env") {
                "take the secret out of `env`/`envFrom` (`secretKeyRef`, `secretRef`); give the job a short-lived credential issued for the task"
            } else if ev("source") == Some("file") {
                "leave the Secret (or secrets-store CSI) volume out, or mount only the keys the job needs with `items`; give the job a short-lived credential issued for the task"
            } else {
                return None;
            }
        }
        Area::Privileges => match rule {
            "PRV001" => "set `privileged: false` in the container's `securityContext`",
            "PRV002" => "remove the capability from the container's `securityContext.capabilities.add`",
            "PRV003" => "set `capabilities: {drop: [ALL]}` in the container's `securityContext`",
            "PRV004" => "set `runAsNonRoot: true` and a non-zero `runAsUser` in the pod's or container's `securityContext`",
            "PRV005" => "set `allowPrivilegeEscalation: false` in the container's `securityContext`",
            "PRV006" => match ev("namespace") {
                Some("user") => "set `hostUsers: false` on the pod so it gets its own user namespace",
                Some("network" | "uts") => "remove `hostNetwork: true` from the pod spec",
                Some("pid") => "remove `hostPID: true` from the pod spec",
                Some("ipc") => "remove `hostIPC: true` from the pod spec",
                _ => return None,
            },
            "PRV007" => "set `seccompProfile: {type: RuntimeDefault}` in the pod's or container's `securityContext`",
            "PRV008" => "set `readOnlyRootFilesystem: true` in the container's `securityContext` and give the job an `emptyDir` for scratch",
            _ => return None,
        },
        Area::Network => {
            if f.message.contains("every destination") || f.message.contains("allow-all") || f.pointer == "/network/enforced_by" {
                "add a NetworkPolicy that denies egress for this pod (`policyTypes: [Egress]` and no `egress` rules); if the pod sets `hostNetwork: true`, remove it: NetworkPolicy does not apply on the host network"
            } else {
                "add a NetworkPolicy that selects this pod and denies its egress (`policyTypes: [Egress]` and no `egress` rules)"
            }
        }
        Area::Isolation => match rule {
            "ISO001" | "ISO002" | "ISO004" | "ISO005" | "ISO006" | "ISO008" => "set `runtimeClassName` to a RuntimeClass whose `handler` is a sandboxed runtime (gVisor `runsc`, Kata), with that RuntimeClass object in the input",
            "ISO021" => "remove `shareProcessNamespace: true` from the pod spec",
            _ => return None,
        },
        Area::Limits => match rule {
            "LIM003" | "LIM007" => "set `resources.limits` (`cpu`, `memory`) on the container",
            "LIM001" | "LIM008" => "set `activeDeadlineSeconds` on the pod or Job",
            _ => return None,
        },
        _ => return None,
    })
}

/// The Compose setting behind a finding, chosen by its rule and by what
/// the profile field came from, as for Kubernetes: a service that is not
/// privileged is never told to remove `privileged: true`, a named volume
/// is not a bind mount, and a secret from `secrets:` is not `environment`.
/// A hint either names a key the finding shows the file holds, or the
/// key to add.
fn compose(f: &Finding) -> Option<&'static str> {
    let ev = |k: &str| f.evidence.get(k).and_then(|v| v.as_str());
    let rule = f.rule;
    if rule == super::UNREAD_RULE {
        return Some("audit the file beside the files it names (`env_file`, `include`, `extends.file`, `.env`), or the output of `docker compose config`, which has them merged");
    }
    Some(match f.area {
        Area::Network => "set `network_mode: none`, or attach the service only to a network with `internal: true`",
        Area::WritableMounts | Area::ReadOnlyMounts => {
            let volume = ["normalized", "label_path", "job_path"]
                .iter()
                .any(|k| ev(k).is_some_and(|p| p.starts_with("/var/lib/docker/volumes/")))
                || f.message.contains("/var/lib/docker/volumes/");
            let secret_file = f.message.contains("/run/secrets/")
                || f.evidence.values().any(|v| v.as_str().is_some_and(|p| p.starts_with("/run/secrets/")));
            if rule == "MNT012" {
                "write the source as an absolute host path, in `volumes` or in the `file:` of the `secrets:`/`configs:` definition it comes from"
            } else if secret_file {
                "leave the entry out of the service's `secrets:` (or `configs:`) unless the job needs that file"
            } else if volume {
                "add `:ro` to the named volume in `volumes` (or `read_only: true`), and give the job a `tmpfs` for what it writes: Docker keeps the volume after the job"
            } else if f.area == Area::WritableMounts {
                "remove the bind mount from `volumes`, or add `:ro` and bind only the path the job needs; use `tmpfs` for scratch"
            } else {
                "remove the bind mount from `volumes`: read-only still exposes what it binds"
            }
        }
        Area::Credentials => {
            if f.pointer.starts_with("/environment/") || ev("source") == Some("env") {
                "take the secret out of `environment`/`env_file`; give the service only the `secrets:` it needs"
            } else if ev("source") == Some("file") {
                "leave the secret out of the service's `secrets:` unless the job needs it; give the job a short-lived credential issued for the task"
            } else {
                return None;
            }
        }
        Area::Privileges => match rule {
            "PRV001" => "remove `privileged: true` from the service",
            "PRV002" => "remove the capability from the service's `cap_add`",
            "PRV003" => "add `cap_drop: [ALL]` to the service",
            "PRV004" => "set `user: \"1000:1000\"` (a non-root user) on the service",
            "PRV005" => "add `no-new-privileges:true` to the service's `security_opt`",
            "PRV006" => match ev("namespace") {
                Some("network") => "set `network_mode: none` (not `host`) on the service",
                Some("pid") => "remove `pid: host` from the service",
                Some("ipc") => "remove `ipc: host` from the service",
                Some("uts") => "remove `uts: host` from the service",
                _ => return None,
            },
            "PRV008" => "set `read_only: true` on the service and give it a `tmpfs` for scratch",
            _ => return None,
        },
        Area::Isolation => match rule {
            "ISO001" | "ISO002" | "ISO004" | "ISO005" | "ISO006" | "ISO008" => {
                "set `runtime:` on the service to a sandboxed runtime (gVisor `runsc`, Kata)"
            }
            _ => return None,
        },
        Area::Limits => match rule {
            "LIM003" | "LIM007" => "set `mem_limit`, `cpus` and `pids_limit` (or `deploy.resources.limits`) on the service",
            _ => return None,
        },
        _ => return None,
    })
}

/// The original setting to change for `finding` of a profile imported
/// from `format` (a [`super::Format::name`]), where a mapping exists.
pub fn hint(format: &str, finding: &Finding) -> Option<&'static str> {
    if format == "kubernetes" {
        return kubernetes(finding);
    }
    if format == "compose" {
        return compose(finding);
    }
    HINTS
        .iter()
        .find(|h| h.format == format && h.area == finding.area && finding.rule.starts_with(h.rule))
        .map(|h| h.text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::import::Format;

    #[test]
    fn every_format_in_the_table_is_one_isolint_imports() {
        for h in HINTS {
            assert!(Format::parse(h.format).is_some(), "{}", h.format);
            assert!(!h.text.is_empty() && !h.text.ends_with('.'), "{}", h.text);
        }
    }

    /// An OCI bundle's, sandbox settings' and Codex config's findings of
    /// a rule with its own row name the one setting that raised them.
    #[test]
    fn oci_srt_and_codex_rows_name_the_setting_of_their_rule() {
        let labels = crate::Labels::workshop();
        for (text, format, rule, want) in [
            (
                r#"{"ociVersion": "1.2.0", "process": {"args": ["true"]}, "root": {"path": "r"}}"#,
                Format::Oci,
                "PRV020",
                "maskedPaths",
            ),
            (
                r#"{"network": {"allowedDomains": ["pypi.org"]}, "enableWeakerNetworkIsolation": true}"#,
                Format::SandboxSettings,
                "NET020",
                "enableWeakerNetworkIsolation",
            ),
            (
                r#"{"network": {"allowedDomains": []}, "enableWeakerNestedSandbox": true}"#,
                Format::SandboxSettings,
                "PRV020",
                "enableWeakerNestedSandbox",
            ),
            (
                "sandbox_mode = \"read-only\"\n[projects.\"~\"]\ntrust_level = \"trusted\"\n",
                Format::Codex,
                "CMD002",
                "[projects]",
            ),
        ] {
            let units = crate::import::import(text.as_bytes(), format).unwrap();
            let r = crate::audit::audit_imported(
                &units[0],
                "x",
                &labels,
                &Default::default(),
                None,
                &crate::InOrder,
            )
            .unwrap();
            let f = r
                .issues
                .iter()
                .find(|f| f.rule == rule)
                .unwrap_or_else(|| panic!("{text}: no {rule}"));
            assert!(
                hint(format.name(), f).is_some_and(|h| h.contains(want)),
                "{text}: {:?}",
                hint(format.name(), f)
            );
        }
    }

    /// The keys a hint tells the reader to remove something from, or to
    /// remove: each must be a key the file holds (`remove `pid: host``
    /// needs `pid:` in the file, `from `volumes`` needs `volumes:`).
    fn keys_to_find(hint: &str) -> Vec<String> {
        let mut out = Vec::new();
        for (lead, _) in hint.match_indices('`') {
            let before = hint.get(..lead).unwrap_or("");
            let Some(rest) = hint.get(lead + 1..) else {
                continue;
            };
            let Some(end) = rest.find('`') else { continue };
            let token = rest.get(..end).unwrap_or("");
            // Only the token that opens a pair, right after a removal word.
            if before.matches('`').count() % 2 == 1 {
                continue;
            }
            let removes = before.ends_with("remove ")
                || before.ends_with("remove the ")
                || before.ends_with("from ")
                || before.ends_with("from the service's ")
                || before.ends_with("remove the capability from the service's ")
                || before.ends_with("out of ");
            if removes {
                let key = token.split(':').next().unwrap_or("").trim();
                if key.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') && !key.is_empty() {
                    out.push(key.to_string());
                }
            }
        }
        out
    }

    /// Every rule a Compose file or Pod raises, across a set of files:
    /// the hint names a key the file holds, or a key to add, never a
    /// setting the file does not have.
    #[test]
    fn hints_name_what_the_file_holds_for_every_rule() {
        let labels = crate::Labels::workshop();
        let svc = |body: &str| format!("services:\n  a:\n    image: x\n{body}");
        let compose: Vec<String> = vec![
            include_str!("../../../fixtures/import/compose/risky.yaml").to_string(),
            include_str!("../../../fixtures/import/compose/hardened.yaml").to_string(),
            include_str!("../../../fixtures/import/compose/volumes-real.yaml").to_string(),
            svc("    cap_add: [SYS_ADMIN]\n"),
            svc("    pid: host\n    network_mode: none\n"),
            svc("    network_mode: host\n"),
            svc("    volumes: [cache:/cache]\n    network_mode: none\nvolumes:\n  cache: {}\n"),
            svc("    volumes: [/home/botie:/h]\n    network_mode: none\n"),
            svc("    secrets: [tok]\n    network_mode: none\nsecrets:\n  tok: {file: ./t}\n"),
            svc("    environment: {API_TOKEN: abc123def456ghi789}\n    network_mode: none\n"),
            svc("    user: root\n    read_only: false\n    network_mode: none\n"),
        ];
        let kube = [
            include_str!("../../../fixtures/import/kubernetes/pod-home.yaml"),
            include_str!("../../../fixtures/import/kubernetes/deployment-host.yaml"),
            include_str!("../../../fixtures/import/kubernetes/cronjob-secrets.yaml"),
        ];
        let files: Vec<(&str, Format)> = compose
            .iter()
            .map(|t| (t.as_str(), Format::Compose))
            .chain(kube.iter().map(|t| (*t, Format::Kubernetes)))
            .collect();
        let mut wrong = Vec::new();
        let mut count = 0;
        for (text, format) in files {
            let units = crate::import::import(text.as_bytes(), format).unwrap();
            for u in &units {
                let r = crate::audit::audit_imported(
                    u,
                    "x",
                    &labels,
                    &Default::default(),
                    None,
                    &crate::InOrder,
                )
                .unwrap();
                for f in &r.issues {
                    let Some(h) = hint(format.name(), f) else {
                        continue;
                    };
                    count += 1;
                    for key in keys_to_find(h) {
                        if !text.contains(&format!("{key}:")) && !text.contains(&format!("{key}: "))
                        {
                            wrong.push(format!(
                                "{:?} {} [{}]: `{key}` is not in the file ({}): {h}",
                                format, f.rule, u.name, f.message
                            ));
                        }
                    }
                }
            }
        }
        assert!(count >= 40, "{count} hints");
        wrong.sort();
        wrong.dedup();
        assert!(
            wrong.is_empty(),
            "{} of {count} hints wrong:\n{}",
            wrong.len(),
            wrong.join("\n")
        );
    }

    /// An imported Pod's and Compose service's network and privilege
    /// findings name their own settings.
    #[test]
    fn imported_findings_get_the_original_setting() {
        let labels = crate::Labels::workshop();
        for (fixture, format, want) in [
            (
                include_str!("../../../fixtures/import/kubernetes/pod-home.yaml"),
                Format::Kubernetes,
                "NetworkPolicy",
            ),
            (
                include_str!("../../../fixtures/import/compose/risky.yaml"),
                Format::Compose,
                "network_mode",
            ),
        ] {
            let units = crate::import::import(fixture.as_bytes(), format).unwrap();
            let r = crate::audit::audit_imported(
                &units[0],
                "x",
                &labels,
                &Default::default(),
                None,
                &crate::InOrder,
            )
            .unwrap();
            let net: Vec<_> = r
                .issues
                .iter()
                .filter(|f| f.area == Area::Network)
                .collect();
            assert!(!net.is_empty(), "{format:?} has network findings");
            for f in net {
                assert!(
                    hint(format.name(), f).is_some_and(|h| h.contains(want)),
                    "{}",
                    f.rule
                );
            }
            // No hint for a format without a table, or for a profile.
            assert!(r.issues.iter().all(|f| hint("profile", f).is_none()));
        }
    }
}
