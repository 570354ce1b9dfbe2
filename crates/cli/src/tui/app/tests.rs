//! The game screen's tests: every action on a game played in place, searches
//! served by a quick player.

use super::*;
use ai2048_ai::{create_player, Player, PlayerSpec, SearchLimits};
use ai2048_engine::Replay;
use std::time::Duration;

pub(crate) fn config(mode: Mode, seed: u64) -> Config {
    Config {
        mode,
        rules: Rules::default(),
        seed,
        from: None,
        ai: "greedy".into(),
        speed: Speed::new(100),
        save_path: None,
        best: BestScore::in_memory(),
    }
}

pub(crate) fn greedy() -> Box<dyn Player> {
    create_player(&"greedy".parse::<PlayerSpec>().unwrap(), 0).unwrap()
}

/// A game of `play` from `seed`, and the greedy player to search for it.
fn play_with_greedy(seed: u64) -> (App, Box<dyn Player>) {
    (App::new(config(Mode::Play, seed)).unwrap(), greedy())
}

/// Runs the search the app asks for, if any, as the worker would.
pub(crate) fn serve(app: &mut App, player: &mut dyn Player) -> bool {
    match app.next_request() {
        Some(request) => {
            app.on_search(SearchDone::run(player, &SearchLimits::default(), request));
            true
        }
        None => false,
    }
}

/// Plays legal moves in a fixed order until the game ends.
pub(crate) fn play_out(app: &mut App, now: Instant) {
    while !app.game().is_over() {
        let dir = app.game().board().legal_dirs().iter().next().unwrap();
        app.handle(Action::Move(dir), now);
    }
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ai2048-app-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn first_legal(app: &App) -> Dir {
    app.game().board().legal_dirs().iter().next().unwrap()
}

#[test]
fn moves_and_undo_follow_the_engine() {
    let now = Instant::now();
    let mut app = App::new(config(Mode::Play, 3)).unwrap();
    let start = app.game().board();
    let dir = first_legal(&app);
    app.handle(Action::Move(dir), now);
    assert_eq!(app.game().moves(), 1);
    let mut expected = Game::new(3, Rules::default()).unwrap();
    expected.try_play(dir).unwrap();
    assert_eq!(app.game().board(), expected.board());
    app.handle(Action::Undo, now);
    assert_eq!(app.game().moves(), 0);
    assert_eq!(app.game().board(), start);
    assert_eq!(app.message().unwrap().text, "undone");
    app.handle(Action::Undo, now);
    assert_eq!(app.message().unwrap().text, "nothing to undo");
    assert_eq!(app.message().unwrap().tone, Tone::Bad);
}

#[test]
fn an_illegal_move_is_refused_with_the_engines_reason() {
    let now = Instant::now();
    // The first seed whose start leaves some direction illegal.
    let (mut app, dir) = (0..100)
        .find_map(|seed| {
            let app = App::new(config(Mode::Play, seed)).unwrap();
            let board = app.game().board();
            let dir = Dir::ALL.into_iter().find(|&d| !board.can_move(d))?;
            Some((app, dir))
        })
        .expect("some start has an illegal move");
    let board = app.game().board();
    app.handle(Action::Move(dir), now);
    assert_eq!(app.game().moves(), 0);
    assert_eq!(app.game().board(), board);
    let message = app.message().unwrap();
    assert_eq!(message.tone, Tone::Bad);
    assert_eq!(message.text, format!("moving {dir} changes nothing"));
}

#[test]
fn a_new_game_needs_confirming_mid_game_and_gets_a_derived_seed() {
    let now = Instant::now();
    let mut app = App::new(config(Mode::Play, 11)).unwrap();
    // Before the first move there is nothing to lose.
    app.handle(Action::New, now);
    let second = derive_seed(11, 1);
    assert_eq!(app.game().seed(), second);
    assert!(app.take_player_reset());
    assert!(!app.take_player_reset(), "once per game");
    let dir = first_legal(&app);
    app.handle(Action::Move(dir), now);
    app.handle(Action::New, now);
    assert_eq!(app.game().seed(), second, "the first n only asks");
    assert!(app.message().unwrap().text.contains("press n again"));
    app.handle(Action::Faster, now);
    app.handle(Action::New, now);
    assert_eq!(app.game().seed(), second, "another key in between cancels");
    app.handle(Action::New, now);
    assert_eq!(app.game().seed(), derive_seed(11, 2));
    assert_eq!(app.game().moves(), 0);
    assert!(app.message().unwrap().text.contains("new game"));
}

#[test]
fn games_from_a_position_start_there_and_so_does_the_next() {
    let now = Instant::now();
    let from: Board = "16384 8192 4096 0/512 1024 2048 0/0 0 0 0/0 0 2 2"
        .parse()
        .unwrap();
    let mut app = App::new(Config {
        from: Some(from),
        ..config(Mode::Play, 11)
    })
    .unwrap();
    assert_eq!((app.game().board(), app.game().score()), (from, 0));
    app.handle(Action::Move(Dir::Left), now);
    assert_ne!(app.game().board(), from);
    app.handle(Action::New, now);
    app.handle(Action::New, now);
    assert_eq!(app.game().seed(), derive_seed(11, 1));
    assert_eq!((app.game().board(), app.game().moves()), (from, 0));
}

#[test]
fn a_hint_fills_the_values_of_every_direction() {
    let (mut app, mut player) = play_with_greedy(5);
    assert!(!serve(&mut app, player.as_mut()), "no search unasked");
    app.handle(Action::Hint, Instant::now());
    assert!(app.hint_wanted());
    let request = app.next_request().unwrap();
    assert_eq!(request.board, app.game().board());
    assert!(app.searching());
    assert!(app.next_request().is_none(), "one search at a time");
    app.on_search(SearchDone::run(
        player.as_mut(),
        &SearchLimits::default(),
        request,
    ));
    assert!(!app.searching());
    let hint = app.analysis().unwrap();
    let board = app.game().board();
    for dir in Dir::ALL {
        assert_eq!(
            hint.result.dir_values[dir.index()].is_some(),
            board.can_move(dir),
            "{dir}"
        );
    }
    assert!(board.can_move(hint.result.dir.unwrap()));
    assert!(app.next_request().is_none(), "the hint is known");
    // The hint belongs to its board: a move clears it.
    let dir = first_legal(&app);
    app.handle(Action::Move(dir), Instant::now());
    assert!(app.analysis().is_none());
    assert!(!app.hint_wanted());
}

#[test]
fn a_search_for_an_old_board_is_dropped() {
    let now = Instant::now();
    let (mut app, mut player) = play_with_greedy(5);
    app.handle(Action::Hint, now);
    let request = app.next_request().unwrap();
    let dir = first_legal(&app);
    app.handle(Action::Move(dir), now);
    app.on_search(SearchDone::run(
        player.as_mut(),
        &SearchLimits::default(),
        request,
    ));
    assert!(app.analysis().is_none());
    assert!(!app.searching());
    assert_eq!(app.stats().searches, 0);
}

#[test]
fn autoplay_plays_after_the_pause_and_stops_on_undo() {
    let t0 = Instant::now();
    let (mut app, mut player) = play_with_greedy(8);
    app.handle(Action::ToggleAuto, t0);
    assert!(app.auto());
    assert!(serve(&mut app, player.as_mut()));
    let pick = app.analysis().unwrap().result.dir.unwrap();
    assert!(app.tick(t0), "the first move waits for nothing");
    assert_eq!(app.game().turns()[0].dir, pick);
    assert!(serve(&mut app, player.as_mut()));
    let pause = app.speed().delay();
    assert_eq!(app.deadline(), Some(t0 + pause));
    assert!(!app.tick(t0 + pause / 2), "too soon");
    assert!(app.tick(t0 + pause));
    assert_eq!(app.game().moves(), 2);
    assert_eq!(app.stats().searches, 2);
    app.handle(Action::Undo, t0 + pause);
    assert!(!app.auto(), "undo pauses autoplay");
    assert_eq!(app.game().moves(), 1);
    app.handle(Action::ToggleAuto, t0 + pause);
    assert!(app.auto());
    app.handle(Action::ToggleAuto, t0 + pause);
    assert!(!app.auto());
    assert!(!serve(&mut app, player.as_mut()), "no search while off");
}

#[test]
fn speed_keys_step_and_stop_at_the_bounds() {
    let now = Instant::now();
    let mut app = App::new(config(Mode::Watch, 1)).unwrap();
    for _ in 0..10 {
        app.handle(Action::Faster, now);
    }
    assert_eq!(app.speed().delay(), Duration::ZERO);
    assert!(app.message().unwrap().text.contains("already the fastest"));
    for _ in 0..10 {
        app.handle(Action::Slower, now);
    }
    assert_eq!(app.speed().delay(), Duration::from_secs(2));
    assert!(app.message().unwrap().text.contains("already the slowest"));
    app.handle(Action::Faster, now);
    assert_eq!(app.speed().delay(), Duration::from_secs(1));
}

#[test]
fn watch_plays_a_whole_game_and_pauses() {
    let t0 = Instant::now();
    let mut app = App::new(Config {
        speed: Speed::new(0),
        ..config(Mode::Watch, 2)
    })
    .unwrap();
    assert!(app.auto(), "watch starts playing");
    let mut player = greedy();
    app.handle(Action::Move(Dir::Left), t0);
    assert_eq!(app.game().moves(), 0, "the person does not move in watch");
    app.handle(Action::ToggleAuto, t0);
    assert!(!app.auto());
    assert!(!serve(&mut app, player.as_mut()), "paused");
    app.handle(Action::ToggleAuto, t0);
    while serve(&mut app, player.as_mut()) {
        assert!(app.tick(t0));
    }
    assert!(app.game().is_over());
    assert_eq!(app.stats().searches as usize, app.game().moves());
    assert!(app.best() >= app.game().score());
    let mut alone = Game::new(2, Rules::default()).unwrap();
    let mut again = greedy();
    while let Some(dir) = again.search(alone.board(), &SearchLimits::default()).dir {
        alone.try_play(dir).unwrap();
    }
    assert_eq!(alone.board(), app.game().board(), "the same game as alone");
}

#[test]
fn game_over_then_save_writes_a_replay_that_verifies() {
    let dir = temp_dir("save");
    let path = dir.join("game.replay");
    let now = Instant::now();
    let mut app = App::new(Config {
        save_path: Some(path.clone()),
        ..config(Mode::Play, 21)
    })
    .unwrap();
    play_out(&mut app, now);
    assert!(app.game().is_over());
    app.handle(Action::Hint, now);
    assert!(!app.hint_wanted(), "no hint once the game is over");
    app.handle(Action::Save, now);
    let message = app.message().unwrap();
    assert_eq!(message.tone, Tone::Good, "{message:?}");
    assert!(message.text.contains(&path.display().to_string()));
    assert_eq!(app.saved_to(), Some(path.as_path()));
    let replay: Replay = std::fs::read_to_string(&path).unwrap().parse().unwrap();
    let verified = replay.verify().unwrap();
    assert_eq!(verified.score(), app.game().score());
    assert_eq!(verified.board(), app.game().board());
    assert_eq!(replay.seed, 21);
    // Undo works from the game-over screen.
    let moves = app.game().moves();
    app.handle(Action::Undo, now);
    assert_eq!(app.game().moves(), moves - 1);
    assert!(!app.game().is_over());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn save_names_the_seed_by_default_and_reports_errors() {
    let app = App::new(config(Mode::Play, 77)).unwrap();
    assert_eq!(app.save_path(), PathBuf::from("ai2048-77.replay"));
    let dir = temp_dir("save-error");
    let mut app = App::new(Config {
        save_path: Some(dir.join("missing-dir").join("x.replay")),
        ..config(Mode::Play, 77)
    })
    .unwrap();
    app.handle(Action::Save, Instant::now());
    let message = app.message().unwrap();
    assert_eq!(message.tone, Tone::Bad);
    assert!(
        message.text.starts_with("cannot save the replay"),
        "{message:?}"
    );
    assert!(app.saved_to().is_none());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_best_score_is_kept_across_games_and_persisted() {
    let dir = temp_dir("best");
    let path = dir.join("best");
    std::fs::write(&path, "corrupt").unwrap();
    let now = Instant::now();
    let mut app = App::new(Config {
        best: BestScore::load(path.clone()),
        ..config(Mode::Play, 4)
    })
    .unwrap();
    assert_eq!(app.best(), 0);
    play_out(&mut app, now);
    let first = app.game().score();
    assert!(first > 0);
    assert_eq!(app.best(), first);
    assert!(!app.new_best(), "a best of 0 is no record");
    assert_eq!(
        std::fs::read_to_string(&path).unwrap().trim(),
        first.to_string(),
        "written at game over"
    );
    app.handle(Action::New, now);
    assert_eq!(app.game().score(), 0);
    assert_eq!(app.best(), first, "kept across games");
    app.handle(Action::Quit, now);
    assert!(app.should_quit());
    let again = App::new(Config {
        best: BestScore::load(path),
        ..config(Mode::Play, 4)
    })
    .unwrap();
    assert_eq!(again.best(), first, "and across sessions");
    let _ = std::fs::remove_dir_all(&dir);
}
