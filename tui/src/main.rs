//! The `isolint` binary: the non-interactive CLI and the terminal dashboard.

mod cli;
mod dashboard;

/// Paths into the repository's `fixtures/` for the binary's unit tests.
#[cfg(test)]
mod fixtures {
    use std::path::{Path, PathBuf};

    /// `fixtures/<rel>` at the repository root.
    pub fn path(rel: &str) -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../fixtures")
            .join(rel)
    }
}

/// mimalloc rather than the system allocator: an audit makes many small,
/// short-lived strings, and directory mode makes them on every core at
/// once (measured in BENCHMARKS.md).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Transparent huge pages, per run. mimalloc asks for them on its arenas;
/// they are refused for ordinary runs, where 2 MiB pages would double the
/// resident memory of a one-profile audit (5 → 11 MiB), and allowed once
/// the inputs are large: a 10,000-mount profile against 10,000 labels
/// touches about 55 MB, which costs 13,800 page faults in 4 KiB pages and
/// about 200 in huge pages (measured in BENCHMARKS.md).
pub mod pages {
    /// Allow (`true`) or refuse transparent huge pages for memory this
    /// process touches from now on.
    pub fn huge(allow: bool) {
        #[cfg(target_os = "linux")]
        {
            let disable = libc::c_ulong::from(!allow);
            // SAFETY: PR_SET_THP_DISABLE takes integer arguments only and
            // reads or writes no memory of this process; a failure (an old
            // kernel) only leaves the default in place.
            let _ = unsafe { libc::prctl(libc::PR_SET_THP_DISABLE, disable, 0, 0, 0) };
        }
        #[cfg(not(target_os = "linux"))]
        let _ = allow;
    }
}

/// Refuses huge pages before the Rust runtime makes its first allocations
/// (a constructor, run before `main`): otherwise those first arena pages
/// would already be 2 MiB ones.
#[cfg(target_os = "linux")]
#[used]
#[unsafe(link_section = ".init_array")]
static SMALL_PAGES_AT_START: extern "C" fn() = {
    extern "C" fn small_pages() {
        pages::huge(false);
    }
    small_pages
};

fn main() -> std::process::ExitCode {
    cli::main()
}
