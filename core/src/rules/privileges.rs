//! Rules of the `privileges` area.

use super::Rule;

pub const RULES: &[Rule] = &[];
