//! A table's pattern: which cells hold fixed large tiles, which cells' tiles move, and
//! where the target counts.

use core::fmt;
use core::str::FromStr;

use crate::goal::{Goal, MAX_GOALS};

/// Which cells of the board a table fixes, which move, and where its target counts.
///
/// Written as four groups of four characters joined by `/`, top row first: `x` a fixed
/// cell (a large tile that must stay where it is), `.` a cell whose tile may move, `t`
/// a moving cell where the target counts, a digit `k` from 1 to 9 a moving cell whose
/// tile is at most the target divided by 2^`k` (a cap: a move that puts a larger tile
/// there leaves the table's world, as one that slides a fixed tile does). Cells are
/// numbered in reading order, as [`ai2048_engine::Board`] numbers them.
///
/// A pattern may also hold [`Goal`]s, written after the rows and a space each: the board
/// has succeeded when one goal's cells hold its tiles (the pieces of the target lined
/// up to merge), as well as when a target cell holds the target. A pattern with goals
/// needs no target cell.
///
/// ```
/// use ai2048_tables::Pattern;
///
/// let pattern: Pattern = "xxxx/xxxx/xx../..tt".parse()?;
/// assert_eq!(pattern.moving_cells().count(), 6);
/// assert!(pattern.is_fixed(0) && pattern.is_target(15) && !pattern.is_target(8));
/// assert_eq!(pattern.to_string(), "xxxx/xxxx/xx../..tt");
///
/// let capped: Pattern = "xxxx/1txx/2344/5555".parse()?;
/// assert_eq!((capped.cap(4), capped.cap(5), capped.cap(15)), (1, 0, 5));
/// assert_eq!(capped.to_string(), "xxxx/1txx/2344/5555");
///
/// let block: Pattern = "xxx2/xx12/2222/3333 ...2/..12/..../.... ..../..12/...2/....".parse()?;
/// assert_eq!((block.target_mask(), block.goals().count()), (0, 2));
/// assert_eq!(block.to_string(), "xxx2/xx12/2222/3333 ...2/..12/..../.... ..../..12/...2/....");
/// # Ok::<(), ai2048_tables::ParsePatternError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Pattern {
    fixed: u16,
    target: u16,
    /// Nibble `i` (bits `4i..4i+4`): cell `i`'s cap `k`, 0 for none.
    caps: u64,
    /// The goals; the first `goal_count` count, the rest are [`Goal::NONE`].
    goals: [Goal; MAX_GOALS],
    goal_count: u8,
}

message_error!(
    /// Why a pattern did not parse, with where.
    ParsePatternError
);

const ROWS_HELP: &str = "four groups of four of x (fixed), . (moves), t (moves; the target \
                         counts) and 1 to 9 (moves, at most the target over 2^digit), \
                         joined by / with the top row first, as xxxx/xxxx/xx../..tt";

impl Pattern {
    /// The pattern with fixed cells `fixed` and target cells `target`, each a mask with
    /// bit `i` for cell `i`.
    ///
    /// # Errors
    ///
    /// A target cell that is also fixed, or no target cell at all.
    pub fn from_masks(fixed: u16, target: u16) -> Result<Pattern, ParsePatternError> {
        Pattern::from_parts(fixed, target, 0, &[])
    }

    /// The pattern with fixed cells `fixed`, target cells `target` (masks, bit `i` for
    /// cell `i`), caps `caps` (as [`Pattern::with_caps`] takes them) and goals `goals`.
    ///
    /// # Errors
    ///
    /// A target cell that is also fixed; neither a target cell nor a goal; a cap on a
    /// fixed or target cell, or above 9; more than [`MAX_GOALS`] goals, or a goal on a
    /// fixed cell.
    pub fn from_parts(
        fixed: u16,
        target: u16,
        caps: u64,
        goals: &[Goal],
    ) -> Result<Pattern, ParsePatternError> {
        if fixed & target != 0 {
            return Err(ParsePatternError(format!(
                "cell {} is both fixed and a target cell",
                (fixed & target).trailing_zeros()
            )));
        }
        if target == 0 && goals.is_empty() {
            return Err(ParsePatternError(format!(
                "the pattern has no target cell (t) and no goal: {ROWS_HELP}"
            )));
        }
        for i in 0..16 {
            let k = caps >> (4 * i) & 0xF;
            if k == 0 {
                continue;
            }
            let (r, c) = (i / 4 + 1, i % 4 + 1);
            if k > 9 {
                return Err(ParsePatternError(format!(
                    "row {r}, column {c}: cap {k} is above 9"
                )));
            }
            if fixed >> i & 1 == 1 || target >> i & 1 == 1 {
                return Err(ParsePatternError(format!(
                    "row {r}, column {c}: a cap on a {} cell",
                    if fixed >> i & 1 == 1 {
                        "fixed"
                    } else {
                        "target"
                    }
                )));
            }
        }
        if goals.len() > MAX_GOALS {
            return Err(ParsePatternError(format!(
                "{} goals: a pattern holds at most {MAX_GOALS}",
                goals.len()
            )));
        }
        let mut slots = [Goal::NONE; MAX_GOALS];
        for (slot, goal) in slots.iter_mut().zip(goals) {
            if let Some(i) = goal.cells().map(|(i, _)| i).find(|&i| fixed >> i & 1 == 1) {
                return Err(ParsePatternError(format!(
                    "goal {goal}: row {}, column {} is a fixed cell",
                    i / 4 + 1,
                    i % 4 + 1
                )));
            }
            *slot = *goal;
        }
        Ok(Pattern {
            fixed,
            target,
            caps,
            goals: slots,
            goal_count: goals.len() as u8,
        })
    }

    /// The pattern with caps `caps`: nibble `i` (bits `4i..4i+4`) cell `i`'s cap `k`
    /// (its tile at most the target over 2^`k`), 0 for none.
    ///
    /// # Errors
    ///
    /// A cap on a fixed or target cell, or above 9.
    pub fn with_caps(self, caps: u64) -> Result<Pattern, ParsePatternError> {
        Pattern::from_parts(self.fixed, self.target, caps, self.goal_slice())
    }

    /// The pattern's goals, in the order given.
    pub fn goals(&self) -> impl Iterator<Item = Goal> + '_ {
        self.goal_slice().iter().copied()
    }

    /// Whether the pattern has goals.
    #[must_use]
    pub const fn has_goals(&self) -> bool {
        self.goal_count > 0
    }

    fn goal_slice(&self) -> &[Goal] {
        &self.goals[..usize::from(self.goal_count)]
    }

    /// The caps as [`Pattern::with_caps`] takes them: 0 for a pattern without any.
    #[must_use]
    pub const fn caps(self) -> u64 {
        self.caps
    }

    /// Cell `i`'s cap `k`: its tile is at most the target over 2^`k`; 0 for none.
    #[must_use]
    pub const fn cap(self, i: usize) -> u8 {
        (self.caps >> (4 * i) & 0xF) as u8
    }

    /// The fixed cells, bit `i` for cell `i`.
    #[must_use]
    pub const fn fixed_mask(self) -> u16 {
        self.fixed
    }

    /// The cells where the target counts, bit `i` for cell `i`.
    #[must_use]
    pub const fn target_mask(self) -> u16 {
        self.target
    }

    /// The cells whose tiles move (target cells included), bit `i` for cell `i`.
    #[must_use]
    pub const fn moving_mask(self) -> u16 {
        !self.fixed
    }

    /// Whether cell `i` is fixed.
    #[must_use]
    pub const fn is_fixed(self, i: usize) -> bool {
        self.fixed >> i & 1 == 1
    }

    /// Whether cell `i` is a target cell.
    #[must_use]
    pub const fn is_target(self, i: usize) -> bool {
        self.target >> i & 1 == 1
    }

    /// The moving cells in reading order.
    pub fn moving_cells(self) -> impl Iterator<Item = usize> {
        (0..16).filter(move |&i| !self.is_fixed(i))
    }

    /// The fixed cells in reading order.
    ///
    /// ```
    /// use ai2048_tables::Pattern;
    ///
    /// let pattern: Pattern = "xxx./xx../..../..tt".parse()?;
    /// assert_eq!(pattern.fixed_cells().collect::<Vec<_>>(), [0, 1, 2, 4, 5]);
    /// assert_eq!(pattern.moving_cells().count(), 11);
    /// # Ok::<(), ai2048_tables::ParsePatternError>(())
    /// ```
    pub fn fixed_cells(self) -> impl Iterator<Item = usize> {
        (0..16).filter(move |&i| self.is_fixed(i))
    }

    /// The pattern seen through `sym`: the cell `sym` maps each cell to takes its role.
    ///
    /// ```
    /// use ai2048_tables::{Pattern, Symmetry};
    ///
    /// let pattern: Pattern = "xxxx/xxxx/xx../..tt".parse()?;
    /// let mirrored = pattern.transformed(Symmetry::MIRROR_COLUMNS);
    /// assert_eq!(mirrored.to_string(), "xxxx/xxxx/..xx/tt..");
    /// # Ok::<(), ai2048_tables::ParsePatternError>(())
    /// ```
    #[must_use]
    pub fn transformed(self, sym: Symmetry) -> Pattern {
        let map = |mask: u16| {
            (0..16)
                .filter(|&i| mask >> i & 1 == 1)
                .fold(0u16, |m, i| m | 1 << sym.cell(i))
        };
        let mut goals = self.goals;
        for g in &mut goals[..usize::from(self.goal_count)] {
            *g = g.transformed(sym);
        }
        Pattern {
            fixed: map(self.fixed),
            target: map(self.target),
            caps: (0..16).fold(0u64, |m, i| m | u64::from(self.cap(i)) << (4 * sym.cell(i))),
            goals,
            goal_count: self.goal_count,
        }
    }
}

impl FromStr for Pattern {
    type Err = ParsePatternError;

    fn from_str(s: &str) -> Result<Pattern, ParsePatternError> {
        let mut words = s.split_whitespace();
        let rows_text = words.next().unwrap_or("");
        let goals = words.map(str::parse).collect::<Result<Vec<Goal>, _>>()?;
        let grid = grid(rows_text, "a pattern", ROWS_HELP)?;
        let (mut fixed, mut target, mut caps) = (0u16, 0u16, 0u64);
        for (i, ch) in grid.into_iter().enumerate() {
            let bit = 1u16 << i;
            match ch {
                'x' | 'X' => fixed |= bit,
                't' | 'T' => target |= bit,
                '.' => {}
                '1'..='9' => caps |= u64::from(ch as u8 - b'0') << (4 * i),
                other => {
                    return Err(ParsePatternError(format!(
                        "row {}, column {}: {other:?} is none of x, ., t and 1 to 9",
                        i / 4 + 1,
                        i % 4 + 1
                    )));
                }
            }
        }
        Pattern::from_parts(fixed, target, caps, &goals)
    }
}

/// The sixteen characters of `s`, four groups of four joined by `/` (top row first),
/// in reading order; `what` (as "a pattern") and `help` say what was expected.
pub(crate) fn grid(s: &str, what: &str, help: &str) -> Result<[char; 16], ParsePatternError> {
    let rows: Vec<&str> = s.split('/').collect();
    if rows.len() != 4 {
        return Err(ParsePatternError(format!(
            "{s:?} has {} group(s); {what} is {help}",
            rows.len()
        )));
    }
    let mut out = ['.'; 16];
    for (r, row) in rows.iter().enumerate() {
        let chars: Vec<char> = row.chars().collect();
        if chars.len() != 4 {
            return Err(ParsePatternError(format!(
                "row {} ({row:?}) of {s:?} has {} characters, not 4; {what} is {help}",
                r + 1,
                chars.len()
            )));
        }
        out[4 * r..4 * r + 4].copy_from_slice(&chars);
    }
    Ok(out)
}

impl fmt::Display for Pattern {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_grid(f, |i| {
            if self.is_fixed(i) {
                'x'
            } else if self.is_target(i) {
                't'
            } else if self.cap(i) > 0 {
                char::from(b'0' + self.cap(i))
            } else {
                '.'
            }
        })?;
        for goal in self.goals() {
            write!(f, " {goal}")?;
        }
        Ok(())
    }
}

/// Writes cell `i`'s character `cell(i)` for the sixteen cells as [`grid`] reads them:
/// four groups of four joined by `/`, the top row first.
pub(crate) fn write_grid(f: &mut fmt::Formatter<'_>, cell: impl Fn(usize) -> char) -> fmt::Result {
    for i in 0..16 {
        if i > 0 && i % 4 == 0 {
            f.write_str("/")?;
        }
        write!(f, "{}", cell(i))?;
    }
    Ok(())
}

/// One of the eight symmetries of the square board: a transpose (rows and columns
/// swapped), then a mirror of the columns, then a mirror of the rows, each or not.
///
/// ```
/// use ai2048_engine::Dir;
/// use ai2048_tables::Symmetry;
///
/// assert_eq!(Symmetry::MIRROR_COLUMNS.cell(0), 3);
/// assert_eq!(Symmetry::MIRROR_COLUMNS.dir(Dir::Left), Dir::Right);
/// assert_eq!(Symmetry::TRANSPOSE.dir(Dir::Left), Dir::Up);
/// for sym in Symmetry::ALL {
///     for i in 0..16 {
///         assert_eq!(sym.inverse().cell(sym.cell(i)), i);
///     }
/// }
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Symmetry(u8);

impl Symmetry {
    /// The board as it is.
    pub const IDENTITY: Symmetry = Symmetry(0);
    /// Rows and columns swapped.
    pub const TRANSPOSE: Symmetry = Symmetry(1);
    /// Left and right swapped.
    pub const MIRROR_COLUMNS: Symmetry = Symmetry(2);
    /// Top and bottom swapped.
    pub const MIRROR_ROWS: Symmetry = Symmetry(4);
    /// All eight, the identity first.
    pub const ALL: [Symmetry; 8] = [
        Symmetry(0),
        Symmetry(1),
        Symmetry(2),
        Symmetry(3),
        Symmetry(4),
        Symmetry(5),
        Symmetry(6),
        Symmetry(7),
    ];

    /// Where cell `i` goes.
    #[must_use]
    pub const fn cell(self, i: usize) -> usize {
        let (mut r, mut c) = (i / 4, i % 4);
        if self.0 & 1 != 0 {
            (r, c) = (c, r);
        }
        if self.0 & 2 != 0 {
            c = 3 - c;
        }
        if self.0 & 4 != 0 {
            r = 3 - r;
        }
        4 * r + c
    }

    /// Where direction `dir` goes: sliding the board toward `dir` and then applying the
    /// symmetry gives the board that the symmetry's image slid toward `self.dir(dir)`.
    #[must_use]
    pub const fn dir(self, dir: ai2048_engine::Dir) -> ai2048_engine::Dir {
        use ai2048_engine::Dir;
        // (row step, column step)
        let (mut dr, mut dc): (i8, i8) = match dir {
            Dir::Up => (-1, 0),
            Dir::Down => (1, 0),
            Dir::Left => (0, -1),
            Dir::Right => (0, 1),
        };
        if self.0 & 1 != 0 {
            (dr, dc) = (dc, dr);
        }
        if self.0 & 2 != 0 {
            dc = -dc;
        }
        if self.0 & 4 != 0 {
            dr = -dr;
        }
        match (dr, dc) {
            (-1, 0) => Dir::Up,
            (1, 0) => Dir::Down,
            (0, -1) => Dir::Left,
            _ => Dir::Right,
        }
    }

    /// The symmetry that undoes this one.
    #[must_use]
    pub const fn inverse(self) -> Symmetry {
        // A transpose followed by mirrors is undone by the mirrors swapped, then the
        // transpose: with a transpose, the column mirror becomes the row mirror.
        if self.0 & 1 != 0 {
            Symmetry(1 | (self.0 & 2) << 1 | (self.0 & 4) >> 1)
        } else {
            self
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_patterns_say_what_and_where() {
        for (text, message) in [
            ("xxxx/xxxx/xx..", "3 group(s)"),
            ("xxxx/xxxx/xx../..ttt", "row 4"),
            ("xxxx/xxxx/xx../..ty", "row 4, column 4: 'y'"),
            ("xxxx/xxxx/xx../....", "no target cell"),
            (
                "xxxx/xxxx/xx../.... ..1./..../..../....",
                "row 1, column 3 is a fixed cell",
            ),
            (
                "xxxx/xxxx/xx../.... ..../..../..../..a.",
                "row 4, column 3: 'a'",
            ),
            ("xxxx/xxxx/xx../..t0", "row 4, column 4: '0'"),
        ] {
            let err = text.parse::<Pattern>().unwrap_err().to_string();
            assert!(err.contains(message), "{text}: {err}");
        }
        let pattern: Pattern = "xxxx/xxxx/xx../..tt".parse().unwrap();
        for (caps, message) in [
            (1u64 << 60, "row 4, column 4: a cap on a target cell"),
            (2, "row 1, column 1: a cap on a fixed cell"),
            (10 << 40, "row 3, column 3: cap 10 is above 9"),
        ] {
            let err = pattern.with_caps(caps).unwrap_err().to_string();
            assert!(err.contains(message), "{caps:x}: {err}");
        }
    }

    #[test]
    fn every_symmetry_keeps_the_pattern_s_counts_and_round_trips() {
        let pattern: Pattern = "xxx./xx../x.../...t ...1/..../..../...0".parse().unwrap();
        for sym in Symmetry::ALL {
            let p = pattern.transformed(sym);
            assert_eq!(p.fixed_mask().count_ones(), 6);
            assert_eq!(p.transformed(sym.inverse()), pattern, "{sym:?}");
        }
    }
}
