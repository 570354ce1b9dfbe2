//! What a search may spend, and what it returns.

use core::fmt;
use std::time::Duration;

use ai2048_engine::Dir;

/// The limits of one search, as data: any of them may be set.
///
/// ```
/// use ai2048_ai::SearchLimits;
/// use std::time::Duration;
/// let limits = SearchLimits { depth: Some(3), ..SearchLimits::default() };
/// assert_eq!(limits.time, None);
/// let timed = SearchLimits::with_time(Duration::from_millis(20));
/// assert_eq!(timed.time, Some(Duration::from_millis(20)));
/// // A game with 180 s on its clock: the player spreads them over its moves.
/// let clocked = SearchLimits { clock: Some(Duration::from_secs(180)), ..SearchLimits::default() };
/// assert_eq!(clocked.time, None);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SearchLimits {
    /// The depth of the search: the layers it looks at below the root move, chance
    /// layers for expectimax (a spawn and the reply to it), adversary layers for
    /// minimax (see each player for the details). Depth 0 is greedy: the board right
    /// after each move is evaluated. `None` lets the player choose; MCTS ignores it.
    pub depth: Option<u32>,
    /// The time for this move; `None` lets the player choose.
    pub time: Option<Duration>,
    /// The most nodes to visit; `None` for no limit.
    pub nodes: Option<u64>,
    /// The time the whole game has left, as on a chess clock: a player that plans its
    /// time over the game (see [`TimePlan`](crate::TimePlan)) takes this move's share
    /// from it when neither `time` nor `depth` is set. `None` when the game is untimed.
    pub clock: Option<Duration>,
}

impl SearchLimits {
    /// The deepest search accepted: deeper ones take hours.
    pub const MAX_DEPTH: u32 = 20;

    /// The longest time per move accepted: an hour.
    pub const MAX_TIME: Duration = Duration::from_secs(3600);

    /// The longest game clock accepted: a day.
    pub const MAX_CLOCK: Duration = Duration::from_secs(86_400);

    /// Limits from numbers as a user gives them, checked as [`SearchLimits::validate`]
    /// checks them; times in milliseconds, fractions allowed. Every front end (the
    /// command line, the protocol, the web and Python) reads its limits through here,
    /// and names the field in its own terms when it reports the error.
    ///
    /// # Errors
    ///
    /// A depth above [`SearchLimits::MAX_DEPTH`], a time per move that is not above 0
    /// and at most [`SearchLimits::MAX_TIME`], a node limit of 0, or a clock that is
    /// not from 0 to [`SearchLimits::MAX_CLOCK`] (`NaN` is neither).
    ///
    /// ```
    /// use ai2048_ai::{LimitsError, SearchLimits};
    /// use std::time::Duration;
    /// let limits = SearchLimits::from_user(Some(3), Some(2.5), None, None)?;
    /// assert_eq!(limits.time, Some(Duration::from_micros(2500)));
    /// assert_eq!(
    ///     SearchLimits::from_user(Some(21), None, None, None),
    ///     Err(LimitsError::Depth(21))
    /// );
    /// assert!(SearchLimits::from_user(None, Some(f64::NAN), None, None).is_err());
    /// # Ok::<(), LimitsError>(())
    /// ```
    pub fn from_user(
        depth: Option<u64>,
        time_ms: Option<f64>,
        nodes: Option<u64>,
        clock_ms: Option<f64>,
    ) -> Result<SearchLimits, LimitsError> {
        let depth = depth
            .map(|d| {
                u32::try_from(d)
                    .ok()
                    .filter(|&d| d <= Self::MAX_DEPTH)
                    .ok_or(LimitsError::Depth(d))
            })
            .transpose()?;
        let time = time_ms
            .map(|ms| {
                millis(ms)
                    .filter(|t| !t.is_zero() && *t <= Self::MAX_TIME)
                    .ok_or(LimitsError::Time(ms))
            })
            .transpose()?;
        let clock = clock_ms
            .map(|ms| {
                millis(ms)
                    .filter(|t| *t <= Self::MAX_CLOCK)
                    .ok_or(LimitsError::Clock(ms))
            })
            .transpose()?;
        let limits = SearchLimits {
            depth,
            time,
            nodes,
            clock,
        };
        limits.validate()?;
        Ok(limits)
    }

    /// Checks limits: a depth of at most [`SearchLimits::MAX_DEPTH`], a time per move
    /// above 0 and at most [`SearchLimits::MAX_TIME`], a node limit above 0 and a
    /// clock of at most [`SearchLimits::MAX_CLOCK`].
    ///
    /// # Errors
    ///
    /// The first limit out of its range.
    ///
    /// ```
    /// use ai2048_ai::{LimitsError, SearchLimits};
    /// use std::time::Duration;
    /// assert!(SearchLimits::with_depth(20).validate().is_ok());
    /// assert_eq!(SearchLimits::with_time(Duration::ZERO).validate(), Err(LimitsError::Time(0.0)));
    /// ```
    pub fn validate(&self) -> Result<(), LimitsError> {
        let ms = |t: Duration| t.as_secs_f64() * 1e3;
        if let Some(d) = self.depth.filter(|&d| d > Self::MAX_DEPTH) {
            return Err(LimitsError::Depth(d.into()));
        }
        if let Some(t) = self.time.filter(|t| t.is_zero() || *t > Self::MAX_TIME) {
            return Err(LimitsError::Time(ms(t)));
        }
        if self.nodes == Some(0) {
            return Err(LimitsError::Nodes);
        }
        if let Some(c) = self.clock.filter(|c| *c > Self::MAX_CLOCK) {
            return Err(LimitsError::Clock(ms(c)));
        }
        Ok(())
    }

    /// Limits with only a time budget.
    #[must_use]
    pub fn with_time(time: Duration) -> SearchLimits {
        SearchLimits {
            time: Some(time),
            ..SearchLimits::default()
        }
    }

    /// Limits with only a depth.
    #[must_use]
    pub fn with_depth(depth: u32) -> SearchLimits {
        SearchLimits {
            depth: Some(depth),
            ..SearchLimits::default()
        }
    }
}

/// A time in milliseconds as a [`Duration`], or `None` when it is negative, not a
/// number, or too large for one.
fn millis(ms: f64) -> Option<Duration> {
    (ms >= 0.0)
        .then(|| Duration::try_from_secs_f64(ms / 1e3).ok())
        .flatten()
}

/// Limits out of range, from [`SearchLimits::from_user`] or
/// [`SearchLimits::validate`]. Its message names the limit as Python's keywords do
/// (`depth`, `time_ms`, `nodes`, `clock_ms`); [`LimitsError::message`] names it as
/// another front end's users write it (`--time-ms`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum LimitsError {
    /// A depth above [`SearchLimits::MAX_DEPTH`].
    Depth(u64),
    /// A time per move, in milliseconds, that is not above 0 and at most
    /// [`SearchLimits::MAX_TIME`].
    Time(f64),
    /// A node limit of 0.
    Nodes,
    /// A game clock, in milliseconds, that is not from 0 to [`SearchLimits::MAX_CLOCK`].
    Clock(f64),
}

impl LimitsError {
    /// The limit's name in [`SearchLimits::from_user`]'s terms: `depth`, `time_ms`,
    /// `nodes` or `clock_ms`.
    #[must_use]
    pub fn field(&self) -> &'static str {
        match self {
            LimitsError::Depth(_) => "depth",
            LimitsError::Time(_) => "time_ms",
            LimitsError::Nodes => "nodes",
            LimitsError::Clock(_) => "clock_ms",
        }
    }

    /// The message, with the limit called `name`.
    ///
    /// ```
    /// use ai2048_ai::LimitsError;
    /// assert_eq!(LimitsError::Depth(25).message("--depth"), "--depth 25 is above 20");
    /// assert_eq!(LimitsError::Depth(25).to_string(), "depth 25 is above 20");
    /// ```
    #[must_use]
    pub fn message(&self, name: &str) -> String {
        match self {
            LimitsError::Depth(d) => format!("{name} {d} is above {}", SearchLimits::MAX_DEPTH),
            LimitsError::Time(ms) => format!(
                "{name} must be a number of milliseconds above 0 and at most an hour, not {ms}"
            ),
            LimitsError::Nodes => format!("{name} must be at least 1"),
            LimitsError::Clock(ms) => {
                format!("{name} must be a number of milliseconds from 0 to a day, not {ms}")
            }
        }
    }
}

impl fmt::Display for LimitsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message(self.field()))
    }
}

impl std::error::Error for LimitsError {}

/// The outcome of a search.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SearchResult {
    /// The chosen move, or `None` when no move is legal.
    pub dir: Option<Dir>,
    /// The value of the chosen move, on the player's own scale.
    pub value: f64,
    /// The value of each direction, in the order up, down, left, right; `None` for an
    /// illegal move or one the player did not value.
    pub dir_values: [Option<f64>; 4],
    /// The depth reached (0 for players that do not search).
    pub depth: u32,
    /// The nodes visited: boards evaluated or moved.
    pub nodes: u64,
    /// Whether an endgame table answered, and whether its move was played.
    pub table: TableUse,
}

/// What an endgame table had to do with a move (see [`crate::endgame::WithTables`]).
///
/// ```
/// use ai2048_ai::{SearchResult, TableUse};
/// assert_eq!(SearchResult::default().table, TableUse::None);
/// assert!(TableUse::Played.answered() && TableUse::Kept.answered());
/// assert!(TableUse::Decided.played() && !TableUse::Kept.played());
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum TableUse {
    /// No table matched the board (or the player has none).
    #[default]
    None,
    /// A table matched the board, and the searched move stood.
    Kept,
    /// A table matched the board and its move was played instead of the searched one.
    Played,
    /// A table matched the board and its best move was ahead of every other by more
    /// than the player's slack, so that it was played without a search: the move a
    /// search checked by the table would have ended with, in microseconds.
    Decided,
}

impl TableUse {
    /// Whether a table matched the board.
    #[must_use]
    pub fn answered(self) -> bool {
        self != TableUse::None
    }

    /// Whether the table's move was played, over the search's or without one.
    #[must_use]
    pub fn played(self) -> bool {
        matches!(self, TableUse::Played | TableUse::Decided)
    }

    /// The name the engine protocol writes, `kept`, `played` or `decided`, or `None`
    /// where no table matched the board.
    ///
    /// ```
    /// use ai2048_ai::TableUse;
    /// assert_eq!(TableUse::Decided.name(), Some("decided"));
    /// assert_eq!(TableUse::None.name(), None);
    /// ```
    #[must_use]
    pub fn name(self) -> Option<&'static str> {
        match self {
            TableUse::None => None,
            TableUse::Kept => Some("kept"),
            TableUse::Played => Some("played"),
            TableUse::Decided => Some("decided"),
        }
    }
}

impl SearchResult {
    /// The result that picks the best of `dir_values`, or no move if all are `None`.
    /// Ties go to the first direction in the order up, down, left, right.
    ///
    /// ```
    /// use ai2048_ai::SearchResult;
    /// use ai2048_engine::Dir;
    /// let r = SearchResult::from_values([None, Some(1.0), Some(3.0), Some(3.0)], 1, 12);
    /// assert_eq!(r.dir, Some(Dir::Left));
    /// assert_eq!(r.value, 3.0);
    /// ```
    #[must_use]
    pub fn from_values(dir_values: [Option<f64>; 4], depth: u32, nodes: u64) -> SearchResult {
        let mut best: Option<(Dir, f64)> = None;
        for dir in Dir::ALL {
            if let Some(v) = dir_values[dir.index()] {
                if best.is_none_or(|(_, b)| v > b) {
                    best = Some((dir, v));
                }
            }
        }
        SearchResult {
            dir: best.map(|(d, _)| d),
            value: best.map_or(0.0, |(_, v)| v),
            dir_values,
            depth,
            nodes,
            table: TableUse::None,
        }
    }
}
