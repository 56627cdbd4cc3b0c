//! Kubernetes workloads: Pod, Job, CronJob, Deployment, StatefulSet,
//! DaemonSet, ReplicaSet, ReplicationController, PodTemplate and lists of
//! them (`List`, or a typed list such as `PodList`), in YAML or JSON,
//! several documents per file.
//!
//! One profile per container (init and ephemeral containers included):
//! mounts, capabilities, user, command and limits differ per container,
//! while the pod-level settings (host namespaces, service-account token,
//! runtime class, deadlines) apply to each of them.

use super::builder::{Draft, OVal};
use super::invalid;
use super::read;
use cluster::{here, list_items, Cluster, Inherited};

mod cluster;
pub(super) mod schema;
use super::shape::{self, Shape};
use super::tree::{Loc, SNode};
use super::{cap_name, yaml, ImportError, ImportErrorKind};

pub fn looks_like(doc: &SNode) -> bool {
    doc.get("apiVersion").and_then(SNode::as_str).is_some()
        && doc.get("kind").and_then(SNode::as_str).is_some()
}

const TOKEN_PATH: &str = "/var/run/secrets/kubernetes.io/serviceaccount";

/// Where a workload keeps its pod template, and the controller settings
/// that bound its pods.
struct Workload<'a> {
    kind: &'a str,
    name: String,
    pod: &'a SNode,
    /// The Job spec (Job, or CronJob's job template).
    job: Option<&'a SNode>,
    /// `replicas` of a Deployment-like controller.
    replicas: Option<(u64, Loc)>,
    /// A CronJob whose runs may overlap (`concurrencyPolicy: Allow`, the
    /// default), and where that is (not) said.
    overlap: Option<Loc>,
    /// The `spec:` key of the pod template: where pod-level settings that
    /// are not written would go.
    pod_at: Loc,
    /// The pod's metadata (the template's for controllers): its labels
    /// select NetworkPolicies, its annotations may hold legacy settings.
    pod_meta: Option<&'a SNode>,
    /// The workload's namespace as written (`None`: whatever `kubectl`
    /// targets).
    namespace: Option<String>,
    /// Where the pod spec is in the document, for messages.
    pod_path: &'static str,
    /// The workload's own spec and the table it is walked against.
    spec: Option<(&'a SNode, &'static shape::Table)>,
}

fn workloads<'a>(
    doc: &'a SNode,
    out: &mut Vec<Workload<'a>>,
    others: &mut Vec<(String, Loc)>,
) -> Result<(), ImportError> {
    workloads_in(doc, None, out, others)
}

/// [`workloads`], for an item of a typed list (`inherit`: the kind an
/// item that names neither kind nor apiVersion takes).
fn workloads_in<'a>(
    doc: &'a SNode,
    inherit: Option<Inherited<'a>>,
    out: &mut Vec<Workload<'a>>,
    others: &mut Vec<(String, Loc)>,
) -> Result<(), ImportError> {
    read::map(doc, "document")?;
    let own = read::opt_str(doc, "kind")?;
    let own = match (own, inherit) {
        (None, Some(i)) if doc.get("apiVersion").is_none() => Some((i.kind, doc.loc)),
        (own, _) => own,
    };
    let Some((kind, kind_at)) = own else {
        if let Some(path) = held_container(doc, true) {
            return Err(invalid(
                doc.loc,
                format!("a document without `kind` holds containers (`{path}`); this import cannot tell what runs them, so they would not be audited"),
            ));
        }
        others.push(("a document without `kind`".into(), doc.loc));
        return Ok(());
    };
    if let Some((items, item)) = list_items(doc, kind)? {
        for i in items {
            workloads_in(i, item, out, others)?;
        }
        return Ok(());
    }
    let name = doc
        .get("metadata")
        .and_then(|m| m.get("name").or_else(|| m.get("generateName")))
        .and_then(SNode::as_str)
        .unwrap_or("unnamed")
        .to_string();
    let spec = read::opt_map(doc, "spec")?;
    let spec_table: Option<&'static shape::Table> = match kind {
        "Job" => Some(&schema::JOB_SPEC),
        "CronJob" => Some(&schema::CRONJOB_SPEC),
        "Deployment" | "StatefulSet" | "DaemonSet" | "ReplicaSet" | "ReplicationController" => {
            Some(&schema::CONTROLLER_SPEC)
        }
        _ => None,
    };
    // Types first, before `replicas` or `concurrencyPolicy` is read; the
    // notes are taken when the workload is imported.
    if let (Some(s), Some(table)) = (spec, spec_table) {
        let mut scratch = Draft::new("", "", s.loc);
        shape::walk(&mut scratch, s, &Shape::Map(table), "spec", &unknown)?;
    }
    let namespace = doc
        .get("metadata")
        .and_then(|m| m.get("namespace"))
        .and_then(SNode::as_str)
        .map(str::to_string);
    let mut pod_meta = doc.get("metadata");
    let template_spec = |s: &'a SNode| -> Result<Option<(&'a SNode, Loc)>, ImportError> {
        match read::opt_map(s, "template")? {
            Some(t) => Ok(read::opt_map(t, "spec")?.map(|p| (p, spec_key(t)))),
            None => Ok(None),
        }
    };
    let template_meta = |s: &'a SNode| s.get("template").and_then(|t| t.get("metadata"));
    match (kind, spec) {
        ("PodTemplate", _) => pod_meta = doc.get("template").and_then(|t| t.get("metadata")),
        ("Pod", _) => {}
        ("CronJob", Some(s)) => {
            pod_meta = s
                .get("jobTemplate")
                .and_then(|jt| jt.get("spec"))
                .and_then(template_meta)
        }
        (_, Some(s)) => pod_meta = template_meta(s),
        _ => {}
    }
    let w = match (kind, spec) {
        ("PodTemplate", _) => match read::opt_map(doc, "template")? {
            Some(t) => read::opt_map(t, "spec")?.map(|pod| (pod, None, None, spec_key(t))),
            None => None,
        },
        ("Pod", Some(s)) => Some((s, None, None, spec_key(doc))),
        ("Job", Some(s)) => template_spec(s)?.map(|(pod, at)| (pod, Some(s), None, at)),
        ("CronJob", Some(s)) => match read::opt_map(s, "jobTemplate")? {
            Some(jt) => match read::opt_map(jt, "spec")? {
                Some(js) => template_spec(js)?.map(|(pod, at)| (pod, Some(js), None, at)),
                None => None,
            },
            None => None,
        },
        (
            "Deployment" | "StatefulSet" | "DaemonSet" | "ReplicaSet" | "ReplicationController",
            Some(s),
        ) => {
            let replicas = if kind == "DaemonSet" {
                None
            } else {
                // `replicas` defaults to 1 in every controller that has it.
                Some(read::opt_u64(s, "replicas")?.unwrap_or((1, s.loc)))
            };
            template_spec(s)?.map(|(pod, at)| (pod, None, replicas, at))
        }
        _ => None,
    };
    match w {
        Some((pod, job, replicas, pod_at)) => {
            let overlap = match (kind, spec) {
                ("CronJob", Some(s)) => match read::opt_str(s, "concurrencyPolicy")? {
                    Some(("Forbid" | "Replace", _)) => None,
                    Some((_, at)) => Some(at),
                    None => Some(s.loc),
                },
                _ => None,
            };
            let pod_path = match kind {
                "Pod" => "spec",
                "PodTemplate" => "template.spec",
                "Job" => "spec.template.spec",
                "CronJob" => "spec.jobTemplate.spec.template.spec",
                _ => "spec.template.spec",
            };
            out.push(Workload {
                spec: spec.zip(spec_table),
                kind,
                name,
                pod,
                job,
                replicas,
                pod_at,
                overlap,
                pod_meta,
                namespace,
                pod_path,
            })
        }
        None => {
            // Containers where this import reads none (a custom resource
            // such as an Argo Workflow or a Tekton Task, or a pod spec
            // written outside its template): whatever runs them, they
            // would not be audited.
            let data = matches!(kind, "ConfigMap" | "Secret");
            if let Some(path) = held_container(doc, !data) {
                let why = if WORKLOAD_KINDS.contains(&kind) {
                    "not where this import reads a pod spec".to_string()
                } else {
                    format!("this import does not read kind `{kind}`")
                };
                return Err(invalid(
                    kind_at,
                    format!("`{kind}/{name}` holds containers (`{path}`), but {why}: they are not audited; import the pod spec as a Pod, Job or Deployment, or leave the document out"),
                ));
            }
            others.push((format!("{kind}/{name}"), doc.loc))
        }
    }
    Ok(())
}

/// The kinds whose pod template this import reads.
const WORKLOAD_KINDS: [&str; 9] = [
    "Pod",
    "PodTemplate",
    "Job",
    "CronJob",
    "Deployment",
    "StatefulSet",
    "DaemonSet",
    "ReplicaSet",
    "ReplicationController",
];

/// Where `node` holds a container: a `containers`, `initContainers` or
/// `ephemeralContainers` list with a mapping in it, or (with `image`) a
/// mapping that names an image as text (an Argo template's `container`
/// or `script`, a Tekton step); its path, as messages write one
/// (`spec.templates[0].container`). Depth is bounded by the parser.
fn held_container(node: &SNode, image: bool) -> Option<String> {
    fn walk(n: &SNode, path: &mut Vec<String>, image: bool) -> bool {
        if image && n.get("image").and_then(SNode::as_str).is_some() {
            return true;
        }
        for e in n.entries() {
            path.push(e.key.clone());
            if matches!(
                e.key.as_str(),
                "containers" | "initContainers" | "ephemeralContainers"
            ) {
                if let Some(i) = e.value.items().iter().position(SNode::is_map) {
                    path.push(format!("[{i}]"));
                    return true;
                }
            }
            if walk(&e.value, path, image) {
                return true;
            }
            path.pop();
        }
        for (i, item) in n.items().iter().enumerate() {
            path.push(format!("[{i}]"));
            if walk(item, path, image) {
                return true;
            }
            path.pop();
        }
        false
    }
    let mut path = Vec::new();
    walk(node, &mut path, image).then(|| {
        let mut out = String::new();
        for p in path {
            if !out.is_empty() && !p.starts_with('[') {
                out.push('.');
            }
            out.push_str(&p);
        }
        out
    })
}

/// Where `key` is written in `node` (the node itself when it is absent).
fn key_at(node: &SNode, key: &str) -> Loc {
    node.entry(key).map_or(node.loc, |e| e.key_loc)
}

/// Where the `spec` key of `parent` is written.
fn spec_key(parent: &SNode) -> Loc {
    parent.entry("spec").map_or(parent.loc, |e| e.key_loc)
}

#[cfg(test)]
pub fn import(bytes: &[u8]) -> Result<Vec<(String, Draft)>, ImportError> {
    import_with(bytes, &[])
}

/// The cluster objects a file holds when it holds no workload: `Kind/name`
/// of each object of a kind read beside workloads (NetworkPolicy,
/// LimitRange, ResourceQuota, RuntimeClass, ServiceAccount, volumes and
/// claims, ConfigMap, Secret, RBAC roles and bindings), or
/// `None` (a workload is there, nothing of the kind is, or it does not parse).
pub fn cluster_objects_only(bytes: &[u8]) -> Option<Vec<String>> {
    let docs = yaml::parse(bytes).ok()?;
    let mut found = Vec::new();
    let mut others = Vec::new();
    for d in &docs {
        workloads(d, &mut found, &mut others).ok()?;
    }
    let kinds: Vec<String> = cluster::SERVED
        .iter()
        .map(|(k, _)| format!("{k}/"))
        .collect();
    let objects: Vec<String> = others
        .into_iter()
        .map(|(k, _)| k)
        .filter(|k| kinds.iter().any(|p| k.starts_with(p)))
        .collect();
    (found.is_empty() && !objects.is_empty()).then_some(objects)
}

/// [`import`], with the cluster objects of `companions` (other files of
/// the same run, already parsed) read as if they were in this stream.
#[cfg(test)]
pub fn import_with(
    bytes: &[u8],
    companions: &[SNode],
) -> Result<Vec<(String, Draft)>, ImportError> {
    let mut out = Vec::new();
    import_into(bytes, companions, &mut |name, d| out.push((name, d)))?;
    Ok(out)
}

/// [`import_with`], each container's draft handed to `sink` as it is built.
pub fn import_into(
    bytes: &[u8],
    companions: &[SNode],
    sink: &mut dyn FnMut(String, Draft),
) -> Result<(), ImportError> {
    import_docs(&yaml::parse(bytes)?, companions, sink)
}

/// [`import_into`] from the file's YAML documents, already parsed.
pub fn import_docs(
    docs: &[SNode],
    companions: &[SNode],
    sink: &mut dyn FnMut(String, Draft),
) -> Result<(), ImportError> {
    let mut found = Vec::new();
    let mut others = Vec::new();
    for doc in docs {
        workloads(doc, &mut found, &mut others)?;
    }
    if found.is_empty() {
        let seen: Vec<String> = others.iter().map(|(k, _)| format!("`{k}`")).collect();
        return Err(ImportError::new(ImportErrorKind::Unrecognized(format!(
            "no Pod, Job, CronJob, Deployment, StatefulSet, DaemonSet or ReplicaSet with a pod template found{}",
            if seen.is_empty() { String::new() } else { format!(" (found {})", seen.join(", ")) }
        )))
        .at(docs.first().map_or(Loc { line: 1, column: 1 }, |d| d.loc)));
    }
    // Documents of the stream this import reads nothing from: named, so
    // none is left out without a word.
    let mut unread = Draft::new(
        "",
        "",
        docs.first().map_or(Loc { line: 1, column: 1 }, |d| d.loc),
    );
    for (k, at) in &others {
        let kind = k.split('/').next().unwrap_or("");
        let what = if k.starts_with("a document") {
            k.clone()
        } else {
            format!("`{k}`")
        };
        if !cluster::reads_kind(kind) {
            unread.note(
                *at,
                format!("{what} is not audited: this import reads no pod spec from it, and it holds no containers"),
            );
        }
    }
    let mut cluster = Cluster::read(docs)?;
    // A broken companion is reported when it is audited itself.
    for c in companions {
        cluster.add_companion(c);
    }
    for w in &found {
        // Types first, for the whole pod: a bad value in any container is
        // refused whichever container's profile would read it.
        // Walked once per workload (per container, a pod of many
        // containers would cost the square); each profile gets the notes.
        let mut pod_notes = Draft::new("", "", w.pod_at);
        shape::adopt_notes(&mut pod_notes, &unread);
        for (at, why) in &cluster.not_applied {
            pod_notes.note(here(*at, w.pod_at), why.clone());
        }
        if let Some((spec, table)) = w.spec {
            shape::walk(&mut pod_notes, spec, &Shape::Map(table), "spec", &unknown)?;
        }
        if let Some(meta) = w.pod_meta {
            let meta_path = w.pod_path.strip_suffix("spec").unwrap_or("").to_string() + "metadata";
            shape::walk(
                &mut pod_notes,
                meta,
                &Shape::Map(&schema::METADATA),
                &meta_path,
                &unknown,
            )?;
        }
        shape::walk(
            &mut pod_notes,
            w.pod,
            &Shape::Map(&schema::POD_SPEC),
            w.pod_path,
            &unknown,
        )?;
        let pod = read::map(w.pod, "spec")?;
        let volumes = volumes_of(pod)?;
        let mut any = false;
        // Names are unique across every kind of container in a pod.
        let mut names: std::collections::HashMap<&str, Loc> = std::collections::HashMap::new();
        for (group, init) in [
            ("initContainers", true),
            ("containers", false),
            ("ephemeralContainers", false),
        ] {
            for (i, c) in read::opt_seq(pod, group)?
                .unwrap_or_default()
                .iter()
                .enumerate()
            {
                let c = read::map(c, group)?;
                let c_path = format!("{}.{group}[{i}]", w.pod_path);
                let (cname, cname_at) = read::opt_str(c, "name")?.ok_or_else(|| {
                    invalid(c.loc, format!("a container in `{group}` needs a `name`"))
                })?;
                if let Some(first) = names.insert(cname, cname_at) {
                    return Err(invalid(
                        cname_at,
                        format!(
                            "container name `{cname}` is used twice in the pod (first at line {}); the API server refuses a pod whose containers, init and ephemeral ones included, share a name",
                            first.line
                        ),
                    ));
                }
                // The namespace first, as `kubectl` names an object, when
                // the manifest gives one: `Pod ci/x` and `Pod staging/x`
                // are two profiles, in reports, baselines and file names.
                let name = match &w.namespace {
                    Some(ns) => format!("{ns}/{}/{}/{}", w.kind, w.name, cname),
                    None => format!("{}/{}/{}", w.kind, w.name, cname),
                };
                let d = container(
                    w,
                    (pod, &volumes),
                    (c, &c_path),
                    &name,
                    (group, init),
                    &cluster,
                    &pod_notes,
                )?;
                sink(name, d);
                any = true;
            }
        }
        if !any {
            return Err(invalid(
                pod.loc,
                format!("`{}/{}` has no containers", w.kind, w.name),
            ));
        }
    }
    Ok(())
}

fn unknown(p: &str) -> String {
    format!("unknown field `{p}` is ignored by this import (and rejected or ignored by Kubernetes)")
}

/// A security-context value: the container's, else the pod's.
fn sc_value<'a>(c_sc: Option<&'a SNode>, p_sc: Option<&'a SNode>, key: &str) -> Option<&'a SNode> {
    c_sc.and_then(|s| s.get(key))
        .or_else(|| p_sc.and_then(|s| s.get(key)))
}

fn container(
    w: &Workload<'_>,
    (pod, volumes): (&SNode, &Volumes<'_>),
    (c, c_path): (&SNode, &str),
    name: &str,
    (group, init): (&str, bool),
    cluster: &Cluster<'_>,
    pod_notes: &Draft,
) -> Result<Draft, ImportError> {
    let cname = c.get("name").and_then(SNode::as_str).unwrap_or("");
    let purpose = format!(
        "imported from Kubernetes {} `{}`, {} `{cname}`",
        w.kind,
        w.name,
        if init {
            "init container"
        } else if group == "ephemeralContainers" {
            "ephemeral container"
        } else {
            "container"
        }
    );
    let mut d = Draft::new(name, &purpose, c.loc);
    // Every key is held to the API's types before it is read, and keys
    // this import does not know stay visible as notes, so a setting added
    // upstream can never vanish silently.
    shape::adopt_notes(&mut d, pod_notes);
    shape::walk(&mut d, c, &Shape::Map(&schema::CONTAINER), c_path, &unknown)?;
    let p_sc = read::opt_map(pod, "securityContext")?;
    let c_sc = read::opt_map(c, "securityContext")?;
    let sc_loc = key_at(c, "securityContext");
    d.map("/boundary", sc_loc);

    boundary(&mut d, pod, w.pod_at, c, p_sc, c_sc, cluster)?;
    legacy_annotations(&mut d, w, cname);
    network(&mut d, w, cluster)?;
    mounts(
        &mut d,
        (pod, volumes),
        w.pod_at,
        c,
        (cluster, w.namespace.as_deref()),
    )?;
    container_extras(&mut d, c)?;
    environment(&mut d, c, (cluster, w.namespace.as_deref()))?;
    command(&mut d, c)?;
    if let Some((cwd, at)) = read::opt_str(c, "workingDir")? {
        super::working_dir(&mut d, cwd, at, "workingDir");
    }
    name_resolution(&mut d, pod)?;
    limits(&mut d, w, pod, c, cluster)?;

    if let Some((image, at)) = read::opt_str(c, "image")? {
        d.set("/dependencies/image", image, at);
        d.map("/dependencies", at);
    } else {
        d.undeclared("/dependencies/image", "the container names no image");
    }
    if let Some(job) = w.job {
        if let Some((_, at)) = read::opt_u64(job, "ttlSecondsAfterFinished")? {
            d.set("/cleanup/destroy_worker", true, at);
            d.note(
                at,
                "`ttlSecondsAfterFinished` deletes the finished Job and its pods",
            );
        }
    }
    {
        let parallel = match w.job {
            Some(job) => Some(read::opt_u64(job, "parallelism")?.unwrap_or((1, job.loc))),
            None => w.replicas,
        };
        match parallel {
            Some(_) if w.overlap.is_some() => {
                let at = w.overlap.unwrap_or(c.loc);
                d.note(at, "`concurrencyPolicy` allows a new run to start while the previous one is still running");
                d.undeclared(
                    "/concurrency/max_jobs",
                    "overlapping CronJob runs are not bounded",
                );
            }
            Some((n, at)) => d.set("/concurrency/max_jobs", n, at),
            None => match cluster.quota_for(w.namespace.as_deref(), w.pod_at)? {
                Some(q) => {
                    if let Some((n, at)) = q.pods {
                        let at = here(at, w.pod_at);
                        d.set("/concurrency/max_jobs", n, at);
                        d.note(
                            at,
                            format!(
                                "ResourceQuota `{}` bounds the namespace to {n} pods at once",
                                q.name
                            ),
                        );
                    }
                }
                None => d.undeclared(
                    "/concurrency/max_jobs",
                    "a bare Pod or DaemonSet does not bound how many copies run at once",
                ),
            },
        }
    }
    for (ptr, why) in [
        (
            "/tenancy",
            "a manifest does not say who wrote the code it runs",
        ),
        (
            "/needs",
            "a manifest does not list the job's required inputs and outputs",
        ),
        (
            "/dependencies/prepared_in",
            "how dependencies were prepared is not in the manifest",
        ),
        (
            "/dependencies/lockfile",
            "the manifest does not name a lockfile",
        ),
        ("/artifacts", "artifact collection is outside the pod spec"),
        (
            "/cleanup/expire_credentials",
            "secret and token expiry are cluster policy, not in the manifest",
        ),
        (
            "/concurrency/release_after",
            "Kubernetes frees quota when pods terminate; the manifest does not say more",
        ),
    ] {
        d.undeclared(ptr, why);
    }
    Ok(d)
}

/// The container's boundary: runtime, identity, namespaces, confinement
/// and the pod-wide settings, each read where Kubernetes reads it.
fn boundary(
    d: &mut Draft,
    pod: &SNode,
    pod_at: Loc,
    c: &SNode,
    p_sc: Option<&SNode>,
    c_sc: Option<&SNode>,
    cluster: &Cluster<'_>,
) -> Result<(), ImportError> {
    let sc_loc = key_at(c, "securityContext");
    runtime_class(d, pod, pod_at, cluster)?;
    identity(d, p_sc, c_sc, sc_loc)?;
    host_namespaces(d, pod, pod_at, c)?;
    confinement(d, p_sc, c_sc, sc_loc)?;
    let host_network = read::opt_bool(pod, "hostNetwork")?;
    if host_network.is_some_and(|(h, _)| h) {
        let at = host_network.map_or(pod_at, |(_, l)| l);
        d.set("/network/egress", "allow-all", at);
        d.set("/network/enforced_by", "none", at);
        d.note(
            at,
            "NetworkPolicy does not apply to pods on the host network",
        );
    }

    if let Some(s) = p_sc {
        pod_wide(d, s)?;
    }
    // A Windows HostProcess container is a process on the host, outside
    // any container boundary: the container's setting wins over the pod's.
    let host_process = sc_value(c_sc, p_sc, "windowsOptions")
        .and_then(|w| w.get("hostProcess"))
        .filter(|h| h.as_bool() == Some(true));
    if let Some(h) = host_process {
        d.set("/boundary/privileged", true, h.loc);
        d.set("/boundary/kind", "process", h.loc);
        d.note(h.loc, "`windowsOptions.hostProcess: true` runs the container as a process on the Windows host, with the host's network and file system; it is audited as privileged");
    }
    Ok(())
}

/// The runtime a `runtimeClassName` selects: known only from the
/// RuntimeClass object's `handler`, never from the class's name.
fn runtime_class(
    d: &mut Draft,
    pod: &SNode,
    pod_at: Loc,
    cluster: &Cluster<'_>,
) -> Result<(), ImportError> {
    match read::opt_str(pod, "runtimeClassName")? {
        Some((rc, at)) => {
            // The RuntimeClass in the input names the handler the node
            // runs. Without it only the class's name is known, and a name
            // is whatever the cluster's admin chose (`gvisor-compat` may
            // well run runc): the runtime is undeclared, never guessed.
            let handler = match cluster.runtime_class(rc, at)? {
                Some(class) => class.handler.as_ref(),
                None => None,
            };
            match handler {
                Some((h, h_at)) => {
                    let place = if *h_at == cluster::ELSEWHERE {
                        "in another file of this run".to_string()
                    } else {
                        format!("line {}", h_at.line)
                    };
                    d.note(
                        at,
                        format!("RuntimeClass `{rc}` runs handler `{h}` ({place})"),
                    );
                    let at = here(*h_at, at);
                    let l = h.to_ascii_lowercase();
                    let (kind, runtime) = if l.contains("gvisor") || l.contains("runsc") {
                        ("user-space-kernel", "gvisor")
                    } else if l.contains("kata") {
                        ("microvm", "kata")
                    } else if l.contains("firecracker") || l == "fc" {
                        ("microvm", "firecracker")
                    } else {
                        ("container", h.as_str())
                    };
                    d.set("/boundary/kind", kind, at);
                    d.set("/boundary/runtime/name", runtime, at);
                    d.map("/boundary/runtime", at);
                    d.undeclared(
                        "/boundary/runtime/version",
                        "the runtime version is set by the node, not the manifest",
                    );
                    d.undeclared(
                        "/boundary/runtime/patched_on",
                        "the runtime's patch date is set by the node, not the manifest",
                    );
                }
                None => {
                    d.set("/boundary/kind", "container", at);
                    d.map("/boundary/runtime", at);
                    d.note(
                        at,
                        format!("RuntimeClass `{rc}` is not in this input (or names no `handler`): which runtime it selects is the cluster's configuration, so the runtime is undeclared and a shared-kernel container is assumed"),
                    );
                    d.undeclared(
                        "/boundary/runtime",
                        "the RuntimeClass object that names the handler is not in this input",
                    );
                }
            }
        }
        None => {
            d.set("/boundary/kind", "container", pod_at);
            d.map("/boundary/runtime", pod_at);
            d.undeclared(
                "/boundary/runtime",
                "no `runtimeClassName`: the node's default runtime runs the pod, and the manifest does not say which",
            );
        }
    }

    Ok(())
}

/// Who the container runs as and with which privileges: `privileged`,
/// capabilities, user and group, `allowPrivilegeEscalation`.
fn identity(
    d: &mut Draft,
    p_sc: Option<&SNode>,
    c_sc: Option<&SNode>,
    sc_loc: Loc,
) -> Result<(), ImportError> {
    let privileged = match c_sc {
        Some(s) => read::opt_bool(s, "privileged")?,
        None => None,
    };
    match privileged {
        Some((p, at)) => d.set("/boundary/privileged", p, at),
        None => d.set("/boundary/privileged", false, sc_loc),
    }

    match c_sc.map(|s| read::opt_map(s, "capabilities")).transpose()?.flatten() {
        Some(caps) => {
            d.map("/boundary/capabilities", caps.loc);
            for set in ["add", "drop"] {
                let ptr = format!("/boundary/capabilities/{set}");
                d.set(&ptr, OVal::arr(), caps.get(set).map_or(caps.loc, |n| n.loc));
                for (cap, at) in read::opt_strs(caps, set, false)?.unwrap_or_default() {
                    d.push(&ptr, cap_name(&cap), at);
                }
            }
        }
        None => d.undeclared(
            "/boundary/capabilities",
            "no `securityContext.capabilities`: the container runtime's default capability set applies",
        ),
    }

    let user = sc_value(c_sc, p_sc, "runAsUser");
    let group = sc_value(c_sc, p_sc, "runAsGroup");
    match user {
        Some(u) => {
            let uid = k8s_id(u, "runAsUser")?;
            let text = match group.map(|g| k8s_id(g, "runAsGroup")).transpose()? {
                Some(g) => format!("{uid}:{g}"),
                None => uid.to_string(),
            };
            d.set("/boundary/user", text, u.loc);
        }
        None if group.is_some() => {
            // The group applies to whatever user the image names.
            let g = group.map(|g| k8s_id(g, "runAsGroup")).transpose()?;
            let at = group.map_or(sc_loc, |g| g.loc);
            d.note(at, format!("`runAsGroup: {}` is the primary group of the image's user, which the manifest does not name", g.unwrap_or(0)));
            d.undeclared(
                "/boundary/user",
                "no `runAsUser`: the image's USER applies (root unless the image says otherwise)",
            );
        }
        None => match sc_value(c_sc, p_sc, "runAsNonRoot") {
            // The kubelet refuses to start the container as uid 0 (and a
            // user name it cannot check), so whatever uid the image picks
            // is not root.
            Some(n) if n.as_bool() == Some(true) => {
                d.set("/boundary/user", NON_ROOT_USER, n.loc);
                d.note(n.loc, "`runAsNonRoot: true`: the kubelet refuses to start the container as uid 0; the uid itself comes from the image");
            }
            _ => d.undeclared(
                "/boundary/user",
                "no `runAsUser`: the image's USER applies (root unless the image says otherwise)",
            ),
        },
    }

    match c_sc
        .map(|s| read::opt_bool(s, "allowPrivilegeEscalation"))
        .transpose()?
        .flatten()
    {
        Some((allow, at)) => d.set("/boundary/no_new_privileges", !allow, at),
        // Kubernetes' documented default: escalation is allowed.
        None => d.set("/boundary/no_new_privileges", false, sc_loc),
    }

    Ok(())
}

/// The host namespaces the pod shares, and the containers that see the
/// job's processes under `shareProcessNamespace`.
fn host_namespaces(d: &mut Draft, pod: &SNode, pod_at: Loc, c: &SNode) -> Result<(), ImportError> {
    let mut shared: Vec<(&str, Loc)> = Vec::new();
    for (key, ns) in [
        ("hostNetwork", "network"),
        ("hostPID", "pid"),
        ("hostIPC", "ipc"),
    ] {
        if let Some((true, at)) = read::opt_bool(pod, key)? {
            shared.push((ns, at));
            if key == "hostNetwork" {
                shared.push(("uts", at));
            }
        }
    }
    match read::opt_bool(pod, "hostUsers")? {
        Some((false, _)) => {}
        Some((true, at)) => shared.push(("user", at)),
        None => {
            shared.push(("user", pod_at));
            d.note(pod_at, "no `hostUsers: false`: the pod runs in the host's user namespace (Kubernetes' default)");
        }
    }
    d.set("/boundary/host_namespaces", OVal::arr(), pod_at);
    for (ns, at) in shared {
        d.push("/boundary/host_namespaces", ns, at);
    }
    if let Some((true, at)) = read::opt_bool(pod, "shareProcessNamespace")? {
        // Everything else that runs beside the job: containers, sidecars
        // (init containers that keep running) and debug containers.
        let me = c.get("name").and_then(SNode::as_str);
        let mut peers: Vec<&str> = Vec::new();
        for key in ["containers", "initContainers", "ephemeralContainers"] {
            for other in read::opt_seq(pod, key)?.unwrap_or_default() {
                let sidecar = key != "initContainers"
                    || other.get("restartPolicy").and_then(SNode::as_str) == Some("Always");
                match other.get("name").and_then(SNode::as_str) {
                    Some(n) if Some(n) != me && sidecar => peers.push(n),
                    _ => {}
                }
            }
        }
        d.set("/boundary/shares_pid_with", OVal::arr(), at);
        for p in &peers {
            d.push("/boundary/shares_pid_with", *p, at);
        }
        if peers.is_empty() {
            d.note(at, "`shareProcessNamespace`: no other container runs in the pod today; any added later (a debug container too) sees the job's processes, and the job sees theirs");
        }
    }

    Ok(())
}

/// seccomp, the read-only root, `/proc` masking, AppArmor and SELinux.
fn confinement(
    d: &mut Draft,
    p_sc: Option<&SNode>,
    c_sc: Option<&SNode>,
    sc_loc: Loc,
) -> Result<(), ImportError> {
    match sc_value(c_sc, p_sc, "seccompProfile") {
        Some(s) => {
            let s = read::map(s, "seccompProfile")?;
            let (t, at) = read::opt_str(s, "type")?
                .ok_or_else(|| invalid(s.loc, "`seccompProfile` needs a `type`"))?;
            let v = match t {
                "RuntimeDefault" => "default",
                "Localhost" => "custom",
                "Unconfined" => "unconfined",
                other => {
                    return Err(invalid(
                        at,
                        format!("unknown seccompProfile type `{other}`; expected RuntimeDefault, Localhost or Unconfined"),
                    ))
                }
            };
            d.set("/boundary/seccomp", v, at);
        }
        // The kubelet's `seccompDefault` is off unless its configuration
        // turns it on, and then the container runs `Unconfined`: the
        // documented default, written out.
        None => {
            d.set("/boundary/seccomp", "unconfined", sc_loc);
            d.note(sc_loc, "no `seccompProfile` on the pod or the container: the kubelet runs it `Unconfined` unless its `seccompDefault` is on, which the manifest does not show");
        }
    }

    match c_sc
        .map(|s| read::opt_bool(s, "readOnlyRootFilesystem"))
        .transpose()?
        .flatten()
    {
        Some((ro, at)) => d.set("/boundary/read_only_root", ro, at),
        None => d.set("/boundary/read_only_root", false, sc_loc),
    }

    if let Some(s) = c_sc {
        if let Some((p, at)) = read::opt_str(s, "procMount")? {
            d.set("/boundary/masked_paths", p != "Unmasked", at);
        }
    }
    // The container's AppArmor and SELinux settings win over the pod's.
    if let Some(a) = sc_value(c_sc, p_sc, "appArmorProfile").and_then(|a| a.get("type")) {
        let v = match a.as_str() {
            Some("Unconfined") => "unconfined",
            Some("RuntimeDefault") => "default",
            _ => "custom",
        };
        d.set("/boundary/apparmor", v, a.loc);
    }
    if let Some(t) = sc_value(c_sc, p_sc, "seLinuxOptions").and_then(|o| o.get("type")) {
        let v = match t.as_str() {
            Some("spc_t" | "unconfined_t") => "unconfined",
            _ => "custom",
        };
        d.set("/boundary/selinux", v, t.loc);
    }
    Ok(())
}

/// Pod-wide settings of the pod's `securityContext`: sysctls and the
/// supplementary groups every process gets.
fn pod_wide(d: &mut Draft, s: &SNode) -> Result<(), ImportError> {
    if let Some(list) = read::opt_seq(s, "sysctls")? {
        d.set("/boundary/sysctls", OVal::obj(), key_at(s, "sysctls"));
        for item in list {
            let (name, at) = read::opt_str(item, "name")?
                .ok_or_else(|| invalid(item.loc, "a sysctl needs a `name`"))?;
            let value = read::opt_str(item, "value")?.map_or("", |(v, _)| v);
            d.set(
                &format!("/boundary/sysctls/{}", crate::json::escape_token(name)),
                value,
                at,
            );
        }
    }
    // `fsGroup` is added to every process's supplementary groups, as
    // are `supplementalGroups`.
    let mut groups: Vec<(u64, Loc)> = Vec::new();
    if let Some(g) = s.get("fsGroup") {
        groups.push((k8s_id(g, "fsGroup")?, g.loc));
    }
    if let Some(list) = s.get("supplementalGroups") {
        for g in list.items() {
            groups.push((k8s_id(g, "supplementalGroups")?, g.loc));
        }
    }
    if let Some((_, at)) = groups.first() {
        d.set("/boundary/groups", OVal::arr(), *at);
    }
    for (g, at) in groups {
        d.push("/boundary/groups", g.to_string(), at);
    }
    Ok(())
}

/// A user or group id as the API server reads it: a whole number in
/// YAML 1.1 or JSON (`0x0`, `00` and `0.0` are 0), between 0 and
/// 2147483647, the range its validation allows; anything else is refused
/// there, so it is an error here.
fn k8s_id(n: &SNode, key: &str) -> Result<u64, ImportError> {
    n.as_int()
        .filter(|v| (0..=i128::from(i32::MAX)).contains(v))
        .and_then(|v| u64::try_from(v).ok())
        .ok_or_else(|| {
            invalid(
                n.loc,
                format!(
                    "`{key}` must be a whole number from 0 to 2147483647, found {}",
                    n.kind()
                ),
            )
        })
}

/// The user written when `runAsNonRoot: true` is the only statement about
/// it: some uid other than 0, chosen by the image.
pub const NON_ROOT_USER: &str = "non-root";

/// Annotations current Kubernetes no longer honours but that authors still
/// write, believing them in force.
fn legacy_annotations(d: &mut Draft, w: &Workload<'_>, cname: &str) {
    let Some(ann) = w.pod_meta.and_then(|m| m.get("annotations")) else {
        return;
    };
    let container_key = format!("container.seccomp.security.alpha.kubernetes.io/{cname}");
    for e in ann.entries() {
        if e.key == "seccomp.security.alpha.kubernetes.io/pod" || e.key == container_key {
            d.note(
                e.key_loc,
                format!(
                    "annotation `{}` is ignored since Kubernetes 1.27 (deprecated in 1.19); the pod stays unconfined unless `securityContext.seccompProfile` (type `RuntimeDefault` or `Localhost`) is set",
                    e.key
                ),
            );
        } else if e
            .key
            .starts_with("container.apparmor.security.beta.kubernetes.io/")
        {
            d.note(e.key_loc, format!("annotation `{}` is deprecated since Kubernetes 1.30; `securityContext.appArmorProfile` replaces it", e.key));
            if e.key.ends_with(&format!("/{cname}")) && !d.has("/boundary/apparmor") {
                let v = match e.value.as_str() {
                    Some("unconfined") => "unconfined",
                    Some("runtime/default") => "default",
                    _ => "custom",
                };
                d.set("/boundary/apparmor", v, e.value.loc);
            }
        }
    }
}

/// Egress from the NetworkPolicies in the stream that select the pod.
fn network(d: &mut Draft, w: &Workload<'_>, cluster: &Cluster<'_>) -> Result<(), ImportError> {
    let empty = SNode::new(w.pod_at, super::tree::SValue::Map(Vec::new()));
    let labels = w.pod_meta.and_then(|m| m.get("labels")).unwrap_or(&empty);
    let policies = cluster.egress_for(w.namespace.as_deref(), labels)?;
    if d.has("/network/egress") {
        // Host network (set by `boundary`): no policy applies.
        for p in &policies {
            d.note(here(p.at, w.pod_at), format!("`NetworkPolicy/{}` selects the pod, but NetworkPolicy does not apply to pods on the host network", p.name));
        }
        return Ok(());
    }
    let Some(first) = policies.first() else {
        for (k, at) in &cluster.ingress_only {
            d.note(
                *at,
                format!("`{k}` isolates only ingress; egress is not limited by it"),
            );
        }
        d.undeclared(
            "/network",
            if cluster.egress.is_empty() {
                "egress is governed by NetworkPolicy objects and the CNI plugin; no NetworkPolicy isolating egress is in this input"
            } else {
                "no NetworkPolicy in this input selects the pod (same namespace, matching labels); its egress is not limited"
            },
        );
        return Ok(());
    };
    let names: Vec<String> = policies.iter().map(|p| format!("`{}`", p.name)).collect();
    d.map("/network", here(first.at, w.pod_at));
    d.set(
        "/network/enforced_by",
        "network-policy",
        here(first.at, w.pod_at),
    );
    d.note(
        here(first.at, w.pod_at),
        format!(
            "NetworkPolicy {} selects the pod and isolates its egress; the cluster's CNI plugin must enforce NetworkPolicy",
            names.join(", ")
        ),
    );
    let (dns, allowed): (Vec<_>, Vec<_>) = policies
        .iter()
        .flat_map(|p| p.rules.iter())
        .flat_map(|r| r.allowed.iter())
        .partition(|a| a.cluster_dns);
    // Port 53 to the cluster's DNS pods is the resolver the pod uses: what
    // names resolve to is the cluster's DNS, which the job does not pin.
    if let Some(a) = dns.first() {
        let at = here(a.at, w.pod_at);
        d.set("/network/dns", "system", at);
        d.note(at, "egress to the cluster DNS pods on port 53: names resolve through the cluster's resolver, and DNS itself can carry data out");
    }
    for p in &policies {
        for r in &p.rules {
            for (at, n) in &r.notes {
                d.note(here(*at, w.pod_at), n.clone());
            }
        }
    }
    if let Some(open) = allowed.iter().find(|a| a.to.is_none() && a.port.is_none()) {
        d.set("/network/egress", "allow-all", here(open.at, w.pod_at));
        d.note(
            here(open.at, w.pod_at),
            "this egress rule allows every destination on every port",
        );
        return Ok(());
    }
    if allowed.is_empty() {
        d.set("/network/egress", "deny", here(first.at, w.pod_at));
        d.set("/network/allow", OVal::arr(), here(first.at, w.pod_at));
        return Ok(());
    }
    d.set("/network/egress", "allow-list", here(first.at, w.pod_at));
    d.set("/network/allow", OVal::arr(), here(first.at, w.pod_at));
    for a in allowed {
        let p = d.push("/network/allow", OVal::obj(), here(a.at, w.pod_at));
        d.set_field(
            &p,
            "host",
            a.to.clone().unwrap_or_else(|| "0.0.0.0/0".into()),
            here(a.at, w.pod_at),
        );
        if let Some(port) = a.port {
            d.set_field(&p, "port", port, here(a.at, w.pod_at));
        }
        if let Some(proto) = &a.protocol {
            d.set_field(&p, "protocol", proto.clone(), here(a.at, w.pod_at));
        }
    }
    Ok(())
}

/// The pod's hosts file (`hostAliases`) and resolvers (`dnsConfig`).
fn name_resolution(d: &mut Draft, pod: &SNode) -> Result<(), ImportError> {
    let aliases = read::opt_seq(pod, "hostAliases")?.unwrap_or_default();
    if let Some(first) = aliases.first() {
        d.set("/network/hosts", OVal::obj(), first.loc);
    }
    for a in aliases {
        let (ip, ip_at) =
            read::opt_str(a, "ip")?.ok_or_else(|| invalid(a.loc, "a host alias needs an `ip`"))?;
        for (name, at) in read::opt_strs(a, "hostnames", false)?.unwrap_or_default() {
            d.set(
                &format!("/network/hosts/{}", crate::json::escape_token(&name)),
                ip,
                at,
            );
            let _ = ip_at;
        }
    }
    let policy = read::opt_str(pod, "dnsPolicy")?;
    if let Some(cfg) = read::opt_map(pod, "dnsConfig")? {
        let servers = read::opt_strs(cfg, "nameservers", false)?.unwrap_or_default();
        if let Some(&(_, at)) = servers.first() {
            d.set_list("/network/resolvers", at, servers);
        }
        if let Some(("None", at)) = policy {
            d.set("/network/dns", "system", at);
        }
    }
    Ok(())
}

/// Container settings with no profile field of their own.
fn container_extras(d: &mut Draft, c: &SNode) -> Result<(), ImportError> {
    match (read::opt_bool(c, "tty")?, read::opt_bool(c, "stdin")?) {
        (Some((true, at)), Some((true, _))) => d.set("/boundary/terminal", "pty", at),
        (Some((true, at)), _) => d.note(
            at,
            "`tty` without `stdin`: the container's output goes through a terminal, but nothing can type into it",
        ),
        (_, Some((true, at))) => d.note(
            at,
            "`stdin` without `tty`: whoever attaches to the container can write to its standard input",
        ),
        _ => {}
    }
    for port in read::opt_seq(c, "ports")?.unwrap_or_default() {
        if let Some(e) = port.entry("hostPort") {
            d.note(e.key_loc, format!("`hostPort: {}` opens a port on the node's own addresses, reachable from outside the pod network and outside NetworkPolicy's view", e.value.as_str().unwrap_or("?")));
        }
    }
    // An ephemeral (debug) container aimed at another joins that
    // container's process namespace: each sees and can signal the other's
    // processes.
    if let Some((target, at)) = read::opt_str(c, "targetContainerName")? {
        if !d.has("/boundary/shares_pid_with") {
            d.set("/boundary/shares_pid_with", OVal::arr(), at);
        }
        d.push("/boundary/shares_pid_with", target, at);
    }
    // A claim the container lists gives it the claim's devices, which the
    // cluster's driver allocates: a device entry the device rule weighs.
    let claims = c
        .get("resources")
        .and_then(|r| r.get("claims"))
        .map(SNode::items)
        .unwrap_or_default();
    let devices = read::opt_seq(c, "volumeDevices")?.unwrap_or_default();
    for cl in claims {
        let name = cl.get("name").and_then(SNode::as_str).unwrap_or("?");
        if !d.has("/boundary/devices") {
            d.set("/boundary/devices", OVal::arr(), cl.loc);
        }
        d.push("/boundary/devices", format!("claim:{name}"), cl.loc);
        d.note(cl.loc, format!("resource claim `{name}` gives the container the devices the cluster allocates to it"));
    }
    if let Some(first) = devices.first().filter(|_| !d.has("/boundary/devices")) {
        d.set("/boundary/devices", OVal::arr(), first.loc);
    }
    for dev in devices {
        let path = dev.get("devicePath").and_then(SNode::as_str).unwrap_or("?");
        let name = dev.get("name").and_then(SNode::as_str).unwrap_or("?");
        d.push("/boundary/devices", format!("volume:{name}"), dev.loc);
        d.note(dev.loc, format!("`volumeDevices` gives the container volume `{name}` as a raw block device at `{path}`"));
    }
    Ok(())
}

/// A pod's volumes by name: built once per pod, so each mount of each
/// container finds its volume without a scan of them all.
type Volumes<'a> = std::collections::HashMap<&'a str, &'a SNode>;

/// The pod's volumes; two of one name are refused, as the API server
/// refuses them, rather than one of them read.
fn volumes_of(pod: &SNode) -> Result<Volumes<'_>, ImportError> {
    let mut volumes = Volumes::new();
    for v in read::opt_seq(pod, "volumes")?.unwrap_or_default() {
        let Some(n) = v.get("name") else { continue };
        let Some(name) = n.as_str() else { continue };
        if let Some(first) = volumes.insert(name, v) {
            let first = first.get("name").map_or(first.loc, |f| f.loc);
            return Err(invalid(
                n.loc,
                format!(
                    "volume `{name}` is defined twice in the pod (first at line {}); the API server refuses a pod with two volumes of one name",
                    first.line
                ),
            ));
        }
    }
    Ok(volumes)
}

/// The node directory a `persistentVolumeClaim` volume mounts, when the
/// stream binds its claim to a `hostPath` or `local` PersistentVolume:
/// (path, where it is written, whether the claim is read-only).
fn claimed_host_path(
    d: &mut Draft,
    vol: &SNode,
    (cluster, namespace): (&Cluster<'_>, Option<&str>),
) -> Result<Option<(String, Loc, bool)>, ImportError> {
    let Some(pvc) = read::opt_map(vol, "persistentVolumeClaim")? else {
        return Ok(None);
    };
    let Some((claim, at)) = read::opt_str(pvc, "claimName")? else {
        return Ok(None);
    };
    let Some(v) = cluster.claimed_host_path(namespace, claim, at)? else {
        return Ok(None);
    };
    d.note(
        at,
        format!(
            "claim `{claim}` is bound to PersistentVolume `{}`, the node's directory `{}`",
            v.name, v.path.0
        ),
    );
    let read_only = read::opt_bool(pvc, "readOnly")?.is_some_and(|(r, _)| r);
    Ok(Some((v.path.0.clone(), here(v.path.1, at), read_only)))
}

fn mounts(
    d: &mut Draft,
    (pod, volumes): (&SNode, &Volumes<'_>),
    pod_at: Loc,
    c: &SNode,
    (cluster, namespace): (&Cluster<'_>, Option<&str>),
) -> Result<(), ImportError> {
    let vm_loc = key_at(c, "volumeMounts");
    d.ensure_array("/mounts", vm_loc);
    let account = match read::opt_str(pod, "serviceAccountName")? {
        Some(n) => Some(n),
        None => read::opt_str(pod, "serviceAccount")?,
    };
    let (account, account_at) = account.unwrap_or(("default", pod_at));
    let grants = cluster.token_grants(namespace, account, account_at)?;
    let mut token_mounted = false;
    let mut projected_token = false;
    let mut paths: std::collections::HashMap<&str, Loc> = std::collections::HashMap::new();
    for vm in read::opt_seq(c, "volumeMounts")?.unwrap_or_default() {
        let vm = read::map(vm, "volumeMounts")?;
        let (vname, vname_at) = read::opt_str(vm, "name")?
            .ok_or_else(|| invalid(vm.loc, "a volume mount needs a `name`"))?;
        let (path, path_at) = read::opt_str(vm, "mountPath")?
            .ok_or_else(|| invalid(vm.loc, "a volume mount needs a `mountPath`"))?;
        if let Some(first) = paths.insert(path, path_at) {
            let cname = c.get("name").and_then(SNode::as_str).unwrap_or("?");
            return Err(invalid(
                path_at,
                format!(
                    "`mountPath: {path}` is used twice in container `{cname}` (first at line {}); the API server refuses two mounts at one path",
                    first.line
                ),
            ));
        }
        if path.trim_end_matches('/') == TOKEN_PATH {
            token_mounted = true;
        }
        let read_only = read::opt_bool(vm, "readOnly")?;
        // `subPathExpr` expands `$(VAR)` from the container's environment
        // and is resolved like `subPath`.
        let sub = match read::opt_str(vm, "subPath")? {
            Some(s) => Some(s),
            None => read::opt_str(vm, "subPathExpr")?,
        };
        let Some(&vol) = volumes.get(vname) else {
            d.note(
                vname_at,
                format!("volume `{vname}` is not defined in the pod's `volumes`"),
            );
            continue;
        };
        // A directory of the node: a hostPath volume, or a claim bound to a
        // hostPath or local PersistentVolume of the stream.
        let hp = read::opt_map(vol, "hostPath")?;
        let host = match hp {
            Some(hp) => {
                let (src, src_at) = read::opt_str(hp, "path")?
                    .ok_or_else(|| invalid(hp.loc, "`hostPath` needs a `path`"))?;
                Some((src.to_string(), src_at, false))
            }
            None => claimed_host_path(d, vol, (cluster, namespace))?,
        };
        if let Some((src, src_at, claim_read_only)) = host {
            let src = src.as_str();
            let read_only = match (read_only, claim_read_only) {
                (None, true) => Some((true, vname_at)),
                (r, _) => r,
            };
            let source = match sub {
                Some((s, _)) if !s.is_empty() => format!("{}/{}", src.trim_end_matches('/'), s),
                _ => src.to_string(),
            };
            let p = d.push("/mounts", OVal::obj(), vm.loc);
            // What is mounted is decided at the hostPath (with the subPath
            // appended, which a note points at).
            d.set_field(&p, "source", source, src_at);
            if let Some((s, at)) = sub.filter(|(s, _)| !s.is_empty()) {
                d.note(
                    at,
                    format!(
                        "`subPath: {s}` narrows hostPath `{src}` to `{}/{s}`",
                        src.trim_end_matches('/')
                    ),
                );
            }
            d.set_field(&p, "target", path, path_at);
            if let Some((s, at)) = sub.filter(|(s, _)| !s.is_empty()) {
                d.set_field(&p, "sub_path", s, at);
            }
            match read_only {
                Some((ro, at)) => d.set_field(
                    &p,
                    "access",
                    if ro { "read-only" } else { "read-write" },
                    at,
                ),
                None => d.set_field(&p, "access", "read-write", vm.loc),
            }
            if let Some((t, at)) = hp
                .map(|hp| read::opt_str(hp, "type"))
                .transpose()?
                .flatten()
            {
                if matches!(t, "Socket" | "CharDevice" | "BlockDevice") {
                    d.note(
                        at,
                        format!(
                            "hostPath type `{t}` gives direct access to a host {}",
                            t.to_ascii_lowercase()
                        ),
                    );
                }
            }
            if let Some((mp, at)) = read::opt_str(vm, "mountPropagation")? {
                if mp == "Bidirectional" {
                    d.note(at, "`mountPropagation: Bidirectional` lets mounts made in the container reach the host");
                }
            }
            continue;
        }
        if let Some(sec) = read::opt_map(vol, "secret")? {
            let (sname, at) = read::opt_str(sec, "secretName")?.unwrap_or(("unnamed", sec.loc));
            let obj = referenced(d, sec, "Secret", "secretName", (cluster, namespace))?;
            let keys = obj.map(|o| key_list(&o.keys));
            credential(d, sname, "file", at);
            if let Some(account) = obj.and_then(|o| o.token_of.as_deref()) {
                token_secret((d, at), account, (path, path_at), (cluster, namespace))?;
            }
            d.note(
                vname_at,
                format!("Secret `{sname}` is mounted read-only (the kubelet mounts Secret volumes so) as files at `{path}`{}", keys.unwrap_or_default()),
            );
            continue;
        }
        if let Some(cm) = read::opt_map(vol, "configMap")? {
            let (cname, _) = read::opt_str(cm, "name")?.unwrap_or(("unnamed", cm.loc));
            let keys = referenced(d, cm, "ConfigMap", "name", (cluster, namespace))?
                .map(|o| key_list(&o.keys));
            d.note(
                vname_at,
                format!("ConfigMap `{cname}` is mounted read-only (the kubelet mounts ConfigMap volumes so) as files at `{path}`{}", keys.unwrap_or_default()),
            );
            continue;
        }
        if read::opt_map(vol, "downwardAPI")?.is_some() {
            d.note(
                vname_at,
                format!("downwardAPI volume `{vname}` is mounted read-only at `{path}`: the pod's own fields as files"),
            );
            continue;
        }
        if let Some(proj) = read::opt_map(vol, "projected")? {
            for src in read::opt_seq(proj, "sources")?.unwrap_or_default() {
                if let Some(sec) = read::opt_map(src, "secret")? {
                    let (sname, at) = read::opt_str(sec, "name")?.unwrap_or(("unnamed", sec.loc));
                    let obj = referenced(d, sec, "Secret", "name", (cluster, namespace))?;
                    credential(d, sname, "file", at);
                    if let Some(account) = obj.and_then(|o| o.token_of.as_deref()) {
                        token_secret((d, at), account, (path, path_at), (cluster, namespace))?;
                    }
                }
                if let Some(cm) = read::opt_map(src, "configMap")? {
                    referenced(d, cm, "ConfigMap", "name", (cluster, namespace))?;
                }
                if let Some(tok) = read::opt_map(src, "serviceAccountToken")? {
                    projected_token = true;
                    let ttl = read::opt_u64(tok, "expirationSeconds")?;
                    let p = credential(d, "service-account-token", "file", tok.loc);
                    match ttl {
                        Some((t, at)) => d.set_field(&p, "ttl_seconds", t, at),
                        // The API server's default lifetime for projected tokens.
                        None => d.set_field(&p, "ttl_seconds", 3600u64, tok.loc),
                    }
                    // A token whose account the input's RBAC lets reach
                    // beyond the job is the account's token, as the
                    // automounted one is: mounted from where tokens live.
                    if !grants.grants.is_empty() {
                        let m = d.push("/mounts", OVal::obj(), tok.loc);
                        d.set_field(&m, "source", TOKEN_PATH, tok.loc);
                        d.set_field(&m, "target", path, path_at);
                        d.set_field(&m, "access", "read-only", tok.loc);
                        grants_note(d, &grants, account, tok.loc);
                    }
                }
            }
            d.note(
                vname_at,
                format!("projected volume `{vname}` is mounted read-only at `{path}`"),
            );
            continue;
        }
        if let Some(csi) = read::opt_map(vol, "csi")? {
            if let Some(("secrets-store.csi.k8s.io", at)) = read::opt_str(csi, "driver")? {
                // The Secrets Store CSI driver mounts secrets fetched from
                // an external store (Vault, a cloud secret manager).
                let class = csi
                    .get("volumeAttributes")
                    .and_then(|a| a.get("secretProviderClass"))
                    .and_then(SNode::as_str)
                    .unwrap_or("unnamed");
                credential(d, class, "file", at);
                d.note(vname_at, format!("CSI secrets-store volume `{vname}` mounts the secrets of SecretProviderClass `{class}` as files at `{path}`"));
                continue;
            }
        }
        if let Some(git) = read::opt_map(vol, "gitRepo")? {
            let repo = git.get("repository").and_then(SNode::as_str).unwrap_or("?");
            d.set("/dependencies/prepared_in", "runtime-fetch", git.loc);
            d.note(vname_at, format!("`gitRepo` volume `{vname}`: the kubelet runs `git clone {repo}` on the node as the pod starts; what the job gets is fetched at start, not reviewed (the volume type is deprecated)"));
            continue;
        }
        let kind = vol
            .entries()
            .iter()
            .find(|e| e.key != "name" && !e.value.is_null())
            .map_or("unknown", |e| e.key.as_str());
        // A sub-path the kubelet could resolve outside the volume reaches
        // the node's file system: the volume's directory on the node is
        // where that walk starts.
        if let Some((s, at)) =
            sub.filter(|(s, _)| s.contains("$(") || s.split('/').any(|c| c == ".."))
        {
            let p = d.push("/mounts", OVal::obj(), vm.loc);
            d.set_field(
                &p,
                "source",
                format!("/var/lib/kubelet/pods/<pod>/volumes/{kind}/{vname}"),
                vname_at,
            );
            d.set_field(&p, "target", path, path_at);
            d.set_field(&p, "sub_path", s, at);
            let access = if read_only.is_some_and(|(r, _)| r) {
                "read-only"
            } else {
                "read-write"
            };
            d.set_field(&p, "access", access, read_only.map_or(vm.loc, |(_, l)| l));
            d.note(at, format!("`{kind}` volume `{vname}` is mounted through sub-path `{s}`, which the kubelet resolves on the node"));
            continue;
        }
        let rw = if read_only.is_some_and(|(r, _)| r) {
            "read-only"
        } else {
            "writable"
        };
        if SHARED_STORAGE.contains(&kind) {
            // Storage that outlives the pod and that other pods (and
            // later runs) mount: what the job writes there, they read.
            let source_ro = vol
                .get(kind)
                .and_then(|s| s.get("readOnly"))
                .and_then(SNode::as_bool)
                == Some(true);
            if rw == "read-only" || source_ro {
                d.note(vname_at, format!("`{kind}` volume `{vname}` is storage shared beyond the job, mounted read-only at `{path}`"));
            } else {
                let p = d.push("/mounts", OVal::obj(), vm.loc);
                d.set_field(
                    &p,
                    "source",
                    format!("/var/lib/kubelet/pods/<pod>/volumes/{kind}/{vname}"),
                    vname_at,
                );
                d.set_field(&p, "target", path, path_at);
                d.set_field(
                    &p,
                    "access",
                    "read-write",
                    read_only.map_or(vm.loc, |(_, l)| l),
                );
                d.note(vname_at, format!("`{kind}` volume `{vname}` is storage shared beyond the job (other pods and later runs mount it), writable at `{path}`"));
            }
            continue;
        }
        d.note(
            vname_at,
            format!("`{kind}` volume `{vname}` at `{path}` ({rw}) is not a host path; it is not represented as a mount"),
        );
    }

    // The pod's own setting wins; without one, its ServiceAccount's, when
    // the stream holds that account (the kubelet's order).
    let mut auto = read::opt_bool(pod, "automountServiceAccountToken")?;
    if auto.is_none() {
        let (name, name_at) = (account, account_at);
        if let Some(sa) = cluster.service_account(namespace, name, name_at)? {
            if let Some((b, at)) = sa.automount {
                let at = here(at, name_at);
                if !b {
                    d.note(
                        at,
                        format!("ServiceAccount `{name}` sets `automountServiceAccountToken: false` and the pod does not override it, so no token is mounted"),
                    );
                }
                auto = Some((b, at));
            }
        }
    }
    if token_mounted || projected_token || !matches!(auto, Some((false, _))) {
        for (who, at) in &grants.unknown {
            d.note(
                here(*at, account_at),
                format!("{who} binds ServiceAccount `{account}` to a role that is neither in this input nor built in: what its token can do is not known"),
            );
        }
    }
    match auto {
        Some((false, _)) => {}
        auto if !token_mounted => {
            let at = auto.map_or(pod_at, |(_, l)| l);
            let p = d.push("/mounts", OVal::obj(), at);
            d.set_field(&p, "source", TOKEN_PATH, at);
            d.set_field(&p, "target", TOKEN_PATH, at);
            d.set_field(&p, "access", "read-only", at);
            d.note(
                at,
                "the service-account token is mounted (`automountServiceAccountToken` is not false; the ServiceAccount may also decide)",
            );
            if !grants.grants.is_empty() {
                grants_note(d, &grants, account, at);
            }
        }
        _ => {}
    }
    Ok(())
}

/// Volume types that are storage shared beyond the pod: other pods and
/// later runs mount what the job leaves there.
const SHARED_STORAGE: [&str; 21] = [
    "nfs",
    "persistentVolumeClaim",
    "csi",
    "iscsi",
    "cephfs",
    "rbd",
    "glusterfs",
    "fc",
    "azureFile",
    "azureDisk",
    "awsElasticBlockStore",
    "gcePersistentDisk",
    "cinder",
    "flexVolume",
    "portworxVolume",
    "vsphereVolume",
    "quobyte",
    "storageos",
    "scaleIO",
    "photonPersistentDisk",
    "flocker",
];

/// ` (files: a, b)`: the keys of a ConfigMap or Secret mounted as files.
fn key_list(keys: &[(&str, Option<(&str, Loc)>)]) -> String {
    if keys.is_empty() {
        return " (no keys)".into();
    }
    let names: Vec<String> = keys.iter().take(8).map(|(k, _)| format!("`{k}`")).collect();
    let more = keys.len().saturating_sub(8);
    let tail = if more > 0 {
        format!(" and {more} more")
    } else {
        String::new()
    };
    format!(" (files {}{tail})", names.join(", "))
}

/// A Secret volume holding the long-lived token of service account
/// `account` (a `kubernetes.io/service-account-token` Secret): when the
/// input's RBAC lets that account reach beyond the job, it is mounted as
/// the account's token is, from where tokens live.
fn token_secret(
    (d, at): (&mut Draft, Loc),
    account: &str,
    (path, path_at): (&str, Loc),
    (cluster, namespace): (&Cluster<'_>, Option<&str>),
) -> Result<(), ImportError> {
    let grants = cluster.token_grants(namespace, account, at)?;
    d.note(
        at,
        format!("the Secret holds a token of ServiceAccount `{account}` that never expires"),
    );
    if !grants.grants.is_empty() {
        let m = d.push("/mounts", OVal::obj(), at);
        d.set_field(&m, "source", TOKEN_PATH, at);
        d.set_field(&m, "target", path, path_at);
        d.set_field(&m, "access", "read-only", at);
        grants_note(d, &grants, account, at);
    }
    Ok(())
}

/// A note naming what the input's RBAC lets the pod's token do.
fn grants_note(d: &mut Draft, g: &cluster::TokenGrants, account: &str, at: Loc) {
    let mut what: Vec<String> = Vec::new();
    for (grant, binding, _) in &g.grants {
        let t = format!("{grant} through {binding}");
        if !what.contains(&t) {
            what.push(t);
        }
    }
    d.note(
        at,
        format!(
            "the token of ServiceAccount `{account}` can {}: whatever the job runs can use it",
            what.join("; ")
        ),
    );
}

/// Add a credential; returns its pointer.
fn credential(d: &mut Draft, name: &str, source: &str, at: Loc) -> String {
    let p = d.push("/credentials", OVal::obj(), at);
    d.set_field(&p, "name", name, at);
    d.set_field(&p, "source", source, at);
    d.set_field(&p, "exposed_to", "job", at);
    p
}

/// The ConfigMap or Secret a reference names (`name`, or `name_key`),
/// read from the input. Missing and not `optional: true`, the import is
/// refused at the reference: what it gives the container cannot be read,
/// and the kubelet would not start the container without it.
fn referenced<'c, 'a>(
    d: &mut Draft,
    r: &SNode,
    kind: &str,
    name_key: &str,
    (cluster, namespace): (&'c Cluster<'a>, Option<&str>),
) -> Result<Option<&'c cluster::DataObject<'a>>, ImportError> {
    let (name, at) = read::opt_str(r, name_key)?
        .ok_or_else(|| invalid(r.loc, format!("a {kind} reference needs `{name_key}`")))?;
    let optional = read::opt_bool(r, "optional")?.is_some_and(|(o, _)| o);
    match cluster.data_object(kind, namespace, name, at)? {
        Some(o) => {
            if o.at == cluster::ELSEWHERE {
                d.note(
                    at,
                    format!("{kind} `{name}` is read from another file of this run"),
                );
            }
            Ok(Some(o))
        }
        None if optional => {
            d.note(at, format!("{kind} `{name}` is not in this input and the reference is `optional: true`: the kubelet starts the container without it, but if the cluster holds it, what it gives the container is not audited"));
            Ok(None)
        }
        None => {
            let ns = namespace.map_or(String::new(), |n| format!(" in namespace `{n}`"));
            Err(invalid(
                at,
                format!("{kind} `{name}`{ns} is not in this input (this file, or another file of the same run): what it gives the container cannot be read, and the kubelet does not start the container without it; add the {kind} to the input, or mark the reference `optional: true`"),
            ))
        }
    }
}

fn environment(
    d: &mut Draft,
    c: &SNode,
    context: (&Cluster<'_>, Option<&str>),
) -> Result<(), ImportError> {
    let env_loc = key_at(c, "env");
    d.set("/environment/inherit", false, env_loc);
    d.set("/environment/variables", OVal::obj(), env_loc);
    // `envFrom` first: the kubelet sets `env` after it, so an `env` entry
    // of the same name wins.
    for ef in read::opt_seq(c, "envFrom")?.unwrap_or_default() {
        let prefix = read::opt_str(ef, "prefix")?.map_or("", |(p, _)| p);
        let (kind, r) = match (
            read::opt_map(ef, "secretRef")?,
            read::opt_map(ef, "configMapRef")?,
        ) {
            (Some(r), _) => ("Secret", r),
            (None, Some(r)) => ("ConfigMap", r),
            (None, None) => continue,
        };
        let Some(obj) = referenced(d, r, kind, "name", context)? else {
            continue;
        };
        // A key that cannot be a variable name is skipped by the kubelet.
        for (key, value) in obj.keys.iter().filter(|(k, _)| !k.contains('=')) {
            let name = format!("{prefix}{key}");
            let ptr = Draft::variable_ptr(&name);
            if kind == "Secret" {
                // The value is a secret: never copied, only where it is.
                d.set(
                    &ptr,
                    format!("${{secretKeyRef:{}:{key}}}", obj.name),
                    ef.loc,
                );
                credential(d, &name, "env", ef.loc);
            } else {
                let (v, at) = value.map_or(("", ef.loc), |(v, at)| (v, here(at, ef.loc)));
                d.set(&ptr, v, at);
            }
        }
        d.note(
            ef.loc,
            format!(
                "every key of {kind} `{}` ({} of them) becomes an environment variable{}",
                obj.name,
                obj.keys.len(),
                if prefix.is_empty() {
                    String::new()
                } else {
                    format!(" prefixed `{prefix}`")
                }
            ),
        );
    }
    let mut seen: std::collections::HashSet<&str> = std::collections::HashSet::new();
    for e in read::opt_seq(c, "env")?.unwrap_or_default() {
        let e = read::map(e, "env")?;
        let (name, name_at) = read::opt_str(e, "name")?
            .ok_or_else(|| invalid(e.loc, "an `env` entry needs a `name`"))?;
        if !seen.insert(name) {
            d.note(
                name_at,
                format!("`{name}` is set twice; Kubernetes keeps the last value"),
            );
        }
        let ptr = Draft::variable_ptr(name);
        if let Some(vf) = read::opt_map(e, "valueFrom")? {
            let keyed = match (
                read::opt_map(vf, "secretKeyRef")?,
                read::opt_map(vf, "configMapKeyRef")?,
            ) {
                (Some(r), _) => Some(("Secret", r)),
                (None, Some(r)) => Some(("ConfigMap", r)),
                (None, None) => None,
            };
            if let Some((kind, r)) = keyed {
                let (key, key_at) = read::opt_str(r, "key")?.ok_or_else(|| {
                    invalid(r.loc, format!("a {kind} key reference needs a `key`"))
                })?;
                if kind == "Secret" {
                    // A credential whether or not the Secret is there: the
                    // cluster may hold it.
                    credential(d, name, "env", e.loc);
                }
                let Some(obj) = referenced(d, r, kind, "name", context)? else {
                    continue;
                };
                let optional = read::opt_bool(r, "optional")?.is_some_and(|(o, _)| o);
                let Some((_, value)) = obj.keys.iter().find(|(k, _)| *k == key) else {
                    if optional {
                        d.note(key_at, format!("{kind} `{}` has no key `{key}`; the reference is optional, so `{name}` is not set", obj.name));
                        continue;
                    }
                    return Err(invalid(
                        key_at,
                        format!("key `{key}` is not in {kind} `{}` as this input holds it, and the reference is not `optional: true`: the kubelet does not start the container", obj.name),
                    ));
                };
                if kind == "Secret" {
                    d.set(
                        &ptr,
                        format!("${{secretKeyRef:{}:{key}}}", obj.name),
                        vf.loc,
                    );
                    d.note(
                        name_at,
                        format!(
                            "`{name}` comes from Secret `{}` as an environment variable",
                            obj.name
                        ),
                    );
                } else {
                    let (v, at) = value.map_or(("", vf.loc), |(v, at)| (v, here(at, vf.loc)));
                    d.set(&ptr, v, at);
                }
                continue;
            }
            let reference = if let Some(r) = vf.get("fieldRef") {
                format!(
                    "${{fieldRef:{}}}",
                    r.get("fieldPath").and_then(SNode::as_str).unwrap_or("?")
                )
            } else if let Some(r) = vf.get("resourceFieldRef") {
                format!(
                    "${{resourceFieldRef:{}}}",
                    r.get("resource").and_then(SNode::as_str).unwrap_or("?")
                )
            } else {
                "${valueFrom}".to_string()
            };
            d.set(&ptr, reference, vf.loc);
            continue;
        }
        let value = match e.get("value") {
            Some(v) => read::text(v, "value")?.to_string(),
            None => String::new(),
        };
        d.set(&ptr, value, e.get("value").map_or(e.loc, |v| v.loc));
    }
    Ok(())
}

fn exec_step(d: &mut Draft, node: &SNode, what: &str) -> Result<(), ImportError> {
    let Some(exec) = read::opt_map(node, "exec")? else {
        return Ok(());
    };
    let cmd = read::opt_strs(exec, "command", false)?.unwrap_or_default();
    if cmd.is_empty() {
        return Ok(());
    }
    let p = d.push("/setup", OVal::obj(), exec.loc);
    d.set_command(&p, cmd, exec.loc);
    d.note(
        exec.loc,
        format!("the {what} runs a command in the container; it is audited as a setup step"),
    );
    Ok(())
}

fn command(d: &mut Draft, c: &SNode) -> Result<(), ImportError> {
    let cmd = read::opt_strs(c, "command", false)?;
    let args = read::opt_strs(c, "args", false)?;
    let anchor = c
        .get("command")
        .or_else(|| c.get("args"))
        .map_or(c.loc, |n| n.loc);
    match (&cmd, &args) {
        (None, None) => d.undeclared(
            "/command",
            "no `command` or `args`: the image's ENTRYPOINT and CMD run, and the manifest does not show them",
        ),
        _ => {
            d.map("/command", anchor);
            let mut all = cmd.clone().unwrap_or_default();
            let args = args.clone().unwrap_or_default();
            if all.is_empty() {
                d.undeclared(
                    "/command/executable",
                    "only `args` is set: the executable is the image's ENTRYPOINT",
                );
                d.set_list("/command/arguments", anchor, args);
            } else {
                all.extend(args);
                d.set_command("/command", all, anchor);
            }
        }
    }
    d.ensure_array("/setup", c.loc);
    if let Some(lc) = read::opt_map(c, "lifecycle")? {
        for hook in ["postStart", "preStop"] {
            if let Some(h) = read::opt_map(lc, hook)? {
                exec_step(d, h, &format!("`{hook}` hook"))?;
            }
        }
    }
    for probe in ["startupProbe", "livenessProbe", "readinessProbe"] {
        if let Some(p) = read::opt_map(c, probe)? {
            exec_step(d, p, &format!("`{probe}`"))?;
        }
    }
    Ok(())
}

fn limits(
    d: &mut Draft,
    w: &Workload<'_>,
    pod: &SNode,
    c: &SNode,
    cluster: &Cluster<'_>,
) -> Result<(), ImportError> {
    let range = cluster.limit_range_for(w.namespace.as_deref(), c.loc)?;
    let res = read::opt_map(c, "resources")?;
    let lim = match res {
        Some(r) => read::opt_map(r, "limits")?,
        None => None,
    };
    let req = match res {
        Some(r) => read::opt_map(r, "requests")?,
        None => None,
    };
    if res.is_some() {
        d.map("/limits", key_at(c, "resources"));
    }
    match lim.and_then(|l| l.get("memory")) {
        Some(m) => {
            let q = read::text(m, "memory")?;
            let bytes = super::read::k8s_bytes(q).ok_or_else(|| {
                invalid(m.loc, format!("`{q}` is not a Kubernetes memory quantity"))
            })?;
            d.set("/limits/memory_bytes", bytes, m.loc);
            if let Some((max, at)) = range.and_then(|r| r.max_memory) {
                if bytes > max {
                    d.note(here(at, m.loc), format!("the LimitRange's `max.memory` ({max} bytes) is below this container's limit: the API server refuses the pod"));
                }
            }
        }
        // A LimitRange's default is the limit the admission controller
        // writes into a container that sets none.
        None => match range.and_then(|r| r.default_memory.map(|m| (r, m))) {
            Some((r, (bytes, at))) => {
                let at = here(at, key_at(c, "resources"));
                d.set("/limits/memory_bytes", bytes, at);
                d.set("/limits/enforced_by", "cgroup", at);
                d.note(at, format!("no `resources.limits.memory`: LimitRange `{}` gives the container this default limit", r.name));
            }
            None => d.undeclared("/limits/memory_bytes", "no `resources.limits.memory`"),
        },
    }
    if let Some(l) = lim {
        d.set("/limits/enforced_by", "cgroup", l.loc);
        if let Some(e) = l.entry("cpu") {
            d.note(
                e.key_loc,
                "a CPU limit is a rate (cores), not a total of CPU seconds",
            );
        }
        if let Some(e) = l.entry("ephemeral-storage") {
            d.note(e.key_loc, "the ephemeral-storage limit evicts the pod when its disk use grows; it is not an output-size limit");
        }
    } else if let Some(r) = req {
        d.set("/limits/enforced_by", "request", r.loc);
        d.note(
            r.loc,
            "only `requests` are set: they place the pod on a node but limit nothing",
        );
    }
    d.undeclared(
        "/limits/cpu_seconds",
        "Kubernetes limits CPU as a rate, not as total CPU seconds",
    );
    d.undeclared(
        "/limits/processes",
        "the pod's process limit is the kubelet's `podPidsLimit`, not in the manifest",
    );
    d.undeclared(
        "/limits/output_bytes",
        "Kubernetes has no output-size limit for a container",
    );

    if let Some(job) = w.job {
        match read::opt_u64(job, "backoffLimit")? {
            Some((0, at)) => d.note(at, "`backoffLimit: 0`: a failed pod is not retried"),
            Some((n, at)) => d.note(at, format!("`backoffLimit: {n}`: a failed pod is replaced up to {n} times, each run with the same access")),
            None => d.note(job.loc, "no `backoffLimit`: a failed pod is replaced up to 6 times (the Job default), each run with the same access"),
        }
    }
    let pod_deadline = read::opt_u64(pod, "activeDeadlineSeconds")?;
    let job_deadline = match w.job {
        Some(j) => read::opt_u64(j, "activeDeadlineSeconds")?,
        None => None,
    };
    let deadline = match (pod_deadline, job_deadline) {
        (Some(a), Some(b)) => Some(if a.0 <= b.0 { a } else { b }),
        (a, b) => a.or(b),
    };
    match deadline {
        Some((secs, at)) => {
            d.set("/limits/wall_seconds", secs, at);
            d.set("/limits/timeout_kills", "environment", at);
            d.note(
                at,
                "`activeDeadlineSeconds` terminates the whole pod, not only its first process",
            );
        }
        None => {
            d.undeclared(
                "/limits/wall_seconds",
                "no `activeDeadlineSeconds` on the pod or Job",
            );
            d.undeclared(
                "/limits/timeout_kills",
                "without a deadline nothing is killed on time",
            );
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn notes(y: &str) -> Vec<String> {
        let mut d = import(y.as_bytes()).unwrap();
        let (_, draft) = d.remove(0);
        draft.notes.iter().map(|n| n.message.to_string()).collect()
    }

    /// The kubelet mounts the service-account token when the pod's
    /// `automountServiceAccountToken` says so, else when its
    /// ServiceAccount's does, else by default. A ServiceAccount in the same
    /// stream (same namespace, named by `serviceAccountName`, the
    /// deprecated `serviceAccount`, or `default`) decides when the pod
    /// does not.
    #[test]
    fn the_service_account_in_the_stream_decides_the_token_mount() {
        fn sa(name: &str, ns: &str, auto: &str) -> String {
            format!(
                "apiVersion: v1\nkind: ServiceAccount\nmetadata:\n  name: {name}\n{ns}{auto}---\n"
            )
        }
        let pod = |ns: &str, spec: &str| {
            format!("apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n{ns}spec:\n{spec}  containers:\n  - name: c\n    image: x\n")
        };
        let ns_ci = "  namespace: ci\n";
        let off = "automountServiceAccountToken: false\n";
        let on = "automountServiceAccountToken: true\n";
        let named = "  serviceAccountName: runner\n";
        // (stream, is the token mounted)
        let table: Vec<(String, bool)> = vec![
            (pod("", ""), true),
            (sa("runner", "", off) + &pod("", named), false),
            (sa("runner", "", on) + &pod("", named), true),
            (sa("runner", "", "") + &pod("", named), true),
            (sa("default", "", off) + &pod("", ""), false),
            (sa("runner", "", off) + &pod("", "  serviceAccount: runner\n"), false),
            (sa("runner", "", off) + &pod("", &format!("{named}  automountServiceAccountToken: true\n")), true),
            (sa("runner", "", on) + &pod("", &format!("{named}  automountServiceAccountToken: false\n")), false),
            // Another name or namespace is another account.
            (sa("other", "", off) + &pod("", named), true),
            (sa("runner", ns_ci, off) + &pod("", named), true),
            (sa("runner", ns_ci, off) + &pod(ns_ci, named), false),
            (pod("", named) + "---\n" + &sa("runner", "", off), false),
            // Inside a List.
            (
                format!("apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: ServiceAccount\n  metadata: {{name: runner}}\n  {off}")
                    + "---\n" + &pod("", named),
                false,
            ),
        ];
        let mut wrong = Vec::new();
        for (y, want) in &table {
            let out = import(y.as_bytes()).unwrap();
            let (_, d) = out.into_iter().next().unwrap();
            let (json, _, _, _) = d.finish().unwrap();
            let got = json.contains(TOKEN_PATH);
            if got != *want {
                wrong.push(format!("token mounted {got}, want {want}:\n{y}"));
            }
        }
        crate::import::table_tests::assert_none_wrong(&wrong, table.len());
    }

    /// A claim bound to a `hostPath` or `local` PersistentVolume of the
    /// stream mounts that node directory, as the kubelet does: by the
    /// claim's `volumeName` or the volume's `claimRef`, read-only when the
    /// claim or the mount says so.
    #[test]
    fn a_claim_bound_to_a_node_directory_is_a_host_mount() {
        fn pv(name: &str, spec: &str) -> String {
            format!("apiVersion: v1\nkind: PersistentVolume\nmetadata: {{name: {name}}}\nspec:\n  capacity: {{storage: 1Gi}}\n{spec}---\n")
        }
        fn pvc(name: &str, volume: &str) -> String {
            format!("apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {{name: {name}}}\nspec:\n  volumeName: {volume}\n---\n")
        }
        fn pod(mount: &str, claim: &str) -> String {
            format!("apiVersion: v1\nkind: Pod\nmetadata: {{name: p}}\nspec:\n  automountServiceAccountToken: false\n  containers:\n  - name: c\n    image: x\n    volumeMounts: [{{name: d, mountPath: /data{mount}}}]\n  volumes:\n  - name: d\n    persistentVolumeClaim: {{claimName: c{claim}}}\n")
        }
        let host = "  hostPath: {path: /}\n";
        let local = "  local: {path: /var/lib/docker}\n";
        let nfs = "  nfs: {server: n, path: /}\n";
        let m = |src: &str, access: &str| serde_json::json!([{"source": src, "target": "/data", "access": access}]);
        // A claim bound to no node directory is shared storage, writable.
        let shared = m(
            "/var/lib/kubelet/pods/<pod>/volumes/persistentVolumeClaim/d",
            "read-write",
        );
        let table: Vec<(String, serde_json::Value)> = vec![
            (pv("pv", host) + &pvc("c", "pv") + &pod("", ""), m("/", "read-write")),
            (pod("", "") + "---\n" + &pv("pv", host) + &pvc("c", "pv"), m("/", "read-write")),
            (pv("pv", &format!("{host}  claimRef: {{name: c, namespace: default}}\n")) + &pod("", ""), m("/", "read-write")),
            (pv("pv", &format!("{local}  claimRef: {{name: c}}\n")) + &pod("", ""), m("/var/lib/docker", "read-write")),
            (pv("pv", host) + &pvc("c", "pv") + &pod("", ", readOnly: true"), m("/", "read-only")),
            (pv("pv", host) + &pvc("c", "pv") + &pod(", readOnly: true", ""), m("/", "read-only")),
            (pv("pv", host) + &pvc("c", "pv") + &pod(", subPath: etc", ""), serde_json::json!([{"source": "/etc", "target": "/data", "sub_path": "etc", "access": "read-write"}])),
            ("apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: PersistentVolume\n  metadata: {name: pv}\n  spec:\n    hostPath: {path: /}\n    claimRef: {name: c}\n---\n".to_string() + &pod("", ""), m("/", "read-write")),
            (pv("pv", nfs) + &pvc("c", "pv") + &pod("", ""), shared.clone()),
            (pv("pv", host) + &pvc("c", "other") + &pod("", ""), shared.clone()),
            (pod("", ""), shared.clone()),
            // Namespaces: an object without one may share the pod's.
            (pv("pv", host) + &pvc("c", "pv").replace("{name: c}", "{name: c, namespace: default}") + &pod("", ""), m("/", "read-write")),
            (pv("pv", host) + &pvc("c", "pv") + &pod("", "").replace("{name: p}", "{name: p, namespace: ci}"), m("/", "read-write")),
            (pv("pv", host) + &pvc("c", "pv").replace("{name: c}", "{name: c, namespace: other}") + &pod("", "").replace("{name: p}", "{name: p, namespace: ci}"), shared.clone()),
            (pv("pv", &format!("{host}  claimRef: {{name: c, namespace: other}}\n")) + &pod("", "").replace("{name: p}", "{name: p, namespace: ci}"), shared.clone()),
        ];
        let mut wrong = Vec::new();
        for (y, want) in &table {
            let out = import(y.as_bytes()).unwrap();
            let (_, d) = out.into_iter().find(|(n, _)| n.contains("Pod/p")).unwrap();
            let v = crate::import::table_tests::profile(d);
            let got = v
                .pointer("/mounts")
                .cloned()
                .unwrap_or(serde_json::Value::Null);
            if &got != want {
                wrong.push(format!("mounts {got}, want {want}:\n{y}"));
            }
        }
        crate::import::table_tests::assert_none_wrong(&wrong, table.len());
    }

    /// A document of a kind this import does not read is never dropped
    /// without a word. One that holds containers anywhere (a container
    /// list, or a mapping naming an `image`: an Argo template, a Tekton
    /// step) refuses the whole file at its `kind`, whichever side of the
    /// workload it is on; any other is a note naming it and its line.
    #[test]
    fn unread_kinds_with_containers_refuse_the_file_and_others_are_noted() {
        let pod = "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  automountServiceAccountToken: false\n  containers:\n  - name: c\n    image: x\n";
        // (document, kind named, where its container is)
        let refused = [
            ("apiVersion: argoproj.io/v1alpha1\nkind: Workflow\nmetadata: {name: wf}\nspec:\n  templates:\n  - name: t\n    container:\n      image: busybox\n      securityContext: {privileged: true}\n", "Workflow", "spec.templates[0].container"),
            ("apiVersion: argoproj.io/v1alpha1\nkind: Workflow\nmetadata: {name: wf}\nspec:\n  templates:\n  - name: s\n    script: {image: python, source: print(1)}\n", "Workflow", "spec.templates[0].script"),
            ("apiVersion: argoproj.io/v1alpha1\nkind: Workflow\nmetadata: {name: wf}\nspec:\n  templates:\n  - name: t\n    containerSet:\n      containers:\n      - {name: a, image: busybox}\n", "Workflow", "spec.templates[0].containerSet.containers[0]"),
            ("apiVersion: argoproj.io/v1alpha1\nkind: Rollout\nmetadata: {name: ro}\nspec:\n  template:\n    spec:\n      hostNetwork: true\n      containers:\n      - {name: c, image: busybox}\n", "Rollout", "spec.template.spec.containers[0]"),
            ("apiVersion: serving.knative.dev/v1\nkind: Service\nmetadata: {name: k}\nspec:\n  template:\n    spec:\n      containers:\n      - image: busybox\n", "Service", "spec.template.spec.containers[0]"),
            ("apiVersion: tekton.dev/v1\nkind: Task\nmetadata: {name: t}\nspec:\n  steps:\n  - name: build\n    image: golang\n    script: go build\n", "Task", "spec.steps[0]"),
            ("apiVersion: keda.sh/v1alpha1\nkind: ScaledJob\nmetadata: {name: j}\nspec:\n  jobTargetRef:\n    template:\n      spec:\n        initContainers:\n        - {name: i, image: busybox}\n", "ScaledJob", "spec.jobTargetRef.template.spec.initContainers[0]"),
            ("apiVersion: example.com/v1\nkind: Runner\nmetadata: {name: r}\nspec:\n  pods:\n  - spec:\n      ephemeralContainers:\n      - {name: e, image: busybox}\n", "Runner", "spec.pods[0].spec.ephemeralContainers[0]"),
            // A kind this import reads for pods, with its containers
            // written where no pod template is.
            ("apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d}\nspec:\n  containers:\n  - {name: c, image: busybox}\n", "Deployment", "spec.containers[0]"),
            // Inside a List.
            ("apiVersion: v1\nkind: List\nitems:\n- apiVersion: argoproj.io/v1alpha1\n  kind: Rollout\n  metadata: {name: ro}\n  spec:\n    template:\n      spec:\n        containers:\n        - {name: c, image: busybox}\n", "Rollout", "spec.template.spec.containers[0]"),
        ];
        let mut wrong = Vec::new();
        for (doc, kind, path) in refused {
            for y in [format!("{pod}---\n{doc}"), format!("{doc}---\n{pod}")] {
                let kind_line = y
                    .lines()
                    .position(|l| {
                        l.trim_start_matches("- ").trim_start() == format!("kind: {kind}")
                    })
                    .map(|i| i as u32 + 1);
                match import(y.as_bytes()) {
                    Ok(_) => wrong.push(format!("imported, want refused:\n{y}")),
                    Err(e) => {
                        let m = e.to_string();
                        if !(m.contains(&format!("`{kind}"))
                            && m.contains(path)
                            && m.contains("not audited"))
                            || e.loc.map(|l| l.line) != kind_line
                        {
                            wrong.push(format!("error {m} (want kind `{kind}`, `{path}`, at line {kind_line:?}):\n{y}"));
                        }
                    }
                }
            }
        }
        // (document, the note's words)
        let noted = [
            ("apiVersion: v1\nkind: Service\nmetadata: {name: svc}\nspec:\n  ports: [{port: 80}]\n", "`Service/svc`"),
            ("apiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata: {name: in}\nspec: {}\n", "`Ingress/in`"),
            ("apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata: {name: runners.example.com}\nspec:\n  versions:\n  - name: v1\n    schema:\n      openAPIV3Schema:\n        properties:\n          containers: {type: array, items: {type: object}}\n          image: {type: string}\n", "`CustomResourceDefinition/runners.example.com`"),
            ("apiVersion: v1\nmetadata: {name: x}\ndata: {}\n", "without `kind`"),
            ("apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: empty}\nspec: {replicas: 1}\n", "`Deployment/empty`"),
        ];
        for (doc, want) in noted {
            for (y, doc_line) in [
                (format!("{pod}---\n{doc}"), pod.lines().count() as u32 + 2),
                (format!("{doc}---\n{pod}"), 1),
            ] {
                match import(y.as_bytes()) {
                    Err(e) => wrong.push(format!("refused ({e}), want a note:\n{y}")),
                    Ok(out) => {
                        let hit = out[0].1.notes.iter().any(|n| {
                            n.message.contains(want)
                                && n.message.contains("not audited")
                                && n.line == doc_line
                        });
                        if !hit {
                            let n: Vec<String> =
                                out[0].1.notes.iter().map(|n| n.to_string()).collect();
                            wrong.push(format!(
                                "no note with {want} at line {doc_line}: {n:#?}\n{y}"
                            ));
                        }
                    }
                }
            }
        }
        // The cluster objects this import reads keep their own notes.
        let sa = format!(
            "{pod}---\napiVersion: v1\nkind: ServiceAccount\nmetadata: {{name: default}}\n"
        );
        let out = import(sa.as_bytes()).unwrap();
        if out[0]
            .1
            .notes
            .iter()
            .any(|n| n.message.contains("not audited"))
        {
            wrong.push(format!("a ServiceAccount is noted as not audited:\n{sa}"));
        }
        // A file of cluster objects beside an unread workload is not a
        // companion of other files (it would never be audited itself).
        let objects = "apiVersion: networking.k8s.io/v1\nkind: NetworkPolicy\nmetadata: {name: deny}\nspec:\n  podSelector: {}\n  policyTypes: [Egress]\n---\n";
        for (doc, _, _) in refused {
            let y = format!("{objects}{doc}");
            if cluster_objects_only(y.as_bytes()).is_some() {
                wrong.push(format!("read as cluster objects only:\n{y}"));
            }
        }
        crate::import::table_tests::assert_none_wrong(
            &wrong,
            2 * (refused.len() + noted.len()) + 1 + refused.len(),
        );
    }

    /// A cluster object changes what a pod is audited with only when the
    /// API server would accept it: of a kind this import reads, with an
    /// `apiVersion` the server serves for that kind. Any other (removed,
    /// misspelt, of another group, or none) is not applied, and a note
    /// says why; the pod is then judged as if the object were absent.
    #[test]
    fn cluster_objects_apply_only_with_a_served_api_version() {
        let pod = "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  runtimeClassName: sandboxed\n  serviceAccountName: runner\n  containers:\n  - name: c\n    image: x\n    volumeMounts: [{name: d, mountPath: /data}]\n  volumes:\n  - name: d\n    persistentVolumeClaim: {claimName: c}\n---\n";
        let with = |v: &str, rest: &str| match v {
            "" => rest.to_string(),
            v => format!("apiVersion: {v}\n{rest}"),
        };
        let pv = "kind: PersistentVolume\nmetadata: {name: pv}\nspec:\n  hostPath: {path: /srv}\n";
        use serde_json::json;
        // (kind, the object at an apiVersion, served, not served, pointer, value when applied)
        type Row<'a> = (
            &'a str,
            Box<dyn Fn(&str) -> String>,
            &'a str,
            Vec<&'a str>,
            &'a str,
            serde_json::Value,
        );
        let rows: Vec<Row<'_>> = vec![
            (
                "NetworkPolicy",
                Box::new(move |v| {
                    with(v, "kind: NetworkPolicy\nmetadata: {name: deny}\nspec:\n  podSelector: {}\n  policyTypes: [Egress]\n")
                }),
                "networking.k8s.io/v1",
                vec![
                    "extensions/v1beta1",
                    "networking.k8s.io/v1beta1",
                    "bogus.example.com/v9",
                    "v1",
                    "projectcalico.org/v3",
                    "",
                ],
                "/network/egress",
                json!("deny"),
            ),
            (
                "LimitRange",
                Box::new(move |v| {
                    with(v, "kind: LimitRange\nmetadata: {name: lr}\nspec:\n  limits:\n  - type: Container\n    default: {memory: 128Mi}\n")
                }),
                "v1",
                vec!["example.com/v1", "v1beta1", "apps/v1", ""],
                "/limits/memory_bytes",
                json!(134217728),
            ),
            (
                "ResourceQuota",
                Box::new(move |v| {
                    with(
                        v,
                        "kind: ResourceQuota\nmetadata: {name: q}\nspec:\n  hard: {pods: '3'}\n",
                    )
                }),
                "v1",
                vec!["example.com/v1", "v2", ""],
                "/concurrency/max_jobs",
                json!(3),
            ),
            (
                "RuntimeClass",
                Box::new(move |v| {
                    with(
                        v,
                        "kind: RuntimeClass\nmetadata: {name: sandboxed}\nhandler: runsc\n",
                    )
                }),
                "node.k8s.io/v1",
                vec!["node.k8s.io/v1beta1", "node.k8s.io/v1alpha1", "v1", ""],
                "/boundary/kind",
                json!("user-space-kernel"),
            ),
            (
                "ServiceAccount",
                Box::new(move |v| {
                    with(v, "kind: ServiceAccount\nmetadata: {name: runner}\nautomountServiceAccountToken: false\n")
                }),
                "v1",
                vec!["v2", "core/v1", ""],
                // After the claim's shared-storage mount.
                "/mounts/1",
                serde_json::Value::Null,
            ),
            (
                "PersistentVolume",
                Box::new(move |v| {
                    with(v, "kind: PersistentVolume\nmetadata: {name: pv}\nspec:\n  hostPath: {path: /srv}\n  claimRef: {name: c}\n")
                }),
                "v1",
                vec!["storage.k8s.io/v1", ""],
                "/mounts/0/source",
                json!("/srv"),
            ),
            (
                "PersistentVolumeClaim",
                Box::new(move |v| {
                    format!("apiVersion: v1\n{pv}---\n") + &with(v, "kind: PersistentVolumeClaim\nmetadata: {name: c}\nspec:\n  volumeName: pv\n")
                }),
                "v1",
                vec!["v1alpha1", ""],
                "/mounts/0/source",
                json!("/srv"),
            ),
        ];
        let mut wrong = Vec::new();
        let mut count = 0;
        for (kind, object, served, not_served, ptr, applied) in &rows {
            for v in std::iter::once(served).chain(not_served.iter()) {
                count += 1;
                let y = format!("{pod}{}", object(v));
                let out = match import(y.as_bytes()) {
                    Ok(out) => out,
                    Err(e) => {
                        wrong.push(format!("refused: {e}\n{y}"));
                        continue;
                    }
                };
                let (_, d) = out.into_iter().next().unwrap();
                let notes: Vec<String> = d.notes.iter().map(|n| n.to_string()).collect();
                let got = crate::import::table_tests::profile(d)
                    .pointer(ptr)
                    .cloned()
                    .unwrap_or(serde_json::Value::Null);
                let noted = notes
                    .iter()
                    .any(|n| n.contains(&format!("`{kind}/")) && n.contains("not applied"));
                if v == served {
                    if &got != applied || noted {
                        wrong.push(format!(
                            "{ptr} {got}, want {applied}, notes {notes:#?}:\n{y}"
                        ));
                    }
                } else if &got == applied || !noted {
                    wrong.push(format!(
                        "{kind} applied at `{v}` ({ptr} {got}), or no note: {notes:#?}\n{y}"
                    ));
                }
            }
        }
        // From another file of the run, too.
        let policy = "apiVersion: extensions/v1beta1\nkind: NetworkPolicy\nmetadata: {name: deny}\nspec:\n  podSelector: {}\n  policyTypes: [Egress]\n";
        let companions = crate::import::yaml::parse(policy.as_bytes()).unwrap();
        let (_, d) = import_with(pod.as_bytes(), &companions).unwrap().remove(0);
        let noted = d.notes.iter().any(|n| n.message.contains("not applied"));
        if crate::import::table_tests::profile(d)
            .pointer("/network/egress")
            .is_some()
            || !noted
        {
            wrong.push(format!("a companion NetworkPolicy at extensions/v1beta1 is applied, or not noted:\n{policy}"));
        }
        crate::import::table_tests::assert_none_wrong(&wrong, count + 1);
    }

    /// The API server refuses a pod with two volumes of one name, two
    /// containers of one name (init and ephemeral ones included), or two
    /// mounts at one path in one container. The import refuses it too, at
    /// the second (the line marked `# 2nd`), rather than read one of them.
    #[test]
    fn duplicate_volumes_containers_and_mount_paths_are_refused() {
        let pod = |spec: &str| {
            format!("apiVersion: v1\nkind: Pod\nmetadata: {{name: p}}\nspec:\n  automountServiceAccountToken: false\n{spec}")
        };
        let deployment = |spec: &str| {
            format!(
                "apiVersion: apps/v1\nkind: Deployment\nmetadata: {{name: d}}\nspec:\n  template:\n    spec:\n{}",
                spec.lines().map(|l| format!("    {l}\n")).collect::<String>()
            )
        };
        let two_volumes = "  containers:\n  - name: c\n    image: x\n    volumeMounts: [{name: v, mountPath: /h}]\n  volumes:\n  - name: v\n    emptyDir: {}\n  - name: v # 2nd\n    hostPath: {path: /var/run/docker.sock}\n";
        let two_volumes_unmounted = "  containers:\n  - name: c\n    image: x\n  volumes:\n  - {name: v, hostPath: {path: /srv}}\n  - {name: w, emptyDir: {}}\n  - {name: v, emptyDir: {}} # 2nd\n";
        let two_containers =
            "  containers:\n  - name: c\n    image: x\n  - name: c # 2nd\n    image: z\n";
        let init_and_container = "  initContainers:\n  - name: c\n    image: x\n  containers:\n  - name: c # 2nd\n    image: z\n";
        let container_and_ephemeral = "  containers:\n  - name: c\n    image: x\n  ephemeralContainers:\n  - name: c # 2nd\n    image: z\n";
        let two_mounts = "  containers:\n  - name: c\n    image: x\n    volumeMounts:\n    - {name: a, mountPath: /data}\n    - {name: b, mountPath: /data} # 2nd\n  volumes:\n  - {name: a, emptyDir: {}}\n  - {name: b, hostPath: {path: /}}\n";
        let two_mounts_second_container = "  containers:\n  - name: c\n    image: x\n  - name: d\n    image: x\n    volumeMounts:\n    - {name: a, mountPath: /data}\n    - {name: a, mountPath: /data} # 2nd\n  volumes:\n  - {name: a, emptyDir: {}}\n";
        // (manifest, words of the error)
        let refused = [
            (pod(two_volumes), "volume `v`"),
            (deployment(two_volumes), "volume `v`"),
            (pod(two_volumes_unmounted), "volume `v`"),
            (pod(two_containers), "container name `c`"),
            (deployment(two_containers), "container name `c`"),
            (pod(init_and_container), "container name `c`"),
            (pod(container_and_ephemeral), "container name `c`"),
            (pod(two_mounts), "`mountPath: /data`"),
            (deployment(two_mounts), "`mountPath: /data`"),
            (pod(two_mounts_second_container), "`mountPath: /data`"),
        ];
        let mut wrong = Vec::new();
        for (y, words) in &refused {
            let line = y
                .lines()
                .position(|l| l.ends_with("# 2nd"))
                .map(|i| i as u32 + 1);
            match import(y.as_bytes()) {
                Ok(_) => wrong.push(format!("imported, want refused:\n{y}")),
                Err(e) => {
                    let m = e.to_string();
                    if !m.contains(words)
                        || !m.contains("API server refuses")
                        || e.loc.map(|l| l.line) != line
                    {
                        wrong.push(format!("error {m}, want {words} at line {line:?}:\n{y}"));
                    }
                }
            }
        }
        // What the API server accepts is imported.
        let accepted = [
            pod("  containers:\n  - name: c\n    image: x\n    volumeMounts: [{name: v, mountPath: /a}, {name: v, mountPath: /b}]\n  - name: d\n    image: x\n    volumeMounts: [{name: v, mountPath: /a}]\n  volumes:\n  - {name: v, emptyDir: {}}\n"),
            pod("  containers:\n  - name: v\n    image: x\n  volumes:\n  - {name: c, emptyDir: {}}\n  - {name: v, emptyDir: {}}\n"),
        ];
        for y in &accepted {
            if let Err(e) = import(y.as_bytes()) {
                wrong.push(format!("refused ({e}):\n{y}"));
            }
        }
        crate::import::table_tests::assert_none_wrong(&wrong, refused.len() + accepted.len());
    }

    /// A ResourceQuota with `scopes` or a `scopeSelector` counts only the
    /// pods its scopes match (`BestEffort` does not count a pod that sets
    /// limits), which this import does not evaluate: its `pods` is never
    /// taken as the bound on a pod, and a note says so. One without scopes
    /// bounds every pod of its namespace.
    #[test]
    fn a_scoped_resource_quota_is_not_a_bound() {
        let pod = "apiVersion: v1\nkind: Pod\nmetadata: {name: p, namespace: ci}\nspec:\n  containers:\n  - name: c\n    image: x\n    resources: {limits: {memory: 64Mi}}\n---\n";
        let quota = |name: &str, pods: u32, rest: &str| {
            format!("apiVersion: v1\nkind: ResourceQuota\nmetadata: {{name: {name}, namespace: ci}}\nspec:\n  hard: {{pods: '{pods}'}}\n{rest}---\n")
        };
        let selector = |op: &str| {
            format!("  scopeSelector:\n    matchExpressions:\n    - {{scopeName: PriorityClass, operator: {op}, values: [high]}}\n")
        };
        // (the quotas, the bound applied, whether a note says one is not applied)
        let rows: Vec<(String, Option<u64>, bool)> = vec![
            (quota("q", 3, ""), Some(3), false),
            (quota("q", 3, "  scopes: []\n"), Some(3), false),
            (quota("q", 3, "  scopes: [BestEffort]\n"), None, true),
            (quota("q", 3, "  scopes: [NotBestEffort]\n"), None, true),
            (quota("q", 3, "  scopes: [Terminating]\n"), None, true),
            (quota("q", 3, "  scopes: [NotTerminating, NotBestEffort]\n"), None, true),
            (quota("q", 3, "  scopes:\n  - PriorityClass\n"), None, true),
            (quota("q", 3, "  scopes: [CrossNamespacePodAffinity]\n"), None, true),
            (quota("q", 3, &selector("In")), None, true),
            (quota("q", 3, &selector("NotIn")), None, true),
            (quota("q", 3, "  scopeSelector:\n    matchExpressions:\n    - {scopeName: BestEffort, operator: Exists}\n"), None, true),
            (quota("q", 3, "  scopeSelector: {}\n"), None, true),
            // A smaller scoped quota does not replace an unscoped one.
            (quota("scoped", 1, "  scopes: [BestEffort]\n") + &quota("all", 5, ""), Some(5), true),
        ];
        let mut wrong = Vec::new();
        for (quotas, want, note) in &rows {
            let y = format!("{pod}{quotas}");
            let (_, d) = match import(y.as_bytes()) {
                Ok(mut out) => out.remove(0),
                Err(e) => {
                    wrong.push(format!("refused ({e}):\n{y}"));
                    continue;
                }
            };
            let noted = d.notes.iter().any(|n| {
                n.message.contains("`ResourceQuota/") && n.message.contains("not applied")
            });
            let got = crate::import::table_tests::profile(d)
                .pointer("/concurrency/max_jobs")
                .and_then(serde_json::Value::as_u64);
            if got != *want || noted != *note {
                wrong.push(format!(
                    "max_jobs {got:?} (want {want:?}), noted {noted} (want {note}):\n{y}"
                ));
            }
        }
        crate::import::table_tests::assert_none_wrong(&wrong, rows.len());
    }

    /// `kubectl` reads any object with `items` as a list, whatever its
    /// kind: `List`, or a typed list such as `PodList` as `kubectl get -o
    /// yaml` writes it. An item that names neither its kind nor its
    /// apiVersion takes the list's (`PodList` items are Pods), as
    /// `kubectl` sets them.
    #[test]
    fn typed_lists_are_read_like_list() {
        let pod_item = "- apiVersion: v1\n  kind: Pod\n  metadata: {name: p}\n  spec:\n    containers:\n    - {name: c, image: x}\n";
        let bare_pod =
            "- metadata: {name: p}\n  spec:\n    containers:\n    - {name: c, image: x}\n";
        let bare_deployment = "- metadata: {name: d}\n  spec:\n    template:\n      spec:\n        containers:\n        - {name: c, image: x}\n";
        let pod_doc = "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers:\n  - {name: c, image: x}\n---\n";
        let deny =
            "- metadata: {name: deny}\n  spec:\n    podSelector: {}\n    policyTypes: [Egress]\n";
        // (stream, the profiles' names, egress of the first, a note's words)
        type Row<'a> = (String, Vec<&'a str>, Option<&'a str>, Option<&'a str>);
        let rows: Vec<Row<'_>> = vec![
            (format!("apiVersion: v1\nkind: List\nitems:\n{pod_item}"), vec!["Pod/p/c"], None, None),
            (format!("apiVersion: v1\nkind: PodList\nitems:\n{pod_item}"), vec!["Pod/p/c"], None, None),
            (format!("apiVersion: v1\nkind: PodList\nmetadata: {{resourceVersion: '1'}}\nitems:\n{bare_pod}{pod_item}"), vec!["Pod/p/c", "Pod/p/c"], None, None),
            (format!("apiVersion: apps/v1\nkind: DeploymentList\nitems:\n{bare_deployment}"), vec!["Deployment/d/c"], None, None),
            (format!("{pod_doc}apiVersion: networking.k8s.io/v1\nkind: NetworkPolicyList\nitems:\n{deny}"), vec!["Pod/p/c"], Some("deny"), None),
            (format!("{pod_doc}apiVersion: extensions/v1beta1\nkind: NetworkPolicyList\nitems:\n{deny}"), vec!["Pod/p/c"], None, Some("not applied")),
            (format!("{pod_doc}apiVersion: v1\nkind: ServiceList\nitems:\n- metadata: {{name: svc}}\n  spec: {{ports: [{{port: 80}}]}}\n"), vec!["Pod/p/c"], None, Some("`Service/svc` is not audited")),
        ];
        let mut wrong = Vec::new();
        for (y, names, egress, note) in &rows {
            let out = match import(y.as_bytes()) {
                Ok(out) => out,
                Err(e) => {
                    wrong.push(format!("refused ({e}):\n{y}"));
                    continue;
                }
            };
            let got: Vec<String> = out.iter().map(|(n, _)| n.clone()).collect();
            let (_, d) = out.into_iter().next().unwrap();
            let noted = note.is_none_or(|w| d.notes.iter().any(|n| n.message.contains(w)));
            let e = crate::import::table_tests::profile(d)
                .pointer("/network/egress")
                .and_then(|v| v.as_str().map(str::to_string));
            if got != *names || e.as_deref() != *egress || !noted {
                wrong.push(format!("profiles {got:?} (want {names:?}), egress {e:?} (want {egress:?}), note {note:?} found {noted}:\n{y}"));
            }
        }
        crate::import::table_tests::assert_none_wrong(&wrong, rows.len());
    }

    /// Item by item: each setting that widens what the pod can do, and any
    /// key the import does not know, leaves a note (never silence).
    #[test]
    fn risky_and_unknown_settings_are_never_silent() {
        let cases = [
            (
                "securityContext: {windowsOptions: {hostProcess: true}}",
                "hostProcess",
            ),
            (
                "securityContext: {runAsUsr: 1000}",
                "did you mean `runAsUser`",
            ),
            ("priviledged: true", "unknown field `spec.priviledged`"),
            ("hostNetwrk: true", "did you mean `hostNetwork`"),
        ];
        for (pod_line, want) in cases {
            let y = format!("apiVersion: v1\nkind: Pod\nmetadata: {{name: t}}\nspec:\n  {pod_line}\n  containers:\n  - name: c\n    image: x\n");
            let n = notes(&y);
            assert!(n.iter().any(|m| m.contains(want)), "{pod_line}: {n:#?}");
        }
        let container_cases = [
            (
                "ports: [{containerPort: 80, hostPort: 8080}]",
                "`hostPort: 8080`",
            ),
            (
                "volumeDevices: [{name: d, devicePath: /dev/xvda}]",
                "raw block device at `/dev/xvda`",
            ),
            ("securityContxt: {}", "did you mean `securityContext`"),
        ];
        for (c_line, want) in container_cases {
            let y = format!("apiVersion: v1\nkind: Pod\nmetadata: {{name: t}}\nspec:\n  containers:\n  - name: c\n    image: x\n    {c_line}\n");
            let n = notes(&y);
            assert!(n.iter().any(|m| m.contains(want)), "{c_line}: {n:#?}");
        }
        // hostProcess is audited as privileged, not only noted.
        let y = "apiVersion: v1\nkind: Pod\nmetadata: {name: t}\nspec:\n  securityContext: {windowsOptions: {hostProcess: true}}\n  containers:\n  - name: c\n    image: x\n";
        let (_, d) = import(y.as_bytes()).unwrap().remove(0);
        assert_eq!(d.get("/boundary/privileged"), Some(&OVal::Bool(true)));
        // runAsNonRoot makes the user non-root; a container's `false` undoes the pod's `true`.
        let y = "apiVersion: v1\nkind: Pod\nmetadata: {name: t}\nspec:\n  securityContext: {runAsNonRoot: true}\n  containers:\n  - name: c\n    image: x\n  - name: d\n    image: x\n    securityContext: {runAsNonRoot: false}\n";
        let all = import(y.as_bytes()).unwrap();
        assert_eq!(
            all[0].1.get("/boundary/user"),
            Some(&OVal::Str(NON_ROOT_USER.into()))
        );
        assert_eq!(all[1].1.get("/boundary/user"), None);
    }
}

#[cfg(test)]
mod context_tests;
