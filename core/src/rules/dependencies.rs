//! Rules of the `dependencies` area: prepare dependencies before the job in
//! a reviewed, pinned image or artifact; if they must be fetched, fetch them
//! in a separate, controlled stage; keep the exact inputs; and do not read a
//! lockfile as a verdict on the packages it names.

use super::{Ctx, Emitter, Rule};
use crate::finding::{Area, CheckKind, Severity};
use crate::model::{BoundaryKind, Dependencies, Egress, FetchStage, PreparedIn, StringEnum};

fn deps<'a>(ctx: &Ctx<'a>) -> Option<&'a Dependencies> {
    ctx.profile.dependencies.as_ref()
}

/// The fetch stage, when one is declared.
fn fetch_stage<'a>(ctx: &Ctx<'a>) -> Option<&'a FetchStage> {
    deps(ctx).and_then(|d| d.fetch_stage.as_ref())
}

fn prepared_in(ctx: &Ctx<'_>) -> Option<PreparedIn> {
    deps(ctx).and_then(|d| d.prepared_in)
}

// ---------------------------------------------------------------------------
// Fetching

/// The test stage's declared egress, if any.
fn test_egress(ctx: &Ctx<'_>) -> Option<Egress> {
    ctx.profile.network.as_ref().and_then(|n| n.egress)
}

fn runtime_fetch_network(ctx: &Ctx<'_>, e: &mut Emitter) {
    if prepared_in(ctx) != Some(PreparedIn::RuntimeFetch) {
        return;
    }
    let separate = fetch_stage(ctx).and_then(|f| f.separate) == Some(true);
    let egress = test_egress(ctx);
    let message = match egress {
        None => "dependencies are fetched at run time and the tests' egress is not declared, so the tests may keep the network the fetch needed",
        Some(Egress::AllowAll) => "dependencies are fetched at run time and the tests may reach any destination: they keep far more network than the fetch needed",
        // Without a separate stage the allow list must let the fetch
        // through, so the tests can reach the registries too.
        Some(Egress::AllowList) if !separate => "dependencies are fetched at run time by the stage that runs the tests, so its allow list opens the package registries to every test",
        _ => return,
    };
    e.emit("/dependencies/prepared_in", message)
        .evidence("prepared_in", "runtime-fetch")
        .evidence("egress", egress.map_or("undeclared", |g| g.as_str()))
        .evidence("separate_fetch_stage", separate);
}

fn fetch_not_separate(ctx: &Ctx<'_>, e: &mut Emitter) {
    if prepared_in(ctx) != Some(PreparedIn::RuntimeFetch) {
        return;
    }
    let pointer = "/dependencies/fetch_stage/separate";
    let d = match fetch_stage(ctx).and_then(|f| f.separate) {
        Some(true) => return,
        None => e.undeclared(ctx, pointer, "dependencies fetched at run time are fetched by the job itself, in the stage that runs the tests"),
        Some(false) => e.emit(pointer, "dependencies are fetched at run time in the stage that runs the tests, with its credentials and its network"),
    };
    d.evidence("prepared_in", "runtime-fetch");
    if test_egress(ctx) == Some(Egress::Deny) {
        // If the deny holds nothing is inherited: the declaration is
        // contradictory rather than open.
        d.severity(Severity::Medium);
        d.message
            .push_str("; with egress denied, either the fetch fails or the deny is not what runs");
    }
}

fn preparation_undeclared(ctx: &Ctx<'_>, e: &mut Emitter) {
    if prepared_in(ctx).is_none() {
        e.undeclared(
            ctx,
            "/dependencies/prepared_in",
            "nothing says whether dependencies come from a reviewed image or artifact or are fetched while the tests run",
        );
    }
}

/// Credentials that only the fetch stage holds.
const FETCH_ONLY_CREDENTIALS: [&str; 2] = ["fetch-only", "none"];

fn fetch_credentials_shared(ctx: &Ctx<'_>, e: &mut Emitter) {
    let Some(stage) = fetch_stage(ctx) else {
        return;
    };
    let pointer = "/dependencies/fetch_stage/credentials";
    match stage.credentials.as_deref().map(str::trim) {
        None => {
            e.undeclared(ctx, pointer, "the fetch stage may run with the job's own credentials, or hand its registry token to the tests")
                .severity(Severity::Medium);
        }
        Some(c)
            if FETCH_ONLY_CREDENTIALS
                .iter()
                .any(|ok| c.eq_ignore_ascii_case(ok)) => {}
        Some(_) => {
            // The value is not echoed: it sits under a credentials key and
            // may be mistaken for, or be, a secret.
            e.emit(
                pointer,
                "the fetch stage's credentials are not `fetch-only`: the registry token and the job's own identity can reach each other's stage",
            );
        }
    }
}

/// Cache policies under which the job cannot change what later jobs install.
const SAFE_CACHE: [&str; 6] = [
    "read-only",
    "none",
    "disabled",
    "off",
    "ephemeral",
    "per-job",
];

fn cache_writable(ctx: &Ctx<'_>, e: &mut Emitter) {
    let Some(stage) = fetch_stage(ctx) else {
        return;
    };
    let pointer = "/dependencies/fetch_stage/cache";
    let Some(cache) = stage.cache.as_deref().map(str::trim) else {
        e.undeclared(
            ctx,
            pointer,
            "the dependency cache may be writable by the job and shared with later jobs",
        )
        .severity(Severity::Medium);
        return;
    };
    let lower = cache.to_ascii_lowercase();
    if SAFE_CACHE.contains(&lower.as_str()) {
        return;
    }
    let writable =
        lower.contains("write") || lower.contains("writable") || lower == "rw" || lower == "shared";
    let d = if writable {
        e.emit(
            pointer,
            format!("the dependency cache is `{cache}`: a job that can write it can plant packages that later jobs install"),
        )
    } else {
        e.emit(
            pointer,
            format!("`{cache}` is not a cache policy isolint recognizes; it cannot tell whether the job can write the shared cache"),
        )
    };
    d.evidence("cache", cache);
    if !writable {
        d.severity(Severity::Medium);
    }
}

fn fetch_network_open(ctx: &Ctx<'_>, e: &mut Emitter) {
    let Some(stage) = fetch_stage(ctx) else {
        return;
    };
    let pointer = "/dependencies/fetch_stage/network";
    match stage.network {
        None => {
            e.undeclared(
                ctx,
                pointer,
                "the fetch stage, which runs install hooks, may reach any destination",
            );
        }
        Some(Egress::AllowAll) => {
            e.emit(
                pointer,
                "the fetch stage may reach any destination, though it needs only its package registries",
            )
            .evidence("network", "allow-all");
        }
        Some(_) => {}
    }
}

// ---------------------------------------------------------------------------
// Image

/// Whether `image` names its content by digest (`…@sha256:<64 hex>` or
/// `…@sha512:<128 hex>`, lowercase as OCI requires).
fn pinned_by_digest(image: &str) -> bool {
    let Some((name, digest)) = image.rsplit_once('@') else {
        return false;
    };
    let hex_ok = |s: &str, n: usize| {
        s.len() == n
            && s.bytes()
                .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
    };
    !name.is_empty()
        && match digest.split_once(':') {
            Some(("sha256", h)) => hex_ok(h, 64),
            Some(("sha512", h)) => hex_ok(h, 128),
            _ => false,
        }
}

/// The tag of an image reference, if it has one (a `:` after the last `/`,
/// so a registry port is not taken for a tag).
fn image_tag(image: &str) -> Option<&str> {
    let name = image.split_once('@').map_or(image, |(n, _)| n);
    let last = name.rsplit('/').next().unwrap_or(name);
    last.split_once(':').map(|(_, t)| t)
}

fn image_not_pinned(ctx: &Ctx<'_>, e: &mut Emitter) {
    let pointer = "/dependencies/image";
    match deps(ctx).and_then(|d| d.image.as_deref()) {
        Some(image) if pinned_by_digest(image) => {}
        Some(image) => {
            let why = if image.contains('@') {
                "its digest is not a well-formed `sha256:` or `sha512:` digest".to_string()
            } else {
                match image_tag(image) {
                    None => "without a tag or digest it means `latest`, whatever that is when the job starts".to_string(),
                    Some("latest") => "`latest` moves with every push".to_string(),
                    Some(t) => format!("the tag `{t}` can be moved to other content"),
                }
            };
            e.emit(
                pointer,
                format!("image `{image}` is not pinned by digest: {why}, so the image that runs may not be the one reviewed and checked"),
            )
            .evidence("image", image)
            .evidence("tag", image_tag(image).unwrap_or(""));
        }
        None => {
            let kind = ctx.profile.boundary.as_ref().and_then(|b| b.kind);
            let prepared = prepared_in(ctx);
            if kind == Some(BoundaryKind::Process) && prepared != Some(PreparedIn::Image) {
                return; // a bare process runs in no image
            }
            if prepared == Some(PreparedIn::Image) {
                e.undeclared(ctx, pointer, "the reviewed image the dependencies are said to be prepared in cannot be identified, and no runtime check can be tied to it");
            } else {
                e.undeclared(ctx, pointer, "the job runs in whatever image the runner defaults to, and no runtime check can be tied to it")
                    .severity(Severity::Medium);
            }
        }
    }
}

// ---------------------------------------------------------------------------
// Lockfile, review, inputs

/// Files that list dependencies without pinning what they resolve to.
const MANIFESTS: [&str; 11] = [
    "package.json",
    "pyproject.toml",
    "setup.py",
    "setup.cfg",
    "pipfile",
    "cargo.toml",
    "gemfile",
    "go.mod",
    "composer.json",
    "pom.xml",
    "build.gradle",
];

fn basename(path: &str) -> &str {
    path.rsplit(['/', '\\']).next().unwrap_or(path)
}

fn no_lockfile(ctx: &Ctx<'_>, e: &mut Emitter) {
    let pointer = "/dependencies/lockfile";
    match deps(ctx).and_then(|d| d.lockfile.as_deref()).map(str::trim) {
        None => {
            e.undeclared(
                ctx,
                pointer,
                "the versions the job installs can change between runs without review",
            );
        }
        Some("") => {
            e.emit(pointer, "`dependencies.lockfile` is empty, so the installed versions can change between runs");
        }
        Some(f) if MANIFESTS.contains(&basename(f).to_ascii_lowercase().as_str()) => {
            e.emit(
                pointer,
                format!("`{f}` is a manifest, not a lockfile: it names dependencies but not the exact versions and hashes they resolve to"),
            )
            .evidence("lockfile", f);
        }
        Some(_) => {}
    }
}

fn hooks_unreviewed(ctx: &Ctx<'_>, e: &mut Emitter) {
    e.unless_true(
        ctx,
        "/dependencies/install_hooks_reviewed",
        deps(ctx).and_then(|d| d.install_hooks_reviewed),
        "nobody vouches for the install hooks and transitive dependencies; a lockfile pins versions, not trust",
    );
}

fn inputs_not_preserved(ctx: &Ctx<'_>, e: &mut Emitter) {
    e.unless_true(
        ctx,
        "/dependencies/preserve_inputs",
        deps(ctx).and_then(|d| d.preserve_inputs),
        "the exact inputs given to the test runner may be lost, and a result cannot be traced to what produced it",
    );
}

// ---------------------------------------------------------------------------
// Commands that fetch code: a small shell word splitter, enough to find
// installers and pipes into interpreters. It is not a shell: it errs on the
// side of reading text as words, and never executes anything.

/// A word of a command and the pointer of the field it came from.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Word {
    text: String,
    pointer: String,
}

/// One simple command: its words, redirections removed.
type Simple = Vec<Word>;
/// Simple commands joined by `|`.
type Pipeline = Vec<Simple>;
/// Every pipeline of one command (see [`pipelines_of`]).
pub(crate) type Pipelines = Vec<Pipeline>;

/// The pipelines of each of the profile's commands, split once for all
/// the rules that read them.
fn command_pipelines<'c>(ctx: &'c Ctx<'_>) -> &'c [Pipelines] {
    ctx.pipelines.get_or_init(|| {
        ctx.profile
            .commands()
            .into_iter()
            .map(|(base, cmd)| pipelines_of(&base, cmd))
            .collect()
    })
}

/// How deep `sh -c '…'` is followed.
const MAX_NESTING: usize = 3;

#[derive(Default)]
struct Splitter {
    pointer: String,
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
fn pipelines_of(base: &str, cmd: &crate::model::Command) -> Vec<Pipeline> {
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
struct PipeToShell {
    pointer: String,
    downloader: String,
    interpreter: String,
    shown: String,
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

fn pipes_to_shell(pipelines: &[Pipeline]) -> Vec<PipeToShell> {
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

fn remote_script(ctx: &Ctx<'_>, e: &mut Emitter) {
    for pipelines in command_pipelines(ctx) {
        for hit in pipes_to_shell(pipelines) {
            e.emit(
                hit.pointer,
                format!(
                    "`{}` runs whatever `{}` downloads, unreviewed and unpinned, with the job's access",
                    hit.shown, hit.downloader
                ),
            )
            .evidence("downloader", hit.downloader)
            .evidence("interpreter", hit.interpreter);
        }
    }
}

/// An install that fetches from the network without a lock.
#[derive(Debug, PartialEq)]
struct UnlockedInstall {
    pointer: String,
    tool: &'static str,
    why: String,
    shown: String,
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

fn install_of(simple: &[Word], lockfile: Option<&str>) -> Option<UnlockedInstall> {
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

fn unlocked_install(ctx: &Ctx<'_>, e: &mut Emitter) {
    let lockfile = deps(ctx).and_then(|d| d.lockfile.as_deref());
    for pipelines in command_pipelines(ctx) {
        for simple in pipelines.iter().flatten() {
            if let Some(hit) = install_of(simple, lockfile) {
                e.emit(
                    hit.pointer,
                    format!(
                        "`{}` installs from the network without a lock: {}",
                        hit.shown, hit.why
                    ),
                )
                .evidence("tool", hit.tool)
                .evidence(
                    "prepared_in",
                    prepared_in(ctx).map_or("undeclared", |p| p.as_str()),
                );
            }
        }
    }
}

pub const RULES: &[Rule] = &[
    Rule {
        id: "DEP001",
        name: "runtime-fetch-network-inherited",
        area: Area::Dependencies,
        severity: Severity::High,
        title: "tests inherit the network that a run-time fetch needed",
        rationale: "A job that downloads dependencies as it runs needs network access, and unless the tests run in a stage with egress denied (or limited to what the tests themselves need), every test, hook and child process keeps that access. An offline test stage is what makes a fetched dependency unable to call home.",
        remediation: "Prepare dependencies in a reviewed image or artifact (`dependencies.prepared_in`), or fetch in a separate stage and run the tests with `network.egress` `deny`.",
        runtime_check: Some(CheckKind::EgressDenied),
        check: runtime_fetch_network,
    },
    Rule {
        id: "DEP002",
        name: "fetch-not-separated",
        area: Area::Dependencies,
        severity: Severity::High,
        title: "the run-time fetch is not separated from test execution",
        rationale: "Fetching and executing have different needs: the fetch needs a registry and its token, the tests need neither. In one stage, both are available to all the code that runs, including install hooks and the tests. (Reported at medium when egress is denied: the profile then contradicts itself rather than opening anything.)",
        remediation: "Set `dependencies.fetch_stage.separate` to `true` and run the fetch before, and apart from, the tests, handing over only the fetched files.",
        runtime_check: None,
        check: fetch_not_separate,
    },
    Rule {
        id: "DEP003",
        name: "fetch-stage-shares-credentials",
        area: Area::Dependencies,
        severity: Severity::High,
        title: "the fetch stage does not hold credentials of its own",
        rationale: "Registry credentials are for fetching; the job's task credentials are for the job. If one stage holds both, an install hook can use the job's identity, or a test can read the registry token. A declared fetch stage with no declared credential policy is reported at medium.",
        remediation: "Give the fetch stage its own narrow credentials: `dependencies.fetch_stage.credentials` `fetch-only` (or `none` for a public mirror).",
        runtime_check: None,
        check: fetch_credentials_shared,
    },
    Rule {
        id: "DEP004",
        name: "dependency-cache-writable",
        area: Area::Dependencies,
        severity: Severity::High,
        title: "a dependency cache the job can write",
        rationale: "The fetch stage's `cache` is the cache policy as the job sees it. A cache that a job can write survives the job: hostile code can replace a package there, and every later job that installs from the cache runs it. An undeclared or unrecognized policy is reported at medium.",
        remediation: "Set `dependencies.fetch_stage.cache` to `read-only` (populated only by the fetch stage) or `none`.",
        runtime_check: Some(CheckKind::WriteDenied),
        check: cache_writable,
    },
    Rule {
        id: "DEP005",
        name: "fetch-stage-network-open",
        area: Area::Dependencies,
        severity: Severity::Medium,
        title: "a fetch stage that may reach any destination",
        rationale: "Fetching runs package install hooks, which are code. A controlled fetch stage reaches its package registries and nothing else, so a hook cannot send data elsewhere or pull in a second payload.",
        remediation: "Set `dependencies.fetch_stage.network` to `allow-list` and name the registries in the runner's policy.",
        runtime_check: Some(CheckKind::EgressDenied),
        check: fetch_network_open,
    },
    Rule {
        id: "DEP006",
        name: "image-not-pinned",
        area: Area::Dependencies,
        severity: Severity::High,
        title: "the job's image is not pinned by digest",
        rationale: "A tag such as `python:3.12` or `latest` can be pointed at different content at any time, so the image that runs may not be the one that was reviewed, and the runtime checks tied to it no longer apply. A missing image is reported too (high when dependencies are said to be prepared in it, medium otherwise).",
        remediation: "Name the image by digest: `registry.example/runner@sha256:<64 hex digits>`, and re-run the runtime checks whenever the digest changes.",
        runtime_check: None,
        check: image_not_pinned,
    },
    Rule {
        id: "DEP007",
        name: "no-lockfile",
        area: Area::Dependencies,
        severity: Severity::Medium,
        title: "no lockfile pins the dependency versions",
        rationale: "Without a lockfile the versions installed depend on what the index serves that day, so two runs of the same job can execute different code. A manifest such as `package.json` or `pyproject.toml` names dependencies but does not pin them.",
        remediation: "Commit a lockfile with exact versions and hashes (e.g. `requirements.lock` from pip-compile `--generate-hashes`, `package-lock.json`, `Cargo.lock`) and name it in `dependencies.lockfile`.",
        runtime_check: None,
        check: no_lockfile,
    },
    Rule {
        id: "DEP008",
        name: "dependencies-unreviewed",
        area: Area::Dependencies,
        severity: Severity::Medium,
        title: "install hooks and transitive dependencies not reviewed",
        rationale: "A lockfile fixes which versions are installed; it says nothing about whether they are trustworthy. Install hooks run code at install time, and transitive dependencies arrive without anyone choosing them; both need review in proportion to the risk.",
        remediation: "Review install hooks and transitive dependencies (or disable hooks where the ecosystem allows), then set `dependencies.install_hooks_reviewed` to `true`.",
        runtime_check: None,
        check: hooks_unreviewed,
    },
    Rule {
        id: "DEP009",
        name: "inputs-not-preserved",
        area: Area::Dependencies,
        severity: Severity::Medium,
        title: "the exact inputs of the run are not preserved",
        rationale: "To diagnose a result, or to connect it later to a released artifact, you need the exact files, image and dependencies the test runner received. Without them a run cannot be reproduced or audited.",
        remediation: "Keep the exact inputs (snapshot digest, image digest, lockfile) with protected metadata and set `dependencies.preserve_inputs` to `true`.",
        runtime_check: None,
        check: inputs_not_preserved,
    },
    Rule {
        id: "DEP010",
        name: "remote-script-piped-to-interpreter",
        area: Area::Dependencies,
        severity: Severity::High,
        title: "a downloaded script run directly by an interpreter",
        rationale: "`curl … | sh` and its relatives execute whatever the server returns at that moment, with no pin, no review and the job's full access; a compromised or redirected download runs as the job.",
        remediation: "Download the script during image preparation, pin it by hash, review it, and run the pinned copy; or install the tool from a locked package.",
        runtime_check: None,
        check: remote_script,
    },
    Rule {
        id: "DEP011",
        name: "unlocked-install",
        area: Area::Dependencies,
        severity: Severity::Medium,
        title: "a command installs packages from the network without a lock",
        rationale: "A setup step or test command that runs `pip install pkg`, `npm install` or an unlocked tool install resolves versions at run time, so the code under test changes with the index, and the step needs network access while it runs.",
        remediation: "Install from a lockfile with hashes (`pip install --require-hashes -r requirements.lock`, `npm ci`, `cargo install --locked`), or better, prepare dependencies in the image.",
        runtime_check: None,
        check: unlocked_install,
    },
    Rule {
        id: "DEP012",
        name: "dependency-source-undeclared",
        area: Area::Dependencies,
        severity: Severity::Medium,
        title: "where dependencies come from is not declared",
        rationale: "A job whose dependencies are neither in a named image or artifact nor fetched by a declared stage usually installs them itself, from the network, as it runs. The review cannot tell what code will be installed, or with which access.",
        remediation: "Set `dependencies.prepared_in` to `image` or `artifact` (preferred for offline jobs), or to `runtime-fetch` with a separate fetch stage.",
        runtime_check: None,
        check: preparation_undeclared,
    },
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Command;

    fn words(p: &Pipeline) -> Vec<Vec<&str>> {
        p.iter()
            .map(|s| s.iter().map(|w| w.text.as_str()).collect())
            .collect()
    }

    fn shell(text: &str) -> Vec<Vec<Vec<String>>> {
        split_shell(text, "/command/shell")
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
            shell: None,
        }
    }

    fn pipes(c: &Command) -> Vec<(String, String, String)> {
        pipes_to_shell(&pipelines_of("/setup/0", c))
            .into_iter()
            .map(|h| (h.pointer, h.downloader, h.interpreter))
            .collect()
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

    #[test]
    fn digests_and_tags() {
        let hex64 = "4f9c2a1b0d3e5f6a7b8c9d0e1f2a3b4c5d6e7f8a9b0c1d2e3f4a5b6c7d8e9f0a";
        assert!(pinned_by_digest(&format!(
            "registry.example/runner@sha256:{hex64}"
        )));
        assert!(pinned_by_digest(&format!("python:3.12@sha256:{hex64}")));
        assert!(!pinned_by_digest(&format!(
            "python@sha256:{}",
            hex64.to_uppercase()
        )));
        assert!(!pinned_by_digest("python@sha256:abc"));
        assert!(!pinned_by_digest(&format!("@sha256:{hex64}")));
        assert!(!pinned_by_digest("python:3.12"));
        assert_eq!(image_tag("python:3.12"), Some("3.12"));
        assert_eq!(image_tag("registry.example:5000/runner"), None);
        assert_eq!(
            image_tag("registry.example:5000/runner:latest"),
            Some("latest")
        );
        assert_eq!(image_tag("ubuntu"), None);
    }
}
