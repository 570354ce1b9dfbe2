//! The `tables`, `tables-min`, `tables-slack`, `tables-from`, `tables-goals`,
//! `tables-leaves`, `tables-own-from`, `tables-own-late` and `tables-solve` options, which every player
//! takes: which endgame tables a player consults, from which tile on, how far it trusts
//! them, which of them decides, and which it solves in play.

use std::sync::Arc;

use crate::endgame::EndgameTables;
use crate::{PlayerError, PlayerSpec};

use super::options::{parse_option, tile_option, weight_option};
use super::DEFAULT_PLAYER;

/// The options every player takes for its tables, read by [`tables_for`].
pub(crate) const OPTIONS: [&str; 9] = [
    "tables",
    "tables-min",
    "tables-slack",
    "tables-from",
    "tables-goals",
    "tables-leaves",
    "tables-own-from",
    "tables-own-late",
    "tables-solve",
];

/// The tables `spec` asks for, with the probability from which to play their moves:
/// `None` when it plays without. `tables=off`, `auto` (the default player's default:
/// the user's tables folder, if any table is built there, else the built-in distilled
/// table if the build has one; `$AI2048_TABLES=off` turns it off) or a folder, which
/// must hold tables.
pub(crate) fn tables_for(spec: &PlayerSpec) -> Result<Option<TablesUse>, PlayerError> {
    let min = probability(spec, "tables-min", 0.0)?;
    let slack = probability(spec, "tables-slack", DEFAULT_SLACK)?;
    let from = tile_option(spec, "tables-from")?.map_or(DEFAULT_FROM, |e| 1 << e);
    let goals_only = parse_option::<bool>(spec, "tables-goals", "true or false")?.unwrap_or(false);
    let leaves = weight_option(spec, "tables-leaves")?;
    let (own_from, own_late) = own_stage_tiles(spec)?;
    let solve = parse_option::<u64>(spec, "tables-solve", "a number of states")?.unwrap_or(0);
    let default = if spec.name == DEFAULT_PLAYER {
        "auto"
    } else {
        "off"
    };
    let tables = match spec.option("tables").unwrap_or(default) {
        "off" => None,
        "auto" => auto(spec)?,
        dir => Some(folder(spec, dir)?),
    };
    Ok(tables.map(|tables| TablesUse {
        tables,
        min,
        slack,
        from,
        goals_only,
        leaves,
        own_from,
        own_late,
        solve,
    }))
}

/// The tiles from which an answer at its own stage ranks first (`tables-own-from`,
/// `tables-own-late`): before the first 16384 and from it on. `tables-own-from` given
/// alone sets the rule on every board; by default it is
/// [`ai2048_tables::own_stage_from_on`]'s.
fn own_stage_tiles(spec: &PlayerSpec) -> Result<(u32, u32), PlayerError> {
    let own_from = tile_option(spec, "tables-own-from")?.map(|e| 1 << e);
    let own_late = tile_option(spec, "tables-own-late")?
        .map(|e| 1 << e)
        .or(own_from)
        .unwrap_or(ai2048_tables::OWN_STAGE_LATE);
    Ok((own_from.unwrap_or(ai2048_tables::OWN_STAGE_FROM), own_late))
}

/// The endgame tables a player made from `spec` consults, if any: what a front end
/// reports beside a run, since `auto` depends on what the user has built.
///
/// # Errors
///
/// As [`crate::create_player`] for the `tables` options.
///
/// ```
/// use ai2048_ai::tables_in_use;
/// assert!(tables_in_use(&"greedy".parse()?)?.is_none());
/// assert!(tables_in_use(&"expectimax:tables=off".parse()?)?.is_none());
/// # Ok::<(), ai2048_ai::PlayerError>(())
/// ```
pub fn tables_in_use(spec: &PlayerSpec) -> Result<Option<Arc<EndgameTables>>, PlayerError> {
    Ok(tables_for(spec)?.map(|t| t.tables))
}

/// How far a searched move may fall below a table's best before the table overrules it.
pub(crate) const DEFAULT_SLACK: f64 = 0.2;

/// The smallest tile a board must hold before a table is consulted: endgame tables
/// for the endgame. Before it, tables whose chain ends in a small target (8 to 32)
/// cost games on the way to 16384 (docs/tables-measured.md).
pub(crate) const DEFAULT_FROM: u32 = 16384;

/// The tables a player consults, and how it trusts them (see
/// [`crate::endgame::WithTables`]).
pub(crate) struct TablesUse {
    pub(crate) tables: Arc<EndgameTables>,
    pub(crate) min: f64,
    pub(crate) slack: f64,
    pub(crate) from: u32,
    pub(crate) goals_only: bool,
    /// The weight of the tables' bonus where a search ends, 0 for none (see
    /// [`crate::endgame::TableLeaves`]).
    pub(crate) leaves: f64,
    /// From which table target on an answer at its table's own stage ranks first (see
    /// [`ai2048_tables::answer_rank`]).
    pub(crate) own_from: u32,
    /// The same where the board holds a 16384 or more, `own_from` unless the option
    /// sets it (see [`crate::endgame::WithTables::own_stage_late`]).
    pub(crate) own_late: u32,
    /// At most how many states a table solved in play may take, 0 for none solved.
    pub(crate) solve: u64,
}

impl TablesUse {
    /// The tables to solve in play: those of the default set that the set lacks.
    pub(crate) fn solving(&self) -> Option<crate::endgame::OnTheFly> {
        if self.solve == 0 {
            return None;
        }
        let have: Vec<&str> = self.tables.names().collect();
        let missing = ai2048_tables::default_set()
            .into_iter()
            .filter(|b| !have.contains(&b.name.as_str()))
            .map(|b| (b.name, b.layout))
            .collect();
        Some(crate::endgame::OnTheFly::new(missing, self.solve))
    }
}

/// Option `key` as a probability, `default` when absent.
fn probability(spec: &PlayerSpec, key: &str, default: f64) -> Result<f64, PlayerError> {
    let p = parse_option::<f64>(spec, key, "a probability")?.unwrap_or(default);
    if (0.0..=1.0).contains(&p) {
        Ok(p)
    } else {
        Err(PlayerError::bad_option(
            spec,
            key,
            format!("{p} is not from 0 to 1"),
        ))
    }
}

#[cfg(not(target_arch = "wasm32"))]
fn auto(spec: &PlayerSpec) -> Result<Option<Arc<EndgameTables>>, PlayerError> {
    if std::env::var_os("AI2048_TABLES").is_some_and(|v| v == "off") {
        return Ok(None);
    }
    let tables = EndgameTables::shared(&ai2048_tables::default_dir())
        .map_err(|e| PlayerError::bad_option(spec, "tables", e))?;
    if tables.is_empty() {
        return Ok(crate::endgame::builtin_distilled());
    }
    Ok(Some(tables))
}

#[cfg(not(target_arch = "wasm32"))]
fn folder(spec: &PlayerSpec, dir: &str) -> Result<Arc<EndgameTables>, PlayerError> {
    let path = std::path::Path::new(dir);
    if !path.is_dir() && !path.is_file() {
        return Err(PlayerError::bad_option(
            spec,
            "tables",
            format!(
                "{dir} is not a folder (off, auto, a folder of tables, or a distilled table's file)"
            ),
        ));
    }
    let tables =
        EndgameTables::shared(path).map_err(|e| PlayerError::bad_option(spec, "tables", e))?;
    if tables.is_empty() {
        return Err(PlayerError::bad_option(
            spec,
            "tables",
            format!("{dir} holds no tables: `ai2048 tables build --dir {dir}` builds them"),
        ));
    }
    Ok(tables)
}

#[cfg(target_arch = "wasm32")]
fn auto(_: &PlayerSpec) -> Result<Option<Arc<EndgameTables>>, PlayerError> {
    Ok(crate::endgame::builtin_distilled())
}

#[cfg(target_arch = "wasm32")]
fn folder(spec: &PlayerSpec, _: &str) -> Result<Arc<EndgameTables>, PlayerError> {
    Err(PlayerError::bad_option(
        spec,
        "tables",
        "table files are not read in WebAssembly".to_owned(),
    ))
}

#[cfg(test)]
mod tests {
    use crate::{check_player, create_player, PlayerSpec};

    fn spec(text: &str) -> PlayerSpec {
        text.parse().unwrap()
    }

    #[test]
    fn the_own_stage_rule_is_256_where_a_16384_stands_unless_the_spec_says_otherwise() {
        let tiles = |text| super::own_stage_tiles(&spec(text)).unwrap();
        assert_eq!(tiles("expectimax"), (512, 256));
        assert_eq!(tiles("expectimax:tables-own-late=1024"), (512, 1024));
        // `tables-own-from` alone holds on every board, as before the late rule.
        assert_eq!(
            tiles("expectimax:tables-own-from=131072"),
            (131_072, 131_072)
        );
        assert_eq!(
            tiles("expectimax:tables-own-from=64,tables-own-late=128"),
            (64, 128)
        );
    }

    #[test]
    fn every_player_takes_the_options_and_bad_values_say_why() {
        for ok in [
            "greedy:tables=off",
            "random:tables=off,tables-min=0.5,tables-from=8192",
            "expectimax:tables=off",
            "expectimax:tables=off,tables-leaves=0.5",
            "expectimax:tables=off,tables-own-from=131072",
            "expectimax:tables=off,tables-own-late=256",
            "expectimax:tables=off,tables-solve=1000000",
        ] {
            assert!(check_player(&spec(ok)).is_ok(), "{ok}");
        }
        let empty = tempfile::tempdir().unwrap();
        let empty_dir = format!("greedy:tables={}", empty.path().display());
        for (bad, message) in [
            ("greedy:tables=/no/such/folder", "is not a folder"),
            (empty_dir.as_str(), "holds no tables"),
            ("greedy:tables=off,tables-min=2", "2 is not from 0 to 1"),
            ("greedy:tables-min=x", "is not a probability"),
            ("greedy:tables-own-from=500", "500 is not a tile"),
            ("greedy:tables-own-late=300", "300 is not a tile"),
            (
                "greedy:tables-from=3000",
                "3000 is not a tile from 2 to 131072",
            ),
            ("greedy:tables-from=262144", "262144 is not a tile"),
            ("greedy:tables-from=big", "\"big\" is not a tile"),
            ("greedy:tables-leaves=-1", "-1 is not a weight of 0 or more"),
            (
                "greedy:tables-leaves=inf",
                "inf is not a weight of 0 or more",
            ),
            ("greedy:tables-leaves=much", "a weight of 0 or more"),
            ("greedy:tables-solve=lots", "is not a number of states"),
            ("greedy:tables-solve=-5", "is not a number of states"),
        ] {
            let err = create_player(&spec(bad), 0).err().unwrap().to_string();
            assert!(err.contains(message), "{bad}: {err}");
        }
    }

    #[test]
    fn a_damaged_table_in_the_folder_is_an_error_not_a_move() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("bad.table"), b"not a table").unwrap();
        let err = check_player(&spec(&format!("greedy:tables={}", dir.path().display())))
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("bad.table") && err.contains("not an ai2048 endgame table"),
            "{err}"
        );
    }
}
