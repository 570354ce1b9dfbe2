//! Depth sweeps: the same games played at several search depths, one table row per
//! depth, as in the DTU report's tables ("Depth | Games played | Max score | Avg.
//! moves/sec | Win rate | 4096 | 8192").

use std::sync::atomic::{AtomicBool, Ordering};

use serde::Serialize;

use crate::json::RulesJson;
use crate::{
    run_bench, text_table, to_json, BenchConfig, BenchError, GameRecord, LastColumn, Summary,
};

/// The deepest depth a sweep accepts: the expectimax player's own limit.
pub const MAX_SWEEP_DEPTH: u32 = 20;

/// The tiles whose reach rate a sweep reports, as the DTU report does (its "win
/// rate" is the 2048 rate).
pub const SWEEP_TILES: [u32; 4] = [2048, 4096, 8192, 16384];

/// The columns of [`format_sweep`]'s table, in order.
pub const SWEEP_COLUMNS: [&str; 9] = [
    "depth",
    "games",
    "max score",
    "mean score",
    "moves/s",
    "2048 rate",
    "4096 rate",
    "8192 rate",
    "16384 rate",
];

/// A depth sweep: a benchmark run once per depth.
///
/// Every depth plays the same games: game `i` of every depth starts from seed
/// `bench.game_seed(i)`, so the depths are compared on the same tiles (until their
/// moves differ). `bench.games` is the number of games per depth; `bench.limits.depth`
/// is replaced by each depth in turn, and the other limits (a time per move) apply to
/// every depth.
///
/// ```
/// use ai2048_bench::{parse_depths, BenchConfig, SweepConfig};
/// let bench = BenchConfig { games: 10, ..BenchConfig::new("expectimax".parse()?) };
/// let sweep = SweepConfig { bench, depths: parse_depths("1..3")? };
/// assert_eq!(sweep.depths, [1, 2, 3]);
/// assert!(sweep.validate().is_ok());
/// assert_eq!(sweep.config_at(2).limits.depth, Some(2));
/// assert!(SweepConfig { depths: vec![], ..sweep }.validate().is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct SweepConfig {
    /// The run at every depth: player, rules, games per depth, seed, threads,
    /// timeout and limits.
    pub bench: BenchConfig,
    /// The depths, in the order they are played; each from 0 to
    /// [`MAX_SWEEP_DEPTH`], none twice.
    pub depths: Vec<u32>,
}

impl SweepConfig {
    /// The benchmark of `depth`: [`SweepConfig::bench`] with its depth limit set.
    #[must_use]
    pub fn config_at(&self, depth: u32) -> BenchConfig {
        let mut config = self.bench.clone();
        config.limits.depth = Some(depth);
        config
    }

    /// Checks that the sweep can start: some depths, none above [`MAX_SWEEP_DEPTH`],
    /// none twice, and a valid benchmark ([`BenchConfig::validate`]).
    ///
    /// # Errors
    ///
    /// [`BenchError::Config`] for the depths, or the benchmark's error.
    pub fn validate(&self) -> Result<(), BenchError> {
        check_depths(&self.depths)?;
        self.bench.validate()
    }
}

fn check_depths(depths: &[u32]) -> Result<(), BenchError> {
    if depths.is_empty() {
        return Err(BenchError::Config("no depth to sweep".to_owned()));
    }
    for (i, &d) in depths.iter().enumerate() {
        if d > MAX_SWEEP_DEPTH {
            return Err(BenchError::Config(format!(
                "depth {d} is above {MAX_SWEEP_DEPTH}, the deepest search allowed"
            )));
        }
        if depths[..i].contains(&d) {
            return Err(BenchError::Config(format!("depth {d} is listed twice")));
        }
    }
    Ok(())
}

/// Reads a list of depths: numbers and inclusive ranges separated by commas, such as
/// `1,2,3`, `1..4` (1, 2, 3 and 4; `1..=4` is the same) or `0,2..4`. The depths
/// keep the order given.
///
/// # Errors
///
/// [`BenchError::Config`], saying what is wrong, for an empty list or item, text
/// that is not a number, a range that runs backwards, a depth above
/// [`MAX_SWEEP_DEPTH`] or one listed twice.
///
/// ```
/// use ai2048_bench::parse_depths;
/// assert_eq!(parse_depths("1,2,3")?, [1, 2, 3]);
/// assert_eq!(parse_depths("1..4")?, [1, 2, 3, 4]);
/// assert_eq!(parse_depths(" 0, 3..=4 ")?, [0, 3, 4]);
/// for bad in ["", "1,,2", "two", "3..1", "1..", "21", "1,1", "-1"] {
///     assert!(parse_depths(bad).is_err(), "{bad:?}");
/// }
/// # Ok::<(), ai2048_bench::BenchError>(())
/// ```
pub fn parse_depths(text: &str) -> Result<Vec<u32>, BenchError> {
    let bad = |msg: String| BenchError::Config(msg);
    if text.trim().is_empty() {
        return Err(bad(
            "no depth to sweep: give a list such as 1,2,3 or a range such as 1..4".to_owned(),
        ));
    }
    let number = |s: &str, item: &str| -> Result<u32, BenchError> {
        let s = s.trim();
        s.parse::<u32>().map_err(|_| {
            bad(format!(
                "bad depth {s:?} in {item:?}: a depth is a whole number from 0 to {MAX_SWEEP_DEPTH}"
            ))
        })
    };
    let mut depths = Vec::new();
    for item in text.split(',') {
        let item = item.trim();
        if item.is_empty() {
            return Err(bad(format!(
                "empty item in the depth list {text:?}: separate depths with single commas"
            )));
        }
        match item.split_once("..") {
            None => depths.push(number(item, item)?),
            Some((low, high)) => {
                let high = high.strip_prefix('=').unwrap_or(high);
                let (low, high) = (number(low, item)?, number(high, item)?);
                if low > high {
                    return Err(bad(format!(
                        "the depth range {item:?} runs backwards: write {high}..{low}"
                    )));
                }
                if high > MAX_SWEEP_DEPTH {
                    return Err(bad(format!(
                        "depth {high} is above {MAX_SWEEP_DEPTH}, the deepest search allowed"
                    )));
                }
                depths.extend(low..=high);
            }
        }
    }
    check_depths(&depths)?;
    Ok(depths)
}

/// One depth of a sweep: its games and their statistics.
///
/// ```
/// use ai2048_bench::{GameRecord, SweepRow};
/// let game = |score, max_tile| GameRecord { index: 0, seed: 0, score, max_tile, moves: 1000,
///     seconds: 0.5, timed_out: false, max_ms_per_move: 1.0, nodes: 0,
///     table_answers: 0, table_moves: 0, searches: 0, depth_sum: 0, board: None };
/// let row = SweepRow::new(3, 4, vec![game(20000, 2048), game(40000, 4096), game(9000, 1024)]);
/// assert_eq!((row.depth, row.games(), row.requested), (3, 3, 4));
/// assert!(!row.is_complete());
/// assert_eq!(row.reach_rate(2048), Some(2.0 / 3.0));
/// assert_eq!(row.reach_rate(8192), Some(0.0));
/// let cells = row.cells();
/// assert_eq!(cells[0], "3");
/// assert_eq!(cells[2], "40000");
/// assert_eq!(cells[5], "66.7%");
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct SweepRow {
    /// The depth.
    pub depth: u32,
    /// The games asked for.
    pub requested: u64,
    /// The records of the finished games, by index.
    pub records: Vec<GameRecord>,
    /// Their statistics; `None` when no game finished.
    pub summary: Option<Summary>,
}

impl SweepRow {
    /// The row of `depth` from the records of its finished games.
    #[must_use]
    pub fn new(depth: u32, requested: u64, records: Vec<GameRecord>) -> SweepRow {
        let summary = Summary::from_records(&records);
        SweepRow {
            depth,
            requested,
            records,
            summary,
        }
    }

    /// The games finished.
    #[must_use]
    pub fn games(&self) -> usize {
        self.records.len()
    }

    /// Whether every game asked for finished.
    #[must_use]
    pub fn is_complete(&self) -> bool {
        self.records.len() as u64 >= self.requested
    }

    /// The share of games, from 0 to 1, whose largest tile was at least `tile` (from
    /// 512 up; see [`Summary::reach`]); `None` when no game finished.
    #[must_use]
    pub fn reach_rate(&self, tile: u32) -> Option<f64> {
        let s = self.summary.as_ref()?;
        Some(s.reach_of(tile).map_or(0.0, |r| r.share))
    }

    /// The row's cells, as [`format_sweep`] prints them under [`SWEEP_COLUMNS`]:
    /// depth, games, max score, mean score, moves per second of one thread, and the
    /// reach rate of each of [`SWEEP_TILES`] as a percentage. Statistics of no games
    /// are `-`.
    #[must_use]
    pub fn cells(&self) -> [String; 9] {
        let dash = || "-".to_owned();
        let s = self.summary.as_ref();
        let rate = |tile| {
            self.reach_rate(tile)
                .map_or_else(dash, |r| format!("{:.1}%", r * 100.0))
        };
        [
            self.depth.to_string(),
            self.games().to_string(),
            s.map_or_else(dash, |s| s.max_score.to_string()),
            s.map_or_else(dash, |s| format!("{:.1}", s.mean_score)),
            s.map_or_else(dash, |s| rate_per_second(s.moves_per_sec)),
            rate(SWEEP_TILES[0]),
            rate(SWEEP_TILES[1]),
            rate(SWEEP_TILES[2]),
            rate(SWEEP_TILES[3]),
        ]
    }
}

/// Moves per second: whole above 100, else with two decimals (deep searches are slow).
fn rate_per_second(x: f64) -> String {
    if x >= 100.0 {
        format!("{x:.0}")
    } else {
        format!("{x:.2}")
    }
}

/// The outcome of a sweep: one row per depth played.
#[derive(Clone, Debug, PartialEq)]
pub struct Sweep {
    /// What was asked for.
    pub config: SweepConfig,
    /// The depths played, in the order of `config.depths`. A stopped sweep has a row
    /// for each depth finished, then one for the depth it stopped in if some of its
    /// games had finished.
    pub rows: Vec<SweepRow>,
}

impl Sweep {
    /// Whether the sweep stopped early: a depth missing or a game not played.
    #[must_use]
    pub fn interrupted(&self) -> bool {
        self.rows.len() < self.config.depths.len() || self.rows.iter().any(|r| !r.is_complete())
    }

    /// The table of [`format_sweep`].
    #[must_use]
    pub fn table(&self) -> String {
        format_sweep(&self.rows)
    }

    /// The sweep as JSON: `columns` ([`SWEEP_COLUMNS`]), `tiles` ([`SWEEP_TILES`]),
    /// `interrupted`, the `config` (`ai`, `depths`, `games_per_depth`, `seed`, `jobs`,
    /// `timeout` in seconds, `time_ms` per move, `rules`), and `rows`: for each depth
    /// played, `depth`, `games`, `requested_games`, `max_score`, `mean_score`,
    /// `median_score`, `moves_per_sec`, `ms_per_move_mean`, `rates` (each tile of
    /// [`SWEEP_TILES`], as a string, to the share of games reaching it, from 0 to 1)
    /// and `bench`: the whole [`to_json`] document of that depth, every game's record
    /// included.
    ///
    /// # Errors
    ///
    /// Only if serde_json fails, which it should not on these types.
    pub fn to_json(&self) -> serde_json::Result<String> {
        let c = &self.config.bench;
        let mut rows = Vec::with_capacity(self.rows.len());
        for row in &self.rows {
            let s = row.summary.as_ref();
            let bench = to_json(&self.config.config_at(row.depth), &row.records)?;
            rows.push(RowJson {
                depth: row.depth,
                games: row.games(),
                requested_games: row.requested,
                max_score: s.map(|s| s.max_score),
                mean_score: s.map(|s| s.mean_score),
                median_score: s.map(|s| s.median_score),
                moves_per_sec: s.map(|s| s.moves_per_sec),
                ms_per_move_mean: s.map(|s| s.ms_per_move_mean),
                rates: SWEEP_TILES
                    .iter()
                    .filter_map(|&t| Some((t.to_string(), row.reach_rate(t)?)))
                    .collect(),
                bench: serde_json::from_str(&bench)?,
            });
        }
        let doc = SweepJson {
            columns: SWEEP_COLUMNS,
            tiles: SWEEP_TILES,
            interrupted: self.interrupted(),
            config: SweepConfigJson {
                ai: c.player.to_string(),
                depths: &self.config.depths,
                games_per_depth: c.games,
                seed: c.seed,
                jobs: c.jobs,
                timeout: c.timeout.map(|t| t.as_secs_f64()),
                time_ms: c.limits.time.map(|t| t.as_secs_f64() * 1e3),
                rules: c.rules.into(),
            },
            rows,
        };
        let mut text = serde_json::to_string_pretty(&doc)?;
        text.push('\n');
        Ok(text)
    }
}

#[derive(Serialize)]
struct SweepJson<'a> {
    columns: [&'static str; 9],
    tiles: [u32; 4],
    interrupted: bool,
    config: SweepConfigJson<'a>,
    rows: Vec<RowJson>,
}

#[derive(Serialize)]
struct SweepConfigJson<'a> {
    ai: String,
    depths: &'a [u32],
    games_per_depth: u64,
    seed: u64,
    jobs: usize,
    timeout: Option<f64>,
    time_ms: Option<f64>,
    rules: RulesJson,
}

#[derive(Serialize)]
struct RowJson {
    depth: u32,
    games: usize,
    requested_games: u64,
    max_score: Option<u64>,
    mean_score: Option<f64>,
    median_score: Option<f64>,
    moves_per_sec: Option<f64>,
    ms_per_move_mean: Option<f64>,
    /// In the order of [`SWEEP_TILES`] (serde_json keeps insertion order only with
    /// a feature, so a list of pairs is written as a map by hand).
    #[serde(serialize_with = "ordered_map")]
    rates: Vec<(String, f64)>,
    bench: serde_json::Value,
}

fn ordered_map<S: serde::Serializer>(pairs: &[(String, f64)], s: S) -> Result<S::Ok, S::Error> {
    use serde::ser::SerializeMap;
    let mut map = s.serialize_map(Some(pairs.len()))?;
    for (k, v) in pairs {
        map.serialize_entry(k, v)?;
    }
    map.end()
}

/// Plays the sweep: [`run_bench`] once per depth, in the order of `config.depths`.
///
/// `stop` is checked before every move, as by [`run_bench`]: once it is set, the
/// depth in progress keeps its finished games and the later depths are not played.
/// `on_game` is called with the depth after each finished game, from the thread that
/// played it.
///
/// # Errors
///
/// When the configuration is invalid ([`SweepConfig::validate`]) or a game fails;
/// the rows played before are lost then.
///
/// ```
/// use std::sync::atomic::AtomicBool;
/// use ai2048_bench::{run_sweep, BenchConfig, SweepConfig, SWEEP_COLUMNS};
///
/// let bench = BenchConfig { games: 3, jobs: 2, ..BenchConfig::new("expectimax".parse()?) };
/// let config = SweepConfig { bench, depths: vec![0, 1] };
/// let sweep = run_sweep(&config, &AtomicBool::new(false), |_depth, _record| {})?;
/// assert_eq!(sweep.rows.len(), 2);
/// assert!(sweep.rows.iter().all(|r| r.games() == 3));
/// assert!(!sweep.interrupted());
///
/// let table = sweep.table();
/// let header = table.lines().next().unwrap();
/// assert!(SWEEP_COLUMNS.iter().all(|c| header.contains(c)));
/// assert_eq!(table.lines().count(), 2 + 2); // header, rule, one line per depth
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn run_sweep<F>(
    config: &SweepConfig,
    stop: &AtomicBool,
    on_game: F,
) -> Result<Sweep, BenchError>
where
    F: Fn(u32, &GameRecord) + Sync,
{
    config.validate()?;
    let mut rows = Vec::with_capacity(config.depths.len());
    for &depth in &config.depths {
        if stop.load(Ordering::Relaxed) {
            break;
        }
        let bench = config.config_at(depth);
        let records = run_bench(&bench, stop, |record| on_game(depth, record))?;
        let complete = records.len() as u64 >= bench.games;
        if !records.is_empty() || bench.games == 0 {
            rows.push(SweepRow::new(depth, bench.games, records));
        }
        if !complete {
            break;
        }
    }
    Ok(Sweep {
        config: config.clone(),
        rows,
    })
}

/// The rows as an aligned text table with the columns of [`SWEEP_COLUMNS`], a rule
/// under the header, one line per row. Ends with a newline.
///
/// ```
/// use ai2048_bench::{format_sweep, GameRecord, SweepRow};
/// let game = GameRecord { index: 0, seed: 0, score: 30000, max_tile: 2048, moves: 1500,
///     seconds: 3.0, timed_out: false, max_ms_per_move: 9.0, nodes: 0,
///     table_answers: 0, table_moves: 0, searches: 0, depth_sum: 0, board: None };
/// let text = format_sweep(&[SweepRow::new(2, 1, vec![game])]);
/// let lines: Vec<&str> = text.lines().collect();
/// assert_eq!(lines[0], "depth | games | max score | mean score | moves/s | 2048 rate | 4096 rate | 8192 rate | 16384 rate");
/// assert_eq!(lines[2], "    2 |     1 |     30000 |    30000.0 |     500 |    100.0% |      0.0% |      0.0% |       0.0%");
/// ```
#[must_use]
pub fn format_sweep(rows: &[SweepRow]) -> String {
    let cells: Vec<Vec<String>> = rows.iter().map(|r| r.cells().to_vec()).collect();
    text_table(&SWEEP_COLUMNS, &cells, LastColumn::Right)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicUsize;
    use std::time::Duration;

    fn bench(player: &str, games: u64) -> BenchConfig {
        BenchConfig {
            games,
            jobs: 2,
            seed: 77,
            ..BenchConfig::new(player.parse().expect("a spec"))
        }
    }

    #[test]
    fn one_row_per_depth_with_every_column() {
        let config = SweepConfig {
            bench: bench("expectimax", 4),
            depths: vec![0, 1],
        };
        let calls = AtomicUsize::new(0);
        let sweep = run_sweep(&config, &AtomicBool::new(false), |depth, r| {
            assert!(depth <= 1 && r.moves > 0);
            calls.fetch_add(1, Ordering::Relaxed);
        })
        .expect("runs");
        assert_eq!(calls.load(Ordering::Relaxed), 8);
        assert!(!sweep.interrupted());
        let depths: Vec<u32> = sweep.rows.iter().map(|r| r.depth).collect();
        assert_eq!(depths, [0, 1]);
        for row in &sweep.rows {
            assert_eq!((row.games(), row.requested), (4, 4));
            assert!(row.is_complete());
            let s = row.summary.as_ref().expect("games");
            assert!(s.max_score > 0 && s.moves_per_sec > 0.0);
            // The same seeds at every depth.
            let seeds: Vec<u64> = row.records.iter().map(|r| r.seed).collect();
            let want: Vec<u64> = (0..4).map(|i| config.bench.game_seed(i)).collect();
            assert_eq!(seeds, want);
            for tile in SWEEP_TILES {
                let rate = row.reach_rate(tile).expect("games");
                assert!((0.0..=1.0).contains(&rate));
            }
        }
        let table = sweep.table();
        let lines: Vec<&str> = table.lines().collect();
        assert_eq!(lines.len(), 4, "{table}");
        let header: Vec<&str> = lines[0].split('|').map(str::trim).collect();
        assert_eq!(header, SWEEP_COLUMNS, "{table}");
        for line in &lines[2..] {
            assert_eq!(line.split('|').count(), 9, "{table}");
            assert_eq!(line.len(), lines[0].len(), "{table}");
            assert_eq!(line.matches('%').count(), 4, "{table}");
        }
        // Each depth's row is the bench of that depth.
        let alone = run_bench(&config.config_at(1), &AtomicBool::new(false), |_| {}).expect("runs");
        assert!(alone
            .iter()
            .zip(&sweep.rows[1].records)
            .all(|(a, b)| a.same_outcome(b)));
    }

    #[test]
    fn deeper_plays_differently() {
        let config = SweepConfig {
            bench: bench("expectimax", 3),
            depths: vec![0, 1],
        };
        let sweep = run_sweep(&config, &AtomicBool::new(false), |_, _| {}).expect("runs");
        let (a, b) = (&sweep.rows[0].records, &sweep.rows[1].records);
        assert!(a.iter().zip(b).any(|(x, y)| !x.same_outcome(y)));
    }

    #[test]
    fn json_has_the_rows_and_every_game() {
        let config = SweepConfig {
            bench: BenchConfig {
                timeout: Some(Duration::from_secs(60)),
                ..bench("greedy", 3)
            },
            depths: vec![2, 1],
        };
        let sweep = run_sweep(&config, &AtomicBool::new(false), |_, _| {}).expect("runs");
        let text = sweep.to_json().expect("json");
        let v: serde_json::Value = serde_json::from_str(&text).expect("valid");
        assert_eq!(v["columns"].as_array().map(Vec::len), Some(9));
        assert_eq!(v["interrupted"], false);
        assert_eq!(v["config"]["ai"], "greedy");
        assert_eq!(v["config"]["depths"], serde_json::json!([2, 1]));
        assert_eq!(v["config"]["games_per_depth"], 3);
        assert_eq!(v["config"]["timeout"], 60.0);
        let rows = v["rows"].as_array().expect("rows");
        assert_eq!(rows.len(), 2);
        assert_eq!(rows[0]["depth"], 2);
        assert_eq!(rows[0]["games"], 3);
        assert_eq!(rows[0]["bench"]["config"]["depth"], 2);
        assert_eq!(rows[1]["bench"]["runs"].as_array().map(Vec::len), Some(3));
        let rates: Vec<&String> = rows[0]["rates"]
            .as_object()
            .expect("rates")
            .keys()
            .collect();
        assert_eq!(rates.len(), 4);
        assert!(text.find("\"2048\"") < text.find("\"16384\""));
        assert!(!text.contains("NaN"));
    }

    #[test]
    fn stopping_keeps_the_finished_depths() {
        let config = SweepConfig {
            bench: bench("random", 1_000_000),
            depths: vec![1, 2, 3],
        };
        let stop = AtomicBool::new(false);
        let done = AtomicUsize::new(0);
        let sweep = run_sweep(&config, &stop, |_, _| {
            if done.fetch_add(1, Ordering::SeqCst) + 1 >= 10 {
                stop.store(true, Ordering::SeqCst);
            }
        })
        .expect("runs");
        assert!(sweep.interrupted());
        assert_eq!(sweep.rows.len(), 1);
        assert!(sweep.rows[0].games() >= 10);
        assert!(!sweep.rows[0].is_complete());
        // Stopped before it starts: no rows at all.
        let none = run_sweep(&config, &AtomicBool::new(true), |_, _| {}).expect("runs");
        assert!(none.rows.is_empty() && none.interrupted());
        assert_eq!(none.table().lines().count(), 2);
        let v: serde_json::Value =
            serde_json::from_str(&none.to_json().expect("json")).expect("valid");
        assert_eq!(v["interrupted"], true);
    }

    #[test]
    fn bad_sweeps_are_errors() {
        let stop = AtomicBool::new(false);
        for depths in [vec![], vec![21], vec![1, 2, 1]] {
            let config = SweepConfig {
                bench: bench("random", 1),
                depths: depths.clone(),
            };
            let err = run_sweep(&config, &stop, |_, _| {}).expect_err("invalid");
            assert!(matches!(err, BenchError::Config(_)), "{depths:?}: {err}");
        }
        let config = SweepConfig {
            bench: bench("nope", 1),
            depths: vec![1],
        };
        assert!(matches!(
            run_sweep(&config, &stop, |_, _| {}),
            Err(BenchError::Player(_))
        ));
    }

    #[test]
    fn depth_lists() {
        assert_eq!(parse_depths("3").expect("ok"), [3]);
        assert_eq!(parse_depths("0..0").expect("ok"), [0]);
        assert_eq!(parse_depths("5,1..2").expect("ok"), [5, 1, 2]);
        assert_eq!(parse_depths("0..20").expect("ok").len(), 21);
        for (bad, says) in [
            ("", "no depth"),
            ("  ", "no depth"),
            (",", "empty item"),
            ("1,", "empty item"),
            ("x", "bad depth \"x\""),
            ("1.5", "bad depth"),
            ("1...3", "bad depth"),
            ("..3", "bad depth"),
            ("4..2", "runs backwards"),
            ("21", "above 20"),
            ("0..21", "above 20"),
            ("99999999999", "bad depth"),
            ("2,1..3", "listed twice"),
        ] {
            let err = parse_depths(bad).expect_err(bad).to_string();
            assert!(err.contains(says), "{bad:?}: {err}");
        }
    }

    #[test]
    fn rows_of_no_games_print_dashes() {
        let row = SweepRow::new(4, 10, Vec::new());
        assert_eq!(row.reach_rate(2048), None);
        let cells = row.cells();
        assert_eq!(cells[..2], ["4".to_owned(), "0".to_owned()]);
        assert!(cells[2..].iter().all(|c| c == "-"));
        assert_eq!(rate_per_second(35.003), "35.00");
        assert_eq!(rate_per_second(123_456.7), "123457");
    }
}
