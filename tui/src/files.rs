//! The files a run reads and writes, shared by the command line and the
//! dashboard so both refuse and report exactly the same things: bounded
//! reads and directory expansion ([`input`]), the label catalog, waivers
//! and baselines ([`input`]), the run's context (the `--runner` overlay,
//! companions, Compose options: [`runner`]), today's date ([`today`]),
//! atomic writes ([`atomic`]), and the exit codes and stdout/`--output`
//! writing every command shares ([`output`]). How a failure is shown (a
//! line on stderr, a panel in the dashboard) is each caller's own.

pub mod atomic;
#[cfg(target_os = "linux")]
mod direct;
pub mod input;
pub mod output;
pub mod runner;
pub mod today;
