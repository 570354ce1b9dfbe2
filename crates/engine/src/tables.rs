//! Row tables, computed once at compile time.
//!
//! A row is 16 bits: four 4-bit exponents, the leftmost cell in the most significant
//! nibble. Every table has one entry per possible row. Rows that hold an exponent of 15
//! (the 32768 tile) are never looked up: their merge could make a 65536, which needs a
//! fifth bit, so boards with such tiles take the exact slow path in `board.rs`.
//!
//! A column is read the same way, top cell first, so the row tables serve it too: `UP`
//! and `DOWN` hold the moved column already placed in the cells of column 0 of a board,
//! and `MOVES` says whether a row (or column) changes in each direction.

use crate::board::MAX_EXPONENT;

/// Slides one line of exponents toward index 0, merging each tile at most once and
/// the pair nearest the wall first. Returns the new line and the score of its merges.
///
/// This is the one definition of the rules of a move: the tables are built from it and
/// the slow path for tiles of 32768 and above calls it directly.
///
/// Two 131072 tiles do not merge: the board has no room for a 262144, and no game on a
/// 4x4 board can hold two 131072 tiles at once (building the second needs all sixteen
/// cells), so only a board made by hand meets this case.
pub(crate) const fn slide(line: [u8; 4]) -> ([u8; 4], u32) {
    let mut out = [0u8; 4];
    let mut len = 0;
    let mut can_merge = false;
    let mut score = 0u32;
    let mut i = 0;
    while i < 4 {
        let v = line[i];
        if v != 0 {
            if can_merge && out[len - 1] == v && v < MAX_EXPONENT {
                out[len - 1] = v + 1;
                score += 1 << (v + 1);
                can_merge = false;
            } else {
                out[len] = v;
                len += 1;
                can_merge = true;
            }
        }
        i += 1;
    }
    (out, score)
}

const fn unpack(row: u16) -> [u8; 4] {
    [
        (row >> 12) as u8 & 0xF,
        (row >> 8) as u8 & 0xF,
        (row >> 4) as u8 & 0xF,
        row as u8 & 0xF,
    ]
}

/// Packs a line whose exponents all fit in a nibble. Larger values (only produced from
/// rows with a 15, which are never looked up) are masked.
const fn pack(line: [u8; 4]) -> u16 {
    ((line[0] as u16 & 0xF) << 12)
        | ((line[1] as u16 & 0xF) << 8)
        | ((line[2] as u16 & 0xF) << 4)
        | (line[3] as u16 & 0xF)
}

const fn reverse(line: [u8; 4]) -> [u8; 4] {
    [line[3], line[2], line[1], line[0]]
}

pub(crate) const ROWS: usize = 1 << 16;

/// The row tables that slide a row, built together with one slide a row: the compiler's
/// evaluator of constants is slow, and the engine is compiled by every check, build and
/// test of the workspace (a slide a row for each table took it 17.5 s to check).
struct Rows {
    left: [u16; ROWS],
    right: [u16; ROWS],
    score: [u32; ROWS],
    moves: [u8; ROWS],
}

const fn build_rows() -> Rows {
    let mut left = [0u16; ROWS];
    let mut score = [0u32; ROWS];
    let mut moves = [0u8; ROWS];
    let mut r = 0;
    while r < ROWS {
        let (line, merged) = slide(unpack(r as u16));
        left[r] = pack(line);
        // A row scores the same sliding left or right: each run of equal tiles merges
        // the same number of pairs either way.
        score[r] = merged;
        // Two 32768s that merge make a 65536, which a nibble cannot hold; such a row
        // merges (and so moves) whichever way it slides.
        let overflow = line[0] > 15 || line[1] > 15 || line[2] > 15;
        moves[r] = (overflow as u8) << 2;
        r += 1;
    }
    // Sliding right is sliding the reversed row left, reversed.
    let mut right = [0u16; ROWS];
    r = 0;
    while r < ROWS {
        let reversed = pack(reverse(unpack(r as u16))) as usize;
        right[r] = pack(reverse(unpack(left[reversed])));
        moves[r] |= (left[r] != r as u16) as u8 | ((right[r] != r as u16) as u8) << 1;
        r += 1;
    }
    Rows {
        left,
        right,
        score,
        moves,
    }
}

/// Places a row's four nibbles in the cells of column 0 of a board, top cell first.
pub(crate) const fn row_to_column(row: u16) -> u64 {
    let x = row as u64;
    (x << 12 | x << 24 | x << 36 | x << 48) & 0xF000_F000_F000_F000
}

const fn build_column(rows: &[u16; ROWS]) -> [u64; ROWS] {
    let mut t = [0u64; ROWS];
    let mut r = 0;
    while r < ROWS {
        t[r] = row_to_column(rows[r]);
        r += 1;
    }
    t
}

// Built once and used only to initialize the statics below, at compile time: never
// copied at run time, which is what the lint guards against.
#[allow(clippy::large_const_arrays)]
const BUILT: Rows = build_rows();

/// The row after sliding left.
pub(crate) static LEFT: [u16; ROWS] = BUILT.left;
/// The row after sliding right.
pub(crate) static RIGHT: [u16; ROWS] = BUILT.right;
/// The score of the merges of a row, in either horizontal direction.
pub(crate) static SCORE: [u32; ROWS] = BUILT.score;
/// A column (read top to bottom as a row) after sliding up, placed in column 0.
pub(crate) static UP: [u64; ROWS] = build_column(&BUILT.left);
/// A column (read top to bottom as a row) after sliding down, placed in column 0.
pub(crate) static DOWN: [u64; ROWS] = build_column(&BUILT.right);
/// Whether a row changes: bit 0 sliding left (or up, for a column), bit 1 sliding
/// right (or down); bit 2 is set when two 32768s in it merge, the only case where the
/// other tables are not exact for a row of nibbles.
pub(crate) static MOVES: [u8; ROWS] = BUILT.moves;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slide_follows_the_original_rules() {
        assert_eq!(slide([1, 1, 1, 1]), ([2, 2, 0, 0], 8));
        assert_eq!(slide([1, 1, 2, 0]), ([2, 2, 0, 0], 4));
        assert_eq!(slide([0, 0, 0, 1]), ([1, 0, 0, 0], 0));
        assert_eq!(slide([1, 0, 1, 1]), ([2, 1, 0, 0], 4));
        assert_eq!(slide([15, 15, 0, 0]), ([16, 0, 0, 0], 65536));
        assert_eq!(slide([16, 16, 1, 1]), ([17, 2, 0, 0], 131072 + 4));
        assert_eq!(slide([17, 17, 0, 0]), ([17, 17, 0, 0], 0));
    }

    #[test]
    fn column_tables_agree_with_the_row_tables() {
        for r in 0..ROWS {
            let row = r as u16;
            assert_eq!(UP[r], row_to_column(LEFT[r]));
            assert_eq!(DOWN[r], row_to_column(RIGHT[r]));
            let moves = u8::from(LEFT[r] != row) | u8::from(RIGHT[r] != row) << 1;
            assert_eq!(MOVES[r] & 3, moves);
            let overflow = slide(unpack(row)).0.iter().any(|&e| e > 15);
            assert_eq!(MOVES[r] & 4 != 0, overflow, "row {row:04x}");
            if overflow {
                assert_eq!(moves, 3, "a row where 32768s merge moves both ways");
            }
        }
        assert_eq!(MOVES[0xF0F1] & 4, 4);
        assert_eq!(MOVES[0xF1F0] & 4, 0);
        // 2, 2, 0, 4 down a column: 4, 4, 0, 0 in the cells of column 0.
        assert_eq!(UP[0x1102], 0x2000_2000_0000_0000);
        assert_eq!(DOWN[0x1102], 0x0000_0000_2000_2000);
    }

    #[test]
    fn tables_agree_with_slide() {
        let row: u16 = 0x1102; // [2, 2, 0, 4]
        assert_eq!(LEFT[row as usize], 0x2200);
        assert_eq!(RIGHT[row as usize], 0x0022);
        assert_eq!(SCORE[row as usize], 4);
    }
}
