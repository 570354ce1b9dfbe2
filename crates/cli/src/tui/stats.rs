//! What the AI's searches cost in a game: depth, nodes per second, time per move.

use std::time::Duration;

use super::ai::SearchDone;

/// The searches of one game, summed.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SearchStats {
    /// Searches finished.
    pub searches: u64,
    /// Time spent searching.
    pub think: Duration,
    /// Nodes visited.
    pub nodes: u64,
    /// The depth of the last search.
    pub depth: u32,
    /// The time of the last search.
    pub last: Duration,
    /// The moves an endgame table played (over the search or without one).
    pub table_moves: u64,
    /// Whether the last move was an endgame table's.
    pub last_from_table: bool,
}

impl SearchStats {
    /// Adds a finished search.
    pub fn record(&mut self, done: &SearchDone) {
        self.searches += 1;
        self.think += done.elapsed;
        self.nodes += done.result.nodes;
        self.depth = done.result.depth;
        self.last = done.elapsed;
        self.last_from_table = done.result.table.played();
        self.table_moves += u64::from(self.last_from_table);
    }

    /// Mean milliseconds per search (0 before any).
    pub fn ms_per_move(&self) -> f64 {
        if self.searches == 0 {
            return 0.0;
        }
        self.think.as_secs_f64() * 1e3 / self.searches as f64
    }

    /// Nodes per second of search (0 before any).
    pub fn nodes_per_second(&self) -> f64 {
        let secs = self.think.as_secs_f64();
        if secs <= 0.0 {
            return 0.0;
        }
        self.nodes as f64 / secs
    }
}

/// `950`, `12.3 k`, `4.56 M`, `1.20 G`: a rate in a few characters.
pub fn si(value: f64) -> String {
    match value {
        v if v >= 1e9 => format!("{:.2} G", v / 1e9),
        v if v >= 1e6 => format!("{:.2} M", v / 1e6),
        v if v >= 1e4 => format!("{:.1} k", v / 1e3),
        v => format!("{v:.0}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ai2048_ai::{SearchResult, TableUse};
    use ai2048_engine::Board;

    #[test]
    fn sums_and_rates() {
        let mut stats = SearchStats::default();
        assert_eq!(stats.ms_per_move(), 0.0);
        assert_eq!(stats.nodes_per_second(), 0.0);
        for (ms, nodes, depth) in [(10, 1000, 2), (30, 3000, 3)] {
            stats.record(&SearchDone {
                id: 0,
                board: Board::EMPTY,
                result: SearchResult {
                    nodes,
                    depth,
                    ..SearchResult::default()
                },
                elapsed: Duration::from_millis(ms),
                table_name: None,
                table_odds: true,
            });
        }
        assert_eq!(stats.searches, 2);
        assert_eq!(stats.depth, 3);
        assert!((stats.ms_per_move() - 20.0).abs() < 1e-9);
        assert!((stats.nodes_per_second() - 100_000.0).abs() < 1e-6);
        assert_eq!(stats.table_moves, 0);
        stats.record(&SearchDone {
            id: 0,
            board: Board::EMPTY,
            result: SearchResult {
                table: TableUse::Decided,
                ..SearchResult::default()
            },
            elapsed: Duration::ZERO,
            table_name: None,
            table_odds: true,
        });
        assert!(stats.last_from_table);
        assert_eq!(stats.table_moves, 1);
        assert_eq!(si(950.0), "950");
        assert_eq!(si(12_345.0), "12.3 k");
        assert_eq!(si(4_560_000.0), "4.56 M");
        assert_eq!(si(1.2e9), "1.20 G");
    }
}
