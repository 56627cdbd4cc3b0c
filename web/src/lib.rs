//! The isolint workshop page: a Yew app that audits execution profiles
//! entirely in the browser with `isolint-core`.
//!
//! `state` (the one reducer) and the pure helpers (`share`, `lines`,
//! `lessons`) hold no DOM code and are unit-tested natively; `components`
//! and `browser` only render and bridge to browser APIs.
#![forbid(unsafe_code)]

pub mod browser;
pub mod clock;
pub mod components;
pub mod fixes;
pub mod lessons;
pub mod lines;
pub mod share;
pub mod state;

pub use components::App;
