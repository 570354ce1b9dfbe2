//! [`Objective`]: what a tuning run maximizes.

use core::fmt;
use core::str::FromStr;

use ai2048_bench::{BenchError, GameRecord};

/// What a tuning run maximizes: the mean over games of one number per game.
///
/// ```
/// use ai2048_tune::Objective;
/// assert_eq!("score".parse::<Objective>()?, Objective::Score);
/// assert_eq!("reach:16384".parse::<Objective>()?, Objective::Reach(16384));
/// assert_eq!(Objective::Reach(2048).to_string(), "reach:2048");
/// assert!("reach:3000".parse::<Objective>().is_err());
/// # Ok::<(), ai2048_bench::BenchError>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Objective {
    /// The score (`score`).
    #[default]
    Score,
    /// The base-2 logarithm of the largest tile (`max-tile-log`): 11 for 2048.
    MaxTileLog,
    /// 1 when the largest tile is at least this tile, else 0 (`reach:TILE`): the mean
    /// is the share of games reaching it.
    Reach(u32),
}

impl Objective {
    /// The objective's number for one game.
    ///
    /// ```
    /// use ai2048_bench::GameRecord;
    /// use ai2048_tune::Objective;
    /// let game = GameRecord { index: 0, seed: 0, score: 20000, max_tile: 2048, moves: 900,
    ///     seconds: 0.1, timed_out: false, max_ms_per_move: 0.5, nodes: 0,
    ///     table_answers: 0, table_moves: 0, searches: 0, depth_sum: 0, board: None };
    /// assert_eq!(Objective::Score.game_value(&game), 20000.0);
    /// assert_eq!(Objective::MaxTileLog.game_value(&game), 11.0);
    /// assert_eq!(Objective::Reach(2048).game_value(&game), 1.0);
    /// assert_eq!(Objective::Reach(4096).game_value(&game), 0.0);
    /// ```
    #[must_use]
    pub fn game_value(self, record: &GameRecord) -> f64 {
        match self {
            Objective::Score => record.score as f64,
            Objective::MaxTileLog => f64::from(record.max_tile.max(1)).log2(),
            Objective::Reach(tile) => f64::from(u8::from(record.max_tile >= tile)),
        }
    }

    /// The mean of [`Objective::game_value`] over `records`; NaN for none.
    #[must_use]
    pub fn fitness(self, records: &[GameRecord]) -> f64 {
        records.iter().map(|r| self.game_value(r)).sum::<f64>() / records.len() as f64
    }

    /// A fitness as text: a score to one decimal, a log tile to three, a share as a
    /// percentage.
    #[must_use]
    pub fn format(self, value: f64) -> String {
        match self {
            Objective::Score => format!("{value:.1}"),
            Objective::MaxTileLog => format!("{value:.3}"),
            Objective::Reach(_) => format!("{:.1}%", value * 100.0),
        }
    }

    /// What the objective measures, in a few words: "mean score".
    #[must_use]
    pub fn describe(self) -> String {
        match self {
            Objective::Score => "mean score".to_owned(),
            Objective::MaxTileLog => "mean log2 of the largest tile".to_owned(),
            Objective::Reach(tile) => format!("share of games reaching {tile}"),
        }
    }
}

impl fmt::Display for Objective {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Objective::Score => f.write_str("score"),
            Objective::MaxTileLog => f.write_str("max-tile-log"),
            Objective::Reach(tile) => write!(f, "reach:{tile}"),
        }
    }
}

impl FromStr for Objective {
    type Err = BenchError;

    fn from_str(s: &str) -> Result<Objective, BenchError> {
        let s = s.trim();
        match s {
            "score" => return Ok(Objective::Score),
            "max-tile-log" => return Ok(Objective::MaxTileLog),
            _ => {}
        }
        if let Some(tile) = s.strip_prefix("reach:") {
            return match tile.trim().parse::<u32>() {
                Ok(t) if t >= 4 && t.is_power_of_two() => Ok(Objective::Reach(t)),
                _ => Err(BenchError::Config(format!(
                    "bad objective {s:?}: the tile of reach:TILE is a power of two from 4, \
                     such as reach:16384"
                ))),
            };
        }
        Err(BenchError::Config(format!(
            "unknown objective {s:?}: expected score, max-tile-log or reach:TILE (such as \
             reach:16384)"
        )))
    }
}
