//! Playing the games: each game of a run ([`BenchConfig`]), and the threads that play
//! them.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use ai2048_ai::{create_player, TableUse};
use ai2048_engine::{Board, Game, PlayError, SpawnStream};

use crate::config::{BenchConfig, BenchError};
use crate::{run_tasks, GameRecord};

/// Plays game `index` of `config` to its end, or until its timeout.
///
/// Returns `Ok(None)` when `stop` was set before the game ended: an unfinished game
/// is dropped, never counted.
///
/// # Errors
///
/// When the player cannot be created, or chooses an illegal move or none.
///
/// ```
/// use ai2048_bench::{play_game, BenchConfig};
/// use std::sync::atomic::AtomicBool;
/// let config = BenchConfig::new("random".parse()?);
/// let record = play_game(&config, 7, &AtomicBool::new(false))?.expect("not stopped");
/// assert_eq!((record.index, record.seed), (7, config.game_seed(7)));
/// assert!(record.moves > 0 && !record.timed_out);
/// // Stopped before it starts: nothing to count.
/// assert!(play_game(&config, 7, &AtomicBool::new(true))?.is_none());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn play_game(
    config: &BenchConfig,
    index: u64,
    stop: &AtomicBool,
) -> Result<Option<GameRecord>, BenchError> {
    play_game_until(config, index, || stop.load(Ordering::Relaxed))
}

/// [`play_game`] with any stop condition, checked before each move: the game stops
/// (and counts for nothing) once `stopped()` is true.
///
/// # Errors
///
/// As [`play_game`].
pub fn play_game_until(
    config: &BenchConfig,
    index: u64,
    stopped: impl Fn() -> bool,
) -> Result<Option<GameRecord>, BenchError> {
    play_game_watched(config, index, stopped, |_| {})
}

/// [`play_game_until`] that also shows `watch` the board after every move, its new
/// tile spawned: to learn more of a game than its record holds, such as where it
/// entered each stage of a network.
///
/// # Errors
///
/// As [`play_game`].
///
/// ```
/// use ai2048_bench::{play_game_watched, BenchConfig};
/// let config = BenchConfig::new("greedy".parse()?);
/// let mut largest = Vec::new();
/// let record = play_game_watched(&config, 0, || false, |board| largest.push(board.max_tile()))?
///     .expect("not stopped");
/// assert_eq!(largest.len() as u64, record.moves);
/// assert_eq!(largest.last(), Some(&record.max_tile));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn play_game_watched(
    config: &BenchConfig,
    index: u64,
    stopped: impl Fn() -> bool,
    mut watch: impl FnMut(Board),
) -> Result<Option<GameRecord>, BenchError> {
    let seed = config.game_seed(index);
    let mut game = match config.from {
        Some(board) => Game::from_board(seed, config.rules, SpawnStream::Sequential, board),
        None => Game::new(seed, config.rules),
    }
    .map_err(BenchError::Rules)?;
    let mut player = create_player(&config.player, seed).map_err(BenchError::Player)?;
    // The clock starts once the player is ready: setting up its tables is not play.
    let start = Instant::now();
    let deadline = config.timeout.and_then(|t| start.checked_add(t));
    let mut limits = config.limits;
    let mut last = Instant::now();
    let mut max_move = Duration::ZERO;
    let mut nodes = 0u64;
    let (mut table_answers, mut table_moves) = (0u64, 0u64);
    let (mut searches, mut depth_sum) = (0u64, 0u64);
    let mut timed_out = false;
    // `is_over` is asked only when something else ends the loop: a player returns no
    // move exactly when the game is over, so the common path skips it.
    loop {
        // A game that is over when the stop comes still asks its player for the last
        // board, as an unstopped game does: its record is the same, nodes and all.
        if stopped() && !game.is_over() {
            return Ok(None);
        }
        if let Some(deadline) = deadline {
            if last >= deadline {
                timed_out = !game.is_over();
                break;
            }
            let left = deadline - last;
            if let Some(time) = config.limits.time {
                limits.time = Some(time.min(left));
            }
            limits.clock = Some(left);
        }
        let result = player.search(game.board(), &limits);
        nodes += result.nodes;
        table_answers += u64::from(result.table.answered());
        table_moves += u64::from(result.table.played());
        let Some(dir) = result.dir else {
            if game.is_over() {
                break;
            }
            return Err(BenchError::NoMove {
                player: config.player.name.clone(),
                index,
                seed,
            });
        };
        // A move a table decided was not searched (a game's last call, on a board with
        // no move, is not counted either).
        if result.table != TableUse::Decided {
            searches += 1;
            depth_sum += u64::from(result.depth);
        }
        match game.try_play(dir) {
            Ok(_) => watch(game.board()),
            // Under `illegal_move_spawns`, a game can be over with moves on the board.
            Err(PlayError::GameOver) => break,
            Err(PlayError::IllegalMove(dir)) => {
                return Err(BenchError::IllegalMove {
                    player: config.player.name.clone(),
                    index,
                    seed,
                    dir,
                })
            }
        }
        let now = Instant::now();
        max_move = max_move.max(now - last);
        last = now;
        if config.until.is_some_and(|tile| game.max_tile() >= tile) {
            break;
        }
    }
    Ok(Some(GameRecord {
        index,
        seed,
        score: game.score(),
        max_tile: game.max_tile(),
        moves: game.moves() as u64,
        seconds: last.duration_since(start).as_secs_f64(),
        timed_out,
        max_ms_per_move: max_move.as_secs_f64() * 1e3,
        nodes,
        table_answers,
        table_moves,
        searches,
        depth_sum,
        board: Some(game.board()),
    }))
}

/// Plays the games of `config` on `config.jobs` threads and returns the records of
/// the finished ones, sorted by index.
///
/// Each thread takes the next game index until all are taken. `stop` is checked
/// before every move: once it is set, the games in progress are dropped, the finished
/// ones returned (so a stopped run returns fewer than `config.games` records, each of a
/// complete game). `on_game` is called, from the thread that played it, after each
/// finished game, in no particular order: for progress reports; it may set `stop`.
///
/// # Errors
///
/// When the configuration is invalid ([`BenchConfig::validate`]) or a game fails
/// (the player chose an illegal move, or panicked): the other games stop then, and the
/// error of the lowest game index is returned.
///
/// ```
/// use ai2048_bench::{run_bench, BenchConfig};
/// use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
/// let config = BenchConfig { games: 8, jobs: 2, ..BenchConfig::new("random".parse()?) };
/// let done = AtomicUsize::new(0);
/// let records = run_bench(&config, &AtomicBool::new(false), |_| {
///     done.fetch_add(1, Ordering::Relaxed);
/// })?;
/// assert_eq!(records.len(), 8);
/// assert_eq!(done.load(Ordering::Relaxed), 8);
/// assert!(records.iter().enumerate().all(|(i, r)| r.index == i as u64));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn run_bench<F>(
    config: &BenchConfig,
    stop: &AtomicBool,
    on_game: F,
) -> Result<Vec<GameRecord>, BenchError>
where
    F: Fn(&GameRecord) + Sync,
{
    resume_bench(config, Vec::new(), stop, on_game)
}

/// [`run_bench`] for a run of which the games in `done` are already played (an
/// interrupted run read back with [`SavedRun`](crate::SavedRun)): it plays only the
/// others, and returns the records of all the finished games, `done` included, sorted
/// by index. `on_game` is called for the games played now.
///
/// # Errors
///
/// As [`run_bench`]; also [`BenchError::Config`] when a record of `done` is not a game
/// of this run: its index is outside [`BenchConfig::indices`], comes twice, or its seed
/// is not [`BenchConfig::game_seed`] of its index.
///
/// ```
/// use ai2048_bench::{resume_bench, run_bench, BenchConfig};
/// use std::sync::atomic::AtomicBool;
/// let stop = AtomicBool::new(false);
/// let config = BenchConfig { games: 6, ..BenchConfig::new("greedy".parse()?) };
/// let first = run_bench(&BenchConfig { games: 4, ..config.clone() }, &stop, |_| {})?;
/// let all = resume_bench(&config, first, &stop, |r| assert!(r.index >= 4))?;
/// let whole = run_bench(&config, &stop, |_| {})?;
/// assert!(all.iter().zip(&whole).all(|(a, b)| a.same_outcome(b)));
/// assert_eq!(all.len(), 6);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn resume_bench<F>(
    config: &BenchConfig,
    mut done: Vec<GameRecord>,
    stop: &AtomicBool,
    on_game: F,
) -> Result<Vec<GameRecord>, BenchError>
where
    F: Fn(&GameRecord) + Sync,
{
    config.validate()?;
    let played = check_done(config, &mut done)?;
    let mut records = play_all(config, &played, stop, on_game)?;
    records.append(&mut done);
    records.sort_unstable_by_key(|r| r.index);
    Ok(records)
}

/// Checks that the records in `done` are games of `config`'s run, each once; returns
/// their indices, sorted.
pub(crate) fn check_done(
    config: &BenchConfig,
    done: &mut [GameRecord],
) -> Result<Vec<u64>, BenchError> {
    done.sort_unstable_by_key(|r| r.index);
    let range = config.indices();
    let mut played = Vec::with_capacity(done.len());
    for r in done.iter() {
        let problem = if !range.contains(&r.index) {
            format!(
                "is not one of this run's games ({} to {})",
                range.start,
                range.end.saturating_sub(1)
            )
        } else if played.last() == Some(&r.index) {
            "comes twice".to_owned()
        } else if r.seed != config.game_seed(r.index) {
            format!(
                "has seed {}, but this run plays it from seed {}",
                r.seed,
                config.game_seed(r.index)
            )
        } else {
            played.push(r.index);
            continue;
        };
        return Err(BenchError::Config(format!(
            "the finished game {} {problem}",
            r.index
        )));
    }
    Ok(played)
}

/// Plays the games of `config` but those in `played` (sorted) on up to `config.jobs`
/// threads (see [`run_bench`]).
fn play_all<F>(
    config: &BenchConfig,
    played: &[u64],
    stop: &AtomicBool,
    on_game: F,
) -> Result<Vec<GameRecord>, BenchError>
where
    F: Fn(&GameRecord) + Sync,
{
    let threads = config.threads_for(config.games - played.len() as u64);
    let made = run_tasks(threads, config.indices(), stop, |index, stopped| {
        if played.binary_search(&index).is_ok() {
            return Ok(None);
        }
        let record = play_game_until(config, index, stopped)?;
        if let Some(record) = &record {
            on_game(record);
        }
        Ok(record)
    })?;
    let mut records: Vec<GameRecord> = made.into_iter().map(|(_, r)| r).collect();
    records.sort_unstable_by_key(|r| r.index);
    Ok(records)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::LAST_GAME;
    use ai2048_engine::rng::derive_seed;
    use ai2048_engine::Rules;
    use std::sync::atomic::AtomicUsize;

    fn config(player: &str, games: u64, jobs: usize) -> BenchConfig {
        BenchConfig {
            games,
            jobs,
            seed: 12345,
            ..BenchConfig::new(player.parse().expect("valid spec"))
        }
    }

    fn same(a: &[GameRecord], b: &[GameRecord]) -> bool {
        a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.same_outcome(y))
    }

    #[test]
    fn records_are_complete_and_sorted() {
        let records =
            run_bench(&config("random", 40, 2), &AtomicBool::new(false), |_| {}).expect("runs");
        assert_eq!(records.len(), 40);
        for (i, r) in records.iter().enumerate() {
            assert_eq!(r.index, i as u64);
            assert_eq!(r.seed, derive_seed(12345, i as u64));
            assert!(!r.timed_out);
            assert!(r.moves > 0 && r.score > 0 && r.max_tile >= 4);
            assert!(r.seconds >= 0.0 && r.max_ms_per_move >= 0.0);
        }
    }

    #[test]
    fn every_searched_move_counts_its_depth() {
        // Without tables every move is searched, each to the fixed depth (games
        // stopped at 2048: whole games took most of this crate's test time).
        let fixed = BenchConfig {
            limits: ai2048_ai::SearchLimits::with_depth(2),
            until: Some(2048),
            ..config("expectimax:tables=off", 2, 2)
        };
        for r in run_bench(&fixed, &AtomicBool::new(false), |_| {}).expect("runs") {
            assert_eq!(r.searches, r.moves, "game {}", r.index);
            assert_eq!(r.depth_sum, 2 * r.moves, "game {}", r.index);
        }
        // A player that does not search reaches depth 0.
        for r in run_bench(&config("random", 3, 1), &AtomicBool::new(false), |_| {}).expect("runs")
        {
            assert_eq!((r.searches, r.depth_sum), (r.moves, 0));
        }
    }

    #[test]
    fn games_end_over() {
        // Replaying a record's game with the same player gives the same outcome,
        // and that game is over.
        let c = config("greedy", 3, 1);
        let records = run_bench(&c, &AtomicBool::new(false), |_| {}).expect("runs");
        for r in &records {
            let mut game = Game::new(r.seed, c.rules).expect("rules");
            let mut player = create_player(&c.player, r.seed).expect("player");
            while let Some(dir) = player.search(game.board(), &c.limits).dir {
                game.try_play(dir).expect("legal");
            }
            assert!(game.is_over());
            assert_eq!(game.score(), r.score);
            assert_eq!(game.moves() as u64, r.moves);
            assert_eq!(game.max_tile(), r.max_tile);
            assert_eq!(
                Some(game.board()),
                r.board,
                "the record keeps the final board"
            );
        }
    }

    #[test]
    fn deterministic_whatever_the_jobs() {
        for player in ["random", "greedy"] {
            let one =
                run_bench(&config(player, 30, 1), &AtomicBool::new(false), |_| {}).expect("runs");
            let two =
                run_bench(&config(player, 30, 2), &AtomicBool::new(false), |_| {}).expect("runs");
            let four =
                run_bench(&config(player, 30, 4), &AtomicBool::new(false), |_| {}).expect("runs");
            assert!(same(&one, &two), "{player}: jobs 1 vs 2");
            assert!(same(&one, &four), "{player}: jobs 1 vs 4");
        }
    }

    #[test]
    fn seeds_change_the_games() {
        let a = run_bench(&config("random", 20, 2), &AtomicBool::new(false), |_| {}).expect("runs");
        let b = run_bench(
            &BenchConfig {
                seed: 1,
                ..config("random", 20, 2)
            },
            &AtomicBool::new(false),
            |_| {},
        )
        .expect("runs");
        assert!(!same(&a, &b));
    }

    #[test]
    fn stop_before_start_plays_nothing() {
        let called = AtomicUsize::new(0);
        let records = run_bench(&config("random", 100, 2), &AtomicBool::new(true), |_| {
            called.fetch_add(1, Ordering::Relaxed);
        })
        .expect("runs");
        assert!(records.is_empty());
        assert_eq!(called.load(Ordering::Relaxed), 0);
    }

    #[test]
    fn stop_keeps_the_finished_games() {
        for jobs in [1, 2, 3] {
            let stop = AtomicBool::new(false);
            let done = AtomicUsize::new(0);
            let c = config("random", 10_000, jobs);
            let records = run_bench(&c, &stop, |_| {
                if done.fetch_add(1, Ordering::SeqCst) + 1 >= 5 {
                    stop.store(true, Ordering::SeqCst);
                }
            })
            .expect("runs");
            assert!(records.len() >= 5, "jobs {jobs}: {} records", records.len());
            assert!(records.len() < 10_000);
            assert_eq!(records.len(), done.load(Ordering::SeqCst));
            // Every kept game is complete: the same as in an uninterrupted run.
            for r in &records {
                let full = play_game(&c, r.index, &AtomicBool::new(false))
                    .expect("plays")
                    .expect("not stopped");
                assert!(r.same_outcome(&full));
                assert!(!r.timed_out);
            }
            assert!(records.windows(2).all(|w| w[0].index < w[1].index));
        }
    }

    #[test]
    fn a_stop_that_comes_as_the_game_ends_keeps_the_whole_record() {
        let c = config("greedy", 1, 1);
        let full = play_game(&c, 0, &AtomicBool::new(false))
            .expect("plays")
            .expect("not stopped");
        // The stop is asked before each search: a search a move, then one of the board
        // that has none. Set it for that last one.
        let asked = AtomicUsize::new(0);
        let stopped = || asked.fetch_add(1, Ordering::Relaxed) >= full.moves as usize;
        let record = play_game_until(&c, 0, stopped)
            .expect("plays")
            .expect("the game was over when the stop came");
        assert!(record.same_outcome(&full));
        assert_eq!(
            record.nodes, full.nodes,
            "the last board's search counts too"
        );
        assert_eq!(record.searches, full.searches);
        // One search earlier, the game is not over: it is not kept.
        let asked = AtomicUsize::new(0);
        let early = || asked.fetch_add(1, Ordering::Relaxed) + 1 >= full.moves as usize;
        assert!(play_game_until(&c, 0, early).expect("plays").is_none());
    }

    #[test]
    fn games_from_a_position_start_there_and_stop_at_the_tile_asked_for() {
        let from: Board = "256 128 64 32/16 8 4 2/0 0 0 0/0 0 0 2"
            .parse()
            .expect("board");
        let c = BenchConfig {
            from: Some(from),
            until: Some(512),
            ..config("greedy", 20, 2)
        };
        let records = run_bench(&c, &AtomicBool::new(false), |_| {}).expect("runs");
        assert_eq!(records.len(), 20);
        let made = records.iter().filter(|r| r.max_tile == 512).count();
        assert!(made > 0, "greedy makes 512 from this board in some games");
        for r in &records {
            assert!(r.max_tile <= 512 && r.max_tile >= 256, "{r:?}");
            // Replayed from the position, the game stops where the tile first stands.
            let mut game =
                Game::from_board(r.seed, c.rules, SpawnStream::Sequential, from).expect("rules");
            let mut player = create_player(&c.player, r.seed).expect("player");
            while game.max_tile() < 512 {
                let Some(dir) = player.search(game.board(), &c.limits).dir else {
                    break;
                };
                game.try_play(dir).expect("legal");
            }
            assert_eq!((game.moves() as u64, game.score()), (r.moves, r.score));
            assert_eq!(Some(game.board()), r.board, "the board it stopped on");
        }
        // Played out, the same games go on past 512 where they can.
        let out = run_bench(
            &BenchConfig { until: None, ..c },
            &AtomicBool::new(false),
            |_| {},
        )
        .expect("runs");
        assert!(out.iter().zip(&records).all(|(o, r)| o.moves >= r.moves));
        assert!(out.iter().zip(&records).any(|(o, r)| o.moves > r.moves));
    }

    #[test]
    fn tiny_timeout_marks_games_timed_out() {
        let c = BenchConfig {
            timeout: Some(Duration::from_nanos(1)),
            ..config("greedy", 6, 2)
        };
        let records = run_bench(&c, &AtomicBool::new(false), |_| {}).expect("runs");
        assert_eq!(records.len(), 6);
        for r in &records {
            assert!(r.timed_out);
            // The game stops at the first check, after at most one move.
            assert!(r.moves <= 1, "{} moves", r.moves);
        }
    }

    #[test]
    fn generous_timeout_changes_nothing() {
        let c = config("random", 10, 2);
        let timed = BenchConfig {
            timeout: Some(Duration::from_secs(3600)),
            ..c.clone()
        };
        let a = run_bench(&c, &AtomicBool::new(false), |_| {}).expect("runs");
        let b = run_bench(&timed, &AtomicBool::new(false), |_| {}).expect("runs");
        assert!(same(&a, &b));
        assert!(b.iter().all(|r| !r.timed_out));
        // A timeout too large for the clock means no timeout.
        let huge = BenchConfig {
            timeout: Some(Duration::MAX),
            ..c
        };
        let h = run_bench(&huge, &AtomicBool::new(false), |_| {}).expect("runs");
        assert!(same(&a, &h));
    }

    #[test]
    fn bad_configs_are_errors() {
        let stop = AtomicBool::new(false);
        let err = run_bench(&config("random", 5, 0), &stop, |_| {}).unwrap_err();
        assert!(matches!(err, BenchError::Config(_)), "{err}");
        let err = run_bench(&config("nope", 5, 1), &stop, |_| {}).unwrap_err();
        assert!(err.to_string().contains("unknown player"), "{err}");
        let zero = BenchConfig {
            timeout: Some(Duration::ZERO),
            ..config("random", 5, 1)
        };
        assert!(run_bench(&zero, &stop, |_| {}).is_err());
        let rules = BenchConfig {
            rules: Rules {
                start_tiles: 0,
                ..Rules::default()
            },
            ..config("random", 5, 1)
        };
        assert!(matches!(
            run_bench(&rules, &stop, |_| {}),
            Err(BenchError::Rules(_))
        ));
    }

    #[test]
    fn zero_games_is_empty() {
        let records =
            run_bench(&config("random", 0, 2), &AtomicBool::new(false), |_| {}).expect("runs");
        assert!(records.is_empty());
    }

    #[test]
    fn a_panicking_callback_is_an_error() {
        let err = run_bench(&config("random", 20, 2), &AtomicBool::new(false), |r| {
            if r.index == 3 {
                panic!("boom");
            }
        })
        .unwrap_err();
        assert_eq!(
            err,
            BenchError::Panicked {
                index: 3,
                message: "boom".to_owned()
            }
        );
    }

    #[test]
    fn parts_play_the_games_of_the_whole() {
        let whole =
            run_bench(&config("greedy", 12, 2), &AtomicBool::new(false), |_| {}).expect("runs");
        let mut parts = Vec::new();
        for (first_game, games) in [(0, 5), (5, 1), (6, 6)] {
            let part = BenchConfig {
                first_game,
                games,
                ..config("greedy", 0, 2)
            };
            let records = run_bench(&part, &AtomicBool::new(false), |_| {}).expect("runs");
            assert_eq!(records.len() as u64, games);
            assert_eq!(records[0].index, first_game);
            parts.extend(records);
        }
        assert!(same(&whole, &parts));
    }

    #[test]
    fn resuming_plays_only_the_missing_games() {
        let whole =
            run_bench(&config("greedy", 10, 2), &AtomicBool::new(false), |_| {}).expect("runs");
        // Games 1, 4 and 8 are missing, as after an interrupted run of 3 jobs.
        let done: Vec<GameRecord> = whole
            .iter()
            .filter(|r| ![1, 4, 8].contains(&r.index))
            .copied()
            .rev()
            .collect();
        let played = std::sync::Mutex::new(Vec::new());
        let all = resume_bench(
            &config("greedy", 10, 3),
            done,
            &AtomicBool::new(false),
            |r| {
                played.lock().expect("not poisoned").push(r.index);
            },
        )
        .expect("runs");
        let mut played = played.into_inner().expect("not poisoned");
        played.sort_unstable();
        assert_eq!(played, [1, 4, 8]);
        assert!(same(&whole, &all));
        // Nothing left to play: the records come back as they were.
        let again = resume_bench(
            &config("greedy", 10, 2),
            all,
            &AtomicBool::new(false),
            |_| panic!("no game should be played"),
        )
        .expect("runs");
        assert!(same(&whole, &again));
    }

    #[test]
    fn resuming_refuses_records_of_other_runs() {
        let c = config("random", 4, 1);
        let records = run_bench(&c, &AtomicBool::new(false), |_| {}).expect("runs");
        let cases: [(Vec<GameRecord>, &str); 3] = [
            (
                vec![GameRecord {
                    index: 4,
                    ..records[0]
                }],
                "the finished game 4 is not one of this run's games (0 to 3)",
            ),
            (
                vec![records[1], records[1]],
                "the finished game 1 comes twice",
            ),
            (
                vec![GameRecord {
                    seed: 5,
                    ..records[2]
                }],
                "the finished game 2 has seed 5, but this run plays it from seed",
            ),
        ];
        for (done, message) in cases {
            let err = resume_bench(&c, done, &AtomicBool::new(false), |_| {
                panic!("no game should be played")
            })
            .unwrap_err();
            assert!(matches!(err, BenchError::Config(_)), "{err}");
            assert!(err.to_string().contains(message), "{err}");
        }
    }

    #[test]
    fn runs_may_not_pass_the_last_index() {
        let c = BenchConfig {
            first_game: LAST_GAME - 5,
            games: 6,
            ..config("random", 0, 1)
        };
        let err = run_bench(&c, &AtomicBool::new(false), |_| {}).unwrap_err();
        assert!(
            err.to_string().contains("past the last game index"),
            "{err}"
        );
        assert!(BenchConfig { games: 5, ..c }.validate().is_ok());
    }

    #[test]
    fn variant_rules_run() {
        let c = BenchConfig {
            rules: Rules {
                start_tiles: 1,
                four_probability: 0.0,
                illegal_move_spawns: true,
            },
            ..config("random", 10, 2)
        };
        let records = run_bench(&c, &AtomicBool::new(false), |_| {}).expect("runs");
        assert_eq!(records.len(), 10);
    }
}
