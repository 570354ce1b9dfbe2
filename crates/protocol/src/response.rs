//! Answers: a typed [`Response`], written as one line of compact JSON.

use ai2048_ai::TableUse;
use ai2048_engine::{Board, Dir, DirSet};
use serde::Serialize;
use serde_json::Value;

use crate::board::board_to_json;

/// The answer to one request.
///
/// ```
/// use ai2048_engine::{Dir, DirSet};
/// use ai2048_protocol::Response;
///
/// let legal = Response::Legal { dirs: DirSet::EMPTY.with(Dir::Left).with(Dir::Up) };
/// assert_eq!(legal.to_line(None), r#"{"dirs":["up","left"]}"#);
/// let error = Response::Error("unknown op \"fly\"".to_owned());
/// assert_eq!(error.to_line(Some(&serde_json::json!(3))), r#"{"id":3,"error":"unknown op \"fly\""}"#);
/// ```
#[derive(Clone, Debug, PartialEq)]
pub enum Response {
    /// `apply`: `{"board":B,"score":N,"moved":true}`.
    Apply {
        /// The board after the move (unchanged when the move is illegal).
        board: Board,
        /// What the move scores: the sum of the merged tiles (0 when illegal).
        score: u32,
        /// Whether the move changed the board.
        moved: bool,
    },
    /// `legal`: `{"dirs":["up","left"]}`, in the order up, down, left, right.
    Legal {
        /// The legal moves.
        dirs: DirSet,
    },
    /// `spawns`: `{"spawns":[{"p":0.06,"board":B},...]}`.
    Spawns {
        /// Every successor as `(probability, board)`: for each empty cell in reading
        /// order, the 2 then the 4. Empty for a full board.
        spawns: Vec<(f64, Board)>,
    },
    /// `best`: `{"dir":"left","value":...,"depth":...,"nodes":...,"values":{...}}`, or
    /// `{"dir":null}` (`None`) when no move is legal.
    Best(Option<BestMove>),
    /// Any request that could not be served: `{"error":"what is wrong"}`.
    Error(String),
}

/// The move a player picked, with what its search found.
#[derive(Clone, Debug, PartialEq)]
pub struct BestMove {
    /// The move.
    pub dir: Dir,
    /// Its value, on the player's own scale.
    pub value: f64,
    /// The depth the search reached (0 for players that do not search).
    pub depth: u32,
    /// The nodes the search visited.
    pub nodes: u64,
    /// The value of each move in the order up, down, left, right; `None` (written
    /// `null`) for an illegal move or one the player did not value.
    pub values: [Option<f64>; 4],
    /// What an endgame table had to do with the move, written `"table"` only when one
    /// matched the board: `"kept"` (the searched move stands), `"played"` (the table
    /// overruled it) or `"decided"` (the table's move, without a search). Where the
    /// table's move is played, `value` and `values` are its probabilities of making
    /// its target.
    pub table: TableUse,
    /// The endgame table that matched the board, by name (as `block10-512`), written
    /// `"table_name"` beside `"table"`; `None` where none matched.
    pub table_name: Option<String>,
    /// Whether the table that matched keeps its odds, so that where its move is played
    /// `value` and `values` are its probabilities. `false`, written `"table_odds":false`
    /// (and only then), for a table of moves, which keeps each state's best move
    /// alone: its move is valued 1 and every other move of its world 0, no odds.
    pub table_odds: bool,
}

/// What is written if an answer cannot be serialized, which should never happen.
const FALLBACK: &str = r#"{"error":"internal error: the answer could not be written"}"#;

#[derive(Serialize)]
struct Line<'a, T> {
    #[serde(skip_serializing_if = "Option::is_none")]
    id: Option<&'a Value>,
    #[serde(flatten)]
    body: T,
}

#[derive(Serialize)]
struct ApplyBody {
    board: [[u32; 4]; 4],
    score: u32,
    moved: bool,
}

#[derive(Serialize)]
struct LegalBody {
    dirs: Vec<&'static str>,
}

#[derive(Serialize)]
struct SpawnBody {
    p: f64,
    board: [[u32; 4]; 4],
}

#[derive(Serialize)]
struct SpawnsBody {
    spawns: Vec<SpawnBody>,
}

#[derive(Serialize)]
struct NoMoveBody {
    dir: Option<&'static str>,
}

#[derive(Serialize)]
struct BestBody<'a> {
    dir: &'static str,
    value: f64,
    depth: u32,
    nodes: u64,
    values: DirValues,
    #[serde(skip_serializing_if = "Option::is_none")]
    table: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    table_name: Option<&'a str>,
    #[serde(skip_serializing_if = "is_true")]
    table_odds: bool,
}

/// Whether `b` is true: `"table_odds"` is written only where it is false.
fn is_true(b: &bool) -> bool {
    *b
}

#[derive(Serialize)]
struct DirValues {
    up: Option<f64>,
    down: Option<f64>,
    left: Option<f64>,
    right: Option<f64>,
}

#[derive(Serialize)]
struct ErrorBody<'a> {
    error: &'a str,
}

fn line<T: Serialize>(id: Option<&Value>, body: T) -> String {
    serde_json::to_string(&Line { id, body }).unwrap_or_else(|_| FALLBACK.to_owned())
}

impl Response {
    /// The answer as one line of compact JSON (without the newline), with `"id"` first
    /// when the request had one. Values that JSON cannot hold (NaN, infinities) are
    /// written `null`.
    #[must_use]
    pub fn to_line(&self, id: Option<&Value>) -> String {
        match self {
            Response::Apply {
                board,
                score,
                moved,
            } => line(
                id,
                ApplyBody {
                    board: board_to_json(*board),
                    score: *score,
                    moved: *moved,
                },
            ),
            Response::Legal { dirs } => line(
                id,
                LegalBody {
                    dirs: dirs.iter().map(Dir::name).collect(),
                },
            ),
            Response::Spawns { spawns } => line(
                id,
                SpawnsBody {
                    spawns: spawns
                        .iter()
                        .map(|&(p, b)| SpawnBody {
                            p,
                            board: board_to_json(b),
                        })
                        .collect(),
                },
            ),
            Response::Best(None) => line(id, NoMoveBody { dir: None }),
            Response::Best(Some(best)) => line(
                id,
                BestBody {
                    dir: best.dir.name(),
                    value: best.value,
                    depth: best.depth,
                    nodes: best.nodes,
                    values: DirValues {
                        up: best.values[Dir::Up.index()],
                        down: best.values[Dir::Down.index()],
                        left: best.values[Dir::Left.index()],
                        right: best.values[Dir::Right.index()],
                    },
                    table: best.table.name(),
                    table_name: best.table_name.as_deref(),
                    table_odds: best.table_odds,
                },
            ),
            Response::Error(message) => line(id, ErrorBody { error: message }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn lines() {
        let board = Board::from_rows([[2, 0, 0, 0], [0; 4], [0; 4], [0; 4]]).unwrap();
        assert_eq!(
            Response::Apply {
                board,
                score: 0,
                moved: false
            }
            .to_line(None),
            r#"{"board":[[2,0,0,0],[0,0,0,0],[0,0,0,0],[0,0,0,0]],"score":0,"moved":false}"#
        );
        assert_eq!(
            Response::Legal {
                dirs: DirSet::EMPTY
            }
            .to_line(Some(&json!("a"))),
            r#"{"id":"a","dirs":[]}"#
        );
        assert_eq!(
            Response::Spawns { spawns: vec![] }.to_line(Some(&json!(null))),
            r#"{"id":null,"spawns":[]}"#
        );
        assert_eq!(
            Response::Spawns {
                spawns: vec![(0.5, board)]
            }
            .to_line(None),
            r#"{"spawns":[{"p":0.5,"board":[[2,0,0,0],[0,0,0,0],[0,0,0,0],[0,0,0,0]]}]}"#
        );
        assert_eq!(Response::Best(None).to_line(None), r#"{"dir":null}"#);
        let best = BestMove {
            dir: Dir::Down,
            value: f64::NAN,
            depth: 2,
            nodes: 10,
            values: [None, Some(1.5), None, Some(f64::INFINITY)],
            table: TableUse::None,
            table_name: None,
            table_odds: true,
        };
        assert_eq!(
            Response::Best(Some(best.clone())).to_line(Some(&json!({"k": [1]}))),
            r#"{"id":{"k":[1]},"dir":"down","value":null,"depth":2,"nodes":10,"values":{"up":null,"down":1.5,"left":null,"right":null}}"#
        );
        let decided = BestMove {
            value: 0.75,
            depth: 0,
            nodes: 0,
            values: [None, Some(0.75), None, Some(0.5)],
            table: TableUse::Decided,
            table_name: Some("block10-512".to_owned()),
            ..best
        };
        assert_eq!(
            Response::Best(Some(decided.clone())).to_line(None),
            r#"{"dir":"down","value":0.75,"depth":0,"nodes":0,"values":{"up":null,"down":0.75,"left":null,"right":0.5},"table":"decided","table_name":"block10-512"}"#
        );
        let moves = BestMove {
            value: 1.0,
            values: [None, Some(1.0), None, Some(0.0)],
            table_name: Some("open10-512".to_owned()),
            table_odds: false,
            ..decided
        };
        assert_eq!(
            Response::Best(Some(moves)).to_line(None),
            r#"{"dir":"down","value":1.0,"depth":0,"nodes":0,"values":{"up":null,"down":1.0,"left":null,"right":0.0},"table":"decided","table_name":"open10-512","table_odds":false}"#
        );
        assert_eq!(
            Response::Error("a \"quoted\"\nline".to_owned()).to_line(None),
            r#"{"error":"a \"quoted\"\nline"}"#
        );
    }
}
