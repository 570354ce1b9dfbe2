//! The stages of a game: a multi-stage network keeps one set of tables per stage.

use core::fmt;
use core::str::FromStr;

use ai2048_engine::Board;

/// The most stages a network may have.
pub const MAX_STAGES: usize = 8;

/// Where a network's stages begin: a board is in stage `s` when the sum of its
/// distinct tiles has reached `s` of the thresholds. For a power of two such as 16384
/// that is "the board holds a 16384 or more"; 49152 is "a 32768 and a 16384".
///
/// Late-game positions differ from early ones, and one set of tables must value both;
/// a table set per stage (Yeh et al. 2016, Guei et al. 2022) lets each learn its own.
///
/// ```
/// use ai2048_ai::ntuple::Stages;
/// use ai2048_engine::Board;
/// let stages: Stages = "16384,49152".parse()?;
/// assert_eq!(stages.count(), 3);
/// let board: Board = "32768 8192 0 0/0 0 0 0/0 0 0 0/0 0 0 2".parse()?;
/// assert_eq!(stages.of(board), 1);
/// let board: Board = "32768 16384 0 0/0 0 0 0/0 0 0 0/0 0 0 2".parse()?;
/// assert_eq!(stages.of(board), 2);
/// assert_eq!(stages.to_string(), "16384,49152");
/// assert!("16384,8192".parse::<Stages>().is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Stages {
    /// Where stages 1, 2, ... begin, increasing.
    thresholds: Vec<u32>,
}

/// Stage thresholds that cannot be used: not numbers, not increasing, or too many;
/// or stages asked of a network that has its own already.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum StagesError {
    /// This many thresholds: [`MAX_STAGES`] or more.
    TooMany(usize),
    /// A threshold that is not a tile sum from 1 to 262144.
    OutOfRange(u32),
    /// A threshold that does not increase on the one before it.
    NotIncreasing {
        /// The threshold before.
        before: u32,
        /// The threshold.
        threshold: u32,
    },
    /// Text that is not a tile sum.
    NotANumber(String),
    /// A network of these stages was asked to split: only a one-stage network does.
    AlreadyStaged(Stages),
    /// Networks were joined into stages that do not number the stages the networks
    /// bring (one each, or a staged network's own).
    PartsMismatch {
        /// The stages the networks bring.
        parts: usize,
        /// The stages asked for.
        stages: usize,
    },
    /// A staged network was joined where the joined stages do not begin where its
    /// own do.
    Misaligned {
        /// The network's place among those joined, from 1.
        part: usize,
        /// Its own stages.
        own: Stages,
        /// Where the joined stages it would fill begin after its first.
        joined: Vec<u32>,
    },
}

impl fmt::Display for StagesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StagesError::TooMany(n) => write!(
                f,
                "at most {} thresholds ({MAX_STAGES} stages), not {n}",
                MAX_STAGES - 1
            ),
            StagesError::OutOfRange(t) => {
                write!(f, "threshold {t} is not a tile sum from 1 to 262144")
            }
            StagesError::NotIncreasing { before, threshold } => {
                write!(
                    f,
                    "thresholds must increase: {threshold} comes after {before}"
                )
            }
            StagesError::NotANumber(text) => write!(f, "{text:?} is not a tile sum"),
            StagesError::AlreadyStaged(stages) => write!(
                f,
                "the network has {} stages already ({stages}); only a one-stage network splits",
                stages.count()
            ),
            StagesError::PartsMismatch { parts, stages } => write!(
                f,
                "{stages} stages need networks of {stages} stages in all, not {parts}"
            ),
            StagesError::Misaligned { part, own, joined } => {
                let joined: Vec<String> = joined.iter().map(u32::to_string).collect();
                write!(
                    f,
                    "network {part}'s own stages begin at {own}, where the joined \
                     stages it would fill begin at {}",
                    joined.join(",")
                )
            }
        }
    }
}

impl std::error::Error for StagesError {}

impl Stages {
    /// One stage: every board reads the same tables.
    #[must_use]
    pub fn one() -> Stages {
        Stages::default()
    }

    /// Stages beginning at these tile sums.
    ///
    /// # Errors
    ///
    /// When a threshold is 0 or above 2^18, they do not increase, or there are more than
    /// `MAX_STAGES - 1`.
    pub fn new(thresholds: Vec<u32>) -> Result<Stages, StagesError> {
        if thresholds.len() >= MAX_STAGES {
            return Err(StagesError::TooMany(thresholds.len()));
        }
        for (i, &t) in thresholds.iter().enumerate() {
            if t == 0 || t > 1 << 18 {
                return Err(StagesError::OutOfRange(t));
            }
            if i > 0 && t <= thresholds[i - 1] {
                return Err(StagesError::NotIncreasing {
                    before: thresholds[i - 1],
                    threshold: t,
                });
            }
        }
        Ok(Stages { thresholds })
    }

    /// The thresholds, increasing.
    #[must_use]
    pub fn thresholds(&self) -> &[u32] {
        &self.thresholds
    }

    /// The number of stages: one more than the thresholds.
    #[must_use]
    pub fn count(&self) -> usize {
        self.thresholds.len() + 1
    }

    /// The stage of `board`, from 0.
    #[inline]
    #[must_use]
    pub fn of(&self, board: Board) -> usize {
        if self.thresholds.is_empty() {
            return 0;
        }
        let sum = distinct_sum(board);
        self.thresholds.iter().take_while(|&&t| sum >= t).count()
    }

    /// The stage a game enters at `board`, when that is past `reached` (the furthest
    /// stage of the game so far) and `board` still has a move: the positions carousel
    /// shaping starts training games from.
    ///
    /// ```
    /// use ai2048_ai::ntuple::Stages;
    /// use ai2048_engine::Board;
    /// let stages: Stages = "64,128".parse()?;
    /// let early: Board = "32 2 0 0/0 0 0 0/0 0 0 0/0 0 0 0".parse()?;
    /// let first: Board = "64 2 0 0/0 0 0 0/0 0 0 0/0 0 0 0".parse()?;
    /// let second: Board = "128 2 0 0/0 0 0 0/0 0 0 0/0 0 0 0".parse()?;
    /// assert_eq!(stages.entered(early, 0), None);
    /// assert_eq!(stages.entered(first, 0), Some(1));
    /// assert_eq!(stages.entered(first, 1), None, "entered already");
    /// assert_eq!(stages.entered(second, 1), Some(2));
    /// let lost: Board = "128 2 4 8/2 4 8 16/4 8 16 32/8 16 32 64".parse()?;
    /// assert!(lost.is_over());
    /// assert_eq!(stages.entered(lost, 0), None, "no move left");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[inline]
    #[must_use]
    pub fn entered(&self, board: Board, reached: usize) -> Option<usize> {
        let stage = self.of(board);
        (stage > reached && !board.is_over()).then_some(stage)
    }
}

/// The sum of the distinct tiles of `board`.
#[inline]
fn distinct_sum(board: Board) -> u32 {
    let mut mask = 0u32;
    let low = board.low_bits();
    for cell in 0..16 {
        mask |= 1 << ((low >> (4 * cell)) & 0xF);
    }
    if board.has_high_tiles() {
        for e in board.exponents() {
            mask |= 1 << e;
        }
    }
    mask & !1
}

impl FromStr for Stages {
    type Err = StagesError;

    /// Thresholds separated by commas, such as `16384` or `16384,49152`; empty or `1`
    /// for one stage.
    fn from_str(s: &str) -> Result<Stages, StagesError> {
        let s = s.trim();
        if s.is_empty() || s == "1" {
            return Ok(Stages::one());
        }
        let thresholds = s
            .split(',')
            .map(|t| {
                t.trim()
                    .parse::<u32>()
                    .map_err(|_| StagesError::NotANumber(t.trim().to_owned()))
            })
            .collect::<Result<Vec<u32>, StagesError>>()?;
        Stages::new(thresholds)
    }
}

impl fmt::Display for Stages {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.thresholds.is_empty() {
            return f.write_str("1");
        }
        let text: Vec<String> = self.thresholds.iter().map(u32::to_string).collect();
        f.write_str(&text.join(","))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_thresholds_are_named() {
        for (text, message) in [
            ("x", "\"x\" is not a tile sum"),
            ("0", "threshold 0 is not a tile sum"),
            ("300000", "threshold 300000"),
            (
                "16384,16384",
                "thresholds must increase: 16384 comes after 16384",
            ),
            ("1,2,3,4,5,6,7,8", "at most 7 thresholds"),
        ] {
            let err = text.parse::<Stages>().unwrap_err();
            assert!(err.to_string().contains(message), "{text}: {err}");
        }
        assert_eq!("".parse::<Stages>().expect("one").count(), 1);
        assert_eq!(Stages::one().to_string(), "1");
    }

    #[test]
    fn a_board_holding_the_threshold_is_past_it() {
        let stages: Stages = "16384".parse().expect("valid");
        let board = |t: &str| t.parse::<Board>().expect("a board");
        // Every tile below 16384 at once still sums to less.
        let below = board("8192 4096 2048 1024/512 256 128 64/32 16 8 4/2 0 0 0");
        assert_eq!(stages.of(below), 0);
        assert_eq!(stages.of(board("16384 0 0 0/0 0 0 0/0 0 0 0/0 0 0 0")), 1);
        assert_eq!(stages.of(board("131072 0 0 0/0 0 0 0/0 0 0 0/0 0 0 0")), 1);
        assert_eq!(Stages::one().of(below), 0);
    }
}
