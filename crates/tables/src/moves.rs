//! Moves in a table's world: the board as sixteen nibbles, where a fixed cell holds a
//! wall (nibble 15) that slides like a tile but never merges.
//!
//! A move that slides a wall, merges two targets into a tile larger than the target,
//! or puts a tile above its cell's cap, leaves the table's world; one that puts the
//! target in a target cell succeeds; any other spawns a tile in one of the empty
//! cells, which are all moving cells.

use std::sync::OnceLock;

use ai2048_engine::{Board, Dir};

use crate::goal::MAX_GOALS;
use crate::pattern::Pattern;

/// The nibble of a fixed cell.
pub(crate) const WALL: u64 = 0xF;

const NIBBLE_ONES: u64 = 0x1111_1111_1111_1111;
const LOW_THREE: u64 = 0x7777_7777_7777_7777;
const HIGH_BITS: u64 = 0x8888_8888_8888_8888;

/// The rows slid left and right, walls included: 2^16 entries each.
struct Lines {
    left: Box<[u16]>,
    right: Box<[u16]>,
}

fn slide_left(line: u16) -> u16 {
    let cells = [line >> 12, line >> 8 & 0xF, line >> 4 & 0xF, line & 0xF];
    let mut out = [0u16; 4];
    let mut n = 0;
    let mut merged_last = false;
    for &c in cells.iter().filter(|&&c| c != 0) {
        if n > 0 && !merged_last && c != WALL as u16 && out[n - 1] == c {
            out[n - 1] = c + 1;
            merged_last = true;
        } else {
            out[n] = c;
            n += 1;
            merged_last = false;
        }
    }
    out[0] << 12 | out[1] << 8 | out[2] << 4 | out[3]
}

const fn reverse(line: u16) -> u16 {
    (line & 0xF) << 12 | (line >> 4 & 0xF) << 8 | (line >> 8 & 0xF) << 4 | line >> 12
}

fn lines() -> &'static Lines {
    static LINES: OnceLock<Lines> = OnceLock::new();
    LINES.get_or_init(|| {
        let left: Box<[u16]> = (0..=u16::MAX).map(slide_left).collect();
        let right = (0..=u16::MAX)
            .map(|l| reverse(left[reverse(l) as usize]))
            .collect();
        Lines { left, right }
    })
}

fn rows(table: &[u16], b: u64) -> u64 {
    (table[(b >> 48) as usize] as u64) << 48
        | (table[(b >> 32) as usize & 0xFFFF] as u64) << 32
        | (table[(b >> 16) as usize & 0xFFFF] as u64) << 16
        | table[b as usize & 0xFFFF] as u64
}

fn transpose(b: u64) -> u64 {
    Board::from_u64(b).transpose().low_bits()
}

/// `b` slid toward `dir`, walls sliding like tiles but never merging; two nibbles of
/// 14 would merge into 15, so the tiles stay below 14.
pub(crate) fn slide(b: u64, dir: Dir) -> u64 {
    let l = lines();
    match dir {
        Dir::Left => rows(&l.left, b),
        Dir::Right => rows(&l.right, b),
        Dir::Up => transpose(rows(&l.left, transpose(b))),
        Dir::Down => transpose(rows(&l.right, transpose(b))),
    }
}

/// The nibbles of `b` equal to `value`, as bit 3 of each such nibble: exact, since no
/// nibble's sum carries into the next.
#[inline]
pub(crate) fn nibbles_equal(b: u64, value: u64) -> u64 {
    let x = b ^ (value * NIBBLE_ONES);
    !(((x & LOW_THREE) + LOW_THREE) | x) & HIGH_BITS
}

/// A mask of the nibbles of the cells of `cells` (bit `i` for cell `i`), bit 3 of each:
/// as [`nibbles_equal`] marks them.
pub(crate) fn nibble_marks(cells: u16) -> u64 {
    (0..16)
        .filter(|&i| cells >> i & 1 == 1)
        .fold(0, |m, i| m | 8 << (60 - 4 * i))
}

/// What a move does in a table's world.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Outcome {
    /// Nothing moves.
    Illegal,
    /// A wall slid, two targets merged, or a tile went above its cell's cap: the move
    /// leaves the table.
    Leaves,
    /// A target cell holds the target.
    Succeeds,
    /// The board after the move, before a tile spawns.
    Moved(u64),
}

/// The rules of one table's world: its walls, its target cells, its target, its caps
/// and its goals.
#[derive(Clone, Copy, Debug)]
pub(crate) struct World {
    /// Bit 3 of each wall's nibble.
    walls: u64,
    /// Bit 3 of each target cell's nibble.
    targets: u64,
    /// The target's exponent.
    target: u64,
    /// For the even and the odd nibbles, each widened to a byte: what, added to a
    /// capped cell's exponent, carries into the byte's bit 4 when it is above its cap
    /// (0 in every other cell). Both 0 when no cell is capped.
    over_even: u64,
    over_odd: u64,
    /// Each goal's cells (bit 3 of each nibble) and their tiles (the nibbles), the
    /// first `goal_count` in use.
    goals: [(u64, u64); MAX_GOALS],
    goal_count: usize,
}

const LOW_NIBBLES: u64 = 0x0F0F_0F0F_0F0F_0F0F;
const BYTE_BIT4: u64 = 0x1010_1010_1010_1010;

impl World {
    /// The world of `pattern` with target exponent `target`.
    pub(crate) fn new(pattern: &Pattern, target: u8) -> World {
        let caps = pattern.caps();
        // The board's nibble of cell i sits at bit 60 - 4i; the cap's at 4i.
        let mut over = 0u64;
        for i in 0..16 {
            let k = caps >> (4 * i) & 0xF;
            if k > 0 {
                let limit = u64::from(target).saturating_sub(k);
                over |= (15 - limit) << (60 - 4 * i);
            }
        }
        let mut goals = [(0u64, 0u64); MAX_GOALS];
        let mut goal_count = 0;
        for (slot, goal) in goals.iter_mut().zip(pattern.goals()) {
            *slot = goal.cells().fold((0, 0), |(cells, tiles), (i, k)| {
                let shift = 60 - 4 * i;
                (
                    cells | 8 << shift,
                    tiles | u64::from(target.saturating_sub(k)) << shift,
                )
            });
            goal_count += 1;
        }
        World {
            walls: nibble_marks(pattern.fixed_mask()),
            targets: nibble_marks(pattern.target_mask()),
            target: u64::from(target),
            over_even: over & LOW_NIBBLES,
            over_odd: over >> 4 & LOW_NIBBLES,
            goals,
            goal_count,
        }
    }

    /// Whether a capped cell of `b` holds a tile above its cap.
    #[inline]
    fn over_cap(self, b: u64) -> bool {
        self.over_even | self.over_odd != 0
            && (((b & LOW_NIBBLES) + self.over_even) | ((b >> 4 & LOW_NIBBLES) + self.over_odd))
                & BYTE_BIT4
                != 0
    }

    /// Whether the cells of one of the goals hold its tiles in `b`.
    #[inline]
    fn meets_a_goal(&self, b: u64) -> bool {
        self.goals[..self.goal_count]
            .iter()
            .any(|&(cells, tiles)| nibbles_equal(b ^ tiles, 0) & cells == cells)
    }

    /// The outcome of sliding `b` toward `dir`.
    #[inline]
    pub(crate) fn play(self, b: u64, dir: Dir) -> Outcome {
        let after = slide(b, dir);
        if after == b {
            Outcome::Illegal
        } else if nibbles_equal(after, WALL) != self.walls
            || nibbles_equal(after, self.target + 1) != 0
            || self.over_cap(after)
        {
            Outcome::Leaves
        } else if nibbles_equal(after, self.target) & self.targets != 0 || self.meets_a_goal(after)
        {
            Outcome::Succeeds
        } else {
            Outcome::Moved(after)
        }
    }

    /// Each move's value from `b`, indexed by [`Dir`]: `None` where the move is illegal
    /// or leaves the table, 1 where it succeeds, and otherwise `expect` of the board
    /// after the move (the expectation over its spawns).
    #[inline]
    pub(crate) fn move_values(
        self,
        b: u64,
        mut expect: impl FnMut(u64) -> f64,
    ) -> [Option<f64>; 4] {
        let mut out = [None; 4];
        for dir in Dir::ALL {
            out[dir as usize] = match self.play(b, dir) {
                Outcome::Illegal | Outcome::Leaves => None,
                Outcome::Succeeds => Some(1.0),
                Outcome::Moved(after) => Some(expect(after)),
            };
        }
        out
    }
}

/// The empty cells of `b`, bit 3 of each nibble.
#[inline]
pub(crate) fn empty_marks(b: u64) -> u64 {
    nibbles_equal(b, 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(text: &str) -> u64 {
        u64::from_str_radix(&text.replace(['/', ' '], ""), 16).unwrap()
    }

    #[test]
    fn walls_slide_but_never_merge() {
        assert_eq!(slide_left(0x0F0F), 0xFF00);
        assert_eq!(slide_left(0x1120), 0x2200);
        assert_eq!(slide_left(0x1111), 0x2200);
        assert_eq!(slide_left(0xF110), 0xF200);
        assert_eq!(slide_left(0x2211), 0x3200);
    }

    #[test]
    fn outcomes() {
        // Fixed: cells 0-7 (rows 1 and 2); target cells: 14 and 15; target 2^5.
        let world = World::new(&Pattern::from_masks(0x00FF, 1 << 14 | 1 << 15).unwrap(), 5);
        let b = board("FFFF/FFFF/0000/0044");
        assert_eq!(world.play(b, Dir::Right), Outcome::Succeeds);
        // Down would slide the walls into the empty third row.
        assert_eq!(world.play(b, Dir::Down), Outcome::Leaves);
        assert_eq!(
            world.play(board("FFFF/FFFF/1212/2121"), Dir::Down),
            Outcome::Illegal
        );
        // Up slides nothing past the walls, which do not move either.
        assert_eq!(
            world.play(b, Dir::Up),
            Outcome::Moved(board("FFFF/FFFF/0044/0000"))
        );
        let b = board("FFFF/FFFF/0055/0000");
        assert_eq!(world.play(b, Dir::Left), Outcome::Leaves);
    }

    #[test]
    fn a_tile_above_its_cells_cap_leaves() {
        // Target 2^5; cell 12 (bottom left) at most 2^3, cell 9 at most 2^4.
        let pattern = Pattern::from_masks(0x00FF, 1 << 15).unwrap();
        let world = World::new(&pattern.with_caps(2 << 48 | 1 << 36).unwrap(), 5);
        let cases = [
            // Two 8s meet in cell 12: a 16 is above its cap.
            ("FFFF/FFFF/0000/0303", Outcome::Leaves),
            // Two 4s make an 8 there: at its cap.
            (
                "FFFF/FFFF/0000/0202",
                Outcome::Moved(board("FFFF/FFFF/0000/3000")),
            ),
            // Two 16s make a 32 in cell 9: above its cap.
            ("FFFF/FFFF/3440/0000", Outcome::Leaves),
            // Two 8s make a 16 in cell 8, which has no cap, and an 8 slides into 9.
            (
                "FFFF/FFFF/3330/0000",
                Outcome::Moved(board("FFFF/FFFF/4300/0000")),
            ),
        ];
        for (before, outcome) in cases {
            assert_eq!(world.play(board(before), Dir::Left), outcome, "{before}");
        }
    }

    #[test]
    fn a_goal_met_succeeds_and_only_all_of_it() {
        // Target 2^5 = 32; the goal: a 16 in cell 11 and two 8s in cells 14 and 15.
        let pattern: Pattern = "xxxx/xxxx/...t/.... ..../..../...1/..22".parse().unwrap();
        let world = World::new(&pattern, 5);
        // Up moves only the 2 at the left; the goal's tiles stand in place.
        let b = board("FFFF/FFFF/0024/1033");
        assert_eq!(world.play(b, Dir::Up), Outcome::Succeeds);
        // Left merges the two 8s: no goal.
        assert_eq!(
            world.play(b, Dir::Left),
            Outcome::Moved(board("FFFF/FFFF/2400/1400"))
        );
        // A 4 where the goal wants an 8: not met.
        let b = board("FFFF/FFFF/0014/1023");
        assert_eq!(
            world.play(b, Dir::Up),
            Outcome::Moved(board("FFFF/FFFF/1014/0023"))
        );
        // The target cell still counts.
        assert_eq!(
            world.play(board("FFFF/FFFF/0440/0000"), Dir::Right),
            Outcome::Succeeds
        );
    }
}
