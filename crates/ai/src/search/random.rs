//! The random player: a uniformly chosen legal move.

use ai2048_engine::{Board, Rng};

use crate::{Player, SearchLimits, SearchResult};

/// Plays a uniformly random legal move, from its own seeded generator.
///
/// ```
/// use ai2048_ai::{search::RandomPlayer, Player, SearchLimits};
/// use ai2048_engine::Board;
/// let mut player = RandomPlayer::new(5);
/// let board: Board = "2 0 0 0/0 0 0 0/0 0 0 0/0 0 0 0".parse()?;
/// let dir = player.search(board, &SearchLimits::default()).dir.unwrap();
/// assert!(board.can_move(dir));
/// # Ok::<(), ai2048_engine::ParseBoardError>(())
/// ```
#[derive(Clone, Debug)]
pub struct RandomPlayer {
    rng: Rng,
}

impl RandomPlayer {
    /// A random player drawing from `seed`.
    #[must_use]
    pub fn new(seed: u64) -> RandomPlayer {
        RandomPlayer {
            rng: Rng::new(seed),
        }
    }
}

impl Player for RandomPlayer {
    fn name(&self) -> &str {
        "random"
    }

    fn search(&mut self, board: Board, _limits: &SearchLimits) -> SearchResult {
        let legal = board.legal_dirs();
        let dir = if legal.is_empty() {
            None
        } else {
            legal.nth(self.rng.below(legal.len() as u32) as usize)
        };
        SearchResult {
            dir,
            nodes: 4,
            ..SearchResult::default()
        }
    }
}
