//! Temporal-difference learning of a network's afterstate values, by self-play.

use ai2048_engine::rng::derive_seed;
use ai2048_engine::{Board, Dir, PlayableBoard, RandableBoard, Rng, Rules};

use super::NTupleNetwork;

/// How the weights move toward their targets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Learning {
    /// Every weight a board reads moves by its share of `alpha` × the error.
    Td,
    /// Temporal coherence (Jaśkowski 2018): each weight's step is also scaled by its
    /// own coherence, |sum of its errors| / sum of their magnitudes, so weights whose
    /// errors cancel out settle (see [`NTupleNetwork::learn_coherent`]).
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

impl NTupleNetwork {
    /// How the network has learned so far: with temporal coherence once it keeps
    /// coherence, plainly once it has trained without; `None` for a new network.
    #[must_use]
    pub fn learned_with(&self) -> Option<Learning> {
        match (self.coherence().is_some(), self.games()) {
            (true, _) => Some(Learning::Tc),
            (false, 0) => None,
            (false, _) => Some(Learning::Td),
        }
    }

    /// The learning to go on with when `asked` (or nothing) is asked for: the network's
    /// own once it has learned ([`NTupleNetwork::learned_with`]), else `asked`, else
    /// [`Learning::Tc`].
    ///
    /// # Errors
    ///
    /// When `asked` is not how the network has learned: the message says how it has.
    ///
    /// ```
    /// use ai2048_ai::ntuple::{parse_tuples, train_game, Learning, NTupleNetwork, TdConfig};
    /// let mut net = NTupleNetwork::new(parse_tuples("0,1")?);
    /// assert_eq!(net.learning_for(None), Ok(Learning::Tc));
    /// train_game(&mut net, &TdConfig { learning: Learning::Td, ..TdConfig::default() });
    /// assert_eq!(net.learning_for(None), Ok(Learning::Td));
    /// assert!(net.learning_for(Some(Learning::Tc)).is_err());
    /// # Ok::<(), ai2048_ai::ntuple::TupleError>(())
    /// ```
    pub fn learning_for(&self, asked: Option<Learning>) -> Result<Learning, String> {
        match (asked, self.learned_with()) {
            (Some(asked), Some(kept)) if asked != kept => Err(format!(
                "the network has learned with {}; go on with it",
                kept.name()
            )),
            (_, Some(kept)) => Ok(kept),
            (asked, None) => Ok(asked.unwrap_or(Learning::Tc)),
        }
    }
}

impl core::str::FromStr for Learning {
    type Err = String;

    fn from_str(s: &str) -> Result<Learning, String> {
        match s {
            "td" => Ok(Learning::Td),
            "tc" => Ok(Learning::Tc),
            other => Err(format!("unknown learning {other:?}: expected td or tc")),
        }
    }
}

/// How a network learns: TD(0) on afterstates, as in Szubert and Jaśkowski (2014),
/// with plain or temporally coherent steps ([`Learning`]).
///
/// Each game is played by the network itself, one ply deep: it makes the move whose
/// score plus the value of the board it leaves is highest. After each move, the value
/// of the previous afterstate moves `alpha` of the way toward that move's score plus
/// the new afterstate's value; the last afterstate of a game moves toward 0.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TdConfig {
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
}

impl Default for TdConfig {
    /// Temporal coherence with alpha 1, seed 0, the original rules: what `ai2048 train`
    /// starts a new network with.
    fn default() -> TdConfig {
        TdConfig {
            alpha: Learning::Tc.default_alpha(),
            learning: Learning::Tc,
            seed: 0,
            rules: Rules::default(),
        }
    }
}

/// What one game of training came to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TrainedGame {
    /// The game's index in the network's life, from 0.
    pub index: u64,
    /// The final score.
    pub score: u64,
    /// The largest tile.
    pub max_tile: u32,
    /// The moves played.
    pub moves: u64,
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
    /// The move's score plus the network's value of `board`.
    pub total: f32,
}

/// The move `net` makes on `board` one ply deep: the legal move with the highest score
/// plus value of the afterstate (the first in [`Dir::ALL`] order on a tie). `None` when
/// no move is legal.
#[must_use]
pub fn best_afterstate(net: &NTupleNetwork, board: PlayableBoard) -> Option<Afterstate> {
    let mut best: Option<Afterstate> = None;
    for dir in Dir::ALL {
        if let Some((after, score)) = board.apply_scored(dir) {
            let total = score as f32 + net.value(after.board());
            if best.map_or(true, |b| total > b.total) {
                best = Some(Afterstate {
                    dir,
                    board: after,
                    score,
                    total,
                });
            }
        }
    }
    best
}

/// Plays one game with `net` and learns from it (see [`TdConfig`]); counts it in
/// [`NTupleNetwork::games`].
///
/// ```
/// use ai2048_ai::ntuple::{parse_tuples, train_game, NTupleNetwork, TdConfig};
/// let mut net = NTupleNetwork::new(parse_tuples("small")?);
/// let game = train_game(&mut net, &TdConfig::default());
/// assert_eq!((game.index, net.games()), (0, 1));
/// assert!(game.moves > 0 && net.weights().iter().any(|&w| w != 0.0));
/// # Ok::<(), ai2048_ai::ntuple::TupleError>(())
/// ```
pub fn train_game(net: &mut NTupleNetwork, config: &TdConfig) -> TrainedGame {
    let index = net.games();
    let rules = config.rules;
    let mut rng = Rng::new(derive_seed(config.seed, index));
    let mut board = PlayableBoard::init(&mut rng, rules.start_tiles, rules.four_probability);
    let mut previous: Option<Board> = None;
    let (mut score, mut moves) = (0u64, 0u64);
    while let Some(next) = best_afterstate(net, board) {
        if let Some(prev) = previous {
            learn(net, config, prev, next.total);
        }
        previous = Some(next.board.board());
        score += u64::from(next.score);
        moves += 1;
        board = next
            .board
            .with_random_tile(&mut rng, rules.four_probability)
            .0;
    }
    if let Some(prev) = previous {
        learn(net, config, prev, 0.0);
    }
    net.count_game();
    TrainedGame {
        index,
        score,
        max_tile: board.board().max_tile(),
        moves,
    }
}

/// Moves the value of `board` toward `target`, as `config` says.
fn learn(net: &mut NTupleNetwork, config: &TdConfig, board: Board, target: f32) {
    let error = target - net.value(board);
    match config.learning {
        Learning::Td => net.learn(board, config.alpha * error),
        Learning::Tc => net.learn_coherent(board, config.alpha, error),
    }
}
