//! Writes the transcripts the WebAssembly build is checked against
//! (`crates/wasm/tests/differential.mjs`): each line a request to one of this crate's
//! functions and the answer the native build gives, as JSON.
//!
//! ```sh
//! cargo run -p ai2048-wasm --example transcripts -- GAMES POSITIONS > transcripts.jsonl
//! ```
//!
//! Game `g` starts from seed `g`; its moves are drawn from `Rng::new(derive_seed(g, turn) ^ 1)`
//! among the legal ones, so the games are many and varied. Every 25th position of
//! the games is searched by expectimax at a fixed depth, until `POSITIONS` of them.
//! Then 10 more games are played by the greedy player on the heuristic (each of its
//! answers recorded too), so that large tiles merge as well.

use ai2048_engine::rng::derive_seed;
use ai2048_engine::{Dir, Rng};
use ai2048_protocol::board_from_json;
use serde_json::{json, Value};

/// Games played by the greedy player after the random ones.
const GREEDY_GAMES: u64 = 10;

fn main() {
    let mut args = std::env::args().skip(1);
    let mut number = |default: u64| {
        args.next()
            .map_or(Ok(default), |a| a.parse::<u64>())
            .unwrap_or_else(|e| {
                eprintln!("usage: transcripts [GAMES] [POSITIONS]: {e}");
                std::process::exit(2)
            })
    };
    let games = number(1000);
    let positions = number(300);
    let mut searched = 0;
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let mut line = |f: &str, request: &str, answer: &str| {
        use std::io::Write;
        let record = json!({"f": f, "request": request, "answer": answer});
        writeln!(out, "{record}").expect("stdout");
    };
    for seed in 0..games + GREEDY_GAMES {
        let greedy = seed >= games;
        let request = json!({ "seed": seed }).to_string();
        let answer = ai2048_wasm::new_game(&request);
        line("new_game", &request, &answer);
        let mut game: Value = serde_json::from_str(&answer).expect("JSON");
        let mut turn = 0u64;
        loop {
            let board = board_from_json(&game["board"]).expect("a board");
            let legal: Vec<Dir> = Dir::ALL
                .into_iter()
                .filter(|&d| board.can_move(d))
                .collect();
            if legal.is_empty() {
                break;
            }
            if turn % 25 == 7 && searched < positions {
                searched += 1;
                let request = json!({
                    "op": "best", "board": game["board"], "depth": 2,
                    "ai": "expectimax:eval=heuristic,tt-mb=8",
                })
                .to_string();
                line("engine", &request, &ai2048_wasm::engine(&request));
            }
            let dir = if greedy {
                let request = json!({
                    "op": "best", "board": game["board"], "ai": "greedy:eval=heuristic",
                })
                .to_string();
                let answer = ai2048_wasm::engine(&request);
                line("engine", &request, &answer);
                let best: Value = serde_json::from_str(&answer).expect("JSON");
                best["dir"]
                    .as_str()
                    .and_then(|d| d.parse().ok())
                    .expect("a move")
            } else {
                let mut rng = Rng::new(derive_seed(seed, turn) ^ 1);
                legal[rng.below(legal.len() as u32) as usize]
            };
            let request = json!({
                "board": game["board"], "dir": dir.to_string(), "seed": seed, "turn": turn,
            })
            .to_string();
            let answer = ai2048_wasm::step(&request);
            line("step", &request, &answer);
            game = serde_json::from_str(&answer).expect("JSON");
            turn += 1;
        }
    }
}
