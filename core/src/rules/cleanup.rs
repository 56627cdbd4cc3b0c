//! Rules of the `cleanup` area: after results are collected the worker is
//! destroyed, task credentials are expired, failures of cleanup itself are
//! seen by someone, and only the metadata needed to diagnose the run is
//! kept.

use super::{Ctx, Emitter, Rule};
use crate::finding::{Area, CheckKind, Severity};
use crate::model::{Cleanup, OnFailure};

fn cleanup<'a>(ctx: &Ctx<'a>) -> Option<&'a Cleanup> {
    ctx.profile.cleanup.as_ref()
}

fn worker_kept(ctx: &Ctx<'_>, e: &mut Emitter) {
    e.unless_true(
        ctx,
        "/cleanup/destroy_worker",
        cleanup(ctx).and_then(|c| c.destroy_worker),
        "the worker, with anything the job planted or left in it, may outlive the job and serve the next one",
    );
}

fn credentials_kept(ctx: &Ctx<'_>, e: &mut Emitter) {
    let declared = ctx.profile.credentials().len();
    let consequence = if declared > 0 {
        "the job's credentials stay valid after it ends, for whoever copied them"
    } else {
        "any credential the runner supplies beyond the profile stays valid after the job ends"
    };
    if let Some(d) = e.unless_true(
        ctx,
        "/cleanup/expire_credentials",
        cleanup(ctx).and_then(|c| c.expire_credentials),
        consequence,
    ) {
        d.evidence("credentials_declared", declared);
        if declared == 0 {
            // Nothing declared to expire: a gap in the procedure, not yet
            // an open credential.
            d.severity(Severity::Medium);
        }
    }
}

fn failures_unhandled(ctx: &Ctx<'_>, e: &mut Emitter) {
    let pointer = "/cleanup/on_failure";
    match cleanup(ctx).and_then(|c| c.on_failure) {
        None => {
            e.undeclared(ctx, pointer, "a cleanup that fails may leave a worker or credential alive without anyone noticing");
        }
        Some(OnFailure::Ignore) => {
            e.emit(pointer, "a failed cleanup is ignored: a worker or credential it failed to remove stays alive unnoticed")
                .evidence("on_failure", "ignore");
        }
        Some(OnFailure::Retry) => {
            e.emit(
                pointer,
                "a failed cleanup is retried, but nobody is alerted when the retries fail too",
            )
            .evidence("on_failure", "retry")
            .severity(Severity::Low);
        }
        Some(OnFailure::Alert | OnFailure::RetryThenAlert) => {}
    }
}

/// Words naming private input or its containers.
const PRIVATE: [&str; 24] = [
    "workspace",
    "source",
    "sources",
    "src",
    "snapshot",
    "snapshots",
    "input",
    "inputs",
    "environment",
    "env",
    "home",
    "scratch",
    "filesystem",
    "rootfs",
    "disk",
    "volume",
    "volumes",
    "worker",
    "container",
    "memory",
    "coredump",
    "dump",
    "heap",
    "core",
];
/// Words naming secrets: keeping them is worse than keeping other input.
const SECRET: [&str; 6] = [
    "credential",
    "credentials",
    "secret",
    "secrets",
    "token",
    "tokens",
];
/// Entries that keep everything.
const EVERYTHING: [&str; 3] = ["*", "all", "everything"];
/// Words that make an entry metadata about the thing rather than the thing:
/// `source-digest`, `environment-names`.
const METADATA: [&str; 25] = [
    "peak", "usage", "digest", "digests", "hash", "hashes", "sha256", "sha512", "checksum", "name",
    "names", "size", "sizes", "count", "id", "ids", "ref", "revision", "commit", "version", "path",
    "paths", "list", "manifest", "metadata",
];

/// What a `retain` entry keeps beyond metadata.
#[derive(Debug, PartialEq)]
enum Kept {
    /// `*`, `all`: everything, secrets included.
    Everything,
    /// Credentials, secrets, tokens (the word that says so).
    Secret(String),
    /// Other private input or its container.
    Private(String),
}

fn private_retained(entry: &str) -> Option<Kept> {
    let lower = entry.trim().to_ascii_lowercase();
    if EVERYTHING.contains(&lower.as_str()) {
        return Some(Kept::Everything);
    }
    let words: Vec<&str> = lower
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect();
    if words.iter().any(|w| METADATA.contains(w)) {
        return None;
    }
    if let Some(w) = words.iter().find(|w| SECRET.contains(w)) {
        return Some(Kept::Secret(w.to_string()));
    }
    words
        .iter()
        .find(|w| PRIVATE.contains(w))
        .map(|w| Kept::Private(w.to_string()))
}

fn private_input_kept(ctx: &Ctx<'_>, e: &mut Emitter) {
    let retain = cleanup(ctx)
        .and_then(|c| c.retain.as_deref())
        .unwrap_or(&[]);
    for (i, entry) in retain.iter().enumerate() {
        let Some(kept) = private_retained(entry) else {
            continue;
        };
        let (message, matched, severity) = match kept {
            Kept::Everything => (
                format!("`{entry}` keeps everything the job touched, secrets and private input included"),
                "everything".to_string(),
                Severity::High,
            ),
            Kept::Secret(w) => (
                format!("`{entry}` is kept after the job: secrets must end with the task, not be stored beside its results"),
                w,
                Severity::High,
            ),
            Kept::Private(w) => (
                format!("`{entry}` is kept after the job: that is private input, more than the metadata needed to diagnose the run"),
                w,
                Severity::Medium,
            ),
        };
        e.emit(format!("/cleanup/retain/{i}"), message)
            .evidence("entry", entry.as_str())
            .evidence("matched", matched)
            .severity(severity);
    }
}

pub const RULES: &[Rule] = &[
    Rule {
        id: "CLN001",
        name: "worker-not-destroyed",
        area: Area::Cleanup,
        severity: Severity::High,
        title: "the worker is not destroyed after the job",
        rationale: "A disposable worker is only disposable if it is thrown away. Reused, it carries whatever the last job planted (a hook, a poisoned cache, a background process) into the next job, and keeps that job's files around.",
        remediation: "Set `cleanup.destroy_worker` to `true` and destroy the worker once results are collected.",
        runtime_check: Some(CheckKind::WorkerDestroyed),
        check: worker_kept,
    },
    Rule {
        id: "CLN002",
        name: "credentials-not-expired",
        area: Area::Cleanup,
        severity: Severity::High,
        title: "task credentials are not expired when the job ends",
        rationale: "Code under test can copy any credential it can read. If the credential stays valid after the job, that copy works for as long as the credential lives. When the profile declares no credentials the finding is medium: nothing known is left open, but the runner may still supply some.",
        remediation: "Set `cleanup.expire_credentials` to `true` and revoke task credentials as part of cleanup, on failure as well as success.",
        runtime_check: Some(CheckKind::CredentialExpired),
        check: credentials_kept,
    },
    Rule {
        id: "CLN003",
        name: "cleanup-failure-unhandled",
        area: Area::Cleanup,
        severity: Severity::Medium,
        title: "failures during cleanup are not handled",
        rationale: "Cleanup is where workers are destroyed and credentials revoked; when it fails silently, the exposure it was meant to end goes on. A failure that is only retried is reported as low: it still needs someone to hear when retries run out.",
        remediation: "Set `cleanup.on_failure` to `retry-then-alert` (or `alert`) and make cleanup's outcome observable.",
        runtime_check: None,
        check: failures_unhandled,
    },
    Rule {
        id: "CLN004",
        name: "private-input-retained",
        area: Area::Cleanup,
        severity: Severity::Medium,
        title: "private input retained after the job",
        rationale: "Keeping enough protected metadata to explain what ran (exit code, duration, digests) is useful; keeping the workspace, source snapshot, environment, scratch space or home directory keeps private input that the diagnosis does not need. Retained credentials, secrets or tokens are reported as high.",
        remediation: "Retain metadata only: exit code, duration, image and input digests. Collect needed outputs as explicit artifacts instead.",
        runtime_check: None,
        check: private_input_kept,
    },
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn retained_entries() {
        let private = |w: &str| Some(Kept::Private(w.to_string()));
        assert_eq!(private_retained("workspace"), private("workspace"));
        assert_eq!(private_retained("source-snapshot"), private("source"));
        assert_eq!(private_retained("Environment"), private("environment"));
        assert_eq!(private_retained("scratch/"), private("scratch"));
        assert_eq!(private_retained("core-dump"), private("core"));
        assert_eq!(
            private_retained("task_credentials"),
            Some(Kept::Secret("credentials".into()))
        );
        assert_eq!(private_retained(" * "), Some(Kept::Everything));
        assert_eq!(private_retained("All"), Some(Kept::Everything));
        for entry in [
            "exit-code",
            "duration",
            "image-digest",
            "source-snapshot-digest",
            "environment-names",
            "peak-memory",
            "junit-report",
            "logs",
            "",
        ] {
            assert_eq!(private_retained(entry), None, "{entry}");
        }
    }
}
