//! The network file: a small header, the weights as little-endian `f32`, a checksum.
//!
//! | bytes | what |
//! |-------|------|
//! | 8 | the magic `ai2048nt` |
//! | 4 | the format version (`u32`): 3, or 4 with a carousel, or 5 (see below) |
//! | 8 | games trained (`u64`) |
//! | 4 | the number of tuples (`u32`) |
//! | 1 + n per tuple | its number of cells n, then the cells (`u8` each) |
//! | 4 | the number of stage thresholds (`u32`), then each (`u32`; see [`Stages`]) |
//! | 1 | 1 when the weights' coherence follows them, else 0 |
//! | 4 + n | the notes: their length in bytes (`u32`), then UTF-8 text |
//! | 4 per weight | every table of every stage, as [`NTupleNetwork::weights`] orders them (`f32`) |
//! | 8 per weight | with coherence only: every weight's E and A (`f32` each) |
//! | | version 4 only, the carousel ([`Carousel`](super::Carousel)): the number of its stage thresholds (`u32`) and each (`u32`), then per threshold its pool: entries seen (`u64`), positions (`u32`), and each position as its board's 64 low bits (`u64`) and 16 high bits (`u16`) |
//! | 8 | FNV-1a 64 of every byte before it (`u64`) |
//!
//! A [mixed](NTupleNetwork::is_mixed) network, whose stages read tuples of their own,
//! is written as version 5: in place of the tuples, the number of stages (`u32`) and
//! then each stage's tuples as above; after the coherence, 1 when a carousel follows
//! (as in version 4), else 0. Other networks are written as versions 3 and 4, which
//! builds before version 5 read too.
//!
//! All numbers are little-endian. Versions 1 and 2 (one stage, no notes, version 2
//! with coherence) are still read: their tables list a tuple's first cell as the least
//! significant digit of the index, and are reordered as they are read.

use core::fmt;
use std::io::{self, BufReader, BufWriter, Read, Write};
use std::path::Path;

use super::index::reversed_digits;
use super::weights::{Weights, COHERENCE_START};
use super::{NTupleNetwork, Stages, Tuple};

mod carousel;
mod common;

use carousel::carousel_bytes;
pub(super) use common::{reserve_ahead, shape_bytes, Checked, Fnv};

const MAGIC: &[u8; 8] = b"ai2048nt";
/// The newest format version: that of a mixed network.
const VERSION: u32 = 5;
/// The format version of a network of one set of tuples that holds a carousel.
const VERSION_CAROUSEL: u32 = 4;
/// The format version of a network of one set of tuples without a carousel.
const VERSION_PLAIN: u32 = 3;

/// The most weights a file may hold, 2^30 (4 GiB of `f32`), so that a corrupt header
/// cannot ask for more memory than any network needs.
pub const MAX_WEIGHTS: usize = 1 << 30;

/// The longest notes a file may hold.
const MAX_NOTES: usize = 1 << 20;

/// The fewest values a reader makes room for ahead of reading them (4 MiB of `f32`).
const RESERVE_STEP: usize = 1 << 20;

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
                "network format version {v}, but this build reads versions 1 to {VERSION}"
            ),
            NetworkError::Corrupt(what) => write!(f, "the network file is corrupt: {what}"),
        }
    }
}

/// `Io` shows the I/O error's own message, so its source is that error's source, not
/// the error itself: a report of the chain says each cause once.
impl std::error::Error for NetworkError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            NetworkError::Io(e) => e.source(),
            _ => None,
        }
    }
}

/// Where the weights of a file are: the tables of each stage, tuple after tuple.
struct Layout<'a> {
    /// The tuples of each stage.
    per_stage: &'a [Vec<Tuple>],
}

impl Layout<'_> {
    /// Every table in file order: (stage, tuple number from 1, its length).
    fn tables(&self) -> impl Iterator<Item = (usize, usize, usize)> + '_ {
        self.per_stage
            .iter()
            .enumerate()
            .flat_map(move |(s, tuples)| {
                tuples
                    .iter()
                    .enumerate()
                    .map(move |(t, tuple)| (s, t + 1, tuple.table_len()))
            })
    }

    fn name(&self, stage: usize, tuple: usize) -> String {
        if self.per_stage.len() > 1 {
            format!("tuple {tuple} of stage {}", stage + 1)
        } else {
            format!("tuple {tuple}")
        }
    }
}

/// Reads `per_weight` finite floats for every weight of every table (the weights, or
/// their coherence) and hands each to `push`. `what` names them in errors.
fn read_floats<R: Read>(
    r: &mut Checked<R>,
    layout: &Layout<'_>,
    per_weight: usize,
    what: &str,
    mut push: impl FnMut(f32),
) -> Result<(), NetworkError> {
    let mut chunk = vec![0u8; 1 << 16];
    for (stage, t, len) in layout.tables() {
        let total = per_weight * len;
        let mut done = 0;
        while done < total {
            let n = (total - done).min(chunk.len() / 4);
            r.fill(
                &mut chunk[..4 * n],
                &format!("{what} of {}", layout.name(stage, t)),
            )?;
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
                        "{name} {at} of {} is {x}",
                        layout.name(stage, t)
                    )));
                }
                push(x);
            }
            done += n;
        }
    }
    Ok(())
}

/// Puts the weights of a version 1 or 2 file, `values[i]` for weight i, in this
/// version's order: each table's index digits reversed.
fn reorder_old(tuples: &[Tuple], values: &mut [f32]) {
    let mut start = 0;
    for tuple in tuples {
        let len = tuple.table_len();
        let table = &mut values[start..start + len];
        let old = table.to_vec();
        for (i, w) in old.into_iter().enumerate() {
            table[reversed_digits(i, tuple.cells().len())] = w;
        }
        start += len;
    }
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
        let mixed = self.is_mixed();
        let version = if mixed {
            VERSION
        } else if self.carousel().is_some() {
            VERSION_CAROUSEL
        } else {
            VERSION_PLAIN
        };
        put(&mut out, &version.to_le_bytes())?;
        put(&mut out, &self.games().to_le_bytes())?;
        let (tuples, stages, notes) = shape_bytes(self, true);
        put(&mut out, &tuples)?;
        put(&mut out, &stages)?;
        put(&mut out, &[u8::from(self.is_coherent())])?;
        put(&mut out, &notes)?;
        let mut chunk = Vec::with_capacity(1 << 16);
        let len = self.weight_count();
        for start in (0..len).step_by(1 << 14) {
            chunk.clear();
            for i in start..(start + (1 << 14)).min(len) {
                chunk.extend_from_slice(&self.weight(i).to_le_bytes());
            }
            put(&mut out, &chunk)?;
        }
        if let Weights::Coherent(w) = self.storage() {
            for block in w.chunks(1 << 13) {
                chunk.clear();
                for [_, e, a] in block {
                    chunk.extend_from_slice(
                        &e.load(std::sync::atomic::Ordering::Relaxed).to_le_bytes(),
                    );
                    chunk.extend_from_slice(
                        &a.load(std::sync::atomic::Ordering::Relaxed).to_le_bytes(),
                    );
                }
                put(&mut out, &chunk)?;
            }
        }
        if mixed {
            put(&mut out, &[u8::from(self.carousel().is_some())])?;
        }
        if let Some(carousel) = self.carousel() {
            put(&mut out, &carousel_bytes(carousel))?;
        }
        let sum = hash.0.to_le_bytes();
        out.write_all(&sum)?;
        out.flush()
    }

    /// The network as the bytes of its file.
    #[must_use]
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut bytes = Vec::with_capacity(4 * self.weight_count() + 64);
        self.write_to(&mut bytes)
            .expect("writing to memory cannot fail");
        bytes
    }

    /// Reads a network written by [`NTupleNetwork::write_to`].
    ///
    /// # Errors
    ///
    /// [`NetworkError::NotANetwork`], [`NetworkError::Version`] or
    /// [`NetworkError::Corrupt`] (bad tuples or stages, too many weights, a weight that
    /// is not finite, a short file, bytes after the end, or a wrong checksum), or
    /// [`NetworkError::Io`].
    ///
    /// ```
    /// use ai2048_ai::ntuple::{parse_tuples, NTupleNetwork, NetworkError};
    /// let net = NTupleNetwork::new(parse_tuples("0,1,2;3,7")?);
    /// let mut bytes = net.to_bytes();
    /// let back = NTupleNetwork::read_from(&bytes[..])?;
    /// assert_eq!(back.tuples(), net.tuples());
    /// bytes[60] ^= 1;
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
        let version = r.u32("the header")?;
        if !(1..=VERSION).contains(&version) {
            return Err(NetworkError::Version(version));
        }
        let games = u64::from_le_bytes(r.bytes("the header")?);
        let sections = r.tuple_sections(version >= VERSION)?;
        let (stages, coherent, notes) = if version >= 3 {
            let stages = r.stages()?;
            let [flag] = r.bytes("the header")?;
            if flag > 1 {
                return Err(NetworkError::Corrupt(format!(
                    "the coherence flag is {flag}"
                )));
            }
            (stages, flag == 1, r.notes()?)
        } else {
            (Stages::one(), version == 2, String::new())
        };
        let (per_stage, total) = sections.per_stage(&stages)?;
        let layout = Layout {
            per_stage: &per_stage,
        };
        let mut values = Vec::new();
        read_floats(&mut r, &layout, 1, "the weights", |w| {
            reserve_ahead(&mut values, 1, total);
            values.push(w);
        })?;
        let mut coherence = None;
        if coherent {
            let mut kept: Vec<[f32; 2]> =
                Vec::with_capacity(if keep_coherence { total } else { 0 });
            let mut e = None;
            read_floats(&mut r, &layout, 2, "the coherence", |x| {
                if keep_coherence {
                    match e.take() {
                        None => e = Some(x),
                        Some(e) => kept.push([e, x]),
                    }
                }
            })?;
            coherence = keep_coherence.then_some(kept);
        }
        let carousel = match version {
            5 => match r.bytes("the carousel flag")? {
                [0] => None,
                [1] => Some(r.carousel()?),
                [flag] => {
                    return Err(NetworkError::Corrupt(format!(
                        "the carousel flag is {flag}"
                    )))
                }
            },
            4 => Some(r.carousel()?),
            _ => None,
        };
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
        if version < 3 {
            let tuples = &per_stage[0];
            reorder_old(tuples, &mut values);
            if let Some(c) = &mut coherence {
                // Version 2 summed whole errors, from 0; this one sums each weight's
                // share of alpha times the error (alpha 1, tc's default), from a tiny
                // positive start.
                let lookups = 8.0 * tuples.len() as f32;
                let mut pairs: Vec<f32> = c.iter().flatten().copied().collect();
                let (mut es, mut as_): (Vec<f32>, Vec<f32>) =
                    pairs.chunks_exact(2).map(|p| (p[0], p[1])).unzip();
                reorder_old(tuples, &mut es);
                reorder_old(tuples, &mut as_);
                pairs.clear();
                *c = es
                    .into_iter()
                    .zip(as_)
                    .map(|(e, a)| {
                        if a == 0.0 {
                            [COHERENCE_START; 2]
                        } else {
                            [e / lookups, a / lookups]
                        }
                    })
                    .collect();
            }
        }
        let plain = Weights::from_values(&values);
        drop(values);
        let weights = match coherence {
            Some(c) => plain.with_coherence(Some(&c)),
            None => plain,
        };
        let mut net = NTupleNetwork::from_parts(per_stage, stages, weights, games, notes);
        net.set_carousel(carousel);
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

    /// Reads the network file at `path`, trained or packed
    /// ([`NTupleNetwork::read_packed`]; its weights stay `i16` until it trains).
    ///
    /// # Errors
    ///
    /// As [`NTupleNetwork::read_from`] or [`NTupleNetwork::read_packed`]; the I/O error
    /// when the file cannot be opened.
    pub fn load(path: &Path) -> Result<NTupleNetwork, NetworkError> {
        NTupleNetwork::load_either(path, true)
    }

    /// Reads the network file at `path` for play, trained or packed: as
    /// [`NTupleNetwork::load`], but without the coherence a trained network keeps for
    /// learning (checked, not kept), which a player never reads and which is twice the
    /// size of the weights.
    ///
    /// # Errors
    ///
    /// As [`NTupleNetwork::load`].
    pub fn load_for_play(path: &Path) -> Result<NTupleNetwork, NetworkError> {
        NTupleNetwork::load_either(path, false)
    }

    fn load_either(path: &Path, keep_coherence: bool) -> Result<NTupleNetwork, NetworkError> {
        let mut file = std::fs::File::open(path).map_err(NetworkError::Io)?;
        let mut magic = [0u8; 8];
        let n = read_up_to(&mut file, &mut magic).map_err(NetworkError::Io)?;
        if &magic[..n] == super::PACKED_MAGIC {
            let mut bytes = magic.to_vec();
            file.read_to_end(&mut bytes).map_err(NetworkError::Io)?;
            return NTupleNetwork::read_packed(&bytes);
        }
        NTupleNetwork::read_checked(io::Cursor::new(&magic[..n]).chain(file), keep_coherence)
    }
}

/// Reads into `buf` until it is full or the input ends; returns the bytes read.
fn read_up_to(input: &mut impl Read, buf: &mut [u8]) -> io::Result<usize> {
    let mut n = 0;
    while n < buf.len() {
        match input.read(&mut buf[n..]) {
            Ok(0) => break,
            Ok(k) => n += k,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(n)
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::ntuple::{learn_boards, parse_tuples};
    use ai2048_engine::Board;

    pub(super) fn trained() -> NTupleNetwork {
        let mut net = NTupleNetwork::new(parse_tuples("0,1,2;5,6").expect("valid"));
        learn_boards(
            &net,
            &[
                "2 4 8 0/0 0 0 0/0 0 0 0/0 0 0 2",
                "0 0 0 0/0 4 4 0/0 2 0 0/0 0 0 0",
            ],
            3.5,
        );
        net.add_games(1);
        net.add_note("trained by hand");
        net
    }

    /// Rewrites the checksum at the end of `bytes` to match what comes before it.
    pub(super) fn fix_checksum(bytes: &mut [u8]) {
        let n = bytes.len() - 8;
        let mut hash = Fnv::new();
        hash.update(&bytes[..n]);
        bytes[n..].copy_from_slice(&hash.0.to_le_bytes());
    }

    /// The bytes before the weights of [`trained`]: header, tuples, stages, flag, notes.
    const HEADER: usize = 8 + 4 + 8 + 4 + 4 + 3 + 4 + 1 + 4 + 15;

    #[test]
    fn a_network_reads_back_as_it_was() {
        let net = trained();
        let back = NTupleNetwork::read_from(&net.to_bytes()[..]).expect("reads");
        assert_eq!(back.tuples(), net.tuples());
        assert_eq!(back.weights(), net.weights());
        assert_eq!(back.games(), 1);
        assert_eq!(back.features(), net.features());
        assert_eq!(back.notes(), "trained by hand");
        let staged = NTupleNetwork::with_stages(
            parse_tuples("0,1").expect("valid"),
            "16384".parse().expect("valid"),
            3.0,
        );
        let back = NTupleNetwork::read_from(&staged.to_bytes()[..]).expect("reads");
        assert_eq!(back.stages(), staged.stages());
        assert_eq!(back.weights(), staged.weights());
    }

    #[test]
    fn coherence_reads_back_too() {
        let mut net = trained();
        net.set_storage(net.storage().with_coherence(None));
        let board: Board = "2 4 0 0/0 0 0 0/0 0 0 0/0 0 0 8".parse().expect("a board");
        net.learn(board, 5.0);
        let bytes = net.to_bytes();
        assert_eq!(bytes[HEADER - 4 - 15 - 1], 1);
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

    /// A file in the format of version 1 or 2, as earlier builds wrote it: the first
    /// cell of a tuple the least significant digit, coherence as sums of whole errors.
    fn old_file(tuples: &[Tuple], weights: &[f32], coherence: Option<&[[f32; 2]]>) -> Vec<u8> {
        let mut bytes = Vec::new();
        bytes.extend_from_slice(MAGIC);
        bytes.extend_from_slice(&(1 + u32::from(coherence.is_some())).to_le_bytes());
        bytes.extend_from_slice(&7u64.to_le_bytes());
        bytes.extend_from_slice(&(tuples.len() as u32).to_le_bytes());
        for t in tuples {
            bytes.push(t.cells().len() as u8);
            bytes.extend_from_slice(t.cells());
        }
        for w in weights {
            bytes.extend_from_slice(&w.to_le_bytes());
        }
        for x in coherence.unwrap_or_default().iter().flatten() {
            bytes.extend_from_slice(&x.to_le_bytes());
        }
        let mut hash = Fnv::new();
        hash.update(&bytes);
        bytes.extend_from_slice(&hash.0.to_le_bytes());
        bytes
    }

    /// A network whose stages read other tuples: [`trained`] for the opening, a
    /// network of one larger tuple from 16384 on.
    pub(in crate::ntuple) fn mixed() -> NTupleNetwork {
        let late = NTupleNetwork::new(parse_tuples("0,1,2,3").expect("valid"));
        learn_boards(&late, &["16384 8 2 0/0 0 0 0/0 0 0 0/0 0 0 0"], 64.0);
        let net = NTupleNetwork::join(&[&trained(), &late], "16384".parse().expect("valid"))
            .expect("joins");
        assert!(net.is_mixed());
        net
    }

    #[test]
    fn a_mixed_network_reads_back_as_it_was() {
        let mut net = mixed();
        // It trains (each stage's steps shared among its own lookups) and keeps its
        // coherence and carousel.
        let tc = crate::ntuple::TrainConfig {
            learning: crate::ntuple::Learning::Tc,
            ..crate::ntuple::TrainConfig::default()
        };
        crate::ntuple::Trainer::new(tc).prepare(&mut net);
        net.go_round("16384".parse().expect("valid"))
            .expect("a carousel");
        let late: Board = "16384 8 2 0/0 0 0 0/0 0 0 0/0 0 0 0"
            .parse()
            .expect("a board");
        let early: Board = "2 4 8 0/0 0 0 0/0 0 0 0/0 0 0 2".parse().expect("a board");
        let (before, opening) = (net.value(late), net.value(early));
        net.learn(late, 8.0);
        // At least 8: images that read one weight add their steps up.
        assert!(net.value(late) >= before + 8.0 - 1e-3);
        assert_eq!(net.value(early), opening);
        let bytes = net.to_bytes();
        assert_eq!(u32::from_le_bytes(bytes[8..12].try_into().expect("4")), 5);
        let back = NTupleNetwork::read_from(&bytes[..]).expect("reads");
        assert!(back.is_mixed() && back.is_coherent() && back.carousel().is_some());
        assert_eq!(back.stage_tuples(0), net.stage_tuples(0));
        assert_eq!(back.stage_tuples(1), net.stage_tuples(1));
        assert_eq!(back.weights(), net.weights());
        assert_eq!(back.coherence(), net.coherence());
        assert_eq!(back.notes(), net.notes());
        assert_eq!(back.to_bytes(), bytes);
        // A network of one set of tuples is written as before.
        let plain = trained().to_bytes();
        assert_eq!(u32::from_le_bytes(plain[8..12].try_into().expect("4")), 3);
    }

    #[test]
    fn mixed_tuples_must_number_one_set_per_stage() {
        // Version 5, no games, two sets of one 1-tuple each, but no threshold: one
        // stage.
        let mut bytes = MAGIC.to_vec();
        bytes.extend_from_slice(&5u32.to_le_bytes());
        bytes.extend_from_slice(&0u64.to_le_bytes());
        bytes.extend_from_slice(&2u32.to_le_bytes());
        for cell in [0u8, 5] {
            bytes.extend_from_slice(&1u32.to_le_bytes());
            bytes.extend_from_slice(&[1, cell]);
        }
        bytes.extend_from_slice(&0u32.to_le_bytes());
        bytes.extend_from_slice(&[0]);
        bytes.extend_from_slice(&0u32.to_le_bytes());
        let err = NTupleNetwork::read_from(&bytes[..])
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("2 sets of tuples, one per stage, but 1 stage"),
            "{err}"
        );
        // No set at all, or more than stages may be.
        for sets in [0u32, 9] {
            let mut b = bytes[..20].to_vec();
            b.extend_from_slice(&sets.to_le_bytes());
            let err = NTupleNetwork::read_from(&b[..]).unwrap_err().to_string();
            assert!(err.contains(&format!("{sets} sets of tuples")), "{err}");
        }
    }

    #[test]
    fn earlier_versions_are_read_in_this_order() {
        let tuples = parse_tuples("0,1").expect("valid");
        let mut weights = vec![0.0; 256];
        // Old index 0x21: cell 0 holds exponent 1, cell 1 exponent 2.
        weights[0x21] = 5.0;
        let net = NTupleNetwork::read_from(&old_file(&tuples, &weights, None)[..]).expect("reads");
        assert_eq!((net.games(), net.is_coherent()), (7, false));
        assert_eq!(net.weight(0x12), 5.0);
        let mut coherence = vec![[0.0; 2]; 256];
        coherence[0x21] = [-8.0, 16.0];
        let net = NTupleNetwork::read_from(&old_file(&tuples, &weights, Some(&coherence))[..])
            .expect("reads");
        let c = net.coherence().expect("kept");
        assert_eq!(c[0x12], [-1.0, 2.0]);
        assert_eq!(c[0], [COHERENCE_START; 2]);
    }

    #[test]
    fn damage_is_named() {
        let bytes = trained().to_bytes();
        let tuples_end = 8 + 4 + 8 + 4 + 4 + 3;
        let read = |b: &[u8]| NTupleNetwork::read_from(b).unwrap_err().to_string();
        let mut cases: Vec<(Vec<u8>, &str)> = vec![
            (Vec::new(), "not an ai2048 n-tuple network"),
            (b"ai2048nx".to_vec(), "not an ai2048 n-tuple network"),
            (bytes[..10].to_vec(), "ends in the header"),
            (bytes[..tuples_end - 1].to_vec(), "ends in tuple 2"),
            (bytes[..tuples_end + 2].to_vec(), "ends in the stages"),
            (bytes[..HEADER - 3].to_vec(), "ends in the notes"),
            (
                bytes[..HEADER + 100].to_vec(),
                "ends in the weights of tuple 1",
            ),
            (bytes[..bytes.len() - 3].to_vec(), "ends in the checksum"),
            ([&bytes[..], b"x"].concat(), "bytes after the checksum"),
        ];
        let mut version = bytes.clone();
        version[8] = 9;
        cases.push((version, "version 9, but this build reads versions 1 to 5"));
        let mut cell = bytes.clone();
        cell[8 + 4 + 8 + 4 + 2] = 17;
        cases.push((cell, "tuple 1: cell 17 is off the board"));
        let mut count = bytes.clone();
        count[20..24].copy_from_slice(&200u32.to_le_bytes());
        cases.push((count, "tuple 3: a tuple has 1 to 6 cells, not 0"));
        let mut stages = bytes.clone();
        stages[tuples_end..tuples_end + 4].copy_from_slice(&9u32.to_le_bytes());
        cases.push((stages, "9 stage thresholds"));
        let mut flag = bytes.clone();
        flag[HEADER - 4 - 15 - 1] = 7;
        cases.push((flag, "the coherence flag is 7"));
        let mut notes = bytes.clone();
        notes[HEADER - 15] = 0xFF;
        cases.push((notes, "the notes are not UTF-8"));
        let mut flipped = bytes.clone();
        flipped[HEADER + 1] ^= 0x10;
        cases.push((flipped, "checksum does not match"));
        let mut nan = bytes.clone();
        nan[HEADER + 8..HEADER + 12].copy_from_slice(&f32::NAN.to_le_bytes());
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

    /// The header of a file of `tuples` 6-tuples and, when `thresholds` is some,
    /// that many stage thresholds (1000, 2000, ...), no coherence and no notes; no
    /// weights follow.
    fn six_tuples_header(tuples: u32, thresholds: Option<u32>) -> Vec<u8> {
        let mut bytes = Vec::new();
        bytes.extend_from_slice(MAGIC);
        bytes.extend_from_slice(&VERSION_CAROUSEL.to_le_bytes());
        bytes.extend_from_slice(&0u64.to_le_bytes());
        bytes.extend_from_slice(&tuples.to_le_bytes());
        for _ in 0..tuples {
            bytes.extend_from_slice(&[6, 0, 1, 2, 3, 4, 5]);
        }
        if let Some(n) = thresholds {
            bytes.extend_from_slice(&n.to_le_bytes());
            for t in 1..=n {
                bytes.extend_from_slice(&(t * 1000).to_le_bytes());
            }
            bytes.extend_from_slice(&[0, 0, 0, 0, 0]);
        }
        bytes
    }

    #[test]
    fn huge_headers_are_refused_before_allocating() {
        let bytes = six_tuples_header(100, None);
        let err = NTupleNetwork::read_from(&bytes[..]).unwrap_err();
        assert!(
            err.to_string().contains("more than 1073741824 weights"),
            "{err}"
        );
        // Sixteen 6-tuples fit, but not in 7 stages.
        let bytes = six_tuples_header(16, Some(6));
        let err = NTupleNetwork::read_from(&bytes[..]).unwrap_err();
        assert!(
            err.to_string().contains("tuples and stages hold more"),
            "{err}"
        );
    }

    #[test]
    fn a_huge_header_with_no_weights_is_refused_without_room_for_them() {
        // Sixteen 6-tuples in 4 stages: 2^30 weights, the most a header may declare,
        // and none follows (a 149-byte input the `network_file` fuzz target can reach;
        // found by reading the loader, not by the fuzzer): the reader made
        // room for all 4 GiB of them before reading the first.
        let bytes = six_tuples_header(16, Some(3));
        let err = NTupleNetwork::read_from(&bytes[..]).unwrap_err();
        assert!(
            err.to_string()
                .contains("the file ends in the weights of tuple 1 of stage 1"),
            "{err}"
        );
        // What the reader makes room for: a little ahead of what has come, never
        // what the header declares.
        let mut values: Vec<u8> = Vec::new();
        reserve_ahead(&mut values, 1, MAX_WEIGHTS);
        assert_eq!(values.capacity(), RESERVE_STEP);
        let total = 5 * RESERVE_STEP + 3;
        let mut capacities = Vec::new();
        for _ in 0..total {
            reserve_ahead(&mut values, 1, total);
            values.push(0);
            if capacities.last() != Some(&values.capacity()) {
                capacities.push(values.capacity());
            }
        }
        assert_eq!(
            capacities,
            [RESERVE_STEP, 2 * RESERVE_STEP, 4 * RESERVE_STEP, total]
        );
    }
}
