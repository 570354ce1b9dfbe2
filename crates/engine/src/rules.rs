//! The rules of a game: the original ones and the variants users meet.

use core::fmt;

/// The variable rules of a game. [`Rules::default`] is the original game.
///
/// ```
/// use ai2048_engine::Rules;
/// let lab = Rules { start_tiles: 1, ..Rules::default() };
/// assert!(lab.validate().is_ok());
/// assert!(Rules { four_probability: 1.5, ..Rules::default() }.validate().is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rules {
    /// Tiles on the board when the game starts: 2 in the original game, 1 in the Rust
    /// lab of the seeds. From 1 to 16.
    pub start_tiles: u8,
    /// The probability that a spawned tile is a 4 rather than a 2: 0.1 in the original.
    pub four_probability: f64,
    /// Whether a move that changes nothing still spawns a tile, as the UCSB grader does.
    /// In the original game such a move is refused and nothing happens.
    pub illegal_move_spawns: bool,
}

impl Rules {
    /// The original game: two starting tiles, a 4 with probability 0.1, illegal moves
    /// refused.
    pub const ORIGINAL: Rules = Rules {
        start_tiles: 2,
        four_probability: 0.1,
        illegal_move_spawns: false,
    };

    /// Checks that the rules make sense.
    ///
    /// # Errors
    ///
    /// Says which field is out of range.
    pub fn validate(&self) -> Result<(), RulesError> {
        if !(1..=16).contains(&self.start_tiles) {
            return Err(RulesError(format!(
                "start tiles must be from 1 to 16, not {}",
                self.start_tiles
            )));
        }
        if !(0.0..=1.0).contains(&self.four_probability) {
            return Err(RulesError(format!(
                "the probability of a 4 must be from 0 to 1, not {}",
                self.four_probability
            )));
        }
        Ok(())
    }
}

impl Default for Rules {
    fn default() -> Rules {
        Rules::ORIGINAL
    }
}

/// Rules that make no sense, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RulesError(pub String);

impl fmt::Display for RulesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for RulesError {}
