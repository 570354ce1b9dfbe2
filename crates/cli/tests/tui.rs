//! The full-screen `play` and `watch` on a real pseudo-terminal, driven through
//! util-linux `script`: keys go in, the screen comes out, and the terminal must be put
//! back. The screen's parts are tested in `src/tui/`; this checks the whole.

#![cfg(target_os = "linux")]

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// What a session on a pseudo-terminal printed, and how it ended.
struct Session {
    output: String,
    success: bool,
    took: Duration,
}

/// Whether util-linux `script` is here; the tests say so and pass without it.
fn have_script() -> bool {
    let found = Command::new("script")
        .arg("--version")
        .output()
        .is_ok_and(|o| {
            o.status.success() && String::from_utf8_lossy(&o.stdout).contains("util-linux")
        });
    if !found {
        eprintln!("util-linux `script` not found: skipping the pseudo-terminal tests");
    }
    found
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ai2048-tui-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Runs `ai2048 ARGS` on an 80×24 pseudo-terminal in `dir`, with its state directory
/// there too, typing each `(pause, keys)` in turn, then `after` in the same shell.
fn run_on_tty(dir: &Path, args: &str, keys: &[(u64, &str)], after: &str) -> Session {
    let command = format!(
        "stty rows 24 cols 80 && '{}' {args}; status=$?; {after}; exit $status",
        env!("CARGO_BIN_EXE_ai2048")
    );
    let started = Instant::now();
    let mut child = Command::new("script")
        .args(["-q", "-e", "-c", &command, "/dev/null"])
        .current_dir(dir)
        .env("XDG_STATE_HOME", dir.join("state"))
        .env("TERM", "xterm-256color")
        .env("SHELL", "/bin/sh")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("script starts");
    let mut stdin = child.stdin.take().unwrap();
    let mut typed_at = started;
    for (pause_ms, text) in keys {
        std::thread::sleep(Duration::from_millis(*pause_ms));
        stdin.write_all(text.as_bytes()).unwrap();
        stdin.flush().unwrap();
        typed_at = Instant::now();
    }
    let deadline = Instant::now() + Duration::from_secs(60);
    while child.try_wait().unwrap().is_none() {
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("ai2048 {args} did not quit");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let took = typed_at.elapsed();
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    Session {
        output: String::from_utf8_lossy(&out.stdout).into_owned(),
        success: out.status.success(),
        took,
    }
}

/// The screens drawn: a small emulator of the sequences ratatui's crossterm backend
/// writes (cursor moves, clears, styles, cursor visibility), one snapshot of the
/// 80×24 grid each time a frame ends (the cursor is hidden again).
fn screens(output: &str) -> Vec<String> {
    let (width, height) = (80, 24);
    let mut grid = vec![vec![' '; width]; height];
    let (mut row, mut col) = (0usize, 0usize);
    let mut shots = Vec::new();
    let mut chars = output.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '\u{1b}' {
            if c == '\r' {
                col = 0;
            } else if c == '\n' {
                row += 1;
            } else if row < height && col < width {
                grid[row][col] = c;
                col += 1;
            }
            continue;
        }
        if chars.next_if_eq(&'[').is_none() {
            continue;
        }
        let mut params = String::new();
        let mut end = ' ';
        for c in chars.by_ref() {
            if c.is_ascii_alphabetic() {
                end = c;
                break;
            }
            params.push(c);
        }
        match (end, params.as_str()) {
            ('H', p) => {
                let mut it = p.split(';').map(|n| n.parse::<usize>().unwrap_or(1));
                row = it.next().unwrap_or(1).saturating_sub(1);
                col = it.next().unwrap_or(1).saturating_sub(1);
            }
            ('J', "2") => grid = vec![vec![' '; width]; height],
            ('l', "?25") => shots.push(
                grid.iter()
                    .map(|r| r.iter().collect::<String>())
                    .collect::<Vec<_>>()
                    .join("\n"),
            ),
            _ => {}
        }
    }
    shots
}

/// Asserts that some screen shows each of `needles`.
fn assert_shown(s: &Session, needles: &[&str]) {
    let shots = screens(&s.output);
    for needle in needles {
        assert!(
            shots.iter().any(|shot| shot.contains(needle)),
            "{needle:?} on no screen; the last:\n{}",
            shots.last().map_or("(none)", String::as_str)
        );
    }
}

const ENTER_ALTERNATE_SCREEN: &str = "\u{1b}[?1049h";
const LEAVE_ALTERNATE_SCREEN: &str = "\u{1b}[?1049l";
const SHOW_CURSOR: &str = "\u{1b}[?25h";

/// The alternate screen was entered, then left with the cursor shown, before `tail`.
fn assert_restored(s: &Session, tail: &str) {
    let o = &s.output;
    let enter = o.find(ENTER_ALTERNATE_SCREEN).expect("full screen");
    let leave = o.rfind(LEAVE_ALTERNATE_SCREEN).expect("the screen is left");
    let show = o.rfind(SHOW_CURSOR).expect("the cursor is shown");
    let after = o
        .rfind(tail)
        .unwrap_or_else(|| panic!("{tail:?} missing:\n{o}"));
    assert!(enter < leave && show < after && leave < after, "{o:?}");
    // `stty -a` ran after ai2048: the line discipline is cooked again.
    let modes = &o[after..];
    for mode in [" icanon", " echo ", " icrnl"] {
        assert!(modes.contains(mode), "{mode} not restored:\n{modes}");
    }
}

/// The game saved as a replay at `path`, replayed.
fn saved_game(path: &Path) -> ai2048_engine::Game {
    let replay = std::fs::read_to_string(path).unwrap();
    let replay: ai2048_engine::Replay = replay.parse().unwrap();
    replay.verify().unwrap()
}

#[test]
fn play_draws_the_board_gives_a_hint_and_restores_the_terminal() {
    if !have_script() {
        return;
    }
    let dir = temp_dir("play");
    let state = dir.join("state").join("ai2048");
    std::fs::create_dir_all(&state).unwrap();
    // A corrupt best score is a best of 0, not an error.
    std::fs::write(state.join("best"), "not a number").unwrap();
    // Greedy's hand-made evaluation, whatever network the build has: the hint is known.
    let s = run_on_tty(
        &dir,
        "play --seed 3 --ai greedy:eval=simple --save game.replay",
        &[
            (800, "i"),
            (800, "\u{1b}[D"),
            (300, "k"),
            (300, "j"),
            (500, "q"),
        ],
        "stty -a",
    );
    assert!(s.success, "{}", s.output);
    assert_shown(
        &s,
        &[
            "SCORE",
            "BEST",
            "seed 3",
            "Hint: ↑ up",
            "↑ up           961.0 ◀",
            "AI greedy:eval=simple",
            "autoplay off",
            "q quit",
        ],
    );
    assert_restored(&s, "final: score");
    let game = saved_game(&dir.join("game.replay"));
    assert_eq!(game.seed(), 3);
    assert!(game.moves() >= 1, "the keys moved the tiles");
    assert!(game.score() > 0);
    let best = std::fs::read_to_string(state.join("best")).unwrap();
    assert_eq!(
        best.trim(),
        game.score().to_string(),
        "the corrupt best score was replaced"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn watch_plays_saves_and_quits_promptly_during_a_long_search() {
    if !have_script() {
        return;
    }
    let dir = temp_dir("watch");
    // The hand-made evaluation: a debug build's first move must end within the keys' pauses.
    let s = run_on_tty(
        &dir,
        "watch --seed 4 --ai expectimax:tt-mb=1,eval=heuristic --time-ms 1500 --save w.replay",
        &[(2500, "r"), (300, "q")],
        "stty -a",
    );
    assert!(s.success, "{}", s.output);
    assert_shown(
        &s,
        &[
            "ai2048 watch",
            "AI expectimax:tt-mb=1,eval=heuristic",
            "playing",
            "depth ",
            "nodes/s",
            "ms/move",
            "AI's last pick:",
            "space pause/resume",
            "game so far saved to w.replay",
        ],
    );
    assert_restored(&s, "stopped: score");
    // A search of 1.5 s was running; q does not wait for it.
    assert!(
        s.took < Duration::from_millis(1200),
        "quitting took {:?}",
        s.took
    );
    let game = saved_game(&dir.join("w.replay"));
    assert_eq!(game.seed(), 4);
    let _ = std::fs::remove_dir_all(&dir);
}
