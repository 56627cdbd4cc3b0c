//! Rules of the `command` area.

use super::Rule;

pub const RULES: &[Rule] = &[];
