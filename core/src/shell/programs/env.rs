//! Environment variables that load or run code.

use crate::finding::Severity;

/// Environment variables that make a program load or run code named in
/// their value: the severity and why.
pub(crate) fn code_loading_variable(name: &str) -> Option<(Severity, &'static str)> {
    let high = Severity::High;
    let hit = match name {
        "LD_PRELOAD" | "LD_AUDIT" | "DYLD_INSERT_LIBRARIES" => (
            high,
            "makes the dynamic loader inject the named libraries into every program",
        ),
        "LD_LIBRARY_PATH" | "DYLD_LIBRARY_PATH" => (
            Severity::Medium,
            "makes the dynamic loader search the named directories for shared libraries first",
        ),
        "NODE_OPTIONS" => (
            high,
            "applies node options, `--require` included, to every node process",
        ),
        "BASH_ENV" => (
            high,
            "makes every non-interactive bash run the named file first",
        ),
        "PERL5OPT" => (
            high,
            "applies perl switches, module loading included, to every perl program",
        ),
        "RUBYOPT" => (
            high,
            "applies ruby switches, `-r` included, to every ruby program",
        ),
        "GIT_SSH_COMMAND" | "GIT_SSH" => (
            high,
            "makes git run the named command for every ssh connection",
        ),
        "GIT_PROXY_COMMAND" => (high, "makes git run the named command to connect"),
        "GIT_EXTERNAL_DIFF" => (high, "makes git run the named program to show differences"),
        "GIT_CONFIG_PARAMETERS" | "GIT_CONFIG_COUNT" => (
            high,
            "injects git configuration, which can name programs git runs",
        ),
        "GIT_ASKPASS" | "SSH_ASKPASS" => {
            (high, "names a program that is run to ask for credentials")
        }
        "JAVA_TOOL_OPTIONS" | "_JAVA_OPTIONS" | "JDK_JAVA_OPTIONS" => (
            high,
            "applies JVM options, `-javaagent` included, to every JVM",
        ),
        "PYTEST_ADDOPTS" => (high, "adds pytest options, `-p` plugin loading included"),
        "PYTEST_PLUGINS" => (high, "makes pytest import the named plugin modules"),
        _ => match name.to_ascii_lowercase().as_str() {
            // npm reads its configuration variables case-insensitively.
            "npm_config_script_shell" => {
                (high, "makes npm run package scripts with the named shell")
            }
            "npm_config_node_options" => (high, "makes npm pass node options to every script"),
            _ => return None,
        },
    };
    Some(hit)
}
