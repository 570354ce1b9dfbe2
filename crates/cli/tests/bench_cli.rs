//! `ai2048 bench` and the `bench` binary, run as a user runs them.

mod common;

use std::process::{Command, Output};

use common::{assert_fails, assert_prints, stdout_of, temp_path, text};
use serde_json::Value;

fn ai2048(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ai2048"))
        .arg("bench")
        .args(args)
        .output()
        .expect("ai2048 runs")
}

/// A deterministic player for the tests of how runs split, resume and merge: greedy on
/// the heuristic, which needs no network (loading one takes seconds in a debug build).
const GREEDY: &str = "greedy:eval=heuristic";

/// Runs a bench that must succeed and write JSON; returns the parsed JSON and stdout.
fn bench_json(args: &[&str]) -> (Value, String) {
    let path = temp_path("run", "json");
    let path_str = path.to_str().expect("utf-8 temp path");
    let mut all = args.to_vec();
    all.extend(["--json", path_str]);
    let stdout = stdout_of(&ai2048(&all), args);
    let json = read_json(&path);
    let _ = std::fs::remove_file(&path);
    (json, stdout)
}

/// The JSON file at `path`, which must exist and be valid.
fn read_json(path: &std::path::Path) -> Value {
    let text = std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    serde_json::from_str(&text).expect("valid JSON")
}

fn f64_of(v: &Value, key: &str) -> f64 {
    v[key]
        .as_f64()
        .unwrap_or_else(|| panic!("{key} is not a number: {}", v[key]))
}

/// The runs without their timings, which vary from run to run.
fn outcomes(v: &Value) -> Vec<Value> {
    v["runs"]
        .as_array()
        .expect("runs")
        .iter()
        .map(|r| {
            let mut r = r.clone();
            let o = r.as_object_mut().expect("a run is an object");
            o.remove("seconds");
            o.remove("max_ms_per_move");
            r
        })
        .collect()
}

#[test]
fn json_has_every_field_with_sane_values() {
    let (v, stdout) = bench_json(&["--ai", "random", "--num-games", "50", "--seed", "7", "-q"]);
    assert_eq!(v["games"], 50);
    assert_eq!(v["requested_games"], 50);
    assert_eq!(v["interrupted"], false);
    let (mean, median) = (f64_of(&v, "mean_score"), f64_of(&v, "median_score"));
    let (min, max) = (f64_of(&v, "min_score"), f64_of(&v, "max_score"));
    assert!(0.0 < min && min <= median && median <= max, "{v}");
    assert!(min <= mean && mean <= max);
    assert!(f64_of(&v, "mean_moves") > 10.0);
    assert!(f64_of(&v, "moves_per_sec") > 0.0);
    assert!(f64_of(&v, "ms_per_move_mean") > 0.0);
    assert!(f64_of(&v, "ms_per_move_max") > 0.0);
    assert_eq!(v["timeouts"], 0);

    let runs = v["runs"].as_array().expect("runs");
    assert_eq!(runs.len(), 50);
    for (i, run) in runs.iter().enumerate() {
        for key in ["seed", "score", "max_tile", "moves", "seconds", "timed_out"] {
            assert!(!run[key].is_null(), "run {i} lacks {key}: {run}");
        }
        assert_eq!(run["index"], i);
        assert_eq!(run["timed_out"], false);
        assert!(run["max_tile"]
            .as_u64()
            .expect("max tile")
            .is_power_of_two());
    }
    let scores: Vec<f64> = runs.iter().map(|r| f64_of(r, "score")).collect();
    assert!((scores.iter().sum::<f64>() / 50.0 - mean).abs() < 1e-6);
    let mut seeds: Vec<u64> = runs
        .iter()
        .map(|r| r["seed"].as_u64().expect("seed"))
        .collect();
    seeds.sort_unstable();
    seeds.dedup();
    assert_eq!(seeds.len(), 50, "every game has its own seed");

    // reach: a share per tile from 512 up to the largest tile, with its interval.
    let reach = v["reach"].as_object().expect("reach is an object");
    let reach_ci = v["reach_ci"].as_object().expect("reach_ci is an object");
    assert_eq!(reach.len(), reach_ci.len());
    let top = runs
        .iter()
        .map(|r| r["max_tile"].as_u64().unwrap_or(0))
        .max()
        .unwrap_or(0);
    let mut tile = 512;
    while tile <= top {
        let share = reach[&tile.to_string()].as_f64().expect("share");
        let reached = runs
            .iter()
            .filter(|r| r["max_tile"].as_u64() >= Some(tile))
            .count();
        assert!((share - reached as f64 / 50.0).abs() < 1e-12);
        let ci = reach_ci[&tile.to_string()].as_array().expect("[low, high]");
        let (low, high) = (ci[0].as_f64().expect("low"), ci[1].as_f64().expect("high"));
        assert!(0.0 <= low && low <= share && share <= high && high <= 1.0);
        tile *= 2;
    }

    let config = &v["config"];
    assert_eq!(config["ai"], "random");
    assert_eq!(config["seed"], 7);
    assert_eq!(config["timeout"], Value::Null);
    assert!(config["jobs"].as_u64().expect("jobs") >= 1);
    assert_eq!(config["rules"]["start_tiles"], 2);
    assert_eq!(config["rules"]["four_probability"], 0.1);

    assert!(
        stdout.contains("ai2048 bench: ai random, 50 games, seed 7"),
        "{stdout}"
    );
    assert!(stdout.contains("median"), "{stdout}");
    assert!(stdout.contains("50 game records written to"), "{stdout}");
    #[cfg(target_os = "linux")]
    assert!(
        stdout.contains(" moves/s in all, peak memory ") && stdout.contains(" MiB\n"),
        "{stdout}"
    );
}

#[test]
fn same_seed_same_games_whatever_the_jobs() {
    let args = ["--ai", "random", "--num-games", "40", "--seed", "99", "-q"];
    let (one, _) = bench_json(&[&args[..], &["--jobs", "1"]].concat());
    let (two, _) = bench_json(&[&args[..], &["--jobs", "2"]].concat());
    let (three, _) = bench_json(&[&args[..], &["--jobs", "3"]].concat());
    assert_eq!(outcomes(&one), outcomes(&two));
    assert_eq!(outcomes(&one), outcomes(&three));
    assert_eq!(one["mean_score"], two["mean_score"]);
    assert_eq!(one["reach"], three["reach"]);
    let (other, _) = bench_json(&["--ai", "random", "--num-games", "40", "--seed", "100", "-q"]);
    assert_ne!(outcomes(&one), outcomes(&other));
}

#[test]
fn greedy_with_rules_and_timeout() {
    let (v, _) = bench_json(&[
        "--ai",
        "greedy",
        "--num-games",
        "8",
        "--start-tiles",
        "1",
        "--p4",
        "0",
        "--illegal-move-spawns",
        "--timeout",
        "60",
        "-q",
    ]);
    assert_eq!(v["games"], 8);
    assert_eq!(v["config"]["ai"], "greedy");
    assert_eq!(v["config"]["timeout"], 60.0);
    assert_eq!(v["config"]["rules"]["start_tiles"], 1);
    assert_eq!(v["config"]["rules"]["illegal_move_spawns"], true);
}

#[test]
fn a_tiny_timeout_counts_the_games_as_timed_out() {
    let (v, stdout) = bench_json(&[
        "--ai",
        "greedy",
        "--num-games",
        "6",
        "--timeout",
        "0.000000001",
        "-q",
    ]);
    assert_eq!(v["games"], 6);
    assert_eq!(v["timeouts"], 6);
    assert!(v["runs"]
        .as_array()
        .expect("runs")
        .iter()
        .all(|r| r["timed_out"] == true));
    assert!(stdout.contains("timeouts"), "{stdout}");
}

#[test]
fn bad_input_is_a_clear_error() {
    common::assert_clear_errors(
        "bench",
        ["--num-games", "3"],
        &[
            (&["--num-games", "0"][..], "--num-games must be at least 1"),
            (&["--jobs", "0"], "--jobs must be at least 1"),
            (&["--timeout=-1"], "--timeout must be a positive number"),
            (&["--timeout", "0"], "--timeout must be a positive number"),
            (&["--timeout", "nan"], "--timeout must be a positive number"),
            (&["--timeout", "abc"], "--timeout"),
            (&["--timeout", "-1"], "--timeout must be a positive number"),
            (&["--num-games", "-5"], "-5"),
            (&["--ai", "nope"], "unknown player \"nope\""),
            (
                &["--ai", "expectimax:network=/nonexistent/ai2048/net.np"],
                "cannot load /nonexistent/ai2048/net.np: No such file",
            ),
            (&["--ai-opt", "bad"], "is not KEY=VALUE"),
            (&["--ai", "random", "--ai-opt", "depth=2"], "has no option"),
            (&["--depth", "21"], "--depth 21 is above 20"),
            (&["--time-ms", "-1"], "--time-ms must be"),
            (&["--time-ms", "0"], "--time-ms must be"),
            (&["--start-tiles", "0"], "start tiles"),
            (
                &["--first-game=-1"],
                "invalid value '-1' for '--first-game <I>'",
            ),
            (
                &["--first-game", "9223372036854775807"],
                "go past the last game index",
            ),
            (
                &["--resume", "/nonexistent/ai2048/run.json"],
                "--resume: cannot read /nonexistent/ai2048/run.json",
            ),
        ],
    );
}

#[test]
fn first_game_splits_a_run_into_parts() {
    let args = ["--ai", GREEDY, "--seed", "3", "-q"];
    let (whole, _) = bench_json(&[&args[..], &["--num-games", "10"]].concat());
    let (head, _) = bench_json(&[&args[..], &["--num-games", "6"]].concat());
    let (tail, stdout) =
        bench_json(&[&args[..], &["--num-games", "4", "--first-game", "6"]].concat());
    assert!(
        stdout.contains("ai2048 bench: ai greedy:eval=heuristic, 4 games from game 6, seed 3"),
        "{stdout}"
    );
    assert_eq!(tail["config"]["first_game"], 6);
    assert_eq!(tail["runs"][0]["index"], 6);
    assert_eq!(
        outcomes(&whole),
        [outcomes(&head), outcomes(&tail)].concat()
    );
}

#[test]
fn resume_extends_a_run_and_refuses_other_settings() {
    let path = temp_path("resumed", "json");
    let file = path.to_str().expect("utf-8");
    let args = ["--ai", GREEDY, "--seed", "4", "-q"];
    let (whole, _) = bench_json(&[&args[..], &["--num-games", "9"]].concat());
    let first = ai2048(&[&args[..], &["--num-games", "5", "--json", file]].concat());
    assert!(first.status.success(), "{}", text(&first.stderr));

    // Other settings would play other games under the same indices.
    let out = ai2048(&[
        "--ai",
        GREEDY,
        "--seed",
        "5",
        "-q",
        "--num-games",
        "9",
        "--resume",
        file,
    ]);
    assert_fails(
        &out,
        &format!("--resume: cannot go on with {file}: the saved run has other settings: seed 4 there, 5 here"),
    );
    // Fewer games than were saved would drop some.
    let out = ai2048(&[&args[..], &["--num-games", "3", "--resume", file]].concat());
    assert!(
        text(&out.stderr).contains("the finished game 3 is not one of this run's games (0 to 2)"),
        "{}",
        text(&out.stderr)
    );
    assert_eq!(
        read_json(&path)["games"],
        5,
        "a refused resume leaves the file as it was"
    );

    // The same settings with more games: the file ends with the whole run.
    let out = ai2048(
        &[
            &args[..],
            &["--num-games", "9", "--jobs", "3", "--resume", file],
        ]
        .concat(),
    );
    let stdout = assert_prints(
        &out,
        &format!("resumed from {file}: 5 games were finished already"),
    );
    assert!(stdout.contains("4 games in"), "{stdout}");
    assert!(
        stdout.contains(&format!("9 game records written to {file}")),
        "{stdout}"
    );
    let v: Value = read_json(&path);
    let _ = std::fs::remove_file(&path);
    assert_eq!(v["games"], 9);
    assert_eq!(v["interrupted"], false);
    assert_eq!(outcomes(&v), outcomes(&whole));
    assert_eq!(v["mean_score"], whole["mean_score"]);
}

#[test]
fn a_corrupt_resume_file_is_a_clear_error() {
    let path = temp_path("corrupt", "json");
    std::fs::write(&path, "{\"games\": 3, \"runs\": [").expect("written");
    let file = path.to_str().expect("utf-8");
    let out = ai2048(&["--ai", "greedy", "-q", "--resume", file]);
    let stderr = assert_fails(
        &out,
        &format!("--resume: {file} is not the JSON of an ai2048 bench run"),
    );
    assert!(stderr.contains("line 1"), "{stderr}");
    assert_eq!(
        std::fs::read_to_string(&path).expect("kept"),
        "{\"games\": 3, \"runs\": [",
        "the file is left as it was"
    );
    let _ = std::fs::remove_file(&path);
}

#[test]
fn an_unwritable_json_file_is_an_error() {
    let dir = temp_path("missing-dir", "json");
    let path = dir.join("out.json");
    let out = ai2048(&[
        "--ai",
        "random",
        "--num-games",
        "2",
        "-q",
        "--json",
        path.to_str().expect("utf-8"),
    ]);
    assert_fails(&out, "cannot create");
}

#[test]
fn no_progress_bar_when_stderr_is_not_a_terminal() {
    for quiet in [true, false] {
        let mut args = vec!["--ai", "random", "--num-games", "20"];
        if quiet {
            args.push("-q");
        }
        let out = ai2048(&args);
        assert!(out.status.success());
        assert!(out.stderr.is_empty(), "{}", text(&out.stderr));
        assert!(text(&out.stdout).contains("20 games in"));
    }
}

#[test]
fn the_bench_binary_takes_the_same_options() {
    let out = Command::new(env!("CARGO_BIN_EXE_bench"))
        .args([
            "--ai",
            "random",
            "--num-games",
            "30",
            "--timeout",
            "180",
            "-q",
        ])
        .output()
        .expect("bench runs");
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(stdout.contains("30 games in"), "{stdout}");
    assert!(stdout.contains("timeout 180 s/game"), "{stdout}");
    let out = Command::new(env!("CARGO_BIN_EXE_bench"))
        .args(["--num-games", "0"])
        .output()
        .expect("bench runs");
    assert!(!out.status.success());
    assert!(text(&out.stderr).contains("--num-games must be at least 1"));
}

#[test]
fn help_documents_the_exit_codes() {
    let out = ai2048(&["--help"]);
    assert!(out.status.success());
    let help = text(&out.stdout);
    assert!(help.contains("--num-games"), "{help}");
    assert!(help.contains("130"), "{help}");
}

#[cfg(unix)]
#[test]
fn ctrl_c_reports_and_saves_the_finished_games() {
    let path = temp_path("interrupted", "json");
    // Leave it time to install its handler and finish some games: it prints nothing
    // before the end.
    let stdout = common::interrupt(
        &[
            "bench",
            "--ai",
            "random",
            "--num-games",
            "1000000000",
            "-q",
            "--json",
            path.to_str().expect("utf-8"),
        ],
        |elapsed| elapsed.as_millis() >= 1500,
    );
    assert!(stdout.contains("interrupted: "), "{stdout}");
    assert!(stdout.contains("of 1000000000 games finished"), "{stdout}");
    let json = std::fs::read_to_string(&path).expect("JSON written");
    let _ = std::fs::remove_file(&path);
    let v: Value = serde_json::from_str(&json).expect("valid JSON");
    let games = v["games"].as_u64().expect("games");
    assert!(games > 0, "no game finished in 1.5 s");
    assert_eq!(v["interrupted"], true);
    assert_eq!(v["requested_games"], 1_000_000_000u64);
    let runs = v["runs"].as_array().expect("runs");
    assert_eq!(runs.len() as u64, games);
    // The finished games are kept in order, each complete.
    assert!(runs
        .iter()
        .all(|r| r["timed_out"] == false && r["moves"].as_u64() > Some(0)));
}

#[cfg(unix)]
#[test]
fn resume_finishes_an_interrupted_run() {
    let path = temp_path("interrupted-resumed", "json");
    let file = path.to_str().expect("utf-8");
    // The hand-made evaluation: its short greedy games end within the 1.5 s before Ctrl-C,
    // whatever network the build has.
    let args = [
        "bench",
        "--ai",
        "greedy:eval=simple",
        "--seed",
        "8",
        "-q",
        "--jobs",
        "3",
    ];
    common::interrupt(
        &[&args[..], &["--num-games", "1000000000", "--json", file]].concat(),
        |elapsed| elapsed.as_millis() >= 1500,
    );
    let v: Value = read_json(&path);
    let finished = v["games"].as_u64().expect("games");
    assert!(finished > 0, "no game ended before Ctrl-C");
    let last = v["runs"][finished as usize - 1]["index"]
        .as_u64()
        .expect("index");
    // The games that were in progress when it stopped, and two more.
    let games = (last + 3).to_string();
    let out = ai2048(&[&args[1..], &["--num-games", &games, "--resume", file]].concat());
    assert!(out.status.success(), "{}", text(&out.stderr));
    let resumed: Value = read_json(&path);
    let _ = std::fs::remove_file(&path);
    let (whole, _) = bench_json(&[&args[1..], &["--num-games", &games]].concat());
    assert_eq!(resumed["games"], whole["games"]);
    assert_eq!(resumed["interrupted"], false);
    assert_eq!(outcomes(&resumed), outcomes(&whole));
}

#[test]
fn a_killed_run_goes_on_from_the_games_it_saved_as_they_came() {
    use std::process::Stdio;
    use std::time::{Duration, Instant};

    let path = temp_path("killed-resumed", "json");
    let file = path.to_str().expect("utf-8");
    let args = ["--ai", "greedy:eval=simple", "--seed", "9", "-q", "-j", "1"];
    let mut child = Command::new(env!("CARGO_BIN_EXE_ai2048"))
        .args(
            [
                &["bench"][..],
                &args,
                &["--num-games", "1000000000", "--json", file],
            ]
            .concat(),
        )
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("ai2048 starts");
    // Killed outright once it has saved: no Ctrl-C, no chance to save at the end.
    let started = Instant::now();
    while !path.exists() && started.elapsed() < Duration::from_secs(60) {
        assert!(child.try_wait().expect("wait").is_none(), "the run ended");
        std::thread::sleep(Duration::from_millis(50));
    }
    child.kill().expect("kill");
    child.wait().expect("wait");
    let v: Value = read_json(&path);
    let finished = v["games"].as_u64().expect("games");
    assert!(finished > 0, "a save with no game");
    assert_eq!(v["interrupted"], true);
    let last = v["runs"][finished as usize - 1]["index"]
        .as_u64()
        .expect("index");
    let games = (last + 3).to_string();
    let out = ai2048(&[&args[..], &["--num-games", &games, "--resume", file]].concat());
    assert!(out.status.success(), "{}", text(&out.stderr));
    let resumed: Value = read_json(&path);
    let _ = std::fs::remove_file(&path);
    // The saved games kept as they were, the others played (resume_finishes_an_
    // interrupted_run checks that they are the games of an uninterrupted run).
    assert_eq!(resumed["interrupted"], false);
    assert_eq!(resumed["games"].as_u64(), Some(last + 3));
    let saved = outcomes(&v);
    assert_eq!(outcomes(&resumed)[..saved.len()], saved[..]);
}

#[test]
fn shards_merge_into_the_whole_run() {
    // The run's options, and more.
    let run = |more: &[&str]| ai2048(&[&["--ai", GREEDY, "--seed", "3", "-q"][..], more].concat());
    let shard = |first: &str, games: &str| {
        let path = temp_path(&format!("shard-{first}"), "json");
        let json = path.to_str().expect("utf-8");
        let out = run(&["--first-game", first, "--num-games", games, "--json", json]);
        assert!(out.status.success(), "{}", text(&out.stderr));
        path
    };
    let (a, b, c) = (shard("0", "3"), shard("3", "2"), shard("7", "2"));
    let (whole, _) = bench_json(&["--ai", GREEDY, "--seed", "3", "--num-games", "9"]);
    let merged = temp_path("merged", "json");
    let arg = |p: &std::path::Path| p.to_str().expect("utf-8").to_owned();
    let (a_, b_, c_, m_) = (arg(&a), arg(&b), arg(&c), arg(&merged));

    // Games 5 and 6 are in no file: reported missing, then played by --resume.
    let out = ai2048(&["--merge", &c_, &a_, &b_, "--json", &m_]);
    assert_prints(&out, "merged 3 files: 7 of the 9 games from game 0 to 8");
    assert!(text(&out.stdout).contains("missing: games 5 to 6 (2 games)"));
    assert_prints(&run(&["--num-games", "9", "--resume", &m_]), "resumed from");
    let v = read_json(&merged);
    assert_eq!(outcomes(&v), outcomes(&whole));
    assert_eq!(v["mean_score"], whole["mean_score"]);
    assert_eq!(v["reach"], whole["reach"]);

    // The same game twice, and options a merge would ignore, are refused.
    let overlap = shard("2", "2");
    let o_ = arg(&overlap);
    assert_fails(
        &ai2048(&["--merge", &o_, &a_]),
        &format!("--merge: {a_} and {o_} both hold game 2"),
    );
    assert_fails(
        &ai2048(&["--merge", &a_, "--seed", "3"]),
        "cannot be used with",
    );
    for p in [a, b, c, overlap, merged] {
        let _ = std::fs::remove_file(p);
    }
}

#[test]
fn compare_pairs_two_runs_game_by_game() {
    let save = |name: &str, ai: &str, seed: &str| {
        let path = temp_path(name, "json");
        let json = path.to_str().expect("utf-8").to_owned();
        let out = ai2048(&[
            "--ai",
            ai,
            "--seed",
            seed,
            "--num-games",
            "30",
            "-q",
            "--json",
            &json,
        ]);
        assert!(out.status.success(), "{}", text(&out.stderr));
        path
    };
    let random = save("cmp-random", "random", "4");
    let greedy = save("cmp-greedy", "greedy:eval=heuristic", "4");
    let other_seed = save("cmp-seed5", "random", "5");
    let arg = |p: &std::path::Path| p.to_str().expect("utf-8").to_owned();
    let (r, g, o) = (arg(&random), arg(&greedy), arg(&other_seed));

    let out = ai2048(&["--compare", &r, &g]);
    assert_prints(&out, "30 paired games (left out: 0 only in");
    let stdout = text(&out.stdout);
    // Greedy beats random in nearly every game: a large positive difference.
    let line = stdout.lines().nth(1).expect("the score line");
    // Each run is named by its file's name without the extension.
    let stem = |p: &std::path::Path| {
        let stem = p.file_stem().expect("a file name");
        stem.to_str().expect("utf-8").to_owned()
    };
    let (rn, gn) = (stem(&random), stem(&greedy));
    let diff: f64 = line
        .split(&format!("{gn} - {rn}: "))
        .nth(1)
        .and_then(|s| s.split_whitespace().next())
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("no difference in {line:?}"));
    assert!(diff > 1000.0, "{stdout}");
    // A run compared with itself differs by nothing.
    assert_prints(&ai2048(&["--compare", &r, &r]), ": +0 ± 0 a game");

    assert_fails(
        &ai2048(&["--compare", &r, &o]),
        "the runs played other games",
    );
    // The same seeds from another board, or under other rules, are other games.
    let from = temp_path("cmp-from", "json");
    let p4 = temp_path("cmp-p4", "json");
    for (path, extra) in [
        (&from, ["--from", "2 2 0 0/0 0 0 0/0 0 0 0/0 0 0 4"]),
        (&p4, ["--p4", "0.5"]),
    ] {
        let json = arg(path);
        let args = ["--ai", "random", "--seed", "4", "--num-games", "30", "-q"];
        let out = ai2048(&[&args[..], &extra[..], &["--json", &json]].concat());
        assert!(out.status.success(), "{}", text(&out.stderr));
    }
    let (f, p) = (arg(&from), arg(&p4));
    assert_fails(
        &ai2048(&["--compare", &r, &f]),
        &format!(
            "--compare {r} {f}: the runs played other games (the first new games, the \
             second from 2 2 0 0/0 0 0 0/0 0 0 0/0 0 0 4); compare runs of the same --from \
             board and rules"
        ),
    );
    assert_fails(
        &ai2048(&["--compare", &p, &r]),
        "the runs played other games (rules 2 start tiles, p(4) 0.5, illegal moves refused \
         in the first against 2 start tiles, p(4) 0.1, illegal moves refused in the second)",
    );
    // From the same board, the runs pair.
    assert_prints(&ai2048(&["--compare", &f, &f]), "30 paired games");
    assert_fails(&ai2048(&["--compare", &r]), "2 values required");
    // Pairs of runs pooled, as runs from several --from boards would be: each pair
    // game by game, the tiles counted over all of them.
    let out = ai2048(&["--compare", &r, &g, "--compare", &r, &r]);
    assert_prints(&out, "60 paired games over 2 pairs of runs");
    // The mean difference over the 60: the first pair's over its 30, halved, for a
    // run paired with itself differs by nothing.
    let difference = |stdout: &str| -> f64 {
        let line = stdout.lines().nth(1).expect("the score line");
        line.split("; ")
            .nth(1)
            .and_then(|s| s.split(": ").nth(1))
            .and_then(|s| s.split_whitespace().next())
            .and_then(|s| s.parse().ok())
            .unwrap_or_else(|| panic!("no difference in {line:?}"))
    };
    let pooled = difference(&text(&out.stdout));
    assert!(
        (pooled - diff / 2.0).abs() <= 1.0,
        "{pooled} against {diff}"
    );
    // A pair that cannot be paired is named by its files.
    assert_fails(
        &ai2048(&["--compare", &r, &g, "--compare", &r, &o]),
        &format!("--compare {r} {o}: game 0 has seed"),
    );
    assert_fails(
        &ai2048(&["--compare", &r, "/nonexistent/x.json"]),
        "--compare: cannot read /nonexistent/x.json",
    );
    for p in [random, greedy, other_seed] {
        let _ = std::fs::remove_file(p);
    }
}

#[test]
fn ends_groups_a_runs_games_by_their_final_boards() {
    let path = temp_path("ends", "json");
    let json = path.to_str().expect("utf-8").to_owned();
    let args = ["--ai", GREEDY, "--num-games", "6", "-q", "--json", &json];
    stdout_of(&ai2048(&args), &args);
    let out = ai2048(&["--ends", &json]);
    assert_prints(&out, &format!("the 6 games of {json}:"));
    // Each row's games ended with the row's largest tile, and the rows hold them all.
    let run = read_json(&path);
    let largest = |index: u64| {
        outcomes(&run)
            .iter()
            .find(|r| r["index"] == index)
            .and_then(|r| r["max_tile"].as_u64())
            .expect("the game's record")
    };
    let stdout = text(&out.stdout);
    let mut games = Vec::new();
    for line in stdout.lines().skip(3) {
        let cells: Vec<&str> = line.split(" | ").map(str::trim).collect();
        let [tile, _, count, which] = cells[..] else {
            panic!("not a row: {line:?}\n{stdout}")
        };
        let tile: u64 = tile.parse().expect("a tile");
        let indices: Vec<u64> = which
            .split(' ')
            .map(|i| i.parse().expect("an index"))
            .collect();
        assert_eq!(indices.len().to_string(), count, "{stdout}");
        assert!(indices.iter().all(|&i| largest(i) == tile), "{stdout}");
        games.extend(indices);
    }
    games.sort_unstable();
    assert_eq!(games, [0, 1, 2, 3, 4, 5], "{stdout}");

    // A file written before the records kept their boards says so.
    let mut old = run.clone();
    for record in old["runs"].as_array_mut().expect("runs") {
        record.as_object_mut().expect("a record").remove("board");
    }
    std::fs::write(&path, old.to_string()).expect("write");
    assert_prints(
        &ai2048(&["--ends", &json]),
        "6 games keep no final board (records written before they kept one): 0 1 2 3 4 5",
    );
    assert_fails(
        &ai2048(&["--ends", &json, "--depth", "2"]),
        "cannot be used with",
    );
    assert_fails(
        &ai2048(&["--ends", "/nonexistent/x.json"]),
        "--ends: cannot read /nonexistent/x.json",
    );
    let _ = std::fs::remove_file(path);
}

#[test]
fn ends_joins_the_shards_of_a_run() {
    // Games 0-2 and 5-6 of one run, in two files: their ends together, the gap named.
    let (a, b) = (temp_path("ends-a", "json"), temp_path("ends-b", "json"));
    let (ja, jb) = (
        a.to_str().expect("utf-8").to_owned(),
        b.to_str().expect("utf-8").to_owned(),
    );
    for (first, games, json) in [("0", "3", &ja), ("5", "2", &jb)] {
        let args = [
            "--ai",
            GREEDY,
            "--first-game",
            first,
            "--num-games",
            games,
            "-q",
            "--json",
            json,
        ];
        stdout_of(&ai2048(&args), &args);
    }
    let out = ai2048(&["--ends", &ja, &jb]);
    assert_prints(&out, &format!("the 5 games of {ja}, {jb}:"));
    assert_prints(&out, "(no file holds games 3 to 4)");
    let stdout = text(&out.stdout);
    // The table's rows: a tile, the missing tile, the count, and the games.
    let mut games: Vec<u64> = stdout
        .lines()
        .map(|line| line.split(" | ").map(str::trim).collect::<Vec<_>>())
        .filter(|cells| cells.len() == 4 && cells[0].parse::<u32>().is_ok())
        .flat_map(|cells| {
            cells[3]
                .split(' ')
                .map(|i| i.parse::<u64>().expect("an index"))
                .collect::<Vec<_>>()
        })
        .collect();
    games.sort_unstable();
    assert_eq!(games, [0, 1, 2, 5, 6], "{stdout}");
    // A file given twice holds the same games twice: refused, as --merge refuses it.
    assert_fails(&ai2048(&["--ends", &ja, &ja]), "--ends");
    for p in [a, b] {
        let _ = std::fs::remove_file(p);
    }
}

#[test]
fn games_from_a_position_stop_at_the_tile_and_bad_positions_are_named() {
    let from = "256 128 64 32/16 8 4 2/0 0 0 0/0 0 0 2";
    let args = [
        "--ai",
        GREEDY,
        "--from",
        from,
        "--until",
        "512",
        "--num-games",
        "6",
        "-q",
    ];
    let (v, stdout) = bench_json(&args);
    assert!(
        stdout.contains("6 games from the position 8765432100000001, each to 512"),
        "{stdout}"
    );
    assert_eq!(v["config"]["from"], "8765432100000001");
    assert_eq!(v["config"]["until"], 512);
    for run in v["runs"].as_array().expect("runs") {
        let tile = run["max_tile"].as_u64().expect("a tile");
        assert!((256..=512).contains(&tile), "{run}");
    }
    // The same games without --from are other games: a resume refuses them.
    let path = temp_path("from", "json");
    let file = path.to_str().expect("utf-8");
    let first = ai2048(&[&args[..], &["--json", file]].concat());
    assert!(first.status.success(), "{}", text(&first.stderr));
    let out = ai2048(&["--ai", GREEDY, "--num-games", "6", "-q", "--resume", file]);
    let _ = std::fs::remove_file(&path);
    assert!(
        text(&out.stderr).contains("from \"8765432100000001\" there, null here"),
        "{}",
        text(&out.stderr)
    );

    for (bad, message) in [
        (
            ["--from", "2 4 8/16 0 0 0"],
            "--from \"2 4 8/16 0 0 0\" is not a 2048 board",
        ),
        (
            ["--from", "2 4 2 4/4 2 4 2/2 4 2 4/4 2 4 2"],
            "the start position 1212212112122121 has no move left",
        ),
        (["--until", "100"], "until 100: not a tile"),
        (
            ["--until", "256"],
            "until 256: the start position holds 256 already",
        ),
    ] {
        let mut all = vec!["--ai", GREEDY, "--num-games", "2", "-q"];
        if bad[0] != "--from" {
            all.extend(["--from", from]);
        }
        all.extend(bad);
        assert_fails(&ai2048(&all), message);
    }
}
