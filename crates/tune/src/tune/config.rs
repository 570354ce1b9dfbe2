//! [`TuneConfig`]: what to tune, and how.

use ai2048_ai::eval::EvalConfig;
use ai2048_ai::{check_player, PlayerSpec, SearchLimits, PLAYERS};
use ai2048_engine::rng::derive_seed;
use ai2048_engine::Rules;

use super::*;
use ai2048_bench::{BenchConfig, BenchError};

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
/// use ai2048_tune::TuneConfig;
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
    pub(super) fn optimizer_seed(&self) -> u64 {
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
            from: None,
            until: None,
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
