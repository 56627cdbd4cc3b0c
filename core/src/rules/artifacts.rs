//! Rules of the `artifacts` area.

use super::Rule;

pub const RULES: &[Rule] = &[];
