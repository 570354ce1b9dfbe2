//! What an operator needs: `/healthz`, a graceful shutdown that answers the requests
//! in flight (an answered move is a committed move), and caps per client on
//! connections and requests in flight.

use std::net::SocketAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use ai2048_engine::Dir;
use ai2048_web::scores::{Db, DbLocation, Scores};
use ai2048_web::{Server, ServerConfig};
use serde_json::json;
use tokio::sync::oneshot;

use crate::common::ranked::{
    board_of, greedy, scores_config, serve_scores, unique, Api, TempSqlite,
};
use crate::common::{start, test_config, Client, Reply};

/// `/healthz` answers 200 while the database answers, 503 once it does not, and 200
/// on a server that keeps no scores.
async fn health(db: DbLocation) {
    let scores = Scores::open(scores_config(db)).await.unwrap();
    let addr = serve_scores(Arc::clone(&scores), test_config()).await;
    let mut api = Api::connect(addr).await;
    let reply = api.get("/healthz").await;
    assert_eq!(reply.status, 200, "{}", reply.body);
    let body = reply.json();
    assert_eq!(
        (&body["status"], &body["database"]),
        (&json!("ok"), &json!("ok"))
    );
    assert!(body["database_ms"].as_f64().unwrap() >= 0.0);
    assert_eq!(reply.header("cache-control"), Some("no-store"));
    scores.db().close().await;
    let reply = api.get("/healthz").await;
    assert_eq!(reply.status, 503, "{}", reply.body);
    assert_eq!(
        reply.json(),
        json!({"status": "unavailable", "database": "unreachable"})
    );
    assert_eq!(reply.header("retry-after"), Some("1"));

    let addr = start(test_config()).await;
    let reply = Api::connect(addr).await.get("/healthz").await;
    assert_eq!(
        (reply.status, reply.json()),
        (200, json!({"status": "ok", "database": "none"}))
    );
}

on_both_databases!(health: healthz_checks_the_database_on_sqlite("health"), healthz_checks_the_database_on_postgres);

/// The headers of a `POST /api/legal` whose body of `len` bytes is still to come: a
/// request in flight for as long as the test holds its body.
fn head_without_body(len: usize, extra: &str) -> String {
    format!(
        "POST /api/legal HTTP/1.1\r\nHost: test\r\n{extra}Content-Type: application/json\r\n\
         Content-Length: {len}\r\n\r\n"
    )
}

const LEGAL: &str = r#"{"board":[[2,2,4,0],[0,0,0,0],[0,0,0,0],[0,0,0,2]]}"#;

/// On shutdown the server stops accepting, answers the request in flight (its body
/// arriving after the shutdown began), closes the idle connections, and returns; a
/// player's moves answered before the end are exactly those committed.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn shutdown_answers_the_requests_in_flight() {
    let db = TempSqlite::new("shutdown");
    let scores = Scores::open(scores_config(db.location())).await.unwrap();
    let config = ServerConfig {
        body_timeout: Duration::from_secs(5),
        ..test_config()
    };
    let server = Server::bind_with_scores("127.0.0.1:0".parse().unwrap(), config, Some(scores))
        .await
        .unwrap();
    let addr = server.local_addr().unwrap();
    let (stop, stopped) = oneshot::channel::<()>();
    let running = tokio::spawn(server.run_until(async {
        let _ = stopped.await;
    }));

    let mut api = Api::connect(addr).await;
    let token = api.register(&unique("Last")).await;
    let game = json!({"over": true});
    // A player playing as fast as it can, game after game, until the server is gone:
    // the last game's id and its moves answered (none if it began just before the
    // end), and in `total` the moves answered in all its games.
    let total = Arc::new(AtomicU64::new(0));
    let counted = Arc::clone(&total);
    let player = tokio::spawn(async move {
        let (mut id, mut state, mut answered) = (String::new(), game, 0);
        loop {
            if id.is_empty() || state["over"] == true {
                match api.try_new_game(&token).await {
                    Some(game) => {
                        (id, state, answered) = (game["id"].as_str().unwrap().to_owned(), game, 0)
                    }
                    None => return (id, answered),
                }
            }
            let dir = greedy(board_of(&state)).unwrap_or(Dir::Up);
            match api.try_play(&token, &id, dir, answered).await {
                Some(reply) if reply.status == 200 => {
                    state = reply.json();
                    answered += 1;
                    counted.fetch_add(1, Ordering::Relaxed);
                }
                Some(reply) => panic!("{}", reply.body),
                None => return (id, answered),
            }
        }
    });
    // The player is under way (however slow the machine) before the end begins.
    tokio::time::timeout(Duration::from_secs(30), async {
        while total.load(Ordering::Relaxed) < 3 {
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    })
    .await
    .expect("the player is answered before the end");
    // A request in flight, and an idle connection.
    let mut in_flight = Client::connect(addr).await.unwrap();
    in_flight
        .send_raw(head_without_body(LEGAL.len(), "").as_bytes())
        .await
        .unwrap();
    let mut idle = Client::connect(addr).await.unwrap();
    assert_eq!(
        idle.request("GET", "/healthz", b"").await.unwrap().status,
        200
    );
    tokio::time::sleep(Duration::from_millis(100)).await;

    stop.send(()).unwrap();
    tokio::time::sleep(Duration::from_millis(100)).await;
    assert!(
        idle.is_closed_by_server().await,
        "the idle connection is closed"
    );
    in_flight.send_raw(LEGAL.as_bytes()).await.unwrap();
    let reply = in_flight.read_reply().await.unwrap();
    assert_eq!(reply.status, 200, "{}", reply.body);
    tokio::time::timeout(Duration::from_secs(5), running)
        .await
        .expect("the server returns")
        .unwrap()
        .unwrap();
    assert!(Client::connect(addr).await.is_err(), "no longer accepting");

    let (id, answered) = player.await.unwrap();
    let db = Db::open(&db.location(), false).await.unwrap();
    let game = db.game(&id).await.unwrap().unwrap();
    assert_eq!(
        game.turn, answered,
        "every answered move, and no other, is kept"
    );
}

/// `POST /api/legal` on `client`, as the client a trusted proxy names `who`.
async fn legal_as(client: &mut Client, who: &str) -> Reply {
    let headers = [("X-Forwarded-For", who)];
    let reply = client.request_with("POST", "/api/legal", &headers, LEGAL.as_bytes());
    reply.await.unwrap()
}

/// A client has at most `max_requests_per_client` requests in flight (429 past it),
/// counted as the trusted proxy's headers name it, and a peer that is not a trusted
/// proxy at most `max_connections_per_client` connections (closed past it).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_client_has_a_share_of_the_server() {
    let config = ServerConfig {
        max_requests_per_client: 2,
        trusted_proxies: vec!["127.0.0.1/32".parse().unwrap()],
        ..test_config()
    };
    let addr = start(config).await;
    let forwarded = |client: &str| format!("X-Forwarded-For: {client}\r\n");
    let mut held = Vec::new();
    for _ in 0..2 {
        let mut client = Client::connect(addr).await.unwrap();
        let head = head_without_body(LEGAL.len(), &forwarded("198.51.100.1"));
        client.send_raw(head.as_bytes()).await.unwrap();
        held.push(client);
    }
    tokio::time::sleep(Duration::from_millis(100)).await;
    let mut third = Client::connect(addr).await.unwrap();
    let reply = legal_as(&mut third, "198.51.100.1").await;
    assert_eq!(reply.status, 429, "{}", reply.body);
    assert_eq!(
        reply.error(),
        "too many requests at once from 198.51.100.1: at most 2 at a time; wait for their \
         answers before sending more"
    );
    assert_eq!(reply.header("retry-after"), Some("1"));
    // Another client behind the same proxy has its own.
    let reply = legal_as(&mut third, "198.51.100.2").await;
    assert_eq!(reply.status, 200, "{}", reply.body);
    // Answered, the requests give their places back.
    for client in &mut held {
        client.send_raw(LEGAL.as_bytes()).await.unwrap();
        assert_eq!(client.read_reply().await.unwrap().status, 200);
    }
    let reply = legal_as(&mut third, "198.51.100.1").await;
    assert_eq!(reply.status, 200, "{}", reply.body);

    // Connections: 127.0.0.1 is not a trusted proxy here.
    let capped = ServerConfig {
        max_connections_per_client: 2,
        ..test_config()
    };
    let (addr, mut open) = served_connections(capped.clone(), 2).await;
    let mut refused = Client::connect(addr).await.unwrap();
    assert!(refused.is_closed_by_server().await);
    drop(open.pop());
    // Once the server has seen the close, there is room again.
    let mut served = None;
    for _ in 0..50 {
        let mut client = Client::connect(addr).await.unwrap();
        if let Ok(reply) = client.request("GET", "/healthz", b"").await {
            served = Some(reply.status);
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(served, Some(200));
    // Behind a trusted proxy, its connections are not capped.
    let behind_proxy = ServerConfig {
        trusted_proxies: vec!["127.0.0.1/32".parse().unwrap()],
        ..capped
    };
    served_connections(behind_proxy, 5).await;
}

/// A server of `config`, and `count` connections to it, each served a request.
async fn served_connections(config: ServerConfig, count: usize) -> (SocketAddr, Vec<Client>) {
    let addr = start(config).await;
    let mut open = Vec::new();
    for _ in 0..count {
        let mut client = Client::connect(addr).await.unwrap();
        let reply = client.request("GET", "/healthz", b"").await.unwrap();
        assert_eq!(reply.status, 200);
        open.push(client);
    }
    (addr, open)
}
