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

pub(crate) const CLN001: Rule = Rule {
    id: "CLN001",
    name: "worker-not-destroyed",
    area: Area::Cleanup,
    severity: Severity::High,
    title: "the worker is not destroyed after the job",
    rationale: "A disposable worker is only disposable if it is thrown away. Reused, it carries whatever the last job planted (a hook, a poisoned cache, a background process) into the next job, and keeps that job's files around.",
    remediation: "Set `cleanup.destroy_worker` to `true` and destroy the worker once results are collected.",
    runtime_check: Some(CheckKind::WorkerDestroyed),
    check: worker_kept,
};

fn worker_kept(ctx: &Ctx<'_>, e: &mut Emitter) {
    e.unless_true(
        ctx,
        "/cleanup/destroy_worker",
        cleanup(ctx).and_then(|c| c.destroy_worker),
        "the worker, with anything the job planted or left in it, may outlive the job and serve the next one",
    );
}

pub(crate) const CLN002: Rule = Rule {
    id: "CLN002",
    name: "credentials-not-expired",
    area: Area::Cleanup,
    severity: Severity::High,
    title: "task credentials are not expired when the job ends",
    rationale: "Code under test can copy any credential it can read. If the credential stays valid after the job, that copy works for as long as the credential lives. When the profile declares no credentials the finding is medium: nothing known is left open, but the runner may still supply some.",
    remediation: "Set `cleanup.expire_credentials` to `true` and revoke task credentials as part of cleanup, on failure as well as success.",
    runtime_check: Some(CheckKind::CredentialExpired),
    check: credentials_kept,
};

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

pub(crate) const CLN003: Rule = Rule {
    id: "CLN003",
    name: "cleanup-failure-unhandled",
    area: Area::Cleanup,
    severity: Severity::Medium,
    title: "failures during cleanup are not handled",
    rationale: "Cleanup is where workers are destroyed and credentials revoked; when it fails silently, the exposure it was meant to end goes on. A failure that is only retried is reported as low: it still needs someone to hear when retries run out.",
    remediation: "Set `cleanup.on_failure` to `retry-then-alert` (or `alert`) and make cleanup's outcome observable.",
    runtime_check: None,
    check: failures_unhandled,
};

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

pub(crate) const CLN004: Rule = Rule {
    id: "CLN004",
    name: "private-input-retained",
    area: Area::Cleanup,
    severity: Severity::Medium,
    title: "private input retained after the job",
    rationale: "Keeping enough protected metadata to explain what ran (exit code, duration, digests) is useful; keeping the workspace, source snapshot, environment, scratch space or home directory keeps private input that the diagnosis does not need. Retained credentials, secrets or tokens are reported as high.",
    remediation: "Retain metadata only: exit code, duration, image and input digests. Collect needed outputs as explicit artifacts instead.",
    runtime_check: None,
    check: private_input_kept,
};

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

/// Whether a `retain` entry keeps something that helps diagnose the run:
/// not blank, and not private input or a secret (which CLN004 reports).
fn keeps_metadata(entry: &str) -> bool {
    !entry.trim().is_empty()
        && !matches!(
            private_retained(entry),
            Some(Kept::Private(_) | Kept::Secret(_))
        )
}

pub(crate) const CLN005: Rule = Rule {
    id: "CLN005",
    name: "nothing-retained",
    area: Area::Cleanup,
    severity: Severity::Low,
    title: "no metadata is kept to diagnose what ran",
    rationale: "Destroying the worker is right, but a run that leaves no record cannot be diagnosed or audited afterwards: nobody can tell which image and inputs ran, how long it took or how it exited. A few protected facts about the run are enough; private input is not needed.",
    remediation: "List the metadata to keep in `cleanup.retain`, for example `exit-code`, `duration`, `image-digest` and `input-digest`.",
    runtime_check: None,
    check: nothing_kept,
};

fn nothing_kept(ctx: &Ctx<'_>, e: &mut Emitter) {
    // A missing `retain` is the runner's default, not a declared choice.
    let Some(retain) = cleanup(ctx).and_then(|c| c.retain.as_deref()) else {
        return;
    };
    if retain.iter().any(|r| keeps_metadata(r)) {
        return;
    }
    let message = if retain.is_empty() {
        "`cleanup.retain` is empty: once the worker is destroyed nothing shows what ran, how it ended or from which inputs"
    } else {
        "`cleanup.retain` keeps no metadata about the run, only blank entries or private input: once the worker is destroyed nothing shows what ran or how it ended"
    };
    e.emit("/cleanup/retain", message)
        .evidence("entries", retain.len());
}

pub const RULES: &[&Rule] = &[&CLN001, &CLN002, &CLN003, &CLN004, &CLN005];

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

    #[test]
    fn nothing_kept_to_diagnose() {
        let at = |retain: &str| {
            let p = crate::WORKSHOP_PROFILE_FIXED.replace(
                r#""retain": ["exit-code", "duration", "image-digest"]"#,
                retain,
            );
            assert_ne!(p, crate::WORKSHOP_PROFILE_FIXED, "{retain}");
            super::super::area_findings(&p, Area::Cleanup, None)
                .into_iter()
                .filter(|f| f.0 == "CLN005")
                .map(|f| (f.1, f.2))
                .collect::<Vec<_>>()
        };
        let low = vec![(Severity::Low, "/cleanup/retain".to_string())];
        assert_eq!(at(r#""retain": []"#), low);
        assert_eq!(at(r#""retain": ["", "  "]"#), low);
        assert_eq!(at(r#""retain": ["workspace"]"#), low);
        assert_eq!(at(r#""retain": ["task-credentials", ""]"#), low);
        assert!(at(r#""retain": ["exit-code"]"#).is_empty());
        assert!(at(r#""retain": ["workspace", "duration"]"#).is_empty());
        assert!(at(r#""retain": ["*"]"#).is_empty());
        // Not declared: the runner's default, reported nowhere.
        assert!(at(r#""retain_note": "runner default""#).is_empty());
    }
}
