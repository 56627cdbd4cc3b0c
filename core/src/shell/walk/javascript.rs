//! node, bun, deno and the JavaScript package managers.

use crate::shell::walk::{option_of, Call, Walker};
use crate::shell::words::stem;

impl Walker {
    pub(crate) fn node(&mut self, c: &Call<'_>) {
        let bun = stem(c.name) == "bun";
        let mut k = 0;
        while let Some(a) = c.arg(k) {
            if a == "--" {
                return;
            }
            if bun && k == 0 && a == "x" {
                self.code(
                    c,
                    k,
                    "x",
                    "downloads and runs a package named on its command line",
                );
                return;
            }
            if !a.starts_with('-') {
                return;
            }
            if let Some((_, n)) = c.value(k, &["-e", "--eval", "-p", "--print"]) {
                self.code(
                    c,
                    k,
                    &option_of(a),
                    "runs the text that follows as JavaScript",
                );
                if n == 2 {
                    self.payload(c, k + 1);
                } else {
                    self.payload(c, k);
                }
                return;
            }
            if let Some((_, n)) = c.value(
                k,
                &[
                    "-r",
                    "--require",
                    "--import",
                    "--loader",
                    "--experimental-loader",
                    "--preload",
                ],
            ) {
                self.code_value(
                    c,
                    k,
                    &option_of(a),
                    n,
                    "loads the named module before the program starts",
                );
                k += n;
                continue;
            }
            let short = a
                .strip_prefix('-')
                .filter(|s| !s.starts_with('-') && s.bytes().all(|b| b.is_ascii_alphabetic()));
            if short.is_some_and(|s| s.contains('e') || s.contains('p')) {
                self.code(c, k, a, "runs the text that follows as JavaScript");
                self.payload(c, k + 1);
                return;
            }
            k += 1;
        }
    }

    pub(crate) fn deno(&mut self, c: &Call<'_>) {
        let Some(sub) = c.args.iter().position(|a| !a.starts_with('-')) else {
            return;
        };
        if c.arg(sub) == Some("eval") {
            self.code(c, sub, "eval", "runs the text that follows as JavaScript");
            self.payload(c, sub + 1);
            return;
        }
        for (j, a) in c.rest(sub + 1).iter().enumerate() {
            let l = a.to_ascii_lowercase();
            if l.starts_with("http://")
                || l.starts_with("https://")
                || l.starts_with("npm:")
                || l.starts_with("jsr:")
            {
                self.code(
                    c,
                    sub + 1 + j,
                    "",
                    "runs code fetched from a remote specifier",
                );
                return;
            }
            if !a.starts_with('-') {
                return;
            }
        }
    }

    pub(crate) fn package_manager(&mut self, c: &Call<'_>) {
        let npm = stem(c.name) == "npm";
        let mut sub_seen = false;
        for (k, a) in c.args.iter().enumerate() {
            if npm && (c.value(k, &["--script-shell"]).is_some()) {
                self.code(
                    c,
                    k,
                    "--script-shell",
                    "runs package scripts with the named shell",
                );
                continue;
            }
            if npm && (c.value(k, &["--node-options"]).is_some()) {
                self.code(
                    c,
                    k,
                    "--node-options",
                    "passes node options, `--require` included, to every script",
                );
                continue;
            }
            if a.starts_with('-') || sub_seen {
                continue;
            }
            sub_seen = true;
            let runs_package = match *a {
                "exec" | "x" => npm,
                "dlx" => !npm,
                // `init NAME` / `create NAME` download and run an initializer.
                "init" | "create" | "innit" => c.rest(k + 1).iter().any(|r| !r.starts_with('-')),
                _ => false,
            };
            if runs_package {
                self.code(
                    c,
                    k,
                    a,
                    "downloads and runs a package named on its command line",
                );
            }
        }
    }
}
