//! The run as JSON: the statistics leaderboards ask for, the configuration, and every
//! game's record.

use serde::ser::{SerializeMap, Serializer};
use serde::{Deserialize, Serialize};

use ai2048_engine::{Board, Rules};

use crate::{BenchConfig, GameRecord, Summary, TileReach};

/// The JSON document of a run: the statistics of `records` at the top level (`games`,
/// `mean_score`, `median_score`, `max_score`, `min_score`, `mean_moves`,
/// `moves_per_sec`, `ms_per_move_mean`, `ms_per_move_max`, `nodes_per_sec`,
/// `mean_depth` (the mean depth of the searched moves; 0 for a player that does not
/// search), `table_answers`, `table_moves`, `timeouts`, `reach` mapping each tile from
/// 512 up, as a string, to the share of games that reached it, and `reach_ci` mapping
/// it to the 95% interval `[low, high]`), then `requested_games`, `interrupted` (fewer
/// games finished than were asked for), the `config` of the run, and `runs`: one record
/// per game, one per line.
///
/// With no games, the statistics that need some (`mean_score` and the like) are
/// `null`. Tiles in `reach` come in increasing order.
///
/// # Errors
///
/// Only if serde_json fails, which it should not on these types.
///
/// ```
/// use ai2048_bench::{run_bench, to_json, BenchConfig};
/// use std::sync::atomic::AtomicBool;
/// let config = BenchConfig { games: 5, ..BenchConfig::new("random".parse()?) };
/// let records = run_bench(&config, &AtomicBool::new(false), |_| {})?;
/// let text = to_json(&config, &records)?;
/// let json: serde_json::Value = serde_json::from_str(&text)?;
/// assert_eq!(json["games"], 5);
/// assert_eq!(json["runs"].as_array().map(Vec::len), Some(5));
/// assert_eq!(json["config"]["ai"], "random");
/// assert_eq!(json["interrupted"], false);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn to_json(config: &BenchConfig, records: &[GameRecord]) -> serde_json::Result<String> {
    document(&ConfigJson::new(config), records)
}

/// [`to_json`] for a configuration as the document writes it.
pub(crate) fn document(config: &ConfigJson, records: &[GameRecord]) -> serde_json::Result<String> {
    let summary = Summary::from_records(records);
    let s = summary.as_ref();
    let head = Head {
        games: records.len(),
        mean_score: s.map(|s| s.mean_score),
        median_score: s.map(|s| s.median_score),
        max_score: s.map(|s| s.max_score),
        min_score: s.map(|s| s.min_score),
        max_tile: s.map(|s| s.max_tile),
        mean_moves: s.map(|s| s.mean_moves),
        total_moves: s.map_or(0, |s| s.total_moves),
        moves_per_sec: s.map(|s| s.moves_per_sec),
        ms_per_move_mean: s.map(|s| s.ms_per_move_mean),
        ms_per_move_max: s.map(|s| s.ms_per_move_max),
        nodes_per_sec: s.map(|s| s.nodes_per_sec),
        mean_depth: s.map(|s| s.mean_depth),
        table_answers: s.map_or(0, |s| s.table_answers),
        table_moves: s.map_or(0, |s| s.table_moves),
        timeouts: s.map_or(0, |s| s.timeouts),
        reach: Reach(s.map_or(&[], |s| &s.reach)),
        reach_ci: ReachCi(s.map_or(&[], |s| &s.reach)),
        requested_games: config.games,
        interrupted: (records.len() as u64) < config.games,
        config,
    };
    let mut out = serde_json::to_string_pretty(&head)?;
    // `runs` goes last, one compact record per line, so that a file of 100 000 games
    // stays small and readable: reopen the object pretty-printed above.
    debug_assert!(out.ends_with("\n}"));
    out.truncate(out.len() - 2);
    out.push_str(",\n  \"runs\": [");
    for (i, record) in records.iter().enumerate() {
        out.push_str(if i == 0 { "\n    " } else { ",\n    " });
        out.push_str(&serde_json::to_string(record)?);
    }
    out.push_str(if records.is_empty() {
        "]\n}\n"
    } else {
        "\n  ]\n}\n"
    });
    Ok(out)
}

/// Everything but the runs.
#[derive(Serialize)]
struct Head<'a> {
    games: usize,
    mean_score: Option<f64>,
    median_score: Option<f64>,
    max_score: Option<u64>,
    min_score: Option<u64>,
    max_tile: Option<u32>,
    mean_moves: Option<f64>,
    total_moves: u64,
    moves_per_sec: Option<f64>,
    ms_per_move_mean: Option<f64>,
    ms_per_move_max: Option<f64>,
    nodes_per_sec: Option<f64>,
    mean_depth: Option<f64>,
    table_answers: u64,
    table_moves: u64,
    timeouts: usize,
    reach: Reach<'a>,
    reach_ci: ReachCi<'a>,
    requested_games: u64,
    interrupted: bool,
    config: &'a ConfigJson,
}

/// The configuration, as a user would write it again.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(crate) struct ConfigJson {
    pub(crate) ai: String,
    pub(crate) depth: Option<u32>,
    pub(crate) time_ms: Option<f64>,
    pub(crate) seed: u64,
    pub(crate) games: u64,
    /// Absent from the files of runs made before runs could start past game 0.
    #[serde(default)]
    pub(crate) first_game: u64,
    pub(crate) jobs: usize,
    pub(crate) timeout: Option<f64>,
    pub(crate) rules: RulesJson,
    /// The position every game started from, in 16 hexadecimal digits; absent for
    /// new games (and from the files of runs made before runs could start from one).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) from: Option<String>,
    /// The tile at which every game stopped; absent where games were played out.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) until: Option<u32>,
}

/// The rules of the games.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub(crate) struct RulesJson {
    start_tiles: u8,
    four_probability: f64,
    illegal_move_spawns: bool,
}

impl From<Rules> for RulesJson {
    fn from(rules: Rules) -> RulesJson {
        RulesJson {
            start_tiles: rules.start_tiles,
            four_probability: rules.four_probability,
            illegal_move_spawns: rules.illegal_move_spawns,
        }
    }
}

impl ConfigJson {
    pub(crate) fn new(c: &BenchConfig) -> ConfigJson {
        ConfigJson {
            ai: c.player.to_string(),
            depth: c.limits.depth,
            time_ms: c.limits.time.map(|t| t.as_secs_f64() * 1e3),
            seed: c.seed,
            games: c.games,
            first_game: c.first_game,
            jobs: c.jobs,
            timeout: c.timeout.map(|t| t.as_secs_f64()),
            rules: c.rules.into(),
            from: c.from.map(Board::to_hex),
            until: c.until,
        }
    }
}

/// `{"512": share, ...}`, in increasing order of tiles.
struct Reach<'a>(&'a [TileReach]);

impl Serialize for Reach<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.0.len()))?;
        for r in self.0 {
            map.serialize_entry(&r.tile.to_string(), &r.share)?;
        }
        map.end()
    }
}

/// `{"512": [low, high], ...}`, in increasing order of tiles.
struct ReachCi<'a>(&'a [TileReach]);

impl Serialize for ReachCi<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.0.len()))?;
        for r in self.0 {
            map.serialize_entry(&r.tile.to_string(), &[r.ci.0, r.ci.1])?;
        }
        map.end()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;

    fn game(index: u64, score: u64, max_tile: u32) -> GameRecord {
        GameRecord {
            index,
            seed: index * 7,
            timed_out: index == 1,
            ..GameRecord::fixture(score, max_tile, 100, 0.25, 2.0)
        }
    }

    fn config() -> BenchConfig {
        BenchConfig {
            games: 3,
            ..BenchConfig::new("greedy".parse().expect("spec"))
        }
    }

    #[test]
    fn fields_and_values() {
        let records = [game(0, 100, 256), game(1, 5000, 512), game(2, 30000, 2048)];
        let text = to_json(&config(), &records).expect("json");
        let v: Value = serde_json::from_str(&text).expect("valid json");
        assert_eq!(v["games"], 3);
        assert_eq!(v["requested_games"], 3);
        assert_eq!(v["interrupted"], false);
        assert_eq!(v["median_score"], 5000.0);
        assert_eq!(v["max_score"], 30000);
        assert_eq!(v["min_score"], 100);
        assert_eq!(v["mean_moves"], 100.0);
        assert_eq!(v["moves_per_sec"], 400.0);
        assert_eq!(v["ms_per_move_mean"], 2.5);
        assert_eq!(v["ms_per_move_max"], 2.0);
        assert_eq!(v["timeouts"], 1);
        assert_eq!(v["mean_depth"], 0.0);
        let third = 1.0 / 3.0;
        assert_eq!(v["reach"]["512"], 2.0 * third);
        assert_eq!(v["reach"]["2048"], third);
        assert_eq!(v["reach"].as_object().map(|o| o.len()), Some(3));
        let ci = &v["reach_ci"]["1024"];
        let (low, high) = crate::wilson_interval(1, 3);
        assert_eq!((ci[0].as_f64(), ci[1].as_f64()), (Some(low), Some(high)));
        assert_eq!(v["config"]["ai"], "greedy");
        assert_eq!(v["config"]["timeout"], Value::Null);
        assert_eq!(v["config"]["rules"]["start_tiles"], 2);
        let runs = v["runs"].as_array().expect("runs");
        assert_eq!(runs.len(), 3);
        let back: Vec<GameRecord> =
            serde_json::from_value(v["runs"].clone()).expect("records read back");
        assert_eq!(back, records);
        // Tiles in increasing order, runs one per line.
        let p512 = text.find("\"512\"").expect("512");
        let p1024 = text.find("\"1024\"").expect("1024");
        assert!(p512 < p1024);
        assert_eq!(
            text.lines()
                .filter(|l| l.contains("\"max_ms_per_move\""))
                .count(),
            3
        );
        assert!(text.ends_with("]\n}\n"));
    }

    #[test]
    fn no_games_gives_nulls_not_nans() {
        let text = to_json(&config(), &[]).expect("json");
        let v: Value = serde_json::from_str(&text).expect("valid json");
        assert_eq!(v["games"], 0);
        assert_eq!(v["interrupted"], true);
        assert_eq!(v["mean_score"], Value::Null);
        assert_eq!(v["reach"], serde_json::json!({}));
        assert_eq!(v["runs"], serde_json::json!([]));
        assert!(!text.contains("NaN"));
    }

    #[test]
    fn partial_runs_are_interrupted() {
        let text = to_json(&config(), &[game(0, 1, 2)]).expect("json");
        let v: Value = serde_json::from_str(&text).expect("valid json");
        assert_eq!(v["interrupted"], true);
        assert_eq!(v["requested_games"], 3);
    }
}
