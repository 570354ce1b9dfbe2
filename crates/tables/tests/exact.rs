//! The solver checked against an independent brute force: a memoized expectimax over
//! the engine's own boards and moves, with real large tiles in the fixed cells.

use std::collections::HashMap;

use ai2048_engine::{Board, Dir};
use ai2048_tables::{query_from, solve_from, Layout, Pattern, Symmetry, Table};

/// The brute force of one pattern and target, on real boards.
struct Brute {
    pattern: Pattern,
    target: u8,
    memo: HashMap<Board, f64>,
}

impl Brute {
    /// A move's value: `None` if illegal or it changes a fixed cell or makes a tile
    /// above the target or above a cell's cap; 1 if a target cell holds the target or
    /// a goal's cells its tiles.
    fn move_value(&mut self, board: Board, dir: Dir) -> Option<f64> {
        let after = board.shift(dir);
        if after == board {
            return None;
        }
        for i in 0..16 {
            let e = after.exponent(i);
            if self.pattern.is_fixed(i) && e != board.exponent(i) {
                return None;
            }
            if !self.pattern.is_fixed(i) && e > self.target - self.pattern.cap(i) {
                return None;
            }
        }
        if (0..16).any(|i| self.pattern.is_target(i) && after.exponent(i) == self.target) {
            return Some(1.0);
        }
        // A goal met: each of its cells holds the target over 2^k.
        if self.pattern.goals().any(|goal| {
            goal.cells()
                .all(|(i, k)| after.exponent(i) == self.target - k)
        }) {
            return Some(1.0);
        }
        let empty: Vec<usize> = after.empty_cells().collect();
        let mut sum = 0.0;
        for &cell in &empty {
            // A 4 spawned above its cell's cap fails, as a move that put it there.
            let four = if self.target - self.pattern.cap(cell) < 2 {
                0.0
            } else {
                self.value(after.with_exponent(cell, 2))
            };
            sum += 0.9 * self.value(after.with_exponent(cell, 1)) + 0.1 * four;
        }
        Some(sum / empty.len() as f64)
    }

    fn value(&mut self, board: Board) -> f64 {
        if let Some(&v) = self.memo.get(&board) {
            return v;
        }
        let v = Dir::ALL
            .into_iter()
            .filter_map(|d| self.move_value(board, d))
            .fold(0.0, f64::max);
        self.memo.insert(board, v);
        v
    }
}

/// Every state of the pattern as a real board: 65536 and 131072 in a checkerboard on
/// the fixed cells (never alike side by side, larger than any moving tile).
fn boards(pattern: Pattern, target: u8) -> Vec<Board> {
    let moving: Vec<usize> = pattern.moving_cells().collect();
    let radix: Vec<u8> = moving
        .iter()
        .map(|&c| {
            if pattern.is_target(c) {
                target
            } else {
                target + 1 - pattern.cap(c)
            }
        })
        .collect();
    let mut base = [0u8; 16];
    for (i, e) in base.iter_mut().enumerate() {
        if pattern.is_fixed(i) {
            *e = 16 + ((i / 4 + i % 4) % 2) as u8;
        }
    }
    let mut out = Vec::new();
    let mut digits = vec![0u8; moving.len()];
    loop {
        let mut exps = base;
        for (&c, &d) in moving.iter().zip(&digits) {
            exps[c] = d;
        }
        out.push(Board::from_exponents(exps).unwrap());
        let mut k = digits.len();
        loop {
            if k == 0 {
                return out;
            }
            k -= 1;
            digits[k] += 1;
            if digits[k] < radix[k] {
                break;
            }
            digits[k] = 0;
        }
    }
}

fn check(pattern: &str, target: u32) {
    let pattern: Pattern = pattern.parse().unwrap();
    let layout = Layout::new(pattern, target).unwrap();
    let exp = target.trailing_zeros() as u8;
    let table = Table::solve(layout.clone());
    let mut brute = Brute {
        pattern,
        target: exp,
        memo: HashMap::new(),
    };
    let boards = boards(pattern, exp);
    assert_eq!(boards.len() as u64, layout.len());
    // A solve from one board, of only the states it reaches, answers as the whole
    // table does, to the bit: the same values of the same states, the same symmetry.
    let mut reached = 0;
    let mut followed = 0;
    for &board in boards.iter().step_by(boards.len() / 16 + 1) {
        let from = query_from(&layout, board, u64::MAX).unwrap();
        assert_eq!(
            from.map(|r| r.query),
            table.query(board),
            "{pattern} {board:?}"
        );
        reached = reached.max(from.map_or(0, |r| r.states));
        // A table of those states answers the board, and the boards it leads to, so.
        let part = solve_from(&layout, board, u64::MAX).unwrap().unwrap();
        assert_eq!(part.query(board), table.query(board), "{pattern} {board:?}");
        for dir in Dir::ALL {
            let after = board.shift(dir);
            let Some(cell) = (0..16).find(|&i| after.exponent(i) == 0) else {
                continue;
            };
            let next = after.with_exponent(cell, 1);
            if let Some(q) = part.query(next) {
                assert_eq!(Some(q), table.query(next), "{pattern} {next:?}");
                followed += 1;
            }
        }
    }
    assert!(reached > 1, "no board reached another state: a weak check");
    assert!(
        followed > 0,
        "no board led to one the part holds: a weak check"
    );
    let mut worst = 0f64;
    let mut compared_moves = 0;
    let mut uncertain = 0;
    for board in boards {
        let expected = brute.value(board);
        let got = table.value(board).expect("every state matches");
        worst = worst.max((got - expected).abs());
        if got > 0.0 && got < 1.0 {
            uncertain += 1;
        }
        assert!(
            (got - expected).abs() <= 1e-6,
            "{pattern} {board:?}: {got} against {expected}"
        );
        let query = table.query(board).unwrap();
        if query.symmetry == Symmetry::IDENTITY {
            for dir in Dir::ALL {
                let want = brute.move_value(board, dir);
                let have = query.value(dir);
                assert_eq!(want.is_some(), have.is_some(), "{board:?} {dir:?}");
                if let (Some(w), Some(h)) = (want, have) {
                    assert!((w - h).abs() <= 1e-6, "{board:?} {dir:?}: {h} against {w}");
                    compared_moves += 1;
                }
            }
        } else {
            // Another symmetry matched too, and offered a better move.
            assert!(query.best().unwrap().1 >= expected - 1e-6);
        }
    }
    assert!(compared_moves > 0);
    assert!(
        uncertain * 100 > layout.len(),
        "almost every state is certain: a weak check"
    );
    eprintln!(
        "{pattern} to {target}: {} states, {uncertain} neither 0 nor 1, largest difference {worst:e}",
        layout.len()
    );
}

#[test]
fn two_rows_fixed_target_in_the_corner_pair() {
    check("xxxx/xxxx/xx../..tt", 64);
}

#[test]
fn holes_among_the_fixed_tiles() {
    check("xxxx/xx.x/x..x/.t.x", 32);
}

#[test]
fn caps_on_the_cells_away_from_the_target() {
    check("xxxx/xxx./t1../2233", 32);
}

#[test]
fn caps_that_leave_a_cell_only_a_2() {
    // Under 16, a cap of 3 holds at most a 2: a 4 spawned there fails.
    check("xxxx/xxx./t1../2333", 16);
}

#[test]
fn goals_of_several_cells_with_caps_and_no_target_cell() {
    // The pieces of a 32 lined up to merge beside the fixed tiles: a 16 and two 8s, in
    // either of two places.
    check(
        "xxxx/xxx1/xx12/.222 ..../...1/..12/.... ..../..../..12/...2",
        32,
    );
}

#[test]
fn a_goal_beside_a_target_cell() {
    check("xxxx/xxxx/x..t/..1. ..../..../.1../.22.", 16);
}

#[test]
fn the_two_rows_on_top() {
    check("t.../..../xxxx/xxxx", 16);
}

/// A board seen through any symmetry gets the same answer, each move mapped.
#[test]
fn every_symmetry_answers_alike() {
    let table = Table::solve(Layout::new("xxxx/xxxx/t.../....".parse().unwrap(), 16).unwrap());
    let boards = [
        "8192 4096 2048 1024/16 32 64 128/2 0 4 0/0 8 0 2",
        "8192 4096 2048 1024/16 32 64 128/8 8 0 0/0 2 0 4",
        "8192 4096 2048 1024/16 32 64 128/0 0 2 0/0 0 0 0",
    ];
    for text in boards {
        let board: Board = text.parse().unwrap();
        let exps = board.exponents();
        let want = table.chain_query(board).unwrap();
        assert_eq!(want.symmetry, Symmetry::IDENTITY);
        for sym in Symmetry::ALL {
            let mut image = [0u8; 16];
            for (i, &e) in exps.iter().enumerate() {
                image[sym.cell(i)] = e;
            }
            let seen = table
                .chain_query(Board::from_exponents(image).unwrap())
                .unwrap();
            for dir in Dir::ALL {
                assert_eq!(
                    seen.value(sym.dir(dir)),
                    want.value(dir),
                    "{text} {sym:?} {dir:?}"
                );
            }
        }
    }
}
