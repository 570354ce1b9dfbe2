//! `ai2048 engine` as a client sees it: a child process spoken to over pipes.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, Command, Output, Stdio};
use std::sync::mpsc;
use std::thread;
use std::time::Duration;

use serde_json::{json, Value};

/// How long a test waits for one answer before it calls the engine stuck.
const ANSWER_TIMEOUT: Duration = Duration::from_secs(60);

fn engine(args: &[&str]) -> Child {
    Command::new(env!("CARGO_BIN_EXE_ai2048"))
        .arg("engine")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the ai2048 binary starts")
}

/// Writes `input` to a fresh engine, closes its stdin and collects what it printed.
fn run_engine(args: &[&str], input: &[u8]) -> Output {
    let mut child = engine(args);
    let mut stdin = child.stdin.take().expect("stdin is piped");
    let input = input.to_vec();
    // Write from a thread, so that a large input cannot deadlock against the output.
    let writer = thread::spawn(move || {
        stdin.write_all(&input).expect("the engine reads its input");
    });
    let output = child.wait_with_output().expect("the engine runs");
    writer.join().expect("the writer finishes");
    output
}

fn answers(output: &Output) -> Vec<Value> {
    String::from_utf8(output.stdout.clone())
        .expect("answers are UTF-8")
        .lines()
        .map(|line| serde_json::from_str(line).unwrap_or_else(|e| panic!("{line:?}: {e}")))
        .collect()
}

const STUCK: &str = "[[2,4,2,4],[4,2,4,2],[2,4,2,4],[4,2,4,2]]";

#[test]
fn one_answer_per_nonblank_line_in_order() {
    let mut input = Vec::new();
    let mut line = |bytes: &[u8]| {
        input.extend_from_slice(bytes);
        input.push(b'\n');
    };
    line(
        br#"{"op":"apply","board":[[2,2,4,0],[0,0,0,0],[0,0,0,0],[0,0,0,2]],"dir":"left","id":1}"#,
    );
    line(b"");
    line(b"{not json");
    line(b"   \t ");
    line(b"{\"op\":\"legal\",\"board\":\xff\xfe}");
    line(br#"{"op":"legal","board":[[2,0,0,0],[0,0,0,0],[0,0,0,0],[0,0,0,0]]}"#);
    line(br#"{"op":"fly","id":"x"}"#);
    line(format!(r#"{{"op":"spawns","board":{STUCK}}}"#).as_bytes());
    line(br#"{"op":"legal","board":[[0,0,0,0],[0,0,3,0],[0,0,0,0],[0,0,0,0]]}"#);
    line(br#"{"op":"best","board":[[0,0,0,0],[0,0,0,0],[0,0,0,0],[0,0,0,1024]],"ai":"greedy"}"#);
    line(format!(r#"{{"op":"best","board":{STUCK}}}"#).as_bytes());
    line(br#"{"op":"apply","board":[[32768,32768,0,0],[0,0,0,0],[0,0,0,0],[0,0,0,0]],"dir":"north"}"#);
    line(b"\r");
    // The last line has no newline; it is answered all the same.
    input.extend_from_slice(br#"{"op":"apply","board":[[32768,32768,0,0],[0,0,0,0],[0,0,0,0],[0,0,0,0]],"dir":"right"}"#);

    let output = run_engine(&["--ai", "greedy"], &input);
    assert!(output.status.success(), "{output:?}");
    let got = answers(&output);
    let expected_tile = "(expected 0 or a power of two from 2 to 131072)";
    assert_eq!(got.len(), 11, "{got:#?}");
    assert_eq!(
        got[0],
        json!({"id":1,"board":[[4,4,0,0],[0,0,0,0],[0,0,0,0],[2,0,0,0]],"score":4,"moved":true})
    );
    assert!(got[1]["error"]
        .as_str()
        .unwrap()
        .starts_with("invalid JSON"));
    assert_eq!(
        got[2]["error"],
        "the line is not valid UTF-8: byte 23 starts an invalid sequence"
    );
    assert_eq!(got[3], json!({"dirs":["down","right"]}));
    assert_eq!(
        got[4],
        json!({"id":"x","error":"unknown op \"fly\": expected apply, legal, spawns or best"})
    );
    assert_eq!(got[5], json!({"spawns":[]}));
    assert_eq!(
        got[6],
        json!({"error": format!("board row 2, column 3: 3 is not a tile {expected_tile}")})
    );
    assert_eq!(got[7]["dir"], "up");
    assert!(got[7]["values"].is_object());
    assert_eq!(got[8], json!({"dir":null}));
    assert_eq!(
        got[9],
        json!({"error":"unknown direction \"north\": expected up, down, left or right"})
    );
    assert_eq!(
        got[10],
        json!({"board":[[0,0,0,65536],[0,0,0,0],[0,0,0,0],[0,0,0,0]],"score":65536,"moved":true})
    );
}

#[test]
fn answers_come_at_once() {
    let mut child = engine(&["--ai", "greedy"]);
    let mut stdin = child.stdin.take().expect("stdin is piped");
    let stdout = child.stdout.take().expect("stdout is piped");
    let (tx, rx) = mpsc::channel();
    let reader = thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            if tx.send(line.expect("answers are UTF-8")).is_err() {
                break;
            }
        }
    });
    // Each answer must arrive while stdin is still open: the engine flushes it.
    for i in 0..3 {
        writeln!(
            stdin,
            r#"{{"op":"legal","board":[[0,0,0,0],[0,2,0,0],[0,0,0,0],[0,0,0,0]],"id":{i}}}"#
        )
        .expect("the engine reads");
        stdin.flush().expect("the engine reads");
        let answer = rx
            .recv_timeout(ANSWER_TIMEOUT)
            .expect("an answer before the input ends");
        assert_eq!(
            answer,
            format!(r#"{{"id":{i},"dirs":["up","down","left","right"]}}"#)
        );
    }
    drop(stdin);
    let status = child.wait().expect("the engine exits");
    assert!(status.success());
    reader.join().expect("the reader finishes");
    assert!(rx.try_recv().is_err(), "nothing more was written");
}

#[test]
fn empty_input_exits_cleanly() {
    let output = run_engine(&[], b"");
    assert!(output.status.success(), "{output:?}");
    assert!(output.stdout.is_empty());
    let output = run_engine(&[], b"\n\n  \n");
    assert!(output.status.success(), "{output:?}");
    assert!(output.stdout.is_empty());
}

#[test]
fn long_lines_are_answered() {
    let mut input = Vec::new();
    input.extend_from_slice(&vec![b'x'; 2_000_000]);
    input.push(b'\n');
    input.extend_from_slice(b"{\"op\":\"legal\",");
    input.extend_from_slice(&vec![b' '; 2_000_000]);
    input.extend_from_slice(b"\"board\":[[0,0,0,0],[0,0,0,0],[0,0,0,0],[0,0,0,0]]}\n");
    input.extend_from_slice(&"[".repeat(100_000).into_bytes());
    input.push(b'\n');
    let output = run_engine(&["--ai", "greedy"], &input);
    assert!(output.status.success(), "{output:?}");
    let got = answers(&output);
    assert_eq!(got.len(), 3);
    assert!(got[0]["error"]
        .as_str()
        .unwrap()
        .starts_with("invalid JSON"));
    assert_eq!(got[1], json!({"dirs":[]}));
    assert!(got[2]["error"]
        .as_str()
        .unwrap()
        .starts_with("invalid JSON"));
}

#[test]
fn the_default_player_answers_best() {
    // A full board whose one merge is in a row: only left and right are legal, so any
    // player's answer is checked.
    let input = br#"{"op":"best","board":[[2,4,2,4],[4,2,4,2],[2,4,2,4],[8,8,16,32]],"depth":1,"time_ms":100}"#;
    let output = run_engine(&[], input);
    assert!(output.status.success(), "{output:?}");
    let got = answers(&output);
    assert_eq!(got.len(), 1);
    assert!(
        got[0]["dir"] == "left" || got[0]["dir"] == "right",
        "{got:?}"
    );
}

#[test]
fn a_bad_default_player_fails_at_start() {
    let output = run_engine(&["--ai", "nope"], b"");
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("unknown player \"nope\""), "{stderr}");
}
