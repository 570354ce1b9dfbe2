//! A run read back from its JSON document, to resume it.

use serde::Deserialize;

use crate::json::ConfigJson;
use crate::run::check_done;
use crate::{BenchConfig, BenchError, GameRecord};

/// A run read back from the JSON document [`to_json`](crate::to_json) wrote (what
/// `ai2048 bench --json` saves, also when Ctrl-C stops the run): its settings and the
/// records of its finished games.
///
/// [`SavedRun::records_for`] hands the records to
/// [`resume_bench`](crate::resume_bench) once it has checked that a configuration plays
/// the same games, so an interrupted run can be finished, or a finished one extended
/// with more games, without playing any game twice.
///
/// ```
/// use ai2048_bench::{resume_bench, run_bench, to_json, BenchConfig, SavedRun};
/// use std::sync::atomic::AtomicBool;
/// let stop = AtomicBool::new(false);
/// let config = BenchConfig { games: 3, ..BenchConfig::new("greedy".parse()?) };
/// let text = to_json(&config, &run_bench(&config, &stop, |_| {})?)?;
///
/// let saved = SavedRun::from_json(&text)?;
/// assert_eq!(saved.games(), 3);
/// // Three more games of the same run: only games 3, 4 and 5 are played.
/// let more = BenchConfig { games: 6, ..config.clone() };
/// let records = resume_bench(&more, saved.records_for(&more)?, &stop, |r| assert!(r.index >= 3))?;
/// assert_eq!(records.len(), 6);
///
/// // Other settings play other games: refused, with what differs.
/// let other = BenchConfig { seed: 1, ..config };
/// let err = SavedRun::from_json(&text)?.records_for(&other).unwrap_err();
/// assert!(err.to_string().contains("seed"), "{err}");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct SavedRun {
    config: ConfigJson,
    records: Vec<GameRecord>,
}

/// The parts of the document a resumed or merged run needs; the statistics are
/// computed anew.
#[derive(Deserialize)]
pub(crate) struct Document {
    pub(crate) config: ConfigJson,
    pub(crate) runs: Vec<GameRecord>,
}

/// The settings that do not change which games a run plays, nor how: a resumed run may
/// ask for more games, or play them on more threads.
pub(crate) const FREE_SETTINGS: [&str; 2] = ["games", "jobs"];

/// The settings that, beside the seed, say which games a run plays: under other ones
/// the same game index and seed are another game.
const GAME_SETTINGS: [&str; 2] = ["from", "rules"];

impl SavedRun {
    /// Reads a run's JSON document.
    ///
    /// # Errors
    ///
    /// serde_json's error, with its line and column, when `text` is not such a
    /// document.
    pub fn from_json(text: &str) -> serde_json::Result<SavedRun> {
        let doc: Document = serde_json::from_str(text)?;
        Ok(SavedRun {
            config: doc.config,
            records: doc.runs,
        })
    }

    /// The finished games the document holds, as it holds them.
    #[must_use]
    pub fn records(&self) -> &[GameRecord] {
        &self.records
    }

    /// How many finished games the document holds.
    #[must_use]
    pub fn games(&self) -> usize {
        self.records.len()
    }

    /// The settings under which this run's games are other games than `other`'s,
    /// though the seeds be the same: the board every game started from (`from`,
    /// absent for new games) and the rules, each as `(name, this run's value, the
    /// other's)`, as the runs' JSON holds them. Runs compared game by game must agree
    /// on them; the player, its limits, the timeout and `until` are what a comparison
    /// compares.
    ///
    /// ```
    /// use ai2048_bench::SavedRun;
    /// use serde_json::json;
    /// let run = |from: &str| SavedRun::from_json(&format!(
    ///     r#"{{"config": {{"ai": "greedy", "depth": null, "time_ms": null, "seed": 0,
    ///     "games": 1, "jobs": 1, "timeout": null, "rules": {{"start_tiles": 2,
    ///     "four_probability": 0.1, "illegal_move_spawns": false}}{from}}}, "runs": []}}"#
    /// )).unwrap();
    /// let (new, from) = (run(""), run(r#", "from": "e310440002000001""#));
    /// assert!(new.other_games(&run("")).is_empty());
    /// assert_eq!(
    ///     new.other_games(&from),
    ///     [("from".to_owned(), json!(null), json!("e310440002000001"))]
    /// );
    /// ```
    #[must_use]
    pub fn other_games(
        &self,
        other: &SavedRun,
    ) -> Vec<(String, serde_json::Value, serde_json::Value)> {
        setting_differences(&self.config, &other.config, &[])
            .filter(|(key, _, _)| GAME_SETTINGS.contains(&key.as_str()))
            .collect()
    }

    /// The records of the finished games, for [`resume_bench`](crate::resume_bench)
    /// with `config`.
    ///
    /// # Errors
    ///
    /// [`BenchError::Config`] naming every setting that differs between the saved run
    /// and `config` (the player, the limits, the seed, the first game, the timeout or
    /// the rules), since with any of them the same game indices are other games; or
    /// saying which record is not a game of `config`'s run (as
    /// [`resume_bench`](crate::resume_bench) checks).
    pub fn records_for(mut self, config: &BenchConfig) -> Result<Vec<GameRecord>, BenchError> {
        let differences: Vec<String> =
            setting_differences(&self.config, &ConfigJson::new(config), &FREE_SETTINGS)
                .map(|(key, was, is)| format!("{key} {was} there, {is} here"))
                .collect();
        if !differences.is_empty() {
            return Err(BenchError::Config(format!(
                "the saved run has other settings: {}",
                differences.join("; ")
            )));
        }
        check_done(config, &mut self.records)?;
        Ok(self.records)
    }
}

/// The settings, by name, whose values differ between `was` and `is` (as `(name,
/// was, is)`), leaving out the `free` ones.
pub(crate) fn setting_differences<'a>(
    was: &ConfigJson,
    is: &ConfigJson,
    free: &'a [&str],
) -> impl Iterator<Item = (String, serde_json::Value, serde_json::Value)> + use<'a> {
    let (was, is) = (as_object(was), as_object(is));
    // A setting absent from one side (written only where it is set, such as `from`)
    // counts as null there.
    let mut keys: Vec<String> = was.keys().chain(is.keys()).cloned().collect();
    keys.sort_unstable();
    keys.dedup();
    keys.into_iter()
        .filter(move |key| !free.contains(&key.as_str()))
        .filter_map(move |key| {
            let was = was.get(&key).cloned().unwrap_or(serde_json::Value::Null);
            let is = is.get(&key).cloned().unwrap_or(serde_json::Value::Null);
            (was != is).then_some((key, was, is))
        })
}

/// A configuration as a JSON object, to compare its fields by name.
fn as_object(config: &ConfigJson) -> serde_json::Map<String, serde_json::Value> {
    match serde_json::to_value(config) {
        Ok(serde_json::Value::Object(map)) => map,
        _ => unreachable!("a ConfigJson is a JSON object"),
    }
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::AtomicBool;
    use std::time::Duration;

    use super::*;
    use crate::{run_bench, to_json};

    fn config() -> BenchConfig {
        BenchConfig {
            games: 4,
            seed: 9,
            ..BenchConfig::new("greedy".parse().expect("spec"))
        }
    }

    /// Whether the records are of the same games with the same outcomes (the timings
    /// may differ in their last bit after a trip through JSON).
    fn same(a: &[GameRecord], b: &[GameRecord]) -> bool {
        a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.same_outcome(y))
    }

    fn saved(config: &BenchConfig) -> SavedRun {
        let records = run_bench(config, &AtomicBool::new(false), |_| {}).expect("runs");
        let text = to_json(config, &records).expect("json");
        SavedRun::from_json(&text).expect("reads back")
    }

    #[test]
    fn the_records_come_back_for_the_same_settings() {
        let c = config();
        let records = run_bench(&c, &AtomicBool::new(false), |_| {}).expect("runs");
        let back = saved(&c).records_for(&c).expect("same settings");
        assert!(same(&back, &records));
        // More games, more jobs: the same games still.
        let more = BenchConfig {
            games: 10,
            jobs: 3,
            ..c
        };
        assert!(same(
            &saved(&config()).records_for(&more).expect("ok"),
            &records
        ));
    }

    #[test]
    fn every_setting_that_changes_the_games_is_named() {
        let c = config();
        let others = [
            (
                BenchConfig {
                    seed: 1,
                    ..c.clone()
                },
                "seed 9 there, 1 here",
            ),
            (
                BenchConfig {
                    player: "random".parse().expect("spec"),
                    ..c.clone()
                },
                "ai \"greedy\" there, \"random\" here",
            ),
            (
                BenchConfig {
                    first_game: 2,
                    ..c.clone()
                },
                "first_game 0 there, 2 here",
            ),
            (
                BenchConfig {
                    timeout: Some(Duration::from_secs(3)),
                    ..c.clone()
                },
                "timeout null there, 3.0 here",
            ),
            (
                BenchConfig {
                    limits: ai2048_ai::SearchLimits::with_depth(2),
                    ..c.clone()
                },
                "depth null there, 2 here",
            ),
            (
                BenchConfig {
                    rules: ai2048_engine::Rules {
                        four_probability: 0.3,
                        ..c.rules
                    },
                    ..c.clone()
                },
                "rules",
            ),
            (
                BenchConfig {
                    from: Some(
                        "1024 512 0 0/0 0 0 0/0 0 0 0/0 0 0 2"
                            .parse()
                            .expect("board"),
                    ),
                    ..c.clone()
                },
                "from null there, \"a900000000000001\" here",
            ),
            (
                BenchConfig {
                    until: Some(2048),
                    ..c.clone()
                },
                "until null there, 2048 here",
            ),
        ];
        for (other, message) in others {
            let err = saved(&c).records_for(&other).unwrap_err();
            assert!(
                err.to_string()
                    .starts_with("the saved run has other settings: "),
                "{err}"
            );
            assert!(err.to_string().contains(message), "{err}");
        }
    }

    #[test]
    fn fractional_times_read_back_exactly() {
        // serde_json's `float_roundtrip` reads back every time as the same f64, so a
        // resumed run with `--time-ms 0.6` is not refused as another setting.
        for ms in [0.6, 3.7, 0.45, 1.0 / 3.0, 0.1 + 0.2] {
            let c = BenchConfig {
                games: 0,
                limits: ai2048_ai::SearchLimits::with_time(Duration::from_secs_f64(ms / 1e3)),
                timeout: Some(Duration::from_secs_f64(ms)),
                ..config()
            };
            let text = to_json(&c, &[]).expect("json");
            let back = SavedRun::from_json(&text).expect("reads");
            assert!(back.records_for(&c).is_ok(), "{ms}");
        }
    }

    #[test]
    fn fewer_games_than_were_saved_is_an_error() {
        let err = saved(&config())
            .records_for(&BenchConfig {
                games: 2,
                ..config()
            })
            .unwrap_err();
        assert!(
            err.to_string()
                .contains("the finished game 2 is not one of this run's games (0 to 1)"),
            "{err}"
        );
    }

    #[test]
    fn files_from_before_first_game_read_as_game_zero() {
        let c = config();
        let records = run_bench(&c, &AtomicBool::new(false), |_| {}).expect("runs");
        let text = to_json(&c, &records).expect("json");
        let old = text.replace("\"first_game\": 0,", "");
        assert_ne!(old, text);
        let back = SavedRun::from_json(&old).expect("reads");
        assert_eq!(back.games(), 4);
        assert!(same(&back.records_for(&c).expect("same run"), &records));
    }

    #[test]
    fn bad_documents_are_errors_with_a_place() {
        for text in [
            "",
            "{",
            "[]",
            "{\"config\": 1, \"runs\": []}",
            "{\"runs\": []}",
        ] {
            let err = SavedRun::from_json(text).unwrap_err();
            assert!(err.to_string().contains("line 1"), "{text}: {err}");
        }
        let c = config();
        let records = run_bench(&c, &AtomicBool::new(false), |_| {}).expect("runs");
        let text = to_json(&c, &records).expect("json");
        // A record cut short.
        let cut = text.replacen("\"score\"", "\"scor\"", 1);
        let err = SavedRun::from_json(&cut).unwrap_err();
        assert!(err.to_string().contains("score"), "{err}");
        // A final board that is not one.
        let hex = records[0].board.expect("kept").to_hex();
        let bad = text.replacen(&hex, "12x4", 1);
        let err = SavedRun::from_json(&bad).unwrap_err();
        assert!(
            err.to_string()
                .contains("the board \"12x4\" is not a board"),
            "{err}"
        );
        assert!(err.to_string().contains("line "), "{err}");
    }

    #[test]
    fn files_from_before_final_boards_read_without_them() {
        let c = config();
        let records = run_bench(&c, &AtomicBool::new(false), |_| {}).expect("runs");
        assert!(records.iter().all(|r| r.board.is_some()));
        let text = to_json(&c, &records).expect("json");
        let mut old = text.clone();
        for r in &records {
            let field = format!(",\"board\":\"{}\"", r.board.expect("kept").to_hex());
            assert!(old.contains(&field), "{field}");
            old = old.replacen(&field, "", 1);
        }
        let back = SavedRun::from_json(&old).expect("reads");
        let kept = back.records_for(&c).expect("same run");
        assert!(kept.iter().all(|r| r.board.is_none()));
        assert!(same(&kept, &records));
    }

    #[test]
    fn files_from_before_searches_were_counted_read_as_none() {
        let c = config();
        let records = run_bench(&c, &AtomicBool::new(false), |_| {}).expect("runs");
        assert!(records
            .iter()
            .all(|r| r.searches == r.moves && r.depth_sum > 0));
        let mut old = to_json(&c, &records).expect("json");
        for r in &records {
            let field = format!(",\"searches\":{},\"depth_sum\":{}", r.searches, r.depth_sum);
            assert!(old.contains(&field), "{field}");
            old = old.replacen(&field, "", 1);
        }
        let back = SavedRun::from_json(&old).expect("reads");
        let kept = back.records_for(&c).expect("same run");
        assert!(kept.iter().all(|r| (r.searches, r.depth_sum) == (0, 0)));
        assert!(same(&kept, &records));
    }
}
