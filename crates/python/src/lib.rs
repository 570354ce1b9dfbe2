//! The native part of the `ai2048` Python package: the engine's boards and games, the
//! players, n-tuple networks, endgame tables and the benchmark, as Python classes and
//! functions.
//!
//! The pure-Python parts (the `Direction` enum, `NextMove` for the UCSB grader, the
//! Gymnasium environment, `bench`'s JSON parsing) live in `crates/python/python/ai2048`
//! and import this module as `ai2048._ai2048`. Build it with maturin
//! (`scripts/test-python`, or `pip install ./crates/python`); its tests are in Python,
//! in `crates/python/tests`.

mod bench;
mod board;
mod direction;
mod errors;
mod game;
mod network;
mod player;
mod tables;
mod worker;

use pyo3::prelude::*;

/// The seed of game `index` of a run from `seed`, as `ai2048 bench` derives it: the
/// same function the engine uses, so Python can replay any game of a benchmark.
#[pyfunction]
fn derive_seed(seed: u64, index: u64) -> u64 {
    ai2048_engine::rng::derive_seed(seed, index)
}

/// A fresh seed drawn from the operating system's randomness.
#[pyfunction]
fn fresh_seed() -> u64 {
    game::fresh_seed()
}

/// The native module `ai2048._ai2048`.
#[pymodule]
fn _ai2048(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("MAX_TILE", ai2048_engine::MAX_TILE)?;
    m.add("MAX_DEPTH", player::MAX_DEPTH)?;
    m.add("DEFAULT_PLAYER", ai2048_ai::DEFAULT_PLAYER)?;
    m.add_class::<board::PyBoard>()?;
    m.add_class::<game::PyGame>()?;
    m.add_class::<game::PyTurn>()?;
    m.add_class::<network::PyNetwork>()?;
    m.add_class::<player::PyPlayer>()?;
    m.add_class::<player::PySearchResult>()?;
    m.add_class::<tables::PyTable>()?;
    m.add_function(wrap_pyfunction!(player::players, m)?)?;
    m.add_function(wrap_pyfunction!(bench::bench, m)?)?;
    m.add_function(wrap_pyfunction!(bench::merge_runs, m)?)?;
    m.add_function(wrap_pyfunction!(derive_seed, m)?)?;
    m.add_function(wrap_pyfunction!(fresh_seed, m)?)?;
    m.add(
        "IllegalMoveError",
        py.get_type::<errors::IllegalMoveError>(),
    )?;
    m.add("GameOverError", py.get_type::<errors::GameOverError>())?;
    Ok(())
}
