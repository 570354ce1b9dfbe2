//! Endgame tables in play: a player that searches, and where the board's large tiles
//! stand in a table's formation, checks the searched move against the table.
//!
//! A table answers only where its world is the game's and its target joins the
//! board's chain of large tiles ([`ai2048_tables::Table::chain_query`]), or, for a
//! table with goals, where its fixed tiles stand as a block that no moving tile can
//! merge with ([`ai2048_tables::Table::block_query`]); among the
//! tables that answer, one at its own stage decides where its target is at least
//! [`ai2048_tables::OWN_STAGE_FROM`], or [`ai2048_tables::OWN_STAGE_LATE`] where the
//! board holds a 16384 (its target the block's edge, so that its goal met merges into
//! the block: the tables of smaller targets answer there too, for a step on the way),
//! else the one whose best move is likeliest to succeed
//! ([`ai2048_tables::answer_rank`]). Its
//! best move replaces the searched one when that is clearly worse by the table (see
//! [`WithTables`]). Where no full table answers, a distilled table
//! ([`ai2048_tables::Distilled`]: the tables' moves for the states games met most)
//! answers with its move if it kept the board's state; the library embeds one when
//! the build finds `tables/distilled.dt` ([`builtin_distilled`]). A table not built
//! may be solved in play, once a step is far enough along ([`OnTheFly`]).

use std::sync::Arc;
use std::time::Duration;

use ai2048_engine::{Board, Dir};
use ai2048_tables::{Distilled, Layout, Table};
use web_time::Instant;

use crate::{Player, SearchLimits, SearchResult, TableUse};

mod builtin;
mod leaves;
mod solving;

pub use builtin::{
    builtin_distilled, builtin_distilled_len, install_builtin_distilled, BUILTIN_DISTILLED,
};
pub use leaves::TableLeaves;
pub use solving::{OnTheFly, SolveStats};

/// A set of solved tables, and of distilled ones ([`Distilled`]: the tables' moves
/// for the states games meet most), shared by every player and thread of a process.
#[derive(Debug, Default)]
pub struct EndgameTables {
    tables: Vec<(String, Table)>,
    distilled: Vec<(String, Arc<Distilled>)>,
}

/// A table's answer for a board: the best move, its success probability, and every
/// move's.
#[derive(Clone, Debug, PartialEq)]
pub struct TableMove {
    /// The table that answered, by name.
    pub table: String,
    /// Its best move.
    pub dir: Dir,
    /// The probability that the best move makes the table's target.
    pub probability: f64,
    /// Every move's probability, `None` where a move is illegal or leaves the table.
    pub moves: [Option<f64>; 4],
    /// Whether `probability` and `moves` are the table's odds: `false` for a table of
    /// moves ([`ai2048_tables::Encoding::Moves`]), which keeps each state's best move
    /// alone and answers with it valued 1 and every other move of its world 0.
    pub odds: bool,
    /// Whether the board stands at the table's own stage ([`ai2048_tables::Query::own_stage`]):
    /// from the target [`ai2048_tables::own_stage_from_on`] gives for the board on (the
    /// player's `tables-own-from` and `tables-own-late` set it otherwise), such an answer
    /// decides before any of a table of a smaller target, whose goal is only a step on
    /// the way to this one's.
    pub own_stage: bool,
}

/// Two moves' probabilities this close are one: sums over the spawns of equal stored
/// values differ in their last bits with the order they are added in (two moves of a
/// `u8` table at its highest level, 0.9999, by 1e-16), and a billionth of a chance
/// means nothing to a game.
const TIE: f64 = 1e-9;

impl TableMove {
    /// Whether a searched move `dir` stands against this answer: the table's best is
    /// below `min`, or `dir` is within `slack` of it (a tie within [`TIE`] stands too).
    fn keeps(&self, dir: Option<Dir>, min: f64, slack: f64) -> bool {
        self.probability < min
            || dir
                .and_then(|d| self.moves[d as usize])
                .is_some_and(|p| p >= self.probability - slack - TIE)
    }

    /// Whether this answer overrules every move but its best, so that no search can
    /// change what is played.
    fn decides(&self, min: f64, slack: f64) -> bool {
        Dir::ALL
            .into_iter()
            .all(|d| d == self.dir || !self.keeps(Some(d), min, slack))
    }

    /// The result that plays this answer's move, with `searched`'s count of the work.
    fn result(&self, table: TableUse, searched: SearchResult) -> SearchResult {
        SearchResult {
            dir: Some(self.dir),
            value: self.probability,
            dir_values: self.moves,
            table,
            ..searched
        }
    }
}

impl EndgameTables {
    /// A set of the given tables, each with a name.
    ///
    /// ```
    /// use ai2048_ai::endgame::EndgameTables;
    /// use ai2048_tables::{Layout, Table};
    ///
    /// let table = Table::solve(Layout::new("xxxx/xxxx/t.../....".parse()?, 16)?);
    /// let tables = EndgameTables::new(vec![("snake8-16".to_owned(), table)]);
    /// let board = "8192 4096 2048 1024/16 32 64 128/8 0 0 0/0 0 0 8".parse()?;
    /// let answer = tables.best(board).expect("the 16 ends the chain above the target cell");
    /// assert_eq!(answer.table, "snake8-16");
    /// assert!(answer.probability > 0.5);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn new(tables: Vec<(String, Table)>) -> EndgameTables {
        EndgameTables {
            tables,
            distilled: Vec::new(),
        }
    }

    /// The same set with a distilled table named `name` as well: it answers a board
    /// that no full table of the set answers, if it kept the board's state.
    ///
    /// ```
    /// use std::sync::Arc;
    /// use ai2048_ai::endgame::EndgameTables;
    /// use ai2048_tables::{Distiller, Layout, Table};
    ///
    /// let table = Table::solve(Layout::new("xxxx/xxxx/t.../....".parse()?, 16)?);
    /// let full = [("snake8-16".to_owned(), table)];
    /// let board = "8192 4096 2048 1024/16 32 64 128/8 0 0 0/0 0 0 8".parse()?;
    /// let mut distiller = Distiller::new(&full);
    /// distiller.record(board);
    /// let distilled = Arc::new(distiller.finish(1 << 20)?.0);
    /// let tables = EndgameTables::default().with_distilled("met".to_owned(), distilled);
    /// let answer = tables.best(board).expect("the board's state was kept");
    /// assert_eq!(answer.table, "met:snake8-16");
    /// assert_eq!(Some(answer.dir), full[0].1.play_query(board).unwrap().best().map(|b| b.0));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn with_distilled(mut self, name: String, distilled: Arc<Distilled>) -> EndgameTables {
        self.distilled.push((name, distilled));
        self
    }

    /// How many tables the set holds, a distilled table counting as one.
    #[must_use]
    pub fn len(&self) -> usize {
        self.tables.len() + self.distilled.len()
    }

    /// Whether the set holds no table.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The full tables of the set, each with its name: what a [`Distiller`] counts the
    /// states of.
    ///
    /// [`Distiller`]: ai2048_tables::Distiller
    #[must_use]
    pub fn tables(&self) -> &[(String, Table)] {
        &self.tables
    }

    /// Whether the set holds distilled tables alone, no full one.
    #[must_use]
    pub fn is_distilled(&self) -> bool {
        self.tables.is_empty() && !self.distilled.is_empty()
    }

    /// Whether a table of the set has goals: a formation's block, answered by
    /// [`Table::block_query`], for which the formation player plays
    /// ([`crate::resolve_player`]).
    #[must_use]
    pub fn has_goals(&self) -> bool {
        let distilled = self.distilled.iter().flat_map(|(_, d)| d.layouts());
        self.tables
            .iter()
            .map(|(_, t)| t.layout())
            .chain(distilled)
            .any(|l| l.pattern().has_goals())
    }

    /// The tables' names, then the distilled tables'.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        let distilled = self.distilled.iter().map(|(n, _)| n.as_str());
        self.tables.iter().map(|(n, _)| n.as_str()).chain(distilled)
    }

    /// The answer of the tables whose formation and chain (or block, for a table with
    /// goals) `board` matches, ranked as the default player ranks them
    /// ([`ai2048_tables::answer_rank`] with [`ai2048_tables::own_stage_from_on`]): one
    /// at its own stage ([`TableMove::own_stage`]) of a target from that tile on if any
    /// is, else the likeliest.
    #[must_use]
    pub fn best(&self, board: Board) -> Option<TableMove> {
        let own_from = ai2048_tables::own_stage_from_on(board);
        self.best_of(board, false, own_from, None)
    }

    /// The largest success probability the full tables of the set (those with goals
    /// alone if `goals_only`) hold for `board` where a search ends
    /// ([`Table::leaf_value`]: one look a symmetry, 1 for a block that meets a goal);
    /// `None` if none answers. Distilled tables keep moves, not values, and are not
    /// asked.
    ///
    /// ```
    /// use ai2048_ai::endgame::EndgameTables;
    /// use ai2048_tables::{Layout, Table};
    ///
    /// let table = Table::solve(Layout::new("xxx./xx1./1.../.... ..../..1./.11./....".parse()?, 8)?);
    /// let tables = EndgameTables::new(vec![("block-8".to_owned(), table)]);
    /// let block = "4096 2048 1024 2/512 256 4 2/4 0 0 0/0 0 0 2".parse()?;
    /// let p = tables.leaf_value(block, true).expect("the block stands");
    /// assert!(p > 0.0 && p < 1.0, "{p}");
    /// assert_eq!(tables.leaf_value("2 4 8 16/0 0 0 0/0 0 0 0/0 0 0 0".parse()?, true), None);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn leaf_value(&self, board: Board, goals_only: bool) -> Option<f64> {
        self.tables
            .iter()
            .filter(|(_, t)| !goals_only || t.layout().pattern().has_goals())
            .filter_map(|(_, t)| t.leaf_value(board))
            .reduce(f64::max)
    }

    /// As [`EndgameTables::best`], among the tables with goals alone if `goals_only`,
    /// an answer at its own stage first from a target of `own_from` on, and among the
    /// tables `solved` in play as well.
    fn best_of(
        &self,
        board: Board,
        goals_only: bool,
        own_from: u32,
        solved: Option<&OnTheFly>,
    ) -> Option<TableMove> {
        let mut best: Option<(TableMove, (bool, f64))> = None;
        let tables = self
            .tables
            .iter()
            .map(|(n, t)| (n.as_str(), t))
            .chain(solved.into_iter().flat_map(OnTheFly::tables))
            .filter(|(_, t)| !goals_only || t.layout().pattern().has_goals());
        for (name, table) in tables {
            let Some(query) = table.play_query(board) else {
                continue;
            };
            let Some((dir, probability)) = query.best() else {
                continue;
            };
            let target = table.layout().target();
            let key = ai2048_tables::answer_rank(query.own_stage, target, probability, own_from);
            if best.as_ref().is_none_or(|b| key > b.1) {
                let answer = TableMove {
                    table: name.to_owned(),
                    dir,
                    probability,
                    moves: query.moves,
                    odds: table.has_values(),
                    own_stage: query.own_stage,
                };
                best = Some((answer, key));
            }
        }
        if let Some((answer, _)) = best {
            return Some(answer);
        }
        let mut best: Option<TableMove> = None;
        let accept = |layout: &Layout| !goals_only || layout.pattern().has_goals();
        for (name, distilled) in &self.distilled {
            let Some(answer) = distilled.answer_among(board, accept) else {
                continue;
            };
            if best
                .as_ref()
                .is_none_or(|b| answer.probability > b.probability)
            {
                let mut moves = [None; 4];
                moves[answer.dir as usize] = Some(answer.probability);
                let part = distilled.names().nth(answer.part).unwrap_or_default();
                best = Some(TableMove {
                    table: format!("{name}:{part}"),
                    dir: answer.dir,
                    probability: answer.probability,
                    moves,
                    odds: true,
                    own_stage: false,
                });
            }
        }
        best
    }
}

#[cfg(not(target_arch = "wasm32"))]
mod files {
    use std::collections::HashMap;
    use std::path::{Path, PathBuf};
    use std::sync::{Arc, Mutex};

    use ai2048_tables::{Distilled, Table};

    use super::EndgameTables;

    impl EndgameTables {
        /// Opens every finished table (`*.table`) in `dir`, checking each one's checksum,
        /// and every distilled table (`*.dt`); an unfinished build (`*.table.partial`)
        /// is not a table yet. A folder that does not exist holds no tables; `dir` may
        /// also be a distilled table's file.
        ///
        /// # Errors
        ///
        /// A folder that cannot be read, or a table file that is damaged, truncated or
        /// not a table: the message names the file and what is wrong.
        pub fn open_dir(dir: &Path) -> Result<EndgameTables, String> {
            if !dir.exists() {
                return Ok(EndgameTables::default());
            }
            if dir.is_file() {
                let (name, distilled) = EndgameTables::open_distilled(dir)?;
                return Ok(EndgameTables::default().with_distilled(name, distilled));
            }
            let paths = ai2048_tables::table_files(dir)
                .map_err(|e| format!("cannot read the tables folder {}: {e}", dir.display()))?;
            let mut tables = Vec::new();
            for path in paths {
                let table = Table::open(&path).map_err(|e| {
                    format!("{e} (`ai2048 tables build --force` builds it again; --tables off plays without tables)")
                })?;
                let name = path
                    .file_stem()
                    .unwrap_or_default()
                    .to_string_lossy()
                    .into_owned();
                tables.push((name, table));
            }
            let mut set = EndgameTables::new(tables);
            let distilled = ai2048_tables::distilled_files(dir)
                .map_err(|e| format!("cannot read the tables folder {}: {e}", dir.display()))?;
            for path in distilled {
                let (name, distilled) = EndgameTables::open_distilled(&path)?;
                set = set.with_distilled(name, distilled);
            }
            Ok(set)
        }

        /// Reads the distilled table at `path` (a whole file of a few megabytes,
        /// checked), named by its file's stem.
        ///
        /// # Errors
        ///
        /// A file that cannot be read or is not a sound distilled table.
        pub fn open_distilled(path: &Path) -> Result<(String, Arc<Distilled>), String> {
            let bytes =
                std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
            let distilled =
                Distilled::from_bytes(&bytes).map_err(|e| format!("{}: {e}", path.display()))?;
            let name = path.file_stem().unwrap_or_default().to_string_lossy();
            Ok((name.into_owned(), Arc::new(distilled)))
        }

        /// The tables of `dir`, opened once a process: every player made afterwards
        /// shares them, and with them the one mapping of each file.
        ///
        /// # Errors
        ///
        /// As [`EndgameTables::open_dir`].
        pub fn shared(dir: &Path) -> Result<Arc<EndgameTables>, String> {
            static OPENED: Mutex<Option<HashMap<PathBuf, Arc<EndgameTables>>>> = Mutex::new(None);
            let key = dir.canonicalize().unwrap_or_else(|_| dir.to_owned());
            let mut opened = OPENED.lock().unwrap_or_else(|e| e.into_inner());
            let map = opened.get_or_insert_with(HashMap::new);
            if let Some(tables) = map.get(&key) {
                return Ok(Arc::clone(tables));
            }
            let tables = Arc::new(EndgameTables::open_dir(dir)?);
            map.insert(key, Arc::clone(&tables));
            Ok(tables)
        }
    }
}

/// The board's largest tile from which [`WithTables::own_stage_late`] ranks the
/// answers (option `tables-own-late`): the first 16384, from which the block of five
/// is rebuilt and the last step to 32768 played.
pub use ai2048_tables::LATE_FROM;

/// A player that lets `inner` search, and where a table answers, checks the search's
/// move against it: when the table's best move succeeds with at least `min`
/// probability and the searched move with less than that best less `slack`, it plays
/// the table's move instead.
///
/// With `slack` 0, every move the table finds worse than its best is overruled; with
/// `slack` 1, none is.
///
/// Where the table's best move is ahead of every other by more than `slack` (and
/// reaches `min`), any searched move would be either that move or one overruled by it:
/// the player then plays it without searching ([`TableUse::Decided`]), the same move
/// in microseconds, and a game's clock (or a time bank, [`Player::unsearched`]) keeps
/// the time for the moves that need it.
pub struct WithTables {
    inner: Box<dyn Player>,
    tables: Arc<EndgameTables>,
    min: f64,
    slack: f64,
    from: u32,
    goals_only: bool,
    own_from: u32,
    own_late: Option<u32>,
    solving: Option<OnTheFly>,
    table_moves: u64,
    /// The table that answered the last search, if one did, and whether it keeps odds.
    answered: Option<(String, bool)>,
}

impl WithTables {
    /// `inner` with `tables`, overruling a searched move when a table's best move, of
    /// probability at least `min`, beats it by more than `slack`.
    #[must_use]
    pub fn new(
        inner: Box<dyn Player>,
        tables: Arc<EndgameTables>,
        min: f64,
        slack: f64,
    ) -> WithTables {
        WithTables {
            inner,
            tables,
            min,
            slack,
            from: 0,
            goals_only: false,
            own_from: ai2048_tables::OWN_STAGE_FROM,
            own_late: Some(ai2048_tables::OWN_STAGE_LATE),
            solving: None,
            table_moves: 0,
            answered: None,
        }
    }

    /// The same player, consulting the tables only on boards that hold a tile of at
    /// least `tile` (before that, the search alone plays).
    ///
    /// ```
    /// use std::sync::Arc;
    /// use ai2048_ai::endgame::{EndgameTables, WithTables};
    /// use ai2048_ai::{create_player, Player, SearchLimits, TableUse};
    /// use ai2048_tables::{Layout, Table};
    ///
    /// let table = Table::solve(Layout::new("xxxx/xxxx/t.../....".parse()?, 16)?);
    /// let tables = Arc::new(EndgameTables::new(vec![("snake8-16".to_owned(), table)]));
    /// let board = "8192 4096 2048 1024/16 32 64 128/8 8 0 0/0 0 0 0".parse()?;
    /// let limits = SearchLimits::default();
    /// let greedy = || create_player(&"greedy:tables=off".parse().unwrap(), 0).unwrap();
    /// let mut late = WithTables::new(greedy(), Arc::clone(&tables), 0.0, 0.2).from_tile(16384);
    /// assert_eq!(late.search(board, &limits).table, TableUse::None, "no 16384 yet");
    /// let mut always = WithTables::new(greedy(), tables, 0.0, 0.2).from_tile(8192);
    /// assert_ne!(always.search(board, &limits).table, TableUse::None);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn from_tile(self, tile: u32) -> WithTables {
        WithTables { from: tile, ..self }
    }

    /// The same player, consulting only the tables with goals (a formation's block,
    /// see [`EndgameTables::has_goals`]), as the formation player does: a folder may
    /// hold other tables too.
    #[must_use]
    pub fn goals_only(self, goals_only: bool) -> WithTables {
        WithTables { goals_only, ..self }
    }

    /// The same player, ranking an answer at its table's own stage first where that
    /// table's target is at least `tile` ([`ai2048_tables::answer_rank`]), on every
    /// board unless [`WithTables::own_stage_late`] is called after it for the boards
    /// that hold a 16384: a tile above every table's target lets the likeliest answer
    /// decide always. By default the rule is [`ai2048_tables::own_stage_from_on`]'s.
    #[must_use]
    pub fn own_stage_from(self, tile: u32) -> WithTables {
        WithTables {
            own_from: tile,
            own_late: None,
            ..self
        }
    }

    /// The same player, ranking an answer at its table's own stage first from a target
    /// of `tile` on where the board holds a tile of at least [`LATE_FROM`] (the
    /// rebuild after the first 16384, the last step to 32768 and the steps past it),
    /// and as [`WithTables::own_stage_from`] says before (by default
    /// [`ai2048_tables::OWN_STAGE_LATE`] and [`ai2048_tables::OWN_STAGE_FROM`]).
    ///
    /// ```
    /// use std::sync::Arc;
    /// use ai2048_ai::endgame::{EndgameTables, WithTables};
    /// use ai2048_ai::{create_player, Player, SearchLimits};
    /// use ai2048_tables::{Layout, Table};
    ///
    /// let pattern = "xxxx/xxxx/xx../.... ..../..../..1./..1.";
    /// let solve = |target| Layout::new(pattern.parse().unwrap(), target).map(Table::solve);
    /// let tables = Arc::new(EndgameTables::new(vec![
    ///     ("t16".to_owned(), solve(16)?),
    ///     ("t32".to_owned(), solve(32)?),
    /// ]));
    /// // The block's edge is a 32: the table to 32 at its own stage, the table to 16
    /// // for a step on the way, and likelier.
    /// let board = "16384 8192 4096 2048/128 256 512 1024/64 32 2 0/0 2 0 0".parse()?;
    /// let greedy = || create_player(&"greedy:tables=off".parse().unwrap(), 0).unwrap();
    /// let mut player = WithTables::new(greedy(), Arc::clone(&tables), 0.0, 0.2)
    ///     .own_stage_from(64)
    ///     .own_stage_late(32);
    /// player.search(board, &SearchLimits::default());
    /// assert_eq!(player.table_name(), Some("t32"), "the board holds a 16384");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn own_stage_late(self, tile: u32) -> WithTables {
        WithTables {
            own_late: Some(tile),
            ..self
        }
    }

    /// The tile from which an answer at its own stage ranks first on `board`.
    fn own_from_on(&self, board: Board) -> u32 {
        match self.own_late {
            Some(late) if board.max_tile() >= LATE_FROM => late,
            _ => self.own_from,
        }
    }

    /// The same player, solving in play the tables of `solving` as it needs them,
    /// besides those of its set (see [`OnTheFly`]).
    #[must_use]
    pub fn solving(self, solving: OnTheFly) -> WithTables {
        WithTables {
            solving: Some(solving),
            ..self
        }
    }

    /// What the tables solved in play have cost this player so far, if it solves any.
    #[must_use]
    pub fn solve_stats(&self) -> Option<SolveStats> {
        self.solving.as_ref().map(OnTheFly::stats)
    }

    /// How many moves of this player came from a table since it was made.
    #[must_use]
    pub fn table_moves(&self) -> u64 {
        self.table_moves
    }

    /// The move for `board`: the table's `answer` where it decides, else the search's,
    /// checked against it.
    fn checked(
        &mut self,
        board: Board,
        limits: &SearchLimits,
        start: Instant,
        answer: Option<&TableMove>,
    ) -> SearchResult {
        if let Some(answer) = answer.filter(|a| a.decides(self.min, self.slack)) {
            self.table_moves += 1;
            self.inner.unsearched(limits, start.elapsed());
            return answer.result(TableUse::Decided, SearchResult::default());
        }
        let searched = self.inner.search(board, limits);
        let Some(answer) = answer else {
            return searched;
        };
        if answer.keeps(searched.dir, self.min, self.slack) {
            return SearchResult {
                table: TableUse::Kept,
                ..searched
            };
        }
        self.table_moves += 1;
        answer.result(TableUse::Played, searched)
    }
}

impl Player for WithTables {
    fn name(&self) -> &str {
        self.inner.name()
    }

    fn search(&mut self, board: Board, limits: &SearchLimits) -> SearchResult {
        let start = Instant::now();
        let answer = (board.max_tile() >= self.from)
            .then(|| {
                if let Some(solving) = &mut self.solving {
                    solving.prepare(board);
                }
                let solved = self.solving.as_ref();
                let own_from = self.own_from_on(board);
                self.tables
                    .best_of(board, self.goals_only, own_from, solved)
            })
            .flatten();
        let result = self.checked(board, limits, start, answer.as_ref());
        self.answered = answer.map(|a| (a.table, a.odds));
        result
    }

    fn new_game(&mut self) {
        if let Some(solving) = &mut self.solving {
            solving.new_game();
        }
        self.answered = None;
        self.inner.new_game();
    }

    fn unsearched(&mut self, limits: &SearchLimits, spent: Duration) {
        self.inner.unsearched(limits, spent);
    }

    fn table_name(&self) -> Option<&str> {
        self.answered.as_ref().map(|(name, _)| name.as_str())
    }

    fn table_keeps_odds(&self) -> bool {
        self.answered.as_ref().is_none_or(|&(_, odds)| odds)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ai2048_tables::{own_stage_from_on, Layout};

    /// A player that always answers the same move, with 7 nodes: to see who answered.
    struct Always(Dir);

    impl Player for Always {
        fn name(&self) -> &str {
            "always"
        }

        fn search(&mut self, _: Board, _: &SearchLimits) -> SearchResult {
            SearchResult {
                dir: Some(self.0),
                nodes: 7,
                ..SearchResult::default()
            }
        }
    }

    fn tables() -> Arc<EndgameTables> {
        let table = Table::solve(Layout::new("xxxx/xxxx/t.../....".parse().unwrap(), 16).unwrap());
        Arc::new(EndgameTables::new(vec![("snake8-16".to_owned(), table)]))
    }

    /// One block formation, six moving cells, solved to 16 (`t16`) and to 32 (`t32`);
    /// the goal: two halves of the target lined up in the third column, below the
    /// block's 32 beside them. And a board whose block's edge is that 32, under a 16384:
    /// the table to 32 is at its own stage, and the table to 16 answers too, its goal
    /// (two 8s) only a step on the way to the 32.
    fn own_stage_tables() -> (EndgameTables, Board) {
        let pattern = "xxxx/xxxx/xx../.... ..../..../..1./..1.";
        let solve = |target| Table::solve(Layout::new(pattern.parse().unwrap(), target).unwrap());
        let tables = EndgameTables::new(vec![
            ("t16".to_owned(), solve(16)),
            ("t32".to_owned(), solve(32)),
        ]);
        let at_32 = "16384 8192 4096 2048/128 256 512 1024/64 32 2 0/0 2 0 0"
            .parse()
            .unwrap();
        (tables, at_32)
    }

    #[test]
    fn a_table_answers_where_the_chain_asks_for_its_target_and_the_search_elsewhere() {
        let limits = SearchLimits::default();
        let mut player = WithTables::new(Box::new(Always(Dir::Up)), tables(), 0.0, 0.0);
        // Left merges the two 8s into a 16 in the target cell, under the chain's 16.
        let chain: Board = "8192 4096 2048 1024/16 32 64 128/8 8 0 0/0 0 0 0"
            .parse()
            .unwrap();
        let answer = player.search(chain, &limits);
        assert_eq!(answer.dir, Some(Dir::Left), "the table overruled up");
        assert_eq!(answer.value, 1.0);
        assert_eq!(player.table_moves(), 1);

        // No chain ends in a 16: the search answers.
        let other: Board = "8192 4096 2048 1024/32 64 128 256/8 8 0 0/0 0 0 0"
            .parse()
            .unwrap();
        assert_eq!(player.search(other, &limits).dir, Some(Dir::Up));

        // Within the slack, or below the threshold, the search's move stands.
        let lenient = WithTables::new(Box::new(Always(Dir::Up)), tables(), 0.0, 1.0);
        let picky = WithTables::new(Box::new(Always(Dir::Up)), tables(), 1.0, 0.0);
        let unsure: Board = "8192 4096 2048 1024/16 32 64 128/2 0 0 0/0 0 0 2"
            .parse()
            .unwrap();
        assert!(tables().best(unsure).unwrap().probability < 1.0);
        for mut p in [lenient, picky] {
            assert_eq!(p.search(unsure, &limits).dir, Some(Dir::Up));
            // Up moves nothing on `chain`: the table overrules it, whatever the slack.
            assert_eq!(p.search(chain, &limits).dir, Some(Dir::Left));
        }
    }

    #[test]
    fn the_player_names_the_table_that_answered_its_last_search() {
        let limits = SearchLimits::default();
        let mut player = WithTables::new(Box::new(Always(Dir::Up)), tables(), 0.0, 0.2);
        assert_eq!(player.table_name(), None, "nothing searched yet");
        let chain: Board = "8192 4096 2048 1024/16 32 64 128/2 0 0 0/0 0 0 2"
            .parse()
            .unwrap();
        let kept = player.search(chain, &limits);
        assert_ne!(kept.table, TableUse::None);
        assert_eq!(player.table_name(), Some("snake8-16"));
        let other: Board = "8192 4096 2048 1024/32 64 128 256/8 8 0 0/0 0 0 0"
            .parse()
            .unwrap();
        assert_eq!(player.search(other, &limits).table, TableUse::None);
        assert_eq!(player.table_name(), None, "no table answered this board");
        player.search(chain, &limits);
        player.new_game();
        assert_eq!(
            player.table_name(),
            None,
            "a new game forgets the last answer"
        );
        assert_eq!(
            Always(Dir::Up).table_name(),
            None,
            "a player without tables"
        );
    }

    #[test]
    fn the_player_tells_whether_the_table_that_answered_keeps_its_odds() {
        use ai2048_tables::Encoding;
        let dir = tempfile::tempdir().unwrap();
        let layout = Layout::new("xxxx/xxxx/t.../....".parse().unwrap(), 16).unwrap();
        let chain: Board = "8192 4096 2048 1024/16 32 64 128/2 0 0 0/0 0 0 2"
            .parse()
            .unwrap();
        let mut kept = Vec::new();
        for encoding in [Encoding::U16, Encoding::Moves] {
            let path = dir.path().join(format!("{encoding:?}.table"));
            ai2048_tables::build(&layout, &path, encoding, Duration::ZERO, |_| true).unwrap();
            let table = Table::open(&path).unwrap();
            let tables = Arc::new(EndgameTables::new(vec![("snake8-16".to_owned(), table)]));
            // Down moves the fixed tiles: never the table's move, always overruled.
            let mut player = WithTables::new(Box::new(Always(Dir::Down)), tables, 0.0, 0.0);
            let answer = player.search(chain, &SearchLimits::default());
            assert!(answer.table.played(), "{encoding:?}: {answer:?}");
            assert_eq!(player.table_name(), Some("snake8-16"));
            kept.push((player.table_keeps_odds(), answer.value));
            player.new_game();
            assert!(player.table_keeps_odds(), "no table has answered");
        }
        let (u16_odds, u16_value) = kept[0];
        assert!(u16_odds && u16_value > 0.0 && u16_value < 1.0, "{kept:?}");
        assert_eq!(kept[1], (false, 1.0), "a table of moves values its move 1");
    }

    /// A player with `tables`, solving in play the table of `solve` (a layout and the
    /// most states a solve may reach), if any; its searches always answer up.
    fn solving_player(tables: Arc<EndgameTables>, solve: Option<(Layout, u64)>) -> WithTables {
        let player = WithTables::new(Box::new(Always(Dir::Up)), tables, 0.0, 0.0);
        match solve {
            Some((layout, max)) => {
                player.solving(OnTheFly::new(vec![("block-8".to_owned(), layout)], max))
            }
            None => player,
        }
    }

    /// Plays games of seeds `seeds` from `start` until its tiles sum 256 more, with `play`'s moves,
    /// asking `other` the same boards, and gives what each answered on each board.
    fn play_beside(
        play: &mut WithTables,
        other: &mut WithTables,
        start: Board,
        seeds: std::ops::Range<u64>,
    ) -> Vec<(Board, SearchResult, SearchResult)> {
        use ai2048_engine::{Game, Rules, SpawnStream};
        let limits = SearchLimits::default();
        let mut seen = Vec::new();
        for seed in seeds {
            let rules = Rules::default();
            let mut game = Game::from_board(seed, rules, SpawnStream::Sequential, start).unwrap();
            play.new_game();
            other.new_game();
            while !game.is_over() && game.board().tile_sum() < start.tile_sum() + 256 {
                let board = game.board();
                let a = play.search(board, &limits);
                let b = other.search(board, &limits);
                let dir = a.dir.filter(|&d| board.can_move(d));
                seen.push((board, a, b));
                let Some(dir) = dir.or_else(|| Dir::ALL.into_iter().find(|&d| board.can_move(d)))
                else {
                    break;
                };
                game.play(dir);
            }
        }
        seen
    }

    #[test]
    fn a_table_solved_in_play_answers_as_the_built_one() {
        let pattern = "xxx./xx1./1.../.... ..../..1./.11./....";
        let layout = Layout::new(pattern.parse().unwrap(), 8).unwrap();
        let built = Arc::new(EndgameTables::new(vec![(
            "block-8".to_owned(),
            Table::solve(layout.clone()),
        )]));
        let none = Arc::new(EndgameTables::default());
        let mut with_built = solving_player(built, None);
        let mut with_solving = solving_player(none, Some((layout, u64::MAX)));
        let start: Board = "4096 2048 1024 0/512 8 0 0/0 0 0 0/0 0 4 2"
            .parse()
            .unwrap();
        let seen = play_beside(&mut with_built, &mut with_solving, start, 0..3);
        let mut answered = 0;
        for (board, a, b) in &seen {
            assert_eq!(
                (a.dir, a.table, a.value),
                (b.dir, b.table, b.value),
                "{board:?}"
            );
            answered += u32::from(a.table != TableUse::None);
        }
        assert!(
            answered > 10,
            "the table answered {answered} boards: a weak check"
        );
        let stats = with_solving.solve_stats().unwrap();
        assert!(stats.solved >= 3 && stats.refused == 0, "{stats:?}");
    }

    #[test]
    fn a_solve_past_its_limit_waits_until_the_step_is_further_along() {
        let pattern = "xxx./xx1./1.../.... ..../..1./.11./....";
        let layout = Layout::new(pattern.parse().unwrap(), 8).unwrap();
        let start: Board = "4096 2048 1024 0/512 8 0 0/0 0 0 0/0 0 4 2"
            .parse()
            .unwrap();
        let all = ai2048_tables::solve_from(&layout, start, u64::MAX)
            .unwrap()
            .unwrap();
        let none = || Arc::new(EndgameTables::default());
        let mut limited = solving_player(none(), Some((layout.clone(), all.states_held() / 4)));
        let mut unlimited = solving_player(none(), Some((layout, u64::MAX)));
        let seen = play_beside(&mut unlimited, &mut limited, start, 0..1);
        let (_, first, refused) = &seen[0];
        assert_ne!(first.table, TableUse::None);
        assert_eq!(
            refused.table,
            TableUse::None,
            "the start reaches too many states"
        );
        let stats = limited.solve_stats().unwrap();
        assert!(stats.refused >= 1 && stats.solved >= 1, "{stats:?}");
        // Once it solved, it answers as the player without a limit.
        let later = seen
            .iter()
            .position(|(_, _, b)| b.table != TableUse::None)
            .unwrap();
        for (board, a, b) in &seen[later..] {
            if b.table != TableUse::None {
                assert_eq!((a.dir, a.value), (b.dir, b.value), "{board:?}");
            }
        }
    }

    #[test]
    fn a_player_of_goals_only_passes_over_a_table_without_goals() {
        let chain: Board = "8192 4096 2048 1024/16 32 64 128/8 8 0 0/0 0 0 0"
            .parse()
            .unwrap();
        assert!(!tables().has_goals());
        let mut player =
            WithTables::new(Box::new(Always(Dir::Up)), tables(), 0.0, 0.0).goals_only(true);
        let answer = player.search(chain, &SearchLimits::default());
        assert_eq!((answer.dir, answer.table), (Some(Dir::Up), TableUse::None));
        assert_eq!(player.table_moves(), 0);
    }

    #[test]
    fn moves_tied_but_for_the_last_bits_are_tied() {
        // `block11-256` (u8) at `4096 2048 16 0/512 256 16 4/256 16 2 0/8 2 2 0`.
        let top = 0.999_899_983_406_067_1;
        let answer = TableMove {
            table: "block11-256".to_owned(),
            dir: Dir::Up,
            probability: top,
            moves: [
                Some(top),
                Some(0.999_896_821_975_708_2),
                Some(0.999_899_983_406_067),
                None,
            ],
            odds: true,
            own_stage: true,
        };
        assert!(answer.keeps(Some(Dir::Left), 0.0, 0.0), "left ties with up");
        assert!(
            !answer.keeps(Some(Dir::Down), 0.0, 0.0),
            "down is 3e-6 worse"
        );
        assert!(
            !answer.decides(0.0, 0.0),
            "the search chooses between up and left"
        );
    }

    #[test]
    fn a_table_at_its_own_stage_decides_before_a_likelier_one_of_a_smaller_target() {
        let (tables, at_32) = own_stage_tables();
        let likeliest = |board| {
            let mut all: Vec<_> = tables
                .tables()
                .iter()
                .filter_map(|(n, t)| Some((t.block_query(board)?.best()?.1, n.clone())))
                .collect();
            all.sort_by(|a, b| a.0.total_cmp(&b.0));
            assert_eq!(all.len(), 2, "both tables answer {board:?}");
            all.pop().unwrap()
        };
        assert_eq!(
            likeliest(at_32).1,
            "t16",
            "two 8s are likelier than two 16s"
        );
        let own = tables.best_of(at_32, false, 32, None).unwrap();
        assert_eq!((own.table.as_str(), own.own_stage), ("t32", true));
        // Where its target is below the tile the rank asks for, the likeliest decides.
        for own_from in [64, 131_072] {
            let answer = tables.best_of(at_32, false, own_from, None).unwrap();
            assert_eq!(answer.table, "t16", "{own_from}");
        }
        let default = tables.best(at_32).unwrap().table;
        let expected = if 32 >= own_stage_from_on(at_32) {
            "t32"
        } else {
            "t16"
        };
        assert_eq!(default, expected, "best() ranks as the default player");
        // With a 64 at the edge, neither table is at its own stage: the likeliest decides.
        let at_64: Board = "32768 16384 8192 4096/256 512 1024 2048/128 64 2 0/0 2 0 0"
            .parse()
            .unwrap();
        let answer = tables.best_of(at_64, false, 2, None).unwrap();
        let (p, name) = likeliest(at_64);
        assert_eq!(
            (answer.table, answer.probability, answer.own_stage),
            (name, p, false)
        );
    }

    #[test]
    fn the_late_rank_holds_only_where_the_board_holds_a_16384() {
        let (tables, late) = own_stage_tables();
        let tables = Arc::new(tables);
        // The same block's edge (a 32) without the 16384 in the corner.
        let early: Board = "8 8192 4096 2048/128 256 512 1024/64 32 2 0/0 2 0 0"
            .parse()
            .unwrap();
        let answered = |own_from, own_late: Option<u32>, board| {
            let player = WithTables::new(Box::new(Always(Dir::Up)), Arc::clone(&tables), 0.0, 0.2)
                .own_stage_from(own_from);
            let mut player = match own_late {
                Some(tile) => player.own_stage_late(tile),
                None => player,
            };
            player.search(board, &SearchLimits::default());
            player.table_name().map(str::to_owned)
        };
        for board in [late, early] {
            assert_eq!(answered(32, None, board).as_deref(), Some("t32"));
            assert_eq!(answered(64, None, board).as_deref(), Some("t16"));
        }
        assert_eq!(answered(64, Some(32), late).as_deref(), Some("t32"));
        assert_eq!(answered(32, Some(64), late).as_deref(), Some("t16"));
        assert_eq!(answered(64, Some(32), early).as_deref(), Some("t16"));
        assert_eq!(answered(32, Some(64), early).as_deref(), Some("t32"));
    }

    #[test]
    fn a_move_decided_without_a_search_is_the_one_the_search_would_have_ended_with() {
        let limits = SearchLimits::default();
        let tables = tables();
        let (mut decided, mut searched) = (0, 0);
        // Boards of the table's chain with the eight moving cells filled pseudo-randomly
        // with 0, 2, 4 or 8; each played by a searcher of every fixed move.
        let mut x: u64 = 0x2048;
        for _ in 0..400 {
            let mut cells = String::from("8192 4096 2048 1024/16 32 64 128");
            for i in 0..8 {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                let tile = [0, 2, 4, 8][(x % 4) as usize];
                cells.push(if i % 4 == 0 { '/' } else { ' ' });
                cells.push_str(&tile.to_string());
            }
            let board: Board = cells.parse().unwrap();
            let Some(answer) = tables.best(board) else {
                continue;
            };
            for slack in [0.0, 0.2] {
                for dir in Dir::ALL {
                    let mut player =
                        WithTables::new(Box::new(Always(dir)), tables.clone(), 0.0, slack);
                    let result = player.search(board, &limits);
                    let kept =
                        answer.moves[dir as usize].is_some_and(|p| p >= answer.probability - slack);
                    let expected = if kept { dir } else { answer.dir };
                    assert_eq!(
                        result.dir,
                        Some(expected),
                        "{board:?}, slack {slack}, search {dir:?}"
                    );
                    if result.table == TableUse::Decided {
                        assert_eq!(result.nodes, 0, "decided without a search");
                        decided += 1;
                    } else {
                        assert_eq!(result.nodes, 7);
                        searched += 1;
                    }
                }
            }
        }
        assert!(
            decided > 100 && searched > 100,
            "{decided} decided, {searched} searched"
        );
    }

    /// A player that counts the moves chosen for it without its search.
    struct Counting(Arc<std::sync::atomic::AtomicUsize>);

    impl Player for Counting {
        fn name(&self) -> &str {
            "counting"
        }

        fn search(&mut self, _: Board, _: &SearchLimits) -> SearchResult {
            SearchResult {
                dir: Some(Dir::Up),
                ..SearchResult::default()
            }
        }

        fn unsearched(&mut self, _: &SearchLimits, spent: Duration) {
            assert!(
                spent < Duration::from_secs(1),
                "a table's move takes microseconds"
            );
            self.0.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        }
    }

    #[test]
    fn a_move_decided_by_a_table_is_told_to_the_player_that_did_not_search_it() {
        let count = Arc::new(std::sync::atomic::AtomicUsize::new(0));
        let limits = SearchLimits::with_time(Duration::from_millis(1));
        let mut player =
            WithTables::new(Box::new(Counting(Arc::clone(&count))), tables(), 0.0, 0.0);
        let told = || count.load(std::sync::atomic::Ordering::Relaxed);
        // Every move but left leaves the chain's world or fails: the table decides.
        let chain: Board = "8192 4096 2048 1024/16 32 64 128/8 8 0 0/0 0 0 0"
            .parse()
            .unwrap();
        let result = player.search(chain, &limits);
        assert_eq!(
            (result.dir, result.table),
            (Some(Dir::Left), TableUse::Decided)
        );
        assert_eq!(told(), 1);
        // No table answers: the player searches, and is told nothing.
        let other: Board = "8192 4096 2048 1024/32 64 128 256/8 8 0 0/0 0 0 0"
            .parse()
            .unwrap();
        assert_eq!(player.search(other, &limits).table, TableUse::None);
        assert_eq!(told(), 1);
    }
}
