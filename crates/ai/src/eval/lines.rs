//! Lines that descend from the top-left corner: the rule of macroxue/2048-ai's
//! heuristic, written here afresh from the rule.
//!
//! Each tile of exponent `e` weighs `e · 2^e`. A line (a row read left to right, a
//! column read top to bottom) scores its first tile's weight, then for each pair of
//! neighbours `a, b` along it `a + b` where `a ≥ b` (and `a` once more where they are
//! equal, a merge waiting), or `12 · (a - b)` where the line climbs (the weight
//! `climb`, 12 by default, is the factor). The board scores
//! the sum over its four rows and four columns, so the largest tiles gather in the
//! top-left corner, in a block whose rows and columns both fall away from it. A board
//! whose lines climb scores below 0.
//!
//! A lost board scores minus the larger of 2^17 and twice its largest tile's weight,
//! as macroxue's search scores it (the weight `lost`, 2 by default, is the factor):
//! not below every board, for a board whose lines are broken badly enough scores
//! lower. The search then fears a far, unlikely loss less than a broken block, and
//! keeps the block: at depth 4, with the block tables, 16384 in 84% of 100 games and
//! 32768 in 50%, against 72% and 41% with a lost board below every board
//! (docs/tables-measured.md).
//!
//! The scores are kept near 0, where the searches' `f32` values hold them exactly: a
//! constant lifting every board above 0 (about 6.4 · 10^8) would round them to
//! multiples of 64, and the small tiles' places (a 16 weighs 64) would not count.
//!
//! ```
//! use ai2048_ai::eval::{Evaluator, Lines};
//! use ai2048_engine::Board;
//! let lines = Lines::default();
//! let block: Board = "1024 512 256 0/512 256 0 0/0 0 0 0/0 0 0 0".parse()?;
//! let turned: Board = "0 0 0 0/0 0 0 0/0 0 256 512/0 256 512 1024".parse()?;
//! assert!(lines.eval(block) > lines.eval(turned));
//! # Ok::<(), ai2048_engine::ParseBoardError>(())
//! ```

use std::fmt;
use std::sync::{Arc, OnceLock};

use ai2048_engine::Board;

use super::Evaluator;

/// The heuristic of lines descending from the top-left corner (see the module).
#[derive(Clone)]
pub struct Lines {
    lost: f64,
    climb: f64,
    /// The scores of every line under `climb`, where it is not the default's (whose
    /// table is shared by the process, [`line_table`]).
    table: Option<Arc<[f64]>>,
}

impl PartialEq for Lines {
    fn eq(&self, other: &Lines) -> bool {
        (self.lost, self.climb) == (other.lost, other.climb)
    }
}

impl fmt::Debug for Lines {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Lines")
            .field("lost", &self.lost)
            .field("climb", &self.climb)
            .finish()
    }
}

impl Lines {
    /// The factor of a lost board's value by default: macroxue's.
    pub const DEFAULT_LOST: f64 = 2.0;

    /// The factor of a climb's cost by default: macroxue's.
    pub const DEFAULT_CLIMB: f64 = 12.0;

    /// The heuristic with a lost board scored minus the larger of 2^17 and `lost`
    /// times its largest tile's weight.
    ///
    /// ```
    /// use ai2048_ai::eval::{Evaluator, Lines};
    /// use ai2048_engine::Board;
    /// let lost: Board = "32768 2 4 2/2 4 2 4/4 2 4 2/2 4 2 4".parse()?;
    /// assert_eq!(Lines::default(), Lines::new(2.0));
    /// assert_eq!(Lines::new(4.0).lost(lost), 2.0 * Lines::default().lost(lost));
    /// assert_eq!(Lines::new(0.0).lost(lost), -131_072.0);
    /// # Ok::<(), ai2048_engine::ParseBoardError>(())
    /// ```
    #[must_use]
    pub const fn new(lost: f64) -> Lines {
        Lines {
            lost,
            climb: Lines::DEFAULT_CLIMB,
            table: None,
        }
    }

    /// The heuristic with a lost board scored as [`Lines::new`] scores it, and a line
    /// that climbs from `a` to `b` costing `climb · (weight(b) - weight(a))`, not 12
    /// times it. Other factors than the default build their own table of lines (a few
    /// milliseconds).
    ///
    /// ```
    /// use ai2048_ai::eval::{Evaluator, Lines};
    /// use ai2048_engine::Board;
    /// let climbs: Board = "2 4 0 0/0 0 0 0/0 0 0 0/0 0 0 0".parse()?;
    /// let (steep, default) = (Lines::with_climb(2.0, 24.0), Lines::default());
    /// assert_eq!(Lines::with_climb(2.0, 12.0), default);
    /// assert!(steep.eval(climbs) < default.eval(climbs));
    /// let falls: Board = "4 2 0 0/0 0 0 0/0 0 0 0/0 0 0 0".parse()?;
    /// assert_eq!(steep.eval(falls), default.eval(falls));
    /// # Ok::<(), ai2048_engine::ParseBoardError>(())
    /// ```
    #[must_use]
    pub fn with_climb(lost: f64, climb: f64) -> Lines {
        // The default's table is the process's, built once.
        let table = (climb != Lines::DEFAULT_CLIMB).then(|| {
            (0..1usize << 16)
                .map(|r| line_score(row_exponents(r), climb))
                .collect()
        });
        Lines { lost, climb, table }
    }
}

impl Default for Lines {
    /// macroxue's: a lost board scores minus twice its largest tile's weight, or 2^17.
    fn default() -> Lines {
        Lines::new(Lines::DEFAULT_LOST)
    }
}

/// The weight of a tile of exponent `e`: `e · 2^e`.
const fn weight(e: usize) -> f64 {
    (e as f64) * (1u64 << e) as f64
}

/// What a line gains for neighbours of exponents `a` then `b`, a climb costing
/// `climb` times the difference of their weights.
fn pair(a: usize, b: usize, climb: f64) -> f64 {
    let (wa, wb) = (weight(a), weight(b));
    if a > b {
        wa + wb
    } else if a == b {
        wa + wb + wa
    } else {
        (wa - wb) * climb
    }
}

/// The least a lost board scores below 0, whatever its largest tile: 2^17.
const LOST_FLOOR: f64 = 131_072.0;

/// What one line of exponents `line` scores: its first tile's weight, then each pair.
fn line_score(line: [usize; 4], climb: f64) -> f64 {
    weight(line[0])
        + pair(line[0], line[1], climb)
        + pair(line[1], line[2], climb)
        + pair(line[2], line[3], climb)
}

/// The four exponents of a line of 4-bit cells (a board's row as 16 bits).
fn row_exponents(r: usize) -> [usize; 4] {
    [r >> 12, (r >> 8) & 0xF, (r >> 4) & 0xF, r & 0xF]
}

/// [`line_score`] of every line of 4-bit cells (a board's row as 16 bits) under the
/// default climb, computed once a process. Every score is a whole number below 2^53
/// (and so under any climb that is a whole number), so a board's sum is exact in any
/// order: the same value as the sum cell by cell.
fn line_table() -> &'static [f64] {
    static TABLE: OnceLock<Box<[f64]>> = OnceLock::new();
    TABLE.get_or_init(|| {
        (0..1usize << 16)
            .map(|r| line_score(row_exponents(r), Lines::DEFAULT_CLIMB))
            .collect()
    })
}

/// The board's score read cell by cell: each row and each column through
/// [`line_score`]. For any board; [`Lines`] takes it for boards holding 65536 or more.
fn by_cells(board: Board, climb: f64) -> f64 {
    let e = board.exponents().map(usize::from);
    let mut score = 0.0;
    for i in 0..4 {
        let row = [e[4 * i], e[4 * i + 1], e[4 * i + 2], e[4 * i + 3]];
        let column = [e[i], e[4 + i], e[8 + i], e[12 + i]];
        score += line_score(row, climb) + line_score(column, climb);
    }
    score
}

impl Evaluator for Lines {
    fn eval(&self, board: Board) -> f64 {
        if !board.has_high_tiles() {
            // Every tile below 65536: each row, and each row of the transpose (a
            // column), is 16 bits of the board, looked up in the table.
            let table: &[f64] = match &self.table {
                Some(table) => table,
                None => line_table(),
            };
            let line = |bits: u64, i: u32| table[(bits >> (16 * i)) as u16 as usize];
            let (rows, columns) = (board.low_bits(), board.transpose().low_bits());
            return (0..4).map(|i| line(rows, i) + line(columns, i)).sum();
        }
        by_cells(board, self.climb)
    }

    /// macroxue's value of a lost board: minus the larger of 2^17 and the weight
    /// `lost` (2 by default) times its largest tile's weight (see the module).
    fn lost(&self, board: Board) -> f64 {
        -LOST_FLOOR.max(self.lost * weight(board.max_exponent().into()))
    }

    /// macroxue's cut: a board that scores less than twice the root's largest tile's
    /// weight has lost its lines, and searching it further is wasted; unless the root
    /// itself scores below 0, when nothing is cut.
    fn cut_below(&self, root: Board) -> f64 {
        if self.eval(root) < 0.0 {
            f64::NEG_INFINITY
        } else {
            2.0 * weight(root.max_exponent().into())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const LINES: Lines = Lines::new(Lines::DEFAULT_LOST);

    #[test]
    fn a_lost_board_scores_as_macroxue_scores_it() {
        // The worst lines climb from empty cells to the largest tile everywhere.
        let worst = Board::from_exponents([
            0, 0, 0, 17, //
            0, 0, 0, 17, //
            0, 0, 0, 17, //
            17, 17, 17, 17,
        ])
        .unwrap();
        let v = LINES.eval(worst);
        let most = 24.0 * 12.0 * weight(ai2048_engine::MAX_EXPONENT as usize);
        assert!(v.is_finite() && v > -most && v < 0.0, "{v}");
        assert!(LINES.eval(worst) < LINES.eval(Board::EMPTY));
        // Below a lost board: the broken lines score lower still.
        assert_eq!(LINES.lost(worst), -2.0 * weight(17));
        assert!(v < LINES.lost(worst));
        let small: Board = "2 4 2 4/4 2 4 2/2 4 2 4/4 2 4 2".parse().unwrap();
        assert_eq!(LINES.lost(small), -131_072.0);
        let late: Board = "32768 2 4 2/2 4 2 4/4 2 4 2/2 4 2 4".parse().unwrap();
        assert_eq!(LINES.lost(late), -2.0 * 15.0 * 32768.0);
    }

    #[test]
    fn the_searches_f32_tell_apart_boards_that_differ_in_where_a_2_stands() {
        // Lifted above 0 by the most the climbs can take off, the two would round to
        // one f32 (645,026,688).
        let board: Board = "32768 16384 8192 4096/256 512 1024 2048/128 64 32 16/8 0 2 0"
            .parse()
            .unwrap();
        let moved: Board = "32768 16384 8192 4096/256 512 1024 2048/128 64 32 16/8 0 0 2"
            .parse()
            .unwrap();
        let (a, b) = (LINES.eval(board), LINES.eval(moved));
        assert_ne!(a, b);
        assert_ne!(a as f32, b as f32, "{a} and {b} round to one f32");
    }

    #[test]
    fn the_table_of_lines_scores_every_board_as_the_cells_do() {
        // Pseudo-random boards of tiles up to 32768, each scored through the table and
        // cell by cell: the same value, to the bit, under the default climb and under
        // one with a table of its own.
        let steep = Lines::with_climb(2.0, 10.0);
        let mut x: u64 = 0x2048_2048;
        for _ in 0..2000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let board = Board::from_u64(x);
            assert!(!board.has_high_tiles());
            assert_eq!(
                LINES.eval(board).to_bits(),
                by_cells(board, Lines::DEFAULT_CLIMB).to_bits(),
                "{board:?}"
            );
            assert_eq!(
                steep.eval(board).to_bits(),
                by_cells(board, 10.0).to_bits(),
                "{board:?}"
            );
        }
    }

    #[test]
    fn a_line_scores_as_described() {
        // One row 8 4 4 0 (exponents 3 2 2 0), the rest empty: the columns of the 8
        // and the 4s score their first tile, then that tile again over the empty cell
        // below it.
        let b: Board = "8 4 4 0/0 0 0 0/0 0 0 0/0 0 0 0".parse().unwrap();
        let (w3, w2) = (24.0, 8.0);
        let row = w3 + (w3 + w2) + (w2 + w2 + w2) + w2;
        let columns = (w3 + w3) + (w2 + w2) + (w2 + w2);
        assert_eq!(LINES.eval(b), row + columns);
    }

    #[test]
    fn the_cut_lets_a_block_through_and_stops_a_scatter() {
        let block: Board = "1024 512 256 128/512 256 8 0/64 2 0 0/2 0 0 0"
            .parse()
            .unwrap();
        let scatter: Board = "2 1024 4 512/256 8 512 2/4 128 2 64/256 2 8 4"
            .parse()
            .unwrap();
        assert!(LINES.eval(block) >= LINES.cut_below(block));
        // From the block, the scatter is cut; from the scatter itself, which scores
        // below 0, nothing is.
        assert!(LINES.eval(scatter) < LINES.cut_below(block));
        assert!(LINES.eval(scatter) < 0.0);
        assert_eq!(LINES.cut_below(scatter), f64::NEG_INFINITY);
    }
}
