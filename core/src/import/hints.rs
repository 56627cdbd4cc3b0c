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
        "kubernetes",
        "",
        Area::Network,
        "add a NetworkPolicy that denies egress for this pod (`policyTypes: [Egress]` and no `egress` rules), and remove `hostNetwork: true`",
    ),
    h(
        "kubernetes",
        "",
        Area::WritableMounts,
        "remove the `hostPath` volume, or mount it with `readOnly: true` at only the path the job needs; use an `emptyDir` for scratch",
    ),
    h(
        "kubernetes",
        "",
        Area::ReadOnlyMounts,
        "remove the `hostPath` volume: a read-only mount still lets the job read what it exposes",
    ),
    h(
        "kubernetes",
        "",
        Area::Credentials,
        "take the secret out of `env`/`envFrom`, and set `automountServiceAccountToken: false` unless the job calls the API",
    ),
    h(
        "kubernetes",
        "",
        Area::Privileges,
        "in the container's `securityContext`: `privileged: false`, `allowPrivilegeEscalation: false`, `runAsNonRoot: true` with a `runAsUser`, `capabilities: {drop: [ALL]}`, `readOnlyRootFilesystem: true`",
    ),
    h(
        "kubernetes",
        "",
        Area::Isolation,
        "remove `hostNetwork`, `hostPID` and `hostIPC` from the pod spec; set `seccompProfile: {type: RuntimeDefault}` and a `runtimeClassName` for the sandbox",
    ),
    h(
        "kubernetes",
        "",
        Area::Limits,
        "set `resources.limits` (`cpu`, `memory`) on the container and `activeDeadlineSeconds` on the pod",
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

/// The original setting to change for `finding` of a profile imported
/// from `format` (a [`super::Format::name`]), where a mapping exists.
pub fn hint(format: &str, finding: &Finding) -> Option<&'static str> {
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
            let r = crate::import::audit_imported(&units[0], "x", &labels, &Default::default())
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
            let r = crate::import::audit_imported(&units[0], "x", &labels, &Default::default())
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
