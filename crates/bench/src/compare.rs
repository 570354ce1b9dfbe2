//! [`Comparison`]: two runs over the same games, compared game by game.
//!
//! Two players (or two networks) run on the same seeds play the same tiles until
//! their moves differ, so the difference between their results, taken game by game,
//! has far less noise than the difference of two means. This is how a change is
//! judged: the mean paired score difference with its standard error, and for each
//! tile the games only one of the runs reached, with McNemar's exact test on them.
//! Runs from several starting boards (`bench --from`), each board's games numbered
//! from 0, are compared board by board and pooled ([`Comparison::of_sets`]).

use crate::stats::wilson_interval;
use crate::table::{text_table, LastColumn};
use crate::GameRecord;

/// For one tile, how often each run reached it over the paired games.
#[derive(Clone, Debug, PartialEq)]
pub struct PairedReach {
    /// The tile.
    pub tile: u32,
    /// Paired games where the first run reached it.
    pub a: u64,
    /// Paired games where the second run reached it.
    pub b: u64,
    /// Games where only the first run reached it.
    pub a_only: u64,
    /// Games where only the second run reached it.
    pub b_only: u64,
    /// McNemar's exact two-sided p-value: under "both runs reach the tile as often",
    /// the chance of a split of the `a_only + b_only` discordant games at least this
    /// uneven.
    pub p_value: f64,
}

/// Two runs compared over the games both played (the same indices and seeds), or
/// several pairs of runs so compared and pooled ([`Comparison::of_sets`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Comparison {
    /// The sets of runs compared and pooled: 1 for two runs.
    pub sets: u64,
    /// The games both runs played (in all sets).
    pub pairs: u64,
    /// Games only the first run has (left out).
    pub only_a: u64,
    /// Games only the second run has (left out).
    pub only_b: u64,
    /// The first run's mean score over the pairs.
    pub mean_a: f64,
    /// The second run's mean score over the pairs.
    pub mean_b: f64,
    /// The mean of `b - a`, game by game.
    pub difference: f64,
    /// The standard error of [`Comparison::difference`] (0 with one pair).
    pub standard_error: f64,
    /// Games where the second run scored more, and where it scored less.
    pub b_better: u64,
    /// Games where the second run scored less.
    pub b_worse: u64,
    /// Every tile from `from` up to the largest either run reached.
    pub tiles: Vec<PairedReach>,
}

/// Why two runs cannot be compared.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CompareError {
    /// The same game index was played from different seeds: the runs are not paired
    /// (other `--seed`s, or other rules).
    NotPaired {
        /// The game.
        index: u64,
        /// Its seed in the first run.
        seed_a: u64,
        /// Its seed in the second run.
        seed_b: u64,
    },
    /// The runs have no game in common.
    NoCommonGames,
    /// A run holds the same game twice.
    Duplicate {
        /// Which run: 0 the first, 1 the second.
        run: usize,
        /// The game.
        index: u64,
    },
    /// One set of runs of several ([`Comparison::of_sets`]) cannot be compared.
    InSet {
        /// The set, from 0.
        set: usize,
        /// Why.
        error: Box<CompareError>,
    },
}

impl core::fmt::Display for CompareError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            CompareError::NotPaired {
                index,
                seed_a,
                seed_b,
            } => write!(
                f,
                "game {index} has seed {seed_a} in the first run and {seed_b} in the second: \
                 the runs played other games (run both with the same --seed)"
            ),
            CompareError::NoCommonGames => f.write_str("the runs have no game in common"),
            CompareError::Duplicate { run, index } => write!(
                f,
                "the {} run holds game {index} twice",
                if *run == 0 { "first" } else { "second" }
            ),
            CompareError::InSet { set, error } => {
                write!(f, "pair {} of the runs: {error}", set + 1)
            }
        }
    }
}

impl std::error::Error for CompareError {}

impl Comparison {
    /// Compares run `b` with run `a` over the games both hold, for the tiles from
    /// `from` (rounded up to a power of two) up.
    ///
    /// # Errors
    ///
    /// [`CompareError`]: a game index played from different seeds, a run holding a
    /// game twice, or no game in common.
    ///
    /// ```
    /// use ai2048_bench::{Comparison, GameRecord};
    /// let game = |index, score, max_tile| GameRecord { index, seed: index * 7, score,
    ///     max_tile, moves: 1, seconds: 0.0, timed_out: false, max_ms_per_move: 0.0,
    ///     nodes: 0,
    ///     table_answers: 0, table_moves: 0, searches: 0, depth_sum: 0, board: None };
    /// let a = [game(0, 100, 1024), game(1, 300, 2048), game(2, 200, 1024)];
    /// let b = [game(0, 200, 2048), game(1, 400, 2048), game(2, 300, 1024), game(3, 9, 2)];
    /// let c = Comparison::of(&a, &b, 1024)?;
    /// assert_eq!((c.pairs, c.only_b, c.difference), (3, 1, 100.0));
    /// assert_eq!((c.b_better, c.b_worse, c.standard_error), (3, 0, 0.0));
    /// let t2048 = &c.tiles[1];
    /// assert_eq!((t2048.tile, t2048.a, t2048.b, t2048.b_only), (2048, 1, 2, 1));
    /// assert_eq!(t2048.p_value, 1.0);
    /// # Ok::<(), ai2048_bench::CompareError>(())
    /// ```
    pub fn of(a: &[GameRecord], b: &[GameRecord], from: u32) -> Result<Comparison, CompareError> {
        Comparison::of_sets(&[(a, b)], from)
    }

    /// Compares several sets of two runs, each set over the games both of its runs
    /// hold (as [`Comparison::of`]), with every set's pairs pooled: runs from several
    /// starting boards (`bench --from`), whose games are numbered from 0 on each, are
    /// compared board by board and judged together. The tiles are those from `from`.
    ///
    /// # Errors
    ///
    /// [`CompareError::InSet`] naming the first set that [`Comparison::of`] would
    /// refuse (with one set, its error itself), or [`CompareError::NoCommonGames`]
    /// for no set at all.
    ///
    /// ```
    /// use ai2048_bench::{Comparison, GameRecord};
    /// let game = |index, max_tile| GameRecord { index, seed: index, score: 0, max_tile,
    ///     moves: 1, seconds: 0.0, timed_out: false, max_ms_per_move: 0.0, nodes: 0,
    ///     table_answers: 0, table_moves: 0, searches: 0, depth_sum: 0, board: None };
    /// // Two boards, games 0 and 1 from each: game 1 of the first board reached 2048
    /// // only in the second run, game 0 of the second board only in the first.
    /// let (a1, b1) = ([game(0, 2048), game(1, 1024)], [game(0, 2048), game(1, 2048)]);
    /// let (a2, b2) = ([game(0, 2048), game(1, 512)], [game(0, 1024), game(1, 512)]);
    /// let c = Comparison::of_sets(&[(&a1[..], &b1[..]), (&a2[..], &b2[..])], 2048)?;
    /// assert_eq!((c.sets, c.pairs), (2, 4));
    /// assert_eq!((c.tiles[0].a, c.tiles[0].b, c.tiles[0].a_only, c.tiles[0].b_only), (2, 2, 1, 1));
    /// # Ok::<(), ai2048_bench::CompareError>(())
    /// ```
    pub fn of_sets(
        sets: &[(&[GameRecord], &[GameRecord])],
        from: u32,
    ) -> Result<Comparison, CompareError> {
        if sets.is_empty() {
            return Err(CompareError::NoCommonGames);
        }
        let (mut pairs, mut only_a, mut only_b) = (Vec::new(), 0, 0);
        for (set, (a, b)) in sets.iter().enumerate() {
            let (more, a_left, b_left) = paired(a, b).map_err(|error| {
                if sets.len() == 1 {
                    error
                } else {
                    CompareError::InSet {
                        set,
                        error: Box::new(error),
                    }
                }
            })?;
            pairs.extend(more);
            only_a += a_left;
            only_b += b_left;
        }
        Ok(Comparison::pooled(
            sets.len() as u64,
            &pairs,
            only_a,
            only_b,
            from,
        ))
    }

    /// The comparison over `pairs` (`(first, second)` records of one game each), from
    /// `sets` sets of runs, which left `only_a` and `only_b` games unpaired.
    fn pooled(
        sets: u64,
        pairs: &[(GameRecord, GameRecord)],
        only_a: u64,
        only_b: u64,
        from: u32,
    ) -> Comparison {
        let n = pairs.len() as f64;
        let mean =
            |f: &dyn Fn(&(GameRecord, GameRecord)) -> f64| pairs.iter().map(f).sum::<f64>() / n;
        let mean_a = mean(&|p| p.0.score as f64);
        let mean_b = mean(&|p| p.1.score as f64);
        let difference = mean_b - mean_a;
        let variance = if pairs.len() > 1 {
            pairs
                .iter()
                .map(|p| (p.1.score as f64 - p.0.score as f64 - difference).powi(2))
                .sum::<f64>()
                / (n - 1.0)
        } else {
            0.0
        };
        let top = pairs
            .iter()
            .map(|p| p.0.max_tile.max(p.1.max_tile))
            .max()
            .unwrap_or(0);
        let mut tiles = Vec::new();
        let mut tile = from.max(1).checked_next_power_of_two().unwrap_or(u32::MAX);
        while tile <= top {
            let count = |f: &dyn Fn(&(GameRecord, GameRecord)) -> bool| {
                pairs.iter().filter(|p| f(p)).count() as u64
            };
            let a_only = count(&|p| p.0.max_tile >= tile && p.1.max_tile < tile);
            let b_only = count(&|p| p.1.max_tile >= tile && p.0.max_tile < tile);
            tiles.push(PairedReach {
                tile,
                a: count(&|p| p.0.max_tile >= tile),
                b: count(&|p| p.1.max_tile >= tile),
                a_only,
                b_only,
                p_value: mcnemar_exact(a_only, b_only),
            });
            match tile.checked_mul(2) {
                Some(t) => tile = t,
                None => break,
            }
        }
        Comparison {
            sets,
            pairs: pairs.len() as u64,
            only_a,
            only_b,
            mean_a,
            mean_b,
            difference,
            standard_error: (variance / n).sqrt(),
            b_better: pairs.iter().filter(|p| p.1.score > p.0.score).count() as u64,
            b_worse: pairs.iter().filter(|p| p.1.score < p.0.score).count() as u64,
            tiles,
        }
    }

    /// The comparison as text: the paired score difference, then a table of the
    /// tiles with each run's share (and 95% Wilson interval), the discordant games
    /// and McNemar's p-value. `a` and `b` name the runs.
    #[must_use]
    pub fn format(&self, a: &str, b: &str) -> String {
        let over = if self.sets > 1 {
            format!(" over {} pairs of runs", self.sets)
        } else {
            String::new()
        };
        let mut text = format!(
            "{} paired games{over} (left out: {} only in {a}, {} only in {b})\n\
             mean score: {:.0} in {a}, {:.0} in {b}; {b} - {a}: {:+.0} ± {:.0} a game \
             (paired, ± one standard error; {b} scored more in {} games, less in {})\n\n",
            self.pairs,
            self.only_a,
            self.only_b,
            self.mean_a,
            self.mean_b,
            self.difference,
            self.standard_error,
            self.b_better,
            self.b_worse,
        );
        if self.tiles.is_empty() {
            text += "no game of either run reached the tiles compared\n";
            return text;
        }
        let share = |k: u64| {
            let (low, high) = wilson_interval(k, self.pairs);
            format!(
                "{:.1}% ({:.1}-{:.1}%)",
                100.0 * k as f64 / self.pairs as f64,
                100.0 * low,
                100.0 * high
            )
        };
        let rows: Vec<Vec<String>> = self
            .tiles
            .iter()
            .map(|t| {
                vec![
                    t.tile.to_string(),
                    share(t.a),
                    share(t.b),
                    t.a_only.to_string(),
                    t.b_only.to_string(),
                    format!("{:.3}", t.p_value),
                ]
            })
            .collect();
        let (ha, hb) = (format!("{a} reached"), format!("{b} reached"));
        let (oa, ob) = (format!("only {a}"), format!("only {b}"));
        text += &text_table(
            &["tile", &ha, &hb, &oa, &ob, "McNemar p"],
            &rows,
            LastColumn::Right,
        );
        text
    }
}

/// The games both runs hold, as `(first, second)` records in the order of their
/// indices, and how many games only the first and only the second holds.
type Paired = (Vec<(GameRecord, GameRecord)>, u64, u64);

/// Pairs two runs' records by game index (see [`Comparison::of`] for the errors).
fn paired(a: &[GameRecord], b: &[GameRecord]) -> Result<Paired, CompareError> {
    let by_index = |run: usize, records: &[GameRecord]| {
        let mut map = std::collections::BTreeMap::new();
        for r in records {
            if map.insert(r.index, *r).is_some() {
                return Err(CompareError::Duplicate {
                    run,
                    index: r.index,
                });
            }
        }
        Ok(map)
    };
    let (a, b) = (by_index(0, a)?, by_index(1, b)?);
    let mut pairs = Vec::new();
    for (index, ra) in &a {
        if let Some(rb) = b.get(index) {
            if ra.seed != rb.seed {
                return Err(CompareError::NotPaired {
                    index: *index,
                    seed_a: ra.seed,
                    seed_b: rb.seed,
                });
            }
            pairs.push((*ra, *rb));
        }
    }
    if pairs.is_empty() {
        return Err(CompareError::NoCommonGames);
    }
    let only_a = a.keys().filter(|i| !b.contains_key(i)).count() as u64;
    let only_b = b.keys().filter(|i| !a.contains_key(i)).count() as u64;
    Ok((pairs, only_a, only_b))
}

/// McNemar's exact two-sided test: the binomial probability, with p = 1/2, of a split
/// of `x + y` trials at least as uneven as `x` to `y`.
///
/// ```
/// use ai2048_bench::mcnemar_exact;
/// assert_eq!(mcnemar_exact(0, 0), 1.0);
/// assert!((mcnemar_exact(0, 5) - 0.0625).abs() < 1e-12); // 2 / 32
/// assert!((mcnemar_exact(2, 8) - 0.109375).abs() < 1e-12); // 2 * 56 / 1024
/// ```
#[must_use]
pub fn mcnemar_exact(x: u64, y: u64) -> f64 {
    let n = x + y;
    let k = x.min(y);
    // Sum of C(n, i) / 2^n for i <= k, in logarithms so that large n do not overflow.
    let ln_half_n = n as f64 * core::f64::consts::LN_2;
    let mut ln_c = 0.0; // ln C(n, 0)
    let mut tail = 0.0;
    for i in 0..=k {
        if i > 0 {
            ln_c += ((n - i + 1) as f64).ln() - (i as f64).ln();
        }
        tail += (ln_c - ln_half_n).exp();
    }
    (2.0 * tail).min(1.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(index: u64, seed: u64, score: u64, max_tile: u32) -> GameRecord {
        GameRecord {
            index,
            seed,
            score,
            max_tile,
            moves: 1,
            seconds: 0.0,
            timed_out: false,
            max_ms_per_move: 0.0,
            nodes: 0,
            table_answers: 0,
            table_moves: 0,
            searches: 0,
            depth_sum: 0,
            board: None,
        }
    }

    #[test]
    fn unpaired_runs_and_duplicates_are_refused() {
        let a = [game(0, 1, 10, 2), game(1, 2, 10, 2)];
        let b = [game(1, 3, 10, 2)];
        let err = Comparison::of(&a, &b, 2).unwrap_err();
        assert_eq!(
            err,
            CompareError::NotPaired {
                index: 1,
                seed_a: 2,
                seed_b: 3
            }
        );
        assert!(err.to_string().contains("same --seed"), "{err}");
        assert_eq!(
            Comparison::of(&a, &[game(5, 9, 1, 2)], 2).unwrap_err(),
            CompareError::NoCommonGames
        );
        assert_eq!(
            Comparison::of(&a, &[game(0, 1, 1, 2), game(0, 1, 1, 2)], 2).unwrap_err(),
            CompareError::Duplicate { run: 1, index: 0 }
        );
    }

    #[test]
    fn the_paired_error_is_the_spread_of_the_differences() {
        // Differences 10, 20, 30: mean 20, sample variance 100, standard error 10/√3.
        let a = [game(0, 0, 100, 4), game(1, 1, 5000, 8), game(2, 2, 70, 4)];
        let b = [game(0, 0, 110, 4), game(1, 1, 5020, 8), game(2, 2, 100, 8)];
        let c = Comparison::of(&a, &b, 4).expect("paired");
        assert_eq!(c.difference, 20.0);
        assert!((c.standard_error - 10.0 / 3f64.sqrt()).abs() < 1e-9);
        assert_eq!((c.b_better, c.b_worse), (3, 0));
        let rows: Vec<_> = c
            .tiles
            .iter()
            .map(|t| (t.tile, t.a, t.b, t.b_only))
            .collect();
        assert_eq!(rows, [(4, 3, 3, 0), (8, 1, 2, 1)]);
        let text = c.format("old", "new");
        assert!(text.contains("new - old: +20 ± 6 a game"), "{text}");
        assert!(text.contains("only new"), "{text}");
    }

    #[test]
    fn sets_of_runs_pool_their_pairs_and_name_the_set_they_cannot_pair() {
        // Two boards, each numbering its games from 0 with its own seeds.
        let a1 = [game(0, 10, 100, 8), game(1, 11, 100, 4)];
        let b1 = [game(0, 10, 130, 8), game(1, 11, 160, 8), game(2, 12, 1, 2)];
        let a2 = [game(0, 20, 200, 8), game(1, 21, 100, 4)];
        let b2 = [game(0, 20, 190, 4), game(1, 21, 100, 4)];
        let c = Comparison::of_sets(&[(&a1, &b1), (&a2, &b2)], 4).expect("paired");
        assert_eq!((c.sets, c.pairs, c.only_a, c.only_b), (2, 4, 0, 1));
        // Differences 30, 60, -10 and 0.
        assert_eq!(c.difference, 20.0);
        assert_eq!((c.b_better, c.b_worse), (2, 1));
        let t8 = &c.tiles[1];
        assert_eq!((t8.tile, t8.a, t8.b, t8.a_only, t8.b_only), (8, 2, 2, 1, 1));
        assert!(c
            .format("old", "new")
            .starts_with("4 paired games over 2 pairs of runs"));
        // One set is the comparison of its two runs.
        assert_eq!(
            Comparison::of_sets(&[(&a1, &b1)], 4),
            Comparison::of(&a1, &b1, 4)
        );
        assert!(!Comparison::of(&a1, &b1, 4)
            .expect("paired")
            .format("old", "new")
            .contains("pairs of runs"));
        // A set that cannot be paired is named; with one set, the error is its own.
        let err = Comparison::of_sets(&[(&a1, &b1), (&a1, &b2)], 4).unwrap_err();
        assert!(
            matches!(&err, CompareError::InSet { set: 1, error }
                if matches!(**error, CompareError::NotPaired { index: 0, .. })),
            "{err:?}"
        );
        assert!(
            err.to_string().starts_with("pair 2 of the runs: game 0"),
            "{err}"
        );
        assert!(matches!(
            Comparison::of_sets(&[(&a1, &b2)], 4),
            Err(CompareError::NotPaired { .. })
        ));
        assert_eq!(
            Comparison::of_sets(&[], 4),
            Err(CompareError::NoCommonGames)
        );
    }

    #[test]
    fn mcnemar_is_symmetric_and_small_for_one_sided_splits() {
        assert_eq!(mcnemar_exact(3, 9), mcnemar_exact(9, 3));
        assert_eq!(mcnemar_exact(7, 7), 1.0);
        assert!(mcnemar_exact(0, 20) < 1e-5);
        // Large counts stay finite.
        let p = mcnemar_exact(4000, 4100);
        assert!(p > 0.2 && p < 0.5, "{p}");
    }
}
