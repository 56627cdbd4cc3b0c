//! The secrets of an imported file as written, not only those the
//! converted profiles kept: a Kubernetes Secret beside the pod, an
//! annotation, a Compose `secrets:` entry with inline `content`, a build
//! argument, an MCP server's `env`. The masked copy of the file (every
//! snippet, the dashboard's and the page's source pane) is built from
//! these and the profiles' secrets together, so what no profile field
//! holds is masked all the same.

use super::tree::{SNode, SValue};
use super::{toml, yaml, Format};

/// The file's settings as JSON documents, for [`crate::redact::Secrets`]
/// to walk as it walks a profile (a file that does not parse gives none;
/// its lines are still scanned, see [`line_values`]).
pub(super) fn documents(format: Format, text: &str) -> Vec<crate::json::Node> {
    let trees: Vec<SNode> = match format {
        Format::Kubernetes | Format::Compose => yaml::parse(text.as_bytes()).unwrap_or_default(),
        Format::Codex => toml::parse(text.as_bytes()).into_iter().collect(),
        Format::Oci | Format::SandboxSettings => {
            return crate::json::parse(text.as_bytes(), crate::json::Limits::default())
                .map(|d| vec![d.root])
                .unwrap_or_default();
        }
        // A script has no tree: its lines are scanned.
        Format::Bwrap => Vec::new(),
    };
    documents_of(&trees)
}

/// [`documents`] of YAML documents the import has parsed already.
pub(super) fn documents_of(trees: &[SNode]) -> Vec<crate::json::Node> {
    trees.iter().map(to_node).collect()
}

/// A tree as a JSON node, built directly (positions are not needed: only
/// the values and keys are walked).
fn to_node(n: &SNode) -> crate::json::Node {
    use crate::json::{Member, Node, Pos, Value};
    let value = match &n.value {
        SValue::Null => Value::Null,
        SValue::Scalar(s) => Value::String(s.text.clone()),
        SValue::Seq(items) => Value::Array(items.iter().map(to_node).collect()),
        SValue::Map(entries) => Value::Object(
            entries
                .iter()
                .map(|e| Member {
                    key: e.key.clone(),
                    key_pos: Pos::default(),
                    value: to_node(&e.value),
                })
                .collect(),
        ),
    };
    Node {
        pos: Pos::default(),
        end: 0,
        value,
    }
}

/// What looks like a secret on each line of the file read as free text
/// (`--setenv DB_PASSWORD X`, `password = X` inside a Compose `configs`
/// content, a token in a comment).
pub(super) fn line_values(text: &str) -> Vec<String> {
    text.lines()
        .flat_map(crate::redact::secret_tokens)
        .collect()
}
