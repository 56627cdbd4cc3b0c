//! The tokenizer: shell text into words and operators ([`tokens`]), and
//! those into simple commands ([`parse`]). It is not a shell; it only has to
//! find the words well enough for the rules to look at programs and options
//! and for the importers to read a command line's arguments.

/// One word or operator of a shell text.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Token {
    /// The word with quotes and escapes removed and its substitutions and
    /// expansions kept as written, or the operator (`\n` for a line break).
    pub text: String,
    /// Byte offset in the text where it starts.
    pub at: usize,
    pub operator: bool,
    /// A `$`, backquote or process substitution outside single quotes: the
    /// shell may change the word.
    pub expands: bool,
    /// Among those, a parameter: `$NAME`, `$1`, `$@`, `${..}`.
    pub parameter: bool,
    /// Command substitutions in the word, with their opener (`$(`, `` ` ``,
    /// `<(`, `>(`) and body. Boxed: few words have one, and a long command
    /// line's tokens (a bwrap line of many binds) are all held at once.
    pub substitutions: Option<Box<[(&'static str, String)]>>,
    /// Byte offset where the word ends (0 for operators).
    pub end: usize,
    /// The word's pieces, quoted or not, literal or expanded: filled only
    /// by [`word_parts`], for the readers that expand words as bash does.
    pub parts: Vec<Part>,
}

/// One piece of a word as the shell reads it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Part {
    /// Text taken as it is; `quoted` when quotes or a backslash protect it
    /// from field splitting, globbing and tilde expansion.
    Literal { text: String, quoted: bool },
    /// An expansion as written (`$X`, `${a[@]}`, `$(cmd)`, a backquote),
    /// inside double quotes or not.
    Expansion { text: String, quoted: bool },
}

/// A here-document: the text the shell feeds to a command's input, which
/// is no part of the command line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct HereDoc {
    /// Byte offset where the body starts.
    pub at: usize,
    pub body: String,
    /// The delimiter was quoted: the body is not expanded.
    pub quoted: bool,
}

/// What [`tokens`] found in a text.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Tokens {
    pub tokens: Vec<Token>,
    /// The quote or substitution left open, by its opener (`'`, `"`, `$(`,
    /// `${`, `` ` ``, `<(`, `>(`), and where it opens. It runs to the end
    /// of the text, which its word holds.
    pub unterminated: Option<(&'static str, usize)>,
    /// Here-document bodies, in order; their text is not in `tokens`.
    pub heredocs: Vec<HereDoc>,
}

/// Control and redirection operators, each before its own prefixes. The
/// bash ones (`|&`, `&>`, `<<<`) are read too: a script written for bash
/// means them.
const OPERATOR_TEXTS: &[&str] = &[
    "&>>", "<<<", "<<-", ";;", "&&", "||", "|&", "&>", "<<", "<&", "<>", ">>", ">&", ">|", "\n",
    ";", "&", "|", "<", ">", "(", ")",
];

/// Bytes that end a run of ordinary characters outside quotes.
const SPECIAL: &[u8] = b" \t\r\n#'\"\\$`;&|<>()";

/// Split shell text into words and operators, the way a shell does before
/// expanding anything. Unquoted digits or a `{name}` right before a `<` or
/// `>` redirection name a file descriptor and are dropped; comments and
/// line continuations disappear.
pub(crate) fn tokens(text: &str) -> Tokens {
    scan(text, false)
}

/// [`tokens`], each word with its [`Part`]s.
pub(crate) fn word_parts(text: &str) -> Tokens {
    scan(text, true)
}

fn scan(text: &str, with_parts: bool) -> Tokens {
    let mut s = Scanner {
        src: text,
        i: 0,
        out: Tokens::default(),
        word: None,
        quoted: false,
        with_parts,
        in_double: false,
        delimiter_next: None,
        pending: Vec::new(),
    };
    while let Some(c) = s.peek(0) {
        s.step(c);
    }
    s.end_word();
    s.out
}

/// The scanner works on bytes: every byte it acts on is ASCII, and it only
/// splits the text there, so words stay UTF-8.
struct Scanner<'t> {
    src: &'t str,
    i: usize,
    out: Tokens,
    word: Option<Token>,
    /// Part of the word was quoted, escaped or expanded: it cannot name a
    /// file descriptor.
    quoted: bool,
    with_parts: bool,
    /// Inside double quotes: what is taken is quoted.
    in_double: bool,
    /// After `<<` (`true` for `<<-`): the next word is a delimiter.
    delimiter_next: Option<bool>,
    /// Here-documents whose bodies start after the next line break:
    /// delimiter, quoted, tabs stripped.
    pending: Vec<(String, bool, bool)>,
}

impl Scanner<'_> {
    fn peek(&self, ahead: usize) -> Option<u8> {
        self.src.as_bytes().get(self.i + ahead).copied()
    }

    fn rest(&self) -> &str {
        self.src.get(self.i..).unwrap_or("")
    }

    /// The word being read; one starting at `at` if there is none.
    fn word(&mut self, at: usize) -> &mut Token {
        self.word.get_or_insert_with(|| Token {
            at,
            ..Token::default()
        })
    }

    /// Append the text from `from` up to here to the word: literal text,
    /// quoted when `quoted` or inside double quotes.
    fn take(&mut self, at: usize, from: usize, quoted: bool) {
        let src = self.src;
        let text = src.get(from..self.i).unwrap_or("");
        self.push_literal(at, text, quoted);
    }

    fn push_literal(&mut self, at: usize, text: &str, quoted: bool) {
        let quoted = quoted || self.in_double;
        let with_parts = self.with_parts;
        let w = self.word(at);
        w.text.push_str(text);
        if !with_parts {
            return;
        }
        match w.parts.last_mut() {
            Some(Part::Literal { text: t, quoted: q }) if *q == quoted => t.push_str(text),
            _ => w.parts.push(Part::Literal {
                text: text.to_string(),
                quoted,
            }),
        }
    }

    fn unterminated(&mut self, opener: &'static str, at: usize) {
        self.out.unterminated.get_or_insert((opener, at));
    }

    fn end_word(&mut self) {
        self.quoted = false;
        if let Some(mut w) = self.word.take() {
            w.end = self.i;
            if let Some(strip) = self.delimiter_next.take() {
                // bash ends the body at a line equal to the delimiter with
                // its quotes removed; any quoting stops expansion in it.
                let raw = self.src.get(w.at..w.end).unwrap_or("");
                let quoted = raw.contains(['\'', '"', '\\']);
                self.pending.push((w.text.clone(), quoted, strip));
            }
            self.out.tokens.push(w);
        }
    }

    /// At the start of a line after `<<` redirections: their bodies, each
    /// up to its delimiter line (or the end of the text, which bash
    /// accepts with a warning).
    fn heredoc_bodies(&mut self) {
        for (delimiter, quoted, strip) in std::mem::take(&mut self.pending) {
            let at = self.i;
            let mut body = String::new();
            while self.i < self.src.len() {
                let src = self.src;
                let rest = src.get(self.i..).unwrap_or("");
                let (line, next) = match rest.find('\n') {
                    Some(n) => (rest.get(..n).unwrap_or(""), n + 1),
                    None => (rest, rest.len()),
                };
                self.i += next;
                let line = if strip {
                    line.trim_start_matches('\t')
                } else {
                    line
                };
                if line == delimiter || line.strip_suffix('\r') == Some(delimiter.as_str()) {
                    break;
                }
                body.push_str(line);
                body.push('\n');
            }
            self.out.heredocs.push(HereDoc { at, body, quoted });
        }
    }

    fn step(&mut self, c: u8) {
        let at = self.i;
        match c {
            b' ' | b'\t' | b'\r' => {
                self.end_word();
                self.i += 1;
            }
            b'#' if self.word.is_none() => {
                // A comment runs to the end of the line.
                let rest = self.rest();
                self.i += rest.find('\n').unwrap_or(rest.len());
            }
            b'\\' => {
                self.i += 1;
                match self.rest().chars().next() {
                    // A line continuation disappears, even inside a word.
                    Some('\n') => self.i += 1,
                    Some(n) => {
                        self.quoted = true;
                        self.i += n.len_utf8();
                        self.take(at, at + 1, true);
                    }
                    None => self.take(at, at, false),
                }
            }
            b'\'' => {
                self.quoted = true;
                self.i += 1;
                match self.rest().find('\'') {
                    Some(n) => {
                        self.i += n;
                        self.take(at, at + 1, true);
                        self.i += 1;
                    }
                    None => {
                        self.i = self.src.len();
                        self.take(at, at + 1, true);
                        self.unterminated("'", at);
                    }
                }
            }
            b'"' => self.double_quoted(),
            b'$' => self.dollar(),
            b'`' => self.backquote(),
            b'<' | b'>' if self.peek(1) == Some(b'(') => {
                // Process substitution: a path to the command's output or
                // input, part of the word it stands in.
                let opener = if c == b'<' { "<(" } else { ">(" };
                self.i += 1;
                let body = self.balanced(b'(', b')', opener, at);
                self.expanded(at, false, Some((opener, body)));
            }
            _ => match OPERATOR_TEXTS.iter().find(|o| self.rest().starts_with(**o)) {
                Some(op) => self.operator(op),
                None => {
                    // A run of ordinary bytes (or a `#` inside a word).
                    let rest = self.rest().as_bytes();
                    let n = rest
                        .iter()
                        .skip(1)
                        .position(|b| SPECIAL.contains(b))
                        .map_or(rest.len(), |n| n + 1);
                    self.i += n;
                    self.take(at, at, false);
                }
            },
        }
    }

    fn operator(&mut self, op: &'static str) {
        // `2>file`, `{fd}>file`: the word right before names a descriptor
        // of the redirection, not an argument.
        let fd = !self.quoted && self.word.as_ref().is_some_and(|w| names_fd(&w.text));
        if fd && op.starts_with(['<', '>']) {
            self.word = None;
        }
        self.end_word();
        self.out.tokens.push(Token {
            text: op.to_string(),
            at: self.i,
            operator: true,
            ..Token::default()
        });
        self.i += op.len();
        match op {
            "<<" => self.delimiter_next = Some(false),
            "<<-" => self.delimiter_next = Some(true),
            "\n" if !self.pending.is_empty() => self.heredoc_bodies(),
            _ => {}
        }
    }

    fn double_quoted(&mut self) {
        let at = self.i;
        self.quoted = true;
        self.i += 1;
        // `""` is an empty argument: it has a part.
        self.push_literal(at, "", true);
        let was = std::mem::replace(&mut self.in_double, true);
        self.double_quoted_body(at);
        self.in_double = was;
    }

    fn double_quoted_body(&mut self, at: usize) {
        loop {
            let from = self.i;
            match self.peek(0) {
                None => return self.unterminated("\"", at),
                Some(b'"') => {
                    self.i += 1;
                    return;
                }
                Some(b'\\') => {
                    self.i += 1;
                    match self.peek(0) {
                        Some(b'\n') => self.i += 1,
                        Some(b'$' | b'`' | b'"' | b'\\') => {
                            self.i += 1;
                            self.take(at, from + 1, true);
                        }
                        // Before anything else the backslash is kept.
                        _ => self.take(at, from, true),
                    }
                }
                Some(b'$') => self.dollar(),
                Some(b'`') => self.backquote(),
                Some(_) => {
                    let rest = self.rest().as_bytes();
                    self.i += rest
                        .iter()
                        .position(|b| b"\"\\$`".contains(b))
                        .unwrap_or(rest.len());
                    self.take(at, from, true);
                }
            }
        }
    }

    /// At `$`: a substitution, an expansion or a lone dollar.
    fn dollar(&mut self) {
        let at = self.i;
        match self.peek(1) {
            // `$'..'`: bash's ANSI-C quoting, escapes decoded.
            Some(b'\'') if !self.in_double => self.ansi_c(),
            // `$"..."`: a double-quoted string bash may translate; no locale
            // catalog applies to a script read here, so it is the string.
            Some(b'"') if !self.in_double => {
                self.i += 1;
                self.double_quoted();
            }
            Some(b'(') => {
                let arithmetic = self.peek(2) == Some(b'(');
                self.i += 1;
                let body = self.balanced(b'(', b')', "$(", at);
                self.expanded(at, false, (!arithmetic).then_some(("$(", body)));
            }
            Some(b'{') => {
                self.i += 1;
                self.balanced(b'{', b'}', "${", at);
                self.expanded(at, true, None);
            }
            Some(c) if c.is_ascii_alphabetic() || c == b'_' => {
                // `$NAME`: the longest name.
                self.i += 1;
                let rest = self.src.as_bytes().get(self.i..).unwrap_or_default();
                self.i += rest
                    .iter()
                    .position(|b| !(b.is_ascii_alphanumeric() || *b == b'_'))
                    .unwrap_or(rest.len());
                self.expanded(at, true, None);
            }
            Some(c) if c.is_ascii_digit() || b"_@*#?$!-".contains(&c) => {
                // `$1`, `$@`, `$$`: one character.
                self.i += 2;
                self.expanded(at, true, None);
            }
            _ => {
                self.i += 1;
                self.expanded(at, false, None);
            }
        }
    }

    /// At `$'`: the string up to the next unescaped `'`, decoded as bash
    /// does. A NUL ends the text (bash's strings are C strings); what
    /// follows up to the quote is dropped, as bash drops it.
    fn ansi_c(&mut self) {
        let at = self.i;
        self.quoted = true;
        self.i += 2;
        let bytes = self.src.as_bytes();
        let start = self.i;
        let mut end = None;
        while let Some(&c) = bytes.get(self.i) {
            match c {
                b'\\' => self.i += 2,
                b'\'' => {
                    end = Some(self.i);
                    break;
                }
                _ => self.i += 1,
            }
        }
        let inner = self
            .src
            .get(start..end.unwrap_or(self.src.len()))
            .unwrap_or("");
        let text = decode_ansi_c(inner);
        match end {
            Some(e) => self.i = e + 1,
            None => {
                self.i = self.src.len();
                self.unterminated("$'", at);
            }
        }
        self.push_literal(at, &text, true);
    }

    /// At a backquote: the substitution up to the next unescaped one.
    fn backquote(&mut self) {
        let at = self.i;
        self.i += 1;
        let bytes = self.src.as_bytes();
        let mut end = None;
        while let Some(&c) = bytes.get(self.i) {
            self.i += 1;
            match c {
                b'\\' => self.i += 1,
                b'`' => {
                    end = Some(self.i - 1);
                    break;
                }
                _ => {}
            }
        }
        self.i = self.i.min(self.src.len());
        if end.is_none() {
            self.unterminated("`", at);
        }
        let inner = self.src.get(at + 1..end.unwrap_or(self.i)).unwrap_or("");
        let body = unescape_backquoted(inner);
        self.expanded(at, false, Some(("`", body)));
    }

    /// At an opening bracket: the text up to its match, skipping quoted
    /// brackets; the rest of the text if it is left open.
    fn balanced(&mut self, open: u8, close: u8, opener: &'static str, at: usize) -> String {
        let bytes = self.src.as_bytes();
        self.i += 1;
        let start = self.i;
        let mut depth = 1u32;
        let mut quote: Option<u8> = None;
        while let Some(&c) = bytes.get(self.i) {
            self.i += 1;
            match (quote, c) {
                (q, b'\\') if q != Some(b'\'') => self.i += 1,
                (Some(q), c) if c == q => quote = None,
                (Some(_), _) => {}
                (None, b'\'' | b'"') => quote = Some(c),
                (None, c) if c == open => depth += 1,
                (None, c) if c == close => {
                    depth -= 1;
                    if depth == 0 {
                        return self.src.get(start..self.i - 1).unwrap_or("").to_string();
                    }
                }
                _ => {}
            }
        }
        self.i = self.src.len();
        self.unterminated(opener, at);
        self.src.get(start..).unwrap_or("").to_string()
    }

    /// Append the text from `at` up to here to the word as written: the
    /// shell expands it later.
    fn expanded(
        &mut self,
        at: usize,
        parameter: bool,
        substitution: Option<(&'static str, String)>,
    ) {
        self.quoted = true;
        let text = self.src.get(at..self.i).unwrap_or("");
        let (with_parts, quoted) = (self.with_parts, self.in_double);
        let w = self.word(at);
        w.text.push_str(text);
        if with_parts {
            w.parts.push(Part::Expansion {
                text: text.to_string(),
                quoted,
            });
        }
        w.expands = true;
        w.parameter |= parameter;
        if let Some(sub) = substitution {
            let mut subs = w.substitutions.take().map(Vec::from).unwrap_or_default();
            subs.push(sub);
            w.substitutions = Some(subs.into_boxed_slice());
        }
    }
}

/// The text of bash's `$'..'` string: `\n`, `\t` and the other C escapes,
/// `\NNN` octal, `\xHH` hex, `\uHHHH`/`\UHHHHHHHH` code points and `\cX`
/// control characters; an unknown escape keeps its backslash.
fn decode_ansi_c(inner: &str) -> String {
    let mut out = String::with_capacity(inner.len());
    let mut chars = inner.chars().peekable();
    // Up to `max` digits of `radix`, as a number.
    fn digits(
        chars: &mut std::iter::Peekable<std::str::Chars<'_>>,
        radix: u32,
        max: usize,
    ) -> Option<u32> {
        let mut n: Option<u32> = None;
        for _ in 0..max {
            match chars.peek().and_then(|c| c.to_digit(radix)) {
                Some(d) => {
                    n = Some(n.unwrap_or(0).saturating_mul(radix).saturating_add(d));
                    chars.next();
                }
                None => break,
            }
        }
        n
    }
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        let Some(e) = chars.next() else {
            out.push('\\');
            break;
        };
        let decoded: Option<char> = match e {
            'a' => Some('\u{7}'),
            'b' => Some('\u{8}'),
            'e' | 'E' => Some('\u{1b}'),
            'f' => Some('\u{c}'),
            'n' => Some('\n'),
            'r' => Some('\r'),
            't' => Some('\t'),
            'v' => Some('\u{b}'),
            '\\' | '\'' | '"' | '?' => Some(e),
            '0'..='7' => {
                // One to three octal digits; bash keeps the low byte.
                let mut n = e.to_digit(8).unwrap_or(0);
                for _ in 0..2 {
                    match chars.peek().and_then(|c| c.to_digit(8)) {
                        Some(d) => {
                            n = n * 8 + d;
                            chars.next();
                        }
                        None => break,
                    }
                }
                byte_char(n & 0xff)
            }
            'x' => match digits(&mut chars, 16, 2) {
                Some(n) => byte_char(n),
                None => {
                    out.push_str("\\x");
                    continue;
                }
            },
            'u' | 'U' => {
                let max = if e == 'u' { 4 } else { 8 };
                match digits(&mut chars, 16, max) {
                    Some(n) => Some(char::from_u32(n).unwrap_or('\u{fffd}')),
                    None => {
                        out.push('\\');
                        out.push(e);
                        continue;
                    }
                }
            }
            'c' => match chars.next() {
                Some(x) => Some(
                    char::from_u32((x.to_ascii_uppercase() as u32) ^ 0x40).unwrap_or('\u{fffd}'),
                ),
                None => {
                    out.push_str("\\c");
                    continue;
                }
            },
            other => {
                out.push('\\');
                Some(other)
            }
        };
        match decoded {
            Some('\0') => break,
            Some(d) => out.push(d),
            None => out.push('\u{fffd}'),
        }
    }
    out
}

/// A byte from an escape: ASCII as itself, a NUL as a NUL (which ends the
/// string), anything else a replacement character (bash emits the raw
/// byte, which is not UTF-8 text on its own).
fn byte_char(n: u32) -> Option<char> {
    (n < 0x80).then(|| char::from_u32(n)).flatten()
}

/// Unquoted digits (`2>`) or a bash `{name}` (`{fd}>`) before a redirection.
fn names_fd(word: &str) -> bool {
    let braced = word.strip_prefix('{').and_then(|w| w.strip_suffix('}'));
    (!word.is_empty() && word.bytes().all(|b| b.is_ascii_digit()))
        || braced.is_some_and(is_var_name)
}

/// The command a backquoted text runs: a backslash quotes only `$`, a
/// backquote or a backslash there (POSIX), and is kept before anything else.
fn unescape_backquoted(inner: &str) -> String {
    let mut out = String::with_capacity(inner.len());
    let mut chars = inner.chars().peekable();
    while let Some(c) = chars.next() {
        match chars.peek() {
            Some(&n @ ('$' | '`' | '\\')) if c == '\\' => {
                out.push(n);
                chars.next();
            }
            _ => out.push(c),
        }
    }
    out
}

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
    fn note(&mut self, op: &str) {
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

/// Shell text into simple commands (see module docs).
pub(crate) fn parse(text: &str) -> Script {
    parse_nested(text, true)
}

/// [`parse`], reading here-document bodies as commands only at the top:
/// a body's own here-documents stay data, so the cost stays linear.
fn parse_nested(text: &str, bodies: bool) -> Script {
    let scan = tokens(text);
    let mut p = Parser::default();
    p.script.unterminated = scan.unterminated.is_some();
    for t in scan.tokens {
        p.token(t);
    }
    p.finish_command();
    // A here-document's body is read as commands too: fed to a shell it
    // runs, and reading data as commands only errs toward reporting. Its
    // quotes are its own: an apostrophe in it leaves nothing open.
    for h in scan.heredocs.into_iter().filter(|_| bodies) {
        let body = parse_nested(&h.body, false);
        p.script.commands.extend(body.commands);
        p.script.operator_bits |= body.operator_bits;
        if !h.quoted {
            p.script.substitutions.extend(body.substitutions);
            p.script.expansions |= body.expansions;
        }
    }
    p.script
}

#[derive(Default)]
struct Parser {
    script: Script,
    cur: Simple,
    /// The next word is a redirection target.
    target_next: bool,
    /// Dropping words until the next control operator (`for x in ...`).
    skipping: bool,
    next_piped: bool,
}

impl Parser {
    fn token(&mut self, t: Token) {
        if t.operator {
            let op = t.text.as_str();
            self.script.note(if op == "\n" { "newline" } else { op });
            if op.starts_with(['<', '>']) || op.starts_with("&>") {
                self.target_next = true;
            } else {
                self.finish_command();
                self.skipping = false;
                self.next_piped = op == "|" || op == "|&";
            }
            return;
        }
        for (opener, body) in t.substitutions.map(Vec::from).unwrap_or_default() {
            self.script.note(opener);
            self.script.substitutions.push(body);
        }
        self.script.expansions |= t.parameter;
        if std::mem::take(&mut self.target_next) || self.skipping {
            return;
        }
        let w = t.text;
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
