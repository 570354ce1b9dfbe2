//! The speed of random playouts: from a new game, uniformly random legal moves with
//! the game's spawns, until no move is legal, as a Monte Carlo player runs them.
//!
//! Each pass plays the same seeded games, so that every pass makes the same number of
//! moves, and reports moves per second.
//!
//! Run with `cargo bench -p ai2048-engine --bench playouts`.

use std::hint::black_box;

use ai2048_engine::{Board, PlayableBoard, Rng};
use criterion::{Criterion, Throughput};

/// Games per pass.
const GAMES: u64 = 64;

/// Plays game `seed` to the end with random legal moves; returns the number of moves
/// and the final board.
#[inline(always)]
fn playout(seed: u64) -> (u64, Board) {
    let mut rng = Rng::new(seed);
    let mut board = PlayableBoard::init(&mut rng, 2, 0.1);
    let mut moves = 0;
    loop {
        let legal = board.legal_dirs();
        if legal.is_empty() {
            return (moves, board.board());
        }
        let dir = legal
            .nth(rng.below(legal.len() as u32) as usize)
            .expect("below the number of legal moves");
        let after = board.apply(dir).expect("a legal move");
        board = after.with_random_tile(&mut rng, 0.1).0;
        moves += 1;
    }
}

/// Plays a whole pass; returns the number of moves and a checksum of the final boards.
fn pass() -> (u64, u64) {
    (0..GAMES).fold((0, 0), |(moves, sum), seed| {
        let (m, board) = playout(black_box(seed));
        (moves + m, sum ^ board.low_bits())
    })
}

fn bench_playouts(c: &mut Criterion) {
    let (moves, _) = pass();
    eprintln!(
        "{GAMES} random playouts: {moves} moves, {:.1} per game",
        moves as f64 / GAMES as f64
    );
    let mut group = c.benchmark_group("playouts");
    group.throughput(Throughput::Elements(moves));
    group.bench_function("random_legal", |b| b.iter(pass));
    group.finish();
}

// What `criterion_group!` and `criterion_main!` expand to, without the undocumented
// public function that the workspace's `missing_docs` lint would refuse.
fn main() {
    let mut c = Criterion::default().configure_from_args();
    bench_playouts(&mut c);
    c.final_summary();
}
