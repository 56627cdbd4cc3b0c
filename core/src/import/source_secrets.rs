//! The secrets of an imported file as written, not only those the
//! converted profiles kept: a Kubernetes Secret beside the pod, an
//! annotation, a Compose `secrets:` entry with inline `content`, a build
//! argument, an MCP server's `env`. The masked copy of the file (every
//! snippet, the dashboard's and the page's source pane) is built from
//! these and the profiles' secrets together, so what no profile field
//! holds is masked all the same.

use super::tree::SNode;
use super::{toml, yaml, Format};

/// The file's settings as parsed, for [`crate::secrets::Secrets`] to walk
/// as it walks a profile (a file that does not parse gives none; its lines
/// are still scanned, see [`line_values`]).
pub(super) enum Documents {
    Trees(Vec<SNode>),
    Json(Vec<crate::json::Node>),
}

impl Documents {
    pub(super) fn of(format: Format, text: &str) -> Documents {
        match format {
            Format::Kubernetes | Format::Compose => {
                Documents::Trees(yaml::parse(text.as_bytes()).unwrap_or_default())
            }
            Format::Codex => Documents::Trees(toml::parse(text.as_bytes()).into_iter().collect()),
            Format::Oci | Format::SandboxSettings => Documents::Json(
                crate::json::parse(text.as_bytes(), crate::json::Limits::default())
                    .map(|d| vec![d.root])
                    .unwrap_or_default(),
            ),
            // A script has no tree: its lines are scanned.
            Format::Bwrap => Documents::Trees(Vec::new()),
        }
    }

    /// Add the documents' secrets to `values`; whether they held any
    /// ([`crate::secrets::Secrets::collect_into`]).
    pub(super) fn collect_into(
        &self,
        values: &mut Vec<String>,
        memo: &mut crate::secrets::Memo,
    ) -> bool {
        use crate::secrets::Secrets;
        let mut holds = false;
        match self {
            Documents::Trees(trees) => {
                for t in trees {
                    holds |= Secrets::collect_into(t, values, Some(&mut *memo));
                }
            }
            Documents::Json(nodes) => {
                for n in nodes {
                    holds |= Secrets::collect_into(n, values, Some(&mut *memo));
                }
            }
        }
        holds
    }
}

/// What looks like a secret on each line of the file read as free text
/// (`--setenv DB_PASSWORD X`, `password = X` inside a Compose `configs`
/// content, a token in a comment).
pub(super) fn line_values(text: &str) -> Vec<String> {
    text.lines()
        .flat_map(crate::secrets::secret_tokens)
        .collect()
}
