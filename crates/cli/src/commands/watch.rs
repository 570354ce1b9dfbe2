//! `ai2048 watch`: the AI plays while you watch.
//!
//! On a terminal the game runs full screen (the `tui` module): the AI plays on its
//! own thread while the keys pause, change the pace, start a new game or save the
//! replay. With `--plain`, or when stdout is not a terminal, every board is printed as
//! plain text, then a summary line.

use std::io::{IsTerminal, Write};
use std::time::{Duration, Instant};

use ai2048_ai::create_player;
use anyhow::{bail, Context, Result};

use crate::args::WatchArgs;
use crate::commands::hint::board_option;
use crate::commands::setup::Setup;
use crate::files::save_replay;
use crate::tui::app::Mode;
use crate::tui::speed::Speed;

/// Plays with the chosen AI: full screen on a terminal, else one game in plain text.
pub fn run(args: &WatchArgs) -> Result<()> {
    let from = args
        .from
        .as_deref()
        .map(|text| board_option("--from", text))
        .transpose()?;
    if let Some(board) = from.filter(|b| b.is_over()) {
        bail!("--from: no move is left on {}", board.to_hex());
    }
    let setup = Setup {
        from,
        ..Setup::new(&args.ai, &args.rules, args.seed)?
    };
    if !args.plain && std::io::stdout().is_terminal() {
        watch_screen(args, &setup)
    } else {
        watch_plain(args, &setup)
    }
}

/// The full-screen game, then the summary and `--save` once the screen is gone.
fn watch_screen(args: &WatchArgs, setup: &Setup) -> Result<()> {
    let app = setup.run_screen(
        Mode::Watch,
        Speed::new(args.delay_ms),
        args.save.clone(),
        "best-watch",
    )?;
    let game = app.game();
    let stats = app.stats();
    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        "{}: score {}, max tile {}, {} moves ({:.3} ms/move mean), seed {}",
        if game.is_over() {
            "game over"
        } else {
            "stopped"
        },
        game.score(),
        game.max_tile(),
        game.moves(),
        stats.ms_per_move(),
        game.seed(),
    )?;
    if let Some(path) = &args.save {
        save_replay(path, game, &mut out)?;
    }
    Ok(())
}

/// One game, every board printed as plain text.
fn watch_plain(args: &WatchArgs, setup: &Setup) -> Result<()> {
    let Setup {
        ref spec,
        limits,
        seed,
        ..
    } = *setup;
    let mut game = setup.game(seed)?;
    let mut player = create_player(spec, seed)?;
    let mut out = std::io::stdout().lock();

    let started = Instant::now();
    let mut think = Duration::ZERO;
    let mut max_think = Duration::ZERO;
    let mut nodes = 0u64;
    let mut depth = 0;
    loop {
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
        writeln!(out)?;
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
        save_replay(path, &game, &mut out)?;
    }
    Ok(())
}
