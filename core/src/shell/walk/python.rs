//! Python, pytest and pip.

use crate::finding::Severity;
use crate::shell::walk::{option_of, Call, HitKind, Walker};

impl Walker {
    pub(crate) fn python(&mut self, c: &Call<'_>) {
        const FLAGS: &str = "bBdEhiIOPqsSuvVR";
        let mut k = 0;
        while let Some(a) = c.arg(k) {
            if a == "-" {
                self.code(c, k, "-", "reads the program it runs from standard input");
                return;
            }
            if a == "--" {
                return;
            }
            if a.starts_with("--") {
                k += if a == "--check-hash-based-pycs" { 2 } else { 1 };
                continue;
            }
            let Some(cluster) = a.strip_prefix('-').filter(|s| !s.is_empty()) else {
                return;
            };
            let mut next = k + 1;
            for (pos, ch) in cluster.char_indices() {
                let rest = cluster.get(pos + ch.len_utf8()..).unwrap_or("");
                match ch {
                    'c' => {
                        self.code(c, k, "-c", "runs the text that follows as Python code");
                        if rest.is_empty() {
                            self.payload(c, k + 1);
                        } else {
                            self.payload(c, k);
                        }
                        return;
                    }
                    'm' => {
                        let (module, after) = if rest.is_empty() {
                            (c.arg(k + 1), k + 2)
                        } else {
                            (Some(rest), k + 1)
                        };
                        let sub = Call {
                            name: module.unwrap_or(""),
                            args: c.rest(after),
                            base: c.base + after,
                            pin: c.pin,
                        };
                        match module {
                            Some("pip") => self.pip(&sub),
                            Some("pytest") => self.pytest(&sub),
                            _ => {}
                        }
                        return;
                    }
                    'W' | 'X' => {
                        if rest.is_empty() {
                            next = k + 2;
                        }
                        break;
                    }
                    c if FLAGS.contains(c) => {}
                    _ => break,
                }
            }
            k = next;
        }
    }

    pub(crate) fn pytest(&mut self, c: &Call<'_>) {
        let mut k = 0;
        while let Some(a) = c.arg(k) {
            if a == "--" {
                return;
            }
            // `-p NAME` / `-pNAME` loads a plugin; `-p no:NAME` disables one.
            let plugin = if a == "-p" {
                Some((c.arg(k + 1), 2))
            } else {
                a.strip_prefix("-p")
                    .filter(|v| !v.is_empty() && !a.starts_with("--"))
                    .map(|v| (Some(v), 1))
            };
            if let Some((value, n)) = plugin {
                if !value.is_some_and(|v| v.starts_with("no:")) {
                    self.code(
                        c,
                        k,
                        "-p",
                        "imports the named plugin module before any test is collected",
                    );
                }
                k += n;
                continue;
            }
            let ini = c.value(k, &["-o", "--override-ini"]).or_else(|| {
                a.strip_prefix("-o")
                    .filter(|v| !v.is_empty() && !a.starts_with("--"))
                    .map(|v| (Some(v), 1))
            });
            if let Some((value, n)) = ini {
                let key = value.and_then(|v| v.split('=').next()).map(str::trim);
                if key == Some("addopts") {
                    self.code(
                        c,
                        k,
                        &option_of(a),
                        "rewrites `addopts`, which can load plugins and change what runs",
                    );
                }
                k += n;
                continue;
            }
            if let Some((_, n)) = c.value(k, &["--pdbcls"]) {
                self.code(c, k, "--pdbcls", "imports the named module as its debugger");
                k += n;
                continue;
            }
            k += 1;
        }
    }

    pub(crate) fn pip(&mut self, c: &Call<'_>) {
        let Some(sub) = c.args.iter().position(|a| !a.starts_with('-')) else {
            return;
        };
        if !matches!(c.arg(sub), Some("install" | "download" | "wheel")) {
            return;
        }
        let mut k = sub + 1;
        while let Some(a) = c.arg(k) {
            if let Some((_, n)) = c.value(k, &["--extra-index-url"]) {
                self.code(c, k, "--extra-index-url", "resolves each package from either index, so a name registered on the other can replace it");
                k += n;
                continue;
            }
            if let Some((_, n)) = c.value(k, &["--trusted-host"]) {
                self.code(
                    c,
                    k,
                    "--trusted-host",
                    "turns off certificate checks for the named host",
                );
                k += n;
                continue;
            }
            if let Some((value, n)) = c.value(k, &["-i", "--index-url", "-f", "--find-links"]) {
                let plain = value.is_some_and(|v| v.to_ascii_lowercase().starts_with("http://"));
                let (sev, why) = if plain {
                    (Severity::High, "installs code fetched over plain HTTP")
                } else {
                    (Severity::Medium, "installs code from a source named on the command line rather than the reviewed fetch stage")
                };
                self.hit(c, k, HitKind::CodeOption, &option_of(a), sev, why);
                k += n;
                continue;
            }
            let l = a.to_ascii_lowercase();
            if !a.starts_with('-')
                && (l.starts_with("http://")
                    || l.starts_with("https://")
                    || ["git+", "hg+", "svn+", "bzr+"]
                        .iter()
                        .any(|p| l.starts_with(p))
                    || l.contains(" @ "))
            {
                self.hit(
                    c,
                    k,
                    HitKind::CodeOption,
                    "",
                    Severity::Medium,
                    "installs code straight from a URL, outside any lockfile",
                );
            }
            k += 1;
        }
    }
}
