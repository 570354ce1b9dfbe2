//! Plays a few seeded games with minimax and Monte Carlo settings and prints the mean
//! score, the largest tile and the time per move of each.
//!
//! `cargo run --release -p ai2048-ai --example compare [GAMES] [FILTER]`: `GAMES` games
//! per player (default 3, seeds 0, 1, ...), only the players whose label contains
//! `FILTER` if given.

use std::time::Instant;

use ai2048_ai::eval::RowTable;
use ai2048_ai::search::{
    GreedyPlayer, Mcts, MctsConfig, MctsMode, Minimax, MinimaxConfig, Playout,
};
use ai2048_ai::{Player, SearchLimits};
use ai2048_engine::{Game, Rules};

fn minimax(depth: u32) -> Box<dyn Player> {
    let config = MinimaxConfig {
        depth: Some(depth),
        ..MinimaxConfig::default()
    };
    Box::new(Minimax::new(config, RowTable::standard()))
}

fn mcts(mode: MctsMode, playout: Playout, max_moves: Option<u32>, seed: u64) -> Box<dyn Player> {
    let config = MctsConfig {
        mode,
        playout,
        max_playout_moves: max_moves,
        ..MctsConfig::default()
    };
    Box::new(Mcts::new(config, RowTable::standard(), seed))
}

type Maker = Box<dyn Fn(u64) -> Box<dyn Player>>;

fn main() {
    let mut args = std::env::args().skip(1);
    let games: u64 = args.next().and_then(|a| a.parse().ok()).unwrap_or(3);
    let filter = args.next().unwrap_or_default();
    let uct = |iterations, exploration| MctsMode::Uct {
        iterations,
        exploration,
    };
    let players: Vec<(&str, Maker)> = vec![
        ("greedy", Box::new(|_| Box::new(GreedyPlayer::default()))),
        ("minimax d2", Box::new(|_| minimax(2))),
        ("minimax d3", Box::new(|_| minimax(3))),
        ("minimax d4", Box::new(|_| minimax(4))),
        (
            "minimax d3 unordered",
            Box::new(|_| {
                let config = MinimaxConfig {
                    depth: Some(3),
                    pruning: true,
                    ordering: false,
                };
                Box::new(Minimax::new(config, RowTable::standard()))
            }),
        ),
        (
            "mcts flat 50 random",
            Box::new(|s| mcts(MctsMode::Flat { playouts: 50 }, Playout::Random, None, s)),
        ),
        (
            "mcts uct 500 random c=0.5",
            Box::new(move |s| mcts(uct(500, 0.5), Playout::Random, None, s)),
        ),
        (
            "mcts uct 500 random c=1.4",
            Box::new(move |s| mcts(uct(500, 1.4), Playout::Random, None, s)),
        ),
        (
            "mcts flat 50 greedy cut 20",
            Box::new(|s| {
                mcts(
                    MctsMode::Flat { playouts: 50 },
                    Playout::Greedy,
                    Some(20),
                    s,
                )
            }),
        ),
        (
            "mcts uct 500 greedy cut 20",
            Box::new(move |s| mcts(uct(500, 0.5), Playout::Greedy, Some(20), s)),
        ),
    ];
    println!(
        "{:<28} {:>10} {:>22} {:>8} {:>9} {:>12}",
        "player", "mean score", "max tiles", "moves", "ms/move", "nodes/move"
    );
    for (label, make) in &players {
        if !label.contains(filter.as_str()) {
            continue;
        }
        let (mut score, mut moves, mut nodes) = (0u64, 0u64, 0u64);
        let mut tiles = Vec::new();
        let start = Instant::now();
        for seed in 0..games {
            let mut player = make(seed);
            let mut game = Game::new(seed, Rules::default()).expect("valid rules");
            while !game.is_over() {
                let result = player.search(game.board(), &SearchLimits::default());
                nodes += result.nodes;
                game.play(result.dir.expect("a move while the game is not over"));
            }
            score += game.score();
            moves += game.moves() as u64;
            tiles.push(game.max_tile().to_string());
        }
        let ms = start.elapsed().as_secs_f64() * 1000.0;
        println!(
            "{:<28} {:>10.0} {:>22} {:>8} {:>9.3} {:>12.0}",
            label,
            score as f64 / games as f64,
            tiles.join(","),
            moves,
            ms / moves as f64,
            nodes as f64 / moves as f64
        );
    }
}
