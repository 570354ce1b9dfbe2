//! `ai2048.Board`: an immutable 4x4 position, with the engine's moves, legality and
//! spawns, built from a grid of tile values, the 16-digit hex form or any text form the
//! engine reads.

use ai2048_engine::{Board, ParseBoardError, RandableBoard, MAX_EXPONENT};
use pyo3::exceptions::{PyIndexError, PyTypeError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyBytes, PyFloat, PyInt, PyString, PyTuple};

use crate::direction::{py_dir, PyDir};
use crate::errors::{board_error, value_error};

/// A 4x4 board of 2048, immutable and hashable.
///
/// Build it from four rows of four tile values (0 for an empty cell), from text (the
/// 16-digit hex form, one exponent per cell, or rows of values), or from nothing (the
/// empty board).
#[pyclass(frozen, eq, hash, module = "ai2048", name = "Board")]
#[derive(Clone, PartialEq, Eq, Hash)]
pub(crate) struct PyBoard(pub(crate) Board);

/// Where a board argument comes from: a `Board`, text, or a grid of tile values.
pub(crate) struct BoardArg(pub(crate) Board);

impl<'a, 'py> FromPyObject<'a, 'py> for BoardArg {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<BoardArg> {
        board_of(&obj).map(BoardArg)
    }
}

/// Reads a board from a `Board`, a string (see [`Board`]'s `FromStr`) or a grid.
pub(crate) fn board_of(obj: &Bound<'_, PyAny>) -> PyResult<Board> {
    if let Ok(board) = obj.cast::<PyBoard>() {
        return Ok(board.get().0);
    }
    if let Ok(text) = obj.cast::<PyString>() {
        return text.to_cow()?.parse().map_err(|e| board_error(&e));
    }
    board_from_grid(obj)
}

/// The items of a row or of the grid: any iterable but a string or bytes.
fn items<'py>(obj: &Bound<'py, PyAny>, what: &str) -> PyResult<Vec<Bound<'py, PyAny>>> {
    let iterable = !obj.is_instance_of::<PyString>()
        && !obj.is_instance_of::<PyBytes>()
        && obj.try_iter().is_ok();
    if !iterable {
        return Err(value_error(format!(
            "invalid board: {what} is not a sequence but {} (a grid is 4 rows of 4 tile values)",
            obj.repr()?
        )));
    }
    obj.try_iter()?.collect()
}

/// Reads a grid: four rows of four integers, each 0 or a tile from 2 to 131072.
fn board_from_grid(obj: &Bound<'_, PyAny>) -> PyResult<Board> {
    let rows = items(obj, "the grid")?;
    if rows.len() != 4 {
        return Err(value_error(format!(
            "invalid board: wrong shape: expected 4 rows of 4 tiles, found {} row{}",
            rows.len(),
            if rows.len() == 1 { "" } else { "s" }
        )));
    }
    let mut values = [[0u64; 4]; 4];
    for (r, row) in rows.iter().enumerate() {
        let cells = items(row, &format!("row {}", r + 1))?;
        if cells.len() != 4 {
            return Err(board_error(&ParseBoardError::WrongShape {
                row: Some(r),
                found: cells.len(),
            }));
        }
        for (c, cell) in cells.iter().enumerate() {
            values[r][c] = cell_value(cell, r, c)?;
        }
    }
    // The engine names the first cell that is not a tile, and why.
    Board::from_rows(values).map_err(|e| board_error(&e))
}

/// The value of one cell: a non-negative integer (a Python int or anything with
/// `__index__`, such as a NumPy integer). Whether it is a tile is the engine's call.
fn cell_value(cell: &Bound<'_, PyAny>, row: usize, col: usize) -> PyResult<u64> {
    let at = format!("invalid board: row {}, column {}", row + 1, col + 1);
    let not_integer = |kind: &str| {
        value_error(format!(
            "{at}: {} is a {kind}, not an integer tile value (0 or a power of two from 2 to 131072)",
            cell.repr().map_or_else(|_| "?".to_owned(), |r| r.to_string())
        ))
    };
    if cell.is_instance_of::<PyBool>() {
        return Err(not_integer("bool"));
    }
    if cell.is_instance_of::<PyFloat>() {
        return Err(not_integer("float"));
    }
    match cell.extract::<i64>() {
        Ok(v) => u64::try_from(v).map_err(|_| {
            board_error(&ParseBoardError::NotATile {
                row,
                col,
                text: v.to_string(),
            })
        }),
        // An int beyond 64 bits: far above the largest tile.
        Err(_) if cell.is_instance_of::<PyInt>() => {
            Err(board_error(&ParseBoardError::TileTooLarge {
                row,
                col,
                text: cell.str()?.to_string(),
            }))
        }
        Err(_) => Err(not_integer(&cell.get_type().name()?.to_string())),
    }
}

#[pymethods]
impl PyBoard {
    /// A board from ``grid``: four rows of four tile values (0 for empty), a string in
    /// any form :meth:`Board.parse` reads, another Board, or None for the empty board.
    ///
    /// Raises ValueError, naming the row and column, for a grid of the wrong shape or a
    /// value that is not 0 or a power of two from 2 to 131072.
    #[new]
    #[pyo3(signature = (grid = None))]
    fn new(grid: Option<&Bound<'_, PyAny>>) -> PyResult<PyBoard> {
        grid.map_or(Ok(Board::EMPTY), board_of).map(PyBoard)
    }

    /// The board of the 16-digit hex form: one exponent per cell in reading order
    /// (``0`` empty, ``1`` a 2, ..., ``b`` a 2048, ``g`` 65536, ``h`` 131072), with an
    /// optional ``0x``.
    #[staticmethod]
    fn from_hex(text: &str) -> PyResult<PyBoard> {
        let digits = text
            .trim()
            .strip_prefix("0x")
            .or_else(|| text.trim().strip_prefix("0X"))
            .unwrap_or(text.trim());
        if digits.chars().count() != 16 {
            return Err(value_error(format!(
                "invalid board: {text:?} is not 16 hex digits (it has {})",
                digits.chars().count()
            )));
        }
        digits.parse().map(PyBoard).map_err(|e| board_error(&e))
    }

    /// The board of any text form the engine reads: 16 hex digits; four rows of four
    /// values separated by newlines, ``/`` or ``;`` (``.`` or ``0`` for empty); or
    /// ``[[2,0,0,0],...]``.
    #[staticmethod]
    fn parse(text: &str) -> PyResult<PyBoard> {
        text.parse().map(PyBoard).map_err(|e| board_error(&e))
    }

    /// The board of sixteen exponents in reading order (0 empty, 1 for a 2, ..., 17
    /// for 131072).
    #[staticmethod]
    fn from_exponents(exponents: Vec<i64>) -> PyResult<PyBoard> {
        if exponents.len() != 16 {
            return Err(value_error(format!(
                "invalid board: expected 16 exponents, found {}",
                exponents.len()
            )));
        }
        let mut exps = [0u8; 16];
        for (i, &e) in exponents.iter().enumerate() {
            exps[i] = u8::try_from(e)
                .ok()
                .filter(|&e| e <= MAX_EXPONENT)
                .ok_or_else(|| {
                    value_error(format!(
                        "invalid board: row {}, column {}: exponent {e} is not from 0 to {MAX_EXPONENT}",
                        i / 4 + 1,
                        i % 4 + 1
                    ))
                })?;
        }
        Board::from_exponents(exps)
            .map(PyBoard)
            .map_err(|_| value_error("invalid board: an exponent is above 17"))
    }

    /// The tile values as four lists of four ints, top row first, 0 for empty.
    fn to_list(&self) -> Vec<Vec<u32>> {
        self.0.to_rows().iter().map(|r| r.to_vec()).collect()
    }

    /// The 16-digit hex form (``g`` and ``h`` stand for 65536 and 131072).
    fn to_hex(&self) -> String {
        self.0.to_hex()
    }

    /// The sixteen exponents in reading order (0 for empty, 11 for a 2048).
    fn exponents(&self) -> Vec<u32> {
        self.0.exponents().iter().map(|&e| u32::from(e)).collect()
    }

    /// The board after sliding toward ``direction``, without a spawn. An illegal move
    /// gives the same board back (see :meth:`can_move`).
    #[pyo3(name = "move")]
    fn shift(&self, direction: PyDir) -> PyBoard {
        PyBoard(self.0.shift(direction.0))
    }

    /// ``(board, score)``: the board after sliding toward ``direction`` and the score
    /// of its merges (the sum of the merged tiles).
    fn move_scored(&self, direction: PyDir) -> (PyBoard, u32) {
        let (board, score) = self.0.shift_scored(direction.0);
        (PyBoard(board), score)
    }

    /// Whether sliding toward ``direction`` changes the board.
    fn can_move(&self, direction: PyDir) -> bool {
        self.0.can_move(direction.0)
    }

    /// The directions whose move changes the board, in the order up, down, left, right.
    fn legal_moves<'py>(&self, py: Python<'py>) -> PyResult<Vec<Bound<'py, PyAny>>> {
        self.0.legal_dirs().iter().map(|d| py_dir(py, d)).collect()
    }

    /// Every board the game can spawn from this one, with its probability: a 2 (or,
    /// with probability ``p4``, a 4) on each empty cell, equally likely. The
    /// probabilities sum to 1; a full board has no spawns.
    #[pyo3(signature = (p4 = 0.1))]
    fn spawns(&self, p4: f64) -> PyResult<Vec<(PyBoard, f64)>> {
        if !(0.0..=1.0).contains(&p4) {
            return Err(value_error(format!(
                "p4, the probability of a 4, must be from 0 to 1, not {p4}"
            )));
        }
        Ok(RandableBoard::new(self.0).map_or_else(Vec::new, |r| {
            r.successors(p4)
                .map(|(p, b)| (PyBoard(b.board()), p))
                .collect()
        }))
    }

    /// This board with the cell at ``row``, ``col`` (from 0) set to ``value`` (a tile,
    /// or 0 to empty it).
    fn with_tile(&self, row: usize, col: usize, value: &Bound<'_, PyAny>) -> PyResult<PyBoard> {
        if row >= 4 || col >= 4 {
            return Err(PyIndexError::new_err(format!(
                "cell ({row}, {col}) is off the board: rows and columns go from 0 to 3"
            )));
        }
        let mut rows = self.0.to_rows().map(|r| r.map(u64::from));
        rows[row][col] = cell_value(value, row, col)?;
        Board::from_rows(rows)
            .map(PyBoard)
            .map_err(|e| board_error(&e))
    }

    /// The largest tile (0 for the empty board).
    #[getter]
    fn max_tile(&self) -> u32 {
        self.0.max_tile()
    }

    /// The number of empty cells.
    #[getter]
    fn empty_count(&self) -> u32 {
        self.0.empty_count()
    }

    /// The empty cells as ``(row, column)`` pairs, from 0, in reading order.
    #[getter]
    fn empty_cells(&self) -> Vec<(usize, usize)> {
        self.0.empty_cells().map(|i| (i / 4, i % 4)).collect()
    }

    /// The sum of the tiles.
    #[getter]
    fn tile_sum(&self) -> u64 {
        self.0.tile_sum()
    }

    /// Whether no move is legal.
    #[getter]
    fn is_over(&self) -> bool {
        self.0.is_over()
    }

    /// ``board[row, col]`` (from 0) or ``board[i]`` (cell ``i`` from 0 to 15 in reading
    /// order): the tile value there, 0 when empty.
    fn __getitem__(&self, key: &Bound<'_, PyAny>) -> PyResult<u32> {
        let cell = if let Ok(pair) = key.cast::<PyTuple>() {
            let (row, col): (i64, i64) = pair
                .extract()
                .map_err(|_| PyTypeError::new_err("a cell is board[row, col] or board[index]"))?;
            if !(0..4).contains(&row) || !(0..4).contains(&col) {
                return Err(PyIndexError::new_err(format!(
                    "cell ({row}, {col}) is off the board: rows and columns go from 0 to 3"
                )));
            }
            row * 4 + col
        } else {
            let i: i64 = key
                .extract()
                .map_err(|_| PyTypeError::new_err("a cell is board[row, col] or board[index]"))?;
            if !(0..16).contains(&i) {
                return Err(PyIndexError::new_err(format!(
                    "cell {i} is off the board: cells go from 0 to 15"
                )));
            }
            i
        };
        Ok(self.0.tile(cell as usize))
    }

    /// ``Board([[...], ...])``, which evaluates back to the same board.
    fn __repr__(&self) -> String {
        let rows: Vec<String> = self
            .0
            .to_rows()
            .iter()
            .map(|r| format!("[{}, {}, {}, {}]", r[0], r[1], r[2], r[3]))
            .collect();
        format!("Board([{}])", rows.join(", "))
    }

    /// Four lines of four right-aligned tiles, ``.`` for empty.
    fn __str__(&self) -> String {
        self.0.to_string()
    }

    /// Pickles as its hex form.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, (String,))> {
        let from_hex = slf.get_type().getattr("from_hex")?;
        Ok((from_hex, (slf.get().0.to_hex(),)))
    }

    /// Boards are immutable: a copy is the board itself.
    fn __copy__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    /// Boards are immutable: a copy is the board itself.
    fn __deepcopy__<'py>(slf: PyRef<'py, Self>, _memo: &Bound<'py, PyAny>) -> PyRef<'py, Self> {
        slf
    }
}
