//! Endgame tables for 2048: for a formation of fixed large tiles, the exact probability
//! that the tiles around them make a target tile where it is wanted, for every
//! arrangement of those tiles, and the move that gets there most often.
//!
//! - [`Pattern`]: which cells are fixed, which move, and where the target counts
//!   (`xxxx/xxxx/xx../..tt`), or which tiles count as it ([`Goal`]s).
//! - [`Layout`]: a pattern and a target, and the dense index of their states.
//! - [`solve`] and [`build`]: the exact solver, layer by layer of the tiles' sum, in
//!   memory or into a file that a stopped build goes on with.
//! - [`builtin`], [`default_set`] and [`large_set`]: the formations the default player
//!   makes, the tables built unless others are named, and those `--large` adds.
//! - [`query_from`] and [`solve_from`]: a table's answer for one board without the
//!   table, from only the states the board reaches, and a table of those states.
//! - [`Table`]: a solved table, in memory or mapped from its file, and its answers for
//!   real boards under the eight symmetries ([`Table::query`]).
//! - [`Distiller`] and [`Distilled`]: the best moves of the states games meet most, in
//!   a few megabytes, for a build that carries no full table.
//!
//! # The semantics
//!
//! So that anyone can check a table against a solver of their own: after a move, the
//! board has succeeded (1) if a target cell holds the target tile, or the cells of one
//! of the pattern's goals hold the goal's tiles; a move that slides
//! a fixed tile, merges two targets into a larger tile, or puts a tile above its cell's
//! cap, has failed (0); otherwise a 2 (probability 0.9) or a 4 (0.1) spawns in a
//! uniformly chosen empty cell (a 4 in a cell capped at 2 fails too), and the value of
//! the board that results is that of its best move, or 0 if no move is left.
//! Fixed tiles never merge: on a real board whose fixed tiles are larger than its
//! moving tiles, and no two of them alike side by side, that is the game itself.
//!
//! ```
//! use ai2048_engine::Board;
//! use ai2048_tables::{Layout, Table};
//!
//! // Make a 32 in the bottom right corner, with the top three rows fixed.
//! let table = Table::solve(Layout::new("xxxx/xxxx/xxxx/...t".parse()?, 32)?);
//! let board: Board = "512 256 128 64/32768 16384 8192 4096/2048 1024 8 8/0 2 8 8".parse()?;
//! let p = table.value(board).expect("the board matches");
//! assert!((0.0..=1.0).contains(&p));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![deny(missing_docs)]

/// An error type that is its message, which `Display` prints.
macro_rules! message_error {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(Clone, Debug, PartialEq, Eq)]
        pub struct $name(pub(crate) String);

        impl core::fmt::Display for $name {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                f.write_str(&self.0)
            }
        }

        impl std::error::Error for $name {}
    };
}

mod build;
mod builtin;
mod distilled;
mod file;
mod goal;
mod layout;
#[cfg(not(target_arch = "wasm32"))]
mod map;
mod moves;
mod pattern;
mod rank;
mod reach;
mod solve;
mod table;

pub use build::{
    build, build_memory, existing, partial_path, BuildOutcome, BuildProgress, Existing,
};
#[cfg(not(target_arch = "wasm32"))]
pub use builtin::default_dir;
pub use builtin::{
    builtin, default_set, large_set, Builtin, Formation, DEFAULT_SET, FORMATIONS, LARGE_SET_EXTRA,
};
pub use distilled::{Distilled, DistilledAnswer, DistilledError, Distiller, DISTILLED_VERSION};
pub use file::{
    distilled_files, header_len, read_header, read_values, reencode, table_files, write_table,
    Encoding, Header, TableFileError, GOALS_HEADER_LEN, HEADER_LEN, VERSION,
};
pub use goal::{Goal, MAX_GOALS};
pub use layout::{Layout, LayoutError, MAX_TARGET_EXPONENT, MIN_TARGET_EXPONENT};
pub use pattern::{ParsePatternError, Pattern, Symmetry};
pub use reach::{
    query_from, query_from_watched, solve_from, ReachError, ReachProgress, Reached,
    REACH_BYTES_PER_STATE,
};
pub use solve::{solve, FOUR_PROBABILITY};
pub use table::{
    answer_rank, own_stage_from_on, Query, Table, LATE_FROM, OWN_STAGE_FROM, OWN_STAGE_LATE,
};
