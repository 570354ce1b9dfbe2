//! `ai2048 sweep`, run as a user runs it.

mod common;

use std::process::{Command, Output};

use common::{assert_fails, path, temp_path, text};
use serde_json::Value;

fn sweep(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_ai2048"))
        .arg("sweep")
        .args(args)
        .output()
        .expect("ai2048 runs")
}

/// The table's lines: from the header to the last row.
fn table(stdout: &str) -> Vec<&str> {
    stdout
        .lines()
        .skip_while(|l| !l.starts_with("depth |"))
        .take_while(|l| !l.trim().is_empty())
        .collect()
}

#[test]
fn table_plot_and_json() {
    let svg = temp_path("plot", "svg");
    let json = temp_path("rows", "json");
    let (svg_path, json_path) = (path(&svg), path(&json));
    let out = sweep(&[
        "--ai",
        "expectimax",
        "--depths",
        "0,1",
        "--num-games",
        "4",
        "--plot",
        svg_path,
        "--json",
        json_path,
        "-q",
    ]);
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{}\n{stdout}", text(&out.stderr));
    assert!(out.stderr.is_empty(), "{}", text(&out.stderr));

    let lines = table(&stdout);
    assert_eq!(lines.len(), 4, "{stdout}");
    let header: Vec<&str> = lines[0].split('|').map(str::trim).collect();
    assert_eq!(header, ai2048_bench::SWEEP_COLUMNS, "{stdout}");
    for (line, depth) in lines[2..].iter().zip(["0", "1"]) {
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        assert_eq!(cells.len(), 9, "{line}");
        assert_eq!(cells[0], depth);
        assert_eq!(cells[1], "4");
        assert!(cells[5..].iter().all(|c| c.ends_with('%')), "{line}");
    }
    assert!(stdout.contains("depths 0,1, 4 games per depth"), "{stdout}");

    let plot = std::fs::read_to_string(&svg).expect("plot written");
    let _ = std::fs::remove_file(&svg);
    assert!(
        plot.starts_with("<svg") || plot.starts_with("<?xml"),
        "{}",
        &plot[..plot.len().min(200)]
    );
    assert!(plot.contains("depth 1 (4 games)"));

    let doc = std::fs::read_to_string(&json).expect("JSON written");
    let _ = std::fs::remove_file(&json);
    let v: Value = serde_json::from_str(&doc).expect("valid JSON");
    assert_eq!(v["interrupted"], false);
    assert_eq!(v["columns"].as_array().map(Vec::len), Some(9));
    let rows = v["rows"].as_array().expect("rows");
    assert_eq!(rows.len(), 2);
    for (row, depth) in rows.iter().zip([0, 1]) {
        assert_eq!(row["depth"], depth);
        assert_eq!(row["games"], 4);
        assert_eq!(row["bench"]["runs"].as_array().map(Vec::len), Some(4));
        assert_eq!(row["bench"]["config"]["depth"], depth);
    }
}

#[test]
fn png_plots_and_ranges() {
    let png = temp_path("plot", "png");
    let png_path = path(&png);
    let out = sweep(&[
        "--ai",
        "expectimax",
        "--depths",
        "0..1",
        "--num-games",
        "2",
        "--p4",
        "0.2",
        "--plot",
        png_path,
        "-q",
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let bytes = std::fs::read(&png).expect("plot written");
    let _ = std::fs::remove_file(&png);
    assert!(bytes.starts_with(b"\x89PNG\r\n\x1a\n"));
    let stdout = text(&out.stdout);
    assert_eq!(table(&stdout).len(), 4, "{stdout}");
    assert!(stdout.contains("p(4) 0.2"), "{stdout}");
}

#[test]
fn bad_input_is_a_clear_error() {
    common::assert_clear_errors(
        "sweep",
        ["--num-games", "1"],
        &[
            (&["--depths", ""][..], "no depth to sweep"),
            (&["--depths", "1,,2"], "empty item"),
            (&["--depths", "one"], "bad depth \"one\""),
            (&["--depths", "3..1"], "runs backwards"),
            (&["--depths", "21"], "depth 21 is above 20"),
            (&["--depths", "0..25"], "depth 25 is above 20"),
            (&["--depths", "2,2"], "listed twice"),
            (&["--depth", "2"], "give the depths with --depths"),
            (&["--plot", "out.jpg"], "name it .svg or .png"),
            (&["--plot", "out"], "name it .svg or .png"),
            (&["--num-games", "0"], "--num-games must be at least 1"),
            (&["--jobs", "0"], "--jobs must be at least 1"),
            (&["--timeout", "0"], "--timeout must be a positive number"),
            (&["--ai", "nope"], "unknown player \"nope\""),
            (&["--ai-opt", "bad"], "is not KEY=VALUE"),
        ],
    );
}

#[test]
fn an_unwritable_plot_is_an_error() {
    let path = temp_path("missing-dir", "d").join("plot.svg");
    let out = sweep(&[
        "--ai",
        "random",
        "--depths",
        "1",
        "--num-games",
        "1",
        "-q",
        "--plot",
        path.to_str().expect("utf-8"),
    ]);
    assert_fails(&out, "cannot create");
}

#[test]
fn help_lists_the_sweep() {
    let out = Command::new(env!("CARGO_BIN_EXE_ai2048"))
        .arg("--help")
        .output()
        .expect("runs");
    assert!(text(&out.stdout).contains("sweep"));
    let out = sweep(&["--help"]);
    let help = text(&out.stdout);
    for flag in ["--depths", "--plot", "--json", "--num-games", "130"] {
        assert!(help.contains(flag), "no {flag} in {help}");
    }
}

#[cfg(unix)]
#[test]
fn ctrl_c_reports_and_saves_what_finished() {
    let json = temp_path("interrupted", "json");
    let svg = temp_path("interrupted", "svg");
    // Leave it time to install its handler and finish some games: it prints nothing
    // before the end.
    let stdout = common::interrupt(
        &[
            "sweep",
            "--ai",
            "random",
            "--depths",
            "1,2",
            "--num-games",
            "1000000000",
            "-q",
            "--json",
            json.to_str().expect("utf-8"),
            "--plot",
            svg.to_str().expect("utf-8"),
        ],
        |elapsed| elapsed.as_millis() >= 1500,
    );
    assert!(
        stdout.contains("interrupted: 0 of 2 depths finished, and "),
        "{stdout}"
    );
    assert_eq!(table(&stdout).len(), 3, "{stdout}");
    let doc = std::fs::read_to_string(&json).expect("JSON written");
    let _ = std::fs::remove_file(&json);
    let plot = std::fs::read_to_string(&svg).expect("plot written");
    let _ = std::fs::remove_file(&svg);
    assert!(plot.starts_with("<svg"));
    let v: Value = serde_json::from_str(&doc).expect("valid JSON");
    assert_eq!(v["interrupted"], true);
    let rows = v["rows"].as_array().expect("rows");
    assert_eq!(rows.len(), 1);
    assert!(
        rows[0]["games"].as_u64() > Some(0),
        "no game finished in 1.5 s"
    );
    assert_eq!(rows[0]["requested_games"], 1_000_000_000u64);
}
