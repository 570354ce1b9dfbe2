//! `ai2048 sweep`: the same games at several search depths, as a table (one row per
//! depth) and, if asked, a plot of score against time per move and a JSON file.
//!
//! The sweep itself is [`ai2048_bench::run_sweep`]; this module reads the arguments,
//! shows progress and writes the files. Ctrl-C stops it as it stops `bench`: what
//! finished is reported and saved, and the process exits with code 130.

use std::io::{IsTerminal, Write};
use std::sync::atomic::Ordering;
use std::time::Instant;

use ai2048_bench::{parse_depths, plot_sweep, run_sweep, PlotFormat, Sweep, SweepConfig};
use anyhow::{bail, Context, Result};

use crate::args::SweepArgs;
use crate::commands::bench::run_config;
use crate::describe::describe_rules;
use crate::files::{write_atomic, write_json};
use crate::interrupt::{catch_ctrl_c, Outcome};
use crate::progress::games_bar;

/// Runs `ai2048 sweep`: plays every depth, prints the table to stdout, draws the plot
/// and writes the JSON file if asked.
///
/// On Ctrl-C, reports, plots and saves what finished, and returns
/// [`Outcome::Interrupted`].
///
/// # Errors
///
/// Bad arguments, a faulty player, or a file that cannot be written.
pub fn run(args: &SweepArgs) -> Result<Outcome> {
    // First, so that Ctrl-C while players or networks load stops cleanly too.
    let stop = catch_ctrl_c();
    let config = config(args)?;
    let plot = match &args.plot {
        Some(path) => Some((path.as_path(), PlotFormat::from_path(path)?)),
        None => None,
    };
    let total = config.bench.games * config.depths.len() as u64;
    let progress = games_bar(
        total,
        !args.quiet && std::io::stderr().is_terminal(),
        "depth {msg}",
        |s| s,
    );
    let started = Instant::now();
    let sweep = run_sweep(&config, stop, |depth, _| {
        progress.set_message(depth.to_string());
        progress.inc(1);
    });
    progress.finish_and_clear();
    let sweep = sweep?;
    let wall = started.elapsed();

    let mut out = std::io::stdout().lock();
    writeln!(out, "{}", describe(&config))?;
    if sweep.interrupted() {
        writeln!(out, "{}", describe_interruption(&sweep))?;
    }
    let games: usize = sweep.rows.iter().map(|r| r.games()).sum();
    writeln!(
        out,
        "{games} games in {:.2} s on {} threads\n",
        wall.as_secs_f64(),
        config.bench.threads_for(config.bench.games)
    )?;
    write!(out, "{}", sweep.table())?;
    if let Some((path, format)) = plot {
        let bytes = plot_sweep(&sweep.rows, format, &title(&config))
            .with_context(|| format!("cannot draw {}", path.display()))?;
        write_atomic(path, &bytes)?;
        writeln!(out, "\nplot written to {}", path.display())?;
    }
    if let Some(path) = &args.json {
        let what = format!(
            "{}{} rows and {games} game records",
            if plot.is_some() { "" } else { "\n" },
            sweep.rows.len()
        );
        write_json(path, sweep.to_json(), &what, &mut out)?;
    }
    out.flush()?;
    Ok(Outcome::from_interrupted(
        sweep.interrupted() && stop.load(Ordering::Relaxed),
    ))
}

/// The validated configuration of the sweep. The plot's format is checked too, so
/// that a bad file name fails before any game is played.
fn config(args: &SweepArgs) -> Result<SweepConfig> {
    if args.ai.depth.is_some() {
        bail!("--depth does not apply to a sweep: give the depths with --depths, such as --depths 1..3");
    }
    let depths = parse_depths(&args.depths).context("--depths")?;
    if let Some(path) = &args.plot {
        PlotFormat::from_path(path).context("--plot")?;
    }
    let bench = run_config(
        &args.ai,
        &args.rules,
        args.num_games,
        0,
        &args.timeout,
        args.seed,
        &args.jobs,
    )?;
    let config = SweepConfig { bench, depths };
    config.validate()?;
    Ok(config)
}

/// One line on what is swept.
fn describe(c: &SweepConfig) -> String {
    let b = &c.bench;
    let depths: Vec<String> = c.depths.iter().map(u32::to_string).collect();
    let mut line = format!(
        "ai2048 sweep: ai {}, depths {}, {} games per depth, seed {}, {} jobs",
        b.player,
        depths.join(","),
        b.games,
        b.seed,
        b.jobs
    );
    if let Some(time) = b.limits.time {
        line += &format!(", {} ms/move", crate::progress::millis(time));
    }
    if let Some(t) = b.timeout {
        line += &format!(", timeout {} s/game", t.as_secs_f64());
    }
    line + ", " + &describe_rules(b.rules)
}

/// What a stopped sweep finished.
fn describe_interruption(sweep: &Sweep) -> String {
    let asked = sweep.config.depths.len();
    let complete = sweep.rows.iter().filter(|r| r.is_complete()).count();
    let mut line = format!("interrupted: {complete} of {asked} depths finished");
    if let Some(row) = sweep.rows.last().filter(|r| !r.is_complete()) {
        line += &format!(
            ", and {} of {} games of depth {}",
            row.games(),
            row.requested,
            row.depth
        );
    }
    line + " (the games in progress were dropped)"
}

/// The plot's title.
fn title(c: &SweepConfig) -> String {
    format!(
        "{}: score against time per move, {} games per depth",
        c.bench.player, c.bench.games
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::args::testing::{args, assert_rejected, BAD_RUN_OPTIONS};

    #[test]
    fn validation() {
        let c = config(&args(&[
            "--ai",
            "expectimax",
            "--depths",
            "0,2..3",
            "--num-games",
            "7",
            "--jobs",
            "3",
            "--timeout",
            "2",
        ]))
        .expect("valid");
        assert_eq!(c.depths, [0, 2, 3]);
        assert_eq!((c.bench.games, c.bench.jobs), (7, 3));
        assert_eq!(c.bench.timeout, Some(std::time::Duration::from_secs(2)));
        assert_eq!(config(&args(&[])).expect("defaults").depths, [1, 2, 3]);
        assert_rejected(
            config,
            &[
                (&["--depths", ""][..], "no depth"),
                (&["--depths", "1,,2"], "empty item"),
                (&["--depths", "a"], "bad depth"),
                (&["--depths", "3..1"], "backwards"),
                (&["--depths", "21"], "above 20"),
                (&["--depths", "1,1"], "twice"),
                (&["--depth", "2"], "--depths"),
                (&["--plot", "x.pdf"], ".svg or .png"),
                (&["--plot", "x"], ".svg or .png"),
            ],
        );
        assert_rejected(config, BAD_RUN_OPTIONS);
    }

    #[test]
    fn descriptions() {
        let c = config(&args(&[
            "--ai", "greedy", "--depths", "1..2", "--jobs", "2", "--seed", "9",
        ]))
        .expect("valid");
        assert_eq!(
            describe(&c),
            "ai2048 sweep: ai greedy, depths 1,2, 20 games per depth, seed 9, 2 jobs, \
             2 start tiles, p(4) 0.1, illegal moves refused"
        );
        assert!(title(&c).starts_with("greedy: score against time per move"));
    }
}
