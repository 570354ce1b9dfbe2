//! `ai2048 train`, run as a user runs it.

mod common;

use std::path::Path;

use ai2048_ai::ntuple::NTupleNetwork;
use common::{ai2048, assert_clear_errors, assert_prints, path, stdout_of, text};

fn temp_path(name: &str) -> common::TempPath {
    common::temp_path(name, "bin")
}

/// Trains the small network for `games` games into `out`; returns stdout.
fn train(out: &Path, games: &str, extra: &[&str]) -> String {
    let mut args = vec![
        "train", "--tuples", "small", "--games", games, "--report", "20", "--seed", "4", "-q",
        "--out",
    ];
    args.push(path(out));
    if !extra.contains(&"-t") {
        // One thread: the same network every run.
        args.extend_from_slice(&["-t", "1"]);
    }
    args.extend_from_slice(extra);
    stdout_of(&ai2048(&args), &args)
}

/// Asserts that training one game of the small network into `out` with `extra` fails,
/// saying `message`.
fn train_fails(out: &Path, extra: &[&str], message: &str) {
    let mut args = vec!["train", "--tuples", "small", "--games", "1", "-q", "--out"];
    args.push(path(out));
    args.extend_from_slice(extra);
    let run = ai2048(&args);
    let stderr = text(&run.stderr);
    assert!(
        !run.status.success() && stderr.contains(message),
        "{extra:?}: {stderr}"
    );
}

#[test]
fn training_reports_a_learning_curve_and_resumes_exactly() {
    let out = temp_path("curve");
    let stdout = train(&out, "40", &[]);
    assert!(
        stdout.starts_with("ai2048 train: 5 tuples (0,1,2,3;4,5,6,7;"),
        "{stdout}"
    );
    let header = stdout
        .lines()
        .find(|l| l.contains("mean"))
        .expect("a header");
    assert_eq!(
        header.split_whitespace().collect::<Vec<_>>(),
        ["games", "mean", "max", "2048", "4096", "8192", "16384", "32768"]
    );
    let counts: Vec<&str> = stdout
        .lines()
        .filter(|l| l.ends_with('%'))
        .map(|l| l.split_whitespace().next().unwrap_or_default())
        .collect();
    assert_eq!(counts, ["20", "40"], "{stdout}");
    assert!(
        stdout.contains("the network has 40 games; written to"),
        "{stdout}"
    );
    assert_eq!(NTupleNetwork::load(&out).expect("a network").games(), 40);

    // Ten more games from the file make the network that fifty games at once make.
    let stdout = train(&out, "10", &["--resume"]);
    assert!(
        stdout.contains("40 games trained; 10 games now"),
        "{stdout}"
    );
    assert!(stdout.contains("the network has 50 games"), "{stdout}");
    let at_once = temp_path("at-once");
    train(&at_once, "50", &[]);
    let (a, b) = (NTupleNetwork::load(&out), NTupleNetwork::load(&at_once));
    let _ = (std::fs::remove_file(&out), std::fs::remove_file(&at_once));
    let (a, b) = (a.expect("read"), b.expect("read"));
    assert_eq!(a.games(), b.games());
    assert!(a.weights() == b.weights(), "the weights differ");
    assert!(a.coherence() == b.coherence(), "the coherence differs");
    // The notes name both runs.
    assert_eq!(a.notes().lines().count(), 2, "{}", a.notes());
    assert!(
        a.notes().contains("games 40..50, ") && a.notes().contains(" trained moves, 1 thread, "),
        "{}",
        a.notes()
    );
}

#[test]
fn threads_restarts_stages_and_a_plot() {
    let out = temp_path("options");
    let plot = common::temp_path("curve", "svg");
    let stdout = train(
        &out,
        "40",
        &[
            "-t",
            "2",
            "--restart",
            "--stages",
            "2048",
            "--init",
            "1000",
            "--plot",
            path(&plot),
        ],
    );
    assert!(
        stdout.contains("2 stages (2048)") && stdout.contains("2 threads, restarts at 0.5"),
        "{stdout}"
    );
    assert!(stdout.contains("learning curve drawn to"), "{stdout}");
    let svg = std::fs::read_to_string(&plot).expect("a plot");
    let net = NTupleNetwork::load(&out).expect("a network");
    assert!(
        svg.starts_with("<svg") && svg.contains("games trained"),
        "{svg}"
    );
    assert_eq!((net.games(), net.stages().count()), (40, 2));
    // Two stages do not split again into others.
    let run = ai2048(&[
        "train",
        "--out",
        path(&out),
        "--resume",
        "--stages",
        "4096",
        "--games",
        "1",
        "-q",
    ]);
    assert!(
        text(&run.stderr).contains("only a one-stage network splits"),
        "{}",
        text(&run.stderr)
    );
    // The restarts trained more moves than the games played.
    let trained: u64 = stdout
        .split(" trained moves")
        .next()
        .and_then(|s| s.rsplit(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no trained moves in {stdout}"));
    assert!(trained > 40 * 100, "{stdout}");
    // A one-stage network splits, each stage starting from its tables.
    let one = temp_path("one-stage");
    train(&one, "20", &[]);
    let stdout = train(&one, "5", &["--resume", "--stages", "16384"]);
    assert!(stdout.contains("2 stages (16384)"), "{stdout}");
    let split = NTupleNetwork::load(&one).expect("a network");
    let _ = (
        std::fs::remove_file(&out),
        std::fs::remove_file(&plot),
        std::fs::remove_file(&one),
    );
    assert_eq!((split.games(), split.stages().count()), (25, 2));
}

#[test]
fn players_play_with_the_trained_network() {
    let out = temp_path("play");
    train(&out, "20", &[]);
    let spec = format!("greedy:network={}", path(&out));
    let run = ai2048(&["bench", "--ai", &spec, "--num-games", "2", "-q"]);
    let _ = std::fs::remove_file(&out);
    assert_prints(&run, "games         2");
}

#[test]
fn bad_arguments_and_files_are_clear_errors() {
    let existing = temp_path("existing");
    train(&existing, "1", &[]);
    let corrupt = temp_path("corrupt");
    let mut bytes = std::fs::read(&existing).expect("read");
    bytes.truncate(bytes.len() - 100);
    std::fs::write(&corrupt, &bytes).expect("written");
    let missing = temp_path("missing");
    let in_missing_dir = temp_path("dir").join("net.bin");
    let cases: &[(&[&str], &str)] = &[
        (
            &["--out", path(&existing)],
            "exists: give --resume to go on training it",
        ),
        (
            &["--out", path(&missing), "--resume"],
            "--resume: cannot read",
        ),
        (
            &["--out", path(&corrupt), "--resume"],
            "the network file is corrupt: the file ends in the coherence of tuple 5",
        ),
        (
            &["--out", path(&existing), "--resume", "--tuples", "4x6"],
            "--tuples: ",
        ),
        (
            &["--out", path(&existing), "--resume", "--init", "5"],
            "--init: only a new network",
        ),
        (
            &["--out", path(&missing), "--stages", "9,3"],
            "thresholds must increase",
        ),
        (
            &["--out", path(&missing), "--init", "inf"],
            "--init must be a number",
        ),
        (
            &["--out", path(&missing), "--plot", "curve.pdf"],
            "name it .svg or .png",
        ),
        (
            &["--out", path(&missing), "--tuples", "0,1,1"],
            "cell 1 comes twice",
        ),
        (
            &["--out", path(&missing), "--tuples", "huge"],
            "unknown tuple set \"huge\"",
        ),
        (&["--out", path(&in_missing_dir)], "does not exist"),
        (
            &["--out", path(&missing), "--alpha", "2"],
            "--alpha must be above 0",
        ),
        (
            &["--out", path(&missing), "--games", "0"],
            "--games must be at least 1",
        ),
        (&["--out", path(&missing), "--bogus"], "unexpected argument"),
    ];
    assert_clear_errors("train", ["--report", "5"], cases);
    assert!(!missing.exists());
    // A refused resume leaves the file as it was.
    assert_eq!(std::fs::read(&corrupt).expect("read"), bytes);
    let _ = (
        std::fs::remove_file(&existing),
        std::fs::remove_file(&corrupt),
    );
}

#[cfg(unix)]
#[test]
fn ctrl_c_writes_the_network_and_exits_130() {
    let out = temp_path("interrupted");
    let line = [
        "train",
        "--tuples",
        "small",
        "--games",
        "100000000",
        "--report",
        "5",
        "--save-every",
        "1",
        "-q",
        "--out",
    ];
    let mut args = line.to_vec();
    args.push(path(&out));
    // The network is written at every save: once it is there, the handler is in. A
    // save made while the run goes on says how far it got, as a run killed then
    // would leave it.
    let mut saved_notes = String::new();
    let stdout = common::interrupt(&args, |_| {
        if let Ok(net) = NTupleNetwork::load(&out) {
            saved_notes = net.notes().to_owned();
        }
        !saved_notes.is_empty()
    });
    assert_eq!(saved_notes.lines().count(), 1, "{saved_notes}");
    assert!(
        saved_notes.contains(" trained moves, 1 thread") || saved_notes.contains(" threads, "),
        "{saved_notes}"
    );
    assert!(saved_notes.contains(" s so far, ai2048 "), "{saved_notes}");
    let games: u64 = stdout
        .lines()
        .find_map(|l| l.split_once("; the network has "))
        .and_then(|(_, rest)| rest.split_whitespace().next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no count of games in {stdout}"));
    assert!(stdout.contains(", interrupted;"), "{stdout}");
    let net = NTupleNetwork::load(&out).expect("a whole network");
    let _ = std::fs::remove_file(&out);
    assert_eq!(net.games(), games);
    // The last save's line replaced the progress line.
    assert_eq!(net.notes().lines().count(), 1, "{}", net.notes());
    assert!(!net.notes().contains("so far"), "{}", net.notes());
    let moves: u64 = net
        .notes()
        .split_once(" trained moves")
        .and_then(|(head, _)| head.rsplit(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no trained moves in {}", net.notes()));
    assert!(moves >= games, "{moves} trained moves for {games} games");
}

#[test]
fn a_network_packs_for_play_and_describes_itself() {
    let trained = temp_path("to-pack");
    train(&trained, "30", &[]);
    let packed = common::temp_path("packed", "np");
    let run = ai2048(&["net", "pack", path(&trained), path(&packed), "--level", "3"]);
    assert!(run.status.success(), "{}", text(&run.stderr));
    let stdout = text(&run.stdout);
    assert!(stdout.contains("format    packed: i16"), "{stdout}");
    assert!(stdout.contains("games     30"), "{stdout}");
    assert!(stdout.contains("ai2048 train --tuples small"), "{stdout}");
    // Much smaller than the trained file, which keeps f32 weights and their coherence.
    let (big, small) = (
        std::fs::metadata(&trained).expect("there").len(),
        std::fs::metadata(&packed).expect("there").len(),
    );
    assert!(small * 10 < big, "{small} against {big}");
    let run = ai2048(&["net", "info", path(&trained)]);
    assert!(
        text(&run.stdout).contains("format    trained: f32"),
        "{}",
        text(&run.stdout)
    );
    // Players take either kind.
    for file in [&trained, &packed] {
        let spec = format!("greedy:network={}", path(file));
        let run = ai2048(&["bench", "--ai", &spec, "--num-games", "2", "-q"]);
        assert!(run.status.success(), "{}", text(&run.stderr));
    }
    // Damage is named, with the file.
    let mut bytes = std::fs::read(&packed).expect("read");
    let at = bytes.len() / 2;
    bytes[at] ^= 1;
    std::fs::write(&packed, &bytes).expect("written");
    let run = ai2048(&["net", "info", path(&packed)]);
    assert!(!run.status.success());
    let stderr = text(&run.stderr);
    assert!(
        stderr.contains(path(&packed)) && stderr.contains("checksum does not match"),
        "{stderr}"
    );
    let run = ai2048(&[
        "net",
        "pack",
        path(&trained),
        path(&packed),
        "--level",
        "30",
    ]);
    assert!(text(&run.stderr).contains("--level must be from 1 to 22"));
    // Coarser steps make smaller files; a step must be above 0.
    let coarse = common::temp_path("packed-coarse", "np");
    let run = ai2048(&["net", "pack", path(&trained), path(&coarse), "--step", "64"]);
    assert!(run.status.success(), "{}", text(&run.stderr));
    let fine = common::temp_path("packed-fine", "np");
    let run = ai2048(&["net", "pack", path(&trained), path(&fine)]);
    assert!(run.status.success(), "{}", text(&run.stderr));
    let size = |p: &Path| std::fs::metadata(p).expect("there").len();
    assert!(
        size(&coarse) < size(&fine),
        "{} against {}",
        size(&coarse),
        size(&fine)
    );
    let run = ai2048(&["net", "pack", path(&trained), path(&coarse), "--step", "0"]);
    assert!(
        text(&run.stderr).contains("--step must be a weight magnitude above 0, not 0"),
        "{}",
        text(&run.stderr)
    );
    let _ = (
        std::fs::remove_file(&trained),
        std::fs::remove_file(&packed),
        std::fs::remove_file(&coarse),
        std::fs::remove_file(&fine),
    );
}

#[test]
fn the_carousel_goes_on_from_the_file() {
    let out = temp_path("carousel");
    let stdout = train(&out, "30", &["--carousel", "256,512"]);
    assert!(
        stdout.contains("carousel over the stages 256,512"),
        "{stdout}"
    );
    let pools = stdout
        .lines()
        .find(|l| l.starts_with("carousel pools: 256: "))
        .unwrap_or_else(|| panic!("no pools in {stdout}"));
    let net = NTupleNetwork::load(&out).expect("reads");
    let kept = net.carousel().expect("the file keeps the carousel");
    assert!(!kept.pools()[0].boards.is_empty(), "{pools}");
    // Resumed without --carousel, it goes on with the file's.
    let again = train(&out, "10", &["--resume"]);
    assert!(
        again.contains("carousel over the stages 256,512"),
        "{again}"
    );
    train_fails(
        &out,
        &["--resume", "--carousel", "1024"],
        "goes round the stages 256,512 already",
    );
    let _ = std::fs::remove_file(&out);
    for bad in ["8192,4096", "x", ""] {
        let fresh = temp_path("carousel-bad");
        train_fails(&fresh, &["--carousel", bad], "--carousel");
        assert!(!fresh.exists());
    }
}

#[test]
fn pools_by_fills_the_pools_from_another_players_games() {
    let pooled = |name: &str, threads: &str| {
        let out = temp_path(name);
        let stdout = train(
            &out,
            "4",
            &[
                "--carousel",
                "256,512",
                "--pools-by",
                "greedy:eval=simple",
                "--pool-games",
                "6",
                "-t",
                threads,
            ],
        );
        let _ = std::fs::remove_file(&out);
        assert!(
            stdout.contains("filling the carousel's pools from 6 games of greedy:eval=simple\n"),
            "{stdout}"
        );
        // The pools as filled, before the training games add to them.
        let filled = stdout
            .lines()
            .find(|l| l.starts_with("carousel pools: 256: "))
            .unwrap_or_else(|| panic!("no pools in {stdout}"))
            .to_owned();
        assert!(stdout.find(&filled) < stdout.find("games  "), "{stdout}");
        filled
    };
    let filled = pooled("pools-1", "1");
    // Six games, each entering 256 at most once: six entries at most, and some.
    let entered: u64 = filled["carousel pools: 256: ".len()..]
        .split_whitespace()
        .nth(2)
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{filled}"));
    assert!((1..=6).contains(&entered), "{filled}");
    // The pools do not depend on the threads that played their games.
    assert_eq!(pooled("pools-2", "2"), filled);

    let fresh = temp_path("pools-bad");
    for (more, message) in [
        (&["--pools-by", "greedy"][..], "give --carousel"),
        (&["--pool-games", "3"], "--pools-by"),
        (
            &["--carousel", "256", "--pools-by", "nope"],
            "unknown player",
        ),
        (
            &[
                "--carousel",
                "256",
                "--pools-by",
                "greedy",
                "--pool-games",
                "0",
            ],
            "--pool-games",
        ),
    ] {
        train_fails(&fresh, more, message);
        assert!(!fresh.exists(), "{more:?}");
    }
}

#[test]
fn networks_join_into_stages() {
    let early = temp_path("join-early");
    let late = temp_path("join-late");
    train(&early, "20", &[]);
    train(&late, "30", &[]);
    let joined = temp_path("joined");
    let run = ai2048(&[
        "net",
        "join",
        path(&early),
        path(&late),
        "--stages",
        "256",
        "--out",
        path(&joined),
    ]);
    assert!(run.status.success(), "{}", text(&run.stderr));
    let stdout = text(&run.stdout);
    assert!(
        stdout.contains("stages    2 (from tile sums 256)"),
        "{stdout}"
    );
    let (a, b) = (
        NTupleNetwork::load(&early).expect("reads"),
        NTupleNetwork::load(&late).expect("reads"),
    );
    let net = NTupleNetwork::load(&joined).expect("reads");
    let board = |t: &str| t.parse::<ai2048_engine::Board>().expect("a board");
    let opening = board("2 4 8 0/0 0 0 0/0 0 0 0/0 0 2 0");
    let later = board("256 4 8 0/0 0 0 0/0 0 0 0/0 0 2 0");
    assert_eq!(net.value(opening), a.value(opening));
    assert_eq!(net.value(later), b.value(later));
    assert_ne!(a.value(later), b.value(later), "the parts differ");
    assert_eq!(net.games(), 50);
    assert!(net.notes().contains("net join"), "{}", net.notes());
    // Joined networks pack like trained ones.
    let packed = common::temp_path("joined", "np");
    let run = ai2048(&["net", "pack", path(&joined), path(&packed), "--level", "3"]);
    assert!(run.status.success(), "{}", text(&run.stderr));
    // Bad joins are named, and write nothing.
    let bad = temp_path("join-bad");
    for (args, message) in [
        (
            vec![path(&early), path(&late)],
            "--stages 256,512 makes 3 stages",
        ),
        (
            vec![path(&early), path(&joined), path(&late)],
            "makes 3 stages, but the networks bring 4",
        ),
        (
            vec![path(&early), path(&joined)],
            "network 2's own stages begin at 256, where the joined stages it would fill begin at 512",
        ),
    ] {
        let mut line = vec!["net", "join"];
        line.extend(args);
        line.extend(["--stages", "256,512", "--out", path(&bad)]);
        let run = ai2048(&line);
        let stderr = text(&run.stderr);
        assert!(
            !run.status.success() && stderr.contains(message),
            "{stderr}"
        );
        assert!(!bad.exists());
    }
    // A staged network fills its own stages, where they begin.
    let three = temp_path("join-three");
    let run = ai2048(&[
        "net",
        "join",
        path(&early),
        path(&joined),
        "--stages",
        "128,256",
        "--out",
        path(&three),
    ]);
    assert!(run.status.success(), "{}", text(&run.stderr));
    let net = NTupleNetwork::load(&three).expect("reads");
    assert_eq!(net.stages().thresholds(), [128, 256]);
    let middle = board("128 4 8 0/0 0 0 0/0 0 0 0/0 0 2 0");
    assert_eq!(net.value(later), b.value(later));
    assert_eq!(net.value(middle), a.value(middle));
    assert_eq!(net.value(opening), a.value(opening));
    assert!(
        net.notes()
            .contains("joined: stages 2 to 3 (from tile sum 128) are a network of 2 stages (256)"),
        "{}",
        net.notes()
    );
    let other = temp_path("join-other");
    let mixed = temp_path("join-mixed");
    let run = ai2048(&[
        "train",
        "--tuples",
        "0,1,2,3",
        "--games",
        "2",
        "-q",
        "-t",
        "1",
        "--out",
        path(&other),
    ]);
    assert!(run.status.success(), "{}", text(&run.stderr));
    let run = ai2048(&[
        "net",
        "join",
        path(&early),
        path(&other),
        "--stages",
        "256",
        "--out",
        path(&mixed),
    ]);
    // Networks of other tuples join too: each stage reads its own, and the packed
    // file keeps them.
    assert!(run.status.success(), "{}", text(&run.stderr));
    let mixed_packed = temp_path("join-mixed-packed");
    let run = ai2048(&[
        "net",
        "pack",
        path(&mixed),
        path(&mixed_packed),
        "--level",
        "1",
    ]);
    assert!(run.status.success(), "{}", text(&run.stderr));
    let info = text(&run.stdout);
    assert!(
        info.contains("in stage 1 (") && info.contains("1 in stage 2 (0,1,2,3)"),
        "{info}"
    );
    // Training goes on with a mixed network, and says each stage's tuples.
    let small = ai2048_ai::ntuple::parse_tuples("small")
        .expect("a known set")
        .len();
    let run = ai2048(&[
        "train",
        "--out",
        path(&mixed),
        "--resume",
        "--games",
        "1",
        "-q",
        "-t",
        "1",
    ]);
    assert!(run.status.success(), "{}", text(&run.stderr));
    let header = text(&run.stdout);
    assert!(
        header.starts_with(&format!("ai2048 train: {small} | 1 tuples (")),
        "{header}"
    );
    for file in [
        &early,
        &late,
        &joined,
        &packed,
        &three,
        &other,
        &mixed,
        &mixed_packed,
    ] {
        let _ = std::fs::remove_file(file);
    }
}

#[test]
fn a_policy_plays_the_training_games() {
    let out = temp_path("policy");
    let again = temp_path("policy-again");
    let own = temp_path("policy-own");
    let policy = ["--policy", "greedy:eval=simple"];
    let stdout = train(&out, "3", &policy);
    assert!(
        stdout.contains(", the moves of greedy:eval=simple,"),
        "{stdout}"
    );
    // On one thread the same games, the same network; without the policy, other games.
    train(&again, "3", &policy);
    train(&own, "3", &[]);
    let weights = |p: &Path| NTupleNetwork::load(p).expect("written").weights();
    assert!(
        weights(&out) == weights(&again),
        "the same games, the same weights"
    );
    assert!(weights(&out) != weights(&own), "the network's own games");
    for p in [&out, &again, &own] {
        let _ = std::fs::remove_file(p);
    }

    let fresh = temp_path("policy-bad");
    for (more, message) in [
        (&["--policy", "nope"][..], "unknown player"),
        (
            &["--policy", "greedy", "--search", "1"],
            "cannot be used with",
        ),
        (
            &["--policy", "expectimax:depth=1,tables=/no/such/folder.dt"],
            "--policy",
        ),
    ] {
        train_fails(&fresh, more, message);
        assert!(!fresh.exists(), "{more:?}");
    }
}
