//! Profile edits written into sandbox-runtime (`srt`) or Claude Code
//! sandbox settings: `filesystem.allowWrite`, `network.allowedDomains`
//! (under `sandbox` for Claude Code) and Claude Code's permission rules.
//!
//! The sandbox reads everything not denied, so a writable path made
//! read-only is one dropped from the lists that grant writes; a mount
//! cannot be removed (the path stays readable under `/`, and `denyRead`
//! has no profile equivalent), so that fix is refused.

use super::json_edit::{plan_doc, DocEdit};
use super::source::{no_setting, pointer_of, JsonFile, Profile, Refusal};
use super::{Edit, TextEdit};
use crate::import::Format;

/// The lists whose entries grant writes: `(container pointer, rule
/// prefix)`; a rule prefix means only entries of that rule kind count.
const WRITE_LISTS: &[&str] = &[
    "/filesystem/allowWrite",
    "/sandbox/filesystem/allowWrite",
    "/permissions/additionalDirectories",
    "/permissions/allow",
];

const DOMAIN_LISTS: &[&str] = &["/network/allowedDomains", "/sandbox/network/allowedDomains"];

/// The entry of one of `lists` that the format pointer `q` lies in.
fn entry_in(q: &str, lists: &[&str]) -> Option<String> {
    lists.iter().find_map(|l| {
        let rest = q.strip_prefix(l)?.strip_prefix('/')?;
        let index = rest.split('/').next()?;
        index
            .bytes()
            .all(|b| b.is_ascii_digit())
            .then(|| format!("{l}/{index}"))
    })
}

pub(super) fn plan(f: &JsonFile, p: &Profile, edits: &[Edit]) -> Result<Vec<TextEdit>, Refusal> {
    if p.imported.name == "outside-sandbox" {
        return Err("these commands run with no sandbox at all; take them out of `excludedCommands` (or set `allowUnsandboxedCommands` to false) by hand".into());
    }
    let mut doc: Vec<DocEdit> = Vec::new();
    let mut push = |e: DocEdit| {
        if !doc.contains(&e) {
            doc.push(e);
        }
    };
    for e in edits {
        let pointer = pointer_of(e);
        p.expressible(pointer)?;
        let tokens: Vec<&str> = pointer.split('/').skip(1).collect();
        let origin = |ptr: &str| p.origin(ptr).and_then(|l| f.pointer_at(l));
        match (e, tokens.as_slice()) {
            (
                Edit::Set {
                    value: "\"read-only\"",
                    ..
                },
                ["mounts", i, "access"],
            ) => {
                let m = format!("/mounts/{i}");
                let q = origin(&m)
                    .and_then(|q| entry_in(q, WRITE_LISTS))
                    .ok_or_else(|| format!("`{m}` is granted by no entry of `allowWrite`, `additionalDirectories` or an `Edit` rule"))?;
                // The path stays readable through the read-only `/`.
                push(DocEdit::Remove { pointer: q });
            }
            (Edit::Remove { .. }, ["mounts", _]) => {
                return Err("the sandbox reads everything not denied: without the mount the path is still readable under `/`, and `denyRead` has no profile equivalent; deny it by hand".into());
            }
            (Edit::Remove { .. }, ["network", "allow", _]) => {
                let q = origin(pointer)
                    .and_then(|q| {
                        entry_in(q, DOMAIN_LISTS).or_else(|| entry_in(q, &["/permissions/allow"]))
                    })
                    .ok_or_else(|| {
                        format!("`{pointer}` comes from no entry of `allowedDomains`")
                    })?;
                push(DocEdit::Remove { pointer: q });
            }
            (
                Edit::Set {
                    value: "\"deny\"", ..
                },
                ["network", "egress"],
            ) => {
                let mut any = false;
                for l in DOMAIN_LISTS {
                    if f.node(l).is_some() {
                        push(DocEdit::Set {
                            pointer: (*l).to_string(),
                            value: "[]".into(),
                        });
                        any = true;
                    }
                }
                if !any {
                    return Err("no `allowedDomains` list grants the egress".into());
                }
            }
            _ => return Err(no_setting(Format::SandboxSettings, e)),
        }
    }
    let mut out = plan_doc(f.text, &f.doc.root, &doc)?;
    out.sort_by_key(|e| (e.start, e.end));
    Ok(out)
}
