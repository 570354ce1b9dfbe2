//! The simple evaluation of the greedy player.

use ai2048_engine::Board;

use super::matrix::SNAKE;
use super::Evaluator;

/// A simple, classic evaluation: tiles weighted by the [`SNAKE`] pattern from the
/// top-left corner, plus 64 for every empty cell. It is the `snake` evaluation with an
/// `empty` weight of 64, and has no weights of its own.
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

/// The bonus of [`Simple`] per empty cell.
pub const SIMPLE_EMPTY_BONUS: f64 = 64.0;

impl Evaluator for Simple {
    fn eval(&self, board: Board) -> f64 {
        let placed: f64 = (0..16).map(|i| f64::from(board.tile(i)) * SNAKE[i]).sum();
        placed + SIMPLE_EMPTY_BONUS * f64::from(board.empty_count())
    }
}
