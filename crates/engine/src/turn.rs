//! The two kinds of positions: the player to move, or a tile to spawn.

use crate::rng::RandomSource;
use crate::{Board, Dir, DirSet, Rng};

/// A tile placed by the game: its cell (0 to 15, reading order) and its exponent
/// (1 for a 2, 2 for a 4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Spawn {
    /// The cell, 0 to 15 in reading order.
    pub cell: u8,
    /// The exponent: 1 for a 2, 2 for a 4.
    pub exponent: u8,
}

impl Spawn {
    /// The tile value, 2 or 4.
    #[must_use]
    pub const fn tile(self) -> u32 {
        1 << self.exponent
    }
}

/// A board where the player moves.
///
/// Moving gives a [`RandableBoard`], or `None` when the move changes nothing.
///
/// ```
/// use ai2048_engine::{Board, Dir, PlayableBoard};
/// let board = PlayableBoard::new("2 2 0 0/0 0 0 0/0 0 0 0/0 0 0 0".parse()?);
/// let after = board.apply(Dir::Left).expect("legal");
/// assert_eq!(after.board().tile(0), 4);
/// assert!(board.apply(Dir::Up).is_none());
/// # Ok::<(), ai2048_engine::ParseBoardError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PlayableBoard(Board);

/// A board after a legal move, waiting for the game to spawn a tile. It always has at
/// least one empty cell.
///
/// ```
/// use ai2048_engine::{Board, Dir, PlayableBoard, Rng};
/// let board = PlayableBoard::new("2 2 0 0/0 0 0 0/0 0 0 0/0 0 0 0".parse()?);
/// let after = board.apply(Dir::Left).unwrap();
/// // 15 empty cells, each a 2 (p = 0.9/15) or a 4 (p = 0.1/15).
/// let total: f64 = after.successors(0.1).map(|(p, _)| p).sum();
/// assert_eq!(after.successors(0.1).count(), 30);
/// assert!((total - 1.0).abs() < 1e-12);
/// let (next, spawn) = after.with_random_tile(&mut Rng::new(1), 0.1);
/// assert_eq!(next.board().empty_count(), 14);
/// assert_eq!(next.board().exponent(spawn.cell as usize), spawn.exponent);
/// # Ok::<(), ai2048_engine::ParseBoardError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RandableBoard(Board);

impl PlayableBoard {
    /// The player to move on `board`. Any board may be played on; one with no legal
    /// move is simply over.
    #[must_use]
    pub const fn new(board: Board) -> PlayableBoard {
        PlayableBoard(board)
    }

    /// A new game's board: `start_tiles` tiles spawned on the empty board.
    #[must_use]
    pub fn init(rng: &mut Rng, start_tiles: u8, four_probability: f64) -> PlayableBoard {
        let mut board = Board::EMPTY;
        for _ in 0..start_tiles.min(16) {
            board = spawn_on(board, rng, four_probability).0;
        }
        PlayableBoard(board)
    }

    /// The tiles.
    #[must_use]
    #[inline]
    pub const fn board(self) -> Board {
        self.0
    }

    /// The board after the move, or `None` when the move changes nothing.
    #[must_use]
    #[inline]
    pub fn apply(self, dir: Dir) -> Option<RandableBoard> {
        let next = self.0.shift(dir);
        (next != self.0).then_some(RandableBoard(next))
    }

    /// Like [`PlayableBoard::apply`], with the score of the move's merges.
    #[must_use]
    #[inline]
    pub fn apply_scored(self, dir: Dir) -> Option<(RandableBoard, u32)> {
        let (next, score) = self.0.shift_scored(dir);
        (next != self.0).then_some((RandableBoard(next), score))
    }

    /// The legal moves.
    #[must_use]
    #[inline]
    pub fn legal_dirs(self) -> DirSet {
        self.0.legal_dirs()
    }

    /// Whether no move is legal.
    #[must_use]
    #[inline]
    pub fn is_over(self) -> bool {
        self.0.is_over()
    }
}

fn spawn_on<R: RandomSource + ?Sized>(
    board: Board,
    rng: &mut R,
    four_probability: f64,
) -> (Board, Spawn) {
    let empty = board.empty_mask();
    let n = empty.count_ones();
    debug_assert!(n > 0, "spawn on a full board");
    let k = rng.below(n);
    let cell = (0..16u8)
        .filter(|&i| empty & (0x8000 >> i) != 0)
        .nth(k as usize)
        .expect("k < number of empty cells");
    let exponent = if rng.chance(four_probability) { 2 } else { 1 };
    let spawn = Spawn { cell, exponent };
    (board.with_exponent(cell as usize, exponent), spawn)
}

impl RandableBoard {
    /// A board waiting for a spawn, or `None` if it has no empty cell.
    #[must_use]
    pub fn new(board: Board) -> Option<RandableBoard> {
        (board.empty_count() > 0).then_some(RandableBoard(board))
    }

    /// The tiles.
    #[must_use]
    #[inline]
    pub const fn board(self) -> Board {
        self.0
    }

    /// Spawns a tile as the game does: a uniformly chosen empty cell, a 4 with
    /// probability `four_probability`, else a 2. Draws first the cell, then the value.
    #[inline]
    pub fn with_random_tile(self, rng: &mut Rng, four_probability: f64) -> (PlayableBoard, Spawn) {
        self.with_random_tile_from(rng, four_probability)
    }

    /// [`RandableBoard::with_random_tile`], drawing from any [`RandomSource`] (say, the
    /// [`KeyedRng`](crate::keyed::KeyedRng) of a keyed game) by the same rules.
    #[inline]
    pub fn with_random_tile_from<R: RandomSource + ?Sized>(
        self,
        rng: &mut R,
        four_probability: f64,
    ) -> (PlayableBoard, Spawn) {
        let (board, spawn) = spawn_on(self.0, rng, four_probability);
        (PlayableBoard(board), spawn)
    }

    /// The board with `spawn` placed, or `None` if its cell is taken or its exponent is
    /// not 1 or 2.
    #[must_use]
    pub fn with_spawn(self, spawn: Spawn) -> Option<PlayableBoard> {
        let ok = spawn.cell < 16
            && matches!(spawn.exponent, 1 | 2)
            && self.0.exponent(spawn.cell as usize) == 0;
        ok.then(|| PlayableBoard(self.0.with_exponent(spawn.cell as usize, spawn.exponent)))
    }

    /// Every successor with its probability: each empty cell with a 2 and with a 4.
    /// Successors of probability 0 are left out; the probabilities sum to 1.
    pub fn successors(self, four_probability: f64) -> impl Iterator<Item = (f64, PlayableBoard)> {
        let board = self.0;
        let n = f64::from(board.empty_count());
        let p2 = (1.0 - four_probability) / n;
        let p4 = four_probability / n;
        board.empty_cells().flat_map(move |cell| {
            [(p2, 1u8), (p4, 2u8)]
                .into_iter()
                .filter(|&(p, _)| p > 0.0)
                .map(move |(p, e)| (p, PlayableBoard(board.with_exponent(cell, e))))
        })
    }
}
