//! The built-in tables: the formations the default player makes, and the default set.

use crate::file::Encoding;
use crate::layout::Layout;
use crate::pattern::Pattern;

/// A formation of fixed tiles with its pattern, to be solved for several targets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Formation {
    /// The formation's name, the first part of its tables' names.
    pub name: &'static str,
    /// The pattern, as [`Pattern`] parses it.
    pub pattern: &'static str,
    /// What the formation is.
    pub about: &'static str,
}

/// The built-in formations. Their tables are named `FORMATION-TARGET`, as `snake8-128`.
pub const FORMATIONS: [Formation; 9] = [
    Formation {
        name: "snake8",
        pattern: "xxxx/xxxx/t.../....",
        about: "the two top rows fixed, as a snake of large tiles that turns at the right; \
                the target to make below the snake's end, at the left of the third row",
    },
    Formation {
        name: "snake7",
        pattern: "xxxx/txxx/.t../....",
        about: "the top row and three of the second fixed; the target to make beside the \
                snake's end, at the second row's left end (where the snake goes on) or \
                below",
    },
    Formation {
        name: "snake6",
        pattern: "xxxx/.txx/..t./....",
        about: "the top row and two of the second fixed; the target to make beside the \
                snake's end, to its left or below it",
    },
    Formation {
        name: "cap8",
        pattern: "xxxx/xxxx/t1../....",
        about: "snake8 with a cap: the cell beside the target cell holds at most half the \
                target (for targets up to 1024)",
    },
    Formation {
        name: "cap7",
        pattern: "xxxx/txxx/1122/2233",
        about: "snake7 building only beside the snake's end, the tiles away from it capped \
                at a half, a quarter and an eighth of the target",
    },
    Formation {
        name: "cap6",
        pattern: "xxxx/1txx/2234/4455",
        about: "snake6 building only beside the snake's end, the tiles capped from a half of \
                the target beside it to a 32nd in the far corner",
    },
    Formation {
        name: "block11",
        pattern: "xxx2/xx12/2222/3333 ...2/..12/..../.... ..../..12/...2/.... \
                  ...2/..13/...3/.... ..../..1./.22./.... ..../..1./..22/....",
        about: "a block of five large tiles in the corner (three on the top row, two below), \
                the eleven cells around it capped; the goal: the pieces of the target lined \
                up to merge beside the block (at 256: 1.2 GB as u8, as the default set keeps it)",
    },
    Formation {
        name: "block10",
        pattern: "xxx1/xxx2/1233/3333 ..../..../123./..3. ..../..../1233/.... \
                  ..../..../12../33.. ..../..../12../.33. ...1/...2/..33/.... \
                  ...1/...2/...3/...3",
        about: "a block of six large tiles in the corner (three on each of the top two \
                rows), the ten cells around it capped; the goal: the pieces of the target \
                lined up to merge beside the block (at 1024: 4.2 GB, built in about 4.3 GiB)",
    },
    Formation {
        name: "open10",
        pattern: "xxx./xxx./..../3333 ..../...0/..../.... ..../..../..0./....",
        about: "block10's block of six with its ten cells open (only the bottom row capped, \
                at an eighth of the target); the goal: the target itself, made beside the \
                block's smallest tile (right of it or below it), which it answers only \
                where that tile is the target (at 512: in the default set as moves, 0.6 GB; \
                in the large set as u16, 4.5 GiB)",
    },
];

/// The tables `ai2048 tables build` builds when none is named, each with how its values
/// are stored: macroxue's two block formations, for which the default player becomes
/// the formation player (`ai2048_ai::resolve_player`). The 11-cell block to 128 and
/// 256 builds each new tile beside a block of five; the 10-cell block to 128, 256 and
/// 512 carries a block of six from 8192 on (without it, 16384 in 38% of games at depth
/// 4, not 83%). The tables to 128 play the stages before a block's tiles reach 256
/// (at 0.158 ms a move, 8192 in 97% of 400 games and 16384 in 86%, not 92% and 80%).
/// The 11-cell block to 256 is stored as `u8`, which halves the largest table: its
/// values in play sit above 0.99, where `u8` is fine, and it plays as it does as `u16`.
/// `open10-512` plays the last step before 32768 with the block's ten cells open, as
/// the large set's does, from its best moves alone ([`Encoding::Moves`], an eighth of
/// its `u16` file): from 38 boards where games met the step, 32768 in 83.1% of the
/// games against 79.2% without it. 3.5 GiB on disk, built in 8-17 minutes
/// on 2 cores and 1.6 GiB of memory.
pub const DEFAULT_SET: [(&str, Encoding); 6] = [
    ("block11-256", Encoding::U8),
    ("block10-512", Encoding::U16),
    ("open10-512", Encoding::Moves),
    ("block10-256", Encoding::U16),
    ("block11-128", Encoding::U16),
    ("block10-128", Encoding::U16),
];

/// The tables the large set adds to the default set ([`large_set`]), or stores in
/// another encoding than the default set does, each with its encoding.
///
/// `open10-512`, the last step before 32768 with the block's ten cells open and the
/// 512 itself the goal, with its probabilities (the default set keeps its moves alone,
/// which play the same). Its world's odds, 0.83 where the block of six first stands,
/// against `block10-512`'s 0.79, are what the game makes of them only in `u16`: stored
/// as `u8`, its close moves tie and the search picks among them, and the step is made
/// no more often than with the default set alone. From that board the step is made in
/// 82.6% of games, not 78.2%; from the boards where the block of five stood in real
/// games, 80.5% of the last two steps, not 79.0%, and in whole games a point or so,
/// which 400 games do not tell from none. 4.5 GiB on disk, built in about 5 minutes
/// on 2 cores and 4.7 GiB of memory.
///
/// `block10-1024`, the last step before 65536: the pieces of a 1024 beside the block
/// `32768 16384 8192 / 1024 2048 4096`, 0.093 where it first stands. From a new 32768
/// at depth 4, 65536 in 11 of 800 games with it (as with it in `u16`, twice the size)
/// and in none without; in 2 of 400 whole games, where the default set made none.
/// 2.0 GiB on disk, built in about 6 minutes on 2 cores and 2.3 GiB of memory. The
/// large set in all: 9.4 GiB.
pub const LARGE_SET_EXTRA: [(&str, Encoding); 2] = [
    ("open10-512", Encoding::U16),
    ("block10-1024", Encoding::U8),
];

/// A built-in table: its name, formation and layout.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Builtin {
    /// The table's name, as `snake8-128`.
    pub name: String,
    /// Its formation.
    pub formation: Formation,
    /// Its pattern and target.
    pub layout: Layout,
    /// How its values are stored when it is built without `--encoding`: the default
    /// set's choice for a table of the set ([`DEFAULT_SET`]), `u16` for any other.
    pub encoding: Encoding,
}

impl Builtin {
    /// The file name of the table in a tables folder: its name and `.table`.
    #[must_use]
    pub fn file_name(&self) -> String {
        format!("{}.table", self.name)
    }
}

/// The built-in table named `name` (`FORMATION-TARGET`, as `snake8-128`), stored as
/// the default set stores it if it is one of the set's, else as `u16`.
///
/// ```
/// use ai2048_tables::{builtin, Encoding};
/// let table = builtin("snake8-128")?;
/// assert_eq!(table.layout.target(), 128);
/// assert_eq!(table.file_name(), "snake8-128.table");
/// assert_eq!(table.encoding, Encoding::U16);
/// assert_eq!(builtin("block11-256")?.encoding, Encoding::U8, "as the default set");
/// assert!(builtin("snake9-128").is_err());
/// # Ok::<(), String>(())
/// ```
///
/// # Errors
///
/// A name that is no formation's, or a target that is not a power of two the tables
/// take, with the names that would do.
pub fn builtin(name: &str) -> Result<Builtin, String> {
    let known = || {
        FORMATIONS
            .iter()
            .map(|f| format!("{}-TARGET", f.name))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let (formation, target) = name
        .rsplit_once('-')
        .ok_or_else(|| format!("{name:?} is not a table's name: one of {}", known()))?;
    let formation = *FORMATIONS
        .iter()
        .find(|f| f.name == formation)
        .ok_or_else(|| {
            format!(
                "{name:?}: no formation {formation:?}; the tables are {}",
                known()
            )
        })?;
    let target: u32 = target
        .parse()
        .map_err(|_| format!("{name:?}: the target {target:?} is not a tile"))?;
    let pattern: Pattern = formation
        .pattern
        .parse()
        .expect("the built-in patterns parse");
    let layout = Layout::new(pattern, target).map_err(|e| format!("{name:?}: {e}"))?;
    let encoding = DEFAULT_SET
        .iter()
        .chain(&LARGE_SET_EXTRA)
        .find(|(n, _)| *n == name)
        .map_or(Encoding::U16, |&(_, e)| e);
    Ok(Builtin {
        name: name.to_owned(),
        formation,
        layout,
        encoding,
    })
}

/// The default set's tables, each with its encoding.
///
/// ```
/// use ai2048_tables::{default_set, Encoding};
/// let set = default_set();
/// assert!(set.iter().any(|t| t.name == "block10-512" && t.encoding == Encoding::U16));
/// assert!(set.iter().any(|t| t.name == "block11-256" && t.encoding == Encoding::U8));
/// ```
#[must_use]
pub fn default_set() -> Vec<Builtin> {
    set_of(&DEFAULT_SET)
}

/// The large set's tables: the default set's and [`LARGE_SET_EXTRA`]'s, each with its
/// encoding (the latter's where both name a table), as `ai2048 tables build --large`
/// builds them.
///
/// ```
/// use ai2048_tables::{default_set, large_set, Encoding};
/// let (large, default) = (large_set(), default_set());
/// assert!(default.iter().all(|t| large.iter().any(|l| l.name == t.name)));
/// assert!(large.iter().any(|t| t.name == "open10-512" && t.encoding == Encoding::U16));
/// assert!(default.iter().any(|t| t.name == "open10-512" && t.encoding == Encoding::Moves));
/// assert!(large.iter().any(|t| t.name == "block10-1024" && t.encoding == Encoding::U8));
/// assert!(default.iter().all(|t| t.name != "block10-1024"));
/// ```
#[must_use]
pub fn large_set() -> Vec<Builtin> {
    let (extra, default) = (set_of(&LARGE_SET_EXTRA), default_set());
    let added: Vec<Builtin> = extra
        .iter()
        .filter(|e| !default.iter().any(|t| t.name == e.name))
        .cloned()
        .collect();
    default
        .into_iter()
        .map(|t| {
            extra
                .iter()
                .find(|e| e.name == t.name)
                .cloned()
                .unwrap_or(t)
        })
        .chain(added)
        .collect()
}

/// The built-in tables a set names, in its order, each in the set's encoding.
fn set_of(entries: &[(&str, Encoding)]) -> Vec<Builtin> {
    entries
        .iter()
        .map(|&(name, encoding)| Builtin {
            encoding,
            ..builtin(name).expect("a set's names are built-in tables")
        })
        .collect()
}

/// The folder where tables are built and looked for unless told otherwise:
/// `$AI2048_TABLES` if set, else `ai2048/tables` in the user's cache folder
/// (`$XDG_CACHE_HOME` or `~/.cache` on Linux), else `ai2048-tables` in the current
/// folder.
#[cfg(not(target_arch = "wasm32"))]
#[must_use]
pub fn default_dir() -> std::path::PathBuf {
    if let Some(dir) = std::env::var_os("AI2048_TABLES").filter(|d| !d.is_empty()) {
        return dir.into();
    }
    dirs::cache_dir()
        .map(|d| d.join("ai2048").join("tables"))
        .unwrap_or_else(|| "ai2048-tables".into())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_set_and_every_formation_make_tables() {
        assert_eq!(default_set().len(), DEFAULT_SET.len());
        let replaced = LARGE_SET_EXTRA
            .iter()
            .filter(|(n, _)| DEFAULT_SET.iter().any(|(d, _)| d == n))
            .count();
        assert_eq!(
            replaced, 1,
            "open10-512: moves in the default set, u16 in the large"
        );
        assert_eq!(
            large_set().len(),
            DEFAULT_SET.len() + LARGE_SET_EXTRA.len() - replaced
        );
        for f in FORMATIONS {
            assert!(builtin(&format!("{}-256", f.name)).is_ok());
        }
        for bad in ["snake8", "snake8-100", "snake8-4", "nope-128", "snake8-x"] {
            assert!(builtin(bad).unwrap_err().contains(bad), "{bad}");
        }
    }
}
