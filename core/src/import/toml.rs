//! TOML to a spanned tree, with the `toml` crate's span-keeping parser
//! (`toml::de::DeTable`).
//!
//! Why `toml`: it is the maintained reference implementation (toml-rs),
//! pure Rust, keeps a byte span on every key and value, and refuses a
//! duplicate key or a table defined twice as the TOML specification
//! requires. Its own nesting guard stops at 80; a light pre-scan refuses
//! more than 64 levels of arrays, inline tables or dotted key segments
//! before the parser builds (and later drops) a deep tree.

use ::toml::de::{DeTable, DeValue};
use ::toml::Spanned;

use super::tree::{checked_text, LineIndex, Loc, SEntry, SNode, SValue, Scalar, TreeLimits};
use super::{ImportError, ImportErrorKind};

/// Parse a TOML document.
pub fn parse(bytes: &[u8]) -> Result<SNode, ImportError> {
    let limits = TreeLimits::default();
    let text = checked_text(bytes, &limits)?;
    let index = LineIndex::new(text);
    shape_check(text, &index, limits.max_depth)?;
    let doc = DeTable::parse(text).map_err(|e| {
        let span = e.span();
        let mut msg = e.message().trim().to_string();
        if msg == "duplicate key" {
            if let Some(key) = span.clone().and_then(|s| text.get(s)) {
                msg = format!("duplicate key `{key}`");
            }
        }
        let err = ImportError::new(ImportErrorKind::Syntax(format!("invalid TOML: {msg}")));
        match span {
            Some(s) => err.at(index.loc(s.start)),
            None => err,
        }
    })?;
    let mut values = 0usize;
    // The parser's tree is taken apart as it is converted, so the two are
    // not both whole at once (a 430,000-key file held both: 90 MB more).
    let root = table(
        doc.into_inner(),
        index.loc(0),
        &index,
        0,
        &limits,
        &mut values,
    )?;
    Ok(root)
}

fn table(
    t: DeTable<'_>,
    loc: Loc,
    index: &LineIndex<'_>,
    depth: usize,
    limits: &TreeLimits,
    values: &mut usize,
) -> Result<SNode, ImportError> {
    if depth > limits.max_depth {
        return Err(ImportError::new(ImportErrorKind::TooDeep {
            limit: limits.max_depth,
        })
        .at(loc));
    }
    let mut entries: Vec<SEntry> = Vec::with_capacity(t.len());
    for (k, v) in t {
        let key_loc = index.loc(k.span().start);
        let value = value(v, index, depth + 1, limits, values)?;
        entries.push(SEntry {
            key: k.into_inner().into_owned(),
            key_loc,
            value,
        });
    }
    // The parser's map is sorted by key; restore the order of the file
    // (keys start at distinct places, and line and column order them as
    // the byte offset does).
    entries.sort_by_key(|e| (e.key_loc.line, e.key_loc.column));
    Ok(SNode::new(loc, SValue::Map(entries)))
}

fn value(
    v: Spanned<DeValue<'_>>,
    index: &LineIndex<'_>,
    depth: usize,
    limits: &TreeLimits,
    values: &mut usize,
) -> Result<SNode, ImportError> {
    let loc = index.loc(v.span().start);
    *values += 1;
    if *values > limits.max_values {
        return Err(ImportError::new(ImportErrorKind::TooManyValues {
            limit: limits.max_values,
        })
        .at(loc));
    }
    let plain = |t: String| {
        SValue::Scalar(Scalar {
            text: t,
            quoted: false,
        })
    };
    Ok(match v.into_inner() {
        DeValue::String(s) => SNode::new(
            loc,
            SValue::Scalar(Scalar {
                text: s.to_string(),
                quoted: true,
            }),
        ),
        DeValue::Integer(i) => {
            let text = if i.radix() == 10 {
                i.as_str().to_string()
            } else {
                u64::from_str_radix(&i.as_str().replace('_', ""), i.radix())
                    .map(|n| n.to_string())
                    .unwrap_or_else(|_| i.to_string())
            };
            SNode::new(loc, plain(text))
        }
        DeValue::Float(f) => SNode::new(loc, plain(f.as_str().to_string())),
        DeValue::Boolean(b) => SNode::new(loc, plain(b.to_string())),
        DeValue::Datetime(d) => SNode::new(loc, plain(d.to_string())),
        DeValue::Array(items) => {
            if depth > limits.max_depth {
                return Err(ImportError::new(ImportErrorKind::TooDeep {
                    limit: limits.max_depth,
                })
                .at(loc));
            }
            let mut out = Vec::with_capacity(items.len());
            for it in items {
                out.push(value(it, index, depth + 1, limits, values)?);
            }
            SNode::new(loc, SValue::Seq(out))
        }
        DeValue::Table(t) => table(t, loc, index, depth, limits, values)?,
    })
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Lex {
    Normal,
    Comment,
    Basic,
    Literal,
    MlBasic,
    MlLiteral,
}

/// Refuse nesting the parser would turn into a tree deeper than `max`:
/// arrays and inline tables nested more than `max` levels, or a key with
/// more than `max` dotted segments. Strings and comments are skipped.
fn shape_check(text: &str, index: &LineIndex<'_>, max: usize) -> Result<(), ImportError> {
    let b = text.as_bytes();
    let mut lex = Lex::Normal;
    let mut stack: Vec<u8> = Vec::new();
    let mut key_mode = true;
    let mut header = false;
    let mut line_start = true;
    let mut segments = 1usize;
    let too_deep = |at: usize| {
        Err(ImportError::new(ImportErrorKind::TooDeep { limit: max }).at(index.loc(at)))
    };
    let mut i = 0;
    while let Some(&c) = b.get(i) {
        match lex {
            Lex::Comment => {
                if c == b'\n' {
                    lex = Lex::Normal;
                    continue;
                }
            }
            Lex::Basic => match c {
                b'\\' => i += 1,
                b'"' | b'\n' => lex = Lex::Normal,
                _ => {}
            },
            Lex::Literal => {
                if c == b'\'' || c == b'\n' {
                    lex = Lex::Normal;
                }
            }
            Lex::MlBasic => {
                if c == b'\\' {
                    i += 1;
                } else if b.get(i..i + 3) == Some(b"\"\"\"") {
                    lex = Lex::Normal;
                    i += 2;
                }
            }
            Lex::MlLiteral => {
                if b.get(i..i + 3) == Some(b"'''") {
                    lex = Lex::Normal;
                    i += 2;
                }
            }
            Lex::Normal => match c {
                b'#' => lex = Lex::Comment,
                b'"' | b'\'' => {
                    let triple = b.get(i..i + 3) == Some(&[c, c, c][..]);
                    lex = match (c, triple) {
                        (b'"', true) => Lex::MlBasic,
                        (b'"', false) => Lex::Basic,
                        (_, true) => Lex::MlLiteral,
                        _ => Lex::Literal,
                    };
                    if triple {
                        i += 2;
                    }
                }
                b'\n' => {
                    if stack.is_empty() {
                        key_mode = true;
                        header = false;
                        segments = 1;
                    }
                    line_start = true;
                    i += 1;
                    continue;
                }
                b'[' if stack.is_empty() && line_start => {
                    header = true;
                    key_mode = true;
                    segments = 1;
                    // `[[name]]`: the second bracket belongs to the header.
                    if b.get(i + 1) == Some(&b'[') {
                        i += 1;
                    }
                }
                b'[' | b'{' => {
                    stack.push(c);
                    if stack.len() > max {
                        return too_deep(i);
                    }
                    key_mode = c == b'{';
                    segments = 1;
                }
                b']' if header => {
                    header = false;
                    key_mode = false;
                }
                b']' | b'}' => {
                    stack.pop();
                    key_mode = false;
                }
                b',' if stack.last() == Some(&b'{') => {
                    key_mode = true;
                    segments = 1;
                }
                b'=' if !header => key_mode = false,
                b'.' if key_mode => {
                    segments += 1;
                    if segments > max {
                        return too_deep(i);
                    }
                }
                _ => {}
            },
        }
        if !c.is_ascii_whitespace() {
            line_start = false;
        }
        i += 1;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spans_and_source_order() {
        let n = parse(b"z = 1\na = \"x\"\n\n[t]\nk = [1, 2]\n").unwrap();
        let keys: Vec<&str> = n.entries().iter().map(|e| e.key.as_str()).collect();
        assert_eq!(keys, ["z", "a", "t"]);
        let k = n.get("t").unwrap().get("k").unwrap();
        assert_eq!(k.loc, Loc { line: 5, column: 5 });
        assert_eq!(k.items()[1].as_u64(), Some(2));
        assert_eq!(n.get("a").unwrap().as_bool(), None);
    }

    #[test]
    fn duplicates_are_errors_with_position() {
        let e = parse(b"a = 1\nb = 2\na = 3\n").unwrap_err();
        assert_eq!(e.loc.map(|l| l.line), Some(3));
        assert!(e.to_string().contains("duplicate key `a`"), "{e}");
        let e = parse(b"[t]\nx = 1\n[t]\ny = 2\n").unwrap_err();
        assert_eq!(e.loc.map(|l| l.line), Some(3), "{e}");
    }

    #[test]
    fn deep_input_is_refused_before_parsing() {
        let dotted = format!("{} = 1\n", vec!["a"; 100_000].join("."));
        let e = parse(dotted.as_bytes()).unwrap_err();
        assert!(matches!(e.kind, ImportErrorKind::TooDeep { .. }), "{e}");
        let header = format!("[{}]\n", vec!["a"; 100_000].join("."));
        assert!(matches!(
            parse(header.as_bytes()).unwrap_err().kind,
            ImportErrorKind::TooDeep { .. }
        ));
        let arrays = format!("x = {}", "[".repeat(100_000));
        assert!(matches!(
            parse(arrays.as_bytes()).unwrap_err().kind,
            ImportErrorKind::TooDeep { .. }
        ));
        // Floats, dates and dotted strings in values are not key segments.
        let ok = format!(
            "x = [{}]\ny = \"{}\"\n",
            vec!["1.5"; 200].join(", "),
            "a.".repeat(200)
        );
        assert!(parse(ok.as_bytes()).is_ok());
    }

    #[test]
    fn syntax_errors() {
        for bad in ["a = ", "[t", "a = \"x", "a = [1,", "= 1", "a = 1 b = 2"] {
            let e = parse(bad.as_bytes()).unwrap_err();
            assert!(e.loc.is_some(), "{bad:?}: {e}");
        }
    }
}
