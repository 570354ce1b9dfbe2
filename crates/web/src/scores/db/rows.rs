//! What the database stores and returns, read by column name (`sqlx`'s `FromRow`):
//! a value its column cannot hold is an error naming the column, never a value made
//! up for it.

use std::str::FromStr;

use ai2048_engine::keyed::SpawnKey;
use ai2048_engine::Board;
use sqlx::any::AnyRow;
use sqlx::{FromRow, Row};

/// A ranked game as stored.
#[derive(Clone, Debug, PartialEq)]
pub struct GameRow {
    /// Its id.
    pub id: String,
    /// Its player's name, as registered.
    pub player: String,
    /// The hash of its player's token.
    pub token_hash: String,
    /// Its seed: its spawns' when it has no spawn key (the games of schema 2 and
    /// before), else 0.
    pub seed: u64,
    /// The secret its spawns come from (schema 3 and later; see
    /// [`SpawnStream::Keyed`](ai2048_engine::SpawnStream::Keyed)).
    pub spawn_key: Option<SpawnKey>,
    /// The board now.
    pub board: Board,
    /// The score now.
    pub score: u64,
    /// The turn now: the number of moves played.
    pub turn: u64,
    /// The largest tile.
    pub max_tile: u64,
    /// The moves the page's AI chose.
    pub ai_moves: u64,
    /// Whether it is over.
    pub over: bool,
    /// Why it ended: `"no moves"` or `"abandoned"`.
    pub end_reason: Option<String>,
    /// When it started (ms since 1970).
    pub started_at: i64,
    /// When its last move was played, or when it started.
    pub last_move_at: i64,
    /// When it ended.
    pub ended_at: Option<i64>,
    /// The answer to its last move, for a client that sends it again.
    pub last_answer: Option<String>,
}

/// One move as stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveRow {
    /// The turn it was played at, from 0.
    pub turn: u64,
    /// Its direction's letter: U, D, L or R.
    pub dir: char,
    /// Whether the page's AI chose it.
    pub ai: bool,
    /// The cell of the tile that followed it.
    pub spawn_cell: u8,
    /// That tile: 2 or 4.
    pub spawn_tile: u32,
}

/// A move to store: the game after it, and the move.
#[derive(Clone, Debug)]
pub struct MoveUpdate {
    /// The board after it and its spawn.
    pub board: Board,
    /// The points it scored.
    pub points: u64,
    /// The move.
    pub row: MoveRow,
    /// Whether it ended the game.
    pub over: bool,
    /// When it was played.
    pub at: i64,
    /// The answer, kept for a retry.
    pub answer: String,
}

/// A new player, for [`super::Db::create_player`].
#[derive(Clone, Copy, Debug)]
pub struct NewPlayer<'a> {
    /// The name, as registered.
    pub name: &'a str,
    /// The name's key (see [`name_key`](crate::scores::name_key)).
    pub key: &'a str,
    /// The hash of its token.
    pub token_hash: &'a str,
    /// When it registers.
    pub at: i64,
    /// The registration's idempotency key, when it has one.
    pub idempotency: Option<KeptKey<'a>>,
}

/// A registration's idempotency key as kept: its hash and the token sealed by it
/// (see [`seal_token`](crate::scores::seal_token)).
#[derive(Clone, Copy, Debug)]
pub struct KeptKey<'a> {
    /// The key's hash.
    pub key_hash: &'a str,
    /// The token, sealed by the key.
    pub sealed_token: &'a str,
    /// The same key kept for a player registered before this is forgotten.
    pub since: i64,
}

/// A new game, at turn 0, for [`super::Db::create_game`].
#[derive(Clone, Copy, Debug)]
pub struct NewGame<'a> {
    /// Its id.
    pub id: &'a str,
    /// Its player's name key.
    pub player_key: &'a str,
    /// Its seed, for its spawns when it has no spawn key.
    pub seed: u64,
    /// The key of its spawns, when it has one.
    pub spawn_key: Option<&'a SpawnKey>,
    /// Its board: the start tiles.
    pub board: Board,
    /// When it starts.
    pub at: i64,
}

/// The place of a game in the leaderboard, to read the page after it
/// ([`super::Db::leaderboard`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct After {
    /// Its score.
    pub score: u64,
    /// When it ended.
    pub ended_at: i64,
    /// Its id.
    pub game: String,
}

/// The most games a player may have open, for [`super::Db::create_game`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OpenLimit {
    /// The most.
    pub max: u64,
    /// The games open with no move since then do not count: they are abandoned,
    /// whether or not they have been ended yet.
    pub active_since: i64,
}

/// A game of the leaderboard, or of a player's list.
#[derive(Clone, Debug, PartialEq)]
pub struct Finished {
    /// The game's id.
    pub game: String,
    /// Its player's name.
    pub name: String,
    /// Its score.
    pub score: u64,
    /// Its largest tile.
    pub max_tile: u64,
    /// Its moves.
    pub moves: u64,
    /// Its moves chosen by the AI.
    pub ai_moves: u64,
    /// Whether it is over.
    pub over: bool,
    /// When it started.
    pub started_at: i64,
    /// When it ended.
    pub ended_at: Option<i64>,
}

pub(super) fn i(v: u64) -> i64 {
    i64::try_from(v).unwrap_or(i64::MAX)
}

/// The error of a stored value that is not what its column holds: it names the
/// column, and the request fails (500) rather than read a value made up for it.
fn bad_column(column: &str, problem: impl Into<String>) -> sqlx::Error {
    sqlx::Error::ColumnDecode {
        index: column.to_owned(),
        source: problem.into().into(),
    }
}

/// Column `column` of `row`, a count or a score: an integer from 0.
pub(super) fn count(row: &AnyRow, column: &str) -> Result<u64, sqlx::Error> {
    let value: i64 = row.try_get(column)?;
    u64::try_from(value).map_err(|_| bad_column(column, format!("{value} is negative")))
}

/// Column `column` of `row`, a boolean stored as 0 or 1.
fn flag(row: &AnyRow, column: &str) -> Result<bool, sqlx::Error> {
    match row.try_get::<i64, _>(column)? {
        0 => Ok(false),
        1 => Ok(true),
        other => Err(bad_column(column, format!("{other} is neither 0 nor 1"))),
    }
}

/// Column `column` of `row`, an integer that fits `T`.
fn small<T: TryFrom<i64>>(row: &AnyRow, column: &str, range: &str) -> Result<T, sqlx::Error> {
    let value: i64 = row.try_get(column)?;
    T::try_from(value).map_err(|_| bad_column(column, format!("{value} is not {range}")))
}

/// The columns of a [`GameRow`], by their names.
pub(super) const GAME_COLUMNS: &str =
    "g.id, p.name AS player, p.token_hash, g.seed, g.board, g.score, \
     g.turn, g.max_tile, g.ai_moves, g.over, g.end_reason, g.started_at, g.last_move_at, \
     g.ended_at, g.last_answer, g.spawn_key";

impl FromRow<'_, AnyRow> for GameRow {
    fn from_row(row: &AnyRow) -> Result<GameRow, sqlx::Error> {
        let board: String = row.try_get("board")?;
        let board = Board::from_str(&board).map_err(|e| bad_column("board", e.to_string()))?;
        let spawn_key = match row.try_get::<Option<String>, _>("spawn_key")? {
            None => None,
            Some(hex) => Some(hex.parse().map_err(
                |e: ai2048_engine::keyed::ParseSpawnKeyError| {
                    bad_column("spawn_key", e.to_string())
                },
            )?),
        };
        Ok(GameRow {
            id: row.try_get("id")?,
            player: row.try_get("player")?,
            token_hash: row.try_get("token_hash")?,
            seed: count(row, "seed")?,
            board,
            score: count(row, "score")?,
            turn: count(row, "turn")?,
            max_tile: count(row, "max_tile")?,
            ai_moves: count(row, "ai_moves")?,
            over: flag(row, "over")?,
            end_reason: row.try_get("end_reason")?,
            started_at: row.try_get("started_at")?,
            last_move_at: row.try_get("last_move_at")?,
            ended_at: row.try_get("ended_at")?,
            last_answer: row.try_get("last_answer")?,
            spawn_key,
        })
    }
}

/// The columns of a [`Finished`], by their names.
pub(super) const FINISHED_COLUMNS: &str =
    "g.id AS game, p.name, g.score, g.max_tile, g.turn AS moves, \
     g.ai_moves, g.over, g.started_at, g.ended_at";

impl FromRow<'_, AnyRow> for Finished {
    fn from_row(row: &AnyRow) -> Result<Finished, sqlx::Error> {
        Ok(Finished {
            game: row.try_get("game")?,
            name: row.try_get("name")?,
            score: count(row, "score")?,
            max_tile: count(row, "max_tile")?,
            moves: count(row, "moves")?,
            ai_moves: count(row, "ai_moves")?,
            over: flag(row, "over")?,
            started_at: row.try_get("started_at")?,
            ended_at: row.try_get("ended_at")?,
        })
    }
}

impl FromRow<'_, AnyRow> for MoveRow {
    fn from_row(row: &AnyRow) -> Result<MoveRow, sqlx::Error> {
        let dir: String = row.try_get("dir")?;
        let dir = match dir.as_str() {
            "U" | "D" | "L" | "R" => dir.chars().next().unwrap_or('?'),
            _ => {
                return Err(bad_column(
                    "dir",
                    format!("{dir:?} is not a direction's letter (U, D, L or R)"),
                ))
            }
        };
        let spawn_cell: u8 = small(row, "spawn_cell", "a cell from 0 to 15")?;
        if spawn_cell > 15 {
            return Err(bad_column(
                "spawn_cell",
                format!("{spawn_cell} is not a cell from 0 to 15"),
            ));
        }
        let spawn_tile: u32 = small(row, "spawn_tile", "a tile, 2 or 4")?;
        if !matches!(spawn_tile, 2 | 4) {
            return Err(bad_column(
                "spawn_tile",
                format!("{spawn_tile} is not a tile, 2 or 4"),
            ));
        }
        Ok(MoveRow {
            turn: count(row, "turn")?,
            dir,
            ai: flag(row, "ai")?,
            spawn_cell,
            spawn_tile,
        })
    }
}
