//! Renderers: the same [`crate::Report`] as JSON, SARIF or text.

pub mod json;
pub mod sarif;
pub mod text;
