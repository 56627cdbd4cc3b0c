//! The Compose keys the import knows (the Compose Specification's JSON
//! schema, which `docker compose` checks a file against before it runs
//! anything), with the type each must have and what the import does with
//! it.
//!
//! Where the schema allows a string for a boolean or a number (so that
//! `${VAR}` can stand there), the import still asks for the typed value,
//! except for the service's boolean fields compose-go casts from any
//! string (`privileged`, `read_only`, `init`, `oom_kill_disable`,
//! `stdin_open`, `tty`), which are read as it casts them before the walk;
//! any other string is refused rather than read as a default.

use crate::import::shape::{neutral, noted, read, Shape, Table, ANY_MAP, ANY_SEQ, MAPS, SCALARS};

const NAMING: &str = "a name or label; it grants nothing";
const LIFECYCLE: &str = "when the container starts, restarts or stops, not what it can reach";
const NO_EQUIVALENT: &str = "has no profile equivalent and is not audited";
const DNS: &str = "changes name resolution inside the container; the profile's `network.dns` is not derived from it";

pub const TOP: Table = Table {
    extensions: true,
    fields: &[
        neutral(
            "version",
            Shape::Scalar,
            "ignored by Compose (kept for old files)",
        ),
        neutral("name", Shape::Scalar, NAMING),
        // Read, with the files it names, before the file is walked
        // (`files::resolve`).
        read("include", ANY_SEQ),
        // Each service is walked against `SERVICE` in its own profile.
        read("services", Shape::Dict(&ANY_MAP)),
        read("networks", Shape::Dict(&Shape::Map(&NETWORK_DEF))),
        read("volumes", Shape::Dict(&Shape::Map(&VOLUME_DEF))),
        read("secrets", Shape::Dict(&Shape::Map(&SECRET_DEF))),
        read("configs", Shape::Dict(&Shape::Map(&CONFIG_DEF))),
        neutral(
            "models",
            Shape::Dict(&Shape::Any),
            "definitions only; a service that uses one gets a note there",
        ),
    ],
};

pub const SERVICE: Table = Table {
    extensions: true,
    fields: &[
        read("image", Shape::Scalar),
        read("build", Shape::MapOrScalar(&BUILD)),
        read("command", Shape::ScalarOrSeq),
        read("entrypoint", Shape::ScalarOrSeq),
        read("user", Shape::Scalar),
        read("privileged", Shape::Bool),
        read("cap_add", SCALARS),
        read("cap_drop", SCALARS),
        read("network_mode", Shape::Scalar),
        read("networks", Shape::Collection),
        read("pid", Shape::Scalar),
        read("ipc", Shape::Scalar),
        read("uts", Shape::Scalar),
        read("userns_mode", Shape::Scalar),
        read("read_only", Shape::Bool),
        read("security_opt", SCALARS),
        read("mem_limit", Shape::Scalar),
        noted("memswap_limit", Shape::Scalar, NO_EQUIVALENT),
        neutral(
            "mem_reservation",
            Shape::Scalar,
            "a reservation places the container; it limits nothing",
        ),
        read("pids_limit", Shape::Scalar),
        read("cpus", Shape::Scalar),
        noted("cpu_shares", Shape::Scalar, NO_EQUIVALENT),
        noted("cpu_quota", Shape::Scalar, NO_EQUIVALENT),
        noted("cpu_period", Shape::Scalar, NO_EQUIVALENT),
        noted("cpuset", Shape::Scalar, NO_EQUIVALENT),
        read("ulimits", Shape::Dict(&Shape::Any)),
        read("volumes", Shape::SeqOfMapOrScalar(&LONG_VOLUME)),
        read("volumes_from", SCALARS),
        read("tmpfs", Shape::ScalarOrSeq),
        read("devices", Shape::SeqOfMapOrScalar(&DEVICE)),
        read("environment", Shape::ListOrDict),
        read("env_file", Shape::Any),
        read("secrets", Shape::SeqOfMapOrScalar(&FILE_REF)),
        read("configs", Shape::SeqOfMapOrScalar(&FILE_REF)),
        read("runtime", Shape::Scalar),
        read("deploy", Shape::Map(&DEPLOY)),
        read("scale", Shape::Scalar),
        read("healthcheck", Shape::Map(&HEALTHCHECK)),
        read("extends", Shape::MapOrScalar(&EXTENDS)),
        neutral("profiles", SCALARS, "which `--profile` starts the service"),
        neutral("container_name", Shape::Scalar, NAMING),
        neutral("hostname", Shape::Scalar, NAMING),
        neutral("domainname", Shape::Scalar, NAMING),
        noted(
            "ports",
            ANY_SEQ,
            "publishes container ports on the host: other machines can reach the job",
        ),
        noted("expose", ANY_SEQ, NO_EQUIVALENT),
        neutral("depends_on", Shape::Collection, LIFECYCLE),
        neutral("labels", Shape::ListOrDict, NAMING),
        neutral(
            "logging",
            ANY_MAP,
            "where the engine sends the container's output",
        ),
        read("working_dir", Shape::Scalar),
        neutral("restart", Shape::Scalar, LIFECYCLE),
        read("stop_grace_period", Shape::Scalar),
        neutral("stop_signal", Shape::Scalar, LIFECYCLE),
        neutral(
            "init",
            Shape::Bool,
            "a small init process reaps the job's children; it runs with the job's own access",
        ),
        read("cgroup", Shape::Enum(&["host", "private"])),
        noted("cgroup_parent", Shape::Scalar, NO_EQUIVALENT),
        read("oom_kill_disable", Shape::Bool),
        read("oom_score_adj", Shape::Scalar),
        read("sysctls", Shape::ListOrDict),
        read("group_add", SCALARS),
        read("extra_hosts", Shape::ListOrDict),
        read("dns", Shape::ScalarOrSeq),
        noted("dns_search", Shape::ScalarOrSeq, DNS),
        noted("dns_opt", SCALARS, DNS),
        neutral("mac_address", Shape::Scalar, NAMING),
        neutral("platform", Shape::Scalar, "which image variant is pulled"),
        neutral(
            "pull_policy",
            Shape::Scalar,
            "when the image is pulled; the image is named by `image`",
        ),
        read("stdin_open", Shape::Bool),
        read("tty", Shape::Bool),
        neutral(
            "links",
            SCALARS,
            "names for other services on a shared network, which is read from `networks`",
        ),
        neutral(
            "external_links",
            SCALARS,
            "names for other containers on a shared network, which is read from `networks`",
        ),
        noted("shm_size", Shape::Scalar, NO_EQUIVALENT),
        noted("storage_opt", ANY_MAP, NO_EQUIVALENT),
        noted(
            "isolation",
            Shape::Scalar,
            "picks the Windows isolation technology (no profile equivalent)",
        ),
        neutral("annotations", Shape::ListOrDict, NAMING),
        neutral(
            "attach",
            Shape::Bool,
            "whether `docker compose up` shows the output",
        ),
        noted(
            "develop",
            Shape::Map(&DEVELOP),
            "used by `docker compose watch` only, a development loop; its `exec` hooks are audited as setup steps",
        ),
        read("device_cgroup_rules", SCALARS),
        read("gpus", Shape::Any),
        read("post_start", Shape::Seq(&Shape::Map(&HOOK))),
        read("pre_stop", Shape::Seq(&Shape::Map(&HOOK))),
        noted("models", Shape::Collection, NO_EQUIVALENT),
        noted("provider", ANY_MAP, NO_EQUIVALENT),
        noted("blkio_config", ANY_MAP, NO_EQUIVALENT),
        noted("cpu_count", Shape::Scalar, NO_EQUIVALENT),
        noted("cpu_percent", Shape::Scalar, NO_EQUIVALENT),
        noted("cpu_rt_runtime", Shape::Scalar, NO_EQUIVALENT),
        noted("cpu_rt_period", Shape::Scalar, NO_EQUIVALENT),
        noted("credential_spec", ANY_MAP, NO_EQUIVALENT),
        neutral("label_file", Shape::ScalarOrSeq, NAMING),
        noted("mem_swappiness", Shape::Scalar, NO_EQUIVALENT),
        read("use_api_socket", Shape::Bool),
    ],
};

const BUILD_KEY: &str = "part of `build`, which is noted as a whole";

const BUILD: Table = Table {
    extensions: true,
    fields: &[
        neutral("context", Shape::Scalar, BUILD_KEY),
        neutral("dockerfile", Shape::Scalar, BUILD_KEY),
        neutral("dockerfile_inline", Shape::Scalar, BUILD_KEY),
        neutral("entitlements", SCALARS, BUILD_KEY),
        neutral("args", Shape::ListOrDict, BUILD_KEY),
        neutral("ssh", Shape::Any, BUILD_KEY),
        neutral("labels", Shape::ListOrDict, BUILD_KEY),
        neutral("cache_from", SCALARS, BUILD_KEY),
        neutral("cache_to", SCALARS, BUILD_KEY),
        neutral("no_cache", Shape::Any, BUILD_KEY),
        neutral("additional_contexts", Shape::ListOrDict, BUILD_KEY),
        neutral("network", Shape::Scalar, BUILD_KEY),
        neutral("pull", Shape::Any, BUILD_KEY),
        neutral("target", Shape::Scalar, BUILD_KEY),
        neutral("shm_size", Shape::Scalar, BUILD_KEY),
        neutral("extra_hosts", Shape::ListOrDict, BUILD_KEY),
        neutral("isolation", Shape::Scalar, BUILD_KEY),
        neutral("privileged", Shape::Any, BUILD_KEY),
        neutral("secrets", ANY_SEQ, BUILD_KEY),
        neutral("tags", SCALARS, BUILD_KEY),
        neutral("ulimits", ANY_MAP, BUILD_KEY),
        neutral("platforms", SCALARS, BUILD_KEY),
    ],
};

pub const LONG_VOLUME: Table = Table {
    extensions: true,
    fields: &[
        read(
            "type",
            Shape::Enum(&["bind", "volume", "tmpfs", "cluster", "npipe", "image"]),
        ),
        read("source", Shape::Scalar),
        read("target", Shape::Scalar),
        read("read_only", Shape::Bool),
        read("bind", Shape::Map(&BIND)),
        neutral(
            "volume",
            ANY_MAP,
            "options of a Docker-managed volume, which is not a host path",
        ),
        neutral("tmpfs", ANY_MAP, "size and mode of private scratch memory"),
        neutral(
            "image",
            ANY_MAP,
            "a path inside an image, which is not a host path",
        ),
        neutral(
            "consistency",
            Shape::Scalar,
            "a caching hint of Docker Desktop",
        ),
    ],
};

const BIND: Table = Table {
    extensions: true,
    fields: &[
        read("propagation", Shape::Scalar),
        neutral(
            "create_host_path",
            Shape::Bool,
            "whether a missing source is created; the source is mounted either way",
        ),
        read("selinux", Shape::Enum(&["z", "Z"])),
        read(
            "recursive",
            Shape::Enum(&["enabled", "disabled", "writable", "readonly"]),
        ),
    ],
};

const DEVICE: Table = Table {
    extensions: true,
    fields: &[
        read("source", Shape::Scalar),
        neutral(
            "target",
            Shape::Scalar,
            "where the device appears in the container; the host device is `source`",
        ),
        neutral(
            "permissions",
            Shape::Scalar,
            "read, write or mknod on the device, which is granted either way",
        ),
    ],
};

const FILE_REF: Table = Table {
    extensions: true,
    fields: &[
        read("source", Shape::Scalar),
        read("target", Shape::Scalar),
        neutral("uid", Shape::Scalar, "the file's owner in the container"),
        neutral("gid", Shape::Scalar, "the file's group in the container"),
        neutral("mode", Shape::Scalar, "the file's mode in the container"),
    ],
};

pub const DEPLOY: Table = Table {
    extensions: true,
    fields: &[
        neutral(
            "mode",
            Shape::Scalar,
            "Swarm's placement mode; `docker compose` runs `replicas` copies",
        ),
        neutral(
            "endpoint_mode",
            Shape::Scalar,
            "how Swarm balances connections to the service",
        ),
        read("replicas", Shape::Scalar),
        neutral("labels", Shape::ListOrDict, NAMING),
        neutral("placement", ANY_MAP, "which Swarm node runs the service"),
        read("resources", Shape::Map(&DEPLOY_RESOURCES)),
        neutral("restart_policy", ANY_MAP, LIFECYCLE),
        neutral("rollback_config", ANY_MAP, LIFECYCLE),
        neutral("update_config", ANY_MAP, LIFECYCLE),
    ],
};

pub const DEPLOY_RESOURCES: Table = Table {
    extensions: true,
    fields: &[
        read("limits", Shape::Map(&DEPLOY_LIMITS)),
        read("reservations", Shape::Map(&DEPLOY_RESERVATIONS)),
    ],
};

pub const DEPLOY_LIMITS: Table = Table {
    extensions: true,
    fields: &[
        read("cpus", Shape::Scalar),
        read("memory", Shape::Scalar),
        read("pids", Shape::Scalar),
    ],
};

pub const DEPLOY_RESERVATIONS: Table = Table {
    extensions: true,
    fields: &[
        neutral(
            "cpus",
            Shape::Scalar,
            "a reservation places the container; it limits nothing",
        ),
        neutral(
            "memory",
            Shape::Scalar,
            "a reservation places the container; it limits nothing",
        ),
        noted(
            "generic_resources",
            ANY_SEQ,
            "Swarm generic resources (often GPUs) are reserved for the container; which devices it gets is the node's",
        ),
        read("devices", MAPS),
    ],
};

const HEALTHCHECK: Table = Table {
    extensions: true,
    fields: &[
        read("test", Shape::ScalarOrSeq),
        neutral(
            "disable",
            Shape::Bool,
            "turns the image's health check off; nothing runs",
        ),
        neutral("interval", Shape::Scalar, LIFECYCLE),
        neutral("retries", Shape::Scalar, LIFECYCLE),
        neutral("timeout", Shape::Scalar, LIFECYCLE),
        neutral("start_period", Shape::Scalar, LIFECYCLE),
        neutral("start_interval", Shape::Scalar, LIFECYCLE),
    ],
};

const EXTENDS: Table = Table {
    extensions: false,
    fields: &[read("service", Shape::Scalar), read("file", Shape::Scalar)],
};

pub const HOOK: Table = Table {
    extensions: true,
    fields: &[
        read("command", Shape::ScalarOrSeq),
        read("user", Shape::Scalar),
        read("privileged", Shape::Bool),
        noted(
            "working_dir",
            Shape::Scalar,
            "the hook's working directory is not mapped",
        ),
        noted(
            "environment",
            Shape::ListOrDict,
            "the hook's own variables are not mapped onto the profile's environment",
        ),
    ],
};

/// `develop`: what `docker compose watch` does when files change.
pub const DEVELOP: Table = Table {
    extensions: true,
    fields: &[read("watch", Shape::Seq(&Shape::Map(&WATCH)))],
};

const WATCHED: &str = "which host files `docker compose watch` follows and where it copies them; the container reaches none of the host's files through it";

/// One `develop.watch` rule.
pub const WATCH: Table = Table {
    extensions: true,
    fields: &[
        neutral("path", Shape::Scalar, WATCHED),
        neutral(
            "action",
            Shape::Enum(&["rebuild", "sync", "restart", "sync+restart", "sync+exec"]),
            WATCHED,
        ),
        neutral("target", Shape::Scalar, WATCHED),
        neutral("ignore", Shape::ScalarOrSeq, WATCHED),
        neutral("include", Shape::ScalarOrSeq, WATCHED),
        neutral("initial_sync", Shape::Bool, WATCHED),
        read("exec", Shape::Map(&HOOK)),
    ],
};

const DEFINITION: &str = "how the engine creates the object; what a service reaches through it is read from its other keys";

/// A network the file defines: only `internal` bounds egress, and a
/// network named `host` or `none` (`name`, `external.name`, or the key of
/// an external network) is the engine's own, read where the service
/// joins it.
pub const NETWORK_DEF: Table = Table {
    extensions: true,
    fields: &[
        read("internal", Shape::Bool),
        neutral(
            "external",
            Shape::Any,
            "a network made outside the file; its `internal` is not known, so it is read as not internal (a `host` or `none` one is read by its name)",
        ),
        neutral("driver", Shape::Scalar, DEFINITION),
        neutral("driver_opts", Shape::Dict(&Shape::Scalar), DEFINITION),
        neutral("attachable", Shape::Bool, DEFINITION),
        neutral("enable_ipv4", Shape::Bool, DEFINITION),
        neutral("enable_ipv6", Shape::Bool, DEFINITION),
        neutral("ipam", ANY_MAP, DEFINITION),
        neutral("labels", Shape::ListOrDict, NAMING),
        neutral(
            "name",
            Shape::Scalar,
            "the engine's name for it; only `host` and `none` change what the service reaches, and are read where it joins",
        ),
    ],
};

/// A named volume: the local driver's `o: bind` with a `device` is a
/// host directory.
pub const VOLUME_DEF: Table = Table {
    extensions: true,
    fields: &[
        read("driver_opts", Shape::Dict(&Shape::Scalar)),
        neutral(
            "driver",
            Shape::Scalar,
            "the volume's storage; it is a host path only through `driver_opts`, which is read",
        ),
        neutral(
            "external",
            Shape::Any,
            "a volume made outside the file; services that mount it are noted as using a named volume",
        ),
        neutral("labels", Shape::ListOrDict, NAMING),
        neutral("name", Shape::Scalar, NAMING),
    ],
};

/// A secret: where its value comes from.
pub const SECRET_DEF: Table = Table {
    extensions: true,
    fields: &[
        read("file", Shape::Scalar),
        read("environment", Shape::Scalar),
        read("external", Shape::Any),
        noted(
            "content",
            Shape::Scalar,
            "the secret's value is written in the Compose file itself",
        ),
        neutral("name", Shape::Scalar, NAMING),
        neutral("labels", Shape::ListOrDict, NAMING),
        neutral("driver", Shape::Scalar, DEFINITION),
        neutral("driver_opts", Shape::Dict(&Shape::Scalar), DEFINITION),
        neutral("template_driver", Shape::Scalar, DEFINITION),
    ],
};

/// A config: a file of the host bound into the container, or text the
/// engine writes there.
pub const CONFIG_DEF: Table = Table {
    extensions: true,
    fields: &[
        read("file", Shape::Scalar),
        read("environment", Shape::Scalar),
        read("content", Shape::Scalar),
        read("external", Shape::Any),
        neutral("name", Shape::Scalar, NAMING),
        neutral("labels", Shape::ListOrDict, NAMING),
        neutral("template_driver", Shape::Scalar, DEFINITION),
    ],
};
