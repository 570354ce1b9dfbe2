//! The configuration of a run, and why a run fails.

use core::fmt;
use core::ops::Range;
use std::time::Duration;

use ai2048_ai::{check_player, PlayerError, PlayerSpec, SearchLimits};
use ai2048_engine::rng::derive_seed;
use ai2048_engine::{exponent_of_tile, Board, Dir, Rules, RulesError, MAX_TILE};

/// What to benchmark, and how.
///
/// The run plays games `first_game` to `first_game + games - 1`. Game `i` is played
/// from seed [`BenchConfig::game_seed`]`(i)`, by a player created from the same seed,
/// so the outcome of every game depends only on the configuration and `i`: not on
/// `jobs`, nor on the order in which threads pick games, nor on how a run is split
/// into parts with `first_game`.
///
/// ```
/// use ai2048_bench::BenchConfig;
/// use std::time::Duration;
/// let config = BenchConfig {
///     games: 10,
///     jobs: 2,
///     timeout: Some(Duration::from_secs(5)),
///     ..BenchConfig::new("greedy".parse()?)
/// };
/// assert!(config.validate().is_ok());
/// assert_ne!(config.game_seed(0), config.game_seed(1));
/// assert!(BenchConfig { jobs: 0, ..config }.validate().is_err());
/// # Ok::<(), ai2048_ai::PlayerError>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct BenchConfig {
    /// How many games to play.
    pub games: u64,
    /// The index of the first game: a run split into parts (games 0 to 49, then 50 to
    /// 99) plays the same games as the whole.
    pub first_game: u64,
    /// The seed of the run, from which every game's seed is derived.
    pub seed: u64,
    /// How many games to play at once, one per thread; at least 1.
    pub jobs: usize,
    /// The most time one game may take; a game that runs out stops there and counts
    /// with what it reached. `None` for no limit.
    pub timeout: Option<Duration>,
    /// The rules of every game.
    pub rules: Rules,
    /// The player, by name and options.
    pub player: PlayerSpec,
    /// The limits of every search. When both this time and `timeout` are set, a move
    /// gets at most the time its game has left.
    pub limits: SearchLimits,
    /// The position every game starts from (see `Game::from_board`), its spawns from
    /// the game's seed; `None` for new games, the start tiles spawned on the empty
    /// board. The way to measure how often a player converts one position.
    pub from: Option<Board>,
    /// The tile at which a game stops, counted as reaching it (and nothing above):
    /// to measure how often a player makes a tile, without playing on past it.
    /// `None` to play every game to its end.
    pub until: Option<u32>,
}

impl BenchConfig {
    /// 100 games of `player` from seed 0 on one thread, original rules, no timeout,
    /// default limits.
    #[must_use]
    pub fn new(player: PlayerSpec) -> BenchConfig {
        BenchConfig {
            games: 100,
            first_game: 0,
            seed: 0,
            jobs: 1,
            timeout: None,
            rules: Rules::default(),
            player,
            limits: SearchLimits::default(),
            from: None,
            until: None,
        }
    }

    /// The games to play at once from what a user gave (`jobs`, named `name` in the
    /// error): all cores when `None`.
    ///
    /// # Errors
    ///
    /// [`BenchError::Config`] for 0.
    ///
    /// ```
    /// use ai2048_bench::BenchConfig;
    /// assert_eq!(BenchConfig::jobs_from_user(Some(3), "--jobs"), Ok(3));
    /// assert!(BenchConfig::jobs_from_user(None, "--jobs").unwrap() >= 1);
    /// let err = BenchConfig::jobs_from_user(Some(0), "--jobs").unwrap_err();
    /// assert_eq!(err.to_string(), "--jobs must be at least 1");
    /// ```
    pub fn jobs_from_user(jobs: Option<usize>, name: &str) -> Result<usize, BenchError> {
        match jobs {
            Some(0) => Err(BenchError::Config(format!("{name} must be at least 1"))),
            Some(j) => Ok(j),
            None => Ok(std::thread::available_parallelism().map_or(1, |n| n.get())),
        }
    }

    /// The time limit of each game from seconds as a user gave them (`secs`, named
    /// `name` in the error); `None` for no limit.
    ///
    /// # Errors
    ///
    /// [`BenchError::Config`] for a time that is not a positive number of seconds, or
    /// too large for a [`Duration`].
    ///
    /// ```
    /// use ai2048_bench::BenchConfig;
    /// use std::time::Duration;
    /// assert_eq!(BenchConfig::timeout_from_user(Some(1.5), "timeout"), Ok(Some(Duration::from_millis(1500))));
    /// assert!(BenchConfig::timeout_from_user(Some(0.0), "timeout").is_err());
    /// assert!(BenchConfig::timeout_from_user(Some(f64::NAN), "timeout").is_err());
    /// ```
    pub fn timeout_from_user(
        secs: Option<f64>,
        name: &str,
    ) -> Result<Option<Duration>, BenchError> {
        let Some(t) = secs else { return Ok(None) };
        if !(t.is_finite() && t > 0.0) {
            return Err(BenchError::Config(format!(
                "{name} must be a positive number of seconds, not {t}"
            )));
        }
        Duration::try_from_secs_f64(t)
            .map(Some)
            .map_err(|_| BenchError::Config(format!("{name} {t:e} is too large")))
    }

    /// The seed of game `index`, for both its tiles and its player.
    #[must_use]
    pub fn game_seed(&self, index: u64) -> u64 {
        derive_seed(self.seed, index)
    }

    /// The indices of the run's games: `first_game` to `first_game + games - 1`.
    #[must_use]
    pub fn indices(&self) -> Range<u64> {
        self.first_game..self.first_game.saturating_add(self.games)
    }

    /// The threads that play `games` games: `jobs`, but no more than the games.
    ///
    /// ```
    /// use ai2048_bench::BenchConfig;
    /// let config = BenchConfig { jobs: 4, ..BenchConfig::new("random".parse()?) };
    /// assert_eq!((config.threads_for(100), config.threads_for(3)), (4, 3));
    /// # Ok::<(), ai2048_ai::PlayerError>(())
    /// ```
    #[must_use]
    pub fn threads_for(&self, games: u64) -> usize {
        usize::try_from(games).map_or(self.jobs, |g| self.jobs.min(g))
    }

    /// Checks that the run can start: at least one job, a non-zero timeout, valid
    /// rules, a player that exists with the options given, a start position
    /// (`from`), if any, where a move is left, and a tile to stop at (`until`), if
    /// any, above the start's largest.
    ///
    /// # Errors
    ///
    /// [`BenchError::Config`], [`BenchError::Rules`] or [`BenchError::Player`].
    ///
    /// ```
    /// use ai2048_bench::BenchConfig;
    /// let over = "2 4 2 4/4 2 4 2/2 4 2 4/4 2 4 2".parse()?;
    /// let config = BenchConfig { from: Some(over), ..BenchConfig::new("greedy".parse()?) };
    /// assert!(config.validate().unwrap_err().to_string().contains("no move"));
    /// let until = BenchConfig { until: Some(100), ..BenchConfig::new("greedy".parse()?) };
    /// assert!(until.validate().unwrap_err().to_string().contains("not a tile"));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn validate(&self) -> Result<(), BenchError> {
        if let Some(board) = self.from.filter(|b| b.is_over()) {
            return Err(BenchError::Config(format!(
                "the start position {} has no move left",
                board.to_hex()
            )));
        }
        if let Some(tile) = self.until {
            if exponent_of_tile(u64::from(tile)).is_err() || tile < 4 {
                return Err(BenchError::Config(format!(
                    "until {tile}: not a tile that a move can make (4, 8, ... up to {MAX_TILE})"
                )));
            }
            if let Some(start) = self.from.map(Board::max_tile).filter(|&m| m >= tile) {
                return Err(BenchError::Config(format!(
                    "until {tile}: the start position holds {start} already"
                )));
            }
        }
        if self.jobs == 0 {
            return Err(BenchError::Config("jobs must be at least 1".to_owned()));
        }
        if self.first_game.saturating_add(self.games) > LAST_GAME {
            return Err(BenchError::Config(format!(
                "{} games from game {} go past the last game index, 2^63",
                self.games, self.first_game
            )));
        }
        if self.timeout == Some(Duration::ZERO) {
            return Err(BenchError::Config(
                "the timeout must be more than zero".to_owned(),
            ));
        }
        self.rules.validate().map_err(BenchError::Rules)?;
        check_player(&self.player).map_err(BenchError::Player)?;
        Ok(())
    }
}

/// The largest game index a run may reach, so that counting past it cannot wrap.
pub(crate) const LAST_GAME: u64 = 1 << 63;

/// Why a run failed. Errors come from a bad configuration or a faulty player; a
/// stopped run or a game out of time is not an error.
#[derive(Clone, Debug, PartialEq)]
pub enum BenchError {
    /// The configuration makes no sense.
    Config(String),
    /// The rules are invalid.
    Rules(RulesError),
    /// The player cannot be created.
    Player(PlayerError),
    /// The player chose a move the rules refuse.
    IllegalMove {
        /// The player's name.
        player: String,
        /// The game's index.
        index: u64,
        /// The game's seed.
        seed: u64,
        /// The move chosen.
        dir: Dir,
    },
    /// The player returned no move though the game was not over.
    NoMove {
        /// The player's name.
        player: String,
        /// The game's index.
        index: u64,
        /// The game's seed.
        seed: u64,
    },
    /// No thread could be started.
    Thread(String),
    /// The player (or the progress callback) panicked.
    Panicked {
        /// The game's index.
        index: u64,
        /// The panic's message.
        message: String,
    },
}

impl fmt::Display for BenchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BenchError::Config(m) => f.write_str(m),
            BenchError::Rules(e) => write!(f, "invalid rules: {e}"),
            BenchError::Player(e) => e.fmt(f),
            BenchError::IllegalMove {
                player,
                index,
                seed,
                dir,
            } => write!(
                f,
                "the {player} player chose an illegal move ({dir}) in game {index} (seed {seed})"
            ),
            BenchError::NoMove {
                player,
                index,
                seed,
            } => write!(
                f,
                "the {player} player returned no move in game {index} (seed {seed}), which was not over"
            ),
            BenchError::Thread(e) => write!(f, "cannot start a thread: {e}"),
            BenchError::Panicked { index, message } => {
                write!(f, "game {index} panicked: {message}")
            }
        }
    }
}

/// The message already says what the rules' or the player's error says, so that error
/// is not a `source` as well: a report of the chain (`{:#}`) would say it twice.
impl std::error::Error for BenchError {}
