//! A `bwrap` (bubblewrap) command line, alone or inside a shell script.
//!
//! bubblewrap starts from an empty root and a new mount namespace, drops
//! every capability unless `--cap-add` names one, and always sets
//! no-new-privileges; everything else is opt-in: a namespace not
//! `--unshare-*`d is the host's, the environment is inherited unless
//! `--clearenv`, and no seccomp filter applies without `--seccomp`.

use super::builder::{Draft, OVal};
use super::invalid;
use super::shell::Word;
use super::tree::Loc;
use super::{cap_name, ImportError, ImportErrorKind};
pub use crate::shell::script::Arg;
use table::{MountTable, Planned};

mod table;

/// Where `bwrap` is the program of a command's words (behind `sudo -u
/// ci`, `env -i`, `timeout 10` and the other wrappers the shell analysis
/// knows), and whether it runs behind `xargs`, which appends words read at
/// run time to the command line: then bwrap's options are not all in the
/// file, and the import refuses it.
fn bwrap_at(words: &[&str]) -> Option<(usize, bool)> {
    let i = crate::shell::programs::program_index(words)?;
    let before = words.get(..i).unwrap_or_default();
    let appended = before
        .iter()
        .any(|w| crate::shell::program_name(w) == "xargs");
    let bwrap = words
        .get(i)
        .is_some_and(|w| crate::shell::program_name(w) == "bwrap");
    bwrap.then_some((i, appended))
}

/// The 1-based line of the first `bwrap` invocation, found cheaply: a
/// line whose words run bwrap, or that start an array holding it
/// (`sandbox=(env -i bwrap ...)`).
pub fn find_invocation(text: &str) -> Option<usize> {
    text.lines()
        .position(|l| {
            let l = l.trim_start();
            if l.starts_with('#') {
                return false;
            }
            let mut words: Vec<&str> = l.split_whitespace().collect();
            let runs = |w: &[&str]| bwrap_at(w).is_some_and(|(_, appended)| !appended);
            if runs(&words) {
                return true;
            }
            // `NAME=(bwrap`, `local -a NAME=( env bwrap`: the array's words.
            let Some(k) = words.iter().position(|w| w.contains("=(")) else {
                return false;
            };
            let first = words
                .get(k)
                .and_then(|w| w.split_once("=("))
                .map_or("", |(_, r)| r.trim_matches(['"', '\'']));
            let mut rest: Vec<&str> = words.split_off(k + 1);
            if !first.is_empty() {
                rest.insert(0, first);
            }
            let rest: Vec<&str> = rest.iter().map(|w| w.trim_matches(['"', '\''])).collect();
            runs(&rest)
        })
        .map(|i| i + 1)
}

/// A word that is wholly a shell expansion (`$X`, `"$@"`, `$(cmd)`,
/// `` `cmd` ``), whose value, even its number of words, is not known.
fn is_expansion(w: &Word) -> bool {
    w.any || (w.expands && (w.text.starts_with('$') || w.text.starts_with('`')))
}

/// Each option bubblewrap reads and how many arguments it takes: every
/// option of bubblewrap 0.8.0's `--help` and manual page (a test holds
/// this against both, kept in `fixtures/bwrap/`), and the overlay options
/// of later versions.
pub const OPTIONS: &[(&str, usize)] = &[
    ("--help", 0),
    ("--version", 0),
    ("--args", 1),
    ("--argv0", 1),
    ("--level-prefix", 0),
    ("--unshare-all", 0),
    ("--share-net", 0),
    ("--unshare-user", 0),
    ("--unshare-user-try", 0),
    ("--unshare-ipc", 0),
    ("--unshare-pid", 0),
    ("--unshare-net", 0),
    ("--unshare-uts", 0),
    ("--unshare-cgroup", 0),
    ("--unshare-cgroup-try", 0),
    ("--userns", 1),
    ("--userns2", 1),
    ("--disable-userns", 0),
    ("--assert-userns-disabled", 0),
    ("--pidns", 1),
    ("--uid", 1),
    ("--gid", 1),
    ("--hostname", 1),
    ("--chdir", 1),
    ("--clearenv", 0),
    ("--setenv", 2),
    ("--unsetenv", 1),
    ("--lock-file", 1),
    ("--sync-fd", 1),
    ("--bind", 2),
    ("--bind-try", 2),
    ("--dev-bind", 2),
    ("--dev-bind-try", 2),
    ("--ro-bind", 2),
    ("--ro-bind-try", 2),
    ("--bind-fd", 2),
    ("--ro-bind-fd", 2),
    ("--remount-ro", 1),
    ("--overlay-src", 1),
    ("--overlay", 3),
    ("--tmp-overlay", 1),
    ("--ro-overlay", 1),
    ("--exec-label", 1),
    ("--file-label", 1),
    ("--proc", 1),
    ("--dev", 1),
    ("--tmpfs", 1),
    ("--mqueue", 1),
    ("--dir", 1),
    ("--file", 2),
    ("--bind-data", 2),
    ("--ro-bind-data", 2),
    ("--symlink", 2),
    ("--seccomp", 1),
    ("--add-seccomp-fd", 1),
    ("--block-fd", 1),
    ("--userns-block-fd", 1),
    ("--info-fd", 1),
    ("--json-status-fd", 1),
    ("--new-session", 0),
    ("--die-with-parent", 0),
    ("--as-pid-1", 0),
    ("--cap-add", 1),
    ("--cap-drop", 1),
    ("--perms", 1),
    ("--size", 1),
    ("--chmod", 2),
];

/// `$@`, `$*`, `$1`, `${2}`: the script's own arguments.
fn positional(text: &str) -> bool {
    let inner = text
        .strip_prefix("${")
        .and_then(|t| t.strip_suffix('}'))
        .or_else(|| text.strip_prefix('$'))
        .unwrap_or("");
    matches!(inner, "@" | "*") || (!inner.is_empty() && inner.bytes().all(|b| b.is_ascii_digit()))
}

/// How many arguments each option takes.
fn arity(opt: &str) -> Option<usize> {
    OPTIONS.iter().find(|(o, _)| *o == opt).map(|(_, n)| *n)
}

/// One argument of a bwrap invocation as bash passes it, where it is
/// written.
struct Invocation {
    at: Loc,
    args: Vec<Word>,
}

/// Offsets into lines and columns, moving forward cheaply: the words of
/// one command are looked up mostly in order.
struct Locator<'t> {
    text: &'t str,
    starts: Vec<usize>,
    last: (usize, Loc),
}

impl<'t> Locator<'t> {
    fn new(text: &'t str) -> Self {
        let starts = std::iter::once(0)
            .chain(text.match_indices('\n').map(|(i, _)| i + 1))
            .collect();
        Locator {
            text,
            starts,
            last: (0, Loc { line: 1, column: 1 }),
        }
    }

    fn loc(&mut self, at: usize) -> Loc {
        let line = self.starts.partition_point(|s| *s <= at).max(1);
        let start = self.starts.get(line - 1).copied().unwrap_or(0);
        let line = u32::try_from(line).unwrap_or(u32::MAX);
        let (from, col) = if self.last.1.line == line && self.last.0 <= at && self.last.0 >= start {
            (self.last.0, self.last.1.column)
        } else {
            (start, 1)
        };
        let chars = self.text.get(from..at).map_or(0, |t| t.chars().count());
        let column = col.saturating_add(u32::try_from(chars).unwrap_or(u32::MAX));
        let loc = Loc { line, column };
        self.last = (at, loc);
        loc
    }
}

/// Each `bwrap` command the script runs, with its arguments expanded as
/// bash expands them ([`crate::shell::script`]).
fn invocations(text: &str) -> Result<Vec<Invocation>, ImportError> {
    let mut locs = Locator::new(text);
    let commands = crate::shell::script::commands(text).map_err(|(opener, at)| {
        let what = match opener {
            "'" => "single-quoted string".to_string(),
            "\"" => "double-quoted string".to_string(),
            _ => format!("`{opener}`"),
        };
        ImportError::new(ImportErrorKind::Syntax(format!(
            "unterminated {what} in the command line"
        )))
        .at(locs.loc(at))
    })?;
    let mut out = Vec::new();
    for c in commands {
        let texts: Vec<&str> = c.words.iter().map(|f| f.arg.text()).collect();
        // `$SUDO bwrap ...`: a first word the shell fills in is read as a
        // wrapper when bwrap follows it.
        let unknown_first = c
            .words
            .first()
            .is_some_and(|f| !matches!(f.arg, Arg::Known(_)));
        let found = match bwrap_at(&texts) {
            Some(f) => Some(f),
            None if unknown_first => {
                bwrap_at(texts.get(1..).unwrap_or_default()).map(|(i, a)| (i + 1, a))
            }
            None => None,
        };
        match found {
            Some((i, true)) => {
                let at = c.words.get(i).map_or(c.at, |w| w.at);
                return Err(ImportError::new(ImportErrorKind::Unrecognized(
                    "`bwrap` runs behind `xargs`, which adds words read at run time to its \
                     command line: the options it runs with are not all in the file"
                        .into(),
                ))
                .at(locs.loc(at)));
            }
            Some((i, false)) => {
                let args: Vec<Word> = c
                    .words
                    .iter()
                    .skip(i + 1)
                    .map(|f| Word {
                        text: f.arg.text().to_string(),
                        loc: locs.loc(f.at),
                        operator: false,
                        expands: !matches!(f.arg, Arg::Known(_)),
                        any: matches!(f.arg, Arg::Any(_)),
                    })
                    .collect();
                // `bwrap --version`, `bwrap --help`: no sandbox runs.
                let informational = args
                    .iter()
                    .take_while(|w| w.text != "--")
                    .any(|w| !w.expands && (w.text == "--version" || w.text == "--help"));
                if informational {
                    continue;
                }
                let at = c.words.get(i).map_or(c.at, |w| w.at);
                out.push(Invocation {
                    at: locs.loc(at),
                    args,
                });
            }
            None => {
                // An array or variable that names bwrap but was built where
                // the reader cannot follow it (a loop, a branch, a function).
                if let Some((f, (name, set_at, why))) = c
                    .words
                    .iter()
                    .find_map(|f| f.bwrap_var.as_ref().map(|v| (f, v)))
                {
                    let used = locs.loc(f.at);
                    let set = locs.loc(*set_at);
                    return Err(ImportError::new(ImportErrorKind::Unrecognized(format!(
                        "the command at line {} runs `${name}`, which names `bwrap` but is built \
                         where its words cannot be read without running the script (line {}: {why}); \
                         write the bwrap command line out, or build it from literal words only",
                        used.line, set.line
                    )))
                    .at(used));
                }
            }
        }
    }
    Ok(out)
}

/// Each `bwrap` invocation's arguments (after the program) as bash would
/// pass them: [`Arg::Known`] values, or what the script does not show,
/// as written. The oracle test holds this against bash.
pub fn argv(text: &str) -> Result<Vec<Vec<Arg>>, ImportError> {
    Ok(invocations(text)?
        .into_iter()
        .map(|inv| {
            inv.args
                .into_iter()
                .map(|w| {
                    if w.any {
                        Arg::Any(w.text)
                    } else if w.expands {
                        Arg::One(w.text)
                    } else {
                        Arg::Known(w.text)
                    }
                })
                .collect()
        })
        .collect())
}

/// One argument as `isolint fix` edits it: the text bash passes, where the
/// word is written, and whether the shell fills it in.
pub(crate) type SourceWord = (String, Loc, bool);

/// Each invocation's position (its `bwrap` word) and its arguments: the
/// text bash passes, where the word is written, and whether the shell
/// fills it in. What `isolint fix` edits a script by.
pub(crate) fn invocation_words(text: &str) -> Result<Vec<(Loc, Vec<SourceWord>)>, ImportError> {
    Ok(invocations(text)?
        .into_iter()
        .map(|inv| {
            let words = inv
                .args
                .into_iter()
                .map(|w| (w.text, w.loc, w.expands))
                .collect();
            (inv.at, words)
        })
        .collect())
}

pub fn import(text: &str) -> Result<Vec<(String, Draft)>, ImportError> {
    let found = invocations(text)?;
    if found.is_empty() {
        return Err(ImportError::new(ImportErrorKind::Unrecognized(
            "no `bwrap` command line found".into(),
        ))
        .at(Loc { line: 1, column: 1 }));
    }
    // One profile per invocation; named by its line when there are several.
    let several = found.len() > 1;
    let mut out: Vec<(String, Draft)> = Vec::new();
    for inv in found {
        let args: Vec<&Word> = inv.args.iter().collect();
        let mut d = Draft::new("bwrap", "imported from a bwrap command line", inv.at);
        parse(&mut d, &args, inv.at)?;
        let mut name = if several {
            format!("line {}", inv.at.line)
        } else {
            String::new()
        };
        if out.iter().any(|(n, _)| *n == name) {
            name = format!("line {} column {}", inv.at.line, inv.at.column);
        }
        out.push((name, d));
    }
    Ok(out)
}

/// A bind mount from `src` at `dst`, as `opt` (`--bind`, `--ro-bind`,
/// `--dev-bind` and their `-try` forms) makes it, on top of the table.
/// It hides what is below its target unless `covers` is false: bwrap
/// skips a `-try` bind whose source is missing, which the script does not
/// show, and an overlay's layers hide only together.
fn bind(
    d: &mut Draft,
    table: &mut MountTable,
    opt: &str,
    (src, src_at): (&str, Loc),
    (dst, dst_at): (&str, Loc),
    (at, covers): (Loc, bool),
) {
    let ro = opt.starts_with("--ro-");
    let source = match super::expand_home(src) {
        Some(e) => {
            d.note(
                src_at,
                format!("`{src}` is the caller's home directory; shown as `{e}`"),
            );
            e
        }
        None => src.to_string(),
    };
    let target = super::expand_home(dst).unwrap_or_else(|| dst.to_string());
    if covers {
        table.cover(d, &target, &format!("{opt} {src} {dst}"), at);
    }
    table.host(
        Planned {
            source,
            src_at,
            target,
            dst_at,
            read_only: ro,
            access_at: at,
        },
        format!("{opt} {src} {dst}"),
    );
    if opt.starts_with("--dev-") {
        d.note(
            at,
            format!("`{opt}` also allows device access under `{dst}`"),
        );
        // `--dev-bind / /` or `/dev` hands over every host device node; a
        // node under /dev, that one.
        let s = src.trim_end_matches('/');
        let dev = if s.is_empty() || s == "/dev" {
            Some("*")
        } else {
            s.starts_with("/dev/").then_some(s)
        };
        if let Some(dev) = dev {
            if !d.has("/boundary/devices") {
                d.set("/boundary/devices", OVal::arr(), at);
            }
            d.push("/boundary/devices", dev, src_at);
        }
    }
    if opt.ends_with("-try") {
        d.note(
            at,
            format!("`{opt}` is skipped when `{src}` does not exist"),
        );
    }
}

/// Options the shell supplies when the script runs, or reads from a
/// descriptor: a writable mount of an unknown path at an unknown place
/// stands for them, so the profile blocks until they are written out.
fn unknown_mount(table: &mut MountTable, written: &str, at: Loc) {
    table.host(
        Planned {
            source: written.to_string(),
            src_at: at,
            target: written.to_string(),
            dst_at: at,
            read_only: false,
            access_at: at,
        },
        written.to_string(),
    );
}

/// Add a namespace to those unshared, once: the list stays as short as the
/// kinds of namespace, whatever the script repeats.
fn unshare<'a>(unshared: &mut Vec<&'a str>, ns: &'a str) {
    if !unshared.contains(&ns) {
        unshared.push(ns);
    }
}

/// Entries kept in the order they were added and removed by name, each
/// removal costing only the entries it removes: a script of 100,000
/// `--unsetenv` or `--cap-drop` options is read in linear time.
struct Removable<T> {
    items: Vec<Option<(String, T)>>,
    live: std::collections::HashMap<String, Vec<usize>>,
}

impl<T> Default for Removable<T> {
    fn default() -> Self {
        Removable {
            items: Vec::new(),
            live: std::collections::HashMap::new(),
        }
    }
}

impl<T> Removable<T> {
    fn push(&mut self, name: String, value: T) {
        self.live
            .entry(name.clone())
            .or_default()
            .push(self.items.len());
        self.items.push(Some((name, value)));
    }

    fn remove(&mut self, name: &str) {
        for i in self.live.remove(name).unwrap_or_default() {
            if let Some(item) = self.items.get_mut(i) {
                *item = None;
            }
        }
    }

    fn clear(&mut self) {
        for (_, at) in self.live.drain() {
            for i in at {
                if let Some(item) = self.items.get_mut(i) {
                    *item = None;
                }
            }
        }
    }

    /// What is left, in the order it was added.
    fn into_items(self) -> impl Iterator<Item = (String, T)> {
        self.items.into_iter().flatten()
    }
}

/// Read the bwrap options `args` (after the `bwrap` word at `bw`) into
/// `d`: the options in bwrap's order, then what they add up to.
fn parse(d: &mut Draft, args: &[&Word], bw: Loc) -> Result<(), ImportError> {
    d.set("/boundary/kind", "container", bw);
    d.set("/boundary/runtime/name", "bubblewrap", bw);
    d.undeclared(
        "/boundary/runtime/version",
        "the command line does not say which bubblewrap version runs it",
    );
    d.undeclared(
        "/boundary/runtime/patched_on",
        "the command line does not say when bubblewrap was updated",
    );
    d.set("/boundary/privileged", false, bw);
    d.set("/boundary/no_new_privileges", true, bw);
    d.note(bw, "bubblewrap always sets no-new-privileges and starts from an empty root in a new mount namespace");
    d.ensure_array("/mounts", bw);

    let (o, command) = read_options(d, args)?;
    o.table.write(d);
    for (src, at) in o.overlay_sources {
        d.note(
            at,
            format!("`--overlay-src {src}` is not used by an overlay; bwrap refuses to start"),
        );
    }
    let ns_at = bw;
    match o.new_session {
        Some(at) => d.set("/boundary/terminal", "none", at),
        None => {
            d.set("/boundary/terminal", "shared", bw);
            d.note(bw, "no `--new-session`: the command keeps the caller's session and controlling terminal");
        }
    }
    d.set("/boundary/host_namespaces", OVal::arr(), ns_at);
    for ns in ["pid", "network", "ipc", "uts", "user"] {
        if !o.unshared.contains(&ns) {
            d.push("/boundary/host_namespaces", ns, ns_at);
        }
    }
    if !o.unshared.contains(&"cgroup") {
        d.push("/boundary/host_namespaces", "cgroup", ns_at);
    }
    if o.unshared.contains(&"network") {
        d.set("/network/egress", "deny", ns_at);
        d.set("/network/enforced_by", "firewall", ns_at);
        d.set("/network/allow", OVal::arr(), ns_at);
        d.note(ns_at, "`--unshare-net` leaves only loopback; mapped as egress denied at the kernel (firewall)");
    } else {
        d.set("/network/egress", "allow-all", ns_at);
        d.set("/network/enforced_by", "none", ns_at);
    }

    match o.clearenv {
        Some(at) => d.set("/environment/inherit", false, at),
        None => d.set("/environment/inherit", true, bw),
    }
    d.set(
        "/environment/variables",
        OVal::obj(),
        o.clearenv.unwrap_or(bw),
    );
    for (k, (v, at)) in o.vars.into_items() {
        d.set(&Draft::variable_ptr(&k), v, at);
    }

    match o.uid {
        Some((u, at)) => d.set(
            "/boundary/user",
            match o.gid {
                Some(g) => format!("{u}:{g}"),
                None => u,
            },
            at,
        ),
        None => d.undeclared(
            "/boundary/user",
            "no `--uid`: the command runs with the caller's uid",
        ),
    }
    d.set("/boundary/capabilities/add", OVal::arr(), bw);
    for (c, at) in o.caps.into_items() {
        d.push("/boundary/capabilities/add", c, at);
    }
    d.set("/boundary/capabilities/drop", vec!["ALL".to_string()], bw);
    match o.seccomp {
        Some(at) => d.set("/boundary/seccomp", "custom", at),
        None => d.set("/boundary/seccomp", "unconfined", bw),
    }
    let root_mount = match d.get("/mounts") {
        Some(OVal::Arr(items)) => items.iter().rev().find_map(|m| match m {
            OVal::Obj(f)
                if f.iter()
                    .any(|(k, v)| k == "target" && *v == OVal::Str("/".into())) =>
            {
                f.iter()
                    .find(|(k, _)| k == "access")
                    .map(|(_, v)| *v == OVal::Str("read-only".into()))
            }
            _ => None,
        }),
        _ => None,
    };
    match (root_mount, o.root_ro) {
        (Some(ro), _) => d.set("/boundary/read_only_root", ro, bw),
        (None, Some(at)) => d.set("/boundary/read_only_root", true, at),
        (None, None) => {
            d.set("/boundary/read_only_root", false, bw);
            d.note(
                bw,
                "nothing is bound at `/`: the root is an empty, writable tmpfs discarded at exit",
            );
        }
    }

    let mut it = command.iter();
    match it.next() {
        Some(exe) => {
            d.set("/command/executable", exe.text.as_str(), exe.loc);
            d.set("/command/arguments", OVal::arr(), exe.loc);
            d.map("/command", exe.loc);
            for a in it {
                d.push("/command/arguments", a.text.as_str(), a.loc);
            }
            if is_expansion(exe) {
                d.note(
                    exe.loc,
                    format!("the program is `{}`, which the shell fills in when the script runs (often from the script's own arguments); it is kept as written", exe.text),
                );
            } else if command.iter().any(|w| w.expands) {
                d.note(
                    exe.loc,
                    "the command uses shell expansions (`$...`); they are kept as written",
                );
            }
        }
        None => d.undeclared("/command", "no program follows the bwrap options"),
    }
    if let Some((dir, at)) = o.chdir {
        super::working_dir(d, &dir, at, "--chdir");
    }
    d.ensure_array("/setup", bw);
    for (ptr, why) in [
        (
            "/tenancy",
            "a command line does not say who wrote the code it runs",
        ),
        (
            "/needs",
            "a command line does not list the job's required inputs and outputs",
        ),
        (
            "/credentials",
            "credentials, if any, arrive through the environment or bound files",
        ),
        (
            "/limits",
            "bubblewrap sets no time, memory, CPU, process or output limits",
        ),
        ("/concurrency", "a command line describes one run"),
        (
            "/dependencies",
            "how dependencies were prepared is not on the command line",
        ),
        ("/artifacts", "artifact collection is outside bubblewrap"),
        (
            "/cleanup",
            "bubblewrap's namespaces end with the command; the host is not cleaned",
        ),
    ] {
        d.undeclared(ptr, why);
    }
    Ok(())
}

/// What the options say, gathered in bwrap's order before it is written
/// into the profile (a later option overrides or removes an earlier one).
#[derive(Default)]
struct Options {
    unshared: Vec<&'static str>,
    clearenv: Option<Loc>,
    uid: Option<(String, Loc)>,
    gid: Option<String>,
    caps: Removable<Loc>,
    seccomp: Option<Loc>,
    new_session: Option<Loc>,
    root_ro: Option<Loc>,
    chdir: Option<(String, Loc)>,
    vars: Removable<(String, Loc)>,
    /// The mounts in bwrap's order; written into the profile at the end,
    /// without those a later mount hides.
    table: MountTable,
    overlay_sources: Vec<(String, Loc)>,
}

/// Walk the options up to the command: each option with its arguments,
/// and words the shell fills in kept as unknown options. Returns the
/// options read and the command's words.
fn read_options<'w>(
    d: &mut Draft,
    args: &[&'w Word],
) -> Result<(Options, Vec<&'w Word>), ImportError> {
    let mut o = Options::default();
    // Where the last bwrap option (or `--`) is: a word the shell expands
    // is read as options while one follows (found once, not by a scan per
    // word).
    let last_option = args.iter().rposition(|x| {
        !x.expands && (x.text == "--" || (x.text.starts_with("--") && arity(&x.text).is_some()))
    });
    let mut i = 0;
    let mut command: Vec<&Word> = Vec::new();
    while let Some(w) = args.get(i) {
        let opt = w.text.as_str();
        if opt == "--" && !w.expands {
            command = args.iter().skip(i + 1).copied().collect();
            break;
        }
        let later_options = last_option.is_some_and(|j| j > i);
        // Any number of words from a variable or array the script builds
        // out of reach (`"${ARGS[@]}"` filled by a function) are options
        // as much as a command; the script's own arguments (`"$@"`) are
        // the command by convention.
        let unknown_options = w.any && !positional(opt);
        if w.expands && (later_options || opt.starts_with('-') || unknown_options) {
            // `$OPTS`, `"${args[@]}"`, `$(flags)`: options the shell supplies
            // when the script runs. While bwrap options follow, the word is
            // read as more options, never as the start of the command, so
            // nothing after it is lost; what it may bind is unknown, so it
            // stands in the profile as a writable mount of an unknown path,
            // which blocks until the options are written out.
            d.note(
                w.loc,
                format!("`{opt}` is expanded by the shell when the script runs; the options it supplies are not visible here, so it is kept as a writable mount of an unknown path"),
            );
            unknown_mount(&mut o.table, opt, w.loc);
            i += 1;
            continue;
        }
        if !opt.starts_with('-') || (is_expansion(w) && !later_options) {
            command = args.iter().skip(i).copied().collect();
            break;
        }
        let n =
            arity(opt).ok_or_else(|| invalid(w.loc, format!("unknown bwrap option `{opt}`")))?;
        let params: Vec<&Word> = args.iter().skip(i + 1).take(n).copied().collect();
        if params.len() < n {
            return Err(invalid(
                w.loc,
                format!("`{opt}` needs {}", crate::text::plural(n, "argument")),
            ));
        }
        o.apply(d, opt, n, &params, w);
        i += 1 + n;
    }
    Ok((o, command))
}

impl Options {
    /// Take in one option `opt` (the word `w`) and its `n` arguments.
    fn apply(&mut self, d: &mut Draft, opt: &str, n: usize, params: &[&Word], w: &Word) {
        let p = |k: usize| {
            params
                .get(k)
                .map_or(("", w.loc), |x| (x.text.as_str(), x.loc))
        };
        match opt {
            "--unshare-all" => ["user", "ipc", "pid", "network", "uts", "cgroup"]
                .into_iter()
                .for_each(|ns| unshare(&mut self.unshared, ns)),
            "--share-net" => self.unshared.retain(|n| *n != "network"),
            "--unshare-user" | "--unshare-user-try" => unshare(&mut self.unshared, "user"),
            "--unshare-ipc" => unshare(&mut self.unshared, "ipc"),
            "--unshare-pid" => unshare(&mut self.unshared, "pid"),
            "--unshare-net" => unshare(&mut self.unshared, "network"),
            "--unshare-uts" => unshare(&mut self.unshared, "uts"),
            "--unshare-cgroup" | "--unshare-cgroup-try" => unshare(&mut self.unshared, "cgroup"),
            "--clearenv" => {
                self.clearenv = Some(w.loc);
                self.vars.clear();
            }
            "--setenv" => {
                if params.get(1).is_some_and(|x| x.expands) {
                    d.note(p(1).1, format!("the value of `{}` is expanded by the shell; it is kept as written", p(0).0));
                }
                self.vars.push(p(0).0.to_string(), (p(1).0.to_string(), p(1).1));
            }
            "--unsetenv" => {
                let name = p(0).0;
                self.vars.remove(name);
                d.note(w.loc, format!("`{name}` is removed from the environment"));
            }
            "--uid" => self.uid = Some((p(0).0.to_string(), p(0).1)),
            "--gid" => self.gid = Some(p(0).0.to_string()),
            "--cap-add" => self.caps.push(cap_name(p(0).0), p(0).1),
            "--cap-drop" => match cap_name(p(0).0) {
                c if c == "ALL" => self.caps.clear(),
                c => self.caps.remove(&c),
            },
            "--seccomp" | "--add-seccomp-fd" => self.seccomp = Some(w.loc),
            "--bind" | "--bind-try" | "--dev-bind" | "--dev-bind-try" | "--ro-bind" | "--ro-bind-try" => {
                let (src, src_at) = p(0);
                let (dst, dst_at) = p(1);
                bind(d, &mut self.table, opt, (src, src_at), (dst, dst_at), (w.loc, !opt.ends_with("-try")));
                if params.iter().any(|x| x.expands && super::expand_home(&x.text).is_none()) {
                    d.note(w.loc, "a path here is expanded by the shell; it is kept as written");
                }
            }
            "--overlay-src" => self.overlay_sources.push((p(0).0.to_string(), p(0).1)),
            "--overlay" | "--tmp-overlay" | "--ro-overlay" => {
                // The overlay's lower layers are host paths the sandbox
                // reads at its target; `--overlay` also writes its upper
                // directory on the host.
                let (dst, dst_at) = p(n - 1);
                if self.overlay_sources.is_empty() {
                    d.note(w.loc, format!("`{opt}` has no `--overlay-src` before it; bwrap refuses to start"));
                }
                let written: Vec<&str> = params.iter().map(|x| x.text.as_str()).collect();
                self.table.cover(d, dst, &format!("{opt} {}", written.join(" ")), w.loc);
                for (src, src_at) in std::mem::take(&mut self.overlay_sources) {
                    bind(d, &mut self.table, "--ro-bind", (&src, src_at), (dst, dst_at), (w.loc, false));
                    d.note(src_at, format!("`--overlay-src {src}` is read through the overlay at `{dst}`"));
                }
                if opt == "--overlay" {
                    let (upper, upper_at) = p(0);
                    bind(d, &mut self.table, "--bind", (upper, upper_at), (dst, dst_at), (w.loc, false));
                    d.note(w.loc, format!("`--overlay` writes the changes made under `{dst}` to `{upper}` on the host (work directory `{}`)", p(1).0));
                } else if opt == "--tmp-overlay" {
                    d.note(w.loc, format!("`--tmp-overlay {dst}`: writes go to a tmpfs discarded at exit"));
                }
            }
            "--remount-ro" => {
                let (dst, _) = p(0);
                let dst = super::expand_home(dst).unwrap_or_else(|| dst.to_string());
                match self.table.remount_read_only(&dst, w.loc) {
                    Some(true) => {}
                    // The empty root bwrap starts from, made read-only.
                    Some(false) if dst.trim_end_matches('/').is_empty() => self.root_ro = Some(w.loc),
                    Some(false) => d.note(w.loc, format!("`--remount-ro {dst}` names no mount this command line makes at `{dst}`: bwrap refuses to start unless the host has a mount point there, inside a bind")),
                    None => d.note(w.loc, format!("`--remount-ro {dst}` is not an absolute path without `..`; bwrap resolves it inside the sandbox, so the mounts are kept as writable as written")),
                }
            }
            "--bind-fd" | "--ro-bind-fd" | "--file" | "--bind-data" | "--ro-bind-data" => {
                // Content or a directory the script hands over through a
                // descriptor: not visible here, so it blocks.
                let (fd, _) = p(0);
                let (dst, dst_at) = p(1);
                let what = if opt.ends_with("-fd") { "directory" } else { "content" };
                let src = format!("<{what} of fd {fd}>");
                // Content is copied in: the host is not written back. A
                // descriptor's directory is the host's, writable unless
                // `--ro-bind-fd`.
                // `--file` copies content into the tree; the others mount
                // over what was at their target.
                if opt != "--file" {
                    self.table.cover(d, dst, &format!("{opt} {fd} {dst}"), w.loc);
                }
                self.table.host(
                    Planned {
                        source: src,
                        src_at: p(0).1,
                        target: dst.to_string(),
                        dst_at,
                        read_only: opt != "--bind-fd",
                        access_at: w.loc,
                    },
                    format!("{opt} {fd} {dst}"),
                );
                d.note(w.loc, format!("`{opt} {fd} {dst}` puts at `{dst}` a {what} the script passes through file descriptor {fd}, which is not visible here; kept as a mount of an unknown source"));
            }
            "--args" => {
                d.note(w.loc, format!("`--args {}` reads more options from a file descriptor; they are not visible here, so they are kept as a writable mount of an unknown path", p(0).0));
                unknown_mount(&mut self.table, &format!("<options from fd {}>", p(0).0), w.loc);
            }
            "--symlink" => d.note(w.loc, format!("`--symlink {} {}` creates a link in the sandbox's own root; the link's target is only reachable through the mounts", p(0).0, p(1).0)),
            "--perms" | "--size" => d.note(w.loc, format!("`{opt} {}` applies to the next option's file or tmpfs", p(0).0)),
            "--chmod" => d.note(w.loc, format!("`--chmod {} {}` changes the permissions of a path inside the sandbox", p(0).0, p(1).0)),
            "--userns" | "--userns2" | "--pidns" => d.note(w.loc, format!("`{opt}` joins an existing namespace, which may be the host's")),
            "--die-with-parent" => d.note(w.loc, "`--die-with-parent`: the sandbox is killed when the process that started bwrap dies"),
            "--new-session" => self.new_session = Some(w.loc),
            "--disable-userns" => d.note(w.loc, "`--disable-userns`: the command cannot create further user namespaces"),
            "--proc" | "--dev" | "--tmpfs" | "--mqueue" | "--dir" => {
                let dst = p(0).0;
                d.note(w.loc, format!("`{opt} {dst}` is a private filesystem, not a host path"));
                // `--dir` only makes a directory in what is already there.
                if opt != "--dir" {
                    let at = super::expand_home(dst).unwrap_or_else(|| dst.to_string());
                    self.table.cover(d, &at, &format!("{opt} {dst}"), w.loc);
                    self.table.private(&at, format!("{opt} {dst}"));
                }
            }
            "--chdir" => self.chdir = Some((p(0).0.to_string(), p(0).1)),
            "--hostname" | "--as-pid-1" | "--lock-file" | "--sync-fd" | "--block-fd"
            | "--userns-block-fd" | "--info-fd" | "--json-status-fd" | "--exec-label"
            | "--file-label" | "--argv0" | "--level-prefix" | "--assert-userns-disabled" => {
                d.note(w.loc, format!("`{opt}` has no profile equivalent"))
            }
            "--help" | "--version" => d.note(w.loc, format!("`{opt}` prints and exits; no sandbox runs")),
            _ => d.note(w.loc, format!("`{opt}` has no profile equivalent")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// bwrap is found behind every wrapper the shell analysis knows, with
    /// its options and operands, on the line it is on.
    #[test]
    fn bwrap_is_found_behind_wrappers_and_assignments() {
        for prefix in [
            "",
            "exec ",
            "exec -a name ",
            "sudo ",
            "sudo -u ci -g ci ",
            "/usr/bin/sudo -E ",
            "doas -u ci ",
            "env ",
            "env -i HOME=/tmp ",
            "env -u SECRET -C /tmp ",
            "X=1 Y=2 ",
            "nohup ",
            "setsid ",
            "nice -n 10 ",
            "ionice -c 3 ",
            "timeout 60 ",
            "timeout -s KILL 60 ",
            "stdbuf -o L ",
            "time ",
            "command ",
            "sudo -u ci env -i timeout 5 ",
        ] {
            for program in ["bwrap", "/usr/bin/bwrap"] {
                let text =
                    format!("#!/bin/sh\nset -e\n{prefix}{program} --ro-bind /usr /usr -- true\n");
                assert_eq!(find_invocation(&text), Some(3), "{text}");
                let (mounts, _) = access(&text);
                assert_eq!(
                    mounts,
                    [("/usr".to_string(), "read-only".to_string())],
                    "{text}"
                );
            }
        }
        for other in [
            "sudo -u bwrap true",
            "echo bwrap",
            "timeout bwrap true",
            "nice -n bwrap",
        ] {
            assert_eq!(find_invocation(other), None, "{other}");
        }
    }

    fn access(text: &str) -> (Vec<(String, String)>, Vec<String>) {
        let (_, d) = import(text).unwrap().remove(0);
        let mounts = super::reading_tests::mounts(&d)
            .into_iter()
            .map(|(_, target, access)| (target, access))
            .collect();
        let notes = d.notes.iter().map(|n| n.message.to_string()).collect();
        (mounts, notes)
    }

    /// `--remount-ro` makes the last bind at that target read-only, as
    /// written in the profile (a home directory included), and an earlier
    /// bind at the same target is covered, so left out; one naming no
    /// mount is a note.
    #[test]
    fn remount_read_only_finds_the_last_bind_at_its_target() {
        let rw = |t: &str| (t.to_string(), "read-write".to_string());
        let ro = |t: &str| (t.to_string(), "read-only".to_string());
        type Case<'a> = (&'a str, Vec<(String, String)>, Option<&'a str>);
        let cases: [Case<'_>; 4] = [
            (
                "bwrap --bind /a /x --bind /b /x --remount-ro /x -- sh",
                vec![ro("/x")],
                None,
            ),
            (
                "bwrap --bind /a /x --remount-ro /x --bind /b /x -- sh",
                vec![rw("/x")],
                None,
            ),
            (
                "bwrap --bind /a /x --remount-ro /y -- sh",
                vec![rw("/x")],
                Some("`--remount-ro /y` names no mount this command line makes at `/y`: bwrap refuses to start unless the host has a mount point there, inside a bind"),
            ),
            (
                "bwrap --bind /a '~/w' --bind /b /c --remount-ro '/home/<user>/w' -- sh",
                vec![ro("/home/<user>/w"), rw("/c")],
                None,
            ),
        ];
        for (text, want, note) in cases {
            let (mounts, notes) = access(text);
            assert_eq!(mounts, want, "{text}");
            if let Some(n) = note {
                assert!(notes.iter().any(|x| x == n), "{text}: {notes:?}");
            }
        }
    }

    /// A word the shell expands is read as options while a bwrap option
    /// follows it anywhere later; after the last option, a variable that
    /// may hold several words still is (it blocks as an unknown mount),
    /// and the script's own arguments (`"$@"`) start the command.
    #[test]
    fn expanded_words_are_options_while_options_follow() {
        let (_, d) = import("bwrap $A --bind /a /b $B --unshare-net $C \"$@\"\n")
            .unwrap()
            .remove(0);
        let notes: Vec<&str> = d.notes.iter().map(|n| n.message.as_ref()).collect();
        for w in ["$A", "$B", "$C"] {
            assert!(
                notes
                    .iter()
                    .any(|n| n.starts_with(&format!("`{w}` is expanded by the shell"))),
                "{w}: {notes:?}"
            );
        }
        assert_eq!(
            d.get("/command/executable"),
            Some(&OVal::Str("$@".into())),
            "`\"$@\"` starts the command"
        );
    }
}

#[cfg(test)]
mod reading_tests {
    use super::*;

    /// (source, target, access) of a mount.
    type Mount = (String, String, String);

    pub(super) fn mounts(d: &Draft) -> Vec<Mount> {
        match d.get("/mounts") {
            Some(OVal::Arr(items)) => items
                .iter()
                .map(|m| {
                    let field = |k: &str| match m {
                        OVal::Obj(f) => f
                            .iter()
                            .find(|(key, _)| key == k)
                            .and_then(|(_, v)| match v {
                                OVal::Str(s) => Some(s.clone()),
                                _ => None,
                            })
                            .unwrap_or_default(),
                        _ => String::new(),
                    };
                    (field("source"), field("target"), field("access"))
                })
                .collect(),
            _ => Vec::new(),
        }
    }

    fn m(s: &str, t: &str, a: &str) -> Mount {
        (s.into(), t.into(), a.into())
    }

    /// Options held in arrays and variables are read as bash expands
    /// them: literal arrays, `+=`, wrapper arrays, split variables. Each
    /// row failed before (the options were dropped or the file refused).
    #[test]
    fn arrays_and_variables_are_expanded() {
        let ro = "read-only";
        let rw = "read-write";
        let table: Vec<(&str, Vec<Mount>)> = vec![
            (
                "args=(--ro-bind / / --unshare-all)\nexec bwrap \"${args[@]}\" \"$@\"\n",
                vec![m("/", "/", ro)],
            ),
            (
                "sandbox=(env -i\n  /usr/bin/bwrap\n  --clearenv # comment's\n  --bind /tmp /tmp\n)\nexec \"${sandbox[@]}\" -- \"$@\"\n",
                vec![m("/tmp", "/tmp", rw)],
            ),
            (
                "a=(--ro-bind /usr /usr)\na+=(--bind /srv /srv)\nbwrap \"${a[@]}\" -- sh\n",
                vec![m("/usr", "/usr", ro), m("/srv", "/srv", rw)],
            ),
            (
                "OPTS='--ro-bind /a /b  --bind /c /d'\nbwrap $OPTS -- sh\n",
                vec![m("/a", "/b", ro), m("/c", "/d", rw)],
            ),
            (
                "D=/data\nbwrap --bind \"$D/x y\" \"${D}\" -- sh\n",
                vec![m("/data/x y", "/data", rw)],
            ),
            (
                "declare -a A=(--ro-bind $'/\\x65tc' /etc)\nbwrap \"${A[@]}\" sh\n",
                vec![m("/etc", "/etc", ro)],
            ),
            (
                "B=bwrap\n\"$B\" --ro-bind /x /x sh\n",
                vec![m("/x", "/x", ro)],
            ),
            (
                // A redirection in the middle does not end the options.
                "bwrap --seccomp 10 10< f.bpf --ro-bind /y /y /bin/sh\n",
                vec![m("/y", "/y", ro)],
            ),
        ];
        let mut wrong = Vec::new();
        for (text, want) in &table {
            match import(text) {
                Ok(mut v) if v.len() == 1 => {
                    let (_, d) = v.remove(0);
                    if mounts(&d) != *want {
                        wrong.push(format!("{text:?}: {:?}", mounts(&d)));
                    }
                }
                other => wrong.push(format!("{text:?}: {:?}", other.map(|v| v.len()))),
            }
        }
        assert!(
            wrong.is_empty(),
            "{} of {}:\n{}",
            wrong.len(),
            table.len(),
            wrong.join("\n")
        );
    }

    /// Here-documents and quoting that once made the lexer refuse a valid
    /// script.
    #[test]
    fn valid_scripts_are_never_refused_by_the_lexer() {
        let table = [
            "cat <<EOF\nit's here\nEOF\nbwrap --ro-bind /a /a sh\n",
            "cat <<'EOF'\ndon't \"stop\" $(x\nEOF\nbwrap --ro-bind /a /a sh\n",
            "cat <<-EOF\n\tit's indented\n\tEOF\nbwrap --ro-bind /a /a sh\n",
            "cat <<A <<'B'\none's\nA\ntwo\"s\nB\nbwrap --ro-bind /a /a sh\n",
            "bwrap --ro-bind /a /a sh <<EOF\nthe input's text\nEOF\n",
            "bwrap --setenv X $'it\\'s' --ro-bind /a /a sh\n",
            "bwrap --setenv X $\"it's\" --ro-bind /a /a sh\n",
            "bwrap --ro-bind /a /a sh <<EOF\nno end line, bash warns and goes on's\n",
        ];
        for text in table {
            let got = import(text);
            assert!(
                got.is_ok(),
                "{text:?}: {:?}",
                got.err().map(|e| e.to_string())
            );
        }
    }

    /// Every bwrap invocation is a profile of its own: a second
    /// `bwrap --bind / /` is never ignored.
    #[test]
    fn each_invocation_is_a_profile() {
        let text = "if [ -n \"$SAFE\" ]; then\n  bwrap --ro-bind /usr /usr sh\nelse\n  bwrap --bind / / sh\nfi\nbwrap --version\n";
        let got = import(text).unwrap();
        let names: Vec<&str> = got.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(names, ["line 2", "line 4"]);
        assert_eq!(mounts(&got[1].1), [m("/", "/", "read-write")]);
        // A bwrap command in a here-document a shell runs counts too.
        let text =
            "bwrap --ro-bind /usr /usr sh\nssh host bash <<'EOF'\nbwrap --bind / / sh\nEOF\n";
        let got = import(text).unwrap();
        let names: Vec<&str> = got.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(names, ["line 1", "line 3"]);
        assert_eq!(mounts(&got[1].1), [m("/", "/", "read-write")]);
    }

    /// An array naming bwrap but built where it cannot be read is refused
    /// with both lines; one holding only options blocks as an unknown
    /// mount.
    #[test]
    fn unreadable_arrays_refuse_or_block() {
        let e = import("if x; then SB=(bwrap --unshare-net); fi\n\"${SB[@]}\" sh\n")
            .err()
            .unwrap();
        let shown = e.to_string();
        assert!(
            shown.contains("line 2") && shown.contains("line 1"),
            "{shown}"
        );
        for text in [
            "for d in /a /b; do A+=(--ro-bind $d $d); done\nexec bwrap \"${A[@]}\" \"$@\"\n",
            "f() { A=(--bind / /); }\nf\nbwrap \"${A[@]}\" -- sh\n",
            "source ./opts.sh\nbwrap $OPTS -- sh\n",
            "bwrap --args 3 sh 3<args\n",
        ] {
            let (_, d) = import(text).unwrap().remove(0);
            let ms = mounts(&d);
            assert!(
                ms.iter()
                    .any(|(s, _, a)| !s.starts_with('/') && a == "read-write"),
                "{text:?}: {ms:?}"
            );
        }
    }

    /// Each option of issue 44's list is read into the profile: a mount,
    /// a field or a note that names it; options whose content the script
    /// does not show block as a mount of an unknown source.
    #[test]
    fn listed_options_are_read() {
        let ro = "read-only";
        let rw = "read-write";
        // (script, mounts, a note that must be there, a field and its value)
        type Row<'a> = (
            &'a str,
            Vec<Mount>,
            Option<&'a str>,
            Option<(&'a str, &'a str)>,
        );
        let table: Vec<Row<'_>> = vec![
            (
                "bwrap --overlay-src /usr --ro-overlay /usr sh",
                vec![m("/usr", "/usr", ro)],
                Some("`--overlay-src /usr` is read through the overlay at `/usr`"),
                None,
            ),
            (
                "bwrap --bind /a /w --overlay-src /b --tmp-overlay /w sh",
                vec![m("/b", "/w", ro)],
                Some("`--tmp-overlay /w` covers `--bind /a /w` at `/w`"),
                None,
            ),
            (
                "bwrap --overlay-src /b --overlay /up /wk /w sh",
                vec![m("/b", "/w", ro), m("/up", "/w", rw)],
                Some("`--overlay` writes the changes made under `/w` to `/up` on the host"),
                None,
            ),
            (
                "bwrap --overlay /up /wk /w sh",
                vec![m("/up", "/w", rw)],
                Some("`--overlay` has no `--overlay-src` before it; bwrap refuses to start"),
                None,
            ),
            (
                "bwrap --args 3 sh",
                vec![m("<options from fd 3>", "<options from fd 3>", rw)],
                Some("`--args 3` reads more options from a file descriptor"),
                None,
            ),
            (
                "bwrap --file 5 /etc/motd sh",
                vec![m("<content of fd 5>", "/etc/motd", ro)],
                Some("through file descriptor 5"),
                None,
            ),
            (
                "bwrap --bind-data 6 /etc/hosts sh",
                vec![m("<content of fd 6>", "/etc/hosts", ro)],
                Some("through file descriptor 6"),
                None,
            ),
            (
                "bwrap --bind /h /etc/hosts --ro-bind-data 7 /etc/hosts sh",
                vec![m("<content of fd 7>", "/etc/hosts", ro)],
                Some("covers `--bind /h /etc/hosts`"),
                None,
            ),
            (
                "bwrap --ro-bind /usr /usr --chdir /usr/src sh",
                vec![m("/usr", "/usr", ro)],
                None,
                Some(("/command/cwd", "/usr/src")),
            ),
            (
                "bwrap --perms 0700 --tmpfs /t sh",
                vec![],
                Some("`--perms 0700` applies to the next option's file or tmpfs"),
                None,
            ),
            (
                "bwrap --size 1048576 --tmpfs /t sh",
                vec![],
                Some("`--size 1048576` applies to the next option's file or tmpfs"),
                None,
            ),
            (
                "bwrap --bind /a /x --bind-try /b /x sh",
                vec![m("/a", "/x", rw), m("/b", "/x", rw)],
                Some("`--bind-try` is skipped when `/b` does not exist"),
                None,
            ),
            (
                "bwrap --dev-bind-try /dev/kvm /dev/kvm sh",
                vec![m("/dev/kvm", "/dev/kvm", rw)],
                Some("`--dev-bind-try` also allows device access under `/dev/kvm`"),
                Some(("/boundary/devices/0", "/dev/kvm")),
            ),
            (
                "bwrap --ro-bind /usr /usr --symlink usr/bin /bin sh",
                vec![m("/usr", "/usr", ro)],
                Some("`--symlink usr/bin /bin` creates a link in the sandbox's own root"),
                None,
            ),
        ];
        let mut wrong = Vec::new();
        for (text, want, note, field) in &table {
            let (_, d) = import(text).unwrap().remove(0);
            if mounts(&d) != *want {
                wrong.push(format!("{text}: mounts {:?}", mounts(&d)));
            }
            if let Some(n) = note {
                if !d.notes.iter().any(|x| x.message.contains(n)) {
                    wrong.push(format!("{text}: no note {n:?}"));
                }
            }
            if let Some((ptr, v)) = field {
                if d.get(ptr) != Some(&OVal::Str((*v).into())) {
                    wrong.push(format!("{text}: {ptr} is {:?}", d.get(ptr)));
                }
            }
        }
        assert!(
            wrong.is_empty(),
            "{} of {}:\n{}",
            wrong.len(),
            table.len(),
            wrong.join("\n")
        );
    }

    /// Overlay sources are host paths read at the overlay's target;
    /// content from a descriptor is a mount of an unknown source.
    #[test]
    fn overlays_and_descriptors_are_mounts() {
        let (_, d) = import(
            "bwrap --overlay-src ~/.aws --tmp-overlay /cfg --overlay-src /usr --overlay /up /work /usr \
             --ro-bind-data 3 /etc/passwd --file 4 /x --bind-fd 5 /y sh\n",
        )
        .unwrap()
        .remove(0);
        let ms = mounts(&d);
        for want in [
            m("/home/<user>/.aws", "/cfg", "read-only"),
            m("/usr", "/usr", "read-only"),
            m("/up", "/usr", "read-write"),
            m("<content of fd 3>", "/etc/passwd", "read-only"),
            m("<content of fd 4>", "/x", "read-only"),
            m("<directory of fd 5>", "/y", "read-write"),
        ] {
            assert!(ms.contains(&want), "{want:?} not in {ms:?}");
        }
    }
}
