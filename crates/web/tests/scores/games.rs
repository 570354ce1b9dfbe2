//! Every status, abandoned games, games begun before keyed spawns, and the referee:
//! many games at once whose recorded scores are their replays'.

use std::sync::Arc;
use std::time::Duration;

use ai2048_engine::keyed::SpawnKey;
use ai2048_engine::{Dir, Game, Replay, Rng, Rules, SpawnStream};
use ai2048_web::scores::{now_ms, token_hash, Db, DbLocation, NewGame, NewPlayer, Scores};
use serde_json::{json, Value};

use crate::common::ranked::{
    board_of, greedy, postgres, scores_config, serve_scores, start_scores, unique, Api, TempSqlite,
};
use crate::common::test_config;

/// Plays game `id` to its end with the greedy player; returns the last answer.
async fn play_out(api: &mut Api, token: &str, id: &str, start: &Value, ai: bool) -> Value {
    let mut state = start.clone();
    let mut turn = start["turn"].as_u64().unwrap();
    while let Some(dir) = greedy(board_of(&state)) {
        let reply = api.play(token, id, dir, turn, ai).await;
        assert_eq!(reply.status, 200, "{}", reply.body);
        state = reply.json();
        assert_eq!(state["moved"], true);
        turn += 1;
        assert_eq!(state["turn"], turn);
    }
    assert_eq!(state["over"], true);
    state
}

/// The replay of finished game `id`.
async fn replay_of(api: &mut Api, id: &str) -> Replay {
    let reply = api.get(&format!("/api/ranked/{id}/replay")).await;
    assert_eq!(reply.status, 200, "{}", reply.body);
    reply.body.parse().unwrap()
}

/// Every entry of the leaderboard (`query` added to each page's), `limit` at a time,
/// each page after the `next` of the one before; the ranks follow one another and the
/// scores go down.
async fn whole_leaderboard(api: &mut Api, limit: usize, query: &str) -> Vec<Value> {
    let mut all: Vec<Value> = Vec::new();
    let mut after = String::new();
    loop {
        let path = format!("/api/leaderboard?limit={limit}{after}{query}");
        let reply = api.get(&path).await;
        assert_eq!(reply.status, 200, "{}", reply.body);
        let body = reply.json();
        let page = body["entries"].as_array().unwrap();
        for e in page {
            assert_eq!(e["rank"], all.len() + 1, "{path}");
            if let Some(before) = all.last() {
                assert!(before["score"].as_u64() >= e["score"].as_u64());
            }
            all.push(e.clone());
        }
        match body["next"].as_str() {
            Some(next) => {
                assert_eq!(page.len(), limit);
                after = format!("&after={next}");
            }
            None => return all,
        }
    }
}

async fn statuses(db: DbLocation) {
    let addr = start_scores(scores_config(db)).await;
    let mut api = Api::connect(addr).await;

    // Players.
    let name = unique("Ada ");
    let token = api.register(&name).await;
    assert_eq!(token.len(), 64);
    let reply = api
        .send(
            "POST",
            "/api/players",
            None,
            &json!({"name": name.to_uppercase()}).to_string(),
        )
        .await;
    assert_eq!(reply.status, 409, "{}", reply.body);
    assert!(reply
        .error()
        .contains("is taken (names are unique ignoring case)"));
    let reply = api
        .send("POST", "/api/players", None, r#"{"name":"<b>x</b>"}"#)
        .await;
    assert_eq!(reply.status, 400);
    assert!(
        reply.error().starts_with("character 1 of the name, \"<\""),
        "{}",
        reply.body
    );
    let reply = api
        .send("POST", "/api/players", None, r#"{"name":7}"#)
        .await;
    assert_eq!(
        (reply.status, reply.error()),
        (
            400,
            "\"name\" in the registration request: invalid type: integer `7`, expected a string"
                .to_owned()
        )
    );

    // New games.
    let reply = api.send("POST", "/api/ranked", None, "").await;
    assert_eq!(reply.status, 401);
    assert!(reply.error().starts_with("missing Authorization"));
    let reply = api
        .send("POST", "/api/ranked", Some(&"0".repeat(64)), "")
        .await;
    assert_eq!(
        (reply.status, reply.error()),
        (401, "unknown token: no player has it".to_owned())
    );
    let game = api.new_game(&token).await;
    let id = game["id"].as_str().unwrap().to_owned();
    assert_eq!(id.len(), 20);
    assert_eq!(
        (
            game["score"].clone(),
            game["turn"].clone(),
            game["over"].clone()
        ),
        (json!(0), json!(0), json!(false))
    );
    assert_eq!(board_of(&game).empty_count(), 14);

    // The game as it stands: no seed while it runs.
    let shown = api.get(&format!("/api/ranked/{id}")).await;
    assert_eq!(shown.status, 200);
    let shown = shown.json();
    assert_eq!(shown["player"], name);
    assert_eq!(shown["board"], game["board"]);
    assert!(shown.get("seed").is_none() && shown.get("moves").is_none());
    assert!(shown.get("spawn_key").is_none());
    let reply = api.get(&format!("/api/ranked/{id}/replay")).await;
    assert_eq!(reply.status, 409);
    assert!(reply.error().contains("still being played"));

    // Moves: authorization, ownership, unknown games, bad bodies, turns.
    let dir = greedy(board_of(&game)).unwrap();
    let body = json!({"dir": dir.name(), "turn": 0}).to_string();
    let path = format!("/api/ranked/{id}/move");
    assert_eq!(api.send("POST", &path, None, &body).await.status, 401);
    let other = api.register(&unique("Bob")).await;
    let reply = api.send("POST", &path, Some(&other), &body).await;
    assert_eq!(reply.status, 403);
    assert!(reply.error().contains("is not yours"), "{}", reply.body);
    let reply = api
        .send(
            "POST",
            "/api/ranked/00000000000000000000/move",
            Some(&token),
            &body,
        )
        .await;
    assert_eq!(
        (reply.status, reply.error()),
        (404, "no ranked game \"00000000000000000000\"".to_owned())
    );
    assert_eq!(api.get("/api/ranked/nope").await.status, 404);
    let reply = api
        .send("POST", &path, Some(&token), r#"{"dir":"north","turn":0}"#)
        .await;
    assert_eq!(
        (reply.status, reply.error()),
        (
            400,
            "\"dir\" in the move request: unknown direction \"north\": expected up, down, left \
             or right"
                .to_owned()
        )
    );
    let reply = api
        .send(
            "POST",
            &path,
            Some(&token),
            &json!({"dir": dir.name(), "turn": 1}).to_string(),
        )
        .await;
    assert_eq!(reply.status, 409);
    assert_eq!(
        reply.error(),
        "\"turn\" is 1, but the game is at turn 0: send the game's turn now"
    );
    assert_eq!(reply.json()["game"]["turn"], 0);
    assert_eq!(reply.json()["game"]["board"], game["board"]);

    // A move, and the same move again: the same answer, applied once.
    let first = api.send("POST", &path, Some(&token), &body).await;
    assert_eq!(first.status, 200, "{}", first.body);
    let again = api.send("POST", &path, Some(&token), &body).await;
    assert_eq!((again.status, &again.body), (200, &first.body));
    let first = first.json();
    assert_eq!(
        (first["turn"].clone(), first["moved"].clone()),
        (json!(1), json!(true))
    );
    let shown = api.get(&format!("/api/ranked/{id}")).await.json();
    assert_eq!(
        (shown["turn"].clone(), shown["board"].clone()),
        (json!(1), first["board"].clone())
    );
    // The same turn with another direction is a conflict, not a retry.
    let other_dir = Dir::ALL.into_iter().find(|d| *d != dir).unwrap();
    let reply = api.play(&token, &id, other_dir, 0, false).await;
    assert_eq!(reply.status, 409, "{}", reply.body);

    // Play it out; then it is over.
    let last = play_out(&mut api, &token, &id, &first, false).await;
    let reply = api
        .play(&token, &id, Dir::Up, last["turn"].as_u64().unwrap(), false)
        .await;
    assert_eq!(reply.status, 409);
    assert_eq!(reply.error(), "the game is over: no move is left");
    // Its last move sent again still gets its answer.
    let finished = api.get(&format!("/api/ranked/{id}")).await.json();
    assert_eq!(finished["over"], true);
    assert_eq!(finished["end"], "no moves");
    assert_eq!(finished["score"], last["score"]);
    let moves = finished["moves"].as_array().unwrap();
    assert_eq!(moves.len() as u64, finished["turn"].as_u64().unwrap());
    // Its spawns came from a key of 256 bits, public now; it has no seed.
    let key: SpawnKey = finished["spawn_key"].as_str().unwrap().parse().unwrap();
    assert!(finished.get("seed").is_none());
    let replay = api.get(&format!("/api/ranked/{id}/replay")).await;
    assert_eq!(replay.status, 200);
    assert_eq!(
        replay.header("content-type"),
        Some("text/plain; charset=utf-8")
    );
    let text = replay.body;
    assert!(
        text.contains(&format!("\nspawns keyed {}\n", key.to_hex())),
        "{text}"
    );
    let replay: Replay = text.parse().unwrap();
    assert_eq!((replay.seed, replay.spawns), (0, SpawnStream::Keyed(key)));
    assert_eq!(
        replay.verify().unwrap().score(),
        last["score"].as_u64().unwrap()
    );
    // One spawn changed, and the replay no longer verifies.
    let mut tampered = replay.clone();
    let (dir, spawn) = tampered.turns[0];
    let mut spawn = spawn.unwrap();
    spawn.exponent = 3 - spawn.exponent;
    tampered.turns[0] = (dir, Some(spawn));
    let e = tampered
        .to_string()
        .parse::<Replay>()
        .unwrap()
        .verify()
        .unwrap_err();
    assert_eq!(e.at, 1, "{e}");

    // A game of the AI, on the leaderboard but not the human one.
    let ai_game = api.new_game(&other).await;
    let ai_id = ai_game["id"].as_str().unwrap().to_owned();
    let ai_last = play_out(&mut api, &other, &ai_id, &ai_game, true).await;
    let entries = whole_leaderboard(&mut api, 100, "").await;
    let entry = entries
        .iter()
        .find(|e| e["game"] == id.as_str())
        .expect("the game is on the leaderboard");
    assert_eq!(entry["name"], name);
    assert_eq!(entry["score"], last["score"]);
    assert_eq!(entry["ai_moves"], 0);
    let ai_entry = entries
        .iter()
        .find(|e| e["game"] == ai_id.as_str())
        .expect("the AI's game too");
    assert_eq!(ai_entry["ai_moves"], ai_last["turn"]);
    let human = whole_leaderboard(&mut api, 100, "&human=true").await;
    assert!(human.iter().any(|e| e["game"] == id.as_str()));
    assert!(human
        .iter()
        .all(|e| e["game"] != ai_id.as_str() && e["ai_moves"] == 0));
    let page = api.get("/api/leaderboard?limit=1&offset=1").await.json();
    assert_eq!(page["entries"][0]["rank"], 2);
    for bad in [
        "limit=0x",
        "limit=101",
        "offset=-1",
        "offset=10001",
        "after=abc",
        "after=1.2.3.0123456789abcdef012x",
        "after=1.2.3.0123456789abcdef0123.4",
        "offset=0&after=1.2.3.0123456789abcdef0123",
        "human=maybe",
        "sort=score",
    ] {
        let reply = api.get(&format!("/api/leaderboard?{bad}")).await;
        assert_eq!(reply.status, 400, "{bad}: {}", reply.body);
    }

    // The player's page.
    let page = api
        .get(&format!(
            "/api/players/{}",
            name.to_lowercase().replace(' ', "%20")
        ))
        .await;
    assert_eq!(page.status, 200, "{}", page.body);
    let page = page.json();
    assert_eq!(page["name"], name);
    assert_eq!(page["best_score"], last["score"]);
    assert_eq!(page["games_played"], 1);
    assert_eq!(page["recent"][0]["game"], id.as_str());
    assert_eq!(api.get("/api/players/nobody%20here").await.status, 404);

    // Wrong methods.
    let reply = api.send("DELETE", "/api/ranked", None, "").await;
    assert_eq!((reply.status, reply.header("allow")), (405, Some("POST")));
    let reply = api.send("POST", "/api/leaderboard", None, "").await;
    assert_eq!((reply.status, reply.header("allow")), (405, Some("GET")));
}

on_both_databases!(statuses: statuses_on_sqlite("statuses"), statuses_on_postgres);

async fn abandoned(db: DbLocation) {
    let mut config = scores_config(db);
    config.abandon_after = Duration::from_millis(700);
    let addr = start_scores(config).await;
    let mut api = Api::connect(addr).await;
    let name = unique("Idle");
    let token = api.register(&name).await;
    let game = api.new_game(&token).await;
    let id = game["id"].as_str().unwrap();
    let dir = greedy(board_of(&game)).unwrap();
    let reply = api.play(&token, id, dir, 0, false).await;
    assert_eq!(reply.status, 200);
    let score = reply.json()["score"].clone();
    tokio::time::sleep(Duration::from_millis(900)).await;
    let reply = api.play(&token, id, Dir::Up, 1, false).await;
    assert_eq!(reply.status, 409, "{}", reply.body);
    assert_eq!(
        reply.error(),
        "the game is over: it was abandoned (no move for too long)"
    );
    let shown = api.get(&format!("/api/ranked/{id}")).await.json();
    assert_eq!(
        (shown["over"].clone(), shown["end"].clone()),
        (json!(true), json!("abandoned"))
    );
    assert_eq!(
        (shown["turn"].clone(), shown["score"].clone()),
        (json!(1), score)
    );
    assert_eq!(replay_of(&mut api, id).await.verify().unwrap().moves(), 1);
    // A game never touched again ends too, found by the sweep of the leaderboard
    // and of the players' pages (the database may hold better games of other runs,
    // so it is looked for on its player's page).
    let idle = api.new_game(&token).await;
    tokio::time::sleep(Duration::from_millis(1100)).await;
    assert_eq!(api.get("/api/leaderboard").await.status, 200);
    let page = api.get(&format!("/api/players/{name}")).await.json();
    let recent = page["recent"].as_array().unwrap();
    let entry = recent
        .iter()
        .find(|e| e["game"] == idle["id"])
        .expect("the idle game");
    assert_eq!(
        (entry["over"].clone(), entry["moves"].clone()),
        (json!(true), json!(0))
    );
    assert_eq!(page["games_played"], 2, "{page}");
}

on_both_databases!(
    abandoned: abandoned_games_end_and_count_on_sqlite("abandoned"),
    abandoned_games_end_and_count_on_postgres
);

/// A player has at most `max_open_games` games open: past it a new game gets 409
/// naming the open ones and how to end one; a game ended by its player
/// (`POST /api/ranked/G/end`, which may be sent again) or left without a move for
/// `abandon_after` no longer counts.
async fn open_games_capped(db: DbLocation) {
    let mut config = scores_config(db);
    config.max_open_games = 2;
    config.abandon_after = Duration::from_secs(2);
    let addr = start_scores(config).await;
    let mut api = Api::connect(addr).await;
    let name = unique("Cap");
    let token = api.register(&name).await;
    let first = api.new_game(&token).await["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let second = api.new_game(&token).await["id"]
        .as_str()
        .unwrap()
        .to_owned();
    let refused = api.send("POST", "/api/ranked", Some(&token), "").await;
    assert_eq!(refused.status, 409, "{}", refused.body);
    assert_eq!(
        refused.error(),
        "you have 2 open ranked games, the most a player may have (2): finish one, end one \
         with POST /api/ranked/G/end, or leave one without a move for 2 s, after which it \
         ends as abandoned"
    );
    let mut open: Vec<Value> = refused.json()["open_games"].as_array().unwrap().clone();
    open.sort_by_key(ToString::to_string);
    let mut expected = vec![json!(first), json!(second)];
    expected.sort_by_key(ToString::to_string);
    assert_eq!(open, expected);

    // Only its player ends a game; it ends as it stands, and counts.
    let end = format!("/api/ranked/{first}/end");
    let other = api.register(&unique("Cap")).await;
    assert_eq!(api.send("POST", &end, Some(&other), "").await.status, 403);
    assert_eq!(api.send("POST", &end, None, "").await.status, 401);
    let reply = api.send("POST", &end, Some(&token), "{\"x\":1}").await;
    reply.assert_bad_request(
        "\"x\" in the game end request: unknown field `x`, there are no fields",
    );
    let ended = api.send("POST", &end, Some(&token), "").await;
    assert_eq!(ended.status, 200, "{}", ended.body);
    let ended = ended.json();
    assert_eq!(
        (
            ended["over"].clone(),
            ended["end"].clone(),
            ended["turn"].clone()
        ),
        (json!(true), json!("resigned"), json!(0))
    );
    assert!(ended["spawn_key"].is_string() && ended["moves"] == json!([]));
    // Sent again: the same game, still over.
    let again = api.send("POST", &end, Some(&token), "{}").await;
    assert_eq!((again.status, again.json()), (200, ended));
    let reply = api.play(&token, &first, Dir::Up, 0, false).await;
    assert_eq!(
        (reply.status, reply.error()),
        (409, "the game is over: its player ended it".to_owned())
    );
    let replay = replay_of(&mut api, &first).await;
    assert_eq!(replay.verify().unwrap().moves(), 0);

    // Room for one more, and no more.
    api.new_game(&token).await;
    let refused = api.send("POST", "/api/ranked", Some(&token), "").await;
    assert_eq!(refused.status, 409, "{}", refused.body);
    // Another player's games are theirs to count.
    api.new_game(&other).await;

    // Left alone, open games are abandoned and no longer count, swept or not.
    tokio::time::sleep(Duration::from_millis(2100)).await;
    api.new_game(&token).await;
    api.new_game(&token).await;
    let page = api.get(&format!("/api/players/{name}")).await.json();
    assert_eq!(page["games_played"], 3, "{page}");

    // Requests at once do not pass the limit together.
    let token = api.register(&unique("Rush")).await;
    let tasks: Vec<_> = (0..8)
        .map(|_| {
            let token = token.clone();
            tokio::spawn(async move {
                let mut api = Api::connect(addr).await;
                api.send("POST", "/api/ranked", Some(&token), "")
                    .await
                    .status
            })
        })
        .collect();
    let mut statuses = Vec::new();
    for task in tasks {
        statuses.push(task.await.unwrap());
    }
    statuses.sort_unstable();
    assert_eq!(statuses, [201, 201, 409, 409, 409, 409, 409, 409]);
}

on_both_databases!(
    open_games_capped: open_games_are_capped_on_sqlite("open-cap"),
    open_games_are_capped_on_postgres
);

/// The leaderboard read page by page with `after`: ties (games of one score) in the
/// order they ended, no entry twice, however deep; on a database no other test
/// writes, the same entries as pages read by `offset`. A finished game's replay and
/// moves are kept in memory once read, and answered the same from there.
async fn pages_and_kept_games(db: DbLocation) {
    let sqlite = matches!(db, DbLocation::Sqlite(_));
    let scores = Scores::open(scores_config(db)).await.unwrap();
    let addr = serve_scores(Arc::clone(&scores), test_config()).await;
    let mut api = Api::connect(addr).await;
    let token = api.register(&unique("Page")).await;
    let mut ours = Vec::new();
    for _ in 0..7 {
        let id = api.new_game(&token).await["id"]
            .as_str()
            .unwrap()
            .to_owned();
        let reply = api
            .send("POST", &format!("/api/ranked/{id}/end"), Some(&token), "")
            .await;
        assert_eq!(reply.status, 200, "{}", reply.body);
        let ended = reply.json()["ended_at"].as_str().unwrap().to_owned();
        ours.push((ended, id));
    }
    // Ties of score in the order they ended (to the millisecond), then by id.
    ours.sort();
    let ours: Vec<String> = ours.into_iter().map(|(_, id)| id).collect();
    let all = whole_leaderboard(&mut api, 3, "&human=true").await;
    let mut seen = std::collections::HashSet::new();
    assert!(all.iter().all(|e| seen.insert(e["game"].to_string())));
    let found: Vec<&str> = all
        .iter()
        .filter_map(|e| e["game"].as_str())
        .filter(|g| ours.iter().any(|o| o == g))
        .collect();
    assert_eq!(found, ours);
    if sqlite {
        let mut by_offset = Vec::new();
        for offset in (0..all.len() + 3).step_by(3) {
            let path = format!("/api/leaderboard?limit=3&offset={offset}&human=true");
            let page = api.get(&path).await.json();
            by_offset.extend(page["entries"].as_array().unwrap().iter().cloned());
        }
        assert_eq!(by_offset, all);
    }

    // Answers of finished games are kept, once read (each end answered its game);
    // an open game's are not.
    assert_eq!(scores.finished().usage().0, 7);
    let open = api.new_game(&token).await["id"]
        .as_str()
        .unwrap()
        .to_owned();
    api.get(&format!("/api/ranked/{open}")).await;
    assert_eq!(scores.finished().usage().0, 7);
    let id = &ours[0];
    let replay = api.get(&format!("/api/ranked/{id}/replay")).await;
    let game = api.get(&format!("/api/ranked/{id}")).await;
    assert_eq!(scores.finished().usage().0, 8);
    let again = api.get(&format!("/api/ranked/{id}/replay")).await;
    assert_eq!((again.status, &again.body), (200, &replay.body));
    assert_eq!(again.header("content-type"), replay.header("content-type"));
    let again = api.get(&format!("/api/ranked/{id}")).await;
    assert_eq!((again.status, again.json()), (200, game.json()));
    assert_eq!(scores.finished().usage().0, 8);
}

on_both_databases!(
    pages_and_kept_games: leaderboard_pages_and_kept_games_on_sqlite("pages"),
    leaderboard_pages_and_kept_games_on_postgres
);

/// A registration sent with an `Idempotency-Key` and sent again (its answer lost)
/// gets the same answer, token included, also when sent twice at once; another key,
/// or none, for the taken name still gets 409; the key for another name, 422.
async fn registration_again(db: DbLocation) {
    let addr = start_scores(scores_config(db)).await;
    let mut api = Api::connect(addr).await;
    let register = |name: &str| json!({ "name": name }).to_string();
    let name = unique("Again");
    let key = format!("{}-{}", unique("key"), "0123456789abcdef");
    let with_key = [("Idempotency-Key", key.as_str())];
    let first = api
        .send_with("POST", "/api/players", None, &with_key, &register(&name))
        .await;
    assert_eq!(first.status, 201, "{}", first.body);
    let token = first.json()["token"].as_str().unwrap().to_owned();
    for sent in [name.clone(), name.to_uppercase()] {
        let again = api
            .send_with("POST", "/api/players", None, &with_key, &register(&sent))
            .await;
        assert_eq!((again.status, again.json()), (201, first.json()));
    }
    api.new_game(&token).await;
    let other_key = [("Idempotency-Key", "another-key-0123456789")];
    for headers in [&other_key[..], &[]] {
        let reply = api
            .send_with("POST", "/api/players", None, headers, &register(&name))
            .await;
        assert_eq!(reply.status, 409, "{headers:?}: {}", reply.body);
        assert!(reply.error().contains("is taken"), "{}", reply.body);
    }
    let elsewhere = unique("Other");
    let reply = api
        .send_with(
            "POST",
            "/api/players",
            None,
            &with_key,
            &register(&elsewhere),
        )
        .await;
    assert_eq!(
        (reply.status, reply.error()),
        (
            422,
            format!(
                "this Idempotency-Key registered the name \"{name}\", not \"{elsewhere}\": \
                 a new registration needs a key of its own"
            )
        )
    );
    for bad in ["short", "a key with spaces in it", &"k".repeat(256)] {
        let reply = api
            .send_with(
                "POST",
                "/api/players",
                None,
                &[("Idempotency-Key", bad)],
                &register(&elsewhere),
            )
            .await;
        reply.assert_bad_request("the Idempotency-Key must be 16 to 255 visible ASCII characters");
    }

    // Sent twice at once: one registration, both answers the same.
    let name = unique("Twice");
    let key = format!("{}-twice-0123456789", unique("key"));
    let tasks: Vec<_> = (0..4)
        .map(|_| {
            let (name, key) = (name.clone(), key.clone());
            tokio::spawn(async move {
                let mut api = Api::connect(addr).await;
                let body = json!({ "name": name }).to_string();
                let headers = [("Idempotency-Key", key.as_str())];
                let reply = api
                    .send_with("POST", "/api/players", None, &headers, &body)
                    .await;
                (reply.status, reply.json())
            })
        })
        .collect();
    let mut answers = Vec::new();
    for task in tasks {
        answers.push(task.await.unwrap());
    }
    assert_eq!(answers[0].0, 201, "{answers:?}");
    assert!(answers.iter().all(|a| *a == answers[0]), "{answers:?}");
}

on_both_databases!(
    registration_again: a_registration_sent_again_gets_its_token_on_sqlite("again"),
    a_registration_sent_again_gets_its_token_on_postgres
);

/// A game begun before keyed spawns (schema 2: a seed, no key) plays on under its
/// seed's spawns, and its replay is the per-turn replay of its seed.
async fn seeded_game_plays_on(db: DbLocation) {
    let (name, token, seed) = (unique("Old"), unique("token"), 7);
    let id = format!("{:08x}{:012x}", std::process::id(), now_ms());
    let start = Game::with_spawns(seed, Rules::ORIGINAL, SpawnStream::PerTurn).unwrap();
    {
        let old = Db::open(&db, false).await.unwrap();
        let key = name.to_lowercase();
        let player = NewPlayer {
            name: &name,
            key: &key,
            token_hash: &token_hash(&token),
            at: 1,
            idempotency: None,
        };
        assert!(old.create_player(&player).await.unwrap());
        let game = NewGame {
            id: &id,
            player_key: &key,
            seed,
            spawn_key: None,
            board: start.board(),
            at: now_ms(),
        };
        old.create_game(&game, None).await.unwrap().unwrap();
    }
    let addr = start_scores(scores_config(db)).await;
    let mut api = Api::connect(addr).await;
    let shown = api.get(&format!("/api/ranked/{id}")).await.json();
    assert_eq!(board_of(&shown), start.board());
    let mut game = start;
    let last = play_out(&mut api, &token, &id, &shown, false).await;
    let finished = api.get(&format!("/api/ranked/{id}")).await.json();
    assert_eq!(
        (finished["seed"].clone(), finished.get("spawn_key")),
        (json!(seed), None)
    );
    let text = api.get(&format!("/api/ranked/{id}/replay")).await.body;
    let replay: Replay = text.parse().unwrap();
    assert_eq!((replay.seed, replay.spawns), (seed, SpawnStream::PerTurn));
    for &(dir, _) in &replay.turns {
        game.try_play(dir).unwrap();
    }
    assert_eq!(game.replay(), replay);
    assert_eq!(
        Some(replay.verify().unwrap().score()),
        last["score"].as_u64()
    );
}

on_both_databases!(
    seeded_game_plays_on: a_seeded_game_plays_on_on_sqlite("seeded"),
    a_seeded_game_plays_on_on_postgres
);

/// Plays `games` games with `clients` clients at once, half by a seeded random
/// player and half by the greedy player, and checks that every recorded score is the
/// one its replay computes.
async fn referee(db: DbLocation, games: usize, clients: usize) {
    let addr = start_scores(scores_config(db)).await;
    let mut tasks = Vec::new();
    for c in 0..clients {
        tasks.push(tokio::spawn(async move {
            let mut api = Api::connect(addr).await;
            let token = api.register(&unique("ref")).await;
            let mut rng = Rng::new(c as u64);
            let mut checked = 0;
            for g in (c..games).step_by(clients) {
                let random = g % 2 == 0;
                let game = api.new_game(&token).await;
                let id = game["id"].as_str().unwrap().to_owned();
                let mut state = game;
                let mut turn = 0;
                loop {
                    let board = board_of(&state);
                    let dir = if random {
                        let legal: Vec<Dir> = board.legal_dirs().iter().collect();
                        if legal.is_empty() {
                            None
                        } else {
                            Some(legal[(rng.next_u64() % legal.len() as u64) as usize])
                        }
                    } else {
                        greedy(board)
                    };
                    let Some(dir) = dir else { break };
                    let reply = api.play(&token, &id, dir, turn, !random).await;
                    assert_eq!(reply.status, 200, "{}", reply.body);
                    state = reply.json();
                    turn += 1;
                }
                let recorded = api.get(&format!("/api/ranked/{id}")).await.json();
                assert_eq!(recorded["over"], true);
                assert_eq!(recorded["score"], state["score"]);
                let text = api.get(&format!("/api/ranked/{id}/replay")).await.body;
                let replay: Replay = text.parse().unwrap_or_else(|e| panic!("{e}: {text}"));
                let replayed = replay.verify().unwrap();
                assert_eq!(Some(replayed.score()), recorded["score"].as_u64());
                assert_eq!(replayed.moves() as u64, turn);
                checked += 1;
            }
            checked
        }));
    }
    let mut checked = 0;
    for task in tasks {
        checked += task.await.unwrap();
    }
    assert_eq!(checked, games);
}

/// 120 games on SQLite unless `AI2048_REFEREE_GAMES` says how many (the 1,000 of
/// earlier commits took a minute of every CI run's debug build, two on a slow
/// machine, and 300 half a minute): `AI2048_REFEREE_GAMES=1000 cargo test -p
/// ai2048-web --test scores referee` plays more.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn referee_games_on_sqlite() {
    let games = match std::env::var("AI2048_REFEREE_GAMES") {
        Err(_) => 120,
        Ok(text) => text
            .parse()
            .unwrap_or_else(|_| panic!("AI2048_REFEREE_GAMES is {text:?}, not a number of games")),
    };
    let db = TempSqlite::new("referee");
    referee(db.location(), games, 8).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn referee_games_on_postgres() {
    if let Some(db) = postgres("referee_games_on_postgres") {
        referee(db, 80, 8).await;
    }
}
