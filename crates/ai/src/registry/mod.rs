//! Players by name, with their options: the one place front ends create players.
//!
//! [`PlayerSpec`] is a name with options as a user writes them, [`PLAYERS`] lists every
//! player with its options, and [`create_player`] builds one, with its evaluation
//! (see `evaluator.rs`) and its settings (see `options.rs`).

mod catalog;
mod evaluator;
mod options;
mod spec;

pub use catalog::{option_matches, PlayerInfo, PLAYERS};
pub use spec::{PlayerError, PlayerSpec};

use crate::search::{Expectimax, GreedyPlayer, Mcts, Minimax, RandomPlayer};
use crate::Player;
use evaluator::evaluator;
use options::{expectimax_config, mcts_config, minimax_config};

/// The name of the default player.
pub const DEFAULT_PLAYER: &str = "expectimax";

/// Creates the player `spec` names, drawing any randomness from `seed`.
///
/// # Errors
///
/// When the name is unknown or an option is unknown or has a bad value; the message
/// lists what is known.
///
/// ```
/// use ai2048_ai::{create_player, PlayerSpec};
/// assert!(create_player(&"random".parse()?, 0).is_ok());
/// let err = create_player(&"nope".parse()?, 0).err().unwrap();
/// assert!(err.to_string().contains("unknown player"));
/// # Ok::<(), ai2048_ai::PlayerError>(())
/// ```
pub fn create_player(spec: &PlayerSpec, seed: u64) -> Result<Box<dyn Player>, PlayerError> {
    let info = PLAYERS
        .iter()
        .find(|p| p.name == spec.name)
        .ok_or_else(|| PlayerError::UnknownPlayer {
            name: spec.name.clone(),
        })?;
    for (key, _) in &spec.options {
        if !info.options.iter().any(|(k, _)| option_matches(k, key)) {
            return Err(PlayerError::UnknownOption {
                player: info.name.to_owned(),
                key: key.clone(),
            });
        }
    }
    Ok(match info.name {
        "random" => Box::new(RandomPlayer::new(seed)),
        "greedy" => Box::new(GreedyPlayer::new(evaluator(spec, "simple")?)),
        "expectimax" => Box::new(Expectimax::with_eval(
            expectimax_config(spec)?,
            evaluator(spec, "heuristic")?,
        )),
        "minimax" => Box::new(Minimax::new(
            minimax_config(spec)?,
            evaluator(spec, "heuristic")?,
        )),
        "mcts" => Box::new(Mcts::new(
            mcts_config(spec)?,
            evaluator(spec, "heuristic")?,
            seed,
        )),
        other => unreachable!("player {other} listed but not built"),
    })
}
