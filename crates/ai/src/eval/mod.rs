//! Evaluation functions: how good a board looks, without searching.

use ai2048_engine::Board;

mod heuristic;

pub use heuristic::{capped_cells, distinct_tiles, HeuristicWeights, RowTable};

/// Scores a board: higher is better.
///
/// Searches call [`Evaluator::eval`] at their leaves. An evaluation that is a
/// [`RowTable`] says so through [`Evaluator::row_table`], and searches then use the
/// table directly, without a virtual call per leaf.
pub trait Evaluator: Send + Sync {
    /// The value of `board`.
    fn eval(&self, board: Board) -> f64;

    /// This evaluation as a row table, if it is one.
    fn row_table(&self) -> Option<&RowTable> {
        None
    }
}

/// A simple, classic evaluation: tiles weighted by a snake pattern from the top-left
/// corner, plus a bonus for every empty cell.
///
/// ```
/// use ai2048_ai::eval::{Evaluator, Simple};
/// use ai2048_engine::Board;
/// let corner: Board = "1024 0 0 0/0 0 0 0/0 0 0 0/0 0 0 0".parse()?;
/// let middle: Board = "0 0 0 0/0 1024 0 0/0 0 0 0/0 0 0 0".parse()?;
/// assert!(Simple.eval(corner) > Simple.eval(middle));
/// # Ok::<(), ai2048_engine::ParseBoardError>(())
/// ```
#[derive(Clone, Copy, Debug, Default)]
pub struct Simple;

/// The snake weights: the top row from left to right, the second from right to left,
/// and so on, each cell worth a quarter of the one before.
const SNAKE: [f64; 16] = {
    let order = [0, 1, 2, 3, 7, 6, 5, 4, 8, 9, 10, 11, 15, 14, 13, 12];
    let mut w = [0.0; 16];
    let mut i = 0;
    let mut weight = 1.0;
    while i < 16 {
        w[order[i]] = weight;
        weight /= 2.0;
        i += 1;
    }
    w
};

impl Evaluator for Simple {
    fn eval(&self, board: Board) -> f64 {
        let placed: f64 = (0..16).map(|i| f64::from(board.tile(i)) * SNAKE[i]).sum();
        placed + 64.0 * f64::from(board.empty_count())
    }
}
