//! Building a table into its file, in a way that a stopped build goes on from where it
//! was.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::file::{read_bytes, read_header, with_suffix, write_bytes, Encoding, TableFileError};
use crate::layout::Layout;
use crate::rank::LayerIndex;
use crate::solve::Sweep;

/// How far a build has come.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BuildProgress {
    /// The layer just solved (layers are solved from the top down to 0).
    pub layer: u64,
    /// The states solved so far, those of earlier runs of a resumed build included.
    pub states_done: u64,
    /// All the table's states.
    pub states: u64,
}

/// How a build ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BuildOutcome {
    /// The table is written, whole.
    Finished,
    /// Stopped when asked, its progress saved: building again goes on from there.
    Stopped {
        /// The layers left to solve.
        layers_left: u64,
    },
}

/// The file where a build of `path` keeps its progress until it finishes.
#[must_use]
pub fn partial_path(path: &Path) -> PathBuf {
    with_suffix(path, ".partial")
}

/// What a file already at a build's path holds, for a build of one layout there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Existing {
    /// No finished table of the layout: no file, or one that is not a readable table
    /// (which the build replaces). Build it.
    Absent,
    /// The layout's table, finished, its values stored in this encoding: nothing to
    /// build.
    Built(Encoding),
    /// A table of another layout, which a build would replace.
    Other(Box<Layout>),
}

/// What the file at `path` holds, for a build of `layout` there (see [`Existing`]):
/// the rule every front end applies before it builds, so that a finished table is not
/// built again and another table is not replaced unasked.
///
/// ```
/// use std::time::Duration;
/// use ai2048_tables::{build, existing, Encoding, Existing, Layout};
///
/// let dir = tempfile::tempdir()?;
/// let path = dir.path().join("t.table");
/// let layout = Layout::new("xxxx/xxxx/xxxx/x.tt".parse()?, 16)?;
/// assert_eq!(existing(&path, &layout), Existing::Absent);
/// build(&layout, &path, Encoding::F32, Duration::from_secs(60), |_| true)?;
/// assert_eq!(existing(&path, &layout), Existing::Built(Encoding::F32));
/// let other = Layout::new("xxxx/xxxx/xxxx/x.tt".parse()?, 32)?;
/// assert_eq!(existing(&path, &other), Existing::Other(Box::new(layout)));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[must_use]
pub fn existing(path: &Path, layout: &Layout) -> Existing {
    match read_header(path) {
        Ok(h) if h.layout != *layout => Existing::Other(Box::new(h.layout)),
        Ok(h) if h.layers_left == 0 => Existing::Built(h.encoding),
        _ => Existing::Absent,
    }
}

/// The memory a build of `layout` in `encoding` needs at its peak, in bytes: every
/// state's value in `encoding`, the three layers it holds as `f32` (the one it solves
/// and the two above it), and the index of the layers' states.
///
/// ```
/// use ai2048_tables::{build_memory, Encoding, Layout};
///
/// let layout = Layout::new("xxxx/xxxx/xx../..tt".parse()?, 64)?;
/// let (f32, u8) = (build_memory(&layout, Encoding::F32), build_memory(&layout, Encoding::U8));
/// assert!(f32 > 4 * layout.len() && u8 > layout.len() && u8 < f32);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[must_use]
pub fn build_memory(layout: &Layout, encoding: Encoding) -> u64 {
    let largest = layout.layer_sizes().into_iter().max().unwrap_or(0);
    let values = encoding.bytes_for(layout.len());
    // Three layers of `f32`, and as much again for the rows' values while a layer is
    // collected; the program itself (its network among them), some 64 MiB.
    values + 32 * largest + LayerIndex::memory(layout) + (64 << 20)
}

/// Builds the table of `layout` into `path` in `encoding`, on every thread of rayon's
/// pool, a layer at a time: the build holds every state's value in `encoding`, and only
/// three layers as `f32` (see [`build_memory`]).
///
/// If [`partial_path`] holds a stopped build of the same table, the build goes on from
/// there. Every `checkpoint` the progress so far is saved there (written whole, as
/// every table file is; and no sooner than ten times as long as the last save took, so
/// that a table of billions of states spends a tenth of its time at most saving), and when `progress` returns `false` (asked to stop), the
/// progress is saved and the build returns [`BuildOutcome::Stopped`]. A finished build
/// writes `path` and removes the partial file. `path`'s folder is made first if it is
/// missing, so that a build does not find it missing at its first checkpoint.
///
/// ```
/// use std::time::Duration;
/// use ai2048_tables::{build, BuildOutcome, Encoding, Layout, Table};
///
/// let dir = tempfile::tempdir()?;
/// let path = dir.path().join("new/small.table");
/// let layout = Layout::new("xxxx/xxxx/xxxx/x.tt".parse()?, 16)?;
/// let outcome = build(&layout, &path, Encoding::F32, Duration::from_secs(60), |_| true)?;
/// assert_eq!(outcome, BuildOutcome::Finished);
/// let table = Table::open(&path)?;
/// assert_eq!(table.layout(), &layout);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
///
/// A partial file of another table or encoding, or one that is damaged, and any error
/// reading or writing the files.
pub fn build(
    layout: &Layout,
    path: &Path,
    encoding: Encoding,
    checkpoint: Duration,
    mut progress: impl FnMut(&BuildProgress) -> bool,
) -> Result<BuildOutcome, TableFileError> {
    if let Some(folder) = path.parent().filter(|f| !f.as_os_str().is_empty()) {
        std::fs::create_dir_all(folder).map_err(|e| TableFileError::Io(folder.to_owned(), e))?;
    }
    let partial = partial_path(path);
    let sizes = layout.layer_sizes();
    let (mut bytes, layers_left, lowest) = if partial.exists() {
        resumed(layout, encoding, &partial)?
    } else {
        (
            zeros(layout, encoding, path)?,
            layout.top_layer() + 1,
            Vec::new(),
        )
    };
    let mut sweep = Sweep::resume(layout, layers_left, lowest);
    let mut states_done: u64 = sizes[layers_left as usize..].iter().sum();
    let mut last_save = Instant::now();
    let mut save_took = Duration::ZERO;
    while let Some(layer) = sweep.step(|i, v, best| encoding.store(&mut bytes, i as usize, v, best))
    {
        states_done += sizes[layer as usize];
        let go_on = progress(&BuildProgress {
            layer,
            states_done,
            states: layout.len(),
        });
        if layer > 0 && (!go_on || last_save.elapsed() >= checkpoint.max(10 * save_took)) {
            let saving = Instant::now();
            write_bytes(&partial, layout, encoding, layer, &bytes, sweep.lowest())?;
            last_save = Instant::now();
            save_took = saving.elapsed();
            if !go_on {
                return Ok(BuildOutcome::Stopped { layers_left: layer });
            }
        }
    }
    write_bytes(path, layout, encoding, 0, &bytes, [&[], &[]])?;
    std::fs::remove_file(&partial).ok();
    Ok(BuildOutcome::Finished)
}

/// The progress of a stopped build of `layout` saved in `partial`: every state's value
/// in `encoding`, the layers left, and the `f32` values of the two lowest layers
/// solved.
fn resumed(
    layout: &Layout,
    encoding: Encoding,
    partial: &Path,
) -> Result<(Vec<u8>, u64, Vec<f32>), TableFileError> {
    let invalid = |what: String| TableFileError::Invalid(partial.to_owned(), what);
    let (header, bytes, tail) = read_bytes(partial).map_err(|e| match e {
        TableFileError::Invalid(_, what) => invalid(format!(
            "{what}: not a build's progress this version can go on with; remove it to \
             build the table from the start"
        )),
        e @ TableFileError::Io(..) => e,
    })?;
    if &header.layout != layout {
        return Err(invalid(format!(
            "holds a build of another table ({} to {}): remove it to build {} to {}",
            header.layout.pattern(),
            header.layout.target(),
            layout.pattern(),
            layout.target()
        )));
    }
    if header.encoding != encoding {
        return Err(invalid(format!(
            "holds a build in {}, not {encoding}: build in {} to go on with it, or remove \
             it to build in {encoding} from the start",
            header.encoding, header.encoding
        )));
    }
    if header.layers_left > layout.top_layer() + 1 {
        return Err(invalid(format!(
            "says {} layers are left, where the table has {}",
            header.layers_left,
            layout.top_layer() + 1
        )));
    }
    Ok((bytes, header.layers_left, tail))
}

/// Every state's value in `encoding`, all 0, or an error naming `path` where the
/// memory cannot be had (a table far too large for the machine), not an abort.
fn zeros(layout: &Layout, encoding: Encoding, path: &Path) -> Result<Vec<u8>, TableFileError> {
    let too_large = || {
        TableFileError::Invalid(
            path.to_owned(),
            format!(
                "{} to {} holds {} states: too many to solve in this machine's memory",
                layout.pattern(),
                layout.target(),
                layout.len()
            ),
        )
    };
    let len = usize::try_from(encoding.bytes_for(layout.len())).map_err(|_| too_large())?;
    let mut bytes = Vec::new();
    bytes.try_reserve_exact(len).map_err(|_| too_large())?;
    bytes.resize(len, 0);
    Ok(bytes)
}
