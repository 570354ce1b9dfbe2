//! Endgame tables where a search ends: an evaluation that adds to a board's value,
//! where a table answers for it, a bonus in proportion to the table's success
//! probability, so that a search steers towards the formations the tables solve.
//!
//! A table's number is a probability, an evaluation's a score; the bonus puts the one
//! on the other's scale through the board's largest tile, which the scores of every
//! evaluation here grow with (a network's expected score as the tiles' sum, the
//! lines' as each tile's value times its exponent). It is added only where a table
//! answers: a board that no table answers gets none, so the weight also says how
//! much a search prefers a board the tables answer to one they do not.

use std::sync::Arc;

use ai2048_engine::Board;

use super::EndgameTables;
use crate::eval::Evaluator;

/// An evaluation with endgame tables at its leaves: `inner`'s value, plus `weight`
/// times the tables' success probability ([`EndgameTables::leaf_value`]) times the
/// board's largest tile, where a table answers.
///
/// ```
/// use std::sync::Arc;
/// use ai2048_ai::endgame::{EndgameTables, TableLeaves};
/// use ai2048_ai::eval::{Evaluator, Lines};
/// use ai2048_tables::{Layout, Table};
///
/// let table = Table::solve(Layout::new("xxx./xx1./1.../.... ..../..1./.11./....".parse()?, 8)?);
/// let tables = Arc::new(EndgameTables::new(vec![("block-8".to_owned(), table)]));
/// let lines = Arc::new(Lines::default());
/// let leaves = TableLeaves::new(lines.clone(), tables, 1.0);
/// let block = "4096 2048 1024 2/512 256 4 2/4 0 0 0/0 0 0 2".parse()?;
/// assert!(leaves.eval(block) > lines.eval(block), "a table answers: a bonus");
/// let loose = "2 4 8 16/0 0 0 0/0 0 0 0/0 0 0 0".parse()?;
/// assert_eq!(leaves.eval(loose), lines.eval(loose), "no table answers");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct TableLeaves {
    inner: Arc<dyn Evaluator>,
    tables: Arc<EndgameTables>,
    weight: f64,
    from: u32,
    goals_only: bool,
}

impl TableLeaves {
    /// `inner` with `tables` at its leaves, a success weighing `weight` largest tiles.
    #[must_use]
    pub fn new(inner: Arc<dyn Evaluator>, tables: Arc<EndgameTables>, weight: f64) -> Self {
        TableLeaves {
            inner,
            tables,
            weight,
            from: 0,
            goals_only: false,
        }
    }

    /// The same evaluation, asking the tables only for boards that hold a tile of at
    /// least `tile`, and only those with goals if `goals_only` (as
    /// [`super::WithTables`] asks them).
    #[must_use]
    pub fn asking(self, tile: u32, goals_only: bool) -> Self {
        TableLeaves {
            from: tile,
            goals_only,
            ..self
        }
    }
}

impl Evaluator for TableLeaves {
    fn eval(&self, board: Board) -> f64 {
        let value = self.inner.eval(board);
        if board.max_tile() < self.from {
            return value;
        }
        match self.tables.leaf_value(board, self.goals_only) {
            Some(p) => value + self.weight * p * f64::from(board.max_tile()),
            None => value,
        }
    }

    fn lost(&self, board: Board) -> f64 {
        self.inner.lost(board)
    }

    fn cut_below(&self, root: Board) -> f64 {
        self.inner.cut_below(root)
    }

    /// The tables at the leaves of the evaluation `inner` names for `root`.
    fn for_root(&self, root: Board) -> Option<Arc<dyn Evaluator>> {
        let inner = self.inner.for_root(root)?;
        Some(Arc::new(TableLeaves {
            inner,
            tables: Arc::clone(&self.tables),
            ..*self
        }))
    }
}

#[cfg(test)]
mod tests {
    use ai2048_tables::{Layout, Table};

    use super::*;
    use crate::eval::Lines;

    fn block_tables() -> Arc<EndgameTables> {
        let pattern = "xxx./xx1./1.../.... ..../..1./.11./....".parse().unwrap();
        let table = Table::solve(Layout::new(pattern, 8).unwrap());
        Arc::new(EndgameTables::new(vec![("block-8".to_owned(), table)]))
    }

    #[test]
    fn the_bonus_is_the_weight_times_the_probability_times_the_largest_tile() {
        let tables = block_tables();
        let lines: Arc<dyn Evaluator> = Arc::new(Lines::default());
        let board: Board = "4096 2048 1024 2/512 256 4 2/4 0 0 0/0 0 0 2"
            .parse()
            .unwrap();
        let p = tables.leaf_value(board, false).unwrap();
        let leaves = TableLeaves::new(Arc::clone(&lines), Arc::clone(&tables), 3.0);
        let bonus = leaves.eval(board) - lines.eval(board);
        assert!((bonus - 3.0 * p * 4096.0).abs() < 1e-6, "{bonus} {p}");
        assert_eq!(leaves.lost(board), lines.lost(board));
        assert_eq!(leaves.cut_below(board), lines.cut_below(board));
    }

    #[test]
    fn boards_below_the_first_tile_asked_get_no_bonus() {
        let lines: Arc<dyn Evaluator> = Arc::new(Lines::default());
        let leaves = TableLeaves::new(Arc::clone(&lines), block_tables(), 1.0).asking(8192, true);
        let board: Board = "4096 2048 1024 2/512 256 4 2/4 0 0 0/0 0 0 2"
            .parse()
            .unwrap();
        assert_eq!(leaves.eval(board), lines.eval(board));
        let larger: Board = "8192 2048 1024 2/512 256 4 2/4 0 0 0/0 0 0 2"
            .parse()
            .unwrap();
        assert!(leaves.eval(larger) > lines.eval(larger));
    }
}
