//! Other language runtimes and build tools: perl, ruby, php, lua, R,
//! julia, java, go and make.

use crate::shell::walk::{option_of, Call, Walker};

impl Walker {
    /// Perl-style switch clusters: a letter in `code` runs code; a letter in
    /// `valued` takes the rest of the cluster as its value.
    pub(crate) fn switches(&mut self, c: &Call<'_>, code: &str, valued: &str, why: &'static str) {
        let mut k = 0;
        while let Some(a) = c.arg(k) {
            if a == "--" {
                return;
            }
            let Some(cluster) = a
                .strip_prefix('-')
                .filter(|s| !s.is_empty() && !s.starts_with('-'))
            else {
                return;
            };
            for (pos, ch) in cluster.char_indices() {
                if code.contains(ch) {
                    let glued = pos + ch.len_utf8() < cluster.len();
                    self.code_value(c, k, &format!("-{ch}"), if glued { 1 } else { 2 }, why);
                    break;
                }
                if valued.contains(ch) {
                    break;
                }
            }
            k += 1;
        }
    }

    pub(crate) fn ruby(&mut self, c: &Call<'_>) {
        self.switches(
            c,
            "e",
            "IrCEFKxTW",
            "runs the text that follows as Ruby code",
        );
        for (k, a) in c.args.iter().enumerate() {
            if !a.starts_with('-') || a.starts_with("--") {
                break;
            }
            if a.starts_with("-r") {
                self.code(c, k, "-r", "loads the named library before the program");
            }
        }
    }

    pub(crate) fn php(&mut self, c: &Call<'_>) {
        for (k, a) in c.args.iter().enumerate() {
            if !a.starts_with('-') {
                return;
            }
            let opt = a.get(..2).unwrap_or(a);
            match opt {
                "-r" | "-B" | "-R" | "-E" => self.code_value(
                    c,
                    k,
                    opt,
                    if a.len() > 2 { 1 } else { 2 },
                    "runs the text that follows as PHP code",
                ),
                "-d" => {
                    let setting = if a.len() > 2 {
                        a.get(2..)
                    } else {
                        c.arg(k + 1)
                    };
                    if setting.is_some_and(|s| {
                        s.starts_with("auto_prepend_file") || s.starts_with("auto_append_file")
                    }) {
                        self.code(
                            c,
                            k,
                            "-d",
                            "makes PHP run the named file around every script",
                        );
                    }
                }
                _ => {}
            }
        }
    }

    pub(crate) fn simple_options(&mut self, c: &Call<'_>, names: &[&str], why: &'static str) {
        let mut k = 0;
        while let Some(a) = c.arg(k) {
            if !a.starts_with('-') || a == "--" {
                return;
            }
            if let Some((_, n)) = c.value(k, names) {
                self.code_value(c, k, &option_of(a), n, why);
                k += n;
                continue;
            }
            // Glued short form: `-eCODE`, `-lmodule`.
            if let Some(n) = names
                .iter()
                .find(|n| n.len() == 2 && a.len() > 2 && a.starts_with(*n))
            {
                self.code_value(c, k, n, 1, why);
            }
            k += 1;
        }
    }

    pub(crate) fn make(&mut self, c: &Call<'_>) {
        let mut k = 0;
        while let Some(a) = c.arg(k) {
            if a.starts_with("SHELL=")
                || a.starts_with(".SHELLFLAGS=")
                || a.starts_with("MAKESHELL=")
            {
                self.code(
                    c,
                    k,
                    &format!("{}=", option_of(a)),
                    "replaces the shell that runs every recipe",
                );
            } else if let Some((_, n)) = c.value(k, &["--eval", "-E"]) {
                self.code_value(
                    c,
                    k,
                    &option_of(a),
                    n,
                    "evaluates the text as makefile syntax, which can run commands",
                );
                k += n;
                continue;
            }
            k += 1;
        }
    }

    pub(crate) fn java(&mut self, c: &Call<'_>) {
        for (k, a) in c.args.iter().enumerate() {
            if !a.starts_with('-') || *a == "-jar" {
                return;
            }
            if a.starts_with("-javaagent:") || a.starts_with("-agentpath:") {
                self.code_value(
                    c,
                    k,
                    a.split(':').next().unwrap_or(a),
                    1,
                    "loads agent code into the JVM",
                );
            } else if a.starts_with("-XX:OnError=") || a.starts_with("-XX:OnOutOfMemoryError=") {
                self.code_value(
                    c,
                    k,
                    &option_of(a),
                    1,
                    "runs a shell command when the JVM fails",
                );
            }
        }
    }

    pub(crate) fn go(&mut self, c: &Call<'_>) {
        let mut k = 0;
        while let Some(a) = c.arg(k) {
            if let Some((_, n)) = c.value(k, &["-toolexec", "--toolexec", "-exec", "--exec"]) {
                self.code_value(
                    c,
                    k,
                    &option_of(a),
                    n,
                    "runs every tool or test binary through the named program",
                );
                k += n;
                continue;
            }
            if c.arg(0) == Some("run")
                && k > 0
                && !a.starts_with('-')
                && a.contains('@')
                && !a.starts_with('.')
            {
                self.code(
                    c,
                    k,
                    "",
                    "downloads and runs a module at a version named on the command line",
                );
            }
            k += 1;
        }
    }
}
