//! The search's speed natively, on the positions and at the depths the browser is
//! timed on (`crates/web/browser-tests/site.test.mjs` reads this file, asks the
//! WebAssembly engine the same searches in Chromium, checks that they find the same
//! moves with the same node counts, and prints both speeds).
//!
//! ```sh
//! cargo run --release -p ai2048-wasm --example speed > target/wasm/speed.json
//! ```
//!
//! The positions are every 25th board of seeded games of expectimax at depth 1 on
//! the heuristic, 40 of them. Each is searched, on one thread through this crate's
//! [`ai2048_wasm::engine`] (the very code the browser runs), by expectimax at a fixed
//! depth: on the heuristic at depth 4, and on the built-in network at depth 3.

use std::time::Instant;

use ai2048_protocol::board_from_json;
use serde_json::{json, Value};

/// The searches timed: a name, the player, the depth.
const SEARCHES: [(&str, &str, u32); 2] = [
    ("heuristic", "expectimax:eval=heuristic", 4),
    ("network", "expectimax:eval=network", 3),
];

fn answer(text: &str) -> Value {
    let value: Value = serde_json::from_str(text).expect("JSON");
    assert!(value.get("error").is_none(), "{value}");
    value
}

/// The positions: every 25th board of seeded games (seeds 1, 2, ...), 40 of them.
fn positions() -> Vec<Value> {
    let mut boards = Vec::new();
    for seed in 1.. {
        let mut game = answer(&ai2048_wasm::new_game(&json!({ "seed": seed }).to_string()));
        let mut turn = 0u64;
        loop {
            if boards.len() == 40 {
                return boards;
            }
            let board = board_from_json(&game["board"]).expect("a board");
            if board.is_over() {
                break;
            }
            if turn % 25 == 24 {
                boards.push(game["board"].clone());
            }
            // A player of its own (the session keeps one per spec), so that the timed
            // players start with empty tables, as in the browser.
            let request = json!({"op": "best", "board": game["board"], "ai": "expectimax:eval=heuristic,depth=1"});
            let best = answer(&ai2048_wasm::engine(&request.to_string()));
            let request =
                json!({"board": game["board"], "dir": best["dir"], "seed": seed, "turn": turn});
            game = answer(&ai2048_wasm::step(&request.to_string()));
            turn = game["turn"].as_u64().expect("a turn");
        }
    }
    boards
}

fn main() {
    let positions = positions();
    let mut searches = serde_json::Map::new();
    for (name, ai, depth) in SEARCHES {
        let request = |board: &Value| {
            json!({"op": "best", "board": board, "ai": ai, "depth": depth}).to_string()
        };
        // The player is made, and the network read, before the clock starts.
        answer(&ai2048_wasm::engine(&request(&positions[0])));
        let (mut nodes, mut dirs, mut each) = (0, Vec::new(), Vec::new());
        let started = Instant::now();
        for board in &positions {
            let best = answer(&ai2048_wasm::engine(&request(board)));
            nodes += best["nodes"].as_u64().expect("nodes");
            each.push(best["nodes"].clone());
            dirs.push(best["dir"].clone());
        }
        let ms = started.elapsed().as_secs_f64() * 1e3;
        eprintln!(
            "{name}: {} positions at depth {depth}, {nodes} nodes in {ms:.0} ms: {:.2} M nodes/s",
            positions.len(),
            nodes as f64 / ms / 1e3
        );
        searches.insert(
            name.to_owned(),
            json!({"ai": ai, "depth": depth, "nodes": nodes, "ms": ms, "dirs": dirs, "nodes_each": each}),
        );
    }
    // A debug build (the one `cargo test` makes, which scripts/test reuses) finds the
    // same moves and nodes; only a release build's times compare with the browser's.
    let build = if cfg!(debug_assertions) {
        "debug"
    } else {
        "release"
    };
    println!(
        "{}",
        json!({"positions": positions, "searches": searches, "build": build})
    );
}
