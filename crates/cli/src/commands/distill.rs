//! `ai2048 tables distill`: plays seeded games with the full tables and keeps the
//! tables' moves for the states those games met most often, in a few megabytes.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use ai2048_ai::endgame::EndgameTables;
use ai2048_ai::{PlayerSpec, SearchLimits};
use ai2048_bench::{play_game_watched, BenchConfig};
use ai2048_tables::{Distiller, Table};
use anyhow::{anyhow, bail, Context, Result};

use super::tables::{bytes, dir_of};
use crate::args::TablesDistillArgs;
use crate::files::{check_out, write_atomic};
use crate::interrupt::{catch_ctrl_c, Outcome};
use crate::progress::games_bar;

/// The name of a distilled table in the tables folder.
pub const DISTILLED_FILE: &str = "distilled.dt";

/// Runs `ai2048 tables distill`.
///
/// # Errors
///
/// A folder without full tables, a bad option, a game that fails, or a file that
/// cannot be written. Ctrl-C stops the games and saves those finished in
/// `OUT.partial` (and so does the run every minute): the same command goes on from
/// them.
pub fn run(args: &TablesDistillArgs) -> Result<Outcome> {
    let dir = dir_of(&args.dir);
    let out = args.out.clone().unwrap_or_else(|| dir.join(DISTILLED_FILE));
    check_out(&out)?;
    if !(args.max_mib > 0.0 && args.max_mib <= 1024.0) {
        bail!("--max-mib {} is not from 0 to 1024", args.max_mib);
    }
    if args.games == 0 {
        bail!("--games 0: nothing to distil");
    }
    let tables = EndgameTables::shared(&dir).map_err(|e| anyhow!(e))?;
    let full = tables.tables();
    if full.is_empty() {
        bail!(
            "{} holds no full tables to distil: `ai2048 tables build --dir {0}` builds them",
            dir.display()
        );
    }
    let spec = match &args.ai {
        Some(ai) => ai.clone(),
        None => format!("expectimax:tables={}", dir.display()),
    };
    let spec: PlayerSpec = spec.parse().map_err(|e| anyhow!("--ai: {e}"))?;
    ai2048_ai::check_player(&spec).map_err(|e| anyhow!("--ai: {e}"))?;
    let counted = match &args.counts {
        Some(path) if path.exists() => {
            let bytes =
                std::fs::read(path).with_context(|| format!("cannot read {}", path.display()))?;
            let distiller = Distiller::load(full, &bytes)
                .map_err(|e| anyhow!("--counts {}: {e}", path.display()))?;
            eprintln!(
                "adding to the counts of {} ({} boards)",
                path.display(),
                distiller.boards().0
            );
            Some(distiller)
        }
        _ => None,
    };
    let mut config = BenchConfig::new(spec);
    config.seed = args.seed;
    config.limits = SearchLimits::from_user(Some(args.depth.into()), None, None, None)
        .map_err(|e| anyhow!(e.message("--depth")))?;
    let jobs = BenchConfig::jobs_from_user(args.jobs, "--jobs")?;
    let names: Vec<&str> = full.iter().map(|(n, _)| n.as_str()).collect();
    eprintln!(
        "distilling {} from {} games at depth {} (seed {}, {jobs} at once) into {}",
        names.join(", "),
        args.games,
        args.depth,
        args.seed,
        out.display()
    );

    let partial = ai2048_tables::partial_path(&out);
    let (mut done, resumed) = match std::fs::read(&partial) {
        Ok(bytes) => {
            let saved = Saved::read(&bytes, full)
                .with_context(|| format!("{} (delete it to start again)", partial.display()))?;
            if (saved.seed, saved.depth) != (args.seed, args.depth) {
                bail!(
                    "{} holds a distillation stopped with --seed {} --depth {}: run it with \
                     those to go on, or delete it to start again",
                    partial.display(),
                    saved.seed,
                    saved.depth
                );
            }
            (saved.done, Some(saved.distiller))
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => (Vec::new(), None),
        Err(e) => return Err(e).with_context(|| format!("cannot read {}", partial.display())),
    };
    done.retain(|&g| g < args.games);
    if !done.is_empty() {
        eprintln!(
            "going on after the {} games of {}",
            done.len(),
            partial.display()
        );
    }
    let todo: Vec<u64> = (0..args.games)
        .filter(|g| done.binary_search(g).is_err())
        .collect();

    let stop = catch_ctrl_c();
    let start = Instant::now();
    let bar = games_bar(args.games, !args.quiet, "{msg}", |s| s);
    bar.set_position(done.len() as u64);
    let next = AtomicU64::new(0);
    let state = Mutex::new(Progress {
        distiller: resumed.unwrap_or_else(|| Distiller::new(full)),
        done,
        saved: Instant::now(),
    });
    let save = |progress: &Progress| -> Result<()> {
        let bytes = Saved::write(args.seed, args.depth, &progress.done, &progress.distiller);
        write_atomic(&partial, &bytes)
    };
    std::thread::scope(|scope| -> Result<()> {
        let workers: Vec<_> = (0..jobs)
            .map(|_| {
                scope.spawn(|| -> Result<()> {
                    loop {
                        let at = next.fetch_add(1, Ordering::Relaxed) as usize;
                        let Some(&index) = todo.get(at) else {
                            return Ok(());
                        };
                        let mut distiller = Distiller::new(full);
                        let stopped = || stop.load(Ordering::Relaxed);
                        let record = play_game_watched(&config, index, stopped, |board| {
                            distiller.record(board);
                        })
                        .with_context(|| format!("game {index}"))?;
                        if record.is_none() {
                            return Ok(());
                        }
                        let mut progress = state.lock().unwrap_or_else(|e| e.into_inner());
                        progress.distiller.merge(distiller);
                        let at = progress.done.partition_point(|&g| g < index);
                        progress.done.insert(at, index);
                        bar.set_message(format!("{} states", progress.distiller.states()));
                        bar.inc(1);
                        if progress.saved.elapsed() >= SAVE_EVERY {
                            save(&progress)?;
                            progress.saved = Instant::now();
                        }
                    }
                })
            })
            .collect();
        for worker in workers {
            worker
                .join()
                .map_err(|_| anyhow!("a game's thread panicked"))??;
        }
        Ok(())
    })?;
    bar.finish_and_clear();

    let progress = state.into_inner().unwrap_or_else(|e| e.into_inner());
    let played = progress.done.len() as u64;
    if played < args.games {
        save(&progress)?;
        eprintln!(
            "stopped after {played} of {} games, saved in {}: the same command goes on",
            args.games,
            partial.display()
        );
        return Ok(Outcome::Interrupted);
    }
    let mut distiller = progress.distiller;
    if let Some(counted) = counted {
        distiller.merge(counted);
    }
    if let Some(path) = &args.counts {
        write_atomic(path, &distiller.save())?;
    }
    let (boards, answered) = distiller.boards();
    let states = distiller.states();
    let max_bytes = (args.max_mib * 1024.0 * 1024.0) as usize;
    let (distilled, covered) = distiller.finish(max_bytes)?;
    let data = distilled.to_bytes();
    write_atomic(&out, &data)?;
    std::fs::remove_file(&partial)
        .or_else(|e| {
            if e.kind() == std::io::ErrorKind::NotFound {
                Ok(())
            } else {
                Err(e)
            }
        })
        .with_context(|| format!("cannot remove {}", partial.display()))?;
    let share = |n: u64, of: u64| 100.0 * n as f64 / of.max(1) as f64;
    let games = if played == 1 { "game" } else { "games" };
    println!(
        "{played} {games} ({:.0} s this run); of {boards} boards counted, the tables \
         answered {answered} ({:.1}%), {states} different states",
        start.elapsed().as_secs_f64(),
        share(answered, boards),
    );
    println!(
        "kept the {} met most often ({}), which answered {:.1}% of those boards: {}",
        distilled.len(),
        bytes(data.len() as u64),
        share(covered, answered),
        out.display()
    );
    Ok(Outcome::Done)
}

/// How often a distillation saves its progress.
const SAVE_EVERY: Duration = Duration::from_secs(60);

/// The games finished, and what they counted.
struct Progress<'a> {
    distiller: Distiller<'a>,
    /// The finished games' indices, in order.
    done: Vec<u64>,
    saved: Instant,
}

/// A stopped distillation, as its `.partial` file holds it: the seed and depth it
/// plays at, the games it finished, and their counts.
struct Saved<'a> {
    seed: u64,
    depth: u32,
    done: Vec<u64>,
    distiller: Distiller<'a>,
}

/// The first bytes of a stopped distillation's file.
const SAVED_MAGIC: &[u8; 8] = b"ai2048dp";

impl<'a> Saved<'a> {
    fn write(seed: u64, depth: u32, done: &[u64], distiller: &Distiller<'_>) -> Vec<u8> {
        let mut out = SAVED_MAGIC.to_vec();
        out.extend_from_slice(&seed.to_le_bytes());
        out.extend_from_slice(&depth.to_le_bytes());
        out.extend_from_slice(&(done.len() as u64).to_le_bytes());
        for g in done {
            out.extend_from_slice(&g.to_le_bytes());
        }
        let crc = crc32fast::hash(&out);
        out.extend_from_slice(&crc.to_le_bytes());
        out.extend_from_slice(&distiller.save());
        out
    }

    fn read(bytes: &[u8], tables: &'a [(String, Table)]) -> Result<Saved<'a>> {
        let u64_at = |i: usize| -> Option<u64> {
            Some(u64::from_le_bytes(bytes.get(i..i + 8)?.try_into().ok()?))
        };
        if bytes.get(..8) != Some(SAVED_MAGIC.as_slice()) {
            bail!("not a stopped distillation (it does not start with `ai2048dp`)");
        }
        let truncated = || anyhow!("a stopped distillation, truncated");
        let seed = u64_at(8).ok_or_else(truncated)?;
        let depth = u32::from_le_bytes(bytes.get(16..20).ok_or_else(truncated)?.try_into()?);
        let n = usize::try_from(u64_at(20).ok_or_else(truncated)?)?;
        let end = n
            .checked_mul(8)
            .and_then(|b| b.checked_add(28))
            .filter(|&e| e + 4 <= bytes.len())
            .ok_or_else(truncated)?;
        let crc = u32::from_le_bytes(bytes[end..end + 4].try_into()?);
        if crc32fast::hash(&bytes[..end]) != crc {
            bail!("a stopped distillation, damaged (its checksum does not match)");
        }
        let done: Vec<u64> = (0..n).filter_map(|i| u64_at(28 + 8 * i)).collect();
        if done.windows(2).any(|w| w[0] >= w[1]) {
            bail!("a stopped distillation, damaged (its games are out of order)");
        }
        let distiller = Distiller::load(tables, &bytes[end + 4..])?;
        Ok(Saved {
            seed,
            depth,
            done,
            distiller,
        })
    }
}
