//! The network file: a small header, the weights as little-endian `f32`, a checksum.
//!
//! | bytes | what |
//! |-------|------|
//! | 8 | the magic `ai2048nt` |
//! | 4 | the format version (`u32`): 1, or 2 for a network that learns with temporal coherence |
//! | 8 | games trained (`u64`) |
//! | 4 | the number of tuples (`u32`) |
//! | 1 + n per tuple | its number of cells n, then the cells (`u8` each) |
//! | 4 per weight | every table, in the order of the tuples (`f32`) |
//! | 8 per weight | version 2 only: every weight's coherence E and A (`f32` each) |
//! | 8 | FNV-1a 64 of every byte before it (`u64`) |
//!
//! All numbers are little-endian.

use core::fmt;
use std::io::{self, BufReader, BufWriter, Read, Write};
use std::path::Path;

use super::{NTupleNetwork, Tuple};

const MAGIC: &[u8; 8] = b"ai2048nt";
/// The format version of a network without coherence; one with it is `VERSION + 1`.
const VERSION: u32 = 1;

/// The most weights a file may hold, 2^28 (1 GiB), so that a corrupt header cannot ask
/// for more memory than any network needs.
pub const MAX_WEIGHTS: usize = 1 << 28;

/// A network file that cannot be read.
#[derive(Debug)]
pub enum NetworkError {
    /// The file could not be read or written.
    Io(io::Error),
    /// The file does not start with the magic bytes of a network.
    NotANetwork,
    /// The file is of a format version this build does not read.
    Version(u32),
    /// The file is damaged: it says what and where.
    Corrupt(String),
}

impl fmt::Display for NetworkError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NetworkError::Io(e) => write!(f, "{e}"),
            NetworkError::NotANetwork => {
                f.write_str("not an ai2048 n-tuple network (it does not start with \"ai2048nt\")")
            }
            NetworkError::Version(v) => write!(
                f,
                "network format version {v}, but this build reads versions {VERSION} and {}",
                VERSION + 1
            ),
            NetworkError::Corrupt(what) => write!(f, "the network file is corrupt: {what}"),
        }
    }
}

impl std::error::Error for NetworkError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            NetworkError::Io(e) => Some(e),
            _ => None,
        }
    }
}

/// FNV-1a, 64 bits: the file's checksum.
struct Fnv(u64);

impl Fnv {
    fn new() -> Fnv {
        Fnv(0xcbf2_9ce4_8422_2325)
    }

    fn update(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
    }
}

/// A reader that checksums what it reads and names what ran out.
struct Checked<R> {
    inner: R,
    hash: Fnv,
}

impl<R: Read> Checked<R> {
    fn bytes<const N: usize>(&mut self, what: &str) -> Result<[u8; N], NetworkError> {
        let mut buf = [0; N];
        self.fill(&mut buf, what)?;
        Ok(buf)
    }

    fn fill(&mut self, buf: &mut [u8], what: &str) -> Result<(), NetworkError> {
        self.inner.read_exact(buf).map_err(|e| match e.kind() {
            io::ErrorKind::UnexpectedEof => {
                NetworkError::Corrupt(format!("the file ends in {what}"))
            }
            _ => NetworkError::Io(e),
        })?;
        self.hash.update(buf);
        Ok(())
    }
}

/// Reads `per_weight` finite floats for every weight of every tuple's table (the
/// weights, or their coherence) and hands each to `push`. `what` names them in errors.
fn read_floats<R: Read>(
    r: &mut Checked<R>,
    tuples: &[Tuple],
    per_weight: usize,
    what: &str,
    mut push: impl FnMut(f32),
) -> Result<(), NetworkError> {
    let mut chunk = vec![0u8; 1 << 16];
    for (t, tuple) in tuples.iter().enumerate() {
        let total = per_weight * tuple.table_len();
        let mut done = 0;
        while done < total {
            let n = (total - done).min(chunk.len() / 4);
            r.fill(&mut chunk[..4 * n], &format!("{what} of tuple {}", t + 1))?;
            for (k, bytes) in chunk[..4 * n].chunks_exact(4).enumerate() {
                let x = f32::from_le_bytes(bytes.try_into().expect("4 bytes"));
                if !x.is_finite() {
                    let at = (done + k) / per_weight;
                    let name = if per_weight == 1 {
                        "weight"
                    } else {
                        "the coherence of weight"
                    };
                    return Err(NetworkError::Corrupt(format!(
                        "{name} {at} of tuple {} is {x}",
                        t + 1
                    )));
                }
                push(x);
            }
            done += n;
        }
    }
    Ok(())
}

impl NTupleNetwork {
    /// Writes the network in the format of this module.
    ///
    /// # Errors
    ///
    /// When `out` fails.
    pub fn write_to(&self, out: impl Write) -> io::Result<()> {
        let mut out = BufWriter::with_capacity(1 << 16, out);
        let mut hash = Fnv::new();
        let mut put = |out: &mut BufWriter<_>, bytes: &[u8]| {
            hash.update(bytes);
            out.write_all(bytes)
        };
        put(&mut out, MAGIC)?;
        let version = VERSION + u32::from(self.coherence().is_some());
        put(&mut out, &version.to_le_bytes())?;
        put(&mut out, &self.games().to_le_bytes())?;
        put(&mut out, &(self.tuples().len() as u32).to_le_bytes())?;
        for tuple in self.tuples() {
            put(&mut out, &[tuple.cells().len() as u8])?;
            put(&mut out, tuple.cells())?;
        }
        let mut chunk = Vec::with_capacity(1 << 16);
        for block in self.weights().chunks(1 << 14) {
            chunk.clear();
            chunk.extend(block.iter().flat_map(|w| w.to_le_bytes()));
            put(&mut out, &chunk)?;
        }
        for block in self.coherence().unwrap_or_default().chunks(1 << 13) {
            chunk.clear();
            chunk.extend(block.iter().flatten().flat_map(|x| x.to_le_bytes()));
            put(&mut out, &chunk)?;
        }
        let sum = hash.0.to_le_bytes();
        out.write_all(&sum)?;
        out.flush()
    }

    /// The network as the bytes of its file.
    #[must_use]
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut bytes = Vec::with_capacity(4 * self.weights().len() + 64);
        self.write_to(&mut bytes)
            .expect("writing to memory cannot fail");
        bytes
    }

    /// Reads a network written by [`NTupleNetwork::write_to`].
    ///
    /// # Errors
    ///
    /// [`NetworkError::NotANetwork`], [`NetworkError::Version`] or
    /// [`NetworkError::Corrupt`] (bad tuples, too many weights, a weight that is not
    /// finite, a short file, bytes after the end, or a wrong checksum), or
    /// [`NetworkError::Io`].
    ///
    /// ```
    /// use ai2048_ai::ntuple::{parse_tuples, NTupleNetwork, NetworkError};
    /// let net = NTupleNetwork::new(parse_tuples("0,1,2;3,7")?);
    /// let mut bytes = net.to_bytes();
    /// let back = NTupleNetwork::read_from(&bytes[..])?;
    /// assert_eq!(back.tuples(), net.tuples());
    /// bytes[40] ^= 1;
    /// let err = NTupleNetwork::read_from(&bytes[..]).unwrap_err();
    /// assert!(err.to_string().contains("checksum"), "{err}");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn read_from(input: impl Read) -> Result<NTupleNetwork, NetworkError> {
        NTupleNetwork::read_checked(input, true)
    }

    /// [`NTupleNetwork::read_from`], keeping the coherence only when `keep_coherence`:
    /// playing needs none of it, and it is twice the size of the weights.
    fn read_checked(input: impl Read, keep_coherence: bool) -> Result<NTupleNetwork, NetworkError> {
        let mut r = Checked {
            inner: BufReader::with_capacity(1 << 16, input),
            hash: Fnv::new(),
        };
        let magic: [u8; 8] = r.bytes("the header").map_err(|e| match e {
            NetworkError::Corrupt(_) => NetworkError::NotANetwork,
            e => e,
        })?;
        if &magic != MAGIC {
            return Err(NetworkError::NotANetwork);
        }
        let version = u32::from_le_bytes(r.bytes("the header")?);
        if version != VERSION && version != VERSION + 1 {
            return Err(NetworkError::Version(version));
        }
        let games = u64::from_le_bytes(r.bytes("the header")?);
        let count = u32::from_le_bytes(r.bytes("the header")?);
        let mut tuples = Vec::new();
        let mut total = 0usize;
        for i in 1..=count {
            let [len] = r.bytes(&format!("tuple {i}"))?;
            let mut cells = vec![0; usize::from(len)];
            r.fill(&mut cells, &format!("tuple {i}"))?;
            let tuple =
                Tuple::new(&cells).map_err(|e| NetworkError::Corrupt(format!("tuple {i}: {e}")))?;
            total += tuple.table_len();
            if total > MAX_WEIGHTS {
                return Err(NetworkError::Corrupt(format!(
                    "its {count} tuples hold more than {MAX_WEIGHTS} weights"
                )));
            }
            tuples.push(tuple);
        }
        let mut weights = Vec::with_capacity(total);
        read_floats(&mut r, &tuples, 1, "the weights", |w| weights.push(w))?;
        let mut coherence = None;
        if version == VERSION + 1 {
            let mut kept: Vec<[f32; 2]> =
                Vec::with_capacity(if keep_coherence { total } else { 0 });
            let mut e = None;
            read_floats(&mut r, &tuples, 2, "the coherence", |x| {
                if keep_coherence {
                    match e.take() {
                        None => e = Some(x),
                        Some(e) => kept.push([e, x]),
                    }
                }
            })?;
            coherence = keep_coherence.then_some(kept);
        }
        let expected = r.hash.0;
        let sum = u64::from_le_bytes(r.bytes("the checksum")?);
        if sum != expected {
            return Err(NetworkError::Corrupt(
                "the checksum does not match".to_owned(),
            ));
        }
        let mut rest = [0u8; 1];
        if r.inner.read(&mut rest).map_err(NetworkError::Io)? != 0 {
            return Err(NetworkError::Corrupt(
                "there are bytes after the checksum".to_owned(),
            ));
        }
        let mut net = NTupleNetwork::with_weights(tuples, weights, games);
        if let Some(coherence) = coherence {
            net.set_coherence(coherence);
        }
        Ok(net)
    }

    /// Writes the network to the file at `path`, atomically: into a temporary file in
    /// the same folder, flushed to disk, then renamed over `path`. An interrupted save
    /// leaves the old file (or none), never a truncated one.
    ///
    /// # Errors
    ///
    /// When the temporary file cannot be created or written, or renamed over `path`;
    /// the temporary file is removed.
    pub fn save(&self, path: &Path) -> io::Result<()> {
        let dir = path
            .parent()
            .filter(|d| !d.as_os_str().is_empty())
            .unwrap_or_else(|| Path::new("."));
        let name = path.file_name().ok_or_else(|| {
            io::Error::new(
                io::ErrorKind::InvalidInput,
                format!("{} is not a file path", path.display()),
            )
        })?;
        let tmp = dir.join(format!(
            ".{}.{}.tmp",
            name.to_string_lossy(),
            std::process::id()
        ));
        let result = std::fs::File::create(&tmp)
            .and_then(|mut file| {
                self.write_to(&mut file)?;
                file.sync_all()
            })
            .and_then(|()| std::fs::rename(&tmp, path));
        if result.is_err() {
            let _ = std::fs::remove_file(&tmp);
        }
        result
    }

    /// Reads the network file at `path`.
    ///
    /// # Errors
    ///
    /// As [`NTupleNetwork::read_from`]; the I/O error when the file cannot be opened.
    pub fn load(path: &Path) -> Result<NTupleNetwork, NetworkError> {
        NTupleNetwork::read_from(std::fs::File::open(path).map_err(NetworkError::Io)?)
    }

    /// Reads the network file at `path` for play: as [`NTupleNetwork::load`], but
    /// without the coherence a network that learns with it keeps (checked, not kept),
    /// which a player never reads and which is twice the size of the weights.
    ///
    /// # Errors
    ///
    /// As [`NTupleNetwork::load`].
    pub fn load_for_play(path: &Path) -> Result<NTupleNetwork, NetworkError> {
        let file = std::fs::File::open(path).map_err(NetworkError::Io)?;
        NTupleNetwork::read_checked(file, false)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ntuple::parse_tuples;
    use ai2048_engine::Board;

    fn trained() -> NTupleNetwork {
        let mut net = NTupleNetwork::new(parse_tuples("0,1,2;5,6").expect("valid"));
        for (i, text) in [
            "2 4 8 0/0 0 0 0/0 0 0 0/0 0 0 2",
            "0 0 0 0/0 4 4 0/0 2 0 0/0 0 0 0",
        ]
        .iter()
        .enumerate()
        {
            net.learn(
                text.parse::<Board>().expect("a board"),
                3.5 * (i as f32 + 1.0),
            );
        }
        net.count_game();
        net
    }

    #[test]
    fn a_network_reads_back_as_it_was() {
        let net = trained();
        let back = NTupleNetwork::read_from(&net.to_bytes()[..]).expect("reads");
        assert_eq!(back.tuples(), net.tuples());
        assert_eq!(back.weights(), net.weights());
        assert_eq!(back.games(), 1);
        assert_eq!(back.features(), net.features());
    }

    #[test]
    fn coherence_reads_back_too() {
        let mut net = trained();
        let board: Board = "2 4 0 0/0 0 0 0/0 0 0 0/0 0 0 8".parse().expect("a board");
        net.learn_coherent(board, 1.0, 5.0);
        let bytes = net.to_bytes();
        assert_eq!(bytes[8], 2);
        let back = NTupleNetwork::read_from(&bytes[..]).expect("reads");
        assert_eq!(back.coherence(), net.coherence());
        assert_eq!(back.weights(), net.weights());
        let play = NTupleNetwork::read_checked(&bytes[..], false).expect("reads");
        assert_eq!(play.weights(), net.weights());
        assert!(play.coherence().is_none());
        // Checked all the same.
        let mut flipped = bytes.clone();
        let at = bytes.len() - 12;
        flipped[at] ^= 1;
        let err = NTupleNetwork::read_checked(&flipped[..], false).unwrap_err();
        assert!(err.to_string().contains("checksum"), "{err}");
        let err = NTupleNetwork::read_from(&bytes[..bytes.len() - 20]).unwrap_err();
        assert!(
            err.to_string().contains("ends in the coherence of tuple 2"),
            "{err}"
        );
        let mut nan = bytes.clone();
        let at = bytes.len() - 8 - 8 * 256 + 4;
        nan[at..at + 4].copy_from_slice(&f32::INFINITY.to_le_bytes());
        let err = NTupleNetwork::read_from(&nan[..]).unwrap_err();
        assert!(
            err.to_string()
                .contains("the coherence of weight 0 of tuple 2 is inf"),
            "{err}"
        );
    }

    #[test]
    fn damage_is_named() {
        let bytes = trained().to_bytes();
        let header = 8 + 4 + 8 + 4 + 4 + 3;
        let read = |b: &[u8]| NTupleNetwork::read_from(b).unwrap_err().to_string();
        let mut cases: Vec<(Vec<u8>, &str)> = vec![
            (Vec::new(), "not an ai2048 n-tuple network"),
            (b"ai2048nx".to_vec(), "not an ai2048 n-tuple network"),
            (bytes[..10].to_vec(), "ends in the header"),
            (bytes[..header - 1].to_vec(), "ends in tuple 2"),
            (
                bytes[..header + 100].to_vec(),
                "ends in the weights of tuple 1",
            ),
            (bytes[..bytes.len() - 3].to_vec(), "ends in the checksum"),
            ([&bytes[..], b"x"].concat(), "bytes after the checksum"),
        ];
        let mut version = bytes.clone();
        version[8] = 9;
        cases.push((version, "version 9, but this build reads versions 1 and 2"));
        let mut cell = bytes.clone();
        cell[8 + 4 + 8 + 4 + 2] = 17;
        cases.push((cell, "tuple 1: cell 17 is off the board"));
        let mut count = bytes.clone();
        count[20..24].copy_from_slice(&200u32.to_le_bytes());
        cases.push((count, "tuple 3: a tuple has 1 to 6 cells, not 0"));
        let mut flipped = bytes.clone();
        flipped[header + 1] ^= 0x10;
        cases.push((flipped, "checksum does not match"));
        let mut nan = bytes.clone();
        nan[header + 8..header + 12].copy_from_slice(&f32::NAN.to_le_bytes());
        cases.push((nan, "weight 2 of tuple 1 is NaN"));
        for (bytes, message) in cases {
            let err = read(&bytes);
            assert!(err.contains(message), "{message}: {err}");
        }
    }

    #[test]
    fn saving_replaces_the_file_whole() {
        let dir = std::env::temp_dir().join(format!("ai2048-save-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("a temp dir");
        let path = dir.join("net.bin");
        std::fs::write(&path, b"old").expect("written");
        let net = trained();
        net.save(&path).expect("saved");
        let back = NTupleNetwork::load(&path).expect("loads");
        assert_eq!(back.weights(), net.weights());
        // Nothing else is left in the folder, and a failed save leaves nothing either.
        assert_eq!(std::fs::read_dir(&dir).expect("listed").count(), 1);
        assert!(net.save(&dir.join("missing").join("net.bin")).is_err());
        assert!(net.save(&dir).is_err());
        assert_eq!(std::fs::read_dir(&dir).expect("listed").count(), 1);
        std::fs::remove_dir_all(&dir).expect("removed");
    }

    #[test]
    fn huge_headers_are_refused_before_allocating() {
        let mut bytes = Vec::new();
        bytes.extend_from_slice(MAGIC);
        bytes.extend_from_slice(&VERSION.to_le_bytes());
        bytes.extend_from_slice(&0u64.to_le_bytes());
        bytes.extend_from_slice(&100u32.to_le_bytes());
        for _ in 0..100 {
            bytes.extend_from_slice(&[6, 0, 1, 2, 3, 4, 5]);
        }
        let err = NTupleNetwork::read_from(&bytes[..]).unwrap_err();
        assert!(
            err.to_string().contains("more than 268435456 weights"),
            "{err}"
        );
    }
}
