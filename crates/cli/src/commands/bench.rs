//! `ai2048 bench`: plays many games on all cores and reports their statistics.
//!
//! Ctrl-C stops the run cleanly: the games in progress are dropped, the finished ones
//! reported and saved, and the process exits with code 130. A second Ctrl-C quits at
//! once. With a JSON file, the finished games are also saved to it as they come, so a
//! run that is killed outright goes on with `--resume` too.

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use ai2048_bench::{
    format_summary, resume_bench, to_json, BenchConfig, CompareError, Comparison, Ends, GameRecord,
    MergedRun, SavedRun, Summary,
};
use anyhow::{anyhow, bail, Context, Result};
use indicatif::{ProgressBar, ProgressState};

use crate::args::{AiArgs, BenchArgs, JobsArgs, RulesArgs, TimeoutArgs};
use crate::commands::hint::board_option;
use crate::describe::describe_rules;
use crate::files::{write_atomic, write_json};
use crate::interrupt::{catch_ctrl_c, Outcome};
use crate::memory::peak_resident;
use crate::progress::games_bar;

/// Runs `ai2048 bench`: plays the games, prints the summary to stdout, writes the JSON
/// file if asked.
///
/// On Ctrl-C, reports the games finished so far, writes them to the JSON file, and
/// returns [`Outcome::Interrupted`].
///
/// # Errors
///
/// How the comparison names the run in `path` beside the one in `other`: its file
/// name without `.json`, or its whole path when the two names are the same.
fn label(path: &Path, other: &Path) -> String {
    let stem = |p: &Path| p.file_stem().map(|s| s.to_string_lossy().into_owned());
    match (stem(path), stem(other)) {
        (Some(a), Some(b)) if a != b => a,
        _ => path.display().to_string(),
    }
}

/// What `--compare` prints for `files`, pairs of runs (`A1 B1 A2 B2 ...`): each pair
/// paired game by game, all pooled.
fn compare(files: &[PathBuf]) -> Result<String> {
    // clap takes `--compare` two files at a time.
    let pairs: Vec<(&PathBuf, &PathBuf)> = files
        .chunks_exact(2)
        .map(|pair| (&pair[0], &pair[1]))
        .collect();
    let runs = pairs
        .iter()
        .map(|(a, b)| paired_runs(a, b))
        .collect::<Result<Vec<_>>>()?;
    let sets: Vec<(&[GameRecord], &[GameRecord])> = runs
        .iter()
        .map(|(a, b)| (a.records(), b.records()))
        .collect();
    let comparison = Comparison::of_sets(&sets, 2048).map_err(|error| match error {
        CompareError::InSet { set, error } => {
            let (a, b) = pairs[set];
            anyhow!("--compare {} {}: {error}", a.display(), b.display())
        }
        error => anyhow::Error::new(error).context("--compare"),
    })?;
    let (a, b) = match pairs[..] {
        [(a, b)] => (label(a, b), label(b, a)),
        _ => {
            let firsts: Vec<&Path> = pairs.iter().map(|p| p.0.as_path()).collect();
            let seconds: Vec<&Path> = pairs.iter().map(|p| p.1.as_path()).collect();
            match (common_stem(&firsts), common_stem(&seconds)) {
                (Some(a), Some(b)) if a != b => (a, b),
                _ => ("the first".to_owned(), "the second".to_owned()),
            }
        }
    };
    Ok(comparison.format(&a, &b))
}

/// The runs saved in `a` and `b`, checked to have played the same games: from the
/// same board (`--from`) and under the same rules, without which the same seeds are
/// other games and pairing them means nothing.
fn paired_runs(a: &Path, b: &Path) -> Result<(SavedRun, SavedRun)> {
    let (run_a, run_b) = (read_saved(a, "--compare")?, read_saved(b, "--compare")?);
    let differences = run_a.other_games(&run_b);
    if !differences.is_empty() {
        let named: Vec<String> = differences
            .iter()
            .map(|(key, in_a, in_b)| match key.as_str() {
                "from" => format!(
                    "the first {}, the second {}",
                    start_text(in_a),
                    start_text(in_b)
                ),
                "rules" => format!(
                    "rules {} in the first against {} in the second",
                    rules_text(in_a),
                    rules_text(in_b)
                ),
                _ => format!("{key} {in_a} in the first, {in_b} in the second"),
            })
            .collect();
        bail!(
            "--compare {} {}: the runs played other games ({}); compare runs of the same \
             --from board and rules",
            a.display(),
            b.display(),
            named.join("; ")
        );
    }
    Ok((run_a, run_b))
}

/// How a saved run's `from` (null, or the board in 16 hex digits) started its games:
/// `new games`, or `from 2 2 0 0/0 0 0 0/0 0 0 0/0 0 0 4`; the JSON as it is if it
/// is no board.
fn start_text(from: &serde_json::Value) -> String {
    if from.is_null() {
        return "new games".to_owned();
    }
    match from.as_str().map(str::parse::<ai2048_engine::Board>) {
        Some(Ok(board)) => {
            let rows = board
                .to_rows()
                .map(|row| row.map(|t| t.to_string()).join(" "));
            format!("from {}", rows.join("/"))
        }
        _ => format!("from {from}"),
    }
}

/// A saved run's rules (the JSON object its config holds) in the words of a run's
/// header, as `2 start tiles, p(4) 0.5, illegal moves refused`; the JSON as it is if
/// it is not such an object.
fn rules_text(rules: &serde_json::Value) -> String {
    let parsed = (|| {
        Some(ai2048_engine::Rules {
            start_tiles: u8::try_from(rules["start_tiles"].as_u64()?).ok()?,
            four_probability: rules["four_probability"].as_f64()?,
            illegal_move_spawns: rules["illegal_move_spawns"].as_bool()?,
        })
    })();
    parsed.map_or_else(|| rules.to_string(), describe_rules)
}

/// The start that the file names of `paths` (without `.json`) share, less a
/// trailing `-`, `_` or `.`: `base` for `base-1.json` and `base-2.json`; `None` if
/// they share nothing.
fn common_stem(paths: &[&Path]) -> Option<String> {
    let stems: Vec<String> = paths
        .iter()
        .map(|p| p.file_stem().map(|s| s.to_string_lossy().into_owned()))
        .collect::<Option<_>>()?;
    let first = stems.first()?;
    let mut common = first.len();
    for stem in &stems[1..] {
        common = first
            .char_indices()
            .zip(stem.chars())
            .find(|((_, x), y)| x != y)
            .map_or(common.min(stem.len()), |((i, _), _)| common.min(i));
    }
    let start = first[..common].trim_end_matches(['-', '_', '.']);
    (!start.is_empty()).then(|| start.to_owned())
}

/// Bad arguments, a faulty player, or a JSON file that cannot be written.
pub fn run(args: &BenchArgs) -> Result<Outcome> {
    if !args.merge.is_empty() {
        merge(&args.merge, args.json.as_deref())?;
        return Ok(Outcome::Done);
    }
    if !args.compare.is_empty() {
        let text = compare(&args.compare)?;
        let mut out = std::io::stdout().lock();
        write!(out, "{text}")?;
        out.flush()?;
        return Ok(Outcome::Done);
    }
    if !args.ends.is_empty() {
        let (records, missing) = match &args.ends[..] {
            [path] => (saved_run(path, "--ends")?, Vec::new()),
            files => {
                let merged = merged_run(files, "--ends")?;
                (merged.records().to_vec(), merged.missing().to_vec())
            }
        };
        let names: Vec<String> = args.ends.iter().map(|p| p.display().to_string()).collect();
        let mut out = std::io::stdout().lock();
        writeln!(out, "the {} games of {}:", records.len(), names.join(", "))?;
        if !missing.is_empty() {
            writeln!(out, "(no file holds {})", index_ranges(&missing))?;
        }
        write!(out, "{}", Ends::of(&records).format())?;
        out.flush()?;
        return Ok(Outcome::Done);
    }
    // First, so that Ctrl-C while players or networks load stops cleanly too.
    let stop = catch_ctrl_c();
    // The file to resume is read first: checking the options ends by making the
    // player, which may load a network (seconds in a debug build).
    let saved = match &args.resume {
        Some(path) => Some((path, read_saved(path, "--resume")?)),
        None => None,
    };
    let config = config(args)?;
    let done = match saved {
        Some((path, saved)) => saved_games(path, saved, &config)?,
        None => Vec::new(),
    };
    let resumed = done.len();
    let resumed_moves: u64 = done.iter().map(|r| r.moves).sum();
    let to_play = config.games - resumed as u64;
    let progress = Progress::new(to_play, !args.quiet && std::io::stderr().is_terminal());
    let json_path = args.json.as_ref().or(args.resume.as_ref());
    let checkpoint = json_path.map(|path| Checkpoint::new(path, &config, &done));
    let started = Instant::now();
    let records = resume_bench(&config, done, stop, |record| {
        progress.game_done(record.score);
        if let Some(checkpoint) = &checkpoint {
            checkpoint.game_done(record);
        }
    });
    progress.finish();
    let records = records?;
    let wall = started.elapsed();
    let interrupted = (records.len() as u64) < config.games;

    let mut out = std::io::stdout().lock();
    writeln!(out, "{}", describe(&config))?;
    if let Some(path) = &args.resume {
        writeln!(
            out,
            "resumed from {}: {resumed} games were finished already",
            path.display()
        )?;
    }
    if interrupted {
        writeln!(
            out,
            "interrupted: {} of {} games finished (the games in progress were dropped)",
            records.len(),
            config.games
        )?;
    }
    match Summary::from_records(&records) {
        Some(summary) => {
            let played = records.len() - resumed;
            let secs = wall.as_secs_f64().max(1e-9);
            write!(
                out,
                "{played} games in {:.2} s on {} threads: {:.1} games/s, {:.0} moves/s in all",
                wall.as_secs_f64(),
                config.threads_for(to_play),
                played as f64 / secs,
                (summary.total_moves - resumed_moves) as f64 / secs,
            )?;
            if let Some(peak) = peak_resident() {
                write!(
                    out,
                    ", peak memory {:.0} MiB",
                    peak as f64 / f64::from(1 << 20)
                )?;
            }
            writeln!(out, "\n")?;
            write!(out, "{}", format_summary(&summary))?;
        }
        None => writeln!(out, "no game finished: nothing to report")?,
    }
    if let Some(path) = json_path {
        let what = format!("\n{} game records", records.len());
        write_json(path, to_json(&config, &records), &what, &mut out)?;
    }
    out.flush()?;
    Ok(Outcome::from_interrupted(
        interrupted && stop.load(Ordering::Relaxed),
    ))
}

/// A run saves its finished games at most this often: each save waits for this many
/// times as long as the last save took, so saving costs at most 1% of the run.
const CHECKPOINT_RATIO: u32 = 100;

/// The finished games of a run saved to its JSON file as they come, so that a run
/// killed outright (a closed session, an out-of-memory kill) loses little more than
/// the games in progress and goes on with `--resume`; Ctrl-C, as before, saves them
/// all on the way out. A run of long games (the lab's take minutes) saves after every
/// game; one of thousands of games a second, every few hundred milliseconds or more
/// (see [`CHECKPOINT_RATIO`]).
struct Checkpoint<'a> {
    path: &'a Path,
    config: &'a BenchConfig,
    state: Mutex<CheckpointState>,
}

struct CheckpointState {
    records: Vec<GameRecord>,
    /// When the last save ended, and how long it took.
    saved: Instant,
    took: Duration,
    warned: bool,
}

impl<'a> Checkpoint<'a> {
    fn new(path: &'a Path, config: &'a BenchConfig, done: &[GameRecord]) -> Checkpoint<'a> {
        Checkpoint {
            path,
            config,
            state: Mutex::new(CheckpointState {
                records: done.to_vec(),
                saved: Instant::now(),
                took: Duration::ZERO,
                warned: false,
            }),
        }
    }

    /// Adds `record`, and saves every finished game unless the last save is too recent. A
    /// save that fails is reported once on stderr; the run goes on, and its end writes
    /// the file again (and reports what fails then).
    fn game_done(&self, record: &GameRecord) {
        let mut state = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        state.records.push(*record);
        if state.saved.elapsed() < state.took * CHECKPOINT_RATIO {
            return;
        }
        let start = Instant::now();
        let mut records = state.records.clone();
        records.sort_unstable_by_key(|r| r.index);
        let saved = to_json(self.config, &records)
            .context("cannot encode the results as JSON")
            .and_then(|json| write_atomic(self.path, json.as_bytes()));
        state.saved = Instant::now();
        state.took = state.saved - start;
        if let Err(e) = saved {
            if !state.warned {
                state.warned = true;
                eprintln!(
                    "warning: cannot save the finished games to {} as they come ({e:#}); the run goes on",
                    self.path.display()
                );
            }
        }
    }
}

/// `--merge`: the shards' files merged into the whole run, reported, and written to
/// `json` if given.
fn merge(files: &[PathBuf], json: Option<&Path>) -> Result<()> {
    let merged = merged_run(files, "--merge")?;
    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        "merged {} files: {} of the {} games from game {} to {}",
        files.len(),
        merged.records().len(),
        merged.games(),
        merged.first_game(),
        merged
            .first_game()
            .saturating_add(merged.games())
            .saturating_sub(1)
    )?;
    let missing: u64 = merged.missing().iter().map(|r| r.end - r.start).sum();
    if missing > 0 {
        writeln!(
            out,
            "missing: {} ({missing} games); the run's options with --first-game {} \
             --num-games {} and --resume on the merged file play them",
            index_ranges(merged.missing()),
            merged.first_game(),
            merged.games()
        )?;
    }
    match Summary::from_records(merged.records()) {
        Some(summary) => write!(out, "\n{}", format_summary(&summary))?,
        None => writeln!(out, "no game finished: nothing to report")?,
    }
    if let Some(path) = json {
        let what = format!("\n{} game records", merged.records().len());
        write_json(path, merged.to_json(), &what, &mut out)?;
    }
    out.flush()?;
    Ok(())
}

/// The shards of one run in `files`, joined, read for `option`: an error names the
/// file that cannot be read or joined.
fn merged_run(files: &[PathBuf], option: &str) -> Result<MergedRun> {
    let texts = files
        .iter()
        .map(|path| {
            std::fs::read_to_string(path)
                .with_context(|| format!("{option}: cannot read {}", path.display()))
        })
        .collect::<Result<Vec<String>>>()?;
    let names: Vec<String> = files.iter().map(|p| p.display().to_string()).collect();
    MergedRun::from_shards(
        names
            .iter()
            .map(String::as_str)
            .zip(texts.iter().map(String::as_str)),
    )
    .context(option.to_owned())
}

/// Ranges of game indices as text: `games 4 to 6, 9`.
fn index_ranges(ranges: &[std::ops::Range<u64>]) -> String {
    let text: Vec<String> = ranges
        .iter()
        .map(|r| match r.end - r.start {
            1 => r.start.to_string(),
            _ => format!("{} to {}", r.start, r.end - 1),
        })
        .collect();
    let one = ranges.len() == 1 && ranges[0].end - ranges[0].start == 1;
    format!("game{} {}", if one { "" } else { "s" }, text.join(", "))
}

/// The run saved in `path`, read for `option`.
fn read_saved(path: &Path, option: &str) -> Result<SavedRun> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("{option}: cannot read {}", path.display()))?;
    SavedRun::from_json(&text).with_context(|| {
        format!(
            "{option}: {} is not the JSON of an ai2048 bench run",
            path.display()
        )
    })
}

/// The finished games of the run saved in `path`, read for `option`.
fn saved_run(path: &Path, option: &str) -> Result<Vec<GameRecord>> {
    Ok(read_saved(path, option)?.records().to_vec())
}

/// The finished games of the run saved in `path`, checked to be games of `config`.
fn saved_games(path: &Path, saved: SavedRun, config: &BenchConfig) -> Result<Vec<GameRecord>> {
    saved
        .records_for(config)
        .with_context(|| format!("--resume: cannot go on with {}", path.display()))
}

/// The validated configuration of the run.
fn config(args: &BenchArgs) -> Result<BenchConfig> {
    let config = run_config(
        &args.ai,
        &args.rules,
        args.num_games,
        args.first_game,
        &args.timeout,
        args.seed,
        &args.jobs,
    )?;
    let from = args
        .from
        .as_deref()
        .map(|text| board_option("--from", text))
        .transpose()?;
    let config = BenchConfig {
        from,
        until: args.until,
        ..config
    };
    config.validate()?;
    Ok(config)
}

/// A run of `games` games from `first_game` on, from the options of every command that
/// plays runs (`bench`, `sweep`), each checked as it is read; the player's name and
/// options too, but the player is made only by [`BenchConfig::validate`], last (see
/// [`AiArgs::parsed_spec`]).
pub(crate) fn run_config(
    ai: &AiArgs,
    rules: &RulesArgs,
    games: u64,
    first_game: u64,
    timeout: &TimeoutArgs,
    seed: u64,
    jobs: &JobsArgs,
) -> Result<BenchConfig> {
    let player = ai.parsed_spec()?;
    let limits = ai.limits()?;
    let rules = rules.rules()?;
    if games == 0 {
        bail!("--num-games must be at least 1");
    }
    Ok(BenchConfig {
        games,
        first_game,
        seed,
        jobs: jobs.jobs()?,
        timeout: timeout.timeout()?,
        rules,
        player,
        limits,
        from: None,
        until: None,
    })
}

/// One line on what was benchmarked.
fn describe(c: &BenchConfig) -> String {
    // The formation player is the default player's spec with more options: say so.
    let played = match ai2048_ai::resolve_player(&c.player) {
        Ok(spec) if *spec != c.player => format!("{} (plays as {spec})", c.player),
        _ => c.player.to_string(),
    };
    let mut line = format!("ai2048 bench: ai {played}, {} games", c.games);
    if c.first_game > 0 {
        line += &format!(" from game {}", c.first_game);
    }
    if let Some(board) = c.from {
        line += &format!(" from the position {}", board.to_hex());
    }
    if let Some(tile) = c.until {
        line += &format!(", each to {tile}");
    }
    line += &format!(", seed {}, {} jobs", c.seed, c.jobs);
    if let Some(depth) = c.limits.depth {
        line += &format!(", depth {depth}");
    }
    if let Some(time) = c.limits.time {
        line += &format!(", {} ms/move", crate::progress::millis(time));
    }
    if let Some(t) = c.timeout {
        line += &format!(", timeout {} s/game", t.as_secs_f64());
    }
    line += &format!(", {}", describe_rules(c.rules));
    // `auto` tables depend on what this machine has built: say which played.
    if let Ok(Some(tables)) = ai2048_ai::tables_in_use(&c.player) {
        let names: Vec<&str> = tables.names().collect();
        line += &format!(", endgame tables {}", names.join(" "));
    }
    line
}

/// The progress bar on stderr, with the running mean score; hidden when asked, or
/// when stderr is not a terminal. Cheap to update from every thread.
struct Progress {
    bar: ProgressBar,
    scores: Arc<Scores>,
}

/// The scores of the finished games, for the running mean.
#[derive(Default)]
struct Scores {
    sum: AtomicU64,
    games: AtomicU64,
}

impl Progress {
    fn new(games: u64, visible: bool) -> Progress {
        let scores = Arc::new(Scores::default());
        if !visible {
            return Progress {
                bar: ProgressBar::hidden(),
                scores,
            };
        }
        let mean = {
            let scores = Arc::clone(&scores);
            move |_: &ProgressState, w: &mut dyn std::fmt::Write| {
                let n = scores.games.load(Ordering::Relaxed);
                if n > 0 {
                    let sum = scores.sum.load(Ordering::Relaxed) as f64;
                    let _ = write!(w, "mean score {:.0}", sum / n as f64);
                }
            }
        };
        let bar = games_bar(games, true, "{mean}", |s| s.with_key("mean", mean));
        Progress { bar, scores }
    }

    fn game_done(&self, score: u64) {
        self.scores.sum.fetch_add(score, Ordering::Relaxed);
        self.scores.games.fetch_add(1, Ordering::Relaxed);
        self.bar.inc(1);
    }

    fn finish(&self) {
        self.bar.finish_and_clear();
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;
    use crate::args::testing::{args, assert_rejected, BAD_RUN_OPTIONS};

    #[test]
    fn several_runs_are_named_by_the_start_their_file_names_share() {
        let stem = |names: &[&str]| {
            let paths: Vec<&Path> = names.iter().map(Path::new).collect();
            common_stem(&paths)
        };
        assert_eq!(
            stem(&["runs/base-1.json", "runs/base-2.json"]).as_deref(),
            Some("base")
        );
        assert_eq!(stem(&["a/d5_x.json", "b/d5_y.json"]).as_deref(), Some("d5"));
        assert_eq!(stem(&["one.json"]).as_deref(), Some("one"));
        assert_eq!(stem(&["x.json", "y.json"]), None);
        assert_eq!(stem(&["-1.json", "-2.json"]), None);
        // One name the start of the other.
        assert_eq!(stem(&["lab.json", "lab-2.json"]).as_deref(), Some("lab"));
    }

    #[test]
    fn missing_games_read_as_ranges() {
        assert_eq!(index_ranges(std::slice::from_ref(&(7..8))), "game 7");
        assert_eq!(
            index_ranges(&[4..7, 9..10, 11..13]),
            "games 4 to 6, 9, 11 to 12"
        );
    }

    #[test]
    fn validation() {
        let c = config(&args(&[
            "--ai",
            "random",
            "--num-games",
            "7",
            "--jobs",
            "3",
        ]))
        .expect("valid");
        assert_eq!((c.games, c.jobs, c.timeout), (7, 3, None));
        assert!(config(&args(&[])).expect("defaults").jobs >= 1);
        let c = config(&args(&["--timeout", "0.5"])).expect("valid");
        assert_eq!(c.timeout, Some(Duration::from_millis(500)));
        assert_rejected(
            config,
            &[
                (&["--timeout=-1"][..], "--timeout"),
                (&["--timeout", "NaN"], "--timeout"),
                (&["--timeout", "inf"], "--timeout"),
                (&["--timeout", "1e300"], "too large"),
                (&["--ai-opt", "bad"], "KEY=VALUE"),
                (&["--depth", "21"], "--depth"),
            ],
        );
        assert_rejected(config, BAD_RUN_OPTIONS);
    }

    #[test]
    fn description() {
        let c = config(&args(&[
            "--ai",
            "random",
            "--timeout",
            "2",
            "--jobs",
            "2",
            "--seed",
            "9",
        ]))
        .expect("valid");
        assert_eq!(
            describe(&c),
            "ai2048 bench: ai random, 100 games, seed 9, 2 jobs, timeout 2 s/game, \
             2 start tiles, p(4) 0.1, illegal moves refused"
        );
    }
}
