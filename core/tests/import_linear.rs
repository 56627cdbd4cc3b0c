//! Import cost grows linearly with the input, for every format (issue 21
//! item 13): importing twice the input makes about twice the allocations,
//! allocates about twice the bytes and holds about twice the memory at its
//! peak. Counted, not timed, so the figures are the same on any machine
//! and under any load: a step that is quadratic in the number of services,
//! containers, variables or mounts (a list searched for every new key, a
//! copy of the whole file per profile) shows as a ratio near 4.
//!
//! The counting allocator counts the allocations of the thread that
//! imports, so tests running beside it do not disturb the figures.
#![allow(clippy::disallowed_methods, clippy::disallowed_types)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use isolint_core::import::{self, Format};

#[derive(Clone, Copy, Default, Debug)]
struct Counts {
    allocations: u64,
    bytes: u64,
    live: i64,
    peak: i64,
}

thread_local! {
    static COUNTS: Cell<Counts> = const {
        Cell::new(Counts { allocations: 0, bytes: 0, live: 0, peak: 0 })
    };
}

fn count(grew: i64, allocated: bool) {
    // `try_with`: the allocator also runs while a thread's locals are torn
    // down; those allocations are nobody's import.
    let _ = COUNTS.try_with(|c| {
        let mut n = c.get();
        if allocated {
            n.allocations += 1;
            n.bytes += grew.unsigned_abs();
        }
        n.live += grew;
        n.peak = n.peak.max(n.live);
        c.set(n);
    });
}

struct Counting;

// SAFETY: every call is passed to the system allocator unchanged; the
// counting touches only a thread-local `Cell` that never allocates.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        count(l.size() as i64, true);
        // SAFETY: same contract as the caller's.
        unsafe { System.alloc(l) }
    }
    unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
        count(-(l.size() as i64), false);
        // SAFETY: same contract as the caller's.
        unsafe { System.dealloc(p, l) }
    }
    unsafe fn realloc(&self, p: *mut u8, l: Layout, n: usize) -> *mut u8 {
        count(n as i64 - l.size() as i64, true);
        // SAFETY: same contract as the caller's.
        unsafe { System.realloc(p, l, n) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// What importing `text` as `format` costs, and how many profiles it made
/// (`None`: refused).
fn cost(text: &str, format: Format) -> (Counts, Option<usize>) {
    COUNTS.with(|c| c.set(Counts::default()));
    let made = import::import(text.as_bytes(), format)
        .ok()
        .map(|v| v.len());
    (COUNTS.with(Cell::get), made)
}

/// The inputs of `bench/gen-imports.py`, `n` units each; `env`: one
/// container with `n` variables rather than `n` containers, or bwrap
/// binds each remounted read-only.
fn input(format: Format, env: bool, n: usize) -> String {
    let digest = format!("busybox@sha256:{}", "0".repeat(64));
    let each = |f: &dyn Fn(usize) -> String| (0..n).map(f).collect::<String>();
    match format {
        Format::Compose => format!(
            "services:\n{}",
            each(&|i| format!(
                "  s{i}:\n    image: {digest}\n    volumes: [\"./d{i}:/w{i}:ro\"]\n    \
                 environment: [\"V{i}=1\"]\n    user: \"1000\"\n"
            ))
        ),
        Format::Kubernetes if env => format!(
            "apiVersion: v1\nkind: Pod\nmetadata: {{name: env}}\nspec:\n  containers:\n  - name: c\n    \
             image: {digest}\n    env:\n{}",
            each(&|i| format!("    - {{name: V{i}, value: \"v{i}\"}}\n"))
        ),
        Format::Kubernetes => format!(
            "apiVersion: v1\nkind: Pod\nmetadata: {{name: big}}\nspec:\n  containers:\n{}",
            each(&|i| format!("  - name: c{i}\n    image: {digest}\n"))
        ),
        Format::Bwrap if env => format!(
            "bwrap \\\n{}{}  -- make test\n",
            each(&|i| format!("  --bind /srv/d{i} /w/d{i} \\\n")),
            each(&|i| format!("  --remount-ro /w/d{i} \\\n"))
        ),
        Format::Bwrap => format!(
            "bwrap \\\n{}  --unshare-all -- make test\n",
            each(&|i| format!("  --ro-bind /srv/d{i} /w/d{i} \\\n"))
        ),
        Format::Oci => {
            let mounts = each(&|i| {
                format!(
                    "{}{{\"destination\": \"/w/d{i}\", \"type\": \"bind\", \"source\": \"/srv/d{i}\", \
                     \"options\": [\"rbind\", \"ro\"]}}",
                    if i == 0 { "" } else { ", " }
                )
            });
            let env = each(&|i| format!("{}\"V{i}=v{i}\"", if i == 0 { "" } else { ", " }));
            format!(
                "{{\"ociVersion\": \"1.0.2\", \"process\": {{\"user\": {{\"uid\": 1000, \"gid\": 1000}}, \
                 \"args\": [\"make\", \"test\"], \"env\": [{env}]}}, \
                 \"root\": {{\"path\": \"rootfs\", \"readonly\": true}}, \"mounts\": [{mounts}]}}"
            )
        }
        Format::Codex => format!(
            "sandbox_mode = \"workspace-write\"\n\n[shell_environment_policy]\ninherit = \"none\"\n\n\
             [shell_environment_policy.set]\n{}\n[sandbox_workspace_write]\nwritable_roots = [\"/srv/out\"]\n",
            each(&|i| format!("V{i} = \"v{i}\"\n"))
        ),
        Format::SandboxSettings => format!(
            "{{\"sandbox\": {{\"enabled\": true, \"network\": {{\"allowedDomains\": [{}]}}}}}}",
            each(&|i| format!("{}\"h{i}.example.com\"", if i == 0 { "" } else { ", " }))
        ),
    }
}

/// Each format at `n` units and at `2n`: every count at most `MAX` times
/// the smaller one (2 when linear; a little more, as vectors and maps
/// double, and the fixed part of an import shrinks in relative terms).
#[test]
fn twice_the_input_costs_twice_as_much_in_every_format() {
    const MAX: f64 = 2.3;
    let cases = [
        ("compose services", Format::Compose, false, 2000),
        ("pod containers", Format::Kubernetes, false, 2000),
        ("container env entries", Format::Kubernetes, true, 4000),
        ("bwrap binds", Format::Bwrap, false, 4000),
        ("bwrap binds remounted", Format::Bwrap, true, 2000),
        ("oci mounts and env", Format::Oci, false, 2000),
        ("codex env entries", Format::Codex, false, 8000),
        ("sandbox domains", Format::SandboxSettings, false, 8000),
    ];
    let mut failures = Vec::new();
    for (what, format, env, n) in cases {
        let (small, big) = (input(format, env, n), input(format, env, 2 * n));
        let (a, made_a) = cost(&small, format);
        let (b, made_b) = cost(&big, format);
        assert!(made_a.is_some() && made_b.is_some(), "{what}: refused");
        let ratios = [
            ("input bytes", big.len() as f64 / small.len() as f64),
            ("allocations", b.allocations as f64 / a.allocations as f64),
            ("bytes allocated", b.bytes as f64 / a.bytes as f64),
            ("peak bytes held", b.peak as f64 / a.peak as f64),
        ];
        println!("{what}: {a:?} -> {b:?}: {ratios:?}");
        for (figure, r) in ratios {
            if !(1.6..=MAX).contains(&r) {
                failures.push(format!("{what}: {figure} grew {r:.2}x for 2x the units"));
            }
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

/// The counts see a quadratic step: a list searched once per element is
/// four times the work at twice the size, far outside the bound above.
#[test]
fn a_quadratic_step_is_seen() {
    let grow = |n: usize| {
        COUNTS.with(|c| c.set(Counts::default()));
        let mut seen: Vec<String> = Vec::new();
        for i in 0..n {
            // Each new entry copies every earlier one: quadratic bytes.
            let copy: Vec<String> = seen.clone();
            seen = copy;
            seen.push(format!("k{i}"));
        }
        COUNTS.with(Cell::get)
    };
    let (a, b) = (grow(300), grow(600));
    let r = b.bytes as f64 / a.bytes as f64;
    assert!(r > 3.0, "{r}");
}

/// How much longer twice the input takes: the fastest of five runs each.
/// For steps that look things up without allocating, which the counts
/// above cannot see: a scan of everything so far per element is four
/// times the work at twice the size.
fn timed_ratio(text: &dyn Fn(usize) -> String, format: Format, n: usize) -> f64 {
    let fastest = |text: &str| {
        (0..5)
            .map(|_| {
                let t = std::time::Instant::now();
                let made = import::import(text.as_bytes(), format).map(|v| v.len());
                assert!(made.is_ok_and(|m| m > 0), "{format:?} refused");
                t.elapsed().as_secs_f64()
            })
            .fold(f64::INFINITY, f64::min)
    };
    let (a, b) = (fastest(&text(n)), fastest(&text(2 * n)));
    println!(
        "{format:?} {n}: {a:.4} s, {}: {b:.4} s, ratio {:.2}",
        2 * n,
        b / a
    );
    b / a
}

/// bwrap options that take back what earlier ones gave (`--unsetenv`,
/// `--share-net`, `--cap-drop`); Kubernetes volume mounts and Compose
/// named volumes and secrets, each finding its definition by name.
#[test]
fn lookups_by_name_cost_what_they_find() {
    let bwrap = |n: usize| {
        let each: String = (0..n)
            .map(|i| {
                format!(
                    "  --setenv V{i} x --unsetenv W{i} --unshare-all --share-net \
                     --cap-add CAP_A{i} --cap-drop CAP_B{i} \\\n"
                )
            })
            .collect();
        format!("bwrap \\\n{each}  -- make test\n")
    };
    let volumes = |n: usize| {
        let mounts: String = (0..n)
            .map(|i| format!("    - {{name: v{i}, mountPath: /m/{i}}}\n"))
            .collect();
        let volumes: String = (0..n)
            .map(|i| format!("  - {{name: v{i}, hostPath: {{path: /h/{i}}}}}\n"))
            .collect();
        format!(
            "apiVersion: v1\nkind: Pod\nmetadata: {{name: p}}\nspec:\n  containers:\n  - name: c\n    \
             image: busybox\n    volumeMounts:\n{mounts}  volumes:\n{volumes}"
        )
    };
    let compose = |n: usize| {
        let (mut uses, mut volumes, mut secrets) = (String::new(), String::new(), String::new());
        for i in 0..n {
            uses.push_str(&format!("      - nv{i}:/v/{i}\n"));
            volumes.push_str(&format!("  nv{i}:\n    driver: local\n"));
            secrets.push_str(&format!("  s{i}:\n    file: ./s{i}\n"));
        }
        let refs: String = (0..n).map(|i| format!("      - s{i}\n")).collect();
        format!(
            "services:\n  a:\n    image: busybox\n    volumes:\n{uses}    secrets:\n{refs}\
             volumes:\n{volumes}secrets:\n{secrets}"
        )
    };
    // Scripts whose options are built in arrays: `+=` appends, reads of
    // one element, and many array assignments on one line.
    let appends = |n: usize| {
        let each: String = (0..n)
            .map(|i| format!("a+=(--ro-bind /x{i} /x{i})\n"))
            .collect();
        format!("a=()\n{each}bwrap \"${{a[@]}}\" -- make test\n")
    };
    let reads = |n: usize| {
        let each = " \"${a[0]}\" \"${a[1]}\" \"${a[1]}\"".repeat(n);
        let elems: String = (0..n).map(|i| format!(" /e{i}")).collect();
        format!("a=(--ro-bind /x{elems})\nbwrap{each} -- make test\n")
    };
    let one_line = |n: usize| {
        let each: String = (0..n).map(|i| format!("A{i}=(--dir /d{i}) ")).collect();
        format!("{each}\nbwrap \"${{A0[@]}}\" -- make test\n")
    };
    let mut failures = Vec::new();
    for (what, text, format, n) in [
        (
            "bwrap array appends",
            &appends as &dyn Fn(usize) -> String,
            Format::Bwrap,
            4000,
        ),
        ("bwrap array reads", &reads, Format::Bwrap, 4000),
        ("bwrap arrays on one line", &one_line, Format::Bwrap, 4000),
        (
            "compose named volumes and secrets",
            &compose as &dyn Fn(usize) -> String,
            Format::Compose,
            8000,
        ),
        ("bwrap options taken back", &bwrap, Format::Bwrap, 4000),
        ("pod volume mounts", &volumes, Format::Kubernetes, 3000),
    ] {
        let r = timed_ratio(text, format, n);
        if r >= 2.6 {
            failures.push(format!("{what}: twice the input took {r:.2} times as long"));
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

/// Every pod is matched against every NetworkPolicy (and LimitRange,
/// ResourceQuota, RuntimeClass) of its stream: pods times objects, which
/// no index makes linear for selectors in general. Past a bound the
/// import is refused with the place and the reason, never left to run
/// for minutes; below it, each pod still gets the policy that selects it.
#[test]
fn pods_times_cluster_objects_is_bounded() {
    let stream = |n: usize| {
        let pods = (0..n).map(|i| {
            format!(
                "apiVersion: v1\nkind: Pod\nmetadata: {{name: p{i}, namespace: ns, labels: {{app: a{i}}}}}\n\
                 spec:\n  containers:\n  - name: c\n    image: busybox\n"
            )
        });
        let policies = (0..n).map(|i| {
            format!(
                "apiVersion: networking.k8s.io/v1\nkind: NetworkPolicy\nmetadata: {{name: np{i}, namespace: ns}}\n\
                 spec:\n  podSelector:\n    matchExpressions:\n    - {{key: app, operator: In, values: [a{i}]}}\n  \
                 policyTypes: [Egress]\n  egress: []\n"
            )
        });
        pods.chain(policies).collect::<Vec<_>>().join("---\n")
    };
    let small = import::import(stream(300).as_bytes(), Format::Kubernetes).expect("300 x 300");
    assert_eq!(small.len(), 300);
    for p in &small {
        assert!(
            p.profile_json.contains("\"egress\": \"deny\""),
            "{}",
            p.name
        );
    }
    let t = std::time::Instant::now();
    let big = import::import(stream(3000).as_bytes(), Format::Kubernetes);
    let e = big.expect_err("3,000 pods x 3,000 policies is refused");
    assert!(e.to_string().contains("checks; refusing it"), "{e}");
    assert!(e.loc.is_some(), "{e}");
    assert!(
        t.elapsed().as_secs() < 20,
        "refused only after {:?}",
        t.elapsed()
    );
}
