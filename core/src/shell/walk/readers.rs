//! Which reader reads a program's arguments, by the program's name.

use super::{Call, HitKind, Walker};
use crate::finding::Severity;
use crate::shell::programs::{unwrap, POSIX_SHELLS};
use crate::shell::words::stem;

/// How one family reads its arguments.
type Reader = fn(&mut Walker, &Call<'_>);

/// Program names (by [`stem`]) and the reader of their options.
const READERS: &[(&[&str], Reader)] = &[
    (POSIX_SHELLS, Walker::posix_shell),
    (&["cmd"], Walker::cmd),
    (&["powershell"], |w, c| w.powershell(c, true)),
    (&["pwsh"], |w, c| w.powershell(c, false)),
    (&["python", "pypy", "py"], Walker::python),
    (&["pytest", "py.test"], Walker::pytest),
    (&["pip"], Walker::pip),
    (&["node", "nodejs", "bun"], Walker::node),
    (&["deno"], Walker::deno),
    (&["npx", "bunx", "pnpx"], |w, c| {
        w.program_hit(c, "downloads and runs a package named on its command line")
    }),
    (&["npm", "pnpm", "yarn"], Walker::package_manager),
    (&["git"], Walker::git),
    (&["perl"], |w, c| {
        w.switches(c, "eE", "iIMmDx", "runs the text that follows as Perl code")
    }),
    (&["ruby"], Walker::ruby),
    (&["php"], Walker::php),
    (&["lua", "luajit"], |w, c| {
        w.simple_options(
            c,
            &["-e", "-l"],
            "runs or loads code named on the command line",
        )
    }),
    (&["rscript", "r"], |w, c| {
        w.simple_options(c, &["-e", "--expr"], "runs the text that follows as R code")
    }),
    (&["julia"], |w, c| {
        w.simple_options(
            c,
            &["-e", "--eval", "-E", "--print", "-L", "--load"],
            "runs or loads code named on the command line",
        )
    }),
    (&["awk", "gawk", "mawk", "nawk"], Walker::awk),
    (&["sed", "gsed"], Walker::sed),
    (&["gdb"], |w, c| {
        w.simple_options(
            c,
            &[
                "-ex",
                "--ex",
                "-eval-command",
                "--eval-command",
                "-iex",
                "--init-eval-command",
                "-x",
                "--command",
                "-ix",
                "--init-command",
            ],
            "runs debugger commands, which can run shell commands",
        )
    }),
    (
        &["vim", "nvim", "vi", "view", "ex", "gvim", "vimdiff"],
        Walker::vim,
    ),
    (&["gradle", "gradlew"], |w, c| {
        w.options_anywhere(
            c,
            &["--init-script", "-I"],
            "runs the named init script as build code",
        )
    }),
    (&["osascript"], |w, c| {
        w.simple_options(c, &["-e"], "runs the text that follows as AppleScript")
    }),
    (&["expect"], |w, c| {
        w.simple_options(c, &["-c"], "runs the text that follows as Tcl code")
    }),
    (&["make", "gmake"], Walker::make),
    (&["env"], Walker::env),
    (&["find"], Walker::find),
    (&["tar", "bsdtar", "gtar"], Walker::tar),
    (&["rsync"], Walker::rsync),
    (&["ssh", "sftp", "scp"], Walker::ssh),
    (&["java"], Walker::java),
    (&["go"], Walker::go),
];

/// Read a program's arguments: `c.name` is the program, `c.args` its
/// arguments.
pub(crate) fn read(w: &mut Walker, c: &Call<'_>) {
    let s = stem(c.name);
    if let Some(inner) = unwrap(c.name, c.args) {
        if matches!(s, "xargs" | "parallel") {
            w.program_hit(c, "builds and runs command lines from its input");
        }
        w.wrapped(c, inner);
        return;
    }
    if let Some((_, read)) = READERS.iter().find(|(names, _)| names.contains(&s)) {
        read(w, c);
    }
}

impl Walker {
    /// A hit on the program word itself.
    pub(crate) fn program_hit(&mut self, c: &Call<'_>, why: &'static str) {
        let me = c.program();
        self.hit(&me, 0, HitKind::CodeOption, "", Severity::High, why);
    }
}
