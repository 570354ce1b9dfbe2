//! `ai2048.bench`: many seeded games on threads, with the statistics of
//! `ai2048 bench`, as the document its `--json` writes.

use ai2048_bench::{run_bench, to_json, BenchConfig, MergedRun};
use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::board::board_of;
use crate::errors::{bench_error, value_error};
use crate::game::rules_of;
use crate::player::{limits_of, spec_of};
use crate::worker::run_stoppable;

/// Play ``games`` seeded games of the player ``ai`` and return their statistics.
///
/// The arguments are those of the command line ``ai2048 bench``: ``ai`` is the player,
/// optionally with options (``"expectimax:tt-mb=16"``), and ``**options`` adds more
/// (``tt_mb=16``; ``_`` stands for ``-``); ``depth`` and ``time_ms`` limit every search;
/// ``threads`` searches each move on that many threads; ``jobs`` plays that many games
/// at once (all cores when None); ``timeout`` stops a game after that many seconds (it
/// counts with what it reached); ``start_tiles``, ``p4`` and ``illegal_move_spawns``
/// are the rules. The games are ``first_game`` to ``first_game + games - 1``, and game
/// ``i`` is played from seed ``derive_seed(seed, i)``, so the outcome does not depend
/// on ``jobs``, and a run split into parts plays the same games as the whole.
/// ``start`` (a board, as ``Board`` reads one) starts every game from that position
/// instead of a new board, and ``until`` (a tile) stops each game once it makes that
/// tile: how often a player converts a position, without the moves past it.
///
/// Returns the document ``ai2048 bench --json`` writes, parsed: ``games``,
/// ``mean_score``, ``median_score``, ``max_score``, ``min_score``, ``max_tile``,
/// ``mean_moves``, ``total_moves``, ``moves_per_sec``, ``ms_per_move_mean``,
/// ``ms_per_move_max``, ``nodes_per_sec``, ``mean_depth`` (the mean depth of the
/// searched moves), ``table_answers`` and ``table_moves`` (the moves an endgame table
/// matched, and played), ``timeouts``, ``reach`` (from each tile from 512 up, as a
/// string, to the share of games that reached it), ``reach_ci`` (its 95% Wilson
/// interval ``[low, high]``), ``requested_games``, ``interrupted``, ``config`` (the
/// run's settings) and ``runs`` (one record per game: ``index``, ``seed``, ``score``,
/// ``max_tile``, ``moves``, ``seconds``, ``timed_out``, ``max_ms_per_move``, ``nodes``,
/// ``table_answers``, ``table_moves``, ``searches`` (the moves searched: all but those
/// a table decided) and ``depth_sum`` (their depths summed), and ``board``, the board
/// the game ended on in 16 hex digits, as ``Board`` reads them).
///
/// ``should_stop``, if given, is called about ten times a second while the games run;
/// once it returns true, the games under way are dropped and the finished ones are
/// returned, the run marked ``interrupted`` (``ai2048.distributed`` stops its tasks
/// this way). An exception it raises stops the games and is raised.
///
/// The GIL is released while the games run. Ctrl-C stops them and raises
/// KeyboardInterrupt. Raises ValueError for a bad argument or an unknown player or
/// option (with the Rust library's message), RuntimeError if a player fails.
#[pyfunction]
#[pyo3(signature = (
    ai = "expectimax", *, games = 100, first_game = 0, seed = 0, jobs = None, depth = None, time_ms = None,
    threads = None, timeout = None, start_tiles = 2, p4 = 0.1, illegal_move_spawns = false,
    start = None, until = None, should_stop = None, **options
))]
#[allow(clippy::too_many_arguments)] // A keyword argument each, as the CLI has flags.
pub(crate) fn bench(
    py: Python<'_>,
    ai: &str,
    games: u64,
    first_game: u64,
    seed: u64,
    jobs: Option<usize>,
    depth: Option<u32>,
    time_ms: Option<f64>,
    threads: Option<usize>,
    timeout: Option<f64>,
    start_tiles: i64,
    p4: f64,
    illegal_move_spawns: bool,
    start: Option<&Bound<'_, PyAny>>,
    until: Option<u32>,
    should_stop: Option<&Bound<'_, PyAny>>,
    options: Option<&Bound<'_, PyDict>>,
) -> PyResult<Py<PyAny>> {
    if games == 0 {
        return Err(value_error("games must be at least 1"));
    }
    let jobs = BenchConfig::jobs_from_user(jobs, "jobs").map_err(|e| value_error(e.to_string()))?;
    let timeout = BenchConfig::timeout_from_user(timeout, "timeout")
        .map_err(|e| value_error(e.to_string()))?;
    let config = BenchConfig {
        games,
        first_game,
        seed,
        jobs,
        timeout,
        rules: rules_of(start_tiles, p4, illegal_move_spawns)?,
        player: spec_of(ai, threads, options)?,
        limits: limits_of(depth, time_ms, None, None)?,
        from: start.map(board_of).transpose()?,
        until,
    };
    config.validate().map_err(|e| bench_error(&e))?;

    let records = run_stoppable(py, should_stop, |stop| run_bench(&config, stop, |_| {}))?
        .map_err(|e| bench_error(&e))?;
    let text = to_json(&config, &records)
        .map_err(|e| PyRuntimeError::new_err(format!("cannot encode the results as JSON: {e}")))?;
    parsed(py, &text)
}

/// The JSON `text` as Python objects (`json.loads`): one document, as
/// `ai2048 bench --json` writes it, whatever is added to it later.
fn parsed(py: Python<'_>, text: &str) -> PyResult<Py<PyAny>> {
    let loads = py.import("json")?.getattr("loads")?;
    Ok(loads.call1((text,))?.unbind())
}

/// Merges the JSON documents of the shards of one run, given as ``(name, text)`` pairs
/// (the name is for messages), into the document of the whole run, as
/// ``ai2048 bench --merge`` does; with ``first_game`` and ``games`` (both or neither), the whole run
/// covers those games too, and those no shard holds make it ``interrupted``.
///
/// Raises ValueError, naming the shards, for a corrupt one, shards played with other
/// settings, or the same game in two.
#[pyfunction]
#[pyo3(signature = (shards, *, first_game = None, games = None))]
pub(crate) fn merge_runs(
    py: Python<'_>,
    shards: Vec<(String, String)>,
    first_game: Option<u64>,
    games: Option<u64>,
) -> PyResult<Py<PyAny>> {
    let mut merged = MergedRun::from_shards(shards.iter().map(|(n, t)| (n.as_str(), t.as_str())))
        .map_err(|e| value_error(e.to_string()))?;
    match (first_game, games) {
        (Some(first), Some(games)) => merged.cover(first, games),
        (None, None) => {}
        _ => {
            return Err(value_error(
                "give first_game and games together, or neither",
            ))
        }
    }
    let text = merged
        .to_json()
        .map_err(|e| PyRuntimeError::new_err(format!("cannot encode the results as JSON: {e}")))?;
    parsed(py, &text)
}
