//! The objects a pod depends on, read from the same stream (or another
//! file of the run) as the API server and the kubelet read them: one table
//! per class (issue 45). Each row states what the cluster does; a row
//! that does not hold is reported with its input.

use super::import;
use super::import_with;
use crate::finding::Severity;
use crate::import::table_tests::{assert_none_wrong, profile};
use crate::import::Format;

/// A Pod `p` (namespace `ci` when `ns`) with one container `c`: `spec`
/// and `container` are indented lines added to each.
fn pod(spec: &str, container: &str) -> String {
    format!("apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n  namespace: ci\n  labels: {{app: p}}\nspec:\n  automountServiceAccountToken: false\n{spec}  containers:\n  - name: c\n    image: x\n{container}---\n")
}

/// The first profile's JSON and notes, or the refusal's text.
fn first(y: &str) -> Result<(serde_json::Value, Vec<String>), String> {
    let mut out = import(y.as_bytes()).map_err(|e| e.to_string())?;
    let (_, d) = out.remove(0);
    let notes = d.notes.iter().map(|n| n.message.to_string()).collect();
    Ok((profile(d), notes))
}

/// A finding as the tables read it: (rule, severity, pointer, hint).
type Found = (&'static str, Severity, String, Option<&'static str>);

/// The first profile's findings.
fn audit(y: &str) -> Result<Vec<Found>, String> {
    let units =
        crate::import::import(y.as_bytes(), Format::Kubernetes).map_err(|e| e.to_string())?;
    let r = crate::audit::audit_imported(
        &units[0],
        "p.yaml",
        &crate::Labels::workshop(),
        &Default::default(),
        None,
        &crate::InOrder,
    )
    .map_err(|e| e.to_string())?;
    Ok(r.issues
        .iter()
        .map(|f| {
            (
                f.rule,
                f.severity,
                f.pointer.clone(),
                crate::import::hints::hint("kubernetes", f),
            )
        })
        .collect())
}

/// `pkg/apis/networking/v1/defaults.go` (SetDefaults_NetworkPolicy):
///
/// ```go
/// if len(obj.Spec.PolicyTypes) == 0 {
///     obj.Spec.PolicyTypes = []PolicyType{PolicyTypeIngress}
///     if len(obj.Spec.Egress) != 0 {
///         obj.Spec.PolicyTypes = append(obj.Spec.PolicyTypes, PolicyTypeEgress)
///     }
/// }
/// ```
///
/// `policyTypes` absent, null or `[]` is defaulted; `egress` absent, null
/// or `[]` has length 0, so such a policy isolates ingress only and the
/// pod's egress stays open. Listed `policyTypes` decide alone; `ingress`
/// never changes egress.
#[test]
fn network_policy_types_are_defaulted_as_the_api_server_does() {
    let types = [
        None,
        Some("null"),
        Some("[]"),
        Some("[Ingress]"),
        Some("[Egress]"),
        Some("[Ingress, Egress]"),
        Some("[Egress, Ingress]"),
    ];
    // (egress, its length, what the pod may reach when it is isolated)
    let egress = [
        (None, 0, "deny"),
        (Some("null"), 0, "deny"),
        (Some("[]"), 0, "deny"),
        (Some("[{}]"), 1, "allow-all"),
        (
            Some("[{to: [{ipBlock: {cidr: 10.0.0.0/8}}]}]"),
            1,
            "allow-list",
        ),
    ];
    let ingress = [None, Some("[]"), Some("[{}]")];
    let mut wrong = Vec::new();
    let mut rows = 0;
    for t in types {
        for (e, len, isolated) in egress {
            for i in ingress {
                rows += 1;
                let mut spec = String::from("  podSelector: {}\n");
                for (k, v) in [("policyTypes", t), ("egress", e), ("ingress", i)] {
                    if let Some(v) = v {
                        spec.push_str(&format!("  {k}: {v}\n"));
                    }
                }
                let y = format!("{}apiVersion: networking.k8s.io/v1\nkind: NetworkPolicy\nmetadata: {{name: np, namespace: ci}}\nspec:\n{spec}", pod("", ""));
                let listed: Option<bool> = match t {
                    None | Some("null") | Some("[]") => None,
                    Some(l) => Some(l.contains("Egress")),
                };
                let isolates = listed.unwrap_or(len != 0);
                let want = isolates.then_some(isolated);
                match first(&y) {
                    Err(m) => wrong.push(format!("refused ({m}):\n{spec}")),
                    Ok((v, _)) => {
                        let got = v
                            .pointer("/network/egress")
                            .and_then(|g| g.as_str().map(str::to_string));
                        if got.as_deref() != want {
                            wrong.push(format!("egress {got:?}, want {want:?}:\n{spec}"));
                        }
                    }
                }
            }
        }
    }
    assert_none_wrong(&wrong, rows);
}

/// A RuntimeClass is what its `handler` says, and only when the object is
/// in the input: a class known by its name alone is an undeclared
/// runtime on a shared kernel, whatever the name suggests.
#[test]
fn a_runtime_class_is_its_handler_never_its_name() {
    let rc = |name: &str, version: &str, handler: &str| {
        format!(
            "apiVersion: {version}\nkind: RuntimeClass\nmetadata: {{name: {name}}}\n{handler}---\n"
        )
    };
    let v1 = "node.k8s.io/v1";
    // (runtimeClassName, objects, boundary kind, runtime name)
    let rows: Vec<(&str, String, &str, Option<&str>)> = vec![
        ("gvisor", String::new(), "container", None),
        ("gvisor-compat", String::new(), "container", None),
        ("runsc", String::new(), "container", None),
        ("kata", String::new(), "container", None),
        ("kata-qemu", String::new(), "container", None),
        ("firecracker", String::new(), "container", None),
        ("fc", String::new(), "container", None),
        (
            "gvisor",
            rc("gvisor", v1, "handler: runsc\n"),
            "user-space-kernel",
            Some("gvisor"),
        ),
        (
            "sandboxed",
            rc("sandboxed", v1, "handler: runsc\n"),
            "user-space-kernel",
            Some("gvisor"),
        ),
        (
            "gvisor",
            rc("gvisor", v1, "handler: runc\n"),
            "container",
            Some("runc"),
        ),
        (
            "gvisor-compat",
            rc("gvisor-compat", v1, "handler: crun\n"),
            "container",
            Some("crun"),
        ),
        (
            "vm",
            rc("vm", v1, "handler: kata-qemu\n"),
            "microvm",
            Some("kata"),
        ),
        (
            "fast",
            rc("fast", v1, "handler: kata-fc\n"),
            "microvm",
            Some("kata"),
        ),
        // Another class's object says nothing about this one.
        (
            "gvisor",
            rc("other", v1, "handler: runsc\n"),
            "container",
            None,
        ),
        // Not served, or without a handler (the API server refuses both).
        (
            "gvisor",
            rc("gvisor", "node.k8s.io/v1beta1", "handler: runsc\n"),
            "container",
            None,
        ),
        ("gvisor", rc("gvisor", v1, ""), "container", None),
    ];
    let mut wrong = Vec::new();
    for (class, objects, kind, runtime) in &rows {
        let y = format!(
            "{objects}{}",
            pod(&format!("  runtimeClassName: {class}\n"), "")
        );
        match first(&y) {
            Err(m) => wrong.push(format!("refused ({m}):\n{y}")),
            Ok((v, _)) => {
                let k = v.pointer("/boundary/kind").and_then(|s| s.as_str());
                let r = v.pointer("/boundary/runtime/name").and_then(|s| s.as_str());
                if k != Some(*kind) || r != *runtime {
                    wrong.push(format!(
                        "kind {k:?} runtime {r:?}, want {kind} {runtime:?}:\n{y}"
                    ));
                }
            }
        }
    }
    assert_none_wrong(&wrong, rows.len());
}

/// What a volume the container mounts is: a ConfigMap, Secret,
/// downwardAPI or projected volume is read-only whatever the mount says
/// (the kubelet mounts them so); storage shared beyond the job blocks when
/// writable; a secrets-store CSI volume is a credential; `gitRepo` is
/// fetched at start.
#[test]
fn volumes_are_what_the_kubelet_mounts() {
    #[derive(Debug, Clone, Copy, PartialEq)]
    enum Want {
        /// A note says read-only; no blocking finding on a mount.
        ReadOnly,
        /// A blocking finding on a mount.
        Blocks,
        /// No blocking finding on a mount (read-only shared storage is a note).
        Quiet,
        Credential,
        Fetch,
    }
    use Want::*;
    let objects = "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: cm, namespace: ci}\ndata: {a: b}\n---\napiVersion: v1\nkind: Secret\nmetadata: {name: s, namespace: ci}\nstringData: {k: v}\n---\n";
    let shared = [
        "nfs: {server: nfs.example, path: /exports}",
        "persistentVolumeClaim: {claimName: data}",
        "csi: {driver: ebs.csi.aws.com}",
        "iscsi: {targetPortal: '10.0.0.1:3260', iqn: 'iqn.2001-04.com.example:storage', lun: 0}",
        "cephfs: {monitors: ['10.0.0.1:6789']}",
        "rbd: {monitors: ['10.0.0.1:6789'], image: img}",
        "glusterfs: {endpoints: gl, path: vol}",
        "fc: {wwids: ['3600508b400105e210000900000490000']}",
        "azureFile: {secretName: az, shareName: share}",
        "azureDisk: {diskName: d, diskURI: 'https://example/d.vhd'}",
        "awsElasticBlockStore: {volumeID: vol-1}",
        "gcePersistentDisk: {pdName: pd}",
        "cinder: {volumeID: v}",
        "flexVolume: {driver: example/lvm}",
        "portworxVolume: {volumeID: v}",
        "vsphereVolume: {volumePath: '[ds] v.vmdk'}",
        "quobyte: {registry: 'r:7861', volume: v}",
        "storageos: {volumeName: v}",
        "scaleIO: {gateway: g, system: s, secretRef: {name: x}}",
        "photonPersistentDisk: {pdID: p}",
        "flocker: {datasetName: d}",
    ];
    let mut rows: Vec<(String, &str, Want)> = Vec::new();
    for s in shared {
        rows.push((s.to_string(), "", Blocks));
        rows.push((s.to_string(), ", readOnly: false", Blocks));
        rows.push((s.to_string(), ", readOnly: true", Quiet));
    }
    rows.push((
        "nfs: {server: n, path: /x, readOnly: true}".into(),
        "",
        Quiet,
    ));
    rows.push((
        "persistentVolumeClaim: {claimName: data, readOnly: true}".into(),
        "",
        Quiet,
    ));
    for s in [
        "configMap: {name: cm}",
        "secret: {secretName: s}",
        "downwardAPI: {items: [{path: labels, fieldRef: {fieldPath: metadata.labels}}]}",
        "projected: {sources: [{configMap: {name: cm}}, {downwardAPI: {items: [{path: l, fieldRef: {fieldPath: metadata.labels}}]}}]}",
    ] {
        rows.push((s.to_string(), "", ReadOnly));
        rows.push((s.to_string(), ", readOnly: false", ReadOnly));
    }
    rows.push(("csi: {driver: secrets-store.csi.k8s.io, readOnly: true, volumeAttributes: {secretProviderClass: vault-db}}".into(), ", readOnly: true", Credential));
    rows.push((
        "csi: {driver: secrets-store.csi.k8s.io, volumeAttributes: {secretProviderClass: aws}}"
            .into(),
        "",
        Credential,
    ));
    rows.push((
        "gitRepo: {repository: 'https://git.example/x.git', revision: main}".into(),
        "",
        Fetch,
    ));
    let mut wrong = Vec::new();
    for (vol, ro, want) in &rows {
        let y = format!(
            "{objects}{}",
            pod(
                &format!("  volumes:\n  - name: v\n    {vol}\n"),
                &format!("    volumeMounts: [{{name: v, mountPath: /data{ro}}}]\n")
            )
        );
        let (v, notes) = match first(&y) {
            Ok(x) => x,
            Err(m) => {
                wrong.push(format!("refused ({m}): {vol} {ro}"));
                continue;
            }
        };
        let found = audit(&y).unwrap_or_default();
        let mount_blocks = found
            .iter()
            .any(|(_, s, p, _)| s.blocks() && p.starts_with("/mounts/"));
        let ok = match want {
            ReadOnly => {
                !mount_blocks
                    && notes
                        .iter()
                        .any(|n| n.contains("read-only") && !n.contains("writable"))
            }
            Blocks => mount_blocks,
            Quiet => !mount_blocks,
            Credential => {
                v.pointer("/credentials")
                    .and_then(|c| c.as_array())
                    .is_some_and(|c| !c.is_empty())
                    && found
                        .iter()
                        .any(|(_, s, p, _)| s.blocks() && p.starts_with("/credentials/"))
            }
            Fetch => {
                v.pointer("/dependencies/prepared_in")
                    .and_then(|p| p.as_str())
                    == Some("runtime-fetch")
            }
        };
        if !ok {
            wrong.push(format!(
                "{vol} {ro}: want {want:?}, mount blocks {mount_blocks}, notes {notes:?}"
            ));
        }
    }
    assert_none_wrong(&wrong, rows.len());
}

/// ConfigMaps and Secrets the container reads (`env` `valueFrom`,
/// `envFrom`, volumes, projected sources) are read from the stream: their
/// keys become the job's variables, a Secret's as credentials, and a
/// referenced object that is not there refuses the import at the
/// reference, naming it, unless the reference is `optional: true`.
#[test]
fn config_maps_and_secrets_are_read_or_refused() {
    let cm = |name: &str, ns: &str, data: &str| {
        format!(
            "apiVersion: v1\nkind: ConfigMap\nmetadata: {{name: {name}{ns}}}\ndata: {data}\n---\n"
        )
    };
    let secret = |name: &str, data: &str| {
        format!("apiVersion: v1\nkind: Secret\nmetadata: {{name: {name}, namespace: ci}}\n{data}\n---\n")
    };
    let ci = ", namespace: ci";
    let loaders = "{LD_PRELOAD: /tmp/x.so, NODE_OPTIONS: '--require /tmp/a.js', REGION: eu}";
    // (stream, variables that must be set (name, value or None for any),
    // credentials that must be named, or the words of the refusal)
    type Row = (
        String,
        Vec<(&'static str, Option<&'static str>)>,
        Vec<&'static str>,
        Option<&'static str>,
    );
    let rows: Vec<Row> = vec![
        (
            cm("cfg", ci, loaders) + &pod("", "    envFrom: [{configMapRef: {name: cfg}}]\n"),
            vec![("LD_PRELOAD", Some("/tmp/x.so")), ("NODE_OPTIONS", Some("--require /tmp/a.js")), ("REGION", Some("eu"))],
            vec![],
            None,
        ),
        (
            pod("", "    envFrom: [{configMapRef: {name: cfg}, prefix: APP_}]\n") + &cm("cfg", ci, loaders),
            vec![("APP_LD_PRELOAD", Some("/tmp/x.so")), ("APP_REGION", Some("eu"))],
            vec![],
            None,
        ),
        (
            cm("cfg", ci, loaders) + &pod("", "    envFrom: [{configMapRef: {name: cfg}}]\n    env: [{name: REGION, value: us}]\n"),
            vec![("REGION", Some("us")), ("LD_PRELOAD", Some("/tmp/x.so"))],
            vec![],
            None,
        ),
        (
            cm("cfg", ci, loaders) + &pod("", "    env:\n    - name: NODE_OPTIONS\n      valueFrom: {configMapKeyRef: {name: cfg, key: NODE_OPTIONS}}\n"),
            vec![("NODE_OPTIONS", Some("--require /tmp/a.js"))],
            vec![],
            None,
        ),
        (
            secret("keys", "stringData: {LD_PRELOAD: /tmp/x.so, AWS_SECRET_ACCESS_KEY: wJalrXUtnFEMIK7MDENGbPxRfiCYEXAMPLEKEY}") + &pod("", "    envFrom: [{secretRef: {name: keys}}]\n"),
            vec![("LD_PRELOAD", None), ("AWS_SECRET_ACCESS_KEY", None)],
            vec!["AWS_SECRET_ACCESS_KEY", "LD_PRELOAD"],
            None,
        ),
        (
            secret("keys", "data: {LD_PRELOAD: L3RtcC94LnNv}") + &pod("", "    env:\n    - name: LD_PRELOAD\n      valueFrom: {secretKeyRef: {name: keys, key: LD_PRELOAD}}\n"),
            vec![("LD_PRELOAD", None)],
            vec!["LD_PRELOAD"],
            None,
        ),
        // In a List, and in another file of the run (below).
        (
            format!("apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata: {{name: cfg, namespace: ci}}\n  data: {loaders}\n---\n") + &pod("", "    envFrom: [{configMapRef: {name: cfg}}]\n"),
            vec![("LD_PRELOAD", Some("/tmp/x.so"))],
            vec![],
            None,
        ),
        // Missing: refused at the reference, naming the object.
        (pod("", "    envFrom: [{configMapRef: {name: cfg}}]\n"), vec![], vec![], Some("ConfigMap `cfg`")),
        (pod("", "    envFrom: [{secretRef: {name: keys}}]\n"), vec![], vec![], Some("Secret `keys`")),
        (pod("", "    env:\n    - name: A\n      valueFrom: {secretKeyRef: {name: db, key: password}}\n"), vec![], vec![], Some("Secret `db`")),
        (pod("", "    env:\n    - name: A\n      valueFrom: {configMapKeyRef: {name: cfg, key: a}}\n"), vec![], vec![], Some("ConfigMap `cfg`")),
        (cm("cfg", ci, "{b: c}") + &pod("", "    env:\n    - name: A\n      valueFrom: {configMapKeyRef: {name: cfg, key: a}}\n"), vec![], vec![], Some("key `a`")),
        (pod("  volumes: [{name: v, configMap: {name: cfg}}]\n", "    volumeMounts: [{name: v, mountPath: /d}]\n"), vec![], vec![], Some("ConfigMap `cfg`")),
        (pod("  volumes: [{name: v, secret: {secretName: tls}}]\n", "    volumeMounts: [{name: v, mountPath: /d}]\n"), vec![], vec![], Some("Secret `tls`")),
        (pod("  volumes: [{name: v, projected: {sources: [{secret: {name: tls}}]}}]\n", "    volumeMounts: [{name: v, mountPath: /d}]\n"), vec![], vec![], Some("Secret `tls`")),
        (pod("  volumes: [{name: v, projected: {sources: [{configMap: {name: cfg}}]}}]\n", "    volumeMounts: [{name: v, mountPath: /d}]\n"), vec![], vec![], Some("ConfigMap `cfg`")),
        // Another namespace is another object.
        (cm("cfg", ", namespace: prod", loaders) + &pod("", "    envFrom: [{configMapRef: {name: cfg}}]\n"), vec![], vec![], Some("ConfigMap `cfg`")),
        // Optional and missing: the kubelet starts the container without it.
        (pod("", "    envFrom: [{configMapRef: {name: cfg, optional: true}}]\n"), vec![], vec![], None),
        (pod("", "    env:\n    - name: A\n      valueFrom: {secretKeyRef: {name: db, key: p, optional: true}}\n"), vec![], vec!["A"], None),
        (pod("  volumes: [{name: v, secret: {secretName: tls, optional: true}}]\n", "    volumeMounts: [{name: v, mountPath: /d}]\n"), vec![], vec![], None),
    ];
    let mut wrong = Vec::new();
    for (y, vars, creds, refusal) in &rows {
        match (first(y), refusal) {
            (Err(m), Some(words)) => {
                if !m.contains(words)
                    || !m.contains("not in")
                    || !m.starts_with(|c: char| c.is_ascii_digit())
                {
                    wrong.push(format!(
                        "refusal `{m}` does not name {words} at a line:\n{y}"
                    ));
                }
            }
            (Err(m), None) => wrong.push(format!("refused ({m}):\n{y}")),
            (Ok(_), Some(words)) => {
                wrong.push(format!("imported, want refused naming {words}:\n{y}"))
            }
            (Ok((v, _)), None) => {
                for (name, value) in vars {
                    let got = v.pointer(&format!("/environment/variables/{name}"));
                    let ok = match value {
                        Some(want) => got.and_then(|g| g.as_str()) == Some(*want),
                        None => got.is_some(),
                    };
                    if !ok {
                        wrong.push(format!("variable {name} is {got:?}, want {value:?}:\n{y}"));
                    }
                }
                let names: Vec<&str> = v
                    .pointer("/credentials")
                    .and_then(|c| c.as_array())
                    .map(|c| {
                        c.iter()
                            .filter_map(|c| c.get("name").and_then(|n| n.as_str()))
                            .collect()
                    })
                    .unwrap_or_default();
                for c in creds {
                    if !names.contains(c) {
                        wrong.push(format!("credential {c} missing ({names:?}):\n{y}"));
                    }
                }
            }
        }
    }
    // The code-loading variables a ConfigMap injects are judged.
    let y = cm("cfg", ci, loaders) + &pod("", "    envFrom: [{configMapRef: {name: cfg}}]\n");
    let found = audit(&y).unwrap_or_default();
    for var in ["LD_PRELOAD", "NODE_OPTIONS"] {
        if !found
            .iter()
            .any(|(r, s, p, _)| *r == "CMD009" && s.blocks() && p.ends_with(var))
        {
            wrong.push(format!("no blocking CMD009 for {var}"));
        }
    }
    // From another file of the run.
    let companions = crate::import::yaml::parse(cm("cfg", ci, loaders).as_bytes()).unwrap();
    let y = pod("", "    envFrom: [{configMapRef: {name: cfg}}]\n");
    match import_with(y.as_bytes(), &companions) {
        Ok(out) => {
            let v = profile(out.into_iter().next().unwrap().1);
            if v.pointer("/environment/variables/LD_PRELOAD").is_none() {
                wrong.push("a companion's ConfigMap is not read".into());
            }
        }
        Err(e) => wrong.push(format!("a companion's ConfigMap is not found: {e}")),
    }
    assert_none_wrong(&wrong, rows.len() + 3);
}

/// RBAC in the stream: a token of the pod's service account that can read
/// Secrets, exec into pods, create pods (directly or through a
/// controller) or escalate is critical; without such a grant in the
/// stream a mounted token stays where it was.
#[test]
fn rbac_grants_make_a_mounted_token_critical() {
    let sa = "  serviceAccountName: runner\n";
    let projected = "  volumes:\n  - name: tok\n    projected: {sources: [{serviceAccountToken: {path: token, expirationSeconds: 600}}]}\n";
    let mount = "    volumeMounts: [{name: tok, mountPath: /var/run/secrets/tokens}]\n";
    let with_token = pod(&format!("{sa}{projected}"), mount);
    let no_token = pod(sa, "");
    let secret_token = pod(
        &format!("{sa}  volumes: [{{name: tok, secret: {{secretName: t}}}}]\n"),
        mount,
    );
    let role = |kind: &str, rules: &str| {
        let ns = if kind == "Role" {
            ", namespace: ci"
        } else {
            ""
        };
        format!("apiVersion: rbac.authorization.k8s.io/v1\nkind: {kind}\nmetadata: {{name: r{ns}}}\nrules: {rules}\n---\n")
    };
    let binding = |kind: &str, role_kind: &str, role: &str, subject: &str| {
        let ns = if kind == "RoleBinding" {
            ", namespace: ci"
        } else {
            ""
        };
        format!("apiVersion: rbac.authorization.k8s.io/v1\nkind: {kind}\nmetadata: {{name: b{ns}}}\nroleRef: {{apiGroup: rbac.authorization.k8s.io, kind: {role_kind}, name: {role}}}\nsubjects: [{subject}]\n---\n")
    };
    let runner = "{kind: ServiceAccount, name: runner, namespace: ci}";
    let rb = |rules: &str| role("Role", rules) + &binding("RoleBinding", "Role", "r", runner);
    let crb = |rules: &str| {
        role("ClusterRole", rules) + &binding("ClusterRoleBinding", "ClusterRole", "r", runner)
    };
    // (objects, pod, critical)
    let rows: Vec<(String, &str, bool)> = vec![
        (rb("[{apiGroups: [''], resources: [secrets], verbs: [get]}]"), &with_token, true),
        (rb("[{apiGroups: [''], resources: [secrets], verbs: [list]}]"), &with_token, true),
        (rb("[{apiGroups: [''], resources: [secrets], resourceNames: [db], verbs: [get]}]"), &with_token, true),
        (crb("[{apiGroups: [''], resources: [secrets], verbs: [watch]}]"), &with_token, true),
        (rb("[{apiGroups: [''], resources: [pods/exec], verbs: [create]}]"), &with_token, true),
        (rb("[{apiGroups: [''], resources: [pods], verbs: [create]}]"), &with_token, true),
        (rb("[{apiGroups: [apps], resources: [deployments], verbs: [create]}]"), &with_token, true),
        (rb("[{apiGroups: [batch], resources: [jobs], verbs: [create]}]"), &with_token, true),
        (rb("[{apiGroups: [rbac.authorization.k8s.io], resources: [rolebindings], verbs: [create]}, {apiGroups: [rbac.authorization.k8s.io], resources: [clusterroles], verbs: [bind]}]"), &with_token, true),
        (rb("[{apiGroups: [rbac.authorization.k8s.io], resources: [roles], verbs: [escalate]}]"), &with_token, true),
        (rb("[{apiGroups: [''], resources: [serviceaccounts], verbs: [impersonate]}]"), &with_token, true),
        (rb("[{apiGroups: [''], resources: [configmaps], verbs: ['*']}]"), &with_token, true),
        (rb("[{apiGroups: ['*'], resources: ['*'], verbs: [get]}]"), &with_token, true),
        (rb("[{apiGroups: [''], resources: [configmaps, pods], verbs: [get, list]}]"), &with_token, false),
        (rb("[{apiGroups: [''], resources: [pods/log], verbs: [get]}]"), &with_token, false),
        // Built-in roles the API server creates, bound by name.
        (binding("ClusterRoleBinding", "ClusterRole", "admin", runner), &with_token, true),
        (binding("RoleBinding", "ClusterRole", "edit", runner), &with_token, true),
        (binding("ClusterRoleBinding", "ClusterRole", "cluster-admin", runner), &with_token, true),
        (binding("RoleBinding", "ClusterRole", "view", runner), &with_token, false),
        // Subjects: groups and user names of service accounts.
        (role("ClusterRole", "[{apiGroups: [''], resources: [secrets], verbs: [get]}]") + &binding("ClusterRoleBinding", "ClusterRole", "r", "{kind: Group, name: 'system:serviceaccounts', apiGroup: rbac.authorization.k8s.io}"), &with_token, true),
        (role("ClusterRole", "[{apiGroups: [''], resources: [secrets], verbs: [get]}]") + &binding("ClusterRoleBinding", "ClusterRole", "r", "{kind: Group, name: 'system:serviceaccounts:ci', apiGroup: rbac.authorization.k8s.io}"), &with_token, true),
        (role("ClusterRole", "[{apiGroups: [''], resources: [secrets], verbs: [get]}]") + &binding("ClusterRoleBinding", "ClusterRole", "r", "{kind: User, name: 'system:serviceaccount:ci:runner', apiGroup: rbac.authorization.k8s.io}"), &with_token, true),
        (role("Role", "[{apiGroups: [''], resources: [secrets], verbs: [get]}]") + &binding("RoleBinding", "Role", "r", "{kind: ServiceAccount, name: runner}"), &with_token, true),
        // An aggregated ClusterRole takes the rules of those it selects.
        (role("ClusterRole", "[{apiGroups: [''], resources: [secrets], verbs: [get]}]").replace("metadata: {name: r}", "metadata: {name: part, labels: {agg: 'true'}}") + &role("ClusterRole", "[]").replace("rules: []", "aggregationRule: {clusterRoleSelectors: [{matchLabels: {agg: 'true'}}]}\nrules: []") + &binding("ClusterRoleBinding", "ClusterRole", "r", runner), &with_token, true),
        (role("ClusterRole", "[{apiGroups: [''], resources: [secrets], verbs: [get]}]").replace("metadata: {name: r}", "metadata: {name: part, labels: {agg: 'no'}}") + &role("ClusterRole", "[]").replace("rules: []", "aggregationRule: {clusterRoleSelectors: [{matchLabels: {agg: 'true'}}]}\nrules: []") + &binding("ClusterRoleBinding", "ClusterRole", "r", runner), &with_token, false),
        // A Secret volume holding another account's long-lived token.
        (
            "apiVersion: v1\nkind: Secret\nmetadata: {name: t, namespace: ci, annotations: {kubernetes.io/service-account.name: deployer}}\ntype: kubernetes.io/service-account-token\n---\n".to_string()
                + &binding("ClusterRoleBinding", "ClusterRole", "cluster-admin", "{kind: ServiceAccount, name: deployer, namespace: ci}"),
            &secret_token,
            true,
        ),
        (
            "apiVersion: v1\nkind: Secret\nmetadata: {name: t, namespace: ci, annotations: {kubernetes.io/service-account.name: deployer}}\ntype: kubernetes.io/service-account-token\n---\n".to_string(),
            &secret_token,
            false,
        ),
        // Another account, another namespace, no token.
        (role("Role", "[{apiGroups: [''], resources: [secrets], verbs: [get]}]") + &binding("RoleBinding", "Role", "r", "{kind: ServiceAccount, name: other, namespace: ci}"), &with_token, false),
        (role("ClusterRole", "[{apiGroups: [''], resources: [secrets], verbs: [get]}]") + &binding("ClusterRoleBinding", "ClusterRole", "r", "{kind: ServiceAccount, name: runner, namespace: prod}"), &with_token, false),
        (binding("ClusterRoleBinding", "ClusterRole", "cluster-admin", runner), &no_token, false),
        (String::new(), &with_token, false),
    ];
    let mut wrong = Vec::new();
    for (objects, p, want) in &rows {
        let y = format!("{objects}{p}");
        match audit(&y) {
            Err(m) => wrong.push(format!("refused ({m}):\n{y}")),
            Ok(found) => {
                let critical: Vec<_> = found
                    .iter()
                    .filter(|f| f.1 == Severity::Critical)
                    .map(|f| (f.0, f.2.clone()))
                    .collect();
                if critical.is_empty() == *want {
                    wrong.push(format!("critical {critical:?}, want critical {want}:\n{y}"));
                }
            }
        }
    }
    assert_none_wrong(&wrong, rows.len());
}

/// Without a `seccompProfile` (pod or container) the kubelet runs the
/// container Unconfined unless its `seccompDefault` is on, which is off by
/// default: the profile says `unconfined`, and PRV007 weighs it high.
#[test]
fn a_pod_without_seccomp_runs_unconfined() {
    let rows: Vec<(String, &str)> = vec![
        (pod("", ""), "unconfined"),
        (pod("  securityContext: {seccompProfile: {type: RuntimeDefault}}\n", ""), "default"),
        (pod("", "    securityContext: {seccompProfile: {type: Localhost, localhostProfile: p.json}}\n"), "custom"),
        (pod("  securityContext: {seccompProfile: {type: Unconfined}}\n", ""), "unconfined"),
        (pod("  securityContext: {seccompProfile: {type: Unconfined}}\n", "    securityContext: {seccompProfile: {type: RuntimeDefault}}\n"), "default"),
        (pod("  securityContext: {runAsUser: 1000}\n", "    securityContext: {runAsUser: 1000}\n"), "unconfined"),
    ];
    let mut wrong = Vec::new();
    for (y, want) in &rows {
        let got = first(y).ok().and_then(|(v, _)| {
            v.pointer("/boundary/seccomp")
                .and_then(|s| s.as_str().map(str::to_string))
        });
        let high = audit(y)
            .unwrap_or_default()
            .iter()
            .any(|f| f.0 == "PRV007" && f.1 == Severity::High);
        if got.as_deref() != Some(*want) || high != (*want == "unconfined") {
            wrong.push(format!(
                "seccomp {got:?} (PRV007 high {high}), want {want}:\n{y}"
            ));
        }
    }
    // PRV007's severity follows tenancy: high for untrusted or unstated
    // code, medium for internal code.
    let fixed = crate::WORKSHOP_PROFILE_FIXED
        .replace(r#""seccomp": "default""#, r#""seccomp": "unconfined""#);
    let tenancy = [
        (r#""tenancy": "untrusted","#, Severity::High),
        (r#""tenancy": "internal","#, Severity::Medium),
        ("", Severity::High),
    ];
    for (t, want) in &tenancy {
        let p = fixed.replace(r#""tenancy": "internal","#, t);
        let r = crate::audit(
            p.as_bytes(),
            "t.json",
            &crate::Labels::workshop(),
            &Default::default(),
        )
        .unwrap();
        let got: Vec<_> = r
            .issues
            .iter()
            .filter(|f| f.rule == "PRV007")
            .map(|f| f.severity)
            .collect();
        if got != [*want] {
            wrong.push(format!("PRV007 {got:?} with `{t}`, want {want:?}"));
        }
    }
    assert_none_wrong(&wrong, rows.len() + tenancy.len());
}

/// A hint names the setting the file actually holds: the token's
/// automount, a Secret volume, the host namespace written, never a
/// setting that is not there.
#[test]
fn hints_name_what_the_file_holds() {
    let secret = "apiVersion: v1\nkind: Secret\nmetadata: {name: s, namespace: ci}\nstringData: {k: v}\n---\n";
    // (stream, rule, pointer prefix, words the hint must hold, words it must not)
    type Row = (
        String,
        &'static str,
        &'static str,
        &'static str,
        &'static [&'static str],
    );
    let token = pod("", "").replace("  automountServiceAccountToken: false\n", "");
    let rows: Vec<Row> = vec![
        (
            token.clone(),
            "MNT002",
            "/mounts/",
            "automountServiceAccountToken: false",
            &["hostPath"],
        ),
        (
            format!(
                "{secret}{}",
                pod(
                    "  volumes: [{name: v, secret: {secretName: s}}]\n",
                    "    volumeMounts: [{name: v, mountPath: /s}]\n"
                )
            ),
            "CRD003",
            "/credentials/",
            "secret",
            &["env`/`envFrom", "automountServiceAccountToken"],
        ),
        (
            format!(
                "{secret}{}",
                pod(
                    "",
                    "    env: [{name: A, valueFrom: {secretKeyRef: {name: s, key: k}}}]\n"
                )
            ),
            "CRD003",
            "/credentials/",
            "env",
            &["automountServiceAccountToken", "volume"],
        ),
        (
            pod(
                "  volumes: [{name: v, hostPath: {path: /srv}}]\n",
                "    volumeMounts: [{name: v, mountPath: /s}]\n",
            ),
            "MNT010",
            "/mounts/",
            "hostPath",
            &["automountServiceAccountToken"],
        ),
        (
            token.clone(),
            "PRV006",
            "/boundary/host_namespaces/",
            "hostUsers: false",
            &["privileged", "hostNetwork"],
        ),
        (
            pod("  hostPID: true\n", ""),
            "PRV006",
            "/boundary/host_namespaces/0",
            "hostPID",
            &["privileged", "hostUsers"],
        ),
        (
            token.clone(),
            "PRV007",
            "/boundary/seccomp",
            "seccompProfile",
            &["privileged: false", "hostNetwork"],
        ),
        (
            token.clone(),
            "PRV004",
            "/boundary/user",
            "runAsUser",
            &["privileged: false", "seccompProfile"],
        ),
        (
            token.clone(),
            "PRV005",
            "/boundary/no_new_privileges",
            "allowPrivilegeEscalation: false",
            &["privileged: false"],
        ),
        (
            token.clone(),
            "PRV008",
            "/boundary/read_only_root",
            "readOnlyRootFilesystem: true",
            &["privileged: false"],
        ),
        (
            token.clone(),
            "NET001",
            "/network",
            "NetworkPolicy",
            &["hostNetwork"],
        ),
        (
            pod("  hostNetwork: true\n", ""),
            "NET",
            "/network",
            "hostNetwork",
            &[],
        ),
        (
            token.clone(),
            "ISO005",
            "/boundary/runtime",
            "runtimeClassName",
            &["hostNetwork", "hostPID"],
        ),
        (
            pod(
                "  volumes: [{name: v, emptyDir: {}}]\n",
                "    volumeMounts: [{name: v, mountPath: /s, subPath: ../../etc}]\n",
            ),
            "MNT030",
            "/mounts/",
            "subPath",
            &["hostPath", "automountServiceAccountToken"],
        ),
        (
            pod(
                "  volumes: [{name: v, nfs: {server: n, path: /x}}]\n",
                "    volumeMounts: [{name: v, mountPath: /s}]\n",
            ),
            "MNT010",
            "/mounts/",
            "readOnly: true",
            &["hostPath", "automountServiceAccountToken"],
        ),
    ];
    let mut wrong = Vec::new();
    for (y, rule, ptr, must, must_not) in &rows {
        let found = match audit(y) {
            Ok(f) => f,
            Err(m) => {
                wrong.push(format!("refused ({m}):\n{y}"));
                continue;
            }
        };
        let hits: Vec<_> = found
            .iter()
            .filter(|f| f.0.starts_with(rule) && f.2.starts_with(ptr))
            .collect();
        if hits.is_empty() {
            wrong.push(format!("no {rule} at {ptr}:\n{y}"));
        }
        for (r, _, p, h) in hits {
            let h = h.unwrap_or("");
            if !h.contains(must) || must_not.iter().any(|w| h.contains(w)) {
                wrong.push(format!(
                    "{r} at {p}: hint `{h}` must hold `{must}` and none of {must_not:?}"
                ));
            }
        }
    }
    assert_none_wrong(&wrong, rows.len());
}
