//! From a parsed JSON tree to typed values, collecting every problem instead
//! of stopping at the first (the cargo-deny way): an unknown field, a wrong
//! type or an unknown enum value each becomes a [`Problem`] with its pointer,
//! and decoding goes on so the rest of the profile is still audited.

use crate::json::{Node, Pos, Value};
use crate::model::*;

/// What was wrong with one value of the input.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ProblemKind {
    /// A key the format does not define; with the closest known key, if any.
    UnknownField {
        key: String,
        suggestion: Option<&'static str>,
    },
    /// A value of the wrong JSON type.
    WrongType {
        expected: &'static str,
        found: &'static str,
    },
    /// A string outside a closed set.
    UnknownValue {
        value: String,
        accepted: &'static [&'static str],
    },
    /// A number that is not a non-negative integer in range.
    BadInteger { raw: String },
    /// A required value that is missing or empty.
    Missing { what: &'static str },
    /// A `schema` that names another format.
    WrongSchema {
        found: String,
        expected: &'static str,
    },
    /// A path that must lie strictly inside another (a mount's `excludes`
    /// inside its target) and does not, or cannot be read lexically.
    PathOutside { path: String, within: String },
    /// Something said twice that may be said once (a key, a catalog path):
    /// which one a reader keeps differs between readers, so it is refused.
    Repeated { what: String, first: Pos },
}

/// One decoding problem, anchored at a pointer (and its node's position).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    pub pointer: String,
    pub pos: Pos,
    pub kind: ProblemKind,
}

impl Problem {
    /// A lowercase one-line description, without the pointer.
    pub fn describe(&self) -> String {
        match &self.kind {
            ProblemKind::UnknownField { key, suggestion } => match suggestion {
                Some(s) => format!("unknown field `{key}`; did you mean `{s}`?"),
                None => format!("unknown field `{key}`"),
            },
            ProblemKind::WrongType { expected, found } => {
                format!("expected {expected}, found {found}")
            }
            ProblemKind::UnknownValue { value, accepted } => format!(
                "unknown value `{value}`; accepted values: {}",
                accepted
                    .iter()
                    .map(|a| format!("`{a}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            ProblemKind::BadInteger { raw } => {
                format!("expected a non-negative whole number up to 2^64-1, found `{raw}`")
            }
            ProblemKind::Missing { what } => format!("{what} is required"),
            ProblemKind::WrongSchema { found, expected } => {
                format!("schema is `{found}`, expected `{expected}`")
            }
            ProblemKind::PathOutside { path, within } => format!(
                "`{path}` is not an absolute path strictly inside `{within}` (without `..`)"
            ),
            ProblemKind::Repeated { what, first } => format!(
                "{what}; it was first given at line {}, column {}",
                first.line, first.column
            ),
        }
    }
}

/// Decoding context: the problems found so far.
#[derive(Default)]
pub struct Decoder {
    pub problems: Vec<Problem>,
}

/// A cursor on one object, checking its keys against a known list.
pub struct Obj<'a, 'd> {
    dec: &'d mut Decoder,
    node: &'a Node,
    ptr: String,
}

fn child_ptr(ptr: &str, key: &str) -> String {
    let mut out = String::with_capacity(ptr.len() + key.len() + 1);
    out.push_str(ptr);
    out.push('/');
    crate::json::push_escaped_token(&mut out, key);
    out
}

/// The pointers of an array's elements, written into one buffer whose
/// index is rewritten for each element (not one `format!` per element).
struct ElementPointer {
    buf: String,
    base: usize,
}

impl ElementPointer {
    fn new(array: &str) -> ElementPointer {
        let buf = format!("{}/", array);
        let base = buf.len();
        ElementPointer { buf, base }
    }

    /// `ARRAY/i`.
    fn at(&mut self, i: usize) -> &str {
        self.buf.truncate(self.base);
        self.buf.push_str(crate::text::Num::new(i as u64).as_ref());
        &self.buf
    }
}

impl Decoder {
    fn problem(&mut self, pointer: String, pos: Pos, kind: ProblemKind) {
        self.problems.push(Problem { pointer, pos, kind });
    }

    /// Open `node` as an object with the given known keys; `None` (and a
    /// problem) when it is not an object.
    pub fn object<'a, 'd>(
        &'d mut self,
        node: &'a Node,
        ptr: &str,
        known: &'static [&'static str],
    ) -> Option<Obj<'a, 'd>> {
        let Some(members) = node.members() else {
            self.wrong_type(node, ptr, "an object");
            return None;
        };
        for m in members {
            if !known.contains(&m.key.as_str()) {
                let suggestion = suggest(&m.key, known);
                self.problem(
                    child_ptr(ptr, &m.key),
                    m.key_pos,
                    ProblemKind::UnknownField {
                        key: m.key.clone(),
                        suggestion,
                    },
                );
            }
        }
        Some(Obj {
            dec: self,
            node,
            ptr: ptr.to_string(),
        })
    }

    fn wrong_type(&mut self, node: &Node, ptr: &str, expected: &'static str) {
        let found = node.type_name();
        self.problem(
            ptr.to_string(),
            node.pos,
            ProblemKind::WrongType { expected, found },
        );
    }

    pub fn string(&mut self, node: &Node, ptr: &str) -> Option<String> {
        match &node.value {
            Value::String(s) => Some(s.clone()),
            _ => {
                self.wrong_type(node, ptr, "a string");
                None
            }
        }
    }

    pub fn boolean(&mut self, node: &Node, ptr: &str) -> Option<bool> {
        match &node.value {
            Value::Bool(b) => Some(*b),
            _ => {
                self.wrong_type(node, ptr, "`true` or `false`");
                None
            }
        }
    }

    pub fn uint(&mut self, node: &Node, ptr: &str) -> Option<u64> {
        match &node.value {
            Value::Number(n) => match n.as_u64() {
                Some(v) => Some(v),
                None => {
                    self.problem(
                        ptr.to_string(),
                        node.pos,
                        ProblemKind::BadInteger {
                            raw: n.as_str().to_string(),
                        },
                    );
                    None
                }
            },
            _ => {
                self.wrong_type(node, ptr, "a whole number");
                None
            }
        }
    }

    /// A whole number that may be negative.
    pub fn int(&mut self, node: &Node, ptr: &str) -> Option<i64> {
        match &node.value {
            Value::Number(n) => match n.as_str().parse::<i64>() {
                Ok(v) => Some(v),
                Err(_) => {
                    self.problem(
                        ptr.to_string(),
                        node.pos,
                        ProblemKind::BadInteger {
                            raw: n.as_str().to_string(),
                        },
                    );
                    None
                }
            },
            _ => {
                self.wrong_type(node, ptr, "a whole number");
                None
            }
        }
    }

    pub fn enumeration<E: StringEnum>(&mut self, node: &Node, ptr: &str) -> Option<E> {
        let s = self.string(node, ptr)?;
        match E::parse(&s) {
            Some(e) => Some(e),
            None => {
                self.problem(
                    ptr.to_string(),
                    node.pos,
                    ProblemKind::UnknownValue {
                        value: s,
                        accepted: E::VALUES,
                    },
                );
                None
            }
        }
    }

    /// An array whose elements are decoded by `f`; every slot is kept.
    pub fn array<T>(
        &mut self,
        node: &Node,
        ptr: &str,
        mut f: impl FnMut(&mut Decoder, &Node, &str) -> T,
    ) -> Option<Vec<T>> {
        let Value::Array(items) = &node.value else {
            self.wrong_type(node, ptr, "an array");
            return None;
        };
        let mut p = ElementPointer::new(ptr);
        Some(
            items
                .iter()
                .enumerate()
                .map(|(i, item)| f(self, item, p.at(i)))
                .collect(),
        )
    }

    /// An array of strings; a non-string element is a problem and is kept as
    /// an empty string so indexes stay aligned with the source.
    pub fn strings(&mut self, node: &Node, ptr: &str) -> Option<Vec<String>> {
        self.array(node, ptr, |d, n, p| d.string(n, p).unwrap_or_default())
    }
}

impl<'a> Obj<'a, '_> {
    /// The member `key` with its pointer, if present.
    pub fn field(&self, key: &str) -> Option<(&'a Node, String)> {
        self.node.get(key).map(|n| (n, child_ptr(&self.ptr, key)))
    }

    pub fn pointer(&self) -> &str {
        &self.ptr
    }

    /// Record a problem found by the caller while reading this object.
    pub fn push_problem(&mut self, p: Problem) {
        self.dec.problems.push(p);
    }

    // The member's pointer is only needed to report a problem, so a
    // well-typed value is read without building it: a large profile has
    // a few such members per mount.

    pub fn string(&mut self, key: &str) -> Option<String> {
        let n = self.node.get(key)?;
        match &n.value {
            Value::String(s) => Some(s.clone()),
            _ => self.dec.string(n, &child_ptr(&self.ptr, key)),
        }
    }
    pub fn boolean(&mut self, key: &str) -> Option<bool> {
        let n = self.node.get(key)?;
        match &n.value {
            Value::Bool(b) => Some(*b),
            _ => self.dec.boolean(n, &child_ptr(&self.ptr, key)),
        }
    }
    pub fn uint(&mut self, key: &str) -> Option<u64> {
        let n = self.node.get(key)?;
        match &n.value {
            Value::Number(num) if num.as_u64().is_some() => num.as_u64(),
            _ => self.dec.uint(n, &child_ptr(&self.ptr, key)),
        }
    }
    pub fn enumeration<E: StringEnum>(&mut self, key: &str) -> Option<E> {
        let n = self.node.get(key)?;
        match &n.value {
            Value::String(s) if E::parse(s).is_some() => E::parse(s),
            _ => self.dec.enumeration(n, &child_ptr(&self.ptr, key)),
        }
    }
    pub fn strings(&mut self, key: &str) -> Option<Vec<String>> {
        let n = self.node.get(key)?;
        if let Value::Array(items) = &n.value {
            let all: Option<Vec<String>> = items
                .iter()
                .map(|i| match &i.value {
                    Value::String(s) => Some(s.clone()),
                    _ => None,
                })
                .collect();
            if all.is_some() {
                return all;
            }
        }
        self.dec.strings(n, &child_ptr(&self.ptr, key))
    }
    /// Decode a nested value with `f`.
    pub fn with<T>(
        &mut self,
        key: &str,
        f: impl FnOnce(&mut Decoder, &Node, &str) -> Option<T>,
    ) -> Option<T> {
        let (n, p) = self.field(key)?;
        f(self.dec, n, &p)
    }
}

/// The known key closest to `key` by edit distance (case-insensitive, with
/// `-` and `_` treated alike), when it is close enough to be a likely typo.
pub fn suggest(key: &str, known: &[&'static str]) -> Option<&'static str> {
    let norm = |s: &str| s.to_ascii_lowercase().replace('-', "_");
    let k = norm(key);
    let mut best: Option<(usize, &'static str)> = None;
    for &cand in known {
        let c = norm(cand);
        let d = if c == k { 0 } else { edit_distance(&k, &c) };
        let limit = (cand.len().max(key.chars().count()) / 3).max(1);
        let prefix_hit = k.len() >= 3 && (c.starts_with(&k) || k.starts_with(&c));
        if (d <= limit || prefix_hit) && best.is_none_or(|(bd, _)| d < bd) {
            best = Some((d, cand));
        }
    }
    best.map(|(_, c)| c)
}

/// Levenshtein distance over chars, bounded in cost by the short key lengths.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().take(256).collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().take(256).enumerate() {
        let mut cur = Vec::with_capacity(b.len() + 1);
        cur.push(i + 1);
        for ((j, cb), up) in b.iter().enumerate().zip(prev.iter().skip(1)) {
            let diag = prev.get(j).copied().unwrap_or(usize::MAX - 1);
            let left = cur.last().copied().unwrap_or(usize::MAX - 1);
            cur.push((diag + usize::from(ca != *cb)).min(up + 1).min(left + 1));
        }
        prev = cur;
    }
    prev.last().copied().unwrap_or(0)
}

/// Top-level profile keys, in the order the schema lists them.
/// The fields of each section, in the order an imported profile writes
/// them (`import::builder` uses the same lists, so a field added here is
/// known to both).
pub(crate) const NEEDS_KEYS: &[&str] = &["inputs", "outputs", "services"];
pub(crate) const BOUNDARY_KEYS: &[&str] = &[
    "kind",
    "label",
    "runtime",
    "privileged",
    "capabilities",
    "user",
    "no_new_privileges",
    "host_namespaces",
    "seccomp",
    "read_only_root",
    "terminal",
    "masked_paths",
    "unmasked_paths",
    "unix_sockets",
    "apparmor",
    "selinux",
    "devices",
    "shares_pid_with",
    "sysctls",
    "oom_score_adj",
    "oom_kill_disable",
    "groups",
];
pub(crate) const RUNTIME_KEYS: &[&str] = &["name", "version", "patched_on"];
pub(crate) const CAPABILITIES_KEYS: &[&str] = &["add", "drop"];
pub(crate) const MOUNT_KEYS: &[&str] = &["source", "target", "access", "sub_path", "excludes"];
pub(crate) const NETWORK_KEYS: &[&str] = &[
    "egress",
    "enforced_by",
    "allow",
    "follow_redirects",
    "dns",
    "hosts",
    "resolvers",
];
pub(crate) const ALLOW_KEYS: &[&str] = &["host", "port", "protocol"];
pub(crate) const ENVIRONMENT_KEYS: &[&str] = &["inherit", "variables"];
pub(crate) const CREDENTIAL_KEYS: &[&str] =
    &["name", "source", "scope", "ttl_seconds", "exposed_to"];
pub(crate) const COMMAND_KEYS: &[&str] = &["executable", "arguments", "shell", "cwd"];
pub(crate) const LIMITS_KEYS: &[&str] = &[
    "wall_seconds",
    "cpu_seconds",
    "memory_bytes",
    "processes",
    "output_bytes",
    "enforced_by",
    "timeout_kills",
];
pub(crate) const CONCURRENCY_KEYS: &[&str] = &["max_jobs", "release_after"];
pub(crate) const DEPENDENCIES_KEYS: &[&str] = &[
    "prepared_in",
    "image",
    "fetch_stage",
    "lockfile",
    "install_hooks_reviewed",
    "preserve_inputs",
];
pub(crate) const FETCH_STAGE_KEYS: &[&str] = &["separate", "network", "credentials", "cache"];
pub(crate) const ARTIFACTS_KEYS: &[&str] = &[
    "collect",
    "max_bytes",
    "log_max_bytes",
    "treat_as_untrusted",
];
pub(crate) const CLEANUP_KEYS: &[&str] = &[
    "destroy_worker",
    "expire_credentials",
    "on_failure",
    "retain",
];

pub(crate) const PROFILE_KEYS: &[&str] = &[
    "schema",
    "name",
    "route",
    "purpose",
    "tenancy",
    "needs",
    "boundary",
    "mounts",
    "network",
    "environment",
    "credentials",
    "command",
    "setup",
    "limits",
    "concurrency",
    "dependencies",
    "artifacts",
    "cleanup",
];

/// Write problems one per line as `line:column: message (at `pointer`)`,
/// neutralized for a terminal.
pub(crate) fn write_problems(
    f: &mut std::fmt::Formatter<'_>,
    problems: &[Problem],
) -> std::fmt::Result {
    for (i, p) in problems.iter().enumerate() {
        if i > 0 {
            writeln!(f)?;
        }
        write!(
            f,
            "{}:{}: {} (at `{}`)",
            p.pos.line,
            p.pos.column,
            crate::sanitize::neutralize(&p.describe()),
            crate::sanitize::neutralize(&p.pointer)
        )?;
    }
    Ok(())
}

/// Decode a profile document. Problems are collected, never fatal.
pub fn profile(root: &Node) -> (Profile, Vec<Problem>) {
    let mut d = Decoder::default();
    let mut p = Profile::default();
    if let Some(mut o) = d.object(root, "", PROFILE_KEYS) {
        p.schema = o.string("schema");
        if let (Some(s), Some((n, ptr))) = (&p.schema, o.field("schema")) {
            if s != PROFILE_SCHEMA {
                o.dec.problem(
                    ptr,
                    n.pos,
                    ProblemKind::WrongSchema {
                        found: s.clone(),
                        expected: PROFILE_SCHEMA,
                    },
                );
            }
        }
        if p.schema.is_none() && o.field("schema").is_none() {
            // Without `schema` a document of any format can pass for a
            // profile; the importers always write it.
            o.dec.problem(
                "/schema".to_string(),
                root.pos,
                ProblemKind::Missing {
                    what: "`schema` (`isolint.profile/v1`)",
                },
            );
        }
        p.name = o.string("name");
        if p.name
            .as_deref()
            .is_none_or(|n| !crate::sanitize::has_visible_base(n))
        {
            let (ptr, pos) = match o.field("name") {
                Some((n, ptr)) => (ptr, n.pos),
                None => ("/name".to_string(), root.pos),
            };
            if o.field("name").is_none_or(|(n, _)| n.as_str().is_some()) {
                o.dec.problem(
                    ptr,
                    pos,
                    ProblemKind::Missing {
                        what: "a non-empty profile `name`",
                    },
                );
            }
        }
        p.route = o.string("route");
        p.purpose = o.string("purpose");
        p.tenancy = o.enumeration("tenancy");
        p.needs = o.with("needs", needs);
        p.boundary = o.with("boundary", boundary);
        p.mounts = o.with("mounts", |d, n, ptr| d.array(n, ptr, mount));
        p.network = o.with("network", network);
        p.environment = o.with("environment", environment);
        p.credentials = o.with("credentials", |d, n, ptr| d.array(n, ptr, credential));
        p.command = o.with("command", |d, n, ptr| Some(command(d, n, ptr)));
        p.setup = o.with("setup", |d, n, ptr| d.array(n, ptr, command));
        p.limits = o.with("limits", limits);
        p.concurrency = o.with("concurrency", concurrency);
        p.dependencies = o.with("dependencies", dependencies);
        p.artifacts = o.with("artifacts", artifacts);
        p.cleanup = o.with("cleanup", cleanup);
    }
    (p, d.problems)
}

fn needs(d: &mut Decoder, n: &Node, ptr: &str) -> Option<Needs> {
    let mut o = d.object(n, ptr, NEEDS_KEYS)?;
    Some(Needs {
        inputs: o.strings("inputs"),
        outputs: o.strings("outputs"),
        services: o.strings("services"),
    })
}

fn boundary(d: &mut Decoder, n: &Node, ptr: &str) -> Option<Boundary> {
    let mut o = d.object(n, ptr, BOUNDARY_KEYS)?;
    Some(Boundary {
        kind: o.enumeration("kind"),
        label: o.string("label"),
        runtime: o.with("runtime", |d, n, ptr| {
            let mut o = d.object(n, ptr, RUNTIME_KEYS)?;
            Some(Runtime {
                name: o.string("name"),
                version: o.string("version"),
                patched_on: o.string("patched_on"),
            })
        }),
        privileged: o.boolean("privileged"),
        capabilities: o.with("capabilities", |d, n, ptr| {
            let mut o = d.object(n, ptr, CAPABILITIES_KEYS)?;
            Some(Capabilities {
                add: o.strings("add"),
                drop: o.strings("drop"),
            })
        }),
        user: o.with("user", |d, n, ptr| match &n.value {
            // A numeric uid is common enough to accept as written.
            Value::Number(num) if num.as_u64().is_some() => Some(num.as_str().to_string()),
            _ => d.string(n, ptr),
        }),
        no_new_privileges: o.boolean("no_new_privileges"),
        host_namespaces: o.with("host_namespaces", |d, n, ptr| {
            d.array(n, ptr, |d, n, p| d.enumeration::<Namespace>(n, p))
        }),
        seccomp: o.enumeration("seccomp"),
        read_only_root: o.boolean("read_only_root"),
        terminal: o.enumeration("terminal"),
        masked_paths: o.boolean("masked_paths"),
        unmasked_paths: o.strings("unmasked_paths"),
        unix_sockets: o.enumeration("unix_sockets"),
        apparmor: o.enumeration("apparmor"),
        selinux: o.enumeration("selinux"),
        devices: o.strings("devices"),
        shares_pid_with: o.strings("shares_pid_with"),
        sysctls: o.with("sysctls", string_map),
        oom_score_adj: o.with("oom_score_adj", |d, n, ptr| d.int(n, ptr)),
        oom_kill_disable: o.boolean("oom_kill_disable"),
        groups: o.with("groups", |d, n, ptr| {
            // Group ids are often written as numbers.
            d.array(n, ptr, |d, n, p| match &n.value {
                Value::Number(num) => num.as_str().to_string(),
                _ => d.string(n, p).unwrap_or_default(),
            })
        }),
    })
}

fn mount(d: &mut Decoder, n: &Node, ptr: &str) -> Mount {
    let Some(mut o) = d.object(n, ptr, MOUNT_KEYS) else {
        return Mount::default();
    };
    let mut m = Mount {
        source: o.string("source"),
        target: o.string("target"),
        access: o.enumeration("access"),
        sub_path: o.string("sub_path"),
        excludes: None,
    };
    m.excludes = o.with("excludes", |d, n, ptr| {
        excludes(d, n, ptr, m.target.as_deref())
    });
    m
}

/// A mount's `excludes`: each an absolute path strictly inside `target`,
/// read lexically. One that is not (relative, with `..`, outside or equal
/// to the target, or under a target that cannot be read) is a problem and
/// left out of the mount, so the rules see the mount whole.
fn excludes(d: &mut Decoder, n: &Node, ptr: &str, target: Option<&str>) -> Option<Vec<String>> {
    let Value::Array(items) = &n.value else {
        d.wrong_type(n, ptr, "an array");
        return None;
    };
    let within = target.map(crate::pathnorm::normalize);
    let mut kept = Vec::new();
    let mut p = ElementPointer::new(ptr);
    for (i, item) in items.iter().enumerate() {
        let at = p.at(i).to_string();
        let Some(raw) = d.string(item, &at) else {
            continue;
        };
        let e = crate::pathnorm::normalize(&raw);
        let inside = within.as_ref().is_some_and(|t| {
            !t.relative
                && !t.had_parent_refs
                && !t.control_chars
                && !e.relative
                && !e.had_parent_refs
                && !e.control_chars
                && e.path != t.path
                && crate::pathnorm::contains(&t.path, &e.path)
        });
        if inside {
            kept.push(raw);
        } else {
            d.problem(
                at,
                item.pos,
                ProblemKind::PathOutside {
                    path: raw,
                    within: target.unwrap_or("the mount's target").to_string(),
                },
            );
        }
    }
    Some(kept)
}

fn network(d: &mut Decoder, n: &Node, ptr: &str) -> Option<Network> {
    let mut o = d.object(n, ptr, NETWORK_KEYS)?;
    Some(Network {
        egress: o.enumeration("egress"),
        enforced_by: o.with("enforced_by", network_enforcement),
        allow: o.with("allow", |d, n, ptr| {
            d.array(n, ptr, |d, n, p| {
                let Some(mut o) = d.object(n, p, ALLOW_KEYS) else {
                    return AllowEntry::default();
                };
                AllowEntry {
                    host: o.string("host"),
                    port: o.uint("port"),
                    protocol: o.string("protocol"),
                }
            })
        }),
        follow_redirects: o.boolean("follow_redirects"),
        dns: o.enumeration("dns"),
        hosts: o.with("hosts", string_map),
        resolvers: o.strings("resolvers"),
    })
}

fn environment(d: &mut Decoder, n: &Node, ptr: &str) -> Option<Environment> {
    let mut o = d.object(n, ptr, ENVIRONMENT_KEYS)?;
    let inherit = o.boolean("inherit");
    let variables = o.with("variables", string_map);
    Some(Environment { inherit, variables })
}

/// `network.enforced_by`: one layer, or the layers that enforce egress
/// together (a filtering proxy and an OS sandbox that blocks direct
/// connections). The rules judge the strongest: the network layer
/// (`network-policy`, `firewall`) over a proxy over an application check.
fn network_enforcement(d: &mut Decoder, n: &Node, ptr: &str) -> Option<NetworkEnforcement> {
    let Value::Array(items) = &n.value else {
        return d.enumeration(n, ptr);
    };
    if items.is_empty() {
        d.problem(
            ptr.to_string(),
            n.pos,
            ProblemKind::Missing {
                what: "an enforcing layer (write `none` if nothing enforces egress)",
            },
        );
        return None;
    }
    let layers: Vec<NetworkEnforcement> = items
        .iter()
        .enumerate()
        .filter_map(|(i, it)| d.enumeration(it, &format!("{ptr}/{i}")))
        .collect();
    if layers.len() != items.len() {
        return None;
    }
    let rank = |e: &NetworkEnforcement| match e {
        NetworkEnforcement::NetworkPolicy | NetworkEnforcement::Firewall => 0,
        NetworkEnforcement::Proxy => 1,
        NetworkEnforcement::Application => 2,
        NetworkEnforcement::None => 3,
    };
    layers.into_iter().min_by_key(rank)
}

/// An object of names to string values (numbers and booleans as written).
fn string_map(d: &mut Decoder, n: &Node, ptr: &str) -> Option<Vec<(String, String)>> {
    let Some(members) = n.members() else {
        d.wrong_type(n, ptr, "an object of names to string values");
        return None;
    };
    let mut vars = Vec::with_capacity(members.len());
    for m in members {
        let p = child_ptr(ptr, &m.key);
        let v = match &m.value.value {
            Value::String(s) => s.clone(),
            Value::Number(num) => num.as_str().to_string(),
            Value::Bool(b) => b.to_string(),
            _ => {
                d.wrong_type(&m.value, &p, "a string");
                String::new()
            }
        };
        vars.push((m.key.clone(), v));
    }
    Some(vars)
}

fn credential(d: &mut Decoder, n: &Node, ptr: &str) -> Credential {
    let Some(mut o) = d.object(n, ptr, CREDENTIAL_KEYS) else {
        return Credential::default();
    };
    Credential {
        name: o.string("name"),
        source: o.enumeration("source"),
        scope: o.enumeration("scope"),
        ttl_seconds: o.uint("ttl_seconds"),
        exposed_to: o.enumeration("exposed_to"),
    }
}

fn command(d: &mut Decoder, n: &Node, ptr: &str) -> Command {
    let Some(mut o) = d.object(n, ptr, COMMAND_KEYS) else {
        return Command::default();
    };
    Command {
        executable: o.string("executable"),
        arguments: o.strings("arguments"),
        shell: o.string("shell"),
        cwd: o.string("cwd"),
    }
}

fn limits(d: &mut Decoder, n: &Node, ptr: &str) -> Option<Limits> {
    let mut o = d.object(n, ptr, LIMITS_KEYS)?;
    Some(Limits {
        wall_seconds: o.uint("wall_seconds"),
        cpu_seconds: o.uint("cpu_seconds"),
        memory_bytes: o.uint("memory_bytes"),
        processes: o.uint("processes"),
        output_bytes: o.uint("output_bytes"),
        enforced_by: o.enumeration("enforced_by"),
        timeout_kills: o.enumeration("timeout_kills"),
    })
}

fn concurrency(d: &mut Decoder, n: &Node, ptr: &str) -> Option<Concurrency> {
    let mut o = d.object(n, ptr, CONCURRENCY_KEYS)?;
    Some(Concurrency {
        max_jobs: o.uint("max_jobs"),
        release_after: o.enumeration("release_after"),
    })
}

fn dependencies(d: &mut Decoder, n: &Node, ptr: &str) -> Option<Dependencies> {
    let mut o = d.object(n, ptr, DEPENDENCIES_KEYS)?;
    Some(Dependencies {
        prepared_in: o.enumeration("prepared_in"),
        image: o.string("image"),
        fetch_stage: o.with("fetch_stage", |d, n, ptr| {
            let mut o = d.object(n, ptr, FETCH_STAGE_KEYS)?;
            Some(FetchStage {
                separate: o.boolean("separate"),
                network: o.enumeration("network"),
                credentials: o.string("credentials"),
                cache: o.string("cache"),
            })
        }),
        lockfile: o.string("lockfile"),
        install_hooks_reviewed: o.boolean("install_hooks_reviewed"),
        preserve_inputs: o.boolean("preserve_inputs"),
    })
}

fn artifacts(d: &mut Decoder, n: &Node, ptr: &str) -> Option<Artifacts> {
    let mut o = d.object(n, ptr, ARTIFACTS_KEYS)?;
    Some(Artifacts {
        collect: o.strings("collect"),
        max_bytes: o.uint("max_bytes"),
        log_max_bytes: o.uint("log_max_bytes"),
        treat_as_untrusted: o.boolean("treat_as_untrusted"),
    })
}

fn cleanup(d: &mut Decoder, n: &Node, ptr: &str) -> Option<Cleanup> {
    let mut o = d.object(n, ptr, CLEANUP_KEYS)?;
    Some(Cleanup {
        destroy_worker: o.boolean("destroy_worker"),
        expire_credentials: o.boolean("expire_credentials"),
        on_failure: o.enumeration("on_failure"),
        retain: o.strings("retain"),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::{parse, Limits};

    fn decode(s: &str) -> (Profile, Vec<Problem>) {
        let doc = parse(s.as_bytes(), Limits::default()).unwrap();
        profile(&doc.root)
    }

    #[test]
    fn unknown_field_gets_a_suggestion() {
        let (_, probs) =
            decode(r#"{"schema":"isolint.profile/v1","name":"x","boundary":{"priviliged":true}}"#);
        assert_eq!(probs.len(), 1);
        assert_eq!(probs[0].pointer, "/boundary/priviliged");
        assert_eq!(
            probs[0].describe(),
            "unknown field `priviliged`; did you mean `privileged`?"
        );
    }

    #[test]
    fn wrong_enum_lists_accepted_values() {
        let (p, probs) =
            decode(r#"{"schema":"isolint.profile/v1","name":"x","network":{"egress":"none"}}"#);
        assert_eq!(p.network.unwrap().egress, None);
        assert_eq!(probs[0].pointer, "/network/egress");
        assert!(probs[0]
            .describe()
            .contains("`deny`, `allow-list`, `allow-all`"));
    }

    /// A mount's `excludes` keeps only absolute paths strictly inside its
    /// target; any other is a problem at its own pointer and position.
    #[test]
    fn excludes_lie_strictly_inside_the_target() {
        // (target, excludes as JSON, kept, pointers of the problems)
        let rows: &[(&str, &str, &[&str], &[&str])] = &[
            ("/", r#"["/run"]"#, &["/run"], &[]),
            ("/", r#"["/run/", "/home"]"#, &["/run/", "/home"], &[]),
            ("/x", r#"["/x/sub"]"#, &["/x/sub"], &[]),
            ("/x/", r#"["/x//sub/."]"#, &["/x//sub/."], &[]),
            ("/x", r#"["sub"]"#, &[], &["/mounts/0/excludes/0"]),
            ("/x", r#"["/x/../y"]"#, &[], &["/mounts/0/excludes/0"]),
            ("/x", r#"["/x/sub/.."]"#, &[], &["/mounts/0/excludes/0"]),
            ("/x", r#"["/y"]"#, &[], &["/mounts/0/excludes/0"]),
            ("/x", r#"["/xy"]"#, &[], &["/mounts/0/excludes/0"]),
            ("/x", r#"["/x"]"#, &[], &["/mounts/0/excludes/0"]),
            ("/x", r#"["/x/"]"#, &[], &["/mounts/0/excludes/0"]),
            ("/", r#"["/"]"#, &[], &["/mounts/0/excludes/0"]),
            ("x", r#"["x/sub"]"#, &[], &["/mounts/0/excludes/0"]),
            ("/x/../y", r#"["/y/sub"]"#, &[], &["/mounts/0/excludes/0"]),
            (
                "/x",
                r#"["/x/a", 3, "/y"]"#,
                &["/x/a"],
                &["/mounts/0/excludes/1", "/mounts/0/excludes/2"],
            ),
            ("/x", r#"["/x/a\u0001"]"#, &[], &["/mounts/0/excludes/0"]),
            ("/x", r#""/x/a""#, &[], &["/mounts/0/excludes"]),
        ];
        let mut wrong = Vec::new();
        for (target, excludes, kept, at) in rows {
            let (p, probs) = decode(&format!(
                r#"{{"schema":"isolint.profile/v1","name":"x","mounts":[{{"source":"/a","target":"{target}","excludes":{excludes}}}]}}"#
            ));
            let m = p.mounts.unwrap_or_default();
            let got: Vec<&str> = m
                .first()
                .and_then(|m| m.excludes.as_deref())
                .unwrap_or(&[])
                .iter()
                .map(String::as_str)
                .collect();
            let ptrs: Vec<&str> = probs.iter().map(|p| p.pointer.as_str()).collect();
            if got != *kept || ptrs != *at || probs.iter().any(|p| p.pos.line != 1) {
                wrong.push(format!(
                    "{target} {excludes}: kept {got:?}, problems {ptrs:?}"
                ));
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
    fn array_slots_are_kept() {
        let (p, probs) =
            decode(r#"{"schema":"isolint.profile/v1","name":"x","mounts":[3, {"source":"/a"}]}"#);
        let m = p.mounts.unwrap();
        assert_eq!(m.len(), 2);
        assert_eq!(m[1].source.as_deref(), Some("/a"));
        assert_eq!(probs[0].pointer, "/mounts/0");
    }

    #[test]
    fn schema_is_required_and_names_must_be_visible() {
        let (_, probs) = decode(r#"{"name":"x"}"#);
        assert_eq!(
            probs.iter().map(|p| p.pointer.as_str()).collect::<Vec<_>>(),
            ["/schema"]
        );
        for name in [
            r"",
            r" ",
            r"\u200b",
            r"\u200b\u200d\u2060",
            r"\u00ad",
            r"\ufe0f",
            r"\u3164",
            r"\t\u202e",
            r"\udb40\udc20",
            r"\u0301",
            r"\u0301\u0308",
            r"\u200b\u0301\u20dd",
            r"\u3099\ufe20",
            r"\u00a0\u0300",
        ] {
            let doc = format!(r#"{{"schema":"isolint.profile/v1","name":"{name}"}}"#);
            let (_, probs) = decode(&doc);
            assert_eq!(
                probs.iter().map(|p| p.pointer.as_str()).collect::<Vec<_>>(),
                ["/name"],
                "{name:?}"
            );
        }
        for name in [
            r"x",
            r"\u200bx",
            r"build\u00a0job",
            r"e\u0301",
            r"\u00e9",
            r"\u2615",
            r"\u0915\u093f",
        ] {
            let doc = format!(r#"{{"schema":"isolint.profile/v1","name":"{name}"}}"#);
            assert!(decode(&doc).1.is_empty(), "{name:?}");
        }
    }

    #[test]
    fn bad_integers_and_missing_name() {
        let (_, probs) =
            decode(r#"{"limits":{"memory_bytes":-1,"cpu_seconds":1e400,"processes":1.5}}"#);
        let mut ptrs: Vec<_> = probs.iter().map(|p| p.pointer.as_str()).collect();
        ptrs.sort();
        assert_eq!(
            ptrs,
            [
                "/limits/cpu_seconds",
                "/limits/memory_bytes",
                "/limits/processes",
                "/name",
                "/schema"
            ]
        );
    }

    #[test]
    fn suggestions() {
        assert_eq!(suggest("egres", &["egress", "allow"]), Some("egress"));
        assert_eq!(
            suggest("read_only", &["read_only_root", "user"]),
            Some("read_only_root")
        );
        assert_eq!(suggest("zzzzzz", &["egress", "allow"]), None);
        assert_eq!(
            suggest("no-new-privileges", &["no_new_privileges"]),
            Some("no_new_privileges")
        );
    }
}
