//! Evaluation functions: how good a board looks, without searching, as data.
//!
//! Every evaluation has a name in [`EVALS`] and a flat vector of named weights; an
//! [`EvalConfig`] holds both, builds the [`Evaluator`], reads and writes the weights
//! file ([`EvalConfig::from_json`], [`EvalConfig::to_json`]), and lets an optimizer
//! tune any evaluation the same way ([`EvalConfig::params`],
//! [`EvalConfig::with_params`]). The players `greedy` and `expectimax` take the options
//! `eval=NAME`, `weights=FILE`, `symmetric=true` and `w.NAME=VALUE`, and
//! `blend=W` adds the built-in network's value to any of them ([`Blend`]).
//!
//! | name | what | weights |
//! |------|------|---------|
//! | `heuristic` | nneonneo's row-table heuristic ([`RowTable`]), expectimax's default | [`HeuristicWeights`] |
//! | `simple` | [`Simple`]: the snake matrix plus 64 per empty cell, greedy's default | none |
//! | `lines` | [`Lines`]: rows and columns descending from the top-left corner (macroxue's heuristic) | `lost`, `climb` |
//! | `corner`, `snake`, `diagonal` | [`MatrixEval`]: tile values × [`CORNER`], [`SNAKE`], [`DIAGONAL`], plus a bonus per empty cell | `m00`…`m33`, `empty` |
//! | `weighted` | [`Weighted`]: Σ weight × [`Feature`] | one per feature |
//! | `cobb-douglas` | [`CobbDouglas`]: Π heuristic^exponent, in [0, 1] | four exponents |
//! | `empty`, `smoothness`, `monotonicity`, `merges` | one [`Feature`] | its weight |
//!
//! Every evaluation is finite on every board, tiles of 65536 and 131072 included, and
//! all but `heuristic` are also non-negative: the searches score a lost board 0, below
//! every living one. (`heuristic` keeps nneonneo's weights, whose tile-sum penalty
//! outweighs the per-line base on lines of very large tiles, such as
//! `32768 16384 8192 4096`: a board of several such lines scores below 0.)
//!
//! ```
//! use ai2048_ai::eval::{create_eval, EVALS};
//! use ai2048_engine::Board;
//! let board: Board = "131072 2 0 0/0 0 0 0/0 0 0 0/0 0 0 4".parse()?;
//! for info in EVALS {
//!     let v = create_eval(info.name, None)?.eval(board);
//!     assert!(v.is_finite() && v >= 0.0, "{}: {v}", info.name);
//! }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use core::any::Any;
use std::sync::Arc;

use ai2048_engine::Board;

mod blend;
mod catalog;
pub mod cobb_douglas;
mod config;
mod error;
pub mod features;
pub mod file;
mod heuristic;
mod lines;
pub mod matrix;
mod simple;
mod weighted;

pub use blend::Blend;
pub use catalog::{
    create_eval, eval_info, EvalInfo, WeightInfo, DEFAULT_EVAL, EVALS, MATRIX_NAMES, MAX_WEIGHT,
};
pub use cobb_douglas::{CobbDouglas, Heuristics, COBB_DOUGLAS_EXPONENTS, FLOOR};
pub use config::EvalConfig;
pub use error::EvalError;
pub use features::Feature;
pub use heuristic::{capped_cells, distinct_tiles, HeuristicWeights, RowTable};
pub use lines::Lines;
#[cfg(test)]
pub(crate) use matrix::SYMMETRIES;
pub use matrix::{symmetries, MatrixEval, CORNER, DIAGONAL, SNAKE};
pub use simple::{Simple, SIMPLE_EMPTY_BONUS};
pub use weighted::Weighted;

/// Boards at the edges of the features' ranges, for the tests: empty, sixteen
/// 131072s, the two checkerboards of empty cells and 131072s, and sixteen distinct
/// tiles falling from 131072.
#[cfg(test)]
pub(crate) fn extreme_boards() -> [Board; 5] {
    let checkers = |odd: u8| {
        core::array::from_fn(|i| {
            if (i / 4 + i) % 2 == usize::from(odd) {
                0
            } else {
                17
            }
        })
    };
    [
        Board::EMPTY,
        Board::from_exponents([17; 16]).unwrap(),
        Board::from_exponents(checkers(0)).unwrap(),
        Board::from_exponents(checkers(1)).unwrap(),
        Board::from_exponents(core::array::from_fn(|i| 17 - i as u8)).unwrap(),
    ]
}

/// Scores a board: higher is better.
///
/// Searches call [`Evaluator::eval`] at their leaves. They may ask whether the
/// evaluation is of a type they know (`dyn Evaluator`'s `downcast_ref`), and then
/// call it directly, without a virtual call per leaf.
pub trait Evaluator: Any + Send + Sync {
    /// The value of `board`.
    fn eval(&self, board: Board) -> f64;

    /// The value of `board` when it is lost (no move is legal): below every living
    /// board the search could compare it with. 0 by default, for evaluations that are
    /// never negative; the row table, which can be, says otherwise. ([`Lines`] scores a
    /// lost board as macroxue's search does, above its most broken boards, on purpose.)
    fn lost(&self, _board: Board) -> f64 {
        0.0
    }

    /// A value below which a board met in a search from `root` is not worth searching
    /// on: a search that cuts (as `expectimax:cut=true`) takes such a board's value as
    /// it is. No bound by default (minus infinity); [`Lines`] sets one.
    fn cut_below(&self, _root: Board) -> f64 {
        f64::NEG_INFINITY
    }

    /// The evaluation a search from `root` uses in this one's place, `None` for this
    /// one: an evaluation that changes with the game's stage (a [`Blend`] that joins
    /// in only from a tile, [`Blend::joining_from`]) names the one for this root. It
    /// is decided once for the whole search, by the root and not by each leaf, so
    /// that the leaves of one search are valued on one scale (a test at each leaf
    /// would favour the leaves that make the tile). Expectimax asks at every move; the
    /// other players use the evaluation as it is.
    fn for_root(&self, _root: Board) -> Option<Arc<dyn Evaluator>> {
        None
    }
}

impl dyn Evaluator {
    /// This evaluation as a `T`, if it is one.
    ///
    /// ```
    /// use ai2048_ai::eval::{create_eval, RowTable, Simple};
    /// let eval = create_eval("heuristic", None)?;
    /// assert!(eval.downcast_ref::<RowTable>().is_some());
    /// assert!(eval.downcast_ref::<Simple>().is_none());
    /// # Ok::<(), ai2048_ai::eval::EvalError>(())
    /// ```
    #[must_use]
    pub fn downcast_ref<T: Evaluator>(&self) -> Option<&T> {
        (self as &dyn Any).downcast_ref()
    }
}
