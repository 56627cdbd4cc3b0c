//! Lexical path facts shared by the mount rules: what a source is (with a
//! built-in guess for home-relative sources the index cannot classify),
//! where a host path appears inside the job, and fast lookups of catalog
//! labels of one class around a path.
//!
//! Nothing here touches a disk: like [`crate::labels`], every answer is a
//! comparison of path components, which is why the mount rules ask for
//! runtime checks.

use crate::labels::{
    builtin, contains, normalize, Classification, Exposure, LabelClass, LabelIndex, Match,
    NormalizedPath,
};

/// A mount's source as the rules see it, borrowed from the mount view:
/// the declared path's classification, or for a relative source that
/// names a home directory, the built-in guess made for it.
#[derive(Clone, Copy)]
pub(crate) struct Source<'c> {
    /// The normalized path, or for a guessed source its display form
    /// (`~/.aws`, `$HOME`, `C:/Users/botie`).
    pub path: &'c str,
    pub normalized: &'c NormalizedPath,
    pub matched: Option<&'c Match>,
    pub exposes: &'c [Exposure],
    /// Set when the classification is a built-in guess for a relative
    /// source that names a home directory (`~`, `$HOME`, a Windows profile).
    pub guessed_from: Option<&'static str>,
}

impl Source<'_> {
    /// The class of the source, if anything covers it.
    pub fn class(&self) -> Option<LabelClass> {
        self.matched.map(|m| m.class)
    }
}

/// The built-in guess for a relative source that names a home directory:
/// all a mount view keeps of its source beyond the classification.
pub(crate) struct Guess {
    path: String,
    matched: Option<Match>,
    exposes: Vec<Exposure>,
    why: &'static str,
}

/// The source of a mount classified as `class`: the classification itself
/// for an absolute path, without a label for a relative one, and `guess`
/// for a home-relative one. `None` when the mount declares no source.
pub(crate) fn source<'c>(
    class: Option<&'c Classification>,
    guess: Option<&'c Guess>,
) -> Option<Source<'c>> {
    let c = class?;
    let declared = Source {
        path: &c.normalized.path,
        normalized: &c.normalized,
        matched: None,
        exposes: &[],
        guessed_from: None,
    };
    Some(match guess {
        _ if !c.normalized.relative => Source {
            matched: c.matched.as_ref(),
            exposes: &c.exposes,
            ..declared
        },
        None => declared,
        Some(g) => Source {
            path: &g.path,
            matched: g.matched.as_ref(),
            exposes: &g.exposes,
            guessed_from: Some(g.why),
            ..declared
        },
    })
}

/// The guess for a mount's relative source `raw` (classified as `class`)
/// when it names a home directory.
pub(crate) fn guess(class: Option<&Classification>, raw: Option<&str>) -> Option<Guess> {
    let c = class?;
    if !c.normalized.relative {
        return None;
    }
    let (pseudo, display_prefix, pseudo_prefix, why) = home_relative(raw.unwrap_or(""))?;
    let back = |p: &str| match p.strip_prefix(pseudo_prefix.as_str()) {
        Some(rest) => format!("{}{}", display_prefix, rest),
        None => p.to_string(),
    };
    let matched = builtin::classify(&pseudo).map(|m| Match {
        path: back(&m.path),
        ..m
    });
    let exposes = builtin::inside(&pseudo)
        .into_iter()
        .map(|e| Exposure {
            path: back(&e.path),
            ..e
        })
        .collect();
    Some(Guess {
        path: back(&pseudo),
        matched,
        exposes,
        why,
    })
}

/// A relative source that still names a home directory: `~`, `~user`,
/// `$HOME`, `${HOME}`, or a Windows profile (`C:\Users\NAME`). Returns an
/// equivalent absolute path for the built-in locations, the prefix to show
/// instead of the pseudo home, that pseudo home, and a reason.
fn home_relative(raw: &str) -> Option<(String, String, String, &'static str)> {
    // The session's runtime directory: `/run/user/<uid>` of whoever starts
    // the runner, which holds its session bus, service manager and agents.
    for var in ["${XDG_RUNTIME_DIR}", "$XDG_RUNTIME_DIR"] {
        if let Some(rest) = raw.strip_prefix(var) {
            if !(rest.is_empty() || rest.starts_with('/')) {
                return None;
            }
            let pseudo = "/run/user/uid".to_string();
            let n = normalize(&format!("{pseudo}{rest}")).path;
            if !contains(&pseudo, &n) {
                return None;
            }
            return Some((
                n,
                var.to_string(),
                pseudo,
                "`$XDG_RUNTIME_DIR` is the session directory of whoever starts the runner",
            ));
        }
    }
    let (home_name, display, rest, why) = if let Some(r) = raw
        .strip_prefix("${HOME}")
        .or_else(|| raw.strip_prefix("$HOME"))
    {
        (
            "~",
            if raw.starts_with("${") {
                "${HOME}"
            } else {
                "$HOME"
            },
            r,
            "`$HOME` is the home of whoever starts the runner",
        )
    } else if let Some(r) = raw.strip_prefix('~') {
        let end = r.find('/').unwrap_or(r.len());
        let (user, rest) = r.split_at(end);
        if user.is_empty() {
            (
                "~",
                "~",
                rest,
                "`~` is the home of whoever starts the runner",
            )
        } else {
            (user, "", rest, "`~user` is that user's home directory")
        }
    } else {
        let b = raw.as_bytes();
        let drive = b.len() >= 3
            && b.first().is_some_and(u8::is_ascii_alphabetic)
            && b.get(1) == Some(&b':')
            && matches!(b.get(2), Some(b'\\' | b'/'));
        if !drive {
            return None;
        }
        let unix = raw.get(2..)?.replace('\\', "/");
        let n = normalize(&unix).path;
        builtin::home_of(&n)?;
        let prefix = raw.get(..2)?.to_string();
        return Some((
            n,
            prefix,
            String::new(),
            "a Windows profile directory is a developer home",
        ));
    };
    if !(rest.is_empty() || rest.starts_with('/')) {
        // `~foo` was handled above; `$HOMEDIR` is another variable.
        return None;
    }
    let pseudo_home = format!("/home/{home_name}");
    let n = normalize(&format!("{pseudo_home}{rest}")).path;
    let display = if display.is_empty() {
        format!("~{home_name}")
    } else {
        display.to_string()
    };
    if !contains(&pseudo_home, &n) {
        // `~/..` climbs out of the home: no guess.
        return None;
    }
    Some((n, display, pseudo_home, why))
}

/// Where a host path inside a mount's source appears in the job.
/// `target` is the mount's normalized target.
pub(super) fn in_job(
    source: &str,
    target: Option<&NormalizedPath>,
    host_path: &str,
) -> Option<String> {
    let target = target?;
    if target.relative {
        return None;
    }
    let rest = if source == "/" {
        host_path
    } else {
        host_path.strip_prefix(source)?
    };
    let t = target.path.trim_end_matches('/');
    Some(if rest.is_empty() {
        target.path.clone()
    } else {
        format!("{}{}", t, rest)
    })
}

/// A sorted set of normalized paths, answering "which of these enclose this
/// path" (one binary search per component) and "which lie inside it" (a
/// range scan): near-linear in mounts + labels.
pub(super) struct PathSet {
    sorted: Vec<String>,
    /// The members' lengths, sorted: an ancestor of another length cannot
    /// be a member, so a very deep path costs one comparison per member
    /// length instead of one per component.
    lengths: Vec<usize>,
}

impl PathSet {
    pub fn new(paths: impl IntoIterator<Item = String>) -> PathSet {
        let mut sorted: Vec<String> = paths.into_iter().collect();
        crate::sort::sort(&mut sorted);
        sorted.dedup();
        let mut lengths: Vec<usize> = sorted.iter().map(String::len).collect();
        crate::sort::sort(&mut lengths);
        lengths.dedup();
        PathSet { sorted, lengths }
    }

    /// The catalog's label paths of one class.
    pub fn of_class(index: &LabelIndex, class: LabelClass) -> PathSet {
        PathSet::new(
            index
                .catalog()
                .labels
                .iter()
                .filter(|l| l.class == class)
                .map(|l| normalize(&l.path).path),
        )
    }

    fn has(&self, p: &str) -> bool {
        self.lengths.binary_search(&p.len()).is_ok()
            && self.sorted.binary_search_by(|s| s.as_str().cmp(p)).is_ok()
    }

    /// Members equal to `path` or enclosing it, innermost first.
    pub fn enclosing(&self, path: &str) -> Vec<String> {
        let mut out = Vec::new();
        let mut candidate = path;
        loop {
            if self.has(candidate) {
                out.push(candidate.to_string());
            }
            if candidate == "/" || candidate.is_empty() {
                return out;
            }
            candidate = match candidate.rfind('/') {
                Some(0) => "/",
                Some(i) => candidate.get(..i).unwrap_or("/"),
                None => return out,
            };
        }
    }

    /// Members strictly inside `path`.
    pub fn inside(&self, path: &str) -> Vec<String> {
        let prefix = crate::labels::descendant_prefix(path);
        let start = self
            .sorted
            .partition_point(|p| p.as_str() < prefix.as_str());
        self.sorted
            .get(start..)
            .unwrap_or(&[])
            .iter()
            .take_while(|p| p.starts_with(&prefix))
            .filter(|p| p.as_str() != path)
            .cloned()
            .collect()
    }
}

/// How a mount target relates to an earlier-listed or enclosing one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Nesting {
    /// The same path as the first mount listed with it.
    Same,
    /// Strictly inside the nearest enclosing path.
    Inside,
}

/// For each `(index, normalized absolute path)`, the mount it coincides
/// with (the first one listed) or the nearest one enclosing it. Sorting by
/// components and walking with a stack keeps this near-linear however many
/// mounts there are and however deep their paths.
pub(super) fn nesting(entries: &[(usize, &str)]) -> Vec<(usize, Nesting, usize)> {
    let mut sorted: Vec<(Vec<&str>, usize, &str)> = entries
        .iter()
        .map(|(i, p)| (p.split('/').filter(|c| !c.is_empty()).collect(), *i, *p))
        .collect();
    crate::sort::sort(&mut sorted);
    let mut out = Vec::new();
    // (path, index of the first mount at that path)
    let mut stack: Vec<(&str, usize)> = Vec::new();
    for (_, i, p) in sorted {
        while stack.last().is_some_and(|(top, _)| !contains(top, p)) {
            stack.pop();
        }
        match stack.last() {
            Some(&(top, first)) if top == p => out.push((i, Nesting::Same, first)),
            Some(&(_, outer)) => {
                out.push((i, Nesting::Inside, outer));
                stack.push((p, i));
            }
            None => stack.push((p, i)),
        }
    }
    crate::sort::sort_by_key(&mut out, |x| x.0);
    out
}

/// Describe a control character for evidence without echoing it.
pub(super) fn control_chars(s: &str) -> Vec<String> {
    let mut out: Vec<String> = s
        .chars()
        .filter(|c| c.is_control())
        .map(|c| format!("U+{:04X}", u32::from(c)))
        .collect();
    out.dedup();
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn home_relative_guesses() {
        let (p, d, pre, _) = home_relative("~/.aws/credentials").unwrap();
        assert_eq!(
            (p.as_str(), d.as_str(), pre.as_str()),
            ("/home/~/.aws/credentials", "~", "/home/~")
        );
        let (p, d, _, _) = home_relative("$HOME").unwrap();
        assert_eq!((p.as_str(), d.as_str()), ("/home/~", "$HOME"));
        let (p, d, _, _) = home_relative("~alice/.ssh").unwrap();
        assert_eq!((p.as_str(), d.as_str()), ("/home/alice/.ssh", "~alice"));
        let (p, d, _, _) = home_relative("C:\\Users\\botie\\.aws").unwrap();
        assert_eq!((p.as_str(), d.as_str()), ("/Users/botie/.aws", "C:"));
        assert!(home_relative("$HOMEDIR/x").is_none());
        assert!(home_relative("~/../../etc").is_none());
        assert!(home_relative("src/tests").is_none());
        assert!(home_relative("D:\\build").is_none());
    }

    #[test]
    fn job_paths() {
        assert_eq!(
            in_job(
                "/home/botie",
                Some(&normalize("/mnt/h/")),
                "/home/botie/.aws"
            )
            .as_deref(),
            Some("/mnt/h/.aws")
        );
        assert_eq!(
            in_job("/home/botie", Some(&normalize("/mnt/h")), "/home/botie").as_deref(),
            Some("/mnt/h")
        );
        assert_eq!(
            in_job("/", Some(&normalize("/host")), "/var/run/docker.sock").as_deref(),
            Some("/host/var/run/docker.sock")
        );
        assert_eq!(
            in_job("/srv", Some(&normalize("/")), "/srv/x").as_deref(),
            Some("/x")
        );
        assert_eq!(in_job("/srv", Some(&normalize("rel")), "/srv/x"), None);
    }

    #[test]
    fn nesting_of_targets() {
        let n = nesting(&[
            (0, "/workspace"),
            (1, "/workspace/out"),
            (2, "/workspace2"),
            (3, "/workspace"),
            (4, "/workspace/out/deep"),
            (5, "/a-b"),
            (6, "/a/c"),
            (7, "/a"),
        ]);
        assert_eq!(
            n,
            vec![
                (1, Nesting::Inside, 0),
                (3, Nesting::Same, 0),
                (4, Nesting::Inside, 1),
                (6, Nesting::Inside, 7)
            ]
        );
        let root = nesting(&[(0, "/scratch"), (1, "/")]);
        assert_eq!(root, vec![(0, Nesting::Inside, 1)]);
        // deep paths stay cheap
        let deep = "/d".repeat(200_000);
        let inner = format!("{deep}/x");
        assert_eq!(
            nesting(&[(0, &deep), (1, &inner)]),
            vec![(1, Nesting::Inside, 0)]
        );
        let set = PathSet::new([deep.clone()]);
        assert_eq!(set.enclosing(&inner), vec![deep.clone()]);
    }

    #[test]
    fn path_set_lookups() {
        let s = PathSet::new([
            "/etc/runner".to_string(),
            "/srv/a".to_string(),
            "/srv/a/b".to_string(),
            "/srv/ab".to_string(),
        ]);
        assert_eq!(
            s.enclosing("/srv/a/b/c"),
            vec!["/srv/a/b".to_string(), "/srv/a".to_string()]
        );
        assert_eq!(s.enclosing("/srv/abc"), Vec::<String>::new());
        assert_eq!(
            s.inside("/srv"),
            vec![
                "/srv/a".to_string(),
                "/srv/a/b".to_string(),
                "/srv/ab".to_string()
            ]
        );
        assert_eq!(s.inside("/srv/a"), vec!["/srv/a/b".to_string()]);
        assert_eq!(s.inside("/").len(), 4);
        assert_eq!(
            control_chars("a\u{0}b\nc"),
            vec!["U+0000".to_string(), "U+000A".to_string()]
        );
    }
}
