//! Rules of the `dependencies` area: prepare dependencies before the job in
//! a reviewed, pinned image or artifact; if they must be fetched, fetch them
//! in a separate, controlled stage; keep the exact inputs; and do not read a
//! lockfile as a verdict on the packages it names.

use super::{Ctx, Emitter, Rule};
use crate::finding::{Area, CheckKind, Severity};
use crate::model::{BoundaryKind, Dependencies, Egress, FetchStage, PreparedIn, StringEnum};
use crate::shell::fetch::{fetch_of, install_of, pipelines_of, pipes_to_shell, Pipelines};

fn deps<'a>(ctx: &Ctx<'a>) -> Option<&'a Dependencies> {
    ctx.profile.dependencies.as_ref()
}

/// The fetch stage, when one is declared.
fn fetch_stage<'a>(ctx: &Ctx<'a>) -> Option<&'a FetchStage> {
    deps(ctx).and_then(|d| d.fetch_stage.as_ref())
}

fn prepared_in(ctx: &Ctx<'_>) -> Option<PreparedIn> {
    deps(ctx).and_then(|d| d.prepared_in)
}

// ---------------------------------------------------------------------------
// Fetching

/// The test stage's declared egress, if any.
fn test_egress(ctx: &Ctx<'_>) -> Option<Egress> {
    ctx.profile.network.as_ref().and_then(|n| n.egress)
}

pub(crate) const DEP001: Rule = Rule {
    id: "DEP001",
    name: "runtime-fetch-network-inherited",
    area: Area::Dependencies,
    severity: Severity::High,
    title: "tests inherit the network that a run-time fetch needed",
    rationale: "A job that downloads dependencies as it runs needs network access, and unless the tests run in a stage with egress denied (or limited to what the tests themselves need), every test, hook and child process keeps that access. An offline test stage is what makes a fetched dependency unable to call home.",
    remediation: "Prepare dependencies in a reviewed image or artifact (`dependencies.prepared_in`), or fetch in a separate stage and run the tests with `network.egress` `deny`.",
    runtime_check: Some(CheckKind::EgressDenied),
    check: runtime_fetch_network,
};

fn runtime_fetch_network(ctx: &Ctx<'_>, e: &mut Emitter) {
    if prepared_in(ctx) != Some(PreparedIn::RuntimeFetch) {
        return;
    }
    let separate = fetch_stage(ctx).and_then(|f| f.separate) == Some(true);
    let egress = test_egress(ctx);
    let message = match egress {
        None => "dependencies are fetched at run time and the tests' egress is not declared, so the tests may keep the network the fetch needed",
        Some(Egress::AllowAll) => "dependencies are fetched at run time and the tests may reach any destination: they keep far more network than the fetch needed",
        // Without a separate stage the allow list must let the fetch
        // through, so the tests can reach the registries too.
        Some(Egress::AllowList) if !separate => "dependencies are fetched at run time by the stage that runs the tests, so its allow list opens the package registries to every test",
        _ => return,
    };
    e.emit("/dependencies/prepared_in", message)
        .evidence("prepared_in", "runtime-fetch")
        .evidence("egress", egress.map_or("undeclared", |g| g.as_str()))
        .evidence("separate_fetch_stage", separate);
}

pub(crate) const DEP002: Rule = Rule {
    id: "DEP002",
    name: "fetch-not-separated",
    area: Area::Dependencies,
    severity: Severity::High,
    title: "the run-time fetch is not separated from test execution",
    rationale: "Fetching and executing have different needs: the fetch needs a registry and its token, the tests need neither. In one stage, both are available to all the code that runs, including install hooks and the tests. (Reported at medium when egress is denied: the profile then contradicts itself rather than opening anything.)",
    remediation: "Set `dependencies.fetch_stage.separate` to `true` and run the fetch before, and apart from, the tests, handing over only the fetched files.",
    runtime_check: None,
    check: fetch_not_separate,
};

fn fetch_not_separate(ctx: &Ctx<'_>, e: &mut Emitter) {
    if prepared_in(ctx) != Some(PreparedIn::RuntimeFetch) {
        return;
    }
    let pointer = "/dependencies/fetch_stage/separate";
    let d = match fetch_stage(ctx).and_then(|f| f.separate) {
        Some(true) => return,
        None => e.undeclared(ctx, pointer, "dependencies fetched at run time are fetched by the job itself, in the stage that runs the tests"),
        Some(false) => e.emit(pointer, "dependencies are fetched at run time in the stage that runs the tests, with its credentials and its network"),
    };
    d.evidence("prepared_in", "runtime-fetch");
    if test_egress(ctx) == Some(Egress::Deny) {
        // If the deny holds nothing is inherited: the declaration is
        // contradictory rather than open.
        d.severity(Severity::Medium);
        d.message
            .push_str("; with egress denied, either the fetch fails or the deny is not what runs");
    }
}

pub(crate) const DEP012: Rule = Rule {
    id: "DEP012",
    name: "dependency-source-undeclared",
    area: Area::Dependencies,
    severity: Severity::Medium,
    title: "where dependencies come from is not declared",
    rationale: "A job whose dependencies are neither in a named image or artifact nor fetched by a declared stage usually installs them itself, from the network, as it runs. The review cannot tell what code will be installed, or with which access.",
    remediation: "Set `dependencies.prepared_in` to `image` or `artifact` (preferred for offline jobs), or to `runtime-fetch` with a separate fetch stage.",
    runtime_check: None,
    check: preparation_undeclared,
};

fn preparation_undeclared(ctx: &Ctx<'_>, e: &mut Emitter) {
    if prepared_in(ctx).is_none() {
        e.undeclared(
            ctx,
            "/dependencies/prepared_in",
            "nothing says whether dependencies come from a reviewed image or artifact or are fetched while the tests run",
        );
    }
}

/// Credentials that only the fetch stage holds.
const FETCH_ONLY_CREDENTIALS: [&str; 2] = ["fetch-only", "none"];

pub(crate) const DEP003: Rule = Rule {
    id: "DEP003",
    name: "fetch-stage-shares-credentials",
    area: Area::Dependencies,
    severity: Severity::High,
    title: "the fetch stage does not hold credentials of its own",
    rationale: "Registry credentials are for fetching; the job's task credentials are for the job. If one stage holds both, an install hook can use the job's identity, or a test can read the registry token. A declared fetch stage with no declared credential policy is reported at medium.",
    remediation: "Give the fetch stage its own narrow credentials: `dependencies.fetch_stage.credentials` `fetch-only` (or `none` for a public mirror).",
    runtime_check: None,
    check: fetch_credentials_shared,
};

fn fetch_credentials_shared(ctx: &Ctx<'_>, e: &mut Emitter) {
    let Some(stage) = fetch_stage(ctx) else {
        return;
    };
    let pointer = "/dependencies/fetch_stage/credentials";
    match stage.credentials.as_deref().map(str::trim) {
        None => {
            e.undeclared(ctx, pointer, "the fetch stage may run with the job's own credentials, or hand its registry token to the tests")
                .severity(Severity::Medium);
        }
        Some(c)
            if FETCH_ONLY_CREDENTIALS
                .iter()
                .any(|ok| c.eq_ignore_ascii_case(ok)) => {}
        Some(_) => {
            // The value is not echoed: it sits under a credentials key and
            // may be mistaken for, or be, a secret.
            e.emit(
                pointer,
                "the fetch stage's credentials are not `fetch-only`: the registry token and the job's own identity can reach each other's stage",
            );
        }
    }
}

/// Cache policies under which the job cannot change what later jobs install.
const SAFE_CACHE: [&str; 6] = [
    "read-only",
    "none",
    "disabled",
    "off",
    "ephemeral",
    "per-job",
];

pub(crate) const DEP004: Rule = Rule {
    id: "DEP004",
    name: "dependency-cache-writable",
    area: Area::Dependencies,
    severity: Severity::High,
    title: "a dependency cache the job can write",
    rationale: "The fetch stage's `cache` is the cache policy as the job sees it. A cache that a job can write survives the job: hostile code can replace a package there, and every later job that installs from the cache runs it. An undeclared or unrecognized policy is reported at medium.",
    remediation: "Set `dependencies.fetch_stage.cache` to `read-only` (populated only by the fetch stage) or `none`.",
    runtime_check: Some(CheckKind::WriteDenied),
    check: cache_writable,
};

fn cache_writable(ctx: &Ctx<'_>, e: &mut Emitter) {
    let Some(stage) = fetch_stage(ctx) else {
        return;
    };
    let pointer = "/dependencies/fetch_stage/cache";
    let Some(cache) = stage.cache.as_deref().map(str::trim) else {
        e.undeclared(
            ctx,
            pointer,
            "the dependency cache may be writable by the job and shared with later jobs",
        )
        .severity(Severity::Medium);
        return;
    };
    let lower = cache.to_ascii_lowercase();
    if SAFE_CACHE.contains(&lower.as_str()) {
        return;
    }
    let writable =
        lower.contains("write") || lower.contains("writable") || lower == "rw" || lower == "shared";
    let d = if writable {
        e.emit(
            pointer,
            format!("the dependency cache is `{cache}`: a job that can write it can plant packages that later jobs install"),
        )
    } else {
        e.emit(
            pointer,
            format!("`{cache}` is not a cache policy isolint recognizes; it cannot tell whether the job can write the shared cache"),
        )
    };
    d.evidence("cache", cache);
    if !writable {
        d.severity(Severity::Medium);
    }
}

pub(crate) const DEP005: Rule = Rule {
    id: "DEP005",
    name: "fetch-stage-network-open",
    area: Area::Dependencies,
    severity: Severity::Medium,
    title: "a fetch stage that may reach any destination",
    rationale: "Fetching runs package install hooks, which are code. A controlled fetch stage reaches its package registries and nothing else, so a hook cannot send data elsewhere or pull in a second payload.",
    remediation: "Set `dependencies.fetch_stage.network` to `allow-list` and name the registries in the runner's policy.",
    runtime_check: Some(CheckKind::EgressDenied),
    check: fetch_network_open,
};

fn fetch_network_open(ctx: &Ctx<'_>, e: &mut Emitter) {
    let Some(stage) = fetch_stage(ctx) else {
        return;
    };
    let pointer = "/dependencies/fetch_stage/network";
    match stage.network {
        None => {
            e.undeclared(
                ctx,
                pointer,
                "the fetch stage, which runs install hooks, may reach any destination",
            );
        }
        Some(Egress::AllowAll) => {
            e.emit(
                pointer,
                "the fetch stage may reach any destination, though it needs only its package registries",
            )
            .evidence("network", "allow-all");
        }
        Some(_) => {}
    }
}

// ---------------------------------------------------------------------------
// Image

/// Whether `image` names its content by digest (`…@sha256:<64 hex>` or
/// `…@sha512:<128 hex>`, lowercase as OCI requires).
fn pinned_by_digest(image: &str) -> bool {
    let Some((name, digest)) = image.rsplit_once('@') else {
        return false;
    };
    let hex_ok = |s: &str, n: usize| {
        s.len() == n
            && s.bytes()
                .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
    };
    !name.is_empty()
        && match digest.split_once(':') {
            Some(("sha256", h)) => hex_ok(h, 64),
            Some(("sha512", h)) => hex_ok(h, 128),
            _ => false,
        }
}

/// The tag of an image reference, if it has one (a `:` after the last `/`,
/// so a registry port is not taken for a tag).
fn image_tag(image: &str) -> Option<&str> {
    let name = image.split_once('@').map_or(image, |(n, _)| n);
    let last = name.rsplit('/').next().unwrap_or(name);
    last.split_once(':').map(|(_, t)| t)
}

pub(crate) const DEP006: Rule = Rule {
    id: "DEP006",
    name: "image-not-pinned",
    area: Area::Dependencies,
    severity: Severity::High,
    title: "the job's image is not pinned by digest",
    rationale: "A tag such as `python:3.12` or `latest` can be pointed at different content at any time, so the image that runs may not be the one that was reviewed, and the runtime checks tied to it no longer apply. A missing image is reported too (high when dependencies are said to be prepared in it, medium otherwise).",
    remediation: "Name the image by digest: `registry.example/runner@sha256:<64 hex digits>`, and re-run the runtime checks whenever the digest changes.",
    runtime_check: None,
    check: image_not_pinned,
};

fn image_not_pinned(ctx: &Ctx<'_>, e: &mut Emitter) {
    let pointer = "/dependencies/image";
    match deps(ctx).and_then(|d| d.image.as_deref()) {
        Some(image) if pinned_by_digest(image) => {}
        Some(image) => {
            let why = if image.contains('@') {
                "its digest is not a well-formed `sha256:` or `sha512:` digest".to_string()
            } else {
                match image_tag(image) {
                    None => "without a tag or digest it means `latest`, whatever that is when the job starts".to_string(),
                    Some("latest") => "`latest` moves with every push".to_string(),
                    Some(t) => format!("the tag `{t}` can be moved to other content"),
                }
            };
            e.emit(
                pointer,
                format!("image `{image}` is not pinned by digest: {why}, so the image that runs may not be the one reviewed and checked"),
            )
            .evidence("image", image)
            .evidence("tag", image_tag(image).unwrap_or(""));
        }
        None => {
            let kind = ctx.profile.boundary.as_ref().and_then(|b| b.kind);
            let prepared = prepared_in(ctx);
            if kind == Some(BoundaryKind::Process) && prepared != Some(PreparedIn::Image) {
                return; // a bare process runs in no image
            }
            if prepared == Some(PreparedIn::Image) {
                e.undeclared(ctx, pointer, "the reviewed image the dependencies are said to be prepared in cannot be identified, and no runtime check can be tied to it");
            } else {
                e.undeclared(ctx, pointer, "the job runs in whatever image the runner defaults to, and no runtime check can be tied to it")
                    .severity(Severity::Medium);
            }
        }
    }
}

// ---------------------------------------------------------------------------
// Lockfile, review, inputs

/// Files that list dependencies without pinning what they resolve to.
const MANIFESTS: [&str; 11] = [
    "package.json",
    "pyproject.toml",
    "setup.py",
    "setup.cfg",
    "pipfile",
    "cargo.toml",
    "gemfile",
    "go.mod",
    "composer.json",
    "pom.xml",
    "build.gradle",
];

fn basename(path: &str) -> &str {
    path.rsplit(['/', '\\']).next().unwrap_or(path)
}

pub(crate) const DEP007: Rule = Rule {
    id: "DEP007",
    name: "no-lockfile",
    area: Area::Dependencies,
    severity: Severity::Medium,
    title: "no lockfile pins the dependency versions",
    rationale: "Without a lockfile the versions installed depend on what the index serves that day, so two runs of the same job can execute different code. A manifest such as `package.json` or `pyproject.toml` names dependencies but does not pin them.",
    remediation: "Commit a lockfile with exact versions and hashes (e.g. `requirements.lock` from pip-compile `--generate-hashes`, `package-lock.json`, `Cargo.lock`) and name it in `dependencies.lockfile`.",
    runtime_check: None,
    check: no_lockfile,
};

fn no_lockfile(ctx: &Ctx<'_>, e: &mut Emitter) {
    let pointer = "/dependencies/lockfile";
    match deps(ctx).and_then(|d| d.lockfile.as_deref()).map(str::trim) {
        None => {
            e.undeclared(
                ctx,
                pointer,
                "the versions the job installs can change between runs without review",
            );
        }
        Some("") => {
            e.emit(pointer, "`dependencies.lockfile` is empty, so the installed versions can change between runs");
        }
        Some(f) if MANIFESTS.contains(&basename(f).to_ascii_lowercase().as_str()) => {
            e.emit(
                pointer,
                format!("`{f}` is a manifest, not a lockfile: it names dependencies but not the exact versions and hashes they resolve to"),
            )
            .evidence("lockfile", f);
        }
        Some(_) => {}
    }
}

pub(crate) const DEP008: Rule = Rule {
    id: "DEP008",
    name: "dependencies-unreviewed",
    area: Area::Dependencies,
    severity: Severity::Medium,
    title: "install hooks and transitive dependencies not reviewed",
    rationale: "A lockfile fixes which versions are installed; it says nothing about whether they are trustworthy. Install hooks run code at install time, and transitive dependencies arrive without anyone choosing them; both need review in proportion to the risk.",
    remediation: "Review install hooks and transitive dependencies (or disable hooks where the ecosystem allows), then set `dependencies.install_hooks_reviewed` to `true`.",
    runtime_check: None,
    check: hooks_unreviewed,
};

fn hooks_unreviewed(ctx: &Ctx<'_>, e: &mut Emitter) {
    e.unless_true(
        ctx,
        "/dependencies/install_hooks_reviewed",
        deps(ctx).and_then(|d| d.install_hooks_reviewed),
        "nobody vouches for the install hooks and transitive dependencies; a lockfile pins versions, not trust",
    );
}

pub(crate) const DEP009: Rule = Rule {
    id: "DEP009",
    name: "inputs-not-preserved",
    area: Area::Dependencies,
    severity: Severity::Medium,
    title: "the exact inputs of the run are not preserved",
    rationale: "To diagnose a result, or to connect it later to a released artifact, you need the exact files, image and dependencies the test runner received. Without them a run cannot be reproduced or audited.",
    remediation: "Keep the exact inputs (snapshot digest, image digest, lockfile) with protected metadata and set `dependencies.preserve_inputs` to `true`.",
    runtime_check: None,
    check: inputs_not_preserved,
};

fn inputs_not_preserved(ctx: &Ctx<'_>, e: &mut Emitter) {
    e.unless_true(
        ctx,
        "/dependencies/preserve_inputs",
        deps(ctx).and_then(|d| d.preserve_inputs),
        "the exact inputs given to the test runner may be lost, and a result cannot be traced to what produced it",
    );
}

// ---------------------------------------------------------------------------
// Commands that fetch code, as the shared shell analysis finds them.

/// The pipelines of each of the profile's commands, split once for all
/// the rules that read them.
fn command_pipelines<'c>(ctx: &'c Ctx<'_>) -> &'c [Pipelines] {
    ctx.pipelines.get_or_init(|| {
        ctx.profile
            .commands()
            .into_iter()
            .map(|(base, cmd)| pipelines_of(&base, cmd))
            .collect()
    })
}

pub(crate) const DEP010: Rule = Rule {
    id: "DEP010",
    name: "remote-script-piped-to-interpreter",
    area: Area::Dependencies,
    severity: Severity::High,
    title: "a downloaded script run directly by an interpreter",
    rationale: "`curl … | sh` and its relatives execute whatever the server returns at that moment, with no pin, no review and the job's full access; a compromised or redirected download runs as the job.",
    remediation: "Download the script during image preparation, pin it by hash, review it, and run the pinned copy; or install the tool from a locked package.",
    runtime_check: None,
    check: remote_script,
};

fn remote_script(ctx: &Ctx<'_>, e: &mut Emitter) {
    for pipelines in command_pipelines(ctx) {
        for hit in pipes_to_shell(pipelines) {
            e.emit(
                hit.pointer,
                format!(
                    "`{}` runs whatever `{}` downloads, unreviewed and unpinned, with the job's access",
                    hit.shown, hit.downloader
                ),
            )
            .evidence("downloader", hit.downloader)
            .evidence("interpreter", hit.interpreter);
        }
    }
}

pub(crate) const DEP011: Rule = Rule {
    id: "DEP011",
    name: "unlocked-install",
    area: Area::Dependencies,
    severity: Severity::Medium,
    title: "a command installs packages from the network without a lock",
    rationale: "A setup step or test command that runs `pip install pkg`, `npm install` or an unlocked tool install resolves versions at run time, so the code under test changes with the index, and the step needs network access while it runs.",
    remediation: "Install from a lockfile with hashes (`pip install --require-hashes -r requirements.lock`, `npm ci`, `cargo install --locked`), or better, prepare dependencies in the image.",
    runtime_check: None,
    check: unlocked_install,
};

fn unlocked_install(ctx: &Ctx<'_>, e: &mut Emitter) {
    let lockfile = deps(ctx).and_then(|d| d.lockfile.as_deref());
    for pipelines in command_pipelines(ctx) {
        for simple in pipelines.iter().flatten() {
            if let Some(hit) = install_of(simple, lockfile) {
                e.emit(
                    hit.pointer,
                    format!(
                        "`{}` installs from the network without a lock: {}",
                        hit.shown, hit.why
                    ),
                )
                .evidence("tool", hit.tool)
                .evidence(
                    "prepared_in",
                    prepared_in(ctx).map_or("undeclared", |p| p.as_str()),
                );
            }
        }
    }
}

/// Where the profile says dependencies arrive without the job fetching
/// them: its pointer and what it says.
fn declared_separation(ctx: &Ctx<'_>) -> Option<(&'static str, String)> {
    match prepared_in(ctx) {
        Some(p @ (PreparedIn::Image | PreparedIn::Artifact)) => Some((
            "/dependencies/prepared_in",
            format!("dependencies are prepared in the {}", p.as_str()),
        )),
        _ if fetch_stage(ctx).and_then(|f| f.separate) == Some(true) => Some((
            "/dependencies/fetch_stage/separate",
            "a separate stage fetches dependencies".to_string(),
        )),
        _ => None,
    }
}

pub(crate) const DEP013: Rule = Rule {
    id: "DEP013",
    name: "fetch-inside-job",
    area: Area::Dependencies,
    severity: Severity::High,
    title: "the job fetches dependencies itself despite a declared separation",
    rationale: "A profile that says dependencies come from a reviewed image, an artifact or a separate fetch stage is reviewed as an offline job. An install or download in its own setup or command, while the job has network, contradicts that: the code it fetches is unreviewed, and every test, hook and child process keeps the network the fetch needed.",
    remediation: "Move the install or download into the image build or the separate fetch stage and hand over only the fetched files; or run the job with `network.egress` `deny`, so the step fails instead of fetching.",
    runtime_check: Some(CheckKind::EgressDenied),
    check: fetch_in_job,
};

fn fetch_in_job(ctx: &Ctx<'_>, e: &mut Emitter) {
    let Some((declared_at, declared)) = declared_separation(ctx) else {
        return;
    };
    // Undeclared egress is whatever the runner allows: it counts as network.
    let egress = test_egress(ctx);
    if egress == Some(Egress::Deny) {
        return;
    }
    let egress = egress.map_or("undeclared", |g| g.as_str());
    for pipelines in command_pipelines(ctx) {
        for simple in pipelines.iter().flatten() {
            let Some(hit) = fetch_of(simple) else {
                continue;
            };
            e.emit(
                hit.pointer,
                format!(
                    "`{}` fetches from the network inside the job, while `{declared_at}` says {declared}: the job keeps network access (egress `{egress}`) that the separation was meant to take away",
                    hit.shown
                ),
            )
            .evidence("program", hit.program)
            .evidence("declared_at", declared_at)
            .evidence("egress", egress);
        }
    }
}

pub const RULES: &[&Rule] = &[
    &DEP001, &DEP002, &DEP003, &DEP004, &DEP005, &DEP006, &DEP007, &DEP008, &DEP009, &DEP010,
    &DEP011, &DEP012, &DEP013,
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digests_and_tags() {
        let hex64 = "4f9c2a1b0d3e5f6a7b8c9d0e1f2a3b4c5d6e7f8a9b0c1d2e3f4a5b6c7d8e9f0a";
        assert!(pinned_by_digest(&format!(
            "registry.example/runner@sha256:{hex64}"
        )));
        assert!(pinned_by_digest(&format!("python:3.12@sha256:{hex64}")));
        assert!(!pinned_by_digest(&format!(
            "python@sha256:{}",
            hex64.to_uppercase()
        )));
        assert!(!pinned_by_digest("python@sha256:abc"));
        assert!(!pinned_by_digest(&format!("@sha256:{hex64}")));
        assert!(!pinned_by_digest("python:3.12"));
        assert_eq!(image_tag("python:3.12"), Some("3.12"));
        assert_eq!(image_tag("registry.example:5000/runner"), None);
        assert_eq!(
            image_tag("registry.example:5000/runner:latest"),
            Some("latest")
        );
        assert_eq!(image_tag("ubuntu"), None);
    }
}
