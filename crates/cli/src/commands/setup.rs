//! What `play` and `watch` share: the game's setup from the command line, and the
//! full-screen game over it.

use ai2048_ai::{create_player, PlayerSpec, SearchLimits};
use ai2048_engine::{Board, Game, Rules, RulesError, SpawnStream};
use anyhow::Result;
use std::path::PathBuf;

use crate::args::{AiArgs, RulesArgs};
use crate::tui::ai::AiWorker;
use crate::tui::app::{App, Config, Mode};
use crate::tui::best::BestScore;
use crate::tui::speed::Speed;

/// A seed from the clock, for games the user did not seed. It is printed, so the game
/// can still be replayed.
pub fn fresh_seed() -> u64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    ai2048_engine::rng::derive_seed(nanos, u64::from(std::process::id()))
}

/// The rules, the AI and its limits, and the seed of a game to play or watch.
pub struct Setup {
    /// The rules of every game.
    pub rules: Rules,
    /// The AI (it hints in `play`, plays in `watch`).
    pub spec: PlayerSpec,
    /// The limits of each of its searches.
    pub limits: SearchLimits,
    /// The seed of the first game: `--seed`, or one from the clock.
    pub seed: u64,
    /// The position every game starts from (`watch --from`); `None` for new boards.
    pub from: Option<Board>,
}

impl Setup {
    /// A game of this setup from `seed`: a new board, or the position `from`.
    ///
    /// # Errors
    ///
    /// When the rules are invalid.
    pub fn game(&self, seed: u64) -> Result<Game> {
        Ok(start_game(seed, self.rules, self.from)?)
    }
}

/// A game from `seed`: on a new board, or from the position `from` (`watch --from`).
pub fn start_game(seed: u64, rules: Rules, from: Option<Board>) -> Result<Game, RulesError> {
    match from {
        Some(board) => Game::from_board(seed, rules, SpawnStream::Sequential, board),
        None => Game::new(seed, rules),
    }
}

impl Setup {
    /// The setup the options ask for.
    pub fn new(ai: &AiArgs, rules: &RulesArgs, seed: Option<u64>) -> Result<Setup> {
        // The player last: making it may load a network (seconds in a debug build),
        // and a bad option should fail at once.
        let rules = rules.rules()?;
        let limits = ai.limits()?;
        Ok(Setup {
            rules,
            limits,
            spec: ai.spec()?,
            seed: seed.unwrap_or_else(fresh_seed),
            from: None,
        })
    }

    /// Runs the full-screen game until the person quits, with the AI on its own
    /// thread, and keeps the best score (in the file called `best`); returns the
    /// screen's state at the end.
    pub fn run_screen(
        &self,
        mode: Mode,
        speed: Speed,
        save_path: Option<PathBuf>,
        best: &str,
    ) -> Result<App> {
        let worker = AiWorker::spawn(create_player(&self.spec, self.seed)?, self.limits)?;
        let mut app = App::new(Config {
            mode,
            rules: self.rules,
            seed: self.seed,
            from: self.from,
            ai: self.spec.to_string(),
            speed,
            save_path,
            best: BestScore::default_path(best).map_or_else(BestScore::in_memory, BestScore::load),
        })?;
        crate::tui::terminal::run(&mut app, &worker)?;
        let _ = app.persist_best();
        Ok(app)
    }
}
