//! A goal of several cells: tiles that, once they stand together, count as the
//! target made.

use core::fmt;
use core::str::FromStr;

use crate::pattern::{grid, write_grid, ParsePatternError, Symmetry};

/// The most goals a pattern holds.
pub const MAX_GOALS: usize = 8;

/// A goal of several cells: the board has succeeded when every cell of the goal holds
/// its tile, as the pieces of the next large tile lined up to merge.
///
/// Written as four groups of four characters joined by `/`, top row first: `.` a cell
/// outside the goal, a digit `k` from 0 to 9 a cell that must hold the target divided
/// by 2^`k` (0 the target itself). With target 256, `...2/..12/..../....` asks for a 64
/// in the top right corner, a 128 and a 64 beside it below: the 64s merge into a 128
/// beside the 128, and those into the 256.
///
/// ```
/// use ai2048_tables::Goal;
///
/// let goal: Goal = "...2/..12/..../....".parse()?;
/// assert_eq!(goal.cells().collect::<Vec<_>>(), [(3, 2), (6, 1), (7, 2)]);
/// assert_eq!(goal.to_string(), "...2/..12/..../....");
/// assert!("..../..../..../....".parse::<Goal>().is_err());
/// # Ok::<(), ai2048_tables::ParsePatternError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Goal(u64);

const GOAL_HELP: &str = "four groups of four of . (not in the goal) and 0 to 9 (the \
                         target over 2^digit), joined by / with the top row first, as \
                         ...2/..12/..../....";

impl Goal {
    /// No goal: the filler of a pattern's unused goal slots.
    pub(crate) const NONE: Goal = Goal(0);

    /// The goal whose nibble `i` (bits `4i..4i+4`) is 1 + cell `i`'s `k` (its tile the
    /// target over 2^`k`), 0 for a cell outside the goal.
    ///
    /// # Errors
    ///
    /// No cell in the goal, or a nibble above 10.
    pub fn from_bits(bits: u64) -> Result<Goal, ParsePatternError> {
        if bits == 0 {
            return Err(ParsePatternError(format!(
                "a goal with no cell: a goal is {GOAL_HELP}"
            )));
        }
        if let Some(i) = (0..16).find(|i| bits >> (4 * i) & 0xF > 10) {
            return Err(ParsePatternError(format!(
                "row {}, column {}: a goal's digit above 9",
                i / 4 + 1,
                i % 4 + 1
            )));
        }
        Ok(Goal(bits))
    }

    /// The goal as [`Goal::from_bits`] takes it.
    #[must_use]
    pub const fn bits(self) -> u64 {
        self.0
    }

    /// The goal's cells and each one's `k` (its tile the target over 2^`k`), in reading
    /// order.
    pub fn cells(self) -> impl Iterator<Item = (usize, u8)> {
        (0..16).filter_map(move |i| {
            let n = (self.0 >> (4 * i) & 0xF) as u8;
            (n > 0).then(|| (i, n - 1))
        })
    }

    /// The cells of the goal, bit `i` for cell `i`.
    #[must_use]
    pub fn mask(self) -> u16 {
        self.cells().fold(0, |m, (i, _)| m | 1 << i)
    }

    /// The goal seen through `sym`.
    #[must_use]
    pub fn transformed(self, sym: Symmetry) -> Goal {
        Goal(
            self.cells()
                .fold(0, |m, (i, k)| m | u64::from(k + 1) << (4 * sym.cell(i))),
        )
    }
}

impl FromStr for Goal {
    type Err = ParsePatternError;

    fn from_str(s: &str) -> Result<Goal, ParsePatternError> {
        let mut bits = 0u64;
        for (i, ch) in grid(s.trim(), "a goal", GOAL_HELP)?.into_iter().enumerate() {
            match ch {
                '.' => {}
                '0'..='9' => bits |= u64::from(ch as u8 - b'0' + 1) << (4 * i),
                other => {
                    return Err(ParsePatternError(format!(
                        "goal {s:?}: row {}, column {}: {other:?} is neither . nor a digit",
                        i / 4 + 1,
                        i % 4 + 1
                    )));
                }
            }
        }
        Goal::from_bits(bits).map_err(|e| ParsePatternError(format!("goal {s:?}: {e}")))
    }
}

impl fmt::Display for Goal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_grid(f, |i| match self.0 >> (4 * i) & 0xF {
            0 => '.',
            n => char::from(b'0' + n as u8 - 1),
        })
    }
}
