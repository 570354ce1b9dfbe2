//! `ai2048 train --pools-by PLAYER`: the carousel's pools filled from another player's
//! games before training, so that stages the network's own games do not yet reach
//! have positions to start from.

use std::io::Write;
use std::sync::atomic::AtomicBool;

use ai2048_ai::ntuple::NTupleNetwork;
use ai2048_ai::PlayerSpec;
use ai2048_bench::{play_game_watched, run_tasks, BenchConfig};
use ai2048_engine::rng::{derive_seed, Rng};
use ai2048_engine::Rules;
use anyhow::{anyhow, bail, Context, Result};

use crate::args::TrainArgs;

/// The games `--pools-by` plays when `--pool-games` is not given.
const DEFAULT_POOL_GAMES: u64 = 1000;

/// The seed stream of the pools' games, apart from every training game's
/// (`derive_seed(--seed, g)` for game `g`).
const POOLS_STREAM: u64 = u64::MAX;

/// The player and the number of games of `--pools-by`, checked, when it is given; the
/// network must have a carousel to fill.
pub(super) fn pools_player(
    args: &TrainArgs,
    net: &NTupleNetwork,
) -> Result<Option<(PlayerSpec, u64)>> {
    let Some(text) = &args.pools_by else {
        return Ok(None);
    };
    if net.carousel().is_none() {
        bail!("--pools-by fills the carousel's pools: give --carousel (such as 16384,24576) too");
    }
    let spec: PlayerSpec = text.parse().context("--pools-by")?;
    ai2048_ai::check_player(&spec).context("--pools-by")?;
    let games = args.pool_games.unwrap_or(DEFAULT_POOL_GAMES);
    if games == 0 {
        bail!("--pool-games must be at least 1");
    }
    Ok(Some((spec, games)))
}

/// Plays `games` games of `player` on `threads` threads and adds to the pools of
/// `net`'s carousel every position where a game entered one of its stages (after the
/// first), game by game in order, so that the same command fills the same pools.
/// The games are seeded from `seed` and the games the network has trained, so that a
/// `--resume` adds new positions rather than the same again.
///
/// Returns `false`, with the pools unchanged, when `stop` was set before every game
/// ended.
pub(super) fn fill_pools(
    net: &mut NTupleNetwork,
    (player, games): &(PlayerSpec, u64),
    seed: u64,
    threads: usize,
    rules: Rules,
    stop: &AtomicBool,
    out: &mut impl Write,
) -> Result<bool> {
    let mut carousel = net.carousel().cloned().expect("checked by pools_player");
    let seed = derive_seed(derive_seed(seed, POOLS_STREAM), net.games());
    let config = BenchConfig {
        games: *games,
        seed,
        jobs: threads.max(1),
        rules,
        ..BenchConfig::new(player.clone())
    };
    writeln!(
        out,
        "filling the carousel's pools from {games} games of {player}"
    )?;
    out.flush()?;
    let made = run_tasks(config.jobs, config.indices(), stop, |index, stopped| {
        let mut entries = Vec::new();
        let mut reached = 0;
        let record = play_game_watched(&config, index, stopped, |board| {
            if let Some(stage) = carousel.stages().entered(board, reached) {
                reached = stage;
                entries.push((stage, board));
            }
        })?;
        Ok(record.map(|_| entries))
    })
    .map_err(|e| anyhow!("--pools-by: {e}"))?;
    if made.len() as u64 != *games {
        return Ok(false);
    }
    let mut by_game = made;
    by_game.sort_unstable_by_key(|&(index, _)| index);
    let mut rng = Rng::new(seed);
    for (_, entries) in by_game {
        for (stage, board) in entries {
            carousel.enter(stage, board, &mut rng);
        }
    }
    writeln!(out, "carousel pools: {carousel}")?;
    net.set_carousel(Some(carousel));
    Ok(true)
}
