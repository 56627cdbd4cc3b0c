//! One spanned tree for every source syntax (JSON, YAML, TOML), so each
//! format importer reads its settings the same way and every value keeps
//! the line and column it was written at.
//!
//! Scalars stay text: YAML does not say whether `yes` or `0755` is a string
//! until a field gives it a type, and Kubernetes (YAML 1.1) and Compose
//! (YAML 1.2) disagree. Each importer asks for the type the field has
//! ([`SNode::as_bool`], [`SNode::as_u64`], [`SNode::as_str`]).

use std::fmt;

use crate::import::{ImportError, ImportErrorKind};

/// A 1-based line and column (columns count Unicode scalar values).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Loc {
    pub line: u32,
    pub column: u32,
}

impl fmt::Display for Loc {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.line, self.column)
    }
}

/// A scalar as written: its text, and whether it was quoted (a quoted
/// scalar is always a string, never a boolean or a number).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Scalar {
    pub text: String,
    pub quoted: bool,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SValue {
    Null,
    Scalar(Scalar),
    Seq(Vec<SNode>),
    /// Entries in source order. Parsers refuse duplicate keys, so every key
    /// is unique.
    Map(Vec<SEntry>),
}

type SEntries<'a> = std::iter::Map<std::slice::Iter<'a, SEntry>, fn(&SEntry) -> (&str, &SNode)>;

/// The secret walk reads a parsed file as it reads a profile: every
/// scalar as a string, keys in source order.
impl crate::secrets::Tree for SNode {
    type Members<'a> = SEntries<'a>;
    fn view(&self) -> crate::secrets::View<'_, SNode> {
        use crate::secrets::View;
        match &self.value {
            SValue::Null => View::Other,
            SValue::Scalar(s) => View::Str(&s.text),
            SValue::Seq(items) => View::Array(items),
            SValue::Map(entries) => {
                let pair: fn(&SEntry) -> (&str, &SNode) = |e| (e.key.as_str(), &e.value);
                View::Object(entries.iter().map(pair))
            }
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SEntry {
    pub key: String,
    pub key_loc: Loc,
    pub value: SNode,
}

/// A value and where it starts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SNode {
    pub loc: Loc,
    pub value: SValue,
}

impl SNode {
    pub fn new(loc: Loc, value: SValue) -> SNode {
        SNode { loc, value }
    }

    /// The kind of a value for a message; never the value itself, which
    /// may be a secret.
    pub fn kind(&self) -> &'static str {
        match &self.value {
            SValue::Null => "null",
            SValue::Seq(_) => "a list",
            SValue::Map(_) => "a mapping",
            SValue::Scalar(s) if s.quoted => "a quoted string",
            SValue::Scalar(_) if self.as_bool().is_some() => "a boolean",
            SValue::Scalar(s) if yaml_int(&s.text).is_some() || super::float::is_float(&s.text) => {
                "a number"
            }
            SValue::Scalar(_) => "a string",
        }
    }

    /// A whole number, as [`yaml_int`] reads an unquoted scalar.
    pub fn as_int(&self) -> Option<i128> {
        match &self.value {
            SValue::Scalar(s) if !s.quoted => yaml_int(&s.text),
            _ => None,
        }
    }

    pub fn is_null(&self) -> bool {
        matches!(self.value, SValue::Null)
    }

    pub fn entries(&self) -> &[SEntry] {
        match &self.value {
            SValue::Map(e) => e,
            _ => &[],
        }
    }

    pub fn items(&self) -> &[SNode] {
        match &self.value {
            SValue::Seq(i) => i,
            _ => &[],
        }
    }

    pub fn is_map(&self) -> bool {
        matches!(self.value, SValue::Map(_))
    }

    pub fn is_seq(&self) -> bool {
        matches!(self.value, SValue::Seq(_))
    }

    /// The entry named `key`.
    pub fn entry(&self, key: &str) -> Option<&SEntry> {
        self.entries().iter().find(|e| e.key == key)
    }

    /// The value named `key`; an explicit null counts as absent.
    pub fn get(&self, key: &str) -> Option<&SNode> {
        self.entry(key).map(|e| &e.value).filter(|v| !v.is_null())
    }

    /// The text of a scalar (quoted or not).
    pub fn as_str(&self) -> Option<&str> {
        match &self.value {
            SValue::Scalar(s) => Some(&s.text),
            _ => None,
        }
    }

    /// A boolean: an unquoted `true`/`false`, or a YAML 1.1 spelling
    /// (`yes`, `no`, `on`, `off`), which Kubernetes and Compose both still
    /// accept for boolean fields.
    pub fn as_bool(&self) -> Option<bool> {
        let SValue::Scalar(s) = &self.value else {
            return None;
        };
        if s.quoted {
            return None;
        }
        match s.text.as_str() {
            "true" | "True" | "TRUE" | "yes" | "Yes" | "YES" | "y" | "Y" | "on" | "On" | "ON" => {
                Some(true)
            }
            "false" | "False" | "FALSE" | "no" | "No" | "NO" | "n" | "N" | "off" | "Off"
            | "OFF" => Some(false),
            _ => None,
        }
    }

    /// A non-negative whole number written in decimal (an unquoted scalar).
    pub fn as_u64(&self) -> Option<u64> {
        match &self.value {
            SValue::Scalar(s) if !s.quoted => {
                let t = s.text.strip_prefix('+').unwrap_or(&s.text);
                let t = t.replace('_', "");
                t.parse::<u64>().ok()
            }
            _ => None,
        }
    }

    /// A whole number, possibly negative.
    pub fn as_i64(&self) -> Option<i64> {
        match &self.value {
            SValue::Scalar(s) if !s.quoted => s.text.replace('_', "").parse::<i64>().ok(),
            _ => None,
        }
    }

    /// The number of nodes in this subtree (for alias-expansion budgets).
    pub fn size(&self) -> usize {
        match &self.value {
            SValue::Null | SValue::Scalar(_) => 1,
            SValue::Seq(items) => 1 + items.iter().map(SNode::size).sum::<usize>(),
            SValue::Map(entries) => 1 + entries.iter().map(|e| 1 + e.value.size()).sum::<usize>(),
        }
    }
}

/// Size and shape limits, the same as for JSON profiles.
#[derive(Debug, Clone, Copy)]
pub struct TreeLimits {
    pub max_bytes: usize,
    pub max_depth: usize,
    pub max_values: usize,
}

impl Default for TreeLimits {
    fn default() -> Self {
        let j = crate::json::Limits::default();
        TreeLimits {
            max_bytes: j.max_bytes,
            max_depth: j.max_depth,
            max_values: j.max_values,
        }
    }
}

/// Refuse input that is too large or not UTF-8 before any parser sees it.
/// A UTF-8 byte-order mark is dropped (YAML and TOML allow one).
pub fn checked_text<'a>(bytes: &'a [u8], limits: &TreeLimits) -> Result<&'a str, ImportError> {
    if bytes.len() > limits.max_bytes {
        return Err(ImportError::new(ImportErrorKind::TooLarge {
            size: bytes.len(),
            limit: limits.max_bytes,
        }));
    }
    let bytes = bytes.strip_prefix(&[0xEF, 0xBB, 0xBF]).unwrap_or(bytes);
    match std::str::from_utf8(bytes) {
        Ok(t) => Ok(t),
        Err(e) => {
            let good = bytes.get(..e.valid_up_to()).unwrap_or(&[]);
            let text = std::str::from_utf8(good).unwrap_or("");
            Err(ImportError::new(ImportErrorKind::InvalidUtf8).at(end_loc(text)))
        }
    }
}

/// The location just after `text`.
fn end_loc(text: &str) -> Loc {
    let mut loc = Loc { line: 1, column: 1 };
    for c in text.chars() {
        if c == '\n' {
            loc.line += 1;
            loc.column = 1;
        } else {
            loc.column += 1;
        }
    }
    loc
}

/// Byte offsets to lines and columns, for parsers that report offsets.
pub struct LineIndex<'a> {
    text: &'a str,
    /// Byte offset where each line starts.
    starts: Vec<usize>,
}

impl<'a> LineIndex<'a> {
    pub fn new(text: &'a str) -> LineIndex<'a> {
        let mut starts = vec![0];
        for (i, b) in text.bytes().enumerate() {
            if b == b'\n' {
                starts.push(i + 1);
            }
        }
        LineIndex { text, starts }
    }

    pub fn loc(&self, offset: usize) -> Loc {
        let offset = offset.min(self.text.len());
        let line = self.starts.partition_point(|&s| s <= offset).max(1);
        let start = self.starts.get(line - 1).copied().unwrap_or(0);
        let column = self
            .text
            .get(start..offset)
            .map(|s| s.chars().count())
            .unwrap_or_else(|| {
                // Not on a character boundary: count the bytes that start characters.
                self.text
                    .as_bytes()
                    .get(start..offset)
                    .unwrap_or(&[])
                    .iter()
                    .filter(|b| (**b & 0xC0) != 0x80)
                    .count()
            });
        Loc {
            line: u32::try_from(line).unwrap_or(u32::MAX),
            column: u32::try_from(column + 1).unwrap_or(u32::MAX),
        }
    }
}

/// Convert a parsed JSON document (from [`crate::json`]) into a tree.
/// Duplicate keys are refused: a source file whose runtime would pick one
/// of two values silently must not be imported as if it were clear.
pub fn from_json(bytes: &[u8]) -> Result<SNode, ImportError> {
    let doc = crate::json::parse(bytes, crate::json::Limits::default())
        .map_err(ImportError::from_json)?;
    if let Some(d) = doc.duplicates.first() {
        let key = d.pointer.rsplit('/').next().unwrap_or("");
        return Err(ImportError::new(ImportErrorKind::DuplicateKey {
            key: key.replace("~1", "/").replace("~0", "~"),
            first: Loc {
                line: d.first.line,
                column: d.first.column,
            },
        })
        .at(Loc {
            line: d.again.line,
            column: d.again.column,
        }));
    }
    Ok(json_node(&doc.root))
}

/// A JSON document as a tree, duplicates kept (last one wins on lookup):
/// enough to recognize a format, never to import one.
pub fn json_sniff(bytes: &[u8]) -> Option<SNode> {
    crate::json::parse(bytes, crate::json::Limits::default())
        .ok()
        .map(|d| json_node(&d.root))
}

fn json_node(n: &crate::json::Node) -> SNode {
    use crate::json::Value;
    let loc = Loc {
        line: n.pos.line,
        column: n.pos.column,
    };
    let plain = |t: &str| {
        SValue::Scalar(Scalar {
            text: t.to_string(),
            quoted: false,
        })
    };
    let value = match &n.value {
        Value::Null => SValue::Null,
        Value::Bool(b) => plain(if *b { "true" } else { "false" }),
        Value::Number(num) => plain(num.as_str()),
        Value::String(s) => SValue::Scalar(Scalar {
            text: s.clone(),
            quoted: true,
        }),
        Value::Array(items) => SValue::Seq(items.iter().map(json_node).collect()),
        Value::Object(members) => SValue::Map(
            members
                .iter()
                .map(|m| SEntry {
                    key: m.key.clone(),
                    key_loc: Loc {
                        line: m.key_pos.line,
                        column: m.key_pos.column,
                    },
                    value: json_node(&m.value),
                })
                .collect(),
        ),
    };
    SNode { loc, value }
}

/// A whole number as YAML 1.1 (go-yaml v2 under `sigs.k8s.io/yaml`) and
/// JSON readers produce one: decimal with an optional sign and `_`
/// separators, `0x`/`0o`/`0b` and a leading-zero octal, or a float with no
/// fraction (`sigs.k8s.io/yaml` writes `0.0` to JSON as `0`, which the API
/// server reads as the integer 0). `None` for anything else.
pub fn yaml_int(text: &str) -> Option<i128> {
    let t = text.replace('_', "");
    let (neg, body) = match t.as_bytes().first() {
        Some(b'-') => (true, t.get(1..)?),
        Some(b'+') => (false, t.get(1..)?),
        _ => (false, t.as_str()),
    };
    let radix = |p: &str, r: u32| {
        body.strip_prefix(p)
            .filter(|d| !d.is_empty() && d.chars().all(|c| c.is_digit(r)))
            .and_then(|d| i128::from_str_radix(d, r).ok())
    };
    let v = if let Some(v) = radix("0x", 16).or_else(|| radix("0o", 8).or_else(|| radix("0b", 2))) {
        v
    } else if !body.is_empty() && body.bytes().all(|b| b.is_ascii_digit()) {
        if body.len() > 1 && body.starts_with('0') {
            // go-yaml v2 reads `09` as the float 9 when octal fails.
            i128::from_str_radix(body, 8)
                .ok()
                .or_else(|| body.parse().ok())?
        } else {
            body.parse().ok()?
        }
    } else {
        // A float spelled in ASCII only (`0.0`, `1e3`, `.5`): whole or not
        // a number at all.
        let ok = !body.is_empty()
            && body
                .bytes()
                .all(|b| b.is_ascii_digit() || matches!(b, b'.' | b'e' | b'E' | b'+' | b'-'))
            && body.bytes().any(|b| b.is_ascii_digit());
        if !ok {
            return None;
        }
        // Whole once read as an f64 and at most 1e30.
        super::float::whole(body)?
    };
    Some(if neg { -v } else { v })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_index_counts_characters() {
        let t = "ab\néx = 1\n";
        let idx = LineIndex::new(t);
        assert_eq!(idx.loc(0), Loc { line: 1, column: 1 });
        assert_eq!(idx.loc(3), Loc { line: 2, column: 1 });
        // `x` is after the two-byte `é`.
        assert_eq!(idx.loc(5), Loc { line: 2, column: 2 });
    }

    #[test]
    fn json_duplicates_are_refused_with_both_places() {
        let e = from_json(b"{\"a\": 1,\n \"a\": 2}").unwrap_err();
        assert!(matches!(e.kind, ImportErrorKind::DuplicateKey { .. }));
        assert_eq!(e.loc, Some(Loc { line: 2, column: 2 }));
        assert!(e.to_string().contains("first at 1:2"), "{e}");
    }

    #[test]
    fn booleans_follow_yaml_1_1_only_unquoted() {
        let n = |t: &str, q: bool| {
            SNode::new(
                Loc::default(),
                SValue::Scalar(Scalar {
                    text: t.into(),
                    quoted: q,
                }),
            )
        };
        assert_eq!(n("yes", false).as_bool(), Some(true));
        assert_eq!(n("Off", false).as_bool(), Some(false));
        assert_eq!(n("true", true).as_bool(), None);
        assert_eq!(n("1_000", false).as_u64(), Some(1000));
        assert_eq!(n("-1", false).as_u64(), None);
    }

    #[test]
    fn whole_numbers_as_yaml_1_1_and_json_write_them() {
        for (t, want) in [
            ("0", Some(0)),
            ("+0", Some(0)),
            ("-0", Some(0)),
            ("00", Some(0)),
            ("+00", Some(0)),
            ("0x0", Some(0)),
            ("0o0", Some(0)),
            ("0b0", Some(0)),
            ("0.0", Some(0)),
            ("-0.0", Some(0)),
            ("0e0", Some(0)),
            (".0", Some(0)),
            ("1_000", Some(1000)),
            ("1e3", Some(1000)),
            ("010", Some(8)),
            ("0x3E8", Some(1000)),
            ("-1", Some(-1)),
            ("4294967296", Some(4_294_967_296)),
            ("0.5", None),
            ("", None),
            ("-", None),
            ("0x", None),
            ("09", Some(9)),
            ("true", None),
            ("١٠٠٠", None),
            (" 0", None),
            ("0 ", None),
            ("inf", None),
            (".nan", None),
        ] {
            assert_eq!(yaml_int(t), want, "{t:?}");
        }
    }

    /// Every message that names what a value is uses one description:
    /// the type the format's consumer would read, never the value.
    #[test]
    fn a_value_is_described_by_its_type_alone() {
        for (yaml, want) in [
            ("v: null", "null"),
            ("v: ~", "null"),
            ("v:", "null"),
            ("v: [1]", "a list"),
            ("v: {a: 1}", "a mapping"),
            ("v: \"x\"", "a quoted string"),
            ("v: '1'", "a quoted string"),
            ("v: yes", "a boolean"),
            ("v: false", "a boolean"),
            ("v: 0x1f", "a number"),
            ("v: 1.5", "a number"),
            ("v: -3", "a number"),
            ("v: hunter2", "a string"),
        ] {
            let doc = crate::import::yaml::parse(yaml.as_bytes()).unwrap();
            let v = &doc[0].entry("v").unwrap().value;
            assert_eq!(v.kind(), want, "{yaml}");
            if want != "a mapping" {
                let err = crate::import::read::map(v, "v").map(|_| ()).unwrap_err();
                let err = err.to_string();
                assert!(err.contains(&format!("found {want}")), "{yaml}: {err}");
                assert!(!err.contains("hunter2"), "{err}");
            }
        }
    }
}
