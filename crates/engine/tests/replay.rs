//! Saved games: text round trips, verification, and tampered files that must fail.

mod common;

use ai2048_engine::keyed::SpawnKey;
use ai2048_engine::{
    Board, Dir, Game, PlayError, RandableBoard, Replay, ReplayError, Rng, Rules, SpawnStream,
};

/// The rules variants every round trip is tried under.
fn variants() -> Vec<Rules> {
    vec![
        Rules::default(),
        Rules {
            start_tiles: 1,
            ..Rules::default()
        },
        common::ILLEGAL_MOVES_SPAWN,
        Rules {
            start_tiles: 1,
            four_probability: 0.25,
            illegal_move_spawns: true,
        },
        Rules {
            four_probability: 0.0,
            ..Rules::default()
        },
        Rules {
            four_probability: 1.0,
            start_tiles: 16,
            ..Rules::default()
        },
    ]
}

/// A game played with random directions (legal or not) for at most `max_turns` turns.
fn random_game(seed: u64, rules: Rules, max_turns: usize) -> Game {
    let mut game = Game::new(seed, rules).unwrap();
    let mut rng = Rng::new(seed.wrapping_add(1000));
    while game.moves() < max_turns {
        match game.try_play(Dir::ALL[rng.below(4) as usize]) {
            Ok(_) | Err(PlayError::IllegalMove(_)) => {}
            Err(PlayError::GameOver) => break,
        }
    }
    game
}

/// A game of a few dozen turns whose text can be tampered with.
fn sample() -> (Game, String) {
    let game = random_game(31, Rules::default(), 40);
    let text = game.replay().to_string();
    (game, text)
}

/// The text with line `n` (from 1) replaced by `f(line)`.
fn edit_line(text: &str, n: usize, f: impl Fn(&str) -> String) -> String {
    let mut lines: Vec<String> = text.lines().map(str::to_owned).collect();
    lines[n - 1] = f(&lines[n - 1]);
    lines.join("\n") + "\n"
}

/// The line number (from 1) of turn `k` (from 1): after magic, seed, rules and start.
fn turn_line(k: usize) -> usize {
    4 + k
}

fn parse_err(text: &str) -> ReplayError {
    text.parse::<Replay>()
        .expect_err("the tampered text must not parse")
}

fn verify_err(text: &str) -> ReplayError {
    let replay: Replay = text.parse().expect("the tampered text still parses");
    replay
        .verify()
        .expect_err("the tampered replay must not verify")
}

// ---- Round trips ----

#[test]
fn replays_round_trip_through_text_and_verify() {
    for rules in variants() {
        for seed in [0, 1, 2, 99, 123_456_789, u64::MAX] {
            for max_turns in [0, 5, 10_000] {
                let game = random_game(seed, rules, max_turns);
                let replay = game.replay();
                let text = replay.to_string();
                let parsed: Replay = text.parse().unwrap_or_else(|e| panic!("{e}\n{text}"));
                assert_eq!(parsed, replay, "{rules:?} seed {seed}");
                assert_eq!(parsed.to_string(), text);
                let replayed = parsed.verify().unwrap_or_else(|e| panic!("{e}\n{text}"));
                assert_eq!(replayed.board(), game.board());
                assert_eq!(replayed.score(), game.score());
                assert_eq!(replayed.moves(), game.moves());
                assert_eq!(replayed.turns(), game.turns());
                assert_eq!(replayed.is_over(), game.is_over());
            }
        }
    }
}

#[test]
fn games_with_illegal_spawning_moves_round_trip() {
    // Under illegal_move_spawns, a random player makes many turns that do not move.
    let rules = common::ILLEGAL_MOVES_SPAWN;
    let game = random_game(5, rules, 10_000);
    assert!(game.turns().iter().any(|t| !t.moved && t.spawn.is_some()));
    let text = game.replay().to_string();
    let replay: Replay = text.parse().unwrap();
    assert_eq!(replay.verify().unwrap().turns(), game.turns());
}

#[test]
fn whole_games_round_trip() {
    let order = [Dir::Left, Dir::Down, Dir::Right, Dir::Up];
    for seed in 0..10 {
        let mut game = Game::new(seed, Rules::default()).unwrap();
        while let Some(dir) = common::first_legal(game.board(), &order) {
            game.try_play(dir).unwrap();
        }
        let replay: Replay = game.replay().to_string().parse().unwrap();
        let replayed = replay.verify().unwrap();
        assert!(replayed.is_over());
        assert_eq!(replayed.replay(), game.replay());
    }
}

#[test]
fn the_text_form_is_as_documented() {
    let game = random_game(42, Rules::default(), 2);
    let text = game.replay().to_string();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "ai2048-replay 1");
    assert_eq!(lines[1], "seed 42");
    assert_eq!(
        lines[2],
        "rules start_tiles=2 four_probability=0.1 illegal_move_spawns=false"
    );
    assert!(lines[3].starts_with("start "));
    assert_eq!(lines.len(), 4 + game.moves() + 1);
    assert_eq!(
        lines[4 + game.moves()],
        format!("end score={} board={}", game.score(), game.board().to_hex())
    );
}

#[test]
fn blank_lines_and_indentation_are_ignored() {
    let (game, text) = sample();
    let loose: String = text.lines().map(|l| format!("  {l}  \n\n")).collect();
    let replay: Replay = loose.parse().unwrap();
    assert_eq!(replay, game.replay());
}

// ---- Tampered replays ----

#[test]
fn a_changed_spawn_fails_at_its_turn() {
    let (game, text) = sample();
    for k in [1, 7, game.moves()] {
        let spawn = game.turns()[k - 1].spawn.unwrap();
        let other = (0..16u8).find(|&c| c != spawn.cell).unwrap();
        let tampered = edit_line(&text, turn_line(k), |l| {
            format!("{} {other}:{}", &l[..1], spawn.tile())
        });
        let e = verify_err(&tampered);
        assert_eq!(e.at, k, "{e}");
        assert!(e.to_string().contains(&format!("turn {k}")), "{e}");
        // The value of the spawn, too.
        let tampered = edit_line(&text, turn_line(k), |l| {
            format!("{} {}:{}", &l[..1], spawn.cell, 6 - spawn.tile())
        });
        assert_eq!(verify_err(&tampered).at, k);
    }
}

#[test]
fn games_from_a_position_round_trip_and_a_changed_position_fails() {
    let origin: Board = "16384 8192 4096 8/512 1024 2048 4/0 2 0 0/0 0 0 2"
        .parse()
        .unwrap();
    for spawns in [SpawnStream::Sequential, SpawnStream::PerTurn] {
        let mut game = Game::from_board(5, Rules::default(), spawns, origin).unwrap();
        let mut rng = Rng::new(5);
        while game.moves() < 200 {
            match game.try_play(Dir::ALL[rng.below(4) as usize]) {
                Ok(_) | Err(PlayError::IllegalMove(_)) => {}
                Err(PlayError::GameOver) => break,
            }
        }
        assert!(game.moves() > 10, "{}", game.moves());
        let text = game.replay().to_string();
        assert_eq!(text.lines().filter(|l| l.starts_with("start")).count(), 0);
        let from_line = text.lines().position(|l| l.starts_with("from ")).unwrap();
        assert_eq!(
            text.lines().nth(from_line),
            Some(format!("from {}", origin.to_hex()).as_str())
        );
        let parsed: Replay = text.parse().unwrap();
        assert_eq!(parsed, game.replay());
        assert_eq!(parsed.origin, Some(origin));
        let replayed = parsed.verify().unwrap();
        assert_eq!(
            (replayed.board(), replayed.score()),
            (game.board(), game.score())
        );
        // Another position: the same moves and spawns no longer replay.
        let other = origin.with_exponent(15, 2);
        let tampered = text.replace(&origin.to_hex(), &other.to_hex());
        assert!(tampered.parse::<Replay>().unwrap().verify().is_err());
    }
    // A position that is not a board is named with its line.
    let (_, text) = sample();
    let e = parse_err(&edit_line(&text, 4, |_| "from 12z".to_owned()));
    assert_eq!(e.at, 4);
    assert!(e.message.starts_with("from:"), "{e}");
}

#[test]
fn a_changed_start_fails() {
    let (_, text) = sample();
    let tampered = edit_line(&text, 4, |l| {
        let mut words: Vec<String> = l.split_whitespace().map(str::to_owned).collect();
        let (cell, tile) = words[1].split_once(':').unwrap();
        words[1] = format!("{cell}:{}", if tile == "2" { 4 } else { 2 });
        words.join(" ")
    });
    let e = verify_err(&tampered);
    assert_eq!(e.at, 0);
    assert!(e.message.contains("starting tiles"), "{e}");
}

#[test]
fn a_changed_final_score_fails() {
    let (game, text) = sample();
    let n = text.lines().count();
    let tampered = edit_line(&text, n, |l| {
        l.replace(
            &format!("score={}", game.score()),
            &format!("score={}", game.score() + 4),
        )
    });
    let e = verify_err(&tampered);
    assert!(e.message.contains("score"), "{e}");
}

#[test]
fn a_changed_final_board_fails() {
    let (game, text) = sample();
    let n = text.lines().count();
    let mut board = game.board();
    let cell = board.empty_cells().next().unwrap();
    board = board.with_exponent(cell, 1);
    let tampered = edit_line(&text, n, |l| {
        l.replace(&game.board().to_hex(), &board.to_hex())
    });
    let e = verify_err(&tampered);
    assert!(e.message.contains("board"), "{e}");
}

#[test]
fn a_changed_seed_fails() {
    let (game, text) = sample();
    let tampered = edit_line(&text, 2, |_| format!("seed {}", game.seed() + 1));
    let e = verify_err(&tampered);
    assert!(e.at <= game.moves(), "{e}");
}

#[test]
fn a_changed_direction_fails() {
    let (game, text) = sample();
    let k = 10;
    let turn = game.turns()[k - 1];
    // The other directions: illegal, or legal with (almost surely) another spawn.
    for dir in Dir::ALL.into_iter().filter(|&d| d != turn.dir) {
        let tampered = edit_line(&text, turn_line(k), |l| {
            format!("{}{}", dir.letter(), &l[1..])
        });
        let e = verify_err(&tampered);
        assert!(e.at == 0 || e.at >= k, "{e}");
    }
}

#[test]
fn an_illegal_move_in_a_replay_fails_at_its_turn() {
    // A turn line whose direction changes nothing, under rules that refuse it.
    let order = [Dir::Left, Dir::Down, Dir::Right, Dir::Up];
    let mut game = Game::new(0, Rules::default()).unwrap();
    for _ in 0..3 {
        game.try_play(common::first_legal(game.board(), &order).unwrap())
            .unwrap();
    }
    let illegal = loop {
        let board = game.board();
        if let Some(d) = Dir::ALL.into_iter().find(|&d| !board.can_move(d)) {
            break d;
        }
        game.try_play(common::first_legal(board, &order).unwrap())
            .unwrap();
    };
    let mut replay = game.replay();
    replay.turns.push((illegal, None));
    let e = replay.verify().unwrap_err();
    assert_eq!(e.at, game.moves() + 1);
    assert!(e.message.contains("changes nothing"), "{e}");
}

#[test]
fn a_missing_turn_fails() {
    let (_, text) = sample();
    let mut lines: Vec<&str> = text.lines().collect();
    lines.remove(turn_line(3) - 1);
    let e = verify_err(&(lines.join("\n") + "\n"));
    assert!(e.at == 0 || e.at >= 3, "{e}");
}

#[test]
fn a_truncated_file_fails() {
    let (_, text) = sample();
    // Cut after a whole line: no `end` line.
    let lines: Vec<&str> = text.lines().collect();
    for keep in [0, 1, 2, 3, 4, 10, lines.len() - 1] {
        let cut = lines[..keep].join("\n");
        let e = parse_err(&cut);
        assert_eq!(e.at, 0, "{keep} lines: {e}");
        assert!(e.message.contains("missing"), "{keep} lines: {e}");
    }
    // Cut inside a line.
    let n = lines.len();
    let cut = format!("{}\nend score=", lines[..n - 1].join("\n"));
    assert_eq!(parse_err(&cut).at, n);
    let half_turn = format!("{}\nL 5:", lines[..8].join("\n"));
    assert_eq!(parse_err(&half_turn).at, 9);
    let half_board = text.trim_end().to_owned();
    let half_board = &half_board[..half_board.len() - 3];
    assert_eq!(parse_err(half_board).at, n);
}

#[test]
fn garbage_lines_fail_at_their_line() {
    let (_, text) = sample();
    for garbage in [
        "hello world",
        "X 5:2",
        "L 5:8",
        "L 16:2",
        "L 5",
        "L 5:2 7:2",
        "L -1:2",
    ] {
        let mut lines: Vec<&str> = text.lines().collect();
        lines.insert(7, garbage);
        let e = parse_err(&(lines.join("\n") + "\n"));
        assert_eq!(e.at, 8, "{garbage:?}: {e}");
        assert!(e.to_string().starts_with("at 8: "), "{e}");
    }
}

#[test]
fn text_after_the_end_line_is_an_error() {
    let (_, text) = sample();
    let n = text.lines().count();
    let e = parse_err(&format!("{text}garbage here\n"));
    assert_eq!(e.at, n + 1, "{e}");
    assert!(e.to_string().contains("after the `end` line"), "{e}");
    // Blank lines after the end are fine.
    assert!(format!("{text}\n\n")
        .parse::<ai2048_engine::Replay>()
        .is_ok());
}

#[test]
fn a_bad_header_fails_at_its_line() {
    let (_, text) = sample();
    let cases: [(usize, &str, &str); 11] = [
        (1, "ai2048-replay 2", "not a replay"),
        (2, "seed x", "seed"),
        (2, "seed -1", "seed"),
        (
            3,
            "rules start_tiles=0 four_probability=0.1 illegal_move_spawns=false",
            "start tiles",
        ),
        (
            3,
            "rules start_tiles=17 four_probability=0.1 illegal_move_spawns=false",
            "start tiles",
        ),
        (
            3,
            "rules start_tiles=2 four_probability=1.5 illegal_move_spawns=false",
            "probability",
        ),
        (
            3,
            "rules start_tiles=2 four_probability=NaN illegal_move_spawns=false",
            "probability",
        ),
        (
            3,
            "rules start_tiles=2 four_probability=0.1 illegal_move_spawns=maybe",
            "illegal_move_spawns",
        ),
        (
            3,
            "rules start_tiles=2 illegal_move_spawns=false",
            "missing four_probability",
        ),
        (
            3,
            "laws start_tiles=2 four_probability=0.1 illegal_move_spawns=false",
            "rules",
        ),
        (4, "start 5:2 -", "start tile cannot be -"),
    ];
    for (line, replacement, needle) in cases {
        let tampered = edit_line(&text, line, |_| replacement.to_owned());
        let e = parse_err(&tampered);
        assert_eq!(e.at, line, "{replacement:?}: {e}");
        assert!(e.message.contains(needle), "{replacement:?}: {e}");
    }
}

#[test]
fn a_bad_end_line_fails_at_its_line() {
    let (_, text) = sample();
    let n = text.lines().count();
    for end in [
        "end score=x board=0000000000000000",
        "end board=0000000000000000",
        "end score=4 board=000000000000000z",
        "end score=4",
    ] {
        let e = parse_err(&edit_line(&text, n, |_| end.to_owned()));
        assert_eq!(e.at, n, "{end:?}: {e}");
    }
}

#[test]
fn a_start_that_the_rules_do_not_allow_fails() {
    // Rules for one starting tile with the two tiles of another game.
    let (_, text) = sample();
    let tampered = edit_line(&text, 3, |l| l.replace("start_tiles=2", "start_tiles=1"));
    assert_eq!(verify_err(&tampered).at, 0);
}

#[test]
fn per_turn_games_round_trip_and_say_so() {
    use ai2048_engine::rng::derive_seed;
    use ai2048_engine::PlayableBoard;
    let mut game = Game::with_spawns(77, Rules::ORIGINAL, SpawnStream::PerTurn).unwrap();
    let mut rng = Rng::new(5);
    while !game.is_over() {
        let before = game.board();
        let dir = Dir::ALL[(rng.next_u64() % 4) as usize];
        let Ok(turn) = game.try_play(dir) else {
            continue;
        };
        // The spawn of turn n is the one `Rng::new(derive_seed(seed, n))` draws.
        let n = (game.moves() - 1) as u64;
        let (moved, _) = PlayableBoard::new(before).apply_scored(dir).unwrap();
        let (after, spawn) = moved.with_random_tile(&mut Rng::new(derive_seed(77, n)), 0.1);
        assert_eq!((game.board(), turn.spawn), (after.board(), Some(spawn)));
    }
    // Undo keeps the stream.
    let mut undone = game.clone();
    let last = undone.undo().unwrap();
    assert_eq!(undone.try_play(last.dir).unwrap(), last);
    assert_eq!(undone.board(), game.board());

    let text = game.replay().to_string();
    assert_eq!(text.lines().nth(3), Some("spawns per-turn"));
    let replay: Replay = text.parse().unwrap();
    assert_eq!(replay.spawns, SpawnStream::PerTurn);
    assert_eq!(replay.verify().unwrap().score(), game.score());
    // The same moves under the sequential stream do not replay.
    let sequential = text.replace("spawns per-turn\n", "");
    let replay: Replay = sequential.parse().unwrap();
    assert_eq!(replay.spawns, SpawnStream::Sequential);
    assert!(replay.verify().is_err());
    // Sequential games are written as before, without the line.
    let (_, old) = sample();
    assert!(!old.lines().any(|l| l.starts_with("spawns")));
    let e = parse_err(&text.replace("spawns per-turn", "spawns sideways"));
    assert_eq!(e.at, 4);
    assert_eq!(
        e.message,
        "unknown spawns \"sideways\": expected `spawns per-turn` or `spawns keyed KEY`"
    );
}

/// A keyed game played with random directions to its end.
fn keyed_game(key: SpawnKey, seed: u64) -> Game {
    let mut game = Game::with_spawns(0, Rules::ORIGINAL, SpawnStream::Keyed(key)).unwrap();
    let mut rng = Rng::new(seed);
    while !game.is_over() {
        let _ = game.try_play(Dir::ALL[rng.below(4) as usize]);
    }
    game
}

#[test]
fn keyed_games_round_trip_and_verify_with_their_key_only() {
    use ai2048_engine::keyed::KeyedRng;
    use ai2048_engine::PlayableBoard;
    let key = SpawnKey::from_bytes(core::array::from_fn(|i| (i * 37 + 11) as u8));
    let game = keyed_game(key, 8);
    assert!(game.moves() > 30, "{}", game.moves());
    // Every spawn is the keyed generator's of its turn, the start tiles its start's.
    let mut replayed = Game::with_spawns(0, Rules::ORIGINAL, SpawnStream::Keyed(key)).unwrap();
    let mut start = RandableBoard::new(ai2048_engine::Board::EMPTY).unwrap();
    let mut draws = KeyedRng::start(&key);
    for &spawn in game.start_spawns() {
        let (next, drawn) = start.with_random_tile_from(&mut draws, 0.1);
        assert_eq!(drawn, spawn);
        start = RandableBoard::new(next.board()).unwrap();
    }
    for (n, turn) in game.turns().iter().enumerate() {
        let (moved, _) = PlayableBoard::new(replayed.board())
            .apply_scored(turn.dir)
            .unwrap();
        let mut draws = KeyedRng::after_turn(&key, n as u64);
        let (after, spawn) = moved.with_random_tile_from(&mut draws, 0.1);
        assert_eq!(replayed.try_play(turn.dir).unwrap().spawn, Some(spawn));
        assert_eq!(replayed.board(), after.board());
    }

    let text = game.replay().to_string();
    assert_eq!(
        text.lines().nth(3),
        Some(format!("spawns keyed {}", key.to_hex()).as_str())
    );
    let replay: Replay = text.parse().unwrap();
    assert_eq!(replay.spawns, SpawnStream::Keyed(key));
    assert_eq!(replay.verify().unwrap().score(), game.score());
    // Undo keeps the stream.
    let mut undone = game.clone();
    let last = undone.undo().unwrap();
    assert_eq!(undone.try_play(last.dir).unwrap(), last);

    // One spawn changed: the replay fails at its turn.
    for k in [1, game.moves() / 2, game.moves()] {
        let spawn = game.turns()[k - 1].spawn.unwrap();
        let other = (0..16u8).find(|&c| c != spawn.cell).unwrap();
        let line = turn_line(k) + 1;
        let tampered = edit_line(&text, line, |l| {
            format!("{} {other}:{}", &l[..1], spawn.tile())
        });
        let e = verify_err(&tampered);
        assert_eq!(e.at, k, "{e}");
        assert!(e.message.contains("the key gives"), "{e}");
        let tampered = edit_line(&text, line, |l| {
            format!("{} {}:{}", &l[..1], spawn.cell, 6 - spawn.tile())
        });
        assert_eq!(verify_err(&tampered).at, k);
    }
    // Another key, or the same moves as a per-turn game of the seed, do not replay.
    let other = SpawnKey::from_bytes([0x5a; 32]);
    assert!(verify_err(&text.replace(&key.to_hex(), &other.to_hex()))
        .to_string()
        .contains("key"));
    let per_turn = text.replace(&format!("spawns keyed {}", key.to_hex()), "spawns per-turn");
    assert_eq!(
        per_turn.parse::<Replay>().unwrap().spawns,
        SpawnStream::PerTurn
    );
    assert!(per_turn.parse::<Replay>().unwrap().verify().is_err());
    // A key that is not 64 hexadecimal digits.
    let e = parse_err(&text.replace(&key.to_hex(), "abc"));
    assert_eq!(e.at, 4);
    assert_eq!(
        e.message,
        "spawns keyed: a spawn key is 64 hexadecimal digits"
    );
}

/// Replays written by the engine before keyed spawns existed (random moves from
/// `Rng::new(3)` on seed 7080339833709097, one of each stream) still read, verify,
/// and are written back byte for byte.
#[test]
fn replays_written_before_keyed_spawns_still_verify() {
    for (text, spawns, score) in [
        (
            include_str!("fixtures/sequential.replay"),
            SpawnStream::Sequential,
            1068,
        ),
        (
            include_str!("fixtures/per-turn.replay"),
            SpawnStream::PerTurn,
            2936,
        ),
    ] {
        let replay: Replay = text.parse().unwrap();
        assert_eq!(replay.spawns, spawns);
        let game = replay.verify().unwrap();
        assert_eq!(game.score(), score);
        assert_eq!(game.replay().to_string(), text);
    }
}
