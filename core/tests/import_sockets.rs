//! Process sandboxes that refuse unix socket connections (sandbox-runtime
//! and Claude Code unless `allowAllUnixSockets`, Codex without network
//! access) declare `boundary.unix_sockets: "blocked"`, so the engine
//! sockets beneath their read-only host mount of `/` give no
//! socket-control finding, while reading the host is still reported and a
//! socket allowed by name still is.
#![allow(clippy::disallowed_methods, clippy::disallowed_types)]

use isolint_core::import::{self, Format};
use isolint_core::{AuditOptions, Date, Labels};

/// `unix_sockets` of the single sandboxed profile, and the socket-control
/// rules it raises.
fn audit(text: &str, format: Format) -> (Option<String>, Vec<String>) {
    let units = import::import(text.as_bytes(), format).unwrap();
    let u = units
        .iter()
        .find(|u| u.name.is_empty())
        .unwrap_or_else(|| panic!("no sandboxed profile for {text}"));
    let json: serde_json::Value = serde_json::from_str(&u.profile_json).unwrap();
    let sockets = json["boundary"]["unix_sockets"].as_str().map(String::from);
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
    let rules = r
        .issues
        .iter()
        .map(|f| f.rule.to_string())
        .filter(|id| ["PRV009", "MNT004", "MNT005"].contains(&id.as_str()))
        .collect();
    (sockets, rules)
}

#[test]
fn sandboxes_that_block_sockets_say_so_and_lose_only_the_socket_findings() {
    let srt = Format::SandboxSettings;
    let cases: &[(&str, Format, Option<&str>, &[&str])] = &[
        // Blocked: `/` is read-only, its engine sockets cannot be reached;
        // MNT005 stays for the homes and credential stores `/` exposes.
        (r#"{"network": {"allowedDomains": []}}"#, srt, Some("blocked"), &["MNT005"]),
        (
            r#"{"filesystem": {"allowWrite": ["/tmp", "."]}, "network": {"allowLocalBinding": true}}"#,
            srt,
            Some("blocked"),
            &["MNT005"],
        ),
        // A socket allowed by name is mounted and still reported.
        (
            r#"{"network": {"allowUnixSockets": ["/var/run/docker.sock"]}}"#,
            srt,
            Some("blocked"),
            &["MNT004", "MNT005", "PRV009"],
        ),
        (
            r#"{"network": {"allowAllUnixSockets": true}}"#,
            srt,
            Some("allowed"),
            &["MNT005", "PRV009"],
        ),
        (
            r#"{"sandbox": {"enabled": true, "network": {}}}"#,
            srt,
            Some("blocked"),
            &["MNT005"],
        ),
        ("sandbox_mode = \"read-only\"\n", Format::Codex, Some("blocked"), &["MNT005"]),
        ("sandbox_mode = \"workspace-write\"\n", Format::Codex, Some("blocked"), &["MNT005"]),
        (
            "sandbox_mode = \"workspace-write\"\n[sandbox_workspace_write]\nnetwork_access = true\n",
            Format::Codex,
            Some("allowed"),
            &["MNT005", "PRV009"],
        ),
    ];
    let mut wrong = Vec::new();
    for (text, format, sockets, rules) in cases {
        let (got_sockets, mut got_rules) = audit(text, *format);
        got_rules.sort();
        got_rules.dedup();
        let mut want: Vec<String> = rules.iter().map(|r| r.to_string()).collect();
        want.sort();
        if got_sockets.as_deref() != *sockets || got_rules != want {
            wrong.push(format!(
                "{text}: unix_sockets {got_sockets:?} (want {sockets:?}), rules {got_rules:?} (want {want:?})"
            ));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
