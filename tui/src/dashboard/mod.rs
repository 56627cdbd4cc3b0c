//! The reviewers' terminal dashboard (ratatui + crossterm), in the Elm
//! architecture: [`model::App`] is the model, [`model::Msg`] the messages,
//! [`keymap::handle_key`] turns keys into messages through one table,
//! [`update::update`] applies them and returns [`model::Effect`]s (file
//! reads and writes) that the event loop runs through [`effects::perform`],
//! whose results come back as messages; [`view::view`] draws the model
//! without changing it. [`content`] builds each pane's lines and
//! [`layout`] is the arithmetic (where panes go, how far they scroll) that
//! the view and `update` share. Terminal setup and teardown live only in
//! [`run`].
//!
//! Dependencies go one way: `model` at the bottom; `content`, `keymap`
//! and `layout` read it; `update` uses `model` and `layout`; `view` draws
//! with all of them; `effects` does the I/O on `model`; this module wires
//! them together.
//!
//! The event loop redraws only after a key, a resize or a change on disk
//! (ratatui diffs its two buffers, so a redraw sends only changed cells),
//! and polls the watched files about every 500 ms.

mod content;
mod editor;
mod effects;
mod fixes;
mod keymap;
mod layout;
mod load;
mod model;
mod text;
mod theme;
mod update;
mod view;

#[cfg(test)]
mod tests;

use std::io::{self, BufWriter, Stdout};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Once};
use std::time::{Duration, Instant};

use crossterm::event::{self, Event};
use crossterm::terminal::{self, EnterAlternateScreen};
use crossterm::{cursor, execute};
use ratatui::backend::CrosstermBackend;
use ratatui::Terminal;

use load::{CatalogSource, Source};
use model::{App, Effect, Msg};

/// How often watched files are checked for changes.
const WATCH_EVERY: Duration = Duration::from_millis(500);
/// The longest the loop waits for input before looking at signals again.
const MAX_WAIT: Duration = Duration::from_millis(100);

/// Open the dashboard on `profiles` (files or directories; empty means the
/// embedded workshop profile), with an optional catalog path.
///
/// Input errors in the files (bad JSON, unreadable file, broken catalog)
/// are shown in the dashboard, never returned; `Err` means the terminal
/// could not be used, or a directory argument held no profile.
///
/// Built with the `bench-hooks` feature and `ISOLINT_EXIT_AFTER_FIRST_FRAME`
/// set, returns right after the first frame is drawn and prints the time it
/// took (and the peak memory where `/proc` tells it) on stderr; used by the
/// scripts in `bench/` only.
pub fn run(
    cx: crate::files::runner::RunContext,
    profiles: Vec<PathBuf>,
    labels: Option<PathBuf>,
    observed: Option<PathBuf>,
) -> anyhow::Result<()> {
    let started = Instant::now();
    let sources: Vec<Source> = if profiles.is_empty() {
        vec![Source::Embedded]
    } else {
        load::expand(&profiles)?
    };
    let catalog = labels.map_or(CatalogSource::Embedded, CatalogSource::File);
    // Observations are read before the terminal is taken, so an unusable
    // file is an error on the command line (exit 2), never a plan tab that
    // silently shows nothing observed.
    let observed = observed.map(|p| load::load_observations(&p)).transpose()?;
    let mut app = effects::open_in(cx, sources, catalog, load::today(), PathBuf::from("."));
    app.observed = observed;

    let stop = Arc::new(AtomicBool::new(false));
    for sig in [
        signal_hook::consts::SIGTERM,
        signal_hook::consts::SIGINT,
        signal_hook::consts::SIGHUP,
    ] {
        signal_hook::flag::register(sig, Arc::clone(&stop))?;
    }

    install_panic_hook();
    let mut terminal = enter()?;
    let _ = STOP.set(Arc::clone(&stop));
    spawn_watchdog(Arc::clone(&stop));
    let exit_after_first = cfg!(feature = "bench-hooks")
        && std::env::var_os("ISOLINT_EXIT_AFTER_FIRST_FRAME").is_some();
    let result = event_loop(&mut terminal, &mut app, &stop, exit_after_first);
    leave();
    if exit_after_first {
        let findings: usize = app
            .slots
            .iter()
            .filter_map(|s| s.outcome.as_ref().ok())
            .map(|r| r.issues.len())
            .sum();
        eprintln!(
            "first frame after {:.1} ms ({} profiles, {findings} findings); peak RSS {}",
            started.elapsed().as_secs_f64() * 1000.0,
            app.slots.len(),
            peak_rss().unwrap_or_else(|| "unknown".into())
        );
    }
    result
}

type Term = Terminal<CrosstermBackend<BufWriter<Stdout>>>;

fn event_loop(
    terminal: &mut Term,
    app: &mut App,
    stop: &AtomicBool,
    exit_after_first: bool,
) -> anyhow::Result<()> {
    let size = terminal.size()?;
    dispatch(terminal, app, Msg::Resize(size.width, size.height))?;
    let mut dirty = true;
    let mut next_watch = Instant::now() + WATCH_EVERY;
    loop {
        if stop.load(Ordering::Relaxed) {
            return Ok(());
        }
        if dirty {
            terminal.draw(|f| view::view(app, f))?;
            dirty = false;
            if exit_after_first {
                return Ok(());
            }
        }
        let wait = next_watch
            .saturating_duration_since(Instant::now())
            .min(MAX_WAIT);
        let ready = match event::poll(wait) {
            Ok(r) => r,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => false,
            Err(e) => return Err(e.into()),
        };
        if ready {
            match event::read() {
                Ok(Event::Key(key)) => {
                    if let Some(msg) = keymap::handle_key(app, key) {
                        dispatch(terminal, app, msg)?;
                        dirty = true;
                    }
                }
                Ok(Event::Resize(w, h)) => {
                    dispatch(terminal, app, Msg::Resize(w, h))?;
                    dirty = true;
                }
                Ok(Event::Mouse(m)) => {
                    if let Some(msg) = keymap::handle_mouse(m) {
                        dispatch(terminal, app, msg)?;
                        dirty = true;
                    }
                }
                Ok(_) => {}
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e.into()),
            }
        }
        if app.quit {
            return Ok(());
        }
        if Instant::now() >= next_watch {
            next_watch = Instant::now() + WATCH_EVERY;
            for msg in changes(app) {
                dispatch(terminal, app, msg)?;
                dirty = true;
            }
        }
    }
}

/// Apply a message, run the effects it asks for, and apply the messages
/// that report what they did.
fn dispatch(terminal: &mut Term, app: &mut App, msg: Msg) -> io::Result<()> {
    for effect in update::update(app, msg) {
        let reply = match effect {
            Effect::OpenEditor {
                editor,
                file,
                line,
                column,
            } => run_editor(terminal, &editor, &file, line, column)?,
            other => effects::perform(app, other),
        };
        if let Some(reply) = reply {
            dispatch(terminal, app, reply)?;
        }
    }
    Ok(())
}

/// Suspend the dashboard (normal screen, cooked mode, cursor shown), run
/// the editor in the terminal and wait for it, then take the screen back
/// and redraw everything. `Err` only when the terminal cannot be taken
/// back; an editor that cannot start is reported in the message.
fn run_editor(
    terminal: &mut Term,
    editor: &[String],
    file: &std::path::Path,
    line: u32,
    column: u32,
) -> io::Result<Option<Msg>> {
    let Some(cmd) = editor::command(editor, file, line, column) else {
        return Ok(None);
    };
    let program = load::display_path(std::path::Path::new(&cmd.program));
    leave();
    let result = std::process::Command::new(&cmd.program)
        .args(&cmd.args)
        .status()
        .map_err(|e| format!("cannot start the editor: {e}"))
        .and_then(|st| {
            if st.success() {
                Ok(())
            } else {
                Err(format!("the editor exited with {st}"))
            }
        });
    resume(terminal)?;
    Ok(Some(Msg::EditorReturned { program, result }))
}

/// Take the terminal back after [`leave`]: raw mode, alternate screen,
/// hidden cursor, and a full redraw on the next frame. The watchdog ended
/// when the terminal was left, so a new one starts.
fn resume(terminal: &mut Term) -> io::Result<()> {
    terminal::enable_raw_mode()?;
    ACTIVE.store(true, Ordering::SeqCst);
    execute!(
        terminal.backend_mut(),
        EnterAlternateScreen,
        event::EnableMouseCapture,
        cursor::Hide,
        terminal::Clear(terminal::ClearType::All)
    )?;
    terminal.clear()?;
    if let Some(stop) = STOP.get() {
        spawn_watchdog(Arc::clone(stop));
    }
    Ok(())
}

/// The stop flag signals set, kept for the watchdog started on resume.
static STOP: std::sync::OnceLock<Arc<AtomicBool>> = std::sync::OnceLock::new();

/// How often the watchdog looks at the terminal and the stop flag.
const WATCHDOG_EVERY: Duration = Duration::from_millis(250);

/// Ends the process when the main loop cannot: crossterm's `event::poll`
/// never returns once the terminal is gone (its pty closed, reading gives
/// end-of-file forever: crossterm-rs/crossterm#793), so neither the loop's
/// timeout nor the stop flag a signal sets is ever looked at again, and the
/// process would spin on a core indefinitely. The watchdog exits when the
/// terminal no longer answers a size query (nothing is left to restore), or
/// when a signal asked to stop and the loop has not done so within a second.
fn spawn_watchdog(stop: Arc<AtomicBool>) {
    let _ = std::thread::Builder::new()
        .name("terminal-watchdog".into())
        .spawn(move || {
            let mut stop_seen: Option<Instant> = None;
            loop {
                std::thread::sleep(WATCHDOG_EVERY);
                if !ACTIVE.load(Ordering::SeqCst) {
                    return;
                }
                // `window_size`, not `size`: on failure `size` falls back to
                // running `tput`, which answers from terminfo even when the
                // terminal is gone, so the process lived on (flaky e2e check).
                if terminal::window_size().is_err() {
                    std::process::exit(129); // as if ended by SIGHUP
                }
                if stop.load(Ordering::Relaxed) {
                    let since = *stop_seen.get_or_insert_with(Instant::now);
                    if since.elapsed() > Duration::from_secs(1) {
                        leave();
                        std::process::exit(143); // as if ended by SIGTERM
                    }
                }
            }
        });
}

/// Messages for watched files whose modification time or size changed.
fn changes(app: &App) -> Vec<Msg> {
    if let Some(p) = model::catalog_path(&app.catalog) {
        if load::stamp(p) != app.labels_stamp {
            return vec![Msg::CatalogChanged];
        }
    }
    app.slots
        .iter()
        .enumerate()
        .filter(|(_, s)| s.path().is_some_and(|p| load::stamp(p) != s.stamp))
        .map(|(i, _)| Msg::FileChanged(i))
        .collect()
}

/// Whether the terminal is in raw mode on the alternate screen, so the
/// panic hook and `leave` restore it exactly once.
static ACTIVE: AtomicBool = AtomicBool::new(false);

fn enter() -> io::Result<Term> {
    terminal::enable_raw_mode()?;
    ACTIVE.store(true, Ordering::SeqCst);
    let mut out = BufWriter::with_capacity(1 << 16, io::stdout());
    // Clearing here rather than with `Terminal::clear` avoids a cursor
    // position query, a round trip to the terminal before the first frame.
    if let Err(e) = execute!(
        out,
        EnterAlternateScreen,
        // Wheel and click, as in k9s and lazygit; Shift+drag still selects
        // text in most terminals.
        event::EnableMouseCapture,
        cursor::Hide,
        terminal::Clear(terminal::ClearType::All)
    ) {
        leave();
        return Err(e);
    }
    Terminal::new(CrosstermBackend::new(out)).inspect_err(|_| leave())
}

/// Leave the alternate screen, show the cursor and end raw mode.
fn leave() {
    if ACTIVE.swap(false, Ordering::SeqCst) {
        // Unit tests only check that the hook gets here; they must not
        // write escape sequences into the test runner's output.
        #[cfg(not(test))]
        {
            use std::io::Write;
            let mut out = io::stdout();
            let _ = execute!(
                out,
                event::DisableMouseCapture,
                terminal::LeaveAlternateScreen,
                cursor::Show
            );
            let _ = out.flush();
            let _ = terminal::disable_raw_mode();
        }
    }
}

/// Restore the terminal before the default hook prints the panic, so the
/// message is readable and the shell usable.
fn install_panic_hook() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            leave();
            previous(info);
        }));
    });
}

/// `VmHWM` from `/proc/self/status`, on Linux.
fn peak_rss() -> Option<String> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    Some(line.trim_start_matches("VmHWM:").trim().to_string())
}

#[cfg(test)]
mod hook_tests {
    use super::*;

    #[test]
    fn a_panic_restores_the_terminal() {
        install_panic_hook();
        ACTIVE.store(true, Ordering::SeqCst);
        let outcome = std::thread::spawn(|| panic!("deliberate panic to test the hook")).join();
        assert!(outcome.is_err());
        assert!(
            !ACTIVE.load(Ordering::SeqCst),
            "the panic hook did not restore the terminal"
        );
        // Restoring twice is harmless: the second call does nothing.
        leave();
    }
}
