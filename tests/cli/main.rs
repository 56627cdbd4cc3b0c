//! The `isolint` binary's command-line contract (SPEC §6): exit codes,
//! output shapes, directory mode, input errors, atomic `--output`, rule
//! documentation, schemas, determinism, and that no secret or raw control
//! character ever reaches any output.
//!
//! One binary, a module per theme, as ripgrep splits its integration tests.

mod common;

mod action;
mod directories;
mod docs;
mod exit_codes;
mod import;
mod input_errors;
mod output;
mod output_files;
mod secrets;
mod waivers_baseline;
