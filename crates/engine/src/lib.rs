//! An exact, very fast 2048 engine with no I/O, and no dependencies but RustCrypto's
//! HMAC-SHA-256 for keyed spawns.
//!
//! - [`Board`]: sixteen cells in a 64-bit word (plus a fifth bit per cell for tiles of
//!   65536 and up), moved by row tables built at compile time. Every tile from 2 to
//!   131072 is represented and merged exactly.
//! - [`PlayableBoard`] and [`RandableBoard`]: the two kinds of positions, the player
//!   to move or a tile to spawn, as the Rust course
//!   lab calls them.
//! - [`Game`]: a seeded game under some [`Rules`], recording every turn; [`Replay`]:
//!   its saved form, which verifies itself.
//! - [`Rng`]: the one seeded random generator of the project; [`keyed`]: the draws of
//!   games whose spawns come from a secret key (the ranked games of `ai2048 serve`).
//!
//! ```
//! use ai2048_engine::{Board, Dir, Game, Rules};
//!
//! // The pair nearest the wall merges first, and each tile merges once.
//! let board: Board = "2 2 2 2/2 2 4 0/0 0 0 0/32768 32768 65536 65536".parse()?;
//! let (after, score) = board.shift_scored(Dir::Left);
//! assert_eq!(after, "4 4 0 0/4 4 0 0/0 0 0 0/65536 131072 0 0".parse()?);
//! assert_eq!(score, 8 + 4 + 65536 + 131072);
//!
//! // Same seed, same game.
//! let mut a = Game::new(1, Rules::default())?;
//! let mut b = Game::new(1, Rules::default())?;
//! a.try_play(Dir::Left).ok();
//! b.try_play(Dir::Left).ok();
//! assert_eq!(a.board(), b.board());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![deny(missing_docs)]

mod board;
mod dir;
mod game;
pub mod keyed;
mod motion;
mod parse;
mod replay;
pub mod rng;
mod rules;
mod tables;
mod turn;

pub use board::{Board, MAX_EXPONENT, MAX_TILE};
pub use dir::{Dir, DirSet, ParseDirError};
pub use game::{Game, PlayError, SpawnStream, Turn};
pub use motion::{motions, Motion};
pub use parse::{exponent_of_tile, ParseBoardError, TileError};
pub use replay::{Replay, ReplayError};
pub use rng::Rng;
pub use rules::{Rules, RulesError};
pub use turn::{PlayableBoard, RandableBoard, Spawn};
