//! `ai2048 tune`: tunes the weights of an evaluation with CMA-ES, scoring candidates by
//! seeded games on all cores, and writes the best weights to a weights file after every
//! generation.
//!
//! The tuning itself is [`ai2048_tune::Tuner`]; this module reads the arguments,
//! shows progress, writes the file and prints the tables. Ctrl-C stops it as it stops
//! `bench`: the generation in progress is dropped, the file keeps the best weights of
//! the finished ones, and the process exits with code 130.

use std::io::{IsTerminal, Write};
use std::path::Path;
use std::sync::atomic::Ordering;
use std::time::Instant;

use ai2048_ai::eval::{EvalConfig, DEFAULT_EVAL};
use ai2048_ai::PlayerSpec;
use ai2048_tune::{
    format_history, format_validation, format_weights, Objective, ParamSpace, TuneConfig, Tuner,
    Validation,
};
use anyhow::{bail, Context, Result};

use crate::args::TuneArgs;
use crate::describe::describe_rules;
use crate::files::{check_out, command_line, write_atomic};
use crate::interrupt::{catch_ctrl_c, Outcome};
use crate::progress::games_bar;

/// Runs `ai2048 tune`: tunes, writes the best weights to `--out` after every
/// generation, validates them, and prints the history, the weights and the validation.
///
/// On Ctrl-C, prints what finished, keeps the file of the last finished generation,
/// and returns [`Outcome::Interrupted`].
///
/// # Errors
///
/// Bad arguments, a faulty player, or a weights file that cannot be read or written.
pub fn run(args: &TuneArgs) -> Result<Outcome> {
    // First, so that Ctrl-C while players or networks load stops cleanly too.
    let stop = catch_ctrl_c();
    let config = config(args)?;
    let validate_games = args.validate.unwrap_or(config.games);
    check_out(&args.out)?;
    let mut tuner = Tuner::new(&config)?;
    let command = command_line();

    let mut out = std::io::stdout().lock();
    writeln!(out, "{}", describe(&tuner))?;
    out.flush()?;
    let total = tuner.games_left() + 2 * validate_games;
    let bar = games_bar(
        total,
        !args.quiet && std::io::stderr().is_terminal(),
        "{msg}",
        |s| s,
    );
    bar.set_message(message(&tuner));
    let started = Instant::now();
    // Every path out of the loop, errors included, clears the bar first.
    let result = (|| -> Result<Option<Validation>> {
        while !tuner.is_done() {
            if tuner.step(stop, |_| bar.inc(1))?.is_none() {
                return Ok(None);
            }
            save(&args.out, &tuner, &command, None)?;
            bar.set_message(message(&tuner));
        }
        if validate_games == 0 {
            return Ok(None);
        }
        bar.set_message("validating");
        let validation = tuner.validate(validate_games, stop, |_| bar.inc(1))?;
        if let Some(v) = &validation {
            save(&args.out, &tuner, &command, Some(v))?;
        }
        Ok(validation)
    })();
    bar.finish_and_clear();
    let validation = result?;
    let wall = started.elapsed();
    let interrupted = stop.load(Ordering::Relaxed)
        && (!tuner.is_done() || (validate_games > 0 && validation.is_none()));

    let objective = config.objective;
    let done = tuner.generation();
    writeln!(
        out,
        "{done} of {} generations in {:.1} s",
        config.generations,
        wall.as_secs_f64()
    )?;
    if interrupted {
        if tuner.is_done() {
            writeln!(out, "interrupted during validation: it was dropped")?;
        } else {
            writeln!(
                out,
                "interrupted: generation {} was dropped{}",
                done + 1,
                if validate_games > 0 {
                    ", and validation skipped"
                } else {
                    ""
                }
            )?;
        }
    }
    if done == 0 {
        writeln!(out, "no generation finished: nothing written")?;
    } else {
        writeln!(
            out,
            "\nfitness: {} over {} games per candidate, each generation on new games",
            objective.describe(),
            config.games
        )?;
        write!(out, "{}", format_history(tuner.history(), objective))?;
        writeln!(
            out,
            "\nweights of eval {} (the best so far: {} on the games of generation {done})",
            config.start.name(),
            tuner
                .best_fitness()
                .map_or_else(|| "-".to_owned(), |f| objective.format(f))
        )?;
        write!(
            out,
            "{}",
            format_weights(tuner.space().start(), tuner.best(), tuner.space())
        )?;
        if let Some(v) = &validation {
            write!(out, "\n{}", format_validation(v, objective))?;
        }
        writeln!(
            out,
            "\nbest weights written to {}: play them with --ai {}",
            args.out.display(),
            player_with_file(&config.player, &args.out)
        )?;
    }
    out.flush()?;
    Ok(Outcome::from_interrupted(interrupted))
}

/// The validated configuration of the run.
fn config(args: &TuneArgs) -> Result<TuneConfig> {
    let player: PlayerSpec = args.ai.parse().context("--ai")?;
    let start = start_weights(args, &player)?;
    let objective: Objective = args.objective.parse().context("--objective")?;
    if args.generations == 0 {
        bail!("--generations must be at least 1");
    }
    if args.games == 0 {
        bail!("--games must be at least 1");
    }
    if let Some(p) = args.population.filter(|&p| p < 2) {
        bail!("--population must be at least 2, not {p}");
    }
    if !(args.sigma.is_finite() && args.sigma > 0.0) {
        bail!("--sigma must be a positive number, not {}", args.sigma);
    }
    let config = TuneConfig {
        start,
        params: args.params.clone(),
        player,
        rules: args.rules.rules()?,
        limits: ai2048_ai::SearchLimits::default(),
        objective,
        generations: args.generations,
        population: args.population,
        sigma: args.sigma,
        games: args.games,
        seed: args.seed,
        jobs: args.jobs.jobs()?,
    };
    if let Some(names) = &config.params {
        ParamSpace::new(&config.start, Some(names)).context("--params")?;
    }
    config.validate()?;
    Ok(config)
}

/// The starting weights: the `--from` file, else the defaults of `--eval`, of the
/// player's `eval` option, or of the default evaluation; then the player's
/// `symmetric` and `w.NAME` options.
fn start_weights(args: &TuneArgs, player: &PlayerSpec) -> Result<EvalConfig> {
    if player.option("weights").is_some() {
        bail!("--ai {player}: give the starting weights with --from FILE, not the weights option");
    }
    let mut start = match &args.from {
        Some(path) => EvalConfig::load(path).context("--from")?,
        None => {
            let name = args
                .eval
                .as_deref()
                .or(player.option("eval"))
                .unwrap_or(DEFAULT_EVAL);
            EvalConfig::new(name).context("--eval")?
        }
    };
    if let Some(name) = args.eval.as_deref().filter(|n| *n != start.name()) {
        bail!(
            "--eval {name} does not match the --from file, which is for eval {}",
            start.name()
        );
    }
    if let Some(name) = player.option("eval").filter(|n| *n != start.name()) {
        bail!(
            "--ai option eval={name} does not match the eval tuned, {}",
            start.name()
        );
    }
    if let Some(symmetric) = player.option("symmetric") {
        let symmetric: bool = symmetric
            .parse()
            .with_context(|| format!("--ai option symmetric={symmetric}: not true or false"))?;
        start.set_symmetric(symmetric).context("--ai")?;
    }
    for (key, value) in &player.options {
        if let Some(name) = key.strip_prefix("w.") {
            let x: f64 = value
                .parse()
                .with_context(|| format!("--ai option {key}={value}: not a number"))?;
            start
                .set(name, x)
                .with_context(|| format!("--ai option {key}"))?;
        }
    }
    Ok(start)
}

/// Writes the best weights so far to `path`, atomically, with a note on how they
/// were found.
fn save(path: &Path, tuner: &Tuner, command: &str, validation: Option<&Validation>) -> Result<()> {
    let mut best = tuner.best().clone();
    best.set_note(Some(note(tuner, command, validation)));
    write_atomic(path, best.to_json().as_bytes())
        .with_context(|| format!("cannot write the weights file {}", path.display()))
}

/// The weights file's note: the command, the run, the fitness, the validation.
fn note(tuner: &Tuner, command: &str, validation: Option<&Validation>) -> String {
    let c = tuner.config();
    let objective = c.objective;
    let mut note = format!(
        "tuned by CMA-ES ({command}): {} of {} generations of {} candidates, {} games each, \
         player {}, objective {objective}",
        tuner.generation(),
        c.generations,
        tuner.population(),
        c.games,
        c.player
    );
    if let Some(f) = tuner.best_fitness() {
        note += &format!(
            "; {} {} on the games of generation {}",
            objective.describe(),
            objective.format(f),
            tuner.generation()
        );
    }
    if let Some(v) = validation {
        let se = |x: f64| objective.format(x);
        let signed = |x: f64| format!("{}{}", if x < 0.0 { "-" } else { "+" }, se(x.abs()));
        note += &format!(
            "; validation on {} held-out games: start {} ± {}, tuned {} ± {}, difference {} ± {}",
            v.games,
            se(v.start.mean),
            se(v.start.std_error),
            se(v.tuned.mean),
            se(v.tuned.std_error),
            signed(v.difference.mean),
            se(v.difference.std_error)
        );
    }
    note
}

/// The player spec with `weights=FILE` in place of its evaluation options.
fn player_with_file(player: &PlayerSpec, path: &Path) -> String {
    let mut spec = PlayerSpec::new(&player.name);
    spec.options = player
        .options
        .iter()
        .filter(|(k, _)| !(matches!(k.as_str(), "eval" | "weights") || k.starts_with("w.")))
        .cloned()
        .collect();
    spec.options
        .push(("weights".to_owned(), path.display().to_string()));
    spec.to_string()
}

/// One line on what is tuned.
fn describe(tuner: &Tuner) -> String {
    let c = tuner.config();
    let names = tuner.space().names();
    format!(
        "ai2048 tune: eval {} ({} weights: {}), ai {}, objective {}, {} generations of {} \
         candidates (+ the best so far and the centre), {} games each, sigma {}, seed {}, \
         {} jobs, {}",
        c.start.name(),
        names.len(),
        names.join(", "),
        c.player,
        c.objective,
        c.generations,
        tuner.population(),
        c.games,
        c.sigma,
        c.seed,
        c.jobs,
        describe_rules(c.rules)
    )
}

/// The progress bar's message: the generation, the best fitness so far and sigma.
fn message(tuner: &Tuner) -> String {
    let c = tuner.config();
    let mut text = format!(
        "gen {}/{}",
        (tuner.generation() + 1).min(c.generations),
        c.generations
    );
    if let Some(f) = tuner.best_fitness() {
        text += &format!(", best {}", c.objective.format(f));
    }
    text + &format!(", sigma {:.2}", tuner.sigma())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::args::testing::{args, assert_rejected};

    #[test]
    fn defaults() {
        let c = config(&args(&[])).expect("valid");
        assert_eq!(c.start, EvalConfig::new("heuristic").expect("an eval"));
        assert_eq!(c.player.to_string(), "expectimax:depth=1,tt-mb=1");
        assert_eq!((c.generations, c.games, c.sigma), (20, 20, 0.3));
        assert_eq!(
            (c.objective, c.population, c.params),
            (Objective::Score, None, None)
        );
        assert!(c.jobs >= 1);
    }

    #[test]
    fn validation() {
        let c = config(&args(&[
            "--ai",
            "greedy:eval=weighted,w.empty=3",
            "--params",
            "empty,max",
            "--objective",
            "reach:2048",
            "--population",
            "6",
            "--jobs",
            "3",
        ]))
        .expect("valid");
        assert_eq!(c.start.name(), "weighted");
        assert_eq!(c.start.get("empty"), Some(3.0));
        assert_eq!(c.params, Some(vec!["empty".to_owned(), "max".to_owned()]));
        assert_eq!(c.objective, Objective::Reach(2048));
        assert_eq!((c.population, c.jobs), (Some(6), 3));
        assert_rejected(
            config,
            &[
                (&["--generations", "0"][..], "--generations"),
                (&["--games", "0"], "--games"),
                (&["--population", "1"], "--population"),
                (&["--sigma", "0"], "--sigma"),
                (&["--sigma=-1"], "--sigma"),
                (&["--jobs", "0"], "--jobs"),
                (&["--eval", "nope"], "unknown eval \"nope\""),
                (&["--eval", "simple"], "no weights to tune"),
                (
                    &["--params", "empty,nope"],
                    "--params: eval heuristic has no weight \"nope\"",
                ),
                (&["--objective", "best"], "--objective"),
                (&["--ai", "random"], "takes no evaluation"),
                (&["--ai", "nope"], "unknown player"),
                (&["--ai", "expectimax:weights=x.json"], "--from"),
                (
                    &["--ai", "greedy:eval=snake", "--eval", "corner"],
                    "eval=snake",
                ),
                (&["--ai", "greedy:w.empty=x"], "not a number"),
                (&["--ai", "greedy:w.nope=1"], "no weight \"nope\""),
                (&["--from", "/nonexistent/w.json"], "--from"),
                (&["--p4", "2"], "rules"),
            ],
        );
    }

    #[test]
    fn hints_and_descriptions() {
        let spec: PlayerSpec = "expectimax:depth=1,eval=snake,w.empty=2,tt-mb=1"
            .parse()
            .expect("a spec");
        assert_eq!(
            player_with_file(&spec, Path::new("w.json")),
            "expectimax:depth=1,tt-mb=1,weights=w.json"
        );
        let tuner = Tuner::new(&config(&args(&["--jobs", "2"])).expect("valid")).expect("valid");
        let line = describe(&tuner);
        assert!(
            line.starts_with("ai2048 tune: eval heuristic (7 weights: base, empty"),
            "{line}"
        );
        assert!(line.contains("20 generations of 9 candidates"), "{line}");
        assert_eq!(message(&tuner), "gen 1/20, sigma 0.30");
        let text = note(&tuner, "ai2048 tune", None);
        assert!(
            text.starts_with("tuned by CMA-ES (ai2048 tune): 0 of 20 generations"),
            "{text}"
        );
    }
}
