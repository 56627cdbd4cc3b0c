//! Reading typed settings out of a source tree. A setting the importer
//! maps but cannot read (a list where a boolean belongs) is an error that
//! names its line and column: guessing would turn a broken security
//! setting into a silent default.

use super::tree::{Loc, SNode, SValue};
use super::{invalid, ImportError};

/// `node` must be a mapping.
pub fn map<'a>(node: &'a SNode, what: &str) -> Result<&'a SNode, ImportError> {
    if node.is_map() {
        Ok(node)
    } else {
        Err(invalid(
            node.loc,
            format!("`{what}` must be a mapping, found {}", node.kind()),
        ))
    }
}

/// The mapping under `key`, if present.
pub fn opt_map<'a>(node: &'a SNode, key: &str) -> Result<Option<&'a SNode>, ImportError> {
    node.get(key).map(|n| map(n, key)).transpose()
}

/// The list under `key`, if present.
pub fn opt_seq<'a>(node: &'a SNode, key: &str) -> Result<Option<&'a [SNode]>, ImportError> {
    node.get(key).map(|n| seq(n, key)).transpose()
}

/// `node`'s items; `what` names it if it is not a list.
pub fn seq<'a>(node: &'a SNode, what: &str) -> Result<&'a [SNode], ImportError> {
    if node.is_seq() {
        Ok(node.items())
    } else {
        Err(invalid(
            node.loc,
            format!("`{what}` must be a list, found {}", node.kind()),
        ))
    }
}

/// A scalar's text.
pub fn text<'a>(n: &'a SNode, what: &str) -> Result<&'a str, ImportError> {
    n.as_str().ok_or_else(|| {
        invalid(
            n.loc,
            format!("`{what}` must be a single value, found {}", n.kind()),
        )
    })
}

/// The texts of `items`, each with its location; `what` names them in
/// an error.
pub fn texts(items: &[SNode], what: &str) -> Result<Vec<(String, Loc)>, ImportError> {
    items
        .iter()
        .map(|i| Ok((text(i, what)?.to_string(), i.loc)))
        .collect()
}

/// The text under `key`, with its location.
pub fn opt_str<'a>(node: &'a SNode, key: &str) -> Result<Option<(&'a str, Loc)>, ImportError> {
    match node.get(key) {
        None => Ok(None),
        Some(n) => Ok(Some((text(n, key)?, n.loc))),
    }
}

/// A boolean under `key`.
pub fn opt_bool(node: &SNode, key: &str) -> Result<Option<(bool, Loc)>, ImportError> {
    match node.get(key) {
        None => Ok(None),
        Some(n) => match n.as_bool() {
            Some(b) => Ok(Some((b, n.loc))),
            None => Err(invalid(
                n.loc,
                // The kind, never the value: it may be a secret.
                format!("`{key}` must be true or false, found {}", n.kind()),
            )),
        },
    }
}

/// A non-negative whole number under `key`.
pub fn opt_u64(node: &SNode, key: &str) -> Result<Option<(u64, Loc)>, ImportError> {
    match node.get(key) {
        None => Ok(None),
        Some(n) => match n.as_u64() {
            Some(v) => Ok(Some((v, n.loc))),
            None => Err(invalid(
                n.loc,
                // The kind, never the value: it may be a secret.
                format!(
                    "`{key}` must be a non-negative whole number, found {}",
                    n.kind()
                ),
            )),
        },
    }
}

/// A list of scalars under `key` (a single scalar counts as a one-item list
/// only when `lenient`).
pub fn opt_strs(
    node: &SNode,
    key: &str,
    lenient: bool,
) -> Result<Option<Vec<(String, Loc)>>, ImportError> {
    match node.get(key) {
        None => Ok(None),
        Some(n) => match &n.value {
            SValue::Seq(items) => texts(items, key).map(Some),
            SValue::Scalar(s) if lenient => Ok(Some(vec![(s.text.clone(), n.loc)])),
            _ => Err(invalid(
                n.loc,
                format!("`{key}` must be a list of values, found {}", n.kind()),
            )),
        },
    }
}

/// Bytes from a Kubernetes quantity (`512Mi`, `1G`, `1e9`, `500m`).
pub fn k8s_bytes(q: &str) -> Option<u64> {
    let q = q.trim();
    const SUFFIXES: &[(&str, u64)] = &[
        ("Ki", 1 << 10),
        ("Mi", 1 << 20),
        ("Gi", 1 << 30),
        ("Ti", 1 << 40),
        ("Pi", 1 << 50),
        ("Ei", 1 << 60),
        ("k", 1_000),
        ("M", 1_000_000),
        ("G", 1_000_000_000),
        ("T", 1_000_000_000_000),
        ("P", 1_000_000_000_000_000),
        ("E", 1_000_000_000_000_000_000),
    ];
    for (s, mult) in SUFFIXES {
        if let Some(num) = q.strip_suffix(s) {
            return decimal_times(num, *mult);
        }
    }
    if let Some(num) = q.strip_suffix('m') {
        // Milli-bytes: round up to whole bytes.
        return decimal_times(num, 1).map(|v| v.div_ceil(1000));
    }
    if let Some((m, e)) = q.split_once(['e', 'E']) {
        let e: u32 = e.parse().ok()?;
        return decimal_times(m, 10u64.checked_pow(e)?);
    }
    decimal_times(q, 1)
}

/// Bytes from a Docker/Compose size (`512m`, `1g`, `100000`, `1gb`, `2GiB`).
pub fn docker_bytes(s: &str) -> Option<u64> {
    let s = s.trim().to_ascii_lowercase();
    let s = s.strip_suffix("ib").map(|x| x.to_string()).unwrap_or(s);
    let s = s.strip_suffix('b').unwrap_or(&s).to_string();
    let last = s.chars().last()?;
    let mult: u64 = match last {
        'k' => 1 << 10,
        'm' => 1 << 20,
        'g' => 1 << 30,
        't' => 1 << 40,
        'p' => 1 << 50,
        _ => 1,
    };
    let num = if mult == 1 {
        s.as_str()
    } else {
        s.strip_suffix(last).unwrap_or("")
    };
    decimal_times(num.trim(), mult)
}

/// `num` (a decimal, possibly with a fraction) times `mult`, rounded up.
fn decimal_times(num: &str, mult: u64) -> Option<u64> {
    let (int, frac) = num.split_once('.').unwrap_or((num, ""));
    if int.is_empty() && frac.is_empty() {
        return None;
    }
    if !int.bytes().all(|b| b.is_ascii_digit()) || !frac.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let i: u64 = if int.is_empty() { 0 } else { int.parse().ok()? };
    let mut v = i.checked_mul(mult)?;
    if !frac.is_empty() && frac.len() <= 18 {
        let f: u128 = frac.parse().ok()?;
        let scale = 10u128.pow(u32::try_from(frac.len()).ok()?);
        let extra = (f * u128::from(mult)).div_ceil(scale);
        v = v.checked_add(u64::try_from(extra).ok()?)?;
    }
    Some(v)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quantities() {
        assert_eq!(k8s_bytes("512Mi"), Some(536_870_912));
        assert_eq!(k8s_bytes("1G"), Some(1_000_000_000));
        assert_eq!(k8s_bytes("1.5Gi"), Some(1_610_612_736));
        assert_eq!(k8s_bytes("129e6"), Some(129_000_000));
        assert_eq!(k8s_bytes("1000"), Some(1000));
        assert_eq!(k8s_bytes("lots"), None);
        assert_eq!(docker_bytes("512m"), Some(536_870_912));
        assert_eq!(docker_bytes("1GB"), Some(1 << 30));
        assert_eq!(docker_bytes("2GiB"), Some(2 << 30));
        assert_eq!(docker_bytes("100000"), Some(100_000));
        assert_eq!(docker_bytes("x"), None);
    }
}
