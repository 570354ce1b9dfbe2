//! Row tables, computed once at compile time.
//!
//! A row is 16 bits: four 4-bit exponents, the leftmost cell in the most significant
//! nibble. Every table has one entry per possible row. Rows that hold an exponent of 15
//! (the 32768 tile) are never looked up: their merge could make a 65536, which needs a
//! fifth bit, so boards with such tiles take the exact slow path in `board.rs`.

/// Slides one line of exponents toward index 0, merging each tile at most once and
/// the pair nearest the wall first. Returns the new line and the score of its merges.
///
/// This is the one definition of the rules of a move: the tables are built from it and
/// the slow path for tiles of 32768 and above calls it directly.
pub(crate) const fn slide(line: [u8; 4]) -> ([u8; 4], u32) {
    let mut out = [0u8; 4];
    let mut len = 0;
    let mut can_merge = false;
    let mut score = 0u32;
    let mut i = 0;
    while i < 4 {
        let v = line[i];
        if v != 0 {
            if can_merge && out[len - 1] == v {
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

const ROWS: usize = 1 << 16;

const fn build_left() -> [u16; ROWS] {
    let mut t = [0u16; ROWS];
    let mut r = 0;
    while r < ROWS {
        t[r] = pack(slide(unpack(r as u16)).0);
        r += 1;
    }
    t
}

const fn build_right() -> [u16; ROWS] {
    let mut t = [0u16; ROWS];
    let mut r = 0;
    while r < ROWS {
        t[r] = pack(reverse(slide(reverse(unpack(r as u16))).0));
        r += 1;
    }
    t
}

const fn build_score() -> [u32; ROWS] {
    let mut t = [0u32; ROWS];
    let mut r = 0;
    while r < ROWS {
        // A row scores the same sliding left or right: each run of equal tiles merges
        // the same number of pairs either way.
        t[r] = slide(unpack(r as u16)).1;
        r += 1;
    }
    t
}

/// The row after sliding left.
pub(crate) static LEFT: [u16; ROWS] = build_left();
/// The row after sliding right.
pub(crate) static RIGHT: [u16; ROWS] = build_right();
/// The score of the merges of a row, in either horizontal direction.
pub(crate) static SCORE: [u32; ROWS] = build_score();

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
    }

    #[test]
    fn tables_agree_with_slide() {
        let row: u16 = 0x1102; // [2, 2, 0, 4]
        assert_eq!(LEFT[row as usize], 0x2200);
        assert_eq!(RIGHT[row as usize], 0x0022);
        assert_eq!(SCORE[row as usize], 4);
    }
}
