//! The database: SQLite (a file, by default) or PostgreSQL, through one code path
//! (`sqlx`'s `Any` driver), with versioned migrations and one transaction per move.
//!
//! The SQL is written once for both: `BIGINT` integers (times in milliseconds since
//! 1970, booleans as 0 and 1), `TEXT`, and `$N` parameters, which both read.

use std::str::FromStr;
use std::time::Duration;

use sqlx::any::{AnyConnectOptions, AnyPoolOptions};
use sqlx::{AnyPool, Connection, Executor, FromRow, Row};
use tokio::sync::Mutex;

mod error;
mod location;
mod migrations;
mod rows;

pub use error::{postgres_retryable, sqlite_retryable, DbError};
pub use location::{mask_postgres_url, DbLocation};
pub use migrations::SCHEMA_VERSION;
use rows::{count, i, FINISHED_COLUMNS, GAME_COLUMNS};
pub use rows::{
    After, Finished, GameRow, KeptKey, MoveRow, MoveUpdate, NewGame, NewPlayer, OpenLimit,
};

/// An open database.
pub struct Db {
    pool: AnyPool,
    /// The connections of the score API's longer reads (the leaderboard, players'
    /// pages, a game's moves), apart, so that however many readers wait, the moves
    /// have the connections of `pool`.
    reads: AnyPool,
    sqlite: bool,
    /// SQLite takes one writer at a time: the server's writers queue here rather than
    /// in SQLite's busy handler, which sleeps.
    writer: Mutex<()>,
}

impl Db {
    /// Opens the database at `location` (creating a SQLite file and its directory
    /// when missing) and brings its schema up to date.
    ///
    /// # Errors
    ///
    /// When it cannot be opened or reached, or its schema is newer than this build.
    pub async fn open(location: &DbLocation, full_sync: bool) -> Result<Db, String> {
        Db::open_at(location, full_sync, SCHEMA_VERSION).await
    }

    /// [`Db::open`], bringing the schema up to `version` only (the tests make a
    /// database of an older build so).
    async fn open_at(location: &DbLocation, full_sync: bool, version: i64) -> Result<Db, String> {
        sqlx::any::install_default_drivers();
        let shown = location.display();
        let (url, sqlite) = match location {
            DbLocation::Sqlite(path) => {
                if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
                    std::fs::create_dir_all(dir).map_err(|e| {
                        format!(
                            "cannot create the directory {} for the scores: {e}",
                            dir.display()
                        )
                    })?;
                }
                if path.is_dir() {
                    return Err(format!(
                        "--db {}: is a directory; give the database file's path",
                        path.display()
                    ));
                }
                let text = path.to_str().ok_or_else(|| {
                    format!("--db {}: the path is not valid UTF-8", path.display())
                })?;
                let encoded: String = text
                    .chars()
                    .map(|c| match c {
                        '%' | '?' | '#' => format!("%{:02X}", u32::from(c)),
                        c => c.to_string(),
                    })
                    .collect();
                (format!("sqlite://{encoded}?mode=rwc"), true)
            }
            DbLocation::Postgres(url) => (url.clone(), false),
        };
        let options = AnyConnectOptions::from_str(&url)
            .map_err(|e| format!("--db {shown}: not a database URL: {e}"))?;
        if !sqlite {
            // One connection first: the pool would only say that it timed out.
            let conn = sqlx::AnyConnection::connect_with(&options)
                .await
                .map_err(|e| format!("cannot reach the scores' database {shown}: {e}"))?;
            let _ = conn.close().await;
        }
        let pool_options = |max_connections: u32| {
            AnyPoolOptions::new()
                .max_connections(max_connections)
                .acquire_timeout(Duration::from_secs(10))
                .after_connect(move |conn, _| {
                    Box::pin(async move {
                        if sqlite {
                            // WAL: readers do not wait for the writer, and a commit is
                            // one append to the log, which survives the server's crash.
                            // NORMAL syncs the log to the disk at checkpoints, FULL at
                            // every commit (which survives a power cut too, but costs
                            // a disk flush per move).
                            conn.execute("PRAGMA journal_mode = WAL").await?;
                            conn.execute(if full_sync {
                                "PRAGMA synchronous = FULL"
                            } else {
                                "PRAGMA synchronous = NORMAL"
                            })
                            .await?;
                            conn.execute("PRAGMA busy_timeout = 10000").await?;
                            conn.execute("PRAGMA foreign_keys = ON").await?;
                        }
                        Ok(())
                    })
                })
        };
        let pool = pool_options(if sqlite { 4 } else { 16 })
            .connect_with(options.clone())
            .await
            .map_err(|e| format!("cannot open the scores' database {shown}: {e}"))?;
        // Connected when first used: the file exists by now.
        let reads = pool_options(if sqlite { 2 } else { 4 }).connect_lazy_with(options);
        let db = Db {
            pool,
            reads,
            sqlite,
            writer: Mutex::new(()),
        };
        db.migrate(version)
            .await
            .map_err(|e| format!("the scores' database {shown}: {e}"))?;
        Ok(db)
    }

    /// Whether the database answers: one `SELECT 1`, within `limit`. Returns how
    /// long it took.
    ///
    /// # Errors
    ///
    /// When it fails, or takes longer than `limit`, saying which.
    pub async fn ping(&self, limit: Duration) -> Result<Duration, DbError> {
        let start = std::time::Instant::now();
        match tokio::time::timeout(limit, sqlx::query("SELECT 1").fetch_one(&self.pool)).await {
            Ok(Ok(_)) => Ok(start.elapsed()),
            Ok(Err(e)) => Err(e.into()),
            Err(_) => Err(DbError {
                message: format!("no answer within {} ms", limit.as_millis()),
                transient: true,
            }),
        }
    }

    /// Closes the connections, once those in use are given back (on SQLite, the
    /// last one checkpoints the log into the file).
    pub async fn close(&self) {
        self.reads.close().await;
        self.pool.close().await;
    }

    /// Whether the database is SQLite.
    #[must_use]
    pub fn is_sqlite(&self) -> bool {
        self.sqlite
    }

    /// Adds `player`. Returns `false` when the name (ignoring case) is taken, or
    /// its idempotency key is kept for another player.
    ///
    /// # Errors
    ///
    /// When the database fails.
    pub async fn create_player(&self, player: &NewPlayer<'_>) -> Result<bool, DbError> {
        let _writing = self.write_lock().await;
        if let Some(kept) = player.idempotency {
            // The same key kept past its day is forgotten, not a conflict.
            sqlx::query(
                "UPDATE players SET idempotency_key = NULL, sealed_token = NULL \
                 WHERE idempotency_key = $1 AND created_at < $2",
            )
            .bind(kept.key_hash)
            .bind(kept.since)
            .execute(&self.pool)
            .await?;
        }
        let result = sqlx::query(
            "INSERT INTO players (name_key, name, token_hash, created_at, idempotency_key, \
             sealed_token) VALUES ($1, $2, $3, $4, $5, $6)",
        )
        .bind(player.key)
        .bind(player.name)
        .bind(player.token_hash)
        .bind(player.at)
        .bind(player.idempotency.map(|k| k.key_hash))
        .bind(player.idempotency.map(|k| k.sealed_token))
        .execute(&self.pool)
        .await;
        match result {
            Ok(_) => Ok(true),
            Err(sqlx::Error::Database(e)) if e.is_unique_violation() => Ok(false),
            Err(e) => Err(e.into()),
        }
    }

    /// The player registered since `since` with the idempotency key of this hash: its
    /// name's key, its name and its sealed token.
    ///
    /// # Errors
    ///
    /// When the database fails.
    pub async fn player_by_idempotency_key(
        &self,
        key_hash: &str,
        since: i64,
    ) -> Result<Option<(String, String, String)>, DbError> {
        let row = sqlx::query(
            "SELECT name_key, name, sealed_token FROM players \
             WHERE idempotency_key = $1 AND created_at >= $2",
        )
        .bind(key_hash)
        .bind(since)
        .fetch_optional(&self.pool)
        .await?;
        Ok(match row {
            Some(row) => Some((
                row.try_get("name_key")?,
                row.try_get("name")?,
                row.try_get("sealed_token")?,
            )),
            None => None,
        })
    }

    /// Forgets the idempotency keys (and sealed tokens) of the players registered
    /// before `before`. Returns how many.
    ///
    /// # Errors
    ///
    /// When the database fails.
    pub async fn forget_idempotency_keys(&self, before: i64) -> Result<u64, DbError> {
        let _writing = self.write_lock().await;
        let query = sqlx::query(
            "UPDATE players SET idempotency_key = NULL, sealed_token = NULL \
             WHERE idempotency_key IS NOT NULL AND created_at < $1",
        )
        .bind(before);
        Ok(query.execute(&self.pool).await?.rows_affected())
    }

    /// The player (key and name) whose token has this hash.
    ///
    /// # Errors
    ///
    /// When the database fails.
    pub async fn player_by_token(
        &self,
        token_hash: &str,
    ) -> Result<Option<(String, String)>, DbError> {
        let row = sqlx::query("SELECT name_key, name FROM players WHERE token_hash = $1")
            .bind(token_hash)
            .fetch_optional(&self.pool)
            .await?;
        Ok(match row {
            Some(row) => Some((row.try_get("name_key")?, row.try_get("name")?)),
            None => None,
        })
    }

    /// Adds `game`. With `limit`, only when its player has fewer than `limit.max` games
    /// open: else nothing is added, and the answer is `Err` with the ids of the open
    /// games, the most recently played first. The count and the insert are one
    /// transaction, the player's row locked on PostgreSQL (on SQLite, the server's
    /// writers take turns), so requests at once cannot pass the limit together.
    ///
    /// # Errors
    ///
    /// When the database fails.
    pub async fn create_game(
        &self,
        game: &NewGame<'_>,
        limit: Option<OpenLimit>,
    ) -> Result<Result<(), Vec<String>>, DbError> {
        let NewGame {
            id,
            player_key,
            seed,
            spawn_key,
            board,
            at,
        } = *game;
        let _writing = self.write_lock().await;
        let mut tx = self.pool.begin().await?;
        if let Some(limit) = limit {
            if !self.sqlite {
                sqlx::query("SELECT name_key FROM players WHERE name_key = $1 FOR UPDATE")
                    .bind(player_key)
                    .fetch_optional(&mut *tx)
                    .await?;
            }
            let open = sqlx::query(
                "SELECT id FROM games WHERE player = $1 AND over = 0 AND last_move_at >= $2 \
                 ORDER BY last_move_at DESC, id",
            )
            .bind(player_key)
            .bind(limit.active_since)
            .fetch_all(&mut *tx)
            .await?
            .iter()
            .map(|row| row.try_get("id"))
            .collect::<Result<Vec<String>, _>>()?;
            if open.len() as u64 >= limit.max {
                return Ok(Err(open));
            }
        }
        // A game of seeded spawns is written as before schema 3, so that a database of
        // schema 1 (in the migration's test) takes it.
        let query = if spawn_key.is_some() {
            "INSERT INTO games (id, player, seed, board, score, turn, max_tile, ai_moves, over, \
             started_at, last_move_at, spawn_key) \
             VALUES ($1, $2, $3, $4, 0, 0, $5, 0, $6, $7, $7, $8)"
        } else {
            "INSERT INTO games (id, player, seed, board, score, turn, max_tile, ai_moves, over, \
             started_at, last_move_at) VALUES ($1, $2, $3, $4, 0, 0, $5, 0, $6, $7, $7)"
        };
        let mut query = sqlx::query(query)
            .bind(id)
            .bind(player_key)
            .bind(i(seed))
            .bind(board.to_hex())
            .bind(i64::from(board.max_tile()))
            .bind(i64::from(board.is_over()))
            .bind(at);
        if let Some(key) = spawn_key {
            query = query.bind(key.to_hex());
        }
        query.execute(&mut *tx).await?;
        tx.commit().await?;
        Ok(Ok(()))
    }

    /// Ends game `id` as it stands at `at`, for its player (`"resigned"`). Returns
    /// `false`, changing nothing, when it is over already.
    ///
    /// # Errors
    ///
    /// When the database fails.
    pub async fn end_game(&self, id: &str, at: i64) -> Result<bool, DbError> {
        let _writing = self.write_lock().await;
        let changed = sqlx::query(
            "UPDATE games SET over = 1, end_reason = 'resigned', ended_at = $1 \
             WHERE id = $2 AND over = 0",
        )
        .bind(at)
        .bind(id)
        .execute(&self.pool)
        .await?
        .rows_affected();
        Ok(changed == 1)
    }

    /// The game `id`.
    ///
    /// # Errors
    ///
    /// When the database fails.
    pub async fn game(&self, id: &str) -> Result<Option<GameRow>, DbError> {
        let row = sqlx::query(&format!(
            "SELECT {GAME_COLUMNS} FROM games g JOIN players p ON p.name_key = g.player WHERE g.id = $1"
        ))
        .bind(id)
        .fetch_optional(&self.pool)
        .await?;
        Ok(row.as_ref().map(GameRow::from_row).transpose()?)
    }

    /// Stores a move of game `id` played at `turn`, in one statement (so one
    /// transaction): the game's row, whose turn going up records the move among the
    /// moves (migration 2's trigger). Returns `false`, storing nothing, when the game
    /// is no longer at `turn` or is over (another request got there first).
    ///
    /// # Errors
    ///
    /// When the database fails.
    pub async fn play(&self, id: &str, turn: u64, update: &MoveUpdate) -> Result<bool, DbError> {
        let _writing = self.write_lock().await;
        let changed = sqlx::query(
            "UPDATE games SET board = $1, score = score + $2, turn = turn + 1, max_tile = $3, \
             ai_moves = ai_moves + $4, over = $5, end_reason = $6, last_move_at = $7, \
             ended_at = $8, last_answer = $9, last_dir = $12, last_ai = $4, \
             last_spawn_cell = $13, last_spawn_tile = $14 \
             WHERE id = $10 AND turn = $11 AND over = 0",
        )
        .bind(update.board.to_hex())
        .bind(i(update.points))
        .bind(i64::from(update.board.max_tile()))
        .bind(i64::from(update.row.ai))
        .bind(i64::from(update.over))
        .bind(update.over.then_some("no moves"))
        .bind(update.at)
        .bind(update.over.then_some(update.at))
        .bind(&update.answer)
        .bind(id)
        .bind(i(turn))
        .bind(update.row.dir.to_string())
        .bind(i64::from(update.row.spawn_cell))
        .bind(i64::from(update.row.spawn_tile))
        .execute(&self.pool)
        .await?
        .rows_affected();
        Ok(changed == 1)
    }

    /// Ends, as they stand, the games (all, or only `id`) with no move since
    /// `idle_since`; each ends at its last move plus `idle_ms`. Returns how many.
    ///
    /// # Errors
    ///
    /// When the database fails.
    pub async fn end_abandoned(
        &self,
        idle_since: i64,
        idle_ms: i64,
        id: Option<&str>,
    ) -> Result<u64, DbError> {
        let _writing = self.write_lock().await;
        let query = sqlx::query(
            "UPDATE games SET over = 1, end_reason = 'abandoned', ended_at = last_move_at + $1 \
             WHERE over = 0 AND last_move_at < $2 AND ($3 = '' OR id = $3)",
        )
        .bind(idle_ms)
        .bind(idle_since)
        .bind(id.unwrap_or(""));
        Ok(query.execute(&self.pool).await?.rows_affected())
    }

    /// The moves of game `id`, in order.
    ///
    /// # Errors
    ///
    /// When the database fails.
    pub async fn moves(&self, id: &str) -> Result<Vec<MoveRow>, DbError> {
        let rows = sqlx::query(
            "SELECT turn, dir, ai, spawn_cell, spawn_tile FROM moves WHERE game = $1 ORDER BY turn",
        )
        .bind(id)
        .fetch_all(&self.reads)
        .await?;
        Ok(rows
            .iter()
            .map(MoveRow::from_row)
            .collect::<Result<_, _>>()?)
    }

    /// The finished games, best score first (ties: the one that ended first, then
    /// the id), after the game `after` when given (a seek in the index, however deep)
    /// and `offset` more, at most `limit`; only those with no AI move when `human`.
    ///
    /// # Errors
    ///
    /// When the database fails.
    pub async fn leaderboard(
        &self,
        limit: u64,
        offset: u64,
        after: Option<&After>,
        human: bool,
    ) -> Result<Vec<Finished>, DbError> {
        // `g.score <= $4` is implied by the rest, and lets the index start there.
        let seek = if after.is_some() {
            "AND g.score <= $4 AND (g.score < $4 OR (g.score = $4 AND \
             (g.ended_at > $5 OR (g.ended_at = $5 AND g.id > $6))))"
        } else {
            ""
        };
        let sql = format!(
            "SELECT {FINISHED_COLUMNS} FROM games g JOIN players p ON p.name_key = g.player \
             WHERE g.over = 1 AND ($1 = 0 OR g.ai_moves = 0) {seek} \
             ORDER BY g.score DESC, g.ended_at, g.id LIMIT $2 OFFSET $3"
        );
        let mut query = sqlx::query(&sql)
            .bind(i64::from(human))
            .bind(i(limit))
            .bind(i(offset));
        if let Some(after) = after {
            query = query
                .bind(i(after.score))
                .bind(after.ended_at)
                .bind(after.game.as_str());
        }
        let rows = query.fetch_all(&self.reads).await?;
        Ok(rows
            .iter()
            .map(Finished::from_row)
            .collect::<Result<_, _>>()?)
    }

    /// A player's name, best score, finished games and most recent games (at most
    /// `recent`), by the name's key.
    ///
    /// # Errors
    ///
    /// When the database fails.
    pub async fn player(
        &self,
        key: &str,
        recent: u64,
    ) -> Result<Option<(String, u64, u64, Vec<Finished>)>, DbError> {
        let Some(row) = sqlx::query(
            "SELECT p.name, COALESCE(MAX(CASE WHEN g.over = 1 THEN g.score END), 0) AS best, \
             COALESCE(SUM(CASE WHEN g.over = 1 THEN 1 ELSE 0 END), 0) AS played \
             FROM players p LEFT JOIN games g ON g.player = p.name_key \
             WHERE p.name_key = $1 GROUP BY p.name",
        )
        .bind(key)
        .fetch_optional(&self.reads)
        .await?
        else {
            return Ok(None);
        };
        let name: String = row.try_get("name")?;
        let best = count(&row, "best")?;
        let played = count(&row, "played")?;
        let games = sqlx::query(&format!(
            "SELECT {FINISHED_COLUMNS} FROM games g JOIN players p ON p.name_key = g.player \
             WHERE g.player = $1 ORDER BY g.started_at DESC, g.id LIMIT $2"
        ))
        .bind(key)
        .bind(i(recent))
        .fetch_all(&self.reads)
        .await?;
        let games = games
            .iter()
            .map(Finished::from_row)
            .collect::<Result<_, _>>()?;
        Ok(Some((name, best, played, games)))
    }

    async fn write_lock(&self) -> Option<tokio::sync::MutexGuard<'_, ()>> {
        if self.sqlite {
            Some(self.writer.lock().await)
        } else {
            None
        }
    }
}

#[cfg(test)]
impl NewGame<'static> {
    /// The tests' game: `g1` of player `ann`, of seed 7, started at 2 with `board`.
    pub(crate) fn test_game(board: ai2048_engine::Board) -> NewGame<'static> {
        NewGame {
            id: "g1",
            player_key: "ann",
            seed: 7,
            spawn_key: None,
            board,
            at: 2,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ai2048_engine::Board;

    /// With every connection of the reads held (a crowd of readers of the
    /// leaderboard), a move is stored at once, and a read waits for its turn.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn moves_have_connections_whatever_the_readers_hold() {
        let (db, dir) = db_with_game("reads").await;
        let board: Board = "2 0 0 0/0 0 0 0/0 0 0 0/0 0 0 2".parse().unwrap();
        let mut held = Vec::new();
        for _ in 0..2 {
            held.push(db.reads.acquire().await.unwrap());
        }
        let wait = Duration::from_millis(300);
        let read = tokio::time::timeout(wait, db.leaderboard(10, 0, None, false)).await;
        assert!(read.is_err(), "a read waits for a connection of the reads");
        let update = MoveUpdate {
            board,
            points: 0,
            row: MoveRow {
                turn: 0,
                dir: 'L',
                ai: false,
                spawn_cell: 3,
                spawn_tile: 2,
            },
            over: false,
            at: 3,
            answer: "answer".to_owned(),
        };
        let played = tokio::time::timeout(Duration::from_secs(5), db.play("g1", 0, &update));
        assert!(played.await.unwrap().unwrap());
        assert_eq!(db.game("g1").await.unwrap().unwrap().turn, 1);
        drop(held);
        assert!(db.leaderboard(10, 0, None, false).await.unwrap().is_empty());
        db.close().await;
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// A database with a player and the game `g1` of [`NewGame::test_game`].
    async fn db_with_game(tag: &str) -> (Db, std::path::PathBuf) {
        let dir = std::env::temp_dir().join(format!("ai2048-db-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let db = Db::open(&DbLocation::Sqlite(dir.join("scores.db")), false)
            .await
            .unwrap();
        let player = NewPlayer {
            name: "Ann",
            key: "ann",
            token_hash: "hash",
            at: 1,
            idempotency: None,
        };
        assert!(db.create_player(&player).await.unwrap());
        let board: Board = "2 0 0 0/0 0 0 0/0 0 0 0/0 0 0 2".parse().unwrap();
        db.create_game(&NewGame::test_game(board), None)
            .await
            .unwrap()
            .unwrap();
        (db, dir)
    }

    /// A stored value that its column cannot hold (a negative score, a boolean of 7, a
    /// spawn of 8) is an error naming the column, not a value made up for it.
    #[tokio::test]
    async fn bad_stored_values_fail_naming_their_column() {
        let (db, dir) = db_with_game("bad-values").await;
        for (set, column) in [
            ("score = -5", "score"),
            ("over = 7", "over"),
            ("board = 'not a board'", "board"),
            ("spawn_key = 'xyz'", "spawn_key"),
        ] {
            sqlx::query(&format!("UPDATE games SET {set} WHERE id = 'g1'"))
                .execute(&db.pool)
                .await
                .unwrap();
            let e = db.game("g1").await.unwrap_err();
            assert!(!e.transient, "{set}");
            assert!(
                e.message.contains(&format!("column {column}")),
                "{set}: {}",
                e.message
            );
            sqlx::query(
                "UPDATE games SET score = 0, over = 0, spawn_key = NULL, \
                 board = '2 0 0 0/0 0 0 0/0 0 0 0/0 0 0 2' WHERE id = 'g1'",
            )
            .execute(&db.pool)
            .await
            .unwrap();
        }
        db.game("g1").await.unwrap().unwrap();
        sqlx::query(
            "INSERT INTO moves (game, turn, dir, ai, spawn_cell, spawn_tile, played_at) \
             VALUES ('g1', 0, 'L', 0, 3, 8, 5)",
        )
        .execute(&db.pool)
        .await
        .unwrap();
        let e = db.moves("g1").await.unwrap_err();
        assert!(e.message.contains("column spawn_tile"), "{}", e.message);
        assert!(
            e.message.contains("8 is not a tile, 2 or 4"),
            "{}",
            e.message
        );
        db.close().await;
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// SQLite's "database is locked" (SQLITE_BUSY, known by its code) is transient, a
    /// 503 to try again; a unique violation is not.
    #[tokio::test]
    async fn busy_is_transient_by_its_code() {
        let (db, dir) = db_with_game("busy").await;
        let url = format!("sqlite://{}", dir.join("scores.db").display());
        let mut holder = sqlx::AnyConnection::connect(&url).await.unwrap();
        holder.execute("BEGIN IMMEDIATE").await.unwrap();
        let mut other = sqlx::AnyConnection::connect(&url).await.unwrap();
        other.execute("PRAGMA busy_timeout = 0").await.unwrap();
        let busy = other
            .execute("UPDATE games SET score = 1")
            .await
            .unwrap_err();
        let code = match &busy {
            sqlx::Error::Database(d) => d.code().unwrap().into_owned(),
            e => panic!("not a database error: {e}"),
        };
        assert_eq!(code.parse::<u32>().unwrap() & 0xff, 5, "{busy}");
        assert!(DbError::from(busy).transient);
        holder.execute("ROLLBACK").await.unwrap();
        let duplicate = other
            .execute(
                "INSERT INTO players (name_key, name, token_hash, created_at) \
                      VALUES ('ann', 'Ann', 'x', 1)",
            )
            .await
            .unwrap_err();
        assert!(!DbError::from(duplicate).transient);
        db.close().await;
        let _ = std::fs::remove_dir_all(&dir);
    }
}
