//! A fixed-size transposition table for expectimax chance nodes.

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use ai2048_engine::Board;

/// The hash that picks a board's slot in a table of a power of two slots (mask it):
/// Fibonacci hashing of both planes, whose high half is well mixed.
#[inline]
pub(super) fn slot_hash(board: Board) -> usize {
    let h = (board.low_bits() ^ u64::from(board.high_bits()).rotate_left(29))
        .wrapping_mul(0x9E37_79B9_7F4A_7C15);
    (h >> 32) as usize
}

/// One slot: the board's low plane and the entry's data, stored as the data and the
/// low plane XOR the data, so that a slot read while another thread writes it (the
/// two words of different entries) fails its check instead of giving a wrong value.
#[derive(Default)]
struct Slot {
    /// The board's low plane XOR `data`.
    key: AtomicU64,
    /// The tag in bits 32..64 (the board's high plane in its bits 0..16, the depth
    /// plus one in 16..23, 0 for an empty slot, the class of the probability it was
    /// reached with in 23..32), the value's `f32` bits in 0..32.
    data: AtomicU64,
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
/// The threads of one search share a table: a slot is two atomic words, read and
/// written without locks, and a slot caught between two writers reads as empty.
///
/// ```
/// use ai2048_ai::search::TransTable;
/// use ai2048_engine::Board;
/// let tt = TransTable::new(1 << 10);
/// let b = Board::from_u64(0x1200_0000_0000_0000);
/// tt.prefetch(b); // a hint to the memory: nothing else changes
/// tt.store(b, 3, 0.5, 1.5);
/// assert_eq!(tt.probe(b, 2, 0.5), Some(1.5));
/// assert_eq!(tt.probe(b, 2, 0.1), Some(1.5));
/// assert_eq!(tt.probe(b, 4, 0.5), None, "not searched that deep");
/// assert_eq!(tt.probe(b, 2, 1.0), None, "searched with more of it cut");
/// ```
pub struct TransTable {
    slots: Vec<Slot>,
    mask: usize,
}

impl TransTable {
    /// A table of `slots` entries (rounded up to a power of two, 16 bytes each).
    #[must_use]
    pub fn new(slots: usize) -> TransTable {
        let n = slots.max(1).next_power_of_two();
        TransTable {
            slots: crate::huge::filled(n, |_| Slot::default()),
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
        for slot in &mut self.slots {
            *slot = Slot::default();
        }
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
        let slot = &self.slots[self.index(board)];
        let data = slot.data.load(Relaxed);
        if slot.key.load(Relaxed) ^ data != board.low_bits() {
            return None;
        }
        let tag = (data >> 32) as u32;
        let stored_depth = (tag >> 16 & 0x7F).checked_sub(1)?;
        (tag & 0xFFFF == u32::from(board.high_bits())
            && stored_depth >= depth
            && tag >> 23 >= class(prob))
        .then_some(f32::from_bits(data as u32))
    }

    /// Stores the value of `board` searched `depth` deep, reached with probability
    /// `prob`.
    #[inline]
    pub fn store(&self, board: Board, depth: u32, prob: f32, value: f32) {
        let slot = &self.slots[self.index(board)];
        let data = u64::from(Self::tag(board, depth, prob)) << 32 | u64::from(value.to_bits());
        slot.data.store(data, Relaxed);
        slot.key.store(board.low_bits() ^ data, Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn threads_sharing_a_table_read_only_what_was_stored_for_the_board() {
        // Four slots and many boards: the two threads write over each other's slots
        // all the time, and a probe must still give a board's own value or nothing.
        let tt = TransTable::new(4);
        let board = |i: u64| Board::from_u64(i.wrapping_mul(0x9E37_79B9_7F4A_7C15));
        let value = |b: Board| (b.low_bits() % 1_000_003) as f32;
        let hits: u64 = std::thread::scope(|scope| {
            let handles: Vec<_> = (0..2u64)
                .map(|t| {
                    let tt = &tt;
                    scope.spawn(move || {
                        let mut hits = 0;
                        for i in 0..200_000u64 {
                            let b = board(2 * i + t);
                            tt.store(b, 3, 0.5, value(b));
                            for seen in
                                [b, board(2 * i + 1 - t), board(2 * i.saturating_sub(1) + t)]
                            {
                                if let Some(v) = tt.probe(seen, 3, 0.5) {
                                    assert_eq!(v, value(seen), "{seen:?}");
                                    hits += 1;
                                }
                            }
                        }
                        hits
                    })
                })
                .collect();
            handles.into_iter().map(|h| h.join().unwrap()).sum()
        });
        assert!(
            hits > 1000,
            "{hits} hits: the probes found too little to check"
        );
    }
}
