//! A bias of the search towards boards whose large tiles lie in a clean snake: the
//! `formation` option of `expectimax`, an experiment (docs/tables.md says why and
//! what it measured).

use ai2048_engine::Board;

/// The cells of the snake path from the top-left corner: the top row left to right,
/// the second right to left, and so on.
const PATH: [usize; 16] = [0, 1, 2, 3, 7, 6, 5, 4, 8, 9, 10, 11, 15, 14, 13, 12];

/// The large tiles are those within this many doublings of the board's largest.
const SPAN: u8 = 5;

/// How many of the board's large tiles (within 2^[`SPAN`] of its largest) lie off the
/// snake: the large tiles, from the largest down, against the snake path's cells in
/// order, under the symmetry that matches the longest prefix; 0 when every one lies
/// where a snake puts it.
///
/// ```
/// use ai2048_ai::search::snake_disorder;
/// let clean = "16384 8192 2048 1024/64 128 256 512/4 8 16 32/2 0 2 0".parse()?;
/// assert_eq!(snake_disorder(clean), 0);
/// // The 2048 below the top row instead of in it: it and the tiles after it are off.
/// let broken = "16384 8192 1024 512/2048 128 256 4/4 8 16 32/2 0 2 0".parse()?;
/// assert_eq!(snake_disorder(broken), 3);
/// # Ok::<(), ai2048_engine::ParseBoardError>(())
/// ```
#[must_use]
pub fn snake_disorder(board: Board) -> u32 {
    let exps = board.exponents();
    let top = exps.iter().copied().max().unwrap_or(0);
    if top == 0 {
        return 0;
    }
    let floor = top.saturating_sub(SPAN).max(1);
    let mut large: Vec<u8> = exps.iter().copied().filter(|&e| e >= floor).collect();
    large.sort_unstable_by(|a, b| b.cmp(a));
    let mut best = 0;
    for sym in 0..8u8 {
        let placed = large
            .iter()
            .zip(PATH)
            .take_while(|&(&e, cell)| exps[image(sym, cell)] == e)
            .count();
        best = best.max(placed);
    }
    (large.len() - best) as u32
}

/// The cell that cell `i` of the path sits on under symmetry `sym`.
const fn image(sym: u8, i: usize) -> usize {
    let (mut r, mut c) = (i / 4, i % 4);
    if sym & 1 != 0 {
        (r, c) = (c, r);
    }
    if sym & 2 != 0 {
        c = 3 - c;
    }
    if sym & 4 != 0 {
        r = 3 - r;
    }
    4 * r + c
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_symmetry_of_a_board_is_as_disordered() {
        let boards = [
            "16384 8192 2048 1024/64 128 256 512/4 8 16 32/2 0 2 0",
            "16384 8192 1024 512/2048 128 256 4/4 8 16 32/2 0 2 0",
            "2 4096 0 8/16384 2 1024 0/0 8192 0 2/512 0 0 4",
        ];
        for text in boards {
            let board: Board = text.parse().unwrap();
            let exps = board.exponents();
            let want = snake_disorder(board);
            for sym in 0..8 {
                let mut image_exps = [0u8; 16];
                for (i, &e) in exps.iter().enumerate() {
                    image_exps[image(sym, i)] = e;
                }
                let seen = snake_disorder(Board::from_exponents(image_exps).unwrap());
                assert_eq!(seen, want, "{text} under symmetry {sym}");
            }
        }
        assert_eq!(snake_disorder(Board::EMPTY), 0);
    }
}
