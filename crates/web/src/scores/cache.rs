//! Finished games' answers kept in memory. A finished game never changes, so its
//! replay (checked before it is kept) and its moves are read from the database once,
//! then answered from here; past a budget of bytes, the least recently read go first.

use std::sync::{Mutex, MutexGuard, PoisonError};

use axum::body::Bytes;
use lru::LruCache;

/// Which answer of a finished game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kept {
    /// `GET /api/ranked/G/replay`.
    Replay,
    /// `GET /api/ranked/G`, with its moves.
    Game,
}

/// The bytes an entry is counted for beyond its id and body: the map's own.
const ENTRY_OVERHEAD: usize = 96;

/// Answers of finished games, at most [`FinishedCache::budget`] bytes of them.
pub struct FinishedCache {
    budget: usize,
    inner: Mutex<Inner>,
}

struct Inner {
    entries: LruCache<(String, Kept), Bytes>,
    bytes: usize,
}

fn cost(id: &str, body: &Bytes) -> usize {
    id.len() + body.len() + ENTRY_OVERHEAD
}

impl FinishedCache {
    /// An empty cache of at most `budget` bytes (0 keeps nothing).
    #[must_use]
    pub fn new(budget: usize) -> FinishedCache {
        FinishedCache {
            budget,
            inner: Mutex::new(Inner {
                entries: LruCache::unbounded(),
                bytes: 0,
            }),
        }
    }

    fn lock(&self) -> MutexGuard<'_, Inner> {
        // A panic while the lock was held left the map whole: go on with it.
        self.inner.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The answer `kind` of game `id`, when it is kept (it becomes the most recently
    /// read).
    #[must_use]
    pub fn get(&self, id: &str, kind: Kept) -> Option<Bytes> {
        self.lock().entries.get(&(id.to_owned(), kind)).cloned()
    }

    /// Keeps the answer `kind` of finished game `id`, dropping the least recently read
    /// answers past the budget; one larger than the whole budget is not kept.
    pub fn insert(&self, id: &str, kind: Kept, body: Bytes) {
        let size = cost(id, &body);
        if size > self.budget {
            return;
        }
        let mut inner = self.lock();
        if let Some(old) = inner.entries.put((id.to_owned(), kind), body) {
            inner.bytes -= cost(id, &old);
        }
        inner.bytes += size;
        while inner.bytes > self.budget {
            let Some(((id, _), body)) = inner.entries.pop_lru() else {
                break;
            };
            inner.bytes -= cost(&id, &body);
        }
    }

    /// How many answers are kept, and their bytes as counted against the budget.
    #[must_use]
    pub fn usage(&self) -> (usize, usize) {
        let inner = self.lock();
        (inner.entries.len(), inner.bytes)
    }

    /// The most bytes kept.
    #[must_use]
    pub fn budget(&self) -> usize {
        self.budget
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_least_recently_read_go_first_past_the_budget() {
        let body = |n: usize| Bytes::from(vec![b'x'; n]);
        // Room for three entries of 100 bytes with ids of 2 characters.
        let each = cost("g1", &body(100));
        let cache = FinishedCache::new(3 * each);
        cache.insert("g1", Kept::Replay, body(100));
        cache.insert("g2", Kept::Replay, body(100));
        cache.insert("g1", Kept::Game, body(100));
        assert_eq!(cache.usage(), (3, 3 * each));
        // g1's replay is read, so g2's is the least recently read.
        assert!(cache.get("g1", Kept::Replay).is_some());
        cache.insert("g3", Kept::Replay, body(100));
        assert_eq!(cache.get("g2", Kept::Replay), None);
        assert_eq!(cache.get("g1", Kept::Replay), Some(body(100)));
        assert_eq!(cache.usage(), (3, 3 * each));
        // One larger than twice the others pushes two out.
        cache.insert("g4", Kept::Replay, body(2 * 100 + ENTRY_OVERHEAD + 2));
        assert_eq!(cache.usage().0, 2);
        assert!(cache.usage().1 <= cache.budget());
        // Kept again, an entry is counted once.
        cache.insert("g4", Kept::Replay, body(10));
        cache.insert("g4", Kept::Replay, body(10));
        assert!(cache.usage().1 <= cache.budget());
        // Larger than the budget: not kept, nothing dropped.
        let before = cache.usage();
        cache.insert("g5", Kept::Game, body(4 * each));
        assert_eq!((cache.get("g5", Kept::Game), cache.usage()), (None, before));
        // A budget of 0 keeps nothing.
        let none = FinishedCache::new(0);
        none.insert("g1", Kept::Replay, body(1));
        assert_eq!(none.usage(), (0, 0));
    }
}
