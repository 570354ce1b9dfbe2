//! A player's name and options as a user writes them, and the error of a player that
//! cannot be created.

use core::fmt;
use core::str::FromStr;

use super::PLAYERS;

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
            _ => Err(PlayerError::Syntax(format!(
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
            return Err(PlayerError::Syntax("empty player name".to_owned()));
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

/// A player that cannot be created: a malformed spec, an unknown name, an unknown
/// option, or an option with a bad value.
///
/// ```
/// use ai2048_ai::{create_player, PlayerError};
/// let err = create_player(&"greedy:depth=3".parse()?, 0).err().unwrap();
/// assert!(matches!(&err, PlayerError::UnknownOption { player, key } if player == "greedy" && key == "depth"));
/// assert!(err.to_string().starts_with("player greedy has no option \"depth\""));
/// # Ok::<(), PlayerError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum PlayerError {
    /// The text of a spec is malformed: an empty name, or an option that is not
    /// `KEY=VALUE`. The message says which.
    Syntax(String),
    /// No player has this name.
    UnknownPlayer {
        /// The name asked for.
        name: String,
    },
    /// The player has no option of this name.
    UnknownOption {
        /// The player's name.
        player: String,
        /// The option asked for.
        key: String,
    },
    /// An option of the player has a value it cannot take.
    BadOption {
        /// The player's name.
        player: String,
        /// The option.
        key: String,
        /// What is wrong with its value.
        reason: String,
    },
}

impl PlayerError {
    /// A [`PlayerError::BadOption`] of `spec`'s player.
    pub(crate) fn bad_option(
        spec: &PlayerSpec,
        key: &str,
        reason: impl Into<String>,
    ) -> PlayerError {
        PlayerError::BadOption {
            player: spec.name.clone(),
            key: key.to_owned(),
            reason: reason.into(),
        }
    }
}

impl fmt::Display for PlayerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayerError::Syntax(message) => f.write_str(message),
            PlayerError::UnknownPlayer { name } => {
                let names: Vec<_> = PLAYERS.iter().map(|p| p.name).collect();
                write!(
                    f,
                    "unknown player {name:?}: expected one of {}",
                    names.join(", ")
                )
            }
            PlayerError::UnknownOption { player, key } => {
                let known: Vec<_> = PLAYERS
                    .iter()
                    .filter(|p| p.name == player)
                    .flat_map(|p| p.options.iter().map(|(k, _)| *k))
                    .collect();
                write!(f, "player {player} has no option {key:?}")?;
                if known.is_empty() {
                    f.write_str(" (it takes none)")
                } else {
                    write!(f, ": expected one of {}", known.join(", "))
                }
            }
            PlayerError::BadOption {
                player,
                key,
                reason,
            } => write!(f, "player {player} option {key}: {reason}"),
        }
    }
}

impl std::error::Error for PlayerError {}
