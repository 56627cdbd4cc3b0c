//! git: configuration overrides and options that name programs.

use crate::finding::Severity;
use crate::shell::walk::{option_of, Call, HitKind, Walker};

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
                self.hit_detail(c, k, HitKind::CodeOption, "-c", Severity::High, "overrides configuration, which can name programs git runs (`core.sshCommand`, `core.fsmonitor`, aliases)", key);
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
}
