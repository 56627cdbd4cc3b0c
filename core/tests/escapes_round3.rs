//! Issue 46, rules side: each class of escape the benchmark oracle and
//! the hand-found misses showed, with its variants and a benign twin.
//! Every row names the rule that must fire (and its worst severity) or
//! must stay silent.

use isolint_core::import::{self, Format};
use isolint_core::{audit, AuditOptions, Date, Labels, Severity, WORKSHOP_PROFILE_FIXED};
use serde_json::{json, Value};

fn options() -> AuditOptions {
    AuditOptions {
        today: Date::parse("2026-11-29"),
    }
}

/// (rule, severity, message) of every finding.
type Found = Vec<(&'static str, Severity, String)>;

fn audit_json(text: &str) -> Found {
    let r = audit(text.as_bytes(), "t.json", &Labels::workshop(), &options())
        .unwrap_or_else(|e| panic!("{text}: {e}"));
    r.issues
        .iter()
        .map(|f| (f.rule, f.severity, f.message.clone()))
        .collect()
}

fn audit_import(format: Format, src: &str) -> Found {
    let imported = import::import(src.as_bytes(), format).unwrap_or_else(|e| panic!("{src}: {e}"));
    imported
        .iter()
        .flat_map(|i| audit_json(&i.profile_json))
        .collect()
}

fn merge(base: &mut Value, patch: Value) {
    match (base, patch) {
        (Value::Object(b), Value::Object(p)) => {
            for (k, v) in p {
                match b.get_mut(&k) {
                    Some(slot) if v.is_object() && slot.is_object() => merge(slot, v),
                    _ => {
                        b.insert(k, v);
                    }
                }
            }
        }
        (b, p) => *b = p,
    }
}

/// The fixed workshop profile with `patch` merged in (objects key by key).
fn profile(patch: Value) -> String {
    let mut base: Value = serde_json::from_str(WORKSHOP_PROFILE_FIXED).unwrap();
    merge(&mut base, patch);
    base.to_string()
}

/// A runtime without a patch date, so an advisory is not softened.
fn runtime(name: &str, version: &str, host_network: bool) -> String {
    let mut p = profile(json!({"boundary": {"runtime": {"name": name, "version": version}}}));
    if host_network {
        p = p.replace(
            r#""host_namespaces":[]"#,
            r#""host_namespaces":["network"]"#,
        );
    }
    p.replace(r#","patched_on":"2026-10-01""#, "")
}

fn pod(pod_lines: &str) -> String {
    let p: String = pod_lines.lines().map(|l| format!("  {l}\n")).collect();
    format!("apiVersion: v1\nkind: Pod\nmetadata: {{name: t}}\nspec:\n{p}  containers:\n  - name: c\n    image: x\n")
}

fn compose(lines: &str) -> String {
    let body: String = lines.lines().map(|l| format!("    {l}\n")).collect();
    format!("services:\n  t:\n    image: x\n{body}")
}

/// A runc config with every namespace and masking on, `patch` merged in.
fn oci(patch: Value) -> String {
    let mut base = json!({
        "ociVersion": "1.2.0",
        "process": {"user": {"uid": 1000, "gid": 1000}, "args": ["pytest"], "cwd": "/", "noNewPrivileges": true},
        "root": {"path": "rootfs", "readonly": true},
        "mounts": [{"destination": "/scratch", "type": "bind", "source": "/srv/workshop/scratch/job-17", "options": ["rbind", "rw"]}],
        "linux": {
            "namespaces": [{"type": "pid"}, {"type": "network"}, {"type": "ipc"}, {"type": "uts"},
                           {"type": "mount"}, {"type": "user"}, {"type": "cgroup"}],
            "maskedPaths": ["/proc/acpi", "/proc/asound", "/proc/kcore", "/proc/keys",
                "/proc/latency_stats", "/proc/timer_list", "/proc/timer_stats",
                "/proc/sched_debug", "/sys/firmware", "/proc/scsi"],
            "readonlyPaths": ["/proc/bus", "/proc/fs", "/proc/irq", "/proc/sys",
                "/proc/sysrq-trigger"],
            "seccomp": {"defaultAction": "SCMP_ACT_ERRNO", "syscalls": [{"names": ["read"], "action": "SCMP_ACT_ALLOW"}]},
            "resources": {"memory": {"limit": 536870912}, "pids": {"limit": 64}}
        }
    });
    merge(&mut base, patch);
    base.to_string()
}

fn env(vars: Value) -> String {
    profile(json!({"environment": {"variables": vars}}))
}

fn network(n: Value) -> String {
    let mut base: Value = serde_json::from_str(WORKSHOP_PROFILE_FIXED).unwrap();
    base["network"] = n;
    base.to_string()
}

/// The fixed profile (dependencies prepared in the image) with an allow
/// list, and a setup step running `shell`.
fn fetching(shell: &str) -> String {
    let mut base: Value = serde_json::from_str(WORKSHOP_PROFILE_FIXED).unwrap();
    base["network"] = json!({"egress": "allow-list", "enforced_by": "firewall", "allow": [{"host": "pypi.org", "port": 443, "protocol": "https"}], "follow_redirects": false, "dns": "pinned"});
    base["setup"] = json!([{"shell": shell}]);
    base.to_string()
}

fn mount_profile(mounts: Value, setup: Value) -> String {
    let mut base: Value = serde_json::from_str(WORKSHOP_PROFILE_FIXED).unwrap();
    base["mounts"] = mounts;
    base["setup"] = setup;
    base.to_string()
}

use Format::{Compose, Kubernetes, Oci};
use Severity::{Critical, High, Medium};

enum Input {
    Profile(String),
    Import(Format, String),
}
use Input::{Import, Profile};

/// (what, input, rule, worst severity it must reach, or `None` for silence)
fn table() -> Vec<(&'static str, Input, &'static str, Option<Severity>)> {
    let smuggled = "1+kernel.core_pattern=|/var/lib/containers/storage/overlay/x/diff/x.sh #";
    let scratch = json!([
        {"source": "/srv/workshop/snapshots/parser", "target": "/workspace", "access": "read-only"},
        {"source": "/srv/workshop/scratch/job-17", "target": "/scratch", "access": "read-write"}
    ]);
    let allow = json!([{"host": "pypi.org", "port": 443, "protocol": "https"}]);
    vec![
        // 1. sysctl values that smuggle a second assignment (CVE-2022-0811)
        ("k8s sysctl smuggled", Import(Kubernetes, pod(&format!("securityContext: {{sysctls: [{{name: kernel.shm_rmid_forced, value: '{smuggled}'}}]}}"))), "PRV023", Some(Critical)),
        ("k8s sysctl smuggled in safe net", Import(Kubernetes, pod("securityContext: {sysctls: [{name: net.ipv4.ip_local_port_range, value: '1024 65000+kernel.core_pattern=|/x'}]}")), "PRV023", Some(Critical)),
        ("k8s sysctl equals only", Import(Kubernetes, pod("securityContext: {sysctls: [{name: net.ipv4.ping_group_range, value: '0 1=kernel.modprobe'}]}")), "PRV023", Some(Critical)),
        ("compose sysctl map smuggled", Import(Compose, compose(&format!("sysctls: {{kernel.shm_rmid_forced: '{smuggled}'}}"))), "PRV023", Some(Critical)),
        ("compose sysctl list smuggled", Import(Compose, compose(&format!("sysctls: ['kernel.shm_rmid_forced={smuggled}']"))), "PRV023", Some(Critical)),
        ("oci sysctl smuggled", Import(Oci, oci(json!({"linux": {"sysctl": {"kernel.shm_rmid_forced": smuggled}}}))), "PRV023", Some(Critical)),
        ("profile sysctl smuggled", Profile(profile(json!({"boundary": {"sysctls": {"net.ipv4.tcp_syncookies": "1+fs.suid_dumpable=2"}}}))), "PRV023", Some(Critical)),
        ("k8s sysctl safe value", Import(Kubernetes, pod("securityContext: {sysctls: [{name: net.ipv4.ping_group_range, value: '0 2147483647'}]}")), "PRV023", None),
        ("oci sysctl safe value", Import(Oci, oci(json!({"linux": {"sysctl": {"kernel.shm_rmid_forced": "1"}}}))), "PRV023", None),
        // 2. DNS as a channel out of an allow list
        ("allow list, system resolver", Profile(network(json!({"egress": "allow-list", "enforced_by": "firewall", "allow": allow, "follow_redirects": false, "dns": "system"}))), "NET032", Some(High)),
        ("allow list, resolver undeclared", Profile(network(json!({"egress": "allow-list", "enforced_by": "firewall", "allow": allow, "follow_redirects": false}))), "NET032", Some(High)),
        ("allow list of addresses, system resolver", Profile(network(json!({"egress": "allow-list", "enforced_by": "firewall", "allow": [{"host": "203.0.113.7", "port": 443, "protocol": "https"}], "follow_redirects": false, "dns": "system"}))), "NET032", Some(High)),
        ("allow list, pinned", Profile(network(json!({"egress": "allow-list", "enforced_by": "firewall", "allow": allow, "follow_redirects": false, "dns": "pinned"}))), "NET032", None),
        ("deny", Profile(network(json!({"egress": "deny", "enforced_by": "firewall", "allow": [], "follow_redirects": false, "dns": "system"}))), "NET032", None),
        // 3. runtime advisories beyond runc
        ("containerd 1.4.2 host network", Profile(runtime("containerd", "1.4.2", true)), "ISO006", Some(High)),
        ("containerd 1.3.8 host network", Profile(runtime("containerd", "1.3.8", true)), "ISO006", Some(High)),
        ("containerd 1.4.2 own network", Profile(runtime("containerd", "1.4.2", false)), "ISO006", None),
        ("containerd 1.4.3 host network", Profile(runtime("containerd", "1.4.3", true)), "ISO006", None),
        ("containerd 1.3.9 host network", Profile(runtime("containerd", "1.3.9", true)), "ISO006", None),
        ("cri-o 1.23.1", Profile(runtime("cri-o", "1.23.1", false)), "ISO006", Some(High)),
        ("crio 1.22.2", Profile(runtime("crio", "1.22.2", false)), "ISO006", Some(High)),
        ("cri-o 1.19.0", Profile(runtime("cri-o", "1.19.0", false)), "ISO006", Some(High)),
        // Fixed for CVE-2022-0811, still below CVE-2024-3154's fix.
        ("cri-o 1.23.2", Profile(runtime("cri-o", "1.23.2", false)), "ISO006", Some(High)),
        ("cri-o 1.27.6", Profile(runtime("cri-o", "1.27.6", false)), "ISO006", None),
        ("cri-o 1.30.0", Profile(runtime("cri-o", "1.30.0", false)), "ISO006", None),
        ("kata-runtime 1.11.0", Profile(runtime("kata-runtime", "1.11.0", false)), "ISO006", Some(High)),
        ("kata 1.10.4", Profile(runtime("kata", "1.10.4", false)), "ISO006", Some(High)),
        ("kata-qemu 1.10.5", Profile(runtime("kata-qemu", "1.10.5", false)), "ISO006", Some(High)),
        ("kata 1.11.1", Profile(runtime("kata", "1.11.1", false)), "ISO006", None),
        ("kata 1.10.6, before the Cloud Hypervisor fix", Profile(runtime("kata", "1.10.6", false)), "ISO006", Some(High)),
        ("kata 2.0.0", Profile(runtime("kata", "2.0.0", false)), "ISO006", None),
        ("firecracker 1.14.3", Profile(runtime("firecracker", "1.14.3", false)), "ISO006", Some(High)),
        ("firecracker 1.15.0", Profile(runtime("firecracker", "1.15.0", false)), "ISO006", Some(High)),
        ("firecracker 1.14.4", Profile(runtime("firecracker", "1.14.4", false)), "ISO006", None),
        ("firecracker 1.15.1", Profile(runtime("firecracker", "1.15.1", false)), "ISO006", None),
        ("firecracker 1.12.0", Profile(runtime("firecracker", "1.12.0", false)), "ISO006", None),
        // 4. host-side steps that run a file the job can write
        ("oci poststart hook in writable mount", Import(Oci, oci(json!({"hooks": {"poststart": [{"path": "/srv/workshop/scratch/job-17/notify.sh"}]}}))), "MNT031", Some(Critical)),
        ("oci createRuntime hook via sh", Import(Oci, oci(json!({"hooks": {"createRuntime": [{"path": "/bin/sh", "args": ["sh", "/srv/workshop/scratch/job-17/x.sh"]}]}}))), "MNT031", Some(Critical)),
        ("oci poststop hook below writable mount", Import(Oci, oci(json!({"hooks": {"poststop": [{"path": "/srv/workshop/scratch/job-17/bin/../cleanup"}]}}))), "MNT031", Some(Critical)),
        ("oci prestart hook on the host", Import(Oci, oci(json!({"hooks": {"prestart": [{"path": "/usr/bin/nvidia-container-hook"}]}}))), "MNT031", None),
        ("profile setup under writable source", Profile(mount_profile(scratch.clone(), json!([{"executable": "/srv/workshop/scratch/job-17/post.sh"}]))), "MNT031", Some(Critical)),
        ("profile setup python script under writable source", Profile(mount_profile(scratch.clone(), json!([{"executable": "python3", "arguments": ["/srv/workshop/scratch/job-17/post.py"]}]))), "MNT031", Some(Critical)),
        ("profile setup under read-only source", Profile(mount_profile(scratch.clone(), json!([{"executable": "/srv/workshop/snapshots/parser/tool"}]))), "MNT031", None),
        // 5. user session sockets and system buses as mount sources
        ("mount /run/user/1000", Profile(mount_profile(json!([{"source": "/run/user/1000", "target": "/run/user/1000", "access": "read-write"}]), json!([]))), "MNT002", Some(Critical)),
        ("mount $XDG_RUNTIME_DIR", Profile(mount_profile(json!([{"source": "$XDG_RUNTIME_DIR", "target": "/run/user/1000", "access": "read-only"}]), json!([]))), "MNT002", Some(Critical)),
        ("mount ${XDG_RUNTIME_DIR}/bus", Profile(mount_profile(json!([{"source": "${XDG_RUNTIME_DIR}/bus", "target": "/run/bus", "access": "read-only"}]), json!([]))), "MNT002", Some(Critical)),
        ("mount /run/dbus", Profile(mount_profile(json!([{"source": "/run/dbus", "target": "/run/dbus", "access": "read-only"}]), json!([]))), "MNT002", Some(Critical)),
        ("mount /var/run/dbus", Profile(mount_profile(json!([{"source": "/var/run/dbus", "target": "/var/run/dbus", "access": "read-only"}]), json!([]))), "MNT002", Some(Critical)),
        ("mount /run/systemd/private", Profile(mount_profile(json!([{"source": "/run/systemd/private", "target": "/run/systemd/private", "access": "read-only"}]), json!([]))), "MNT002", Some(Critical)),
        ("mount /run exposes them", Profile(mount_profile(json!([{"source": "/run", "target": "/host-run", "access": "read-only"}]), json!([]))), "MNT005", Some(Critical)),
        ("mount /run/lock", Profile(mount_profile(json!([{"source": "/run/lock", "target": "/run/lock", "access": "read-only"}]), json!([]))), "MNT002", None),
        // 6. code-loading environment
        ("GCONV_PATH", Profile(env(json!({"GCONV_PATH": "/scratch/gconv"}))), "CMD009", Some(High)),
        ("GOFLAGS -toolexec", Profile(env(json!({"GOFLAGS": "-toolexec=/scratch/x"}))), "CMD009", Some(High)),
        ("GOFLAGS -exec", Profile(env(json!({"GOFLAGS": "-mod=mod -exec=/scratch/run"}))), "CMD009", Some(High)),
        ("GOFLAGS -overlay", Profile(env(json!({"GOFLAGS": "-overlay=/scratch/o.json"}))), "CMD009", Some(High)),
        ("GOFLAGS -insecure", Profile(env(json!({"GOFLAGS": "-insecure"}))), "CMD009", Some(High)),
        ("GOFLAGS -mod=mod", Profile(env(json!({"GOFLAGS": "-mod=mod"}))), "CMD009", None),
        ("GOPROXY", Profile(env(json!({"GOPROXY": "https://proxy.evil.example"}))), "CMD009", Some(High)),
        ("GOPROXY off", Profile(env(json!({"GOPROXY": "off"}))), "CMD009", None),
        ("GONOSUMDB", Profile(env(json!({"GONOSUMDB": "*"}))), "CMD009", Some(High)),
        ("GONOSUMCHECK", Profile(env(json!({"GONOSUMCHECK": "1"}))), "CMD009", Some(High)),
        ("GOSUMDB off", Profile(env(json!({"GOSUMDB": "off"}))), "CMD009", Some(High)),
        ("GOINSECURE", Profile(env(json!({"GOINSECURE": "*"}))), "CMD009", Some(High)),
        ("npm_config_registry", Profile(env(json!({"npm_config_registry": "https://registry.evil.example/"}))), "CMD009", Some(High)),
        ("NPM_CONFIG_REGISTRY", Profile(env(json!({"NPM_CONFIG_REGISTRY": "https://registry.evil.example/"}))), "CMD009", Some(High)),
        ("npm_config_strict_ssl false", Profile(env(json!({"npm_config_strict_ssl": "false"}))), "CMD009", Some(High)),
        ("npm_config_onload_script", Profile(env(json!({"npm_config_onload_script": "/scratch/x.js"}))), "CMD009", Some(High)),
        ("npm_config_globalconfig", Profile(env(json!({"npm_config_globalconfig": "/scratch/npmrc"}))), "CMD009", Some(High)),
        ("npm_config_loglevel", Profile(env(json!({"npm_config_loglevel": "warn"}))), "CMD009", None),
        ("PIP_INDEX_URL outside allow list", Profile(env(json!({"PIP_INDEX_URL": "https://pypi.evil.example/simple"}))), "CMD009", Some(High)),
        ("PIP_TRUSTED_HOST", Profile(env(json!({"PIP_TRUSTED_HOST": "pypi.evil.example"}))), "CMD009", Some(Medium)),
        ("CARGO_REGISTRIES_X_INDEX", Profile(env(json!({"CARGO_REGISTRIES_MIRROR_INDEX": "sparse+https://evil.example/index/"}))), "CMD009", Some(High)),
        ("CARGO_TARGET_RUNNER", Profile(env(json!({"CARGO_TARGET_X86_64_UNKNOWN_LINUX_GNU_RUNNER": "/scratch/run"}))), "CMD009", Some(High)),
        ("CARGO_TARGET_LINKER", Profile(env(json!({"CARGO_TARGET_X86_64_UNKNOWN_LINUX_GNU_LINKER": "/scratch/ld"}))), "CMD009", Some(High)),
        ("RUSTC_WRAPPER", Profile(env(json!({"RUSTC_WRAPPER": "/scratch/w"}))), "CMD009", Some(High)),
        ("CARGO_TERM_COLOR", Profile(env(json!({"CARGO_TERM_COLOR": "always"}))), "CMD009", None),
        ("LD_DEBUG_OUTPUT", Profile(env(json!({"LD_DEBUG_OUTPUT": "/etc/cron.d/x"}))), "CMD009", Some(Medium)),
        ("BASH_ENV", Profile(env(json!({"BASH_ENV": "/scratch/x"}))), "CMD009", Some(High)),
        ("ENV", Profile(env(json!({"ENV": "/scratch/x"}))), "CMD009", Some(Medium)),
        ("PROMPT_COMMAND", Profile(env(json!({"PROMPT_COMMAND": "id"}))), "CMD009", Some(Medium)),
        // 7. fetches in setup while the job has network, despite a prepared image
        ("setup go mod download", Profile(fetching("go mod download")), "DEP013", Some(High)),
        ("setup go build", Profile(fetching("go build ./...")), "DEP013", Some(High)),
        ("setup go test", Profile(fetching("go test ./...")), "DEP013", Some(High)),
        ("setup go run", Profile(fetching("go run ./cmd/x")), "DEP013", Some(High)),
        ("setup go build vendored", Profile(fetching("go build -mod=vendor ./...")), "DEP013", None),
        ("setup go mod edit", Profile(fetching("go mod edit -go=1.22")), "DEP013", None),
        ("setup cargo fetch", Profile(fetching("cargo fetch")), "DEP013", Some(High)),
        ("setup cargo build", Profile(fetching("cargo build --release")), "DEP013", Some(High)),
        ("setup cargo test", Profile(fetching("cargo test")), "DEP013", Some(High)),
        ("setup cargo test offline", Profile(fetching("cargo test --offline")), "DEP013", None),
        ("setup cargo build frozen", Profile(fetching("cargo build --frozen")), "DEP013", None),
        ("setup uv run --with", Profile(fetching("uv run --with requests x.py")), "DEP013", Some(High)),
        ("setup pipx run", Profile(fetching("pipx run black .")), "DEP013", Some(High)),
        ("setup npx", Profile(fetching("npx cowsay hi")), "DEP013", Some(High)),
        ("setup bunx", Profile(fetching("bunx cowsay hi")), "DEP013", Some(High)),
        ("setup gradle build", Profile(fetching("gradle build")), "DEP013", Some(High)),
        ("setup gradlew test", Profile(fetching("./gradlew test")), "DEP013", Some(High)),
        ("setup gradle offline", Profile(fetching("gradle --offline test")), "DEP013", None),
        ("setup mvn dependency:resolve", Profile(fetching("mvn dependency:resolve")), "DEP013", Some(High)),
        ("setup mvn package", Profile(fetching("mvn -B package")), "DEP013", Some(High)),
        ("setup mvnw verify", Profile(fetching("./mvnw verify")), "DEP013", Some(High)),
        ("setup mvn offline", Profile(fetching("mvn -o test")), "DEP013", None),
        ("setup mvn offline long", Profile(fetching("mvn --offline package")), "DEP013", None),
        // 8. OCI settings
        ("oci pid namespace of pid 1", Import(Oci, oci(json!({"linux": {"namespaces": [{"type": "pid", "path": "/proc/1/ns/pid"}, {"type": "network"}, {"type": "ipc"}, {"type": "uts"}, {"type": "mount"}, {"type": "user"}, {"type": "cgroup"}]}}))), "PRV006", Some(Critical)),
        ("oci network namespace of another process", Import(Oci, oci(json!({"linux": {"namespaces": [{"type": "pid"}, {"type": "network", "path": "/proc/4242/ns/net"}, {"type": "ipc"}, {"type": "uts"}, {"type": "mount"}, {"type": "user"}, {"type": "cgroup"}]}}))), "PRV006", Some(Critical)),
        ("oci writable sysfs", Import(Oci, oci(json!({"mounts": [{"destination": "/sys", "type": "sysfs", "source": "sysfs", "options": ["nosuid", "noexec", "nodev", "rw"]}]}))), "PRV020", Some(High)),
        ("oci read-only sysfs", Import(Oci, oci(json!({"mounts": [{"destination": "/sys", "type": "sysfs", "source": "sysfs", "options": ["nosuid", "noexec", "nodev", "ro"]}]}))), "PRV020", None),
        ("oci host /sys bound writable", Import(Oci, oci(json!({"mounts": [{"destination": "/sys", "type": "bind", "source": "/sys", "options": ["rbind", "rw"]}]}))), "MNT008", Some(Critical)),
        ("oci devices allow-all, access default", Import(Oci, oci(json!({"linux": {"resources": {"devices": [{"allow": true}]}}}))), "PRV022", Some(Critical)),
        ("oci devices allow-all type a", Import(Oci, oci(json!({"linux": {"resources": {"devices": [{"allow": true, "type": "a", "access": "rwm"}]}}}))), "PRV022", Some(Critical)),
        ("oci devices deny-all", Import(Oci, oci(json!({"linux": {"resources": {"devices": [{"allow": false, "access": "rwm"}]}}}))), "PRV022", None),
    ]
}

#[test]
fn each_class_draws_its_rule_and_its_twin_does_not() {
    let rows = table();
    let mut wrong = Vec::new();
    for (what, input, rule, want) in &rows {
        let found = match input {
            Profile(p) => audit_json(p),
            Import(f, s) => audit_import(*f, s),
        };
        let worst = found.iter().filter(|f| f.0 == *rule).map(|f| f.1).min();
        if worst != *want {
            wrong.push(format!("{what}: {rule} {worst:?}, want {want:?}"));
        }
    }
    assert!(
        wrong.is_empty(),
        "{} of {} wrong:\n{}",
        wrong.len(),
        rows.len(),
        wrong.join("\n")
    );
}

/// A patch date after an advisory lowers the finding, and says whose
/// word it takes for that.
#[test]
fn a_backport_allowance_says_it_trusts_the_distribution() {
    let p = runtime("cri-o", "1.23.1", false).replace(
        r#""version":"1.23.1""#,
        r#""version":"1.23.1","patched_on":"2026-10-01""#,
    );
    let found = audit_json(&p);
    let f = found
        .iter()
        .find(|f| f.0 == "ISO006")
        .expect("ISO006 fires");
    assert_eq!(f.1, Medium, "{f:?}");
    assert!(f.2.contains("backport") && f.2.contains("trust"), "{}", f.2);
}

/// Two profiles of one file under one name cannot be told apart in any
/// report (`file#name`): the import is refused, naming both places.
#[test]
fn one_file_cannot_hold_two_profiles_of_one_name() {
    let pod = |image: &str| {
        format!("apiVersion: v1\nkind: Pod\nmetadata: {{name: t}}\nspec:\n  containers:\n  - name: c\n    image: {image}\n")
    };
    let cases: &[(Format, String, bool)] = &[
        (Kubernetes, format!("{}---\n{}", pod("x"), pod("z")), true),
        (
            Kubernetes,
            format!(
                "{}---\n{}",
                pod("x"),
                pod("z").replace("{name: t}", "{name: t, namespace: ci}")
            ),
            false,
        ),
        (
            Kubernetes,
            format!(
                "apiVersion: v1\nkind: List\nitems:\n- {}\n- {}",
                pod("x").replace('\n', "\n  "),
                pod("z").replace('\n', "\n  ")
            ),
            true,
        ),
        (
            Kubernetes,
            format!(
                "{}---\n{}",
                pod("x"),
                pod("z")
                    .replace("kind: Pod", "kind: Job")
                    .replace(
                        "spec:\n",
                        "spec:\n  template:\n    spec:\n      containers: [{name: c, image: z}]\n"
                    )
                    .split("  containers:\n  - name: c\n    image: z\n")
                    .next()
                    .unwrap_or("")
            ),
            false,
        ),
    ];
    let mut wrong = Vec::new();
    for (format, src, refused) in cases {
        match import::import(src.as_bytes(), *format) {
            Err(e) if *refused && e.to_string().contains("`Pod/t/c`") => {}
            Ok(_) if !*refused => {}
            other => wrong.push(format!("{src}\n=> {:?}", other.map(|v| v.len()))),
        }
    }
    assert!(
        wrong.is_empty(),
        "{} of {} wrong:\n{}",
        wrong.len(),
        cases.len(),
        wrong.join("\n\n")
    );
}
