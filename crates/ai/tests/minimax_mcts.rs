//! Minimax and Monte Carlo players: legal moves over whole games, no move on lost
//! boards, determinism, strength against greedy, alpha-beta against plain minimax, and
//! time budgets. Small settings, so the tests stay quick in debug builds.

use std::sync::Arc;
use std::time::{Duration, Instant};

use ai2048_ai::eval::{Evaluator, RowTable};
use ai2048_ai::search::{
    GreedyPlayer, Mcts, MctsConfig, MctsMode, Minimax, MinimaxConfig, Playout, RandomPlayer,
};
use ai2048_ai::{Player, SearchLimits};
use ai2048_engine::{Board, Dir, Game, Rng, Rules};

fn eval() -> Arc<dyn Evaluator> {
    RowTable::standard()
}

fn minimax(depth: u32) -> Minimax {
    let config = MinimaxConfig {
        depth: Some(depth),
        ..MinimaxConfig::default()
    };
    Minimax::new(config, eval())
}

fn flat(playouts: u32, seed: u64) -> Mcts {
    let config = MctsConfig {
        mode: MctsMode::Flat { playouts },
        ..MctsConfig::default()
    };
    Mcts::new(config, eval(), seed)
}

fn uct(iterations: u32, playout: Playout, max_moves: Option<u32>, seed: u64) -> Mcts {
    let config = MctsConfig {
        mode: MctsMode::Uct {
            iterations,
            exploration: 0.5,
        },
        playout,
        max_playout_moves: max_moves,
        ..MctsConfig::default()
    };
    Mcts::new(config, eval(), seed)
}

/// Plays game `seed` with `player` for at most `max_moves` moves, checking every move is
/// legal; returns the game and the moves chosen.
fn play(
    player: &mut dyn Player,
    seed: u64,
    limits: SearchLimits,
    max_moves: usize,
) -> (Game, Vec<Dir>) {
    let mut game = Game::new(seed, Rules::default()).unwrap();
    let mut dirs = Vec::new();
    while !game.is_over() && dirs.len() < max_moves {
        let board = game.board();
        let result = player.search(board, &limits);
        let dir = result.dir.expect("a move while the game is not over");
        assert!(
            board.can_move(dir),
            "{} played an illegal {dir} on {board:?}",
            player.name()
        );
        assert_eq!(result.dir_values[dir.index()], Some(result.value));
        game.play(dir);
        dirs.push(dir);
    }
    if game.is_over() {
        assert_eq!(player.search(game.board(), &limits).dir, None);
    }
    (game, dirs)
}

fn mean_score(make: impl Fn() -> Box<dyn Player>, seeds: &[u64], max_moves: usize) -> f64 {
    let total: u64 = seeds
        .iter()
        .map(|&s| {
            let mut player = make();
            play(player.as_mut(), s, SearchLimits::default(), max_moves)
                .0
                .score()
        })
        .sum();
    total as f64 / seeds.len() as f64
}

/// A board reached by `moves` random moves from game `seed` (or earlier if lost).
fn random_board(seed: u64, moves: usize) -> Board {
    let mut player = RandomPlayer::new(seed ^ 0x5EED);
    let mut game = Game::new(seed, Rules::default()).unwrap();
    for _ in 0..moves {
        match player.search(game.board(), &SearchLimits::default()).dir {
            Some(dir) => game.play(dir),
            None => break,
        };
    }
    game.board()
}

fn lost_boards() -> Vec<Board> {
    [
        "2 4 2 4/4 2 4 2/2 4 2 4/4 2 4 2",
        "131072 65536 131072 65536/65536 131072 65536 131072/2 4 2 4/4 2 4 2",
        "131072 131072 131072 131072/131072 131072 131072 131072/\
         131072 131072 131072 131072/131072 131072 131072 131072",
    ]
    .iter()
    .map(|s| s.parse().unwrap())
    .collect()
}

fn all_players() -> Vec<(&'static str, Box<dyn Player>)> {
    vec![
        ("minimax depth 0", Box::new(minimax(0))),
        ("minimax depth 2", Box::new(minimax(2))),
        (
            "minimax no pruning",
            Box::new(Minimax::new(
                MinimaxConfig {
                    depth: Some(1),
                    pruning: false,
                    ordering: false,
                },
                eval(),
            )),
        ),
        ("mcts flat", Box::new(flat(2, 1))),
        (
            "mcts uct random",
            Box::new(uct(20, Playout::Random, None, 1)),
        ),
        (
            "mcts uct greedy cut",
            Box::new(uct(20, Playout::Greedy, Some(3), 1)),
        ),
    ]
}

#[test]
fn minimax_plays_legal_moves_to_the_end() {
    for seed in 0..2 {
        let (game, _) = play(&mut minimax(1), seed, SearchLimits::default(), usize::MAX);
        assert!(game.is_over());
    }
    // Deeper, and with a node budget, on a shorter stretch.
    let limits = SearchLimits {
        nodes: Some(2000),
        ..SearchLimits::default()
    };
    play(&mut minimax(3), 7, limits, 60);
}

#[test]
fn mcts_plays_legal_moves_to_the_end() {
    for seed in 0..2 {
        let (game, _) = play(
            &mut flat(1, seed),
            seed,
            SearchLimits::default(),
            usize::MAX,
        );
        assert!(game.is_over());
        let mut player = uct(8, Playout::Random, Some(4), seed);
        let (game, _) = play(&mut player, seed, SearchLimits::default(), usize::MAX);
        assert!(game.is_over());
    }
    let mut player = uct(30, Playout::Greedy, Some(2), 3);
    play(&mut player, 3, SearchLimits::default(), 100);
}

#[test]
fn players_pass_on_lost_boards() {
    for board in lost_boards() {
        assert!(board.is_over(), "{board:?}");
        for (name, mut player) in all_players() {
            for limits in [
                SearchLimits::default(),
                SearchLimits::with_time(Duration::from_millis(5)),
            ] {
                let result = player.search(board, &limits);
                assert_eq!(result.dir, None, "{name} on {board:?}");
                assert_eq!(result.dir_values, [None; 4], "{name} on {board:?}");
            }
        }
    }
}

#[test]
fn players_handle_the_largest_tiles() {
    let boards: Vec<Board> = [
        "131072 65536 32768 32768/16384 8192 4096 2048/0 0 0 0/0 0 0 2",
        "65536 65536 0 0/32768 32768 0 0/0 0 0 0/0 0 0 0",
        "131072 131072 0 0/0 0 0 0/0 0 0 0/0 0 0 0",
        "2 4 8 16/32 64 128 256/512 1024 2048 4096/8192 16384 32768 0",
    ]
    .iter()
    .map(|s| s.parse().unwrap())
    .collect();
    for board in boards {
        for (name, mut player) in all_players() {
            let dir = player.search(board, &SearchLimits::default()).dir;
            let dir = dir.unwrap_or_else(|| panic!("{name} found no move on {board:?}"));
            assert!(board.can_move(dir), "{name} played {dir} on {board:?}");
        }
    }
}

#[test]
fn players_never_panic_on_random_boards() {
    let mut rng = Rng::new(2048);
    let mut players = all_players();
    for _ in 0..80 {
        let mut exps = [0u8; 16];
        for e in &mut exps {
            // Half the cells empty, the others any tile up to 131072.
            if rng.chance(0.5) {
                *e = 1 + rng.below(17) as u8;
            }
        }
        let board = Board::from_exponents(exps).unwrap();
        for (name, player) in &mut players {
            let result = player.search(board, &SearchLimits::default());
            match result.dir {
                Some(dir) => assert!(board.can_move(dir), "{name} played {dir} on {board:?}"),
                None => assert!(board.is_over(), "{name} passed on {board:?}"),
            }
        }
    }
}

#[test]
fn mcts_is_deterministic_for_a_seed() {
    let make = |seed| -> Vec<Box<dyn Player>> {
        vec![
            Box::new(flat(2, seed)),
            Box::new(uct(20, Playout::Random, Some(5), seed)),
            Box::new(uct(20, Playout::Greedy, None, seed)),
        ]
    };
    let limits = SearchLimits::default();
    for (mut a, mut b) in make(11).into_iter().zip(make(11)) {
        let (game_a, dirs_a) = play(a.as_mut(), 4, limits, 40);
        let (game_b, dirs_b) = play(b.as_mut(), 4, limits, 40);
        assert_eq!(dirs_a, dirs_b, "{}", a.name());
        assert_eq!(game_a.board(), game_b.board());
    }
    // Same boards, same answers, node counts included.
    let board = random_board(9, 30);
    let mut a = uct(50, Playout::Random, None, 3);
    let mut b = uct(50, Playout::Random, None, 3);
    assert_eq!(a.search(board, &limits), b.search(board, &limits));
}

/// Minimax by its definition, with no pruning, ordering or deepening: the value of
/// the best move, where after each move the adversary places the worst 2 or 4.
/// (`None` when no move is legal; the boards tested are far from lost.)
fn reference_minimax(eval: &dyn Evaluator, board: Board, depth: u32) -> Option<f64> {
    Dir::ALL
        .into_iter()
        .filter_map(|dir| {
            let after = board.shift(dir);
            (after != board).then(|| {
                if depth == 0 {
                    return Some(f64::from(eval.eval(after) as f32));
                }
                (0..16)
                    .filter(|&cell| after.exponent(cell) == 0)
                    .flat_map(|cell| [1, 2].map(|e| after.with_exponent(cell, e)))
                    .map(|placed| reference_minimax(eval, placed, depth - 1))
                    .try_fold(f64::INFINITY, |worst, v| v.map(|v| worst.min(v)))
            })?
        })
        .reduce(f64::max)
}

#[test]
fn minimax_finds_the_minimax_value_of_its_definition() {
    for (seed, moves, depth) in [(5, 40, 1), (6, 20, 1), (7, 60, 0), (8, 10, 2)] {
        let board = random_board(seed, moves);
        let result = minimax(depth).search(board, &SearchLimits::with_depth(depth));
        let expected = reference_minimax(&*eval(), board, depth).expect("a legal move");
        assert!(
            (result.value - expected).abs() <= 1e-3 * expected.abs().max(1.0),
            "seed {seed}, depth {depth}: {} against {expected}",
            result.value
        );
        assert!(board.can_move(result.dir.expect("a move")));
    }
}

#[test]
fn alpha_beta_matches_plain_minimax() {
    let plain = |ordering| {
        let config = MinimaxConfig {
            depth: Some(2),
            pruning: false,
            ordering,
        };
        Minimax::new(config, eval())
    };
    let mut pruned_nodes = 0;
    let mut plain_nodes = 0;
    for seed in 0..12 {
        // Boards from the opening to the crowded middle game.
        let board = random_board(seed, 10 + 15 * seed as usize);
        if board.is_over() {
            continue;
        }
        let limits = SearchLimits::with_depth(2);
        let pruned = minimax(2).search(board, &limits);
        let full = plain(seed % 2 == 0).search(board, &limits);
        assert_eq!(pruned.value, full.value, "seed {seed}: {board:?}");
        let dir = pruned.dir.unwrap();
        assert_eq!(
            full.dir_values[dir.index()],
            Some(full.value),
            "seed {seed}"
        );
        // Pruned values of the other moves are upper bounds of their true values.
        for d in Dir::ALL {
            match (pruned.dir_values[d.index()], full.dir_values[d.index()]) {
                (Some(bound), Some(exact)) => assert!(
                    bound >= exact || (exact == full.value && bound < pruned.value),
                    "seed {seed} {d}: {pruned:?} {full:?}"
                ),
                (None, None) => {}
                other => panic!("seed {seed} {d}: {other:?}"),
            }
        }
        pruned_nodes += pruned.nodes;
        plain_nodes += full.nodes;
    }
    assert!(
        pruned_nodes * 2 < plain_nodes,
        "{pruned_nodes} vs {plain_nodes}"
    );
}

/// A search given 20 ms came back: how late it may be is not a matter of speed but of
/// scheduling, and a loaded machine can hold a thread for a long time. So this guards
/// against a search that ignores its deadline (it would run for seconds or for ever),
/// and the callers check by counts that the deadline, not the work, stopped it.
fn assert_prompt(took: Duration) {
    assert!(took < Duration::from_secs(3), "took {took:?} for 20 ms");
}

#[test]
fn minimax_deepens_within_a_time_budget() {
    let board = random_board(2, 60);
    let unbounded = Minimax::new(MinimaxConfig::default(), eval());
    for mut player in [unbounded, minimax(20)] {
        let start = Instant::now();
        let result = player.search(board, &SearchLimits::with_time(Duration::from_millis(20)));
        assert_prompt(start.elapsed());
        assert!(board.can_move(result.dir.unwrap()));
        assert!(result.depth < 20);
    }
    // Without a budget the default depth is searched.
    let result =
        Minimax::new(MinimaxConfig::default(), eval()).search(board, &SearchLimits::default());
    assert_eq!(result.depth, Minimax::DEFAULT_DEPTH);
}

#[test]
fn mcts_stops_at_its_budgets() {
    let board = random_board(3, 30);
    for mut player in [flat(1_000_000, 1), uct(u32::MAX, Playout::Random, None, 1)] {
        let start = Instant::now();
        let result = player.search(board, &SearchLimits::with_time(Duration::from_millis(20)));
        assert_prompt(start.elapsed());
        assert!(board.can_move(result.dir.unwrap()));
        // A million random playouts from this board take over 10^8 moves; 20 ms, at
        // most about 10^6 on the fastest machine.
        assert!(result.nodes < 10_000_000, "{} nodes", result.nodes);
        let limits = SearchLimits {
            nodes: Some(5000),
            ..SearchLimits::default()
        };
        let result = player.search(board, &limits);
        assert!(board.can_move(result.dir.unwrap()));
        // One playout may run past the budget, not many.
        assert!(result.nodes < 5000 + 4000, "{} nodes", result.nodes);
    }
}

/// Greedy's mean score over full games on the seeds of the strength tests.
fn greedy_mean(seeds: &[u64]) -> f64 {
    mean_score(|| Box::new(GreedyPlayer::default()), seeds, usize::MAX)
}

#[test]
fn minimax_beats_greedy() {
    let seeds = [0, 1, 2];
    let greedy = greedy_mean(&seeds);
    let minimax = mean_score(|| Box::new(minimax(2)), &seeds, usize::MAX);
    eprintln!("mean score: minimax depth 2 {minimax}, greedy {greedy}");
    assert!(
        minimax > 2.0 * greedy,
        "minimax {minimax} vs greedy {greedy}"
    );
}

#[test]
fn mcts_beats_greedy() {
    // Monte Carlo's games are cut at 300 moves to stay quick; greedy's run to the end
    // (under 300 moves on these seeds) and still score lower.
    let seeds = [0, 1, 2];
    let greedy = greedy_mean(&seeds);
    let mcts = mean_score(|| Box::new(flat(10, 1)), &seeds, 300);
    eprintln!("mean score: mcts flat 10 {mcts} (300 moves at most), greedy {greedy}");
    assert!(mcts > 1.3 * greedy, "mcts {mcts} vs greedy {greedy}");
}
