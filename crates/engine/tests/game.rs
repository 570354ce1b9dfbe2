//! Seeded games: determinism, one pinned game, the statistics of the generator and of
//! spawns, undo, and the validation of rules.

mod common;

use std::collections::HashSet;

use ai2048_engine::{Board, Dir, Game, PlayError, RandableBoard, Replay, Rng, Rules, SpawnStream};
use common::first_legal;

/// The policy of the pinned game: the first legal move in this order.
const ORDER: [Dir; 4] = [Dir::Left, Dir::Down, Dir::Right, Dir::Up];

/// Plays a whole game with the first-legal policy.
fn play_out(seed: u64, rules: Rules, order: &[Dir]) -> Game {
    let mut game = Game::new(seed, rules).unwrap();
    while let Some(dir) = first_legal(game.board(), order) {
        game.try_play(dir).unwrap();
    }
    game
}

// ---- Determinism ----

#[test]
fn the_same_seed_gives_the_same_game() {
    for seed in [0, 1, 42, u64::MAX] {
        for rules in [
            Rules::default(),
            Rules {
                start_tiles: 1,
                four_probability: 0.25,
                ..Rules::default()
            },
        ] {
            let a = play_out(seed, rules, &ORDER);
            let b = play_out(seed, rules, &ORDER);
            assert!(a.is_over());
            assert_eq!(a.replay(), b.replay(), "seed {seed}");
            assert_eq!(a.turns(), b.turns());
            assert_eq!(a.score(), b.score());
            assert_eq!(a.board(), b.board());
        }
    }
}

#[test]
fn a_pinned_game_never_changes() {
    // Seed 12345, first legal move in the order left, down, right, up, to the end.
    // This pins the generator (xoshiro256** through SplitMix64), the order of the draws
    // of a spawn (first the cell among the empty cells in reading order, then the
    // value) and the rules of a move. If it fails, saved replays and benchmark games no
    // longer replay: change it only on purpose, and say so.
    let game = play_out(12345, Rules::default(), &ORDER);
    assert_eq!(
        (game.score(), game.moves(), game.board().to_hex()),
        (GOLDEN_SCORE, GOLDEN_MOVES, GOLDEN_BOARD.to_owned())
    );
}

const GOLDEN_SCORE: u64 = 3120;
const GOLDEN_MOVES: usize = 257;
const GOLDEN_BOARD: &str = "3212132175328653";

/// The pinned game again, played by the reference rules with the generator drawn by
/// hand: a spawn is `below(number of empty cells)` among the empty cells in reading
/// order, then `chance(0.1)` for a 4.
#[test]
fn the_pinned_game_follows_the_reference_rules_and_spawn_order() {
    let mut rng = Rng::new(12345);
    let spawn = |g: &common::Grid, rng: &mut Rng| {
        let empty = common::empty_cells(g);
        let cell = empty[rng.below(empty.len() as u32) as usize];
        let value = if rng.chance(0.1) { 4 } else { 2 };
        common::with_tile(g, cell, value)
    };
    let mut g = [[0; 4]; 4];
    g = spawn(&g, &mut rng);
    g = spawn(&g, &mut rng);
    let (mut score, mut moves) = (0, 0);
    while let Some(dir) = ORDER.into_iter().find(|&d| common::is_legal(&g, d)) {
        let (moved, s) = common::shift(&g, dir);
        score += s;
        moves += 1;
        g = spawn(&moved, &mut rng);
    }
    assert_eq!(
        (score, moves, common::to_board(&g).to_hex()),
        (GOLDEN_SCORE, GOLDEN_MOVES, GOLDEN_BOARD.to_owned())
    );
}

#[test]
fn different_seeds_give_different_games() {
    let mut games = HashSet::new();
    let mut starts = HashSet::new();
    for seed in 0..100 {
        let game = play_out(seed, Rules::default(), &ORDER);
        starts.insert(game.start_spawns().to_vec());
        // The replay without its seed line: the moves, spawns, score and board.
        let text = game.replay().to_string();
        let body: Vec<&str> = text.lines().filter(|l| !l.starts_with("seed")).collect();
        assert!(
            games.insert(body.join("\n")),
            "seed {seed} plays like an earlier seed"
        );
    }
    // 240 ways to place two different-cell tiles, times four values: starts repeat a
    // little, but not much.
    assert!(starts.len() > 80, "{} distinct starts", starts.len());
}

#[test]
fn rng_streams_differ_between_seeds() {
    let firsts: HashSet<u64> = (0..1000).map(|s| Rng::new(s).next_u64()).collect();
    assert_eq!(firsts.len(), 1000);
}

// ---- The generator ----

/// Pearson's chi-square statistic of observed counts against equal expected counts.
fn chi_square(counts: &[u64]) -> f64 {
    let total: u64 = counts.iter().sum();
    let expected = total as f64 / counts.len() as f64;
    counts
        .iter()
        .map(|&c| (c as f64 - expected).powi(2) / expected)
        .sum()
}

/// A loose bound for a chi-square with `df` degrees of freedom: the mean plus six
/// standard deviations, so that a correct generator never fails it.
fn loose_bound(df: usize) -> f64 {
    let df = df as f64;
    df + 6.0 * (2.0 * df).sqrt() + 10.0
}

#[test]
fn below_is_uniform() {
    let mut rng = Rng::new(2048);
    for n in [1u32, 2, 3, 5, 7, 10, 15, 16, 100] {
        let mut counts = vec![0u64; n as usize];
        for _ in 0..2000 * n {
            let k = rng.below(n);
            assert!(k < n);
            counts[k as usize] += 1;
        }
        if n > 1 {
            let chi = chi_square(&counts);
            assert!(chi < loose_bound(n as usize - 1), "below({n}): chi2 {chi}");
        }
    }
}

#[test]
fn below_a_large_bound_is_unbiased() {
    // A bound just above 2^31: a biased reduction would favour the low half twice over.
    let mut rng = Rng::new(7);
    let n = (1u32 << 31) + (1 << 30);
    let draws = 100_000;
    let low = (0..draws).filter(|_| rng.below(n) < n / 2).count();
    let frac = low as f64 / f64::from(draws);
    assert!((frac - 0.5).abs() < 0.01, "{frac}");
    assert!(rng.below(u32::MAX) < u32::MAX);
}

#[test]
#[should_panic(expected = "below(0)")]
fn below_zero_panics() {
    Rng::new(0).below(0);
}

#[test]
fn unit_is_in_the_unit_interval_with_mean_one_half() {
    let mut rng = Rng::new(99);
    let draws = 100_000;
    let mut sum = 0.0;
    for _ in 0..draws {
        let u = rng.unit();
        assert!((0.0..1.0).contains(&u));
        sum += u;
    }
    assert!((sum / f64::from(draws) - 0.5).abs() < 0.01);
}

// ---- Spawns ----

/// Counts the 4s among `n` spawns on the empty board, and the cells chosen.
fn spawn_counts(seed: u64, p4: f64, n: usize) -> (usize, Vec<u64>) {
    let mut rng = Rng::new(seed);
    let empty = RandableBoard::new(Board::EMPTY).unwrap();
    let mut fours = 0;
    let mut cells = vec![0u64; 16];
    for _ in 0..n {
        let (_, spawn) = empty.with_random_tile(&mut rng, p4);
        if spawn.exponent == 2 {
            fours += 1;
        }
        cells[usize::from(spawn.cell)] += 1;
    }
    (fours, cells)
}

#[test]
fn one_spawn_in_ten_is_a_4() {
    let n = 100_000;
    let (fours, _) = spawn_counts(1, 0.1, n);
    // Expected 10000, standard deviation about 95.
    assert!((9_500..=10_500).contains(&fours), "{fours} fours");
}

#[test]
fn spawns_choose_cells_uniformly() {
    let (_, cells) = spawn_counts(2, 0.1, 64_000);
    let chi = chi_square(&cells);
    assert!(chi < loose_bound(15), "chi2 {chi}: {cells:?}");
    // Among fewer empty cells too: a board with 3 empty cells.
    let board: Board = "2 4 8 16/0 4 8 16/2 0 8 16/2 4 8 0".parse().unwrap();
    let randable = RandableBoard::new(board).unwrap();
    let mut rng = Rng::new(3);
    let mut counts = [0u64; 16];
    for _ in 0..30_000 {
        counts[usize::from(randable.with_random_tile(&mut rng, 0.1).1.cell)] += 1;
    }
    let used: Vec<u64> = [4, 9, 15].iter().map(|&i| counts[i]).collect();
    assert_eq!(used.iter().sum::<u64>(), 30_000, "{counts:?}");
    assert!(chi_square(&used) < loose_bound(2), "{used:?}");
}

/// Keyed spawns draw as the rules say: on an empty board and on a board with three
/// empty cells, the cell is uniform among the empty ones, and one spawn in ten is a 4,
/// each (cell, tile) pair as often as the rules expect, one spawn a turn as a game
/// draws them.
#[test]
fn keyed_spawns_follow_the_rules() {
    use ai2048_engine::keyed::{KeyedRng, SpawnKey};
    let key = SpawnKey::from_bytes(core::array::from_fn(|i| (i * 151 + 7) as u8));
    let partly: Board = "2 4 8 16/0 4 8 16/2 0 8 16/2 4 8 0".parse().unwrap();
    for (board, empty) in [
        (Board::EMPTY, (0..16).collect::<Vec<usize>>()),
        (partly, vec![4, 9, 15]),
    ] {
        let randable = RandableBoard::new(board).unwrap();
        let n = 40_000 * empty.len() as u64 / 16 + 30_000;
        let mut counts = vec![0u64; 32];
        for turn in 0..n {
            let (_, spawn) =
                randable.with_random_tile_from(&mut KeyedRng::after_turn(&key, turn), 0.1);
            counts[usize::from(spawn.cell) * 2 + usize::from(spawn.exponent - 1)] += 1;
        }
        let cells: Vec<u64> = empty
            .iter()
            .map(|&c| counts[2 * c] + counts[2 * c + 1])
            .collect();
        assert_eq!(cells.iter().sum::<u64>(), n, "{counts:?}");
        let chi = chi_square(&cells);
        assert!(
            chi < loose_bound(empty.len() - 1),
            "cells: chi2 {chi}: {cells:?}"
        );
        // (cell, tile) against the rules' probabilities: 0.9 / k and 0.1 / k.
        let k = empty.len() as f64;
        let chi: f64 = empty
            .iter()
            .flat_map(|&c| [(counts[2 * c], 0.9 / k), (counts[2 * c + 1], 0.1 / k)])
            .map(|(observed, p)| {
                let expected = p * n as f64;
                (observed as f64 - expected).powi(2) / expected
            })
            .sum();
        assert!(
            chi < loose_bound(2 * empty.len() - 1),
            "pairs: chi2 {chi}: {counts:?}"
        );
        let fours: u64 = empty.iter().map(|&c| counts[2 * c + 1]).sum();
        let frac = fours as f64 / n as f64;
        // Six standard deviations.
        assert!(
            (frac - 0.1).abs() < 6.0 * (0.09 / n as f64).sqrt(),
            "{frac}"
        );
    }
    // The start tiles too: 2 of them, on distinct cells, uniform over the 16 cells.
    let mut cells = [0u64; 16];
    for i in 0..8_000u32 {
        let key = SpawnKey::from_bytes(core::array::from_fn(|b| {
            (i >> (8 * (b % 4))) as u8 ^ b as u8
        }));
        let game =
            Game::with_spawns(0, Rules::ORIGINAL, ai2048_engine::SpawnStream::Keyed(key)).unwrap();
        let [a, b] = game.start_spawns() else {
            panic!()
        };
        assert_ne!(a.cell, b.cell);
        cells[usize::from(a.cell)] += 1;
        cells[usize::from(b.cell)] += 1;
    }
    assert!(chi_square(&cells) < loose_bound(15), "{cells:?}");
}

#[test]
fn four_probability_0_spawns_only_2s_and_1_only_4s() {
    assert_eq!(spawn_counts(4, 0.0, 10_000).0, 0);
    assert_eq!(spawn_counts(5, 1.0, 10_000).0, 10_000);
    for (p4, exponent) in [(0.0, 1), (1.0, 2)] {
        let rules = Rules {
            four_probability: p4,
            ..Rules::default()
        };
        let game = play_out(6, rules, &ORDER);
        let spawns = game
            .start_spawns()
            .iter()
            .copied()
            .chain(game.turns().iter().filter_map(|t| t.spawn));
        assert!(spawns.into_iter().all(|s| s.exponent == exponent));
    }
}

#[test]
fn games_spawn_4s_one_time_in_ten() {
    let (mut fours, mut all) = (0usize, 0usize);
    for seed in 0..20 {
        let game = play_out(seed, Rules::default(), &ORDER);
        for spawn in game.turns().iter().filter_map(|t| t.spawn) {
            all += 1;
            fours += usize::from(spawn.exponent == 2);
        }
    }
    let frac = fours as f64 / all as f64;
    assert!(all > 2000, "{all} spawns");
    assert!(
        (0.08..0.12).contains(&frac),
        "{frac} of {all} spawns are 4s"
    );
}

// ---- Undo ----

#[test]
fn undo_restores_the_board_and_score_and_replays_the_same_spawn() {
    for rules in [
        Rules::default(),
        Rules {
            illegal_move_spawns: true,
            start_tiles: 1,
            ..Rules::default()
        },
    ] {
        let mut game = Game::new(77, rules).unwrap();
        let mut rng = Rng::new(1);
        let mut history = vec![(game.board(), game.score(), game.moves())];
        for _ in 0..300 {
            let dir = Dir::ALL[rng.below(4) as usize];
            match game.try_play(dir) {
                Ok(_) => history.push((game.board(), game.score(), game.moves())),
                Err(PlayError::IllegalMove(_)) => {}
                Err(PlayError::GameOver) => break,
            }
        }
        assert!(history.len() > 10);
        // Undo a few turns one by one; each time, redoing the move gives the same turn.
        for _ in 0..10 {
            let after = game.clone();
            let last = game.undo().expect("a turn to undo");
            history.pop();
            let &(board, score, moves) = history.last().unwrap();
            assert_eq!(
                (game.board(), game.score(), game.moves()),
                (board, score, moves)
            );
            let mut redo = game.clone();
            assert_eq!(redo.try_play(last.dir), Ok(last));
            assert_eq!(redo.board(), after.board());
            assert_eq!(redo.replay(), after.replay());
        }
        // Back to the start, where there is nothing left to undo.
        while game.undo().is_some() {}
        assert_eq!(game.board(), history[0].0);
        assert_eq!(game.score(), 0);
        assert_eq!(game.moves(), 0);
        assert_eq!(game.replay(), Game::new(77, rules).unwrap().replay());
        assert_eq!(game.undo(), None);
    }
}

#[test]
fn undo_in_a_game_from_a_position_goes_back_to_that_position() {
    let origin: Board = "2 4 8 16/0 0 0 0/0 0 0 0/0 0 0 2".parse().unwrap();
    let mut game = Game::from_board(3, Rules::default(), SpawnStream::Sequential, origin).unwrap();
    let first = game.try_play(Dir::Down).unwrap();
    let after = game.board();
    game.try_play(Dir::Left).unwrap();
    game.undo().unwrap();
    assert_eq!(game.board(), after);
    game.undo().unwrap();
    assert_eq!((game.board(), game.moves(), game.score()), (origin, 0, 0));
    assert_eq!(game.try_play(Dir::Down), Ok(first));
}

#[test]
fn undo_after_game_over_reopens_the_game() {
    let mut game = play_out(8, Rules::default(), &ORDER);
    assert!(game.is_over());
    let last = game.undo().unwrap();
    assert!(!game.is_over());
    assert_eq!(game.try_play(last.dir), Ok(last));
    assert!(game.is_over());
}

// ---- Rules ----

#[test]
fn the_default_rules_are_the_original_game() {
    let rules = Rules::default();
    assert_eq!(rules, Rules::ORIGINAL);
    assert_eq!(rules.start_tiles, 2);
    assert_eq!(rules.four_probability, 0.1);
    assert!(!rules.illegal_move_spawns);
    assert!(rules.validate().is_ok());
}

#[test]
fn start_tiles_must_be_from_1_to_16() {
    for start_tiles in [0u8, 17, 255] {
        let rules = Rules {
            start_tiles,
            ..Rules::default()
        };
        let e = rules.validate().unwrap_err();
        assert!(e.to_string().contains("start tiles"), "{e}");
        assert!(Game::new(1, rules).is_err());
    }
    for start_tiles in [1u8, 16] {
        let rules = Rules {
            start_tiles,
            ..Rules::default()
        };
        assert!(rules.validate().is_ok());
        assert!(Game::new(1, rules).is_ok());
    }
}

#[test]
fn four_probability_must_be_from_0_to_1() {
    for p in [
        -0.1,
        1.5,
        f64::NAN,
        f64::INFINITY,
        f64::NEG_INFINITY,
        -0.0001,
    ] {
        let rules = Rules {
            four_probability: p,
            ..Rules::default()
        };
        let e = rules.validate().unwrap_err();
        assert!(e.to_string().contains("probability of a 4"), "{p}: {e}");
        assert!(Game::new(1, rules).is_err(), "{p}");
    }
    for p in [0.0, 0.5, 1.0] {
        let rules = Rules {
            four_probability: p,
            ..Rules::default()
        };
        assert!(rules.validate().is_ok(), "{p}");
    }
}

#[test]
fn replays_of_played_games_verify() {
    // A quick end-to-end check (tests/replay.rs has the thorough ones).
    let game = play_out(9, Rules::default(), &ORDER);
    let replay: Replay = game.replay().to_string().parse().unwrap();
    assert_eq!(replay.verify().unwrap().score(), game.score());
}
