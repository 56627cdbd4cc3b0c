//! Commands that fetch code from the network: downloads handed to an
//! interpreter, installs without a lock, and any fetch at all where the
//! profile says dependencies arrive another way. The command lines come
//! from the shared tokenizer, and program names from the shared tables.

use super::lex::{is_assignment, parse, KEYWORDS};
use super::programs::{
    fetcher, is_downloader, is_evaluator, is_posix_shell, runs_code, unwrap, Inner, ENV_VALUED,
};
use super::words::{program_name, stem};
use crate::model::Command;

fn basename(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or(path)
}

/// A word of a command and the pointer of the field it came from.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Word {
    pub(crate) text: String,
    pub(crate) pointer: String,
}

/// One simple command: its words, redirections removed.
pub(crate) type Simple = Vec<Word>;
/// Simple commands joined by `|`.
pub(crate) type Pipeline = Vec<Simple>;
/// Every pipeline of one command (see [`pipelines_of`]).
pub(crate) type Pipelines = Vec<Pipeline>;

/// How deep `sh -c '…'` is followed.
const MAX_NESTING: usize = 3;

/// Split shell text into pipelines of simple commands with the shared
/// tokenizer: quotes removed, redirections dropped, and `$(..)`, `<(..)`
/// and backquoted text kept inside their word.
pub(crate) fn split(text: &str, pointer: &str) -> Vec<Pipeline> {
    let mut out: Vec<Pipeline> = Vec::new();
    for cmd in parse(text).commands {
        if cmd.words.is_empty() {
            continue;
        }
        // Assignments stay in front of the program (`GOPROXY=off go build`):
        // they are options of it, which a reader of the command needs.
        let simple: Simple = cmd
            .assignments
            .into_iter()
            .chain(cmd.words)
            .map(|text| Word {
                text,
                pointer: pointer.to_string(),
            })
            .collect();
        match out.last_mut() {
            Some(p) if cmd.piped => p.push(simple),
            _ => out.push(vec![simple]),
        }
    }
    out
}

/// Index of the word that names the program, past assignments (`A=b`),
/// reserved words and the wrappers of [`unwrap`](super::programs::unwrap)
/// with their options (`sudo -u user`, `timeout 60`, `env -u X`).
pub(crate) fn program_index(words: &[Word]) -> Option<usize> {
    // The words' text once: each wrapper reads the words after it, and a
    // chain of wrappers would otherwise copy the rest of the line per link.
    let texts: Vec<&str> = words.iter().map(|w| w.text.as_str()).collect();
    let mut i = 0;
    while let Some(w) = words.get(i) {
        let t = w.text.as_str();
        if is_assignment(t) || KEYWORDS.contains(&t) {
            i += 1;
            continue;
        }
        let name = program_name(t);
        if stem(&name) == "env" {
            i += 1;
            while let Some(a) = words.get(i).map(|w| w.text.as_str()) {
                if a == "--" {
                    i += 1;
                    break;
                }
                if !a.starts_with('-') || a == "-" {
                    break;
                }
                i += if ENV_VALUED.contains(&a) { 2 } else { 1 };
            }
            continue;
        }
        match unwrap(&name, texts.get(i + 1..).unwrap_or(&[])) {
            None => return Some(i),
            Some(Inner::Command(k)) => i += 1 + k,
            // Shell text, a bare shell or an unreadable option: the command
            // rules report it (CMD003, CMD005), and no program here can be
            // judged by its name.
            Some(_) => return None,
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
pub(crate) fn pipelines_of(base: &str, cmd: &Command) -> Vec<Pipeline> {
    let mut out = Vec::new();
    if let Some(text) = &cmd.shell {
        out.extend(split(text, &format!("{base}/shell")));
    }
    if let Some(exe) = &cmd.executable {
        let mut words = vec![Word {
            text: exe.clone(),
            pointer: format!("{}/executable", base),
        }];
        words.extend(cmd.arguments().iter().enumerate().map(|(i, a)| Word {
            text: a.clone(),
            pointer: format!("{}/arguments/{}", base, i),
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
                .is_some_and(|w| is_posix_shell(&program_name(&w.text)))
            {
                if let Some(script) = shell_script(simple, p) {
                    found.extend(split(&script.text, &script.pointer));
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

/// Whether `text`, shell text a shell runs, substitutes a download whose
/// content can run: `$(curl …)`, `<(wget …)`, `` `curl …` ``. A download
/// written to `/dev/null` (an HTTP status probe, `curl -o /dev/null -w
/// '%{http_code}'`) brings nothing, and one that is only an operand of a
/// test (`[ "$(curl …)" = 200 ]`) is compared, not run.
fn substitutes_download(text: &str) -> Option<String> {
    let scan = crate::shell::lex::tokens(text);
    let mut program: Option<String> = None;
    for t in &scan.tokens {
        if t.operator {
            if !(t.text.starts_with(['<', '>']) || t.text.starts_with("&>")) {
                program = None;
            }
            continue;
        }
        let first = program.is_none();
        if first && !crate::shell::lex::is_assignment(&t.text) {
            program = Some(program_name(&t.text));
        }
        let in_test = !first
            && program
                .as_deref()
                .is_some_and(|p| matches!(p, "[" | "test" | "[["));
        for (_, body) in t.substitutions.iter().flat_map(|s| s.iter()) {
            if let Some(name) = downloads_content(body) {
                if !in_test {
                    return Some(name);
                }
            }
        }
    }
    None
}

/// The downloader a substituted command runs, unless what it downloads
/// goes to `/dev/null` (or nowhere, `wget --spider`): then only what
/// `-w`/`--write-out` prints comes out, a status, not content.
fn downloads_content(body: &str) -> Option<String> {
    let words: Vec<String> = crate::shell::lex::tokens(body)
        .tokens
        .into_iter()
        .take_while(|t| !t.operator || t.text.starts_with(['<', '>']) || t.text.starts_with("&>"))
        .map(|t| t.text)
        .collect();
    let name = program_name(
        words
            .iter()
            .find(|w| !crate::shell::lex::is_assignment(w))?,
    );
    if !is_downloader(&name) {
        return None;
    }
    let null = |w: Option<&String>| w.is_some_and(|w| w == "/dev/null");
    let discarded = words.iter().enumerate().any(|(i, w)| match w.as_str() {
        "-o" | "--output" | "-O" | "--output-document" => null(words.get(i + 1)),
        "--spider" => name == "wget",
        w => {
            w == "-o/dev/null"
                || w == "--output=/dev/null"
                || w == "-O/dev/null"
                || w == "--output-document=/dev/null"
        }
    });
    (!discarded).then_some(name)
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
    if is_posix_shell(name) {
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
    if is_evaluator(name) {
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
            if is_posix_shell(name) && !t.starts_with("--") && t.contains('s') {
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
            if runs_code(&name) {
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
    let pip_args = if stem(&name) == "pip" && sub_text == "install" {
        Some((sub, after_sub))
    } else if (stem(&name) == "python" || name == "py")
        && rest.first().is_some_and(|w| w.text == "-m")
    {
        let m = rest.get(1).filter(|w| stem(&w.text) == "pip");
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

/// A command that reaches the network to fetch code or data.
#[derive(Debug, PartialEq)]
pub(crate) struct Fetching {
    pub(crate) pointer: String,
    /// The program, as [`program_name`] gives it.
    pub(crate) program: String,
    pub(crate) shown: String,
}

/// Whether an address names this machine (`localhost`, `127.0.0.1:8080`,
/// `http://[::1]/x`): a test reaching its own service fetches nothing.
fn is_loopback(address: &str) -> bool {
    let rest = address.split_once("://").map_or(address, |(_, r)| r);
    let rest = rest.rsplit_once('@').map_or(rest, |(_, r)| r);
    let host = if let Some(v6) = rest.strip_prefix('[') {
        v6.split(']').next().unwrap_or("")
    } else {
        rest.split([':', '/']).next().unwrap_or("")
    };
    let host = host.to_ascii_lowercase();
    host == "localhost" || host.ends_with(".localhost") || host.starts_with("127.") || host == "::1"
}

/// Options of the transfer tools that take the next word as a value (a
/// file, a header), which is not an address.
const TRANSFER_VALUED: &[&str] = &[
    "-o",
    "-O",
    "--output",
    "-H",
    "--header",
    "-d",
    "--data",
    "-X",
    "--request",
    "-u",
    "--user",
    "-A",
    "--user-agent",
    "-e",
    "--referer",
    "-T",
    "--upload-file",
    "-w",
    "--write-out",
    "-P",
    "--directory-prefix",
    "--output-document",
    "-b",
    "--cookie",
    "-c",
    "--cookie-jar",
    "-m",
    "--max-time",
    "--retry",
    "-F",
    "--form",
];

/// Whether a local path, not a remote repository (`git clone /srv/x`,
/// `git clone ./vendor/x`, `file://`).
fn is_local_path(word: &str) -> bool {
    word.starts_with(['/', '.', '~']) || word.starts_with("file://")
}

/// Whether a simple command fetches from the network: a package manager
/// or system installer at a fetching subcommand and without its offline
/// option, a transfer tool given a remote address, or git cloning,
/// fetching or pulling from a remote.
pub(crate) fn fetch_of(simple: &[Word]) -> Option<Fetching> {
    // `uv run` is a wrapper (the program it runs is judged on its own), but
    // it first syncs the project's environment, and `--with` adds packages
    // resolved at that moment.
    if let Some(hit) = uv_run(simple) {
        return Some(hit);
    }
    let p = program_index(simple)?;
    let prog = simple.get(p)?;
    let mut name = program_name(&prog.text);
    let mut rest = simple.get(p + 1..).unwrap_or(&[]);
    // `python -m pip install`: the module is the program.
    if stem(&name) == "python" || name == "py" {
        match rest {
            [m, module, tail @ ..] if m.text == "-m" => {
                name = program_name(&module.text);
                rest = tail;
            }
            _ => return None,
        }
    }
    let hit = || Fetching {
        pointer: prog.pointer.clone(),
        program: name.clone(),
        shown: show(simple.get(p..).unwrap_or(&[])),
    };
    let operands = || rest.iter().filter(|w| !w.text.starts_with('-'));
    if is_downloader(&name) {
        let mut skip = false;
        let remote = rest.iter().any(|w| {
            let t = w.text.as_str();
            if std::mem::take(&mut skip) {
                return false;
            }
            if t.starts_with('-') {
                skip = TRANSFER_VALUED.contains(&t);
                return false;
            }
            !is_loopback(t)
        });
        return remote.then(hit);
    }
    let f = fetcher(&name)?;
    if rest.iter().any(|w| f.offline.contains(&w.text.as_str())) {
        return None;
    }
    let sub = operands().next().map_or("", |w| w.text.as_str());
    if !f.subcommands.is_empty() && !f.subcommands.contains(&sub) {
        return None;
    }
    if name == "git" && sub == "clone" && operands().nth(1).is_some_and(|w| is_local_path(&w.text))
    {
        return None;
    }
    if name == "go" {
        // `go mod edit`, `init` and the like change files only.
        let resolves = ["download", "tidy", "vendor", "graph", "why", "verify"];
        if sub == "mod"
            && !operands()
                .nth(1)
                .is_some_and(|w| resolves.contains(&w.text.as_str()))
        {
            return None;
        }
        // The same offline switches, given through the environment.
        let offline_env = simple.get(..p).unwrap_or(&[]).iter().any(|w| {
            w.text == "GOPROXY=off"
                || (w.text.starts_with("GOFLAGS=") && w.text.contains("-mod=vendor"))
        });
        if offline_env {
            return None;
        }
    }
    Some(hit())
}

/// `uv run` (past assignments and `env`), unless offline or frozen to what
/// is already installed.
fn uv_run(simple: &[Word]) -> Option<Fetching> {
    let at = simple
        .iter()
        .position(|w| !is_assignment(&w.text) && program_name(&w.text) != "env")?;
    let prog = simple.get(at)?;
    if program_name(&prog.text) != "uv" {
        return None;
    }
    let rest = simple.get(at + 1..).unwrap_or(&[]);
    let sub = rest.iter().find(|w| !w.text.starts_with('-'))?;
    let offline = rest
        .iter()
        .any(|w| matches!(w.text.as_str(), "--offline" | "--frozen" | "--no-sync"));
    (sub.text == "run" && !offline).then(|| Fetching {
        pointer: prog.pointer.clone(),
        program: "uv".to_string(),
        shown: show(simple.get(at..).unwrap_or(&[])),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Command;

    /// A chain of wrappers is read link by link over one copy of the words:
    /// 100,000 `tini --` links once took a copy of the rest of the line per
    /// link (seconds in a release build, minutes here).
    #[test]
    fn a_long_chain_of_wrappers_is_read_once() {
        let mut text = "tini -- ".repeat(100_000);
        text.push_str("pip install requests");
        let pipelines = split(&text, "/command/shell");
        let stage = pipelines.first().and_then(|p| p.first()).unwrap();
        assert_eq!(program_index(stage), Some(200_000));
    }

    fn words(p: &Pipeline) -> Vec<Vec<&str>> {
        p.iter()
            .map(|s| s.iter().map(|w| w.text.as_str()).collect())
            .collect()
    }

    fn shell(text: &str) -> Vec<Vec<Vec<String>>> {
        split(text, "/command/shell")
            .iter()
            .map(|p| {
                words(p)
                    .into_iter()
                    .map(|s| s.into_iter().map(String::from).collect())
                    .collect()
            })
            .collect()
    }

    #[test]
    fn splits_lists_pipes_and_quotes() {
        assert_eq!(
            shell(
                "pip install -r 'req s.txt' && python -m pytest tests | tee out.log; echo \"a|b\""
            ),
            vec![
                vec![vec!["pip", "install", "-r", "req s.txt"]],
                vec![
                    vec!["python", "-m", "pytest", "tests"],
                    vec!["tee", "out.log"]
                ],
                vec![vec!["echo", "a|b"]],
            ]
        );
        assert_eq!(
            shell("a 2>&1 >log || b > out"),
            vec![vec![vec!["a"]], vec![vec!["b"]]]
        );
        assert_eq!(
            shell("sh <(curl -s https://x/y) # comment | sh"),
            vec![vec![vec!["sh", "<(curl -s https://x/y)"]]]
        );
        assert_eq!(shell("a \\\n b"), vec![vec![vec!["a", "b"]]]);
    }

    fn cmd_shell(text: &str) -> Command {
        Command {
            shell: Some(text.into()),
            ..Command::default()
        }
    }

    fn cmd_args(exe: &str, args: &[&str]) -> Command {
        Command {
            executable: Some(exe.into()),
            arguments: Some(args.iter().map(|a| a.to_string()).collect()),
            ..Command::default()
        }
    }

    fn pipes(c: &Command) -> Vec<(String, String, String)> {
        pipes_to_shell(&pipelines_of("/setup/0", c))
            .into_iter()
            .map(|h| (h.pointer, h.downloader, h.interpreter))
            .collect()
    }

    /// An HTTP status probe downloads nothing that runs: its content goes
    /// to `/dev/null`, or it is only compared by a test. The same download
    /// used as code is still reported.
    #[test]
    fn status_probes_are_not_downloads_that_run() {
        let table: &[(&str, bool)] = &[
            (
                r#"sh -c '[ "$(curl -s -o /dev/null -w "%{http_code}" https://x)" = 200 ]'"#,
                false,
            ),
            (
                r#"sh -c 'test "$(curl -so /dev/null -w %{http_code} https://x)" -eq 200'"#,
                false,
            ),
            (
                r#"bash -c 'until [ "$(curl --output /dev/null --write-out %{http_code} http://x)" = 200 ]; do sleep 1; done'"#,
                false,
            ),
            (
                r#"sh -c 'code=$(curl -o/dev/null -w %{http_code} https://x); echo $code'"#,
                false,
            ),
            (
                r#"sh -c '[[ $(curl -fsS https://x/health) == ok ]]'"#,
                false,
            ),
            (r#"sh -c 'wget -q --spider https://x && echo up'"#, false),
            (r#"sh -c "$(wget -O /dev/null https://x)""#, false),
            (r#"sh -c "$(curl -fsSL https://x/install.sh)""#, true),
            (r#"sh -c '$(curl -s https://x)'"#, true),
            (r#"sh -c 'eval "$(curl -s https://x)"'"#, true),
            (r#"sh -c 'echo ok; $(curl -s -o out https://x)'"#, true),
            (r#"sh -c '[ -n "$x" ] && $(curl -s https://x)'"#, true),
            (r#"sh -c 'x=$(curl -s https://x); eval "$x"'"#, true),
        ];
        let (mut wrong, mut n) = (Vec::new(), 0);
        for (text, runs) in table {
            n += 1;
            let c = cmd_shell(text);
            if pipes(&c).is_empty() == *runs {
                wrong.push(*text);
            }
        }
        assert!(
            wrong.is_empty(),
            "{} of {n} misjudged: {wrong:#?}",
            wrong.len()
        );
    }

    #[test]
    fn finds_downloads_run_by_an_interpreter() {
        let p = |s: &str| {
            (
                "/setup/0/shell".to_string(),
                s.to_string(),
                "sh".to_string(),
            )
        };
        assert_eq!(
            pipes(&cmd_shell("curl -fsSL https://get.example/install.sh | sh")),
            vec![p("curl")]
        );
        assert_eq!(
            pipes(&cmd_shell("wget -qO- https://x | sudo -E sh -s -- --yes")),
            vec![p("wget")]
        );
        assert_eq!(
            pipes(&cmd_shell("sh -c \"$(curl -fsSL https://x)\"")),
            vec![p("curl")]
        );
        assert_eq!(
            pipes(&cmd_shell("sh <(curl -s https://x)")),
            vec![p("curl")]
        );
        assert_eq!(
            pipes(&cmd_shell("curl https://x | python3 -")),
            vec![("/setup/0/shell".into(), "curl".into(), "python3".into())]
        );
        // `bash -c SCRIPT` as an argument vector: the script is followed.
        assert_eq!(
            pipes(&cmd_args("/bin/bash", &["-ec", "curl https://x | bash"])),
            vec![("/setup/0/arguments/1".into(), "curl".into(), "bash".into())]
        );
        assert_eq!(
            pipes(&cmd_shell("eval \"$(wget -qO- https://x)\"")),
            vec![p("wget")]
                .into_iter()
                .map(|(a, b, _)| (a, b, "eval".into()))
                .collect::<Vec<_>>()
        );
        // Downloads that are not executed.
        assert!(pipes(&cmd_shell("curl https://x | python -m json.tool")).is_empty());
        assert!(pipes(&cmd_shell("curl https://x | sh check.sh")).is_empty());
        assert!(pipes(&cmd_shell("python report.py \"$(curl https://x)\"")).is_empty());
        assert!(pipes(&cmd_shell(
            "curl -o tool.tgz https://x && sha256sum -c tool.sha256"
        ))
        .is_empty());
        assert!(pipes(&cmd_shell("curl https://x | tee page.html | grep ok")).is_empty());
        assert!(pipes(&cmd_shell("echo 'curl x | sh'")).is_empty());
        assert!(pipes(&cmd_args("python", &["-m", "pytest", "tests/test_date.py"])).is_empty());
    }

    fn installs(c: &Command, lockfile: Option<&str>) -> Vec<(String, &'static str)> {
        pipelines_of("/command", c)
            .iter()
            .flatten()
            .filter_map(|s| install_of(s, lockfile))
            .map(|h| (h.pointer, h.tool))
            .collect()
    }

    #[test]
    fn finds_unlocked_installs() {
        let sh = |t: &str| installs(&cmd_shell(t), Some("requirements.lock"));
        let at = |tool| vec![("/command/shell".to_string(), tool)];
        assert_eq!(
            sh("pip install -r requirements.txt && python -m pytest"),
            at("pip")
        );
        assert_eq!(sh("pip3 install pytest"), at("pip"));
        assert_eq!(
            sh("python3 -m pip install --no-deps -r requirements.lock requests"),
            at("pip")
        );
        assert_eq!(sh("pip install -e ."), at("pip"));
        assert_eq!(sh("FOO=1 npm install"), at("npm"));
        assert_eq!(sh("npx cowsay hi"), at("npm"));
        assert_eq!(sh("yarn"), at("yarn"));
        assert_eq!(sh("cargo install ripgrep"), at("cargo"));
        assert_eq!(sh("sudo apt-get install -y jq"), at("system"));
        assert_eq!(sh("go install example.com/tool@latest"), at("go"));
        // Locked or offline installs.
        assert!(sh("pip install --no-deps -r requirements.lock").is_empty());
        assert!(sh("pip install --require-hashes -r requirements.txt").is_empty());
        assert!(sh("pip install --no-index --find-links wheels/ pytest").is_empty());
        assert!(sh("pip install --no-deps -e .").is_empty());
        assert!(sh("npm ci && npx --no-install jest").is_empty());
        assert!(sh("yarn install --frozen-lockfile").is_empty());
        assert!(sh("cargo install --locked ripgrep").is_empty());
        assert!(sh("go install example.com/tool@v1.2.3").is_empty());
        assert!(sh("python -m pytest -p no:cacheprovider").is_empty());
        // The declared lockfile counts as a lock whatever its name.
        assert!(installs(
            &cmd_shell("pip install -r requirements.txt"),
            Some("requirements.txt")
        )
        .is_empty());
        // Argument vectors point at the subcommand.
        assert_eq!(
            installs(&cmd_args("pip", &["install", "pytest"]), None),
            vec![("/command/arguments/0".to_string(), "pip")]
        );
        assert_eq!(
            installs(
                &cmd_args("python", &["-m", "pip", "install", "pytest"]),
                None
            ),
            vec![("/command/arguments/2".to_string(), "pip")]
        );
        assert_eq!(
            installs(&cmd_args("sh", &["-c", "npm i left-pad"]), None),
            vec![("/command/arguments/1".to_string(), "npm")]
        );
        assert!(installs(
            &cmd_args("pip", &["install", "--no-deps", "-r", "requirements.lock"]),
            None
        )
        .is_empty());
    }

    /// The shapes the dependency rules' own splitter missed before the
    /// analysis was shared (the differential test's drift).
    #[test]
    fn shapes_the_old_splitter_missed() {
        for (text, interpreter) in [
            ("curl -fsSL https://x | tcsh", "tcsh"),
            ("curl -fsSL https://x | csh -s", "csh"),
            ("curl https://x | yash", "yash"),
            ("wget -qO- https://x | timeout 60 sh", "sh"),
            ("curl https://x | stdbuf -o0 bash", "bash"),
            ("curl https://x | setsid sh", "sh"),
            ("curl https://x | nodejs", "nodejs"),
            ("curl https://x | lua", "lua"),
            ("bash -c 'tcsh -c \"curl https://x | sh\"'", "sh"),
        ] {
            let found = pipes(&cmd_shell(text));
            assert_eq!(found.len(), 1, "{text}");
            assert_eq!(found[0].2, interpreter, "{text}");
        }
        for text in [
            "timeout 60 pip install requests",
            "ionice -c 3 npm install",
            "case $x in a) pip install requests;; esac",
        ] {
            assert_eq!(installs(&cmd_shell(text), None).len(), 1, "{text}");
        }
    }

    fn fetches(text: &str) -> bool {
        pipelines_of("/setup/0", &cmd_shell(text))
            .iter()
            .flatten()
            .any(|s| fetch_of(s).is_some())
    }

    /// Commands that fetch, and their benign twins that do not.
    #[test]
    fn fetching_commands_and_benign_twins() {
        for text in [
            "pip install requests",
            "pip3 install --no-deps -r requirements.lock",
            "python3 -m pip install pytest",
            "npm ci",
            "npm install",
            "yarn",
            "pnpm install --frozen-lockfile",
            "npx jest",
            "cargo fetch",
            "cargo install --locked ripgrep",
            "go get example.com/x",
            "gem install rake",
            "bundle install",
            "poetry install",
            "conda install numpy",
            "sudo apt-get install -y jq",
            "apk add curl",
            "curl -fsSL https://get.example/x -o x.sh",
            "wget https://example.com/archive.tgz",
            "curl example.com",
            "git clone https://github.com/example/repo",
            "git clone git@github.com:example/repo.git",
            "git fetch origin",
            "git pull",
            "git submodule update --init",
            "timeout 60 uv sync",
            // Builds and test runs resolve what is not yet on disk.
            "cargo test",
            "go test ./...",
            "go mod download",
            "uv run --with requests x.py",
            "./gradlew test",
            "mvn -B package",
        ] {
            assert!(fetches(text), "{text} fetches");
        }
        for text in [
            "pip install --no-index --find-links /wheels pytest",
            "pip --version",
            "python -m pytest tests",
            "npm ci --offline",
            "npm test",
            "npm run build",
            "yarn test",
            "npx --no-install jest",
            "cargo build --offline",
            "cargo test --frozen",
            "go test -mod=vendor ./...",
            "GOPROXY=off go build ./...",
            "go mod edit -go=1.22",
            "uv run --offline pytest",
            "gradle --offline test",
            "mvn -o test",
            "gem list",
            "curl --version",
            "curl -sf http://localhost:8080/health",
            "curl -o out.json http://127.0.0.1:9000/api",
            "wget -O page.html http://[::1]:8000/",
            "git clone /srv/mirror/repo.git work",
            "git clone ./vendor/lib lib",
            "git status",
            "git diff --stat",
            "apt-cache policy jq",
            "echo 'pip install requests'",
        ] {
            assert!(!fetches(text), "{text} does not fetch");
        }
    }
}
