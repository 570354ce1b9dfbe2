//! A plain reference implementation of the rules of 2048, on a grid of tile values.
//!
//! It shares no code with the engine: no exponents, no bit tricks, no tables. Each
//! function is written the obvious way so that it can be checked by reading it.
#![allow(dead_code)]

use ai2048_engine::{Board, Dir, Rules};

/// The original rules, but a move that changes nothing still spawns a tile (as the UCSB
/// grader does).
pub const ILLEGAL_MOVES_SPAWN: Rules = Rules {
    illegal_move_spawns: true,
    ..Rules::ORIGINAL
};

/// Four rows of four tile values, top row first, 0 for an empty cell.
pub type Grid = [[u64; 4]; 4];

/// The largest tile, 131072. Two of them do not merge: the engine has no room for a
/// 262144, and no real game on a 4x4 board can hold two 131072 tiles at once.
pub const MAX_TILE: u64 = 131_072;

/// The positions of one line of the grid, listed from the wall the tiles slide toward.
/// `index` picks the row (left/right) or the column (up/down).
pub fn line_cells(dir: Dir, index: usize) -> [(usize, usize); 4] {
    let mut cells = [(0, 0); 4];
    for (k, cell) in cells.iter_mut().enumerate() {
        *cell = match dir {
            Dir::Left => (index, k),
            Dir::Right => (index, 3 - k),
            Dir::Up => (k, index),
            Dir::Down => (3 - k, index),
        };
    }
    cells
}

/// Slides one line toward its index 0: the tiles close up toward the wall, then each
/// pair of equal neighbours merges, the pair nearest the wall first, each tile at most
/// once. Returns the new line and the score: the sum of the merged tiles.
pub fn slide_line(line: [u64; 4]) -> ([u64; 4], u64) {
    let tiles: Vec<u64> = line.iter().copied().filter(|&v| v != 0).collect();
    let mut out = Vec::new();
    let mut score = 0;
    let mut i = 0;
    while i < tiles.len() {
        if i + 1 < tiles.len() && tiles[i] == tiles[i + 1] && tiles[i] < MAX_TILE {
            out.push(2 * tiles[i]);
            score += 2 * tiles[i];
            i += 2;
        } else {
            out.push(tiles[i]);
            i += 1;
        }
    }
    out.resize(4, 0);
    ([out[0], out[1], out[2], out[3]], score)
}

/// The grid after a move toward `dir` (no spawn), and the score of its merges.
pub fn shift(grid: &Grid, dir: Dir) -> (Grid, u64) {
    let mut out = [[0; 4]; 4];
    let mut score = 0;
    for index in 0..4 {
        let cells = line_cells(dir, index);
        let line = cells.map(|(r, c)| grid[r][c]);
        let (moved, s) = slide_line(line);
        for (k, &(r, c)) in cells.iter().enumerate() {
            out[r][c] = moved[k];
        }
        score += s;
    }
    (out, score)
}

/// Whether the move changes the grid.
pub fn is_legal(grid: &Grid, dir: Dir) -> bool {
    shift(grid, dir).0 != *grid
}

/// The legal directions, in the order of [`Dir::ALL`].
pub fn legal_dirs(grid: &Grid) -> Vec<Dir> {
    Dir::ALL
        .into_iter()
        .filter(|&d| is_legal(grid, d))
        .collect()
}

/// Whether the game is over: no legal move.
pub fn is_over(grid: &Grid) -> bool {
    legal_dirs(grid).is_empty()
}

/// The empty cells, as indices `4 * row + col` in reading order.
pub fn empty_cells(grid: &Grid) -> Vec<usize> {
    (0..16).filter(|&i| grid[i / 4][i % 4] == 0).collect()
}

/// The largest tile, 0 for an empty grid.
pub fn max_tile(grid: &Grid) -> u64 {
    grid.iter().flatten().copied().max().unwrap_or(0)
}

/// The sum of the tiles.
pub fn tile_sum(grid: &Grid) -> u64 {
    grid.iter().flatten().sum()
}

/// Rows and columns swapped.
pub fn transpose(grid: &Grid) -> Grid {
    let mut out = [[0; 4]; 4];
    for (r, row) in out.iter_mut().enumerate() {
        for (c, cell) in row.iter_mut().enumerate() {
            *cell = grid[c][r];
        }
    }
    out
}

/// The grid with `value` placed in cell `index` (reading order).
pub fn with_tile(grid: &Grid, index: usize, value: u64) -> Grid {
    let mut out = *grid;
    out[index / 4][index % 4] = value;
    out
}

/// Every spawn the game can make: a 2 with probability `(1 - p4) / n` and a 4 with
/// probability `p4 / n` in each of the `n` empty cells; those of probability 0 left out.
pub fn successors(grid: &Grid, p4: f64) -> Vec<(f64, Grid)> {
    let empty = empty_cells(grid);
    let n = empty.len() as f64;
    let mut out = Vec::new();
    for &i in &empty {
        for (p, value) in [((1.0 - p4) / n, 2), (p4 / n, 4)] {
            if p > 0.0 {
                out.push((p, with_tile(grid, i, value)));
            }
        }
    }
    out
}

/// The engine's board for a grid.
pub fn to_board(grid: &Grid) -> Board {
    Board::from_rows(*grid).expect("reference grids hold tiles")
}

/// The grid of an engine board.
pub fn to_grid(board: Board) -> Grid {
    board.to_rows().map(|row| row.map(u64::from))
}

/// The tile value of an exponent (0 for empty), for grids made from exponents.
pub fn tile_of_exponent(e: u8) -> u64 {
    if e == 0 {
        0
    } else {
        1 << e
    }
}

/// A grid from sixteen exponents in reading order.
pub fn grid_of_exponents(exps: &[u8]) -> Grid {
    let mut grid = [[0; 4]; 4];
    for (i, &e) in exps.iter().enumerate().take(16) {
        grid[i / 4][i % 4] = tile_of_exponent(e);
    }
    grid
}

/// Parses `"2 2 0 0/0 0 0 0/..."` into a grid (for readable tests).
pub fn grid(text: &str) -> Grid {
    let mut out = [[0; 4]; 4];
    let rows: Vec<&str> = text.split('/').collect();
    assert_eq!(rows.len(), 4, "4 rows in {text:?}");
    for (r, row) in rows.iter().enumerate() {
        let cells: Vec<u64> = row
            .split_whitespace()
            .map(|w| w.parse().expect("a number"))
            .collect();
        assert_eq!(cells.len(), 4, "4 cells in row {r} of {text:?}");
        out[r].copy_from_slice(&cells);
    }
    out
}

/// A simple deterministic policy: the first legal direction in `order`.
pub fn first_legal(board: Board, order: &[Dir]) -> Option<Dir> {
    let legal = board.legal_dirs();
    order.iter().copied().find(|&d| legal.contains(d))
}
