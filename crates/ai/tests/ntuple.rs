//! N-tuple networks: training is deterministic and learns, files round-trip, and
//! players load a network by name.

use ai2048_ai::ntuple::{parse_tuples, train_game, Learning, NTupleNetwork, TrainConfig, Trainer};
use ai2048_ai::{create_player, SearchLimits};
use ai2048_engine::rng::derive_seed;
use ai2048_engine::{Game, Rules};

fn small() -> NTupleNetwork {
    NTupleNetwork::new(parse_tuples("small").expect("a known set"))
}

/// Plain TD steps, with which the figures below were measured.
fn td() -> TrainConfig {
    TrainConfig {
        alpha: 0.1,
        learning: Learning::Td,
        ..TrainConfig::default()
    }
}

fn train(net: &mut NTupleNetwork, games: u64, config: &TrainConfig) -> Vec<u64> {
    (0..games).map(|_| train_game(net, config).score).collect()
}

fn temp_file(name: &str) -> std::path::PathBuf {
    std::env::temp_dir().join(format!("ai2048-ntuple-{}-{name}", std::process::id()))
}

#[test]
fn training_in_parts_through_a_file_is_training_at_once() {
    // Temporal coherence, whose state the file must keep too, and restarts.
    let config = TrainConfig {
        seed: 11,
        restart: Some(ai2048_ai::ntuple::Restart::default()),
        ..TrainConfig::default()
    };
    let mut whole = small();
    let all = train(&mut whole, 30, &config);
    let mut part = small();
    let mut scores = train(&mut part, 12, &config);
    let mut part = NTupleNetwork::read_from(&part.to_bytes()[..]).expect("reads back");
    assert_eq!(part.games(), 12);
    scores.extend(train(&mut part, 18, &config));
    assert_eq!(scores, all);
    assert_eq!(part.weights(), whole.weights());
    assert_eq!(part.coherence(), whole.coherence());
    assert!(part.coherence().is_some());
    // Another seed plays other games.
    let mut other = small();
    let other_scores = train(&mut other, 30, &TrainConfig { seed: 12, ..config });
    assert_ne!(other_scores, all);
}

#[test]
fn one_thread_trains_as_one_game_at_a_time() {
    let config = TrainConfig {
        seed: 3,
        ..TrainConfig::default()
    };
    let mut by_games = small();
    let scores = train(&mut by_games, 25, &config);
    let mut at_once = small();
    let heard = std::sync::Mutex::new(Vec::new());
    let trained = Trainer::new(config).train(&mut at_once, 25, &|| true, &|game| {
        heard
            .lock()
            .expect("one thread")
            .push((game.index, game.score));
    });
    assert_eq!(trained, 25);
    let heard = heard.into_inner().expect("one thread");
    assert_eq!(heard.iter().map(|g| g.1).collect::<Vec<_>>(), scores);
    assert_eq!(
        heard.iter().map(|g| g.0).collect::<Vec<_>>(),
        (0..25).collect::<Vec<_>>()
    );
    assert_eq!(at_once.weights(), by_games.weights());
}

#[test]
fn threads_play_every_game_once_and_stop_when_asked() {
    let mut net = small();
    let config = TrainConfig {
        threads: 3,
        ..TrainConfig::default()
    };
    let heard = std::sync::Mutex::new(Vec::new());
    let trained = Trainer::new(config).train(&mut net, 40, &|| true, &|game| {
        heard.lock().expect("no panic").push(game.index);
    });
    let mut heard = heard.into_inner().expect("no panic");
    heard.sort_unstable();
    assert_eq!((trained, net.games()), (40, 40));
    assert_eq!(heard, (0..40).collect::<Vec<_>>());
    // Told to stop after ten games have started, the threads finish what they began:
    // the network counts exactly the games played, the next ones in its life.
    let started = std::sync::atomic::AtomicU64::new(0);
    let heard = std::sync::Mutex::new(Vec::new());
    let trained = Trainer::new(config).train(
        &mut net,
        1000,
        &|| started.fetch_add(1, std::sync::atomic::Ordering::SeqCst) < 10,
        &|game| heard.lock().expect("no panic").push(game.index),
    );
    let mut heard = heard.into_inner().expect("no panic");
    heard.sort_unstable();
    assert_eq!(trained, 10);
    assert_eq!(net.games(), 50);
    assert_eq!(heard, (40..50).collect::<Vec<_>>());
}

#[test]
fn restarts_train_more_moves_than_the_game_has() {
    let mut net = small();
    let config = TrainConfig {
        restart: Some(ai2048_ai::ntuple::Restart::default()),
        ..td()
    };
    let game = train_game(&mut net, &config);
    // Back to the middle of every stretch while it has 10 moves: the game's second
    // half at least once more.
    assert!(game.trained_moves > game.moves + game.moves / 2, "{game:?}");
    let plain = train_game(&mut small(), &td());
    assert_eq!(plain.trained_moves, plain.moves);
}

#[test]
fn the_network_learns_to_play() {
    let mut net = small();
    let scores = train(&mut net, 400, &td());
    let mean = |s: &[u64]| s.iter().sum::<u64>() as f64 / s.len() as f64;
    let (first, last) = (mean(&scores[..100]), mean(&scores[300..]));
    assert!(
        last > 1.5 * first,
        "first 100 games {first}, last 100 {last}"
    );
}

/// The small network after 300 games of TD, written to a file of its own (`name`)
/// that the caller removes. Trained once for every test that asks.
fn trained_file(name: &str) -> std::path::PathBuf {
    static TRAINED: std::sync::OnceLock<Vec<u8>> = std::sync::OnceLock::new();
    let bytes = TRAINED.get_or_init(|| {
        let mut net = small();
        train(&mut net, 300, &td());
        net.to_bytes()
    });
    let path = temp_file(name);
    std::fs::write(&path, bytes).expect("written");
    path
}

/// The total score of `games` games (seeds derived from 5) played by `spec`.
fn total_score(spec: &str, games: u64) -> u64 {
    let mut total = 0;
    for i in 0..games {
        let mut player = create_player(&spec.parse().expect("a spec"), 0).expect("created");
        let mut game = Game::new(derive_seed(5, i), Rules::default()).expect("valid rules");
        while let Some(dir) = player.search(game.board(), &SearchLimits::default()).dir {
            game.play(dir);
        }
        total += game.score();
    }
    total
}

#[test]
fn a_trained_network_file_outplays_the_simple_evaluation() {
    let path = trained_file("outplays.bin");
    let file = path.display();
    // The trained greedy player outplays the default greedy player on the same games.
    let trained = total_score(&format!("greedy:network={file}"), 20);
    let simple = total_score("greedy:eval=simple", 20);
    assert!(trained > 2 * simple, "network {trained}, simple {simple}");
    // Searched one chance layer deep, the same network plays better still.
    let deeper = total_score(&format!("expectimax:depth=1,network={file}"), 16);
    let greedy = total_score(&format!("greedy:network={file}"), 16);
    assert!(deeper > greedy, "expectimax {deeper}, greedy {greedy}");
    std::fs::remove_file(&path).expect("removed");
}

/// A file of the small network untrained: every weight 0.
fn untrained_file(name: &str) -> std::path::PathBuf {
    let path = temp_file(name);
    std::fs::write(&path, small().to_bytes()).expect("written");
    path
}

#[test]
fn every_evaluating_player_evaluates_with_the_file_it_is_given() {
    // The same search over an untrained network (every weight 0) values moves
    // otherwise.
    let trained = trained_file("evaluates.bin");
    let untrained = untrained_file("untrained.bin");
    let board = "2 4 8 16/0 2 4 0/0 0 2 0/0 0 0 0".parse().expect("a board");
    let values = |name: &str, file: &std::path::Path| {
        let sep = if name.contains(':') { ',' } else { ':' };
        let spec = format!("{name}{sep}network={}", file.display());
        let mut player = create_player(&spec.parse().expect("a spec"), 0).expect("created");
        player.search(board, &SearchLimits::default()).dir_values
    };
    for name in [
        "greedy",
        "expectimax:depth=1",
        "minimax:depth=1",
        "mcts:playouts=2,cut=5",
    ] {
        assert_ne!(values(name, &trained), values(name, &untrained), "{name}");
    }
    std::fs::remove_file(&trained).expect("removed");
    std::fs::remove_file(&untrained).expect("removed");
}

#[test]
fn a_blend_adds_the_network_file_it_names() {
    // Beside `lines`, an untrained network (every weight 0) adds only the score its
    // tiles imply, the same after every move where none merges; a trained one values
    // the moves otherwise.
    let trained = trained_file("blend.bin");
    let untrained = untrained_file("blend-untrained.bin");
    let board = "2 4 8 16/0 2 4 0/0 0 2 0/0 0 0 0".parse().expect("a board");
    let values = |spec: &str| {
        let mut player = create_player(&spec.parse().expect("a spec"), 0).expect("created");
        player.search(board, &SearchLimits::default()).dir_values
    };
    let lines = values("greedy:eval=lines,tables=off");
    let blend = |file: &std::path::Path| {
        values(&format!(
            "greedy:eval=lines,tables=off,blend=1,blend-network={}",
            file.display()
        ))
    };
    let added = |values: [Option<f64>; 4]| -> Vec<f64> {
        values
            .into_iter()
            .zip(lines)
            .filter_map(|(v, l)| Some(v? - l?))
            .collect()
    };
    let flat = added(blend(&untrained));
    assert_eq!(flat.len(), 3, "three moves are legal");
    assert!(flat.iter().all(|&v| v == flat[0] && v > 0.0), "{flat:?}");
    let learned = added(blend(&trained));
    assert!(learned.iter().any(|&v| v != learned[0]), "{learned:?}");
    for (spec, message) in [
        (
            format!("greedy:blend-network={}", trained.display()),
            "needs blend=W above 0",
        ),
        (
            "greedy:eval=lines,blend=1,blend-network=no/such.bin".to_owned(),
            "cannot load no/such.bin",
        ),
    ] {
        let err = create_player(&spec.parse().expect("a spec"), 0)
            .err()
            .expect("refused")
            .to_string();
        assert!(
            err.contains(message) && err.contains("blend-network"),
            "{spec}: {err}"
        );
    }
    std::fs::remove_file(&trained).expect("removed");
    std::fs::remove_file(&untrained).expect("removed");
}

#[test]
fn a_ceiling_reads_only_the_boards_above_it_otherwise() {
    let path = trained_file("ceiling.bin");
    // The network has seen many 256s and few if any 512s: under a ceiling of 256 the
    // 512 reads as 256 (the gap at 128 filled).
    let board = "512 2 4 8/16 32 64 0/0 0 0 0/0 0 0 0"
        .parse()
        .expect("a board");
    let values = |options: &str| {
        let spec = format!("greedy:network={},{options}", path.display());
        let mut player = create_player(&spec.parse().expect("a spec"), 0).expect("created");
        player.search(board, &SearchLimits::default()).dir_values
    };
    let plain = values("ceiling=32768");
    assert_eq!(values("ceiling=512"), plain);
    assert_ne!(values("ceiling=256"), plain);
    std::fs::remove_file(&path).expect("removed");
}

#[test]
fn bad_network_options_say_why() {
    let path = trained_file("bad-options.bin");
    let file = path.display();
    let err = |spec: String| {
        create_player(&spec.parse().expect("a spec"), 0)
            .err()
            .expect("refused")
            .to_string()
    };
    let e = err(format!("greedy:network={file},eval=snake"));
    assert!(
        e.contains("option eval: the network is the evaluation"),
        "{e}"
    );
    let e = err(format!("expectimax:w.empty=3,network={file}"));
    assert!(e.contains("option w.empty"), "{e}");
    let missing = temp_file("missing.bin");
    let e = err(format!("greedy:network={}", missing.display()));
    assert!(e.contains("option network: cannot load"), "{e}");
    let e = err(format!("greedy:network={file},ceiling=3000"));
    assert!(
        e.contains("option ceiling: 3000 is not a tile from 4 to 32768"),
        "{e}"
    );
    let e = err("greedy:eval=simple,ceiling=16384".to_owned());
    assert!(e.contains("only a network is read under a ceiling"), "{e}");
    std::fs::write(&path, b"{\"eval\": \"snake\"}").expect("written");
    let e = err(format!("greedy:network={file}"));
    assert!(e.contains("not an ai2048 n-tuple network"), "{e}");
    std::fs::remove_file(&path).expect("removed");
}

#[test]
fn the_builtin_network_is_the_default_evaluation_when_there_is_one() {
    let board = "2 2 4 8/0 0 0 0/0 0 0 0/0 0 0 2".parse().expect("a board");
    let value = |spec: &str| {
        let mut p = create_player(&spec.parse().expect("a spec"), 0).expect("created");
        p.search(board, &SearchLimits::with_depth(1)).value
    };
    match ai2048_ai::ntuple::builtin() {
        Some(_) => {
            assert_eq!(value("expectimax"), value("expectimax:eval=network"));
            assert_ne!(value("expectimax"), value("expectimax:eval=heuristic"));
            // Naming any weights means the hand-made evaluation they belong to.
            assert_eq!(
                value("expectimax:w.empty=270"),
                value("expectimax:eval=heuristic,w.empty=270")
            );
        }
        None => {
            assert_eq!(value("expectimax"), value("expectimax:eval=heuristic"));
            let err = create_player(&"greedy:eval=network".parse().expect("a spec"), 0)
                .err()
                .expect("refused")
                .to_string();
            assert!(err.contains("this build has no built-in network"), "{err}");
        }
    }
    let err = create_player(&"greedy:eval=network,w.x=1".parse().expect("a spec"), 0)
        .err()
        .expect("refused")
        .to_string();
    assert!(
        err.contains("takes no weights") || err.contains("no built-in network"),
        "{err}"
    );
}

#[test]
fn one_step_is_td0_whatever_lambda_and_more_steps_learn() {
    let one = |lambda| {
        let mut net = small();
        let config = TrainConfig {
            steps: 1,
            lambda,
            ..td()
        };
        train(&mut net, 5, &config);
        net.weights()
    };
    assert_eq!(one(0.0), one(0.7));
    let mut net = small();
    let config = TrainConfig {
        steps: 5,
        lambda: 0.5,
        ..td()
    };
    let scores = train(&mut net, 400, &config);
    let mean = |s: &[u64]| s.iter().sum::<u64>() as f64 / s.len() as f64;
    assert!(mean(&scores[300..]) > 1.5 * mean(&scores[..100]));
    // Deterministic, as every one-thread training.
    let mut again = small();
    assert_eq!(train(&mut again, 400, &config), scores);
}

#[test]
fn searched_training_plays_better_games_and_is_deterministic() {
    let searched = TrainConfig { search: 1, ..td() };
    let mut net = small();
    let scores = train(&mut net, 20, &searched);
    let mut again = small();
    assert_eq!(train(&mut again, 20, &searched), scores);
    assert_eq!(again.weights(), net.weights());
    // The same 20 games played one ply deep: a chance layer looks past the next
    // spawn, and a network that has barely learned gains most from it.
    let mut greedy = small();
    let greedy_scores = train(&mut greedy, 20, &td());
    let sum = |s: &[u64]| s.iter().sum::<u64>();
    assert!(
        sum(&scores) > 2 * sum(&greedy_scores),
        "{scores:?} {greedy_scores:?}"
    );
    // Deeper than two chance layers is refused.
    let deep = TrainConfig { search: 3, ..td() };
    assert_eq!(
        deep.validate().unwrap_err().message("--search"),
        "--search must be from 0 to 2, not 3"
    );
}

#[test]
fn backward_td_lambda_learns_and_is_deterministic() {
    let config = TrainConfig {
        backward: true,
        lambda: 0.5,
        ..td()
    };
    let mut net = small();
    let scores = train(&mut net, 400, &config);
    let mean = |s: &[u64]| s.iter().sum::<u64>() as f64 / s.len() as f64;
    assert!(mean(&scores[300..]) > 1.5 * mean(&scores[..100]));
    let mut again = small();
    assert_eq!(train(&mut again, 400, &config), scores);
    assert_eq!(again.weights(), net.weights());
    // It is not forward TD(0): the same games teach other weights.
    let mut forward = small();
    train(&mut forward, 1, &td());
    let mut backward = small();
    train(&mut backward, 1, &config);
    assert_ne!(forward.weights(), backward.weights());
    // More steps make no sense when the return runs to the end.
    let bad = TrainConfig { steps: 3, ..config };
    assert_eq!(
        bad.validate().unwrap_err().message("--steps"),
        "--steps 3: backward learning looks to the end of each stretch, so it takes no steps"
    );
}

#[test]
fn restarts_from_the_start_still_end() {
    // Back to the first move of every stretch: without a cap, the game for ever.
    let config = TrainConfig {
        restart: Some(ai2048_ai::ntuple::Restart {
            min_moves: 1,
            at: 0.0,
        }),
        ..td()
    };
    let game = train_game(&mut small(), &config);
    let most = u64::from(ai2048_ai::ntuple::MAX_RESTARTS + 1) * 5000;
    assert!(
        game.trained_moves > game.moves && game.trained_moves < most,
        "{game:?}"
    );
}

#[test]
fn the_carousel_starts_games_from_its_pools_and_the_file_keeps_them() {
    use ai2048_ai::ntuple::Carousel;
    let config = TrainConfig {
        seed: 5,
        ..TrainConfig::default()
    };
    let with_carousel = || {
        let mut net = small();
        net.set_carousel(Some(
            Carousel::new("256,512".parse().expect("stages")).expect("stages"),
        ));
        net
    };
    let starts = |net: &mut NTupleNetwork, games: u64| {
        let heard = std::sync::Mutex::new(Vec::new());
        Trainer::new(config).train(net, games, &|| true, &|g| {
            heard
                .lock()
                .expect("one thread")
                .push((g.start_stage, g.score));
        });
        heard.into_inner().expect("one thread")
    };
    let mut whole = with_carousel();
    let all = starts(&mut whole, 60);
    let carousel = whole.carousel().expect("kept");
    let pools = carousel.pools();
    assert!(pools.iter().all(|p| !p.boards.is_empty()), "{pools:?}");
    // Every third game starts anew, the others from the pools once they fill.
    assert!(all.iter().step_by(3).all(|&(stage, _)| stage == 0));
    assert!(
        all.iter().skip(30).filter(|g| g.0 == 2).count() >= 9,
        "{all:?}"
    );
    // A pool's positions are of its stage: the board holds the stage's tile.
    assert!(pools[1].boards.iter().all(|b| b.max_tile() >= 512));

    // Saved and resumed, with one thread, the carousel goes on as if never stopped.
    let mut part = with_carousel();
    let mut heard = starts(&mut part, 25);
    let mut part = NTupleNetwork::read_from(&part.to_bytes()[..]).expect("reads back");
    assert!(part.carousel().is_some());
    heard.extend(starts(&mut part, 35));
    assert_eq!(heard, all);
    assert_eq!(part.carousel(), whole.carousel());
    assert_eq!(part.weights(), whole.weights());
}

/// A player that plays the first legal move of a fixed order, counting the boards it is
/// asked about and the games it is told of.
struct FixedOrder {
    asked: std::sync::Arc<std::sync::atomic::AtomicU64>,
    games: std::sync::Arc<std::sync::atomic::AtomicU64>,
}

impl ai2048_ai::Player for FixedOrder {
    fn name(&self) -> &str {
        "fixed order"
    }

    fn search(&mut self, board: ai2048_engine::Board, _: &SearchLimits) -> ai2048_ai::SearchResult {
        use ai2048_engine::Dir;
        self.asked
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let dir = [Dir::Up, Dir::Left, Dir::Right, Dir::Down]
            .into_iter()
            .find(|&d| board.shift(d) != board);
        ai2048_ai::SearchResult {
            dir,
            ..ai2048_ai::SearchResult::default()
        }
    }

    fn new_game(&mut self) {
        self.games
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    }
}

#[test]
fn a_policy_plays_the_training_games_and_the_network_learns_its_values() {
    use std::sync::atomic::{AtomicU64, Ordering};
    use std::sync::Arc;
    let (asked, games) = (Arc::new(AtomicU64::new(0)), Arc::new(AtomicU64::new(0)));
    let (a, g) = (Arc::clone(&asked), Arc::clone(&games));
    let trainer = Trainer::new(td()).with_policy(Arc::new(move || {
        Box::new(FixedOrder {
            asked: Arc::clone(&a),
            games: Arc::clone(&g),
        })
    }));
    let mut net = small();
    let moves = AtomicU64::new(0);
    let played = trainer.train(&mut net, 5, &|| true, &|game| {
        moves.fetch_add(game.moves, Ordering::Relaxed);
    });
    assert_eq!(played, 5);
    assert_eq!(games.load(Ordering::Relaxed), 5, "told of every game");
    // Every move is the player's, and each game ends where it has none.
    let moves = moves.into_inner();
    assert_eq!(asked.load(Ordering::Relaxed), moves + 5);
    // Games of a hundred moves and more, whose scores the network learned.
    assert!(moves > 5 * 100, "{moves}");
    assert!(net.weights().iter().any(|&w| w > 0.0));

    // Without the policy the network plays its own moves: other games.
    let mut own = small();
    let own_moves = AtomicU64::new(0);
    Trainer::new(td()).train(&mut own, 5, &|| true, &|game| {
        own_moves.fetch_add(game.moves, Ordering::Relaxed);
    });
    assert_ne!(own_moves.into_inner(), moves);
}
