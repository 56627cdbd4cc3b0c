//! Rules of the `network` area.

use super::Rule;

pub const RULES: &[Rule] = &[];
