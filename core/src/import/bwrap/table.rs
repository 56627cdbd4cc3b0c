//! The mount table bwrap builds, in the order of its options.
//!
//! bwrap mounts each option on top of the tree the earlier ones built: a
//! mount at a path replaces what every earlier mount showed at that path
//! and below, and `--remount-ro DEST` makes the one mount at `DEST`
//! read-only (not the mounts below it: bwrap remounts without recursion).
//! A bind that a later mount covers whole is left out of the profile, as
//! the job never sees it; one covered in part stays, with the covered
//! path in its `excludes`. Only paths read the same by the
//! kernel and lexically take part: a destination with `..` or a shell
//! expansion never hides anything, so an unsure reading keeps the
//! exposure.

use super::super::builder::{Draft, OVal};
use super::super::tree::Loc;

/// A host mount to write into the profile, unless a later mount hides it.
pub(super) struct Planned {
    pub source: String,
    pub src_at: Loc,
    pub target: String,
    pub dst_at: Loc,
    pub read_only: bool,
    pub access_at: Loc,
}

/// What one option mounted.
enum Layer {
    /// A host path (or a descriptor's content): an index into `planned`.
    Host(usize),
    /// A tmpfs, proc, dev or mqueue of the sandbox's own.
    Private,
}

struct Entry {
    layer: Layer,
    /// The option that made it, as written, for notes.
    option: String,
}

#[derive(Default)]
pub(super) struct MountTable {
    planned: Vec<Planned>,
    hidden: Vec<bool>,
    /// For each planned mount, the paths inside it that later mounts
    /// cover, each where the covering option is written.
    excludes: Vec<Vec<(String, Loc)>>,
    entries: Vec<Entry>,
    /// The entries still seen, by destination in normal form, each list
    /// in mount order: a cover removes what it hides, so every entry is
    /// looked at once however many options follow.
    live: std::collections::BTreeMap<String, Vec<usize>>,
}

/// `dest` in normal form (`//`, `.` and a trailing `/` removed), or `None`
/// for a path not absolute or holding `..`: bwrap resolves `..` inside
/// the sandbox after following its links, which the text does not show.
pub(super) fn dest_key(dest: &str) -> Option<String> {
    if !dest.starts_with('/') {
        return None;
    }
    let mut parts = Vec::new();
    for c in dest.split('/') {
        match c {
            "" | "." => {}
            ".." => return None,
            c => parts.push(c),
        }
    }
    Some(format!("/{}", parts.join("/")))
}

/// `key` and each directory above it, nearest first.
fn ancestors(key: &str) -> impl Iterator<Item = &str> {
    let mut rest = Some(key);
    std::iter::from_fn(move || {
        let k = rest?;
        rest = match k.rfind('/') {
            Some(0) if k.len() > 1 => Some("/"),
            Some(i) if i > 0 => k.get(..i),
            _ => None,
        };
        Some(k)
    })
    .skip(1)
}

impl MountTable {
    /// A mount of `option` at `dest` goes on top: every earlier mount at
    /// `dest` or below is hidden, and one above it is hidden in part.
    /// `written` is the option as the notes show it.
    pub fn cover(&mut self, d: &mut Draft, dest: &str, written: &str, at: Loc) {
        let Some(key) = dest_key(dest) else {
            if dest.starts_with('/') {
                d.note(
                    at,
                    format!("`{written}`: bwrap resolves `..` inside the sandbox, after its links; the mounts it may cover are kept in the profile"),
                );
            }
            return;
        };
        // The key itself and the keys after `KEY/` and before `KEY0`
        // (`0` follows `/`): exactly the paths below it.
        let (from, to) = if key == "/" {
            ("/".to_string(), "0".to_string())
        } else {
            (format!("{key}/"), format!("{key}0"))
        };
        let below: Vec<String> = self
            .live
            .get_key_value(&key)
            .map(|(k, _)| k.clone())
            .into_iter()
            .chain(self.live.range(from..to).map(|(k, _)| k.clone()))
            .collect();
        for k in below {
            for i in self.live.remove(&k).unwrap_or_default() {
                let Some(e) = self.entries.get(i) else {
                    continue;
                };
                if let Layer::Host(p) = e.layer {
                    if let Some(h) = self.hidden.get_mut(p) {
                        *h = true;
                    }
                    d.note(
                        at,
                        format!(
                            "`{written}` covers `{}` at `{k}`, which the job no longer sees; that mount is left out of the profile",
                            e.option
                        ),
                    );
                }
            }
        }
        // Every host mount above `key` still seen stops showing at `key`:
        // the new mount is there now. A `-try` bind bwrap may skip is
        // excluded too, as it would show nothing there either way.
        let above: Vec<usize> = ancestors(&key)
            .filter_map(|a| self.live.get(a))
            .flatten()
            .filter_map(|i| match self.entries.get(*i)?.layer {
                Layer::Host(p) => Some(p),
                Layer::Private => None,
            })
            .collect();
        for p in above {
            let Some(ex) = self.excludes.get_mut(p) else {
                continue;
            };
            if ex
                .iter()
                .any(|(e, _)| e == "/" || key == *e || key.starts_with(&format!("{e}/")))
            {
                continue;
            }
            ex.retain(|(e, _)| !e.starts_with(&format!("{key}/")));
            ex.push((key.clone(), at));
            let option = self
                .entries
                .iter()
                .find(|e| matches!(e.layer, Layer::Host(q) if q == p))
                .map_or("", |e| e.option.as_str());
            d.note(
                at,
                format!(
                    "`{written}` hides `{key}` of the earlier `{option}`; the profile lists `{key}` in that mount's `excludes`"
                ),
            );
        }
    }

    fn push(&mut self, dest: Option<String>, layer: Layer, option: String) {
        if let Some(k) = dest {
            self.live.entry(k).or_default().push(self.entries.len());
        }
        self.entries.push(Entry { layer, option });
    }

    /// Put a host mount on top (after [`MountTable::cover`], unless bwrap
    /// may skip it).
    pub fn host(&mut self, planned: Planned, option: String) {
        let dest = dest_key(&planned.target);
        self.push(dest, Layer::Host(self.planned.len()), option);
        self.planned.push(planned);
        self.hidden.push(false);
        self.excludes.push(Vec::new());
    }

    /// Put a private filesystem on top (after [`MountTable::cover`]).
    pub fn private(&mut self, dest: &str, option: String) {
        self.push(dest_key(dest), Layer::Private, option);
    }

    /// `--remount-ro DEST` on the topmost mount exactly at `DEST`: `None`
    /// when `DEST` cannot be read lexically, `Some(false)` when no mount
    /// of the command line is there.
    pub fn remount_read_only(&mut self, dest: &str, at: Loc) -> Option<bool> {
        let key = dest_key(dest)?;
        let top = self
            .live
            .get(&key)
            .and_then(|l| l.last())
            .and_then(|i| self.entries.get(*i));
        Some(match top.map(|e| &e.layer) {
            Some(Layer::Host(i)) => {
                if let Some(p) = self.planned.get_mut(*i) {
                    p.read_only = true;
                    p.access_at = at;
                }
                true
            }
            Some(Layer::Private) => true,
            None => false,
        })
    }

    /// Write the mounts the job sees into the profile, in order.
    pub fn write(self, d: &mut Draft) {
        for ((p, hidden), excludes) in self.planned.into_iter().zip(self.hidden).zip(self.excludes)
        {
            if hidden {
                continue;
            }
            let access_at = p.access_at;
            let ptr = d.push("/mounts", OVal::obj(), p.access_at);
            d.set_field(&ptr, "source", p.source, p.src_at);
            d.set_field(&ptr, "target", p.target, p.dst_at);
            d.set_field(
                &ptr,
                "access",
                if p.read_only {
                    "read-only"
                } else {
                    "read-write"
                },
                p.access_at,
            );
            if !excludes.is_empty() {
                d.set_list(&format!("{ptr}/excludes"), access_at, excludes);
            }
        }
    }
}
