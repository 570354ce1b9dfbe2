//! Two evaluations added: `base + weight · other`.
//!
//! Made to join a hand-made evaluation that keeps a shape (as [`super::Lines`], whose
//! block the endgame tables play) with a learned one that knows what survives (a
//! network's expected score): the first decides where the shapes differ, the second
//! where they are alike.

use std::sync::Arc;

use ai2048_engine::Board;

use super::Evaluator;

/// `base`'s value plus `weight` times `other`'s. A lost board scores as `base` and
/// `other` score it, added the same way; a search's cut is `base`'s.
///
/// ```
/// use std::sync::Arc;
/// use ai2048_ai::eval::{Blend, Evaluator, Lines, Simple};
/// use ai2048_engine::Board;
/// let (lines, simple) = (Arc::new(Lines::default()), Arc::new(Simple));
/// let blend = Blend::new(lines.clone(), simple.clone(), 0.5);
/// let board: Board = "1024 512 256 0/512 256 0 0/0 0 0 0/0 0 0 0".parse()?;
/// assert_eq!(blend.eval(board), lines.eval(board) + 0.5 * simple.eval(board));
/// assert_eq!(blend.weight(), 0.5);
/// # Ok::<(), ai2048_engine::ParseBoardError>(())
/// ```
pub struct Blend {
    base: Arc<dyn Evaluator>,
    other: Arc<dyn Evaluator>,
    weight: f64,
}

impl Blend {
    /// `base + weight · other`.
    #[must_use]
    pub fn new(base: Arc<dyn Evaluator>, other: Arc<dyn Evaluator>, weight: f64) -> Blend {
        Blend {
            base,
            other,
            weight,
        }
    }

    /// The weight of the second evaluation.
    #[must_use]
    pub fn weight(&self) -> f64 {
        self.weight
    }
}

impl Evaluator for Blend {
    fn eval(&self, board: Board) -> f64 {
        self.base.eval(board) + self.weight * self.other.eval(board)
    }

    fn lost(&self, board: Board) -> f64 {
        self.base.lost(board) + self.weight * self.other.lost(board)
    }

    fn cut_below(&self, root: Board) -> f64 {
        self.base.cut_below(root)
    }
}
