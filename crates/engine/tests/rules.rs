//! One test per rule of the original game (and its variants), each on hand-made boards.

mod common;

use ai2048_engine::{Board, Dir, Game, PlayError, PlayableBoard, RandableBoard, Rng, Rules, Spawn};
use common::{grid, line_cells, to_board, to_grid, Grid};

/// A board with `line` (listed from the wall `dir` slides toward) in line `index`.
fn line_grid(dir: Dir, index: usize, line: [u64; 4]) -> Grid {
    let mut g = [[0; 4]; 4];
    for (k, (r, c)) in line_cells(dir, index).into_iter().enumerate() {
        g[r][c] = line[k];
    }
    g
}

/// Checks that sliding `line` toward each wall, in each of the four rows or columns,
/// gives `expected` (both listed from that wall) and scores `score`; the rest of the
/// board stays empty.
fn check_line(line: [u64; 4], expected: [u64; 4], score: u32) {
    for dir in Dir::ALL {
        for index in 0..4 {
            let before = to_board(&line_grid(dir, index, line));
            let (after, got_score) = before.shift_scored(dir);
            assert_eq!(
                to_grid(after),
                line_grid(dir, index, expected),
                "{line:?} toward {dir} in line {index}"
            );
            assert_eq!(
                got_score, score,
                "score of {line:?} toward {dir} in line {index}"
            );
            assert_eq!(before.shift(dir), after, "shift and shift_scored agree");
        }
    }
}

/// The first seed whose new game (under `rules`) has an illegal move, with that move.
fn game_with_illegal_move(rules: Rules) -> (Game, Dir) {
    for seed in 0.. {
        let game = Game::new(seed, rules).unwrap();
        let legal = game.board().legal_dirs();
        if let Some(dir) = Dir::ALL.into_iter().find(|&d| !legal.contains(d)) {
            return (game, dir);
        }
    }
    unreachable!()
}

// ---- A new game and spawns ----

#[test]
fn new_game_has_two_tiles_of_2_or_4() {
    for seed in 0..200 {
        let game = Game::new(seed, Rules::default()).unwrap();
        let board = game.board();
        assert_eq!(board.empty_count(), 14, "seed {seed}");
        assert!(board.exponents().iter().all(|&e| e <= 2), "seed {seed}");
        assert_eq!(game.start_spawns().len(), 2);
        assert_eq!(game.score(), 0);
        assert_eq!(game.moves(), 0);
    }
}

#[test]
fn start_tiles_sets_the_number_of_starting_tiles() {
    for start_tiles in 1..=16 {
        let rules = Rules {
            start_tiles,
            ..Rules::default()
        };
        for seed in 0..20 {
            let game = Game::new(seed, rules).unwrap();
            assert_eq!(game.board().empty_count(), 16 - u32::from(start_tiles));
            assert_eq!(game.start_spawns().len(), usize::from(start_tiles));
            // The recorded starting spawns are the board.
            let mut board = Board::EMPTY;
            for s in game.start_spawns() {
                assert_eq!(board.exponent(usize::from(s.cell)), 0, "cells differ");
                board = board.with_exponent(usize::from(s.cell), s.exponent);
            }
            assert_eq!(board, game.board());
        }
    }
}

#[test]
fn a_spawn_is_a_2_or_a_4_in_an_empty_cell() {
    let mut rng = Rng::new(5);
    let board: Board = "2 0 4 0/0 8 0 0/16 0 0 32/0 0 0 2".parse().unwrap();
    let randable = RandableBoard::new(board).unwrap();
    for _ in 0..1000 {
        let (next, spawn) = randable.with_random_tile(&mut rng, 0.1);
        assert!(matches!(spawn.exponent, 1 | 2));
        assert_eq!(board.exponent(usize::from(spawn.cell)), 0);
        assert_eq!(
            next.board(),
            board.with_exponent(usize::from(spawn.cell), spawn.exponent)
        );
    }
}

#[test]
fn a_full_board_cannot_wait_for_a_spawn() {
    let full: Board = "2 4 2 4/4 2 4 2/2 4 2 4/4 2 4 8".parse().unwrap();
    assert!(RandableBoard::new(full).is_none());
    let one_hole: Board = "2 4 2 4/4 2 4 2/2 4 0 4/4 2 4 8".parse().unwrap();
    let randable = RandableBoard::new(one_hole).unwrap();
    assert_eq!(
        randable.with_spawn(Spawn {
            cell: 10,
            exponent: 2
        }),
        Some(PlayableBoard::new(one_hole.with_exponent(10, 2)))
    );
    // Taken cell, or a tile that is not 2 or 4.
    assert!(randable
        .with_spawn(Spawn {
            cell: 0,
            exponent: 1
        })
        .is_none());
    assert!(randable
        .with_spawn(Spawn {
            cell: 10,
            exponent: 3
        })
        .is_none());
}

// ---- Sliding and merging ----

#[test]
fn tiles_slide_to_the_wall() {
    check_line([0, 0, 0, 2], [2, 0, 0, 0], 0);
    check_line([0, 2, 0, 4], [2, 4, 0, 0], 0);
    check_line([0, 8, 16, 32], [8, 16, 32, 0], 0);
}

#[test]
fn four_equal_tiles_make_two_pairs() {
    // [2,2,2,2] -> [4,4,0,0], toward every wall.
    check_line([2, 2, 2, 2], [4, 4, 0, 0], 8);
    check_line([1024, 1024, 1024, 1024], [2048, 2048, 0, 0], 4096);
}

#[test]
fn a_merged_tile_does_not_merge_again_in_the_same_move() {
    // [2,2,4,0] -> [4,4,0,0], not [8,0,0,0].
    check_line([2, 2, 4, 0], [4, 4, 0, 0], 4);
    check_line([2, 2, 4, 8], [4, 4, 8, 0], 4);
    check_line([4, 4, 8, 16], [8, 8, 16, 0], 8);
}

#[test]
fn the_pair_nearest_the_wall_merges_first() {
    // Three equal tiles: the two nearest the wall merge.
    check_line([2, 2, 2, 0], [4, 2, 0, 0], 4);
    check_line([0, 2, 2, 2], [4, 2, 0, 0], 4);
    check_line([8, 8, 8, 4], [16, 8, 4, 0], 16);
    check_line([4, 2, 2, 0], [4, 4, 0, 0], 4);
}

#[test]
fn tiles_merge_across_gaps() {
    check_line([2, 0, 0, 2], [4, 0, 0, 0], 4);
    check_line([2, 0, 2, 2], [4, 2, 0, 0], 4);
    check_line([0, 4, 0, 4], [8, 0, 0, 0], 8);
}

#[test]
fn two_pairs_both_merge() {
    check_line([2, 2, 4, 4], [4, 8, 0, 0], 12);
    check_line([8, 8, 2, 2], [16, 4, 0, 0], 20);
}

#[test]
fn different_tiles_do_not_merge() {
    check_line([2, 4, 2, 4], [2, 4, 2, 4], 0);
    check_line([2, 4, 8, 16], [2, 4, 8, 16], 0);
}

#[test]
fn all_rows_move_together() {
    let board: Board = "2 2 2 2/2 2 4 0/0 4 0 4/8 0 8 8".parse().unwrap();
    let (left, score) = board.shift_scored(Dir::Left);
    assert_eq!(left, "4 4 0 0/4 4 0 0/8 0 0 0/16 8 0 0".parse().unwrap());
    assert_eq!(score, 8 + 4 + 8 + 16);
    let (right, score) = board.shift_scored(Dir::Right);
    assert_eq!(right, "0 0 4 4/0 0 4 4/0 0 0 8/0 0 8 16".parse().unwrap());
    assert_eq!(score, 8 + 4 + 8 + 16);
    let (up, score) = board.shift_scored(Dir::Up);
    assert_eq!(up, "4 4 2 2/8 4 4 4/0 0 8 8/0 0 0 0".parse().unwrap());
    assert_eq!(score, 8);
    let (down, score) = board.shift_scored(Dir::Down);
    assert_eq!(down, "0 0 0 0/0 0 2 2/4 4 4 4/8 4 8 8".parse().unwrap());
    assert_eq!(score, 8);
}

#[test]
fn up_and_down_are_left_and_right_of_the_transpose() {
    let board: Board = "2 0 2 4/2 4 0 4/4 4 8 0/0 8 8 2".parse().unwrap();
    let t = board.transpose();
    assert_eq!(board.shift(Dir::Up), t.shift(Dir::Left).transpose());
    assert_eq!(board.shift(Dir::Down), t.shift(Dir::Right).transpose());
    assert_eq!(board.shift_scored(Dir::Up).1, t.shift_scored(Dir::Left).1);
}

// ---- Score ----

#[test]
fn the_score_is_the_sum_of_the_merged_tiles() {
    let board: Board = "2 2 4 4/8 8 8 8/16 0 16 2/0 0 0 0".parse().unwrap();
    let (_, score) = board.shift_scored(Dir::Left);
    assert_eq!(score, (4 + 8) + (16 + 16) + 32);
    // A move without merges scores 0, and so does an illegal move.
    let board: Board = "2 4 0 0/0 0 0 0/0 0 0 0/0 0 0 8".parse().unwrap();
    assert_eq!(board.shift_scored(Dir::Right).1, 0);
    assert_eq!(board.shift_scored(Dir::Left).1, 0);
}

#[test]
fn a_game_score_adds_the_score_of_every_move() {
    let mut game = Game::new(3, Rules::default()).unwrap();
    let mut total = 0u64;
    let order = [Dir::Left, Dir::Down, Dir::Right, Dir::Up];
    while let Some(dir) = common::first_legal(game.board(), &order) {
        let (_, expected) = common::shift(&to_grid(game.board()), dir);
        let turn = game.try_play(dir).unwrap();
        assert_eq!(u64::from(turn.score), expected);
        total += expected;
        assert_eq!(game.score(), total);
    }
    assert!(total > 0);
}

// ---- Illegal moves ----

#[test]
fn a_move_that_changes_nothing_is_illegal() {
    let board: Board = "2 4 0 0/8 0 0 0/0 0 0 0/0 0 0 0".parse().unwrap();
    assert_eq!(board.shift(Dir::Left), board);
    assert!(!board.can_move(Dir::Left));
    assert!(!board.can_move(Dir::Up));
    assert!(board.can_move(Dir::Right));
    assert!(board.can_move(Dir::Down));
    assert!(PlayableBoard::new(board).apply(Dir::Left).is_none());
    assert!(PlayableBoard::new(board).apply_scored(Dir::Up).is_none());
    assert!(PlayableBoard::new(board).apply(Dir::Right).is_some());
}

#[test]
fn an_illegal_move_is_refused_and_spawns_nothing() {
    let (mut game, dir) = game_with_illegal_move(Rules::default());
    let before = game.clone();
    assert_eq!(game.try_play(dir), Err(PlayError::IllegalMove(dir)));
    assert_eq!(game.board(), before.board());
    assert_eq!(game.score(), before.score());
    assert_eq!(game.moves(), 0);
    assert!(game.turns().is_empty());
    // The generator did not move either: the next legal move spawns what it would have.
    let legal = game.board().legal_dirs().iter().next().unwrap();
    let mut fresh = before.clone();
    assert_eq!(game.try_play(legal), fresh.try_play(legal));
    assert_eq!(game.board(), fresh.board());
}

#[test]
fn with_illegal_move_spawns_an_illegal_move_spawns_and_counts() {
    let rules = common::ILLEGAL_MOVES_SPAWN;
    let (mut game, dir) = game_with_illegal_move(rules);
    let before = game.board();
    let turn = game.try_play(dir).unwrap();
    assert!(!turn.moved);
    assert_eq!(turn.score, 0);
    let spawn = turn.spawn.expect("a tile spawns");
    assert_eq!(before.exponent(usize::from(spawn.cell)), 0);
    assert_eq!(
        game.board(),
        before.with_exponent(usize::from(spawn.cell), spawn.exponent)
    );
    assert_eq!(game.moves(), 1);
    assert_eq!(game.score(), 0);
}

#[test]
fn with_illegal_move_spawns_an_illegal_move_on_a_full_board_ends_the_game() {
    let rules = common::ILLEGAL_MOVES_SPAWN;
    let order = [Dir::Left, Dir::Down, Dir::Right, Dir::Up];
    let mut found = false;
    'seeds: for seed in 0..50 {
        let mut game = Game::new(seed, rules).unwrap();
        while !game.is_over() {
            let board = game.board();
            let legal = board.legal_dirs();
            let illegal = Dir::ALL.into_iter().find(|&d| !legal.contains(d));
            if let (0, Some(dir), false) = (board.empty_count(), illegal, legal.is_empty()) {
                let turn = game.try_play(dir).unwrap();
                assert_eq!(turn.spawn, None);
                assert!(!turn.moved);
                assert_eq!(game.board(), board);
                assert!(game.is_over(), "the grader ends the game here");
                assert_eq!(
                    game.try_play(legal.iter().next().unwrap()),
                    Err(PlayError::GameOver)
                );
                found = true;
                break 'seeds;
            }
            let dir = common::first_legal(board, &order).unwrap();
            game.try_play(dir).unwrap();
        }
    }
    assert!(found, "no full board with an illegal move in 50 games");
}

// ---- Game over ----

#[test]
fn a_full_board_without_equal_neighbours_is_over() {
    let board: Board = "2 4 2 4/4 2 4 2/2 4 2 4/4 2 4 2".parse().unwrap();
    assert!(board.is_over());
    assert!(board.legal_dirs().is_empty());
    assert!(PlayableBoard::new(board).is_over());
    for dir in Dir::ALL {
        assert_eq!(board.shift(dir), board);
    }
}

#[test]
fn a_full_board_with_equal_neighbours_is_not_over() {
    // Equal neighbours in a column only: up and down are legal, left and right not.
    let board: Board = "2 4 2 4/4 2 4 2/2 4 2 4/2 8 16 32".parse().unwrap();
    assert!(!board.is_over());
    let legal: Vec<Dir> = board.legal_dirs().iter().collect();
    assert_eq!(legal, vec![Dir::Up, Dir::Down]);
}

#[test]
fn a_board_with_an_empty_cell_is_not_over() {
    let board: Board = "2 4 2 4/4 2 4 2/2 4 2 4/4 2 4 0".parse().unwrap();
    assert!(!board.is_over());
    assert!(!Board::EMPTY.with_exponent(0, 1).is_over());
    assert!(Board::EMPTY.is_over(), "nothing moves on an empty board");
}

#[test]
fn a_game_ends_when_no_move_is_legal() {
    let mut game = Game::new(11, Rules::default()).unwrap();
    let order = [Dir::Up, Dir::Left, Dir::Right, Dir::Down];
    while let Some(dir) = common::first_legal(game.board(), &order) {
        assert!(!game.is_over());
        game.try_play(dir).unwrap();
    }
    assert!(game.is_over());
    assert!(game.board().is_over());
    assert_eq!(game.board().empty_count(), 0);
    for dir in Dir::ALL {
        assert_eq!(game.try_play(dir), Err(PlayError::GameOver));
    }
}

// ---- Large tiles: exact up to 131072 ----

#[test]
fn two_32768_make_65536() {
    check_line([32768, 32768, 0, 0], [65536, 0, 0, 0], 65536);
    check_line([0, 32768, 0, 32768], [65536, 0, 0, 0], 65536);
    check_line([32768, 32768, 32768, 32768], [65536, 65536, 0, 0], 131072);
}

#[test]
fn two_65536_make_131072() {
    check_line([65536, 65536, 0, 0], [131072, 0, 0, 0], 131072);
    check_line([0, 65536, 65536, 0], [131072, 0, 0, 0], 131072);
    check_line(
        [65536, 65536, 32768, 32768],
        [131072, 65536, 0, 0],
        131072 + 65536,
    );
}

#[test]
fn large_tiles_mix_with_small_ones() {
    check_line([65536, 65536, 2, 2], [131072, 4, 0, 0], 131072 + 4);
    check_line([2, 65536, 65536, 2], [2, 131072, 2, 0], 131072);
    check_line(
        [131072, 65536, 32768, 32768],
        [131072, 65536, 65536, 0],
        65536,
    );
    check_line([32768, 16384, 16384, 2], [32768, 32768, 2, 0], 32768);
    check_line([131072, 2, 2, 4], [131072, 4, 4, 0], 4);
    check_line([65536, 0, 32768, 4], [65536, 32768, 4, 0], 0);
}

#[test]
fn a_board_mixing_large_and_small_tiles_moves_every_row() {
    let g = grid("131072 65536 65536 2/32768 32768 4 4/2 2 2 2/16384 16384 8 8");
    let board = to_board(&g);
    assert!(board.has_high_tiles());
    for dir in Dir::ALL {
        let (expected, expected_score) = common::shift(&g, dir);
        let (after, score) = board.shift_scored(dir);
        assert_eq!(to_grid(after), expected, "{dir}");
        assert_eq!(u64::from(score), expected_score, "{dir}");
    }
    let (left, score) = board.shift_scored(Dir::Left);
    assert_eq!(
        to_grid(left),
        grid("131072 131072 2 0/65536 8 0 0/4 4 0 0/32768 16 0 0")
    );
    assert_eq!(score, 131072 + 65536 + 8 + 8 + 32768 + 16);
}

#[test]
fn doubling_from_2_reaches_131072_exactly() {
    // One row merged again and again: 2+2, 4+4, ..., 65536+65536.
    let mut tile = 2u64;
    while tile < 131072 {
        let mut g = [[0; 4]; 4];
        g[2] = [0, tile, 0, tile];
        let (after, score) = to_board(&g).shift_scored(Dir::Left);
        let mut expected = [[0; 4]; 4];
        expected[2] = [2 * tile, 0, 0, 0];
        assert_eq!(to_grid(after), expected, "{tile} + {tile}");
        assert_eq!(u64::from(score), 2 * tile);
        assert_eq!(u64::from(after.max_tile()), 2 * tile);
        tile *= 2;
    }
}

#[test]
fn two_131072_tiles_do_not_merge() {
    // No real game can hold two 131072 tiles, and the board has no 262144: they stay.
    let board: Board = "131072 131072 0 0/0 0 0 0/0 0 0 0/0 0 0 0".parse().unwrap();
    assert_eq!(board.shift_scored(Dir::Left), (board, 0));
    assert!(!board.can_move(Dir::Left));
    let (right, score) = board.shift_scored(Dir::Right);
    assert_eq!(
        right,
        "0 0 131072 131072/0 0 0 0/0 0 0 0/0 0 0 0".parse().unwrap()
    );
    assert_eq!(score, 0);
}

#[test]
fn the_slow_path_keeps_small_rows_on_a_board_with_large_tiles() {
    // Rows without a large tile still move by the tables.
    let g = grid("65536 0 0 0/2 2 4 0/0 0 0 0/8 0 8 0");
    for dir in Dir::ALL {
        let (expected, score) = common::shift(&g, dir);
        let (after, got) = to_board(&g).shift_scored(dir);
        assert_eq!(to_grid(after), expected, "{dir}");
        assert_eq!(u64::from(got), score, "{dir}");
    }
}
