//! `ai2048 serve`: the original game's look in the browser, with the AI beside it.
//!
//! The binary serves the page itself (HTML, CSS and JavaScript written by hand and
//! built in with `include_str!`: nothing to install, no CDN) and a JSON API. The page
//! has no game rules of its own: every move, spawn and tile path comes from the
//! server, which keeps no state.
//!
//! # The API
//!
//! Every answer is JSON. Errors are `{"error":"what is wrong, and where"}` (with the
//! request's `id` first when it had one) under a 4xx status, or 503 with
//! `Retry-After` when the server is busy.
//!
//! | route | body | answer |
//! | --- | --- | --- |
//! | `POST /api/apply`, `/api/legal`, `/api/spawns`, `/api/best` | a request of the protocol of `ai2048 engine` ([`ai2048_protocol`]) without its `"op"` | the protocol's answer |
//! | `POST /api` | one protocol request, `"op"` included | the protocol's answer |
//! | `POST /api/new` | `{"seed":S}`, optional | a new game: `seed`, `turn` 0, `board`, `score`, `over`, start `spawns` |
//! | `POST /api/step` | `{"board":B,"dir":D,"seed":S,"turn":T}` | the board after the move and its spawn, `score`, `moved`, `spawn`, `over`, `turn`, and the tiles' `motions` |
//! | `GET /api/players` | | the players and their options, and the time limits |
//! | `GET /healthz` | | 200 `{"status":"ok",...}` when the database (if any) answers, else 503 |
//!
//! With saved scores ([`Server::bind_with_scores`]), the server also serves players,
//! ranked games and a leaderboard: see [`scores`].
//!
//! The protocol's requests are read by [`ai2048_protocol::Request`], so their
//! validation and error messages are the same as on `ai2048 engine`'s stdin; bad ones
//! get 400. Seeds and turns are integers up to 2^53 - 1, which JavaScript holds
//! exactly. A game's spawns come from `Rng::new(derive_seed(seed, turn))`, so a game
//! replays from its seed and moves.
//!
//! # Limits
//!
//! Searches (`best`) run on a fixed pool of threads with a bounded queue; past it the
//! answer is 503 at once. Every search has a time limit: `time_ms` is capped at
//! [`ServerConfig::max_time`] (one second), a request with only a `depth` gets that
//! cap, and one with neither gets [`ServerConfig::default_time`]. Player options that
//! read files (`weights=FILE`), start threads or bank time are refused with 400, and an
//! expectimax table is at most [`ServerConfig::tt_mb`] MiB, so the players take at most
//! [`ServerConfig::worst_case_memory_mb`] (200 MiB with the defaults on two cores, and
//! the built-in network's 128 MiB, which they share, when the build has one).
//! Bodies are at most 16 KiB (413 past it); headers and bodies must arrive within 5 s,
//! and a request takes at most 30 s in all. Unknown routes get 404, wrong methods 405.
//! A client has at most [`ServerConfig::max_requests_per_client`] requests in flight
//! (429 past it) and [`ServerConfig::max_connections_per_client`] connections; every
//! request is logged through `tracing`, one line each (target `ai2048_web::request`).
//!
//! ```
//! use ai2048_web::{router, ServerConfig};
//!
//! // The whole application, for any server: `Server` runs it with the limits above.
//! let app = router(ServerConfig { workers: 1, ..ServerConfig::default() })?;
//! # drop(app);
//! # Ok::<(), std::io::Error>(())
//! ```
#![deny(missing_docs)]

mod api;
mod assets;
mod body;
mod clients;
mod config;
mod cors;
mod error;
mod json;
pub mod policy;
mod pool;
mod proxy;
pub mod scores;
mod server;

use std::io;
use std::sync::Arc;

use axum::body::Body;
use axum::extract::DefaultBodyLimit;
use axum::http::HeaderMap;
use axum::routing::{get, post};
use axum::Router;

pub use ai2048_page as game;
pub use api::{App, AppState};
pub use assets::{Asset, ASSETS};
pub use config::ServerConfig;
pub use error::ApiError;
pub use json::MAX_SAFE_INTEGER;
pub use pool::{Busy, SearchPool};
pub use proxy::{client_addr, rate_key, Cidr};
pub use server::{serve_blocking, serve_blocking_with_scores, shutdown_signal, Server};

/// The protocol operations served at `POST /api/OP`.
const PROTOCOL_OPS: [&str; 4] = ["apply", "legal", "spawns", "best"];

/// The application: the page, the API, and the limits of `config`, with its search
/// pool started. Serve it with [`Server`], which adds the connection limits.
///
/// # Errors
///
/// When a search thread cannot be started.
pub fn router(config: ServerConfig) -> io::Result<Router> {
    router_with_scores(config, None)
}

/// The application with the score API of `scores` (players, ranked games, the
/// leaderboard: see [`scores`]), or without it when `None`.
///
/// # Errors
///
/// When a search thread cannot be started.
pub fn router_with_scores(
    config: ServerConfig,
    scores: Option<Arc<scores::Scores>>,
) -> io::Result<Router> {
    // The built-in network is read now, not by the first search, whose time cap would
    // otherwise include the read.
    let _ = ai2048_ai::ntuple::builtin();
    let pool = SearchPool::new(config.workers, config.queue, config.players_per_worker)?;
    let request_timeout = config.request_timeout;
    let max_in_flight = config.max_requests_per_client;
    let origins = scores
        .as_ref()
        .map(|s| s.config().allow_origins.clone())
        .unwrap_or_default();
    let limited = scores.clone();
    let app: AppState = Arc::new(App {
        config,
        pool,
        scores,
    });
    let mut router = Router::new();
    for asset in ASSETS {
        router = router.route(asset.path, get(move || async move { asset.response() }));
    }
    for op in PROTOCOL_OPS {
        let app = Arc::clone(&app);
        router = router.route(
            &format!("/api/{op}"),
            post(move |headers: HeaderMap, body: Body| {
                api::protocol_op(Arc::clone(&app), op, headers, body)
            }),
        );
    }
    for op in ["new", "step"] {
        let app = Arc::clone(&app);
        router = router.route(
            &format!("/api/{op}"),
            post(move |headers: HeaderMap, body: Body| {
                api::game_op(Arc::clone(&app), op, headers, body)
            }),
        );
    }
    let mut router = router
        .route("/api", post(api::protocol_line))
        .route("/healthz", get(api::healthz));
    if limited.is_some() {
        use scores::api as s;
        router = router
            .route("/api/players", get(api::players).post(s::create_player))
            .route("/api/players/{name}", get(s::show_player))
            .route("/api/ranked", post(s::create_game))
            .route("/api/ranked/{id}", get(s::show_game))
            .route("/api/ranked/{id}/move", post(s::play))
            .route("/api/ranked/{id}/end", post(s::end_game))
            .route("/api/ranked/{id}/replay", get(s::replay))
            .route("/api/leaderboard", get(s::leaderboard));
    } else {
        router = router.route("/api/players", get(api::players));
    }
    let origins = Arc::new(origins);
    let mut router = router
        .fallback(api::not_found)
        .method_not_allowed_fallback(api::method_not_allowed)
        // The handlers read bodies themselves, with their own limit and timeout.
        .layer(DefaultBodyLimit::disable());
    if let Some(scores) = limited {
        // Inside CORS, so that a page of another origin reads the 429.
        router = router.layer(axum::middleware::from_fn(move |request, next| {
            scores::api::limit_requests(Arc::clone(&scores), request, next)
        }));
    }
    let in_flight = Arc::new(clients::PerClient::default());
    let router = router
        .layer(axum::middleware::from_fn(move |request, next| {
            timeout(request_timeout, request, next)
        }))
        .layer(axum::middleware::from_fn(move |request, next| {
            limit_in_flight(Arc::clone(&in_flight), max_in_flight, request, next)
        }))
        .layer(axum::middleware::from_fn(move |request, next| {
            cors::cors(Arc::clone(&origins), request, next)
        }))
        .layer(axum::middleware::from_fn(log_request))
        .with_state(app);
    Ok(router)
}

/// The client of a request, as [`Server`] puts it in its extensions (the unspecified
/// address when the application is served without it).
fn client_of(request: &axum::extract::Request) -> std::net::IpAddr {
    request
        .extensions()
        .get::<scores::api::ClientAddr>()
        .map_or(std::net::IpAddr::V4(std::net::Ipv4Addr::UNSPECIFIED), |c| {
            c.0
        })
}

/// Answers 429 for a request of a client that has `max` in flight already (0: no
/// cap).
async fn limit_in_flight(
    counts: Arc<clients::PerClient>,
    max: usize,
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> axum::response::Response {
    use axum::response::IntoResponse;
    let client = client_of(&request);
    let Some(_place) = clients::PerClient::try_take(&counts, client, max) else {
        return ApiError::new(
            axum::http::StatusCode::TOO_MANY_REQUESTS,
            format!(
                "too many requests at once from {}: at most {max} at a time; wait for \
                 their answers before sending more",
                proxy::rate_key_label(client)
            ),
        )
        .retry_after(1)
        .into_response();
    };
    next.run(request).await
}

/// Logs one line per request (target `ai2048_web::request`, level info): its method,
/// the route it matched (its pattern, such as `/api/ranked/{id}/move`, so that no id
/// or name is logged; `-` for none), the answer's status, the time to the answer's
/// headers in milliseconds, and the client (behind a trusted proxy, the one its
/// headers name).
async fn log_request(
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> axum::response::Response {
    let start = std::time::Instant::now();
    let method = request.method().clone();
    let route = request
        .extensions()
        .get::<axum::extract::MatchedPath>()
        .map_or_else(|| "-".to_owned(), |p| p.as_str().to_owned());
    let client = client_of(&request);
    let response = next.run(request).await;
    tracing::info!(
        target: "ai2048_web::request",
        method = %method,
        route = %route,
        status = response.status().as_u16(),
        latency_ms = format_args!("{:.1}", start.elapsed().as_secs_f64() * 1000.0),
        client = %client,
        "request"
    );
    response
}

/// Answers 503 for a request that takes longer than `limit` in all.
async fn timeout(
    limit: std::time::Duration,
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> axum::response::Response {
    use axum::response::IntoResponse;
    match tokio::time::timeout(limit, next.run(request)).await {
        Ok(response) => response,
        Err(_) => ApiError::busy(format!(
            "the request took longer than {} ms, the most this server gives one",
            limit.as_millis()
        ))
        .into_response(),
    }
}
