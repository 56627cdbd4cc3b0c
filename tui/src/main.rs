//! The `isolint` binary: the non-interactive CLI and the terminal dashboard.

mod cli;
mod dashboard;

fn main() -> std::process::ExitCode {
    cli::main()
}
