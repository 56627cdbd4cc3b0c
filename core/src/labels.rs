//! Trusted fixture labels (`isolint.labels/v1`) and the lexical index that
//! classifies mount sources against them.
//!
//! Everything here is lexical: paths are compared as strings of components.
//! Nothing is resolved on disk, so a symbolic link or a bind mount made at run
//! time can make the real target differ; that is why every sensitive match
//! also becomes a runtime check.

use std::collections::HashMap;

use crate::decode::{Decoder, Problem, ProblemKind};
use crate::json::Node;
use crate::model::{string_enum, StringEnum};

string_enum!(
    /// What a labelled host path is.
    LabelClass {
        SourceSnapshot = "source-snapshot",
        Scratch = "scratch",
        Output = "output",
        DependencyCache = "dependency-cache",
        TestService = "test-service",
        DeveloperHome = "developer-home",
        CredentialStore = "credential-store",
        ProductionSocket = "production-socket",
        ContainerEngineSocket = "container-engine-socket",
        ContainerEngineData = "container-engine-data",
        TrustedConfig = "trusted-config",
        System = "system",
    }
);

impl LabelClass {
    /// Sensitive whatever the access: reading alone can disclose secrets or
    /// hand over host authority.
    pub fn sensitive_to_read(self) -> bool {
        matches!(
            self,
            LabelClass::DeveloperHome
                | LabelClass::CredentialStore
                | LabelClass::ProductionSocket
                | LabelClass::ContainerEngineSocket
                | LabelClass::ContainerEngineData
        )
    }
    /// Sensitive when the job can write it.
    pub fn sensitive_to_write(self) -> bool {
        self.sensitive_to_read() || matches!(self, LabelClass::TrustedConfig | LabelClass::System)
    }
    /// Where a job may legitimately write.
    pub fn writable_by_design(self) -> bool {
        matches!(self, LabelClass::Scratch | LabelClass::Output)
    }
}

/// The schema identifier of a label catalog.
pub const LABELS_SCHEMA: &str = "isolint.labels/v1";

/// One trusted fixture label as declared in a catalog.
#[derive(Debug, Clone, PartialEq)]
pub struct Label {
    /// The path as written.
    pub path: String,
    pub class: LabelClass,
    /// Pointer of this entry in the catalog file (`/labels/N`).
    pub pointer: String,
}

/// A decoded label catalog.
#[derive(Debug, Clone, PartialEq)]
pub struct Catalog {
    pub name: String,
    pub labels: Vec<Label>,
}

/// The workshop catalog, embedded as the default.
pub const WORKSHOP_CATALOG: &str = include_str!("../../fixtures/labels/workshop.json");

impl Catalog {
    /// Decode a catalog document. Unlike a profile, a catalog is trusted
    /// configuration: any problem in it (unknown field, duplicate key, bad
    /// class, relative path) makes it unusable, so all problems are returned.
    pub fn from_json(
        root: &Node,
        duplicates: &[crate::json::Duplicate],
    ) -> Result<Catalog, Vec<Problem>> {
        let mut d = Decoder::default();
        for dup in duplicates {
            d.problems.push(Problem {
                pointer: dup.pointer.clone(),
                pos: dup.again,
                kind: ProblemKind::Repeated {
                    what: "duplicate key".into(),
                    first: dup.first,
                },
            });
        }
        let mut name = String::new();
        let mut labels = Vec::new();
        if let Some(mut o) = d.object(root, "", &["schema", "name", "labels"]) {
            if let Some(s) = o.string("schema") {
                if s != LABELS_SCHEMA {
                    let (n, ptr) = o
                        .field("schema")
                        .map(|(n, p)| (n.pos, p))
                        .unwrap_or_default();
                    problems_push(
                        &mut o,
                        ptr,
                        n,
                        ProblemKind::WrongSchema {
                            found: s,
                            expected: LABELS_SCHEMA,
                        },
                    );
                }
            }
            name = o.string("name").unwrap_or_else(|| "unnamed".into());
            let entries = o.with("labels", |d, n, ptr| {
                d.array(n, ptr, |d, n, p| {
                    let mut o = d.object(n, p, &["path", "label"])?;
                    let path = o.string("path");
                    let class = o.enumeration::<LabelClass>("label");
                    if o.field("label").is_none() {
                        let pos = n.pos;
                        problems_push(
                            &mut o,
                            format!("{p}/label"),
                            pos,
                            ProblemKind::Missing { what: "`label`" },
                        );
                    }
                    match path {
                        Some(path) if path.starts_with('/') => {
                            let pos = o.field("path").map_or(n.pos, |(n, _)| n.pos);
                            Some((path, class?, p.to_string(), pos))
                        }
                        Some(_) => {
                            let (pos, ptr) = o
                                .field("path")
                                .map(|(n, pp)| (n.pos, pp))
                                .unwrap_or_default();
                            problems_push(
                                &mut o,
                                ptr,
                                pos,
                                ProblemKind::Missing {
                                    what: "an absolute label `path`",
                                },
                            );
                            None
                        }
                        None => {
                            let pos = n.pos;
                            problems_push(
                                &mut o,
                                format!("{p}/path"),
                                pos,
                                ProblemKind::Missing { what: "`path`" },
                            );
                            None
                        }
                    }
                })
            });
            match entries {
                Some(entries) => {
                    for (path, class, pointer, pos) in entries.into_iter().flatten() {
                        labels.push((
                            Label {
                                path,
                                class,
                                pointer,
                            },
                            pos,
                        ));
                    }
                }
                None => {
                    if o.field("labels").is_none() {
                        let pos = root.pos;
                        problems_push(
                            &mut o,
                            "/labels".into(),
                            pos,
                            ProblemKind::Missing { what: "`labels`" },
                        );
                    }
                }
            }
        }
        conflicting_labels(&labels, &mut d.problems);
        if d.problems.is_empty() {
            let labels = labels.into_iter().map(|(l, _)| l).collect();
            Ok(Catalog { name, labels })
        } else {
            Err(d.problems)
        }
    }
}

/// A path labelled twice with different classes: which label applies
/// would depend on the entries' order, so the catalog is refused. The same
/// path is the same after normalization (`/srv/s`, `/srv//s/`, `/srv/x/../s`).
/// Repeating a path with the same class is harmless and accepted.
fn conflicting_labels(labels: &[(Label, crate::json::Pos)], problems: &mut Vec<Problem>) {
    let mut seen: rustc_hash::FxHashMap<String, (LabelClass, crate::json::Pos)> =
        rustc_hash::FxHashMap::default();
    for (label, pos) in labels {
        let key = normalize(&label.path).path;
        match seen.get(&key) {
            Some((class, first)) if *class != label.class => problems.push(Problem {
                pointer: format!("{}/path", label.pointer),
                pos: *pos,
                kind: ProblemKind::Repeated {
                    what: format!(
                        "`{}` is labelled `{}` here and `{}` before; a path takes one label",
                        crate::sanitize::neutralize(&label.path),
                        label.class.as_str(),
                        class.as_str()
                    ),
                    first: *first,
                },
            }),
            Some(_) => {}
            None => {
                seen.insert(key, (label.class, *pos));
            }
        }
    }
}

fn problems_push(
    o: &mut crate::decode::Obj<'_, '_>,
    pointer: String,
    pos: crate::json::Pos,
    kind: ProblemKind,
) {
    o.push_problem(Problem { pointer, pos, kind });
}

// Lexical path normalization lives below `decode`, which needs it for a
// mount's `excludes`; it is part of this module's interface as before.
pub use crate::pathnorm::{contains, normalize, NormalizedPath};

/// Where a classification came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Origin {
    /// A catalog label (index into [`Catalog::labels`]).
    Catalog(usize),
    /// A well-known location core knows without a catalog.
    BuiltIn(&'static str),
}

/// The label that classifies a path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Match {
    pub class: LabelClass,
    /// The normalized label path that matched.
    pub path: String,
    pub origin: Origin,
}

/// A sensitive location strictly inside a mounted path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Exposure {
    pub class: LabelClass,
    pub path: String,
    pub origin: Origin,
}

/// A classified mount source.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Classification {
    pub normalized: NormalizedPath,
    /// The longest label containing the path; `None` means unlabelled.
    pub matched: Option<Match>,
    /// Labels (catalog or built-in) strictly inside the path, sorted by path.
    pub exposes: Vec<Exposure>,
}

/// A sorted index over a catalog: classification costs one hash lookup per
/// path component plus a binary search, so many mounts against many labels
/// stays near-linear instead of mounts x labels.
#[derive(Debug, Clone)]
pub struct LabelIndex {
    by_path: HashMap<String, usize, PathHasher>,
    /// (normalized path, label index), sorted by path.
    sorted: Vec<(String, usize)>,
    /// The byte lengths of the label paths: ancestors of other lengths
    /// are not looked up.
    lengths: Lengths,
    catalog: Catalog,
}

/// How [`LabelIndex`] hashes paths: FxHash, a multiply per eight bytes,
/// since every ancestor of every mount is looked up. Its keys come from
/// the catalog, the trusted side, so no input chooses what collides.
type PathHasher = rustc_hash::FxBuildHasher;

/// Whether some label path has this many bytes, by length: an ancestor of
/// another length cannot be a label, so it is not hashed at all.
#[derive(Debug, Clone)]
struct Lengths(Vec<bool>);

impl Lengths {
    fn of<'a>(paths: impl Iterator<Item = &'a String> + Clone) -> Lengths {
        let mut seen = vec![false; paths.clone().map(String::len).max().map_or(0, |n| n + 1)];
        for n in paths {
            if let Some(seen) = seen.get_mut(n.len()) {
                *seen = true;
            }
        }
        Lengths(seen)
    }

    fn contains(&self, n: usize) -> bool {
        self.0.get(n).copied().unwrap_or(false)
    }
}

impl LabelIndex {
    pub fn new(catalog: Catalog) -> LabelIndex {
        let mut by_path =
            HashMap::with_capacity_and_hasher(catalog.labels.len(), PathHasher::default());
        let mut sorted = Vec::with_capacity(catalog.labels.len());
        let normalized = catalog.labels.iter().map(|l| normalize(&l.path).path);
        for (i, n) in normalized.enumerate() {
            // On a repeated path the later entry wins, like a later line in a
            // config file; both stay listed in the catalog.
            by_path.insert(n.clone(), i);
            sorted.push((n, i));
        }
        crate::sort::sort(&mut sorted);
        sorted.dedup_by(|a, b| a.0 == b.0);
        for entry in &mut sorted {
            if let Some(&i) = by_path.get(&entry.0) {
                entry.1 = i;
            }
        }
        let lengths = Lengths::of(by_path.keys());
        LabelIndex {
            by_path,
            sorted,
            lengths,
            catalog,
        }
    }

    pub fn catalog(&self) -> &Catalog {
        &self.catalog
    }

    /// Classify a declared source path.
    pub fn classify(&self, raw: &str) -> Classification {
        let normalized = normalize(raw);
        if normalized.relative {
            // Where it resolves is unknown, but an engine's socket or pipe
            // is one by its name (`./docker.sock`, `\\.\pipe\docker_engine`).
            return Classification {
                matched: builtin::engine_socket(&normalized.path),
                normalized,
                exposes: Vec::new(),
            };
        }
        if normalized.had_parent_refs {
            if let Some(m) = builtin::climbs_out_of_proc(raw) {
                return Classification {
                    normalized,
                    matched: Some(m),
                    exposes: Vec::new(),
                };
            }
        }
        let path = normalized.path.as_str();
        let (matched, exposes) = match builtin::proc_root_alias(path) {
            // `/proc/1/root/etc` is `/etc`: classified as that path, with
            // every path it reports written back under the alias, where
            // the mount's source has it.
            Some(n) => {
                let (alias, named) = path.split_at(n);
                let (matched, exposes) =
                    self.classify_host(if named.is_empty() { "/" } else { named });
                let back = |p: &str| {
                    if p == "/" {
                        alias.to_string()
                    } else {
                        format!("{}{}", alias, p)
                    }
                };
                (
                    matched.map(|m| Match {
                        path: back(&m.path),
                        ..m
                    }),
                    exposes
                        .into_iter()
                        .map(|e| Exposure {
                            path: back(&e.path),
                            ..e
                        })
                        .collect(),
                )
            }
            None => self.classify_host(path),
        };
        Classification {
            normalized,
            matched,
            exposes,
        }
    }

    /// The label of a normalized absolute host path, and what lies beneath it.
    fn classify_host(&self, path: &str) -> (Option<Match>, Vec<Exposure>) {
        let catalog_match = self.longest_catalog_match(path);
        let builtin_match = builtin::classify(path);
        let matched = match (catalog_match, builtin_match) {
            (Some(c), Some(b)) if b.path.len() > c.path.len() => Some(b),
            (Some(c), _) => Some(c),
            (None, b) => b,
        };
        let mut exposes = self.catalog_inside(path);
        for b in builtin::inside(path) {
            // A catalog label at or above a built-in location speaks for it.
            let covered = exposes.iter().any(|e| contains(&e.path, &b.path))
                || matched.as_ref().is_some_and(|m| {
                    matches!(m.origin, Origin::Catalog(_))
                        && contains(&m.path, &b.path)
                        && m.path != path
                });
            if !covered {
                exposes.push(b);
            }
        }
        crate::sort::sort_by(&mut exposes, |a, b| a.path.cmp(&b.path));
        (matched, exposes)
    }

    fn longest_catalog_match(&self, path: &str) -> Option<Match> {
        // Ancestors from the longest down; only lengths some label has are
        // hashed, so a path of many components costs one scan, not one
        // hash per component.
        let candidates = std::iter::once(path.len())
            .chain(path.rmatch_indices('/').map(|(i, _)| i).filter(|&i| i > 0))
            .chain(std::iter::once(1));
        for end in candidates {
            if !self.lengths.contains(end) {
                continue;
            }
            let Some(candidate) = path.get(..end) else {
                continue;
            };
            if let Some(&i) = self.by_path.get(candidate) {
                return self.catalog.labels.get(i).map(|l| Match {
                    class: l.class,
                    path: candidate.to_string(),
                    origin: Origin::Catalog(i),
                });
            }
        }
        None
    }

    fn catalog_inside(&self, path: &str) -> Vec<Exposure> {
        let prefix = descendant_prefix(path);
        let start = self
            .sorted
            .partition_point(|(p, _)| p.as_str() < prefix.as_str());
        self.sorted
            .get(start..)
            .unwrap_or(&[])
            .iter()
            .take_while(|(p, _)| p.starts_with(&prefix))
            .filter(|(p, _)| p != path)
            .filter_map(|(p, i)| {
                self.catalog.labels.get(*i).map(|l| Exposure {
                    class: l.class,
                    path: p.clone(),
                    origin: Origin::Catalog(*i),
                })
            })
            .collect()
    }
}

/// Well-known sensitive locations that no catalog should have to list.
pub mod builtin {
    use super::{contains, Exposure, LabelClass, Match, Origin};

    /// Socket file names of container engines.
    const ENGINE_SOCKETS: &[&str] = &[
        "docker.sock",
        "containerd.sock",
        "podman.sock",
        "crio.sock",
        "buildkitd.sock",
        "dockershim.sock",
        // Windows named pipes (`\\.\pipe\docker_engine`) of the same engines.
        "docker_engine",
        "dockerDesktopEngine",
        "dockerDesktopLinuxEngine",
        "containerd-containerd",
        "podman-machine-default",
    ];
    /// Directories that belong to container engines.
    pub(super) const ENGINE_DIRS: &[&str] = &[
        "/run/containerd",
        "/var/run/containerd",
        "/run/podman",
        "/var/run/podman",
        "/run/crio",
        "/var/run/crio",
        "/run/buildkit",
        "/var/run/buildkit",
        "/run/docker",
        "/var/run/docker",
    ];
    /// Data directories of container engines: other containers' logs,
    /// environment, configuration and file systems (no socket in them).
    pub(super) const ENGINE_DATA_DIRS: &[&str] = &[
        "/var/lib/docker",
        "/var/lib/containerd",
        "/var/lib/containers",
        "/var/lib/buildkit",
        "/var/log/containers",
        "/var/log/pods",
    ];
    /// Credential files and stores, relative to a home directory.
    const HOME_SECRETS: &[&str] = &[
        ".aws",
        ".azure",
        ".config/gcloud",
        ".docker/config.json",
        ".git-credentials",
        ".gnupg",
        ".kube",
        ".netrc",
        ".npmrc",
        ".pypirc",
        ".ssh",
    ];
    /// Host files and directories that hold credentials outside any home
    /// directory, with why. A directory counts as a whole: what it holds
    /// is the service's secret state. No profile's `needs` vouches for
    /// them (they are credential stores, not `system`).
    /// Where the Kubernetes importer places a pod's own volumes.
    pub(super) const POD_VOLUMES: &str = "/var/lib/kubelet/pods/<pod>/volumes";
    pub(super) const HOST_SECRETS: &[(&str, &str)] = &[
        // Service-account tokens and agent access handed to workloads.
        ("/var/run/secrets/kubernetes.io", "service credential mount"),
        ("/run/secrets/kubernetes.io", "service credential mount"),
        (
            "/var/run/secrets/eks.amazonaws.com",
            "service credential mount",
        ),
        ("/var/run/secrets", "service credential mount"),
        ("/run/secrets", "service credential mount"),
        // Session and system buses and service managers: whoever connects
        // asks them to start programs (as the session's user, or as root),
        // and a user's runtime directory also holds their gpg and ssh agents.
        ("/run/user", "user session: bus, service manager and agents"),
        (
            "/var/run/user",
            "user session: bus, service manager and agents",
        ),
        ("/run/dbus", "system bus"),
        ("/var/run/dbus", "system bus"),
        (
            "/run/systemd/private",
            "the system service manager's socket",
        ),
        (
            "/var/run/systemd/private",
            "the system service manager's socket",
        ),
        // Kubernetes: control-plane and kubelet kubeconfigs, the cluster
        // CA and keys, the kubelet's pod volumes, etcd (every Secret).
        ("/etc/kubernetes", "cluster credentials and PKI"),
        (
            "/var/lib/kubelet",
            "kubelet state: every pod's secrets and tokens",
        ),
        ("/var/lib/etcd", "etcd data: every cluster secret"),
        ("/etc/rancher", "k3s/RKE2 kubeconfig and node credentials"),
        ("/var/lib/rancher", "k3s/RKE2 server state and join tokens"),
        ("/var/lib/k0s", "k0s cluster state and credentials"),
        ("/var/snap/microk8s", "MicroK8s cluster credentials"),
        // Accounts and host keys.
        ("/etc/shadow", "password hashes"),
        ("/etc/shadow-", "password hashes"),
        ("/etc/gshadow", "password hashes"),
        ("/etc/gshadow-", "password hashes"),
        ("/etc/security/opasswd", "password hashes"),
        ("/etc/ssh/ssh_host_rsa_key", "ssh host key"),
        ("/etc/ssh/ssh_host_ecdsa_key", "ssh host key"),
        ("/etc/ssh/ssh_host_ed25519_key", "ssh host key"),
        ("/etc/ssl/private", "TLS private keys"),
        ("/etc/pki/tls/private", "TLS private keys"),
        ("/etc/letsencrypt", "TLS private keys"),
        ("/etc/krb5.keytab", "Kerberos host keys"),
        ("/etc/wireguard", "VPN private keys"),
        ("/etc/ipsec.secrets", "VPN private keys"),
        (
            "/etc/NetworkManager/system-connections",
            "network passwords",
        ),
        ("/var/lib/tailscale", "VPN node key"),
        // CI runners and agents: their registration tokens.
        ("/etc/gitlab-runner", "CI runner registration"),
        ("/etc/buildkite-agent", "CI agent registration"),
        ("/var/lib/buildkite-agent", "CI agent registration"),
        ("/var/lib/jenkins", "CI server credentials"),
        ("/var/jenkins_home", "CI server credentials"),
        // Cloud instance data and agents: user data, provisioning secrets.
        ("/var/lib/cloud", "cloud-init user data"),
        ("/var/lib/waagent", "cloud agent provisioning data"),
        ("/var/lib/amazon", "cloud agent registration"),
        // Kernel memory.
        ("/proc/kcore", "kernel memory"),
    ];
    /// File names that are a CI runner's registration wherever they lie
    /// (the GitHub Actions and Azure Pipelines runners write them into
    /// their install directory), and that directory's usual name.
    const RUNNER_FILES: &[&str] = &[".credentials", ".credentials_rsaparams", ".runner"];
    const RUNNER_DIR: &str = "actions-runner";
    /// What a process's own entries under `/proc/<pid>` hand over: its
    /// secrets or a way into it (`root` is resolved as an alias first).
    const PROC_ENTRIES: &[(&str, &str)] = &[
        ("cmdline", "another process's command line"),
        ("cwd", "another process's working directory"),
        ("environ", "another process's environment"),
        ("fd", "another process's open files"),
        ("map_files", "another process's mapped files"),
        ("mem", "another process's memory"),
        ("ns", "another process's namespaces"),
        ("root", "another process's root directory"),
    ];
    /// Directories of a home that hold other programs' state (browser
    /// profiles, tokens, keyrings): as much the home as the home itself.
    const HOME_STATE: &[&str] = &[
        ".cache",
        ".config",
        ".local",
        ".mozilla",
        ".thunderbird",
        ".var",
        "AppData",
        "Library",
        "snap",
    ];
    /// Where container engines' sockets usually are, for what a mount
    /// above them exposes.
    pub(super) const ENGINE_SOCKET_PATHS: &[&str] = &[
        "/var/run/docker.sock",
        "/run/containerd/containerd.sock",
        "/run/podman/podman.sock",
        "/var/run/crio/crio.sock",
        "/run/buildkit/buildkitd.sock",
    ];
    /// Host system trees.
    pub(super) const SYSTEM_TREES: &[&str] = &[
        "/etc", "/usr", "/bin", "/sbin", "/lib", "/lib64", "/boot", "/proc", "/sys", "/dev",
    ];

    /// The first component of every location the lists above name, and of
    /// the homes (`/root`, `/home`, `/Users`): a path under any other one
    /// is in none of them (a unit test holds the lists to it).
    pub(super) const TOPS: &[&str] = &[
        "run", "var", "etc", "usr", "bin", "sbin", "lib", "lib64", "boot", "proc", "sys", "dev",
        "root", "home", "Users",
    ];

    /// A path's first component (`srv` for `/srv/x`).
    pub(super) fn top(path: &str) -> &str {
        let rest = path.strip_prefix('/').unwrap_or(path);
        rest.split('/').next().unwrap_or("")
    }

    /// Whether a component under `/proc` names a process.
    fn is_pid(c: &str) -> bool {
        c == "self"
            || c == "thread-self"
            || (!c.is_empty() && c.len() <= 10 && c.bytes().all(|b| b.is_ascii_digit()))
    }

    /// A path in a process's directory: the length of `/proc/<pid>` (with
    /// `/task/<tid>` when present) and what follows it (empty or `/...`).
    fn proc_dir(path: &str) -> Option<(usize, &str)> {
        let rest = path.strip_prefix("/proc/")?;
        let pid = rest.split('/').next().unwrap_or("");
        if !is_pid(pid) {
            return None;
        }
        let mut len = "/proc/".len() + pid.len();
        let after_task = path.get(len..)?.strip_prefix("/task/");
        if let Some(tid) = after_task.map(|t| t.split('/').next().unwrap_or("")) {
            if is_pid(tid) {
                len += "/task/".len() + tid.len();
            }
        }
        Some((len, path.get(len..)?))
    }

    /// The length of the alias in front of a normalized path:
    /// `/proc/<pid>/root` (also through `task/<tid>`, and repeated) is that
    /// process's root, and a mount source is opened by the runner on the
    /// host, where it is the host's root. `path[n..]`, or `/` when empty, is
    /// the path it names.
    pub fn proc_root_alias(path: &str) -> Option<usize> {
        let mut end = 0;
        while let Some((len, after)) = path.get(end..).and_then(proc_dir) {
            match after.strip_prefix("/root") {
                Some(a) if a.is_empty() || a.starts_with('/') => end += len + "/root".len(),
                _ => break,
            }
        }
        (end > 0).then_some(end)
    }

    /// The host path a normalized source names: itself, or the path its
    /// `/proc/<pid>/root` alias leads to.
    pub fn host_path(path: &str) -> &str {
        match proc_root_alias(path).map(|n| path.get(n..).unwrap_or("")) {
            Some("") => "/",
            Some(rest) => rest,
            None => path,
        }
    }

    /// The entry of `/proc/<pid>` a path is or lies in, as the entry's
    /// path and what it hands over.
    fn proc_entry(path: &str) -> Option<(&str, &'static str)> {
        let (len, rest) = proc_dir(path)?;
        let entry = rest.strip_prefix('/')?.split('/').next().unwrap_or("");
        let (e, why) = PROC_ENTRIES.iter().find(|(e, _)| *e == entry)?;
        Some((path.get(..len + 1 + e.len())?, why))
    }

    /// A declared path that climbs with `..` out of a process's entry
    /// (`/proc/1/fd/3/../../etc`): the runtime resolves `..` from wherever
    /// the entry points, not back out of `/proc`, so the lexical result
    /// names nothing certain. Returns the entry it goes through.
    pub fn climbs_out_of_proc(raw: &str) -> Option<Match> {
        let mut stack: Vec<&str> = Vec::new();
        let mut through: Option<(String, &'static str)> = None;
        for c in raw.split('/') {
            match c {
                "" | "." => {}
                ".." => {
                    if let Some((entry, why)) = through.take() {
                        return Some(Match {
                            class: LabelClass::CredentialStore,
                            path: entry,
                            origin: Origin::BuiltIn(why),
                        });
                    }
                    stack.pop();
                }
                c => {
                    stack.push(c);
                    // Read on the components: joining them at every step
                    // would copy a long one again each time.
                    let entry = match stack.as_slice() {
                        ["proc", p, e] if is_pid(p) => Some(*e),
                        ["proc", p, "task", t, e] if is_pid(p) && is_pid(t) => Some(*e),
                        _ => None,
                    };
                    if let Some((_, why)) = entry
                        .filter(|_| through.is_none())
                        .and_then(|e| PROC_ENTRIES.iter().find(|(name, _)| *name == e))
                    {
                        through = Some((format!("/{}", stack.join("/")), *why));
                    }
                }
            }
        }
        None
    }

    /// The process directory whose entries a mount of `path` exposes:
    /// `path` itself for `/proc/<pid>` (or a task of it), pid 1's for all
    /// of `/proc`, a task's for `/proc/<pid>/task`.
    fn proc_dir_exposed(path: &str) -> Option<String> {
        if path == "/proc" {
            return Some("/proc/1".into());
        }
        let (_, rest) = proc_dir(path)?;
        match rest {
            "" => Some(path.to_string()),
            "/task" => {
                let pid = path.strip_prefix("/proc/")?.split('/').next()?;
                Some(format!("{}/{}", path, pid))
            }
            _ => None,
        }
    }

    /// A home's own state directory (`~/.config`, `~/.local/share`).
    fn in_home_state(home: &str, path: &str) -> bool {
        let rest = path.get(home.len()..).unwrap_or("");
        let first = rest.trim_start_matches('/').split('/').next().unwrap_or("");
        HOME_STATE.contains(&first)
    }

    /// The host credential store of the table containing `path`, the most
    /// specific one.
    fn host_secret(path: &str) -> Option<&'static (&'static str, &'static str)> {
        // The Kubernetes importer names a pod's own volume by where the
        // kubelet mounts it. That directory holds the one volume, not the
        // kubelet's state; it stays unlabelled, so MNT010 still blocks it.
        if contains(POD_VOLUMES, path) {
            return None;
        }
        HOST_SECRETS
            .iter()
            .filter(|(d, _)| contains(d, path))
            .max_by_key(|(d, _)| d.len())
    }

    /// The home directory a path lies in (`/root`, `/home/NAME`, `/Users/NAME`).
    pub fn home_of(path: &str) -> Option<&str> {
        if contains("/root", path) {
            return Some("/root");
        }
        for base in ["/home/", "/Users/"] {
            if let Some(rest) = path.strip_prefix(base) {
                let name_len = rest.find('/').unwrap_or(rest.len());
                if name_len > 0 {
                    return path.get(..base.len() + name_len);
                }
            }
        }
        None
    }

    /// `name` is the path's last component.
    fn is_agent_socket(path: &str, name: &str) -> bool {
        (name.starts_with("agent.") && path.contains("/ssh-"))
            || name == "ssh-agent.sock"
            || name.starts_with("S.gpg-agent")
            || (path.starts_with("/run/user/") && name == "bus")
            || name == "keyring"
    }

    /// An engine's socket or Windows pipe, known by its last component
    /// wherever it lies.
    pub fn engine_socket(path: &str) -> Option<Match> {
        let name = path.rsplit(['/', '\\']).next().unwrap_or("");
        ENGINE_SOCKETS.contains(&name).then(|| Match {
            class: LabelClass::ContainerEngineSocket,
            path: path.to_string(),
            origin: Origin::BuiltIn("container engine socket"),
        })
    }

    /// The most specific well-known location containing `path`.
    pub fn classify(path: &str) -> Option<Match> {
        let hit = |class, p: &str, why| {
            Some(Match {
                class,
                path: p.to_string(),
                origin: Origin::BuiltIn(why),
            })
        };
        let name = path.rsplit('/').next().unwrap_or("");
        if let Some(m) = engine_socket(path) {
            return Some(m);
        }
        // Below any other first component, only the name checks apply.
        let listed = TOPS.contains(&top(path));
        if let Some(dir) = ENGINE_DIRS.iter().find(|d| listed && contains(d, path)) {
            return hit(
                LabelClass::ContainerEngineSocket,
                dir,
                "container engine state",
            );
        }
        if let Some(dir) = ENGINE_DATA_DIRS
            .iter()
            .find(|d| listed && contains(d, path))
        {
            return hit(
                LabelClass::ContainerEngineData,
                dir,
                "container engine data directory",
            );
        }
        if is_agent_socket(path, name) {
            return hit(LabelClass::CredentialStore, path, "agent socket");
        }
        if RUNNER_FILES.contains(&name) || name == RUNNER_DIR {
            return hit(LabelClass::CredentialStore, path, "CI runner registration");
        }
        if !listed {
            return (path == "/").then(|| hit(LabelClass::System, "/", "host root"))?;
        }
        if let Some((s, why)) = host_secret(path) {
            return hit(LabelClass::CredentialStore, s, why);
        }
        if path
            .strip_prefix("/etc/ssh/ssh_host_")
            .is_some_and(|k| !k.contains('/') && !k.ends_with(".pub"))
        {
            return hit(LabelClass::CredentialStore, path, "ssh host key");
        }
        if let Some((entry, why)) = proc_entry(path) {
            return hit(LabelClass::CredentialStore, entry, why);
        }
        if let Some(home) = home_of(path) {
            for rel in HOME_SECRETS {
                let p = format!("{}/{}", home, rel);
                if contains(&p, path) {
                    return hit(
                        LabelClass::CredentialStore,
                        &p,
                        "credential store in a home directory",
                    );
                }
            }
            // A project directory or one file inside a home is what it
            // is, not the home: only the home itself, and the directories
            // where programs keep their state, hand over all of it.
            if path == home || in_home_state(home, path) {
                return hit(LabelClass::DeveloperHome, home, "home directory");
            }
            return None;
        }
        if path == "/home" || path == "/Users" {
            return hit(LabelClass::DeveloperHome, path, "all home directories");
        }
        if let Some(t) = SYSTEM_TREES.iter().find(|d| contains(d, path)) {
            return hit(LabelClass::System, t, "host system tree");
        }
        if path == "/" {
            return hit(LabelClass::System, "/", "host root");
        }
        None
    }

    /// Well-known sensitive locations strictly inside `path`. Homes are
    /// listed by their credential stores when the path is one home, and as
    /// `/home` itself when the mount is above all homes.
    pub fn inside(path: &str) -> Vec<Exposure> {
        let mut out = Vec::new();
        // Under a first component no list names (a data directory like
        // `/srv/...`, most mounts), nothing listed can lie (see `TOPS`).
        if path.len() > 1 && path.starts_with('/') && !TOPS.contains(&top(path)) {
            return out;
        }
        // Only the locations inside `path` are copied.
        let mut add = |class, p: &str, why| {
            if p != path && contains(path, p) {
                out.push(Exposure {
                    class,
                    path: p.to_string(),
                    origin: Origin::BuiltIn(why),
                });
            }
        };
        if let Some(home) = home_of(path) {
            for rel in HOME_SECRETS {
                add(
                    LabelClass::CredentialStore,
                    &format!("{}/{}", home, rel),
                    "credential store in a home directory",
                );
            }
        } else {
            for p in ["/home", "/root"] {
                add(LabelClass::DeveloperHome, p, "home directories");
            }
            // The outermost stores only: what lies in one is exposed with it.
            for (s, why) in HOST_SECRETS {
                let outermost = !HOST_SECRETS
                    .iter()
                    .any(|(o, _)| o != s && contains(o, s) && contains(path, o));
                if outermost {
                    add(LabelClass::CredentialStore, s, why);
                }
            }
            if let Some(dir) = proc_dir_exposed(path) {
                for (e, why) in PROC_ENTRIES {
                    add(LabelClass::CredentialStore, &format!("{}/{}", dir, e), why);
                }
            }
            for s in ENGINE_SOCKET_PATHS {
                add(
                    LabelClass::ContainerEngineSocket,
                    s,
                    "container engine socket",
                );
            }
            for s in ENGINE_DATA_DIRS {
                add(
                    LabelClass::ContainerEngineData,
                    s,
                    "container engine data directory",
                );
            }
        }
        out
    }
}

/// The prefix every path strictly inside the normalized `path` starts with.
pub(crate) fn descendant_prefix(path: &str) -> String {
    if path == "/" {
        "/".to_string()
    } else {
        format!("{}/", path)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::{parse, Limits};

    fn workshop() -> LabelIndex {
        let doc = parse(WORKSHOP_CATALOG.as_bytes(), Limits::default()).unwrap();
        LabelIndex::new(Catalog::from_json(&doc.root, &doc.duplicates).unwrap())
    }

    fn catalog_of(entries: &[(&str, &str)]) -> Result<Catalog, Vec<Problem>> {
        let labels: Vec<String> = entries
            .iter()
            .map(|(p, l)| format!("{{\"path\": \"{p}\", \"label\": \"{l}\"}}"))
            .collect();
        let text = format!(
            "{{\"schema\": \"{LABELS_SCHEMA}\", \"name\": \"t\", \"labels\": [\n{}\n]}}",
            labels.join(",\n")
        );
        let doc = parse(text.as_bytes(), Limits::default()).unwrap();
        Catalog::from_json(&doc.root, &doc.duplicates)
    }

    /// A path labelled twice with different classes is refused at the
    /// second entry, naming the first: otherwise the entries' order picks
    /// the label, and a writable `credential-store` passes as `scratch`.
    #[test]
    fn a_path_takes_one_label() {
        for (second, conflicts) in [
            ("/srv/s", true),
            ("/srv/s/", true),
            ("/srv//s", true),
            ("/srv/./s", true),
            ("/srv/x/../s", true),
            ("/srv/s/t", false),
            ("/srv", false),
            ("/srv/S", false),
        ] {
            for (first_class, second_class) in [
                ("credential-store", "scratch"),
                ("scratch", "credential-store"),
            ] {
                let got = catalog_of(&[
                    ("/srv/a", "output"),
                    ("/srv/s", first_class),
                    (second, second_class),
                ]);
                match got {
                    Err(problems) => {
                        assert!(conflicts, "{second}: {problems:?}");
                        let [p] = problems.as_slice() else {
                            panic!("{second}: {problems:?}")
                        };
                        assert_eq!(p.pointer, "/labels/2/path");
                        assert_eq!((p.pos.line, p.pos.column), (4, 10), "{second}");
                        let text = p.describe();
                        assert!(text.contains(&format!("`{second_class}` here")), "{text}");
                        assert!(text.contains(&format!("`{first_class}` before")), "{text}");
                        assert!(text.ends_with("first given at line 3, column 10"), "{text}");
                    }
                    Ok(_) => assert!(!conflicts, "{second} {second_class}: accepted"),
                }
            }
            // The same class twice says nothing new: accepted.
            assert!(catalog_of(&[("/srv/s", "scratch"), (second, "scratch")]).is_ok());
        }
    }

    #[test]
    fn a_duplicate_key_names_where_it_was_first() {
        let text = br#"{"schema": "isolint.labels/v1", "name": "x", "labels": [{"path": "/srv/s", "path": "/home", "label": "scratch"}]}"#;
        let doc = parse(text, Limits::default()).unwrap();
        let problems = Catalog::from_json(&doc.root, &doc.duplicates).unwrap_err();
        let text = problems[0].describe();
        assert_eq!(
            text,
            "duplicate key; it was first given at line 1, column 58"
        );
    }

    #[test]
    fn normalization() {
        let n = normalize("/srv//workshop/./scratch/../scratch/");
        assert_eq!(n.path, "/srv/workshop/scratch");
        assert!(n.had_parent_refs && n.collapsed && !n.relative);
        let n = normalize("/../../etc");
        assert_eq!(n.path, "/etc");
        assert!(n.escaped_root);
        assert!(normalize("~/x").relative);
        assert!(normalize("C:\\Users").relative);
        assert_eq!(normalize("/").path, "/");
        assert!(!normalize("/a/b").collapsed);
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(2000))]
        /// The shortcut for paths already in normal form answers exactly
        /// what the component-by-component walk does.
        #[test]
        fn the_shortcut_agrees_with_the_walk(
            parts in proptest::collection::vec(proptest::prop_oneof![
                proptest::strategy::Just("/"), proptest::strategy::Just("."),
                proptest::strategy::Just(".."), proptest::strategy::Just("a"),
                proptest::strategy::Just("srv"), proptest::strategy::Just("~"),
                proptest::strategy::Just("\u{85}"), proptest::strategy::Just("\u{a0}"),
                proptest::strategy::Just("\0"), proptest::strategy::Just("\u{7f}"),
                proptest::strategy::Just(".x"), proptest::strategy::Just("x."),
            ], 0..10)
        ) {
            let raw: String = parts.concat();
            proptest::prop_assert_eq!(normalize(&raw), crate::pathnorm::normalize_slow(&raw), "{:?}", raw);
        }
    }

    #[test]
    fn every_listed_location_is_under_a_known_first_component() {
        let lists = [
            builtin::ENGINE_DIRS,
            builtin::ENGINE_DATA_DIRS,
            &builtin::HOST_SECRETS
                .iter()
                .map(|(p, _)| *p)
                .collect::<Vec<_>>()[..],
            builtin::SYSTEM_TREES,
            builtin::ENGINE_SOCKET_PATHS,
            &["/root", "/home/x", "/Users/x"][..],
        ];
        for p in lists.iter().flat_map(|l| l.iter()) {
            assert!(builtin::TOPS.contains(&builtin::top(p)), "{p}");
        }
        assert_eq!(builtin::top("/srv/x"), "srv");
        assert_eq!(builtin::top("/"), "");
        // Outside those, only the names decide.
        assert!(builtin::classify("/srv/x").is_none());
        assert!(builtin::classify("/srv/docker.sock").is_some());
        for pipe in [
            r"\\.\pipe\docker_engine",
            r"\\.\pipe\dockerDesktopLinuxEngine",
            r"\\.\pipe\containerd-containerd",
            r"\\.\pipe\podman-machine-default",
        ] {
            let m = builtin::classify(pipe).unwrap_or_else(|| panic!("{pipe}"));
            assert_eq!(m.class, LabelClass::ContainerEngineSocket, "{pipe}");
        }
        assert!(builtin::classify(r"\\.\pipe\some_app").is_none());
        assert!(builtin::classify("/tmp/ssh-abc/agent.123").is_some());
        assert!(builtin::classify("/").is_some());
        // Nothing listed lies under another first component; above them,
        // everything does.
        assert!(builtin::inside("/srv").is_empty());
        assert!(builtin::inside("/srv/x/y").is_empty());
        // The secrets directory (whose service-account tokens lie in it),
        // the user sessions, the system bus, the service manager's socket,
        // two engine sockets.
        assert_eq!(builtin::inside("/var/run").len(), 6);
        assert!(builtin::inside("/").len() > 10);
    }

    /// `/proc/<pid>/root` is that process's root: what follows it is the
    /// host path named, however often the alias is repeated.
    #[test]
    fn proc_root_aliases() {
        for (path, named) in [
            ("/proc/1/root", "/"),
            ("/proc/self/root/etc", "/etc"),
            ("/proc/thread-self/root/home/u", "/home/u"),
            ("/proc/1/task/7/root/etc", "/etc"),
            ("/proc/1/root/proc/self/root/root/.ssh", "/root/.ssh"),
            ("/proc/1/rootfs", "/proc/1/rootfs"),
            ("/proc/1/task/root", "/proc/1/task/root"),
            ("/proc/sys/root", "/proc/sys/root"),
            ("/proc/x1/root", "/proc/x1/root"),
            ("/srv/proc/1/root", "/srv/proc/1/root"),
            ("/proc", "/proc"),
        ] {
            assert_eq!(builtin::host_path(path), named, "{path}");
        }
        let idx = workshop();
        let c = idx.classify("/proc/1/root/home/botie/.aws/config");
        let m = c.matched.unwrap();
        assert_eq!(m.class, LabelClass::CredentialStore);
        assert_eq!(m.path, "/proc/1/root/home/botie/.aws");
        assert!(matches!(m.origin, Origin::Catalog(_)));
        let c = idx.classify("/proc/1/root");
        assert_eq!(c.matched.unwrap().path, "/proc/1/root");
        assert!(c
            .exposes
            .iter()
            .any(|e| e.path == "/proc/1/root/var/run/docker.sock"));
        assert!(c
            .exposes
            .iter()
            .any(|e| e.path == "/proc/1/root/etc/shadow"));
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(1000))]
        /// Through `/proc/<pid>/root`, any path is classified as the path
        /// itself, every reported path under the alias.
        #[test]
        fn an_alias_classifies_as_the_path_it_names(
            parts in proptest::collection::vec(proptest::prop_oneof![
                proptest::strategy::Just("home"), proptest::strategy::Just("botie"),
                proptest::strategy::Just("u"), proptest::strategy::Just(".aws"),
                proptest::strategy::Just(".config"), proptest::strategy::Just("etc"),
                proptest::strategy::Just("shadow"), proptest::strategy::Just("kubernetes"),
                proptest::strategy::Just("var"), proptest::strategy::Just("run"),
                proptest::strategy::Just("docker.sock"), proptest::strategy::Just("lib"),
                proptest::strategy::Just("srv"), proptest::strategy::Just("workshop"),
                proptest::strategy::Just("scratch"), proptest::strategy::Just("proc"),
                proptest::strategy::Just("1"), proptest::strategy::Just("root"),
                proptest::strategy::Just("environ"), proptest::strategy::Just("dev"),
            ], 0..6),
            alias in proptest::prop_oneof![
                proptest::strategy::Just("/proc/1/root"),
                proptest::strategy::Just("/proc/self/root"),
                proptest::strategy::Just("/proc/7/task/7/root"),
            ],
        ) {
            let idx = workshop();
            let plain = format!("/{}", parts.join("/"));
            let direct = idx.classify(&plain);
            let through = idx.classify(&format!("{}{}", alias, plain));
            let under = |p: &str| if p == "/" { alias.to_string() } else { format!("{}{}", alias, p) };
            proptest::prop_assert_eq!(
                direct.matched.map(|m| (m.class, under(&m.path))),
                through.matched.map(|m| (m.class, m.path))
            );
            let want: Vec<_> = direct.exposes.iter().map(|e| (e.class, under(&e.path))).collect();
            let got: Vec<_> = through.exposes.iter().map(|e| (e.class, e.path.clone())).collect();
            proptest::prop_assert_eq!(want, got);
        }
    }

    /// The user's session directory and the buses and managers beside
    /// it: whoever connects runs code as that user (or as root).
    #[test]
    fn session_sockets_are_credential_stores() {
        let cases: &[(&str, bool)] = &[
            ("/run/user/1000", true),
            ("/run/user/0", true),
            ("/run/user/1001/bus", true),
            ("/run/user/1000/systemd/private", true),
            ("/run/user/1000/gnupg/S.gpg-agent", true),
            ("/run/user/1000/keyring/ssh", true),
            ("/var/run/user/1000", true),
            ("/run/user", true),
            ("/run/dbus", true),
            ("/run/dbus/system_bus_socket", true),
            ("/var/run/dbus", true),
            ("/run/systemd/private", true),
            ("/var/run/systemd/private", true),
            ("/run/users", false),
            ("/run/lock", false),
            ("/run/systemd/resolve/stub-resolv.conf", false),
        ];
        let wrong: Vec<_> = cases
            .iter()
            .filter(|(p, want)| {
                let got =
                    builtin::classify(p).is_some_and(|m| m.class == LabelClass::CredentialStore);
                got != *want
            })
            .collect();
        assert!(
            wrong.is_empty(),
            "{} of {} wrong: {wrong:?}",
            wrong.len(),
            cases.len()
        );
        // Mounting `/run` exposes each of them.
        let inside: Vec<String> = builtin::inside("/run")
            .into_iter()
            .map(|e| e.path)
            .collect();
        for p in ["/run/user", "/run/dbus", "/run/systemd/private"] {
            assert!(
                inside.iter().any(|i| i == p),
                "{p} not exposed by /run: {inside:?}"
            );
        }
    }

    #[test]
    fn component_wise_containment() {
        assert!(contains("/home/botie", "/home/botie/.aws"));
        assert!(!contains("/home/botie", "/home/botie2"));
        assert!(!contains("/var", "/variable"));
        assert!(contains("/", "/anything"));
    }

    #[test]
    fn longest_match_and_exposure() {
        let idx = workshop();
        let c = idx.classify("/home/botie/.aws/credentials");
        assert_eq!(c.matched.unwrap().class, LabelClass::CredentialStore);
        let c = idx.classify("/home/botie");
        assert_eq!(c.matched.as_ref().unwrap().class, LabelClass::DeveloperHome);
        assert!(c
            .exposes
            .iter()
            .any(|e| e.path == "/home/botie/.aws" && matches!(e.origin, Origin::Catalog(_))));
        // built-in stores under the home are exposed too, except where the catalog already speaks
        assert!(c.exposes.iter().any(|e| e.path == "/home/botie/.ssh"));
        assert_eq!(
            c.exposes
                .iter()
                .filter(|e| e.path == "/home/botie/.aws")
                .count(),
            1
        );
        let c = idx.classify("/home/botie2");
        assert_eq!(c.matched.unwrap().origin, Origin::BuiltIn("home directory"));
        let c = idx.classify("/srv/elsewhere");
        assert!(c.matched.is_none());
        let c = idx.classify("/srv/workshop/scratch/job-1");
        assert_eq!(c.matched.unwrap().class, LabelClass::Scratch);
    }

    #[test]
    fn builtins() {
        let idx = workshop();
        assert_eq!(
            idx.classify("/run/containerd/containerd.sock")
                .matched
                .unwrap()
                .class,
            LabelClass::ContainerEngineSocket
        );
        assert_eq!(
            idx.classify("/root/.kube/config").matched.unwrap().class,
            LabelClass::CredentialStore
        );
        assert_eq!(
            idx.classify("/tmp/ssh-XYZ/agent.123")
                .matched
                .unwrap()
                .class,
            LabelClass::CredentialStore
        );
        assert_eq!(
            idx.classify("/var/run/secrets/kubernetes.io/serviceaccount")
                .matched
                .unwrap()
                .class,
            LabelClass::CredentialStore
        );
        assert_eq!(
            idx.classify("/etc/passwd").matched.unwrap().class,
            LabelClass::System
        );
        // the catalog's own label wins at equal depth
        assert_eq!(
            idx.classify("/etc/runner").matched.unwrap().class,
            LabelClass::TrustedConfig
        );
        let root = idx.classify("/");
        assert!(root
            .exposes
            .iter()
            .any(|e| e.path == "/var/run/docker.sock"));
        assert!(root.exposes.iter().any(|e| e.path == "/home/botie/.aws"));
    }
}
