//! A shell script read the way bash runs it, as far as a reader that runs
//! nothing can follow: the simple commands it runs, each word expanded
//! with the variables and arrays the script assigned literally before it
//! (`args=(--ro-bind / /)`, `args+=(..)`, `X=/srv`), split into fields as
//! bash splits them.
//!
//! What cannot be known stays visible as such, never dropped: a value from
//! the environment, the script's arguments (`"$@"`), a command
//! substitution, or a variable assigned in a loop, a function, a branch or
//! after `eval`/`source` is an [`Arg::One`] (exactly one argument, value
//! unknown) or an [`Arg::Any`] (any number of arguments), written as in
//! the script. The oracle test in `tests/bash_oracle.rs` holds this reading
//! against bash itself.

use std::borrow::Cow;
use std::collections::HashMap;

use super::lex::{self, Part, Token};

/// One argument of a command as bash would pass it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Arg {
    /// Its value.
    Known(String),
    /// Exactly one argument whose value the script does not show; the text
    /// is as written, with what is known filled in.
    One(String),
    /// Any number of arguments, none included (`"$@"`, an array built in a
    /// loop, an unquoted variable from the environment), as written.
    Any(String),
}

impl Arg {
    pub fn text(&self) -> &str {
        match self {
            Arg::Known(s) | Arg::One(s) | Arg::Any(s) => s,
        }
    }
}

/// An argument and the byte offset of the word that wrote it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Field {
    pub arg: Arg,
    pub at: usize,
    /// Unknown because it comes from a variable built where the reader
    /// cannot follow, whose assignments name `bwrap`: (name, offset of its
    /// last assignment, why it is unknown).
    pub bwrap_var: Option<(String, usize, &'static str)>,
}

/// One simple command the script runs: its words expanded, prefix
/// assignments and redirections left out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Command {
    pub words: Vec<Field>,
    /// Offset of its first word.
    pub at: usize,
}

/// The commands of `text`, in the order written. `Err` gives the opener of
/// a quote or substitution left open and its offset.
pub fn commands(text: &str) -> Result<Vec<Command>, (&'static str, usize)> {
    let scan = lex::word_parts(text);
    if let Some(open) = scan.unterminated {
        return Err(open);
    }
    // A first pass counts each name's assignments, so a function body,
    // which runs when called, trusts a value only if nothing assigns the
    // name again later.
    let mut first = Walker::new(&scan.tokens, None);
    first.run();
    let totals = first.assigned;
    let mut w = Walker::new(&scan.tokens, Some(totals));
    w.run();
    let mut out = w.out;
    // A here-document may be a script a shell runs (`bash <<EOF`): its
    // commands are read on their own, seeing no variable as known. One
    // whose quotes do not close is data no shell could run.
    for h in &scan.heredocs {
        let body = lex::word_parts(&h.body);
        if body.unterminated.is_some() {
            continue;
        }
        let mut inner = Walker::new(&body.tokens, None);
        inner.depth = MAX_DEPTH;
        inner.run();
        // `<<-` strips tabs, so offsets in the body are exact only when
        // it is the text as written.
        let exact = text.get(h.at..h.at + h.body.len()) == Some(h.body.as_str());
        let place = |at: usize| if exact { h.at + at } else { h.at };
        for mut c in inner.out {
            c.at = place(c.at);
            for f in &mut c.words {
                f.at = place(f.at);
            }
            out.push(c);
        }
    }
    Ok(out)
}

#[derive(Debug, Clone)]
enum Value {
    Unset,
    /// Value, or the text as written with what is known filled in; its
    /// pieces say which parts are known (for splitting).
    Scalar {
        text: String,
        known: bool,
        pieces: Vec<(String, bool)>,
    },
    Array(Vec<Field>),
    Unknown {
        at: usize,
        why: &'static str,
        bwrap: bool,
    },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Frame {
    If,
    Loop,
    Case,
    Brace,
    Subshell,
}

/// What a command word's expansions resolve to.
enum Resolved {
    /// A scalar's text: the value, or as written when not known; its
    /// pieces say which parts are known.
    Scalar {
        text: String,
        known: bool,
        pieces: Vec<(String, bool)>,
    },
    /// `"${a[@]}"`: one field per element.
    Elems(Vec<Field>),
    /// Not known: `multi` when it may be any number of fields.
    Unknown {
        text: String,
        multi: bool,
        bwrap: Option<(String, usize, &'static str)>,
    },
}

#[derive(Default)]
struct Cur {
    text: String,
    /// Some of the text is not known.
    unknown: bool,
    /// The number of fields is not known.
    any: bool,
    /// Literal text or quotes: the field exists whatever the expansions.
    solid: bool,
    /// Unquoted glob or brace characters: bash may replace the field by
    /// file names or several words.
    glob: bool,
    at: usize,
    bwrap: Option<(String, usize, &'static str)>,
}

impl Cur {
    fn finish(self) -> Field {
        let arg = if self.any || self.glob || (self.unknown && !self.solid) {
            Arg::Any(self.text)
        } else if self.unknown {
            Arg::One(self.text)
        } else {
            Arg::Known(self.text)
        };
        Field {
            arg,
            at: self.at,
            bwrap_var: self.bwrap,
        }
    }
}

/// Builtins whose `NAME=value` operands assign.
const DECLARE: &[&str] = &["declare", "typeset", "local", "export", "readonly"];

const IFS_WHITESPACE: &[char] = &[' ', '\t', '\n'];

struct Walker<'t> {
    tokens: &'t [Token],
    i: usize,
    vars: HashMap<String, Value>,
    /// Assignments seen so far per name; after the first pass, the totals.
    assigned: HashMap<String, usize>,
    totals: Option<HashMap<String, usize>>,
    frames: Vec<(Frame, bool)>,
    /// The next compound command is a function body.
    function_next: bool,
    /// Frames went out of step (an unmatched `fi`, `done`, `}` or `)`):
    /// nothing after can be trusted as straight-line.
    confused: bool,
    /// `eval`, `source` or `.` ran: any variable may have changed.
    tainted: Option<usize>,
    /// `IFS` was assigned: unquoted expansions split differently.
    ifs_changed: bool,
    /// How deep in command substitutions this text is.
    depth: usize,
    out: Vec<Command>,
}

/// Command substitutions read inside each other, at most.
const MAX_DEPTH: usize = 8;

impl<'t> Walker<'t> {
    fn new(tokens: &'t [Token], totals: Option<HashMap<String, usize>>) -> Self {
        Walker {
            tokens,
            i: 0,
            vars: HashMap::new(),
            assigned: HashMap::new(),
            totals,
            frames: Vec::new(),
            function_next: false,
            confused: false,
            tainted: None,
            ifs_changed: false,
            depth: 0,
            out: Vec::new(),
        }
    }

    fn in_function(&self) -> bool {
        self.frames.iter().any(|(_, f)| *f)
    }

    fn push_frame(&mut self, f: Frame) {
        let function = std::mem::take(&mut self.function_next);
        self.frames.push((f, function));
    }

    fn pop_frame(&mut self) {
        if self.frames.pop().is_none() {
            self.confused = true;
        }
    }

    fn run(&mut self) {
        // The words of the simple command being read, and its array
        // assignments: (index of the `NAME=` word, element tokens).
        let mut words: Vec<&'t Token> = Vec::new();
        let mut arrays: Vec<(usize, Vec<&'t Token>)> = Vec::new();
        let mut target_next = false;
        let mut skip_header = false;
        // Inside `case`: reading a pattern up to its `)`.
        let mut pattern = false;
        // The next command runs only on a condition (`&&`, `||`).
        let mut conditional = false;
        let mut piped = false;
        // The words so far are all assignments (kept as they come: a line
        // of many `a=(..)` is read once).
        let mut all_assignments = true;
        while let Some(t) = self.tokens.get(self.i) {
            self.i += 1;
            if words.is_empty() {
                all_assignments = true;
            }
            if t.operator {
                let op = t.text.as_str();
                if op.starts_with(['<', '>']) || op.starts_with("&>") {
                    target_next = true;
                    continue;
                }
                if pattern {
                    if op == ")" {
                        pattern = false;
                    }
                    continue;
                }
                match op {
                    "(" if words.last().is_some_and(|w| array_target(&w.text))
                        && (all_assignments
                            || words
                                .first()
                                .is_some_and(|f| DECLARE.contains(&f.text.as_str()))) =>
                    {
                        // `NAME=(` or `NAME+=(`: elements up to `)`.
                        let mut elems = Vec::new();
                        while let Some(e) = self.tokens.get(self.i) {
                            self.i += 1;
                            if e.operator {
                                match e.text.as_str() {
                                    ")" => break,
                                    "\n" => continue,
                                    _ => {
                                        self.confused = true;
                                        continue;
                                    }
                                }
                            }
                            elems.push(e);
                        }
                        arrays.push((words.len() - 1, elems));
                        continue;
                    }
                    "(" if words.len() == 1 && arrays.is_empty() => {
                        // `name() compound`: a function definition.
                        if self
                            .tokens
                            .get(self.i)
                            .is_some_and(|n| n.operator && n.text == ")")
                        {
                            self.i += 1;
                        }
                        words.clear();
                        self.function_next = true;
                        continue;
                    }
                    "(" if words.is_empty() => {
                        self.push_frame(Frame::Subshell);
                        continue;
                    }
                    ")" => {
                        self.finish(&mut words, &mut arrays, conditional || piped);
                        self.pop_frame();
                        continue;
                    }
                    _ => {}
                }
                let next_piped = op == "|" || op == "|&";
                // The command before `|` or `&` runs in a subshell.
                let sub = piped || next_piped || op == "&";
                self.finish(&mut words, &mut arrays, conditional || sub);
                skip_header = false;
                conditional = op == "&&" || op == "||";
                piped = next_piped;
                if op == ";;" && self.frames.last().is_some_and(|(f, _)| *f == Frame::Case) {
                    pattern = true;
                }
                continue;
            }
            if std::mem::take(&mut target_next) || skip_header {
                continue;
            }
            if pattern {
                if t.text == "esac" {
                    pattern = false;
                    self.pop_frame();
                }
                continue;
            }
            if words.is_empty() {
                match t.text.as_str() {
                    "if" | "while" | "until" => {
                        self.push_frame(if t.text == "if" {
                            Frame::If
                        } else {
                            Frame::Loop
                        });
                        continue;
                    }
                    "then" | "do" | "else" | "elif" | "!" => continue,
                    "fi" | "done" | "}" | "esac" => {
                        self.pop_frame();
                        continue;
                    }
                    "{" => {
                        self.push_frame(Frame::Brace);
                        continue;
                    }
                    "for" | "select" => {
                        self.push_frame(Frame::Loop);
                        // The loop variable changes each time round.
                        if let Some(v) = self.tokens.get(self.i).filter(|v| !v.operator) {
                            self.set(&v.text, unknown(v.at, "it is a loop variable"));
                        }
                        skip_header = true;
                        continue;
                    }
                    "case" => {
                        self.push_frame(Frame::Case);
                        while let Some(h) = self.tokens.get(self.i) {
                            self.i += 1;
                            if !h.operator && h.text == "in" {
                                break;
                            }
                        }
                        pattern = true;
                        continue;
                    }
                    "function" => {
                        // `function name [()]`: the body follows.
                        self.i += 1;
                        if self
                            .tokens
                            .get(self.i)
                            .is_some_and(|n| n.operator && n.text == "(")
                        {
                            self.i += 2;
                        }
                        self.function_next = true;
                        continue;
                    }
                    _ => {}
                }
            }
            all_assignments &= assigned_name(&t.text).is_some();
            words.push(t);
        }
        self.finish(&mut words, &mut arrays, conditional || piped);
    }

    /// Why an assignment here gives a value the reader cannot follow.
    fn context(&self, conditional: bool) -> Option<&'static str> {
        if self.confused {
            Some("the script's structure could not be followed there")
        } else if self.in_function() {
            Some("it is assigned in a function")
        } else if self.frames.iter().any(|(f, _)| *f == Frame::Loop) {
            Some("it is assigned in a loop")
        } else if self
            .frames
            .iter()
            .any(|(f, _)| matches!(f, Frame::If | Frame::Case))
        {
            Some("it is assigned under a condition")
        } else if self.frames.iter().any(|(f, _)| *f == Frame::Subshell) || conditional {
            Some("it is assigned under a condition or in a subshell")
        } else {
            None
        }
    }

    fn set(&mut self, name: &str, v: Value) {
        if name == "IFS" {
            self.ifs_changed = true;
        }
        *self.assigned.entry(name.to_string()).or_default() += 1;
        self.vars.insert(name.to_string(), v);
    }

    fn finish(
        &mut self,
        words: &mut Vec<&'t Token>,
        arrays: &mut Vec<(usize, Vec<&'t Token>)>,
        conditional: bool,
    ) {
        let ws = std::mem::take(words);
        let arrs = std::mem::take(arrays);
        if ws.is_empty() {
            return;
        }
        let lead = assignment_run(&ws);
        let arrs: HashMap<usize, Vec<&Token>> = arrs.into_iter().collect();
        let array_at = |k: usize| arrs.get(&k).map(Vec::as_slice);
        let Some(program) = ws.get(lead) else {
            // Only assignments: they set shell variables.
            self.nested(&ws);
            for (k, w) in ws.iter().enumerate() {
                self.assign(w, array_at(k), conditional);
            }
            return;
        };
        let name = program.text.as_str();
        let rest = ws.get(lead + 1..).unwrap_or_default();
        match name {
            _ if DECLARE.contains(&name) => {
                let odd = rest.iter().any(|w| {
                    w.text.starts_with(['-', '+'])
                        && w.text
                            .trim_start_matches(['-', '+'])
                            .contains(|c: char| !"axrgt".contains(c))
                });
                for (k, w) in ws.iter().enumerate().skip(lead + 1) {
                    if w.text.starts_with(['-', '+']) {
                        continue;
                    }
                    if odd {
                        if let Some(n) = assigned_name(&w.text)
                            .or(lex::is_var_name(&w.text).then_some(w.text.as_str()))
                        {
                            self.set(n, unknown(w.at, "`declare` changes how it is stored"));
                        }
                    } else if assigned_name(&w.text).is_some() {
                        self.assign(w, array_at(k), conditional);
                    }
                }
            }
            "eval" | "source" | "." => {
                self.tainted.get_or_insert(program.at);
            }
            "read" | "mapfile" | "readarray" | "getopts" | "printf" | "unset" | "let" => {
                let why = if name == "unset" {
                    "it is unset"
                } else {
                    "it is read at run time"
                };
                let cleared = name == "unset" && self.context(conditional).is_none();
                for w in rest {
                    let n = w.text.split('[').next().unwrap_or("");
                    if !lex::is_var_name(n) {
                        continue;
                    }
                    if cleared && !w.text.contains('[') {
                        self.set(n, Value::Unset);
                    } else {
                        self.set(n, unknown(w.at, why));
                    }
                }
                if matches!(name, "read" | "mapfile" | "readarray") {
                    for n in ["REPLY", "MAPFILE"] {
                        self.set(n, unknown(program.at, why));
                    }
                }
            }
            _ => {}
        }
        let mut fields = Vec::new();
        for w in ws.iter().skip(lead) {
            fields.extend(self.expand(w));
        }
        self.nested(&ws);
        self.out.push(Command {
            words: fields,
            at: program.at,
        });
    }

    /// The commands of command and process substitutions in `words`, read
    /// on their own (they see no variable as known), at their word.
    fn nested(&mut self, words: &[&Token]) {
        if self.depth >= MAX_DEPTH {
            return;
        }
        for w in words {
            for (_, body) in w.substitutions.iter().flat_map(|s| s.iter()) {
                let scan = lex::word_parts(body);
                let mut inner = Walker::new(&scan.tokens, None);
                inner.depth = self.depth + 1;
                inner.run();
                for mut c in inner.out {
                    c.at = w.at;
                    for f in &mut c.words {
                        f.at = w.at;
                    }
                    self.out.push(c);
                }
            }
        }
    }

    /// `NAME=value`, `NAME+=value`, `NAME=(..)`, `NAME+=(..)`.
    fn assign(&mut self, w: &Token, elems: Option<&[&Token]>, conditional: bool) {
        let Some(name) = assigned_name(&w.text) else {
            return;
        };
        let append = w
            .text
            .get(name.len()..)
            .is_some_and(|r| r.starts_with("+="));
        let mentions_bwrap = elems.unwrap_or(&[]).iter().chain([&w]).any(|t| {
            t.text
                .split(['=', ' '])
                .any(|p| super::program_name(p) == "bwrap")
        });
        // An array names bwrap as its program near its start (behind a
        // few wrappers): its first words are enough to look at.
        let was_bwrap = match self.vars.get(name) {
            Some(Value::Unknown { bwrap, .. }) => *bwrap,
            Some(Value::Array(a)) => a
                .iter()
                .take(16)
                .any(|f| super::program_name(f.arg.text()) == "bwrap"),
            _ => false,
        };
        if let Some(why) = self.context(conditional) {
            // `a+=(..)` or `a=("${a[@]}" ..)` in a loop, branch or
            // function adds words zero or more times: the words before
            // stay known, and what it adds is one placeholder.
            let self_first = elems
                .and_then(|e| e.first())
                .is_some_and(|t| t.text == format!("${{{name}[@]}}"));
            if elems.is_some() && (append || self_first) {
                if let Some(Value::Array(mut items)) = self.vars.remove(name) {
                    let tail = if self_first { 1 } else { 0 };
                    let added: Vec<&str> = elems
                        .unwrap_or_default()
                        .iter()
                        .skip(tail)
                        .map(|t| t.text.as_str())
                        .collect();
                    let placeholder = Field {
                        arg: Arg::Any(added.join(" ")),
                        at: w.at,
                        bwrap_var: None,
                    };
                    // One placeholder each time the append is written, not
                    // each time it runs.
                    items.push(placeholder);
                    self.set(name, Value::Array(items));
                    return;
                }
            }
            self.set(
                name,
                Value::Unknown {
                    at: w.at,
                    why,
                    bwrap: mentions_bwrap || was_bwrap,
                },
            );
            return;
        }
        // The new words first, while the old value is still in place for
        // `a=("${a[@]}" ..)`; then the old value is taken, not copied, so
        // a long run of `+=` costs what it adds.
        let new_items: Option<Vec<Field>> =
            elems.map(|elems| elems.iter().flat_map(|e| self.expand(e)).collect());
        let new_pieces = match elems {
            Some(_) => Vec::new(),
            None => self.scalar_value(w, name.len() + if append { 2 } else { 1 }),
        };
        let old = if append { self.vars.remove(name) } else { None };
        let value = match elems {
            Some(_) => {
                let mut items = match (append, old) {
                    (true, Some(Value::Array(a))) => a,
                    (true, Some(Value::Scalar { text, known, .. })) => vec![Field {
                        arg: if known {
                            Arg::Known(text)
                        } else {
                            Arg::One(text)
                        },
                        at: w.at,
                        bwrap_var: None,
                    }],
                    (true, Some(Value::Unset)) | (false, _) => Vec::new(),
                    (true, None) => vec![Field {
                        arg: Arg::Any(format!("${{{name}[@]}}")),
                        at: w.at,
                        bwrap_var: None,
                    }],
                    (true, Some(u @ Value::Unknown { .. })) => {
                        self.set(name, u);
                        return;
                    }
                };
                items.extend(new_items.unwrap_or_default());
                Value::Array(items)
            }
            None => {
                let pieces = new_pieces;
                match (append, old) {
                    (true, Some(Value::Scalar { pieces: old, .. })) => {
                        vscalar(old.into_iter().chain(pieces).collect())
                    }
                    (true, Some(Value::Unset)) | (false, _) => vscalar(pieces),
                    (true, None) => vscalar(
                        std::iter::once((format!("${name}"), false))
                            .chain(pieces)
                            .collect(),
                    ),
                    (true, Some(_)) => unknown(
                        w.at,
                        "it is appended to in a way the reader does not follow",
                    ),
                }
            }
        };
        self.set(name, value);
    }

    /// The value of `NAME=value` (the prefix of `skip` bytes dropped):
    /// expanded without field splitting or globbing.
    fn scalar_value(&self, w: &Token, skip: usize) -> Vec<(String, bool)> {
        let mut pieces: Vec<(String, bool)> = Vec::new();
        let mut skip = skip;
        for (k, p) in w.parts.iter().enumerate() {
            match p {
                Part::Literal { text: t, quoted } => {
                    let t = if skip > 0 {
                        let n = skip.min(t.len());
                        skip -= n;
                        t.get(n..).unwrap_or("")
                    } else {
                        t.as_str()
                    };
                    let tilde = !quoted && k == 0 && t.starts_with('~');
                    pieces.push((t.to_string(), !tilde));
                }
                Part::Expansion { text: t, .. } => match self.resolve(t, true) {
                    Resolved::Scalar { pieces: p, .. } => pieces.extend(p),
                    Resolved::Elems(items) => {
                        let joined: Vec<&str> = items.iter().map(|f| f.arg.text()).collect();
                        let known = items.iter().all(|f| matches!(f.arg, Arg::Known(_)));
                        pieces.push((joined.join(" "), known));
                    }
                    Resolved::Unknown { text: v, .. } => pieces.push((v, false)),
                },
            }
        }
        pieces
    }

    /// A variable's value here, if the reader can know it.
    fn lookup(&self, name: &str) -> Cow<'_, Value> {
        if let Some(at) = self.tainted {
            return Cow::Owned(unknown(
                at,
                "`eval` or `source` ran before, and may have changed it",
            ));
        }
        if self.in_function() {
            let seen = self.assigned.get(name).copied().unwrap_or(0);
            let total = self
                .totals
                .as_ref()
                .and_then(|t| t.get(name))
                .copied()
                .unwrap_or(0);
            if total > seen {
                return Cow::Owned(unknown(
                    0,
                    "a function sees it as assigned when the function is called",
                ));
            }
        }
        match self.vars.get(name) {
            Some(v) => Cow::Borrowed(v),
            None => Cow::Owned(unknown(0, "it comes from the environment")),
        }
    }

    /// One expansion as written (`$X`, `${a[@]}`, `$(..)`, `$@`).
    fn resolve(&self, text: &str, quoted: bool) -> Resolved {
        let whole = |multi: bool| Resolved::Unknown {
            text: text.to_string(),
            multi,
            bwrap: None,
        };
        if text == "$" {
            return rscalar("$".into(), true);
        }
        let inner = match text.strip_prefix("${").and_then(|t| t.strip_suffix('}')) {
            Some(i) => i,
            None => match text.strip_prefix('$') {
                Some(n) if lex::is_var_name(n) => n,
                Some("@" | "*") => return whole(true),
                _ => return whole(false),
            },
        };
        let (name, index) = match inner.split_once('[') {
            Some((n, rest)) => (n, rest.strip_suffix(']')),
            None => (inner, None),
        };
        if matches!(name, "@" | "*") && index.is_none() {
            return whole(true);
        }
        if !lex::is_var_name(name) || (inner.contains('[') && index.is_none()) {
            // `${X:-..}`, `${#X}`, `${!X}`, `${X/a/b}`: not followed.
            let multi = inner.contains("[@]") || inner.contains("[*]") || inner.starts_with('!');
            return whole(multi);
        }
        if self.ifs_changed && !quoted {
            return whole(true);
        }
        let value = self.lookup(name);
        let unknown_of =
            |at: usize, why: &'static str, bwrap: bool, multi: bool| Resolved::Unknown {
                text: text.to_string(),
                multi,
                bwrap: bwrap.then(|| (name.to_string(), at, why)),
            };
        match (index, &*value) {
            (Some("@"), Value::Array(items)) => Resolved::Elems(items.clone()),
            (Some("*"), Value::Array(items)) => {
                if items.iter().all(|f| matches!(f.arg, Arg::Known(_))) {
                    let texts: Vec<&str> = items.iter().map(|f| f.arg.text()).collect();
                    rscalar(texts.join(" "), true)
                } else {
                    whole(true)
                }
            }
            (
                Some("@" | "*"),
                Value::Scalar {
                    text,
                    known,
                    pieces,
                },
            ) => Resolved::Scalar {
                text: text.clone(),
                known: *known,
                pieces: pieces.clone(),
            },
            (Some("@" | "*"), Value::Unset) => Resolved::Elems(Vec::new()),
            (Some(i), Value::Array(items)) => match i.parse::<usize>() {
                Ok(n) => match items.get(n) {
                    // Elements from an expansion shift the indexes.
                    Some(f)
                        if items
                            .iter()
                            .take(n + 1)
                            .all(|f| !matches!(f.arg, Arg::Any(_))) =>
                    {
                        match &f.arg {
                            Arg::Known(s) => rscalar(s.clone(), true),
                            other => rscalar(other.text().to_string(), false),
                        }
                    }
                    None if items.iter().all(|f| !matches!(f.arg, Arg::Any(_))) => {
                        rscalar(String::new(), true)
                    }
                    _ => whole(false),
                },
                Err(_) => whole(false),
            },
            (
                Some("0") | None,
                Value::Scalar {
                    text,
                    known,
                    pieces,
                },
            ) => Resolved::Scalar {
                text: text.clone(),
                known: *known,
                pieces: pieces.clone(),
            },
            (None, Value::Array(items)) => match items.first() {
                Some(Field {
                    arg: Arg::Known(s), ..
                }) => rscalar(s.clone(), true),
                None => rscalar(String::new(), true),
                _ => whole(false),
            },
            (Some(_), Value::Scalar { .. }) => rscalar(String::new(), true),
            (_, Value::Unset) => rscalar(String::new(), true),
            (index, Value::Unknown { at, why, bwrap }) => {
                unknown_of(*at, why, *bwrap, matches!(index, Some("@" | "*")))
            }
        }
    }

    /// A command word's fields, as bash expands it.
    fn expand(&self, w: &Token) -> Vec<Field> {
        let mut out: Vec<Field> = Vec::new();
        let mut cur: Option<Cur> = None;
        let new = |at: usize| Cur {
            at,
            ..Cur::default()
        };
        for (k, p) in w.parts.iter().enumerate() {
            match p {
                Part::Literal { text, quoted: true } => {
                    let c = cur.get_or_insert_with(|| new(w.at));
                    c.text.push_str(text);
                    c.solid = true;
                }
                Part::Literal {
                    text,
                    quoted: false,
                } => {
                    let c = cur.get_or_insert_with(|| new(w.at));
                    if k == 0 && text.starts_with('~') {
                        // The home of the user running the script.
                        c.unknown = true;
                    }
                    if text.contains(['*', '?', '['])
                        || (text.contains('{')
                            && text.contains('}')
                            && (text.contains(',') || text.contains("..")))
                    {
                        c.glob = true;
                    }
                    c.text.push_str(text);
                    c.solid = true;
                }
                Part::Expansion { text, quoted } => match self.resolve(text, *quoted) {
                    Resolved::Scalar { text: v, known, .. } if *quoted => {
                        let c = cur.get_or_insert_with(|| new(w.at));
                        c.text.push_str(&v);
                        c.solid = true;
                        c.unknown |= !known;
                    }
                    Resolved::Scalar {
                        known: false,
                        pieces,
                        ..
                    } => {
                        // Unquoted: what is known splits, what is not
                        // stays one unknown stretch of the field.
                        for (p, known) in pieces {
                            if known {
                                split_into(&p, &mut cur, &mut out, w.at);
                            } else {
                                let c = cur.get_or_insert_with(|| new(w.at));
                                c.text.push_str(&p);
                                c.unknown = true;
                            }
                        }
                    }
                    Resolved::Scalar { text: v, .. } => {
                        split_into(&v, &mut cur, &mut out, w.at);
                    }
                    Resolved::Elems(items) => {
                        let n = items.len();
                        for (j, item) in items.into_iter().enumerate() {
                            if *quoted {
                                if j > 0 {
                                    flush(&mut cur, &mut out);
                                }
                                let c = cur.get_or_insert_with(|| new(item.at));
                                c.text.push_str(item.arg.text());
                                c.solid = true;
                                match item.arg {
                                    Arg::Known(_) => {}
                                    Arg::One(_) => c.unknown = true,
                                    Arg::Any(_) => c.any = true,
                                }
                                if j == 0 && n > 1 {
                                    c.bwrap = item.bwrap_var;
                                }
                            } else {
                                if j > 0 {
                                    flush(&mut cur, &mut out);
                                }
                                match item.arg {
                                    Arg::Known(v) => split_into(&v, &mut cur, &mut out, item.at),
                                    other => {
                                        let c = cur.get_or_insert_with(|| new(item.at));
                                        c.text.push_str(other.text());
                                        c.unknown = true;
                                        c.any = true;
                                    }
                                }
                            }
                        }
                    }
                    Resolved::Unknown { text, multi, bwrap } => {
                        let c = cur.get_or_insert_with(|| new(w.at));
                        c.text.push_str(&text);
                        c.unknown = true;
                        if *quoted {
                            c.solid |= !multi;
                        }
                        c.any |= multi;
                        if bwrap.is_some() {
                            c.bwrap = bwrap;
                        }
                    }
                },
            }
        }
        flush(&mut cur, &mut out);
        out
    }
}

/// A known, unquoted value split on bash's default field separators into
/// the fields being built.
fn split_into(v: &str, cur: &mut Option<Cur>, out: &mut Vec<Field>, at: usize) {
    if v.starts_with(IFS_WHITESPACE) {
        flush(cur, out);
    }
    let pieces: Vec<&str> = v.split(IFS_WHITESPACE).filter(|p| !p.is_empty()).collect();
    for (j, piece) in pieces.iter().enumerate() {
        if j > 0 {
            flush(cur, out);
        }
        let c = cur.get_or_insert_with(|| Cur {
            at,
            ..Cur::default()
        });
        c.text.push_str(piece);
        c.solid = true;
        if piece.contains(['*', '?', '[']) {
            c.glob = true;
        }
    }
    if v.ends_with(IFS_WHITESPACE) && !pieces.is_empty() {
        flush(cur, out);
    }
}

/// The field being built, if anything makes it exist: an unquoted
/// expansion that came to nothing makes none.
fn flush(cur: &mut Option<Cur>, out: &mut Vec<Field>) {
    if let Some(c) = cur.take() {
        if c.solid || c.unknown || c.any || !c.text.is_empty() {
            out.push(c.finish());
        }
    }
}

/// A scalar value from its pieces.
fn vscalar(pieces: Vec<(String, bool)>) -> Value {
    Value::Scalar {
        text: pieces.iter().map(|(t, _)| t.as_str()).collect(),
        known: pieces.iter().all(|(_, k)| *k),
        pieces,
    }
}

/// A resolved scalar of one piece.
fn rscalar(text: String, known: bool) -> Resolved {
    Resolved::Scalar {
        pieces: vec![(text.clone(), known)],
        text,
        known,
    }
}

fn unknown(at: usize, why: &'static str) -> Value {
    Value::Unknown {
        at,
        why,
        bwrap: false,
    }
}

/// The name a `NAME=` or `NAME+=` word assigns.
fn assigned_name(word: &str) -> Option<&str> {
    let (left, _) = word.split_once('=')?;
    let name = left.strip_suffix('+').unwrap_or(left);
    lex::is_var_name(name).then_some(name)
}

/// `NAME=` or `NAME+=` with nothing after: an array follows.
fn array_target(word: &str) -> bool {
    word.strip_suffix('=')
        .is_some_and(|n| lex::is_var_name(n.strip_suffix('+').unwrap_or(n)))
}

/// How many words at the start are assignments.
fn assignment_run(words: &[&Token]) -> usize {
    words
        .iter()
        .take_while(|w| {
            assigned_name(&w.text).is_some()
                && !w.parts.first().is_some_and(|p| {
                    matches!(
                        p,
                        Part::Literal { quoted: true, .. } | Part::Expansion { .. }
                    )
                })
        })
        .count()
}
