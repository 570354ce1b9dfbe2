//! Shards of one run merged back into the run: `ai2048 bench --merge`.

use core::fmt;
use core::ops::Range;

use ai2048_engine::rng::derive_seed;

use crate::json::{document, ConfigJson};
use crate::saved::{setting_differences, Document, FREE_SETTINGS};
use crate::GameRecord;

/// The shards of one run, each the JSON document of a run over a slice of its games
/// (`--first-game I --num-games N`, from Ray, a Slurm job array or GNU parallel),
/// merged into the document the whole run writes: the same `runs`, and so the same
/// statistics and reach table.
///
/// The whole run spans the shards' slices, from the first game of the lowest to the
/// last of the highest. Its games are all the shards' records; its `jobs` is the sum of
/// theirs (they played side by side). Games of the span that no shard holds are
/// [`MergedRun::missing`]: the merged document is then marked `interrupted`, and
/// `ai2048 bench --resume` with the whole run's options plays just those.
///
/// ```
/// use std::sync::atomic::AtomicBool;
/// use ai2048_bench::{run_bench, to_json, BenchConfig, MergedRun};
/// let stop = AtomicBool::new(false);
/// let part = |first_game, games| -> Result<String, Box<dyn std::error::Error>> {
///     let config = BenchConfig { first_game, games, ..BenchConfig::new("greedy".parse()?) };
///     Ok(to_json(&config, &run_bench(&config, &stop, |_| {})?)?)
/// };
/// let (a, b) = (part(0, 3)?, part(3, 2)?);
/// let merged = MergedRun::from_shards([("a.json", a.as_str()), ("b.json", b.as_str())])?;
/// assert_eq!((merged.first_game(), merged.games()), (0, 5));
/// assert!(merged.missing().is_empty());
///
/// // The whole run's document, game for game.
/// let whole = BenchConfig { games: 5, ..BenchConfig::new("greedy".parse()?) };
/// let records = run_bench(&whole, &stop, |_| {})?;
/// assert!(merged.records().iter().zip(&records).all(|(m, w)| m.same_outcome(w)));
///
/// // The same game in two shards is refused, naming both.
/// let err = MergedRun::from_shards([("a.json", a.as_str()), ("c.json", a.as_str())]).unwrap_err();
/// assert_eq!(err.to_string(), "a.json and c.json both hold game 0");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct MergedRun {
    config: ConfigJson,
    records: Vec<GameRecord>,
    missing: Vec<Range<u64>>,
}

/// Why shards cannot be merged: each names the files and what is wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum MergeError {
    /// No shard was given.
    NoShards,
    /// A file is not the JSON document of a run.
    Corrupt {
        /// The file.
        file: String,
        /// What the JSON reader said, with its line and column.
        reason: String,
    },
    /// A file was played with other settings than the first: its games are others.
    Settings {
        /// The first file.
        first: String,
        /// The file that differs.
        file: String,
        /// Each setting that differs: `seed 9 in A, 1 in B`.
        differences: Vec<String>,
    },
    /// Two files hold the same game.
    Overlap {
        /// The file that held it first.
        first: String,
        /// The file that holds it again (the same as `first` when a file holds it
        /// twice).
        file: String,
        /// The game's index.
        game: u64,
    },
    /// A file holds a record that is not one of its own run's games.
    NotItsGame {
        /// The file.
        file: String,
        /// What is wrong with the record.
        reason: String,
    },
}

impl fmt::Display for MergeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MergeError::NoShards => f.write_str("no shard to merge"),
            MergeError::Corrupt { file, reason } => {
                write!(f, "{file} is not the JSON of an ai2048 bench run: {reason}")
            }
            MergeError::Settings {
                first,
                file,
                differences,
            } => write!(
                f,
                "{file} was played with other settings than {first}: {}",
                differences.join("; ")
            ),
            MergeError::Overlap { first, file, game } if first == file => {
                write!(f, "{file} holds game {game} twice")
            }
            MergeError::Overlap { first, file, game } => {
                write!(f, "{first} and {file} both hold game {game}")
            }
            MergeError::NotItsGame { file, reason } => write!(f, "{file}: {reason}"),
        }
    }
}

impl std::error::Error for MergeError {}

impl MergedRun {
    /// Merges the shards, each given as (its name, for messages; its JSON text), in any
    /// order: the result does not depend on it.
    ///
    /// # Errors
    ///
    /// [`MergeError`]: no shard, a corrupt file, files played with other settings (any
    /// but the slice of games and the jobs), a record that is not one of its file's
    /// games, or a game held twice.
    pub fn from_shards<'a>(
        shards: impl IntoIterator<Item = (&'a str, &'a str)>,
    ) -> Result<MergedRun, MergeError> {
        let mut read: Vec<(&str, Document)> = Vec::new();
        for (file, text) in shards {
            let doc: Document = serde_json::from_str(text).map_err(|e| MergeError::Corrupt {
                file: file.to_owned(),
                reason: e.to_string(),
            })?;
            check_games(file, &doc)?;
            read.push((file, doc));
        }
        let Some((first, head)) = read.first() else {
            return Err(MergeError::NoShards);
        };
        for (file, doc) in &read[1..] {
            let differences: Vec<String> =
                setting_differences(&head.config, &doc.config, &SHARD_FREE_SETTINGS)
                    .map(|(key, was, is)| format!("{key} {was} in {first}, {is} in {file}"))
                    .collect();
            if !differences.is_empty() {
                return Err(MergeError::Settings {
                    first: (*first).to_owned(),
                    file: (*file).to_owned(),
                    differences,
                });
            }
        }
        // Every record with the file it came from, in the order of the games.
        let mut held: Vec<(&GameRecord, &str)> = read
            .iter()
            .flat_map(|(file, doc)| doc.runs.iter().map(move |r| (r, *file)))
            .collect();
        held.sort_by(|a, b| (a.0.index, a.1).cmp(&(b.0.index, b.1)));
        if let Some(pair) = held.windows(2).find(|w| w[0].0.index == w[1].0.index) {
            return Err(MergeError::Overlap {
                first: pair[0].1.to_owned(),
                file: pair[1].1.to_owned(),
                game: pair[0].0.index,
            });
        }
        let start = read
            .iter()
            .map(|(_, d)| d.config.first_game)
            .min()
            .unwrap_or(0);
        let end = read
            .iter()
            .map(|(_, d)| d.config.first_game.saturating_add(d.config.games))
            .max()
            .unwrap_or(0);
        let mut merged = MergedRun {
            config: ConfigJson {
                first_game: start,
                games: end - start,
                jobs: read
                    .iter()
                    .map(|(_, d)| d.config.jobs)
                    .sum::<usize>()
                    .max(1),
                ..head.config.clone()
            },
            records: held.iter().map(|(r, _)| **r).collect(),
            missing: Vec::new(),
        };
        merged.find_missing();
        Ok(merged)
    }

    /// Widens the whole run to cover games `first_game` to `first_game + games - 1`
    /// too: the run a caller split into shards, of which some may not have come back.
    /// Their games are then [`MergedRun::missing`].
    ///
    /// ```
    /// use std::sync::atomic::AtomicBool;
    /// use ai2048_bench::{run_bench, to_json, BenchConfig, MergedRun};
    /// let config = BenchConfig { first_game: 2, games: 2, ..BenchConfig::new("random".parse()?) };
    /// let text = to_json(&config, &run_bench(&config, &AtomicBool::new(false), |_| {})?)?;
    /// let mut merged = MergedRun::from_shards([("part", text.as_str())])?;
    /// merged.cover(0, 6);
    /// assert_eq!(merged.missing(), [0..2, 4..6]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn cover(&mut self, first_game: u64, games: u64) {
        let c = &mut self.config;
        let end = c
            .first_game
            .saturating_add(c.games)
            .max(first_game.saturating_add(games));
        c.first_game = c.first_game.min(first_game);
        c.games = end - c.first_game;
        self.find_missing();
    }

    /// Sets [`MergedRun::missing`] from the span and the records (in order).
    fn find_missing(&mut self) {
        let mut gaps = Vec::new();
        let mut next = self.config.first_game;
        for r in &self.records {
            if r.index > next {
                gaps.push(next..r.index);
            }
            next = r.index + 1;
        }
        let end = self.config.first_game.saturating_add(self.config.games);
        if end > next {
            gaps.push(next..end);
        }
        self.missing = gaps;
    }

    /// The first game of the whole run.
    #[must_use]
    pub fn first_game(&self) -> u64 {
        self.config.first_game
    }

    /// The number of games the whole run spans, held or missing.
    #[must_use]
    pub fn games(&self) -> u64 {
        self.config.games
    }

    /// The records of the games, in their order.
    #[must_use]
    pub fn records(&self) -> &[GameRecord] {
        &self.records
    }

    /// The games of the span that no shard holds, as ranges of indices, in order.
    #[must_use]
    pub fn missing(&self) -> &[Range<u64>] {
        &self.missing
    }

    /// The document of the whole run, as [`to_json`](crate::to_json) writes it.
    ///
    /// # Errors
    ///
    /// Only if serde_json fails, which it should not on these types.
    pub fn to_json(&self) -> serde_json::Result<String> {
        document(&self.config, &self.records)
    }
}

/// The settings that may differ between shards: which slice of games they play, and on
/// how many threads.
const SHARD_FREE_SETTINGS: [&str; 3] = [FREE_SETTINGS[0], FREE_SETTINGS[1], "first_game"];

/// Checks that every record of `doc` is one of its run's games: within its slice, and
/// from the seed its run plays it from. (A game there twice is found with the games
/// two files share.)
fn check_games(file: &str, doc: &Document) -> Result<(), MergeError> {
    let c = &doc.config;
    let range = c.first_game..c.first_game.saturating_add(c.games);
    for r in &doc.runs {
        let reason = if !range.contains(&r.index) {
            format!(
                "game {} is not one of its games ({} to {})",
                r.index,
                range.start,
                range.end.saturating_sub(1)
            )
        } else if r.seed != derive_seed(c.seed, r.index) {
            format!(
                "game {} has seed {}, but its run plays it from seed {}",
                r.index,
                r.seed,
                derive_seed(c.seed, r.index)
            )
        } else {
            continue;
        };
        return Err(MergeError::NotItsGame {
            file: file.to_owned(),
            reason,
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::AtomicBool;

    use super::*;
    use crate::{run_bench, to_json, BenchConfig};

    fn config(first_game: u64, games: u64) -> BenchConfig {
        BenchConfig {
            first_game,
            games,
            seed: 5,
            ..BenchConfig::new("greedy".parse().expect("spec"))
        }
    }

    fn shard(first_game: u64, games: u64) -> String {
        let c = config(first_game, games);
        to_json(
            &c,
            &run_bench(&c, &AtomicBool::new(false), |_| {}).expect("runs"),
        )
        .expect("json")
    }

    fn merge(shards: &[(&str, &str)]) -> Result<MergedRun, MergeError> {
        MergedRun::from_shards(shards.iter().copied())
    }

    /// The document without the timings, which differ from run to run.
    fn outcomes(text: &str) -> serde_json::Value {
        let mut v: serde_json::Value = serde_json::from_str(text).expect("json");
        for key in [
            "moves_per_sec",
            "ms_per_move_mean",
            "ms_per_move_max",
            "nodes_per_sec",
        ] {
            v[key] = serde_json::Value::Null;
        }
        v["config"]["jobs"] = serde_json::Value::Null;
        for run in v["runs"].as_array_mut().expect("runs") {
            run["seconds"] = serde_json::Value::Null;
            run["max_ms_per_move"] = serde_json::Value::Null;
        }
        v
    }

    #[test]
    fn shards_in_any_order_make_the_whole_run() {
        let (a, b, c) = (shard(0, 4), shard(4, 3), shard(7, 5));
        let whole = shard(0, 12);
        let one = merge(&[("a", &a), ("b", &b), ("c", &c)]).expect("merges");
        let other = merge(&[("c", &c), ("a", &a), ("b", &b)]).expect("merges");
        let text = one.to_json().expect("json");
        assert_eq!(text, other.to_json().expect("json"));
        assert_eq!(outcomes(&text), outcomes(&whole));
        assert!(one.missing().is_empty());
    }

    #[test]
    fn gaps_are_missing_games() {
        let (a, c) = (shard(0, 4), shard(7, 2));
        let merged = merge(&[("a", &a), ("c", &c)]).expect("merges");
        assert_eq!(merged.missing(), std::slice::from_ref(&(4..7)));
        let v: serde_json::Value =
            serde_json::from_str(&merged.to_json().expect("json")).expect("json");
        assert_eq!(v["games"], 6);
        assert_eq!(v["requested_games"], 9);
        assert_eq!(v["interrupted"], true);
        assert_eq!(v["config"]["first_game"], 0);
    }

    #[test]
    fn bad_shards_are_refused_with_the_files_and_the_field() {
        let (a, b) = (shard(0, 3), shard(2, 3));
        assert_eq!(
            merge(&[("a.json", &a), ("b.json", &b)])
                .unwrap_err()
                .to_string(),
            "a.json and b.json both hold game 2"
        );
        let other = {
            let c = BenchConfig {
                seed: 6,
                ..config(3, 2)
            };
            to_json(
                &c,
                &run_bench(&c, &AtomicBool::new(false), |_| {}).expect("runs"),
            )
            .expect("json")
        };
        assert_eq!(
            merge(&[("a.json", &a), ("o.json", &other)])
                .unwrap_err()
                .to_string(),
            "o.json was played with other settings than a.json: seed 5 in a.json, 6 in o.json"
        );
        let err = merge(&[("a.json", &a), ("bad.json", "{\"games\": 3")]).unwrap_err();
        assert!(
            err.to_string()
                .starts_with("bad.json is not the JSON of an ai2048 bench run: "),
            "{err}"
        );
        assert_eq!(merge(&[]).unwrap_err(), MergeError::NoShards);
        // A record edited into another file's slice is not that file's game.
        let moved = a.replace("\"index\":0,", "\"index\":9,");
        assert_eq!(
            merge(&[("m.json", &moved)]).unwrap_err().to_string(),
            "m.json: game 9 is not one of its games (0 to 2)"
        );
    }
}
