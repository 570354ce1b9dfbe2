//! Motions against the engine's own move: placing every tile where its motion says,
//! doubled where two merged, gives exactly `Board::shift_scored`, on random boards of
//! every tile up to 131072, on realistic boards and on boards of real games.

use ai2048_engine::{motions, Board, Dir, Motion, PlayableBoard, Rng, MAX_EXPONENT};
use proptest::prelude::*;

/// The board the motions describe, and the score of their merges, worked out here
/// from the motions alone. Panics if the motions are not a valid move of `board`.
fn apply_motions(board: Board, dir: Dir, list: &[Motion]) -> (Board, u32) {
    let mut out = [0u8; 16];
    let mut arrivals = [0u8; 16];
    let mut score = 0;
    let mut seen = [false; 16];
    for m in list {
        let (from, to) = (usize::from(m.from), usize::from(m.to));
        assert!(from < 16 && to < 16, "{m:?} leaves the board");
        assert!(!seen[from], "cell {from} moves twice in {list:?}");
        seen[from] = true;
        let e = board.exponent(from);
        assert_ne!(e, 0, "{m:?} moves an empty cell");
        assert!(on_the_way(from, to, dir), "{m:?} does not slide {dir}");
        arrivals[to] += 1;
        if m.merged {
            assert!(
                out[to] == 0 || out[to] == e + 1,
                "{m:?} merges unequal tiles"
            );
            if out[to] == 0 {
                score += 1u32 << (e + 1);
            }
            out[to] = e + 1;
        } else {
            assert_eq!(out[to], 0, "{m:?} lands on a tile without merging");
            out[to] = e;
        }
    }
    for (i, &was) in seen.iter().enumerate() {
        assert_eq!(
            was,
            board.exponent(i) != 0,
            "cell {i} has no motion in {list:?}"
        );
    }
    for m in list {
        let expected = if m.merged { 2 } else { 1 };
        assert_eq!(arrivals[usize::from(m.to)], expected, "{m:?} in {list:?}");
    }
    assert!(
        list.windows(2).all(|w| w[0].from < w[1].from),
        "not in order"
    );
    (
        Board::from_exponents(out).expect("exponents in range"),
        score,
    )
}

/// Whether a tile may slide from `from` to `to` toward `dir`: the same line, not away.
fn on_the_way(from: usize, to: usize, dir: Dir) -> bool {
    let (fr, fc, tr, tc) = (from / 4, from % 4, to / 4, to % 4);
    match dir {
        Dir::Left => fr == tr && tc <= fc,
        Dir::Right => fr == tr && tc >= fc,
        Dir::Up => fc == tc && tr <= fr,
        Dir::Down => fc == tc && tr >= fr,
    }
}

fn check(board: Board) {
    for dir in Dir::ALL {
        let list = motions(board, dir);
        let (moved, score) = apply_motions(board, dir, &list);
        assert_eq!(
            (moved, score),
            board.shift_scored(dir),
            "{dir} on {board:?}: {list:?}"
        );
        let still = list.iter().all(|m| m.from == m.to && !m.merged);
        assert_eq!(still, !board.can_move(dir), "{dir} on {board:?}");
    }
}

/// Any board: every cell an exponent from 0 (empty) to 17 (131072), uniformly.
fn any_board() -> impl Strategy<Value = Board> {
    proptest::array::uniform16(0..=MAX_EXPONENT)
        .prop_map(|e| Board::from_exponents(e).expect("in range"))
}

/// Boards like those of real games: many empty cells and small tiles, a few large ones
/// (32768 and up included), and equal neighbours so that merges are common.
fn realistic_board() -> impl Strategy<Value = Board> {
    let exponent = prop_oneof![
        6 => Just(0u8),
        10 => 1u8..=6,
        4 => 7u8..=12,
        2 => 13u8..=MAX_EXPONENT,
    ];
    let copies = proptest::collection::vec((0usize..16, 0usize..4), 0..10);
    (proptest::array::uniform16(exponent), copies).prop_map(|(mut e, copies)| {
        for (cell, side) in copies {
            let (r, c) = (cell / 4, cell % 4);
            let (nr, nc) = match side {
                0 => (r.saturating_sub(1), c),
                1 => ((r + 1).min(3), c),
                2 => (r, c.saturating_sub(1)),
                _ => (r, (c + 1).min(3)),
            };
            e[4 * nr + nc] = e[cell];
        }
        Board::from_exponents(e).expect("in range")
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4000))]

    #[test]
    fn motions_give_the_engine_move_on_any_board(board in any_board()) {
        check(board);
    }

    #[test]
    fn motions_give_the_engine_move_on_realistic_boards(board in realistic_board()) {
        check(board);
    }
}

#[test]
fn motions_give_the_engine_move_in_real_games() {
    let mut boards = 0;
    for seed in 0..40 {
        let mut rng = Rng::new(seed);
        let mut board = PlayableBoard::init(&mut rng, 2, 0.1);
        let order = [Dir::Left, Dir::Down, Dir::Right, Dir::Up];
        while let Some(dir) = order.iter().copied().find(|&d| board.board().can_move(d)) {
            check(board.board());
            boards += 1;
            // Mostly a corner strategy, sometimes a random legal move, for variety.
            let dir = if rng.below(4) == 0 {
                let legal: Vec<Dir> = board.legal_dirs().iter().collect();
                legal[rng.below(legal.len() as u32) as usize]
            } else {
                dir
            };
            let after = board.apply(dir).expect("legal");
            board = after.with_random_tile(&mut rng, 0.1).0;
        }
        check(board.board());
    }
    assert!(boards > 2000, "only {boards} boards");
}

#[test]
fn the_largest_tiles_move_exactly() {
    for text in [
        "32768 32768 32768 32768/0 0 0 0/0 0 0 0/0 0 0 0",
        "65536 65536 2 2/0 0 0 0/0 0 0 0/0 0 0 0",
        "131072 131072 0 0/65536 0 65536 0/32768 32768 4 4/0 0 0 2",
        "131072 65536 32768 32768/131072 0 0 0/32768 0 0 0/32768 0 0 0",
        "2 4 8 16/32 64 128 256/512 1024 2048 4096/8192 16384 32768 65536",
    ] {
        check(text.parse().expect("a board"));
    }
    let board: Board = "131072 131072 0 0/0 0 0 0/0 0 0 0/0 0 0 0"
        .parse()
        .expect("a board");
    assert!(motions(board, Dir::Left).iter().all(|m| !m.merged));
}

#[test]
fn an_empty_board_has_no_motions() {
    for dir in Dir::ALL {
        assert!(motions(Board::EMPTY, dir).is_empty());
    }
}
