//! Every player with its options, as front ends list them.

/// What a front end can tell users about a player.
#[derive(Clone, Copy, Debug)]
pub struct PlayerInfo {
    /// The name to create it by.
    pub name: &'static str,
    /// One line on what it does.
    pub about: &'static str,
    /// Its options, as `(key, what it does)`.
    pub options: &'static [(&'static str, &'static str)],
}

/// A player's options followed by those of its evaluation (see [`crate::eval`]), with
/// the evaluation's default: `with_eval_options!("heuristic", ("depth", "..."), ...)`.
/// A player that evaluates boards lists these and builds its evaluation with
/// `evaluator`.
macro_rules! with_eval_options {
    ($default:literal $(, ($key:expr, $about:expr))* $(,)?) => {
        [
            $(($key, $about),)*
            (
                "eval",
                concat!(
                    "the evaluation (default: the built-in network when the build has one, else ",
                    $default,
                    "): network, heuristic, simple, lines, corner, snake, diagonal, weighted, ",
                    "cobb-douglas, empty, smoothness, monotonicity, merges"
                ),
            ),
            (
                "weights",
                "a JSON weights file for the evaluation (it may name the eval)",
            ),
            (
                "symmetric",
                "true: a matrix eval takes the best of the 8 symmetries of the board",
            ),
            (
                "w.NAME",
                "sets one weight of the evaluation, e.g. w.empty=300 (after the file)",
            ),
            (
                "network",
                "an n-tuple network file (ai2048 train) as the evaluation, instead of eval and weights",
            ),
            (
                "blend",
                "adds this weight times the built-in network's value (or blend-network's) to the evaluation (default 0: off)",
            ),
            (
                "blend-network",
                "with blend, the network file (ai2048 train) to blend instead of the built-in one",
            ),
            (
                "blend-from",
                "with blend, the network joins in only where the board searched from holds this tile (default 2: everywhere)",
            ),
            (
                "ceiling",
                "a network reads boards holding a larger tile downgraded to this one (default 32768)",
            ),
            (
                "tables",
                "endgame tables: a folder of them (ai2048 tables build), off, or auto (expectimax's default: the user's tables folder, when built)",
            ),
            (
                "tables-min",
                "a table overrules the search only when its best move succeeds with at least this probability (default 0)",
            ),
            (
                "tables-slack",
                "a table overrules a searched move that succeeds with less than its best move's probability less this (default 0.2)",
            ),
            (
                "tables-from",
                "tables are consulted only once the board holds this tile (default 16384)",
            ),
            (
                "tables-goals",
                "true: consult only the tables with goals, a formation's block (default false; the formation player's true)",
            ),
            (
                "tables-leaves",
                "where a search ends on a board a table answers, add this weight times its success probability times the board's largest tile (default 0: off)",
            ),
            (
                "tables-own-from",
                "where several tables answer, one at its own stage (its target the block's edge) decides if its target is at least this tile, else the likeliest (default 512; 131072: always the likeliest); given alone, on every board",
            ),
            (
                "tables-own-late",
                "as tables-own-from, where the board holds a 16384 or more (default 256, or tables-own-from's tile if that is given)",
            ),
            (
                "tables-solve",
                "solve in play each table of the default set that the tables folder lacks, from the first board of a step that reaches at most this many of its states (default 0: off)",
            ),
        ]
    };
}

/// Every player, the default first.
pub const PLAYERS: &[PlayerInfo] = &[
    PlayerInfo {
        name: "expectimax",
        about: "expectimax over every spawn, with a transposition table and pruning",
        options: &with_eval_options!(
            "heuristic",
            (
                "depth",
                "chance layers below the root move (default: deepen within time-ms)"
            ),
            (
                "prune",
                "skip chance branches less likely than this (default 0.0001; 0 = off; depth: 1/2^(d+4) at each depth d, macroxue's rule)"
            ),
            (
                "tt-mb",
                "transposition table size in MiB (default 64; 0 = off)"
            ),
            (
                "leaf-kb",
                "cache of a network's leaf values in KiB, per thread (default 256; 0 = off; exact: only the speed changes)"
            ),
            (
                "p4",
                "the probability of a 4 the search assumes (default 0.1)"
            ),
            (
                "learn-p4",
                "true: estimate the probability of a 4 from the spawns seen (default false)"
            ),
            (
                "time-ms",
                "time per move when --time-ms and --depth are not given (default 5)"
            ),
            ("threads", "threads searching each move (default 1)"),
            (
                "time-bank",
                "true: time a move leaves unused under --time-ms goes to later moves (default false)"
            ),
            (
                "bank-by-sum",
                "with time-bank: spend the bank by this tile sum, shared over the moves to search until then (default 0 = off; 34000 for 32768)"
            ),
            (
                "bank-early",
                "with bank-by-sum: before this tile, a move searches within half its budget and banks the rest (default 0: none)"
            ),
            (
                "bank-feedback",
                "with bank-by-sum: from this tile, a move's allowance allows for the share of it that moves spend, so that the bank is spent (default 0: none)"
            ),
            (
                "plan-sum",
                "with a game clock (bench --timeout): plan its time for a game reaching this tile sum (default 30000; 0 = off)"
            ),
            (
                "plan-moves",
                "with a game clock: keep time for at least this many moves (default 2500)"
            ),
            (
                "plan-depth",
                "with a game clock: layers past the board's own depth (distinct tiles - 2) a move may deepen to within its share (default 0)"
            ),
            (
                "growth",
                "under a time limit, start the next depth only if this many times the last depth's time fits (default 4)"
            ),
            (
                "cut",
                "true: value a board the evaluation calls hopeless from the root as it is, unsearched (macroxue's cut; with eval=lines) (default false)"
            ),
            (
                "cut-from",
                "the cut applies once the board holds this tile (default 2: always)"
            ),
            (
                "min-depth",
                "with time-bank under a time a move: a depth up to this one starts wherever the budget and all of the bank can pay for it, none before bank-early's tile (default 0: none)"
            ),
            (
                "min-depth-below",
                "min-depth applies only under a time a move below this many milliseconds (default: any)"
            ),
        ),
    },
    PlayerInfo {
        name: "minimax",
        about: "alpha-beta minimax, with the tile placer as the adversary",
        options: &with_eval_options!(
            "heuristic",
            (
                "depth",
                "adversary layers below the root move (default 3, or deepening under --time-ms)"
            ),
            ("prune", "true: alpha-beta pruning (default true)"),
            ("order", "true: move ordering (default true)"),
        ),
    },
    PlayerInfo {
        name: "mcts",
        about: "Monte Carlo: flat playouts per move, or UCT",
        options: &with_eval_options!(
            "heuristic",
            ("mode", "flat or uct (default flat)"),
            ("playouts", "flat: playouts per legal move (default 100)"),
            ("iterations", "uct: descents per move (default 1000)"),
            ("c", "uct: the exploration constant (default 0.5)"),
            ("playout", "random or greedy (default random)"),
            (
                "cut",
                "end playouts after this many moves and evaluate (default: play out)"
            ),
            ("p4", "the probability of a 4 playouts draw (default 0.1)"),
        ),
    },
    PlayerInfo {
        name: "replica",
        about: "the React replica's AI: every move and spawn a few moves ahead, breadth-first; \
                each move's expected Cobb-Douglas utility × ln(1 + its leaves); P(4) learned",
        options: &[
            (
                "depth",
                "moves ahead, each with every spawn (default 3, at most 5; 0 = greedy)"
            ),
            (
                "leaves",
                "the tree grows a level only while it holds at most this many boards (default 20000)"
            ),
            (
                "prior4",
                "the Beta prior of P(4): pseudo-count of 4s (default 1)"
            ),
            (
                "prior2",
                "the Beta prior of P(4): pseudo-count of 2s (default 9)"
            ),
            (
                "w.NAME",
                "an exponent of the utility: w.monotonicity, w.emptiness, w.mergeability, w.max_tile (default 6, 1.5, 0.25, 0.5)"
            ),
        ],
    },
    PlayerInfo {
        name: "greedy",
        about: "the best move after one ply on an evaluation (default simple)",
        options: &with_eval_options!("simple"),
    },
    PlayerInfo {
        name: "random",
        about: "a uniformly random legal move",
        options: &[],
    },
];

/// Whether the option `key` is the option `known` lists (as [`PlayerInfo::options`]
/// writes it): the same key, or, when `known` is written `PREFIX.NAME`, any key
/// `PREFIX.X` with a nonempty `X`.
///
/// ```
/// use ai2048_ai::option_matches;
/// assert!(option_matches("depth", "depth"));
/// assert!(option_matches("w.NAME", "w.empty"));
/// assert!(!option_matches("w.NAME", "w."));
/// assert!(!option_matches("depth", "dpeth"));
/// ```
#[must_use]
pub fn option_matches(known: &str, key: &str) -> bool {
    match known.strip_suffix(".NAME") {
        Some(prefix) => key
            .strip_prefix(prefix)
            .and_then(|rest| rest.strip_prefix('.'))
            .is_some_and(|name| !name.is_empty()),
        None => known == key,
    }
}
