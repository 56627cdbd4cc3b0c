//! isolint-core: audits execution profiles against trusted fixture labels.
//!
//! ```text
//! bytes ──json::parse──▶ Node ──decode──▶ Profile ──rules──▶ findings ──▶ Report
//!                                          labels ──┘                    │
//!                     render::{json, sarif, text}  ◀── Report ──▶ view_model (grouping, filters)
//! ```
//!
//! Core performs no I/O: it takes bytes and returns values. The verdict is at
//! most "eligible for runtime testing": a static comparison proves nothing
//! about enforcement.
//!
//! ```
//! use isolint_core::{audit, AuditOptions, Labels, Verdict};
//! let labels = Labels::workshop();
//! let report = audit(isolint_core::WORKSHOP_PROFILE.as_bytes(), "workshop.json", &labels, &AuditOptions::default()).unwrap();
//! assert_eq!(report.verdict, Verdict::NotEligible);
//! ```
#![forbid(unsafe_code)]
#![cfg_attr(
    not(test),
    warn(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)
)]

pub mod audit;
pub mod baseline;
pub mod date;
pub mod decode;
pub mod digest;
pub mod finding;
pub mod fix;
pub mod import;
pub mod json;
mod json_writer;
pub mod labels;
pub mod launch;
pub mod model;
pub mod observe;
pub mod par;
pub mod pathnorm;
pub mod plan;
mod procfs;
pub mod render;
pub mod report;
pub mod rules;
pub mod runner;
pub mod sanitize;
pub mod schema;
pub mod secrets;
mod shell;
pub mod sort;
#[cfg(any(test, feature = "synth"))]
pub mod synth;
pub mod text;
pub mod view_model;
pub mod waivers;

pub use date::Date;
pub use finding::{Area, CheckKind, Finding, Severity};
pub use par::{InOrder, Schedule};
pub use report::{
    audit, audit_parsed, AuditOptions, CatalogError, Detail, Labels, Parsed, Report, Verdict,
    NOTICE,
};

/// The lesson's parser job as first written, with its mistakes.
pub const WORKSHOP_PROFILE: &str = include_str!("../../fixtures/profiles/workshop.json");
/// The same job, fixed until it is eligible for runtime testing.
pub const WORKSHOP_PROFILE_FIXED: &str =
    include_str!("../../fixtures/profiles/workshop-fixed.json");
