//! Documents made of one piece per report, so many reports can be rendered
//! in parallel and written as they come, with the same bytes as rendering
//! them all at once.

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

#[cfg(test)]
mod tests {
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
}
