//! Writing files so that a reader never sees half of one, checking before a long run
//! that its output file can be written, and the command line to note in the files.

use std::io::Write;
use std::path::Path;

use ai2048_engine::Game;
use anyhow::{bail, Context, Result};

/// Writes a JSON document (or fails with the error that encoding it gave) to `path`
/// atomically (see [`write_atomic`]), and says on `out` that `what` was written there.
pub fn write_json(
    path: &Path,
    json: serde_json::Result<String>,
    what: &str,
    out: &mut impl Write,
) -> Result<()> {
    let json = json.context("cannot encode the results as JSON")?;
    write_atomic(path, json.as_bytes())?;
    writeln!(out, "{what} written to {}", path.display())?;
    Ok(())
}

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

/// Fails early, before any game, when `--out` cannot be written: its folder is
/// missing, or it is a folder.
pub(crate) fn check_out(path: &Path) -> Result<()> {
    if path.is_dir() {
        bail!("--out {} is a folder, not a file", path.display());
    }
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        if !dir.is_dir() {
            bail!(
                "--out {}: the folder {} does not exist",
                path.display(),
                dir.display()
            );
        }
    }
    Ok(())
}

/// The command line as typed, for the weights file's note.
pub(crate) fn command_line() -> String {
    let args: Vec<String> = std::env::args()
        .enumerate()
        .map(|(i, a)| {
            let a = if i == 0 {
                Path::new(&a)
                    .file_name()
                    .map_or(a.clone(), |n| n.to_string_lossy().into_owned())
            } else {
                a
            };
            if a.is_empty() || a.contains(|c: char| c.is_whitespace() || "\"'$\\".contains(c)) {
                format!("'{}'", a.replace('\'', r"'\''"))
            } else {
                a
            }
        })
        .collect();
    args.join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn out_must_be_writable() {
        assert!(check_out(Path::new("weights.json")).is_ok());
        assert!(check_out(&std::env::temp_dir()).is_err());
        let err = check_out(Path::new("/nonexistent/dir/w.json")).unwrap_err();
        assert!(err.to_string().contains("does not exist"), "{err}");
    }
}
