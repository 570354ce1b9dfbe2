//! `ai2048 train`: trains an n-tuple network by TD learning over games it plays itself,
//! prints a learning curve, and writes the network file.
//!
//! The learning is [`ai2048_ai::ntuple::train_game`]; this module reads the arguments,
//! shows progress, reports and writes the file. Training is one thread, so that the
//! same seed makes the same network on every machine.

use std::io::{IsTerminal, Write};
use std::path::Path;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use ai2048_ai::ntuple::{parse_tuples, train_game, Learning, NTupleNetwork, TdConfig, TrainedGame};
use anyhow::{anyhow, bail, Context, Result};

use crate::args::TrainArgs;
use crate::commands::bench::{catch_ctrl_c, describe_rules, INTERRUPTED_EXIT_CODE};
use crate::commands::tune::check_out;
use crate::progress::games_bar;

/// The tiles whose reach a report line gives.
const REPORT_TILES: [u32; 5] = [2048, 4096, 8192, 16384, 32768];

/// Runs `ai2048 train`.
///
/// On Ctrl-C, finishes the game in progress, writes the network, prints the last
/// report and exits the process with [`INTERRUPTED_EXIT_CODE`].
///
/// # Errors
///
/// Bad arguments, a network file that cannot be read (with `--resume`) or written, or
/// an `--out` file that exists without `--resume`.
pub fn run(args: &TrainArgs) -> Result<()> {
    let mut net = network(args)?;
    let config = config(args, &net)?;
    let stop = catch_ctrl_c();
    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        "ai2048 train: {} tuples ({}), {} weights, {} games trained; {} games now, learning {}, alpha {}, seed {}, {}",
        net.tuples().len(),
        describe_tuples(&net),
        net.weights().len(),
        net.games(),
        args.games,
        config.learning.name(),
        config.alpha,
        config.seed,
        describe_rules(config.rules),
    )?;
    writeln!(out, "\n{}", report_header())?;
    out.flush()?;

    let bar = games_bar(
        args.games,
        !args.quiet && std::io::stderr().is_terminal(),
        "{msg}",
        |s| s,
    );
    let started = Instant::now();
    let save_every = Duration::from_secs(args.save_every);
    let mut last_save = Instant::now();
    let mut window = Window::new();
    let (mut trained, mut moves) = (0u64, 0u64);
    let result = (|| -> Result<()> {
        while trained < args.games && !stop.load(Ordering::Relaxed) {
            let game = train_game(&mut net, &config);
            trained += 1;
            moves += game.moves;
            window.add(&game);
            bar.inc(1);
            if window.games == args.report || trained == args.games {
                bar.suspend(|| -> Result<()> {
                    writeln!(out, "{}", window.line(net.games()))?;
                    out.flush()?;
                    Ok(())
                })?;
                bar.set_message(format!("mean score {:.0}", window.mean_score()));
                window = Window::new();
                if last_save.elapsed() >= save_every {
                    save(&args.out, &net)?;
                    last_save = Instant::now();
                }
            }
        }
        Ok(())
    })();
    bar.finish_and_clear();
    result?;
    if window.games > 0 {
        writeln!(out, "{}", window.line(net.games()))?;
    }
    save(&args.out, &net)?;
    let wall = started.elapsed().as_secs_f64().max(1e-9);
    let interrupted = trained < args.games;
    writeln!(
        out,
        "\n{trained} games in {wall:.1} s ({:.0} moves/s){}; the network has {} games; written to {}",
        moves as f64 / wall,
        if interrupted { ", interrupted" } else { "" },
        net.games(),
        args.out.display()
    )?;
    out.flush()?;
    if interrupted {
        std::process::exit(INTERRUPTED_EXIT_CODE);
    }
    Ok(())
}

/// The validated training settings for `net`: its learning is the file's unless
/// `--learning` says otherwise, which it may only for a network that has not learned
/// with temporal coherence yet.
fn config(args: &TrainArgs, net: &NTupleNetwork) -> Result<TdConfig> {
    let asked = args
        .learning
        .as_deref()
        .map(str::parse::<Learning>)
        .transpose()
        .map_err(|e| anyhow!("--learning: {e}"))?;
    let learning = net.learning_for(asked).map_err(|e| {
        anyhow!(
            "--learning {}: {}: {e} (leave --learning out)",
            args.learning.as_deref().unwrap_or_default(),
            args.out.display()
        )
    })?;
    let alpha = args.alpha.unwrap_or_else(|| learning.default_alpha());
    if !(alpha.is_finite() && alpha > 0.0 && alpha <= 1.0) {
        bail!("--alpha must be above 0 and at most 1, not {alpha}");
    }
    if args.games == 0 {
        bail!("--games must be at least 1");
    }
    if args.report == 0 {
        bail!("--report must be at least 1");
    }
    if args.rules.illegal_move_spawns {
        bail!("--illegal-move-spawns: training plays only legal moves, so it changes nothing");
    }
    Ok(TdConfig {
        alpha,
        learning,
        seed: args.seed,
        rules: args.rules.rules()?,
    })
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
        return Ok(NTupleNetwork::new(tuples));
    }
    let net = NTupleNetwork::load(&args.out)
        .with_context(|| format!("--resume: cannot read {}", args.out.display()))?;
    if let Some(tuples) = tuples {
        if tuples != net.tuples() {
            bail!(
                "--tuples: {} has other tuples ({}); leave --tuples out to go on with them",
                args.out.display(),
                describe_tuples(&net)
            );
        }
    }
    Ok(net)
}

/// Writes the network to `path`, atomically.
fn save(path: &Path, net: &NTupleNetwork) -> Result<()> {
    net.save(path)
        .with_context(|| format!("cannot write the network to {}", path.display()))
}

/// The tuples as `--tuples` takes them.
fn describe_tuples(net: &NTupleNetwork) -> String {
    let tuples: Vec<String> = net.tuples().iter().map(ToString::to_string).collect();
    tuples.join(";")
}

/// The statistics of the games since the last report line.
struct Window {
    games: u64,
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
            score_sum: 0,
            max_score: 0,
            reached: [0; REPORT_TILES.len()],
        }
    }

    fn add(&mut self, game: &TrainedGame) {
        self.games += 1;
        self.score_sum += game.score;
        self.max_score = self.max_score.max(game.score);
        for (n, &tile) in self.reached.iter_mut().zip(&REPORT_TILES) {
            *n += u64::from(game.max_tile >= tile);
        }
    }

    fn mean_score(&self) -> f64 {
        self.score_sum as f64 / self.games.max(1) as f64
    }

    /// A line of the learning curve: the network's games so far, then the window's
    /// mean and best score and the share of its games reaching each tile.
    fn line(&self, games: u64) -> String {
        let mut line = format!(
            "{games:>10} {:>10.0} {:>10}",
            self.mean_score(),
            self.max_score
        );
        for n in self.reached {
            line += &format!(" {:>5.1}%", 100.0 * n as f64 / self.games.max(1) as f64);
        }
        line
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
            (&["--p4", "2"], "invalid rules"),
            (
                &["--illegal-move-spawns"],
                "training plays only legal moves",
            ),
        ] {
            let err = config(&args(line), &new).unwrap_err();
            assert!(format!("{err:#}").contains(message), "{line:?}: {err:#}");
        }
        let c = config(&args(&["--alpha", "0.05", "--seed", "3"]), &new).expect("valid");
        assert_eq!((c.alpha, c.seed, c.learning), (0.05, 3, Learning::Tc));
        let c = config(&args(&["--learning", "td"]), &new).expect("valid");
        assert_eq!((c.alpha, c.learning), (0.1, Learning::Td));
    }

    #[test]
    fn a_trained_network_keeps_its_learning() {
        let mut td = NTupleNetwork::new(parse_tuples("0,1").expect("valid"));
        let mut tc = td.clone();
        let td_config = TdConfig {
            learning: Learning::Td,
            ..TdConfig::default()
        };
        train_game(&mut td, &td_config);
        train_game(&mut tc, &TdConfig::default());
        assert_eq!(
            config(&args(&[]), &td).expect("valid").learning,
            Learning::Td
        );
        assert_eq!(
            config(&args(&[]), &tc).expect("valid").learning,
            Learning::Tc
        );
        let err = config(&args(&["--learning", "td"]), &tc).unwrap_err();
        assert!(
            err.to_string().contains("the network has learned with tc"),
            "{err}"
        );
        let err = config(&args(&["--learning", "tc"]), &td).unwrap_err();
        assert!(
            err.to_string().contains("the network has learned with td"),
            "{err}"
        );
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
            });
        }
        let line = w.line(4);
        assert_eq!(
            line.split_whitespace().collect::<Vec<_>>(),
            ["4", "21000", "60000", "50.0%", "25.0%", "0.0%", "0.0%", "0.0%"]
        );
        assert_eq!(
            report_header().split_whitespace().count(),
            line.split_whitespace().count()
        );
    }
}
