//! Programs that run another command line, and how to find it among their
//! words: options (known by name; those that take a value), subcommand
//! words (`uv run`, `ip netns exec`), leading operands (`gosu USER`,
//! `flock FILE`, `chrt PRIO`), and options or operands that are shell text
//! (`script -c TEXT`, `watch TEXT`, `su -c TEXT`).
//!
//! Option syntax follows each program's manual (util-linux, coreutils,
//! procps, sudo, the tools' own `--help`). An option a row does not list
//! cannot be read with certainty (it may take a value, or change what
//! runs), so [`wrapped`] answers [`Inner::Unreadable`] and the walk blocks.

/// A program that runs the command line that follows its own options.
pub(crate) struct Wrapper {
    pub names: &'static [&'static str],
    /// Words that must follow the program (each position one of several
    /// spellings) for it to wrap a command: `run` of `uv run`. Empty: none.
    pub sub: &'static [&'static [&'static str]],
    /// Options that take the next word as their value (`-u USER`). A
    /// short one also takes the rest of its word (`-uUSER`), a long one
    /// `--name=VALUE`.
    pub valued: &'static [&'static str],
    /// Options that take no value (or only a glued one: `--opt=V`, `-oV`).
    /// [`NUMBER`] stands for `-5` style options.
    pub flags: &'static [&'static str],
    /// Options whose value is shell text (`script -c TEXT`); also read
    /// right after the leading operands (`flock FILE -c TEXT`).
    pub text: &'static [&'static str],
    /// Options after which no leading operand comes (`runuser -u USER`).
    pub no_operand: &'static [&'static str],
    /// Operands before the wrapped program (`timeout DURATION cmd`).
    pub positional: usize,
    /// What the words after the options and operands are.
    pub runs: Runs,
}

/// What a wrapper does with the words after its options and operands.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Runs {
    /// They are a command line (`nice python t.py`).
    Command,
    /// They are a command line; with none, a shell reads standard input
    /// (`chroot DIR`, `unshare -n`).
    CommandOrShell,
    /// Joined by spaces, they are shell text (`watch`, `sg GROUP TEXT`);
    /// with none, a shell reads standard input.
    Text,
    /// Without a text option, a shell reads standard input (`script`,
    /// `su USER`, `newgrp`): operands are not a command.
    Shell,
}

/// In [`Wrapper::flags`]: any `-N` option made of digits (`nice -5`).
pub(crate) const NUMBER: &str = "-<number>";

/// Where a wrapper's command is among its arguments (`args[0]` is the word
/// after the wrapper's name).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Inner {
    /// The wrapped command line starts at this argument.
    Command(usize),
    /// Shell text: the option (empty for operands), the first argument
    /// holding it, how many arguments it spans, and the text itself.
    Text {
        option: String,
        at: usize,
        span: usize,
        text: String,
    },
    /// A shell that reads its commands from standard input.
    Shell,
    /// An option at this argument the table cannot read: what follows
    /// cannot be vouched for.
    Unreadable(usize),
    /// Nothing runs (the words end), or the program is not wrapping here
    /// (`uv pip install`).
    Nothing,
}

const fn w(names: &'static [&'static str]) -> Wrapper {
    Wrapper {
        names,
        sub: &[],
        valued: &[],
        flags: &[],
        text: &[],
        no_operand: &[],
        positional: 0,
        runs: Runs::Command,
    }
}

/// tox's options with a value, and without one, read by both of its rows
/// (`tox exec …` and `tox -- …`).
const TOX_VALUED: &[&str] = &[
    "-e",
    "-c",
    "--conf",
    "--root",
    "--workdir",
    "-x",
    "--override",
    "-f",
    "--factors",
    "-m",
    "--labels",
];
const TOX_FLAGS: &[&str] = &[
    "-q",
    "--quiet",
    "-v",
    "--verbose",
    "-r",
    "--recreate",
    "-n",
    "--notest",
    "--skip-missing-interpreters",
    "--no-recreate-pkg",
    "--skip-pkg-install",
];

/// The wrappers. `env`, `npx` and `xargs`' input are read by the walk's own
/// readers; `xargs` and `parallel` also run what their input says.
pub(crate) const WRAPPERS: &[Wrapper] = &[
    w(&["busybox", "toybox", "nohup", "catchsegv"]),
    Wrapper {
        flags: &["-p"],
        ..w(&["command"])
    },
    Wrapper {
        valued: &["-a"],
        flags: &["-c", "-l"],
        ..w(&["exec"])
    },
    Wrapper {
        flags: &["-c", "--ctty", "-f", "--fork", "-w", "--wait"],
        ..w(&["setsid"])
    },
    Wrapper {
        valued: &["-f", "--format", "-o", "--output"],
        flags: &[
            "-a",
            "--append",
            "-p",
            "--portability",
            "-v",
            "--verbose",
            "-q",
            "--quiet",
        ],
        ..w(&["time"])
    },
    Wrapper {
        valued: &["-n", "--adjustment"],
        flags: &[NUMBER],
        ..w(&["nice"])
    },
    Wrapper {
        valued: &["-i", "--input", "-o", "--output", "-e", "--error"],
        ..w(&["stdbuf"])
    },
    Wrapper {
        valued: &[
            "-c",
            "--class",
            "-n",
            "--classdata",
            "-p",
            "--pid",
            "-P",
            "--pgid",
            "-u",
            "--uid",
        ],
        flags: &["-t", "--ignore"],
        ..w(&["ionice"])
    },
    Wrapper {
        valued: &["-s", "--signal", "-k", "--kill-after"],
        flags: &["--preserve-status", "--foreground", "-v", "--verbose"],
        positional: 1,
        ..w(&["timeout"])
    },
    // sudo's getopt string: "+Aa:BbC:c:D:Eeg:Hh::iKklNnPp:R:r:SsT:t:U:u:Vv".
    Wrapper {
        valued: &[
            "-a",
            "-C",
            "--close-from",
            "-c",
            "-D",
            "--chdir",
            "-g",
            "--group",
            "-p",
            "--prompt",
            "-R",
            "--chroot",
            "-r",
            "--role",
            "-T",
            "--command-timeout",
            "-t",
            "--type",
            "-U",
            "--other-user",
            "-u",
            "--user",
        ],
        flags: &[
            "-A",
            "--askpass",
            "-B",
            "--bell",
            "-b",
            "--background",
            "-E",
            "--preserve-env",
            "-H",
            "--set-home",
            "-h",
            "--host",
            "-i",
            "--login",
            "-N",
            "--no-update",
            "-n",
            "--non-interactive",
            "-P",
            "--preserve-groups",
            "-S",
            "--stdin",
            "-s",
            "--shell",
        ],
        ..w(&["sudo"])
    },
    // doas: "+a:C:Lnsu:".
    Wrapper {
        valued: &["-a", "-C", "-u"],
        flags: &["-n", "-s"],
        ..w(&["doas"])
    },
    Wrapper {
        valued: &[
            "-a",
            "--arg-file",
            "-d",
            "--delimiter",
            "-E",
            "-I",
            "-L",
            "--max-lines",
            "-n",
            "--max-args",
            "-P",
            "--max-procs",
            "-s",
            "--max-chars",
            "--process-slot-var",
        ],
        flags: &[
            "-0",
            "--null",
            "-o",
            "--open-tty",
            "-p",
            "--interactive",
            "-r",
            "--no-run-if-empty",
            "-t",
            "--verbose",
            "-x",
            "--exit",
            "-e",
            "--eof",
            "-i",
            "--replace",
            "-l",
        ],
        ..w(&["xargs"])
    },
    // GNU parallel runs its command template through a shell.
    Wrapper {
        valued: &[
            "-j",
            "--jobs",
            "-N",
            "-n",
            "--max-args",
            "-S",
            "--sshlogin",
            "--joblog",
            "-a",
            "--arg-file",
            "-d",
            "--delimiter",
            "-I",
            "--results",
            "--timeout",
            "--tmpdir",
        ],
        flags: &[
            "-k",
            "--keep-order",
            "-q",
            "--quote",
            "--dry-run",
            "-v",
            "--bar",
            "--eta",
            "--progress",
            "-0",
            "--null",
            "--lb",
            "--line-buffer",
            "--tag",
            "-u",
            "--ungroup",
            "-X",
            "-m",
        ],
        runs: Runs::Text,
        ..w(&["parallel"])
    },
    // tini [-h] [-s] [-p SIGNAL] [-v] [-w] [-g] [-l] [-e EXIT_CODE] [--] PROGRAM
    Wrapper {
        valued: &["-p", "-e"],
        flags: &["-s", "-v", "-w", "-g", "-l"],
        ..w(&["tini"])
    },
    Wrapper {
        valued: &["-r", "--rewrite"],
        flags: &["-c", "--single-child", "-v", "--verbose"],
        ..w(&["dumb-init"])
    },
    Wrapper {
        positional: 1,
        ..w(&["gosu", "su-exec"])
    },
    Wrapper {
        valued: &[
            "--ambient-caps",
            "--bounding-set",
            "--egid",
            "--euid",
            "--groups",
            "--inh-caps",
            "--rgid",
            "--ruid",
            "--regid",
            "--reuid",
            "--securebits",
            "--pdeathsig",
            "--selinux-label",
            "--apparmor-profile",
        ],
        flags: &[
            "--clear-groups",
            "--init-groups",
            "--keep-groups",
            "--nnp",
            "--no-new-privs",
            "--reset-env",
        ],
        ..w(&["setpriv"])
    },
    // su and runuser: `-c TEXT` is run by the user's shell; `runuser -u
    // USER` runs a command line; `su USER` alone starts that shell.
    Wrapper {
        valued: &[
            "-u",
            "--user",
            "-g",
            "--group",
            "-G",
            "--supp-group",
            "-s",
            "--shell",
            "-w",
            "--whitelist-environment",
        ],
        flags: &[
            "-",
            "-l",
            "--login",
            "-m",
            "-p",
            "--preserve-environment",
            "-P",
            "--pty",
            "-f",
            "--fast",
        ],
        text: &["-c", "--command", "--session-command"],
        no_operand: &["-u", "--user"],
        positional: 1,
        runs: Runs::Shell,
        ..w(&["su", "runuser"])
    },
    // sg GROUP [-c] TEXT: the text goes to /bin/sh -c.
    Wrapper {
        flags: &["-"],
        text: &["-c"],
        positional: 1,
        runs: Runs::Text,
        ..w(&["sg"])
    },
    Wrapper {
        flags: &["-"],
        positional: 1,
        runs: Runs::Shell,
        ..w(&["newgrp"])
    },
    Wrapper {
        flags: &["-a", "--all-tasks", "-c", "--cpu-list", "-p", "--pid"],
        positional: 1,
        ..w(&["taskset"])
    },
    Wrapper {
        valued: &[
            "-T",
            "--sched-runtime",
            "-P",
            "--sched-period",
            "-D",
            "--sched-deadline",
        ],
        flags: &[
            "-a",
            "--all-tasks",
            "-b",
            "--batch",
            "-d",
            "--deadline",
            "-e",
            "--ext",
            "-f",
            "--fifo",
            "-i",
            "--idle",
            "-o",
            "--other",
            "-r",
            "--rr",
            "-R",
            "--reset-on-fork",
            "-v",
            "--verbose",
        ],
        positional: 1,
        ..w(&["chrt"])
    },
    Wrapper {
        valued: &[
            "-a", "-b", "-e", "-E", "-I", "-o", "-O", "-p", "-P", "-s", "-S", "-u", "-U", "-X",
        ],
        flags: &[
            "-c", "-C", "-d", "-D", "-f", "-F", "-i", "-k", "-n", "-q", "-r", "-t", "-T", "-v",
            "-w", "-x", "-y", "-z", "-Z",
        ],
        ..w(&["strace"])
    },
    Wrapper {
        valued: &[
            "-a", "-A", "-D", "-e", "-F", "-l", "-n", "-o", "-p", "-s", "-u", "-w", "-x",
        ],
        flags: &["-b", "-c", "-C", "-f", "-i", "-r", "-S", "-t", "-T"],
        ..w(&["ltrace"])
    },
    // Valgrind's options are `--name=value`; `--db-command` ran a shell
    // command in older releases.
    Wrapper {
        flags: &[
            "-q",
            "-v",
            "-d",
            "--tool",
            "--quiet",
            "--verbose",
            "--trace-children",
            "--log-file",
            "--log-fd",
            "--leak-check",
            "--track-origins",
            "--error-exitcode",
            "--show-leak-kinds",
            "--suppressions",
            "--gen-suppressions",
            "--num-callers",
        ],
        text: &["--db-command"],
        ..w(&["valgrind"])
    },
    // xvfb-run: getopt "+ade:f:hn:lp:s:w:".
    Wrapper {
        valued: &[
            "-e",
            "--error-file",
            "-f",
            "--auth-file",
            "-n",
            "--server-num",
            "-p",
            "--xauth-protocol",
            "-s",
            "--server-args",
            "-w",
            "--wait",
        ],
        flags: &[
            "-a",
            "--auto-servernum",
            "-d",
            "--auto-display",
            "-l",
            "--listen-tcp",
        ],
        ..w(&["xvfb-run"])
    },
    // flock [options] FILE COMMAND... | flock [options] FILE -c TEXT
    Wrapper {
        valued: &["-w", "--wait", "--timeout", "-E", "--conflict-exit-code"],
        flags: &[
            "-s",
            "--shared",
            "-x",
            "-e",
            "--exclusive",
            "-u",
            "--unlock",
            "-n",
            "--nb",
            "--nonblock",
            "-o",
            "--close",
            "-F",
            "--no-fork",
            "--verbose",
        ],
        text: &["-c", "--command"],
        positional: 1,
        ..w(&["flock"])
    },
    // prlimit's resource options take a value only glued (`--nofile=N`).
    Wrapper {
        valued: &["-p", "--pid", "-o", "--output"],
        flags: &[
            "--noheadings",
            "--raw",
            "--verbose",
            "-c",
            "--core",
            "-d",
            "--data",
            "-e",
            "--nice",
            "-f",
            "--fsize",
            "-i",
            "--sigpending",
            "-l",
            "--memlock",
            "-m",
            "--rss",
            "-n",
            "--nofile",
            "-q",
            "--msgqueue",
            "-r",
            "--rtprio",
            "-s",
            "--stack",
            "-t",
            "--cpu",
            "-u",
            "--nproc",
            "-v",
            "--as",
            "-x",
            "--locks",
            "-y",
            "--rttime",
        ],
        ..w(&["prlimit"])
    },
    Wrapper {
        valued: &["-t", "-w"],
        flags: &["-d", "-i", "-m", "-s", "-u"],
        ..w(&["caffeinate"])
    },
    // faketime [options] TIMESTAMP COMMAND; `--date-prog` names a program.
    Wrapper {
        flags: &["-m", "-f", "--exclude-monotonic"],
        positional: 1,
        ..w(&["faketime"])
    },
    Wrapper {
        valued: &["-f"],
        flags: &["-q"],
        ..w(&["proxychains", "proxychains4"])
    },
    // torsocks' `--shell` starts a shell: not listed, so it blocks.
    Wrapper {
        valued: &[
            "-u",
            "--user",
            "-p",
            "--pass",
            "-a",
            "--address",
            "-P",
            "--port",
        ],
        flags: &[
            "-i",
            "--isolate",
            "-q",
            "--quiet",
            "-d",
            "--debug",
            "-6",
            "--ipv6",
        ],
        ..w(&["torsocks"])
    },
    // firejail's options are `--name` or `--name=value`.
    Wrapper {
        flags: &[
            "--quiet",
            "--net",
            "--noprofile",
            "--profile",
            "--private",
            "--private-tmp",
            "--private-dev",
            "--read-only",
            "--whitelist",
            "--blacklist",
            "--caps.drop",
            "--seccomp",
            "--nonewprivs",
            "--noroot",
            "--rlimit-as",
            "--timeout",
        ],
        ..w(&["firejail"])
    },
    // systemd-run's `--shell`/`-S` starts a shell: not listed, so it blocks.
    Wrapper {
        valued: &[
            "-u",
            "--unit",
            "-p",
            "--property",
            "--description",
            "--slice",
            "-E",
            "--setenv",
            "--uid",
            "--gid",
            "--nice",
            "--working-directory",
            "-H",
            "--host",
            "-M",
            "--machine",
            "--service-type",
            "--on-active",
            "--on-boot",
            "--on-startup",
            "--on-unit-active",
            "--on-unit-inactive",
            "--on-calendar",
        ],
        flags: &[
            "--user",
            "--system",
            "--scope",
            "-r",
            "--remain-after-exit",
            "--send-sighup",
            "-t",
            "--pty",
            "-P",
            "--pipe",
            "-q",
            "--quiet",
            "-G",
            "--collect",
            "--wait",
            "--no-ask-password",
            "--no-block",
            "-d",
            "--same-dir",
        ],
        ..w(&["systemd-run"])
    },
    // chroot [--userspec=U:G] [--groups=G] [--skip-chdir] NEWROOT [COMMAND]
    Wrapper {
        valued: &["--userspec", "--groups"],
        flags: &["--skip-chdir"],
        positional: 1,
        runs: Runs::CommandOrShell,
        ..w(&["chroot"])
    },
    // unshare: the namespace options take a file only glued (`--net=F`).
    Wrapper {
        valued: &[
            "--propagation",
            "--setgroups",
            "-R",
            "--root",
            "-w",
            "--wd",
            "-S",
            "--setuid",
            "-G",
            "--setgid",
            "--map-user",
            "--map-group",
            "--map-users",
            "--map-groups",
            "--monotonic",
            "--boottime",
        ],
        flags: &[
            "-m",
            "--mount",
            "-u",
            "--uts",
            "-i",
            "--ipc",
            "-n",
            "--net",
            "-p",
            "--pid",
            "-U",
            "--user",
            "-C",
            "--cgroup",
            "-T",
            "--time",
            "-f",
            "--fork",
            "-r",
            "--map-root-user",
            "-c",
            "--map-current-user",
            "--kill-child",
            "--mount-proc",
            "--keep-caps",
        ],
        runs: Runs::CommandOrShell,
        ..w(&["unshare"])
    },
    // nsenter: `-r`/`-w` and the namespace options take a value only glued.
    Wrapper {
        valued: &["-t", "--target", "-S", "--setuid", "-G", "--setgid"],
        flags: &[
            "-a",
            "--all",
            "-m",
            "--mount",
            "-u",
            "--uts",
            "-i",
            "--ipc",
            "-n",
            "--net",
            "-p",
            "--pid",
            "-U",
            "--user",
            "-C",
            "--cgroup",
            "-T",
            "--time",
            "-r",
            "--root",
            "-w",
            "--wd",
            "-F",
            "--no-fork",
            "--preserve-credentials",
        ],
        runs: Runs::CommandOrShell,
        ..w(&["nsenter"])
    },
    Wrapper {
        sub: &[&["netns"], &["exec"]],
        positional: 1,
        ..w(&["ip"])
    },
    // Project runners: `TOOL run COMMAND` runs the command in the project's
    // environment. Global options may come before `run`.
    Wrapper {
        sub: &[&["run"]],
        valued: &[
            "--with",
            "--with-editable",
            "--with-requirements",
            "-p",
            "--python",
            "--package",
            "--extra",
            "--group",
            "--only-group",
            "--no-group",
            "--index",
            "--default-index",
            "--index-url",
            "--extra-index-url",
            "-f",
            "--find-links",
            "--directory",
            "--project",
            "--env-file",
            "--cache-dir",
            "--config-file",
            "--color",
        ],
        flags: &[
            "--isolated",
            "--no-sync",
            "--frozen",
            "--locked",
            "--active",
            "--all-packages",
            "--all-extras",
            "--no-dev",
            "--dev",
            "--only-dev",
            "--no-project",
            "--exact",
            "-q",
            "--quiet",
            "-v",
            "--verbose",
            "--offline",
            "--no-cache",
            "-n",
            "--no-progress",
            "--native-tls",
            "--no-config",
            "--no-env-file",
            "--all-groups",
            "--no-default-groups",
            "--no-editable",
        ],
        ..w(&["uv"])
    },
    Wrapper {
        sub: &[&["run"]],
        valued: &["-P", "--project", "-C", "--directory"],
        flags: &[
            "-q",
            "--quiet",
            "-v",
            "-vv",
            "-vvv",
            "--verbose",
            "-n",
            "--no-interaction",
            "--ansi",
            "--no-ansi",
            "--no-plugins",
            "--no-cache",
        ],
        ..w(&["poetry"])
    },
    Wrapper {
        sub: &[&["run"]],
        valued: &["--python"],
        flags: &["-v", "--verbose", "-q", "--quiet"],
        ..w(&["pipenv"])
    },
    Wrapper {
        sub: &[&["run"]],
        valued: &["-p", "--project"],
        flags: &[
            "-g",
            "--global",
            "-v",
            "--verbose",
            "-q",
            "--quiet",
            "-s",
            "--site-packages",
        ],
        ..w(&["pdm"])
    },
    Wrapper {
        sub: &[&["run"]],
        valued: &[
            "-e",
            "--env",
            "-p",
            "--project",
            "--data-dir",
            "--cache-dir",
        ],
        flags: &["-v", "--verbose", "-q", "--quiet", "--color", "--no-color"],
        ..w(&["hatch"])
    },
    Wrapper {
        sub: &[&["run"]],
        valued: &[
            "-n",
            "--name",
            "-p",
            "--prefix",
            "--cwd",
            "-r",
            "--root-prefix",
        ],
        flags: &[
            "--no-capture-output",
            "--live-stream",
            "-v",
            "--verbose",
            "--dev",
            "--debug-wrapper-scripts",
            "-a",
            "--attach",
        ],
        ..w(&["conda", "mamba", "micromamba"])
    },
    // tox 4: `tox exec -e ENV -- COMMAND`; `tox -- ARGS` hands ARGS to the
    // configured commands, which may be `{posargs}` alone.
    Wrapper {
        sub: &[&["exec", "e", "run", "r", "run-parallel", "p"]],
        valued: TOX_VALUED,
        flags: TOX_FLAGS,
        ..w(&["tox"])
    },
    Wrapper {
        valued: TOX_VALUED,
        flags: TOX_FLAGS,
        runs: Runs::Command,
        ..w(&["tox"])
    },
    // `script [options] [FILE]`: without `-c`, a shell reads standard input.
    Wrapper {
        valued: &[
            "-E",
            "--echo",
            "-I",
            "--log-in",
            "-O",
            "--log-out",
            "-B",
            "--log-io",
            "-T",
            "--log-timing",
            "-m",
            "--logging-format",
            "-o",
            "--output-limit",
        ],
        flags: &[
            "-a", "--append", "-e", "--return", "-f", "--flush", "--force", "-q", "--quiet",
        ],
        text: &["-c", "--command"],
        runs: Runs::Shell,
        ..w(&["script"])
    },
    // watch runs its operands, joined, through `sh -c` (with `-x`, as a
    // command line: read as text all the same).
    Wrapper {
        valued: &["-n", "--interval", "-q", "--equexit"],
        flags: &[
            "-b",
            "--beep",
            "-c",
            "--color",
            "-C",
            "--no-color",
            "-d",
            "--differences",
            "-e",
            "--errexit",
            "-g",
            "--chgexit",
            "-t",
            "--no-title",
            "-w",
            "--no-wrap",
            "-x",
            "--exec",
            "-p",
            "--precise",
            "-r",
            "--no-rerun",
        ],
        runs: Runs::Text,
        ..w(&["watch"])
    },
];

/// The wrappers a program name (its [`stem`](super::super::words::stem))
/// may be, in table order; a row with `sub` words wraps only when they
/// follow.
pub(crate) fn wrappers(name: &str) -> impl Iterator<Item = &'static Wrapper> {
    // Every program word of every command asks this, and almost none is a
    // wrapper: rows are found through an index of their names (each with
    // its place in the table) rather than by reading the table each time.
    static BY_NAME: std::sync::OnceLock<rustc_hash::FxHashMap<&'static str, Vec<usize>>> =
        std::sync::OnceLock::new();
    let index = BY_NAME.get_or_init(|| {
        let mut index: rustc_hash::FxHashMap<&'static str, Vec<usize>> =
            rustc_hash::FxHashMap::default();
        for (i, w) in WRAPPERS.iter().enumerate() {
            for n in w.names {
                index.entry(n).or_default().push(i);
            }
        }
        index
    });
    let stem = super::super::words::stem(name);
    let mut rows: Vec<usize> = Vec::new();
    for n in [name, stem] {
        rows.extend(index.get(n).into_iter().flatten());
    }
    // In table order, each row once (a name and its stem may both be listed).
    rows.sort_unstable();
    rows.dedup();
    rows.into_iter().filter_map(|i| WRAPPERS.get(i))
}

/// How one option word reads against a row.
enum Opt<'a> {
    /// Takes this many words.
    Skip(usize),
    /// Shell text: the option's name and its value (`None`: the next word).
    Text(&'a str, Option<&'a str>),
    Unknown,
}

fn option<'a>(wr: &'a Wrapper, a: &'a str) -> Opt<'a> {
    let has = |list: &[&str], o: &str| list.contains(&o);
    if let Some(long) = a.strip_prefix("--") {
        let (name, value) = match long.split_once('=') {
            Some((n, v)) => (a.get(..n.len() + 2).unwrap_or(a), Some(v)),
            None => (a, None),
        };
        if has(wr.text, name) {
            return Opt::Text(name, value);
        }
        if has(wr.valued, name) {
            return Opt::Skip(if value.is_some() { 1 } else { 2 });
        }
        return if has(wr.flags, name) {
            Opt::Skip(1)
        } else {
            Opt::Unknown
        };
    }
    if has(wr.flags, a) {
        return Opt::Skip(1);
    }
    if has(wr.flags, NUMBER) && a.len() > 1 && a.bytes().skip(1).all(|b| b.is_ascii_digit()) {
        return Opt::Skip(1);
    }
    // A cluster of short options (`-Eu ci`, `-oL`, `-vvv`).
    let body = a.get(1..).unwrap_or("");
    for (i, ch) in body.char_indices() {
        let o = format!("-{ch}");
        let rest = body.get(i + ch.len_utf8()..).unwrap_or("");
        if wr.text.contains(&o.as_str()) {
            let name = wr.text.iter().find(|t| **t == o).copied().unwrap_or("-c");
            return Opt::Text(name, Some(rest).filter(|r| !r.is_empty()));
        }
        if wr.valued.contains(&o.as_str()) {
            return Opt::Skip(if rest.is_empty() { 2 } else { 1 });
        }
        if !wr.flags.contains(&o.as_str()) {
            return Opt::Unknown;
        }
    }
    Opt::Skip(1)
}

/// Where the command of the wrapper `wr` is among `args`, the words after
/// its name.
pub(crate) fn wrapped(wr: &Wrapper, args: &[&str]) -> Inner {
    let mut k = 0;
    let mut sub = 0;
    let mut positional = wr.positional;
    let mut runs = wr.runs;
    // Options, with the subcommand words among them.
    while let Some(a) = args.get(k).copied() {
        if a == "--" {
            k += 1;
            break;
        }
        if a.starts_with('-') && (a != "-" || wr.flags.contains(&"-")) {
            match option(wr, a) {
                Opt::Skip(n) => {
                    let name = a.split('=').next().unwrap_or(a);
                    if wr.no_operand.contains(&name)
                        || wr
                            .no_operand
                            .iter()
                            .any(|o| o.len() == 2 && a.starts_with(o))
                    {
                        positional = 0;
                        runs = Runs::Command;
                    }
                    k += n;
                }
                Opt::Text(name, value) => return text_option(name, value, args, k),
                Opt::Unknown => {
                    // Before the subcommand, only a wrapper if it follows.
                    let pending = wr.sub.get(sub);
                    let comes = pending
                        .is_none_or(|s| args.get(k..).unwrap_or(&[]).iter().any(|w| s.contains(w)));
                    return if comes {
                        Inner::Unreadable(k)
                    } else {
                        Inner::Nothing
                    };
                }
            }
            continue;
        }
        match wr.sub.get(sub) {
            Some(spellings) if spellings.contains(&a) => {
                sub += 1;
                k += 1;
            }
            Some(_) => return Inner::Nothing,
            None => break,
        }
    }
    if sub < wr.sub.len() {
        return Inner::Nothing;
    }
    k += positional;
    // `flock FILE -c TEXT`, `su USER -c TEXT`, `sg GROUP -c TEXT`.
    if let Some(a) = args.get(k).copied().filter(|a| a.starts_with('-')) {
        if positional > 0 || runs == Runs::Shell {
            match option(wr, a) {
                Opt::Text(name, value) => return text_option(name, value, args, k),
                _ if runs == Runs::Shell => return Inner::Unreadable(k),
                _ => {}
            }
        }
    }
    let rest = args.get(k..).unwrap_or(&[]);
    match runs {
        Runs::Command if rest.is_empty() => Inner::Nothing,
        Runs::Command | Runs::CommandOrShell if !rest.is_empty() => Inner::Command(k),
        Runs::CommandOrShell => Inner::Shell,
        Runs::Shell | Runs::Text if rest.is_empty() => Inner::Shell,
        // `script FILE`: the file is where the session is written.
        Runs::Shell if wr.names.contains(&"script") => Inner::Shell,
        // `su USER ARGS`: arguments to the user's login shell.
        Runs::Shell => Inner::Unreadable(k),
        Runs::Text | Runs::Command => {
            let end = rest
                .iter()
                .position(|w| w.starts_with(":::"))
                .unwrap_or(rest.len());
            Inner::Text {
                option: String::new(),
                at: k,
                span: end,
                text: rest.get(..end).unwrap_or(&[]).join(" "),
            }
        }
    }
}

fn text_option(name: &str, value: Option<&str>, args: &[&str], k: usize) -> Inner {
    let (at, text) = match value {
        Some(v) => (k, Some(v)),
        None => (k + 1, args.get(k + 1).copied()),
    };
    match text {
        Some(t) => Inner::Text {
            option: name.to_string(),
            at,
            span: 1,
            text: t.to_string(),
        },
        None => Inner::Shell,
    }
}

/// The first row of `name` that wraps a command in `args`, and where.
pub(crate) fn unwrap(name: &str, args: &[&str]) -> Option<Inner> {
    let mut found = None;
    for wr in wrappers(name) {
        match wrapped(wr, args) {
            Inner::Nothing if !wr.sub.is_empty() => continue,
            inner => {
                found = Some(inner);
                break;
            }
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_option_is_listed_once_per_row() {
        for wr in WRAPPERS {
            let all: Vec<&str> = wr
                .valued
                .iter()
                .chain(wr.flags)
                .chain(wr.text)
                .copied()
                .collect();
            for (i, o) in all.iter().enumerate() {
                assert!(o.starts_with('-'), "{:?}: {o}", wr.names);
                assert!(!all[..i].contains(o), "{:?}: {o} twice", wr.names);
            }
        }
    }
}
