//! The table file: a 64-byte header (128 bytes for a pattern with goals), then one value
//! a state: a little-endian `f32`, or a `u16` that counts 65535ths.
//!
//! | bytes | what |
//! | --- | --- |
//! | 0..8 | `ai2048et`, the magic |
//! | 8..12 | the format's version: 1, 2 for a pattern with caps, 3 for one with a cell capped at 2, 4 for one with goals |
//! | 12..14, 14..16 | the fixed cells and the target cells, bit `i` for cell `i` |
//! | 16 | the target's exponent |
//! | 17 | the values' encoding: 1 for `f32`, 2 for `u16` |
//! | 18 | version 4: how many goals the pattern holds |
//! | 24..32 | how many states (values) follow |
//! | 32..40 | how many layers are left to solve: 0 in a finished table |
//! | 40..44 | the CRC-32 of the values |
//! | 44..52 | versions 2 and 3: the pattern's caps, nibble `i` cell `i`'s ([`Pattern::caps`]) |
//! | 60..64 | the CRC-32 of bytes 0..60 (and 64..128 in version 4) |
//! | 64..128 | version 4: the goals, 8 bytes each ([`crate::Goal::bits`]), the unused ones zero |
//!
//! Everything else is zero. A file is written whole to a temporary name beside its
//! own and renamed over it, so a reader sees the old file or the new one, never half
//! of one.

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
}

impl Encoding {
    /// The bytes of one value.
    #[must_use]
    pub const fn width(self) -> usize {
        match self {
            Encoding::F32 => 4,
            Encoding::U16 => 2,
        }
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
        header_len(layout) as u64 + self.width() as u64 * layout.len()
    }

    const fn code(self) -> u8 {
        match self {
            Encoding::F32 => 1,
            Encoding::U16 => 2,
        }
    }

    /// Appends the bytes of `v` to `out`.
    fn put(self, v: f32, out: &mut Vec<u8>) {
        match self {
            Encoding::F32 => out.extend_from_slice(&v.to_le_bytes()),
            Encoding::U16 => {
                let q = (f64::from(v) * 65535.0).round().clamp(0.0, 65535.0) as u16;
                out.extend_from_slice(&q.to_le_bytes());
            }
        }
    }

    /// The value whose bytes start `bytes`.
    #[inline]
    pub(crate) fn get(self, bytes: &[u8]) -> f32 {
        match self {
            Encoding::F32 => f32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]),
            Encoding::U16 => f32::from(u16::from_le_bytes([bytes[0], bytes[1]])) / 65535.0,
        }
    }
}

impl fmt::Display for Encoding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Encoding::F32 => "f32",
            Encoding::U16 => "u16 (65535ths)",
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

    /// The whole file's length in bytes.
    #[must_use]
    pub fn file_len(&self) -> u64 {
        self.encoding.file_len(&self.layout)
    }
}

/// Writes `values` in `encoding` with their header to `path`, whole or not at all: to
/// a temporary file beside it, synced, then renamed over it.
///
/// # Errors
///
/// Any error creating, writing or renaming the file.
pub fn write_table(
    path: &Path,
    layout: &Layout,
    encoding: Encoding,
    layers_left: u64,
    values: &[f32],
) -> Result<(), TableFileError> {
    let tmp = temporary(path);
    let result = (|| {
        // The values first, after room for the header, which their checksum completes.
        let mut out = BufWriter::with_capacity(1 << 20, File::create(&tmp)?);
        out.write_all(&vec![0; header_len(layout)])?;
        let mut crc = crc32fast::Hasher::new();
        let mut bytes = Vec::with_capacity(1 << 16);
        for chunk in values.chunks(1 << 14) {
            bytes.clear();
            for &v in chunk {
                encoding.put(v, &mut bytes);
            }
            crc.update(&bytes);
            out.write_all(&bytes)?;
        }
        let header = Header {
            layout: layout.clone(),
            encoding,
            layers_left,
            crc: crc.finalize(),
        };
        out.seek(SeekFrom::Start(0))?;
        out.write_all(&header.to_bytes())?;
        let file = out.into_inner().map_err(io::IntoInnerError::into_error)?;
        file.sync_all()?;
        fs::rename(&tmp, path)
    })();
    if result.is_err() {
        fs::remove_file(&tmp).ok();
    }
    result.map_err(|e| TableFileError::Io(path.to_owned(), e))
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
    let mut paths: Vec<PathBuf> = fs::read_dir(dir)?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "table"))
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
    let io = |e| TableFileError::Io(path.to_owned(), e);
    let mut file = File::open(path).map_err(io)?;
    let len = file.metadata().map_err(io)?.len();
    let mut h = Vec::with_capacity(GOALS_HEADER_LEN);
    Read::by_ref(&mut file)
        .take(GOALS_HEADER_LEN as u64)
        .read_to_end(&mut h)
        .map_err(io)?;
    let header = Header::from_bytes(path, &h)?;
    if len != header.file_len() {
        return Err(TableFileError::Invalid(
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
        ));
    }
    Ok(header)
}

/// Reads a (possibly unfinished) table file's values into memory, checking its
/// checksum: to go on with a stopped build.
///
/// # Errors
///
/// As [`read_header`], and a checksum that does not match.
pub fn read_values(path: &Path) -> Result<(Header, Vec<f32>), TableFileError> {
    let io = |e| TableFileError::Io(path.to_owned(), e);
    let header = read_header(path)?;
    // In chunks, so that reading takes no memory beside the values themselves.
    let mut file = io::BufReader::new(File::open(path).map_err(io)?);
    file.seek(SeekFrom::Start(header_len(&header.layout) as u64))
        .map_err(io)?;
    let width = header.encoding.width();
    let mut values = Vec::with_capacity(header.layout.len() as usize);
    let mut crc = crc32fast::Hasher::new();
    let mut chunk = vec![0u8; width << 16];
    let mut left = header.layout.len() as usize;
    while left > 0 {
        let bytes = &mut chunk[..width * left.min(1 << 16)];
        file.read_exact(bytes).map_err(io)?;
        crc.update(bytes);
        values.extend(bytes.chunks_exact(width).map(|b| header.encoding.get(b)));
        left -= bytes.len() / width;
    }
    if crc.finalize() != header.crc {
        return Err(damaged(path));
    }
    Ok((header, values))
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
