//! The packed network file: a network made small for play, with its weights as `i16`
//! (one scale per table) and compressed with zstd.
//!
//! | bytes | what |
//! |-------|------|
//! | 8 | the magic `ai2048np` |
//! | 4 | the format version (`u32`): 1, or 2 for a [mixed](NTupleNetwork::is_mixed) network |
//! | n | one zstd frame holding the body below |
//! | 8 | FNV-1a 64 of every byte before it (`u64`): the network's checksum |
//!
//! The body:
//!
//! | bytes | what |
//! |-------|------|
//! | 8 | games trained (`u64`) |
//! | 4 + ... | the tuples, the stages and the notes, as in the trained format (version 2: the tuples as in its version 5, a set per stage) |
//! | 1 | the weights' format: 1, `i16` with one `f32` scale per table |
//! | 4 per table | each table's scale, stage after stage, tuple after tuple (`f32`) |
//! | 2 per weight | every weight as [`NTupleNetwork::weights`] orders them (`i16`) |
//!
//! All numbers are little-endian.

use std::io::{self, Read};

use super::file::{reserve_ahead, Checked, Fnv};
use super::network::table_starts;
use super::weights::{Quantized, Weights};
use super::{NTupleNetwork, NetworkError};

/// The first bytes of a packed network.
pub const PACKED_MAGIC: &[u8; 8] = b"ai2048np";
/// The format version of a network of one set of tuples; builds before version 2 read
/// it too.
const VERSION_SHARED: u32 = 1;
/// The format version of a mixed network, whose stages read tuples of their own.
const VERSION: u32 = 2;
/// The weights' format in the body: `i16` with a scale per table.
const I16_SCALED: u8 = 1;

/// What a packed file says of itself, without its weights.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PackedInfo {
    /// The file's size in bytes.
    pub bytes: usize,
    /// The FNV-1a 64 checksum at its end, which names the network.
    pub checksum: u64,
    /// The format version: 1, or 2 for a [mixed](NTupleNetwork::is_mixed) network.
    pub version: u32,
}

impl NTupleNetwork {
    /// Writes the network packed for play (see the module's table): its weights as
    /// `i16` with one scale per table, compressed at zstd `level` (1 to 22; 19 makes
    /// the smallest files in reasonable time). The coherence a network keeps for
    /// learning is left out.
    ///
    /// # Errors
    ///
    /// When `out` fails, or `level` is not one zstd takes.
    ///
    /// ```
    /// use ai2048_ai::ntuple::{parse_tuples, NTupleNetwork};
    /// use ai2048_engine::Board;
    /// let net = NTupleNetwork::new(parse_tuples("small")?);
    /// let board: Board = "2 4 8 16/0 0 0 0/0 0 0 0/0 0 0 0".parse()?;
    /// net.learn(board, 1000.0);
    /// let mut packed = Vec::new();
    /// net.write_packed(&mut packed, 3)?;
    /// let back = NTupleNetwork::read_packed(&packed)?;
    /// assert!(back.is_quantized());
    /// assert!((back.value(board) - net.value(board)).abs() < 0.5);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[cfg(not(target_arch = "wasm32"))]
    pub fn write_packed(&self, mut out: impl io::Write, level: i32) -> io::Result<()> {
        use super::file::shape_bytes;
        use std::io::Write;
        let packed;
        let net = if self.is_quantized() {
            self
        } else {
            packed = self.quantized();
            &packed
        };
        let Weights::Quantized(q) = net.storage() else {
            unreachable!("quantized above")
        };
        let mut file = Vec::new();
        file.extend_from_slice(PACKED_MAGIC);
        let version = if net.is_mixed() {
            VERSION
        } else {
            VERSION_SHARED
        };
        file.extend_from_slice(&version.to_le_bytes());
        {
            let mut z = zstd::Encoder::new(&mut file, level)?;
            z.include_checksum(true)?;
            z.write_all(&net.games().to_le_bytes())?;
            let (tuples, stages, notes) = shape_bytes(net, true);
            z.write_all(&tuples)?;
            z.write_all(&stages)?;
            z.write_all(&notes)?;
            z.write_all(&[I16_SCALED])?;
            for scale in q.scales.iter() {
                z.write_all(&scale.to_le_bytes())?;
            }
            let mut chunk = Vec::with_capacity(1 << 16);
            for block in q.values.chunks(1 << 15) {
                chunk.clear();
                chunk.extend(block.iter().flat_map(|v| v.to_le_bytes()));
                z.write_all(&chunk)?;
            }
            z.finish()?;
        }
        let mut hash = Fnv::new();
        hash.update(&file);
        file.extend_from_slice(&hash.0.to_le_bytes());
        out.write_all(&file)?;
        out.flush()
    }

    /// Reads a packed network ([`NTupleNetwork::write_packed`]): its weights stay
    /// `i16`, half the memory of `f32`.
    ///
    /// # Errors
    ///
    /// [`NetworkError::NotANetwork`] when the bytes do not start with
    /// [`PACKED_MAGIC`], [`NetworkError::Version`], or [`NetworkError::Corrupt`] saying
    /// what is wrong: a wrong checksum, a damaged compressed body, bad tuples or
    /// stages, a short body or bytes after it.
    pub fn read_packed(bytes: &[u8]) -> Result<NTupleNetwork, NetworkError> {
        let info = packed_info(bytes)?;
        let frame = &bytes[12..info.bytes - 8];
        let decoder = decompressed(frame).map_err(damaged)?;
        let mut r = Checked {
            inner: decoder,
            hash: Fnv::new(),
        };
        let damage = |e: NetworkError| match e {
            NetworkError::Io(e) => damaged(e),
            e => e,
        };
        let games = u64::from_le_bytes(r.bytes("the header").map_err(damage)?);
        let sections = r.tuple_sections(info.version >= VERSION).map_err(damage)?;
        let stages = r.stages().map_err(damage)?;
        let notes = r.notes().map_err(damage)?;
        let (per_stage, total) = sections.per_stage(&stages)?;
        let [format] = r.bytes("the header").map_err(damage)?;
        if format != I16_SCALED {
            return Err(NetworkError::Corrupt(format!(
                "weights of format {format}, but this build reads format {I16_SCALED}"
            )));
        }
        let tables: usize = per_stage.iter().map(Vec::len).sum();
        let mut scales = Vec::with_capacity(tables);
        for t in 0..tables {
            let scale = f32::from_le_bytes(r.bytes("the scales").map_err(damage)?);
            if !(scale.is_finite() && scale > 0.0) {
                return Err(NetworkError::Corrupt(format!(
                    "the scale of table {} is {scale}",
                    t + 1
                )));
            }
            scales.push(scale);
        }
        // The whole file's checksum and zstd's own cover the weights, so they are read
        // without hashing them again. Natively, straight onto huge pages where the
        // system gives them: the table is fresh memory that costs nothing until it is
        // filled, so a header that declares more weights than the body holds ends in
        // an error having asked only for address space. In WebAssembly, where
        // asking is having, the table grows as the weights arrive.
        #[cfg(not(target_arch = "wasm32"))]
        let mut values: Vec<i16> = crate::huge::try_with_capacity(total).map_err(|_| {
            NetworkError::Corrupt(format!(
                "it declares {total} weights, more than fit in memory"
            ))
        })?;
        #[cfg(target_arch = "wasm32")]
        let mut values: Vec<i16> = Vec::new();
        // Each chunk is read into weights seen as bytes, turned from little-endian
        // where the machine is not, and copied onto the table: no loop a weight,
        // which the tests' unoptimized builds took seconds over (the built-in
        // network's 67 M weights, read by every process that plays with it).
        let mut buffer = vec![0i16; 1 << 20];
        let room = buffer.len();
        while values.len() < total {
            let chunk = &mut buffer[..(total - values.len()).min(room)];
            r.fill_unhashed(bytemuck::cast_slice_mut(chunk), "the weights")
                .map_err(damage)?;
            if cfg!(target_endian = "big") {
                chunk.iter_mut().for_each(|v| *v = i16::from_le(*v));
            }
            reserve_ahead(&mut values, chunk.len(), total);
            values.extend_from_slice(chunk);
        }
        let mut rest = [0u8; 1];
        if r.inner.read(&mut rest).map_err(damaged)? != 0 {
            return Err(NetworkError::Corrupt(
                "there are bytes after the weights".to_owned(),
            ));
        }
        let starts = table_starts(per_stage.iter().map(Vec::as_slice));
        let weights = Weights::Quantized(Quantized {
            values: values.into(),
            scales: scales.into(),
            starts: starts.into(),
        });
        Ok(NTupleNetwork::from_parts(
            per_stage, stages, weights, games, notes,
        ))
    }
}

/// The body of a packed network, decompressed as it is read: by zstd's C library
/// natively, by the pure-Rust ruzstd in WebAssembly.
#[cfg(not(target_arch = "wasm32"))]
fn decompressed(frame: &[u8]) -> io::Result<impl Read + '_> {
    zstd::Decoder::with_buffer(frame)
}

/// The body of a packed network, decompressed as it is read: by zstd's C library
/// natively, by the pure-Rust ruzstd in WebAssembly.
#[cfg(target_arch = "wasm32")]
fn decompressed(frame: &[u8]) -> io::Result<impl Read + '_> {
    ruzstd::decoding::StreamingDecoder::new(frame)
        .map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e.to_string()))
}

/// The size and checksum of a packed network, once its magic, version and checksum
/// are checked; its body is not read.
///
/// # Errors
///
/// As [`NTupleNetwork::read_packed`], for the parts it checks.
pub fn packed_info(bytes: &[u8]) -> Result<PackedInfo, NetworkError> {
    if bytes.len() < 8 || &bytes[..8] != PACKED_MAGIC {
        return Err(NetworkError::NotANetwork);
    }
    if bytes.len() < 12 + 8 {
        return Err(NetworkError::Corrupt(
            "the file ends in the header".to_owned(),
        ));
    }
    let version = u32::from_le_bytes(bytes[8..12].try_into().expect("4 bytes"));
    if !(VERSION_SHARED..=VERSION).contains(&version) {
        return Err(NetworkError::Version(version));
    }
    let end = bytes.len() - 8;
    let mut hash = Fnv::new();
    hash.update(&bytes[..end]);
    let checksum = u64::from_le_bytes(bytes[end..].try_into().expect("8 bytes"));
    if hash.0 != checksum {
        return Err(NetworkError::Corrupt(
            "the checksum does not match".to_owned(),
        ));
    }
    Ok(PackedInfo {
        bytes: bytes.len(),
        checksum,
        version,
    })
}

/// A compressed body zstd cannot read, or that ends early.
fn damaged(e: io::Error) -> NetworkError {
    if e.kind() == io::ErrorKind::UnexpectedEof {
        NetworkError::Corrupt("the compressed body ends early".to_owned())
    } else {
        NetworkError::Corrupt(format!("the compressed body is damaged: {e}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ntuple::{learn_boards, parse_tuples, Stages};
    use ai2048_engine::Board;

    fn trained() -> NTupleNetwork {
        let net = NTupleNetwork::with_stages(
            parse_tuples("0,1,2;5,6").expect("valid"),
            "16384".parse::<Stages>().expect("valid"),
            0.0,
        );
        learn_boards(
            &net,
            &[
                "2 4 8 0/0 0 0 0/0 0 0 0/0 0 0 2",
                "0 0 0 0/0 4 4 0/0 2 0 0/0 0 0 0",
                "16384 4 0 0/0 0 0 0/0 0 0 0/0 0 0 0",
            ],
            350.0,
        );
        let mut net = net;
        net.add_note("a test network");
        net
    }

    fn packed(net: &NTupleNetwork) -> Vec<u8> {
        let mut bytes = Vec::new();
        net.write_packed(&mut bytes, 3).expect("in memory");
        bytes
    }

    #[test]
    fn a_packed_network_values_boards_as_the_trained_one() {
        let net = trained();
        let bytes = packed(&net);
        let back = NTupleNetwork::read_packed(&bytes).expect("reads");
        assert_eq!(back.tuples(), net.tuples());
        assert_eq!(back.stages(), net.stages());
        assert_eq!(back.notes(), "a test network");
        let mut rng = ai2048_engine::Rng::new(1);
        for _ in 0..500 {
            let b = Board::from_u64(rng.next_u64() & 0x3333_3333_3333_3333);
            // Each table's step is its largest weight / 32767; a value reads 16.
            assert!((back.value(b) - net.value(b)).abs() < 16.0 * 1050.0 / 32767.0);
        }
        // Packing a packed network changes nothing.
        assert_eq!(packed(&back), bytes);
        // And it can learn again, from f32.
        let mut again = back.clone();
        crate::ntuple::train_game(&mut again, &crate::ntuple::TrainConfig::default());
        assert_eq!(again.games(), 1);
        assert!(!again.is_quantized());
    }

    #[test]
    fn a_mixed_network_packs_with_each_stage_its_tuples() {
        let net = crate::ntuple::file::tests::mixed();
        let bytes = packed(&net);
        assert_eq!(packed_info(&bytes).expect("reads").version, 2);
        let back = NTupleNetwork::read_packed(&bytes).expect("reads");
        assert!(back.is_mixed());
        for stage in 0..2 {
            assert_eq!(back.stage_tuples(stage), net.stage_tuples(stage));
        }
        for text in [
            "2 4 8 0/0 0 0 0/0 0 0 0/0 0 0 2",
            "16384 8 2 0/0 0 0 0/0 0 0 0/0 0 0 0",
        ] {
            let b: Board = text.parse().expect("a board");
            assert!((back.value(b) - net.value(b)).abs() < 0.1, "{text}");
        }
        assert_eq!(packed(&back), bytes);
        // One set of tuples packs as version 1, which older builds read.
        assert_eq!(packed_info(&packed(&trained())).expect("reads").version, 1);
    }

    #[test]
    fn damage_is_named() {
        let bytes = packed(&trained());
        let read = |b: &[u8]| NTupleNetwork::read_packed(b).unwrap_err().to_string();
        assert!(read(b"ai2048nt").contains("not an ai2048"));
        assert!(read(&bytes[..15]).contains("ends in the header"));
        let mut version = bytes.clone();
        version[8] = 7;
        assert!(read(&version).contains("version 7"));
        let mut flipped = bytes.clone();
        flipped[30] ^= 4;
        assert!(read(&flipped).contains("checksum does not match"));
        // A damaged body under a right checksum: the body's own check catches it.
        let resealed = |mut b: Vec<u8>| {
            let end = b.len() - 8;
            let mut hash = Fnv::new();
            hash.update(&b[..end]);
            b[end..].copy_from_slice(&hash.0.to_le_bytes());
            b
        };
        let mut body = bytes.clone();
        let at = body.len() - 20;
        body[at] ^= 0xFF;
        let err = read(&resealed(body));
        assert!(err.contains("the compressed body is damaged"), "{err}");
        let mut short = bytes[..bytes.len() - 30].to_vec();
        short.extend_from_slice(&[0; 8]);
        let err = read(&resealed(short));
        assert!(
            err.contains("compressed body") || err.contains("the file ends in"),
            "{err}"
        );
        let info = packed_info(&bytes).expect("whole");
        assert_eq!(info.bytes, bytes.len());
    }

    #[test]
    fn a_huge_header_with_no_weights_is_refused() {
        // 2^30 weights declared (sixteen 6-tuples in 4 stages), under a right
        // checksum, and none follows: an error, not 2 GiB made ready for them.
        let mut body = Vec::new();
        body.extend_from_slice(&0u64.to_le_bytes());
        body.extend_from_slice(&16u32.to_le_bytes());
        for _ in 0..16 {
            body.extend_from_slice(&[6, 0, 1, 2, 3, 4, 5]);
        }
        body.extend_from_slice(&3u32.to_le_bytes());
        for t in 1..=3u32 {
            body.extend_from_slice(&(t * 1000).to_le_bytes());
        }
        body.extend_from_slice(&0u32.to_le_bytes());
        body.push(I16_SCALED);
        for _ in 0..16 * 4 {
            body.extend_from_slice(&1f32.to_le_bytes());
        }
        let mut bytes = PACKED_MAGIC.to_vec();
        bytes.extend_from_slice(&VERSION_SHARED.to_le_bytes());
        bytes.extend_from_slice(&zstd::encode_all(&body[..], 1).expect("in memory"));
        let mut hash = Fnv::new();
        hash.update(&bytes);
        bytes.extend_from_slice(&hash.0.to_le_bytes());
        let err = NTupleNetwork::read_packed(&bytes).unwrap_err().to_string();
        assert!(err.contains("the file ends in the weights"), "{err}");
    }
}
