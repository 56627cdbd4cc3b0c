//! The walk over one command line: through wrappers (`env`, `timeout`,
//! `xargs`, `busybox`) and into text given to `sh -c` or `cmd /c`. The
//! program tables of [`super::programs`] say which family a program is;
//! the family files here read that family's options (`python -c`,
//! `git -c core.sshCommand=…`), and [`readers`] picks the reader by name.

mod files;
mod git;
mod javascript;
mod python;
mod readers;
mod scripting;
mod shells;
mod text_tools;

use super::lex::{is_assignment, parse};
use super::programs::{code_loading_variable, is_interpreter, is_posix_shell, Inner};
use super::words::{is_batch, is_relative_path, program_name};
use crate::finding::Severity;

/// Nesting bound for wrappers and text inside text (`env env ...`,
/// `sh -c "sh -c '...'"`, `$(..)`): deeper input is not analysed further
/// rather than recursing without end, and the walk reports that it
/// stopped ([`Walker::too_deep`]), which blocks.
const MAX_DEPTH: u32 = 12;

/// What a hit is about; each command rule reports one kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum HitKind {
    /// A shell told to run text (`sh -c`, `cmd /c`, `pwsh -Command`) or to
    /// read its program from standard input.
    ShellRunsText,
    /// An option or setting that makes a program run code.
    CodeOption,
    /// A Windows batch file as the program.
    BatchFile,
    /// A program named by a relative path.
    RelativeProgram,
}

/// One finding of the walk.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Hit {
    /// The word it is about: 0 is the program, `k` the `k`-th argument.
    /// Inside text (shell text, `sh -c TEXT`), the word holding the text.
    pub index: usize,
    pub kind: HitKind,
    /// The program, as [`program_name`] gives it.
    pub program: String,
    /// The option as written, without any value (`-c`, `--upload-pack`),
    /// or a variable name, or empty when the program itself is the point.
    pub option: String,
    pub severity: Severity,
    /// What it does, as the end of a sentence.
    pub why: &'static str,
    /// A harmless detail (a git configuration key, an ssh option name).
    pub detail: Option<String>,
    /// `option` is an environment variable set in front of the program.
    pub variable: bool,
}

/// The result of walking one command line.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Analysis {
    pub hits: Vec<Hit>,
    /// Words consumed as code or shell text by an option (`-c TEXT`), which
    /// the metacharacter check must not read as plain arguments.
    /// Sorted, each once.
    pub payloads: Vec<usize>,
}

/// Walk an argument-list command: `words[0]` is the executable.
pub(crate) fn analyze_words(words: &[&str]) -> Analysis {
    let mut w = Walker::default();
    w.words(words, 0, None);
    w.out
}

/// Walk shell text. Every hit has index 0: the caller points at the text.
pub(crate) fn analyze_script(text: &str) -> Analysis {
    let mut w = Walker::default();
    w.text(text, 0);
    w.out
}

#[derive(Default)]
pub(crate) struct Walker {
    pub(crate) out: Analysis,
    depth: u32,
    /// The depth bound was reached (reported once).
    truncated: bool,
}

/// One program with its arguments, and where its words sit in the
/// analysed command line.
#[derive(Clone, Copy)]
pub(crate) struct Call<'a> {
    pub(crate) name: &'a str,
    pub(crate) args: &'a [&'a str],
    /// Global index of `args[0]`.
    pub(crate) base: usize,
    /// Set inside text: every hit goes to this word.
    pub(crate) pin: Option<usize>,
}

impl<'a> Call<'a> {
    /// The program word itself, as a call without arguments.
    pub(crate) fn program(&self) -> Call<'a> {
        Call {
            name: self.name,
            args: &[],
            base: self.base.saturating_sub(1),
            pin: self.pin,
        }
    }
    pub(crate) fn at(&self, k: usize) -> usize {
        self.pin.unwrap_or(self.base + k)
    }
    pub(crate) fn arg(&self, k: usize) -> Option<&'a str> {
        self.args.get(k).copied()
    }
    pub(crate) fn rest(&self, k: usize) -> &'a [&'a str] {
        self.args.get(k..).unwrap_or(&[])
    }
    /// The value of `--name VALUE` or `--name=VALUE` at `k`, and how many
    /// words the option takes.
    pub(crate) fn value(&self, k: usize, names: &[&str]) -> Option<(Option<&'a str>, usize)> {
        let a = self.arg(k)?;
        for n in names {
            if a == *n {
                return Some((self.arg(k + 1), 2));
            }
            if let Some(v) = a.strip_prefix(n).and_then(|r| r.strip_prefix('=')) {
                return Some((Some(v), 1));
            }
        }
        None
    }
}

/// The option part of a word: before `=`, at most 40 characters.
pub(crate) fn option_of(word: &str) -> String {
    let o = word.split('=').next().unwrap_or(word);
    o.chars().take(40).collect()
}

impl Walker {
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn hit(
        &mut self,
        c: &Call<'_>,
        k: usize,
        kind: HitKind,
        option: &str,
        severity: Severity,
        why: &'static str,
    ) {
        self.hit_detail(c, k, kind, option, severity, why, None);
    }

    #[allow(clippy::too_many_arguments)]
    pub(crate) fn hit_detail(
        &mut self,
        c: &Call<'_>,
        k: usize,
        kind: HitKind,
        option: &str,
        severity: Severity,
        why: &'static str,
        detail: Option<String>,
    ) {
        self.out.hits.push(Hit {
            index: c.at(k),
            kind,
            program: c.name.to_string(),
            option: option.to_string(),
            severity,
            why,
            detail,
            variable: false,
        });
    }

    pub(crate) fn code(&mut self, c: &Call<'_>, k: usize, option: &str, why: &'static str) {
        self.hit(c, k, HitKind::CodeOption, option, Severity::High, why);
    }

    /// A code option whose value is code or a program: `taken` is 2 when
    /// the value is the next word, 1 when it is glued to the option.
    pub(crate) fn code_value(
        &mut self,
        c: &Call<'_>,
        k: usize,
        option: &str,
        taken: usize,
        why: &'static str,
    ) {
        self.code(c, k, option, why);
        self.payload(c, if taken == 2 { k + 1 } else { k });
    }

    pub(crate) fn payload(&mut self, c: &Call<'_>, k: usize) {
        if k < c.args.len() {
            super::words::insert_sorted(&mut self.out.payloads, c.at(k));
        }
    }

    /// Shell text held by one word (global index `at`).
    pub(crate) fn text(&mut self, text: &str, at: usize) {
        if self.depth >= MAX_DEPTH {
            let name = program_name(text.split_whitespace().next().unwrap_or(""));
            self.too_deep(&name, at, Some(at));
            return;
        }
        self.depth += 1;
        let script = parse(text);
        for cmd in &script.commands {
            let prog = cmd
                .words
                .first()
                .map(|w| program_name(w))
                .unwrap_or_default();
            let pinned = Call {
                name: &prog,
                args: &[],
                base: 0,
                pin: Some(at),
            };
            for a in &cmd.assignments {
                self.assignment(&pinned, 0, a);
            }
            let words: Vec<&str> = cmd.words.iter().map(String::as_str).collect();
            if cmd.piped {
                self.piped_program(&words, at);
            }
            self.words(&words, 0, Some(at));
        }
        for s in &script.substitutions {
            self.text(s, at);
        }
        self.depth -= 1;
    }

    /// The depth bound stops the walk at the word `offset` (or the text
    /// word `pin`): what runs from here on is not known, so it blocks, once
    /// per command line.
    fn too_deep(&mut self, name: &str, offset: usize, pin: Option<usize>) {
        if std::mem::replace(&mut self.truncated, true) {
            return;
        }
        let me = Call {
            name,
            args: &[],
            base: offset,
            pin,
        };
        self.code(
            &me,
            0,
            "",
            "is nested deeper in wrappers or shell text than the audit follows, so what runs cannot be vouched for",
        );
    }

    /// `... | sh`: an interpreter whose program arrives through the pipe.
    pub(crate) fn piped_program(&mut self, words: &[&str], at: usize) {
        let Some(first) = words.first() else { return };
        let name = program_name(first);
        let options_only = words
            .get(1..)
            .unwrap_or(&[])
            .iter()
            .all(|w| w.starts_with('-'));
        if !is_interpreter(&name)
            || !options_only
            || words.iter().any(|w| matches!(*w, "-c" | "-e" | "-"))
        {
            return;
        }
        let c = Call {
            name: &name,
            args: &[],
            base: 0,
            pin: Some(at),
        };
        let kind = if is_posix_shell(&name) {
            HitKind::ShellRunsText
        } else {
            HitKind::CodeOption
        };
        self.hit(
            &c,
            0,
            kind,
            "",
            Severity::High,
            "runs whatever the previous command writes into the pipe",
        );
    }

    /// `NAME=value` before a program (`env`, shell text).
    pub(crate) fn assignment(&mut self, c: &Call<'_>, k: usize, word: &str) {
        let (name, value) = word.split_once('=').unwrap_or((word, ""));
        // A value built from other variables is not known here.
        let value = (!value.contains(['$', '`'])).then_some(value);
        if let Some((sev, why)) = code_loading_variable(name, value) {
            self.hit(c, k, HitKind::CodeOption, name, sev, why);
            if let Some(h) = self.out.hits.last_mut() {
                h.variable = true;
            }
        }
    }

    /// One command line: `words[0]` is the program, at global index `offset`.
    pub(crate) fn words(&mut self, words: &[&str], offset: usize, pin: Option<usize>) {
        let Some(program) = words.first() else { return };
        if self.depth >= MAX_DEPTH {
            self.too_deep(&program_name(program), offset, pin);
            return;
        }
        self.depth += 1;
        let name = program_name(program);
        let me = Call {
            name: &name,
            args: &[],
            base: offset,
            pin,
        };
        if is_relative_path(program) {
            self.hit(
                &me,
                0,
                HitKind::RelativeProgram,
                "",
                Severity::Low,
                "is a relative path into the candidate's tree",
            );
        }
        if is_batch(&name) {
            self.hit(
                &me,
                0,
                HitKind::BatchFile,
                "",
                Severity::High,
                "is a Windows batch file",
            );
        }
        let c = Call {
            name: &name,
            args: words.get(1..).unwrap_or(&[]),
            base: offset + 1,
            pin,
        };
        readers::read(self, &c);
        self.depth -= 1;
    }

    /// A program that runs another ([`super::programs::unwrap`] says
    /// where): walk the command line or shell text it runs; a bare shell
    /// or an option the table cannot read blocks.
    pub(crate) fn wrapped(&mut self, c: &Call<'_>, inner: Inner) {
        match inner {
            Inner::Command(k) => {
                if k < c.args.len() {
                    self.words(c.rest(k), c.base + k, c.pin);
                }
            }
            Inner::Text {
                option,
                at,
                span,
                text,
            } => {
                self.hit(
                    c,
                    at,
                    HitKind::ShellRunsText,
                    &option,
                    Severity::High,
                    "runs its argument as shell text",
                );
                for j in at..at + span.max(1) {
                    self.payload(c, j);
                }
                self.text(&text, c.at(at));
            }
            Inner::Shell => {
                let me = c.program();
                self.hit(
                    &me,
                    0,
                    HitKind::ShellRunsText,
                    "",
                    Severity::High,
                    "starts a shell that reads its commands from standard input",
                );
            }
            Inner::Unreadable(k) => {
                let option = option_of(c.arg(k).unwrap_or(""));
                self.code(
                    c,
                    k,
                    &option,
                    "has an option the audit cannot read, so what it runs cannot be vouched for",
                );
            }
            Inner::Nothing => {}
        }
    }

    pub(crate) fn env(&mut self, c: &Call<'_>) {
        let mut k = 0;
        while let Some(a) = c.arg(k) {
            if a == "-S"
                || a == "--split-string"
                || (a.starts_with("-S") && a.len() > 2)
                || a.starts_with("--split-string=")
            {
                let option = if a.starts_with("--") {
                    "--split-string"
                } else {
                    "-S"
                };
                self.code(
                    c,
                    k,
                    option,
                    "splits one string into a command line, shell-style",
                );
                let inline = a
                    .strip_prefix("--split-string=")
                    .or_else(|| a.strip_prefix("-S").filter(|s| !s.is_empty()));
                match inline {
                    Some(text) => {
                        self.payload(c, k);
                        self.text(text, c.at(k));
                    }
                    None => self.shell_payload(c, k + 1),
                }
                return;
            }
            if super::programs::ENV_VALUED.contains(&a) {
                k += 2;
                continue;
            }
            if a.starts_with('-') {
                k += 1;
                continue;
            }
            if is_assignment(a) {
                self.assignment(c, k, a);
                k += 1;
                continue;
            }
            self.words(c.rest(k), c.base + k, c.pin);
            return;
        }
    }
}
