//! What a search may spend, and what it returns.

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
                if best.map_or(true, |(_, b)| v > b) {
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
        }
    }
}
