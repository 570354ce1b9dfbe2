//! Weight matrices: a board is worth the sum of its tile values, each weighted by the
//! weight of its cell, as the DTU report's "table of importance" and the ZHAW blog's
//! corner bonus compute it:
//!
//! `value = Σ_i tile_value(i) · W[i] + empty · empty_cells`
//!
//! Tile values, not exponents: as in both documents, a tile twice as large is worth
//! twice as much, so the largest tile dominates and the evaluation pulls it hardest
//! toward the heavy cells. The three matrices of the seeds, [`CORNER`], [`SNAKE`] and
//! [`DIAGONAL`], all put the heaviest weight on the top-left cell; a [`MatrixEval`]
//! made with `symmetric` takes instead the best of the board's eight symmetries, so any
//! corner will do.
//!
//! ```
//! use ai2048_ai::eval::{Evaluator, MatrixEval, SNAKE};
//! use ai2048_engine::Board;
//! let snake = MatrixEval::new(SNAKE, 0.0, false);
//! let left: Board = "1024 512 0 0/0 0 0 0/0 0 0 0/0 0 0 0".parse()?;
//! let right: Board = "0 0 512 1024/0 0 0 0/0 0 0 0/0 0 0 0".parse()?;
//! assert_eq!(snake.eval(left), 1024.0 + 512.0 / 2.0);
//! assert!(snake.eval(left) > snake.eval(right));
//! // With symmetry, the mirrored board is as good.
//! let any = MatrixEval::new(SNAKE, 0.0, true);
//! assert_eq!(any.eval(left), any.eval(right));
//! # Ok::<(), ai2048_engine::ParseBoardError>(())
//! ```

use ai2048_engine::{Board, MAX_TILE};

use super::Evaluator;

/// Builds a matrix from a function of (row, column).
macro_rules! matrix_from {
    (|$r:ident, $c:ident| $body:expr) => {{
        let mut w = [0.0f64; 16];
        let mut i = 0;
        while i < 16 {
            let ($r, $c) = (i / 4, i % 4);
            w[i] = $body;
            i += 1;
        }
        w
    }};
}

/// `base` to the power `n`, at compile time.
const fn powi(base: f64, n: usize) -> f64 {
    let mut x = 1.0;
    let mut i = 0;
    while i < n {
        x *= base;
        i += 1;
    }
    x
}

/// The ZHAW blog's corner bonus: the top-left cell weighs 1, and weights halve with
/// every step to the right and quarter with every step down, so the top row is filled
/// first and the largest tile sits in the corner:
///
/// ```text
/// 1       1/2     1/4     1/8
/// 1/4     1/8     1/16    1/32
/// 1/16    1/32    1/64    1/128
/// 1/64    1/128   1/256   1/512
/// ```
pub const CORNER: [f64; 16] = matrix_from!(|r, c| powi(0.25, r) * powi(0.5, c));

/// The DTU report's snake: the top row from left to right, the second from right to
/// left, and so on, each cell along the path weighing half the one before:
///
/// ```text
/// 1        1/2      1/4      1/8
/// 1/128    1/64     1/32     1/16
/// 1/256    1/512    1/1024   1/2048
/// 1/32768  1/16384  1/8192   1/4096
/// ```
pub const SNAKE: [f64; 16] = {
    let order = [0, 1, 2, 3, 7, 6, 5, 4, 8, 9, 10, 11, 15, 14, 13, 12];
    let mut w = [0.0; 16];
    let mut k = 0;
    while k < 16 {
        w[order[k]] = powi(0.5, k);
        k += 1;
    }
    w
};

/// The DTU report's diagonal: the top-left cell weighs 1, and each anti-diagonal
/// weighs half the one before, equal along it:
///
/// ```text
/// 1     1/2   1/4   1/8
/// 1/2   1/4   1/8   1/16
/// 1/4   1/8   1/16  1/32
/// 1/8   1/16  1/32  1/64
/// ```
pub const DIAGONAL: [f64; 16] = matrix_from!(|r, c| powi(0.5, r + c));

/// A symmetry of the square, as a map from a cell (row, column) to its image.
type Symmetry = fn(usize, usize) -> (usize, usize);

/// The eight symmetries of the square.
pub(crate) const SYMMETRIES: [Symmetry; 8] = [
    |r, c| (r, c),
    |r, c| (r, 3 - c),
    |r, c| (3 - r, c),
    |r, c| (3 - r, 3 - c),
    |r, c| (c, r),
    |r, c| (c, 3 - r),
    |r, c| (3 - c, r),
    |r, c| (3 - c, 3 - r),
];

/// The eight symmetric images of `w` (with repeats removed): `W_s[i] = W[s(i)]`.
#[must_use]
pub fn symmetries(w: &[f64; 16]) -> Vec<[f64; 16]> {
    let mut out: Vec<[f64; 16]> = Vec::with_capacity(8);
    for s in SYMMETRIES {
        let image = matrix_from!(|r, c| {
            let (r2, c2) = s(r, c);
            w[4 * r2 + c2]
        });
        if !out.contains(&image) {
            out.push(image);
        }
    }
    out
}

/// Tile values by exponent, as floats.
const TILE_VALUES: [f64; 18] = {
    let mut t = [0.0; 18];
    let mut e = 1;
    while e < 18 {
        t[e] = powi(2.0, e);
        e += 1;
    }
    t
};

/// A weight-matrix evaluation: the sum of the tile values weighted by a matrix, plus a
/// bonus per empty cell (see the [module](crate::eval::matrix)).
///
/// The value is shifted by a constant so that it is never negative on any board, even
/// with negative weights: the searches score a lost board 0, below every living one.
#[derive(Clone, Debug, PartialEq)]
pub struct MatrixEval {
    weights: [f64; 16],
    empty: f64,
    symmetric: bool,
    /// The matrices to try: the weights, or their distinct symmetric images.
    images: Vec<[f64; 16]>,
    offset: f64,
}

impl MatrixEval {
    /// An evaluation with `weights` (cells in reading order, top-left first), `empty`
    /// per empty cell, and, if `symmetric`, the best value over the eight symmetries
    /// of the board.
    ///
    /// Weights should be finite; the evaluation stays finite for weights up to 1e300
    /// in size.
    #[must_use]
    pub fn new(weights: [f64; 16], empty: f64, symmetric: bool) -> MatrixEval {
        let images = if symmetric {
            symmetries(&weights)
        } else {
            vec![weights]
        };
        let low: f64 = weights.iter().map(|&w| w.min(0.0)).sum::<f64>() * f64::from(MAX_TILE)
            + 16.0 * empty.min(0.0);
        MatrixEval {
            weights,
            empty,
            symmetric,
            images,
            offset: -low,
        }
    }

    /// The weights, in reading order.
    #[must_use]
    pub fn weights(&self) -> &[f64; 16] {
        &self.weights
    }

    /// The bonus per empty cell.
    #[must_use]
    pub fn empty_weight(&self) -> f64 {
        self.empty
    }

    /// Whether the evaluation takes the best of the board's symmetries.
    #[must_use]
    pub fn is_symmetric(&self) -> bool {
        self.symmetric
    }
}

impl Evaluator for MatrixEval {
    fn eval(&self, board: Board) -> f64 {
        let exps = board.exponents();
        let mut values = [0.0f64; 16];
        for (v, &e) in values.iter_mut().zip(&exps) {
            *v = TILE_VALUES[usize::from(e)];
        }
        let placed = self
            .images
            .iter()
            .map(|w| values.iter().zip(w).map(|(v, w)| v * w).sum::<f64>())
            .fold(f64::NEG_INFINITY, f64::max);
        placed + self.empty * f64::from(board.empty_count()) + self.offset
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matrices_peak_at_the_top_left() {
        for m in [CORNER, SNAKE, DIAGONAL] {
            assert_eq!(m[0], 1.0);
            assert!(m[1..].iter().all(|&w| 0.0 < w && w < 1.0));
        }
        assert_eq!(SNAKE[4], 1.0 / 128.0);
        assert_eq!(SNAKE[12], 1.0 / 32768.0);
        assert_eq!(DIAGONAL[3], DIAGONAL[12]);
        assert_eq!(DIAGONAL[6], DIAGONAL[9]);
        assert_eq!(CORNER[4], 0.25);
        assert_eq!(TILE_VALUES[17], 131072.0);
    }

    #[test]
    fn symmetries_are_distinct_images() {
        assert_eq!(symmetries(&SNAKE).len(), 8);
        // The diagonal is its own transpose.
        assert_eq!(symmetries(&DIAGONAL).len(), 4);
        assert_eq!(symmetries(&[1.0; 16]).len(), 1);
        for image in symmetries(&CORNER) {
            let mut sorted = image;
            sorted.sort_by(f64::total_cmp);
            let mut expected = CORNER;
            expected.sort_by(f64::total_cmp);
            assert_eq!(sorted, expected);
        }
    }

    #[test]
    fn negative_weights_stay_non_negative() {
        let eval = MatrixEval::new([-1.0; 16], -5.0, true);
        for b in [Board::EMPTY, Board::from_exponents([17; 16]).unwrap()] {
            let v = eval.eval(b);
            assert!(v.is_finite() && v >= 0.0, "{v}");
        }
    }
}
