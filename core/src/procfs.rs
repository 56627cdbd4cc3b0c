//! Paths the runtime resolves through `/proc`: a process's descriptors,
//! `cwd` or `root`. Read by the rules (a working directory through them is
//! a finding) and by the importers (such a working directory is never
//! dropped), so it sits below both.

/// Whether components `c` name a process's descriptors, `cwd` or `root`
/// under `/proc` (what follows them is resolved from wherever they point).
fn is_proc_link(c: &[&str]) -> bool {
    let pid = |p: &str| p == "self" || p == "thread-self" || p.bytes().all(|b| b.is_ascii_digit());
    let link = |l: &str| matches!(l, "fd" | "cwd" | "root" | "map_files");
    match c {
        ["proc", p, l, ..] if pid(p) && link(l) => true,
        ["proc", p, "task", t, l, ..] => pid(p) && pid(t) && link(l),
        _ => false,
    }
}

/// Whether a working directory goes through a process's descriptors,
/// `cwd` or `root` under `/proc`: the runtime resolves it in its own
/// context, where a leaked descriptor can be a host directory. Checked at
/// every step, because a `..` after such a link climbs from wherever the
/// link points (`/proc/self/fd/7/../..` is the CVE-2024-21626 shape), not
/// back out of `/proc`.
pub(crate) fn through_proc(path: &str) -> bool {
    let mut stack: Vec<&str> = Vec::new();
    for c in path.trim().split('/') {
        match c {
            "" | "." => {}
            ".." => {
                stack.pop();
            }
            c => {
                stack.push(c);
                if is_proc_link(&stack) {
                    return true;
                }
            }
        }
    }
    false
}
