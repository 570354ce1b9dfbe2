//! Property tests: the fast engine against the reference implementation of
//! `tests/common`, on random boards of every tile up to 131072 and on realistic boards.

mod common;

use std::collections::HashSet;

use ai2048_engine::{Board, Dir, PlayableBoard, RandableBoard, Rng, MAX_EXPONENT};
use common::{grid_of_exponents, to_board, to_grid, Grid};
use proptest::prelude::*;

/// Any board: every cell an exponent from 0 (empty) to 17 (131072), uniformly.
fn any_board() -> impl Strategy<Value = Grid> {
    proptest::collection::vec(0..=MAX_EXPONENT, 16).prop_map(|e| grid_of_exponents(&e))
}

/// Boards like those of real games: many empty cells and small tiles, few large ones,
/// and some equal neighbours (copies of a cell next to it), so that merges are common
/// and both the table path and the exact path for 32768 and up are exercised.
fn realistic_board() -> impl Strategy<Value = Grid> {
    let exponent = prop_oneof![
        6 => Just(0u8),
        10 => 1u8..=6,
        4 => 7u8..=12,
        1 => 13u8..=MAX_EXPONENT,
    ];
    let copies = proptest::collection::vec((0usize..16, 0usize..4), 0..8);
    (proptest::collection::vec(exponent, 16), copies).prop_map(|(mut e, copies)| {
        for (cell, side) in copies {
            let (r, c) = (cell / 4, cell % 4);
            let neighbour = match side {
                0 if r > 0 => cell - 4,
                1 if r < 3 => cell + 4,
                2 if c > 0 => cell - 1,
                3 if c < 3 => cell + 1,
                _ => continue,
            };
            e[neighbour] = e[cell];
        }
        grid_of_exponents(&e)
    })
}

/// Either kind of board.
fn board() -> impl Strategy<Value = Grid> {
    prop_oneof![any_board(), realistic_board()]
}

fn dir() -> impl Strategy<Value = Dir> {
    prop_oneof![
        Just(Dir::Up),
        Just(Dir::Down),
        Just(Dir::Left),
        Just(Dir::Right)
    ]
}

/// The shifted board and score agree with the reference in every direction.
fn check_moves(g: &Grid) -> Result<(), TestCaseError> {
    let board = to_board(g);
    for dir in Dir::ALL {
        let (expected, expected_score) = common::shift(g, dir);
        let (after, score) = board.shift_scored(dir);
        prop_assert_eq!(to_grid(after), expected, "{} of {:?}", dir, board);
        prop_assert_eq!(
            u64::from(score),
            expected_score,
            "score {} of {:?}",
            dir,
            board
        );
        prop_assert_eq!(board.shift(dir), after);
        prop_assert_eq!(board.can_move(dir), common::is_legal(g, dir));
        // A move keeps the sum of the tiles.
        prop_assert_eq!(after.tile_sum(), board.tile_sum());
        let playable = PlayableBoard::new(board);
        match playable.apply_scored(dir) {
            Some((randable, s)) => {
                prop_assert!(common::is_legal(g, dir));
                prop_assert_eq!(randable.board(), after);
                prop_assert_eq!(s, score);
                prop_assert_eq!(playable.apply(dir), Some(randable));
            }
            None => {
                prop_assert!(!common::is_legal(g, dir));
                prop_assert_eq!(playable.apply(dir), None);
            }
        }
    }
    Ok(())
}

/// Legality, game over and the queries of the board agree with the reference.
fn check_queries(g: &Grid) -> Result<(), TestCaseError> {
    let board = to_board(g);
    let legal: Vec<Dir> = board.legal_dirs().iter().collect();
    prop_assert_eq!(&legal, &common::legal_dirs(g));
    prop_assert_eq!(board.legal_dirs().len(), legal.len());
    prop_assert_eq!(board.is_over(), common::is_over(g));
    prop_assert_eq!(PlayableBoard::new(board).is_over(), common::is_over(g));
    let empty = common::empty_cells(g);
    prop_assert_eq!(board.empty_count() as usize, empty.len());
    prop_assert_eq!(board.empty_cells().collect::<Vec<_>>(), empty.clone());
    let mask: u16 = empty.iter().map(|&i| 0x8000u16 >> i).sum();
    prop_assert_eq!(board.empty_mask(), mask);
    prop_assert_eq!(u64::from(board.max_tile()), common::max_tile(g));
    prop_assert_eq!(board.tile_sum(), common::tile_sum(g));
    prop_assert_eq!(
        board.has_high_tiles(),
        g.iter().flatten().any(|&v| v >= 65536)
    );
    for i in 0..16 {
        prop_assert_eq!(u64::from(board.tile(i)), g[i / 4][i % 4]);
    }
    Ok(())
}

/// Transpose and the conversions agree with the reference and round trip.
fn check_forms(g: &Grid) -> Result<(), TestCaseError> {
    let board = to_board(g);
    prop_assert_eq!(to_grid(board), *g);
    prop_assert_eq!(Board::from_rows(to_grid(board)).unwrap(), board);
    prop_assert_eq!(to_grid(board.transpose()), common::transpose(g));
    prop_assert_eq!(board.transpose().transpose(), board);
    prop_assert_eq!(Board::from_exponents(board.exponents()), Ok(board));
    prop_assert_eq!(board.to_hex().parse::<Board>().unwrap(), board);
    prop_assert_eq!(board.to_string().parse::<Board>().unwrap(), board);
    if !board.has_high_tiles() {
        prop_assert_eq!(Board::from_u64(board.low_bits()), board);
    }
    Ok(())
}

/// The spawns of a board waiting for one: what `successors` lists is the reference's.
fn check_successors(g: &Grid, p4: f64) -> Result<(), TestCaseError> {
    let board = to_board(g);
    let Some(randable) = RandableBoard::new(board) else {
        prop_assert_eq!(board.empty_count(), 0);
        return Ok(());
    };
    let got: Vec<(f64, PlayableBoard)> = randable.successors(p4).collect();
    let total: f64 = got.iter().map(|&(p, _)| p).sum();
    prop_assert!((total - 1.0).abs() < 1e-9, "probabilities sum to {}", total);
    let expected = common::successors(g, p4);
    prop_assert_eq!(got.len(), expected.len());
    let mut seen = HashSet::new();
    for ((p, next), (q, expected_grid)) in got.iter().zip(&expected) {
        prop_assert!((p - q).abs() < 1e-12);
        prop_assert_eq!(to_grid(next.board()), *expected_grid);
        prop_assert!(seen.insert(next.board()), "successors are distinct");
        // Exactly one cell changed: an empty one, now a 2 or a 4.
        let changed: Vec<usize> = (0..16)
            .filter(|&i| next.board().exponent(i) != board.exponent(i))
            .collect();
        prop_assert_eq!(changed.len(), 1);
        prop_assert_eq!(board.exponent(changed[0]), 0);
        prop_assert!(matches!(next.board().exponent(changed[0]), 1 | 2));
    }
    Ok(())
}

proptest! {
    #[test]
    fn moves_agree_with_the_reference(g in board()) {
        check_moves(&g)?;
    }

    #[test]
    fn queries_agree_with_the_reference(g in board()) {
        check_queries(&g)?;
    }

    #[test]
    fn forms_round_trip(g in board()) {
        check_forms(&g)?;
    }

    #[test]
    fn successors_are_the_board_plus_one_tile(
        g in board(),
        p4 in prop_oneof![Just(0.0), Just(0.1), Just(1.0), 0.0f64..=1.0],
    ) {
        check_successors(&g, p4)?;
    }

    #[test]
    fn a_random_spawn_is_one_of_the_successors(g in realistic_board(), seed: u64) {
        let board = to_board(&g);
        if let Some(randable) = RandableBoard::new(board) {
            let (next, spawn) = randable.with_random_tile(&mut Rng::new(seed), 0.1);
            prop_assert!(randable.successors(0.1).any(|(_, s)| s == next));
            prop_assert_eq!(randable.with_spawn(spawn), Some(next));
        }
    }

    #[test]
    fn directions_are_symmetric(g in board(), d in dir()) {
        // Moving a mirrored board is mirroring the moved board.
        let board = to_board(&g);
        let mirror = |b: Board| {
            let mut e = b.exponents();
            for row in e.chunks_mut(4) {
                row.reverse();
            }
            Board::from_exponents(e).unwrap()
        };
        let opposite = match d {
            Dir::Up => Dir::Up,
            Dir::Down => Dir::Down,
            Dir::Left => Dir::Right,
            Dir::Right => Dir::Left,
        };
        prop_assert_eq!(mirror(board).shift_scored(opposite), {
            let (b, s) = board.shift_scored(d);
            (mirror(b), s)
        });
        // Up and down are left and right of the transpose.
        let t = board.transpose();
        let through = match d {
            Dir::Up => Dir::Left,
            Dir::Down => Dir::Right,
            Dir::Left => Dir::Up,
            Dir::Right => Dir::Down,
        };
        let (b, s) = t.shift_scored(through);
        prop_assert_eq!(board.shift_scored(d), (b.transpose(), s));
    }

    #[test]
    fn played_games_follow_the_reference(seed: u64, steps in 1usize..200) {
        // Boards reached by play, with spawns: each turn is the reference move plus the
        // recorded spawn.
        let mut game = ai2048_engine::Game::new(seed, ai2048_engine::Rules::default()).unwrap();
        let mut rng = Rng::new(seed ^ 0x5555);
        for _ in 0..steps {
            let legal = game.board().legal_dirs();
            if legal.is_empty() {
                break;
            }
            let dir = legal.nth(rng.below(legal.len() as u32) as usize).unwrap();
            let before = to_grid(game.board());
            let turn = game.try_play(dir).unwrap();
            let (moved, score) = common::shift(&before, dir);
            let spawn = turn.spawn.unwrap();
            prop_assert_eq!(u64::from(turn.score), score);
            prop_assert_eq!(
                to_grid(game.board()),
                common::with_tile(&moved, usize::from(spawn.cell), u64::from(spawn.tile()))
            );
        }
    }
}
