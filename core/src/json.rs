//! A small JSON parser that keeps what serde_json throws away: the line and
//! column of every value and key, and every duplicate key.
//!
//! Why our own: the audit must point at the exact line of a setting, must not
//! let a duplicated key silently keep one of its values, and must refuse
//! oversized or over-deep input before allocating for it. serde_json gives
//! none of the positions and silently keeps the last duplicate; the spanned
//! alternatives (json-spanned-value, jsonc-parser) either hide duplicates or
//! pull in more than we need. The grammar is RFC 8259, strict: no comments,
//! no trailing commas, no BOM.

use std::collections::HashMap;
use std::fmt;

/// Size and shape limits applied before and during parsing.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// Largest accepted input, in bytes.
    pub max_bytes: usize,
    /// Deepest accepted nesting of arrays and objects.
    pub max_depth: usize,
    /// Most values (of any kind) in one document.
    pub max_values: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_bytes: 8 * 1024 * 1024,
            max_depth: 64,
            max_values: 1_000_000,
        }
    }
}

/// A 1-based line and column (columns count Unicode scalar values), plus the
/// byte offset of the same place.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Pos {
    pub line: u32,
    pub column: u32,
    pub offset: u32,
}

/// Why input was refused outright (the CLI exits 2 for these).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum InputErrorKind {
    TooLarge { size: usize, limit: usize },
    TooDeep { limit: usize },
    TooManyValues { limit: usize },
    InvalidUtf8,
    ByteOrderMark,
    Syntax(String),
}

/// A refusal, with the place it happened when there is one.
///
/// Boxed, like `import::ImportError`: every `?` on the way out of the
/// parser and the decoder moves a pointer, not the kind and the place.
/// Its fields are read through [`InputFailure`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InputError(Box<InputFailure>);

/// What an [`InputError`] holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InputFailure {
    pub kind: InputErrorKind,
    pub pos: Option<Pos>,
}

impl InputError {
    pub fn new(kind: InputErrorKind, pos: Option<Pos>) -> InputError {
        InputError(Box::new(InputFailure { kind, pos }))
    }

    /// The kind and the place, moved out.
    pub fn into_failure(self) -> InputFailure {
        *self.0
    }
}

impl std::ops::Deref for InputError {
    type Target = InputFailure;
    fn deref(&self) -> &InputFailure {
        &self.0
    }
}

impl std::ops::DerefMut for InputError {
    fn deref_mut(&mut self) -> &mut InputFailure {
        &mut self.0
    }
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(p) = self.pos {
            write!(f, "{}:{}: ", p.line, p.column)?;
        }
        match &self.kind {
            InputErrorKind::TooLarge { size, limit } => write!(
                f,
                "input is {size} bytes, over the {limit}-byte limit; refusing to parse it"
            ),
            InputErrorKind::TooDeep { limit } => {
                write!(
                    f,
                    "nesting is deeper than {limit} levels; refusing to parse it"
                )
            }
            InputErrorKind::TooManyValues { limit } => {
                write!(
                    f,
                    "input holds more than {limit} values; refusing to parse it"
                )
            }
            InputErrorKind::InvalidUtf8 => write!(f, "input is not valid UTF-8"),
            InputErrorKind::ByteOrderMark => write!(
                f,
                "input starts with a byte-order mark; save it as UTF-8 without BOM"
            ),
            InputErrorKind::Syntax(m) => write!(f, "invalid JSON: {m}"),
        }
    }
}

impl std::error::Error for InputError {}

/// A JSON number, kept as written so nothing is rounded before a rule sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Number(pub Box<str>);

impl Number {
    /// The value as a non-negative integer, when it is one exactly.
    pub fn as_u64(&self) -> Option<u64> {
        self.0.parse::<u64>().ok()
    }
    /// Whether the number is written with a minus sign.
    pub fn is_negative(&self) -> bool {
        self.0.starts_with('-')
    }
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// One member of an object, in source order.
#[derive(Debug, Clone, PartialEq)]
pub struct Member {
    pub key: String,
    pub key_pos: Pos,
    pub value: Node,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    Null,
    Bool(bool),
    Number(Number),
    String(String),
    Array(Vec<Node>),
    /// Members in source order; duplicates are kept (see [`Document::duplicates`]).
    Object(Vec<Member>),
}

/// A value with the position where it starts and the byte offset where it ends.
#[derive(Debug, Clone, PartialEq)]
pub struct Node {
    pub pos: Pos,
    pub end: u32,
    pub value: Value,
}

impl Node {
    /// A short name of the value's JSON type, for messages.
    pub fn type_name(&self) -> &'static str {
        match self.value {
            Value::Null => "null",
            Value::Bool(_) => "a boolean",
            Value::Number(_) => "a number",
            Value::String(_) => "a string",
            Value::Array(_) => "an array",
            Value::Object(_) => "an object",
        }
    }

    pub fn as_str(&self) -> Option<&str> {
        match &self.value {
            Value::String(s) => Some(s),
            _ => None,
        }
    }

    pub fn members(&self) -> Option<&[Member]> {
        match &self.value {
            Value::Object(m) => Some(m),
            _ => None,
        }
    }

    /// The last member named `key` (the one most parsers would keep).
    pub fn get(&self, key: &str) -> Option<&Node> {
        self.members()?
            .iter()
            .rev()
            .find(|m| m.key == key)
            .map(|m| &m.value)
    }

    /// The node an RFC 6901 pointer names, if it exists.
    pub fn pointer(&self, pointer: &str) -> Option<&Node> {
        resolve(self, pointer, |n, key| n.get(key))
    }

    /// Where a pointer lands: the node itself when it exists, else its nearest
    /// existing ancestor. The flag says whether the node itself was found.
    pub fn locate(&self, pointer: &str) -> (Pos, bool) {
        nearest(self, pointer, |p| self.pointer(p))
    }
}

/// Where the run of plain string bytes starting at `i` ends: at the first
/// `"`, `\\` or control byte (or the end). Eight bytes are tested at a
/// time while none of them is one of those.
pub(crate) fn plain_run_end(src: &[u8], mut i: usize) -> usize {
    const ONES: u64 = u64::from_le_bytes([0x01; 8]);
    const HIGH: u64 = u64::from_le_bytes([0x80; 8]);
    // The high bit of each zero byte of `v`. Bits above the lowest one may
    // be false alarms (a borrow runs on), the lowest one never is.
    let zeros = |v: u64| v.wrapping_sub(ONES) & !v & HIGH;
    // A byte below 0x20 (high bit clear, so bytes >= 0x80 never count),
    // or equal to `"` or `\\`; little-endian, so the lowest marked byte
    // is the first one in the text.
    let stops = |x: u64| {
        x.wrapping_sub(ONES * 0x20) & !x & HIGH
            | zeros(x ^ (ONES * u64::from(b'"')))
            | zeros(x ^ (ONES * u64::from(b'\\')))
    };
    let word = |chunk: &[u8]| <[u8; 8]>::try_from(chunk).ok().map(u64::from_le_bytes);
    while let Some(x) = src.get(i..i + 8).and_then(word) {
        let stops = stops(x);
        if stops != 0 {
            return i + (stops.trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    // Fewer than eight bytes left: the last eight bytes of the text are
    // shifted so that the rest comes first, followed by zero bytes (which
    // stop it where the text ends).
    {
        let rest = src.len().saturating_sub(i);
        if rest == 0 {
            return i;
        }
        if let Some(x) = src
            .len()
            .checked_sub(8)
            .and_then(|a| src.get(a..))
            .and_then(word)
        {
            let passed = 8 * (8 - rest) as u32;
            return i + (stops(x >> passed).trailing_zeros() / 8) as usize;
        }
    }
    while let Some(&b) = src.get(i) {
        if b == b'"' || b == b'\\' || b < 0x20 {
            break;
        }
        i += 1;
    }
    i
}

/// Objects with more members than this get a hash map in a [`Locator`].
const INDEXED_MEMBERS: usize = 32;

/// Resolves many pointers into one document without rescanning large
/// objects: the first lookup in an object of more than
/// `INDEXED_MEMBERS` members builds a map of its keys (the last duplicate
/// wins, as with [`Node::get`]). Small objects are scanned as before.
#[derive(Debug)]
pub struct Locator<'a> {
    root: &'a Node,
    /// Behind a lock so that threads auditing one large document can share
    /// it (the page runs on one thread, where it is never contended).
    /// Member positions by key, for each indexed object (by address). No
    /// references inside, so a `Locator<'a>` can stand in for a shorter
    /// lifetime.
    maps: std::sync::Mutex<HashMap<usize, HashMap<Box<str>, usize>>>,
}

impl<'a> Locator<'a> {
    pub fn new(root: &'a Node) -> Locator<'a> {
        Locator {
            root,
            maps: Default::default(),
        }
    }

    fn member(&self, node: &'a Node, key: &str) -> Option<&'a Node> {
        let members = node.members()?;
        if members.len() <= INDEXED_MEMBERS {
            return node.get(key);
        }
        // The node's address names it for as long as `'a` lasts.
        let id = std::ptr::from_ref(node) as usize;
        // A panic while the lock was held cannot leave a map half-built in
        // a way that matters: an entry is inserted whole or not at all.
        let mut maps = self
            .maps
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let map = maps.entry(id).or_insert_with(|| {
            members
                .iter()
                .enumerate()
                .map(|(i, m)| (Box::from(m.key.as_str()), i))
                .collect()
        });
        let i = *map.get(key)?;
        members.get(i).map(|m| &m.value)
    }

    /// [`Node::pointer`] from the root.
    pub fn pointer(&self, pointer: &str) -> Option<&'a Node> {
        resolve(self.root, pointer, |n, key| self.member(n, key))
    }

    /// [`Node::locate`] from the root.
    pub fn locate(&self, pointer: &str) -> (Pos, bool) {
        nearest(self.root, pointer, |p| self.pointer(p))
    }
}

/// Follow an RFC 6901 pointer from `root`, looking keys up with `member`.
fn resolve<'a>(
    root: &'a Node,
    pointer: &str,
    member: impl Fn(&'a Node, &str) -> Option<&'a Node>,
) -> Option<&'a Node> {
    if pointer.is_empty() {
        return Some(root);
    }
    let rest = pointer.strip_prefix('/')?;
    let mut node = root;
    for raw in rest.split('/') {
        let token = unescape_token(raw);
        node = match &node.value {
            Value::Object(_) => member(node, &token)?,
            Value::Array(items) => {
                if token.len() > 1 && token.starts_with('0') {
                    return None;
                }
                items.get(token.parse::<usize>().ok()?)?
            }
            _ => return None,
        };
    }
    Some(node)
}

/// The position of `pointer`, else of its nearest existing ancestor; the
/// flag says whether the node itself was found.
fn nearest<'a>(
    root: &'a Node,
    pointer: &str,
    lookup: impl Fn(&str) -> Option<&'a Node>,
) -> (Pos, bool) {
    if let Some(n) = lookup(pointer) {
        return (n.pos, true);
    }
    let mut p = pointer;
    while let Some(i) = p.rfind('/') {
        p = p.get(..i).unwrap_or_default();
        if let Some(n) = lookup(p) {
            return (n.pos, false);
        }
    }
    (root.pos, false)
}

/// Escape one reference token for an RFC 6901 pointer.
pub fn escape_token(token: &str) -> String {
    let mut out = String::with_capacity(token.len());
    push_escaped_token(&mut out, token);
    out
}

/// Append one reference token, escaped, to a pointer being built.
pub fn push_escaped_token(out: &mut String, token: &str) {
    if !token.contains(['~', '/']) {
        out.push_str(token);
        return;
    }
    for c in token.chars() {
        match c {
            '~' => out.push_str("~0"),
            '/' => out.push_str("~1"),
            c => out.push(c),
        }
    }
}

fn unescape_token(token: &str) -> std::borrow::Cow<'_, str> {
    if token.contains('~') {
        std::borrow::Cow::Owned(token.replace("~1", "/").replace("~0", "~"))
    } else {
        std::borrow::Cow::Borrowed(token)
    }
}

/// A key that appears more than once in the same object.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Duplicate {
    /// Pointer of the duplicated member.
    pub pointer: String,
    /// Where the key first appears.
    pub first: Pos,
    /// Where it appears again.
    pub again: Pos,
}

/// A parsed document: its root value and the duplicate keys found on the way.
#[derive(Debug, Clone, PartialEq)]
pub struct Document {
    pub root: Node,
    pub duplicates: Vec<Duplicate>,
}

/// Parse bytes as one JSON document under `limits`.
pub fn parse(bytes: &[u8], limits: Limits) -> Result<Document, InputError> {
    if bytes.len() > limits.max_bytes {
        return Err(InputError::new(
            InputErrorKind::TooLarge {
                size: bytes.len(),
                limit: limits.max_bytes,
            },
            None,
        ));
    }
    if bytes.starts_with(&[0xEF, 0xBB, 0xBF]) {
        return Err(InputError::new(
            InputErrorKind::ByteOrderMark,
            Some(Pos {
                line: 1,
                column: 1,
                offset: 0,
            }),
        ));
    }
    let text = match std::str::from_utf8(bytes) {
        Ok(t) => t,
        Err(e) => {
            let good = e.valid_up_to();
            let mut cursor = Cursor::new(bytes);
            let pos = cursor.pos_at(good);
            return Err(InputError::new(InputErrorKind::InvalidUtf8, Some(pos)));
        }
    };
    let mut p = Parser {
        src: text.as_bytes(),
        text,
        i: 0,
        line: 1,
        line_start: 0,
        continuation: 0,
        limits,
        values: 0,
        duplicates: Vec::new(),
        path: Vec::new(),
        items: Vec::new(),
        members: Vec::new(),
    };
    p.skip_ws();
    let root = p.value(0)?;
    p.skip_ws();
    if p.i < p.src.len() {
        return Err(p.error_here("unexpected content after the end of the document"));
    }
    Ok(Document {
        root,
        duplicates: p.duplicates,
    })
}

/// Turns byte offsets into lines and columns, counting from the start (or
/// from the last offset asked for, when it is not past the next one): for
/// the places of errors, which the parser's running count may not cover.
struct Cursor<'a> {
    src: &'a [u8],
    offset: usize,
    line: u32,
    column: u32,
}

impl<'a> Cursor<'a> {
    fn new(src: &'a [u8]) -> Self {
        Cursor {
            src,
            offset: 0,
            line: 1,
            column: 1,
        }
    }

    fn pos_at(&mut self, target: usize) -> Pos {
        let target = target.min(self.src.len());
        if target < self.offset {
            // Only reached for error reporting after a backwards step: recount.
            *self = Cursor::new(self.src);
        }
        let span = self.src.get(self.offset..target).unwrap_or(&[]);
        // Lines are counted by their ends; the column is the number of
        // characters (UTF-8 lead bytes) after the last one.
        let tail = match span.iter().rposition(|&b| b == b'\n') {
            Some(last) => {
                let lines = span.iter().filter(|&&b| b == b'\n').count();
                self.line = self
                    .line
                    .saturating_add(u32::try_from(lines).unwrap_or(u32::MAX));
                self.column = 1;
                span.get(last + 1..).unwrap_or(&[])
            }
            None => span,
        };
        let chars = tail.iter().filter(|&&b| b & 0xC0 != 0x80).count();
        self.column = self
            .column
            .saturating_add(u32::try_from(chars).unwrap_or(u32::MAX));
        self.offset = target;
        Pos {
            line: self.line,
            column: self.column,
            offset: u32::try_from(target).unwrap_or(u32::MAX),
        }
    }
}

enum PathSeg {
    Key(String),
    Index(usize),
}

struct Parser<'a> {
    src: &'a [u8],
    /// `src` as the `str` it was checked to be, so string runs are sliced
    /// out of it without checking their UTF-8 again.
    text: &'a str,
    i: usize,
    /// The line of `i`, the offset where it starts, and how many UTF-8
    /// continuation bytes lie between that start and `i`: enough for the
    /// line and column of any place between two tokens. A line ends only
    /// in white space between tokens ([`Parser::skip_ws`]; a string holds
    /// no raw line feed), and bytes outside ASCII appear only in strings
    /// ([`Parser::string`] counts them), so keeping these up to date costs
    /// nothing per byte; counting the characters of every stretch between
    /// two values again was a quarter of the parse.
    line: u32,
    line_start: usize,
    continuation: usize,
    limits: Limits,
    values: usize,
    duplicates: Vec<Duplicate>,
    path: Vec<PathSeg>,
    /// The elements of the arrays being parsed, innermost last: each array
    /// takes its own off the top when it closes, in a vector of exactly
    /// their number (growing one vector per array would leave most of its
    /// capacity unused, and copy it as it grows).
    items: Vec<Node>,
    /// The same for the members of the objects being parsed.
    members: Vec<Member>,
}

impl Parser<'_> {
    /// The place of `i`, which must be between tokens or at the start of
    /// one (never inside a string: see [`Parser::exact_pos`]).
    fn pos(&self) -> Pos {
        let chars = (self.i - self.line_start).saturating_sub(self.continuation);
        Pos {
            line: self.line,
            column: u32::try_from(chars + 1).unwrap_or(u32::MAX),
            offset: u32::try_from(self.i).unwrap_or(u32::MAX),
        }
    }

    /// The place of `i` wherever it is (an error can stop inside a
    /// string), counted from the start.
    fn exact_pos(&self) -> Pos {
        Cursor::new(self.src).pos_at(self.i)
    }

    fn error_here(&mut self, msg: &str) -> InputError {
        InputError::new(
            InputErrorKind::Syntax(msg.to_string()),
            Some(self.exact_pos()),
        )
    }

    fn peek(&self) -> Option<u8> {
        self.src.get(self.i).copied()
    }

    fn skip_ws(&mut self) {
        loop {
            match self.peek() {
                Some(b' ' | b'\t' | b'\r') => self.i += 1,
                Some(b'\n') => {
                    self.i += 1;
                    self.line = self.line.saturating_add(1);
                    self.line_start = self.i;
                    self.continuation = 0;
                }
                _ => return,
            }
        }
    }

    fn pointer(&self) -> String {
        let mut s = String::new();
        for seg in &self.path {
            s.push('/');
            match seg {
                PathSeg::Key(k) => s.push_str(&escape_token(k)),
                PathSeg::Index(i) => s.push_str(&i.to_string()),
            }
        }
        s
    }

    fn value(&mut self, depth: usize) -> Result<Node, InputError> {
        self.values += 1;
        if self.values > self.limits.max_values {
            return Err(InputError::new(
                InputErrorKind::TooManyValues {
                    limit: self.limits.max_values,
                },
                Some(self.pos()),
            ));
        }
        let pos = self.pos();
        let value = match self.peek() {
            None => return Err(self.error_here("unexpected end of input, expected a value")),
            Some(b'{') => self.object(depth + 1)?,
            Some(b'[') => self.array(depth + 1)?,
            Some(b'"') => Value::String(self.string()?),
            Some(b't') => self.literal("true", Value::Bool(true))?,
            Some(b'f') => self.literal("false", Value::Bool(false))?,
            Some(b'n') => self.literal("null", Value::Null)?,
            Some(b'-' | b'0'..=b'9') => Value::Number(self.number()?),
            Some(b) => {
                let msg = describe_unexpected(b, "a value");
                return Err(self.error_here(&msg));
            }
        };
        Ok(Node {
            pos,
            end: u32::try_from(self.i).unwrap_or(u32::MAX),
            value,
        })
    }

    fn enter(&mut self, depth: usize) -> Result<(), InputError> {
        if depth > self.limits.max_depth {
            return Err(InputError::new(
                InputErrorKind::TooDeep {
                    limit: self.limits.max_depth,
                },
                Some(self.pos()),
            ));
        }
        Ok(())
    }

    fn literal(&mut self, word: &str, v: Value) -> Result<Value, InputError> {
        if self.src.get(self.i..self.i + word.len()) == Some(word.as_bytes()) {
            self.i += word.len();
            Ok(v)
        } else {
            Err(self.error_here(&format!("invalid literal, expected `{word}`")))
        }
    }

    fn number(&mut self) -> Result<Number, InputError> {
        let start = self.i;
        if self.peek() == Some(b'-') {
            self.i += 1;
        }
        match self.peek() {
            Some(b'0') => {
                self.i += 1;
                if let Some(b'0'..=b'9') = self.peek() {
                    return Err(self.error_here("numbers must not have leading zeros"));
                }
            }
            Some(b'1'..=b'9') => self.digits(),
            _ => return Err(self.error_here("invalid number, expected a digit")),
        }
        if self.peek() == Some(b'.') {
            self.i += 1;
            if !matches!(self.peek(), Some(b'0'..=b'9')) {
                return Err(self.error_here("invalid number, expected a digit after `.`"));
            }
            self.digits();
        }
        if let Some(b'e' | b'E') = self.peek() {
            self.i += 1;
            if let Some(b'+' | b'-') = self.peek() {
                self.i += 1;
            }
            if !matches!(self.peek(), Some(b'0'..=b'9')) {
                return Err(self.error_here("invalid number, expected a digit in the exponent"));
            }
            self.digits();
        }
        let raw = std::str::from_utf8(self.src.get(start..self.i).unwrap_or(&[])).unwrap_or("0");
        Ok(Number(raw.into()))
    }

    fn digits(&mut self) {
        while let Some(b'0'..=b'9') = self.peek() {
            self.i += 1;
        }
    }

    fn string(&mut self) -> Result<String, InputError> {
        // Caller guarantees the opening quote.
        self.i += 1;
        // Most strings hold no escape: one run up to the closing quote,
        // copied once into a string of exactly its size.
        let start = self.i;
        let end = plain_run_end(self.src, start);
        if self.src.get(end) == Some(&b'"') {
            if let Some(run) = self.text.get(start..end) {
                self.i = end + 1;
                self.count_continuation(start);
                return Ok(run.to_owned());
            }
        }
        let out = self.escaped_string()?;
        self.count_continuation(start);
        Ok(out)
    }

    /// Add the UTF-8 continuation bytes of the string just passed, from
    /// `start`, to the line's count (see [`Parser::line`]).
    fn count_continuation(&mut self, start: usize) {
        let raw = self.src.get(start..self.i).unwrap_or_default();
        // An ASCII string (most are) is passed over a word at a time.
        if raw.is_ascii() {
            return;
        }
        self.continuation += raw.iter().filter(|&&b| b & 0xC0 == 0x80).count();
    }

    /// The rest of a string that holds an escape, from `self.i`.
    fn escaped_string(&mut self) -> Result<String, InputError> {
        let mut out = String::new();
        loop {
            let run_start = self.i;
            self.i = plain_run_end(self.src, self.i);
            // The input is valid UTF-8 and we stopped on an ASCII byte, so the
            // run is on a character boundary.
            if let Some(run) = self.text.get(run_start..self.i) {
                out.push_str(run);
            }
            match self.peek() {
                None => return Err(self.error_here("unterminated string")),
                Some(b'"') => {
                    self.i += 1;
                    return Ok(out);
                }
                Some(b'\\') => {
                    self.i += 1;
                    self.escape(&mut out)?;
                }
                Some(_) => {
                    return Err(self
                        .error_here("control character inside a string; write it as a \\u escape"))
                }
            }
        }
    }

    fn escape(&mut self, out: &mut String) -> Result<(), InputError> {
        let c = match self.peek() {
            Some(b'"') => '"',
            Some(b'\\') => '\\',
            Some(b'/') => '/',
            Some(b'b') => '\u{8}',
            Some(b'f') => '\u{c}',
            Some(b'n') => '\n',
            Some(b'r') => '\r',
            Some(b't') => '\t',
            Some(b'u') => {
                self.i += 1;
                let hi = self.hex4()?;
                let c = if (0xD800..0xDC00).contains(&hi) {
                    if self.src.get(self.i..self.i + 2) != Some(b"\\u") {
                        return Err(self.error_here(
                            "lone high surrogate in a \\u escape (not valid Unicode)",
                        ));
                    }
                    self.i += 2;
                    let lo = self.hex4()?;
                    if !(0xDC00..0xE000).contains(&lo) {
                        return Err(self.error_here(
                            "high surrogate not followed by a low surrogate in a \\u escape",
                        ));
                    }
                    let code = 0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00);
                    char::from_u32(code)
                } else if (0xDC00..0xE000).contains(&hi) {
                    return Err(
                        self.error_here("lone low surrogate in a \\u escape (not valid Unicode)")
                    );
                } else {
                    char::from_u32(hi)
                };
                match c {
                    Some(c) => out.push(c),
                    None => return Err(self.error_here("invalid \\u escape")),
                }
                return Ok(());
            }
            _ => return Err(self.error_here("invalid escape sequence")),
        };
        self.i += 1;
        out.push(c);
        Ok(())
    }

    fn hex4(&mut self) -> Result<u32, InputError> {
        let mut v = 0u32;
        for _ in 0..4 {
            let d = match self.peek() {
                Some(b @ b'0'..=b'9') => b - b'0',
                Some(b @ b'a'..=b'f') => b - b'a' + 10,
                Some(b @ b'A'..=b'F') => b - b'A' + 10,
                _ => return Err(self.error_here("expected four hex digits in a \\u escape")),
            };
            v = v * 16 + u32::from(d);
            self.i += 1;
        }
        Ok(v)
    }

    fn array(&mut self, depth: usize) -> Result<Value, InputError> {
        self.enter(depth)?;
        self.i += 1;
        self.skip_ws();
        if self.peek() == Some(b']') {
            self.i += 1;
            return Ok(Value::Array(Vec::new()));
        }
        let base = self.items.len();
        loop {
            self.skip_ws();
            self.path.push(PathSeg::Index(self.items.len() - base));
            let v = self.value(depth)?;
            self.path.pop();
            self.items.push(v);
            self.skip_ws();
            match self.peek() {
                Some(b',') => {
                    self.i += 1;
                    self.skip_ws();
                    if self.peek() == Some(b']') {
                        return Err(self.error_here("trailing comma before `]`"));
                    }
                }
                Some(b']') => {
                    self.i += 1;
                    return Ok(Value::Array(self.items.drain(base..).collect()));
                }
                None => return Err(self.error_here("unexpected end of input inside an array")),
                Some(b) => {
                    let msg = describe_unexpected(b, "`,` or `]`");
                    return Err(self.error_here(&msg));
                }
            }
        }
    }

    fn object(&mut self, depth: usize) -> Result<Value, InputError> {
        self.enter(depth)?;
        self.i += 1;
        self.skip_ws();
        if self.peek() == Some(b'}') {
            self.i += 1;
            return Ok(Value::Object(Vec::new()));
        }
        // This object's members are `self.members[base..]` until it closes.
        let base = self.members.len();
        let mut seen: Option<HashMap<String, usize>> = None;
        loop {
            self.skip_ws();
            if self.peek() != Some(b'"') {
                let msg = match self.peek() {
                    None => "unexpected end of input, expected a key".to_string(),
                    Some(b'}') => "trailing comma before `}`".to_string(),
                    Some(b) => describe_unexpected(b, "a quoted key"),
                };
                return Err(self.error_here(&msg));
            }
            let key_pos = self.pos();
            let key = self.string()?;
            self.skip_ws();
            if self.peek() != Some(b':') {
                return Err(self.error_here("expected `:` after the key"));
            }
            self.i += 1;
            self.skip_ws();
            let members = self.members.get(base..).unwrap_or_default();
            let earlier = match &seen {
                Some(seen) => seen.get(&key).and_then(|&i| members.get(i)),
                None => members.iter().find(|m| m.key == key),
            };
            if let Some(first) = earlier {
                let first = first.key_pos;
                self.path.push(PathSeg::Key(key.clone()));
                let pointer = self.pointer();
                self.path.pop();
                self.duplicates.push(Duplicate {
                    pointer,
                    first,
                    again: key_pos,
                });
            }
            // The key lives in the path while its value is parsed (error
            // pointers name it), then moves into the member: no copy.
            self.path.push(PathSeg::Key(key));
            let value = self.value(depth)?;
            let key = match self.path.pop() {
                Some(PathSeg::Key(key)) => key,
                _ => String::new(),
            };
            // Large objects look keys up in a map: a linear scan per key
            // would make duplicate detection quadratic.
            let members = self.members.get(base..).unwrap_or_default();
            if seen.is_none() && members.len() >= INDEXED_MEMBERS {
                seen = Some(
                    members
                        .iter()
                        .enumerate()
                        .map(|(i, m)| (m.key.clone(), i))
                        .collect(),
                );
            }
            if let Some(seen) = &mut seen {
                seen.entry(key.clone()).or_insert(members.len());
            }
            self.members.push(Member {
                key,
                key_pos,
                value,
            });
            self.skip_ws();
            match self.peek() {
                Some(b',') => self.i += 1,
                Some(b'}') => {
                    self.i += 1;
                    return Ok(Value::Object(self.members.drain(base..).collect()));
                }
                None => return Err(self.error_here("unexpected end of input inside an object")),
                Some(b) => {
                    let msg = describe_unexpected(b, "`,` or `}`");
                    return Err(self.error_here(&msg));
                }
            }
        }
    }
}

fn describe_unexpected(b: u8, expected: &str) -> String {
    if b.is_ascii_graphic() {
        format!("unexpected `{}`, expected {expected}", b as char)
    } else {
        format!("unexpected byte 0x{b:02x}, expected {expected}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    proptest::proptest! {
        /// The word-at-a-time scan stops where the byte-at-a-time one does.
        #[test]
        fn plain_runs_end_where_the_bytewise_scan_ends(
            // Stops rare enough that long plain runs, ending anywhere
            // in the last eight bytes, are common.
            bytes in proptest::collection::vec(proptest::prop_oneof![
                1 => proptest::strategy::Just(b'"'), 1 => proptest::strategy::Just(b'\\'),
                1 => 0u8..0x20, 10 => 0x20u8..0x80, 4 => 0x80u8..=0xff,
            ], 0..40),
            start in 0usize..40,
        ) {
            let start = start.min(bytes.len());
            let naive = bytes
                .get(start..)
                .unwrap()
                .iter()
                .position(|&b| b == b'"' || b == b'\\' || b < 0x20)
                .map_or(bytes.len(), |k| start + k);
            proptest::prop_assert_eq!(plain_run_end(&bytes, start), naive);
        }

        /// Every value's and key's place, kept by the parser as it goes,
        /// is the one counted from the start of the text, on documents with
        /// line feeds, carriage returns and tabs between tokens, and with
        /// characters of two, three and four bytes and escapes in strings.
        #[test]
        fn running_positions_match_a_count_from_the_start(text in document()) {
            let d = parse(text.as_bytes(), Limits::default()).unwrap();
            let exact = |offset: u32| Cursor::new(text.as_bytes()).pos_at(offset as usize);
            let mut stack = vec![&d.root];
            while let Some(n) = stack.pop() {
                proptest::prop_assert_eq!(n.pos, exact(n.pos.offset));
                let first = text.as_bytes()[n.pos.offset as usize];
                let starts = b"{[\"-0123456789tfn";
                proptest::prop_assert!(starts.contains(&first), "{} at {}", first, n.pos.offset);
                match &n.value {
                    Value::Array(items) => stack.extend(items),
                    Value::Object(members) => {
                        for m in members {
                            proptest::prop_assert_eq!(m.key_pos, exact(m.key_pos.offset));
                            proptest::prop_assert_eq!(text.as_bytes()[m.key_pos.offset as usize], b'"');
                            stack.push(&m.value);
                        }
                    }
                    _ => {}
                }
            }
        }
    }

    /// JSON text with white space of every kind between tokens and strings
    /// outside ASCII.
    fn document() -> impl proptest::strategy::Strategy<Value = String> {
        use proptest::prelude::*;
        let ws = || "[ \t\r\n]{0,3}";
        let string = || "\"([a-z ]|é|€|😀|\\\\n|\\\\u00e9|\\\\ud83d\\\\ude00){0,5}\"";
        let leaf = prop_oneof![
            "-?[1-9][0-9]{0,4}(\\.[0-9]{1,2})?".boxed(),
            Just("true".to_string()).boxed(),
            Just("null".to_string()).boxed(),
            string().boxed(),
        ];
        leaf.prop_recursive(4, 40, 5, move |inner| {
            prop_oneof![
                proptest::collection::vec((ws(), inner.clone(), ws()), 0..5).prop_map(|v| format!(
                    "[{}]",
                    v.into_iter()
                        .map(|(a, x, b)| a + &x + &b)
                        .collect::<Vec<_>>()
                        .join(",")
                )),
                proptest::collection::vec((ws(), string(), ws(), ws(), inner, ws()), 0..5)
                    .prop_map(|v| {
                        let members: Vec<String> = v
                            .into_iter()
                            .enumerate()
                            // Keys made unique, so no member is a duplicate.
                            .map(|(i, (a, k, b, c, x, d))| {
                                format!(
                                    "{a}{}{i}\"{b}:{c}{x}{d}",
                                    k.strip_suffix('"').unwrap_or(&k)
                                )
                            })
                            .collect();
                        format!("{{{}}}", members.join(","))
                    }),
            ]
        })
        .prop_flat_map(move |v| (ws(), Just(v), ws()).prop_map(|(a, v, b)| a + &v + &b))
    }

    fn p(s: &str) -> Result<Document, InputError> {
        parse(s.as_bytes(), Limits::default())
    }

    #[test]
    fn positions_of_nested_values() {
        let d = p("{\n  \"a\": [1,\n   {\"b\": \"é\", \"c\": true}]\n}").unwrap();
        let c = d.root.pointer("/a/1/c").unwrap();
        assert_eq!((c.pos.line, c.pos.column), (3, 20));
        let b = d.root.pointer("/a/1/b").unwrap();
        assert_eq!((b.pos.line, b.pos.column), (3, 10));
    }

    #[test]
    fn duplicates_are_reported_with_both_places() {
        let d = p(r#"{"x": {"k": 1, "k": 2}}"#).unwrap();
        assert_eq!(d.duplicates.len(), 1);
        assert_eq!(d.duplicates[0].pointer, "/x/k");
        assert_eq!(d.duplicates[0].first.column, 8);
        assert_eq!(d.duplicates[0].again.column, 16);
    }

    #[test]
    fn depth_limit_is_enforced_without_recursion_blowup() {
        let deep = "[".repeat(100_000);
        let e = p(&deep).unwrap_err();
        assert_eq!(e.kind, InputErrorKind::TooDeep { limit: 64 });
        let ok = format!("{}{}", "[".repeat(64), "]".repeat(64));
        assert!(p(&ok).is_ok());
        let over = format!("{}{}", "[".repeat(65), "]".repeat(65));
        assert!(p(&over).is_err());
    }

    #[test]
    fn size_limit_is_checked_first() {
        let big = vec![b' '; 8 * 1024 * 1024 + 1];
        let e = parse(&big, Limits::default()).unwrap_err();
        assert!(matches!(e.kind, InputErrorKind::TooLarge { .. }));
    }

    #[test]
    fn invalid_utf8_and_bom_are_refused_with_position() {
        let e = parse(b"{\"a\":\n \"\xff\"}", Limits::default()).unwrap_err();
        assert_eq!(e.kind, InputErrorKind::InvalidUtf8);
        assert_eq!(e.pos.map(|p| (p.line, p.column)), Some((2, 3)));
        let e = parse(b"\xEF\xBB\xBF{}", Limits::default()).unwrap_err();
        assert_eq!(e.kind, InputErrorKind::ByteOrderMark);
    }

    #[test]
    fn surrogates() {
        assert_eq!(
            p(r#""\ud83d\ude00""#).unwrap().root.as_str(),
            Some("\u{1F600}")
        );
        assert!(p(r#""\ud83d""#).is_err());
        assert!(p(r#""\ude00""#).is_err());
    }

    #[test]
    fn syntax_errors_have_positions() {
        let e = p("{\n  \"a\": 1,\n}").unwrap_err();
        assert_eq!(e.pos.map(|p| (p.line, p.column)), Some((3, 1)));
        assert!(e.to_string().contains("trailing comma"));
        for bad in [
            "",
            "{",
            "[1 2]",
            "01",
            "1.",
            "-",
            "tru",
            "\"a",
            "{\"a\" 1}",
            "{} x",
            "\"\u{1}\"",
        ] {
            assert!(p(bad).is_err(), "{bad:?} should fail");
        }
    }

    #[test]
    fn numbers_kept_as_written() {
        let d = p("[1e400, -3, 0.5, 18446744073709551616]").unwrap();
        let Value::Array(items) = &d.root.value else {
            panic!()
        };
        let nums: Vec<_> = items
            .iter()
            .map(|n| match &n.value {
                Value::Number(n) => n.as_str().to_string(),
                _ => panic!(),
            })
            .collect();
        assert_eq!(nums, ["1e400", "-3", "0.5", "18446744073709551616"]);
        assert!(matches!(&items[3].value, Value::Number(n) if n.as_u64().is_none()));
    }

    #[test]
    fn locate_falls_back_to_nearest_ancestor() {
        let d = p("{\n \"limits\": {\n  \"cpu_seconds\": 1}}").unwrap();
        let (pos, found) = d.root.locate("/limits/memory_bytes");
        assert!(!found);
        assert_eq!((pos.line, pos.column), (2, 12));
        let (pos, found) = d.root.locate("/limits/cpu_seconds");
        assert!(found);
        assert_eq!(pos.line, 3);
    }

    #[test]
    fn pointer_escaping() {
        let d = p(r#"{"a/b": {"~x": 1}}"#).unwrap();
        assert!(d.root.pointer("/a~1b/~0x").is_some());
        assert_eq!(escape_token("a/b~"), "a~1b~0");
    }
}
