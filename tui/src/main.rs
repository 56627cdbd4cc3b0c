//! The `isolint` binary: the non-interactive CLI and the terminal dashboard.

mod cli;
mod dashboard;

/// mimalloc rather than the system allocator: an audit makes many small,
/// short-lived strings, and directory mode makes them on every core at
/// once (measured in BENCHMARKS.md).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    cli::main()
}
