//! `ai2048 train`: trains an n-tuple network by TD learning over games it plays itself,
//! prints a learning curve, and writes the network file.
//!
//! The learning is [`ai2048_ai::ntuple::Trainer`]; this module reads the arguments,
//! shows progress, reports and writes the file.

use std::io::{IsTerminal, Write};
use std::path::Path;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use ai2048_ai::ntuple::{
    check_initial_value, parse_tuples, player_policy, GoRoundError, Learning, NTupleNetwork,
    PolicyFactory, Restart, Stages, TrainConfig, TrainedGame, Trainer,
};
use ai2048_ai::PlayerSpec;
use ai2048_bench::{plot_curve, CurvePoint, PlotFormat};
use anyhow::{anyhow, bail, Context, Result};
use indicatif::ProgressBar;

use crate::args::TrainArgs;
use crate::describe::describe_rules;
use crate::files::{check_out, command_line, write_atomic};
use crate::interrupt::{catch_ctrl_c, Outcome};
use crate::progress::games_bar;

mod pools;

/// The tiles whose reach a report line gives.
pub(crate) const REPORT_TILES: [u32; 5] = [2048, 4096, 8192, 16384, 32768];

/// Runs `ai2048 train`.
///
/// On Ctrl-C, finishes the games in progress, writes the network, prints the last
/// report and returns [`Outcome::Interrupted`].
///
/// # Errors
///
/// Bad arguments, a network file that cannot be read (with `--resume`) or written, or
/// an `--out` file that exists without `--resume`.
pub fn run(args: &TrainArgs) -> Result<Outcome> {
    // First, so that Ctrl-C while players or networks load stops cleanly too.
    let stop = catch_ctrl_c();
    let mut net = network(args)?;
    let config = config(args, &net)?;
    let policy = policy(args, &config)?;
    let games = games(args)?;
    let pools = pools::pool_games(args, &net, &config)?;
    let deadline = args
        .minutes
        .map(|m| Instant::now() + Duration::from_secs_f64(m * 60.0));
    let plot = args
        .plot
        .as_deref()
        .map(PlotFormat::from_path)
        .transpose()
        .context("--plot")?;
    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        "ai2048 train: {} tuples ({}), {} stage{} ({}), {} weights, {} games trained; {} now, learning {}, alpha {}, seed {}, {} thread{}{}, {}",
        net.tuple_counts_text(),
        net.tuples_text(),
        net.stages().count(),
        if net.stages().count() == 1 { "" } else { "s" },
        net.stages(),
        net.weight_count(),
        net.games(),
        match (args.games, args.minutes, args.moves) {
            (None, None, None) => format!("{games} games"),
            (g, m, n) => [
                g.map(|g| format!("{g} games")),
                m.map(|m| format!("{m} minutes")),
                n.map(|n| format!("{n} trained moves")),
            ]
            .into_iter()
            .flatten()
            .collect::<Vec<_>>()
            .join(" or "),
        },
        config.learning.name(),
        config.alpha,
        config.seed,
        config.threads,
        if config.threads == 1 { "" } else { "s" },
        config
            .restart
            .map(|r| format!(", restarts at {}", r.at))
            .unwrap_or_default()
            + &if config.backward {
                format!(", TD(λ) with λ {} learned backward", config.lambda)
            } else if config.steps > 1 {
                format!(", TD(λ) with λ {} over {} moves", config.lambda, config.steps)
            } else {
                String::new()
            }
            + &if config.search > 0 {
                format!(
                    ", moves searched {} chance layer{} deep",
                    config.search,
                    if config.search == 1 { "" } else { "s" }
                )
            } else {
                String::new()
            }
            + &net
                .carousel()
                .map(|c| format!(", carousel over the stages {}", c.stages()))
                .unwrap_or_default()
            + &policy
                .as_ref()
                .map(|(spec, _)| format!(", the moves of {spec}"))
                .unwrap_or_default(),
        describe_rules(config.rules),
    )?;
    if let Some(pools) = &pools {
        let filled = pools::fill_net_pools(&mut net, pools, stop, &mut out)?;
        if !filled {
            writeln!(
                out,
                "stopped while the pools filled: nothing trained, {} left as it was",
                args.out.display()
            )?;
            return Ok(Outcome::Interrupted);
        }
    }
    writeln!(out, "\n{}", report_header())?;
    out.flush()?;
    drop(out);

    let bar = games_bar(
        games,
        !args.quiet && std::io::stderr().is_terminal(),
        "{msg}",
        |s| s,
    );
    let first_game = net.games();
    let mut trainer = Trainer::new(config);
    if let Some((_, make)) = policy {
        trainer = trainer.with_policy(make);
    }
    // Before the clock: a network new to TC triples its memory here.
    trainer.prepare(&mut net);
    let started = Instant::now();
    let progress = Mutex::new(Progress::new(args.report, first_game));
    let save_every = Duration::from_secs(args.save_every.max(1));
    let mut trained = 0;
    let moves_left = || {
        args.moves.is_none_or(|budget| {
            progress
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .trained_moves
                < budget
        })
    };
    let time_left = || deadline.is_none_or(|d| Instant::now() < d) && moves_left();
    while trained < games && !stop.load(Ordering::Relaxed) && time_left() {
        let until = Instant::now() + save_every;
        trained += trainer.train(
            &mut net,
            games - trained,
            &|| !stop.load(Ordering::Relaxed) && Instant::now() < until && time_left(),
            &|game| {
                let mut p = progress.lock().unwrap_or_else(PoisonError::into_inner);
                p.add(game, &bar, started);
            },
        );
        if trained < games && !stop.load(Ordering::Relaxed) && time_left() {
            // The file says how far this part got, so that a run killed before its end
            // still tells its budget: the line is replaced at the next save.
            let moves = progress
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .trained_moves;
            net.add_note(&part_note(&net, first_game, moves, &config, started, true));
            let saved = save(&args.out, &net);
            net.pop_note();
            saved?;
        }
    }
    let mut progress = progress
        .into_inner()
        .unwrap_or_else(PoisonError::into_inner);
    let wall = started.elapsed().as_secs_f64().max(1e-9);
    bar.finish_and_clear();
    progress.flush()?;
    let interrupted = stop.load(Ordering::Relaxed);
    net.add_note(&part_note(
        &net,
        first_game,
        progress.trained_moves,
        &config,
        started,
        false,
    ));
    save(&args.out, &net)?;
    if let (Some(path), Some(format)) = (&args.plot, plot) {
        let title = format!("ai2048 train: {}", net.tuples_text());
        let bytes = plot_curve(&progress.curve, format, &title)
            .with_context(|| format!("cannot draw {}", path.display()))?;
        write_atomic(path, &bytes)?;
    }
    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        "\n{trained} games in {wall:.1} s ({:.0} moves/s, {} trained moves){}; the network has {} games; written to {}",
        progress.trained_moves as f64 / wall,
        progress.trained_moves,
        if interrupted { ", interrupted" } else { "" },
        net.games(),
        args.out.display()
    )?;
    if let Some(path) = &args.plot {
        writeln!(out, "learning curve drawn to {}", path.display())?;
    }
    if let Some(carousel) = net.carousel() {
        writeln!(out, "carousel pools: {carousel}")?;
    }
    out.flush()?;
    Ok(Outcome::from_interrupted(interrupted))
}

/// The player of `--policy`: its spec and what makes one a thread
/// ([`player_policy`]).
fn policy(
    args: &TrainArgs,
    config: &TrainConfig,
) -> Result<Option<(PlayerSpec, Arc<PolicyFactory>)>> {
    let Some(text) = &args.policy else {
        return Ok(None);
    };
    let spec: PlayerSpec = text.parse().context("--policy")?;
    Ok(Some(player_policy(&spec, config.seed).context("--policy")?))
}

/// The validated training settings for `net`: its learning is the file's unless
/// `--learning` says otherwise.
fn config(args: &TrainArgs, net: &NTupleNetwork) -> Result<TrainConfig> {
    let asked = args
        .learning
        .as_deref()
        .map(str::parse::<Learning>)
        .transpose()
        .map_err(|e| anyhow!("--learning: {e}"))?;
    let learning = net.learning_for(asked);
    let alpha = args.alpha.unwrap_or_else(|| learning.default_alpha());
    if args.games == Some(0) {
        bail!("--games must be at least 1");
    }
    if args.report == 0 {
        bail!("--report must be at least 1");
    }
    if args.rules.illegal_move_spawns {
        bail!("--illegal-move-spawns: training plays only legal moves, so it changes nothing");
    }
    let threads = args
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, usize::from));
    let restart = args.restart.map(|at| Restart {
        at,
        ..Restart::default()
    });
    let (steps, lambda) = match (args.backward, args.steps, args.lambda) {
        (true, _, lambda) => (1, lambda.unwrap_or(0.5)),
        (false, None, None) => (1, 0.0),
        (false, steps, lambda) => (steps.unwrap_or(5), lambda.unwrap_or(0.5)),
    };
    let config = TrainConfig {
        alpha,
        learning,
        seed: args.seed,
        rules: args.rules.rules()?,
        threads,
        restart,
        steps,
        lambda,
        backward: args.backward,
        search: args.search,
    };
    config
        .validate()
        .map_err(|e| anyhow!(e.message(&format!("--{}", e.field()))))?;
    Ok(config)
}

/// The games to train now: `--games`, else 100000, or no end with `--minutes`.
fn games(args: &TrainArgs) -> Result<u64> {
    if let Some(m) = args.minutes {
        if !(m.is_finite() && m > 0.0 && m <= 1e6) {
            bail!("--minutes must be above 0 (and at most 1000000), not {m}");
        }
    }
    if args.moves == Some(0) {
        bail!("--moves must be at least 1");
    }
    Ok(
        match (args.games, args.minutes.is_some() || args.moves.is_some()) {
            (Some(g), _) => g,
            (None, true) => u64::MAX,
            (None, false) => 100_000,
        },
    )
}

/// The stages that `option` (`--stages`, `--carousel`) gives as `text`, when given.
fn stages_option(text: Option<&str>, option: &'static str) -> Result<Option<Stages>> {
    text.map(str::parse::<Stages>).transpose().context(option)
}

/// The network to train: a new one, or with `--resume` the one in `--out`.
fn network(args: &TrainArgs) -> Result<NTupleNetwork> {
    check_out(&args.out)?;
    let tuples = args
        .tuples
        .as_deref()
        .map(parse_tuples)
        .transpose()
        .context("--tuples")?;
    let stages = stages_option(args.stages.as_deref(), "--stages")?;
    if let Some(v) = args.init {
        check_initial_value(v).map_err(|e| anyhow!("--init {e}"))?;
    }
    let carousel = stages_option(args.carousel.as_deref(), "--carousel")?;
    let mut net = network_of(args, tuples, stages)?;
    if let Some(stages) = carousel {
        net.go_round(stages).map_err(|e| match e {
            GoRoundError::OtherStages(_) => anyhow!(
                "--carousel: {}: {e}; leave --carousel out to go on with them",
                args.out.display()
            ),
            GoRoundError::NoStages(_) => anyhow!("--carousel: {e}"),
        })?;
    }
    Ok(net)
}

/// The network to train, before its carousel: a new one, or with `--resume` the one
/// in `--out`, split into `stages` if asked.
fn network_of(
    args: &TrainArgs,
    tuples: Option<Vec<ai2048_ai::ntuple::Tuple>>,
    stages: Option<Stages>,
) -> Result<NTupleNetwork> {
    if !args.resume {
        if args.out.exists() {
            bail!(
                "--out {} exists: give --resume to go on training it, or another file",
                args.out.display()
            );
        }
        let tuples = match tuples {
            Some(t) => t,
            None => parse_tuples("4x6").expect("a known set"),
        };
        return Ok(NTupleNetwork::with_stages(
            tuples,
            stages.unwrap_or_default(),
            args.init.unwrap_or(0.0),
        ));
    }
    let net = NTupleNetwork::load(&args.out)
        .with_context(|| format!("--resume: cannot read {}", args.out.display()))?;
    if let Some(tuples) = tuples {
        if tuples != net.tuples() {
            bail!(
                "--tuples: {} has other tuples ({}); leave --tuples out to go on with them",
                args.out.display(),
                net.tuples_text()
            );
        }
    }
    let net = match stages {
        Some(stages) if &stages != net.stages() => {
            // A one-stage network splits, each stage starting from its tables.
            net.split_into(stages).map_err(|e| {
                anyhow!(
                    "--stages: {}: {e}; leave --stages out to go on with them",
                    args.out.display()
                )
            })?
        }
        _ => net,
    };
    if args.init.is_some() {
        bail!("--init: only a new network starts from a value; leave it out with --resume");
    }
    Ok(net)
}

/// Writes the network to `path`, atomically.
fn save(path: &Path, net: &NTupleNetwork) -> Result<()> {
    net.save(path)
        .with_context(|| format!("cannot write the network to {}", path.display()))
}

/// The line a training run adds to the network's notes: its command, the games and
/// trained moves it added, its threads and wall time; `so_far` while it still runs.
fn part_note(
    net: &NTupleNetwork,
    first_game: u64,
    trained_moves: u64,
    config: &TrainConfig,
    started: Instant,
    so_far: bool,
) -> String {
    format!(
        "{}: games {}..{}, {trained_moves} trained moves, {} thread{}, {:.0} s{}, ai2048 {}",
        command_line(),
        first_game,
        net.games(),
        config.threads,
        if config.threads == 1 { "" } else { "s" },
        started.elapsed().as_secs_f64(),
        if so_far { " so far" } else { "" },
        env!("CARGO_PKG_VERSION"),
    )
}

/// What the training threads report to: the report window, the learning curve, the
/// moves.
struct Progress {
    report: u64,
    /// The games of the network's life counted so far.
    games: u64,
    window: Window,
    trained_moves: u64,
    curve: Vec<CurvePoint>,
    /// Report lines not yet printed because stdout failed.
    error: Option<std::io::Error>,
}

impl Progress {
    fn new(report: u64, games: u64) -> Progress {
        Progress {
            report,
            games,
            window: Window::new(),
            trained_moves: 0,
            curve: Vec::new(),
            error: None,
        }
    }

    fn add(&mut self, game: &TrainedGame, bar: &ProgressBar, started: Instant) {
        self.games += 1;
        self.trained_moves += game.trained_moves;
        self.window.add(game);
        bar.inc(1);
        if self.window.games == self.report {
            self.emit(bar);
            let rate = self.trained_moves as f64 / started.elapsed().as_secs_f64().max(1e-9);
            bar.set_message(format!(
                "{:.2} M moves/s, mean score {:.0}",
                rate / 1e6,
                self.curve.last().map_or(0.0, |p| p.mean)
            ));
        }
    }

    /// Prints the window's line and starts the next window.
    fn emit(&mut self, bar: &ProgressBar) {
        let line = self.window.line(self.games);
        self.curve.push(self.window.point(self.games));
        self.window = Window::new();
        if self.error.is_none() {
            let result = bar.suspend(|| {
                let mut out = std::io::stdout().lock();
                writeln!(out, "{line}").and_then(|()| out.flush())
            });
            self.error = result.err();
        }
    }

    /// Prints the last, partial window, and any error printing met.
    fn flush(&mut self) -> Result<()> {
        if self.window.games > 0 {
            self.emit(&ProgressBar::hidden());
        }
        match self.error.take() {
            Some(e) => Err(e).context("cannot print the learning curve"),
            None => Ok(()),
        }
    }
}

/// The statistics of the games since the last report line.
struct Window {
    /// Every game of the window, wherever it started.
    games: u64,
    /// The games started anew, whose outcomes the statistics count.
    scored: u64,
    score_sum: u64,
    max_score: u64,
    reached: [u64; REPORT_TILES.len()],
}

fn report_header() -> String {
    let mut line = format!("{:>10} {:>10} {:>10}", "games", "mean", "max");
    for tile in REPORT_TILES {
        line += &format!(" {:>6}", tile);
    }
    line
}

impl Window {
    fn new() -> Window {
        Window {
            games: 0,
            scored: 0,
            score_sum: 0,
            max_score: 0,
            reached: [0; REPORT_TILES.len()],
        }
    }

    fn add(&mut self, game: &TrainedGame) {
        self.games += 1;
        if game.start_stage > 0 {
            return;
        }
        self.scored += 1;
        self.score_sum += game.score;
        self.max_score = self.max_score.max(game.score);
        for (n, &tile) in self.reached.iter_mut().zip(&REPORT_TILES) {
            *n += u64::from(game.max_tile >= tile);
        }
    }

    fn mean_score(&self) -> f64 {
        self.score_sum as f64 / self.scored.max(1) as f64
    }

    fn rates(&self) -> [f64; REPORT_TILES.len()] {
        self.reached
            .map(|n| 100.0 * n as f64 / self.scored.max(1) as f64)
    }

    /// A line of the learning curve: the network's games so far, then the window's
    /// mean and best score and the share of its games reaching each tile.
    fn line(&self, games: u64) -> String {
        let mut line = format!(
            "{games:>10} {:>10.0} {:>10}",
            self.mean_score(),
            self.max_score
        );
        for rate in self.rates() {
            line += &format!(" {rate:>5.1}%");
        }
        line
    }

    fn point(&self, games: u64) -> CurvePoint {
        CurvePoint {
            games,
            mean: self.mean_score(),
            rates: REPORT_TILES.iter().copied().zip(self.rates()).collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::args::parse_args;

    fn args(line: &[&str]) -> TrainArgs {
        parse_args(line).expect("parses")
    }

    #[test]
    fn bad_settings_are_named() {
        let new = NTupleNetwork::new(parse_tuples("0,1").expect("valid"));
        for (line, message) in [
            (
                &["--learning", "sgd"][..],
                "--learning: unknown learning \"sgd\": expected td or tc",
            ),
            (&["--alpha", "0"][..], "--alpha must be above 0"),
            (&["--alpha", "1.5"], "--alpha must be above 0"),
            (&["--alpha", "NaN"], "--alpha must be above 0"),
            (&["--games", "0"], "--games must be at least 1"),
            (&["--report", "0"], "--report must be at least 1"),
            (
                &["--threads", "0"],
                "--threads must be from 1 to 1024, not 0",
            ),
            (
                &["--threads", "5000"],
                "--threads must be from 1 to 1024, not 5000",
            ),
            (&["--restart", "1"], "--restart must be above 0 and below 1"),
            (&["--restart=0"], "--restart must be above 0 and below 1"),
            (&["--restart=-0.5"], "--restart must be above 0 and below 1"),
            (&["--steps", "0"], "--steps must be from 1 to 64"),
            (&["--lambda", "1.5"], "--lambda must be from 0 to 1"),
            (&["--search", "3"], "--search must be from 0 to 2, not 3"),
            (&["--p4", "2"], "invalid rules"),
            (
                &["--illegal-move-spawns"],
                "training plays only legal moves",
            ),
        ] {
            let err = config(&args(line), &new).unwrap_err();
            assert!(format!("{err:#}").contains(message), "{line:?}: {err:#}");
        }
        let c = config(&args(&["--alpha", "0.05", "--seed", "3", "-t", "1"]), &new).expect("valid");
        assert_eq!(
            (c.alpha, c.seed, c.learning, c.threads),
            (0.05, 3, Learning::Tc, 1)
        );
        let c = config(&args(&["--learning", "td", "--restart"]), &new).expect("valid");
        assert_eq!((c.alpha, c.learning), (0.1, Learning::Td));
        assert_eq!(c.restart, Some(Restart::default()));
        assert_eq!((c.steps, c.lambda), (1, 0.0));
        let c = config(&args(&["--lambda", "0.25"]), &new).expect("valid");
        assert_eq!((c.steps, c.lambda), (5, 0.25));
        let c = config(&args(&["--steps", "3"]), &new).expect("valid");
        assert_eq!((c.steps, c.lambda), (3, 0.5));
        let c = config(&args(&["--backward"]), &new).expect("valid");
        assert_eq!((c.steps, c.lambda, c.backward), (1, 0.5, true));
        let c = config(&args(&["--backward", "--lambda", "0"]), &new).expect("valid");
        assert_eq!((c.steps, c.lambda, c.backward), (1, 0.0, true));
        assert!(parse_args::<TrainArgs>(&["--backward", "--steps", "3"]).is_err());
        assert!(c.threads >= 1);
    }

    #[test]
    fn games_and_minutes() {
        assert_eq!(games(&args(&[])).expect("valid"), 100_000);
        assert_eq!(games(&args(&["--minutes", "2"])).expect("valid"), u64::MAX);
        assert_eq!(
            games(&args(&["--minutes", "2", "--games", "5"])).expect("valid"),
            5
        );
        for bad in [
            "--minutes=0",
            "--minutes=-1",
            "--minutes=NaN",
            "--minutes=inf",
        ] {
            let err = games(&args(&[bad])).unwrap_err();
            assert!(
                err.to_string().contains("--minutes must be above 0"),
                "{bad}: {err}"
            );
        }
    }

    #[test]
    fn a_trained_network_keeps_its_learning_unless_told() {
        let mut td = NTupleNetwork::new(parse_tuples("0,1").expect("valid"));
        let mut tc = td.clone();
        let one = |learning| TrainConfig {
            learning,
            ..TrainConfig::default()
        };
        Trainer::new(one(Learning::Td)).train(&mut td, 1, &|| true, &|_| {});
        Trainer::new(one(Learning::Tc)).train(&mut tc, 1, &|| true, &|_| {});
        assert_eq!(
            config(&args(&[]), &td).expect("valid").learning,
            Learning::Td
        );
        assert_eq!(
            config(&args(&[]), &tc).expect("valid").learning,
            Learning::Tc
        );
        let c = config(&args(&["--learning", "tc"]), &td).expect("valid");
        assert_eq!((c.learning, c.alpha), (Learning::Tc, 1.0));
    }

    #[test]
    fn a_report_line_gives_the_reach_of_each_tile() {
        let mut w = Window::new();
        for (score, max_tile) in [(20_000, 2048), (60_000, 4096), (1_000, 256), (3_000, 512)] {
            w.add(&TrainedGame {
                index: 0,
                score,
                max_tile,
                moves: 10,
                trained_moves: 10,
                start_stage: 0,
            });
        }
        // Games started from a carousel's pool count for the window, not its statistics.
        for _ in 0..3 {
            w.add(&TrainedGame {
                index: 0,
                score: 1_000_000,
                max_tile: 32768,
                moves: 10,
                trained_moves: 10,
                start_stage: 2,
            });
        }
        assert_eq!((w.games, w.scored), (7, 4));
        let line = w.line(4);
        assert_eq!(
            line.split_whitespace().collect::<Vec<_>>(),
            ["4", "21000", "60000", "50.0%", "25.0%", "0.0%", "0.0%", "0.0%"]
        );
        assert_eq!(
            report_header().split_whitespace().count(),
            line.split_whitespace().count()
        );
        let point = w.point(4);
        assert_eq!((point.games, point.mean), (4, 21000.0));
        assert_eq!(point.rates[0], (2048, 50.0));
    }
}
