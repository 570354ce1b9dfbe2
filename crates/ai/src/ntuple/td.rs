//! Temporal-difference learning of a network's afterstate values, by self-play.

use ai2048_engine::rng::derive_seed;
use ai2048_engine::{Board, Dir, PlayableBoard, RandableBoard, Rng, Rules};

use super::NTupleNetwork;

/// How a network learns: TD(0) on afterstates, as in Szubert and Jaśkowski (2014).
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
    /// The seed of the training: game `g` of the network's life is played from
    /// `derive_seed(seed, g)`, so training in parts (and resuming from a saved network)
    /// plays the same games as training at once.
    pub seed: u64,
    /// The rules of the games played.
    pub rules: Rules,
}

impl Default for TdConfig {
    /// Alpha 0.1, seed 0, the original rules.
    fn default() -> TdConfig {
        TdConfig {
            alpha: 0.1,
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
            let error = next.total - net.value(prev);
            net.learn(prev, config.alpha * error);
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
        let error = -net.value(prev);
        net.learn(prev, config.alpha * error);
    }
    net.count_game();
    TrainedGame {
        index,
        score,
        max_tile: board.board().max_tile(),
        moves,
    }
}
