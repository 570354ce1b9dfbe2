//! The HTTP API against a server on 127.0.0.1:0 in this process: every route's happy
//! path, and every kind of bad request.

mod common;

use std::time::{Duration, Instant};

use ai2048_engine::{rng::derive_seed, Board, Dir, Game, PlayableBoard, Rng, Rules};
use ai2048_protocol::{board_from_json, board_to_json, Session};
use ai2048_web::ServerConfig;
use common::{post, request, start, test_config, Client};
use serde_json::{json, Value};

const BOARD: &str = "[[2,2,4,0],[0,0,0,0],[0,0,0,0],[0,0,0,2]]";

fn board(text: &str) -> Board {
    text.parse().expect("a board")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_page_is_built_in() {
    let addr = start(test_config()).await;
    let page = request(addr, "GET", "/", "").await;
    assert_eq!(page.status, 200);
    assert_eq!(
        page.header("content-type"),
        Some("text/html; charset=utf-8")
    );
    assert!(page.body.contains("<title>2048"), "{}", page.body);
    assert!(page.header("content-security-policy").is_some());
    for (path, kind, needle) in [
        ("/style.css", "text/css; charset=utf-8", "#faf8ef"),
        ("/app.js", "text/javascript; charset=utf-8", "engine.step"),
        ("/engine.js", "text/javascript; charset=utf-8", "api/step"),
        (
            "/network.js",
            "text/javascript; charset=utf-8",
            "network.json",
        ),
        ("/favicon.svg", "image/svg+xml", "<svg"),
    ] {
        let asset = request(addr, "GET", path, "").await;
        assert_eq!(asset.status, 200, "{path}");
        assert_eq!(asset.header("content-type"), Some(kind), "{path}");
        assert!(asset.body.contains(needle), "{path}");
        // No asset is fetched from elsewhere.
        assert!(!asset.body.contains("cdn"), "{path}");
    }
    // The original colours.
    let css = request(addr, "GET", "/style.css", "").await.body;
    for colour in [
        "#bbada0", "#cdc1b4", "#eee4da", "#ede0c8", "#f2b179", "#f59563", "#f67c5f", "#f65e3b",
        "#edcf72", "#edcc61", "#edc850", "#edc53f", "#edc22e", "#3c3a32", "#776e65", "#f9f6f2",
    ] {
        assert!(css.contains(colour), "{colour}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn protocol_operations_by_path() {
    let addr = start(test_config()).await;
    let b: Value = serde_json::from_str(BOARD).unwrap();

    let a = post(
        addr,
        "/api/apply",
        &json!({"board": b, "dir": "left", "id": 1}),
    )
    .await;
    assert_eq!(a.status, 200);
    assert_eq!(a.header("content-type"), Some("application/json"));
    assert_eq!(
        a.body,
        r#"{"id":1,"board":[[4,4,0,0],[0,0,0,0],[0,0,0,0],[2,0,0,0]],"score":4,"moved":true}"#
    );

    let a = post(addr, "/api/legal", &json!({"board": b})).await;
    assert_eq!(a.body, r#"{"dirs":["up","down","left","right"]}"#);

    let a = post(addr, "/api/spawns", &json!({"board": b, "p4": 0})).await;
    assert_eq!(a.status, 200);
    assert_eq!(a.json()["spawns"].as_array().unwrap().len(), 12);

    let a = post(
        addr,
        "/api/best",
        &json!({"board": b, "ai": "greedy", "id": "g"}),
    )
    .await;
    assert_eq!(a.status, 200);
    let best = a.json();
    assert_eq!(best["id"], "g");
    let dir: Dir = best["dir"].as_str().unwrap().parse().unwrap();
    assert!(board("2 2 4 0/0 0 0 0/0 0 0 0/0 0 0 2")
        .legal_dirs()
        .contains(dir));

    // The default player, with a time.
    let started = Instant::now();
    let a = post(addr, "/api/best", &json!({"board": b, "time_ms": 20})).await;
    assert_eq!(a.status, 200, "{}", a.body);
    assert!(a.json()["depth"].as_u64().unwrap() >= 1);
    assert!(started.elapsed() < Duration::from_secs(2));

    // The whole protocol line on /api: the same answer as `ai2048 engine` gives.
    let line = format!(r#"{{"op":"apply","board":{BOARD},"dir":"right","id":[2]}}"#);
    let a = request(addr, "POST", "/api", &line).await;
    assert_eq!(a.status, 200);
    assert_eq!(
        Some(a.body),
        Session::new("greedy").unwrap().handle_line(&line)
    );

    // No legal move: no move, at once.
    let stuck = json!([[2, 4, 2, 4], [4, 2, 4, 2], [2, 4, 2, 4], [4, 2, 4, 2]]);
    let a = post(addr, "/api/best", &json!({"board": stuck})).await;
    assert_eq!(a.body, r#"{"dir":null}"#);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn errors_are_the_protocols() {
    let addr = start(test_config()).await;
    let mut session = Session::new("greedy").unwrap();
    let lines = [
        "{".to_owned(),
        "not json".to_owned(),
        "[1,2]".to_owned(),
        r#"{"op":"fly","board":[]}"#.to_owned(),
        r#"{"op":"legal","board":[[0,0,0,0],[0,0,3,0],[0,0,0,0],[0,0,0,0]],"id":5}"#.to_owned(),
        r#"{"op":"legal","board":[[0,0,0,0],[0,0,0,0],[0,0,0,0]]}"#.to_owned(),
        format!(r#"{{"op":"apply","board":{BOARD},"dir":"north"}}"#),
        format!(r#"{{"op":"best","board":{BOARD},"dpeth":3}}"#),
        format!(r#"{{"op":"best","board":{BOARD},"ai":"nope"}}"#),
        format!(r#"{{"op":"best","board":{BOARD},"ai":"random:bogus=3"}}"#),
        format!(r#"{{"op":"best","board":{BOARD},"depth":21}}"#),
        format!(r#"{{"op":"spawns","board":{BOARD},"p4":2}}"#),
    ];
    for line in &lines {
        let a = request(addr, "POST", "/api", line).await;
        assert_eq!(a.status, 400, "{line}: {}", a.body);
        assert_eq!(a.header("content-type"), Some("application/json"));
        assert_eq!(Some(&a.body), session.handle_line(line).as_ref(), "{line}");
    }

    // The same by path, the op left out.
    let a = post(
        addr,
        "/api/legal",
        &json!({"board": [[0,0,0,0],[0,0,3,0],[0,0,0,0],[0,0,0,0]]}),
    )
    .await;
    a.assert_bad_request(
        "board row 2, column 3: 3 is not a tile (expected 0 or a power of two from 2 to 131072)",
    );
    let a = request(addr, "POST", "/api/legal", "{\"board\":").await;
    a.assert_bad_request("invalid JSON: EOF while parsing");
    let a = request(addr, "POST", "/api/legal", "").await;
    a.assert_bad_request("invalid JSON: ");
    let a = post(
        addr,
        "/api/legal",
        &json!({"board": serde_json::from_str::<Value>(BOARD).unwrap(), "dir": "up"}),
    )
    .await;
    a.assert_bad_request(
        "unknown field \"dir\" in a legal request: it takes op, board, and optionally id",
    );
    let a = post(addr, "/api/apply", &json!({"op": "legal", "board": []})).await;
    assert_eq!(a.status, 400);
    assert!(
        a.error().contains("the path /api/apply names it"),
        "{}",
        a.body
    );
    let a = request(addr, "POST", "/api/legal", "[]").await;
    assert_eq!(
        a.error(),
        "a legal request must be a JSON object, found an array"
    );
    let mut client = Client::connect(addr).await.unwrap();
    let a = client
        .request("POST", "/api/legal", b"{\"op\":\xff}")
        .await
        .unwrap();
    a.assert_bad_request("the request body is not valid UTF-8: byte 7 starts an invalid sequence");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn player_options_the_web_refuses() {
    let addr = start(test_config()).await;
    let b: Value = serde_json::from_str(BOARD).unwrap();
    for ai in [
        "greedy:weights=/etc/passwd",
        "expectimax:weights=w.json,depth=2",
    ] {
        let a = post(addr, "/api/best", &json!({"board": b, "ai": ai, "id": 4})).await;
        assert_eq!(a.status, 400, "{ai}");
        assert_eq!(a.json()["id"], 4);
        assert!(
            a.error().starts_with(
                "player option weights is not available over the web: it reads a file on the server"
            ),
            "{}",
            a.body
        );
    }
    let a = post(
        addr,
        "/api/best",
        &json!({"board": b, "ai": "expectimax:threads=8"}),
    )
    .await;
    assert_eq!(a.status, 400);
    assert!(a.error().contains("threads"), "{}", a.body);
    let a = post(
        addr,
        "/api/best",
        &json!({"board": b, "ai": "expectimax:tt-mb=1024"}),
    )
    .await;
    a.assert_bad_request(
        "player expectimax option tt-mb: 1024 MiB is more than this server gives a player (at most 4 MiB)",
    );
    // Options within the limits are fine.
    let a = post(
        addr,
        "/api/best",
        &json!({"board": b, "ai": "expectimax:tt-mb=2,eval=snake", "time_ms": 5}),
    )
    .await;
    assert_eq!(a.status, 200, "{}", a.body);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_search_is_capped_in_time() {
    let cap = Duration::from_millis(200);
    let config = ServerConfig {
        max_time: cap,
        ..test_config()
    };
    // The server's own default cap is 1 s: an answer within the cap plus the slack
    // below shows that the configured cap, not the default, stopped the search. The
    // slack is for HTTP on loopback and a busy machine; the search itself stops at its
    // deadline whatever the machine's speed.
    assert!(cap + SLACK < ServerConfig::default().max_time);
    let addr = start(config).await;
    let b = json!([[2, 4, 8, 16], [0, 0, 0, 0], [0, 0, 2, 0], [0, 0, 0, 0]]);
    for (request, deep) in [
        (json!({"board": b, "time_ms": 60000}), false),
        (json!({"board": b, "depth": 20}), true),
        (json!({"board": b, "ai": "expectimax:depth=20"}), true),
        (
            json!({"board": b, "ai": "expectimax:time-ms=100000"}),
            false,
        ),
        (json!({"board": b, "ai": "minimax:depth=20"}), true),
        (json!({"board": b, "ai": "mcts:playouts=1000000"}), false),
    ] {
        let started = Instant::now();
        let a = post(addr, "/api/best", &request).await;
        let took = started.elapsed();
        assert_eq!(a.status, 200, "{request}: {}", a.body);
        assert!(took < cap + SLACK, "{request} took {took:?}");
        if deep {
            // Twenty layers take far longer than the cap: the search stopped short.
            let depth = a.json()["depth"].as_u64().expect("a depth");
            assert!(depth < 20, "{request}: depth {depth}");
        }
    }
}

/// What an answer may take beyond its search's time: HTTP on loopback, on a busy
/// machine.
const SLACK: Duration = Duration::from_millis(400);

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_game_over_http() {
    let addr = start(test_config()).await;
    let a = post(addr, "/api/new", &json!({"seed": 99})).await;
    assert_eq!(a.status, 200, "{}", a.body);
    let game = a.json();
    let expected = Game::new(99, Rules::ORIGINAL).unwrap().board();
    assert_eq!(board_from_json(&game["board"]).unwrap(), expected);
    assert_eq!(game["turn"], 0);
    assert_eq!(game["seed"], 99);
    // Without a seed (or a body), the server picks one.
    let a = request(addr, "POST", "/api/new", "").await;
    assert_eq!(a.status, 200);
    assert!(a.json()["seed"].as_u64().is_some());

    // Play a game out by the page's rules, that is, the server's: each step as the engine says.
    let mut board = expected;
    let mut turn = 0u64;
    let mut score = 0u64;
    let order = [Dir::Down, Dir::Left, Dir::Right, Dir::Up];
    while let Some(dir) = order.iter().copied().find(|&d| board.can_move(d)) {
        let a = post(
            addr,
            "/api/step",
            &json!({"board": board_to_json(board), "dir": dir.name(), "seed": 99, "turn": turn}),
        )
        .await;
        assert_eq!(a.status, 200, "{}", a.body);
        let step = a.json();
        let (moved, gained) = PlayableBoard::new(board).apply_scored(dir).unwrap();
        let mut rng = Rng::new(derive_seed(99, turn));
        let (after, spawn) = moved.with_random_tile(&mut rng, 0.1);
        assert_eq!(board_from_json(&step["board"]).unwrap(), after.board());
        assert_eq!(step["score"], gained);
        assert_eq!(step["moved"], true);
        assert_eq!(
            step["spawn"],
            json!({"cell": spawn.cell, "tile": spawn.tile()})
        );
        assert_eq!(step["over"], after.is_over());
        assert_eq!(step["turn"], turn + 1);
        assert!(!step["motions"].as_array().unwrap().is_empty());
        board = after.board();
        turn += 1;
        score += u64::from(gained);
        if turn >= 60 {
            break;
        }
    }
    assert!(turn >= 20 && score > 0);

    // An illegal move changes nothing.
    let full = json!([[2, 4, 2, 4], [4, 2, 4, 2], [2, 4, 2, 4], [4, 2, 4, 2]]);
    let a = post(
        addr,
        "/api/step",
        &json!({"board": full, "dir": "up", "seed": 1, "turn": 3}),
    )
    .await;
    assert_eq!(
        a.json(),
        json!({"board": full, "score": 0, "moved": false, "spawn": null, "over": true, "turn": 3, "motions": []})
    );

    // Bad steps: the protocol's words for the board and the direction.
    for (body, message) in [
        (
            json!({"board": [[3,0,0,0],[0,0,0,0],[0,0,0,0],[0,0,0,0]], "dir": "up", "seed": 1, "turn": 0}),
            "board row 1, column 1: 3 is not a tile (expected 0 or a power of two from 2 to 131072)",
        ),
        (
            json!({"board": full, "dir": "north", "seed": 1, "turn": 0}),
            "unknown direction \"north\": expected up, down, left or right",
        ),
        (
            json!({"board": full, "dir": "up", "seed": -1, "turn": 0}),
            "\"seed\" must be an integer from 0 to 9007199254740991, found -1",
        ),
        (
            json!({"board": full, "dir": "up", "seed": 1}),
            "missing \"turn\": expected an integer from 0 to 9007199254740991",
        ),
        (
            json!({"board": full, "dir": "up", "seed": 1, "turn": 0, "score": 5}),
            "unknown field \"score\" in a step request: it takes board, dir, seed, turn",
        ),
    ] {
        let a = post(addr, "/api/step", &body).await;
        assert_eq!(a.status, 400, "{body}");
        assert_eq!(a.error(), message);
    }
    let a = post(addr, "/api/new", &json!({"seed": "x"})).await;
    assert_eq!(a.status, 400);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_players_for_the_selector() {
    let addr = start(test_config()).await;
    let a = request(addr, "GET", "/api/players", "").await;
    assert_eq!(a.status, 200);
    let info = a.json();
    assert_eq!(info["default"], "expectimax");
    assert_eq!(info["max_time_ms"], 1000);
    let names: Vec<&str> = info["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    let expected: Vec<&str> = ai2048_ai::PLAYERS.iter().map(|p| p.name).collect();
    assert_eq!(names, expected);
    let greedy = &info["players"][names.iter().position(|&n| n == "greedy").unwrap()];
    let weights = greedy["options"]
        .as_array()
        .unwrap()
        .iter()
        .find(|o| o["name"] == "weights")
        .unwrap();
    assert_eq!(weights["web"], false);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn routes_methods_and_sizes() {
    let addr = start(test_config()).await;
    let a = request(addr, "GET", "/nowhere", "").await;
    assert_eq!(a.status, 404);
    assert_eq!(a.error(), "no such route: GET /nowhere");
    let a = request(addr, "POST", "/api/fly", "{}").await;
    assert_eq!(a.status, 404);
    assert_eq!(a.header("content-type"), Some("application/json"));

    let a = request(addr, "GET", "/api/best", "").await;
    assert_eq!(a.status, 405);
    assert_eq!(a.header("allow"), Some("POST"));
    assert_eq!(
        a.error(),
        "method GET is not allowed on /api/best: use POST"
    );
    let a = request(addr, "DELETE", "/", "").await;
    assert_eq!(a.status, 405);
    assert_eq!(a.header("allow"), Some("GET"));
    let a = request(addr, "POST", "/api/players", "{}").await;
    assert_eq!(a.status, 405);

    // Too large: by its Content-Length, at once...
    let limit = test_config().body_limit;
    let big = format!(r#"{{"board":{BOARD},"pad":"{}"}}"#, "x".repeat(limit));
    let a = request(addr, "POST", "/api/legal", &big).await;
    assert_eq!(a.status, 413);
    assert!(a.error().contains("larger than 16384 bytes"), "{}", a.body);
    // ...and sent in chunks with no length.
    let mut client = Client::connect(addr).await.unwrap();
    let mut raw =
        b"POST /api/step HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n".to_vec();
    for _ in 0..20 {
        raw.extend_from_slice(format!("400\r\n{}\r\n", "y".repeat(1024)).as_bytes());
    }
    raw.extend_from_slice(b"0\r\n\r\n");
    client.send_raw(&raw).await.unwrap();
    let a = client.read_reply().await.unwrap();
    assert_eq!(a.status, 413);
    assert_eq!(a.header("content-type"), Some("application/json"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn past_capacity_the_answer_is_503_at_once() {
    let config = ServerConfig {
        workers: 1,
        queue: 0,
        max_time: Duration::from_secs(3),
        ..test_config()
    };
    let addr = start(config).await;
    let b: Value = serde_json::from_str(BOARD).unwrap();
    // The slow search is refused while a quick one below holds the worker: it asks
    // again until it is taken.
    let slow = tokio::spawn(async move {
        loop {
            let a = post(
                addr,
                "/api/best",
                &json!({"board": b, "ai": "mcts:playouts=1000000", "time_ms": 3000}),
            )
            .await;
            if a.status != 503 {
                break a;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    });
    // Until the slow search holds the worker (on a loaded machine it may take a
    // while), quick searches are served.
    let b: Value = serde_json::from_str(BOARD).unwrap();
    let spawned = Instant::now();
    let (a, took) = loop {
        let started = Instant::now();
        let a = post(addr, "/api/best", &json!({"board": b, "ai": "greedy"})).await;
        if a.status != 200 || spawned.elapsed() > Duration::from_secs(30) {
            break (a, started.elapsed());
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    };
    assert_eq!(a.status, 503, "{}", a.body);
    assert!(took < Duration::from_millis(500), "{took:?}");
    assert_eq!(a.header("retry-after"), Some("1"));
    assert!(a.error().contains("busy"), "{}", a.body);
    // Quick operations do not wait for the pool.
    let a = post(addr, "/api/legal", &json!({"board": b})).await;
    assert_eq!(a.status, 200);
    assert_eq!(slow.await.unwrap().status, 200);
    let a = post(addr, "/api/best", &json!({"board": b, "ai": "greedy"})).await;
    assert_eq!(a.status, 200);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_slow_client_blocks_nobody() {
    // Timeouts long beside 20 quick requests on any machine, so that the check below
    // is about order (served before the slow ones are cut off), not speed.
    let patience = Duration::from_secs(3);
    let addr = start(ServerConfig {
        header_timeout: patience,
        body_timeout: patience,
        ..test_config()
    })
    .await;
    // Half the headers, and half a body: then nothing.
    let mut half_head = Client::connect(addr).await.unwrap();
    half_head
        .send_raw(b"POST /api/legal HTTP/1.1\r\nHost: t\r\nContent-Le")
        .await
        .unwrap();
    let mut half_body = Client::connect(addr).await.unwrap();
    half_body
        .send_raw(b"POST /api/legal HTTP/1.1\r\nHost: t\r\nContent-Length: 100\r\n\r\n{\"board\":")
        .await
        .unwrap();
    let idle = Client::connect(addr).await.unwrap();

    // Everyone else is served, many times over, while the slow ones still wait for
    // their timeouts: none of them has heard from the server yet.
    for _ in 0..20 {
        let a = post(
            addr,
            "/api/legal",
            &serde_json::from_str::<Value>(&format!(r#"{{"board":{BOARD}}}"#)).unwrap(),
        )
        .await;
        assert_eq!(a.status, 200);
    }
    assert!(!half_body.heard_from_server().await);
    assert!(!half_head.heard_from_server().await);

    // The slow ones are cut off after the timeouts: the half body gets 408 first.
    let a = half_body.read_reply().await.unwrap();
    assert_eq!(a.status, 408, "{}", a.body);
    assert!(
        a.error().contains("did not arrive within 3000 ms"),
        "{}",
        a.body
    );
    let closed =
        tokio::time::timeout(Duration::from_secs(5), half_head.is_closed_by_server()).await;
    assert_eq!(closed, Ok(true));
    let mut idle = idle;
    let closed = tokio::time::timeout(Duration::from_secs(5), idle.is_closed_by_server()).await;
    assert_eq!(closed, Ok(true));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn keep_alive_serves_many_requests() {
    let addr = start(test_config()).await;
    let mut client = Client::connect(addr).await.unwrap();
    for i in 0..50 {
        let body = format!(r#"{{"board":{BOARD},"dir":"down","id":{i}}}"#);
        let a = client
            .request("POST", "/api/apply", body.as_bytes())
            .await
            .unwrap();
        assert_eq!(a.status, 200);
        assert_eq!(a.json()["id"], i);
    }
}
