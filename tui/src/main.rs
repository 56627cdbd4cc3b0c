//! The `isolint` binary: the non-interactive CLI and the terminal dashboard.

// Calls into the operating system that need `unsafe` live in `sys` only,
// each with its safety argument.
#![deny(unsafe_code)]

mod cli;
mod dashboard;
mod files;
mod pool;
#[cfg(target_os = "linux")]
#[allow(unsafe_code)]
mod sys;
mod verify;

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
    // std flushes stdout on the way out; files are closed (and synced)
    // before `cli::main` returns.
    std::process::ExitCode::from(cli::main())
}
