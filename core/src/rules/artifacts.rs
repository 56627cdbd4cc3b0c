//! Rules of the `artifacts` area: the output channel is a boundary too.
//! Collect bounded logs and explicitly selected files, keep every path
//! inside the job's tree, and treat what comes out as untrusted until
//! checked.

use super::{Ctx, Emitter, Rule};
use crate::finding::{Area, Severity};
use crate::model::Artifacts;

fn artifacts<'a>(ctx: &Ctx<'a>) -> Option<&'a Artifacts> {
    ctx.profile.artifacts.as_ref()
}

/// Each collection pattern with its pointer.
fn patterns<'a>(ctx: &Ctx<'a>) -> impl Iterator<Item = (String, &'a str)> {
    artifacts(ctx)
        .and_then(|a| a.collect.as_deref())
        .unwrap_or(&[])
        .iter()
        .enumerate()
        .map(|(i, p)| (format!("/artifacts/collect/{i}"), p.as_str()))
}

/// The pattern's components, with Windows separators read as `/`.
fn components(pattern: &str) -> Vec<&str> {
    pattern.split(['/', '\\']).collect()
}

/// Why a pattern can reach outside the job's tree, if it can.
fn escape(pattern: &str) -> Option<&'static str> {
    let p = pattern.trim();
    let bytes = p.as_bytes();
    let drive = bytes.len() >= 2
        && bytes.first().is_some_and(u8::is_ascii_alphabetic)
        && bytes.get(1) == Some(&b':');
    if p.starts_with(['/', '\\']) || drive {
        Some("it is absolute, so it names files outside the job's tree")
    } else if p.starts_with('~') {
        Some("it starts at a home directory, outside the job's tree")
    } else if components(p).contains(&"..") {
        Some("it climbs out of the job's tree with `..`")
    } else if let Some(why) = spells_parent(p) {
        Some(why)
    } else if p.contains('$') || p.contains('%') {
        Some("it expands a variable, so where it points is decided at run time")
    } else {
        None
    }
}

/// The longest pattern whose glob syntax is read: bracket expressions are
/// looked for to the end of their component, and no real collection
/// pattern comes near this.
const MAX_PATTERN_BYTES: usize = 4096;

/// Brace alternatives one pattern may stand for before it is refused as
/// too many to check: collectors expand `{a,b}` before matching.
const MAX_ALTERNATIVES: usize = 256;

/// Why glob syntax in `pattern` can stand for a `..` component, if it can:
/// a brace alternative that is `..`, or a component that can match the
/// name `..` (see [`can_match_parent`]).
fn spells_parent(pattern: &str) -> Option<&'static str> {
    if pattern.len() > MAX_PATTERN_BYTES {
        return Some("it is longer than a collection pattern can be checked");
    }
    let mut alternatives = Vec::new();
    if !expand_braces(pattern, &mut alternatives) {
        return Some("it has more brace alternatives than can be checked one by one");
    }
    alternatives
        .iter()
        .flat_map(|a| components(a))
        .any(can_match_parent)
        .then_some("its glob syntax can stand for `..`, which climbs out of the job's tree")
}

/// Every string `pattern` expands to, as a shell or a collector expands
/// `{a,b}` (a brace group without a comma stays as written). False when
/// there would be more than [`MAX_ALTERNATIVES`], or groups nest deeper
/// than the number of doublings that makes.
fn expand_braces(pattern: &str, out: &mut Vec<String>) -> bool {
    fn expand(pattern: &str, depth: u32, out: &mut Vec<String>) -> bool {
        let Some((open, close, commas)) = first_brace_group(pattern) else {
            out.push(pattern.to_string());
            return out.len() <= MAX_ALTERNATIVES;
        };
        if 1 << depth > MAX_ALTERNATIVES {
            return false;
        }
        let (Some(head), Some(tail)) = (pattern.get(..open), pattern.get(close + 1..)) else {
            return false;
        };
        let mut start = open + 1;
        for end in commas.into_iter().chain([close]) {
            let alternative = [head, pattern.get(start..end).unwrap_or(""), tail].concat();
            if !expand(&alternative, depth + 1, out) {
                return false;
            }
            start = end + 1;
        }
        true
    }
    expand(pattern, 0, out)
}

/// The leftmost `{…}` group holding a comma at its own level: the byte
/// offsets of its braces and of those commas. One pass, so that a pattern
/// of many unmatched braces costs no more than its length.
fn first_brace_group(pattern: &str) -> Option<(usize, usize, Vec<usize>)> {
    let mut open: Vec<(usize, Vec<usize>)> = Vec::new();
    let mut first: Option<(usize, usize, Vec<usize>)> = None;
    for (i, b) in pattern.bytes().enumerate() {
        match b {
            b'{' => open.push((i, Vec::new())),
            b',' => {
                if let Some((_, commas)) = open.last_mut() {
                    commas.push(i);
                }
            }
            b'}' => {
                if let Some((o, commas)) = open.pop() {
                    if !commas.is_empty() && first.as_ref().is_none_or(|f| o < f.0) {
                        first = Some((o, i, commas));
                    }
                }
            }
            _ => {}
        }
    }
    first
}

/// One element of a component's glob.
enum Atom {
    Literal(char),
    /// `?`
    One,
    /// `*`
    Any,
    /// `[…]`, and whether it can match a `.`.
    Set(bool),
}

/// Whether a component's glob can match the name `..`. A name's leading
/// dot is matched only by a literal `.` or by a bracket expression (which
/// some matchers let match it); after that, `?` and `*` match a dot as
/// any character (so `.*` matches `..` where the listing holds it).
fn can_match_parent(component: &str) -> bool {
    // `rest[t]`: whether the atoms after the one at hand match the rest of
    // `..` from its `t`-th character; filled from the last atom back, so a
    // component of any length costs a pass, not a recursion per atom.
    let mut rest = [false, false, true];
    for atom in atoms(component).iter().rev() {
        let [r0, r1, r2] = rest;
        // What the atom makes of each position of `..`: a leading dot is
        // matched only by a literal `.` or a bracket expression, and
        // nothing is left to match at position 2 but the empty string.
        rest = match atom {
            Atom::Literal(c) => {
                let dot = *c == '.';
                [dot && r1, dot && r2, false]
            }
            Atom::Set(dot) => [*dot && r1, *dot && r2, false],
            Atom::One => [false, r2, false],
            // Nothing, or the second dot and on.
            Atom::Any => [r0, r1 || r2, r2],
        };
    }
    rest[0]
}

/// A component's glob as atoms; a `[` without its `]` is a literal.
fn atoms(component: &str) -> Vec<Atom> {
    let chars: Vec<char> = component.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while let Some(&c) = chars.get(i) {
        i += 1;
        out.push(match c {
            '?' => Atom::One,
            '*' => Atom::Any,
            '[' => match bracket(chars.get(i..).unwrap_or_default()) {
                Some((dot, used)) => {
                    i += used;
                    Atom::Set(dot)
                }
                None => Atom::Literal('['),
            },
            c => Atom::Literal(c),
        });
    }
    out
}

/// A bracket expression's body (after its `[`): whether it can match `.`,
/// and how many characters it takes, its `]` included. A character class
/// (`[:punct:]`) is taken to match a dot.
fn bracket(body: &[char]) -> Option<(bool, usize)> {
    let negated = matches!(body.first(), Some('!' | '^'));
    let mut i = usize::from(negated);
    let mut dot = false;
    let mut first = true;
    loop {
        let c = *body.get(i)?;
        if c == ']' && !first {
            return Some((dot != negated, i + 1));
        }
        first = false;
        if c == '[' && matches!(body.get(i + 1), Some(':' | '.' | '=')) {
            let kind = body.get(i + 1).copied();
            let close = (i + 2..body.len().saturating_sub(1))
                .find(|&j| body.get(j).copied() == kind && body.get(j + 1) == Some(&']'))?;
            dot = true;
            i = close + 2;
            continue;
        }
        match (body.get(i + 1), body.get(i + 2)) {
            (Some('-'), Some(&hi)) if hi != ']' => {
                dot |= c <= '.' && '.' <= hi;
                i += 3;
            }
            _ => {
                dot |= c == '.';
                i += 1;
            }
        }
    }
}

/// Whether a pattern selects everything: every component is only wildcards
/// (`*`, `**`, `*.*`, `.*`) or the current directory.
fn sweeps(pattern: &str) -> bool {
    components(pattern.trim())
        .iter()
        .filter(|c| !c.is_empty() && **c != ".")
        .all(|c| c.bytes().all(|b| matches!(b, b'*' | b'?' | b'.')))
}

/// Extensions of files a viewer may run: markup that carries scripts,
/// scripts, web archives, HTML applications and plugin content.
const ACTIVE: [&str; 14] = [
    "html", "htm", "xhtml", "xht", "shtml", "mht", "mhtml", "svg", "svgz", "js", "mjs", "cjs",
    "hta", "swf",
];

/// The active-content extension a pattern selects, if any.
fn active_extension(pattern: &str) -> Option<String> {
    let last = components(pattern.trim()).last().copied().unwrap_or("");
    let (_, ext) = last.rsplit_once('.')?;
    let ext = ext.to_ascii_lowercase();
    ACTIVE.contains(&ext.as_str()).then_some(ext)
}

pub(crate) const ART001: Rule = Rule {
    id: "ART001",
    name: "artifact-path-escape",
    area: Area::Artifacts,
    severity: Severity::High,
    title: "a collection pattern that reaches outside the job's tree",
    rationale: "Collection runs on the worker or the collector with more authority than the job. A pattern that is absolute, starts at `~`, contains `..` or expands a variable can pick up host files, and the same names can write outside the extraction directory when the artifacts are unpacked.",
    remediation: "Write patterns relative to the job's output directory, without `..`, `~`, variables or a leading `/`, and extract with a tool that refuses paths leaving the target directory.",
    runtime_check: None,
    check: escaping_patterns,
};

fn escaping_patterns(ctx: &Ctx<'_>, e: &mut Emitter) {
    for (pointer, p) in patterns(ctx) {
        if let Some(why) = escape(p) {
            e.emit(
                pointer,
                format!("collection pattern `{p}` can escape the collection directory: {why}"),
            )
            .evidence("pattern", p);
        }
    }
}

pub(crate) const ART002: Rule = Rule {
    id: "ART002",
    name: "artifact-sweep",
    area: Area::Artifacts,
    severity: Severity::Medium,
    title: "a collection pattern that takes the whole tree",
    rationale: "Patterns like `**/*`, `*` or `.` collect everything the job left behind: credentials it found, caches, and files shaped to exploit whatever reads the artifacts later. Only explicitly selected outputs should leave the worker.",
    remediation: "List the files or directories the job is expected to produce (`reports/junit.xml`, `logs/pytest.log`).",
    runtime_check: None,
    check: sweeping_patterns,
};

fn sweeping_patterns(ctx: &Ctx<'_>, e: &mut Emitter) {
    for (pointer, p) in patterns(ctx) {
        if escape(p).is_none() && sweeps(p) {
            e.emit(
                pointer,
                format!("collection pattern `{p}` takes every file the job left behind, including secrets and files planted to be collected"),
            )
            .evidence("pattern", p);
        }
    }
}

pub(crate) const ART003: Rule = Rule {
    id: "ART003",
    name: "active-content-artifact",
    area: Area::Artifacts,
    severity: Severity::Medium,
    title: "a collected report that can contain active content",
    rationale: "An HTML, SVG or script file produced by the code under test can run script in the browser of whoever opens it, with that person's session on the CI or review site.",
    remediation: "Collect data formats (JUnit XML, JSON, plain text) and render them yourself; if an HTML report is needed, serve it from an isolated origin with a restrictive content security policy, or as plain text.",
    runtime_check: None,
    check: active_content,
};

fn active_content(ctx: &Ctx<'_>, e: &mut Emitter) {
    for (pointer, p) in patterns(ctx) {
        if let Some(ext) = active_extension(p) {
            e.emit(
                pointer,
                format!("`{p}` collects `.{ext}` files, which can carry scripts that run when a reviewer opens the report"),
            )
            .evidence("pattern", p)
            .evidence("extension", ext);
        }
    }
}

pub(crate) const ART007: Rule = Rule {
    id: "ART007",
    name: "artifact-collection-undeclared",
    area: Area::Artifacts,
    severity: Severity::Medium,
    title: "which files are collected is not declared",
    rationale: "When the profile does not say what to collect, the runner's default decides, and defaults often take the whole workspace. Explicit selection is what keeps the output channel narrow. An empty list, collecting nothing, is fine.",
    remediation: "Declare `artifacts.collect` with the exact outputs the job must return, or `[]` when it returns none.",
    runtime_check: None,
    check: collection_undeclared,
};

fn collection_undeclared(ctx: &Ctx<'_>, e: &mut Emitter) {
    if artifacts(ctx).and_then(|a| a.collect.as_ref()).is_none() {
        e.undeclared(
            ctx,
            "/artifacts/collect",
            "what leaves the worker is whatever the runner collects by default, often the whole workspace",
        );
    }
}

pub(crate) const ART004: Rule = Rule {
    id: "ART004",
    name: "artifact-size-unbounded",
    area: Area::Artifacts,
    severity: Severity::Medium,
    title: "no bound on the size of collected artifacts",
    rationale: "Without a size bound the code under test decides how much lands in artifact storage: enough to fill the collector's disk, or a decompression bomb for whatever unpacks it next. Like the job's output limit, this bounds cost and availability rather than access, so it does not block.",
    remediation: "Set `artifacts.max_bytes` to a little more than the expected artifacts (the workshop job collects at most 1 MiB).",
    runtime_check: None,
    check: artifacts_unbounded,
};

fn artifacts_unbounded(ctx: &Ctx<'_>, e: &mut Emitter) {
    e.unbounded(
        ctx,
        "/artifacts/max_bytes",
        artifacts(ctx).and_then(|a| a.max_bytes),
        "the job decides how much it hands to the collector and its storage",
    );
}

pub(crate) const ART005: Rule = Rule {
    id: "ART005",
    name: "log-size-unbounded",
    area: Area::Artifacts,
    severity: Severity::Medium,
    title: "no bound on the size of collected logs",
    rationale: "Logs are read by people and parsed by tools. A job that can write unbounded logs can exhaust the log store or hide what matters under noise.",
    remediation: "Set `artifacts.log_max_bytes` (the workshop job keeps at most 256 KiB) and truncate beyond it, keeping the start and the end.",
    runtime_check: None,
    check: logs_unbounded,
};

fn logs_unbounded(ctx: &Ctx<'_>, e: &mut Emitter) {
    e.unbounded(
        ctx,
        "/artifacts/log_max_bytes",
        artifacts(ctx).and_then(|a| a.log_max_bytes),
        "the job's logs can grow until they fill the log store or bury the lines a reviewer needs",
    );
}

pub(crate) const ART006: Rule = Rule {
    id: "ART006",
    name: "artifacts-trusted",
    area: Area::Artifacts,
    severity: Severity::High,
    title: "artifacts not treated as untrusted",
    rationale: "Everything the job produced was written by code nobody reviewed. Artifacts opened, unpacked, deployed or fed to another tool as trusted carry the job's compromise out of the sandbox after the process has stopped.",
    remediation: "Set `artifacts.treat_as_untrusted` to `true`, and check artifacts (type, size, names, content) before anything acts on them.",
    runtime_check: None,
    check: trusted,
};

fn trusted(ctx: &Ctx<'_>, e: &mut Emitter) {
    e.unless_true(
        ctx,
        "/artifacts/treat_as_untrusted",
        artifacts(ctx).and_then(|a| a.treat_as_untrusted),
        "files written by the code under test may be opened, unpacked or published as if they were the runner's own",
    );
}

pub const RULES: &[&Rule] = &[
    &ART001, &ART002, &ART003, &ART004, &ART005, &ART006, &ART007,
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escaping_patterns_are_recognized() {
        for p in [
            "/etc/passwd",
            "/",
            "\\\\server\\share",
            "C:\\Users\\x",
            "~/.ssh/id_rsa",
            "../secrets",
            "reports/../../x",
            "reports\\..\\x",
            "$HOME/x",
            "%USERPROFILE%\\x",
        ] {
            assert!(escape(p).is_some(), "{p}");
        }
        for p in [
            "reports/junit.xml",
            "logs/pytest.log",
            "a..b/c",
            "reports/**/*.xml",
            ".hidden/file",
        ] {
            assert_eq!(escape(p), None, "{p}");
        }
    }

    /// Glob syntax that can stand for `..`: brace alternatives are
    /// expanded before matching (so `{..,x}` is a literal `..`), bracket
    /// expressions that admit `.` are matched by some collectors against
    /// entries that include `..`, and after a literal leading dot a
    /// wildcard matches the second one (bash before 5.2 lists `..` for
    /// `.*`). Each pattern is judged by what any of its readers makes of it.
    #[test]
    fn glob_syntax_that_can_spell_a_parent_is_an_escape() {
        for p in [
            "{..,reports}/{..,reports}/etc/passwd",
            "{../x,y}",
            "reports/{a,{b,..}}/x",
            "{.,reports}./x",
            "[.][.]/[.][.]/etc/passwd",
            "[.]./x",
            ".[.]/x",
            "[!a][!a]/x",
            "[^a]./x",
            "[--0][--0]/x",
            "[[:punct:]].",
            "out/.*",
            "out/.?",
            "out/.*/x",
            "..*/x",
            "out\\{..,a}\\x",
        ] {
            assert!(escape(p).is_some(), "{p}");
        }
        for p in [
            "reports/{junit,coverage}.xml",
            "{reports,out}/**/*.xml",
            "reports/{a,b}/*.xml",
            "[a-z]*/x.xml",
            "reports/*",
            "reports/*/x",
            "reports/?",
            "out/.coverage*",
            "out/.[a-z]*",
            "report[.]xml",
            "{a}/x",
            "a..b/{c,d}",
        ] {
            assert_eq!(escape(p), None, "{p}");
        }
        // Too many alternatives to check each one: refused as an escape.
        let many = "{a,b,c,d}/".repeat(8);
        assert!(escape(&many).is_some(), "{many}");
        // Runs of braces are read in one pass, and braces that never close
        // are literal, like the shell's.
        assert!(escape(&"{a,b}".repeat(100_000)).is_some());
        let mut out = Vec::new();
        assert!(!expand_braces(&"{a,b}".repeat(100_000), &mut out));
        for p in ["{".repeat(200_000), "{a,".repeat(100_000)] {
            let mut out = Vec::new();
            assert!(expand_braces(&p, &mut out) && out == [p.clone()]);
        }
        // Long runs of wildcards are matched without recursion: a component
        // of any length is judged, not a stack overflow.
        for (c, parent) in [
            ("*".repeat(300_000), false),
            (format!(".{}", "*".repeat(300_000)), true),
            (format!(".{}?", "*".repeat(300_000)), true),
            (format!("{}..", "*".repeat(300_000)), true),
            (format!(".{}??", "*".repeat(300_000)), false),
        ] {
            assert_eq!(can_match_parent(&c), parent, "{}", &c[..12]);
        }
        // A pattern longer than any real one is refused, not read for
        // minutes (a run of unclosed `[` is read to its end per bracket).
        for p in ["[".repeat(300_000), format!("reports/{}", "*".repeat(5000))] {
            assert!(escape(&p).is_some(), "{}", &p[..12]);
        }
        assert_eq!(escape(&format!("reports/{}.xml", "a".repeat(4000))), None);
    }

    #[test]
    fn sweeping_patterns_are_recognized() {
        for p in [
            "**", "**/*", "*", ".", "./", "./**", "**/*.*", "**/.*", "*/", "",
        ] {
            assert!(sweeps(p), "{p:?}");
        }
        for p in ["reports/*", "**/*.xml", "reports/**", "junit.xml", "*.log"] {
            assert!(!sweeps(p), "{p}");
        }
    }

    #[test]
    fn active_extensions() {
        assert_eq!(
            active_extension("reports/coverage.html").as_deref(),
            Some("html")
        );
        assert_eq!(active_extension("out/**/*.SVG").as_deref(), Some("svg"));
        assert_eq!(active_extension("bundle.mjs").as_deref(), Some("mjs"));
        assert_eq!(active_extension("legacy.swf").as_deref(), Some("swf"));
        assert_eq!(active_extension("reports/junit.xml"), None);
        assert_eq!(active_extension("html/summary.txt"), None);
        assert_eq!(active_extension("reports/html"), None);
    }
}
