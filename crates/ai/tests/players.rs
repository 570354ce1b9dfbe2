//! Every player plays legal moves, and each is stronger than the one below it on
//! fixed seeds.

use ai2048_ai::{create_player, PlayerSpec, SearchLimits};
use ai2048_engine::{Board, Game, Rules};

fn play(spec: &str, seed: u64, limits: SearchLimits) -> Game {
    let spec: PlayerSpec = spec.parse().unwrap();
    let mut player = create_player(&spec, seed).unwrap();
    let mut game = Game::new(seed, Rules::default()).unwrap();
    while !game.is_over() {
        let board = game.board();
        let result = player.search(board, &limits);
        let dir = result.dir.expect("a move while the game is not over");
        assert!(
            board.can_move(dir),
            "{spec} played an illegal {dir} on {board:?}"
        );
        game.play(dir);
    }
    assert!(player.search(game.board(), &limits).dir.is_none());
    game
}

fn mean_score(spec: &str, seeds: std::ops::Range<u64>, limits: SearchLimits) -> f64 {
    let n = seeds.end - seeds.start;
    seeds
        .map(|s| play(spec, s, limits).score() as f64)
        .sum::<f64>()
        / n as f64
}

#[test]
fn greedy_beats_random() {
    let none = SearchLimits::default();
    let random = mean_score("random", 0..20, none);
    let greedy = mean_score("greedy", 0..20, none);
    assert!(greedy > 2.0 * random, "greedy {greedy} vs random {random}");
}

#[test]
fn expectimax_beats_greedy() {
    let none = SearchLimits::default();
    let greedy = mean_score("greedy", 0..4, none);
    let expectimax = mean_score("expectimax:tt-mb=1", 0..4, SearchLimits::with_depth(1));
    assert!(
        expectimax > 2.0 * greedy,
        "expectimax {expectimax} vs greedy {greedy}"
    );
}

#[test]
fn players_pass_on_lost_boards() {
    let lost: Board = "2 4 2 4/4 2 4 2/2 4 2 4/4 2 4 2".parse().unwrap();
    for name in ["random", "greedy", "expectimax:tt-mb=1"] {
        let mut p = create_player(&name.parse().unwrap(), 0).unwrap();
        assert_eq!(p.search(lost, &SearchLimits::default()).dir, None, "{name}");
    }
}

#[test]
fn threaded_expectimax_agrees_with_one_thread() {
    use ai2048_ai::search::{Expectimax, ExpectimaxConfig};
    use ai2048_ai::Player;
    let config = ExpectimaxConfig {
        tt_slots: 0,
        ..ExpectimaxConfig::default()
    };
    let mut one = Expectimax::new(config);
    let mut two = Expectimax::new(ExpectimaxConfig {
        threads: 2,
        ..config
    });
    let mut game = Game::new(3, Rules::default()).unwrap();
    for _ in 0..30 {
        let a = one.search(game.board(), &SearchLimits::with_depth(2));
        let b = two.search(game.board(), &SearchLimits::with_depth(2));
        for (x, y) in a.dir_values.iter().zip(&b.dir_values) {
            match (x, y) {
                (Some(x), Some(y)) => assert!((x - y).abs() <= 1e-4 * x.abs(), "{x} vs {y}"),
                (None, None) => {}
                _ => panic!("legal moves differ: {a:?} vs {b:?}"),
            }
        }
        game.play(a.dir.unwrap());
    }
}
