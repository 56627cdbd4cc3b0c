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
    h(
        "compose",
        "",
        Area::Network,
        "set `network_mode: none`, or attach the service only to a network with `internal: true`",
    ),
    h(
        "compose",
        "",
        Area::WritableMounts,
        "remove the bind mount from `volumes`, or add `:ro` and bind only the path the job needs; use `tmpfs` for scratch",
    ),
    h(
        "compose",
        "",
        Area::ReadOnlyMounts,
        "remove the bind mount from `volumes`: read-only still exposes what it binds",
    ),
    h(
        "compose",
        "",
        Area::Credentials,
        "take the secret out of `environment`/`env_file`; give the service only the `secrets:` it needs",
    ),
    h(
        "compose",
        "",
        Area::Privileges,
        "remove `privileged: true`; add `cap_drop: [ALL]`, `security_opt: [\"no-new-privileges:true\"]`, `user: \"1000:1000\"` and `read_only: true`",
    ),
    h(
        "compose",
        "",
        Area::Isolation,
        "remove `network_mode: host`, `pid: host` and `ipc: host`; set `runtime:` to the sandboxed runtime",
    ),
    h(
        "compose",
        "",
        Area::Limits,
        "set `mem_limit`, `cpus` and `pids_limit` (or `deploy.resources.limits`)",
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

/// The original setting to change for `finding` of a profile imported
/// from `format` (a [`super::Format::name`]), where a mapping exists.
pub fn hint(format: &str, finding: &Finding) -> Option<&'static str> {
    if format == "kubernetes" {
        return kubernetes(finding);
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
