//! Expectimax: max nodes over the player's moves, chance nodes over every spawn.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use web_time::Instant;

use ai2048_engine::{Board, Dir};

use super::{LeafCache, TransTable};
use crate::eval::{distinct_tiles, Evaluator, Lines, RowTable};
use crate::ntuple::NTupleNetwork;
use crate::{Player, SearchLimits, SearchResult};
use spawn_model::SpawnModel;

pub mod spawn_model;
mod time_plan;

pub use time_plan::TimePlan;

/// The settings of [`Expectimax`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ExpectimaxConfig {
    /// Chance layers below the root move when the limits give no depth. `None` lets the
    /// limits' time decide, or else deepens up to [`adaptive_depth`] within
    /// `default_time`.
    pub depth: Option<u32>,
    /// A chance branch whose probability from the root falls below this is evaluated
    /// instead of searched (0 turns pruning off). See also `prune_by_depth`.
    pub min_probability: f32,
    /// Instead of `min_probability`, prune at each depth `d` of the iterative
    /// deepening the branches less likely than 1/2^(d+4) (macroxue's rule: 1/256 at
    /// depth 4), so that each deeper search also looks at less likely spawns; with a
    /// fixed bound, the bound and not the depth ends the tree once the depth is past
    /// a few layers, and deeper iterations add little but time.
    pub prune_by_depth: bool,
    /// Slots of the transposition table (0 turns it off). 16 bytes each.
    pub tt_slots: usize,
    /// Slots of the cache of leaf values, per thread (0 turns it off; 16 bytes each):
    /// the last values of the evaluation, kept from move to move. Exact, so it changes
    /// no result, only the speed of an evaluation that reads memory at random (a
    /// network); the row tables of the heuristics are read without it.
    pub leaf_slots: usize,
    /// The probability of a 4 that the search assumes.
    pub four_probability: f32,
    /// The time per move when the limits set neither a time nor a depth (and `depth` is
    /// `None`): the search deepens up to [`adaptive_depth`] within it.
    pub default_time: Duration,
    /// Whether to estimate the probability of a 4 from the spawns seen in the game
    /// (a Beta-Bernoulli [`SpawnModel`] whose prior is centred on 0.1) instead of
    /// assuming `four_probability`.
    pub learn_four_probability: bool,
    /// Threads searching each move. With more than one, a search of depth 5 or more
    /// shares out the root's spawns, and the threads share the transposition table, so
    /// results may differ from run to run by which thread cached what first.
    pub threads: usize,
    /// Under a time budget, bank the time a move leaves unused for later moves of the
    /// game: a move may spend its budget plus half the bank, and the bank holds at most
    /// [`MAX_BANKED_BUDGETS`] budgets. Iterative deepening stops early whenever the next
    /// depth would not fit, so without a bank the mean time per move falls well short of
    /// the budget; with it the mean approaches the budget, and the hard positions get
    /// the time the easy ones saved.
    pub time_bank: bool,
    /// With [`ExpectimaxConfig::time_bank`], the tile sum by which the bank is to be
    /// spent (0: off, the bank as above). Before the board's tiles sum to it, a move
    /// may spend its budget plus the bank shared over the moves still to search until
    /// then (the moves left to that sum, about 2.2 a tile, times the share of this
    /// game's moves searched so far), at most [`MAX_PLANNED_BUDGETS`] budgets, and the
    /// bank holds what the game saves, however much; past it, the bank is as above.
    /// For a game to be won by 32768, whose tiles sum to about 33,000 when it is made.
    pub bank_by_sum: u64,
    /// With [`ExpectimaxConfig::bank_by_sum`], the exponent of the tile before which a
    /// move searches within half its budget, banking the rest for later (0: none).
    pub bank_early: u8,
    /// With [`ExpectimaxConfig::bank_by_sum`], the exponent of the tile from which a
    /// move's allowance before the sum allows for the share of it that moves actually
    /// spend (0: never). Iterative deepening starts a depth only where it is expected
    /// to fit, so a move spends about half of what it may, and the bank planned for the
    /// moves to the sum is left over where a game is lost. With this, from its tile
    /// (and past [`ExpectimaxConfig::bank_early`]'s), a move may spend its planned
    /// share divided by the share of their allowance that the game's recent moves
    /// spent.
    pub bank_feedback: u8,
    /// How a move takes its time from the game's clock ([`SearchLimits::clock`]) when
    /// the limits set neither a time nor a depth (and `depth` is `None`): it deepens up
    /// to [`adaptive_depth`] within its share. Without a clock, or with the plan off,
    /// such a move gets `default_time`.
    pub time_plan: TimePlan,
    /// Under a time limit, how many times the last depth's time the next depth is
    /// expected to take: the search starts it only if that fits in what is left of
    /// the move's budget. A depth that is started and cannot finish is thrown away at
    /// the deadline, its time lost; one not started leaves its time on the game's
    /// clock. An infinite (or NaN) factor never starts depth 1: greedy moves.
    pub depth_growth: f32,
    /// Whether a chance node whose board the evaluation scores below its
    /// [`Evaluator::cut_below`] for the root is valued as it is, not searched
    /// (macroxue's cut: with `lines`, it searches a move several times faster for the
    /// same strength at depth 4). The transposition table may then hold values cut
    /// under an earlier move's bound, as macroxue's cache does.
    pub cut: bool,
    /// The exponent of the tile from which [`ExpectimaxConfig::cut`] applies: a root
    /// whose largest tile is smaller is searched uncut. In the opening the cut's bound
    /// (twice the largest tile's weight, for `lines`) is near every board's score, and
    /// cutting there plays little better than greedily, where the search is cheap.
    pub cut_from: u8,
    /// With [`ExpectimaxConfig::time_bank`] under a time a move, the depth a searched
    /// move completes past its budget when the bank can pay for it (0: none): a depth
    /// up to it starts where it is expected to fit in the budget and all of the bank,
    /// and is stopped only there. Iterative deepening under a deadline gives the
    /// positions whose tree is largest the shallowest search; a floor gives them the
    /// time they need, from what the cheap ones saved. None in the opening of
    /// [`ExpectimaxConfig::bank_early`], whose open boards are where a deep search
    /// costs most and is needed least (a floor there spends what the plan keeps for
    /// the late game).
    pub min_depth: u32,
    /// The budget a move from which [`ExpectimaxConfig::min_depth`] no longer applies:
    /// where the deepening reaches the floor in nearly every position by itself, the
    /// floor only spends the bank on the few where it does not, time a deeper search
    /// elsewhere would use better. `Duration::MAX`: at every budget.
    pub min_depth_below: Duration,
    /// Under a game's clock ([`ExpectimaxConfig::time_plan`]), the layers past
    /// [`adaptive_depth`] a move may deepen to while its share of the clock lasts
    /// (0: none). A game that keeps its largest tiles in tables leaves most of its
    /// clock unspent at [`adaptive_depth`].
    pub plan_depth: u32,
}

/// The most a [`ExpectimaxConfig::time_bank`] holds, in budgets per move: so a move
/// spends at most 9 budgets. Where endgame tables decide two moves in five without a
/// search ([`Player::unsearched`]), a cap of 4 left the bank full and the mean time a
/// move at two thirds of the budget; with 16 it is four fifths (docs/tables-measured.md).
pub const MAX_BANKED_BUDGETS: u32 = 16;

/// The most a move may spend under [`ExpectimaxConfig::bank_by_sum`], in budgets.
pub const MAX_PLANNED_BUDGETS: u32 = 32;

/// The moves over which [`ExpectimaxConfig::bank_feedback`] averages the share of
/// their allowance that moves spend.
const SPEND_WINDOW: f64 = 64.0;

/// The least share of its allowance that [`ExpectimaxConfig::bank_feedback`] expects a
/// move to spend: a move may spend at most four times its plan.
const MIN_SPEND_RATIO: f64 = 0.25;

impl Default for ExpectimaxConfig {
    fn default() -> ExpectimaxConfig {
        ExpectimaxConfig {
            depth: None,
            min_probability: 1e-4,
            prune_by_depth: false,
            tt_slots: 1 << 22,
            leaf_slots: 1 << 14,
            four_probability: 0.1,
            learn_four_probability: false,
            default_time: Duration::from_millis(5),
            threads: 1,
            time_bank: false,
            bank_by_sum: 0,
            bank_early: 0,
            bank_feedback: 0,
            time_plan: TimePlan::default(),
            depth_growth: 4.0,
            cut: false,
            cut_from: 1,
            min_depth: 0,
            min_depth_below: Duration::MAX,
            plan_depth: 0,
        }
    }
}

/// The depth the search picks for `board` when none is set: nneonneo's rule,
/// `max(3, distinct tiles - 2)`.
#[must_use]
pub fn adaptive_depth(board: Board) -> u32 {
    distinct_tiles(board).saturating_sub(2).max(3)
}

/// The expectimax player of the Rust course lab (the `main`/`bench` interface `ai2048`
/// keeps), made fast: a fixed-size transposition table, pruning of improbable chance
/// branches, iterative deepening under a time budget, and row tables called without a
/// virtual call when the evaluation is the heuristic.
///
/// Depth is as [`SearchLimits::depth`] defines it: chance layers below the root move,
/// so depth 0 evaluates the board right after each move (greedy), depth 1 also
/// averages over every spawn and the best reply, and so on.
///
/// ```
/// use ai2048_ai::search::{Expectimax, ExpectimaxConfig};
/// use ai2048_ai::{Player, SearchLimits};
/// use ai2048_engine::Board;
/// let mut ai = Expectimax::new(ExpectimaxConfig::default());
/// let board: Board = "2 2 4 8/0 0 0 0/0 0 0 0/0 0 0 2".parse()?;
/// let result = ai.search(board, &SearchLimits::with_depth(2));
/// assert!(board.can_move(result.dir.unwrap()));
/// assert_eq!(result.depth, 2);
/// assert!(result.nodes > 0);
/// # Ok::<(), ai2048_engine::ParseBoardError>(())
/// ```
pub struct Expectimax {
    config: ExpectimaxConfig,
    eval: Arc<dyn Evaluator>,
    /// The transposition table, shared by the threads of a search (none when off).
    tt: Option<TransTable>,
    /// One cache of leaf values per thread (none when they are off).
    leaves: Vec<LeafCache>,
    /// What the spawns seen so far say of the probability of a 4, when learning it.
    spawns: Option<SpawnModel>,
    /// Time that earlier moves of this game left unused (see
    /// [`ExpectimaxConfig::time_bank`]).
    bank: Duration,
    /// This game's moves searched and not searched (decided by a table), for
    /// [`ExpectimaxConfig::bank_by_sum`].
    moves_searched: u64,
    moves_unsearched: u64,
    /// Whether the last move searched stood before the planned bank's sum, so that a
    /// move decided without a search (whose board the player is not told) banks
    /// without a cap.
    before_sum: bool,
    /// Under [`ExpectimaxConfig::bank_feedback`], the share of their allowance that
    /// this game's recent searched moves spent (a moving average).
    spend_ratio: f64,
    /// Whether the last search valued its leaves with the evaluation its root named
    /// ([`Evaluator::for_root`]) rather than `eval` itself: where this changes, the
    /// cached values are of the other evaluation, and are cleared.
    root_eval: bool,
}

/// How a search values its leaves and its lost boards. Row tables and networks get
/// their own implementations so that the compiler inlines the lookups.
trait Leaf: Sync {
    /// Whether the search keeps this evaluation's values in its [`LeafCache`]: not
    /// when a value costs no more than a look in the cache.
    const CACHED: bool = true;
    fn value(&self, board: Board) -> f32;
    fn lost(&self, board: Board) -> f32;
    /// [`Evaluator::cut_below`] for a search from `root`.
    fn cut_below(&self, _root: Board) -> f32 {
        f32::NEG_INFINITY
    }
}

struct TableLeaf<'a>(&'a RowTable);

impl Leaf for TableLeaf<'_> {
    const CACHED: bool = false;

    #[inline]
    fn value(&self, board: Board) -> f32 {
        self.0.eval_board(board)
    }

    fn lost(&self, board: Board) -> f32 {
        self.0.lost_board(board)
    }
}

/// Any other evaluation: through its trait object, or called directly when its type
/// is known (a network: `EvalLeaf<NTupleNetwork>`, inlined without a virtual call).
/// `CACHED` false for an evaluation cheaper than a look in the leaf cache: macroxue's
/// lines, eight looks in a table of lines (without the cache, 7% more speed at depth 4
/// with the block tables; docs/speed.md).
struct EvalLeaf<'a, T: ?Sized, const CACHED: bool>(&'a T);

impl<T: Evaluator + ?Sized, const C: bool> Leaf for EvalLeaf<'_, T, C> {
    const CACHED: bool = C;

    #[inline]
    fn value(&self, board: Board) -> f32 {
        self.0.eval(board) as f32
    }

    fn lost(&self, board: Board) -> f32 {
        self.0.lost(board) as f32
    }

    fn cut_below(&self, root: Board) -> f32 {
        self.0.cut_below(root) as f32
    }
}

impl<L: Leaf> Leaf for &L {
    const CACHED: bool = L::CACHED;

    #[inline]
    fn value(&self, board: Board) -> f32 {
        (**self).value(board)
    }

    fn lost(&self, board: Board) -> f32 {
        (**self).lost(board)
    }

    fn cut_below(&self, root: Board) -> f32 {
        (**self).cut_below(root)
    }
}

/// The depth from which the threads of a search share out its root (see
/// [`ExpectimaxConfig::threads`]); a shallower search runs on one thread, since
/// starting the others costs more than they save there (docs/speed.md: at depth 4, a
/// tenth of a millisecond a move, two threads were slower than one).
const PARALLEL_FROM_DEPTH: u32 = 5;

/// The state of one search: counters and the clock.
struct Search<'a, E> {
    eval: E,
    tt: Option<&'a TransTable>,
    /// The thread's cache of leaf values, if it has one.
    leaves: Option<&'a mut LeafCache>,
    /// A chance node reached with a probability below this is evaluated, not expanded.
    min_probability: f32,
    /// What a probability is multiplied by for the transposition table: 1 under a
    /// fixed bound, and the inverse of the bound when it changes with the depth, so
    /// that an entry records how far above the bound of its own search it was reached
    /// (which is what decides how much under it was cut).
    tt_scale: f32,
    /// The probability that a spawn is a 2.
    p2: f32,
    /// The probability that a spawn is a 4 (0 to search 2s alone).
    p4: f32,
    /// A chance node whose board the evaluation scores below this is valued as it
    /// is: the evaluation's [`Evaluator::cut_below`] for the root, minus infinity
    /// without the cut.
    cut: f32,
    /// The moves tried so far, nneonneo's count of move evaluations.
    nodes: u64,
    /// The node count at which to look at the clock next.
    next_check: u64,
    /// When the search must stop, if it has a time limit.
    deadline: Option<Instant>,
    /// Set once the deadline passed: every node returns at once, and the depth's
    /// values are discarded.
    aborted: bool,
}

/// How far the learned probability of a 4 moves before the search adopts it.
const LEARNED_P4_STEP: f32 = 0.005;

/// Nodes between two looks at the clock: about 0.1 ms of search with a network's
/// evaluation (10 M nodes a second), so that a move stopped by its deadline overruns
/// it by little even when the budget is a fraction of a millisecond. A look costs
/// about 25 ns.
const CHECK_INTERVAL: u64 = 1024;

impl<E: Leaf> Search<'_, E> {
    #[inline]
    fn max_node(&mut self, board: Board, depth: u32, prob: f32) -> f32 {
        if self.aborted {
            return 0.0;
        }
        if self.nodes >= self.next_check {
            self.next_check = self.nodes + CHECK_INTERVAL;
            if self.deadline.is_some_and(|d| Instant::now() >= d) {
                self.aborted = true;
                return 0.0;
            }
        }
        let after = Dir::ALL.map(|dir| board.shift(dir));
        // Afterstates that are leaves are valued here, a call less each (a tenth of
        // the time at depth 4 and 5 with lines). The others' chance nodes each probe
        // the transposition table, a read at random from tens of megabytes that waits
        // for main memory (a fifth of the search's time): asked for together first,
        // the four fetches overlap. The same values and nodes (docs/speed.md).
        let leaves = depth == 0 || prob < self.min_probability;
        if let (false, Some(tt)) = (leaves, &self.tt) {
            for &next in &after {
                if next != board {
                    tt.prefetch(next);
                }
            }
        }
        let mut best = f32::NEG_INFINITY;
        for next in after {
            self.nodes += 1;
            if next != board {
                let value = if leaves {
                    self.leaf(next)
                } else {
                    self.chance_node(next, depth, prob)
                };
                best = best.max(value);
            }
        }
        if best == f32::NEG_INFINITY {
            self.eval.lost(board)
        } else {
            best
        }
    }

    /// The value of a leaf, through the leaf cache where the evaluation keeps one.
    #[inline(always)]
    fn leaf(&mut self, board: Board) -> f32 {
        match &mut self.leaves {
            Some(cache) if E::CACHED => cache.get_or(board, |b| self.eval.value(b)),
            _ => self.eval.value(board),
        }
    }

    #[inline]
    fn chance_node(&mut self, board: Board, depth: u32, prob: f32) -> f32 {
        if depth == 0 || prob < self.min_probability {
            return self.leaf(board);
        }
        if let Some(tt) = &self.tt {
            if let Some(v) = tt.probe(board, depth, prob * self.tt_scale) {
                return v;
            }
        }
        if self.cut > f32::NEG_INFINITY {
            let v = self.eval.value(board);
            if v < self.cut {
                return v;
            }
        }
        let empty = board.empty_mask();
        let n = empty.count_ones() as f32;
        let (p2, p4) = (prob * self.p2 / n, prob * self.p4 / n);
        let mut sum = 0.0f32;
        let mut mask = empty;
        while mask != 0 {
            let bit = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            let cell = 15 - bit;
            sum += self.p2 * self.max_node(board.with_exponent(cell, 1), depth - 1, p2);
            if self.p4 > 0.0 {
                sum += self.p4 * self.max_node(board.with_exponent(cell, 2), depth - 1, p4);
            }
        }
        let value = sum / n;
        if !self.aborted {
            if let Some(tt) = self.tt {
                tt.store(board, depth, prob * self.tt_scale, value);
            }
        }
        value
    }

    /// The value of every legal root move at `depth`, or `None` if time ran out.
    fn root(&mut self, board: Board, depth: u32) -> Option<[Option<f64>; 4]> {
        let mut values = [None; 4];
        for dir in Dir::ALL {
            let next = board.shift(dir);
            self.nodes += 1;
            if next != board {
                values[dir.index()] = Some(f64::from(self.chance_node(next, depth, 1.0)));
            }
        }
        (!self.aborted).then_some(values)
    }
}

impl Expectimax {
    /// An expectimax player with `config` and the standard row-table evaluation.
    #[must_use]
    pub fn new(config: ExpectimaxConfig) -> Expectimax {
        Expectimax::with_eval(config, RowTable::standard())
    }

    /// An expectimax player evaluating leaves with `eval`.
    #[must_use]
    pub fn with_eval(config: ExpectimaxConfig, eval: Arc<dyn Evaluator>) -> Expectimax {
        let threads = config.threads.max(1);
        // One cache of leaf values per thread, or none when it has no slots.
        let caches = if config.leaf_slots > 0 { threads } else { 0 };
        Expectimax {
            config: ExpectimaxConfig { threads, ..config },
            eval,
            tt: (config.tt_slots > 0).then(|| TransTable::new(config.tt_slots)),
            leaves: (0..caches)
                .map(|_| LeafCache::new(config.leaf_slots))
                .collect(),
            spawns: config.learn_four_probability.then(SpawnModel::new),
            bank: Duration::ZERO,
            moves_searched: 0,
            moves_unsearched: 0,
            before_sum: config.bank_by_sum > 0,
            spend_ratio: 1.0,
            root_eval: false,
        }
    }

    /// The settings.
    #[must_use]
    pub fn config(&self) -> &ExpectimaxConfig {
        &self.config
    }
}

impl Player for Expectimax {
    fn name(&self) -> &str {
        "expectimax"
    }

    fn new_game(&mut self) {
        if let Some(tt) = &mut self.tt {
            tt.clear();
        }
        if let Some(model) = &mut self.spawns {
            model.reset();
        }
        self.bank = Duration::ZERO;
        self.moves_searched = 0;
        self.moves_unsearched = 0;
        self.before_sum = self.config.bank_by_sum > 0;
        self.spend_ratio = 1.0;
    }

    /// With a time bank under a time budget, the budget the move did not spend goes to
    /// the bank, as for a searched move.
    fn unsearched(&mut self, limits: &SearchLimits, spent: Duration) {
        if let (Some(time), true) = (limits.time, self.config.time_bank) {
            self.moves_unsearched += 1;
            self.deposit(time, spent, self.before_sum);
        }
    }

    fn search(&mut self, board: Board, limits: &SearchLimits) -> SearchResult {
        if let Some(model) = &mut self.spawns {
            model.on_board(board);
            let learned = model.four_probability() as f32;
            // Values cached under another spawn model no longer hold, so the estimate is
            // adopted only when it has moved enough to matter.
            if (learned - self.config.four_probability).abs() > LEARNED_P4_STEP {
                self.config.four_probability = learned;
                if let Some(tt) = &mut self.tt {
                    tt.clear();
                }
            }
        }
        let named = self.eval.for_root(board);
        if named.is_some() != self.root_eval {
            self.root_eval = named.is_some();
            if let Some(tt) = &mut self.tt {
                tt.clear();
            }
            for cache in &mut self.leaves {
                cache.clear();
            }
        }
        let eval = named.unwrap_or_else(|| Arc::clone(&self.eval));
        let result = if let Some(table) = eval.downcast_ref::<RowTable>() {
            self.run(board, limits, &TableLeaf(table))
        } else if let Some(net) = eval.downcast_ref::<NTupleNetwork>() {
            self.run(board, limits, &EvalLeaf::<_, true>(net))
        } else if let Some(lines) = eval.downcast_ref::<Lines>() {
            self.run(board, limits, &EvalLeaf::<_, false>(lines))
        } else {
            self.run(board, limits, &EvalLeaf::<_, true>(&*eval))
        };
        if let (Some(model), Some(dir)) = (&mut self.spawns, result.dir) {
            model.before_move(board.shift(dir));
        }
        result
    }
}

/// A search from `root`, `depth` chance layers deep.
fn new_search<'a, E: Leaf>(
    config: &ExpectimaxConfig,
    eval: E,
    (root, depth): (Board, u32),
    (tt, leaves): (Option<&'a TransTable>, Option<&'a mut LeafCache>),
    deadline: Option<Instant>,
) -> Search<'a, E> {
    let p4 = config.four_probability.clamp(0.0, 1.0);
    let cut = if config.cut && root.max_exponent() >= config.cut_from {
        eval.cut_below(root)
    } else {
        f32::NEG_INFINITY
    };
    // 2^(depth + 4), a power of two: probabilities keep their classes' order.
    let (min_probability, tt_scale) = if config.prune_by_depth {
        let scale = (depth.min(100) as f32 + 4.0).exp2();
        (1.0 / scale, scale)
    } else {
        (config.min_probability, 1.0)
    };
    Search {
        eval,
        tt,
        leaves,
        min_probability,
        tt_scale,
        p2: 1.0 - p4,
        p4,
        cut,
        nodes: 0,
        next_check: CHECK_INTERVAL,
        deadline,
        aborted: false,
    }
}

/// What one search thread brings back: (task, value) pairs, its nodes, and whether it
/// ran out of time.
type WorkerOutcome = (Vec<(usize, f32)>, u64, bool);

/// The values of the root moves at one depth, or `None` if time ran out.
type RootValues = Option<[Option<f64>; 4]>;

impl Expectimax {
    /// Searches every root move `depth` deep; returns the values and the nodes.
    fn root<E: Leaf>(
        &mut self,
        board: Board,
        depth: u32,
        deadline: Option<Instant>,
        eval: &E,
    ) -> (RootValues, u64) {
        if self.config.threads > 1 && depth >= PARALLEL_FROM_DEPTH {
            return self.root_parallel(board, depth, eval, deadline);
        }
        let caches = (self.tt.as_ref(), self.leaves.first_mut());
        let mut search = new_search(&self.config, eval, (board, depth), caches, deadline);
        let values = search.root(board, depth);
        (values, search.nodes)
    }

    /// The root's spawns shared out among threads: each thread takes the next
    /// (move, cell, tile) from a counter and searches it, all of them with one
    /// transposition table.
    fn root_parallel<E: Leaf>(
        &mut self,
        board: Board,
        depth: u32,
        eval: &E,
        deadline: Option<Instant>,
    ) -> (RootValues, u64) {
        let p4 = self.config.four_probability.clamp(0.0, 1.0);
        let mut values = [None; 4];
        // (direction, board after the spawn, weight of the spawn within its move)
        let mut tasks: Vec<(usize, Board, f32)> = Vec::new();
        let mut nodes = 0;
        for dir in Dir::ALL {
            let next = board.shift(dir);
            nodes += 1;
            if next == board {
                continue;
            }
            values[dir.index()] = Some(0.0);
            let empty = next.empty_mask();
            let n = empty.count_ones() as f32;
            for bit in (0..16).filter(|b| empty & (1 << b) != 0) {
                let cell = 15 - bit;
                tasks.push((dir.index(), next.with_exponent(cell, 1), (1.0 - p4) / n));
                if p4 > 0.0 {
                    tasks.push((dir.index(), next.with_exponent(cell, 2), p4 / n));
                }
            }
        }
        let counter = AtomicUsize::new(0);
        let threads = self.config.threads;
        let tt = self.tt.as_ref();
        let mut leaves: Vec<Option<&mut LeafCache>> = self.leaves.iter_mut().map(Some).collect();
        leaves.resize_with(threads, || None);
        let config = &self.config;
        let outcomes: Vec<WorkerOutcome> = std::thread::scope(|scope| {
            let handles: Vec<_> = leaves
                .into_iter()
                .map(|leaves| {
                    let caches = (tt, leaves);
                    let (tasks, counter) = (&tasks, &counter);
                    scope.spawn(move || {
                        let mut search = new_search(config, eval, (board, depth), caches, deadline);
                        let mut done = Vec::new();
                        loop {
                            let i = counter.fetch_add(1, Ordering::Relaxed);
                            let Some(&(_, child, weight)) = tasks.get(i) else {
                                break;
                            };
                            done.push((i, search.max_node(child, depth - 1, weight)));
                            if search.aborted {
                                break;
                            }
                        }
                        (done, search.nodes, search.aborted)
                    })
                })
                .collect();
            handles
                .into_iter()
                .map(|h| h.join().expect("a search thread panicked"))
                .collect()
        });
        let mut aborted = false;
        for (done, n, stopped) in outcomes {
            nodes += n;
            aborted |= stopped;
            for (i, v) in done {
                let (dir, _, weight) = tasks[i];
                if let Some(sum) = &mut values[dir] {
                    *sum += f64::from(weight) * f64::from(v);
                }
            }
        }
        ((!aborted).then_some(values), nodes)
    }

    /// Banks what a move of budget `time` left unused after `spent` (a negative
    /// remainder draws on the bank), up to [`MAX_BANKED_BUDGETS`] budgets.
    /// Under [`ExpectimaxConfig::bank_by_sum`], before the board's tiles sum to it
    /// (`before_sum`), the bank has no cap.
    fn deposit(&mut self, time: Duration, spent: Duration, before_sum: bool) {
        let cap = if before_sum {
            Duration::MAX
        } else {
            time * MAX_BANKED_BUDGETS
        };
        self.bank = (self.bank + time).saturating_sub(spent).min(cap);
    }

    /// What a move of budget `time` from `board` may spend with the bank, and the
    /// tile sum left before the planned bank's horizon (0 when past it, or off).
    fn allowance(&self, board: Board, time: Duration) -> (Duration, u64) {
        let sum_left = self.config.bank_by_sum.saturating_sub(board.tile_sum());
        if sum_left == 0 {
            // The bank may hold all that the moves before the sum saved: the first
            // move past it takes from no more than the usual cap.
            return (time + self.bank.min(time * MAX_BANKED_BUDGETS) / 2, 0);
        }
        let own = if self.early(board) { time / 2 } else { time };
        let moves = self.moves_searched + self.moves_unsearched;
        let share = if moves == 0 {
            1.0
        } else {
            (self.moves_searched as f64 / moves as f64).max(0.1)
        };
        let moves_left = time_plan::moves_for_sum(sum_left, self.config.four_probability);
        let searches_left = (moves_left * share).max(1.0);
        let extra = self.bank.div_f64(searches_left);
        let planned = if self.feedback(board) {
            (own + extra).div_f64(self.spend_ratio)
        } else {
            own + extra
        };
        (planned.min(time * MAX_PLANNED_BUDGETS), sum_left)
    }

    /// Whether [`ExpectimaxConfig::bank_feedback`] applies to a move from `board` before
    /// the sum: from its tile, past the opening.
    fn feedback(&self, board: Board) -> bool {
        let from = self.config.bank_feedback;
        from > 0 && board.max_exponent() >= from && !self.early(board)
    }

    /// Whether `board` is in the opening of [`ExpectimaxConfig::bank_early`]: before its
    /// tile, when the bank plan is on.
    fn early(&self, board: Board) -> bool {
        self.config.bank_early > 0 && board.max_tile() < 1 << self.config.bank_early
    }

    fn run<E: Leaf>(&mut self, board: Board, limits: &SearchLimits, eval: &E) -> SearchResult {
        let start = Instant::now();
        let fixed = limits.depth.or(self.config.depth);
        let (budget, max_depth) = match (limits.time, fixed) {
            (Some(time), depth) if self.config.time_bank => {
                let (allowance, sum_left) = self.allowance(board, time);
                let max_depth = depth.unwrap_or(u32::MAX).min(64);
                // No floor in the opening, whose open boards are where a deep search
                // costs most and is needed least (the plan keeps their time), nor from
                // the budget where the deepening reaches the floor by itself.
                let floored = !self.early(board) && time < self.config.min_depth_below;
                let floor_depth = if floored { self.config.min_depth } else { 0 };
                let floor = (floor_depth, time + self.bank);
                let result = self.deepen(board, allowance, floor, max_depth, eval);
                let spent = start.elapsed();
                if sum_left > 0 && self.feedback(board) && !allowance.is_zero() {
                    let share = spent.as_secs_f64() / allowance.as_secs_f64();
                    self.spend_ratio += (share.min(1.0) - self.spend_ratio) / SPEND_WINDOW;
                    self.spend_ratio = self.spend_ratio.max(MIN_SPEND_RATIO);
                }
                self.moves_searched += 1;
                self.before_sum = sum_left > 0;
                self.deposit(time, spent, self.before_sum);
                return result;
            }
            (Some(time), depth) => (time, depth.unwrap_or(u32::MAX).min(64)),
            (None, Some(depth)) => {
                let (values, nodes) = self.root(board, depth, None, eval);
                return SearchResult::from_values(values.expect("no deadline"), depth, nodes);
            }
            // Neither: as deep as the board deserves, within this move's share of the
            // game's clock, or else the default time.
            (None, None) => {
                // Past the adaptive depth only under the clock: plan-depth spends
                // what the plan leaves, not the default time.
                match limits.clock {
                    Some(clock) if self.config.time_plan.is_on() => {
                        let p4 = self.config.four_probability;
                        let share = self.config.time_plan.move_time(board, clock, p4);
                        (share, adaptive_depth(board) + self.config.plan_depth)
                    }
                    _ => (self.config.default_time, adaptive_depth(board)),
                }
            }
        };
        self.deepen(board, budget, (0, Duration::ZERO), max_depth, eval)
    }

    /// Iterative deepening up to `max_depth`: deeper while the next depth is likely to
    /// finish within `budget`, or for a depth up to `floor`'s, within its time.
    fn deepen<E: Leaf>(
        &mut self,
        board: Board,
        budget: Duration,
        floor: (u32, Duration),
        max_depth: u32,
        eval: &E,
    ) -> SearchResult {
        let start = Instant::now();
        let within = |depth: u32| {
            if depth <= floor.0 {
                budget.max(floor.1)
            } else {
                budget
            }
        };
        let (values, mut nodes) = self.root(board, 0, None, eval);
        let mut best = SearchResult::from_values(values.expect("depth 0 always finishes"), 0, 0);
        let mut took = start.elapsed();
        // In seconds as floats: any factor, even an infinite one, compares (and a NaN
        // one is taken as infinite: the move is greedy rather than unbounded).
        let growth = match self.config.depth_growth {
            g if g.is_nan() => f64::INFINITY,
            g => f64::from(g.max(0.0)),
        };
        let fits = |took: Duration, budget: Duration| {
            start.elapsed().as_secs_f64() + took.as_secs_f64() * growth <= budget.as_secs_f64()
        };
        let mut depth = 1;
        // Each layer costs several times the last; stop when the next cannot fit. Depth
        // 1 too: a game whose clock is nearly spent plays greedy moves (microseconds)
        // rather than run out of time.
        while depth <= max_depth && best.dir.is_some() && fits(took, within(depth)) {
            let before = start.elapsed();
            let deadline = Some(start + within(depth));
            let (values, n) = self.root(board, depth, deadline, eval);
            nodes += n;
            let Some(values) = values else {
                break;
            };
            best = SearchResult::from_values(values, depth, 0);
            took = start.elapsed() - before;
            depth += 1;
        }
        best.nodes = nodes;
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn banking(time_bank: bool) -> Expectimax {
        Expectimax::new(ExpectimaxConfig {
            time_bank,
            ..ExpectimaxConfig::default()
        })
    }

    #[test]
    fn a_move_completes_its_floor_of_depth_where_the_bank_pays_for_it() {
        let board: Board = "2 4 8 16/0 0 2 0/0 0 0 0/0 0 0 0".parse().unwrap();
        let limits = SearchLimits::with_time(Duration::from_nanos(1));
        let floored = |time_bank| {
            Expectimax::new(ExpectimaxConfig {
                time_bank,
                min_depth: 3,
                ..ExpectimaxConfig::default()
            })
        };
        let mut player = floored(true);
        player.bank = Duration::from_secs(10);
        assert_eq!(player.search(board, &limits).depth, 3);
        // The bank pays for the floor: an empty bank buys no depth 3 in a nanosecond,
        // nor does the floor apply without a bank.
        let mut poor = floored(true);
        assert!(poor.search(board, &limits).depth < 3);
        let mut unbanked = floored(false);
        unbanked.bank = Duration::from_secs(10);
        assert!(unbanked.search(board, &limits).depth < 3);
    }

    #[test]
    fn the_floor_waits_for_the_end_of_the_banks_opening() {
        let opening: Board = "2 4 8 16/0 0 2 0/0 0 0 0/0 0 0 0".parse().unwrap();
        let later: Board = "2048 4 8 16/0 0 2 0/0 0 0 0/0 0 0 0".parse().unwrap();
        let limits = SearchLimits::with_time(Duration::from_nanos(1));
        let planned = || {
            let mut player = Expectimax::new(ExpectimaxConfig {
                time_bank: true,
                bank_by_sum: 34_000,
                bank_early: 11,
                min_depth: 3,
                ..ExpectimaxConfig::default()
            });
            player.bank = Duration::from_secs(10);
            player
        };
        // Before the first 2048 the opening keeps its time: no floor, however rich
        // the bank; from it on the bank pays for the floor.
        assert!(planned().search(opening, &limits).depth < 3);
        assert_eq!(planned().search(later, &limits).depth, 3);
        // Nor at a budget of its bound or more.
        let mut generous = planned();
        generous.config.min_depth_below = Duration::from_nanos(1);
        assert!(generous.search(later, &limits).depth < 3);
        generous.config.min_depth_below = Duration::from_nanos(2);
        assert_eq!(generous.search(later, &limits).depth, 3);
    }

    #[test]
    fn a_move_not_searched_banks_what_its_budget_left_up_to_the_cap() {
        let time = Duration::from_millis(1);
        let limits = SearchLimits::with_time(time);
        let mut player = banking(true);
        player.unsearched(&limits, Duration::from_micros(200));
        assert_eq!(player.bank, Duration::from_micros(800));
        for _ in 0..=MAX_BANKED_BUDGETS {
            player.unsearched(&limits, Duration::ZERO);
        }
        assert_eq!(player.bank, time * MAX_BANKED_BUDGETS);
        player.new_game();
        assert_eq!(player.bank, Duration::ZERO);

        // No bank without the option, nor without a time budget.
        let mut plain = banking(false);
        plain.unsearched(&limits, Duration::ZERO);
        assert_eq!(plain.bank, Duration::ZERO);
        let mut fixed = banking(true);
        fixed.unsearched(&SearchLimits::with_depth(2), Duration::ZERO);
        assert_eq!(fixed.bank, Duration::ZERO);
    }

    #[test]
    fn a_planned_bank_is_shared_over_the_searches_left_before_its_sum() {
        let time = Duration::from_millis(1);
        let limits = SearchLimits::with_time(time);
        let mut player = Expectimax::new(ExpectimaxConfig {
            time_bank: true,
            bank_by_sum: 10_000,
            bank_early: 11,
            four_probability: 0.0,
            ..ExpectimaxConfig::default()
        });
        // Before its sum the bank keeps all that the moves save, past the usual cap.
        for _ in 0..100 {
            player.unsearched(&limits, Duration::ZERO);
        }
        assert_eq!(player.bank, time * 100);
        // 1,000 of the sum left: 500 moves, and so far none of the game's searched (a
        // tenth, at least): the bank over 50 searches.
        let board: Board = "8192 512 256 32/8 0 0 0/0 0 0 0/0 0 0 0".parse().unwrap();
        assert_eq!(board.tile_sum(), 9_000);
        let (allowance, left) = player.allowance(board, time);
        assert_eq!(left, 1_000);
        assert_eq!(allowance, time + time * 100 / 50);
        // Before the first 2048 a move spends half its budget, and the rest is banked.
        let opening: Board = "1024 512 0 0/0 0 0 0/0 0 0 0/0 0 0 2".parse().unwrap();
        let (allowance, _) = player.allowance(opening, time);
        let searches = 8_462.0 / 2.0 * 0.1;
        assert_eq!(allowance, time / 2 + (time * 100).div_f64(searches));
        // However rich the bank, at most 32 budgets a move.
        player.bank = time * 100_000;
        assert_eq!(player.allowance(board, time).0, time * MAX_PLANNED_BUDGETS);
        // Past the sum, the bank as without a plan: half of it, and capped again by
        // the next move.
        let past: Board = "8192 2048 0 0/0 0 0 0/0 0 0 0/0 0 0 0".parse().unwrap();
        player.bank = time * 4;
        assert_eq!(player.allowance(past, time), (time * 3, 0));
        player.deposit(time, Duration::ZERO, false);
        assert_eq!(player.bank, time * 5);
        player.bank = time * 100;
        player.deposit(time, Duration::ZERO, false);
        assert_eq!(player.bank, time * MAX_BANKED_BUDGETS);
        // The first move past the sum, the bank still as rich as the plan left it:
        // no more than the usual cap's half (it had spent half of all of it, 516 ms
        // at 1 ms a move).
        player.bank = time * 100_000;
        let most = time + time * MAX_BANKED_BUDGETS / 2;
        assert_eq!(player.allowance(past, time), (most, 0));
    }

    #[test]
    fn the_feedback_allows_for_the_share_of_their_allowance_that_moves_spend() {
        let time = Duration::from_millis(1);
        let planned = |bank_feedback: u8| {
            let mut player = Expectimax::new(ExpectimaxConfig {
                time_bank: true,
                bank_by_sum: 10_000,
                bank_early: 11,
                bank_feedback,
                four_probability: 0.0,
                ..ExpectimaxConfig::default()
            });
            player.bank = time * 100;
            player.moves_unsearched = 100;
            player.spend_ratio = 0.5;
            player
        };
        // As above, the budget and the bank over 50 searches (3 ms); moves that spend
        // half of what they may are allowed twice that.
        let board: Board = "8192 512 256 32/8 0 0 0/0 0 0 0/0 0 0 0".parse().unwrap();
        assert_eq!(planned(0).allowance(board, time).0, time * 3);
        assert_eq!(planned(11).allowance(board, time).0, time * 6);
        // Only from its tile.
        assert_eq!(planned(13).allowance(board, time).0, time * 6);
        assert_eq!(planned(14).allowance(board, time).0, time * 3);
        // Not in the opening, which banks half its budget, even from a smaller tile;
        // nor past the sum.
        let opening: Board = "1024 512 0 0/0 0 0 0/0 0 0 0/0 0 0 2".parse().unwrap();
        assert_eq!(
            planned(1).allowance(opening, time),
            planned(0).allowance(opening, time)
        );
        let past: Board = "8192 2048 0 0/0 0 0 0/0 0 0 0/0 0 0 0".parse().unwrap();
        assert_eq!(planned(11).allowance(past, time), (time * 9, 0));

        // A move that spends all it may (a budget of a nanosecond cannot be kept)
        // moves the average a window's share toward all of it.
        let limits = SearchLimits::with_time(Duration::from_nanos(1));
        let mut player = planned(11);
        player.bank = Duration::ZERO;
        player.search(board, &limits);
        assert_eq!(player.spend_ratio, 0.5 + 0.5 / SPEND_WINDOW);
        // Not in the opening, nor without the option; a new game starts from all.
        player.search(opening, &limits);
        assert_eq!(player.spend_ratio, 0.5 + 0.5 / SPEND_WINDOW);
        let mut without = planned(0);
        without.search(board, &limits);
        assert_eq!(without.spend_ratio, 0.5);
        player.new_game();
        assert_eq!(player.spend_ratio, 1.0);
    }
}
