//! The line handler never panics, and answers every non-blank line with exactly one
//! line holding one JSON object: on arbitrary text and bytes, and on requests built
//! from plausible pieces, mangled or not.

use ai2048_protocol::Session;
use proptest::prelude::*;
use serde_json::{json, Map, Value};

/// Checks the answer to `line`: none for a blank line, else one JSON object on one line.
fn check(session: &mut Session, line: &str) -> Option<Value> {
    let answer = session.handle_line(line);
    let blank = line.trim_start_matches('\u{feff}').trim().is_empty();
    assert_eq!(answer.is_none(), blank, "answer {answer:?} to {line:?}");
    let answer = answer?;
    assert!(!answer.contains('\n'), "a multi-line answer: {answer}");
    let value: Value = serde_json::from_str(&answer).expect("answers are JSON");
    assert!(value.is_object(), "not an object: {answer}");
    Some(value)
}

fn session() -> Session {
    // Greedy and random answer at once whatever the limits, so cases stay fast.
    Session::new("greedy").expect("greedy exists")
}

fn tile() -> impl Strategy<Value = Value> {
    prop_oneof![
        8 => (0u32..=17).prop_map(|e| json!(if e == 0 { 0 } else { 1u32 << e })),
        1 => prop_oneof![
            Just(json!(1)),
            Just(json!(3)),
            Just(json!(-2)),
            Just(json!(2.5)),
            Just(json!(2.0)),
            Just(json!(262144)),
            Just(json!(1e300)),
            Just(json!(u64::MAX)),
            Just(json!(i64::MIN)),
            Just(json!("2")),
            Just(json!(null)),
            Just(json!(true)),
            Just(json!([2])),
            Just(json!({})),
        ],
    ]
}

fn board() -> impl Strategy<Value = Value> {
    prop_oneof![
        6 => prop::collection::vec(prop::collection::vec(tile(), 4), 4)
            .prop_map(|rows| json!(rows)),
        2 => prop::collection::vec(prop::collection::vec(tile(), 0..6), 0..6)
            .prop_map(|rows| json!(rows)),
        1 => prop_oneof![
            Just(json!("0000000000000000")),
            Just(json!(null)),
            Just(json!(5)),
            Just(json!({"rows": 4})),
            Just(json!([1, 2, 3, 4])),
        ],
    ]
}

fn anything() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(json!(null)),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        any::<f64>().prop_map(|f| json!(f)),
        ".{0,8}".prop_map(Value::from),
        Just(json!([])),
        Just(json!({"a": 1})),
    ]
}

fn pick(options: &'static [&'static str]) -> impl Strategy<Value = Value> {
    prop_oneof![
        4 => prop::sample::select(options).prop_map(Value::from),
        1 => anything(),
    ]
}

fn request() -> impl Strategy<Value = Value> {
    let op = pick(&["apply", "legal", "spawns", "best", "fly", "", "Apply"]);
    let dir = pick(&["up", "down", "left", "right", "north", "U", ""]);
    let ai = pick(&[
        "greedy",
        "random",
        " random ",
        "nope",
        "greedy:x=1",
        "greedy:x",
        "",
    ]);
    let number = prop_oneof![
        any::<u32>().prop_map(Value::from),
        (-2.0f64..2.0).prop_map(|f| json!(f)),
        (0.0f64..100.0).prop_map(|f| json!(f)),
        anything(),
    ];
    let fields = (
        prop::option::of(op),
        prop::option::of(board()),
        prop::option::of(dir),
        prop::option::of(ai),
        prop::option::of(number.clone()),
        prop::option::of(number.clone()),
        prop::option::of(number),
        prop::option::of(anything()),
        prop::option::of(anything()),
    );
    fields.prop_map(|(op, board, dir, ai, depth, time_ms, p4, id, extra)| {
        let mut map = Map::new();
        let named = [
            ("op", op),
            ("board", board),
            ("dir", dir),
            ("ai", ai),
            ("depth", depth),
            ("time_ms", time_ms),
            ("p4", p4),
            ("id", id),
            ("extra", extra),
        ];
        for (key, value) in named {
            if let Some(value) = value {
                map.insert(key.to_owned(), value);
            }
        }
        Value::Object(map)
    })
}

proptest! {
    #[test]
    fn arbitrary_text(line in ".{0,200}") {
        check(&mut session(), &line);
    }

    #[test]
    fn arbitrary_bytes(bytes in prop::collection::vec(any::<u8>(), 0..200)) {
        let mut s = session();
        if let Some(answer) = s.handle_bytes(&bytes) {
            prop_assert!(!answer.contains('\n'));
            let value: Value = serde_json::from_str(&answer).expect("answers are JSON");
            prop_assert!(value.is_object());
        }
    }

    #[test]
    fn json_ish_text(line in r#"[{}\[\]":,0-9a-z .\-eE+\\/]{0,120}"#) {
        check(&mut session(), &line);
    }

    #[test]
    fn plausible_requests(request in request()) {
        let mut s = session();
        let answer = check(&mut s, &request.to_string()).expect("an answer");
        let id = request.get("id");
        prop_assert_eq!(answer.get("id"), id, "the id is echoed");
        // An answer is an error, or has the keys its op promises.
        if answer.get("error").is_none() {
            let op = request["op"].as_str().unwrap_or("");
            let key = match op {
                "apply" => "moved",
                "legal" => "dirs",
                "spawns" => "spawns",
                "best" => "dir",
                _ => panic!("op {op:?} answered without an error: {answer}"),
            };
            prop_assert!(answer.get(key).is_some(), "{} lacks {}", answer, key);
        }
    }

    #[test]
    fn mangled_requests(request in request(), cut in any::<prop::sample::Index>(), junk in ".{0,3}") {
        let text = request.to_string();
        let mut at = cut.index(text.len() + 1);
        while !text.is_char_boundary(at) {
            at -= 1;
        }
        let mangled = format!("{}{junk}{}", &text[..at], &text[at..]);
        check(&mut session(), &mangled);
        check(&mut session(), &text[..at]);
    }

    #[test]
    fn sessions_survive_many_lines(requests in prop::collection::vec(request(), 1..20)) {
        let mut s = session();
        for request in &requests {
            check(&mut s, &request.to_string());
        }
        prop_assert!(s.cached_players() <= ai2048_protocol::MAX_CACHED_PLAYERS);
    }
}
