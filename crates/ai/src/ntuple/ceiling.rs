//! A network read under a lower ceiling: the boards past a tile it has learned little
//! of are valued downgraded to that tile.

use std::sync::Arc;

use ai2048_engine::Board;

use super::{implied_score, NTupleNetwork};
use crate::eval::Evaluator;

/// A network as an evaluation that reads every board holding a tile above its
/// ceiling downgraded until that tile is the largest ([`NTupleNetwork::value_at`]),
/// plus the board's [`implied_score`], as the network itself does up to 32768.
///
/// A network trained on games that seldom went past a tile has hardly any weights for
/// the larger one: the board that first holds it is valued as if it were worth less
/// than the board before the merge that made it. Read under a ceiling at the largest
/// tile it knows, the merge is valued as the step it is.
///
/// ```
/// use std::sync::Arc;
/// use ai2048_ai::eval::Evaluator;
/// use ai2048_ai::ntuple::{parse_tuples, Ceiling, NTupleNetwork};
/// let net = Arc::new(NTupleNetwork::new(parse_tuples("small")?));
/// let under = Ceiling::new(Arc::clone(&net), 16384).expect("a tile");
/// assert_eq!(under.tile(), 16384);
/// let board = "32768 8192 4 2/0 0 0 0/0 0 0 0/0 0 0 0".parse()?;
/// assert_eq!(under.eval(board), f64::from(net.value_at(board, 14)) + net.lost(board));
/// assert!(Ceiling::new(net, 3000).is_none());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct Ceiling {
    net: Arc<NTupleNetwork>,
    top: u8,
}

impl Ceiling {
    /// `net` read with tiles up to `tile`; `None` unless `tile` is a power of two from 4
    /// to 32768.
    #[must_use]
    pub fn new(net: Arc<NTupleNetwork>, tile: u32) -> Option<Ceiling> {
        (tile.is_power_of_two() && (4..=32768).contains(&tile)).then(|| Ceiling {
            net,
            top: tile.trailing_zeros() as u8,
        })
    }

    /// The ceiling: the largest tile a board is read with.
    #[must_use]
    pub fn tile(&self) -> u32 {
        1 << self.top
    }
}

impl Evaluator for Ceiling {
    fn eval(&self, board: Board) -> f64 {
        f64::from(self.net.value_at(board, self.top)) + implied_score(board) as f64
    }

    fn lost(&self, board: Board) -> f64 {
        implied_score(board) as f64
    }
}
