//! Reading a request body: bounded in size and in time, and checked as UTF-8.

use axum::body::{Body, Bytes};
use axum::http::{header, HeaderMap, StatusCode};
use http_body_util::{BodyExt, LengthLimitError, Limited};

use crate::{ApiError, ServerConfig};

/// The body of a request, at most [`ServerConfig::body_limit`] bytes, arrived within
/// [`ServerConfig::body_timeout`].
///
/// # Errors
///
/// 413 for a body over the limit (at once when its `Content-Length` says so), 408 for
/// one too slow to arrive, 400 for one that breaks off.
pub async fn read_body(
    headers: &HeaderMap,
    body: Body,
    config: &ServerConfig,
) -> Result<Bytes, ApiError> {
    let too_large = || {
        ApiError::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!(
                "the request body is larger than {} bytes, the most this server reads",
                config.body_limit
            ),
        )
    };
    let declared = headers
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    if declared.is_some_and(|n| n > config.body_limit as u64) {
        return Err(too_large());
    }
    let collect = Limited::new(body, config.body_limit).collect();
    match tokio::time::timeout(config.body_timeout, collect).await {
        Ok(Ok(collected)) => Ok(collected.to_bytes()),
        Ok(Err(e)) if e.downcast_ref::<LengthLimitError>().is_some() => Err(too_large()),
        Ok(Err(e)) => Err(ApiError::bad_request(format!(
            "the request body could not be read: {e}"
        ))),
        Err(_) => Err(ApiError::new(
            StatusCode::REQUEST_TIMEOUT,
            format!(
                "the request body did not arrive within {} ms",
                config.body_timeout.as_millis()
            ),
        )),
    }
}

/// The body as text.
///
/// # Errors
///
/// 400 when it is not UTF-8, saying where.
pub fn utf8(bytes: &[u8]) -> Result<&str, ApiError> {
    core::str::from_utf8(bytes).map_err(|e| {
        ApiError::bad_request(format!(
            "the request body is not valid UTF-8: byte {} starts an invalid sequence",
            e.valid_up_to() + 1
        ))
    })
}
