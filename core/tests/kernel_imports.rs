//! The kernel's own walls (issue 23, items 7 to 11, and issue 21 item 8),
//! format by format: each setting, written the way its format writes it,
//! must draw its rule once imported and audited, and a benign twin must not.

use isolint_core::import::{self, Format};
use isolint_core::{audit, AuditOptions, Date, Labels};

fn options() -> AuditOptions {
    AuditOptions {
        today: Date::parse("2026-11-29"),
    }
}

/// Every rule id the imported profiles of `src` draw.
fn rules_of(format: Format, src: &str) -> Vec<&'static str> {
    let imported = import::import(src.as_bytes(), format).unwrap_or_else(|e| panic!("{src}: {e}"));
    let mut out = Vec::new();
    for i in imported {
        let r = audit(
            i.profile_json.as_bytes(),
            "t.json",
            &Labels::workshop(),
            &options(),
        )
        .unwrap_or_else(|e| panic!("{src}: {e}"));
        out.extend(r.issues.iter().map(|f| f.rule));
    }
    out
}

fn compose(lines: &str) -> String {
    let body: String = lines.lines().map(|l| format!("    {l}\n")).collect();
    format!("services:\n  t:\n    image: x\n{body}")
}

fn pod(pod_lines: &str, container_lines: &str) -> String {
    let p: String = pod_lines.lines().map(|l| format!("  {l}\n")).collect();
    let c: String = container_lines
        .lines()
        .map(|l| format!("    {l}\n"))
        .collect();
    format!("apiVersion: v1\nkind: Pod\nmetadata: {{name: t}}\nspec:\n{p}  containers:\n  - name: c\n    image: x\n{c}")
}

/// A runc config with every namespace, masking on, and `patch` merged in
/// (objects key by key, anything else replaced).
fn oci(patch: serde_json::Value) -> String {
    let mut base = serde_json::json!({
        "ociVersion": "1.2.0",
        "process": {"user": {"uid": 1000, "gid": 1000}, "args": ["pytest"], "cwd": "/", "noNewPrivileges": true},
        "root": {"path": "rootfs", "readonly": true},
        "linux": {
            "namespaces": [{"type": "pid"}, {"type": "network"}, {"type": "ipc"}, {"type": "uts"},
                           {"type": "mount"}, {"type": "user"}, {"type": "cgroup"}],
            "maskedPaths": ["/proc/kcore", "/proc/keys"],
            "readonlyPaths": ["/proc/sys", "/proc/sysrq-trigger"],
            "seccomp": {"defaultAction": "SCMP_ACT_ERRNO", "syscalls": [{"names": ["read"], "action": "SCMP_ACT_ALLOW"}]}
        }
    });
    merge(&mut base, patch);
    base.to_string()
}

fn merge(base: &mut serde_json::Value, patch: serde_json::Value) {
    match (base, patch) {
        (serde_json::Value::Object(b), serde_json::Value::Object(p)) => {
            for (k, v) in p {
                merge(b.entry(k).or_insert(serde_json::Value::Null), v);
            }
        }
        (b, p) => *b = p,
    }
}

fn bwrap(opts: &str) -> String {
    format!("bwrap --unshare-all --die-with-parent --clearenv --uid 1000 --gid 1000 --seccomp 10 --ro-bind /usr /usr {opts} -- pytest\n")
}

/// (what, format, source, rule, fires).
fn table() -> Vec<(&'static str, Format, String, &'static str, bool)> {
    use serde_json::json;
    use Format::*;
    vec![
        // 23.7 terminal
        (
            "bwrap without --new-session",
            Bwrap,
            bwrap(""),
            "ISO020",
            true,
        ),
        (
            "bwrap --new-session",
            Bwrap,
            bwrap("--new-session"),
            "ISO020",
            false,
        ),
        (
            "oci terminal",
            Oci,
            oci(json!({"process": {"terminal": true}})),
            "ISO020",
            true,
        ),
        (
            "oci no terminal",
            Oci,
            oci(json!({"process": {"terminal": false}})),
            "ISO020",
            false,
        ),
        (
            "compose tty+stdin",
            Compose,
            compose("tty: true\nstdin_open: true"),
            "ISO020",
            true,
        ),
        (
            "compose tty only",
            Compose,
            compose("tty: true"),
            "ISO020",
            false,
        ),
        (
            "k8s tty+stdin",
            Kubernetes,
            pod("", "tty: true\nstdin: true"),
            "ISO020",
            true,
        ),
        (
            "k8s tty only",
            Kubernetes,
            pod("", "tty: true"),
            "ISO020",
            false,
        ),
        // 23.8 masking and confinement
        (
            "k8s procMount Unmasked",
            Kubernetes,
            pod("", "securityContext: {procMount: Unmasked}"),
            "PRV020",
            true,
        ),
        (
            "k8s procMount Default",
            Kubernetes,
            pod("", "securityContext: {procMount: Default}"),
            "PRV020",
            false,
        ),
        (
            "compose systempaths",
            Compose,
            compose("security_opt: [systempaths=unconfined]"),
            "PRV020",
            true,
        ),
        (
            "compose no-new-privileges",
            Compose,
            compose("security_opt: [no-new-privileges:true]"),
            "PRV020",
            false,
        ),
        (
            "oci maskedPaths emptied",
            Oci,
            oci(json!({"linux": {"maskedPaths": []}})),
            "PRV020",
            true,
        ),
        (
            "oci readonlyPaths emptied",
            Oci,
            oci(json!({"linux": {"readonlyPaths": []}})),
            "PRV020",
            true,
        ),
        ("oci masking kept", Oci, oci(json!({})), "PRV020", false),
        (
            "oci writable sysfs",
            Oci,
            oci(
                json!({"mounts": [{"destination": "/sys", "type": "sysfs", "source": "sysfs", "options": ["rw"]}]}),
            ),
            "PRV020",
            true,
        ),
        (
            "oci read-only sysfs",
            Oci,
            oci(
                json!({"mounts": [{"destination": "/sys", "type": "sysfs", "source": "sysfs", "options": ["ro"]}]}),
            ),
            "PRV020",
            false,
        ),
        (
            "k8s apparmor unconfined",
            Kubernetes,
            pod("", "securityContext: {appArmorProfile: {type: Unconfined}}"),
            "PRV021",
            true,
        ),
        (
            "k8s pod apparmor unconfined",
            Kubernetes,
            pod("securityContext: {appArmorProfile: {type: Unconfined}}", ""),
            "PRV021",
            true,
        ),
        (
            "k8s apparmor default",
            Kubernetes,
            pod(
                "",
                "securityContext: {appArmorProfile: {type: RuntimeDefault}}",
            ),
            "PRV021",
            false,
        ),
        (
            "k8s spc_t",
            Kubernetes,
            pod("", "securityContext: {seLinuxOptions: {type: spc_t}}"),
            "PRV021",
            true,
        ),
        (
            "k8s container_t",
            Kubernetes,
            pod(
                "",
                "securityContext: {seLinuxOptions: {type: container_t, level: 's0:c1,c2'}}",
            ),
            "PRV021",
            false,
        ),
        (
            "compose apparmor=unconfined",
            Compose,
            compose("security_opt: [apparmor=unconfined]"),
            "PRV021",
            true,
        ),
        (
            "compose apparmor:unconfined",
            Compose,
            compose("security_opt: ['apparmor:unconfined']"),
            "PRV021",
            true,
        ),
        (
            "compose apparmor custom",
            Compose,
            compose("security_opt: [apparmor=my-profile]"),
            "PRV021",
            false,
        ),
        (
            "compose label=disable",
            Compose,
            compose("security_opt: [label=disable]"),
            "PRV021",
            true,
        ),
        (
            "compose label:type:spc_t",
            Compose,
            compose("security_opt: ['label:type:spc_t']"),
            "PRV021",
            true,
        ),
        (
            "compose label level",
            Compose,
            compose("security_opt: ['label=level:s0:c100,c200']"),
            "PRV021",
            false,
        ),
        (
            "oci apparmor unconfined",
            Oci,
            oci(json!({"process": {"apparmorProfile": "unconfined"}})),
            "PRV021",
            true,
        ),
        (
            "oci selinux spc_t",
            Oci,
            oci(json!({"process": {"selinuxLabel": "system_u:system_r:spc_t:s0"}})),
            "PRV021",
            true,
        ),
        (
            "oci selinux container_t",
            Oci,
            oci(json!({"process": {"selinuxLabel": "system_u:system_r:container_t:s0:c1,c2"}})),
            "PRV021",
            false,
        ),
        (
            "oci seccomp default allow",
            Oci,
            oci(
                json!({"linux": {"seccomp": {"defaultAction": "SCMP_ACT_ALLOW", "syscalls": [{"names": ["keyctl"], "action": "SCMP_ACT_ERRNO"}]}}}),
            ),
            "PRV007",
            true,
        ),
        (
            "oci seccomp default log",
            Oci,
            oci(json!({"linux": {"seccomp": {"defaultAction": "SCMP_ACT_LOG"}}})),
            "PRV007",
            true,
        ),
        (
            "oci seccomp default errno",
            Oci,
            oci(json!({})),
            "PRV007",
            false,
        ),
    ]
}

#[test]
fn each_setting_draws_its_rule_in_every_format_and_its_twin_does_not() {
    let mut wrong = Vec::new();
    for (what, format, src, rule, fires) in table() {
        let got = rules_of(format, &src);
        if got.contains(&rule) != fires {
            wrong.push(format!(
                "{what} ({format}): {rule} {}; drew {got:?}\n{src}",
                if fires { "did not fire" } else { "fired" }
            ));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n\n"));
}
