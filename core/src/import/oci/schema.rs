//! The OCI runtime-spec keys the import knows (`config.json` for Linux),
//! with the JSON type runc and crun require of each (Go's decoder refuses
//! a string where a number belongs) and what the import does with it.

use crate::import::shape::{
    neutral, noted, read, Shape, Table, ANY_MAP, ANY_SEQ, INTS, MAPS, TEXTS,
};

const NO_EQUIVALENT: &str = "has no profile equivalent";

pub const ROOT: Table = Table {
    extensions: false,
    fields: &[
        neutral(
            "ociVersion",
            Shape::Text,
            "the version of the specification the file follows",
        ),
        read("process", Shape::Map(&PROCESS)),
        read("root", Shape::Map(&ROOT_FS)),
        read("hostname", Shape::Text),
        read("domainname", Shape::Text),
        read("mounts", Shape::Seq(&Shape::Map(&MOUNT))),
        read("hooks", Shape::Map(&HOOKS)),
        read("annotations", Shape::Dict(&Shape::Text)),
        read("linux", Shape::Map(&LINUX)),
        noted(
            "windows",
            ANY_MAP,
            "Windows settings; this import maps the Linux ones",
        ),
        noted(
            "solaris",
            ANY_MAP,
            "Solaris settings; this import maps the Linux ones",
        ),
        noted(
            "zos",
            ANY_MAP,
            "z/OS settings; this import maps the Linux ones",
        ),
        noted(
            "vm",
            ANY_MAP,
            "the container runs in a virtual machine whose hypervisor, kernel and image are not audited",
        ),
    ],
};

pub const PROCESS: Table = Table {
    extensions: false,
    fields: &[
        read("terminal", Shape::Bool),
        noted("consoleSize", ANY_MAP, NO_EQUIVALENT),
        read("user", Shape::Map(&USER)),
        read("args", TEXTS),
        read("commandLine", Shape::Text),
        read("env", TEXTS),
        read("cwd", Shape::Text),
        read("capabilities", Shape::Map(&CAPABILITIES)),
        read("rlimits", Shape::Seq(&Shape::Map(&RLIMIT))),
        read("apparmorProfile", Shape::Text),
        read("selinuxLabel", Shape::Text),
        read("noNewPrivileges", Shape::Bool),
        read("oomScoreAdj", Shape::Int),
        noted("scheduler", ANY_MAP, NO_EQUIVALENT),
        noted("ioPriority", ANY_MAP, NO_EQUIVALENT),
        noted("execCPUAffinity", ANY_MAP, NO_EQUIVALENT),
    ],
};

pub const USER: Table = Table {
    extensions: false,
    fields: &[
        read("uid", Shape::Int),
        read("gid", Shape::Int),
        neutral(
            "umask",
            Shape::Int,
            "the mode mask of files the process creates",
        ),
        read("additionalGids", INTS),
        read("username", Shape::Text),
    ],
};

const CAPABILITIES: Table = Table {
    extensions: false,
    fields: &[
        read("bounding", TEXTS),
        read("effective", TEXTS),
        read("permitted", TEXTS),
        read("inheritable", TEXTS),
        read("ambient", TEXTS),
    ],
};

const RLIMIT: Table = Table {
    extensions: false,
    fields: &[
        read("type", Shape::Text),
        read("hard", Shape::Int),
        neutral(
            "soft",
            Shape::Int,
            "the process can raise its soft limit up to the hard one, which is read",
        ),
    ],
};

const ROOT_FS: Table = Table {
    extensions: false,
    fields: &[read("path", Shape::Text), read("readonly", Shape::Bool)],
};

pub const MOUNT: Table = Table {
    extensions: false,
    fields: &[
        read("destination", Shape::Text),
        read("source", Shape::Text),
        read("type", Shape::Text),
        read("options", TEXTS),
        noted(
            "uidMappings",
            MAPS,
            "an id-mapped mount; the mapping is not audited",
        ),
        noted(
            "gidMappings",
            MAPS,
            "an id-mapped mount; the mapping is not audited",
        ),
    ],
};

const HOOK_LIST: Shape = Shape::Seq(&Shape::Map(&HOOK));

const HOOKS: Table = Table {
    extensions: false,
    fields: &[
        read("prestart", HOOK_LIST),
        read("createRuntime", HOOK_LIST),
        read("createContainer", HOOK_LIST),
        read("startContainer", HOOK_LIST),
        read("poststart", HOOK_LIST),
        read("poststop", HOOK_LIST),
    ],
};

const HOOK: Table = Table {
    extensions: false,
    fields: &[
        read("path", Shape::Text),
        read("args", TEXTS),
        noted("env", TEXTS, "the hook's environment is not audited"),
        neutral(
            "timeout",
            Shape::Int,
            "how long the runtime waits for the hook",
        ),
    ],
};

pub const LINUX: Table = Table {
    extensions: false,
    fields: &[
        read("namespaces", Shape::Seq(&Shape::Map(&NAMESPACE))),
        noted("uidMappings", MAPS, NO_EQUIVALENT),
        noted("gidMappings", MAPS, NO_EQUIVALENT),
        noted("timeOffsets", ANY_MAP, NO_EQUIVALENT),
        read("devices", Shape::Seq(&Shape::Map(&DEVICE))),
        read("netDevices", ANY_MAP),
        noted("cgroupsPath", Shape::Text, NO_EQUIVALENT),
        noted("rootfsPropagation", Shape::Text, NO_EQUIVALENT),
        read("resources", Shape::Map(&RESOURCES)),
        read("seccomp", Shape::Map(&SECCOMP)),
        read("sysctl", Shape::Dict(&Shape::Text)),
        read("maskedPaths", TEXTS),
        read("readonlyPaths", TEXTS),
        noted("mountLabel", Shape::Text, NO_EQUIVALENT),
        noted("intelRdt", ANY_MAP, NO_EQUIVALENT),
        noted("personality", ANY_MAP, NO_EQUIVALENT),
        noted("memoryPolicy", ANY_MAP, NO_EQUIVALENT),
    ],
};

const NAMESPACE: Table = Table {
    extensions: false,
    fields: &[
        read(
            "type",
            Shape::Enum(&[
                "pid", "network", "mount", "ipc", "uts", "user", "cgroup", "time",
            ]),
        ),
        read("path", Shape::Text),
    ],
};

const DEVICE_NODE: &str = "the device node is counted by its path";

const DEVICE: Table = Table {
    extensions: false,
    fields: &[
        read("path", Shape::Text),
        neutral("type", Shape::Text, DEVICE_NODE),
        neutral("major", Shape::Int, DEVICE_NODE),
        neutral("minor", Shape::Int, DEVICE_NODE),
        neutral("fileMode", Shape::Int, DEVICE_NODE),
        neutral("uid", Shape::Int, DEVICE_NODE),
        neutral("gid", Shape::Int, DEVICE_NODE),
    ],
};

pub const RESOURCES: Table = Table {
    extensions: false,
    fields: &[
        read("memory", Shape::Map(&MEMORY)),
        read("pids", Shape::Map(&PIDS)),
        read("cpu", ANY_MAP),
        read("devices", Shape::Seq(&Shape::Map(&DEVICE_RULE))),
        noted("blockIO", ANY_MAP, NO_EQUIVALENT),
        noted("hugepageLimits", ANY_SEQ, NO_EQUIVALENT),
        noted("network", ANY_MAP, NO_EQUIVALENT),
        noted("rdma", ANY_MAP, NO_EQUIVALENT),
        noted(
            "unified",
            Shape::Dict(&Shape::Text),
            "cgroup v2 files are written as given; they can set or lift any limit, and are not audited",
        ),
    ],
};

const MEMORY: Table = Table {
    extensions: false,
    fields: &[
        read("limit", Shape::Int),
        neutral(
            "reservation",
            Shape::Int,
            "a soft target under memory pressure; `limit` is the bound",
        ),
        read("swap", Shape::Int),
        noted("kernel", Shape::Int, NO_EQUIVALENT),
        noted("kernelTCP", Shape::Int, NO_EQUIVALENT),
        noted("swappiness", Shape::Int, NO_EQUIVALENT),
        noted(
            "disableOOMKiller",
            Shape::Bool,
            "with the OOM killer off, a process at the memory limit waits instead of being killed",
        ),
        neutral(
            "useHierarchy",
            Shape::Bool,
            "cgroup v1 accounting of child groups",
        ),
        neutral(
            "checkBeforeUpdate",
            Shape::Bool,
            "a check when the limit is changed later",
        ),
    ],
};

const PIDS: Table = Table {
    extensions: false,
    fields: &[read("limit", Shape::Int)],
};

const DEVICE_RULE: Table = Table {
    extensions: false,
    fields: &[
        read("allow", Shape::Bool),
        read("type", Shape::Text),
        read("major", Shape::Int),
        read("minor", Shape::Int),
        neutral(
            "access",
            Shape::Text,
            "read, write or mknod on the device, which is granted either way",
        ),
    ],
};

const SECCOMP: Table = Table {
    extensions: false,
    fields: &[
        read("defaultAction", Shape::Text),
        neutral(
            "defaultErrnoRet",
            Shape::Int,
            "the error a refused system call returns",
        ),
        neutral(
            "architectures",
            TEXTS,
            "which system call tables the filter covers",
        ),
        noted("flags", TEXTS, "seccomp flags are not audited"),
        noted(
            "listenerPath",
            Shape::Text,
            "a seccomp agent outside the container decides some system calls; what it allows is not in the file",
        ),
        neutral(
            "listenerMetadata",
            Shape::Text,
            "data passed to the seccomp agent",
        ),
        read("syscalls", MAPS),
    ],
};
