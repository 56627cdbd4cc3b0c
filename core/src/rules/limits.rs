//! Rules of the `limits` area.

use super::Rule;

pub const RULES: &[Rule] = &[];
