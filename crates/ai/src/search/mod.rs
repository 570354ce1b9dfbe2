//! The players: [`RandomPlayer`], [`GreedyPlayer`] and [`Expectimax`], and the
//! [`TransTable`] that searches share.

mod expectimax;
mod greedy;
mod random;
mod tt;

pub use expectimax::{adaptive_depth, Expectimax, ExpectimaxConfig};
pub use greedy::GreedyPlayer;
pub use random::RandomPlayer;
pub use tt::TransTable;
