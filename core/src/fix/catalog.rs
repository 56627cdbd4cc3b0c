//! The fix of every rule, keyed by rule id: the edits on the profile model
//! and how safe they are, or why no fix is offered. Kept beside the rules
//! (not inside each `Rule`) so a fix can be declared without touching the
//! area files; `tests::every_rule_has_an_entry` holds the two lists
//! together.

use super::{Applicability, Edit, FixRule, Remedy};

use Applicability::{Safe, Unsafe};

/// The first `n` tokens of `pointer`: `/mounts/2` of `/mounts/2/source`.
/// `None` when the pointer is shorter.
pub(crate) fn prefix(pointer: &str, n: usize) -> Option<String> {
    let mut out = String::new();
    let mut tokens = pointer.split('/').skip(1);
    for _ in 0..n {
        out.push('/');
        out.push_str(tokens.next()?);
    }
    Some(out)
}

fn set(pointer: impl Into<String>, value: &'static str) -> Option<Vec<Edit>> {
    Some(vec![Edit::Set {
        pointer: pointer.into(),
        value,
    }])
}

fn remove(pointer: impl Into<String>) -> Option<Vec<Edit>> {
    Some(vec![Edit::Remove {
        pointer: pointer.into(),
    }])
}

/// Remove the mount the finding is about.
fn remove_mount(p: &str) -> Option<Vec<Edit>> {
    prefix(p, 2)
        .filter(|m| m.starts_with("/mounts/"))
        .and_then(remove)
}

/// Set the access of the mount the finding is about to read-only.
fn mount_read_only(p: &str) -> Option<Vec<Edit>> {
    let m = prefix(p, 2).filter(|m| m.starts_with("/mounts/"))?;
    set(format!("{m}/access"), "\"read-only\"")
}

/// Remove the item the finding points at, when it lies under `under`.
fn remove_item(p: &str, under: &str) -> Option<Vec<Edit>> {
    let rest = p.strip_prefix(under)?.strip_prefix('/')?;
    if rest.is_empty() || rest.contains('/') {
        return None;
    }
    remove(p)
}

fn remove_variable(p: &str) -> Option<Vec<Edit>> {
    remove_item(p, "/environment/variables")
}

fn remove_allow_entry(p: &str) -> Option<Vec<Edit>> {
    prefix(p, 3)
        .filter(|e| e.starts_with("/network/allow/"))
        .and_then(remove)
}

const NEEDS_DECISION: &str =
    "what to write instead depends on what the job does, which only its owner knows";
const RUNNER_FACT: &str = "it describes how the runner enforces the setting; editing the text does not change the runner, so only a runner change can make it true";
const WAIVER: &str = "it is about an operator's waiver, which lives outside the profile";

/// The catalog, one entry per rule, grouped by area.
#[rustfmt::skip]
pub(crate) static CATALOG: &[FixRule] = &[
    // Mounts.
    FixRule { rule: "MNT001", remedy: Remedy::Fix { applicability: Unsafe, summary: "remove the mount of the developer home", plan: remove_mount } },
    FixRule { rule: "MNT002", remedy: Remedy::Fix { applicability: Unsafe, summary: "remove the mount of the credential store", plan: remove_mount } },
    FixRule { rule: "MNT003", remedy: Remedy::Fix { applicability: Unsafe, summary: "remove the mount of the production socket", plan: remove_mount } },
    FixRule { rule: "MNT004", remedy: Remedy::Fix { applicability: Unsafe, summary: "remove the mount of the engine socket", plan: remove_mount } },
    FixRule { rule: "MNT005", remedy: Remedy::Fix { applicability: Unsafe, summary: "remove the mount that exposes the sensitive location", plan: remove_mount } },
    FixRule { rule: "MNT006", remedy: Remedy::Fix { applicability: Unsafe, summary: "remove the mount the declared needs do not require", plan: remove_mount } },
    FixRule { rule: "MNT007", remedy: Remedy::Fix { applicability: Safe, summary: "make the mount read-only (it is neither scratch nor output)", plan: mount_read_only } },
    FixRule { rule: "MNT008", remedy: Remedy::Fix { applicability: Safe, summary: "make the mount over trusted configuration read-only", plan: mount_read_only } },
    FixRule { rule: "MNT009", remedy: Remedy::Fix { applicability: Unsafe, summary: "make the mount read-only (the job may need to write there)", plan: mount_read_only } },
    FixRule { rule: "MNT010", remedy: Remedy::Fix { applicability: Unsafe, summary: "remove the mount no trusted label covers", plan: remove_mount } },
    FixRule { rule: "MNT011", remedy: Remedy::None("the path the runtime resolves `..` to depends on links only the host knows; write the resolved path by hand") },
    FixRule { rule: "MNT012", remedy: Remedy::None("the absolute path depends on the runner's working directory, which the profile does not say") },
    FixRule { rule: "MNT013", remedy: Remedy::None("which path was meant cannot be read from text holding control characters") },
    FixRule { rule: "MNT014", remedy: Remedy::None(NEEDS_DECISION) },
    FixRule { rule: "MNT015", remedy: Remedy::None("which of the two mounts the job should see is the owner's decision") },
    FixRule { rule: "MNT016", remedy: Remedy::Fix { applicability: Unsafe, summary: "declare the mount read-only", plan: |p| if p.ends_with("/access") { mount_read_only(p) } else { None } } },
    FixRule { rule: "MNT020", remedy: Remedy::Fix { applicability: Unsafe, summary: "remove the mount of the engine's data directory", plan: remove_mount } },
    // Network.
    FixRule { rule: "NET001", remedy: Remedy::Fix { applicability: Unsafe, summary: "declare egress `deny`", plan: |_| set("/network/egress", "\"deny\"") } },
    FixRule { rule: "NET002", remedy: Remedy::Fix { applicability: Unsafe, summary: "deny egress (the job lists no service it must reach)", plan: |_| set("/network/egress", "\"deny\"") } },
    FixRule { rule: "NET003", remedy: Remedy::Fix { applicability: Unsafe, summary: "remove the broad allow entry", plan: remove_allow_entry } },
    FixRule { rule: "NET004", remedy: Remedy::Fix { applicability: Unsafe, summary: "remove the allow entry to a private or metadata address", plan: remove_allow_entry } },
    FixRule { rule: "NET005", remedy: Remedy::None(RUNNER_FACT) },
    FixRule { rule: "NET006", remedy: Remedy::Fix { applicability: Unsafe, summary: "stop following redirects", plan: |_| set("/network/follow_redirects", "false") } },
    FixRule { rule: "NET007", remedy: Remedy::None(RUNNER_FACT) },
    FixRule { rule: "NET008", remedy: Remedy::Fix { applicability: Unsafe, summary: "use `https` instead of a plaintext protocol", plan: |p| if p.ends_with("/protocol") { set(p, "\"https\"") } else { None } } },
    FixRule { rule: "NET009", remedy: Remedy::Fix { applicability: Unsafe, summary: "remove the allow list that egress `deny` ignores", plan: |p| if p == "/network/allow" { remove(p) } else { None } } },
    FixRule { rule: "NET010", remedy: Remedy::Fix { applicability: Unsafe, summary: "remove the allow entry that is not a plain host", plan: remove_allow_entry } },
    FixRule { rule: "NET011", remedy: Remedy::Fix { applicability: Unsafe, summary: "remove the allow entry that carries a credential", plan: remove_allow_entry } },
    FixRule { rule: "NET020", remedy: Remedy::None(RUNNER_FACT) },
    FixRule { rule: "NET021", remedy: Remedy::Fix { applicability: Unsafe, summary: "remove the proxy variable", plan: remove_variable } },
    FixRule { rule: "NET022", remedy: Remedy::Fix { applicability: Unsafe, summary: "remove the variable that weakens certificate checks", plan: remove_variable } },
    FixRule { rule: "NET023", remedy: Remedy::Fix { applicability: Unsafe, summary: "remove the allow entry to shared hosting", plan: remove_allow_entry } },
    FixRule { rule: "NET024", remedy: Remedy::Fix { applicability: Unsafe, summary: "remove the allow entry to the cluster or a metadata alias", plan: remove_allow_entry } },
    FixRule { rule: "NET030", remedy: Remedy::Fix { applicability: Unsafe, summary: "remove the hosts-file entry", plan: |p| remove_item(p, "/network/hosts") } },
    FixRule { rule: "NET031", remedy: Remedy::None(RUNNER_FACT) },
    // Credentials.
    FixRule { rule: "CRD001", remedy: Remedy::Fix { applicability: Unsafe, summary: "stop inheriting the launcher's environment", plan: |_| set("/environment/inherit", "false") } },
    FixRule { rule: "CRD002", remedy: Remedy::Fix { applicability: Unsafe, summary: "remove the variable holding a secret (hand it over through a broker)", plan: remove_variable } },
    FixRule { rule: "CRD003", remedy: Remedy::None("a short-lived credential needs a broker that issues it; the profile cannot conjure one") },
    FixRule { rule: "CRD004", remedy: Remedy::Fix { applicability: Unsafe, summary: "scope the credential to the task", plan: |p| if p.ends_with("/scope") { set(p, "\"task\"") } else { None } } },
    FixRule { rule: "CRD005", remedy: Remedy::Fix { applicability: Unsafe, summary: "limit the credential's lifetime to 900 seconds", plan: |p| if p.ends_with("/ttl_seconds") { set(p, "900") } else { None } } },
    FixRule { rule: "CRD006", remedy: Remedy::Fix { applicability: Safe, summary: "expose the credential to the job only, not to model context", plan: |p| if p.ends_with("/exposed_to") { set(p, "\"job\"") } else { None } } },
    FixRule { rule: "CRD007", remedy: Remedy::Fix { applicability: Unsafe, summary: "remove the variable pointing at a credential store", plan: remove_variable } },
    FixRule { rule: "CRD008", remedy: Remedy::None("removing the argument changes the command; the secret must move to a broker by hand") },
    // Privileges.
    FixRule { rule: "PRV001", remedy: Remedy::Fix { applicability: Safe, summary: "set `boundary.privileged` to `false`", plan: |_| set("/boundary/privileged", "false") } },
    FixRule { rule: "PRV002", remedy: Remedy::Fix { applicability: Safe, summary: "remove the added capability", plan: |p| remove_item(p, "/boundary/capabilities/add") } },
    FixRule { rule: "PRV003", remedy: Remedy::Fix { applicability: Safe, summary: "drop `ALL` capabilities", plan: |_| set("/boundary/capabilities/drop", "[\"ALL\"]") } },
    FixRule { rule: "PRV004", remedy: Remedy::Fix { applicability: Unsafe, summary: "run as user `1000:1000`", plan: |_| set("/boundary/user", "\"1000:1000\"") } },
    FixRule { rule: "PRV005", remedy: Remedy::Fix { applicability: Safe, summary: "set `boundary.no_new_privileges` to `true`", plan: |_| set("/boundary/no_new_privileges", "true") } },
    FixRule { rule: "PRV006", remedy: Remedy::Fix { applicability: Unsafe, summary: "stop sharing the host namespace", plan: |p| remove_item(p, "/boundary/host_namespaces") } },
    FixRule { rule: "PRV007", remedy: Remedy::Fix { applicability: Safe, summary: "use the runtime's `default` seccomp filter", plan: |_| set("/boundary/seccomp", "\"default\"") } },
    FixRule { rule: "PRV008", remedy: Remedy::Fix { applicability: Unsafe, summary: "make the root filesystem read-only (outputs must go to writable mounts)", plan: |_| set("/boundary/read_only_root", "true") } },
    FixRule { rule: "PRV009", remedy: Remedy::Fix { applicability: Unsafe, summary: "remove the engine socket's mount or variable", plan: |p| remove_variable(p).or_else(|| remove_mount(p)) } },
    // Isolation.
    FixRule { rule: "ISO001", remedy: Remedy::None("a boundary with its own kernel is a runner change, not an edit") },
    FixRule { rule: "ISO002", remedy: Remedy::None("a boundary is a runner change, not an edit") },
    FixRule { rule: "ISO003", remedy: Remedy::None("who wrote the code the job runs is known only to its owner") },
    FixRule { rule: "ISO004", remedy: Remedy::None("the runtime's name and version must be read from the runner") },
    FixRule { rule: "ISO005", remedy: Remedy::None("the patch date must be read from the runner") },
    FixRule { rule: "ISO006", remedy: Remedy::None("upgrading the runtime is a runner change") },
    FixRule { rule: "ISO007", remedy: Remedy::Fix { applicability: Safe, summary: "remove the label the settings contradict (it is a description only)", plan: |_| remove("/boundary/label") } },
    FixRule { rule: "ISO008", remedy: Remedy::Fix { applicability: Safe, summary: "remove the label that disagrees with the runtime (it is a description only)", plan: |p| if p == "/boundary/label" { remove(p) } else { None } } },
    // Commands.
    FixRule { rule: "CMD001", remedy: Remedy::None(NEEDS_DECISION) },
    FixRule { rule: "CMD002", remedy: Remedy::None("splitting shell text into programs changes what runs; rewrite it by hand") },
    FixRule { rule: "CMD003", remedy: Remedy::None("splitting shell text into programs changes what runs; rewrite it by hand") },
    FixRule { rule: "CMD004", remedy: Remedy::None(NEEDS_DECISION) },
    FixRule { rule: "CMD005", remedy: Remedy::None(NEEDS_DECISION) },
    FixRule { rule: "CMD006", remedy: Remedy::None(NEEDS_DECISION) },
    FixRule { rule: "CMD007", remedy: Remedy::None(NEEDS_DECISION) },
    FixRule { rule: "CMD008", remedy: Remedy::None(NEEDS_DECISION) },
    FixRule { rule: "CMD009", remedy: Remedy::Fix { applicability: Unsafe, summary: "remove the code-loading variable", plan: remove_variable } },
    // Limits.
    FixRule { rule: "LIM001", remedy: Remedy::Fix { applicability: Unsafe, summary: "limit wall-clock time to 3600 seconds", plan: |_| set("/limits/wall_seconds", "3600") } },
    FixRule { rule: "LIM002", remedy: Remedy::Fix { applicability: Unsafe, summary: "limit processor time to 3600 seconds", plan: |_| set("/limits/cpu_seconds", "3600") } },
    FixRule { rule: "LIM003", remedy: Remedy::Fix { applicability: Unsafe, summary: "limit memory to 4 GiB", plan: |_| set("/limits/memory_bytes", "4294967296") } },
    FixRule { rule: "LIM004", remedy: Remedy::Fix { applicability: Unsafe, summary: "limit processes to 256", plan: |_| set("/limits/processes", "256") } },
    FixRule { rule: "LIM005", remedy: Remedy::Fix { applicability: Unsafe, summary: "limit output to 100 MiB", plan: |_| set("/limits/output_bytes", "104857600") } },
    FixRule { rule: "LIM006", remedy: Remedy::None(NEEDS_DECISION) },
    FixRule { rule: "LIM007", remedy: Remedy::None(RUNNER_FACT) },
    FixRule { rule: "LIM008", remedy: Remedy::None(RUNNER_FACT) },
    FixRule { rule: "LIM009", remedy: Remedy::Fix { applicability: Unsafe, summary: "cap concurrent jobs at 8", plan: |_| set("/concurrency/max_jobs", "8") } },
    FixRule { rule: "LIM010", remedy: Remedy::None(RUNNER_FACT) },
    FixRule { rule: "LIM011", remedy: Remedy::None(RUNNER_FACT) },
    FixRule { rule: "LIM020", remedy: Remedy::Fix { applicability: Safe, summary: "let the OOM killer pick the job", plan: |p| match p {
        "/boundary/oom_kill_disable" => set(p, "false"),
        "/boundary/oom_score_adj" => set(p, "0"),
        _ => None,
    } } },
    // Dependencies.
    FixRule { rule: "DEP001", remedy: Remedy::None("preparing dependencies ahead of the job is a pipeline change") },
    FixRule { rule: "DEP002", remedy: Remedy::None(RUNNER_FACT) },
    FixRule { rule: "DEP003", remedy: Remedy::None(RUNNER_FACT) },
    FixRule { rule: "DEP004", remedy: Remedy::Fix { applicability: Unsafe, summary: "make the dependency cache read-only", plan: |_| set("/dependencies/fetch_stage/cache", "\"read-only\"") } },
    FixRule { rule: "DEP005", remedy: Remedy::None("an allow list of registries is the owner's to write") },
    FixRule { rule: "DEP006", remedy: Remedy::None("the digest must be read from the registry, which the audit does not reach") },
    FixRule { rule: "DEP007", remedy: Remedy::None("a lockfile is generated by the package manager") },
    FixRule { rule: "DEP008", remedy: Remedy::None("a review is a person's act; the profile can only record it") },
    FixRule { rule: "DEP009", remedy: Remedy::Fix { applicability: Safe, summary: "preserve the run's inputs", plan: |_| set("/dependencies/preserve_inputs", "true") } },
    FixRule { rule: "DEP010", remedy: Remedy::None(NEEDS_DECISION) },
    FixRule { rule: "DEP011", remedy: Remedy::None("a lockfile is generated by the package manager") },
    FixRule { rule: "DEP012", remedy: Remedy::None(NEEDS_DECISION) },
    FixRule { rule: "DEP013", remedy: Remedy::None(NEEDS_DECISION) },
    // Artifacts.
    FixRule { rule: "ART001", remedy: Remedy::Fix { applicability: Unsafe, summary: "stop collecting the pattern that escapes the job's tree", plan: |p| remove_item(p, "/artifacts/collect") } },
    FixRule { rule: "ART002", remedy: Remedy::Fix { applicability: Unsafe, summary: "stop collecting the pattern that sweeps the whole tree", plan: |p| remove_item(p, "/artifacts/collect") } },
    FixRule { rule: "ART003", remedy: Remedy::Fix { applicability: Unsafe, summary: "stop collecting the active-content report", plan: |p| remove_item(p, "/artifacts/collect") } },
    FixRule { rule: "ART004", remedy: Remedy::Fix { applicability: Unsafe, summary: "bound collected artifacts to 1 MiB", plan: |_| set("/artifacts/max_bytes", "1048576") } },
    FixRule { rule: "ART005", remedy: Remedy::Fix { applicability: Unsafe, summary: "bound collected logs to 256 KiB", plan: |_| set("/artifacts/log_max_bytes", "262144") } },
    FixRule { rule: "ART006", remedy: Remedy::Fix { applicability: Safe, summary: "treat artifacts as untrusted", plan: |_| set("/artifacts/treat_as_untrusted", "true") } },
    FixRule { rule: "ART007", remedy: Remedy::None(NEEDS_DECISION) },
    // Cleanup.
    FixRule { rule: "CLN001", remedy: Remedy::Fix { applicability: Safe, summary: "destroy the worker after the job", plan: |_| set("/cleanup/destroy_worker", "true") } },
    FixRule { rule: "CLN002", remedy: Remedy::Fix { applicability: Safe, summary: "expire credentials when the job ends", plan: |_| set("/cleanup/expire_credentials", "true") } },
    FixRule { rule: "CLN003", remedy: Remedy::Fix { applicability: Safe, summary: "retry a failed cleanup, then alert", plan: |_| set("/cleanup/on_failure", "\"retry-then-alert\"") } },
    FixRule { rule: "CLN004", remedy: Remedy::Fix { applicability: Unsafe, summary: "stop retaining private input", plan: |p| remove_item(p, "/cleanup/retain") } },
    FixRule { rule: "CLN005", remedy: Remedy::Fix { applicability: Safe, summary: "retain the exit code, duration and image digest", plan: |_| set("/cleanup/retain", "[\"exit-code\", \"duration\", \"image-digest\"]") } },
    // Profile.
    FixRule { rule: "PRF001", remedy: Remedy::None("the intended field is a guess; rename or remove it by hand") },
    FixRule { rule: "PRF002", remedy: Remedy::None("which of the values was meant is the owner's decision") },
    FixRule { rule: "PRF003", remedy: Remedy::None(NEEDS_DECISION) },
    FixRule { rule: "PRF004", remedy: Remedy::None(NEEDS_DECISION) },
    FixRule { rule: "PRF005", remedy: Remedy::Fix { applicability: Safe, summary: "declare the `isolint.profile/v1` schema", plan: |p| if p == "/schema" { set(p, "\"isolint.profile/v1\"") } else { None } } },
    FixRule { rule: "PRF006", remedy: Remedy::None(WAIVER) },
    FixRule { rule: "PRF007", remedy: Remedy::None(WAIVER) },
    FixRule { rule: "PRF008", remedy: Remedy::None(WAIVER) },
    FixRule { rule: "PRF009", remedy: Remedy::None(WAIVER) },
    FixRule { rule: "PRF020", remedy: Remedy::None("the runner overlay and the file disagree; which one is right is the operator's decision") },
    // Kernel and resolution.
    FixRule { rule: "ISO020", remedy: Remedy::Fix { applicability: Unsafe, summary: "give the job no terminal of the caller's", plan: |_| set("/boundary/terminal", "\"none\"") } },
    FixRule { rule: "PRV020", remedy: Remedy::Fix { applicability: Safe, summary: "keep the runtime's masking of kernel files", plan: |_| Some(vec![
        Edit::Set { pointer: "/boundary/masked_paths".into(), value: "true" },
        Edit::Remove { pointer: "/boundary/unmasked_paths".into() },
    ]) } },
    FixRule { rule: "PRV021", remedy: Remedy::Fix { applicability: Safe, summary: "use the runtime's `default` security-module policy", plan: |p| match p {
        "/boundary/apparmor" | "/boundary/selinux" => set(p, "\"default\""),
        _ => None,
    } } },
    FixRule { rule: "PRV022", remedy: Remedy::Fix { applicability: Unsafe, summary: "remove the host device, or the mount that brings it in", plan: |p| remove_item(p, "/boundary/devices").or_else(|| remove_mount(p)) } },
    FixRule { rule: "ISO021", remedy: Remedy::Fix { applicability: Unsafe, summary: "stop sharing the process namespace", plan: |p| remove_item(p, "/boundary/shares_pid_with") } },
    FixRule { rule: "ISO022", remedy: Remedy::None(NEEDS_DECISION) },
    FixRule { rule: "MNT030", remedy: Remedy::None(NEEDS_DECISION) },
    FixRule { rule: "PRV023", remedy: Remedy::Fix { applicability: Unsafe, summary: "remove the kernel parameter", plan: |p| remove_item(p, "/boundary/sysctls") } },
    FixRule { rule: "PRV024", remedy: Remedy::Fix { applicability: Unsafe, summary: "remove the supplementary group", plan: |p| remove_item(p, "/boundary/groups") } },
    FixRule { rule: "MNT031", remedy: Remedy::None("the host-side step or the writable mount must move; which one the job can do without is the operator's decision") },
    FixRule { rule: "NET032", remedy: Remedy::None("pinning DNS to a resolver that answers only the allowed names is a platform setting the profile can only declare once it exists") },
    FixRule { rule: "PRF021", remedy: Remedy::None("the file depends on context isolint could not read; supply it (run where the files are, or without --partial) rather than edit the file") },
];
