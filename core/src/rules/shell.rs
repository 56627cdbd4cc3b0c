//! Shell text and argument analysis shared by the command rules.
//!
//! Three pieces:
//! - [`parse`], a conservative tokenizer for `shell` text: quotes, escapes,
//!   control and redirection operators, `$(..)` and backquotes. It is not a
//!   shell; it only has to find the simple commands well enough to look at
//!   their programs and options.
//! - [`metacharacters`], which tells what a shell would act on in a string
//!   that an argument list passes literally.
//! - [`analyze_words`] / [`analyze_script`], which walk one command line
//!   (through wrappers such as `env`, `timeout`, `xargs`, `busybox`, and into
//!   the text given to `sh -c` or `cmd /c`) and report shells told to run
//!   text, options that make a program run code, Windows batch files and
//!   programs named by a relative path.

use std::collections::BTreeSet;

use crate::finding::Severity;

/// Nesting bound for text inside text (`sh -c "sh -c '...'"`, `$(..)`):
/// deeper input is not analysed further rather than recursing without end.
const MAX_DEPTH: u32 = 12;

// ---------------------------------------------------------------- tokenizer

/// One simple command of a shell text.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(super) struct Simple {
    /// Leading `NAME=value` words, which set the program's environment.
    pub assignments: Vec<String>,
    /// The program and its arguments, quotes removed, redirections dropped.
    pub words: Vec<String>,
    /// Whether its standard input is the previous command's output.
    pub piped: bool,
}

/// Operators [`parse`] reports, as written (`newline` for a line break);
/// [`Script::operators`] lists them in this order.
const OPERATORS: &[&str] = &[
    "newline", ";", ";;", "&", "&&", "||", "|", "|&", "(", ")", "<", "<<", "<<-", "<<<", "<&",
    "<>", ">", ">>", ">&", ">|", "&>", "&>>", "$(", "`", "<(", ">(",
];

/// What [`parse`] found in a shell text.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(super) struct Script {
    pub commands: Vec<Simple>,
    /// Bit `i` set: `OPERATORS[i]` occurs.
    operator_bits: u32,
    /// Bodies of `$(..)`, backquotes and `<(..)`.
    pub substitutions: Vec<String>,
    /// Whether the text expands variables (`$NAME`, `${..}`).
    pub expansions: bool,
    /// A quote or substitution was left open.
    pub unterminated: bool,
}

impl Script {
    /// Control and redirection operators found, in a fixed order.
    pub(super) fn operators(&self) -> Vec<&'static str> {
        OPERATORS
            .iter()
            .enumerate()
            .filter(|(i, _)| self.operator_bits & (1 << i) != 0)
            .map(|(_, o)| *o)
            .collect()
    }
    fn note(&mut self, op: &'static str) {
        if let Some(i) = OPERATORS.iter().position(|o| *o == op) {
            self.operator_bits |= 1 << i;
        }
    }
}

/// Words that start or end a compound command; they are not programs.
const KEYWORDS: &[&str] = &[
    "if", "then", "else", "elif", "fi", "do", "done", "while", "until", "!", "{", "}", "esac",
];
/// Compound commands whose header words are not a command line.
const SKIP_HEADERS: &[&str] = &["for", "case", "select", "function"];

/// The tokenizer works on bytes: every byte it acts on is ASCII, and the
/// bytes of other characters are copied through whole, so words stay UTF-8.
struct Parser<'t> {
    bytes: &'t [u8],
    i: usize,
    script: Script,
    word: Option<Vec<u8>>,
    cur: Simple,
    /// The next finished word is a redirection target.
    target_next: bool,
    /// Dropping words until the next control operator (`for x in ...`).
    skipping: bool,
    next_piped: bool,
}

/// Tokenize shell text into simple commands (see module docs).
pub(super) fn parse(text: &str) -> Script {
    let mut p = Parser {
        bytes: text.as_bytes(),
        i: 0,
        script: Script::default(),
        word: None,
        cur: Simple::default(),
        target_next: false,
        skipping: false,
        next_piped: false,
    };
    p.run();
    p.script
}

/// Bytes back to text; the split points are ASCII, so this is lossless for
/// UTF-8 input.
fn text_of(bytes: Vec<u8>) -> String {
    String::from_utf8(bytes).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

impl Parser<'_> {
    fn peek(&self, ahead: usize) -> Option<u8> {
        self.bytes.get(self.i + ahead).copied()
    }

    fn push(&mut self, b: u8) {
        self.word.get_or_insert_with(Vec::new).push(b);
    }

    fn push_all(&mut self, s: &[u8]) {
        self.word.get_or_insert_with(Vec::new).extend_from_slice(s);
    }

    fn run(&mut self) {
        while let Some(c) = self.peek(0) {
            match c {
                b' ' | b'\t' | b'\r' => {
                    self.end_word();
                    self.i += 1;
                }
                b'\n' => {
                    self.i += 1;
                    self.control("newline", false);
                }
                b'#' if self.word.is_none() => {
                    while self.peek(0).is_some_and(|c| c != b'\n') {
                        self.i += 1;
                    }
                }
                b'\'' => {
                    self.i += 1;
                    let rest = self.bytes.get(self.i..).unwrap_or(&[]);
                    let len = rest.iter().position(|&b| b == b'\'');
                    let body = rest.get(..len.unwrap_or(rest.len())).unwrap_or(&[]);
                    self.push_all(body);
                    self.i += body.len();
                    match len {
                        Some(_) => self.i += 1,
                        None => self.script.unterminated = true,
                    }
                }
                b'"' => {
                    self.i += 1;
                    self.word.get_or_insert_with(Vec::new);
                    self.double_quoted();
                }
                b'\\' => {
                    match self.peek(1) {
                        Some(b'\n') => {}
                        Some(n) => self.push(n),
                        None => self.push(b'\\'),
                    }
                    self.i += 2;
                }
                b'$' => self.dollar(),
                b'`' => self.backquote(),
                b';' => {
                    if self.peek(1) == Some(b';') {
                        self.i += 2;
                        self.control(";;", false);
                    } else {
                        self.i += 1;
                        self.control(";", false);
                    }
                }
                b'&' => match self.peek(1) {
                    Some(b'&') => {
                        self.i += 2;
                        self.control("&&", false);
                    }
                    Some(b'>') => {
                        let append = self.peek(2) == Some(b'>');
                        self.i += if append { 3 } else { 2 };
                        self.redirect(if append { "&>>" } else { "&>" });
                    }
                    _ => {
                        self.i += 1;
                        self.control("&", false);
                    }
                },
                b'|' => match self.peek(1) {
                    Some(b'|') => {
                        self.i += 2;
                        self.control("||", false);
                    }
                    Some(b'&') => {
                        self.i += 2;
                        self.control("|&", true);
                    }
                    _ => {
                        self.i += 1;
                        self.control("|", true);
                    }
                },
                b'>' | b'<' if self.peek(1) == Some(b'(') => {
                    self.i += 1;
                    let body = self.balanced();
                    self.script.substitutions.push(body);
                    self.script.note(if c == b'>' { ">(" } else { "<(" });
                    self.push_all(b"<substitution>");
                }
                b'>' => {
                    let op = match self.peek(1) {
                        Some(b'>') => ">>",
                        Some(b'&') => ">&",
                        Some(b'|') => ">|",
                        _ => ">",
                    };
                    self.i += op.len();
                    self.redirect(op);
                }
                b'<' => {
                    let op = match (self.peek(1), self.peek(2)) {
                        (Some(b'<'), Some(b'<')) => "<<<",
                        (Some(b'<'), Some(b'-')) => "<<-",
                        (Some(b'<'), _) => "<<",
                        (Some(b'&'), _) => "<&",
                        (Some(b'>'), _) => "<>",
                        _ => "<",
                    };
                    self.i += op.len();
                    self.redirect(op);
                }
                b'(' | b')' => {
                    self.i += 1;
                    self.control(if c == b'(' { "(" } else { ")" }, false);
                }
                _ => {
                    // Copy a run of ordinary bytes at once.
                    let rest = self.bytes.get(self.i..).unwrap_or(&[]);
                    let n = rest
                        .iter()
                        .position(|b| SPECIAL.contains(b))
                        .unwrap_or(rest.len())
                        .max(1);
                    self.push_all(rest.get(..n).unwrap_or(&[]));
                    self.i += n;
                }
            }
        }
        self.end_word();
        self.finish_command();
    }

    fn double_quoted(&mut self) {
        loop {
            match self.peek(0) {
                None => {
                    self.script.unterminated = true;
                    return;
                }
                Some(b'"') => {
                    self.i += 1;
                    return;
                }
                Some(b'\\') => {
                    match self.peek(1) {
                        Some(n @ (b'$' | b'`' | b'"' | b'\\')) => self.push(n),
                        Some(b'\n') => {}
                        Some(n) => {
                            self.push(b'\\');
                            self.push(n);
                        }
                        None => self.push(b'\\'),
                    }
                    self.i += 2;
                }
                Some(b'$') => self.dollar(),
                Some(b'`') => self.backquote(),
                Some(c) => {
                    self.push(c);
                    self.i += 1;
                }
            }
        }
    }

    /// At `$`: a substitution, an expansion or a literal dollar.
    fn dollar(&mut self) {
        match self.peek(1) {
            Some(b'(') => {
                let arithmetic = self.peek(2) == Some(b'(');
                self.i += 1;
                let body = self.balanced();
                self.push_all(b"$(");
                self.push_all(body.as_bytes());
                self.push(b')');
                if !arithmetic {
                    self.script.substitutions.push(body);
                    self.script.note("$(");
                }
            }
            Some(b'{') => {
                self.script.expansions = true;
                let start = self.i;
                while let Some(c) = self.peek(0) {
                    self.i += 1;
                    if c == b'}' {
                        break;
                    }
                }
                let raw = self.bytes.get(start..self.i).unwrap_or(&[]);
                self.push_all(raw);
            }
            Some(c) if c.is_ascii_alphanumeric() || b"_@*#?$!-".contains(&c) => {
                self.script.expansions = true;
                self.push(b'$');
                self.i += 1;
            }
            _ => {
                self.push(b'$');
                self.i += 1;
            }
        }
    }

    fn backquote(&mut self) {
        self.i += 1;
        let mut body = Vec::new();
        loop {
            match self.peek(0) {
                None => {
                    self.script.unterminated = true;
                    break;
                }
                Some(b'`') => {
                    self.i += 1;
                    break;
                }
                Some(b'\\') => {
                    if let Some(n) = self.peek(1) {
                        body.push(n);
                    }
                    self.i += 2;
                }
                Some(c) => {
                    body.push(c);
                    self.i += 1;
                }
            }
        }
        self.script.note("`");
        self.push(b'`');
        self.push_all(&body);
        self.push(b'`');
        self.script.substitutions.push(text_of(body));
    }

    /// At `(`: the text up to the matching `)`, which is consumed.
    fn balanced(&mut self) -> String {
        self.i += 1;
        let start = self.i;
        let mut depth = 1u32;
        let mut quote: Option<u8> = None;
        while let Some(c) = self.peek(0) {
            self.i += 1;
            match (quote, c) {
                (Some(q), c) if c == q => quote = None,
                (_, b'\\') => self.i += 1,
                (Some(_), _) => {}
                (None, b'\'' | b'"') => quote = Some(c),
                (None, b'(') => depth += 1,
                (None, b')') => {
                    depth -= 1;
                    if depth == 0 {
                        let body = self.bytes.get(start..self.i - 1).unwrap_or(&[]);
                        return text_of(body.to_vec());
                    }
                }
                _ => {}
            }
        }
        self.i = self.i.min(self.bytes.len());
        self.script.unterminated = true;
        text_of(self.bytes.get(start..).unwrap_or(&[]).to_vec())
    }

    fn redirect(&mut self, op: &'static str) {
        // `2>` and `{fd}>`: the digits name a descriptor, not an argument.
        if let Some(w) = &self.word {
            let fd = (!w.is_empty() && w.iter().all(u8::is_ascii_digit))
                || (w.first() == Some(&b'{') && w.last() == Some(&b'}'));
            if fd {
                self.word = None;
            }
        }
        self.end_word();
        self.script.note(op);
        self.target_next = true;
    }

    fn control(&mut self, op: &'static str, pipe: bool) {
        self.end_word();
        self.script.note(op);
        self.finish_command();
        self.skipping = false;
        self.next_piped = pipe;
    }

    fn end_word(&mut self) {
        let Some(w) = self.word.take() else { return };
        if self.target_next {
            self.target_next = false;
            return;
        }
        if self.skipping {
            return;
        }
        let w = text_of(w);
        if self.cur.words.is_empty() {
            if is_assignment(&w) {
                self.cur.assignments.push(w);
                return;
            }
            if KEYWORDS.contains(&w.as_str()) {
                return;
            }
            if SKIP_HEADERS.contains(&w.as_str()) {
                self.skipping = true;
                return;
            }
        }
        self.cur.words.push(w);
    }

    fn finish_command(&mut self) {
        let mut c = std::mem::take(&mut self.cur);
        if !c.words.is_empty() || !c.assignments.is_empty() {
            c.piped = self.next_piped;
            self.script.commands.push(c);
        }
        self.next_piped = false;
    }
}

/// Bytes the tokenizer acts on outside quotes.
const SPECIAL: &[u8] = b" \t\r\n#'\"\\$`;&|<>()";

/// `NAME=value` with a shell variable name.
pub(super) fn is_assignment(word: &str) -> bool {
    match word.split_once('=') {
        Some((name, _)) => is_var_name(name),
        None => false,
    }
}

fn is_var_name(name: &str) -> bool {
    let mut b = name.bytes();
    b.next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == b'_')
        && b.all(|c| c.is_ascii_alphanumeric() || c == b'_')
}

// ------------------------------------------------------- metacharacters

/// Something a shell would act on in a string.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Meta {
    /// `$(..)`, backquotes, `<(..)`: runs another command.
    Substitution,
    /// `;`, `&&`, `||`, a free-standing `&`: runs a further command.
    Chaining,
    /// `|` next to a space or at either end: pipes into another command.
    Pipe,
    /// A line break: a shell reads it as the end of a command.
    Newline,
    /// `>` or `<` at the start of a word: redirects a file.
    Redirection,
    /// `|` inside a word: a pipe to a shell, or a regex alternation.
    InnerBar,
    /// `$NAME`, `${..}`, `%NAME%`, a leading `~`: expanded by a shell.
    Expansion,
    /// `*`: expanded to file names by a shell.
    Glob,
}

impl Meta {
    /// Whether the construct runs further commands (high) rather than only
    /// changing a value (medium).
    pub(super) fn runs_commands(self) -> bool {
        matches!(
            self,
            Meta::Substitution | Meta::Chaining | Meta::Pipe | Meta::Newline | Meta::Redirection
        )
    }
    pub(super) fn as_str(self) -> &'static str {
        match self {
            Meta::Substitution => "command substitution",
            Meta::Chaining => "command chaining",
            Meta::Pipe => "pipe",
            Meta::Newline => "line break",
            Meta::Redirection => "redirection",
            Meta::InnerBar => "`|` inside a word",
            Meta::Expansion => "variable expansion",
            Meta::Glob => "glob",
        }
    }
}

/// What a shell would act on in `arg`. Version specifiers such as
/// `pkg>=1,<2` and URL queries (`?a=1&b=2`) are not reported: their `<`,
/// `>` and `&` are not at a word boundary.
pub(super) fn metacharacters(arg: &str) -> BTreeSet<Meta> {
    let mut found = BTreeSet::new();
    let b = arg.as_bytes();
    let at = |i: usize| b.get(i).copied();
    let boundary_before = |i: usize| i == 0 || at(i - 1).is_some_and(|c| c.is_ascii_whitespace());
    let boundary_after = |i: usize| at(i + 1).is_none_or(|c| c.is_ascii_whitespace());
    let mut i = 0;
    while let Some(c) = at(i) {
        match c {
            b'`' => {
                found.insert(Meta::Substitution);
            }
            b'$' => match at(i + 1) {
                Some(b'(') => {
                    found.insert(Meta::Substitution);
                }
                Some(n)
                    if n == b'{'
                        || n == b'_'
                        || n.is_ascii_alphanumeric()
                        || b"@*#?$!".contains(&n) =>
                {
                    found.insert(Meta::Expansion);
                }
                _ => {}
            },
            b'<' | b'>' if at(i + 1) == Some(b'(') => {
                found.insert(Meta::Substitution);
            }
            b'<' | b'>' => {
                // At a word start, possibly after a descriptor number (`2>`).
                let mut s = i;
                while s > 0 && at(s - 1).is_some_and(|c| c.is_ascii_digit()) {
                    s -= 1;
                }
                if boundary_before(s) {
                    found.insert(Meta::Redirection);
                }
            }
            b';' => {
                found.insert(Meta::Chaining);
            }
            b'&' if at(i + 1) == Some(b'&') => {
                found.insert(Meta::Chaining);
                i += 1;
            }
            b'&' if (boundary_before(i) || boundary_after(i))
                && at(i.wrapping_sub(1)) != Some(b'>') =>
            {
                found.insert(Meta::Chaining);
            }
            b'|' if at(i + 1) == Some(b'|') => {
                found.insert(Meta::Chaining);
                i += 1;
            }
            b'|' if boundary_before(i) || boundary_after(i) => {
                found.insert(Meta::Pipe);
            }
            b'|' => {
                found.insert(Meta::InnerBar);
            }
            b'\n' | b'\r' => {
                found.insert(Meta::Newline);
            }
            b'*' => {
                found.insert(Meta::Glob);
            }
            b'%' => {
                // `%NAME%`, as cmd.exe expands it.
                let rest = arg.get(i + 1..).unwrap_or("");
                if let Some(end) = rest.find('%') {
                    if is_var_name(rest.get(..end).unwrap_or("")) {
                        found.insert(Meta::Expansion);
                    }
                }
            }
            b'~' if i == 0 && (b.len() == 1 || at(1) == Some(b'/')) => {
                found.insert(Meta::Expansion);
            }
            _ => {}
        }
        i += 1;
    }
    found
}

// ------------------------------------------------------------- programs

/// The program a word names: base name, lowercase, without `.exe` and
/// without the trailing dots and spaces Windows ignores.
pub(super) fn program_name(word: &str) -> String {
    let base = word.rsplit(['/', '\\']).next().unwrap_or(word);
    let base = base.trim_end_matches(['.', ' ']).to_ascii_lowercase();
    match base.strip_suffix(".exe") {
        Some(s) => s.to_string(),
        None => base,
    }
}

/// The program's family name, without a version suffix (`python3.12` is
/// `python`, `pip3` is `pip`).
fn stem(name: &str) -> &str {
    name.trim_end_matches(|c: char| c.is_ascii_digit() || c == '.' || c == '-')
}

/// Whether a program name is a Windows batch file.
pub(super) fn is_batch(name: &str) -> bool {
    name.ends_with(".bat") || name.ends_with(".cmd")
}

/// Whether a program word is a relative path (`./x`, `scripts/x`, `~/x`):
/// bare names are looked up on `PATH` instead.
pub(super) fn is_relative_path(word: &str) -> bool {
    let absolute = word.starts_with('/')
        || word.starts_with("\\\\")
        || (word.len() >= 3
            && word.as_bytes().get(1) == Some(&b':')
            && matches!(word.as_bytes().get(2), Some(b'\\' | b'/')));
    !absolute && (word.contains('/') || word.contains('\\') || word.starts_with('~'))
}

/// Shells that run text given on their command line.
const POSIX_SHELLS: &[&str] = &[
    "sh", "bash", "dash", "zsh", "ksh", "mksh", "ash", "fish", "csh", "tcsh", "yash", "rbash",
    "hush",
];

/// Programs whose only argument-less behaviour is reading a program from
/// standard input.
pub(super) fn is_interpreter(name: &str) -> bool {
    let s = stem(name);
    POSIX_SHELLS.contains(&s)
        || matches!(
            s,
            "cmd"
                | "powershell"
                | "pwsh"
                | "python"
                | "pypy"
                | "node"
                | "nodejs"
                | "perl"
                | "ruby"
                | "php"
                | "lua"
                | "luajit"
        )
}

/// Environment variables that make a program load or run code named in
/// their value: the severity and why.
pub(super) fn code_loading_variable(name: &str) -> Option<(Severity, &'static str)> {
    super::codevars::lookup(name).map(|c| (c.severity, c.why))
}

// ------------------------------------------------------------- analysis

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
pub(super) struct Analysis {
    pub hits: Vec<Hit>,
    /// Words consumed as code or shell text by an option (`-c TEXT`), which
    /// the metacharacter check must not read as plain arguments.
    pub payloads: BTreeSet<usize>,
}

/// Walk an argument-list command: `words[0]` is the executable.
pub(super) fn analyze_words(words: &[&str]) -> Analysis {
    let mut w = Walker::default();
    w.words(words, 0, None);
    w.out
}

/// Walk shell text. Every hit has index 0: the caller points at the text.
pub(super) fn analyze_script(text: &str) -> Analysis {
    let mut w = Walker::default();
    w.text(text, 0);
    w.out
}

#[derive(Default)]
struct Walker {
    out: Analysis,
    depth: u32,
}

/// One program with its arguments, and where its words sit in the
/// analysed command line.
#[derive(Clone, Copy)]
struct Call<'a> {
    name: &'a str,
    args: &'a [&'a str],
    /// Global index of `args[0]`.
    base: usize,
    /// Set inside text: every hit goes to this word.
    pin: Option<usize>,
}

impl<'a> Call<'a> {
    fn at(&self, k: usize) -> usize {
        self.pin.unwrap_or(self.base + k)
    }
    fn arg(&self, k: usize) -> Option<&'a str> {
        self.args.get(k).copied()
    }
    fn rest(&self, k: usize) -> &'a [&'a str] {
        self.args.get(k..).unwrap_or(&[])
    }
    /// The value of `--name VALUE` or `--name=VALUE` at `k`, and how many
    /// words the option takes.
    fn value(&self, k: usize, names: &[&str]) -> Option<(Option<&'a str>, usize)> {
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
fn option_of(word: &str) -> String {
    let o = word.split('=').next().unwrap_or(word);
    o.chars().take(40).collect()
}

impl Walker {
    #[allow(clippy::too_many_arguments)]
    fn hit(
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
    fn hit_detail(
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

    fn code(&mut self, c: &Call<'_>, k: usize, option: &str, why: &'static str) {
        self.hit(c, k, HitKind::CodeOption, option, Severity::High, why);
    }

    /// A code option whose value is code or a program: `taken` is 2 when
    /// the value is the next word, 1 when it is glued to the option.
    fn code_value(
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

    fn payload(&mut self, c: &Call<'_>, k: usize) {
        if k < c.args.len() {
            self.out.payloads.insert(c.at(k));
        }
    }

    /// Shell text held by one word (global index `at`).
    fn text(&mut self, text: &str, at: usize) {
        if self.depth >= MAX_DEPTH {
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

    /// `... | sh`: an interpreter whose program arrives through the pipe.
    fn piped_program(&mut self, words: &[&str], at: usize) {
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
        let kind = if POSIX_SHELLS.contains(&stem(&name)) {
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
    fn assignment(&mut self, c: &Call<'_>, k: usize, word: &str) {
        let name = word.split('=').next().unwrap_or("");
        if let Some((sev, why)) = code_loading_variable(name) {
            self.hit(c, k, HitKind::CodeOption, name, sev, why);
            if let Some(h) = self.out.hits.last_mut() {
                h.variable = true;
            }
        }
    }

    /// One command line: `words[0]` is the program, at global index `offset`.
    fn words(&mut self, words: &[&str], offset: usize, pin: Option<usize>) {
        if self.depth >= MAX_DEPTH {
            return;
        }
        let Some(program) = words.first() else { return };
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
        match stem(&name) {
            s if POSIX_SHELLS.contains(&s) => self.posix_shell(&c),
            "cmd" => self.cmd(&c),
            "powershell" => self.powershell(&c, true),
            "pwsh" => self.powershell(&c, false),
            "python" | "pypy" | "py" => self.python(&c),
            "pytest" | "py.test" => self.pytest(&c),
            "pip" => self.pip(&c),
            "node" | "nodejs" | "bun" => self.node(&c),
            "deno" => self.deno(&c),
            "npx" | "bunx" | "pnpx" => self.hit(
                &me,
                0,
                HitKind::CodeOption,
                "",
                Severity::High,
                "downloads and runs a package named on its command line",
            ),
            "npm" | "pnpm" | "yarn" => self.package_manager(&c),
            "git" => self.git(&c),
            "perl" => self.switches(
                &c,
                "eE",
                "iIMmDx",
                "runs the text that follows as Perl code",
            ),
            "ruby" => self.ruby(&c),
            "php" => self.php(&c),
            "lua" | "luajit" => self.simple_options(
                &c,
                &["-e", "-l"],
                "runs or loads code named on the command line",
            ),
            "rscript" | "r" => self.simple_options(
                &c,
                &["-e", "--expr"],
                "runs the text that follows as R code",
            ),
            "julia" => self.simple_options(
                &c,
                &["-e", "--eval", "-E", "--print", "-L", "--load"],
                "runs or loads code named on the command line",
            ),
            "make" | "gmake" => self.make(&c),
            "env" => self.env(&c),
            "xargs" => {
                self.hit(
                    &me,
                    0,
                    HitKind::CodeOption,
                    "",
                    Severity::High,
                    "builds and runs command lines from its input",
                );
                self.wrapper(&c, &["-a", "-d", "-E", "-I", "-L", "-n", "-P", "-s"], 0);
            }
            "find" => self.find(&c),
            "tar" | "bsdtar" | "gtar" => self.tar(&c),
            "rsync" => self.rsync(&c),
            "ssh" | "sftp" | "scp" => self.ssh(&c),
            "java" => self.java(&c),
            "go" => self.go(&c),
            "busybox" | "nohup" | "setsid" | "command" => self.wrapper(&c, &[], 0),
            "exec" => self.wrapper(&c, &["-a"], 0),
            "time" => self.wrapper(&c, &["-f", "-o"], 0),
            "nice" => self.wrapper(&c, &["-n"], 0),
            "stdbuf" => self.wrapper(&c, &["-i", "-o", "-e"], 0),
            "ionice" => self.wrapper(&c, &["-c", "-n", "-p", "-P", "-u"], 0),
            "timeout" => self.wrapper(&c, &["-s", "-k", "--signal", "--kill-after"], 1),
            "sudo" | "doas" => self.wrapper(
                &c,
                &["-u", "-g", "-C", "-D", "-h", "-p", "-r", "-t", "-U", "-T"],
                0,
            ),
            _ => {}
        }
        self.depth -= 1;
    }

    /// A program that runs another: skip its options (those in `valued`
    /// take the next word) and `positional` leading operands, then walk the
    /// rest as a command line.
    fn wrapper(&mut self, c: &Call<'_>, valued: &[&str], positional: usize) {
        let mut k = 0;
        while let Some(a) = c.arg(k) {
            if a == "--" {
                k += 1;
                break;
            }
            if !a.starts_with('-') || a == "-" {
                break;
            }
            k += if valued.contains(&a) { 2 } else { 1 };
        }
        k += positional;
        if k < c.args.len() {
            self.words(c.rest(k), c.base + k, c.pin);
        }
    }

    fn posix_shell(&mut self, c: &Call<'_>) {
        let fish = stem(c.name) == "fish";
        let mut k = 0;
        while let Some(a) = c.arg(k) {
            if a == "--" || a == "-" {
                return;
            }
            if let Some(long) = a.strip_prefix("--") {
                let name = long.split('=').next().unwrap_or(long);
                if matches!(name, "command" | "init-command") {
                    self.hit(
                        c,
                        k,
                        HitKind::ShellRunsText,
                        &option_of(a),
                        Severity::High,
                        "runs its argument as shell text",
                    );
                    if let Some((_, inline)) = long.split_once('=') {
                        self.payload(c, k);
                        self.text(inline, c.at(k));
                    } else {
                        self.shell_payload(c, k + 1);
                    }
                    return;
                }
                k += if matches!(long, "rcfile" | "init-file") {
                    2
                } else {
                    1
                };
                continue;
            }
            let flags = match a.strip_prefix('-').or_else(|| a.strip_prefix('+')) {
                Some(f) if !f.is_empty() && f.bytes().all(|b| b.is_ascii_alphabetic()) => f,
                _ => return, // the script operand: the rest are its arguments
            };
            let dash = a.starts_with('-');
            if dash && (flags.contains('c') || (fish && flags.contains('C'))) {
                self.hit(
                    c,
                    k,
                    HitKind::ShellRunsText,
                    a,
                    Severity::High,
                    "runs its argument as shell text",
                );
                self.shell_payload(c, k + 1);
                return;
            }
            if dash && flags.contains('s') {
                self.hit(
                    c,
                    k,
                    HitKind::ShellRunsText,
                    a,
                    Severity::High,
                    "reads the commands it runs from standard input",
                );
                return;
            }
            k += if flags.contains('o') || flags.contains('O') {
                2
            } else {
                1
            };
        }
    }

    fn shell_payload(&mut self, c: &Call<'_>, k: usize) {
        if let Some(text) = c.arg(k) {
            self.payload(c, k);
            self.text(text, c.at(k));
        }
    }

    fn cmd(&mut self, c: &Call<'_>) {
        for (k, a) in c.args.iter().enumerate() {
            if !a.starts_with('/') {
                return;
            }
            let l = a.to_ascii_lowercase();
            if matches!(l.as_str(), "/c" | "/k" | "/r") {
                self.hit(
                    c,
                    k,
                    HitKind::ShellRunsText,
                    a,
                    Severity::High,
                    "runs the rest of its command line as `cmd.exe` text",
                );
                let rest = c.rest(k + 1);
                for j in 0..rest.len() {
                    self.payload(c, k + 1 + j);
                }
                match rest {
                    [one] => self.text(one, c.at(k + 1)),
                    [] => {}
                    _ => self.words(rest, c.base + k + 1, c.pin),
                }
                return;
            }
        }
    }

    fn powershell(&mut self, c: &Call<'_>, legacy: bool) {
        const VALUED: &[&str] = &[
            "executionpolicy",
            "ep",
            "ex",
            "workingdirectory",
            "wd",
            "configurationname",
            "settingsfile",
            "windowstyle",
            "w",
            "inputformat",
            "if",
            "outputformat",
            "of",
            "version",
            "v",
            "custompipename",
            "psconsolefile",
        ];
        let mut k = 0;
        while let Some(a) = c.arg(k) {
            let Some(n) = a.strip_prefix('-').or_else(|| a.strip_prefix('/')) else {
                if legacy {
                    // Windows PowerShell reads a bare operand as a command.
                    self.hit(
                        c,
                        k,
                        HitKind::ShellRunsText,
                        "",
                        Severity::High,
                        "runs a bare operand as PowerShell text",
                    );
                    self.payloads_from(c, k);
                }
                return;
            };
            let n = n.to_ascii_lowercase();
            if VALUED.contains(&n.as_str()) {
                k += 2;
                continue;
            }
            if !n.is_empty() && "command".starts_with(&n) {
                self.hit(
                    c,
                    k,
                    HitKind::ShellRunsText,
                    a,
                    Severity::High,
                    "runs its argument as PowerShell text",
                );
                self.payloads_from(c, k + 1);
                return;
            }
            if !n.is_empty() && "encodedcommand".starts_with(&n) {
                self.hit(
                    c,
                    k,
                    HitKind::ShellRunsText,
                    a,
                    Severity::High,
                    "runs an encoded command that review cannot read",
                );
                self.payloads_from(c, k + 1);
                return;
            }
            if !n.is_empty() && "file".starts_with(&n) {
                return;
            }
            k += 1;
        }
    }

    fn payloads_from(&mut self, c: &Call<'_>, k: usize) {
        for j in k..c.args.len() {
            self.payload(c, j);
        }
    }

    fn python(&mut self, c: &Call<'_>) {
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

    fn pytest(&mut self, c: &Call<'_>) {
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

    fn pip(&mut self, c: &Call<'_>) {
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

    fn node(&mut self, c: &Call<'_>) {
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

    fn deno(&mut self, c: &Call<'_>) {
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

    fn package_manager(&mut self, c: &Call<'_>) {
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

    fn git(&mut self, c: &Call<'_>) {
        let mut k = 0;
        let mut sub = None;
        while let Some(a) = c.arg(k) {
            if a == "-c" {
                let key = c
                    .arg(k + 1)
                    .and_then(|v| v.split('=').next())
                    .map(|k| k.trim().to_ascii_lowercase());
                self.hit_detail(c, k, HitKind::CodeOption, "-c", Severity::High, "overrides configuration, which can name programs git runs (`core.sshCommand`, `core.fsmonitor`, aliases)", key);
                self.payload(c, k + 1);
                k += 2;
                continue;
            }
            if let Some((_, n)) = c.value(k, &["--config-env"]) {
                self.code_value(
                    c,
                    k,
                    "--config-env",
                    n,
                    "overrides configuration, which can name programs git runs",
                );
                k += n;
                continue;
            }
            if a.starts_with("--exec-path=") {
                self.code(
                    c,
                    k,
                    "--exec-path",
                    "makes git look for its subcommands in the named directory",
                );
                k += 1;
                continue;
            }
            if matches!(a, "-C" | "--git-dir" | "--work-tree" | "--namespace") {
                k += 2;
                continue;
            }
            if a.starts_with('-') {
                k += 1;
                continue;
            }
            sub = Some(a);
            k += 1;
            break;
        }
        let Some(sub) = sub else { return };
        let mut j = k;
        while let Some(a) = c.arg(j) {
            let mut n = 1;
            if let Some((_, m)) = c.value(
                j,
                &["--upload-pack", "--receive-pack", "--exec", "--extcmd"],
            ) {
                self.code_value(c, j, &option_of(a), m, "names a program git runs");
                n = m;
            } else if a == "-u" && matches!(sub, "clone" | "ls-remote") {
                self.code_value(
                    c,
                    j,
                    "-u",
                    2,
                    "names the program git runs on the remote side of the transport",
                );
                n = 2;
            } else if a == "-x" && matches!(sub, "rebase" | "difftool") {
                self.code_value(c, j, "-x", 2, "runs the named command");
                n = 2;
            } else if let Some((_, m)) = c.value(j, &["-c", "--config"]).filter(|_| sub == "clone")
            {
                self.code_value(c, j, &option_of(a), m, "writes configuration into the new repository, which can name programs git runs");
                n = m;
            } else if sub == "grep"
                && (a.starts_with("-O") || a.starts_with("--open-files-in-pager"))
            {
                self.code(c, j, &option_of(a), "opens matches with the named program");
            } else if (sub == "submodule" && a == "foreach") || (sub == "bisect" && a == "run") {
                self.code(c, j, a, "runs the command that follows");
                return;
            } else if a.contains("ext::") {
                self.code(c, j, "ext::", "uses a transport that runs a command");
            }
            j += n;
        }
        if sub == "filter-branch" {
            self.code(
                c,
                k.saturating_sub(1),
                "filter-branch",
                "runs the given filters as shell text",
            );
        }
    }

    /// Perl-style switch clusters: a letter in `code` runs code; a letter in
    /// `valued` takes the rest of the cluster as its value.
    fn switches(&mut self, c: &Call<'_>, code: &str, valued: &str, why: &'static str) {
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

    fn ruby(&mut self, c: &Call<'_>) {
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

    fn php(&mut self, c: &Call<'_>) {
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

    fn simple_options(&mut self, c: &Call<'_>, names: &[&str], why: &'static str) {
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

    fn make(&mut self, c: &Call<'_>) {
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

    fn env(&mut self, c: &Call<'_>) {
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
            if matches!(a, "-u" | "--unset" | "-C" | "--chdir") {
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

    fn find(&mut self, c: &Call<'_>) {
        let mut k = 0;
        while let Some(a) = c.arg(k) {
            if matches!(a, "-exec" | "-execdir" | "-ok" | "-okdir") {
                self.code(c, k, a, "runs a command for every file it finds");
                let start = k + 1;
                let end = c
                    .rest(start)
                    .iter()
                    .position(|w| *w == ";" || *w == "+")
                    .map_or(c.args.len(), |p| start + p);
                for j in start..=end.min(c.args.len().saturating_sub(1)) {
                    self.payload(c, j);
                }
                if let Some(inner) = c.args.get(start..end) {
                    self.words(inner, c.base + start, c.pin);
                }
                k = end + 1;
                continue;
            }
            k += 1;
        }
    }

    fn tar(&mut self, c: &Call<'_>) {
        let mut k = 0;
        while let Some(a) = c.arg(k) {
            if let Some((value, n)) = c.value(k, &["--checkpoint-action"]) {
                if value.is_some_and(|v| v.starts_with("exec")) {
                    self.code_value(
                        c,
                        k,
                        "--checkpoint-action",
                        n,
                        "runs a command at each checkpoint",
                    );
                }
                k += n;
                continue;
            }
            if let Some((_, n)) = c.value(
                k,
                &[
                    "--to-command",
                    "-I",
                    "--use-compress-program",
                    "-F",
                    "--info-script",
                    "--new-volume-script",
                    "--rsh-command",
                ],
            ) {
                self.code_value(c, k, &option_of(a), n, "names a program tar runs");
                k += n;
                continue;
            }
            k += 1;
        }
    }

    fn rsync(&mut self, c: &Call<'_>) {
        let mut k = 0;
        while let Some(a) = c.arg(k) {
            if let Some((_, n)) = c.value(k, &["--rsh", "--rsync-path"]) {
                self.code_value(c, k, &option_of(a), n, "names a program rsync runs");
                k += n;
                continue;
            }
            let short = a.strip_prefix('-').filter(|s| {
                !s.is_empty() && !s.starts_with('-') && s.bytes().all(|b| b.is_ascii_alphabetic())
            });
            if short.is_some_and(|s| s.contains('e')) {
                self.code_value(c, k, "-e", 2, "names the remote shell program rsync runs");
                k += 2;
                continue;
            }
            k += 1;
        }
    }

    fn ssh(&mut self, c: &Call<'_>) {
        const RUNS: &[&str] = &[
            "proxycommand",
            "localcommand",
            "permitlocalcommand",
            "knownhostscommand",
            "pkcs11provider",
            "securitykeyprovider",
        ];
        let scp = stem(c.name) == "scp";
        let mut k = 0;
        while let Some(a) = c.arg(k) {
            let (value, n) = if a == "-o" {
                (c.arg(k + 1), 2)
            } else if let Some(v) = a.strip_prefix("-o").filter(|v| !v.is_empty()) {
                (Some(v), 1)
            } else if scp && a == "-S" {
                self.code_value(c, k, "-S", 2, "names the program scp runs instead of ssh");
                k += 2;
                continue;
            } else {
                k += 1;
                continue;
            };
            let key = value.map(|v| v.split(['=', ' ']).next().unwrap_or(v).to_ascii_lowercase());
            if let Some(key) = key.filter(|k| RUNS.contains(&k.as_str())) {
                self.hit_detail(
                    c,
                    k,
                    HitKind::CodeOption,
                    "-o",
                    Severity::High,
                    "sets an option that makes ssh run a local command",
                    Some(key),
                );
                self.payload(c, if n == 2 { k + 1 } else { k });
            }
            k += n;
        }
    }

    fn java(&mut self, c: &Call<'_>) {
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

    fn go(&mut self, c: &Call<'_>) {
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

#[cfg(test)]
mod tests {
    use super::*;

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
            analyze_script(
                "pip install -r requirements.txt && python -m pytest tests/test_date.py"
            )
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
            analyze_script(&text).hits.is_empty(),
            "nesting past the bound is not walked"
        );
        let words: Vec<&str> = std::iter::repeat_n("env", 10_000).collect();
        assert!(analyze_words(&words).hits.is_empty());
    }

    fn shell_quote(s: &str) -> String {
        format!("'{}'", s.replace('\'', "'\\''"))
    }
}
