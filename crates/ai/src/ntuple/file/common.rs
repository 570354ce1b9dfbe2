//! What both network formats, this one and the packed one, read and write with: the
//! checksum, the reader that checks what it reads, the size limit, and the bytes of a
//! network's shape.

use std::io::{self, Read};

use super::{NetworkError, MAX_NOTES, MAX_WEIGHTS, RESERVE_STEP};
use crate::ntuple::{NTupleNetwork, Stages, Tuple};

/// FNV-1a, 64 bits: the file's checksum.
pub(in crate::ntuple) struct Fnv(pub(in crate::ntuple) u64);

impl Fnv {
    pub(in crate::ntuple) fn new() -> Fnv {
        Fnv(0xcbf2_9ce4_8422_2325)
    }

    pub(in crate::ntuple) fn update(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
    }
}

/// A reader that checksums what it reads and names what ran out.
pub(in crate::ntuple) struct Checked<R> {
    pub(in crate::ntuple) inner: R,
    pub(in crate::ntuple) hash: Fnv,
}

impl<R: Read> Checked<R> {
    pub(in crate::ntuple) fn bytes<const N: usize>(
        &mut self,
        what: &str,
    ) -> Result<[u8; N], NetworkError> {
        let mut buf = [0; N];
        self.fill(&mut buf, what)?;
        Ok(buf)
    }

    pub(in crate::ntuple) fn u32(&mut self, what: &str) -> Result<u32, NetworkError> {
        Ok(u32::from_le_bytes(self.bytes(what)?))
    }

    /// The tuples: their number, then each one's length and cells. Also returns the
    /// weights of one stage.
    pub(in crate::ntuple) fn tuples(&mut self) -> Result<(Vec<Tuple>, usize), NetworkError> {
        let count = self.u32("the header")?;
        let mut tuples = Vec::new();
        let mut per_stage = 0usize;
        for i in 1..=count {
            let [len] = self.bytes(&format!("tuple {i}"))?;
            let mut cells = vec![0; usize::from(len)];
            self.fill(&mut cells, &format!("tuple {i}"))?;
            let tuple =
                Tuple::new(&cells).map_err(|e| NetworkError::Corrupt(format!("tuple {i}: {e}")))?;
            per_stage += tuple.table_len();
            if per_stage > MAX_WEIGHTS || i > 16 {
                return Err(NetworkError::Corrupt(format!(
                    "its {count} tuples hold more than {MAX_WEIGHTS} weights or are more than 16"
                )));
            }
            tuples.push(tuple);
        }
        Ok((tuples, per_stage))
    }

    /// The tuples of each stage, as a [mixed](NTupleNetwork::is_mixed) network's file
    /// holds them: the number of sets, then each set as [`Checked::tuples`] reads it.
    /// Also returns the weights of all the stages.
    pub(in crate::ntuple) fn tuple_sets(
        &mut self,
    ) -> Result<(Vec<Vec<Tuple>>, usize), NetworkError> {
        let count = self.u32("the header")? as usize;
        if count == 0 || count > crate::ntuple::MAX_STAGES {
            return Err(NetworkError::Corrupt(format!(
                "{count} sets of tuples, one per stage"
            )));
        }
        let (mut sets, mut total) = (Vec::with_capacity(count), 0);
        for _ in 0..count {
            let (tuples, weights) = self.tuples()?;
            total += weights;
            if total > MAX_WEIGHTS {
                return Err(NetworkError::Corrupt(format!(
                    "its tuples hold more than {MAX_WEIGHTS} weights"
                )));
            }
            sets.push(tuples);
        }
        Ok((sets, total))
    }

    /// The tuples section of a file: a set per stage ([`Checked::tuple_sets`]) when
    /// `per_stage`, as a mixed network's format version writes it, else the one set
    /// every stage reads ([`Checked::tuples`]).
    pub(in crate::ntuple) fn tuple_sections(
        &mut self,
        per_stage: bool,
    ) -> Result<TupleSections, NetworkError> {
        Ok(if per_stage {
            let (sets, total) = self.tuple_sets()?;
            TupleSections::PerStage(sets, total)
        } else {
            let (tuples, weights) = self.tuples()?;
            TupleSections::Shared(tuples, weights)
        })
    }

    /// The stages: the number of thresholds, then each.
    pub(in crate::ntuple) fn stages(&mut self) -> Result<Stages, NetworkError> {
        let n = self.u32("the stages")? as usize;
        if n >= crate::ntuple::MAX_STAGES {
            return Err(NetworkError::Corrupt(format!("{n} stage thresholds")));
        }
        let mut thresholds = Vec::with_capacity(n);
        for _ in 0..n {
            thresholds.push(self.u32("the stages")?);
        }
        Stages::new(thresholds).map_err(|e| NetworkError::Corrupt(format!("the stages: {e}")))
    }

    /// The notes: their length, then UTF-8 text.
    pub(in crate::ntuple) fn notes(&mut self) -> Result<String, NetworkError> {
        let len = self.u32("the notes")? as usize;
        if len > MAX_NOTES {
            return Err(NetworkError::Corrupt(format!("notes of {len} bytes")));
        }
        let mut notes = vec![0; len];
        self.fill(&mut notes, "the notes")?;
        String::from_utf8(notes)
            .map_err(|_| NetworkError::Corrupt("the notes are not UTF-8".to_owned()))
    }

    pub(in crate::ntuple) fn fill(
        &mut self,
        buf: &mut [u8],
        what: &str,
    ) -> Result<(), NetworkError> {
        self.fill_unhashed(buf, what)?;
        self.hash.update(buf);
        Ok(())
    }

    /// [`Checked::fill`] without adding the bytes to the checksum: for bytes that a
    /// checksum of their own covers already (a packed file's body).
    pub(in crate::ntuple) fn fill_unhashed(
        &mut self,
        buf: &mut [u8],
        what: &str,
    ) -> Result<(), NetworkError> {
        self.inner.read_exact(buf).map_err(|e| match e.kind() {
            io::ErrorKind::UnexpectedEof => {
                NetworkError::Corrupt(format!("the file ends in {what}"))
            }
            _ => NetworkError::Io(e),
        })
    }
}

/// The tuples of each stage, from a file's tuples section: the one set every stage
/// reads ([`Checked::tuples`]), or a set per stage ([`Checked::tuple_sets`]).
pub(in crate::ntuple) enum TupleSections {
    /// One set for every stage, and the weights of one stage.
    Shared(Vec<Tuple>, usize),
    /// A set per stage, and the weights of all of them.
    PerStage(Vec<Vec<Tuple>>, usize),
}

impl TupleSections {
    /// The tuples of each of `stages`, and the weights of all of them.
    ///
    /// # Errors
    ///
    /// When they hold more than [`MAX_WEIGHTS`], or the sets do not number one per
    /// stage.
    pub(in crate::ntuple) fn per_stage(
        self,
        stages: &Stages,
    ) -> Result<(Vec<Vec<Tuple>>, usize), NetworkError> {
        match self {
            TupleSections::Shared(tuples, per_stage) => {
                if per_stage * stages.count() > MAX_WEIGHTS {
                    return Err(NetworkError::Corrupt(format!(
                        "its tuples and stages hold more than {MAX_WEIGHTS} weights"
                    )));
                }
                Ok((vec![tuples; stages.count()], per_stage * stages.count()))
            }
            TupleSections::PerStage(sets, total) if sets.len() == stages.count() => {
                Ok((sets, total))
            }
            TupleSections::PerStage(sets, _) => Err(NetworkError::Corrupt(format!(
                "{} sets of tuples, one per stage, but {} stage{}",
                sets.len(),
                stages.count(),
                if stages.count() == 1 { "" } else { "s" }
            ))),
        }
    }
}

/// Makes room in `values` for `n` more of the `total` a header declares: at most
/// what is read so far, or [`RESERVE_STEP`], ahead (never past `total`). The room grows
/// as the values arrive, so that a short file whose header declares gigabytes of
/// weights ends in an error, not in asking for them; and it grows by doubling, so that
/// a large network is copied no more than a few times.
pub(in crate::ntuple) fn reserve_ahead<T>(values: &mut Vec<T>, n: usize, total: usize) {
    if values.capacity() - values.len() < n {
        let ahead = values.len().max(RESERVE_STEP);
        values.reserve_exact(total.saturating_sub(values.len()).min(ahead).max(n));
    }
}

/// The bytes of the tuples (their number, then each one's length and cells; for a
/// [mixed](NTupleNetwork::is_mixed) network, the number of stages, then each stage's
/// tuples so), the
/// stages (the number of thresholds, then each) and, when `notes`, the notes (their
/// length, then UTF-8 text), as both formats write them.
pub(in crate::ntuple) fn shape_bytes(
    net: &NTupleNetwork,
    notes: bool,
) -> (Vec<u8>, Vec<u8>, Vec<u8>) {
    let section = |tuples: &[Tuple], bytes: &mut Vec<u8>| {
        bytes.extend_from_slice(&(tuples.len() as u32).to_le_bytes());
        for tuple in tuples {
            bytes.push(tuple.cells().len() as u8);
            bytes.extend_from_slice(tuple.cells());
        }
    };
    let mut tuples = Vec::new();
    if net.is_mixed() {
        let sets = net.stages().count();
        tuples.extend_from_slice(&(sets as u32).to_le_bytes());
        for stage in 0..sets {
            section(net.stage_tuples(stage).unwrap_or_default(), &mut tuples);
        }
    } else {
        section(net.tuples(), &mut tuples);
    }
    let thresholds = net.stages().thresholds();
    let mut stages = (thresholds.len() as u32).to_le_bytes().to_vec();
    for t in thresholds {
        stages.extend_from_slice(&t.to_le_bytes());
    }
    let mut text = Vec::new();
    if notes {
        let n = net.notes().as_bytes();
        let n = &n[..n.len().min(MAX_NOTES)];
        text.extend_from_slice(&(n.len() as u32).to_le_bytes());
        text.extend_from_slice(n);
    }
    (tuples, stages, text)
}
