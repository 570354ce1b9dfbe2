//! Bad input of every kind, on SQLite and PostgreSQL.

use ai2048_web::scores::DbLocation;
use serde_json::json;

use crate::common::ranked::{board_of, greedy, scores_config, start_scores, unique, Api};

/// A bad request: what it is, its path, method, token and body, and the status and
/// the start of the error it must get.
type Case<'a> = (
    &'a str,
    String,
    &'a str,
    Option<&'a str>,
    String,
    u16,
    &'a str,
);

/// Bad input of every kind: each gets a clear 4xx, nothing is written, and the
/// server goes on. Prints the bad-input table of docs/http-api.md (run with `--nocapture`).
async fn bad_input(db: DbLocation) {
    let addr = start_scores(scores_config(db)).await;
    let mut api = Api::connect(addr).await;
    let name = unique("Eve");
    let token = api.register(&name).await;
    let other = api.register(&unique("Mallory")).await;
    let game = api.new_game(&token).await;
    let id = game["id"].as_str().unwrap().to_owned();
    let mv = format!("/api/ranked/{id}/move");
    let sql = "'; DROP TABLE games; --";
    let long = "x".repeat(10_000);
    let big = format!(r#"{{"name":"{}"}}"#, "x".repeat(20_000));
    let mut cases: Vec<Case> = vec![
        (
            "a 20 KB body",
            "/api/players".into(),
            "POST",
            None,
            big,
            413,
            "the request body is larger than 16384 bytes",
        ),
        (
            "malformed JSON",
            "/api/players".into(),
            "POST",
            None,
            r#"{"name":"#.into(),
            400,
            "the registration request is not valid JSON: EOF while parsing a value at line 1 column 8",
        ),
        (
            "a JSON array",
            "/api/players".into(),
            "POST",
            None,
            "[]".into(),
            400,
            "the registration request must be a JSON object, found an array",
        ),
        (
            "a name of 10,000 characters",
            "/api/players".into(),
            "POST",
            None,
            json!({"name": long}).to_string(),
            400,
            "the name has 10000 characters, more than 20",
        ),
        (
            "a name with a control character",
            "/api/players".into(),
            "POST",
            None,
            json!({"name": "a\u{0}b"}).to_string(),
            400,
            "character 2 of the name, U+0000, a control character, is not allowed",
        ),
        (
            "a name in HTML",
            "/api/players".into(),
            "POST",
            None,
            json!({"name": "<b>Eve</b>"}).to_string(),
            400,
            "character 1 of the name, \"<\", is not allowed",
        ),
        (
            "SQL in the name",
            "/api/players".into(),
            "POST",
            None,
            json!({"name": "x';DROP TABLE x"}).to_string(),
            400,
            "character 2 of the name, \"'\", is not allowed",
        ),
        (
            "a name that is a number",
            "/api/players".into(),
            "POST",
            None,
            r#"{"name":7}"#.into(),
            400,
            "\"name\" in the registration request: invalid type: integer `7`, expected a string",
        ),
        (
            "a name that is null",
            "/api/players".into(),
            "POST",
            None,
            r#"{"name":null}"#.into(),
            400,
            "\"name\" in the registration request: invalid type: null, expected a string",
        ),
        (
            "an unknown field",
            "/api/players".into(),
            "POST",
            None,
            r#"{"name":"ok","admin":true}"#.into(),
            400,
            "\"admin\" in the registration request: unknown field `admin`, expected `name`",
        ),
        (
            "SQL in the token",
            "/api/ranked".into(),
            "POST",
            Some("' OR '1'='1"),
            String::new(),
            401,
            "unknown token: no player has it",
        ),
        (
            "a turn of -1",
            mv.clone(),
            "POST",
            Some(&token),
            r#"{"dir":"up","turn":-1}"#.into(),
            400,
            "\"turn\" in the move request: invalid value: integer `-1`, expected an integer from 0 to 9007199254740991",
        ),
        (
            "a turn of 2^53",
            mv.clone(),
            "POST",
            Some(&token),
            r#"{"dir":"up","turn":9007199254740992}"#.into(),
            400,
            "\"turn\" in the move request: invalid value: integer `9007199254740992`, expected an integer from 0 to 9007199254740991",
        ),
        (
            "a turn of 1e300",
            mv.clone(),
            "POST",
            Some(&token),
            r#"{"dir":"up","turn":1e300}"#.into(),
            400,
            "\"turn\" in the move request: invalid value: floating point `1e+300`, expected an integer from 0 to 9007199254740991",
        ),
        (
            "a turn that is a string",
            mv.clone(),
            "POST",
            Some(&token),
            r#"{"dir":"up","turn":"0"}"#.into(),
            400,
            "\"turn\" in the move request: invalid type: string \"0\", expected an integer from 0 to 9007199254740991",
        ),
        (
            "a turn far ahead",
            mv.clone(),
            "POST",
            Some(&token),
            r#"{"dir":"up","turn":5}"#.into(),
            409,
            "\"turn\" is 5, but the game is at turn 0",
        ),
        (
            "a direction that is a number",
            mv.clone(),
            "POST",
            Some(&token),
            r#"{"dir":1,"turn":0}"#.into(),
            400,
            "\"dir\" in the move request: invalid type: integer `1`, expected a direction: up, down, left or right",
        ),
        (
            "SQL in the direction",
            mv.clone(),
            "POST",
            Some(&token),
            json!({"dir": sql, "turn": 0}).to_string(),
            400,
            "\"dir\" in the move request: unknown direction \"'; DROP TABLE games; --\"",
        ),
        (
            "\"ai\" that is a string",
            mv.clone(),
            "POST",
            Some(&token),
            r#"{"dir":"up","turn":0,"ai":"yes"}"#.into(),
            400,
            "\"ai\" in the move request: invalid type: string \"yes\", expected a boolean",
        ),
        (
            "another player's token",
            mv.clone(),
            "POST",
            Some(&other),
            r#"{"dir":"up","turn":0}"#.into(),
            403,
            "game ",
        ),
        (
            "no token",
            mv.clone(),
            "POST",
            None,
            r#"{"dir":"up","turn":0}"#.into(),
            401,
            "missing Authorization: Bearer TOKEN",
        ),
        (
            "an unknown game",
            "/api/ranked/0123456789abcdef0123/move".into(),
            "POST",
            Some(&token),
            r#"{"dir":"up","turn":0}"#.into(),
            404,
            "no ranked game \"0123456789abcdef0123\"",
        ),
        (
            "SQL in the game's id",
            "/api/ranked/'%3B%20DROP%20TABLE%20games%3B--".into(),
            "GET",
            None,
            String::new(),
            404,
            "no ranked game \"'; DROP TABLE games;--\"",
        ),
        (
            "SQL in a player's name",
            "/api/players/x'%20OR%20'1'%3D'1".into(),
            "GET",
            None,
            String::new(),
            404,
            "no player named \"x' OR '1'='1\"",
        ),
        (
            "SQL in the leaderboard's limit",
            "/api/leaderboard?limit=1;DROP%20TABLE%20games".into(),
            "GET",
            None,
            String::new(),
            400,
            "limit=1;DROP TABLE games is not an integer from 1 to 100",
        ),
        (
            "a move without its turn",
            mv.clone(),
            "POST",
            Some(&token),
            r#"{"dir":"up"}"#.into(),
            400,
            "the move request: missing field `turn`",
        ),
        (
            "an unknown parameter of the leaderboard",
            "/api/leaderboard?sort=score".into(),
            "GET",
            None,
            String::new(),
            400,
            "the leaderboard's query: unknown field `sort`, expected one of `limit`, `offset`, `after`, `human`",
        ),
    ];
    cases.push((
        "a game's id that is not UTF-8",
        "/api/ranked/%FF".into(),
        "GET",
        None,
        String::new(),
        400,
        "the path does not decode to text: Invalid URL: Invalid UTF-8 in `id`",
    ));
    eprintln!("| what was sent | request | status | error |\n| --- | --- | --- | --- |");
    for (what, path, method, auth, body, status, error) in cases {
        let reply = api.send(method, &path, auth, &body).await;
        assert_eq!(reply.status, status, "{what}: {}", reply.body);
        let message = reply.error();
        assert!(
            message.starts_with(error),
            "{what}: {message:?} does not start with {error:?}"
        );
        eprintln!(
            "| {what} | `{method} {}` | {status} | {} |",
            path.replace(&id, "G"),
            message.replace('|', "\\|")
        );
    }
    // Nothing was written: the game is where it was, no other player exists, and
    // the server still plays.
    let shown = api.get(&format!("/api/ranked/{id}")).await.json();
    assert_eq!(
        (shown["turn"].clone(), shown["board"].clone()),
        (json!(0), game["board"].clone())
    );
    for missing in ["ok", "7", "x"] {
        assert_eq!(
            api.get(&format!("/api/players/{missing}")).await.status,
            404,
            "{missing}"
        );
    }
    let dir = greedy(board_of(&game)).unwrap();
    assert_eq!(api.play(&token, &id, dir, 0, false).await.status, 200);
}

on_both_databases!(bad_input: bad_input_on_sqlite("bad"), bad_input_on_postgres);
