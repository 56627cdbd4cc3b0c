//! The dependency rules' own shell splitter, kept only to compare the new
//! analysis with until it is deleted.
#![allow(dead_code)]

fn basename(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or(path)
}

// ---------------------------------------------------------------------------
// Commands that fetch code: a small shell word splitter, enough to find
// installers and pipes into interpreters. It is not a shell: it errs on the
// side of reading text as words, and never executes anything.

/// A word of a command and the pointer of the field it came from.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Word {
    pub(crate) text: String,
    pub(crate) pointer: String,
}

/// One simple command: its words, redirections removed.
type Simple = Vec<Word>;
/// Simple commands joined by `|`.
pub(crate) type Pipeline = Vec<Simple>;
/// Every pipeline of one command (see [`pipelines_of`]).
pub(crate) type Pipelines = Vec<Pipeline>;

/// How deep `sh -c '…'` is followed.
const MAX_NESTING: usize = 3;

#[derive(Default)]
struct Splitter {
    pub(crate) pointer: String,
    pipelines: Vec<Pipeline>,
    pipeline: Pipeline,
    simple: Vec<String>,
    word: String,
    in_word: bool,
}

impl Splitter {
    fn end_word(&mut self) {
        if self.in_word {
            self.simple.push(std::mem::take(&mut self.word));
            self.in_word = false;
        }
    }
    fn end_simple(&mut self) {
        self.end_word();
        let words = drop_redirections(std::mem::take(&mut self.simple));
        if !words.is_empty() {
            let p = self.pointer.clone();
            self.pipeline.push(
                words
                    .into_iter()
                    .map(|text| Word {
                        text,
                        pointer: p.clone(),
                    })
                    .collect(),
            );
        }
    }
    fn end_pipeline(&mut self) {
        self.end_simple();
        if !self.pipeline.is_empty() {
            self.pipelines.push(std::mem::take(&mut self.pipeline));
        }
    }
}

/// Whether a word is a redirection operator, and whether its target is the
/// next word (`>` alone) rather than glued to it (`>log`).
fn redirection(word: &str) -> Option<bool> {
    let rest = word.trim_start_matches(|c: char| c.is_ascii_digit() || c == '&');
    if !(rest.starts_with('>') || rest.starts_with('<'))
        || rest.starts_with("<(")
        || rest.starts_with(">(")
    {
        return None;
    }
    let op_only = rest.chars().all(|c| matches!(c, '>' | '<' | '&' | '|'));
    // `2>&1` carries its target.
    Some(op_only && !rest.ends_with('&'))
}

fn drop_redirections(words: Vec<String>) -> Vec<String> {
    let mut out = Vec::new();
    let mut skip_next = false;
    for w in words {
        if skip_next {
            skip_next = false;
            continue;
        }
        match redirection(&w) {
            Some(target_is_next) => skip_next = target_is_next,
            None => out.push(w),
        }
    }
    out
}

/// Split shell text into pipelines of simple commands. Quotes are removed;
/// `$(…)`, `<(…)` and backquoted text stay inside their word.
fn split_shell(text: &str, pointer: &str) -> Vec<Pipeline> {
    let chars: Vec<char> = text.chars().collect();
    let at = |i: usize| chars.get(i).copied();
    let mut s = Splitter {
        pointer: pointer.to_string(),
        ..Splitter::default()
    };
    let mut quote: Option<char> = None;
    let mut depth = 0usize;
    let mut i = 0;
    while let Some(c) = at(i) {
        i += 1;
        if let Some(q) = quote {
            if c == q {
                quote = None;
            } else if q == '"' && c == '\\' && matches!(at(i), Some('"' | '\\' | '$' | '`')) {
                s.word.extend(at(i));
                i += 1;
            } else {
                s.word.push(c);
            }
            continue;
        }
        if depth > 0 {
            s.word.push(c);
            match c {
                '(' => depth += 1,
                ')' => depth -= 1,
                _ => {}
            }
            continue;
        }
        match c {
            '\'' | '"' => {
                quote = Some(c);
                s.in_word = true;
            }
            '\\' => {
                match at(i) {
                    Some('\n') => {}
                    Some(n) => {
                        s.word.push(n);
                        s.in_word = true;
                    }
                    None => {}
                }
                i += 1;
            }
            '$' | '<' | '>' if at(i) == Some('(') => {
                s.word.push(c);
                s.word.push('(');
                s.in_word = true;
                depth = 1;
                i += 1;
            }
            '`' => {
                s.word.push('`');
                while let Some(n) = at(i) {
                    i += 1;
                    s.word.push(n);
                    if n == '`' {
                        break;
                    }
                }
                s.in_word = true;
            }
            '#' if !s.in_word => {
                while at(i).is_some_and(|n| n != '\n') {
                    i += 1;
                }
            }
            '&' if s.word.ends_with(['>', '<']) || at(i) == Some('>') => {
                s.word.push(c);
                s.in_word = true;
            }
            '|' if at(i) == Some('|') => {
                i += 1;
                s.end_pipeline();
            }
            '|' => {
                if at(i) == Some('&') {
                    i += 1;
                }
                s.end_simple();
            }
            '&' => {
                if at(i) == Some('&') {
                    i += 1;
                }
                s.end_pipeline();
            }
            ';' | '\n' => s.end_pipeline(),
            '(' | ')' | ' ' | '\t' | '\r' => s.end_word(),
            _ => {
                s.word.push(c);
                s.in_word = true;
            }
        }
    }
    s.end_pipeline();
    s.pipelines
}

/// The program's name as a shell would look it up, compared lowercase:
/// `/usr/bin/Python3.exe` gives `python3`.
fn program_name(word: &str) -> String {
    let base = basename(word).to_ascii_lowercase();
    base.strip_suffix(".exe")
        .map(str::to_string)
        .unwrap_or(base)
}

/// `name` followed only by a version: `pip`, `pip3`, `pip3.12`.
fn is_versioned(name: &str, family: &str) -> bool {
    name.strip_prefix(family)
        .is_some_and(|v| v.bytes().all(|b| b.is_ascii_digit() || b == b'.'))
}

const SHELLS: [&str; 8] = ["sh", "bash", "dash", "zsh", "ksh", "ash", "mksh", "fish"];

fn is_shell(name: &str) -> bool {
    SHELLS.contains(&name)
}

fn is_interpreter(name: &str) -> bool {
    is_shell(name)
        || ["python", "perl", "ruby", "php"]
            .iter()
            .any(|f| is_versioned(name, f))
        || matches!(
            name,
            "node"
                | "deno"
                | "bun"
                | "pwsh"
                | "powershell"
                | "iex"
                | "invoke-expression"
                | "eval"
                | "source"
                | "."
        )
}

fn is_downloader(name: &str) -> bool {
    matches!(
        name,
        "curl" | "wget" | "fetch" | "iwr" | "irm" | "invoke-webrequest" | "invoke-restmethod"
    )
}

/// Index of the word that names the program, past assignments (`A=b`),
/// wrappers (`sudo -E`, `env`, `nohup`, `time`, `exec`) and reserved words.
fn program_index(words: &[Word]) -> Option<usize> {
    let mut i = 0;
    let mut in_wrapper = false;
    while let Some(w) = words.get(i) {
        let t = w.text.as_str();
        let assignment = t.split_once('=').is_some_and(|(n, _)| {
            !n.is_empty()
                && n.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
                && !n.starts_with(|c: char| c.is_ascii_digit())
        });
        let name = program_name(t);
        if assignment
            || matches!(
                t,
                "!" | "{" | "}" | "if" | "then" | "else" | "elif" | "do" | "while" | "until"
            )
        {
            i += 1;
        } else if matches!(
            name.as_str(),
            "sudo" | "doas" | "env" | "nohup" | "time" | "exec" | "command" | "nice" | "xargs"
        ) {
            in_wrapper = true;
            i += 1;
        } else if in_wrapper && t.starts_with('-') {
            // A wrapper's option; `sudo -u user` takes a value.
            i += if matches!(t, "-u" | "-g" | "-n" | "-C") && name != "env" {
                2
            } else {
                1
            };
        } else {
            return Some(i);
        }
    }
    None
}

/// The script of `sh -c SCRIPT` (also `bash -ec`, `-lc` …), if any.
fn shell_script(words: &[Word], prog: usize) -> Option<&Word> {
    let rest = words.get(prog + 1..)?;
    let flag = rest.iter().position(|w| {
        w.text.starts_with('-') && !w.text.starts_with("--") && w.text.contains('c')
    })?;
    rest.get(flag + 1)
}

/// Every pipeline of a command: shell text is split; an argument vector is
/// one simple command; `sh -c SCRIPT` in either is followed into SCRIPT.
pub(crate) fn pipelines_of(base: &str, cmd: &crate::model::Command) -> Vec<Pipeline> {
    let mut out = Vec::new();
    if let Some(text) = &cmd.shell {
        out.extend(split_shell(text, &format!("{base}/shell")));
    }
    if let Some(exe) = &cmd.executable {
        let mut words = vec![Word {
            text: exe.clone(),
            pointer: crate::text::cat!(base, "/executable"),
        }];
        words.extend(cmd.arguments().iter().enumerate().map(|(i, a)| Word {
            text: a.clone(),
            pointer: crate::text::cat!(base, "/arguments/", crate::text::Num::new(i as u64)),
        }));
        out.push(vec![words]);
    }
    // Follow `sh -c` scripts, breadth-first, a few levels deep: the
    // pipelines found last, `out[frontier..]`, are looked into next.
    let mut frontier = 0;
    for _ in 0..MAX_NESTING {
        let mut found = Vec::new();
        for simple in out.get(frontier..).unwrap_or_default().iter().flatten() {
            let Some(p) = program_index(simple) else {
                continue;
            };
            if simple
                .get(p)
                .is_some_and(|w| is_shell(&program_name(&w.text)))
            {
                if let Some(script) = shell_script(simple, p) {
                    found.extend(split_shell(&script.text, &script.pointer));
                }
            }
        }
        if found.is_empty() {
            break;
        }
        frontier = out.len();
        out.extend(found);
    }
    out
}

/// A command shown in a message: its words, shortened.
fn show(words: &[Word]) -> String {
    let text = words
        .iter()
        .map(|w| w.text.as_str())
        .collect::<Vec<_>>()
        .join(" ");
    if text.chars().count() > 80 {
        let cut: String = text.chars().take(77).collect();
        format!("{cut}...")
    } else {
        text
    }
}

/// A download handed straight to an interpreter.
#[derive(Debug, PartialEq)]
pub(crate) struct PipeToShell {
    pub(crate) pointer: String,
    pub(crate) downloader: String,
    pub(crate) interpreter: String,
    pub(crate) shown: String,
}

/// Whether `text` substitutes a download: `$(curl …)`, `<(wget …)`, `` `curl …` ``.
fn substitutes_download(text: &str) -> Option<String> {
    for (i, _) in text.match_indices(['(', '`']) {
        let prefix_ok = text.get(..i).is_some_and(|p| {
            p.ends_with('$') || p.ends_with('<') || text.get(i..i + 1) == Some("`")
        });
        if !prefix_ok {
            continue;
        }
        let inner = text.get(i + 1..).unwrap_or("").trim_start();
        let first = inner
            .split(|c: char| c.is_whitespace() || c == ')' || c == '`')
            .next()
            .unwrap_or("");
        let name = program_name(first);
        if is_downloader(&name) {
            return Some(name);
        }
    }
    None
}

/// Where an interpreter takes its code from.
#[derive(Debug, PartialEq)]
enum CodeFrom<'w> {
    /// Standard input: whatever is piped in runs.
    Stdin,
    /// This word: inline code or a script path.
    Word(&'w Word),
    /// A module or something else not on the command line.
    Elsewhere,
}

/// Whether `arg` makes the interpreter `name` take its code from the next
/// word (`sh -c`, `bash -ec`, `node -e`, `perl -E` …).
fn code_flag(name: &str, arg: &str) -> bool {
    if is_shell(name) {
        !arg.starts_with("--") && arg.len() > 1 && arg.contains('c')
    } else {
        matches!(
            arg,
            "-c" | "-e" | "-E" | "-p" | "--eval" | "--print" | "-Command" | "-command"
        )
    }
}

fn code_source<'w>(words: &'w [Word], prog: usize, name: &str) -> CodeFrom<'w> {
    let args = words.get(prog + 1..).unwrap_or(&[]);
    if matches!(name, "eval" | "source" | "." | "iex" | "invoke-expression") {
        return args.first().map_or(CodeFrom::Stdin, CodeFrom::Word);
    }
    let mut it = args.iter();
    while let Some(w) = it.next() {
        let t = w.text.as_str();
        if t == "-" || t == "/dev/stdin" {
            return CodeFrom::Stdin;
        }
        if t == "--" {
            return it.next().map_or(CodeFrom::Stdin, CodeFrom::Word);
        }
        if t.len() > 1 && t.starts_with('-') {
            if is_shell(name) && !t.starts_with("--") && t.contains('s') {
                return CodeFrom::Stdin;
            }
            if code_flag(name, t) {
                return it.next().map_or(CodeFrom::Elsewhere, CodeFrom::Word);
            }
            if t == "-m" {
                return CodeFrom::Elsewhere;
            }
            continue;
        }
        return CodeFrom::Word(w);
    }
    CodeFrom::Stdin
}

pub(crate) fn pipes_to_shell(pipelines: &[Pipeline]) -> Vec<PipeToShell> {
    let mut out = Vec::new();
    for pipeline in pipelines {
        // The first download earlier in this pipeline, and how it reads.
        let mut download: Option<(String, String)> = None;
        for simple in pipeline {
            let Some(p) = program_index(simple) else {
                continue;
            };
            let Some(prog) = simple.get(p) else { continue };
            let name = program_name(&prog.text);
            if is_interpreter(&name) {
                let hit = match (code_source(simple, p, &name), &download) {
                    (CodeFrom::Stdin, Some((d, first))) => Some((
                        prog.pointer.clone(),
                        d.clone(),
                        format!("{first} | {}", show(simple.get(p..).unwrap_or(&[]))),
                    )),
                    (CodeFrom::Word(w), _) => substitutes_download(&w.text)
                        .map(|d| (w.pointer.clone(), d, show(simple.get(p..).unwrap_or(&[])))),
                    _ => None,
                };
                if let Some((pointer, downloader, shown)) = hit {
                    out.push(PipeToShell {
                        pointer,
                        downloader,
                        interpreter: name,
                        shown,
                    });
                    break;
                }
            }
            if is_downloader(&name) && download.is_none() {
                download = Some((name, show(simple.get(p..).unwrap_or(&[]))));
            }
        }
    }
    out
}

/// An install that fetches from the network without a lock.
#[derive(Debug, PartialEq)]
pub(crate) struct UnlockedInstall {
    pub(crate) pointer: String,
    pub(crate) tool: &'static str,
    pub(crate) why: String,
    pub(crate) shown: String,
}

/// Options of `pip install` that take a value in the next word.
const PIP_VALUE_OPTIONS: [&str; 24] = [
    "-r",
    "--requirement",
    "-c",
    "--constraint",
    "-e",
    "--editable",
    "-t",
    "--target",
    "-i",
    "--index-url",
    "--extra-index-url",
    "-f",
    "--find-links",
    "--prefix",
    "--root",
    "--src",
    "--upgrade-strategy",
    "--platform",
    "--python-version",
    "--implementation",
    "--abi",
    "--cache-dir",
    "--log",
    "--trusted-host",
];

/// Whether a requirements file is a lock: its name says so, or it is the
/// profile's declared lockfile.
fn lock_like(file: &str, declared: Option<&str>) -> bool {
    let b = basename(file).to_ascii_lowercase();
    b.contains("lock") || declared.is_some_and(|d| basename(d).eq_ignore_ascii_case(basename(file)))
}

/// `pip install` arguments (after `install`): why they fetch unlocked.
fn pip_unlocked(args: &[Word], lockfile: Option<&str>) -> Option<String> {
    let has = |o: &str| args.iter().any(|w| w.text == o);
    if has("--require-hashes") || has("--no-index") {
        return None;
    }
    let no_deps = has("--no-deps");
    let mut requirements = Vec::new();
    let mut remote = Vec::new();
    let mut local = false;
    let mut i = 0;
    while let Some(w) = args.get(i) {
        let t = w.text.as_str();
        i += 1;
        if let Some(v) = t
            .strip_prefix("--requirement=")
            .or_else(|| t.strip_prefix("-r").filter(|v| !v.is_empty()))
        {
            requirements.push(v.to_string());
        } else if t == "-r" || t == "--requirement" {
            requirements.extend(args.get(i).map(|w| w.text.clone()));
            i += 1;
        } else if t == "-e" || t == "--editable" {
            local = true;
            i += 1;
        } else if PIP_VALUE_OPTIONS.contains(&t) {
            i += 1;
        } else if t.starts_with('-') {
            // A flag without a value.
        } else if t.starts_with(['.', '/', '~'])
            || [".whl", ".tar.gz", ".zip"].iter().any(|s| t.ends_with(s))
        {
            local = true;
        } else {
            remote.push(t.to_string());
        }
    }
    if let Some(r) = remote.first() {
        return Some(format!(
            "`{r}` is fetched by name, at whatever version the index serves"
        ));
    }
    if let Some(r) = requirements.iter().find(|r| !lock_like(r, lockfile)) {
        return Some(format!(
            "`{r}` is not a lockfile and `--require-hashes` is not given"
        ));
    }
    if local && !no_deps {
        return Some("the local project's dependencies are resolved from the index; add `--no-deps` and install them from a lock".into());
    }
    None
}

pub(crate) fn install_of(simple: &[Word], lockfile: Option<&str>) -> Option<UnlockedInstall> {
    let p = program_index(simple)?;
    let prog = simple.get(p)?;
    let name = program_name(&prog.text);
    let rest = simple.get(p + 1..).unwrap_or(&[]);
    // The first word that is not an option: the subcommand.
    let sub_at = rest.iter().position(|w| !w.text.starts_with('-'));
    let sub = sub_at.and_then(|i| rest.get(i));
    let sub_text = sub.map(|w| w.text.as_str()).unwrap_or("");
    let after_sub = sub_at.and_then(|i| rest.get(i + 1..)).unwrap_or(&[]);
    let has = |o: &str| {
        rest.iter()
            .any(|w| w.text == o || w.text.starts_with(&format!("{o}=")))
    };
    let hit = |tool: &'static str, at: Option<&Word>, why: String| UnlockedInstall {
        pointer: at.unwrap_or(prog).pointer.clone(),
        tool,
        why,
        shown: show(simple.get(p..).unwrap_or(&[])),
    };

    // pip, `python -m pip`, `uv pip`.
    let pip_args = if is_versioned(&name, "pip") && sub_text == "install" {
        Some((sub, after_sub))
    } else if (is_versioned(&name, "python") || name == "py")
        && rest.first().is_some_and(|w| w.text == "-m")
    {
        let m = rest.get(1).filter(|w| is_versioned(&w.text, "pip"));
        match (m, rest.get(2)) {
            (Some(_), Some(inst)) if inst.text == "install" => {
                Some((Some(inst), rest.get(3..).unwrap_or(&[])))
            }
            _ => None,
        }
    } else if name == "uv"
        && sub_text == "pip"
        && after_sub.first().is_some_and(|w| w.text == "install")
    {
        Some((after_sub.first(), after_sub.get(1..).unwrap_or(&[])))
    } else {
        None
    };
    if let Some((at, args)) = pip_args {
        return pip_unlocked(args, lockfile).map(|why| hit("pip", at, why));
    }

    match (name.as_str(), sub_text) {
        ("npm", "install" | "i" | "add" | "update" | "up" | "upgrade" | "install-test" | "it") => {
            Some(hit("npm", sub, "it resolves versions and may rewrite the lock, where `npm ci` installs exactly the lock".into()))
        }
        ("npm", "exec" | "x") | ("npx", _) if !has("--no") && !has("--no-install") && !has("--offline") => {
            Some(hit("npm", if name == "npx" { None } else { sub }, "a package missing locally is downloaded and run".into()))
        }
        ("yarn", "add" | "up" | "upgrade" | "dlx") | ("pnpm", "add" | "update" | "up" | "dlx") => {
            Some(hit(if name == "yarn" { "yarn" } else { "pnpm" }, sub, "it fetches packages outside the lock".into()))
        }
        ("yarn", "" | "install") | ("pnpm", "install" | "i")
            if !has("--frozen-lockfile") && !has("--immutable") =>
        {
            Some(hit(if name == "yarn" { "yarn" } else { "pnpm" }, sub, "the lock may be updated instead of enforced; add `--frozen-lockfile`".into()))
        }
        ("cargo", "install") if !has("--locked") => {
            Some(hit("cargo", sub, "without `--locked` the crate's dependencies resolve to the newest matching versions".into()))
        }
        ("go", "get") => Some(hit("go", sub, "it resolves and updates module versions".into())),
        ("go", "install") if after_sub.iter().any(|w| w.text.ends_with("@latest")) => {
            Some(hit("go", sub, "`@latest` resolves to whatever was published last".into()))
        }
        ("gem", "install") | ("pipx", "install" | "run") | ("uv", "add") | ("poetry", "add") | ("conda" | "mamba" | "micromamba", "install") => {
            Some(hit("package-manager", sub, "it resolves packages from the network at run time".into()))
        }
        ("uvx", _) => Some(hit("package-manager", None, "the tool is resolved and downloaded at run time".into())),
        ("apt-get" | "apt" | "yum" | "dnf" | "microdnf" | "zypper" | "brew", "install") | ("apk", "add") => {
            Some(hit("system", sub, "system packages are fetched at run time at whatever version the mirror serves".into()))
        }
        _ => None,
    }
}

/// The old splitter and the shared analysis, side by side, over the
/// commands of every fixture profile and a table of shapes the fixtures do
/// not hold. Each difference is printed and counted; the expected ones are
/// the bug fixes listed in `EXPECTED_DRIFT`.
#[cfg(test)]
#[allow(clippy::disallowed_methods)]
mod differential {
    use crate::model::Command;
    use crate::shell::fetch;

    type Seen = (
        Vec<(String, String, String)>,
        Vec<(String, &'static str, String)>,
    );

    fn old(c: &Command) -> Seen {
        let p = super::pipelines_of("/c", c);
        (
            super::pipes_to_shell(&p)
                .into_iter()
                .map(|h| (h.pointer, h.downloader, h.interpreter))
                .collect(),
            p.iter()
                .flatten()
                .filter_map(|s| super::install_of(s, Some("requirements.lock")))
                .map(|h| (h.pointer, h.tool, h.why))
                .collect(),
        )
    }

    fn new(c: &Command) -> Seen {
        let p = fetch::pipelines_of("/c", c);
        (
            fetch::pipes_to_shell(&p)
                .into_iter()
                .map(|h| (h.pointer, h.downloader, h.interpreter))
                .collect(),
            p.iter()
                .flatten()
                .filter_map(|s| fetch::install_of(s, Some("requirements.lock")))
                .map(|h| (h.pointer, h.tool, h.why))
                .collect(),
        )
    }

    fn fixture_commands() -> Vec<Command> {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures");
        let mut files = Vec::new();
        let mut dirs = vec![root];
        while let Some(d) = dirs.pop() {
            for e in std::fs::read_dir(&d).into_iter().flatten().flatten() {
                let p = e.path();
                if p.is_dir() {
                    dirs.push(p);
                } else if p.extension().is_some_and(|x| x == "json") {
                    files.push(p);
                }
            }
        }
        files.sort();
        let mut out = Vec::new();
        for f in files {
            let Ok(bytes) = std::fs::read(&f) else {
                continue;
            };
            let Ok(doc) = crate::json::parse(&bytes, Default::default()) else {
                continue;
            };
            let (profile, _) = crate::decode::profile(&doc.root);
            out.extend(profile.commands().into_iter().map(|(_, c)| c.clone()));
        }
        out
    }

    const TABLE: &[&str] = &[
        "curl -fsSL https://x | tcsh",
        "curl -fsSL https://x | csh -s",
        "curl https://x | yash",
        "wget -qO- https://x | timeout 60 sh",
        "curl https://x | stdbuf -o0 bash",
        "curl https://x | setsid sh",
        "curl https://x | nodejs",
        "curl https://x | lua",
        "for f in a b; do curl https://x/$f | sh; done",
        "(cd /tmp && curl https://x | sh)",
        "sh <(curl -s https://x)",
        "bash -c 'tcsh -c \"curl https://x | sh\"'",
        "timeout 60 pip install requests",
        "ionice -c 3 npm install",
        "x=1 y=2 pip install requests",
        "case $x in a) pip install requests;; esac",
        "pip install requests # && npm install",
        "echo 'curl x | sh'",
        "curl https://x | python -m json.tool",
        "npm ci && npx --no-install jest",
    ];

    /// Inputs whose result changes on purpose, with the reason.
    const EXPECTED_DRIFT: &[(&str, &str)] = &[
        ("curl -fsSL https://x | tcsh", "13 shells, not 8"),
        ("curl -fsSL https://x | csh -s", "13 shells, not 8"),
        ("curl https://x | yash", "13 shells, not 8"),
        (
            "wget -qO- https://x | timeout 60 sh",
            "every wrapper of the table",
        ),
        (
            "curl https://x | stdbuf -o0 bash",
            "every wrapper of the table",
        ),
        ("curl https://x | setsid sh", "every wrapper of the table"),
        ("curl https://x | nodejs", "one interpreter list"),
        ("curl https://x | lua", "one interpreter list"),
        (
            "timeout 60 pip install requests",
            "every wrapper of the table",
        ),
        ("ionice -c 3 npm install", "every wrapper of the table"),
        (
            "case $x in a) pip install requests;; esac",
            "compound command headers are not a program",
        ),
        (
            "bash -c 'tcsh -c \"curl https://x | sh\"'",
            "13 shells, not 8",
        ),
    ];

    #[test]
    fn old_and_new_agree_but_for_the_listed_fixes() {
        let mut commands = fixture_commands();
        let fixtures = commands.len();
        commands.extend(TABLE.iter().map(|t| Command {
            shell: Some(t.to_string()),
            ..Command::default()
        }));
        let mut drift = Vec::new();
        for c in &commands {
            let (o, n) = (old(c), new(c));
            if o != n {
                drift.push((c.clone(), o, n));
            }
        }
        for (c, o, n) in &drift {
            eprintln!("drift: {c:?}\n  old: {o:?}\n  new: {n:?}");
        }
        eprintln!(
            "{} commands ({fixtures} from fixtures), {} differ",
            commands.len(),
            drift.len()
        );
        let unexpected: Vec<_> = drift
            .iter()
            .filter(|(c, _, _)| {
                !EXPECTED_DRIFT
                    .iter()
                    .any(|(t, _)| c.shell.as_deref() == Some(*t))
            })
            .collect();
        assert!(
            unexpected.is_empty(),
            "{} unexpected differences",
            unexpected.len()
        );
    }
}
