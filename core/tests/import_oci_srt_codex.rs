//! OCI bundles, sandbox-runtime / Claude Code settings and Codex configs
//! read as the program that runs them reads them (issue 45). Each table
//! holds many cases of one class; the figures of how many failed before
//! the fix are in the commit that added them.
#![allow(clippy::disallowed_methods, clippy::disallowed_types)]

use isolint_core::import::{self, Format};
use isolint_core::{AuditOptions, Date, Labels};

struct Audited {
    profile: serde_json::Value,
    notes: Vec<String>,
    /// (rule, message, evidence as JSON text)
    findings: Vec<(String, String, String)>,
}

/// The first profile of `text` (the sandboxed one, for sandbox settings).
fn audit(text: &str, format: Format) -> Audited {
    let units = import::import(text.as_bytes(), format).unwrap_or_else(|e| panic!("{text}: {e}"));
    let u = units
        .iter()
        .find(|u| u.name.is_empty())
        .unwrap_or(&units[0]);
    let options = AuditOptions {
        today: Date::parse("2026-11-29"),
    };
    let r = isolint_core::audit::audit_imported(
        u,
        "f",
        &Labels::workshop(),
        &options,
        None,
        &isolint_core::InOrder,
    )
    .unwrap();
    Audited {
        profile: serde_json::from_str(&u.profile_json).unwrap(),
        notes: u.notes.iter().map(|n| n.message.to_string()).collect(),
        findings: r
            .issues
            .iter()
            .map(|f| {
                (
                    f.rule.to_string(),
                    f.message.clone(),
                    format!("{:?}", f.evidence),
                )
            })
            .collect(),
    }
}

fn fails(wrong: &[String], total: usize) {
    assert!(
        wrong.is_empty(),
        "{} of {total} cases wrong:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}

// ------------------------------------------------------------------ OCI

const RUNC_MASKED: &[&str] = &[
    "/proc/acpi",
    "/proc/asound",
    "/proc/kcore",
    "/proc/keys",
    "/proc/latency_stats",
    "/proc/timer_list",
    "/proc/timer_stats",
    "/proc/sched_debug",
    "/sys/firmware",
    "/proc/scsi",
];
const RUNC_READONLY: &[&str] = &[
    "/proc/bus",
    "/proc/fs",
    "/proc/irq",
    "/proc/sys",
    "/proc/sysrq-trigger",
];

fn oci(linux_extra: &str, mounts: &str) -> String {
    format!(
        r#"{{"ociVersion": "1.2.0", "process": {{"args": ["true"], "user": {{"uid": 1000, "gid": 1000}}}},
  "root": {{"path": "rootfs", "readonly": true}}, "mounts": [{mounts}],
  "linux": {{"namespaces": [{{"type": "pid"}}, {{"type": "network"}}, {{"type": "mount"}}]{linux_extra}}}}}"#
    )
}

fn list(paths: &[&str]) -> String {
    let q: Vec<String> = paths.iter().map(|p| format!("\"{p}\"")).collect();
    format!("[{}]", q.join(", "))
}

fn without<'a>(all: &[&'a str], gone: &[&str]) -> Vec<&'a str> {
    all.iter().copied().filter(|p| !gone.contains(p)).collect()
}

/// `maskedPaths` and `readonlyPaths` are compared path by path with
/// runc's defaults (libcontainer/specconv/example.go, runc commit
/// 76d9cf5da5683ff449ae967db58fa8c5927ca54b): PRV020 names exactly the
/// default paths the bundle leaves exposed, and nothing when none is.
#[test]
fn oci_masking_names_exactly_the_paths_left_exposed() {
    let all: Vec<&str> = RUNC_MASKED.iter().chain(RUNC_READONLY).copied().collect();
    let cases: Vec<(String, Vec<&str>)> = vec![
        // runc's own lists: nothing exposed.
        (
            format!(
                r#", "maskedPaths": {}, "readonlyPaths": {}"#,
                list(RUNC_MASKED),
                list(RUNC_READONLY)
            ),
            vec![],
        ),
        // One masked path dropped.
        (
            format!(
                r#", "maskedPaths": {}, "readonlyPaths": {}"#,
                list(&without(RUNC_MASKED, &["/proc/kcore"])),
                list(RUNC_READONLY)
            ),
            vec!["/proc/kcore"],
        ),
        // Two dropped, one of each list.
        (
            format!(
                r#", "maskedPaths": {}, "readonlyPaths": {}"#,
                list(&without(RUNC_MASKED, &["/proc/keys"])),
                list(&without(RUNC_READONLY, &["/proc/sysrq-trigger"]))
            ),
            vec!["/proc/keys", "/proc/sysrq-trigger"],
        ),
        // A read-only path that is masked instead is covered.
        (
            format!(
                r#", "maskedPaths": {}, "readonlyPaths": {}"#,
                list(&[RUNC_MASKED, &["/proc/sys"]].concat()),
                list(&without(RUNC_READONLY, &["/proc/sys"]))
            ),
            vec![],
        ),
        // A parent covers its children; a trailing slash is the same path.
        (
            format!(
                r#", "maskedPaths": ["/proc/acpi/", "/proc/asound", "/proc/kcore", "/proc/keys", "/proc/latency_stats", "/proc/timer_list", "/proc/timer_stats", "/proc/sched_debug", "/sys", "/proc/scsi"], "readonlyPaths": {}"#,
                list(RUNC_READONLY)
            ),
            vec![],
        ),
        // Masking a child does not cover its parent.
        (
            format!(
                r#", "maskedPaths": {}, "readonlyPaths": {}"#,
                list(&[&without(RUNC_MASKED, &["/sys/firmware"])[..], &["/sys/firmware/efi"]].concat()),
                list(RUNC_READONLY)
            ),
            vec!["/sys/firmware"],
        ),
        // The partial lists of a hand-written bundle.
        (
            r#", "maskedPaths": ["/proc/kcore", "/proc/keys", "/sys/firmware"], "readonlyPaths": ["/proc/bus", "/proc/sys"]"#.to_string(),
            vec![
                "/proc/acpi",
                "/proc/asound",
                "/proc/latency_stats",
                "/proc/timer_list",
                "/proc/timer_stats",
                "/proc/sched_debug",
                "/proc/scsi",
                "/proc/fs",
                "/proc/irq",
                "/proc/sysrq-trigger",
            ],
        ),
        // Lists missing or empty: every default path.
        (String::new(), all.clone()),
        (r#", "maskedPaths": [], "readonlyPaths": []"#.to_string(), all.clone()),
        (
            format!(r#", "maskedPaths": {}"#, list(RUNC_MASKED)),
            RUNC_READONLY.to_vec(),
        ),
        (
            format!(r#", "readonlyPaths": {}"#, list(RUNC_READONLY)),
            RUNC_MASKED.to_vec(),
        ),
    ];
    let mut wrong = Vec::new();
    for (extra, want) in &cases {
        let a = audit(&oci(extra, ""), Format::Oci);
        let prv020: Vec<_> = a.findings.iter().filter(|f| f.0 == "PRV020").collect();
        let mut want: Vec<&str> = want.clone();
        want.sort();
        let got: Vec<String> = a.profile["boundary"]["unmasked_paths"]
            .as_array()
            .map(|v| {
                let mut v: Vec<String> =
                    v.iter().map(|s| s.as_str().unwrap().to_string()).collect();
                v.sort();
                v
            })
            .unwrap_or_default();
        let named_all = prv020
            .first()
            .is_some_and(|f| want.iter().all(|p| f.1.contains(&format!("`{p}`"))));
        let ok = if want.is_empty() {
            prv020.is_empty() && got.is_empty()
        } else {
            prv020.len() == 1 && got == want && named_all
        };
        if !ok {
            wrong.push(format!(
                "{extra}: unmasked {got:?} (want {want:?}), PRV020 {:?}",
                prv020.iter().map(|f| &f.1).collect::<Vec<_>>()
            ));
        }
    }
    fails(&wrong, cases.len());
}

/// Device cgroup rules keep type, numbers and access as runc applies them
/// (in order; a deny-all rule clears what came before; `m` alone creates
/// nodes but opens none, and runc allows it for every device anyway).
#[test]
fn oci_device_rules_keep_their_access() {
    let d = |rules: &str| {
        format!(
            r#", "maskedPaths": {}, "readonlyPaths": {}, "resources": {{"devices": [{{"allow": false, "access": "rwm"}}, {rules}]}}"#,
            list(RUNC_MASKED),
            list(RUNC_READONLY)
        )
    };
    // (rules, device entries, PRV022 wanted, text the message must hold,
    // text it must not)
    let cases: &[(&str, &[&str], bool, &str, &str)] = &[
        (
            r#"{"allow": true, "type": "b", "major": 8, "access": "r"}"#,
            &["/dev/sd* r"],
            true,
            "read",
            "writ",
        ),
        (
            r#"{"allow": true, "type": "b", "major": 8, "minor": 0, "access": "rw"}"#,
            &["/dev/sd*"],
            true,
            "writ",
            "",
        ),
        (
            r#"{"allow": true, "type": "c", "major": 1, "minor": 1, "access": "r"}"#,
            &["/dev/mem r"],
            true,
            "read",
            "written",
        ),
        (
            r#"{"allow": true, "type": "c", "major": 10, "minor": 232, "access": "rwm"}"#,
            &["/dev/kvm"],
            true,
            "KVM",
            "",
        ),
        (
            r#"{"allow": true, "type": "c", "major": 10, "minor": 232, "access": "m"}"#,
            &["/dev/kvm m"],
            false,
            "",
            "",
        ),
        (
            r#"{"allow": true, "type": "c", "major": 13, "access": "w"}"#,
            &["/dev/input/* w"],
            true,
            "",
            "",
        ),
        (
            r#"{"allow": true, "type": "c", "major": 240, "minor": 3, "access": "r"}"#,
            &["c 240:3 r"],
            true,
            "",
            "",
        ),
        (
            r#"{"allow": true, "access": "rwm"}"#,
            &["*"],
            true,
            "every",
            "",
        ),
        (r#"{"allow": true}"#, &["*"], true, "every", ""),
        (
            r#"{"allow": true, "access": "rwm"}, {"allow": false, "access": "rwm"}"#,
            &[],
            false,
            "",
            "",
        ),
        (
            r#"{"allow": true, "type": "b", "major": 8, "minor": 0, "access": "rw"}, {"allow": false, "type": "b", "major": 8, "minor": 0, "access": "w"}"#,
            &["/dev/sd* r"],
            true,
            "read",
            "writ",
        ),
        (
            r#"{"allow": true, "type": "b", "major": 8, "minor": 0, "access": "rw"}, {"allow": false, "type": "b", "major": 8, "minor": 0, "access": "rw"}"#,
            &[],
            false,
            "",
            "",
        ),
    ];
    let mut wrong = Vec::new();
    for (rules, want_devs, want_finding, must, must_not) in cases {
        let a = audit(&oci(&d(rules), ""), Format::Oci);
        let devs: Vec<String> = a.profile["boundary"]["devices"]
            .as_array()
            .map(|v| v.iter().map(|s| s.as_str().unwrap().to_string()).collect())
            .unwrap_or_default();
        let f: Vec<_> = a.findings.iter().filter(|f| f.0 == "PRV022").collect();
        let msg_ok = f
            .iter()
            .all(|f| f.1.contains(must) && (must_not.is_empty() || !f.1.contains(must_not)));
        if devs != *want_devs || f.is_empty() == *want_finding || !msg_ok {
            wrong.push(format!(
                "{rules}: devices {devs:?} (want {want_devs:?}), PRV022 {:?}",
                f.iter().map(|f| &f.1).collect::<Vec<_>>()
            ));
        }
    }
    fails(&wrong, cases.len());
}

/// Mount options runc does not know are named in a note; `rro` makes a
/// bind read-only (runc's recursive attribute), and an unknown word such
/// as `readonly` leaves it writable.
#[test]
fn oci_mount_options_runc_does_not_know_are_named() {
    let m = |opts: &str| {
        format!(
            r#"{{"destination": "/data", "type": "bind", "source": "/srv/data", "options": [{opts}]}}"#
        )
    };
    // (options, access of the mount, unknown options named)
    let cases: &[(&str, &str, &[&str])] = &[
        (r#""rbind", "ro""#, "read-only", &[]),
        (r#""rbind", "rro""#, "read-only", &[]),
        (r#""rbind", "rw", "rro""#, "read-only", &[]),
        (r#""rbind", "readonly""#, "read-write", &["readonly"]),
        (
            r#""bind", "nosuid", "nodev", "noexec", "rprivate""#,
            "read-write",
            &[],
        ),
        (r#""rbind", "ro", "r0""#, "read-only", &["r0"]),
        (
            r#""rbind", "ro", "idmap", "tmpcopyup", "nosymfollow""#,
            "read-only",
            &[],
        ),
        (
            r#""rbind", "rdonly", "noexecc""#,
            "read-write",
            &["rdonly", "noexecc"],
        ),
    ];
    let mut wrong = Vec::new();
    for (opts, access, unknown) in cases {
        let a = audit(
            &oci(
                &format!(
                    r#", "maskedPaths": {}, "readonlyPaths": {}"#,
                    list(RUNC_MASKED),
                    list(RUNC_READONLY)
                ),
                &m(opts),
            ),
            Format::Oci,
        );
        let got = a.profile["mounts"][0]["access"]
            .as_str()
            .unwrap_or("")
            .to_string();
        let named: Vec<&str> = unknown
            .iter()
            .copied()
            .filter(|o| {
                a.notes
                    .iter()
                    .any(|n| n.contains(&format!("`{o}`")) && n.contains("option"))
            })
            .collect();
        let extra = a
            .notes
            .iter()
            .filter(|n| n.contains("mount option"))
            .count();
        if got != *access || named.len() != unknown.len() || extra != unknown.len() {
            wrong.push(format!(
                "{opts}: access {got} (want {access}), notes {:?}",
                a.notes
            ));
        }
    }
    // Data options of a file system mount are the kernel's to check.
    let tmpfs = r#"{"destination": "/dev", "type": "tmpfs", "source": "tmpfs", "options": ["nosuid", "strictatime", "mode=755", "size=65536k"]}, {"destination": "/dev/pts", "type": "devpts", "source": "devpts", "options": ["nosuid", "noexec", "newinstance", "ptmxmode=0666", "mode=0620", "gid=5"]}"#;
    let a = audit(&oci("", tmpfs), Format::Oci);
    if a.notes.iter().any(|n| n.contains("mount option")) {
        wrong.push(format!("runc's default tmpfs/devpts: {:?}", a.notes));
    }
    fails(&wrong, cases.len() + 1);
}

// ------------------------------------------------------ sandbox-runtime

fn mounts(a: &Audited) -> Vec<(String, String)> {
    a.profile["mounts"]
        .as_array()
        .map(|v| {
            v.iter()
                .map(|m| {
                    (
                        m["source"].as_str().unwrap_or("").to_string(),
                        m["access"].as_str().unwrap_or("").to_string(),
                    )
                })
                .collect()
        })
        .unwrap_or_default()
}

/// An allowed unix socket is socket access, not a writable mount: the
/// socket is visible (read-only, which does not stop `connect`), and the
/// engine-socket rules still see it; `allowAllUnixSockets` turns socket
/// blocking off without inventing writable `/run` mounts.
#[test]
fn srt_unix_socket_allowances_are_socket_access_not_writable_mounts() {
    let srt = Format::SandboxSettings;
    // (settings, unix_sockets, writable mounts other than the defaults,
    // rules that must fire)
    let cases: &[(&str, &str, &[&str], &[&str])] = &[
        (
            r#"{"network": {"allowUnixSockets": ["/tmp/agent.sock"]}}"#,
            "blocked",
            &[],
            &[],
        ),
        (
            r#"{"network": {"allowUnixSockets": ["~/.ssh/agent.sock", "/run/user/1000/bus"]}}"#,
            "blocked",
            &[],
            &[],
        ),
        (
            r#"{"network": {"allowUnixSockets": ["/var/run/docker.sock"]}}"#,
            "blocked",
            &[],
            &["MNT004", "PRV009"],
        ),
        (
            r#"{"network": {"allowAllUnixSockets": true}}"#,
            "allowed",
            &[],
            &["PRV009"],
        ),
        (
            r#"{"network": {"allowAllUnixSockets": false}}"#,
            "blocked",
            &[],
            &[],
        ),
        (
            r#"{"sandbox": {"enabled": true, "network": {"allowUnixSockets": ["/tmp/x.sock"]}}}"#,
            "blocked",
            &["."],
            &[],
        ),
        (
            r#"{"sandbox": {"enabled": true, "network": {"allowAllUnixSockets": true}}}"#,
            "allowed",
            &["."],
            &["PRV009"],
        ),
    ];
    let mut wrong = Vec::new();
    for (text, sockets, writable, rules) in cases {
        let a = audit(text, srt);
        let got_sockets = a.profile["boundary"]["unix_sockets"].as_str().unwrap_or("");
        let got_writable: Vec<String> = mounts(&a)
            .into_iter()
            .filter(|(_, acc)| acc == "read-write")
            .map(|(s, _)| s)
            .collect();
        let missing: Vec<&&str> = rules
            .iter()
            .filter(|r| !a.findings.iter().any(|f| f.0 == **r))
            .collect();
        if got_sockets != *sockets || got_writable != *writable || !missing.is_empty() {
            wrong.push(format!(
                "{text}: unix_sockets {got_sockets} (want {sockets}), writable {got_writable:?} (want {writable:?}), missing rules {missing:?}"
            ));
        }
    }
    fails(&wrong, cases.len());
}

/// With allowed domains, the proxy filters by name and the OS sandbox
/// blocks direct connections (network namespace on Linux, Seatbelt on
/// macOS): both layers are recorded, so NET020 ("proxy only") is not
/// raised; `enableWeakerNetworkIsolation` opens a path around the proxy.
#[test]
fn srt_network_enforcement_records_both_layers() {
    let srt = Format::SandboxSettings;
    // (settings, enforced_by, NET020 wanted)
    let cases: &[(&str, &str, bool)] = &[
        (
            r#"{"network": {"allowedDomains": ["pypi.org"]}}"#,
            r#"["proxy","firewall"]"#,
            false,
        ),
        (
            r#"{"network": {"allowedDomains": ["pypi.org", "*.github.com"]}}"#,
            r#"["proxy","firewall"]"#,
            false,
        ),
        (
            r#"{"sandbox": {"enabled": true, "network": {"allowedDomains": ["pypi.org"]}}}"#,
            r#"["proxy","firewall"]"#,
            false,
        ),
        (
            r#"{"network": {"allowedDomains": []}}"#,
            r#""firewall""#,
            false,
        ),
        (
            r#"{"network": {"allowedDomains": ["pypi.org"]}, "enableWeakerNetworkIsolation": true}"#,
            r#""proxy""#,
            true,
        ),
        (
            r#"{"sandbox": {"enabled": true, "enableWeakerNetworkIsolation": true, "network": {"allowedDomains": ["pypi.org"]}}}"#,
            r#""proxy""#,
            true,
        ),
    ];
    let mut wrong = Vec::new();
    for (text, enforced, net020) in cases {
        let a = audit(text, srt);
        let got = serde_json::to_string(&a.profile["network"]["enforced_by"]).unwrap();
        let got020 = a.findings.iter().any(|f| f.0 == "NET020");
        if got != *enforced || got020 != *net020 {
            wrong.push(format!(
                "{text}: enforced_by {got} (want {enforced}), NET020 {got020} (want {net020})"
            ));
        }
    }
    fails(&wrong, cases.len());
}

/// A glob in a path is a pattern (sandbox-runtime matches it on macOS):
/// the mount is the directory the pattern can match beneath, never a
/// literal path with `*` in it.
#[test]
fn srt_globs_stay_patterns() {
    let srt = Format::SandboxSettings;
    let cases: &[(&str, &str)] = &[
        ("/h*", "/"),
        ("/home/*/work", "/home"),
        ("/tmp/*.log", "/tmp"),
        ("~/projects/**", "~/projects"),
        ("/srv/build/[ab]", "/srv/build"),
        ("/srv/cache/job-?", "/srv/cache"),
        ("/srv/**/out", "/srv"),
        ("/srv/out", "/srv/out"),
    ];
    let mut wrong = Vec::new();
    for (pattern, want) in cases {
        let text = format!(r#"{{"filesystem": {{"allowWrite": ["{pattern}"]}}}}"#);
        let a = audit(&text, srt);
        let writable: Vec<String> = mounts(&a)
            .into_iter()
            .filter(|(_, acc)| acc == "read-write")
            .map(|(s, _)| s)
            .collect();
        let want_src = want.replace('~', "");
        let ok = writable.len() == 1
            && writable[0].ends_with(&want_src)
            && !writable[0].contains(['*', '?', '['])
            && (pattern == want
                || a.notes
                    .iter()
                    .any(|n| n.contains(pattern) && n.contains("pattern")));
        if !ok {
            wrong.push(format!(
                "{pattern}: writable {writable:?} (want {want}), notes {:?}",
                a.notes
            ));
        }
    }
    fails(&wrong, cases.len());
}

/// Every key of sandbox-runtime's settings schema (src/sandbox/
/// sandbox-config.ts at anthropic-experimental/sandbox-runtime commit
/// d35b8136407c6b7d0fa744a5b9140f51eb50e1b4) and of Claude Code's
/// `sandbox` settings is known: none is reported as unknown.
#[test]
fn srt_every_current_key_is_known() {
    let srt = Format::SandboxSettings;
    let cases: &[&str] = &[
        r#"{"network": {"allowedDomains": [], "deniedDomains": [], "allowUnixSockets": [], "allowAllUnixSockets": false, "allowLocalBinding": false, "httpProxyPort": 8080, "socksProxyPort": 1080}}"#,
        r#"{"filesystem": {"denyRead": [], "allowWrite": [], "denyWrite": [], "allowGitConfig": false}}"#,
        r#"{"filesystem": {"allowRead": []}, "ignoreViolations": {"*": ["/tmp"]}}"#,
        r#"{"filesystem": {"allowWrite": []}, "enableWeakerNestedSandbox": false}"#,
        r#"{"filesystem": {"allowWrite": []}, "enableWeakerNetworkIsolation": false}"#,
        r#"{"filesystem": {"allowWrite": []}, "ripgrep": {"command": "rg", "args": []}}"#,
        r#"{"filesystem": {"allowWrite": []}, "mandatoryDenySearchDepth": 3}"#,
        r#"{"filesystem": {"allowWrite": []}, "allowPty": false}"#,
        r#"{"sandbox": {"enabled": true, "enableWeakerNetworkIsolation": false, "enableWeakerNestedSandbox": false}}"#,
        r#"{"sandbox": {"enabled": true, "autoAllowBashIfSandboxed": true, "excludedCommands": [], "allowUnsandboxedCommands": false, "ignoreViolations": {}}}"#,
        r#"{"sandbox": {"enabled": true, "network": {"allowUnixSockets": [], "allowAllUnixSockets": false, "allowLocalBinding": false, "httpProxyPort": 1, "socksProxyPort": 2, "allowedDomains": []}}}"#,
    ];
    let mut wrong = Vec::new();
    for text in cases {
        let a = audit(text, srt);
        let unknown: Vec<&String> = a
            .notes
            .iter()
            .filter(|n| n.contains("unknown field"))
            .collect();
        if !unknown.is_empty() {
            wrong.push(format!("{text}: {unknown:?}"));
        }
    }
    fails(&wrong, cases.len());
}

/// `enableWeakerNestedSandbox` (no fresh /proc: the host's is visible)
/// and `enableWeakerNetworkIsolation` (a system service reachable around
/// the proxy) set to true are blocking findings; false is not.
#[test]
fn srt_weaker_modes_are_findings() {
    let srt = Format::SandboxSettings;
    let base = r#""network": {"allowedDomains": ["pypi.org"]}"#;
    // (settings, rule that must fire, or "" for none of PRV020/NET020)
    let cases: Vec<(String, &str)> = vec![
        (
            format!(r#"{{{base}, "enableWeakerNestedSandbox": true}}"#),
            "PRV020",
        ),
        (
            format!(r#"{{{base}, "enableWeakerNestedSandbox": false}}"#),
            "",
        ),
        (
            format!(r#"{{{base}, "enableWeakerNetworkIsolation": true}}"#),
            "NET020",
        ),
        (
            format!(r#"{{{base}, "enableWeakerNetworkIsolation": false}}"#),
            "",
        ),
        (
            r#"{"sandbox": {"enabled": true, "enableWeakerNestedSandbox": true}}"#.to_string(),
            "PRV020",
        ),
        (
            r#"{"sandbox": {"enabled": true, "enableWeakerNetworkIsolation": true}}"#.to_string(),
            "NET020",
        ),
        (r#"{"sandbox": {"enabled": true}}"#.to_string(), ""),
    ];
    let mut wrong = Vec::new();
    for (text, rule) in &cases {
        let a = audit(text, srt);
        let got: Vec<&str> = a
            .findings
            .iter()
            .map(|f| f.0.as_str())
            .filter(|r| ["PRV020", "NET020"].contains(r))
            .collect();
        let ok = if rule.is_empty() {
            got.is_empty()
        } else {
            got.contains(rule)
        };
        if !ok {
            wrong.push(format!("{text}: {got:?} (want {rule:?})"));
        }
    }
    fails(&wrong, cases.len());
}

// ------------------------------------------------------------------ Codex

/// Every top-level key of Codex's config schema (codex-rs/core/
/// config.schema.json at openai/codex commit
/// 000c857ecc17e5ab40a985bdaa40816450ee5ebf) is known, in a profile too.
#[test]
fn codex_every_current_key_is_known() {
    let keys = [
        "agents = {}",
        "allow_login_shell = false",
        "analytics = { enabled = false }",
        "approval_policy = \"on-request\"",
        "approvals_reviewer = \"user\"",
        "apps = {}",
        "apps_mcp_product_sku = \"x\"",
        "audio = {}",
        "auto_review = {}",
        "background_terminal_max_timeout = 1000",
        "chatgpt_base_url = \"https://chatgpt.com\"",
        "check_for_update_on_startup = false",
        "cli_auth_credentials_store = \"file\"",
        "compact_prompt = \"x\"",
        "debug = {}",
        "desktop = {}",
        "developer_instructions = \"x\"",
        "disable_paste_burst = true",
        "experimental_compact_prompt_file = \"/x\"",
        "experimental_realtime_start_instructions = \"x\"",
        "experimental_realtime_ws_backend_prompt = \"x\"",
        "experimental_realtime_ws_base_url = \"x\"",
        "experimental_realtime_ws_model = \"x\"",
        "experimental_realtime_ws_startup_context = \"x\"",
        "experimental_thread_config_endpoint = \"https://x\"",
        "experimental_thread_store = { type = \"local\" }",
        "experimental_use_unified_exec_tool = false",
        "features = {}",
        "feedback = { enabled = false }",
        "file_opener = \"none\"",
        "forced_chatgpt_workspace_id = \"x\"",
        "forced_login_method = \"api\"",
        "ghost_snapshot = {}",
        "hide_agent_reasoning = true",
        "history = {}",
        "hooks = {}",
        "include_apps_instructions = false",
        "include_collaboration_mode_instructions = false",
        "include_environment_context = false",
        "include_permissions_instructions = false",
        "instructions = \"x\"",
        "log_dir = \"/tmp/codex-log\"",
        "marketplaces = {}",
        "mcp_oauth_callback_port = 4000",
        "mcp_oauth_callback_url = \"http://localhost/cb\"",
        "mcp_oauth_credentials_store = \"auto\"",
        "memories = {}",
        "model = \"gpt-5\"",
        "model_auto_compact_token_limit = 1000",
        "model_auto_compact_token_limit_scope = \"total\"",
        "model_catalog_json = \"/x.json\"",
        "model_context_window = 1000",
        "model_instructions_file = \"/x.md\"",
        "model_provider = \"openai\"",
        "model_providers = {}",
        "model_reasoning_effort = \"high\"",
        "model_reasoning_summary = \"auto\"",
        "model_supports_reasoning_summaries = true",
        "model_verbosity = \"low\"",
        "notice = {}",
        "openai_base_url = \"https://api.openai.com\"",
        "oss_provider = \"ollama\"",
        "otel = {}",
        "personality = \"none\"",
        "plan_mode_reasoning_effort = \"high\"",
        "plugins = {}",
        "project_doc_fallback_filenames = [\"CLAUDE.md\"]",
        "project_doc_max_bytes = 1000",
        "project_root_markers = [\".git\"]",
        "realtime = {}",
        "review_model = \"gpt-5\"",
        "service_tier = \"flex\"",
        "show_raw_agent_reasoning = false",
        "skills = {}",
        "sqlite_home = \"/tmp/codex-db\"",
        "suppress_unstable_features_warning = true",
        "tool_output_token_limit = 1000",
        "tool_suggest = {}",
        "tools = {}",
        "tui = {}",
        "web_search = \"disabled\"",
        "windows = {}",
    ];
    let profile_keys = [
        "analytics = { enabled = false }",
        "approvals_reviewer = \"auto_review\"",
        "experimental_compact_prompt_file = \"/x\"",
        "include_apps_instructions = false",
        "model_catalog_json = \"/x.json\"",
        "model_instructions_file = \"/x.md\"",
        "oss_provider = \"ollama\"",
        "personality = \"none\"",
        "plan_mode_reasoning_effort = \"high\"",
        "service_tier = \"flex\"",
        "web_search = \"live\"",
        "windows = {}",
    ];
    let mut wrong = Vec::new();
    for k in keys {
        let text = format!("sandbox_mode = \"read-only\"\n{k}\n");
        let a = audit(&text, Format::Codex);
        if let Some(n) = a
            .notes
            .iter()
            .find(|n| n.contains("not a setting this import knows"))
        {
            wrong.push(format!("{k}: {n}"));
        }
    }
    for k in profile_keys {
        let text = format!("profile = \"p\"\n[profiles.p]\nsandbox_mode = \"read-only\"\n{k}\n");
        let a = audit(&text, Format::Codex);
        if let Some(n) = a
            .notes
            .iter()
            .find(|n| n.contains("not a setting this import knows"))
        {
            wrong.push(format!("[profiles.p] {k}: {n}"));
        }
    }
    fails(&wrong, keys.len() + profile_keys.len());
}

/// `default_permissions` is read as Codex resolves it
/// (`resolve_permission_config_syntax`): the selected `[profiles.X]`
/// `sandbox_mode` wins, then `default_permissions`, then `sandbox_mode`;
/// with a permission profile in force the legacy `network_access` is
/// ignored.
#[test]
fn codex_permission_profiles_are_followed() {
    let open = "[permissions.open]\nextends = \":workspace\"\n[permissions.open.network]\nenabled = true\n";
    let closed = "[permissions.closed]\nextends = \":read-only\"\n[permissions.closed.network]\nenabled = false\n";
    // (config, egress)
    let cases: Vec<(String, &str)> = vec![
        (format!("default_permissions = \"open\"\nsandbox_mode = \"read-only\"\n{open}"), "allow-all"),
        (format!("sandbox_mode = \"workspace-write\"\ndefault_permissions = \"open\"\n[sandbox_workspace_write]\nnetwork_access = false\n{open}"), "allow-all"),
        (format!("sandbox_mode = \"workspace-write\"\ndefault_permissions = \"closed\"\n[sandbox_workspace_write]\nnetwork_access = true\n{closed}"), "deny"),
        (format!("default_permissions = \"closed\"\n[sandbox_workspace_write]\nnetwork_access = true\n{closed}"), "deny"),
        ("default_permissions = \":danger-full-access\"\nsandbox_mode = \"read-only\"\n".to_string(), "allow-all"),
        // The selected profile's `sandbox_mode` selects the legacy settings.
        (format!("profile = \"p\"\ndefault_permissions = \"open\"\n[profiles.p]\nsandbox_mode = \"read-only\"\n{open}"), "deny"),
        (format!("profile = \"p\"\ndefault_permissions = \"closed\"\n[profiles.p]\nsandbox_mode = \"danger-full-access\"\n{closed}"), "allow-all"),
        ("sandbox_mode = \"workspace-write\"\n[sandbox_workspace_write]\nnetwork_access = true\n".to_string(), "allow-all"),
    ];
    let mut wrong = Vec::new();
    for (text, egress) in &cases {
        let a = audit(text, Format::Codex);
        let got = a.profile["network"]["egress"].as_str().unwrap_or("");
        if got != *egress {
            wrong.push(format!("{text}: egress {got} (want {egress})"));
        }
        if text.contains("default_permissions")
            && text.contains("network_access")
            && !text.contains("[profiles.p]")
            && !a
                .notes
                .iter()
                .any(|n| n.contains("network_access") && n.contains("ignored"))
        {
            wrong.push(format!(
                "{text}: no note that `network_access` is ignored: {:?}",
                a.notes
            ));
        }
    }
    fails(&wrong, cases.len());
}

/// Trusting the home directory (or anything above it) as a project makes
/// every repository under it trusted: each one's `.codex/config.toml`,
/// which the audited file does not show, is loaded. A finding; a project
/// directory is not.
#[test]
fn codex_trusting_home_is_a_finding() {
    let cases: &[(&str, bool)] = &[
        ("/home/u", true),
        ("/home/u/", true),
        ("~", true),
        ("~/", true),
        ("$HOME", true),
        ("/Users/alice", true),
        ("/root", true),
        ("/home", true),
        ("/", true),
        ("/home/u/src/project", false),
        ("/srv/workshop/repo", false),
        ("~/src/project", false),
    ];
    let mut wrong = Vec::new();
    for (path, finding) in cases {
        let text = format!(
            "sandbox_mode = \"read-only\"\n[projects.\"{path}\"]\ntrust_level = \"trusted\"\n"
        );
        let base = audit("sandbox_mode = \"read-only\"\n", Format::Codex);
        let a = audit(&text, Format::Codex);
        let extra: Vec<&(String, String, String)> = a
            .findings
            .iter()
            .filter(|f| !base.findings.iter().any(|b| b.0 == f.0 && b.1 == f.1))
            .collect();
        if extra.is_empty() == *finding {
            wrong.push(format!("{path}: new findings {extra:?}"));
        }
        // An untrusted home is not a finding.
        let untrusted = audit(&text.replace("\"trusted\"", "\"untrusted\""), Format::Codex);
        if untrusted.findings.len() != base.findings.len() {
            wrong.push(format!("{path} untrusted: {:?}", untrusted.findings));
        }
    }
    fails(&wrong, cases.len());
}

/// `filesystem.denyRead` under an allowed read root is that mount's
/// `excludes` (and of every writable mount that shows the path), as
/// sandbox-runtime applies it: `allowRead` takes precedence, so a denial
/// an `allowRead` covers hides nothing, and an `allowRead` strictly inside
/// a denial is readable again. A glob, a relative path or one with `..`
/// cannot narrow an exposure: it stays, with a note.
#[test]
fn srt_deny_read_becomes_excludes() {
    let srt = Format::SandboxSettings;
    // (filesystem section, mounts as "source access [excludes]" sorted,
    // a note that must be there (empty: none required))
    let h = "/home/<user>";
    let cases: Vec<(String, Vec<String>, &str)> = vec![
        (
            r#"{"denyRead": ["/etc/shadow"]}"#.into(),
            vec!["/ read-only [/etc/shadow]".into()],
            "",
        ),
        (
            r#"{"denyRead": ["~/.ssh", "~/.aws"]}"#.into(),
            vec![format!("/ read-only [{h}/.ssh,{h}/.aws]")],
            "",
        ),
        (
            r#"{"denyRead": ["$HOME/.ssh/"]}"#.into(),
            vec![format!("/ read-only [{h}/.ssh]")],
            "",
        ),
        (
            r#"{"denyRead": ["~"]}"#.into(),
            vec![format!("/ read-only [{h}]")],
            "",
        ),
        (
            r#"{"denyRead": ["/srv//secrets/./keys"]}"#.into(),
            vec!["/ read-only [/srv/secrets/keys]".into()],
            "",
        ),
        (
            r#"{"denyRead": ["/home/*/.ssh"]}"#.into(),
            vec!["/ read-only []".into()],
            "pattern",
        ),
        (
            r#"{"denyRead": ["~/.ssh/id_*"]}"#.into(),
            vec!["/ read-only []".into()],
            "pattern",
        ),
        (
            r#"{"denyRead": ["/"]}"#.into(),
            vec!["/ read-only []".into()],
            "not a plain absolute path",
        ),
        (
            r#"{"denyRead": ["secrets"]}"#.into(),
            vec!["/ read-only []".into()],
            "not a plain absolute path",
        ),
        (
            r#"{"denyRead": ["/srv/../etc/shadow"]}"#.into(),
            vec!["/ read-only []".into()],
            "not a plain absolute path",
        ),
        (
            r#"{"denyRead": ["/home/u/.ssh"], "allowRead": ["/home/u"]}"#.into(),
            vec!["/ read-only []".into()],
            "takes precedence",
        ),
        (
            r#"{"denyRead": ["/home/u/.ssh"], "allowRead": ["/home/u/.ssh"]}"#.into(),
            vec!["/ read-only []".into()],
            "takes precedence",
        ),
        (
            r#"{"denyRead": ["/home/u/.ssh"], "allowRead": ["/home/u/.ssh/*.pub"]}"#.into(),
            vec!["/ read-only []".into()],
            "takes precedence",
        ),
        (
            r#"{"denyRead": ["/home/u/.ssh"], "allowRead": ["relative"]}"#.into(),
            vec!["/ read-only []".into()],
            "takes precedence",
        ),
        (
            r#"{"denyRead": ["/home/u"], "allowRead": ["/home/u/.ssh/known_hosts"]}"#.into(),
            vec![
                "/ read-only [/home/u]".into(),
                "/home/u/.ssh/known_hosts read-only []".into(),
            ],
            "readable again",
        ),
        (
            r#"{"denyRead": ["/home/u/.ssh"], "allowRead": ["/srv"]}"#.into(),
            vec!["/ read-only [/home/u/.ssh]".into()],
            "",
        ),
        (
            r#"{"allowWrite": ["/srv/work"], "denyRead": ["/srv/work/secrets"]}"#.into(),
            vec![
                "/ read-only [/srv/work,/srv/work/secrets]".into(),
                "/srv/work read-write [/srv/work/secrets]".into(),
            ],
            "",
        ),
        (
            r#"{"allowWrite": ["/srv/work"], "denyRead": ["/srv"]}"#.into(),
            vec![
                "/ read-only [/srv/work,/srv]".into(),
                "/srv/work read-write []".into(),
            ],
            "",
        ),
        (
            r#"{"allowWrite": ["/srv/work"], "denyRead": ["/srv/work"]}"#.into(),
            vec![
                "/ read-only [/srv/work]".into(),
                "/srv/work read-write []".into(),
            ],
            "",
        ),
    ];
    let mut wrong = Vec::new();
    let mut total = 0;
    for (fs, want, note) in &cases {
        for wrap in ["srt", "claude"] {
            total += 1;
            let (text, format) = match wrap {
                "srt" => (format!(r#"{{"filesystem": {fs}}}"#), srt),
                _ => (
                    format!(r#"{{"sandbox": {{"enabled": true, "filesystem": {fs}}}}}"#),
                    srt,
                ),
            };
            let a = audit(&text, format);
            let mut got: Vec<String> = a.profile["mounts"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|m| m["source"] != ".")
                .map(|m| {
                    let ex: Vec<&str> = m["excludes"]
                        .as_array()
                        .map(|v| v.iter().filter_map(|e| e.as_str()).collect())
                        .unwrap_or_default();
                    format!(
                        "{} {} [{}]",
                        m["source"].as_str().unwrap_or(""),
                        m["access"].as_str().unwrap_or(""),
                        ex.join(",")
                    )
                })
                .collect();
            got.sort();
            let mut want = want.clone();
            want.sort();
            let noted = note.is_empty() || a.notes.iter().any(|n| n.contains(note));
            if got != want || !noted {
                wrong.push(format!(
                    "{wrap} {fs}: mounts {got:?} (want {want:?}); note `{note}` {}",
                    if noted { "there" } else { "missing" }
                ));
            }
        }
    }
    fails(&wrong, total);
}

/// With the credential stores denied, the read-only `/` no longer counts
/// as exposing them: the findings about the home directory's secrets go,
/// and a denied glob keeps them.
#[test]
fn srt_denied_credential_stores_are_not_exposed() {
    let srt = Format::SandboxSettings;
    let secret_rules = |a: &Audited| -> Vec<String> {
        a.findings
            .iter()
            .filter(|(_, m, _)| m.contains(".ssh") || m.contains(".aws") || m.contains("home"))
            .map(|(r, m, _)| format!("{r} {m}"))
            .collect()
    };
    let open = audit(r#"{"filesystem": {"denyRead": []}}"#, srt);
    let denied = audit(
        r#"{"filesystem": {"denyRead": ["/home", "/root", "/etc/shadow"]}}"#,
        srt,
    );
    let glob = audit(r#"{"filesystem": {"denyRead": ["/home/*"]}}"#, srt);
    let mut wrong = Vec::new();
    if secret_rules(&open).is_empty() {
        wrong.push("open: no finding about the home directory".to_string());
    }
    if !secret_rules(&denied).is_empty() {
        wrong.push(format!("denied: {:?}", secret_rules(&denied)));
    }
    if secret_rules(&glob).is_empty() {
        wrong.push("glob: the denied pattern hid the home directory".to_string());
    }
    fails(&wrong, 3);
}
