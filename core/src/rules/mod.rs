//! The rule registry: one ordered list, the single source of truth for the
//! audit, `isolint explain`, `isolint rules`, SARIF rule metadata and the
//! browser page.
//!
//! A rule is a [`Rule`] constant named by its id (`CMD001`), declared in
//! the module of its area right above its check function (or holding the
//! check as a closure, or beside the shared function the closure calls), so
//! one screen shows what a rule says and what it looks for. Each area lists
//! references to its rules, in registry order, in its `RULES`; adding a rule
//! means declaring its constant and adding it to that list.

use crate::date::Date;
use crate::decode::Problem;
use crate::finding::{Area, CheckKind, Evidence, Severity};
use crate::json::{Duplicate, Node};
use crate::labels::{Classification, LabelClass, LabelIndex};
use crate::model::{Access, Mount, Profile};

mod artifacts;
mod cleanup;
mod command;
mod credentials;
mod dependencies;
mod egress;
pub(crate) mod isolation;
pub(crate) mod kernel;
mod limits;
mod mounts;
pub(crate) mod netaddr;
mod network;
pub(crate) mod paths;
mod privileges;
mod profile;
mod resolution;

/// Metadata and check of one rule.
pub struct Rule {
    /// Stable id: three capital letters for the area, three digits.
    pub id: &'static str,
    /// A kebab-case name, accepted by `explain` as well as the id.
    pub name: &'static str,
    /// The area its findings belong to (mount rules may place a finding in
    /// either mount area, by the mount's access).
    pub area: Area,
    pub severity: Severity,
    /// One line, lowercase start, no final period.
    pub title: &'static str,
    /// Why this matters, a short paragraph.
    pub rationale: &'static str,
    /// What to change.
    pub remediation: &'static str,
    /// The runtime check this rule asks the verifier to run, if any.
    pub runtime_check: Option<CheckKind>,
    pub check: fn(&Ctx<'_>, &mut Emitter),
}

impl std::fmt::Debug for Rule {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Rule").field("id", &self.id).finish()
    }
}

/// Every rule, in registry order.
pub fn all() -> impl Iterator<Item = &'static Rule> {
    [
        mounts::RULES,
        network::RULES,
        egress::RULES,
        credentials::RULES,
        privileges::RULES,
        isolation::RULES,
        command::RULES,
        limits::RULES,
        dependencies::RULES,
        artifacts::RULES,
        cleanup::RULES,
        profile::RULES,
        kernel::RULES,
        resolution::RULES,
    ]
    .into_iter()
    .flatten()
    .copied()
}

/// Look a rule up by id or name (case-insensitive).
pub fn find(key: &str) -> Option<&'static Rule> {
    all().find(|r| r.id.eq_ignore_ascii_case(key) || r.name.eq_ignore_ascii_case(key))
}

/// One mount with its lexical classification, and the path facts every
/// mount rule asks about, worked out once.
pub struct MountView<'a> {
    pub index: usize,
    pub mount: &'a Mount,
    /// `None` when the mount declares no source.
    pub class: Option<Classification>,
    /// The built-in guess for a home-relative source, the one part of
    /// [`MountView::source`] not borrowed from `class`.
    pub(crate) guess: Option<Box<paths::Guess>>,
    /// The normalized target; `None` when no target is declared.
    pub(crate) target: Option<crate::labels::NormalizedPath>,
}

impl<'a> MountView<'a> {
    /// Classify mount `index` against `labels`.
    pub fn new(index: usize, mount: &'a Mount, labels: &LabelIndex) -> MountView<'a> {
        let mut class = mount.source.as_deref().map(|s| labels.classify(s));
        let guess = paths::guess(class.as_ref(), mount.source.as_deref()).map(Box::new);
        let target = mount.target.as_deref().map(crate::labels::normalize);
        if let Some(c) = class.as_mut() {
            let hidden =
                |host: &str| excluded(mount, c.normalized.path.as_str(), target.as_ref(), host);
            let keep: Vec<bool> = c.exposes.iter().map(|x| !hidden(&x.path)).collect();
            let mut keep = keep.into_iter();
            c.exposes.retain(|_| keep.next().unwrap_or(true));
        }
        MountView {
            index,
            mount,
            class,
            guess,
            target,
        }
    }
}

/// Whether the host path `host`, beneath the mount's `source`, lies where
/// the mount declares something else on top (`excludes`), so the job does
/// not see it through this mount. Only a lexical reading takes part: an
/// exclude with `..`, or a source or target that is not a plain absolute
/// path, hides nothing.
fn excluded(
    mount: &Mount,
    source: &str,
    target: Option<&crate::labels::NormalizedPath>,
    host: &str,
) -> bool {
    let excludes = mount.excludes.as_deref().unwrap_or(&[]);
    if excludes.is_empty() || target.is_none_or(|t| t.relative || t.had_parent_refs) {
        return false;
    }
    let Some(seen) = paths::in_job(source, target, host) else {
        return false;
    };
    // `/var/run` is a link to `/run` on every FHS 3.0 host, read inside
    // the job: so when the host's root is the job's root, the job reaches
    // `/var/run/X` at `/run/X`, under whatever is mounted there.
    let alias = (source == "/" && target.is_some_and(|t| t.path == "/"))
        .then(|| {
            seen.strip_prefix("/var/run")
                .filter(|r| r.is_empty() || r.starts_with('/'))
                .map(|r| format!("/run{r}"))
        })
        .flatten();
    excludes.iter().any(|e| {
        let e = crate::labels::normalize(e);
        !e.relative
            && !e.had_parent_refs
            && (crate::labels::contains(&e.path, &seen)
                || alias
                    .as_deref()
                    .is_some_and(|a| crate::labels::contains(&e.path, a)))
    })
}

impl MountView<'_> {
    /// The source as the rules see it (with a built-in guess for a
    /// home-relative source); `None` when no source is declared.
    pub(crate) fn source(&self) -> Option<paths::Source<'_>> {
        paths::source(self.class.as_ref(), self.guess.as_deref())
    }
    /// `/mounts/N`.
    pub fn pointer(&self) -> String {
        format!("/mounts/{}", self.index)
    }
    /// `/mounts/N/FIELD`.
    pub fn field(&self, field: &str) -> String {
        format!("/mounts/{}/{}", self.index, field)
    }
    /// Whether a socket of `class` that this mount only exposes (lies
    /// beneath it, not mounted by name) cannot be connected to: the mount
    /// is read-only and the sandbox declares unix sockets blocked. A
    /// socket mounted by name, an undeclared `unix_sockets` or a writable
    /// mount keep the socket-control findings.
    pub fn exposed_socket_blocked(&self, ctx: &Ctx<'_>, class: LabelClass) -> bool {
        matches!(
            class,
            LabelClass::ContainerEngineSocket | LabelClass::ProductionSocket
        ) && !self.writable()
            && ctx.profile.boundary.as_ref().and_then(|b| b.unix_sockets)
                == Some(crate::model::UnixSockets::Blocked)
    }
    /// Writable unless declared read-only: an undeclared access is whatever
    /// the runner defaults to, usually read-write.
    pub fn writable(&self) -> bool {
        self.mount.access != Some(Access::ReadOnly)
    }
    /// The area a finding about this mount belongs to.
    pub fn area(&self) -> Area {
        if self.writable() {
            Area::WritableMounts
        } else {
            Area::ReadOnlyMounts
        }
    }
}

/// What a rule sees.
pub struct Ctx<'a> {
    pub profile: &'a Profile,
    /// The parsed source, to tell "missing" from "present".
    pub root: &'a Node,
    /// Pointer lookups into `root` that stay fast in large objects.
    pub locator: &'a crate::json::Locator<'a>,
    pub mounts: &'a [MountView<'a>],
    pub index: &'a LabelIndex,
    pub problems: &'a [Problem],
    pub duplicates: &'a [Duplicate],
    /// The caller's date, for staleness checks; `None` skips them.
    pub today: Option<Date>,
    /// Each command's pipelines, split on first use (two rules read them).
    pub(crate) pipelines: std::sync::OnceLock<Vec<crate::shell::fetch::Pipelines>>,
    /// Every command's shell-analysis hits with their pointers, found on
    /// first use (the command rules report them one kind at a time).
    pub(crate) command_hits: std::sync::OnceLock<Vec<command::LocatedHit>>,
}

impl Ctx<'_> {
    /// Whether the pointed field is present in the source.
    pub fn present(&self, pointer: &str) -> bool {
        self.locator.pointer(pointer).is_some()
    }
}

/// A finding being built by a rule.
#[derive(Debug, Clone)]
pub struct Draft {
    pub rule: &'static Rule,
    pub area: Area,
    pub severity: Severity,
    pub pointer: String,
    pub message: String,
    pub evidence: Evidence,
}

impl Draft {
    /// Attach one evidence value.
    pub fn evidence(&mut self, key: &str, value: impl Into<serde_json::Value>) -> &mut Self {
        self.evidence_value(key, value.into())
    }
    /// [`Draft::evidence`] past the conversion: one copy of the insertion
    /// for every value type (the page's wasm had one per type).
    fn evidence_value(&mut self, key: &str, value: serde_json::Value) -> &mut Self {
        self.evidence.insert(key.to_string(), value);
        self
    }
    /// Override the rule's default severity (e.g. `SYS_ADMIN` is worse than
    /// other capabilities).
    pub fn severity(&mut self, s: Severity) -> &mut Self {
        self.severity = s;
        self
    }
    /// Override the rule's area (mount rules place findings by access).
    pub fn area(&mut self, a: Area) -> &mut Self {
        self.area = a;
        self
    }
}

/// Collects the drafts of the rule being run.
pub struct Emitter {
    rule: &'static Rule,
    pub(crate) drafts: Vec<Draft>,
}

impl Emitter {
    pub(crate) fn new(rule: &'static Rule) -> Self {
        Emitter {
            rule,
            drafts: Vec::new(),
        }
    }
    /// Report a finding at `pointer` with a lowercase, period-free message.
    pub fn emit(&mut self, pointer: impl Into<String>, message: impl Into<String>) -> &mut Draft {
        let d = Draft {
            rule: self.rule,
            area: self.rule.area,
            severity: self.rule.severity,
            pointer: pointer.into(),
            message: no_empty_quote(message.into()),
            evidence: Evidence::new(),
        };
        let last = self.drafts.len();
        self.drafts.push(d);
        // In bounds: the element was pushed on the line above.
        #[allow(clippy::indexing_slicing)]
        &mut self.drafts[last]
    }
    /// Report a setting that is not declared, at its would-be `pointer`
    /// (`/limits/memory_bytes` even when `limits` is absent). `consequence`
    /// finishes the sentence "`limits.memory_bytes` is not declared, so …".
    /// A field that is present but could not be decoded (a profile finding
    /// says why) is just as unapplied, and is worded as such.
    pub fn undeclared(&mut self, ctx: &Ctx<'_>, pointer: &str, consequence: &str) -> &mut Draft {
        let field = field_name(pointer);
        let (state, text) = if ctx.present(pointer) {
            ("unreadable", "could not be read")
        } else {
            ("not-declared", "is not declared")
        };
        let d = self.emit(pointer, format!("`{}` {}, so {}", field, text, consequence));
        d.evidence("field", field).evidence("state", state);
        d
    }
    /// Report a numeric bound that is missing, unreadable or `0` (which
    /// container runtimes and orchestrators commonly read as "unlimited").
    pub fn unbounded(
        &mut self,
        ctx: &Ctx<'_>,
        pointer: &str,
        value: Option<u64>,
        consequence: &str,
    ) -> Option<&mut Draft> {
        match value {
            None => Some(self.undeclared(ctx, pointer, consequence)),
            Some(0) => {
                let field = field_name(pointer);
                let d = self.emit(
                    pointer,
                    format!(
                        "`{}` is `0`, which many runners read as no limit at all, so {}",
                        field, consequence
                    ),
                );
                d.evidence("field", field).evidence("value", 0);
                Some(d)
            }
            Some(_) => None,
        }
    }
    /// Report a safeguard flag that is not declared `true` (missing,
    /// unreadable or `false`), finishing the sentence with `consequence`.
    pub fn unless_true(
        &mut self,
        ctx: &Ctx<'_>,
        pointer: &str,
        value: Option<bool>,
        consequence: &str,
    ) -> Option<&mut Draft> {
        match value {
            Some(true) => None,
            None => Some(self.undeclared(ctx, pointer, consequence)),
            Some(false) => {
                let field = field_name(pointer);
                let d = self.emit(
                    pointer,
                    format!("`{}` is `false`, so {}", field, consequence),
                );
                d.evidence("field", field).evidence("value", false);
                Some(d)
            }
        }
    }
}

/// Messages quote profile values in backticks; an empty value would leave
/// an empty quote that tells the reader nothing, so it reads `(empty)`.
/// Done here, once, so no rule's wording can forget it.
fn no_empty_quote(message: String) -> String {
    if message.contains("``") {
        message.replace("``", "`(empty)`")
    } else {
        message
    }
}

/// `/limits/memory_bytes` as people write it: `limits.memory_bytes`.
fn field_name(pointer: &str) -> String {
    pointer.trim_start_matches('/').replace('/', ".")
}

/// Run every rule over the context.
pub fn run(ctx: &Ctx<'_>) -> Vec<Draft> {
    run_on(ctx, &crate::par::InOrder)
}

/// [`run`], the rules run on `schedule`; drafts stay in registry order.
pub fn run_on(ctx: &Ctx<'_>, schedule: &dyn crate::par::Schedule) -> Vec<Draft> {
    let check = |rule: &'static Rule| {
        let mut e = Emitter::new(rule);
        (rule.check)(ctx, &mut e);
        e.drafts
    };
    if schedule.width() <= 1 {
        return all().flat_map(check).collect();
    }
    // A large profile's time is in the rules that look at every mount, the
    // mount areas' last ones (declarations, shadowing, control characters)
    // the longest: they are handed over first, one task per rule, so no
    // thread is left alone with a long rule at the end while another
    // waits. The results keep the registry's order.
    let rules: Vec<&'static Rule> = all().collect();
    let mounts = rules
        .iter()
        .take_while(|r| matches!(r.area, Area::WritableMounts | Area::ReadOnlyMounts))
        .count();
    let order: Vec<usize> = (0..mounts).rev().chain(mounts..rules.len()).collect();
    let mut per_rule: Vec<(usize, Vec<Draft>)> = crate::par::map_each(schedule, &order, |&i| {
        (i, rules.get(i).map(|&r| check(r)).unwrap_or_default())
    });
    crate::sort::sort_by(&mut per_rule, |a, b| a.0.cmp(&b.0));
    per_rule.into_iter().flat_map(|(_, d)| d).collect()
}

/// (rule, severity, pointer) of the findings of one area, for the area
/// modules' tests.
#[cfg(test)]
pub(crate) fn area_findings(
    profile: &str,
    area: Area,
    today: Option<&str>,
) -> Vec<(&'static str, crate::finding::Severity, String)> {
    let options = crate::AuditOptions {
        today: today.and_then(crate::Date::parse),
    };
    let r = crate::audit(
        profile.as_bytes(),
        "t.json",
        &crate::Labels::workshop(),
        &options,
    )
    .unwrap();
    r.issues
        .iter()
        .filter(|f| f.area == area)
        .map(|f| (f.rule, f.severity, f.pointer.clone()))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each area's source, to hold the shape the registry relies on.
    const SOURCES: &[(&str, &str)] = &[
        ("artifacts.rs", include_str!("artifacts.rs")),
        ("cleanup.rs", include_str!("cleanup.rs")),
        ("command.rs", include_str!("command.rs")),
        ("credentials.rs", include_str!("credentials.rs")),
        ("dependencies.rs", include_str!("dependencies.rs")),
        ("egress.rs", include_str!("egress.rs")),
        ("isolation.rs", include_str!("isolation.rs")),
        ("kernel.rs", include_str!("kernel.rs")),
        ("limits.rs", include_str!("limits.rs")),
        ("mounts.rs", include_str!("mounts.rs")),
        ("network.rs", include_str!("network.rs")),
        ("privileges.rs", include_str!("privileges.rs")),
        ("profile.rs", include_str!("profile.rs")),
        ("resolution.rs", include_str!("resolution.rs")),
    ];

    /// Every rule is a constant named by its id, and one whose check is a
    /// named function sits right above that function, so reading a rule
    /// never means a jump to a list at the end of the file.
    #[test]
    fn rules_are_declared_beside_their_checks() {
        let mut declared = Vec::new();
        for (file, src) in SOURCES {
            let mut rest = *src;
            while let Some(at) = rest.find(": Rule = Rule {") {
                let name = rest[..at].rsplit(' ').next().unwrap();
                let body = &rest[at..];
                let end = body.find("\n};\n").expect("rule constant ends with `};`");
                let (rule, after) = (&body[..end], &body[end + 4..]);
                let id = rule
                    .split("id: \"")
                    .nth(1)
                    .and_then(|s| s.split('"').next());
                assert_eq!(id, Some(name), "{file}: constant {name} holds another id");
                let check = rule
                    .split("\n    check: ")
                    .nth(1)
                    .unwrap_or_else(|| panic!("{file}: {name} has no check"));
                let check = check.trim_end().trim_end_matches(',');
                if check
                    .bytes()
                    .all(|c| c.is_ascii_alphanumeric() || c == b'_')
                {
                    let next = after
                        .lines()
                        .find(|l| !(l.is_empty() || l.starts_with("///") || l.starts_with("#[")))
                        .unwrap_or("");
                    let next = next.strip_prefix("pub(crate) ").unwrap_or(next);
                    assert!(
                        next.starts_with(&format!("fn {check}(")),
                        "{file}: {name} is not right above its check `fn {check}`, but above `{next}`"
                    );
                }
                declared.push(name);
                rest = after;
            }
        }
        declared.sort_unstable();
        let mut registry: Vec<&str> = all().map(|r| r.id).collect();
        registry.sort_unstable();
        assert_eq!(declared, registry);
    }

    /// What a mount's `excludes` hides from the exposures beneath it:
    /// (source, target, excludes, an exposure of the workshop catalog or
    /// the built-in table, whether the mount still exposes it).
    #[test]
    fn excludes_hide_what_lies_beneath_them() {
        let rows: &[(&str, &str, &[&str], &str, bool)] = &[
            ("/", "/", &[], "/home/botie", true),
            ("/", "/", &["/home"], "/home/botie", false),
            ("/", "/", &["/home/botie"], "/home/botie", false),
            ("/", "/", &["/home/botie"], "/home/botie/.aws", false),
            ("/", "/", &["/home/botie/.aws"], "/home/botie", true),
            ("/", "/", &["/home/bot"], "/home/botie", true),
            ("/", "/", &["/home/"], "/home/botie", false),
            ("/", "/", &["/tmp"], "/home/botie", true),
            ("/", "/", &["/run"], "/run/postgresql", false),
            ("/", "/", &["/run"], "/var/run/docker.sock", false),
            ("/", "/", &["/run/"], "/var/run/docker.sock", false),
            ("/", "/", &["//run/./"], "/var/run/docker.sock", false),
            ("/", "/", &["/var/run"], "/var/run/docker.sock", false),
            ("/", "/", &["/var/run"], "/run/postgresql", true),
            (
                "/",
                "/",
                &["/var/run/docker.sock"],
                "/var/run/docker.sock",
                false,
            ),
            ("/", "/", &["/run/postgresql"], "/var/run/docker.sock", true),
            ("/", "/", &["/home/../run"], "/run/postgresql", true),
            ("/", "/", &["/run/.."], "/run/postgresql", true),
            ("/", "/", &["run"], "/run/postgresql", true),
            ("/", "/host", &["/host/run"], "/run/postgresql", false),
            ("/", "/host", &["/host/run"], "/var/run/docker.sock", true),
            ("/", "/host", &["/run"], "/run/postgresql", true),
            (
                "/home",
                "/home",
                &["/home/botie"],
                "/home/botie/.aws",
                false,
            ),
            ("/home", "/h", &["/h/botie"], "/home/botie", false),
            ("/home", "/h", &["/home/botie"], "/home/botie", true),
            ("/home", "/h/", &["/h/botie/"], "/home/botie/.aws", false),
            (
                "/proc/1/root",
                "/",
                &["/run"],
                "/proc/1/root/run/postgresql",
                false,
            ),
            (
                "/proc/1/root",
                "/",
                &["/run"],
                "/proc/1/root/var/run/docker.sock",
                true,
            ),
            ("/", "/", &["/tmp", "/home"], "/home/botie", false),
            ("/", "../x", &["/home"], "/home/botie", true),
        ];
        let labels = crate::report::Labels::workshop();
        let mut wrong = Vec::new();
        for (source, target, excludes, probe, want) in rows {
            let m = Mount {
                source: Some(source.to_string()),
                target: Some(target.to_string()),
                excludes: Some(excludes.iter().map(|e| e.to_string()).collect()),
                ..Mount::default()
            };
            let v = MountView::new(0, &m, &labels.index);
            let got = v
                .class
                .as_ref()
                .is_some_and(|c| c.exposes.iter().any(|x| x.path == *probe));
            if got != *want {
                wrong.push(format!("{source} at {target} excluding {excludes:?}: {probe} exposed {got}, want {want}"));
            }
        }
        assert!(
            wrong.is_empty(),
            "{} of {} wrong:\n{}",
            wrong.len(),
            rows.len(),
            wrong.join("\n")
        );
    }

    #[test]
    fn ids_are_unique_and_well_formed() {
        let mut ids = std::collections::BTreeSet::new();
        let mut names = std::collections::BTreeSet::new();
        for r in all() {
            let b = r.id.as_bytes();
            assert!(
                b.len() == 6
                    && b[..3].iter().all(u8::is_ascii_uppercase)
                    && b[3..].iter().all(u8::is_ascii_digit),
                "malformed id {}",
                r.id
            );
            assert!(ids.insert(r.id), "duplicate id {}", r.id);
            assert!(names.insert(r.name), "duplicate name {}", r.name);
            assert!(
                r.name
                    .bytes()
                    .all(|c| c.is_ascii_lowercase() || c == b'-' || c.is_ascii_digit()),
                "bad name {}",
                r.name
            );
            assert!(
                !r.title.is_empty() && !r.title.ends_with('.'),
                "{}: title",
                r.id
            );
            assert!(
                r.title.chars().next().is_some_and(|c| !c.is_uppercase()),
                "{}: title starts lowercase",
                r.id
            );
            assert!(r.rationale.len() > 40, "{}: rationale too short", r.id);
            assert!(r.remediation.len() > 20, "{}: remediation too short", r.id);
            assert!(find(r.id).is_some() && find(r.name).is_some());
        }
    }
}
