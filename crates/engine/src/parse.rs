//! Reading boards from text: 4x4 tile values or the 16-digit hex form.

use core::fmt;
use core::str::FromStr;

use crate::board::{MAX_EXPONENT, MAX_TILE};
use crate::Board;

/// Why a text is not a board.
///
/// Rows and columns are counted from 0; the messages of [`fmt::Display`] count from 1.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseBoardError {
    /// The text does not have 4 rows of 4 cells (or 16 hex digits).
    WrongShape {
        /// The row that has the wrong number of cells, or `None` when the number of
        /// rows is wrong.
        row: Option<usize>,
        /// How many rows (or cells in that row) were found.
        found: usize,
    },
    /// A cell is not a tile: not a number, or not a power of two from 2 up (0 is empty).
    NotATile {
        /// The row of the cell.
        row: usize,
        /// The column of the cell.
        col: usize,
        /// The text found there.
        text: String,
    },
    /// A cell holds a power of two above 131072, which no 4x4 game can reach.
    TileTooLarge {
        /// The row of the cell.
        row: usize,
        /// The column of the cell.
        col: usize,
        /// The text found there.
        text: String,
    },
}

impl fmt::Display for ParseBoardError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseBoardError::WrongShape { row: None, found } => write!(
                f,
                "wrong shape: expected 4 rows of 4 tiles or 16 hex digits, found {found} row{}",
                if *found == 1 { "" } else { "s" }
            ),
            ParseBoardError::WrongShape {
                row: Some(r),
                found,
            } => write!(
                f,
                "wrong shape: row {} has {found} cells, expected 4",
                r + 1
            ),
            ParseBoardError::NotATile { row, col, text } => write!(
                f,
                "row {}, column {}: {text:?} is not a tile (expected 0 or a power of two from 2 to {MAX_TILE})",
                row + 1,
                col + 1
            ),
            ParseBoardError::TileTooLarge { row, col, text } => write!(
                f,
                "row {}, column {}: {text} is above the largest tile, {MAX_TILE}",
                row + 1,
                col + 1
            ),
        }
    }
}

impl std::error::Error for ParseBoardError {}

/// Why a number is not a tile value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TileError {
    /// Not 0 and not a power of two from 2 up.
    NotATile,
    /// A power of two above 131072.
    TooLarge,
}

/// The exponent of a tile value: 0 for 0 (empty), 1 for 2, ..., 17 for 131072.
///
/// # Errors
///
/// [`TileError::NotATile`] for 1 and for numbers that are not powers of two,
/// [`TileError::TooLarge`] for powers of two above 131072.
///
/// ```
/// use ai2048_engine::{exponent_of_tile, TileError};
/// assert_eq!(exponent_of_tile(2048), Ok(11));
/// assert_eq!(exponent_of_tile(0), Ok(0));
/// assert_eq!(exponent_of_tile(3), Err(TileError::NotATile));
/// assert_eq!(exponent_of_tile(262144), Err(TileError::TooLarge));
/// ```
pub fn exponent_of_tile(value: u64) -> Result<u8, TileError> {
    match value {
        0 => Ok(0),
        1 => Err(TileError::NotATile),
        v if !v.is_power_of_two() => Err(TileError::NotATile),
        v if v > u64::from(MAX_TILE) => Err(TileError::TooLarge),
        v => Ok(v.trailing_zeros() as u8),
    }
}

impl Board {
    /// A board from four rows of four tile values, top row first, 0 for empty.
    ///
    /// # Errors
    ///
    /// [`ParseBoardError::NotATile`] or [`ParseBoardError::TileTooLarge`] for the first
    /// bad value.
    ///
    /// ```
    /// use ai2048_engine::Board;
    /// let board = Board::from_rows([[2, 0, 0, 0], [0; 4], [0; 4], [0, 0, 0, 65536]])?;
    /// assert_eq!(board.max_tile(), 65536);
    /// assert!(Board::from_rows([[3, 0, 0, 0], [0; 4], [0; 4], [0; 4]]).is_err());
    /// # Ok::<(), ai2048_engine::ParseBoardError>(())
    /// ```
    pub fn from_rows(rows: [[u64; 4]; 4]) -> Result<Board, ParseBoardError> {
        let mut board = Board::EMPTY;
        for (r, row) in rows.iter().enumerate() {
            for (c, &value) in row.iter().enumerate() {
                board = board.with_exponent(4 * r + c, tile_exponent(value, r, c)?);
            }
        }
        Ok(board)
    }
}

fn tile_exponent(value: u64, row: usize, col: usize) -> Result<u8, ParseBoardError> {
    exponent_of_tile(value).map_err(|e| {
        let text = value.to_string();
        match e {
            TileError::NotATile => ParseBoardError::NotATile { row, col, text },
            TileError::TooLarge => ParseBoardError::TileTooLarge { row, col, text },
        }
    })
}

fn parse_cell(text: &str, row: usize, col: usize) -> Result<u8, ParseBoardError> {
    if matches!(text, "." | "-" | "_") {
        return Ok(0);
    }
    if text.bytes().all(|b| b.is_ascii_digit()) && !text.is_empty() {
        return match text.parse::<u64>() {
            Ok(v) => tile_exponent(v, row, col),
            // All digits but too long for u64: certainly above the largest tile.
            Err(_) => Err(ParseBoardError::TileTooLarge {
                row,
                col,
                text: text.to_owned(),
            }),
        };
    }
    Err(ParseBoardError::NotATile {
        row,
        col,
        text: text.to_owned(),
    })
}

fn parse_hex(digits: &str) -> Result<Board, ParseBoardError> {
    let mut exps = [0u8; 16];
    for (i, ch) in digits.chars().enumerate() {
        let e = ch
            .to_digit(18)
            .filter(|&e| e <= u32::from(MAX_EXPONENT))
            .ok_or_else(|| ParseBoardError::NotATile {
                row: i / 4,
                col: i % 4,
                text: ch.to_string(),
            })?;
        exps[i] = e as u8;
    }
    Ok(Board::from_exponents(exps).expect("hex digits checked above"))
}

impl FromStr for Board {
    type Err = ParseBoardError;

    /// Reads a board in any of these forms:
    ///
    /// - 16 hex digits, one exponent per cell in reading order, optionally after `0x`;
    ///   `g` and `h` stand for 65536 and 131072;
    /// - 4 rows of 4 tile values: rows on separate lines or separated by `/` or `;`,
    ///   values separated by spaces or commas, with `0` or `.` for an empty cell;
    ///   brackets are ignored, so `[[2,0,0,0],[0,0,0,0],...]` works too;
    /// - 16 tile values in reading order on one line.
    fn from_str(s: &str) -> Result<Board, ParseBoardError> {
        let t = s.trim();
        let hex = t
            .strip_prefix("0x")
            .or_else(|| t.strip_prefix("0X"))
            .unwrap_or(t);
        if hex.len() == 16 && hex.chars().all(|c| c.is_ascii_alphanumeric()) {
            return parse_hex(hex);
        }
        let is_row_sep = |c: char| matches!(c, '\n' | '/' | ';');
        let cleaned: String = t
            .replace("],", "]/")
            .chars()
            .filter(|&c| c != '[' && c != ']')
            .collect();
        let rows: Vec<Vec<&str>> = cleaned
            .split(is_row_sep)
            .map(|row| {
                row.split(|c: char| c.is_whitespace() || c == ',')
                    .filter(|w| !w.is_empty())
                    .collect::<Vec<_>>()
            })
            .filter(|row| !row.is_empty())
            .collect();
        let rows: Vec<Vec<&str>> = if rows.len() == 1 && rows[0].len() == 16 {
            rows[0].chunks(4).map(<[&str]>::to_vec).collect()
        } else {
            rows
        };
        if rows.len() != 4 {
            return Err(ParseBoardError::WrongShape {
                row: None,
                found: rows.len(),
            });
        }
        let mut board = Board::EMPTY;
        for (r, row) in rows.iter().enumerate() {
            if row.len() != 4 {
                return Err(ParseBoardError::WrongShape {
                    row: Some(r),
                    found: row.len(),
                });
            }
            for (c, text) in row.iter().enumerate() {
                board = board.with_exponent(4 * r + c, parse_cell(text, r, c)?);
            }
        }
        Ok(board)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn forms_agree() {
        let a: Board = "2 4 0 0\n0 0 0 0\n0 0 0 0\n0 0 0 8".parse().unwrap();
        let b: Board = "[[2,4,0,0],[0,0,0,0],[0,0,0,0],[0,0,0,8]]".parse().unwrap();
        let c: Board = "0x1200000000000003".parse().unwrap();
        let d: Board = "2 4 . . . . . . . . . . . . . 8".parse().unwrap();
        assert_eq!(a, b);
        assert_eq!(a, c);
        assert_eq!(a, d);
        assert_eq!(a.to_string().parse::<Board>().unwrap(), a);
    }

    #[test]
    fn errors_are_typed() {
        assert_eq!(
            "2 2 2".parse::<Board>(),
            Err(ParseBoardError::WrongShape {
                row: None,
                found: 1
            })
        );
        assert_eq!(
            "2 2 2 2/2 2 2/0 0 0 0/0 0 0 0".parse::<Board>(),
            Err(ParseBoardError::WrongShape {
                row: Some(1),
                found: 3
            })
        );
        // What is not a tile, and where.
        for (text, at) in [
            ("3 0 0 0/0 0 0 0/0 0 0 0/0 0 0 0", (0, 0)),
            ("0 0 0 0/0 0 x 0/0 0 0 0/0 0 0 1", (1, 2)),
            ("000000000000000z", (3, 3)),
        ] {
            assert!(
                matches!(
                    text.parse::<Board>(),
                    Err(ParseBoardError::NotATile { row, col, .. }) if (row, col) == at
                ),
                "{text}"
            );
        }
        assert!(matches!(
            "0 0 0 0/0 0 0 0/0 0 0 0/0 0 0 262144".parse::<Board>(),
            Err(ParseBoardError::TileTooLarge { row: 3, col: 3, .. })
        ));
        assert!(matches!(
            "0 0 0 0/0 0 0 0/0 0 0 0/0 0 0 99999999999999999999999".parse::<Board>(),
            Err(ParseBoardError::TileTooLarge { .. })
        ));
    }

    #[test]
    fn shape_errors_count_rows_in_words() {
        let one = "2 2 2".parse::<Board>().unwrap_err().to_string();
        assert!(one.ends_with("found 1 row"), "{one}");
        let two = "2 2 2 2/0 0 0 0".parse::<Board>().unwrap_err().to_string();
        assert!(two.ends_with("found 2 rows"), "{two}");
    }
}
