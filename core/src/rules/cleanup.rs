//! Rules of the `cleanup` area.

use super::Rule;

pub const RULES: &[Rule] = &[];
