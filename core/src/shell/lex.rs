//! The tokenizer: shell text into simple commands. It is not a shell; it
//! only has to find the simple commands well enough to look at their
//! programs and options.

/// One simple command of a shell text.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Simple {
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
pub(crate) struct Script {
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
    pub(crate) fn operators(&self) -> Vec<&'static str> {
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
pub(crate) const KEYWORDS: &[&str] = &[
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
pub(crate) fn parse(text: &str) -> Script {
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
                    // The text stays in its word, as for `$(..)`, so that a
                    // rule can tell what the substituted command is.
                    self.push(c);
                    self.push(b'(');
                    self.push_all(body.as_bytes());
                    self.push(b')');
                    self.script.substitutions.push(body);
                    self.script.note(if c == b'>' { ">(" } else { "<(" });
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
pub(crate) fn is_assignment(word: &str) -> bool {
    match word.split_once('=') {
        Some((name, _)) => is_var_name(name),
        None => false,
    }
}

pub(super) fn is_var_name(name: &str) -> bool {
    let mut b = name.bytes();
    b.next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == b'_')
        && b.all(|c| c.is_ascii_alphanumeric() || c == b'_')
}
