//! [`Tuner`]: the tuning loop, one generation at a time, with its history and
//! validation.

use std::sync::atomic::AtomicBool;

use ai2048_ai::eval::EvalConfig;

use super::*;
use crate::CmaEs;
use ai2048_bench::{play_game_until, run_tasks, BenchConfig, BenchError, GameRecord};

/// One generation of a tuning run: its fitness figures, all on the generation's games.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GenerationRow {
    /// The generation, from 1.
    pub generation: u32,
    /// The best fitness of the population's samples.
    pub best: f64,
    /// The mean fitness of the population's samples.
    pub mean: f64,
    /// The fitness of the distribution's mean (the centre) before the update: the
    /// starting weights in generation 1.
    pub centre: f64,
    /// The fitness of the best weights so far, before this generation: the starting
    /// weights in generation 1.
    pub incumbent: f64,
    /// The step size after the update.
    pub sigma: f64,
    /// Whether a sample or the centre beat the incumbent, and became the best so far.
    pub improved: bool,
}

impl GenerationRow {
    /// The fitness of the best weights so far after this generation, on its games.
    #[must_use]
    pub fn best_so_far(&self) -> f64 {
        let best = self.best.max(self.centre);
        if self.improved {
            best
        } else {
            self.incumbent
        }
    }
}

/// The mean of some values, with its standard error.
///
/// ```
/// use ai2048_tune::MeanEstimate;
/// let m = MeanEstimate::of(&[1.0, 2.0, 3.0, 4.0]).expect("values");
/// assert_eq!((m.n, m.mean), (4, 2.5));
/// assert!((m.std_error - (5.0f64 / 3.0 / 4.0).sqrt()).abs() < 1e-12);
/// assert!(MeanEstimate::of(&[7.0]).expect("one").std_error.is_nan());
/// assert!(MeanEstimate::of(&[]).is_none());
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MeanEstimate {
    /// How many values.
    pub n: usize,
    /// Their mean.
    pub mean: f64,
    /// The standard error of the mean: the sample standard deviation over `sqrt(n)`;
    /// NaN for one value.
    pub std_error: f64,
}

impl MeanEstimate {
    /// The estimate from `values`; `None` for none.
    #[must_use]
    pub fn of(values: &[f64]) -> Option<MeanEstimate> {
        if values.is_empty() {
            return None;
        }
        let n = values.len() as f64;
        let mean = values.iter().sum::<f64>() / n;
        let var = values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (n - 1.0);
        Some(MeanEstimate {
            n: values.len(),
            mean,
            std_error: if values.len() > 1 {
                (var / n).sqrt()
            } else {
                f64::NAN
            },
        })
    }
}

/// The starting and the tuned weights played on the same held-out games.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Validation {
    /// The games each played.
    pub games: u64,
    /// The seed of the games ([`TuneConfig::validation_seed`]).
    pub seed: u64,
    /// The objective of the starting weights.
    pub start: MeanEstimate,
    /// The objective of the tuned (best) weights.
    pub tuned: MeanEstimate,
    /// Tuned minus start, game by game: paired on the same games, its standard error
    /// is smaller than that of either mean when they move together.
    pub difference: MeanEstimate,
}

impl Validation {
    /// The difference in standard errors: beyond about 2, tuning helped (or hurt)
    /// beyond noise.
    #[must_use]
    pub fn z(&self) -> f64 {
        self.difference.mean / self.difference.std_error
    }
}

/// The best weights so far.
#[derive(Clone, Debug)]
struct Incumbent {
    weights: EvalConfig,
    /// Its fitness on the games of the generation that last played it.
    fitness: Option<f64>,
}

/// A tuning run, one generation at a time: CMA-ES over a [`ParamSpace`], candidates
/// scored by games.
///
/// # How it works
///
/// - **Parameters.** The optimizer works in normalized coordinates `z`, one per tuned
///   weight ([`ParamSpace`]): weight `i` is `start_i + scale_i * z_i`, where `scale_i`
///   is the size of its starting value (or, for a weight starting at 0, the mean size
///   of the evaluation's nonzero weights), at most a quarter of its allowed range. So
///   `z = 0` is the starting point and a step of `sigma = 0.3` changes each weight by
///   about 30%, whatever its magnitude (nneonneo's weights range from 3.5 to 200000);
///   a weight may cross zero (a feature may turn out harmful). Points outside a
///   weight's range are clipped to it, and CMA-ES is told the clipped point.
/// - **Fitness.** The mean over `games` seeded games of one number per game
///   ([`Objective`]): the score, the log2 of the largest tile, or whether a tile was
///   reached. The player of [`TuneConfig::player`] plays them with the candidate's
///   weights, given as `eval=NAME` and `w.NAME=VALUE` options (nothing is written to
///   disk).
/// - **Noise.** Every candidate of a generation plays the same games (common random
///   numbers: the same seeds, so the same first tiles), so candidates are compared
///   on equal terms; each generation plays new games. The best weights so far (the
///   *incumbent*) and the distribution's mean (the *centre*, CMA-ES's own estimate of
///   the optimum, less exposed to lucky draws) are played again in every generation
///   alongside the samples; the incumbent is replaced only by a candidate that beats
///   it on the same games. [`Tuner::validate`] finally plays the start and the best
///   weights on held-out games, paired, and reports both means and their difference
///   with standard errors.
///
/// Games of all candidates are played on `jobs` threads together, so small game counts
/// keep every core busy; a run depends only on its configuration, not on `jobs`.
///
/// ```
/// use std::sync::atomic::AtomicBool;
/// use ai2048_ai::eval::EvalConfig;
/// use ai2048_tune::{format_history, TuneConfig, Tuner};
///
/// let config = TuneConfig {
///     generations: 2,
///     population: Some(4),
///     games: 3,
///     jobs: 2,
///     ..TuneConfig::new(EvalConfig::new("weighted")?, "greedy".parse()?)
/// };
/// let mut tuner = Tuner::new(&config)?;
/// let stop = AtomicBool::new(false); // set it from a Ctrl-C handler to stop early
/// while !tuner.is_done() {
///     let row = tuner.step(&stop, |_record| {})?.expect("not stopped");
///     assert!(row.best >= row.mean);
///     // Save tuner.best() here: tuner.best().save(path)?
/// }
/// assert_eq!(tuner.history().len(), 2);
/// println!("{}", format_history(tuner.history(), config.objective));
///
/// // The start and the best weights, on the same held-out games.
/// let v = tuner.validate(4, &stop, |_| {})?.expect("not stopped");
/// assert_eq!((v.start.n, v.tuned.n), (4, 4));
/// assert!((v.difference.mean - (v.tuned.mean - v.start.mean)).abs() < 1e-6);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct Tuner {
    config: TuneConfig,
    space: ParamSpace,
    cma: CmaEs,
    history: Vec<GenerationRow>,
    best: Incumbent,
}

impl Tuner {
    /// A run of `config`, before its first generation.
    ///
    /// # Errors
    ///
    /// When the configuration is invalid ([`TuneConfig::validate`]).
    pub fn new(config: &TuneConfig) -> Result<Tuner, BenchError> {
        config.validate()?;
        let space = ParamSpace::new(&config.start, config.params.as_deref())?;
        let cma = CmaEs::new(
            vec![0.0; space.dim()],
            config.sigma,
            config.population,
            config.optimizer_seed(),
        )?;
        let best = Incumbent {
            weights: space.weights(&vec![0.0; space.dim()]),
            fitness: None,
        };
        Ok(Tuner {
            config: config.clone(),
            space,
            cma,
            history: Vec::new(),
            best,
        })
    }

    /// The configuration.
    #[must_use]
    pub fn config(&self) -> &TuneConfig {
        &self.config
    }

    /// The weights tuned and their coordinates.
    #[must_use]
    pub fn space(&self) -> &ParamSpace {
        &self.space
    }

    /// The samples per generation.
    #[must_use]
    pub fn population(&self) -> usize {
        self.cma.population()
    }

    /// The generations done.
    #[must_use]
    pub fn generation(&self) -> u32 {
        self.history.len() as u32
    }

    /// Whether every generation is done.
    #[must_use]
    pub fn is_done(&self) -> bool {
        self.generation() >= self.config.generations
    }

    /// The current step size.
    #[must_use]
    pub fn sigma(&self) -> f64 {
        self.cma.sigma()
    }

    /// The generations done, in order.
    #[must_use]
    pub fn history(&self) -> &[GenerationRow] {
        &self.history
    }

    /// The best weights so far: the starting weights until a candidate beats them.
    #[must_use]
    pub fn best(&self) -> &EvalConfig {
        &self.best.weights
    }

    /// The fitness of [`Tuner::best`] on the games of the last generation; `None`
    /// before the first.
    #[must_use]
    pub fn best_fitness(&self) -> Option<f64> {
        self.best.fitness
    }

    /// The weights at the distribution's mean: CMA-ES's own estimate.
    #[must_use]
    pub fn centre(&self) -> EvalConfig {
        self.space.weights(self.cma.mean())
    }

    /// The candidates a generation scores: the incumbent, the centre (from generation
    /// 2 on: in generation 1 it is the incumbent), and the samples.
    fn candidates_in(&self, generation: u32) -> usize {
        self.population() + if generation <= 1 { 1 } else { 2 }
    }

    /// The games the remaining generations will play, for a progress bar.
    #[must_use]
    pub fn games_left(&self) -> u64 {
        (self.generation() + 1..=self.config.generations)
            .map(|g| self.candidates_in(g) as u64 * self.config.games)
            .sum()
    }

    /// Plays the next generation: every candidate plays the generation's games on
    /// [`TuneConfig::jobs`] threads, then CMA-ES and the incumbent are updated.
    /// `on_game` is called after each finished game, from the thread that played it.
    ///
    /// Returns `Ok(None)`, and changes nothing, when `stop` was set before every game
    /// finished: the run keeps the state of the last complete generation.
    ///
    /// # Errors
    ///
    /// When a game fails (the player chose an illegal move, or panicked).
    pub fn step<F>(
        &mut self,
        stop: &AtomicBool,
        on_game: F,
    ) -> Result<Option<GenerationRow>, BenchError>
    where
        F: Fn(&GameRecord) + Sync,
    {
        let seed = self.config.generation_seed(self.generation() + 1);
        let config = self.config.clone();
        self.step_with(|candidates| {
            let records = play_candidates(&config, candidates, seed, config.games, stop, &on_game)?;
            Ok(records.map(|all| all.iter().map(|r| config.objective.fitness(r)).collect()))
        })
    }

    /// Plays the next generation with any fitness, higher is better: `fitness` gets
    /// the candidates (the incumbent, then from generation 2 on the centre, then
    /// [`Tuner::population`] samples) and returns their fitness in the same order, or
    /// `None` to stop (nothing changes then). [`Tuner::step`] is this with games.
    ///
    /// ```
    /// use ai2048_ai::eval::EvalConfig;
    /// use ai2048_tune::{TuneConfig, Tuner};
    /// let config = TuneConfig {
    ///     generations: 40,
    ///     ..TuneConfig::new(EvalConfig::new("weighted")?, "greedy".parse()?)
    /// };
    /// let mut tuner = Tuner::new(&config)?;
    /// // Bring "empty" from 1.5 to 3.
    /// let fitness = |w: &EvalConfig| -(w.get("empty").unwrap() - 3.0).powi(2);
    /// while !tuner.is_done() {
    ///     tuner.step_with(|c| Ok::<_, ()>(Some(c.iter().map(fitness).collect()))).unwrap();
    /// }
    /// assert!((tuner.best().get("empty").unwrap() - 3.0).abs() < 0.1);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Errors
    ///
    /// The error of `fitness`.
    ///
    /// # Panics
    ///
    /// When `fitness` returns a vector of the wrong length.
    pub fn step_with<E, F>(&mut self, fitness: F) -> Result<Option<GenerationRow>, E>
    where
        F: FnOnce(&[EvalConfig]) -> Result<Option<Vec<f64>>, E>,
    {
        let generation = self.generation() + 1;
        let with_centre = generation > 1;
        let samples: Vec<Vec<f64>> = self
            .cma
            .ask()
            .iter()
            .map(|z| self.space.repair(z))
            .collect();
        let mut candidates = vec![self.best.weights.clone()];
        let centre_z = self.space.repair(self.cma.mean());
        if with_centre {
            candidates.push(self.space.weights(&centre_z));
        }
        candidates.extend(samples.iter().map(|z| self.space.weights(z)));
        let Some(values) = fitness(&candidates)? else {
            return Ok(None);
        };
        assert_eq!(values.len(), candidates.len(), "one fitness per candidate");
        let incumbent = values[0];
        let centre = if with_centre { values[1] } else { incumbent };
        let sample_values = &values[candidates.len() - samples.len()..];
        let finite: Vec<f64> = sample_values
            .iter()
            .copied()
            .filter(|v| !v.is_nan())
            .collect();
        let best_sample = finite.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let mean = finite.iter().sum::<f64>() / finite.len() as f64;

        // The new incumbent: the best candidate, if it beats the incumbent on these
        // games (ties keep the incumbent).
        let mut improved = false;
        let mut best_value = incumbent;
        let mut best_z = None;
        if with_centre && centre > best_value {
            best_value = centre;
            best_z = Some(centre_z);
            improved = true;
        }
        for (z, &v) in samples.iter().zip(sample_values) {
            if v > best_value {
                best_value = v;
                best_z = Some(z.clone());
                improved = true;
            }
        }
        if let Some(z) = best_z {
            self.best.weights = self.space.weights(&z);
        }
        self.best.fitness = Some(best_value);

        let negated: Vec<f64> = sample_values.iter().map(|v| -v).collect();
        self.cma.tell(&samples, &negated);
        let row = GenerationRow {
            generation,
            best: best_sample,
            mean,
            centre,
            incumbent,
            sigma: self.cma.sigma(),
            improved,
        };
        self.history.push(row);
        Ok(Some(row))
    }

    /// Plays the starting and the best weights on the same `games` held-out games
    /// (from [`TuneConfig::validation_seed`]), on [`TuneConfig::jobs`] threads, and
    /// compares them. `on_game` is called after each finished game.
    ///
    /// Returns `Ok(None)` when `stop` was set before every game finished.
    ///
    /// # Errors
    ///
    /// [`BenchError::Config`] for no games, or a game's error.
    pub fn validate<F>(
        &self,
        games: u64,
        stop: &AtomicBool,
        on_game: F,
    ) -> Result<Option<Validation>, BenchError>
    where
        F: Fn(&GameRecord) + Sync,
    {
        if games == 0 {
            return Err(BenchError::Config(
                "validation needs at least one game".to_owned(),
            ));
        }
        let seed = self.config.validation_seed();
        let candidates = [self.space.start().clone(), self.best.weights.clone()];
        let Some(records) =
            play_candidates(&self.config, &candidates, seed, games, stop, &on_game)?
        else {
            return Ok(None);
        };
        let objective = self.config.objective;
        let values = |rs: &[GameRecord]| -> Vec<f64> {
            rs.iter().map(|r| objective.game_value(r)).collect()
        };
        let (start, tuned) = (values(&records[0]), values(&records[1]));
        let difference: Vec<f64> = tuned.iter().zip(&start).map(|(t, s)| t - s).collect();
        let estimate = |v: &[f64]| MeanEstimate::of(v).expect("at least one game");
        Ok(Some(Validation {
            games,
            seed,
            start: estimate(&start),
            tuned: estimate(&tuned),
            difference: estimate(&difference),
        }))
    }
}

/// Plays `games` games from `seed` with each of `candidates` on `config.jobs` threads,
/// all candidate-game pairs sharing the threads ([`run_tasks`]). Returns each
/// candidate's records, by game index, or `None` when `stop` was set before all
/// finished.
fn play_candidates<F>(
    config: &TuneConfig,
    candidates: &[EvalConfig],
    seed: u64,
    games: u64,
    stop: &AtomicBool,
    on_game: &F,
) -> Result<Option<Vec<Vec<GameRecord>>>, BenchError>
where
    F: Fn(&GameRecord) + Sync,
{
    let benches: Vec<BenchConfig> = candidates
        .iter()
        .map(|w| config.bench_config(w, seed, games))
        .collect();
    let tasks = (benches.len() as u64)
        .checked_mul(games)
        .ok_or_else(|| BenchError::Config(format!("{games} games per candidate are too many")))?;
    let per_candidate = games.max(1);
    let mut made = run_tasks(config.jobs.max(1), 0..tasks, stop, |task, stopped| {
        let (candidate, index) = ((task / per_candidate) as usize, task % per_candidate);
        let record = play_game_until(&benches[candidate], index, stopped)?;
        if let Some(record) = &record {
            on_game(record);
        }
        Ok(record)
    })
    .map_err(|e| match e {
        // The game's index among the candidate's, not the task's.
        BenchError::Panicked { index, message } if index != u64::MAX => BenchError::Panicked {
            index: index % per_candidate,
            message,
        },
        e => e,
    })?;
    if made.len() as u64 != tasks {
        return Ok(None);
    }
    made.sort_unstable_by_key(|(task, _)| *task);
    let mut records = made.into_iter().map(|(_, r)| r);
    Ok(Some(
        (0..benches.len())
            .map(|_| records.by_ref().take(per_candidate as usize).collect())
            .collect(),
    ))
}
