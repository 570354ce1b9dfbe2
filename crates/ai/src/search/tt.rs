//! A fixed-size transposition table for expectimax chance nodes.

use ai2048_engine::Board;

/// The hash that picks a board's slot in a table of a power of two slots (mask it):
/// Fibonacci hashing of both planes, whose high half is well mixed.
#[inline]
pub(super) fn slot_hash(board: Board) -> usize {
    let h = (board.low_bits() ^ u64::from(board.high_bits()).rotate_left(29))
        .wrapping_mul(0x9E37_79B9_7F4A_7C15);
    (h >> 32) as usize
}

#[derive(Clone, Copy, Default)]
struct Entry {
    low: u64,
    /// The board's high plane in bits 0..16, the depth plus one in 16..23 (0 = empty
    /// slot), the class of the probability it was reached with in 23..32.
    tag: u32,
    value: f32,
}

/// The deepest depth an entry records; deeper searches are stored as this deep.
const MAX_DEPTH: u32 = 126;

/// A probability's class: its `f32` exponent and first mantissa bit, so that a larger
/// class is a larger probability (classes are steps of about √2).
#[inline]
fn class(prob: f32) -> u32 {
    (prob.max(0.0).to_bits() >> 22) & 0x1FF
}

/// A transposition table of a fixed number of slots, so memory stays flat however long
/// the game. Each slot holds one chance node's value with the depth it was searched to
/// and the probability of reaching it, which bounds how much of the tree under it was
/// cut as too unlikely: a value is reused only for a search of at most that depth
/// reached with at most that probability (to within a step of √2), as macroxue's
/// search reuses its cache. A new entry replaces the old one in its slot.
///
/// ```
/// use ai2048_ai::search::TransTable;
/// use ai2048_engine::Board;
/// let mut tt = TransTable::new(1 << 10);
/// let b = Board::from_u64(0x1200_0000_0000_0000);
/// tt.prefetch(b); // a hint to the memory: nothing else changes
/// tt.store(b, 3, 0.5, 1.5);
/// assert_eq!(tt.probe(b, 2, 0.5), Some(1.5));
/// assert_eq!(tt.probe(b, 2, 0.1), Some(1.5));
/// assert_eq!(tt.probe(b, 4, 0.5), None, "not searched that deep");
/// assert_eq!(tt.probe(b, 2, 1.0), None, "searched with more of it cut");
/// ```
pub struct TransTable {
    slots: Vec<Entry>,
    mask: usize,
}

impl TransTable {
    /// A table of `slots` entries (rounded up to a power of two, 16 bytes each).
    #[must_use]
    pub fn new(slots: usize) -> TransTable {
        let n = slots.max(1).next_power_of_two();
        TransTable {
            slots: crate::huge::filled(n, |_| Entry::default()),
            mask: n - 1,
        }
    }

    /// The number of slots.
    #[must_use]
    pub fn len(&self) -> usize {
        self.slots.len()
    }

    /// Whether the table has no slots (never: it has at least one).
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }

    /// Empties every slot.
    pub fn clear(&mut self) {
        self.slots.fill(Entry::default());
    }

    #[inline]
    fn index(&self, board: Board) -> usize {
        slot_hash(board) & self.mask
    }

    #[inline]
    fn tag(board: Board, depth: u32, prob: f32) -> u32 {
        u32::from(board.high_bits()) | (depth.min(MAX_DEPTH) + 1) << 16 | class(prob) << 23
    }

    /// Asks the memory for the slot of `board` (a prefetch hint, on x86-64), so that a
    /// probe soon after finds it in the cache: a slot read at random from tens of
    /// megabytes otherwise waits for main memory. Changes no value.
    #[inline]
    pub fn prefetch(&self, board: Board) {
        crate::prefetch::prefetch(&self.slots[self.index(board)]);
    }

    /// The value stored for `board` if it was searched at least `depth` deep, reached
    /// with at least probability `prob` (to within a step of √2).
    #[inline]
    #[must_use]
    pub fn probe(&self, board: Board, depth: u32, prob: f32) -> Option<f32> {
        let e = &self.slots[self.index(board)];
        let stored_depth = (e.tag >> 16 & 0x7F).checked_sub(1)?;
        (e.low == board.low_bits()
            && e.tag & 0xFFFF == u32::from(board.high_bits())
            && stored_depth >= depth
            && e.tag >> 23 >= class(prob))
        .then_some(e.value)
    }

    /// Stores the value of `board` searched `depth` deep, reached with probability
    /// `prob`.
    #[inline]
    pub fn store(&mut self, board: Board, depth: u32, prob: f32, value: f32) {
        let i = self.index(board);
        self.slots[i] = Entry {
            low: board.low_bits(),
            tag: Self::tag(board, depth, prob),
            value,
        };
    }
}
