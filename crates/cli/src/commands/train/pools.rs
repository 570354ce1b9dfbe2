//! `ai2048 train --pools-by PLAYER`: the carousel's pools filled from another player's
//! games before training, so that stages the network's own games do not yet reach
//! have positions to start from.

use std::io::Write;
use std::sync::atomic::AtomicBool;

use ai2048_ai::ntuple::NTupleNetwork;
use ai2048_ai::PlayerSpec;
use ai2048_bench::{fill_pools, pools_seed, BenchConfig};
use ai2048_engine::Rules;
use anyhow::{anyhow, bail, Context, Result};

use crate::args::TrainArgs;

/// The games `--pools-by` plays when `--pool-games` is not given.
const DEFAULT_POOL_GAMES: u64 = 1000;

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
/// `net`'s carousel every position where a game entered one of its stages
/// ([`fill_pools`]), the games seeded from `seed` and the games the network has
/// trained ([`pools_seed`]).
///
/// Returns `false`, with the pools unchanged, when `stop` was set before every game
/// ended.
pub(super) fn fill_net_pools(
    net: &mut NTupleNetwork,
    (player, games): &(PlayerSpec, u64),
    seed: u64,
    threads: usize,
    rules: Rules,
    stop: &AtomicBool,
    out: &mut impl Write,
) -> Result<bool> {
    let mut carousel = net.carousel().cloned().expect("checked by pools_player");
    let config = BenchConfig {
        games: *games,
        seed: pools_seed(seed, net.games()),
        jobs: threads.max(1),
        rules,
        ..BenchConfig::new(player.clone())
    };
    writeln!(
        out,
        "filling the carousel's pools from {games} games of {player}"
    )?;
    out.flush()?;
    if !fill_pools(&mut carousel, &config, stop).map_err(|e| anyhow!("--pools-by: {e}"))? {
        return Ok(false);
    }
    writeln!(out, "carousel pools: {carousel}")?;
    net.set_carousel(Some(carousel));
    Ok(true)
}
