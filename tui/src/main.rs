//! The `isolint` binary: the non-interactive CLI and the terminal dashboard.

mod cli;
mod dashboard;
mod runner;

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
static ALLOCATOR: Mimalloc = Mimalloc;

/// What the `mimalloc` crate's `MiMalloc` does, except that an allocation
/// whose alignment every mimalloc block has (8 bytes: a pointer's) calls
/// `mi_malloc` itself instead of `mi_malloc_aligned`, which checks the
/// alignment again before taking the same path (about 1 % of a batch
/// profile's instructions; ~890 allocations a profile).
struct Mimalloc;

/// An alignment every block of mimalloc has.
const BLOCK_ALIGN: usize = std::mem::size_of::<usize>();

type Plain = unsafe extern "C" fn(usize) -> *mut std::ffi::c_void;
type Aligned = unsafe extern "C" fn(usize, usize) -> *mut std::ffi::c_void;

/// `plain(size)` when every block has the alignment, `aligned(size,
/// align)` otherwise.
///
/// # Safety
/// `plain` and `aligned` are mimalloc's allocation functions.
#[inline(always)]
unsafe fn by_alignment(layout: std::alloc::Layout, plain: Plain, aligned: Aligned) -> *mut u8 {
    // SAFETY: mimalloc's functions take any size and a power-of-two
    // alignment, which a Layout's is.
    unsafe {
        if layout.align() <= BLOCK_ALIGN {
            plain(layout.size()).cast()
        } else {
            aligned(layout.size(), layout.align()).cast()
        }
    }
}

// SAFETY: every pointer comes from mimalloc and goes back to it; blocks of
// `mi_malloc` and `mi_realloc` are aligned to BLOCK_ALIGN at least, and a
// larger alignment goes to mimalloc's aligned functions, as in the
// `mimalloc` crate.
unsafe impl std::alloc::GlobalAlloc for Mimalloc {
    unsafe fn alloc(&self, layout: std::alloc::Layout) -> *mut u8 {
        use libmimalloc_sys as mi;
        // SAFETY: a valid layout, as GlobalAlloc's contract asks.
        unsafe { by_alignment(layout, mi::mi_malloc, mi::mi_malloc_aligned) }
    }

    unsafe fn alloc_zeroed(&self, layout: std::alloc::Layout) -> *mut u8 {
        use libmimalloc_sys as mi;
        // SAFETY: as for `alloc`.
        unsafe { by_alignment(layout, mi::mi_zalloc, mi::mi_zalloc_aligned) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, _layout: std::alloc::Layout) {
        // SAFETY: `ptr` came from this allocator, that is from mimalloc.
        unsafe { libmimalloc_sys::mi_free(ptr.cast()) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: std::alloc::Layout, new_size: usize) -> *mut u8 {
        use libmimalloc_sys as mi;
        // SAFETY: `ptr` came from this allocator with `layout`.
        unsafe {
            if layout.align() <= BLOCK_ALIGN {
                mi::mi_realloc(ptr.cast(), new_size).cast()
            } else {
                mi::mi_realloc_aligned(ptr.cast(), new_size, layout.align()).cast()
            }
        }
    }
}

fn main() -> std::process::ExitCode {
    let code = cli::main();
    exit_now(code)
}

/// End the process without the allocator's clean-up: at exit mimalloc
/// hands every page it holds back to the kernel, one `madvise` per
/// segment (4 % of the samples of a 10,000-mount audit under `perf`, for
/// memory the kernel reclaims anyway). Everything the CLI writes goes through
/// `std::io::stdout`, flushed here, or unbuffered stderr, and files are
/// closed (and synced) before `cli::main` returns.
#[cfg(target_os = "linux")]
fn exit_now(code: u8) -> std::process::ExitCode {
    use std::io::Write;
    if std::io::stdout().flush().is_err() {
        return std::process::ExitCode::from(code);
    }
    // SAFETY: `_exit` ends the process; no Rust code runs after it, and
    // nothing is left buffered (stdout was just flushed).
    unsafe { libc::_exit(i32::from(code)) }
}

#[cfg(not(target_os = "linux"))]
fn exit_now(code: u8) -> std::process::ExitCode {
    std::process::ExitCode::from(code)
}
