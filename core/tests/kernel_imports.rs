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
            // runc's defaults (libcontainer/specconv/example.go).
            "maskedPaths": ["/proc/acpi", "/proc/asound", "/proc/kcore", "/proc/keys",
                "/proc/latency_stats", "/proc/timer_list", "/proc/timer_stats",
                "/proc/sched_debug", "/sys/firmware", "/proc/scsi"],
            "readonlyPaths": ["/proc/bus", "/proc/fs", "/proc/irq", "/proc/sys",
                "/proc/sysrq-trigger"],
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
        // 23.9 devices
        ("compose devices kvm", Compose, compose("devices: ['/dev/kvm:/dev/kvm']"), "PRV022", true),
        ("compose devices fuse", Compose, compose("devices: [/dev/fuse]"), "PRV022", true),
        ("compose devices long form", Compose, compose("devices: [{source: /dev/sda, target: /dev/xvda, permissions: rwm}]"), "PRV022", true),
        ("compose devices null", Compose, compose("devices: ['/dev/null:/dev/null']"), "PRV022", false),
        ("compose cgroup rule all", Compose, compose("device_cgroup_rules: ['a *:* rwm']"), "PRV022", true),
        ("compose cgroup rule mem", Compose, compose("device_cgroup_rules: ['c 1:1 rwm']"), "PRV022", true),
        ("compose cgroup rule urandom", Compose, compose("device_cgroup_rules: ['c 1:9 rwm']"), "PRV022", false),
        ("compose gpus", Compose, compose("gpus: all"), "PRV022", true),
        ("k8s volumeDevices", Kubernetes, pod("volumes: [{name: d, persistentVolumeClaim: {claimName: raw}}]", "volumeDevices: [{name: d, devicePath: /dev/xvda}]"), "PRV022", true),
        ("k8s no volumeDevices", Kubernetes, pod("", ""), "PRV022", false),
        ("oci device cgroup allow-all", Oci, oci(json!({"linux": {"resources": {"devices": [{"allow": true, "access": "rwm"}]}}})), "PRV022", true),
        ("oci device cgroup kvm", Oci, oci(json!({"linux": {"resources": {"devices": [{"allow": true, "type": "c", "major": 10, "minor": 232, "access": "rwm"}]}}})), "PRV022", true),
        ("oci device cgroup deny-all", Oci, oci(json!({"linux": {"resources": {"devices": [{"allow": false, "access": "rwm"}]}}})), "PRV022", false),
        ("oci device node mem", Oci, oci(json!({"linux": {"devices": [{"path": "/dev/mem", "type": "c", "major": 1, "minor": 1}]}})), "PRV022", true),
        ("oci device node zero", Oci, oci(json!({"linux": {"devices": [{"path": "/dev/zero", "type": "c", "major": 1, "minor": 5}]}})), "PRV022", false),
        ("bwrap --dev-bind /dev/kvm", Bwrap, bwrap("--new-session --dev /dev --dev-bind /dev/kvm /dev/kvm"), "PRV022", true),
        ("bwrap --dev-bind /dev /dev", Bwrap, bwrap("--new-session --dev-bind /dev /dev"), "PRV022", true),
        ("bwrap --dev /dev", Bwrap, bwrap("--new-session --dev /dev"), "PRV022", false),
        // 23.10 shared process namespace
        ("k8s shareProcessNamespace", Kubernetes, pod("shareProcessNamespace: true", "").replace("    image: x\n", "    image: x\n  - name: egress-proxy\n    image: proxy\n"), "ISO021", true),
        ("k8s shareProcessNamespace with sidecar", Kubernetes, pod("shareProcessNamespace: true\ninitContainers: [{name: proxy, image: p, restartPolicy: Always}]", ""), "ISO021", true),
        ("k8s own process namespace", Kubernetes, pod("shareProcessNamespace: false", "").replace("    image: x\n", "    image: x\n  - name: egress-proxy\n    image: proxy\n"), "ISO021", false),
        ("compose pid service", Compose, compose("pid: 'service:proxy'"), "ISO021", true),
        ("compose pid container", Compose, compose("pid: 'container:proxy'"), "ISO021", true),
        ("compose ipc service", Compose, compose("ipc: 'service:proxy'"), "ISO021", false),
        // 23.11 paths the runtime resolves, cgroup namespace, sysctls, OOM
        ("k8s workingDir /proc/self/fd", Kubernetes, pod("", "command: [pytest]\nworkingDir: /proc/self/fd/8"), "ISO022", true),
        ("k8s workingDir without command", Kubernetes, pod("", "workingDir: /proc/self/fd/8"), "ISO022", true),
        ("k8s workingDir /workspace", Kubernetes, pod("", "command: [pytest]\nworkingDir: /workspace"), "ISO022", false),
        ("compose working_dir /proc/1/cwd", Compose, compose("command: [pytest]\nworking_dir: /proc/1/cwd"), "ISO022", true),
        ("compose working_dir /app", Compose, compose("command: [pytest]\nworking_dir: /app"), "ISO022", false),
        ("oci cwd /proc/self/fd/7", Oci, oci(json!({"process": {"cwd": "/proc/self/fd/7"}})), "ISO022", true),
        ("oci cwd /", Oci, oci(json!({})), "ISO022", false),
        ("bwrap --chdir /proc/self/cwd", Bwrap, bwrap("--new-session --chdir /proc/self/cwd"), "ISO022", true),
        ("bwrap --chdir /workspace", Bwrap, bwrap("--new-session --chdir /workspace"), "ISO022", false),
        ("k8s hostPath subPath ..", Kubernetes, pod("volumes: [{name: v, hostPath: {path: /srv/workshop/scratch}}]", "volumeMounts: [{name: v, mountPath: /out, subPath: ../../etc}]"), "MNT030", true),
        ("k8s emptyDir subPath ..", Kubernetes, pod("volumes: [{name: v, emptyDir: {}}]", "volumeMounts: [{name: v, mountPath: /out, subPath: a/../../../x}]"), "MNT030", true),
        ("k8s subPathExpr", Kubernetes, pod("volumes: [{name: v, emptyDir: {}}]", "volumeMounts: [{name: v, mountPath: /out, subPathExpr: '$(POD_NAME)'}]"), "MNT030", true),
        ("k8s plain subPath", Kubernetes, pod("volumes: [{name: v, hostPath: {path: /srv/workshop/scratch}}]", "volumeMounts: [{name: v, mountPath: /out, subPath: job-17}]"), "MNT030", false),
        ("k8s emptyDir plain subPath", Kubernetes, pod("volumes: [{name: v, emptyDir: {}}]", "volumeMounts: [{name: v, mountPath: /out, subPath: logs}]"), "MNT030", false),
        ("compose cgroup host", Compose, compose("cgroup: host"), "PRV006", true),
        ("compose cgroup private", Compose, compose("cgroup: private"), "PRV006", false),
        ("oci no cgroup namespace", Oci, oci(json!({"linux": {"namespaces": [{"type": "pid"}, {"type": "network"}, {"type": "ipc"}, {"type": "uts"}, {"type": "mount"}, {"type": "user"}]}})), "PRV006", true),
        ("oci cgroup namespace", Oci, oci(json!({})), "PRV006", false),
        ("bwrap without --unshare-cgroup", Bwrap, "bwrap --unshare-user --unshare-ipc --unshare-pid --unshare-net --unshare-uts --new-session --clearenv --uid 1000 --gid 1000 --seccomp 10 -- pytest\n".to_string(), "PRV006", true),
        ("bwrap --unshare-all", Bwrap, bwrap("--new-session"), "PRV006", false),
        ("k8s sysctl kernel", Kubernetes, pod("securityContext: {sysctls: [{name: kernel.msgmax, value: '65536'}, {name: kernel.core_pattern, value: '|/tmp/x'}]}", ""), "PRV023", true),
        ("k8s sysctl unprivileged ports", Kubernetes, pod("securityContext: {sysctls: [{name: net.ipv4.ip_unprivileged_port_start, value: '0'}]}", ""), "PRV023", true),
        ("k8s sysctl safe", Kubernetes, pod("securityContext: {sysctls: [{name: net.ipv4.ping_group_range, value: '0 2147483647'}]}", ""), "PRV023", false),
        ("compose sysctls map", Compose, compose("sysctls: {vm.overcommit_memory: 1}"), "PRV023", true),
        ("compose sysctls list", Compose, compose("sysctls: ['net.ipv4.conf.all.route_localnet=1']"), "PRV023", true),
        ("compose sysctls safe", Compose, compose("sysctls: ['net.ipv4.ip_local_port_range=1024 65000']"), "PRV023", false),
        ("oci sysctl", Oci, oci(json!({"linux": {"sysctl": {"kernel.domainname": "x", "fs.mqueue.msg_max": "100"}}})), "PRV023", true),
        ("oci sysctl safe", Oci, oci(json!({"linux": {"sysctl": {"net.ipv4.tcp_syncookies": "1"}}})), "PRV023", false),
        ("compose oom_score_adj", Compose, compose("oom_score_adj: -1000"), "LIM020", true),
        ("compose oom_kill_disable", Compose, compose("oom_kill_disable: true"), "LIM020", true),
        ("compose oom_score_adj positive", Compose, compose("oom_score_adj: 500"), "LIM020", false),
        ("oci oomScoreAdj", Oci, oci(json!({"process": {"oomScoreAdj": -1000}})), "LIM020", true),
        ("oci oomScoreAdj 0", Oci, oci(json!({"process": {"oomScoreAdj": 0}})), "LIM020", false),
        // 23.3 names: hosts-file entries and resolvers
        ("k8s hostAliases metadata", Kubernetes, pod("hostAliases: [{ip: 169.254.169.254, hostnames: [pypi.org]}]", ""), "NET030", true),
        ("k8s hostAliases private", Kubernetes, pod("hostAliases: [{ip: 10.0.0.5, hostnames: [api.example.com, x.example.com]}]", ""), "NET030", true),
        ("k8s hostAliases public", Kubernetes, pod("hostAliases: [{ip: 93.184.216.34, hostnames: [mirror.example.com]}]", ""), "NET030", false),
        ("compose extra_hosts metadata", Compose, compose("extra_hosts: ['pypi.org:169.254.169.254']"), "NET030", true),
        ("compose extra_hosts map", Compose, compose("extra_hosts: {internal.example.com: 192.168.1.10}"), "NET030", true),
        ("compose extra_hosts host-gateway", Compose, compose("extra_hosts: ['host.docker.internal=127.0.0.1']"), "NET030", true),
        ("compose extra_hosts public", Compose, compose("extra_hosts: ['mirror.example.com:93.184.216.34']"), "NET030", false),
        ("k8s dnsPolicy None", Kubernetes, pod("dnsPolicy: None\ndnsConfig: {nameservers: [8.8.8.8]}", ""), "NET031", true),
        ("k8s default dns", Kubernetes, pod("dnsPolicy: ClusterFirst", ""), "NET031", false),
        ("compose dns", Compose, compose("dns: 1.1.1.1"), "NET031", true),
        ("compose dns list", Compose, compose("dns: [10.0.0.2, 8.8.4.4]"), "NET031", true),
        ("compose no dns", Compose, compose("dns_search: example.com"), "NET031", false),
        // 21.8 supplementary groups
        ("k8s supplementalGroups 0", Kubernetes, pod("securityContext: {supplementalGroups: [1000, 0]}", ""), "PRV024", true),
        ("k8s fsGroup 0", Kubernetes, pod("securityContext: {fsGroup: 0}", ""), "PRV024", true),
        ("k8s fsGroup 2000", Kubernetes, pod("securityContext: {fsGroup: 2000, supplementalGroups: [3000]}", ""), "PRV024", false),
        ("compose group_add docker", Compose, compose("group_add: ['0', docker]"), "PRV024", true),
        ("compose group_add users", Compose, compose("group_add: [users, '1001']"), "PRV024", false),
        ("oci additionalGids 0", Oci, oci(json!({"process": {"user": {"uid": 1000, "gid": 1000, "additionalGids": [0]}}})), "PRV024", true),
        ("oci additionalGids 1001", Oci, oci(json!({"process": {"user": {"uid": 1000, "gid": 1000, "additionalGids": [1001]}}})), "PRV024", false),
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
