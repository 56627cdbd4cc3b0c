//! The text readers every importer shares: YAML, TOML, the position-keeping
//! tree they both produce, number formatting, and shell-word positions.
//! None knows any sandbox format; each format's folder builds on them.

pub(crate) mod float;
pub(crate) mod shell;
pub mod toml;
pub mod tree;
pub mod yaml;
