//! Building a table into its file, in a way that a stopped build goes on from where it
//! was.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::file::{read_header, read_values, with_suffix, write_table, Encoding, TableFileError};
use crate::layout::Layout;
use crate::solve::solve_layers;

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
    /// The layout's table, finished: nothing to build.
    Built,
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
/// assert_eq!(existing(&path, &layout), Existing::Built);
/// let other = Layout::new("xxxx/xxxx/xxxx/x.tt".parse()?, 32)?;
/// assert_eq!(existing(&path, &other), Existing::Other(Box::new(layout)));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[must_use]
pub fn existing(path: &Path, layout: &Layout) -> Existing {
    match read_header(path) {
        Ok(h) if h.layout != *layout => Existing::Other(Box::new(h.layout)),
        Ok(h) if h.layers_left == 0 => Existing::Built,
        _ => Existing::Absent,
    }
}

/// The memory a build of `layout` needs at its peak, in bytes: a value a state, and the
/// largest layer's states and values at once.
#[must_use]
pub fn build_memory(layout: &Layout) -> u64 {
    let largest = layout.layer_sizes().into_iter().max().unwrap_or(0);
    4 * layout.len() + 12 * largest + (1 << 20)
}

/// Builds the table of `layout` into `path` in `encoding`, on every thread of rayon's
/// pool. (The progress of a stopped build is kept as `f32`, whatever the encoding.)
///
/// If [`partial_path`] holds a stopped build of the same table, the build goes on from
/// there. Every `checkpoint` the progress so far is saved there (written whole, as
/// every table file is), and when `progress` returns `false` (asked to stop), the
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
/// A partial file of another table, or one that is damaged, and any error reading or
/// writing the files.
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
    let (mut values, from) = if partial.exists() {
        let (header, values) = read_values(&partial)?;
        if &header.layout != layout {
            return Err(TableFileError::Invalid(
                partial,
                format!(
                    "holds a build of another table ({} to {}): remove it to build {} to {}",
                    header.layout.pattern(),
                    header.layout.target(),
                    layout.pattern(),
                    layout.target()
                ),
            ));
        }
        (values, header.layers_left.checked_sub(1))
    } else {
        (zeros(layout, path)?, Some(layout.top_layer()))
    };
    let Some(from) = from else {
        write_table(path, layout, encoding, 0, &values)?;
        std::fs::remove_file(&partial).ok();
        return Ok(BuildOutcome::Finished);
    };
    let mut states_done: u64 = sizes[from as usize + 1..].iter().sum();
    let mut last_save = Instant::now();
    let mut stopped = None;
    let mut failed = None;
    solve_layers(layout, &mut values, from, |layer, values| {
        states_done += sizes[layer as usize];
        let go_on = progress(&BuildProgress {
            layer,
            states_done,
            states: layout.len(),
        });
        if layer > 0 && (!go_on || last_save.elapsed() >= checkpoint) {
            if let Err(e) = write_table(&partial, layout, Encoding::F32, layer, values) {
                failed = Some(e);
                return false;
            }
            last_save = Instant::now();
        }
        if !go_on && layer > 0 {
            stopped = Some(layer);
        }
        go_on
    });
    if let Some(e) = failed {
        return Err(e);
    }
    if let Some(layers_left) = stopped {
        return Ok(BuildOutcome::Stopped { layers_left });
    }
    write_table(path, layout, encoding, 0, &values)?;
    std::fs::remove_file(&partial).ok();
    Ok(BuildOutcome::Finished)
}

/// A value for every state of `layout`, all 0, or an error naming `path` where the
/// memory cannot be had (a table far too large for the machine), not an abort.
fn zeros(layout: &Layout, path: &Path) -> Result<Vec<f32>, TableFileError> {
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
    let len = usize::try_from(layout.len()).map_err(|_| too_large())?;
    let mut values = Vec::new();
    values.try_reserve_exact(len).map_err(|_| too_large())?;
    values.resize(len, 0f32);
    Ok(values)
}
