//! Rules of the mount areas. Each finding lands in `writable-mounts` or
//! `read-only-mounts` by the mount's access ([`MountView::area`]), so
//! writable mounts are always reviewed apart.
//!
//! Every comparison is lexical (see [`crate::labels`]): a finding says what
//! the declared paths mean against the catalog, and the rule's runtime check
//! asks the verifier to confirm it on the launched environment.

use super::paths::{self, Nesting, PathSet, Source};
use super::{Ctx, Emitter, MountView, Rule};
use crate::finding::{evidence_object, Area, CheckKind, Severity};
use crate::labels::{builtin, contains, normalize, LabelClass, Match, NormalizedPath, Origin};
use crate::model::StringEnum;

/// Evidence lists stay small; their full length is given beside them.
const EVIDENCE_LIST_MAX: usize = 20;

/// How a mount's access reads in messages and evidence.
fn access(v: &MountView<'_>) -> &'static str {
    match v.mount.access {
        Some(a) => a.as_str(),
        None => "not declared",
    }
}

/// A note for messages about writability when the access is only implied.
fn implied(v: &MountView<'_>) -> &'static str {
    if v.mount.access.is_none() {
        " (access is not declared, so the runner's default, usually read-write, applies)"
    } else {
        ""
    }
}

fn origin(m: &Match) -> String {
    match m.origin {
        Origin::Catalog(_) => "catalog".into(),
        Origin::BuiltIn(why) => format!("built-in: {why}"),
    }
}

/// The mounts with a source, paired with what that source is.
fn sources<'a>(ctx: &'a Ctx<'_>) -> impl Iterator<Item = (&'a MountView<'a>, Source<'a>)> + 'a {
    ctx.mounts.iter().filter_map(|v| v.source().map(|s| (v, s)))
}

/// A mount whose source is itself a sensitive class: reported whatever the
/// access, because reading alone discloses secrets or hands over the host.
fn sensitive_source(
    ctx: &Ctx<'_>,
    e: &mut Emitter,
    class: LabelClass,
    what: &str,
    consequence: &str,
) {
    for (v, s) in sources(ctx) {
        let Some(m) = s.matched.as_ref().filter(|m| m.class == class) else {
            continue;
        };
        let place = if m.path == s.path {
            format!("is {}", what)
        } else {
            format!("lies inside {} `{}`", what, m.path)
        };
        let ro = if v.writable() {
            ""
        } else {
            ", even though the mount is read-only"
        };
        let d = e
            .emit(
                v.field("source"),
                format!("`{}` {}; {}{}", s.path, place, consequence, ro),
            )
            .area(v.area());
        d.evidence("class", class.as_str())
            .evidence("label_path", m.path.as_str())
            .evidence("label_origin", origin(m))
            .evidence("access", access(v));
        if let Some(why) = s.guessed_from {
            d.evidence("guessed_because", why);
        }
        let host = builtin::host_path(s.path);
        if host != s.path && !s.normalized.relative {
            d.evidence("host_path", host);
        }
        if let Some(t) = paths::in_job(s.path, v.target.as_ref(), s.path) {
            d.evidence("job_path", t);
        }
    }
}

/// The label classes the job says it requires; `None` when `needs` is not
/// declared at all.
fn needed_classes(ctx: &Ctx<'_>) -> Option<Vec<LabelClass>> {
    let n = ctx.profile.needs.as_ref()?;
    // A list, only ever asked whether it holds a class: a handful of
    // entries, and no set type of its own in the page's wasm.
    Some(
        [&n.inputs, &n.outputs, &n.services]
            .into_iter()
            .flat_map(|l| l.as_deref().unwrap_or(&[]))
            .filter_map(|s| LabelClass::parse(s))
            .collect(),
    )
}

/// A writable mount of a class that is neither scratch/output nor one of
/// the classes other rules already report as sensitive.
fn writable_not_scratch(v: &MountView<'_>, s: Source<'_>) -> Option<LabelClass> {
    let c = s.class()?;
    (v.writable() && !c.writable_by_design() && !c.sensitive_to_write()).then_some(c)
}

/// One way a writable mount meets trusted configuration.
struct ConfigOverlap {
    /// `source` or `target`.
    via: &'static str,
    /// The mount's path the relation is about.
    subject: String,
    relation: &'static str,
    path: String,
    class: LabelClass,
}

fn config_class(c: LabelClass) -> bool {
    matches!(c, LabelClass::TrustedConfig | LabelClass::System)
}

/// Where a writable mount meets trusted configuration or a host system
/// tree: its source is, lies inside or contains one, or its target
/// overlaps a trusted-config label. (System targets are MNT014's.)
fn config_overlaps(
    v: &MountView<'_>,
    s: Option<Source<'_>>,
    trusted: &PathSet,
) -> Vec<ConfigOverlap> {
    let mut out = Vec::new();
    if !v.writable() {
        return out;
    }
    if let Some(s) = s.filter(|s| !s.normalized.relative) {
        match s.matched.as_ref() {
            Some(m) if config_class(m.class) => {
                out.push(ConfigOverlap {
                    via: "source",
                    subject: s.path.to_string(),
                    relation: "is",
                    path: m.path.clone(),
                    class: m.class,
                });
            }
            _ => {
                for p in trusted.enclosing(s.path) {
                    out.push(ConfigOverlap {
                        via: "source",
                        subject: s.path.to_string(),
                        relation: "lies inside",
                        path: p,
                        class: LabelClass::TrustedConfig,
                    });
                }
                if let Some(b) = builtin::classify(s.path).filter(|b| config_class(b.class)) {
                    out.push(ConfigOverlap {
                        via: "source",
                        subject: s.path.to_string(),
                        relation: "lies inside",
                        path: b.path,
                        class: b.class,
                    });
                }
            }
        }
        for x in s.exposes.iter().filter(|x| config_class(x.class)) {
            out.push(ConfigOverlap {
                via: "source",
                subject: s.path.to_string(),
                relation: "contains",
                path: x.path.clone(),
                class: x.class,
            });
        }
    }
    if let Some(t) = v.target.as_ref().filter(|t| !t.relative) {
        for p in trusted
            .enclosing(&t.path)
            .into_iter()
            .chain(trusted.inside(&t.path))
        {
            out.push(ConfigOverlap {
                via: "target",
                subject: t.path.clone(),
                relation: "overlaps",
                path: p,
                class: LabelClass::TrustedConfig,
            });
        }
    }
    out
}

/// Files that something outside the job later executes or trusts, by what
/// usually holds them.
const REPO_FILES: &[&str] = &[
    ".git/hooks/",
    ".git/config",
    ".github/workflows/",
    ".gitlab-ci.yml",
    ".pre-commit-config.yaml",
    ".npmrc",
    ".cargo/config.toml",
];
const HOME_FILES: &[&str] = &[
    ".bashrc",
    ".bash_profile",
    ".profile",
    ".zshrc",
    ".gitconfig",
    ".npmrc",
    ".pypirc",
    ".config/pip/pip.conf",
    ".cargo/config.toml",
];
const CACHE_FILES: &[&str] = &[
    "cached packages and wheels",
    "build scripts and install hooks of cached packages",
];
/// Path components that mark such a location wherever it is mounted.
const MARKERS: &[(&str, &[&str])] = &[
    (".git", &[".git/hooks/", ".git/config"]),
    (".github", &[".github/workflows/"]),
    (".bashrc", &[".bashrc"]),
    (".bash_profile", &[".bash_profile"]),
    (".profile", &[".profile"]),
    (".zshrc", &[".zshrc"]),
    (".zprofile", &[".zprofile"]),
    (".gitconfig", &[".gitconfig"]),
    (".gitlab-ci.yml", &[".gitlab-ci.yml"]),
    (".npmrc", &[".npmrc"]),
    (".pypirc", &[".pypirc"]),
    ("pip.conf", &["pip.conf"]),
    (".cargo", &[".cargo/config.toml"]),
    (".pre-commit-config.yaml", &[".pre-commit-config.yaml"]),
];

/// Targets where runners and dev containers conventionally mount the
/// repository being worked on.
const CHECKOUT_TARGETS: &[&str] = &[
    "/workspace",
    "/workspaces",
    "/repo",
    "/src",
    "/code",
    "/project",
    "/github/workspace",
    "/builds",
];

fn is_checkout_target(path: &str) -> bool {
    let p = format!("/{}", path.trim_start_matches('/'));
    CHECKOUT_TARGETS.contains(&p.as_str())
        || p.strip_prefix("/workspaces/")
            .is_some_and(|r| !r.contains('/'))
}

/// What a writable mount lets the job plant for later runs, and why.
fn plantable(v: &MountView<'_>, s: Option<Source<'_>>) -> (Vec<&'static str>, Vec<String>) {
    let mut files: Vec<&'static str> = Vec::new();
    let mut why: Vec<String> = Vec::new();
    if !v.writable() {
        return (files, why);
    }
    if let Some(s) = s {
        match s.class() {
            Some(LabelClass::SourceSnapshot) => {
                files.extend(REPO_FILES);
                why.push("the source is a repository snapshot".into());
            }
            Some(LabelClass::DeveloperHome) => {
                files.extend(HOME_FILES);
                why.push("the source is a home directory".into());
            }
            Some(LabelClass::DependencyCache) => {
                files.extend(CACHE_FILES);
                why.push("the source is a dependency cache".into());
            }
            _ => {}
        }
        if s.exposes
            .iter()
            .any(|x| x.class == LabelClass::DeveloperHome)
        {
            files.extend(HOME_FILES);
            why.push("the source contains home directories".into());
        }
    }
    let target = v
        .mount
        .target
        .as_deref()
        .map(normalize)
        .filter(|t| !t.relative);
    // A repository nobody labelled: the directory the job was launched
    // from (`.`, `$PWD`), or a conventional checkout target, is usually a
    // checkout whose hooks and config the developer's next `git status`
    // obeys. Labels cannot tell, so an unlabelled one counts as one.
    if s.and_then(|s| s.class()).is_none() {
        if let Some(src) = s.filter(|s| s.normalized.relative && s.guessed_from.is_none()) {
            files.extend(REPO_FILES);
            why.push(format!(
                "the source `{}` is the launch directory, usually a checkout",
                src.path
            ));
        }
        if let Some(t) = target.as_ref().filter(|t| is_checkout_target(&t.path)) {
            files.extend(REPO_FILES);
            why.push(format!(
                "the target `{}` is where checkouts are usually mounted",
                t.path
            ));
        }
    }
    if let Some(t) = &target {
        if builtin::home_of(&t.path) == Some(t.path.as_str()) {
            files.extend(HOME_FILES);
            why.push(format!("the target `{}` is a home directory", t.path));
        }
    }
    let paths = [s.map(|s| s.path.to_string()), target.map(|t| t.path)];
    for p in paths.iter().flatten() {
        for comp in p.split('/') {
            if let Some((name, f)) = MARKERS.iter().find(|(n, _)| *n == comp) {
                files.extend(*f);
                why.push(format!("`{p}` includes `{name}`"));
            }
        }
    }
    // The first of each file, in order (a few dozen names at most).
    let mut seen: Vec<&str> = Vec::new();
    files.retain(|f| {
        let first = !seen.contains(f);
        if first {
            seen.push(f);
        }
        first
    });
    why.dedup();
    (files, why)
}

/// Whether the writability of a mount is already reported by a blocking
/// rule, so an undeclared access need not be reported again.
fn writability_reported(v: &MountView<'_>, s: Option<Source<'_>>, trusted: &PathSet) -> bool {
    v.writable()
        && (s
            .and_then(|s| s.class())
            .is_some_and(LabelClass::sensitive_to_read)
            || s.and_then(|s| writable_not_scratch(v, s)).is_some()
            || !config_overlaps(v, s, trusted).is_empty()
            || !plantable(v, s).0.is_empty())
}

/// Host system trees a mount target must not land on; the first group can
/// hide the masks a runtime places over kernel interfaces.
const KERNEL_TARGETS: &[&str] = &["/proc", "/sys", "/dev"];
const SYSTEM_TARGETS: &[&str] = &["/etc", "/usr", "/bin", "/sbin", "/lib", "/lib64", "/boot"];

/// One path field of a mount, raw and normalized.
/// The declared source and target of a mount, each with its normalized
/// form.
fn path_fields<'a>(
    v: &'a MountView<'a>,
) -> impl Iterator<Item = (&'static str, &'a str, &'a NormalizedPath)> + 'a {
    [
        (
            "source",
            v.mount.source.as_deref(),
            v.class.as_ref().map(|c| &c.normalized),
        ),
        ("target", v.mount.target.as_deref(), v.target.as_ref()),
    ]
    .into_iter()
    .filter_map(|(f, p, n)| Some((f, p?, n?)))
}

pub(crate) const MNT001: Rule = Rule {
    id: "MNT001",
    name: "developer-home-mounted",
    area: Area::WritableMounts,
    severity: Severity::Critical,
    title: "a developer's home directory is mounted",
    rationale: "A home directory collects keys, cloud profiles, tokens, shell history and editor state. Code under test runs with the job's access, so a read-only mount still lets a project hook copy all of it; reading is enough to disclose secrets.",
    remediation: "Remove the mount. Give the job a source snapshot of the files it tests and a scratch directory instead.",
    runtime_check: Some(CheckKind::ReadDenied),
    check: check_home,
};

fn check_home(ctx: &Ctx<'_>, e: &mut Emitter) {
    sensitive_source(
        ctx,
        e,
        LabelClass::DeveloperHome,
        "a developer home directory",
        "the job can read everything in it, including keys, tokens and shell history",
    );
}

pub(crate) const MNT002: Rule = Rule {
    id: "MNT002",
    name: "credential-store-mounted",
    area: Area::WritableMounts,
    severity: Severity::Critical,
    title: "a credential file, credential store or agent socket is mounted",
    rationale: "Files such as `.aws`, `.kube`, `.netrc` or a service-account token, and sockets of signing agents, hold or wield long-lived credentials. Anything the job runs can read or use them, whatever the mount's access mode.",
    remediation: "Remove the mount. If the job needs a credential, have a broker issue a short-lived, task-scoped one (see the credentials rules).",
    runtime_check: Some(CheckKind::ReadDenied),
    check: check_credential_store,
};

fn check_credential_store(ctx: &Ctx<'_>, e: &mut Emitter) {
    sensitive_source(
        ctx,
        e,
        LabelClass::CredentialStore,
        "a credential file or store",
        "the job can read the secrets it holds or ask the agent behind it to sign for it",
    );
}

pub(crate) const MNT003: Rule = Rule {
    id: "MNT003",
    name: "production-socket-mounted",
    area: Area::WritableMounts,
    severity: Severity::Critical,
    title: "a production service socket is mounted",
    rationale: "A socket of a production service (a database, a queue) lets the job talk to production directly, with whatever trust the service grants local peers. A test job needs a disposable test service, not production.",
    remediation: "Remove the mount and give the job a disposable test service, declared under `needs.services`.",
    runtime_check: Some(CheckKind::ReadDenied),
    check: check_production_socket,
};

fn check_production_socket(ctx: &Ctx<'_>, e: &mut Emitter) {
    sensitive_source(
        ctx,
        e,
        LabelClass::ProductionSocket,
        "a production service socket",
        "the job can connect to the production service behind it",
    );
}

pub(crate) const MNT004: Rule = Rule {
    id: "MNT004",
    name: "engine-socket-mounted",
    area: Area::WritableMounts,
    severity: Severity::Critical,
    title: "the container engine's socket is mounted",
    rationale: "Whoever can connect to the Docker, containerd, Podman, CRI-O or BuildKit socket can start a privileged container with the host's root file system mounted: full control of the host. A read-only mount does not prevent connecting to a socket.",
    remediation: "Remove the mount. If the job must build images, use a rootless or remote builder that holds no host authority.",
    runtime_check: Some(CheckKind::SocketsDenied),
    check: check_engine_socket,
};

fn check_engine_socket(ctx: &Ctx<'_>, e: &mut Emitter) {
    sensitive_source(
        ctx,
        e,
        LabelClass::ContainerEngineSocket,
        "the container engine's socket",
        "whoever can connect to it can start privileged containers and so controls the host",
    );
}

pub(crate) const MNT020: Rule = Rule {
    id: "MNT020",
    name: "engine-data-mounted",
    area: Area::WritableMounts,
    severity: Severity::High,
    title: "a container engine's data directory is mounted",
    rationale: "Directories such as `/var/lib/docker/containers` or `/var/log/pods` hold every container's logs and configuration, including the environment variables other jobs were started with. Reading them discloses what those jobs were given; writing them alters containers the job does not own. It is not the engine's socket, but it reaches far beyond the job.",
    remediation: "Remove the mount. If the job must ship logs, give it only its own log file, or let the node's log agent collect them outside the job.",
    runtime_check: Some(CheckKind::ReadDenied),
    check: check_engine_data,
};

fn check_engine_data(ctx: &Ctx<'_>, e: &mut Emitter) {
    sensitive_source(
        ctx,
        e,
        LabelClass::ContainerEngineData,
        "a container engine's data directory",
        "the job can read other containers' logs, environment variables and configuration, which often hold secrets",
    );
}

pub(crate) const MNT005: Rule = Rule {
    id: "MNT005",
    name: "sensitive-path-exposed",
    area: Area::WritableMounts,
    severity: Severity::Critical,
    title: "a mount exposes a sensitive location beneath it",
    rationale: "A mount grants everything below its source. Mounting a directory above a home, a credential store or a socket exposes them as surely as mounting them by name, and the exposure is easy to miss in review.",
    remediation: "Mount the narrowest directory the job needs, one that contains none of the listed locations.",
    runtime_check: Some(CheckKind::ReadDenied),
    check: check_exposure,
};

fn check_exposure(ctx: &Ctx<'_>, e: &mut Emitter) {
    for (v, s) in sources(ctx) {
        // Catalog labels first: they are what the reviewer's catalog says.
        let mut exposed: Vec<_> = s
            .exposes
            .iter()
            .filter(|x| x.class.sensitive_to_read() && !v.exposed_socket_blocked(ctx, x.class))
            .collect();
        crate::sort::sort_by_key(&mut exposed, |x| !matches!(x.origin, Origin::Catalog(_)));
        let Some(first) = exposed.first() else {
            continue;
        };
        let more = match exposed.len() {
            1 => String::new(),
            n => format!(" and {} more", n - 1),
        };
        let count = exposed.len();
        let list: Vec<_> = exposed
            .iter()
            .take(EVIDENCE_LIST_MAX)
            .map(|x| {
                let job = paths::in_job(s.path, v.target.as_ref(), &x.path);
                evidence_object([
                    ("path", x.path.as_str().into()),
                    ("class", x.class.as_str().into()),
                    ("job_path", job.into()),
                ])
            })
            .collect();
        e.emit(
            v.field("source"),
            format!(
                "mounting `{}` also exposes `{}` ({}){more}; the job can read what lies beneath a mount, whatever the mount itself is",
                s.path, first.path, first.class
            ),
        )
        .area(v.area())
        .evidence("exposed", list)
        .evidence("count", count);
    }
}

pub(crate) const MNT006: Rule = Rule {
    id: "MNT006",
    name: "mount-not-needed",
    area: Area::WritableMounts,
    severity: Severity::High,
    title: "a mount the job's declared needs do not require",
    rationale: "A job should get only what it needs: its inputs, a place for output and the services it uses. A mount whose class the job does not list under `needs` widens what the code under test can reach for no reason the profile states.",
    remediation: "Remove the mount, or, if the job really requires it, add its label class to `needs.inputs`, `needs.outputs` or `needs.services`.",
    runtime_check: None,
    check: check_not_needed,
};

fn check_not_needed(ctx: &Ctx<'_>, e: &mut Emitter) {
    if ctx.profile.needs.is_none() && ctx.present("/needs") {
        return; // present but unreadable: a profile-area finding
    }
    let needed = needed_classes(ctx);
    for (v, s) in sources(ctx) {
        let Some(class) = s.class() else { continue };
        if class.sensitive_to_read() {
            continue; // reported on its own whether needed or not
        }
        let msg = match &needed {
            None => format!(
                "`needs` is not declared, so nothing shows that the job requires `{}` ({class})",
                s.path
            ),
            Some(set) if !set.contains(&class) => {
                format!("the job's `needs` do not include `{class}`, yet `{}` is mounted: access the job does not require", s.path)
            }
            Some(_) => continue,
        };
        let d = e.emit(v.field("source"), msg).area(v.area());
        d.evidence("class", class.as_str());
        match &needed {
            Some(set) => d.evidence("needs", set.iter().map(|c| c.as_str()).collect::<Vec<_>>()),
            None => d.evidence("needs", "not declared"),
        };
    }
}

pub(crate) const MNT007: Rule = Rule {
    id: "MNT007",
    name: "writable-not-scratch",
    area: Area::WritableMounts,
    severity: Severity::High,
    title: "a writable mount that is not scratch or output",
    rationale: "Only scratch and output locations are meant to receive the job's writes. A writable source snapshot, dependency cache or test service lets the code under test alter inputs that later runs or reviewers take as given.",
    remediation: "Set `access` to `read-only`, and direct the job's writes to a scratch or output mount.",
    runtime_check: Some(CheckKind::WriteDenied),
    check: check_writable_not_scratch,
};

fn check_writable_not_scratch(ctx: &Ctx<'_>, e: &mut Emitter) {
    for (v, s) in sources(ctx) {
        let Some(class) = writable_not_scratch(v, s) else {
            continue;
        };
        e.emit(
            v.field("access"),
            format!(
                "the job can write `{}`, which is `{class}`, not scratch or output{}",
                s.path,
                implied(v)
            ),
        )
        .area(v.area())
        .evidence("class", class.as_str())
        .evidence("access", access(v));
    }
}

pub(crate) const MNT008: Rule = Rule {
    id: "MNT008",
    name: "writable-trusted-config",
    area: Area::WritableMounts,
    severity: Severity::Critical,
    title: "writable storage overlaps trusted configuration or a host system tree",
    rationale: "Trusted configuration steers the runner and later jobs. A writable mount that is, contains or sits inside it, or whose target overlaps it, lets the job rewrite the rules it will be judged by.",
    remediation: "Keep writable output separate from configuration: mount configuration read-only and put scratch and output outside every trusted-config and system path.",
    runtime_check: Some(CheckKind::WriteDenied),
    check: check_writable_config,
};

fn check_writable_config(ctx: &Ctx<'_>, e: &mut Emitter) {
    let trusted = PathSet::of_class(ctx.index, LabelClass::TrustedConfig);
    for v in ctx.mounts {
        let overlaps = config_overlaps(v, v.source(), &trusted);
        let Some(first) = overlaps.first() else {
            continue;
        };
        let kind = if first.class == LabelClass::System {
            "a host system tree"
        } else {
            "trusted configuration"
        };
        let place = if first.via == "target" {
            "at the target "
        } else {
            ""
        };
        let which = if first.path == first.subject {
            String::new()
        } else {
            format!(" `{}`", first.path)
        };
        e.emit(
            v.field("access"),
            format!(
                "the job can write {place}`{}`, which {} {kind}{which}{}; what it changes there steers later jobs or the runner",
                first.subject,
                first.relation,
                implied(v)
            ),
        )
        .area(v.area())
        .evidence(
            "overlaps",
            overlaps
                .iter()
                .take(EVIDENCE_LIST_MAX)
                .map(|o| {
                    evidence_object([
                        ("via", o.via.into()),
                        ("relation", o.relation.into()),
                        ("path", o.path.as_str().into()),
                        ("class", o.class.as_str().into()),
                    ])
                })
                .collect::<Vec<_>>(),
        )
        .evidence("count", overlaps.len())
        .evidence("access", access(v));
    }
}

pub(crate) const MNT009: Rule = Rule {
    id: "MNT009",
    name: "plantable-files-writable",
    area: Area::WritableMounts,
    severity: Severity::High,
    title: "a writable mount holds files that run or are trusted after the job",
    rationale: "Git hooks and config, shell start-up files, CI definitions and package-manager settings are executed or obeyed by something outside the job: a developer's shell, the next checkout, the next install. A job that can write them can plant code for the next run.",
    remediation: "Mount repositories, homes and caches read-only, or give the job a disposable copy that nothing reuses after it ends.",
    runtime_check: Some(CheckKind::WriteDenied),
    check: check_plantable,
};

fn check_plantable(ctx: &Ctx<'_>, e: &mut Emitter) {
    for v in ctx.mounts {
        let s = v.source();
        let (files, why) = plantable(v, s);
        if files.is_empty() {
            continue;
        }
        let what = s.map_or_else(
            || v.mount.target.clone().unwrap_or_default(),
            |s| s.path.to_string(),
        );
        let shown: Vec<String> = files.iter().take(3).map(|f| format!("`{f}`")).collect();
        let more = if files.len() > 3 {
            format!(" and {} more", files.len() - 3)
        } else {
            String::new()
        };
        e.emit(
            v.field("access"),
            format!(
                "the job can write `{what}`, where it could plant {}{more} that run or are trusted after it ends{}",
                shown.join(", "),
                implied(v)
            ),
        )
        .area(v.area())
        .evidence("could_plant", files)
        .evidence("because", why)
        .evidence("access", access(v));
    }
}

pub(crate) const MNT010: Rule = Rule {
    id: "MNT010",
    name: "unlabelled-source",
    area: Area::WritableMounts,
    severity: Severity::High,
    title: "a mount source no trusted label covers",
    rationale: "The audit can only vouch for paths the trusted fixture labels describe. An unlabelled source might hold anything, so it cannot be compared against what the job needs.",
    remediation: "Mount a labelled location instead, or have the catalog's owner label this path with its class.",
    runtime_check: None,
    check: check_unlabelled,
};

fn check_unlabelled(ctx: &Ctx<'_>, e: &mut Emitter) {
    for (v, s) in sources(ctx) {
        if s.matched.is_some() || s.normalized.relative {
            continue;
        }
        let tail = if v.writable() {
            ", and the job can write it"
        } else {
            ""
        };
        e.emit(
            v.field("source"),
            format!("no catalog label or well-known location covers `{}`, so the audit cannot vouch for what it holds{}", s.path, tail),
        )
        .area(v.area())
        .evidence("normalized", s.path)
        .evidence("access", access(v));
    }
}

pub(crate) const MNT011: Rule = Rule {
    id: "MNT011",
    name: "parent-reference-in-path",
    area: Area::WritableMounts,
    severity: Severity::High,
    title: "a mount path contains `..`",
    rationale: "isolint resolves `..` lexically, but the runtime resolves it after following symbolic links, so `a/link/..` can reach a different directory than the one audited. A path with `..` says one thing to the reviewer and may do another.",
    remediation: "Write the absolute path without `..` components, and have the runner open mount sources with link-safe primitives.",
    runtime_check: Some(CheckKind::LinkResolution),
    check: check_parent_refs,
};

fn check_parent_refs(ctx: &Ctx<'_>, e: &mut Emitter) {
    for v in ctx.mounts {
        for (field, raw, n) in path_fields(v) {
            if !n.had_parent_refs || (n.relative && only_leading_parent_refs(raw)) {
                continue;
            }
            let climb = if n.escaped_root {
                ", and it climbs above `/`"
            } else {
                ""
            };
            // A relative path can reduce to nothing (`scratch/..`): the
            // working directory, written `.`, never an empty quote.
            let reduced = if n.path.is_empty() {
                "."
            } else {
                n.path.as_str()
            };
            let compared = if n.relative {
                "it reduces lexically to"
            } else {
                "it was compared as"
            };
            let d = e
                .emit(
                    v.field(field),
                    format!(
                        "the {field} `{raw}` contains `..`{climb}; {compared} `{reduced}`, but the runtime resolves `..` after following links, so it can land elsewhere"
                    ),
                )
                .area(v.area());
            d.evidence("normalized", n.path.as_str())
                .evidence("escaped_root", n.escaped_root);
        }
    }
}

/// A relative path whose `..` all come first (`../../shared`): no `..`
/// follows a component that a link could redirect, so the runtime's
/// reading is the lexical one (Compose and runc join such a source to the
/// project or bundle directory with `filepath.Join`). Where the climb lands
/// depends on that directory: MNT012 reports the path as relative.
fn only_leading_parent_refs(raw: &str) -> bool {
    let mut named = false;
    for part in raw.split('/') {
        match part {
            "" | "." => {}
            ".." if named => return false,
            ".." => {}
            _ => named = true,
        }
    }
    true
}

pub(crate) const MNT012: Rule = Rule {
    id: "MNT012",
    name: "relative-path",
    area: Area::WritableMounts,
    severity: Severity::High,
    title: "a mount path is not absolute",
    rationale: "A relative path, `~`, a variable or a Windows drive path means whatever the runner's working directory, user or platform makes of it at launch. The audit cannot match it against the labels, and `~` usually points at a developer's home.",
    remediation: "Write an absolute POSIX path for both `source` and `target`.",
    runtime_check: Some(CheckKind::LinkResolution),
    check: check_relative,
};

fn check_relative(ctx: &Ctx<'_>, e: &mut Emitter) {
    for v in ctx.mounts {
        for (field, raw, n) in path_fields(v) {
            if !n.relative {
                continue;
            }
            let b = raw.as_bytes();
            let (kind, why) = if raw.trim().is_empty() {
                (
                    "empty",
                    "an empty path means whatever the runner substitutes",
                )
            } else if raw.starts_with('~') || raw.starts_with("$HOME") || raw.starts_with("${HOME}")
            {
                (
                    "home-relative",
                    "it expands to the home directory of whoever starts the runner",
                )
            } else if b.len() >= 2
                && b.first().is_some_and(u8::is_ascii_alphabetic)
                && b.get(1) == Some(&b':')
            {
                (
                    "windows-drive",
                    "it is a Windows drive path, which the catalog's host paths never match",
                )
            } else if raw.contains('$') {
                ("variable", "it depends on a variable the runner expands")
            } else {
                ("relative", "it resolves against the runner's working directory, which the profile does not fix")
            };
            e.emit(
                v.field(field),
                format!("the {field} `{raw}` is not absolute: {why}"),
            )
            .area(v.area())
            .evidence("kind", kind);
        }
    }
}

pub(crate) const MNT013: Rule = Rule {
    id: "MNT013",
    name: "control-character-in-path",
    area: Area::WritableMounts,
    severity: Severity::High,
    title: "a mount path contains a control character",
    rationale: "A NUL ends the path for C-based tools while the rest stays in the profile; newlines and escape sequences make reviewers and logs show a different name from the one opened.",
    remediation: "Remove control characters from the path.",
    runtime_check: Some(CheckKind::LinkResolution),
    check: check_control_chars,
};

fn check_control_chars(ctx: &Ctx<'_>, e: &mut Emitter) {
    for v in ctx.mounts {
        for (field, raw, _) in path_fields(v) {
            let chars = paths::control_chars(raw);
            if chars.is_empty() {
                continue;
            }
            e.emit(
                v.field(field),
                format!(
                    "the {field} contains control characters ({}); tools truncate at a NUL or show a different name than the one opened",
                    chars.join(", ")
                ),
            )
            .area(v.area())
            .evidence("characters", chars);
        }
    }
}

/// Whether the job's root is assembled from its mounts rather than taken
/// from an image: bubblewrap starts from an empty root, so `--ro-bind /usr
/// /usr` adds the system files instead of replacing vetted ones.
fn root_starts_empty(ctx: &Ctx<'_>) -> bool {
    ctx.profile
        .boundary
        .as_ref()
        .and_then(|b| b.runtime.as_ref())
        .and_then(|r| r.name.as_deref())
        .is_some_and(|n| {
            let n = n.trim();
            n.eq_ignore_ascii_case("bubblewrap") || n.eq_ignore_ascii_case("bwrap")
        })
}

/// A process sandbox (Codex, sandbox-runtime) already runs in the host's
/// tree: a mount of a host path at the same path changes what it may
/// access, not which files are there. A boundary of no declared kind (an
/// agent's sandbox, a process on one platform and namespaces over the
/// host's tree on another) is read the same way; ISO002 reports the
/// missing kind.
fn is_identity_in_process(ctx: &Ctx<'_>, v: &crate::rules::MountView<'_>) -> bool {
    // sandbox-runtime binds the host's tree over itself (bubblewrap on
    // Linux, which a runner may declare as `container`; Seatbelt on macOS)
    // whatever kind its boundary is declared as.
    let host_tree_sandbox = ctx
        .profile
        .boundary
        .as_ref()
        .and_then(|b| b.runtime.as_ref())
        .and_then(|r| r.name.as_deref())
        .is_some_and(|n| n.trim().eq_ignore_ascii_case("sandbox-runtime"));
    let process = host_tree_sandbox
        || ctx.profile.boundary.as_ref().is_some_and(|b| {
            b.kind
                .is_none_or(|k| k == crate::model::BoundaryKind::Process)
        });
    let same = match (v.mount.source.as_deref(), v.target.as_ref()) {
        (Some(s), Some(t)) => crate::labels::normalize(s).path == t.path,
        _ => false,
    };
    process && same
}

pub(crate) const MNT014: Rule = Rule {
    id: "MNT014",
    name: "system-target",
    area: Area::WritableMounts,
    severity: Severity::High,
    title: "a mount lands on `/` or a system directory",
    rationale: "Mounting over `/`, `/proc`, `/sys` or `/dev` can cover the protections the runtime places there; mounting over `/etc` or `/usr` swaps the configuration and programs the job's own tools trust. Either way the boundary no longer matches what was reviewed.",
    remediation: "Mount under a dedicated directory such as `/workspace` or `/scratch`, and point tools at it by argument or variable.",
    runtime_check: None,
    check: check_system_target,
};

fn check_system_target(ctx: &Ctx<'_>, e: &mut Emitter) {
    if root_starts_empty(ctx) {
        return;
    }
    for v in ctx.mounts {
        let Some(t) = v.target.as_ref().filter(|t| !t.relative) else {
            continue;
        };
        if is_identity_in_process(ctx, v) {
            continue;
        }
        let kernel = KERNEL_TARGETS.iter().find(|k| contains(k, &t.path));
        let system = SYSTEM_TARGETS.iter().find(|k| contains(k, &t.path));
        let (tree, sev, why) = if t.path == "/" {
            (
                "/",
                Severity::Critical,
                "it replaces the job's whole root file system",
            )
        } else if let Some(k) = kernel {
            (
                *k,
                Severity::Critical,
                "it can cover the masks the runtime places over kernel interfaces",
            )
        } else if let Some(s) = system {
            (
                *s,
                Severity::High,
                "it replaces system files that the job's tools and loader trust",
            )
        } else {
            continue;
        };
        let place = if t.path == tree {
            format!("`{tree}`")
        } else {
            format!("`{}` inside `{tree}`", t.path)
        };
        e.emit(
            v.field("target"),
            format!("the mount lands on {place}; {why}"),
        )
        .area(v.area())
        .severity(sev)
        .evidence("target", t.path.as_str())
        .evidence("system_tree", tree);
    }
}

pub(crate) const MNT015: Rule = Rule {
    id: "MNT015",
    name: "shadowed-target",
    area: Area::WritableMounts,
    severity: Severity::High,
    title: "two mounts share a target or one lies inside another",
    rationale: "When targets coincide or nest, mount order decides what the job sees: a read-only mount can be covered by a writable one, or a sensitive file can appear inside an innocent-looking directory.",
    remediation: "Give every mount its own target, none inside another.",
    runtime_check: Some(CheckKind::LinkResolution),
    check: check_shadowing,
};

fn check_shadowing(ctx: &Ctx<'_>, e: &mut Emitter) {
    // Indexed like `ctx.mounts`: the normalized absolute target, if any.
    let targets: Vec<Option<&str>> = ctx
        .mounts
        .iter()
        .map(|v| {
            let t = v.target.as_ref()?;
            (!t.relative).then_some(t.path.as_str())
        })
        .collect();
    let entries: Vec<(usize, &str)> = targets
        .iter()
        .enumerate()
        .filter_map(|(i, t)| Some((i, (*t)?)))
        .collect();
    for (i, how, j) in paths::nesting(&entries) {
        let (Some(v), Some(other)) = (ctx.mounts.get(i), ctx.mounts.get(j)) else {
            continue;
        };
        let t = targets.get(i).copied().flatten().unwrap_or("");
        let up = targets.get(j).copied().flatten().unwrap_or("");
        // The enclosing mount lists the inner target (or a path above it)
        // in its `excludes`: the profile states which one is on top, so
        // order decides nothing.
        if how == Nesting::Inside && lists_excluded(other.mount, up, t) {
            continue;
        }
        let (msg, relation) = match how {
            Nesting::Same => (
                format!("`{}` already targets `{t}`; which of the two the job sees depends on mount order", other.pointer()),
                "same-target",
            ),
            Nesting::Inside => (
                format!("`{t}` lies inside the target `{up}` of `{}`; one mount hides the other or part of it, depending on order", other.pointer()),
                "inside",
            ),
        };
        e.emit(v.field("target"), msg)
            .area(v.area())
            .evidence("other", other.pointer())
            .evidence("relation", relation);
    }
}

/// Whether `mount` (at `target`) excludes `inner`, a path strictly inside
/// it: an exclude at or above `inner` and below `target`, read lexically.
fn lists_excluded(mount: &crate::model::Mount, target: &str, inner: &str) -> bool {
    mount.excludes.as_deref().unwrap_or(&[]).iter().any(|e| {
        let e = crate::labels::normalize(e);
        !e.relative && !e.had_parent_refs && e.path != target && contains(&e.path, inner)
    })
}

pub(crate) const MNT016: Rule = Rule {
    id: "MNT016",
    name: "mount-undeclared",
    area: Area::WritableMounts,
    severity: Severity::Medium,
    title: "mounts, or a mount's source, target or access, are not declared",
    rationale: "What is not declared is decided by the runner's defaults, which the audit cannot see. Undeclared mounts often mean the working directory read-write; an undeclared access is audited as writable.",
    remediation: "Declare `mounts` explicitly (an empty list if the job needs none) and give every mount a `source`, a `target` and an `access`.",
    runtime_check: Some(CheckKind::WriteDenied),
    check: check_declaration,
};

fn check_declaration(ctx: &Ctx<'_>, e: &mut Emitter) {
    if !ctx.present("/mounts") {
        e.emit("/mounts", "no mounts are declared, so whatever the runner mounts by default, often the working directory read-write, goes unreviewed")
            .evidence("mounts", "not declared");
        return;
    }
    let trusted = PathSet::of_class(ctx.index, LabelClass::TrustedConfig);
    // The node at `/mounts/N`, looked up by index (a pointer per mount was
    // a string to build and parse back, for each of 10,000 mounts).
    let elements = match ctx.root.get("mounts").map(|m| &m.value) {
        Some(crate::json::Value::Array(items)) => items.as_slice(),
        _ => &[],
    };
    for v in ctx.mounts {
        if elements.get(v.index).and_then(|n| n.members()).is_none() {
            continue; // not an object: a profile-area finding
        }
        for (field, what) in [
            ("source", "what is mounted"),
            ("target", "where the job sees it"),
        ] {
            let missing = match field {
                "source" => v.mount.source.is_none(),
                _ => v.mount.target.is_none(),
            };
            if missing && !ctx.present(&v.field(field)) {
                e.emit(
                    v.field(field),
                    format!("the mount declares no `{field}`, so {what} is up to the runner"),
                )
                .area(v.area())
                .evidence("missing", field);
            }
        }
        if v.mount.access.is_none() && !ctx.present(&v.field("access")) {
            if writability_reported(v, v.source(), &trusted) {
                continue;
            }
            e.emit(v.field("access"), "the mount declares no `access`; it is audited as writable, the usual runner default")
                .area(v.area())
                .evidence("missing", "access");
        }
    }
}

/// Options of an interpreter that take the next word as their value
/// (`python3 -W ignore x.py`, `bash -o posix x.sh`, `node -r mod x.js`).
const INTERPRETER_VALUED: &[&str] = &[
    "-W",
    "-X",
    "-o",
    "-O",
    "-r",
    "-I",
    "--rcfile",
    "--init-file",
    "--require",
];

/// Whether an interpreter option hands it its code inline (`sh -c`,
/// `python3 -c`/`-m`, `node -e`/`-p`): then no word after it is a script.
fn inline_code(option: &str) -> bool {
    matches!(
        option,
        "-e" | "-m" | "-p" | "--eval" | "--print" | "--command"
    ) || (!option.starts_with("--") && option.contains('c'))
}

/// The host paths a setup step runs, each with the pointer of the field it
/// came from: for every simple command of the step (shell text split,
/// `sh -c` text followed, wrappers such as `sudo`, `env` and `timeout`
/// passed over), its program and, for an interpreter or `source`, the
/// script it is given. A relative path is the step's working directory's
/// (`./post.sh`, `sh post.sh`); a bare program name is looked up on PATH,
/// which the profile does not describe, so it is left out.
fn programs_run(ptr: &str, cmd: &crate::model::Command) -> Vec<(String, String)> {
    use crate::shell::fetch::{pipelines_of, program_index};
    let cwd = cmd
        .cwd
        .as_deref()
        .map(str::trim)
        .filter(|c| c.starts_with('/'));
    let resolve = |word: &str, bare: bool| -> Option<String> {
        if word.starts_with('/') {
            return Some(word.to_string());
        }
        // Expansions and home paths are the shell's to resolve.
        if word.is_empty() || word.starts_with(['-', '$', '~']) || (!bare && !word.contains('/')) {
            return None;
        }
        cwd.map(|c| format!("{}/{word}", c.trim_end_matches('/')))
    };
    let mut out: Vec<(String, String)> = Vec::new();
    for pipeline in pipelines_of(ptr, cmd) {
        for simple in pipeline {
            let Some(prog) = program_index(&simple).and_then(|i| simple.get(i..)) else {
                continue;
            };
            let [program, rest @ ..] = prog else { continue };
            if let Some(p) = resolve(&program.text, false) {
                out.push((program.pointer.clone(), p));
            }
            // `.` is the POSIX `source`, whose name the program-name
            // normalising reads as empty.
            let name = crate::shell::program_name(&program.text);
            if !(program.text == "." || crate::shell::programs::runs_code(&name)) {
                continue;
            }
            let mut words = rest.iter();
            while let Some(w) = words.next() {
                let t = w.text.as_str();
                if t == "--" {
                    continue;
                }
                if t.starts_with('-') {
                    if inline_code(t) {
                        break;
                    }
                    if INTERPRETER_VALUED.contains(&t) {
                        words.next();
                    }
                    continue;
                }
                if let Some(p) = resolve(t, true) {
                    out.push((w.pointer.clone(), p));
                }
                break;
            }
        }
    }
    let mut seen = std::collections::HashSet::new();
    out.retain(|(at, p)| seen.insert((at.clone(), normalize(p).path)));
    out
}

pub(crate) const MNT031: Rule = Rule {
    id: "MNT031",
    name: "host-runs-writable-file",
    area: Area::WritableMounts,
    severity: Severity::Critical,
    title: "a step outside the job runs a file the job can write",
    rationale: "OCI hooks (`prestart`, `createRuntime`, `poststart`, `poststop`) run on the host with the runtime's rights, and setup steps or post-processing the runner performs outside the boundary do the same. When the program or script such a step runs lies inside the host source of a writable mount, the job rewrites it and the host runs the job's code next time, outside every namespace, capability and filter the profile declares. The job's purpose is irrelevant: any process in it can write the mount.",
    remediation: "Run hooks and host-side steps from a path the job cannot write (a root-owned `/usr/libexec/...`), or mount that directory read-only; keep the job's writable scratch apart from anything the host executes.",
    runtime_check: Some(CheckKind::WriteDenied),
    check: check_host_runs_writable,
};

fn check_host_runs_writable(ctx: &Ctx<'_>, e: &mut Emitter) {
    let writable: Vec<(&MountView<'_>, &str)> = ctx
        .mounts
        .iter()
        .filter(|v| v.writable())
        .filter_map(|v| {
            let c = v.class.as_ref()?;
            (!c.normalized.relative).then_some((v, c.normalized.path.as_str()))
        })
        .collect();
    if writable.is_empty() {
        return;
    }
    for (i, step) in ctx.profile.setup().iter().enumerate() {
        let ptr = format!("/setup/{i}");
        for (at, path) in programs_run(&ptr, step) {
            let run = normalize(&path).path;
            let Some((v, source)) = writable.iter().find(|(_, s)| contains(s, &run)) else {
                continue;
            };
            e.emit(
                at,
                format!("setup step runs `{run}`, which lies in `{source}`, the host source of writable mount {}: the job can rewrite it, and whatever runs this step outside the job (an OCI hook, the runner) then runs the job's code on the host", v.index),
            )
            .evidence("runs", run.as_str())
            .evidence("writable_source", *source)
            .evidence("mount", v.pointer());
        }
    }
}

pub const RULES: &[&Rule] = &[
    &MNT001, &MNT002, &MNT003, &MNT004, &MNT005, &MNT006, &MNT007, &MNT008, &MNT009, &MNT010,
    &MNT011, &MNT012, &MNT013, &MNT014, &MNT015, &MNT016, &MNT020, &MNT031,
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::date::Date;
    use crate::report::{audit, AuditOptions, Labels};

    fn fired(profile: &str) -> Vec<(String, String, Severity, Area)> {
        let opts = AuditOptions {
            today: Date::parse("2026-11-29"),
        };
        let r = audit(profile.as_bytes(), "t.json", &Labels::workshop(), &opts).unwrap();
        r.issues
            .iter()
            .filter(|f| f.rule.starts_with("MNT"))
            .map(|f| (f.rule.to_string(), f.pointer.clone(), f.severity, f.area))
            .collect()
    }

    fn mounts(m: &str) -> String {
        format!(
            r#"{{"name":"t","needs":{{"inputs":["source-snapshot"],"outputs":["scratch"],"services":[]}},"mounts":{m}}}"#
        )
    }

    fn has(f: &[(String, String, Severity, Area)], rule: &str, ptr: &str) -> bool {
        f.iter().any(|(r, p, _, _)| r == rule && p == ptr)
    }

    #[test]
    fn workshop_profile_mount_findings() {
        let f = fired(include_str!("../../../fixtures/profiles/workshop.json"));
        assert!(has(&f, "MNT001", "/mounts/2/source"));
        assert!(has(&f, "MNT005", "/mounts/2/source"));
        assert!(has(&f, "MNT004", "/mounts/3/source"));
        assert!(has(&f, "MNT007", "/mounts/0/access"));
        assert!(has(&f, "MNT009", "/mounts/0/access"));
        // the read-only home is reviewed with read-only mounts, the socket with writable ones
        assert!(f
            .iter()
            .any(|(r, _, _, a)| r == "MNT001" && *a == Area::ReadOnlyMounts));
        assert!(f
            .iter()
            .any(|(r, _, _, a)| r == "MNT004" && *a == Area::WritableMounts));
        // nothing about the scratch mount
        assert!(!f.iter().any(|(_, p, _, _)| p.starts_with("/mounts/1")));
        let fixed = fired(include_str!(
            "../../../fixtures/profiles/workshop-fixed.json"
        ));
        assert!(fixed.is_empty(), "{fixed:?}");
    }

    /// MNT031 by the shape of the host-side step: (step, pointers it
    /// reports). `/srv/scratch` is writable, `/srv/ro` read-only.
    #[test]
    fn host_side_steps_that_run_a_writable_file() {
        let table: &[(&str, &[&str])] = &[
            (
                r#"{"executable":"/srv/scratch/post.sh"}"#,
                &["/setup/0/executable"],
            ),
            (
                r#"{"executable":"sh","arguments":["/srv/scratch/post.sh"]}"#,
                &["/setup/0/arguments/0"],
            ),
            (
                r#"{"executable":"python3","arguments":["-u","/srv/scratch/collect.py"]}"#,
                &["/setup/0/arguments/1"],
            ),
            (
                r#"{"shell":"sh /srv/scratch/post.sh"}"#,
                &["/setup/0/shell"],
            ),
            (
                r#"{"shell":"cd /tmp && /srv/scratch/bin/collect --out x"}"#,
                &["/setup/0/shell"],
            ),
            (
                r#"{"shell":"tar -xf a.tar | /srv/scratch/filter"}"#,
                &["/setup/0/shell"],
            ),
            (
                r#"{"shell":". /srv/scratch/env.sh && make"}"#,
                &["/setup/0/shell"],
            ),
            (
                r#"{"shell":"timeout 60 /srv/scratch/post.sh"}"#,
                &["/setup/0/shell"],
            ),
            (
                r#"{"shell":"sh -c '/srv/scratch/a.sh --all'"}"#,
                &["/setup/0/shell"],
            ),
            (
                r#"{"executable":"bash","arguments":["-c","/srv/scratch/post.sh --all"]}"#,
                &["/setup/0/arguments/1"],
            ),
            (
                r#"{"executable":"sudo","arguments":["-u","ci","/srv/scratch/post.sh"]}"#,
                &["/setup/0/arguments/2"],
            ),
            (
                r#"{"executable":"env","arguments":["A=1","/srv/scratch/post.sh"]}"#,
                &["/setup/0/arguments/1"],
            ),
            (
                r#"{"executable":"./post.sh","cwd":"/srv/scratch"}"#,
                &["/setup/0/executable"],
            ),
            (
                r#"{"executable":"./bin/../post.sh","cwd":"/srv/scratch/sub"}"#,
                &["/setup/0/executable"],
            ),
            (
                r#"{"executable":"sh","arguments":["post.sh"],"cwd":"/srv/scratch"}"#,
                &["/setup/0/arguments/0"],
            ),
            // not code the host runs from the mount
            (
                r#"{"executable":"../outside.sh","cwd":"/srv/scratch"}"#,
                &[],
            ),
            (r#"{"executable":"post.sh","cwd":"/srv/scratch"}"#, &[]),
            (
                r#"{"executable":"/usr/bin/python3","arguments":["/opt/collect.py","/srv/scratch/out"]}"#,
                &[],
            ),
            (
                r#"{"shell":"cp /srv/scratch/report.xml /var/reports/"}"#,
                &[],
            ),
            (r#"{"executable":"/srv/ro/post.sh"}"#, &[]),
            (r#"{"executable":"/usr/local/bin/post"}"#, &[]),
        ];
        let mut wrong = 0;
        for (step, want) in table {
            let p = format!(
                r#"{{"name":"t","needs":{{"inputs":["source-snapshot"],"outputs":["scratch"],"services":[]}},"mounts":[{{"source":"/srv/scratch","target":"/scratch","access":"read-write"}},{{"source":"/srv/ro","target":"/ro","access":"read-only"}}],"setup":[{step}]}}"#
            );
            let got: Vec<String> = fired(&p)
                .into_iter()
                .filter(|(r, _, _, _)| r == "MNT031")
                .map(|(_, p, _, _)| p)
                .collect();
            if got != *want {
                wrong += 1;
                eprintln!("{step}: got {got:?}, want {want:?}");
            }
        }
        assert_eq!(wrong, 0, "{wrong} of {} rows wrong", table.len());
    }

    /// Only a `..` after a named component can be redirected by a link.
    #[test]
    fn leading_parent_refs_are_lexical() {
        for (raw, want) in [
            ("../x", true),
            ("../../home/u/.ssh", true),
            ("./../x", true),
            ("..", true),
            ("a/../b", false),
            ("scratch/..", false),
            ("../a/../b", false),
            ("~/../x", false),
            ("$D/../x", false),
        ] {
            assert_eq!(only_leading_parent_refs(raw), want, "{raw}");
        }
    }

    #[test]
    fn home_relative_sources_are_guessed() {
        let f = fired(&mounts(
            r#"[{"source":"~/.aws","target":"/aws","access":"read-only"}]"#,
        ));
        assert!(has(&f, "MNT002", "/mounts/0/source"));
        assert!(has(&f, "MNT012", "/mounts/0/source"));
        assert!(!f.iter().any(|(r, _, _, _)| r == "MNT010"));
        let f = fired(&mounts(
            r#"[{"source":"$HOME","target":"/h","access":"read-only"}]"#,
        ));
        assert!(has(&f, "MNT001", "/mounts/0/source") && has(&f, "MNT005", "/mounts/0/source"));
    }

    #[test]
    fn exposure_names_the_job_path() {
        let opts = AuditOptions { today: None };
        let p = mounts(r#"[{"source":"/home/botie","target":"/mnt/h","access":"read-only"}]"#);
        let r = audit(p.as_bytes(), "t", &Labels::workshop(), &opts).unwrap();
        let f = r.issues.iter().find(|f| f.rule == "MNT005").unwrap();
        let exposed = f.evidence["exposed"].as_array().unwrap();
        assert!(exposed.iter().any(|x| x["path"] == "/home/botie/.aws"
            && x["job_path"] == "/mnt/h/.aws"
            && x["class"] == "credential-store"));
    }

    #[test]
    fn writable_config_in_every_direction() {
        // is, contains, inside, target overlap
        for (src, tgt) in [
            ("/etc/runner", "/cfg"),
            ("/etc", "/cfg"),
            ("/etc/runner/conf.d", "/cfg"),
            ("/srv/workshop/scratch/j", "/etc/runner"),
        ] {
            let f = fired(&mounts(&format!(
                r#"[{{"source":"{src}","target":"{tgt}","access":"read-write"}}]"#
            )));
            assert!(
                has(&f, "MNT008", "/mounts/0/access"),
                "{src} -> {tgt}: {f:?}"
            );
        }
        let f = fired(&mounts(
            r#"[{"source":"/etc/runner","target":"/cfg","access":"read-only"}]"#,
        ));
        assert!(!has(&f, "MNT008", "/mounts/0/access"));
    }

    #[test]
    fn system_targets_and_severity() {
        let f = fired(&mounts(
            r#"[{"source":"/srv/workshop/scratch/j","target":"/proc/sys","access":"read-write"},{"source":"/srv/workshop/snapshots/p","target":"/etc/ssl","access":"read-only"},{"source":"/srv/workshop/snapshots/q","target":"/etcetera","access":"read-only"}]"#,
        ));
        assert!(f.iter().any(|(r, p, s, _)| r == "MNT014"
            && p == "/mounts/0/target"
            && *s == Severity::Critical));
        assert!(f
            .iter()
            .any(|(r, p, s, _)| r == "MNT014" && p == "/mounts/1/target" && *s == Severity::High));
        assert!(!has(&f, "MNT014", "/mounts/2/target"));
    }

    /// A root built from mounts (bubblewrap) or a process already in the
    /// host's tree has nothing to replace; a container's image does.
    #[test]
    fn system_targets_replace_only_what_an_image_provides() {
        let with = |boundary: &str, m: &str| {
            let p = mounts(m).replacen("{", &format!("{{\"boundary\":{boundary},"), 1);
            fired(&p)
        };
        let usr = r#"[{"source":"/usr","target":"/usr","access":"read-only"},{"source":"/","target":"/","access":"read-only"}]"#;
        let bwrap = with(
            r#"{"kind":"container","runtime":{"name":"bubblewrap"}}"#,
            usr,
        );
        assert!(!bwrap.iter().any(|(r, ..)| r == "MNT014"), "{bwrap:?}");
        let process = with(r#"{"kind":"process"}"#, usr);
        assert!(!process.iter().any(|(r, ..)| r == "MNT014"), "{process:?}");
        // Read exposure stays.
        assert!(has(&process, "MNT005", "/mounts/1/source"), "{process:?}");
        let elsewhere = with(
            r#"{"kind":"process"}"#,
            r#"[{"source":"/srv/workshop/scratch/j","target":"/usr/bin","access":"read-only"}]"#,
        );
        assert!(has(&elsewhere, "MNT014", "/mounts/0/target"));
        let container = with(r#"{"kind":"container","runtime":{"name":"runc"}}"#, usr);
        assert!(
            has(&container, "MNT014", "/mounts/0/target")
                && has(&container, "MNT014", "/mounts/1/target")
        );
    }

    #[test]
    fn shadowing_is_component_wise() {
        let f = fired(&mounts(
            r#"[{"source":"/srv/workshop/snapshots/p","target":"/workspace","access":"read-only"},{"source":"/srv/workshop/scratch/j","target":"/workspace/out","access":"read-write"},{"source":"/srv/workshop/scratch/k","target":"/workspace2","access":"read-write"},{"source":"/srv/workshop/scratch/l","target":"/workspace/","access":"read-write"}]"#,
        ));
        assert!(has(&f, "MNT015", "/mounts/1/target"));
        assert!(!has(&f, "MNT015", "/mounts/2/target"));
        assert!(has(&f, "MNT015", "/mounts/3/target"));
        assert!(!has(&f, "MNT015", "/mounts/0/target"));
    }

    #[test]
    fn undeclared_access_reported_once() {
        // scratch without access: only the declaration finding
        let f = fired(&mounts(
            r#"[{"source":"/srv/workshop/scratch/j","target":"/scratch"}]"#,
        ));
        assert_eq!(
            f.iter().map(|x| x.0.as_str()).collect::<Vec<_>>(),
            vec!["MNT016"]
        );
        // snapshot without access: writable-not-scratch carries it, not the declaration rule
        let f = fired(&mounts(
            r#"[{"source":"/srv/workshop/snapshots/p","target":"/workspace"}]"#,
        ));
        assert!(has(&f, "MNT007", "/mounts/0/access"));
        assert!(!has(&f, "MNT016", "/mounts/0/access"));
        let f = fired(r#"{"name":"t"}"#);
        assert!(has(&f, "MNT016", "/mounts"));
    }

    #[test]
    fn plantable_markers() {
        let f = fired(&mounts(
            r#"[{"source":"/srv/workshop/scratch/j/.git","target":"/repo/.git","access":"read-write"}]"#,
        ));
        assert!(has(&f, "MNT009", "/mounts/0/access"));
        let f = fired(&mounts(
            r#"[{"source":"/srv/workshop/scratch/j","target":"/root","access":"read-write"}]"#,
        ));
        assert!(has(&f, "MNT009", "/mounts/0/access"));
        let f = fired(&mounts(
            r#"[{"source":"/srv/workshop/scratch/j","target":"/scratch","access":"read-write"}]"#,
        ));
        assert!(f.is_empty(), "{f:?}");
    }

    #[test]
    fn unlabelled_repositories_are_plantable() {
        // (source, target, access, MNT009 expected)
        let table: &[(&str, &str, &str, bool)] = &[
            (".", "/workspace", "read-write", true),
            ("./", "/work", "read-write", true),
            ("$PWD", "/app", "read-write", true),
            ("${PWD}/sub", "/app", "read-write", true),
            ("/opt/ci/checkout", "/workspace", "read-write", true),
            ("/opt/ci/checkout", "/workspaces/proj", "read-write", true),
            ("/opt/ci/checkout", "/github/workspace", "read-write", true),
            ("/opt/ci/checkout", "/repo/", "read-write", true),
            // Benign twins: read-only, labelled scratch, other targets.
            (".", "/workspace", "read-only", false),
            ("/opt/ci/checkout", "/workspace", "read-only", false),
            ("/srv/workshop/scratch/j", "/workspace", "read-write", false),
            ("/opt/ci/out", "/out", "read-write", false),
            ("/opt/ci/checkout", "/workspace/build", "read-write", false),
            ("/opt/ci/checkout", "/workspaces/a/b", "read-write", false),
        ];
        for (src, tgt, access, want) in table {
            let f = fired(&mounts(&format!(
                r#"[{{"source":"{src}","target":"{tgt}","access":"{access}"}}]"#
            )));
            assert_eq!(
                has(&f, "MNT009", "/mounts/0/access"),
                *want,
                "{src} -> {tgt} {access}: {f:?}"
            );
        }
    }
}
