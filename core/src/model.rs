//! The execution profile, `isolint.profile/v1`, as typed values.
//!
//! Every field is optional: a missing section is audited as "not declared"
//! by the rules, never treated as a safe default. Arrays keep one entry per
//! source element (an element that failed to decode keeps its slot with
//! every field `None`), so `/mounts/3` in a finding always means the fourth
//! element of the file.

/// A closed set of accepted strings, with the list used in error messages.
pub trait StringEnum: Sized + Copy + 'static {
    /// Accepted spellings, in documentation order.
    const VALUES: &'static [&'static str];
    fn parse(s: &str) -> Option<Self>;
    fn as_str(self) -> &'static str;
}

macro_rules! string_enum {
    ($(#[$m:meta])* $name:ident { $($variant:ident = $text:literal),+ $(,)? }) => {
        $(#[$m])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum $name { $($variant),+ }
        impl StringEnum for $name {
            const VALUES: &'static [&'static str] = &[$($text),+];
            fn parse(s: &str) -> Option<Self> {
                match s { $($text => Some($name::$variant),)+ _ => None }
            }
            fn as_str(self) -> &'static str {
                match self { $($name::$variant => $text),+ }
            }
        }
        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.as_str())
            }
        }
    };
}
pub(crate) use string_enum;

string_enum!(
    /// Who wrote the code that runs.
    Tenancy { Internal = "internal", Untrusted = "untrusted" }
);
string_enum!(
    /// The kind of boundary around the job.
    BoundaryKind {
        Process = "process",
        Container = "container",
        UserSpaceKernel = "user-space-kernel",
        MicroVm = "microvm",
        Vm = "vm",
        ExecutionService = "execution-service",
    }
);
impl BoundaryKind {
    /// Whether the job shares the host's kernel.
    pub fn shares_kernel(self) -> bool {
        matches!(self, BoundaryKind::Process | BoundaryKind::Container)
    }
}
string_enum!(
    /// A Linux namespace the job may share with the host.
    Namespace {
        Pid = "pid",
        Network = "network",
        Ipc = "ipc",
        Uts = "uts",
        User = "user",
        Mount = "mount",
        Cgroup = "cgroup",
    }
);
string_enum!(
    /// Whether a process sandbox lets the job connect to unix sockets it
    /// can see. `blocked`: connecting is refused unless a socket is allowed
    /// by name (and then mounted), so a socket merely exposed beneath a
    /// read-only mount cannot be used.
    UnixSockets { Blocked = "blocked", Allowed = "allowed" }
);
string_enum!(
    Seccomp { Default = "default", Custom = "custom", Unconfined = "unconfined" }
);
string_enum!(
    /// The terminal the job is attached to.
    ///
    /// `shared`: the job stays in the caller's session with the caller's
    /// controlling terminal, so `TIOCSTI`/`TIOCLINUX` can push keystrokes
    /// into the shell that started it. `pty`: a terminal is allocated for
    /// the job and relayed, input and output, to whoever attaches.
    /// `none`: the job is in its own session with no terminal of the
    /// caller's (bwrap `--new-session`, a detached container).
    Terminal { None = "none", Pty = "pty", Shared = "shared" }
);
string_enum!(
    /// How far a Linux security module (AppArmor, SELinux) confines the
    /// job: the runtime's `default` policy, a `custom` one, or none.
    Confinement { Default = "default", Custom = "custom", Unconfined = "unconfined" }
);
string_enum!(
    Access { ReadOnly = "read-only", ReadWrite = "read-write" }
);
string_enum!(
    Egress { Deny = "deny", AllowList = "allow-list", AllowAll = "allow-all" }
);
string_enum!(
    NetworkEnforcement {
        NetworkPolicy = "network-policy",
        Firewall = "firewall",
        Application = "application",
        Proxy = "proxy",
        None = "none",
    }
);
string_enum!(
    Dns { Pinned = "pinned", System = "system" }
);
string_enum!(
    CredentialSource { Broker = "broker", Static = "static", File = "file", Env = "env" }
);
string_enum!(
    CredentialScope { Task = "task", User = "user", Org = "org" }
);
string_enum!(
    Exposure { Job = "job", ModelContext = "model-context" }
);
string_enum!(
    LimitEnforcement {
        Cgroup = "cgroup",
        Rlimit = "rlimit",
        Vm = "vm",
        Request = "request",
        None = "none",
    }
);
string_enum!(
    TimeoutKills {
        ProcessGroup = "process-group",
        Cgroup = "cgroup",
        Environment = "environment",
        Parent = "parent",
    }
);
string_enum!(
    ReleaseAfter { Cleanup = "cleanup", Signal = "signal" }
);
string_enum!(
    PreparedIn { Image = "image", Artifact = "artifact", RuntimeFetch = "runtime-fetch" }
);
string_enum!(
    OnFailure { Ignore = "ignore", Retry = "retry", Alert = "alert", RetryThenAlert = "retry-then-alert" }
);

/// The schema identifier a profile may declare.
pub const PROFILE_SCHEMA: &str = "isolint.profile/v1";
/// The route a profile audits when it names none.
pub const DEFAULT_ROUTE: &str = "test isolation";

#[derive(Debug, Clone, Default, PartialEq)]
pub struct Profile {
    pub schema: Option<String>,
    pub name: Option<String>,
    pub route: Option<String>,
    pub purpose: Option<String>,
    pub tenancy: Option<Tenancy>,
    pub needs: Option<Needs>,
    pub boundary: Option<Boundary>,
    pub mounts: Option<Vec<Mount>>,
    pub network: Option<Network>,
    pub environment: Option<Environment>,
    pub credentials: Option<Vec<Credential>>,
    pub command: Option<Command>,
    pub setup: Option<Vec<Command>>,
    pub limits: Option<Limits>,
    pub concurrency: Option<Concurrency>,
    pub dependencies: Option<Dependencies>,
    pub artifacts: Option<Artifacts>,
    pub cleanup: Option<Cleanup>,
}

impl Profile {
    /// The route, defaulting to "test isolation".
    pub fn route(&self) -> &str {
        self.route.as_deref().unwrap_or(DEFAULT_ROUTE)
    }
    /// The mounts, or none.
    pub fn mounts(&self) -> &[Mount] {
        self.mounts.as_deref().unwrap_or(&[])
    }
    /// The setup steps, or none.
    pub fn setup(&self) -> &[Command] {
        self.setup.as_deref().unwrap_or(&[])
    }
    /// The credentials, or none.
    pub fn credentials(&self) -> &[Credential] {
        self.credentials.as_deref().unwrap_or(&[])
    }
    /// The main command (pointer `/command`) and every setup step
    /// (`/setup/N`), in that order: all of them run code.
    pub fn commands(&self) -> Vec<(String, &Command)> {
        let mut out = Vec::new();
        if let Some(c) = &self.command {
            out.push(("/command".to_string(), c));
        }
        for (i, c) in self.setup().iter().enumerate() {
            out.push((format!("/setup/{i}"), c));
        }
        out
    }
}

#[derive(Debug, Clone, Default, PartialEq)]
pub struct Needs {
    pub inputs: Option<Vec<String>>,
    pub outputs: Option<Vec<String>>,
    pub services: Option<Vec<String>>,
}

#[derive(Debug, Clone, Default, PartialEq)]
pub struct Boundary {
    pub kind: Option<BoundaryKind>,
    pub label: Option<String>,
    pub runtime: Option<Runtime>,
    pub privileged: Option<bool>,
    pub capabilities: Option<Capabilities>,
    pub user: Option<String>,
    pub no_new_privileges: Option<bool>,
    pub host_namespaces: Option<Vec<Option<Namespace>>>,
    pub seccomp: Option<Seccomp>,
    pub read_only_root: Option<bool>,
    pub terminal: Option<Terminal>,
    /// Whether the runtime masks the kernel's sensitive files under `/proc`
    /// and `/sys` and keeps `/proc/sys` and `/sys` read-only, as container
    /// runtimes do by default.
    pub masked_paths: Option<bool>,
    /// The paths of that masking the job can still reach (a partial
    /// `maskedPaths`/`readonlyPaths`, the host's `/proc`), when the source
    /// says exactly which; `masked_paths` is then `false`.
    pub unmasked_paths: Option<Vec<String>>,
    /// Whether the sandbox blocks connecting to unix sockets; undeclared
    /// means a visible socket can be connected to.
    pub unix_sockets: Option<UnixSockets>,
    pub apparmor: Option<Confinement>,
    pub selinux: Option<Confinement>,
    /// Host devices the job can open: a path (`/dev/kvm`), `*` for every
    /// device, `volume:NAME` for a raw block volume, or a device cgroup
    /// rule by number (`c 10:232`).
    pub devices: Option<Vec<String>>,
    /// Other containers whose process namespace the job shares (a pod's
    /// sidecars, a Compose `pid: service:NAME`).
    pub shares_pid_with: Option<Vec<String>>,
    /// Kernel parameters set for the job (`net.ipv4.ping_group_range`),
    /// name and value in source order.
    pub sysctls: Option<Vec<(String, String)>>,
    /// The OOM killer's adjustment for the job's processes (-1000..1000).
    pub oom_score_adj: Option<i64>,
    /// Whether the OOM killer is kept from killing the job (cgroup v1).
    pub oom_kill_disable: Option<bool>,
    /// Supplementary groups of the job's processes, by number or name.
    pub groups: Option<Vec<String>>,
}

#[derive(Debug, Clone, Default, PartialEq)]
pub struct Runtime {
    pub name: Option<String>,
    pub version: Option<String>,
    /// `YYYY-MM-DD` as written; see [`crate::date::Date`].
    pub patched_on: Option<String>,
}

#[derive(Debug, Clone, Default, PartialEq)]
pub struct Capabilities {
    pub add: Option<Vec<String>>,
    pub drop: Option<Vec<String>>,
}

#[derive(Debug, Clone, Default, PartialEq)]
pub struct Mount {
    pub source: Option<String>,
    pub target: Option<String>,
    pub access: Option<Access>,
    /// The part of the source the runtime mounts, resolved by the runtime
    /// at start (Kubernetes `subPath`/`subPathExpr`).
    pub sub_path: Option<String>,
    /// Paths inside `target` where something else is mounted on top, so
    /// the job does not see this mount there (a later `--tmpfs` over part
    /// of a bwrap bind). Decoding keeps only absolute paths strictly
    /// inside the target.
    pub excludes: Option<Vec<String>>,
}

#[derive(Debug, Clone, Default, PartialEq)]
pub struct Network {
    pub egress: Option<Egress>,
    pub enforced_by: Option<NetworkEnforcement>,
    pub allow: Option<Vec<AllowEntry>>,
    pub follow_redirects: Option<bool>,
    pub dns: Option<Dns>,
    /// Names the runtime pins to addresses in the job's hosts file
    /// (Kubernetes `hostAliases`, Compose `extra_hosts`), in source order.
    pub hosts: Option<Vec<(String, String)>>,
    /// Resolvers the job's names go to (Kubernetes `dnsConfig.nameservers`,
    /// Compose `dns`).
    pub resolvers: Option<Vec<String>>,
}

#[derive(Debug, Clone, Default, PartialEq)]
pub struct AllowEntry {
    pub host: Option<String>,
    pub port: Option<u64>,
    pub protocol: Option<String>,
}

#[derive(Debug, Clone, Default, PartialEq)]
pub struct Environment {
    pub inherit: Option<bool>,
    /// Name and value pairs in source order.
    pub variables: Option<Vec<(String, String)>>,
}

#[derive(Debug, Clone, Default, PartialEq)]
pub struct Credential {
    pub name: Option<String>,
    pub source: Option<CredentialSource>,
    pub scope: Option<CredentialScope>,
    pub ttl_seconds: Option<u64>,
    pub exposed_to: Option<Exposure>,
}

/// Either `executable` + `arguments`, or `shell` text.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Command {
    pub executable: Option<String>,
    pub arguments: Option<Vec<String>>,
    pub shell: Option<String>,
    /// The working directory the runtime starts it in.
    pub cwd: Option<String>,
}

impl Command {
    pub fn arguments(&self) -> &[String] {
        self.arguments.as_deref().unwrap_or(&[])
    }
}

#[derive(Debug, Clone, Default, PartialEq)]
pub struct Limits {
    pub wall_seconds: Option<u64>,
    pub cpu_seconds: Option<u64>,
    pub memory_bytes: Option<u64>,
    pub processes: Option<u64>,
    pub output_bytes: Option<u64>,
    pub enforced_by: Option<LimitEnforcement>,
    pub timeout_kills: Option<TimeoutKills>,
}

#[derive(Debug, Clone, Default, PartialEq)]
pub struct Concurrency {
    pub max_jobs: Option<u64>,
    pub release_after: Option<ReleaseAfter>,
}

#[derive(Debug, Clone, Default, PartialEq)]
pub struct Dependencies {
    pub prepared_in: Option<PreparedIn>,
    pub image: Option<String>,
    pub fetch_stage: Option<FetchStage>,
    pub lockfile: Option<String>,
    pub install_hooks_reviewed: Option<bool>,
    pub preserve_inputs: Option<bool>,
}

#[derive(Debug, Clone, Default, PartialEq)]
pub struct FetchStage {
    pub separate: Option<bool>,
    /// Same values as `network.egress`.
    pub network: Option<Egress>,
    /// Free text, e.g. "fetch-only", "shared".
    pub credentials: Option<String>,
    /// Free text, e.g. "read-only", "read-write", "none".
    pub cache: Option<String>,
}

#[derive(Debug, Clone, Default, PartialEq)]
pub struct Artifacts {
    pub collect: Option<Vec<String>>,
    pub max_bytes: Option<u64>,
    pub log_max_bytes: Option<u64>,
    pub treat_as_untrusted: Option<bool>,
}

#[derive(Debug, Clone, Default, PartialEq)]
pub struct Cleanup {
    pub destroy_worker: Option<bool>,
    pub expire_credentials: Option<bool>,
    pub on_failure: Option<OnFailure>,
    pub retain: Option<Vec<String>>,
}
