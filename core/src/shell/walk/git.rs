//! git: configuration overrides and options that name programs.

use crate::finding::Severity;
use crate::shell::walk::{option_of, Call, HitKind, Walker};

/// Configuration keys (lowercase) that trust a planted repository or name
/// a program git runs, and what setting them does.
const RISKY_KEYS: &[(&str, &str)] = &[
    (
        "safe.directory",
        "trusts repositories whatever their owner, so a planted repository's configuration and hooks take effect",
    ),
    ("core.hookspath", "makes git run hooks from the named directory"),
    (
        "core.fsmonitor",
        "names a program git runs on every `git status`",
    ),
    ("core.sshcommand", "names the program git runs for every ssh connection"),
];

fn risky_key(key: &str) -> Option<&'static str> {
    let key = key.trim().to_ascii_lowercase();
    RISKY_KEYS
        .iter()
        .find(|(k, _)| *k == key)
        .map(|(_, why)| *why)
}

impl Walker {
    pub(crate) fn git(&mut self, c: &Call<'_>) {
        let mut k = 0;
        let mut sub = None;
        while let Some(a) = c.arg(k) {
            if a == "-c" {
                let key = c
                    .arg(k + 1)
                    .and_then(|v| v.split('=').next())
                    .map(|k| k.trim().to_ascii_lowercase());
                let why = key.as_deref().and_then(risky_key).unwrap_or("overrides configuration, which can name programs git runs (`core.sshCommand`, `core.fsmonitor`, aliases)");
                self.hit_detail(c, k, HitKind::CodeOption, "-c", Severity::High, why, key);
                self.payload(c, k + 1);
                k += 2;
                continue;
            }
            if let Some((_, n)) = c.value(k, &["--config-env"]) {
                self.code_value(
                    c,
                    k,
                    "--config-env",
                    n,
                    "overrides configuration, which can name programs git runs",
                );
                k += n;
                continue;
            }
            if a.starts_with("--exec-path=") {
                self.code(
                    c,
                    k,
                    "--exec-path",
                    "makes git look for its subcommands in the named directory",
                );
                k += 1;
                continue;
            }
            if matches!(a, "-C" | "--git-dir" | "--work-tree" | "--namespace") {
                k += 2;
                continue;
            }
            if a.starts_with('-') {
                k += 1;
                continue;
            }
            sub = Some(a);
            k += 1;
            break;
        }
        let Some(sub) = sub else { return };
        if sub == "config" {
            self.git_config(c, k);
            return;
        }
        let mut j = k;
        while let Some(a) = c.arg(j) {
            let mut n = 1;
            if let Some((_, m)) = c.value(
                j,
                &["--upload-pack", "--receive-pack", "--exec", "--extcmd"],
            ) {
                self.code_value(c, j, &option_of(a), m, "names a program git runs");
                n = m;
            } else if a == "-u" && matches!(sub, "clone" | "ls-remote") {
                self.code_value(
                    c,
                    j,
                    "-u",
                    2,
                    "names the program git runs on the remote side of the transport",
                );
                n = 2;
            } else if a == "-x" && matches!(sub, "rebase" | "difftool") {
                self.code_value(c, j, "-x", 2, "runs the named command");
                n = 2;
            } else if let Some((_, m)) = c.value(j, &["-c", "--config"]).filter(|_| sub == "clone")
            {
                self.code_value(c, j, &option_of(a), m, "writes configuration into the new repository, which can name programs git runs");
                n = m;
            } else if sub == "grep"
                && (a.starts_with("-O") || a.starts_with("--open-files-in-pager"))
            {
                self.code(c, j, &option_of(a), "opens matches with the named program");
            } else if (sub == "submodule" && a == "foreach") || (sub == "bisect" && a == "run") {
                self.code(c, j, a, "runs the command that follows");
                return;
            } else if a.contains("ext::") {
                self.code(c, j, "ext::", "uses a transport that runs a command");
            }
            j += n;
        }
        if sub == "filter-branch" {
            self.code(
                c,
                k.saturating_sub(1),
                "filter-branch",
                "runs the given filters as shell text",
            );
        }
    }

    /// `git config [--global] KEY VALUE`: a risky key written for every
    /// later git run, not only this one. Reading (`--get`, `--list`) and
    /// `--unset` are not reported.
    fn git_config(&mut self, c: &Call<'_>, from: usize) {
        let args = c.rest(from);
        let reads = args.iter().any(|a| {
            a.starts_with("--get") || matches!(*a, "--list" | "-l" | "--unset" | "--unset-all")
        });
        let Some((j, key)) = args.iter().enumerate().find(|(_, a)| !a.starts_with('-')) else {
            return;
        };
        if reads || args.get(j + 1).is_none() {
            return;
        }
        if let Some(why) = risky_key(key) {
            let detail = Some(key.trim().to_ascii_lowercase());
            self.hit_detail(
                c,
                from + j,
                HitKind::CodeOption,
                "config",
                Severity::High,
                why,
                detail,
            );
        }
    }
}
