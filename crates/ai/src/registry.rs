//! Players by name, with their options: the one place front ends create players.

use core::fmt;
use core::str::FromStr;

use crate::search::{Expectimax, ExpectimaxConfig, GreedyPlayer, RandomPlayer};
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

/// Every player, the default first.
pub const PLAYERS: &[PlayerInfo] = &[
    PlayerInfo {
        name: "expectimax",
        about: "expectimax over every spawn, with a transposition table and pruning",
        options: &[
            ("depth", "chance layers below the root move (default: from the board)"),
            ("prune", "skip chance branches less likely than this (default 0.0001; 0 = off)"),
            ("tt-mb", "transposition table size in MiB (default 64; 0 = off)"),
            ("p4", "the probability of a 4 the search assumes (default 0.1)"),
        ],
    },
    PlayerInfo {
        name: "greedy",
        about: "the best move after one ply on a simple evaluation",
        options: &[],
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
        if !info.options.iter().any(|(k, _)| k == key) {
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
        "greedy" => Box::new(GreedyPlayer::default()),
        "expectimax" => Box::new(Expectimax::new(expectimax_config(spec)?)),
        other => unreachable!("player {other} listed but not built"),
    })
}

/// Reads option `key` of `spec` as a `T`, or `None` when absent.
fn parse_option<T: FromStr>(spec: &PlayerSpec, key: &str, what: &str) -> Result<Option<T>, PlayerError> {
    spec.option(key)
        .map(|v| {
            v.parse().map_err(|_| {
                PlayerError(format!(
                    "player {} option {key}: {v:?} is not {what}",
                    spec.name
                ))
            })
        })
        .transpose()
}

fn expectimax_config(spec: &PlayerSpec) -> Result<ExpectimaxConfig, PlayerError> {
    let mut config = ExpectimaxConfig::default();
    let bad = |msg: String| PlayerError(format!("player {} option {msg}", spec.name));
    if let Some(depth) = parse_option::<u32>(spec, "depth", "a depth (0 to 20)")? {
        if depth > 20 {
            return Err(bad(format!("depth: {depth} is above 20")));
        }
        config.depth = Some(depth);
    }
    if let Some(p) = parse_option::<f32>(spec, "prune", "a probability")? {
        if !(0.0..=1.0).contains(&p) {
            return Err(bad(format!("prune: {p} is not from 0 to 1")));
        }
        config.min_probability = p;
    }
    if let Some(mb) = parse_option::<usize>(spec, "tt-mb", "a size in MiB")? {
        if mb > 16 * 1024 {
            return Err(bad(format!("tt-mb: {mb} is above 16384")));
        }
        config.tt_slots = mb * (1 << 20) / 16;
    }
    if let Some(p) = parse_option::<f32>(spec, "p4", "a probability")? {
        if !(0.0..=1.0).contains(&p) {
            return Err(bad(format!("p4: {p} is not from 0 to 1")));
        }
        config.four_probability = p;
    }
    Ok(config)
}
