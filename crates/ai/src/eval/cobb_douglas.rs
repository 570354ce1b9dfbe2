//! The Cobb-Douglas utility of the React AI README: a product of normalized heuristics,
//! each in [0, 1], raised to exponents that weight them.
//!
//! `U = monotonicity^a · emptiness^b · mergeability^c · max_tile^d`
//!
//! A product acts as a soft minimum: no heuristic can be near zero without dragging the
//! whole utility down, while ordinary values are weighted by the exponents. Each
//! heuristic is floored at [`FLOOR`] before the product, so a zero (an empty board's
//! maximum tile, a full board's emptiness) cannot make the product 0 or, with a zero
//! exponent, undefined; `U` is then in `[FLOOR^(a+b+c+d), 1]`.

use ai2048_engine::{Board, MAX_EXPONENT};

use super::features::line_slopes;
use super::Evaluator;

/// The smallest value a heuristic takes in the product.
pub const FLOOR: f64 = 1e-3;

/// The four normalized heuristics of a board, each in [0, 1], higher is better.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Heuristics {
    /// `1 - Σ min(rise, fall) / Σ max(rise, fall)` over the rows and columns, on
    /// exponents: 1 when every line is monotone, 0 when every line rises as much as it
    /// falls (1 for a board without slopes).
    pub monotonicity: f64,
    /// `(empty cells + 1) / 17`: a full board is not lost yet.
    pub emptiness: f64,
    /// With `m` the largest exponent, every distinct smaller exponent `e` on the board
    /// costs `e` (the log2 of its tile, repeats not counted):
    /// `1 - cost / (1 + m(m-1)/2)`. 1 when all tiles are equal to the largest.
    pub mergeability: f64,
    /// The largest exponent over 17.
    pub max_tile: f64,
}

impl Heuristics {
    /// The heuristics of `board`.
    ///
    /// ```
    /// use ai2048_ai::eval::Heuristics;
    /// let h = Heuristics::of("8 4 2 0/0 0 0 0/0 0 0 0/0 0 0 0".parse()?);
    /// assert_eq!(h.monotonicity, 1.0);
    /// assert_eq!(h.emptiness, 14.0 / 17.0);
    /// assert_eq!(h.mergeability, 1.0 - 3.0 / 4.0);
    /// assert_eq!(h.max_tile, 3.0 / 17.0);
    /// # Ok::<(), ai2048_engine::ParseBoardError>(())
    /// ```
    #[must_use]
    pub fn of(board: Board) -> Heuristics {
        let exps = board.exponents();
        let (lo, hi) = line_slopes(&exps);
        let monotonicity = if hi > 0.0 { 1.0 - lo / hi } else { 1.0 };
        let empty = exps.iter().filter(|&&e| e == 0).count() as f64;
        let max = exps.iter().copied().max().unwrap_or(0);
        let mut seen = 0u32;
        for e in exps {
            seen |= 1 << e;
        }
        let cost: u32 = (1..max)
            .filter(|e| seen & (1 << e) != 0)
            .map(u32::from)
            .sum();
        let m = f64::from(max);
        Heuristics {
            monotonicity,
            emptiness: (empty + 1.0) / 17.0,
            mergeability: 1.0 - f64::from(cost) / (1.0 + m * (m - 1.0) / 2.0),
            max_tile: m / f64::from(MAX_EXPONENT),
        }
    }

    /// The heuristics in the order of the exponents.
    #[must_use]
    pub fn to_array(self) -> [f64; 4] {
        [
            self.monotonicity,
            self.emptiness,
            self.mergeability,
            self.max_tile,
        ]
    }
}

/// The Cobb-Douglas evaluation (see the [module](crate::eval::cobb_douglas)): its value is in [0, 1].
///
/// ```
/// use ai2048_ai::eval::{CobbDouglas, Evaluator};
/// use ai2048_engine::Board;
/// let eval = CobbDouglas::default();
/// let good: Board = "64 32 16 8/0 0 0 4/0 0 0 0/0 0 0 0".parse()?;
/// let bad: Board = "8 64 4 32/16 2 16 2/4 32 8 64/2 16 4 8".parse()?;
/// assert!(eval.eval(good) > eval.eval(bad));
/// assert!(eval.eval(good) <= 1.0 && eval.eval(bad) > 0.0);
/// # Ok::<(), ai2048_engine::ParseBoardError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CobbDouglas {
    /// The exponents of monotonicity, emptiness, mergeability and maximum tile, in
    /// that order. Negative exponents are treated as 0.
    pub exponents: [f64; 4],
}

/// The default exponents of monotonicity, emptiness, mergeability and maximum tile,
/// set by hand from a few hundred games at expectimax depth 1: monotonicity first, as
/// in the README; mergeability, as the README defines it, plays best kept weak.
pub const COBB_DOUGLAS_EXPONENTS: [f64; 4] = [6.0, 1.5, 0.25, 0.5];

impl Default for CobbDouglas {
    fn default() -> CobbDouglas {
        CobbDouglas {
            exponents: COBB_DOUGLAS_EXPONENTS,
        }
    }
}

impl Evaluator for CobbDouglas {
    fn eval(&self, board: Board) -> f64 {
        let h = Heuristics::of(board).to_array();
        h.iter()
            .zip(&self.exponents)
            .map(|(&h, &a)| h.max(FLOOR).powf(a.max(0.0)))
            .product()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn heuristics_stay_in_the_unit_interval() {
        let boards = crate::eval::extreme_boards();
        for b in boards {
            for h in Heuristics::of(b).to_array() {
                assert!((0.0..=1.0).contains(&h), "{h} on {b:?}");
            }
            let u = CobbDouglas::default().eval(b);
            assert!(u > 0.0 && u <= 1.0, "{u}");
        }
        let all_distinct = Heuristics::of(boards[4]);
        assert!(all_distinct.mergeability < 0.02);
        assert_eq!(all_distinct.max_tile, 1.0);
    }

    #[test]
    fn huge_exponents_do_not_overflow() {
        let eval = CobbDouglas {
            exponents: [1e9, -3.0, 0.0, 1e300],
        };
        let v = eval.eval(Board::EMPTY);
        assert!(v.is_finite() && v >= 0.0);
    }
}
