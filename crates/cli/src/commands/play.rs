//! `ai2048 play`: a person plays in the terminal.
//!
//! On a terminal the keys act at once: arrows, WASD or hjkl move, `u` undoes, `n`
//! starts a new game, `q` or Esc quits. When stdin is not a terminal, each line is one
//! command: a direction by name or initial (`up`, `l`, as in replays), `undo` (or `z`),
//! `new` (or `n`) and `quit` (or `q`), so scripts can play too.

use std::io::{BufRead, IsTerminal, Write};
use std::path::Path;

use ai2048_engine::{Dir, Game, Rules};
use anyhow::Result;
use crossterm::event::{self, Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers};
use crossterm::{cursor, execute, terminal};

use crate::args::PlayArgs;
use crate::commands::watch::fresh_seed;
use crate::files::write_atomic;

/// What a key or a line asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Action {
    Move(Dir),
    Undo,
    New,
    Quit,
}

fn action_of_word(word: &str) -> Option<Action> {
    Some(match word.trim().to_ascii_lowercase().as_str() {
        "up" | "u" => Action::Move(Dir::Up),
        "down" | "d" => Action::Move(Dir::Down),
        "left" | "l" => Action::Move(Dir::Left),
        "right" | "r" => Action::Move(Dir::Right),
        "undo" | "z" => Action::Undo,
        "new" | "n" => Action::New,
        "quit" | "q" | "exit" => Action::Quit,
        _ => return None,
    })
}

fn action_of_key(key: KeyEvent) -> Option<Action> {
    if key.modifiers.contains(KeyModifiers::CONTROL) && key.code == KeyCode::Char('c') {
        return Some(Action::Quit);
    }
    Some(match key.code {
        KeyCode::Up | KeyCode::Char('w' | 'k') => Action::Move(Dir::Up),
        KeyCode::Down | KeyCode::Char('s' | 'j') => Action::Move(Dir::Down),
        KeyCode::Left | KeyCode::Char('a' | 'h') => Action::Move(Dir::Left),
        KeyCode::Right | KeyCode::Char('d' | 'l') => Action::Move(Dir::Right),
        KeyCode::Char('u' | 'z') => Action::Undo,
        KeyCode::Char('n') => Action::New,
        KeyCode::Char('q') | KeyCode::Esc => Action::Quit,
        _ => return None,
    })
}

/// Puts the terminal back however the game ends, errors and panics included.
struct RawMode;

impl RawMode {
    fn enter() -> Result<RawMode> {
        terminal::enable_raw_mode()?;
        execute!(
            std::io::stdout(),
            terminal::EnterAlternateScreen,
            cursor::Hide
        )?;
        Ok(RawMode)
    }
}

impl Drop for RawMode {
    fn drop(&mut self) {
        let _ = execute!(
            std::io::stdout(),
            cursor::Show,
            terminal::LeaveAlternateScreen
        );
        let _ = terminal::disable_raw_mode();
    }
}

struct Session {
    rules: Rules,
    game: Game,
    best: u64,
    message: String,
}

impl Session {
    fn apply(&mut self, action: Action) -> bool {
        self.message.clear();
        match action {
            Action::Move(dir) => match self.game.try_play(dir) {
                Ok(turn) if turn.score > 0 => self.message = format!("+{}", turn.score),
                Ok(_) => {}
                Err(e) => self.message = e.to_string(),
            },
            Action::Undo => {
                if self.game.undo().is_none() {
                    self.message = "nothing to undo".into();
                }
            }
            Action::New => {
                self.game = Game::new(fresh_seed(), self.rules).expect("rules were validated");
                self.message = "new game".into();
            }
            Action::Quit => return false,
        }
        self.best = self.best.max(self.game.score());
        true
    }

    fn render(&self, eol: &str) -> String {
        let g = &self.game;
        let mut s = format!(
            "score {}  best {}  moves {}  seed {}{eol}{eol}",
            g.score(),
            self.best,
            g.moves(),
            g.seed()
        );
        for line in g.board().to_string().lines() {
            s.push_str(line);
            s.push_str(eol);
        }
        s.push_str(eol);
        if g.is_over() {
            s.push_str(&format!(
                "game over: max tile {}, score {}, {} moves{eol}",
                g.max_tile(),
                g.score(),
                g.moves()
            ));
        }
        if !self.message.is_empty() {
            s.push_str(&self.message);
            s.push_str(eol);
        }
        s
    }
}

/// Plays a game with a person at the keys.
pub fn run(args: &PlayArgs) -> Result<()> {
    let rules = args.rules.rules()?;
    let seed = args.seed.unwrap_or_else(fresh_seed);
    let mut session = Session {
        rules,
        game: Game::new(seed, rules)?,
        best: 0,
        message: String::new(),
    };
    if std::io::stdin().is_terminal() && std::io::stdout().is_terminal() {
        play_keys(&mut session)?;
    } else {
        play_lines(&mut session)?;
    }
    let g = &session.game;
    writeln!(
        std::io::stdout(),
        "final: score {}, max tile {}, {} moves, seed {}",
        g.score(),
        g.max_tile(),
        g.moves(),
        g.seed()
    )?;
    if let Some(path) = &args.save {
        save(path, g)?;
    }
    Ok(())
}

fn save(path: &Path, game: &Game) -> Result<()> {
    write_atomic(path, game.replay().to_string().as_bytes())?;
    writeln!(std::io::stdout(), "replay saved to {}", path.display())?;
    Ok(())
}

fn play_keys(session: &mut Session) -> Result<()> {
    let _raw = RawMode::enter()?;
    let help = "arrows/WASD/hjkl move  u undo  n new game  q quit";
    loop {
        let mut out = std::io::stdout().lock();
        execute!(
            out,
            cursor::MoveTo(0, 0),
            terminal::Clear(terminal::ClearType::All)
        )?;
        write!(out, "{}{help}\r\n", session.render("\r\n"))?;
        out.flush()?;
        drop(out);
        if let Event::Key(key) = event::read()? {
            if key.kind != KeyEventKind::Press {
                continue;
            }
            if let Some(action) = action_of_key(key) {
                if !session.apply(action) {
                    return Ok(());
                }
            }
        }
    }
}

fn play_lines(session: &mut Session) -> Result<()> {
    write!(std::io::stdout(), "{}", session.render("\n"))?;
    for line in std::io::stdin().lock().lines() {
        let line = line?;
        if line.trim().is_empty() {
            continue;
        }
        match action_of_word(&line) {
            Some(action) => {
                if !session.apply(action) {
                    break;
                }
            }
            None => {
                session.message = format!(
                    "unknown command {:?}: try up, down, left, right, undo, new, quit",
                    line.trim()
                )
            }
        }
        write!(std::io::stdout(), "{}", session.render("\n"))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_and_keys_agree() {
        assert_eq!(action_of_word("U"), Some(Action::Move(Dir::Up)));
        assert_eq!(action_of_word("left"), Some(Action::Move(Dir::Left)));
        assert_eq!(action_of_word("bogus"), None);
        let key = |c| KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE);
        assert_eq!(action_of_key(key('h')), Some(Action::Move(Dir::Left)));
        assert_eq!(action_of_key(key('l')), Some(Action::Move(Dir::Right)));
        assert_eq!(
            action_of_key(KeyEvent::new(KeyCode::Up, KeyModifiers::NONE)),
            Some(Action::Move(Dir::Up))
        );
    }
}
