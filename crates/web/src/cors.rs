//! CORS for the score API: the pages of the origins given by `--allow-origin` (a
//! static site, say) may call it from a browser.

use std::sync::Arc;

use axum::extract::Request;
use axum::http::{header, HeaderValue, Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

/// Whether `path` is one of the score API's.
fn is_score_path(path: &str) -> bool {
    path == "/api/players"
        || path.starts_with("/api/players/")
        || path == "/api/ranked"
        || path.starts_with("/api/ranked/")
        || path == "/api/leaderboard"
}

/// Answers preflight requests of allowed origins on the score API, and marks the
/// answers to their requests as readable by them, `Retry-After` included. Other
/// requests pass unchanged.
pub async fn cors(origins: Arc<Vec<String>>, request: Request, next: Next) -> Response {
    if origins.is_empty() || !is_score_path(request.uri().path()) {
        return next.run(request).await;
    }
    let origin = request
        .headers()
        .get(header::ORIGIN)
        .and_then(|o| o.to_str().ok())
        .filter(|o| origins.iter().any(|a| a == "*" || a == o))
        .and_then(|o| HeaderValue::from_str(o).ok());
    let preflight = request.method() == Method::OPTIONS;
    let mut response = match (&origin, preflight) {
        (Some(_), true) => StatusCode::NO_CONTENT.into_response(),
        _ => next.run(request).await,
    };
    let headers = response.headers_mut();
    headers.insert(header::VARY, HeaderValue::from_static("Origin"));
    if let Some(origin) = origin {
        headers.insert(header::ACCESS_CONTROL_ALLOW_ORIGIN, origin);
        // A page of another origin reads only the headers it is shown: a 429's
        // Retry-After says when to try again.
        headers.insert(
            header::ACCESS_CONTROL_EXPOSE_HEADERS,
            HeaderValue::from_static("Retry-After"),
        );
        if preflight {
            headers.insert(
                header::ACCESS_CONTROL_ALLOW_METHODS,
                HeaderValue::from_static("GET, POST"),
            );
            headers.insert(
                header::ACCESS_CONTROL_ALLOW_HEADERS,
                HeaderValue::from_static("authorization, content-type, idempotency-key"),
            );
            headers.insert(
                header::ACCESS_CONTROL_MAX_AGE,
                HeaderValue::from_static("600"),
            );
        }
    }
    response
}
