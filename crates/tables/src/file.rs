//! The table file: a 64-byte header (128 bytes for a pattern with goals), then one value
//! a state: a little-endian `f32`, a `u16` that counts 65535ths, or a `u8` level of
//! [`Encoding::U8`].
//!
//! | bytes | what |
//! | --- | --- |
//! | 0..8 | `ai2048et`, the magic |
//! | 8..12 | the format's version: 1, 2 for a pattern with caps, 3 for one with a cell capped at 2, 4 for one with goals |
//! | 12..14, 14..16 | the fixed cells and the target cells, bit `i` for cell `i` |
//! | 16 | the target's exponent |
//! | 17 | the values' encoding: 1 for `f32`, 2 for `u16`, 3 for `u8` |
//! | 18 | version 4: how many goals the pattern holds |
//! | 24..32 | how many states (values) follow |
//! | 32..40 | how many layers are left to solve: 0 in a finished table |
//! | 40..44 | the CRC-32 of the values (and of an unfinished build's layers) |
//! | 44..52 | versions 2 and 3: the pattern's caps, nibble `i` cell `i`'s ([`Pattern::caps`]) |
//! | 60..64 | the CRC-32 of bytes 0..60 (and 64..128 in version 4) |
//! | 64..128 | version 4: the goals, 8 bytes each ([`crate::Goal::bits`]), the unused ones zero |
//!
//! Everything else in the header is zero. An unfinished build's file (layers left to
//! solve) holds after the values the `f32` values of its two lowest solved layers, in
//! their own order, and the checksum covers them too. A file is written whole to a
//! temporary name beside its own and renamed over it, so a reader sees the old file or
//! the new one, never half of one.

use core::fmt;
use std::fs::{self, File};
use std::io::{self, BufWriter, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use crate::goal::{Goal, MAX_GOALS};
use crate::layout::{Layout, MAX_TARGET_EXPONENT, MIN_TARGET_EXPONENT};
use crate::pattern::Pattern;

const MAGIC: &[u8; 8] = b"ai2048et";
/// The file format's version: a table whose pattern has no caps is written as version
/// 1, which builds from before caps read too, and one whose caps leave no cell at 2 as
/// version 2. Version 3 marks the tables whose values version 2's solver got wrong (a 4
/// spawned in a cell capped at 2 was read as another state), so that no such file is
/// played from. Version 4 holds a pattern with goals, in a longer header.
pub const VERSION: u32 = 4;
/// The header's length in bytes for a pattern without goals: the values start there.
pub const HEADER_LEN: usize = 64;
/// The header's length in bytes for a pattern with goals (version 4).
pub const GOALS_HEADER_LEN: usize = 128;

/// The header's length in bytes of the table file of `layout`: where its values start.
///
/// ```
/// use ai2048_tables::{header_len, Layout, GOALS_HEADER_LEN, HEADER_LEN};
/// let plain = Layout::new("xxxx/xxxx/xxxx/xx.t".parse()?, 8)?;
/// let goals = Layout::new("xxxx/xxxx/xxxx/xx.t ..../..../..../..11".parse()?, 8)?;
/// assert_eq!((header_len(&plain), header_len(&goals)), (HEADER_LEN, GOALS_HEADER_LEN));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[must_use]
pub fn header_len(layout: &Layout) -> usize {
    if layout.pattern().has_goals() {
        GOALS_HEADER_LEN
    } else {
        HEADER_LEN
    }
}

/// How a table file stores each state's success probability.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Encoding {
    /// A little-endian `f32`: exact to the solver's precision, 4 bytes a state.
    F32,
    /// A little-endian `u16` counting 65535ths (rounded to the nearest): within
    /// 0.0000077 of the solver's value, 2 bytes a state. The built-in tables use it.
    U16,
    /// One byte a state, the nearest of 256 levels: 0, 1, and 254 between them evenly
    /// spaced in log-odds from 1 in 10,000 to 9,999 in 10,000. Fine where play needs it
    /// (0.999 and 0.9995 are about nine levels apart) and coarse in the middle (about 0.018
    /// apart at 0.5): a quarter of `f32`'s size, half of `u16`'s.
    ///
    /// ```
    /// use ai2048_tables::Encoding;
    /// let levels = Encoding::u8_levels();
    /// assert_eq!((levels[0], levels[255]), (0.0, 1.0));
    /// assert!(levels.windows(2).all(|w| w[0] < w[1]));
    /// assert!((1.0 - levels[254] - 1e-4).abs() < 1e-6);
    /// ```
    U8,
    /// No probabilities: each state's best move only, in two bits (four states a
    /// byte), the first of the best in the order up, down, left, right, as the build
    /// solves it. An eighth of `u16`'s size. Such a table's answer values its move 1 and
    /// every other move that stays in its world 0 ([`crate::Table::query`]), so that a
    /// player plays its move wherever it answers; it is built so, not converted from
    /// values.
    Moves,
}

/// The log-odds of [`Encoding::U8`]'s lowest level above 0 (its highest below 1 is the
/// opposite): 1 in 10,000.
const U8_LOGIT: f64 = -9.21024; // ln(1e-4 / (1 - 1e-4))

impl Encoding {
    /// The bytes of one value; 0 for [`Encoding::Moves`], which stores no value (a
    /// quarter of a byte a state).
    #[must_use]
    pub const fn width(self) -> usize {
        match self {
            Encoding::F32 => 4,
            Encoding::U16 => 2,
            Encoding::U8 => 1,
            Encoding::Moves => 0,
        }
    }

    /// Whether the encoding stores probabilities (every one but [`Encoding::Moves`]).
    #[must_use]
    pub const fn has_values(self) -> bool {
        !matches!(self, Encoding::Moves)
    }

    /// The bytes that `states` states take in this encoding (`u64::MAX` past it).
    ///
    /// ```
    /// use ai2048_tables::Encoding;
    /// assert_eq!(Encoding::U16.bytes_for(10), 20);
    /// assert_eq!(Encoding::Moves.bytes_for(10), 3);
    /// ```
    #[must_use]
    pub const fn bytes_for(self, states: u64) -> u64 {
        match self {
            Encoding::Moves => states.div_ceil(4),
            _ => states.saturating_mul(self.width() as u64),
        }
    }

    /// The 256 values of [`Encoding::U8`], from 0 up to 1, computed once.
    #[must_use]
    pub fn u8_levels() -> &'static [f32; 256] {
        static LEVELS: std::sync::LazyLock<[f32; 256]> = std::sync::LazyLock::new(|| {
            let mut levels = [0.0; 256];
            levels[255] = 1.0;
            for (k, level) in levels.iter_mut().enumerate().take(255).skip(1) {
                let logit = U8_LOGIT - 2.0 * U8_LOGIT * (k - 1) as f64 / 253.0;
                *level = (1.0 / (1.0 + (-logit).exp())) as f32;
            }
            levels
        });
        &LEVELS
    }

    /// The length in bytes of the file of `layout`'s table in this encoding.
    ///
    /// ```
    /// use ai2048_tables::{Encoding, Layout, HEADER_LEN};
    /// let layout = Layout::new("xxxx/xxxx/xxxx/xx.t".parse()?, 8)?;
    /// assert_eq!(Encoding::U16.file_len(&layout), HEADER_LEN as u64 + 2 * layout.len());
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn file_len(self, layout: &Layout) -> u64 {
        header_len(layout) as u64 + self.bytes_for(layout.len())
    }

    const fn code(self) -> u8 {
        match self {
            Encoding::F32 => 1,
            Encoding::U16 => 2,
            Encoding::U8 => 3,
            Encoding::Moves => 4,
        }
    }

    /// Appends the bytes of `v` to `out`.
    fn put(self, v: f32, out: &mut Vec<u8>) {
        let at = out.len();
        out.resize(at + self.width(), 0);
        self.put_at(v, &mut out[at..]);
    }

    /// Stores state `i`'s value `v` and best move `best` (its [`ai2048_engine::Dir`]
    /// code, 0 to 3) in `bytes`, every state's in this encoding.
    #[inline]
    pub(crate) fn store(self, bytes: &mut [u8], i: usize, v: f32, best: u8) {
        if self == Encoding::Moves {
            let shift = 2 * (i % 4);
            let byte = &mut bytes[i / 4];
            *byte = (*byte & !(3 << shift)) | ((best & 3) << shift);
        } else {
            self.put_at(v, &mut bytes[i * self.width()..]);
        }
    }

    /// The best move of state `i` stored in `bytes` as [`Encoding::Moves`] stores it.
    #[inline]
    #[cfg_attr(target_arch = "wasm32", allow(dead_code))]
    pub(crate) fn best_at(bytes: &[u8], i: usize) -> u8 {
        (bytes[i / 4] >> (2 * (i % 4))) & 3
    }

    /// Writes the bytes of `v` at the start of `out` (an encoding of values).
    #[inline]
    pub(crate) fn put_at(self, v: f32, out: &mut [u8]) {
        match self {
            Encoding::F32 => out[..4].copy_from_slice(&v.to_le_bytes()),
            Encoding::U16 => {
                let q = (f64::from(v) * 65535.0).round().clamp(0.0, 65535.0) as u16;
                out[..2].copy_from_slice(&q.to_le_bytes());
            }
            Encoding::U8 => {
                let levels = Encoding::u8_levels();
                // The first level at or above v, or the one below it if that is nearer.
                let above = levels.partition_point(|&l| l < v).min(255);
                let q = if above > 0 && v - levels[above - 1] < levels[above] - v {
                    above - 1
                } else {
                    above
                };
                out[0] = q as u8;
            }
            Encoding::Moves => unreachable!("moves are stored by `store`"),
        }
    }

    /// The value whose bytes start `bytes`.
    #[inline]
    pub(crate) fn get(self, bytes: &[u8]) -> f32 {
        match self {
            Encoding::F32 => f32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]),
            Encoding::U16 => f32::from(u16::from_le_bytes([bytes[0], bytes[1]])) / 65535.0,
            Encoding::U8 => Encoding::u8_levels()[usize::from(bytes[0])],
            Encoding::Moves => unreachable!("a table of moves holds no values"),
        }
    }
}

impl fmt::Display for Encoding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Encoding::F32 => "f32",
            Encoding::U16 => "u16 (65535ths)",
            Encoding::U8 => "u8 (256 levels in log-odds)",
            Encoding::Moves => "moves (each state's best move, no probabilities)",
        })
    }
}

/// What a table file's header says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header {
    /// The pattern and target, and so the states.
    pub layout: Layout,
    /// How the values are stored.
    pub encoding: Encoding,
    /// How many layers are left to solve: 0 in a finished table, more in a build that
    /// was stopped.
    pub layers_left: u64,
    /// The CRC-32 of the values.
    pub crc: u32,
}

/// Why a table file could not be read or written.
#[derive(Debug)]
pub enum TableFileError {
    /// The file could not be opened, read or written.
    Io(PathBuf, io::Error),
    /// The file is not a table this build can read, or is damaged: what is wrong.
    Invalid(PathBuf, String),
}

impl fmt::Display for TableFileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TableFileError::Io(path, e) => write!(f, "{}: {e}", path.display()),
            TableFileError::Invalid(path, what) => write!(f, "{}: {what}", path.display()),
        }
    }
}

impl std::error::Error for TableFileError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            TableFileError::Io(_, e) => Some(e),
            TableFileError::Invalid(..) => None,
        }
    }
}

impl Header {
    /// The format version the file of this header is written as: the oldest that
    /// holds its pattern (see [`VERSION`]).
    #[must_use]
    pub fn version(&self) -> u32 {
        let pattern = self.layout.pattern();
        if pattern.has_goals() {
            4
        } else if pattern.caps() == 0 {
            1
        } else if self.layout.caps_a_cell_at_two() {
            3
        } else {
            2
        }
    }

    /// The header's bytes: [`header_len`] of them.
    #[must_use]
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut h = vec![0u8; header_len(&self.layout)];
        let pattern = self.layout.pattern();
        h[0..8].copy_from_slice(MAGIC);
        h[8..12].copy_from_slice(&self.version().to_le_bytes());
        h[12..14].copy_from_slice(&pattern.fixed_mask().to_le_bytes());
        h[14..16].copy_from_slice(&pattern.target_mask().to_le_bytes());
        h[16] = self.layout.target_exponent();
        h[17] = self.encoding.code();
        h[24..32].copy_from_slice(&self.layout.len().to_le_bytes());
        h[32..40].copy_from_slice(&self.layers_left.to_le_bytes());
        h[40..44].copy_from_slice(&self.crc.to_le_bytes());
        h[44..52].copy_from_slice(&pattern.caps().to_le_bytes());
        for (i, goal) in pattern.goals().enumerate() {
            h[18] += 1;
            h[HEADER_LEN + 8 * i..HEADER_LEN + 8 * i + 8]
                .copy_from_slice(&goal.bits().to_le_bytes());
        }
        let sum = header_crc(&h);
        h[60..64].copy_from_slice(&sum.to_le_bytes());
        h
    }

    /// Reads a header from its bytes, `path` naming the file in errors.
    ///
    /// # Errors
    ///
    /// Bytes that are not a table's header, or one of another version, or damaged.
    pub fn from_bytes(path: &Path, h: &[u8]) -> Result<Header, TableFileError> {
        let invalid = |what: String| TableFileError::Invalid(path.to_owned(), what);
        if h.len() < HEADER_LEN || &h[0..8] != MAGIC {
            return Err(invalid(
                "not an ai2048 endgame table (it does not start with `ai2048et`)".to_owned(),
            ));
        }
        let u16_at = |i: usize| u16::from_le_bytes([h[i], h[i + 1]]);
        let u32_at = |i: usize| u32::from_le_bytes(h[i..i + 4].try_into().expect("4 bytes"));
        let u64_at = |i: usize| u64::from_le_bytes(h[i..i + 8].try_into().expect("8 bytes"));
        let version = u32_at(8);
        if !(1..=VERSION).contains(&version) {
            return Err(invalid(format!(
                "a table of format version {version}; this build reads versions 1 to {VERSION}"
            )));
        }
        let len = if version >= 4 {
            GOALS_HEADER_LEN
        } else {
            HEADER_LEN
        };
        if h.len() < len {
            return Err(invalid(format!(
                "truncated within its header ({} bytes of {len})",
                h.len()
            )));
        }
        let h = &h[..len];
        if header_crc(h) != u32_at(60) {
            return Err(invalid(
                "its header is damaged (its checksum does not match)".to_owned(),
            ));
        }
        let caps = if version >= 2 { u64_at(44) } else { 0 };
        let goal_count = if version >= 4 { usize::from(h[18]) } else { 0 };
        if version >= 4 && !(1..=MAX_GOALS).contains(&goal_count) {
            return Err(invalid(format!(
                "its header says {goal_count} goals, where a table of version 4 holds 1 to \
                 {MAX_GOALS}"
            )));
        }
        let goals = (0..goal_count)
            .map(|i| Goal::from_bits(u64_at(HEADER_LEN + 8 * i)))
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| invalid(format!("its goals are invalid: {e}")))?;
        let pattern = Pattern::from_parts(u16_at(12), u16_at(14), caps, &goals)
            .map_err(|e| invalid(format!("its pattern is invalid: {e}")))?;
        let target = h[16];
        if !(MIN_TARGET_EXPONENT..=MAX_TARGET_EXPONENT).contains(&target) {
            return Err(invalid(format!(
                "its target exponent {target} is out of range"
            )));
        }
        let encoding = match h[17] {
            1 => Encoding::F32,
            2 => Encoding::U16,
            3 => Encoding::U8,
            4 => Encoding::Moves,
            other => return Err(invalid(format!("its values' encoding {other} is unknown"))),
        };
        let layout = Layout::new(pattern, 1 << target)
            .map_err(|e| invalid(format!("its pattern and target make no table: {e}")))?;
        if version < 3 && layout.caps_a_cell_at_two() {
            return Err(invalid(format!(
                "it was written by an older ai2048 (format version {version}), whose solver \
                 valued a 4 spawned in a cell capped at 2 wrongly: delete it and build it again"
            )));
        }
        if u64_at(24) != layout.len() {
            return Err(invalid(format!(
                "its header says {} states, but its pattern and target make {}",
                u64_at(24),
                layout.len()
            )));
        }
        Ok(Header {
            layout,
            encoding,
            layers_left: u64_at(32),
            crc: u32_at(40),
        })
    }

    /// The whole file's length in bytes: the header, the values, and in an unfinished
    /// build the `f32` values of its two lowest solved layers.
    #[must_use]
    pub fn file_len(&self) -> u64 {
        self.encoding.file_len(&self.layout) + 4 * self.tail_len()
    }

    /// How many `f32` follow the values in an unfinished build's file: the values of
    /// the lowest solved layer and of the one above it, in the order of
    /// [`crate::rank::LayerIndex`], from which the build goes on exactly.
    pub(crate) fn tail_len(&self) -> u64 {
        if self.layers_left == 0 {
            return 0;
        }
        let sizes = self.layout.layer_sizes();
        let at = |l: u64| {
            usize::try_from(l)
                .ok()
                .and_then(|l| sizes.get(l))
                .copied()
                .unwrap_or(0)
        };
        at(self.layers_left) + at(self.layers_left + 1)
    }
}

/// Writes `values` in `encoding` with their header to `path` as a finished table,
/// whole or not at all: to a temporary file beside it, synced, then renamed over it.
///
/// # Errors
///
/// Any error creating, writing or renaming the file.
pub fn write_table(
    path: &Path,
    layout: &Layout,
    encoding: Encoding,
    values: &[f32],
) -> Result<(), TableFileError> {
    let mut chunks = values.chunks(1 << 14);
    write_chunks(path, layout, encoding, |out| {
        out.clear();
        out.extend_from_slice(chunks.next().unwrap_or_default());
        Ok(!out.is_empty())
    })
}

/// Writes a build's progress to `path` as [`write_table`] writes: `bytes`, every
/// state's value in `encoding` (zeros for the layers not solved yet), `layers_left` in
/// the header, and after the values `tail`, the `f32` values of layer `layers_left`
/// and of the one above it (see [`Header::tail_len`]). With no layer left, and so no
/// tail, it is the finished table.
pub(crate) fn write_bytes(
    path: &Path,
    layout: &Layout,
    encoding: Encoding,
    layers_left: u64,
    bytes: &[u8],
    tail: [&[f32]; 2],
) -> Result<(), TableFileError> {
    let mut values = bytes.chunks(1 << 20);
    let mut tail = tail.into_iter().flat_map(|t| t.chunks(1 << 16));
    write_file(path, layout, encoding, layers_left, |out| {
        out.clear();
        if let Some(chunk) = values.next() {
            out.extend_from_slice(chunk);
        } else if let Some(chunk) = tail.next() {
            out.extend(chunk.iter().flat_map(|v| v.to_le_bytes()));
        }
        Ok(!out.is_empty())
    })
}

/// Reads a build's progress written by [`write_bytes`], checking its checksum: its
/// header, its values' bytes, and the tail's `f32` values.
pub(crate) fn read_bytes(path: &Path) -> Result<(Header, Vec<u8>, Vec<f32>), TableFileError> {
    let header = read_header(path)?;
    let io = |e| TableFileError::Io(path.to_owned(), e);
    let mut file = File::open(path).map_err(io)?;
    file.seek(SeekFrom::Start(header_len(&header.layout) as u64))
        .map_err(io)?;
    let values_len = header.encoding.bytes_for(header.layout.len());
    let too_large = || {
        TableFileError::Invalid(
            path.to_owned(),
            format!("its {values_len} bytes of values do not fit this machine's memory"),
        )
    };
    let mut bytes = Vec::new();
    bytes
        .try_reserve_exact(usize::try_from(values_len).map_err(|_| too_large())?)
        .map_err(|_| too_large())?;
    Read::by_ref(&mut file)
        .take(values_len)
        .read_to_end(&mut bytes)
        .map_err(io)?;
    let mut tail_bytes = Vec::new();
    file.read_to_end(&mut tail_bytes).map_err(io)?;
    let mut crc = crc32fast::Hasher::new();
    crc.update(&bytes);
    crc.update(&tail_bytes);
    if crc.finalize() != header.crc {
        return Err(damaged(path));
    }
    let tail = tail_bytes
        .chunks_exact(4)
        .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        .collect();
    Ok((header, bytes, tail))
}

/// Writes the finished table file `src` again to `dst` (which may be `src`) in
/// `encoding`, as [`write_table`] writes, reading it a piece at a time: a table of any
/// size is converted in a few megabytes of memory. Returns the new file's header.
///
/// ```
/// use ai2048_tables::{read_values, reencode, write_table, Encoding, Layout};
/// let dir = tempfile::tempdir()?;
/// let (src, dst) = (dir.path().join("a.table"), dir.path().join("b.table"));
/// let layout = Layout::new("xxxx/xxxx/xxxx/xx.t".parse()?, 8)?;
/// let values: Vec<f32> = (0..layout.len()).map(|i| i as f32 / layout.len() as f32).collect();
/// write_table(&src, &layout, Encoding::F32, &values)?;
/// assert_eq!(reencode(&src, &dst, Encoding::U16)?.encoding, Encoding::U16);
/// let (_, back) = read_values(&dst)?;
/// assert!(back.iter().zip(&values).all(|(a, b)| (a - b).abs() < 1e-5));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
///
/// `src` is not a finished, sound table (its checksum is checked on the way: `dst` is
/// then left as it was), or `dst` cannot be written.
pub fn reencode(src: &Path, dst: &Path, encoding: Encoding) -> Result<Header, TableFileError> {
    let header = read_finished_header(src)?;
    let mut reader = ValueReader::open(src, &header)?;
    // To a temporary file renamed over `dst` at the end: `src` may be `dst`, read on
    // through its open handle.
    write_chunks(dst, &header.layout, encoding, |values| {
        values.clear();
        reader.read_into(values)
    })?;
    read_header(dst)
}

/// Writes the values that `next` gives, a chunk a call (it returns `false` when there
/// are no more), as a finished table, as [`write_table`] writes. An error of `next`
/// abandons the file.
fn write_chunks(
    path: &Path,
    layout: &Layout,
    encoding: Encoding,
    mut next: impl FnMut(&mut Vec<f32>) -> Result<bool, TableFileError>,
) -> Result<(), TableFileError> {
    if !encoding.has_values() {
        return Err(TableFileError::Invalid(
            path.to_owned(),
            format!(
                "a table of {encoding} is built (ai2048 tables build --encoding moves), not \
                 written from values"
            ),
        ));
    }
    let mut values = Vec::with_capacity(1 << 16);
    write_file(path, layout, encoding, 0, |bytes| {
        bytes.clear();
        let more = next(&mut values)?;
        for &v in &values {
            encoding.put(v, bytes);
        }
        Ok(more)
    })
}

/// Writes a table file whose bytes after the header `next` gives, a chunk a call (it
/// returns `false` when there are no more), whole or not at all: to a temporary file
/// beside `path`, synced, then renamed over it. An error of `next` abandons the file.
fn write_file(
    path: &Path,
    layout: &Layout,
    encoding: Encoding,
    layers_left: u64,
    mut next: impl FnMut(&mut Vec<u8>) -> Result<bool, TableFileError>,
) -> Result<(), TableFileError> {
    let tmp = temporary(path);
    let io = |e| TableFileError::Io(path.to_owned(), e);
    let result = (|| {
        // The values first, after room for the header, which their checksum completes.
        let mut out = BufWriter::with_capacity(1 << 20, File::create(&tmp).map_err(io)?);
        out.write_all(&vec![0; header_len(layout)]).map_err(io)?;
        let mut crc = crc32fast::Hasher::new();
        let mut bytes = Vec::with_capacity(1 << 20);
        while next(&mut bytes)? {
            crc.update(&bytes);
            out.write_all(&bytes).map_err(io)?;
        }
        let header = Header {
            layout: layout.clone(),
            encoding,
            layers_left,
            crc: crc.finalize(),
        };
        out.seek(SeekFrom::Start(0)).map_err(io)?;
        out.write_all(&header.to_bytes()).map_err(io)?;
        let file = out
            .into_inner()
            .map_err(|e| io(io::IntoInnerError::into_error(e)))?;
        file.sync_all().map_err(io)?;
        fs::rename(&tmp, path).map_err(io)
    })();
    if result.is_err() {
        fs::remove_file(&tmp).ok();
    }
    result
}

/// The table files (`*.table`) of folder `dir`, sorted by name: finished or not
/// (a stopped build keeps its progress in `*.table.partial`, which is not listed).
///
/// # Errors
///
/// A folder that cannot be read.
///
/// ```
/// let dir = tempfile::tempdir()?;
/// std::fs::write(dir.path().join("b.table"), b"")?;
/// std::fs::write(dir.path().join("a.table"), b"")?;
/// std::fs::write(dir.path().join("a.table.partial"), b"")?;
/// let names: Vec<_> = ai2048_tables::table_files(dir.path())?
///     .into_iter()
///     .map(|p| p.file_name().unwrap().to_owned())
///     .collect();
/// assert_eq!(names, ["a.table", "b.table"]);
/// # Ok::<(), std::io::Error>(())
/// ```
pub fn table_files(dir: &Path) -> io::Result<Vec<PathBuf>> {
    files_ending(dir, "table", |_| true)
}

/// The distilled tables in `dir` (files named `*.dt`, [`crate::Distilled`]), in order
/// of name.
///
/// # Errors
///
/// A folder that cannot be read.
///
/// ```
/// let dir = tempfile::tempdir()?;
/// std::fs::write(dir.path().join("b.dt"), b"")?;
/// std::fs::write(dir.path().join("a.table"), b"")?;
/// std::fs::create_dir(dir.path().join("c.dt"))?;
/// let names: Vec<_> = ai2048_tables::distilled_files(dir.path())?
///     .into_iter()
///     .map(|p| p.file_name().unwrap().to_owned())
///     .collect();
/// assert_eq!(names, ["b.dt"]);
/// # Ok::<(), std::io::Error>(())
/// ```
pub fn distilled_files(dir: &Path) -> io::Result<Vec<PathBuf>> {
    files_ending(dir, "dt", |p| p.is_file())
}

/// The paths in `dir` with extension `ext` that pass `keep`, in order of name.
fn files_ending(dir: &Path, ext: &str, keep: impl Fn(&Path) -> bool) -> io::Result<Vec<PathBuf>> {
    let mut paths: Vec<PathBuf> = fs::read_dir(dir)?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == ext) && keep(p))
        .collect();
    paths.sort();
    Ok(paths)
}

/// The temporary name a file is written under before it is renamed to `path`.
fn temporary(path: &Path) -> PathBuf {
    with_suffix(path, ".tmp")
}

/// `path` with `suffix` added to its file name: `a.table` and `.tmp` make `a.table.tmp`.
pub(crate) fn with_suffix(path: &Path, suffix: &str) -> PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(suffix);
    path.with_file_name(name)
}

/// Reads the header of the table file at `path`, and checks that the file is as long
/// as it says.
///
/// # Errors
///
/// The file cannot be read, is not a table, or is shorter or longer than its header says.
pub fn read_header(path: &Path) -> Result<Header, TableFileError> {
    let (header, len) = header_and_len(path)?;
    check_len(path, &header, len)?;
    Ok(header)
}

/// The header of the file at `path`, and the file's length.
fn header_and_len(path: &Path) -> Result<(Header, u64), TableFileError> {
    let io = |e| TableFileError::Io(path.to_owned(), e);
    let mut file = File::open(path).map_err(io)?;
    let len = file.metadata().map_err(io)?.len();
    let mut h = Vec::with_capacity(GOALS_HEADER_LEN);
    Read::by_ref(&mut file)
        .take(GOALS_HEADER_LEN as u64)
        .read_to_end(&mut h)
        .map_err(io)?;
    Ok((Header::from_bytes(path, &h)?, len))
}

/// Checks that a file of `len` bytes is as long as its header says.
fn check_len(path: &Path, header: &Header, len: u64) -> Result<(), TableFileError> {
    if len == header.file_len() {
        return Ok(());
    }
    Err(TableFileError::Invalid(
        path.to_owned(),
        format!(
            "{} ({len} bytes, where its header says {})",
            if len < header.file_len() {
                "truncated"
            } else {
                "too long"
            },
            header.file_len()
        ),
    ))
}

/// Reads a finished table file's values into memory, checking its checksum.
///
/// # Errors
///
/// As [`read_header`], an unfinished build, and a checksum that does not match.
pub fn read_values(path: &Path) -> Result<(Header, Vec<f32>), TableFileError> {
    let header = read_finished_header(path)?;
    let mut reader = ValueReader::open(path, &header)?;
    // In chunks, so that reading takes no memory beside the values themselves.
    let mut values = Vec::with_capacity(header.layout.len() as usize);
    while reader.read_into(&mut values)? {}
    Ok((header, values))
}

/// Reads the header of the table file at `path`, as [`read_header`], and refuses an
/// unfinished build: the check of every reader that plays or converts a table.
pub(crate) fn read_finished_header(path: &Path) -> Result<Header, TableFileError> {
    let (header, len) = header_and_len(path)?;
    if header.layers_left > 0 {
        return Err(TableFileError::Invalid(
            path.to_owned(),
            format!(
                "an unfinished build ({} layers left to solve): run the build again to finish it",
                header.layers_left
            ),
        ));
    }
    check_len(path, &header, len)?;
    Ok(header)
}

/// A table file's values read a chunk at a time, its checksum checked after the last.
struct ValueReader<'a> {
    path: &'a Path,
    encoding: Encoding,
    expected_crc: u32,
    file: io::BufReader<File>,
    crc: crc32fast::Hasher,
    bytes: Vec<u8>,
    left: usize,
}

impl<'a> ValueReader<'a> {
    /// The values of the file at `path`, whose header is `header`.
    fn open(path: &'a Path, header: &Header) -> Result<ValueReader<'a>, TableFileError> {
        if !header.encoding.has_values() {
            return Err(TableFileError::Invalid(
                path.to_owned(),
                "it holds each state's best move, not probabilities: it has no values to read \
                 or convert"
                    .to_owned(),
            ));
        }
        let io = |e| TableFileError::Io(path.to_owned(), e);
        let mut file = io::BufReader::new(File::open(path).map_err(io)?);
        file.seek(SeekFrom::Start(header_len(&header.layout) as u64))
            .map_err(io)?;
        Ok(ValueReader {
            path,
            encoding: header.encoding,
            expected_crc: header.crc,
            file,
            crc: crc32fast::Hasher::new(),
            bytes: vec![0u8; header.encoding.width() << 16],
            left: header.layout.len() as usize,
        })
    }

    /// Appends the next chunk of values to `out`: `false` once every value is read
    /// and the checksum matches, an error if it does not.
    fn read_into(&mut self, out: &mut Vec<f32>) -> Result<bool, TableFileError> {
        if self.left == 0 {
            if self.crc.clone().finalize() != self.expected_crc {
                return Err(damaged(self.path));
            }
            return Ok(false);
        }
        let width = self.encoding.width();
        let chunk = &mut self.bytes[..width * self.left.min(1 << 16)];
        self.file
            .read_exact(chunk)
            .map_err(|e| TableFileError::Io(self.path.to_owned(), e))?;
        self.crc.update(chunk);
        out.extend(chunk.chunks_exact(width).map(|b| self.encoding.get(b)));
        self.left -= chunk.len() / width;
        Ok(true)
    }
}

/// The CRC-32 of a header's bytes but its checksum's (60..64).
fn header_crc(h: &[u8]) -> u32 {
    let mut crc = crc32fast::Hasher::new();
    crc.update(&h[..60]);
    crc.update(&h[HEADER_LEN.min(h.len())..]);
    crc.finalize()
}

/// The error of values whose checksum does not match.
fn damaged(path: &Path) -> TableFileError {
    TableFileError::Invalid(
        path.to_owned(),
        "its values are damaged (their checksum does not match the header's)".to_owned(),
    )
}

/// Checks the values' bytes against the header's checksum (of a mapped file: not in
/// WebAssembly, which maps none).
#[cfg(not(target_arch = "wasm32"))]
pub(crate) fn check_crc(path: &Path, header: &Header, data: &[u8]) -> Result<(), TableFileError> {
    if crc32fast::hash(data) == header.crc {
        Ok(())
    } else {
        Err(damaged(path))
    }
}
