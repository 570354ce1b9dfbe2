//! `ai2048 net`: packs a trained network for play, joins networks into stages, and
//! describes network files.

use std::io::Write;
use std::path::Path;
use std::time::Instant;

use ai2048_ai::ntuple::{NTupleNetwork, NetworkError, Stages, StagesError};
use anyhow::{bail, Context, Result};

use crate::args::{NetCommand, NetInfoArgs, NetJoinArgs, NetPackArgs};
use crate::files::write_atomic;

/// Runs `ai2048 net pack`, `ai2048 net join` or `ai2048 net info`.
///
/// # Errors
///
/// A file that cannot be read or written, or is not a whole network (the message
/// says what is wrong with it), or a bad option.
pub fn run(command: &NetCommand) -> Result<()> {
    match command {
        NetCommand::Pack(args) => pack(args),
        NetCommand::Join(args) => join(args),
        NetCommand::Info(args) => info(args),
    }
}

fn load(path: &Path) -> Result<NTupleNetwork> {
    NTupleNetwork::load_for_play(path).map_err(|e| match e {
        NetworkError::Io(e) => {
            anyhow::Error::new(e).context(format!("cannot read {}", path.display()))
        }
        e => anyhow::anyhow!("{}: {e}", path.display()),
    })
}

fn pack(args: &NetPackArgs) -> Result<()> {
    if !(1..=22).contains(&args.level) {
        bail!("--level must be from 1 to 22, not {}", args.level);
    }
    if let Some(p) = args.prune {
        if !(p.is_finite() && p >= 0.0) {
            bail!("--prune must be a weight magnitude of 0 or more, not {p}");
        }
    }
    if let Some(w) = args.step {
        if !(w.is_finite() && w > 0.0) {
            bail!("--step must be a weight magnitude above 0, not {w}");
        }
    }
    if args.out.is_dir() {
        bail!("{} is a folder, not a file", args.out.display());
    }
    let started = Instant::now();
    let mut net = load(&args.trained)?;
    if let Some(below) = args.prune {
        net = net.pruned(below);
    }
    if let Some(step) = args.step {
        net = net.quantized_to(step);
    }
    let mut bytes = Vec::new();
    net.write_packed(&mut bytes, args.level)
        .context("cannot compress the network")?;
    let done = format!("{} packed", args.trained.display());
    write_and_describe(&args.out, &bytes, &done, started)
}

/// Writes a network file's `bytes` to `path` atomically, says that `done` into it and
/// how long since `started`, and describes the file as written.
fn write_and_describe(path: &Path, bytes: &[u8], done: &str, started: Instant) -> Result<()> {
    write_atomic(path, bytes)?;
    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        "{done} into {} in {:.1} s",
        path.display(),
        started.elapsed().as_secs_f64()
    )?;
    describe(&mut out, path, bytes)
}

fn join(args: &NetJoinArgs) -> Result<()> {
    let stages: Stages = args
        .stages
        .parse()
        .with_context(|| format!("--stages {:?}", args.stages))?;
    if args.parts.len() > stages.count() {
        bail!(
            "--stages {} makes {} stages, so it joins at most {} networks, not {}",
            args.stages,
            stages.count(),
            stages.count(),
            args.parts.len()
        );
    }
    if args.out.is_dir() {
        bail!("{} is a folder, not a file", args.out.display());
    }
    let started = Instant::now();
    let parts = args
        .parts
        .iter()
        .map(|p| load(p))
        .collect::<Result<Vec<_>>>()?;
    let refs: Vec<&NTupleNetwork> = parts.iter().collect();
    // The library checks the stages; the errors here name the files.
    let mut net = NTupleNetwork::join(&refs, stages).map_err(|e| match e {
        StagesError::PartsMismatch { parts: brought, stages } => {
            let each: Vec<String> = args
                .parts
                .iter()
                .zip(&parts)
                .map(|(path, p)| format!("{} {}", path.display(), p.stages().count()))
                .collect();
            anyhow::anyhow!(
                "--stages {} makes {stages} stages, but the networks bring {brought} (stages of each: {})",
                args.stages,
                each.join(", ")
            )
        }
        StagesError::Misaligned { part, .. } => {
            anyhow::anyhow!("cannot join {}: {e}", args.parts[part - 1].display())
        }
        e => anyhow::anyhow!("cannot join the networks: {e}"),
    })?;
    drop(parts);
    let files: Vec<String> = args.parts.iter().map(|p| p.display().to_string()).collect();
    net.add_note(&format!(
        "ai2048 net join {} --stages {} --out {}",
        files.join(" "),
        args.stages,
        args.out.display()
    ));
    let done = format!("{} networks joined", args.parts.len());
    write_and_describe(&args.out, &net.to_bytes(), &done, started)
}

fn info(args: &NetInfoArgs) -> Result<()> {
    let bytes = std::fs::read(&args.file)
        .with_context(|| format!("cannot read {}", args.file.display()))?;
    describe(&mut std::io::stdout().lock(), &args.file, &bytes)
}

/// Prints what a network file holds.
fn describe(out: &mut impl Write, path: &Path, bytes: &[u8]) -> Result<()> {
    let net = load(path)?;
    let packed = bytes.starts_with(ai2048_ai::ntuple::PACKED_MAGIC);
    let checksum = bytes
        .len()
        .checked_sub(8)
        .map(|end| u64::from_le_bytes(bytes[end..].try_into().expect("8 bytes")))
        .unwrap_or_default();
    let format = if packed {
        "packed: i16 weights with one scale per table, zstd"
    } else {
        "trained: f32 weights (and, for tc, their coherence)"
    };
    let weights = net.weight_count();
    let nonzero = net.nonzero_weights();
    writeln!(out, "file      {}", path.display())?;
    writeln!(out, "format    {format}")?;
    writeln!(
        out,
        "size      {:.1} MB ({} bytes)",
        bytes.len() as f64 / 1e6,
        bytes.len()
    )?;
    writeln!(out, "checksum  fnv1a64:{checksum:016x}")?;
    if net.is_mixed() {
        // Each stage reads tuples of its own: a line per stage.
        for stage in 0..net.stages().count() {
            let tuples: Vec<String> = net
                .stage_tuples(stage)
                .unwrap_or_default()
                .iter()
                .map(ToString::to_string)
                .collect();
            writeln!(
                out,
                "{}{} in stage {} ({})",
                if stage == 0 {
                    "tuples    "
                } else {
                    "          "
                },
                tuples.len(),
                stage + 1,
                tuples.join(";")
            )?;
        }
    } else {
        writeln!(
            out,
            "tuples    {} ({})",
            net.tuples().len(),
            net.tuples_text()
        )?;
    }
    writeln!(
        out,
        "stages    {} ({})",
        net.stages().count(),
        if net.stages().count() == 1 {
            "one set of tables".to_owned()
        } else {
            format!("from tile sums {}", net.stages())
        }
    )?;
    writeln!(
        out,
        "weights   {weights} ({:.1}% not 0)",
        100.0 * nonzero as f64 / weights.max(1) as f64
    )?;
    // What it has learned of each tile: from 1024 up, the share of the weights whose
    // largest tile it is that are not 0.
    let learned = net.learned_by_largest_tile();
    let by_tile: Vec<String> = (10..16)
        .map(|e| {
            let (nonzero, all) = learned[e];
            let share = 100.0 * nonzero as f64 / all.max(1) as f64;
            format!("{} {share:.1}%", 1u32 << e)
        })
        .collect();
    writeln!(
        out,
        "learned   weights not 0 by largest tile: {}",
        by_tile.join(", ")
    )?;
    writeln!(out, "games     {}", net.games())?;
    if let Some(carousel) = net.carousel() {
        writeln!(out, "carousel  {carousel}")?;
    }
    if net.notes().is_empty() {
        writeln!(out, "notes     none")?;
    } else {
        writeln!(out, "notes")?;
        for line in net.notes().lines() {
            writeln!(out, "  {line}")?;
        }
    }
    Ok(())
}
