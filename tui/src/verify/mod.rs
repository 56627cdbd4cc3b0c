//! The reference verifier: `probe` runs inside a worker and reports what
//! the kernel enforces, `verify` launches workers in bubblewrap from an
//! exported plan, and `reconcile` compares what was declared with what was
//! observed. The commands' argument types live here; `cli` only dispatches.

#[cfg(target_os = "linux")]
pub(crate) mod launch;
#[cfg(target_os = "linux")]
pub(crate) mod probe;
pub(crate) mod reconcile;
#[cfg(target_os = "linux")]
mod seccomp;
