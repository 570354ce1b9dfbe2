//! The statistics of a run: scores, speed, and how often each tile was reached.

use crate::GameRecord;

/// The smallest tile of [`Summary::reach`]: course leaderboards report 512 and up.
pub const REACH_FROM: u32 = 512;

/// The normal quantile of a two-sided 95% confidence interval.
pub const Z_95: f64 = 1.959_963_984_540_054;

/// How many games reached a tile.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TileReach {
    /// The tile.
    pub tile: u32,
    /// The games whose largest tile was at least `tile`.
    pub games: usize,
    /// Their share of all games, from 0 to 1.
    pub share: f64,
    /// The 95% Wilson score interval of `share`, as `(low, high)`.
    pub ci: (f64, f64),
}

/// What leaderboards report about a run, computed from its records.
///
/// ```
/// use ai2048_bench::{GameRecord, Summary};
/// let game = |score, max_tile| GameRecord { index: 0, seed: 0, score, max_tile, moves: 100,
///     seconds: 0.5, timed_out: false, max_ms_per_move: 1.0, nodes: 0,
///     table_answers: 0, table_moves: 0, searches: 0, depth_sum: 0, board: None };
/// let s = Summary::from_records(&[game(3000, 256), game(9000, 1024), game(6000, 512)])
///     .expect("some games");
/// assert_eq!(s.games, 3);
/// assert_eq!(s.mean_score, 6000.0);
/// assert_eq!(s.median_score, 6000.0);
/// assert_eq!(s.moves_per_sec, 200.0);
/// assert_eq!(s.reach.len(), 2); // 512 and 1024
/// assert_eq!((s.reach[0].tile, s.reach[0].games), (512, 2));
/// assert!(Summary::from_records(&[]).is_none());
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Summary {
    /// The games counted.
    pub games: usize,
    /// The mean score.
    pub mean_score: f64,
    /// The median score (the mean of the two middle ones for an even count).
    pub median_score: f64,
    /// The lowest score.
    pub min_score: u64,
    /// The highest score.
    pub max_score: u64,
    /// The largest tile of all games.
    pub max_tile: u32,
    /// The mean number of moves of a game.
    pub mean_moves: f64,
    /// The moves of all games.
    pub total_moves: u64,
    /// The time of all games, in seconds, added up over threads.
    pub total_seconds: f64,
    /// Moves per second of one thread: all moves over all games' time (0 when no time
    /// was measured).
    pub moves_per_sec: f64,
    /// The mean time of a move in milliseconds: all games' time over all moves (0 when
    /// no move was played).
    pub ms_per_move_mean: f64,
    /// The longest move of all games, in milliseconds.
    pub ms_per_move_max: f64,
    /// The nodes searched in all games.
    pub total_nodes: u64,
    /// Nodes searched per second of one thread: all nodes over all games' time.
    pub nodes_per_sec: f64,
    /// The moves where an endgame table matched the board, in all games.
    pub table_answers: u64,
    /// The moves an endgame table played, over the search or without one, in all games.
    pub table_moves: u64,
    /// The moves searched in all games (see [`GameRecord::searches`]).
    pub total_searches: u64,
    /// The mean depth those searches reached ([`GameRecord::depth_sum`] over
    /// [`GameRecord::searches`], all games): 0 for a player that does not search, or
    /// for records written before games counted it.
    pub mean_depth: f64,
    /// The games that ran out of time.
    pub timeouts: usize,
    /// For each tile from [`REACH_FROM`] up to `max_tile`, the games that reached it.
    pub reach: Vec<TileReach>,
}

impl Summary {
    /// The summary of `records`, or `None` when there are none (there is no mean of no
    /// games).
    #[must_use]
    pub fn from_records(records: &[GameRecord]) -> Option<Summary> {
        if records.is_empty() {
            return None;
        }
        let n = records.len() as f64;
        let scores: Vec<u64> = records.iter().map(|r| r.score).collect();
        let total_score: f64 = scores.iter().map(|&s| s as f64).sum();
        let total_moves: u64 = records.iter().map(|r| r.moves).sum();
        let total_seconds: f64 = records.iter().map(|r| r.seconds).sum();
        let total_nodes: u64 = records.iter().map(|r| r.nodes).sum();
        let total_searches: u64 = records.iter().map(|r| r.searches).sum();
        let depth_sum: u64 = records.iter().map(|r| r.depth_sum).sum();
        Some(Summary {
            total_searches,
            mean_depth: if total_searches > 0 {
                depth_sum as f64 / total_searches as f64
            } else {
                0.0
            },
            table_answers: records.iter().map(|r| r.table_answers).sum(),
            table_moves: records.iter().map(|r| r.table_moves).sum(),
            total_nodes,
            nodes_per_sec: if total_seconds > 0.0 {
                total_nodes as f64 / total_seconds
            } else {
                0.0
            },
            games: records.len(),
            mean_score: total_score / n,
            median_score: median(&scores)?,
            min_score: scores.iter().copied().min()?,
            max_score: scores.iter().copied().max()?,
            max_tile: records.iter().map(|r| r.max_tile).max()?,
            mean_moves: total_moves as f64 / n,
            total_moves,
            total_seconds,
            moves_per_sec: if total_seconds > 0.0 {
                total_moves as f64 / total_seconds
            } else {
                0.0
            },
            ms_per_move_mean: if total_moves > 0 {
                total_seconds * 1e3 / total_moves as f64
            } else {
                0.0
            },
            ms_per_move_max: records
                .iter()
                .map(|r| r.max_ms_per_move)
                .fold(0.0, f64::max),
            timeouts: records.iter().filter(|r| r.timed_out).count(),
            reach: reach_table(records, REACH_FROM),
        })
    }

    /// The reach of `tile`, if it is in [`Summary::reach`].
    ///
    /// ```
    /// use ai2048_bench::{GameRecord, Summary};
    /// let game = GameRecord { index: 0, seed: 0, score: 20000, max_tile: 2048, moves: 900,
    ///     seconds: 0.1, timed_out: false, max_ms_per_move: 0.5, nodes: 0,
    ///     table_answers: 0, table_moves: 0, searches: 0, depth_sum: 0, board: None };
    /// let s = Summary::from_records(&[game]).expect("one game");
    /// assert_eq!(s.reach_of(2048).map(|r| r.share), Some(1.0));
    /// assert!(s.reach_of(4096).is_none());
    /// ```
    #[must_use]
    pub fn reach_of(&self, tile: u32) -> Option<&TileReach> {
        self.reach.iter().find(|r| r.tile == tile)
    }
}

/// The median of `values`, in any order: the middle one, or the mean of the two
/// middle ones for an even count; `None` for no values.
///
/// ```
/// use ai2048_bench::median;
/// assert_eq!(median(&[5, 1, 3]), Some(3.0));
/// assert_eq!(median(&[4, 1, 3, 2]), Some(2.5));
/// assert_eq!(median(&[]), None);
/// ```
#[must_use]
pub fn median(values: &[u64]) -> Option<f64> {
    if values.is_empty() {
        return None;
    }
    let mut sorted = values.to_vec();
    sorted.sort_unstable();
    let mid = sorted.len() / 2;
    Some(if sorted.len() % 2 == 1 {
        sorted[mid] as f64
    } else {
        // Averaged as floats: the sum of two large scores cannot overflow.
        (sorted[mid - 1] as f64 + sorted[mid] as f64) / 2.0
    })
}

/// The 95% Wilson score interval of a proportion: `successes` out of `trials`, as
/// `(low, high)` within [0, 1]. Unlike the normal interval it behaves at 0 and at
/// `trials` and for few trials. With no trials, it is `(0, 1)`: nothing is known.
///
/// ```
/// use ai2048_bench::wilson_interval;
/// let (low, high) = wilson_interval(5, 10);
/// assert!((low - 0.2366).abs() < 1e-4 && (high - 0.7634).abs() < 1e-4);
/// let (low, high) = wilson_interval(10, 10);
/// assert!(high == 1.0 && (low - 0.7225).abs() < 1e-4);
/// ```
#[must_use]
pub fn wilson_interval(successes: u64, trials: u64) -> (f64, f64) {
    if trials == 0 {
        return (0.0, 1.0);
    }
    let n = trials as f64;
    let p = successes.min(trials) as f64 / n;
    let z2 = Z_95 * Z_95;
    let denom = 1.0 + z2 / n;
    let center = (p + z2 / (2.0 * n)) / denom;
    let half = Z_95 / denom * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    // At p = 0 or 1 one bound is exactly 0 or 1; clamp away rounding.
    let low = if successes == 0 {
        0.0
    } else {
        (center - half).clamp(0.0, 1.0)
    };
    let high = if successes >= trials {
        1.0
    } else {
        (center + half).clamp(0.0, 1.0)
    };
    (low, high)
}

/// For each tile from `from` (rounded up to a power of two) up to the largest tile
/// reached, the games whose largest tile is at least it; empty when no game reached
/// `from`.
///
/// ```
/// use ai2048_bench::{reach_table, GameRecord};
/// let game = |max_tile| GameRecord { index: 0, seed: 0, score: 0, max_tile, moves: 0,
///     seconds: 0.0, timed_out: false, max_ms_per_move: 0.0, nodes: 0,
///     table_answers: 0, table_moves: 0, searches: 0, depth_sum: 0, board: None };
/// let games = [game(256), game(512), game(2048), game(2048)];
/// let table = reach_table(&games, 512);
/// let rows: Vec<_> = table.iter().map(|r| (r.tile, r.games)).collect();
/// assert_eq!(rows, [(512, 3), (1024, 2), (2048, 2)]);
/// assert_eq!(table[0].share, 0.75);
/// ```
#[must_use]
pub fn reach_table(records: &[GameRecord], from: u32) -> Vec<TileReach> {
    // Games by the exponent of their largest tile (rounded down to a power of two).
    let mut by_exponent = [0usize; 33];
    for r in records {
        let e = r.max_tile.checked_ilog2().map_or(0, |e| e as usize + 1);
        by_exponent[e] += 1;
    }
    let Some(top) = records.iter().map(|r| r.max_tile).max() else {
        return Vec::new();
    };
    let Some(mut tile) = from.max(1).checked_next_power_of_two() else {
        return Vec::new();
    };
    let trials = records.len() as u64;
    let mut table = Vec::new();
    while tile <= top {
        let e = tile.ilog2() as usize + 1;
        let games: usize = by_exponent[e..].iter().sum();
        table.push(TileReach {
            tile,
            games,
            share: games as f64 / trials as f64,
            ci: wilson_interval(games as u64, trials),
        });
        match tile.checked_mul(2) {
            Some(t) => tile = t,
            None => break,
        }
    }
    table
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(score: u64, max_tile: u32) -> GameRecord {
        GameRecord::fixture(score, max_tile, 10, 0.01, 0.5)
    }

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-4
    }

    #[test]
    fn median_of_odd_and_even_counts() {
        assert_eq!(median(&[7]), Some(7.0));
        assert_eq!(median(&[9, 1, 5]), Some(5.0));
        assert_eq!(median(&[1, 2]), Some(1.5));
        assert_eq!(median(&[10, 40, 20, 30]), Some(25.0));
        assert_eq!(median(&[3, 3, 3, 3]), Some(3.0));
        assert_eq!(median(&[u64::MAX, u64::MAX]), Some(u64::MAX as f64));
        assert_eq!(median(&[]), None);
    }

    #[test]
    fn wilson_known_values() {
        let (l, h) = wilson_interval(5, 10);
        assert!(close(l, 0.2366) && close(h, 0.7634), "{l} {h}");
        let (l, h) = wilson_interval(0, 10);
        assert_eq!(l, 0.0);
        assert!(close(h, 0.2775), "{h}");
        let (l, h) = wilson_interval(10, 10);
        assert_eq!(h, 1.0);
        assert!(close(l, 0.7225), "{l}");
        // 1 of 1: wide, as it should be.
        let (l, h) = wilson_interval(1, 1);
        assert!(close(l, 0.2065) && h == 1.0, "{l}");
        // 97 of 100.
        let (l, h) = wilson_interval(97, 100);
        assert!(close(l, 0.9154) && close(h, 0.9897), "{l} {h}");
        assert_eq!(wilson_interval(0, 0), (0.0, 1.0));
    }

    #[test]
    fn wilson_contains_the_share_and_narrows() {
        for n in [1u64, 2, 7, 50, 1000, 1_000_000] {
            for k in [0, n / 3, n / 2, n] {
                let (l, h) = wilson_interval(k, n);
                let p = k as f64 / n as f64;
                assert!((0.0..=1.0).contains(&l) && (0.0..=1.0).contains(&h));
                assert!(l <= p && p <= h, "{k}/{n}: {l} {h}");
            }
        }
        let narrow = wilson_interval(500, 1000);
        let wide = wilson_interval(5, 10);
        assert!(narrow.1 - narrow.0 < wide.1 - wide.0);
    }

    #[test]
    fn reach_thresholds() {
        let games = [game(0, 128), game(0, 512), game(0, 1024), game(0, 4096)];
        let t = reach_table(&games, 512);
        let rows: Vec<_> = t.iter().map(|r| (r.tile, r.games)).collect();
        assert_eq!(rows, [(512, 3), (1024, 2), (2048, 1), (4096, 1)]);
        assert_eq!(t[0].share, 0.75);
        assert_eq!(t[3].share, 0.25);
        assert_eq!(t[1].ci, wilson_interval(2, 4));
        // Nobody reached 512: no rows.
        assert!(reach_table(&[game(0, 256), game(0, 8)], 512).is_empty());
        assert!(reach_table(&[], 512).is_empty());
        // The largest tile the engine has.
        let t = reach_table(&[game(0, 131_072)], 512);
        assert_eq!(t.len(), 9);
        assert!(t.iter().all(|r| r.share == 1.0));
        // From a lower tile.
        let t = reach_table(&games, 128);
        assert_eq!(
            t[0],
            TileReach {
                tile: 128,
                games: 4,
                share: 1.0,
                ci: wilson_interval(4, 4)
            }
        );
    }

    #[test]
    fn summary_values() {
        let mut games = vec![
            game(100, 64),
            game(300, 512),
            game(200, 1024),
            game(400, 256),
        ];
        games[1].timed_out = true;
        games[2].max_ms_per_move = 3.0;
        games[3].moves = 50;
        (games[0].searches, games[0].depth_sum) = (10, 30);
        (games[3].searches, games[3].depth_sum) = (30, 150);
        let s = Summary::from_records(&games).expect("games");
        assert_eq!(s.total_searches, 40);
        assert_eq!(s.mean_depth, 4.5);
        assert_eq!(s.games, 4);
        assert_eq!(s.mean_score, 250.0);
        assert_eq!(s.median_score, 250.0);
        assert_eq!((s.min_score, s.max_score), (100, 400));
        assert_eq!(s.max_tile, 1024);
        assert_eq!(s.total_moves, 80);
        assert_eq!(s.mean_moves, 20.0);
        assert!(close(s.total_seconds, 0.04));
        assert!(close(s.moves_per_sec, 2000.0));
        assert!(close(s.ms_per_move_mean, 0.5));
        assert_eq!(s.ms_per_move_max, 3.0);
        assert_eq!(s.timeouts, 1);
        let rows: Vec<_> = s.reach.iter().map(|r| (r.tile, r.games)).collect();
        assert_eq!(rows, [(512, 2), (1024, 1)]);
        assert_eq!(s.reach_of(1024).map(|r| r.share), Some(0.25));
        // Records from before games counted their searches: no depth, not NaN.
        let old = Summary::from_records(&[game(100, 64)]).expect("a game");
        assert_eq!((old.total_searches, old.mean_depth), (0, 0.0));
    }

    proptest::proptest! {
        #[test]
        fn wilson_is_a_sane_interval(n in 1u64..100_000, k_frac in 0.0f64..=1.0) {
            let k = ((n as f64) * k_frac).round() as u64;
            let (l, h) = wilson_interval(k, n);
            let p = k as f64 / n as f64;
            proptest::prop_assert!(0.0 <= l && l <= p && p <= h && h <= 1.0);
            // One more success never lowers the interval.
            if k < n {
                let (l2, h2) = wilson_interval(k + 1, n);
                proptest::prop_assert!(l2 >= l && h2 >= h);
            }
        }

        #[test]
        fn summary_is_consistent(
            games in proptest::collection::vec((0u64..1_000_000, 1u32..=17), 1..200)
        ) {
            let records: Vec<_> = games.iter().map(|&(s, e)| game(s, 1 << e)).collect();
            let s = Summary::from_records(&records).expect("games");
            proptest::prop_assert!(s.min_score as f64 <= s.median_score);
            proptest::prop_assert!(s.median_score <= s.max_score as f64);
            proptest::prop_assert!(s.min_score as f64 <= s.mean_score + 1e-6);
            proptest::prop_assert!(s.mean_score <= s.max_score as f64 + 1e-6);
            // Shares fall as tiles grow, and the top tile was reached by someone.
            proptest::prop_assert!(s.reach.windows(2).all(|w| w[0].share >= w[1].share));
            proptest::prop_assert!(s.reach.iter().all(|r| r.games > 0));
            if s.max_tile >= REACH_FROM {
                proptest::prop_assert_eq!(s.reach.last().map(|r| r.tile), Some(s.max_tile));
            }
        }
    }

    #[test]
    fn summary_of_nothing_is_none() {
        assert!(Summary::from_records(&[]).is_none());
    }

    #[test]
    fn summary_without_time_or_moves_has_no_nan() {
        let mut g = game(0, 4);
        g.moves = 0;
        g.seconds = 0.0;
        let s = Summary::from_records(&[g]).expect("one game");
        assert_eq!(s.moves_per_sec, 0.0);
        assert_eq!(s.ms_per_move_mean, 0.0);
        assert!(s.reach.is_empty());
    }
}
