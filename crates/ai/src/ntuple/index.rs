//! The index math of a network, kept apart from its storage: the eight symmetric
//! boards, and which weight of its table a tuple reads on each.
//!
//! A board's 64-bit form holds cell 0 in its most significant nibble, so the cells of a
//! tuple that follow one another in reading order (`0,1,2` or `4,5,6`) are one run of
//! bits: a shift and a mask read them all. A tuple is read as the few such runs it
//! is made of, on each of the board's eight symmetric images, computed once per board.

use ai2048_engine::Board;

use super::tuple::Tuple;

/// The board's 64-bit form, which holds tiles up to 32768, for a board that may hold
/// larger ones: such a board is *downgraded* (Guei et al. 2022), its smallest missing
/// tile filled by halving every tile above it, until its largest tile is 32768. The
/// tiles keep their order and their gaps above, so the network values the board by
/// the position it has learned that looks most like it. A board with no gap to fill
/// (which a real game cannot make) has its largest tiles read as 32768.
#[inline]
#[must_use]
pub(crate) fn capped(board: Board) -> u64 {
    if !board.has_high_tiles() {
        return board.low_bits();
    }
    downgraded(board, 15)
}

/// [`capped`] with the ceiling at 2^`top` (`top` from 1 to 15) in place of 32768: for a
/// network that has learned little past that tile, a board holding a larger one is
/// downgraded until its largest tile is 2^`top`.
#[inline]
#[must_use]
pub(crate) fn capped_at(board: Board, top: u8) -> u64 {
    if top >= 15 {
        return capped(board);
    }
    if !board.has_high_tiles() && !has_tile_above(board.low_bits(), top) {
        return board.low_bits();
    }
    downgraded(board, top)
}

/// Whether a cell of `bits` (tiles up to 32768) holds an exponent above `top` (at most
/// 15): with the nibbles spread one to a byte, adding 15 - `top` to each carries into
/// the byte's fifth bit exactly for those above `top`.
#[inline]
const fn has_tile_above(bits: u64, top: u8) -> bool {
    const LANES: u64 = 0x0F0F_0F0F_0F0F_0F0F;
    let add = (15 - top as u64) * 0x0101_0101_0101_0101;
    (((bits & LANES) + add) | (((bits >> 4) & LANES) + add)) & 0x1010_1010_1010_1010 != 0
}

#[cold]
fn downgraded(board: Board, top: u8) -> u64 {
    let mut exps = board.exponents();
    loop {
        let max = exps.iter().copied().max().unwrap_or(0);
        if max <= top {
            break;
        }
        let present = exps.iter().fold(0u32, |m, &e| m | 1 << e);
        // The smallest tile missing below the largest; 0 (empty) does not count.
        let gap = (1..max).find(|&e| present & (1 << e) == 0);
        match gap {
            Some(gap) => exps.iter_mut().filter(|e| **e > gap).for_each(|e| *e -= 1),
            None => exps.iter_mut().for_each(|e| *e = (*e).min(top)),
        }
    }
    exps.iter().fold(0u64, |b, &e| (b << 4) | u64::from(e))
}

/// The board mirrored left to right.
#[inline]
const fn mirror(b: u64) -> u64 {
    ((b & 0xF000_F000_F000_F000) >> 12)
        | ((b & 0x0F00_0F00_0F00_0F00) >> 4)
        | ((b & 0x00F0_00F0_00F0_00F0) << 4)
        | ((b & 0x000F_000F_000F_000F) << 12)
}

/// The board flipped top to bottom.
#[inline]
const fn flip(b: u64) -> u64 {
    let x = b.rotate_left(32);
    ((x & 0xFFFF_0000_FFFF_0000) >> 16) | ((x & 0x0000_FFFF_0000_FFFF) << 16)
}

/// The board with rows and columns swapped.
#[inline]
const fn transpose(b: u64) -> u64 {
    Board::from_u64(b).transpose().low_bits()
}

/// The eight images of a board under the symmetries of the square: itself, mirrored,
/// flipped, turned half round, and the same four of its transpose.
///
/// A tuple read on every image sees its own eight images on the board, so a network
/// values symmetric boards alike.
#[inline]
#[must_use]
pub(crate) fn symmetries(b: u64) -> [u64; 8] {
    let f = flip(b);
    let t = transpose(b);
    let tf = flip(t);
    [b, mirror(b), f, mirror(f), t, mirror(t), tf, mirror(tf)]
}

/// A run of a tuple's cells that follow one another in reading order: one shift and
/// mask of the board, placed at its digits of the index.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Run {
    /// The board shifted right by this puts the run's last cell in the low nibble.
    from: u8,
    /// The run's bits: 4 per cell.
    mask: u32,
    /// Where the run's last cell goes in the index.
    to: u8,
}

/// How one tuple reads its index on a board: its cells as runs. The tuple's first cell
/// is the most significant hexadecimal digit of the index, its last the least.
///
/// ```text
/// tuple 0,1,2,4,5,6 on a board b:  index = (b >> 52 & 0xFFF) << 12 | (b >> 36 & 0xFFF)
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct TupleIndex {
    runs: [Run; super::MAX_TUPLE_LEN],
    len: u8,
}

impl TupleIndex {
    /// The runs of `tuple`'s cells.
    pub(crate) fn new(tuple: &Tuple) -> TupleIndex {
        let cells = tuple.cells();
        let n = cells.len();
        let mut runs = [Run::default(); super::MAX_TUPLE_LEN];
        let mut len = 0;
        let mut k = 0;
        while k < n {
            let mut end = k + 1;
            while end < n && cells[end] == cells[end - 1] + 1 {
                end += 1;
            }
            let last = usize::from(cells[end - 1]);
            runs[len] = Run {
                from: (60 - 4 * last) as u8,
                mask: ((1u64 << (4 * (end - k))) - 1) as u32,
                to: (4 * (n - end)) as u8,
            };
            len += 1;
            k = end;
        }
        TupleIndex {
            runs,
            len: len as u8,
        }
    }

    /// The index this tuple reads on the board `b` (a board's 64-bit form).
    #[inline(always)]
    pub(crate) fn index(&self, b: u64) -> usize {
        if self.len <= 2 {
            // Most tuples are one or two runs (all of 4x6's): no loop, no branch. An
            // absent second run has an empty mask.
            let [r0, r1, ..] = self.runs;
            let i0 = ((b >> r0.from) as u32 & r0.mask) << r0.to;
            let i1 = ((b >> r1.from) as u32 & r1.mask) << r1.to;
            return (i0 | i1) as usize;
        }
        let mut index = 0;
        for run in &self.runs[..usize::from(self.len)] {
            index |= (((b >> run.from) as u32 & run.mask) as usize) << run.to;
        }
        index
    }
}

/// The index of a tuple's table in the digit order of the file format's versions 1
/// and 2, which put the first cell in the least significant digit: the digits reversed.
#[must_use]
pub(crate) fn reversed_digits(index: usize, cells: usize) -> usize {
    let mut out = 0;
    for k in 0..cells {
        out |= ((index >> (4 * k)) & 0xF) << (4 * (cells - 1 - k));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::SYMMETRIES;

    fn exponent(b: u64, cell: usize) -> u64 {
        (b >> (60 - 4 * cell)) & 0xF
    }

    #[test]
    fn the_images_are_the_eight_symmetries() {
        let b: u64 = 0x0123_4567_89AB_CDEF;
        let images = symmetries(b);
        // Each image holds at (r, c) what b holds at s(r, c), for one symmetry s each.
        let mut matched = [false; 8];
        for image in images {
            let s = SYMMETRIES
                .iter()
                .position(|s| {
                    (0..16).all(|i| {
                        let (r, c) = s(i / 4, i % 4);
                        exponent(image, i) == exponent(b, 4 * r + c)
                    })
                })
                .expect("a symmetry");
            assert!(!matched[s], "symmetry {s} twice");
            matched[s] = true;
        }
        assert_eq!(images[0], b);
        assert_eq!(images[1], 0x3210_7654_BA98_FEDC);
        assert_eq!(images[2], 0xCDEF_89AB_4567_0123);
        assert_eq!(images[4], 0x048C_159D_26AE_37BF);
    }

    #[test]
    fn a_tuple_reads_its_cells_first_cell_highest() {
        let b: u64 = 0x0123_4567_89AB_CDEF;
        for cells in [
            &[0u8, 1, 2, 3, 4, 5][..],
            &[0, 1, 2, 4, 5, 6],
            &[4, 5, 6, 8, 9, 10],
            &[15, 3, 7, 11],
            &[5],
            &[2, 1, 0],
        ] {
            let tuple = Tuple::new(cells).expect("valid");
            let expected = cells.iter().fold(0, |acc, &c| {
                (acc << 4) | exponent(b, usize::from(c)) as usize
            });
            assert_eq!(TupleIndex::new(&tuple).index(b), expected, "{tuple}");
        }
        let runs = TupleIndex::new(&Tuple::new(&[0, 1, 2, 4, 5, 6]).expect("valid"));
        assert_eq!(runs.len, 2);
        let runs = TupleIndex::new(&Tuple::new(&[4, 5, 6, 7, 8, 9]).expect("valid"));
        assert_eq!(runs.len, 1);
    }

    #[test]
    fn boards_past_32768_are_downgraded() {
        let board = |t: &str| t.parse::<Board>().expect("a board");
        let b = |t: &str| board(t).low_bits();
        // 65536 with no 2 on the board: every tile halves.
        assert_eq!(
            capped(board("65536 32768 4 8/0 0 0 0/0 0 0 0/0 0 0 0")),
            b("32768 16384 2 4/0 0 0 0/0 0 0 0/0 0 0 0")
        );
        // The smallest gap is filled: the 2 and 4 stay, 16 and up halve.
        assert_eq!(
            capped(board("131072 65536 2 4/16 0 0 0/0 0 0 0/0 0 0 0")),
            b("32768 16384 2 4/8 0 0 0/0 0 0 0/0 0 0 0")
        );
        // A board with no gap: its largest tiles read as 32768.
        let full = "2 4 8 16/32 64 128 256/512 1024 2048 4096/8192 16384 32768 65536";
        assert_eq!(capped(board(full)) & 0xFF, 0xFF);
        let small = Board::from_u64(0x1200_0000_0000_00F1);
        assert_eq!(capped(small), small.low_bits());
    }

    #[test]
    fn a_lower_ceiling_downgrades_from_it() {
        let board = |t: &str| t.parse::<Board>().expect("a board");
        let b = |t: &str| board(t).low_bits();
        // Two 16384s merged: the smallest gap (4) is filled, so the 32768 reads as
        // 16384 and the tiles keep their gaps above.
        let merged = board("32768 8192 4096 2/2 0 0 0/0 0 0 0/0 0 0 0");
        assert_eq!(
            capped_at(merged, 14),
            b("16384 4096 2048 2/2 0 0 0/0 0 0 0/0 0 0 0")
        );
        assert_eq!(capped_at(merged, 15), merged.low_bits());
        // Nothing above the ceiling: the board as it is.
        let low = board("16384 8192 4 2/0 0 0 0/0 0 0 0/0 0 0 2");
        assert_eq!(capped_at(low, 14), low.low_bits());
        // With 16384 there too, the smallest gap (8) is filled first.
        assert_eq!(
            capped_at(board("32768 16384 4 2/16 0 0 0/0 0 0 0/0 0 0 0"), 14),
            b("16384 8192 4 2/8 0 0 0/0 0 0 0/0 0 0 0")
        );
        // Past 32768 as well, down to the ceiling.
        assert_eq!(
            capped_at(board("65536 32768 4 2/0 0 0 0/0 0 0 0/0 0 0 0"), 13),
            b("8192 4096 4 2/0 0 0 0/0 0 0 0/0 0 0 0")
        );
    }

    #[test]
    fn tiles_above_a_ceiling_are_found_in_every_cell() {
        for top in 1..15u8 {
            for cell in 0..16 {
                for e in 0..16u64 {
                    let two_at_the_top = 0x1000_0000_0000_0000 * u64::from(cell != 15);
                    let bits = (e << (4 * cell)) | two_at_the_top;
                    let above = Board::from_u64(bits).max_exponent() > top;
                    assert_eq!(has_tile_above(bits, top), above, "{top} {cell} {e}");
                }
            }
        }
    }

    #[test]
    fn reversing_digits() {
        assert_eq!(reversed_digits(0x123, 3), 0x321);
        assert_eq!(reversed_digits(0x10, 3), 0x10);
        assert_eq!(reversed_digits(0xF, 2), 0xF0);
    }
}
