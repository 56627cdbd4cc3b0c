//! Renderers: the same [`crate::Report`] as JSON, SARIF, text, Markdown or
//! GitHub workflow annotations.

pub mod frame;
pub mod github;
pub mod json;
pub mod markdown;
pub mod pretty;
pub mod sarif;
pub mod text;
