//! One table maps keys to messages. `handle_key` reads it, and so do the
//! help overlay and the hint bar, so what the help says is what the keys do.

use crossterm::event::{
    KeyCode, KeyEvent, KeyEventKind, KeyModifiers, MouseButton, MouseEvent, MouseEventKind,
};

use super::model::{App, Mode, Msg, Tab};

/// A key, with or without Ctrl. Shift is part of the character itself.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Key {
    pub code: KeyCode,
    pub ctrl: bool,
}

const fn ch(c: char) -> Key {
    Key {
        code: KeyCode::Char(c),
        ctrl: false,
    }
}

const fn code(code: KeyCode) -> Key {
    Key { code, ctrl: false }
}

const fn ctrl(c: char) -> Key {
    Key {
        code: KeyCode::Char(c),
        ctrl: true,
    }
}

impl Key {
    /// How the key is written in help and hints.
    pub fn label(self) -> String {
        let base = match self.code {
            KeyCode::Char(' ') => "Space".to_string(),
            KeyCode::Char(c) => c.to_string(),
            KeyCode::Down => "↓".into(),
            KeyCode::Up => "↑".into(),
            KeyCode::Left => "←".into(),
            KeyCode::Right => "→".into(),
            KeyCode::PageDown => "PgDn".into(),
            KeyCode::PageUp => "PgUp".into(),
            KeyCode::Home => "Home".into(),
            KeyCode::End => "End".into(),
            KeyCode::Tab => "Tab".into(),
            KeyCode::BackTab => "S-Tab".into(),
            KeyCode::Esc => "Esc".into(),
            KeyCode::Enter => "Enter".into(),
            KeyCode::Backspace => "Bksp".into(),
            other => format!("{other:?}"),
        };
        if self.ctrl {
            format!("^{base}")
        } else {
            base
        }
    }

    fn matches(self, ev: &KeyEvent) -> bool {
        if ev.modifiers.contains(KeyModifiers::ALT) {
            return false;
        }
        self.code == ev.code && self.ctrl == ev.modifiers.contains(KeyModifiers::CONTROL)
    }
}

/// One row of the keymap.
#[derive(Debug, Clone)]
pub struct Binding {
    pub mode: Mode,
    /// Heading it is listed under in the help overlay.
    pub section: &'static str,
    pub keys: &'static [Key],
    pub msg: Msg,
    pub help: &'static str,
    /// Short label in the hint bar, for the keys worth showing there.
    pub hint: Option<&'static str>,
}

impl Binding {
    /// `↓ j` style label of every key of the binding.
    pub fn keys_label(&self) -> String {
        self.keys
            .iter()
            .map(|k| k.label())
            .collect::<Vec<_>>()
            .join(" ")
    }
}

const fn bind(
    mode: Mode,
    section: &'static str,
    keys: &'static [Key],
    msg: Msg,
    help: &'static str,
    hint: Option<&'static str>,
) -> Binding {
    Binding {
        mode,
        section,
        keys,
        msg,
        help,
        hint,
    }
}

use Mode::{Fix, Help, Normal, Prompt, Search};

const MOVE: &str = "Move";
const VIEW: &str = "Tabs";
const FILTER: &str = "Filter";
const FILES: &str = "Profiles and files";
const GENERAL: &str = "General";
const SEARCHING: &str = "While typing a search";
const IN_HELP: &str = "In this help";
const PROMPTING: &str = "While typing the export's path";
const FIXING: &str = "In the fix pane";

/// The keymap. Order is the order of the help overlay.
pub const KEYMAP: &[Binding] = &[
    bind(
        Normal,
        MOVE,
        &[code(KeyCode::Down), ch('j')],
        Msg::Down,
        "next finding (next row in other tabs)",
        None,
    ),
    bind(
        Normal,
        MOVE,
        &[code(KeyCode::Up), ch('k')],
        Msg::Up,
        "previous finding (previous row)",
        None,
    ),
    bind(
        Normal,
        MOVE,
        &[code(KeyCode::Right), ch('l')],
        Msg::NextArea,
        "next area",
        None,
    ),
    bind(
        Normal,
        MOVE,
        &[code(KeyCode::Left), ch('h')],
        Msg::PrevArea,
        "previous area",
        None,
    ),
    bind(
        Normal,
        MOVE,
        &[code(KeyCode::Home), ch('g')],
        Msg::Top,
        "first finding (first row)",
        None,
    ),
    bind(
        Normal,
        MOVE,
        &[code(KeyCode::End), ch('G')],
        Msg::Bottom,
        "last finding (last row)",
        None,
    ),
    bind(
        Normal,
        MOVE,
        &[code(KeyCode::PageDown), ctrl('d')],
        Msg::DetailDown,
        "scroll the detail down (lists: a page)",
        None,
    ),
    bind(
        Normal,
        MOVE,
        &[code(KeyCode::PageUp), ctrl('u')],
        Msg::DetailUp,
        "scroll the detail up",
        None,
    ),
    bind(
        Normal,
        VIEW,
        &[code(KeyCode::Tab)],
        Msg::NextTab,
        "next tab",
        Some("tabs"),
    ),
    bind(
        Normal,
        VIEW,
        &[code(KeyCode::BackTab)],
        Msg::PrevTab,
        "previous tab",
        None,
    ),
    bind(
        Normal,
        VIEW,
        &[ch('0')],
        Msg::ShowTab(Tab::Profiles),
        "every profile (when several)",
        None,
    ),
    bind(
        Normal,
        VIEW,
        &[code(KeyCode::Enter)],
        Msg::Activate,
        "open the profile; drill into a finding (Esc back)",
        None,
    ),
    bind(
        Normal,
        VIEW,
        &[ch('1')],
        Msg::ShowTab(Tab::Findings),
        "findings by area",
        None,
    ),
    bind(
        Normal,
        VIEW,
        &[ch('2')],
        Msg::ShowTab(Tab::Mounts),
        "mounts compared with labels",
        None,
    ),
    bind(
        Normal,
        VIEW,
        &[ch('3')],
        Msg::ShowTab(Tab::Checks),
        "runtime-check plan",
        None,
    ),
    bind(
        Normal,
        VIEW,
        &[ch('4')],
        Msg::ShowTab(Tab::Rules),
        "rules and what they mean",
        None,
    ),
    bind(
        Normal,
        FILTER,
        &[ch('s')],
        Msg::CycleSeverity,
        "raise the minimum severity (cycles)",
        Some("severity"),
    ),
    bind(
        Normal,
        FILTER,
        &[ch('/')],
        Msg::StartSearch,
        "search what the tab lists (findings: keeps the matches)",
        Some("search"),
    ),
    bind(
        Normal,
        FILTER,
        &[ch('b')],
        Msg::BlockingOnly,
        "only the blocking findings (critical, high); again for all",
        Some("blocking"),
    ),
    bind(
        Normal,
        FILTER,
        &[ch('n')],
        Msg::NextMatch,
        "next search match (on into the next profile)",
        None,
    ),
    bind(
        Normal,
        FILTER,
        &[ch('N')],
        Msg::PrevMatch,
        "previous search match",
        None,
    ),
    bind(
        Normal,
        FILTER,
        &[code(KeyCode::Esc)],
        Msg::ClearFilter,
        "back out of a drilled-in view, else clear the filters",
        None,
    ),
    bind(
        Normal,
        FILES,
        &[ch(']')],
        Msg::NextProfile,
        "next profile",
        None,
    ),
    bind(
        Normal,
        FILES,
        &[ch('[')],
        Msg::PrevProfile,
        "previous profile",
        None,
    ),
    bind(
        Normal,
        FILES,
        &[ch('o')],
        Msg::OpenEditor,
        "open $EDITOR at the finding or mount",
        Some("edit"),
    ),
    // `x`, not `e`: in lazygit and most TUIs `e` means edit, and an
    // export asks first where to write.
    bind(
        Normal,
        FILES,
        &[ch('x')],
        Msg::Export,
        "export all findings as JSON (asks where)",
        Some("export"),
    ),
    bind(
        Normal,
        FILES,
        &[ch('r')],
        Msg::Reload,
        "reload and re-audit from disk",
        Some("reload"),
    ),
    // `f` as in ruff's `--fix`; shifted, the whole file's safe fixes.
    // Listed after export and reload, which the hint bar keeps at 80
    // columns; `f fix` joins them from about 100.
    bind(
        Normal,
        FILES,
        &[ch('f')],
        Msg::Fix,
        "the finding's fix as a diff (y applies it)",
        Some("fix"),
    ),
    bind(
        Normal,
        FILES,
        &[ch('F')],
        Msg::FixAll,
        "every safe fix of the file as a diff (y applies)",
        None,
    ),
    bind(
        Normal,
        GENERAL,
        &[ch('?')],
        Msg::ToggleHelp,
        "this help",
        Some("help"),
    ),
    bind(
        Normal,
        GENERAL,
        &[ch('q'), ctrl('c')],
        Msg::Quit,
        "quit",
        Some("quit"),
    ),
    bind(
        Search,
        SEARCHING,
        &[code(KeyCode::Enter)],
        Msg::SearchAccept,
        "keep the search",
        Some("keep"),
    ),
    bind(
        Search,
        SEARCHING,
        &[code(KeyCode::Esc)],
        Msg::SearchCancel,
        "cancel the search",
        Some("cancel"),
    ),
    bind(
        Search,
        SEARCHING,
        &[code(KeyCode::Backspace)],
        Msg::SearchBackspace,
        "delete a character",
        None,
    ),
    bind(
        Search,
        SEARCHING,
        &[code(KeyCode::Down)],
        Msg::Down,
        "next matching finding",
        None,
    ),
    bind(
        Search,
        SEARCHING,
        &[code(KeyCode::Up)],
        Msg::Up,
        "previous matching finding",
        None,
    ),
    bind(Search, SEARCHING, &[ctrl('c')], Msg::Quit, "quit", None),
    bind(
        Help,
        IN_HELP,
        &[code(KeyCode::Esc), ch('?'), ch('q')],
        Msg::ToggleHelp,
        "close",
        Some("close"),
    ),
    bind(
        Help,
        IN_HELP,
        &[code(KeyCode::Down), ch('j')],
        Msg::Down,
        "scroll down",
        None,
    ),
    bind(
        Help,
        IN_HELP,
        &[code(KeyCode::Up), ch('k')],
        Msg::Up,
        "scroll up",
        None,
    ),
    bind(
        Help,
        IN_HELP,
        &[code(KeyCode::PageDown), ctrl('d')],
        Msg::DetailDown,
        "a page down",
        None,
    ),
    bind(
        Help,
        IN_HELP,
        &[code(KeyCode::PageUp), ctrl('u')],
        Msg::DetailUp,
        "a page up",
        None,
    ),
    bind(
        Help,
        IN_HELP,
        &[code(KeyCode::Home), ch('g')],
        Msg::Top,
        "top",
        None,
    ),
    bind(
        Help,
        IN_HELP,
        &[code(KeyCode::End), ch('G')],
        Msg::Bottom,
        "bottom",
        None,
    ),
    bind(Help, IN_HELP, &[ctrl('c')], Msg::Quit, "quit", None),
    bind(
        Prompt,
        PROMPTING,
        &[code(KeyCode::Enter)],
        Msg::PromptAccept,
        "write the file",
        Some("write"),
    ),
    bind(
        Prompt,
        PROMPTING,
        &[code(KeyCode::Esc)],
        Msg::PromptCancel,
        "cancel the export",
        Some("cancel"),
    ),
    bind(
        Prompt,
        PROMPTING,
        &[code(KeyCode::Backspace)],
        Msg::PromptBackspace,
        "delete a character",
        None,
    ),
    bind(Prompt, PROMPTING, &[ctrl('c')], Msg::Quit, "quit", None),
    bind(
        Fix,
        FIXING,
        &[ch('y'), code(KeyCode::Enter)],
        Msg::FixApply,
        "write the fix to the file and re-audit",
        Some("apply"),
    ),
    bind(
        Fix,
        FIXING,
        &[code(KeyCode::Esc), ch('n'), ch('q')],
        Msg::FixCancel,
        "close, nothing written",
        Some("cancel"),
    ),
    bind(
        Fix,
        FIXING,
        &[code(KeyCode::Down), ch('j')],
        Msg::Down,
        "scroll down",
        None,
    ),
    bind(
        Fix,
        FIXING,
        &[code(KeyCode::Up), ch('k')],
        Msg::Up,
        "scroll up",
        None,
    ),
    bind(
        Fix,
        FIXING,
        &[code(KeyCode::PageDown), ctrl('d')],
        Msg::DetailDown,
        "a page down",
        None,
    ),
    bind(
        Fix,
        FIXING,
        &[code(KeyCode::PageUp), ctrl('u')],
        Msg::DetailUp,
        "a page up",
        None,
    ),
    bind(Fix, FIXING, &[ctrl('c')], Msg::Quit, "quit", None),
];

/// The message a key press means in the app's current mode, if any.
pub fn handle_key(app: &App, key: KeyEvent) -> Option<Msg> {
    if key.kind != KeyEventKind::Press {
        return None;
    }
    if let Some(b) = KEYMAP
        .iter()
        .find(|b| b.mode == app.mode && b.keys.iter().any(|k| k.matches(&key)))
    {
        return Some(b.msg.clone());
    }
    match (app.mode, key.code) {
        (Mode::Search | Mode::Prompt, KeyCode::Char(c))
            if !key
                .modifiers
                .intersects(KeyModifiers::CONTROL | KeyModifiers::ALT)
                && !c.is_control() =>
        {
            Some(if app.mode == Mode::Search {
                Msg::SearchChar(c)
            } else {
                Msg::PromptChar(c)
            })
        }
        _ => None,
    }
}

/// The message a mouse event means: the wheel scrolls what is under it,
/// a left click selects. Moves and drags mean nothing.
pub fn handle_mouse(ev: MouseEvent) -> Option<Msg> {
    let (column, row) = (ev.column, ev.row);
    match ev.kind {
        MouseEventKind::ScrollDown => Some(Msg::Wheel {
            down: true,
            column,
            row,
        }),
        MouseEventKind::ScrollUp => Some(Msg::Wheel {
            down: false,
            column,
            row,
        }),
        MouseEventKind::Down(MouseButton::Left) => Some(Msg::Click { column, row }),
        _ => None,
    }
}

/// `key label` pairs for the hint bar in `mode`.
pub fn hints(mode: Mode) -> Vec<(String, &'static str)> {
    KEYMAP
        .iter()
        .filter(|b| b.mode == mode)
        .filter_map(|b| Some((b.keys.first()?.label(), b.hint?)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dashboard::effects;
    use crate::dashboard::load::{CatalogSource, Source};

    fn app() -> App {
        effects::open(
            vec![Source::Embedded],
            CatalogSource::Embedded,
            None,
            ".".into(),
        )
    }

    fn press(c: KeyCode) -> KeyEvent {
        KeyEvent::new(c, KeyModifiers::NONE)
    }

    #[test]
    fn normal_mode_keys() {
        let a = app();
        let cases = [
            (press(KeyCode::Char('q')), Some(Msg::Quit)),
            (
                KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL),
                Some(Msg::Quit),
            ),
            (press(KeyCode::Down), Some(Msg::Down)),
            (press(KeyCode::Char('j')), Some(Msg::Down)),
            (press(KeyCode::Char('k')), Some(Msg::Up)),
            (press(KeyCode::Right), Some(Msg::NextArea)),
            (press(KeyCode::Char('h')), Some(Msg::PrevArea)),
            (
                KeyEvent::new(KeyCode::Char('G'), KeyModifiers::SHIFT),
                Some(Msg::Bottom),
            ),
            (press(KeyCode::Tab), Some(Msg::NextTab)),
            (
                KeyEvent::new(KeyCode::BackTab, KeyModifiers::SHIFT),
                Some(Msg::PrevTab),
            ),
            (press(KeyCode::Char('3')), Some(Msg::ShowTab(Tab::Checks))),
            (press(KeyCode::Char('s')), Some(Msg::CycleSeverity)),
            (press(KeyCode::Char('/')), Some(Msg::StartSearch)),
            (press(KeyCode::Char('x')), Some(Msg::Export)),
            (press(KeyCode::Char('o')), Some(Msg::OpenEditor)),
            (press(KeyCode::Enter), Some(Msg::Activate)),
            // `e` reads as "edit" elsewhere; it is not the export any more.
            (press(KeyCode::Char('e')), None),
            (press(KeyCode::Char('r')), Some(Msg::Reload)),
            (press(KeyCode::Char('f')), Some(Msg::Fix)),
            (
                KeyEvent::new(KeyCode::Char('F'), KeyModifiers::SHIFT),
                Some(Msg::FixAll),
            ),
            (press(KeyCode::Char('y')), None),
            (press(KeyCode::Char(']')), Some(Msg::NextProfile)),
            (press(KeyCode::Char('n')), Some(Msg::NextMatch)),
            (press(KeyCode::Char('b')), Some(Msg::BlockingOnly)),
            (press(KeyCode::Char('?')), Some(Msg::ToggleHelp)),
            (press(KeyCode::Esc), Some(Msg::ClearFilter)),
            (press(KeyCode::Char('z')), None),
            // Ctrl and Alt change a letter's meaning: ^j is not j, Alt-q is not q.
            (
                KeyEvent::new(KeyCode::Char('j'), KeyModifiers::CONTROL),
                None,
            ),
            (KeyEvent::new(KeyCode::Char('q'), KeyModifiers::ALT), None),
        ];
        for (key, want) in cases {
            assert_eq!(handle_key(&a, key), want, "{key:?}");
        }
    }

    #[test]
    fn releases_are_ignored() {
        let a = app();
        let mut ev = press(KeyCode::Char('q'));
        ev.kind = KeyEventKind::Release;
        assert_eq!(handle_key(&a, ev), None);
    }

    #[test]
    fn search_mode_types_text_instead_of_commands() {
        let mut a = app();
        a.mode = Mode::Search;
        assert_eq!(
            handle_key(&a, press(KeyCode::Char('q'))),
            Some(Msg::SearchChar('q'))
        );
        assert_eq!(
            handle_key(&a, press(KeyCode::Char('/'))),
            Some(Msg::SearchChar('/'))
        );
        assert_eq!(
            handle_key(&a, KeyEvent::new(KeyCode::Char('M'), KeyModifiers::SHIFT)),
            Some(Msg::SearchChar('M'))
        );
        assert_eq!(
            handle_key(&a, press(KeyCode::Enter)),
            Some(Msg::SearchAccept)
        );
        assert_eq!(handle_key(&a, press(KeyCode::Esc)), Some(Msg::SearchCancel));
        assert_eq!(
            handle_key(&a, press(KeyCode::Backspace)),
            Some(Msg::SearchBackspace)
        );
        assert_eq!(handle_key(&a, press(KeyCode::Down)), Some(Msg::Down));
        assert_eq!(
            handle_key(&a, KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL)),
            Some(Msg::Quit)
        );
    }

    #[test]
    fn help_mode_keys() {
        let mut a = app();
        a.mode = Mode::Help;
        for c in [KeyCode::Esc, KeyCode::Char('?'), KeyCode::Char('q')] {
            assert_eq!(handle_key(&a, press(c)), Some(Msg::ToggleHelp));
        }
        assert_eq!(handle_key(&a, press(KeyCode::Char('e'))), None);
    }

    #[test]
    fn fix_pane_keys() {
        let mut a = app();
        a.mode = Mode::Fix;
        for c in [KeyCode::Char('y'), KeyCode::Enter] {
            assert_eq!(handle_key(&a, press(c)), Some(Msg::FixApply));
        }
        for c in [KeyCode::Esc, KeyCode::Char('n'), KeyCode::Char('q')] {
            assert_eq!(handle_key(&a, press(c)), Some(Msg::FixCancel));
        }
        assert_eq!(handle_key(&a, press(KeyCode::Char('j'))), Some(Msg::Down));
        // Nothing else acts behind the pane: `f` again, `x`, tabs.
        for c in [KeyCode::Char('f'), KeyCode::Char('x'), KeyCode::Tab] {
            assert_eq!(handle_key(&a, press(c)), None);
        }
    }

    #[test]
    fn no_key_is_bound_twice_in_one_mode() {
        for (i, a) in KEYMAP.iter().enumerate() {
            for b in &KEYMAP[i + 1..] {
                if a.mode == b.mode {
                    for k in a.keys {
                        assert!(
                            !b.keys.contains(k),
                            "{} bound to {:?} and {:?}",
                            k.label(),
                            a.msg,
                            b.msg
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn every_binding_is_documented_and_reachable() {
        let a = app();
        for b in KEYMAP {
            assert!(!b.help.is_empty() && !b.keys.is_empty());
            let mut probe = App {
                mode: b.mode,
                ..app()
            };
            probe.mode = b.mode;
            for k in b.keys {
                let mods = if k.ctrl {
                    KeyModifiers::CONTROL
                } else {
                    KeyModifiers::NONE
                };
                assert_eq!(
                    handle_key(&probe, KeyEvent::new(k.code, mods)),
                    Some(b.msg.clone()),
                    "{}",
                    k.label()
                );
            }
        }
        let _ = a;
        let h = hints(Mode::Normal);
        assert!(h.contains(&("?".to_string(), "help")));
        assert!(h.contains(&("q".to_string(), "quit")));
    }
}
