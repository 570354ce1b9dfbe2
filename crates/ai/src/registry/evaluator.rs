//! The evaluation of a player that evaluates boards, from its options: a network file,
//! the built-in network, or a hand-made evaluation with its weights.

use std::path::Path;
use std::sync::Arc;

use crate::eval::{Blend, EvalConfig, EvalError, Evaluator};
use crate::ntuple::{Ceiling, NTupleNetwork};

use super::options::{parse_option, tile_option, weight_option};
use super::{PlayerError, PlayerSpec};

/// The evaluation the options of `spec` describe, `default_eval` when they name none:
///
/// - `weights=FILE` loads a weights file, which names its evaluation;
/// - `eval=NAME` names the evaluation (it must agree with the file's, if both);
/// - `symmetric=true` makes a matrix evaluation symmetric;
/// - `w.NAME=VALUE` sets one weight, after the file.
pub(super) fn eval_config(
    spec: &PlayerSpec,
    default_eval: &str,
) -> Result<EvalConfig, PlayerError> {
    let bad = |key: &str, e: EvalError| PlayerError::bad_option(spec, key, e.to_string());
    let file = spec
        .option("weights")
        .map(|path| EvalConfig::load(Path::new(path)))
        .transpose()
        .map_err(|e| bad("weights", e))?;
    let mut config = match (spec.option("eval"), file) {
        (Some(name), Some(file)) if name != file.name() => {
            return Err(PlayerError::bad_option(
                spec,
                "eval",
                format!(
                    "{name} does not match the weights file {}, which is for eval {}",
                    spec.option("weights").unwrap_or_default(),
                    file.name()
                ),
            ))
        }
        (_, Some(file)) => file,
        (name, None) => {
            EvalConfig::new(name.unwrap_or(default_eval)).map_err(|e| bad("eval", e))?
        }
    };
    if let Some(symmetric) = parse_option::<bool>(spec, "symmetric", "true or false")? {
        config
            .set_symmetric(symmetric)
            .map_err(|e| bad("symmetric", e))?;
    }
    for (key, value) in &spec.options {
        if let Some(name) = key.strip_prefix("w.") {
            let x: f64 = value.parse().map_err(|_| {
                PlayerError::bad_option(spec, key, format!("{value:?} is not a number"))
            })?;
            config.set(name, x).map_err(|e| bad(key, e))?;
        }
    }
    Ok(config)
}

/// Whether option `key` describes a hand-made evaluation: `eval`, `weights`,
/// `symmetric` or `w.NAME`.
fn is_eval_option(key: &str) -> bool {
    ["eval", "weights", "symmetric"].contains(&key) || key.starts_with("w.")
}

/// Whether `spec` names its evaluation: an evaluation's option, or a network's
/// (`network`, `ceiling`).
pub(super) fn names_evaluation(spec: &PlayerSpec) -> bool {
    spec.options
        .iter()
        .any(|(k, _)| is_eval_option(k) || k == "network" || k == "ceiling")
}

/// The name `eval=` gives the built-in network ([`crate::ntuple::builtin`]).
pub(crate) const BUILTIN_EVAL: &str = "network";

/// The ceiling the built-in network plays under when the player names none (see
/// [`Ceiling`]): its own, 32768. It has learned next to nothing of 32768 (`ai2048 net
/// info`), but a lower ceiling measured no better (docs/experiments.md).
pub(crate) const BUILTIN_CEILING: u32 = 32768;

/// The evaluation of a player that evaluates boards: the n-tuple network its option
/// `network` names, which excludes the others; else the built-in network when its
/// option `eval` is [`BUILTIN_EVAL`], or when it names no evaluation at all (no
/// `eval`, `weights`, `symmetric` or `w.NAME`) and the build has a network; else
/// the evaluation those options describe (see [`eval_config`]; list them with
/// `with_eval_options!`), `default_eval` when they name none; with the built-in
/// network's value added where the option `blend` asks for it, in searches from a
/// board holding the tile of the option `blend-from` (default: every board).
pub(super) fn evaluator(
    spec: &PlayerSpec,
    default_eval: &str,
) -> Result<Arc<dyn Evaluator>, PlayerError> {
    blended(spec, named_evaluator(spec, default_eval)?)
}

/// [`evaluator`] before the option `blend`.
fn named_evaluator(
    spec: &PlayerSpec,
    default_eval: &str,
) -> Result<Arc<dyn Evaluator>, PlayerError> {
    let Some(path) = spec.option("network") else {
        let named = spec.option("eval");
        let unnamed = !spec.options.iter().any(|(k, _)| is_eval_option(k));
        if named == Some(BUILTIN_EVAL) {
            if let Some((key, _)) = spec
                .options
                .iter()
                .find(|(k, _)| is_eval_option(k) && k != "eval")
            {
                return Err(PlayerError::bad_option(
                    spec,
                    key,
                    "the built-in network takes no weights",
                ));
            }
            let net = crate::ntuple::builtin().ok_or_else(|| {
                PlayerError::bad_option(
                    spec,
                    "eval",
                    "this build has no built-in network (it embeds nets/default.np when it is there); give network=FILE",
                )
            })?;
            return under_ceiling(spec, net, BUILTIN_CEILING);
        }
        if unnamed {
            if let Some(net) = crate::ntuple::builtin() {
                return under_ceiling(spec, net, BUILTIN_CEILING);
            }
        }
        if spec.option("ceiling").is_some() {
            return Err(PlayerError::bad_option(
                spec,
                "ceiling",
                "only a network is read under a ceiling, and this evaluation is not one",
            ));
        }
        return Ok(eval_config(spec, default_eval)?.build());
    };
    if let Some((key, _)) = spec.options.iter().find(|(k, _)| is_eval_option(k)) {
        return Err(PlayerError::bad_option(
            spec,
            key,
            format!("the network is the evaluation; give network or {key}, not both"),
        ));
    }
    under_ceiling(spec, network_file(spec, "network", path)?, 32768)
}

/// The network in the file `path` that option `key` names, shared by every player of
/// the process; an error names the option and the file.
fn network_file(
    spec: &PlayerSpec,
    key: &str,
    path: &str,
) -> Result<Arc<NTupleNetwork>, PlayerError> {
    NTupleNetwork::shared(Path::new(path))
        .map_err(|e| PlayerError::bad_option(spec, key, format!("cannot load {path}: {e}")))
}

/// `eval` with a network's value added, times the option `blend`, where the option
/// asks for it ([`Blend`]): the network of the option `blend-network`, else the
/// built-in one; else `eval` as it is.
fn blended(spec: &PlayerSpec, eval: Arc<dyn Evaluator>) -> Result<Arc<dyn Evaluator>, PlayerError> {
    let weight = weight_option(spec, "blend")?;
    let from = tile_option(spec, "blend-from")?;
    let file = spec.option("blend-network");
    if weight == 0.0 {
        let needs = |key: &str, what: &str| {
            Err(PlayerError::bad_option(
                spec,
                key,
                format!("{what}, and needs blend=W above 0"),
            ))
        };
        return match (from, file) {
            (Some(_), _) => needs("blend-from", "says from which tile the network joins in"),
            (None, Some(_)) => needs("blend-network", "names the network to blend"),
            (None, None) => Ok(eval),
        };
    }
    let net = match file {
        Some(path) => network_file(spec, "blend-network", path)?,
        None => crate::ntuple::builtin().ok_or_else(|| {
            PlayerError::bad_option(
                spec,
                "blend",
                "this build has no built-in network to blend (it embeds nets/default.np when it is there); give blend-network=FILE",
            )
        })?,
    };
    let blend = Blend::new(eval, net, weight).joining_from(from.map_or(1, |e| 1 << e));
    Ok(Arc::new(blend))
}

/// The network under the ceiling the option `ceiling` names (see [`Ceiling`]),
/// `default` when it names none; as it is under 32768, the network's own.
fn under_ceiling(
    spec: &PlayerSpec,
    net: Arc<NTupleNetwork>,
    default: u32,
) -> Result<Arc<dyn Evaluator>, PlayerError> {
    let what = "a tile from 4 to 32768";
    match parse_option::<u32>(spec, "ceiling", what)?.unwrap_or(default) {
        32768 => Ok(net),
        tile => match Ceiling::new(net, tile) {
            Some(ceiling) => Ok(Arc::new(ceiling)),
            None => Err(PlayerError::bad_option(
                spec,
                "ceiling",
                format!("{tile} is not {what}"),
            )),
        },
    }
}

#[cfg(test)]
mod tests {
    use ai2048_engine::Board;

    use crate::eval::{Blend, Evaluator, Lines};
    use crate::{create_player, PlayerSpec, SearchLimits};

    fn eval_of(text: &str) -> std::sync::Arc<dyn Evaluator> {
        let spec: PlayerSpec = text.parse().unwrap();
        super::evaluator(&spec, "heuristic").unwrap()
    }

    #[test]
    fn blend_adds_the_networks_value_to_the_evaluation() {
        let board: Board = "1024 512 256 0/512 256 0 0/0 0 0 0/0 0 0 2"
            .parse()
            .unwrap();
        let lines = eval_of("expectimax:eval=lines");
        assert!(
            lines.downcast_ref::<Lines>().is_some(),
            "no blend by default"
        );
        let zero = eval_of("expectimax:eval=lines,blend=0");
        assert!(zero.downcast_ref::<Lines>().is_some(), "blend=0 is off");
        let Some(net) = crate::ntuple::builtin() else {
            let spec = "expectimax:eval=lines,blend=1".parse().unwrap();
            let err = create_player(&spec, 0).err().unwrap().to_string();
            assert!(err.contains("no built-in network"), "{err}");
            return;
        };
        let blend = eval_of("expectimax:eval=lines,blend=0.5");
        assert_eq!(blend.downcast_ref::<Blend>().map(Blend::weight), Some(0.5));
        assert_eq!(
            blend.eval(board),
            Lines::default().eval(board) + 0.5 * net.eval(board)
        );
    }

    #[test]
    fn blend_from_a_tile_searches_with_the_evaluation_alone_below_it() {
        if crate::ntuple::builtin().is_none() {
            return;
        }
        let blend = eval_of("expectimax:eval=lines,blend=0.5,blend-from=16384");
        assert_eq!(
            blend.downcast_ref::<Blend>().map(Blend::from_tile),
            Some(16384)
        );
        let search = |spec: &str, board: &str| {
            let spec: PlayerSpec = spec.parse().unwrap();
            let mut player = create_player(&spec, 0).unwrap();
            player.search(board.parse().unwrap(), &SearchLimits::with_depth(2))
        };
        let (lines, late, always) = (
            "expectimax:eval=lines,tables=off",
            "expectimax:eval=lines,tables=off,blend=0.5,blend-from=16384",
            "expectimax:eval=lines,tables=off,blend=0.5",
        );
        let before = "8192 4096 1024 8/512 256 64 8/0 2 2 0/0 0 2 0";
        assert_eq!(search(late, before), search(lines, before), "no 16384 yet");
        assert_ne!(search(always, before), search(lines, before));
        let after = "16384 4096 1024 8/512 256 64 8/0 2 2 0/0 0 2 0";
        assert_eq!(search(late, after), search(always, after), "a 16384");
        assert_ne!(search(late, after), search(lines, after));
    }

    #[test]
    fn a_bad_blend_weight_says_why() {
        for (bad, message) in [
            ("expectimax:blend-from=16384", "needs blend=W above 0"),
            (
                "expectimax:blend=0.1,blend-from=100",
                "100 is not a tile from 2 to 131072",
            ),
            ("expectimax:blend=-1", "-1 is not a weight of 0 or more"),
            ("greedy:blend=inf", "inf is not a weight of 0 or more"),
            ("expectimax:blend=much", "a weight of 0 or more"),
            ("random:blend=1", "has no option \"blend\""),
        ] {
            let spec: PlayerSpec = bad.parse().unwrap();
            let err = create_player(&spec, 0).err().unwrap().to_string();
            assert!(err.contains(message), "{bad}: {err}");
        }
    }
}
