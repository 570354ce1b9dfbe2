//! Load and crash runs of the score API, against `ai2048 serve` processes.
//!
//! ```text
//! cargo run --release -p ai2048-web --example ranked_load -- load BIN DB CLIENTS SECONDS
//! cargo run --release -p ai2048-web --example ranked_load -- reads BIN DB CLIENTS SECONDS
//! cargo run --release -p ai2048-web --example ranked_load -- reads-limited BIN DB CLIENTS SECONDS
//! cargo run --release -p ai2048-web --example ranked_load -- crash BIN DB CLIENTS ROUNDS
//! ```
//!
//! `BIN` is the `ai2048` binary, `DB` what `--db` takes. `load` starts one server and
//! has `CLIENTS` clients play ranked games (the greedy player) for `SECONDS`, then
//! prints moves/s, the latency's p50 and p99, and the answers other than 200 by
//! status. `reads` does the same with as many readers beside the players, each
//! reading leaderboard pages at random depths (to 5,000 games down) as fast as it
//! can, and prints the reads too: what reads do to moves. `reads-limited` is `reads`
//! with the server's default allowance of reads (every client here is 127.0.0.1, so
//! the readers share one): what the read limit leaves of that. `crash` has `CLIENTS` clients play while the server is killed with
//! SIGKILL at a random moment, `ROUNDS` times; after each restart on the same
//! database, every move answered 200 must be there, and every game must go on from
//! its last answered move (a move sent but not answered may or may not be there: sent
//! again with the same turn, it gets its answer).

#[path = "../tests/common/mod.rs"]
mod common;

use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use ai2048_engine::{Dir, Rng};
use common::ranked::{board_of, greedy, unique, Api};
use serde_json::Value;

/// Starts `ai2048 serve` on a free port with limits no client reaches, but for the
/// reads' allowance when `limit_reads`.
fn start(bin: &str, db: &str, limit_reads: bool) -> (Child, SocketAddr) {
    let reads = if limit_reads { "50" } else { "1000000" };
    let mut child = Command::new(bin)
        .args(["serve", "--port", "0", "--db", db])
        .args([
            "--moves-per-second",
            "1000000",
            "--games-per-minute",
            "1000000",
        ])
        .args(["--players-per-hour", "1000000", "--reads-per-second", reads])
        .args([
            "--max-open-games",
            "1000000",
            "--requests-per-second",
            "1000000",
        ])
        // Every client is 127.0.0.1: no cap per client (0).
        .args([
            "--max-requests-per-client",
            "0",
            "--max-connections-per-client",
            "0",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start ai2048 serve");
    let mut line = String::new();
    BufReader::new(child.stdout.take().expect("stdout"))
        .read_line(&mut line)
        .expect("read the address");
    let addr = line
        .trim()
        .strip_prefix("listening on http://")
        .and_then(|a| a.parse().ok())
        .unwrap_or_else(|| panic!("no address in {line:?}"));
    (child, addr)
}

/// One client's game as it knows it: the last answered state, and a move sent
/// whose answer did not come.
struct Player {
    token: String,
    id: String,
    state: Value,
    pending: Option<(Dir, u64)>,
    answered: u64,
}

impl Player {
    async fn new(api: &mut Api) -> Player {
        let token = api.register(&unique("load")).await;
        let state = api.new_game(&token).await;
        Player {
            token,
            id: state["id"].as_str().expect("an id").to_owned(),
            state,
            pending: None,
            answered: 0,
        }
    }

    /// Plays one move (a new game when this one is over); returns the status and
    /// the time it took, or `None` when no answer came.
    async fn step(&mut self, api: &mut Api, rng: &mut Rng) -> Option<(u16, Duration)> {
        let board = board_of(&self.state);
        let dir = match self.pending {
            Some((dir, _)) => Some(dir),
            None if rng.next_u64() % 8 == 0 => {
                let legal: Vec<Dir> = board.legal_dirs().iter().collect();
                (!legal.is_empty()).then(|| legal[(rng.next_u64() % legal.len() as u64) as usize])
            }
            None => greedy(board),
        };
        let Some(dir) = dir else {
            self.state = api.try_new_game(&self.token).await?;
            self.id = self.state["id"].as_str()?.to_owned();
            return Some((201, Duration::ZERO));
        };
        let turn = self.state["turn"].as_u64()?;
        self.pending = Some((dir, turn));
        let started = Instant::now();
        let reply = api.try_play(&self.token, &self.id, dir, turn).await?;
        let took = started.elapsed();
        if reply.status == 200 {
            self.state = reply.json();
            self.answered += 1;
            self.pending = None;
        }
        Some((reply.status, took))
    }
}

/// Reads leaderboard pages until `stop`: the time of each read answered 200, and the
/// other answers' statuses (0 for none).
async fn read_loop(
    addr: SocketAddr,
    seed: u64,
    stop: Arc<AtomicBool>,
) -> (Vec<Duration>, Vec<u16>) {
    let mut api = Api::connect(addr).await;
    let mut rng = Rng::new(seed);
    let (mut latencies, mut others) = (Vec::new(), Vec::new());
    while !stop.load(Ordering::Relaxed) {
        let offset = rng.next_u64() % 5001;
        let path = format!("/api/leaderboard?limit=100&offset={offset}");
        let started = Instant::now();
        match api.try_send("GET", &path, None, "").await {
            Some(reply) if reply.status == 200 => latencies.push(started.elapsed()),
            Some(reply) => others.push(reply.status),
            None => {
                others.push(0);
                api = Api::connect(addr).await;
            }
        }
    }
    (latencies, others)
}

/// The answers of clients' `tasks`: the times of those answered 200, and how many
/// others came of each status (0 for none).
async fn gather(
    tasks: Vec<tokio::task::JoinHandle<(Vec<Duration>, Vec<u16>)>>,
) -> (Vec<Duration>, std::collections::BTreeMap<u16, u64>) {
    let mut latencies = Vec::new();
    let mut others = std::collections::BTreeMap::new();
    for task in tasks {
        let (l, o) = task.await.expect("a client");
        latencies.extend(l);
        for status in o {
            *others.entry(status).or_insert(0u64) += 1;
        }
    }
    (latencies, others)
}

/// The p50 and p99 of `latencies`, in milliseconds (0 for none).
fn quantiles(latencies: &mut [Duration]) -> (f64, f64) {
    latencies.sort();
    let at = |q: f64| {
        latencies
            .get(((latencies.len() as f64 * q) as usize).min(latencies.len().saturating_sub(1)))
            .map_or(0.0, |d| d.as_secs_f64() * 1e3)
    };
    (at(0.5), at(0.99))
}

async fn load(
    bin: &str,
    db: &str,
    clients: usize,
    seconds: u64,
    readers: usize,
    limit_reads: bool,
) {
    let (mut server, addr) = start(bin, db, limit_reads);
    let stop = Arc::new(AtomicBool::new(false));
    let reading: Vec<_> = (0..readers)
        .map(|r| tokio::spawn(read_loop(addr, 1_000_000 + r as u64, Arc::clone(&stop))))
        .collect();
    let mut tasks = Vec::new();
    for c in 0..clients {
        let stop = Arc::clone(&stop);
        tasks.push(tokio::spawn(async move {
            let mut api = Api::connect(addr).await;
            let mut player = Player::new(&mut api).await;
            let mut rng = Rng::new(c as u64);
            let mut latencies = Vec::new();
            let mut others = Vec::new();
            while !stop.load(Ordering::Relaxed) {
                match player.step(&mut api, &mut rng).await {
                    Some((200, took)) => latencies.push(took),
                    Some((201, _)) => {}
                    Some((status, _)) => others.push(status),
                    None => others.push(0),
                }
            }
            (latencies, others)
        }));
    }
    tokio::time::sleep(Duration::from_secs(seconds)).await;
    stop.store(true, Ordering::Relaxed);
    let (mut latencies, others) = gather(tasks).await;
    let (mut reads, read_others) = gather(reading).await;
    let _ = server.kill();
    let _ = server.wait();
    let moves = latencies.len();
    let (p50, p99) = quantiles(&mut latencies);
    println!(
        "{clients} clients, {seconds} s, {db}: {moves} moves answered 200, {:.0} moves/s, p50 {p50:.2} ms, p99 {p99:.2} ms, other answers {others:?} (0 = no answer)",
        moves as f64 / seconds as f64,
    );
    if readers > 0 {
        let count = reads.len();
        let (p50, p99) = quantiles(&mut reads);
        println!(
            "{readers} readers beside them: {count} leaderboard pages answered 200, {:.0} reads/s, p50 {p50:.2} ms, p99 {p99:.2} ms, other answers {read_others:?}",
            count as f64 / seconds as f64,
        );
    }
}

async fn crash(bin: &str, db: &str, clients: usize, rounds: usize) {
    let mut players: Vec<Option<Player>> = (0..clients).map(|_| None).collect();
    let (mut answered, mut in_flight_kept, mut in_flight_lost) = (0u64, 0u64, 0u64);
    // One start more than kills: the last start checks the last kill.
    for round in 0..=rounds {
        let (mut server, addr) = start(bin, db, false);
        // After a restart: every game is where its last answer left it, or one move
        // further when the move in flight was committed; that move sent again gets
        // its answer.
        let mut api = Api::connect(addr).await;
        for player in players.iter_mut().flatten() {
            let shown = api.get(&format!("/api/ranked/{}", player.id)).await.json();
            let turn = player.state["turn"].as_u64().expect("a turn");
            let stored = shown["turn"].as_u64().expect("a stored turn");
            match player.pending {
                Some((dir, pending)) if stored == turn + 1 && pending == turn => {
                    // Sent as the client sent it: the same direction, turn and "ai".
                    let reply = api
                        .try_play(&player.token, &player.id, dir, turn)
                        .await
                        .expect("an answer to the retry");
                    assert_eq!(
                        reply.status, 200,
                        "the retry of a committed move: {}",
                        reply.body
                    );
                    assert_eq!(reply.json()["board"], shown["board"]);
                    player.state = reply.json();
                    player.pending = None;
                    in_flight_kept += 1;
                }
                _ => {
                    assert_eq!(
                        stored, turn,
                        "game {}: a move answered 200 is lost",
                        player.id
                    );
                    assert_eq!(shown["board"], player.state["board"]);
                    if player.pending.take().is_some() {
                        in_flight_lost += 1;
                    }
                }
            }
        }
        if round == rounds {
            server.kill().expect("stop the server");
            let _ = server.wait();
            break;
        }
        let stop = Arc::new(AtomicBool::new(false));
        let mut tasks = Vec::new();
        for (c, slot) in players.iter_mut().enumerate() {
            let stop = Arc::clone(&stop);
            let mut player = slot.take();
            tasks.push(tokio::spawn(async move {
                let mut api = Api::connect(addr).await;
                if player.is_none() {
                    player = Some(Player::new(&mut api).await);
                }
                let mut p = player.expect("a player");
                let mut rng = Rng::new((round * 1000 + c) as u64);
                while !stop.load(Ordering::Relaxed) {
                    if p.step(&mut api, &mut rng).await.is_none() {
                        break;
                    }
                }
                p
            }));
        }
        let mut rng = Rng::new(round as u64 + 99);
        tokio::time::sleep(Duration::from_millis(500 + rng.next_u64() % 1500)).await;
        server.kill().expect("kill -9 the server");
        let _ = server.wait();
        stop.store(true, Ordering::Relaxed);
        for (slot, task) in players.iter_mut().zip(tasks) {
            *slot = Some(task.await.expect("a client"));
        }
        let total: u64 = players.iter().flatten().map(|p| p.answered).sum();
        println!("round {}: {} moves answered so far", round + 1, total);
        answered = total;
    }
    println!(
        "{rounds} kills with {clients} clients on {db}: {answered} moves answered 200, none lost; \
         of the moves in flight at a kill, {in_flight_kept} were committed (their retry got \
         the same answer) and {in_flight_lost} were not"
    );
}

#[tokio::main]
async fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [mode, bin, db, clients, n] = args.as_slice() else {
        eprintln!(
            "usage: ranked_load load|reads|reads-limited|crash BIN DB CLIENTS SECONDS|ROUNDS"
        );
        std::process::exit(2);
    };
    let clients: usize = clients.parse().expect("CLIENTS is a number");
    let n: u64 = n.parse().expect("SECONDS or ROUNDS is a number");
    match mode.as_str() {
        "load" => load(bin, db, clients, n, 0, false).await,
        "reads" => load(bin, db, clients, n, clients, false).await,
        "reads-limited" => load(bin, db, clients, n, clients, true).await,
        "crash" => crash(bin, db, clients, n as usize).await,
        _ => {
            eprintln!("unknown mode {mode:?}: load, reads, reads-limited or crash");
            std::process::exit(2);
        }
    }
}
