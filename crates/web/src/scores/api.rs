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

/// Whether `id` can be a game's id (20 hexadecimal digits), so that others are not
/// looked up.
fn plausible_id(id: &str) -> bool {
    id.len() == 20 && id.bytes().all(|b| b.is_ascii_hexdigit())
}

fn no_game(id: &str) -> ApiError {
    ApiError::new(
        StatusCode::NOT_FOUND,
        format!("no ranked game {}", quote(&Value::from(id))),
    )
}

/// The game `id`, ended first if it has been left alone for too long.
async fn load_game(scores: &Scores, id: &str) -> Result<GameRow, ApiError> {
    if !plausible_id(id) {
        return Err(no_game(id));
    }
    let game = scores.db.game(id).await?.ok_or_else(|| no_game(id))?;
    let idle_ms = scores.idle_ms();
    let now = now_ms();
    if !game.over && now.saturating_sub(game.last_move_at) >= idle_ms {
        scores
            .db
            .end_abandoned(now - idle_ms + 1, idle_ms, Some(id))
            .await?;
        return scores.db.game(id).await?.ok_or_else(|| no_game(id));
    }
    Ok(game)
}

/// Where the spawns of `game` come from: its key, or (the games of schema 2 and
/// before) its seed, one generator a turn.
fn spawn_stream(game: &GameRow) -> SpawnStream {
    game.spawn_key
        .map_or(SpawnStream::PerTurn, SpawnStream::Keyed)
}

/// The move `dir` at turn `turn` of `game`, as [`Game::try_play`] plays it in the
/// game's spawn stream: the board after it and its spawn, its points and the spawn.
/// `None` when the move changes nothing.
fn play_ranked(game: &GameRow, dir: Dir, turn: u64) -> Option<(Board, u32, Spawn)> {
    let Some(key) = game.spawn_key else {
        return play_turn(game.board, dir, game.seed, turn);
    };
    let (moved, points) = PlayableBoard::new(game.board).apply_scored(dir)?;
    let mut draws = KeyedRng::after_turn(&key, turn);
    let (after, spawn) = moved.with_random_tile_from(&mut draws, Rules::ORIGINAL.four_probability);
    Some((after.board(), points, spawn))
}

/// The game as it stands; with its spawn key (or seed) and moves once it is over.
fn game_json(game: &GameRow, moves: Option<&[MoveRow]>) -> Value {
    let mut value = json!({
        "id": game.id,
        "player": game.player,
        "board": board_to_json(game.board),
        "score": game.score,
        "turn": game.turn,
        "over": game.over,
        "max_tile": game.max_tile,
        "ai_moves": game.ai_moves,
        "started_at": rfc3339(game.started_at),
    });
    if game.over {
        value["ended_at"] = game.ended_at.map(rfc3339).into();
        value["end"] = game.end_reason.clone().into();
        match game.spawn_key {
            Some(key) => value["spawn_key"] = key.to_hex().into(),
            None => value["seed"] = game.seed.into(),
        }
        if let Some(moves) = moves {
            let list: Vec<Value> = moves
                .iter()
                .map(|m| {
                    let dir = letter_dir(m.dir).map_or("?", Dir::name);
                    json!({"dir": dir, "ai": m.ai, "spawn": {"cell": m.spawn_cell, "tile": m.spawn_tile}})
                })
                .collect();
            value["moves"] = list.into();
        }
    }
    value
}

fn letter_dir(letter: char) -> Option<Dir> {
    Dir::ALL.into_iter().find(|d| d.letter() == letter)
}

fn conflict(message: String, game: &GameRow) -> ApiError {
    let mut fields = Map::new();
    fields.insert("game".to_owned(), game_json(game, None));
    ApiError::new(StatusCode::CONFLICT, message).with_fields(fields)
}

/// The stored answer to the game's last move, when `(dir, turn, ai)` is that move
/// sent again.
fn retried(game: &GameRow, dir: Dir, turn: u64, ai: bool) -> Option<Response> {
    if turn.checked_add(1) != Some(game.turn) {
        return None;
    }
    let answer = game.last_answer.as_deref()?;
    let value: Value = serde_json::from_str(answer).ok()?;
    (value["dir"] == dir.name() && value["ai"] == ai)
        .then(|| json_response(StatusCode::OK, answer.to_owned()))
}

/// `POST /api/ranked/G/move`: `{"dir": D, "turn": T, "ai": bool}`.
pub async fn play(
    State(app): State<AppState>,
    OwnGame { scores, game }: OwnGame,
    headers: HeaderMap,
    body: Body,
) -> Reply {
    let scores = &*scores;
    let id = game.id.clone();
    let MoveRequest {
        dir: Direction(dir),
        turn: SafeInteger(turn),
        ai,
    } = json_body(&app, &headers, body).await?;
    let ai = ai.unwrap_or(false);
    if let Some(answer) = retried(&game, dir, turn, ai) {
        return Ok(answer);
    }
    check_playable(&game, turn)?;
    let now = now_ms();
    let Some((board, points, spawn)) = play_ranked(&game, dir, turn) else {
        return Ok(ok(&json!({
            "board": board_to_json(game.board),
            "score": game.score,
            "turn": game.turn,
            "moved": false,
            "spawn": null,
            "over": game.over,
            "points": 0,
            "motions": [],
            "dir": dir.name(),
            "ai": ai,
        })));
    };
    let over = board.is_over();
    let answer = json!({
        "board": board_to_json(board),
        "score": game.score + u64::from(points),
        "turn": turn + 1,
        "moved": true,
        "spawn": spawn_json(spawn),
        "over": over,
        "points": points,
        "motions": motions_json(game.board, dir),
        "dir": dir.name(),
        "ai": ai,
    })
    .to_string();
    let update = MoveUpdate {
        board,
        points: u64::from(points),
        row: MoveRow {
            turn,
            dir: dir.letter(),
            ai,
            spawn_cell: spawn.cell,
            spawn_tile: spawn.tile(),
        },
        over,
        at: now,
        answer: answer.clone(),
    };
    if scores.db.play(&id, turn, &update).await? {
        return Ok(json_response(StatusCode::OK, answer));
    }
    // Another request played this turn first (or the game just ended).
    let game = load_game(scores, &id).await?;
    if let Some(answer) = retried(&game, dir, turn, ai) {
        return Ok(answer);
    }
    check_playable(&game, turn)?;
    Err(conflict(
        "the game changed while this move was played; try again".to_owned(),
        &game,
    ))
}

fn check_playable(game: &GameRow, turn: u64) -> Result<(), ApiError> {
    if game.over {
        let why = match game.end_reason.as_deref() {
            Some("abandoned") => "it was abandoned (no move for too long)",
            Some("resigned") => "its player ended it",
            _ => "no move is left",
        };
        return Err(conflict(format!("the game is over: {why}"), game));
    }
    if turn != game.turn {
        return Err(conflict(
            format!(
                "\"turn\" is {turn}, but the game is at turn {}: send the game's turn now",
                game.turn
            ),
            game,
        ));
    }
    Ok(())
}

/// `POST /api/ranked/G/end`: the player ends their game as it stands (it counts, as
/// an abandoned game does); the game once over, as `GET /api/ranked/G` shows it. A
/// game over already is shown as it is, so that the request may be sent again.
pub async fn end_game(
    State(app): State<AppState>,
    OwnGame { scores, game }: OwnGame,
    request: axum::extract::Request,
) -> Reply {
    let (parts, body) = request.into_parts();
    let EndRequest {} = json_body(&app, &parts.headers, body).await?;
    if !game.over {
        scores.db.end_game(&game.id, now_ms()).await?;
    }
    show_game(State(app), Segment(game.id)).await
}

/// The game of the path, for a request that plays or ends it: the client's allowance
/// for moves counted, and the request's token its player's (401 for no token or one
/// no player has, 403 for another player's, 404 for no such game).
pub struct OwnGame {
    scores: Arc<Scores>,
    game: GameRow,
}

impl FromRequestParts<AppState> for OwnGame {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, app: &AppState) -> Result<OwnGame, ApiError> {
        let Segment(id) = Segment::from_request_parts(parts, app).await?;
        let client: Client = parts.extensions.get::<ClientAddr>().copied().map(Extension);
        let scores = Arc::clone(limited(app, Action::Move, &client)?);
        let hash = bearer_hash(&parts.headers)?;
        let game = load_game(&scores, &id).await?;
        if game.token_hash == hash {
            return Ok(OwnGame { scores, game });
        }
        Err(match scores.db.player_by_token(&hash).await? {
            None => unauthorized("unknown token: no player has it"),
            Some(_) => ApiError::new(
                StatusCode::FORBIDDEN,
                format!("game {id} is not yours: it is {}'s", game.player),
            ),
        })
    }
}

/// `GET /api/ranked/G`; a finished game's answer is kept (see [`Kept`]).
pub async fn show_game(State(app): State<AppState>, Segment(id): Segment) -> Reply {
    let scores = scores(&app)?;
    if let Some(body) = scores.finished.get(&id, Kept::Game) {
        return Ok(json_response(StatusCode::OK, body));
    }
    let game = load_game(scores, &id).await?;
    if !game.over {
        return Ok(ok(&game_json(&game, None)));
    }
    let moves = scores.db.moves(&id).await?;
    let body = Bytes::from(game_json(&game, Some(&moves)).to_string());
    scores.finished.insert(&id, Kept::Game, body.clone());
    Ok(json_response(StatusCode::OK, body))
}

/// `GET /api/ranked/G/replay`: the finished game in the replay format of
/// `ai2048 replay`, checked before it is first sent, then kept (see [`Kept`]).
pub async fn replay(State(app): State<AppState>, Segment(id): Segment) -> Reply {
    let scores = scores(&app)?;
    let text = match scores.finished.get(&id, Kept::Replay) {
        Some(text) => text,
        None => {
            let game = load_game(scores, &id).await?;
            if !game.over {
                return Err(conflict(
                    "the game is still being played: its replay is given once it is over"
                        .to_owned(),
                    &game,
                ));
            }
            let moves = scores.db.moves(&id).await?;
            let replay = stored_replay(&game, &moves).map_err(internal)?;
            let text = Bytes::from(replay.to_string());
            scores.finished.insert(&id, Kept::Replay, text.clone());
            text
        }
    };
    let mut response = (StatusCode::OK, text).into_response();
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/plain; charset=utf-8"),
    );
    if let Ok(value) = HeaderValue::from_str(&format!("inline; filename=\"ai2048-{id}.replay\"")) {
        headers.insert(header::CONTENT_DISPOSITION, value);
    }
    Ok(response)
}

/// The replay of a stored game, verified: its key's (or seed's) start, its stored
/// moves and spawns, and its stored score and board must all replay.
///
/// # Errors
///
/// When they do not (a stored game that its own key or seed does not give).
fn stored_replay(game: &GameRow, moves: &[MoveRow]) -> Result<Replay, String> {
    let start = Game::with_spawns(game.seed, Rules::ORIGINAL, spawn_stream(game))
        .map_err(|e| e.to_string())?;
    let mut turns = Vec::with_capacity(moves.len());
    for (n, m) in moves.iter().enumerate() {
        let dir = letter_dir(m.dir).ok_or_else(|| format!("stored move {n} has no direction"))?;
        let exponent = match m.spawn_tile {
            2 => 1,
            4 => 2,
            t => return Err(format!("stored move {n} spawned a {t}")),
        };
        if m.turn != n as u64 {
            return Err(format!("stored move {n} is numbered {}", m.turn));
        }
        turns.push((
            dir,
            Some(Spawn {
                cell: m.spawn_cell,
                exponent,
            }),
        ));
    }
    let replay = Replay {
        seed: game.seed,
        rules: Rules::ORIGINAL,
        spawns: spawn_stream(game),
        start: start.start_spawns().to_vec(),
        turns,
        score: game.score,
        board: game.board,
    };
    replay
        .verify()
        .map_err(|e| format!("game {} does not replay: {e}", game.id))?;
    Ok(replay)
}

/// The largest `offset` of the leaderboard: deeper pages are read with `after`, whose
/// query starts at its entry instead of reading and skipping every entry before it.
pub const MAX_OFFSET: u64 = 10_000;

/// A page of the leaderboard: its size, where it starts, and whether it holds only
/// games with no AI move.
struct LeaderboardQuery {
    limit: u64,
    start: Start,
    human: bool,
}

/// Where a page of the leaderboard starts.
enum Start {
    /// After this many entries.
    Offset(u64),
    /// After this entry (the last of the page before), of this rank.
    After(u64, After),
}

impl Start {
    /// The rank of the entry before the page's first.
    fn rank(&self) -> u64 {
        match self {
            Start::Offset(offset) => *offset,
            Start::After(rank, _) => *rank,
        }
    }
}

/// The cursor of an entry, `RANK.SCORE.ENDED_AT.GAME`: the `next` of a page, which the
/// client gives back as `after` for the page that follows.
fn cursor(rank: u64, f: &Finished) -> String {
    format!("{rank}.{}.{}.{}", f.score, f.ended_at.unwrap_or(0), f.game)
}

/// The entry a cursor names (see [`cursor`]).
fn parse_cursor(text: &str) -> Option<(u64, After)> {
    let mut parts = text.split('.');
    let rank = parts.next()?.parse().ok()?;
    let score = parts.next()?.parse().ok()?;
    let ended_at = parts.next()?.parse().ok()?;
    let game = parts.next().filter(|id| plausible_id(id))?.to_owned();
    if parts.next().is_some() {
        return None;
    }
    Some((
        rank,
        After {
            score,
            ended_at,
            game,
        },
    ))
}

/// The leaderboard's query: `limit` (1 to 100, 20 when left out), `offset` (0 to
/// [`MAX_OFFSET`]) or `after` (the `next` of the page before), and `human` (true or
/// false).
fn leaderboard_query(uri: &Uri) -> Result<LeaderboardQuery, ApiError> {
    let params = leaderboard_params(uri)?;
    let number = |key: &str, value: &str, min: u64, max: u64| {
        value
            .parse::<u64>()
            .ok()
            .filter(|n| (min..=max).contains(n))
            .ok_or_else(|| {
                ApiError::bad_request(format!(
                    "{key}={} is not an integer from {min} to {max}",
                    shorten(value)
                ))
            })
    };
    let limit = match &params.limit {
        Some(value) => number("limit", value, 1, 100)?,
        None => 20,
    };
    let offset = match &params.offset {
        Some(value) => Some(number("offset", value, 0, MAX_OFFSET).map_err(|e| {
            ApiError::bad_request(format!(
                "{}; to read further, give as after= the \"next\" of the page before",
                e.message
            ))
        })?),
        None => None,
    };
    let after = match &params.after {
        Some(value) => Some(parse_cursor(value).ok_or_else(|| {
            ApiError::bad_request(format!(
                "after={} is not a place in the leaderboard: give the \"next\" of the page \
                 before",
                shorten(value)
            ))
        })?),
        None => None,
    };
    let human = match params.human.as_deref() {
        None | Some("false" | "0") => false,
        Some("true" | "1") => true,
        Some(value) => {
            return Err(ApiError::bad_request(format!(
                "human={} must be true or false",
                shorten(value)
            )))
        }
    };
    let start = match (offset, after) {
        (Some(_), Some(_)) => {
            return Err(ApiError::bad_request(
                "the leaderboard takes offset or after, not both",
            ))
        }
        (_, Some((rank, after))) => Start::After(rank, after),
        (offset, None) => Start::Offset(offset.unwrap_or(0)),
    };
    Ok(LeaderboardQuery {
        limit,
        start,
        human,
    })
}

fn shorten(text: &str) -> String {
    let value = quote(&Value::from(text));
    value.trim_matches('"').to_owned()
}

fn finished_json(f: &Finished) -> Value {
    json!({
        "game": f.game,
        "name": f.name,
        "score": f.score,
        "max_tile": f.max_tile,
        "moves": f.moves,
        "ai_moves": f.ai_moves,
        "over": f.over,
        "started_at": rfc3339(f.started_at),
        "ended_at": f.ended_at.map(rfc3339),
    })
}

/// `GET /api/leaderboard?limit=N&offset=K&human=true`, or `after=CURSOR` instead of
/// `offset`: `{"entries": [...], "next": CURSOR}`, `next` null on the last page.
/// `human=true` keeps the games whose client marked no move `ai`: the client's word,
/// which the server cannot check (it referees each move, not who chose it).
pub async fn leaderboard(State(app): State<AppState>, uri: Uri) -> Reply {
    let scores = scores(&app)?;
    let query = leaderboard_query(&uri)?;
    scores.sweep().await?;
    let (offset, after) = match &query.start {
        Start::Offset(offset) => (*offset, None),
        Start::After(_, after) => (0, Some(after)),
    };
    let games = scores
        .db
        .leaderboard(query.limit, offset, after, query.human)
        .await?;
    let first = query.start.rank() + 1;
    let entries: Vec<Value> = games
        .iter()
        .zip(first..)
        .map(|(f, rank)| {
            json!({
                "rank": rank,
                "name": f.name,
                "score": f.score,
                "max_tile": f.max_tile,
                "moves": f.moves,
                "ai_moves": f.ai_moves,
                "ended_at": f.ended_at.map(rfc3339),
                "game": f.game,
            })
        })
        .collect();
    let next = match games.last() {
        Some(last) if games.len() as u64 == query.limit => {
            Value::from(cursor(first + query.limit - 1, last))
        }
        _ => Value::Null,
    };
    Ok(ok(&json!({"entries": entries, "next": next})))
}

/// `GET /api/players/NAME`: the best score, the games played and the recent games.
pub async fn show_player(State(app): State<AppState>, Segment(name): Segment) -> Reply {
    let scores = scores(&app)?;
    scores.sweep().await?;
    let found = if check_name(&name).is_ok() {
        scores.db.player(&name_key(&name), 10).await?
    } else {
        None
    };
    let Some((name, best, played, recent)) = found else {
        return Err(ApiError::new(
            StatusCode::NOT_FOUND,
            format!("no player named {}", quote(&Value::from(name.as_str()))),
        ));
    };
    let recent: Vec<Value> = recent.iter().map(finished_json).collect();
    Ok(ok(&json!({
        "name": name,
        "best_score": best,
        "games_played": played,
        "recent": recent,
    })))
}
