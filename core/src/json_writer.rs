//! A small JSON writer with serde_json's pretty layout (two-space indent,
//! `": "` after keys, `[]`/`{}` when empty) and serde_json's string
//! escapes, so the exports keep their bytes without serde's serializer,
//! whose derived `Serialize` code is large in the browser page's wasm.
//!
//! The caller writes keys in the order the document has them (a struct's
//! field order; sorted for the maps serde_json sorts).

use serde_json::Value;

use crate::par::{InOrder, Schedule};

/// Lists of about this many bytes or more are written in pieces: on a
/// schedule of several threads, written by the calling thread alone, a
/// large export's findings would leave the others idle.
pub(super) const PIECES_BYTES: usize = 512 << 10;
/// About how many bytes each piece of such a list holds.
pub(super) const PIECE_BYTES: usize = 256 << 10;
/// The least room a writer starts with after a long list's pieces.
const TAIL: usize = 4096;

/// Pretty JSON being written into a `String`.
pub struct Pretty<'s> {
    out: String,
    depth: usize,
    /// Nothing written yet inside the innermost open container.
    first: bool,
    /// Text written before `out`, in order: a long list's pieces, kept as
    /// they were written rather than copied into one buffer.
    parts: Vec<String>,
    /// Where a long list's pieces are written.
    schedule: &'s dyn Schedule,
}

impl Pretty<'static> {
    /// A writer whose first value sits `depth` levels (two spaces each)
    /// deep: that line is indented, inner lines follow.
    pub fn at(depth: usize, capacity: usize) -> Pretty<'static> {
        let mut out = String::with_capacity(capacity);
        for _ in 0..depth {
            out.push_str("  ");
        }
        Pretty {
            out,
            depth,
            first: true,
            parts: Vec::new(),
            schedule: &InOrder,
        }
    }
}

impl<'s> Pretty<'s> {
    /// The same writer, its long lists' pieces written on `schedule`.
    pub fn on<'t>(self, schedule: &'t dyn Schedule) -> Pretty<'t> {
        Pretty {
            out: self.out,
            depth: self.depth,
            first: self.first,
            parts: self.parts,
            schedule,
        }
    }

    /// The text written.
    pub fn finish(self) -> String {
        if !self.parts.is_empty() {
            return self.finish_parts().concat();
        }
        self.out
    }

    /// The text written, in parts to be written out one after the other
    /// (a long list's pieces are not copied into one buffer first).
    pub fn finish_parts(mut self) -> Vec<String> {
        self.parts.push(self.out);
        self.parts
    }

    fn newline_indent(&mut self) {
        self.line(false);
    }

    /// A new line and the indent, after a comma when `comma`, in one copy
    /// (deeper than the exports ever go, two spaces at a time).
    fn line(&mut self, comma: bool) {
        const LINE: &str = ",\n                                ";
        let from = usize::from(!comma);
        match LINE.get(from..2 + 2 * self.depth) {
            Some(line) => self.out.push_str(line),
            None => {
                if comma {
                    self.out.push(',');
                }
                self.out.push('\n');
                for _ in 0..self.depth {
                    self.out.push_str("  ");
                }
            }
        }
    }

    fn open(&mut self, bracket: char) -> &mut Self {
        self.out.push(bracket);
        self.depth += 1;
        self.first = true;
        self
    }

    fn close(&mut self, bracket: char) -> &mut Self {
        self.depth = self.depth.saturating_sub(1);
        if !self.first {
            self.newline_indent();
        }
        self.out.push(bracket);
        self.first = false;
        self
    }

    /// `{`
    pub fn object(&mut self) -> &mut Self {
        self.open('{')
    }

    /// `}`
    pub fn end_object(&mut self) -> &mut Self {
        self.close('}')
    }

    /// `[`
    pub fn array(&mut self) -> &mut Self {
        self.open('[')
    }

    /// `]`
    pub fn end_array(&mut self) -> &mut Self {
        self.close(']')
    }

    /// Before an array element: a comma after the previous one, a new line.
    pub fn item(&mut self) -> &mut Self {
        let comma = !self.first;
        self.first = false;
        self.line(comma);
        self
    }

    /// The elements of an open array, each written by `one` after its
    /// [`Pretty::item`]; `each` is about how many bytes one takes. A long
    /// list is written in pieces side by side on a schedule of several
    /// threads, the pieces kept in order: the same bytes either way.
    pub fn items<T: Sync>(
        &mut self,
        list: &[T],
        each: usize,
        one: impl Fn(&mut Pretty<'_>, &T) + Sync + Send,
    ) -> &mut Self {
        if list.len().saturating_mul(each) >= PIECES_BYTES && self.schedule.width() > 1 {
            return self.pieces(list, each, &one, None);
        }
        for x in list {
            one(self.item(), x);
        }
        self
    }

    /// [`Pretty::items`], except that a long list's pieces, and the text
    /// before them, are handed to `emit` as they are ready, in order,
    /// instead of being kept: the caller can write them out while the
    /// rest of the list is still being written.
    pub fn items_to<T: Sync>(
        &mut self,
        list: &[T],
        each: usize,
        one: impl Fn(&mut Pretty<'_>, &T) + Sync + Send,
        emit: &mut dyn FnMut(String),
    ) -> &mut Self {
        if list.len().saturating_mul(each) >= PIECES_BYTES {
            return self.pieces(list, each, &one, Some(emit));
        }
        for x in list {
            one(self.item(), x);
        }
        self
    }

    /// A long list, written in pieces on the writer's schedule: kept in
    /// `parts`, or emitted with what came before them.
    fn pieces<T: Sync>(
        &mut self,
        list: &[T],
        each: usize,
        one: &(impl Fn(&mut Pretty<'_>, &T) + Sync + Send),
        emit: Option<&mut dyn FnMut(String)>,
    ) -> &mut Self {
        let (depth, first) = (self.depth, self.first);
        let per_piece = (PIECE_BYTES / each.max(1)).max(1);
        let chunks: Vec<&[T]> = list.chunks(per_piece).collect();
        // Each piece starts with its share of the room left (the caller
        // sized the buffer for the whole document), so it is not copied
        // again and again as it grows; twice its estimate at most, when a
        // longer list follows this one.
        let room = self.out.capacity() - self.out.len();
        let share = (room / chunks.len().max(1)).min(2 * per_piece.saturating_mul(each));
        let piece = |i: usize, chunk: &&[T]| {
            let mut w = Pretty::at(0, share);
            w.depth = depth;
            w.first = first && i == 0;
            for x in *chunk {
                one(w.item(), x);
            }
            w.finish_parts()
        };
        // The text so far, then the pieces, stay apart; what follows the
        // list starts a new buffer with the room still left (a second
        // long list gets its share of it too).
        self.parts.push(std::mem::take(&mut self.out));
        let mut written = 0;
        let schedule = self.schedule;
        match emit {
            None => {
                let pieces = crate::par::map_indexed(schedule, &chunks, piece);
                written = pieces.iter().flatten().map(String::len).sum();
                self.parts.extend(pieces.into_iter().flatten());
            }
            Some(emit) => {
                self.parts.drain(..).for_each(&mut *emit);
                let nth = |i: usize| chunks.get(i).map(|c| piece(i, c)).unwrap_or_default();
                schedule.pieces(chunks.len(), &nth, &mut |parts: Vec<String>| {
                    for part in parts {
                        written += part.len();
                        emit(part);
                    }
                });
            }
        }
        self.out = String::with_capacity(room.saturating_sub(written).max(TAIL));
        self.first = false;
        self
    }

    /// An object key of the export's own (a plain name, which needs no
    /// escape: debug builds check); its value follows.
    pub fn key(&mut self, k: &'static str) -> &mut Self {
        debug_assert_eq!(
            crate::json::plain_run_end(k.as_bytes(), 0),
            k.len(),
            "{k:?} needs escaping"
        );
        self.item();
        self.out.push('"');
        self.out.push_str(k);
        self.out.push_str("\": ");
        self
    }

    /// An object key from data (an evidence name), escaped; its value
    /// follows.
    fn data_key(&mut self, k: &str) -> &mut Self {
        self.item();
        string(&mut self.out, k);
        self.out.push_str(": ");
        self
    }

    /// A string value.
    pub fn str(&mut self, s: &str) -> &mut Self {
        string(&mut self.out, s);
        self
    }

    /// An unsigned number.
    pub fn num(&mut self, n: u64) -> &mut Self {
        number(&mut self.out, n);
        self
    }

    /// `null`
    pub fn null(&mut self) -> &mut Self {
        self.out.push_str("null");
        self
    }

    /// `"k": "v"`
    pub fn field(&mut self, k: &'static str, v: &str) -> &mut Self {
        self.key(k).str(v)
    }

    /// `"k": n`
    pub fn field_num(&mut self, k: &'static str, n: u64) -> &mut Self {
        self.key(k).num(n)
    }

    /// `"k": ["a", "b"]`
    pub fn field_strs<'a>(
        &mut self,
        k: &'static str,
        items: impl IntoIterator<Item = &'a str>,
    ) -> &mut Self {
        self.key(k).array();
        for s in items {
            self.item().str(s);
        }
        self.end_array()
    }

    /// `"k": {"k2": "v"}`, the shape SARIF uses for texts.
    pub fn field_in(&mut self, k: &'static str, k2: &'static str, v: &str) -> &mut Self {
        self.key(k).object().field(k2, v).end_object()
    }

    /// A `serde_json` value (object keys in the map's order).
    pub fn value(&mut self, v: &Value) -> &mut Self {
        match v {
            Value::Array(items) => {
                self.array();
                for i in items {
                    self.item().value(i);
                }
                self.end_array();
            }
            Value::Object(map) => {
                self.object();
                for (k, v) in map {
                    self.data_key(k).value(v);
                }
                self.end_object();
            }
            scalar => scalar_into(&mut self.out, scalar),
        }
        self
    }

    /// A map of string keys to values, in its order.
    pub fn map<'a>(
        &mut self,
        entries: impl IntoIterator<Item = (&'a String, &'a Value)>,
    ) -> &mut Self {
        self.object();
        for (k, v) in entries {
            self.data_key(k).value(v);
        }
        self.end_object()
    }
}

/// `v` as compact JSON, as `Value`'s `Display` writes it.
pub fn compact(v: &Value) -> String {
    let mut out = String::new();
    compact_into(&mut out, v);
    out
}

fn compact_into(out: &mut String, v: &Value) {
    match v {
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                compact_into(out, item);
            }
            out.push(']');
        }
        Value::Object(map) => {
            out.push('{');
            for (i, (k, v)) in map.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                string(out, k);
                out.push(':');
                compact_into(out, v);
            }
            out.push('}');
        }
        scalar => scalar_into(out, scalar),
    }
}

fn scalar_into(out: &mut String, v: &Value) {
    match v {
        Value::Null => out.push_str("null"),
        Value::Bool(true) => out.push_str("true"),
        Value::Bool(false) => out.push_str("false"),
        Value::String(s) => string(out, s),
        Value::Number(n) => match (n.as_u64(), n.as_i64()) {
            (Some(u), _) => number(out, u),
            (None, Some(i)) => {
                out.push('-');
                number(out, i.unsigned_abs());
            }
            // Floats as serde_json writes them (shortest round trip).
            _ => out.push_str(&n.to_string()),
        },
        Value::Array(_) | Value::Object(_) => compact_into(out, v),
    }
}

fn number(out: &mut String, n: u64) {
    out.push_str(crate::text::Num::new(n).as_ref());
}

/// A JSON string with serde_json's escapes: `\"`, `\\`, `\b`, `\f`, `\n`,
/// `\r`, `\t`, other control characters as `\u00xx`; everything else as is.
/// [`crate::json::plain_run_end`], sixteen bytes at a time first
/// with no early exit inside a chunk, which the compiler turns into a few
/// vector instructions: the export's sentences are long (the parser's keys
/// are not, and keep the eight-byte loop alone).
fn run_end(bytes: &[u8], mut i: usize) -> usize {
    while let Some(chunk) = bytes.get(i..i + 16) {
        if chunk
            .iter()
            .fold(false, |a, &b| a | (b < 0x20) | (b == b'"') | (b == b'\\'))
        {
            break;
        }
        i += 16;
    }
    crate::json::plain_run_end(bytes, i)
}

pub(crate) fn string(out: &mut String, s: &str) {
    out.push('"');
    let bytes = s.as_bytes();
    let mut start = 0;
    loop {
        // Runs that need no escape are found eight bytes at a time
        // (natively sixteen first).
        let end = run_end(bytes, start);
        // The byte that stops a run is ASCII, so these are character
        // boundaries.
        out.push_str(s.get(start..end).unwrap_or_default());
        let Some(&b) = bytes.get(end) else {
            break;
        };
        start = end + 1;
        let esc = match b {
            b'"' => "\\\"",
            b'\\' => "\\\\",
            b'\n' => "\\n",
            b'\r' => "\\r",
            b'\t' => "\\t",
            0x08 => "\\b",
            0x0c => "\\f",
            _ => "",
        };
        if esc.is_empty() {
            const HEX: &[u8; 16] = b"0123456789abcdef";
            out.push_str("\\u00");
            for nibble in [b >> 4, b & 0xf] {
                out.push(char::from(
                    HEX.get(usize::from(nibble)).copied().unwrap_or(b'0'),
                ));
            }
        } else {
            out.push_str(esc);
        }
    }
    out.push('"');
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use serde_json::json;

    fn pretty(v: &Value, depth: usize) -> String {
        let mut w = Pretty::at(depth, 0);
        w.value(v);
        w.finish()
    }

    fn moved(v: &Value, depth: usize) -> String {
        let pad = "  ".repeat(depth);
        format!(
            "{pad}{}",
            serde_json::to_string_pretty(v)
                .unwrap()
                .replace('\n', &format!("\n{pad}"))
        )
    }

    #[test]
    fn layout_is_serde_jsons_pretty_layout_moved_right() {
        let v = json!({"a": "x\ny", "b": [], "c": {}, "d": [1, {"e": [true, null, -3]}], "f": 1.5, "g": [[]], "h": u64::MAX, "i": i64::MIN, "j": 1e300});
        for depth in 0..4 {
            assert_eq!(pretty(&v, depth), moved(&v, depth));
        }
        assert_eq!(pretty(&json!([]), 2), "    []");
        assert_eq!(compact(&v), v.to_string());
    }

    fn arb_value() -> impl Strategy<Value = Value> {
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::Bool),
            any::<i64>().prop_map(Value::from),
            any::<u64>().prop_map(Value::from),
            any::<f64>().prop_map(Value::from),
            any::<String>().prop_map(Value::String),
            "[\\x00-\\x7f\u{2028}\u{fffd}]{0,8}".prop_map(Value::String),
        ];
        leaf.prop_recursive(4, 40, 6, |inner| {
            prop_oneof![
                proptest::collection::vec(inner.clone(), 0..5).prop_map(Value::Array),
                proptest::collection::btree_map("[a-z\\n\"]{0,3}", inner, 0..5)
                    .prop_map(|m| Value::Object(m.into_iter().collect())),
            ]
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]
        /// Long plain runs with a stop (a control byte, a quote, a
        /// backslash) or a character outside ASCII anywhere, on either
        /// side of the sixteen-byte steps.
        #[test]
        fn strings_escape_as_serde_json_does(
            s in "[ -~]{0,40}[\\x00-\\x1f\"\\\\é€😀]{0,2}[ -~]{0,40}[\\x00-\\x1f\"\\\\]?[ -~]{0,20}"
        ) {
            let mut out = String::new();
            string(&mut out, &s);
            prop_assert_eq!(out, serde_json::to_string(&s).unwrap());
        }
    }

    proptest! {
        #[test]
        fn same_bytes_as_serde_json(v in arb_value(), depth in 0usize..3) {
            prop_assert_eq!(pretty(&v, depth), moved(&v, depth));
            prop_assert_eq!(compact(&v), v.to_string());
        }
    }
}
