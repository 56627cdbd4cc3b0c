//! Operator waivers (`isolint.waivers/v1`): a reviewer's acceptance of a
//! finding, kept in a file the profile's author does not control.
//!
//! A waiver names the rule, the pointer, a reason, an owner, an expiry date
//! and the sha256 of the exact profile it was granted for. A waived finding
//! stays in every export, marked `waived`, and stops counting toward the
//! verdict. A waiver that has expired, or that was granted for a different
//! version of the profile, does not apply: it becomes a finding of its own.

use crate::date::Date;
use crate::decode::{Decoder, Problem, ProblemKind};
use crate::finding::{Finding, Waived};
use crate::json::{self, InputError, Limits, Node};
use crate::labels::{contains, normalize};
use crate::report::Report;
use crate::rules;

/// The schema identifier of a waivers file.
pub const WAIVERS_SCHEMA: &str = "isolint.waivers/v1";

/// One waiver entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Waiver {
    pub rule: String,
    pub pointer: String,
    pub reason: String,
    pub owner: String,
    pub expires: Date,
    pub profile_sha256: String,
    /// The name of the profile it was granted for, when the entry says
    /// (`isolint waive` writes it). An entry for another profile is not
    /// about this one; it can never apply without the digest either.
    pub profile: Option<String>,
    /// Position of the entry in the waivers file.
    pub line: u32,
}

/// Why a waivers file could not be used.
#[derive(Debug, Clone, PartialEq)]
pub enum WaiversError {
    Input(InputError),
    Invalid(Vec<Problem>),
}

impl std::fmt::Display for WaiversError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            WaiversError::Input(e) => write!(f, "{e}"),
            WaiversError::Invalid(ps) => crate::decode::write_problems(f, ps),
        }
    }
}

impl std::error::Error for WaiversError {}

/// Parse a waivers file. Like a catalog, it is operator configuration: any
/// problem makes the whole file unusable.
pub fn parse(bytes: &[u8]) -> Result<Vec<Waiver>, WaiversError> {
    let doc = json::parse(bytes, Limits::default()).map_err(WaiversError::Input)?;
    let mut d = Decoder::default();
    for dup in &doc.duplicates {
        d.problems.push(Problem {
            pointer: dup.pointer.clone(),
            pos: dup.again,
            kind: ProblemKind::Repeated {
                what: "duplicate key".into(),
                first: dup.first,
            },
        });
    }
    let mut out = Vec::new();
    if let Some(mut o) = d.object(&doc.root, "", &["schema", "waivers"]) {
        if let Some(s) = o.string("schema") {
            if s != WAIVERS_SCHEMA {
                let pos = o.field("schema").map(|(n, _)| n.pos).unwrap_or_default();
                o.push_problem(Problem {
                    pointer: "/schema".into(),
                    pos,
                    kind: ProblemKind::WrongSchema {
                        found: s,
                        expected: WAIVERS_SCHEMA,
                    },
                });
            }
        }
        let entries = o.with("waivers", |d, n, ptr| Some(d.array(n, ptr, entry)));
        match entries.flatten() {
            Some(list) => out.extend(list.into_iter().flatten()),
            None => {
                if o.field("waivers").is_none() {
                    let pos = doc.root.pos;
                    o.push_problem(Problem {
                        pointer: "/waivers".into(),
                        pos,
                        kind: ProblemKind::Missing { what: "`waivers`" },
                    });
                }
            }
        }
    }
    if d.problems.is_empty() {
        Ok(out)
    } else {
        Err(WaiversError::Invalid(d.problems))
    }
}

fn entry(d: &mut Decoder, n: &Node, ptr: &str) -> Option<Waiver> {
    const KEYS: &[&str] = &[
        "rule",
        "pointer",
        "reason",
        "owner",
        "expires",
        "profile_sha256",
        "profile",
    ];
    let mut o = d.object(n, ptr, KEYS)?;
    let req = |o: &mut crate::decode::Obj<'_, '_>, key: &'static str, what: &'static str| {
        let v = o.string(key).filter(|s| !s.trim().is_empty());
        if v.is_none() && o.field(key).is_none_or(|(n, _)| n.as_str().is_some()) {
            o.push_problem(Problem {
                pointer: format!("{ptr}/{key}"),
                pos: n.pos,
                kind: ProblemKind::Missing { what },
            });
        }
        v
    };
    let rule = req(&mut o, "rule", "a non-empty `rule`");
    let profile = o.string("profile");
    let pointer = o.string("pointer");
    if pointer.is_none() && o.field("pointer").is_none() {
        o.push_problem(Problem {
            pointer: format!("{ptr}/pointer"),
            pos: n.pos,
            kind: ProblemKind::Missing { what: "`pointer`" },
        });
    }
    let reason = req(&mut o, "reason", "a non-empty `reason`");
    let owner = req(&mut o, "owner", "a non-empty `owner`");
    let expires_raw = req(&mut o, "expires", "an `expires` date (YYYY-MM-DD)");
    let sha = req(
        &mut o,
        "profile_sha256",
        "the `profile_sha256` the waiver was granted for",
    );
    let expires = expires_raw.as_deref().and_then(Date::parse);
    if expires_raw.is_some() && expires.is_none() {
        let pos = o.field("expires").map(|(n, _)| n.pos).unwrap_or(n.pos);
        o.push_problem(Problem {
            pointer: format!("{ptr}/expires"),
            pos,
            kind: ProblemKind::Missing {
                what: "a valid calendar date YYYY-MM-DD in `expires`",
            },
        });
    }
    if let Some(s) = &sha {
        if s.len() != 64 || !s.bytes().all(|b| b.is_ascii_hexdigit()) {
            let pos = o
                .field("profile_sha256")
                .map(|(n, _)| n.pos)
                .unwrap_or(n.pos);
            o.push_problem(Problem {
                pointer: format!("{ptr}/profile_sha256"),
                pos,
                kind: ProblemKind::Missing {
                    what: "64 hexadecimal digits in `profile_sha256`",
                },
            });
        }
    }
    if let Some(r) = &rule {
        if rules::find(r).is_none() {
            let pos = o.field("rule").map(|(n, _)| n.pos).unwrap_or(n.pos);
            o.push_problem(Problem {
                pointer: format!("{ptr}/rule"),
                pos,
                kind: ProblemKind::Missing {
                    what: "a rule id known to `isolint rules`",
                },
            });
        }
    }
    Some(Waiver {
        rule: rules::find(&rule?).map(|r| r.id.to_string())?,
        pointer: pointer?,
        reason: reason?,
        owner: owner?,
        expires: expires?,
        profile_sha256: sha?.to_ascii_lowercase(),
        profile,
        line: n.pos.line,
    })
}

/// Where the waivers file lives, for the mount check (absolute, as the CLI
/// resolved it).
#[derive(Debug, Clone, Default)]
pub struct WaiversSource {
    pub path: String,
    /// The path as the operator named it, made absolute but with links
    /// unresolved (empty when the same as `path`): a link under a mount
    /// the job can write could be pointed at another file, so that path
    /// is checked too.
    pub named: String,
}

fn waiver_finding(
    report: &Report,
    rule_id: &'static str,
    pointer: &str,
    message: String,
) -> Finding {
    let rule = rules::find(rule_id);
    let line = report
        .issues
        .iter()
        .find(|f| f.pointer == pointer)
        .and_then(|f| f.line);
    Finding {
        rule: rule.map(|r| r.id).unwrap_or(rule_id),
        area: rule
            .map(|r| r.area)
            .unwrap_or(crate::finding::Area::Profile),
        severity: rule
            .map(|r| r.severity)
            .unwrap_or(crate::finding::Severity::High),
        pointer: pointer.to_string(),
        line: line.or(Some(1)),
        column: if line.is_some() {
            report
                .issues
                .iter()
                .find(|f| f.pointer == pointer)
                .and_then(|f| f.column)
        } else {
            Some(1)
        },
        exact: line.is_some(),
        message: report.redact(&crate::sanitize::neutralize(&message)),
        remediation: rule.map(|r| r.remediation).unwrap_or_default(),
        evidence: Default::default(),
        waived: None,
        baseline: None,
        value_digest: None,
        origin: None,
    }
}

/// Where a mount's source is on the host, as the caller could resolve it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HostPath {
    /// An absolute host path, links resolved where the caller could.
    Path(String),
    /// Not known (a relative source with no directory to resolve it
    /// against, a variable, a link that cannot be followed): it may hold
    /// the waivers file, so it is treated as if it did.
    Unknown,
    /// No host source at all (an anonymous tmpfs).
    None,
}

/// The host side of a mount read from the profile alone: an absolute source
/// as written, anything else unknown. The CLI resolves relative sources and
/// links itself and calls [`apply_resolved`].
pub fn lexical_host_path(m: &crate::report::MountRow) -> HostPath {
    if m.source.trim().is_empty() {
        return HostPath::None;
    }
    let n = normalize(&m.normalized);
    if n.relative || m.normalized.is_empty() {
        HostPath::Unknown
    } else {
        HostPath::Path(n.path.to_string())
    }
}

/// Apply waivers to a report. `today` decides expiry (no date: nothing is
/// applied, because expiry cannot be checked). `source` is where the file
/// was read from, to refuse waivers the job itself could have written.
/// Mount sources are read lexically ([`lexical_host_path`]).
pub fn apply(report: &mut Report, waivers: &[Waiver], today: Option<Date>, source: &WaiversSource) {
    apply_resolved(report, waivers, today, source, &lexical_host_path);
}

/// [`apply`], with each mount's host path as `host` resolves it: both sides
/// of the comparison must be resolved the same way (relative sources
/// against the profile's directory, links on the host).
pub fn apply_resolved(
    report: &mut Report,
    waivers: &[Waiver],
    today: Option<Date>,
    source: &WaiversSource,
    host: &dyn Fn(&crate::report::MountRow) -> HostPath,
) {
    let mut extra = Vec::new();
    // A waivers file inside a mounted source: the job can read it, and if
    // the mount is writable, it could have written it.
    let mut refused = false;
    let wpath = normalize(&source.path);
    let named = normalize(&source.named);
    if !source.path.is_empty() && !wpath.relative {
        for m in &report.mounts {
            let covers = match host(m) {
                HostPath::Path(p) => {
                    let p = normalize(&p);
                    p.relative
                        || contains(&p.path, &wpath.path)
                        || (!source.named.is_empty()
                            && !named.relative
                            && contains(&p.path, &named.path))
                }
                HostPath::Unknown => true,
                HostPath::None => false,
            };
            if !covers {
                continue;
            }
            let known = !matches!(host(m), HostPath::Unknown);
            let writable = m.access != "read-only";
            refused |= writable;
            let msg = match (writable, known) {
                (true, true) => format!("the waivers file `{}` lies inside writable mount `{}`; the job could rewrite its own waivers, so none are applied", source.path, m.source),
                (true, false) => format!("writable mount `{}` cannot be resolved on the host, so it may hold the waivers file `{}`; none are applied", m.source, source.path),
                (false, true) => format!("the waivers file `{}` lies inside mount `{}`; the job can read it, keep it outside every mounted source", source.path, m.source),
                (false, false) => format!("mount `{}` cannot be resolved on the host, so it may expose the waivers file `{}`; keep it outside every mounted source", m.source, source.path),
            };
            let mut f = waiver_finding(report, "PRF008", &format!("{}/source", m.pointer), msg);
            if !writable {
                f.severity = crate::finding::Severity::Medium;
            }
            extra.push(f);
        }
    }
    for w in waivers {
        let matching: Vec<usize> = report
            .issues
            .iter()
            .enumerate()
            .filter(|(_, f)| f.rule == w.rule && f.pointer == w.pointer)
            .map(|(i, _)| i)
            .collect();
        if w.profile_sha256 != report.profile.sha256 {
            // One file serves several profiles: an entry granted for another
            // one is none of this profile's business.
            if w.profile
                .as_ref()
                .is_some_and(|p| *p != report.profile.name)
            {
                continue;
            }
            if !matching.is_empty() {
                let mut f = waiver_finding(
                    report,
                    "PRF007",
                    &w.pointer,
                    format!(
                        "waiver for `{}` at `{}` (waivers line {}) was granted for another version of this profile (sha256 {}…); the finding counts again",
                        w.rule, w.pointer, w.line, w.profile_sha256.get(..12).unwrap_or("")
                    ),
                );
                if w.profile.is_none() {
                    // An entry that names no profile may belong to another
                    // profile of a shared file with a finding at the same
                    // place. The finding it names counts again on its own, so
                    // saying so must not block a profile it may not be about.
                    f.severity = crate::finding::Severity::Low;
                    f.message
                        .push_str("; the entry names no `profile`, so it may be another profile's");
                }
                extra.push(f);
            }
            continue;
        }
        if refused {
            continue;
        }
        if matching.is_empty() {
            let mut f = waiver_finding(
                report,
                "PRF009",
                &w.pointer,
                format!(
                    "waiver for `{}` at `{}` (waivers line {}) matches no finding; remove it",
                    w.rule, w.pointer, w.line
                ),
            );
            f.severity = crate::finding::Severity::Low;
            extra.push(f);
            continue;
        }
        if today.is_none_or(|t| t > w.expires) {
            extra.push(waiver_finding(
                report,
                "PRF006",
                &w.pointer,
                format!(
                    "waiver for `{}` at `{}` (owner {}, waivers line {}) expired on {}; the finding counts again",
                    w.rule, w.pointer, w.owner, w.line, w.expires
                ),
            ));
            continue;
        }
        for i in matching {
            if let Some(f) = report.issues.get_mut(i) {
                f.waived = Some(Waived {
                    reason: report_clean(&w.reason),
                    owner: report_clean(&w.owner),
                    expires: w.expires.to_string(),
                });
            }
        }
    }
    report.issues.extend(extra);
    report.refresh();
}

fn report_clean(s: &str) -> String {
    crate::secrets::scrub_tokens(&crate::sanitize::neutralize(s))
}

/// A waiver entry, as `isolint waive` prints it for appending to the file.
pub fn entry_json(
    rule: &str,
    pointer: &str,
    reason: &str,
    owner: &str,
    expires: Date,
    profile_sha256: &str,
    profile: &str,
) -> String {
    let v = serde_json::json!({
        "profile": profile,
        "rule": rule,
        "pointer": pointer,
        "reason": reason,
        "owner": owner,
        "expires": expires.to_string(),
        "profile_sha256": profile_sha256,
    });
    serde_json::to_string_pretty(&v).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{audit, AuditOptions, Labels};

    fn report() -> Report {
        audit(
            crate::WORKSHOP_PROFILE.as_bytes(),
            "w.json",
            &Labels::workshop(),
            &AuditOptions {
                today: Date::parse("2026-11-29"),
            },
        )
        .unwrap()
    }

    fn file(sha: &str, expires: &str, rule: &str, pointer: &str) -> String {
        format!(
            r#"{{"schema":"isolint.waivers/v1","waivers":[{{"rule":"{rule}","pointer":"{pointer}","reason":"accepted for the workshop demo","owner":"alice","expires":"{expires}","profile_sha256":"{sha}"}}]}}"#
        )
    }

    #[test]
    fn parse_rejects_incomplete_entries() {
        let e = parse(
            br#"{"schema":"isolint.waivers/v1","waivers":[{"rule":"PRF001","pointer":"/x"}]}"#,
        )
        .unwrap_err();
        assert!(e.to_string().contains("reason"), "{e}");
        assert!(parse(b"{\"waivers\":[], \"waivers\":[]}").is_err());
    }

    #[test]
    fn valid_expired_and_mismatched_waivers() {
        let base = report();
        let Some(target) = base.issues.iter().find(|f| f.blocks()).cloned() else {
            return;
        };
        let today = Date::parse("2026-11-29");
        // valid
        let mut r = base.clone();
        let w = parse(
            file(
                &r.profile.sha256,
                "2026-12-31",
                target.rule,
                &target.pointer,
            )
            .as_bytes(),
        )
        .unwrap();
        apply(&mut r, &w, today, &WaiversSource::default());
        let f = r
            .issues
            .iter()
            .find(|f| f.rule == target.rule && f.pointer == target.pointer)
            .unwrap();
        assert!(f.waived.is_some());
        assert_eq!(
            r.issues.len(),
            base.issues.len(),
            "waived findings stay in the report"
        );
        // expired
        let mut r = base.clone();
        let w = parse(
            file(
                &r.profile.sha256,
                "2026-11-01",
                target.rule,
                &target.pointer,
            )
            .as_bytes(),
        )
        .unwrap();
        apply(&mut r, &w, today, &WaiversSource::default());
        assert!(r.issues.iter().all(|f| f.waived.is_none()));
        assert!(r.issues.iter().any(|f| f.rule == "PRF006"));
        // mismatched hash
        let mut r = base.clone();
        let w = parse(file(&"0".repeat(64), "2026-12-31", target.rule, &target.pointer).as_bytes())
            .unwrap();
        apply(&mut r, &w, today, &WaiversSource::default());
        assert!(r.issues.iter().any(|f| f.rule == "PRF007"));
        assert!(r.issues.iter().all(|f| f.waived.is_none()));
    }

    /// issue 21 item 12: one waivers file for several profiles made each
    /// report the others' entries as PRF007. Only an entry for this profile
    /// (or one that names none) with a stale digest is PRF007; nothing but
    /// the right digest ever waives.
    #[test]
    fn entries_for_another_profile_are_not_about_this_one() {
        let base = report();
        let target = base.issues.iter().find(|f| f.blocks()).unwrap().clone();
        let me = base.profile.name.clone();
        let entry = |sha: &str, profile: Option<&str>| {
            let v = serde_json::json!({
                "schema": WAIVERS_SCHEMA,
                "waivers": [{
                    "rule": target.rule, "pointer": target.pointer, "reason": "r", "owner": "o",
                    "expires": "2026-12-31", "profile_sha256": sha, "profile": profile,
                }]
            });
            let mut v = v;
            if profile.is_none() {
                v["waivers"][0].as_object_mut().unwrap().remove("profile");
            }
            parse(v.to_string().as_bytes()).unwrap()
        };
        let other = "0".repeat(64);
        // (digest, profile named, PRF007, waived, PRF007 blocks)
        for (sha, profile, prf007, waived, prf007_blocks) in [
            (other.as_str(), Some("another-job"), false, false, false),
            (other.as_str(), Some(me.as_str()), true, false, true),
            // Unnamed: said, but only the finding itself blocks.
            (other.as_str(), None, true, false, false),
            (
                base.profile.sha256.as_str(),
                Some(me.as_str()),
                false,
                true,
                false,
            ),
            (base.profile.sha256.as_str(), None, false, true, false),
            // The digest decides: a wrong name on the right digest still
            // cannot widen anything, and the entry is left alone.
            (
                base.profile.sha256.as_str(),
                Some("another-job"),
                false,
                true,
                false,
            ),
        ] {
            let mut r = base.clone();
            apply(
                &mut r,
                &entry(sha, profile),
                Date::parse("2026-11-29"),
                &WaiversSource::default(),
            );
            assert_eq!(
                r.issues.iter().any(|f| f.rule == "PRF007"),
                prf007,
                "{profile:?} {sha}"
            );
            assert_eq!(
                r.issues.iter().any(|f| f.waived.is_some()),
                waived,
                "{profile:?} {sha}"
            );
            assert_eq!(
                r.issues.iter().any(|f| f.rule == "PRF007" && f.blocks()),
                prf007_blocks,
                "{profile:?} {sha}"
            );
        }
    }

    #[test]
    fn waivers_inside_a_writable_mount_are_refused() {
        let mut r = report();
        let Some(target) = r.issues.iter().find(|f| f.blocks()).cloned() else {
            return;
        };
        let w = parse(
            file(
                &r.profile.sha256,
                "2026-12-31",
                target.rule,
                &target.pointer,
            )
            .as_bytes(),
        )
        .unwrap();
        let src = WaiversSource {
            path: "/srv/workshop/scratch/job-17/waivers.json".into(),
            ..Default::default()
        };
        apply(&mut r, &w, Date::parse("2026-11-29"), &src);
        assert!(r.issues.iter().all(|f| f.waived.is_none()));
        assert!(r.issues.iter().any(|f| f.rule == "PRF008" && f.blocks()));
    }
}
