//! Temporal-difference learning of a network's afterstate values by self-play: the one
//! training loop, used by `ai2048 train` and by Python.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use ai2048_engine::rng::derive_seed;
use ai2048_engine::{Dir, PlayableBoard, RandableBoard, Rng, Rules};

use super::{Carousel, NTupleNetwork, Stages};
use crate::{Player, PlayerError, PlayerSpec, SearchLimits};

/// The stream of a game's seed that picks its carousel start, apart from its tiles'.
const CAROUSEL_STREAM: u64 = 0xCA20_05E1;

/// How the weights move toward their targets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Learning {
    /// Every weight a board reads moves by its share of `alpha` × the error.
    Td,
    /// Temporal coherence (Jaśkowski 2018): each weight's step is also scaled by its
    /// own coherence, |sum of its steps| / sum of their magnitudes, so weights whose
    /// errors cancel out settle.
    Tc,
}

impl Learning {
    /// The name `--learning` takes: `td` or `tc`.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Learning::Td => "td",
            Learning::Tc => "tc",
        }
    }

    /// The learning rate that suits it: 0.1 for TD, 1 for TC, whose coherence scales
    /// the steps down.
    #[must_use]
    pub fn default_alpha(self) -> f32 {
        match self {
            Learning::Td => 0.1,
            Learning::Tc => 1.0,
        }
    }
}

impl core::str::FromStr for Learning {
    type Err = ParseLearningError;

    fn from_str(s: &str) -> Result<Learning, ParseLearningError> {
        match s {
            "td" => Ok(Learning::Td),
            "tc" => Ok(Learning::Tc),
            other => Err(ParseLearningError(other.to_owned())),
        }
    }
}

/// A name that is no [`Learning`]: it holds the name.
///
/// ```
/// use ai2048_ai::ntuple::Learning;
/// let err = "sgd".parse::<Learning>().unwrap_err();
/// assert_eq!(err.to_string(), "unknown learning \"sgd\": expected td or tc");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseLearningError(pub String);

impl core::fmt::Display for ParseLearningError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "unknown learning {:?}: expected td or tc", self.0)
    }
}

impl std::error::Error for ParseLearningError {}

impl NTupleNetwork {
    /// How the network has learned so far: with temporal coherence once it keeps
    /// coherence, plainly once it has trained without; `None` for a new network.
    #[must_use]
    pub fn learned_with(&self) -> Option<Learning> {
        match (self.is_coherent(), self.games()) {
            (true, _) => Some(Learning::Tc),
            (false, 0) => None,
            (false, _) => Some(Learning::Td),
        }
    }

    /// The learning to go on with: `asked`, else the network's own
    /// ([`NTupleNetwork::learned_with`]), else [`Learning::Tc`]. A network may change
    /// how it learns, as the optimistic TD then TC recipe of Guei et al. (2022) does:
    /// TC starts every weight's coherence afresh, and TD drops it.
    ///
    /// ```
    /// use ai2048_ai::ntuple::{parse_tuples, train_game, Learning, NTupleNetwork, TrainConfig};
    /// let mut net = NTupleNetwork::new(parse_tuples("0,1")?);
    /// assert_eq!(net.learning_for(None), Learning::Tc);
    /// train_game(&mut net, &TrainConfig { learning: Learning::Td, ..TrainConfig::default() });
    /// assert_eq!(net.learning_for(None), Learning::Td);
    /// assert_eq!(net.learning_for(Some(Learning::Tc)), Learning::Tc);
    /// # Ok::<(), ai2048_ai::ntuple::TupleError>(())
    /// ```
    #[must_use]
    pub fn learning_for(&self, asked: Option<Learning>) -> Learning {
        asked.or(self.learned_with()).unwrap_or(Learning::Tc)
    }

    /// Keeps the coherence of the weights for `learning`, or drops it; quantized
    /// weights become `f32` again.
    fn prepare(&mut self, learning: Learning) {
        match (learning, self.is_coherent()) {
            (Learning::Tc, false) => {
                let w = self.storage().with_coherence(None);
                self.set_storage(w);
            }
            (Learning::Td, true) => {
                let w = self.storage().without_coherence();
                self.set_storage(w);
            }
            (Learning::Td, false) if self.is_quantized() => {
                let w = self.storage().without_coherence();
                self.set_storage(w);
            }
            _ => {}
        }
    }
}

/// The most restarts one game makes: going back near the start of each stretch would
/// otherwise replay the game for ever.
pub const MAX_RESTARTS: u32 = 64;

/// Restarts (as in TDL2048+ and Jaśkowski 2018): when a game ends, play on again from
/// a position late in it, so the end game, where games are lost, is trained more.
///
/// After the game, training goes back to the afterstate `at` of the way through the
/// moves just played and plays from there to a new end, and again, while the stretch
/// played is at least `min_moves` long (and at most [`MAX_RESTARTS`] times): a game of
/// n moves trains about 2n.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Restart {
    /// Restart only from stretches at least this many moves long.
    pub min_moves: u32,
    /// Where in the stretch to go back to: 0 its start, 1 its end.
    pub at: f32,
}

impl Default for Restart {
    /// Back to the middle, while the stretch has at least 10 moves.
    fn default() -> Restart {
        Restart {
            min_moves: 10,
            at: 0.5,
        }
    }
}

/// How a network learns: TD(0) on afterstates, as in Szubert and Jaśkowski (2014),
/// with plain or temporally coherent steps ([`Learning`]).
///
/// Each game is played by the network itself, one ply deep: it makes the move whose
/// score plus the value of the board it leaves is highest (or, with
/// [`TrainConfig::search`], the move expectimax over the network picks). After each move, the value
/// of the previous afterstate moves `alpha` of the way toward that move's score plus
/// the new afterstate's value; the last afterstate of a game moves toward 0. With
/// [`Learning::Td`] the error is measured against the value the previous afterstate
/// had when its move was chosen, as TDL2048+ does by default: one lookup of the board
/// fewer per move. With [`Learning::Tc`], whose first steps are whole, it is measured
/// against its value now.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TrainConfig {
    /// The learning rate: the share of the error a step corrects, spread over the
    /// weights the board reads.
    pub alpha: f32,
    /// Plain or temporally coherent steps.
    pub learning: Learning,
    /// The seed of the training: game `g` of the network's life is played from
    /// `derive_seed(seed, g)`, so training in parts (and resuming from a saved network)
    /// plays the same games as training at once.
    pub seed: u64,
    /// The rules of the games played.
    pub rules: Rules,
    /// Threads training at once, on one set of weights without locks. With one thread
    /// training is deterministic; with more, steps race, and the network differs from
    /// run to run.
    pub threads: usize,
    /// Whether to play on from late positions of each game ([`Restart`]).
    pub restart: Option<Restart>,
    /// Learn toward the λ-return over this many moves ahead, not the next move alone:
    /// 1 is TD(0). See [`TrainConfig::lambda`].
    pub steps: u32,
    /// With `steps` above 1, how the returns of 1 to `steps` moves ahead weigh:
    /// `(1 - λ) λ^(k-1)` for k moves ahead, the rest on the last (TD(λ) truncated at
    /// `steps` moves, as TDL2048+'s forward TD(λ)). 1 is `steps`-step TD. With
    /// `backward`, the λ of the λ-return over the whole stretch.
    pub lambda: f32,
    /// Learn each stretch of play (a game, or a restart's play to the end) once it
    /// ends, from its last afterstate back to its first, each toward the λ-return
    /// over the rest of the stretch computed with the values just learned (as
    /// ziap/2048-tdl learns): the end of the game, learned first, reaches every
    /// earlier afterstate of it at once. `steps` must then be 1.
    pub backward: bool,
    /// Chance layers the training games search to choose their moves: 0 plays the
    /// network one ply deep (greedy, as TD learning of 2048 does); 1 averages over
    /// every spawn after each move and takes the best reply, as the searching player
    /// does at its shallowest, so the games visit the positions a searching player
    /// reaches (some 20 to 25 times slower a move). Learning is unchanged: each played
    /// afterstate learns toward what followed it.
    pub search: u32,
}

impl Default for TrainConfig {
    /// Temporal coherence with alpha 1, seed 0, the original rules, one thread, no
    /// restarts: what `ai2048 train` starts a new network with, but for the threads.
    fn default() -> TrainConfig {
        TrainConfig {
            alpha: Learning::Tc.default_alpha(),
            learning: Learning::Tc,
            seed: 0,
            rules: Rules::default(),
            threads: 1,
            restart: None,
            steps: 1,
            lambda: 0.0,
            backward: false,
            search: 0,
        }
    }
}

impl TrainConfig {
    /// The most threads a training may run.
    pub const MAX_THREADS: usize = 1024;

    /// The most moves ahead TD(λ) may look ([`TrainConfig::steps`]).
    pub const MAX_STEPS: u32 = 64;

    /// The most chance layers training games may search ([`TrainConfig::search`]).
    pub const MAX_SEARCH: u32 = 2;

    /// Checks the settings: alpha above 0 and at most 1, 1 to
    /// [`TrainConfig::MAX_THREADS`] threads, a restart point above 0 and below 1, 1 to
    /// [`TrainConfig::MAX_STEPS`] steps, λ from 0 to 1, at most
    /// [`TrainConfig::MAX_SEARCH`] chance layers of search, and valid rules.
    ///
    /// # Errors
    ///
    /// The first setting out of its range.
    ///
    /// ```
    /// use ai2048_ai::ntuple::{TrainConfig, TrainConfigError};
    /// assert!(TrainConfig::default().validate().is_ok());
    /// let bad = TrainConfig { alpha: 1.5, ..TrainConfig::default() };
    /// assert_eq!(bad.validate(), Err(TrainConfigError::Alpha(1.5)));
    /// assert_eq!(
    ///     bad.validate().unwrap_err().message("--alpha"),
    ///     "--alpha must be above 0 and at most 1, not 1.5"
    /// );
    /// ```
    pub fn validate(&self) -> Result<(), TrainConfigError> {
        if !(self.alpha.is_finite() && self.alpha > 0.0 && self.alpha <= 1.0) {
            return Err(TrainConfigError::Alpha(self.alpha));
        }
        if !(1..=Self::MAX_THREADS).contains(&self.threads) {
            return Err(TrainConfigError::Threads(self.threads));
        }
        if let Some(r) = self.restart.filter(|r| !(r.at > 0.0 && r.at < 1.0)) {
            return Err(TrainConfigError::Restart(r.at));
        }
        if !(1..=Self::MAX_STEPS).contains(&self.steps) {
            return Err(TrainConfigError::Steps(self.steps));
        }
        if !(0.0..=1.0).contains(&self.lambda) {
            return Err(TrainConfigError::Lambda(self.lambda));
        }
        if self.backward && self.steps != 1 {
            return Err(TrainConfigError::BackwardSteps(self.steps));
        }
        if self.search > Self::MAX_SEARCH {
            return Err(TrainConfigError::Search(self.search));
        }
        self.rules.validate().map_err(TrainConfigError::Rules)
    }
}

/// A [`TrainConfig`] setting out of its range. Its message names the setting as the
/// config's fields do; [`TrainConfigError::message`] names it as a front end's users
/// write it (`--alpha`).
#[derive(Clone, Debug, PartialEq)]
pub enum TrainConfigError {
    /// An alpha that is not above 0 and at most 1.
    Alpha(f32),
    /// A number of threads that is not from 1 to [`TrainConfig::MAX_THREADS`].
    Threads(usize),
    /// A restart point that is not above 0 and below 1.
    Restart(f32),
    /// A number of steps that is not from 1 to [`TrainConfig::MAX_STEPS`].
    Steps(u32),
    /// A λ that is not from 0 to 1.
    Lambda(f32),
    /// Steps above 1 with [`TrainConfig::backward`], which looks to the end of the stretch.
    BackwardSteps(u32),
    /// More chance layers than [`TrainConfig::MAX_SEARCH`].
    Search(u32),
    /// Invalid rules.
    Rules(ai2048_engine::RulesError),
}

impl TrainConfigError {
    /// The setting's name among [`TrainConfig`]'s fields.
    #[must_use]
    pub fn field(&self) -> &'static str {
        match self {
            TrainConfigError::Alpha(_) => "alpha",
            TrainConfigError::Threads(_) => "threads",
            TrainConfigError::Restart(_) => "restart",
            TrainConfigError::Steps(_) => "steps",
            TrainConfigError::Lambda(_) => "lambda",
            TrainConfigError::BackwardSteps(_) => "steps",
            TrainConfigError::Search(_) => "search",
            TrainConfigError::Rules(_) => "rules",
        }
    }

    /// The message, with the setting called `name`.
    #[must_use]
    pub fn message(&self, name: &str) -> String {
        match self {
            TrainConfigError::Alpha(a) => format!("{name} must be above 0 and at most 1, not {a}"),
            TrainConfigError::Threads(n) => format!(
                "{name} must be from 1 to {}, not {n}",
                TrainConfig::MAX_THREADS
            ),
            TrainConfigError::Restart(at) => {
                format!("{name} must be above 0 and below 1, not {at}")
            }
            TrainConfigError::Steps(n) => {
                format!(
                    "{name} must be from 1 to {}, not {n}",
                    TrainConfig::MAX_STEPS
                )
            }
            TrainConfigError::Lambda(l) => format!("{name} must be from 0 to 1, not {l}"),
            TrainConfigError::BackwardSteps(n) => format!(
                "{name} {n}: backward learning looks to the end of each stretch, so it takes no steps"
            ),
            TrainConfigError::Search(n) => format!(
                "{name} must be from 0 to {}, not {n}",
                TrainConfig::MAX_SEARCH
            ),
            TrainConfigError::Rules(e) => format!("invalid {name}: {e}"),
        }
    }
}

impl core::fmt::Display for TrainConfigError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(&self.message(self.field()))
    }
}

impl std::error::Error for TrainConfigError {}

/// What one game of training came to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TrainedGame {
    /// The game's index in the network's life, from 0.
    pub index: u64,
    /// The final score of the game (restarts not counted).
    pub score: u64,
    /// The largest tile of the game (restarts not counted).
    pub max_tile: u32,
    /// The moves of the game (restarts not counted).
    pub moves: u64,
    /// The moves trained on: the game's and its restarts'.
    pub trained_moves: u64,
    /// Where the game started: 0 for a new game, or the carousel stage (from 1) whose
    /// pool gave its first position ([`Carousel`]); its score counts from there.
    pub start_stage: usize,
}

/// The move a network makes one ply deep, and what it leads to.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Afterstate {
    /// The move.
    pub dir: Dir,
    /// The board after the move, before the spawn.
    pub board: RandableBoard,
    /// The move's score.
    pub score: u32,
    /// The network's value of `board`.
    pub value: f32,
    /// The move's score plus the network's value of `board`.
    pub total: f32,
}

/// The move `net` makes on `board` one ply deep: the legal move with the highest score
/// plus value of the afterstate (the first in [`Dir::ALL`] order on a tie). `None` when
/// no move is legal. The afterstates' weights are all asked for first, so that their
/// fetches overlap.
#[must_use]
#[inline]
pub fn best_afterstate(net: &NTupleNetwork, board: PlayableBoard) -> Option<Afterstate> {
    let afters = Dir::ALL.map(|dir| board.apply_scored(dir));
    for (after, _) in afters.iter().flatten() {
        net.prefetch(after.board());
    }
    let mut best: Option<Afterstate> = None;
    for (dir, (after, score)) in Dir::ALL
        .into_iter()
        .zip(afters)
        .filter_map(|(d, a)| Some((d, a?)))
    {
        let value = net.value(after.board());
        let total = score as f32 + value;
        if best.is_none_or(|b| total > b.total) {
            best = Some(Afterstate {
                dir,
                board: after,
                score,
                value,
                total,
            });
        }
    }
    best
}

/// Trains networks as its [`TrainConfig`] says.
///
/// ```
/// use ai2048_ai::ntuple::{parse_tuples, NTupleNetwork, TrainConfig, Trainer};
/// use std::sync::atomic::{AtomicU64, Ordering};
/// let mut net = NTupleNetwork::new(parse_tuples("small")?);
/// let trainer = Trainer::new(TrainConfig { threads: 2, ..TrainConfig::default() });
/// let moves = AtomicU64::new(0);
/// let trained = trainer.train(&mut net, 20, &|| true, &|game| {
///     moves.fetch_add(game.moves, Ordering::Relaxed);
/// });
/// assert_eq!((trained, net.games()), (20, 20));
/// assert!(moves.into_inner() > 20 * 50);
/// # Ok::<(), ai2048_ai::ntuple::TupleError>(())
/// ```
#[derive(Clone)]
pub struct Trainer {
    config: TrainConfig,
    policy: Option<Arc<PolicyFactory>>,
}

/// Makes the player whose moves a training thread plays ([`Trainer::with_policy`]):
/// one player a thread.
pub type PolicyFactory = dyn Fn() -> Box<dyn Player> + Send + Sync;

/// The stream of the seeds of [`player_policy`]'s players, apart from the games'.
const POLICY_STREAM: u64 = 0x0090_11C7;

/// What makes the players of `spec` for [`Trainer::with_policy`], each seeded apart
/// (from `seed`, and how many were made before it), with the spec they are made from
/// (the formation player's, where the default player resolves to it,
/// [`crate::resolve_player`]). One is made here first, so that a bad spec or tables
/// folder is an error before training, not in a training thread.
///
/// ```
/// use ai2048_ai::ntuple::player_policy;
/// let (spec, make) = player_policy(&"greedy:eval=simple".parse()?, 7)?;
/// assert_eq!(spec.to_string(), "greedy:eval=simple");
/// assert_eq!(make().name(), "greedy");
/// assert!(player_policy(&"nope".parse()?, 7).is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
///
/// As [`crate::create_player`]: an unknown player or option, or tables that cannot be
/// opened.
pub fn player_policy(
    spec: &PlayerSpec,
    seed: u64,
) -> Result<(PlayerSpec, Arc<PolicyFactory>), PlayerError> {
    let spec = crate::resolve_player(spec)?.into_owned();
    crate::create_player(&spec, seed)?;
    let made = AtomicU64::new(0);
    let player = spec.clone();
    let make = move || {
        let k = made.fetch_add(1, Ordering::Relaxed);
        crate::create_player(&player, derive_seed(seed ^ POLICY_STREAM, k))
            .expect("made once before from the same spec")
    };
    Ok((spec, Arc::new(make)))
}

impl core::fmt::Debug for Trainer {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Trainer")
            .field("config", &self.config)
            .field("policy", &self.policy.as_ref().map(|_| "a player"))
            .finish()
    }
}

impl Trainer {
    /// A trainer with these settings.
    #[must_use]
    pub fn new(config: TrainConfig) -> Trainer {
        Trainer {
            config,
            policy: None,
        }
    }

    /// The same trainer, whose games play the moves of the players `policy` makes (one
    /// a thread, told of each new game) instead of the network's own: the network then
    /// learns the values of that player's afterstates, the score it goes on to make
    /// from each (TD learning of a fixed policy's values), as a searching player with
    /// endgame tables plays them, say. [`TrainConfig::search`] is then not used: the
    /// player chooses, not the network. A player's own options (its depth, its tables)
    /// say how it plays; it is asked with no limits.
    ///
    /// ```
    /// use std::sync::Arc;
    /// use ai2048_ai::ntuple::{parse_tuples, NTupleNetwork, TrainConfig, Trainer};
    /// use ai2048_ai::create_player;
    ///
    /// let mut net = NTupleNetwork::new(parse_tuples("small")?);
    /// let spec = "expectimax:depth=1,tables=off,eval=lines".parse()?;
    /// let trainer = Trainer::new(TrainConfig::default())
    ///     .with_policy(Arc::new(move || create_player(&spec, 0).expect("a valid spec")));
    /// let trained = trainer.train(&mut net, 2, &|| true, &|game| assert!(game.moves > 100));
    /// assert_eq!(trained, 2);
    /// assert!(net.weights().iter().any(|&w| w != 0.0));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn with_policy(self, policy: Arc<PolicyFactory>) -> Trainer {
        Trainer {
            policy: Some(policy),
            ..self
        }
    }

    /// The settings.
    #[must_use]
    pub fn config(&self) -> &TrainConfig {
        &self.config
    }

    /// Readies `net`'s weights for the learning the settings ask for: keeps each
    /// weight's coherence for [`Learning::Tc`] (a 4x6 network's 256 MiB of weights
    /// become 768 MiB, which takes the system a second or more to hand out), drops it
    /// for [`Learning::Td`], and turns packed weights back into `f32`.
    /// [`Trainer::train`] does it too; a front end that times the training calls it
    /// first, so that the time is the games'.
    ///
    /// ```
    /// use ai2048_ai::ntuple::{parse_tuples, Learning, NTupleNetwork, TrainConfig, Trainer};
    /// let mut net = NTupleNetwork::new(parse_tuples("0,1")?);
    /// Trainer::new(TrainConfig { learning: Learning::Tc, ..TrainConfig::default() })
    ///     .prepare(&mut net);
    /// assert!(net.is_coherent());
    /// # Ok::<(), ai2048_ai::ntuple::TupleError>(())
    /// ```
    pub fn prepare(&self, net: &mut NTupleNetwork) {
        net.prepare(self.config.learning);
    }

    /// Trains `net` on up to `games` more games, the next of its life, on
    /// [`TrainConfig::threads`] threads, and counts them in [`NTupleNetwork::games`].
    ///
    /// Before each game a thread asks `go_on`; once it says no, no game starts, and the
    /// games under way finish. `on_game` hears of each game as it ends, from the thread
    /// that played it. Returns the games trained: those the network's life counts next
    /// are all played, so training can always go on from the network.
    pub fn train(
        &self,
        net: &mut NTupleNetwork,
        games: u64,
        go_on: &(dyn Fn() -> bool + Sync),
        on_game: &(dyn Fn(&TrainedGame) + Sync),
    ) -> u64 {
        self.prepare(net);
        let first = net.games();
        let claimed = AtomicU64::new(0);
        let carousel = net.take_carousel().map(Mutex::new);
        let carousel = carousel.as_ref();
        let work = |net: &NTupleNetwork| {
            let mut worker = Worker::new(net, &self.config, carousel);
            worker.policy = self.policy.as_ref().map(|make| make());
            while go_on() {
                let k = claimed.fetch_add(1, Ordering::Relaxed);
                if k >= games {
                    break;
                }
                on_game(&worker.play(first + k));
            }
        };
        let threads = self.config.threads.max(1);
        if threads == 1 {
            work(net);
        } else {
            let shared: &NTupleNetwork = net;
            std::thread::scope(|scope| {
                for _ in 0..threads {
                    scope.spawn(|| work(shared));
                }
            });
        }
        let trained = claimed.into_inner().min(games);
        net.add_games(trained);
        net.set_carousel(carousel.map(|c| lock(c).clone()));
        trained
    }
}

/// Plays one game with `net` and learns from it, on this thread (see [`TrainConfig`];
/// its `threads` do not matter); counts it in [`NTupleNetwork::games`].
///
/// ```
/// use ai2048_ai::ntuple::{parse_tuples, train_game, NTupleNetwork, TrainConfig};
/// let mut net = NTupleNetwork::new(parse_tuples("small")?);
/// let game = train_game(&mut net, &TrainConfig::default());
/// assert_eq!((game.index, net.games()), (0, 1));
/// assert!(game.moves > 0 && net.weights().iter().any(|&w| w != 0.0));
/// # Ok::<(), ai2048_ai::ntuple::TupleError>(())
/// ```
pub fn train_game(net: &mut NTupleNetwork, config: &TrainConfig) -> TrainedGame {
    let trainer = Trainer::new(TrainConfig {
        threads: 1,
        ..*config
    });
    let mut played = None;
    let slot = std::sync::Mutex::new(&mut played);
    trainer.train(net, 1, &|| true, &|game| {
        **slot.lock().expect("one thread") = Some(*game);
    });
    played.expect("one game is always played")
}

impl Worker<'_> {
    /// Moves the value of the afterstate `board`, `estimate` when its move was chosen,
    /// toward `target`. TD measures the error against `estimate`, as TDL2048+ does by
    /// default, which saves a lookup of the board. TC measures it against the value
    /// now: its first steps are whole (alpha 1), so the step the previous afterstate
    /// took, which shares many weights with this one, has moved this value far.
    #[inline]
    fn learn(&self, board: ai2048_engine::Board, estimate: f32, target: f32) {
        let now = match self.config.learning {
            Learning::Td => estimate,
            Learning::Tc => self.net.value(board),
        };
        self.net.step(board, self.rate(board) * (target - now));
    }

    /// The share of the error each weight `board` reads moves by: alpha over the
    /// lookups of its stage (stages of a mixed network read other numbers of tuples).
    #[inline]
    fn rate(&self, board: ai2048_engine::Board) -> f32 {
        self.config.alpha / self.net.features_at(board) as f32
    }
}

/// The carousel, even if a thread panicked holding it (its pools stay valid).
fn lock(carousel: &Mutex<Carousel>) -> std::sync::MutexGuard<'_, Carousel> {
    carousel.lock().unwrap_or_else(PoisonError::into_inner)
}

/// The state of one training thread.
struct Worker<'a> {
    net: &'a NTupleNetwork,
    config: &'a TrainConfig,
    /// The carousel the games start from and feed, with its stages (read without
    /// the lock), and the stage the stretch being played has reached.
    carousel: Option<(&'a Mutex<Carousel>, Stages)>,
    reached: usize,
    /// The stage entries of the game being played, for the carousel's pools.
    entries: Vec<(usize, ai2048_engine::Board)>,
    /// The afterstates of the stretch being played, when restarting.
    path: Vec<RandableBoard>,
    /// The afterstates not yet learned (see [`Worker::stretch`]).
    pending: std::collections::VecDeque<(RandableBoard, f32, u32)>,
    /// With [`TrainConfig::backward`], the stretch's afterstates, each with the score
    /// of the move that led to it.
    episode: Vec<(RandableBoard, u32)>,
    /// The player whose moves the games play, if not the network's own
    /// ([`Trainer::with_policy`]).
    policy: Option<Box<dyn Player>>,
}

/// How a stretch of play ended.
struct Stretch {
    score: u64,
    moves: u64,
    last: PlayableBoard,
}

impl<'a> Worker<'a> {
    fn new(
        net: &'a NTupleNetwork,
        config: &'a TrainConfig,
        carousel: Option<&'a Mutex<Carousel>>,
    ) -> Worker<'a> {
        Worker {
            net,
            config,
            carousel: carousel.map(|c| (c, lock(c).stages().clone())),
            reached: 0,
            entries: Vec::new(),
            path: Vec::new(),
            pending: std::collections::VecDeque::new(),
            episode: Vec::new(),
            policy: None,
        }
    }

    /// Plays and learns game `index` of the network's life, with its restarts.
    fn play(&mut self, index: u64) -> TrainedGame {
        let rules = self.config.rules;
        let seed = derive_seed(self.config.seed, index);
        let mut rng = Rng::new(seed);
        let mut pick = Rng::new(derive_seed(seed, CAROUSEL_STREAM));
        let start = self
            .carousel
            .as_ref()
            .and_then(|(c, _)| lock(c).start(index, &mut pick));
        let board = match start {
            Some((_, board)) => PlayableBoard::new(board),
            None => PlayableBoard::init(&mut rng, rules.start_tiles, rules.four_probability),
        };
        self.path.clear();
        self.entries.clear();
        if let Some(policy) = &mut self.policy {
            policy.new_game();
        }
        let game = self.stretch(board, None, &mut rng);
        let mut trained_moves = game.moves;
        if let Some(restart) = self.config.restart {
            let mut restarts = 0;
            while self.path.len() >= restart.min_moves.max(1) as usize && restarts < MAX_RESTARTS {
                restarts += 1;
                let at = ((self.path.len() - 1) as f32 * restart.at.clamp(0.0, 1.0)) as usize;
                let from = self.path[at];
                self.path.clear();
                let value = self.net.value(from.board());
                let (board, _) = from.with_random_tile(&mut rng, rules.four_probability);
                trained_moves += self.stretch(board, Some((from, value)), &mut rng).moves;
            }
        }
        if let Some((carousel, _)) = &self.carousel {
            let mut carousel = lock(carousel);
            for &(stage, board) in &self.entries {
                carousel.enter(stage, board, &mut pick);
            }
        }
        TrainedGame {
            index,
            score: game.score,
            max_tile: game.last.board().max_tile(),
            moves: game.moves,
            trained_moves,
            start_stage: start.map_or(0, |(stage, _)| stage),
        }
    }

    /// Plays from `board` to the end of the game, learning after every move (or, with
    /// [`TrainConfig::backward`], once it ends).
    /// `previous` is the afterstate that led to `board` and its value, when there is
    /// one to learn.
    fn stretch(
        &mut self,
        mut board: PlayableBoard,
        previous: Option<(RandableBoard, f32)>,
        rng: &mut Rng,
    ) -> Stretch {
        let p4 = self.config.rules.four_probability;
        let keep_path = self.config.restart.is_some();
        let backward = self.config.backward;
        let steps = self.config.steps.max(1) as usize;
        // The afterstates still to learn, oldest first, each with its value when its
        // move was chosen and the score of the move that followed it (0 until then).
        self.pending.clear();
        self.episode.clear();
        if let Some((prev, value)) = previous {
            if backward {
                self.episode.push((prev, 0));
            } else {
                self.pending.push_back((prev, value, 0));
            }
        }
        let (mut score, mut moves) = (0u64, 0u64);
        if let Some((_, stages)) = &self.carousel {
            self.reached = stages.of(board.board());
        }
        loop {
            let best = match (&mut self.policy, self.config.search) {
                (Some(policy), _) => {
                    let dir = policy.search(board.board(), &SearchLimits::default()).dir;
                    dir.and_then(|d| board.apply_scored(d))
                        .map(|(after, gained)| (after, gained, self.net.value(after.board())))
                }
                (None, 0) => best_afterstate(self.net, board).map(|a| (a.board, a.score, a.value)),
                (None, depth) => self.searched(board, depth),
            };
            let Some((after, gained, value)) = best else {
                break;
            };
            if backward {
                self.episode.push((after, gained));
            } else {
                self.learn_forward(after, gained, value, steps);
            }
            if keep_path {
                self.path.push(after);
            }
            score += u64::from(gained);
            moves += 1;
            board = after.with_random_tile(rng, p4).0;
            if let Some((_, stages)) = &self.carousel {
                if let Some(stage) = stages.entered(board.board(), self.reached) {
                    self.reached = stage;
                    self.entries.push((stage, board.board()));
                }
            }
        }
        if backward {
            self.learn_backward();
        }
        // The game is over: what is still pending learns toward the scores to the end.
        while !self.pending.is_empty() {
            let target = self.lambda_return(None);
            let (oldest, estimate, _) = self.pending.pop_front().expect("not empty");
            self.learn(oldest.board(), estimate, target);
        }
        Stretch {
            score,
            moves,
            last: board,
        }
    }

    /// The move `depth` chance layers of expectimax choose on `board` (the first in
    /// [`Dir::ALL`] order on a tie), with its afterstate, score and value; `None` when
    /// no move is legal.
    fn searched(&self, board: PlayableBoard, depth: u32) -> Option<(RandableBoard, u32, f32)> {
        let mut best: Option<(RandableBoard, u32, f32)> = None;
        let mut best_total = f32::NEG_INFINITY;
        for (after, gained) in Dir::ALL.into_iter().filter_map(|d| board.apply_scored(d)) {
            let total = gained as f32 + self.expected(after, depth);
            if best.is_none() || total > best_total {
                best = Some((after, gained, self.net.value(after.board())));
                best_total = total;
            }
        }
        best
    }

    /// The value of the afterstate `after` searched `depth` chance layers deep: the
    /// network's value at depth 0, else the mean over every spawn of its best move's
    /// score and value (0 where no move is left).
    fn expected(&self, after: RandableBoard, depth: u32) -> f32 {
        if depth == 0 {
            return self.net.value(after.board());
        }
        let p4 = self.config.rules.four_probability;
        let mut sum = 0.0;
        for (p, next) in after.successors(p4) {
            let best = Dir::ALL
                .into_iter()
                .filter_map(|d| next.apply_scored(d))
                .map(|(reply, gained)| gained as f32 + self.expected(reply, depth - 1))
                .reduce(f32::max);
            sum += p as f32 * best.unwrap_or(0.0);
        }
        sum
    }

    /// Forward TD: `after`, just reached by a move scoring `gained`, valued `value`,
    /// completes the return of the oldest pending afterstate once `steps` are pending.
    fn learn_forward(&mut self, after: RandableBoard, gained: u32, value: f32, steps: usize) {
        if let Some(last) = self.pending.back_mut() {
            last.2 = gained;
        }
        if self.pending.len() == steps {
            let target = self.lambda_return(Some(value));
            let (oldest, estimate, _) = self.pending.pop_front().expect("full");
            self.learn(oldest.board(), estimate, target);
        }
        self.pending.push_back((after, value, 0));
    }

    /// Backward TD(λ) over the stretch just played ([`TrainConfig::backward`]): from its
    /// last afterstate, whose target is 0, back to its first. Each afterstate moves
    /// toward the λ-return of the afterstates after it, `r + λ G + (1 - λ) V`, where
    /// `r` is the score of the move that followed it and `V` the next afterstate's
    /// value as just learned.
    fn learn_backward(&mut self) {
        let lambda = self.config.lambda;
        let mut target = 0.0;
        for (k, &(after, gained)) in self.episode.iter().enumerate().rev() {
            // The next afterstate to learn: its weights are fetched while this one learns.
            if let Some((before, _)) = k.checked_sub(1).map(|j| self.episode[j]) {
                self.net.prefetch(before.board());
            }
            let board = after.board();
            let learned = self
                .net
                .step_value(board, self.rate(board) * (target - self.net.value(board)));
            target = gained as f32 + lambda * target + (1.0 - lambda) * learned;
        }
        self.episode.clear();
    }

    /// The target of the oldest pending afterstate: with one step, the next move's
    /// score plus `next`, the value of the afterstate it led to (`None` when the game
    /// is over, worth 0). With more, the λ-return over the pending afterstates: the
    /// return k moves ahead is the scores of those k moves plus the value of the
    /// afterstate they reach.
    fn lambda_return(&self, next: Option<f32>) -> f32 {
        let lambda = self.config.lambda;
        let n = self.pending.len();
        let mut rewards = 0.0;
        let mut target = 0.0;
        let mut weight = 1.0;
        for k in 1..=n {
            rewards += self.pending[k - 1].2 as f32;
            // The value k moves ahead: a pending afterstate's, or at the end `next`.
            let ahead = if k < n { Some(self.pending[k].1) } else { next };
            let ret = rewards + ahead.unwrap_or(0.0);
            if k == n {
                target += weight * ret;
            } else {
                target += weight * (1.0 - lambda) * ret;
                weight *= lambda;
            }
        }
        target
    }
}
