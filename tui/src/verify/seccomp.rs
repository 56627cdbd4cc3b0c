//! The seccomp filter the reference launcher gives every worker (bwrap
//! `--seccomp FD` loads it): a classic BPF program that refuses, with
//! EPERM, the system calls container runtimes' default profiles refuse to
//! a job without capabilities (module loading, kexec, new mounts and
//! namespaces, keyrings, BPF, perf, `open_by_handle_at`), and kills a
//! process that calls in through another architecture's table. The
//! profile's `seccomp: default` means "a filter of this kind"; the probe's
//! `seccomp-filtered` check observes that one is loaded.

/// Classic BPF opcodes (`linux/filter.h`, `linux/bpf_common.h`).
/// BPF_LD (0) | BPF_W (0) | BPF_ABS.
const LD_W_ABS: u16 = 0x20;
const JMP_JEQ_K: u16 = 0x05 | 0x10;
const JMP_JGE_K: u16 = 0x05 | 0x30;
const RET_K: u16 = 0x06;

/// `struct seccomp_data`: the system call number, then the architecture.
const OFFSET_NR: u32 = 0;
const OFFSET_ARCH: u32 = 4;

const RET_ALLOW: u32 = 0x7fff_0000;
const RET_ERRNO: u32 = 0x0005_0000;
const RET_KILL_PROCESS: u32 = 0x8000_0000;

#[cfg(target_arch = "x86_64")]
const AUDIT_ARCH: u32 = 0xc000_003e;
#[cfg(target_arch = "aarch64")]
const AUDIT_ARCH: u32 = 0xc000_00b7;

/// The x32 ABI's system calls on x86_64 carry this bit; none is allowed.
#[cfg(target_arch = "x86_64")]
const X32_BIT: Option<u32> = Some(0x4000_0000);
#[cfg(not(target_arch = "x86_64"))]
const X32_BIT: Option<u32> = None;

/// Refused with EPERM.
const DENIED: &[libc::c_long] = &[
    libc::SYS_acct,
    libc::SYS_add_key,
    libc::SYS_bpf,
    libc::SYS_delete_module,
    libc::SYS_finit_module,
    libc::SYS_init_module,
    libc::SYS_kexec_file_load,
    libc::SYS_kexec_load,
    libc::SYS_keyctl,
    libc::SYS_mount,
    libc::SYS_move_mount,
    libc::SYS_fsopen,
    libc::SYS_fsmount,
    libc::SYS_open_tree,
    libc::SYS_open_by_handle_at,
    libc::SYS_perf_event_open,
    libc::SYS_pivot_root,
    libc::SYS_reboot,
    libc::SYS_request_key,
    libc::SYS_setns,
    libc::SYS_swapoff,
    libc::SYS_swapon,
    libc::SYS_syslog,
    libc::SYS_umount2,
    libc::SYS_unshare,
    libc::SYS_userfaultfd,
];

/// One `struct sock_filter`, in the machine's byte order.
fn insn(out: &mut Vec<u8>, code: u16, jt: u8, jf: u8, k: u32) {
    out.extend_from_slice(&code.to_ne_bytes());
    out.push(jt);
    out.push(jf);
    out.extend_from_slice(&k.to_ne_bytes());
}

/// The program as bwrap reads it from a descriptor: `struct sock_filter`
/// records back to back.
pub(super) fn default_filter() -> Vec<u8> {
    let mut p = Vec::with_capacity(8 * (DENIED.len() + 8));
    let denied: Vec<u32> = DENIED
        .iter()
        .filter_map(|n| u32::try_from(*n).ok())
        .collect();
    // Layout: arch check, load nr, [x32 check], one test per denied call,
    // allow, errno, kill. Jumps are relative to the next instruction.
    let tests = denied.len() + usize::from(X32_BIT.is_some());
    let to_errno = |i: usize| u8::try_from(tests - i).unwrap_or(u8::MAX);
    insn(&mut p, LD_W_ABS, 0, 0, OFFSET_ARCH);
    // Not this architecture: jump over the load, the tests, allow and errno.
    let to_kill = u8::try_from(tests + 3).unwrap_or(u8::MAX);
    insn(&mut p, JMP_JEQ_K, 0, to_kill, AUDIT_ARCH);
    insn(&mut p, LD_W_ABS, 0, 0, OFFSET_NR);
    let mut i = 0;
    if let Some(bit) = X32_BIT {
        insn(&mut p, JMP_JGE_K, to_errno(i), 0, bit);
        i += 1;
    }
    for nr in denied {
        insn(&mut p, JMP_JEQ_K, to_errno(i), 0, nr);
        i += 1;
    }
    insn(&mut p, RET_K, 0, 0, RET_ALLOW);
    insn(&mut p, RET_K, 0, 0, RET_ERRNO | libc::EPERM as u32);
    insn(&mut p, RET_K, 0, 0, RET_KILL_PROCESS);
    p
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A reference interpreter for the three instructions the filter uses:
    /// what it returns for a call.
    fn run(p: &[u8], nr: u32, arch: u32) -> u32 {
        let mut pc = 0usize;
        let mut acc = 0u32;
        loop {
            let i = &p[pc * 8..pc * 8 + 8];
            let code = u16::from_ne_bytes([i[0], i[1]]);
            let (jt, jf) = (i[2] as usize, i[3] as usize);
            let k = u32::from_ne_bytes([i[4], i[5], i[6], i[7]]);
            pc += 1;
            match code {
                LD_W_ABS => acc = if k == OFFSET_ARCH { arch } else { nr },
                JMP_JEQ_K => pc += if acc == k { jt } else { jf },
                JMP_JGE_K => pc += if acc >= k { jt } else { jf },
                RET_K => return k,
                _ => panic!("unknown instruction {code:#x}"),
            }
        }
    }

    #[test]
    fn the_filter_refuses_the_denied_calls_and_allows_the_rest() {
        let p = default_filter();
        assert_eq!(p.len() % 8, 0);
        let errno = RET_ERRNO | libc::EPERM as u32;
        let mut wrong = Vec::new();
        for n in DENIED {
            if run(&p, *n as u32, AUDIT_ARCH) != errno {
                wrong.push(format!("{n} not refused"));
            }
        }
        for n in [
            libc::SYS_read,
            libc::SYS_write,
            libc::SYS_openat,
            libc::SYS_clone,
            libc::SYS_execve,
            libc::SYS_exit_group,
            libc::SYS_connect,
            libc::SYS_prlimit64,
        ] {
            if run(&p, n as u32, AUDIT_ARCH) != RET_ALLOW {
                wrong.push(format!("{n} not allowed"));
            }
        }
        if run(&p, libc::SYS_read as u32, AUDIT_ARCH ^ 1) != RET_KILL_PROCESS {
            wrong.push("another architecture is not killed".into());
        }
        if let Some(bit) = X32_BIT {
            if run(&p, bit | libc::SYS_read as u32, AUDIT_ARCH) != errno {
                wrong.push("an x32 call is not refused".into());
            }
        }
        assert!(wrong.is_empty(), "{wrong:?}");
    }
}
