//! A load test on loopback: 200 clients at once, 15 requests each, mostly asking for
//! moves. Every request gets an answer, right for its board (checked with the engine)
//! or a clean 503, and the server answers normally afterwards. The pass condition is
//! counted, not timed, so it holds on a machine of any speed.

mod common;

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use ai2048_engine::{Board, Dir, PlayableBoard, Rng};
use ai2048_protocol::{board_from_json, board_to_json};
use ai2048_web::ServerConfig;
use common::{post, request, start, Client, Reply};
use serde_json::{json, Value};
use tokio::sync::Mutex;

const CLIENTS: usize = 200;
const REQUESTS: usize = 15;

/// Boards from real games, early and late, some of them over.
fn boards() -> Vec<Board> {
    let mut out = Vec::new();
    for seed in 0..30 {
        let mut rng = Rng::new(seed);
        let mut board = PlayableBoard::init(&mut rng, 2, 0.1);
        let order = [Dir::Down, Dir::Left, Dir::Right, Dir::Up];
        let mut turn = 0;
        while let Some(dir) = order.iter().copied().find(|&d| board.board().can_move(d)) {
            if turn % 17 == 0 {
                out.push(board.board());
            }
            let after = board.apply(dir).expect("legal");
            board = after.with_random_tile(&mut rng, 0.1).0;
            turn += 1;
        }
        out.push(board.board());
    }
    out
}

#[derive(Default, Debug)]
struct Tally {
    /// Requests sent.
    asked: usize,
    /// Quick operations (apply and legal) sent: these never wait for a worker.
    asked_quick: usize,
    best: usize,
    apply: usize,
    legal: usize,
    busy: usize,
    failures: Vec<String>,
}

/// What a client asks: mostly moves from every kind of player, some quick operations.
fn pick(rng: &mut Rng, board: Board) -> (&'static str, Value) {
    let b = board_to_json(board);
    match rng.below(20) {
        0..=2 => (
            "/api/apply",
            json!({"board": b, "dir": Dir::ALL[rng.below(4) as usize].name()}),
        ),
        3..=5 => ("/api/legal", json!({"board": b})),
        6..=10 => (
            "/api/best",
            json!({"board": b, "time_ms": 5 + rng.below(25)}),
        ),
        11..=13 => ("/api/best", json!({"board": b, "ai": "greedy"})),
        14 => ("/api/best", json!({"board": b, "ai": "random"})),
        15 => (
            "/api/best",
            json!({"board": b, "ai": "minimax", "depth": 2, "time_ms": 20}),
        ),
        16 => (
            "/api/best",
            json!({"board": b, "ai": "mcts:playouts=20", "time_ms": 20}),
        ),
        17 => ("/api", json!({"op": "best", "board": b, "depth": 2})),
        _ => (
            "/api/best",
            json!({"board": b, "ai": "expectimax:depth=3,tt-mb=1"}),
        ),
    }
}

/// Checks an answer against the engine; `None` when it is right.
fn check(path: &str, request: &Value, board: Board, reply: &Reply) -> Option<String> {
    let fail = |why: &str| {
        Some(format!(
            "{path} {request}: {why}: {} {}",
            reply.status, reply.body
        ))
    };
    if reply.status == 503 {
        let clean = reply.header("retry-after").is_some()
            && reply.header("content-type") == Some("application/json")
            && reply.json()["error"].is_string();
        return if clean { None } else { fail("an unclean 503") };
    }
    if reply.status != 200 {
        return fail("not 200");
    }
    let answer = reply.json();
    if path == "/api/apply" {
        let dir: Dir = request["dir"].as_str()?.parse().ok()?;
        let (after, score) = board.shift_scored(dir);
        let moved = after != board;
        let right = board_from_json(&answer["board"]).ok() == Some(after)
            && answer["moved"] == moved
            && answer["score"] == if moved { score } else { 0 };
        return if right { None } else { fail("a wrong move") };
    }
    if path == "/api/legal" {
        let dirs: Vec<&str> = board.legal_dirs().iter().map(Dir::name).collect();
        return if answer["dirs"] == json!(dirs) {
            None
        } else {
            fail("wrong legal moves")
        };
    }
    match answer["dir"].as_str() {
        None if board.is_over() && answer["dir"].is_null() => None,
        Some(name) => match name.parse::<Dir>() {
            Ok(dir) if board.legal_dirs().contains(dir) => None,
            _ => fail("an illegal move"),
        },
        None => fail("no move on a board with legal moves"),
    }
}

async fn client(addr: SocketAddr, id: u64, boards: Arc<Vec<Board>>, tally: Arc<Mutex<Tally>>) {
    let mut rng = Rng::new(id);
    let mut connection: Option<Client> = None;
    for _ in 0..REQUESTS {
        let board = boards[rng.below(boards.len() as u32) as usize];
        let (path, body) = pick(&mut rng, board);
        {
            let mut t = tally.lock().await;
            t.asked += 1;
            t.asked_quick += usize::from(path == "/api/apply" || path == "/api/legal");
        }
        if connection.is_none() {
            match Client::connect(addr).await {
                Ok(c) => connection = Some(c),
                Err(e) => {
                    tally.lock().await.failures.push(format!("connect: {e}"));
                    return;
                }
            }
        }
        let conn = connection.as_mut().expect("connected");
        let sent = tokio::time::timeout(
            Duration::from_secs(20),
            conn.request("POST", path, body.to_string().as_bytes()),
        )
        .await;
        let reply = match sent {
            Ok(Ok(reply)) => reply,
            Ok(Err(e)) => {
                tally.lock().await.failures.push(format!("{path}: {e}"));
                connection = None;
                continue;
            }
            Err(_) => {
                tally
                    .lock()
                    .await
                    .failures
                    .push(format!("{path}: no answer in 20 s"));
                return;
            }
        };
        let verdict = check(path, &body, board, &reply);
        let mut t = tally.lock().await;
        match (verdict, reply.status) {
            (Some(why), _) => t.failures.push(why),
            (None, 503) => t.busy += 1,
            (None, _) if path == "/api/apply" => t.apply += 1,
            (None, _) if path == "/api/legal" => t.legal += 1,
            (None, _) => t.best += 1,
        }
        let busy = reply.status == 503;
        drop(t);
        if busy {
            // A polite client waits before asking again (less than Retry-After, to
            // keep the pressure on).
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_hundred_clients_at_once() {
    let config = ServerConfig {
        workers: 2,
        queue: 8,
        tt_mb: 4,
        // Every client of the test is 127.0.0.1.
        max_connections_per_client: 0,
        max_requests_per_client: 0,
        ..ServerConfig::default()
    };
    let addr = start(config).await;
    let boards = Arc::new(boards());
    let tally = Arc::new(Mutex::new(Tally::default()));
    let started = Instant::now();
    let clients: Vec<_> = (0..CLIENTS as u64)
        .map(|id| tokio::spawn(client(addr, id, Arc::clone(&boards), Arc::clone(&tally))))
        .collect();
    for c in clients {
        c.await.expect("a client task");
    }
    let t = tally.lock().await;
    eprintln!(
        "{CLIENTS} clients, {:.1} s: {} moves, {} applies, {} legal, {} busy (503), {} failures",
        started.elapsed().as_secs_f64(),
        t.best,
        t.apply,
        t.legal,
        t.busy,
        t.failures.len()
    );
    assert!(
        t.failures.is_empty(),
        "{} failures, first: {:?}",
        t.failures.len(),
        &t.failures[..t.failures.len().min(5)]
    );
    // Every request was answered; the quick ones never wait, so none of them is busy.
    assert_eq!(t.best + t.apply + t.legal + t.busy, t.asked, "{t:?}");
    assert_eq!(t.apply + t.legal, t.asked_quick, "{t:?}");
    assert!(t.best > 0, "{t:?}");
    // (Whether the queue filled depends on the machine's speed: that a full queue
    // answers 503 at once is checked in api.rs, past_capacity_the_answer_is_503_at_once.)
    drop(t);

    // Afterwards, the server answers normally (a hang fails after a minute, not never).
    let after = async {
        let a = request(addr, "GET", "/api/players", "").await;
        assert_eq!(a.status, 200);
        let b = json!([[2, 2, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 4]]);
        for _ in 0..5 {
            let a = post(addr, "/api/best", &json!({"board": b, "time_ms": 10})).await;
            assert_eq!(a.status, 200, "{}", a.body);
        }
        let a = request(addr, "GET", "/", "").await;
        assert_eq!(a.status, 200);
    };
    tokio::time::timeout(Duration::from_secs(60), after)
        .await
        .expect("the server answers after the load");
}
