//! Plays many seeded 2048 games in parallel and reports what course leaderboards
//! report: mean and median score, speed, timeouts, and the share of games reaching
//! each tile from 512 up, with its 95% confidence interval.
//!
//! - [`BenchConfig`] and [`run_bench`]: play the games on threads, stoppable at any
//!   time without losing the finished ones; [`play_game`] plays one.
//! - [`SavedRun`] and [`resume_bench`]: read a run back from its JSON and play only
//!   the games it lacks, to finish an interrupted run or extend a finished one;
//!   [`MergedRun`]: the shards of a run, played apart, merged back into the run.
//! - [`GameRecord`]: what one game came to; [`run_tasks`]: the pool of threads that
//!   plays games, for benchmarks, sweeps and tuning alike.
//! - [`fill_network_pools`] and [`fill_pools`]: a training carousel's pools filled
//!   from another player's games.
//! - [`Comparison`]: two runs over the same seeds compared game by game (the paired
//!   score difference, and McNemar's test on the tiles only one reached), or several
//!   pairs of runs (one from each `--from` board, say) pooled.
//! - [`Ends`]: where a run's games ended, grouped by the largest tile on their final
//!   boards and the largest tile missing below it (the stage a game was lost in).
//! - [`Summary`]: the statistics of the records; [`wilson_interval`], [`median`] and
//!   [`reach_table`] are its parts.
//! - [`format_summary`]: the summary as a text table; [`to_json`]: the run as JSON.
//! - [`SweepConfig`] and [`run_sweep`]: the same games at several search depths, one
//!   table row per depth ([`format_sweep`]), and [`plot_sweep`]: score against time
//!   (with the `plot` feature, on by default; the Python package leaves it out).
//! - [`StrengthRuns`]: a CSV file of runs, each an engine's time a move and the share
//!   of its games reaching each tile, and [`plot_strength`]: those shares against the
//!   time (with the `plot` feature too).
//!
//! Game `i` of a run from seed `s` is played from seed `derive_seed(s, i)`, by a
//! player created from that seed too, so a run's results do not depend on the number
//! of threads.
//!
//! ```
//! use std::sync::atomic::AtomicBool;
//! use ai2048_bench::{format_summary, run_bench, BenchConfig, Summary};
//!
//! let config = BenchConfig { games: 20, jobs: 2, ..BenchConfig::new("greedy".parse()?) };
//! let stop = AtomicBool::new(false); // set it from a Ctrl-C handler to stop early
//! let records = run_bench(&config, &stop, |record| {
//!     assert!(record.moves > 0); // called after each game, e.g. for a progress bar
//! })?;
//! assert_eq!(records.len(), 20);
//!
//! let summary = Summary::from_records(&records).expect("some games finished");
//! assert!(summary.min_score <= summary.max_score);
//! assert_eq!(summary.timeouts, 0);
//! println!("{}", format_summary(&summary));
//!
//! // The same seed gives the same games, whatever the number of threads.
//! let again = run_bench(&BenchConfig { jobs: 1, ..config }, &stop, |_| {})?;
//! assert!(records.iter().zip(&again).all(|(a, b)| a.same_outcome(b)));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![deny(missing_docs)]

mod compare;
mod config;
#[cfg(feature = "plot")]
mod curve;
mod ends;
mod json;
mod merge;
#[cfg(feature = "plot")]
mod plot;
mod pool;
mod pools;
mod record;
mod report;
mod run;
#[cfg(feature = "plot")]
mod runs_csv;
mod saved;
mod stats;
#[cfg(feature = "plot")]
mod strength;
mod sweep;
mod table;

pub use compare::{mcnemar_exact, CompareError, Comparison, PairedReach};
pub use config::{BenchConfig, BenchError};
#[cfg(feature = "plot")]
pub use curve::{plot_curve, CurvePoint};
pub use ends::{EndRow, Ends};
pub use json::to_json;
pub use merge::{MergeError, MergedRun};
#[cfg(feature = "plot")]
pub use plot::{plot_sweep, PlotError, PlotFormat};
pub use pool::{panic_message, run_tasks};
pub use pools::{fill_network_pools, fill_pools, PoolGames};
pub use record::GameRecord;
pub use report::format_summary;
pub use run::{play_game, play_game_until, play_game_watched, resume_bench, run_bench};
#[cfg(feature = "plot")]
pub use runs_csv::{RunsError, StrengthRun, StrengthRuns};
pub use saved::SavedRun;
pub use stats::{median, reach_table, wilson_interval, Summary, TileReach, REACH_FROM, Z_95};
#[cfg(feature = "plot")]
pub use strength::plot_strength;
pub use sweep::{
    format_sweep, parse_depths, run_sweep, Sweep, SweepConfig, SweepRow, MAX_SWEEP_DEPTH,
    SWEEP_COLUMNS, SWEEP_TILES,
};
pub use table::{text_table, LastColumn};
