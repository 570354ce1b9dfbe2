//! The JSON-lines protocol of `ai2048 engine`, for other programs and graders.
//!
//! A client writes one JSON object per line; the engine answers each with one line of
//! compact JSON, in order, flushed at once. A board is 4 rows of 4 tile values, top
//! row first, 0 for an empty cell: `[[2,0,0,0],[0,0,0,0],[0,0,0,0],[0,0,0,4]]`.
//!
//! | request | answer |
//! | --- | --- |
//! | `{"op":"apply","board":B,"dir":"left"}` | `{"board":B2,"score":N,"moved":true}` |
//! | `{"op":"legal","board":B}` | `{"dirs":["up","left"]}` |
//! | `{"op":"spawns","board":B}` | `{"spawns":[{"p":0.06,"board":B2},...]}` |
//! | `{"op":"best","board":B}` | `{"dir":"left","value":V,"depth":D,"nodes":N,"values":{"up":V,"down":null,...}}` |
//!
//! - **`apply`** makes the move and spawns nothing. `score` is what the move scores
//!   (the sum of the merged tiles). An illegal move answers the board unchanged,
//!   `"score":0` and `"moved":false`. `dir` is `up`, `down`, `left` or `right`.
//! - **`legal`** lists the moves that change the board, in the order up, down, left,
//!   right: `{"dirs":[]}` when the game is over.
//! - **`spawns`** lists every board the game may spawn from this one with its
//!   probability: for each empty cell in reading order, a 2 then a 4. The
//!   probabilities sum to 1; a full board has none (`{"spawns":[]}`). An optional
//!   `"p4"` (0 to 1) sets the probability of a 4, 0.1 by default; spawns of
//!   probability 0 are left out.
//! - **`best`** asks a player for a move. Optional fields: `"ai"`, a player spec
//!   such as `"greedy"`, `"random"` or `"NAME:KEY=VALUE,..."` (the session's default
//!   when left out); `"depth"`, an integer from 1; `"time_ms"`, a number from 0,
//!   capped at [`MAX_TIME_MS`] (one minute: larger values count as one minute);
//!   `"clock_ms"`, the time the whole game has left, capped at [`MAX_CLOCK_MS`] (one
//!   hour): with neither `depth` nor `time_ms`, expectimax then takes this move's
//!   share of it (see `ai2048_ai::TimePlan`), as a chess engine plans its clock.
//!   Players that do not search ignore all three. The answer gives the move, its value,
//!   the depth and nodes of the search, and the value of each move (`null` for
//!   illegal moves or those the player does not value); `{"dir":null}` when no move
//!   is legal. A session keeps the players it creates, so repeated requests do not
//!   rebuild them.
//!
//! Every request may carry an `"id"`, any JSON value, which its answer echoes first:
//! `{"id":7,"dirs":["down"]}` (numbers come back as the same number, though not
//! always in the same spelling: `1e2` comes back as `100.0`). Optional fields given
//! as `null` count as left out; fields an op does not take are errors, so that a typo
//! such as `"dpeth"` is not silently ignored.
//!
//! A line that is not valid UTF-8 or JSON, not an object, or has an unknown `op`, an
//! unknown field, a missing or bad field or a bad board, is answered with
//! `{"error":"..."}` saying precisely what is wrong and where, such as
//! `board row 2, column 3: 3 is not a tile (expected 0 or a power of two from 2 to
//! 131072)`; the `id` is echoed when it could be read. Tile values must be integers
//! (`2.0` counts as 2). Blank lines (empty or only whitespace) get no answer at all.
//! The engine never stops on a bad line: it serves the next one, and exits at the end
//! of its input.
//!
//! ```
//! use ai2048_protocol::Session;
//!
//! let mut session = Session::new("greedy")?;
//! let request = r#"{"op":"apply","board":[[2,2,4,0],[0,0,0,0],[0,0,0,0],[0,0,0,2]],"dir":"left","id":1}"#;
//! assert_eq!(
//!     session.handle_line(request).as_deref(),
//!     Some(r#"{"id":1,"board":[[4,4,0,0],[0,0,0,0],[0,0,0,0],[2,0,0,0]],"score":4,"moved":true}"#)
//! );
//!
//! let best = session.handle_line(r#"{"op":"best","board":[[0,0,0,0],[0,0,0,0],[0,0,0,0],[0,0,0,1024]]}"#);
//! assert!(best.is_some_and(|a| a.starts_with(r#"{"dir":"up","#)));
//!
//! let bad = session.handle_line(r#"{"op":"legal","board":[[0,0,0,0],[0,0,3,0],[0,0,0,0],[0,0,0,0]]}"#);
//! assert_eq!(
//!     bad.as_deref(),
//!     Some(r#"{"error":"board row 2, column 3: 3 is not a tile (expected 0 or a power of two from 2 to 131072)"}"#)
//! );
//! # Ok::<(), ai2048_ai::PlayerError>(())
//! ```
//!
//! The pieces: [`Request`] reads and checks a line, [`Response`] writes an answer,
//! [`Session`] answers requests and keeps the players, and [`serve`] runs a session
//! over a byte stream such as stdin and stdout.
#![deny(missing_docs)]

mod board;
pub mod json;
mod request;
mod response;
mod serve;
mod session;

pub use board::{board_from_json, board_to_json};
pub use request::{Op, Request, RequestError, DEFAULT_FOUR_PROBABILITY, MAX_CLOCK_MS, MAX_TIME_MS};
pub use response::{BestMove, Response};
pub use serve::serve;
pub use session::{Session, MAX_CACHED_PLAYERS};
