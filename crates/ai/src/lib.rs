//! Players for 2048, behind one [`Player`] trait.
//!
//! A player looks at a [`Board`](ai2048_engine::Board) and, within [`SearchLimits`], returns a
//! [`SearchResult`]: the move it picks, its value, and what the search cost. Players are
//! created by name with [`create_player`] from a [`PlayerSpec`], so every front end
//! (`ai2048 watch`, `bench`, `engine`) offers the same players with the same options.
//! Their evaluations are in [`eval`], and the learned ones, n-tuple networks, with
//! their training, in [`ntuple`]; [`endgame`] plays the moves of solved endgame tables.
//!
//! ```
//! use ai2048_ai::{create_player, PlayerSpec, SearchLimits};
//! use ai2048_engine::Board;
//!
//! let spec: PlayerSpec = "greedy".parse()?;
//! let mut player = create_player(&spec, 1)?;
//! let board: Board = "2 2 0 0/0 0 0 0/0 0 0 0/0 0 0 0".parse()?;
//! let result = player.search(board, &SearchLimits::default());
//! assert!(result.dir.is_some());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![deny(missing_docs)]

pub mod endgame;
pub mod eval;
mod huge;
mod limits;
pub mod ntuple;
mod player;
mod prefetch;
mod registry;
pub mod search;
pub mod signature;

pub use limits::{LimitsError, SearchLimits, SearchResult, TableUse};
pub use player::Player;
pub use registry::{
    check_player, create_player, option_matches, resolve_player, tables_in_use, PlayerError,
    PlayerInfo, PlayerSpec, DEFAULT_PLAYER, FORMATION_OPTIONS, PLAYERS,
};
pub use search::{spawn_model, TimePlan};
