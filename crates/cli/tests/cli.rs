//! The small commands: players, signature, replay, play on a pipe, watch on a pipe.

mod common;

use std::io::Write;
use std::process::{Command, Output, Stdio};

use common::{assert_fails, text};

fn ai2048(args: &[&str], stdin: &str) -> Output {
    common::ai2048_with_stdin(args, stdin)
}

#[test]
fn players_lists_every_player_and_evaluation() {
    let out = ai2048(&["players"], "");
    assert!(out.status.success());
    let s = text(&out.stdout);
    for name in [
        "expectimax (default)",
        "minimax",
        "mcts",
        "replica",
        "greedy",
        "random",
        "snake",
    ] {
        assert!(s.contains(name), "{name} missing from:\n{s}");
    }
}

#[test]
fn signature_prints_the_checked_node_count() {
    let out = ai2048(&["signature"], "");
    assert!(out.status.success());
    let s = text(&out.stdout);
    let expected = ai2048_ai::signature::run();
    assert!(
        s.contains(&format!("Nodes searched: {}", expected.nodes)),
        "{s}"
    );
}

/// `ai2048 serve` logs one line a request on stderr (method, route, status, latency,
/// client), and on SIGTERM stops accepting, answers what is in flight and exits 0.
#[cfg(unix)]
#[test]
fn serve_logs_each_request_and_stops_on_sigterm() {
    use std::io::{BufRead, BufReader, Read};
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("scores.db");
    let mut child = Command::new(env!("CARGO_BIN_EXE_ai2048"))
        .args(["serve", "--port", "0", "--db", common::path(&db)])
        .env_remove("AI2048_LOG")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let addr = line
        .trim()
        .strip_prefix("listening on http://")
        .unwrap()
        .to_owned();
    let mut stream = std::net::TcpStream::connect(&addr).unwrap();
    stream
        .write_all(b"GET /healthz HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n")
        .unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).unwrap();
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    assert!(answer.contains(r#""database":"ok""#), "{answer}");
    let out = common::signal_and_wait(child, "TERM", "ai2048 serve");
    let stderr = text(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    let logged = stderr
        .lines()
        .find(|l| l.contains("route=/healthz"))
        .unwrap_or_else(|| panic!("no line for the request in:\n{stderr}"));
    for field in [
        "INFO",
        "method=GET",
        "status=200",
        "latency_ms=",
        "client=127.0.0.1",
    ] {
        assert!(logged.contains(field), "{field} missing from {logged:?}");
    }
    assert!(!stderr.contains('\u{1b}'), "no colours on a pipe: {stderr}");
    assert!(
        stderr.contains("shutting down") && stderr.contains("stopped"),
        "{stderr}"
    );
    let _ = std::fs::remove_file(&db);
}

/// `ai2048 serve` on a PostgreSQL server out of reach fails saying so, with the URL's
/// passwords (`user:PASSWORD@` and `?password=`) masked, in its messages and logs.
#[test]
fn serve_masks_the_database_password() {
    let url = "postgres://ann:s3cret@127.0.0.1:1/scores?sslmode=disable&password=hunter2";
    let out = Command::new(env!("CARGO_BIN_EXE_ai2048"))
        .args(["serve", "--port", "0", "--db", url])
        .env("AI2048_LOG", "debug")
        .stdin(Stdio::null())
        .output()
        .expect("the binary starts");
    assert!(!out.status.success());
    let all = format!("{}{}", text(&out.stdout), text(&out.stderr));
    assert!(!all.contains("s3cret") && !all.contains("hunter2"), "{all}");
    assert!(
        all.contains("postgres://ann:***@127.0.0.1:1/scores?sslmode=disable&password=***"),
        "{all}"
    );
}

/// A keyed game's replay (a ranked game of `ai2048 serve`, once over) verifies, and
/// says it is keyed rather than naming its unused seed; a changed spawn fails.
#[test]
fn replay_verifies_a_keyed_game() {
    use ai2048_engine::keyed::SpawnKey;
    use ai2048_engine::{Dir, Game, Rules, SpawnStream};
    let key = SpawnKey::from_bytes([9; 32]);
    let mut game = Game::with_spawns(0, Rules::ORIGINAL, SpawnStream::Keyed(key)).unwrap();
    for &dir in Dir::ALL.iter().cycle().take(100) {
        let _ = game.try_play(dir);
    }
    let path = std::env::temp_dir().join(format!("ai2048-keyed-{}.replay", std::process::id()));
    let path_str = path.to_str().unwrap();
    let text_form = game.replay().to_string();
    std::fs::write(&path, &text_form).unwrap();
    let out = ai2048(&["replay", path_str], "");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let expected = format!("verified: keyed spawns, {} moves", game.moves());
    assert!(
        text(&out.stdout).contains(&expected),
        "{}",
        text(&out.stdout)
    );
    let spawn = game.turns()[0].spawn.unwrap();
    let other = 6 - spawn.tile();
    let line = format!(
        "\n{} {}:{}\n",
        game.turns()[0].dir.letter(),
        spawn.cell,
        spawn.tile()
    );
    let changed = format!(
        "\n{} {}:{other}\n",
        game.turns()[0].dir.letter(),
        spawn.cell
    );
    std::fs::write(&path, text_form.replacen(&line, &changed, 1)).unwrap();
    let bad = ai2048(&["replay", path_str], "");
    assert!(!bad.status.success());
    assert!(
        text(&bad.stderr).contains("the key gives"),
        "{}",
        text(&bad.stderr)
    );
    let _ = std::fs::remove_file(&path);
}

#[test]
fn watch_on_a_pipe_prints_boards_and_saves_a_replay_that_verifies() {
    let path = std::env::temp_dir().join(format!("ai2048-watch-{}.replay", std::process::id()));
    let path_str = path.to_str().unwrap();
    let out = ai2048(
        &["watch", "--ai", "greedy", "--seed", "5", "--save", path_str],
        "",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let s = text(&out.stdout);
    assert!(s.contains("game over: score"), "{s}");
    assert!(!s.contains('\u{1b}'), "no terminal escapes on a pipe");
    let replay = ai2048(&["replay", path_str], "");
    assert!(replay.status.success(), "{}", text(&replay.stderr));
    assert!(text(&replay.stdout).contains("verified: seed 5"));
    // A tampered replay fails with a message naming what is wrong.
    let tampered = std::fs::read_to_string(&path)
        .unwrap()
        .replacen("end score=", "end score=1", 1);
    std::fs::write(&path, tampered).unwrap();
    let bad = ai2048(&["replay", path_str], "");
    assert!(!bad.status.success());
    assert!(text(&bad.stderr).contains("score"), "{}", text(&bad.stderr));
    let _ = std::fs::remove_file(&path);
}

#[test]
fn watch_from_a_position_starts_there_and_its_replay_verifies() {
    let path = std::env::temp_dir().join(format!("ai2048-from-{}.replay", std::process::id()));
    let path_str = path.to_str().unwrap();
    let from = "1024 512 256 128/0 0 0 0/0 0 0 0/0 0 2 2";
    let out = ai2048(
        &[
            "watch", "--ai", "greedy", "--seed", "5", "--from", from, "--save", path_str,
        ],
        "",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let s = text(&out.stdout);
    assert!(
        s.contains("score 0  moves 0  max tile 1024"),
        "the first board is the position: {s}"
    );
    let replay = ai2048(&["replay", path_str], "");
    let _ = std::fs::remove_file(&path);
    assert!(replay.status.success(), "{}", text(&replay.stderr));
    assert!(
        text(&replay.stdout).contains("verified: seed 5 from the position a987000000000011,"),
        "{}",
        text(&replay.stdout)
    );
    for (bad, message) in [
        ("2 4 8", "--from \"2 4 8\" is not a 2048 board"),
        ("2 4 2 4/4 2 4 2/2 4 2 4/4 2 4 2", "--from: no move is left"),
    ] {
        let out = ai2048(&["watch", "--ai", "greedy", "--from", bad], "");
        assert_fails(&out, message);
    }
}

#[test]
fn play_on_a_pipe_takes_one_command_per_line() {
    let out = ai2048(
        &["play", "--seed", "3"],
        "left\nup\nbogus\nundo\nright\nquit\n",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let s = text(&out.stdout);
    assert!(s.contains("unknown command \"bogus\""), "{s}");
    assert!(s.contains("final: score"), "{s}");
    assert!(s.contains("seed 3"), "{s}");
}

#[test]
fn threads_go_to_players_that_take_them() {
    let ok = ai2048(
        &[
            "bench",
            "--num-games",
            "2",
            "--depth",
            "1",
            "--threads",
            "2",
            "-q",
        ],
        "",
    );
    assert!(ok.status.success(), "{}", text(&ok.stderr));
    let bad = ai2048(&["bench", "--ai", "greedy", "--threads", "2", "-q"], "");
    assert_fails(&bad, "threads");
}

#[test]
fn unknown_subcommands_and_flags_are_clear_errors() {
    for args in [
        &["nope"][..],
        &["bench", "--bogus"],
        &["watch", "--seed", "x"],
    ] {
        let out = ai2048(args, "");
        assert!(!out.status.success(), "{args:?}");
        assert!(text(&out.stderr).contains("error"), "{args:?}");
        assert!(!text(&out.stderr).contains("panicked"), "{args:?}");
    }
}

/// A board where only `right` moves: the first column is full of distinct tiles.
const ONLY_RIGHT: &str = "2 0 0 0/4 0 0 0/8 0 0 0/16 0 0 0";
/// The heuristic at one chance layer: no network to load, so the tests stay quick.
const QUICK: &[&str] = &["--ai", "expectimax:eval=heuristic", "--depth", "1"];

#[test]
fn hint_prints_the_move_and_every_moves_value() {
    let out = ai2048(&[&["hint", ONLY_RIGHT][..], QUICK].concat(), "");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let s = text(&out.stdout);
    let board: ai2048_engine::Board = ONLY_RIGHT.parse().unwrap();
    assert!(s.starts_with(&board.to_string()), "{s}");
    assert!(
        s.contains("right: the move of expectimax:eval=heuristic (depth 1, "),
        "{s}"
    );
    for dir in ["up", "down", "left"] {
        assert!(
            s.contains(&format!("\n  {dir:<6}       illegal\n")),
            "{dir}: {s}"
        );
    }
    assert!(s.trim_end().ends_with("best"), "{s}");

    // The same board from standard input, rows on lines of their own, and as JSON.
    let rows = ONLY_RIGHT.replace('/', "\n");
    let json = ai2048(&[&["hint", "-", "--json"][..], QUICK].concat(), &rows);
    assert!(json.status.success(), "{}", text(&json.stderr));
    let answer: serde_json::Value = serde_json::from_str(text(&json.stdout).trim()).unwrap();
    assert_eq!(answer["dir"], "right");
    assert_eq!(answer["depth"], 1);
    assert_eq!(answer["values"]["up"], serde_json::Value::Null);
    assert_eq!(answer["values"]["right"], answer["value"]);
}

#[test]
fn hint_on_a_lost_board_says_the_game_is_over() {
    let lost = "2 4 2 4/4 2 4 2/2 4 2 4/4 2 4 2";
    let out = ai2048(&[&["hint", lost][..], QUICK].concat(), "");
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stdout).ends_with("no move is legal: the game is over\n"));
    let json = ai2048(&[&["hint", lost, "--json"][..], QUICK].concat(), "");
    assert_eq!(text(&json.stdout).trim(), r#"{"dir":null}"#);
}

#[test]
fn hint_rejects_a_bad_board_or_option_clearly() {
    let cases: [(&[&str], &str, &str); 5] = [
        (&["hint", "2 2 2"], "", "the board is not a 2048 board"),
        (&["hint", "2 0 0 0/0 3 0 0/0 0 0 0/0 0 0 0"], "", "row 2"),
        (
            &["hint"],
            "2 2 4\n",
            "the board on standard input is not a 2048 board",
        ),
        (&["hint", ONLY_RIGHT, "--ai", "nope"], "", "unknown player"),
        (&["hint", ONLY_RIGHT, "--time-ms", "-1"], "", "--time-ms"),
    ];
    for (args, stdin, message) in cases {
        let out = ai2048(args, stdin);
        assert_fails(&out, message);
        assert!(!text(&out.stderr).contains("panicked"), "{args:?}");
    }
}
