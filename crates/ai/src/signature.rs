//! The deterministic search signature, as Stockfish's `bench`: fixed positions searched
//! at a fixed depth, and the total node count.
//!
//! Any change to the search's behaviour (move order, pruning, caching, evaluation)
//! changes the count, so CI compares it with the value recorded in the tests: a commit
//! that changes the search updates that value on purpose, and one that should not
//! change the search proves it did not.

use ai2048_engine::Board;

use crate::search::{Expectimax, ExpectimaxConfig};
use crate::{Player, SearchLimits};

/// The positions: boards from a seeded game in every phase, and two that hold the
/// 32768 and 65536 tiles to cover the exact slow path.
pub const POSITIONS: [&str; 9] = [
    "2112024111040006",
    "2311131023674578",
    "001022103320679a",
    "00102002433267ab",
    "22231147006a007c",
    "13201434178a26bc",
    "03340478179a18bc",
    "1200331045f0fgc0",
    "00000001000f000f",
];

/// The depth every position is searched to.
pub const DEPTH: u32 = 3;

/// The outcome of the signature run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Signature {
    /// Nodes searched over all positions.
    pub nodes: u64,
    /// The chosen moves, one base-5 digit per position (4 for no move).
    pub moves: u64,
}

/// Searches every position of [`POSITIONS`] at [`DEPTH`] with the default expectimax
/// on one thread, with a fresh transposition table for each position.
///
/// ```
/// let a = ai2048_ai::signature::run();
/// let b = ai2048_ai::signature::run();
/// assert_eq!(a, b);
/// assert!(a.nodes > 0);
/// ```
#[must_use]
pub fn run() -> Signature {
    let config = ExpectimaxConfig {
        tt_slots: 1 << 16,
        threads: 1,
        ..ExpectimaxConfig::default()
    };
    // The default evaluation: the built-in network when the build has one.
    let eval: std::sync::Arc<dyn crate::eval::Evaluator> = match crate::ntuple::builtin() {
        Some(net) => net,
        None => crate::eval::RowTable::standard(),
    };
    let mut player = Expectimax::with_eval(config, eval);
    let mut signature = Signature { nodes: 0, moves: 0 };
    for text in POSITIONS {
        let board: Board = text.parse().expect("signature positions parse");
        player.new_game();
        let result = player.search(board, &SearchLimits::with_depth(DEPTH));
        signature.nodes += result.nodes;
        signature.moves = signature.moves * 5 + result.dir.map_or(4, |d| d.index() as u64);
    }
    signature
}
