//! Network files read once per process: every player that names a file shares it.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::SystemTime;

use super::{NTupleNetwork, NetworkError};

/// A file as it was when read: its path, length and modification time.
type FileKey = (PathBuf, u64, Option<SystemTime>);

/// The networks read last, newest last: at most [`KEPT`], so that a front end that
/// creates and drops players (a benchmark validates its player, then creates one per
/// game) reads a file once.
static LOADED: Mutex<Vec<(FileKey, Arc<NTupleNetwork>)>> = Mutex::new(Vec::new());

/// How many networks [`LOADED`] keeps.
const KEPT: usize = 2;

impl NTupleNetwork {
    /// The network in the file at `path`, shared: creating another player from the
    /// same unchanged file reads nothing again, while it is one of the last two files
    /// read or a player still holds it. A benchmark creates a player per game, and a
    /// 4x6 network is 256 MiB (128 MiB packed). The coherence a network keeps for
    /// learning is left out ([`NTupleNetwork::load_for_play`]).
    ///
    /// # Errors
    ///
    /// As [`NTupleNetwork::load`].
    pub fn shared(path: &Path) -> Result<Arc<NTupleNetwork>, NetworkError> {
        let meta = std::fs::metadata(path).map_err(NetworkError::Io)?;
        let canonical = std::fs::canonicalize(path).map_err(NetworkError::Io)?;
        let key: FileKey = (canonical, meta.len(), meta.modified().ok());
        // The lock is held while reading, so that threads creating players at once
        // read the file once between them.
        let mut loaded = LOADED.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(at) = loaded.iter().position(|(k, _)| *k == key) {
            let entry = loaded.remove(at);
            let net = Arc::clone(&entry.1);
            loaded.push(entry);
            return Ok(net);
        }
        let net = Arc::new(NTupleNetwork::load_for_play(path)?);
        loaded.push((key, Arc::clone(&net)));
        if loaded.len() > KEPT {
            loaded.remove(0);
        }
        Ok(net)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ntuple::parse_tuples;

    #[test]
    fn a_file_is_read_once_while_held() {
        let dir = std::env::temp_dir().join(format!("ai2048-shared-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("a temp dir");
        let path = dir.join("net.bin");
        let net = NTupleNetwork::new(parse_tuples("0,1").expect("valid"));
        std::fs::write(&path, net.to_bytes()).expect("written");
        let a = NTupleNetwork::shared(&path).expect("reads");
        let b = NTupleNetwork::shared(&dir.join(".").join("net.bin")).expect("reads");
        assert!(Arc::ptr_eq(&a, &b));
        // A changed file is read again.
        let other = NTupleNetwork::new(parse_tuples("0,1,2").expect("valid"));
        std::fs::write(&path, other.to_bytes()).expect("written");
        let c = NTupleNetwork::shared(&path).expect("reads");
        assert_eq!(c.tuples(), other.tuples());
        let err = NTupleNetwork::shared(&dir.join("missing.bin")).unwrap_err();
        assert!(matches!(err, NetworkError::Io(_)), "{err}");
        std::fs::remove_dir_all(&dir).expect("removed");
    }
}
