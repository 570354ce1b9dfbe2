//! The distilled table built into the library: `tables/distilled.dt` at the root of
//! the repository when the build found it, read once and shared by every player of the
//! process. It is what the default player plays the endgame from when no full table
//! is built.

use std::sync::{Arc, Once, PoisonError, RwLock};

use ai2048_tables::Distilled;

use super::EndgameTables;

/// The bytes of the built-in distilled table.
#[cfg(ai2048_builtin_distilled)]
static BYTES: Option<&[u8]> = Some(include_bytes!(env!("AI2048_BUILTIN_DISTILLED")));
#[cfg(not(ai2048_builtin_distilled))]
static BYTES: Option<&[u8]> = None;

/// The name the built-in distilled table answers under.
pub const BUILTIN_DISTILLED: &str = "built-in";

/// The built-in table, as a set of tables, once read or installed.
static TABLES: RwLock<Option<Arc<EndgameTables>>> = RwLock::new(None);
/// Reads the embedded bytes into [`TABLES`] the first time they are asked for.
static EMBEDDED: Once = Once::new();

/// The distilled table built into this build, as a set of tables that the players
/// share: read the first time it is asked for. `None` when the build has none and
/// none was [installed](install_builtin_distilled): a native build embeds
/// `tables/distilled.dt` when the file is there as it builds.
///
/// ```
/// use ai2048_ai::endgame::builtin_distilled;
/// if let Some(tables) = builtin_distilled() {
///     assert!(tables.is_distilled() && tables.has_goals());
/// }
/// ```
#[must_use]
pub fn builtin_distilled() -> Option<Arc<EndgameTables>> {
    read_embedded();
    TABLES
        .read()
        .unwrap_or_else(PoisonError::into_inner)
        .clone()
}

/// Makes `distilled` the built-in distilled table from now on, for the players
/// created after: what a WebAssembly page does once it has downloaded the file.
///
/// ```
/// use std::sync::Arc;
/// use ai2048_ai::endgame::{builtin_distilled, install_builtin_distilled};
/// use ai2048_tables::{Distiller, Layout, Table};
///
/// let table = Table::solve(Layout::new("xxxx/xxxx/t.../....".parse()?, 16)?);
/// let full = [("snake8-16".to_owned(), table)];
/// let (distilled, _) = Distiller::new(&full).finish(1 << 20)?;
/// let tables = install_builtin_distilled(distilled);
/// assert!(Arc::ptr_eq(&tables, &builtin_distilled().expect("installed")));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn install_builtin_distilled(distilled: Distilled) -> Arc<EndgameTables> {
    read_embedded();
    let tables = Arc::new(
        EndgameTables::default().with_distilled(BUILTIN_DISTILLED.to_owned(), Arc::new(distilled)),
    );
    *TABLES.write().unwrap_or_else(PoisonError::into_inner) = Some(Arc::clone(&tables));
    tables
}

/// The size of the built-in distilled table's file, when the build has one.
#[must_use]
pub fn builtin_distilled_len() -> Option<usize> {
    BYTES.map(<[u8]>::len)
}

fn read_embedded() {
    EMBEDDED.call_once(|| {
        let Some(bytes) = BYTES else { return };
        match Distilled::from_bytes(bytes) {
            Ok(distilled) => {
                let tables = EndgameTables::default()
                    .with_distilled(BUILTIN_DISTILLED.to_owned(), Arc::new(distilled));
                *TABLES.write().unwrap_or_else(PoisonError::into_inner) = Some(Arc::new(tables));
            }
            Err(e) => {
                // A test checks the built-in table reads; this is a build gone wrong.
                eprintln!(
                    "warning: the built-in distilled table cannot be read ({e}); playing without it"
                );
            }
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_builtin_distilled_table_reads_when_there_is_one() {
        if let Some(bytes) = BYTES {
            let distilled = Distilled::from_bytes(bytes).expect("the built-in table reads");
            assert!(!distilled.is_empty());
        }
    }
}
