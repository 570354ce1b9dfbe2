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
/// `other` score it, added the same way; a search's cut is `base`'s. From a tile
/// ([`Blend::joining_from`]), a search whose root holds no such tile values its
/// leaves with `base` alone ([`Evaluator::for_root`]).
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
/// assert!(blend.for_root(board).is_none(), "joins in from every board");
///
/// let late = Blend::new(lines.clone(), simple, 0.5).joining_from(16384);
/// let below = late.for_root(board).expect("no 16384 on the board: lines alone");
/// assert_eq!(below.eval(board), lines.eval(board));
/// let above: Board = "16384 512 256 0/512 256 0 0/0 0 0 0/0 0 0 0".parse()?;
/// assert!(late.for_root(above).is_none(), "a 16384: the blend itself");
/// # Ok::<(), ai2048_engine::ParseBoardError>(())
/// ```
pub struct Blend {
    base: Arc<dyn Evaluator>,
    other: Arc<dyn Evaluator>,
    weight: f64,
    /// The exponent of the tile a search's root must hold for `other` to join in.
    from: u8,
}

impl Blend {
    /// `base + weight · other`.
    #[must_use]
    pub fn new(base: Arc<dyn Evaluator>, other: Arc<dyn Evaluator>, weight: f64) -> Blend {
        Blend {
            base,
            other,
            weight,
            from: 0,
        }
    }

    /// The same blend, for a search whose root holds a tile of at least `tile` (a
    /// power of two); below it, `base` alone. A tile of 2 or less: every root.
    #[must_use]
    pub fn joining_from(self, tile: u32) -> Blend {
        let from = if tile > 1 { tile.ilog2() as u8 } else { 0 };
        Blend { from, ..self }
    }

    /// The tile from which `other` joins in, 1 when from every board.
    #[must_use]
    pub fn from_tile(&self) -> u32 {
        1 << self.from
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

    fn for_root(&self, root: Board) -> Option<Arc<dyn Evaluator>> {
        (root.max_exponent() < self.from).then(|| Arc::clone(&self.base))
    }
}
