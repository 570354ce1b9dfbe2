//! Every player plays legal moves, and each is stronger than the one below it on
//! fixed seeds.

use ai2048_ai::{create_player, PlayerSpec, SearchLimits};
use ai2048_engine::{Board, Game, Rules};

fn play(spec: &str, seed: u64, limits: SearchLimits) -> Game {
    let spec: PlayerSpec = spec.parse().unwrap();
    let mut player = create_player(&spec, seed).unwrap();
    let mut game = Game::new(seed, Rules::default()).unwrap();
    while !game.is_over() {
        let board = game.board();
        let result = player.search(board, &limits);
        let dir = result.dir.expect("a move while the game is not over");
        assert!(
            board.can_move(dir),
            "{spec} played an illegal {dir} on {board:?}"
        );
        game.play(dir);
    }
    assert!(player.search(game.board(), &limits).dir.is_none());
    game
}

fn mean_score(spec: &str, seeds: std::ops::Range<u64>, limits: SearchLimits) -> f64 {
    let n = seeds.end - seeds.start;
    seeds
        .map(|s| play(spec, s, limits).score() as f64)
        .sum::<f64>()
        / n as f64
}

#[test]
fn greedy_beats_random() {
    let none = SearchLimits::default();
    let random = mean_score("random", 0..20, none);
    let greedy = mean_score("greedy", 0..20, none);
    assert!(greedy > 2.0 * random, "greedy {greedy} vs random {random}");
}

#[test]
fn expectimax_beats_greedy() {
    let none = SearchLimits::default();
    // The hand-made evaluations, whatever network the build has: with a learned one,
    // greedy alone is already strong, and this checks the search, not the network.
    let greedy = mean_score("greedy:eval=simple", 0..4, none);
    let expectimax = mean_score(
        "expectimax:tt-mb=1,eval=heuristic",
        0..4,
        SearchLimits::with_depth(1),
    );
    assert!(
        expectimax > 2.0 * greedy,
        "expectimax {expectimax} vs greedy {greedy}"
    );
}

#[test]
fn the_cut_searches_less_and_plays_whole_games() {
    let spec = |cut| -> PlayerSpec { format!("expectimax:eval=lines,cut={cut}").parse().unwrap() };
    let limits = SearchLimits::with_depth(3);
    let nodes = |board: &str, cut| {
        let mut player = create_player(&spec(cut), 0).unwrap();
        player.search(board.parse().unwrap(), &limits).nodes
    };
    // From a block, the lines that break it are cut: far fewer nodes.
    let block = "1024 512 256 128/512 256 8 0/64 2 0 0/2 0 0 0";
    let (with, without) = (nodes(block, true), nodes(block, false));
    assert!(
        with * 4 < without,
        "{with} nodes with the cut, {without} without"
    );
    // From a board whose lines are broken already, nothing is cut (macroxue's rule):
    // else every line would be, and the search would play greedily.
    let scatter = "2 32 4 16/64 0 16 2/4 16 0 64/16 2 8 0";
    assert_eq!(nodes(scatter, true), nodes(scatter, false));
    // With `cut-from`, a root whose largest tile is smaller is searched uncut.
    let from = |tile: u32| {
        let spec = format!("expectimax:eval=lines,cut=true,cut-from={tile}");
        let mut player = create_player(&spec.parse().unwrap(), 0).unwrap();
        player.search(block.parse().unwrap(), &limits).nodes
    };
    assert_eq!(from(2048), without);
    assert_eq!(from(1024), with);
    for bad in ["1000", "0", "x"] {
        let spec = format!("expectimax:cut=true,cut-from={bad}");
        let err = create_player(&spec.parse().unwrap(), 0).err().unwrap();
        assert!(err.to_string().contains("cut-from"), "{err}");
    }
    // `play` checks every move is legal, and that the lost board gets no move.
    play(
        "expectimax:eval=lines,cut=true",
        3,
        SearchLimits::with_depth(2),
    );
}

#[test]
fn pruning_by_depth_is_macroxues_bound_at_each_depth() {
    let search = |spec: &str, depth| {
        let mut player = create_player(&spec.parse().unwrap(), 0).unwrap();
        let board = "1024 512 256 128/512 256 8 0/64 2 0 0/2 0 0 0"
            .parse()
            .unwrap();
        player.search(board, &SearchLimits::with_depth(depth))
    };
    // At depth d the bound is 1/2^(d+4): 1/128 at 3, 1/256 at 4; the same search.
    for (depth, bound) in [(3, "0.0078125"), (4, "0.00390625")] {
        let by_depth = search("expectimax:eval=lines,prune=depth", depth);
        let fixed = search(&format!("expectimax:eval=lines,prune={bound}"), depth);
        assert_eq!(by_depth.dir_values, fixed.dir_values, "depth {depth}");
        assert_eq!(by_depth.nodes, fixed.nodes, "depth {depth}");
    }
    // The default bound, 1/10,000, cuts less at depth 3.
    let default = search("expectimax:eval=lines", 3);
    assert!(default.nodes > search("expectimax:eval=lines,prune=depth", 3).nodes);
    let err = create_player(&"expectimax:prune=deep".parse().unwrap(), 0)
        .err()
        .unwrap();
    assert!(err.to_string().contains("a probability or depth"), "{err}");
}

#[test]
fn players_pass_on_lost_boards() {
    let lost: Board = "2 4 2 4/4 2 4 2/2 4 2 4/4 2 4 2".parse().unwrap();
    for name in [
        "random",
        "greedy",
        "expectimax:tt-mb=1",
        "minimax:depth=1",
        "mcts:playouts=2",
        "mcts:mode=uct,iterations=20,playout=greedy,cut=5",
        "replica",
        "replica:depth=0",
    ] {
        let mut p = create_player(&name.parse().unwrap(), 0).unwrap();
        assert_eq!(p.search(lost, &SearchLimits::default()).dir, None, "{name}");
    }
}

#[test]
fn threaded_expectimax_agrees_with_one_thread() {
    use ai2048_ai::search::{Expectimax, ExpectimaxConfig};
    use ai2048_ai::Player;
    let config = ExpectimaxConfig {
        tt_slots: 0,
        ..ExpectimaxConfig::default()
    };
    let mut one = Expectimax::new(config);
    let mut two = Expectimax::new(ExpectimaxConfig {
        threads: 2,
        ..config
    });
    // Depth 5: shallower searches run on one thread (the root is shared out from 5).
    let mut game = Game::new(3, Rules::default()).unwrap();
    for _ in 0..6 {
        let a = one.search(game.board(), &SearchLimits::with_depth(5));
        let b = two.search(game.board(), &SearchLimits::with_depth(5));
        for (x, y) in a.dir_values.iter().zip(&b.dir_values) {
            match (x, y) {
                (Some(x), Some(y)) => assert!((x - y).abs() <= 1e-4 * x.abs(), "{x} vs {y}"),
                (None, None) => {}
                _ => panic!("legal moves differ: {a:?} vs {b:?}"),
            }
        }
        game.play(a.dir.unwrap());
    }
}

#[test]
fn the_leaf_cache_changes_no_value_of_a_network_search() {
    use ai2048_ai::ntuple::{parse_tuples, NTupleNetwork};
    use ai2048_ai::search::{Expectimax, ExpectimaxConfig};
    use ai2048_ai::Player;
    use std::sync::Arc;
    // A network with weights that are not 0: a few TD updates along a game.
    let net = NTupleNetwork::new(parse_tuples("small").unwrap());
    let mut game = Game::new(5, Rules::default()).unwrap();
    for i in 0..300 {
        let dir = ai2048_engine::Dir::ALL[i % 4];
        if game.board().can_move(dir) {
            net.learn(game.board().shift(dir), (i % 17) as f32);
            game.play(dir);
        }
    }
    let net = Arc::new(net);
    let player = |leaf_slots, threads| {
        let config = ExpectimaxConfig {
            leaf_slots,
            threads,
            ..ExpectimaxConfig::default()
        };
        Expectimax::with_eval(config, net.clone())
    };
    // Off, a single slot that every leaf fights for, the default, and two threads.
    let mut players = [
        player(0, 1),
        player(1, 1),
        player(ExpectimaxConfig::default().leaf_slots, 1),
        player(1 << 10, 2),
    ];
    let mut game = Game::new(6, Rules::default()).unwrap();
    for _ in 0..40 {
        let results: Vec<_> = players
            .iter_mut()
            .map(|p| p.search(game.board(), &SearchLimits::with_depth(2)))
            .collect();
        for r in &results[1..3] {
            assert_eq!(r.dir_values, results[0].dir_values, "{:?}", game.board());
            assert_eq!(r.nodes, results[0].nodes);
        }
        // Threads share the root's spawns out by who comes first: the same legal moves.
        let legal = |r: &ai2048_ai::SearchResult| r.dir_values.map(|v| v.is_some());
        assert_eq!(legal(&results[3]), legal(&results[0]));
        let Some(dir) = results[0].dir else { break };
        game.play(dir);
    }
}

#[test]
fn every_player_is_created_by_name_and_plays_the_same_game_for_a_seed() {
    // Eight moves of one game, searched one layer deep where the player searches.
    let moves = |name: &str, seed: u64| {
        let mut player = create_player(&PlayerSpec::new(name), seed).expect(name);
        assert_eq!(player.name(), name);
        let mut game = Game::new(7, Rules::default()).unwrap();
        let mut dirs = Vec::new();
        for _ in 0..8 {
            let board = game.board();
            let dir = player
                .search(board, &SearchLimits::with_depth(1))
                .dir
                .expect("a move early in a game");
            assert!(board.can_move(dir), "{name} played an illegal {dir}");
            game.play(dir);
            dirs.push(dir);
        }
        dirs
    };
    for info in ai2048_ai::PLAYERS {
        assert_eq!(moves(info.name, 3), moves(info.name, 3), "{}", info.name);
    }
    // The players that draw at random draw from their seed.
    let random: Vec<_> = (0..4).map(|seed| moves("random", seed)).collect();
    assert!(random.iter().any(|m| *m != random[0]), "{random:?}");
}

#[test]
fn a_tile_the_formation_player_sets_may_be_turned_off_with_0() {
    for spec in ["expectimax:bank-early=0", "expectimax:bank-feedback=0"] {
        assert!(create_player(&spec.parse().unwrap(), 0).is_ok(), "{spec}");
    }
}

#[test]
fn bad_options_say_why() {
    for (spec, needle) in [
        ("expectimax:threads=0", "threads"),
        ("expectimax:learn-p4=maybe", "true or false"),
        ("expectimax:time-bank=1", "true or false"),
        (
            "expectimax:bank-feedback=3",
            "3 is not a tile from 2 to 131072, or 0",
        ),
        ("expectimax:bank-early=-1", "or 0 for none"),
        ("expectimax:cut-from=0", "not a tile from 2 to 131072"),
        ("minimax:prune=2", "true or false"),
        ("mcts:mode=tree", "flat or uct"),
        ("mcts:playout=smart", "random or greedy"),
        ("mcts:mode=uct,c=-1", "from 0"),
        ("expectimax:depth=99", "from 0 to 20"),
        ("expectimax:plan-sum=-1", "not a tile sum"),
        ("expectimax:plan-moves=0", "from 1"),
        ("expectimax:growth=0.5", "from 1"),
        ("expectimax:growth=NaN", "growth"),
        ("replica:depth=6", "from 0 to 5"),
        ("replica:leaves=0", "from 1"),
        ("replica:prior4=0", "above 0"),
        ("replica:prior2=-1", "above 0"),
        ("replica:prior2=many", "not a number"),
        ("replica:w.monotonicity=-1", "outside [0, 100]"),
        ("replica:w.speed=1", "no weight \"speed\""),
        ("replica:eval=snake", "has no option"),
    ] {
        let err = create_player(&spec.parse().unwrap(), 0).err().expect(spec);
        assert!(err.to_string().contains(needle), "{spec}: {err}");
    }
}

#[test]
fn expectimax_with_a_time_bank_plays_whole_games_legally() {
    let limits = SearchLimits::with_time(std::time::Duration::from_micros(200));
    let game = play("expectimax:time-bank=true,tt-mb=1", 3, limits);
    assert!(game.max_tile() >= 512, "{}", game.max_tile());
}

#[test]
fn expectimax_with_an_endless_growth_plays_greedily_without_panicking() {
    use ai2048_ai::search::{Expectimax, ExpectimaxConfig};
    use ai2048_ai::Player;
    let board: Board = "2 4 8 0/0 2 0 0/0 0 16 0/0 0 0 2".parse().unwrap();
    for growth in [f32::INFINITY, f32::NAN] {
        let mut ai = Expectimax::new(ExpectimaxConfig {
            depth_growth: growth,
            tt_slots: 1 << 10,
            ..ExpectimaxConfig::default()
        });
        let limits = SearchLimits::with_time(std::time::Duration::from_secs(10));
        let result = ai.search(board, &limits);
        assert_eq!(result.depth, 0, "growth {growth}");
        assert!(result.dir.is_some());
    }
}

#[test]
fn expectimax_takes_its_share_of_the_game_clock() {
    use std::time::Duration;
    let board: Board = "2 4 8 0/0 2 0 0/0 0 16 0/0 0 0 2".parse().unwrap();
    let search = |spec: &str, clock: Duration| {
        let mut player = create_player(&spec.parse().unwrap(), 0).unwrap();
        let limits = SearchLimits {
            clock: Some(clock),
            ..SearchLimits::default()
        };
        player.search(board, &limits)
    };
    // The row-table heuristic, which searches this board to depth 3 in a few
    // milliseconds even in a debug build on a busy machine: the plan is under test,
    // not the evaluation (the network, unoptimized, may need more than the share).
    // An hour left: this move's share (about 260 ms) reaches the adaptive depth, 3.
    let rich = search(
        "expectimax:tt-mb=1,eval=heuristic",
        Duration::from_secs(3600),
    );
    assert_eq!(rich.depth, 3);
    // With plan-depth, the share goes on to layers past the adaptive depth.
    let deeper = search(
        "expectimax:tt-mb=1,eval=heuristic,plan-depth=1",
        Duration::from_secs(3600),
    );
    assert_eq!(deeper.depth, 4);
    // A millisecond left: a share of a tenth of a microsecond allows no search, not
    // even one chance layer: the move is greedy, so the game does not run out of time.
    let poor = search(
        "expectimax:tt-mb=1,eval=heuristic",
        Duration::from_millis(1),
    );
    assert_eq!(poor.depth, 0);
    assert!(poor.dir.is_some());
    // With the plan off, the clock changes nothing: the player's own time decides.
    let off = search(
        "expectimax:tt-mb=1,eval=heuristic,plan-sum=0,time-ms=3000",
        Duration::from_millis(1),
    );
    assert_eq!(off.depth, 3);
    // Nor does plan-depth go past the adaptive depth without the plan.
    let unplanned = search(
        "expectimax:tt-mb=1,eval=heuristic,plan-sum=0,time-ms=3000,plan-depth=1",
        Duration::from_millis(1),
    );
    assert_eq!(unplanned.depth, 3);
}

#[test]
fn expectimax_learns_the_probability_of_a_four() {
    use ai2048_ai::search::{Expectimax, ExpectimaxConfig};
    use ai2048_ai::Player;
    let rules = Rules {
        four_probability: 0.5,
        ..Rules::default()
    };
    let mut player = Expectimax::new(ExpectimaxConfig {
        learn_four_probability: true,
        tt_slots: 1 << 10,
        ..ExpectimaxConfig::default()
    });
    let mut game = Game::new(9, rules).unwrap();
    for _ in 0..300 {
        let Some(dir) = player
            .search(game.board(), &SearchLimits::with_depth(0))
            .dir
        else {
            break;
        };
        game.play(dir);
    }
    let learned = player.config().four_probability;
    assert!((learned - 0.5).abs() < 0.08, "learned {learned}");
}

#[test]
fn replica_plays_a_seeded_game_to_the_end_the_same_way_twice() {
    // Two moves ahead (half the default's time), through the registry.
    let limits = SearchLimits::default();
    let a = play("replica:depth=2", 11, limits);
    let b = play("replica:depth=2", 11, limits);
    assert_eq!((a.score(), a.moves()), (b.score(), b.moves()));
    assert!(a.max_tile() >= 512, "{}", a.max_tile());
    // The options reach the player: the weights change the moves.
    let other = play("replica:depth=2,w.max_tile=0,w.mergeability=3", 11, limits);
    assert_ne!((a.score(), a.moves()), (other.score(), other.moves()));
}

#[test]
fn the_replica_help_gives_its_defaults() {
    use ai2048_ai::eval::COBB_DOUGLAS_EXPONENTS;
    use ai2048_ai::search::{Replica, ReplicaConfig};
    let info = ai2048_ai::PLAYERS
        .iter()
        .find(|p| p.name == "replica")
        .unwrap();
    let about = |key: &str| info.options.iter().find(|(k, _)| *k == key).unwrap().1;
    let config = ReplicaConfig::default();
    assert!(about("depth").contains(&format!("default {}", config.depth)));
    assert!(about("depth").contains(&format!("at most {}", Replica::MAX_DEPTH)));
    assert!(about("leaves").contains(&format!("default {}", config.max_leaves)));
    assert!(about("prior4").contains(&format!("default {}", config.prior.0)));
    assert!(about("prior2").contains(&format!("default {}", config.prior.1)));
    let exponents: Vec<String> = COBB_DOUGLAS_EXPONENTS.iter().map(f64::to_string).collect();
    assert!(about("w.NAME").contains(&format!("default {}", exponents.join(", "))));
}
