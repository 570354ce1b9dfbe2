//! A small cache of leaf values for expectimax.

use ai2048_engine::Board;

use super::tt::slot_hash;

#[derive(Clone, Copy, Default)]
struct Entry {
    low: u64,
    /// The board's high plane in the low 16 bits and [`OCCUPIED`] above them; 0 = an
    /// empty slot.
    tag: u32,
    value: f32,
}

const OCCUPIED: u32 = 1 << 16;

/// The values of the boards a search evaluated last, kept in a fixed number of slots
/// small enough to stay in the core's own caches.
///
/// The leaves of an expectimax search repeat: the same afterstate comes from many
/// orders of the same spawns and moves, and from the search of the move before. A
/// network's value reads some thirty entries at random from hundreds of megabytes,
/// most of them from main memory; a slot here is one read from L2. A value depends on
/// the board alone, so the cache is exact: a search with it returns what a search
/// without it returns, bit for bit, and it is kept from move to move, until the
/// search's evaluation changes ([`crate::eval::Evaluator::for_root`]). A new value
/// replaces the old one in its slot.
pub(super) struct LeafCache {
    slots: Vec<Entry>,
    mask: usize,
}

impl LeafCache {
    /// A cache of `slots` entries (rounded up to a power of two, 16 bytes each).
    pub(super) fn new(slots: usize) -> LeafCache {
        let n = slots.max(1).next_power_of_two();
        LeafCache {
            slots: vec![Entry::default(); n],
            mask: n - 1,
        }
    }

    /// Forgets every value.
    pub(super) fn clear(&mut self) {
        self.slots.fill(Entry::default());
    }

    #[inline]
    fn index(&self, board: Board) -> usize {
        slot_hash(board) & self.mask
    }

    /// The value of `board`, from the cache if it holds it, else from `value`, which
    /// the cache then keeps.
    #[inline]
    pub(super) fn get_or(&mut self, board: Board, value: impl FnOnce(Board) -> f32) -> f32 {
        let i = self.index(board);
        let tag = u32::from(board.high_bits()) | OCCUPIED;
        let e = self.slots[i];
        if e.low == board.low_bits() && e.tag == tag {
            return e.value;
        }
        let v = value(board);
        self.slots[i] = Entry {
            low: board.low_bits(),
            tag,
            value: v,
        };
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_value_is_computed_once_and_then_read() {
        let mut cache = LeafCache::new(1 << 8);
        let b = Board::from_u64(0x1200_0000_0000_0000);
        let mut calls = 0;
        let mut eval = |board: Board| {
            calls += 1;
            board.low_bits() as f32
        };
        let v = cache.get_or(b, &mut eval);
        assert_eq!(cache.get_or(b, &mut eval), v);
        assert_eq!(calls, 1);
    }

    #[test]
    fn an_empty_slot_is_no_value_of_the_empty_board() {
        let mut cache = LeafCache::new(4);
        assert_eq!(cache.get_or(Board::default(), |_| 7.0), 7.0);
    }

    #[test]
    fn boards_that_differ_only_in_the_high_plane_are_told_apart() {
        let mut cache = LeafCache::new(1);
        // 131072 keeps the low four bits of a 2 and sets the fifth bit.
        let a: Board = "2 4 0 0/0 0 0 0/0 0 0 0/0 0 0 0".parse().unwrap();
        let b: Board = "131072 4 0 0/0 0 0 0/0 0 0 0/0 0 0 0".parse().unwrap();
        assert_eq!(a.low_bits(), b.low_bits());
        assert_eq!(cache.get_or(a, |_| 1.0), 1.0);
        assert_eq!(cache.get_or(b, |_| 2.0), 2.0, "one slot: b replaces a");
        assert_eq!(cache.get_or(a, |_| 3.0), 3.0);
    }
}
