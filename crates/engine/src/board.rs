//! The board: sixteen cells in a 64-bit word, with a fifth bit per cell for the rare
//! tiles of 65536 and 131072.

use core::fmt;

use crate::tables::{slide, DOWN, LEFT, MOVES, RIGHT, ROWS, SCORE, UP};

/// The bit of `MOVES` that marks a line where two 32768s merge.
const OVERFLOW: u8 = 4;
use crate::{Dir, DirSet};

/// The largest exponent a tile can have: 2^17 = 131072, the largest tile a 4x4 board
/// can hold.
pub const MAX_EXPONENT: u8 = 17;

/// The largest tile value, 131072.
pub const MAX_TILE: u32 = 1 << MAX_EXPONENT;

const NIBBLE_ONES: u64 = 0x1111_1111_1111_1111;

/// A placement of tiles on the 4x4 grid, with no notion of whose turn it is.
///
/// Cells are numbered 0 to 15 in reading order: cell `4 * row + col`, row 0 at the top.
/// Each cell holds the exponent of its tile: 0 for an empty cell, 1 for a 2, 11 for a
/// 2048, up to 17 for a 131072.
///
/// # Representation
///
/// The low four bits of every exponent live in a `u64`, cell 0 in the most significant
/// nibble, so the 16 hex digits of that word read the board in reading order. The fifth
/// bit of every exponent lives in a `u16` that is zero unless a tile of 65536 or more is
/// on the board. A move looks up whole rows in tables built at compile time; up and
/// down gather each column with one multiply and look it up in column tables that
/// place the moved column straight back. Only a board that holds a 32768 or larger tile
/// takes a slower exact path, so 32768 + 32768 makes 65536 and 65536 + 65536 makes
/// 131072.
///
/// ```
/// use ai2048_engine::{Board, Dir};
///
/// let board: Board = "2 2 4 0 / 0 0 0 0 / 0 0 0 0 / 0 0 0 2".parse()?;
/// let (moved, score) = board.shift_scored(Dir::Left);
/// assert_eq!(moved, "4 4 0 0 / 0 0 0 0 / 0 0 0 0 / 2 0 0 0".parse()?);
/// assert_eq!(score, 4);
/// let text = moved.to_string();
/// assert_eq!(text.lines().next(), Some("    4    4    .    ."));
/// assert_eq!(text.lines().last(), Some("    2    .    .    ."));
/// # Ok::<(), ai2048_engine::ParseBoardError>(())
/// ```
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Board {
    cells: u64,
    high: u16,
}

#[inline]
const fn transpose64(x: u64) -> u64 {
    let a1 = x & 0xF0F0_0F0F_F0F0_0F0F;
    let a2 = x & 0x0000_F0F0_0000_F0F0;
    let a3 = x & 0x0F0F_0000_0F0F_0000;
    let a = a1 | (a2 << 12) | (a3 >> 12);
    let b1 = a & 0xFF00_FF00_00FF_00FF;
    let b2 = a & 0x00FF_00FF_0000_0000;
    let b3 = a & 0x0000_0000_FF00_FF00;
    b1 | (b2 >> 24) | (b3 << 24)
}

/// Transposes a 4x4 bit matrix stored like the cells: cell 0 in the most significant bit.
#[inline]
const fn transpose16(x: u16) -> u16 {
    let mut out = 0u16;
    let mut i = 0;
    while i < 16 {
        if x & (0x8000 >> i) != 0 {
            let (r, c) = (i / 4, i % 4);
            out |= 0x8000 >> (4 * c + r);
        }
        i += 1;
    }
    out
}

/// A mask with bit 0 of every nibble set where that nibble is nonzero.
#[inline]
const fn nonzero_nibbles(x: u64) -> u64 {
    let x = x | (x >> 1);
    let x = x | (x >> 2);
    x & NIBBLE_ONES
}

/// A mask with the top bit of every nibble set where that nibble is 15, the 32768 tile
/// that may merge into a 65536: adding 1 to the low three bits carries into the top
/// bit only when they are all set.
#[inline(always)]
const fn full_nibbles(x: u64) -> u64 {
    ((x & 0x7777_7777_7777_7777) + NIBBLE_ONES) & x & 0x8888_8888_8888_8888
}

/// Each of the four rows of `c` (16 bits each) replaced by its entry in `table`.
#[inline(always)]
fn rows_through(table: &[u16; ROWS], c: u64) -> u64 {
    (table[(c >> 48) as usize] as u64) << 48
        | (table[(c >> 32) as usize & 0xFFFF] as u64) << 32
        | (table[(c >> 16) as usize & 0xFFFF] as u64) << 16
        | table[c as usize & 0xFFFF] as u64
}

#[inline]
fn rows_left(c: u64) -> u64 {
    rows_through(&LEFT, c)
}

#[inline]
fn rows_right(c: u64) -> u64 {
    rows_through(&RIGHT, c)
}

#[inline]
fn rows_score(c: u64) -> u32 {
    SCORE[(c >> 48) as usize]
        + SCORE[(c >> 32) as usize & 0xFFFF]
        + SCORE[(c >> 16) as usize & 0xFFFF]
        + SCORE[c as usize & 0xFFFF]
}

/// The cells of column 0; shifted right by `4 * col`, those of column `col`.
const COLUMN_0: u64 = 0xF000_F000_F000_F000;

/// The 16-bit key of column `col`: its four nibbles, top cell first, read like a row.
///
/// One multiply gathers them: after the mask, the nibbles sit at bits 60, 44, 28 and
/// 12, and the multiplier adds copies shifted by 0, 12, 24 and 36 bits; the copies that
/// land in the top 16 bits are exactly the four wanted nibbles, and no two copies
/// overlap, so nothing carries.
#[inline(always)]
const fn column(c: u64, col: u32) -> usize {
    (((c << (4 * col)) & COLUMN_0).wrapping_mul(0x0000_0010_0100_1001) >> 48) as usize
}

#[inline(always)]
fn cols_up(c: u64) -> u64 {
    UP[column(c, 0)] | UP[column(c, 1)] >> 4 | UP[column(c, 2)] >> 8 | UP[column(c, 3)] >> 12
}

#[inline(always)]
fn cols_down(c: u64) -> u64 {
    DOWN[column(c, 0)]
        | DOWN[column(c, 1)] >> 4
        | DOWN[column(c, 2)] >> 8
        | DOWN[column(c, 3)] >> 12
}

#[inline(always)]
fn cols_score(c: u64) -> u32 {
    SCORE[column(c, 0)] + SCORE[column(c, 1)] + SCORE[column(c, 2)] + SCORE[column(c, 3)]
}

/// Bit 0: some row moves left; bit 1: some row moves right; bit 2 (`OVERFLOW`): two
/// 32768s merge in some row.
#[inline(always)]
fn rows_moves(c: u64) -> u8 {
    MOVES[(c >> 48) as usize]
        | MOVES[(c >> 32) as usize & 0xFFFF]
        | MOVES[(c >> 16) as usize & 0xFFFF]
        | MOVES[c as usize & 0xFFFF]
}

/// Bit 0: some column moves up; bit 1: some column moves down; bit 2 (`OVERFLOW`): two
/// 32768s merge in some column.
#[inline(always)]
fn cols_moves(c: u64) -> u8 {
    MOVES[column(c, 0)] | MOVES[column(c, 1)] | MOVES[column(c, 2)] | MOVES[column(c, 3)]
}

impl Board {
    /// The empty board.
    pub const EMPTY: Board = Board { cells: 0, high: 0 };

    /// A board from its 64-bit form: sixteen 4-bit exponents, cell 0 in the most
    /// significant nibble. This form holds tiles up to 32768.
    ///
    /// ```
    /// use ai2048_engine::Board;
    /// let board = Board::from_u64(0x1000_0000_0000_0002);
    /// assert_eq!(board.tile(0), 2);
    /// assert_eq!(board.tile(15), 4);
    /// ```
    #[must_use]
    pub const fn from_u64(cells: u64) -> Board {
        Board { cells, high: 0 }
    }

    /// The low four bits of every exponent, cell 0 in the most significant nibble.
    /// This is the whole board unless [`Board::has_high_tiles`].
    #[must_use]
    pub const fn low_bits(self) -> u64 {
        self.cells
    }

    /// The fifth bit of every exponent, cell 0 in the most significant bit. Nonzero only
    /// when a tile of 65536 or more is on the board.
    #[must_use]
    pub const fn high_bits(self) -> u16 {
        self.high
    }

    /// Whether a tile of 65536 or more is on the board.
    #[must_use]
    pub const fn has_high_tiles(self) -> bool {
        self.high != 0
    }

    /// A board from sixteen exponents in reading order.
    ///
    /// # Errors
    ///
    /// Returns the index of the first cell whose exponent is above [`MAX_EXPONENT`].
    ///
    /// ```
    /// use ai2048_engine::Board;
    /// let mut exps = [0u8; 16];
    /// exps[0] = 17;
    /// assert_eq!(Board::from_exponents(exps).unwrap().max_tile(), 131072);
    /// exps[3] = 18;
    /// assert_eq!(Board::from_exponents(exps), Err(3));
    /// ```
    pub fn from_exponents(exps: [u8; 16]) -> Result<Board, usize> {
        let mut board = Board::EMPTY;
        for (i, &e) in exps.iter().enumerate() {
            if e > MAX_EXPONENT {
                return Err(i);
            }
            board = board.with_exponent(i, e);
        }
        Ok(board)
    }

    /// The sixteen exponents in reading order.
    #[must_use]
    pub fn exponents(self) -> [u8; 16] {
        let mut out = [0u8; 16];
        for (i, e) in out.iter_mut().enumerate() {
            *e = self.exponent(i);
        }
        out
    }

    /// The exponent of cell `i` (0 when empty).
    ///
    /// # Panics
    ///
    /// Panics if `i >= 16`.
    #[must_use]
    #[inline]
    pub const fn exponent(self, i: usize) -> u8 {
        assert!(i < 16, "cell index out of range");
        let low = (self.cells >> (60 - 4 * i)) as u8 & 0xF;
        let high = (self.high >> (15 - i)) as u8 & 1;
        low | high << 4
    }

    /// The tile value of cell `i` (0 when empty).
    ///
    /// # Panics
    ///
    /// Panics if `i >= 16`.
    #[must_use]
    pub const fn tile(self, i: usize) -> u32 {
        match self.exponent(i) {
            0 => 0,
            e => 1 << e,
        }
    }

    /// This board with cell `i` set to exponent `exp` (0 empties it).
    ///
    /// # Panics
    ///
    /// Panics if `i >= 16` or `exp > MAX_EXPONENT`.
    #[must_use]
    pub const fn with_exponent(self, i: usize, exp: u8) -> Board {
        assert!(i < 16, "cell index out of range");
        assert!(exp <= MAX_EXPONENT, "exponent above 17");
        let shift = 60 - 4 * i;
        let cells = (self.cells & !(0xF << shift)) | ((exp as u64 & 0xF) << shift);
        let bit = 0x8000 >> i;
        let high = if exp >= 16 {
            self.high | bit
        } else {
            self.high & !bit
        };
        Board { cells, high }
    }

    /// The tile values as four rows of four, top row first, 0 for empty.
    ///
    /// ```
    /// use ai2048_engine::Board;
    /// let board = Board::from_u64(0x1000_0000_0000_0000);
    /// assert_eq!(board.to_rows()[0], [2, 0, 0, 0]);
    /// ```
    #[must_use]
    pub fn to_rows(self) -> [[u32; 4]; 4] {
        let mut rows = [[0u32; 4]; 4];
        for (i, tile) in rows.iter_mut().flatten().enumerate() {
            *tile = self.tile(i);
        }
        rows
    }

    /// The board with rows and columns swapped.
    #[must_use]
    #[inline]
    pub const fn transpose(self) -> Board {
        Board {
            cells: transpose64(self.cells),
            high: if self.high == 0 {
                0
            } else {
                transpose16(self.high)
            },
        }
    }

    /// Whether the tables are exact for this board without looking further: no tile of
    /// 32768 or more.
    #[inline]
    const fn is_small(self) -> bool {
        (full_nibbles(self.cells) | self.high as u64) == 0
    }

    /// The board after sliding toward `dir`, without spawning. Returns the board
    /// unchanged when the move is illegal. This is the fast form for searches; see
    /// [`Board::shift_scored`] for the score and [`crate::PlayableBoard::apply`] for the
    /// checked form.
    ///
    /// ```
    /// use ai2048_engine::{Board, Dir};
    /// let board: Board = "0 0 0 2 / 0 0 0 0 / 0 0 0 0 / 0 0 0 0".parse()?;
    /// assert_eq!(board.shift(Dir::Left).tile(0), 2);
    /// assert_eq!(board.shift(Dir::Right), board);
    /// # Ok::<(), ai2048_engine::ParseBoardError>(())
    /// ```
    #[must_use]
    #[inline]
    pub fn shift(self, dir: Dir) -> Board {
        if self.is_small() {
            let c = self.cells;
            let cells = match dir {
                Dir::Left => rows_left(c),
                Dir::Right => rows_right(c),
                Dir::Up => cols_up(c),
                Dir::Down => cols_down(c),
            };
            Board { cells, high: 0 }
        } else {
            self.shift_large(dir).0
        }
    }

    /// The board after sliding toward `dir`, and the score of its merges (the sum of
    /// the merged tiles). An illegal move returns the board unchanged and 0.
    #[must_use]
    #[inline]
    pub fn shift_scored(self, dir: Dir) -> (Board, u32) {
        if self.is_small() {
            let c = self.cells;
            match dir {
                Dir::Left => (Board::from_u64(rows_left(c)), rows_score(c)),
                Dir::Right => (Board::from_u64(rows_right(c)), rows_score(c)),
                Dir::Up => (Board::from_u64(cols_up(c)), cols_score(c)),
                Dir::Down => (Board::from_u64(cols_down(c)), cols_score(c)),
            }
        } else {
            self.shift_large(dir)
        }
    }

    /// Moves a board with a tile of 32768 or more. The tables are exact unless two
    /// 32768s merge or a 65536 or 131072 is on the board, so most such boards still
    /// take them.
    #[cold]
    #[inline(never)]
    fn shift_large(self, dir: Dir) -> (Board, u32) {
        if self.high == 0 {
            let c = self.cells;
            let lines = match dir {
                Dir::Left | Dir::Right => rows_moves(c),
                Dir::Up | Dir::Down => cols_moves(c),
            };
            if lines & OVERFLOW == 0 {
                return match dir {
                    Dir::Left => (Board::from_u64(rows_left(c)), rows_score(c)),
                    Dir::Right => (Board::from_u64(rows_right(c)), rows_score(c)),
                    Dir::Up => (Board::from_u64(cols_up(c)), cols_score(c)),
                    Dir::Down => (Board::from_u64(cols_down(c)), cols_score(c)),
                };
            }
        }
        self.shift_exact(dir)
    }

    /// The exact path for boards with a tile of 32768 or more: rows without such tiles
    /// still use the tables, the others slide exponent by exponent.
    #[cold]
    fn shift_exact(self, dir: Dir) -> (Board, u32) {
        let vertical = matches!(dir, Dir::Up | Dir::Down);
        let toward_start = matches!(dir, Dir::Up | Dir::Left);
        let b = if vertical { self.transpose() } else { self };
        let mut out = Board::EMPTY;
        let mut score = 0;
        for r in 0..4 {
            let shift = 48 - 16 * r;
            let row = (b.cells >> shift) as u16;
            let high_row = (b.high >> (12 - 4 * r)) & 0xF;
            if high_row == 0 && MOVES[row as usize] & OVERFLOW == 0 {
                let table = if toward_start { &LEFT } else { &RIGHT };
                out.cells |= (table[row as usize] as u64) << shift;
                score += SCORE[row as usize];
            } else {
                let mut line = [0u8; 4];
                for (c, e) in line.iter_mut().enumerate() {
                    *e = b.exponent(4 * r + c);
                }
                if !toward_start {
                    line.reverse();
                }
                let (mut moved, s) = slide(line);
                if !toward_start {
                    moved.reverse();
                }
                for (c, &e) in moved.iter().enumerate() {
                    out = out.with_exponent(4 * r + c, e);
                }
                score += s;
            }
        }
        (if vertical { out.transpose() } else { out }, score)
    }

    /// Whether sliding toward `dir` changes the board.
    #[must_use]
    #[inline]
    pub fn can_move(self, dir: Dir) -> bool {
        // A row that overflows merges, so it moves: the move bits are exact for every
        // board without a 65536 or 131072.
        if self.high == 0 {
            let c = self.cells;
            match dir {
                Dir::Left => rows_moves(c) & 1 != 0,
                Dir::Right => rows_moves(c) & 2 != 0,
                Dir::Up => cols_moves(c) & 1 != 0,
                Dir::Down => cols_moves(c) & 2 != 0,
            }
        } else {
            self.shift_exact(dir).0 != self
        }
    }

    /// The directions whose move changes the board.
    ///
    /// ```
    /// use ai2048_engine::{Board, Dir};
    /// let board: Board = "2 0 0 0 / 0 0 0 0 / 0 0 0 0 / 0 0 0 0".parse()?;
    /// assert_eq!(board.legal_dirs().iter().collect::<Vec<_>>(), vec![Dir::Down, Dir::Right]);
    /// # Ok::<(), ai2048_engine::ParseBoardError>(())
    /// ```
    #[must_use]
    #[inline]
    pub fn legal_dirs(self) -> DirSet {
        if self.high == 0 {
            let mut set = DirSet::EMPTY;
            let rows = rows_moves(self.cells);
            let cols = cols_moves(self.cells);
            for (dir, can) in [
                (Dir::Up, cols & 1),
                (Dir::Down, cols & 2),
                (Dir::Left, rows & 1),
                (Dir::Right, rows & 2),
            ] {
                if can != 0 {
                    set = set.with(dir);
                }
            }
            set
        } else {
            self.legal_dirs_exact()
        }
    }

    /// [`Board::legal_dirs`] for boards with a tile of 65536 or more.
    #[cold]
    #[inline(never)]
    fn legal_dirs_exact(self) -> DirSet {
        let mut set = DirSet::EMPTY;
        for dir in Dir::ALL {
            if self.shift_exact(dir).0 != self {
                set = set.with(dir);
            }
        }
        set
    }

    /// Whether no move is legal: the game is over.
    #[must_use]
    pub fn is_over(self) -> bool {
        self.legal_dirs().is_empty()
    }

    /// A mask of the empty cells: bit `15 - i` is set when cell `i` is empty (cell 0 in
    /// the most significant bit, as in [`Board::high_bits`]).
    #[must_use]
    #[inline]
    pub fn empty_mask(self) -> u16 {
        // Bit 0 of every empty nibble, then those 16 bits gathered, cell 0 (the top
        // nibble) into bit 15: each step halves the gaps between them.
        let x = !nonzero_nibbles(self.cells) & NIBBLE_ONES;
        let x = (x | x >> 3) & 0x0303_0303_0303_0303;
        let x = (x | x >> 6) & 0x000F_000F_000F_000F;
        let x = (x | x >> 12) & 0x0000_00FF_0000_00FF;
        let x = (x | x >> 24) & 0xFFFF;
        x as u16 & !self.high
    }

    /// The number of empty cells.
    #[must_use]
    #[inline]
    pub fn empty_count(self) -> u32 {
        let empty_low = 16 - nonzero_nibbles(self.cells).count_ones();
        if self.high == 0 {
            empty_low
        } else {
            self.empty_mask().count_ones()
        }
    }

    /// The indices of the empty cells, in reading order.
    pub fn empty_cells(self) -> impl Iterator<Item = usize> {
        let mask = self.empty_mask();
        (0..16).filter(move |&i| mask & (0x8000 >> i) != 0)
    }

    /// The largest exponent on the board (0 for an empty board).
    #[must_use]
    pub fn max_exponent(self) -> u8 {
        if self.high == 0 {
            (0..16)
                .map(|i| (self.cells >> (4 * i)) as u8 & 0xF)
                .max()
                .unwrap_or(0)
        } else {
            self.exponents().into_iter().max().unwrap_or(0)
        }
    }

    /// The largest tile on the board (0 for an empty board).
    #[must_use]
    pub fn max_tile(self) -> u32 {
        match self.max_exponent() {
            0 => 0,
            e => 1 << e,
        }
    }

    /// The sum of the tiles on the board.
    #[must_use]
    pub fn tile_sum(self) -> u64 {
        (0..16).map(|i| u64::from(self.tile(i))).sum()
    }

    /// The 16-character hex form that 2048 AIs use: one digit per exponent in reading
    /// order. Exponents 16 and 17 (65536 and 131072) are written `g` and `h`.
    ///
    /// ```
    /// use ai2048_engine::Board;
    /// let board: Board = "2 4 8 16 / 0 0 0 0 / 0 0 0 0 / 0 0 0 131072".parse()?;
    /// assert_eq!(board.to_hex(), "123400000000000h");
    /// assert_eq!(board.to_hex().parse::<Board>()?, board);
    /// # Ok::<(), ai2048_engine::ParseBoardError>(())
    /// ```
    #[must_use]
    pub fn to_hex(self) -> String {
        self.exponents()
            .iter()
            .map(|&e| char::from_digit(u32::from(e), 18).unwrap_or('?'))
            .collect()
    }
}

impl fmt::Display for Board {
    /// Four lines of four right-aligned tiles, `.` for an empty cell.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let width = (self.max_tile().to_string().len() + 1).max(5);
        for row in self.to_rows() {
            for tile in row {
                if tile == 0 {
                    write!(f, "{:>width$}", ".")?;
                } else {
                    write!(f, "{tile:>width$}")?;
                }
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Board({})", self.to_hex())
    }
}
