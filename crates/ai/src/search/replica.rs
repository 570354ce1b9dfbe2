//! The AI of the seeds' React replica of 2048 ("2048 Game & AI"), as its README
//! describes it: a game tree generated breadth-first down to its leaves, a few moves
//! ahead; each first move scored by the expected Cobb-Douglas utility of the leaves
//! under it, weighted by the log of how many they are; the probability of a 4 learned
//! from the spawns seen, by a Beta-Bernoulli estimate.

use web_time::Instant;

use ai2048_engine::{Board, Dir};

use super::spawn_model::SpawnModel;
use crate::eval::{CobbDouglas, Evaluator};
use crate::{Player, SearchLimits, SearchResult};

/// Boards generated between two looks at the clock.
const CHECK_INTERVAL: usize = 4096;

/// The settings of [`Replica`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ReplicaConfig {
    /// Moves ahead, each followed by every spawn, when the limits give no depth (see
    /// [`Replica`]): from 0 (greedy on the utility) to [`Replica::MAX_DEPTH`].
    pub depth: u32,
    /// The most leaves: the tree grows one more level only when that level holds at
    /// most this many boards (the first level, at most 120 boards, always grows).
    pub max_leaves: usize,
    /// The Beta prior of the probability of a 4, as (α, β): α pseudo-observations of a
    /// 4 and β of a 2 (see [`SpawnModel`]). A prior that is not two finite numbers
    /// above 0 is replaced by [`SpawnModel::DEFAULT_PRIOR`].
    pub prior: (f64, f64),
    /// The utility of a leaf: the Cobb-Douglas product of the four heuristics.
    pub utility: CobbDouglas,
}

impl Default for ReplicaConfig {
    /// Three moves ahead, at most [`Replica::DEFAULT_MAX_LEAVES`] leaves, the prior
    /// Beta(1, 9) (mean 0.1, worth ten spawns) and the default exponents.
    fn default() -> ReplicaConfig {
        ReplicaConfig {
            depth: Replica::DEFAULT_DEPTH,
            max_leaves: Replica::DEFAULT_MAX_LEAVES,
            prior: SpawnModel::DEFAULT_PRIOR,
            utility: CobbDouglas::default(),
        }
    }
}

/// A board of the tree: which root move it descends from, and its probability.
#[derive(Clone, Copy, Debug)]
struct Node {
    board: Board,
    /// The probability of this board given its root move: each spawn as likely as the
    /// game makes it, each later move one of the legal ones at random.
    weight: f64,
    /// The index of the root move.
    first: u8,
}

/// The React replica's player (the seeds' "2048 Game & AI").
///
/// # Search
///
/// From the board, the tree is generated breadth-first, level by level: each level
/// holds the boards after one more move and its spawn, branching on every legal move
/// and on a 2 and a 4 in every empty cell after it. Only the last level is kept: its
/// boards are the leaves. A board with no legal move stays in the tree as a leaf, lost.
/// Depth `d` stops after `d` moves and spawns; depth 0 evaluates the boards right after
/// each move (greedy on the utility). Depth counts spawn layers below the root move,
/// as for the other players ([`SearchLimits::depth`]), but the leaves are the boards
/// after the last spawn.
///
/// The tree is bounded by its depth and by [`ReplicaConfig::max_leaves`]: it grows one
/// more level only when that level holds at most that many boards (the next level is
/// counted before it is generated), so early in a game, with many empty cells, it stops
/// shallower. A time budget ([`SearchLimits::time`]) abandons the level being generated
/// and keeps the last whole one; a node limit ([`SearchLimits::nodes`]) caps the leaves
/// as `max_leaves` does. The game clock ([`SearchLimits::clock`]) is ignored.
///
/// # Value
///
/// Each root move's value is its leaves' expected utility times `ln(1 + n)`, `n` the
/// number of its leaves, which favours moves that keep more ways to go on. The
/// expectation weighs each leaf by its probability given the root move: each spawn by
/// its probability (the learned probability of its tile over the empty cells), each
/// later move as one of the legal moves at random. The utility is
/// [`ReplicaConfig::utility`], in [0, 1]; a lost leaf is worth 0.
///
/// # Spawns
///
/// The probability of a 4 is a Beta-Bernoulli posterior mean ([`SpawnModel`]): the
/// player remembers the board it left (the board after its move) and reads the spawn
/// from the board it is given next. [`Player::new_game`] forgets what was learned.
///
/// The search draws nothing at random: the same board after the same boards gives
/// the same move. `nodes` counts board moves (`shift` calls) and leaves evaluated.
///
/// ```
/// use ai2048_ai::search::{Replica, ReplicaConfig};
/// use ai2048_ai::{Player, SearchLimits};
/// use ai2048_engine::{Board, Dir};
///
/// let mut ai = Replica::new(ReplicaConfig::default());
/// let board: Board = "2 4 8 16/0 0 0 32/0 0 0 0/0 0 0 2".parse()?;
/// let result = ai.search(board, &SearchLimits::with_depth(2));
/// assert!(board.can_move(result.dir.unwrap()));
/// assert_eq!(result.depth, 2);
///
/// let lost: Board = "2 4 2 4/4 2 4 2/2 4 2 4/4 2 4 2".parse()?;
/// assert_eq!(ai.search(lost, &SearchLimits::default()).dir, None);
/// # Ok::<(), ai2048_engine::ParseBoardError>(())
/// ```
#[derive(Clone, Debug)]
pub struct Replica {
    config: ReplicaConfig,
    spawns: SpawnModel,
}

impl Replica {
    /// The depth searched when neither the limits nor the config give one.
    pub const DEFAULT_DEPTH: u32 = 3;

    /// The deepest search: each level multiplies the boards by up to 120.
    pub const MAX_DEPTH: u32 = 5;

    /// The default [`ReplicaConfig::max_leaves`].
    pub const DEFAULT_MAX_LEAVES: usize = 20_000;

    /// A replica player with `config`.
    ///
    /// ```
    /// use ai2048_ai::search::{Replica, ReplicaConfig};
    /// let ai = Replica::new(ReplicaConfig { prior: (2.0, 18.0), ..ReplicaConfig::default() });
    /// assert!((ai.four_probability() - 0.1).abs() < 1e-12);
    /// ```
    #[must_use]
    pub fn new(config: ReplicaConfig) -> Replica {
        let (alpha, beta) = config.prior;
        let spawns = SpawnModel::with_prior(alpha, beta).unwrap_or_default();
        Replica {
            config: ReplicaConfig {
                prior: spawns.prior(),
                ..config
            },
            spawns,
        }
    }

    /// The settings.
    #[must_use]
    pub fn config(&self) -> &ReplicaConfig {
        &self.config
    }

    /// What the spawns seen in this game say of the probability of a 4.
    #[must_use]
    pub fn spawn_model(&self) -> &SpawnModel {
        &self.spawns
    }

    /// The probability of a 4 the next search assumes, before it reads the spawn on
    /// the board it is given: the posterior mean of [`Replica::spawn_model`].
    #[must_use]
    pub fn four_probability(&self) -> f64 {
        self.spawns.four_probability()
    }
}

/// One search: the tree's bounds and what it has cost.
struct Search<'a> {
    utility: &'a CobbDouglas,
    p4: f64,
    deadline: Option<Instant>,
    nodes: u64,
}

impl Search<'_> {
    /// The boards after every legal move of `board`.
    fn moves(&mut self, board: Board) -> ([Board; 4], usize) {
        let mut out = [Board::EMPTY; 4];
        let mut n = 0;
        for dir in Dir::ALL {
            let next = board.shift(dir);
            self.nodes += 1;
            if next != board {
                out[n] = next;
                n += 1;
            }
        }
        (out, n)
    }

    /// Pushes the boards after every spawn on `after` (a 2 and a 4 in each empty cell,
    /// in reading order), each weighing `weight` times the spawn's probability.
    fn spawns(&self, after: Board, weight: f64, first: u8, out: &mut Vec<Node>) {
        let mut empty = after.empty_mask();
        let per_cell = weight / f64::from(empty.count_ones().max(1));
        while empty != 0 {
            let cell = empty.leading_zeros() as usize;
            empty &= !(0x8000 >> cell);
            for (exponent, p) in [(1, 1.0 - self.p4), (2, self.p4)] {
                out.push(Node {
                    board: after.with_exponent(cell, exponent),
                    weight: per_cell * p,
                    first,
                });
            }
        }
    }

    /// How many boards the level after `level` holds: two per empty cell after each
    /// legal move, and a lost board stays as it is.
    fn next_size(&mut self, level: &[Node]) -> usize {
        level
            .iter()
            .map(|node| {
                let (moves, n) = self.moves(node.board);
                let spawns: u32 = moves[..n].iter().map(|b| 2 * b.empty_count()).sum();
                if n == 0 {
                    1
                } else {
                    spawns as usize
                }
            })
            .sum()
    }

    /// The level after `level`, or `None` when the time ran out.
    fn expand(&mut self, level: &[Node], size: usize) -> Option<Vec<Node>> {
        let mut next = Vec::with_capacity(size);
        let mut check = CHECK_INTERVAL;
        for node in level {
            let (moves, n) = self.moves(node.board);
            if n == 0 {
                next.push(*node);
            }
            for &after in &moves[..n] {
                self.spawns(after, node.weight / n as f64, node.first, &mut next);
            }
            if next.len() >= check {
                check = next.len() + CHECK_INTERVAL;
                if self.deadline.is_some_and(|d| Instant::now() >= d) {
                    return None;
                }
            }
        }
        Some(next)
    }

    /// Each root move's value from the leaves: the expected utility times
    /// `ln(1 + leaves)`.
    fn values(&mut self, leaves: &[Node]) -> [Option<f64>; 4] {
        let mut sums = [(0.0f64, 0.0f64, 0u64); 4];
        for leaf in leaves {
            let u = if leaf.board.is_over() {
                self.utility.lost(leaf.board)
            } else {
                self.utility.eval(leaf.board)
            };
            let s = &mut sums[usize::from(leaf.first)];
            s.0 += leaf.weight * u;
            s.1 += leaf.weight;
            s.2 += 1;
        }
        self.nodes += leaves.len() as u64;
        sums.map(|(wu, w, n)| {
            (n > 0).then(|| {
                let expected = if w > 0.0 { wu / w } else { 0.0 };
                expected * (n as f64).ln_1p()
            })
        })
    }
}

impl Player for Replica {
    fn name(&self) -> &str {
        "replica"
    }

    fn new_game(&mut self) {
        self.spawns.reset();
    }

    fn search(&mut self, board: Board, limits: &SearchLimits) -> SearchResult {
        self.spawns.on_board(board);
        let depth = limits
            .depth
            .unwrap_or(self.config.depth)
            .min(Replica::MAX_DEPTH);
        let max_leaves = limits.nodes.map_or(self.config.max_leaves, |n| {
            self.config
                .max_leaves
                .min(usize::try_from(n).unwrap_or(usize::MAX))
        });
        let mut search = Search {
            utility: &self.config.utility,
            p4: self.spawns.four_probability(),
            deadline: limits.time.map(|t| Instant::now() + t),
            nodes: 0,
        };
        let mut level = Vec::new();
        for dir in Dir::ALL {
            let after = board.shift(dir);
            search.nodes += 1;
            if after == board {
                continue;
            }
            let first = dir.index() as u8;
            if depth == 0 {
                level.push(Node {
                    board: after,
                    weight: 1.0,
                    first,
                });
            } else {
                search.spawns(after, 1.0, first, &mut level);
            }
        }
        let mut reached = depth.min(1);
        while reached < depth && !level.is_empty() {
            let size = search.next_size(&level);
            if size > max_leaves {
                break;
            }
            match search.expand(&level, size) {
                Some(next) => level = next,
                None => break,
            }
            reached += 1;
        }
        let values = search.values(&level);
        let result = SearchResult::from_values(values, reached, search.nodes);
        if let Some(dir) = result.dir {
            self.spawns.before_move(board.shift(dir));
        }
        result
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ai2048_engine::{Game, Rules};

    fn board(text: &str) -> Board {
        text.parse().expect("a board")
    }

    /// Plays `moves` moves of a game under `rules`, the player choosing, and returns
    /// the player.
    fn play(mut player: Replica, rules: Rules, moves: usize) -> Replica {
        let mut game = Game::new(5, rules).expect("rules");
        for _ in 0..moves {
            let dir = player
                .search(game.board(), &SearchLimits::with_depth(1))
                .dir
                .expect("a move early in a game");
            game.play(dir);
        }
        // The last spawn is read by the next search.
        player.search(game.board(), &SearchLimits::with_depth(0));
        player
    }

    #[test]
    fn the_estimate_of_p4_is_the_beta_posterior_mean() {
        let always = |p| Rules {
            four_probability: p,
            ..Rules::default()
        };
        // Every spawn a 4: after k spawns, (1 + k) / (1 + 9 + k).
        let fours = play(Replica::new(ReplicaConfig::default()), always(1.0), 12);
        assert_eq!(fours.spawn_model().fours(), 12);
        assert_eq!(fours.spawn_model().twos(), 0);
        assert!((fours.four_probability() - 13.0 / 22.0).abs() < 1e-12);
        // Every spawn a 2, under the prior Beta(3, 5): 3 / (3 + 5 + k).
        let config = ReplicaConfig {
            prior: (3.0, 5.0),
            ..ReplicaConfig::default()
        };
        let mut twos = play(Replica::new(config), always(0.0), 20);
        assert_eq!(twos.spawn_model().twos(), 20);
        assert!((twos.four_probability() - 3.0 / 28.0).abs() < 1e-12);
        // A new game forgets the spawns, not the prior.
        twos.new_game();
        assert_eq!(twos.spawn_model().observations(), 0);
        assert!((twos.four_probability() - 3.0 / 8.0).abs() < 1e-12);
        // A prior that is no prior falls back to the default.
        let bad = Replica::new(ReplicaConfig {
            prior: (0.0, f64::NAN),
            ..ReplicaConfig::default()
        });
        assert_eq!(bad.config().prior, SpawnModel::DEFAULT_PRIOR);
    }

    #[test]
    fn the_utility_is_zero_with_a_heuristic_at_zero_and_lost_leaves_count_zero() {
        let utility = CobbDouglas::default();
        // Every row rises as much as it falls, every column is flat: monotonicity 0.
        let flat = board("2 4 4 2/2 4 4 2/2 4 4 2/2 4 4 2");
        assert_eq!(crate::eval::Heuristics::of(flat).monotonicity, 0.0);
        let u = utility.eval(flat);
        assert!((0.0..=1e-18).contains(&u), "{u}");
        // The search values a lost leaf at 0: after left, every spawn loses; after
        // right, none does.
        let doomed = board("2 4 2 4/4 2 4 2/2 4 2 8/4 8 16 16");
        let mut ai = Replica::new(ReplicaConfig::default());
        let result = ai.search(doomed, &SearchLimits::with_depth(1));
        assert_eq!(result.dir, Some(Dir::Right));
        assert_eq!(result.dir_values[Dir::Left.index()], Some(0.0));
        assert!(result.dir_values[Dir::Right.index()] > Some(0.0));
    }

    #[test]
    fn values_are_the_expected_utility_times_the_log_of_the_leaves() {
        // Right (or left) leaves one empty cell: two leaves, a 2 and a 4.
        let b = board("4 8 4 8/8 4 8 4/4 8 4 8/8 4 2 2");
        let mut ai = Replica::new(ReplicaConfig::default());
        let result = ai.search(b, &SearchLimits::with_depth(1));
        let after = b.shift(Dir::Right);
        let u = CobbDouglas::default();
        let leaf = |e| after.with_exponent(12, e);
        let value = |b: Board| if b.is_over() { 0.0 } else { u.eval(b) };
        let expected = (0.9 * value(leaf(1)) + 0.1 * value(leaf(2))) * 3f64.ln();
        let got = result.dir_values[Dir::Right.index()].expect("right is legal");
        assert!((got - expected).abs() < 1e-12, "{got} vs {expected}");
        assert_eq!(result.dir_values[Dir::Up.index()], None);
    }

    #[test]
    fn it_merges_the_big_tiles() {
        // Left or right makes a 2048 and keeps the row in order.
        let b = board("1024 1024 256 64/4 16 2 8/0 0 0 0/0 0 0 0");
        let mut ai = Replica::new(ReplicaConfig::default());
        let dir = ai.search(b, &SearchLimits::default()).dir;
        assert!(matches!(dir, Some(Dir::Left | Dir::Right)), "{dir:?}");
    }

    #[test]
    fn the_same_board_gives_the_same_move() {
        let b = board("2 4 8 16/0 2 0 32/0 0 4 0/2 0 0 0");
        let a = Replica::new(ReplicaConfig::default()).search(b, &SearchLimits::default());
        let again = Replica::new(ReplicaConfig::default()).search(b, &SearchLimits::default());
        assert_eq!(a, again);
        assert!(a.dir.is_some());
    }

    #[test]
    fn the_leaf_cap_and_the_clock_stop_the_tree() {
        let b = board("2 0 0 0/0 0 0 0/0 0 0 0/0 0 0 2");
        let mut ai = Replica::new(ReplicaConfig {
            max_leaves: 1000,
            ..ReplicaConfig::default()
        });
        // The second level of this board holds thousands of boards.
        let capped = ai.search(b, &SearchLimits::with_depth(3));
        assert_eq!(capped.depth, 1);
        assert!(capped.dir.is_some());
        let by_nodes = Replica::new(ReplicaConfig::default()).search(
            b,
            &SearchLimits {
                nodes: Some(1000),
                ..SearchLimits::with_depth(3)
            },
        );
        assert_eq!(by_nodes.depth, 1);
        // A time already spent keeps the first level.
        let timed = Replica::new(ReplicaConfig::default()).search(
            b,
            &SearchLimits {
                time: Some(std::time::Duration::from_nanos(1)),
                ..SearchLimits::with_depth(5)
            },
        );
        assert!(timed.dir.is_some());
        assert!(timed.depth <= 2, "{}", timed.depth);
    }

    #[test]
    fn extreme_boards_do_not_panic() {
        let mut ai = Replica::new(ReplicaConfig::default());
        for b in crate::eval::extreme_boards() {
            let result = ai.search(b, &SearchLimits::with_depth(9));
            assert_eq!(result.dir.is_some(), !b.is_over(), "{b:?}");
            assert!(result.depth <= Replica::MAX_DEPTH);
            for v in result.dir_values.into_iter().flatten() {
                assert!(v.is_finite() && v >= 0.0, "{v}");
            }
        }
        let top = board("131072 131072 0 0/0 0 0 0/0 0 0 0/0 0 0 0");
        let result = ai.search(top, &SearchLimits::with_depth(2));
        assert!(result.dir.is_some());
    }
}
