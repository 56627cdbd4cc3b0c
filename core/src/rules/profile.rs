//! Rules about the profile document itself: what could not be read as
//! written must block, because a typo in a security setting would otherwise
//! pass as "not declared" or, worse, as the value a different parser picked.

use super::{Ctx, Emitter, Rule};
use crate::decode::ProblemKind;
use crate::finding::{Area, Severity};

fn problems(ctx: &Ctx<'_>, e: &mut Emitter, pick: fn(&ProblemKind) -> bool) {
    for p in ctx.problems.iter().filter(|p| pick(&p.kind)) {
        let d = e.emit(p.pointer.clone(), p.describe());
        match &p.kind {
            ProblemKind::UnknownField { key, suggestion } => {
                d.evidence("field", key.as_str());
                if let Some(s) = suggestion {
                    d.evidence("did_you_mean", *s);
                }
            }
            ProblemKind::UnknownValue { value, accepted } => {
                d.evidence("value", value.as_str());
                d.evidence("accepted", accepted.to_vec());
            }
            ProblemKind::WrongType { expected, found } => {
                d.evidence("expected", *expected);
                d.evidence("found", *found);
            }
            _ => {}
        }
    }
}

pub(crate) const PRF001: Rule = Rule {
    id: "PRF001",
    name: "unknown-field",
    area: Area::Profile,
    severity: Severity::High,
    title: "a field the profile format does not define",
    rationale: "A misspelled setting is not applied by anything, so the profile would be audited as if the setting were absent while its author believes it is in force. isolint refuses to guess: an unknown field blocks eligibility until it is corrected or removed.",
    remediation: "Correct the spelling (see the suggestion) or remove the field; `isolint schema profile` lists every accepted field.",
    runtime_check: None,
    check: |ctx, e| problems(ctx, e, |k| matches!(k, ProblemKind::UnknownField { .. })),
};

pub(crate) const PRF003: Rule = Rule {
    id: "PRF003",
    name: "wrong-type",
    area: Area::Profile,
    severity: Severity::High,
    title: "a value has the wrong JSON type",
    rationale: "A setting written with the wrong type (a string where a boolean is expected, say) cannot be interpreted reliably; runners may coerce it, ignore it or fail. The audit cannot tell what will be enforced.",
    remediation: "Write the value with the type the format expects; `isolint schema profile` gives each field's type.",
    runtime_check: None,
    check: |ctx, e| {
        problems(ctx, e, |k| {
            matches!(k, ProblemKind::WrongType { .. } | ProblemKind::BadInteger { .. })
        })
    },
};

pub(crate) const PRF004: Rule = Rule {
    id: "PRF004",
    name: "unknown-value",
    area: Area::Profile,
    severity: Severity::High,
    title: "a value outside the accepted set",
    rationale: "Enumerated settings such as egress, seccomp or access have a closed set of meanings. An unlisted value has no defined behaviour, so the audit cannot credit it with any protection.",
    remediation: "Use one of the accepted values listed in the message.",
    runtime_check: None,
    check: |ctx, e| {
        problems(ctx, e, |k| {
            matches!(
                k,
                ProblemKind::UnknownValue { .. } | ProblemKind::PathOutside { .. }
            )
        })
    },
};

pub(crate) const PRF005: Rule = Rule {
    id: "PRF005",
    name: "missing-name-or-schema",
    area: Area::Profile,
    severity: Severity::High,
    title: "the profile has no name, or no `isolint.profile/v1` schema",
    rationale: "Findings, waivers and runtime results are tied to a profile by its name and digest. A nameless profile (or one whose name is only invisible characters), or a document that does not say it is a profile, cannot be tracked through review and runtime verification.",
    remediation: "Give the profile a visible `name`, and set `schema` to `isolint.profile/v1`.",
    runtime_check: None,
    check: |ctx, e| {
        problems(ctx, e, |k| {
            matches!(k, ProblemKind::Missing { .. } | ProblemKind::WrongSchema { .. })
        })
    },
};

pub(crate) const PRF002: Rule = Rule {
    id: "PRF002",
    name: "duplicate-key",
    area: Area::Profile,
    severity: Severity::Critical,
    title: "a key appears twice in the same object",
    rationale: "JSON parsers disagree on which of two equal keys wins: some keep the first, most keep the last, some refuse. The runner may therefore apply a different value from the one reviewed here. isolint audits the last value and blocks eligibility.",
    remediation: "Keep exactly one occurrence of the key, with the value you intend.",
    runtime_check: None,
    check: |ctx, e| {
        for d in ctx.duplicates {
            e.emit(
                d.pointer.clone(),
                format!(
                    "key appears again at line {} column {}, after its first use at line {} column {}; parsers disagree on which value wins",
                    d.again.line, d.again.column, d.first.line, d.first.column
                ),
            )
            .evidence("first_line", d.first.line)
            .evidence("again_line", d.again.line);
        }
    },
};

// The next rules are raised by operator waivers (`--waivers FILE`, see
// crate::waivers), not by the profile alone.
pub(crate) const PRF006: Rule = Rule {
    id: "PRF006",
    name: "waiver-expired",
    area: Area::Profile,
    severity: Severity::High,
    title: "a waiver for this finding has expired",
    rationale: "Accepted risk is accepted for a period, after which someone must look again. An expired waiver no longer hides its finding, and the lapse itself is reported so the owner renews or removes it.",
    remediation: "Review the finding again; fix the profile, or have the owner grant a new waiver with a new expiry date.",
    runtime_check: None,
    check: |_, _| {},
};

pub(crate) const PRF007: Rule = Rule {
    id: "PRF007",
    name: "waiver-profile-changed",
    area: Area::Profile,
    severity: Severity::High,
    title: "a waiver was granted for a different version of the profile",
    rationale: "A waiver accepts one finding in one exact profile, identified by its sha256. Once the profile changes, the context the reviewer accepted may no longer hold, so the waiver stops applying until it is granted again.",
    remediation: "Re-review the changed profile and grant a new waiver with its current sha256 (`isolint waive` prints one).",
    runtime_check: None,
    check: |_, _| {},
};

pub(crate) const PRF008: Rule = Rule {
    id: "PRF008",
    name: "waivers-file-in-mount",
    area: Area::Profile,
    severity: Severity::Critical,
    title: "the waivers file lies inside a mounted source",
    rationale: "Waivers must be out of reach of the code under test. A waivers file inside a writable mount could have been written by the job that benefits from it, so none of its waivers apply; inside a read-only mount it is still readable by the job.",
    remediation: "Keep the waivers file in an operator-owned location that no profile mounts.",
    runtime_check: None,
    check: |_, _| {},
};

pub(crate) const PRF009: Rule = Rule {
    id: "PRF009",
    name: "waiver-unused",
    area: Area::Profile,
    severity: Severity::Low,
    title: "a waiver matches no finding",
    rationale: "A waiver that matches nothing is either stale (the finding was fixed) or aimed at the wrong pointer, in which case the finding it was meant for still counts. Either way the waivers file should be tidied.",
    remediation: "Remove the waiver, or correct its rule and pointer.",
    runtime_check: None,
    check: |_, _| {},
};

// Raised when a runner overlay (`--runner FILE`, see crate::runner) is
// merged under an imported profile.
pub(crate) const PRF020: Rule = Rule {
    id: "PRF020",
    name: "runner-overlay-conflict",
    area: Area::Profile,
    severity: Severity::High,
    title: "the runner overlay and the imported file disagree on a setting",
    rationale: "The runner overlay declares what the runner does beside the manifest, and the review covers both together. When the two state different values for the same setting, at least one of them misdescribes the job; auditing either value silently would let the other one mislead the reviewer.",
    remediation: "Make the overlay and the imported file agree: change the one that is wrong, or drop the setting from the overlay.",
    runtime_check: None,
    check: |_, _| {},
};

// Raised by an import read with `--partial`: the file depends on context
// (a Compose `env_file`, `include`, `extends.file`, `.env`) that could not
// be read. Without `--partial` such a file is refused (exit 2) instead.
pub(crate) const PRF021: Rule = Rule {
    id: "PRF021",
    name: "context-unread",
    area: Area::Profile,
    severity: Severity::High,
    title: "a setting's value lives in a file that could not be read",
    rationale: "Part of what the job gets is decided outside the audited text: an env file, an included or extended Compose file, a project `.env`. The tool that runs the job reads it; the audit could not. Whatever it grants (credentials, a privileged sidecar, host networking) is invisible here, so the profile cannot be judged eligible.",
    remediation: "Audit the file where what it refers to can be read (beside its companion files), or audit the output of `docker compose config`, which has them resolved.",
    runtime_check: None,
    check: |_, _| {},
};

pub const RULES: &[&Rule] = &[
    &PRF001, &PRF002, &PRF003, &PRF004, &PRF005, &PRF006, &PRF007, &PRF008, &PRF009, &PRF020,
    &PRF021,
];
