//! A player's name and options as a user writes them, and the error of a player that
//! cannot be created.

use core::fmt;
use core::str::FromStr;

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
