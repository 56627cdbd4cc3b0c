//! The one shell analysis: every rule that needs to know "what runs here"
//! asks this module.
//!
//! - [`lex`]: a conservative tokenizer for `shell` text (quotes, escapes,
//!   control and redirection operators, `$(..)` and backquotes) into words,
//!   which the `bwrap` and Compose importers read too, and into simple
//!   commands. It is not a shell and never runs anything.
//! - [`words`]: what one word means: the shell constructs a string holds
//!   ([`metacharacters`]) and the program a word names ([`program_name`]).
//! - [`programs`]: tables of program families (shells, interpreters,
//!   wrappers, downloaders, installers).
//! - [`walk`]: one command line walked through wrappers (`env`, `timeout`,
//!   `xargs`, `busybox`) and into text given to `sh -c` or `cmd /c`,
//!   reporting shells told to run text, options that make a program run
//!   code, Windows batch files and programs named by a relative path; its
//!   family files read each family's options.

pub(crate) mod codevars;
pub(crate) mod fetch;
pub(crate) mod lex;
pub(crate) mod programs;
pub(crate) mod script;
pub(crate) mod walk;
pub(crate) mod words;

pub(crate) use lex::parse;
pub(crate) use programs::is_interpreter;
pub(crate) use walk::{analyze_script, analyze_words, Analysis, Hit, HitKind};
pub(crate) use words::{metacharacters, program_name, Meta};

#[cfg(test)]
mod tests;
