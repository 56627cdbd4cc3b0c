//! The binary's calls into the operating system that neither the standard
//! library nor rustix's safe functions offer: the only `unsafe` code of the
//! `isolint` crate (`main.rs` denies it everywhere else). Each function is
//! safe to call; each block says why it is sound and why it must exist.
//! None is a speed trick: `_exit` and `sync_file_range` were, and went
//! when they measured under 2 % (BENCHMARKS.md, "The binary's unsafe").

use std::fs::File;
use std::io;
#[cfg(test)]
use std::os::fd::AsFd;
use std::os::fd::{AsRawFd, BorrowedFd, FromRawFd, OwnedFd, RawFd};
use std::os::unix::process::CommandExt;
use std::process::{Child, Command};
use std::sync::Mutex;

/// Ask the kernel for `len` bytes of address space and give them back at
/// once, never touching them: the kernel's answer to an overrun of the
/// address-space limit, at no cost when the limit is not enforced.
pub fn reserve_address_space(len: usize) -> io::Result<()> {
    // SAFETY: an anonymous private mapping at an address the kernel
    // chooses: it aliases no memory of this process. Why: an allocation
    // through std goes through the global allocator, which may reserve
    // more or less than asked, and reports no errno.
    let p = unsafe {
        libc::mmap(
            std::ptr::null_mut(),
            len,
            libc::PROT_READ | libc::PROT_WRITE,
            libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_NORESERVE,
            -1,
            0,
        )
    };
    if p == libc::MAP_FAILED {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: unmaps exactly the mapping made above, which no reference
    // points into.
    unsafe { libc::munmap(p, len) };
    Ok(())
}

/// The most descriptors [`spawn_limited`] places in a child.
pub const MAX_PLACED: usize = 4;

/// Spawn `cmd` with hard and soft resource `limits` (`RLIMIT_*`, value)
/// set in the child before it executes, and each of `fds` (number, open
/// descriptor) placed at that number in the child, left open across exec
/// (at most [`MAX_PLACED`]). `cmd` is taken: it cannot be spawned again
/// once the borrows of `fds` have ended.
pub fn spawn_limited(
    mut cmd: Command,
    limits: &[(libc::__rlimit_resource_t, u64)],
    fds: &[(RawFd, BorrowedFd<'_>)],
) -> io::Result<Child> {
    if fds.len() > MAX_PLACED || fds.iter().any(|(to, _)| *to < 3) {
        return Err(io::Error::from_raw_os_error(libc::EINVAL));
    }
    let limits = limits.to_vec();
    let mut from: [RawFd; MAX_PLACED] = [-1; MAX_PLACED];
    let mut to: [RawFd; MAX_PLACED] = [-1; MAX_PLACED];
    for (i, (t, f)) in fds.iter().enumerate() {
        from[i] = f.as_raw_fd();
        to[i] = *t;
    }
    let n = fds.len();
    // Above every target, so that moving one descriptor never closes
    // another still to be moved.
    let above = to.iter().copied().max().unwrap_or(2) + 1;
    // SAFETY: between fork and exec the closure calls only
    // async-signal-safe functions (fcntl, dup2, setrlimit) and allocates
    // nothing (`limits` was copied and the descriptor tables filled before
    // the fork). The descriptors stay open until `spawn` returns, as the
    // borrows they came from outlive this call. Why: std sets no resource
    // limit in a child and places no descriptor other than 0-2; setting
    // the limits in this process instead would bind the launcher itself,
    // irreversibly.
    unsafe {
        cmd.pre_exec(move || {
            let mut moved = from;
            for fd in moved.iter_mut().take(n) {
                let d = libc::fcntl(*fd, libc::F_DUPFD_CLOEXEC, above);
                if d < 0 {
                    return Err(io::Error::last_os_error());
                }
                *fd = d;
            }
            for (m, t) in moved.iter().zip(to.iter()).take(n) {
                // dup2 leaves the new descriptor without close-on-exec.
                if libc::dup2(*m, *t) < 0 {
                    return Err(io::Error::last_os_error());
                }
            }
            for &(r, v) in &limits {
                let l = libc::rlimit {
                    rlim_cur: v,
                    rlim_max: v,
                };
                if libc::setrlimit(r, &l) != 0 {
                    return Err(io::Error::last_os_error());
                }
            }
            Ok(())
        });
    }
    cmd.spawn()
}

/// Descriptors already taken over by [`inherited_fd`].
static ADOPTED: Mutex<Vec<RawFd>> = Mutex::new(Vec::new());

/// Take over descriptor `fd`, inherited from the process that started
/// this one (`isolint probe --output-fd`). Each number is taken at most
/// once; 0-2 are never taken (std's stdio owns them).
pub fn inherited_fd(fd: RawFd) -> io::Result<File> {
    let mut adopted = ADOPTED
        .lock()
        .map_err(|_| io::Error::other("descriptor table poisoned"))?;
    if fd < 3 || adopted.contains(&fd) {
        return Err(io::Error::from_raw_os_error(libc::EBADF));
    }
    // SAFETY: F_GETFD only reads the descriptor's flags; a closed number
    // answers EBADF. Why: std can ask nothing of a bare descriptor number.
    let flags = unsafe { libc::fcntl(fd, libc::F_GETFD) };
    if flags < 0 {
        return Err(io::Error::last_os_error());
    }
    // Everything std (and so this process) opens is close-on-exec: a
    // descriptor without the flag came through exec, and nothing here
    // owns it.
    if flags & libc::FD_CLOEXEC != 0 {
        return Err(io::Error::from_raw_os_error(libc::EBADF));
    }
    adopted.push(fd);
    // SAFETY: `fd` is open and was inherited across exec (both checked
    // above), so no owner of it exists in this process, and the list
    // above makes this the only one. Why: only `from_raw_fd` turns an
    // inherited number into an owned descriptor.
    Ok(File::from(unsafe { OwnedFd::from_raw_fd(fd) }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Read;
    use std::process::Stdio;

    /// Only an open descriptor that came through exec is taken, and only
    /// once: stdio, a closed number, one this process opened (close on
    /// exec) and a second take are all refused.
    #[test]
    fn only_an_inherited_descriptor_is_taken_and_only_once() {
        for fd in [-1, 0, 1, 2, 999_999] {
            assert!(inherited_fd(fd).is_err(), "{fd}");
        }
        let own = File::open("/dev/null").unwrap();
        assert!(inherited_fd(own.as_raw_fd()).is_err(), "opened here");
        // A descriptor without close-on-exec stands for an inherited one.
        let (r, w) = std::io::pipe().unwrap();
        let fd = rustix::io::dup(&w).unwrap();
        let raw = fd.as_raw_fd();
        std::mem::forget(fd);
        drop(w);
        let mut taken = inherited_fd(raw).unwrap();
        assert!(inherited_fd(raw).is_err(), "taken twice");
        use std::io::Write;
        taken.write_all(b"x").unwrap();
        drop(taken);
        let mut got = Vec::new();
        (&r).read_to_end(&mut got).unwrap();
        assert_eq!(got, b"x");
    }

    #[test]
    fn the_child_gets_its_limits_and_descriptor_3() {
        let (mut r, w) = std::io::pipe().unwrap();
        let mut cmd = Command::new("/bin/sh");
        cmd.args(["-c", "echo \"$(ulimit -H -t) $(ulimit -S -t)\" >&3"])
            .stdin(Stdio::null())
            .stdout(Stdio::null());
        let mut child = spawn_limited(cmd, &[(libc::RLIMIT_CPU, 77)], &[(3, w.as_fd())]).unwrap();
        drop(w);
        assert!(child.wait().unwrap().success());
        let mut out = String::new();
        r.read_to_string(&mut out).unwrap();
        assert_eq!(out.trim(), "77 77");
        // This process keeps its own limit.
        assert_ne!(
            rustix::process::getrlimit(rustix::process::Resource::Cpu).maximum,
            Some(77)
        );
    }

    #[test]
    fn a_reservation_within_the_limit_is_granted_and_one_past_it_refused() {
        reserve_address_space(1 << 20).unwrap();
        // Past what a 64-bit address space can hold: refused with ENOMEM.
        let e = reserve_address_space(usize::MAX / 2).unwrap_err();
        assert_eq!(e.raw_os_error(), Some(libc::ENOMEM));
    }
}
