//! Saved scores: players, ranked games that the server referees move by move, and a
//! leaderboard, kept in SQLite or PostgreSQL.
//!
//! A ranked game is its spawn key and its moves. The server draws the key, 256 bits,
//! from the operating system's generator and keeps it secret while the game runs;
//! every move is played by the engine under the original rules, its spawn drawn from
//! HMAC-SHA-256 over the key and the turn
//! ([`SpawnStream::Keyed`](ai2048_engine::SpawnStream::Keyed)), and committed to the
//! database before it is answered. Once the game is over, its key and moves are
//! public, and its replay checks with `ai2048 replay`. The games begun before keyed
//! spawns (schema 2) play on with their seed's spawns, as `/api/step` draws them
//! ([`SpawnStream::PerTurn`](ai2048_engine::SpawnStream::PerTurn)).
//!
//! ```no_run
//! use ai2048_web::scores::{DbLocation, Scores, ScoresConfig};
//! use ai2048_web::{Server, ServerConfig};
//!
//! # async fn demo() -> Result<(), Box<dyn std::error::Error>> {
//! let scores = Scores::open(ScoresConfig::new(DbLocation::Sqlite("scores.db".into()))).await?;
//! let server = Server::bind_with_scores(
//!     "127.0.0.1:8048".parse()?,
//!     ServerConfig::default(),
//!     Some(scores),
//! )
//! .await?;
//! server.run().await?;
//! # Ok(())
//! # }
//! ```

pub mod api;
mod cache;
mod clock;
mod db;
mod limits;
mod names;
pub mod request;
mod tokens;

use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::Arc;
use std::time::Duration;

pub use cache::{FinishedCache, Kept};
pub use clock::{now_ms, rfc3339};
pub use db::{
    mask_postgres_url, postgres_retryable, sqlite_retryable, After, Db, DbError, DbLocation,
    KeptKey, NewGame, NewPlayer, OpenLimit, SCHEMA_VERSION,
};
pub use limits::{Action, Limiters, Rate, RateLimits};
pub use names::{check_name, name_key, MAX_NAME_CHARS};
pub use tokens::{idempotency_key_hash, seal_token, token_hash, IDEMPOTENCY_WINDOW};

/// How the scores are kept: where, the rate limits, when an idle game ends, and
/// which other sites' pages may use the API.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScoresConfig {
    /// The database.
    pub db: DbLocation,
    /// The allowances of each client address.
    pub limits: RateLimits,
    /// A game with no move for this long ends as it stands, and counts.
    pub abandon_after: Duration,
    /// The games a player may have open at once (at least 1): past it, a new game is
    /// refused with 409 until one ends (its last move, `POST /api/ranked/G/end`, or
    /// [`abandon_after`](Self::abandon_after) without a move).
    pub max_open_games: u32,
    /// The bytes of finished games' answers (replays, games with their moves) kept in
    /// memory to answer again without the database: see [`FinishedCache`].
    pub cache_bytes: usize,
    /// The origins (`https://example.org`) whose pages may call the score API from a
    /// browser (CORS); `*` allows any.
    pub allow_origins: Vec<String>,
    /// SQLite only: flush the log to the disk at every commit (`synchronous=FULL`),
    /// so that an answered move survives a power cut, not only a crash of the
    /// server; it costs a disk flush per move. Off by default (`synchronous=NORMAL`
    /// in WAL mode: every move is committed before it is answered and survives the
    /// server being killed).
    pub sqlite_full_sync: bool,
}

impl ScoresConfig {
    /// The defaults with the database at `db`: [`RateLimits::default`], games
    /// abandoned after 24 hours, 5 open games a player, 32 MiB of finished games'
    /// answers kept, no other origin.
    ///
    /// ```
    /// use ai2048_web::scores::{DbLocation, ScoresConfig};
    /// let config = ScoresConfig::new(DbLocation::Sqlite("scores.db".into()));
    /// assert_eq!(config.abandon_after.as_secs(), 24 * 3600);
    /// assert_eq!(config.max_open_games, 5);
    /// ```
    #[must_use]
    pub fn new(db: DbLocation) -> ScoresConfig {
        ScoresConfig {
            db,
            limits: RateLimits::default(),
            abandon_after: Duration::from_secs(24 * 3600),
            max_open_games: 5,
            cache_bytes: 32 << 20,
            allow_origins: Vec::new(),
            sqlite_full_sync: false,
        }
    }
}

/// The open scores: the database, the limiters and the configuration.
pub struct Scores {
    db: Db,
    config: ScoresConfig,
    limiters: Limiters,
    finished: FinishedCache,
    last_sweep: AtomicI64,
}

impl Scores {
    /// Opens the database of `config` (applying its migrations).
    ///
    /// # Errors
    ///
    /// When the database cannot be opened, reached or migrated, saying which.
    pub async fn open(config: ScoresConfig) -> Result<Arc<Scores>, String> {
        let db = Db::open(&config.db, config.sqlite_full_sync).await?;
        Ok(Arc::new(Scores {
            db,
            limiters: Limiters::new(config.limits),
            finished: FinishedCache::new(config.cache_bytes),
            config,
            last_sweep: AtomicI64::new(i64::MIN),
        }))
    }

    /// The configuration.
    #[must_use]
    pub fn config(&self) -> &ScoresConfig {
        &self.config
    }

    /// The database.
    #[must_use]
    pub fn db(&self) -> &Db {
        &self.db
    }

    /// The finished games' answers kept in memory.
    #[must_use]
    pub fn finished(&self) -> &FinishedCache {
        &self.finished
    }

    fn idle_ms(&self) -> i64 {
        i64::try_from(self.config.abandon_after.as_millis())
            .unwrap_or(i64::MAX)
            .max(1)
    }

    /// Ends the abandoned games, at most once a second (the leaderboard and the
    /// players' pages call it before they read).
    ///
    /// # Errors
    ///
    /// When the database fails.
    pub async fn sweep(&self) -> Result<u64, DbError> {
        let now = now_ms();
        let last = self.last_sweep.load(Ordering::Relaxed);
        if now.saturating_sub(last) < 1000
            || self
                .last_sweep
                .compare_exchange(last, now, Ordering::Relaxed, Ordering::Relaxed)
                .is_err()
        {
            return Ok(0);
        }
        let window = i64::try_from(IDEMPOTENCY_WINDOW.as_millis()).unwrap_or(i64::MAX);
        self.db.forget_idempotency_keys(now - window).await?;
        let idle = self.idle_ms();
        self.db.end_abandoned(now - idle + 1, idle, None).await
    }
}
