//! Rules of the `mounts` area.

use super::Rule;

pub const RULES: &[Rule] = &[];
