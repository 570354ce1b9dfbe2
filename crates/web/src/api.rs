//! The JSON API: the protocol's operations, the page's game, the list of players.

use std::sync::Arc;

use ai2048_ai::DEFAULT_PLAYER;
use ai2048_protocol::{Op, Request, RequestError, Response, Session};
use axum::body::Body;
use axum::extract::State;
use axum::http::{HeaderMap, Method, StatusCode, Uri};
use axum::response::{IntoResponse, Response as HttpResponse};
use serde_json::{json, Value};

use crate::body::{read_body, utf8};
use crate::error::json_response;
use crate::json::{kind, object, quote};
use crate::policy::{millis, web_limits, web_spec};
use crate::pool::{Busy, SearchPool};
use crate::{game, ApiError, ServerConfig};

/// What every handler shares: the limits and the search pool.
pub struct App {
    /// The server's limits.
    pub config: ServerConfig,
    /// The threads that run searches.
    pub pool: SearchPool,
    /// The saved scores, when the server keeps them.
    pub scores: Option<Arc<crate::scores::Scores>>,
}

/// The state handlers receive.
pub type AppState = Arc<App>;

/// `POST /api/OP`: the body is a protocol request without its `"op"` (one that has
/// it must name the same op).
pub async fn protocol_op(
    app: AppState,
    op: &'static str,
    headers: HeaderMap,
    body: Body,
) -> HttpResponse {
    answer(&app, &headers, body, Some(op)).await.into_response()
}

/// `POST /api`: the body is one protocol request, `"op"` included.
pub async fn protocol_line(
    State(app): State<AppState>,
    headers: HeaderMap,
    body: Body,
) -> HttpResponse {
    answer(&app, &headers, body, None).await.into_response()
}

/// Reads a protocol request for `op` (or any op when `None`) from `text`.
fn parse_request(text: &str, op: Option<&str>) -> Result<Request, RequestError> {
    let Some(op) = op else {
        return Request::parse(text);
    };
    let fail = |message: String| RequestError { id: None, message };
    let mut fields = object(text, op).map_err(fail)?;
    match fields.get("op") {
        None => {
            fields.insert("op".to_owned(), Value::from(op));
        }
        Some(Value::String(name)) if name == op => {}
        Some(other) => {
            return Err(RequestError {
                id: fields.get("id").cloned(),
                message: format!(
                "\"op\" must be {} here (the path /api/{op} names it), or be left out; found {}",
                quote(&Value::from(op)),
                match other {
                    Value::String(_) => quote(other),
                    _ => kind(other).to_owned(),
                }
            ),
            })
        }
    }
    Request::from_json(Value::Object(fields))
}

/// The status of an error the protocol answered: the player's own failures are the
/// server's (500), every other error is the request's (400).
fn error_status(message: &str) -> StatusCode {
    let player_failed = message.starts_with("player ")
        && (message.ends_with(" failed on this board")
            || message.ends_with(", which is not a legal move here")
            || message.contains(" chose no move, but "));
    if player_failed || message.starts_with("internal error") {
        StatusCode::INTERNAL_SERVER_ERROR
    } else {
        StatusCode::BAD_REQUEST
    }
}

async fn answer(
    app: &App,
    headers: &HeaderMap,
    body: Body,
    op: Option<&str>,
) -> Result<HttpResponse, ApiError> {
    let bytes = read_body(headers, body, &app.config).await?;
    let text = utf8(&bytes)?;
    let Request { id, op } =
        parse_request(text, op).map_err(|e| ApiError::bad_request(e.message).with_id(e.id))?;
    let response = match op {
        Op::Best { board, ai, limits } => {
            let ai = web_spec(ai, &app.config)
                .map_err(|m| ApiError::bad_request(m).with_id(id.clone()))?;
            let op = Op::Best {
                board,
                ai: Some(ai),
                limits: web_limits(limits, &app.config),
            };
            let reply = app.pool.submit(op).map_err(|Busy| {
                ApiError::busy(
                    "the server is busy: every search worker is taken and the queue is full; \
                     try again in a moment",
                )
                .with_id(id.clone())
            })?;
            reply.await.unwrap_or_else(|_| {
                Response::Error("internal error: the search worker went away".to_owned())
            })
        }
        // Moves, legal moves and spawns are quick: answered here, by a session that
        // creates no player for them.
        op => Session::default().handle(&op),
    };
    match response {
        Response::Error(message) => Err(ApiError::new(error_status(&message), message).with_id(id)),
        ok => Ok(json_response(StatusCode::OK, ok.to_line(id.as_ref()))),
    }
}

/// `POST /api/new` and `POST /api/step`: the page's game (see [`game`]).
pub async fn game_op(
    app: AppState,
    op: &'static str,
    headers: HeaderMap,
    body: Body,
) -> HttpResponse {
    let run = async {
        let bytes = read_body(&headers, body, &app.config).await?;
        let text = utf8(&bytes)?;
        // An empty body is an empty request: `POST /api/new` with nothing starts a game.
        let text = if text.trim().is_empty() { "{}" } else { text };
        let fields = object(text, op).map_err(ApiError::bad_request)?;
        let answer = match op {
            "new" => game::new_game(&fields),
            _ => game::step(&fields),
        }
        .map_err(ApiError::bad_request)?;
        Ok::<_, ApiError>(json_response(StatusCode::OK, answer.to_string()))
    };
    run.await.into_response()
}

/// `GET /healthz`: 200 `{"status": "ok", "database": "ok", "database_ms": T}` when
/// the database answers a query within 2 s (`"database": "none"` for a server that
/// keeps no scores), else 503 `{"status": "unavailable", "database": "unreachable"}`
/// (the error itself is logged, not shown). Never cached.
pub async fn healthz(State(app): State<AppState>) -> HttpResponse {
    let (status, body) = match &app.scores {
        None => (StatusCode::OK, json!({"status": "ok", "database": "none"})),
        Some(scores) => match scores.db().ping(std::time::Duration::from_secs(2)).await {
            Ok(took) => (
                StatusCode::OK,
                json!({
                    "status": "ok",
                    "database": "ok",
                    "database_ms": (took.as_secs_f64() * 10_000.0).round() / 10.0,
                }),
            ),
            Err(e) => {
                tracing::warn!(error = %e.message, "health check: the database does not answer");
                (
                    StatusCode::SERVICE_UNAVAILABLE,
                    json!({"status": "unavailable", "database": "unreachable"}),
                )
            }
        },
    };
    let mut response = json_response(status, body.to_string());
    response.headers_mut().insert(
        axum::http::header::CACHE_CONTROL,
        axum::http::HeaderValue::from_static("no-store"),
    );
    if status == StatusCode::SERVICE_UNAVAILABLE {
        response.headers_mut().insert(
            axum::http::header::RETRY_AFTER,
            axum::http::HeaderValue::from_static("1"),
        );
    }
    response
}

/// `GET /api/players`: the players and their options, for the page's selector, with
/// which options the web refuses and the server's time limits.
pub async fn players(State(app): State<AppState>) -> HttpResponse {
    let config = &app.config;
    let list = game::players(|player, key| {
        let probe = format!("{player}:{}=1", key.replace(".NAME", ".x"));
        probe
            .parse()
            .ok()
            .is_some_and(|spec| web_spec(Some(spec), config).is_ok())
    });
    let body = json!({
        "default": DEFAULT_PLAYER,
        "players": list,
        "max_time_ms": millis(config.max_time),
        "default_time_ms": millis(config.default_time),
        "tt_mb": config.tt_mb,
    });
    json_response(StatusCode::OK, body.to_string())
}

/// Any route the server does not have: 404.
pub async fn not_found(method: Method, uri: Uri) -> ApiError {
    ApiError::new(
        StatusCode::NOT_FOUND,
        format!("no such route: {method} {}", uri.path()),
    )
}

/// The methods a path takes.
fn allowed_methods(path: &str) -> &'static str {
    let ranked = path.strip_prefix("/api/ranked/");
    if path == "/api/players" {
        "GET, POST"
    } else if ranked.is_some_and(|rest| rest.ends_with("/move") || rest.ends_with("/end"))
        || path == "/api/ranked"
    {
        "POST"
    } else if ranked.is_some()
        || path.starts_with("/api/players/")
        || path == "/api/leaderboard"
        || !path.starts_with("/api")
    {
        "GET"
    } else {
        "POST"
    }
}

/// A route asked with the wrong method: 405, naming the right one.
pub async fn method_not_allowed(method: Method, uri: Uri) -> HttpResponse {
    let path = uri.path();
    let allowed = allowed_methods(path);
    let mut response = ApiError::new(
        StatusCode::METHOD_NOT_ALLOWED,
        format!("method {method} is not allowed on {path}: use {allowed}"),
    )
    .into_response();
    response.headers_mut().insert(
        axum::http::header::ALLOW,
        axum::http::HeaderValue::from_static(allowed),
    );
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn requests_by_path() {
        let board = "[[2,0,0,0],[0,0,0,0],[0,0,0,0],[0,0,0,0]]";
        let r = parse_request(&format!(r#"{{"board":{board},"id":3}}"#), Some("legal")).unwrap();
        assert_eq!(r.id, Some(json!(3)));
        assert!(matches!(r.op, Op::Legal { .. }));
        let r = parse_request(
            &format!(r#"{{"op":"legal","board":{board}}}"#),
            Some("legal"),
        );
        assert!(r.is_ok());
        let e = parse_request(
            &format!(r#"{{"op":"best","board":{board},"id":1}}"#),
            Some("legal"),
        )
        .unwrap_err();
        assert_eq!(e.id, Some(json!(1)));
        assert_eq!(
            e.message,
            "\"op\" must be \"legal\" here (the path /api/legal names it), or be left out; found \"best\""
        );
        let e = parse_request("[1]", Some("legal")).unwrap_err();
        assert_eq!(
            e.message,
            "a legal request must be a JSON object, found an array"
        );
        let e = parse_request(&format!(r#"{{"board":{board}}}"#), None).unwrap_err();
        assert_eq!(
            e.message,
            "missing \"op\": expected apply, legal, spawns or best"
        );
    }

    #[test]
    fn statuses_of_protocol_errors() {
        assert_eq!(
            error_status("unknown player \"x\": expected one of greedy"),
            StatusCode::BAD_REQUEST
        );
        assert_eq!(
            error_status("player greedy failed on this board"),
            StatusCode::INTERNAL_SERVER_ERROR
        );
        assert_eq!(
            error_status("player greedy chose up, which is not a legal move here"),
            StatusCode::INTERNAL_SERVER_ERROR
        );
        assert_eq!(
            error_status("player greedy chose no move, but up is legal"),
            StatusCode::INTERNAL_SERVER_ERROR
        );
        assert_eq!(
            error_status("player random has no option \"x\""),
            StatusCode::BAD_REQUEST
        );
    }
}
