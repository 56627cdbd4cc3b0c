//! bash is the oracle for how isolint reads bwrap scripts.
//!
//! A seeded generator writes scripts that pass bwrap its options through
//! every kind of quoting, variables, arrays (`+=` included), wrapper
//! arrays, here-documents, ANSI-C strings, substitutions and assignments
//! isolint cannot follow (loops, branches). bash runs each one with `bwrap`
//! replaced by a stub on `PATH` that only writes its argv, NUL-separated,
//! and exits; the script runs under `env -i`, in an empty directory made
//! for it, with no network namespace when `unshare -n` works. isolint's
//! reading ([`isolint_core::import::bwrap_argv`]) must equal bash's argv,
//! where a [`ShellArg::One`] stands for exactly one argument and a
//! [`ShellArg::Any`] for any number; or isolint refuses the script, which
//! only a script the generator marks as unreadable may get.
//!
//! The same file holds bwrap's option table against bubblewrap 0.8.0's own
//! `--help` and manual page (copies in `fixtures/bwrap/`), and against the
//! installed `bwrap --help` when there is one.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use isolint_core::import::{bwrap_argv, ShellArg, BWRAP_OPTIONS};

/// xorshift64*: the same cases on every machine.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
    fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }
}

/// Values the options carry: spaces, quotes, apostrophes, shell
/// characters, non-ASCII, empty.
const VALUES: &[&str] = &[
    "/usr",
    "/etc/resolv.conf",
    "/a b",
    "it's",
    "say \"hi\"",
    "$HOME",
    "back\\slash",
    "tab\there",
    "",
    "ü/ñ",
    "#not-a-comment",
    "semi;colon|pipe&amp",
    "(paren)",
    "new\nline",
    "--ro-bind",
    "a  b   c",
    "'",
    "\"",
    "`tick`",
    "$(not run)",
    "x=y",
];

/// `v` as one shell word, written one of several ways.
fn render(rng: &mut Rng, v: &str) -> String {
    match rng.below(7) {
        0 => single(v),
        1 => double(v),
        2 if !v.contains('\n') && !v.is_empty() => escaped(v),
        3 => ansi_c(rng, v),
        4 => format!("${}", double(v)),
        5 if v.chars().count() >= 2 => {
            // Pieces quoted differently, side by side.
            let cut = v
                .char_indices()
                .nth(1 + rng.below(v.chars().count() - 1))
                .map_or(v.len(), |(i, _)| i);
            let (a, b) = v.split_at(cut);
            format!("{}{}", render(rng, a), render(rng, b))
        }
        _ => single(v),
    }
}

fn single(v: &str) -> String {
    format!("'{}'", v.replace('\'', "'\\''"))
}

fn double(v: &str) -> String {
    let mut s = String::from("\"");
    for c in v.chars() {
        if matches!(c, '\\' | '"' | '$' | '`') {
            s.push('\\');
        }
        s.push(c);
    }
    s.push('"');
    s
}

fn escaped(v: &str) -> String {
    let mut s = String::new();
    for c in v.chars() {
        if !c.is_ascii_alphanumeric() && !matches!(c, '/' | '-' | '.' | '_') && c.is_ascii() {
            s.push('\\');
        }
        s.push(c);
    }
    s
}

fn ansi_c(rng: &mut Rng, v: &str) -> String {
    let mut s = String::from("$'");
    for c in v.chars() {
        match c {
            '\n' => s.push_str("\\n"),
            '\t' => s.push_str("\\t"),
            '\'' => s.push_str("\\'"),
            '\\' => s.push_str("\\\\"),
            c if c.is_ascii_alphanumeric() && rng.chance(70) => s.push(c),
            c if c.is_ascii() => match rng.below(3) {
                0 => s.push_str(&format!("\\x{:02x}", c as u32)),
                1 => s.push_str(&format!("\\{:03o}", c as u32)),
                _ => s.push_str(&format!("\\u{:04x}", c as u32)),
            },
            c => s.push(c),
        }
    }
    s.push('\'');
    s
}

/// A value with no field separators or glob characters: safe unquoted.
fn plain(v: &str) -> bool {
    !v.is_empty() && !v.contains([' ', '\t', '\n', '*', '?', '[', '~'])
}

/// One generated script.
struct Case {
    script: String,
    /// What cannot be read without running it is in the script; isolint
    /// may answer with placeholders.
    unknowns: bool,
    /// A wrapper array built under a condition: isolint may refuse.
    may_refuse: bool,
}

fn generate(rng: &mut Rng, n: usize) -> Case {
    let mut setup: Vec<String> = vec!["#!/bin/bash".into()];
    let mut words: Vec<String> = Vec::new();
    let mut unknowns = false;
    let mut may_refuse = false;
    let noise = |rng: &mut Rng, setup: &mut Vec<String>| match rng.below(8) {
        0 => {
            setup.push(": <<'EOF'\nit's a \"quoted\" body with $(no) `run` and (parens\nEOF".into())
        }
        1 => setup.push(": <<EOF\ndon't stop: $PWD isn't needed\nEOF".into()),
        2 => setup.push(": <<-EOF\n\tindented body's line\n\tEOF".into()),
        3 => setup.push(": <<A; : <<'B'\nfirst ' body\nA\nsecond \" body\nB".into()),
        4 => setup.push("# a comment with 'an apostrophe".into()),
        5 => setup.push("f() { local z=1; echo \"$z\" >/dev/null; }".into()),
        6 => setup.push("true && : done || : never".into()),
        _ => setup.push(": \"unused ' string\" 'another \" one'".into()),
    };
    for k in 0..3 + rng.below(9) {
        if rng.chance(30) {
            noise(rng, &mut setup);
        }
        let opt = *rng.pick(&["--ro-bind", "--bind", "--setenv", "--symlink", "--chmod"]);
        let opt = if opt == "--chmod" { "--perms" } else { opt };
        let argc = if opt == "--perms" { 1 } else { 2 };
        let vals: Vec<&str> = (0..argc).map(|_| *rng.pick(VALUES)).collect();
        let kind = match rng.below(26) {
            k @ 22.. if rng.chance(75) => k - 22,
            k => k,
        };
        match kind {
            // Written on the line.
            0..=8 => {
                words.push(render(rng, opt));
                for v in &vals {
                    words.push(render(rng, v));
                }
            }
            // A variable assigned literally, quoted or not where used.
            9..=12 => {
                let name = format!("v{n}_{k}");
                if rng.chance(30) {
                    // Assigned twice, or unset first: the last value counts.
                    setup.push(format!("{name}=stale"));
                    setup.push(format!("unset {name}"));
                }
                if rng.chance(30) && vals[0].chars().count() >= 2 {
                    let cut = vals[0].char_indices().nth(1).map_or(0, |(i, _)| i);
                    let (a, b) = vals[0].split_at(cut);
                    setup.push(format!("{name}={}", render(rng, a)));
                    setup.push(format!("{name}+={}", render(rng, b)));
                } else {
                    setup.push(format!("{name}={}", render(rng, vals[0])));
                }
                words.push(opt.to_string());
                match rng.below(4) {
                    0 if plain(vals[0]) => words.push(format!("${name}")),
                    1 => words.push(format!("\"${{{name}}}\"")),
                    2 => words.push(format!("\"pre-${name}\"")),
                    _ => words.push(format!("\"${name}\"")),
                }
                for v in vals.iter().skip(1) {
                    words.push(render(rng, v));
                }
            }
            // A literal array, maybe grown with `+=`, maybe over lines.
            13..=19 => {
                let name = format!("a{n}_{k}");
                let mut items = vec![render(rng, opt)];
                items.extend(vals.iter().map(|v| render(rng, v)));
                if rng.chance(40) {
                    let cut = 1 + rng.below(items.len() - 1);
                    let tail = items.split_off(cut);
                    setup.push(format!("{name}=({})", items.join(" ")));
                    setup.push(format!("{name}+=(\n  {} # comment's\n)", tail.join("\n  ")));
                } else {
                    setup.push(format!("declare -a {name}=({})", items.join(" ")));
                }
                match rng.below(6) {
                    0 if vals.iter().all(|v| plain(v)) => words.push(format!("${{{name}[@]}}")),
                    2 if vals.iter().all(|v| plain(v)) => {
                        // `$a` is its first element; `${a[*]}` joins.
                        words.push(format!("${name}"));
                        words.push(format!("\"${{{name}[*]}}\""));
                    }
                    1 => {
                        // Element by element.
                        for j in 0..=vals.len() {
                            words.push(format!("\"${{{name}[{j}]}}\""));
                        }
                    }
                    _ => words.push(format!("\"${{{name}[@]}}\"")),
                }
            }
            // A variable holding several options, unquoted: split.
            20 | 21 => {
                let name = format!("s{n}_{k}");
                setup.push(format!(
                    "{name}='--unshare-net  --die-with-parent\t--new-session'"
                ));
                words.push(format!("${name}"));
            }
            // What the reader cannot know.
            _ => {
                unknowns = true;
                match rng.below(10) {
                    0 => words.push("\"$@\"".into()),
                    9 => {
                        // A literal array grown in a loop: its first words
                        // stay known.
                        let name = format!("p{n}_{k}");
                        setup.push(format!("{name}=(--ro-bind /p{k} /p{k})"));
                        setup.push(format!("for i in 1 2; do {name}+=(--dir \"/q$i\"); done"));
                        setup.push(format!(
                            "if true; then {name}=(\"${{{name}[@]}}\" --chdir /); fi"
                        ));
                        words.push(format!("\"${{{name}[@]}}\""));
                    }
                    8 => {
                        // A string of options grown under a condition, then
                        // literally: the known part still splits.
                        let name = format!("g{n}_{k}");
                        setup.push(format!("{name}='--new-session'"));
                        setup.push(format!(
                            "if true; then {name}=\"${name} --unshare-uts\"; fi"
                        ));
                        setup.push(format!("{name}=\"${name} --ro-bind /g{k} /h{k}\""));
                        words.push(format!("${name}"));
                    }
                    1 => {
                        let name = format!("c{n}_{k}");
                        setup.push(format!("if true; then {name}=(--unshare-pid); fi"));
                        words.push(format!("\"${{{name}[@]}}\""));
                    }
                    2 => {
                        let name = format!("l{n}_{k}");
                        setup.push(format!(
                            "for i in 1 2; do {name}+=(--ro-bind \"/$i\" \"/$i\"); done"
                        ));
                        words.push(format!("\"${{{name}[@]}}\""));
                    }
                    3 => {
                        words.push("--dir".into());
                        words.push("\"/run/$(printf %s user)\"".into());
                    }
                    4 => {
                        words.push("--dir".into());
                        words.push("/x/`printf %s y`".into());
                    }
                    5 => {
                        words.push("--dir".into());
                        words.push("\"$HOME/.cache\"".into());
                    }
                    6 => {
                        words.push("--dir".into());
                        words.push("~/x".into());
                    }
                    _ => words.push("$UNSET_FROM_ENV".into()),
                }
            }
        }
    }
    if rng.chance(30) {
        // A redirection in the middle of the options is no argument.
        let at = rng.below(words.len() + 1);
        words.insert(at, "2>/dev/null".into());
    }
    let mut heredoc_in_line = None;
    if rng.chance(15) {
        let at = rng.below(words.len() + 1);
        words.insert(at, "<<-'EOT'".into());
        heredoc_in_line = Some(at);
    }
    let choice = rng.below(7);
    let mut program = match choice {
        0 => "\"bwrap\"".to_string(),
        1 => "b\\wrap".to_string(),
        2 => {
            setup.push(format!("BW{n}=bwrap"));
            format!("\"$BW{n}\"")
        }
        3 => {
            let name = format!("SB{n}");
            setup.push(format!("{name}=(exec bwrap --unshare-user)"));
            format!("\"${{{name}[@]}}\"")
        }
        4 if rng.chance(30) => {
            // Built under a condition: unreadable, may be refused.
            may_refuse = true;
            let name = format!("SB{n}");
            setup.push(format!(
                "if true; then {name}=(bwrap --unshare-ipc); else {name}=(bwrap); fi"
            ));
            format!("\"${{{name}[@]}}\"")
        }
        _ => "bwrap".to_string(),
    };
    if rng.chance(40) && choice != 3 && !may_refuse {
        program = format!(
            "{} {program}",
            rng.pick(&["exec", "command", "exec -a sandbox"])
        );
    }
    let mut line = program;
    for w in &words {
        if rng.chance(15) {
            line.push_str(" \\\n   ");
        } else {
            line.push(' ');
        }
        line.push_str(w);
    }
    if rng.chance(50) {
        line.push_str(" -- /bin/sh -c 'echo \"$0\"' arg");
    }
    if rng.chance(20) {
        line.push_str(" <<'EOF'\nstdin's text\nEOF");
    }
    if let Some(at) = heredoc_in_line {
        // Words go on after a here-document's operator; its body follows
        // the whole command line.
        let _ = at;
        line.push_str("\nmid-line body's text\nEOT");
    }
    setup.push(line);
    Case {
        script: setup.join("\n") + "\n",
        unknowns,
        may_refuse,
    }
}

/// Whether `reading` can stand for `argv`: known words equal, `One` any
/// single word, `Any` any run of words.
fn matches(reading: &[ShellArg], argv: &[String]) -> bool {
    // table[i][j]: reading[i..] matches argv[j..].
    let (n, m) = (reading.len(), argv.len());
    let mut table = vec![vec![false; m + 1]; n + 1];
    table[n][m] = true;
    for i in (0..n).rev() {
        for j in (0..=m).rev() {
            table[i][j] = match &reading[i] {
                ShellArg::Known(s) => j < m && *s == argv[j] && table[i + 1][j + 1],
                ShellArg::One(_) => j < m && table[i + 1][j + 1],
                ShellArg::Any(_) => table[i + 1][j] || (j < m && table[i][j + 1]),
            };
        }
    }
    table[0][0]
}

/// A directory of our own, removed when dropped.
struct TempDir(PathBuf);

impl TempDir {
    fn new(tag: &str) -> TempDir {
        // No `:` in the name: the stub directory goes on `PATH`.
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.subsec_nanos());
        let p = std::env::temp_dir().join(format!(
            "isolint-oracle-{tag}-{}-{nanos}",
            std::process::id()
        ));
        std::fs::create_dir_all(&p).unwrap();
        TempDir(p)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn find_bash() -> Option<PathBuf> {
    ["/bin/bash", "/usr/bin/bash"]
        .iter()
        .map(PathBuf::from)
        .find(|p| p.is_file())
}

/// Whether `unshare -n` can give the scripts a namespace without network.
fn unshare() -> Option<PathBuf> {
    let u = ["/usr/bin/unshare", "/bin/unshare"]
        .iter()
        .map(PathBuf::from)
        .find(|p| p.is_file())?;
    let ok = Command::new(&u)
        .args(["-n", "true"])
        .env_clear()
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    ok.then_some(u)
}

/// Run `script` under bash with the stub; each bwrap argv it ran.
fn run_bash(
    bash: &Path,
    unshare: Option<&Path>,
    dir: &Path,
    stubs: &Path,
    script: &str,
) -> Vec<Vec<String>> {
    let file = dir.join("script.sh");
    let out = dir.join("argv.out");
    let work = dir.join("cwd");
    std::fs::create_dir_all(&work).unwrap();
    std::fs::write(&file, script).unwrap();
    let _ = std::fs::remove_file(&out);
    let mut cmd = match unshare {
        Some(u) => {
            let mut c = Command::new(u);
            c.arg("-n").arg(bash);
            c
        }
        None => Command::new(bash),
    };
    cmd.arg(&file)
        .current_dir(&work)
        .env_clear()
        .env("PATH", stubs)
        .env("BWRAP_ORACLE_OUT", &out)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    let mut child = cmd.spawn().unwrap();
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        if child.try_wait().unwrap().is_some() {
            break;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("bash did not finish:\n{script}");
        }
        std::thread::sleep(Duration::from_millis(2));
    }
    let bytes = std::fs::read(&out).unwrap_or_default();
    // Each run: the count, then that many NUL-ended words.
    let mut parts = bytes
        .split(|b| *b == 0)
        .map(|p| String::from_utf8_lossy(p).into_owned());
    let mut runs = Vec::new();
    while let Some(count) = parts.next() {
        let Ok(count) = count.parse::<usize>() else {
            break;
        };
        runs.push(
            (0..count)
                .map(|_| parts.next().unwrap_or_default())
                .collect(),
        );
    }
    runs
}

#[test]
fn isolint_reads_bwrap_arguments_as_bash_passes_them() {
    let Some(bash) = find_bash() else {
        eprintln!("bash is not installed; the oracle cannot run");
        return;
    };
    let unshare = unshare();
    let dir = TempDir::new("bash");
    let stubs = dir.0.join("stubs");
    std::fs::create_dir_all(&stubs).unwrap();
    let stub = stubs.join("bwrap");
    std::fs::write(
        &stub,
        format!(
            "#!{}\nprintf '%s\\0' \"$#\" \"$@\" >>\"$BWRAP_ORACLE_OUT\"\n",
            bash.display()
        ),
    )
    .unwrap();
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&stub, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    let mut rng = Rng(0x0015_0117_2026);
    let total = 600;
    let (mut agreed, mut refused, mut placeholders) = (0, 0, 0);
    let mut failures: Vec<String> = Vec::new();
    for n in 0..total {
        let case = generate(&mut rng, n);
        let runs = run_bash(&bash, unshare.as_deref(), &dir.0, &stubs, &case.script);
        assert_eq!(
            runs.len(),
            1,
            "bash ran bwrap {} times:\n{}",
            runs.len(),
            case.script
        );
        let argv = &runs[0];
        // For comparing other readers (an older build) on the same cases.
        if let Some(dump) = std::env::var_os("ISOLINT_ORACLE_DUMP") {
            let dump = Path::new(&dump);
            std::fs::create_dir_all(dump).unwrap();
            std::fs::write(dump.join(format!("case-{n:04}.sh")), &case.script).unwrap();
            let joined: Vec<u8> = argv.iter().flat_map(|a| a.bytes().chain([0])).collect();
            std::fs::write(dump.join(format!("case-{n:04}.argv")), joined).unwrap();
            let flag = if case.unknowns || case.may_refuse {
                "unknowns"
            } else {
                "known"
            };
            std::fs::write(dump.join(format!("case-{n:04}.kind")), flag).unwrap();
        }
        match bwrap_argv(&case.script) {
            Err(e) => {
                refused += 1;
                if !case.may_refuse {
                    failures.push(format!("refused ({e}):\n{}", case.script));
                }
            }
            Ok(readings) => {
                let Some(reading) = readings.first().filter(|_| readings.len() == 1) else {
                    failures.push(format!(
                        "{} invocations read:\n{}",
                        readings.len(),
                        case.script
                    ));
                    continue;
                };
                let exact = reading.iter().all(|a| matches!(a, ShellArg::Known(_)));
                if !exact {
                    placeholders += 1;
                }
                if !matches(reading, argv) {
                    failures.push(format!(
                        "bash passed {argv:?}\nisolint read {reading:?}\n{}",
                        case.script
                    ));
                } else if !exact && !case.unknowns && !case.may_refuse {
                    failures.push(format!(
                        "placeholders in a script that shows every word: {reading:?}\n{}",
                        case.script
                    ));
                } else {
                    agreed += 1;
                }
            }
        }
    }
    eprintln!(
        "bash oracle: {total} scripts, {agreed} read as bash runs them ({placeholders} with placeholders), {refused} refused, {} wrong; network namespace: {}",
        failures.len(),
        unshare.is_some()
    );
    assert!(
        failures.is_empty(),
        "{} of {total} scripts misread; first ones:\n\n{}",
        failures.len(),
        failures
            .iter()
            .take(5)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n----\n")
    );
}

/// `--opt ARG ARG` lines of a `--help` text: each option and its count of
/// arguments.
fn help_options(help: &str) -> Vec<(String, usize)> {
    help.lines()
        .filter_map(|l| {
            let l = l.trim_start();
            let mut words = l.split_whitespace();
            let opt = words.next().filter(|o| o.starts_with("--"))?;
            let args = words
                .take_while(|w| {
                    w.chars()
                        .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit())
                        && !w.is_empty()
                })
                .count();
            Some((opt.to_string(), args))
        })
        .collect()
}

fn table_arity(opt: &str) -> Option<usize> {
    BWRAP_OPTIONS
        .iter()
        .find(|(o, _)| *o == opt)
        .map(|(_, n)| *n)
}

#[test]
fn every_bwrap_option_is_in_the_table_with_its_arguments() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/bwrap");
    let help = std::fs::read_to_string(root.join("help-0.8.0.txt")).unwrap();
    let options = help_options(&help);
    assert!(options.len() >= 60, "{options:?}");
    for (opt, n) in &options {
        assert_eq!(
            table_arity(opt),
            Some(*n),
            "{opt} in bubblewrap 0.8.0's --help"
        );
    }
    let man = std::fs::read_to_string(root.join("man-options-0.8.0.txt")).unwrap();
    for opt in man.lines().filter(|l| !l.is_empty()) {
        assert!(
            table_arity(opt).is_some(),
            "{opt} in bubblewrap 0.8.0's manual"
        );
    }
    // The installed bubblewrap, whatever its version, when there is one.
    for bwrap in ["/usr/bin/bwrap", "/bin/bwrap"] {
        let Ok(out) = Command::new(bwrap).arg("--help").env_clear().output() else {
            continue;
        };
        let text = String::from_utf8_lossy(&out.stdout).into_owned()
            + &String::from_utf8_lossy(&out.stderr);
        let live = help_options(&text);
        assert!(!live.is_empty(), "{bwrap} --help printed no options");
        for (opt, n) in &live {
            assert_eq!(table_arity(opt), Some(*n), "{opt} in {bwrap} --help");
        }
        break;
    }
}

#[test]
fn the_matcher_can_fail() {
    let k = |s: &str| ShellArg::Known(s.into());
    let argv = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    assert!(matches(
        &[k("a"), ShellArg::Any("$@".into()), k("b")],
        &argv(&["a", "x", "y", "b"])
    ));
    assert!(matches(
        &[k("a"), ShellArg::Any("$@".into())],
        &argv(&["a"])
    ));
    assert!(!matches(
        &[k("a"), ShellArg::One("$x".into())],
        &argv(&["a"])
    ));
    assert!(!matches(&[k("a")], &argv(&["b"])));
    assert!(!matches(&[k("a"), k("b")], &argv(&["a"])));
}
