//! Where every tile goes in a move: what a front end needs to animate it.

use crate::{Board, Dir, MAX_EXPONENT};

/// The path of one tile in a move: from cell `from` to cell `to` (cells 0 to 15 in
/// reading order), and whether it merged there with the other tile that went to the
/// same cell.
///
/// A merge is two motions with the same `to` and `merged` set on both; the cell then
/// holds one tile of twice the value. A tile that does not move has `from == to`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Motion {
    /// The cell the tile was in before the move.
    pub from: u8,
    /// The cell it is in after the move (before any spawn).
    pub to: u8,
    /// Whether it merged at `to` with the one other tile that went there.
    pub merged: bool,
}

/// The motions of the tiles of `board` when it slides toward `dir`: one for every
/// tile on the board, in reading order of `from`.
///
/// They follow the engine's own rules (the pair nearest the wall merges first, each
/// tile merges at most once, two 131072s do not merge), so placing every tile at its
/// `to`, and the doubled tile where two merged, gives exactly [`Board::shift`]. An
/// illegal move gives motions that all stay in place, unmerged.
///
/// ```
/// use ai2048_engine::{motions, Board, Dir, Motion};
///
/// let board: Board = "2 2 0 4 / 0 0 0 0 / 0 0 0 0 / 0 0 0 0".parse()?;
/// let m = motions(board, Dir::Left);
/// assert_eq!(
///     m,
///     vec![
///         Motion { from: 0, to: 0, merged: true },
///         Motion { from: 1, to: 0, merged: true },
///         Motion { from: 3, to: 1, merged: false },
///     ]
/// );
/// // Nothing moves up: every tile stays.
/// assert!(motions(board, Dir::Up).iter().all(|m| m.from == m.to && !m.merged));
/// # Ok::<(), ai2048_engine::ParseBoardError>(())
/// ```
#[must_use]
pub fn motions(board: Board, dir: Dir) -> Vec<Motion> {
    let mut out = Vec::with_capacity(16);
    for index in 0..4 {
        let cells = line_cells(dir, index);
        // The slots filled so far toward the wall, and whether the last one may still
        // take a merge (it may not if it is itself the result of one).
        let mut filled = 0;
        let mut can_merge = false;
        let mut last_exponent = 0;
        for &cell in &cells {
            let exponent = board.exponent(usize::from(cell));
            if exponent == 0 {
                continue;
            }
            if can_merge && exponent == last_exponent && exponent < MAX_EXPONENT {
                let partner = out.len() - 1;
                let target = cells[filled - 1];
                out[partner] = Motion {
                    merged: true,
                    ..out[partner]
                };
                out.push(Motion {
                    from: cell,
                    to: target,
                    merged: true,
                });
                can_merge = false;
            } else {
                out.push(Motion {
                    from: cell,
                    to: cells[filled],
                    merged: false,
                });
                filled += 1;
                can_merge = true;
                last_exponent = exponent;
            }
        }
    }
    out.sort_unstable_by_key(|m| m.from);
    out
}

/// The cells of one line, listed from the wall the tiles slide toward: row `index`
/// for left and right, column `index` for up and down.
fn line_cells(dir: Dir, index: u8) -> [u8; 4] {
    let mut cells = [0u8; 4];
    for (k, cell) in (0u8..).zip(cells.iter_mut()) {
        let (row, col) = match dir {
            Dir::Left => (index, k),
            Dir::Right => (index, 3 - k),
            Dir::Up => (k, index),
            Dir::Down => (3 - k, index),
        };
        *cell = 4 * row + col;
    }
    cells
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_full_row_merges_in_pairs_from_the_wall() {
        let board: Board = "2 2 2 2/0 0 0 0/0 0 0 0/0 0 0 0".parse().unwrap();
        let m = motions(board, Dir::Right);
        let expected = [(0, 2), (1, 2), (2, 3), (3, 3)]
            .map(|(from, to)| Motion {
                from,
                to,
                merged: true,
            })
            .to_vec();
        assert_eq!(m, expected);
    }

    #[test]
    fn a_merged_tile_does_not_merge_again() {
        let board: Board = "4 0 0 0/2 0 0 0/2 0 0 0/0 0 0 0".parse().unwrap();
        let m = motions(board, Dir::Up);
        assert_eq!(
            m,
            vec![
                Motion {
                    from: 0,
                    to: 0,
                    merged: false
                },
                Motion {
                    from: 4,
                    to: 4,
                    merged: true
                },
                Motion {
                    from: 8,
                    to: 4,
                    merged: true
                },
            ]
        );
    }
}
