//! The engine and the AI of ai2048 for the browser: the page's game and the engine
//! protocol, compiled to WebAssembly, so that the page plays with no server behind it.
//!
//! Every function takes and answers JSON text, the very requests and answers of
//! `ai2048 serve`'s API, made by the same Rust code:
//!
//! | function | as |
//! | --- | --- |
//! | [`new_game`] | `POST /api/new` |
//! | [`step`] | `POST /api/step`: the move, and its spawn from `derive_seed(seed, turn)` |
//! | [`engine`] | one line of `ai2048 engine`: `apply`, `legal`, `spawns`, `best` |
//! | [`players`] | `GET /api/players` |
//! | [`load_network`] | the built-in network, downloaded by the page when asked for |
//! | [`load_distilled`] | the distilled endgame table, downloaded likewise |
//!
//! So a game replays the same from its seed and moves here as on the server, and a
//! search at a fixed depth finds the same move. Errors are `{"error":"..."}`, as the
//! server's; nothing panics on bad input.
//!
//! ```
//! let game = ai2048_wasm::new_game(r#"{"seed":7}"#);
//! assert!(game.contains(r#""turn":0"#));
//! let best = ai2048_wasm::engine(
//!     r#"{"op":"best","board":[[2,2,0,0],[0,0,0,0],[0,0,0,0],[0,0,0,4]],"ai":"greedy:eval=heuristic"}"#,
//! );
//! assert!(best.contains(r#""dir":"#), "{best}");
//! ```
#![deny(missing_docs)]

use std::cell::{Cell, RefCell};

use ai2048_ai::endgame::{builtin_distilled, install_builtin_distilled};
use ai2048_ai::ntuple::{builtin, install_builtin, packed_info, NTupleNetwork};
use ai2048_ai::{PlayerSpec, DEFAULT_PLAYER};
use ai2048_page as page;
use ai2048_protocol::json::object;
use ai2048_protocol::Session;
use ai2048_tables::Distilled;
use serde_json::json;
#[cfg(target_arch = "wasm32")]
use wasm_bindgen::prelude::wasm_bindgen;

thread_local! {
    /// The engine session: it keeps the players it creates, as the server's do.
    static SESSION: RefCell<Option<Session>> = const { RefCell::new(None) };
    /// Set by [`panic_next_request`]: the next request panics.
    static PANIC_NEXT: Cell<bool> = const { Cell::new(false) };
    /// What the last panic said, and where ([`last_panic`]).
    static LAST_PANIC: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// Keeps each panic's message for [`last_panic`] (in WebAssembly a panic's message
/// goes nowhere else), then goes on as the panic would have.
fn keep_panic_messages() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            let _ = LAST_PANIC.try_with(|last| {
                if let Ok(mut last) = last.try_borrow_mut() {
                    *last = Some(info.to_string());
                }
            });
            previous(info);
        }));
    });
}

/// What the last panic of this instance said, and where, if one happened: the page
/// reads it from an instance that a panic left unusable, to say what went wrong.
#[cfg_attr(target_arch = "wasm32", wasm_bindgen)]
#[must_use]
pub fn last_panic() -> Option<String> {
    LAST_PANIC.with(|last| last.borrow().clone())
}

/// For tests of the page's recovery: the next request ([`new_game`], [`step`] or
/// [`engine`]) panics, as a bug would (in WebAssembly a panic aborts: the instance
/// traps and is left unusable, so the page must make a new one). Nothing else sets it.
#[cfg_attr(target_arch = "wasm32", wasm_bindgen)]
pub fn panic_next_request() {
    PANIC_NEXT.with(|flag| flag.set(true));
}

/// Panics if [`panic_next_request`] asked for it, once; and keeps every panic's
/// message for [`last_panic`].
fn panic_if_asked() {
    keep_panic_messages();
    assert!(
        !PANIC_NEXT.with(|flag| flag.replace(false)),
        "a panic asked for by panic_next_request"
    );
}

fn error(message: impl Into<String>) -> String {
    json!({ "error": message.into() }).to_string()
}

/// `POST /api/new`: `{"seed":S}` to a new game of the original rules.
#[cfg_attr(target_arch = "wasm32", wasm_bindgen)]
#[must_use]
pub fn new_game(request: &str) -> String {
    panic_if_asked();
    match object(request, "new").and_then(|fields| page::new_game(&fields)) {
        Ok(answer) => answer.to_string(),
        Err(e) => error(e),
    }
}

/// `POST /api/step`: `{"board":B,"dir":D,"seed":S,"turn":T}` to the board after the
/// move and its spawn, the score, and the tiles' paths.
#[cfg_attr(target_arch = "wasm32", wasm_bindgen)]
#[must_use]
pub fn step(request: &str) -> String {
    panic_if_asked();
    match object(request, "step").and_then(|fields| page::step(&fields)) {
        Ok(answer) => answer.to_string(),
        Err(e) => error(e),
    }
}

/// One request of the engine protocol (`apply`, `legal`, `spawns`, `best`), answered
/// as `ai2048 engine` answers it. A browser has one thread and no files, so player
/// options that start threads or read files are refused.
#[cfg_attr(target_arch = "wasm32", wasm_bindgen)]
#[must_use]
pub fn engine(line: &str) -> String {
    panic_if_asked();
    if let Some(refused) = refusal(line) {
        return error(refused);
    }
    SESSION.with(|cell| {
        let mut slot = cell.borrow_mut();
        if slot.is_none() {
            match Session::new(DEFAULT_PLAYER) {
                Ok(session) => *slot = Some(session),
                Err(e) => return error(e.to_string()),
            }
        }
        let session = slot.as_mut().expect("made above");
        session.handle_line(line).unwrap_or_default()
    })
}

/// Why the request `line` asks for what a browser cannot give, if it does.
fn refusal(line: &str) -> Option<String> {
    let fields = object(line, "engine").ok()?;
    let spec: PlayerSpec = fields.get("ai")?.as_str()?.parse().ok()?;
    spec.options
        .iter()
        .find_map(|(key, value)| option_refusal(key, value))
}

/// Why player option `key` set to `value` is refused in the browser, if it is.
fn option_refusal(key: &str, value: &str) -> Option<String> {
    match key {
        "weights" | "network" => Some(format!(
            "player option {key}: the browser's AI reads no files"
        )),
        "threads" if value != "1" => {
            Some("player option threads: the browser's AI searches on one thread".to_owned())
        }
        _ => None,
    }
}

/// Reads a packed network file (`nets/default.np`, as `ai2048 net pack` writes it)
/// and makes it the built-in network, which the players created from now on play
/// with by default and as `eval=network`, as the native build plays with the one it
/// embeds. The file's own checksum is verified. Answers
/// `{"games","weights","bytes","checksum"}`, or `{"error"}` for a file that is not a
/// whole packed network (the AI then goes on with what it had).
#[cfg_attr(target_arch = "wasm32", wasm_bindgen)]
#[must_use]
pub fn load_network(bytes: &[u8]) -> String {
    keep_panic_messages();
    let info = match packed_info(bytes) {
        Ok(info) => info,
        Err(e) => return error(format!("the network file: {e}")),
    };
    match NTupleNetwork::read_packed(bytes) {
        Ok(net) => {
            let net = install_builtin(net);
            // The players made so far evaluate as they were made: start afresh.
            SESSION.with(|cell| *cell.borrow_mut() = None);
            json!({
                "games": net.games(),
                "weights": net.weight_count(),
                "bytes": info.bytes,
                "checksum": format!("fnv1a64:{:016x}", info.checksum),
            })
            .to_string()
        }
        Err(e) => error(format!("the network file: {e}")),
    }
}

/// Reads a distilled endgame table (`tables/distilled.dt`, as `ai2048 tables
/// distill` writes it) and makes it the built-in one, which the default player created
/// from now on plays the endgame from, as the native build plays from the one it
/// embeds. The file's checksum is verified. Answers `{"states","tables","bytes"}`, or
/// `{"error"}` for a file that is not a whole distilled table (the AI then goes on
/// with what it had).
#[cfg_attr(target_arch = "wasm32", wasm_bindgen)]
#[must_use]
pub fn load_distilled(bytes: &[u8]) -> String {
    keep_panic_messages();
    match Distilled::from_bytes(bytes) {
        Ok(distilled) => {
            let states = distilled.len();
            let tables: Vec<String> = distilled.names().map(str::to_owned).collect();
            install_builtin_distilled(distilled);
            // The players made so far play as they were made: start afresh.
            SESSION.with(|cell| *cell.borrow_mut() = None);
            json!({"states": states, "tables": tables, "bytes": bytes.len()}).to_string()
        }
        Err(e) => error(format!("the distilled table: {e}")),
    }
}

/// Whether a distilled endgame table is loaded ([`load_distilled`]).
#[cfg_attr(target_arch = "wasm32", wasm_bindgen)]
#[must_use]
pub fn has_distilled() -> bool {
    builtin_distilled().is_some()
}

/// Whether the built-in network is loaded ([`load_network`]).
#[cfg_attr(target_arch = "wasm32", wasm_bindgen)]
#[must_use]
pub fn has_network() -> bool {
    builtin().is_some()
}

/// The longest search the page offers, in milliseconds (as the server's cap).
const MAX_TIME_MS: u64 = 1000;

/// `GET /api/players`: the players, their options (with `web`: whether the browser
/// takes it), the default player and the longest time per move the page offers.
#[cfg_attr(target_arch = "wasm32", wasm_bindgen)]
#[must_use]
pub fn players() -> String {
    let players = page::players(|_, key| option_refusal(key, "2").is_none());
    json!({
        "default": DEFAULT_PLAYER,
        "players": players,
        "max_time_ms": MAX_TIME_MS,
        "default_time_ms": 50,
        "network": has_network(),
        "distilled": has_distilled(),
    })
    .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;

    #[test]
    fn bad_requests_are_errors() {
        assert!(new_game("{").contains("invalid JSON"));
        assert!(step(r#"{"seed":1}"#).contains("error"));
        let threads = engine(
            r#"{"op":"best","board":[[2,0,0,0],[0,0,0,0],[0,0,0,0],[0,0,0,2]],"ai":"expectimax:threads=2"}"#,
        );
        assert!(threads.contains("one thread"), "{threads}");
        let file = engine(
            r#"{"op":"best","board":[[2,0,0,0],[0,0,0,0],[0,0,0,0],[0,0,0,2]],"ai":"greedy:network=x.np"}"#,
        );
        assert!(file.contains("reads no files"), "{file}");
        assert!(engine("nonsense").contains("error"));
    }

    #[test]
    fn a_game_steps_as_the_server_steps() {
        let game: Value = serde_json::from_str(&new_game(r#"{"seed":3}"#)).expect("JSON");
        let request = json!({"board": game["board"], "dir": "left", "seed": 3, "turn": 0});
        let fields = request.as_object().expect("an object").clone();
        let native = page::step(&fields).expect("a step");
        assert_eq!(step(&request.to_string()), native.to_string());
    }

    #[test]
    fn a_network_loads_from_its_bytes_and_bad_bytes_are_errors() {
        assert!(load_network(b"not a network").contains("the network file"));
        let net = NTupleNetwork::new(ai2048_ai::ntuple::parse_tuples("0,1,2,3").expect("valid"));
        let mut packed = Vec::new();
        net.write_packed(&mut packed, 3).expect("packs");
        let mut damaged = packed.clone();
        let middle = damaged.len() / 2;
        damaged[middle] ^= 0x55;
        assert!(load_network(&damaged).contains("error"));
        let answer: Value = serde_json::from_str(&load_network(&packed)).expect("JSON");
        assert_eq!(answer["weights"], 16_u64.pow(4), "one tuple of 4 cells");
        assert!(has_network());
        let best = engine(
            r#"{"op":"best","board":[[2,2,0,0],[0,0,0,0],[0,0,0,0],[0,0,0,4]],"ai":"greedy:eval=network"}"#,
        );
        assert!(best.contains(r#""dir":"#), "{best}");
    }

    #[test]
    fn a_distilled_table_loads_from_its_bytes_and_bad_bytes_are_errors() {
        use ai2048_tables::{Distiller, Layout, Table};
        assert!(load_distilled(b"not a table").contains("the distilled table"));
        let layout = Layout::new("xxxx/xxxx/t.../....".parse().expect("valid"), 16);
        let full = [("snake8-16".to_owned(), Table::solve(layout.expect("valid")))];
        let mut distiller = Distiller::new(&full);
        let board = "8192 4096 2048 1024/16 32 64 128/8 0 0 0/0 0 0 8";
        assert!(distiller.record(board.parse().expect("a board")));
        let bytes = distiller.finish(1 << 20).expect("fits").0.to_bytes();
        let mut damaged = bytes.clone();
        damaged[bytes.len() / 2] ^= 0x55;
        assert!(load_distilled(&damaged).contains("error"));
        let answer: Value = serde_json::from_str(&load_distilled(&bytes)).expect("JSON");
        assert_eq!(answer["states"], 1, "{answer}");
        assert!(has_distilled());
    }

    #[test]
    fn a_panic_asked_for_comes_once() {
        panic_next_request();
        let request = r#"{"op":"legal","board":[[2,0,0,0],[0,0,0,0],[0,0,0,0],[0,0,0,2]]}"#;
        assert!(std::panic::catch_unwind(|| engine(request)).is_err());
        let said = last_panic().expect("the panic's message is kept");
        assert!(
            said.contains("a panic asked for by panic_next_request"),
            "{said}"
        );
        assert!(
            engine(request).contains("dirs"),
            "the next request is answered"
        );
    }

    #[test]
    fn players_lists_the_default() {
        let list: Value = serde_json::from_str(&players()).expect("JSON");
        assert_eq!(list["default"], DEFAULT_PLAYER);
        assert!(list["players"].as_array().is_some_and(|p| p.len() >= 5));
    }
}
