//! Tools that copy or find files and can be told to run a program:
//! find, tar, rsync and the ssh family.

use crate::finding::Severity;
use crate::shell::walk::{option_of, Call, HitKind, Walker};
use crate::shell::words::stem;

impl Walker {
    pub(crate) fn find(&mut self, c: &Call<'_>) {
        let mut k = 0;
        while let Some(a) = c.arg(k) {
            if matches!(a, "-exec" | "-execdir" | "-ok" | "-okdir") {
                self.code(c, k, a, "runs a command for every file it finds");
                let start = k + 1;
                let end = c
                    .rest(start)
                    .iter()
                    .position(|w| *w == ";" || *w == "+")
                    .map_or(c.args.len(), |p| start + p);
                for j in start..=end.min(c.args.len().saturating_sub(1)) {
                    self.payload(c, j);
                }
                if let Some(inner) = c.args.get(start..end) {
                    self.words(inner, c.base + start, c.pin);
                }
                k = end + 1;
                continue;
            }
            k += 1;
        }
    }

    pub(crate) fn tar(&mut self, c: &Call<'_>) {
        let mut k = 0;
        while let Some(a) = c.arg(k) {
            if let Some((value, n)) = c.value(k, &["--checkpoint-action"]) {
                if value.is_some_and(|v| v.starts_with("exec")) {
                    self.code_value(
                        c,
                        k,
                        "--checkpoint-action",
                        n,
                        "runs a command at each checkpoint",
                    );
                }
                k += n;
                continue;
            }
            if let Some((_, n)) = c.value(
                k,
                &[
                    "--to-command",
                    "-I",
                    "--use-compress-program",
                    "-F",
                    "--info-script",
                    "--new-volume-script",
                    "--rsh-command",
                ],
            ) {
                self.code_value(c, k, &option_of(a), n, "names a program tar runs");
                k += n;
                continue;
            }
            k += 1;
        }
    }

    pub(crate) fn rsync(&mut self, c: &Call<'_>) {
        let mut k = 0;
        while let Some(a) = c.arg(k) {
            if let Some((_, n)) = c.value(k, &["--rsh", "--rsync-path"]) {
                self.code_value(c, k, &option_of(a), n, "names a program rsync runs");
                k += n;
                continue;
            }
            let short = a.strip_prefix('-').filter(|s| {
                !s.is_empty() && !s.starts_with('-') && s.bytes().all(|b| b.is_ascii_alphabetic())
            });
            if short.is_some_and(|s| s.contains('e')) {
                self.code_value(c, k, "-e", 2, "names the remote shell program rsync runs");
                k += 2;
                continue;
            }
            k += 1;
        }
    }

    pub(crate) fn ssh(&mut self, c: &Call<'_>) {
        const RUNS: &[&str] = &[
            "proxycommand",
            "localcommand",
            "permitlocalcommand",
            "knownhostscommand",
            "pkcs11provider",
            "securitykeyprovider",
        ];
        let scp = stem(c.name) == "scp";
        let mut k = 0;
        while let Some(a) = c.arg(k) {
            let (value, n) = if a == "-o" {
                (c.arg(k + 1), 2)
            } else if let Some(v) = a.strip_prefix("-o").filter(|v| !v.is_empty()) {
                (Some(v), 1)
            } else if scp && a == "-S" {
                self.code_value(c, k, "-S", 2, "names the program scp runs instead of ssh");
                k += 2;
                continue;
            } else {
                k += 1;
                continue;
            };
            let key = value.map(|v| v.split(['=', ' ']).next().unwrap_or(v).to_ascii_lowercase());
            if let Some(key) = key.filter(|k| RUNS.contains(&k.as_str())) {
                self.hit_detail(
                    c,
                    k,
                    HitKind::CodeOption,
                    "-o",
                    Severity::High,
                    "sets an option that makes ssh run a local command",
                    Some(key),
                );
                self.payload(c, if n == 2 { k + 1 } else { k });
            }
            k += n;
        }
    }
}
