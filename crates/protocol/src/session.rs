//! A session: answers requests one after another, keeping the players it created.

use std::collections::hash_map::Entry;
use std::collections::HashMap;
use std::panic::{catch_unwind, AssertUnwindSafe};

use ai2048_ai::{
    create_player, Player, PlayerError, PlayerSpec, SearchLimits, DEFAULT_PLAYER, PLAYERS,
};
use ai2048_engine::{Board, Dir, RandableBoard};

use crate::request::{Op, Request};
use crate::response::{BestMove, Response};

/// The most players a session keeps at once. When a new one would go past it, the
/// session forgets them all and starts over, so that a client naming ever new player
/// specs cannot make it grow without end.
pub const MAX_CACHED_PLAYERS: usize = 16;

/// Serves requests one after another.
///
/// A session keeps the players that `best` requests create, one per player spec
/// (written in its canonical form, so `"greedy"` and `" greedy "` share one), so that
/// repeated requests do not rebuild them; a player may also keep what it learned
/// between requests. Players draw their randomness from the session's seed.
///
/// ```
/// use ai2048_protocol::Session;
///
/// let mut session = Session::new("greedy")?;
/// let empty = "[[0,0,0,0],[0,0,0,0],[0,0,0,0],[0,0,0,0]]";
/// let answer = session.handle_line(&format!(r#"{{"op":"legal","board":{empty},"id":1}}"#));
/// assert_eq!(answer.as_deref(), Some(r#"{"id":1,"dirs":[]}"#));
/// assert_eq!(session.handle_line("   "), None);
/// # Ok::<(), ai2048_ai::PlayerError>(())
/// ```
pub struct Session {
    default_ai: PlayerSpec,
    seed: u64,
    players: HashMap<String, Box<dyn Player>>,
}

impl Default for Session {
    /// A session whose default player is [`DEFAULT_PLAYER`], with seed 0.
    fn default() -> Session {
        Session {
            default_ai: PlayerSpec::new(DEFAULT_PLAYER),
            seed: 0,
            players: HashMap::new(),
        }
    }
}

impl Session {
    /// A session whose `best` requests use the player `default_ai` (a spec such as
    /// `"greedy"` or `"random"`) when they name none. The player is created at once.
    ///
    /// # Errors
    ///
    /// When `default_ai` is not a valid player spec, or names no known player.
    pub fn new(default_ai: &str) -> Result<Session, PlayerError> {
        Session::with_seed(default_ai, 0)
    }

    /// Like [`Session::new`], with the seed the players draw their randomness from.
    ///
    /// # Errors
    ///
    /// As [`Session::new`].
    pub fn with_seed(default_ai: &str, seed: u64) -> Result<Session, PlayerError> {
        let default_ai: PlayerSpec = default_ai.parse()?;
        let mut session = Session {
            default_ai,
            seed,
            players: HashMap::new(),
        };
        let spec = session.default_ai.clone();
        session.player(&spec)?;
        Ok(session)
    }

    /// The player `best` requests use when they name none.
    #[must_use]
    pub fn default_ai(&self) -> &PlayerSpec {
        &self.default_ai
    }

    /// Answers one line of input: `None` for a blank line (which gets no answer),
    /// else one line of compact JSON without its newline. Never panics; any problem
    /// is answered with `{"error":"..."}`.
    pub fn handle_line(&mut self, line: &str) -> Option<String> {
        let line = line.trim_start_matches('\u{feff}').trim();
        if line.is_empty() {
            return None;
        }
        Some(match Request::parse(line) {
            Ok(request) => self.handle(&request.op).to_line(request.id.as_ref()),
            Err(e) => Response::Error(e.message).to_line(e.id.as_ref()),
        })
    }

    /// Like [`Session::handle_line`], for a line read as bytes (its newline may be
    /// left on). A line that is not UTF-8 is answered with an error.
    pub fn handle_bytes(&mut self, line: &[u8]) -> Option<String> {
        match core::str::from_utf8(line) {
            Ok(text) => self.handle_line(text),
            Err(e) => {
                let at = e.valid_up_to();
                Some(
                    Response::Error(format!(
                        "the line is not valid UTF-8: byte {} starts an invalid sequence",
                        at + 1
                    ))
                    .to_line(None),
                )
            }
        }
    }

    /// Answers one request.
    pub fn handle(&mut self, op: &Op) -> Response {
        match *op {
            Op::Apply { board, dir } => {
                let (after, score) = board.shift_scored(dir);
                let moved = after != board;
                Response::Apply {
                    board: after,
                    score: if moved { score } else { 0 },
                    moved,
                }
            }
            Op::Legal { board } => Response::Legal {
                dirs: board.legal_dirs(),
            },
            Op::Spawns { board, p4 } => Response::Spawns {
                spawns: RandableBoard::new(board)
                    .map(|b| b.successors(p4).map(|(p, s)| (p, s.board())).collect())
                    .unwrap_or_default(),
            },
            Op::Best {
                board,
                ref ai,
                ref limits,
            } => {
                let spec = ai.clone().unwrap_or_else(|| self.default_ai.clone());
                self.best(board, &spec, limits)
            }
        }
    }

    fn best(&mut self, board: Board, spec: &PlayerSpec, limits: &SearchLimits) -> Response {
        let legal = board.legal_dirs();
        if legal.is_empty() {
            return Response::Best(None);
        }
        let key = spec.to_string();
        let player = match self.player(spec) {
            Ok(p) => p,
            Err(e) => return Response::Error(e.to_string()),
        };
        // A player is code the protocol does not control: a panic in it becomes an
        // error answer, and the player, whose state may be broken, is dropped.
        let Ok(result) = catch_unwind(AssertUnwindSafe(|| player.search(board, limits))) else {
            self.players.remove(&key);
            return Response::Error(format!("player {key} failed on this board"));
        };
        match result.dir {
            Some(dir) if legal.contains(dir) => Response::Best(Some(BestMove {
                dir,
                value: result.value,
                depth: result.depth,
                nodes: result.nodes,
                values: result.dir_values,
                table: result.table,
                table_name: player.table_name().map(str::to_owned),
                table_odds: player.table_keeps_odds(),
            })),
            Some(dir) => Response::Error(format!(
                "player {key} chose {dir}, which is not a legal move here"
            )),
            None => Response::Error(format!(
                "player {key} chose no move, but {} legal",
                legal_list(legal.iter())
            )),
        }
    }

    /// The cached player for `spec`, created if needed.
    fn player(&mut self, spec: &PlayerSpec) -> Result<&mut Box<dyn Player>, PlayerError> {
        let key = spec.to_string();
        let new = if self.players.contains_key(&key) {
            None
        } else {
            let player = create_player(&answering(spec), self.seed)?;
            if self.players.len() >= MAX_CACHED_PLAYERS {
                self.players.clear();
            }
            Some(player)
        };
        Ok(match self.players.entry(key) {
            Entry::Occupied(e) => e.into_mut(),
            Entry::Vacant(e) => e.insert(match new {
                Some(player) => player,
                None => create_player(&answering(spec), self.seed)?,
            }),
        })
    }

    /// How many players the session keeps now.
    #[must_use]
    pub fn cached_players(&self) -> usize {
        self.players.len()
    }
}

/// `"up is"` or `"up, left are"`.
fn legal_list(dirs: impl Iterator<Item = Dir>) -> String {
    let names: Vec<&str> = dirs.map(Dir::name).collect();
    let verb = if names.len() == 1 { "is" } else { "are" };
    format!("{} {verb}", names.join(", "))
}

/// `spec` as a session plays it: each request is one answer within its own limits, so
/// a player that would bank the time a move leaves unused for later moves (the
/// formation player's default, for whole games) does not, unless the spec asks.
fn answering(spec: &PlayerSpec) -> PlayerSpec {
    let banks = PLAYERS
        .iter()
        .any(|p| p.name == spec.name && p.options.iter().any(|(k, _)| *k == "time-bank"));
    let mut spec = spec.clone();
    if banks && spec.option("time-bank").is_none() {
        spec.options.push(("time-bank".into(), "false".into()));
    }
    spec
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{json, Value};

    #[test]
    fn a_session_answers_each_request_within_its_own_time_unless_a_bank_is_asked_for() {
        let answering = |text: &str| answering(&text.parse().unwrap()).to_string();
        assert_eq!(answering("expectimax"), "expectimax:time-bank=false");
        assert_eq!(
            answering("expectimax:time-bank=true"),
            "expectimax:time-bank=true"
        );
        assert_eq!(answering("greedy"), "greedy");
    }

    fn ask(session: &mut Session, request: Value) -> Value {
        let answer = session
            .handle_line(&request.to_string())
            .expect("an answer");
        assert!(!answer.contains('\n'), "one line: {answer}");
        serde_json::from_str(&answer).expect("the answer is JSON")
    }

    fn error(session: &mut Session, line: &str) -> String {
        let answer: Value =
            serde_json::from_str(&session.handle_line(line).expect("an answer")).unwrap();
        answer["error"]
            .as_str()
            .unwrap_or_else(|| panic!("not an error: {answer}"))
            .to_owned()
    }

    fn greedy() -> Session {
        Session::new("greedy").expect("greedy exists")
    }

    const STUCK: [[u32; 4]; 4] = [[2, 4, 2, 4], [4, 2, 4, 2], [2, 4, 2, 4], [4, 2, 4, 2]];

    #[test]
    fn apply_moves_and_scores() {
        let mut s = greedy();
        let a = ask(
            &mut s,
            json!({"op":"apply","board":[[2,2,4,0],[0,0,0,0],[0,0,0,0],[0,0,0,2]],"dir":"left"}),
        );
        assert_eq!(
            a,
            json!({"board":[[4,4,0,0],[0,0,0,0],[0,0,0,0],[2,0,0,0]],"score":4,"moved":true})
        );
        let a = ask(
            &mut s,
            json!({"op":"apply","board":[[2,0,0,0],[4,0,0,0],[0,0,0,0],[0,0,0,0]],"dir":"down"}),
        );
        assert_eq!(
            a,
            json!({"board":[[0,0,0,0],[0,0,0,0],[2,0,0,0],[4,0,0,0]],"score":0,"moved":true})
        );
    }

    #[test]
    fn apply_illegal_changes_nothing() {
        let mut s = greedy();
        let board = json!([[2, 4, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]]);
        let a = ask(&mut s, json!({"op":"apply","board":board,"dir":"left"}));
        assert_eq!(a, json!({"board":board,"score":0,"moved":false}));
        let a = ask(&mut s, json!({"op":"apply","board":STUCK,"dir":"up"}));
        assert_eq!(a, json!({"board":STUCK,"score":0,"moved":false}));
    }

    #[test]
    fn apply_reaches_the_largest_tiles() {
        let mut s = greedy();
        let row = |tiles: [u32; 4]| [tiles, [0; 4], [0; 4], [0; 4]];
        // (the board, the move, the board after it, its score)
        let cases = [
            (
                row([32768, 32768, 0, 0]),
                "left",
                row([65536, 0, 0, 0]),
                65536,
            ),
            (
                [[0, 0, 0, 65536], [0, 0, 0, 65536], [0; 4], [0, 0, 0, 2]],
                "down",
                [[0; 4], [0; 4], [0, 0, 0, 131072], [0, 0, 0, 2]],
                131072,
            ),
            (
                row([131072, 65536, 32768, 32768]),
                "right",
                row([0, 131072, 65536, 65536]),
                65536,
            ),
        ];
        for (board, dir, after, score) in cases {
            let a = ask(&mut s, json!({"op":"apply","board":board,"dir":dir}));
            assert_eq!(a, json!({"board":after,"score":score,"moved":true}));
        }
    }

    #[test]
    fn legal_in_order() {
        let mut s = greedy();
        let a = ask(
            &mut s,
            json!({"op":"legal","board":[[0,0,0,0],[0,2,0,0],[0,0,0,0],[0,0,0,0]]}),
        );
        assert_eq!(a, json!({"dirs":["up","down","left","right"]}));
        let a = ask(
            &mut s,
            json!({"op":"legal","board":[[2,0,0,0],[0,0,0,0],[0,0,0,0],[0,0,0,0]]}),
        );
        assert_eq!(a, json!({"dirs":["down","right"]}));
        assert_eq!(
            ask(&mut s, json!({"op":"legal","board":STUCK})),
            json!({"dirs":[]})
        );
    }

    fn spawns(s: &mut Session, request: Value) -> Vec<(f64, Value)> {
        let a = ask(s, request);
        a["spawns"]
            .as_array()
            .unwrap_or_else(|| panic!("no spawns: {a}"))
            .iter()
            .map(|x| (x["p"].as_f64().unwrap(), x["board"].clone()))
            .collect()
    }

    #[test]
    fn spawns_sum_to_one() {
        let mut s = greedy();
        let board = json!([
            [2, 4, 8, 16],
            [32, 64, 128, 256],
            [512, 1024, 2048, 0],
            [0, 0, 0, 0]
        ]);
        let list = spawns(&mut s, json!({"op":"spawns","board":board}));
        assert_eq!(list.len(), 10);
        let total: f64 = list.iter().map(|(p, _)| p).sum();
        assert!((total - 1.0).abs() < 1e-12, "{total}");
        assert!((list[0].0 - 0.18).abs() < 1e-12);
        assert!((list[1].0 - 0.02).abs() < 1e-12);
        assert_eq!(list[0].1[2], json!([512, 1024, 2048, 2]));
        assert_eq!(list[1].1[2], json!([512, 1024, 2048, 4]));
        assert_eq!(list[9].1[3], json!([0, 0, 0, 4]));

        let list = spawns(&mut s, json!({"op":"spawns","board":board,"p4":0.5}));
        assert_eq!(list.len(), 10);
        assert!(list.iter().all(|(p, _)| (p - 0.1).abs() < 1e-12));

        let list = spawns(&mut s, json!({"op":"spawns","board":board,"p4":0}));
        assert_eq!(list.len(), 5);
        assert!(list.iter().all(|(p, _)| (p - 0.2).abs() < 1e-12));
        assert!(list
            .iter()
            .all(|(_, b)| !b.to_string().contains('4') || b[0][1] == 4));

        let list = spawns(&mut s, json!({"op":"spawns","board":board,"p4":1}));
        assert_eq!(list.len(), 5);
        let total: f64 = list.iter().map(|(p, _)| p).sum();
        assert!((total - 1.0).abs() < 1e-12);

        let empty = spawns(
            &mut s,
            json!({"op":"spawns","board":[[0,0,0,0],[0,0,0,0],[0,0,0,0],[0,0,0,0]]}),
        );
        assert_eq!(empty.len(), 32);
        let total: f64 = empty.iter().map(|(p, _)| p).sum();
        assert!((total - 1.0).abs() < 1e-12);
    }

    #[test]
    fn a_full_board_has_no_spawns() {
        let mut s = greedy();
        assert_eq!(
            ask(&mut s, json!({"op":"spawns","board":STUCK})),
            json!({"spawns":[]})
        );
        let mergeable = json!([[2, 2, 4, 8], [4, 8, 16, 32], [2, 4, 8, 16], [4, 8, 16, 32]]);
        assert_eq!(
            ask(&mut s, json!({"op":"spawns","board":mergeable,"id":"f"})),
            json!({"id":"f","spawns":[]})
        );
    }

    #[test]
    fn best_with_named_players() {
        let mut s = Session::new("greedy").unwrap();
        let corner = json!([[0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 1024]]);
        let a = ask(&mut s, json!({"op":"best","board":corner}));
        assert_eq!(a["dir"], "up");
        assert_eq!(a["depth"], 1);
        assert!(a["nodes"].as_u64().is_some());
        assert!(a["value"].as_f64().is_some());
        assert_eq!(a["values"]["up"], a["value"]);
        assert_eq!(a["values"]["down"], Value::Null);
        assert_eq!(a["values"]["right"], Value::Null);
        assert!(a["values"]["left"].as_f64().is_some());

        let only_down = json!([[2, 0, 0, 0], [4, 0, 0, 0], [8, 0, 0, 0], [0, 0, 0, 0]]);
        for _ in 0..10 {
            let a = ask(
                &mut s,
                json!({"op":"best","board":only_down,"ai":"random","depth":2,"time_ms":5,"id":9}),
            );
            assert_eq!(a["id"], 9);
            assert!(a["dir"] == "down" || a["dir"] == "right", "{a}");
        }
        assert_eq!(s.cached_players(), 2);
        ask(&mut s, json!({"op":"best","board":corner,"ai":" random "}));
        assert_eq!(s.cached_players(), 2);
    }

    #[test]
    fn best_with_the_default_player() {
        let mut s = Session::default();
        assert_eq!(s.default_ai().name, DEFAULT_PLAYER);
        let board = json!([[2, 4, 2, 4], [4, 2, 4, 2], [2, 4, 2, 4], [8, 8, 16, 32]]);
        let a = ask(
            &mut s,
            json!({"op":"best","board":board,"depth":1,"time_ms":50}),
        );
        assert!(a["dir"] == "left" || a["dir"] == "right", "{a}");
        assert_eq!(s.cached_players(), 1);
    }

    #[test]
    fn best_without_a_move() {
        let mut s = Session::default();
        assert_eq!(
            ask(&mut s, json!({"op":"best","board":STUCK})),
            json!({"dir":null})
        );
        assert_eq!(
            ask(
                &mut s,
                json!({"op":"best","board":STUCK,"ai":"random","id":[1]})
            ),
            json!({"id":[1],"dir":null})
        );
    }

    #[test]
    fn best_with_a_bad_player() {
        let mut s = greedy();
        let board = json!([[2, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]]);
        let a = ask(
            &mut s,
            json!({"op":"best","board":board,"ai":"nope","id":2}),
        );
        assert_eq!(a["id"], 2);
        let message = a["error"].as_str().unwrap();
        assert!(
            message.starts_with("unknown player \"nope\": expected one of ")
                && message.contains("greedy"),
            "{message}"
        );
        let a = ask(
            &mut s,
            json!({"op":"best","board":board,"ai":"random:bogus=3"}),
        );
        assert!(
            a["error"]
                .as_str()
                .unwrap()
                .starts_with("player random has no option \"bogus\""),
            "{a}"
        );
        let a = ask(
            &mut s,
            json!({"op":"best","board":board,"ai":"greedy:depth"}),
        );
        assert_eq!(
            a["error"],
            "\"ai\" \"greedy:depth\": player option \"depth\" is not KEY=VALUE"
        );
        assert_eq!(s.cached_players(), 1, "only the default player is kept");
        assert!(Session::new("nope").is_err());
        assert!(Session::new("").is_err());
        assert_eq!(Session::new("random").unwrap().default_ai().name, "random");
    }

    #[test]
    fn the_player_cache_is_bounded() {
        let mut s = greedy();
        let board = json!([[2, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]]);
        // Only valid specs are kept; there are few today, so fill the cache by hand.
        for i in 0..MAX_CACHED_PLAYERS + 3 {
            let spec = PlayerSpec::new(if i % 2 == 0 { "greedy" } else { "random" });
            let key = format!("{spec}#{i}");
            if s.players.len() >= MAX_CACHED_PLAYERS {
                s.players.clear();
            }
            s.players.insert(key, create_player(&spec, 0).unwrap());
        }
        assert!(s.cached_players() <= MAX_CACHED_PLAYERS);
        ask(&mut s, json!({"op":"best","board":board}));
        assert!(s.cached_players() <= MAX_CACHED_PLAYERS);
    }

    #[test]
    fn ids_are_echoed() {
        let mut s = greedy();
        let board = json!([[2, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]]);
        for id in [
            json!(1),
            json!("abc"),
            json!(null),
            json!({"a":[1,2]}),
            json!(2.5),
            json!(1.1223368510807325e-164),
            json!(-7),
        ] {
            for request in [
                json!({"op":"apply","board":board,"dir":"right","id":id}),
                json!({"op":"legal","board":board,"id":id}),
                json!({"op":"spawns","board":board,"id":id}),
                json!({"op":"best","board":board,"id":id}),
                json!({"op":"fly","board":board,"id":id}),
                json!({"op":"legal","board":[[3]],"id":id}),
            ] {
                let line = request.to_string();
                let a = s.handle_line(&line).unwrap();
                assert!(a.starts_with(&format!("{{\"id\":{id},")), "{a}");
            }
        }
        // Without an id there is none in the answer.
        let a = ask(&mut s, json!({"op":"legal","board":board}));
        assert!(a.get("id").is_none());
    }

    #[test]
    fn bad_input_of_every_kind() {
        let mut s = greedy();
        let expected = "(expected 0 or a power of two from 2 to 131072)";
        let cases: &[(&str, String)] = &[
            (
                "{",
                "invalid JSON: EOF while parsing an object at line 1 column 1".into(),
            ),
            (
                "not json",
                "invalid JSON: expected ident at line 1 column 2".into(),
            ),
            (
                "[]",
                "a request must be a JSON object, found an array".into(),
            ),
            (
                "\"legal\"",
                "a request must be a JSON object, found a string".into(),
            ),
            (
                r#"{"op":"fly"}"#,
                "unknown op \"fly\": expected apply, legal, spawns or best".into(),
            ),
            (
                r#"{"op":"apply","board":[[0,0,0,0],[0,0,0,0],[0,0,0,0],[0,0,0,2]],"dir":"north"}"#,
                "unknown direction \"north\": expected up, down, left or right".into(),
            ),
            (
                r#"{"op":"legal","board":[[0,0,0,0],[0,0,0,0],[0,0,0,0]]}"#,
                "board must have 4 rows, found 3".into(),
            ),
            (
                r#"{"op":"legal","board":[[0,0,0,0],[0,0,0,0],[0,0,0,0],[0,0,0]]}"#,
                "board row 4 has 3 tiles, expected 4".into(),
            ),
            (
                r#"{"op":"legal","board":"0000000000000000"}"#,
                "board must be an array of 4 rows of 4 tiles, found a string".into(),
            ),
            (
                r#"{"op":"legal","board":[[0,0,0,0],[0,0,3,0],[0,0,0,0],[0,0,0,0]]}"#,
                format!("board row 2, column 3: 3 is not a tile {expected}"),
            ),
            (
                r#"{"op":"legal","board":[[0,-2,0,0],[0,0,0,0],[0,0,0,0],[0,0,0,0]]}"#,
                format!("board row 1, column 2: -2 is not a tile {expected}"),
            ),
            (
                r#"{"op":"legal","board":[[0,0,0,0],[0,0,0,0],[0,0,0,2.5],[0,0,0,0]]}"#,
                format!("board row 3, column 4: 2.5 is not a tile {expected}"),
            ),
            (
                r#"{"op":"legal","board":[[0,0,0,0],[0,0,0,0],[0,0,0,0],["2",0,0,0]]}"#,
                format!("board row 4, column 1: \"2\" (a string) is not a tile {expected}"),
            ),
            (
                r#"{"op":"legal","board":[[0,0,0,0],[0,0,0,0],[0,0,0,0],[0,0,0,262144]]}"#,
                "board row 4, column 4: 262144 is above the largest tile, 131072".into(),
            ),
            (
                r#"{"op":"legal","board":[[1,0,0,0],[0,0,0,0],[0,0,0,0],[0,0,0,0]]}"#,
                format!("board row 1, column 1: 1 is not a tile {expected}"),
            ),
        ];
        for (line, message) in cases {
            assert_eq!(&error(&mut s, line), message, "for {line}");
        }
    }

    #[test]
    fn blank_lines_get_no_answer() {
        let mut s = greedy();
        for line in ["", " ", "\n", "\r\n", "\t \t", "\u{feff}"] {
            assert_eq!(s.handle_line(line), None, "{line:?}");
            assert_eq!(s.handle_bytes(line.as_bytes()), None, "{line:?}");
        }
        let crlf = "{\"op\":\"legal\",\"board\":[[0,0,0,0],[0,0,0,0],[0,0,0,0],[0,0,0,0]]}\r\n";
        assert_eq!(s.handle_line(crlf).as_deref(), Some(r#"{"dirs":[]}"#));
        let bom = "\u{feff}{\"op\":\"legal\",\"board\":[[0,0,0,0],[0,0,0,0],[0,0,0,0],[0,0,0,0]]}";
        assert_eq!(s.handle_line(bom).as_deref(), Some(r#"{"dirs":[]}"#));
    }

    #[test]
    fn invalid_utf8_is_an_error() {
        let mut s = greedy();
        let a = s.handle_bytes(b"{\"op\":\"le\xffgal\"}\n").unwrap();
        assert_eq!(
            a,
            r#"{"error":"the line is not valid UTF-8: byte 10 starts an invalid sequence"}"#
        );
        assert!(s.handle_bytes(b"\xc3").unwrap().contains("not valid UTF-8"));
    }

    #[test]
    fn huge_and_deep_lines_are_answered() {
        let mut s = greedy();
        let deep = "[".repeat(100_000) + &"]".repeat(100_000);
        assert!(error(&mut s, &deep).starts_with("invalid JSON: recursion limit exceeded"));
        let wide = format!("{{\"op\":\"{}\"}}", "x".repeat(1_000_000));
        let message = error(&mut s, &wide);
        assert!(message.starts_with("unknown op \"xxx"), "{message}");
        assert!(message.len() < 200);
        let padded = format!(
            "{{\"op\":\"legal\",{}\"board\":[[0,0,0,0],[0,0,0,0],[0,0,0,0],[0,0,0,0]]}}",
            " ".repeat(1_000_000)
        );
        assert_eq!(s.handle_line(&padded).as_deref(), Some(r#"{"dirs":[]}"#));
        let garbage = "\u{1F600}".repeat(100_000);
        assert!(error(&mut s, &garbage).starts_with("invalid JSON"));
    }
}
