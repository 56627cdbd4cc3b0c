//! Rules of the `limits` area: a bounded amount of computation per job, and
//! a bound on how many jobs run at once. A limit only counts when something
//! outside the program enforces it, and a timeout only counts when it ends
//! the whole process tree.

use super::{Ctx, Emitter, Rule};
use crate::finding::{Area, CheckKind, Severity};
use crate::model::{LimitEnforcement, Limits, Profile, ReleaseAfter, StringEnum, TimeoutKills};

const KIB: u64 = 1024;
const MIB: u64 = KIB * 1024;
const GIB: u64 = MIB * 1024;
const TIB: u64 = GIB * 1024;
const DAY: u64 = 86_400;

/// How a limit's value is read.
#[derive(Clone, Copy)]
enum Unit {
    Seconds,
    Bytes,
    Count,
}

/// One numeric field of `limits` that must be declared.
struct Bound {
    field: &'static str,
    get: fn(&Limits) -> Option<u64>,
    /// What is left unbounded when the field is missing or `0`.
    consequence: &'static str,
}

const WALL: Bound = Bound {
    field: "wall_seconds",
    get: |l| l.wall_seconds,
    consequence: "a job that hangs or sleeps keeps its worker and reservation for as long as the runner allows",
};
const CPU: Bound = Bound {
    field: "cpu_seconds",
    get: |l| l.cpu_seconds,
    consequence:
        "a busy loop or a miner can burn processor time until the wall clock, if any, stops it",
};
const MEMORY: Bound = Bound {
    field: "memory_bytes",
    get: |l| l.memory_bytes,
    consequence:
        "the job can take the host's memory and push other workloads into the out-of-memory killer",
};
const PROCESSES: Bound = Bound {
    field: "processes",
    get: |l| l.processes,
    consequence: "a fork bomb in a test or an install hook can exhaust the host's process table",
};
const OUTPUT: Bound = Bound {
    field: "output_bytes",
    get: |l| l.output_bytes,
    consequence: "the job can fill the collector's disk and log store with output",
};

/// A declarable bound and the magnitude above which it bounds nothing:
/// every number a profile can set as a ceiling is read with a sense of
/// scale, not only for presence.
struct Magnitude {
    pointer: &'static str,
    area: Area,
    unit: Unit,
    get: fn(&Profile) -> Option<u64>,
    /// Values above this cannot be a deliberate bound for a test job.
    above: u64,
    /// Why such a value bounds nothing.
    because: &'static str,
    /// The rule that reports this bound missing: a value too large to
    /// bound anything is as severe as none (`0` already is), so a
    /// placeholder cannot turn a blocking gap into a medium finding.
    missing: &'static str,
}

fn limit(p: &Profile, get: fn(&Limits) -> Option<u64>) -> Option<u64> {
    p.limits.as_ref().and_then(get)
}

/// Credential lifetimes are not here: CRD005 already holds them to an
/// hour, far below any threshold of this table.
const MAGNITUDES: &[Magnitude] = &[
    Magnitude {
        pointer: "/limits/wall_seconds",
        area: Area::Limits,
        unit: Unit::Seconds,
        get: |p| limit(p, |l| l.wall_seconds),
        above: 7 * DAY,
        because: "a test job allowed to run for more than a week is not meaningfully bounded",
        missing: "LIM001",
    },
    Magnitude {
        pointer: "/limits/cpu_seconds",
        area: Area::Limits,
        unit: Unit::Seconds,
        get: |p| limit(p, |l| l.cpu_seconds),
        above: 7 * DAY,
        because: "more than a week of processor time is not a bound for a test job",
        missing: "LIM002",
    },
    Magnitude {
        pointer: "/limits/memory_bytes",
        area: Area::Limits,
        unit: Unit::Bytes,
        get: |p| limit(p, |l| l.memory_bytes),
        above: TIB,
        because: "more than 1 TiB exceeds the memory of almost any worker, so it limits nothing",
        missing: "LIM003",
    },
    Magnitude {
        pointer: "/limits/processes",
        area: Area::Limits,
        unit: Unit::Count,
        get: |p| limit(p, |l| l.processes),
        above: 32_768,
        because: "above 32768, the kernel's classic `pid_max` default, the cap can let one job fill the host's process table",
        missing: "LIM004",
    },
    Magnitude {
        pointer: "/limits/output_bytes",
        area: Area::Limits,
        unit: Unit::Bytes,
        get: |p| limit(p, |l| l.output_bytes),
        above: TIB,
        because: "more than 1 TiB of output is not a bound on what reaches the collector",
        missing: "LIM005",
    },
    Magnitude {
        pointer: "/concurrency/max_jobs",
        area: Area::Limits,
        unit: Unit::Count,
        get: |p| p.concurrency.as_ref().and_then(|c| c.max_jobs),
        above: 1000,
        because: "more than a thousand jobs at once can exhaust the runner and the services they share, however small each job's own limits",
        missing: "LIM009",
    },
    Magnitude {
        pointer: "/artifacts/max_bytes",
        area: Area::Artifacts,
        unit: Unit::Bytes,
        get: |p| p.artifacts.as_ref().and_then(|a| a.max_bytes),
        above: 64 * GIB,
        because: "more than 64 GiB of collected files is not a bound on what the collector must store and scan",
        missing: "ART004",
    },
    Magnitude {
        pointer: "/artifacts/log_max_bytes",
        area: Area::Artifacts,
        unit: Unit::Bytes,
        get: |p| p.artifacts.as_ref().and_then(|a| a.log_max_bytes),
        above: 4 * GIB,
        because: "more than 4 GiB of logs from one test run is more than anyone reads, and fills the log store",
        missing: "ART005",
    },
];

fn bound_pointer(b: &Bound) -> String {
    format!("/limits/{}", b.field)
}

fn limits<'a>(ctx: &Ctx<'a>) -> Option<&'a Limits> {
    ctx.profile.limits.as_ref()
}

/// A value with its unit, for messages: `300 s`, `512 MiB`, `64`.
fn human(unit: Unit, v: u64) -> String {
    match unit {
        Unit::Seconds if v >= DAY && v.is_multiple_of(DAY) => format!("{} days", v / DAY),
        Unit::Seconds => format!("{v} s"),
        Unit::Bytes => {
            let units = [(TIB, "TiB"), (GIB, "GiB"), (MIB, "MiB"), (KIB, "KiB")];
            for (size, name) in units {
                if v >= size && v.is_multiple_of(size) {
                    return format!("{} {name}", v / size);
                }
            }
            format!("{v} bytes")
        }
        Unit::Count => v.to_string(),
    }
}

/// The limit is missing, unreadable, or `0` (which container runtimes and
/// orchestrators commonly read as "no limit"): either way nothing bounds it.
fn no_effective_limit(ctx: &Ctx<'_>, e: &mut Emitter, b: &Bound) {
    e.unbounded(
        ctx,
        &bound_pointer(b),
        limits(ctx).and_then(b.get),
        b.consequence,
    );
}

pub(crate) const LIM001: Rule = Rule {
    id: "LIM001",
    name: "no-wall-time-limit",
    area: Area::Limits,
    severity: Severity::High,
    title: "no wall-clock time limit",
    rationale: "Without a wall-clock limit a job that hangs, waits on the network or sleeps on purpose holds its worker, its credentials and its slot indefinitely. A value of `0` is no better: many runners treat it as unlimited.",
    remediation: "Set `limits.wall_seconds` to a little more than the job's normal duration (for a unit test run, minutes, not hours).",
    runtime_check: Some(CheckKind::LimitEnforced),
    check: |ctx, e| no_effective_limit(ctx, e, &WALL),
};

pub(crate) const LIM002: Rule = Rule {
    id: "LIM002",
    name: "no-cpu-time-limit",
    area: Area::Limits,
    severity: Severity::High,
    title: "no processor time limit",
    rationale: "Processor time is the resource hostile or runaway code spends first, and the wall clock alone does not bound it across many cores. A value of `0` is commonly read as unlimited.",
    remediation: "Set `limits.cpu_seconds` to the processor time the job needs, with a modest margin.",
    runtime_check: Some(CheckKind::LimitEnforced),
    check: |ctx, e| no_effective_limit(ctx, e, &CPU),
};

pub(crate) const LIM003: Rule = Rule {
    id: "LIM003",
    name: "no-memory-limit",
    area: Area::Limits,
    severity: Severity::High,
    title: "no memory limit",
    rationale: "A job without a memory limit competes with every other workload on the host; one allocation loop can trigger the host's out-of-memory killer against unrelated processes. A value of `0` is commonly read as unlimited.",
    remediation: "Set `limits.memory_bytes` to the job's measured peak plus a margin (the workshop job uses 512 MiB).",
    runtime_check: Some(CheckKind::LimitEnforced),
    check: |ctx, e| no_effective_limit(ctx, e, &MEMORY),
};

pub(crate) const LIM004: Rule = Rule {
    id: "LIM004",
    name: "no-process-limit",
    area: Area::Limits,
    severity: Severity::High,
    title: "no limit on the number of processes",
    rationale: "Tests and install hooks can start child processes freely; without a process cap a fork bomb exhausts the host's process table and takes down other jobs. A value of `0` is commonly read as unlimited.",
    remediation: "Set `limits.processes` to a small number that covers the test runner and its workers (tens, not thousands).",
    runtime_check: Some(CheckKind::LimitEnforced),
    check: |ctx, e| no_effective_limit(ctx, e, &PROCESSES),
};

pub(crate) const LIM005: Rule = Rule {
    id: "LIM005",
    name: "no-output-limit",
    area: Area::Limits,
    severity: Severity::Medium,
    title: "no limit on output size",
    rationale: "Output travels out of the sandbox into logs and collectors that other people read and pay for. Unbounded output can fill disks or bury the lines a reviewer needs.",
    remediation: "Set `limits.output_bytes` to a bound that fits the job's normal logs (a few MiB for a test run).",
    runtime_check: Some(CheckKind::LimitEnforced),
    check: |ctx, e| no_effective_limit(ctx, e, &OUTPUT),
};

pub(crate) const LIM006: Rule = Rule {
    id: "LIM006",
    name: "implausible-limit",
    area: Area::Limits,
    severity: Severity::Medium,
    title: "a limit too large to bound anything",
    rationale: "A limit set far above what any test needs (a week of time, a terabyte of memory or output, tens of thousands of processes, more than a thousand concurrent jobs, tens of gigabytes of artifacts or logs) looks like a bound in review but stops nothing in practice, often because a placeholder or a unit mistake slipped in. Each finding carries the severity of the missing bound it amounts to: high for time, processor, memory and processes, medium for output, concurrency and artifact sizes. Findings about artifact sizes are shown with the artifacts.",
    remediation: "Replace the value with one derived from the job's measured needs; check the unit (seconds, bytes).",
    runtime_check: Some(CheckKind::LimitEnforced),
    check: implausible_limits,
};

fn implausible_limits(ctx: &Ctx<'_>, e: &mut Emitter) {
    for m in MAGNITUDES {
        let Some(v) = (m.get)(ctx.profile) else {
            continue;
        };
        if v > m.above {
            let field = m.pointer.trim_start_matches('/').replace('/', ".");
            e.emit(
                m.pointer,
                format!("`{field}` is {}: {}", human(m.unit, v), m.because),
            )
            .area(m.area)
            .severity(super::find(m.missing).map_or(Severity::High, |r| r.severity))
            .evidence("field", field)
            .evidence("value", v)
            .evidence("plausible_up_to", m.above);
        }
    }
}

pub(crate) const LIM007: Rule = Rule {
    id: "LIM007",
    name: "limits-not-enforced",
    area: Area::Limits,
    severity: Severity::High,
    title: "limits requested from the program instead of enforced",
    rationale: "A limit matters only when the program ignores it. A limit that is merely asked for, or that nothing is declared to enforce, binds only cooperative code, and the code under test is not assumed to cooperate.",
    remediation: "Enforce the limits outside the job: set `limits.enforced_by` to `cgroup` or `vm` (or `rlimit` where nothing better exists).",
    runtime_check: Some(CheckKind::LimitEnforced),
    check: not_enforced,
};

fn not_enforced(ctx: &Ctx<'_>, e: &mut Emitter) {
    let pointer = "/limits/enforced_by";
    let consequence = "a program that ignores a request to stop is held to no limit";
    match limits(ctx).and_then(|l| l.enforced_by) {
        None => {
            e.undeclared(ctx, pointer, consequence);
        }
        Some(how @ (LimitEnforcement::Request | LimitEnforcement::None)) => {
            let text = if how == LimitEnforcement::Request {
                "the limits are only requested from the program, not enforced around it"
            } else {
                "nothing is declared to enforce the limits"
            };
            e.emit(pointer, format!("{text}; {consequence}"))
                .evidence("enforced_by", how.as_str());
        }
        Some(_) => {}
    }
}

pub(crate) const LIM011: Rule = Rule {
    id: "LIM011",
    name: "per-process-limits",
    area: Area::Limits,
    severity: Severity::Medium,
    title: "limits enforced per process rather than for the whole job",
    rationale: "Resource limits set with `setrlimit` apply to each process separately, so a job that forks multiplies its memory and processor allowance, and the process cap is shared with everything else running as the same user.",
    remediation: "Enforce limits for the job as a whole: `limits.enforced_by` `cgroup` or `vm`.",
    runtime_check: Some(CheckKind::LimitEnforced),
    check: per_process_only,
};

fn per_process_only(ctx: &Ctx<'_>, e: &mut Emitter) {
    if limits(ctx).and_then(|l| l.enforced_by) == Some(LimitEnforcement::Rlimit) {
        e.emit(
            "/limits/enforced_by",
            "`rlimit` bounds each process on its own: memory and processor time add up across a forked tree, and the process cap counts every process of the user, not of the job",
        )
        .evidence("enforced_by", "rlimit");
    }
}

pub(crate) const LIM008: Rule = Rule {
    id: "LIM008",
    name: "timeout-kills-parent-only",
    area: Area::Limits,
    severity: Severity::High,
    title: "a timeout that may kill only the parent process",
    rationale: "Test runners and hooks start children. If the timeout ends only the first process, its children, and anything they daemonized, keep running with the job's access after the job is reported finished.",
    remediation: "Set `limits.timeout_kills` to `process-group`, `cgroup` or `environment` so the whole execution tree ends with the timeout.",
    runtime_check: Some(CheckKind::TimeoutKillsTree),
    check: timeout_spares_children,
};

fn timeout_spares_children(ctx: &Ctx<'_>, e: &mut Emitter) {
    let pointer = "/limits/timeout_kills";
    match limits(ctx).and_then(|l| l.timeout_kills) {
        None => {
            e.undeclared(
                ctx,
                pointer,
                "a timeout may stop only the first process and leave its children running",
            );
        }
        Some(TimeoutKills::Parent) => {
            e.emit(
                pointer,
                "the timeout kills only the parent process; children and daemons it started keep running",
            )
            .evidence("timeout_kills", "parent");
        }
        Some(_) => {}
    }
}

pub(crate) const LIM009: Rule = Rule {
    id: "LIM009",
    name: "no-concurrency-cap",
    area: Area::Limits,
    severity: Severity::Medium,
    title: "no cap on concurrent jobs",
    rationale: "Bounding each job does not bound their sum: a thousand jobs within their own limits can still exhaust the runner, a package mirror or a test service.",
    remediation: "Set `concurrency.max_jobs` to the number of jobs the runner and its shared services can absorb at once.",
    runtime_check: Some(CheckKind::LimitEnforced),
    check: no_concurrency_cap,
};

fn no_concurrency_cap(ctx: &Ctx<'_>, e: &mut Emitter) {
    e.unbounded(
        ctx,
        "/concurrency/max_jobs",
        ctx.profile.concurrency.as_ref().and_then(|c| c.max_jobs),
        "many individually bounded jobs can still exhaust the runner and the services it shares",
    );
}

pub(crate) const LIM010: Rule = Rule {
    id: "LIM010",
    name: "reservation-released-early",
    area: Area::Limits,
    severity: Severity::Medium,
    title: "a job's reservation released before its cleanup finishes",
    rationale: "When the slot is freed as soon as a stop is requested, a new job starts while the old one may still be running or being torn down, so the real load exceeds the cap and cleanup failures go unnoticed.",
    remediation: "Set `concurrency.release_after` to `cleanup`, and make cancellation and cleanup observable.",
    runtime_check: None,
    check: early_release,
};

fn early_release(ctx: &Ctx<'_>, e: &mut Emitter) {
    let pointer = "/concurrency/release_after";
    match ctx
        .profile
        .concurrency
        .as_ref()
        .and_then(|c| c.release_after)
    {
        None => {
            e.undeclared(
                ctx,
                pointer,
                "the job's slot may be handed to the next job while this one's processes and cleanup are still running",
            );
        }
        Some(ReleaseAfter::Signal) => {
            e.emit(
                pointer,
                "the reservation is released when the stop signal is sent, before the work has ended and cleanup has finished",
            )
            .evidence("release_after", "signal");
        }
        Some(ReleaseAfter::Cleanup) => {}
    }
}

pub const RULES: &[&Rule] = &[
    &LIM001, &LIM002, &LIM003, &LIM004, &LIM005, &LIM006, &LIM007, &LIM008, &LIM009, &LIM010,
    &LIM011,
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn human_units() {
        assert_eq!(human(Unit::Bytes, 512 * MIB), "512 MiB");
        assert_eq!(human(Unit::Bytes, 2 * TIB), "2 TiB");
        assert_eq!(human(Unit::Bytes, TIB + 1), format!("{} bytes", TIB + 1));
        assert_eq!(human(Unit::Seconds, 8 * DAY), "8 days");
        assert_eq!(human(Unit::Seconds, 300), "300 s");
        assert_eq!(human(Unit::Count, 40_000), "40000");
    }

    /// LIM006 on the fixed workshop profile with one bound set to `value`:
    /// the (area, pointer) of each finding.
    fn magnitude(field: &str, from: &str, value: u64) -> Vec<(Area, String)> {
        let old = format!("\"{field}\": {from}");
        assert!(crate::WORKSHOP_PROFILE_FIXED.contains(&old), "{old}");
        let p = crate::WORKSHOP_PROFILE_FIXED.replace(&old, &format!("\"{field}\": {value}"));
        let r = crate::audit(
            p.as_bytes(),
            "t.json",
            &crate::Labels::workshop(),
            &crate::AuditOptions::default(),
        )
        .unwrap();
        r.issues
            .iter()
            .filter(|f| f.rule == "LIM006")
            .map(|f| (f.area, f.pointer.clone()))
            .collect()
    }

    #[test]
    fn every_declarable_bound_has_a_sense_of_scale() {
        use Area::{Artifacts, Limits};
        // (field, value in the fixed profile, area, largest plausible, absurd)
        let table: &[(&str, &str, Area, &str, u64, u64)] = &[
            (
                "wall_seconds",
                "300",
                Limits,
                "/limits/wall_seconds",
                7 * DAY,
                365 * DAY,
            ),
            (
                "cpu_seconds",
                "120",
                Limits,
                "/limits/cpu_seconds",
                7 * DAY,
                100 * 365 * DAY,
            ),
            (
                "memory_bytes",
                "536870912",
                Limits,
                "/limits/memory_bytes",
                TIB,
                1 << 50,
            ),
            (
                "processes",
                "64",
                Limits,
                "/limits/processes",
                32_768,
                4_194_304,
            ),
            (
                "output_bytes",
                "10485760",
                Limits,
                "/limits/output_bytes",
                TIB,
                1 << 50,
            ),
            (
                "max_jobs",
                "8",
                Limits,
                "/concurrency/max_jobs",
                1000,
                1_000_000,
            ),
            (
                "max_bytes",
                "1048576",
                Artifacts,
                "/artifacts/max_bytes",
                64 * GIB,
                1 << 45,
            ),
            (
                "log_max_bytes",
                "262144",
                Artifacts,
                "/artifacts/log_max_bytes",
                4 * GIB,
                100 * GIB,
            ),
        ];
        assert_eq!(table.len(), MAGNITUDES.len(), "every bound is in the table");
        for &(field, from, area, pointer, plausible, absurd) in table {
            let want = vec![(area, pointer.to_string())];
            assert_eq!(magnitude(field, from, absurd), want, "{field} = {absurd}");
            assert_eq!(
                magnitude(field, from, plausible + 1),
                want,
                "{field} just above"
            );
            assert!(
                magnitude(field, from, plausible).is_empty(),
                "{field} = {plausible}"
            );
            assert!(magnitude(field, from, 1).is_empty(), "{field} = 1");
        }
        // The issue's example, word for word.
        let f = magnitude("max_jobs", "8", 1_000_000);
        assert_eq!(f, vec![(Limits, "/concurrency/max_jobs".to_string())]);
    }

    /// A bound too large to bound anything weighs as much as the bound
    /// left out: for each bound, the severity of the finding when it is
    /// removed from the fixed workshop profile equals LIM006's when it is
    /// set to u64::MAX, and the verdict is the same either way.
    #[test]
    fn an_absurd_bound_is_as_severe_as_a_missing_one() {
        let audit = |text: &str| {
            crate::audit(
                text.as_bytes(),
                "t.json",
                &crate::Labels::workshop(),
                &crate::AuditOptions::default(),
            )
            .unwrap()
        };
        let fixed: serde_json::Value = serde_json::from_str(crate::WORKSHOP_PROFILE_FIXED).unwrap();
        for m in MAGNITUDES {
            let path: Vec<&str> = m.pointer.trim_start_matches('/').split('/').collect();
            let [section, field] = path.as_slice() else {
                panic!("{}", m.pointer)
            };
            let mut without = fixed.clone();
            without[*section].as_object_mut().unwrap().remove(*field);
            let mut absurd = fixed.clone();
            absurd[*section][*field] = serde_json::Value::from(u64::MAX);
            let gone = audit(&without.to_string());
            let huge = audit(&absurd.to_string());
            let missing = gone
                .issues
                .iter()
                .find(|f| f.rule == m.missing && f.pointer == m.pointer)
                .unwrap_or_else(|| panic!("{} reports no missing {}", m.missing, m.pointer));
            let implausible = huge
                .issues
                .iter()
                .find(|f| f.rule == "LIM006" && f.pointer == m.pointer)
                .unwrap_or_else(|| panic!("LIM006 misses {}", m.pointer));
            assert_eq!(implausible.severity, missing.severity, "{}", m.pointer);
            assert_eq!(huge.verdict, gone.verdict, "{}", m.pointer);
        }
    }

    /// Credential lifetimes are judged by CRD005, whose ceiling (an hour)
    /// is far below any magnitude here: a year-long TTL is reported.
    #[test]
    fn credential_lifetimes_are_bounded_elsewhere() {
        let p = r#"{"name": "t", "credentials": [{"name": "c", "source": "broker", "scope": "task", "ttl_seconds": 31536000, "exposed_to": "job"}]}"#;
        let r = crate::audit(
            p.as_bytes(),
            "t.json",
            &crate::Labels::workshop(),
            &crate::AuditOptions::default(),
        )
        .unwrap();
        assert!(r
            .issues
            .iter()
            .any(|f| f.rule == "CRD005" && f.pointer == "/credentials/0/ttl_seconds"));
    }
}
