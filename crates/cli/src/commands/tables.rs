//! `ai2048 tables`: builds the endgame tables into the user's cache, and lists,
//! describes, verifies and queries them.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use ai2048_engine::{Board, Dir};
use ai2048_tables::{
    build, build_memory, builtin, default_dir, default_set, existing, large_set, partial_path,
    read_header, reencode, table_files, BuildOutcome, Encoding, Existing, Layout, Pattern, Query,
    Table, FORMATIONS,
};
use anyhow::{anyhow, bail, Context, Result};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::args::{
    EncodingArg, TablesBuildArgs, TablesCommand, TablesConvertArgs, TablesDirArgs, TablesFileArgs,
    TablesQueryArgs, TablesVerifyArgs,
};
use crate::interrupt::{catch_ctrl_c, Outcome};

/// Runs `ai2048 tables build`, `list`, `info`, `verify`, `query`, `solve`, `convert` or
/// `distill`.
///
/// # Errors
///
/// A bad option, name or board, a table file that cannot be read or written or is not
/// a whole table (the message says what is wrong), or a table that fails `verify`.
pub fn run(command: &TablesCommand) -> Result<Outcome> {
    let done = |r: Result<()>| r.map(|()| Outcome::Done);
    match command {
        TablesCommand::Build(args) => build_tables(args),
        TablesCommand::List(args) => done(list(args)),
        TablesCommand::Info(args) => done(info(args)),
        TablesCommand::Verify(args) => done(verify(args)),
        TablesCommand::Query(args) => done(query(args)),
        TablesCommand::Solve(args) => done(super::solve::run(args)),
        TablesCommand::Convert(args) => done(convert(args)),
        TablesCommand::Distill(args) => super::distill::run(args),
    }
}

pub(crate) fn dir_of(args: &TablesDirArgs) -> PathBuf {
    args.dir.clone().unwrap_or_else(default_dir)
}

/// A table's file: the argument itself if it names a file or a path, else the built-in
/// table of that name in the tables folder.
fn resolve(table: &str, dir: &TablesDirArgs) -> Result<PathBuf> {
    let path = Path::new(table);
    if path.exists() || table.contains(std::path::MAIN_SEPARATOR) || table.ends_with(".table") {
        return Ok(path.to_owned());
    }
    let builtin = builtin(table).map_err(|e| anyhow!("{e} (nor is it a file)"))?;
    Ok(dir_of(dir).join(builtin.file_name()))
}

fn open(table: &TablesFileArgs) -> Result<Table> {
    let path = resolve(&table.table, &table.dir)?;
    if !path.exists() && builtin(&table.table).is_ok() {
        bail!(
            "{} is not built: `ai2048 tables build {}` builds it",
            path.display(),
            table.table
        );
    }
    Ok(Table::open(&path)?)
}

/// Bytes as the largest unit that keeps a number of at least 1: `1.4 GiB`.
pub(crate) fn bytes(n: u64) -> String {
    let units = ["bytes", "KiB", "MiB", "GiB", "TiB"];
    let mut value = n as f64;
    let mut unit = 0;
    while value >= 1024.0 && unit + 1 < units.len() {
        value /= 1024.0;
        unit += 1;
    }
    if unit == 0 {
        format!("{n} bytes")
    } else {
        format!("{value:.1} {}", units[unit])
    }
}

/// The layout of `--pattern ROWS`, its `--goal`s and `--target`.
pub(crate) fn custom_layout(rows: &str, goals: &[String], target: Option<u32>) -> Result<Layout> {
    let mut text = rows.to_owned();
    for goal in goals {
        text.push(' ');
        text.push_str(goal);
    }
    let pattern: Pattern = text.parse().map_err(|e| anyhow!("--pattern: {e}"))?;
    let target = target.context("--pattern needs --target")?;
    Layout::new(pattern, target).map_err(|e| anyhow!("--target: {e}"))
}

fn build_tables(args: &TablesBuildArgs) -> Result<Outcome> {
    let jobs: Vec<(String, Layout, PathBuf, Encoding)> = if let Some(rows) = &args.pattern {
        if !args.names.is_empty() {
            bail!("name built-in tables or give --pattern, not both");
        }
        let layout = custom_layout(rows, &args.goal, args.target)?;
        let (pattern, target) = (layout.pattern(), layout.target());
        let out = args.out.clone().context("--pattern needs --out")?;
        if out.is_dir() {
            bail!("--out {} is a folder, not a file", out.display());
        }
        let encoding = match (args.encoding, args.compact) {
            (Some(e), _) => encoding_of(e),
            (None, true) => Encoding::U16,
            (None, false) => Encoding::F32,
        };
        vec![(format!("{pattern} to {target}"), layout, out, encoding)]
    } else {
        let dir = dir_of(&args.dir);
        let tables = if args.large {
            large_set()
        } else if args.names.is_empty() {
            default_set()
        } else {
            args.names
                .iter()
                .map(|n| builtin(n).map_err(|e| anyhow!(e)))
                .collect::<Result<_>>()?
        };
        tables
            .into_iter()
            .map(|t| {
                let path = dir.join(t.file_name());
                (
                    t.name,
                    t.layout,
                    path,
                    args.encoding.map_or(t.encoding, encoding_of),
                )
            })
            .collect()
    };
    if args.checkpoint == 0 {
        bail!("--checkpoint must be at least 1 second");
    }
    let threads = args.threads.unwrap_or(0);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .context("cannot start the solver's threads")?;

    let mut todo = Vec::new();
    for job in jobs {
        let (name, layout, path, _) = &job;
        match existing(path, layout) {
            _ if args.force => todo.push(job),
            Existing::Other(other) => bail!(
                "{} holds another table ({} to {}), not {name}: --force replaces it",
                path.display(),
                other.pattern(),
                other.target()
            ),
            // A table of moves where the set asks for its probabilities (the large
            // set's open10-512 over the default set's): built again, in place.
            Existing::Built(stored) if !stored.has_values() && job.3.has_values() => {
                eprintln!(
                    "{name}: built as moves ({}); building it again with its probabilities",
                    path.display()
                );
                todo.push(job);
            }
            Existing::Built(stored) => {
                let (_, _, _, encoding) = &job;
                // A table built in a wider encoding (before the set chose a narrower
                // one) still plays; say how to store it as the build would, in less
                // disk. A narrower file is left alone: widening it adds nothing.
                let convert = if encoding.has_values() && stored.width() > encoding.width() {
                    format!(
                        "; stored as {stored}, built now as {encoding}, half the disk or less: \
                         `ai2048 tables convert {} --encoding {}`",
                        shell_word(&path.display().to_string()),
                        encoding_arg(*encoding)
                    )
                } else {
                    String::new()
                };
                eprintln!(
                    "{name}: built already ({}; --force builds it again{convert})",
                    path.display()
                );
            }
            Existing::Absent => todo.push(job),
        }
    }
    if todo.is_empty() {
        return Ok(Outcome::Done);
    }
    let size = |l: &Layout, e: Encoding| e.file_len(l);
    let states: u64 = todo.iter().map(|(_, l, _, _)| l.len()).sum();
    let disk: u64 = todo.iter().map(|(_, l, _, e)| size(l, *e)).sum();
    let (name, layout, _, encoding) = todo
        .iter()
        .max_by_key(|(_, l, _, e)| build_memory(l, *e))
        .expect("something to build");
    let memory = build_memory(layout, *encoding);
    if let Some(total) = crate::memory::total_memory() {
        if memory > total {
            bail!(
                "{name} needs {} of memory to build ({} states), more than this machine's {}: \
                 a table of fewer moving cells, a lower target or caps on the cells away from \
                 the target holds fewer states",
                bytes(memory),
                layout.len(),
                bytes(total)
            );
        }
    }
    eprintln!(
        "building {} table(s): {states} states, {} on disk, at most {} of memory, on {} thread(s)",
        todo.len(),
        bytes(disk),
        bytes(memory),
        pool.current_num_threads()
    );
    let stop = catch_ctrl_c();
    for (name, layout, path, encoding) in &todo {
        let resumed = partial_path(path).exists();
        eprintln!(
            "{name}: {} states, {} on disk, {} of memory{}",
            layout.len(),
            bytes(size(layout, *encoding)),
            bytes(build_memory(layout, *encoding)),
            if resumed {
                ", going on from the saved progress"
            } else {
                ""
            }
        );
        let bar = bar(layout.len(), !args.quiet);
        let started = Instant::now();
        let outcome = pool.install(|| {
            build(
                layout,
                path,
                *encoding,
                Duration::from_secs(args.checkpoint),
                |p| {
                    bar.set_position(p.states_done);
                    !stop.load(Ordering::SeqCst)
                },
            )
        });
        bar.finish_and_clear();
        match outcome? {
            BuildOutcome::Finished => eprintln!(
                "{name}: built into {} in {:.1} s",
                path.display(),
                started.elapsed().as_secs_f64()
            ),
            BuildOutcome::Stopped { layers_left } => {
                eprintln!(
                    "{name}: stopped with {layers_left} layers left; the progress is saved in {}, and the same command goes on from there",
                    partial_path(path).display()
                );
                return Ok(Outcome::Interrupted);
            }
        }
    }
    Ok(Outcome::Done)
}

fn encoding_of(arg: EncodingArg) -> Encoding {
    match arg {
        EncodingArg::F32 => Encoding::F32,
        EncodingArg::U16 => Encoding::U16,
        EncodingArg::U8 => Encoding::U8,
        EncodingArg::Moves => Encoding::Moves,
    }
}

/// The `--encoding` value that names `encoding`.
fn encoding_arg(encoding: Encoding) -> &'static str {
    match encoding {
        Encoding::F32 => "f32",
        Encoding::U16 => "u16",
        Encoding::U8 => "u8",
        Encoding::Moves => "moves",
    }
}

/// `word` as a POSIX shell reads it back: as it is if every character is one a shell
/// leaves alone, else in single quotes (a quote inside as `'\''`).
fn shell_word(word: &str) -> String {
    let plain = |c: char| c.is_ascii_alphanumeric() || "/._-+,:=@%".contains(c);
    if !word.is_empty() && word.chars().all(plain) {
        word.to_owned()
    } else {
        format!("'{}'", word.replace('\'', r"'\''"))
    }
}

fn convert(args: &TablesConvertArgs) -> Result<()> {
    let src = resolve(&args.table.table, &args.table.dir)?;
    if !src.exists() {
        bail!("{} does not exist", src.display());
    }
    let dst = args.out.clone().unwrap_or_else(|| src.clone());
    if dst.is_dir() {
        bail!("--out {} is a folder, not a file", dst.display());
    }
    let before = read_header(&src)?;
    let started = Instant::now();
    let after = reencode(&src, &dst, encoding_of(args.encoding))?;
    eprintln!(
        "{}: {} ({}) written as {} ({}) in {:.1} s",
        dst.display(),
        before.encoding,
        bytes(before.file_len()),
        after.encoding,
        bytes(after.file_len()),
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

fn bar(states: u64, visible: bool) -> ProgressBar {
    if !visible {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(Some(states), ProgressDrawTarget::stderr());
    bar.set_style(states_style());
    bar.enable_steady_tick(Duration::from_millis(250));
    bar
}

/// A bar of states solved, with its ETA: a build's, and a solve's once its states are
/// found.
pub(crate) fn states_style() -> ProgressStyle {
    ProgressStyle::with_template(
        "{elapsed_precise} [{wide_bar}] {percent}% of {human_len} states, ETA {eta}",
    )
    .map(|s| s.progress_chars("=> "))
    .unwrap_or_else(|_| ProgressStyle::default_bar())
}

/// A table file's state in a word or two.
fn status(path: &Path) -> String {
    if path.exists() {
        match read_header(path) {
            Ok(h) if h.layers_left == 0 => format!(
                "built as {}, {}",
                encoding_arg(h.encoding),
                bytes(h.file_len())
            ),
            Ok(h) => format!("unfinished, {} layers left", h.layers_left),
            Err(e) => format!("unreadable: {e}"),
        }
    } else if partial_path(path).exists() {
        match read_header(&partial_path(path)) {
            Ok(h) => format!("stopped, {} layers left", h.layers_left),
            Err(e) => format!("stopped, unreadable: {e}"),
        }
    } else {
        "not built".to_owned()
    }
}

fn list(args: &TablesDirArgs) -> Result<()> {
    let dir = dir_of(args);
    let mut out = std::io::stdout().lock();
    writeln!(out, "tables folder: {}", dir.display())?;
    writeln!(
        out,
        "\nformations (a table is FORMATION-TARGET, the target from 8 to 8192):"
    )?;
    for f in FORMATIONS {
        writeln!(out, "  {:<8} {}  {}", f.name, f.pattern, f.about)?;
    }
    writeln!(out, "\nthe default set (`ai2048 tables build`):")?;
    let mut named: Vec<String> = Vec::new();
    let default = default_set();
    let added = large_set().into_iter().filter(|t| !default.contains(t));
    for (i, t) in default.iter().cloned().chain(added).enumerate() {
        if i == default.len() {
            writeln!(
                out,
                "\nwhat the large set adds, or stores with its probabilities (`ai2048 tables \
                 build --large`):"
            )?;
        }
        let path = dir.join(t.file_name());
        writeln!(
            out,
            "  {:<12} {:>12} states  {:<5}  {}",
            t.name,
            t.layout.len(),
            encoding_arg(t.encoding),
            status(&path)
        )?;
        named.push(t.file_name());
    }
    let others: Vec<PathBuf> = table_files(&dir)
        .unwrap_or_default()
        .into_iter()
        .filter(|p| {
            !named
                .iter()
                .any(|n| p.file_name().is_some_and(|f| f == n.as_str()))
        })
        .collect();
    if !others.is_empty() {
        writeln!(out, "\nother tables in the folder:")?;
        for p in others {
            let name = p
                .file_name()
                .unwrap_or_default()
                .to_string_lossy()
                .into_owned();
            writeln!(out, "  {name:<24} {}", status(&p))?;
        }
    }
    list_distilled(&mut out, &dir)?;
    Ok(())
}

/// The distilled tables: the one built into this build, and those in the folder.
fn list_distilled(out: &mut impl Write, dir: &Path) -> Result<()> {
    writeln!(
        out,
        "
distilled tables (`ai2048 tables distill`):"
    )?;
    match ai2048_ai::endgame::builtin_distilled_len() {
        Some(len) => writeln!(
            out,
            "  {:<24} {}, played from when the folder holds no table",
            ai2048_ai::endgame::BUILTIN_DISTILLED,
            bytes(len as u64)
        )?,
        None => writeln!(out, "  this build has none built in")?,
    }
    for path in ai2048_tables::distilled_files(dir).unwrap_or_default() {
        let name = path.file_name().unwrap_or_default().to_string_lossy();
        let what = match std::fs::read(&path).map(|b| ai2048_tables::Distilled::from_bytes(&b)) {
            Ok(Ok(d)) => {
                let tables: Vec<&str> = d.names().collect();
                format!("{} states of {}", d.len(), tables.join(", "))
            }
            Ok(Err(e)) => e.to_string(),
            Err(e) => format!("cannot be read: {e}"),
        };
        writeln!(out, "  {name:<24} {what}")?;
    }
    Ok(())
}

fn info(args: &TablesFileArgs) -> Result<()> {
    let path = resolve(&args.table, &args.dir)?;
    let shown = if path.exists() {
        path.clone()
    } else {
        partial_path(&path)
    };
    let header = read_header(&shown).map_err(|e| {
        if !path.exists() && !shown.exists() {
            anyhow!("{} does not exist", path.display())
        } else {
            anyhow!(e)
        }
    })?;
    let layout = &header.layout;
    let mut out = std::io::stdout().lock();
    writeln!(out, "file:     {}", shown.display())?;
    let pattern = layout.pattern();
    writeln!(out, "pattern:  {pattern}")?;
    let rows = pattern.to_string();
    for row in rows
        .split_whitespace()
        .next()
        .unwrap_or_default()
        .split('/')
    {
        writeln!(out, "          {row}")?;
    }
    for goal in pattern.goals() {
        writeln!(out, "goal:     {goal}")?;
    }
    writeln!(out, "target:   {}", layout.target())?;
    writeln!(out, "states:   {}", layout.len())?;
    writeln!(out, "layers:   {}", layout.top_layer() + 1)?;
    writeln!(out, "size:     {}", bytes(header.file_len()))?;
    writeln!(
        out,
        "values:   {}, little-endian, format version {}",
        header.encoding,
        header.version()
    )?;
    writeln!(
        out,
        "checksum: {:08x} (CRC-32 of the values; `ai2048 tables verify` checks it)",
        header.crc
    )?;
    if header.layers_left == 0 {
        writeln!(out, "status:   finished")?;
    } else {
        writeln!(
            out,
            "status:   unfinished, {} layers left to solve",
            header.layers_left
        )?;
    }
    Ok(())
}

fn verify(args: &TablesVerifyArgs) -> Result<()> {
    let paths: Vec<PathBuf> = if args.tables.is_empty() {
        let dir = dir_of(&args.dir);
        let paths = table_files(&dir)
            .with_context(|| format!("cannot read the tables folder {}", dir.display()))?;
        if paths.is_empty() {
            bail!(
                "no tables in {}: `ai2048 tables build` builds the default set",
                dir.display()
            );
        }
        paths
    } else {
        args.tables
            .iter()
            .map(|t| resolve(t, &args.dir))
            .collect::<Result<_>>()?
    };
    let mut bad = 0;
    let mut out = std::io::stdout().lock();
    for path in &paths {
        let started = Instant::now();
        match Table::open(path) {
            Ok(table) => writeln!(
                out,
                "ok   {} ({} to {}, {} states, checked in {:.1} s)",
                path.display(),
                table.layout().pattern(),
                table.layout().target(),
                table.layout().len(),
                started.elapsed().as_secs_f64()
            )?,
            Err(e) => {
                bad += 1;
                writeln!(out, "BAD  {e}")?;
            }
        }
    }
    if bad > 0 {
        bail!("{bad} of {} table(s) failed", paths.len());
    }
    Ok(())
}

fn query(args: &TablesQueryArgs) -> Result<()> {
    let boards = read_boards(&args.boards)?;
    let table = open(&args.table)?;
    let mut out = std::io::stdout().lock();
    let mut unanswered = 0;
    for (i, &(_, board)) in boards.iter().enumerate() {
        let Some(query) = table.query(board) else {
            skip_unmatched(
                &mut out,
                &boards,
                i,
                table.layout(),
                args.json,
                &mut unanswered,
            )?;
            continue;
        };
        write_answer(&mut out, i, board, &query, args.json, None)?;
    }
    // The legend of the answers printed, before the error for the boards left out.
    if !table.has_values() && !args.json && unanswered < boards.len() {
        writeln!(
            out,
            "(a table of moves keeps each state's best move, not its probability: 1 marks \
             that move, 0 the others that stay in the table)"
        )?;
    }
    all_answered(unanswered, boards.len())
}

/// The boards given as arguments (each in any form `ai2048 hint` takes), or those on
/// standard input where none is given (or `-`): one board in any such form (its rows
/// on four lines, say), or one board a line. Each with the text it was read from, to
/// name it in an error.
pub(crate) fn read_boards(items: &[String]) -> Result<Vec<(String, Board)>> {
    if items.is_empty() || items == ["-"] {
        return boards_on_input(&crate::commands::hint::standard_input()?);
    }
    let several = items.len() > 1;
    let read = |(i, text): (usize, &String)| {
        let board = crate::commands::hint::read_board(Some(text));
        let board = if several {
            board.with_context(|| format!("board {} of {}", i + 1, items.len()))
        } else {
            board
        };
        board.map(|b| (text.clone(), b))
    };
    items.iter().enumerate().map(read).collect()
}

/// The boards in `text`, read from standard input: the whole of it one board, or, where
/// its first line is a board by itself, each line that is not blank one board.
fn boards_on_input(text: &str) -> Result<Vec<(String, Board)>> {
    let whole = match text.parse::<Board>() {
        Ok(board) => return Ok(vec![(text.trim().to_owned(), board)]),
        Err(e) => e,
    };
    let lines: Vec<(usize, &str)> = text
        .lines()
        .map(str::trim)
        .enumerate()
        .filter(|(_, line)| !line.is_empty())
        .collect();
    let one_a_line = lines.len() > 1 && lines[0].1.parse::<Board>().is_ok();
    if !one_a_line {
        return Err(anyhow!(whole).context("the board on standard input is not a 2048 board"));
    }
    lines
        .into_iter()
        .map(|(n, line)| {
            line.parse()
                .map(|board| (line.to_owned(), board))
                .with_context(|| {
                    format!(
                        "line {} of standard input ({line:?}) is not a 2048 board",
                        n + 1
                    )
                })
        })
        .collect()
}

/// Why board `i` of `boards` (each with its text) has no answer from a table of
/// `layout`.
fn unmatched(boards: &[(String, Board)], i: usize, layout: &Layout) -> String {
    let which = if boards.len() > 1 {
        format!("board {} of {} ({:?})", i + 1, boards.len(), boards[i].0)
    } else {
        "the board".to_owned()
    };
    format!(
        "{which} does not match the table ({} to {}) under any of the eight symmetries: a \
         tile in every fixed cell (x), at most the target in every other cell and less \
         than the target in the target cells (t)",
        layout.pattern(),
        layout.target()
    )
}

/// Board `i` of `boards` has no answer from a table of `layout`: the error where it is
/// the only board; among several, the reason on standard error and, in JSON, a `null`
/// line (the answers stay one line a board), counted in `unanswered`, and the other
/// boards are answered.
pub(crate) fn skip_unmatched(
    out: &mut impl Write,
    boards: &[(String, Board)],
    i: usize,
    layout: &Layout,
    json: bool,
    unanswered: &mut usize,
) -> Result<()> {
    let why = unmatched(boards, i, layout);
    if boards.len() == 1 {
        bail!(why);
    }
    out.flush()?;
    eprintln!("error: {why}");
    if json {
        writeln!(out, "null")?;
    }
    *unanswered += 1;
    Ok(())
}

/// The error once every board was answered that could be, where `unanswered` of
/// `boards` could not (each said by [`skip_unmatched`]).
pub(crate) fn all_answered(unanswered: usize, boards: usize) -> Result<()> {
    if unanswered > 0 {
        bail!(
            "{unanswered} of {boards} boards do not match the table (each said above); the \
             others are answered"
        );
    }
    Ok(())
}

/// Writes board `i`'s answer: a line of JSON (with `states` where given), or the board
/// and each move's probability, the best marked.
pub(crate) fn write_answer(
    out: &mut impl Write,
    i: usize,
    board: Board,
    query: &Query,
    json: bool,
    states: Option<u64>,
) -> Result<()> {
    let best = query.best().map(|(d, _)| d);
    if json {
        let moves: serde_json::Map<String, serde_json::Value> = Dir::ALL
            .into_iter()
            .map(|d| (d.name().to_owned(), query.value(d).into()))
            .collect();
        let mut answer = serde_json::json!({ "best": best.map(Dir::name), "moves": moves });
        if let Some(n) = states {
            answer["states"] = n.into();
        }
        writeln!(out, "{answer}")?;
        return Ok(());
    }
    if i > 0 {
        writeln!(out)?;
    }
    write!(out, "{board}")?;
    for d in Dir::ALL {
        let value = query.value(d).map_or_else(
            || "-  (illegal, or leaves the table)".to_owned(),
            |p| format!("{p:.6}"),
        );
        let mark = if Some(d) == best { "  <- best" } else { "" };
        writeln!(out, "{:<6} {value}{mark}", d.name())?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use ai2048_tables::DEFAULT_SET;

    #[test]
    fn bytes_read_as_people_write_them() {
        assert_eq!(bytes(12), "12 bytes");
        assert_eq!(bytes(1536), "1.5 KiB");
        assert_eq!(bytes(3 << 30), "3.0 GiB");
    }

    #[test]
    fn a_path_is_quoted_only_where_a_shell_needs_it() {
        assert_eq!(
            shell_word("/home/me/.cache/t.table"),
            "/home/me/.cache/t.table"
        );
        assert_eq!(shell_word("my tables/t.table"), "'my tables/t.table'");
        assert_eq!(shell_word("it's/t"), r"'it'\''s/t'");
        assert_eq!(shell_word(""), "''");
    }

    #[test]
    fn the_default_set_names_built_in_tables() {
        for (name, _) in DEFAULT_SET {
            assert!(builtin(name).is_ok(), "{name}");
        }
    }
}
