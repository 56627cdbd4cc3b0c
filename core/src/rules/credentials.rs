//! Rules of the `credentials` area.

use super::Rule;

pub const RULES: &[Rule] = &[];
