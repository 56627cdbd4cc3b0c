//! Real bubblewrap is the oracle for how isolint reads bwrap's mount order.
//!
//! bwrap applies its mount options in order: a later mount at a path
//! replaces what an earlier one showed there and below, and `--remount-ro`
//! changes the mount at its path. Each row below is a sequence of mount
//! options over directories this test creates (`A`, `B`, `C` stand for
//! them; nothing of the host but `/usr` is bound, read-only). Real `bwrap`
//! runs a shell that reports, for each probe path, which of those
//! directories it shows (each holds an `id` file naming it) and whether
//! it is writable. isolint imports the same command line; its reading is
//! the profile the importer writes: the last mount whose target holds the
//! probe path shows `source` + the rest of the path, writable when its
//! access is `read-write`, and no mount means no host directory there.
//! When bwrap refuses to start, isolint must refuse too, or say so in a
//! note.

use std::path::{Path, PathBuf};
use std::process::Command;

use isolint_core::import::{import, Format};
use serde_json::Value;

/// Host directories each case gets, fresh: their `id` file holds the name.
const DIRS: &[&str] = &["a", "a/sub", "a/sub/sub", "b", "b/sub", "c"];

/// Where the shell inside looks.
const PROBES: &[&str] = &["/x", "/x/sub", "/x/sub/sub", "/y"];

/// Orderings of mount options; `A`, `B`, `C`, `M` (a missing directory)
/// are replaced by host paths of the case's own directory. `true` marks
/// a private filesystem mounted at a path with `..`, which bwrap resolves
/// inside the sandbox: isolint cannot tell what it covers, so it reads
/// such a row wider than bwrap (a host directory where the job sees
/// none), never narrower, and says so in a note. A private filesystem
/// inside a bind is read exactly: the bind lists its path in `excludes`.
const CASES: &[(&str, bool)] = &[
    ("--bind A /x", false),
    ("--ro-bind A /x", false),
    ("--bind A /x --tmpfs /x", false),
    ("--bind A /x --tmpfs /x/sub", false),
    ("--ro-bind A /x --tmpfs /x/sub", false),
    ("--bind A /x --ro-bind B /x/sub", false),
    ("--ro-bind A /x --bind B /x/sub", false),
    ("--bind A /x --ro-bind B /x", false),
    ("--ro-bind A /x --bind B /x", false),
    ("--bind A /x --remount-ro /x", false),
    ("--bind A /x --bind B /x/sub --remount-ro /x", false),
    ("--bind A /x --bind B /x/sub --remount-ro /x/sub", false),
    ("--bind A /x --remount-ro /x --bind B /x/sub", false),
    ("--bind A /x --remount-ro /x/sub", false),
    ("--bind A /x/ --tmpfs /x", false),
    ("--bind A /x --tmpfs /x/", false),
    ("--bind A /x --tmpfs /x/sub/..", true),
    ("--bind A //x --tmpfs /x/./sub", false),
    ("--bind B /x/sub --bind A /x", false),
    ("--bind B /x/sub --tmpfs /x", false),
    ("--bind A /x --dev /x/sub", false),
    ("--bind A /x --proc /x/sub", false),
    ("--bind A /x --mqueue /x/sub", false),
    ("--bind A /x --dir /x/sub", false),
    ("--bind A /x --remount-ro /x --remount-ro /x", false),
    ("--ro-bind A /x --remount-ro /x --bind B /x", false),
    ("--bind A /x --bind A/sub /y --tmpfs /x/sub", false),
    ("--tmpfs /x --bind B /x/sub", false),
    ("--bind A /x --tmpfs /x/sub --remount-ro /x/sub", false),
    ("--bind A /x --ro-bind-try B /x/sub", false),
    ("--bind A /x --bind-try M /x/sub", false),
    ("--dev-bind A /x --tmpfs /x/sub", false),
    ("--bind A /x --bind C /x --remount-ro /x", false),
    ("--bind A /x --ro-bind B /y --bind C /x/sub", false),
    (
        "--ro-bind A /x --ro-bind B /x/sub --tmpfs /x/sub --remount-ro /x",
        false,
    ),
    ("--bind A /x --tmpfs /x/sub --bind B /x/sub/sub", false),
    ("--bind A /x --tmpfs /x/sub/sub", false),
    ("--bind B /y --bind A /x --remount-ro /y", false),
    (
        "--bind A /x --ro-bind C /x/sub/sub --remount-ro /x/sub/sub",
        false,
    ),
    ("--bind A /x --bind B /x/sub/../sub", false),
    ("--bind A /x --tmpfs /x/sub/sub --tmpfs /x/sub", false),
    ("--bind A /x --bind-try M /x/sub --tmpfs /x/sub/sub", false),
    ("--bind A /x --tmpfs /x/sub --tmpfs /x/sub/sub", false),
    ("--ro-bind A /x --tmpfs /y --tmpfs /x/sub/", false),
];

/// What one path shows: the host directory's name (`-` for a directory of
/// none of ours, `absent` when nothing is there) and whether it is
/// writable (`None` when it shows no host directory of ours).
#[derive(Debug, Clone, PartialEq, Eq)]
struct Seen {
    id: String,
    writable: Option<bool>,
}

fn bwrap_present() -> bool {
    let ok = Command::new("bwrap")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if !ok {
        eprintln!(
            "\n\n*** SKIPPED: bwrap (bubblewrap) is not installed; run scripts/setup.sh ***\n\n"
        );
    }
    ok
}

fn options(case: &str, root: &Path) -> Vec<String> {
    let host = |d: &str| root.join(d).to_string_lossy().into_owned();
    case.split_whitespace()
        .map(|w| match w {
            "A" => host("a"),
            "A/sub" => host("a/sub"),
            "B" => host("b"),
            "C" => host("c"),
            "M" => host("missing"),
            _ => w.to_string(),
        })
        .collect()
}

fn fresh(root: &Path) {
    let _ = std::fs::remove_dir_all(root);
    for d in DIRS {
        let p = root.join(d);
        std::fs::create_dir_all(&p).unwrap();
        std::fs::write(p.join("id"), d).unwrap();
    }
}

/// What real bwrap shows at each probe, or `None` when it refuses to start.
fn observed(opts: &[String]) -> Option<Vec<Seen>> {
    let script = "for p in \"$@\"; do \
        if [ -f \"$p/id\" ]; then i=$(cat \"$p/id\"); elif [ -e \"$p\" ]; then i=-; else i=absent; fi; \
        if [ -w \"$p\" ]; then w=1; else w=0; fi; echo \"$i $w\"; done";
    let out = Command::new("bwrap")
        .args(opts)
        .args([
            "--ro-bind",
            "/usr",
            "/usr",
            "--symlink",
            "usr/bin",
            "/bin",
            "--symlink",
            "usr/lib",
            "/lib",
            "--symlink",
            "usr/lib64",
            "/lib64",
            "--unshare-all",
            "--die-with-parent",
            "--new-session",
            "--",
            "/bin/sh",
            "-c",
            script,
            "sh",
        ])
        .args(PROBES)
        .output()
        .unwrap();
    if !out.status.success() {
        return None;
    }
    let text = String::from_utf8_lossy(&out.stdout);
    Some(
        text.lines()
            .map(|l| {
                let (id, w) = l.rsplit_once(' ').unwrap_or((l, "0"));
                let ours = DIRS.contains(&id);
                Seen {
                    id: id.to_string(),
                    writable: ours.then_some(w == "1"),
                }
            })
            .collect(),
    )
}

/// One mount of the profile: source, target, writable, and the paths its
/// `excludes` lists.
type Declared = (String, String, bool, Vec<String>);

/// isolint's reading of the same options: the profile's mounts in order.
enum Reading {
    Refused,
    Profile {
        mounts: Vec<Declared>,
        notes: Vec<String>,
    },
}

fn reading(opts: &[String]) -> Reading {
    let text = format!("bwrap {} -- sh\n", shell_words(opts));
    let mut got = match import(text.as_bytes(), Format::Bwrap) {
        Ok(v) => v,
        Err(_) => return Reading::Refused,
    };
    assert_eq!(got.len(), 1, "{text}");
    let one = got.remove(0);
    let profile: Value = serde_json::from_str(&one.profile_json).unwrap();
    let mounts = profile["mounts"]
        .as_array()
        .cloned()
        .unwrap_or_default()
        .iter()
        .map(|m| {
            let s = |k: &str| m[k].as_str().unwrap_or_default().to_string();
            let excludes = m["excludes"]
                .as_array()
                .map(|a| {
                    a.iter()
                        .filter_map(|e| e.as_str().map(str::to_string))
                        .collect()
                })
                .unwrap_or_default();
            (
                s("source"),
                s("target"),
                s("access") == "read-write",
                excludes,
            )
        })
        .collect();
    let notes = one.notes.iter().map(|n| n.message.to_string()).collect();
    Reading::Profile { mounts, notes }
}

fn shell_words(opts: &[String]) -> String {
    opts.iter()
        .map(|o| format!("'{o}'"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Whether `outer` holds `inner`, component by component.
fn holds(outer: &str, inner: &str) -> Option<String> {
    let o = outer.trim_end_matches('/');
    if inner == o {
        return Some(String::new());
    }
    inner
        .strip_prefix(o)
        .filter(|rest| rest.starts_with('/'))
        .map(str::to_string)
}

/// What the profile says each probe shows.
fn predicted(mounts: &[Declared], root: &Path) -> Vec<Seen> {
    let root = root.to_string_lossy();
    PROBES
        .iter()
        .map(|p| {
            // bwrap skips a `-try` mount whose source is missing; isolint
            // cannot see the host, so its profile keeps it.
            let last = mounts
                .iter()
                .rev()
                .filter(|(s, _, _, _)| Path::new(s).exists())
                .find_map(|(s, t, w, excludes)| {
                    let t = isolint_core::labels::normalize(t).path;
                    let rest = holds(&t, p)?;
                    // Under an excluded path the job sees what is mounted
                    // there, which the profile says is not this mount.
                    let hidden = excludes
                        .iter()
                        .any(|e| holds(&isolint_core::labels::normalize(e).path, p).is_some());
                    Some((!hidden).then(|| (format!("{s}{rest}"), *w)))
                })
                .flatten();
            match last {
                None => Seen {
                    id: "private".into(),
                    writable: None,
                },
                Some((host, w)) => {
                    let host = isolint_core::labels::normalize(&host).path;
                    let id = host
                        .strip_prefix(&*root)
                        .and_then(|r| r.strip_prefix('/'))
                        .filter(|r| DIRS.contains(r));
                    match id {
                        Some(id) => Seen {
                            id: id.to_string(),
                            writable: Some(w),
                        },
                        None => Seen {
                            id: "absent".into(),
                            writable: None,
                        },
                    }
                }
            }
        })
        .collect()
}

/// A private filesystem or bwrap's own root shows none of our
/// directories: the profile's "no host directory here" matches either.
fn agree(want: &Seen, got: &Seen) -> bool {
    if got.id == "private" {
        return want.writable.is_none();
    }
    want == got
}

struct TempRoot(PathBuf);

impl Drop for TempRoot {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Where isolint shows a host directory of ours and bwrap shows none:
/// wider, the safe direction.
fn wider(want: &Seen, got: &Seen) -> bool {
    want.writable.is_none() && got.writable.is_some()
}

#[test]
fn mount_order_matches_real_bubblewrap() {
    if !bwrap_present() {
        return;
    }
    let base =
        TempRoot(std::env::temp_dir().join(format!("isolint-bwrap-order-{}", std::process::id())));
    let mut wrong = Vec::new();
    let mut exact = 0;
    for (case, hole) in CASES {
        let root = base.0.join("h");
        fresh(&root);
        let opts = options(case, &root);
        let real = observed(&opts);
        fresh(&root);
        let ours = reading(&opts);
        let verdict = match (&real, &ours) {
            (None, Reading::Refused) => None,
            (None, Reading::Profile { notes, .. }) => {
                if notes.iter().any(|n| n.contains("bwrap refuses to start")) {
                    None
                } else {
                    Some("bwrap refuses to start; isolint neither refuses nor says so".to_string())
                }
            }
            (Some(_), Reading::Refused) => Some("isolint refuses; bwrap runs".to_string()),
            (Some(want), Reading::Profile { mounts, notes }) => {
                let got = predicted(mounts, &root);
                let pairs: Vec<(&&str, (&Seen, &Seen))> =
                    PROBES.iter().zip(want.iter().zip(&got)).collect();
                let show = |(p, (w, g)): &(&&str, (&Seen, &Seen))| {
                    format!(
                        "{p}: bwrap {} {:?}, isolint {} {:?}",
                        w.id, w.writable, g.id, g.writable
                    )
                };
                let differ: Vec<_> = pairs.iter().filter(|(_, (w, g))| !agree(w, g)).collect();
                let noted = notes
                    .iter()
                    .any(|n| n.contains("in that mount's `excludes`") || n.contains("`..`"));
                if differ.is_empty() {
                    (*hole).then(|| "read exactly now: mark the row `false`".to_string())
                } else if *hole && noted && differ.iter().all(|(_, (w, g))| wider(w, g)) {
                    None
                } else {
                    Some(
                        differ
                            .iter()
                            .map(|x| show(x))
                            .collect::<Vec<_>>()
                            .join("; "),
                    )
                }
            }
        };
        if verdict.is_none() && !hole {
            exact += 1;
        }
        if let Some(why) = verdict {
            wrong.push(format!("{case}: {why}"));
        }
    }
    assert!(
        wrong.is_empty(),
        "{} of {} orderings read differently from bwrap:\n{}",
        wrong.len(),
        CASES.len(),
        wrong.join("\n")
    );
    eprintln!(
        "{} orderings: {exact} read exactly as bwrap 0.8.0 mounts them, {} wider (a private mount at a path with `..`)",
        CASES.len(),
        CASES.len() - exact
    );
}
