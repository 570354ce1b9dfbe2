//! The row-table heuristic: a weighted sum of per-row features, precomputed for all
//! 65536 rows, so a board is evaluated with eight table lookups.

use std::sync::{Arc, OnceLock};

use ai2048_engine::Board;

use super::Evaluator;

/// The weights of the row-table heuristic. Each row and each column of the board is
/// scored as
///
/// `base + empty * empty_cells + merges * mergeable_pairs - mono * nonmonotonicity
/// - sum * Σ exponent^sum_power`
///
/// where nonmonotonicity is the smaller of the two directions' sums of
/// `|e_i^mono_power - e_{i+1}^mono_power|` over steps against the direction.
/// [`HeuristicWeights::default`] holds the weights tuned by nneonneo/2048-ai.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HeuristicWeights {
    /// A constant added per line, so that living boards score above lost ones (0).
    pub base: f64,
    /// Weight of the empty cells of a line.
    pub empty: f64,
    /// Weight of the equal neighbours (ignoring gaps) of a line.
    pub merges: f64,
    /// Weight of the nonmonotonicity penalty.
    pub mono: f64,
    /// Power applied to exponents in the nonmonotonicity penalty.
    pub mono_power: f64,
    /// Weight of the penalty on the sum of powered exponents.
    pub sum: f64,
    /// Power applied to exponents in the sum penalty.
    pub sum_power: f64,
}

impl Default for HeuristicWeights {
    fn default() -> HeuristicWeights {
        HeuristicWeights::TUNED
    }
}

impl HeuristicWeights {
    /// The weights tuned by nneonneo/2048-ai, which [`HeuristicWeights::default`]
    /// returns.
    pub const TUNED: HeuristicWeights = HeuristicWeights {
        base: 200_000.0,
        empty: 270.0,
        merges: 700.0,
        mono: 47.0,
        mono_power: 4.0,
        sum: 11.0,
        sum_power: 3.5,
    };

    /// The names of the weights, as weights files write them, in the order of
    /// [`HeuristicWeights::to_array`].
    pub const NAMES: [&'static str; 7] = [
        "base",
        "empty",
        "merges",
        "mono",
        "mono_power",
        "sum",
        "sum_power",
    ];

    /// The weights as an array, in the order of [`HeuristicWeights::NAMES`].
    ///
    /// ```
    /// use ai2048_ai::eval::HeuristicWeights;
    /// let w = HeuristicWeights::default();
    /// assert_eq!(w.to_array()[1], w.empty);
    /// assert_eq!(HeuristicWeights::from_array(w.to_array()), w);
    /// ```
    #[must_use]
    pub const fn to_array(&self) -> [f64; 7] {
        [
            self.base,
            self.empty,
            self.merges,
            self.mono,
            self.mono_power,
            self.sum,
            self.sum_power,
        ]
    }

    /// The weights from an array in the order of [`HeuristicWeights::NAMES`].
    #[must_use]
    pub const fn from_array(values: [f64; 7]) -> HeuristicWeights {
        let [base, empty, merges, mono, mono_power, sum, sum_power] = values;
        HeuristicWeights {
            base,
            empty,
            merges,
            mono,
            mono_power,
            sum,
            sum_power,
        }
    }

    /// The score of one line of four exponents (0 = empty).
    ///
    /// ```
    /// use ai2048_ai::eval::HeuristicWeights;
    /// let w = HeuristicWeights::default();
    /// // A monotone line with a merge scores above a jumbled one.
    /// assert!(w.line_score([4, 3, 3, 1]) > w.line_score([3, 1, 4, 3]));
    /// ```
    #[must_use]
    pub fn line_score(&self, line: [u8; 4]) -> f64 {
        let mut sum = 0.0;
        let mut empty = 0u32;
        let mut merges = 0u32;
        let mut prev = 0u8;
        let mut counter = 0u32;
        for &e in &line {
            sum += f64::from(e).powf(self.sum_power);
            if e == 0 {
                empty += 1;
            } else {
                if prev == e {
                    counter += 1;
                } else if counter > 0 {
                    merges += 1 + counter;
                    counter = 0;
                }
                prev = e;
            }
        }
        if counter > 0 {
            merges += 1 + counter;
        }
        let (mut left, mut right) = (0.0, 0.0);
        for i in 0..3 {
            let a = f64::from(line[i]).powf(self.mono_power);
            let b = f64::from(line[i + 1]).powf(self.mono_power);
            if line[i] > line[i + 1] {
                left += a - b;
            } else {
                right += b - a;
            }
        }
        self.base + self.empty * f64::from(empty) + self.merges * f64::from(merges)
            - self.mono * left.min(right)
            - self.sum * sum
    }
}

/// The heuristic of [`HeuristicWeights`], precomputed for every row.
///
/// ```
/// use ai2048_ai::eval::{Evaluator, RowTable};
/// use ai2048_engine::Board;
/// let table = RowTable::standard();
/// let good: Board = "1024 512 256 128/0 0 0 64/0 0 0 0/0 0 0 0".parse()?;
/// let bad: Board = "64 1024 0 0/0 512 0 0/128 0 256 0/0 0 0 0".parse()?;
/// assert!(table.eval(good) > table.eval(bad));
/// # Ok::<(), ai2048_engine::ParseBoardError>(())
/// ```
pub struct RowTable {
    rows: Box<[f32; 1 << 16]>,
    /// What a living board gets over a lost one: `base` for each of the 8 lines.
    living_bonus: f32,
}

impl RowTable {
    /// Builds the table for `weights` (65536 line scores; a few milliseconds).
    #[must_use]
    pub fn new(weights: &HeuristicWeights) -> RowTable {
        let mut rows: Box<[f32; 1 << 16]> = vec![0.0f32; 1 << 16]
            .into_boxed_slice()
            .try_into()
            .expect("65536 entries");
        for (r, v) in rows.iter_mut().enumerate() {
            let line = [
                (r >> 12) as u8 & 0xF,
                (r >> 8) as u8 & 0xF,
                (r >> 4) as u8 & 0xF,
                r as u8 & 0xF,
            ];
            *v = weights.line_score(line) as f32;
        }
        RowTable {
            rows,
            living_bonus: (8.0 * weights.base) as f32,
        }
    }

    /// The table for the default weights, built once and shared.
    #[must_use]
    pub fn standard() -> Arc<RowTable> {
        static TABLE: OnceLock<Arc<RowTable>> = OnceLock::new();
        TABLE
            .get_or_init(|| Arc::new(RowTable::new(&HeuristicWeights::default())))
            .clone()
    }

    /// The heuristic of a board given as 4-bit cells (tiles above 32768 count as 32768).
    #[inline]
    #[must_use]
    pub fn eval_cells(&self, c: u64) -> f32 {
        let t = Board::from_u64(c).transpose().low_bits();
        let r = &self.rows;
        r[(c >> 48) as u16 as usize]
            + r[(c >> 32) as u16 as usize]
            + r[(c >> 16) as u16 as usize]
            + r[c as u16 as usize]
            + r[(t >> 48) as u16 as usize]
            + r[(t >> 32) as u16 as usize]
            + r[(t >> 16) as u16 as usize]
            + r[t as u16 as usize]
    }

    /// The value of a lost board: its heuristic without the living bonus (`base` for
    /// each of the 8 lines), so losing costs the same however large the tiles. (Scoring
    /// lost boards 0, as nneonneo/2048-ai does, ranks them above living boards whose
    /// heuristic is negative, which lines of large tiles make common.)
    ///
    /// ```
    /// use ai2048_ai::eval::{Evaluator, RowTable};
    /// use ai2048_engine::Board;
    /// let table = RowTable::standard();
    /// let lost: Board = "32768 2 16384 2/2 4 2 4/4 2 4 2/2 4 2 4".parse()?;
    /// let alive: Board = "32768 2 16384 2/0 0 0 0/0 0 0 0/0 0 0 0".parse()?;
    /// assert!(lost.is_over() && !alive.is_over());
    /// assert!(table.eval(alive) < 0.0, "an unsorted line of large tiles scores below 0");
    /// assert!(table.lost(lost) < table.eval(alive));
    /// # Ok::<(), ai2048_engine::ParseBoardError>(())
    /// ```
    #[inline]
    #[must_use]
    pub fn lost_board(&self, board: Board) -> f32 {
        self.eval_board(board) - self.living_bonus
    }

    /// The heuristic of a board (tiles above 32768 count as 32768).
    #[inline]
    #[must_use]
    pub fn eval_board(&self, board: Board) -> f32 {
        self.eval_cells(capped_cells(board))
    }
}

/// The 4-bit cells of a board, with tiles of 65536 and up written as 15 (32768).
#[inline]
#[must_use]
pub fn capped_cells(board: Board) -> u64 {
    let high = board.high_bits();
    if high == 0 {
        board.low_bits()
    } else {
        let mut spread = 0u64;
        for i in 0..16 {
            if high & (0x8000 >> i) != 0 {
                spread |= 0xF << (60 - 4 * i);
            }
        }
        board.low_bits() | spread
    }
}

impl Evaluator for RowTable {
    fn eval(&self, board: Board) -> f64 {
        f64::from(self.eval_board(board))
    }

    fn lost(&self, board: Board) -> f64 {
        f64::from(self.lost_board(board))
    }
}

/// The number of distinct tile values on the board, which nneonneo's search uses to
/// pick its depth.
#[must_use]
pub fn distinct_tiles(board: Board) -> u32 {
    let mut seen = 0u32;
    for e in board.exponents() {
        seen |= 1 << e;
    }
    (seen >> 1).count_ones()
}
