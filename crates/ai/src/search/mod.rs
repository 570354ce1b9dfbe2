//! The players: [`RandomPlayer`] and [`GreedyPlayer`].

mod greedy;
mod random;

pub use greedy::GreedyPlayer;
pub use random::RandomPlayer;
