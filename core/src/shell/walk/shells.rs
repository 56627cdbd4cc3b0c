//! Shells: POSIX shells and fish, `cmd.exe`, PowerShell.

use crate::finding::Severity;
use crate::shell::walk::{option_of, Call, HitKind, Walker};
use crate::shell::words::stem;

impl Walker {
    pub(crate) fn posix_shell(&mut self, c: &Call<'_>) {
        let fish = stem(c.name) == "fish";
        let mut k = 0;
        while let Some(a) = c.arg(k) {
            if a == "--" || a == "-" {
                return;
            }
            if let Some(long) = a.strip_prefix("--") {
                let name = long.split('=').next().unwrap_or(long);
                if matches!(name, "command" | "init-command") {
                    self.hit(
                        c,
                        k,
                        HitKind::ShellRunsText,
                        &option_of(a),
                        Severity::High,
                        "runs its argument as shell text",
                    );
                    if let Some((_, inline)) = long.split_once('=') {
                        self.payload(c, k);
                        self.text(inline, c.at(k));
                    } else {
                        self.shell_payload(c, k + 1);
                    }
                    return;
                }
                if matches!(name, "rcfile" | "init-file") {
                    self.code(
                        c,
                        k,
                        &option_of(a),
                        "reads the named file as shell commands before it starts",
                    );
                    k += if long.contains('=') { 1 } else { 2 };
                    continue;
                }
                k += 1;
                continue;
            }
            let flags = match a.strip_prefix('-').or_else(|| a.strip_prefix('+')) {
                Some(f) if !f.is_empty() && f.bytes().all(|b| b.is_ascii_alphabetic()) => f,
                _ => return, // the script operand: the rest are its arguments
            };
            let dash = a.starts_with('-');
            if dash && (flags.contains('c') || (fish && flags.contains('C'))) {
                self.hit(
                    c,
                    k,
                    HitKind::ShellRunsText,
                    a,
                    Severity::High,
                    "runs its argument as shell text",
                );
                self.shell_payload(c, k + 1);
                return;
            }
            if dash && flags.contains('s') {
                self.hit(
                    c,
                    k,
                    HitKind::ShellRunsText,
                    a,
                    Severity::High,
                    "reads the commands it runs from standard input",
                );
                return;
            }
            k += if flags.contains('o') || flags.contains('O') {
                2
            } else {
                1
            };
        }
    }

    pub(crate) fn shell_payload(&mut self, c: &Call<'_>, k: usize) {
        if let Some(text) = c.arg(k) {
            self.payload(c, k);
            self.text(text, c.at(k));
        }
    }

    pub(crate) fn cmd(&mut self, c: &Call<'_>) {
        for (k, a) in c.args.iter().enumerate() {
            if !a.starts_with('/') {
                return;
            }
            let l = a.to_ascii_lowercase();
            if matches!(l.as_str(), "/c" | "/k" | "/r") {
                self.hit(
                    c,
                    k,
                    HitKind::ShellRunsText,
                    a,
                    Severity::High,
                    "runs the rest of its command line as `cmd.exe` text",
                );
                let rest = c.rest(k + 1);
                for j in 0..rest.len() {
                    self.payload(c, k + 1 + j);
                }
                match rest {
                    [one] => self.text(one, c.at(k + 1)),
                    [] => {}
                    _ => self.words(rest, c.base + k + 1, c.pin),
                }
                return;
            }
        }
    }

    pub(crate) fn powershell(&mut self, c: &Call<'_>, legacy: bool) {
        const VALUED: &[&str] = &[
            "executionpolicy",
            "ep",
            "ex",
            "workingdirectory",
            "wd",
            "configurationname",
            "settingsfile",
            "windowstyle",
            "w",
            "inputformat",
            "if",
            "outputformat",
            "of",
            "version",
            "v",
            "custompipename",
            "psconsolefile",
        ];
        let mut k = 0;
        while let Some(a) = c.arg(k) {
            let Some(n) = a.strip_prefix('-').or_else(|| a.strip_prefix('/')) else {
                if legacy {
                    // Windows PowerShell reads a bare operand as a command.
                    self.hit(
                        c,
                        k,
                        HitKind::ShellRunsText,
                        "",
                        Severity::High,
                        "runs a bare operand as PowerShell text",
                    );
                    self.payloads_from(c, k);
                }
                return;
            };
            let n = n.to_ascii_lowercase();
            if VALUED.contains(&n.as_str()) {
                k += 2;
                continue;
            }
            if !n.is_empty() && "command".starts_with(&n) {
                self.hit(
                    c,
                    k,
                    HitKind::ShellRunsText,
                    a,
                    Severity::High,
                    "runs its argument as PowerShell text",
                );
                self.payloads_from(c, k + 1);
                return;
            }
            if !n.is_empty() && "encodedcommand".starts_with(&n) {
                self.hit(
                    c,
                    k,
                    HitKind::ShellRunsText,
                    a,
                    Severity::High,
                    "runs an encoded command that review cannot read",
                );
                self.payloads_from(c, k + 1);
                return;
            }
            if !n.is_empty() && "file".starts_with(&n) {
                return;
            }
            k += 1;
        }
    }

    pub(crate) fn payloads_from(&mut self, c: &Call<'_>, k: usize) {
        for j in k..c.args.len() {
            self.payload(c, j);
        }
    }
}
