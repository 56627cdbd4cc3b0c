//! The ratatui dashboard (issue 3). Entry point used by the CLI.

use std::path::PathBuf;

/// Open the dashboard on `profiles` (files or directories; empty means the
/// embedded workshop profile), with an optional catalog path.
pub fn run(profiles: Vec<PathBuf>, labels: Option<PathBuf>) -> anyhow::Result<()> {
    let _ = (profiles, labels);
    anyhow::bail!("the dashboard is not built yet")
}
