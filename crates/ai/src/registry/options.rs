//! Player options: from `KEY=VALUE` text to each player's settings, with errors that
//! name the player, the option and what was expected.

use core::str::FromStr;

use crate::search::{
    ExpectimaxConfig, MctsConfig, MctsMode, MinimaxConfig, Playout, Replica, ReplicaConfig,
};
use crate::{PlayerError, PlayerSpec, SearchLimits};

/// Reads option `key` of `spec` as a `T`, or `None` when absent.
pub(crate) fn parse_option<T: FromStr>(
    spec: &PlayerSpec,
    key: &str,
    what: &str,
) -> Result<Option<T>, PlayerError> {
    spec.option(key)
        .map(|v| {
            v.parse()
                .map_err(|_| PlayerError::bad_option(spec, key, format!("{v:?} is not {what}")))
        })
        .transpose()
}

/// Reads option `key` as a tile from 2 to 131072, giving its exponent.
pub(crate) fn tile_option(spec: &PlayerSpec, key: &str) -> Result<Option<u8>, PlayerError> {
    read_tile(spec, key, false)
}

/// Reads option `key` as a tile from 2 to 131072, giving its exponent, or 0 for none
/// (an option whose tile a player may have by default, as the formation player's
/// `bank-early`, and which a spec turns off).
fn tile_or_none_option(spec: &PlayerSpec, key: &str) -> Result<Option<u8>, PlayerError> {
    read_tile(spec, key, true)
}

/// Reads option `key` as a tile's exponent; with `zero_is_none`, 0 too (for none).
fn read_tile(spec: &PlayerSpec, key: &str, zero_is_none: bool) -> Result<Option<u8>, PlayerError> {
    let what = if zero_is_none {
        "a tile from 2 to 131072, or 0 for none"
    } else {
        "a tile from 2 to 131072"
    };
    let Some(tile) = parse_option::<u32>(spec, key, what)? else {
        return Ok(None);
    };
    match ai2048_engine::exponent_of_tile(tile.into()) {
        Ok(0) if zero_is_none => Ok(Some(0)),
        Ok(e) if e > 0 => Ok(Some(e)),
        _ => Err(PlayerError::bad_option(
            spec,
            key,
            format!("{tile} is not {what}"),
        )),
    }
}

/// Reads option `key` as a weight: a finite number of 0 or more, 0 when absent.
pub(crate) fn weight_option(spec: &PlayerSpec, key: &str) -> Result<f64, PlayerError> {
    let what = "a weight of 0 or more";
    let weight = parse_option::<f64>(spec, key, what)?.unwrap_or(0.0);
    if weight >= 0.0 && weight.is_finite() {
        Ok(weight)
    } else {
        Err(PlayerError::bad_option(
            spec,
            key,
            format!("{weight} is not {what}"),
        ))
    }
}

/// Reads option `key` as a number within `range`.
fn ranged<T>(
    spec: &PlayerSpec,
    key: &str,
    what: &str,
    range: core::ops::RangeInclusive<T>,
) -> Result<Option<T>, PlayerError>
where
    T: FromStr + PartialOrd + core::fmt::Display,
{
    match parse_option::<T>(spec, key, what)? {
        Some(v) if !range.contains(&v) => Err(PlayerError::bad_option(
            spec,
            key,
            format!("{v} is not from {} to {}", range.start(), range.end()),
        )),
        v => Ok(v),
    }
}

/// The settings of `expectimax` from its options.
pub(crate) fn expectimax_config(spec: &PlayerSpec) -> Result<ExpectimaxConfig, PlayerError> {
    let mut config = ExpectimaxConfig::default();
    if let Some(depth) = ranged(spec, "depth", "a depth", 0..=SearchLimits::MAX_DEPTH)? {
        config.depth = Some(depth);
    }
    if spec.option("prune") == Some("depth") {
        config.prune_by_depth = true;
    } else if let Some(p) = ranged(spec, "prune", "a probability or depth", 0.0..=1.0)? {
        config.min_probability = p;
    }
    if let Some(mb) = ranged::<usize>(spec, "tt-mb", "a size in MiB", 0..=16 * 1024)? {
        config.tt_slots = mb * (1 << 20) / 16;
    }
    if let Some(kb) = ranged::<usize>(spec, "leaf-kb", "a size in KiB", 0..=1 << 20)? {
        config.leaf_slots = kb * (1 << 10) / 16;
    }
    if let Some(p) = ranged(spec, "p4", "a probability", 0.0..=1.0)? {
        config.four_probability = p;
    }
    if let Some(learn) = parse_option(spec, "learn-p4", "true or false")? {
        config.learn_four_probability = learn;
    }
    let max_ms = SearchLimits::MAX_TIME.as_millis() as u64;
    if let Some(ms) = ranged::<u64>(spec, "time-ms", "a time in milliseconds", 0..=max_ms)? {
        config.default_time = std::time::Duration::from_millis(ms);
    }
    if let Some(threads) = ranged(spec, "threads", "a number of threads", 1..=256)? {
        config.threads = threads;
    }
    if let Some(bank) = parse_option(spec, "time-bank", "true or false")? {
        config.time_bank = bank;
    }
    if let Some(sum) = ranged(spec, "bank-by-sum", "a tile sum", 0..=1 << 21)? {
        config.bank_by_sum = sum;
    }
    if let Some(e) = tile_or_none_option(spec, "bank-early")? {
        config.bank_early = e;
    }
    if let Some(e) = tile_or_none_option(spec, "bank-feedback")? {
        config.bank_feedback = e;
    }
    if let Some(sum) = ranged(spec, "plan-sum", "a tile sum", 0..=1 << 21)? {
        config.time_plan.horizon_sum = sum;
    }
    if let Some(moves) = ranged(spec, "plan-moves", "a number of moves", 1..=1_000_000)? {
        config.time_plan.min_moves = moves;
    }
    if let Some(depth) = ranged(spec, "plan-depth", "a depth", 0..=SearchLimits::MAX_DEPTH)? {
        config.plan_depth = depth;
    }
    if let Some(growth) = ranged(spec, "growth", "a factor", 1.0..=1000.0)? {
        config.depth_growth = growth;
    }
    if let Some(cut) = parse_option(spec, "cut", "true or false")? {
        config.cut = cut;
    }
    if let Some(e) = tile_option(spec, "cut-from")? {
        config.cut_from = e;
    }
    if let Some(depth) = ranged(spec, "min-depth", "a depth", 0..=SearchLimits::MAX_DEPTH)? {
        config.min_depth = depth;
    }
    let max_ms = SearchLimits::MAX_TIME.as_secs_f64() * 1000.0;
    if let Some(ms) = ranged::<f64>(
        spec,
        "min-depth-below",
        "a time in milliseconds",
        0.0..=max_ms,
    )? {
        config.min_depth_below = std::time::Duration::from_secs_f64(ms / 1000.0);
    }
    Ok(config)
}

/// The settings of `minimax` from its options.
pub(crate) fn minimax_config(spec: &PlayerSpec) -> Result<MinimaxConfig, PlayerError> {
    let mut config = MinimaxConfig::default();
    if let Some(depth) = ranged(spec, "depth", "a depth", 0..=SearchLimits::MAX_DEPTH)? {
        config.depth = Some(depth);
    }
    if let Some(prune) = parse_option(spec, "prune", "true or false")? {
        config.pruning = prune;
    }
    if let Some(order) = parse_option(spec, "order", "true or false")? {
        config.ordering = order;
    }
    Ok(config)
}

/// The settings of `mcts` from its options.
pub(crate) fn mcts_config(spec: &PlayerSpec) -> Result<MctsConfig, PlayerError> {
    let mut config = MctsConfig::default();
    let bad = |key: &str, v: &str, what: &str| {
        PlayerError::bad_option(spec, key, format!("{v:?} is not {what}"))
    };
    let mode = spec.option("mode").unwrap_or("flat");
    config.mode = match mode {
        "flat" => MctsMode::Flat {
            playouts: ranged(spec, "playouts", "a count", 1..=1_000_000)?.unwrap_or(100),
        },
        "uct" => MctsMode::Uct {
            iterations: ranged(spec, "iterations", "a count", 1..=100_000_000)?.unwrap_or(1000),
            exploration: ranged(spec, "c", "a number", 0.0..=100.0)?.unwrap_or(0.5),
        },
        other => return Err(bad("mode", other, "flat or uct")),
    };
    config.playout = match spec.option("playout").unwrap_or("random") {
        "random" => Playout::Random,
        "greedy" => Playout::Greedy,
        other => return Err(bad("playout", other, "random or greedy")),
    };
    config.max_playout_moves = ranged(spec, "cut", "a number of moves", 0..=1_000_000)?;
    if let Some(p) = ranged(spec, "p4", "a probability", 0.0..=1.0)? {
        config.four_probability = p;
    }
    Ok(config)
}

/// The most leaves `replica` may be asked to keep: about 128 MiB of boards at its
/// peak, two levels of the tree.
pub(crate) const MAX_REPLICA_LEAVES: usize = 2_000_000;

/// The largest pseudo-count of the replica's Beta prior: a million spawns.
const MAX_PRIOR: f64 = 1e6;

/// The settings of `replica` from its options, but its utility's exponents (the
/// `w.NAME` options, read as the evaluation `cobb-douglas` reads them).
pub(crate) fn replica_config(spec: &PlayerSpec) -> Result<ReplicaConfig, PlayerError> {
    let mut config = ReplicaConfig::default();
    if let Some(depth) = ranged(spec, "depth", "a depth", 0..=Replica::MAX_DEPTH)? {
        config.depth = depth;
    }
    if let Some(n) = ranged(spec, "leaves", "a count", 1..=MAX_REPLICA_LEAVES)? {
        config.max_leaves = n;
    }
    let prior = |key: &str| match parse_option::<f64>(spec, key, "a number")? {
        Some(x) if !(x > 0.0 && x <= MAX_PRIOR) => Err(PlayerError::bad_option(
            spec,
            key,
            format!("{x} is not above 0 and at most {MAX_PRIOR}"),
        )),
        x => Ok(x),
    };
    let (fours, twos) = config.prior;
    config.prior = (
        prior("prior4")?.unwrap_or(fours),
        prior("prior2")?.unwrap_or(twos),
    );
    Ok(config)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tile_of_0_turns_off_an_option_set_before_it() {
        // As the formation player's options come before a spec's own.
        let spec = "expectimax:bank-early=2048,bank-feedback=16384,bank-early=0,bank-feedback=0";
        let config = expectimax_config(&spec.parse().unwrap()).unwrap();
        assert_eq!((config.bank_early, config.bank_feedback), (0, 0));
        let spec = "expectimax:bank-early=2048,bank-feedback=16384";
        let config = expectimax_config(&spec.parse().unwrap()).unwrap();
        assert_eq!((config.bank_early, config.bank_feedback), (11, 14));
    }
}
