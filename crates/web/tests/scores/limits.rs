//! The rate limits, the client behind a trusted proxy, and what a page of another
//! origin reads.

use std::time::Duration;

use ai2048_engine::Dir;
use ai2048_web::scores::{Rate, RateLimits};
use serde_json::json;

use crate::common;
use crate::common::ranked::{
    board_of, greedy, scores_config, start_scores, start_scores_with, unique, Api, TempSqlite,
};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rate_limits_answer_429_with_retry_after() {
    let db = TempSqlite::new("limits");
    let mut config = scores_config(db.location());
    config.limits = RateLimits {
        players: Rate::per_hour(2),
        games: Rate::per_minute(2),
        moves: Rate::per_second(5),
        reads: Rate::per_second(1000),
        requests: Rate::per_second(1000),
    };
    let addr = start_scores(config).await;
    let mut api = Api::connect(addr).await;
    let token = api.register(&unique("Fast")).await;
    api.register(&unique("Fast")).await;
    let reply = api
        .send("POST", "/api/players", None, r#"{"name":"third"}"#)
        .await;
    assert_eq!(reply.status, 429, "{}", reply.body);
    let wait: u64 = reply.header("retry-after").unwrap().parse().unwrap();
    assert!((1..=1800).contains(&wait), "{wait}");
    assert!(reply
        .error()
        .starts_with("too many new players from 127.0.0.1: at most 2 per 3600 s"));
    let game = api.new_game(&token).await;
    api.new_game(&token).await;
    let reply = api.send("POST", "/api/ranked", Some(&token), "").await;
    assert_eq!(reply.status, 429);
    let id = game["id"].as_str().unwrap();
    let mut statuses = Vec::new();
    for _ in 0..8 {
        statuses.push(api.play(&token, id, Dir::Up, 99, false).await.status);
    }
    assert_eq!(&statuses[..5], &[409; 5]);
    assert!(statuses[5..].iter().all(|&s| s == 429), "{statuses:?}");
    // The allowance comes back.
    tokio::time::sleep(Duration::from_millis(450)).await;
    assert_eq!(api.play(&token, id, Dir::Up, 99, false).await.status, 409);
}

/// The score API's reads have an allowance of their own, and every other request
/// (the page's files, the engine's API, unknown routes) another: a client past them
/// gets 429 there, and plays on.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reads_have_their_own_allowance() {
    let db = TempSqlite::new("reads");
    let mut config = scores_config(db.location());
    let minute = Duration::from_secs(60);
    config.limits.reads = Rate {
        count: 3,
        period: minute,
    };
    config.limits.requests = Rate {
        count: 2,
        period: minute,
    };
    let addr = start_scores(config).await;
    let mut api = Api::connect(addr).await;
    let token = api.register(&unique("Reader")).await;
    let game = api.new_game(&token).await;
    let id = game["id"].as_str().unwrap();
    let reads = [
        "/api/leaderboard".to_owned(),
        "/api/players/x".to_owned(),
        format!("/api/ranked/{id}"),
    ];
    for path in &reads {
        assert_ne!(api.get(path).await.status, 429, "{path}");
    }
    for path in ["/api/leaderboard", "/api/ranked/x/replay"] {
        let reply = api.get(path).await;
        assert_eq!(reply.status, 429, "{path}: {}", reply.body);
        assert!(reply
            .error()
            .starts_with("too many reads from 127.0.0.1: at most 3 per 60 s"));
        assert!(reply.header("retry-after").is_some());
    }
    // The page's files and the engine's API have theirs.
    assert_eq!(api.get("/").await.status, 200);
    assert_eq!(api.get("/nope").await.status, 404);
    for (method, path) in [
        ("GET", "/app.js"),
        ("POST", "/api/best"),
        ("GET", "/api/players"),
    ] {
        let reply = api.send(method, path, None, "{}").await;
        assert_eq!(reply.status, 429, "{path}: {}", reply.body);
        assert!(reply
            .error()
            .starts_with("too many requests from 127.0.0.1: at most 2 per 60 s"));
    }
    // Moves, new games and players have their own allowances.
    let dir = greedy(board_of(&game)).unwrap();
    let reply = api.play(&token, id, dir, 0, false).await;
    assert_eq!(reply.status, 200, "{}", reply.body);
    api.new_game(&token).await;
    api.register(&unique("Reader")).await;
    let end = api
        .send("POST", &format!("/api/ranked/{id}/end"), Some(&token), "")
        .await;
    assert_eq!(end.status, 200, "{}", end.body);
}

/// Registers a player as the client that `headers` say; the status.
async fn register_as(api: &mut Api, headers: &[(&str, &str)]) -> (u16, String) {
    let body = json!({"name": unique("Fwd")}).to_string();
    let reply = api
        .send_with("POST", "/api/players", None, headers, &body)
        .await;
    let error = if reply.status == 201 {
        String::new()
    } else {
        reply.error()
    };
    (reply.status, error)
}

/// Behind a proxy on loopback (the test writes its headers, from 127.0.0.1, trusted),
/// 50 clients each have their own allowance of one new player; IPv6 clients share
/// theirs within a /64. A client that writes the headers itself, from a peer that is
/// not trusted, has the peer's.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn clients_behind_a_trusted_proxy_each_have_their_allowance() {
    let db = TempSqlite::new("proxy");
    let mut config = scores_config(db.location());
    config.limits.players = Rate::per_hour(1);
    let server = ai2048_web::ServerConfig {
        trusted_proxies: vec!["127.0.0.1/32".parse().unwrap()],
        ..common::test_config()
    };
    let addr = start_scores_with(config.clone(), server).await;
    let mut api = Api::connect(addr).await;
    let xff = "X-Forwarded-For";
    for n in 0..50 {
        // The client may prepend anything; the proxy appends the address it saw.
        let chain = format!("203.0.113.1, 198.51.100.{n}");
        assert_eq!(
            register_as(&mut api, &[(xff, &chain)]).await.0,
            201,
            "client {n}"
        );
    }
    for n in [0, 49] {
        let (status, error) = register_as(&mut api, &[(xff, &format!("198.51.100.{n}"))]).await;
        assert_eq!(status, 429);
        assert!(
            error.starts_with(&format!("too many new players from 198.51.100.{n}:")),
            "{error}"
        );
    }
    // Through two proxies, both trusted: the client left of them.
    let chain = [(xff, "198.51.100.77, 127.0.0.1")];
    assert_eq!(register_as(&mut api, &chain).await.0, 201);
    assert_eq!(register_as(&mut api, &chain).await.0, 429);
    // RFC 7239's Forwarded, IPv6: one /64 is one client.
    let fwd = "Forwarded";
    let first = [(
        fwd,
        "for=192.0.2.1;proto=https, for=\"[2001:db8:aa:1::17]:4711\"",
    )];
    assert_eq!(register_as(&mut api, &first).await.0, 201);
    let (status, error) = register_as(&mut api, &[(xff, "2001:db8:aa:1:ffff::9")]).await;
    assert_eq!(status, 429);
    assert!(
        error.starts_with("too many new players from 2001:db8:aa:1::/64:"),
        "{error}"
    );
    assert_eq!(
        register_as(&mut api, &[(xff, "2001:db8:aa:2::17")]).await.0,
        201
    );
    // The proxy itself, without headers, is a client of its own.
    assert_eq!(register_as(&mut api, &[]).await.0, 201);
    assert_eq!(register_as(&mut api, &[]).await.0, 429);

    // A server that trusts no proxy on loopback: forged headers change nothing.
    let server = ai2048_web::ServerConfig {
        trusted_proxies: vec!["10.0.0.0/8".parse().unwrap()],
        ..common::test_config()
    };
    let addr = start_scores_with(config, server).await;
    let mut api = Api::connect(addr).await;
    assert_eq!(register_as(&mut api, &[(xff, "198.51.100.1")]).await.0, 201);
    for forged in ["198.51.100.2", "10.0.0.1", "2001:db8::1"] {
        let (status, error) = register_as(&mut api, &[(xff, forged)]).await;
        assert_eq!(status, 429, "{forged}");
        assert!(
            error.starts_with("too many new players from 127.0.0.1:"),
            "{error}"
        );
        let (status, _) = register_as(&mut api, &[(fwd, &format!("for={forged}"))]).await;
        assert_eq!(status, 429, "{forged}");
    }
}

/// A page of an allowed origin reads the score API's answers, and a 429's
/// `Retry-After`; another origin's page reads nothing.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn other_origins_read_retry_after() {
    let db = TempSqlite::new("cors");
    let mut config = scores_config(db.location());
    config.limits.players = Rate::per_hour(1);
    config.allow_origins = vec!["https://example.org".to_owned()];
    let addr = start_scores(config).await;
    let mut api = Api::connect(addr).await;
    let origin = [("Origin", "https://example.org")];
    let preflight = api
        .send_with("OPTIONS", "/api/players", None, &origin, "")
        .await;
    assert_eq!(preflight.status, 204);
    assert_eq!(
        preflight.header("access-control-allow-origin"),
        Some("https://example.org")
    );
    assert_eq!(register_as(&mut api, &origin).await.0, 201);
    let body = json!({"name": unique("Cors")}).to_string();
    let limited = api
        .send_with("POST", "/api/players", None, &origin, &body)
        .await;
    assert_eq!(limited.status, 429);
    assert!(limited.header("retry-after").is_some());
    assert_eq!(
        limited.header("access-control-allow-origin"),
        Some("https://example.org")
    );
    assert_eq!(
        limited.header("access-control-expose-headers"),
        Some("Retry-After")
    );
    let other = [("Origin", "https://evil.example")];
    let reply = api
        .send_with("POST", "/api/players", None, &other, &body)
        .await;
    assert_eq!(reply.status, 429);
    assert_eq!(reply.header("access-control-allow-origin"), None);
    assert_eq!(reply.header("access-control-expose-headers"), None);
}
