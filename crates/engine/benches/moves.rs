//! The speed of a move: `Board::shift` and friends over boards from real games.
//!
//! The boards are made before any timing: seeded games played by two simple policies
//! (uniformly random legal moves, and a small two-ply player that reaches 2048 and
//! 4096), sampled evenly over every game so that opening, middle and end game are all
//! in the mix. Each benchmark times one pass over all of them and reports moves (or
//! boards) per second.
//!
//! Run with `cargo bench -p ai2048-engine --bench moves`.

use ai2048_engine::{Board, Dir, PlayableBoard, Rng};
use criterion::{Criterion, Throughput};

/// How many boards each pass moves.
const BOARDS: usize = 4096;

/// Cell weights along a snake from the top-left corner: a player that keeps its
/// tiles ordered along it reaches 2048 and 4096 often enough.
const SNAKE: [u32; 16] = [15, 14, 13, 12, 8, 9, 10, 11, 7, 6, 5, 4, 0, 1, 2, 3];

fn snake_value(board: Board) -> f64 {
    SNAKE
        .iter()
        .enumerate()
        .map(|(i, &w)| f64::from(board.tile(i)) * f64::from(1u32 << w))
        .sum()
}

/// The average, over a 2 spawned in each empty cell, of the best next move's value.
fn expected_value(board: Board) -> f64 {
    let mut total = 0.0;
    let mut n = 0.0;
    for cell in board.empty_cells() {
        let next = board.with_exponent(cell, 1);
        total += next
            .legal_dirs()
            .iter()
            .map(|d| snake_value(next.shift(d)))
            .fold(0.0, f64::max);
        n += 1.0;
    }
    total / n
}

/// A small two-ply player: the legal move whose spawns leave the best snake value.
fn snake_player(board: Board) -> Option<Dir> {
    board
        .legal_dirs()
        .iter()
        .map(|d| (d, expected_value(board.shift(d))))
        .max_by(|a, b| a.1.total_cmp(&b.1))
        .map(|(d, _)| d)
}

/// Plays seeded games (three in four by the snake player, one in four by random legal
/// moves) and keeps 64 positions spread evenly over each, shuffled.
fn realistic_boards(count: usize) -> Vec<Board> {
    let per_game = 64;
    let mut boards = Vec::with_capacity(count);
    let mut seed = 0u64;
    while boards.len() < count {
        let mut rng = Rng::new(seed);
        let mut board = PlayableBoard::init(&mut rng, 2, 0.1);
        let mut positions = vec![board.board()];
        loop {
            let dir = if seed % 4 == 3 {
                let legal = board.legal_dirs();
                legal.nth(rng.below(legal.len().max(1) as u32) as usize)
            } else {
                snake_player(board.board())
            };
            let Some(dir) = dir else { break };
            let after = board.apply(dir).expect("a legal move");
            board = after.with_random_tile(&mut rng, 0.1).0;
            positions.push(board.board());
        }
        for k in 0..per_game {
            boards.push(positions[k * positions.len() / per_game]);
        }
        seed += 1;
    }
    boards.truncate(count);
    let mut rng = Rng::new(u64::MAX);
    for i in (1..boards.len()).rev() {
        let j = rng.below(i as u32 + 1) as usize;
        boards.swap(i, j);
    }
    boards
}

/// Folds a board into a checksum, so that no move can be optimized away.
#[inline(always)]
fn fold(acc: u64, board: Board) -> u64 {
    acc.wrapping_add(board.low_bits() ^ u64::from(board.high_bits()))
}

/// Moves every board toward `dir`; inlined, so that `dir` is a constant.
#[inline(always)]
fn pass(boards: &[Board], dir: Dir) -> u64 {
    boards
        .iter()
        .fold(0, |acc, &board| fold(acc, board.shift(dir)))
}

fn describe(boards: &[Board]) {
    let max: Vec<u32> = boards.iter().map(|b| b.max_tile()).collect();
    let share = |t: u32| max.iter().filter(|&&m| m >= t).count() as f64 / max.len() as f64;
    let legal: usize = boards.iter().map(|b| b.legal_dirs().len()).sum();
    eprintln!(
        "{} boards: max tile >= 256: {:.0}%, >= 1024: {:.0}%, >= 2048: {:.0}%, \
         >= 4096: {:.0}%; {:.0}% of moves legal",
        boards.len(),
        100.0 * share(256),
        100.0 * share(1024),
        100.0 * share(2048),
        100.0 * share(4096),
        100.0 * legal as f64 / (4 * boards.len()) as f64
    );
}

fn bench_shift(c: &mut Criterion) {
    let boards = realistic_boards(BOARDS);
    describe(&boards);
    let dirs: Vec<Dir> = {
        let mut rng = Rng::new(1);
        (0..BOARDS)
            .map(|_| Dir::ALL[rng.below(4) as usize])
            .collect()
    };

    let mut group = c.benchmark_group("shift");
    group.throughput(Throughput::Elements(BOARDS as u64));
    // One closure per direction, so that the direction is a constant, as it is in a
    // search that loops over the four of them.
    group.bench_function("up", |b| b.iter(|| pass(&boards, Dir::Up)));
    group.bench_function("down", |b| b.iter(|| pass(&boards, Dir::Down)));
    group.bench_function("left", |b| b.iter(|| pass(&boards, Dir::Left)));
    group.bench_function("right", |b| b.iter(|| pass(&boards, Dir::Right)));
    // A direction drawn at random for each board: the direction is data, and the
    // branch on it is mispredicted three times in four.
    group.bench_function("random_dir", |b| {
        b.iter(|| {
            boards
                .iter()
                .zip(&dirs)
                .fold(0, |acc, (&board, &dir)| fold(acc, board.shift(dir)))
        });
    });
    group.throughput(Throughput::Elements(4 * BOARDS as u64));
    group.bench_function("all_four_dirs", |b| {
        b.iter(|| {
            boards.iter().fold(0, |acc, &board| {
                Dir::ALL
                    .into_iter()
                    .fold(acc, |acc, dir| fold(acc, board.shift(dir)))
            })
        });
    });
    group.finish();

    let mut group = c.benchmark_group("shift_scored");
    group.throughput(Throughput::Elements(4 * BOARDS as u64));
    group.bench_function("all_four_dirs", |b| {
        b.iter(|| {
            boards.iter().fold(0, |acc, &board| {
                Dir::ALL.into_iter().fold(acc, |acc, dir| {
                    let (after, score) = board.shift_scored(dir);
                    fold(acc, after).wrapping_add(u64::from(score))
                })
            })
        });
    });
    group.finish();

    let mut group = c.benchmark_group("legal_dirs");
    group.throughput(Throughput::Elements(BOARDS as u64));
    group.bench_function("realistic", |b| {
        b.iter(|| {
            boards.iter().fold(0usize, |acc, &board| {
                acc.wrapping_add(board.legal_dirs().len())
            })
        });
    });
    group.finish();

    // The exact path: the same boards with a 32768 (or a 65536) in a corner.
    let with_32768: Vec<Board> = boards.iter().map(|b| b.with_exponent(15, 15)).collect();
    let with_65536: Vec<Board> = boards.iter().map(|b| b.with_exponent(15, 16)).collect();
    let mut group = c.benchmark_group("shift_slow_path");
    group.throughput(Throughput::Elements(4 * BOARDS as u64));
    for (name, set) in [("with_32768", &with_32768), ("with_65536", &with_65536)] {
        group.bench_function(name, |b| {
            b.iter(|| {
                set.iter().fold(0, |acc, &board| {
                    Dir::ALL
                        .into_iter()
                        .fold(acc, |acc, dir| fold(acc, board.shift(dir)))
                })
            });
        });
    }
    group.finish();
}

// What `criterion_group!` and `criterion_main!` expand to, without the undocumented
// public function that the workspace's `missing_docs` lint would refuse.
fn main() {
    let mut c = Criterion::default().configure_from_args();
    bench_shift(&mut c);
    c.final_summary();
}
