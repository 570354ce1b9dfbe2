//! Minimax with alpha-beta pruning: the tile placer as an adversary that puts the worst
//! tile (a 2 or a 4) in the worst empty cell, as in the ZHAW blog post on 2048 and the
//! UCSB CS 165A assignment.

use std::sync::Arc;
use web_time::Instant;

use ai2048_engine::{Board, Dir};

use crate::eval::{Evaluator, RowTable};
use crate::{Player, SearchLimits, SearchResult};

/// The deepest iterative deepening goes under a time or node budget.
const MAX_DEPTH: u32 = 64;

/// The value of a board lost right at the root (never returned: the root then has no
/// move). A board lost after `ply` player moves is worth `LOSS + ply * LOSS_STEP`, so
/// later losses are preferred to earlier ones, and every loss is below any evaluation
/// above -9e8.
const LOSS: f32 = -1.0e9;
/// What each player move survived adds to the value of a loss.
const LOSS_STEP: f32 = 1.0e6;

/// Nodes between two looks at the clock.
const CHECK_INTERVAL: u64 = 4096;

/// The settings of [`Minimax`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MinimaxConfig {
    /// Adversary layers below the root move (see [`Minimax`] for how depth counts),
    /// used when the limits give no depth. If this is `None` too, the search goes
    /// [`Minimax::DEFAULT_DEPTH`] deep without a time or node budget, and as deep as
    /// the budget allows with one. Under a budget, a depth set here or in the limits
    /// caps the deepening.
    pub depth: Option<u32>,
    /// Alpha-beta pruning. Turning it off gives plain minimax: the same root value and
    /// move, far more nodes. Tests compare the two.
    pub pruning: bool,
    /// Move ordering: at max nodes the moves whose board evaluates best first, at min
    /// nodes the placements whose board evaluates worst first (both only where the
    /// subtree below is deep enough to pay for the evaluations), and at the root the
    /// best move of the previous iteration first. It changes only the cost.
    pub ordering: bool,
}

impl Default for MinimaxConfig {
    fn default() -> MinimaxConfig {
        MinimaxConfig {
            depth: None,
            pruning: true,
            ordering: true,
        }
    }
}

/// Minimax with alpha-beta pruning, where the adversary is the tile placer: after each
/// move it puts a 2 or a 4 in whichever empty cell is worst for the player (a min node
/// over every empty cell × {2, 4}).
///
/// # Depth
///
/// Depth counts adversary layers below the root move, exactly as [`Expectimax`] counts
/// its chance layers: depth 0 evaluates the board right after each root move (greedy
/// on the evaluator); depth 1 also lets the adversary place its worst tile and the
/// player make the best reply, whose board is evaluated; depth `d` looks at `d + 1`
/// player moves and `d` placements on every line. Leaves are evaluated right after a
/// player move, before the placement.
///
/// # Search
///
/// Iterative deepening from depth 0: under [`SearchLimits::time`] (or
/// [`SearchLimits::nodes`]) the search deepens until the budget ends, aborts the
/// unfinished depth and keeps the answer of the last completed one; without a budget it
/// deepens to the fixed depth, the shallower passes only ordering the root moves (with
/// ordering off it searches the fixed depth alone).
/// A board with no legal move after `k` player moves is worth about `-1e9 + k * 1e6`,
/// below any evaluation, later losses above earlier ones.
///
/// The result's value is the chosen move's minimax value. With pruning, the other
/// moves' values are upper bounds (alpha-beta only proves they are no better), kept
/// strictly below the chosen move's. `nodes` counts board moves (`shift` calls), like
/// [`Expectimax`].
///
/// [`Expectimax`]: super::Expectimax
///
/// ```
/// use ai2048_ai::eval::RowTable;
/// use ai2048_ai::search::{Minimax, MinimaxConfig};
/// use ai2048_ai::{Player, SearchLimits};
/// use ai2048_engine::Board;
///
/// let mut ai = Minimax::new(MinimaxConfig::default(), RowTable::standard());
/// let board: Board = "2 2 4 8/0 0 0 0/0 0 0 0/0 0 0 2".parse()?;
/// let result = ai.search(board, &SearchLimits::with_depth(2));
/// assert!(board.can_move(result.dir.unwrap()));
/// assert_eq!(result.depth, 2);
/// assert!(result.nodes > 0);
///
/// let lost: Board = "2 4 2 4/4 2 4 2/2 4 2 4/4 2 4 2".parse()?;
/// assert_eq!(ai.search(lost, &SearchLimits::default()).dir, None);
/// # Ok::<(), ai2048_engine::ParseBoardError>(())
/// ```
pub struct Minimax {
    config: MinimaxConfig,
    eval: Arc<dyn Evaluator>,
}

impl Minimax {
    /// The depth searched when neither the limits nor the config give one and no time
    /// or node budget is set.
    pub const DEFAULT_DEPTH: u32 = 3;

    /// A minimax player with `config`, evaluating leaves with `eval`.
    #[must_use]
    pub fn new(config: MinimaxConfig, eval: Arc<dyn Evaluator>) -> Minimax {
        Minimax { config, eval }
    }

    /// The settings.
    #[must_use]
    pub fn config(&self) -> &MinimaxConfig {
        &self.config
    }
}

/// The value of a board with no legal move, reached after `ply` player moves.
#[inline]
fn loss(ply: u32) -> f32 {
    LOSS + LOSS_STEP * ply.min(MAX_DEPTH + 1) as f32
}

/// A value strictly below `best`, for a root move that alpha-beta proved no better.
fn below(best: f64) -> f64 {
    best - (best.abs() * 1e-9).max(1e-6)
}

/// The state of one search: the evaluation, counters and the budget.
struct Search<E> {
    eval: E,
    pruning: bool,
    ordering: bool,
    nodes: u64,
    /// The node count at which to look at the clock next.
    next_check: u64,
    deadline: Option<Instant>,
    node_limit: Option<u64>,
    aborted: bool,
}

/// Sorts a few `(key, board)` pairs by key, highest first when `descending`.
#[inline]
fn sort_by_key(items: &mut [(f32, Board)], descending: bool) {
    // Insertion sort: at most 32 items, usually nearly sorted; stable, so ties keep the
    // order of the directions and cells.
    for i in 1..items.len() {
        let item = items[i];
        let mut j = i;
        while j > 0 && {
            let prev = items[j - 1].0;
            if descending {
                prev < item.0
            } else {
                prev > item.0
            }
        } {
            items[j] = items[j - 1];
            j -= 1;
        }
        items[j] = item;
    }
}

impl<E: Fn(Board) -> f32> Search<E> {
    /// Whether the budget is spent; looks at the clock every [`CHECK_INTERVAL`] nodes.
    #[inline]
    fn out_of_budget(&mut self) -> bool {
        if self.aborted {
            return true;
        }
        if self.node_limit.is_some_and(|n| self.nodes >= n) {
            self.aborted = true;
        } else if self.nodes >= self.next_check {
            self.next_check = self.nodes + CHECK_INTERVAL;
            if self.deadline.is_some_and(|d| Instant::now() >= d) {
                self.aborted = true;
            }
        }
        self.aborted
    }

    /// The player to move on `board`, `depth` adversary layers left below its move,
    /// after `ply` player moves from the root.
    fn max_node(&mut self, board: Board, depth: u32, mut alpha: f32, beta: f32, ply: u32) -> f32 {
        if self.out_of_budget() {
            return 0.0;
        }
        let mut children = [(0.0f32, Board::EMPTY); 4];
        let mut n = 0;
        for dir in Dir::ALL {
            let next = board.shift(dir);
            self.nodes += 1;
            if next != board {
                children[n].1 = next;
                n += 1;
            }
        }
        if n == 0 {
            return loss(ply);
        }
        let children = &mut children[..n];
        if self.ordering && depth >= 1 && n > 1 {
            for child in children.iter_mut() {
                child.0 = (self.eval)(child.1);
            }
            sort_by_key(children, true);
        }
        let mut best = f32::NEG_INFINITY;
        for &(_, next) in children.iter() {
            let v = self.min_node(next, depth, alpha, beta, ply + 1);
            if self.aborted {
                return 0.0;
            }
            best = best.max(v);
            if self.pruning {
                alpha = alpha.max(v);
                if alpha >= beta {
                    break;
                }
            }
        }
        best
    }

    /// The adversary to place a tile on `board` (just moved, after `ply` player moves),
    /// `depth` adversary layers left including this one.
    fn min_node(&mut self, board: Board, depth: u32, alpha: f32, mut beta: f32, ply: u32) -> f32 {
        if depth == 0 {
            return (self.eval)(board);
        }
        let empty = board.empty_mask();
        if empty == 0 {
            // Never after a legal move; evaluate rather than fail.
            return (self.eval)(board);
        }
        let mut placed = [(0.0f32, Board::EMPTY); 32];
        let mut n = 0;
        let mut mask = empty;
        while mask != 0 {
            let bit = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            let cell = 15 - bit;
            for exponent in [1, 2] {
                placed[n].1 = board.with_exponent(cell, exponent);
                n += 1;
            }
        }
        let placed = &mut placed[..n];
        if self.ordering && depth >= 2 {
            for p in placed.iter_mut() {
                p.0 = (self.eval)(p.1);
            }
            sort_by_key(placed, false);
        }
        let mut best = f32::INFINITY;
        for &(_, next) in placed.iter() {
            let v = self.max_node(next, depth - 1, alpha, beta, ply);
            if self.aborted {
                return 0.0;
            }
            best = best.min(v);
            if self.pruning {
                beta = beta.min(v);
                if alpha >= beta {
                    break;
                }
            }
        }
        best
    }

    /// The value of every legal root move at `depth`, the moves tried in `order`, or
    /// `None` if the budget ran out.
    fn root(&mut self, board: Board, depth: u32, order: &[Dir; 4]) -> Option<[Option<f64>; 4]> {
        let mut values = [None; 4];
        // Moves that failed low: their values are upper bounds.
        let mut bounds = [false; 4];
        let mut best = f32::NEG_INFINITY;
        for &dir in order {
            let next = board.shift(dir);
            self.nodes += 1;
            if next == board {
                continue;
            }
            let alpha = if self.pruning {
                best
            } else {
                f32::NEG_INFINITY
            };
            let v = self.min_node(next, depth, alpha, f32::INFINITY, 1);
            if self.aborted {
                return None;
            }
            values[dir.index()] = Some(f64::from(v));
            bounds[dir.index()] = self.pruning && v <= best;
            best = best.max(v);
        }
        // A bound equal to the best value may hide a worse move: keep it strictly below,
        // so the move whose value is exact wins.
        let best = f64::from(best);
        for (value, bound) in values.iter_mut().zip(bounds) {
            if let Some(v) = value {
                if bound && *v >= best {
                    *v = below(best);
                }
            }
        }
        Some(values)
    }
}

impl Player for Minimax {
    fn name(&self) -> &str {
        "minimax"
    }

    fn search(&mut self, board: Board, limits: &SearchLimits) -> SearchResult {
        let eval = Arc::clone(&self.eval);
        match eval.downcast_ref::<RowTable>() {
            Some(table) => self.run(board, limits, |b| table.eval_board(b)),
            None => self.run(board, limits, |b| eval.eval(b) as f32),
        }
    }
}

impl Minimax {
    fn run(
        &self,
        board: Board,
        limits: &SearchLimits,
        eval: impl Fn(Board) -> f32,
    ) -> SearchResult {
        let start = Instant::now();
        let budget = limits.time.is_some() || limits.nodes.is_some();
        let max_depth = match limits.depth.or(self.config.depth) {
            Some(d) => d.min(MAX_DEPTH),
            None if budget => MAX_DEPTH,
            None => Minimax::DEFAULT_DEPTH,
        };
        let mut search = Search {
            eval,
            pruning: self.config.pruning,
            ordering: self.config.ordering,
            nodes: 0,
            next_check: CHECK_INTERVAL,
            deadline: limits.time.map(|t| start + t),
            node_limit: limits.nodes,
            aborted: false,
        };
        let mut order = Dir::ALL;
        // Depth 0 never aborts: it reaches no max node.
        let mut best = SearchResult::from_values([None; 4], 0, 0);
        // Shallower passes order the root moves or fill a budget; else go straight down.
        let first = if budget || self.config.ordering {
            0
        } else {
            max_depth
        };
        for depth in first..=max_depth {
            let before = start.elapsed();
            let Some(values) = search.root(board, depth, &order) else {
                break;
            };
            best = SearchResult::from_values(values, depth, 0);
            if best.dir.is_none() {
                break;
            }
            if self.config.ordering {
                // The best move first; the others by value, ties in direction order.
                order.sort_by(|a, b| {
                    let va = values[a.index()].unwrap_or(f64::NEG_INFINITY);
                    let vb = values[b.index()].unwrap_or(f64::NEG_INFINITY);
                    vb.total_cmp(&va)
                });
            }
            if let Some(time) = limits.time {
                // Each depth costs several times the last: stop when the next cannot fit.
                let took = start.elapsed().saturating_sub(before);
                if start.elapsed() + took * 4 > time {
                    break;
                }
            }
        }
        best.nodes = search.nodes;
        best
    }
}
