//! The Kubernetes keys the import knows (core/v1 PodSpec, Container,
//! PodSecurityContext, SecurityContext, Volume, ObjectMeta), with the type
//! the API server requires of each and what the import does with it.
//!
//! A neutral key says why it has no effect on what the job can reach:
//! where and when the pod is scheduled, names, accounting, and how the
//! kubelet restarts or stops a container, which changes when it runs, not
//! what it can touch.

use crate::import::shape::{
    neutral, noted, read, Shape, Table, ANY_MAP, ANY_SEQ, INTS, MAPS, TEXTS,
};

/// String fields: the API server refuses a number or a boolean there
/// (`value: 8080`, `name: yes`), as YAML 1.1 reads them through kubectl.
const TEXT_MAP: Shape = Shape::Dict(&Shape::Text);
/// Resource quantities: a number or a string (`512Mi`, `0.5`, `2`).
const QUANTITIES: Shape = Shape::Dict(&Shape::Scalar);

const SCHEDULING: &str =
    "scheduling: it picks the node or the moment, not what the container can reach there";
const NAMING: &str = "a name or address of the pod; it grants nothing";
const FROM_NODE: &str = "the kubelet checks from the node; nothing runs in the container";
const LIFECYCLE: &str =
    "how the kubelet restarts or stops the container: when it runs, not what it can reach";

pub const POD_SPEC: Table = Table {
    extensions: false,
    fields: &[
        read("activeDeadlineSeconds", Shape::Int),
        neutral("affinity", ANY_MAP, SCHEDULING),
        read("automountServiceAccountToken", Shape::Bool),
        // Each container is walked against `CONTAINER` in its own profile.
        read("containers", MAPS),
        read("dnsConfig", Shape::Map(&DNS_CONFIG)),
        read(
            "dnsPolicy",
            Shape::Enum(&["ClusterFirst", "ClusterFirstWithHostNet", "Default", "None"]),
        ),
        neutral(
            "enableServiceLinks",
            Shape::Bool,
            "Service addresses as environment variables: names and ports, no access",
        ),
        read("ephemeralContainers", MAPS),
        read("hostAliases", Shape::Seq(&Shape::Map(&HOST_ALIAS))),
        read("hostIPC", Shape::Bool),
        read("hostNetwork", Shape::Bool),
        read("hostPID", Shape::Bool),
        read("hostUsers", Shape::Bool),
        neutral("hostname", Shape::Text, NAMING),
        neutral("hostnameOverride", Shape::Text, NAMING),
        neutral(
            "imagePullSecrets",
            MAPS,
            "the kubelet pulls the image with them; the container never sees them",
        ),
        read("initContainers", MAPS),
        neutral("nodeName", Shape::Text, SCHEDULING),
        neutral("nodeSelector", TEXT_MAP, SCHEDULING),
        neutral(
            "os",
            Shape::Map(&POD_OS),
            "the operating system the pod must run on; the API server checks the other fields against it",
        ),
        neutral(
            "overhead",
            QUANTITIES,
            "resources the RuntimeClass's sandbox costs: accounting, not a limit on the job",
        ),
        neutral("preemptionPolicy", Shape::Text, SCHEDULING),
        neutral("priority", Shape::Int, SCHEDULING),
        neutral("priorityClassName", Shape::Text, SCHEDULING),
        neutral("readinessGates", MAPS, SCHEDULING),
        noted(
            "resourceClaims",
            Shape::Seq(&Shape::Map(&POD_RESOURCE_CLAIM)),
            "devices allocated through dynamic resource allocation; the containers that list a claim in `resources.claims` get its devices, which the cluster's driver decides",
        ),
        noted(
            "resources",
            Shape::Map(&RESOURCES),
            "pod-level resources bound all containers together; each profile takes its limits from its own container",
        ),
        neutral("restartPolicy", Shape::Text, LIFECYCLE),
        read("runtimeClassName", Shape::Text),
        neutral("schedulerName", Shape::Text, SCHEDULING),
        neutral("schedulingGates", MAPS, SCHEDULING),
        read("securityContext", Shape::Map(&POD_SC)),
        noted(
            "serviceAccount",
            Shape::Text,
            "the roles bound to the ServiceAccount decide what its token can do; the Roles, ClusterRoles and bindings in this input are read, any others in the cluster are not",
        ),
        noted(
            "serviceAccountName",
            Shape::Text,
            "the roles bound to the ServiceAccount decide what its token can do; the Roles, ClusterRoles and bindings in this input are read, any others in the cluster are not",
        ),
        neutral("setHostnameAsFQDN", Shape::Bool, NAMING),
        read("shareProcessNamespace", Shape::Bool),
        neutral("subdomain", Shape::Text, NAMING),
        neutral("terminationGracePeriodSeconds", Shape::Int, LIFECYCLE),
        neutral("tolerations", MAPS, SCHEDULING),
        neutral("topologySpreadConstraints", MAPS, SCHEDULING),
        read("volumes", Shape::Seq(&Shape::Map(&VOLUME))),
    ],
};

const DNS_CONFIG: Table = Table {
    extensions: false,
    fields: &[
        read("nameservers", TEXTS),
        neutral(
            "searches",
            TEXTS,
            "search domains complete short names; the resolvers decide what answers",
        ),
        neutral(
            "options",
            MAPS,
            "resolver options (ndots, timeout); the resolvers decide what answers",
        ),
    ],
};

const HOST_ALIAS: Table = Table {
    extensions: false,
    fields: &[read("ip", Shape::Text), read("hostnames", TEXTS)],
};

const POD_OS: Table = Table {
    extensions: false,
    fields: &[read("name", Shape::Text)],
};

const POD_RESOURCE_CLAIM: Table = Table {
    extensions: false,
    fields: &[
        read("name", Shape::Text),
        read("resourceClaimName", Shape::Text),
        read("resourceClaimTemplateName", Shape::Text),
    ],
};

const RESOURCES: Table = Table {
    extensions: false,
    fields: &[
        read("limits", QUANTITIES),
        read("requests", QUANTITIES),
        read("claims", Shape::Seq(&Shape::Map(&CLAIM_REF))),
    ],
};

const CLAIM_REF: Table = Table {
    extensions: false,
    fields: &[read("name", Shape::Text), read("request", Shape::Text)],
};

pub const CONTAINER: Table = Table {
    extensions: false,
    fields: &[
        read("args", TEXTS),
        read("command", TEXTS),
        read("env", Shape::Seq(&Shape::Map(&ENV_VAR))),
        read("envFrom", Shape::Seq(&Shape::Map(&ENV_FROM))),
        read("image", Shape::Text),
        neutral(
            "imagePullPolicy",
            Shape::Text,
            "when the kubelet pulls the image; the image is named by `image`",
        ),
        read("lifecycle", Shape::Map(&LIFECYCLE_HOOKS)),
        read("livenessProbe", Shape::Map(&PROBE)),
        read("name", Shape::Text),
        read("ports", Shape::Seq(&Shape::Map(&PORT))),
        read("readinessProbe", Shape::Map(&PROBE)),
        neutral(
            "resizePolicy",
            MAPS,
            "whether resizing the container's resources restarts it",
        ),
        read("resources", Shape::Map(&RESOURCES)),
        read(
            "restartPolicy",
            Shape::Enum(&["Always", "OnFailure", "Never"]),
        ),
        neutral("restartPolicyRules", MAPS, LIFECYCLE),
        read("securityContext", Shape::Map(&CONTAINER_SC)),
        read("startupProbe", Shape::Map(&PROBE)),
        read("stdin", Shape::Bool),
        neutral(
            "stdinOnce",
            Shape::Bool,
            "whether stdin closes after the first attach; `stdin` decides whether it is open",
        ),
        read("targetContainerName", Shape::Text),
        neutral(
            "terminationMessagePath",
            Shape::Text,
            "a file inside the container the kubelet reads the exit message from",
        ),
        neutral(
            "terminationMessagePolicy",
            Shape::Text,
            "where the kubelet takes the exit message from",
        ),
        read("tty", Shape::Bool),
        read("volumeDevices", Shape::Seq(&Shape::Map(&VOLUME_DEVICE))),
        read("volumeMounts", Shape::Seq(&Shape::Map(&MOUNT))),
        read("workingDir", Shape::Text),
    ],
};

const ENV_VAR: Table = Table {
    extensions: false,
    fields: &[
        read("name", Shape::Text),
        read("value", Shape::Text),
        read("valueFrom", Shape::Map(&VALUE_FROM)),
    ],
};

const VALUE_FROM: Table = Table {
    extensions: false,
    fields: &[
        read("configMapKeyRef", ANY_MAP),
        read("fieldRef", ANY_MAP),
        read("resourceFieldRef", ANY_MAP),
        read("secretKeyRef", ANY_MAP),
        noted(
            "fileKeyRef",
            ANY_MAP,
            "the value is read from a file in a volume; it is not in the manifest",
        ),
    ],
};

const ENV_FROM: Table = Table {
    extensions: false,
    fields: &[
        read("configMapRef", ANY_MAP),
        read("secretRef", ANY_MAP),
        neutral(
            "prefix",
            Shape::Text,
            "a prefix for the imported variable names",
        ),
    ],
};

const LIFECYCLE_HOOKS: Table = Table {
    extensions: false,
    fields: &[
        read("postStart", Shape::Map(&HANDLER)),
        read("preStop", Shape::Map(&HANDLER)),
        neutral(
            "stopSignal",
            Shape::Text,
            "the signal that stops the container",
        ),
    ],
};

const HANDLER: Table = Table {
    extensions: false,
    fields: &[
        read("exec", Shape::Map(&EXEC)),
        neutral("httpGet", ANY_MAP, FROM_NODE),
        neutral("tcpSocket", ANY_MAP, FROM_NODE),
        neutral("grpc", ANY_MAP, FROM_NODE),
        neutral("sleep", ANY_MAP, "the kubelet waits; nothing runs"),
        neutral("initialDelaySeconds", Shape::Int, LIFECYCLE),
        neutral("periodSeconds", Shape::Int, LIFECYCLE),
        neutral("timeoutSeconds", Shape::Int, LIFECYCLE),
        neutral("successThreshold", Shape::Int, LIFECYCLE),
        neutral("failureThreshold", Shape::Int, LIFECYCLE),
        neutral("terminationGracePeriodSeconds", Shape::Int, LIFECYCLE),
    ],
};

/// A probe is a handler with timing.
const PROBE: Table = HANDLER;

const EXEC: Table = Table {
    extensions: false,
    fields: &[read("command", TEXTS)],
};

const PORT: Table = Table {
    extensions: false,
    fields: &[
        neutral(
            "containerPort",
            Shape::Int,
            "a port the container listens on inside the pod network",
        ),
        read("hostPort", Shape::Int),
        neutral(
            "hostIP",
            Shape::Text,
            "the node address a `hostPort` binds; the `hostPort` note covers the exposure",
        ),
        neutral("name", Shape::Text, NAMING),
        neutral("protocol", Shape::Text, "the protocol of the port it names"),
    ],
};

const VOLUME_DEVICE: Table = Table {
    extensions: false,
    fields: &[read("name", Shape::Text), read("devicePath", Shape::Text)],
};

pub const MOUNT: Table = Table {
    extensions: false,
    fields: &[
        read("name", Shape::Text),
        read("mountPath", Shape::Text),
        read("readOnly", Shape::Bool),
        read("subPath", Shape::Text),
        read("subPathExpr", Shape::Text),
        read(
            "mountPropagation",
            Shape::Enum(&["None", "HostToContainer", "Bidirectional"]),
        ),
        noted(
            "recursiveReadOnly",
            Shape::Text,
            "whether mounts below a read-only mount are read-only too is not mapped",
        ),
    ],
};

pub const POD_SC: Table = Table {
    extensions: false,
    fields: &[
        read("appArmorProfile", Shape::Map(&PROFILE_REF)),
        read("fsGroup", Shape::Int),
        neutral(
            "fsGroupChangePolicy",
            Shape::Text,
            "when the kubelet changes volume ownership to `fsGroup`, which is read itself",
        ),
        read("runAsGroup", Shape::Int),
        read("runAsNonRoot", Shape::Bool),
        read("runAsUser", Shape::Int),
        neutral(
            "seLinuxChangePolicy",
            Shape::Text,
            "how volumes are relabelled; the label itself is `seLinuxOptions`",
        ),
        read("seLinuxOptions", Shape::Map(&SELINUX)),
        read("seccompProfile", Shape::Map(&PROFILE_REF)),
        read("supplementalGroups", INTS),
        noted(
            "supplementalGroupsPolicy",
            Shape::Text,
            "with `Merge` (the default) the process also gets the groups the image's /etc/group gives its uid, which the manifest does not show",
        ),
        read("sysctls", Shape::Seq(&Shape::Map(&SYSCTL))),
        read("windowsOptions", Shape::Map(&WINDOWS)),
    ],
};

pub const CONTAINER_SC: Table = Table {
    extensions: false,
    fields: &[
        read("allowPrivilegeEscalation", Shape::Bool),
        read("appArmorProfile", Shape::Map(&PROFILE_REF)),
        read("capabilities", Shape::Map(&CAPABILITIES)),
        read("privileged", Shape::Bool),
        read("procMount", Shape::Text),
        read("readOnlyRootFilesystem", Shape::Bool),
        read("runAsGroup", Shape::Int),
        read("runAsNonRoot", Shape::Bool),
        read("runAsUser", Shape::Int),
        read("seLinuxOptions", Shape::Map(&SELINUX)),
        read("seccompProfile", Shape::Map(&PROFILE_REF)),
        read("windowsOptions", Shape::Map(&WINDOWS)),
    ],
};

const PROFILE_REF: Table = Table {
    extensions: false,
    fields: &[
        read(
            "type",
            Shape::Enum(&["RuntimeDefault", "Localhost", "Unconfined"]),
        ),
        neutral(
            "localhostProfile",
            Shape::Text,
            "the node's file holding the profile `type: Localhost` names; it is audited as custom",
        ),
    ],
};

const CAPABILITIES: Table = Table {
    extensions: false,
    fields: &[read("add", TEXTS), read("drop", TEXTS)],
};

const SELINUX: Table = Table {
    extensions: false,
    fields: &[
        read("type", Shape::Text),
        neutral(
            "user",
            Shape::Text,
            "the SELinux user; the type decides the confinement",
        ),
        neutral(
            "role",
            Shape::Text,
            "the SELinux role; the type decides the confinement",
        ),
        neutral(
            "level",
            Shape::Text,
            "the MCS level separates containers from each other; the type decides the confinement",
        ),
    ],
};

const WINDOWS: Table = Table {
    extensions: false,
    fields: &[
        read("hostProcess", Shape::Bool),
        noted(
            "runAsUserName",
            Shape::Text,
            "the Windows user the container runs as is not mapped to `boundary.user`",
        ),
        noted(
            "gmsaCredentialSpecName",
            Shape::Text,
            "a group Managed Service Account gives the container a domain identity",
        ),
        noted(
            "gmsaCredentialSpec",
            Shape::Text,
            "a group Managed Service Account gives the container a domain identity",
        ),
    ],
};

const SYSCTL: Table = Table {
    extensions: false,
    fields: &[read("name", Shape::Text), read("value", Shape::Text)],
};

/// A volume: its name and one source. The sources that are not a host
/// path, a Secret or a projected volume are read as "not a host path".
pub const VOLUME: Table = Table {
    extensions: false,
    fields: &[
        read("name", Shape::Text),
        read("hostPath", Shape::Map(&HOST_PATH)),
        read("secret", Shape::Map(&SECRET_VOLUME)),
        read("projected", Shape::Map(&PROJECTED)),
        read("awsElasticBlockStore", ANY_MAP),
        read("azureDisk", ANY_MAP),
        read("azureFile", ANY_MAP),
        read("cephfs", ANY_MAP),
        read("cinder", ANY_MAP),
        read("configMap", ANY_MAP),
        read("csi", ANY_MAP),
        read("downwardAPI", ANY_MAP),
        read("emptyDir", ANY_MAP),
        read("ephemeral", ANY_MAP),
        read("fc", ANY_MAP),
        read("flexVolume", ANY_MAP),
        read("flocker", ANY_MAP),
        read("gcePersistentDisk", ANY_MAP),
        read("gitRepo", ANY_MAP),
        read("glusterfs", ANY_MAP),
        read("image", ANY_MAP),
        read("iscsi", ANY_MAP),
        read("nfs", ANY_MAP),
        read("persistentVolumeClaim", ANY_MAP),
        read("photonPersistentDisk", ANY_MAP),
        read("portworxVolume", ANY_MAP),
        read("quobyte", ANY_MAP),
        read("rbd", ANY_MAP),
        read("scaleIO", ANY_MAP),
        read("storageos", ANY_MAP),
        read("vsphereVolume", ANY_MAP),
    ],
};

const HOST_PATH: Table = Table {
    extensions: false,
    fields: &[read("path", Shape::Text), read("type", Shape::Text)],
};

const SECRET_VOLUME: Table = Table {
    extensions: false,
    fields: &[
        read("secretName", Shape::Text),
        neutral(
            "items",
            MAPS,
            "which keys of the Secret become files; the Secret is counted whole",
        ),
        neutral(
            "defaultMode",
            Shape::Int,
            "the files' mode inside the container",
        ),
        neutral(
            "optional",
            Shape::Bool,
            "whether the pod starts without the Secret",
        ),
    ],
};

const PROJECTED: Table = Table {
    extensions: false,
    fields: &[
        read("sources", Shape::Seq(&Shape::Map(&PROJECTION))),
        neutral(
            "defaultMode",
            Shape::Int,
            "the files' mode inside the container",
        ),
    ],
};

const PROJECTION: Table = Table {
    extensions: false,
    fields: &[
        read("secret", ANY_MAP),
        read("serviceAccountToken", Shape::Map(&SA_TOKEN)),
        neutral(
            "configMap",
            ANY_MAP,
            "ConfigMap data as files: configuration, not a credential",
        ),
        neutral("downwardAPI", ANY_MAP, "the pod's own fields as files"),
        neutral(
            "clusterTrustBundle",
            ANY_MAP,
            "public CA certificates as files",
        ),
        noted(
            "podCertificate",
            ANY_MAP,
            "a private key and certificate for the pod are written into the volume",
        ),
    ],
};

const SA_TOKEN: Table = Table {
    extensions: false,
    fields: &[
        neutral(
            "audience",
            Shape::Text,
            "who accepts the token; the token is counted as a credential",
        ),
        read("expirationSeconds", Shape::Int),
        neutral("path", Shape::Text, "the token's file name in the volume"),
    ],
};

/// Object metadata. Labels select NetworkPolicies and annotations may
/// hold legacy settings; the rest identifies or tracks the object.
pub const METADATA: Table = Table {
    extensions: false,
    fields: &[
        read("name", Shape::Text),
        neutral(
            "generateName",
            Shape::Text,
            "a prefix for a generated name, used as the profile's name when there is no `name`",
        ),
        read("namespace", Shape::Text),
        neutral(
            "labels",
            TEXT_MAP,
            "labels act only through the NetworkPolicies that select them, which the import reads",
        ),
        neutral(
            "annotations",
            TEXT_MAP,
            "the annotations Kubernetes once read as security settings (seccomp, AppArmor) are read and noted; others are data for tools",
        ),
        neutral("uid", Shape::Text, NAMING),
        neutral("resourceVersion", Shape::Text, NAMING),
        neutral("generation", Shape::Int, NAMING),
        neutral("creationTimestamp", Shape::Text, NAMING),
        neutral("deletionTimestamp", Shape::Text, NAMING),
        neutral("deletionGracePeriodSeconds", Shape::Int, LIFECYCLE),
        neutral(
            "ownerReferences",
            MAPS,
            "which object owns this one, for garbage collection",
        ),
        neutral(
            "finalizers",
            TEXTS,
            "what must happen before the object is deleted",
        ),
        neutral("managedFields", ANY_SEQ, "which client wrote which field"),
        neutral("selfLink", Shape::Text, NAMING),
    ],
};

const CONTROLLER: &str =
    "how the controller rolls out, selects or keeps its pods; each pod has the access its template gives";

/// A pod template; its metadata and spec are walked on their own
/// (`METADATA`, `POD_SPEC`), once per workload.
const TEMPLATE: Table = Table {
    extensions: false,
    fields: &[read("metadata", ANY_MAP), read("spec", ANY_MAP)],
};

/// A Job's spec (batch/v1 JobSpec).
pub const JOB_SPEC: Table = Table {
    extensions: false,
    fields: &[
        read("activeDeadlineSeconds", Shape::Int),
        read("backoffLimit", Shape::Int),
        neutral(
            "backoffLimitPerIndex",
            Shape::Int,
            "retries of one index; every retry has the same access",
        ),
        neutral("completionMode", Shape::Text, CONTROLLER),
        neutral("completions", Shape::Int, CONTROLLER),
        neutral("managedBy", Shape::Text, CONTROLLER),
        neutral("manualSelector", Shape::Bool, CONTROLLER),
        neutral("maxFailedIndexes", Shape::Int, CONTROLLER),
        read("parallelism", Shape::Int),
        neutral("podFailurePolicy", ANY_MAP, CONTROLLER),
        neutral("podReplacementPolicy", Shape::Text, CONTROLLER),
        neutral("selector", ANY_MAP, CONTROLLER),
        neutral("successPolicy", ANY_MAP, CONTROLLER),
        neutral("suspend", Shape::Bool, CONTROLLER),
        read("template", Shape::Map(&TEMPLATE)),
        read("ttlSecondsAfterFinished", Shape::Int),
    ],
};

const JOB_TEMPLATE: Table = Table {
    extensions: false,
    fields: &[
        neutral("metadata", ANY_MAP, "the metadata of the Jobs it creates"),
        read("spec", Shape::Map(&JOB_SPEC)),
    ],
};

/// A CronJob's spec (batch/v1 CronJobSpec).
pub const CRONJOB_SPEC: Table = Table {
    extensions: false,
    fields: &[
        read(
            "concurrencyPolicy",
            Shape::Enum(&["Allow", "Forbid", "Replace"]),
        ),
        neutral("failedJobsHistoryLimit", Shape::Int, CONTROLLER),
        read("jobTemplate", Shape::Map(&JOB_TEMPLATE)),
        neutral("schedule", Shape::Text, SCHEDULING),
        neutral("startingDeadlineSeconds", Shape::Int, SCHEDULING),
        neutral("successfulJobsHistoryLimit", Shape::Int, CONTROLLER),
        neutral("suspend", Shape::Bool, SCHEDULING),
        neutral("timeZone", Shape::Text, SCHEDULING),
    ],
};

/// The spec of a Deployment, StatefulSet, DaemonSet, ReplicaSet or
/// ReplicationController (the keys of all of them).
pub const CONTROLLER_SPEC: Table = Table {
    extensions: false,
    fields: &[
        read("replicas", Shape::Int),
        read("template", Shape::Map(&TEMPLATE)),
        neutral("selector", ANY_MAP, CONTROLLER),
        neutral("strategy", ANY_MAP, CONTROLLER),
        neutral("updateStrategy", ANY_MAP, CONTROLLER),
        neutral("minReadySeconds", Shape::Int, CONTROLLER),
        neutral("revisionHistoryLimit", Shape::Int, CONTROLLER),
        neutral("paused", Shape::Bool, CONTROLLER),
        neutral("progressDeadlineSeconds", Shape::Int, CONTROLLER),
        neutral("serviceName", Shape::Text, NAMING),
        neutral(
            "volumeClaimTemplates",
            MAPS,
            "claims of cluster storage per pod; a pod mounts them through `volumes`, which are read",
        ),
        neutral("podManagementPolicy", Shape::Text, CONTROLLER),
        neutral(
            "persistentVolumeClaimRetentionPolicy",
            ANY_MAP,
            CONTROLLER,
        ),
        neutral("ordinals", ANY_MAP, NAMING),
    ],
};
