//! The schema's versions: the migrations, in order, and how opening a database applies
//! those it lacks.

use sqlx::{Connection, Executor, Row};

use super::Db;

/// A change of the schema.
struct Migration {
    /// Its version: one more than the last migration's.
    version: i64,
    /// What it does.
    name: &'static str,
    /// Its statements on either database, run first.
    statements: &'static [&'static str],
    /// Its statements in SQLite's dialect, on SQLite.
    sqlite: &'static [&'static str],
    /// Its statements in PostgreSQL's dialect, on PostgreSQL.
    postgres: &'static [&'static str],
}

/// The migrations, in order. A database records in `schema_migrations` those it has;
/// opening it applies the others, each in a transaction of its own.
const MIGRATIONS: &[Migration] = &[
    Migration {
        version: 1,
        name: "players, games and moves",
        statements: &[
            "CREATE TABLE players (
            name_key TEXT PRIMARY KEY,
            name TEXT NOT NULL,
            token_hash TEXT NOT NULL UNIQUE,
            created_at BIGINT NOT NULL
        )",
            "CREATE TABLE games (
            id TEXT PRIMARY KEY,
            player TEXT NOT NULL REFERENCES players (name_key),
            seed BIGINT NOT NULL,
            board TEXT NOT NULL,
            score BIGINT NOT NULL,
            turn BIGINT NOT NULL,
            max_tile BIGINT NOT NULL,
            ai_moves BIGINT NOT NULL,
            over BIGINT NOT NULL,
            end_reason TEXT,
            started_at BIGINT NOT NULL,
            last_move_at BIGINT NOT NULL,
            ended_at BIGINT,
            last_answer TEXT
        )",
            "CREATE INDEX games_by_score ON games (over, score DESC, ended_at, id)",
            "CREATE INDEX games_by_player ON games (player, started_at)",
            "CREATE INDEX games_by_idleness ON games (over, last_move_at)",
            "CREATE TABLE moves (
            game TEXT NOT NULL REFERENCES games (id),
            turn BIGINT NOT NULL,
            dir TEXT NOT NULL,
            ai BIGINT NOT NULL,
            spawn_cell BIGINT NOT NULL,
            spawn_tile BIGINT NOT NULL,
            played_at BIGINT NOT NULL,
            PRIMARY KEY (game, turn)
        )",
        ],
        sqlite: &[],
        postgres: &[],
    },
    // A move is one statement, so one round trip to the database: the game's row
    // keeps its last move, and a trigger records it among the moves as the turn
    // goes up by one, in the statement's own transaction.
    Migration {
        version: 2,
        name: "a move is one update of its game",
        statements: &[
            "ALTER TABLE games ADD COLUMN last_dir TEXT",
            "ALTER TABLE games ADD COLUMN last_ai BIGINT",
            "ALTER TABLE games ADD COLUMN last_spawn_cell BIGINT",
            "ALTER TABLE games ADD COLUMN last_spawn_tile BIGINT",
        ],
        sqlite: &[
            "CREATE TRIGGER games_record_move AFTER UPDATE OF turn ON games
            WHEN NEW.turn = OLD.turn + 1
            BEGIN
                INSERT INTO moves (game, turn, dir, ai, spawn_cell, spawn_tile, played_at)
                VALUES (NEW.id, OLD.turn, NEW.last_dir, NEW.last_ai, NEW.last_spawn_cell,
                    NEW.last_spawn_tile, NEW.last_move_at);
            END",
        ],
        postgres: &[
            "CREATE FUNCTION games_record_move() RETURNS trigger LANGUAGE plpgsql AS $body$
            BEGIN
                INSERT INTO moves (game, turn, dir, ai, spawn_cell, spawn_tile, played_at)
                VALUES (NEW.id, OLD.turn, NEW.last_dir, NEW.last_ai, NEW.last_spawn_cell,
                    NEW.last_spawn_tile, NEW.last_move_at);
                RETURN NULL;
            END
            $body$",
            "CREATE TRIGGER games_record_move AFTER UPDATE OF turn ON games FOR EACH ROW
            WHEN (NEW.turn = OLD.turn + 1) EXECUTE FUNCTION games_record_move()",
        ],
    },
    // A new game's spawns come from a secret key of 256 bits (HMAC-SHA-256 over the
    // key and the turn); the games before it keep their seed's, and a NULL key.
    Migration {
        version: 3,
        name: "keyed spawns",
        statements: &["ALTER TABLE games ADD COLUMN spawn_key TEXT"],
        sqlite: &[],
        postgres: &[],
    },
    // A registration sent again with its Idempotency-Key gets the same token: the key
    // is kept as its hash, and the token sealed by the key (so the database alone
    // does not give it), for a day.
    Migration {
        version: 4,
        name: "idempotent registration",
        statements: &[
            "ALTER TABLE players ADD COLUMN idempotency_key TEXT",
            "ALTER TABLE players ADD COLUMN sealed_token TEXT",
            "CREATE UNIQUE INDEX players_by_idempotency_key ON players (idempotency_key)",
        ],
        sqlite: &[],
        postgres: &[],
    },
];

/// The schema version this build knows.
pub const SCHEMA_VERSION: i64 = MIGRATIONS[MIGRATIONS.len() - 1].version;

impl Db {
    pub(super) async fn migrate(&self, up_to: i64) -> Result<(), String> {
        let fail = |e: sqlx::Error| e.to_string();
        let _writing = self.writer.lock().await;
        let mut conn = self.pool.acquire().await.map_err(fail)?;
        // A migration writes: on SQLite its transaction takes the write lock as it
        // begins (BEGIN IMMEDIATE), waiting its turn behind another server's (the busy
        // timeout), where a deferred BEGIN would read first and then fail at its first
        // write if another server had written meanwhile (SQLITE_BUSY, at once).
        let begin = if self.sqlite {
            "BEGIN IMMEDIATE"
        } else {
            "BEGIN"
        };
        // Under the lock on PostgreSQL too: two servers creating the table at once
        // would both try to add its type, and one would fail.
        let mut tx = conn.begin_with(begin).await.map_err(fail)?;
        if !self.sqlite {
            tx.execute("SELECT pg_advisory_xact_lock(2048021)")
                .await
                .map_err(fail)?;
        }
        tx.execute(
            "CREATE TABLE IF NOT EXISTS schema_migrations (
                version BIGINT PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)",
        )
        .await
        .map_err(fail)?;
        tx.commit().await.map_err(fail)?;
        for migration in MIGRATIONS.iter().filter(|m| m.version <= up_to) {
            let (version, name) = (migration.version, migration.name);
            let dialect = if self.sqlite {
                migration.sqlite
            } else {
                migration.postgres
            };
            let mut tx = conn.begin_with(begin).await.map_err(fail)?;
            if !self.sqlite {
                // Servers started together migrate one after the other.
                tx.execute("SELECT pg_advisory_xact_lock(2048021)")
                    .await
                    .map_err(fail)?;
            }
            let newest: Option<i64> =
                sqlx::query("SELECT MAX(version) AS newest FROM schema_migrations")
                    .fetch_one(&mut *tx)
                    .await
                    .and_then(|row| row.try_get("newest"))
                    .map_err(fail)?;
            if newest.unwrap_or(0) > SCHEMA_VERSION {
                return Err(format!(
                    "its schema is at version {}, newer than this build knows ({SCHEMA_VERSION}): \
                     run a newer ai2048",
                    newest.unwrap_or(0)
                ));
            }
            if newest.unwrap_or(0) >= version {
                continue;
            }
            for statement in migration.statements.iter().chain(dialect) {
                tx.execute(*statement)
                    .await
                    .map_err(|e| format!("migration {version} ({name}) failed: {e}"))?;
            }
            sqlx::query(
                "INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)",
            )
            .bind(version)
            .bind(name)
            .bind(crate::scores::clock::now_ms())
            .execute(&mut *tx)
            .await
            .map_err(fail)?;
            tx.commit().await.map_err(fail)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::super::{DbLocation, MoveRow, MoveUpdate, NewGame};
    use super::*;
    use ai2048_engine::Board;

    /// A database written by a build of schema 1 (a player and a game at turn 0), then
    /// opened by this one: migrated to the newest version, its game plays on, and each
    /// move is recorded once, by the trigger; a move at a turn gone by writes nothing.
    #[tokio::test]
    async fn a_database_of_schema_1_is_migrated_and_its_games_play_on() {
        let dir = std::env::temp_dir().join(format!("ai2048-db-test-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let location = DbLocation::Sqlite(dir.join("scores.db"));
        let board: Board = "2 0 0 0/0 0 0 0/0 0 0 0/0 0 0 2".parse().unwrap();
        {
            let old = Db::open_at(&location, false, 1).await.unwrap();
            sqlx::query(
                "INSERT INTO players (name_key, name, token_hash, created_at) \
                 VALUES ('ann', 'Ann', 'hash', 1)",
            )
            .execute(&old.pool)
            .await
            .unwrap();
            let game = NewGame::test_game(board);
            old.create_game(&game, None).await.unwrap().unwrap();
            old.pool.close().await;
        }
        let db = Db::open(&location, false).await.unwrap();
        let versions: Vec<i64> =
            sqlx::query("SELECT version FROM schema_migrations ORDER BY version")
                .fetch_all(&db.pool)
                .await
                .unwrap()
                .iter()
                .map(|row| row.try_get("version").unwrap())
                .collect();
        assert_eq!(versions, (1..=SCHEMA_VERSION).collect::<Vec<_>>());
        let rows: Vec<MoveRow> = [('L', false, 3, 2), ('U', true, 12, 4)]
            .iter()
            .enumerate()
            .map(|(turn, &(dir, ai, spawn_cell, spawn_tile))| MoveRow {
                turn: turn as u64,
                dir,
                ai,
                spawn_cell,
                spawn_tile,
            })
            .collect();
        for row in &rows {
            let update = MoveUpdate {
                board,
                points: 4,
                row: *row,
                over: false,
                at: 10 + row.turn as i64,
                answer: format!("answer {}", row.turn),
            };
            assert!(db.play("g1", row.turn, &update).await.unwrap());
            // The same turn again (a second request for it): nothing is written.
            assert!(!db.play("g1", row.turn, &update).await.unwrap());
        }
        let game = db.game("g1").await.unwrap().unwrap();
        assert_eq!((game.turn, game.score, game.ai_moves), (2, 8, 1));
        // It keeps its seed's spawns.
        assert_eq!((game.seed, game.spawn_key), (7, None));
        assert_eq!(game.last_answer.as_deref(), Some("answer 1"));
        assert_eq!(db.moves("g1").await.unwrap(), rows);
        db.pool.close().await;
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// Servers started together on a new SQLite file, 8 at once, all open it: each
    /// migration takes the write lock as it begins, so the first migrates and the
    /// others wait their turn and find it done (with a deferred BEGIN, one that read
    /// the schema before another wrote it failed with SQLITE_BUSY).
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn servers_started_together_all_migrate_a_new_sqlite_file() {
        for round in 0..5 {
            let dir = std::env::temp_dir()
                .join(format!("ai2048-db-together-{}-{round}", std::process::id()));
            let _ = std::fs::remove_dir_all(&dir);
            let location = DbLocation::Sqlite(dir.join("scores.db"));
            let opened = futures_join_all((0..8).map(|_| {
                let location = location.clone();
                async move { Db::open(&location, false).await }
            }))
            .await;
            for db in opened {
                let db = db.unwrap_or_else(|e| panic!("round {round}: {e}"));
                db.close().await;
            }
            let _ = std::fs::remove_dir_all(&dir);
        }
    }

    /// Servers started together on a new PostgreSQL database (that of
    /// `AI2048_TEST_POSTGRES`, in a database of its own made for the test), 32 at once,
    /// all open
    /// it: the first migrates it, the others wait for the lock and find it done.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn servers_started_together_all_migrate_a_new_postgres_database() {
        let Some(url) = std::env::var("AI2048_TEST_POSTGRES")
            .ok()
            .filter(|u| !u.is_empty())
        else {
            // Where scripts/test should have started a server, its absence fails.
            assert!(
                std::env::var("AI2048_REQUIRE_POSTGRES").as_deref() != Ok("1"),
                "AI2048_REQUIRE_POSTGRES=1 but AI2048_TEST_POSTGRES is not set: the \
                 PostgreSQL tests must run here, and no server was named"
            );
            eprintln!("note: skipped: set AI2048_TEST_POSTGRES=postgres://...");
            return;
        };
        let admin = Db::open(&DbLocation::Postgres(url.clone()), false)
            .await
            .unwrap_or_else(|e| panic!("AI2048_TEST_POSTGRES names a server out of reach: {e}"));
        let name = format!(
            "ai2048_migrate_{}_{}",
            std::process::id(),
            crate::scores::clock::now_ms()
        );
        admin
            .pool
            .execute(format!("CREATE DATABASE {name}").as_str())
            .await
            .unwrap();
        let (base, query) = url
            .split_once('?')
            .map_or((url.as_str(), ""), |(b, q)| (b, q));
        let base = &base[..base.rfind('/').unwrap()];
        let query = if query.is_empty() {
            String::new()
        } else {
            format!("?{query}")
        };
        let location = DbLocation::Postgres(format!("{base}/{name}{query}"));
        let opened = futures_join_all((0..32).map(|_| {
            let location = location.clone();
            async move { Db::open(&location, false).await }
        }))
        .await;
        for db in opened {
            db.unwrap().pool.close().await;
        }
        admin
            .pool
            .execute(format!("DROP DATABASE {name}").as_str())
            .await
            .unwrap();
    }

    /// Runs the futures at once, each in a task of its own, and gives their outputs.
    async fn futures_join_all<F>(futures: impl Iterator<Item = F>) -> Vec<F::Output>
    where
        F: std::future::Future + Send + 'static,
        F::Output: Send + 'static,
    {
        let tasks: Vec<_> = futures.map(tokio::spawn).collect();
        let mut outputs = Vec::new();
        for task in tasks {
            outputs.push(task.await.unwrap());
        }
        outputs
    }
}
