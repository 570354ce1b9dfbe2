//! The server's limits: how much work, memory and time it gives to clients.

use std::time::Duration;

/// The memory a player may take at most, in MiB, for [`ServerConfig::worst_case_memory_mb`]:
/// an expectimax player's transposition table is capped at [`ServerConfig::tt_mb`],
/// and an MCTS player's tree holds at most 2^18 nodes of at most 48 bytes, in vectors
/// that may have twice the room they use.
const MCTS_TREE_MB: usize = 24;

/// The evaluation tables of a player (a few tables of 65536 entries), rounded up, in MiB.
const EVAL_TABLES_MB: usize = 1;

/// The limits of a server. [`ServerConfig::default`] suits a desktop; tests shrink the
/// timeouts.
///
/// Searches (`best`) run on a fixed pool of [`workers`](Self::workers) threads, with
/// at most [`queue`](Self::queue) more waiting; past that the server answers 503 at
/// once. Every other request is answered on the spot.
///
/// ```
/// use ai2048_web::ServerConfig;
/// use std::time::Duration;
///
/// let config = ServerConfig { workers: 2, queue: 4, ..ServerConfig::default() };
/// assert_eq!(config.max_time, Duration::from_millis(1000));
/// // 2 workers, each keeping at most 4 players of at most 24 + 1 MiB, and the
/// // network built in, if any.
/// let network = ai2048_ai::ntuple::builtin().map_or(0, |n| (2 * n.weight_count()).div_ceil(1 << 20));
/// assert_eq!(config.worst_case_memory_mb(), 2 * 4 * 25 + network);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ServerConfig {
    /// Threads that run searches, each one search at a time.
    pub workers: usize,
    /// Searches that may wait for a worker; more are answered 503.
    pub queue: usize,
    /// The longest a search may take: `time_ms` is capped to it, and a request with
    /// only a `depth` gets it as its time limit.
    pub max_time: Duration,
    /// The time a search gets when the request gives neither `time_ms` nor `depth`.
    pub default_time: Duration,
    /// Players each worker keeps between requests (so that repeated requests reuse
    /// them); when a request needs one more, the worker drops those it has.
    pub players_per_worker: usize,
    /// The transposition table of an expectimax player, in MiB: its size when the
    /// request names none, and the most a request may ask for with `tt-mb`.
    pub tt_mb: usize,
    /// The largest request body, in bytes; larger ones get 413.
    pub body_limit: usize,
    /// The time a client has to send a request's headers.
    pub header_timeout: Duration,
    /// The time a client has to send a request's body.
    pub body_timeout: Duration,
    /// The longest a request may take in all, waiting for a worker included.
    pub request_timeout: Duration,
    /// Connections served at once; further ones wait to be accepted.
    pub max_connections: usize,
    /// Connections one peer (an IPv4 address, an IPv6 /64) may have open at once,
    /// unless it is a trusted proxy; further ones are closed as they come. 0: no cap.
    pub max_connections_per_client: usize,
    /// Requests one client (behind a trusted proxy, the one its headers name) may
    /// have in flight at once; further ones get 429. 0: no cap.
    pub max_requests_per_client: usize,
    /// On shutdown, how long the requests in flight have to finish before the
    /// server stops anyway.
    pub shutdown_grace: Duration,
    /// The reverse proxies whose `Forwarded` and `X-Forwarded-For` headers name the
    /// client (see [`client_addr`](crate::client_addr)); a request from any other peer
    /// is that peer's.
    pub trusted_proxies: Vec<crate::Cidr>,
}

impl Default for ServerConfig {
    /// One worker per core (at most 8), a queue of four searches per worker, searches
    /// of at most one second (100 ms by default), 4 players per worker with 16 MiB
    /// tables, 16 KiB bodies, 5 s to send headers or a body, 30 s per request, 512
    /// connections, 32 of them and 16 requests in flight per client, 30 s for the
    /// requests in flight at shutdown, no trusted proxy.
    fn default() -> ServerConfig {
        let workers = std::thread::available_parallelism()
            .map_or(2, usize::from)
            .clamp(1, 8);
        ServerConfig {
            workers,
            queue: 4 * workers,
            max_time: Duration::from_millis(1000),
            default_time: Duration::from_millis(100),
            players_per_worker: 4,
            tt_mb: 16,
            body_limit: 16 * 1024,
            header_timeout: Duration::from_secs(5),
            body_timeout: Duration::from_secs(5),
            request_timeout: Duration::from_secs(30),
            max_connections: 512,
            max_connections_per_client: 32,
            max_requests_per_client: 16,
            shutdown_grace: Duration::from_secs(30),
            trusted_proxies: Vec::new(),
        }
    }
}

impl ServerConfig {
    /// The most memory the players may take at once, in MiB: every worker keeping its
    /// [`players_per_worker`](Self::players_per_worker) players, each as large as a
    /// player can be (an expectimax table of [`tt_mb`](Self::tt_mb), or an MCTS tree
    /// of 24 MiB at most), with its evaluation tables (1 MiB), plus the built-in
    /// network when the build has one, which every player shares (one copy, of its
    /// weights as `i16`). The rest of the server (connections, bodies of at most
    /// [`body_limit`](Self::body_limit)) is small beside it.
    #[must_use]
    pub fn worst_case_memory_mb(&self) -> usize {
        let network =
            ai2048_ai::ntuple::builtin().map_or(0, |n| (2 * n.weight_count()).div_ceil(1 << 20));
        self.workers
            .max(1)
            .saturating_mul(self.players_per_worker.max(1))
            .saturating_mul(self.tt_mb.max(MCTS_TREE_MB) + EVAL_TABLES_MB)
            .saturating_add(network)
    }
}
