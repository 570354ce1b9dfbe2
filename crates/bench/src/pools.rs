//! Carousel pools filled from another player's games: the positions where a searched
//! player's games entered the late stages, for a network whose own games do not yet
//! reach them ([`Carousel`]).

use std::sync::atomic::AtomicBool;

use ai2048_ai::ntuple::Carousel;
use ai2048_engine::rng::{derive_seed, Rng};

use crate::pool::run_tasks;
use crate::run::{play_game_watched, BenchConfig, BenchError};

/// The seed stream of the pools' games, apart from every training game's
/// (`derive_seed(train_seed, g)` for game `g`).
const POOLS_STREAM: u64 = u64::MAX;

/// The seed of the pools' games for a network trained from `train_seed` that has
/// trained `trained_games` games so far: apart from the training games' seeds, and new
/// after each part of a resumed run, so that a part adds new positions rather than
/// the same again.
///
/// ```
/// use ai2048_bench::pools_seed;
/// assert_eq!(pools_seed(1, 0), pools_seed(1, 0));
/// assert_ne!(pools_seed(1, 0), pools_seed(1, 500));
/// assert_ne!(pools_seed(1, 0), pools_seed(2, 0));
/// ```
#[must_use]
pub fn pools_seed(train_seed: u64, trained_games: u64) -> u64 {
    derive_seed(derive_seed(train_seed, POOLS_STREAM), trained_games)
}

/// Plays the games of `config` and adds to `carousel`'s pools every position where a
/// game entered one of its stages (after the first), game by game in order whatever
/// the threads, so that the same config fills the same pools. The pools' reservoir
/// draws come from `config.seed`.
///
/// Returns `false`, with the pools unchanged, when `stop` was set before every game
/// ended.
///
/// # Errors
///
/// As [`play_game_watched`]: the player cannot be made, or a game fails.
///
/// ```
/// use std::sync::atomic::AtomicBool;
/// use ai2048_ai::ntuple::Carousel;
/// use ai2048_bench::{fill_pools, BenchConfig};
/// let mut carousel = Carousel::new("128,256".parse()?)?;
/// let player = "greedy:eval=heuristic".parse()?;
/// let config = BenchConfig { games: 4, ..BenchConfig::new(player) };
/// assert!(fill_pools(&mut carousel, &config, &AtomicBool::new(false))?);
/// // Every one of these games makes a 128 and a 256: each entered both stages once.
/// assert_eq!(carousel.pools()[0].entered, 4);
/// assert_eq!(carousel.pools()[1].entered, 4);
/// // The same games fill the same pools.
/// let mut again = Carousel::new("128,256".parse()?)?;
/// fill_pools(&mut again, &BenchConfig { jobs: 2, ..config }, &AtomicBool::new(false))?;
/// assert_eq!(again, carousel);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn fill_pools(
    carousel: &mut Carousel,
    config: &BenchConfig,
    stop: &AtomicBool,
) -> Result<bool, BenchError> {
    let stages = carousel.stages();
    let made = run_tasks(config.jobs, config.indices(), stop, |index, stopped| {
        let mut entries = Vec::new();
        let mut reached = 0;
        let record = play_game_watched(config, index, stopped, |board| {
            if let Some(stage) = stages.entered(board, reached) {
                reached = stage;
                entries.push((stage, board));
            }
        })?;
        Ok(record.map(|_| entries))
    })?;
    if made.len() as u64 != config.games {
        return Ok(false);
    }
    let mut by_game = made;
    by_game.sort_unstable_by_key(|&(index, _)| index);
    let mut rng = Rng::new(config.seed);
    for (_, entries) in by_game {
        for (stage, board) in entries {
            carousel.enter(stage, board, &mut rng);
        }
    }
    Ok(true)
}
