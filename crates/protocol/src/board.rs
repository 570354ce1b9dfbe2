//! Boards in JSON: 4 rows of 4 tile values, top row first, 0 for an empty cell.

use ai2048_engine::{exponent_of_tile, Board, TileError, MAX_TILE};
use serde_json::Value;

use crate::json::{integer, kind, quote};

/// Reads a board written as 4 rows of 4 tile values, top row first, 0 for empty.
///
/// Each value must be 0 or a power of two from 2 to 131072. Integral numbers written
/// as floats (`2.0`) are accepted; everything else is refused.
///
/// # Errors
///
/// A message that says precisely what is wrong and where, counting rows and columns
/// from 1, as the protocol's `error` answers do.
///
/// ```
/// use ai2048_protocol::{board_from_json, board_to_json};
/// use serde_json::json;
///
/// let board = board_from_json(&json!([[2, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 65536]]))?;
/// assert_eq!(board.max_tile(), 65536);
/// assert_eq!(board_to_json(board)[3][3], 65536);
///
/// let err = board_from_json(&json!([[0, 0, 0, 0], [0, 0, 3, 0], [0, 0, 0, 0], [0, 0, 0, 0]]));
/// assert_eq!(
///     err.unwrap_err(),
///     "board row 2, column 3: 3 is not a tile (expected 0 or a power of two from 2 to 131072)"
/// );
/// # Ok::<(), String>(())
/// ```
pub fn board_from_json(value: &Value) -> Result<Board, String> {
    let Value::Array(rows) = value else {
        return Err(format!(
            "board must be an array of 4 rows of 4 tiles, found {}",
            kind(value)
        ));
    };
    if rows.len() != 4 {
        return Err(format!("board must have 4 rows, found {}", rows.len()));
    }
    let mut tiles = [[0u64; 4]; 4];
    for (r, row) in rows.iter().enumerate() {
        let Value::Array(cells) = row else {
            return Err(format!(
                "board row {}: expected an array of 4 tiles, found {}",
                r + 1,
                kind(row)
            ));
        };
        if cells.len() != 4 {
            return Err(format!(
                "board row {} has {} tiles, expected 4",
                r + 1,
                cells.len()
            ));
        }
        for (c, cell) in cells.iter().enumerate() {
            tiles[r][c] = tile(cell)
                .map_err(|why| format!("board row {}, column {}: {why}", r + 1, c + 1))?;
        }
    }
    // Every value was checked above, so this cannot fail; map the error all the same.
    Board::from_rows(tiles).map_err(|e| format!("board {e}"))
}

/// One cell's value, or why it is not a tile.
fn tile(cell: &Value) -> Result<u64, String> {
    let not_a_tile = || {
        let what = match cell {
            Value::Number(_) | Value::Null => String::new(),
            other => format!(" ({})", kind(other)),
        };
        format!(
            "{}{what} is not a tile (expected 0 or a power of two from 2 to {MAX_TILE})",
            quote(cell)
        )
    };
    let too_large = || format!("{} is above the largest tile, {MAX_TILE}", quote(cell));
    let Value::Number(n) = cell else {
        return Err(not_a_tile());
    };
    let Some(v) = integer(n) else {
        return Err(not_a_tile());
    };
    if v < 0 {
        return Err(not_a_tile());
    }
    let Ok(v) = u64::try_from(v) else {
        return Err(too_large());
    };
    match exponent_of_tile(v) {
        Ok(_) => Ok(v),
        Err(TileError::NotATile) => Err(not_a_tile()),
        Err(TileError::TooLarge) => Err(too_large()),
    }
}

/// A board as the protocol writes it: 4 rows of 4 tile values, top row first.
///
/// ```
/// use ai2048_engine::Board;
/// use ai2048_protocol::board_to_json;
/// let board: Board = "2 0 0 0/0 0 0 0/0 0 0 0/0 0 0 4".parse()?;
/// assert_eq!(board_to_json(board), [[2, 0, 0, 0], [0; 4], [0; 4], [0, 0, 0, 4]]);
/// # Ok::<(), ai2048_engine::ParseBoardError>(())
/// ```
#[must_use]
pub fn board_to_json(board: Board) -> [[u32; 4]; 4] {
    board.to_rows()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn with_cell(cell: Value) -> Value {
        json!([[0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, cell, 0]])
    }

    fn err(v: Value) -> String {
        board_from_json(&v).unwrap_err()
    }

    #[test]
    fn good_boards() {
        let b = board_from_json(&json!([
            [2, 4, 8, 16],
            [32, 64, 128, 256],
            [512, 1024, 2048, 4096],
            [8192, 16384, 32768, 131072]
        ]))
        .unwrap();
        assert_eq!(b.to_hex(), "123456789abcdefh");
        assert_eq!(board_to_json(b)[3], [8192, 16384, 32768, 131072]);
        assert_eq!(board_from_json(&with_cell(json!(2.0))).unwrap().tile(14), 2);
        assert_eq!(board_from_json(&with_cell(json!(0))).unwrap(), Board::EMPTY);
    }

    #[test]
    fn wrong_shapes() {
        assert_eq!(
            err(json!("2 0 0 0/0 0 0 0/0 0 0 0/0 0 0 0")),
            "board must be an array of 4 rows of 4 tiles, found a string"
        );
        assert_eq!(
            err(json!(null)),
            "board must be an array of 4 rows of 4 tiles, found null"
        );
        assert_eq!(
            err(json!([[0, 0, 0, 0]])),
            "board must have 4 rows, found 1"
        );
        assert_eq!(
            err(json!([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0])),
            "board must have 4 rows, found 16"
        );
        assert_eq!(
            err(json!([[0, 0, 0, 0], 7, [0, 0, 0, 0], [0, 0, 0, 0]])),
            "board row 2: expected an array of 4 tiles, found a number"
        );
        assert_eq!(
            err(json!([[0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0], [0, 0, 0, 0]])),
            "board row 3 has 3 tiles, expected 4"
        );
        assert_eq!(
            err(json!([
                [0, 0, 0, 0],
                [0, 0, 0, 0],
                [0, 0, 0, 0],
                [0, 0, 0, 0, 0]
            ])),
            "board row 4 has 5 tiles, expected 4"
        );
    }

    #[test]
    fn bad_tiles() {
        let expected = "(expected 0 or a power of two from 2 to 131072)";
        assert_eq!(
            err(with_cell(json!(3))),
            format!("board row 4, column 3: 3 is not a tile {expected}")
        );
        assert_eq!(
            err(with_cell(json!(1))),
            format!("board row 4, column 3: 1 is not a tile {expected}")
        );
        assert_eq!(
            err(with_cell(json!(-2))),
            format!("board row 4, column 3: -2 is not a tile {expected}")
        );
        assert_eq!(
            err(with_cell(json!(2.5))),
            format!("board row 4, column 3: 2.5 is not a tile {expected}")
        );
        assert_eq!(
            err(with_cell(json!("2"))),
            format!("board row 4, column 3: \"2\" (a string) is not a tile {expected}")
        );
        assert_eq!(
            err(with_cell(json!(true))),
            format!("board row 4, column 3: true (a boolean) is not a tile {expected}")
        );
        assert_eq!(
            err(with_cell(json!(null))),
            format!("board row 4, column 3: null is not a tile {expected}")
        );
        assert_eq!(
            err(with_cell(json!([2]))),
            format!("board row 4, column 3: [2] (an array) is not a tile {expected}")
        );
        assert_eq!(
            err(with_cell(json!(262144))),
            "board row 4, column 3: 262144 is above the largest tile, 131072"
        );
        assert_eq!(
            err(with_cell(json!(1e300))),
            "board row 4, column 3: 1e+300 is above the largest tile, 131072"
        );
        assert_eq!(
            err(with_cell(json!(u64::MAX))),
            format!(
                "board row 4, column 3: {} is not a tile {expected}",
                u64::MAX
            )
        );
    }
}
