//! The n-tuples: which cells a lookup table reads, and their eight symmetric images.

use core::fmt;
use core::str::FromStr;

/// The most cells a tuple may have: a table of 16^6 weights is 64 MiB already.
pub const MAX_TUPLE_LEN: usize = 6;

/// The tile exponents a tuple tells apart: 0 (empty) to 15 (32768). Tiles of 65536 and
/// 131072 read as 32768, which they follow in every game that makes them.
pub const TUPLE_VALUES: usize = 16;

/// The cells of one n-tuple, in reading order numbers (cell `4 * row + col`).
///
/// A network keeps one table of `16^len` weights per tuple and reads it at the tuple's
/// eight symmetric images, so a tuple learns what it sees in every corner and both
/// orientations.
///
/// ```
/// use ai2048_ai::ntuple::Tuple;
/// let row: Tuple = "0,1,2,3".parse()?;
/// assert_eq!(row.cells(), &[0, 1, 2, 3]);
/// assert_eq!(row.table_len(), 65536);
/// assert!("0,1,1".parse::<Tuple>().is_err());
/// # Ok::<(), ai2048_ai::ntuple::TupleError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tuple {
    cells: Vec<u8>,
}

/// A tuple that cannot be built: no cells, too many, a cell off the board or twice,
/// text that is not a cell; or a set of tuples that cannot be read.
///
/// ```
/// use ai2048_ai::ntuple::{parse_tuples, TupleError};
/// assert_eq!(parse_tuples("0,1;2,2"), Err(TupleError::InTuple(2, Box::new(TupleError::Repeated(2)))));
/// assert_eq!(parse_tuples("0,1;2,2").unwrap_err().to_string(), "tuple 2: cell 2 comes twice");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum TupleError {
    /// A tuple of this many cells: none, or more than [`MAX_TUPLE_LEN`].
    Length(usize),
    /// A cell number of 16 or more.
    OffBoard(u8),
    /// A cell that comes twice in a tuple.
    Repeated(u8),
    /// Text that is not a cell number.
    NotACell(String),
    /// A name that is no set of [`TUPLE_SETS`], and holds no cell numbers.
    UnknownSet(String),
    /// The error of the tuple at this place in a list, from 1.
    InTuple(usize, Box<TupleError>),
}

impl fmt::Display for TupleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TupleError::Length(n) => write!(f, "a tuple has 1 to {MAX_TUPLE_LEN} cells, not {n}"),
            TupleError::OffBoard(c) => write!(f, "cell {c} is off the board (0 to 15)"),
            TupleError::Repeated(c) => write!(f, "cell {c} comes twice"),
            TupleError::NotACell(text) => write!(f, "{text:?} is not a cell number (0 to 15)"),
            TupleError::UnknownSet(name) => {
                let names: Vec<_> = TUPLE_SETS.iter().map(|(name, _)| *name).collect();
                write!(
                    f,
                    "unknown tuple set {name:?}: expected {}, or cells such as 0,1,2,3;4,5,6,7",
                    names.join(", ")
                )
            }
            TupleError::InTuple(i, e) => write!(f, "tuple {i}: {e}"),
        }
    }
}

impl std::error::Error for TupleError {}

impl Tuple {
    /// A tuple of these cells.
    ///
    /// # Errors
    ///
    /// When there are no cells or more than [`MAX_TUPLE_LEN`], a cell is 16 or more,
    /// or a cell comes twice.
    pub fn new(cells: &[u8]) -> Result<Tuple, TupleError> {
        if cells.is_empty() || cells.len() > MAX_TUPLE_LEN {
            return Err(TupleError::Length(cells.len()));
        }
        for (i, &c) in cells.iter().enumerate() {
            if c >= 16 {
                return Err(TupleError::OffBoard(c));
            }
            if cells[..i].contains(&c) {
                return Err(TupleError::Repeated(c));
            }
        }
        Ok(Tuple {
            cells: cells.to_vec(),
        })
    }

    /// The cells.
    #[must_use]
    pub fn cells(&self) -> &[u8] {
        &self.cells
    }

    /// The number of weights its table holds: 16 to the number of cells.
    #[must_use]
    pub fn table_len(&self) -> usize {
        TUPLE_VALUES.pow(self.cells.len() as u32)
    }
}

impl FromStr for Tuple {
    type Err = TupleError;

    /// Cells separated by commas: `0,1,2,3,4,5`.
    fn from_str(s: &str) -> Result<Tuple, TupleError> {
        let cells = s
            .split(',')
            .map(|c| {
                c.trim()
                    .parse::<u8>()
                    .map_err(|_| TupleError::NotACell(c.trim().to_owned()))
            })
            .collect::<Result<Vec<u8>, TupleError>>()?;
        Tuple::new(&cells)
    }
}

impl fmt::Display for Tuple {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, c) in self.cells.iter().enumerate() {
            if i > 0 {
                f.write_str(",")?;
            }
            write!(f, "{c}")?;
        }
        Ok(())
    }
}

/// Named sets of tuples, the first the default, each as [`parse_tuples`] reads a list.
///
/// - `4x6`: the four 6-tuples of Szubert and Jaśkowski's and Yeh et al.'s networks (two
///   rectangles and two "axes"), 4 × 16^6 weights: 256 MiB.
/// - `5x6` and `8x6`: the larger networks of Yeh et al. (2016) and Guei et al. (2022)
///   (TDL2048+'s `5x6patt` and `8x6patt`), 320 MiB and 512 MiB.
/// - `small`: two straight 4-tuples and three 2×2 squares, 5 × 16^4 weights: 1.25 MiB,
///   quick to learn and to test with.
pub const TUPLE_SETS: &[(&str, &str)] = &[
    ("4x6", "0,1,2,3,4,5;4,5,6,7,8,9;0,1,2,4,5,6;4,5,6,8,9,10"),
    ("5x6", "0,1,2,3,4,5;4,5,6,7,8,9;8,9,10,11,12,13;0,1,2,4,5,6;4,5,6,8,9,10"),
    ("8x6", "0,1,2,4,5,6;4,5,6,7,8,9;0,1,2,3,4,5;2,3,4,5,6,9;0,1,2,5,9,10;3,4,5,6,7,8;1,3,4,5,6,7;0,1,4,8,9,10"),
    ("small", "0,1,2,3;4,5,6,7;0,1,4,5;1,2,5,6;5,6,9,10"),
];

/// The tuples of a named set of [`TUPLE_SETS`], or of a list written
/// `0,1,2,3;4,5,6,7` (tuples separated by semicolons).
///
/// # Errors
///
/// When the text is neither a set's name nor a valid list of tuples.
///
/// ```
/// use ai2048_ai::ntuple::parse_tuples;
/// assert_eq!(parse_tuples("4x6")?.len(), 4);
/// assert_eq!(parse_tuples("0,1,2,3;4,5,6,7")?[1].cells(), &[4, 5, 6, 7]);
/// assert!(parse_tuples("big").is_err());
/// # Ok::<(), ai2048_ai::ntuple::TupleError>(())
/// ```
pub fn parse_tuples(text: &str) -> Result<Vec<Tuple>, TupleError> {
    let text = match TUPLE_SETS.iter().find(|(name, _)| *name == text.trim()) {
        Some(&(_, list)) => list,
        None => text,
    };
    if !text.contains(|c: char| c.is_ascii_digit()) {
        return Err(TupleError::UnknownSet(text.trim().to_owned()));
    }
    text.split(';')
        .enumerate()
        .map(|(i, t)| {
            t.parse::<Tuple>()
                .map_err(|e| TupleError::InTuple(i + 1, Box::new(e)))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_tuples_are_refused_with_the_reason() {
        for (text, message) in [
            ("", "not a cell number"),
            ("0,1,2,3,4,5,6", "1 to 6 cells, not 7"),
            ("0,16", "cell 16 is off the board"),
            ("3,2,3", "cell 3 comes twice"),
            ("0,x", "\"x\" is not a cell number"),
        ] {
            let err = text.parse::<Tuple>().unwrap_err();
            assert!(err.to_string().contains(message), "{text}: {err}");
        }
        let err = parse_tuples("0,1;2,2").unwrap_err();
        assert!(
            err.to_string().starts_with("tuple 2: cell 2 comes twice"),
            "{err}"
        );
        let err = parse_tuples("huge").unwrap_err();
        assert_eq!(err, TupleError::UnknownSet("huge".to_owned()));
        assert!(err.to_string().contains("4x6, 5x6, 8x6, small"), "{err}");
    }

    #[test]
    fn the_sets_are_valid_and_print_back() {
        for (name, _) in TUPLE_SETS {
            let tuples = parse_tuples(name).expect("a valid set");
            let text: Vec<String> = tuples.iter().map(ToString::to_string).collect();
            assert_eq!(parse_tuples(&text.join(";")).expect("reparses"), tuples);
        }
    }
}
