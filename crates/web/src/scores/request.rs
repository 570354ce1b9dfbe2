//! The score API's requests as types: JSON bodies read by `serde` through axum's
//! [`Json`], the leaderboard's query through axum's [`Query`], and their errors
//! answered as the project's JSON errors, naming the field (never axum's plain-text
//! rejections).

use std::error::Error as _;

use ai2048_engine::Dir;
use ai2048_protocol::json::{kind, quote, MAX_SAFE_INTEGER};
use axum::body::Body;
use axum::extract::rejection::{JsonRejection, QueryRejection};
use axum::extract::{Json, Query};
use axum::http::{HeaderMap, Uri};
use serde::de::{self, DeserializeOwned, Visitor};
use serde::{Deserialize, Deserializer};
use serde_json::Value;

use crate::body::{read_body, utf8};
use crate::{ApiError, AppState};

/// A request body of the score API: its name in error messages.
pub trait RequestBody: DeserializeOwned {
    /// What the request is, as errors name it: `"move"` gives "the move request".
    const WHAT: &'static str;
}

/// `POST /api/players`: `{"name": NAME}`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, expecting = "a JSON object: {\"name\": NAME}")]
pub struct Registration {
    /// The name to register (checked by [`check_name`](super::check_name) after).
    pub name: String,
}

impl RequestBody for Registration {
    const WHAT: &'static str = "registration";
}

/// `POST /api/ranked/G/move`: `{"dir": D, "turn": T, "ai": A}`.
#[derive(Debug, Deserialize)]
#[serde(
    deny_unknown_fields,
    expecting = "a JSON object: {\"dir\": D, \"turn\": T, \"ai\": A}"
)]
pub struct MoveRequest {
    /// The direction.
    pub dir: Direction,
    /// The game's turn now, which the move is played at.
    pub turn: SafeInteger,
    /// Whether the page's AI chose the move (the client's word); false when left out
    /// or null.
    #[serde(default)]
    pub ai: Option<bool>,
}

impl RequestBody for MoveRequest {
    const WHAT: &'static str = "move";
}

/// `POST /api/ranked`: empty, or `{}`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, expecting = "an empty JSON object, {}")]
pub struct NewGameRequest {}

impl RequestBody for NewGameRequest {
    const WHAT: &'static str = "new game";
}

/// `POST /api/ranked/G/end`: empty, or `{}`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields, expecting = "an empty JSON object, {}")]
pub struct EndRequest {}

impl RequestBody for EndRequest {
    const WHAT: &'static str = "game end";
}

/// A direction by its name: `"up"`, `"down"`, `"left"` or `"right"`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Direction(pub Dir);

impl<'de> Deserialize<'de> for Direction {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Direction, D::Error> {
        struct Name;
        impl Visitor<'_> for Name {
            type Value = Direction;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a direction: up, down, left or right")
            }
            fn visit_str<E: de::Error>(self, text: &str) -> Result<Direction, E> {
                Dir::from_name(text).map(Direction).ok_or_else(|| {
                    E::custom(format!(
                        "unknown direction {}: expected up, down, left or right",
                        quote(&Value::from(text))
                    ))
                })
            }
        }
        deserializer.deserialize_str(Name)
    }
}

/// An integer from 0 to [`MAX_SAFE_INTEGER`], the largest that JavaScript's numbers
/// hold exactly (an integral float such as `2.0` or `4e3` is one too).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SafeInteger(pub u64);

impl<'de> Deserialize<'de> for SafeInteger {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<SafeInteger, D::Error> {
        struct Safe;
        impl Visitor<'_> for Safe {
            type Value = SafeInteger;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                write!(f, "an integer from 0 to {MAX_SAFE_INTEGER}")
            }
            fn visit_u64<E: de::Error>(self, n: u64) -> Result<SafeInteger, E> {
                if n <= MAX_SAFE_INTEGER {
                    Ok(SafeInteger(n))
                } else {
                    Err(E::invalid_value(de::Unexpected::Unsigned(n), &self))
                }
            }
            fn visit_i64<E: de::Error>(self, n: i64) -> Result<SafeInteger, E> {
                match u64::try_from(n) {
                    Ok(n) => self.visit_u64(n),
                    Err(_) => Err(E::invalid_value(de::Unexpected::Signed(n), &self)),
                }
            }
            fn visit_f64<E: de::Error>(self, f: f64) -> Result<SafeInteger, E> {
                if f.fract() == 0.0 && (0.0..=MAX_SAFE_INTEGER as f64).contains(&f) {
                    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
                    Ok(SafeInteger(f as u64))
                } else {
                    Err(E::invalid_value(de::Unexpected::Float(f), &self))
                }
            }
        }
        deserializer.deserialize_any(Safe)
    }
}

/// The body of a request of the score API as `T`, read as the crate's `read_body` reads it
/// (bounded in size and time, UTF-8; an empty body is `{}`) and parsed by axum's
/// [`Json`].
///
/// # Errors
///
/// Those of `read_body` (413, 408); 400 for a body that is not JSON or not a `T`, naming the
/// field (see [`json_error`]).
pub async fn json_body<T: RequestBody>(
    app: &AppState,
    headers: &HeaderMap,
    body: Body,
) -> Result<T, ApiError> {
    let bytes = read_body(headers, body, &app.config).await?;
    let text = utf8(&bytes)?;
    let text = if text.trim().is_empty() { "{}" } else { text };
    parse_body(text)
}

/// [`json_body`]'s parse of the body `text`: a JSON object only (`serde` would take a
/// struct from an array of its fields in order too).
fn parse_body<T: RequestBody>(text: &str) -> Result<T, ApiError> {
    if !text.trim_start().starts_with('{') {
        let Json(value) =
            Json::<Value>::from_bytes(text.as_bytes()).map_err(|e| json_error(&e, T::WHAT))?;
        return Err(ApiError::bad_request(format!(
            "the {} request must be a JSON object, found {}",
            T::WHAT,
            kind(&value)
        )));
    }
    Json::<T>::from_bytes(text.as_bytes())
        .map(|Json(value)| value)
        .map_err(|e| json_error(&e, T::WHAT))
}

/// The project's 400 for axum's rejection of a JSON body of the request `what`: the
/// field at fault and what is wrong with it, in `serde`'s words, without the
/// position for an error of a field.
#[must_use]
pub fn json_error(rejection: &JsonRejection, what: &str) -> ApiError {
    let mut source = rejection.source();
    while let Some(e) = source {
        if let Some(e) = e.downcast_ref::<serde_path_to_error::Error<serde_json::Error>>() {
            return serde_error(&e.path().to_string(), e.inner(), what);
        }
        if let Some(e) = e.downcast_ref::<serde_json::Error>() {
            return serde_error(".", e, what);
        }
        source = e.source();
    }
    ApiError::bad_request(format!(
        "the {what} request is not valid: {}",
        rejection.body_text()
    ))
}

fn serde_error(path: &str, e: &serde_json::Error, what: &str) -> ApiError {
    let message = e.to_string();
    if !e.is_data() {
        return ApiError::bad_request(format!("the {what} request is not valid JSON: {message}"));
    }
    let position = format!(" at line {} column {}", e.line(), e.column());
    let message = message.strip_suffix(&position).unwrap_or(&message);
    ApiError::bad_request(if path == "." {
        format!("the {what} request: {message}")
    } else {
        format!(
            "{} in the {what} request: {message}",
            quote(&Value::from(path))
        )
    })
}

/// The leaderboard's query, each parameter as sent (checked after, to say what a bad
/// one should be).
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LeaderboardParams {
    /// The entries of a page.
    pub limit: Option<String>,
    /// The entries before the page.
    pub offset: Option<String>,
    /// The `next` of the page before.
    pub after: Option<String>,
    /// Only games with no AI move.
    pub human: Option<String>,
}

/// The leaderboard's query of `uri`, parsed by axum's [`Query`].
///
/// # Errors
///
/// 400 for an unknown or repeated parameter, naming it.
pub fn leaderboard_params(uri: &Uri) -> Result<LeaderboardParams, ApiError> {
    Query::<LeaderboardParams>::try_from_uri(uri)
        .map(|Query(params)| params)
        .map_err(|e| query_error(&e))
}

/// The project's 400 for axum's rejection of the leaderboard's query.
fn query_error(rejection: &QueryRejection) -> ApiError {
    let mut source = rejection.source();
    while let Some(e) = source {
        if let Some(e) = e.downcast_ref::<serde_path_to_error::Error<serde::de::value::Error>>() {
            return ApiError::bad_request(format!("the leaderboard's query: {}", e.inner()));
        }
        source = e.source();
    }
    ApiError::bad_request(format!(
        "the leaderboard's query is not valid: {}",
        rejection.body_text()
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse<T: RequestBody>(text: &str) -> Result<T, String> {
        parse_body(text).map_err(|e| e.message)
    }

    #[test]
    fn moves() {
        let m: MoveRequest = parse(r#"{"dir":"left","turn":4e3}"#).unwrap();
        assert_eq!(
            (m.dir, m.turn, m.ai),
            (Direction(Dir::Left), SafeInteger(4000), None)
        );
        let m: MoveRequest = parse(r#"{"dir":"up","turn":0,"ai":null}"#).unwrap();
        assert_eq!(m.ai, None);
        for (text, error) in [
            (
                r#"{"dir":"up","turn":-1}"#,
                "\"turn\" in the move request: invalid value: integer `-1`, expected an integer \
                 from 0 to 9007199254740991",
            ),
            (
                r#"{"dir":"up","turn":2.5}"#,
                "\"turn\" in the move request: invalid value: floating point `2.5`, expected an \
                 integer from 0 to 9007199254740991",
            ),
            (
                r#"{"dir":"up","turn":"0"}"#,
                "\"turn\" in the move request: invalid type: string \"0\", expected an integer \
                 from 0 to 9007199254740991",
            ),
            (
                r#"{"dir":"north","turn":0}"#,
                "\"dir\" in the move request: unknown direction \"north\": expected up, down, \
                 left or right",
            ),
            (
                r#"{"dir":"up","turn":0,"ai":"yes"}"#,
                "\"ai\" in the move request: invalid type: string \"yes\", expected a boolean",
            ),
            (r#"{"dir":"up"}"#, "the move request: missing field `turn`"),
            (
                r#"{"dir":"up","turn":0,"x":1}"#,
                "\"x\" in the move request: unknown field `x`, expected one of `dir`, `turn`, \
                 `ai`",
            ),
            (
                "[]",
                "the move request must be a JSON object, found an array",
            ),
            (
                r#"["up",0]"#,
                "the move request must be a JSON object, found an array",
            ),
            (
                "7",
                "the move request must be a JSON object, found a number",
            ),
            (
                "[",
                "the move request is not valid JSON: EOF while parsing a list at line 1 \
                 column 1",
            ),
            (
                r#"{"dir":"up","#,
                "the move request is not valid JSON: EOF while parsing a value at line 1 \
                 column 12",
            ),
            (
                r#"{"dir":"up","turn":0} x"#,
                "the move request is not valid JSON: trailing characters at line 1 column 23",
            ),
        ] {
            assert_eq!(parse::<MoveRequest>(text).unwrap_err(), error, "{text}");
        }
    }

    #[test]
    fn leaderboard_queries() {
        let uri = |q: &str| format!("/api/leaderboard?{q}").parse::<Uri>().unwrap();
        let p = leaderboard_params(&uri("limit=5&human=true")).unwrap();
        assert_eq!(
            (p.limit.as_deref(), p.human.as_deref()),
            (Some("5"), Some("true"))
        );
        assert_eq!(
            leaderboard_params(&uri("sort=x")).unwrap_err().message,
            "the leaderboard's query: unknown field `sort`, expected one of `limit`, `offset`, \
             `after`, `human`"
        );
        assert_eq!(
            leaderboard_params(&uri("limit=1&limit=2"))
                .unwrap_err()
                .message,
            "the leaderboard's query: duplicate field `limit`"
        );
    }
}
