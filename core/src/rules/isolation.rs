//! Rules of the `isolation` area.

use super::Rule;

pub const RULES: &[Rule] = &[];
