//! `ai2048 play`: a person plays in the terminal.
//!
//! On a terminal the game runs full screen (the `tui` module): arrows, WASD or hjkl
//! move, and the AI chosen with `--ai` gives hints and plays in autoplay. When stdin
//! or stdout is not a terminal, each line of stdin is one command: a direction by name
//! or initial (`up`, `l`, as in replays), `undo` (or `z`), `new` (or `n`) and `quit`
//! (or `q`), so scripts can play too.

use std::io::{BufRead, IsTerminal, Write};

use ai2048_engine::{Dir, Game, Rules};
use anyhow::Result;

use crate::args::PlayArgs;
use crate::commands::setup::{fresh_seed, Setup};
use crate::files::save_replay;
use crate::tui::app::Mode;
use crate::tui::speed::Speed;

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
    let setup = Setup::new(&args.ai, &args.rules, args.seed)?;
    let game = if std::io::stdin().is_terminal() && std::io::stdout().is_terminal() {
        let app = setup.run_screen(Mode::Play, Speed::default(), args.save.clone(), "best")?;
        app.game().clone()
    } else {
        let mut session = Session {
            rules: setup.rules,
            game: Game::new(setup.seed, setup.rules)?,
            best: 0,
            message: String::new(),
        };
        play_lines(&mut session)?;
        session.game
    };
    let g = &game;
    writeln!(
        std::io::stdout(),
        "final: score {}, max tile {}, {} moves, seed {}",
        g.score(),
        g.max_tile(),
        g.moves(),
        g.seed()
    )?;
    if let Some(path) = &args.save {
        save_replay(path, g, &mut std::io::stdout())?;
    }
    Ok(())
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
    fn words_name_directions_and_commands() {
        assert_eq!(action_of_word("U"), Some(Action::Move(Dir::Up)));
        assert_eq!(action_of_word("left"), Some(Action::Move(Dir::Left)));
        assert_eq!(action_of_word(" r "), Some(Action::Move(Dir::Right)));
        assert_eq!(action_of_word("z"), Some(Action::Undo));
        assert_eq!(action_of_word("New"), Some(Action::New));
        assert_eq!(action_of_word("exit"), Some(Action::Quit));
        assert_eq!(action_of_word("bogus"), None);
    }
}
