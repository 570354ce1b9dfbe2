//! `ai2048 tune`, run as a user runs it.

mod common;

use std::path::Path;
use std::process::Output;

use ai2048_ai::eval::EvalConfig;
use common::{ai2048, path, text};

/// A weights file's path in the temporary directory that no other test (or test run)
/// uses.
fn temp_path(name: &str) -> common::TempPath {
    common::temp_path(name, "json")
}

/// The command line of a short tuning of the weighted eval with the greedy player, of
/// `generations` generations, writing to `out`.
fn tune_line<'a>(out: &'a Path, generations: &'a str) -> Vec<&'a str> {
    vec![
        "tune",
        "--eval",
        "weighted",
        "--ai",
        "greedy",
        "--generations",
        generations,
        "--population",
        "4",
        "--games",
        "4",
        "--out",
        path(out),
        "-q",
    ]
}

/// A short tuning of 2 generations, writing to `out`.
fn tune(out: &Path, extra: &[&str]) -> Output {
    let mut args = tune_line(out, "2");
    args.extend_from_slice(extra);
    ai2048(&args)
}

/// The table's lines: from the header to the last row.
fn table<'a>(stdout: &'a str, header: &str) -> Vec<&'a str> {
    stdout
        .lines()
        .skip_while(|l| !l.trim_start().starts_with(header))
        .take_while(|l| !l.trim().is_empty())
        .collect()
}

#[test]
fn writes_weights_that_bench_accepts() {
    let out = temp_path("weights");
    let run = tune(&out, &["--jobs", "2"]);
    let stdout = text(&run.stdout);
    assert!(run.status.success(), "{}\n{stdout}", text(&run.stderr));
    assert!(run.stderr.is_empty(), "{}", text(&run.stderr));

    // The history: a header, a rule and one row per generation.
    let history = table(&stdout, "generation |");
    assert_eq!(history.len(), 4, "{stdout}");
    assert!(history[0].contains("best") && history[0].contains("sigma"));
    // The weights: start and tuned side by side, one row per weight.
    let weights = table(&stdout, "weight |");
    assert_eq!(weights.len(), 2 + 6, "{stdout}");
    assert!(stdout.contains("start weights: mean score"), "{stdout}");
    assert!(stdout.contains("tuned weights: mean score"), "{stdout}");
    assert!(stdout.contains("(paired by game)"), "{stdout}");
    assert!(
        stdout.contains(&format!("--ai greedy:weights={}", path(&out))),
        "{stdout}"
    );

    // The file is a weights file of the eval, with a note on how it was made.
    let config = EvalConfig::load(&out).expect("a weights file");
    assert_eq!(config.name(), "weighted");
    let note = config.note().expect("a note");
    assert!(note.contains("tuned by CMA-ES"), "{note}");
    assert!(note.contains("--generations 2"), "{note}");
    assert!(note.contains("2 of 2 generations"), "{note}");
    assert!(note.contains("validation on 4 held-out games"), "{note}");

    // The AI plays with it.
    let weights = format!("greedy:weights={}", path(&out));
    let bench = ai2048(&["bench", "--ai", &weights, "--num-games", "2", "-q"]);
    assert!(
        bench.status.success(),
        "{}\n{}",
        text(&bench.stderr),
        text(&bench.stdout)
    );

    // Tuning again from the file starts from its weights.
    let again = temp_path("again");
    let run = ai2048(&[
        "tune",
        "--from",
        path(&out),
        "--ai",
        "greedy",
        "--generations",
        "1",
        "--games",
        "2",
        "--validate",
        "0",
        "--out",
        path(&again),
        "-q",
    ]);
    assert!(run.status.success(), "{}", text(&run.stderr));
    let stdout = text(&run.stdout);
    assert!(!stdout.contains("validation"), "{stdout}");
    let second = EvalConfig::load(&again).expect("a weights file");
    assert_eq!(second.name(), "weighted");
    let _ = std::fs::remove_file(&out);
    let _ = std::fs::remove_file(&again);
}

#[test]
fn same_seed_same_weights_whatever_the_jobs() {
    let (a, b) = (temp_path("jobs1"), temp_path("jobs3"));
    let one = tune(&a, &["--jobs", "1", "--validate", "0", "--seed", "3"]);
    let three = tune(&b, &["--jobs", "3", "--validate", "0", "--seed", "3"]);
    assert!(one.status.success(), "{}", text(&one.stderr));
    assert!(three.status.success(), "{}", text(&three.stderr));
    let (a_config, b_config) = (
        EvalConfig::load(&a).expect("a file"),
        EvalConfig::load(&b).expect("a file"),
    );
    assert_eq!(a_config.params(), b_config.params());
    let history = |o: &Output| {
        table(&text(&o.stdout), "generation |")
            .into_iter()
            .map(str::to_owned)
            .collect::<Vec<_>>()
    };
    assert_eq!(history(&one), history(&three));
    let _ = std::fs::remove_file(&a);
    let _ = std::fs::remove_file(&b);
}

#[test]
fn subsets_keep_the_other_weights() {
    let out = temp_path("subset");
    let run = tune(&out, &["--params", "empty,max", "--validate", "0"]);
    assert!(run.status.success(), "{}", text(&run.stderr));
    let stdout = text(&run.stdout);
    assert!(stdout.contains("(2 weights: empty, max)"), "{stdout}");
    let tuned = EvalConfig::load(&out).expect("a file");
    let start = EvalConfig::new("weighted").expect("an eval");
    for name in ["smoothness", "monotonicity", "merges", "sum"] {
        assert_eq!(tuned.get(name), start.get(name), "{name}");
    }
    let _ = std::fs::remove_file(&out);
}

#[test]
fn bad_input_is_a_clear_error() {
    let bad_json = temp_path("bad-json");
    std::fs::write(
        &bad_json,
        "{\"eval\": \"weighted\", \"weights\": {\"empty\": \"x\"}}",
    )
    .expect("writes");
    let out = temp_path("never");
    for (args, message) in [
        (
            vec!["--generations", "0"],
            "--generations must be at least 1",
        ),
        (vec!["--eval", "nope"], "unknown eval \"nope\""),
        (vec!["--params", "empty,nope"], "has no weight \"nope\""),
        (
            vec!["--from", "/nonexistent/w.json"],
            "cannot read weights file",
        ),
        (vec!["--from", path(&bad_json)], "weights.empty"),
        (vec!["--objective", "fun"], "unknown objective"),
        (vec!["--eval", "simple"], "no weights to tune"),
    ] {
        let mut full = vec!["tune", "--out", path(&out), "-q"];
        full.extend(args.iter().copied());
        let run = ai2048(&full);
        let stderr = text(&run.stderr);
        assert_eq!(run.status.code(), Some(1), "{args:?}: {stderr}");
        assert!(
            stderr.contains(message),
            "{args:?}: {stderr} lacks {message}"
        );
        assert!(run.stdout.is_empty(), "{args:?}");
        assert!(!out.exists(), "{args:?} wrote a file");
    }
    let missing = ai2048(&[
        "tune",
        "--out",
        "/nonexistent/dir/w.json",
        "--generations",
        "1",
    ]);
    assert_eq!(missing.status.code(), Some(1));
    assert!(text(&missing.stderr).contains("does not exist"));
    let _ = std::fs::remove_file(&bad_json);
}

#[cfg(unix)]
#[test]
fn ctrl_c_keeps_the_finished_generations() {
    let out = temp_path("interrupted");
    // The file is written after every generation: once it is there, there is
    // something to keep.
    let stdout = common::interrupt(&tune_line(&out, "1000000"), |_| out.exists());
    let done: u32 = stdout
        .lines()
        .find_map(|l| l.split_once(" of 1000000 generations in "))
        .map(|(n, _)| n.parse().expect("a number of generations"))
        .unwrap_or_else(|| panic!("no count of generations in {stdout}"));
    assert!(done >= 1, "{stdout}");
    assert!(
        stdout.contains(&format!(
            "interrupted: generation {} was dropped, and validation skipped",
            done + 1
        )),
        "{stdout}"
    );
    assert!(stdout.contains("best weights written to"), "{stdout}");
    // The file holds the best weights of every finished generation, and no validation.
    let config = EvalConfig::load(&out).expect("a weights file");
    let _ = std::fs::remove_file(&out);
    assert_eq!(config.name(), "weighted");
    let note = config.note().expect("a note");
    assert!(
        note.contains(&format!("{done} of 1000000 generations")),
        "{note}"
    );
    assert!(!note.contains("validation"), "{note}");
}
