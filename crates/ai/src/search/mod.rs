//! The players: [`RandomPlayer`], [`GreedyPlayer`], [`Expectimax`], [`Minimax`],
//! [`Mcts`] and [`Replica`], and the [`TransTable`] that searches share.

mod expectimax;
mod greedy;
mod leaf_cache;
mod mcts;
mod minimax;
mod random;
mod replica;
mod tt;

pub use expectimax::{
    adaptive_depth, spawn_model, Expectimax, ExpectimaxConfig, TimePlan, MAX_BANKED_BUDGETS,
    MAX_PLANNED_BUDGETS,
};
pub use greedy::GreedyPlayer;
use leaf_cache::LeafCache;
pub use mcts::{Mcts, MctsConfig, MctsMode, Playout};
pub use minimax::{Minimax, MinimaxConfig};
pub use random::RandomPlayer;
pub use replica::{Replica, ReplicaConfig};
pub use tt::TransTable;
