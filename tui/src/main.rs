//! The `isolint` binary: the non-interactive CLI and the terminal dashboard.

mod cli;
mod dashboard;

/// Paths into the repository's `fixtures/` for the binary's unit tests.
#[cfg(test)]
mod fixtures {
    use std::path::{Path, PathBuf};

    /// `fixtures/<rel>` at the repository root.
    pub fn path(rel: &str) -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../fixtures")
            .join(rel)
    }
}

/// mimalloc rather than the system allocator: an audit makes many small,
/// short-lived strings, and directory mode makes them on every core at
/// once (measured in BENCHMARKS.md).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    cli::main()
}
