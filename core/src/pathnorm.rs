//! Lexical normalization of declared paths, shared by the decoder (a
//! mount's `excludes`) and the labels (every comparison of a path with a
//! label). No file system is consulted: a link is not followed, which is
//! why a path with `..` is flagged, never trusted.

/// A path after lexical normalization, with what normalization had to do.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct NormalizedPath {
    /// `/`-separated, no empty, `.` or `..` components, no trailing `/`.
    /// For a relative input, the normalized relative form.
    pub path: String,
    /// The input was not absolute (including `~` and Windows drive paths).
    pub relative: bool,
    /// The input contained `..` components.
    pub had_parent_refs: bool,
    /// A `..` tried to climb above the root and was clamped there.
    pub escaped_root: bool,
    /// `//`, `.` or a trailing `/` were collapsed.
    pub collapsed: bool,
    /// The input contains a NUL or other control character.
    pub control_chars: bool,
}

/// Normalize a declared path lexically: `//`, `.` and `..` collapsed
/// without touching the file system, with what that had to do recorded.
pub fn normalize(raw: &str) -> NormalizedPath {
    if already_normal(raw.as_bytes()) {
        // The common case: nothing to collapse, so the path is its own
        // normal form (one pass, one copy).
        return NormalizedPath {
            path: raw.to_owned(),
            relative: !raw.starts_with('/'),
            ..Default::default()
        };
    }
    normalize_slow(raw)
}

/// Whether a path is sure to come out of [`normalize_slow`] unchanged and
/// with no flag set: not empty, no control character (nor a byte that may
/// start a C1 one), no empty component (`//`, a trailing `/`) and no
/// component starting with `.` (so no `.` or `..`). Anything else takes
/// the slow path, which decides exactly.
fn already_normal(b: &[u8]) -> bool {
    let Some((&first, _)) = b.split_first() else {
        return false;
    };
    if first == b'.' || (b.len() > 1 && b.last() == Some(&b'/')) {
        return false;
    }
    let mut prev = 0u8;
    for &c in b {
        if c < 0x20 || c == 0x7f || c == 0xc2 || (prev == b'/' && (c == b'/' || c == b'.')) {
            return false;
        }
        prev = c;
    }
    true
}

/// [`normalize`] component by component.
pub(crate) fn normalize_slow(raw: &str) -> NormalizedPath {
    let relative = !raw.starts_with('/');
    let mut out = NormalizedPath {
        relative,
        control_chars: raw.chars().any(char::is_control),
        ..Default::default()
    };
    let mut parts: Vec<&str> = Vec::with_capacity(16);
    for c in raw.split('/') {
        match c {
            "" => {}
            "." => out.collapsed = true,
            ".." => {
                out.had_parent_refs = true;
                if parts.pop().is_none() && !relative {
                    out.escaped_root = true;
                }
            }
            _ => parts.push(c),
        }
    }
    let mut s = String::with_capacity(raw.len() + 1);
    if !relative {
        s.push('/');
    }
    for (i, part) in parts.iter().enumerate() {
        if i > 0 {
            s.push('/');
        }
        s.push_str(part);
    }
    if !out.had_parent_refs && s != raw {
        out.collapsed = true;
    }
    out.path = s;
    out
}

/// Whether `outer` contains `inner` component-wise (or equals it). Both must
/// be normalized absolute paths.
pub fn contains(outer: &str, inner: &str) -> bool {
    if outer == "/" {
        return inner.starts_with('/');
    }
    inner == outer || (inner.starts_with(outer) && inner.as_bytes().get(outer.len()) == Some(&b'/'))
}
