//! Findings: what a rule reports, and the closed sets that classify it.

use serde_json::Value;

use crate::model::{string_enum, StringEnum};

string_enum!(
    /// How bad a finding is. Declared worst first, so `<` means "worse".
    Severity {
        Critical = "critical",
        High = "high",
        Medium = "medium",
        Low = "low",
        Info = "info",
    }
);

impl Severity {
    /// Whether a finding of this severity blocks eligibility.
    pub fn blocks(self) -> bool {
        matches!(self, Severity::Critical | Severity::High)
    }
    /// Whether this is at least as severe as `min`.
    pub fn at_least(self, min: Severity) -> bool {
        self <= min
    }
    pub const ALL: [Severity; 5] = [
        Severity::Critical,
        Severity::High,
        Severity::Medium,
        Severity::Low,
        Severity::Info,
    ];
}

string_enum!(
    /// Where a finding belongs, in display order.
    Area {
        WritableMounts = "writable-mounts",
        ReadOnlyMounts = "read-only-mounts",
        Network = "network",
        Credentials = "credentials",
        Privileges = "privileges",
        Isolation = "isolation",
        Command = "command",
        Limits = "limits",
        Dependencies = "dependencies",
        Artifacts = "artifacts",
        Cleanup = "cleanup",
        Profile = "profile",
    }
);

impl Area {
    pub const ALL: [Area; 12] = [
        Area::WritableMounts,
        Area::ReadOnlyMounts,
        Area::Network,
        Area::Credentials,
        Area::Privileges,
        Area::Isolation,
        Area::Command,
        Area::Limits,
        Area::Dependencies,
        Area::Artifacts,
        Area::Cleanup,
        Area::Profile,
    ];
    /// A human heading for the area.
    pub fn title(self) -> &'static str {
        match self {
            Area::WritableMounts => "Writable mounts",
            Area::ReadOnlyMounts => "Read-only mounts",
            Area::Network => "Network",
            Area::Credentials => "Credentials",
            Area::Privileges => "Privileges",
            Area::Isolation => "Isolation",
            Area::Command => "Command",
            Area::Limits => "Limits",
            Area::Dependencies => "Dependencies",
            Area::Artifacts => "Artifacts",
            Area::Cleanup => "Cleanup",
            Area::Profile => "Profile",
        }
    }
}

string_enum!(
    /// What a runtime check asks the verifier to observe.
    CheckKind {
        ReadDenied = "read-denied",
        WriteDenied = "write-denied",
        WriteAllowed = "write-allowed",
        EgressDenied = "egress-denied",
        EgressAllowed = "egress-allowed",
        LimitEnforced = "limit-enforced",
        TimeoutKillsTree = "timeout-kills-tree",
        EnvExact = "env-exact",
        LinkResolution = "link-resolution",
        CredentialExpired = "credential-expired",
        WorkerDestroyed = "worker-destroyed",
        BoundaryKernel = "boundary-kernel",
        SeccompFiltered = "seccomp-filtered",
        CapabilitiesDropped = "capabilities-dropped",
        NamespacePrivate = "namespace-private",
        KernelWriteDenied = "kernel-write-denied",
        DevicesStandard = "devices-standard",
        ApparmorConfined = "apparmor-confined",
        SocketsDenied = "sockets-denied",
    }
);

/// A finding's evidence: values by key, keys unique and in sorted order,
/// like a `BTreeMap` (and written the same). A sorted `Vec` because
/// evidence holds a handful of entries, and the browser page is spared a
/// map type and a sort for them.
#[derive(Clone, PartialEq, Default)]
pub struct Evidence(Vec<(String, Value)>);

impl Evidence {
    pub fn new() -> Evidence {
        Evidence(Vec::new())
    }

    /// Set `key` to `value`; the previous value of `key`, if any.
    pub fn insert(&mut self, key: String, value: Value) -> Option<Value> {
        match self.0.binary_search_by(|(k, _)| k.as_str().cmp(&key)) {
            Ok(i) => self
                .0
                .get_mut(i)
                .map(|e| std::mem::replace(&mut e.1, value)),
            Err(i) => {
                self.0.insert(i, (key, value));
                None
            }
        }
    }

    pub fn get(&self, key: &str) -> Option<&Value> {
        self.0
            .binary_search_by(|(k, _)| k.as_str().cmp(key))
            .ok()
            .and_then(|i| self.0.get(i))
            .map(|(_, v)| v)
    }

    /// The entries in key order.
    pub fn iter(&self) -> EvidenceIter<'_> {
        self.0.iter().map(|(k, v)| (k, v))
    }

    pub fn keys(&self) -> impl Iterator<Item = &String> {
        self.0.iter().map(|(k, _)| k)
    }

    pub fn values(&self) -> impl Iterator<Item = &Value> {
        self.0.iter().map(|(_, v)| v)
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// The entries of an [`Evidence`], in key order.
pub type EvidenceIter<'a> = std::iter::Map<
    std::slice::Iter<'a, (String, Value)>,
    fn(&'a (String, Value)) -> (&'a String, &'a Value),
>;

impl<'a> IntoIterator for &'a Evidence {
    type Item = (&'a String, &'a Value);
    type IntoIter = EvidenceIter<'a>;
    fn into_iter(self) -> EvidenceIter<'a> {
        self.iter()
    }
}

impl IntoIterator for Evidence {
    type Item = (String, Value);
    type IntoIter = std::vec::IntoIter<(String, Value)>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.into_iter()
    }
}

/// Inserted one by one: a later value for the same key wins, as in a
/// `BTreeMap`.
impl FromIterator<(String, Value)> for Evidence {
    fn from_iter<I: IntoIterator<Item = (String, Value)>>(entries: I) -> Evidence {
        let mut out = Evidence::new();
        for (k, v) in entries {
            out.insert(k, v);
        }
        out
    }
}

impl std::ops::Index<&str> for Evidence {
    type Output = Value;
    /// Panics when `key` is absent, like a `BTreeMap`'s index.
    fn index(&self, key: &str) -> &Value {
        match self.get(key) {
            Some(v) => v,
            None => panic!("no evidence named `{key}`"),
        }
    }
}

/// As a map, like a `BTreeMap`'s.
impl std::fmt::Debug for Evidence {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

impl serde::Serialize for Evidence {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_map(self.iter())
    }
}

impl<'de> serde::Deserialize<'de> for Evidence {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Evidence, D::Error> {
        let map = serde_json::Map::deserialize(d)?;
        Ok(map.into_iter().collect())
    }
}

/// An object inside evidence, from its fields (keys end up sorted, as in
/// every JSON object core writes). Unlike `serde_json::json!`, whose values
/// go through `serde_json::to_value(..).unwrap()`, nothing here pulls in
/// serde's value serializer and the `Debug` formatting of its error into
/// the browser page.
pub fn evidence_object<const N: usize>(
    fields: [(&str, serde_json::Value); N],
) -> serde_json::Value {
    let mut map = serde_json::Map::new();
    for (key, value) in fields {
        map.insert(key.to_string(), value);
    }
    serde_json::Value::Object(map)
}

/// A reviewer's acceptance of a finding (from an operator-owned waivers file).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Waived {
    pub reason: String,
    pub owner: String,
    pub expires: String,
}

/// Where a finding sits in the original file of an imported configuration
/// (Kubernetes YAML, OCI config, ...), as opposed to the generated profile.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Origin {
    pub file: String,
    pub line: u32,
    pub column: u32,
}

/// One finding, as exported.
#[derive(Debug, Clone, PartialEq)]
pub struct Finding {
    /// The rule id (see [`crate::rules::all`]).
    pub rule: &'static str,
    pub area: Area,
    pub severity: Severity,
    /// RFC 6901 pointer into the profile.
    pub pointer: String,
    /// 1-based position of the pointed node, or of its nearest existing
    /// ancestor when the field is missing.
    pub line: Option<u32>,
    pub column: Option<u32>,
    /// Whether `line`/`column` are those of the pointed node itself.
    pub exact: bool,
    pub message: String,
    /// The rule's remediation (rule text, never built from the profile).
    pub remediation: &'static str,
    pub evidence: Evidence,
    /// Set when an operator waiver accepts this finding.
    pub waived: Option<Waived>,
    /// Set when compared with a baseline export: `new` or `existing`.
    pub baseline: Option<&'static str>,
    /// What the finding is about, for baselines: the SHA-256 of the value
    /// at its pointer with every secret in it masked
    /// ([`crate::secrets::Secrets::value_digest`]); `None` for a finding
    /// not made from the profile's tree (a waiver's, a runner overlay's),
    /// whose [`Finding::accepted_digest`] is its text's.
    pub value_digest: Option<String>,
    /// The original location when the profile was imported from another format.
    pub origin: Option<Origin>,
}

impl Finding {
    /// Whether the finding counts toward the verdict.
    pub fn blocks(&self) -> bool {
        self.waived.is_none() && self.severity.blocks()
    }
    /// What a baseline entry records as accepted: the digest of the value
    /// at the pointer, or for a finding not made from the profile's tree,
    /// of its (cleaned) message and evidence.
    pub fn accepted_digest(&self) -> std::borrow::Cow<'_, str> {
        match &self.value_digest {
            Some(d) => std::borrow::Cow::Borrowed(d),
            None => {
                let evidence = serde_json::to_string(&self.evidence).unwrap_or_default();
                let parts: [&[u8]; 4] = [
                    b"isolint.finding-text/v1\0",
                    self.message.as_bytes(),
                    b"\0",
                    evidence.as_bytes(),
                ];
                let mut hex = String::with_capacity(64);
                crate::digest::push_hex(&mut hex, &crate::digest::sha256(&parts), 64);
                std::borrow::Cow::Owned(hex)
            }
        }
    }
    /// Sort key: area order, then pointer, then rule; then message for
    /// a total order when one rule reports twice at one pointer.
    pub fn sort_key(&self) -> (Area, &str, &str, &str) {
        (self.area, &self.pointer, self.rule, &self.message)
    }
}
