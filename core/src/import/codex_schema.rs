//! The Codex `config.toml` keys the import knows, with the TOML type Codex
//! requires of each (it refuses to start with a wrong one) and what the
//! import does with it. A `[profiles.NAME]` table holds the same keys.

use super::schema::{neutral, noted, read, Shape, Table, ANY_MAP, TEXTS};

const MODEL: &str = "which model answers and how; it runs nothing on the machine";
const DISPLAY: &str = "what Codex shows or stores for the user; commands do not reach it";

pub const TOP: Table = Table {
    extensions: false,
    fields: &[
        read(
            "sandbox_mode",
            Shape::Enum(&["read-only", "workspace-write", "danger-full-access"]),
        ),
        read("sandbox_workspace_write", Shape::Map(&WORKSPACE_WRITE)),
        read("shell_environment_policy", Shape::Map(&ENV_POLICY)),
        read("approval_policy", Shape::Text),
        read("default_permissions", Shape::Text),
        read("permissions", Shape::Dict(&ANY_MAP)),
        read("profile", Shape::Text),
        // Each profile is walked against this table in its own profile.
        read("profiles", Shape::Dict(&ANY_MAP)),
        read("mcp_servers", Shape::Dict(&Shape::Map(&MCP_SERVER))),
        read("projects", Shape::Dict(&Shape::Map(&PROJECT))),
        read("notify", TEXTS),
        neutral("model", Shape::Text, MODEL),
        neutral("model_provider", Shape::Text, MODEL),
        neutral("model_providers", ANY_MAP, MODEL),
        neutral("model_reasoning_effort", Shape::Text, MODEL),
        neutral("model_reasoning_summary", Shape::Text, MODEL),
        neutral("model_verbosity", Shape::Text, MODEL),
        neutral("model_context_window", Shape::Int, MODEL),
        neutral("model_max_output_tokens", Shape::Int, MODEL),
        neutral("model_auto_compact_token_limit", Shape::Int, MODEL),
        neutral("review_model", Shape::Text, MODEL),
        neutral("history", ANY_MAP, DISPLAY),
        neutral("file_opener", Shape::Text, DISPLAY),
        neutral("tui", ANY_MAP, DISPLAY),
        neutral("hide_agent_reasoning", Shape::Bool, DISPLAY),
        neutral("show_raw_agent_reasoning", Shape::Bool, DISPLAY),
        neutral("disable_response_storage", Shape::Bool, MODEL),
        neutral("preferred_auth_method", Shape::Text, MODEL),
        neutral("forced_login_method", Shape::Text, MODEL),
        neutral("project_doc_max_bytes", Shape::Int, MODEL),
        neutral("instructions", Shape::Text, MODEL),
        neutral("chatgpt_base_url", Shape::Text, MODEL),
        neutral(
            "otel",
            ANY_MAP,
            "where Codex sends its own telemetry; commands do not reach it",
        ),
        noted(
            "features",
            ANY_MAP,
            "feature flags change what Codex itself can do (tools, network proxy); they are not audited",
        ),
        noted(
            "tools",
            ANY_MAP,
            "tools Codex offers the model (web search and others) act outside the sandbox; they are not audited",
        ),
        neutral("windows_wsl_setup_acknowledged", Shape::Bool, DISPLAY),
    ],
};

pub const WORKSPACE_WRITE: Table = Table {
    extensions: false,
    fields: &[
        read("writable_roots", TEXTS),
        read("network_access", Shape::Bool),
        read("exclude_tmpdir_env_var", Shape::Bool),
        read("exclude_slash_tmp", Shape::Bool),
    ],
};

pub const ENV_POLICY: Table = Table {
    extensions: false,
    fields: &[
        read("inherit", Shape::Enum(&["all", "core", "none"])),
        read("set", Shape::Dict(&Shape::Text)),
        read("exclude", TEXTS),
        read("include_only", TEXTS),
        read("ignore_default_excludes", Shape::Bool),
        noted(
            "experimental_use_profile",
            Shape::Bool,
            "commands run through the user's shell profile, which can set any variable",
        ),
    ],
};

pub const MCP_SERVER: Table = Table {
    extensions: false,
    fields: &[
        read("command", Shape::Text),
        read("args", TEXTS),
        read("env", Shape::Dict(&Shape::Text)),
        read("url", Shape::Text),
        noted(
            "cwd",
            Shape::Text,
            "the server's working directory is not mapped",
        ),
        noted(
            "env_vars",
            TEXTS,
            "these variables of the user's environment are passed to the server",
        ),
        noted(
            "bearer_token_env_var",
            Shape::Text,
            "the server is sent a token from the user's environment",
        ),
        noted(
            "http_headers",
            Shape::Dict(&Shape::Text),
            "headers sent to the server are not audited",
        ),
        noted(
            "env_http_headers",
            Shape::Dict(&Shape::Text),
            "headers filled from the user's environment are sent to the server",
        ),
        neutral(
            "enabled",
            Shape::Bool,
            "a disabled server is still audited as if it ran, the more dangerous reading",
        ),
        neutral(
            "startup_timeout_sec",
            Shape::Int,
            "how long Codex waits for the server",
        ),
        neutral(
            "tool_timeout_sec",
            Shape::Int,
            "how long Codex waits for a tool call",
        ),
        neutral(
            "enabled_tools",
            TEXTS,
            "which of the server's tools the model sees; the server runs either way",
        ),
        neutral(
            "disabled_tools",
            TEXTS,
            "which of the server's tools the model sees; the server runs either way",
        ),
    ],
};

pub const PROJECT: Table = Table {
    extensions: false,
    fields: &[read("trust_level", Shape::Enum(&["trusted", "untrusted"]))],
};
