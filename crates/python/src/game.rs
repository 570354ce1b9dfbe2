//! `ai2048.Game`: a seeded game under some rules, with undo and replays, and
//! `ai2048.Turn`, what one move came to.

use std::collections::hash_map::RandomState;
use std::hash::{BuildHasher, Hasher};

use ai2048_engine::{Game, Replay, Rules, SpawnStream, Turn};
use pyo3::prelude::*;

use crate::board::{board_of, PyBoard};
use crate::direction::{py_dir, PyDir};
use crate::errors::{play_error, replay_error, rules_error, value_error};

/// One turn of a game: the direction played, whether it moved, the score of its merges
/// and the tile spawned after it.
#[pyclass(frozen, module = "ai2048", name = "Turn")]
pub(crate) struct PyTurn(Turn);

#[pymethods]
impl PyTurn {
    /// The direction played, an :class:`ai2048.Direction`.
    #[getter]
    fn direction<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        py_dir(py, self.0.dir)
    }

    /// Whether the move changed the board (False only for an illegal move under rules
    /// that let illegal moves spawn).
    #[getter]
    fn moved(&self) -> bool {
        self.0.moved
    }

    /// The score of the move's merges: the sum of the merged tiles.
    #[getter]
    fn score(&self) -> u32 {
        self.0.score
    }

    /// The tile spawned after the move as ``(row, column, value)``, rows and columns
    /// from 0; None when no tile was spawned.
    #[getter]
    fn spawn(&self) -> Option<(u8, u8, u32)> {
        self.0.spawn.map(|s| (s.cell / 4, s.cell % 4, s.tile()))
    }

    fn __repr__(&self) -> String {
        let spawn = self
            .spawn()
            .map_or_else(|| "None".to_owned(), |(r, c, t)| format!("({r}, {c}, {t})"));
        format!(
            "Turn(direction='{}', moved={}, score={}, spawn={spawn})",
            self.0.dir.name(),
            if self.0.moved { "True" } else { "False" },
            self.0.score
        )
    }
}

/// A seeded game of 2048: the same seed and rules give the same game, on every
/// machine. Every turn is recorded, so a game can be undone and saved as a replay.
#[pyclass(module = "ai2048", name = "Game")]
#[derive(Clone)]
pub(crate) struct PyGame(Game);

/// A seed from the process's hash keys, which the standard library draws from the
/// operating system: for games whose seed the caller leaves out (it can be read back
/// from `Game.seed` to replay the game).
pub(crate) fn fresh_seed() -> u64 {
    RandomState::new().build_hasher().finish()
}

/// A seed from Python: None for a fresh one, or an int from 0 to 2**64 - 1.
pub(crate) fn seed_of(seed: Option<&Bound<'_, PyAny>>) -> PyResult<u64> {
    match seed {
        None => Ok(fresh_seed()),
        Some(s) if s.is_none() => Ok(fresh_seed()),
        Some(s) => s.extract::<u64>().map_err(|_| {
            value_error(format!(
                "seed must be an integer from 0 to 2**64 - 1, not {}",
                s.repr().map_or_else(|_| "?".to_owned(), |r| r.to_string())
            ))
        }),
    }
}

/// The rules of the keyword arguments shared by `Game`, `Env` and `bench`.
pub(crate) fn rules_of(start_tiles: i64, p4: f64, illegal_move_spawns: bool) -> PyResult<Rules> {
    let start_tiles = u8::try_from(start_tiles).map_err(|_| {
        value_error(format!(
            "invalid rules: start tiles must be from 1 to 16, not {start_tiles}"
        ))
    })?;
    let rules = Rules {
        start_tiles,
        four_probability: p4,
        illegal_move_spawns,
    };
    rules.validate().map_err(|e| rules_error(&e))?;
    Ok(rules)
}

#[pymethods]
impl PyGame {
    /// A new game from ``seed`` (a fresh one when None) with ``start_tiles`` tiles on
    /// the board, a 4 spawned with probability ``p4``, and moves that change nothing
    /// either refused (the original game) or, with ``illegal_move_spawns=True``, still
    /// followed by a spawn (as the UCSB grader does).
    #[new]
    #[pyo3(signature = (seed = None, *, start_tiles = 2, p4 = 0.1, illegal_move_spawns = false))]
    fn new(
        seed: Option<&Bound<'_, PyAny>>,
        start_tiles: i64,
        p4: f64,
        illegal_move_spawns: bool,
    ) -> PyResult<PyGame> {
        let rules = rules_of(start_tiles, p4, illegal_move_spawns)?;
        Game::new(seed_of(seed)?, rules)
            .map(PyGame)
            .map_err(|e| rules_error(&e))
    }

    /// A game that starts from ``board`` (a :class:`Board`, or anything ``Board``
    /// reads) as if it had been played to there: no start tiles spawn, the score
    /// counts the merges from there on, and the spawns come from ``seed`` (a fresh one
    /// when None), under the rules as :class:`Game` takes them. Its replay starts from
    /// the same board.
    #[staticmethod]
    #[pyo3(signature = (board, *, seed = None, p4 = 0.1, illegal_move_spawns = false))]
    fn from_board(
        board: &Bound<'_, PyAny>,
        seed: Option<&Bound<'_, PyAny>>,
        p4: f64,
        illegal_move_spawns: bool,
    ) -> PyResult<PyGame> {
        let board = board_of(board)?;
        let rules = rules_of(2, p4, illegal_move_spawns)?;
        Game::from_board(seed_of(seed)?, rules, SpawnStream::Sequential, board)
            .map(PyGame)
            .map_err(|e| rules_error(&e))
    }

    /// The game a replay text records (as :attr:`replay` writes it), after checking
    /// that every spawn, the score and the final board follow from its seed.
    #[staticmethod]
    fn from_replay(text: &str) -> PyResult<PyGame> {
        let replay: Replay = text.parse().map_err(|e| replay_error(&e))?;
        replay.verify().map(PyGame).map_err(|e| replay_error(&e))
    }

    /// Plays ``direction`` (a name, a move code or a :class:`Direction`): slides,
    /// scores and spawns a tile. Returns the :class:`Turn`.
    ///
    /// Raises IllegalMoveError (a ValueError) when the move changes nothing and the
    /// rules refuse such moves (nothing happens then), GameOverError when the game is
    /// over.
    fn play(&mut self, direction: PyDir) -> PyResult<PyTurn> {
        self.0
            .try_play(direction.0)
            .map(PyTurn)
            .map_err(|e| play_error(&e))
    }

    /// Takes back the last turn, spawn included, and returns it (None at the start).
    /// Playing the same move again gives the same spawn.
    fn undo(&mut self) -> Option<PyTurn> {
        self.0.undo().map(PyTurn)
    }

    /// The current :class:`Board`.
    #[getter]
    fn board(&self) -> PyBoard {
        PyBoard(self.0.board())
    }

    /// The score: the sum of all merged tiles.
    #[getter]
    fn score(&self) -> u64 {
        self.0.score()
    }

    /// The number of turns played.
    #[getter]
    fn moves(&self) -> usize {
        self.0.moves()
    }

    /// The largest tile on the board.
    #[getter]
    fn max_tile(&self) -> u32 {
        self.0.max_tile()
    }

    /// Whether the game is over: no legal move (or, when illegal moves spawn, an
    /// illegal move on a full board).
    #[getter]
    fn is_over(&self) -> bool {
        self.0.is_over()
    }

    /// The seed the game started from.
    #[getter]
    fn seed(&self) -> u64 {
        self.0.seed()
    }

    /// The number of tiles the game started with.
    #[getter]
    fn start_tiles(&self) -> u8 {
        self.0.rules().start_tiles
    }

    /// The probability that a spawned tile is a 4.
    #[getter]
    fn p4(&self) -> f64 {
        self.0.rules().four_probability
    }

    /// Whether a move that changes nothing still spawns a tile.
    #[getter]
    fn illegal_move_spawns(&self) -> bool {
        self.0.rules().illegal_move_spawns
    }

    /// Every turn played so far, as :class:`Turn` objects.
    #[getter]
    fn turns(&self) -> Vec<PyTurn> {
        self.0.turns().iter().copied().map(PyTurn).collect()
    }

    /// The game so far as replay text (seed, rules, every move and spawn, score and
    /// final board), which :meth:`Game.from_replay` and ``ai2048 replay`` read back.
    #[getter]
    fn replay(&self) -> String {
        self.0.replay().to_string()
    }

    /// An independent copy of the game, generator included.
    fn copy(&self) -> PyGame {
        self.clone()
    }

    fn __copy__(&self) -> PyGame {
        self.clone()
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> PyGame {
        self.clone()
    }

    fn __repr__(&self) -> String {
        format!(
            "Game(seed={}, moves={}, score={}, max_tile={}, over={})",
            self.0.seed(),
            self.0.moves(),
            self.0.score(),
            self.0.max_tile(),
            if self.0.is_over() { "True" } else { "False" }
        )
    }

    /// The board, as four lines of tiles.
    fn __str__(&self) -> String {
        self.0.board().to_string()
    }
}
