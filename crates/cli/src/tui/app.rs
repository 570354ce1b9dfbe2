//! The state of the game screen, and what every action does to it. No terminal here:
//! the loop feeds in actions, finished searches and the time; the view draws the
//! state. The AI's searches go out as [`SearchRequest`]s and come back as
//! [`SearchDone`]s, so tests can run them in place.

use std::path::{Path, PathBuf};
use std::time::Instant;

use ai2048_engine::rng::derive_seed;
use ai2048_engine::{Board, Dir, Game, PlayError, Rules};

use super::action::Action;
use super::ai::{SearchDone, SearchRequest};
use super::best::BestScore;
use super::speed::Speed;
use super::stats::SearchStats;
use crate::commands::setup::start_game;
use crate::files::write_atomic;

/// Who is at the keys.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// A person plays, with hints and autoplay from the AI on request.
    Play,
    /// The AI plays; the person pauses, changes the speed, saves.
    Watch,
}

/// How a message should look.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tone {
    /// News.
    Info,
    /// Something worked (a saved replay).
    Good,
    /// Something was refused or failed.
    Bad,
}

/// One line for the person, until the next action.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Message {
    /// What it says.
    pub text: String,
    /// How it looks.
    pub tone: Tone,
}

/// What the screen starts from.
#[derive(Clone, Debug)]
pub struct Config {
    /// Who is at the keys.
    pub mode: Mode,
    /// The rules of every game.
    pub rules: Rules,
    /// The seed of the first game; the next games' seeds derive from it.
    pub seed: u64,
    /// The position every game starts from (`watch --from`); `None` for new boards.
    pub from: Option<Board>,
    /// The AI, as its spec, for the screen.
    pub ai: String,
    /// The pause between the AI's moves.
    pub speed: Speed,
    /// Where replays are saved (`--save`); `ai2048-SEED.replay` when `None`.
    pub save_path: Option<PathBuf>,
    /// The best score so far.
    pub best: BestScore,
}

/// The game screen's state.
#[derive(Debug)]
pub struct App {
    mode: Mode,
    from: Option<Board>,
    rules: Rules,
    first_seed: u64,
    games: u64,
    game: Game,
    best: BestScore,
    best_at_start: u64,
    ai: String,
    auto: bool,
    speed: Speed,
    hint_wanted: bool,
    /// The AI's search of the current board, when it has one.
    analysis: Option<SearchDone>,
    /// The latest search, whatever board it was for.
    last_search: Option<SearchDone>,
    pending: Option<SearchRequest>,
    next_id: u64,
    reset_player: bool,
    stats: SearchStats,
    last_move_at: Option<Instant>,
    message: Option<Message>,
    confirm_new: bool,
    save_path: Option<PathBuf>,
    saved_to: Option<PathBuf>,
    quit: bool,
}

impl App {
    /// The screen at the start of the first game. In watch the AI starts playing at
    /// once.
    ///
    /// # Errors
    ///
    /// When the rules are invalid.
    pub fn new(config: Config) -> anyhow::Result<App> {
        let game = start_game(config.seed, config.rules, config.from)?;
        let best_at_start = config.best.value();
        Ok(App {
            mode: config.mode,
            rules: config.rules,
            from: config.from,
            first_seed: config.seed,
            games: 0,
            game,
            best: config.best,
            best_at_start,
            ai: config.ai,
            auto: config.mode == Mode::Watch,
            speed: config.speed,
            hint_wanted: false,
            analysis: None,
            last_search: None,
            pending: None,
            next_id: 1,
            reset_player: false,
            stats: SearchStats::default(),
            last_move_at: None,
            message: None,
            confirm_new: false,
            save_path: config.save_path,
            saved_to: None,
            quit: false,
        })
    }

    /// Carries out `action`, at time `now`.
    pub fn handle(&mut self, action: Action, now: Instant) {
        let confirming = std::mem::take(&mut self.confirm_new);
        self.message = None;
        let play = self.mode == Mode::Play;
        match action {
            Action::Move(dir) if play => self.human_move(dir, now),
            Action::Undo if play => self.undo(),
            Action::Hint if play => {
                if self.game.is_over() {
                    self.say(Tone::Bad, "the game is over: no hint to give");
                } else {
                    self.hint_wanted = true;
                }
            }
            Action::Move(_) | Action::Undo | Action::Hint => {
                self.say(Tone::Bad, "the AI is at the keys");
            }
            Action::ToggleAuto => self.toggle_auto(),
            Action::Faster => {
                if self.speed.faster() {
                    self.say_speed();
                } else {
                    self.say(Tone::Info, "already the fastest: no pause between moves");
                }
            }
            Action::Slower => {
                if self.speed.slower() {
                    self.say_speed();
                } else {
                    let text = format!("already the slowest: {} between moves", self.speed.label());
                    self.say(Tone::Info, text);
                }
            }
            Action::New => {
                let in_progress = self.game.moves() > 0 && !self.game.is_over();
                if play && in_progress && !confirming {
                    self.confirm_new = true;
                    self.say(
                        Tone::Info,
                        "press n again to give up this game and start a new one",
                    );
                } else {
                    self.new_game();
                }
            }
            Action::Save => self.save(),
            Action::Quit => {
                // The best score must never stop the player from leaving.
                let _ = self.best.persist();
                self.quit = true;
            }
        }
    }

    /// Takes a finished search. One for another board (the game moved on meanwhile)
    /// is dropped.
    pub fn on_search(&mut self, done: SearchDone) {
        if self.pending.is_some_and(|p| p.id == done.id) {
            self.pending = None;
        }
        if done.board != self.game.board() {
            return;
        }
        self.stats.record(&done);
        self.last_search = Some(done.clone());
        self.analysis = Some(done);
    }

    /// Lets time pass: in autoplay or watch, plays the AI's move once it is known and
    /// the pause after the last move is over. `true` when a move was played.
    pub fn tick(&mut self, now: Instant) -> bool {
        if !self.auto || self.game.is_over() || !self.is_due(now) {
            return false;
        }
        let Some(dir) = self.analysis.as_ref().and_then(|a| a.result.dir) else {
            return false;
        };
        match self.game.try_play(dir) {
            Ok(_) => {
                self.moved(now);
                true
            }
            Err(e) => {
                self.auto = false;
                self.say(Tone::Bad, format!("the AI's move was refused: {e}"));
                false
            }
        }
    }

    /// When [`App::tick`] will next play a move by itself, if it is waiting for the
    /// pause to end.
    pub fn deadline(&self) -> Option<Instant> {
        if !self.auto || self.game.is_over() || self.analysis.is_none() {
            return None;
        }
        self.last_move_at.map(|t| t + self.speed.delay())
    }

    /// The search to start now, if one is needed (a hint, or the AI's next move) and
    /// none is running.
    pub fn next_request(&mut self) -> Option<SearchRequest> {
        let wanted = self.hint_wanted || self.auto;
        if !wanted || self.pending.is_some() || self.analysis.is_some() || self.game.is_over() {
            return None;
        }
        let request = SearchRequest {
            id: self.next_id,
            board: self.game.board(),
        };
        self.next_id += 1;
        self.pending = Some(request);
        Some(request)
    }

    /// Whether the player should forget the last game (once per new game).
    pub fn take_player_reset(&mut self) -> bool {
        std::mem::take(&mut self.reset_player)
    }

    /// Who is at the keys.
    pub fn mode(&self) -> Mode {
        self.mode
    }

    /// The game.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The best score, this game's included.
    pub fn best(&self) -> u64 {
        self.best.value()
    }

    /// Whether this game beat the best score it started with (a best of 0 is no
    /// record to beat).
    pub fn new_best(&self) -> bool {
        self.best_at_start > 0 && self.game.score() > self.best_at_start
    }

    /// The AI's spec.
    pub fn ai(&self) -> &str {
        &self.ai
    }

    /// Whether the AI is playing: autoplay in play; not paused in watch.
    pub fn auto(&self) -> bool {
        self.auto
    }

    /// The pause between the AI's moves.
    pub fn speed(&self) -> Speed {
        self.speed
    }

    /// Whether a hint was asked for the current board.
    pub fn hint_wanted(&self) -> bool {
        self.hint_wanted
    }

    /// The AI's search of the current board, when there is one.
    pub fn analysis(&self) -> Option<&SearchDone> {
        self.analysis.as_ref()
    }

    /// The latest search, whatever board it was for.
    pub fn last_search(&self) -> Option<&SearchDone> {
        self.last_search.as_ref()
    }

    /// Whether a search is running.
    pub fn searching(&self) -> bool {
        self.pending.is_some()
    }

    /// The searches of this game.
    pub fn stats(&self) -> &SearchStats {
        &self.stats
    }

    /// The line for the person, if any.
    pub fn message(&self) -> Option<&Message> {
        self.message.as_ref()
    }

    /// Where this game was last saved.
    pub fn saved_to(&self) -> Option<&Path> {
        self.saved_to.as_deref()
    }

    /// Whether the person asked to leave.
    pub fn should_quit(&self) -> bool {
        self.quit
    }

    /// Writes the best score to its file if it went up.
    ///
    /// # Errors
    ///
    /// When the file cannot be written.
    pub fn persist_best(&mut self) -> anyhow::Result<()> {
        self.best.persist()
    }

    fn say(&mut self, tone: Tone, text: impl Into<String>) {
        self.message = Some(Message {
            text: text.into(),
            tone,
        });
    }

    fn say_speed(&mut self) {
        let text = format!("pause between the AI's moves: {}", self.speed.label());
        self.say(Tone::Info, text);
    }

    /// Whether the pause after the last move is over.
    fn is_due(&self, now: Instant) -> bool {
        self.last_move_at
            .is_none_or(|t| now >= t + self.speed.delay())
    }

    fn human_move(&mut self, dir: Dir, now: Instant) {
        match self.game.try_play(dir) {
            Ok(turn) => {
                self.moved(now);
                if turn.score > 0 && self.message.is_none() {
                    self.say(Tone::Info, format!("+{}", turn.score));
                }
            }
            Err(PlayError::GameOver) => {
                self.say(Tone::Bad, "the game is over: n starts a new one, u undoes")
            }
            Err(e @ PlayError::IllegalMove(_)) => self.say(Tone::Bad, e.to_string()),
        }
    }

    fn undo(&mut self) {
        if self.game.undo().is_none() {
            self.say(Tone::Bad, "nothing to undo");
            return;
        }
        self.board_changed();
        if self.auto {
            // Else the AI plays the same move again at once.
            self.auto = false;
            self.say(Tone::Info, "undone; autoplay paused");
        } else {
            self.say(Tone::Info, "undone");
        }
    }

    fn toggle_auto(&mut self) {
        if !self.auto && self.game.is_over() {
            self.say(Tone::Bad, "the game is over: n starts a new one");
            return;
        }
        self.auto = !self.auto;
        let text = match (self.mode, self.auto) {
            (Mode::Play, true) => format!("autoplay on, {} between moves", self.speed.label()),
            (Mode::Play, false) => "autoplay off".to_string(),
            (Mode::Watch, true) => "resumed".to_string(),
            (Mode::Watch, false) => "paused: space resumes".to_string(),
        };
        self.say(Tone::Info, text);
    }

    /// After any move that was played.
    fn moved(&mut self, now: Instant) {
        self.last_move_at = Some(now);
        self.board_changed();
        self.best.observe(self.game.score());
        if self.game.is_over() {
            if self.mode == Mode::Play {
                self.auto = false;
            }
            let _ = self.best.persist();
        }
    }

    fn board_changed(&mut self) {
        self.analysis = None;
        self.hint_wanted = false;
    }

    fn new_game(&mut self) {
        self.games += 1;
        let seed = derive_seed(self.first_seed, self.games);
        match start_game(seed, self.rules, self.from) {
            Ok(game) => self.game = game,
            Err(e) => {
                self.say(Tone::Bad, format!("cannot start a new game: {e}"));
                return;
            }
        }
        let _ = self.best.persist();
        self.best_at_start = self.best.value();
        self.board_changed();
        self.last_search = None;
        self.stats = SearchStats::default();
        self.reset_player = true;
        self.saved_to = None;
        self.last_move_at = None;
        if self.mode == Mode::Play {
            self.auto = false;
        }
        self.say(Tone::Info, format!("new game, seed {seed}"));
    }

    /// The file a replay goes to: `--save`, else `ai2048-SEED.replay` here.
    pub fn save_path(&self) -> PathBuf {
        self.save_path
            .clone()
            .unwrap_or_else(|| PathBuf::from(format!("ai2048-{}.replay", self.game.seed())))
    }

    fn save(&mut self) {
        let path = self.save_path();
        let text = self.game.replay().to_string();
        match write_atomic(&path, text.as_bytes()) {
            Ok(()) => {
                let what = if self.game.is_over() {
                    "replay"
                } else {
                    "game so far"
                };
                self.say(Tone::Good, format!("{what} saved to {}", path.display()));
                self.saved_to = Some(path);
            }
            Err(e) => self.say(Tone::Bad, format!("cannot save the replay: {e:#}")),
        }
    }
}

#[cfg(test)]
pub(crate) mod tests;
