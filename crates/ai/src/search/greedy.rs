//! The greedy player: the best move after one ply on an evaluation.

use std::sync::Arc;

use ai2048_engine::{Board, Dir};

use crate::eval::{Evaluator, Simple};
use crate::{Player, SearchLimits, SearchResult};

/// Plays the legal move whose board (before the spawn) evaluates best, as the Rust
/// course lab (the `main`/`bench` interface `ai2048` keeps) defines greedy.
///
/// ```
/// use ai2048_ai::{search::GreedyPlayer, Player, SearchLimits};
/// use ai2048_engine::{Board, Dir};
/// let mut player = GreedyPlayer::default();
/// let board: Board = "0 0 0 0/0 0 0 0/0 0 0 0/0 0 0 1024".parse()?;
/// // Up and left both take the 1024 toward the top-left corner; up comes first.
/// assert_eq!(player.search(board, &SearchLimits::default()).dir, Some(Dir::Up));
/// # Ok::<(), ai2048_engine::ParseBoardError>(())
/// ```
pub struct GreedyPlayer {
    eval: Arc<dyn Evaluator>,
}

impl Default for GreedyPlayer {
    fn default() -> GreedyPlayer {
        GreedyPlayer::new(Arc::new(Simple))
    }
}

impl GreedyPlayer {
    /// A greedy player on the evaluation `eval`, shared as the other players share
    /// theirs.
    ///
    /// ```
    /// use ai2048_ai::eval::create_eval;
    /// use ai2048_ai::search::GreedyPlayer;
    /// let player = GreedyPlayer::new(create_eval("snake", None)?);
    /// # Ok::<(), ai2048_ai::eval::EvalError>(())
    /// ```
    #[must_use]
    pub fn new(eval: Arc<dyn Evaluator>) -> GreedyPlayer {
        GreedyPlayer { eval }
    }
}

impl Player for GreedyPlayer {
    fn name(&self) -> &str {
        "greedy"
    }

    fn search(&mut self, board: Board, _limits: &SearchLimits) -> SearchResult {
        let mut values = [None; 4];
        for dir in Dir::ALL {
            let next = board.shift(dir);
            if next != board {
                values[dir.index()] = Some(self.eval.eval(next));
            }
        }
        SearchResult::from_values(values, 1, 4)
    }
}
