//! The sandbox-runtime (`srt`) and Claude Code settings keys the import
//! knows, with the JSON type each tool requires and what the import does
//! with it.

use crate::import::shape::{neutral, noted, read, Shape, Table, ANY_MAP, TEXTS};

const APP: &str = "how Claude Code itself looks or talks to its service; commands do not reach it";
const OUTSIDE: &str =
    "runs a command outside the sandbox, with the user's full access; it is not audited";

pub const CLAUDE_TOP: Table = Table {
    extensions: false,
    fields: &[
        neutral(
            "$schema",
            Shape::Text,
            "the schema an editor checks the file with",
        ),
        read("permissions", Shape::Map(&PERMISSIONS)),
        read("env", Shape::Dict(&Shape::Text)),
        read("sandbox", Shape::Map(&CLAUDE_SANDBOX)),
        noted(
            "hooks",
            ANY_MAP,
            "hooks run commands outside the sandbox on Claude Code's events; they are not audited",
        ),
        noted("apiKeyHelper", Shape::Text, OUTSIDE),
        noted("awsAuthRefresh", Shape::Text, OUTSIDE),
        noted("awsCredentialExport", Shape::Text, OUTSIDE),
        noted("otelHeadersHelper", Shape::Text, OUTSIDE),
        noted(
            "statusLine",
            ANY_MAP,
            "the status line command runs outside the sandbox; it is not audited",
        ),
        noted(
            "enableAllProjectMcpServers",
            Shape::Bool,
            "every MCP server a project's .mcp.json names is started outside the sandbox",
        ),
        noted(
            "enabledMcpjsonServers",
            TEXTS,
            "these MCP servers of a project's .mcp.json are started outside the sandbox",
        ),
        neutral(
            "disabledMcpjsonServers",
            TEXTS,
            "servers that are not started",
        ),
        neutral("disableAllHooks", Shape::Bool, "turns hooks off"),
        neutral("model", Shape::Text, APP),
        neutral("outputStyle", Shape::Text, APP),
        neutral("cleanupPeriodDays", Shape::Int, APP),
        neutral("includeCoAuthoredBy", Shape::Bool, APP),
        neutral("forceLoginMethod", Shape::Text, APP),
        neutral("forceLoginOrgUUID", Shape::Text, APP),
        neutral("spinnerTipsEnabled", Shape::Bool, APP),
        neutral("alwaysThinkingEnabled", Shape::Bool, APP),
        neutral("companyAnnouncements", TEXTS, APP),
    ],
};

pub const PERMISSIONS: Table = Table {
    extensions: false,
    fields: &[
        read("allow", TEXTS),
        read("deny", TEXTS),
        neutral(
            "ask",
            TEXTS,
            "which tool uses prompt first; the sandbox bounds the commands either way",
        ),
        read("additionalDirectories", TEXTS),
        read("defaultMode", Shape::Text),
        neutral(
            "disableBypassPermissionsMode",
            Shape::Text,
            "forbids `bypassPermissions`, which is read from `defaultMode`",
        ),
    ],
};

pub const CLAUDE_SANDBOX: Table = Table {
    extensions: false,
    fields: &[
        read("enabled", Shape::Bool),
        neutral(
            "autoAllowBashIfSandboxed",
            Shape::Bool,
            "whether sandboxed commands prompt first; the sandbox bounds them either way",
        ),
        read("excludedCommands", TEXTS),
        read("allowUnsandboxedCommands", Shape::Bool),
        read("filesystem", Shape::Map(&FILESYSTEM)),
        read("network", Shape::Map(&NETWORK)),
        noted(
            "ignoreViolations",
            ANY_MAP,
            "violations of these rules are not reported; they are still blocked",
        ),
        read("enableWeakerNestedSandbox", Shape::Bool),
        read("enableWeakerNetworkIsolation", Shape::Bool),
    ],
};

/// sandbox-runtime's `SandboxRuntimeConfigSchema` (src/sandbox/
/// sandbox-config.ts at anthropic-experimental/sandbox-runtime commit
/// d35b8136407c6b7d0fa744a5b9140f51eb50e1b4), with
/// `enableWeakerNetworkIsolation` of the releases after it.
pub const SRT_TOP: Table = Table {
    extensions: false,
    fields: &[
        read("filesystem", Shape::Map(&FILESYSTEM)),
        read("network", Shape::Map(&NETWORK)),
        noted(
            "ignoreViolations",
            ANY_MAP,
            "violations of these rules are not reported; they are still blocked",
        ),
        read("enableWeakerNestedSandbox", Shape::Bool),
        read("enableWeakerNetworkIsolation", Shape::Bool),
        noted(
            "ripgrep",
            Shape::Map(&RIPGREP),
            "the program the sandbox runs, outside it, to find files to protect; it is not audited",
        ),
        neutral(
            "mandatoryDenySearchDepth",
            Shape::Int,
            "how deep the sandbox looks for files it always protects (Linux)",
        ),
        read("allowPty", Shape::Bool),
        read("allowAppleEvents", Shape::Bool),
    ],
};

pub const RIPGREP: Table = Table {
    extensions: false,
    fields: &[
        neutral("command", Shape::Text, "see `ripgrep`"),
        neutral("args", TEXTS, "see `ripgrep`"),
    ],
};

pub const FILESYSTEM: Table = Table {
    extensions: false,
    fields: &[
        read("denyRead", TEXTS),
        read("allowRead", TEXTS),
        read("allowWrite", TEXTS),
        read("denyWrite", TEXTS),
        read("allowGitConfig", Shape::Bool),
        read("disabled", Shape::Bool),
    ],
};

pub const NETWORK: Table = Table {
    extensions: false,
    fields: &[
        read("allowedDomains", TEXTS),
        read("deniedDomains", TEXTS),
        read("allowUnixSockets", TEXTS),
        read("allowAllUnixSockets", Shape::Bool),
        read("allowLocalBinding", Shape::Bool),
        read("httpProxyPort", Shape::Int),
        read("socksProxyPort", Shape::Int),
    ],
};
