//! The cluster objects that decide what a pod may do beside its own spec,
//! read from the same YAML stream (or directory) as the workload:
//! NetworkPolicy (egress), LimitRange (default and maximum container
//! limits), ResourceQuota (how many pods a namespace runs at once) and
//! RuntimeClass (which handler a `runtimeClassName` names).
//!
//! Kubernetes semantics followed here (networking.k8s.io/v1):
//! - a policy applies to the pods of its own namespace that its
//!   `podSelector` selects (`{}` selects every pod);
//! - it isolates egress when `policyTypes` lists `Egress`, or, without
//!   `policyTypes` (absent, null or `[]`), when its `egress` list has at
//!   least one rule: `egress: []` alone isolates ingress only, as the API
//!   server's defaulting writes `policyTypes`;
//! - a pod isolated for egress may reach only the union of the egress
//!   rules of every policy selecting it (none at all: default deny);
//! - in a rule, a missing or empty `to` means every destination and a
//!   missing or empty `ports` every port.
//!
//! An object without a namespace is applied to whatever namespace
//! `kubectl` targets, so it is matched only with workloads that name no
//! namespace either: pairing it with a workload of a named namespace could
//! restrict a pod the real cluster leaves open.

use crate::import::invalid;
use crate::import::read;
use crate::import::tree::{Loc, SEntry, SNode};
use crate::import::ImportError;

/// The position of an object read from another file of the run: callers
/// put what it decides at the workload's own place ([`here`]).
pub const ELSEWHERE: Loc = Loc { line: 0, column: 0 };

/// `at`, unless it is [`ELSEWHERE`]: then `fallback`, a place in this file.
pub fn here(at: Loc, fallback: Loc) -> Loc {
    if at == ELSEWHERE {
        fallback
    } else {
        at
    }
}

/// The kinds read here, each with the `apiVersion`s the API server serves
/// for it (Kubernetes 1.25 and later; see the deprecated API migration
/// guide, kubernetes.io/docs/reference/using-api/deprecation-guide). The
/// one place an object's version is checked ([`Cluster::add`]): the API
/// server refuses an object of any other version, or of none, so it
/// changes nothing about a pod.
pub const SERVED: [(&str, &[&str]); 13] = [
    // `extensions/v1beta1` stopped being served in 1.16.
    ("NetworkPolicy", &["networking.k8s.io/v1"]),
    ("LimitRange", &["v1"]),
    ("ResourceQuota", &["v1"]),
    // `node.k8s.io/v1beta1` stopped being served in 1.25.
    ("RuntimeClass", &["node.k8s.io/v1"]),
    ("ServiceAccount", &["v1"]),
    ("PersistentVolume", &["v1"]),
    ("PersistentVolumeClaim", &["v1"]),
    ("ConfigMap", &["v1"]),
    ("Secret", &["v1"]),
    // `rbac.authorization.k8s.io/v1beta1` stopped being served in 1.22.
    ("Role", &["rbac.authorization.k8s.io/v1"]),
    ("ClusterRole", &["rbac.authorization.k8s.io/v1"]),
    ("RoleBinding", &["rbac.authorization.k8s.io/v1"]),
    ("ClusterRoleBinding", &["rbac.authorization.k8s.io/v1"]),
];

/// Whether this import reads objects of `kind` beside the workloads.
pub fn reads_kind(kind: &str) -> bool {
    SERVED.iter().any(|(k, _)| *k == kind)
}

/// What an item of a typed list takes from the list when it names
/// neither its kind nor its apiVersion.
#[derive(Clone, Copy)]
pub struct Inherited<'a> {
    pub kind: &'a str,
    pub api_version: Option<&'a SNode>,
}

/// A list's items, and what an item takes from a typed list.
pub type ListItems<'a> = Option<(&'a [SNode], Option<Inherited<'a>>)>;

/// The items of `doc` when `kubectl` reads it as a list: kind `List`, or
/// a typed list (`PodList`, `NetworkPolicyList`, as `kubectl get -o yaml`
/// writes them) with an `items` sequence; and, for a typed list, what an
/// item that names neither kind nor apiVersion takes from it (a
/// `PodList`'s items are Pods), as `kubectl` decodes such a list.
pub fn list_items<'a>(doc: &'a SNode, kind: &'a str) -> Result<ListItems<'a>, ImportError> {
    let item = match kind.strip_suffix("List") {
        Some("") => None,
        Some(k) if doc.get("items").is_some_and(SNode::is_seq) => Some(Inherited {
            kind: k,
            api_version: doc.get("apiVersion"),
        }),
        _ => return Ok(None),
    };
    let items = read::opt_seq(doc, "items")?.unwrap_or_default();
    Ok(Some((items, item)))
}

/// How a peer selecting the cluster's DNS pods is described.
const CLUSTER_DNS: &str = "DNS pods (k8s-app=kube-dns)";

/// A NetworkPolicy that isolates egress.
pub struct EgressPolicy<'a> {
    pub name: String,
    pub namespace: Option<String>,
    pub selector: &'a SNode,
    /// `selector` read once, when a pod is first matched against it (a
    /// policy no pod meets is never read, as before).
    read: std::cell::OnceCell<Result<Selector<'a>, ImportError>>,
    /// Where the policy is (its `kind` line's document).
    pub at: Loc,
    pub rules: Vec<EgressRule>,
}

/// One destination and port a rule allows.
#[derive(Debug, Clone, PartialEq)]
pub struct Allowed {
    /// A CIDR, or a description of in-cluster peers; `None`: every destination.
    pub to: Option<String>,
    /// `None`: every port.
    pub port: Option<u64>,
    pub protocol: Option<String>,
    pub at: Loc,
    /// Port 53 to the cluster's DNS pods (`k8s-app: kube-dns`, the label
    /// kube-dns and CoreDNS both carry): the resolver, not a destination.
    pub cluster_dns: bool,
}

pub struct EgressRule {
    pub allowed: Vec<Allowed>,
    /// Settings of the rule this import cannot represent (named ports,
    /// `except` lists), as notes.
    pub notes: Vec<(Loc, String)>,
}

pub struct LimitRange {
    pub name: String,
    pub namespace: Option<String>,
    /// `default.memory` of the `Container` item (the limit a container
    /// without one gets).
    pub default_memory: Option<(u64, Loc)>,
    /// `max.memory` of the `Container` item.
    pub max_memory: Option<(u64, Loc)>,
}

pub struct Quota {
    pub name: String,
    pub namespace: Option<String>,
    pub pods: Option<(u64, Loc)>,
}

pub struct RuntimeClass {
    pub name: String,
    pub handler: Option<(String, Loc)>,
}

/// A ServiceAccount: whether it has the kubelet mount its token into the
/// pods that use it and do not say themselves.
pub struct ServiceAccount {
    pub name: String,
    pub namespace: Option<String>,
    pub automount: Option<(bool, Loc)>,
}

/// A PersistentVolume that is a directory of the node (`hostPath` or
/// `local`), and the claim it is bound to, if it names one.
pub struct HostVolume {
    pub name: String,
    pub path: (String, Loc),
    pub claim: Option<(String, Option<String>)>,
}

/// A PersistentVolumeClaim that names the volume it binds.
pub struct Claim {
    pub name: String,
    pub namespace: Option<String>,
    pub volume: String,
}

/// A ConfigMap or a Secret: the keys it gives a container that reads it.
pub struct DataObject<'a> {
    /// `ConfigMap` or `Secret`.
    pub kind: &'static str,
    pub name: String,
    pub namespace: Option<String>,
    /// Each key, with a ConfigMap's `data` value where it is text. A
    /// Secret's values are never read: only its keys are.
    pub keys: Vec<(&'a str, Option<(&'a str, Loc)>)>,
    pub at: Loc,
    /// A Secret of type `kubernetes.io/service-account-token`: the
    /// account whose long-lived token the API server writes into it.
    pub token_of: Option<String>,
}

/// One rule of a Role or ClusterRole.
pub struct RbacRule {
    pub api_groups: Vec<String>,
    pub resources: Vec<String>,
    pub verbs: Vec<String>,
}

/// A Role (namespaced) or ClusterRole (`namespace: None`, `cluster`).
pub struct RbacRole<'a> {
    pub cluster: bool,
    pub name: String,
    pub namespace: Option<String>,
    pub rules: Vec<RbacRule>,
    /// The object's labels, which an aggregated ClusterRole selects.
    pub labels: Option<&'a SNode>,
    /// `aggregationRule.clusterRoleSelectors`: the controller fills the
    /// role's rules with those of every ClusterRole they select.
    pub aggregate: Vec<&'a SNode>,
}

/// A RoleBinding or ClusterRoleBinding.
pub struct RbacBinding {
    pub kind: &'static str,
    pub name: String,
    pub namespace: Option<String>,
    /// `Role` or `ClusterRole`, and its name.
    pub role: (String, String),
    /// (kind, name, namespace) of each subject.
    pub subjects: Vec<(String, String, Option<String>)>,
    pub at: Loc,
}

/// Every cluster object of the stream this import reads.
#[derive(Default)]
pub struct Cluster<'a> {
    pub egress: Vec<EgressPolicy<'a>>,
    /// Cluster objects looked at for the pods so far (see [`CHECKS`]).
    checks: std::cell::Cell<usize>,
    /// NetworkPolicies that only isolate ingress (they do not limit egress).
    pub ingress_only: Vec<(String, Loc)>,
    pub limit_ranges: Vec<LimitRange>,
    pub quotas: Vec<Quota>,
    pub runtime_classes: Vec<RuntimeClass>,
    pub service_accounts: Vec<ServiceAccount>,
    pub host_volumes: Vec<HostVolume>,
    pub claims: Vec<Claim>,
    pub data: Vec<DataObject<'a>>,
    pub roles: Vec<RbacRole<'a>>,
    pub bindings: Vec<RbacBinding>,
    /// Objects read but not applied, and why: where, and the note.
    pub not_applied: Vec<(Loc, String)>,
}

fn meta_str(doc: &SNode, key: &str) -> Option<String> {
    doc.get("metadata")
        .and_then(|m| m.get(key))
        .and_then(SNode::as_str)
        .map(str::to_string)
}

impl<'a> Cluster<'a> {
    /// Collect the cluster objects among `docs` (Lists included).
    pub fn read(docs: &'a [SNode]) -> Result<Cluster<'a>, ImportError> {
        let mut c = Cluster::default();
        for d in docs {
            c.add(d)?;
        }
        Ok(c)
    }

    /// Add the objects of a document from another file of the run; one
    /// that cannot be read is left out (its own audit reports it).
    pub fn add_companion(&mut self, doc: &'a SNode) {
        let mut more = Cluster::default();
        if more.add(doc).is_ok() {
            // Their positions are in another file: none may be taken for
            // one of this file's (see [`ELSEWHERE`]).
            for p in &mut more.egress {
                p.at = ELSEWHERE;
                p.name = format!("{} (another file of this run)", p.name);
                for r in &mut p.rules {
                    r.allowed.iter_mut().for_each(|a| a.at = ELSEWHERE);
                    r.notes.iter_mut().for_each(|n| n.0 = ELSEWHERE);
                }
            }
            more.ingress_only.iter_mut().for_each(|i| i.1 = ELSEWHERE);
            for l in &mut more.limit_ranges {
                l.default_memory.iter_mut().for_each(|m| m.1 = ELSEWHERE);
                l.max_memory.iter_mut().for_each(|m| m.1 = ELSEWHERE);
            }
            more.quotas
                .iter_mut()
                .for_each(|q| q.pods.iter_mut().for_each(|p| p.1 = ELSEWHERE));
            more.runtime_classes
                .iter_mut()
                .for_each(|r| r.handler.iter_mut().for_each(|h| h.1 = ELSEWHERE));
            self.egress.extend(more.egress);
            self.ingress_only.extend(more.ingress_only);
            self.limit_ranges.extend(more.limit_ranges);
            self.quotas.extend(more.quotas);
            self.runtime_classes.extend(more.runtime_classes);
            more.service_accounts
                .iter_mut()
                .for_each(|a| a.automount.iter_mut().for_each(|x| x.1 = ELSEWHERE));
            self.service_accounts.extend(more.service_accounts);
            more.host_volumes
                .iter_mut()
                .for_each(|v| v.path.1 = ELSEWHERE);
            self.host_volumes.extend(more.host_volumes);
            self.claims.extend(more.claims);
            for o in &mut more.data {
                o.at = ELSEWHERE;
                for (_, v) in &mut o.keys {
                    v.iter_mut().for_each(|v| v.1 = ELSEWHERE);
                }
            }
            self.data.extend(more.data);
            self.roles.extend(more.roles);
            more.bindings.iter_mut().for_each(|b| b.at = ELSEWHERE);
            self.bindings.extend(more.bindings);
            for (at, why) in &mut more.not_applied {
                *at = ELSEWHERE;
                why.push_str(" (in another file of this run)");
            }
            self.not_applied.extend(more.not_applied);
        }
    }

    fn add(&mut self, doc: &'a SNode) -> Result<(), ImportError> {
        self.add_item(doc, None)
    }

    /// [`Cluster::add`], for an item of a typed list.
    fn add_item(
        &mut self,
        doc: &'a SNode,
        inherit: Option<Inherited<'a>>,
    ) -> Result<(), ImportError> {
        if !doc.is_map() {
            return Ok(());
        }
        // An item naming neither kind nor apiVersion takes its list's.
        let inherited =
            inherit.filter(|_| doc.get("kind").is_none() && doc.get("apiVersion").is_none());
        let (kind, version) = match inherited {
            Some(i) => (i.kind, i.api_version),
            None => (
                doc.get("kind").and_then(SNode::as_str).unwrap_or(""),
                doc.get("apiVersion"),
            ),
        };
        let name = meta_str(doc, "name").unwrap_or_else(|| "unnamed".into());
        let namespace = meta_str(doc, "namespace");
        if let Some((items, item)) = list_items(doc, kind)? {
            for i in items {
                self.add_item(i, item)?;
            }
            return Ok(());
        }
        match kind {
            _ if !self.served(doc, version, kind, &name) => {}
            "NetworkPolicy" => {
                let Some(spec) = read::opt_map(doc, "spec")? else {
                    return Ok(());
                };
                let selector = spec
                    .get("podSelector")
                    .ok_or_else(|| invalid(spec.loc, "a NetworkPolicy needs a `podSelector`"))?;
                // Null is an absent list to the API server.
                let present = |k: &'static str| spec.get(k).filter(|n| !n.is_null()).map(|_| k);
                let types = match present("policyTypes") {
                    Some(k) => read::opt_strs(spec, k, false)?.unwrap_or_default(),
                    None => Vec::new(),
                };
                let egress_rules = match present("egress") {
                    Some(k) => read::opt_seq(spec, k)?.unwrap_or_default(),
                    None => &[],
                };
                // `SetDefaults_NetworkPolicy` (pkg/apis/networking/v1/
                // defaults.go): with no `policyTypes` (absent, null or
                // empty) the API server writes `[Ingress]`, plus `Egress`
                // only when `len(spec.Egress) != 0`. So `egress: []`
                // without `policyTypes` isolates ingress only.
                let isolates = if types.is_empty() {
                    !egress_rules.is_empty()
                } else {
                    types.iter().any(|(s, _)| s == "Egress")
                };
                if !isolates {
                    self.ingress_only
                        .push((format!("NetworkPolicy/{name}"), doc.loc));
                    return Ok(());
                }
                let mut rules = Vec::new();
                for r in egress_rules {
                    rules.push(egress_rule(read::map(r, "egress")?)?);
                }
                self.egress.push(EgressPolicy {
                    name,
                    namespace,
                    selector,
                    read: std::cell::OnceCell::new(),
                    at: doc.loc,
                    rules,
                });
            }
            "LimitRange" => {
                let mut lr = LimitRange {
                    name,
                    namespace,
                    default_memory: None,
                    max_memory: None,
                };
                let spec = read::opt_map(doc, "spec")?;
                for item in spec
                    .map(|s| read::opt_seq(s, "limits"))
                    .transpose()?
                    .flatten()
                    .unwrap_or_default()
                {
                    if item.get("type").and_then(SNode::as_str) != Some("Container") {
                        continue;
                    }
                    lr.default_memory = memory(item, "default")?.or(lr.default_memory);
                    lr.max_memory = memory(item, "max")?.or(lr.max_memory);
                }
                self.limit_ranges.push(lr);
            }
            "ResourceQuota" => {
                let spec = read::opt_map(doc, "spec")?;
                // A scoped quota counts only the pods its scopes match
                // (`BestEffort` leaves out a pod that sets limits), which
                // is not evaluated here: it bounds no pod.
                let scoped = spec.and_then(|s| {
                    // `scopes: []` and a null name no scope.
                    let named = |e: &&SEntry| {
                        !(e.value.is_null() || e.value.is_seq() && e.value.items().is_empty())
                    };
                    s.entry("scopeSelector")
                        .filter(named)
                        .or_else(|| s.entry("scopes").filter(named))
                });
                if let Some(e) = scoped {
                    let listed: Vec<&str> =
                        e.value.items().iter().filter_map(SNode::as_str).collect();
                    let which = if listed.is_empty() {
                        format!("`{}`", e.key)
                    } else {
                        format!("`{}` ({})", e.key, listed.join(", "))
                    };
                    self.not_applied.push((
                        e.key_loc,
                        format!("`ResourceQuota/{name}` is not applied: it counts only the pods that match its {which}, which this import does not evaluate, so its `pods` is not taken as a bound on this pod"),
                    ));
                    return Ok(());
                }
                let hard = spec
                    .map(|s| read::opt_map(s, "hard"))
                    .transpose()?
                    .flatten();
                let pods = match hard {
                    Some(h) => match h.get("pods").or_else(|| h.get("count/pods")) {
                        Some(n) => {
                            let t = read::text(n, "pods")?;
                            let v = t.trim().parse::<u64>().map_err(|_| {
                                invalid(n.loc, format!("`pods: {t}` is not a whole number"))
                            })?;
                            Some((v, n.loc))
                        }
                        None => None,
                    },
                    None => None,
                };
                self.quotas.push(Quota {
                    name,
                    namespace,
                    pods,
                });
            }
            "ServiceAccount" => {
                let automount = read::opt_bool(doc, "automountServiceAccountToken")?;
                self.service_accounts.push(ServiceAccount {
                    name,
                    namespace,
                    automount,
                });
            }
            "PersistentVolume" => {
                let Some(spec) = read::opt_map(doc, "spec")? else {
                    return Ok(());
                };
                let path = match read::opt_map(spec, "hostPath")? {
                    Some(hp) => read::opt_str(hp, "path")?,
                    None => match read::opt_map(spec, "local")? {
                        Some(l) => read::opt_str(l, "path")?,
                        None => None,
                    },
                };
                let Some((path, at)) = path else {
                    return Ok(());
                };
                let claim = read::opt_map(spec, "claimRef")?.and_then(|r| {
                    let name = r.get("name").and_then(SNode::as_str)?.to_string();
                    let ns = r
                        .get("namespace")
                        .and_then(SNode::as_str)
                        .map(str::to_string);
                    Some((name, ns))
                });
                self.host_volumes.push(HostVolume {
                    name,
                    path: (path.to_string(), at),
                    claim,
                });
            }
            "PersistentVolumeClaim" => {
                let volume = read::opt_map(doc, "spec")?
                    .map(|s| read::opt_str(s, "volumeName"))
                    .transpose()?
                    .flatten();
                if let Some((v, _)) = volume {
                    self.claims.push(Claim {
                        name,
                        namespace,
                        volume: v.to_string(),
                    });
                }
            }
            "RuntimeClass" => {
                let handler = read::opt_str(doc, "handler")?.map(|(h, at)| (h.to_string(), at));
                self.runtime_classes.push(RuntimeClass { name, handler });
            }
            "ConfigMap" | "Secret" => {
                let kind = if kind == "Secret" {
                    "Secret"
                } else {
                    "ConfigMap"
                };
                let mut keys = Vec::new();
                let sections: &[&str] = if kind == "Secret" {
                    &["data", "stringData"]
                } else {
                    &["data", "binaryData"]
                };
                for section in sections {
                    // Null is an empty section to the API server.
                    let Some(m) = doc.get(section).filter(|n| !n.is_null()) else {
                        continue;
                    };
                    for e in read::map(m, section)?.entries() {
                        let value = (kind == "ConfigMap" && *section == "data")
                            .then(|| e.value.as_str().map(|v| (v, e.value.loc)))
                            .flatten();
                        keys.push((e.key.as_str(), value));
                    }
                }
                let token_of = (doc.get("type").and_then(SNode::as_str)
                    == Some("kubernetes.io/service-account-token"))
                .then(|| {
                    doc.get("metadata")
                        .and_then(|m| m.get("annotations"))
                        .and_then(|a| a.get("kubernetes.io/service-account.name"))
                        .and_then(SNode::as_str)
                        .map(str::to_string)
                })
                .flatten();
                self.data.push(DataObject {
                    kind,
                    name,
                    namespace,
                    keys,
                    at: doc.loc,
                    token_of,
                });
            }
            "Role" | "ClusterRole" => {
                let mut rules = Vec::new();
                for r in read::opt_seq(doc, "rules")?.unwrap_or_default() {
                    let list = |k: &str| -> Result<Vec<String>, ImportError> {
                        Ok(read::opt_strs(r, k, false)?
                            .unwrap_or_default()
                            .into_iter()
                            .map(|(v, _)| v)
                            .collect())
                    };
                    rules.push(RbacRule {
                        api_groups: list("apiGroups")?,
                        resources: list("resources")?,
                        verbs: list("verbs")?,
                    });
                }
                let cluster = kind == "ClusterRole";
                let aggregate = doc
                    .get("aggregationRule")
                    .and_then(|a| a.get("clusterRoleSelectors"))
                    .map(SNode::items)
                    .unwrap_or_default()
                    .iter()
                    .collect();
                self.roles.push(RbacRole {
                    cluster,
                    name,
                    namespace: if cluster { None } else { namespace },
                    rules,
                    labels: doc.get("metadata").and_then(|m| m.get("labels")),
                    aggregate,
                });
            }
            "RoleBinding" | "ClusterRoleBinding" => {
                let Some(r) = read::opt_map(doc, "roleRef")? else {
                    return Ok(());
                };
                let role_kind = read::opt_str(r, "kind")?.map_or("", |(k, _)| k);
                let role_name = read::opt_str(r, "name")?.map_or("", |(k, _)| k);
                let mut subjects = Vec::new();
                for sub in read::opt_seq(doc, "subjects")?.unwrap_or_default() {
                    let text = |k: &str| sub.get(k).and_then(SNode::as_str).map(str::to_string);
                    subjects.push((
                        text("kind").unwrap_or_default(),
                        text("name").unwrap_or_default(),
                        text("namespace"),
                    ));
                }
                let cluster = kind == "ClusterRoleBinding";
                self.bindings.push(RbacBinding {
                    kind: if cluster {
                        "ClusterRoleBinding"
                    } else {
                        "RoleBinding"
                    },
                    name,
                    namespace: if cluster { None } else { namespace },
                    role: (role_kind.to_string(), role_name.to_string()),
                    subjects,
                    at: doc.loc,
                });
            }
            _ => {}
        }
        Ok(())
    }

    /// Whether the API server serves `doc`'s `apiVersion` for its `kind`
    /// ([`SERVED`]); when not, the object is noted as not applied.
    fn served(&mut self, doc: &SNode, version: Option<&SNode>, kind: &str, name: &str) -> bool {
        let Some((_, served)) = SERVED.iter().find(|(k, _)| *k == kind) else {
            return true;
        };
        let text = version.and_then(SNode::as_str);
        if text.is_some_and(|v| served.contains(&v)) {
            return true;
        }
        let serves = served
            .iter()
            .map(|v| format!("`{v}`"))
            .collect::<Vec<_>>()
            .join(", ");
        let why = match text {
            Some(v) => format!(
                "`{kind}/{name}` is not applied: `apiVersion: {v}` is not one the API server serves for {kind} ({serves}), so the object is refused there or belongs to another API this import does not read"
            ),
            None => format!(
                "`{kind}/{name}` is not applied: it has no `apiVersion`, so the API server refuses it ({kind} is served at {serves})"
            ),
        };
        self.not_applied
            .push((version.map_or(doc.loc, |v| v.loc), why));
        false
    }

    /// Count `n` more objects looked at for a pod at `at`; past [`CHECKS`]
    /// the import is refused rather than left to run for minutes.
    fn spend(&self, n: usize, at: Loc) -> Result<(), ImportError> {
        let total = self.checks.get().saturating_add(n);
        self.checks.set(total);
        if total > CHECKS {
            return Err(invalid(
                at,
                format!(
                    "matching this file's pods against its NetworkPolicies, LimitRanges, \
                     ResourceQuotas and RuntimeClasses takes over {CHECKS} checks; refusing \
                     it (import the pods with fewer cluster objects at a time)"
                ),
            ));
        }
        Ok(())
    }

    /// The egress policies selecting a pod with `labels` in `namespace`.
    pub fn egress_for(
        &self,
        namespace: Option<&str>,
        labels: &SNode,
    ) -> Result<Vec<&EgressPolicy<'a>>, ImportError> {
        self.spend(self.egress.len(), labels.loc)?;
        let mut out = Vec::new();
        for p in &self.egress {
            if p.namespace.as_deref() == namespace && p.selector()?.selects(labels) {
                out.push(p);
            }
        }
        Ok(out)
    }

    pub fn limit_range_for(
        &self,
        namespace: Option<&str>,
        at: Loc,
    ) -> Result<Option<&LimitRange>, ImportError> {
        self.spend(self.limit_ranges.len(), at)?;
        Ok(self
            .limit_ranges
            .iter()
            .find(|l| l.namespace.as_deref() == namespace))
    }

    pub fn quota_for(
        &self,
        namespace: Option<&str>,
        at: Loc,
    ) -> Result<Option<&Quota>, ImportError> {
        self.spend(self.quotas.len(), at)?;
        Ok(self
            .quotas
            .iter()
            .filter(|q| q.namespace.as_deref() == namespace && q.pods.is_some())
            .min_by_key(|q| q.pods.map(|p| p.0)))
    }

    /// The ServiceAccount `name` in `namespace`, when the stream holds it.
    pub fn service_account(
        &self,
        namespace: Option<&str>,
        name: &str,
        at: Loc,
    ) -> Result<Option<&ServiceAccount>, ImportError> {
        self.spend(self.service_accounts.len(), at)?;
        Ok(self
            .service_accounts
            .iter()
            .find(|a| a.name == name && a.namespace.as_deref() == namespace))
    }

    /// The node directory behind claim `claim` in `namespace`: a
    /// `hostPath` or `local` PersistentVolume of the stream bound to it
    /// (the claim's `volumeName`, or the volume's `claimRef`).
    pub fn claimed_host_path(
        &self,
        namespace: Option<&str>,
        claim: &str,
        at: Loc,
    ) -> Result<Option<&HostVolume>, ImportError> {
        self.spend(self.host_volumes.len() + self.claims.len(), at)?;
        // An object written without a namespace lands in whichever one
        // `kubectl` is pointed at, so it may be any: the wider reading
        // (a node directory mounted) is taken.
        let may_share = |ns: Option<&str>| ns.is_none() || namespace.is_none() || ns == namespace;
        let named: Vec<&str> = self
            .claims
            .iter()
            .filter(|c| c.name == claim && may_share(c.namespace.as_deref()))
            .map(|c| c.volume.as_str())
            .collect();
        Ok(self.host_volumes.iter().find(|v| {
            named.contains(&v.name.as_str())
                || v.claim
                    .as_ref()
                    .is_some_and(|(n, ns)| n == claim && may_share(ns.as_deref()))
        }))
    }

    /// The ConfigMap or Secret `name` a pod in `namespace` reads. An
    /// object written without a namespace may be in the pod's.
    pub fn data_object(
        &self,
        kind: &str,
        namespace: Option<&str>,
        name: &str,
        at: Loc,
    ) -> Result<Option<&DataObject<'a>>, ImportError> {
        self.spend(self.data.len(), at)?;
        let may_share = |ns: Option<&str>| ns.is_none() || namespace.is_none() || ns == namespace;
        Ok(self
            .data
            .iter()
            .find(|o| o.kind == kind && o.name == name && may_share(o.namespace.as_deref())))
    }

    /// What the RBAC objects of the input let a token of service account
    /// `account` in `namespace` do that reaches beyond the job: each
    /// dangerous grant, with the binding that gives it; and the bindings
    /// of the account whose role is neither in the input nor built in.
    /// A namespace left unwritten may be any, so it matches (the wider
    /// reading: more grants).
    pub fn token_grants(
        &self,
        namespace: Option<&str>,
        account: &str,
        at: Loc,
    ) -> Result<TokenGrants, ImportError> {
        self.spend(self.bindings.len() + self.roles.len(), at)?;
        let may = |a: Option<&str>, b: Option<&str>| a.is_none() || b.is_none() || a == b;
        let mut out = TokenGrants::default();
        for b in &self.bindings {
            let bound = b.subjects.iter().any(|(kind, name, ns)| {
                // A RoleBinding's ServiceAccount subject without a
                // namespace is in the binding's (the authorizer's rule).
                let ns = ns.as_deref().or(b.namespace.as_deref());
                match kind.as_str() {
                    "ServiceAccount" => name == account && may(ns, namespace),
                    "Group" => match name.strip_prefix("system:serviceaccounts") {
                        Some("") => true,
                        Some(rest) => rest
                            .strip_prefix(':')
                            .is_some_and(|n| may(Some(n), namespace)),
                        None => name == "system:authenticated",
                    },
                    "User" => name
                        .strip_prefix("system:serviceaccount:")
                        .and_then(|r| r.split_once(':'))
                        .is_some_and(|(n, a)| a == account && may(Some(n), namespace)),
                    _ => false,
                }
            });
            if !bound {
                continue;
            }
            let (role_kind, role_name) = (&b.role.0, &b.role.1);
            let cluster = role_kind == "ClusterRole";
            let roles: Vec<&RbacRole> = self
                .roles
                .iter()
                .filter(|r| {
                    r.name == *role_name
                        && r.cluster == cluster
                        && (cluster || may(r.namespace.as_deref(), b.namespace.as_deref()))
                })
                .collect();
            let who = format!("{} `{}` ({role_kind} `{role_name}`)", b.kind, b.name);
            if roles.is_empty() {
                // The default roles every API server creates.
                let builtin: &[&str] = match (cluster, role_name.as_str()) {
                    (true, "cluster-admin") => &["every verb on every resource"],
                    (true, "admin" | "edit") => &["read Secrets", "exec into pods", "create pods"],
                    (true, "view") => &[],
                    _ => {
                        out.unknown.push((who, b.at));
                        continue;
                    }
                };
                for g in builtin {
                    out.grants.push(((*g).to_string(), who.clone(), b.at));
                }
                continue;
            }
            for r in roles {
                let mut rules: Vec<&RbacRule> = r.rules.iter().collect();
                if r.cluster && !r.aggregate.is_empty() {
                    // The ClusterRoles of the input it selects; the cluster
                    // may hold more, so what it grants is not all known.
                    out.unknown.push((who.clone(), b.at));
                    let empty = SNode::new(b.at, crate::import::tree::SValue::Map(Vec::new()));
                    for other in self
                        .roles
                        .iter()
                        .filter(|o| o.cluster && o.aggregate.is_empty())
                    {
                        let labels = other.labels.unwrap_or(&empty);
                        let mut selected = false;
                        for sel in &r.aggregate {
                            selected |= Selector::read(sel)?.selects(labels);
                        }
                        if selected {
                            rules.extend(other.rules.iter());
                        }
                    }
                }
                for rule in rules {
                    for g in dangerous(rule) {
                        out.grants.push((g, who.clone(), b.at));
                    }
                }
            }
        }
        Ok(out)
    }

    pub fn runtime_class(&self, name: &str, at: Loc) -> Result<Option<&RuntimeClass>, ImportError> {
        self.spend(self.runtime_classes.len(), at)?;
        Ok(self.runtime_classes.iter().find(|r| r.name == name))
    }
}

/// What a service-account token can do, as far as the input shows.
#[derive(Default)]
pub struct TokenGrants {
    /// (what it allows, the binding that gives it, where).
    pub grants: Vec<(String, String, Loc)>,
    /// Bindings of the account to a role neither in the input nor built in.
    pub unknown: Vec<(String, Loc)>,
}

/// What a rule allows that reaches beyond the job: reading Secrets,
/// running commands in other pods, starting pods (directly or through a
/// controller, which runs them with any service account of the
/// namespace), minting tokens, or escalating (`bind`, `escalate`,
/// `impersonate`, or a `*` verb or resource).
fn dangerous(r: &RbacRule) -> Vec<String> {
    let group = |g: &str| r.api_groups.iter().any(|x| x == "*" || x == g);
    let resource = |res: &str| {
        r.resources.iter().any(|x| {
            x == "*"
                || x == res
                || x.strip_suffix('*')
                    .is_some_and(|p| p.ends_with('/') && res.starts_with(p))
                || x.strip_prefix('*')
                    .is_some_and(|s| s.starts_with('/') && res.ends_with(s))
        })
    };
    let verb = |v: &str| r.verbs.iter().any(|x| x == "*" || x == v);
    let mut out = Vec::new();
    if r.verbs.iter().any(|v| v == "*") {
        out.push("every verb (`*`)".to_string());
    }
    if r.resources.iter().any(|x| x == "*") {
        out.push("every resource (`*`)".to_string());
    }
    for v in ["bind", "escalate", "impersonate"] {
        if r.verbs.iter().any(|x| x == v) {
            out.push(format!("`{v}`"));
        }
    }
    if group("") && resource("secrets") && ["get", "list", "watch"].iter().any(|v| verb(v)) {
        out.push("read Secrets".into());
    }
    if group("")
        && ["pods/exec", "pods/attach"].iter().any(|s| resource(s))
        && (verb("create") || verb("get"))
    {
        out.push("exec into pods".into());
    }
    if group("") && resource("nodes/proxy") && (verb("create") || verb("get")) {
        out.push("reach the kubelet API (`nodes/proxy`)".into());
    }
    if group("") && resource("serviceaccounts/token") && verb("create") {
        out.push("mint service-account tokens".into());
    }
    let creates_pods = (group("") && (resource("pods") || resource("replicationcontrollers")))
        || (group("apps")
            && ["deployments", "daemonsets", "statefulsets", "replicasets"]
                .iter()
                .any(|s| resource(s)))
        || (group("batch") && (resource("jobs") || resource("cronjobs")));
    if creates_pods && verb("create") {
        out.push("create pods".into());
    }
    out
}

fn memory(item: &SNode, key: &str) -> Result<Option<(u64, Loc)>, ImportError> {
    let Some(m) = read::opt_map(item, key)?.and_then(|d| d.get("memory")) else {
        return Ok(None);
    };
    let q = read::text(m, "memory")?;
    let b = read::k8s_bytes(q)
        .ok_or_else(|| invalid(m.loc, format!("`{q}` is not a Kubernetes memory quantity")))?;
    Ok(Some((b, m.loc)))
}

fn egress_rule(r: &SNode) -> Result<EgressRule, ImportError> {
    let mut notes = Vec::new();
    let mut dests: Vec<(Option<String>, Loc)> = Vec::new();
    for peer in read::opt_seq(r, "to")?.unwrap_or_default() {
        let peer = read::map(peer, "to")?;
        if let Some(ip) = read::opt_map(peer, "ipBlock")? {
            let (cidr, at) = read::opt_str(ip, "cidr")?
                .ok_or_else(|| invalid(ip.loc, "an `ipBlock` needs a `cidr`"))?;
            if let Some(e) = ip.entry("except") {
                notes.push((
                    e.key_loc,
                    format!("`except` carves addresses out of `{cidr}`; the allow entry keeps the whole block"),
                ));
            }
            let every = matches!(cidr.trim(), "0.0.0.0/0" | "::/0");
            dests.push(((!every).then(|| cidr.to_string()), at));
            continue;
        }
        let pods = peer.get("podSelector");
        let nss = peer.get("namespaceSelector");
        // A readable description, not a host name: which pods, in which
        // namespaces. A selector with expressions is shown as such.
        let labels = |n: &SNode| -> String {
            let mut parts: Vec<String> = n
                .get("matchLabels")
                .map(|m| {
                    m.entries()
                        .iter()
                        .map(|e| format!("{}={}", e.key, e.value.as_str().unwrap_or("?")))
                        .collect()
                })
                .unwrap_or_default();
            if n.get("matchExpressions").is_some() {
                parts.push("(match expressions)".into());
            }
            parts.join(",")
        };
        let which_pods = match pods {
            Some(p) if !p.entries().is_empty() => format!("pods {}", labels(p)),
            _ => "all pods".to_string(),
        };
        let where_ = match nss {
            None => "in the policy's namespace".to_string(),
            Some(n) if n.entries().is_empty() => "in every namespace".to_string(),
            Some(n) => format!("in namespaces {}", labels(n)),
        };
        let is_dns = pods
            .and_then(|p| p.get("matchLabels"))
            .and_then(|m| m.get("k8s-app"))
            .and_then(SNode::as_str)
            == Some("kube-dns");
        let text = if is_dns {
            CLUSTER_DNS.to_string()
        } else if pods.is_none() && nss.is_none() {
            String::new()
        } else {
            format!("{which_pods} {where_}")
        };
        // A peer with neither selector is invalid in the API; read it as
        // every destination rather than as nothing.
        dests.push((
            (!text.is_empty()).then(|| format!("in-cluster {text}")),
            peer.loc,
        ));
    }
    if dests.is_empty() {
        dests.push((None, r.loc));
    }
    let mut ports: Vec<(Option<u64>, Option<String>, Loc)> = Vec::new();
    for p in read::opt_seq(r, "ports")?.unwrap_or_default() {
        let p = read::map(p, "ports")?;
        let protocol = read::opt_str(p, "protocol")?
            .map_or("tcp".to_string(), |(s, _)| s.to_ascii_lowercase());
        match p.get("port") {
            None => ports.push((None, Some(protocol), p.loc)),
            Some(n) => match n.as_u64() {
                Some(v) => {
                    if let Some((end, at)) = read::opt_u64(p, "endPort")? {
                        if end > v {
                            notes.push((at, format!("`endPort` opens ports {v} to {end}; the allow entry names only {v}")));
                        }
                    }
                    ports.push((Some(v), Some(protocol), n.loc));
                }
                None => {
                    notes.push((
                        n.loc,
                        format!(
                            "named port `{}` depends on the destination pods; it is read as every port",
                            n.as_str().unwrap_or("?")
                        ),
                    ));
                    ports.push((None, Some(protocol), n.loc));
                }
            },
        }
    }
    if ports.is_empty() {
        ports.push((None, None, r.loc));
    }
    let mut allowed = Vec::new();
    for (to, to_at) in &dests {
        for (port, protocol, port_at) in &ports {
            allowed.push(Allowed {
                to: to.clone(),
                port: *port,
                protocol: protocol.clone(),
                at: if port.is_some() { *port_at } else { *to_at },
                cluster_dns: to.as_deref().and_then(|t| t.strip_prefix("in-cluster "))
                    == Some(CLUSTER_DNS)
                    && *port == Some(53),
            });
        }
    }
    Ok(EgressRule { allowed, notes })
}

/// The most cluster objects an import looks at for its pods, all pods
/// together: a pod is matched against every policy of the stream, so
/// 20,000 pods and 20,000 policies would be 400 million checks.
const CHECKS: usize = 5_000_000;

impl<'a> EgressPolicy<'a> {
    fn selector(&self) -> Result<&Selector<'a>, ImportError> {
        self.read
            .get_or_init(|| Selector::read(self.selector))
            .as_ref()
            .map_err(Clone::clone)
    }
}

/// A label selector, read once.
pub struct Selector<'a> {
    /// `matchLabels`: each key's value (`None`: not a string, which no
    /// label equals).
    labels: Vec<(&'a str, Option<&'a str>)>,
    /// `matchExpressions`: key, operator, values.
    expressions: Vec<(&'a str, &'a str, Vec<String>)>,
}

impl<'a> Selector<'a> {
    pub fn read(selector: &'a SNode) -> Result<Selector<'a>, ImportError> {
        let selector = read::map(selector, "podSelector")?;
        let mut labels = Vec::new();
        if let Some(m) = read::opt_map(selector, "matchLabels")? {
            for e in m.entries() {
                labels.push((e.key.as_str(), e.value.as_str()));
            }
        }
        let mut expressions = Vec::new();
        for ex in read::opt_seq(selector, "matchExpressions")?.unwrap_or_default() {
            let (key, _) = read::opt_str(ex, "key")?
                .ok_or_else(|| invalid(ex.loc, "a match expression needs a `key`"))?;
            let (op, _) = read::opt_str(ex, "operator")?
                .ok_or_else(|| invalid(ex.loc, "a match expression needs an `operator`"))?;
            let values: Vec<String> = read::opt_strs(ex, "values", false)?
                .unwrap_or_default()
                .into_iter()
                .map(|(v, _)| v)
                .collect();
            expressions.push((key, op, values));
        }
        Ok(Selector {
            labels,
            expressions,
        })
    }

    /// Whether it selects an object with `labels` (a mapping). An operator
    /// this code does not know selects nothing, which for a NetworkPolicy
    /// leaves the pod less restricted: the cautious reading.
    pub fn selects(&self, labels: &SNode) -> bool {
        let label = |k: &str| labels.get(k).and_then(SNode::as_str);
        if self.labels.iter().any(|(k, v)| label(k) != *v) {
            return false;
        }
        self.expressions.iter().all(|(key, op, values)| {
            let have = label(key);
            match *op {
                "In" => have.is_some_and(|h| values.iter().any(|v| v == h)),
                "NotIn" => have.is_none_or(|h| !values.iter().any(|v| v == h)),
                "Exists" => have.is_some(),
                "DoesNotExist" => have.is_none(),
                _ => false,
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn selects(selector: &SNode, labels: &SNode) -> Result<bool, ImportError> {
        Ok(Selector::read(selector)?.selects(labels))
    }

    fn docs(y: &str) -> Vec<SNode> {
        crate::import::yaml::parse(y.as_bytes()).unwrap()
    }

    fn labels(y: &str) -> SNode {
        docs(y).remove(0)
    }

    /// Selector semantics, one row per case (selector, labels, selected).
    #[test]
    fn selectors_follow_the_api() {
        let cases = [
            ("{}", "{app: x}", true),
            ("{}", "{}", true),
            ("{matchLabels: {app: x}}", "{app: x, tier: a}", true),
            ("{matchLabels: {app: x}}", "{app: y}", false),
            ("{matchLabels: {app: x}}", "{}", false),
            ("{matchLabels: {app: x, tier: a}}", "{app: x}", false),
            (
                "{matchExpressions: [{key: app, operator: In, values: [x, y]}]}",
                "{app: y}",
                true,
            ),
            (
                "{matchExpressions: [{key: app, operator: In, values: [x]}]}",
                "{app: z}",
                false,
            ),
            (
                "{matchExpressions: [{key: app, operator: NotIn, values: [x]}]}",
                "{}",
                true,
            ),
            (
                "{matchExpressions: [{key: app, operator: NotIn, values: [x]}]}",
                "{app: x}",
                false,
            ),
            (
                "{matchExpressions: [{key: app, operator: Exists}]}",
                "{app: q}",
                true,
            ),
            (
                "{matchExpressions: [{key: app, operator: Exists}]}",
                "{}",
                false,
            ),
            (
                "{matchExpressions: [{key: app, operator: DoesNotExist}]}",
                "{}",
                true,
            ),
            (
                "{matchExpressions: [{key: app, operator: Bogus}]}",
                "{app: x}",
                false,
            ),
        ];
        for (sel, lab, want) in cases {
            let s = labels(sel);
            let l = labels(lab);
            assert_eq!(selects(&s, &l).unwrap(), want, "{sel} on {lab}");
        }
    }

    /// Which policies isolate egress, and what their rules allow.
    #[test]
    fn egress_isolation_and_rules() {
        let d = docs(
            "apiVersion: networking.k8s.io/v1\nkind: NetworkPolicy\nmetadata: {name: deny}\nspec:\n  podSelector: {}\n  policyTypes: [Egress]\n---\n\
             apiVersion: networking.k8s.io/v1\nkind: NetworkPolicy\nmetadata: {name: ingress}\nspec:\n  podSelector: {}\n  ingress: [{}]\n---\n\
             apiVersion: networking.k8s.io/v1\nkind: NetworkPolicy\nmetadata: {name: implied}\nspec:\n  podSelector: {}\n  egress:\n  - to: [{ipBlock: {cidr: 10.0.0.0/8, except: [10.1.0.0/16]}}]\n    ports: [{port: 5432}, {port: dns, protocol: UDP}]\n---\n\
             apiVersion: networking.k8s.io/v1\nkind: NetworkPolicy\nmetadata: {name: open, namespace: other}\nspec:\n  podSelector: {}\n  policyTypes: [Egress]\n  egress: [{}]\n",
        );
        let c = Cluster::read(&d).unwrap();
        assert_eq!(c.egress.len(), 3);
        assert_eq!(c.ingress_only.len(), 1);
        assert!(c.egress[0].rules.is_empty());
        let r = &c.egress[1].rules[0];
        assert_eq!(r.allowed.len(), 2);
        assert_eq!(r.allowed[0].to.as_deref(), Some("10.0.0.0/8"));
        assert_eq!(r.allowed[0].port, Some(5432));
        assert_eq!(r.allowed[0].protocol.as_deref(), Some("tcp"));
        assert_eq!(r.allowed[1].port, None);
        assert_eq!(r.notes.len(), 2);
        let open = &c.egress[2].rules[0].allowed;
        assert_eq!(open.len(), 1);
        assert_eq!((open[0].to.clone(), open[0].port), (None, None));
        assert!(c.egress[1].rules[0].allowed.iter().all(|a| !a.cluster_dns));
        let pod = labels("{app: x}");
        assert_eq!(c.egress_for(None, &pod).unwrap().len(), 2);
        // Port 53 to the cluster DNS pods is the resolver; another port to
        // them, or port 53 elsewhere, is a destination.
        let d = docs(
            "apiVersion: networking.k8s.io/v1\nkind: NetworkPolicy\nmetadata: {name: dns}\nspec:\n  podSelector: {}\n  policyTypes: [Egress]\n  egress:\n  - to: [{namespaceSelector: {}, podSelector: {matchLabels: {k8s-app: kube-dns}}}]\n    ports: [{port: 53, protocol: UDP}, {port: 9153}]\n  - to: [{ipBlock: {cidr: 8.8.8.8/32}}]\n    ports: [{port: 53, protocol: UDP}]\n",
        );
        let dns_cluster = Cluster::read(&d).unwrap();
        let dns: Vec<bool> = dns_cluster.egress[0]
            .rules
            .iter()
            .flat_map(|r| r.allowed.iter().map(|a| a.cluster_dns))
            .collect();
        assert_eq!(dns, [true, false, false]);
        assert_eq!(c.egress_for(Some("other"), &pod).unwrap().len(), 1);
        assert_eq!(c.egress_for(Some("ci"), &pod).unwrap().len(), 0);
    }
}
