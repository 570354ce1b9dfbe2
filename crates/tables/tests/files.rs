//! Table files: written whole, read back the same, refused with a clear error when
//! foreign, truncated, damaged or unfinished, and a stopped build goes on to the same
//! table as one that never stopped.

use std::fs;
use std::time::Duration;

use ai2048_tables::{
    build, header_len, partial_path, BuildOutcome, Encoding, Layout, Table, GOALS_HEADER_LEN,
    HEADER_LEN,
};

fn layout() -> Layout {
    Layout::new("xxxx/xxxx/xx../..tt".parse().unwrap(), 32).unwrap()
}

fn built(dir: &std::path::Path) -> std::path::PathBuf {
    let path = dir.join("t.table");
    assert_eq!(
        build(
            &layout(),
            &path,
            Encoding::F32,
            Duration::from_secs(3600),
            |_| true
        )
        .unwrap(),
        BuildOutcome::Finished
    );
    path
}

/// Builds `pattern` to `target` in `dir`, checks that its file is of format `version`
/// and reads back as the same layout, and returns its path and bytes.
fn built_as(
    dir: &std::path::Path,
    pattern: &str,
    target: u32,
    version: u8,
) -> (std::path::PathBuf, Vec<u8>) {
    let layout = Layout::new(pattern.parse().unwrap(), target).unwrap();
    let path = dir.join(format!("{target}.table"));
    let outcome = build(
        &layout,
        &path,
        Encoding::F32,
        Duration::from_secs(3600),
        |_| true,
    );
    assert_eq!(outcome.unwrap(), BuildOutcome::Finished);
    let bytes = fs::read(&path).unwrap();
    assert_eq!(bytes[8], version, "{pattern}");
    let table = Table::open(&path).unwrap();
    assert_eq!(table.layout(), &layout);
    assert_eq!(table.layout().pattern().to_string(), pattern);
    (path, bytes)
}

fn open_error(path: &std::path::Path) -> String {
    Table::open(path).unwrap_err().to_string()
}

#[test]
fn a_built_file_holds_what_the_solver_finds() {
    let dir = tempfile::tempdir().unwrap();
    let path = built(dir.path());
    let table = Table::open(&path).unwrap();
    let solved = Table::solve(layout());
    let board = "65536 32768 16384 8192/512 1024 2048 4096/256 128 2 0/0 2 4 8"
        .parse()
        .unwrap();
    assert_eq!(table.query(board), solved.query(board));
    assert!(table.query(board).is_some());
    assert!(!partial_path(&path).exists());
}

#[test]
fn a_build_a_layer_at_a_time_holds_the_values_of_the_solver_in_memory_exactly() {
    let dir = tempfile::tempdir().unwrap();
    for (pattern, target) in [
        ("xxxx/xxxx/xx../..tt", 32),
        ("xxxx/xxx./1.../2.t.", 32),
        ("xxx./xx1./1.../.... ..../..1./.11./....", 8),
        ("xxxx/xxxx/xxx./11t2", 16),
    ] {
        let layout = Layout::new(pattern.parse().unwrap(), target).unwrap();
        let path = dir.path().join("t.table");
        build(
            &layout,
            &path,
            Encoding::F32,
            Duration::from_secs(3600),
            |_| true,
        )
        .unwrap();
        let (_, built) = ai2048_tables::read_values(&path).unwrap();
        let solved = ai2048_tables::solve(&layout);
        assert_eq!(built.len(), solved.len());
        let same = built
            .iter()
            .zip(&solved)
            .all(|(a, b)| a.to_bits() == b.to_bits());
        assert!(same, "{pattern} to {target}");
        assert!(solved.iter().any(|&v| v > 0.0 && v < 1.0), "{pattern}");
    }
}

#[test]
fn a_stopped_build_in_each_encoding_goes_on_to_the_same_bytes_and_refuses_another() {
    let dir = tempfile::tempdir().unwrap();
    for encoding in [Encoding::U16, Encoding::U8, Encoding::Moves] {
        let whole = dir.path().join("whole.table");
        build(
            &layout(),
            &whole,
            encoding,
            Duration::from_secs(3600),
            |_| true,
        )
        .unwrap();
        let path = dir.path().join("stopped.table");
        // Stopped three times on the way, each run going on from the last.
        for stop_after in [5, 40, 3] {
            let mut layers = 0;
            let outcome = build(
                &layout(),
                &path,
                encoding,
                Duration::from_secs(3600),
                |_| {
                    layers += 1;
                    layers < stop_after
                },
            )
            .unwrap();
            assert!(
                matches!(outcome, BuildOutcome::Stopped { .. }),
                "{outcome:?}"
            );
        }
        // Another encoding refuses the progress, and leaves it.
        let other = if encoding == Encoding::U8 {
            Encoding::U16
        } else {
            Encoding::U8
        };
        let err = build(&layout(), &path, other, Duration::ZERO, |_| true)
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("build in") && err.contains("remove it"),
            "{err}"
        );
        assert!(partial_path(&path).exists());
        let outcome = build(&layout(), &path, encoding, Duration::ZERO, |_| true).unwrap();
        assert_eq!(outcome, BuildOutcome::Finished);
        assert_eq!(fs::read(&path).unwrap(), fs::read(&whole).unwrap());
        assert!(!partial_path(&path).exists());
    }
}

#[test]
fn a_damaged_progress_file_is_refused_with_what_to_do() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.table");
    let outcome = build(&layout(), &path, Encoding::U16, Duration::ZERO, |p| {
        p.layer > 30
    });
    assert!(matches!(outcome, Ok(BuildOutcome::Stopped { .. })));
    let partial = partial_path(&path);
    let mut bytes = fs::read(&partial).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 0x40;
    fs::write(&partial, &bytes).unwrap();
    let err = build(&layout(), &path, Encoding::U16, Duration::ZERO, |_| true)
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("damaged") && err.contains("remove it"),
        "{err}"
    );
    // Cut short, as a build killed while writing would not leave it (files are
    // renamed whole), but a copy might.
    fs::write(&partial, &bytes[..bytes.len() - 8]).unwrap();
    let err = build(&layout(), &path, Encoding::U16, Duration::ZERO, |_| true)
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("truncated") && err.contains("remove it"),
        "{err}"
    );
}

#[test]
fn a_capped_pattern_is_written_as_version_2_and_one_without_caps_as_version_1() {
    let dir = tempfile::tempdir().unwrap();
    let plain = built(dir.path());
    assert_eq!(
        fs::read(&plain).unwrap()[8],
        1,
        "readable by builds from before caps"
    );
    let (path, bytes) = built_as(dir.path(), "xxxx/xxxx/xx1./2.tt", 32, 2);
    // A cap the target leaves no room for is refused, not misread.
    let mut bad = bytes.clone();
    bad[44..52].copy_from_slice(&(9u64 << 40).to_le_bytes());
    let sum = crc32fast::hash(&bad[..60]);
    bad[60..64].copy_from_slice(&sum.to_le_bytes());
    fs::write(&path, &bad).unwrap();
    let err = open_error(&path);
    assert!(err.contains("cap 9 in row 3, column 3"), "{err}");
}

#[test]
fn a_cell_capped_at_2_is_written_as_version_3_and_refused_from_version_2() {
    let dir = tempfile::tempdir().unwrap();
    let (path, bytes) = built_as(dir.path(), "xxxx/xxxx/xx3./2.tt", 16, 3);
    // The same table as an older build wrote it (version 2) held wrong values.
    let mut old = bytes.clone();
    old[8] = 2;
    let sum = crc32fast::hash(&old[..60]);
    old[60..64].copy_from_slice(&sum.to_le_bytes());
    fs::write(&path, &old).unwrap();
    let err = open_error(&path);
    assert!(err.contains("older ai2048 (format version 2)"), "{err}");
    assert!(err.contains("build it again"), "{err}");
}

#[test]
fn a_pattern_with_goals_is_written_as_version_4_with_its_goals() {
    let dir = tempfile::tempdir().unwrap();
    let pattern = "xxxx/xxx1/xx12/.222 ..../...1/..12/.... ..../..../..12/...2";
    let (path, bytes) = built_as(dir.path(), pattern, 32, 4);
    let layout = Layout::new(pattern.parse().unwrap(), 32).unwrap();
    assert_eq!(bytes.len() as u64, Encoding::F32.file_len(&layout));
    assert_eq!(header_len(&layout), GOALS_HEADER_LEN);
    let solved = Table::solve(layout);
    let board = "65536 32768 16384 8192/512 1024 2048 2/256 128 4 2/0 2 2 4"
        .parse()
        .unwrap();
    let query = Table::open(&path).unwrap().query(board);
    assert!(query.is_some());
    assert_eq!(query, solved.query(board));

    // A goal changed in the extended header: its checksum tells.
    let mut changed = bytes.clone();
    changed[HEADER_LEN + 1] ^= 1;
    fs::write(&path, &changed).unwrap();
    assert!(open_error(&path).contains("header is damaged"));
    // A goal count of 0 in a version 4 header, checksum mended: refused.
    let mut changed = bytes.clone();
    changed[18] = 0;
    let mut crc = crc32fast::Hasher::new();
    crc.update(&changed[..60]);
    crc.update(&changed[64..128]);
    changed[60..64].copy_from_slice(&crc.finalize().to_le_bytes());
    fs::write(&path, &changed).unwrap();
    assert!(
        open_error(&path).contains("0 goals"),
        "{}",
        open_error(&path)
    );
    // Cut within the extended header.
    fs::write(&path, &bytes[..100]).unwrap();
    assert!(
        open_error(&path).contains("truncated"),
        "{}",
        open_error(&path)
    );
}

#[test]
fn foreign_truncated_damaged_and_unfinished_files_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let path = built(dir.path());
    let good = fs::read(&path).unwrap();

    let other = dir.path().join("other");
    fs::write(
        &other,
        b"hello, this is not a table at all, not even close to one....",
    )
    .unwrap();
    assert!(
        open_error(&other).contains("not an ai2048 endgame table"),
        "{}",
        open_error(&other)
    );
    fs::write(&other, b"short").unwrap();
    assert!(open_error(&other).contains("not an ai2048 endgame table"));

    fs::write(&other, &good[..good.len() - 4]).unwrap();
    assert!(
        open_error(&other).contains("truncated"),
        "{}",
        open_error(&other)
    );

    // One byte changed: in the values, in the header, in the version.
    for (at, byte, message) in [
        (
            HEADER_LEN + 100,
            good[HEADER_LEN + 100] ^ 1,
            "values are damaged",
        ),
        (20, good[20] ^ 1, "header is damaged"),
        (8, 9, "version 9"),
    ] {
        let mut changed = good.clone();
        changed[at] = byte;
        fs::write(&other, &changed).unwrap();
        let err = open_error(&other);
        assert!(err.contains(message), "{err}");
    }

    assert!(open_error(&dir.path().join("missing")).contains("missing"));
}

#[test]
fn a_stopped_build_goes_on_to_the_same_table() {
    let dir = tempfile::tempdir().unwrap();
    let whole = fs::read(built(dir.path())).unwrap();

    let path = dir.path().join("stopped.table");
    let mut layers = 0;
    let outcome = build(
        &layout(),
        &path,
        Encoding::F32,
        Duration::from_secs(3600),
        |_| {
            layers += 1;
            layers < 20
        },
    )
    .unwrap();
    let BuildOutcome::Stopped { layers_left } = outcome else {
        panic!("{outcome:?}")
    };
    assert!(layers_left > 0);
    assert!(!path.exists());
    // The partial file is a table file, but an unfinished one.
    let partial = partial_path(&path);
    assert!(
        open_error(&partial).contains("unfinished"),
        "{}",
        open_error(&partial)
    );

    // Another table's build refuses it.
    let other = Layout::new("xxxx/xxxx/xx../..tt".parse().unwrap(), 64).unwrap();
    let err = build(
        &other,
        &path,
        Encoding::F32,
        Duration::from_secs(3600),
        |_| true,
    )
    .unwrap_err();
    assert!(err.to_string().contains("another table"), "{err}");

    // Checkpoints at every layer on the way.
    let mut resumed_from = None;
    let outcome = build(&layout(), &path, Encoding::F32, Duration::ZERO, |p| {
        resumed_from.get_or_insert(p.layer);
        true
    })
    .unwrap();
    assert_eq!(outcome, BuildOutcome::Finished);
    assert_eq!(resumed_from, Some(layers_left - 1));
    assert_eq!(fs::read(&path).unwrap(), whole);
    assert!(!partial.exists());
}

#[test]
fn a_table_of_moves_is_an_eighth_of_u16_and_plays_the_solvers_best_move() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("moves.table");
    let outcome = build(
        &layout(),
        &path,
        Encoding::Moves,
        Duration::from_secs(3600),
        |_| true,
    );
    assert_eq!(outcome.unwrap(), BuildOutcome::Finished);
    assert_eq!(
        fs::metadata(&path).unwrap().len(),
        HEADER_LEN as u64 + layout().len().div_ceil(4)
    );
    let moves = Table::open(&path).unwrap();
    assert!(!moves.has_values());
    let exact = Table::solve(layout());
    assert!(exact.has_values());
    // Every arrangement of the six moving cells (the target cells below the target),
    // beside fixed tiles that no other symmetry can take for the pattern's.
    let small = [0, 2, 4, 8, 16];
    let mut answered = 0;
    for code in 0..small.len().pow(6) {
        let mut cells = [0u32; 6];
        let mut rest = code;
        for c in &mut cells {
            *c = small[rest % small.len()];
            rest /= small.len();
        }
        let [a, b, c, d, e, f] = cells;
        let text =
            format!("65536 32768 16384 8192/512 1024 2048 4096/256 128 {a} {b}/{c} {d} {e} {f}");
        let board: ai2048_engine::Board = text.parse().unwrap();
        let (want, got) = (exact.query(board), moves.query(board));
        assert_eq!(want.is_some(), got.is_some(), "{text}");
        let (Some(want), Some(got)) = (want, got) else {
            continue;
        };
        assert_eq!(
            want.best().map(|(d, _)| d),
            got.best().map(|(d, _)| d),
            "{text}"
        );
        if let Some((best, _)) = got.best() {
            answered += 1;
            for (dir, (x, y)) in ai2048_engine::Dir::ALL
                .into_iter()
                .zip(got.moves.iter().zip(want.moves))
            {
                assert_eq!(
                    x.is_some(),
                    y.is_some(),
                    "{text}: {dir:?} stays in the table"
                );
                // Its move 1, the others 0 (1 for a move that meets the goal at once).
                let fine = match *x {
                    Some(v) if dir == best => v == 1.0,
                    Some(v) => v == 0.0 || (v == 1.0 && y == Some(1.0)),
                    None => true,
                };
                assert!(fine, "{text}: {dir:?} is {x:?}");
            }
        }
        assert_eq!(
            moves.value(board),
            None,
            "a table of moves holds no probability"
        );
    }
    assert!(answered > 1000, "{answered}");
    let err = ai2048_tables::reencode(&path, &dir.path().join("u8.table"), Encoding::U8)
        .unwrap_err()
        .to_string();
    assert!(err.contains("best move, not probabilities"), "{err}");
}

#[test]
fn a_compact_table_is_half_the_size_and_within_a_65535th() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("compact.table");
    build(
        &layout(),
        &path,
        Encoding::U16,
        Duration::from_secs(3600),
        |_| true,
    )
    .unwrap();
    let whole = fs::metadata(built(dir.path())).unwrap().len();
    assert_eq!(
        fs::metadata(&path).unwrap().len() - HEADER_LEN as u64,
        (whole - HEADER_LEN as u64) / 2
    );
    let compact = Table::open(&path).unwrap();
    let exact = Table::solve(layout());
    let board = "65536 32768 16384 8192/512 1024 2048 4096/256 128 4 0/2 2 8 16"
        .parse()
        .unwrap();
    let (a, b) = (compact.query(board).unwrap(), exact.query(board).unwrap());
    for (x, y) in a.moves.iter().zip(b.moves) {
        assert_eq!(x.is_some(), y.is_some());
        if let (Some(x), Some(y)) = (x, y) {
            assert!((x - y).abs() <= 1.0 / 65535.0, "{x} against {y}");
        }
    }
}

/// The largest gap between two neighbouring levels of `Encoding::U8` around `p`.
fn u8_step(p: f64) -> f64 {
    let levels = Encoding::u8_levels();
    let i = levels.partition_point(|&l| f64::from(l) < p).clamp(1, 255);
    levels[i.saturating_sub(1)..=(i + 1).min(255)]
        .windows(2)
        .map(|w| f64::from(w[1] - w[0]))
        .fold(0.0, f64::max)
}

#[test]
fn a_table_converted_to_u8_is_a_quarter_of_f32_and_within_half_a_level() {
    let dir = tempfile::tempdir().unwrap();
    let src = built(dir.path());
    let dst = dir.path().join("u8.table");
    let header = ai2048_tables::reencode(&src, &dst, Encoding::U8).unwrap();
    assert_eq!(header.encoding, Encoding::U8);
    let (f32_len, u8_len) = (
        fs::metadata(&src).unwrap().len() - HEADER_LEN as u64,
        fs::metadata(&dst).unwrap().len() - HEADER_LEN as u64,
    );
    assert_eq!(u8_len * 4, f32_len);
    let (_, exact) = ai2048_tables::read_values(&src).unwrap();
    let (_, coarse) = ai2048_tables::read_values(&dst).unwrap();
    let levels = Encoding::u8_levels();
    for (&x, &y) in exact.iter().zip(&coarse) {
        assert!(levels.contains(&y), "{y} is not a level");
        let gap = (f64::from(x) - f64::from(y)).abs();
        assert!(
            gap <= u8_step(f64::from(x)) / 2.0 + 1e-7,
            "{x} stored as {y}"
        );
        if x == 0.0 || x == 1.0 {
            assert_eq!(x, y, "0 and 1 are kept exactly");
        }
    }
    // Converting in place gives the same file as converting beside it.
    ai2048_tables::reencode(&src, &src, Encoding::U8).unwrap();
    assert_eq!(fs::read(&src).unwrap(), fs::read(&dst).unwrap());
    assert!(Table::open(&src).is_ok());
}

#[test]
fn converting_a_damaged_or_unfinished_table_fails_and_leaves_the_output_alone() {
    let dir = tempfile::tempdir().unwrap();
    let src = built(dir.path());
    let dst = dir.path().join("out.table");
    fs::write(&dst, b"kept").unwrap();
    let mut bytes = fs::read(&src).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 0x55;
    fs::write(&src, &bytes).unwrap();
    let err = ai2048_tables::reencode(&src, &dst, Encoding::U8)
        .unwrap_err()
        .to_string();
    assert!(err.contains("damaged"), "{err}");
    assert_eq!(fs::read(&dst).unwrap(), b"kept");
    assert_eq!(
        fs::read_dir(dir.path()).unwrap().count(),
        2,
        "no temporary file is left"
    );
    // An unfinished build: its header says layers are left.
    let stopped = dir.path().join("stopped.table");
    let outcome = build(&layout(), &stopped, Encoding::F32, Duration::ZERO, |_| {
        false
    });
    assert!(matches!(outcome, Ok(BuildOutcome::Stopped { .. })));
    let partial = partial_path(&stopped);
    let err = ai2048_tables::reencode(&partial, &dst, Encoding::U8)
        .unwrap_err()
        .to_string();
    assert!(err.contains("unfinished"), "{err}");
    assert_eq!(fs::read(&dst).unwrap(), b"kept");
}
