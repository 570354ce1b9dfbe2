//! The record of one finished benchmark game.

use ai2048_engine::Board;
use serde::{Deserialize, Serialize};

/// What one game of a benchmark came to.
///
/// The outcome (`score`, `max_tile`, `moves`, `timed_out`, `board`) depends only on the
/// run's configuration and the game's `index`; the timings (`seconds`,
/// `max_ms_per_move`) depend on the machine. [`GameRecord::same_outcome`] compares the
/// former.
///
/// ```
/// use ai2048_bench::GameRecord;
/// let a = GameRecord { index: 3, seed: 42, score: 1200, max_tile: 128, moves: 150,
///                      seconds: 0.001, timed_out: false, max_ms_per_move: 0.01, nodes: 0,
///                      table_answers: 0, table_moves: 0, searches: 0, depth_sum: 0,
///                      board: None };
/// let b = GameRecord { seconds: 0.002, max_ms_per_move: 0.03, nodes: 7, ..a };
/// assert!(a.same_outcome(&b));
/// assert!(!a.same_outcome(&GameRecord { score: 1204, ..a }));
/// // In JSON the final board is its 16 hex digits, as `--from` and `hint` read them.
/// let ended = GameRecord { board: Some("128 64 8 2/4 2 0 0/0 0 0 0/0 0 0 0".parse()?), ..a };
/// let json = serde_json::to_value(ended)?;
/// assert_eq!(json["board"], "7631210000000000");
/// assert_eq!(serde_json::from_value::<GameRecord>(json)?, ended);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameRecord {
    /// The game's number in the run, from 0.
    pub index: u64,
    /// The seed of the game and of its player: `derive_seed(run seed, index)`.
    pub seed: u64,
    /// The final score.
    pub score: u64,
    /// The largest tile reached.
    pub max_tile: u32,
    /// The moves played.
    pub moves: u64,
    /// The game's wall-clock time in seconds, from its first move to its last (the
    /// player's setup is not counted).
    pub seconds: f64,
    /// Whether the game ran out of time before it was over; it counts with what it
    /// reached.
    pub timed_out: bool,
    /// The longest move in milliseconds: the player's search plus playing the move.
    pub max_ms_per_move: f64,
    /// The nodes the player searched over the whole game (see
    /// `ai2048_ai::SearchResult::nodes`).
    #[serde(default)]
    pub nodes: u64,
    /// The moves where an endgame table matched the board (see
    /// `ai2048_ai::TableUse`): 0 without tables.
    #[serde(default)]
    pub table_answers: u64,
    /// Of those, the moves where the table's move was played: instead of the searched
    /// move, or without a search where it was far ahead (`TableUse::Decided`).
    #[serde(default)]
    pub table_moves: u64,
    /// The moves the player searched: every move but those an endgame table decided
    /// without a search (`TableUse::Decided`). 0 in the records of runs written
    /// before games counted them.
    #[serde(default)]
    pub searches: u64,
    /// The depths those searches completed, summed (see
    /// `ai2048_ai::SearchResult::depth`): over [`GameRecord::searches`], the mean depth
    /// a search reached, which under a time a move says how deep the time took it. 0
    /// for players that do not search.
    #[serde(default)]
    pub depth_sum: u64,
    /// The board the game ended on (or stopped on, at `--until`'s tile or its
    /// timeout): in JSON its 16 hex digits ([`Board::to_hex`]), which `bench --from`,
    /// `hint` and `tables query` read. `None` in the records of runs written before
    /// games kept it.
    #[serde(default, skip_serializing_if = "Option::is_none", with = "hex_board")]
    pub board: Option<Board>,
}

/// A record's board in JSON: its hex digits, or absent.
mod hex_board {
    use ai2048_engine::Board;
    use serde::de::Error;
    use serde::{Deserialize, Deserializer, Serializer};

    pub(super) fn serialize<S: Serializer>(board: &Option<Board>, s: S) -> Result<S::Ok, S::Error> {
        match board {
            Some(board) => s.serialize_str(&board.to_hex()),
            None => s.serialize_none(),
        }
    }

    pub(super) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Board>, D::Error> {
        Option::<String>::deserialize(d)?
            .map(|hex| {
                hex.parse::<Board>()
                    .map_err(|e| D::Error::custom(format!("the board {hex:?} is not a board: {e}")))
            })
            .transpose()
    }
}

#[cfg(test)]
impl GameRecord {
    /// Game 0 of seed 0 for the tests: `score` and `max_tile` in `moves` moves over
    /// `seconds`, its longest move `max_ms`, not timed out, no nodes counted.
    pub(crate) fn fixture(
        score: u64,
        max_tile: u32,
        moves: u64,
        seconds: f64,
        max_ms: f64,
    ) -> Self {
        GameRecord {
            index: 0,
            seed: 0,
            score,
            max_tile,
            moves,
            seconds,
            timed_out: false,
            max_ms_per_move: max_ms,
            nodes: 0,
            table_answers: 0,
            table_moves: 0,
            searches: 0,
            depth_sum: 0,
            board: None,
        }
    }
}

impl GameRecord {
    /// Whether two records describe the same game with the same result, timings aside
    /// (the final boards too, where both records keep one).
    #[must_use]
    pub fn same_outcome(&self, other: &GameRecord) -> bool {
        self.index == other.index
            && self.seed == other.seed
            && self.score == other.score
            && self.max_tile == other.max_tile
            && self.moves == other.moves
            && self.timed_out == other.timed_out
            && (self.board.is_none() || other.board.is_none() || self.board == other.board)
    }
}
