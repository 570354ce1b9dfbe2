//! Features: numbers that describe a board, each a function of its sixteen exponents.
//!
//! Every feature is computed on exponents (0 for an empty cell, 1 for a 2, 11 for a
//! 2048, 17 for a 131072), not on tile values, so that a 131072 tile weighs 17 and not
//! 131072: a weighted sum of features then stays on one scale from the first move to
//! the last. Every feature is oriented so that **higher is better**, except
//! [`Feature::Sum`], a raw quantity that weights usually penalize, and every feature lies
//! in the closed range [`Feature::range`] on every board.
//!
//! ```
//! use ai2048_ai::eval::{Feature, features};
//! use ai2048_engine::Board;
//! let board: Board = "2 2 4 8/0 0 0 0/0 0 0 0/0 0 0 0".parse()?;
//! assert_eq!(features::empty(board), 12.0);
//! assert_eq!(features::merges(board), 1.0);
//! assert_eq!(Feature::Max.of(board), 3.0);
//! # Ok::<(), ai2048_engine::ParseBoardError>(())
//! ```

use core::fmt;

use ai2048_engine::{Board, MAX_EXPONENT};

/// The eight lines of the board: four rows left to right, then four columns top to
/// bottom, as cell indices.
pub(crate) const LINES: [[usize; 4]; 8] = [
    [0, 1, 2, 3],
    [4, 5, 6, 7],
    [8, 9, 10, 11],
    [12, 13, 14, 15],
    [0, 4, 8, 12],
    [1, 5, 9, 13],
    [2, 6, 10, 14],
    [3, 7, 11, 15],
];

/// The power of [`Feature::Sum`]: Σ e^3.5, as in nneonneo's heuristic.
pub const SUM_POWER: f64 = 3.5;

/// The largest exponent, as a float.
const EMAX: f64 = MAX_EXPONENT as f64;

/// A feature of a board, by name. [`Feature::of`] computes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Feature {
    /// The number of empty cells, 0 to 16.
    Empty,
    /// Minus the sum of `|e_a - e_b|` over the 24 pairs of neighbouring cells (as the
    /// ZHAW blog computes it, but on exponents, empty cells counting 0): 0 for a
    /// perfectly smooth board, down to -408.
    Smoothness,
    /// Minus the non-monotonicity of the rows and columns: for every line, the smaller
    /// of its total rise and its total fall along the line, in exponents (empty cells
    /// count 0). 0 when every line is monotone, down to -136.
    Monotonicity,
    /// The number of pairs of neighbouring cells that hold equal tiles, 0 to 24.
    Merges,
    /// The sum of the tile powers `Σ e^3.5` over the tiles ([`SUM_POWER`]), as in
    /// nneonneo's heuristic; 0 to 16·17^3.5. Usually weighted negatively: a board that
    /// holds the same total in fewer, merged tiles scores better.
    Sum,
    /// The largest exponent on the board, 0 to 17.
    Max,
}

impl Feature {
    /// Every feature, in the order of the `weighted` evaluation's weights.
    pub const ALL: [Feature; 6] = [
        Feature::Empty,
        Feature::Smoothness,
        Feature::Monotonicity,
        Feature::Merges,
        Feature::Sum,
        Feature::Max,
    ];

    /// The feature's name, as weights files and player options write it.
    ///
    /// ```
    /// use ai2048_ai::eval::Feature;
    /// assert_eq!(Feature::Monotonicity.name(), "monotonicity");
    /// assert_eq!(Feature::from_name("monotonicity"), Some(Feature::Monotonicity));
    /// ```
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Feature::Empty => "empty",
            Feature::Smoothness => "smoothness",
            Feature::Monotonicity => "monotonicity",
            Feature::Merges => "merges",
            Feature::Sum => "sum",
            Feature::Max => "max",
        }
    }

    /// The feature called `name`, if any.
    #[must_use]
    pub fn from_name(name: &str) -> Option<Feature> {
        Feature::ALL.into_iter().find(|f| f.name() == name)
    }

    /// The smallest and the largest value the feature takes over all boards.
    #[must_use]
    pub fn range(self) -> (f64, f64) {
        match self {
            Feature::Empty => (0.0, 16.0),
            Feature::Smoothness => (-24.0 * EMAX, 0.0),
            Feature::Monotonicity => (-8.0 * EMAX, 0.0),
            Feature::Merges => (0.0, 24.0),
            Feature::Sum => (0.0, Feature::Sum.of_exponents(&[MAX_EXPONENT; 16])),
            Feature::Max => (0.0, EMAX),
        }
    }

    /// The feature of `board`.
    #[must_use]
    pub fn of(self, board: Board) -> f64 {
        self.of_exponents(&board.exponents())
    }

    /// The feature of a board given as its sixteen exponents in reading order
    /// ([`Board::exponents`]), for evaluations that compute several features at once.
    #[must_use]
    pub fn of_exponents(self, exps: &[u8; 16]) -> f64 {
        match self {
            Feature::Empty => exps.iter().filter(|&&e| e == 0).count() as f64,
            Feature::Smoothness => -roughness(exps),
            Feature::Monotonicity => -line_slopes(exps).0,
            Feature::Merges => equal_neighbours(exps) as f64,
            Feature::Sum => exps.iter().map(|&e| power_sum_term(e)).sum(),
            Feature::Max => f64::from(exps.iter().copied().max().unwrap_or(0)),
        }
    }
}

impl fmt::Display for Feature {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// `e^3.5` ([`SUM_POWER`]) without a call to `powf`.
#[inline]
fn power_sum_term(e: u8) -> f64 {
    let e = f64::from(e);
    e * e * e * e.sqrt()
}

/// The sum of `|e_a - e_b|` over the 24 pairs of neighbouring cells.
pub(crate) fn roughness(exps: &[u8; 16]) -> f64 {
    let mut sum = 0u32;
    for line in &LINES {
        for pair in line.windows(2) {
            sum += u32::from(exps[pair[0]].abs_diff(exps[pair[1]]));
        }
    }
    f64::from(sum)
}

/// The number of neighbouring pairs holding equal tiles.
pub(crate) fn equal_neighbours(exps: &[u8; 16]) -> u32 {
    let mut count = 0;
    for line in &LINES {
        for pair in line.windows(2) {
            let (a, b) = (exps[pair[0]], exps[pair[1]]);
            if a != 0 && a == b {
                count += 1;
            }
        }
    }
    count
}

/// Over the eight lines, the sums of `min(rise, fall)` and of `max(rise, fall)`, where
/// a line's rise and fall are the totals of its upward and downward steps.
pub(crate) fn line_slopes(exps: &[u8; 16]) -> (f64, f64) {
    let (mut lo, mut hi) = (0u32, 0u32);
    for line in &LINES {
        let (mut rise, mut fall) = (0u32, 0u32);
        for pair in line.windows(2) {
            let (a, b) = (exps[pair[0]], exps[pair[1]]);
            if b > a {
                rise += u32::from(b - a);
            } else {
                fall += u32::from(a - b);
            }
        }
        lo += rise.min(fall);
        hi += rise.max(fall);
    }
    (f64::from(lo), f64::from(hi))
}

/// [`Feature::Empty`] of `board`: its number of empty cells.
#[must_use]
pub fn empty(board: Board) -> f64 {
    f64::from(board.empty_count())
}

/// [`Feature::Smoothness`] of `board`: minus the sum of the differences of
/// neighbouring exponents.
///
/// ```
/// use ai2048_ai::eval::features::smoothness;
/// let smooth = "4 4 4 4/4 4 4 4/4 4 4 4/4 4 4 4".parse()?;
/// let rough = "4 64 4 64/64 4 64 4/4 64 4 64/64 4 64 4".parse()?;
/// assert_eq!(smoothness(smooth), 0.0);
/// assert_eq!(smoothness(rough), -24.0 * 4.0);
/// # Ok::<(), ai2048_engine::ParseBoardError>(())
/// ```
#[must_use]
pub fn smoothness(board: Board) -> f64 {
    Feature::Smoothness.of(board)
}

/// [`Feature::Monotonicity`] of `board`: 0 when every row and column is monotone,
/// negative otherwise.
///
/// ```
/// use ai2048_ai::eval::features::monotonicity;
/// let monotone = "1024 512 256 128/512 256 128 64/0 0 0 0/0 0 0 0".parse()?;
/// let jumbled = "128 1024 64 512/0 256 0 0/0 0 0 0/0 0 0 0".parse()?;
/// assert_eq!(monotonicity(monotone), 0.0);
/// assert!(monotonicity(jumbled) < 0.0);
/// # Ok::<(), ai2048_engine::ParseBoardError>(())
/// ```
#[must_use]
pub fn monotonicity(board: Board) -> f64 {
    Feature::Monotonicity.of(board)
}

/// [`Feature::Merges`] of `board`: the neighbouring pairs of equal tiles.
#[must_use]
pub fn merges(board: Board) -> f64 {
    Feature::Merges.of(board)
}

/// [`Feature::Sum`] of `board`: `Σ e^3.5` over its tiles.
#[must_use]
pub fn tile_power_sum(board: Board) -> f64 {
    Feature::Sum.of(board)
}

/// [`Feature::Max`] of `board`: its largest exponent.
#[must_use]
pub fn max_exponent(board: Board) -> f64 {
    f64::from(board.max_exponent())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(text: &str) -> Board {
        text.parse().expect("board")
    }

    #[test]
    fn ranges_hold_on_extreme_boards() {
        let boards = crate::eval::extreme_boards();
        for b in boards {
            for f in Feature::ALL {
                let (lo, hi) = f.range();
                let v = f.of(b);
                assert!(v.is_finite() && lo <= v && v <= hi, "{f} {v} on {b:?}");
            }
        }
        // The checkerboard of 0 and 17 reaches both extremes.
        assert_eq!(smoothness(boards[2]), -408.0);
        assert_eq!(monotonicity(boards[2]), -136.0);
        assert_eq!(tile_power_sum(boards[1]), Feature::Sum.range().1);
    }

    #[test]
    fn board_functions_agree_with_features() {
        let b = board("2 2 4 8/16 0 0 2/0 4 4 0/131072 0 0 2");
        assert_eq!(empty(b), Feature::Empty.of(b));
        assert_eq!(max_exponent(b), 17.0);
        assert_eq!(merges(b), 2.0);
        assert_eq!(tile_power_sum(b), Feature::Sum.of(b));
    }

    #[test]
    fn names_round_trip() {
        for f in Feature::ALL {
            assert_eq!(Feature::from_name(f.name()), Some(f));
        }
        assert_eq!(Feature::from_name("nope"), None);
    }
}
