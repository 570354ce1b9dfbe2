//! `ai2048 watch`: the AI plays one game while you watch.

use std::io::{IsTerminal, Write};
use std::time::{Duration, Instant};

use ai2048_ai::create_player;
use ai2048_engine::Game;
use anyhow::{Context, Result};
use crossterm::{cursor, terminal, QueueableCommand};

use crate::args::WatchArgs;
use crate::files::write_atomic;

/// A seed from the clock, for games the user did not seed. It is printed, so the game
/// can still be replayed.
pub fn fresh_seed() -> u64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    ai2048_engine::rng::derive_seed(nanos, u64::from(std::process::id()))
}

/// Plays one game with the chosen AI, drawing the board after every move.
pub fn run(args: &WatchArgs) -> Result<()> {
    let rules = args.rules.rules()?;
    let spec = args.ai.spec()?;
    let limits = args.ai.limits()?;
    let seed = args.seed.unwrap_or_else(fresh_seed);
    let mut game = Game::new(seed, rules)?;
    let mut player = create_player(&spec, seed)?;
    let live = !args.plain && std::io::stdout().is_terminal();
    let mut out = std::io::stdout().lock();

    let started = Instant::now();
    let mut think = Duration::ZERO;
    let mut max_think = Duration::ZERO;
    let mut nodes = 0u64;
    let mut depth = 0;
    loop {
        if live {
            out.queue(cursor::MoveTo(0, 0))?;
            out.queue(terminal::Clear(terminal::ClearType::All))?;
        }
        let moves = game.moves().max(1) as f64;
        writeln!(
            out,
            "ai2048 watch  ai {spec}  seed {seed}\nscore {}  moves {}  max tile {}  depth {depth}  {:.3} ms/move  {:.0} nodes/s\n",
            game.score(),
            game.moves(),
            game.max_tile(),
            think.as_secs_f64() * 1e3 / moves,
            nodes as f64 / think.as_secs_f64().max(1e-9),
        )?;
        write!(out, "{}", game.board())?;
        if !live {
            writeln!(out)?;
        }
        out.flush()?;
        if game.is_over() {
            break;
        }
        let t = Instant::now();
        let result = player.search(game.board(), &limits);
        let spent = t.elapsed();
        think += spent;
        max_think = max_think.max(spent);
        nodes += result.nodes;
        depth = result.depth;
        let Some(dir) = result.dir else { break };
        game.try_play(dir)
            .with_context(|| format!("the {} player chose an illegal move", spec.name))?;
        if args.delay_ms > 0 {
            std::thread::sleep(Duration::from_millis(args.delay_ms));
        }
    }
    writeln!(
        out,
        "\ngame over: score {}, max tile {}, {} moves in {:.2} s ({:.3} ms/move mean, {:.3} max), seed {seed}",
        game.score(),
        game.max_tile(),
        game.moves(),
        started.elapsed().as_secs_f64(),
        think.as_secs_f64() * 1e3 / game.moves().max(1) as f64,
        max_think.as_secs_f64() * 1e3,
    )?;
    if let Some(path) = &args.save {
        write_atomic(path, game.replay().to_string().as_bytes())?;
        writeln!(out, "replay saved to {}", path.display())?;
    }
    Ok(())
}
