//! Carousel pools filled from another player's games: the positions where a searched
//! player's games entered the late stages, for a network whose own games do not yet
//! reach them ([`Carousel`]).

use std::sync::atomic::AtomicBool;

use ai2048_ai::ntuple::{Carousel, NTupleNetwork};
use ai2048_ai::PlayerSpec;
use ai2048_engine::rng::{derive_seed, Rng};
use ai2048_engine::Rules;

use crate::config::{BenchConfig, BenchError};
use crate::pool::run_tasks;
use crate::run::play_game_watched;

/// The seed stream of the pools' games, apart from every training game's
/// (`derive_seed(train_seed, g)` for game `g`).
const POOLS_STREAM: u64 = u64::MAX;

/// The seed of the pools' games for a network trained from `train_seed` that has
/// trained `trained_games` games so far: apart from the training games' seeds, and new
/// after each part of a resumed run, so that a part adds new positions rather than
/// the same again.
fn pools_seed(train_seed: u64, trained_games: u64) -> u64 {
    derive_seed(derive_seed(train_seed, POOLS_STREAM), trained_games)
}

/// The games that fill a network's carousel pools before it trains
/// ([`fill_network_pools`]): `ai2048 train --pools-by PLAYER --pool-games N`.
#[derive(Clone, Debug, PartialEq)]
pub struct PoolGames {
    /// The player whose games enter the stages.
    pub player: PlayerSpec,
    /// How many games it plays.
    pub games: u64,
    /// The seed of the training run: the pools' games are seeded from it and the games
    /// the network has trained, apart from every training game.
    pub train_seed: u64,
    /// How many games to play at once; 0 counts as 1.
    pub threads: usize,
    /// The rules of the games.
    pub rules: Rules,
}

impl PoolGames {
    /// `games` games of `player` for a run from `train_seed`, on one thread, original
    /// rules.
    #[must_use]
    pub fn new(player: PlayerSpec, games: u64, train_seed: u64) -> PoolGames {
        PoolGames {
            player,
            games,
            train_seed,
            threads: 1,
            rules: Rules::default(),
        }
    }

    /// Plays these games and adds to `carousel`'s pools every position where a game
    /// entered one of its stages (after the first), as [`fill_pools`] does, the games
    /// seeded from the training seed and `trained_games`, the games the network has
    /// trained, so that each part of a resumed run adds new positions. A caller that
    /// shares its network fills a copy of the carousel, without holding the network.
    ///
    /// Returns `false`, with the pools unchanged, when `stop` was set before every
    /// game ended.
    ///
    /// # Errors
    ///
    /// [`BenchError::Config`] when there are no games; otherwise as [`fill_pools`].
    ///
    /// ```
    /// use std::sync::atomic::AtomicBool;
    /// use ai2048_ai::ntuple::Carousel;
    /// use ai2048_bench::PoolGames;
    /// let games = PoolGames::new("greedy:eval=heuristic".parse()?, 4, 7);
    /// let fill = |trained_games| -> Result<Carousel, Box<dyn std::error::Error>> {
    ///     let mut carousel = Carousel::new("128,256".parse()?)?;
    ///     assert!(games.fill(&mut carousel, trained_games, &AtomicBool::new(false))?);
    ///     Ok(carousel)
    /// };
    /// // The same part of a run fills the same pools; a later part, other positions.
    /// assert_eq!(fill(0)?, fill(0)?);
    /// assert_ne!(fill(0)?, fill(500)?);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn fill(
        &self,
        carousel: &mut Carousel,
        trained_games: u64,
        stop: &AtomicBool,
    ) -> Result<bool, BenchError> {
        if self.games == 0 {
            return Err(BenchError::Config(
                "the pools need at least 1 game".to_owned(),
            ));
        }
        let config = BenchConfig {
            games: self.games,
            seed: pools_seed(self.train_seed, trained_games),
            jobs: self.threads.max(1),
            rules: self.rules,
            ..BenchConfig::new(self.player.clone())
        };
        fill_pools(carousel, &config, stop)
    }
}

/// Plays `pool_games` and adds to the pools of `net`'s carousel every position where a
/// game entered one of its stages (after the first), as [`PoolGames::fill`] does for
/// a network that has trained `net.games()` games.
///
/// Returns `false`, with the pools unchanged, when `stop` was set before every game
/// ended.
///
/// # Errors
///
/// [`BenchError::Config`] when `net` has no carousel; otherwise as
/// [`PoolGames::fill`].
///
/// ```
/// use std::sync::atomic::AtomicBool;
/// use ai2048_ai::ntuple::{parse_tuples, NTupleNetwork};
/// use ai2048_bench::{fill_network_pools, PoolGames};
/// let mut net = NTupleNetwork::new(parse_tuples("small")?);
/// net.go_round("128,256".parse()?)?;
/// let games = PoolGames::new("greedy:eval=heuristic".parse()?, 4, 7);
/// assert!(fill_network_pools(&mut net, &games, &AtomicBool::new(false))?);
/// let pools = net.carousel().unwrap().pools();
/// // Every one of these games makes a 128 and a 256: each entered both stages once.
/// assert_eq!((pools[0].entered, pools[1].entered), (4, 4));
/// // A network with no carousel has no pools to fill.
/// let mut plain = NTupleNetwork::new(parse_tuples("small")?);
/// assert!(fill_network_pools(&mut plain, &games, &AtomicBool::new(false)).is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn fill_network_pools(
    net: &mut NTupleNetwork,
    pool_games: &PoolGames,
    stop: &AtomicBool,
) -> Result<bool, BenchError> {
    let Some(mut carousel) = net.carousel().cloned() else {
        return Err(BenchError::Config(
            "the network has no carousel whose pools to fill".to_owned(),
        ));
    };
    if !pool_games.fill(&mut carousel, net.games(), stop)? {
        return Ok(false);
    }
    net.set_carousel(Some(carousel));
    Ok(true)
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

#[cfg(test)]
mod tests {
    use super::pools_seed;

    #[test]
    fn each_part_of_a_run_and_each_run_has_pools_games_of_its_own() {
        assert_eq!(pools_seed(1, 0), pools_seed(1, 0));
        assert_ne!(pools_seed(1, 0), pools_seed(1, 500));
        assert_ne!(pools_seed(1, 0), pools_seed(2, 0));
    }
}
