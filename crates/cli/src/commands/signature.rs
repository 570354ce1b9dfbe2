//! `ai2048 signature`: the search's deterministic node count, as Stockfish's `bench`.

use std::time::Instant;

use ai2048_ai::signature;
use std::io::Write;

use anyhow::Result;

/// Searches the fixed positions and prints the node count and the moves' signature.
pub fn run() -> Result<()> {
    let start = Instant::now();
    let s = signature::run();
    let secs = start.elapsed().as_secs_f64();
    writeln!(
        std::io::stdout(),
        "{} positions at depth {}, expectimax on one thread",
        signature::POSITIONS.len(),
        signature::DEPTH
    )?;
    writeln!(std::io::stdout(), "Moves signature: {}", s.moves)?;
    writeln!(std::io::stdout(), "Nodes searched: {}", s.nodes)?;
    writeln!(
        std::io::stdout(),
        "Nodes/second: {:.0} ({:.3} s)",
        s.nodes as f64 / secs.max(1e-9),
        secs
    )?;
    Ok(())
}
