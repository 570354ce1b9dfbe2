//! Monte Carlo players: flat Monte Carlo (random or greedy playouts from each move) and
//! UCT (a tree over moves and sampled spawns, grown by UCB1).

use std::sync::Arc;
use web_time::Instant;

use ai2048_engine::{Board, Dir, DirSet, RandableBoard, Rng};

use crate::eval::{Evaluator, RowTable};
use crate::{Player, SearchLimits, SearchResult};

/// How [`Mcts`] spends its playouts.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum MctsMode {
    /// Flat Monte Carlo: `playouts` playouts after every legal root move, the best mean
    /// reward wins. Playouts go round-robin over the moves, so a time or node budget
    /// that stops them early leaves every move with the same number (at least one).
    Flat {
        /// Playouts per legal move.
        playouts: u32,
    },
    /// UCT: `iterations` descents of a tree of decision nodes (boards to move on) and
    /// chance nodes (boards just moved, their spawns sampled as the game draws them),
    /// each ending in one playout. Moves are picked by UCB1 on rewards normalized to
    /// [0, 1] by the least and greatest reward seen in this search.
    Uct {
        /// Descents (one playout each). At least one per legal root move is run.
        iterations: u32,
        /// The exploration constant `c` of UCB1: `q + c * sqrt(ln N / n)`.
        exploration: f32,
    },
}

/// How a playout picks its moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Playout {
    /// A uniformly random legal move.
    Random,
    /// The legal move whose board (before the spawn) the evaluator scores best.
    Greedy,
}

/// The settings of [`Mcts`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MctsConfig {
    /// Flat Monte Carlo or UCT, and how many playouts.
    pub mode: MctsMode,
    /// The playout policy.
    pub playout: Playout,
    /// How playouts end and are scored.
    ///
    /// - `None`: a playout goes on until the game is lost, and its reward is the game
    ///   score made from the root board on (the merges of the root move, of the tree
    ///   moves and of the playout).
    /// - `Some(n)`: a playout stops after `n` moves (0: right at the leaf) and its
    ///   reward is the evaluator's value of the board reached; a playout lost before
    ///   scores the evaluator's value of a lost board ([`Evaluator::lost`]), as in
    ///   expectimax. Greedy playouts on a good evaluator
    ///   can last thousands of moves, so they want a cap.
    pub max_playout_moves: Option<u32>,
    /// The probability of a 4 in the spawns that playouts and the tree draw.
    pub four_probability: f32,
    /// The most tree nodes (decision and chance) UCT keeps (about 40 bytes each); when
    /// full, the tree stops growing and descents end in playouts at its leaves. The
    /// tree is rebuilt for every move.
    pub max_tree_nodes: usize,
}

impl Default for MctsConfig {
    /// Flat Monte Carlo, 100 random playouts per move played to the end.
    fn default() -> MctsConfig {
        MctsConfig {
            mode: MctsMode::Flat { playouts: 100 },
            playout: Playout::Random,
            max_playout_moves: None,
            four_probability: 0.1,
            max_tree_nodes: 1 << 18,
        }
    }
}

/// A Monte Carlo player: flat Monte Carlo or UCT (see [`MctsMode`]), with random or
/// greedy playouts (see [`Playout`]).
///
/// All its randomness comes from one [`Rng`] seeded at creation: the same seed and the
/// same boards give the same moves, unless a time budget cuts a search short. It honours
/// [`SearchLimits::time`] and [`SearchLimits::nodes`] (stopping between playouts, after
/// at least one per legal move) and ignores [`SearchLimits::depth`].
///
/// The result's value for each move is its mean reward; `depth` is 1 for flat Monte
/// Carlo and, for UCT, the deepest decision layer of the tree in player moves; `nodes`
/// counts board moves (`shift` calls) in the tree and in playouts, four per step of a
/// greedy playout.
///
/// ```
/// use ai2048_ai::eval::RowTable;
/// use ai2048_ai::search::{Mcts, MctsConfig, MctsMode, Playout};
/// use ai2048_ai::{Player, SearchLimits};
/// use ai2048_engine::Board;
///
/// let config = MctsConfig {
///     mode: MctsMode::Uct { iterations: 200, exploration: 0.5 },
///     playout: Playout::Random,
///     max_playout_moves: Some(10),
///     ..MctsConfig::default()
/// };
/// let board: Board = "2 2 4 8/0 0 0 0/0 0 0 0/0 0 0 2".parse()?;
/// let mut a = Mcts::new(config, RowTable::standard(), 7);
/// let mut b = Mcts::new(config, RowTable::standard(), 7);
/// let result = a.search(board, &SearchLimits::default());
/// assert!(board.can_move(result.dir.unwrap()));
/// assert_eq!(b.search(board, &SearchLimits::default()), result);
///
/// let lost: Board = "2 4 2 4/4 2 4 2/2 4 2 4/4 2 4 2".parse()?;
/// assert_eq!(a.search(lost, &SearchLimits::default()).dir, None);
/// # Ok::<(), ai2048_engine::ParseBoardError>(())
/// ```
pub struct Mcts {
    config: MctsConfig,
    eval: Arc<dyn Evaluator>,
    rng: Rng,
    tree: Tree,
}

impl Mcts {
    /// A Monte Carlo player with `config`, scoring with `eval` (greedy playouts, and
    /// playouts cut short), drawing its randomness from `seed`.
    #[must_use]
    pub fn new(config: MctsConfig, eval: Arc<dyn Evaluator>, seed: u64) -> Mcts {
        Mcts {
            config,
            eval,
            rng: Rng::new(seed),
            tree: Tree::default(),
        }
    }

    /// The settings.
    #[must_use]
    pub fn config(&self) -> &MctsConfig {
        &self.config
    }
}

/// No node.
const NONE: u32 = u32::MAX;

/// A board where the player moves.
#[derive(Clone, Copy)]
struct Decision {
    board: Board,
    legal: DirSet,
    visits: u32,
    /// The chance node after each direction, by [`Dir::index`], or [`NONE`].
    children: [u32; 4],
    /// The next decision node under the same chance node, or [`NONE`].
    next_sibling: u32,
}

/// A board just moved, waiting for its spawn.
#[derive(Clone, Copy)]
struct Chance {
    visits: u32,
    total: f64,
    /// The first decision node under this one (one per spawn drawn), or [`NONE`].
    first_child: u32,
}

/// The UCT tree, kept between searches only to reuse its memory.
#[derive(Default)]
struct Tree {
    decisions: Vec<Decision>,
    chances: Vec<Chance>,
    /// Decision nodes and chance nodes of the current descent.
    path_decisions: Vec<u32>,
    path_chances: Vec<u32>,
}

impl Tree {
    fn len(&self) -> usize {
        self.decisions.len() + self.chances.len()
    }

    fn add_decision(&mut self, board: Board, next_sibling: u32) -> u32 {
        let index = self.decisions.len() as u32;
        self.decisions.push(Decision {
            board,
            legal: board.legal_dirs(),
            visits: 0,
            children: [NONE; 4],
            next_sibling,
        });
        index
    }

    fn add_chance(&mut self) -> u32 {
        let index = self.chances.len() as u32;
        self.chances.push(Chance {
            visits: 0,
            total: 0.0,
            first_child: NONE,
        });
        index
    }

    /// The decision node for `board` under chance node `chance`, if any.
    fn find_child(&self, chance: u32, board: Board) -> Option<u32> {
        let mut child = self.chances[chance as usize].first_child;
        while child != NONE {
            let node = &self.decisions[child as usize];
            if node.board == board {
                return Some(child);
            }
            child = node.next_sibling;
        }
        None
    }
}

/// The state of one search: the evaluation, the generator and the counters.
struct Run<'a, E> {
    eval: E,
    /// The evaluation whose [`Evaluator::lost`] scores a lost board.
    evaluator: &'a dyn Evaluator,
    rng: &'a mut Rng,
    playout: Playout,
    max_moves: Option<u32>,
    four_probability: f64,
    nodes: u64,
    deadline: Option<Instant>,
    node_limit: Option<u64>,
}

impl<E: Fn(Board) -> f32> Run<'_, E> {
    fn out_of_budget(&self) -> bool {
        self.node_limit.is_some_and(|n| self.nodes >= n)
            || self.deadline.is_some_and(|d| Instant::now() >= d)
    }

    /// The board after the game's spawn on `after` (unchanged if it is full).
    #[inline]
    fn spawn(&mut self, after: Board) -> Board {
        match RandableBoard::new(after) {
            Some(r) => r
                .with_random_tile(self.rng, self.four_probability)
                .0
                .board(),
            None => after,
        }
    }

    /// The reward of a line lost on `board` with `score` made.
    #[inline]
    fn lost(&self, board: Board, score: f64) -> f64 {
        match self.max_moves {
            None => score,
            Some(_) => f64::from(self.evaluator.lost(board) as f32),
        }
    }

    /// One playout from `board` (the player to move), `score` made since the root.
    fn playout(&mut self, mut board: Board, mut score: f64) -> f64 {
        let mut moves = 0u32;
        loop {
            if self.max_moves.is_some_and(|max| moves >= max) {
                return f64::from((self.eval)(board));
            }
            let legal = board.legal_dirs();
            if legal.is_empty() {
                return self.lost(board, score);
            }
            let (after, merged) = match self.playout {
                Playout::Random => {
                    let k = self.rng.below(legal.len() as u32) as usize;
                    let dir = legal.nth(k).unwrap_or(Dir::Up);
                    self.nodes += 1;
                    board.shift_scored(dir)
                }
                Playout::Greedy => {
                    let mut best: Option<(f32, Board, u32)> = None;
                    for dir in legal.iter() {
                        let (next, merged) = board.shift_scored(dir);
                        self.nodes += 1;
                        let v = (self.eval)(next);
                        if best.is_none_or(|(b, _, _)| v > b) {
                            best = Some((v, next, merged));
                        }
                    }
                    best.map_or((board, 0), |(_, next, merged)| (next, merged))
                }
            };
            score += f64::from(merged);
            board = self.spawn(after);
            moves += 1;
        }
    }

    /// Flat Monte Carlo: the mean reward of every legal move of `board`.
    fn flat(&mut self, board: Board, playouts: u32) -> SearchResult {
        let mut moves = [(Board::EMPTY, 0.0f64); 4];
        let mut totals = [0.0f64; 4];
        let mut legal = [false; 4];
        for dir in board.legal_dirs().iter() {
            let (after, merged) = board.shift_scored(dir);
            self.nodes += 1;
            moves[dir.index()] = (after, f64::from(merged));
            legal[dir.index()] = true;
        }
        let mut rounds = 0u32;
        if legal.contains(&true) {
            while rounds < playouts.max(1) {
                for dir in Dir::ALL {
                    if legal[dir.index()] {
                        let (after, merged) = moves[dir.index()];
                        let next = self.spawn(after);
                        totals[dir.index()] += self.playout(next, merged);
                    }
                }
                rounds += 1;
                if self.out_of_budget() {
                    break;
                }
            }
        }
        let mut values = [None; 4];
        for dir in Dir::ALL {
            if legal[dir.index()] {
                values[dir.index()] = Some(totals[dir.index()] / f64::from(rounds));
            }
        }
        SearchResult::from_values(values, 1, self.nodes)
    }

    /// UCT: grows `tree` from `board` for up to `iterations` descents.
    fn uct(
        &mut self,
        tree: &mut Tree,
        board: Board,
        iterations: u32,
        exploration: f64,
        max_nodes: usize,
    ) -> SearchResult {
        tree.decisions.clear();
        tree.chances.clear();
        let root = tree.add_decision(board, NONE);
        let legal = tree.decisions[root as usize].legal;
        if legal.is_empty() {
            return SearchResult::from_values([None; 4], 0, 0);
        }
        // Room for the root and its moves, whatever the cap.
        let max_nodes = max_nodes.max(16);
        let mut range = (f64::INFINITY, f64::NEG_INFINITY);
        let mut max_depth = 0u32;
        let mut done = 0u32;
        while done < iterations.max(legal.len() as u32) {
            if done >= legal.len() as u32 && self.out_of_budget() {
                break;
            }
            let (reward, depth) = self.descend(tree, exploration, max_nodes, range);
            max_depth = max_depth.max(depth);
            range = (range.0.min(reward), range.1.max(reward));
            for &d in &tree.path_decisions {
                let node = &mut tree.decisions[d as usize];
                node.visits = node.visits.saturating_add(1);
            }
            for &c in &tree.path_chances {
                let node = &mut tree.chances[c as usize];
                node.visits = node.visits.saturating_add(1);
                node.total += reward;
            }
            done += 1;
        }
        let mut values = [None; 4];
        let children = tree.decisions[root as usize].children;
        for dir in legal.iter() {
            let c = children[dir.index()];
            if c != NONE {
                let node = &tree.chances[c as usize];
                if node.visits > 0 {
                    values[dir.index()] = Some(node.total / f64::from(node.visits));
                }
            }
        }
        SearchResult::from_values(values, max_depth, self.nodes)
    }

    /// One descent from the root: selection, expansion of one node, a playout. Fills the
    /// tree's paths and returns the reward and the depth reached in player moves.
    fn descend(
        &mut self,
        tree: &mut Tree,
        exploration: f64,
        max_nodes: usize,
        range: (f64, f64),
    ) -> (f64, u32) {
        tree.path_decisions.clear();
        tree.path_chances.clear();
        let mut node = 0u32;
        let mut score = 0.0f64;
        let mut depth = 0u32;
        loop {
            tree.path_decisions.push(node);
            let d = tree.decisions[node as usize];
            if d.legal.is_empty() {
                return (self.lost(d.board, score), depth);
            }
            if d.visits == 0 && depth > 0 {
                return (self.playout(d.board, score), depth);
            }
            // An untried move first, in direction order; else UCB1.
            let dir = match d.legal.iter().find(|dir| d.children[dir.index()] == NONE) {
                Some(dir) => {
                    if tree.len() >= max_nodes {
                        return (self.playout(d.board, score), depth);
                    }
                    let c = tree.add_chance();
                    tree.decisions[node as usize].children[dir.index()] = c;
                    dir
                }
                None => select(tree, &d, exploration, range),
            };
            let chance = tree.decisions[node as usize].children[dir.index()];
            tree.path_chances.push(chance);
            let (after, merged) = d.board.shift_scored(dir);
            self.nodes += 1;
            score += f64::from(merged);
            depth += 1;
            let next = self.spawn(after);
            node = match tree.find_child(chance, next) {
                Some(child) => child,
                None => {
                    if tree.len() >= max_nodes {
                        return (self.playout(next, score), depth);
                    }
                    let first = tree.chances[chance as usize].first_child;
                    let child = tree.add_decision(next, first);
                    tree.chances[chance as usize].first_child = child;
                    child
                }
            };
        }
    }
}

/// The move UCB1 picks at decision node `d`, all of whose legal moves have a chance node
/// that was visited.
fn select(tree: &Tree, d: &Decision, exploration: f64, range: (f64, f64)) -> Dir {
    let ln_n = f64::from(d.visits.max(1)).ln();
    let span = range.1 - range.0;
    let mut best: Option<(f64, Dir)> = None;
    for dir in d.legal.iter() {
        let c = &tree.chances[d.children[dir.index()] as usize];
        let n = f64::from(c.visits.max(1));
        let mean = c.total / n;
        let q = if span > 0.0 {
            (mean - range.0) / span
        } else {
            0.5
        };
        let u = q + exploration * (ln_n / n).sqrt();
        if best.is_none_or(|(b, _)| u > b) {
            best = Some((u, dir));
        }
    }
    best.map_or(Dir::Up, |(_, dir)| dir)
}

impl Player for Mcts {
    fn name(&self) -> &str {
        "mcts"
    }

    fn search(&mut self, board: Board, limits: &SearchLimits) -> SearchResult {
        let eval = Arc::clone(&self.eval);
        match eval.downcast_ref::<RowTable>() {
            Some(table) => self.run(board, limits, |b| table.eval_board(b), &*eval),
            None => self.run(board, limits, |b| eval.eval(b) as f32, &*eval),
        }
    }
}

impl Mcts {
    fn run(
        &mut self,
        board: Board,
        limits: &SearchLimits,
        eval: impl Fn(Board) -> f32,
        evaluator: &dyn Evaluator,
    ) -> SearchResult {
        let start = Instant::now();
        let mut run = Run {
            eval,
            evaluator,
            rng: &mut self.rng,
            playout: self.config.playout,
            max_moves: self.config.max_playout_moves,
            four_probability: f64::from(self.config.four_probability).clamp(0.0, 1.0),
            nodes: 0,
            deadline: limits.time.map(|t| start + t),
            node_limit: limits.nodes,
        };
        match self.config.mode {
            MctsMode::Flat { playouts } => run.flat(board, playouts),
            MctsMode::Uct {
                iterations,
                exploration,
            } => run.uct(
                &mut self.tree,
                board,
                iterations,
                f64::from(exploration),
                self.config.max_tree_nodes,
            ),
        }
    }
}
