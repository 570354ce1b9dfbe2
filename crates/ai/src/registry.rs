//! Players by name, with their options: the one place front ends create players.

use core::fmt;
use core::str::FromStr;
use std::path::Path;
use std::sync::Arc;

use crate::eval::{EvalConfig, EvalError, Evaluator};
use crate::ntuple::NTupleNetwork;
use crate::options::{expectimax_config, mcts_config, minimax_config, parse_option};
use crate::search::{Expectimax, GreedyPlayer, Mcts, Minimax, RandomPlayer};
use crate::Player;

/// A player's name and options, as a user writes them: `greedy`, or
/// `NAME:KEY=VALUE,KEY=VALUE`.
///
/// ```
/// use ai2048_ai::PlayerSpec;
/// let spec: PlayerSpec = "expectimax:depth=3,eval=snake".parse()?;
/// assert_eq!(spec.name, "expectimax");
/// assert_eq!(spec.option("depth"), Some("3"));
/// assert!("greedy:depth".parse::<PlayerSpec>().is_err());
/// # Ok::<(), ai2048_ai::PlayerError>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PlayerSpec {
    /// The player's name.
    pub name: String,
    /// Its options, in the order given.
    pub options: Vec<(String, String)>,
}

impl PlayerSpec {
    /// A spec with no options.
    #[must_use]
    pub fn new(name: &str) -> PlayerSpec {
        PlayerSpec {
            name: name.to_owned(),
            options: Vec::new(),
        }
    }

    /// The last value given for `key`.
    #[must_use]
    pub fn option(&self, key: &str) -> Option<&str> {
        self.options
            .iter()
            .rev()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    /// Adds an option written `KEY=VALUE`.
    ///
    /// # Errors
    ///
    /// When the text has no `=` or an empty key.
    pub fn push_option(&mut self, text: &str) -> Result<(), PlayerError> {
        match text.split_once('=') {
            Some((k, v)) if !k.trim().is_empty() => {
                self.options
                    .push((k.trim().to_owned(), v.trim().to_owned()));
                Ok(())
            }
            _ => Err(PlayerError(format!(
                "player option {text:?} is not KEY=VALUE"
            ))),
        }
    }
}

impl FromStr for PlayerSpec {
    type Err = PlayerError;

    fn from_str(s: &str) -> Result<PlayerSpec, PlayerError> {
        let (name, opts) = s.split_once(':').unwrap_or((s, ""));
        let name = name.trim();
        if name.is_empty() {
            return Err(PlayerError("empty player name".to_owned()));
        }
        let mut spec = PlayerSpec::new(name);
        for opt in opts.split(',').filter(|o| !o.trim().is_empty()) {
            spec.push_option(opt)?;
        }
        Ok(spec)
    }
}

impl fmt::Display for PlayerSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name)?;
        for (i, (k, v)) in self.options.iter().enumerate() {
            write!(f, "{}{k}={v}", if i == 0 { ':' } else { ',' })?;
        }
        Ok(())
    }
}

/// A player that cannot be created: an unknown name or a bad option.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayerError(pub String);

impl fmt::Display for PlayerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for PlayerError {}

/// What a front end can tell users about a player.
#[derive(Clone, Copy, Debug)]
pub struct PlayerInfo {
    /// The name to create it by.
    pub name: &'static str,
    /// One line on what it does.
    pub about: &'static str,
    /// Its options, as `(key, what it does)`.
    pub options: &'static [(&'static str, &'static str)],
}

/// A player's options followed by those of its evaluation (see [`crate::eval`]), with
/// the evaluation's default: `with_eval_options!("heuristic", ("depth", "..."), ...)`.
/// A player that evaluates boards lists these and builds its evaluation with
/// [`evaluator`].
macro_rules! with_eval_options {
    ($default:literal $(, ($key:expr, $about:expr))* $(,)?) => {
        [
            $(($key, $about),)*
            (
                "eval",
                concat!(
                    "the evaluation (default: the built-in network when the build has one, else ",
                    $default,
                    "): network, heuristic, simple, corner, snake, diagonal, weighted, ",
                    "cobb-douglas, empty, smoothness, monotonicity, merges"
                ),
            ),
            (
                "weights",
                "a JSON weights file for the evaluation (it may name the eval)",
            ),
            (
                "symmetric",
                "true: a matrix eval takes the best of the 8 symmetries of the board",
            ),
            (
                "w.NAME",
                "sets one weight of the evaluation, e.g. w.empty=300 (after the file)",
            ),
            (
                "network",
                "an n-tuple network file (ai2048 train) as the evaluation, instead of eval and weights",
            ),
        ]
    };
}

/// Every player, the default first.
pub const PLAYERS: &[PlayerInfo] = &[
    PlayerInfo {
        name: "expectimax",
        about: "expectimax over every spawn, with a transposition table and pruning",
        options: &with_eval_options!(
            "heuristic",
            (
                "depth",
                "chance layers below the root move (default: deepen within time-ms)"
            ),
            (
                "prune",
                "skip chance branches less likely than this (default 0.0001; 0 = off)"
            ),
            (
                "tt-mb",
                "transposition table size in MiB (default 64; 0 = off)"
            ),
            (
                "p4",
                "the probability of a 4 the search assumes (default 0.1)"
            ),
            (
                "learn-p4",
                "true: estimate the probability of a 4 from the spawns seen (default false)"
            ),
            (
                "time-ms",
                "time per move when --time-ms and --depth are not given (default 5)"
            ),
            ("threads", "threads searching each move (default 1)"),
            (
                "time-bank",
                "true: time a move leaves unused under --time-ms goes to later moves (default false)"
            ),
            (
                "plan-sum",
                "with a game clock (bench --timeout): plan its time for a game reaching this tile sum (default 30000; 0 = off)"
            ),
            (
                "plan-moves",
                "with a game clock: keep time for at least this many moves (default 2500)"
            ),
        ),
    },
    PlayerInfo {
        name: "minimax",
        about: "alpha-beta minimax, with the tile placer as the adversary",
        options: &with_eval_options!(
            "heuristic",
            (
                "depth",
                "adversary layers below the root move (default 3, or deepening under --time-ms)"
            ),
            ("prune", "true: alpha-beta pruning (default true)"),
            ("order", "true: move ordering (default true)"),
        ),
    },
    PlayerInfo {
        name: "mcts",
        about: "Monte Carlo: flat playouts per move, or UCT",
        options: &with_eval_options!(
            "heuristic",
            ("mode", "flat or uct (default flat)"),
            ("playouts", "flat: playouts per legal move (default 100)"),
            ("iterations", "uct: descents per move (default 1000)"),
            ("c", "uct: the exploration constant (default 0.5)"),
            ("playout", "random or greedy (default random)"),
            (
                "cut",
                "end playouts after this many moves and evaluate (default: play out)"
            ),
            ("p4", "the probability of a 4 playouts draw (default 0.1)"),
        ),
    },
    PlayerInfo {
        name: "greedy",
        about: "the best move after one ply on an evaluation (default simple)",
        options: &with_eval_options!("simple"),
    },
    PlayerInfo {
        name: "random",
        about: "a uniformly random legal move",
        options: &[],
    },
];

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
        .ok_or_else(|| {
            let names: Vec<_> = PLAYERS.iter().map(|p| p.name).collect();
            PlayerError(format!(
                "unknown player {:?}: expected one of {}",
                spec.name,
                names.join(", ")
            ))
        })?;
    for (key, _) in &spec.options {
        if !info.options.iter().any(|(k, _)| option_matches(k, key)) {
            let known: Vec<_> = info.options.iter().map(|(k, _)| *k).collect();
            return Err(PlayerError(format!(
                "player {} has no option {key:?}{}",
                info.name,
                if known.is_empty() {
                    " (it takes none)".to_owned()
                } else {
                    format!(": expected one of {}", known.join(", "))
                }
            )));
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

/// Whether the option `key` is the option `known` lists (as [`PlayerInfo::options`]
/// writes it): the same key, or, when `known` is written `PREFIX.NAME`, any key
/// `PREFIX.X` with a nonempty `X`.
///
/// ```
/// use ai2048_ai::option_matches;
/// assert!(option_matches("depth", "depth"));
/// assert!(option_matches("w.NAME", "w.empty"));
/// assert!(!option_matches("w.NAME", "w."));
/// assert!(!option_matches("depth", "dpeth"));
/// ```
#[must_use]
pub fn option_matches(known: &str, key: &str) -> bool {
    match known.strip_suffix(".NAME") {
        Some(prefix) => key
            .strip_prefix(prefix)
            .and_then(|rest| rest.strip_prefix('.'))
            .is_some_and(|name| !name.is_empty()),
        None => known == key,
    }
}

/// The evaluation the options of `spec` describe, `default_eval` when they name none:
///
/// - `weights=FILE` loads a weights file, which names its evaluation;
/// - `eval=NAME` names the evaluation (it must agree with the file's, if both);
/// - `symmetric=true` makes a matrix evaluation symmetric;
/// - `w.NAME=VALUE` sets one weight, after the file.
fn eval_config(spec: &PlayerSpec, default_eval: &str) -> Result<EvalConfig, PlayerError> {
    let bad =
        |key: &str, e: EvalError| PlayerError(format!("player {} option {key}: {e}", spec.name));
    let file = spec
        .option("weights")
        .map(|path| EvalConfig::load(Path::new(path)))
        .transpose()
        .map_err(|e| bad("weights", e))?;
    let mut config = match (spec.option("eval"), file) {
        (Some(name), Some(file)) if name != file.name() => {
            return Err(PlayerError(format!(
                "player {} option eval: {name} does not match the weights file {}, which is for eval {}",
                spec.name,
                spec.option("weights").unwrap_or_default(),
                file.name()
            )))
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
                PlayerError(format!(
                    "player {} option {key}: {value:?} is not a number",
                    spec.name
                ))
            })?;
            config.set(name, x).map_err(|e| bad(key, e))?;
        }
    }
    Ok(config)
}

/// The name `eval=` gives the built-in network ([`crate::ntuple::builtin`]).
pub const BUILTIN_EVAL: &str = "network";

/// The evaluation of a player that evaluates boards: the n-tuple network its option
/// `network` names, which excludes the others; else the built-in network when its
/// option `eval` is [`BUILTIN_EVAL`], or when it names no evaluation at all (no
/// `eval`, `weights`, `symmetric` or `w.NAME`) and the build has a network; else
/// the evaluation those options describe (see [`eval_config`]; list them with
/// `with_eval_options!`), `default_eval` when they name none.
fn evaluator(spec: &PlayerSpec, default_eval: &str) -> Result<Arc<dyn Evaluator>, PlayerError> {
    let eval_option =
        |k: &str| ["eval", "weights", "symmetric"].contains(&k) || k.starts_with("w.");
    let Some(path) = spec.option("network") else {
        let named = spec.option("eval");
        let unnamed = !spec.options.iter().any(|(k, _)| eval_option(k));
        if named == Some(BUILTIN_EVAL) {
            if let Some((key, _)) = spec
                .options
                .iter()
                .find(|(k, _)| eval_option(k) && k != "eval")
            {
                return Err(PlayerError(format!(
                    "player {} option {key}: the built-in network takes no weights",
                    spec.name
                )));
            }
            return crate::ntuple::builtin().map(|n| n as Arc<dyn Evaluator>).ok_or_else(|| {
                PlayerError(format!(
                    "player {} option eval: this build has no built-in network (it embeds nets/default.np when it is there); give network=FILE",
                    spec.name
                ))
            });
        }
        if unnamed {
            if let Some(net) = crate::ntuple::builtin() {
                return Ok(net);
            }
        }
        return Ok(eval_config(spec, default_eval)?.build());
    };
    if let Some((key, _)) = spec.options.iter().find(|(k, _)| eval_option(k)) {
        return Err(PlayerError(format!(
            "player {} option {key}: the network is the evaluation; give network or {key}, not both",
            spec.name
        )));
    }
    let net = NTupleNetwork::shared(Path::new(path)).map_err(|e| {
        PlayerError(format!(
            "player {} option network: cannot load {path}: {e}",
            spec.name
        ))
    })?;
    Ok(net)
}
