//! Rules of the `dependencies` area.

use super::Rule;

pub const RULES: &[Rule] = &[];
