//! Rules for the kernel's own walls (issue 23, items 7 to 11): settings
//! that leave the job a route through the kernel or the runtime rather than
//! through a mount or a capability. The terminal it shares, the masking of
//! kernel files, the security modules, host devices, the process namespace
//! of its neighbours, working directories the runtime resolves, kernel
//! parameters and the OOM killer.
//!
//! Each of these is a property of the launched process, not of the task:
//! a test that "only runs pytest" holds exactly the same terminal, devices
//! and kernel interfaces as any other program started in that boundary,
//! and the code under test can use all of them.

use super::{Ctx, Emitter, Rule};
use crate::finding::{Area, CheckKind, Severity};
use crate::model::{Boundary, Confinement, Terminal};

fn boundary<'a>(ctx: &'a Ctx<'_>) -> Option<&'a Boundary> {
    ctx.profile.boundary.as_ref()
}

// ---------------------------------------------------------------- terminal

fn check_terminal(ctx: &Ctx<'_>, e: &mut Emitter) {
    match boundary(ctx).and_then(|b| b.terminal) {
        Some(Terminal::Shared) => {
            e.emit(
                "/boundary/terminal",
                "the job stays in the caller's session with its controlling terminal: with `TIOCSTI` or `TIOCLINUX` it can type commands into the shell that started it, and they run outside the sandbox when the job exits",
            )
            .evidence("terminal", "shared");
        }
        Some(Terminal::Pty) => {
            e.emit(
                "/boundary/terminal",
                "a terminal is allocated for the job and relayed to whoever attaches: what the reviewer types reaches the job, and the job's escape sequences reach the reviewer's terminal emulator",
            )
            .severity(Severity::Medium)
            .evidence("terminal", "pty");
        }
        Some(Terminal::None) | None => {}
    }
}

// ---------------------------------------------------------------- masking

fn check_masking(ctx: &Ctx<'_>, e: &mut Emitter) {
    if boundary(ctx).and_then(|b| b.masked_paths) == Some(false) {
        e.emit(
            "/boundary/masked_paths",
            "the runtime's masking of kernel files is off: the job can read `/proc/kcore` and `/proc/keys`, write `/proc/sysrq-trigger` and `/proc/sys`, and reach `/sys`, none of which its namespaces cover",
        )
        .evidence("masked_paths", false);
    }
}

fn check_security_modules(ctx: &Ctx<'_>, e: &mut Emitter) {
    let Some(b) = boundary(ctx) else { return };
    if b.apparmor == Some(Confinement::Unconfined) {
        e.emit(
            "/boundary/apparmor",
            "AppArmor is `unconfined`: the runtime's profile, which refuses `mount`, writes under `/proc/sys` and access to `/sys/firmware`, no longer applies",
        )
        .evidence("apparmor", "unconfined");
    }
    if b.selinux == Some(Confinement::Unconfined) {
        e.emit(
            "/boundary/selinux",
            "SELinux does not confine the job (labelling disabled, or a super-privileged type such as `spc_t`): host files labelled for other domains are no longer kept from it",
        )
        .evidence("selinux", "unconfined");
    }
}

pub const RULES: &[Rule] = &[Rule {
    id: "ISO020",
    name: "terminal-shared",
    area: Area::Isolation,
    severity: Severity::High,
    title: "the job shares the caller's terminal",
    rationale: "A process that keeps the caller's controlling terminal can queue input on it (the `TIOCSTI` ioctl, and `TIOCLINUX` on a virtual console): the characters are read by the caller's shell as if typed, and run with the caller's rights once the sandboxed command returns. Namespaces and mounts do not stop this; only a new session without that terminal does (bwrap `--new-session`, or a runtime that calls `setsid`). A terminal allocated for the job and relayed to an attached reviewer (Compose `tty` with `stdin_open`, Kubernetes `tty` with `stdin`, OCI `process.terminal`) cannot inject into the caller's shell, but it carries the reviewer's keystrokes in and the job's escape sequences out (medium).",
    remediation: "Start the job in a new session with no terminal of the caller's (`--new-session` for bwrap); drop `tty`/`stdin` from containers that do not need an interactive reviewer.",
    runtime_check: Some(CheckKind::ReadDenied),
    check: check_terminal,
},
Rule {
    id: "PRV020",
    name: "kernel-files-unmasked",
    area: Area::Privileges,
    severity: Severity::High,
    title: "the kernel files a runtime masks are open to the job",
    rationale: "Container runtimes hide a fixed list of kernel files (`/proc/kcore`, `/proc/keys`, `/proc/timer_list`, `/sys/firmware`, ...) and mount `/proc/sys`, `/proc/sysrq-trigger` and `/sys` read-only, because namespaces do not cover them: they describe and control the host kernel. Kubernetes `procMount: Unmasked`, Docker `systempaths=unconfined`, an OCI config with empty `maskedPaths`/`readonlyPaths` or a writable sysfs mount remove that layer, which is what nested sandboxes ask for and what the 2025 runc escapes went through. The code under test can then read kernel memory layout, change host-wide kernel settings and trigger host actions, whatever the task says it does.",
    remediation: "Keep the runtime's default masking (`procMount: Default`, no `systempaths=unconfined`, the runtime's `maskedPaths` and `readonlyPaths`, sysfs read-only). If a nested sandbox needs its own /proc, give it a VM boundary instead.",
    runtime_check: None,
    check: check_masking,
},
Rule {
    id: "PRV021",
    name: "security-module-unconfined",
    area: Area::Privileges,
    severity: Severity::High,
    title: "the job runs with AppArmor or SELinux switched off",
    rationale: "The runtime's AppArmor profile and SELinux type are the layer that still refuses a mount, a write under `/proc/sys` or a host file after a capability or namespace setting went wrong; several container escapes were stopped only by it. `unconfined`, `label=disable` and super-privileged types such as `spc_t` take that layer away for every process of the job, test code included.",
    remediation: "Leave AppArmor at the runtime's default (`RuntimeDefault`, or omit the option) and SELinux labelling on with the container type; if a custom policy is needed, declare it as `custom` and review it.",
    runtime_check: None,
    check: check_security_modules,
}];

#[cfg(test)]
mod tests {
    use crate::finding::{Area, Severity};

    fn with_boundary(fields: &str) -> String {
        let fixed = crate::WORKSHOP_PROFILE_FIXED;
        let at = fixed.find("\"read_only_root\"").unwrap();
        format!("{}{fields}, {}", &fixed[..at], &fixed[at..])
    }

    fn findings(profile: &str, area: Area) -> Vec<(&'static str, Severity, String)> {
        super::super::area_findings(profile, area, Some("2026-11-29"))
            .into_iter()
            .filter(|(r, _, _)| r.starts_with("ISO02") || r.starts_with("PRV02"))
            .collect()
    }

    #[test]
    fn terminals() {
        let cases = [
            (r#""terminal": "shared""#, Some(Severity::High)),
            (r#""terminal": "pty""#, Some(Severity::Medium)),
            (r#""terminal": "none""#, None),
        ];
        for (fields, want) in cases {
            let got = findings(&with_boundary(fields), Area::Isolation);
            assert_eq!(got.first().map(|f| f.1), want, "{fields}: {got:?}");
        }
        assert!(findings(crate::WORKSHOP_PROFILE_FIXED, Area::Isolation).is_empty());
    }

    #[test]
    fn masking_and_security_modules() {
        let cases: &[(&str, &[&str])] = &[
            (r#""masked_paths": false"#, &["PRV020"]),
            (r#""masked_paths": true"#, &[]),
            (r#""apparmor": "unconfined""#, &["PRV021"]),
            (r#""apparmor": "default", "selinux": "custom""#, &[]),
            (r#""selinux": "unconfined""#, &["PRV021"]),
            (
                r#""masked_paths": false, "apparmor": "unconfined", "selinux": "unconfined""#,
                &["PRV020", "PRV021", "PRV021"],
            ),
        ];
        for (fields, want) in cases {
            let mut got: Vec<&str> = findings(&with_boundary(fields), Area::Privileges)
                .into_iter()
                .map(|f| f.0)
                .collect();
            got.sort_unstable();
            assert_eq!(&got, want, "{fields}");
        }
    }
}
