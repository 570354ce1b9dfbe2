//! Requests: one JSON object per line, read into a typed [`Request`] and checked.

use core::fmt;
use core::str::FromStr;
use std::time::Duration;

use ai2048_ai::{PlayerSpec, SearchLimits};
use ai2048_engine::{Board, Dir};
use serde_json::{Map, Value};

use crate::board::board_from_json;
use crate::json::{integer, kind, quote};

/// The longest time a `best` request may ask for, in milliseconds: one minute. Larger
/// `time_ms` values are capped to it, so that no request can stall a session for long.
pub const MAX_TIME_MS: f64 = 60_000.0;

/// The longest game clock a `best` request may give, in milliseconds: one hour.
/// Larger `clock_ms` values are capped to it.
pub const MAX_CLOCK_MS: f64 = 3_600_000.0;

/// The probability that a spawned tile is a 4 when a `spawns` request gives no `p4`.
pub const DEFAULT_FOUR_PROBABILITY: f64 = 0.1;

/// The operations, in the order error messages list them.
const OPS: &str = "apply, legal, spawns or best";

/// The directions, in the order error messages list them.
const DIRS: &str = "up, down, left or right";

/// One request: what to do, and the `id` to echo back.
///
/// ```
/// use ai2048_protocol::{Op, Request};
/// use ai2048_engine::Dir;
///
/// let req: Request = r#"{"op":"apply","board":[[2,2,0,0],[0,0,0,0],[0,0,0,0],[0,0,0,0]],"dir":"left","id":7}"#.parse()?;
/// assert_eq!(req.id, Some(serde_json::json!(7)));
/// assert!(matches!(req.op, Op::Apply { dir: Dir::Left, .. }));
///
/// let err = r#"{"op":"apply","dir":"sideways","board":[[0,0,0,0],[0,0,0,0],[0,0,0,0],[0,0,0,0]]}"#
///     .parse::<Request>()
///     .unwrap_err();
/// assert_eq!(err.message, r#"unknown direction "sideways": expected up, down, left or right"#);
/// # Ok::<(), ai2048_protocol::RequestError>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Request {
    /// The request's `id` field, any JSON value, echoed back in the answer.
    pub id: Option<Value>,
    /// What to do.
    pub op: Op,
}

/// What a request asks for.
#[derive(Clone, Debug, PartialEq)]
pub enum Op {
    /// `apply`: the board after a move, without a spawn, and the move's score.
    Apply {
        /// The board to move on.
        board: Board,
        /// The move.
        dir: Dir,
    },
    /// `legal`: the moves that change the board.
    Legal {
        /// The board to move on.
        board: Board,
    },
    /// `spawns`: every board the game may spawn from this one, with its probability.
    Spawns {
        /// The board to spawn on.
        board: Board,
        /// The probability that a spawned tile is a 4, from 0 to 1.
        p4: f64,
    },
    /// `best`: the move a player picks.
    Best {
        /// The board to move on.
        board: Board,
        /// The player, or `None` for the session's default.
        ai: Option<PlayerSpec>,
        /// The limits of the search; `time` is at most [`MAX_TIME_MS`].
        limits: SearchLimits,
    },
}

impl Op {
    /// The operation's name, as requests write it.
    #[must_use]
    pub fn name(&self) -> &'static str {
        match self {
            Op::Apply { .. } => "apply",
            Op::Legal { .. } => "legal",
            Op::Spawns { .. } => "spawns",
            Op::Best { .. } => "best",
        }
    }
}

/// Why a line is not a valid request, with the request's `id` when it could be read,
/// so that even the error answer carries it.
#[derive(Clone, Debug, PartialEq)]
pub struct RequestError {
    /// The request's `id`, when the line was a JSON object that had one.
    pub id: Option<Value>,
    /// What is wrong, and where.
    pub message: String,
}

impl RequestError {
    fn new(id: Option<&Value>, message: String) -> RequestError {
        RequestError {
            id: id.cloned(),
            message,
        }
    }
}

impl fmt::Display for RequestError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for RequestError {}

impl FromStr for Request {
    type Err = RequestError;

    /// Same as [`Request::parse`].
    fn from_str(line: &str) -> Result<Request, RequestError> {
        Request::parse(line)
    }
}

impl Request {
    /// Reads one line of JSON as a request and checks every field.
    ///
    /// # Errors
    ///
    /// When the line is not JSON, not an object, or any field is missing, unknown or
    /// invalid. The message says which, and where.
    pub fn parse(line: &str) -> Result<Request, RequestError> {
        let value: Value = serde_json::from_str(line)
            .map_err(|e| RequestError::new(None, format!("invalid JSON: {e}")))?;
        Request::from_json(value)
    }

    /// Checks a JSON value as a request.
    ///
    /// # Errors
    ///
    /// As [`Request::parse`], for everything but the JSON syntax.
    pub fn from_json(value: Value) -> Result<Request, RequestError> {
        let Value::Object(mut fields) = value else {
            return Err(RequestError::new(
                None,
                format!("a request must be a JSON object, found {}", kind(&value)),
            ));
        };
        let id = fields.remove("id");
        let op = read_op(&fields, id.as_ref())?;
        Ok(Request { op, id })
    }
}

/// The fields each operation takes besides `op` and `id`.
fn fields_of(op: &str) -> Option<&'static [&'static str]> {
    match op {
        "apply" => Some(&["board", "dir"]),
        "legal" => Some(&["board"]),
        "spawns" => Some(&["board", "p4"]),
        "best" => Some(&["board", "ai", "depth", "time_ms", "clock_ms"]),
        _ => None,
    }
}

fn read_op(fields: &Map<String, Value>, id: Option<&Value>) -> Result<Op, RequestError> {
    let fail = |message: String| RequestError::new(id, message);
    let name = match fields.get("op") {
        None => return Err(fail(format!("missing \"op\": expected {OPS}"))),
        Some(Value::String(name)) => name.as_str(),
        Some(other) => {
            return Err(fail(format!(
                "\"op\" must be a string ({OPS}), found {}",
                kind(other)
            )))
        }
    };
    let Some(known) = fields_of(name) else {
        return Err(fail(format!(
            "unknown op {}: expected {OPS}",
            quote(&Value::from(name))
        )));
    };
    if let Some(key) = fields
        .keys()
        .find(|k| k.as_str() != "op" && !known.contains(&k.as_str()))
    {
        return Err(fail(format!(
            "unknown field {} in a {name} request: it takes op, {}, and optionally id",
            quote(&Value::from(key.as_str())),
            known.join(", ")
        )));
    }
    let board = match fields.get("board") {
        None => {
            return Err(fail(
                "missing \"board\": expected 4 rows of 4 tiles".to_owned(),
            ))
        }
        Some(b) => board_from_json(b).map_err(fail)?,
    };
    // An optional field given as null counts as left out.
    let get = |key: &str| fields.get(key).filter(|v| !v.is_null());
    Ok(match name {
        "apply" => Op::Apply {
            board,
            dir: read_dir(get("dir")).map_err(fail)?,
        },
        "legal" => Op::Legal { board },
        "spawns" => Op::Spawns {
            board,
            p4: get("p4")
                .map_or(Ok(DEFAULT_FOUR_PROBABILITY), read_p4)
                .map_err(fail)?,
        },
        _ => Op::Best {
            board,
            ai: get("ai").map(read_ai).transpose().map_err(fail)?,
            limits: SearchLimits {
                depth: get("depth").map(read_depth).transpose().map_err(fail)?,
                time: get("time_ms")
                    .map(|v| read_millis(v, "time_ms", MAX_TIME_MS))
                    .transpose()
                    .map_err(fail)?,
                nodes: None,
                clock: get("clock_ms")
                    .map(|v| read_millis(v, "clock_ms", MAX_CLOCK_MS))
                    .transpose()
                    .map_err(fail)?,
            },
        },
    })
}

fn read_dir(value: Option<&Value>) -> Result<Dir, String> {
    let Some(value) = value else {
        return Err(format!("missing \"dir\": expected {DIRS}"));
    };
    let Value::String(name) = value else {
        return Err(format!(
            "\"dir\" must be a string ({DIRS}), found {}",
            kind(value)
        ));
    };
    Dir::from_name(name)
        .ok_or_else(|| format!("unknown direction {}: expected {DIRS}", quote(value)))
}

fn read_p4(value: &Value) -> Result<f64, String> {
    match value.as_f64() {
        Some(p) if (0.0..=1.0).contains(&p) => Ok(p),
        _ => Err(format!(
            "\"p4\" must be a probability from 0 to 1, found {}",
            quote(value)
        )),
    }
}

fn read_ai(value: &Value) -> Result<PlayerSpec, String> {
    let Value::String(text) = value else {
        return Err(format!(
            "\"ai\" must be a player spec string like \"greedy\", found {}",
            kind(value)
        ));
    };
    text.parse()
        .map_err(|e| format!("\"ai\" {}: {e}", quote(value)))
}

/// The deepest search a request may ask for: [`SearchLimits::MAX_DEPTH`], as everywhere.
pub const MAX_DEPTH: u32 = SearchLimits::MAX_DEPTH;

fn read_depth(value: &Value) -> Result<u32, String> {
    value
        .as_number()
        .and_then(integer)
        .and_then(|d| u32::try_from(d).ok())
        .filter(|&d| d <= MAX_DEPTH)
        .ok_or_else(|| {
            format!(
                "\"depth\" must be an integer from 0 to {MAX_DEPTH}, found {}",
                quote(value)
            )
        })
}

/// Reads field `key`, a time in milliseconds, capped at `max`.
fn read_millis(value: &Value, key: &str, max: f64) -> Result<Duration, String> {
    match value.as_f64() {
        Some(ms) if ms >= 0.0 => {
            let ms = ms.min(max);
            // At most 3.6e12 nanoseconds: exact enough, and `as` cannot overflow.
            Ok(Duration::from_nanos((ms * 1e6).round() as u64))
        }
        _ => Err(format!(
            "\"{key}\" must be a number of milliseconds, 0 or more, found {}",
            quote(value)
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const EMPTY: &str = "[[0,0,0,0],[0,0,0,0],[0,0,0,0],[0,0,0,0]]";

    fn parse(line: &str) -> Result<Request, RequestError> {
        Request::parse(&line.replace('B', EMPTY))
    }

    fn err(line: &str) -> String {
        parse(line).unwrap_err().message
    }

    /// Asserts that each line of `cases` is refused with its message.
    fn assert_errors(cases: &[(&str, &str)]) {
        for &(line, message) in cases {
            assert_eq!(err(line), message, "{line}");
        }
    }

    #[test]
    fn every_op() {
        let r = parse(r#"{"op":"apply","board":B,"dir":"down"}"#).unwrap();
        assert_eq!(
            r.op,
            Op::Apply {
                board: Board::EMPTY,
                dir: Dir::Down
            }
        );
        assert_eq!(r.id, None);
        let r = parse(r#"{"op":"legal","board":B}"#).unwrap();
        assert_eq!(
            r.op,
            Op::Legal {
                board: Board::EMPTY
            }
        );
        let r = parse(r#"{"op":"spawns","board":B}"#).unwrap();
        assert_eq!(
            r.op,
            Op::Spawns {
                board: Board::EMPTY,
                p4: 0.1
            }
        );
        let r = parse(r#"{"op":"spawns","board":B,"p4":0}"#).unwrap();
        assert!(matches!(r.op, Op::Spawns { p4, .. } if p4 == 0.0));
        let r = parse(r#"{"op":"best","board":B}"#).unwrap();
        assert_eq!(
            r.op,
            Op::Best {
                board: Board::EMPTY,
                ai: None,
                limits: SearchLimits::default()
            }
        );
        let r = parse(r#"{"op":"best","board":B,"ai":"random","depth":3,"time_ms":2.5,"id":"x"}"#)
            .unwrap();
        assert_eq!(r.id, Some(Value::from("x")));
        let Op::Best { ai, limits, .. } = r.op else {
            panic!("not best")
        };
        assert_eq!(ai, Some(PlayerSpec::new("random")));
        assert_eq!(limits.depth, Some(3));
        assert_eq!(limits.time, Some(Duration::from_micros(2500)));
    }

    #[test]
    fn nulls_are_left_out() {
        let r = parse(r#"{"op":"best","board":B,"ai":null,"depth":null,"time_ms":null}"#).unwrap();
        assert!(
            matches!(r.op, Op::Best { ai: None, limits, .. } if limits == SearchLimits::default())
        );
        let r = parse(r#"{"op":"spawns","board":B,"p4":null}"#).unwrap();
        assert!(matches!(r.op, Op::Spawns { p4, .. } if p4 == 0.1));
    }

    #[test]
    fn time_is_capped() {
        let r = parse(r#"{"op":"best","board":B,"time_ms":1e12}"#).unwrap();
        let Op::Best { limits, .. } = r.op else {
            panic!("not best")
        };
        assert_eq!(limits.time, Some(Duration::from_secs(60)));
        let r = parse(r#"{"op":"best","board":B,"time_ms":0}"#).unwrap();
        let Op::Best { limits, .. } = r.op else {
            panic!("not best")
        };
        assert_eq!(limits.time, Some(Duration::ZERO));
        let r = parse(r#"{"op":"best","board":B,"clock_ms":1e12}"#).unwrap();
        let Op::Best { limits, .. } = r.op else {
            panic!("not best")
        };
        assert_eq!(limits.clock, Some(Duration::from_secs(3600)));
        assert_eq!(limits.time, None);
        let r = parse(r#"{"op":"best","board":B,"clock_ms":180000,"time_ms":null}"#).unwrap();
        let Op::Best { limits, .. } = r.op else {
            panic!("not best")
        };
        assert_eq!(limits.clock, Some(Duration::from_secs(180)));
    }

    #[test]
    fn malformed_lines() {
        assert!(err("{").starts_with("invalid JSON: "));
        assert!(err("hello").starts_with("invalid JSON: "));
        assert!(err(r#"{"op":"legal","board":B} trailing"#).starts_with("invalid JSON: "));
        assert_errors(&[
            ("[1,2]", "a request must be a JSON object, found an array"),
            ("3", "a request must be a JSON object, found a number"),
            ("null", "a request must be a JSON object, found null"),
        ]);
    }

    #[test]
    fn bad_ops() {
        assert_errors(&[
            (r#"{"board":B}"#, "missing \"op\": expected apply, legal, spawns or best"),
            (r#"{"op":3,"board":B}"#, "\"op\" must be a string (apply, legal, spawns or best), found a number"),
            (r#"{"op":"fly","board":B}"#, "unknown op \"fly\": expected apply, legal, spawns or best"),
            (r#"{"op":"APPLY","board":B}"#, "unknown op \"APPLY\": expected apply, legal, spawns or best"),
            (r#"{"op":"legal","board":B,"dir":"up"}"#, "unknown field \"dir\" in a legal request: it takes op, board, and optionally id"),
            (r#"{"op":"best","board":B,"dpeth":3}"#, "unknown field \"dpeth\" in a best request: it takes op, board, ai, depth, time_ms, clock_ms, and optionally id"),
        ]);
    }

    #[test]
    fn bad_fields() {
        assert_eq!(
            err(r#"{"op":"legal"}"#),
            "missing \"board\": expected 4 rows of 4 tiles"
        );
        assert_eq!(
            err(r#"{"op":"apply","board":B}"#),
            "missing \"dir\": expected up, down, left or right"
        );
        assert_eq!(
            err(r#"{"op":"apply","board":B,"dir":"north"}"#),
            "unknown direction \"north\": expected up, down, left or right"
        );
        assert_eq!(
            err(r#"{"op":"apply","board":B,"dir":"Left"}"#),
            "unknown direction \"Left\": expected up, down, left or right"
        );
        assert_eq!(
            err(r#"{"op":"apply","board":B,"dir":2}"#),
            "\"dir\" must be a string (up, down, left or right), found a number"
        );
        for p4 in ["1.5", "-0.1", "\"0.1\"", "true"] {
            assert_eq!(
                err(&format!(r#"{{"op":"spawns","board":B,"p4":{p4}}}"#)),
                format!("\"p4\" must be a probability from 0 to 1, found {p4}")
            );
        }
        for depth in ["21", "-1", "2.5", "\"3\"", "4294967296"] {
            assert_eq!(
                err(&format!(r#"{{"op":"best","board":B,"depth":{depth}}}"#)),
                format!("\"depth\" must be an integer from 0 to 20, found {depth}")
            );
        }
        for t in ["-1", "\"5\"", "[]"] {
            for key in ["time_ms", "clock_ms"] {
                assert_eq!(
                    err(&format!(r#"{{"op":"best","board":B,"{key}":{t}}}"#)),
                    format!("\"{key}\" must be a number of milliseconds, 0 or more, found {t}")
                );
            }
        }
        assert_eq!(
            err(r#"{"op":"best","board":B,"ai":7}"#),
            "\"ai\" must be a player spec string like \"greedy\", found a number"
        );
        assert_eq!(
            err(r#"{"op":"best","board":B,"ai":""}"#),
            "\"ai\" \"\": empty player name"
        );
    }

    #[test]
    fn errors_keep_the_id() {
        let e = parse(r#"{"op":"fly","id":[1,"a"]}"#).unwrap_err();
        assert_eq!(e.id, Some(serde_json::json!([1, "a"])));
        let e = parse(r#"{"op":"legal","board":[[3]],"id":5}"#).unwrap_err();
        assert_eq!(e.id, Some(serde_json::json!(5)));
        assert_eq!(e.message, "board must have 4 rows, found 1");
        assert_eq!(e.to_string(), e.message);
    }
}
