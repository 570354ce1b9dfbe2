//! `ai2048.Player`: any player of `ai2048_ai`, by name and options, searching with the
//! GIL released; `ai2048.SearchResult`, what a search returns; and `ai2048.players()`,
//! the catalogue.

use std::sync::{Mutex, PoisonError};
use std::time::Instant;

use ai2048_ai::{create_player, Player, PlayerSpec, SearchLimits, SearchResult, PLAYERS};
use ai2048_engine::Dir;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyFloat, PyInt, PyString, PyTuple};

use crate::board::BoardArg;
use crate::direction::py_dir;
use crate::errors::{player_error, value_error};

/// The deepest search accepted, as on the command line.
pub(crate) const MAX_DEPTH: u32 = SearchLimits::MAX_DEPTH;

/// The player `spec` names, with `options` (keyword arguments) and `threads` added.
///
/// Option names may use `_` for `-` (`tt_mb=16` is `tt-mb=16`); values may be
/// strings, numbers or bools.
pub(crate) fn spec_of(
    name: &str,
    threads: Option<usize>,
    options: Option<&Bound<'_, PyDict>>,
) -> PyResult<PlayerSpec> {
    let mut spec: PlayerSpec = name.parse().map_err(|e| player_error(&e))?;
    if let Some(options) = options {
        for (key, value) in options.iter() {
            let key: String = key.extract()?;
            if value.is_none() {
                continue;
            }
            // Dotted keys (`w.NAME`) name weights, whose names are kept as they are.
            let key = if key.contains('.') {
                key
            } else {
                key.replace('_', "-")
            };
            let value = option_text(&key, &value)?;
            spec.push_option(&format!("{key}={value}"))
                .map_err(|e| player_error(&e))?;
        }
    }
    if let Some(threads) = threads {
        spec.push_option(&format!("threads={threads}"))
            .map_err(|e| player_error(&e))?;
    }
    Ok(spec)
}

/// An option's value as the player reads it: `true`/`false` for bools, the number or
/// the string itself otherwise.
fn option_text(key: &str, value: &Bound<'_, PyAny>) -> PyResult<String> {
    if value.is_instance_of::<PyBool>() {
        return Ok(if value.is_truthy()? { "true" } else { "false" }.to_owned());
    }
    if value.is_instance_of::<PyInt>()
        || value.is_instance_of::<PyFloat>()
        || value.is_instance_of::<PyString>()
    {
        return Ok(value.str()?.to_string());
    }
    Err(value_error(format!(
        "player option {key}: expected a string, a number or a bool, not {}",
        value.get_type().name()?
    )))
}

/// Validated search limits (see [`SearchLimits::from_user`]).
pub(crate) fn limits_of(
    depth: Option<u32>,
    time_ms: Option<f64>,
    nodes: Option<u64>,
    clock_ms: Option<f64>,
) -> PyResult<SearchLimits> {
    SearchLimits::from_user(depth.map(u64::from), time_ms, nodes, clock_ms)
        .map_err(|e| value_error(e.to_string()))
}

/// A player: expectimax (the default), minimax, mcts, replica, greedy or random, with options.
///
/// A player keeps what it learns between moves (expectimax's transposition table), so
/// keep one for a whole game. Searches release the GIL; one player searches one board
/// at a time (concurrent calls wait their turn).
#[pyclass(frozen, module = "ai2048", name = "Player")]
pub(crate) struct PyPlayer {
    spec: PlayerSpec,
    seed: u64,
    limits: SearchLimits,
    inner: Mutex<Box<dyn Player>>,
}

/// The outcome of a search: the move, its value, the value of every direction, the
/// depth reached, the nodes visited and the time taken.
///
/// It unpacks as ``(direction, value)``: ``direction, value = player.best_move(b)``.
#[pyclass(frozen, module = "ai2048", name = "SearchResult")]
pub(crate) struct PySearchResult {
    result: SearchResult,
    seconds: f64,
    table_name: Option<String>,
    table_odds: bool,
}

#[pymethods]
impl PySearchResult {
    /// The chosen :class:`Direction`, or None when no move is legal.
    #[getter]
    fn direction<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        self.result.dir.map(|d| py_dir(py, d)).transpose()
    }

    /// The value of the chosen move, on the player's own scale (0.0 when no move).
    #[getter]
    fn value(&self) -> f64 {
        self.result.value
    }

    /// The value of each direction the player valued, as a dict from
    /// :class:`Direction` to float, in the order up, down, left, right; illegal moves
    /// are left out.
    #[getter]
    fn values<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let dict = PyDict::new(py);
        for dir in Dir::ALL {
            if let Some(v) = self.result.dir_values[dir.index()] {
                dict.set_item(py_dir(py, dir)?, v)?;
            }
        }
        Ok(dict)
    }

    /// The depth reached (0 for players that do not search).
    #[getter]
    fn depth(&self) -> u32 {
        self.result.depth
    }

    /// The nodes visited: boards evaluated or moved.
    #[getter]
    fn nodes(&self) -> u64 {
        self.result.nodes
    }

    /// What an endgame table had to do with the move: None where no table matched the
    /// board, else ``"kept"`` (the searched move stands), ``"played"`` (the table's move
    /// overruled it) or ``"decided"`` (the table's move, ahead of every other by more
    /// than the player's slack, so that no search ran). Where the table's move is
    /// played, ``value`` and ``values`` are its probabilities of making its target.
    #[getter]
    fn table(&self) -> Option<&'static str> {
        self.result.table.name()
    }

    /// The endgame table that matched the board, by name (``"block10-512"``, the last
    /// step before 32768), or None where none did.
    #[getter]
    fn table_name(&self) -> Option<&str> {
        self.table_name.as_deref()
    }

    /// Whether the table that matched keeps its odds, so that where its move is played
    /// ``value`` and ``values`` are its probabilities. False for a table of moves (the
    /// default set's ``"open10-512"``), which keeps each state's best move alone: its
    /// move is valued 1 and every other move of its world 0. True where no table
    /// matched.
    #[getter]
    fn table_keeps_odds(&self) -> bool {
        self.table_odds
    }

    /// The wall-clock time of the search, in milliseconds.
    #[getter]
    fn time_ms(&self) -> f64 {
        self.seconds * 1e3
    }

    /// ``(direction, value)``, so that a result unpacks like a pair.
    fn __iter__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let pair = PyTuple::new(
            py,
            [
                self.direction(py)?.map_or_else(|| py.None(), Bound::unbind),
                self.result.value.into_pyobject(py)?.into_any().unbind(),
            ],
        )?;
        Ok(pair.as_any().try_iter()?.into_any())
    }

    fn __len__(&self) -> usize {
        2
    }

    fn __repr__(&self) -> String {
        let values: Vec<String> = Dir::ALL
            .iter()
            .filter_map(|d| {
                self.result.dir_values[d.index()].map(|v| format!("'{}': {v}", d.name()))
            })
            .collect();
        format!(
            "SearchResult(direction={}, value={}, values={{{}}}, depth={}, nodes={}, time_ms={:.3})",
            self.result
                .dir
                .map_or_else(|| "None".to_owned(), |d| format!("'{}'", d.name())),
            self.result.value,
            values.join(", "),
            self.result.depth,
            self.result.nodes,
            self.seconds * 1e3
        )
    }
}

#[pymethods]
impl PyPlayer {
    /// The player ``name`` (``"expectimax"``, ``"minimax"``, ``"mcts"``, ``"replica"``,
    /// ``"greedy"`` or ``"random"``, optionally with options as
    /// ``"expectimax:tt-mb=16,eval=snake"``) with its options as keyword arguments
    /// (``tt_mb=16``; ``_`` stands for ``-``; pass dotted ones as ``**{"w.empty": 300}``).
    ///
    /// ``depth``, ``time_ms`` and ``nodes`` are the default limits of every search
    /// (:meth:`best_move` may override them); ``threads`` is the number of threads
    /// searching each move; ``seed`` seeds the players that draw random numbers.
    ///
    /// Raises ValueError, with the message of the Rust library, for an unknown player
    /// or option, or an option with a bad value.
    #[new]
    #[pyo3(signature = (name = "expectimax", *, depth = None, time_ms = None, threads = None, nodes = None, seed = 0, **options))]
    fn new(
        name: &str,
        depth: Option<u32>,
        time_ms: Option<f64>,
        threads: Option<usize>,
        nodes: Option<u64>,
        seed: u64,
        options: Option<&Bound<'_, PyDict>>,
    ) -> PyResult<PyPlayer> {
        let spec = spec_of(name, threads, options)?;
        let limits = limits_of(depth, time_ms, nodes, None)?;
        let player = create_player(&spec, seed).map_err(|e| player_error(&e))?;
        Ok(PyPlayer {
            spec,
            seed,
            limits,
            inner: Mutex::new(player),
        })
    }

    /// Searches ``board`` (a :class:`Board`, a grid of tile values or a board string)
    /// and returns a :class:`SearchResult`; it unpacks as ``(direction, value)``, and
    /// its direction is None only when no move is legal.
    ///
    /// ``time_ms``, ``depth`` and ``nodes`` override the player's limits for this
    /// search. ``clock_ms`` is the time the whole game has left: without a time or a
    /// depth, expectimax takes this move's share of it, as a chess engine plans its
    /// clock. The GIL is released while searching.
    #[pyo3(signature = (board, *, time_ms = None, depth = None, nodes = None, clock_ms = None))]
    fn best_move(
        &self,
        py: Python<'_>,
        board: BoardArg,
        time_ms: Option<f64>,
        depth: Option<u32>,
        nodes: Option<u64>,
        clock_ms: Option<f64>,
    ) -> PyResult<PySearchResult> {
        let given = limits_of(depth, time_ms, nodes, clock_ms)?;
        let limits = SearchLimits {
            depth: given.depth.or(self.limits.depth),
            time: given.time.or(self.limits.time),
            nodes: given.nodes.or(self.limits.nodes),
            clock: given.clock,
        };
        let board = board.0;
        let (result, seconds, table_name, table_odds) = py.detach(|| {
            let mut player = self.inner.lock().unwrap_or_else(PoisonError::into_inner);
            let start = Instant::now();
            let result = player.search(board, &limits);
            let seconds = start.elapsed().as_secs_f64();
            let name = player.table_name().map(str::to_owned);
            (result, seconds, name, player.table_keeps_odds())
        });
        Ok(PySearchResult {
            result,
            seconds,
            table_name,
            table_odds,
        })
    }

    /// Forgets what was learned in the game so far (the transposition table), before
    /// a new game.
    fn new_game(&self, py: Python<'_>) {
        py.detach(|| {
            self.inner
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .new_game();
        });
    }

    /// The player's name, such as ``"expectimax"``.
    #[getter]
    fn name(&self) -> &str {
        &self.spec.name
    }

    /// The player with its options, as the command line's ``--ai`` takes it.
    #[getter]
    fn spec(&self) -> String {
        self.spec.to_string()
    }

    /// The seed of the player's random numbers.
    #[getter]
    fn seed(&self) -> u64 {
        self.seed
    }

    /// The default search depth (None: the player chooses).
    #[getter]
    fn depth(&self) -> Option<u32> {
        self.limits.depth
    }

    /// The default time per move in milliseconds (None: the player chooses).
    #[getter]
    fn time_ms(&self) -> Option<f64> {
        self.limits.time.map(|t| t.as_secs_f64() * 1e3)
    }

    fn __repr__(&self) -> String {
        let mut out = format!("Player({:?}", self.spec.to_string()).replace('"', "'");
        if let Some(d) = self.limits.depth {
            out += &format!(", depth={d}");
        }
        if let Some(t) = self.time_ms() {
            out += &format!(", time_ms={t}");
        }
        if let Some(n) = self.limits.nodes {
            out += &format!(", nodes={n}");
        }
        out + ")"
    }
}

/// The players, the default first, each as a dict with its ``name``, ``about`` (one
/// line) and ``options`` (a dict from option name to what it does).
#[pyfunction]
pub(crate) fn players(py: Python<'_>) -> PyResult<Vec<Bound<'_, PyDict>>> {
    PLAYERS
        .iter()
        .map(|info| {
            let dict = PyDict::new(py);
            dict.set_item("name", info.name)?;
            dict.set_item("about", info.about)?;
            let options = PyDict::new(py);
            for (key, about) in info.options {
                options.set_item(key, about)?;
            }
            dict.set_item("options", options)?;
            Ok(dict)
        })
        .collect()
}
