//! `ai2048 tables`: a custom table built, described, verified and queried through the
//! command line, and bad input refused with what and where.

mod common;

use common::{ai2048, ai2048_with_stdin, assert_fails, path, text};

fn tables(args: &[&str]) -> std::process::Output {
    ai2048(&[&["tables"][..], args].concat())
}

/// `ai2048 tables build -q --pattern PATTERN --target TARGET --out FILE`.
fn build(pattern: &str, target: &str, file: &std::path::Path) -> std::process::Output {
    let args = [
        "--pattern",
        pattern,
        "--target",
        target,
        "--out",
        path(file),
    ];
    tables(&[&["build", "-q"][..], &args].concat())
}

/// The two-rows corner table to 64, built into `file`.
fn build_corner(file: &std::path::Path) -> std::process::Output {
    build("xxxx/xxxx/xx../..tt", "64", file)
}

#[test]
fn a_custom_table_is_built_described_verified_and_queried() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("corner.table");
    let out = build_corner(&file);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("86436 states"),
        "{}",
        text(&out.stderr)
    );

    // Built already: nothing to do.
    let again = build_corner(&file);
    assert!(
        text(&again.stderr).contains("built already"),
        "{}",
        text(&again.stderr)
    );
    // Asked for in a narrower encoding, a built table stays as it is, and the command
    // says how to convert it, its path quoted for the shell.
    let spaced = dir.path().join("my tables");
    std::fs::create_dir(&spaced).unwrap();
    let spaced_file = spaced.join("corner.table");
    std::fs::copy(&file, &spaced_file).unwrap();
    let narrower = tables(&[
        "build",
        "-q",
        "--pattern",
        "xxxx/xxxx/xx../..tt",
        "--target",
        "64",
        "--encoding",
        "u8",
        "--out",
        path(&spaced_file),
    ]);
    let said = text(&narrower.stderr);
    assert!(narrower.status.success(), "{said}");
    let quoted = format!("convert '{}' --encoding u8", spaced_file.display());
    assert!(
        said.contains("stored as f32") && said.contains(&quoted),
        "{said}"
    );
    assert_eq!(
        std::fs::read(&spaced_file).unwrap(),
        std::fs::read(&file).unwrap()
    );
    // Another table to a file that holds one is refused, not taken for built, unless
    // forced.
    let other = dir.path().join("other.table");
    assert!(build("xxxx/xxxx/xxxx/..tt", "16", &other).status.success());
    assert_fails(
        &build_corner(&other),
        "holds another table (xxxx/xxxx/xxxx/..tt to 16)",
    );
    let forced = tables(&[
        "build",
        "-q",
        "--force",
        "--pattern",
        "xxxx/xxxx/xx../..tt",
        "--target",
        "64",
        "--out",
        path(&other),
    ]);
    assert!(forced.status.success(), "{}", text(&forced.stderr));
    assert_eq!(
        std::fs::read(&other).unwrap(),
        std::fs::read(&file).unwrap()
    );

    // --out and --dir in folders that are not there yet: the build makes them.
    let nested = dir.path().join("new/folder/corner.table");
    let made = build_corner(&nested);
    assert!(made.status.success(), "{}", text(&made.stderr));
    assert_eq!(
        std::fs::read(&nested).unwrap(),
        std::fs::read(&file).unwrap()
    );
    let new_dir = dir.path().join("new/tables");
    let named = tables(&["build", "-q", "snake8-8", "--dir", path(&new_dir)]);
    assert!(named.status.success(), "{}", text(&named.stderr));
    assert!(new_dir.join("snake8-8.table").is_file());

    let info = tables(&["info", path(&file)]);
    assert!(info.status.success());
    let info = text(&info.stdout);
    assert!(
        info.contains("xxxx/xxxx/xx../..tt") && info.contains("target:   64"),
        "{info}"
    );
    assert!(info.contains("finished"), "{info}");

    let verify = tables(&["verify", path(&file)]);
    assert!(
        text(&verify.stdout).starts_with("ok "),
        "{}",
        text(&verify.stdout)
    );

    // The last row can only go right or up, and right makes a 32 in the target cells.
    let board = "65536 32768 16384 8192/512 1024 2048 4096/256 128 0 0/16 2 16 16";
    let json = tables(&["query", path(&file), board, "--json"]);
    assert!(json.status.success(), "{}", text(&json.stderr));
    let answer: serde_json::Value = serde_json::from_str(text(&json.stdout).trim()).unwrap();
    assert_eq!(answer["moves"]["down"], serde_json::Value::Null, "{answer}");
    let best = answer["best"].as_str().unwrap();
    let p = answer["moves"][best].as_f64().unwrap();
    for m in ["up", "down", "left", "right"] {
        if let Some(q) = answer["moves"][m].as_f64() {
            assert!((0.0..=p).contains(&q), "{answer}");
        }
    }
    let plain = tables(&["query", path(&file), board]);
    assert!(
        text(&plain.stdout).contains("<- best"),
        "{}",
        text(&plain.stdout)
    );

    // Several boards: one answer a board, in order, the same as each alone.
    let other = "65536 32768 16384 8192/512 1024 2048 4096/256 128 0 0/0 0 2 0";
    let both = tables(&["query", path(&file), board, other, "--json"]);
    assert!(both.status.success(), "{}", text(&both.stderr));
    let alone = tables(&["query", path(&file), other, "--json"]);
    let (first, second, both) = (text(&json.stdout), text(&alone.stdout), text(&both.stdout));
    assert_eq!(
        both.lines().collect::<Vec<_>>(),
        [first.trim(), second.trim()]
    );
    let plain = tables(&["query", path(&file), board, other]);
    assert_eq!(text(&plain.stdout).matches("<- best").count(), 2);
    // On standard input: one board a line (blank lines skipped), or one board on four.
    let query = |stdin: &str| ai2048_with_stdin(&["tables", "query", path(&file), "--json"], stdin);
    let piped = query(&format!("{board}\n\n{other}\n"));
    assert!(piped.status.success(), "{}", text(&piped.stderr));
    assert_eq!(text(&piped.stdout), both);
    let rows = board.replace('/', "\n");
    assert_eq!(text(&query(&rows).stdout), first);
    assert_fails(
        &query(&format!("{board}\n{other}\n2 2 2\n")),
        "line 3 of standard input (\"2 2 2\") is not a 2048 board",
    );
    assert_fails(
        &query("2 2 2\n0 0 0 0\n"),
        "the board on standard input is not a 2048 board",
    );
    // A board of several that the table does not hold is named by its place, and the
    // others are still answered, in JSON a null line in its place.
    let loose = "2 2 2 2/0 0 0 0/0 0 0 0/0 0 0 0";
    let among = tables(&["query", path(&file), board, loose, other, "--json"]);
    assert_fails(&among, "board 2 of 3");
    assert_fails(&among, "1 of 3 boards do not match the table");
    assert_eq!(
        text(&among.stdout).lines().collect::<Vec<_>>(),
        [first.trim(), "null", second.trim()]
    );
    let plain = tables(&["query", path(&file), loose, board]);
    assert_fails(&plain, "board 1 of 2");
    assert_eq!(text(&plain.stdout).matches("<- best").count(), 1);

    // `solve` answers the same with no table file, from the states each board reaches.
    let solved = tables(&[
        "solve",
        "--pattern",
        "xxxx/xxxx/xx../..tt",
        "--target",
        "64",
        board,
        other,
        "--json",
    ]);
    assert!(solved.status.success(), "{}", text(&solved.stderr));
    for (line, queried) in text(&solved.stdout).lines().zip(both.lines()) {
        let mut answer: serde_json::Value = serde_json::from_str(line).unwrap();
        let states = answer["states"].as_u64().unwrap();
        assert!(states > 1 && states < 86436, "{answer}");
        answer.as_object_mut().unwrap().remove("states");
        assert_eq!(
            answer,
            serde_json::from_str::<serde_json::Value>(queried).unwrap()
        );
    }
    assert_eq!(text(&solved.stdout).lines().count(), 2);
    let pattern = ["--pattern", "xxxx/xxxx/xx../..tt", "--target", "64", board];
    let plain = tables(&[&["solve"][..], &pattern].concat());
    assert!(text(&plain.stdout).contains("<- best"));
    assert!(text(&plain.stderr).contains("states reached and solved in"));
    let quiet = tables(&[&["solve", "-q"][..], &pattern].concat());
    assert_eq!(text(&quiet.stdout), text(&plain.stdout));
    assert_eq!(text(&quiet.stderr), "");

    // A damaged file is refused by every command that reads values.
    let mut bytes = std::fs::read(&file).unwrap();
    bytes[1000] ^= 0x40;
    std::fs::write(&file, &bytes).unwrap();
    let verify = tables(&["verify", path(&file)]);
    assert!(!verify.status.success());
    assert!(
        text(&verify.stdout).contains("damaged"),
        "{}",
        text(&verify.stdout)
    );
    assert_fails(&tables(&["query", path(&file), board]), "damaged");
}

#[test]
fn solve_refuses_bad_input_with_what_and_where() {
    let board = "16384 8192 4096 0/512 1024 2048 0/256 0 0 0/0 0 2 2";
    let cases: [(&[&str], &str); 7] = [
        (&["solve"], "name a built-in table"),
        (
            &[
                "solve",
                "block10-512",
                "--pattern",
                "xxxx/xxxx/xx../..tt",
                "--target",
                "64",
            ],
            "not both",
        ),
        (&["solve", "block9-512", board], "block9"),
        (&["solve", "block10-512", "2 2 2"], "board"),
        (
            &["solve", "block10-512", "2 2 2 2/0 0 0 0/0 0 0 0/0 0 0 0"],
            "does not match the table",
        ),
        (
            &["solve", "block10-512", board, "--max-states", "1000"],
            "more than 1000 states",
        ),
        (
            &[
                "solve",
                "--pattern",
                "xxxx/xxxx/xx../..tq",
                "--target",
                "64",
                board,
            ],
            "--pattern",
        ),
    ];
    for (args, expected) in cases {
        assert_fails(&tables(args), expected);
    }
}

#[test]
fn bad_input_is_refused_with_what_and_where() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("x.table");
    let missing = dir.path().join("missing.table");
    let cases: [(&[&str], &str); 10] = [
        (
            &[
                "build",
                "--pattern",
                "xxxx/xxxx/xx..",
                "--target",
                "64",
                "--out",
                path(&file),
            ],
            "3 group(s)",
        ),
        (
            &[
                "build",
                "--pattern",
                "xxxx/xxxx/xx../..tq",
                "--target",
                "64",
                "--out",
                path(&file),
            ],
            "row 4, column 4",
        ),
        (
            &[
                "build",
                "--pattern",
                "xxxx/xxxx/xx../..tt",
                "--target",
                "100",
                "--out",
                path(&file),
            ],
            "target 100",
        ),
        (&["build", "--pattern", "xxxx/xxxx/xx../..tt"], "--target"),
        (&["build", "--large", "snake8-64"], "cannot be used with"),
        (
            &["build", "--large", "--pattern", "xxxx/xxxx/xx../..tt"],
            "cannot be used with",
        ),
        (
            &["build", "snake9-128", "--dir", path(dir.path())],
            "no formation",
        ),
        (
            &[
                "query",
                "snake8-64",
                "2 2 2 2/0 0 0 0/0 0 0 0/0 0 0 0",
                "--dir",
                path(dir.path()),
            ],
            "not built",
        ),
        (&["info", path(&missing)], "does not exist"),
        (&["verify", "--dir", path(dir.path())], "no tables"),
    ];
    for (args, message) in cases {
        let out = tables(args);
        assert_fails(&out, message);
        assert!(!text(&out.stderr).contains("panicked"), "{args:?}");
    }
    // A board the table does not cover.
    let small = dir.path().join("small.table");
    let out = build("xxxx/xxxx/xxxx/x.tt", "16", &small);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_fails(
        &tables(&["query", path(&small), "2 2 2 2/0 0 0 0/0 0 0 0/0 0 0 0"]),
        "does not match the table",
    );
    assert_fails(
        &tables(&["query", path(&small), "2 2 2"]),
        "not a 2048 board",
    );
    // A table past any machine's memory: refused before anything is allocated or written.
    let huge = dir.path().join("huge.table");
    assert_fails(
        &build("xx../..../..../...t", "256", &huge),
        "20334926626632 states",
    );
    assert!(!huge.exists() && !dir.path().join("huge.table.partial").exists());
}

#[test]
fn list_names_the_default_set_and_what_the_large_set_adds() {
    let dir = tempfile::tempdir().unwrap();
    let out = tables(&["list", "--dir", path(dir.path())]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let listed = text(&out.stdout);
    let (default, large) = listed
        .split_once("what the large set adds, or stores with its probabilities")
        .expect("the large set's part");
    assert!(default.contains("block10-512") && !default.contains("block10-1024"));
    let line = default.lines().find(|l| l.contains("open10-512")).unwrap();
    assert!(
        line.contains("moves") && line.contains("not built"),
        "{line}"
    );
    let line = large.lines().find(|l| l.contains("open10-512")).unwrap();
    assert!(line.contains("u16") && line.contains("not built"), "{line}");
    assert!(large.contains("block10-1024") && !large.contains("block10-512"));
}

#[test]
fn the_players_take_tables_from_a_folder_or_off_and_refuse_a_bad_one() {
    let dir = tempfile::tempdir().unwrap();
    let table = dir.path().join("snake8-16.table");
    let out = build("xxxx/xxxx/t.../....", "16", &table);
    assert!(out.status.success(), "{}", text(&out.stderr));
    // The two 8s make the 16 below the chain's 16: the table's best move is left, and
    // with no slack it overrules any other.
    let board = "16384 8192 4096 2048/16 32 64 128/8 8 0 0/0 0 0 0";
    let hint = ai2048(&[
        "hint",
        board,
        "--depth",
        "0",
        "--tables",
        path(dir.path()),
        "--ai-opt",
        "tables-slack=0",
        "--json",
    ]);
    assert!(hint.status.success(), "{}", text(&hint.stderr));
    let answer: serde_json::Value = serde_json::from_str(text(&hint.stdout).trim()).unwrap();
    assert_eq!(answer["dir"], "left", "{answer}");
    assert_eq!(answer["values"]["left"], 1.0, "{answer}");
    // Left is ahead of every other move: the table decided it without a search.
    assert_eq!(answer["table"], "decided", "{answer}");
    assert_eq!(
        answer["table_name"], "snake8-16",
        "the table's file names it"
    );
    assert_eq!(answer["nodes"], 0, "{answer}");
    let said = ai2048(&[
        "hint",
        board,
        "--tables",
        path(dir.path()),
        "--ai-opt",
        "tables-slack=0",
    ]);
    assert!(
        text(&said.stdout)
            .contains("left: the move of the endgame table snake8-16, 100.00% to make its target"),
        "{}",
        text(&said.stdout)
    );

    // The same chain under an 8192: before 16384 the tables are not consulted, unless
    // tables-from says so.
    let early = "8192 4096 2048 1024/16 32 64 128/8 8 0 0/0 0 0 0";
    let hint_from = |from: Option<&str>| {
        let mut args = vec!["hint", early, "--depth", "0", "--tables", path(dir.path())];
        args.extend(["--ai-opt", "tables-slack=0", "--json"]);
        if let Some(from) = from {
            args.extend(["--ai-opt", from]);
        }
        let out = ai2048(&args);
        assert!(out.status.success(), "{}", text(&out.stderr));
        serde_json::from_str::<serde_json::Value>(text(&out.stdout).trim()).unwrap()
    };
    assert!(hint_from(None).get("table").is_none());
    assert_eq!(hint_from(Some("tables-from=8192"))["table"], "decided");

    let off = ai2048(&["hint", board, "--depth", "0", "--tables", "off"]);
    assert!(off.status.success(), "{}", text(&off.stderr));
    assert!(
        !text(&off.stdout).contains("endgame table"),
        "{}",
        text(&off.stdout)
    );
    let off_json = ai2048(&["hint", board, "--depth", "0", "--tables", "off", "--json"]);
    let off_answer: serde_json::Value =
        serde_json::from_str(text(&off_json.stdout).trim()).unwrap();
    assert!(off_answer.get("table").is_none(), "{off_answer}");
    assert!(off_answer.get("table_name").is_none(), "{off_answer}");
    assert_fails(
        &ai2048(&["hint", board, "--tables", path(&dir.path().join("none"))]),
        "is not a folder",
    );
}

#[test]
fn a_table_with_goals_is_built_from_goal_options_and_described_with_them() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("block.table");
    let out = tables(&[
        "build",
        "-q",
        "--pattern",
        "xxx1/xx12/2222/2222",
        "--goal",
        "...1/..22/..../....",
        "--goal",
        "..../..12/...2/....",
        "--target",
        "32",
        "--out",
        path(&file),
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let info = tables(&["info", path(&file)]);
    let said = text(&info.stdout);
    assert!(
        said.contains("pattern:  xxx1/xx12/2222/2222 ...1/..22/..../.... ..../..12/...2/....")
            && said.contains("goal:     ..../..12/...2/....")
            && said.contains("format version 4"),
        "{said}"
    );
    // Right lines up the second goal: certain.
    let board = "4096 2048 1024 2/512 256 16 8/0 0 8 0/0 0 0 0";
    let answer = tables(&["query", path(&file), board, "--json"]);
    assert!(
        text(&answer.stdout).contains("\"right\":1.0"),
        "{}",
        text(&answer.stdout)
    );
    // A goal that asks a capped cell for more than its cap: refused, saying where.
    let bad = tables(&[
        "build",
        "-q",
        "--pattern",
        "xxx1/xx12/2222/2222",
        "--goal",
        "..../..../..1./....",
        "--target",
        "32",
        "--out",
        path(&dir.path().join("bad.table")),
    ]);
    assert_fails(&bad, "row 3, column 3");
}

#[test]
fn a_table_is_built_or_converted_in_another_encoding_and_still_answers() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("corner.table");
    assert!(build_corner(&file).status.success());
    let board = "65536 32768 16384 8192/512 1024 2048 4096/256 128 0 0/16 2 16 16";
    let best = |f: &std::path::Path| {
        let out = tables(&["query", path(f), board, "--json"]);
        assert!(out.status.success(), "{}", text(&out.stderr));
        let answer: serde_json::Value = serde_json::from_str(text(&out.stdout).trim()).unwrap();
        answer["best"].as_str().unwrap().to_owned()
    };

    // Built as u8 straight away, and converted from f32: the same file.
    let built = dir.path().join("built-u8.table");
    let args = ["--encoding", "u8"];
    let pattern = ["--pattern", "xxxx/xxxx/xx../..tt", "--target", "64"];
    let out = tables(&[&["build", "-q", "--out", path(&built)][..], &pattern, &args].concat());
    assert!(out.status.success(), "{}", text(&out.stderr));
    let converted = dir.path().join("converted.table");
    let out = tables(&[
        "convert",
        path(&file),
        "--encoding",
        "u8",
        "--out",
        path(&converted),
    ]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("written as u8"),
        "{}",
        text(&out.stderr)
    );
    assert_eq!(
        std::fs::read(&built).unwrap(),
        std::fs::read(&converted).unwrap()
    );
    let info = tables(&["info", path(&converted)]);
    assert!(
        text(&info.stdout).contains("values:   u8"),
        "{}",
        text(&info.stdout)
    );
    assert_eq!(best(&converted), best(&file));

    // In place, to u16: the file is replaced whole and verifies.
    let out = tables(&["convert", path(&converted), "--encoding", "u16"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&tables(&["verify", path(&converted)]).stdout).starts_with("ok "));

    // Bad input: an unknown encoding, a missing table, --compact beside --encoding.
    assert_fails(
        &tables(&["convert", path(&file), "--encoding", "u4"]),
        "invalid value 'u4' for '--encoding <ENCODING>'",
    );
    assert_fails(
        &tables(&[
            "convert",
            path(&dir.path().join("none.table")),
            "--encoding",
            "u8",
        ]),
        "does not exist",
    );
    assert_fails(
        &tables(
            &[
                &["build", "-q", "--compact", "--out", path(&built)][..],
                &pattern,
                &args,
            ]
            .concat(),
        ),
        "cannot be used with",
    );
}

#[test]
fn tables_are_distilled_from_games_into_a_file_the_players_read() {
    let dir = tempfile::tempdir().unwrap();
    let out = build(
        "xxxx/xxxx/t.../....",
        "16",
        &dir.path().join("snake8-16.table"),
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let file = dir.path().join("small.dt");
    // Random games, to be quick; the default player's are distilled the same way.
    let distill_by = |ai: &str, games: &str, extra: &[&str]| {
        let args = [
            "distill",
            "-q",
            "--dir",
            path(dir.path()),
            "--out",
            path(&file),
        ];
        let quick = ["--games", games, "--depth", "0", "--jobs", "1", "--ai", ai];
        tables(&[&args[..], &quick, extra].concat())
    };
    let distill = |games: &str, extra: &[&str]| distill_by("random", games, extra);
    let out = distill("2", &[]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).contains("2 games") && text(&out.stdout).contains("small.dt"),
        "{}",
        text(&out.stdout)
    );
    assert!(file.is_file() && !ai2048_tables::partial_path(&file).exists());
    let distilled = ai2048_tables::Distilled::from_bytes(&std::fs::read(&file).unwrap()).unwrap();
    assert_eq!(distilled.names().collect::<Vec<_>>(), ["snake8-16"]);
    // A player reads it as a table.
    let board = "16384 8192 4096 2048/16 32 64 128/8 8 0 0/0 0 0 0";
    let hint = ai2048(&["hint", board, "--depth", "0", "--tables", path(&file)]);
    assert!(hint.status.success(), "{}", text(&hint.stderr));

    // Counts add up over runs, by any player.
    let counts = dir.path().join("all.counts");
    let first = distill("2", &["--counts", path(&counts)]);
    assert!(
        first.status.success() && counts.is_file(),
        "{}",
        text(&first.stderr)
    );
    let again = distill_by("greedy:eval=lines", "1", &["--counts", path(&counts)]);
    assert!(
        text(&again.stderr).contains("adding to the counts of"),
        "{}",
        text(&again.stderr)
    );
    assert!(
        text(&again.stdout).contains("1 game ("),
        "{}",
        text(&again.stdout)
    );
    assert_fails(&distill_by("nosuchplayer", "1", &[]), "--ai");
    std::fs::write(&counts, b"ai2048dc and not counts").unwrap();
    assert_fails(&distill("1", &["--counts", path(&counts)]), "--counts");

    // A stopped run's file that is not one, or of other settings: refused, saying so.
    let partial = ai2048_tables::partial_path(&file);
    std::fs::write(&partial, b"not saved counts").unwrap();
    let err = assert_fails(&distill("2", &[]), "not a stopped distillation");
    assert!(err.contains("delete it"), "{err}");
    std::fs::remove_file(&partial).unwrap();
    // No full tables to distil, a size of nothing, no games.
    let empty = tempfile::tempdir().unwrap();
    assert_fails(
        &tables(&["distill", "-q", "--dir", path(empty.path()), "--games", "1"]),
        "holds no full tables",
    );
    assert_fails(&distill("2", &["--max-mib", "0"]), "--max-mib 0 is not");
    assert_fails(&distill("0", &[]), "nothing to distil");
    let deep = ["distill", "-q", "--dir", path(dir.path()), "--depth", "21"];
    assert_fails(&tables(&deep), "--depth 21 is above 20");
    // A damaged distilled table is refused by the players, with its name.
    let mut bytes = std::fs::read(&file).unwrap();
    let middle = bytes.len() / 2;
    bytes[middle] ^= 0xFF;
    let damaged = dir.path().join("damaged.dt");
    std::fs::write(&damaged, &bytes).unwrap();
    assert_fails(
        &ai2048(&["hint", board, "--tables", path(&damaged)]),
        "damaged.dt",
    );
}
