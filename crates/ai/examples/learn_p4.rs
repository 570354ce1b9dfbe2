//! Does learning the probability of a 4 pay? An experiment with [`SpawnModel`].
//!
//! The games spawn a 4 with probability `--p4` (0.3 by default, not the original 0.1).
//! Three expectimax players of the same depth play the same seeds:
//!
//! - `assumes 0.1`: the search assumes the original game's 0.1;
//! - `learns`: starts from the same 0.1 (the model's prior), watches the spawns with a
//!   [`SpawnModel`], and every `--every` moves is rebuilt with the model's estimate;
//! - `knows`: the search is told the true probability (the best the learner can hope
//!   for).
//!
//! Each game starts with a fresh model: what is learned comes from that game alone.
//!
//! ```text
//! cargo run --release -p ai2048-ai --example learn_p4 -- --games 20 --p4 0.3 --depth 1
//! ```

use std::process::ExitCode;

use ai2048_ai::search::{Expectimax, ExpectimaxConfig};
use ai2048_ai::spawn_model::SpawnModel;
use ai2048_ai::{Player, SearchLimits};
use ai2048_engine::{Game, Rules};

/// The experiment's settings.
#[derive(Clone, Copy, Debug)]
struct Settings {
    games: u64,
    p4: f64,
    depth: u32,
    every: u64,
    seed: u64,
    jobs: usize,
}

/// How a player sets the probability of a 4 it assumes.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Policy {
    /// Always this value.
    Fixed(f32),
    /// The model's estimate, refreshed every so many moves.
    Learned,
}

/// The outcome of one game.
#[derive(Clone, Copy, Debug)]
struct Outcome {
    score: u64,
    max_tile: u32,
    moves: usize,
    /// The probability of a 4 assumed at the end of the game.
    final_p4: f64,
}

/// A player whose only setting is the probability of a 4; a small table, so that
/// rebuilding it is cheap (depth 1 needs none to speak of).
fn player(p4: f32) -> Expectimax {
    Expectimax::new(ExpectimaxConfig {
        four_probability: p4,
        tt_slots: 1 << 14,
        ..ExpectimaxConfig::default()
    })
}

/// Plays the game of `seed` to its end.
fn play(settings: Settings, policy: Policy, seed: u64) -> Outcome {
    let rules = Rules {
        four_probability: settings.p4,
        ..Rules::default()
    };
    let mut game = Game::new(seed, rules).expect("valid rules");
    let mut model = SpawnModel::new();
    let mut assumed = match policy {
        Policy::Fixed(p) => p,
        Policy::Learned => model.four_probability() as f32,
    };
    let mut ai = player(assumed);
    let limits = SearchLimits::with_depth(settings.depth);
    loop {
        model.on_board(game.board());
        if policy == Policy::Learned
            && game.moves() > 0
            && game.moves() as u64 % settings.every == 0
        {
            assumed = model.four_probability() as f32;
            ai = player(assumed);
        }
        let Some(dir) = ai.search(game.board(), &limits).dir else {
            break;
        };
        model.before_move(game.board().shift(dir));
        if game.try_play(dir).is_err() {
            break;
        }
    }
    Outcome {
        score: game.score(),
        max_tile: game.max_tile(),
        moves: game.moves(),
        final_p4: f64::from(assumed),
    }
}

/// Plays every seed under `policy`, on `jobs` threads; outcomes in seed order.
fn play_all(settings: Settings, policy: Policy) -> Vec<Outcome> {
    let seeds: Vec<u64> = (0..settings.games).map(|i| settings.seed + i).collect();
    let chunk = seeds.len().div_ceil(settings.jobs.max(1)).max(1);
    std::thread::scope(|s| {
        let handles: Vec<_> = seeds
            .chunks(chunk)
            .map(|part| {
                s.spawn(move || {
                    part.iter()
                        .map(|&seed| play(settings, policy, seed))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().expect("a game panicked"))
            .collect()
    })
}

/// Mean and standard error of the mean.
fn mean_se(xs: &[f64]) -> (f64, f64) {
    let n = xs.len() as f64;
    let mean = xs.iter().sum::<f64>() / n;
    if xs.len() < 2 {
        return (mean, f64::NAN);
    }
    let var = xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0);
    (mean, (var / n).sqrt())
}

fn parse_args() -> Result<Settings, String> {
    let mut settings = Settings {
        games: 20,
        p4: 0.3,
        depth: 1,
        every: 50,
        seed: 1,
        jobs: std::thread::available_parallelism().map_or(1, |n| n.get()),
    };
    let mut args = std::env::args().skip(1);
    while let Some(flag) = args.next() {
        let value = args.next().ok_or_else(|| format!("{flag} needs a value"))?;
        let bad = || format!("{flag}: bad value {value:?}");
        match flag.as_str() {
            "--games" => settings.games = value.parse().map_err(|_| bad())?,
            "--p4" => settings.p4 = value.parse().map_err(|_| bad())?,
            "--depth" => settings.depth = value.parse().map_err(|_| bad())?,
            "--every" => settings.every = value.parse().map_err(|_| bad())?,
            "--seed" => settings.seed = value.parse().map_err(|_| bad())?,
            "--jobs" => settings.jobs = value.parse().map_err(|_| bad())?,
            _ => {
                return Err(format!(
                "unknown option {flag}: expected --games, --p4, --depth, --every, --seed or --jobs"
            ))
            }
        }
    }
    if settings.games == 0 || settings.every == 0 || settings.jobs == 0 {
        return Err("--games, --every and --jobs must be at least 1".to_owned());
    }
    if !(0.0..=1.0).contains(&settings.p4) || settings.depth > 20 {
        return Err("--p4 must be from 0 to 1 and --depth at most 20".to_owned());
    }
    Ok(settings)
}

fn main() -> ExitCode {
    let settings = match parse_args() {
        Ok(s) => s,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    println!(
        "{} games (seeds {}..{}) with p(4) = {}, expectimax depth {}, the learner rebuilt every {} moves",
        settings.games,
        settings.seed,
        settings.seed + settings.games,
        settings.p4,
        settings.depth,
        settings.every
    );
    let players = [
        ("assumes 0.1", Policy::Fixed(0.1)),
        ("learns", Policy::Learned),
        ("knows", Policy::Fixed(settings.p4 as f32)),
    ];
    let mut scores = Vec::new();
    println!(
        "{:<12} | {:>18} | {:>8} | {:>9} | {:>10} | {:>9}",
        "player", "mean score ± se", "median", "max score", "2048 rate", "final p4"
    );
    println!("{}", "-".repeat(82));
    for (name, policy) in players {
        let started = std::time::Instant::now();
        let outcomes = play_all(settings, policy);
        let s: Vec<f64> = outcomes.iter().map(|o| o.score as f64).collect();
        let (mean, se) = mean_se(&s);
        let mut sorted = s.clone();
        sorted.sort_by(f64::total_cmp);
        let median = sorted[sorted.len() / 2];
        let wins = outcomes.iter().filter(|o| o.max_tile >= 2048).count();
        let final_p4 = outcomes.iter().map(|o| o.final_p4).sum::<f64>() / outcomes.len() as f64;
        let moves: usize = outcomes.iter().map(|o| o.moves).sum();
        println!(
            "{name:<12} | {:>18} | {median:>8.0} | {:>9.0} | {:>9.1}% | {final_p4:>9.3}   ({moves} moves, {:.1} s)",
            format!("{mean:.0} ± {se:.0}"),
            sorted[sorted.len() - 1],
            100.0 * wins as f64 / outcomes.len() as f64,
            started.elapsed().as_secs_f64()
        );
        scores.push(s);
    }
    // Same seeds: the difference game by game is less noisy than the means.
    for (i, name) in [(1, "learns"), (2, "knows")] {
        let diff: Vec<f64> = scores[i]
            .iter()
            .zip(&scores[0])
            .map(|(a, b)| a - b)
            .collect();
        let (mean, se) = mean_se(&diff);
        let better = diff.iter().filter(|&&d| d > 0.0).count();
        println!(
            "{name} - assumes 0.1: {mean:+.0} ± {se:.0} per game (better in {better} of {} games)",
            diff.len()
        );
    }
    ExitCode::SUCCESS
}
