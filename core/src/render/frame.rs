//! Documents made of one piece per report, so many reports can be rendered
//! in parallel and written as they come, with the same bytes as rendering
//! them all at once.

use std::io;

/// What goes around and between the pieces of a document.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Frame {
    /// Before the first piece.
    pub open: &'static str,
    /// Between two pieces.
    pub sep: &'static str,
    /// After the last piece.
    pub close: &'static str,
    /// The whole document when there is no piece at all.
    pub empty: &'static str,
}

impl Frame {
    /// The whole document from its pieces.
    pub fn assemble(&self, pieces: impl IntoIterator<Item = String>) -> String {
        let mut out = String::new();
        for (i, p) in pieces.into_iter().enumerate() {
            out.push_str(if i == 0 { self.open } else { self.sep });
            out.push_str(&p);
        }
        if out.is_empty() {
            return self.empty.to_string();
        }
        out.push_str(self.close);
        out
    }
}

/// A pretty JSON array, one element per report.
pub const JSON_ARRAY: Frame = Frame {
    open: "[\n",
    sep: ",\n",
    close: "\n]\n",
    empty: "[]\n",
};

/// One SARIF log; each report is a run.
pub const SARIF_LOG: Frame = Frame {
    open: "{\n  \"$schema\": \"https://json.schemastore.org/sarif-2.1.0.json\",\n  \"runs\": [\n",
    sep: ",\n",
    close: "\n  ],\n  \"version\": \"2.1.0\"\n}\n",
    empty: "{\n  \"$schema\": \"https://json.schemastore.org/sarif-2.1.0.json\",\n  \"runs\": [],\n  \"version\": \"2.1.0\"\n}\n",
};

/// Documents that are their pieces one after the other (Markdown, GitHub
/// annotations).
pub const CONCAT: Frame = Frame {
    open: "",
    sep: "",
    close: "",
    empty: "",
};

/// serde_json's pretty layout (two-space indent), starting `depth` levels
/// deep, so an element renders in place inside its frame without a second
/// pass over its text.
struct Nested {
    depth: usize,
    has_value: bool,
}

impl Nested {
    /// `[` or `{`: one level deeper, nothing written inside yet.
    fn open<W: ?Sized + io::Write>(&mut self, w: &mut W, bracket: &[u8]) -> io::Result<()> {
        self.depth += 1;
        self.has_value = false;
        w.write_all(bracket)
    }

    /// `]` or `}`, on a line of its own unless the container is empty.
    fn close<W: ?Sized + io::Write>(&mut self, w: &mut W, bracket: &[u8]) -> io::Result<()> {
        self.depth -= 1;
        if self.has_value {
            self.newline_indent(w)?;
        }
        w.write_all(bracket)
    }

    /// Before an element or a key: a comma after the previous one, then a
    /// new line at the current depth.
    fn item<W: ?Sized + io::Write>(&mut self, w: &mut W, first: bool) -> io::Result<()> {
        if !first {
            w.write_all(b",")?;
        }
        self.newline_indent(w)
    }

    fn newline_indent<W: ?Sized + io::Write>(&self, w: &mut W) -> io::Result<()> {
        w.write_all(b"\n")?;
        for _ in 0..self.depth {
            w.write_all(b"  ")?;
        }
        Ok(())
    }
}

impl serde_json::ser::Formatter for Nested {
    fn begin_array<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.open(w, b"[")
    }

    fn end_array<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.close(w, b"]")
    }

    fn begin_array_value<W: ?Sized + io::Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> io::Result<()> {
        self.item(w, first)
    }

    fn end_array_value<W: ?Sized + io::Write>(&mut self, _: &mut W) -> io::Result<()> {
        self.has_value = true;
        Ok(())
    }

    fn begin_object<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.open(w, b"{")
    }

    fn end_object<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.close(w, b"}")
    }

    fn begin_object_key<W: ?Sized + io::Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> io::Result<()> {
        self.item(w, first)
    }

    fn begin_object_value<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        w.write_all(b": ")
    }

    fn end_object_value<W: ?Sized + io::Write>(&mut self, _: &mut W) -> io::Result<()> {
        self.has_value = true;
        Ok(())
    }
}

/// `value` as serde_json's pretty JSON, placed `depth` levels (two spaces
/// each) deep: the first line is indented, inner lines follow.
pub fn pretty_at<T: serde::Serialize + ?Sized>(
    value: &T,
    depth: usize,
    capacity: usize,
) -> serde_json::Result<String> {
    let mut out = Vec::with_capacity(capacity);
    for _ in 0..depth {
        out.extend_from_slice(b"  ");
    }
    let mut ser = serde_json::Serializer::with_formatter(
        &mut out,
        Nested {
            depth,
            has_value: false,
        },
    );
    value.serialize(&mut ser)?;
    // serde_json writes UTF-8 only.
    Ok(String::from_utf8(out).unwrap_or_default())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::{json, sarif};
    use crate::{audit, AuditOptions, Labels, Report};

    fn reports() -> Vec<Report> {
        let options = AuditOptions::default();
        let labels = Labels::workshop();
        [crate::WORKSHOP_PROFILE, crate::WORKSHOP_PROFILE_FIXED]
            .iter()
            .map(|p| audit(p.as_bytes(), "p.json", &labels, &options).unwrap())
            .collect()
    }

    fn pretty(v: &impl serde::Serialize) -> String {
        serde_json::to_string_pretty(v).unwrap() + "\n"
    }

    #[test]
    fn pieces_assemble_to_the_whole_document() {
        let all = reports();
        for n in 0..=3 {
            let rs: Vec<Report> = all.iter().cycle().take(n).cloned().collect();
            let exports: Vec<json::ExportRef<'_>> = rs.iter().map(json::export).collect();
            assert_eq!(json::render_many(&rs), pretty(&exports), "{n} reports");
            let log = serde_json::json!({
                "$schema": sarif::SARIF_SCHEMA,
                "version": "2.1.0",
                "runs": rs.iter().map(|r| serde_json::from_str::<serde_json::Value>(&sarif::element(r)).unwrap()).collect::<Vec<_>>(),
            });
            assert_eq!(sarif::render_many(&rs), pretty(&log), "{n} runs");
        }
    }

    #[test]
    fn nested_layout_is_the_pretty_layout_moved_right() {
        let v = serde_json::json!({"a": "x\ny", "b": [], "c": {}, "d": [1, {"e": [true, null]}], "f": 1.5});
        for depth in 0..4 {
            let pad = "  ".repeat(depth);
            let moved = format!(
                "{pad}{}",
                serde_json::to_string_pretty(&v)
                    .unwrap()
                    .replace('\n', &format!("\n{pad}"))
            );
            assert_eq!(pretty_at(&v, depth, 0).unwrap(), moved);
        }
        assert_eq!(pretty_at(&serde_json::json!([]), 2, 0).unwrap(), "    []");
    }
}
