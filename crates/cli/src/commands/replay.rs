//! `ai2048 replay`: check a saved game.

use std::io::Write;

use anyhow::{Context, Result};

use ai2048_engine::{Replay, SpawnStream};

use crate::args::ReplayArgs;

/// Reads the replay, replays it from its seed (or its spawn key), and prints the
/// outcome.
pub fn run(args: &ReplayArgs) -> Result<()> {
    let text = std::fs::read_to_string(&args.file)
        .with_context(|| format!("cannot read {}", args.file.display()))?;
    let replay: Replay = text
        .parse()
        .with_context(|| format!("{} is not a valid replay", args.file.display()))?;
    let game = replay
        .verify()
        .with_context(|| format!("{} does not replay", args.file.display()))?;
    write!(std::io::stdout(), "{}", game.board())?;
    let mut source = match game.spawn_stream() {
        SpawnStream::Keyed(_) => "keyed spawns".to_owned(),
        SpawnStream::Sequential | SpawnStream::PerTurn => format!("seed {}", game.seed()),
    };
    // A game from a position: its score and moves count from there, so say where.
    if let Some(board) = game.origin() {
        source += &format!(" from the position {}", board.to_hex());
    }
    writeln!(
        std::io::stdout(),
        "verified: {source}, {} moves, score {}, max tile {}",
        game.moves(),
        game.score(),
        game.max_tile()
    )?;
    Ok(())
}
