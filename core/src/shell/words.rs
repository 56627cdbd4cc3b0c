//! What single words mean: the shell constructs inside a string that an
//! argument list passes literally, and how a word names a program.

use super::lex::is_var_name;

/// Something a shell would act on in a string.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Meta {
    /// `$(..)`, backquotes, `<(..)`: runs another command.
    Substitution,
    /// `;`, `&&`, `||`, a free-standing `&`: runs a further command.
    Chaining,
    /// `|` next to a space or at either end: pipes into another command.
    Pipe,
    /// A line break: a shell reads it as the end of a command.
    Newline,
    /// `>` or `<` at the start of a word: redirects a file.
    Redirection,
    /// `|` inside a word: a pipe to a shell, or a regex alternation.
    InnerBar,
    /// `$NAME`, `${..}`, `%NAME%`, a leading `~`: expanded by a shell.
    Expansion,
    /// `*`: expanded to file names by a shell.
    Glob,
}

impl Meta {
    /// Whether the construct runs further commands (high) rather than only
    /// changing a value (medium).
    pub(crate) fn runs_commands(self) -> bool {
        matches!(
            self,
            Meta::Substitution | Meta::Chaining | Meta::Pipe | Meta::Newline | Meta::Redirection
        )
    }
    pub(crate) fn as_str(self) -> &'static str {
        match self {
            Meta::Substitution => "command substitution",
            Meta::Chaining => "command chaining",
            Meta::Pipe => "pipe",
            Meta::Newline => "line break",
            Meta::Redirection => "redirection",
            Meta::InnerBar => "`|` inside a word",
            Meta::Expansion => "variable expansion",
            Meta::Glob => "glob",
        }
    }
}

/// Add `x` to the sorted list `set` unless it is there: a set of a few
/// small values, in order, with no set type of its own in the page.
pub(crate) fn insert_sorted<T: Ord>(set: &mut Vec<T>, x: T) {
    if let Err(at) = set.binary_search(&x) {
        set.insert(at, x);
    }
}

/// What a shell would act on in `arg`. Version specifiers such as
/// `pkg>=1,<2` and URL queries (`?a=1&b=2`) are not reported: their `<`,
/// `>` and `&` are not at a word boundary.
pub(crate) fn metacharacters(arg: &str) -> Vec<Meta> {
    let mut found = Vec::new();
    let b = arg.as_bytes();
    let at = |i: usize| b.get(i).copied();
    let boundary_before = |i: usize| i == 0 || at(i - 1).is_some_and(|c| c.is_ascii_whitespace());
    let boundary_after = |i: usize| at(i + 1).is_none_or(|c| c.is_ascii_whitespace());
    let mut i = 0;
    while let Some(c) = at(i) {
        match c {
            b'`' => {
                insert_sorted(&mut found, Meta::Substitution);
            }
            b'$' => match at(i + 1) {
                Some(b'(') => {
                    insert_sorted(&mut found, Meta::Substitution);
                }
                Some(n)
                    if n == b'{'
                        || n == b'_'
                        || n.is_ascii_alphanumeric()
                        || b"@*#?$!".contains(&n) =>
                {
                    insert_sorted(&mut found, Meta::Expansion);
                }
                _ => {}
            },
            b'<' | b'>' if at(i + 1) == Some(b'(') => {
                insert_sorted(&mut found, Meta::Substitution);
            }
            b'<' | b'>' => {
                // At a word start, possibly after a descriptor number (`2>`).
                let mut s = i;
                while s > 0 && at(s - 1).is_some_and(|c| c.is_ascii_digit()) {
                    s -= 1;
                }
                if boundary_before(s) {
                    insert_sorted(&mut found, Meta::Redirection);
                }
            }
            b';' => {
                insert_sorted(&mut found, Meta::Chaining);
            }
            b'&' if at(i + 1) == Some(b'&') => {
                insert_sorted(&mut found, Meta::Chaining);
                i += 1;
            }
            b'&' if (boundary_before(i) || boundary_after(i))
                && at(i.wrapping_sub(1)) != Some(b'>') =>
            {
                insert_sorted(&mut found, Meta::Chaining);
            }
            b'|' if at(i + 1) == Some(b'|') => {
                insert_sorted(&mut found, Meta::Chaining);
                i += 1;
            }
            b'|' if boundary_before(i) || boundary_after(i) => {
                insert_sorted(&mut found, Meta::Pipe);
            }
            b'|' => {
                insert_sorted(&mut found, Meta::InnerBar);
            }
            b'\n' | b'\r' => {
                insert_sorted(&mut found, Meta::Newline);
            }
            b'*' => {
                insert_sorted(&mut found, Meta::Glob);
            }
            b'%' => {
                // `%NAME%`, as cmd.exe expands it.
                let rest = arg.get(i + 1..).unwrap_or("");
                if let Some(end) = rest.find('%') {
                    if is_var_name(rest.get(..end).unwrap_or("")) {
                        insert_sorted(&mut found, Meta::Expansion);
                    }
                }
            }
            b'~' if i == 0 && (b.len() == 1 || at(1) == Some(b'/')) => {
                insert_sorted(&mut found, Meta::Expansion);
            }
            _ => {}
        }
        i += 1;
    }
    found
}

/// The program a word names: base name, lowercase, without `.exe` and
/// without the trailing dots and spaces Windows ignores.
pub(crate) fn program_name(word: &str) -> String {
    let base = word.rsplit(['/', '\\']).next().unwrap_or(word);
    let base = base.trim_end_matches(['.', ' ']).to_ascii_lowercase();
    match base.strip_suffix(".exe") {
        Some(s) => s.to_string(),
        None => base,
    }
}

/// The program's family name, without a version suffix (`python3.12` is
/// `python`, `pip3` is `pip`).
pub(crate) fn stem(name: &str) -> &str {
    name.trim_end_matches(|c: char| c.is_ascii_digit() || c == '.' || c == '-')
}

/// Whether a program name is a Windows batch file.
pub(crate) fn is_batch(name: &str) -> bool {
    name.ends_with(".bat") || name.ends_with(".cmd")
}

/// Whether a program word is a relative path (`./x`, `scripts/x`, `~/x`):
/// bare names are looked up on `PATH` instead.
pub(crate) fn is_relative_path(word: &str) -> bool {
    let absolute = word.starts_with('/')
        || word.starts_with("\\\\")
        || (word.len() >= 3
            && word.as_bytes().get(1) == Some(&b':')
            && matches!(word.as_bytes().get(2), Some(b'\\' | b'/')));
    !absolute && (word.contains('/') || word.contains('\\') || word.starts_with('~'))
}
