//! `ai2048.Table`: an endgame table of `ai2048_tables`, opened from its file, solved in
//! memory or built to a file, and asked for each move's success probability.

use std::path::PathBuf;
use std::sync::atomic::Ordering;
use std::time::Duration;

use ai2048_engine::Dir;
use ai2048_tables::{
    build, builtin, existing, query_from, BuildOutcome, Encoding, Existing, Layout, Pattern, Query,
    Table,
};
use pyo3::exceptions::PyKeyboardInterrupt;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::board::BoardArg;
use crate::direction::py_dir;
use crate::errors::{table_error, value_error};
use crate::worker::run_stoppable;

/// The most states :meth:`Table.solve` holds in memory (4 bytes each): larger tables
/// are built to a file, which a stopped build goes on from.
const MAX_SOLVED_STATES: u64 = 1 << 27;

/// How often a build to a file saves its progress.
const CHECKPOINT: Duration = Duration::from_secs(60);

/// An endgame table: for a pattern of fixed large tiles and a target tile, the exact
/// probability that the moving tiles make the target in a target cell, for every
/// arrangement of them, as ``ai2048 tables`` builds and queries them.
///
/// ``Table(path)`` maps a table file (``ai2048 tables build`` or :meth:`build` wrote
/// it) after checking its header and checksum; :meth:`solve` solves a small table in
/// memory. A pattern is four groups of four characters joined by ``/``, the top row
/// first: ``x`` a fixed cell, ``.`` a moving cell, ``t`` a moving cell where the
/// target counts, a digit ``k`` a moving cell whose tile is at most the target over
/// ``2**k``; then, each after a space, goals of several cells (``.`` outside the goal,
/// a digit ``k`` a cell that must hold the target over ``2**k``), as
/// ``"xxx2/xx12/2222/3333 ...2/..12/..../...."``: the board has succeeded when one
/// goal's cells hold its tiles.
#[pyclass(frozen, module = "ai2048", name = "Table")]
pub(crate) struct PyTable {
    table: Table,
}

fn layout_of(pattern: &str, target: u32) -> PyResult<Layout> {
    let pattern: Pattern = pattern
        .parse()
        .map_err(|e| value_error(format!("invalid pattern {pattern:?}: {e}")))?;
    Layout::new(pattern, target).map_err(|e| value_error(e.to_string()))
}

/// Each move's success probability in `query` as a dict from every `Direction`.
fn moves_dict<'py>(py: Python<'py>, query: &Query) -> PyResult<Bound<'py, PyDict>> {
    let moves = PyDict::new(py);
    for dir in Dir::ALL {
        moves.set_item(py_dir(py, dir)?, query.value(dir))?;
    }
    Ok(moves)
}

impl PyTable {
    fn answer(&self, board: BoardArg, chain: bool) -> Option<Query> {
        if chain {
            self.table.play_query(board.0)
        } else {
            self.table.query(board.0)
        }
    }
}

#[pymethods]
impl PyTable {
    #[new]
    fn open(path: PathBuf) -> PyResult<PyTable> {
        let table = Table::open(&path).map_err(|e| table_error(&e))?;
        Ok(PyTable { table })
    }

    /// Solves the table of ``pattern`` to ``target`` in memory (at most 2**27 states;
    /// build larger ones to a file with :meth:`build`).
    #[staticmethod]
    fn solve(py: Python<'_>, pattern: &str, target: u32) -> PyResult<PyTable> {
        let layout = layout_of(pattern, target)?;
        if layout.len() > MAX_SOLVED_STATES {
            return Err(value_error(format!(
                "{pattern} to {target} holds {} states, more than the {MAX_SOLVED_STATES} \
                 Table.solve holds in memory: build it to a file with Table.build",
                layout.len()
            )));
        }
        let table = py.detach(|| Table::solve(layout));
        Ok(PyTable { table })
    }

    /// Builds the table of ``pattern`` to ``target`` into the file ``path``, on all
    /// cores, and opens it; a file that holds that table already is opened as it is,
    /// and one that holds another is an error, unless ``force`` (build it again). The
    /// values are stored as ``encoding`` says: ``"f32"`` (the default, 4 bytes a
    /// state), ``"u16"`` (65535ths, 2 bytes; ``compact=True`` is the same), ``"u8"``
    /// (256 levels spaced in log-odds, 1 byte) or ``"moves"`` (each state's best move
    /// alone, 2 bits, no probabilities: its answers value the best move 1 and every
    /// other move of the table's world 0). A build stopped by Ctrl-C keeps its
    /// progress beside the file (``PATH.partial``, saved every minute and when
    /// stopped), and the same call goes on from there.
    #[staticmethod]
    #[pyo3(signature = (pattern, target, path, *, compact = false, encoding = None, force = false))]
    fn build(
        py: Python<'_>,
        pattern: &str,
        target: u32,
        path: PathBuf,
        compact: bool,
        encoding: Option<&str>,
        force: bool,
    ) -> PyResult<PyTable> {
        let encoding = match (encoding, compact) {
            (None, false) | (Some("f32"), false) => Encoding::F32,
            (None, true) | (Some("u16"), _) => Encoding::U16,
            (Some("u8"), false) => Encoding::U8,
            (Some("moves"), false) => Encoding::Moves,
            (Some(e @ ("f32" | "u8" | "moves")), true) => {
                return Err(value_error(format!(
                    "compact=True is encoding=\"u16\"; it cannot be encoding={e:?}"
                )))
            }
            (Some(other), _) => {
                return Err(value_error(format!(
                    "encoding {other:?} is not \"f32\", \"u16\", \"u8\" or \"moves\""
                )))
            }
        };
        let layout = layout_of(pattern, target)?;
        match existing(&path, &layout) {
            _ if force => {}
            Existing::Other(other) => {
                return Err(value_error(format!(
                    "{} holds another table ({} to {}): force=True replaces it",
                    path.display(),
                    other.pattern(),
                    other.target()
                )))
            }
            Existing::Built(_) => return PyTable::open(path),
            Existing::Absent => {}
        }
        let outcome = run_stoppable(py, None, |stop| {
            build(&layout, &path, encoding, CHECKPOINT, |_| {
                !stop.load(Ordering::Relaxed)
            })
        })?
        .map_err(|e| table_error(&e))?;
        match outcome {
            BuildOutcome::Finished => PyTable::open(path),
            BuildOutcome::Stopped { layers_left } => Err(PyKeyboardInterrupt::new_err(format!(
                "the build stopped with {layers_left} layers left; the same call goes on from there"
            ))),
        }
    }

    /// Each move's success probability from ``board``, as :meth:`query` gives it, with
    /// no table built or solved whole: only the states the board's moves and spawns
    /// reach are solved (seconds for a board well into its step). ``table`` is a
    /// built-in table's name (``"block10-512"``, as ``ai2048 tables list`` names them)
    /// or a pattern, which then needs ``target``. None if the board matches the table
    /// under none of the eight symmetries; a ValueError past ``max_states`` states
    /// (about 10 bytes each at the solve's peak).
    #[staticmethod]
    #[pyo3(signature = (table, board, *, target = None, max_states = 300_000_000))]
    fn query_from<'py>(
        py: Python<'py>,
        table: &str,
        board: BoardArg,
        target: Option<u32>,
        max_states: u64,
    ) -> PyResult<Option<Bound<'py, PyDict>>> {
        let layout = match target {
            Some(target) => layout_of(table, target)?,
            None => {
                builtin(table)
                    .map_err(|e| value_error(format!("{e}; a pattern needs target=")))?
                    .layout
            }
        };
        let reached = py
            .detach(|| query_from(&layout, board.0, max_states))
            .map_err(|e| value_error(e.to_string()))?;
        reached.map(|r| moves_dict(py, &r.query)).transpose()
    }

    /// The pattern, as ``"xxxx/xxxx/t.../...."``.
    #[getter]
    fn pattern(&self) -> String {
        self.table.layout().pattern().to_string()
    }

    /// The target tile.
    #[getter]
    fn target(&self) -> u32 {
        self.table.layout().target()
    }

    /// How many states (arrangements of the moving tiles) the table holds.
    #[getter]
    fn states(&self) -> u64 {
        self.table.layout().len()
    }

    /// Each move's success probability from ``board``: a dict from every
    /// :class:`Direction` to a probability, or to None for a move that is illegal or
    /// leaves the table (it slides a fixed tile, merges two targets, or breaks a cap).
    /// None if the board matches the table under none of the eight symmetries. With
    /// ``chain``, only where the player would consult the table: the fixed tiles make
    /// a snake whose smallest is the target (``ai2048 tables``' chain rule), or, for a
    /// table with goals, a block of tiles that no moving tile can merge with.
    #[pyo3(signature = (board, *, chain = false))]
    fn query<'py>(
        &self,
        py: Python<'py>,
        board: BoardArg,
        chain: bool,
    ) -> PyResult<Option<Bound<'py, PyDict>>> {
        self.answer(board, chain)
            .map(|q| moves_dict(py, &q))
            .transpose()
    }

    /// The best move from ``board`` and its success probability, as
    /// ``(Direction, float)``: the first of the best in the order up, down, left,
    /// right. None if the board does not match (see :meth:`query`) or no move stays in
    /// the table.
    #[pyo3(signature = (board, *, chain = false))]
    fn best_move<'py>(
        &self,
        py: Python<'py>,
        board: BoardArg,
        chain: bool,
    ) -> PyResult<Option<(Bound<'py, PyAny>, f64)>> {
        self.answer(board, chain)
            .and_then(|q| q.best())
            .map(|(dir, p)| Ok((py_dir(py, dir)?, p)))
            .transpose()
    }

    /// The success probability of ``board`` as it stands (its best move's), or None if
    /// it matches the table under no symmetry.
    fn value(&self, board: BoardArg) -> Option<f64> {
        self.table.value(board.0)
    }

    fn __repr__(&self) -> String {
        format!(
            "Table({:?} to {}, {} states)",
            self.pattern(),
            self.target(),
            self.states()
        )
    }
}
