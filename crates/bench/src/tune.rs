//! Tuning the weights of an evaluation with CMA-ES ([`CmaEs`]), scoring each candidate
//! by the games a player plays with it.
//!
//! See [`Tuner`] for how.

use core::fmt;
use core::fmt::Write as _;
use core::str::FromStr;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;

use ai2048_ai::eval::{EvalConfig, MAX_WEIGHT};
use ai2048_ai::{check_player, PlayerSpec, SearchLimits, PLAYERS};
use ai2048_engine::rng::derive_seed;
use ai2048_engine::Rules;

use crate::run::panic_message;
use crate::{play_game, BenchConfig, BenchError, CmaEs, GameRecord};

/// What a tuning run maximizes: the mean over games of one number per game.
///
/// ```
/// use ai2048_bench::Objective;
/// assert_eq!("score".parse::<Objective>()?, Objective::Score);
/// assert_eq!("reach:16384".parse::<Objective>()?, Objective::Reach(16384));
/// assert_eq!(Objective::Reach(2048).to_string(), "reach:2048");
/// assert!("reach:3000".parse::<Objective>().is_err());
/// # Ok::<(), ai2048_bench::BenchError>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Objective {
    /// The score (`score`).
    #[default]
    Score,
    /// The base-2 logarithm of the largest tile (`max-tile-log`): 11 for 2048.
    MaxTileLog,
    /// 1 when the largest tile is at least this tile, else 0 (`reach:TILE`): the mean
    /// is the share of games reaching it.
    Reach(u32),
}

impl Objective {
    /// The objective's number for one game.
    ///
    /// ```
    /// use ai2048_bench::{GameRecord, Objective};
    /// let game = GameRecord { index: 0, seed: 0, score: 20000, max_tile: 2048, moves: 900,
    ///     seconds: 0.1, timed_out: false, max_ms_per_move: 0.5, nodes: 0 };
    /// assert_eq!(Objective::Score.game_value(&game), 20000.0);
    /// assert_eq!(Objective::MaxTileLog.game_value(&game), 11.0);
    /// assert_eq!(Objective::Reach(2048).game_value(&game), 1.0);
    /// assert_eq!(Objective::Reach(4096).game_value(&game), 0.0);
    /// ```
    #[must_use]
    pub fn game_value(self, record: &GameRecord) -> f64 {
        match self {
            Objective::Score => record.score as f64,
            Objective::MaxTileLog => f64::from(record.max_tile.max(1)).log2(),
            Objective::Reach(tile) => f64::from(u8::from(record.max_tile >= tile)),
        }
    }

    /// The mean of [`Objective::game_value`] over `records`; NaN for none.
    #[must_use]
    pub fn fitness(self, records: &[GameRecord]) -> f64 {
        records.iter().map(|r| self.game_value(r)).sum::<f64>() / records.len() as f64
    }

    /// A fitness as text: a score to one decimal, a log tile to three, a share as a
    /// percentage.
    #[must_use]
    pub fn format(self, value: f64) -> String {
        match self {
            Objective::Score => format!("{value:.1}"),
            Objective::MaxTileLog => format!("{value:.3}"),
            Objective::Reach(_) => format!("{:.1}%", value * 100.0),
        }
    }

    /// What the objective measures, in a few words: "mean score".
    #[must_use]
    pub fn describe(self) -> String {
        match self {
            Objective::Score => "mean score".to_owned(),
            Objective::MaxTileLog => "mean log2 of the largest tile".to_owned(),
            Objective::Reach(tile) => format!("share of games reaching {tile}"),
        }
    }
}

impl fmt::Display for Objective {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Objective::Score => f.write_str("score"),
            Objective::MaxTileLog => f.write_str("max-tile-log"),
            Objective::Reach(tile) => write!(f, "reach:{tile}"),
        }
    }
}

impl FromStr for Objective {
    type Err = BenchError;

    fn from_str(s: &str) -> Result<Objective, BenchError> {
        let s = s.trim();
        match s {
            "score" => return Ok(Objective::Score),
            "max-tile-log" => return Ok(Objective::MaxTileLog),
            _ => {}
        }
        if let Some(tile) = s.strip_prefix("reach:") {
            return match tile.trim().parse::<u32>() {
                Ok(t) if t >= 4 && t.is_power_of_two() => Ok(Objective::Reach(t)),
                _ => Err(BenchError::Config(format!(
                    "bad objective {s:?}: the tile of reach:TILE is a power of two from 4, \
                     such as reach:16384"
                ))),
            };
        }
        Err(BenchError::Config(format!(
            "unknown objective {s:?}: expected score, max-tile-log or reach:TILE (such as \
             reach:16384)"
        )))
    }
}

/// The weights being tuned, and how the optimizer's normalized coordinates map to
/// them: weight `i` is `start_i + scale_i * z_i` (see [`Tuner`]).
///
/// ```
/// use ai2048_ai::eval::EvalConfig;
/// use ai2048_bench::ParamSpace;
/// let start = EvalConfig::new("heuristic")?;
/// let space = ParamSpace::new(&start, Some(&["empty".to_owned(), "mono_power".to_owned()]))?;
/// assert_eq!(space.names(), ["empty", "mono_power"]);
/// assert_eq!(space.scales(), [270.0, 2.5]); // |270|, and 4 capped at a quarter of [0, 10]
/// let tuned = space.weights(&[0.5, -10.0]); // mono_power is clipped to 0
/// assert_eq!(tuned.get("empty"), Some(405.0));
/// assert_eq!(tuned.get("mono_power"), Some(0.0));
/// assert_eq!(tuned.get("merges"), start.get("merges")); // not tuned
/// assert!(ParamSpace::new(&start, Some(&["emptiness".to_owned()])).is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct ParamSpace {
    start: EvalConfig,
    /// The indices, in the evaluation's weights, of the tuned weights.
    tuned: Vec<usize>,
    scales: Vec<f64>,
    lower: Vec<f64>,
    upper: Vec<f64>,
}

impl ParamSpace {
    /// The space of the weights `names` of `start` (all of them when `None`), around
    /// the weights of `start`.
    ///
    /// # Errors
    ///
    /// [`BenchError::Config`] when the evaluation has no weights, or `names` is empty,
    /// names a weight twice or one the evaluation lacks (the message lists its
    /// weights).
    pub fn new(start: &EvalConfig, names: Option<&[String]>) -> Result<ParamSpace, BenchError> {
        let info = start.info();
        let all: Vec<&str> = start.param_names().collect();
        if all.is_empty() {
            return Err(BenchError::Config(format!(
                "eval {} has no weights to tune",
                start.name()
            )));
        }
        let tuned: Vec<usize> = match names {
            None => (0..all.len()).collect(),
            Some([]) => {
                return Err(BenchError::Config(format!(
                    "no weight to tune: name some of {}",
                    all.join(", ")
                )))
            }
            Some(names) => {
                let mut tuned = Vec::with_capacity(names.len());
                for name in names {
                    let name = name.trim();
                    let i = info.weight_index(name).ok_or_else(|| {
                        BenchError::Config(format!(
                            "eval {} has no weight {name:?}: expected some of {}",
                            start.name(),
                            all.join(", ")
                        ))
                    })?;
                    if tuned.contains(&i) {
                        return Err(BenchError::Config(format!("weight {name} is listed twice")));
                    }
                    tuned.push(i);
                }
                tuned
            }
        };
        let x0 = start.params();
        let nonzero: Vec<f64> = x0.iter().filter(|x| **x != 0.0).map(|x| x.abs()).collect();
        let fallback = if nonzero.is_empty() {
            1.0
        } else {
            nonzero.iter().sum::<f64>() / nonzero.len() as f64
        };
        let mut scales = Vec::with_capacity(tuned.len());
        let mut lower = Vec::with_capacity(tuned.len());
        let mut upper = Vec::with_capacity(tuned.len());
        for &i in &tuned {
            let w = &info.weights[i];
            let mut scale = if x0[i] == 0.0 { fallback } else { x0[i].abs() };
            if w.max - w.min < 2.0 * MAX_WEIGHT {
                scale = scale.min((w.max - w.min) / 4.0);
            }
            if !(scale.is_finite() && scale > 0.0) {
                scale = 1.0;
            }
            scales.push(scale);
            lower.push((w.min - x0[i]) / scale);
            upper.push((w.max - x0[i]) / scale);
        }
        Ok(ParamSpace {
            start: start.clone(),
            tuned,
            scales,
            lower,
            upper,
        })
    }

    /// The number of tuned weights: the optimizer's dimension.
    #[must_use]
    pub fn dim(&self) -> usize {
        self.tuned.len()
    }

    /// The weights at `z = 0`.
    #[must_use]
    pub fn start(&self) -> &EvalConfig {
        &self.start
    }

    /// The names of the tuned weights, in the order of the coordinates.
    #[must_use]
    pub fn names(&self) -> Vec<&'static str> {
        let info = self.start.info();
        self.tuned.iter().map(|&i| info.weights[i].name).collect()
    }

    /// Whether weight `name` is tuned.
    #[must_use]
    pub fn is_tuned(&self, name: &str) -> bool {
        self.names().contains(&name)
    }

    /// How much a unit of each coordinate changes its weight.
    #[must_use]
    pub fn scales(&self) -> &[f64] {
        &self.scales
    }

    /// `z` clipped to the weights' ranges (a coordinate that is NaN becomes 0).
    ///
    /// # Panics
    ///
    /// When `z` does not have [`ParamSpace::dim`] coordinates.
    #[must_use]
    pub fn repair(&self, z: &[f64]) -> Vec<f64> {
        assert_eq!(z.len(), self.dim(), "one coordinate per tuned weight");
        z.iter()
            .zip(self.lower.iter().zip(&self.upper))
            .map(|(&v, (&lo, &hi))| if v.is_nan() { 0.0 } else { v.clamp(lo, hi) })
            .collect()
    }

    /// The weights at `z` (repaired first): the starting weights with the tuned ones
    /// replaced.
    ///
    /// # Panics
    ///
    /// When `z` does not have [`ParamSpace::dim`] coordinates.
    #[must_use]
    pub fn weights(&self, z: &[f64]) -> EvalConfig {
        let info = self.start.info();
        let mut params = self.start.params().to_vec();
        for ((&i, &s), &v) in self.tuned.iter().zip(&self.scales).zip(&self.repair(z)) {
            let w = &info.weights[i];
            params[i] = (params[i] + s * v).clamp(w.min, w.max);
        }
        self.start
            .with_params(&params)
            .expect("repaired weights are finite and in range")
    }
}

/// What to tune, and how: the starting weights, the player that plays with them, and
/// the optimizer's settings.
///
/// Generation `g` (from 1) plays its games from seed
/// [`TuneConfig::generation_seed`]`(g)`, validation from
/// [`TuneConfig::validation_seed`], and CMA-ES draws from a seed derived from `seed`
/// too, so a run is reproducible from its configuration.
///
/// ```
/// use ai2048_ai::eval::EvalConfig;
/// use ai2048_bench::TuneConfig;
/// let config = TuneConfig::new(EvalConfig::new("snake")?, "expectimax:depth=1".parse()?);
/// assert!(config.validate().is_ok());
/// let mut weights = EvalConfig::new("snake")?;
/// weights.set("empty", 2.5)?;
/// let spec = config.player_for(&weights);
/// assert_eq!(spec.option("eval"), Some("snake"));
/// assert_eq!(spec.option("w.empty"), Some("2.5"));
/// assert_eq!(spec.option("depth"), Some("1"));
/// assert!(TuneConfig { generations: 0, ..config.clone() }.validate().is_err());
/// assert!(TuneConfig { player: "random".parse()?, ..config }.validate().is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct TuneConfig {
    /// The starting weights; their evaluation is the one tuned.
    pub start: EvalConfig,
    /// The names of the weights to tune, the others fixed; all when `None`.
    pub params: Option<Vec<String>>,
    /// The player whose games score a candidate. Its `eval`, `weights`, `symmetric`
    /// and `w.NAME` options are replaced by the candidate's.
    pub player: PlayerSpec,
    /// The rules of every game.
    pub rules: Rules,
    /// The limits of every search.
    pub limits: SearchLimits,
    /// What to maximize.
    pub objective: Objective,
    /// How many generations to run; at least 1.
    pub generations: u32,
    /// The samples per generation; CMA-ES's default `4 + 3 ln n` when `None`.
    pub population: Option<usize>,
    /// The initial step size in normalized coordinates (0.3: weights change by about
    /// 30%).
    pub sigma: f64,
    /// The games each candidate plays per generation; at least 1.
    pub games: u64,
    /// The seed of the run.
    pub seed: u64,
    /// How many games to play at once, one per thread; at least 1.
    pub jobs: usize,
}

impl TuneConfig {
    /// 20 generations of the default population, 20 games per candidate, sigma 0.3,
    /// from seed 0 on one thread, maximizing the score under the original rules, all
    /// weights tuned.
    #[must_use]
    pub fn new(start: EvalConfig, player: PlayerSpec) -> TuneConfig {
        TuneConfig {
            start,
            params: None,
            player,
            rules: Rules::default(),
            limits: SearchLimits::default(),
            objective: Objective::Score,
            generations: 20,
            population: None,
            sigma: 0.3,
            games: 20,
            seed: 0,
            jobs: 1,
        }
    }

    /// The seed of the games of generation `generation` (from 1): every candidate of
    /// the generation plays game `i` from `derive_seed(generation_seed, i)`.
    #[must_use]
    pub fn generation_seed(&self, generation: u32) -> u64 {
        derive_seed(self.seed, u64::from(generation))
    }

    /// The seed of the held-out games of [`Tuner::validate`], which no generation
    /// plays.
    #[must_use]
    pub fn validation_seed(&self) -> u64 {
        derive_seed(self.seed, u64::MAX)
    }

    /// The seed of the optimizer's random numbers.
    fn optimizer_seed(&self) -> u64 {
        derive_seed(self.seed, u64::MAX - 1)
    }

    /// The player, playing with `weights`: [`TuneConfig::player`] without its
    /// evaluation options, then `eval=NAME`, `symmetric=true` if the weights say so,
    /// and `w.NAME=VALUE` for every weight (written exactly).
    #[must_use]
    pub fn player_for(&self, weights: &EvalConfig) -> PlayerSpec {
        let mut spec = PlayerSpec::new(&self.player.name);
        spec.options = self
            .player
            .options
            .iter()
            .filter(|(k, _)| !is_eval_option(k))
            .cloned()
            .collect();
        spec.options
            .push(("eval".to_owned(), weights.name().to_owned()));
        if weights.symmetric() {
            spec.options
                .push(("symmetric".to_owned(), "true".to_owned()));
        }
        for (name, x) in weights.param_names().zip(weights.params()) {
            spec.options.push((format!("w.{name}"), format!("{x:?}")));
        }
        spec
    }

    /// The benchmark of `games` games from `seed` of the player with `weights`: what
    /// a candidate plays.
    #[must_use]
    pub fn bench_config(&self, weights: &EvalConfig, seed: u64, games: u64) -> BenchConfig {
        BenchConfig {
            games,
            first_game: 0,
            seed,
            jobs: self.jobs,
            timeout: None,
            rules: self.rules,
            player: self.player_for(weights),
            limits: self.limits,
        }
    }

    /// Checks that the run can start: at least one generation, game and job, a
    /// positive sigma, a population of at least 2, valid rules and weights to tune,
    /// and a player that takes an evaluation.
    ///
    /// # Errors
    ///
    /// [`BenchError::Config`], [`BenchError::Rules`] or [`BenchError::Player`].
    pub fn validate(&self) -> Result<(), BenchError> {
        let bad = |m: String| Err(BenchError::Config(m));
        if self.generations == 0 {
            return bad("the generations must be at least 1".to_owned());
        }
        if self.games == 0 {
            return bad("the games per candidate must be at least 1".to_owned());
        }
        if self.jobs == 0 {
            return bad("jobs must be at least 1".to_owned());
        }
        if !(self.sigma.is_finite() && self.sigma > 0.0) {
            return bad(format!(
                "sigma must be a positive number, not {}",
                self.sigma
            ));
        }
        if let Some(p) = self.population.filter(|&p| p < 2) {
            return bad(format!("the population must be at least 2, not {p}"));
        }
        self.rules.validate().map_err(BenchError::Rules)?;
        ParamSpace::new(&self.start, self.params.as_deref())?;
        let info = PLAYERS.iter().find(|p| p.name == self.player.name);
        if info.is_some_and(|p| !p.options.iter().any(|(k, _)| *k == "eval")) {
            let names: Vec<&str> = PLAYERS
                .iter()
                .filter(|p| p.options.iter().any(|(k, _)| *k == "eval"))
                .map(|p| p.name)
                .collect();
            return Err(BenchError::Config(format!(
                "player {} takes no evaluation, so it has no weights to tune: use one of {}",
                self.player.name,
                names.join(", ")
            )));
        }
        check_player(&self.player_for(&self.start)).map_err(BenchError::Player)?;
        Ok(())
    }
}

/// Whether a player option sets the evaluation, and so is replaced by the candidate's.
fn is_eval_option(key: &str) -> bool {
    matches!(key, "eval" | "weights" | "symmetric") || key.starts_with("w.")
}

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
/// use ai2048_bench::MeanEstimate;
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
/// use ai2048_bench::{format_history, TuneConfig, Tuner};
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
    /// use ai2048_bench::{TuneConfig, Tuner};
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
/// all candidate-game pairs sharing the threads. Returns each candidate's records, by
/// game index, or `None` when `stop` was set before all finished.
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
    let games = usize::try_from(games)
        .map_err(|_| BenchError::Config(format!("{games} games are too many")))?;
    let tasks = benches
        .len()
        .checked_mul(games)
        .ok_or_else(|| BenchError::Config(format!("{games} games per candidate are too many")))?;
    let slots: Vec<Mutex<Option<GameRecord>>> = (0..tasks).map(|_| Mutex::new(None)).collect();
    let next = AtomicUsize::new(0);
    let failed = AtomicBool::new(false);
    let first_error: Mutex<Option<(usize, BenchError)>> = Mutex::new(None);
    let worker = || loop {
        if stop.load(Ordering::Relaxed) || failed.load(Ordering::Relaxed) {
            return;
        }
        let task = next.fetch_add(1, Ordering::Relaxed);
        if task >= tasks {
            return;
        }
        let (candidate, index) = (task / games, task % games);
        let outcome = catch_unwind(AssertUnwindSafe(|| {
            let record = play_game(&benches[candidate], index as u64, stop)?;
            if let Some(record) = &record {
                on_game(record);
            }
            Ok(record)
        }))
        .unwrap_or_else(|panic| {
            Err(BenchError::Panicked {
                index: index as u64,
                message: panic_message(panic.as_ref()),
            })
        });
        match outcome {
            Ok(Some(record)) => {
                *slots[task].lock().unwrap_or_else(|e| e.into_inner()) = Some(record);
            }
            Ok(None) => return,
            Err(e) => {
                failed.store(true, Ordering::Relaxed);
                let mut first = first_error.lock().unwrap_or_else(|e| e.into_inner());
                if first.as_ref().map_or(true, |(t, _)| task < *t) {
                    *first = Some((task, e));
                }
                return;
            }
        }
    };
    let threads = config.jobs.min(tasks).max(1);
    std::thread::scope(|s| -> Result<(), BenchError> {
        let mut started = 0;
        for _ in 0..threads {
            match std::thread::Builder::new().spawn_scoped(s, worker) {
                Ok(_) => started += 1,
                Err(e) if started == 0 => return Err(BenchError::Thread(e.to_string())),
                // The threads started play every game.
                Err(_) => break,
            }
        }
        Ok(())
    })?;
    if let Some((_, e)) = first_error.into_inner().unwrap_or_else(|e| e.into_inner()) {
        return Err(e);
    }
    let records: Option<Vec<GameRecord>> = slots
        .into_iter()
        .map(|m| m.into_inner().unwrap_or_else(|e| e.into_inner()))
        .collect();
    Ok(records.map(|all| {
        all.chunks(games.max(1))
            .map(<[GameRecord]>::to_vec)
            .collect()
    }))
}

/// The columns of [`format_history`]'s table, in order.
pub const HISTORY_COLUMNS: [&str; 7] = [
    "generation",
    "best",
    "mean",
    "centre",
    "incumbent",
    "sigma",
    "new best",
];

/// Lines of cells as an aligned table under `header`, with a rule under it; numbers
/// (and everything but the first column's text) right-aligned.
fn table(header: &[&str], rows: &[Vec<String>]) -> String {
    let mut widths: Vec<usize> = header.iter().map(|h| h.chars().count()).collect();
    for row in rows {
        for (w, cell) in widths.iter_mut().zip(row) {
            *w = (*w).max(cell.chars().count());
        }
    }
    let mut out = String::new();
    let line = |out: &mut String, cells: &[String]| {
        let parts: Vec<String> = cells
            .iter()
            .zip(&widths)
            .map(|(cell, &w)| format!("{cell:>w$}"))
            .collect();
        let _ = writeln!(out, "{}", parts.join(" | ").trim_end());
    };
    line(
        &mut out,
        &header.iter().map(|h| (*h).to_owned()).collect::<Vec<_>>(),
    );
    let rule: Vec<String> = widths.iter().map(|&w| "-".repeat(w)).collect();
    let _ = writeln!(out, "{}", rule.join("-+-"));
    for row in rows {
        line(&mut out, row);
    }
    out
}

/// The generations as an aligned text table with the columns of [`HISTORY_COLUMNS`]:
/// the generation, the best and mean fitness of its samples, the fitness of the centre
/// and of the incumbent, sigma after the update, and `yes` when the incumbent changed.
/// Every fitness of a row is measured on that generation's games.
///
/// ```
/// use ai2048_bench::{format_history, GenerationRow, Objective};
/// let row = GenerationRow { generation: 1, best: 30500.0, mean: 25000.0, centre: 28000.0,
///     incumbent: 28000.0, sigma: 0.25, improved: true };
/// let text = format_history(&[row], Objective::Score);
/// let lines: Vec<&str> = text.lines().collect();
/// assert_eq!(lines[0], "generation |    best |    mean |  centre | incumbent | sigma | new best");
/// assert_eq!(lines[2], "         1 | 30500.0 | 25000.0 | 28000.0 |   28000.0 | 0.250 |      yes");
/// ```
#[must_use]
pub fn format_history(rows: &[GenerationRow], objective: Objective) -> String {
    let cells: Vec<Vec<String>> = rows
        .iter()
        .map(|r| {
            vec![
                r.generation.to_string(),
                objective.format(r.best),
                objective.format(r.mean),
                objective.format(r.centre),
                objective.format(r.incumbent),
                format!("{:.3}", r.sigma),
                if r.improved { "yes" } else { "" }.to_owned(),
            ]
        })
        .collect();
    table(&HISTORY_COLUMNS, &cells)
}

/// A weight for a table: up to 6 significant digits, without trailing zeros.
fn number(x: f64) -> String {
    if x == 0.0 || !x.is_finite() {
        return format!("{x}");
    }
    let magnitude = x.abs().log10().floor();
    if !(-4.0..9.0).contains(&magnitude) {
        return format!("{x:.5e}");
    }
    let decimals = (5.0 - magnitude).max(0.0) as usize;
    let text = format!("{x:.decimals$}");
    if text.contains('.') {
        text.trim_end_matches('0').trim_end_matches('.').to_owned()
    } else {
        text
    }
}

/// The weights of `start` and `tuned` (the same evaluation) side by side: one row per
/// weight with its relative change, `fixed` for a weight `space` does not tune.
///
/// ```
/// use ai2048_ai::eval::EvalConfig;
/// use ai2048_bench::{format_weights, ParamSpace};
/// let start = EvalConfig::new("weighted")?;
/// let space = ParamSpace::new(&start, Some(&["empty".to_owned(), "sum".to_owned()]))?;
/// let tuned = space.weights(&[0.5, 0.25]);
/// let text = format_weights(&start, &tuned, &space);
/// assert!(text.contains("empty |   1.5 |  2.25 | +50.0%"), "{text}");
/// assert!(text.contains("merges |     2 |     2 |  fixed"), "{text}");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[must_use]
pub fn format_weights(start: &EvalConfig, tuned: &EvalConfig, space: &ParamSpace) -> String {
    let rows: Vec<Vec<String>> = start
        .param_names()
        .zip(start.params().iter().zip(tuned.params()))
        .map(|(name, (&a, &b))| {
            let change = if !space.is_tuned(name) {
                "fixed".to_owned()
            } else if a == b {
                "0".to_owned()
            } else if a == 0.0 {
                format!("{:+}", number(b - a))
            } else {
                format!("{:+.1}%", (b - a) / a.abs() * 100.0)
            };
            vec![name.to_owned(), number(a), number(b), change]
        })
        .collect();
    table(&["weight", "start", "tuned", "change"], &rows)
}

/// The validation as text: both means with their standard errors, and the paired
/// difference in standard errors.
///
/// ```
/// use ai2048_bench::{format_validation, MeanEstimate, Objective, Validation};
/// let m = |mean, std_error| MeanEstimate { n: 100, mean, std_error };
/// let v = Validation { games: 100, seed: 7, start: m(30000.0, 1500.0),
///     tuned: m(33000.0, 1400.0), difference: m(3000.0, 1000.0) };
/// let text = format_validation(&v, Objective::Score);
/// assert!(text.contains("start weights: mean score 30000.0 ± 1500.0"), "{text}");
/// assert!(text.contains("tuned weights: mean score 33000.0 ± 1400.0"), "{text}");
/// assert!(text.contains("+3000.0 ± 1000.0"), "{text}");
/// assert!(text.contains("3.0 standard errors: better beyond noise"), "{text}");
/// ```
#[must_use]
pub fn format_validation(v: &Validation, objective: Objective) -> String {
    let what = objective.describe();
    let se = |x: f64| {
        if x.is_nan() {
            "n/a".to_owned()
        } else {
            objective.format(x)
        }
    };
    let diff = |x: f64| {
        let text = objective.format(x.abs());
        format!("{}{text}", if x < 0.0 { '-' } else { '+' })
    };
    let z = v.z();
    let verdict = if !z.is_finite() {
        if v.difference.mean == 0.0 {
            "no difference".to_owned()
        } else {
            "too few games to tell".to_owned()
        }
    } else if z >= 2.0 {
        format!("{z:.1} standard errors: better beyond noise")
    } else if z <= -2.0 {
        format!("{z:.1} standard errors: worse beyond noise")
    } else {
        format!("{z:.1} standard errors: within noise")
    };
    let mut out = String::new();
    let _ = writeln!(
        out,
        "validation on {} held-out games (seed {}), the same games for both:",
        v.games, v.seed
    );
    let _ = writeln!(
        out,
        "  start weights: {what} {} ± {}",
        objective.format(v.start.mean),
        se(v.start.std_error)
    );
    let _ = writeln!(
        out,
        "  tuned weights: {what} {} ± {}",
        objective.format(v.tuned.mean),
        se(v.tuned.std_error)
    );
    let _ = writeln!(
        out,
        "  difference:    {} ± {} (paired by game), {verdict}",
        diff(v.difference.mean),
        se(v.difference.std_error)
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn weighted() -> EvalConfig {
        EvalConfig::new("weighted").expect("an eval")
    }

    fn config(generations: u32) -> TuneConfig {
        TuneConfig {
            generations,
            population: Some(4),
            games: 3,
            jobs: 2,
            seed: 5,
            ..TuneConfig::new(weighted(), "greedy".parse().expect("a spec"))
        }
    }

    /// A smooth synthetic fitness with its maximum at `target`, on the tuned weights.
    fn synthetic(target: &[f64]) -> impl Fn(&EvalConfig) -> f64 + '_ {
        move |w: &EvalConfig| {
            -w.params()
                .iter()
                .zip(target)
                .map(|(x, t)| (x - t).powi(2))
                .sum::<f64>()
        }
    }

    fn run_synthetic(config: &TuneConfig, target: &[f64]) -> Tuner {
        let f = synthetic(target);
        let mut tuner = Tuner::new(config).expect("valid");
        while !tuner.is_done() {
            tuner
                .step_with(|c| Ok::<_, ()>(Some(c.iter().map(&f).collect())))
                .expect("no error")
                .expect("not stopped");
        }
        tuner
    }

    #[test]
    fn synthetic_fitness_improves_and_converges() {
        let target = [3.0, -0.5, 1.0, 2.5, 0.7, 1.0];
        let config = TuneConfig {
            generations: 150,
            population: None,
            ..config(0)
        };
        let tuner = run_synthetic(&config, &target);
        let f = synthetic(&target);
        let start = f(&weighted());
        let best = f(tuner.best());
        assert!(best > start, "{best} <= {start}");
        assert!(best > -1e-6, "{best}: {:?}", tuner.best().params());
        let history = tuner.history();
        assert_eq!(history.len(), 150);
        assert_eq!(history[0].incumbent, start);
        assert_eq!(history[0].centre, start);
        // The best so far never gets worse (the fitness is deterministic here).
        for w in history.windows(2) {
            assert!(w[1].best_so_far() >= w[0].best_so_far());
        }
        assert!(history.iter().any(|r| r.improved));
        assert_eq!(tuner.best_fitness(), Some(best));
        // The centre converges too.
        assert!(f(&tuner.centre()) > -1e-4);
    }

    #[test]
    fn deterministic_from_the_seed() {
        let target = [1.0; 6];
        let a = run_synthetic(&config(10), &target);
        let b = run_synthetic(&config(10), &target);
        assert_eq!(a.history(), b.history());
        assert_eq!(a.best(), b.best());
        let c = run_synthetic(
            &TuneConfig {
                seed: 6,
                ..config(10)
            },
            &target,
        );
        assert_ne!(a.history(), c.history());
    }

    #[test]
    fn subsets_keep_the_others_fixed() {
        let config = TuneConfig {
            params: Some(vec!["merges".to_owned(), "empty".to_owned()]),
            generations: 60,
            ..config(0)
        };
        let tuner = run_synthetic(&config, &[3.0, 0.0, 0.0, 4.0, 9.0, 9.0]);
        let (start, best) = (weighted(), tuner.best().clone());
        for name in ["smoothness", "monotonicity", "sum", "max"] {
            assert_eq!(best.get(name), start.get(name), "{name}");
        }
        assert!((best.get("empty").expect("a weight") - 3.0).abs() < 0.01);
        assert!((best.get("merges").expect("a weight") - 4.0).abs() < 0.01);
        assert_eq!(tuner.space().names(), ["merges", "empty"]);
    }

    #[test]
    fn bounds_are_respected() {
        // The heuristic's powers lie in [0, 10]: a target beyond stays at the bound.
        let start = EvalConfig::new("heuristic").expect("an eval");
        let mut target = start.params().to_vec();
        target[4] = 15.0; // mono_power
        let config = TuneConfig {
            params: Some(vec!["mono_power".to_owned()]),
            generations: 40,
            ..TuneConfig::new(start, "greedy".parse().expect("a spec"))
        };
        let f = synthetic(&target);
        let mut tuner = Tuner::new(&config).expect("valid");
        while !tuner.is_done() {
            tuner
                .step_with(|c| {
                    for w in c {
                        let p = w.get("mono_power").expect("a weight");
                        assert!((0.0..=10.0).contains(&p), "{p}");
                    }
                    Ok::<_, ()>(Some(c.iter().map(&f).collect()))
                })
                .expect("no error");
        }
        assert!((tuner.best().get("mono_power").expect("a weight") - 10.0).abs() < 1e-3);
    }

    #[test]
    fn stopping_changes_nothing() {
        let mut tuner = Tuner::new(&config(3)).expect("valid");
        let before = tuner.best().clone();
        let row = tuner.step_with(|_| Ok::<_, ()>(None)).expect("no error");
        assert!(row.is_none());
        assert_eq!(tuner.generation(), 0);
        assert_eq!(tuner.best(), &before);
        let stopped = tuner
            .step(&AtomicBool::new(true), |_| {})
            .expect("no error");
        assert!(stopped.is_none());
        assert_eq!(tuner.generation(), 0);
        let err = tuner.step_with(|_| Err("boom")).unwrap_err();
        assert_eq!(err, "boom");
    }

    #[test]
    fn games_score_the_candidates() {
        let config = config(2);
        let mut tuner = Tuner::new(&config).expect("valid");
        assert_eq!(tuner.games_left(), (5 + 6) * 3);
        let played = AtomicUsize::new(0);
        let first = tuner
            .step(&AtomicBool::new(false), |r| {
                assert!(r.index < 3);
                played.fetch_add(1, Ordering::Relaxed);
            })
            .expect("plays")
            .expect("not stopped");
        assert_eq!(played.load(Ordering::Relaxed), 5 * 3);
        assert_eq!(tuner.games_left(), 6 * 3);
        // The incumbent's fitness is that of a bench of the start on the same games.
        let bench = config.bench_config(&config.start, config.generation_seed(1), 3);
        let records = crate::run_bench(&bench, &AtomicBool::new(false), |_| {}).expect("runs");
        assert_eq!(first.incumbent, Objective::Score.fitness(&records));
        assert!(first.best >= first.mean && first.mean > 0.0);
        tuner.step(&AtomicBool::new(false), |_| {}).expect("plays");
        assert!(tuner.is_done());
        assert_eq!(tuner.games_left(), 0);

        // The same run on one thread: the same history.
        let mut alone = Tuner::new(&TuneConfig { jobs: 1, ..config }).expect("valid");
        while !alone.is_done() {
            alone.step(&AtomicBool::new(false), |_| {}).expect("plays");
        }
        assert_eq!(alone.history(), tuner.history());

        let v = tuner
            .validate(4, &AtomicBool::new(false), |_| {})
            .expect("plays")
            .expect("not stopped");
        assert_eq!(
            (v.games, v.start.n, v.tuned.n, v.difference.n),
            (4, 4, 4, 4)
        );
        assert_eq!(v.seed, tuner.config().validation_seed());
        assert!((v.difference.mean - (v.tuned.mean - v.start.mean)).abs() < 1e-6);
        assert!(tuner.validate(0, &AtomicBool::new(false), |_| {}).is_err());
        assert!(tuner
            .validate(4, &AtomicBool::new(true), |_| {})
            .expect("no error")
            .is_none());
    }

    #[test]
    fn player_spec_replaces_the_eval_options() {
        let config = TuneConfig::new(
            weighted(),
            "expectimax:depth=1,eval=snake,w.m00=3,symmetric=true,weights=x.json,tt-mb=1"
                .parse()
                .expect("a spec"),
        );
        let mut w = weighted();
        w.set("empty", 0.1 + 0.2).expect("in range");
        let spec = config.player_for(&w);
        assert_eq!(spec.option("depth"), Some("1"));
        assert_eq!(spec.option("tt-mb"), Some("1"));
        assert_eq!(spec.option("eval"), Some("weighted"));
        assert_eq!(spec.option("weights"), None);
        assert_eq!(spec.option("symmetric"), None);
        assert_eq!(spec.option("w.m00"), None);
        // Written exactly: the player gets the very same number.
        assert_eq!(spec.option("w.empty"), Some("0.30000000000000004"));
        assert!(check_player(&spec).is_ok());
        let mut snake = EvalConfig::new("snake").expect("an eval");
        snake.set_symmetric(true).expect("a matrix");
        let spec = config.player_for(&snake);
        assert_eq!(spec.option("symmetric"), Some("true"));
        assert!(check_player(&spec).is_ok());
    }

    #[test]
    fn bad_configs_are_errors() {
        let base = config(2);
        let cases: Vec<(TuneConfig, &str)> = vec![
            (
                TuneConfig {
                    generations: 0,
                    ..base.clone()
                },
                "generations",
            ),
            (
                TuneConfig {
                    games: 0,
                    ..base.clone()
                },
                "games",
            ),
            (
                TuneConfig {
                    jobs: 0,
                    ..base.clone()
                },
                "jobs",
            ),
            (
                TuneConfig {
                    sigma: 0.0,
                    ..base.clone()
                },
                "sigma",
            ),
            (
                TuneConfig {
                    sigma: f64::NAN,
                    ..base.clone()
                },
                "sigma",
            ),
            (
                TuneConfig {
                    population: Some(1),
                    ..base.clone()
                },
                "population",
            ),
            (
                TuneConfig {
                    params: Some(vec!["nope".to_owned()]),
                    ..base.clone()
                },
                "no weight \"nope\": expected some of empty, smoothness",
            ),
            (
                TuneConfig {
                    params: Some(vec!["sum".to_owned(), "sum".to_owned()]),
                    ..base.clone()
                },
                "twice",
            ),
            (
                TuneConfig {
                    params: Some(vec![]),
                    ..base.clone()
                },
                "no weight to tune",
            ),
            (
                TuneConfig {
                    start: EvalConfig::new("simple").expect("an eval"),
                    ..base.clone()
                },
                "no weights to tune",
            ),
            (
                TuneConfig {
                    player: "random".parse().expect("a spec"),
                    ..base.clone()
                },
                "takes no evaluation",
            ),
            (
                TuneConfig {
                    player: "nope".parse().expect("a spec"),
                    ..base.clone()
                },
                "unknown player",
            ),
            (
                TuneConfig {
                    player: "greedy:depth=2".parse().expect("a spec"),
                    ..base.clone()
                },
                "no option \"depth\"",
            ),
            (
                TuneConfig {
                    rules: Rules {
                        start_tiles: 0,
                        ..Rules::default()
                    },
                    ..base.clone()
                },
                "",
            ),
        ];
        for (config, message) in cases {
            let err = Tuner::new(&config).expect_err(message).to_string();
            assert!(err.contains(message), "{err} lacks {message}");
        }
    }

    #[test]
    fn objectives() {
        for (text, objective) in [
            ("score", Objective::Score),
            ("max-tile-log", Objective::MaxTileLog),
            ("reach:16384", Objective::Reach(16384)),
            (" reach:4 ", Objective::Reach(4)),
        ] {
            assert_eq!(text.parse::<Objective>().expect(text), objective);
            assert_eq!(
                objective.to_string().parse::<Objective>().expect(text),
                objective
            );
        }
        for bad in [
            "",
            "scores",
            "reach:",
            "reach:0",
            "reach:2",
            "reach:1000",
            "reach:x",
        ] {
            let err = bad.parse::<Objective>().expect_err(bad).to_string();
            assert!(err.contains("objective"), "{bad}: {err}");
        }
        assert_eq!(Objective::Reach(2048).format(0.125), "12.5%");
        assert_eq!(Objective::MaxTileLog.format(10.5), "10.500");
        assert!(Objective::Score.fitness(&[]).is_nan());
    }

    #[test]
    fn scales_and_zero_weights() {
        // "sum" starts at 0: its scale is the mean size of the nonzero weights.
        let space = ParamSpace::new(&weighted(), None).expect("valid");
        let mean = (1.5 + 0.1 + 2.0 + 2.0 + 2.0) / 5.0;
        assert_eq!(space.scales()[4], mean);
        assert_eq!(space.scales()[0], 1.5);
        assert_eq!(space.weights(&[0.0; 6]), weighted());
        let w = space.weights(&[0.0, 0.0, 0.0, 0.0, 1.0, -1.0]);
        assert_eq!(w.get("sum"), Some(mean));
        assert_eq!(w.get("max"), Some(0.0));
        // Cobb-Douglas exponents stay in [0, 100].
        let cd = EvalConfig::new("cobb-douglas").expect("an eval");
        let space = ParamSpace::new(&cd, None).expect("valid");
        let w = space.weights(&[-1e9, 1e9, f64::NAN, 0.0]);
        assert_eq!(w.params(), [0.0, 100.0, 0.25, 0.5]);
    }

    #[test]
    fn number_formatting() {
        assert_eq!(number(200_000.0), "200000");
        assert_eq!(number(3.5), "3.5");
        assert_eq!(number(-0.123_456_78), "-0.123457");
        assert_eq!(number(0.0), "0");
        assert_eq!(number(1e-7), "1.00000e-7");
        assert_eq!(number(270.123_456), "270.123");
    }
}
