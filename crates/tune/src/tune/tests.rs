//! Tests of the tuner.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use ai2048_ai::check_player;
use ai2048_ai::eval::EvalConfig;
use ai2048_engine::Rules;

use super::format::number;
use super::*;

fn weighted() -> EvalConfig {
    EvalConfig::new("weighted").expect("an eval")
}

fn config(generations: u32) -> TuneConfig {
    TuneConfig {
        generations,
        population: Some(4),
        games: 3,
        jobs: 2,
        seed: 5,
        ..TuneConfig::new(weighted(), "greedy".parse().expect("a spec"))
    }
}

/// A smooth synthetic fitness with its maximum at `target`, on the tuned weights.
fn synthetic(target: &[f64]) -> impl Fn(&EvalConfig) -> f64 + '_ {
    move |w: &EvalConfig| {
        -w.params()
            .iter()
            .zip(target)
            .map(|(x, t)| (x - t).powi(2))
            .sum::<f64>()
    }
}

fn run_synthetic(config: &TuneConfig, target: &[f64]) -> Tuner {
    let f = synthetic(target);
    let mut tuner = Tuner::new(config).expect("valid");
    while !tuner.is_done() {
        tuner
            .step_with(|c| Ok::<_, ()>(Some(c.iter().map(&f).collect())))
            .expect("no error")
            .expect("not stopped");
    }
    tuner
}

#[test]
fn synthetic_fitness_improves_and_converges() {
    let target = [3.0, -0.5, 1.0, 2.5, 0.7, 1.0];
    let config = TuneConfig {
        generations: 150,
        population: None,
        ..config(0)
    };
    let tuner = run_synthetic(&config, &target);
    let f = synthetic(&target);
    let start = f(&weighted());
    let best = f(tuner.best());
    assert!(best > start, "{best} <= {start}");
    assert!(best > -1e-6, "{best}: {:?}", tuner.best().params());
    let history = tuner.history();
    assert_eq!(history.len(), 150);
    assert_eq!(history[0].incumbent, start);
    assert_eq!(history[0].centre, start);
    // The best so far never gets worse (the fitness is deterministic here).
    for w in history.windows(2) {
        assert!(w[1].best_so_far() >= w[0].best_so_far());
    }
    assert!(history.iter().any(|r| r.improved));
    assert_eq!(tuner.best_fitness(), Some(best));
    // The centre converges too.
    assert!(f(&tuner.centre()) > -1e-4);
}

#[test]
fn deterministic_from_the_seed() {
    let target = [1.0; 6];
    let a = run_synthetic(&config(10), &target);
    let b = run_synthetic(&config(10), &target);
    assert_eq!(a.history(), b.history());
    assert_eq!(a.best(), b.best());
    let c = run_synthetic(
        &TuneConfig {
            seed: 6,
            ..config(10)
        },
        &target,
    );
    assert_ne!(a.history(), c.history());
}

#[test]
fn subsets_keep_the_others_fixed() {
    let config = TuneConfig {
        params: Some(vec!["merges".to_owned(), "empty".to_owned()]),
        generations: 60,
        ..config(0)
    };
    let tuner = run_synthetic(&config, &[3.0, 0.0, 0.0, 4.0, 9.0, 9.0]);
    let (start, best) = (weighted(), tuner.best().clone());
    for name in ["smoothness", "monotonicity", "sum", "max"] {
        assert_eq!(best.get(name), start.get(name), "{name}");
    }
    assert!((best.get("empty").expect("a weight") - 3.0).abs() < 0.01);
    assert!((best.get("merges").expect("a weight") - 4.0).abs() < 0.01);
    assert_eq!(tuner.space().names(), ["merges", "empty"]);
}

#[test]
fn bounds_are_respected() {
    // The heuristic's powers lie in [0, 10]: a target beyond stays at the bound.
    let start = EvalConfig::new("heuristic").expect("an eval");
    let mut target = start.params().to_vec();
    target[4] = 15.0; // mono_power
    let config = TuneConfig {
        params: Some(vec!["mono_power".to_owned()]),
        generations: 40,
        ..TuneConfig::new(start, "greedy".parse().expect("a spec"))
    };
    let f = synthetic(&target);
    let mut tuner = Tuner::new(&config).expect("valid");
    while !tuner.is_done() {
        tuner
            .step_with(|c| {
                for w in c {
                    let p = w.get("mono_power").expect("a weight");
                    assert!((0.0..=10.0).contains(&p), "{p}");
                }
                Ok::<_, ()>(Some(c.iter().map(&f).collect()))
            })
            .expect("no error");
    }
    assert!((tuner.best().get("mono_power").expect("a weight") - 10.0).abs() < 1e-3);
}

#[test]
fn stopping_changes_nothing() {
    let mut tuner = Tuner::new(&config(3)).expect("valid");
    let before = tuner.best().clone();
    let row = tuner.step_with(|_| Ok::<_, ()>(None)).expect("no error");
    assert!(row.is_none());
    assert_eq!(tuner.generation(), 0);
    assert_eq!(tuner.best(), &before);
    let stopped = tuner
        .step(&AtomicBool::new(true), |_| {})
        .expect("no error");
    assert!(stopped.is_none());
    assert_eq!(tuner.generation(), 0);
    let err = tuner.step_with(|_| Err("boom")).unwrap_err();
    assert_eq!(err, "boom");
}

#[test]
fn games_score_the_candidates() {
    let config = config(2);
    let mut tuner = Tuner::new(&config).expect("valid");
    assert_eq!(tuner.games_left(), (5 + 6) * 3);
    let played = AtomicUsize::new(0);
    let first = tuner
        .step(&AtomicBool::new(false), |r| {
            assert!(r.index < 3);
            played.fetch_add(1, Ordering::Relaxed);
        })
        .expect("plays")
        .expect("not stopped");
    assert_eq!(played.load(Ordering::Relaxed), 5 * 3);
    assert_eq!(tuner.games_left(), 6 * 3);
    // The incumbent's fitness is that of a bench of the start on the same games.
    let bench = config.bench_config(&config.start, config.generation_seed(1), 3);
    let records = ai2048_bench::run_bench(&bench, &AtomicBool::new(false), |_| {}).expect("runs");
    assert_eq!(first.incumbent, Objective::Score.fitness(&records));
    assert!(first.best >= first.mean && first.mean > 0.0);
    tuner.step(&AtomicBool::new(false), |_| {}).expect("plays");
    assert!(tuner.is_done());
    assert_eq!(tuner.games_left(), 0);

    // The same run on one thread: the same history.
    let mut alone = Tuner::new(&TuneConfig { jobs: 1, ..config }).expect("valid");
    while !alone.is_done() {
        alone.step(&AtomicBool::new(false), |_| {}).expect("plays");
    }
    assert_eq!(alone.history(), tuner.history());

    let v = tuner
        .validate(4, &AtomicBool::new(false), |_| {})
        .expect("plays")
        .expect("not stopped");
    assert_eq!(
        (v.games, v.start.n, v.tuned.n, v.difference.n),
        (4, 4, 4, 4)
    );
    assert_eq!(v.seed, tuner.config().validation_seed());
    assert!((v.difference.mean - (v.tuned.mean - v.start.mean)).abs() < 1e-6);
    assert!(tuner.validate(0, &AtomicBool::new(false), |_| {}).is_err());
    assert!(tuner
        .validate(4, &AtomicBool::new(true), |_| {})
        .expect("no error")
        .is_none());
}

#[test]
fn player_spec_replaces_the_eval_options() {
    let config = TuneConfig::new(
        weighted(),
        "expectimax:depth=1,eval=snake,w.m00=3,symmetric=true,weights=x.json,tt-mb=1"
            .parse()
            .expect("a spec"),
    );
    let mut w = weighted();
    w.set("empty", 0.1 + 0.2).expect("in range");
    let spec = config.player_for(&w);
    assert_eq!(spec.option("depth"), Some("1"));
    assert_eq!(spec.option("tt-mb"), Some("1"));
    assert_eq!(spec.option("eval"), Some("weighted"));
    assert_eq!(spec.option("weights"), None);
    assert_eq!(spec.option("symmetric"), None);
    assert_eq!(spec.option("w.m00"), None);
    // Written exactly: the player gets the very same number.
    assert_eq!(spec.option("w.empty"), Some("0.30000000000000004"));
    assert!(check_player(&spec).is_ok());
    let mut snake = EvalConfig::new("snake").expect("an eval");
    snake.set_symmetric(true).expect("a matrix");
    let spec = config.player_for(&snake);
    assert_eq!(spec.option("symmetric"), Some("true"));
    assert!(check_player(&spec).is_ok());
}

#[test]
fn bad_configs_are_errors() {
    let base = config(2);
    let cases: Vec<(TuneConfig, &str)> = vec![
        (
            TuneConfig {
                generations: 0,
                ..base.clone()
            },
            "generations",
        ),
        (
            TuneConfig {
                games: 0,
                ..base.clone()
            },
            "games",
        ),
        (
            TuneConfig {
                jobs: 0,
                ..base.clone()
            },
            "jobs",
        ),
        (
            TuneConfig {
                sigma: 0.0,
                ..base.clone()
            },
            "sigma",
        ),
        (
            TuneConfig {
                sigma: f64::NAN,
                ..base.clone()
            },
            "sigma",
        ),
        (
            TuneConfig {
                population: Some(1),
                ..base.clone()
            },
            "population",
        ),
        (
            TuneConfig {
                params: Some(vec!["nope".to_owned()]),
                ..base.clone()
            },
            "no weight \"nope\": expected some of empty, smoothness",
        ),
        (
            TuneConfig {
                params: Some(vec!["sum".to_owned(), "sum".to_owned()]),
                ..base.clone()
            },
            "twice",
        ),
        (
            TuneConfig {
                params: Some(vec![]),
                ..base.clone()
            },
            "no weight to tune",
        ),
        (
            TuneConfig {
                start: EvalConfig::new("simple").expect("an eval"),
                ..base.clone()
            },
            "no weights to tune",
        ),
        (
            TuneConfig {
                player: "random".parse().expect("a spec"),
                ..base.clone()
            },
            "takes no evaluation",
        ),
        (
            TuneConfig {
                player: "nope".parse().expect("a spec"),
                ..base.clone()
            },
            "unknown player",
        ),
        (
            TuneConfig {
                player: "greedy:depth=2".parse().expect("a spec"),
                ..base.clone()
            },
            "no option \"depth\"",
        ),
        (
            TuneConfig {
                rules: Rules {
                    start_tiles: 0,
                    ..Rules::default()
                },
                ..base.clone()
            },
            "",
        ),
    ];
    for (config, message) in cases {
        let err = Tuner::new(&config).expect_err(message).to_string();
        assert!(err.contains(message), "{err} lacks {message}");
    }
}

#[test]
fn objectives() {
    for (text, objective) in [
        ("score", Objective::Score),
        ("max-tile-log", Objective::MaxTileLog),
        ("reach:16384", Objective::Reach(16384)),
        (" reach:4 ", Objective::Reach(4)),
    ] {
        assert_eq!(text.parse::<Objective>().expect(text), objective);
        assert_eq!(
            objective.to_string().parse::<Objective>().expect(text),
            objective
        );
    }
    for bad in [
        "",
        "scores",
        "reach:",
        "reach:0",
        "reach:2",
        "reach:1000",
        "reach:x",
    ] {
        let err = bad.parse::<Objective>().expect_err(bad).to_string();
        assert!(err.contains("objective"), "{bad}: {err}");
    }
    assert_eq!(Objective::Reach(2048).format(0.125), "12.5%");
    assert_eq!(Objective::MaxTileLog.format(10.5), "10.500");
    assert!(Objective::Score.fitness(&[]).is_nan());
}

#[test]
fn scales_and_zero_weights() {
    // "sum" starts at 0: its scale is the mean size of the nonzero weights.
    let space = ParamSpace::new(&weighted(), None).expect("valid");
    let mean = (1.5 + 0.1 + 2.0 + 2.0 + 2.0) / 5.0;
    assert_eq!(space.scales()[4], mean);
    assert_eq!(space.scales()[0], 1.5);
    assert_eq!(space.weights(&[0.0; 6]), weighted());
    let w = space.weights(&[0.0, 0.0, 0.0, 0.0, 1.0, -1.0]);
    assert_eq!(w.get("sum"), Some(mean));
    assert_eq!(w.get("max"), Some(0.0));
    // Cobb-Douglas exponents stay in [0, 100].
    let cd = EvalConfig::new("cobb-douglas").expect("an eval");
    let space = ParamSpace::new(&cd, None).expect("valid");
    let w = space.weights(&[-1e9, 1e9, f64::NAN, 0.0]);
    assert_eq!(w.params(), [0.0, 100.0, 0.25, 0.5]);
}

#[test]
fn number_formatting() {
    assert_eq!(number(200_000.0), "200000");
    assert_eq!(number(3.5), "3.5");
    assert_eq!(number(-0.123_456_78), "-0.123457");
    assert_eq!(number(0.0), "0");
    assert_eq!(number(1e-7), "1.00000e-7");
    assert_eq!(number(270.123_456), "270.123");
}
