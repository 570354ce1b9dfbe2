//! N-tuple networks: evaluations learned from self-play, as in the research literature
//! (Szubert and Jaśkowski 2014; Yeh et al. 2016; Guei et al. 2022).
//!
//! A [`NTupleNetwork`] values a board by looking up a few groups of cells, its
//! [`Tuple`]s, in tables of weights, at each of the eight symmetries of the board,
//! with a set of tables per [`Stages`] of the game. A [`Trainer`] improves the weights
//! by temporal-difference learning over games the network plays itself
//! ([`TrainConfig`]), on as many threads as asked; the network file
//! ([`NTupleNetwork::write_to`], [`NTupleNetwork::load`]) keeps the weights and how
//! many games trained them, so training can stop and go on. As an
//! [`Evaluator`](crate::eval::Evaluator) a network serves every player that evaluates
//! boards: the players' option `network=FILE` loads one (`greedy:network=FILE` is the
//! policy it was trained as).
//!
//! ```
//! use ai2048_ai::ntuple::{best_afterstate, parse_tuples, train_game, NTupleNetwork, TrainConfig};
//! use ai2048_engine::PlayableBoard;
//!
//! let mut net = NTupleNetwork::new(parse_tuples("small")?);
//! let config = TrainConfig { seed: 7, ..TrainConfig::default() };
//! let scores: Vec<u64> = (0..20).map(|_| train_game(&mut net, &config).score).collect();
//! assert_eq!(net.games(), 20);
//! // Saved and read back, it picks the same moves.
//! let back = NTupleNetwork::read_from(&net.to_bytes()[..])?;
//! let board = PlayableBoard::new("2 2 4 8/0 0 0 0/0 0 0 0/0 0 0 2".parse()?);
//! assert_eq!(
//!     best_afterstate(&back, board).map(|a| a.dir),
//!     best_afterstate(&net, board).map(|a| a.dir)
//! );
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod builtin;
mod carousel;
mod ceiling;
mod file;
mod index;
mod network;
mod packed;
mod shared;
mod stages;
mod trainer;
mod tuple;
mod weights;

pub use builtin::{builtin, builtin_file, install_builtin};
pub use carousel::{Carousel, GoRoundError, NoCarouselStages, Pool, POOL_CAPACITY};
pub use ceiling::Ceiling;
pub use file::{NetworkError, MAX_WEIGHTS};
pub use network::{
    check_initial_value, implied_score, NTupleNetwork, MAX_INITIAL_VALUE, MAX_LOOKUPS,
};
pub use packed::{packed_info, PackedInfo, PACKED_MAGIC};
pub use stages::{Stages, StagesError, MAX_STAGES};
pub use trainer::{
    best_afterstate, player_policy, train_game, Afterstate, Learning, ParseLearningError,
    PolicyFactory, Restart, TrainConfig, TrainConfigError, TrainedGame, Trainer, MAX_RESTARTS,
};
pub use tuple::{parse_tuples, Tuple, TupleError, MAX_TUPLE_LEN, TUPLE_SETS, TUPLE_VALUES};

/// Moves the value of each of `boards` by `step` times its place in the list (from 1):
/// a network trained by hand, for the tests of the network files.
#[cfg(test)]
fn learn_boards(net: &NTupleNetwork, boards: &[&str], step: f32) {
    for (i, text) in boards.iter().enumerate() {
        net.learn(
            text.parse::<ai2048_engine::Board>().expect("a board"),
            step * (i as f32 + 1.0),
        );
    }
}
