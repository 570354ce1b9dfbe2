//! The best score, kept across games and sessions in a small file.
//!
//! The file holds one number. A missing, unreadable or corrupt file means a best of 0,
//! and a file that cannot be written is forgotten quietly: the best score must never
//! stop a game.

use std::ffi::OsString;
use std::io::Read;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

use crate::files::write_atomic;

/// The best score of a session, and the file it comes from and goes back to.
#[derive(Clone, Debug)]
pub struct BestScore {
    path: Option<PathBuf>,
    value: u64,
    /// The value the file held or was last given, so it is written only when beaten.
    stored: u64,
}

impl BestScore {
    /// A best score kept in memory only.
    pub fn in_memory() -> BestScore {
        BestScore {
            path: None,
            value: 0,
            stored: 0,
        }
    }

    /// The best score in `path` (0 when the file is missing or corrupt), written back
    /// there by [`BestScore::persist`].
    pub fn load(path: PathBuf) -> BestScore {
        let value = read(&path).unwrap_or(0);
        BestScore {
            path: Some(path),
            value,
            stored: value,
        }
    }

    /// The file for `name` in the user's state directory: `$XDG_STATE_HOME/ai2048/NAME`,
    /// else `$HOME/.local/state/ai2048/NAME`; `None` when neither is set.
    pub fn default_path(name: &str) -> Option<PathBuf> {
        state_path(
            std::env::var_os("XDG_STATE_HOME"),
            std::env::var_os("HOME"),
            name,
        )
    }

    /// The best score so far.
    pub fn value(&self) -> u64 {
        self.value
    }

    /// Takes `score` into account; `true` when it beats the best so far.
    pub fn observe(&mut self, score: u64) -> bool {
        let beaten = score > self.value;
        self.value = self.value.max(score);
        beaten
    }

    /// Writes the best score to its file if it went up since it was read or written.
    /// Another session may have raised the file meanwhile: the larger value stays.
    ///
    /// # Errors
    ///
    /// When the directory or the file cannot be written.
    pub fn persist(&mut self) -> Result<()> {
        let Some(path) = &self.path else {
            return Ok(());
        };
        if self.value <= self.stored {
            return Ok(());
        }
        let value = self.value.max(read(path).unwrap_or(0));
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir)
                .with_context(|| format!("cannot create {}", dir.display()))?;
        }
        write_atomic(path, format!("{value}\n").as_bytes())?;
        self.value = value;
        self.stored = value;
        Ok(())
    }
}

/// `XDG/ai2048/NAME` or `HOME/.local/state/ai2048/NAME`; relative values are ignored,
/// as the XDG specification asks.
fn state_path(xdg: Option<OsString>, home: Option<OsString>, name: &str) -> Option<PathBuf> {
    let absolute = |var: Option<OsString>| var.map(PathBuf::from).filter(|p| p.is_absolute());
    let state =
        absolute(xdg).or_else(|| absolute(home).map(|home| home.join(".local").join("state")))?;
    Some(state.join("ai2048").join(name))
}

/// The number in `path`, or `None` for a missing or corrupt file.
fn read(path: &Path) -> Option<u64> {
    let mut text = String::new();
    // A best score is a few digits: a large file is not one.
    std::fs::File::open(path)
        .ok()?
        .take(64)
        .read_to_string(&mut text)
        .ok()?;
    text.trim().parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A new, empty directory for a test, removed when dropped.
    struct TempDir(PathBuf);

    impl std::ops::Deref for TempDir {
        type Target = Path;

        fn deref(&self) -> &Path {
            &self.0
        }
    }

    impl Drop for TempDir {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }

    fn temp(name: &str) -> TempDir {
        let dir = std::env::temp_dir().join(format!("ai2048-best-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }

    #[test]
    fn a_missing_file_is_zero_and_is_created_when_beaten() {
        let dir = temp("missing");
        let path = dir.join("state").join("best");
        let mut best = BestScore::load(path.clone());
        assert_eq!(best.value(), 0);
        best.persist().unwrap();
        assert!(!path.exists(), "nothing to write while nothing was beaten");
        assert!(best.observe(120));
        assert!(!best.observe(80));
        assert_eq!(best.value(), 120);
        best.persist().unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "120\n");
        assert_eq!(BestScore::load(path).value(), 120);
    }

    #[test]
    fn a_corrupt_file_is_zero_and_gets_overwritten() {
        let dir = temp("corrupt");
        let path = dir.join("best");
        for junk in ["", "lots", "-5", "12 13", "\u{0}\u{1}binary"] {
            std::fs::write(&path, junk).unwrap();
            assert_eq!(BestScore::load(path.clone()).value(), 0, "{junk:?}");
        }
        std::fs::write(&path, "9".repeat(1000)).unwrap();
        assert_eq!(BestScore::load(path.clone()).value(), 0);
        let mut best = BestScore::load(path.clone());
        best.observe(44);
        best.persist().unwrap();
        assert_eq!(BestScore::load(path).value(), 44);
    }

    #[test]
    fn a_higher_best_from_another_session_is_kept() {
        let dir = temp("race");
        let path = dir.join("best");
        std::fs::write(&path, "100").unwrap();
        let mut best = BestScore::load(path.clone());
        std::fs::write(&path, "500").unwrap();
        best.observe(200);
        best.persist().unwrap();
        assert_eq!(best.value(), 500);
        assert_eq!(BestScore::load(path).value(), 500);
    }

    #[test]
    fn an_unwritable_place_is_an_error_not_a_panic() {
        let dir = temp("unwritable");
        // A file where the directory should be.
        std::fs::write(dir.join("ai2048"), "").unwrap();
        let mut best = BestScore::load(dir.join("ai2048").join("best"));
        best.observe(10);
        assert!(best.persist().is_err());
        assert_eq!(best.value(), 10, "the session keeps its best");
    }

    #[test]
    fn the_file_lives_in_the_state_directory() {
        let os = |s: &str| Some(OsString::from(s));
        assert_eq!(
            state_path(os("/x/state"), os("/home/me"), "best"),
            Some(PathBuf::from("/x/state/ai2048/best"))
        );
        assert_eq!(
            state_path(None, os("/home/me"), "best"),
            Some(PathBuf::from("/home/me/.local/state/ai2048/best"))
        );
        assert_eq!(
            state_path(os("relative"), os("/home/me"), "best"),
            Some(PathBuf::from("/home/me/.local/state/ai2048/best"))
        );
        assert_eq!(state_path(None, None, "best"), None);
        assert_eq!(state_path(os(""), os(""), "best"), None);
    }

    #[test]
    fn in_memory_never_writes() {
        let mut best = BestScore::in_memory();
        best.observe(7);
        best.persist().unwrap();
        assert_eq!(best.value(), 7);
    }
}
