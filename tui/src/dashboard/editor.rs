//! Opening the reviewer's editor at a finding: which program (`$VISUAL`,
//! then `$EDITOR`) and the arguments that put its cursor on the line and
//! column, by the conventions of the common editors. Running it (and
//! suspending the terminal around it) is the event loop's job.

use std::ffi::OsString;
use std::path::Path;

/// A command line: the program and its arguments.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Command {
    pub program: OsString,
    pub args: Vec<OsString>,
}

/// The editor the environment names: `$VISUAL`, else `$EDITOR` (as git
/// and most terminal tools choose), split into words; `None` when neither
/// is set to something.
pub fn from_env() -> Option<Vec<String>> {
    ["VISUAL", "EDITOR"]
        .iter()
        .filter_map(|v| std::env::var(v).ok())
        .map(|s| s.split_whitespace().map(str::to_string).collect::<Vec<_>>())
        .find(|w| !w.is_empty())
}

/// The command that opens `file` at `line` and `column` (1-based) in
/// `editor` (its words, program first, as `$EDITOR` holds them):
///
/// - `+LINE FILE` for vi, vim, nvim, emacs and the others that take it;
/// - `+LINE,COLUMN FILE` for nano;
/// - `FILE:LINE:COLUMN` for Helix (`hx`), Sublime Text and Zed;
/// - `-g FILE:LINE:COLUMN` for VS Code and its builds;
/// - `+LINE FILE` for any other editor, the most widely understood form.
pub fn command(editor: &[String], file: &Path, line: u32, column: u32) -> Option<Command> {
    let (program, extra) = editor.split_first()?;
    let base = Path::new(program)
        .file_name()
        .map(|n| n.to_string_lossy().to_lowercase())
        .unwrap_or_default();
    let base = base.strip_suffix(".exe").unwrap_or(&base).to_string();
    let line = line.max(1);
    let column = column.max(1);
    let at = |sep: &str| {
        let mut s = file.as_os_str().to_owned();
        s.push(format!("{sep}{line}:{column}"));
        s
    };
    let mut args: Vec<OsString> = extra.iter().map(OsString::from).collect();
    match base.as_str() {
        "hx" | "helix" | "subl" | "sublime_text" | "zed" | "zeditor" => args.push(at(":")),
        "code" | "code-insiders" | "codium" | "vscodium" | "cursor" => {
            args.push("-g".into());
            args.push(at(":"));
        }
        "nano" | "pico" => {
            args.push(format!("+{line},{column}").into());
            args.push(file.as_os_str().to_owned());
        }
        _ => {
            args.push(format!("+{line}").into());
            args.push(file.as_os_str().to_owned());
        }
    }
    Some(Command {
        program: program.into(),
        args,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(s: &str) -> Vec<String> {
        s.split_whitespace().map(str::to_string).collect()
    }

    fn line_of(editor: &str) -> String {
        let c = command(&words(editor), Path::new("k8s/app.yaml"), 12, 7).unwrap();
        let mut out = vec![c.program.to_string_lossy().into_owned()];
        out.extend(c.args.iter().map(|a| a.to_string_lossy().into_owned()));
        out.join(" ")
    }

    #[test]
    fn each_editor_gets_its_own_convention() {
        let cases = [
            ("vi", "vi +12 k8s/app.yaml"),
            ("vim", "vim +12 k8s/app.yaml"),
            ("/usr/bin/nvim", "/usr/bin/nvim +12 k8s/app.yaml"),
            ("emacs -nw", "emacs -nw +12 k8s/app.yaml"),
            ("emacsclient -t", "emacsclient -t +12 k8s/app.yaml"),
            ("nano", "nano +12,7 k8s/app.yaml"),
            ("hx", "hx k8s/app.yaml:12:7"),
            ("helix", "helix k8s/app.yaml:12:7"),
            ("code --wait", "code --wait -g k8s/app.yaml:12:7"),
            ("codium", "codium -g k8s/app.yaml:12:7"),
            ("subl -w", "subl -w k8s/app.yaml:12:7"),
            (
                "/opt/VSCode/bin/code",
                "/opt/VSCode/bin/code -g k8s/app.yaml:12:7",
            ),
            ("kak", "kak +12 k8s/app.yaml"),
            ("my-editor", "my-editor +12 k8s/app.yaml"),
        ];
        for (editor, want) in cases {
            assert_eq!(line_of(editor), want, "{editor}");
        }
        assert!(command(&[], Path::new("x"), 1, 1).is_none());
    }

    #[test]
    fn a_missing_position_opens_at_the_top() {
        let c = command(&words("hx"), Path::new("p.json"), 0, 0).unwrap();
        assert_eq!(c.args, [OsString::from("p.json:1:1")]);
    }
}
