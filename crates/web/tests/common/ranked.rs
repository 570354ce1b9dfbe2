//! Servers with saved scores, on SQLite files of their own or on the PostgreSQL
//! server named by `AI2048_TEST_POSTGRES`, and a client of the score API.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use ai2048_engine::{Board, Dir, PlayableBoard};
use ai2048_web::scores::{DbLocation, Rate, RateLimits, Scores, ScoresConfig};
use ai2048_web::{Server, ServerConfig};
use serde_json::{json, Value};

use super::{test_config, Client, Reply};

/// Allowances no test reaches, but for those about the limits.
pub fn open_limits() -> RateLimits {
    RateLimits {
        players: Rate::per_second(100_000),
        games: Rate::per_second(100_000),
        moves: Rate::per_second(1_000_000),
        reads: Rate::per_second(1_000_000),
        requests: Rate::per_second(1_000_000),
    }
}

/// A fresh SQLite file of one test, in the target directory's temporary space
/// (`target/tmp`), removed with its directory when the test ends, unless the test
/// failed: then it stays for a look, and the test says where.
pub struct TempSqlite {
    dir: PathBuf,
}

impl TempSqlite {
    /// A new, empty place for a database; `tag` names it.
    pub fn new(tag: &str) -> TempSqlite {
        static N: AtomicU64 = AtomicU64::new(0);
        // Cargo names `target/tmp` to integration tests; the example that shares this
        // module has the system's temporary directory.
        let base =
            option_env!("CARGO_TARGET_TMPDIR").map_or_else(std::env::temp_dir, PathBuf::from);
        let dir = base.join(format!(
            "ai2048-scores-test-{}-{}-{tag}",
            std::process::id(),
            N.fetch_add(1, Ordering::Relaxed)
        ));
        let _ = std::fs::remove_dir_all(&dir);
        TempSqlite { dir }
    }

    /// The database's location.
    pub fn location(&self) -> DbLocation {
        DbLocation::Sqlite(self.dir.join("scores.db"))
    }
}

impl Drop for TempSqlite {
    fn drop(&mut self) {
        if std::thread::panicking() {
            eprintln!("the failed test's database stays in {}", self.dir.display());
        } else {
            let _ = std::fs::remove_dir_all(&self.dir);
        }
    }
}

/// The PostgreSQL server of `AI2048_TEST_POSTGRES`, or `None` (saying so) when the
/// variable is not set, for a developer's `cargo test`. Where a server should have
/// been started (`scripts/test` sets `AI2048_REQUIRE_POSTGRES=1`), no URL fails the
/// test instead of skipping it, and so does a server out of reach (when the test
/// opens it).
pub fn postgres(test: &str) -> Option<DbLocation> {
    let url = std::env::var("AI2048_TEST_POSTGRES").ok();
    let required = std::env::var("AI2048_REQUIRE_POSTGRES").ok();
    match postgres_from(url.as_deref(), required.as_deref()) {
        Ok(Some(location)) => Some(location),
        Ok(None) => {
            eprintln!(
                "note: {test} skipped on PostgreSQL: set AI2048_TEST_POSTGRES=postgres://... \
                 (scripts/postgres-test-server starts one)"
            );
            None
        }
        Err(why) => panic!("{test}: {why}"),
    }
}

/// [`postgres`]'s decision, from the variables' values: the server, none (skip), or
/// why the test fails.
pub fn postgres_from(
    url: Option<&str>,
    required: Option<&str>,
) -> Result<Option<DbLocation>, String> {
    let required = match required.unwrap_or("") {
        "" | "0" => false,
        "1" => true,
        other => {
            return Err(format!(
                "AI2048_REQUIRE_POSTGRES={other:?}: expected 1 (the PostgreSQL tests must \
                 run) or 0"
            ))
        }
    };
    match url.filter(|u| !u.is_empty()) {
        Some(url) => match url.parse() {
            Ok(location @ DbLocation::Postgres(_)) => Ok(Some(location)),
            _ => Err(format!(
                "AI2048_TEST_POSTGRES={:?} is not a postgres:// URL",
                ai2048_web::scores::mask_postgres_url(url)
            )),
        },
        None if required => Err("AI2048_REQUIRE_POSTGRES=1 but AI2048_TEST_POSTGRES is not \
             set: the PostgreSQL tests must run here, and no server was named (scripts/test \
             starts one with scripts/postgres-test-server; did it fail?)"
            .to_owned()),
        None => Ok(None),
    }
}

/// The settings of a test server on `db`.
pub fn scores_config(db: DbLocation) -> ScoresConfig {
    ScoresConfig {
        limits: open_limits(),
        ..ScoresConfig::new(db)
    }
}

/// Starts a server keeping its scores as `scores` says.
pub async fn start_scores(scores: ScoresConfig) -> SocketAddr {
    start_scores_with(scores, test_config()).await
}

/// [`start_scores`] with the settings of `config` (but its connections).
pub async fn start_scores_with(scores: ScoresConfig, config: ServerConfig) -> SocketAddr {
    let shown = scores.db.display();
    let scores = Scores::open(scores).await.unwrap_or_else(|e| {
        panic!(
            "cannot open the test's database {shown}: {e} (a PostgreSQL server named by \
             AI2048_TEST_POSTGRES must be running: scripts/test starts one)"
        )
    });
    serve_scores(scores, config).await
}

/// Starts a server on the open `scores` (which the test may look into), with the
/// settings of `config` (but its connections).
pub async fn serve_scores(scores: Arc<Scores>, config: ServerConfig) -> SocketAddr {
    let server = Server::bind_with_scores(
        "127.0.0.1:0".parse().expect("an address"),
        ServerConfig {
            max_connections: 1024,
            ..config
        },
        Some(scores),
    )
    .await
    .expect("bind 127.0.0.1:0");
    let addr = server.local_addr().expect("a local address");
    tokio::spawn(server.run());
    addr
}

/// A name no other test of this run has: `prefix` and a counter (at most 20
/// characters), with the process id so that runs on one database differ.
pub fn unique(prefix: &str) -> String {
    static N: AtomicU64 = AtomicU64::new(0);
    let n = N.fetch_add(1, Ordering::Relaxed);
    let name = format!("{prefix}{}x{n}", std::process::id() % 100_000);
    name.chars().take(20).collect()
}

/// A client of the score API on one keep-alive connection.
pub struct Api {
    pub addr: SocketAddr,
    client: Client,
}

impl Api {
    pub async fn connect(addr: SocketAddr) -> Api {
        Api {
            addr,
            client: Client::connect(addr).await.expect("connect"),
        }
    }

    /// Sends a request (again on a new connection if the server closed this one).
    pub async fn send(
        &mut self,
        method: &str,
        path: &str,
        token: Option<&str>,
        body: &str,
    ) -> Reply {
        self.send_with(method, path, token, &[], body).await
    }

    /// [`Api::send`] with these extra headers.
    pub async fn send_with(
        &mut self,
        method: &str,
        path: &str,
        token: Option<&str>,
        extra: &[(&str, &str)],
        body: &str,
    ) -> Reply {
        let auth = token.map(|t| format!("Bearer {t}"));
        let mut headers: Vec<(&str, &str)> = auth
            .as_deref()
            .map(|a| vec![("Authorization", a)])
            .unwrap_or_default();
        headers.extend_from_slice(extra);
        for _ in 0..3 {
            match self
                .client
                .request_with(method, path, &headers, body.as_bytes())
                .await
            {
                Ok(reply) => return reply,
                Err(_) => {
                    tokio::time::sleep(Duration::from_millis(10)).await;
                    self.client = Client::connect(self.addr).await.expect("reconnect");
                }
            }
        }
        panic!("{method} {path}: no answer in 3 tries");
    }

    /// Sends a request once; `None` when no answer came (reconnecting for the next).
    pub async fn try_send(
        &mut self,
        method: &str,
        path: &str,
        token: Option<&str>,
        body: &str,
    ) -> Option<Reply> {
        let auth = token.map(|t| format!("Bearer {t}"));
        let headers: Vec<(&str, &str)> = auth
            .as_deref()
            .map(|a| vec![("Authorization", a)])
            .unwrap_or_default();
        match self
            .client
            .request_with(method, path, &headers, body.as_bytes())
            .await
        {
            Ok(reply) => Some(reply),
            Err(_) => {
                if let Ok(client) = Client::connect(self.addr).await {
                    self.client = client;
                }
                None
            }
        }
    }

    /// A move sent once: `None` when no answer came.
    pub async fn try_play(&mut self, token: &str, id: &str, dir: Dir, turn: u64) -> Option<Reply> {
        let body = json!({"dir": dir.name(), "turn": turn, "ai": true}).to_string();
        self.try_send(
            "POST",
            &format!("/api/ranked/{id}/move"),
            Some(token),
            &body,
        )
        .await
    }

    /// A new game sent once: `None` when no answer came or it was not 201.
    pub async fn try_new_game(&mut self, token: &str) -> Option<Value> {
        let reply = self
            .try_send("POST", "/api/ranked", Some(token), "")
            .await?;
        (reply.status == 201).then(|| reply.json())
    }

    pub async fn get(&mut self, path: &str) -> Reply {
        self.send("GET", path, None, "").await
    }

    /// Registers `name`; returns its token.
    pub async fn register(&mut self, name: &str) -> String {
        let reply = self
            .send(
                "POST",
                "/api/players",
                None,
                &json!({ "name": name }).to_string(),
            )
            .await;
        assert_eq!(reply.status, 201, "{}", reply.body);
        reply.json()["token"].as_str().expect("a token").to_owned()
    }

    /// Starts a game; returns its answer.
    pub async fn new_game(&mut self, token: &str) -> Value {
        let reply = self.send("POST", "/api/ranked", Some(token), "").await;
        assert_eq!(reply.status, 201, "{}", reply.body);
        reply.json()
    }

    pub async fn play(&mut self, token: &str, id: &str, dir: Dir, turn: u64, ai: bool) -> Reply {
        let body = json!({"dir": dir.name(), "turn": turn, "ai": ai}).to_string();
        self.send(
            "POST",
            &format!("/api/ranked/{id}/move"),
            Some(token),
            &body,
        )
        .await
    }
}

/// The board of an answer.
pub fn board_of(answer: &Value) -> Board {
    ai2048_protocol::board_from_json(&answer["board"]).expect("a board")
}

/// The greedy player's move: the legal move that scores most now (the first of
/// up, down, left, right on ties).
pub fn greedy(board: Board) -> Option<Dir> {
    let mut best: Option<(u32, Dir)> = None;
    for dir in Dir::ALL {
        if let Some((_, points)) = PlayableBoard::new(board).apply_scored(dir) {
            if best.is_none_or(|(p, _)| points > p) {
                best = Some((points, dir));
            }
        }
    }
    best.map(|(_, d)| d)
}
