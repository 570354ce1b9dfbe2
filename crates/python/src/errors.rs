//! Rust errors as Python exceptions: every error of the engine, the players and the
//! benchmark becomes a `ValueError` (or a subclass) carrying the Rust message, so
//! Python users read the same words as users of the command line.

use std::path::Path;

use ai2048_ai::ntuple::NetworkError;
use ai2048_ai::PlayerError;
use ai2048_bench::BenchError;
use ai2048_engine::{ParseBoardError, ParseDirError, PlayError, ReplayError, RulesError};
use ai2048_tables::TableFileError;
use pyo3::create_exception;
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::PyErr;

create_exception!(
    ai2048,
    IllegalMoveError,
    PyValueError,
    "A move that changes nothing, under rules that refuse such moves (the original rules)."
);

create_exception!(
    ai2048,
    GameOverError,
    PyValueError,
    "A move asked of a game that is over."
);

/// A `ValueError` with `message`.
pub(crate) fn value_error(message: impl Into<String>) -> PyErr {
    PyValueError::new_err(message.into())
}

/// A malformed board: the engine's message, which names the row and column.
pub(crate) fn board_error(e: &ParseBoardError) -> PyErr {
    value_error(format!("invalid board: {e}"))
}

/// An unknown direction name.
pub(crate) fn dir_error(e: &ParseDirError) -> PyErr {
    value_error(e.to_string())
}

/// An unknown player or option: the message of `ai2048_ai::create_player`.
pub(crate) fn player_error(e: &PlayerError) -> PyErr {
    value_error(e.to_string())
}

/// Rules out of range.
pub(crate) fn rules_error(e: &RulesError) -> PyErr {
    value_error(format!("invalid rules: {e}"))
}

/// A replay that does not parse or does not replay.
pub(crate) fn replay_error(e: &ReplayError) -> PyErr {
    value_error(format!("invalid replay: {e}"))
}

/// A move the game refuses.
pub(crate) fn play_error(e: &PlayError) -> PyErr {
    match e {
        PlayError::GameOver => GameOverError::new_err(e.to_string()),
        PlayError::IllegalMove(_) => IllegalMoveError::new_err(e.to_string()),
    }
}

/// A benchmark that cannot run: a bad configuration is a `ValueError`, a faulty
/// player (an illegal move, a panic) a `RuntimeError`.
pub(crate) fn bench_error(e: &BenchError) -> PyErr {
    match e {
        BenchError::Config(_) | BenchError::Rules(_) | BenchError::Player(_) => {
            value_error(e.to_string())
        }
        _ => PyRuntimeError::new_err(e.to_string()),
    }
}

/// A network file that cannot be read: an `OSError` when the file cannot be opened or
/// read, a `ValueError` when it is not a whole network; both name the file.
pub(crate) fn network_error(path: &Path, e: &NetworkError) -> PyErr {
    let message = format!("cannot load {}: {e}", path.display());
    match e {
        NetworkError::Io(io) => {
            pyo3::exceptions::PyOSError::new_err((io.raw_os_error().unwrap_or(0), message))
        }
        _ => value_error(message),
    }
}

/// A table file that cannot be read (an `OSError`, `FileNotFoundError` for a missing
/// one), or is not a whole, undamaged table of this build (a `ValueError`); the message
/// names the file.
pub(crate) fn table_error(e: &TableFileError) -> PyErr {
    match e {
        TableFileError::Io(_, io) => {
            pyo3::exceptions::PyOSError::new_err((io.raw_os_error().unwrap_or(0), e.to_string()))
        }
        TableFileError::Invalid(..) => value_error(e.to_string()),
    }
}
