//! `ai2048.bench`: many seeded games on threads, with the statistics of
//! `ai2048 bench`, as the JSON document its `--json` writes.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use ai2048_bench::{run_bench, to_json, BenchConfig};
use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::errors::{bench_error, value_error};
use crate::game::rules_of;
use crate::player::{limits_of, spec_of};

/// How long the waiting thread sleeps between looks at the games and at Ctrl-C.
const POLL: Duration = Duration::from_millis(20);

/// Plays ``games`` games of the player ``ai`` and returns the JSON text of
/// `ai2048 bench --json` (the Python wrapper `ai2048.bench` parses it). See the
/// wrapper for the arguments.
///
/// The GIL is released while the games run; Ctrl-C (KeyboardInterrupt) stops them and
/// is raised once the threads have stopped.
#[pyfunction]
#[pyo3(signature = (
    ai = "expectimax", *, games = 100, first_game = 0, seed = 0, jobs = None, depth = None, time_ms = None,
    threads = None, timeout = None, start_tiles = 2, p4 = 0.1, illegal_move_spawns = false,
    **options
))]
#[allow(clippy::too_many_arguments)] // A keyword argument each, as the CLI has flags.
pub(crate) fn bench_json(
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
    options: Option<&Bound<'_, PyDict>>,
) -> PyResult<String> {
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
    };
    config.validate().map_err(|e| bench_error(&e))?;

    let stop = AtomicBool::new(false);
    let (records, interrupt) = std::thread::scope(|scope| {
        let worker = scope.spawn(|| run_bench(&config, &stop, |_| {}));
        let mut interrupt = None;
        while !worker.is_finished() {
            py.detach(|| {
                let start = Instant::now();
                while !worker.is_finished() && start.elapsed() < POLL * 5 {
                    std::thread::sleep(POLL / 4);
                }
            });
            if interrupt.is_none() {
                if let Err(e) = py.check_signals() {
                    stop.store(true, Ordering::Relaxed);
                    interrupt = Some(e);
                }
            }
        }
        (worker.join(), interrupt)
    });
    if let Some(e) = interrupt {
        return Err(e);
    }
    let records = records
        .map_err(|_| PyRuntimeError::new_err("the benchmark thread panicked"))?
        .map_err(|e| bench_error(&e))?;
    to_json(&config, &records)
        .map_err(|e| PyRuntimeError::new_err(format!("cannot encode the results as JSON: {e}")))
}
