//! Fuzzes the protocol's line handler: the input is split into lines, which one
//! session answers in turn, as `ai2048 engine` does. It may never panic; a blank line
//! gets no answer, and every other line exactly one line holding one JSON object.
#![no_main]

use ai2048_ai::PLAYERS;
use ai2048_protocol::Session;
use libfuzzer_sys::fuzz_target;
use serde_json::Value;

/// Whether `line` asks a searching player for a move. Such a search may rightly take
/// as long as it is allowed (`expectimax:prune=0` with a large depth runs for ages),
/// which a fuzzer would report as a hang, so those lines are skipped; greedy and
/// random answer at once and stay in. The searches are tested in their own crate.
fn asks_a_searcher(line: &[u8]) -> bool {
    let Ok(Value::Object(request)) = serde_json::from_slice::<Value>(line) else {
        return false;
    };
    let Some(Value::String(ai)) = request.get("ai") else {
        return false;
    };
    let name = ai.split(':').next().unwrap_or("").trim();
    name != "greedy" && name != "random" && PLAYERS.iter().any(|p| p.name == name)
}

fn is_blank(line: &[u8]) -> bool {
    std::str::from_utf8(line).is_ok_and(|t| t.trim_start_matches('\u{feff}').trim().is_empty())
}

fuzz_target!(|data: &[u8]| {
    // The default player answers at once, for requests that name none.
    let Ok(mut session) = Session::new("greedy") else {
        return;
    };
    for line in data.split(|&b| b == b'\n') {
        if asks_a_searcher(line) {
            continue;
        }
        let answer = session.handle_bytes(line);
        assert_eq!(answer.is_none(), is_blank(line), "{answer:?}");
        if let Some(answer) = answer {
            assert!(!answer.contains('\n'), "a multi-line answer: {answer}");
            let value: Value = serde_json::from_str(&answer).expect("answers are JSON");
            assert!(value.is_object(), "not an object: {answer}");
        }
    }
});
