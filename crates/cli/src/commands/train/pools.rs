//! `ai2048 train --pools-by PLAYER`: the carousel's pools filled from another player's
//! games before training, so that stages the network's own games do not yet reach
//! have positions to start from.

use std::io::Write;
use std::sync::atomic::AtomicBool;

use ai2048_ai::ntuple::{NTupleNetwork, TrainConfig};
use ai2048_ai::PlayerSpec;
use ai2048_bench::{fill_network_pools, PoolGames};
use anyhow::{anyhow, bail, Context, Result};

use crate::args::TrainArgs;

/// The games `--pools-by` plays when `--pool-games` is not given.
const DEFAULT_POOL_GAMES: u64 = 1000;

/// The games of `--pools-by`, checked, when it is given: seeded from `config`'s seed,
/// on its threads, by its rules. The network must have a carousel to fill.
pub(super) fn pool_games(
    args: &TrainArgs,
    net: &NTupleNetwork,
    config: &TrainConfig,
) -> Result<Option<PoolGames>> {
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
    Ok(Some(PoolGames {
        threads: config.threads,
        rules: config.rules,
        ..PoolGames::new(spec, games, config.seed)
    }))
}

/// Fills the pools of `net`'s carousel from `pool_games` ([`fill_network_pools`]),
/// saying so on `out`.
///
/// Returns `false`, with the pools unchanged, when `stop` was set before every game
/// ended.
pub(super) fn fill_net_pools(
    net: &mut NTupleNetwork,
    pool_games: &PoolGames,
    stop: &AtomicBool,
    out: &mut impl Write,
) -> Result<bool> {
    writeln!(
        out,
        "filling the carousel's pools from {} games of {}",
        pool_games.games, pool_games.player
    )?;
    out.flush()?;
    if !fill_network_pools(net, pool_games, stop).map_err(|e| anyhow!("--pools-by: {e}"))? {
        return Ok(false);
    }
    if let Some(carousel) = net.carousel() {
        writeln!(out, "carousel pools: {carousel}")?;
    }
    Ok(true)
}
