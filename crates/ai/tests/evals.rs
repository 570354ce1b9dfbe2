//! The named evaluations, their weights files, and the `eval`/`weights` options of the
//! players.

use ai2048_ai::eval::{create_eval, features, EvalConfig, Feature, EVALS, MAX_WEIGHT};
use ai2048_ai::{create_player, PlayerSpec, SearchLimits, PLAYERS};
use ai2048_engine::{Board, Game, Rng, Rules};

fn board(text: &str) -> Board {
    text.parse().expect("a board")
}

/// Boards at the edges: empty, full and stuck, full of 131072s, the largest tiles,
/// checkerboards, and random boards with every exponent.
fn edge_boards() -> Vec<Board> {
    let mut boards = vec![
        Board::EMPTY,
        board("2 4 2 4/4 2 4 2/2 4 2 4/4 2 4 2"),
        board("131072 65536 32768 16384/8192 4096 2048 1024/512 256 128 64/32 16 8 4"),
        board("131072 0 0 0/0 0 0 0/0 0 0 0/0 0 0 0"),
        board("0 0 0 0/0 0 0 0/0 0 0 0/0 0 0 131072"),
        Board::from_exponents([17; 16]).unwrap(),
        Board::from_exponents([0, 17, 0, 17, 17, 0, 17, 0, 0, 17, 0, 17, 17, 0, 17, 0]).unwrap(),
        Board::from_exponents([1; 16]).unwrap(),
    ];
    let mut rng = Rng::new(7);
    for _ in 0..200 {
        let mut exps = [0u8; 16];
        for e in &mut exps {
            *e = rng.below(18) as u8;
        }
        boards.push(Board::from_exponents(exps).unwrap());
    }
    boards
}

/// Every evaluation with its default weights, and the matrix ones also symmetric.
fn every_config() -> Vec<EvalConfig> {
    let mut configs = Vec::new();
    for info in EVALS {
        let config = EvalConfig::from_info(info);
        if info.has_matrix() {
            let mut symmetric = config.clone();
            symmetric.set_symmetric(true).unwrap();
            configs.push(symmetric);
        }
        configs.push(config);
    }
    configs
}

#[test]
fn every_eval_is_finite_and_at_least_a_lost_boards_value_on_every_board() {
    let boards = edge_boards();
    for config in every_config() {
        let eval = config.build();
        for &b in &boards {
            let v = eval.eval(b);
            // 0 for most evaluations; nneonneo's weights go negative on lines of huge
            // tiles. `lines` goes negative on lines that climb, and there below its lost
            // board's value on purpose (see the eval docs).
            let floor = if config.name() == "lines" {
                f64::MIN
            } else {
                eval.lost(b)
            };
            assert!(
                v.is_finite() && v >= floor,
                "{} (symmetric {}) gives {v} on {b:?}",
                config.name(),
                config.symmetric()
            );
        }
    }
}

#[test]
fn extreme_weights_stay_finite() {
    let boards = edge_boards();
    for info in EVALS {
        for pick in [0, 1] {
            let params: Vec<f64> = info
                .weights
                .iter()
                .map(|w| if pick == 0 { w.min } else { w.max })
                .collect();
            let eval = EvalConfig::from_info(info)
                .with_params(&params)
                .unwrap()
                .build();
            for &b in &boards {
                let v = eval.eval(b);
                assert!(
                    v.is_finite(),
                    "{} at its bounds gives {v} on {b:?}",
                    info.name
                );
            }
        }
        assert!(info
            .weights
            .iter()
            .all(|w| w.max <= MAX_WEIGHT && w.min <= w.default && w.default <= w.max));
    }
}

#[test]
fn the_catalog_names_what_the_brief_asks_for() {
    let names: Vec<_> = EVALS.iter().map(|e| e.name).collect();
    for name in [
        "heuristic",
        "simple",
        "corner",
        "snake",
        "diagonal",
        "weighted",
        "cobb-douglas",
        "empty",
        "smoothness",
        "monotonicity",
        "merges",
    ] {
        assert!(names.contains(&name), "{name}");
    }
    assert_eq!(names[0], "heuristic");
    // The players' help lists every eval.
    for player in ["greedy", "expectimax"] {
        let info = PLAYERS.iter().find(|p| p.name == player).unwrap();
        let (_, about) = info.options.iter().find(|(k, _)| *k == "eval").unwrap();
        for name in &names {
            assert!(about.contains(name), "{player} eval help misses {name}");
        }
    }
}

#[test]
fn matrix_evals_prefer_the_big_tile_in_their_corner() {
    let corner = board("1024 4 2 0/2 0 0 0/0 0 0 0/0 0 0 0");
    let edge = board("4 1024 2 0/2 0 0 0/0 0 0 0/0 0 0 0");
    let center = board("4 2 2 0/2 1024 0 0/0 0 0 0/0 0 0 0");
    let other_corner = board("0 2 4 1024/0 0 0 2/0 0 0 0/0 0 0 0");
    for name in ["corner", "snake", "diagonal", "simple", "lines"] {
        let eval = create_eval(name, None).unwrap();
        assert!(eval.eval(corner) > eval.eval(edge), "{name}");
        assert!(eval.eval(edge) > eval.eval(center), "{name}");
        assert!(eval.eval(corner) > eval.eval(other_corner), "{name}");
    }
    // Symmetric: every corner is the corner.
    for name in ["corner", "snake", "diagonal"] {
        let mut config = EvalConfig::new(name).unwrap();
        config.set_symmetric(true).unwrap();
        let eval = config.build();
        assert_eq!(eval.eval(corner), eval.eval(other_corner), "{name}");
        assert!(eval.eval(other_corner) > eval.eval(center), "{name}");
    }
}

#[test]
fn snake_prefers_its_path() {
    let eval = create_eval("snake", None).unwrap();
    let along = board("256 128 64 32/0 0 0 16/0 0 0 0/0 0 0 0");
    let against = board("256 128 64 32/16 0 0 0/0 0 0 0/0 0 0 0");
    assert!(eval.eval(along) > eval.eval(against));
}

#[test]
fn empty_prefers_more_empty_cells() {
    let eval = create_eval("empty", None).unwrap();
    let few = board("2 4 8 16/32 64 2 4/0 0 0 0/0 0 0 0");
    let many = board("2 4 0 0/0 0 0 0/0 0 0 0/0 0 0 0");
    assert!(eval.eval(many) > eval.eval(few));
    assert_eq!(eval.eval(many) - eval.eval(few), 14.0 - 8.0);
}

#[test]
fn smoothness_prefers_smooth_boards() {
    let eval = create_eval("smoothness", None).unwrap();
    let smooth = board("64 64 32 32/64 32 32 16/32 32 16 16/32 16 16 8");
    let rough = board("64 2 32 4/2 64 4 32/32 4 64 2/4 32 2 64");
    assert!(eval.eval(smooth) > eval.eval(rough));
    assert!(features::smoothness(smooth) > features::smoothness(rough));
}

#[test]
fn monotone_boards_beat_jumbled_ones() {
    let eval = create_eval("monotonicity", None).unwrap();
    let monotone = board("1024 512 256 128/512 256 128 64/256 128 64 32/128 64 32 16");
    let jumbled = board("128 1024 32 512/64 16 256 128/512 64 1024 32/16 256 64 128");
    assert!(eval.eval(monotone) > eval.eval(jumbled));
    assert_eq!(features::monotonicity(monotone), 0.0);
    // The row-table heuristic agrees.
    let heuristic = create_eval("heuristic", None).unwrap();
    assert!(heuristic.eval(monotone) > heuristic.eval(jumbled));
}

#[test]
fn merges_count_neighbouring_pairs() {
    let eval = create_eval("merges", None).unwrap();
    let pairs = board("2 2 0 0/0 0 4 0/0 0 4 0/8 0 8 0");
    let none = board("2 4 0 0/0 0 8 0/0 0 16 0/8 0 32 0");
    assert_eq!(features::merges(pairs), 2.0);
    assert!(eval.eval(pairs) > eval.eval(none));
}

#[test]
fn cobb_douglas_is_bounded_and_sensible() {
    let eval = create_eval("cobb-douglas", None).unwrap();
    for b in edge_boards() {
        let v = eval.eval(b);
        assert!((0.0..=1.0).contains(&v), "{v} on {b:?}");
    }
    let good = board("1024 512 256 128/0 0 0 64/0 0 0 0/0 0 0 0");
    let bad = board("128 2 1024 4/2 64 8 512/256 4 2 16/8 32 4 2");
    assert!(eval.eval(good) > eval.eval(bad));
}

#[test]
fn weighted_is_the_sum_of_its_features() {
    let mut config = EvalConfig::new("weighted").unwrap();
    let weights = [3.0, 0.5, 2.0, 7.0, -0.01, 4.0];
    config = config.with_params(&weights).unwrap();
    let eval = config.build();
    let a = board("1024 512 256 128/0 0 0 64/0 0 2 2/0 0 0 0");
    let b = board("2 4 8 16/0 0 0 0/0 0 0 0/4 0 0 0");
    let direct = |x: Board| -> f64 {
        Feature::ALL
            .iter()
            .zip(weights)
            .map(|(f, w)| w * f.of(x))
            .sum()
    };
    let diff = eval.eval(a) - eval.eval(b);
    assert!((diff - (direct(a) - direct(b))).abs() < 1e-6, "{diff}");
}

#[test]
fn weights_files_round_trip() {
    let boards = edge_boards();
    let dir = tempfile::tempdir().unwrap();
    for (k, config) in every_config().into_iter().enumerate() {
        // Perturbed weights, within their ranges.
        let params: Vec<f64> = config
            .info()
            .weights
            .iter()
            .zip(config.params())
            .enumerate()
            .map(|(i, (w, x))| (x * 1.3 + (i as f64 + 1.0) / 7.0).clamp(w.min, w.max))
            .collect();
        let mut config = config.with_params(&params).unwrap();
        config.set_note(Some(format!("test {k}")));
        let path = dir.path().join(format!("round-trip-{k}.json"));
        config.save(&path).unwrap();
        let loaded = EvalConfig::load(&path).unwrap();
        assert_eq!(loaded, config);
        let (a, b) = (config.build(), loaded.build());
        for &x in &boards {
            assert_eq!(
                a.eval(x).to_bits(),
                b.eval(x).to_bits(),
                "{}",
                config.name()
            );
        }
    }
}

#[test]
fn bad_weights_files_name_the_file_and_the_key() {
    let dir = tempfile::tempdir().unwrap();
    let cases = [
        (
            r#"{"eval": "heuristic", "weights": {"empty": 270, "bogus": 1}}"#,
            "weights.bogus",
        ),
        (
            r#"{"eval": "heuristic", "weights": {"empty": "many"}}"#,
            "weights.empty",
        ),
        (
            r#"{"eval": "heuristic", "weights": {"mono_power": -1}}"#,
            "weights.mono_power",
        ),
        (r#"{"eval": "snake", "matrix": [[1, 2], [3, 4]]}"#, "matrix"),
        (
            r#"{"eval": "snake", "matrix": [[1,2,3,4],[1,2,3,4],[1,2,3,4],[1,2,3,"x"]]}"#,
            "matrix[3][3]",
        ),
        (r#"{"eval": "snake", "colour": "red"}"#, "colour"),
        (r#"{"eval": "snek"}"#, "eval"),
        (
            r#"{"eval": "cobb-douglas", "weights": {"emptiness": -0.5}}"#,
            "weights.emptiness",
        ),
        (
            r#"{"eval": "corner", "weights": {"empty": 1e400}}"#,
            "line 1",
        ),
    ];
    for (i, (text, key)) in cases.iter().enumerate() {
        let path = dir.path().join(format!("bad-{i}.json"));
        std::fs::write(&path, text).unwrap();
        let err = EvalConfig::load(&path).unwrap_err().to_string();
        assert!(err.contains(&path.display().to_string()), "{err}");
        assert!(err.contains(key), "{text}: {err}");
    }
    let missing = dir.path().join("missing.json");
    let err = EvalConfig::load(&missing).unwrap_err().to_string();
    assert!(err.contains("cannot read weights file"), "{err}");
}

#[test]
fn params_are_a_flat_named_vector() {
    for config in every_config() {
        let names: Vec<_> = config.param_names().collect();
        assert_eq!(names.len(), config.params().len());
        for (name, &x) in names.iter().zip(config.params()) {
            assert_eq!(config.get(name), Some(x));
        }
        assert_eq!(config.with_params(config.params()).unwrap(), config);
        let mut too_long = config.params().to_vec();
        too_long.push(1.0);
        assert!(config.with_params(&too_long).is_err());
        if let Some(first) = names.first() {
            let mut nan = config.params().to_vec();
            nan[0] = f64::NAN;
            let err = config.with_params(&nan).unwrap_err().to_string();
            assert!(err.contains(first), "{err}");
        }
    }
    let snake = EvalConfig::new("snake").unwrap();
    assert_eq!(snake.params().len(), 17);
    assert_eq!(snake.get("m00"), Some(1.0));
    assert_eq!(snake.get("m10"), Some(1.0 / 128.0));
}

#[test]
fn players_take_an_eval_by_name() {
    let b = board("2 2 4 8/0 0 0 4/0 0 0 0/0 0 0 2");
    for text in [
        "greedy:eval=snake",
        "greedy:eval=cobb-douglas",
        "greedy:eval=corner,symmetric=true",
        "greedy:eval=weighted,w.empty=5,w.sum=-0.001",
        "expectimax:eval=corner,depth=1",
        "expectimax:eval=weighted,depth=1,tt-mb=1",
        "expectimax:eval=heuristic,w.empty=300,depth=1,tt-mb=1",
    ] {
        let spec: PlayerSpec = text.parse().unwrap();
        let mut player = create_player(&spec, 1).unwrap_or_else(|e| panic!("{text}: {e}"));
        let result = player.search(b, &SearchLimits::default());
        assert!(b.can_move(result.dir.expect("a move")), "{text}");
    }
}

#[test]
fn unknown_evals_and_weights_are_explained() {
    let err = create_player(&"greedy:eval=nope".parse().unwrap(), 0)
        .err()
        .unwrap()
        .to_string();
    for info in EVALS {
        assert!(err.contains(info.name), "{err}");
    }
    let err = create_player(&"expectimax:eval=snake,w.emty=3".parse().unwrap(), 0)
        .err()
        .unwrap()
        .to_string();
    assert!(err.contains("w.emty") && err.contains("empty"), "{err}");
    let err = create_player(&"greedy:eval=snake,w.empty=lots".parse().unwrap(), 0)
        .err()
        .unwrap()
        .to_string();
    assert!(err.contains("not a number"), "{err}");
    let err = create_player(&"greedy:eval=heuristic,symmetric=true".parse().unwrap(), 0)
        .err()
        .unwrap()
        .to_string();
    assert!(err.contains("symmetric"), "{err}");
    let err = create_player(&"greedy:weights=/nonexistent/w.json".parse().unwrap(), 0)
        .err()
        .unwrap()
        .to_string();
    assert!(err.contains("/nonexistent/w.json"), "{err}");
    // The random player takes no eval.
    assert!(create_player(&"random:eval=snake".parse().unwrap(), 0).is_err());
    // A bare `w.` is no weight.
    assert!(create_player(&"greedy:w.=1".parse().unwrap(), 0).is_err());
}

#[test]
fn a_weights_file_changes_the_evaluation() {
    let b = board("2 4 8 16/0 0 0 0/0 0 0 0/0 0 0 0");
    let mut config = EvalConfig::new("snake").unwrap();
    // A reversed snake: the bottom-left end is now the heavy one.
    let mut matrix = config.matrix().unwrap();
    matrix.reverse();
    config.set_matrix(&matrix).unwrap();
    config.set("empty", 3.0).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("snake-reversed.json");
    config.save(&path).unwrap();

    let values = |text: String| {
        let mut player = create_player(&text.parse().unwrap(), 0).unwrap();
        player.search(b, &SearchLimits::default())
    };
    let default = values("greedy:eval=snake".to_owned());
    let loaded = values(format!("greedy:weights={}", path.display()));
    let both = values(format!("greedy:eval=snake,weights={}", path.display()));
    assert_ne!(default.dir_values, loaded.dir_values);
    assert_eq!(loaded.dir_values, both.dir_values);
    // The expected values come from the loaded weights.
    let eval = config.build();
    for dir in ai2048_engine::Dir::ALL {
        let expected = b.can_move(dir).then(|| eval.eval(b.shift(dir)));
        assert_eq!(loaded.dir_values[dir.index()], expected, "{dir:?}");
    }
    // A weight option overrides the file.
    let overridden = values(format!("greedy:weights={},w.empty=100", path.display()));
    assert_ne!(overridden.dir_values, loaded.dir_values);
    // An eval that disagrees with the file is an error.
    let err = create_player(
        &format!("greedy:eval=corner,weights={}", path.display())
            .parse()
            .unwrap(),
        0,
    )
    .err()
    .unwrap();
    assert!(err.to_string().contains("snake"), "{err}");
}

#[test]
fn greedy_snake_plays_a_legal_full_game() {
    let mut player = create_player(&"greedy:eval=snake".parse().unwrap(), 3).unwrap();
    let mut game = Game::new(3, Rules::default()).unwrap();
    while !game.is_over() {
        let board = game.board();
        let dir = player
            .search(board, &SearchLimits::default())
            .dir
            .expect("a move");
        assert!(board.can_move(dir));
        game.try_play(dir).expect("a legal move");
        assert!(game.moves() < 100_000);
    }
    assert!(game.moves() > 50, "{} moves", game.moves());
    assert!(game.score() > 0);
}
