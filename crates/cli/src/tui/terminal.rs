//! The terminal side: enter the full screen, run the loop of keys, searches and
//! frames, and put the terminal back however the loop ends.

use std::io::Write;
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use crossterm::event::{self, Event};
use ratatui::DefaultTerminal;

use super::ai::AiWorker;
use super::app::App;
use super::keys::action_of_key;
use super::view;

/// The shortest time between two frames: a fast AI moves more often than a screen
/// can show.
const FRAME: Duration = Duration::from_millis(16);
/// How often the loop looks for a finished search while one runs.
const SEARCH_POLL: Duration = Duration::from_millis(2);
/// The longest the loop sleeps with nothing to do.
const IDLE_POLL: Duration = Duration::from_millis(500);

/// The terminal in raw mode on the alternate screen, until dropped. Dropping it (on
/// return, error or unwinding) restores the terminal; ratatui's panic hook restores
/// it before a panic message is printed.
struct Screen {
    terminal: DefaultTerminal,
}

impl Screen {
    fn enter() -> Result<Screen> {
        // Raw mode may be on even though the alternate screen failed.
        let terminal = ratatui::try_init().inspect_err(|_| ratatui::restore());
        let mut terminal = terminal.context("cannot set up the terminal")?;
        terminal.hide_cursor()?;
        terminal.clear()?;
        Ok(Screen { terminal })
    }
}

impl Drop for Screen {
    fn drop(&mut self) {
        let _ = self.terminal.show_cursor();
        ratatui::restore();
        let _ = std::io::stdout().flush();
    }
}

/// Runs the game screen until the person quits: keys go to `app`, searches to
/// `worker`, and the screen is redrawn when something changed.
///
/// # Errors
///
/// When the terminal fails, or the AI's thread stops.
pub fn run(app: &mut App, worker: &AiWorker) -> Result<()> {
    let mut screen = Screen::enter()?;
    let mut dirty = true;
    let mut last_frame = Instant::now() - FRAME;
    while !app.should_quit() {
        if app.take_player_reset() {
            worker.new_game()?;
        }
        if let Some(request) = app.next_request() {
            worker.search(request)?;
            dirty = true;
        }
        while let Some(done) = worker.try_recv()? {
            app.on_search(done);
            dirty = true;
        }
        let now = Instant::now();
        if app.tick(now) {
            dirty = true;
            // Ask for the next move at once, before drawing.
            continue;
        }
        if dirty && now.duration_since(last_frame) >= FRAME {
            screen.terminal.draw(|frame| view::draw(frame, app))?;
            last_frame = now;
            dirty = false;
        }
        if event::poll(poll_timeout(app, dirty, last_frame, Instant::now()))? {
            match event::read()? {
                Event::Key(key) => {
                    if let Some(action) = action_of_key(app.mode(), key) {
                        app.handle(action, Instant::now());
                        dirty = true;
                    }
                }
                Event::Resize(..) => {
                    screen.terminal.autoresize()?;
                    dirty = true;
                }
                _ => {}
            }
        }
    }
    Ok(())
}

/// How long to wait for a key: until the next thing that needs doing.
fn poll_timeout(app: &App, dirty: bool, last_frame: Instant, now: Instant) -> Duration {
    let mut timeout = IDLE_POLL;
    if app.searching() {
        timeout = timeout.min(SEARCH_POLL);
    }
    if dirty {
        timeout = timeout.min((last_frame + FRAME).saturating_duration_since(now));
    }
    if let Some(at) = app.deadline() {
        timeout = timeout.min(at.saturating_duration_since(now));
    }
    timeout
}
