//! The binary's calls into the operating system that the standard library
//! does not offer: the only `unsafe` code of the `isolint` crate outside
//! the runtime verifier (`verify/`), each block with its safety argument.
//! Each stays because a figure in BENCHMARKS.md pays for it.

use std::fs::File;
use std::io;
use std::os::fd::AsRawFd;

/// End the process at once, without running exit handlers: the
/// allocator's clean-up at exit returns every page one segment at a time,
/// for memory the kernel reclaims anyway. The caller has flushed
/// everything it wrote.
pub fn exit_without_cleanup(code: u8) -> ! {
    // SAFETY: `_exit` ends the process and never returns; no Rust code
    // runs after it, and the caller left nothing buffered.
    unsafe { libc::_exit(i32::from(code)) }
}

/// Turn `O_DIRECT` on or off for `file` (writes then go around the page
/// cache, see `cli/direct.rs`).
pub fn set_direct(file: &File, on: bool) -> io::Result<()> {
    let fd = file.as_raw_fd();
    // SAFETY: `fd` is the open descriptor of `file`, borrowed for the
    // whole call; F_GETFL only reads its status flags.
    let flags = unsafe { libc::fcntl(fd, libc::F_GETFL) };
    if flags < 0 {
        return Err(io::Error::last_os_error());
    }
    let flags = if on {
        flags | libc::O_DIRECT
    } else {
        flags & !libc::O_DIRECT
    };
    // SAFETY: as above; F_SETFL sets the status flags only.
    if unsafe { libc::fcntl(fd, libc::F_SETFL, flags) } < 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(())
}

/// Queue what was written to `file` so far for writeback, without waiting
/// for it: the final flush then finds little left to do. A hint; errors
/// are ignored.
pub fn start_writeback(file: &File) {
    // SAFETY: the descriptor is `file`'s, open for the whole call; offset
    // 0 and length 0 mean "the whole file", and SYNC_FILE_RANGE_WRITE
    // only queues writeback.
    let _ = unsafe { libc::sync_file_range(file.as_raw_fd(), 0, 0, libc::SYNC_FILE_RANGE_WRITE) };
}
