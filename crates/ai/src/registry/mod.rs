//! Players by name, with their options: the one place front ends create players.
//!
//! [`PlayerSpec`] is a name with options as a user writes them, [`PLAYERS`] lists every
//! player with its options, and [`create_player`] builds one, with its evaluation
//! (see `evaluator.rs`) and its settings (see `options.rs`).

mod catalog;
mod evaluator;
mod formation;
mod options;
mod spec;
mod tables;

pub use catalog::{option_matches, PlayerInfo, PLAYERS};
pub use formation::{resolve_player, FORMATION_OPTIONS};
pub use spec::{PlayerError, PlayerSpec};
pub use tables::tables_in_use;

use std::sync::Arc;

use crate::endgame::{TableLeaves, WithTables};
use crate::eval::{CobbDouglas, Evaluator};
use crate::search::{
    Expectimax, ExpectimaxConfig, GreedyPlayer, Mcts, MctsConfig, Minimax, MinimaxConfig,
    RandomPlayer, Replica, ReplicaConfig,
};
use crate::Player;
use evaluator::{eval_config, evaluator};
use options::{expectimax_config, mcts_config, minimax_config, replica_config};

/// The name of the default player.
pub const DEFAULT_PLAYER: &str = "expectimax";

/// Checks that `spec` names a player with valid options, as [`create_player`] does,
/// without building it (an expectimax player's transposition table is 64 MiB): what
/// a front end calls to fail early, before it creates a player for each game.
///
/// # Errors
///
/// As [`create_player`].
///
/// ```
/// use ai2048_ai::check_player;
/// assert!(check_player(&"expectimax:depth=3".parse()?).is_ok());
/// assert!(check_player(&"expectimax:depth=99".parse()?).is_err());
/// # Ok::<(), ai2048_ai::PlayerError>(())
/// ```
pub fn check_player(spec: &PlayerSpec) -> Result<(), PlayerError> {
    let spec = &*resolve_player(spec)?;
    Recipe::new(spec)?;
    tables::tables_for(spec).map(|_| ())
}

/// Creates the player `spec` names, drawing any randomness from `seed`: the player of
/// [`resolve_player`]'s spec, which for an expectimax player that consults tables of
/// a formation's block and names no evaluation is the formation player.
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
    let spec = &*resolve_player(spec)?;
    let tables = tables::tables_for(spec)?;
    let leaves = |eval| with_leaves(eval, tables.as_ref());
    let player: Box<dyn Player> = match Recipe::new(spec)? {
        Recipe::Random => Box::new(RandomPlayer::new(seed)),
        Recipe::Greedy(eval) => Box::new(GreedyPlayer::new(leaves(eval))),
        Recipe::Expectimax(config, eval) => Box::new(Expectimax::with_eval(config, leaves(eval))),
        Recipe::Minimax(config, eval) => Box::new(Minimax::new(config, leaves(eval))),
        Recipe::Mcts(config, eval) => Box::new(Mcts::new(config, leaves(eval), seed)),
        Recipe::Replica(config) => Box::new(Replica::new(config)),
    };
    Ok(match tables {
        Some(t) => {
            let solving = t.solving();
            let with = WithTables::new(player, t.tables, t.min, t.slack)
                .from_tile(t.from)
                .goals_only(t.goals_only)
                .own_stage_from(t.own_from)
                .own_stage_late(t.own_late);
            Box::new(match solving {
                Some(s) => with.solving(s),
                None => with,
            })
        }
        None => player,
    })
}

/// `eval` with the tables at its leaves where the option `tables-leaves` asks for them
/// ([`TableLeaves`]), else as it is.
fn with_leaves(eval: Arc<dyn Evaluator>, tables: Option<&tables::TablesUse>) -> Arc<dyn Evaluator> {
    match tables {
        Some(t) if t.leaves > 0.0 => Arc::new(
            TableLeaves::new(eval, Arc::clone(&t.tables), t.leaves).asking(t.from, t.goals_only),
        ),
        _ => eval,
    }
}

/// A player's settings and evaluation, checked: everything but the player.
enum Recipe {
    Random,
    Greedy(Arc<dyn Evaluator>),
    Expectimax(ExpectimaxConfig, Arc<dyn Evaluator>),
    Minimax(MinimaxConfig, Arc<dyn Evaluator>),
    Mcts(MctsConfig, Arc<dyn Evaluator>),
    Replica(ReplicaConfig),
}

impl Recipe {
    fn new(spec: &PlayerSpec) -> Result<Recipe, PlayerError> {
        let info = PLAYERS
            .iter()
            .find(|p| p.name == spec.name)
            .ok_or_else(|| PlayerError::UnknownPlayer {
                name: spec.name.clone(),
            })?;
        for (key, _) in &spec.options {
            let table_option = tables::OPTIONS.contains(&key.as_str());
            if !table_option && !info.options.iter().any(|(k, _)| option_matches(k, key)) {
                return Err(PlayerError::UnknownOption {
                    player: info.name.to_owned(),
                    key: key.clone(),
                });
            }
        }
        Ok(match info.name {
            "random" => Recipe::Random,
            "greedy" => Recipe::Greedy(evaluator(spec, "simple")?),
            "expectimax" => {
                Recipe::Expectimax(expectimax_config(spec)?, evaluator(spec, "heuristic")?)
            }
            "minimax" => Recipe::Minimax(minimax_config(spec)?, evaluator(spec, "heuristic")?),
            "mcts" => Recipe::Mcts(mcts_config(spec)?, evaluator(spec, "heuristic")?),
            "replica" => {
                // Its utility is always the Cobb-Douglas product; `w.NAME` sets its
                // exponents, checked as the evaluation's weights are.
                let weights = eval_config(spec, "cobb-douglas")?;
                let mut exponents = [0.0; 4];
                exponents.copy_from_slice(weights.params());
                Recipe::Replica(ReplicaConfig {
                    utility: CobbDouglas { exponents },
                    ..replica_config(spec)?
                })
            }
            other => unreachable!("player {other} listed but not built"),
        })
    }
}
