//! The Codex `config.toml` keys the import knows, with the TOML type Codex
//! requires of each (it refuses to start with a wrong one) and what the
//! import does with it. A `[profiles.NAME]` table holds the same keys.

use crate::import::shape::{neutral, noted, read, Shape, Table, ANY_MAP, TEXTS};

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
        // A word, or `{ granular = { ... } }`.
        read("approval_policy", Shape::Any),
        noted(
            "approvals_reviewer",
            Shape::Enum(&["user", "auto_review", "guardian_subagent"]),
            "who reviews a request to leave the sandbox; with `auto_review` a model approves it in the user's place",
        ),
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
        // The rest of `ConfigToml` in codex-rs/core/config.schema.json at
        // openai/codex commit 000c857ecc17e5ab40a985bdaa40816450ee5ebf.
        noted(
            "hooks",
            ANY_MAP,
            "hooks run commands outside the sandbox on Codex's events; they are not audited",
        ),
        noted(
            "plugins",
            ANY_MAP,
            "plugins bring MCP servers, hooks and skills that run outside the sandbox; they are not audited",
        ),
        noted(
            "marketplaces",
            ANY_MAP,
            "plugin marketplaces are fetched and their plugins installed by Codex; they are not audited",
        ),
        noted(
            "apps",
            ANY_MAP,
            "apps (connectors) act for the user outside the sandbox; they are not audited",
        ),
        noted(
            "skills",
            ANY_MAP,
            "skills add instructions and scripts the model may run; they are not audited",
        ),
        noted(
            "experimental_thread_config_endpoint",
            Shape::Text,
            "settings fetched from this service can change the sandbox; they are not in this file",
        ),
        noted(
            "windows",
            ANY_MAP,
            "the Windows sandbox settings are not mapped",
        ),
        neutral(
            "allow_login_shell",
            Shape::Bool,
            "whether the shell reads the user's login scripts; inside the sandbox either way",
        ),
        neutral("agents", ANY_MAP, MODEL),
        neutral("analytics", ANY_MAP, DISPLAY),
        neutral("apps_mcp_product_sku", Shape::Text, MODEL),
        neutral("audio", ANY_MAP, DISPLAY),
        neutral("auto_review", ANY_MAP, MODEL),
        neutral("background_terminal_max_timeout", Shape::Int, MODEL),
        neutral("check_for_update_on_startup", Shape::Bool, DISPLAY),
        neutral("cli_auth_credentials_store", Shape::Text, DISPLAY),
        neutral("compact_prompt", Shape::Text, MODEL),
        neutral("debug", ANY_MAP, DISPLAY),
        neutral("desktop", ANY_MAP, DISPLAY),
        neutral("developer_instructions", Shape::Text, MODEL),
        neutral("disable_paste_burst", Shape::Bool, DISPLAY),
        neutral("experimental_compact_prompt_file", Shape::Text, MODEL),
        neutral("experimental_realtime_start_instructions", Shape::Text, MODEL),
        neutral("experimental_realtime_ws_backend_prompt", Shape::Text, MODEL),
        neutral("experimental_realtime_ws_base_url", Shape::Text, MODEL),
        neutral("experimental_realtime_ws_model", Shape::Text, MODEL),
        neutral("experimental_realtime_ws_startup_context", Shape::Text, MODEL),
        neutral("experimental_thread_store", ANY_MAP, DISPLAY),
        neutral("experimental_use_unified_exec_tool", Shape::Bool, MODEL),
        neutral("feedback", ANY_MAP, DISPLAY),
        neutral("forced_chatgpt_workspace_id", Shape::Any, MODEL),
        neutral("ghost_snapshot", ANY_MAP, DISPLAY),
        neutral("include_apps_instructions", Shape::Bool, MODEL),
        neutral("include_collaboration_mode_instructions", Shape::Bool, MODEL),
        neutral("include_environment_context", Shape::Bool, MODEL),
        neutral("include_permissions_instructions", Shape::Bool, MODEL),
        neutral("log_dir", Shape::Text, DISPLAY),
        neutral("mcp_oauth_callback_port", Shape::Int, MODEL),
        neutral("mcp_oauth_callback_url", Shape::Text, MODEL),
        neutral("mcp_oauth_credentials_store", Shape::Text, DISPLAY),
        neutral("memories", ANY_MAP, MODEL),
        neutral("model_auto_compact_token_limit_scope", Shape::Text, MODEL),
        neutral("model_catalog_json", Shape::Text, MODEL),
        neutral("model_instructions_file", Shape::Text, MODEL),
        neutral("model_supports_reasoning_summaries", Shape::Bool, MODEL),
        neutral("notice", ANY_MAP, DISPLAY),
        neutral("openai_base_url", Shape::Text, MODEL),
        neutral("oss_provider", Shape::Text, MODEL),
        neutral("personality", Shape::Text, MODEL),
        neutral("plan_mode_reasoning_effort", Shape::Text, MODEL),
        neutral("project_doc_fallback_filenames", TEXTS, MODEL),
        neutral("project_root_markers", TEXTS, MODEL),
        neutral("realtime", ANY_MAP, MODEL),
        neutral("service_tier", Shape::Text, MODEL),
        neutral("sqlite_home", Shape::Text, DISPLAY),
        neutral("suppress_unstable_features_warning", Shape::Bool, DISPLAY),
        neutral("tool_output_token_limit", Shape::Int, MODEL),
        neutral("tool_suggest", ANY_MAP, MODEL),
        neutral(
            "web_search",
            Shape::Enum(&["disabled", "cached", "live"]),
            "web search runs at the model provider, not on the machine",
        ),
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
