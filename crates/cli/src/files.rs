//! Writing files so that a reader never sees half of one.

use std::io::Write;
use std::path::Path;

use ai2048_engine::Game;
use anyhow::{Context, Result};

/// Writes `game`'s replay to `path` atomically (see [`write_atomic`]) and says so on
/// `out`: what `--save` does at the end of `watch` and `play`.
pub fn save_replay(path: &Path, game: &Game, out: &mut impl Write) -> Result<()> {
    write_atomic(path, game.replay().to_string().as_bytes())?;
    writeln!(out, "replay saved to {}", path.display())?;
    Ok(())
}

/// Writes `contents` to `path` atomically: into a temporary file in the same
/// directory, flushed to disk, then renamed over `path`. An interrupted write leaves
/// the old file (or none), never a truncated one.
pub fn write_atomic(path: &Path, contents: &[u8]) -> Result<()> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let name = path
        .file_name()
        .with_context(|| format!("{} is not a file path", path.display()))?;
    let tmp = dir.join(format!(
        ".{}.{}.tmp",
        name.to_string_lossy(),
        std::process::id()
    ));
    let result = (|| -> Result<()> {
        let mut file = std::fs::File::create(&tmp)
            .with_context(|| format!("cannot create {}", tmp.display()))?;
        file.write_all(contents)
            .and_then(|()| file.sync_all())
            .with_context(|| format!("cannot write {}", tmp.display()))?;
        std::fs::rename(&tmp, path)
            .with_context(|| format!("cannot move {} to {}", tmp.display(), path.display()))
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}
