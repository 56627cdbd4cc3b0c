//! Where reports go: stdout (a closed pipe is not an error), stderr for
//! messages, and the refusal to write over a command's own inputs. Files are
//! replaced through `crate::files::atomic`.

/// Exit status: every audited profile is eligible for runtime testing (or
/// the command was not an audit and succeeded).
pub const EXIT_OK: u8 = 0;
/// Exit status: at least one profile is not eligible (or, with
/// `--fail-on`, a finding at or above the threshold).
pub const EXIT_NOT_ELIGIBLE: u8 = 1;
/// Exit status: usage error, unreadable or invalid input.
pub const EXIT_ERROR: u8 = 2;

use std::io::{self, IsTerminal, Write};
use std::path::Path;

use isolint_core::secrets::safe_text;

use crate::files::atomic::same_file;

/// Whether the user asked for no colour (<https://no-color.org>: set and
/// not empty), or the terminal cannot show it.
pub fn color_disabled_by_env() -> bool {
    std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty())
        || std::env::var_os("TERM").is_some_and(|t| t == "dumb")
}

/// Print `error: MESSAGE` on stderr. The message is masked and
/// neutralized: it may quote file names or input the user does not control.
pub fn error(message: &str) {
    let message = safe_text(message);
    let label = if io::stderr().is_terminal() && !color_disabled_by_env() {
        "\x1b[1;31merror\x1b[0m"
    } else {
        "error"
    };
    let _ = writeln!(io::stderr().lock(), "{label}: {message}");
}

/// Print `note: MESSAGE` on stderr (a remark about the input, like a
/// compiler's).
pub fn remark(message: &str) {
    line("note: ", &safe_text(message));
}

/// Lines for stderr gathered and written in large writes: a large import
/// prints a note per setting per profile, and a system call per line
/// would cost more than the import. What is gathered is written when the
/// batch is dropped.
///
/// The pieces of a line are made safe by whoever has them: core masks and
/// neutralizes every note it returns (with the secrets of the whole file,
/// which a scan of one line cannot know), and the caller passes what it
/// adds through [`safe_text`]. Scanning the joined line again would cost
/// as much as the import itself on a file with a million notes.
#[derive(Default)]
pub struct Remarks {
    buf: String,
}

impl Remarks {
    /// `note: PIECES…`, as [`remark`] prints it; every piece already safe.
    pub fn remark(&mut self, pieces: &[&str]) {
        self.line("note: ", pieces);
    }

    /// `not declared: PIECES…`: a profile field an imported format cannot
    /// express; every piece already safe.
    pub fn not_declared(&mut self, pieces: &[&str]) {
        self.line("not declared: ", pieces);
    }

    fn line(&mut self, prefix: &str, pieces: &[&str]) {
        self.buf.push_str(prefix);
        pieces.iter().for_each(|p| self.buf.push_str(p));
        self.buf.push('\n');
        if self.buf.len() >= 1 << 16 {
            self.flush();
        }
    }

    fn flush(&mut self) {
        let _ = io::stderr().lock().write_all(self.buf.as_bytes());
        self.buf.clear();
    }
}

impl Drop for Remarks {
    fn drop(&mut self) {
        self.flush();
    }
}

/// Print an informational line on stderr.
pub fn note(message: &str) {
    line("isolint: ", &safe_text(message));
}

/// One line on stderr in one write: stderr is unbuffered, `writeln!` would
/// write each piece on its own, and an import can print a line per
/// setting of tens of thousands of profiles.
fn line(prefix: &str, message: &str) {
    let mut s = String::with_capacity(prefix.len() + message.len() + 1);
    s.push_str(prefix);
    s.push_str(message);
    s.push('\n');
    let _ = io::stderr().lock().write_all(s.as_bytes());
}

/// Write to stdout. A reader that went away (`isolint … | head`) is not an
/// error worth reporting; anything else is.
pub fn stdout(text: &str) -> io::Result<()> {
    let mut out = io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(()),
        other => other,
    }
}

/// Refuse to write `out` (given with `flag`) over one of the command's
/// own inputs, however the path reaches it (a link, a second name, `./`):
/// the write would replace what the command read. `inputs`: what each is
/// (`"--labels file"`) and its path, if given.
pub fn refuse_inputs(
    out: &Path,
    flag: &str,
    inputs: &[(&str, Option<&Path>)],
) -> Result<(), String> {
    if out.as_os_str() == "-" {
        return Ok(());
    }
    for (what, path) in inputs {
        if let Some(p) = path.filter(|p| p.as_os_str() != "-" && same_file(p, out)) {
            return Err(format!(
                "{}: is the {what} and also the {flag} file, which the write would replace; \
                 write it elsewhere",
                safe_text(&p.to_string_lossy())
            ));
        }
    }
    Ok(())
}

/// Whether `bytes` is a report isolint writes, in any `--format`: the only
/// kind of file a directory run may pass over as its own `--output`.
/// Anything else there (a profile, a manifest) is the operator's, and the
/// run must neither skip nor replace it.
/// A findings export of this version or the one before it.
fn is_findings_document(d: &serde_json::Value) -> bool {
    d["schema"] == isolint_core::render::json::FINDINGS_SCHEMA
        || d["schema"] == "isolint.findings/v1"
}

pub fn is_isolint_report(bytes: &[u8]) -> bool {
    let Ok(text) = std::str::from_utf8(bytes) else {
        return false;
    };
    // A run with nothing to annotate writes an empty GitHub report.
    if text.trim().is_empty() {
        return true;
    }
    if let Ok(v) = serde_json::from_str::<serde_json::Value>(text) {
        let findings = |d: &serde_json::Value| is_findings_document(d);
        let sarif = v["runs"].as_array().is_some_and(|runs| {
            !runs.is_empty()
                && runs
                    .iter()
                    .all(|r| r["tool"]["driver"]["name"] == "isolint")
        });
        return findings(&v)
            || sarif
            || v.as_array()
                .is_some_and(|a| !a.is_empty() && a.iter().all(findings));
    }
    // JSON Lines: one findings document a line.
    if text.lines().filter(|l| !l.trim().is_empty()).all(|l| {
        serde_json::from_str::<serde_json::Value>(l).is_ok_and(|d| is_findings_document(&d))
    }) {
        return true;
    }
    let first = text.lines().next().unwrap_or("");
    (first.starts_with("isolint ")
        && text
            .lines()
            .nth(1)
            .is_some_and(|l| l.starts_with("verdict: ")))
        || first.starts_with("## isolint: ")
        || text
            .lines()
            .all(|l| l.is_empty() || (l.starts_with("::") && l.contains("title=isolint ")))
}
