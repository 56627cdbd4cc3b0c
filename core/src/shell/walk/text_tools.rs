//! Text tools and consoles whose program text or options run commands:
//! awk (`system()`, pipes), sed (`e`, `s///e`), gdb, vim, gradle,
//! osascript and expect.

use crate::shell::walk::{option_of, Call, Walker};

/// Whether awk program text may run a command: `system(..)`, or a pipe to
/// or from a command (`print | "sh"`, `"id" | getline`). A `||` is read as
/// a pipe too: the check errs towards blocking.
fn awk_runs(program: &str) -> bool {
    program.contains("system") || program.contains('|')
}

/// Whether a sed script holds the GNU `e` command (run a command) or the
/// `e` flag of `s` (run the pattern space), past any address.
fn sed_runs(script: &str) -> bool {
    script.split([';', '\n', '{', '}']).any(|piece| {
        let mut t = piece.trim_start();
        // Addresses: line numbers, `$`, ranges, steps, `/regex/`, `!`.
        loop {
            let before = t.len();
            t = t.trim_start_matches(|ch: char| "0123456789$,~!+ \t".contains(ch));
            if let Some(rest) = t.strip_prefix('/') {
                t = skip_delimited(rest, '/');
            }
            if t.len() == before {
                break;
            }
        }
        let mut chars = t.chars();
        match chars.next() {
            Some('e') => chars.next().is_none_or(|ch| ch.is_whitespace()),
            Some('s') => {
                let Some(delim) = chars.next() else {
                    return false;
                };
                let rest = skip_delimited(chars.as_str(), delim);
                let flags = skip_delimited(rest, delim);
                flags
                    .chars()
                    .take_while(|ch| ch.is_ascii_alphanumeric())
                    .any(|ch| ch == 'e')
            }
            _ => false,
        }
    })
}

/// The text after the next unescaped `delim`.
fn skip_delimited(text: &str, delim: char) -> &str {
    let mut escaped = false;
    for (i, ch) in text.char_indices() {
        if escaped {
            escaped = false;
        } else if ch == '\\' {
            escaped = true;
        } else if ch == delim {
            return text.get(i + ch.len_utf8()..).unwrap_or("");
        }
    }
    ""
}

impl Walker {
    pub(crate) fn awk(&mut self, c: &Call<'_>) {
        const WHY: &str = "runs shell commands from its program text";
        let mut k = 0;
        let mut program_given = false;
        while let Some(a) = c.arg(k) {
            if a == "--" {
                k += 1;
                break;
            }
            if !a.starts_with('-') || a == "-" {
                break;
            }
            if let Some((_, n)) = c.value(k, &["-l", "--load"]) {
                self.code_value(
                    c,
                    k,
                    &option_of(a),
                    n,
                    "loads a compiled extension into awk",
                );
                k += n;
            } else if let Some((v, n)) = c.value(k, &["-e", "--source"]) {
                if v.is_some_and(awk_runs) {
                    self.code_value(c, k, &option_of(a), n, WHY);
                }
                program_given = true;
                k += n;
            } else if let Some((_, n)) =
                c.value(k, &["-f", "--file", "-E", "--exec", "-i", "--include"])
            {
                program_given = true;
                k += n;
            } else if let Some((_, n)) = c.value(k, &["-v", "--assign", "-F", "--field-separator"])
            {
                k += n;
            } else {
                k += 1;
            }
        }
        if !program_given && c.arg(k).is_some_and(awk_runs) {
            self.code(c, k, "", WHY);
            self.payload(c, k);
        }
    }

    pub(crate) fn sed(&mut self, c: &Call<'_>) {
        const WHY: &str = "runs shell commands from its script (`e`)";
        let mut k = 0;
        let mut script_given = false;
        while let Some(a) = c.arg(k) {
            if a == "--" {
                k += 1;
                break;
            }
            if !a.starts_with('-') || a == "-" {
                break;
            }
            if let Some((v, n)) = c.value(k, &["-e", "--expression"]) {
                if v.is_some_and(sed_runs) {
                    self.code_value(c, k, &option_of(a), n, WHY);
                }
                script_given = true;
                k += n;
            } else if let Some((_, n)) = c.value(k, &["-f", "--file", "-l", "--line-length"]) {
                script_given |= a.starts_with("-f") || a.starts_with("--file");
                k += n;
            } else {
                k += 1;
            }
        }
        if !script_given && c.arg(k).is_some_and(sed_runs) {
            self.code(c, k, "", WHY);
            self.payload(c, k);
        }
    }

    /// vim and its kin: `-c CMD`, `--cmd CMD`, `+CMD` and `-S FILE` run
    /// editor commands, which run shell commands with `!`.
    pub(crate) fn vim(&mut self, c: &Call<'_>) {
        const WHY: &str = "runs editor commands, which can run shell commands";
        self.simple_options(c, &["-c", "--cmd", "-S"], WHY);
        for (k, a) in c.args.iter().enumerate() {
            if *a == "--" {
                return;
            }
            let cmd = a.strip_prefix('+').unwrap_or("");
            if !cmd.is_empty() && !cmd.bytes().all(|b| b.is_ascii_digit()) {
                self.code(c, k, "+", WHY);
                self.payload(c, k);
            }
        }
    }

    /// Options that may stand anywhere among the arguments (`gradle build
    /// -I init.gradle`).
    pub(crate) fn options_anywhere(&mut self, c: &Call<'_>, names: &[&str], why: &'static str) {
        let mut k = 0;
        while let Some(a) = c.arg(k) {
            if a == "--" {
                return;
            }
            if let Some((_, n)) = c.value(k, names) {
                self.code_value(c, k, &option_of(a), n, why);
                k += n;
                continue;
            }
            k += 1;
        }
    }
}
