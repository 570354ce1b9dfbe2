//! The score API's handlers: players, ranked games the server referees, the
//! leaderboard.

use std::net::{IpAddr, Ipv4Addr};
use std::sync::Arc;

use ai2048_engine::keyed::KeyedRng;
use ai2048_engine::{Board, Dir, Game, PlayableBoard, Replay, Rules, Spawn, SpawnStream};
use ai2048_protocol::board_to_json;
use axum::body::{Body, Bytes};
use axum::extract::{FromRequestParts, Path, State};
use axum::http::request::Parts;
use axum::http::{header, HeaderMap, HeaderValue, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use axum::Extension;
use serde_json::{json, Map, Value};

use super::cache::Kept;
use super::clock::{now_ms, rfc3339};
use super::db::{
    After, DbError, Finished, GameRow, KeptKey, MoveRow, MoveUpdate, NewGame, NewPlayer, OpenLimit,
};
use super::limits::Action;
use super::names::{check_name, name_key};
use super::request::{
    json_body, leaderboard_params, Direction, EndRequest, MoveRequest, NewGameRequest,
    Registration, SafeInteger,
};
use super::tokens::{
    idempotency_key_hash, new_game_id, new_spawn_key, new_token, seal_token, token_hash,
    IDEMPOTENCY_WINDOW,
};
use super::Scores;
use crate::error::json_response;
use crate::{ApiError, AppState};
use ai2048_page::{motions_json, play_turn, spawn_json};
use ai2048_protocol::json::quote;

mod leaderboard;
mod ranked;

pub use leaderboard::{leaderboard, show_player, MAX_OFFSET};
pub use ranked::{end_game, play, replay, show_game, OwnGame};

/// The client's address, as [`Server`](crate::Server) puts it in every request's
/// extensions for the rate limits: the peer's, or behind a trusted proxy the one its
/// headers name (see [`client_addr`](crate::client_addr)).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClientAddr(pub IpAddr);

/// The client's address, when the server gave it (all clients share one allowance
/// when the application is served without it).
pub type Client = Option<Extension<ClientAddr>>;

fn client_ip(client: &Client) -> IpAddr {
    client
        .as_ref()
        .map_or(IpAddr::V4(Ipv4Addr::UNSPECIFIED), |c| c.0 .0)
}

impl From<DbError> for ApiError {
    fn from(e: DbError) -> ApiError {
        tracing::error!(error = %e.message, transient = e.transient, "database error");
        if e.transient {
            ApiError::busy("the database is busy or out of reach; try again in a moment")
        } else {
            ApiError::new(
                StatusCode::INTERNAL_SERVER_ERROR,
                "internal error: the database failed; the request changed nothing",
            )
        }
    }
}

fn internal(message: String) -> ApiError {
    ApiError::new(
        StatusCode::INTERNAL_SERVER_ERROR,
        format!("internal error: {message}"),
    )
}

/// The scores of the application (the routes exist only when it has them).
fn scores(app: &AppState) -> Result<&Arc<Scores>, ApiError> {
    app.scores.as_ref().ok_or_else(|| {
        ApiError::new(
            StatusCode::NOT_FOUND,
            "this server keeps no scores (it was started with --db none)",
        )
    })
}

/// The scores, once the client's allowance for `action` is counted.
fn limited<'a>(
    app: &'a AppState,
    action: Action,
    client: &Client,
) -> Result<&'a Arc<Scores>, ApiError> {
    let scores = scores(app)?;
    scores.limiters.check(action, client_ip(client))?;
    Ok(scores)
}

/// The routes whose `POST` counts against an allowance of its own, in its handler:
/// new players, new games, moves and ends of games.
const OWN_ALLOWANCE: [&str; 4] = [
    "/api/players",
    "/api/ranked",
    "/api/ranked/{id}/move",
    "/api/ranked/{id}/end",
];

/// The score API's reads, whose `GET` counts against
/// [`RateLimits::reads`](super::RateLimits::reads).
const READS: [&str; 4] = [
    "/api/leaderboard",
    "/api/players/{name}",
    "/api/ranked/{id}",
    "/api/ranked/{id}/replay",
];

/// Counts every request against its client's allowance, but the `POST`s that count
/// against their own in their handlers (new players, new games, moves, ends of
/// games): the score API's reads against the reads', any other (the page's files, the
/// engine's API, unknown routes) against the requests'. 429 past it.
pub async fn limit_requests(
    scores: Arc<Scores>,
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> Response {
    let route = request
        .extensions()
        .get::<axum::extract::MatchedPath>()
        .map(axum::extract::MatchedPath::as_str);
    let method = request.method();
    let action = match route {
        Some(r) if method == axum::http::Method::POST && OWN_ALLOWANCE.contains(&r) => None,
        Some(r) if method == axum::http::Method::GET && READS.contains(&r) => Some(Action::Read),
        _ => Some(Action::Request),
    };
    if let Some(action) = action {
        let client = request.extensions().get::<ClientAddr>().copied();
        if let Err(e) = scores
            .limiters
            .check(action, client_ip(&client.map(Extension)))
        {
            return e.into_response();
        }
    }
    next.run(request).await
}

fn unauthorized(message: &str) -> ApiError {
    ApiError::new(StatusCode::UNAUTHORIZED, message)
}

/// The hash of the request's bearer token.
fn bearer_hash(headers: &HeaderMap) -> Result<String, ApiError> {
    let Some(value) = headers.get(header::AUTHORIZATION) else {
        return Err(unauthorized(
            "missing Authorization: Bearer TOKEN (the token that POST /api/players gave)",
        ));
    };
    let token = value
        .to_str()
        .ok()
        .and_then(|v| v.strip_prefix("Bearer "))
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .ok_or_else(|| unauthorized("the Authorization header must be Bearer TOKEN"))?;
    Ok(token_hash(token))
}

fn created(body: &Value) -> Response {
    let mut response = json_response(StatusCode::CREATED, body.to_string());
    response
        .headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}

fn ok(body: &Value) -> Response {
    json_response(StatusCode::OK, body.to_string())
}

/// The request's `Idempotency-Key`, when it has one: 16 to 255 visible ASCII
/// characters, a random value the client keeps until it has the answer.
fn idempotency_key(headers: &HeaderMap) -> Result<Option<&str>, ApiError> {
    let Some(value) = headers.get("idempotency-key") else {
        return Ok(None);
    };
    value
        .to_str()
        .ok()
        .filter(|k| (16..=255).contains(&k.len()) && k.bytes().all(|b| b.is_ascii_graphic()))
        .map(Some)
        .ok_or_else(|| {
            ApiError::bad_request(format!(
                "the Idempotency-Key must be 16 to 255 visible ASCII characters, a random value \
                 such as a UUID; found {} bytes{}",
                value.len(),
                if value.as_bytes().iter().all(u8::is_ascii_graphic) {
                    ""
                } else {
                    " with a space, control or non-ASCII character"
                }
            ))
        })
}

/// The answer to a registration sent again with the Idempotency-Key `key` of one
/// registered within [`IDEMPOTENCY_WINDOW`]: the same 201 for the same name (ignoring
/// case), 422 for another. `None` when no registration kept the key.
async fn registered_before(
    scores: &Scores,
    key: &str,
    name: &str,
) -> Result<Option<Response>, ApiError> {
    let since = now_ms() - i64::try_from(IDEMPOTENCY_WINDOW.as_millis()).unwrap_or(i64::MAX);
    let Some((found_key, found_name, sealed)) = scores
        .db
        .player_by_idempotency_key(&idempotency_key_hash(key), since)
        .await?
    else {
        return Ok(None);
    };
    if found_key != name_key(name) {
        return Err(ApiError::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            format!(
                "this Idempotency-Key registered the name {}, not {}: a new registration \
                 needs a key of its own",
                quote(&Value::from(found_name.as_str())),
                quote(&Value::from(name))
            ),
        ));
    }
    let token = seal_token(&sealed, key)
        .ok_or_else(|| internal("a kept token does not unseal".to_owned()))?;
    Ok(Some(created(&json!({"name": found_name, "token": token}))))
}

/// `POST /api/players`: `{"name": N}` to 201 `{"name": N, "token": T}`. With an
/// `Idempotency-Key` header, the same request sent again within
/// [`IDEMPOTENCY_WINDOW`] gets the same answer, token included.
pub async fn create_player(
    State(app): State<AppState>,
    client: Client,
    headers: HeaderMap,
    body: Body,
) -> Reply {
    let scores = limited(&app, Action::NewPlayer, &client)?;
    let idempotency = idempotency_key(&headers)?;
    let Registration { name } = json_body(&app, &headers, body).await?;
    let name = name.as_str();
    check_name(name).map_err(ApiError::bad_request)?;
    if let Some(key) = idempotency {
        if let Some(answer) = registered_before(scores, key, name).await? {
            return Ok(answer);
        }
    }
    let token = new_token().map_err(internal)?;
    let (key_hash, sealed) = match idempotency {
        Some(key) => (
            idempotency_key_hash(key),
            seal_token(&token, key)
                .ok_or_else(|| internal("a new token is not hexadecimal".to_owned()))?,
        ),
        None => (String::new(), String::new()),
    };
    let now = now_ms();
    let window = i64::try_from(IDEMPOTENCY_WINDOW.as_millis()).unwrap_or(i64::MAX);
    let player = NewPlayer {
        name,
        key: &name_key(name),
        token_hash: &token_hash(&token),
        at: now,
        idempotency: idempotency.map(|_| KeptKey {
            key_hash: &key_hash,
            sealed_token: &sealed,
            since: now - window,
        }),
    };
    if !scores.db.create_player(&player).await? {
        // The same registration sent twice at once: the first is the answer.
        if let Some(key) = idempotency {
            if let Some(answer) = registered_before(scores, key, name).await? {
                return Ok(answer);
            }
        }
        return Err(ApiError::new(
            StatusCode::CONFLICT,
            format!(
                "the name {} is taken (names are unique ignoring case): choose another",
                quote(&Value::from(name))
            ),
        ));
    }
    Ok(created(&json!({"name": name, "token": token})))
}

/// `POST /api/ranked`: a new game of the token's player.
pub async fn create_game(
    State(app): State<AppState>,
    client: Client,
    headers: HeaderMap,
    body: Body,
) -> Reply {
    let scores = limited(&app, Action::NewGame, &client)?;
    let hash = bearer_hash(&headers)?;
    let Some((player, _)) = scores.db.player_by_token(&hash).await? else {
        return Err(unauthorized("unknown token: no player has it"));
    };
    let NewGameRequest {} = json_body(&app, &headers, body).await?;
    let key = new_spawn_key().map_err(internal)?;
    let id = new_game_id().map_err(internal)?;
    let game = Game::with_spawns(0, Rules::ORIGINAL, SpawnStream::Keyed(key))
        .map_err(|e| internal(e.to_string()))?;
    let board = game.board();
    let now = now_ms();
    let limit = OpenLimit {
        max: u64::from(scores.config.max_open_games.max(1)),
        active_since: now - scores.idle_ms() + 1,
    };
    let game_row = NewGame {
        id: &id,
        player_key: &player,
        seed: 0,
        spawn_key: Some(&key),
        board,
        at: now,
    };
    if let Err(open) = scores.db.create_game(&game_row, Some(limit)).await? {
        return Err(too_many_open(scores, open));
    }
    let spawns: Vec<Value> = game.start_spawns().iter().map(|&s| spawn_json(s)).collect();
    Ok(created(&json!({
        "id": id,
        "board": board_to_json(board),
        "score": 0,
        "turn": 0,
        "over": board.is_over(),
        "spawns": spawns,
    })))
}

/// The 409 of a player with as many open games as a player may have: which they
/// are, and how to end one.
fn too_many_open(scores: &Scores, open: Vec<String>) -> ApiError {
    let message = format!(
        "you have {} open ranked games, the most a player may have ({}): finish one, \
         end one with POST /api/ranked/G/end, or leave one without a move for {} s, \
         after which it ends as abandoned",
        open.len(),
        scores.config.max_open_games.max(1),
        scores.config.abandon_after.as_secs()
    );
    let mut fields = Map::new();
    fields.insert("open_games".to_owned(), open.into());
    ApiError::new(StatusCode::CONFLICT, message).with_fields(fields)
}

/// The answer of a handler: its response, or the error's.
pub type Reply = Result<Response, ApiError>;

/// The path's one segment (a game's id, a player's name), decoded: a 400 when it does
/// not decode to text.
pub struct Segment(pub String);

impl<S: Send + Sync> FromRequestParts<S> for Segment {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Segment, ApiError> {
        let Path(text) = Path::<String>::from_request_parts(parts, state)
            .await
            .map_err(|e| {
                ApiError::bad_request(format!(
                    "the path does not decode to text: {}",
                    e.body_text()
                ))
            })?;
        Ok(Segment(text))
    }
}
