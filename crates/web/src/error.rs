//! Answers that are not the happy path: a status and `{"error":"..."}`.

use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use serde_json::Value;

/// An error answer: its status, its message, and the request's `id` when it could be
/// read (the protocol echoes it, errors included).
#[derive(Clone, Debug, PartialEq)]
pub struct ApiError {
    /// The HTTP status: 4xx for the client's mistakes, 503 when the server is busy.
    pub status: StatusCode,
    /// What is wrong, and where.
    pub message: String,
    /// The request's `id`, echoed first in the answer.
    pub id: Option<Value>,
    /// Seconds to wait before trying again, sent as `Retry-After` (1 for a 503 that
    /// names none).
    pub retry_after: Option<u64>,
    /// The answer's JSON object, when it is more than `{"error": ...}`: the error is
    /// added to it (a 409 on a move carries the game as it stands).
    pub extra: Option<serde_json::Map<String, Value>>,
}

impl ApiError {
    /// An error with `status` and `message`, and no `id`.
    pub fn new(status: StatusCode, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            message: message.into(),
            id: None,
            retry_after: None,
            extra: None,
        }
    }

    /// A 400 Bad Request.
    pub fn bad_request(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, message)
    }

    /// A 503 Service Unavailable: every worker is busy and the queue is full.
    pub fn busy(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::SERVICE_UNAVAILABLE, message)
    }

    /// The same error, telling the client to wait `seconds` before trying again.
    #[must_use]
    pub fn retry_after(self, seconds: u64) -> ApiError {
        ApiError {
            retry_after: Some(seconds),
            ..self
        }
    }

    /// The same error, its answer holding `fields` besides `"error"`.
    #[must_use]
    pub fn with_fields(self, fields: serde_json::Map<String, Value>) -> ApiError {
        ApiError {
            extra: Some(fields),
            ..self
        }
    }

    /// The same error, answering the request with this `id`.
    #[must_use]
    pub fn with_id(self, id: Option<Value>) -> ApiError {
        ApiError { id, ..self }
    }
}

/// A JSON answer with `status`, as the protocol writes its lines.
pub fn json_response(status: StatusCode, body: impl Into<axum::body::Body>) -> Response {
    let mut response = (status, body.into()).into_response();
    response.headers_mut().insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    response
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = match self.extra {
            Some(mut fields) => {
                fields.insert("error".to_owned(), Value::from(self.message));
                Value::Object(fields).to_string()
            }
            None => ai2048_protocol::Response::Error(self.message).to_line(self.id.as_ref()),
        };
        let mut response = json_response(self.status, body);
        let retry_after = match self.retry_after {
            Some(seconds) => Some(seconds),
            None => (self.status == StatusCode::SERVICE_UNAVAILABLE).then_some(1),
        };
        if let Some(seconds) = retry_after {
            response
                .headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from(seconds));
        }
        response
    }
}
