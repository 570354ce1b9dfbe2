//! The page's game, without state: a new game from a seed, and one move at a time,
//! the spawn drawn from a generator seeded by the game's seed and the turn. The page
//! of `ai2048 serve` asks the server for them (`POST /api/new`, `/api/step`); the
//! static site asks the same functions compiled to WebAssembly.
//!
//! The rules are the engine's: [`Game::new`] deals the start tiles, the move and its
//! score come from [`PlayableBoard::apply_scored`], the spawn from
//! [`RandableBoard::with_random_tile`] on `Rng::new(derive_seed(seed, turn))`, and the
//! tiles' paths from [`motions`]. So a game is the same game again from its seed and
//! its moves, and the page holds no rule of its own.
//!
//! [`RandableBoard::with_random_tile`]: ai2048_engine::RandableBoard::with_random_tile
#![deny(missing_docs)]

use std::sync::atomic::{AtomicU64, Ordering};
use web_time::{SystemTime, UNIX_EPOCH};

use ai2048_engine::rng::{derive_seed, splitmix64};
use ai2048_engine::{motions, Board, Dir, Game, PlayableBoard, Rng, Rules, Spawn};
use ai2048_protocol::{board_to_json, Op, Request};
use serde_json::{json, Map, Value};

use ai2048_protocol::json::{check_fields, safe_integer, MAX_SAFE_INTEGER};

/// A seed for a game whose request names none: the clock and a counter, mixed. Only
/// the choice of seed is left to chance; the game itself follows from the seed.
fn fresh_seed() -> u64 {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    let mut state = nanos ^ COUNTER.fetch_add(1, Ordering::Relaxed).rotate_left(32);
    splitmix64(&mut state) & MAX_SAFE_INTEGER
}

/// A spawn as the API writes it: `{"cell":C,"tile":T}`.
#[must_use]
pub fn spawn_json(spawn: Spawn) -> Value {
    json!({"cell": spawn.cell, "tile": spawn.tile()})
}

/// `POST /api/new`: `{"seed":S}` (optional: the server picks one when it is left out)
/// to `{"seed":S,"turn":0,"board":B,"score":0,"over":false,"spawns":[{"cell":C,"tile":T},...]}`,
/// the start tiles of the original game as [`Game::new`] deals them from the seed.
///
/// # Errors
///
/// When a field is unknown or the seed is not an integer from 0 to 2^53 - 1.
pub fn new_game(fields: &Map<String, Value>) -> Result<Value, String> {
    check_fields(fields, "new", &["seed"])?;
    let seed = safe_integer(fields, "seed")?.unwrap_or_else(fresh_seed);
    let game = Game::new(seed, Rules::ORIGINAL).map_err(|e| e.to_string())?;
    let board = game.board();
    let spawns: Vec<Value> = (0..16u8)
        .filter_map(|cell| {
            let exponent = board.exponent(usize::from(cell));
            (exponent != 0).then(|| spawn_json(Spawn { cell, exponent }))
        })
        .collect();
    Ok(json!({
        "seed": seed,
        "turn": 0,
        "board": board_to_json(board),
        "score": 0,
        "over": board.is_over(),
        "spawns": spawns,
    }))
}

/// `POST /api/step`: `{"board":B,"dir":D,"seed":S,"turn":T}` to
/// `{"board":B2,"score":N,"moved":true,"spawn":{"cell":C,"tile":T},"over":false,"turn":T+1,"motions":[{"from":F,"to":T,"merged":M},...]}`.
///
/// The board and direction are read as the protocol reads them, with its error
/// messages. The spawn after the move numbered `turn` (from 0) comes from
/// `Rng::new(derive_seed(seed, turn))`. A move that changes nothing answers the board
/// unchanged, `"moved":false`, no spawn, no motions and the same turn.
///
/// # Errors
///
/// When a field is missing, unknown or invalid.
pub fn step(fields: &Map<String, Value>) -> Result<Value, String> {
    check_fields(fields, "step", &["board", "dir", "seed", "turn"])?;
    let required = |key: &str| {
        safe_integer(fields, key)?.ok_or_else(|| {
            format!("missing \"{key}\": expected an integer from 0 to {MAX_SAFE_INTEGER}")
        })
    };
    let seed = required("seed")?;
    let turn = required("turn")?;
    let mut apply = fields.clone();
    apply.remove("seed");
    apply.remove("turn");
    apply.insert("op".to_owned(), Value::from("apply"));
    let (board, dir) = match Request::from_json(Value::Object(apply)) {
        Ok(Request {
            op: Op::Apply { board, dir },
            ..
        }) => (board, dir),
        // An apply request always reads as `Op::Apply`.
        Ok(other) => {
            return Err(format!(
                "internal error: read a {} request",
                other.op.name()
            ))
        }
        Err(e) => return Err(e.message),
    };
    let Some((after, score, spawn)) = play_turn(board, dir, seed, turn) else {
        return Ok(json!({
            "board": board_to_json(board),
            "score": 0,
            "moved": false,
            "spawn": null,
            "over": board.is_over(),
            "turn": turn,
            "motions": [],
        }));
    };
    Ok(json!({
        "board": board_to_json(after),
        "score": score,
        "moved": true,
        "spawn": spawn_json(spawn),
        "over": after.is_over(),
        "turn": (turn + 1).min(MAX_SAFE_INTEGER),
        "motions": motions_json(board, dir),
    }))
}

/// The move `dir` on `board` at turn `turn` of the game of `seed`, under the original
/// rules: the board after it and its spawn, its points, and the spawn, which comes
/// from `Rng::new(derive_seed(seed, turn))`. `None` when the move changes nothing.
///
/// This is [`Game::with_spawns`] with [`SpawnStream::PerTurn`](ai2048_engine::SpawnStream::PerTurn),
/// one turn at a time: the page's game plays by it, and so do the ranked games begun
/// before their spawns were keyed.
#[must_use]
pub fn play_turn(board: Board, dir: Dir, seed: u64, turn: u64) -> Option<(Board, u32, Spawn)> {
    let (moved, points) = PlayableBoard::new(board).apply_scored(dir)?;
    let mut rng = Rng::new(derive_seed(seed, turn));
    let (after, spawn) = moved.with_random_tile(&mut rng, Rules::ORIGINAL.four_probability);
    Some((after.board(), points, spawn))
}

/// The tiles' paths of the move `dir` on `board`, as the page animates them.
#[must_use]
pub fn motions_json(board: Board, dir: Dir) -> Value {
    motions(board, dir)
        .into_iter()
        .map(|m| json!({"from": m.from, "to": m.to, "merged": m.merged}))
        .collect()
}

/// The players as `GET /api/players` lists them: each with its name, what it is, and
/// its options, each option with `web`, whether `allowed(player, option)` says a
/// client here may set it.
#[must_use]
pub fn players(allowed: impl Fn(&str, &str) -> bool) -> Vec<Value> {
    ai2048_ai::PLAYERS
        .iter()
        .map(|p| {
            let options: Vec<Value> = p
                .options
                .iter()
                .map(|(key, about)| json!({"name": key, "about": about, "web": allowed(p.name, key)}))
                .collect();
            json!({"name": p.name, "about": p.about, "options": options})
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The board of a JSON answer.
    fn board_of(answer: &Value) -> Board {
        ai2048_protocol::board_from_json(&answer["board"]).expect("a board")
    }

    fn fields(v: Value) -> Map<String, Value> {
        v.as_object().expect("an object").clone()
    }

    #[test]
    fn a_new_game_follows_its_seed() {
        let a = new_game(&fields(json!({"seed": 42}))).unwrap();
        let game = Game::new(42, Rules::ORIGINAL).unwrap();
        assert_eq!(board_of(&a), game.board());
        assert_eq!(a["seed"], 42);
        assert_eq!(a["spawns"].as_array().unwrap().len(), 2);
        let b = new_game(&Map::new()).unwrap();
        assert!(b["seed"].as_u64().unwrap() <= MAX_SAFE_INTEGER);
        assert_eq!(board_of(&b).empty_count(), 14);
        assert_eq!(
            new_game(&fields(json!({"seed": 1, "rules": 2}))).unwrap_err(),
            "unknown field \"rules\" in a new request: it takes seed"
        );
    }

    #[test]
    fn a_step_moves_spawns_and_is_reproducible() {
        let board = json!([[2, 2, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 4]]);
        let request = fields(json!({"board": board, "dir": "left", "seed": 7, "turn": 3}));
        let a = step(&request).unwrap();
        assert_eq!(a, step(&request).unwrap());
        assert_eq!(a["moved"], true);
        assert_eq!(a["score"], 4);
        assert_eq!(a["turn"], 4);
        let moved: Board = "4 0 0 0/0 0 0 0/0 0 0 0/4 0 0 0".parse().unwrap();
        let mut rng = Rng::new(derive_seed(7, 3));
        let (expected, spawn) = ai2048_engine::RandableBoard::new(moved)
            .unwrap()
            .with_random_tile(&mut rng, 0.1);
        assert_eq!(board_of(&a), expected.board());
        assert_eq!(a["spawn"], spawn_json(spawn));
        assert_eq!(
            a["motions"],
            json!([
                {"from": 0, "to": 0, "merged": true},
                {"from": 1, "to": 0, "merged": true},
                {"from": 15, "to": 12, "merged": false},
            ])
        );
        // Another turn, another spawn somewhere (over many turns, not always the same).
        let cells: std::collections::HashSet<_> = (0..20)
            .map(|turn| {
                let r = fields(json!({"board": board, "dir": "left", "seed": 7, "turn": turn}));
                step(&r).unwrap()["spawn"]["cell"].as_u64().unwrap()
            })
            .collect();
        assert!(cells.len() > 3, "{cells:?}");
    }

    #[test]
    fn an_illegal_step_changes_nothing() {
        let board = json!([[2, 4, 2, 4], [4, 2, 4, 2], [2, 4, 2, 4], [4, 2, 4, 2]]);
        let a = step(&fields(
            json!({"board": board, "dir": "up", "seed": 1, "turn": 9}),
        ))
        .unwrap();
        assert_eq!(a["moved"], false);
        assert_eq!(a["over"], true);
        assert_eq!(a["turn"], 9);
        assert_eq!(a["spawn"], Value::Null);
        assert_eq!(a["board"], board);
        assert!(Dir::ALL.iter().all(|&d| !board_of(&a).can_move(d)));
    }

    #[test]
    fn bad_steps_say_what_is_wrong() {
        let board = json!([[2, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]]);
        let err = |v: Value| step(&fields(v)).unwrap_err();
        assert_eq!(
            err(json!({"board": board, "dir": "left", "turn": 0})),
            "missing \"seed\": expected an integer from 0 to 9007199254740991"
        );
        assert_eq!(
            err(json!({"board": board, "dir": "north", "seed": 1, "turn": 0})),
            "unknown direction \"north\": expected up, down, left or right"
        );
        assert_eq!(
            err(json!({"board": [[3, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]], "dir": "left", "seed": 1, "turn": 0})),
            "board row 1, column 1: 3 is not a tile (expected 0 or a power of two from 2 to 131072)"
        );
        assert_eq!(
            err(json!({"board": board, "dir": "left", "seed": 1, "turn": 0, "op": "apply"})),
            "unknown field \"op\" in a step request: it takes board, dir, seed, turn"
        );
    }
}
